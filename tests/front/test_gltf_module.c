/* The glTF export module (include/kf3ds_gltf.h, src/gltf/) called directly:
 * its bytes are the very bytes `kf3ds export` writes for every sample and
 * corpus file (the command runs the module, so they may never drift apart),
 * a failing allocator gives KF3DS_ERR_NOMEM and leaks nothing, bad options
 * give KF3DS_ERR_ARGUMENT, and the image callback is asked for the maps by
 * their stored names and its bytes end up in the output. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "kf3ds_gltf.h"
#include "support.h"
#include "support_node.h"

/* ---- the command's image lookup, for comparing with it ------------------ */

/* What the image callback of these tests knows: the input's folder and
 * the folder the command writes into (for the relative URI). */
typedef struct finder {
    char in_dir[PATH_MAX];
    char out_dir[PATH_MAX];
    char path[PATH_MAX + 256];
    char uri[3 * PATH_MAX];
    unsigned char *data;
    int embed;
} finder;

static void dir_of(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    if (n >= cap)
        n = 0;
    memcpy(buf, path, n);
    buf[n] = '\0';
}

/* The map beside the input, its case ignored when no exact match (as the
 * command looks, docs/gltf.md "Materials"). */
static int find_beside(const char *dir, const char *name, char *buf, size_t cap)
{
    const char *base = name, *p;
    DIR *d;
    struct dirent *e;
    FILE *f;
    for (p = name; *p; p++)
        if (*p == '/' || *p == '\\' || *p == ':')
            base = p + 1;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return 0;
    if ((size_t)snprintf(buf, cap, "%s%s", dir, base) >= cap)
        return 0;
    if ((f = fopen(buf, "rb")) != NULL) {
        fclose(f);
        return 1;
    }
    d = opendir(dir[0] ? dir : ".");
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        if (strcasecmp(e->d_name, base) == 0 &&
            (size_t)snprintf(buf, cap, "%s%s", dir, e->d_name) < cap) {
            closedir(d);
            return 1;
        }
    closedir(d);
    return 0;
}

/* The relative path from folder `from` to file `to`. */
static int relative_path(const char *from, const char *to, char *out, size_t cap)
{
    char a[PATH_MAX], b[PATH_MAX];
    const char *p;
    size_t n = 0, common = 0, i;
    if (!realpath(from[0] ? from : ".", a) || !realpath(to, b))
        return 0;
    for (i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/')
            common = i + 1;
    if (a[i] == '\0' && b[i] == '/')
        common = i + 1;
    for (p = common > strlen(a) ? a + strlen(a) : a + common; *p;) {
        if (n + 4 >= cap)
            return 0;
        memcpy(out + n, "../", 3);
        n += 3;
        while (*p && *p != '/')
            p++;
        while (*p == '/')
            p++;
    }
    return (size_t)snprintf(out + n, cap - n, "%s", b + common) < cap - n;
}

/* PNG or JPEG by the first bytes: what glTF holds as it is. */
static int png_or_jpeg(const unsigned char *b, size_t n)
{
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };
    return (n >= 8 && memcmp(b, png, 8) == 0) ||
           (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF);
}

static int find_image(void *user, const char *name, kf3ds_gltf_image *image)
{
    finder *f = user;
    size_t size = 0;
    free(f->data);
    f->data = NULL;
    if (!find_beside(f->in_dir, name, f->path, sizeof f->path))
        return KF3DS_GLTF_IMAGE_MISSING;
    f->data = support_read_file(f->path, &size);
    if (!f->data)
        return KF3DS_GLTF_IMAGE_SKIP;
    if (!png_or_jpeg(f->data, size)) {
        /* The command re-encodes it as PNG into NAME.png beside its output
         * (docs/gltf.md, rule 20), which the .glb variant, run first, left
         * there: the library gets those bytes. Without a copy (the command
         * could not decode it) it is left out, as the command leaves it. */
        const char *slash = strrchr(f->path, '/');
        char copy[2 * PATH_MAX + 300];
        free(f->data);
        snprintf(copy, sizeof copy, "%s%s.png", f->out_dir, slash ? slash + 1 : f->path);
        f->data = support_read_file(copy, &size);
        if (!f->data)
            return KF3DS_GLTF_IMAGE_SKIP;
        image->data = f->data;
        image->size = size;
        snprintf(f->uri, sizeof f->uri, "%s.png", slash ? slash + 1 : f->path);
        image->uri = f->embed ? NULL : f->uri;
        return KF3DS_GLTF_IMAGE_FOUND;
    }
    image->data = f->data;
    image->size = size;
    image->uri = !f->embed && relative_path(f->out_dir, f->path, f->uri, sizeof f->uri) ? f->uri
                                                                                         : NULL;
    return KF3DS_GLTF_IMAGE_FOUND;
}

/* ---- comparing with the command ------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* One export variant: the command's options and the library's. */
typedef struct variant {
    const char *name;
    const char *opt1, *opt2;  /* command options (NULL: none) */
    unsigned flags;
    double static_frame;
} variant;

static const variant variants[] = {
    { "glb", NULL, NULL, 0, 0.0 },
    { "gltf", NULL, NULL, KF3DS_GLTF_SEPARATE, 0.0 },
    { "static", "--static-frame", "12.5", KF3DS_GLTF_STATIC_FRAME | KF3DS_GLTF_NO_ANIMATION, 12.5 },
    { "noanim", "--no-animation", NULL, KF3DS_GLTF_NO_ANIMATION, 0.0 },
    { "cubic", "--cubic", NULL, KF3DS_GLTF_CUBIC, 0.0 },
    { "embed", "--embed-images", NULL, KF3DS_GLTF_EMBED_IMAGES | KF3DS_GLTF_SEPARATE, 0.0 },
};
#define NUM_VARIANTS (sizeof variants / sizeof variants[0])

typedef struct compare_run {
    unsigned variant_mask;    /* which variants to run */
    int files, exported;
} compare_run;

static void assert_same_bytes(const void *a, size_t na, const void *b, size_t nb,
                              const char *what)
{
    if (na != nb || (na && memcmp(a, b, na) != 0))
        fail_msg("%s: the library's %lu bytes differ from the command's %lu", what,
                 (unsigned long)na, (unsigned long)nb);
}

static void compare_one(const char *path, const char *name, void *user)
{
    compare_run *cr = user;
    char in[PATH_MAX + 256], out[PATH_MAX + 256], bin[PATH_MAX + 256];
    kf3ds_scene *scene;
    kf3ds_diag err;
    size_t k;
    if (!support_is_3ds_name(name))
        return;
    cr->files++;
    support_abs_path(in, sizeof in, path);
    scene = kf3ds_load_file(in, NULL, &err);
    for (k = 0; k < NUM_VARIANTS; k++) {
        const variant *v = &variants[k];
        int sep = (v->flags & KF3DS_GLTF_SEPARATE) != 0;
        kf3ds_gltf_options o;
        kf3ds_gltf_output g;
        finder f;
        unsigned char *cmd, *cmd_bin;
        size_t ncmd = 0, ncmd_bin = 0;
        support_run r;
        kf3ds_status st;
        if (!(cr->variant_mask & (1u << k)))
            continue;
        support_set_what("%s, %s", path, v->name);
        support_tmp_path(out, sizeof out, sep ? "x.gltf" : "x.glb");
        support_tmp_path(bin, sizeof bin, "x.bin");
        remove(out);
        remove(bin);
        r = support_run_tool(NULL, "export", in, "-o", out, "-q",
                             v->opt1, v->opt2, (char *)NULL);
        cmd = support_read_file(out, &ncmd);
        cmd_bin = support_read_file(bin, &ncmd_bin);
        if (!scene) { /* nothing loads: the command writes nothing either */
            assert_int_not_equal(r.status, 0);
            assert_null(cmd);
            support_run_free(&r);
            continue;
        }
        if (!cmd)
            fail_msg("%s: the command wrote nothing (exit %d): %s", support_what, r.status,
                     r.err);
        support_run_free(&r);
        memset(&f, 0, sizeof f);
        dir_of(in, f.in_dir, sizeof f.in_dir);
        snprintf(f.out_dir, sizeof f.out_dir, "%s/", support_tmpdir());
        f.embed = (v->flags & KF3DS_GLTF_EMBED_IMAGES) != 0;
        memset(&o, 0, sizeof o);
        o.flags = v->flags;
        o.static_frame = v->static_frame;
        o.file_name = base_name(in);
        o.bin_uri = "x.bin";
        o.image = find_image;
        o.image_user = &f;
        st = kf3ds_gltf_write(scene, &o, &g, &err);
        free(f.data);
        if (st != KF3DS_OK)
            fail_msg("%s: kf3ds_gltf_write: %s", support_what, err.message);
        assert_same_bytes(g.bytes, g.size, cmd, ncmd, support_what);
        if (sep)
            assert_same_bytes(g.bin, g.bin_size, cmd_bin, cmd_bin ? ncmd_bin : 0, support_what);
        else
            assert_null(cmd_bin);
        kf3ds_gltf_free(&g);
        assert_null(g.bytes);
        free(cmd);
        free(cmd_bin);
        cr->exported++;
    }
    kf3ds_scene_free(scene);
}

static void test_samples_match_command(void **state)
{
    compare_run cr;
    (void)state;
    memset(&cr, 0, sizeof cr);
    cr.variant_mask = (1u << NUM_VARIANTS) - 1;
    support_dir_each("data", compare_one, &cr);
    assert_true(cr.files >= 4);
    assert_int_equal(cr.exported, cr.files * (int)NUM_VARIANTS);
}

static void test_corpus_matches_command(void **state)
{
    compare_run cr;
    (void)state;
    memset(&cr, 0, sizeof cr);
    cr.variant_mask = 1u << 0 | 1u << 5; /* .glb, and .gltf + .bin with embedded images */
    if (support_corpus_each(compare_one, &cr) < 0) {
        skip();
        return;
    }
    assert_true(cr.files > 0);
}

static kf3ds_scene *load_sample(const char *name)
{
    char path[600];
    kf3ds_diag err;
    kf3ds_scene *s;
    snprintf(path, sizeof path, "data/%s", name);
    s = kf3ds_load_file(path, NULL, &err);
    assert_non_null(s);
    return s;
}

/* ---- arguments ------------------------------------------------------------ */

static void expect_argument(const kf3ds_scene *s, const kf3ds_gltf_options *o, const char *what)
{
    kf3ds_gltf_output g;
    kf3ds_diag err;
    support_set_what("%s", what);
    memset(&g, 0xA5, sizeof g);
    assert_int_equal(kf3ds_gltf_write(s, o, &g, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_true(err.message[0] != '\0');
    assert_null(g.bytes);
    assert_null(g.bin);
    kf3ds_gltf_free(&g); /* harmless on the emptied output */
}

static void *never_malloc(size_t size, void *user)
{
    (void)size;
    (void)user;
    return NULL;
}

/* 1 when the JSON chunk of the .glb in g holds `needle`. */
static int glb_json_has(const kf3ds_gltf_output *g, const char *needle)
{
    const unsigned char *b = g->bytes;
    size_t len, k, n = strlen(needle);
    if (g->size < 20)
        return 0;
    len = (size_t)b[12] | (size_t)b[13] << 8 | (size_t)b[14] << 16 | (size_t)b[15] << 24;
    for (k = 0; 20 + len <= g->size && k + n <= len; k++)
        if (memcmp(b + 20 + k, needle, n) == 0)
            return 1;
    return 0;
}

static void test_arguments(void **state)
{
    kf3ds_scene *s = load_sample("arm.3ds");
    kf3ds_gltf_options o;
    kf3ds_gltf_output g;
    kf3ds_diag err;
    (void)state;
    expect_argument(NULL, NULL, "no scene");
    assert_int_equal(kf3ds_gltf_write(s, NULL, NULL, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_gltf_write(s, NULL, NULL, NULL), KF3DS_ERR_ARGUMENT);
#define BAD(field_setting, what) \
    do { memset(&o, 0, sizeof o); field_setting; expect_argument(s, &o, what); } while (0)
    BAD(o.fps = -1.0, "negative fps");
    BAD(o.fps = NAN, "NaN fps");
    BAD(o.fps = INFINITY, "infinite fps");
    BAD(o.fps = 1e9, "fps over the limit");
    BAD(o.rate = -1, "negative rate");
    BAD(o.rate = KF3DS_GLTF_MAX_RATE + 1, "rate over the limit");
    BAD(o.flags = 0x80000000u, "unknown flag");
    BAD((o.flags = KF3DS_GLTF_FRAMES, o.first_frame = 10, o.last_frame = 9), "frames backwards");
    BAD((o.flags = KF3DS_GLTF_STATIC_FRAME, o.static_frame = NAN), "NaN static frame");
    BAD((o.flags = KF3DS_GLTF_STATIC_FRAME, o.static_frame = -INFINITY), "infinite static frame");
    BAD(o.flags = KF3DS_GLTF_STATIC_FRAME | KF3DS_GLTF_FRAMES, "static frame with frames");
    BAD(o.flags = KF3DS_GLTF_STATIC_FRAME | KF3DS_GLTF_CUBIC, "static frame with cubic");
    BAD(o.flags = KF3DS_GLTF_LINEAR | KF3DS_GLTF_CUBIC, "linear keys with cubic tracks");
    BAD(o.flags = KF3DS_GLTF_SEPARATE, "separate without bin_uri");
    BAD(o.allocator.malloc_fn = never_malloc, "allocator hooks given in part");
#undef BAD
    /* NULL options are the defaults; the error may be NULL. */
    assert_int_equal(kf3ds_gltf_write(s, NULL, &g, NULL), KF3DS_OK);
    assert_true(g.size > 12 && memcmp(g.bytes, "glTF", 4) == 0);
    assert_int_equal(g.summary.animated, 1);
    assert_true(g.summary.num_nodes > 1 && g.summary.num_meshes > 0 && g.summary.num_channels > 0);
    assert_near(g.summary.fps, 30.0, 0.0);
    kf3ds_gltf_free(&g);
    kf3ds_gltf_free(&g);
    kf3ds_gltf_free(NULL);
    /* KF3DS_GLTF_LINEAR: the same channels, none CUBICSPLINE (the default
     * export of this scene has some), and the JSON says so. */
    {
        kf3ds_gltf_options lin;
        uint32_t channels;
        assert_int_equal(kf3ds_gltf_write(s, NULL, &g, NULL), KF3DS_OK);
        channels = g.summary.num_channels;
        assert_true(glb_json_has(&g, "\"CUBICSPLINE\""));
        kf3ds_gltf_free(&g);
        memset(&lin, 0, sizeof lin);
        lin.flags = KF3DS_GLTF_LINEAR;
        assert_int_equal(kf3ds_gltf_write(s, &lin, &g, NULL), KF3DS_OK);
        assert_int_equal(g.summary.num_channels, channels);
        assert_false(glb_json_has(&g, "\"CUBICSPLINE\""));
        assert_true(glb_json_has(&g, "\"linear_only\":true"));
        kf3ds_gltf_free(&g);
    }
    /* Too many samples: KF3DS_ERR_LIMIT, with which limit and the frames. */
    memset(&o, 0, sizeof o);
    o.flags = KF3DS_GLTF_FRAMES;
    o.first_frame = 0;
    o.last_frame = 2000000;
    o.rate = 1000;
    assert_int_equal(kf3ds_gltf_write(s, &o, &g, &err), KF3DS_ERR_LIMIT);
    assert_int_equal(err.code, KF3DS_ERR_LIMIT);
    assert_int_equal(g.summary.limit, KF3DS_GLTF_LIMIT_FRAMES);
    assert_near(g.summary.last_frame, 2000000.0, 0.0);
    assert_null(g.bytes);
    kf3ds_scene_free(s);
}

/* ---- the image callback ---------------------------------------------------- */

#define MARK "kf3ds-test-image-bytes"

typedef struct image_log {
    char names[8][64];
    int calls;
    int answer;               /* what to give: 0 a PNG, 1 missing, 2 a BMP, 3 stop */
    unsigned char png[64];
    size_t png_size;
    char warned[8][64];
    kf3ds_gltf_warning_kind kinds[8];
    int warnings;
} image_log;

static int log_image(void *user, const char *name, kf3ds_gltf_image *image)
{
    static const unsigned char bmp[] = { 'B', 'M', 0, 0, 0, 0, 0, 0, 0, 0 };
    image_log *l = user;
    if (l->calls < 8)
        snprintf(l->names[l->calls], sizeof l->names[0], "%s", name);
    l->calls++;
    switch (l->answer) {
    case 0:
        image->data = l->png;
        image->size = l->png_size;
        image->uri = "maps/a map.png";
        return KF3DS_GLTF_IMAGE_FOUND;
    case 1: return KF3DS_GLTF_IMAGE_MISSING;
    case 2:
        image->data = bmp;
        image->size = sizeof bmp;
        image->uri = "b.bmp";
        return KF3DS_GLTF_IMAGE_FOUND;
    default: return -1;
    }
}

static void log_warning(void *user, const kf3ds_gltf_warning *w)
{
    image_log *l = user;
    assert_non_null(w->message);
    assert_true(strstr(w->message, w->map) != NULL);
    if (l->warnings < 8) {
        snprintf(l->warned[l->warnings], sizeof l->warned[0], "%s", w->map);
        l->kinds[l->warnings] = w->kind;
    }
    l->warnings++;
}

static int contains(const void *hay, size_t n, const char *needle, size_t m)
{
    const unsigned char *h = hay;
    size_t i;
    for (i = 0; i + m <= n; i++)
        if (memcmp(h + i, needle, m) == 0)
            return 1;
    return 0;
}

static kf3ds_status run_images(const kf3ds_scene *s, image_log *l, int answer, unsigned flags,
                               const kf3ds_allocator *al, kf3ds_gltf_output *g)
{
    kf3ds_gltf_options o;
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };
    memset(l, 0, sizeof *l);
    l->answer = answer;
    memcpy(l->png, sig, 8);
    memcpy(l->png + 8, MARK, sizeof MARK - 1);
    l->png_size = 8 + sizeof MARK - 1;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.image = log_image;
    o.image_user = l;
    o.warning = log_warning;
    o.warning_user = l;
    if (al)
        o.allocator = *al;
    return kf3ds_gltf_write(s, &o, g, NULL);
}

static void test_image_callback(void **state)
{
    kf3ds_scene *s = load_sample("textured.3ds");
    kf3ds_gltf_output g;
    image_log l;
    (void)state;
    /* textured.3ds: texture 1 of Brick and Floor (Glass has an opacity map only). */
    assert_int_equal(run_images(s, &l, 0, KF3DS_GLTF_EMBED_IMAGES, NULL, &g), KF3DS_OK);
    assert_int_equal(l.calls, 2);
    assert_string_equal(l.names[0], "BRICK.BMP");
    assert_string_equal(l.names[1], "CHECKER.CEL");
    assert_int_equal(l.warnings, 0);
    assert_true(contains(g.bytes, g.size, MARK, sizeof MARK - 1));
    assert_true(contains(g.bytes, g.size, "\"mimeType\":\"image/png\"", 22));
    assert_true(contains(g.bytes, g.size, "\"name\":\"BRICK.BMP\"", 18));
    kf3ds_gltf_free(&g);
    /* Not embedded: referenced by the caller's URI, percent-encoded. */
    assert_int_equal(run_images(s, &l, 0, 0, NULL, &g), KF3DS_OK);
    assert_true(contains(g.bytes, g.size, "\"uri\":\"maps/a%20map.png\"", 24));
    assert_false(contains(g.bytes, g.size, MARK, sizeof MARK - 1));
    kf3ds_gltf_free(&g);
    /* Missing, or not PNG or JPEG: left out with one warning per map. */
    assert_int_equal(run_images(s, &l, 1, KF3DS_GLTF_EMBED_IMAGES, NULL, &g), KF3DS_OK);
    assert_int_equal(l.warnings, 2);
    assert_int_equal(l.kinds[0], KF3DS_GLTF_WARN_MAP_MISSING);
    assert_string_equal(l.warned[0], "BRICK.BMP");
    assert_false(contains(g.bytes, g.size, "\"images\"", 8));
    kf3ds_gltf_free(&g);
    assert_int_equal(run_images(s, &l, 2, 0, NULL, &g), KF3DS_OK);
    assert_int_equal(l.warnings, 2);
    assert_int_equal(l.kinds[1], KF3DS_GLTF_WARN_MAP_TYPE);
    assert_string_equal(l.warned[1], "CHECKER.CEL");
    assert_false(contains(g.bytes, g.size, "b.bmp", 5));
    kf3ds_gltf_free(&g);
    /* A callback that fails stops the export. */
    assert_int_equal(run_images(s, &l, 3, 0, NULL, &g), KF3DS_ERR_IO);
    assert_null(g.bytes);
    kf3ds_scene_free(s);
}

/* ---- memory --------------------------------------------------------------- */


/* Every allocation in turn refused: KF3DS_ERR_NOMEM with nothing left
 * allocated and *out empty, or (past the last one) the same bytes as with
 * the default allocator. */
static void check_nomem(const char *sample, unsigned flags)
{
    kf3ds_scene *s = load_sample(sample);
    kf3ds_gltf_options o;
    kf3ds_gltf_output ref, g;
    kf3ds_diag err;
    counting c;
    long fail_after, calls;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.bin_uri = "x.bin";
    o.file_name = sample;
    assert_int_equal(kf3ds_gltf_write(s, &o, &ref, &err), KF3DS_OK);
    counting_reset(&c, -1);
    o.allocator = counting_options(&c).allocator;
    assert_int_equal(kf3ds_gltf_write(s, &o, &g, &err), KF3DS_OK);
    calls = c.calls;
    assert_true(calls > 10);
    kf3ds_gltf_free(&g);
    assert_int_equal(c.live, 0);
    for (fail_after = 0; fail_after <= calls; fail_after++) {
        kf3ds_status st;
        counting_reset(&c, fail_after);
        support_set_what("%s, allocation %ld of %ld refused", sample, fail_after, calls);
        st = kf3ds_gltf_write(s, &o, &g, &err);
        if (fail_after < calls) {
            assert_int_equal(st, KF3DS_ERR_NOMEM);
            assert_int_equal(err.code, KF3DS_ERR_NOMEM);
            assert_null(g.bytes);
            assert_null(g.bin);
            assert_int_equal(c.live, 0);
        } else {
            assert_int_equal(st, KF3DS_OK);
            assert_same_bytes(g.bytes, g.size, ref.bytes, ref.size, support_what);
            assert_same_bytes(g.bin, g.bin_size, ref.bin, ref.bin_size, support_what);
            kf3ds_gltf_free(&g);
            assert_int_equal(c.live, 0);
        }
    }
    kf3ds_gltf_free(&ref);
    kf3ds_scene_free(s);
}

/* The same with the image callback: embedded pictures, then missing ones
 * (the warnings' paths). */
static void check_nomem_images(int answer, unsigned flags)
{
    kf3ds_scene *s = load_sample("textured.3ds");
    kf3ds_gltf_output ref, g;
    kf3ds_allocator al;
    image_log *l = malloc(sizeof *l);
    counting c;
    long fail_after, calls;
    assert_non_null(l);
    assert_int_equal(run_images(s, l, answer, flags, NULL, &ref), KF3DS_OK);
    counting_reset(&c, -1);
    al = counting_options(&c).allocator;
    assert_int_equal(run_images(s, l, answer, flags, &al, &g), KF3DS_OK);
    calls = c.calls;
    kf3ds_gltf_free(&g);
    for (fail_after = 0; fail_after <= calls; fail_after++) {
        kf3ds_status st;
        counting_reset(&c, fail_after);
        support_set_what("textured.3ds with images (%d), allocation %ld of %ld refused", answer,
                         fail_after, calls);
        st = run_images(s, l, answer, flags, &al, &g);
        assert_int_equal(st, fail_after < calls ? KF3DS_ERR_NOMEM : KF3DS_OK);
        if (st == KF3DS_OK)
            assert_same_bytes(g.bytes, g.size, ref.bytes, ref.size, support_what);
        kf3ds_gltf_free(&g);
        assert_int_equal(c.live, 0);
    }
    kf3ds_gltf_free(&ref);
    free(l);
    kf3ds_scene_free(s);
}

static void test_nomem(void **state)
{
    (void)state;
    check_nomem("arm.3ds", 0);
    check_nomem("textured.3ds", KF3DS_GLTF_SEPARATE | KF3DS_GLTF_CUBIC);
    check_nomem_images(0, KF3DS_GLTF_EMBED_IMAGES);
    check_nomem_images(0, 0);
    check_nomem_images(1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_arguments),
        support_unit_test(test_image_callback),
        support_unit_test(test_nomem),
        support_unit_test(test_samples_match_command),
        support_unit_test(test_corpus_matches_command),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
