/* kf3ds bake and the reader include/kf3ds_kfb.h (docs/kfb.md).
 *
 * For every animated file of the corpus and data/: the float bake and the
 * fixed-point bake of the whole segment read back with the reader, frame by
 * frame against the library's evaluation (what kf3ds eval prints): float
 * world matrices bit for bit, fixed-point ones within half a unit of the last
 * place, placed vertices within 1e-6 (float) and 2^-14 (fixed) of the scene
 * extent, visibility, channels and meshes exactly; then build/kfb-eval's JSON
 * against kf3ds eval's, the options (--frames, --step, --nodes, --no-meshes,
 * --c-source compiled as C89), the errors, and the reader on damaged files. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "support.h"
#define KF3DS_KFB_IMPLEMENTATION
#define KF3DS_KFB_STATIC
#include "kf3ds_kfb.h"

#define FLOAT_TOLERANCE 1e-6          /* of the extent: float rounding */
#define FIXED_TOLERANCE (1.0 / 16384) /* of the extent: 2^-14 */

/* ---- running the tools --------------------------------------------------- */

/* build/kfb-eval beside the kf3ds command under test ($KF3DS_KFB_EVAL wins). */
static const char *kfb_eval_path(void)
{
    static char path[1024];
    const char *env = getenv("KF3DS_KFB_EVAL"), *tool = support_tool(), *slash;
    if (env && *env)
        return env;
    slash = strrchr(tool, '/');
    snprintf(path, sizeof path, "%.*skfb-eval", slash ? (int)(slash - tool + 1) : 0, tool);
    return path;
}

/* Runs a shell command line; its standard output into *out and its standard
 * error into *err (either may be NULL; with err NULL both go to *out).
 * Returns the exit status. */
static int run_shell2(char **out, char **err, const char *fmt, ...)
{
    char cmd[4096], out_path[600], err_path[600];
    va_list ap;
    int st, n;
    va_start(ap, fmt);
    n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof cmd - 1300);
    support_tmp_path(out_path, sizeof out_path, "shell.out");
    support_tmp_path(err_path, sizeof err_path, "shell.err");
    if (err)
        snprintf(cmd + n, sizeof cmd - (size_t)n, " > '%s' 2> '%s'", out_path, err_path);
    else
        snprintf(cmd + n, sizeof cmd - (size_t)n, " > '%s' 2>&1", out_path);
    st = system(cmd);
    if (out) {
        size_t len;
        *out = (char *)support_read_file(out_path, &len);
        assert_non_null(*out);
        *out = realloc(*out, len + 1);
        (*out)[len] = '\0';
    }
    if (err) {
        size_t len;
        *err = (char *)support_read_file(err_path, &len);
        assert_non_null(*err);
        *err = realloc(*err, len + 1);
        (*err)[len] = '\0';
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#define run_shell(out, ...) run_shell2(out, NULL, __VA_ARGS__)

/* `kf3ds bake FILE -o KFB ARGS...`; the exit status, the output in *err. */
static int bake(const char *file, const char *kfb, const char *args, char **err)
{
    return run_shell(err, "'%s' bake '%s' -o '%s' %s", support_tool(), file, kfb, args);
}

static unsigned char *read_kfb(const char *path, size_t *size, kf3ds_kfb_file *f)
{
    unsigned char *data = support_read_file(path, size);
    int st;
    assert_non_null(data);
    st = kf3ds_kfb_open(f, data, *size);
    if (st != KF3DS_KFB_OK)
        fail_msg("%s: %s at offset %lu", path, kf3ds_kfb_status_string(st),
                 (unsigned long)f->error_offset);
    return data;
}

/* ---- a bake against the library's evaluation ------------------------------ */

typedef struct worst {
    double vert, world, extent; /* largest differences, the scene extent */
    unsigned long node_frames, vertices;
} worst;

static double number(const kf3ds_kfb_file *f, kf3ds_kfb_s32 raw, float fl)
{
    return f->flags & KF3DS_KFB_FLAG_FIXED ? raw / ldexp(1.0, (int)f->frac_bits) : (double)fl;
}

/* The placed vertex an engine computes: world × stored vertex. */
static void placed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *mesh, uint32_t frame,
                   uint32_t slot, uint32_t v, double out[3])
{
    int r;
    if (f->flags & KF3DS_KFB_FLAG_FIXED) {
        kf3ds_kfb_s32 m[12], p[3], q[3];
        kf3ds_kfb_world_fixed(f, frame, slot, m);
        kf3ds_kfb_vertex_fixed(f, mesh, v, p);
        kf3ds_kfb_fixed_transform(m, p, f->frac_bits, q);
        for (r = 0; r < 3; r++)
            out[r] = q[r] / ldexp(1.0, (int)f->frac_bits);
    } else {
        float m[12], p[3];
        kf3ds_kfb_world_float(f, frame, slot, m);
        kf3ds_kfb_vertex_float(f, mesh, v, p);
        for (r = 0; r < 3; r++)
            out[r] = (float)((double)m[4 * r] * p[0] + (double)m[4 * r + 1] * p[1] +
                             (double)m[4 * r + 2] * p[2] + m[4 * r + 3]);
    }
}

/* The mesh of a baked node against the scene's: faces, materials, texture
 * coordinates, unit normals. */
static void check_mesh(const kf3ds_scene *s, const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *km,
                       const kf3ds_mesh *m)
{
    uint32_t i, k, faces = 0;
    double half = f->flags & KF3DS_KFB_FLAG_FIXED ? ldexp(0.5, -(int)f->frac_bits) : 0.0;
    assert_int_equal(km->num_vertices, m->num_points);
    for (i = 0; i < m->num_faces; i++) { /* the file's valid faces, in order */
        const kf3ds_face *fc = &m->faces[i];
        kf3ds_kfb_face kf;
        int32_t mat = kf3ds_face_material(m, i);
        if (fc->v[0] >= m->num_points || fc->v[1] >= m->num_points || fc->v[2] >= m->num_points)
            continue;
        assert_int_equal(kf3ds_kfb_face_get(km, faces++, &kf), KF3DS_KFB_OK);
        for (k = 0; k < 3; k++) {
            kf3ds_kfb_s32 nr[3];
            float nf[3];
            double len;
            assert_int_equal(kf.v[k], fc->v[k]);
            if (f->flags & KF3DS_KFB_FLAG_FIXED) {
                assert_int_equal(kf3ds_kfb_normal_fixed(f, km, kf.n[k], nr), KF3DS_KFB_OK);
                nf[0] = (float)(nr[0] / ldexp(1.0, (int)f->frac_bits));
                nf[1] = (float)(nr[1] / ldexp(1.0, (int)f->frac_bits));
                nf[2] = (float)(nr[2] / ldexp(1.0, (int)f->frac_bits));
            } else {
                assert_int_equal(kf3ds_kfb_normal_float(f, km, kf.n[k], nf), KF3DS_KFB_OK);
            }
            len = sqrt((double)nf[0] * nf[0] + (double)nf[1] * nf[1] + (double)nf[2] * nf[2]);
            if (!(fabs(len - 1.0) < 1e-5 + 4 * half || len == 0.0))
                fail_msg("normal %u of face %u has length %g", (unsigned)kf.n[k], (unsigned)i, len);
        }
        assert_int_equal(kf.material, mat >= 0 && (uint32_t)mat < s->num_materials ? (unsigned)mat
                                                                                    : 0xFFFFu);
        assert_int_equal(kf.smoothing, kf3ds_face_smoothing(m, i));
        assert_int_equal(kf.flags, fc->flags);
    }
    assert_int_equal(km->num_faces, faces);
    if (m->texcoords && m->num_texcoords >= m->num_points) {
        assert_int_equal(km->num_uvs, m->num_points);
        for (i = 0; i < m->num_points; i++) {
            float uv[2];
            kf3ds_kfb_uv_float(f, km, i, uv);
            assert_near(uv[0], m->texcoords[i][0], half + 1e-30);
            assert_near(uv[1], m->texcoords[i][1], half + 1e-30);
        }
    }
}

/* Every baked frame of `f` against kf3ds_scene_eval at the same frame. */
static void compare_bake(const kf3ds_scene *s, const kf3ds_kfb_file *f, worst *w)
{
    kf3ds_pose *poses = calloc(s->num_nodes, sizeof *poses);
    uint32_t fr, slot, c;
    int fixed = (f->flags & KF3DS_KFB_FLAG_FIXED) != 0;
    double half = fixed ? ldexp(0.5, -(int)f->frac_bits) : 0.0;
    assert_non_null(poses);
    memset(w, 0, sizeof *w);
    w->extent = 1.0;
    for (slot = 0; slot < f->num_nodes; slot++) { /* the node table */
        kf3ds_kfb_node n;
        const kf3ds_node *sn;
        kf3ds_kfb_node_get(f, slot, &n);
        assert_true(n.index < s->num_nodes);
        sn = &s->nodes[n.index];
        assert_string_equal(n.name.s, sn->name);
        assert_int_equal(n.type, sn->type);
        assert_int_equal(n.id, sn->id);
        assert_int_equal(n.parent, sn->parent);
        if (sn->instance)
            assert_string_equal(n.instance.s, sn->instance);
        else
            assert_null(n.instance.s);
        if (n.mesh >= 0) {
            kf3ds_kfb_mesh km;
            kf3ds_kfb_mesh_get(f, (uint32_t)n.mesh, &km);
            assert_int_equal(km.source, sn->mesh);
            check_mesh(s, f, &km, &s->meshes[sn->mesh]);
        }
    }
    for (fr = 0; fr < f->num_frames; fr++) {
        kf3ds_kfb_s32 num;
        kf3ds_kfb_frame_numerator(f, fr, &num);
        kf3ds_scene_eval(s, (double)num / f->frame_scale, 0, poses);
        for (slot = 0; slot < f->num_nodes; slot++) {
            kf3ds_kfb_node n;
            const kf3ds_pose *p;
            kf3ds_kfb_s32 raw[12] = { 0 };
            float fl[12];
            int k;
            kf3ds_kfb_node_get(f, slot, &n);
            p = &poses[n.index];
            kf3ds_kfb_world_float(f, fr, slot, fl);
            if (fixed)
                kf3ds_kfb_world_fixed(f, fr, slot, raw);
            for (k = 0; k < 12; k++) {
                double want = p->world.m[k / 4][k % 4], got = number(f, raw[k], fl[k]);
                if (k % 4 == 3 && fabs(want) > w->extent)
                    w->extent = fabs(want);
                if (fabs(got - want) > w->world)
                    w->world = fabs(got - want);
                if (!fixed && memcmp(&fl[k], &p->world.m[k / 4][k % 4], sizeof(float)) != 0)
                    fail_msg("frame %u node %u world[%d]: %.9g, not %.9g", (unsigned)fr,
                             (unsigned)n.index, k, got, want);
                if (fixed && fabs(got - want) > half * 1.0000001)
                    fail_msg("frame %u node %u world[%d]: %.9g, not %.9g rounded", (unsigned)fr,
                             (unsigned)n.index, k, got, want);
            }
            assert_int_equal(kf3ds_kfb_visible(f, fr, slot), !p->hidden);
            w->node_frames++;
            if (n.mesh >= 0) {
                const kf3ds_mesh *m = &s->meshes[s->nodes[n.index].mesh];
                kf3ds_kfb_mesh km;
                kf3ds_mat4 place;
                uint32_t v;
                kf3ds_kfb_mesh_get(f, (uint32_t)n.mesh, &km);
                assert_true(kf3ds_node_mesh_matrix(s, n.index, p, &place));
                for (v = 0; v < m->num_points; v++) {
                    float want[3];
                    double got[3];
                    kf3ds_mat4_transform_point(&place, m->points[v], want); /* kf3ds eval --verts */
                    placed(f, &km, fr, slot, v, got);
                    for (k = 0; k < 3; k++) {
                        if (fabs(want[k]) > w->extent)
                            w->extent = fabs(want[k]);
                        if (fabs(got[k] - want[k]) > w->vert)
                            w->vert = fabs(got[k] - want[k]);
                    }
                }
                w->vertices += m->num_points;
            }
        }
        for (c = 0; c < f->num_channels; c++) { /* channels: exactly the pose's values */
            kf3ds_kfb_channel ch;
            const kf3ds_pose *p;
            kf3ds_kfb_node n;
            float v[3], want[3];
            unsigned k;
            kf3ds_kfb_channel_get(f, c, &ch);
            kf3ds_kfb_node_get(f, ch.node_slot, &n);
            p = &poses[n.index];
            kf3ds_kfb_channel_float(f, fr, c, v);
            want[0] = ch.kind == KF3DS_KFB_CHANNEL_FOV       ? p->fov
                      : ch.kind == KF3DS_KFB_CHANNEL_ROLL    ? p->roll
                      : ch.kind == KF3DS_KFB_CHANNEL_HOTSPOT ? p->hotspot
                      : ch.kind == KF3DS_KFB_CHANNEL_FALLOFF ? p->falloff
                                                             : p->color[0];
            want[1] = p->color[1];
            want[2] = p->color[2];
            for (k = 0; k < ch.count; k++)
                assert_near(v[k], want[k], half * 1.0000001 + (fixed ? 1e-6 : 0));
        }
    }
    free(poses);
}

/* ---- every animated file ---------------------------------------------------- */

typedef struct sweep {
    int files;
    double worst_float, worst_fixed; /* of the extent */
    char worst_float_file[256], worst_fixed_file[256];
} sweep;

static void bake_one(const char *path, const char *name, void *user)
{
    sweep *sw = user;
    kf3ds_diag err;
    kf3ds_scene *s = kf3ds_load_file(path, NULL, &err);
    char kfb[600], *out = NULL;
    const char *fixed_args = "--fixed";
    kf3ds_kfb_file f;
    unsigned char *data;
    size_t size;
    worst wf, wx;
    int st;
    if (!s)
        return;
    if (!s->num_nodes || err.code != KF3DS_OK) { /* bake refuses these */
        kf3ds_scene_free(s);
        return;
    }
    support_set_what("%s", name);
    support_tmp_path(kfb, sizeof kfb, "sweep.kfb");

    st = bake(path, kfb, "-q", &out);
    if (st != 0)
        fail_msg("%s: bake exit %d: %s", name, st, out);
    free(out);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_frames, (uint32_t)(s->segment_end - s->segment_start + 1));
    assert_int_equal(f.num_nodes, s->num_nodes);
    compare_bake(s, &f, &wf);
    free(data);

    st = bake(path, kfb, "-q --fixed", &out);
    if (st == 1 && strstr(out, "does not fit")) { /* too big for 16.16 */
        fixed_args = "--frac-bits auto";
        free(out);
        st = bake(path, kfb, "-q --frac-bits auto", &out);
    }
    if (st != 0)
        fail_msg("%s: bake %s exit %d: %s", name, fixed_args, st, out);
    free(out);
    data = read_kfb(kfb, &size, &f);
    compare_bake(s, &f, &wx);
    fprintf(stderr, "  %-36s %4lu frames %3lu nodes  float %.2e  %2u.%-2u %.2e of extent %.6g\n",
            name, (unsigned long)f.num_frames, (unsigned long)f.num_nodes,
            wf.vert / wf.extent, 32 - f.frac_bits, f.frac_bits,
            (wx.vert > wx.world ? wx.vert : wx.world) / wx.extent, wx.extent);
    if (wf.vert > FLOAT_TOLERANCE * wf.extent)
        fail_msg("%s: float bake off by %g (extent %g)", name, wf.vert, wf.extent);
    if (wx.vert > FIXED_TOLERANCE * wx.extent)
        fail_msg("%s: fixed bake off by %g (extent %g)", name, wx.vert, wx.extent);
    if (wf.vert / wf.extent > sw->worst_float) {
        sw->worst_float = wf.vert / wf.extent;
        snprintf(sw->worst_float_file, sizeof sw->worst_float_file, "%s", name);
    }
    if (wx.vert / wx.extent > sw->worst_fixed) {
        sw->worst_fixed = wx.vert / wx.extent;
        snprintf(sw->worst_fixed_file, sizeof sw->worst_fixed_file, "%s %s", name, fixed_args);
    }
    sw->files++;
    free(data);
    kf3ds_scene_free(s);
}

static void report_sweep(const sweep *sw, const char *what)
{
    fprintf(stderr, "bake: %d animated files (%s); worst float %.2e of the extent (%s), worst "
                    "fixed %.2e (%s)\n", sw->files, what, sw->worst_float, sw->worst_float_file,
            sw->worst_fixed, sw->worst_fixed_file);
}

static void test_every_animated_sample(void **state)
{
    sweep sw;
    (void)state;
    memset(&sw, 0, sizeof sw);
    fprintf(stderr, "  file, frames, nodes, worst vertex difference over the extent: float, "
                    "fixed\n");
    support_dir_each("data", bake_one, &sw);
    report_sweep(&sw, "data/");
    assert_true(sw.files >= 3);
}

static void test_every_animated_corpus_file(void **state)
{
    sweep sw;
    (void)state;
    memset(&sw, 0, sizeof sw);
    if (support_corpus_each(bake_one, &sw) < 0)
        skip();
    report_sweep(&sw, "corpus");
    assert_true(sw.files >= 27 / (int)support_corpus_sample_step());
}

/* ---- kfb-eval's JSON against kf3ds eval's --------------------------------- */

typedef struct json_tok {
    const char *p;
    size_t len;
    int number;
} json_tok;

/* The next token: punctuation, a string (with its quotes) or a number. */
static int next_tok(const char **s, json_tok *t)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    if (!*p)
        return 0;
    t->p = p;
    t->number = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1])
                p++;
        p += *p == '"';
    } else if (strchr("{}[]:,", *p)) {
        p++;
    } else {
        t->number = 1;
        while (*p && !strchr("{}[]:, \n\t\r", *p))
            p++;
    }
    t->len = (size_t)(p - t->p);
    *s = p;
    return 1;
}

/* Token by token: punctuation, keys, strings (but the "file" value) and the
 * numbers outside "world" and "verts" identical; those within tol·extent,
 * the extent being the largest |number| there in `want` (at least 1).
 * Returns the largest difference over the extent. */
static double compare_json(const char *want, const char *got, double tol)
{
    const char *a = want, *b = got;
    json_tok x, y, prev = { "", 0, 0 };
    char key[32] = "";
    double extent = 1.0, worst = 0.0;
    while (next_tok(&a, &x)) /* the extent first */
        if (x.number)
            extent = fmax(extent, fabs(strtod(x.p, NULL)));
    a = want;
    while (next_tok(&a, &x)) {
        int measured = !strcmp(key, "world") || !strcmp(key, "verts");
        if (!next_tok(&b, &y))
            fail_msg("kfb-eval's JSON ends early, before %.*s", (int)x.len, x.p);
        if (x.number && y.number && measured) {
            double d = fabs(strtod(x.p, NULL) - strtod(y.p, NULL));
            worst = fmax(worst, d / extent);
            if (!(d <= tol * extent))
                fail_msg("%s number %.*s, not %.*s (extent %g)", key, (int)y.len, y.p, (int)x.len,
                         x.p, extent);
        } else if (!(x.len == y.len && memcmp(x.p, y.p, x.len) == 0) && strcmp(key, "file")) {
            fail_msg("kfb-eval prints %.*s where kf3ds eval prints %.*s (after \"%s\")",
                     (int)y.len, y.p, (int)x.len, x.p, key);
        }
        if (x.len == 1 && *x.p == ':' && prev.len >= 2 && prev.len < sizeof key + 2)
            snprintf(key, sizeof key, "%.*s", (int)prev.len - 2, prev.p + 1);
        prev = x;
    }
    if (next_tok(&b, &y))
        fail_msg("kfb-eval prints more: %.*s", (int)y.len, y.p);
    return worst;
}

static void json_matches(const char *file, const char *bake_args, const char *frames, double tol)
{
    char kfb[600], *want = NULL, *got = NULL, *out = NULL, *err = NULL;
    int st;
    support_tmp_path(kfb, sizeof kfb, "json.kfb");
    st = bake(file, kfb, bake_args, &out);
    if (st != 0)
        fail_msg("bake %s %s: exit %d: %s", file, bake_args, st, out);
    free(out);
    assert_int_equal(run_shell2(&want, &err, "'%s' eval '%s' %s --json --verts", support_tool(),
                                file, frames), 0);
    free(err);
    st = run_shell2(&got, &err, "'%s' '%s' %s --json --verts", kfb_eval_path(), kfb, frames);
    if (st != 0 || *err)
        fail_msg("kfb-eval exit %d: %s", st, err);
    free(err);
    support_set_what("%s %s %s", file, bake_args, frames);
    fprintf(stderr, "  kfb-eval %-28s %-18s JSON as kf3ds eval, worst %.2e of the extent\n",
            strrchr(file, '/') ? strrchr(file, '/') + 1 : file, bake_args,
            compare_json(want, got, tol));
    free(want);
    free(got);
}

static void test_kfb_eval_json(void **state)
{
    (void)state;
    json_matches("data/arm.3ds", "", "--frame 0 --frame 12 --frame 60", FLOAT_TOLERANCE);
    json_matches("data/arm.3ds", "--fixed", "--frame 0 --frame 12 --frame 60", FIXED_TOLERANCE);
    json_matches("data/orrery.3ds", "--step 0.5", "--frame 25.5 --frame 99.5 --frame 3",
                 FLOAT_TOLERANCE);
    json_matches("data/edge.3ds", "--fixed --frac-bits 20", "--frame 7 --frame 100",
                 FIXED_TOLERANCE);
}

static void test_kfb_eval_json_corpus(void **state)
{
    const char *dir = support_corpus_dir();
    char path[600];
    (void)state;
    if (!dir)
        skip();
    support_path(path, sizeof path, dir, "sr-CITY.3DS");
    json_matches(path, "--fixed", "--frame 0 --frame 1075 --frame 2150", FIXED_TOLERANCE);
    support_path(path, sizeof path, dir, "kjetilos-ship.3ds");
    json_matches(path, "--frac-bits auto", "--frame 50", FIXED_TOLERANCE);
    support_path(path, sizeof path, dir, "blitz3d-mak_robotic.3DS");
    json_matches(path, "", "--frame 1 --frame 414", FLOAT_TOLERANCE);
}

/* ---- the options ------------------------------------------------------------ */

static void test_frames_and_step(void **state)
{
    char kfb[600], *out = NULL;
    kf3ds_kfb_file f;
    kf3ds_kfb_u32 i;
    kf3ds_kfb_s32 num;
    unsigned char *data;
    size_t size;
    (void)state;
    support_tmp_path(kfb, sizeof kfb, "frames.kfb");
    assert_int_equal(bake("data/arm.3ds", kfb, "--frames 10:12 --step 0.5", &out), 0);
    assert_non_null(strstr(out, "5 frames 10..12 step 0.5"));
    free(out);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_frames, 5);
    assert_int_equal(f.frame_scale, 10);
    assert_int_equal(f.frame_first, 100);
    assert_int_equal(f.frame_step, 5);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "10.5", &i), KF3DS_KFB_OK);
    assert_int_equal(i, 1);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "12.000", &i), KF3DS_KFB_OK);
    assert_int_equal(i, 4);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "11.25", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "12.5", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "9.5", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "1e1", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_find_frame(&f, ".", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "99999999999", &i), KF3DS_KFB_ERR_FRAME);
    assert_int_equal(kf3ds_kfb_frame_numerator(&f, 3, &num), KF3DS_KFB_OK);
    assert_int_equal(num, 115);
    free(data);

    /* negative and fractional starts, exact decimal frames */
    assert_int_equal(bake("data/arm.3ds", kfb, "-q --frames=-2.25:0 --step=0.75", NULL), 0);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_frames, 4);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "-1.5", &i), KF3DS_KFB_OK);
    assert_int_equal(i, 1);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "0", &i), KF3DS_KFB_OK);
    assert_int_equal(i, 3);
    free(data);
    json_matches("data/arm.3ds", "--frames=-2.25:0 --step=0.75",
                 "--frame -2.25 --frame -0.75 --frame 0", FLOAT_TOLERANCE);
}

/* --between: linear interpolation of the baked matrices strays from kf3ds
 * between frames, less at a finer step (about as its square for smooth
 * motion: halving the step quarters it in data/arm.3ds, up to rounding). */
/* The measure in a --between line of `out`. */
static double strays(const char *out)
{
    const char *p = strstr(out, "strays up to ");
    double d = -1.0;
    assert_non_null(p);
    assert_int_equal(sscanf(p, "strays up to %lf", &d), 1);
    return d;
}

static double between(const char *step)
{
    char kfb[600], args[200], *out = NULL;
    double d;
    support_tmp_path(kfb, sizeof kfb, "between.kfb");
    snprintf(args, sizeof args, "--between --step %s", step);
    assert_int_equal(bake("data/arm.3ds", kfb, args, &out), 0);
    d = strays(out);
    free(out);
    return d;
}

static void test_between(void **state)
{
    double one, half, tenth;
    (void)state;
    one = between("1");
    half = between("0.5");
    tenth = between("0.1");
    assert_true(one > 1e-4 && one < 1e-2);
    assert_true(half > one / 6 && half < one / 2.5);
    assert_true(tenth < half / 10);
}

/* --tolerance T: the step is halved from --step until the --between
 * measure is within T. data/arm.3ds (test_between's numbers): 2.3e-3 at
 * step 1, 5.9e-4 at 0.5, 1.5e-4 at 0.25, 3.7e-5 at 0.125, so 1e-4 takes
 * 0.125 (481 frames over 0..60) and 1e-3 takes 0.5. Past 6 decimals of
 * step it refuses, writing nothing; a bad T is a usage error. */
static void test_tolerance(void **state)
{
    char kfb[600], *out = NULL;
    kf3ds_kfb_file f;
    unsigned char *data;
    size_t size;
    uint32_t i;
    (void)state;
    support_tmp_path(kfb, sizeof kfb, "tolerance.kfb");
    assert_int_equal(bake("data/arm.3ds", kfb, "--tolerance 1e-4 --between", &out), 0);
    assert_true(strays(out) <= 1e-4);
    assert_non_null(strstr(out, "bake: step 0.25: 241 frames"));
    assert_non_null(strstr(out, "step 0.125: 481 frames"));
    free(out);
    out = NULL;
    assert_true(between("0.25") > 1e-4);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_frames, 481);
    assert_int_equal(kf3ds_kfb_find_frame(&f, "59.875", &i), KF3DS_KFB_OK);
    assert_int_equal(i, 479);
    free(data);

    assert_int_equal(bake("data/arm.3ds", kfb, "-q --tolerance 1e-3", NULL), 0);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_frames, 121);
    free(data);

    remove(kfb);
    assert_int_equal(bake("data/arm.3ds", kfb, "-q --tolerance 1e-9", &out), 1);
    assert_non_null(strstr(out, "--tolerance 1e-09: at step 0.015625"));
    assert_non_null(strstr(out, "more than 6 decimals"));
    assert_null(fopen(kfb, "rb"));
    free(out);
    assert_int_equal(bake("data/arm.3ds", kfb, "--tolerance 0", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--tolerance 1", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--tolerance x", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--tolerance", NULL), 2);
}

static void test_nodes_and_no_meshes(void **state)
{
    char kfb[600], *out = NULL;
    kf3ds_kfb_file f;
    kf3ds_kfb_node n;
    unsigned char *data;
    size_t size;
    (void)state;
    support_tmp_path(kfb, sizeof kfb, "nodes.kfb");
    assert_int_equal(bake("data/arm.3ds", kfb, "-q --nodes Base,Hand,Cam01", NULL), 0);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_nodes, 4); /* the camera and its target are both called Cam01 */
    kf3ds_kfb_node_get(&f, 1, &n);
    assert_string_equal(n.name.s, "Hand");
    assert_int_equal(n.index, 3);
    assert_int_equal(n.parent, 2);
    assert_int_equal(n.parent_slot, -1); /* Forearm was not baked */
    kf3ds_kfb_node_get(&f, 2, &n);
    assert_int_equal(n.type, KF3DS_KFB_CAMERA);
    kf3ds_kfb_node_get(&f, 3, &n);
    assert_int_equal(n.type, KF3DS_KFB_TARGET);
    assert_int_equal(f.num_channels, 2); /* FOV and roll */
    free(data);
    assert_int_equal(bake("data/arm.3ds", kfb, "--nodes Base,Nope", &out), 1); /* the file's */
    assert_non_null(strstr(out, "no node is called 'Nope'"));
    free(out);

    assert_int_equal(bake("data/arm.3ds", kfb, "-q --no-meshes", NULL), 0);
    data = read_kfb(kfb, &size, &f);
    assert_int_equal(f.num_meshes, 0);
    assert_int_equal(f.num_materials, 0);
    assert_int_equal(f.flags & KF3DS_KFB_FLAG_MESHES, 0);
    kf3ds_kfb_node_get(&f, 0, &n);
    assert_int_equal(n.mesh, -1);
    /* 10 nodes × 48 bytes + the varying channel values + one visibility word */
    assert_int_equal(f.frame_stride, 10 * 48 + 4 * f.num_channel_values + 4);
    free(data);
}

static void test_c_source(void **state)
{
    char name[600], main_c[600], exe[600], kfb[600], *out = NULL;
    FILE *m;
    int st;
    (void)state;
    support_tmp_path(name, sizeof name, "arm_anim");
    support_tmp_path(kfb, sizeof kfb, "arm_anim.kfb");
    support_tmp_path(main_c, sizeof main_c, "main.c");
    support_tmp_path(exe, sizeof exe, "arm_anim_test");
    assert_int_equal(run_shell(&out, "'%s' bake data/arm.3ds --fixed -o '%s' --c-source '%s'",
                               support_tool(), kfb, name), 0);
    assert_non_null(strstr(out, "arm_anim.c and"));
    free(out);
    m = fopen(main_c, "w");
    assert_non_null(m);
    /* C89, -pedantic: open the array, compare it with the .kfb file */
    fprintf(m, "#include <stdio.h>\n#include <string.h>\n#include \"arm_anim.h\"\n"
               "#define KF3DS_KFB_IMPLEMENTATION\n#include \"kf3ds_kfb.h\"\n"
               "int main(int argc, char **argv)\n{\n    static unsigned char buf[ARM_ANIM_KFB_SIZE + 1];\n"
               "    kf3ds_kfb_file f;\n    FILE *in = fopen(argv[1], \"rb\");\n"
               "    size_t n = in ? fread(buf, 1, sizeof buf, in) : 0;\n    (void)argc;\n"
               "    if (arm_anim_open(&f) != KF3DS_KFB_OK || f.num_nodes != 10) return 1;\n"
               "    if (n != ARM_ANIM_KFB_SIZE || memcmp(buf, arm_anim_kfb, n)) return 2;\n"
               "    return (unsigned long)arm_anim_kfb %% 4 ? 3 : 0;\n}\n");
    fclose(m);
    st = run_shell(&out, "for cc in gcc clang; do command -v $cc > /dev/null || continue; "
                         "$cc -std=c89 -pedantic -Wall -Wextra -Werror -Iinclude -I'%s' -o '%s' "
                         "'%s' '%s.c' && '%s' '%s' || exit 1; done", support_tmpdir(), exe, main_c,
                   name, exe, kfb);
    if (st != 0)
        fail_msg("the C source: exit %d: %s", st, out);
    free(out);
    assert_int_equal(run_shell(&out, "'%s' bake data/arm.3ds --c-source '%s/1st'", support_tool(),
                               support_tmpdir()), 2);
    assert_non_null(strstr(out, "C identifier"));
    free(out);
}

static void test_errors(void **state)
{
    char kfb[600], none[600], *out = NULL;
    static const unsigned char no_nodes[] = { 0x4D, 0x4D, 6, 0, 0, 0 };
    (void)state;
    support_tmp_path(kfb, sizeof kfb, "err.kfb");
    support_tmp_path(none, sizeof none, "no_nodes.3ds");
    support_write_file(none, no_nodes, sizeof no_nodes);
    assert_int_equal(run_shell(&out, "'%s' bake data/arm.3ds", support_tool()), 2);
    assert_non_null(strstr(out, "-o OUT.kfb"));
    free(out);
    assert_int_equal(bake("data/arm.3ds", kfb, "--frac-bits 29", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--frames 5:1", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--frames 5", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--step 0", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--step 0.0000001", NULL), 2);
    assert_int_equal(bake("data/arm.3ds", kfb, "--frac-bits 28", &out), 1);
    assert_non_null(strstr(out, "does not fit 4.28 fixed point: use --frac-bits 24 or less"));
    free(out);
    assert_int_equal(bake(none, kfb, "", &out), 1);
    assert_non_null(strstr(out, "no keyframer nodes"));
    free(out);
    assert_int_equal(bake("data/arm.3ds", kfb, "-q", NULL), 0);
    assert_int_equal(run_shell(&out, "'%s' '%s' --frame 12.5 --json", kfb_eval_path(), kfb), 2);
    assert_non_null(strstr(out, "not baked: 12.5"));
    free(out);
    assert_int_equal(run_shell(&out, "'%s' '%s' --frame 1", kfb_eval_path(), kfb), 2);
    free(out);
    assert_int_equal(run_shell(&out, "'%s' data/arm.3ds --frame 1 --json", kfb_eval_path()), 1);
    assert_non_null(strstr(out, "not a .kfb file"));
    free(out);
    assert_int_equal(run_shell(&out, "head -c 3000 '%s' > '%s.cut' && '%s' '%s.cut' --frame 1 --json",
                               kfb, kfb, kfb_eval_path(), kfb), 1);
    assert_non_null(strstr(out, "offset 3000: file cut short"));
    free(out);
}

/* ---- kf3ds info and kf3ds dump of a .kfb ------------------------------------ */

static void test_info_and_dump(void **state)
{
    char kfb[600], cut[600], *out = NULL, *err = NULL;
    unsigned char *data;
    size_t size;
    (void)state;
    support_tmp_path(kfb, sizeof kfb, "show.kfb");
    support_tmp_path(cut, sizeof cut, "show_cut.kfb");
    assert_int_equal(bake("data/arm.3ds", kfb, "-q --fixed --frames 0:20 --step 2", NULL), 0);
    assert_int_equal(run_shell2(&out, &err, "'%s' info '%s'", support_tool(), kfb), 0);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, "kfb: version 1, 16.16 fixed point, with meshes\n"));
    assert_non_null(strstr(out, "frames: 11: 0..20 step 2 (the .3ds segment 0..60), 512 bytes each\n"));
    assert_non_null(strstr(out, "nodes: 10\n  [0] object Base: mesh 0 (8 vertices)\n"
                                "    [1] object UpperArm: mesh 1 (8 vertices)\n"));
    assert_non_null(strstr(out, "  [8] camera Cam01 fov roll\n"));
    assert_non_null(strstr(out, "meshes: 6 (48 vertices, 72 faces, 48 normals, 0 texture coordinates)\n"));
    free(out);
    free(err);
    /* the same from standard input */
    assert_int_equal(run_shell(&out, "'%s' info - < '%s'", support_tool(), kfb), 0);
    assert_non_null(strstr(out, "file: - ("));
    free(out);

    assert_int_equal(run_shell2(&out, &err, "'%s' dump '%s'", support_tool(), kfb), 0);
    assert_non_null(strstr(out, "0x000000 header len 128: magic \"KFB\\x1A\" version 1"));
    assert_non_null(strstr(out, "\n0x000080 nodes len 400\n  0x000080 node len 40: slot 0 name \"Base\""));
    assert_non_null(strstr(out, "... 3 more frames (--full shows all)"));
    assert_non_null(strstr(out, "face 0: v (0, 2, 3) material 0 flags 0x0007 smoothing 0x00000001 "
                                "normals (0, 2, 3)\n"));
    free(out);
    free(err);
    assert_int_equal(run_shell(&out, "'%s' dump '%s' --json --full", support_tool(), kfb), 0);
    assert_true(out[0] == '[');
    assert_non_null(strstr(out, "{\"offset\":0,\"name\":\"header\",\"length\":128,\"fields\":{\"magic\":"));
    assert_null(strstr(out, "more (--full"));
    free(out);

    /* a damaged file: one error line with the offset, exit 1 */
    data = support_read_file(kfb, &size);
    support_write_file(cut, data, 200);
    free(data);
    assert_int_equal(run_shell2(&out, &err, "'%s' info '%s'", support_tool(), cut), 1);
    assert_string_equal(out, "");
    assert_int_equal(support_check_error_lines(err, cut, 0), 1);
    assert_non_null(strstr(err, ": offset 200: file cut short\n"));
    free(out);
    free(err);
    assert_int_equal(run_shell2(&out, &err, "'%s' dump '%s' --json", support_tool(), cut), 1);
    assert_string_equal(out, "[\n]\n"); /* still one JSON document */
    assert_non_null(strstr(err, ": offset 200: file cut short\n"));
    free(out);
    free(err);
}

/* ---- the README's example --------------------------------------------------- */

/* build/kfb-print beside the command, as kfb-eval. */
static const char *kfb_print_path(void)
{
    static char path[1024];
    const char *eval = kfb_eval_path();
    snprintf(path, sizeof path, "%.*skfb-print", (int)(strlen(eval) - strlen("kfb-eval")), eval);
    return path;
}

/* The README shows examples/kfb_print.c's function verbatim; the program prints
 * the placed vertices of the visible meshes as kfb-eval does, to 4 decimals. */
static void test_readme_example(void **state)
{
    char kfb[600], *out = NULL;
    unsigned char *readme, *example;
    size_t n_readme, n_example;
    const char *begin, *end;
    size_t lines = 0;
    (void)state;
    readme = support_read_file("README.md", &n_readme);
    example = support_read_file("examples/kfb_print.c", &n_example);
    assert_non_null(readme);
    assert_non_null(example);
    readme = realloc(readme, n_readme + 1);
    example = realloc(example, n_example + 1);
    readme[n_readme] = example[n_example] = 0;
    begin = strstr((char *)example, "/* README: begin */\n");
    end = strstr((char *)example, "/* README: end */");
    assert_non_null(begin);
    assert_non_null(end);
    begin += strlen("/* README: begin */\n");
    {
        char *block = malloc((size_t)(end - begin) + 16);
        snprintf(block, (size_t)(end - begin) + 16, "```c\n%.*s```", (int)(end - begin), begin);
        if (!strstr((char *)readme, block))
            fail_msg("README.md does not show examples/kfb_print.c's print_vertices verbatim");
        free(block);
    }
    free(readme);
    free(example);

    support_tmp_path(kfb, sizeof kfb, "print.kfb");
    assert_int_equal(bake("data/arm.3ds", kfb, "-q --fixed", NULL), 0);
    assert_int_equal(run_shell(&out, "'%s' '%s' 30", kfb_print_path(), kfb), 0);
    {
        /* what it must print: the visible meshes' vertices, placed by the reader */
        kf3ds_kfb_file f;
        size_t size, len = 0;
        unsigned char *data = read_kfb(kfb, &size, &f);
        char *want = calloc(1, 1 << 16);
        kf3ds_kfb_u32 fr, slot, v;
        assert_int_equal(kf3ds_kfb_find_frame(&f, "30", &fr), KF3DS_KFB_OK);
        for (slot = 0; slot < f.num_nodes; slot++) {
            kf3ds_kfb_node n;
            kf3ds_kfb_mesh m;
            kf3ds_kfb_node_get(&f, slot, &n);
            if (n.mesh < 0 || !kf3ds_kfb_visible(&f, fr, slot))
                continue;
            kf3ds_kfb_mesh_get(&f, (kf3ds_kfb_u32)n.mesh, &m);
            for (v = 0; v < m.num_vertices; v++) {
                double p[3];
                placed(&f, &m, fr, slot, v, p);
                len += (size_t)snprintf(want + len, (1 << 16) - len, "%s %lu: %.4f %.4f %.4f\n",
                                        n.name.s, (unsigned long)v, p[0], p[1], p[2]);
                lines++;
            }
        }
        assert_true(lines > 30);
        assert_string_equal(out, want);
        free(want);
        free(data);
    }
    free(out);
    assert_int_equal(run_shell(&out, "'%s' data/arm.3ds", kfb_print_path()), 2);
    free(out);
}

/* ---- the reader on damaged files ----------------------------------------------- */

/* Every accessor over everything an open file has (ASan watches). */
static void read_everything(const kf3ds_kfb_file *f)
{
    kf3ds_kfb_u32 fr, i, v;
    kf3ds_kfb_s32 m[12], p[3], q[3];
    float fl[12];
    for (i = 0; i < f->num_nodes; i++) {
        kf3ds_kfb_node n;
        assert_int_equal(kf3ds_kfb_node_get(f, i, &n), KF3DS_KFB_OK);
        assert_true(n.name.s[n.name.len] == 0);
        for (fr = 0; fr < f->num_frames; fr++) {
            kf3ds_kfb_world_fixed(f, fr, i, m);
            kf3ds_kfb_world_float(f, fr, i, fl);
            (void)kf3ds_kfb_visible(f, fr, i);
        }
    }
    for (i = 0; i < f->num_channels; i++)
        for (fr = 0; fr < f->num_frames; fr++)
            kf3ds_kfb_channel_float(f, fr, i, fl);
    for (i = 0; i < f->num_materials; i++) {
        kf3ds_kfb_material mat;
        assert_int_equal(kf3ds_kfb_material_get(f, i, &mat), KF3DS_KFB_OK);
    }
    for (i = 0; i < f->num_meshes; i++) {
        kf3ds_kfb_mesh mesh;
        assert_int_equal(kf3ds_kfb_mesh_get(f, i, &mesh), KF3DS_KFB_OK);
        for (v = 0; v < mesh.num_faces; v++) {
            kf3ds_kfb_face face;
            int k;
            kf3ds_kfb_face_get(&mesh, v, &face);
            for (k = 0; k < 3; k++) {
                assert_int_equal(kf3ds_kfb_vertex_float(f, &mesh, face.v[k], fl), KF3DS_KFB_OK);
                assert_int_equal(kf3ds_kfb_normal_float(f, &mesh, face.n[k], fl), KF3DS_KFB_OK);
            }
        }
        for (v = 0; v < mesh.num_vertices; v++) {
            if (kf3ds_kfb_vertex_fixed(f, &mesh, v, p) == KF3DS_KFB_OK && f->num_frames &&
                f->num_nodes) {
                kf3ds_kfb_world_fixed(f, 0, 0, m);
                kf3ds_kfb_fixed_transform(m, p, f->frac_bits, q);
            }
            kf3ds_kfb_uv_float(f, &mesh, v, fl);
        }
    }
    /* out of range: errors and zeros, never a read */
    assert_int_equal(kf3ds_kfb_world_float(f, f->num_frames, 0, fl), KF3DS_KFB_ERR_ARGUMENT);
    assert_true(fl[0] == 0.0f && fl[11] == 0.0f);
    assert_int_equal(kf3ds_kfb_visible(f, 0, f->num_nodes), 0);
}

static void test_damaged_files(void **state)
{
    char kfb[600];
    unsigned char *good, *copy;
    kf3ds_kfb_file f;
    size_t size, n, i, opened = 0;
    int bit;
    (void)state;
    support_tmp_path(kfb, sizeof kfb, "damage.kfb");
    assert_int_equal(bake("data/arm.3ds", kfb, "-q --fixed --step 6", NULL), 0);
    good = read_kfb(kfb, &size, &f);
    /* every truncation, in an exactly sized buffer */
    for (n = 0; n < size; n++) {
        copy = malloc(n ? n : 1);
        memcpy(copy, good, n);
        assert_int_not_equal(kf3ds_kfb_open(&f, copy, n), KF3DS_KFB_OK);
        free(copy);
    }
    /* every byte with one bit flipped, and set to 0xFF */
    for (i = 0; i < size; i++)
        for (bit = 0; bit < 9; bit += 4) {
            copy = malloc(size);
            memcpy(copy, good, size);
            copy[i] = bit == 8 ? 0xFF : (unsigned char)(copy[i] ^ (1u << bit));
            if (kf3ds_kfb_open(&f, copy, size) == KF3DS_KFB_OK) {
                read_everything(&f);
                opened++;
            } else {
                assert_true(f.error_offset <= size);
            }
            free(copy);
        }
    fprintf(stderr, "  %lu of %lu damaged copies still open (values changed, not the layout)\n",
            (unsigned long)opened, (unsigned long)size * 3);
    assert_int_equal(kf3ds_kfb_open(&f, good, size), KF3DS_KFB_OK);
    read_everything(&f);
    free(good);
}

/* The fixed-point arithmetic against 64-bit integers. */
static void test_fixed_arithmetic(void **state)
{
    static const int32_t values[] = { 0, 1, -1, 2, 65535, 65536, -65536, 98304, -98305,
                                      0x7FFFFFFF, -0x7FFFFFFF - 1, 123456789, -987654321,
                                      46341, -46341, 0x10000 * 3 + 7 };
    size_t na = sizeof values / sizeof values[0], a, b, c;
    unsigned n;
    (void)state;
    for (n = 0; n <= 28; n++)
        for (a = 0; a < na; a++)
            for (b = 0; b < na; b++) {
                int64_t prod = (int64_t)values[a] * values[b], want;
                kf3ds_kfb_s32 m[12] = { 0 }, v[3], out[3];
                /* round(prod / 2^n), halves up, saturated */
                want = n ? (prod + ((int64_t)1 << (n - 1))) >> n : prod;
                want = want > INT32_MAX ? INT32_MAX : want < INT32_MIN ? INT32_MIN : want;
                assert_int_equal(kf3ds_kfb_fixed_mul(values[a], values[b], n), (int32_t)want);
                c = (a + b) % na;
                m[0] = values[a];
                m[1] = values[b];
                m[2] = values[c];
                m[3] = values[(a * 7 + b) % na] / (n < 31 ? 1 << (n / 2) : 1);
                v[0] = values[b];
                v[1] = values[c];
                v[2] = values[a];
                kf3ds_kfb_fixed_transform(m, v, n, out);
                {
                    /* the exact sum: at most 3·2^62 + 2^31·2^28 < 2^64; two halves */
                    int64_t parts[4] = { (int64_t)m[0] * v[0], (int64_t)m[1] * v[1],
                                         (int64_t)m[2] * v[2], (int64_t)m[3] * ((int64_t)1 << n) };
                    long double sum = 0;
                    int k;
                    for (k = 0; k < 4; k++)
                        sum += (long double)parts[k];
                    sum = floorl((sum + (n ? ldexpl(1.0L, (int)n - 1) : 0)) / ldexpl(1.0L, (int)n));
                    sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
                    if (fabsl(sum) < 1e17L) /* exactly representable: compare */
                        assert_int_equal(out[0], (int32_t)sum);
                }
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_every_animated_sample),
        support_unit_test(test_every_animated_corpus_file),
        support_unit_test(test_kfb_eval_json),
        support_unit_test(test_kfb_eval_json_corpus),
        support_unit_test(test_frames_and_step),
        support_unit_test(test_between),
        support_unit_test(test_tolerance),
        support_unit_test(test_nodes_and_no_meshes),
        support_unit_test(test_c_source),
        support_unit_test(test_errors),
        support_unit_test(test_info_and_dump),
        support_unit_test(test_readme_example),
        support_unit_test(test_damaged_files),
        support_unit_test(test_fixed_arithmetic),
    };
    int r;
    if (support_tmpdir_make("kf3ds_test_bake_") != 0)
        return 1;
    r = support_run_tests(tests, NULL, NULL);
    support_tmpdir_remove();
    return r;
}
