/* The memory bound (docs/robustness.md, 'The guarantees'): the peak of what
 * loading takes from the allocator is at most SUPPORT_BOUND_PER_BYTE bytes per
 * input byte plus SUPPORT_BOUND_FIXED, measured with the counting allocator on
 * the densest inputs there are (empty node chunks, tiny keys, tiny meshes,
 * materials, cameras, lights, material groups), on 65,535 nodes, and on
 * inputs claiming 4 billion keys or 65,535 vertices in a few bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "kf3ds.h"
#include "support.h"

/* Loads, checks the bound and returns peak / size (for the message). */
static double check_bound(const w3ds *w, const char *what)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    support_set_what("%s (%lu bytes)", what, (unsigned long)w->len);
    assert_false(w->failed);
    s = support_load_counted(w->buf, w->len, &c, -1, NULL, &err);
    assert_non_null(s);
    assert_true(c.peak <= SUPPORT_BOUND_PER_BYTE * w->len + SUPPORT_BOUND_FIXED);
    counting_free_scene(s, &c);
    return (double)c.peak / (double)w->len;
}

static void test_memory_bound_dense(void **state)
{
    static const size_t sizes[] = { 64, 1000, 65536, 1u << 20 };
    double worst = 0.0;
    int kind;
    size_t z;
    (void)state;
    for (kind = 0; kind < SUPPORT_DENSE_COUNT; kind++)
        for (z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            w3ds w;
            double ratio;
            w3ds_init(&w);
            support_write_dense(&w, (support_dense_kind)kind, sizes[z]);
            ratio = check_bound(&w, support_dense_names[kind]);
            if (sizes[z] == 1u << 20) {
                printf("  %-34s %8lu bytes: peak %6.1f bytes per input byte\n",
                       support_dense_names[kind], (unsigned long)w.len, ratio);
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
    kf3ds_scene *s;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < 65535; i++) /* every node type in turn */
        support_node(&w, (uint16_t)(KF3DS_CHUNK_AMBIENT_NODE_TAG + i % 7), "", 0,
                     (uint16_t)(i ? (i * 7919u) % i : 0xFFFF), NULL);
    support_end_all(&w);
    ratio = check_bound(&w, "65535 nodes with random parents");
    printf("  65535 nodes: peak %.1f bytes per input byte\n", ratio);
    s = kf3ds_load_memory(w.buf, w.len, NULL, NULL);
    assert_non_null(s);
    assert_int_equal(s->num_nodes, 65535);
    support_check_finite_everywhere(s);
    kf3ds_scene_free(s);
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
    s = support_load_counted(w->buf, w->len, c, -1, NULL, &err);
    assert_non_null(s);
    assert_int_equal(err.code, KF3DS_ERR_TRUNCATED);
    assert_true(c->peak < 256 * 1024);
    return s;
}

/* Counts claiming far more than the chunk holds: 4 billion keys of each
 * kind, 65,535 vertices, faces, texture coordinates, flags and group faces,
 * all in a few bytes. */
static void test_memory_bound_claims(void **state)
{
    static const uint32_t claims[] = { 0xFFFFFFFFu, 0x80000000u, 4000000000u, 65535u };
    static const uint16_t ids[] = { KF3DS_CHUNK_POINT_ARRAY, KF3DS_CHUNK_POINT_FLAG_ARRAY,
                                    KF3DS_CHUNK_FACE_ARRAY, KF3DS_CHUNK_TEX_VERTS,
                                    KF3DS_CHUNK_MSH_MAT_GROUP };
    size_t t, k;
    w3ds w;
    counting c;
    kf3ds_scene *s;
    (void)state;
    for (t = 0; t < KF3DS_TRACK_COUNT; t++)
        for (k = 0; k < sizeof claims / sizeof claims[0]; k++) {
            support_file_begin(&w, KF3DS_CHUNK_KFDATA);
            w3ds_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG);
            /* the track kinds are in the order of their chunk ids */
            support_track_begin(&w, (uint16_t)(KF3DS_CHUNK_POS_TRACK_TAG + t), 0, claims[k]);
            support_key_rot(&w, 0, NULL, 1, 0, 0, 1);
            s = load_claim(&w, &c, "key count claim");
            assert_in_range(s->nodes[0].tracks[t].num_keys, 0, 3); /* what 22 bytes hold */
            counting_free_scene(s, &c);
            w3ds_free(&w);
        }
    for (t = 0; t < sizeof ids / sizeof ids[0]; t++) {
        support_file_begin(&w, KF3DS_CHUNK_MDATA);
        w3ds_begin(&w, KF3DS_CHUNK_NAMED_OBJECT);
        w3ds_cstr(&w, "A");
        w3ds_begin(&w, KF3DS_CHUNK_N_TRI_OBJECT);
        if (ids[t] == KF3DS_CHUNK_MSH_MAT_GROUP) {
            w3ds_begin(&w, KF3DS_CHUNK_FACE_ARRAY);
            w3ds_u16(&w, 0);
            w3ds_begin(&w, KF3DS_CHUNK_MSH_MAT_GROUP);
            w3ds_cstr(&w, "M");
            w3ds_u16(&w, 0xFFFF);
            w3ds_u16(&w, 0);
        } else {
            w3ds_begin(&w, ids[t]);
            w3ds_u16(&w, 0xFFFF);
            w3ds_f32v(&w, (const float[3]){ 1, 2, 3 }, 3);
        }
        s = load_claim(&w, &c, "65535-element claim");
        assert_in_range(s->meshes[0].num_points, 0, 1);
        assert_in_range(s->meshes[0].num_faces, 0, 1);
        counting_free_scene(s, &c);
        w3ds_free(&w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_memory_bound_dense),
        support_unit_test(test_memory_bound_65535_nodes),
        support_unit_test(test_memory_bound_claims),
    };
    return support_run_tests(tests, NULL, NULL);
}
