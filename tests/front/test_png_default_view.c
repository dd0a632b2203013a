/* The default view of `kf3ds render`, its --sheet and `kf3ds view` (one rule
 * for all, kf3ds_auto_view_choose in src/render/view.c, docs/viewer.md 'The
 * default view'): a scene is never a blank picture by default.
 *  - Fog whose half-strength distance is nearer than the framing distance:
 *    the orbit view steps in, so the objects show through the fog, where a
 *    camera standing as far as the framing distance sees fog colour only.
 *  - Objects that travel far (a fly-through): each picture follows them,
 *    large in the frame, at the start, the middle and the end; a file with a
 *    camera node is seen through that camera, the same picture as --camera.
 *  - The viewer's first frame is the picture render makes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"
#include "support_png.h"
#include "support_w3ds.h"

#define W 160
#define H 120
/* The viewer's status line at the bottom of its window (docs/viewer.md). */
#define STATUS_ROWS 16

static void colour_f(w3ds *w, uint16_t id, float r, float g, float b)
{
    const float c[3] = { r, g, b };
    support_chunk_f32v(w, id, c, 3);
}

/* An axis-aligned box mesh from lo to hi, in material "Green". */
static void box_mesh(w3ds *w, const char *name, const float lo[3], const float hi[3])
{
    static const uint16_t faces[12][3] = { {0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                           {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                           {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7} };
    float p[8][3];
    int i;
    for (i = 0; i < 8; i++) {
        p[i][0] = (i == 1 || i == 2 || i == 5 || i == 6) ? hi[0] : lo[0];
        p[i][1] = (i == 2 || i == 3 || i == 6 || i == 7) ? hi[1] : lo[1];
        p[i][2] = i >= 4 ? hi[2] : lo[2];
    }
    w3ds_mesh(w, name, &p[0][0], 8, &faces[0][0], 12, NULL, "Green");
}

static void green_material(w3ds *w)
{
    static const uint8_t green[3] = { 40, 220, 40 };
    w3ds_material(w, "Green", green, green, green);
}

/* A house-sized scene (40 x 40 x 10 units) in magenta fog: none at the eye,
 * full strength 20 units away, the background fogged too. The automatic
 * orbit view frames it from further away than that. With `camera`, also an
 * editor camera 200 units off, looking at it. */
static void write_fog_house(const char *path, int camera)
{
    static const float floor_lo[3] = { 0, 0, 0 }, floor_hi[3] = { 40, 40, 1 };
    static const float a_lo[3] = { 5, 5, 1 }, a_hi[3] = { 15, 15, 10 };
    static const float b_lo[3] = { 25, 20, 1 }, b_hi[3] = { 35, 35, 8 };
    static const float cam[3] = { -150, -150, 60 }, target[3] = { 20, 20, 5 };
    w3ds w;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    green_material(&w);
    box_mesh(&w, "Floor", floor_lo, floor_hi);
    box_mesh(&w, "BoxA", a_lo, a_hi);
    box_mesh(&w, "BoxB", b_lo, b_hi);
    if (camera)
        w3ds_camera(&w, "Far", cam, target, 0, 50);
    w3ds_begin(&w, KF3DS_CHUNK_FOG);
    w3ds_f32(&w, 0);
    w3ds_f32(&w, 0);
    w3ds_f32(&w, 20);
    w3ds_f32(&w, 100);
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 1, 0, 1);
    support_chunk_empty(&w, KF3DS_CHUNK_FOG_BGND);
    w3ds_end(&w);
    support_chunk_empty(&w, KF3DS_CHUNK_USE_FOG);
    support_end_all(&w);
    assert_int_equal(w3ds_save(&w, path), 0);
    w3ds_free(&w);
}

/* A fly-through: a ship (2 x 1 x 1) and its wing (a child, 3 units to the
 * side) fly from the origin to x = 1000 over frames 0..100. With `camera`, a
 * camera node rides beside the ship looking at it. */
static void write_fly_through(const char *path, int camera)
{
    static const float ship_lo[3] = { 0, 0, 0 }, ship_hi[3] = { 2, 1, 1 };
    static const float wing_lo[3] = { 0, 3, 0 }, wing_hi[3] = { 2, 4, 0.2f };
    static const float cam[3] = { 1, -12, 4 }, target[3] = { 1, 2, 0 };
    w3ds w;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    green_material(&w);
    box_mesh(&w, "Ship", ship_lo, ship_hi);
    box_mesh(&w, "Wing", wing_lo, wing_hi);
    if (camera)
        w3ds_camera(&w, "Chase", cam, target, 0, 35);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_kf_segment(&w, "fly", 100);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "Ship", W3DS_NO_PARENT);
    support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 2);
    support_key_vec(&w, 0, NULL, 0, 0, 0);
    support_key_vec(&w, 100, NULL, 1000, 0, 0);
    w3ds_end(&w);
    w3ds_end(&w);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 1, "Wing", 0);
    w3ds_end(&w);
    if (camera) {
        support_node_begin(&w, KF3DS_CHUNK_CAMERA_NODE_TAG, 2, "Chase", W3DS_NO_PARENT);
        support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 2);
        support_key_vec(&w, 0, NULL, cam[0], cam[1], cam[2]);
        support_key_vec(&w, 100, NULL, cam[0] + 1000, cam[1], cam[2]);
        w3ds_end(&w);
        w3ds_end(&w);
        support_node_begin(&w, KF3DS_CHUNK_TARGET_NODE_TAG, 3, "Chase", W3DS_NO_PARENT);
        support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 2);
        support_key_vec(&w, 0, NULL, target[0], target[1], target[2]);
        support_key_vec(&w, 100, NULL, target[0] + 1000, target[1], target[2]);
        w3ds_end(&w);
        w3ds_end(&w);
    }
    support_end_all(&w);
    assert_int_equal(w3ds_save(&w, path), 0);
    w3ds_free(&w);
}

/* Pixels further than 40 (in any channel) from `rgb`, within the cell of a
 * picture at (x0, y0) of size w x h. */
static long differ_from(const picture *p, const unsigned char rgb[3], int x0, int y0, int w,
                        int h)
{
    long n = 0;
    int x, y, k;
    for (y = y0; y < y0 + h && y < p->height; y++)
        for (x = x0; x < x0 + w && x < p->width; x++) {
            const unsigned char *q = p->rgb + 3 * ((size_t)y * (size_t)p->width + (size_t)x);
            for (k = 0; k < 3; k++)
                if (abs((int)q[k] - (int)rgb[k]) > 40) {
                    n++;
                    break;
                }
        }
    return n;
}

/* Runs the command (arguments up to NULL); it must exit 0. */
#define run_ok support_run_ok

static const unsigned char fog_rgb[3] = { 255, 0, 255 };

/* The fogged house: every default picture shows it (a third of the picture
 * or more is not fog colour), where the far camera sees fog alone. */
static void test_fog(void **state)
{
    char scene[512], png[512];
    picture p;
    long n;
    int i;
    (void)state;
    support_tmp_path(scene, sizeof scene, "fog.3ds");
    support_tmp_path(png, sizeof png, "fog.png");
    write_fog_house(scene, 1);

    /* the control: seen from 200 units away, the fog hides everything */
    run_ok(NULL, "render", scene, "--camera", "Far", "--size", "160x120", "--no-label", "-q",
           "-o", png, NULL);
    p = support_read_png(png);
    n = differ_from(&p, fog_rgb, 0, 0, W, H);
    free(p.rgb);
    if (n != 0)
        fail_msg("the far camera sees %ld pixels that are not fog", n);

    run_ok(NULL, "render", scene, "--size", "160x120", "--no-label", "-q", "-o", png, NULL);
    p = support_read_png(png);
    n = differ_from(&p, fog_rgb, 0, 0, W, H);
    free(p.rgb);
    if (n < W * H / 3)
        fail_msg("render's default view: %ld of %d pixels show the scene", n, W * H);

    run_ok(NULL, "render", scene, "--orbit", "120,40", "--size", "160x120", "--no-label", "-q",
           "-o", png, NULL);
    p = support_read_png(png);
    n = differ_from(&p, fog_rgb, 0, 0, W, H);
    free(p.rgb);
    if (n < W * H / 3)
        fail_msg("render --orbit 120,40: %ld of %d pixels show the scene", n, W * H);

    run_ok(NULL, "render", scene, "--sheet", "2x1", "--size", "80x60", "--no-label", "-q", "-o",
           png, NULL);
    p = support_read_png(png);
    for (i = 0; i < 2; i++) {
        n = differ_from(&p, fog_rgb, i * 80, 0, 80, 60);
        if (n < 80 * 60 / 3) {
            free(p.rgb);
            fail_msg("render --sheet cell %d: %ld of %d pixels show the scene", i, n, 80 * 60);
        }
    }
    free(p.rgb);
}

/* The fly-through at its start, middle and end: the ship and wing fill a
 * good part of each picture (the whole flight's box would make them specks). */
static void test_travelling(void **state)
{
    static const char *const frames[3] = { "0", "50", "100" };
    char scene[512], png[512];
    picture p;
    long n;
    int i;
    (void)state;
    support_tmp_path(scene, sizeof scene, "fly.3ds");
    support_tmp_path(png, sizeof png, "fly.png");
    write_fly_through(scene, 0);
    for (i = 0; i < 3; i++) {
        run_ok(NULL, "render", scene, "--frame", frames[i], "--size", "160x120", "--no-label",
               "-q", "-o", png, NULL);
        p = support_read_png(png);
        n = differ_from(&p, p.rgb, 0, 0, W, H); /* not the background (the corner's colour) */
        free(p.rgb);
        if (n < W * H / 20)
            fail_msg("frame %s: the travelling objects cover %ld of %d pixels", frames[i], n,
                     W * H);
    }
}

/* With a camera node, the default is the view through it: the same bytes as
 * --camera NAME. */
static void test_travelling_camera(void **state)
{
    char scene[512], a[512], b[512];
    unsigned char *da, *db;
    size_t na, nb;
    (void)state;
    support_tmp_path(scene, sizeof scene, "chase.3ds");
    support_tmp_path(a, sizeof a, "chase-default.png");
    support_tmp_path(b, sizeof b, "chase-camera.png");
    write_fly_through(scene, 1);
    run_ok(NULL, "render", scene, "--frame", "40", "--size", "160x120", "-q", "-o", a, NULL);
    run_ok(NULL, "render", scene, "--frame", "40", "--size", "160x120", "--camera", "Chase",
           "-q", "-o", b, NULL);
    da = support_read_file(a, &na);
    db = support_read_file(b, &nb);
    assert_non_null(da);
    assert_non_null(db);
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na);
    free(da);
    free(db);
}

/* The viewer starts where render looks: its first frame, shot, is render's
 * picture of that frame (same size, no label). */
static void test_viewer_agrees(void **state)
{
    static const char *const kinds[2] = { "fog.3ds", "fly.3ds" };
    char scene[512], shot[512], png[512];
    picture p, q;
    int i;
    (void)state;
    for (i = 0; i < 2; i++) {
        support_tmp_path(scene, sizeof scene, kinds[i]);
        support_tmp_path(shot, sizeof shot, "shot.png");
        support_tmp_path(png, sizeof png, "render.png");
        if (i == 0)
            write_fog_house(scene, 0);
        else
            write_fly_through(scene, 0);
        run_ok("SDL_VIDEODRIVER=dummy", "view", scene, "--size", "160x120", "--paused",
               "--exit-after-frames", "1", "--screenshot", shot, "-q", NULL);
        run_ok(NULL, "render", scene, "--size", "160x120", "--no-label", "-q", "-o", png, NULL);
        p = support_read_png(shot);
        q = support_read_png(png);
        assert_int_equal(p.width, q.width);
        assert_int_equal(p.height, q.height);
        if (support_difference(&p, &q, STATUS_ROWS) != 0) {
            long d = support_difference(&p, &q, STATUS_ROWS);
            free(p.rgb);
            free(q.rgb);
            fail_msg("%s: the viewer's first frame differs from render's in %ld pixels",
                     kinds[i], d);
        }
        free(p.rgb);
        free(q.rgb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_fog),
        support_unit_test(test_travelling),
        support_unit_test(test_travelling_camera),
        support_unit_test(test_viewer_agrees),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
