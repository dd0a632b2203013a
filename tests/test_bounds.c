/* Bounds on bad input (docs/robustness.md):
 *  - numbers that cannot explode: NaN and infinities in every kind of float
 *    a file holds are replaced at load with a KF3DS_WARN_VALUE naming the
 *    chunk, huge values are clamped, and evaluation of the result at any
 *    finite frame gives finite matrices, poses, mesh placements and views,
 *    even for long chains of scaled nodes, extreme TCB/ease values and nearly
 *    singular mesh matrices;
 *  - the memory bound: the peak of what loading takes from the allocator is
 *    at most SUPPORT_BOUND_PER_BYTE bytes per input byte plus
 *    SUPPORT_BOUND_FIXED, measured with a counting allocator on the densest
 *    inputs there are (empty node chunks, tiny keys, tiny meshes, materials,
 *    cameras, lights, material groups) and on inputs claiming 4 billion keys
 *    or 65,535 vertices in a few bytes;
 *  - allocation failure at every allocation of the strange inputs.
 * (Truncation, damaged lengths, nesting, the failing allocator on valid
 * scenes and memory limits are in test_malformed.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"
#include "write3ds.h"

static kf3ds_scene *load_counted(const w3ds *w, counting *c, long fail_after, kf3ds_diag *err)
{
    kf3ds_load_options o;
    counting_reset(c, fail_after); /* the counting allocator of support.c */
    o = counting_options(c);
    return kf3ds_load_memory(w->buf, w->len, &o, err);
}

static int find_warning(const kf3ds_scene *s, uint16_t chunk_id)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == KF3DS_WARN_VALUE && s->diags[i].chunk_id == chunk_id)
            return 1;
    return 0;
}

/* Every node at many finite frames: world matrices, poses, mesh matrices,
 * every placed vertex, camera views; the same through kf3ds_node_eval. */
static void check_finite_everywhere(const kf3ds_scene *s)
{
    static const double frames[] = { -2147483648.0, -1e12, -1.0, 0.0, 0.25, 0.5, 1.0, 2.5,
                                     3.0, 4.75, 5.0, 9.999, 10.0, 15.5, 20.0, 99.0, 1e6,
                                     2147483647.0, 1e300 };
    kf3ds_pose *poses = (kf3ds_pose *)calloc(s->num_nodes + 1, sizeof *poses);
    size_t f;
    uint32_t i, j;
    unsigned flags;
    MUST(poses != NULL);
    for (flags = 0; flags < 2; flags++)
        for (f = 0; f < sizeof frames / sizeof frames[0]; f++) {
            kf3ds_scene_eval(s, frames[f], flags, poses);
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_pose *p = &poses[i];
                kf3ds_mat4 m;
                kf3ds_pose one;
                float fov, roll;
                support_set_what("node %u at frame %g", i, frames[f]);
                MUST(support_finite_mat(&p->world));
                MUST(support_finite_n(p->position, 3) && support_finite_n(p->rotation, 4) &&
                     support_finite_n(p->scale, 3) && support_finite_n(p->color, 3));
                MUST(isfinite(p->fov) && isfinite(p->roll) && isfinite(p->hotspot) &&
                     isfinite(p->falloff));
                if (kf3ds_node_mesh_matrix(s, i, p, &m)) {
                    const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
                    MUST(support_finite_mat(&m));
                    for (j = 0; j < mesh->num_points; j++) {
                        float out[3];
                        kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                        MUST(support_finite_n(out, 3));
                    }
                }
                if (kf3ds_node_camera_view(s, i, poses, &m, &fov, &roll))
                    MUST(support_finite_mat(&m) && isfinite(fov) && isfinite(roll));
                memset(&one, 0, sizeof one);
                kf3ds_node_eval(s, i, frames[f], flags, &one);
                MUST(support_finite_mat(&one.world));
            }
        }
    free(poses);
}

/* ------------------------------------------------------------------------ */
/* NaN and infinities in every kind of float                                */
/* ------------------------------------------------------------------------ */

static const uint16_t box_faces[6] = { 0, 1, 2, 0, 2, 3 };

static void write_nonfinite(w3ds *w, float bad)
{
    const float pts[12] = { bad, 0, 0, 1, bad, 0, 1, 1, 0, 0, 1, -bad };
    const float mat[12] = { bad, 0, 0, 0, 1, 0, 0, 0, 1, bad, 0, 0 };
    const float cpos[3] = { bad, -10, 0 }, ctgt[3] = { 0, 0, bad };
    const float lcol[3] = { bad, 1, 1 };
    const w3ds_tcb tcb = { bad, bad, bad, bad, bad, 0 };
    w3ds_begin(w, 0x4D4D);
    w3ds_begin(w, 0x3D3D);
    support_chunk_f32v(w, 0x0100, &bad, 1); /* MASTER_SCALE */
    w3ds_begin(w, 0xAFFF);
    support_chunk_str(w, 0xA000, "M");
    w3ds_begin(w, 0xA020);
    support_chunk_f32v(w, 0x0010, lcol, 3); /* COLOR_F */
    w3ds_end(w);
    w3ds_begin(w, 0xA040);
    support_chunk_f32v(w, 0x0031, &bad, 1); /* FLOAT_PERCENTAGE */
    w3ds_end(w);
    w3ds_begin(w, 0xA200);
    support_chunk_f32v(w, 0xA354, &bad, 1); /* MAT_MAP_USCALE */
    w3ds_end(w);
    w3ds_end(w);
    w3ds_mesh(w, "Box", pts, 4, box_faces, 2, mat, "M");
    w3ds_camera(w, "Cam", cpos, ctgt, bad, bad);
    w3ds_light(w, "Spot", cpos, lcol, ctgt, bad, 40.0f);
    w3ds_end(w);
    w3ds_begin(w, 0xB000);
    support_node_begin(w, 0xB002, 0, "Box", 0xFFFF);
    support_chunk_f32v(w, 0xB013, cpos, 3); /* PIVOT */
    support_track_begin(w, 0xB020, 0, 3);
    support_key_vec(w, 0, NULL, 0, 0, 0);
    support_key_vec(w, 5, &tcb, bad, 1, 2);
    support_key_vec(w, 10, NULL, 3, 3, 3);
    w3ds_end(w);
    support_track_begin(w, 0xB021, 0, 2);
    w3ds_key_header(w, 0, NULL);
    w3ds_f32v(w, (const float[4]){ 0.5f, 0, 0, 1 }, 4);
    w3ds_key_header(w, 10, NULL);
    w3ds_f32v(w, (const float[4]){ bad, bad, 0, 1 }, 4);
    w3ds_end(w);
    support_track_begin(w, 0xB022, 0, 2);
    support_key_vec(w, 0, NULL, bad, 1, 1);
    support_key_vec(w, 10, NULL, 2, 2, 2);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, 0xB003, 1, "Cam", 0xFFFF);
    support_track_begin(w, 0xB023, 0, 1);
    w3ds_key_header(w, 0, NULL);
    w3ds_f32(w, bad);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, 0xB004, 2, "Cam", 0xFFFF);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

static void test_nonfinite_replaced_with_warnings(void **state)
{
    static const float bads[] = { NAN, INFINITY, -INFINITY };
    /* the chunks whose values are replaced */
    static const uint16_t warned[] = { 0x0100, 0x0010, 0x0031, 0xA200, 0x4110, 0x4160, 0x4700,
                                       0x4610, 0xB013, 0xB020, 0xB021, 0xB022, 0xB023 };
    size_t b, i;
    (void)state;
    for (b = 0; b < 3; b++) {
        w3ds w;
        counting c;
        kf3ds_diag err;
        kf3ds_scene *s;
        const kf3ds_node *n;
        const kf3ds_key *k;
        w3ds_init(&w);
        write_nonfinite(&w, bads[b]);
        MUST(!w.failed);
        support_set_what("file with %g", (double)bads[b]);
        s = load_counted(&w, &c, -1, &err);
        MUST(s != NULL);
        MUST(err.code == KF3DS_OK); /* warnings only */
        /* every float is finite */
        MUST(isfinite(s->master_scale) && s->master_scale == 1.0f);
        MUST(s->num_meshes == 1 && support_finite_n(&s->meshes[0].points[0][0], 12));
        MUST(s->meshes[0].points[0][0] == 0.0f);
        MUST(support_finite_mat(&s->meshes[0].matrix) && s->meshes[0].matrix.m[0][0] == 1.0f);
        MUST(support_finite_n(s->materials[0].diffuse, 3) && isfinite(s->materials[0].shininess));
        MUST(s->materials[0].texture1.u_scale == 1.0f);
        MUST(support_finite_n(s->cameras[0].position, 3) &&
             support_finite_n(s->cameras[0].target, 3));
        MUST(isfinite(s->cameras[0].roll) && isfinite(s->cameras[0].fov));
        MUST(support_finite_n(s->lights[0].position, 3) && support_finite_n(s->lights[0].color, 3));
        MUST(isfinite(s->lights[0].hotspot));
        n = &s->nodes[0];
        MUST(support_finite_n(n->pivot, 3));
        k = &n->tracks[KF3DS_TRACK_POS].keys[1];
        MUST(k->value[0] == 0.0f && k->value[1] == 1.0f);
        MUST(k->tension == 0.0f && k->continuity == 0.0f && k->bias == 0.0f &&
             k->ease_to == 0.0f && k->ease_from == 0.0f);
        MUST(n->tracks[KF3DS_TRACK_SCL].keys[0].value[0] == 1.0f); /* scale: 1 */
        MUST(support_finite_n(n->tracks[KF3DS_TRACK_ROT].keys[1].quat, 4));
        MUST(isfinite(s->nodes[1].tracks[KF3DS_TRACK_FOV].keys[0].value[0]));
        /* and each replacement was reported, naming its chunk */
        for (i = 0; i < sizeof warned / sizeof warned[0]; i++)
            if (!find_warning(s, warned[i]))
                fail_msg("%s: no value warning for chunk 0x%04X", support_what,
                         (unsigned)warned[i]);
        check_finite_everywhere(s);
        counting_free_scene(s, &c);
        w3ds_free(&w);
    }
}

/* A normal file gets no value warning: the checks only fire on odd input. */
static void test_normal_values_untouched(void **state)
{
    w3ds w;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    (void)state;
    w3ds_init(&w);
    write_nonfinite(&w, 0.25f);
    support_set_what("file with 0.25 everywhere");
    s = load_counted(&w, &c, -1, &err);
    MUST(s != NULL);
    MUST(support_count_diags(s, KF3DS_WARN_VALUE) == 0);
    MUST(s->meshes[0].points[0][0] == 0.25f);
    MUST(s->nodes[0].tracks[KF3DS_TRACK_POS].keys[1].tension == 0.25f);
    kf3ds_scene_free(s);
    w3ds_free(&w);
}

/* ------------------------------------------------------------------------ */
/* Finite but extreme: nothing may overflow to infinity                     */
/* ------------------------------------------------------------------------ */

static void write_extreme(w3ds *w, float big, int chain)
{
    const float pts[12] = { big, big, -big, -big, big, big, big, -big, big, 0, 0, 0 };
    const float tiny[12] = { 1e-7f, 0, 0, 0, 1e-7f, 0, 0, 0, 1e-7f, big, 0, 0 };
    const float illc[12] = { -1, 0, 0, 1, 1e-6f, 0, 0, 0, 1, 0, 0, 0 }; /* mirrored, cond 1e6 */
    const w3ds_tcb wild = { 1e30f, -1e30f, 1e30f, -1e30f, 1e30f, 0 };
    const w3ds_tcb big_tcb = { 900, -900, 900, 900, -900, 0 };
    const float cpos[3] = { big, -big, big }, ctgt[3] = { -big, big, 0 };
    int i;
    w3ds_begin(w, 0x4D4D);
    w3ds_begin(w, 0x3D3D);
    w3ds_mesh(w, "Big", pts, 4, box_faces, 2, NULL, NULL);
    w3ds_mesh(w, "Tiny", pts, 4, box_faces, 2, tiny, NULL);
    w3ds_mesh(w, "Ill", pts, 4, box_faces, 2, illc, NULL);
    w3ds_camera(w, "Cam", cpos, ctgt, big, 1e-30f);
    w3ds_end(w);
    w3ds_begin(w, 0xB000);
    for (i = 0; i < chain; i++) {
        support_node_begin(w, 0xB002, (uint16_t)i, i % 3 == 0 ? "Big" : i % 3 == 1 ? "Tiny" : "Ill",
                   i ? (uint16_t)(i - 1) : 0xFFFF);
        support_chunk_f32v(w, 0xB013, cpos, 3);
        support_track_begin(w, 0xB020, (uint16_t)(i % 4), 4);
        support_key_vec(w, 0, &wild, big, -big, big);
        support_key_vec(w, 1, &big_tcb, -big, big, -big);
        support_key_vec(w, 1, &wild, big, big, big);
        support_key_vec(w, 10, &big_tcb, -big, -big, big);
        w3ds_end(w);
        support_track_begin(w, 0xB021, 0, 3);
        w3ds_key_header(w, 0, &wild);
        w3ds_f32v(w, (const float[4]){ big, 1, 1, 0 }, 4);
        w3ds_key_header(w, 5, &big_tcb);
        w3ds_f32v(w, (const float[4]){ 1e-30f, 0, 0, 1e-30f }, 4);
        w3ds_key_header(w, 10, &wild);
        w3ds_f32v(w, (const float[4]){ -big, 0, 1, 0 }, 4);
        w3ds_end(w);
        support_track_begin(w, 0xB022, 0, 3);
        support_key_vec(w, 0, &wild, big, big, big);
        support_key_vec(w, 4, &big_tcb, -big, big, 1e-30f);
        support_key_vec(w, 10, NULL, big, -big, big);
        w3ds_end(w);
        w3ds_end(w);
    }
    support_node_begin(w, 0xB003, (uint16_t)chain, "Cam", (uint16_t)(chain - 1));
    support_track_begin(w, 0xB023, 0, 2);
    w3ds_key_header(w, 0, &wild);
    w3ds_f32(w, big);
    w3ds_key_header(w, 10, &big_tcb);
    w3ds_f32(w, -big);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, 0xB004, (uint16_t)(chain + 1), "Cam", 0);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

static void test_extreme_values_stay_finite(void **state)
{
    static const float bigs[] = { 1e18f, 1e30f, 3.4028235e38f, 1.0f };
    static const int chains[] = { 1, 3, 200 };
    size_t b, ch;
    (void)state;
    for (b = 0; b < sizeof bigs / sizeof bigs[0]; b++)
        for (ch = 0; ch < sizeof chains / sizeof chains[0]; ch++) {
            w3ds w;
            counting c;
            kf3ds_diag err;
            kf3ds_scene *s;
            uint32_t i, j, k;
            w3ds_init(&w);
            write_extreme(&w, bigs[b], chains[ch]);
            MUST(!w.failed);
            support_set_what("values %g, chain of %d", (double)bigs[b],
                             chains[ch]);
            s = load_counted(&w, &c, -1, &err);
            MUST(s != NULL);
            MUST(err.code == KF3DS_OK);
            if (bigs[b] > 1e18f) /* clamped, and said so */
                MUST(find_warning(s, 0xB020) && find_warning(s, 0x4110));
            MUST(find_warning(s, 0xB020)); /* TCB 1e30 */
            for (i = 0; i < s->num_meshes; i++)
                for (j = 0; j < s->meshes[i].num_points; j++)
                    for (k = 0; k < 3; k++)
                        MUST(fabsf(s->meshes[i].points[j][k]) <= 1e18f);
            check_finite_everywhere(s);
            counting_free_scene(s, &c);
            w3ds_free(&w);
        }
}

/* A negative ease would throw the eased parameter (and the cubic) far out:
 * it is made 0 at load, with a warning; ease beyond 1 is kept (the
 * evaluator normalises it), and the value stays between the keys. */
static void test_negative_ease(void **state)
{
    const w3ds_tcb neg = { 0, 0, 0, 10.0f, -5.0f, 0 };
    const w3ds_tcb big = { 0, 0, 0, 3.0f, 2.0f, 0 };
    w3ds w;
    kf3ds_diag err;
    kf3ds_scene *s;
    const kf3ds_track *t;
    int i;
    (void)state;
    support_file_begin(&w, 0xB000);
    support_node_begin(&w, 0xB002, 0, "N", 0xFFFF);
    support_track_begin(&w, 0xB020, 0, 3);
    support_key_vec(&w, 0, &neg, 0, 0, 0);
    support_key_vec(&w, 10, &neg, 10, 10, 10);
    support_key_vec(&w, 20, &big, 20, 20, 20);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    support_set_what("negative ease");
    s = kf3ds_load_memory(w.buf, w.len, NULL, &err);
    MUST(s != NULL && err.code == KF3DS_OK);
    t = &s->nodes[0].tracks[KF3DS_TRACK_POS];
    MUST(t->keys[0].ease_from == 0.0f && t->keys[0].ease_to == 10.0f);
    MUST(t->keys[2].ease_from == 2.0f && t->keys[2].ease_to == 3.0f);
    MUST(find_warning(s, 0xB020));
    for (i = 0; i <= 80; i++) {
        float out[4];
        kf3ds_track_eval(t, KF3DS_TRACK_POS, i * 0.25, 0, out);
        MUST(out[0] >= -1.0f && out[0] <= 21.0f);
    }
    kf3ds_scene_free(s);
    w3ds_free(&w);
}

/* A track evaluated as another kind than its own (a position track as a
 * rotation) must not read beyond its segment records (a bug the arena's
 * ASan poisoning found): the keys are held. */
static void test_track_eval_other_kind(void **state)
{
    w3ds w;
    kf3ds_diag err;
    kf3ds_scene *s;
    int kind, t, i;
    (void)state;
    support_file_begin(&w, 0xB000);
    support_node_begin(&w, 0xB002, 0, "N", 0xFFFF);
    for (t = 0; t < 9; t++) {
        support_track_begin(&w, (uint16_t)(0xB020 + t), 0, 9);
        for (i = 0; i < 9; i++) {
            w3ds_key_header(&w, i * 3, NULL);
            if (t == 6)
                w3ds_cstr(&w, "N");
            else
                w3ds_f32v(&w, (const float[4]){ 0.5f, 1, 0, (float)i }, t == 1 ? 4 : t == 0 || t == 2 || t == 5 ? 3 : 1);
        }
        w3ds_end(&w);
    }
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    support_set_what("tracks evaluated as every kind");
    s = kf3ds_load_memory(w.buf, w.len, NULL, &err);
    MUST(s != NULL && s->num_nodes == 1);
    for (t = 0; t < 9; t++)
        for (kind = 0; kind < KF3DS_TRACK_COUNT; kind++)
            for (i = -3; i < 30; i++) {
                float out[4];
                int n = kf3ds_track_eval(&s->nodes[0].tracks[t], (kf3ds_track_kind)kind,
                                         i * 0.9, 0, out);
                MUST(n >= 1 && n <= 4);
                MUST(support_finite_n(out, n));
            }
    kf3ds_scene_free(s);
    w3ds_free(&w);
}

/* ------------------------------------------------------------------------ */
/* The memory bound                                                         */
/* ------------------------------------------------------------------------ */

/* Loads, checks the bound and returns peak / size (for the message). */
static double check_bound(const w3ds *w, const char *what)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    support_set_what("%s (%lu bytes)", what, (unsigned long)w->len);
    MUST(!w->failed);
    s = load_counted(w, &c, -1, &err);
    MUST(s != NULL);
    MUST(c.peak <= SUPPORT_BOUND_PER_BYTE * w->len + SUPPORT_BOUND_FIXED);
    counting_free_scene(s, &c);
    return (double)c.peak / (double)w->len;
}

typedef enum dense_kind {
    DENSE_NODES, DENSE_NAMED_NODES, DENSE_HIDE_KEYS, DENSE_MORPH_KEYS, DENSE_SCALAR_KEYS,
    DENSE_ROT_KEYS, DENSE_UNSORTED_KEYS, DENSE_TRACKS, DENSE_MESHES, DENSE_MATERIALS,
    DENSE_CAMERAS, DENSE_LIGHTS, DENSE_GROUPS, DENSE_FACES, DENSE_COUNT
} dense_kind;

static const char *const dense_names[DENSE_COUNT] = {
    "empty node chunks", "nodes with ids and names", "HIDE keys", "MORPH keys",
    "FOV keys", "ROT keys", "unsorted POS keys", "2-key tracks", "empty meshes", "materials",
    "cameras", "lights", "material groups", "faces with smoothing and groups"
};

/* About `target` bytes of the densest form of one kind of element. */
static void write_dense(w3ds *w, dense_kind kind, size_t target)
{
    size_t i = 0;
    w3ds_begin(w, 0x4D4D);
    switch (kind) {
    case DENSE_NODES: case DENSE_NAMED_NODES: case DENSE_TRACKS:
        w3ds_begin(w, 0xB000);
        while (w->len < target && !w->failed) {
            if (kind == DENSE_NODES) {
                w3ds_begin(w, 0xB002);
                w3ds_end(w);
            } else if (kind == DENSE_NAMED_NODES) {
                support_node_begin(w, 0xB002, (uint16_t)(0xFFFE - (i & 0x7FFF)), "", 0);
                w3ds_end(w);
            } else {
                w3ds_begin(w, 0xB002);
                support_track_begin(w, 0xB023, 3, 2);
                w3ds_key_header(w, 0, NULL);
                w3ds_f32(w, 1);
                w3ds_key_header(w, 1, NULL);
                w3ds_f32(w, 2);
                w3ds_end(w);
                w3ds_end(w);
            }
            i++;
        }
        w3ds_end(w);
        break;
    case DENSE_HIDE_KEYS: case DENSE_MORPH_KEYS: case DENSE_SCALAR_KEYS: case DENSE_ROT_KEYS:
    case DENSE_UNSORTED_KEYS: {
        uint16_t id = kind == DENSE_HIDE_KEYS ? 0xB029 : kind == DENSE_MORPH_KEYS ? 0xB026
                    : kind == DENSE_SCALAR_KEYS ? 0xB023 : kind == DENSE_ROT_KEYS ? 0xB021 : 0xB020;
        size_t key = kind == DENSE_HIDE_KEYS ? 6 : kind == DENSE_MORPH_KEYS ? 7
                   : kind == DENSE_SCALAR_KEYS ? 10 : kind == DENSE_ROT_KEYS ? 22 : 18;
        uint32_t n = (uint32_t)(target / key), k;
        w3ds_begin(w, 0xB000);
        w3ds_begin(w, 0xB002);
        support_track_begin(w, id, 0, n);
        for (k = 0; k < n; k++) {
            w3ds_key_header(w, kind == DENSE_UNSORTED_KEYS ? (int32_t)(n - k) : (int32_t)k, NULL);
            if (kind == DENSE_MORPH_KEYS)
                w3ds_u8(w, 0);
            else if (kind == DENSE_SCALAR_KEYS)
                w3ds_f32(w, (float)k);
            else if (kind == DENSE_ROT_KEYS)
                w3ds_f32v(w, (const float[4]){ 0.1f, 0, 0, 1 }, 4);
            else if (kind == DENSE_UNSORTED_KEYS)
                w3ds_f32v(w, (const float[3]){ 1, 2, 3 }, 3);
        }
        w3ds_end(w);
        w3ds_end(w);
        w3ds_end(w);
        break;
    }
    default:
        w3ds_begin(w, 0x3D3D);
        if (kind == DENSE_MESHES || kind == DENSE_CAMERAS || kind == DENSE_LIGHTS ||
            kind == DENSE_GROUPS) {
            w3ds_begin(w, 0x4000);
            w3ds_u8(w, 0);
            if (kind == DENSE_GROUPS) {
                w3ds_begin(w, 0x4100);
                w3ds_begin(w, 0x4120);
                w3ds_u16(w, 0);
            }
            while (w->len < target && !w->failed) {
                w3ds_begin(w, kind == DENSE_MESHES ? 0x4100 : kind == DENSE_CAMERAS ? 0x4700
                              : kind == DENSE_LIGHTS ? 0x4600 : 0x4130);
                w3ds_end(w);
            }
            if (kind == DENSE_GROUPS) {
                w3ds_end(w);
                w3ds_end(w);
            }
            w3ds_end(w);
        } else if (kind == DENSE_MATERIALS) {
            while (w->len < target && !w->failed) {
                w3ds_begin(w, 0xAFFF);
                w3ds_end(w);
            }
        } else { /* faces: 8 bytes each, smoothing and a tiny material group */
            uint32_t n = (uint32_t)(target / 8 > 0xFFFF ? 0xFFFF : target / 8), k;
            w3ds_begin(w, 0x4000);
            w3ds_u8(w, 0);
            w3ds_begin(w, 0x4100);
            w3ds_begin(w, 0x4110);
            w3ds_u16(w, 3);
            w3ds_f32v(w, (const float[9]){ 0, 0, 0, 1, 0, 0, 0, 1, 0 }, 9);
            w3ds_end(w);
            w3ds_begin(w, 0x4120);
            w3ds_u16(w, (uint16_t)n);
            for (k = 0; k < n; k++) {
                w3ds_u16(w, 0);
                w3ds_u16(w, 1);
                w3ds_u16(w, 2);
                w3ds_u16(w, 7);
            }
            w3ds_begin(w, 0x4130);
            w3ds_u8(w, 0);
            w3ds_u16(w, 0);
            w3ds_end(w);
            w3ds_begin(w, 0x4150);
            w3ds_u32(w, 1);
            w3ds_end(w);
            w3ds_end(w);
            w3ds_end(w);
            w3ds_end(w);
        }
        w3ds_end(w);
        break;
    }
    w3ds_end(w);
}

static void test_memory_bound_dense(void **state)
{
    static const size_t sizes[] = { 64, 1000, 65536, 1u << 20 };
    double worst = 0.0;
    int kind;
    size_t z;
    (void)state;
    for (kind = 0; kind < DENSE_COUNT; kind++)
        for (z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            w3ds w;
            double ratio;
            w3ds_init(&w);
            write_dense(&w, (dense_kind)kind, sizes[z]);
            ratio = check_bound(&w, dense_names[kind]);
            if (sizes[z] == 1u << 20) {
                printf("  %-34s %8lu bytes: peak %6.1f bytes per input byte\n",
                       dense_names[kind], (unsigned long)w.len, ratio);
                if (ratio > worst)
                    worst = ratio;
            }
            w3ds_free(&w);
        }
    printf("  worst: %.1f bytes per input byte (bound %u + %lu fixed)\n", worst,
           SUPPORT_BOUND_PER_BYTE, (unsigned long)SUPPORT_BOUND_FIXED);
}

/* 65,535 nodes (the most a u16 parent field can address) */
static void test_memory_bound_65535_nodes(void **state)
{
    w3ds w;
    uint32_t i;
    double ratio;
    (void)state;
    support_file_begin(&w, 0xB000);
    for (i = 0; i < 65535; i++) {
        support_node(&w, (uint16_t)(0xB001 + i % 7), "", 0,
                     (uint16_t)(i ? (i * 7919u) % i : 0xFFFF), NULL);
    }
    w3ds_end(&w);
    w3ds_end(&w);
    ratio = check_bound(&w, "65535 nodes with random parents");
    printf("  65535 nodes: peak %.1f bytes per input byte\n", ratio);
    {
        kf3ds_scene *s = kf3ds_load_memory(w.buf, w.len, NULL, NULL);
        MUST(s != NULL && s->num_nodes == 65535);
        check_finite_everywhere(s);
        kf3ds_scene_free(s);
    }
    w3ds_free(&w);
}

/* A file whose count claims far more than its chunk holds: within the bound,
 * cut short with KF3DS_ERR_TRUNCATED, in little memory. The caller checks
 * what was kept and frees the scene with counting_free_scene(s, c). */
static kf3ds_scene *load_claim(w3ds *w, counting *c, const char *what)
{
    kf3ds_diag err;
    kf3ds_scene *s;
    support_end_all(w);
    check_bound(w, what);
    s = load_counted(w, c, -1, &err);
    MUST(s != NULL && err.code == KF3DS_ERR_TRUNCATED);
    MUST(c->peak < 256 * 1024);
    return s;
}

/* Counts claiming far more than the chunk holds: 4 billion keys of each
 * kind, 65,535 vertices, faces, texture coordinates, flags and group faces,
 * all in a few bytes. */
static void test_memory_bound_claims(void **state)
{
    static const uint32_t claims[] = { 0xFFFFFFFFu, 0x80000000u, 4000000000u, 65535u };
    static const uint16_t ids[] = { 0x4110, 0x4111, 0x4120, 0x4140, 0x4130 };
    size_t t, k;
    w3ds w;
    counting c;
    kf3ds_scene *s;
    (void)state;
    for (t = 0; t < KF3DS_TRACK_COUNT; t++)
        for (k = 0; k < sizeof claims / sizeof claims[0]; k++) {
            support_file_begin(&w, 0xB000);
            w3ds_begin(&w, 0xB002);
            support_track_begin(&w, (uint16_t)(0xB020 + t), 0, claims[k]);
            w3ds_key_header(&w, 0, NULL);
            w3ds_f32v(&w, (const float[4]){ 1, 0, 0, 1 }, 4);
            s = load_claim(&w, &c, "key count claim");
            MUST(s->nodes[0].tracks[t].num_keys <= 3); /* what 22 bytes hold */
            counting_free_scene(s, &c);
            w3ds_free(&w);
        }
    for (t = 0; t < sizeof ids / sizeof ids[0]; t++) {
        support_file_begin(&w, 0x3D3D);
        w3ds_begin(&w, 0x4000);
        w3ds_cstr(&w, "A");
        w3ds_begin(&w, 0x4100);
        if (ids[t] == 0x4130) {
            w3ds_begin(&w, 0x4120);
            w3ds_u16(&w, 0);
            w3ds_begin(&w, 0x4130);
            w3ds_cstr(&w, "M");
            w3ds_u16(&w, 0xFFFF);
            w3ds_u16(&w, 0);
        } else {
            w3ds_begin(&w, ids[t]);
            w3ds_u16(&w, 0xFFFF);
            w3ds_f32v(&w, (const float[3]){ 1, 2, 3 }, 3);
        }
        s = load_claim(&w, &c, "65535-element claim");
        MUST(s->meshes[0].num_points <= 1 && s->meshes[0].num_faces <= 1);
        counting_free_scene(s, &c);
        w3ds_free(&w);
    }
}

/* ------------------------------------------------------------------------ */
/* Allocation failure at every allocation of the strange inputs             */
/* ------------------------------------------------------------------------ */

static void fail_after_each(const w3ds *w, const char *what)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    long total, n;
    support_set_what("%s: counting", what);
    s = load_counted(w, &c, -1, &err);
    MUST(s != NULL);
    total = c.calls;
    kf3ds_scene_free(s);
    for (n = 0; n <= total; n++) {
        support_set_what("%s: allocation %ld of %ld fails", what, n, total);
        s = load_counted(w, &c, n, &err);
        if (s) {
            MUST(n >= 1);
            kf3ds_scene_free(s);
        } else {
            MUST(err.code == KF3DS_ERR_NOMEM && err.severity == KF3DS_ERROR);
        }
        MUST(c.live == 0 && c.bytes == 0);
        if (n == total)
            MUST(s != NULL);
    }
}

static void test_allocation_failures_strange(void **state)
{
    w3ds w;
    (void)state;
    w3ds_init(&w);
    write_nonfinite(&w, NAN);
    fail_after_each(&w, "NaN file");
    w3ds_free(&w);
    w3ds_init(&w);
    write_extreme(&w, 1e30f, 40);
    fail_after_each(&w, "extreme file");
    w3ds_free(&w);
    w3ds_init(&w);
    write_dense(&w, DENSE_UNSORTED_KEYS, 300000);
    fail_after_each(&w, "unsorted keys");
    w3ds_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nonfinite_replaced_with_warnings),
        cmocka_unit_test(test_normal_values_untouched),
        cmocka_unit_test(test_extreme_values_stay_finite),
        cmocka_unit_test(test_negative_ease),
        cmocka_unit_test(test_track_eval_other_kind),
        cmocka_unit_test(test_memory_bound_dense),
        cmocka_unit_test(test_memory_bound_65535_nodes),
        cmocka_unit_test(test_memory_bound_claims),
        cmocka_unit_test(test_allocation_failures_strange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
