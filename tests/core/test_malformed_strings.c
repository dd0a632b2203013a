/* Names and strings (docs/robustness.md, 'The guarantees'): names without a
 * terminator at the very end of the buffer (read up to the end, a
 * KF3DS_WARN_VALUE at their chunk), other strings cut the same way, names far
 * longer than a diagnostic's message, and absent map files as "". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

typedef struct name_ctx {
    uint16_t id;
    uint32_t offset;
    int error_allowed; /* the fields after the name are missing too */
    const char *expect;
} name_ctx;

static void inspect_name(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const name_ctx *nc = (const name_ctx *)user;
    uint32_t i;
    int found = 0;
    assert_non_null(s);
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == KF3DS_WARN_VALUE && s->diags[i].offset == nc->offset &&
            s->diags[i].chunk_id == nc->id)
            found = 1;
    assert_true(found);
    if (!nc->error_allowed)
        assert_int_equal(err->code, KF3DS_OK);
    switch (nc->id) {
    case KF3DS_CHUNK_MAT_NAME:
        assert_int_equal(s->num_materials, 1);
        assert_string_equal(s->materials[0].name, nc->expect);
        break;
    case KF3DS_CHUNK_NODE_HDR:
        assert_int_equal(s->num_nodes, 1);
        assert_string_equal(s->nodes[0].name, nc->expect);
        assert_int_equal(s->nodes[0].parent, KF3DS_NONE);
        break;
    case KF3DS_CHUNK_INSTANCE_NAME:
        assert_int_equal(s->num_nodes, 1);
        assert_non_null(s->nodes[0].instance);
        assert_string_equal(s->nodes[0].instance, nc->expect);
        break;
    case KF3DS_CHUNK_MAT_MAPNAME:
        assert_int_equal(s->num_materials, 1);
        assert_non_null(s->materials[0].texture1.file);
        assert_string_equal(s->materials[0].texture1.file, nc->expect);
        break;
    default:
        break;
    }
}

static void test_unterminated_names(void **state)
{
    static const support_level named_object[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                                  {KF3DS_CHUNK_MDATA, "", 0},
                                                  {KF3DS_CHUNK_NAMED_OBJECT, "", 0} };
    static const support_level node_hdr[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                              {KF3DS_CHUNK_KFDATA, "", 0},
                                              {KF3DS_CHUNK_OBJECT_NODE_TAG, "", 0},
                                              {KF3DS_CHUNK_NODE_HDR, "", 0} };
    static const support_level instance[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                              {KF3DS_CHUNK_KFDATA, "", 0},
                                              {KF3DS_CHUNK_OBJECT_NODE_TAG, "", 0},
                                              {KF3DS_CHUNK_INSTANCE_NAME, "", 0} };
    static const support_level mat_name[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                              {KF3DS_CHUNK_MDATA, "", 0},
                                              {KF3DS_CHUNK_MAT_ENTRY, "", 0},
                                              {KF3DS_CHUNK_MAT_NAME, "", 0} };
    static const support_level map_name[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                              {KF3DS_CHUNK_MDATA, "", 0},
                                              {KF3DS_CHUNK_MAT_ENTRY, "", 0},
                                              {KF3DS_CHUNK_MAT_TEXMAP, "", 0},
                                              {KF3DS_CHUNK_MAT_MAPNAME, "", 0} };
    static const struct {
        const support_level *levels;
        size_t n;
        int error_allowed;
        const char *what;
    } cases[] = {
        {named_object, 3, 0, "NAMED_OBJECT"},
        {node_hdr, 4, 1, "NODE_HDR"},
        {instance, 4, 0, "INSTANCE_NAME"},
        {mat_name, 4, 0, "MAT_NAME"},
        {map_name, 5, 0, "MAT_MAPNAME"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        unsigned char *data = support_build_levels(cases[i].levels, cases[i].n, "Box", 3, &size);
        name_ctx nc;
        nc.id = cases[i].levels[cases[i].n - 1].id;
        nc.offset = (uint32_t)(6 * (cases[i].n - 1));
        nc.error_allowed = cases[i].error_allowed;
        nc.expect = "Box";
        support_set_what("%s without terminator at the end of the buffer", cases[i].what);
        assert_true(support_load_and_check(data, size, NULL, SUPPORT_CHECK_FULL, NULL,
                                           inspect_name, &nc));
        free(data);
    }
}

/* Other strings cut at the end of the buffer: the KFHDR file name, a
 * material group name, a morph key name. No crash, a scene. */
static void test_unterminated_other_strings(void **state)
{
    static const support_level kfhdr[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                           {KF3DS_CHUNK_KFDATA, "", 0},
                                           {KF3DS_CHUNK_KFHDR, "\x05\x00", 2} };
    static const support_level group[] = { {KF3DS_CHUNK_M3DMAGIC, "", 0},
                                           {KF3DS_CHUNK_MDATA, "", 0},
                                           {KF3DS_CHUNK_NAMED_OBJECT, "G\0", 2},
                                           {KF3DS_CHUNK_N_TRI_OBJECT, "", 0},
                                           {KF3DS_CHUNK_FACE_ARRAY, "\x00\x00", 2},
                                           {KF3DS_CHUNK_MSH_MAT_GROUP, "", 0} };
    static const support_level morph[] = {
        {KF3DS_CHUNK_M3DMAGIC, "", 0}, {KF3DS_CHUNK_KFDATA, "", 0},
        {KF3DS_CHUNK_OBJECT_NODE_TAG, "", 0},
        {KF3DS_CHUNK_MORPH_TRACK_TAG, "\0\0\0\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\0\0", 20} };
    static const struct {
        const support_level *levels;
        size_t n;
        const char *what;
    } cases[] = {
        {kfhdr, 3, "KFHDR name"},
        {group, 6, "MSH_MAT_GROUP name"},
        {morph, 4, "MORPH key name"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        unsigned char *data = support_build_levels(cases[i].levels, cases[i].n, "Box", 3, &size);
        support_set_what("%s without terminator at the end of the buffer", cases[i].what);
        assert_true(support_load_and_check(data, size, NULL, SUPPORT_CHECK_FULL, NULL, NULL,
                                           NULL));
        free(data);
    }
}

/* Names far longer than a diagnostic message: messages stay terminated. */
static void test_long_names(void **state)
{
    enum { LONG = 5000 };
    char *name = (char *)malloc(LONG + 1), *mat = (char *)malloc(LONG + 1);
    static const float pts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t face[3] = { 0, 1, 7 }; /* a missing vertex */
    w3ds w;
    (void)state;
    assert_non_null(name);
    assert_non_null(mat);
    memset(name, 'n', LONG);
    name[LONG] = '\0';
    memset(mat, 'm', LONG);
    mat[LONG] = '\0';
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_mesh(&w, name, pts, 3, face, 1, NULL, mat); /* unknown material */
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, mat, 77); /* no mesh, no parent */
    support_end_all(&w);
    assert_false(w.failed);
    support_set_what("5000-character names in diagnostics");
    assert_true(support_load_and_check(w.buf, w.len, NULL, SUPPORT_CHECK_FULL, NULL, NULL, NULL));
    w3ds_free(&w);
    free(name);
    free(mat);
}

/* The header documents texture_map.file as "" when the map is absent. */
static void test_absent_map_file_is_empty(void **state)
{
    size_t size;
    unsigned char *data = support_build_rich(&size);
    kf3ds_diag err;
    kf3ds_scene *s;
    uint32_t i;
    (void)state;
    support_set_what("texture map names of the rich scene");
    s = kf3ds_load_memory(data, size, NULL, &err);
    assert_non_null(s);
    for (i = 0; i < s->num_materials; i++) {
        const kf3ds_material *m = &s->materials[i];
        assert_non_null(m->texture1.file);
        assert_non_null(m->texture2.file);
        assert_non_null(m->opacity.file);
        assert_non_null(m->bump.file);
        assert_non_null(m->specular_map.file);
        assert_non_null(m->shininess_map.file);
        assert_non_null(m->self_illum_map.file);
        assert_non_null(m->reflection.file);
    }
    assert_string_equal(s->materials[0].texture1.file, "checker.png");
    assert_string_equal(s->materials[0].texture2.file, "");
    kf3ds_scene_free(s);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_unterminated_names),
        support_unit_test(test_unterminated_other_strings),
        support_unit_test(test_long_names),
        support_unit_test(test_absent_map_file_is_empty),
    };
    return support_run_tests(tests, NULL, NULL);
}
