/* kf3ds export, checked by others' code (docs/gltf.md, "How it is checked"):
 * the Khronos glTF validator (npm gltf-validator) must find no error and no
 * warning in the export of every sample, corpus file and malformed-input
 * file, and three.js (GLTFLoader + AnimationMixer, an independent glTF
 * reader and player) must place every node's vertices where the library
 * does, at every integer and half frame. Both run under Node from the npm
 * folder $KF3DS_NPM (default build/npm, which `make npm-tools` and .ci/run
 * fill); without Node or the packages those tests say so and skip.
 * The rest (layout, options, errors) needs only the command. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "support.h"
#include "support_boxes.h"
#include "support_build.h"
#include "support_node.h"

/* The deviations the issue asks for, as fractions of the scene's size. */
#define TOL_INTEGER 1e-4
#define TOL_HALF 1e-2
#define TOL_HALF_CUBIC 1e-4

/* Node.js and the npm packages for the validator and three.js checks. */
static int have_node_tools(void)
{
    return support_have_node_tools("test_export");
}

/* ---- exporting ------------------------------------------------------------- */

static void export_file(const char *in, const char *out, const char *opt1, const char *opt2)
{
    support_run r = support_run_tool(NULL, "export", in, "-o", out, "-q", opt1, opt2, (char *)NULL);
    if (r.status != 0) {
        fprintf(stderr, "export %s %s %s: status %d\n%s", in, opt1 ? opt1 : "", opt2 ? opt2 : "",
                r.status, r.err);
        support_run_free(&r);
        fail_msg("export failed");
    }
    support_run_free(&r);
}

/* ---- the reference: the library's placed vertices ------------------------- */

/* Writes REF.json for check_three.mjs at the frames given
 * (support_write_boxes). Returns the number of boxes written: 0 when the
 * file has no node to check. */
static long write_reference(const char *in, const char *ref, double first, double fps,
                            const double *frames, size_t nframes)
{
    kf3ds_scene *s = kf3ds_load_file(in, NULL, NULL);
    FILE *f;
    long boxes;
    assert_non_null(s);
    f = fopen(ref, "w");
    assert_non_null(f);
    boxes = support_write_boxes(f, s, fps, first, frames, nframes);
    assert_true(boxes >= 0);
    assert_int_equal(fclose(f), 0);
    kf3ds_scene_free(s);
    return boxes;
}

typedef struct deviation {
    double integer, half;
    double time_noise; /* how far float32 key times alone may move a vertex */
} deviation;

/* check_three.mjs's mode: NULL, or "nlerp" (LINEAR rotations played as
 * readers that lerp the components and normalise, such as Blender). */
static const char *three_mode;

/* Exports `in` with the options, plays it in three.js at `sub` instants
 * per frame (sub 2: every integer and half frame) of its segment, or of
 * `max_frames` frames spread over it, and returns the worst deviations at
 * integer and at fractional frames (-1 when the file has no node to
 * check). */
static deviation three_deviation_list(const char *in, const char *opt1, const char *opt2,
                                      double first, const double *frames, size_t n);

/* Frames where a rotation key turns by more than SPIN_RAD within one frame
 * (at most MAX_SPINS of them) are played too, whatever the stride: the
 * export's Hermite arcs and float key times are tightest there
 * (blitz3d-mak_robotic's root turns 6.2 rad in frames 286 and 320). */
#define SPIN_RAD 1.0
#define MAX_SPINS 8

static int spin_frames(const kf3ds_scene *s, double first, double last, double *out)
{
    uint32_t i, k;
    int n = 0;
    for (i = 0; i < s->num_nodes; i++) {
        const kf3ds_track *t = &s->nodes[i].tracks[KF3DS_TRACK_ROT];
        for (k = 1; k < t->num_keys && n < MAX_SPINS; k++) {
            double a = t->keys[k - 1].frame, b = t->keys[k].frame;
            if (b - a == 1.0 && fabs(t->keys[k].value[0]) > SPIN_RAD && a >= first && b <= last)
                out[n++] = a;
        }
    }
    return n;
}

static int cmp_frame(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static deviation three_deviation_at(const char *in, const char *opt1, const char *opt2, int sub,
                                    long max_frames)
{
    kf3ds_scene *s = kf3ds_load_file(in, NULL, NULL);
    double *frames, first, last, spins[MAX_SPINS];
    size_t n = 0;
    long k, j, count, stride;
    int m, num_spins;
    deviation d;
    assert_non_null(s);
    first = s->segment_start;
    last = s->segment_end > s->segment_start ? s->segment_end : s->segment_start;
    num_spins = spin_frames(s, first, last, spins);
    kf3ds_scene_free(s);
    count = (long)(last - first) + 1;
    stride = count > max_frames ? (count + max_frames - 1) / max_frames : 1;
    frames = malloc(sizeof *frames * (size_t)(sub * (count + MAX_SPINS) + 2));
    assert_non_null(frames);
    for (k = 0; first + k <= last; k += stride)
        for (j = 0; j < sub && first + k + (double)j / sub <= last; j++)
            frames[n++] = first + k + (double)j / sub;
    for (m = 0; stride > 1 && m < num_spins; m++)
        if (fmod(spins[m] - first, (double)stride) != 0.0)
            for (j = 0; j < sub; j++)
                frames[n++] = spins[m] + (double)j / sub;
    qsort(frames, n, sizeof *frames, cmp_frame); /* check_three's speeds come from neighbours */
    d = three_deviation_list(in, opt1, opt2, first, frames, n);
    free(frames);
    return d;
}

/* Exports `in` with the options and plays it in three.js at the frames
 * given (first: the export's first frame). */
static deviation three_deviation_list(const char *in, const char *opt1, const char *opt2,
                                      double first, const double *frames, size_t n)
{
    char out[4200], ref[4200], args[9000];
    int status;
    long checked;
    char *text;
    deviation d = { -1.0, -1.0, 0.0 };
    const char *tn;
    support_tmp_path(out, sizeof out, "three.glb");
    support_tmp_path(ref, sizeof ref, "three-ref.json");
    export_file(in, out, opt1, opt2);
    checked = write_reference(in, ref, first, 30.0, frames, n);
    if (!checked)
        return d;
    snprintf(args, sizeof args, "'%s' '%s'%s%s", out, ref, three_mode ? " " : "",
             three_mode ? three_mode : "");
    text = support_run_node(&status, "tests/gltf/check_three.mjs", args);
    tn = strstr(text, "time_noise");
    if (!tn || sscanf(tn, "time_noise %lf", &d.time_noise) != 1)
        d.time_noise = 0.0;
    if (status != 0 || sscanf(strstr(text, "worst_integer") ? strstr(text, "worst_integer") : "",
                              "worst_integer %lf %*[^w]worst_half %lf", &d.integer, &d.half) != 2) {
        fprintf(stderr, "check_three on %s: status %d\n%s", in, status, text);
        free(text);
        fail_msg("three.js check failed");
    }
    fprintf(stderr, "  three.js%s%s %s%s%s%s%s: %s", three_mode ? " " : "", three_mode ? three_mode : "",
            strrchr(in, '/') ? strrchr(in, '/') + 1 : in, opt1 ? " " : "", opt1 ? opt1 : "",
            opt2 ? " " : "", opt2 ? opt2 : "", text);
    free(text);
    return d;
}

/* At every integer and half frame. */
static deviation three_deviation(const char *in, const char *opt1, const char *opt2)
{
    return three_deviation_at(in, opt1, opt2, 2, 1L << 30);
}

/* ---- the inputs ---------------------------------------------------------- */

typedef struct file_list {
    char **paths;
    size_t n;
} file_list;

static void add_file(const char *path, const char *name, void *user)
{
    file_list *l = user;
    char full[4200];
    (void)name;
    support_abs_path(full, sizeof full, path);
    l->paths = realloc(l->paths, (l->n + 1) * sizeof *l->paths);
    assert_non_null(l->paths);
    l->paths[l->n++] = strdup(full);
}

/* A file that ends before its root chunk does is damaged for the command
 * (exit 1, docs/output.md "Damaged files"), and so is a text file that starts
 * like a chunk ("====" reads as MDATA): export refuses both. */
static int cut_short(const kf3ds_scene *s)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].offset == 0 && s->diags[i].code == KF3DS_WARN_OVERRUN)
            return 1;
    return 0;
}

static void add_if_loads(const char *path, const char *name, void *user)
{
    kf3ds_scene *s = kf3ds_load_file(path, NULL, NULL);
    if (s && !cut_short(s))
        add_file(path, name, user);
    kf3ds_scene_free(s);
}

/* The samples in data/ and every corpus file that loads. */
static file_list inputs(void)
{
    file_list l = { NULL, 0 };
    add_file("data/arm.3ds", "arm.3ds", &l);
    add_file("data/orrery.3ds", "orrery.3ds", &l);
    add_file("data/edge.3ds", "edge.3ds", &l);
    support_corpus_each(add_if_loads, &l);
    return l;
}

static void free_list(file_list *l)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
}

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* ---- tests ------------------------------------------------------------------- */

/* data/NAME as an absolute path: the command runs in the temporary folder. */
static const char *sample_path(const char *name)
{
    static char buf[4][4200];
    static int next;
    char rel[600];
    char *b = buf[next++ & 3];
    snprintf(rel, sizeof rel, "data/%s", name);
    support_abs_path(b, sizeof buf[0], rel);
    return b;
}

static void test_usage(void **state)
{
    (void)state;
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.dae", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb", "--rate", "0",
                                         (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb", "--frames",
                                         "9:3", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb", "--fps", "0",
                                         (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb",
                                         "--static-frame", "3", "--frames", "0:5", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb", "--bogus",
                                         (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb", "--linear",
                                         "--cubic", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb",
                                         "--tolerance", "0", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb",
                                         "--tolerance", "0.5", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", "x.glb",
                                         "--tolerance", "1e-4", "--every-frame", (char *)NULL), 2);
    support_expect_exit(support_run_tool(NULL, "export", "no-such.3ds", "-o", "x.glb", (char *)NULL), 1);
    support_expect_exit(support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o",
                                         "/no/such/dir/x.glb", (char *)NULL), 1);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The .glb container and the outward facts scripts rely on. */
static void test_glb_layout(void **state)
{
    char out[4200], *json;
    unsigned char *data;
    size_t size;
    uint32_t json_len;
    support_run r;
    (void)state;
    support_tmp_path(out, sizeof out, "arm.glb");
    r = support_run_tool(NULL, "export", sample_path("arm.3ds"), "-o", out, "--fps", "24", (char *)NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "wrote "));
    assert_non_null(strstr(r.out, "frames 0..60 at 24 fps"));
    support_run_free(&r);
    data = support_read_file(out, &size);
    assert_non_null(data);
    assert_true(size > 28);
    assert_memory_equal(data, "glTF", 4);
    assert_int_equal(le32(data + 4), 2);
    assert_int_equal(le32(data + 8), size);
    json_len = le32(data + 12);
    assert_memory_equal(data + 16, "JSON", 4);
    assert_int_equal(json_len % 4, 0);
    assert_true(20 + json_len + 8 <= size);
    assert_memory_equal(data + 20 + json_len + 4, "BIN\0", 4);
    json = calloc(json_len + 1, 1);
    memcpy(json, data + 20, json_len);
    /* The Y-up turn at the root, every keyframer node marked, the time base. */
    assert_non_null(strstr(json, "\"rotation\":[-0.70710677,0,0,0.70710677]"));
    assert_non_null(strstr(json, "\"extras\":{\"kf3ds_index\":0}"));
    assert_non_null(strstr(json, "\"extras\":{\"kf3ds_index\":9}"));
    assert_null(strstr(json, "\"kf3ds_index\":10}"));
    assert_non_null(strstr(json, "\"fps\":24,\"segment_start\":0,\"segment_end\":60"));
    assert_non_null(strstr(json, "\"master_scale\":1"));
    assert_non_null(strstr(json, "\"KHR_lights_punctual\""));
    assert_non_null(strstr(json, "\"KHR_animation_pointer\""));
    free(json);
    free(data);
}

/* .gltf writes a .bin beside it, referenced by its name. */
static void test_gltf_and_bin(void **state)
{
    char out[4200], bin[4200], *json;
    size_t size;
    (void)state;
    support_tmp_path(out, sizeof out, "orrery.gltf");
    support_tmp_path(bin, sizeof bin, "orrery.bin");
    export_file(sample_path("orrery.3ds"), out, NULL, NULL);
    json = (char *)support_read_file(out, &size);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"uri\":\"orrery.bin\""));
    free(json);
    free(support_read_file(bin, &size));
    assert_true(size > 0);
}

/* One pose: no animation, the node at frame 12.5. */
static void test_static_frame(void **state)
{
    char out[4200], *json;
    size_t size;
    (void)state;
    support_tmp_path(out, sizeof out, "static.gltf");
    export_file(sample_path("arm.3ds"), out, "--static-frame", "12.5");
    json = (char *)support_read_file(out, &size);
    assert_non_null(json);
    assert_null(strstr(json, "\"animations\""));
    assert_non_null(strstr(json, "\"static_frame\":12.5"));
    free(json);
}

/* The validator on everything: every input in several forms. */
static void test_validator(void **state)
{
    static const char *const modes[][2] = {
        { NULL, NULL }, { "--cubic", NULL }, { "--visibility-ext", "--embed-images" },
        { "--static-frame", "7.5" }, { "--rate", "3" },
    };
    file_list l = inputs();
    size_t i, m, len = 0, cap = 1 << 16;
    char *args = malloc(cap), out[4200], name[600];
    char *text;
    int status, files = 0;
    (void)state;
    assert_non_null(args);
    args[0] = '\0';
    for (i = 0; i < l.n; i++)
        for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            snprintf(name, sizeof name, "v%lu-%lu-%s.%s", (unsigned long)i, (unsigned long)m,
                     base(l.paths[i]), m == 3 ? "gltf" : "glb");
            support_tmp_path(out, sizeof out, name);
            export_file(l.paths[i], out, modes[m][0], modes[m][1]);
            if (len + strlen(out) + 4 >= cap) {
                cap *= 2;
                args = realloc(args, cap);
                assert_non_null(args);
            }
            len += (size_t)snprintf(args + len, cap - len, " '%s'", out);
            files++;
        }
    if (have_node_tools()) {
        text = support_run_node(&status, "tests/gltf/validate.cjs", args);
        fprintf(stderr, "%s", text);
        assert_int_equal(status, 0);
        assert_non_null(strstr(text, "errors 0 warnings 0"));
        free(text);
        fprintf(stderr, "  glTF validator: %d exports, 0 errors, 0 warnings\n", files);
    }
    free(args);
    free_list(&l);
    if (!have_node_tools())
        skip(); /* the exports were made, but nobody validated them */
}

/* Every animated input played back by three.js, default and --cubic. */
static void test_three_playback(void **state)
{
    file_list l = inputs();
    size_t i;
    double worst_int = 0, worst_half = 0, worst_cubic_int = 0, worst_cubic_half = 0;
    (void)state;
    if (!have_node_tools()) {
        free_list(&l);
        skip();
    }
    for (i = 0; i < l.n; i++) {
        deviation d = three_deviation(l.paths[i], NULL, NULL), dc;
        if (d.integer < 0)
            continue;
        dc = three_deviation(l.paths[i], "--cubic", NULL);
        support_set_what("%s", l.paths[i]);
        assert_true(d.integer <= TOL_INTEGER);
        assert_true(d.half <= TOL_HALF);
        assert_true(dc.integer <= TOL_INTEGER);
        assert_true(dc.half <= TOL_HALF);
        worst_int = fmax(worst_int, d.integer);
        worst_half = fmax(worst_half, d.half);
        worst_cubic_int = fmax(worst_cubic_int, dc.integer);
        worst_cubic_half = fmax(worst_cubic_half, dc.half);
    }
    fprintf(stderr, "  three.js worst: integer frames %.3g, half frames %.3g; "
                    "--cubic: %.3g, %.3g (of the scene's size)\n",
            worst_int, worst_half, worst_cubic_int, worst_cubic_half);
    free_list(&l);
}

/* Keys and size of an export (tests/gltf/anim_keys.mjs). */
typedef struct key_count {
    long keys, bytes, over;
} key_count;

static key_count count_keys(const char *glb)
{
    char args[4300];
    key_count k = { -1, -1, -1 };
    int status;
    char *text;
    snprintf(args, sizeof args, "'%s'", glb);
    text = support_run_node(&status, "tests/gltf/anim_keys.mjs", args);
    if (status != 0 || sscanf(text, "keys %ld bytes %ld over %ld", &k.keys, &k.bytes, &k.over) != 3) {
        fprintf(stderr, "anim_keys on %s: status %d\n%s", glb, status, text);
        free(text);
        fail_msg("key count failed");
    }
    free(text);
    return k;
}

/* The default export resamples (docs/gltf.md, "Resampling"): no more keys
 * in total than a key per sample (the --every-frame export), no channel
 * over tolerance, and three.js at 10 instants per frame (of up to
 * RESAMPLE_FRAMES frames spread over the segment), with its slerp and with
 * the nlerp of readers that interpolate components (rule 38), within the
 * tolerance of the library's placement. Allowed above the tolerance is the
 * float noise only: the per-frame export's own at its samples, and what
 * float32 key times alone move a vertex (check_three.mjs's time_noise). */
#define RESAMPLE_TOL 1e-5
#define RESAMPLE_SUB 10
#define RESAMPLE_FRAMES 60

static void test_resampled_bound(void **state)
{
    file_list l = inputs();
    size_t i;
    char out[4200], every[4200];
    long keys = 0, keys_every = 0, bytes = 0, bytes_every = 0;
    double worst = 0.0;
    (void)state;
    if (!have_node_tools()) {
        free_list(&l);
        skip();
    }
    support_tmp_path(out, sizeof out, "resampled.glb");
    support_tmp_path(every, sizeof every, "every.glb");
    for (i = 0; i < l.n; i++) {
        key_count r, e;
        deviation dr, dn, de;
        double allow;
        export_file(l.paths[i], out, NULL, NULL);
        export_file(l.paths[i], every, "--every-frame", NULL);
        r = count_keys(out);
        e = count_keys(every);
        support_set_what("%s", l.paths[i]);
        assert_true(r.keys <= e.keys);
        assert_true(r.over <= 0); /* -1: no animation */
        keys += r.keys;
        keys_every += e.keys;
        bytes += r.bytes;
        bytes_every += e.bytes;
        fprintf(stderr, "  resampling %s: keys %ld -> %ld, .glb %ld -> %ld bytes, "
                        "channels over tolerance %ld\n",
                base(l.paths[i]), e.keys, r.keys, e.bytes, r.bytes, r.over);
        if (!r.keys)
            continue; /* no animation */
        dr = three_deviation_at(l.paths[i], NULL, NULL, RESAMPLE_SUB, RESAMPLE_FRAMES);
        if (dr.integer < 0)
            continue;
        three_mode = "nlerp";
        dn = three_deviation_at(l.paths[i], NULL, NULL, RESAMPLE_SUB, RESAMPLE_FRAMES);
        three_mode = NULL;
        de = three_deviation_at(l.paths[i], "--every-frame", NULL, RESAMPLE_SUB, RESAMPLE_FRAMES);
        allow = RESAMPLE_TOL + de.integer + dr.time_noise;
        support_set_what("%s: resampled %.3g %.3g, nlerp %.3g %.3g, per frame %.3g, time noise %.3g",
                         l.paths[i], dr.integer, dr.half, dn.integer, dn.half, de.integer,
                         dr.time_noise);
        assert_true(dr.integer <= allow);
        assert_true(dr.half <= allow);
        assert_true(dn.integer <= allow);
        assert_true(dn.half <= allow);
        worst = fmax(worst, fmax(fmax(dr.integer, dr.half), fmax(dn.integer, dn.half)) - de.integer -
                                dr.time_noise);
    }
    fprintf(stderr, "  resampling, all files: keys %ld -> %ld, .glb %ld -> %ld bytes; worst "
                    "deviation above the float noise (slerp and nlerp): %.3g\n",
            keys_every, keys, bytes_every, bytes, worst);
    free_list(&l);
}

/* --linear (docs/gltf.md rule 36): LINEAR and STEP keys only, for readers
 * that drop CUBICSPLINE tangents (Blender 3.4), held to the same bound as
 * the default export at 10 instants per frame (slerp and nlerp), with no
 * channel over tolerance and no cap on the keys. On the samples and the
 * corpus files with fast spins and a deep rig (the key totals are printed
 * against the per-frame export's). */
static void test_linear_bound(void **state)
{
    static const char *const corpus[] = { "blitz3d-mak_robotic.3DS", "assimp-RotatingCube.3DS" };
    file_list l = { NULL, 0 };
    const char *dir = support_corpus_dir();
    char out[4200], path[4200], *json;
    size_t i, size;
    unsigned char *data;
    (void)state;
    if (!have_node_tools())
        skip();
    add_file("data/arm.3ds", "arm.3ds", &l);
    add_file("data/orrery.3ds", "orrery.3ds", &l);
    add_file("data/edge.3ds", "edge.3ds", &l);
    for (i = 0; dir && i < sizeof corpus / sizeof corpus[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, corpus[i]);
        if (access(path, R_OK) == 0)
            add_if_loads(path, corpus[i], &l);
    }
    support_tmp_path(out, sizeof out, "linear.glb");
    for (i = 0; i < l.n; i++) {
        key_count r, e;
        deviation dr, dn, de;
        double allow;
        support_set_what("%s", l.paths[i]);
        export_file(l.paths[i], out, "--linear", NULL);
        r = count_keys(out);
        data = support_read_file(out, &size);
        assert_non_null(data);
        assert_true(size > 20 && 20 + (size_t)le32(data + 12) <= size);
        json = calloc(le32(data + 12) + 1, 1);
        assert_non_null(json);
        memcpy(json, data + 20, le32(data + 12));
        assert_null(strstr(json, "CUBICSPLINE"));
        assert_non_null(strstr(json, "\"linear_only\":true"));
        free(json);
        free(data);
        assert_int_equal(r.over, 0);
        export_file(l.paths[i], out, "--every-frame", NULL);
        e = count_keys(out);
        dr = three_deviation_at(l.paths[i], "--linear", NULL, RESAMPLE_SUB, RESAMPLE_FRAMES);
        three_mode = "nlerp";
        dn = three_deviation_at(l.paths[i], "--linear", NULL, RESAMPLE_SUB, RESAMPLE_FRAMES);
        three_mode = NULL;
        de = three_deviation_at(l.paths[i], "--every-frame", NULL, RESAMPLE_SUB, RESAMPLE_FRAMES);
        allow = RESAMPLE_TOL + de.integer + dr.time_noise;
        fprintf(stderr, "  --linear %s: keys %ld (per frame %ld), worst %.3g slerp, %.3g nlerp, "
                        "allowed %.3g\n",
                base(l.paths[i]), r.keys, e.keys, fmax(dr.integer, dr.half),
                fmax(dn.integer, dn.half), allow);
        assert_true(dr.integer <= allow);
        assert_true(dr.half <= allow);
        assert_true(dn.integer <= allow);
        assert_true(dn.half <= allow);
    }
    free_list(&l);
}

/* Switches take effect at their key's instant: in data/arm.3ds 'Hand'
 * (node 3) changes its morph target and hides at frame 30; three.js must
 * show what kf3ds shows just before, at and just after it, resampled and
 * per frame. */
static void test_switch_instant(void **state)
{
    static const double frames[] = { 29.0, 29.9, 29.99, 29.999, 30.0, 30.001, 30.01, 30.1, 31.0 };
    /* not --visibility-ext: three.js does not read KHR_node_visibility */
    static const char *const modes[][2] = { { NULL, NULL }, { "--every-frame", NULL } };
    size_t m;
    (void)state;
    if (!have_node_tools())
        skip();
    for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        deviation d = three_deviation_list(sample_path("arm.3ds"), modes[m][0], modes[m][1], 0.0,
                                           frames, sizeof frames / sizeof frames[0]);
        /* the per-frame export is exact only at its samples */
        assert_true(d.integer <= RESAMPLE_TOL);
        if (m != 1)
            assert_true(d.half <= RESAMPLE_TOL);
    }
}

/* A key of (x, y, z) at `frame`, with tension 0.3, continuity −0.4 and bias
 * 0.5 when `tcb`. */
static void add_key(kf3ds_builder *b, int32_t node, kf3ds_track_kind kind, int32_t frame,
                    int tcb, float x, float y, float z)
{
    kf3ds_key k = support_key(frame, x, y, z, 0);
    if (tcb) {
        k.tension = 0.3f;
        k.continuity = -0.4f;
        k.bias = 0.5f;
    }
    kf3ds_builder_add_key(b, node, kind, &k);
}

/* A scene whose motion is all TCB position and scale (no ease, no rotation):
 * --cubic is exact between frames too, the sampled default is not. */
static void test_cubic_exact(void **state)
{
    static const float pts[] = { 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2 };
    static const uint16_t faces[] = { 0, 1, 2, 0, 2, 3, 0, 3, 1 };
    char in[4200];
    kf3ds_builder *b;
    int32_t tet;
    deviation d, dc;
    (void)state;
    if (!have_node_tools())
        skip();
    b = support_builder();
    support_build_mesh(b, "Tet", pts, 4, faces, NULL, 3, NULL);
    kf3ds_builder_keyframer(b, "cubic", 40, 0, 40);
    tet = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Tet", KF3DS_NONE);
    add_key(b, tet, KF3DS_TRACK_POS, 0, 1, 0, 0, 0);
    add_key(b, tet, KF3DS_TRACK_POS, 7, 1, 30, -10, 5);
    add_key(b, tet, KF3DS_TRACK_POS, 20, 1, -20, 25, 0);
    add_key(b, tet, KF3DS_TRACK_POS, 40, 1, 10, 10, -30);
    add_key(b, tet, KF3DS_TRACK_SCL, 0, 0, 1, 1, 1);
    add_key(b, tet, KF3DS_TRACK_SCL, 13, 1, 3, 0.5f, 2);
    add_key(b, tet, KF3DS_TRACK_SCL, 40, 0, 1, 2, 1);
    support_tmp_path(in, sizeof in, "cubic.3ds");
    support_build_file(b, in);
    d = three_deviation(in, "--every-frame", NULL);
    dc = three_deviation(in, "--cubic", NULL);
    assert_true(d.integer <= TOL_INTEGER);
    assert_true(dc.integer <= TOL_INTEGER);
    assert_true(dc.half <= TOL_HALF_CUBIC);
    assert_true(d.half > dc.half); /* sampling is visibly off between frames */
}

/* The malformed inputs: no crash, an exit status of 0 or 1, and whatever
 * was written is valid glTF. */
static void test_malformed_inputs(void **state)
{
    file_list l = { NULL, 0 };
    size_t i, len = 0;
    char args[65536], out[4200], name[600];
    int status, written = 0;
    (void)state;
    args[0] = '\0';
    support_dir_each("tests/fuzz-regressions", add_file, &l);
    for (i = 0; i < l.n; i++) {
        support_run r;
        FILE *f;
        if (!support_is_3ds_name(base(l.paths[i])))
            continue;
        snprintf(name, sizeof name, "m%lu.glb", (unsigned long)i);
        support_tmp_path(out, sizeof out, name);
        r = support_run_tool(NULL, "export", l.paths[i], "-o", out, "-q", (char *)NULL);
        support_set_what("export %s", l.paths[i]);
        assert_true(r.status == 0 || r.status == 1);
        support_check_error_lines(r.err, l.paths[i], 1);
        support_run_free(&r);
        if ((f = fopen(out, "rb")) != NULL) {
            fclose(f);
            len += (size_t)snprintf(args + len, sizeof args - len, " '%s'", out);
            written++;
        }
    }
    if (written && have_node_tools()) {
        char *text = support_run_node(&status, "tests/gltf/validate.cjs", args);
        fprintf(stderr, "%s", text);
        assert_int_equal(status, 0);
        free(text);
    }
    free_list(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_usage),
        support_unit_test(test_glb_layout),
        support_unit_test(test_gltf_and_bin),
        support_unit_test(test_static_frame),
        support_unit_test(test_malformed_inputs),
        support_unit_test(test_validator),
        support_unit_test(test_cubic_exact),
        support_unit_test(test_three_playback),
        support_unit_test(test_resampled_bound),
        support_unit_test(test_linear_bound),
        support_unit_test(test_switch_instant),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
