/* The renderer's motion paths and steered orbit view (include/kf3ds_render.h:
 * kf3ds_motion_paths_sample, _draw, kf3ds_auto_view_follow, _moved), on a
 * built scene whose nodes move on straight lines, so that every sampled
 * point, every drawn pixel and every moved eye is known by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kf3ds.h"
#include "kf3ds_render.h"
#include "support.h"
#include "support_build.h"

#define BG 0xFF000000u
#define YELLOW 0xFFF0D040u /* objects' paths */
#define CYAN 0xFF50D0F0u   /* cameras' and camera targets' */
#define ORANGE 0xFFF09040u /* lights' */

/* Frames 0..10. Node 0, a dummy, goes from (−20, 0, 0) to (20, 0, 0); node 1,
 * an omni light, from (0, −20, 0) to (0, 20, 0); node 2, a dummy, stays at
 * (0, 10, 4) (node 1 without the light). Two keys: a straight line at constant speed (end tangents are
 * the chord, docs/evaluation.md). */
static kf3ds_scene *straight_lines(int with_light)
{
    kf3ds_builder *b = support_builder();
    float white[3] = { 1, 1, 1 }, zero[3] = { 0, 0, 0 }, still[3] = { 0, 10, 4 };
    kf3ds_light omni = support_light("Omni", zero, white, NULL, 0, 0);
    kf3ds_key k;
    int32_t n;
    if (with_light)
        kf3ds_builder_add_light(b, &omni);
    kf3ds_builder_keyframer(b, "lines", 10, 0, 10);
    n = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
    k = support_key(0, -20, 0, 0, 0);
    kf3ds_builder_add_key(b, n, KF3DS_TRACK_POS, &k);
    k = support_key(10, 20, 0, 0, 0);
    kf3ds_builder_add_key(b, n, KF3DS_TRACK_POS, &k);
    if (with_light) {
        n = kf3ds_builder_add_node(b, KF3DS_NODE_LIGHT, "Omni", KF3DS_NONE);
        k = support_key(0, 0, -20, 0, 0);
        kf3ds_builder_add_key(b, n, KF3DS_TRACK_POS, &k);
        k = support_key(10, 0, 20, 0, 0);
        kf3ds_builder_add_key(b, n, KF3DS_TRACK_POS, &k);
    }
    support_build_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE, still);
    return support_build_scene(b);
}

static void test_sample_points(void **state)
{
    kf3ds_scene *s = straight_lines(1);
    kf3ds_pose poses[3];
    float pts[3 * 11 * 3];
    int i;
    (void)state;
    assert_int_equal(s->num_nodes, 3);
    /* 11 samples over 0..10: one per whole frame, where node 0 is at
     * x = −20 + 4i and node 1 at y = −20 + 4i. */
    assert_int_equal(kf3ds_motion_paths_sample(s, 0.0, 10.0, 0, 11, poses, pts), 1);
    for (i = 0; i < 11; i++) {
        const float *a = pts + (0 * 11 + i) * 3, *l = pts + (1 * 11 + i) * 3,
                    *c = pts + (2 * 11 + i) * 3;
        assert_float_equal(a[0], -20.0f + 4.0f * (float)i, 1e-4f);
        assert_float_equal(a[1], 0.0f, 1e-4f);
        assert_float_equal(a[2], 0.0f, 1e-4f);
        assert_float_equal(l[0], 0.0f, 1e-4f);
        assert_float_equal(l[1], -20.0f + 4.0f * (float)i, 1e-4f);
        assert_float_equal(l[2], 0.0f, 1e-4f);
        assert_true(c[0] == 0.0f && c[1] == 10.0f && c[2] == 4.0f);
    }
    /* A sub-range: 3 samples over frames 5..7.5 are at 5, 6.25 and 7.5. */
    assert_int_equal(kf3ds_motion_paths_sample(s, 5.0, 7.5, 0, 3, poses, pts), 1);
    assert_float_equal(pts[0], 0.0f, 1e-4f);
    assert_float_equal(pts[3], 5.0f, 1e-4f);
    assert_float_equal(pts[6], 10.0f, 1e-4f);
    /* Refused, nothing written. */
    pts[0] = 123.0f;
    assert_int_equal(kf3ds_motion_paths_sample(s, 0.0, 10.0, 0, 1, poses, pts), 0);
    assert_int_equal(kf3ds_motion_paths_sample(s, NAN, 10.0, 0, 11, poses, pts), 0);
    assert_int_equal(kf3ds_motion_paths_sample(s, 0.0, 1e12, 0, 11, poses, pts), 0);
    assert_int_equal(kf3ds_motion_paths_sample(s, 0.0, 10.0, 0, 11, NULL, pts), 0);
    assert_int_equal(kf3ds_motion_paths_sample(NULL, 0.0, 10.0, 0, 11, poses, pts), 0);
    assert_true(pts[0] == 123.0f);
    kf3ds_scene_free(s);
}

static void test_draw(void **state)
{
    kf3ds_scene *s = straight_lines(1);
    kf3ds_pose poses[3];
    float pts[3 * 11 * 3];
    uint32_t color[101 * 101];
    float depth[101 * 101];
    kf3ds_framebuffer fb = { color, depth, 101, 101 };
    kf3ds_view v;
    long yellow = 0, orange = 0, other = 0;
    int x, y;
    (void)state;
    assert_int_equal(kf3ds_motion_paths_sample(s, 0.0, 10.0, 0, 11, poses, pts), 1);
    /* Looking down −z at the origin from 50 away, 90° wide: the plane z = 0
     * spans ±50 over the 101 pixels, so ±20 lands 0.4 · 50.5 pixels from the
     * centre 50.5: node 0's path covers row 50 from x 30.3 to 70.7, node 1's
     * column 50 from y 30.3 to 70.7; node 2 does not move: no path. */
    memset(&v, 0, sizeof v);
    v.view.m[0][0] = v.view.m[1][1] = v.view.m[2][2] = v.view.m[3][3] = 1.0f;
    v.view.m[2][3] = -50.0f;
    v.fov_y_degrees = 90.0f;
    v.near_plane = 1.0f;
    v.far_plane = 100.0f;
    kf3ds_framebuffer_clear(&fb, BG);
    kf3ds_motion_paths_draw(&fb, &v, s, pts, 11);
    for (y = 0; y < 101; y++)
        for (x = 0; x < 101; x++) {
            uint32_t c = color[y * 101 + x];
            if (c == BG)
                continue;
            if (c == YELLOW && y == 50 && x >= 30 && x <= 70)
                yellow++;
            else if (c == ORANGE && x == 50 && y >= 30 && y <= 70)
                orange++;
            else
                other++;
        }
    assert_int_equal(other, 0);
    assert_true(color[50 * 101 + 31] == YELLOW && color[50 * 101 + 69] == YELLOW);
    assert_true(color[31 * 101 + 50] == ORANGE && color[69 * 101 + 50] == ORANGE);
    assert_true(yellow >= 39 && orange >= 38); /* the crossing pixel is one of them */
    assert_true(color[50 * 101 + 20] == BG && color[50 * 101 + 80] == BG);
    /* Lines never write depth, and nothing is drawn without points. */
    for (x = 0; x < 101 * 101; x++)
        assert_true(depth[x] == 0.0f);
    kf3ds_framebuffer_clear(&fb, BG);
    kf3ds_motion_paths_draw(&fb, &v, s, NULL, 11);
    kf3ds_motion_paths_draw(&fb, &v, s, pts, 1);
    kf3ds_motion_paths_draw(&fb, NULL, s, pts, 11);
    kf3ds_motion_paths_draw(NULL, &v, s, pts, 11);
    for (x = 0; x < 101 * 101; x++)
        assert_true(color[x] == BG);
    kf3ds_scene_free(s);
}

static void test_follow(void **state)
{
    kf3ds_scene *s = straight_lines(0);
    kf3ds_pose poses[2];
    kf3ds_auto_view av;
    float p[3];
    (void)state;
    kf3ds_auto_view_choose(s, 0.0, 10.0, 0.0, 0, KF3DS_AUTO_VIEW_NO_CAMERA, poses, &av);
    /* At frame 0 the object nodes (dummies count, kf3ds_scene_bounds) are
     * at (−20, 0, 0) and (0, 10, 4): half their box is (10, 5, 2). */
    kf3ds_auto_view_follow(s, 0.0, 0, poses, &av);
    assert_int_equal(av.kind, KF3DS_AUTO_VIEW_FOLLOW);
    assert_float_equal(av.half[0], 10.0f, 1e-5f);
    assert_float_equal(av.half[1], 5.0f, 1e-5f);
    assert_float_equal(av.half[2], 2.0f, 1e-5f);
    /* The poses are left at that frame. */
    p[0] = poses[0].world.m[0][3];
    assert_float_equal(p[0], -20.0f, 1e-4f);
    /* At frame 5 node 0 passes (0, 0, 0): half of (0..0, 0..10, 0..4). */
    kf3ds_auto_view_follow(s, 5.0, 0, poses, &av);
    assert_float_equal(av.half[0], 0.0f, 1e-4f);
    assert_float_equal(av.half[1], 5.0f, 1e-5f);
    assert_float_equal(av.half[2], 2.0f, 1e-5f);
    kf3ds_auto_view_follow(NULL, 5.0, 0, poses, &av); /* ignored */
    kf3ds_auto_view_follow(s, 5.0, 0, NULL, &av);
    kf3ds_auto_view_follow(s, 5.0, 0, poses, NULL);
    assert_int_equal(av.kind, KF3DS_AUTO_VIEW_FOLLOW);
    kf3ds_scene_free(s);
}

/* The box centre in camera space. */
static void centre_in_view(const kf3ds_view *v, const float c[3], float out[3])
{
    kf3ds_mat4_transform_point(&v->view, c, out);
}

static void test_moved(void **state)
{
    kf3ds_scene *s = straight_lines(0);
    kf3ds_pose poses[2];
    kf3ds_auto_view av;
    kf3ds_view at, mv;
    float c[3], a[3], b[3], d;
    int k;
    (void)state;
    kf3ds_auto_view_choose(s, 0.0, 10.0, 0.0, 0, KF3DS_AUTO_VIEW_NO_CAMERA, poses, &av);
    av.kind = KF3DS_AUTO_VIEW_ORBIT;
    kf3ds_scene_eval(s, 3.0, 0, poses);
    for (k = 0; k < 3; k++)
        c[k] = 0.5f * (av.min[k] + av.max[k]);
    kf3ds_auto_view_at(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, &at);
    /* Zoom 1 without pan, or NaN ones: the auto view itself. */
    kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, 1.0f, 0.0f, 0.0f, &mv);
    assert_memory_equal(&mv, &at, sizeof at);
    kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, NAN, NAN, INFINITY,
                          &mv);
    assert_memory_equal(&mv, &at, sizeof at);
    /* Zoom 0.5 and pan (0.1, −0.2): the centre, d in front of the eye,
     * comes to d/2 in front, 0.1·d right... of where it was, moved by the
     * eye: x + 0.1 d, y − 0.2 d. The rotation stays. */
    centre_in_view(&at, c, a);
    d = -a[2];
    assert_true(d > 0.0f);
    kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, 0.5f, 0.1f, -0.2f,
                          &mv);
    centre_in_view(&mv, c, b);
    assert_float_equal(b[2], -0.5f * d, 1e-3f * d);
    assert_float_equal(b[0], a[0] + 0.1f * d, 1e-3f * d);
    assert_float_equal(b[1], a[1] - 0.2f * d, 1e-3f * d);
    for (k = 0; k < 9; k++)
        assert_true(mv.view.m[k / 3][k % 3] == at.view.m[k / 3][k % 3]);
    /* Zoomed in, the near plane stands 2 radii before the centre (at least
     * 0.005 of its distance) and the far one at least 4 beyond. */
    {
        float r = 0.0f;
        for (k = 0; k < 3; k++)
            r += 0.25f * (av.max[k] - av.min[k]) * (av.max[k] - av.min[k]);
        r = sqrtf(r);
        assert_float_equal(mv.near_plane, fmaxf(0.5f * d - 2.0f * r, 0.0025f * d), 1e-3f * d);
        assert_true(mv.far_plane >= 0.5f * d + 4.0f * r - 1e-3f * d);
    }
    /* A zoom out of range is clamped: 1000 acts as 100. */
    {
        kf3ds_view hundred;
        kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, 1000.0f, 0.0f,
                              0.0f, &mv);
        kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, 100.0f, 0.0f,
                              0.0f, &hundred);
        assert_memory_equal(&mv, &hundred, sizeof mv);
    }
    /* A camera auto view is not moved. */
    av.kind = KF3DS_AUTO_VIEW_CAMERA;
    av.camera_node = 0; /* not a camera: kf3ds_auto_view_at gives the orbit view */
    kf3ds_auto_view_at(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, &at);
    kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, 0.5f, 0.3f, 0.0f,
                          &mv);
    assert_memory_equal(&mv, &at, sizeof at);
    kf3ds_auto_view_moved(s, &av, poses, 35.0f, 25.0f, 45.0f, 4.0f / 3.0f, 0.5f, 0.3f, 0.0f,
                          NULL);
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_points),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_follow),
        cmocka_unit_test(test_moved),
    };
    return support_run_tests(tests, NULL, NULL);
}
