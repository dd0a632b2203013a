/* The static export module (include/kf3ds_static.h, src/static/) called
 * directly, on scenes built here with hand-derived answers: two faces at a
 * right angle sharing an edge, smoothed together (one normal per shared
 * point, the normalised sum (0, 1/sqrt 2, 1/sqrt 2)) or apart (two each);
 * the OBJ's v lines placed by the keyframer; the binary STL's bytes; the
 * argument checks; every allocation failing in turn. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds_static.h"
#include "support.h"
#include "support_build.h"

/* p0 origin, p1 +x, p2 +y, p3 +z; face A (0 1 2) in z = 0 facing +z, face B
 * (0 3 1) in y = 0 facing +y: they share the edge p0-p1. */
static const float roof_points[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
static const uint16_t roof_faces[] = { 0, 1, 2, 0, 3, 1 };

static kf3ds_scene *roof(uint32_t group_a, uint32_t group_b, const float *node_pos)
{
    kf3ds_builder *b = support_builder();
    uint32_t groups[2];
    int32_t mesh = support_build_mesh(b, "Roof", roof_points, 4, roof_faces, NULL, 2, NULL);
    groups[0] = group_a;
    groups[1] = group_b;
    assert_int_equal(kf3ds_builder_mesh_smoothing(b, mesh, groups), KF3DS_OK);
    if (node_pos) {
        assert_int_equal(kf3ds_builder_keyframer(b, "roof", 100, 0, 100), KF3DS_OK);
        support_build_node(b, KF3DS_NODE_OBJECT, "Roof", KF3DS_NONE, node_pos);
    }
    return support_build_scene(b);
}

/* The OBJ text as a C string (the output is not terminated). */
static char *obj_text(const kf3ds_scene *s, unsigned flags, double frame)
{
    kf3ds_static_options o;
    kf3ds_static_output out;
    char *text;
    memset(&o, 0, sizeof o);
    o.format = KF3DS_STATIC_OBJ;
    o.flags = flags;
    o.frame = frame;
    o.mtl_name = "roof.mtl";
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_OK);
    assert_non_null(out.mtl);
    text = malloc(out.size + 1);
    assert_non_null(text);
    memcpy(text, out.bytes, out.size);
    text[out.size] = '\0';
    kf3ds_static_free(&out);
    return text;
}

static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    const char *p = text;
    size_t len = strlen(prefix);
    while (p && *p) {
        if (strncmp(p, prefix, len) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}

static void test_smoothed_together(void **state)
{
    kf3ds_scene *s = roof(1, 1, NULL);
    char *t = obj_text(s, 0, 0.0);
    (void)state;
    /* p0 and p1 carry the sum of both faces' normals, normalised; p2 face
     * A's (0,0,1), p3 face B's (0,1,0): one vn per point */
    assert_int_equal(count_lines(t, "v "), 4);
    assert_int_equal(count_lines(t, "vn "), 4);
    assert_non_null(strstr(t, "vn 0 0.707106769 0.707106769\n"));
    assert_non_null(strstr(t, "vn 0 0 1\n"));
    assert_non_null(strstr(t, "vn 0 1 0\n"));
    /* the faces, wound as stored, each corner with its point's normal */
    assert_non_null(strstr(t, "f 1//1 2//2 3//3\nf 1//1 4//4 2//2\n"));
    assert_non_null(strstr(t, "mtllib roof.mtl\n"));
    assert_non_null(strstr(t, "usemtl kf3ds_default\n"));
    free(t);
    kf3ds_scene_free(s);
}

static void test_smoothed_apart(void **state)
{
    kf3ds_scene *s;
    char *t;
    (void)state;
    /* disjoint groups, and no groups at all: flat, two normals at p0 and p1 */
    s = roof(1, 2, NULL);
    t = obj_text(s, 0, 0.0);
    assert_int_equal(count_lines(t, "vn "), 6);
    assert_null(strstr(t, "0.707106769"));
    free(t);
    kf3ds_scene_free(s);
    s = roof(0, 0, NULL);
    t = obj_text(s, 0, 0.0);
    assert_int_equal(count_lines(t, "vn "), 6);
    free(t);
    kf3ds_scene_free(s);
}

static void test_placed_by_keyframer(void **state)
{
    static const float pos[3] = { 10, 0, 0 };
    kf3ds_scene *s = roof(1, 1, pos);
    char *t = obj_text(s, KF3DS_STATIC_FRAME, 50.0);
    (void)state;
    /* one POS key: the node stands at (10, 0, 0) at every frame; pivot 0 and
     * no mesh matrix, so each point moves by (10, 0, 0) */
    assert_non_null(strstr(t, "o Roof\nv 10 0 0\nv 11 0 0\nv 10 1 0\nv 10 0 1\n"));
    assert_non_null(strstr(t, "at frame 50\n"));
    free(t);
    kf3ds_scene_free(s);
}

static float le_float(const unsigned char *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_stl_bytes(void **state)
{
    kf3ds_scene *s = roof(1, 1, NULL);
    kf3ds_static_options o;
    kf3ds_static_output out;
    const unsigned char *b;
    (void)state;
    memset(&o, 0, sizeof o);
    o.format = KF3DS_STATIC_STL;
    o.file_name = "roof.3ds";
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_OK);
    b = out.bytes;
    assert_int_equal(out.size, 84 + 50 * 2);
    assert_null(out.mtl);
    assert_int_equal(out.num_triangles, 2);
    assert_true(memcmp(b, "solid", 5) != 0); /* that would mark ASCII STL */
    assert_int_equal(b[80] | b[81] << 8 | b[82] << 16 | b[83] << 24, 2);
    /* triangle A: normal (0,0,1), corners p0 p1 p2 */
    assert_true(le_float(b + 84) == 0.0f && le_float(b + 88) == 0.0f && le_float(b + 92) == 1.0f);
    assert_true(le_float(b + 96 + 12) == 1.0f && le_float(b + 96 + 12 + 4) == 0.0f);
    assert_true(le_float(b + 96 + 24 + 4) == 1.0f);
    assert_int_equal(b[84 + 48] | b[84 + 49], 0);
    /* triangle B: normal (0,1,0) */
    assert_true(le_float(b + 134) == 0.0f && le_float(b + 138) == 1.0f && le_float(b + 142) == 0.0f);
    kf3ds_static_free(&out);
    kf3ds_static_free(&out); /* an empty one is fine */
    kf3ds_scene_free(s);
}

static void test_arguments(void **state)
{
    kf3ds_scene *s = roof(1, 1, NULL);
    kf3ds_static_options o;
    kf3ds_static_output out;
    kf3ds_diag err;
    (void)state;
    memset(&o, 0, sizeof o);
    assert_int_equal(kf3ds_static_write(NULL, &o, &out, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_static_write(s, &o, NULL, NULL), KF3DS_ERR_ARGUMENT);
    o.flags = 0x100;
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_ERR_ARGUMENT);
    assert_null(out.bytes);
    o.flags = KF3DS_STATIC_FRAME;
    o.frame = nan("");
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_ERR_ARGUMENT);
    o.frame = HUGE_VAL;
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_ERR_ARGUMENT);
    o.frame = 0;
    o.format = (kf3ds_static_format)7;
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_ERR_ARGUMENT);
    o.format = KF3DS_STATIC_OBJ;
    o.allocator.malloc_fn = counting_options(NULL).allocator.malloc_fn;
    assert_int_equal(kf3ds_static_write(s, &o, &out, NULL), KF3DS_ERR_ARGUMENT);
    /* defaults for everything: OBJ at the segment's start */
    assert_int_equal(kf3ds_static_write(s, NULL, &out, NULL), KF3DS_OK);
    assert_true(out.frame == 0.0);
    kf3ds_static_free(&out);
    kf3ds_scene_free(s);
}

static void test_allocation_failures(void **state)
{
    static const float pos[3] = { 1, 2, 3 };
    kf3ds_scene *s = roof(1, 3, pos);
    counting c;
    long k;
    int fmt;
    (void)state;
    for (fmt = 0; fmt < 2; fmt++)
        for (k = 0;; k++) {
            kf3ds_static_options o;
            kf3ds_static_output out;
            kf3ds_status st;
            memset(&o, 0, sizeof o);
            counting_reset(&c, k);
            o.allocator = counting_options(&c).allocator;
            o.format = fmt ? KF3DS_STATIC_STL : KF3DS_STATIC_OBJ;
            st = kf3ds_static_write(s, &o, &out, NULL);
            if (st == KF3DS_OK) {
                kf3ds_static_free(&out);
                assert_int_equal(c.live, 0);
                break;
            }
            assert_int_equal(st, KF3DS_ERR_NOMEM);
            assert_int_equal(c.live, 0); /* nothing kept after a failure */
            assert_true(k < 1000);
        }
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smoothed_together),
        cmocka_unit_test(test_smoothed_apart),
        cmocka_unit_test(test_placed_by_keyframer),
        cmocka_unit_test(test_stl_bytes),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_allocation_failures),
    };
    return support_run_tests(tests, NULL, NULL);
}
