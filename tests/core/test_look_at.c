/* kf3ds_look_at (docs/evaluation.md, "Cameras"): the camera look-at for any
 * eye and target, by hand, and the same view kf3ds_node_camera_view gives
 * for a camera node of the sample arm. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "kf3ds.h"
#include "support.h"

static void expect_row(const kf3ds_mat4 *v, int r, float x, float y, float z, float t)
{
    assert_near(v->m[r][0], x, 1e-6);
    assert_near(v->m[r][1], y, 1e-6);
    assert_near(v->m[r][2], z, 1e-6);
    assert_near(v->m[r][3], t, 1e-5);
}

/* Looking along +y from (1, 2, 3): right +x, up +z, the view axis -f. */
static void test_by_hand(void **state)
{
    static const float eye[3] = { 1, 2, 3 }, tgt[3] = { 1, 12, 3 };
    kf3ds_mat4 v;
    (void)state;
    assert_true(kf3ds_look_at(eye, tgt, 0.0f, &v));
    expect_row(&v, 0, 1, 0, 0, -1);
    expect_row(&v, 1, 0, 0, 1, -3);
    expect_row(&v, 2, 0, -1, 0, 2);
    /* A roll of 90 degrees: rotated by -90 degrees about the view axis. */
    assert_true(kf3ds_look_at(eye, tgt, 90.0f, &v));
    expect_row(&v, 0, 0, 0, 1, -3);
    expect_row(&v, 1, -1, 0, 0, 1);
    /* Straight down: the world's up is then -x. */
    {
        static const float below[3] = { 1, 2, -7 };
        assert_true(kf3ds_look_at(eye, below, 0.0f, &v));
        expect_row(&v, 2, 0, 0, 1, -3);
    }
    assert_false(kf3ds_look_at(eye, eye, 0.0f, &v));
    assert_false(kf3ds_look_at(NULL, eye, 0.0f, &v));
}

/* The camera node's view is the look-at from its position to its target's. */
static void test_matches_camera_view(void **state)
{
    kf3ds_scene *s = kf3ds_load_file("data/arm.3ds", NULL, NULL);
    kf3ds_pose *p;
    kf3ds_mat4 a, b;
    float eye[3], tgt[3], fov, roll;
    int32_t cam;
    int i, j;
    (void)state;
    assert_non_null(s);
    cam = kf3ds_scene_find_node(s, "Cam01");
    assert_true(cam >= 0);
    p = calloc(s->num_nodes, sizeof *p);
    assert_non_null(p);
    kf3ds_scene_eval(s, 37.5, 0, p);
    assert_true(kf3ds_node_camera_view(s, (uint32_t)cam, p, &a, &fov, &roll));
    for (i = 0; i < 3; i++) {
        eye[i] = p[cam].world.m[i][3];
        tgt[i] = p[s->nodes[cam].target].world.m[i][3];
    }
    assert_true(kf3ds_look_at(eye, tgt, roll, &b));
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            assert_near(b.m[i][j], a.m[i][j], 0.0);
    free(p);
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_by_hand),
        support_unit_test(test_matches_camera_view),
    };
    return support_run_tests(tests, NULL, NULL);
}
