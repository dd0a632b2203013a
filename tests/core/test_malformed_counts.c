/* Counts and limits (docs/robustness.md, 'The guarantees'): key counts and
 * element counts far beyond their chunk (the keys and elements present are
 * kept, KF3DS_ERR_TRUNCATED, little memory), and the caller's limits on keys,
 * nodes, diagnostics and memory (a clean KF3DS_ERR_LIMIT or
 * KF3DS_ERR_NOMEM, never more memory than allowed, even on the way). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

/* A file with one object node carrying one track of kind `tag` whose header
 * claims `count` keys while only two follow. */
static unsigned char *build_track_file(uint16_t tag, uint32_t count, int fat_keys, size_t *size)
{
    static const w3ds_tcb tcb = { 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0 };
    const w3ds_tcb *t = fat_keys ? &tcb : NULL;
    w3ds w;
    int k;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    support_write_box_mesh(&w, "Box", 0.0f, 0);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "Box", 0xFFFF);
    support_track_begin(&w, tag, 0, count);
    for (k = 0; k < 2; k++) {
        int32_t frame = 10 * k;
        switch (tag) {
        case KF3DS_CHUNK_POS_TRACK_TAG: case KF3DS_CHUNK_SCL_TRACK_TAG:
        case KF3DS_CHUNK_COL_TRACK_TAG:
            support_key_vec(&w, frame, t, 1.0f + (float)k, 2.0f, 3.0f);
            break;
        case KF3DS_CHUNK_ROT_TRACK_TAG:
            support_key_rot(&w, frame, t, 0.5f, 0, 0, 1);
            break;
        case KF3DS_CHUNK_MORPH_TRACK_TAG:
            w3ds_key_header(&w, frame, t);
            w3ds_cstr(&w, "Box");
            break;
        case KF3DS_CHUNK_HIDE_TRACK_TAG:
            w3ds_key_header(&w, frame, t);
            break;
        default:
            support_key_scalar(&w, frame, t, 40.0f + (float)k);
            break;
        }
    }
    support_end_all(&w);
    return support_take_bytes(&w, size);
}

static void test_key_count_beyond_chunk(void **state)
{
    static const uint16_t tags[] = {
        KF3DS_CHUNK_POS_TRACK_TAG,  KF3DS_CHUNK_ROT_TRACK_TAG,   KF3DS_CHUNK_SCL_TRACK_TAG,
        KF3DS_CHUNK_FOV_TRACK_TAG,  KF3DS_CHUNK_ROLL_TRACK_TAG,  KF3DS_CHUNK_COL_TRACK_TAG,
        KF3DS_CHUNK_MORPH_TRACK_TAG, KF3DS_CHUNK_HOT_TRACK_TAG,  KF3DS_CHUNK_FALL_TRACK_TAG,
        KF3DS_CHUNK_HIDE_TRACK_TAG
    };
    static const uint32_t counts[] = { 0xFFFFFFFFu, 1000000u, 3u };
    size_t t, n, fat;
    (void)state;
    for (t = 0; t < sizeof tags / sizeof tags[0]; t++)
        for (n = 0; n < sizeof counts / sizeof counts[0]; n++)
            for (fat = 0; fat < 2; fat++) {
                size_t size;
                unsigned char *data = build_track_file(tags[t], counts[n], (int)fat, &size);
                counting c;
                kf3ds_diag err;
                kf3ds_scene *s;
                const kf3ds_track *tr;
                int k;
                support_set_what("track 0x%04X claiming %lu keys with 2 present%s",
                                 (unsigned)tags[t], (unsigned long)counts[n],
                                 fat ? " (TCB keys)" : "");
                s = support_load_scene(data, size, &c, NULL, &err, SUPPORT_CHECK_FULL);
                assert_int_equal(err.code, KF3DS_ERR_TRUNCATED);
                k = support_find_diag(s, KF3DS_ERR_TRUNCATED, 0, 0);
                assert_true(k >= 0);
                assert_int_equal(s->diags[k].chunk_id, tags[t]);
                assert_int_equal(s->num_nodes, 1);
                /* the track kinds are in the order of their chunk ids */
                tr = &s->nodes[0].tracks[tags[t] - KF3DS_CHUNK_POS_TRACK_TAG];
                assert_int_equal(tr->num_keys, 2);
                assert_int_equal(tr->keys[0].frame, 0);
                assert_int_equal(tr->keys[1].frame, 10);
                if (tags[t] == KF3DS_CHUNK_POS_TRACK_TAG) {
                    assert_near(tr->keys[0].value[0], 1.0, 0);
                    assert_near(tr->keys[1].value[0], 2.0, 0);
                }
                if (tags[t] == KF3DS_CHUNK_MORPH_TRACK_TAG)
                    assert_string_equal(tr->keys[1].morph_name, "Box");
                if (fat) {
                    assert_near(tr->keys[1].tension, 0.1f, 0);
                    assert_near(tr->keys[1].ease_from, 0.5f, 0);
                }
                assert_true(c.bytes < 1024u * 1024u); /* the scene owns little memory */
                counting_free_scene(s, &c);
                free(data);
            }
}

/* max_keys: a clean ERR_LIMIT and the first keys kept. */
static void test_key_limit(void **state)
{
    size_t size;
    unsigned char *data = build_track_file(KF3DS_CHUNK_POS_TRACK_TAG, 2, 0, &size);
    counting c;
    kf3ds_diag err;
    kf3ds_limits limits;
    kf3ds_scene *s;
    (void)state;
    memset(&limits, 0, sizeof limits);
    limits.max_keys = 1;
    support_set_what("max_keys 1 with a 2-key track");
    s = support_load_scene(data, size, &c, &limits, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(err.code, KF3DS_ERR_LIMIT);
    assert_int_equal(s->nodes[0].tracks[KF3DS_TRACK_POS].num_keys, 1);
    counting_free_scene(s, &c);
    free(data);
}

static unsigned char *build_array_counts(size_t *size)
{
    static const float triangle[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    w3ds w;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_material(&w, "M", NULL, NULL, NULL);
    /* mesh A: every array claims 65535 elements */
    w3ds_begin(&w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(&w, "A");
    w3ds_begin(&w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(&w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(&w, 0xFFFF);
    w3ds_f32(&w, 1.0f); w3ds_f32(&w, 2.0f); w3ds_f32(&w, 3.0f);
    w3ds_f32(&w, 4.0f); w3ds_f32(&w, 5.0f); w3ds_f32(&w, 6.0f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_POINT_FLAG_ARRAY);
    w3ds_u16(&w, 0xFFFF);
    w3ds_u16(&w, 9);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_TEX_VERTS);
    w3ds_u16(&w, 0xFFFF);
    w3ds_f32(&w, 0.5f); w3ds_f32(&w, 0.25f);
    w3ds_f32(&w, 0.75f); w3ds_f32(&w, 1.0f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_FACE_ARRAY);
    w3ds_u16(&w, 0xFFFF);
    w3ds_u16(&w, 0); w3ds_u16(&w, 1); w3ds_u16(&w, 1); w3ds_u16(&w, 7);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    /* mesh B: sane arrays, a material group and smoothing that claim too much */
    w3ds_begin(&w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(&w, "B");
    w3ds_begin(&w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(&w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(&w, 3);
    w3ds_f32v(&w, triangle, 9);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_FACE_ARRAY);
    w3ds_u16(&w, 2);
    w3ds_u16(&w, 0); w3ds_u16(&w, 1); w3ds_u16(&w, 2); w3ds_u16(&w, 7);
    w3ds_u16(&w, 2); w3ds_u16(&w, 1); w3ds_u16(&w, 0); w3ds_u16(&w, 7);
    w3ds_begin(&w, KF3DS_CHUNK_MSH_MAT_GROUP);
    w3ds_cstr(&w, "M");
    w3ds_u16(&w, 0xFFFF);
    w3ds_u16(&w, 1);
    w3ds_end(&w);
    support_chunk_u32(&w, KF3DS_CHUNK_SMOOTH_GROUP, 1); /* one of two */
    support_end_all(&w);
    return support_take_bytes(&w, size);
}

static void test_array_counts_beyond_chunk(void **state)
{
    size_t size;
    unsigned char *data = build_array_counts(&size);
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    const kf3ds_mesh *a, *b;
    (void)state;
    support_set_what("POINT_ARRAY/FACE_ARRAY/TEX_VERTS/POINT_FLAG_ARRAY/MSH_MAT_GROUP counts "
                     "65535");
    s = support_load_scene(data, size, &c, NULL, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(err.code, KF3DS_ERR_TRUNCATED);
    assert_int_equal(s->num_meshes, 2);
    a = &s->meshes[kf3ds_scene_find_mesh(s, "A")];
    b = &s->meshes[kf3ds_scene_find_mesh(s, "B")];
    assert_int_equal(a->num_points, 2);
    assert_near(a->points[1][0], 4.0, 0);
    assert_near(a->points[1][2], 6.0, 0);
    assert_int_equal(a->num_point_flags, 1);
    assert_int_equal(a->point_flags[0], 9);
    assert_int_equal(a->num_texcoords, 2);
    assert_near(a->texcoords[1][0], 0.75, 0);
    assert_int_equal(a->num_faces, 1);
    assert_int_equal(a->faces[0].v[0], 0);
    assert_int_equal(a->faces[0].v[1], 1);
    assert_int_equal(b->num_faces, 2);
    assert_int_equal(b->num_groups, 1);
    assert_int_equal(b->groups[0].num_faces, 1);
    assert_int_equal(b->groups[0].material, 0);
    assert_int_equal(b->groups[0].faces[0], 1);
    assert_int_equal(kf3ds_face_material(b, 0), KF3DS_NONE);
    assert_int_equal(kf3ds_face_material(b, 1), 0);
    assert_int_equal(kf3ds_face_smoothing(b, 0), 1);
    assert_true(c.bytes < 1024u * 1024u);
    counting_free_scene(s, &c);
    free(data);
}

/* Limits on nodes and diagnostics: a clean ERR_LIMIT, counted drops. */
static void test_node_and_diag_limits(void **state)
{
    size_t size;
    unsigned char *data = support_build_rich(&size);
    counting c;
    kf3ds_diag err;
    kf3ds_limits lim;
    kf3ds_scene *s;
    w3ds w;
    uint32_t i;
    (void)state;
    memset(&lim, 0, sizeof lim);
    lim.max_nodes = 2;
    support_set_what("rich scene with max_nodes 2");
    s = support_load_scene(data, size, &c, &lim, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(err.code, KF3DS_ERR_LIMIT);
    assert_int_equal(s->num_nodes, 2);
    counting_free_scene(s, &c);
    free(data);

    /* 40 nodes with unknown parents and room for 3 diagnostics */
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < 40; i++)
        support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, (uint16_t)(1000 + i), NULL);
    memset(&lim, 0, sizeof lim);
    lim.max_diags = 3;
    support_set_what("40 unknown parents with max_diags 3");
    s = support_load_written(&w, &c, &lim, &err, SUPPORT_CHECK_LIGHT);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(s->num_diags, 3);
    assert_int_equal(s->num_dropped_diags, 37);
    for (i = 0; i < s->num_nodes; i++)
        assert_int_equal(s->nodes[i].parent, KF3DS_NONE);
    counting_free_scene(s, &c);
}

/* max_memory from 1 byte to 4 MB: the peak never exceeds it; below about a
 * kilobyte nothing loads. */
static void limit_sweep(const char *what, unsigned char *(*build)(size_t *size))
{
    static const size_t limits[] = { 1, 16, 64, 100, 500, 1000, 4096, 30000, 65536, 65600,
                                      70000, 100000, 200000, 400000, 1000000, 4000000 };
    size_t size, i;
    unsigned char *data = build(&size);
    for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        counting c;
        kf3ds_diag err;
        kf3ds_limits lim;
        kf3ds_scene *s;
        memset(&lim, 0, sizeof lim);
        lim.max_memory = limits[i];
        support_set_what("%s with max_memory %lu", what, (unsigned long)limits[i]);
        memset(&err, 0x5A, sizeof err);
        s = support_load_counted(data, size, &c, -1, &lim, &err);
        assert_true(c.peak <= limits[i]); /* never more than allowed, even on the way */
        if (s)
            support_check_scene(s, &err, SUPPORT_CHECK_LIGHT);
        else
            assert_int_equal(err.code, KF3DS_ERR_NOMEM);
        if (limits[i] <= 1000)
            assert_null(s);
        counting_free_scene(s, &c);
    }
    free(data);
}

static void test_memory_limit_rich(void **state)
{
    (void)state;
    limit_sweep("rich scene", support_build_rich);
}

static void test_memory_limit_big(void **state)
{
    (void)state;
    limit_sweep("big scene", support_build_big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_key_count_beyond_chunk),
        support_unit_test(test_key_limit),
        support_unit_test(test_array_counts_beyond_chunk),
        support_unit_test(test_node_and_diag_limits),
        support_unit_test(test_memory_limit_rich),
        support_unit_test(test_memory_limit_big),
    };
    return support_run_tests(tests, NULL, NULL);
}
