/* Damaged chunk headers and chunk trees (docs/robustness.md, 'The
 * guarantees'): every length field of the rich scene set to 0, 5, 6, 4 GiB
 * and one off (a length below 6 is an error at that chunk, 0xFFFFFFFF an
 * overrun), every id replaced by an unknown one and by containers, 10,000
 * levels of nesting through every container the loader descends into, and
 * a mesh with two FACE_ARRAY chunks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

typedef struct length_ctx {
    const support_chunk_info *chunk;
    uint32_t value;
} length_ctx;

static void inspect_length(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const length_ctx *lc = (const length_ctx *)user;
    int k;
    if (lc->value < 6) {
        if (lc->chunk->offset == 0) { /* the root itself */
            assert_null(s);
            assert_int_equal(err->code, KF3DS_ERR_CHUNK);
            assert_int_equal(err->offset, 0);
            return;
        }
        assert_non_null(s);
        k = support_find_diag(s, KF3DS_ERR_CHUNK, lc->chunk->offset, 1);
        if (k < 0)
            fail_msg("no KF3DS_ERR_CHUNK at offset %lu", (unsigned long)lc->chunk->offset);
        assert_int_equal(s->diags[k].severity, KF3DS_ERROR);
        assert_int_equal(s->diags[k].chunk_id, lc->chunk->id);
        assert_int_equal(err->code, KF3DS_ERR_CHUNK);
        assert_int_equal(err->offset, lc->chunk->offset);
    } else if (lc->value == 0xFFFFFFFFu) {
        assert_non_null(s);
        k = support_find_diag(s, KF3DS_WARN_OVERRUN, lc->chunk->offset, 1);
        if (k < 0)
            fail_msg("no KF3DS_WARN_OVERRUN at offset %lu", (unsigned long)lc->chunk->offset);
        assert_int_equal(s->diags[k].chunk_id, lc->chunk->id);
    }
}

static void test_damaged_lengths(void **state)
{
    size_t size, i, j;
    unsigned char *data = support_build_rich(&size);
    unsigned char *copy = (unsigned char *)malloc(size);
    support_chunk_list l = support_collect_chunks(data, size);
    (void)state;
    assert_non_null(copy);
    for (i = 0; i < l.n; i++) {
        const uint32_t values[] = { 0, 5, 6, 0xFFFFFFFFu, l.v[i].length - 1, l.v[i].length + 1 };
        for (j = 0; j < sizeof values / sizeof values[0]; j++) {
            length_ctx lc;
            lc.chunk = &l.v[i];
            lc.value = values[j];
            memcpy(copy, data, size);
            support_put_u32(copy + l.v[i].offset + 2, values[j]);
            support_set_what("chunk 0x%04X at %lu: length %lu -> %lu", (unsigned)l.v[i].id,
                             (unsigned long)l.v[i].offset, (unsigned long)l.v[i].length,
                             (unsigned long)values[j]);
            support_load_and_check(copy, size, NULL, SUPPORT_CHECK_LIGHT, NULL, inspect_length,
                                   &lc);
        }
    }
    free(l.v);
    free(copy);
    free(data);
}

/* Every chunk id in turn replaced by an unknown one and by container ids:
 * the readers must skip or misread it without harm. */
static void test_damaged_ids(void **state)
{
    static const uint16_t ids[] = { 0x1234 /* unknown */, KF3DS_CHUNK_M3DMAGIC,
                                    KF3DS_CHUNK_MDATA, KF3DS_CHUNK_NAMED_OBJECT,
                                    KF3DS_CHUNK_FACE_ARRAY, KF3DS_CHUNK_OBJECT_NODE_TAG,
                                    KF3DS_CHUNK_ROT_TRACK_TAG };
    size_t size, i, j;
    unsigned char *data = support_build_rich(&size);
    unsigned char *copy = (unsigned char *)malloc(size);
    support_chunk_list l = support_collect_chunks(data, size);
    (void)state;
    assert_non_null(copy);
    for (i = 1; i < l.n; i++) {
        for (j = 0; j < sizeof ids / sizeof ids[0]; j++) {
            memcpy(copy, data, size);
            support_put_u16(copy + l.v[i].offset, ids[j]);
            support_set_what("chunk 0x%04X at %lu: id -> 0x%04X", (unsigned)l.v[i].id,
                             (unsigned long)l.v[i].offset, (unsigned)ids[j]);
            assert_true(support_load_and_check(copy, size, NULL, SUPPORT_CHECK_LIGHT, NULL, NULL,
                                               NULL));
        }
    }
    free(l.v);
    free(copy);
    free(data);
}

#define DEEP 10000

/* DEEP levels: `head`, then `cycle` over and over. */
static void nested(const char *what, const support_level *head, size_t nhead,
                   const support_level *cycle, size_t ncycle)
{
    support_level *levels = (support_level *)malloc(DEEP * sizeof *levels);
    size_t i, size;
    unsigned char *data;
    assert_non_null(levels);
    for (i = 0; i < DEEP; i++)
        levels[i] = i < nhead ? head[i] : cycle[(i - nhead) % ncycle];
    data = support_build_levels(levels, DEEP, "\x01\x02\x03\x04", 4, &size);
    support_set_what("%d levels: %s", DEEP, what);
    assert_true(support_load_and_check(data, size, NULL, SUPPORT_CHECK_FULL, NULL, NULL, NULL));
    free(data);
    free(levels);
}

static void test_deep_nesting(void **state)
{
    static const support_level root[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0} };
    static const support_level root_mdata[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                                {KF3DS_CHUNK_MDATA, "", 0} };
    static const support_level root_mdata_mat[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                                    {KF3DS_CHUNK_MDATA, "", 0},
                                                    {KF3DS_CHUNK_MAT_ENTRY, "", 0} };
    static const support_level mdata[] = { {KF3DS_CHUNK_MDATA, "", 0} };
    static const support_level magic[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0} };
    static const support_level kf_node[] = { {KF3DS_CHUNK_KFDATA, "", 0},
                                             {KF3DS_CHUNK_OBJECT_NODE_TAG, "", 0} };
    static const support_level root_kf[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                             {KF3DS_CHUNK_KFDATA, "", 0} };
    static const support_level node[] = { {KF3DS_CHUNK_OBJECT_NODE_TAG, "", 0} };
    static const support_level node_track[] = { {KF3DS_CHUNK_OBJECT_NODE_TAG, "", 0},
                                                {KF3DS_CHUNK_POS_TRACK_TAG, "", 0} };
    static const support_level obj_mesh[] = { {KF3DS_CHUNK_NAMED_OBJECT, "x\0", 2},
                                              {KF3DS_CHUNK_N_TRI_OBJECT, "", 0} };
    static const support_level faces[] = { {KF3DS_CHUNK_NAMED_OBJECT, "x\0", 2},
                                           {KF3DS_CHUNK_N_TRI_OBJECT, "", 0},
                                           {KF3DS_CHUNK_FACE_ARRAY, "\0\0", 2} };
    static const support_level texmap[] = { {KF3DS_CHUNK_MAT_TEXMAP, "", 0} };
    static const support_level colors[] = { {KF3DS_CHUNK_MAT_AMBIENT, "", 0},
                                            {KF3DS_CHUNK_COLOR_F, "", 0} };
    static const support_level unknown[] = { {0x1234, "", 0} }; /* an id kf3ds does not know */
    static const support_level light[] = { {KF3DS_CHUNK_NAMED_OBJECT, "L\0", 2},
                                           {KF3DS_CHUNK_N_DIRECT_LIGHT,
                                            "\0\0\0\0\0\0\0\0\0\0\0\0", 12} };
    (void)state;
    nested("M3DMAGIC > MDATA > MDATA > ...", root, 1, mdata, 1);
    nested("M3DMAGIC > M3DMAGIC > ...", root, 0, magic, 1);
    nested("M3DMAGIC > KFDATA > OBJECT_NODE_TAG > KFDATA > ...", root, 1, kf_node, 2);
    nested("KFDATA > OBJECT_NODE_TAG > OBJECT_NODE_TAG > ...", root_kf, 2, node, 1);
    nested("KFDATA > OBJECT_NODE_TAG > POS_TRACK_TAG > OBJECT_NODE_TAG > ...", root_kf, 2,
           node_track, 2);
    nested("NAMED_OBJECT > N_TRI_OBJECT > NAMED_OBJECT > ...", root_mdata, 2, obj_mesh, 2);
    nested("NAMED_OBJECT > N_TRI_OBJECT > FACE_ARRAY > NAMED_OBJECT > ...", root_mdata, 2,
           faces, 3);
    nested("MAT_ENTRY > MAT_TEXMAP > MAT_TEXMAP > ...", root_mdata_mat, 3, texmap, 1);
    nested("MAT_ENTRY > MAT_AMBIENT > COLOR_F > MAT_AMBIENT > ...", root_mdata_mat, 3, colors,
           2);
    nested("M3DMAGIC > unknown > unknown > ...", root, 1, unknown, 1);
    nested("NAMED_OBJECT > N_DIRECT_LIGHT > NAMED_OBJECT > ...", root_mdata, 2, light, 2);
}

/* A mesh with two FACE_ARRAY chunks: the first with two material groups, the
 * second with none. The second replaces the first; the groups must not
 * outlive it. */
static void test_duplicate_face_array(void **state)
{
    static const float pts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    w3ds w;
    int second;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_material(&w, "M", NULL, NULL, NULL);
    w3ds_begin(&w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(&w, "Dup");
    w3ds_begin(&w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(&w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(&w, 3);
    w3ds_f32v(&w, pts, 9);
    w3ds_end(&w);
    for (second = 0; second < 2; second++) {
        w3ds_begin(&w, KF3DS_CHUNK_FACE_ARRAY);
        w3ds_u16(&w, 1);
        w3ds_u16(&w, 0); w3ds_u16(&w, 1); w3ds_u16(&w, 2); w3ds_u16(&w, 7);
        if (!second) {
            int g;
            for (g = 0; g < 2; g++) {
                w3ds_begin(&w, KF3DS_CHUNK_MSH_MAT_GROUP);
                w3ds_cstr(&w, "M");
                w3ds_u16(&w, 1);
                w3ds_u16(&w, 0);
                w3ds_end(&w);
            }
        }
        w3ds_end(&w);
    }
    support_set_what("a mesh with two FACE_ARRAYs, the second without groups");
    s = support_load_written(&w, &c, NULL, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(s->num_meshes, 1);
    assert_int_equal(s->meshes[0].num_faces, 1);
    assert_int_equal(s->meshes[0].num_groups, 0);
    counting_free_scene(s, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_damaged_lengths),
        support_unit_test(test_damaged_ids),
        support_unit_test(test_deep_nesting),
        support_unit_test(test_duplicate_face_array),
    };
    return support_run_tests(tests, NULL, NULL);
}
