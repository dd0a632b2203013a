/* Numbers that cannot explode (docs/robustness.md, 'The guarantees'): NaN
 * and infinities in every kind of float a file holds are replaced at load
 * with a KF3DS_WARN_VALUE naming the chunk, huge values are clamped, and
 * evaluation of the result at any finite frame gives finite matrices, poses,
 * mesh placements and views, even down long chains of scaled nodes, with
 * extreme TCB and ease values and nearly singular mesh matrices. Negative
 * ease, tracks evaluated as another kind, and odd values everywhere at
 * extreme frames. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

/* 1 when a KF3DS_WARN_VALUE names `chunk_id`. */
static int find_warning(const kf3ds_scene *s, uint16_t chunk_id)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == KF3DS_WARN_VALUE && s->diags[i].chunk_id == chunk_id)
            return 1;
    return 0;
}

static void test_nonfinite_replaced_with_warnings(void **state)
{
    static const float bads[] = { NAN, INFINITY, -INFINITY };
    /* the chunks whose values are replaced */
    static const uint16_t warned[] = {
        KF3DS_CHUNK_MASTER_SCALE,  KF3DS_CHUNK_COLOR_F,       KF3DS_CHUNK_FLOAT_PERCENTAGE,
        KF3DS_CHUNK_MAT_TEXMAP,    KF3DS_CHUNK_POINT_ARRAY,   KF3DS_CHUNK_MESH_MATRIX,
        KF3DS_CHUNK_N_CAMERA,      KF3DS_CHUNK_DL_SPOTLIGHT,  KF3DS_CHUNK_PIVOT,
        KF3DS_CHUNK_POS_TRACK_TAG, KF3DS_CHUNK_ROT_TRACK_TAG, KF3DS_CHUNK_SCL_TRACK_TAG,
        KF3DS_CHUNK_FOV_TRACK_TAG
    };
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
        support_write_nonfinite(&w, bads[b]);
        assert_false(w.failed);
        support_set_what("file with %g", (double)bads[b]);
        s = support_load_counted(w.buf, w.len, &c, -1, NULL, &err);
        assert_non_null(s);
        assert_int_equal(err.code, KF3DS_OK); /* warnings only */
        /* every float is finite */
        assert_near(s->master_scale, 1.0, 0);
        assert_int_equal(s->num_meshes, 1);
        assert_true(support_finite_n(&s->meshes[0].points[0][0], 12));
        assert_near(s->meshes[0].points[0][0], 0.0, 0);
        assert_true(support_finite_mat(&s->meshes[0].matrix));
        assert_near(s->meshes[0].matrix.m[0][0], 1.0, 0);
        assert_true(support_finite_n(s->materials[0].diffuse, 3));
        assert_true(isfinite(s->materials[0].shininess));
        assert_near(s->materials[0].texture1.u_scale, 1.0, 0);
        assert_true(support_finite_n(s->cameras[0].position, 3) &&
                    support_finite_n(s->cameras[0].target, 3));
        assert_true(isfinite(s->cameras[0].roll) && isfinite(s->cameras[0].fov));
        assert_true(support_finite_n(s->lights[0].position, 3) &&
                    support_finite_n(s->lights[0].color, 3));
        assert_true(isfinite(s->lights[0].hotspot));
        n = &s->nodes[0];
        assert_true(support_finite_n(n->pivot, 3));
        k = &n->tracks[KF3DS_TRACK_POS].keys[1];
        assert_near(k->value[0], 0.0, 0);
        assert_near(k->value[1], 1.0, 0);
        assert_near(k->tension, 0.0, 0);
        assert_near(k->continuity, 0.0, 0);
        assert_near(k->bias, 0.0, 0);
        assert_near(k->ease_to, 0.0, 0);
        assert_near(k->ease_from, 0.0, 0);
        assert_near(n->tracks[KF3DS_TRACK_SCL].keys[0].value[0], 1.0, 0); /* scale: 1 */
        assert_true(support_finite_n(n->tracks[KF3DS_TRACK_ROT].keys[1].quat, 4));
        assert_true(isfinite(s->nodes[1].tracks[KF3DS_TRACK_FOV].keys[0].value[0]));
        /* and each replacement was reported, naming its chunk */
        for (i = 0; i < sizeof warned / sizeof warned[0]; i++)
            if (!find_warning(s, warned[i]))
                fail_msg("no value warning for chunk 0x%04X %s", (unsigned)warned[i],
                         kf3ds_chunk_name(warned[i]));
        support_check_finite_everywhere(s);
        counting_free_scene(s, &c);
        w3ds_free(&w);
    }
}

/* A normal file gets no value warning: the checks only fire on odd input. */
static void test_normal_values_untouched(void **state)
{
    w3ds w;
    kf3ds_diag err;
    kf3ds_scene *s;
    (void)state;
    w3ds_init(&w);
    support_write_nonfinite(&w, 0.25f);
    support_set_what("file with 0.25 everywhere");
    s = kf3ds_load_memory(w.buf, w.len, NULL, &err);
    assert_non_null(s);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_VALUE), 0);
    assert_near(s->meshes[0].points[0][0], 0.25, 0);
    assert_near(s->nodes[0].tracks[KF3DS_TRACK_POS].keys[1].tension, 0.25, 0);
    kf3ds_scene_free(s);
    w3ds_free(&w);
}

/* Finite but extreme: nothing may overflow to infinity. */
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
            support_write_extreme(&w, bigs[b], chains[ch]);
            assert_false(w.failed);
            support_set_what("values %g, chain of %d", (double)bigs[b], chains[ch]);
            s = support_load_counted(w.buf, w.len, &c, -1, NULL, &err);
            assert_non_null(s);
            assert_int_equal(err.code, KF3DS_OK);
            if (bigs[b] > 1e18f) /* clamped, and said so */
                assert_true(find_warning(s, KF3DS_CHUNK_POINT_ARRAY));
            assert_true(find_warning(s, KF3DS_CHUNK_POS_TRACK_TAG)); /* TCB 1e30 */
            for (i = 0; i < s->num_meshes; i++)
                for (j = 0; j < s->meshes[i].num_points; j++)
                    for (k = 0; k < 3; k++)
                        assert_true(fabsf(s->meshes[i].points[j][k]) <= 1e18f);
            support_check_finite_everywhere(s);
            counting_free_scene(s, &c);
            w3ds_free(&w);
        }
}

/* A negative ease would throw the eased parameter (and the cubic) far out:
 * it is made 0 at load, with a warning; ease beyond 1 is kept (the
 * evaluator normalises it, docs/evaluation.md, 'Ease'), and the value stays
 * between the keys. */
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
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "N", 0xFFFF);
    support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 3);
    support_key_vec(&w, 0, &neg, 0, 0, 0);
    support_key_vec(&w, 10, &neg, 10, 10, 10);
    support_key_vec(&w, 20, &big, 20, 20, 20);
    support_end_all(&w);
    support_set_what("negative ease");
    s = kf3ds_load_memory(w.buf, w.len, NULL, &err);
    assert_non_null(s);
    assert_int_equal(err.code, KF3DS_OK);
    t = &s->nodes[0].tracks[KF3DS_TRACK_POS];
    assert_near(t->keys[0].ease_from, 0.0, 0);
    assert_near(t->keys[0].ease_to, 10.0, 0);
    assert_near(t->keys[2].ease_from, 2.0, 0);
    assert_near(t->keys[2].ease_to, 3.0, 0);
    assert_true(find_warning(s, KF3DS_CHUNK_POS_TRACK_TAG));
    for (i = 0; i <= 80; i++) {
        float out[4];
        kf3ds_track_eval(t, KF3DS_TRACK_POS, i * 0.25, 0, out);
        assert_true(out[0] >= -1.0f && out[0] <= 21.0f);
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
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "N", 0xFFFF);
    for (t = 0; t < 9; t++) {
        /* the track kinds are in the order of their chunk ids */
        support_track_begin(&w, (uint16_t)(KF3DS_CHUNK_POS_TRACK_TAG + t), 0, 9);
        for (i = 0; i < 9; i++) {
            w3ds_key_header(&w, i * 3, NULL);
            if (t == KF3DS_TRACK_MORPH)
                w3ds_cstr(&w, "N");
            else
                w3ds_f32v(&w, (const float[4]){ 0.5f, 1, 0, (float)i },
                          t == KF3DS_TRACK_ROT ? 4
                          : t == KF3DS_TRACK_POS || t == KF3DS_TRACK_SCL || t == KF3DS_TRACK_COL
                              ? 3
                              : 1);
        }
        w3ds_end(&w);
    }
    support_end_all(&w);
    support_set_what("tracks evaluated as every kind");
    s = kf3ds_load_memory(w.buf, w.len, NULL, &err);
    assert_non_null(s);
    assert_int_equal(s->num_nodes, 1);
    for (t = 0; t < 9; t++)
        for (kind = 0; kind < KF3DS_TRACK_COUNT; kind++)
            for (i = -3; i < 30; i++) {
                float out[4];
                int n = kf3ds_track_eval(&s->nodes[0].tracks[t], (kf3ds_track_kind)kind,
                                         i * 0.9, 0, out);
                assert_in_range(n, 1, 4);
                assert_true(support_finite_n(out, n));
            }
    kf3ds_scene_free(s);
    w3ds_free(&w);
}

/* Odd numbers everywhere: NaN, infinities, huge values, singular matrices,
 * zero axes, extreme and duplicate frames, unsorted keys. No crash and no
 * undefined behaviour, whatever the frame. */
static void write_odd_values(w3ds *w)
{
    const float nan = NAN, inf = INFINITY;
    const w3ds_tcb odd = { NAN, INFINITY, -INFINITY, 1e30f, -1.0f, 0 };
    const w3ds_tcb ease = { 0.0f, 0.0f, 0.0f, 0.7f, 0.9f, 0 };
    const float pts[9] = { nan, 0, 0, inf, -inf, 0, 1e38f, 1e38f, -1e38f };
    const uint16_t face[3] = { 0, 1, 2 };
    const float zero[12] = { 0 };
    const float nanm[12] = { nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan };
    const float cpos[3] = { nan, 0, 0 }, ctgt[3] = { 0, inf, 0 };
    const float lcol[3] = { nan, inf, -1 };
    const float piv[3] = { nan, inf, 0 };
    uint32_t i;
    support_file_begin(w, KF3DS_CHUNK_MDATA);
    w3ds_mesh(w, "Z", pts, 3, face, 1, zero, NULL);
    w3ds_mesh(w, "N", pts, 3, face, 1, nanm, NULL);
    w3ds_camera(w, "C", cpos, ctgt, nan, 0.0f);
    w3ds_camera(w, "C2", ctgt, ctgt, inf, nan);
    w3ds_light(w, "L", cpos, lcol, ctgt, nan, inf);
    support_chunk_f32(w, KF3DS_CHUNK_MASTER_SCALE, nan);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "Z", 0xFFFF);
    support_chunk_f32v(w, KF3DS_CHUNK_PIVOT, piv, 3);
    support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, 3, 6);
    support_key_vec(w, INT32_MIN, &odd, 0, 0, 0);
    support_key_vec(w, 0, &ease, nan, 1, 2);
    support_key_vec(w, 5, NULL, 1, 1, 1);
    support_key_vec(w, 5, &odd, 2, 2, 2); /* same frame */
    support_key_vec(w, 5, NULL, 3, 3, 3);
    support_key_vec(w, INT32_MAX, &odd, inf, -inf, 1e38f);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG, 2, 5);
    support_key_rot(w, 10, NULL, nan, 0, 0, 0); /* unsorted */
    support_key_rot(w, 0, &odd, 0.0f, 0, 0, 0); /* zero axis */
    support_key_rot(w, 20, NULL, 1e30f, 1, 0, 0);
    support_key_rot(w, 30, &ease, 7.0f, 0, 1, 0);
    support_key_rot(w, 40, NULL, -inf, nan, 1, 0);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_SCL_TRACK_TAG, 1, 2);
    support_key_vec(w, 0, NULL, 0, 0, 0);
    support_key_vec(w, 10, &ease, -1e38f, 1e38f, nan);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_HIDE_TRACK_TAG, 0, 5);
    for (i = 0; i < 5; i++)
        w3ds_key_header(w, (int32_t)(5 - i), NULL);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_MORPH_TRACK_TAG, 0, 3);
    w3ds_key_header(w, 0, NULL);
    w3ds_cstr(w, "nothing");
    w3ds_key_header(w, 0, NULL);
    w3ds_cstr(w, "N");
    w3ds_key_header(w, 3, NULL);
    w3ds_cstr(w, "");
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 1, "N", 0);
    support_chunk_f32v(w, KF3DS_CHUNK_PRESCALE, (const float[3]){ nan, 0, inf }, 3);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_CAMERA_NODE_TAG, 2, "C", 1);
    support_track_begin(w, KF3DS_CHUNK_FOV_TRACK_TAG, 3, 2);
    support_key_scalar(w, 0, NULL, nan);
    support_key_scalar(w, 1, &odd, inf);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROLL_TRACK_TAG, 0, 1);
    support_key_scalar(w, 0, NULL, inf);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_TARGET_NODE_TAG, 3, "C", 0xFFFF);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_CAMERA_NODE_TAG, 4, "C2", 0xFFFF); /* no target node */
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_SPOTLIGHT_NODE_TAG, 5, "L", 2);
    support_track_begin(w, KF3DS_CHUNK_HOT_TRACK_TAG, 0, 1);
    support_key_scalar(w, 0, NULL, nan);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_AMBIENT_NODE_TAG, 6, "$AMBIENT$", 2);
}

static void test_odd_values(void **state)
{
    static const double frames[] = { -2147483648.0, 2147483647.0, -1e300, 1e300, 4.5, 5.0,
                                     5.5, 9.99999999, 0.0, -0.0 };
    w3ds w;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    uint32_t i, k;
    size_t f;
    int kind;
    kf3ds_pose *poses;
    float out[4];
    (void)state;
    write_odd_values(&w);
    support_set_what("odd values");
    s = support_load_written(&w, &c, NULL, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(s->num_nodes, 7);
    assert_true(support_find_diag(s, KF3DS_WARN_UNSORTED, 0, 0) >= 0);
    assert_true(support_find_diag(s, KF3DS_WARN_REFERENCE, 0, 0) >= 0);
    poses = (kf3ds_pose *)calloc(s->num_nodes, sizeof *poses);
    assert_non_null(poses);
    for (f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        double frame = frames[f];
        kf3ds_scene_eval(s, frame, 0, poses);
        for (i = 0; i < s->num_nodes; i++) {
            kf3ds_mat4 m;
            float fov, roll;
            kf3ds_node_mesh_matrix(s, i, &poses[i], &m);
            kf3ds_node_camera_view(s, i, poses, &m, &fov, &roll);
            /* every track evaluated as every kind */
            for (k = 0; k < KF3DS_TRACK_COUNT; k++)
                for (kind = 0; kind < KF3DS_TRACK_COUNT; kind++)
                    assert_in_range(kf3ds_track_eval(&s->nodes[i].tracks[k],
                                                     (kf3ds_track_kind)kind, frame, 0, out),
                                    1, 4);
        }
    }
    assert_int_equal(kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_COUNT, 0.0, 0, out), 0);
    assert_int_equal(kf3ds_track_eval(&s->nodes[0].tracks[0], (kf3ds_track_kind)-1, 0.0, 0, out),
                     0);
    assert_int_equal(kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_POS, 0.0, 0, NULL), 0);
    free(poses);
    counting_free_scene(s, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_nonfinite_replaced_with_warnings),
        support_unit_test(test_normal_values_untouched),
        support_unit_test(test_extreme_values_stay_finite),
        support_unit_test(test_negative_ease),
        support_unit_test(test_track_eval_other_kind),
        support_unit_test(test_odd_values),
    };
    return support_run_tests(tests, NULL, NULL);
}
