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
static const char *kfb_eval_path(void) __attribute__((unused));
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

/* Runs a shell command line; its stdout into *out (may be NULL). Returns the
 * exit status. */
static int run_shell(char **out, const char *fmt, ...)
{
    char cmd[4096], out_path[600];
    va_list ap;
    int st, n;
    va_start(ap, fmt);
    n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof cmd - 700);
    support_tmp_path(out_path, sizeof out_path, "shell.out");
    snprintf(cmd + n, sizeof cmd - (size_t)n, " > '%s' 2>&1", out_path);
    st = system(cmd);
    if (out) {
        size_t len;
        *out = (char *)support_read_file(out_path, &len);
        assert_non_null(*out);
        *out = realloc(*out, len + 1);
        (*out)[len] = '\0';
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

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

static void test_every_animated_file(void **state)
{
    sweep sw;
    int have_corpus;
    (void)state;
    memset(&sw, 0, sizeof sw);
    fprintf(stderr, "  file, frames, nodes, worst vertex difference over the extent: float, "
                    "fixed\n");
    support_dir_each("data", bake_one, &sw);
    have_corpus = support_corpus_each(bake_one, &sw) >= 0;
    fprintf(stderr, "bake: %d animated files; worst float %.2e of the extent (%s), worst fixed "
                    "%.2e (%s)\n", sw.files, sw.worst_float, sw.worst_float_file, sw.worst_fixed,
            sw.worst_fixed_file);
    assert_true(sw.files >= (have_corpus ? 30 : 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_every_animated_file),
    };
    int r;
    if (support_tmpdir_make("kf3ds_test_bake_") != 0)
        return 1;
    r = support_run_tests(tests, NULL, NULL);
    support_tmpdir_remove();
    return r;
}
