/* The software rasterizer and scene renderer: golden pictures computed by
 * hand (pixel rectangles, clipped areas, depths), culling with mirrored
 * meshes and two-sided materials, smoothing groups, edge flags, the font,
 * hostile input, and every animated corpus file at three frames. The scenes
 * are built (support_build.h), but for the hostile one. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kf3ds.h"
#include "kf3ds_render.h"
#include "support.h"
#include "support_build.h"
#include "support_w3ds.h"

#define BG 0xFF000000u

typedef struct picture {
    kf3ds_framebuffer fb;
} picture;

static void pic_init(picture *p, int w, int h)
{
    p->fb.width = w;
    p->fb.height = h;
    p->fb.color = (uint32_t *)malloc((size_t)w * (size_t)h * sizeof(uint32_t));
    p->fb.depth = (float *)malloc((size_t)w * (size_t)h * sizeof(float));
    assert_non_null(p->fb.color);
    assert_non_null(p->fb.depth);
    kf3ds_framebuffer_clear(&p->fb, BG);
}

static void pic_free(picture *p)
{
    free(p->fb.color);
    free(p->fb.depth);
}

static uint32_t px(const picture *p, int x, int y)
{
    return p->fb.color[(size_t)y * (size_t)p->fb.width + (size_t)x];
}

/* Pixels that are not `bg`, and their bounding box. */
static long drawn_box(const picture *p, uint32_t bg, int box[4])
{
    long n = 0;
    int x, y;
    box[0] = box[1] = 1 << 30;
    box[2] = box[3] = -1;
    for (y = 0; y < p->fb.height; y++)
        for (x = 0; x < p->fb.width; x++)
            if (px(p, x, y) != bg) {
                n++;
                if (x < box[0])
                    box[0] = x;
                if (y < box[1])
                    box[1] = y;
                if (x > box[2])
                    box[2] = x;
                if (y > box[3])
                    box[3] = y;
            }
    return n;
}

/* A look-at view with world Z up (camera x right, y up, looking down −z). */
static void look_at(kf3ds_view *v, const float eye[3], const float target[3], float fov,
                    float znear, float zfar)
{
    float f[3], r[3], u[3], l;
    int k;
    for (k = 0; k < 3; k++)
        f[k] = target[k] - eye[k];
    l = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (k = 0; k < 3; k++)
        f[k] /= l;
    r[0] = f[1];
    r[1] = -f[0];
    r[2] = 0;
    l = sqrtf(r[0] * r[0] + r[1] * r[1]);
    r[0] /= l;
    r[1] /= l;
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
    kf3ds_mat4_identity(&v->view);
    for (k = 0; k < 3; k++) {
        v->view.m[0][k] = r[k];
        v->view.m[1][k] = u[k];
        v->view.m[2][k] = -f[k];
    }
    v->view.m[0][3] = -(r[0] * eye[0] + r[1] * eye[1] + r[2] * eye[2]);
    v->view.m[1][3] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    v->view.m[2][3] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    v->fov_y_degrees = fov;
    v->near_plane = znear;
    v->far_plane = zfar;
}

static void identity_view(kf3ds_view *v, float fov)
{
    kf3ds_mat4_identity(&v->view);
    v->fov_y_degrees = fov;
    v->near_plane = 1.0f;
    v->far_plane = 1000.0f;
}

/* ---- small scenes, built (support_build.h) ---- */

/* A material of diffuse colour (red, green, blue), two-sided or not. */
static void add_material(kf3ds_builder *b, const char *name, uint8_t red, uint8_t green,
                         uint8_t blue, int two_sided)
{
    const uint8_t rgb[3] = { red, green, blue };
    kf3ds_material m = support_material(name, rgb);
    m.two_sided = (uint8_t)two_sided;
    kf3ds_builder_add_material(b, &m);
}

/* A mesh of nf faces with edge flags (NULL: all edges shown) and smoothing
 * groups (NULL: none); all faces get `material` when it is not NULL;
 * matrix: 12 floats or NULL. */
static void add_mesh(kf3ds_builder *b, const char *name, const float *pts, int n,
                     const uint16_t *faces, const uint16_t *flags, const uint32_t *smoothing,
                     int nf, const float *matrix, const char *material)
{
    int32_t mesh = support_build_mesh(b, name, pts, (uint32_t)n, faces, flags, (uint32_t)nf,
                                      matrix);
    if (material)
        kf3ds_builder_mesh_material(b, mesh, material, NULL, 0);
    if (smoothing)
        kf3ds_builder_mesh_smoothing(b, mesh, smoothing);
}

/* Renders a scene at frame 0 (poses from scene_eval), faces one-sided as 3D
 * Studio draws them when render_cull is set. */
static int render_cull;
static void render(const kf3ds_scene *s, const kf3ds_view *v, kf3ds_shading shading,
                   unsigned overlays, picture *pic, kf3ds_render_stats *st)
{
    kf3ds_pose *poses = (kf3ds_pose *)calloc(s->num_nodes + 1, sizeof *poses);
    kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
    kf3ds_render_options o;
    assert_non_null(poses);
    assert_non_null(r);
    memset(&o, 0, sizeof o);
    o.shading = shading;
    o.overlays = overlays;
    o.background = BG;
    o.cull_back_faces = (uint8_t)render_cull;
    if (s->num_nodes)
        kf3ds_scene_eval(s, 0.0, 0, poses);
    kf3ds_render_scene(r, poses, v, &o, &pic->fb, st);
    kf3ds_renderer_free(r);
    free(poses);
}

/* Faces of the cube [-1,1]^3 (vertex i at x = i&1, y = i&2, z = i&4 → ±1),
 * each triangle turned counter-clockwise seen from outside. */
static void cube(float pts[24], uint16_t faces[36])
{
    static const uint16_t quads[6][4] = { { 0, 2, 6, 4 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 },
                                          { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 5, 7, 6 } };
    int i, q, t, k;
    for (i = 0; i < 8; i++) {
        pts[3 * i] = i & 1 ? 1.0f : -1.0f;
        pts[3 * i + 1] = i & 2 ? 1.0f : -1.0f;
        pts[3 * i + 2] = i & 4 ? 1.0f : -1.0f;
    }
    for (q = 0; q < 6; q++)
        for (t = 0; t < 2; t++) {
            uint16_t *f = &faces[6 * q + 3 * t];
            float e1[3], e2[3], n[3], c[3];
            f[0] = quads[q][0];
            f[1] = quads[q][t + 1];
            f[2] = quads[q][t + 2];
            for (k = 0; k < 3; k++) {
                e1[k] = pts[3 * f[1] + k] - pts[3 * f[0] + k];
                e2[k] = pts[3 * f[2] + k] - pts[3 * f[0] + k];
                c[k] = pts[3 * f[0] + k] + pts[3 * f[1] + k] + pts[3 * f[2] + k];
            }
            n[0] = e1[1] * e2[2] - e1[2] * e2[1];
            n[1] = e1[2] * e2[0] - e1[0] * e2[2];
            n[2] = e1[0] * e2[1] - e1[1] * e2[0];
            if (n[0] * c[0] + n[1] * c[1] + n[2] * c[2] < 0) {
                uint16_t tmp = f[1];
                f[1] = f[2];
                f[2] = tmp;
            }
        }
}

/* ------------------------------------------------------------------------ */

/* A red cube seen along +y: from (0,−10,0) with a 90° FOV at 200×200 the
 * face y = −1 (distance 9) spans 100 ± 100/9 = [88.9, 111.1] both ways, so
 * pixel centres 89..110. From (2,−8,1) the front face (distance 7) spans
 * x 100 + 100·[−3,−1]/7 = [57.1, 85.7] and the side x = 1 reaches
 * 100 − 100/9 = 88.9; y spans 100 .. 100 + 200/7 = 128.6: pixels 57..88 ×
 * 100..128. Only red is drawn (no ambient light). */
static void test_cube_rectangle(void **state)
{
    float pts[24];
    uint16_t faces[36];
    const float eye1[3] = { 0, -10, 0 }, tgt1[3] = { 0, 0, 0 };
    const float eye2[3] = { 2, -8, 1 }, tgt2[3] = { 2, 0, 1 };
    kf3ds_scene *s;
    kf3ds_view v;
    kf3ds_render_stats st;
    picture pic;
    int box[4], x, y;
    long n;
    kf3ds_builder *b = support_builder();
    (void)state;
    cube(pts, faces);
    add_material(b, "RED", 255, 0, 0, 0);
    add_mesh(b, "Cube", pts, 8, faces, NULL, NULL, 12, NULL, "RED");
    s = support_build_scene(b);

    pic_init(&pic, 200, 200);
    look_at(&v, eye1, tgt1, 90.0f, 0.1f, 100.0f);
    render(s, &v, KF3DS_SHADE_SMOOTH, 0, &pic, &st);
    assert_int_equal(st.triangles_submitted, 12);
    n = drawn_box(&pic, BG, box);
    assert_int_equal(box[0], 89);
    assert_int_equal(box[1], 89);
    assert_int_equal(box[2], 110);
    assert_int_equal(box[3], 110);
    assert_int_equal(n, 22 * 22);
    for (y = box[1]; y <= box[3]; y++)
        for (x = box[0]; x <= box[2]; x++) {
            uint32_t c = px(&pic, x, y);
            assert_true(((c >> 16) & 0xFF) > 100);
            assert_int_equal(c & 0xFFFF, 0);
        }
    /* depth of the front face; the buffer holds 1/d, 0 where nothing is drawn */
    assert_near(1.0 / pic.fb.depth[100 * 200 + 100], 9.0, 1e-4);
    assert_true(pic.fb.depth[0] == 0.0f);

    look_at(&v, eye2, tgt2, 90.0f, 0.1f, 100.0f);
    render(s, &v, KF3DS_SHADE_FLAT, 0, &pic, &st);
    n = drawn_box(&pic, BG, box);
    assert_int_equal(box[0], 57);
    assert_int_equal(box[1], 100);
    assert_int_equal(box[2], 88);
    assert_int_equal(box[3], 128);
    /* the front face (x 57..85) and the side (86..88) are lit differently */
    assert_int_not_equal(px(&pic, 70, 110), px(&pic, 87, 110));
    assert_in_range(n, 29 * 28 + 1, 32 * 29);
    pic_free(&pic);
    kf3ds_scene_free(s);
}

/* Camera at the origin looking down −z, 90° FOV, 200×200, near 1. The
 * triangle (−1,−1,−5) (1,−1,−5) (0,−1,5) lies on the floor y = −1 and its
 * apex is behind the eye. Cut at distance 1 (t = 0.4 along the side edges)
 * it is the trapezoid (80,120) (120,120) (160,200) (40,200) on screen:
 * area (40 + 120)/2 · 80 = 6400 pixels. */
static void test_near_plane_clip(void **state)
{
    const float tri[3][3] = { { -1, -1, -5 }, { 1, -1, -5 }, { 0, -1, 5 } };
    const float rev[3][3] = { { -1, -1, -5 }, { 0, -1, 5 }, { 1, -1, -5 } };
    const uint32_t col[3] = { 0xFF00FF00u, 0xFF00FF00u, 0xFF00FF00u };
    kf3ds_view v;
    picture pic;
    int box[4], x, y, drawn_front, drawn_back;
    long n;
    (void)state;
    identity_view(&v, 90.0f);
    pic_init(&pic, 200, 200);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, tri, col, 0), 1);
    n = drawn_box(&pic, BG, box);
    assert_in_range(n, 6400 - 199, 6400 + 199);
    assert_int_equal(box[1], 120);
    assert_int_equal(box[3], 199);
    assert_in_range(box[0], 39, 41);
    assert_in_range(box[2], 158, 160);
    /* nothing outside the trapezoid (one pixel of slack) */
    for (y = 0; y < 200; y++)
        for (x = 0; x < 200; x++) {
            float cy = (float)y + 0.5f, cx = (float)x + 0.5f;
            float half = 20.0f + (cy - 120.0f) * 0.5f; /* half width at this row */
            int inside = cy >= 119.0f && fabsf(cx - 100.0f) <= half + 1.0f;
            if (px(&pic, x, y) != BG && !inside) {
                print_error("stray pixel at %d,%d\n", x, y);
                fail();
            }
            if (cy > 121.0f && fabsf(cx - 100.0f) < half - 1.0f)
                assert_int_equal(px(&pic, x, y), 0xFF00FF00u);
        }
    /* Depth at the bottom row: on the floor, d = 1/(y_ndc) = 100/(cy − 100). */
    assert_near(1.0 / pic.fb.depth[199 * 200 + 100], 100.0 / 99.5, 1e-3);

    /* Culling of a clipped triangle: exactly one winding is front. Seen from
     * above the floor (normal +y), (−1,−1,−5) (0,−1,5) (1,−1,−5) turns
     * counter-clockwise on screen. */
    kf3ds_framebuffer_clear(&pic.fb, BG);
    drawn_front = kf3ds_raster_triangle(&pic.fb, &v, rev, col, 1);
    kf3ds_framebuffer_clear(&pic.fb, BG);
    drawn_back = kf3ds_raster_triangle(&pic.fb, &v, tri, col, 1);
    assert_int_equal(drawn_front, 1);
    assert_int_equal(drawn_back, 0);
    assert_int_equal(drawn_box(&pic, BG, box), 0);
    pic_free(&pic);
}

/* Two overlapping quads at distances 5 and 6: the nearer wins whatever the
 * order; a slanted triangle stores the exact ray distance. */
static void test_depth_order(void **state)
{
    const float nearq[2][3][3] = { { { -1, -1, -5 }, { 1, -1, -5 }, { 1, 1, -5 } },
                                   { { -1, -1, -5 }, { 1, 1, -5 }, { -1, 1, -5 } } };
    const float farq[2][3][3] = { { { -0.5f, -2, -6 }, { 2, -2, -6 }, { 2, 0.5f, -6 } },
                                  { { -0.5f, -2, -6 }, { 2, 0.5f, -6 }, { -0.5f, 0.5f, -6 } } };
    const float slant[3][3] = { { -2, -2, -3 }, { 2, -2, -7 }, { 0, 2, -5 } };
    const uint32_t red[3] = { 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u };
    const uint32_t green[3] = { 0xFF00FF00u, 0xFF00FF00u, 0xFF00FF00u };
    kf3ds_view v;
    picture pic;
    int order, i, x, y;
    (void)state;
    identity_view(&v, 90.0f);
    pic_init(&pic, 200, 200);
    for (order = 0; order < 2; order++) {
        kf3ds_framebuffer_clear(&pic.fb, BG);
        for (i = 0; i < 2; i++) {
            if (order == 0) {
                kf3ds_raster_triangle(&pic.fb, &v, nearq[i], red, 1);
            } else {
                kf3ds_raster_triangle(&pic.fb, &v, farq[i], green, 1);
            }
        }
        for (i = 0; i < 2; i++) {
            if (order == 0)
                kf3ds_raster_triangle(&pic.fb, &v, farq[i], green, 1);
            else
                kf3ds_raster_triangle(&pic.fb, &v, nearq[i], red, 1);
        }
        /* overlap: x, y in [−0.5, 0.5]·… of the near quad: pixels 95..115 */
        assert_int_equal(px(&pic, 105, 95), 0xFFFF0000u);
        assert_int_equal(px(&pic, 85, 85), 0xFFFF0000u);
        /* the far quad alone: x ∈ (1/5·100+100 = 120, 2/6·100+100 = 133) */
        assert_int_equal(px(&pic, 125, 125), 0xFF00FF00u);
        assert_near(1.0 / pic.fb.depth[95 * 200 + 105], 5.0, 1e-4);
        assert_near(1.0 / pic.fb.depth[125 * 200 + 125], 6.0, 1e-4);
    }
    /* The slanted plane d = 5 + x: the ray through pixel centre (cx, cy) has
     * x = X·d with X = (cx − 100)/100, so d = 5/(1 − X). */
    kf3ds_framebuffer_clear(&pic.fb, BG);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, slant, red, 0), 1);
    for (y = 90; y <= 110; y += 5)
        for (x = 85; x <= 110; x += 5) {
            double X = ((double)x + 0.5 - 100.0) / 100.0;
            assert_int_equal(px(&pic, x, y), 0xFFFF0000u);
            assert_near(1.0 / pic.fb.depth[y * 200 + x], 5.0 / (1.0 - X), 1e-4 * 5.0 / (1.0 - X));
        }
    pic_free(&pic);
}

/* One quad in the plane y = 0 around x = 5, seen from (5,−10,0). As a plain
 * mesh, counter-clockwise from the camera is its front. As a mirrored mesh
 * (MESH_MATRIX X axis (−1,0,0), origin (5,0,0); a node at (5,0,0) puts it
 * back at its file position) the file's winding is inside-out, so the
 * clockwise one is the front. The picture of a drawn quad is the same. */
static long render_quad(int mirrored, int ccw, int two_sided, int box[4], uint32_t *centre)
{
    static const float pts[12] = { 4, 0, -1, 6, 0, -1, 6, 0, 1, 4, 0, 1 };
    static const uint16_t ccw_faces[6] = { 0, 1, 2, 0, 2, 3 }; /* seen from −y */
    static const uint16_t cw_faces[6] = { 0, 2, 1, 0, 3, 2 };
    static const float mirror[12] = { -1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 0, 0 };
    const float node_pos[3] = { 5, 0, 0 }, zero[3] = { 0, 0, 0 };
    const float eye[3] = { 5, -10, 0 }, tgt[3] = { 5, 0, 0 };
    kf3ds_scene *s;
    kf3ds_view v;
    kf3ds_render_stats st;
    picture pic;
    long n;
    kf3ds_builder *b = support_builder();
    add_material(b, "M", 200, 200, 200, two_sided);
    add_mesh(b, "Q", pts, 4, ccw ? ccw_faces : cw_faces, NULL, NULL, 2, mirrored ? mirror : NULL,
             "M");
    support_build_node(b, KF3DS_NODE_OBJECT, "Q", KF3DS_NONE, mirrored ? node_pos : zero);
    s = support_build_scene(b);
    assert_int_equal(s->meshes[0].mirrored, mirrored);
    pic_init(&pic, 200, 200);
    look_at(&v, eye, tgt, 90.0f, 0.1f, 100.0f);
    render(s, &v, KF3DS_SHADE_SMOOTH, 0, &pic, &st);
    assert_int_equal(st.triangles_submitted, 2);
    n = drawn_box(&pic, BG, box);
    if (centre)
        *centre = px(&pic, 100, 100);
    pic_free(&pic);
    kf3ds_scene_free(s);
    return n;
}

/* With --cull (3D Studio's renderer) faces are one-sided unless two-sided. */
static void test_mirrored_culling(void **state)
{
    int box[4], ref[4];
    long n;
    (void)state;
    render_cull = 1;
    /* plain: 100 ± 100/10 → pixels 90..109 */
    n = render_quad(0, 1, 0, ref, NULL);
    assert_int_equal(n, 400);
    assert_int_equal(ref[0], 90);
    assert_int_equal(ref[2], 109);
    assert_int_equal(render_quad(0, 0, 0, box, NULL), 0);
    /* mirrored: the other winding is the front, at the same place */
    n = render_quad(1, 0, 0, box, NULL);
    assert_int_equal(n, 400);
    assert_memory_equal(box, ref, sizeof box);
    assert_int_equal(render_quad(1, 1, 0, box, NULL), 0);
    /* two-sided materials are never culled */
    assert_int_equal(render_quad(0, 0, 1, box, NULL), 400);
    assert_int_equal(render_quad(1, 1, 1, box, NULL), 400);
    render_cull = 0;
}

/* By default every face is drawn, and a face seen from behind is lit on its
 * flipped normal: the quad facing away looks exactly like the one facing the
 * camera (lit by the headlight along the view axis). Lit on its own normal it
 * would get only the fill light: 0.08 · 200 → 16 per channel, not 0.98 · 200. */
static void test_back_faces_drawn(void **state)
{
    int box[4], ref[4];
    uint32_t front, back;
    int mirrored;
    (void)state;
    render_cull = 0;
    for (mirrored = 0; mirrored < 2; mirrored++) {
        assert_int_equal(render_quad(mirrored, !mirrored, 0, ref, &front), 400);
        assert_int_equal(render_quad(mirrored, mirrored, 0, box, &back), 400);
        assert_memory_equal(box, ref, sizeof box);
        assert_int_equal(back, front);
        /* 200 · (0.08 fill + 0.9 headlight) = 196 */
        assert_int_equal(front & 0xFF, 196);
    }
}

/* The faces a convex mesh turns away from the eye are hidden behind those
 * it turns to the eye, so they are left out (docs/performance.md,
 * "Rendering") without changing the
 * picture: the cube of test_cube_rectangle from (0,−10,0) draws its two
 * triangles of y = −1 and not the two of y = +1 (the sides are edge-on), and
 * the same cube wound inside out draws the same picture from its back
 * faces. A cube without its face y = −1 is not closed: its far wall is seen
 * through the hole (distance 11). Eye at (0,−1.05,0): the near plane (0.1)
 * cuts the face y = −1 away, and the far wall (distance 2.05) shows. */
static void render_cube(int inside_out, int open, const float eye[3], picture *pic,
                        kf3ds_render_stats *st)
{
    float pts[24];
    uint16_t faces[36];
    const float tgt[3] = { 0, 0, 0 };
    kf3ds_scene *s;
    kf3ds_view v;
    int k;
    kf3ds_builder *b = support_builder();
    cube(pts, faces);
    for (k = 0; inside_out && k < 12; k++) {
        uint16_t t = faces[3 * k + 1];
        faces[3 * k + 1] = faces[3 * k + 2];
        faces[3 * k + 2] = t;
    }
    add_material(b, "RED", 255, 0, 0, 0);
    /* faces 0..3 are the quads x = −1 and x = +1, then y = −1 (4, 5) */
    if (open)
        memmove(faces + 12, faces + 18, 18 * sizeof *faces);
    add_mesh(b, "Cube", pts, 8, faces, NULL, NULL, open ? 10 : 12, NULL, "RED");
    s = support_build_scene(b);
    look_at(&v, eye, tgt, 90.0f, 0.1f, 100.0f);
    render(s, &v, KF3DS_SHADE_SMOOTH, 0, pic, st);
    kf3ds_scene_free(s);
}

static void test_convex_hidden_faces(void **state)
{
    const float far_eye[3] = { 0, -10, 0 }, near_eye[3] = { 0, -1.05f, 0 };
    picture out, in;
    kf3ds_render_stats st;
    (void)state;
    render_cull = 0;
    pic_init(&out, 200, 200);
    pic_init(&in, 200, 200);
    render_cube(0, 0, far_eye, &out, &st);
    assert_int_equal(st.triangles_submitted, 12);
    assert_int_equal(st.triangles_drawn, 2);
    assert_near(1.0 / out.fb.depth[100 * 200 + 100], 9.0, 1e-4);
    render_cube(1, 0, far_eye, &in, &st);
    assert_int_equal(st.triangles_drawn, 2);
    assert_memory_equal(out.fb.color, in.fb.color, 200 * 200 * sizeof(uint32_t));
    render_cube(0, 1, far_eye, &out, &st);
    assert_int_equal(st.triangles_submitted, 10);
    assert_near(1.0 / out.fb.depth[100 * 200 + 100], 11.0, 1e-4);
    assert_int_not_equal(px(&out, 100, 100), BG);
    render_cube(0, 0, near_eye, &out, &st);
    assert_near(1.0 / out.fb.depth[100 * 200 + 100], 2.05, 1e-4);
    assert_int_not_equal(px(&out, 100, 100), BG);
    pic_free(&out);
    pic_free(&in);
}

/* A ridge towards the camera: faces (L, S0, S1) and (R, S1, S0) meet along
 * S0–S1. Both face normals make the same angle with the view direction, so
 * flat shading paints them alike; smooth shading with overlapping smoothing
 * bits brightens the ridge, with disjoint bits (or none) it is flat. */
static void render_ridge(uint32_t s0, uint32_t s1, kf3ds_shading shading, picture *pic)
{
    static const float pts[12] = { -2, 0, 0, 2, 0, 0, 0, -1, -1.5f, 0, -1, 1.5f };
    static const uint16_t faces[6] = { 0, 2, 3, 1, 3, 2 };
    const uint32_t smoothing[2] = { s0, s1 };
    const float eye[3] = { 0, -10, 0 }, tgt[3] = { 0, 0, 0 };
    kf3ds_scene *s;
    kf3ds_view v;
    kf3ds_builder *b = support_builder();
    add_mesh(b, "Ridge", pts, 4, faces, NULL, smoothing, 2, NULL, NULL);
    s = support_build_scene(b);
    look_at(&v, eye, tgt, 40.0f, 0.1f, 100.0f);
    render(s, &v, shading, 0, pic, NULL);
    kf3ds_scene_free(s);
}

static void test_smoothing_groups(void **state)
{
    picture flat, smooth;
    int box[4];
    size_t bytes = 160 * 120 * sizeof(uint32_t);
    (void)state;
    pic_init(&flat, 160, 120);
    pic_init(&smooth, 160, 120);
    render_ridge(1, 3, KF3DS_SHADE_FLAT, &flat);
    assert_true(drawn_box(&flat, BG, box) > 500);
    /* flat: both halves alike (symmetric normals) */
    assert_int_equal(px(&flat, 60, 60), px(&flat, 100, 60));
    /* overlapping bits: smooth differs at the ridge, brighter there */
    render_ridge(1, 3, KF3DS_SHADE_SMOOTH, &smooth);
    assert_memory_not_equal(flat.fb.color, smooth.fb.color, bytes);
    assert_true((px(&smooth, 80, 60) & 0xFF) > (px(&flat, 80, 60) & 0xFF) + 10);
    assert_int_not_equal(px(&smooth, 79, 60), BG);
    /* disjoint bits: exactly flat */
    render_ridge(1, 2, KF3DS_SHADE_SMOOTH, &smooth);
    assert_memory_equal(flat.fb.color, smooth.fb.color, bytes);
    /* no smoothing: exactly flat */
    render_ridge(0, 0, KF3DS_SHADE_SMOOTH, &smooth);
    assert_memory_equal(flat.fb.color, smooth.fb.color, bytes);
    /* depth agrees whatever the shading */
    assert_memory_equal(flat.fb.depth, smooth.fb.depth, 160 * 120 * sizeof(float));
    pic_free(&flat);
    pic_free(&smooth);
}

/* A square of two triangles whose diagonal is hidden by the edge flags
 * (0x4 AB, 0x2 BC, 0x1 CA). */
static void test_wireframe_edge_flags(void **state)
{
    static const float pts[12] = { -1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1 };
    static const uint16_t faces[6] = { 0, 1, 2, 0, 2, 3 };
    static const uint16_t flags[2] = { 0x4 | 0x2, 0x2 | 0x1 }; /* 0–2 hidden in both */
    static const uint16_t all[2] = { 7, 7 };
    const float eye[3] = { 0, -10, 0 }, tgt[3] = { 0, 0, 0 };
    kf3ds_view v;
    picture pic;
    int pass, box[4], dx, dy, i;
    (void)state;
    look_at(&v, eye, tgt, 90.0f, 0.1f, 100.0f);
    pic_init(&pic, 200, 200);
    for (pass = 0; pass < 2; pass++) {
        kf3ds_scene *s;
        kf3ds_render_stats st;
        int on_diag = 0;
        kf3ds_builder *b = support_builder();
        add_mesh(b, "Sq", pts, 4, faces, pass ? all : flags, NULL, 2, NULL, NULL);
        s = support_build_scene(b);
        render(s, &v, KF3DS_SHADE_WIRE, 0, &pic, &st);
        assert_int_equal(st.triangles_submitted, 2);
        /* the square spans 90..110: its outline is drawn */
        assert_true(drawn_box(&pic, BG, box) > 60);
        assert_in_range(box[0], 89, 90);
        assert_in_range(box[2], 109, 110);
        for (i = 0; i < 4; i++) {
            /* the middle of each side has a pixel within one of it */
            static const int mid[4][2] = { { 100, 110 }, { 110, 100 }, { 100, 90 }, { 90, 100 } };
            int found = 0;
            for (dy = -1; dy <= 1; dy++)
                for (dx = -1; dx <= 1; dx++) {
                    int x = mid[i][0] + dx, y = mid[i][1] + dy;
                    if (x < 200 && y < 200 && px(&pic, x, y) != BG)
                        found = 1;
                }
            assert_true(found);
        }
        /* the diagonal from (90,110) to (110,90): away from the corners */
        for (i = 95; i <= 105; i++)
            for (dx = -1; dx <= 1; dx++)
                on_diag += px(&pic, i + dx, 199 - i) != BG;
        if (pass == 0)
            assert_int_equal(on_diag, 0);
        else
            assert_true(on_diag >= 11);
        /* nothing inside the square away from the lines */
        assert_int_equal(px(&pic, 95, 97), BG);
        kf3ds_scene_free(s);
    }
    pic_free(&pic);
}

static void test_text(void **state)
{
    picture pic;
    int box[4];
    long n;
    (void)state;
    pic_init(&pic, 64, 32);
    assert_int_equal(kf3ds_raster_text_width("Hi", 2), 32);
    assert_int_equal(kf3ds_raster_text_width("frame 12", 1), 64);
    assert_int_equal(kf3ds_raster_text_width("", 3), 0);
    assert_int_equal(kf3ds_raster_text_width(NULL, 1), 0);
    kf3ds_raster_text(&pic.fb, 2, 3, "Hi", 0xFFFFFFFFu, 2);
    n = drawn_box(&pic, BG, box);
    assert_true(n > 20);
    assert_true(box[0] >= 2 && box[2] < 2 + 32 && box[1] >= 3 && box[3] < 3 + 16);
    /* every printable character has a glyph; others draw '?' */
    {
        int c;
        for (c = 33; c < 127; c++) {
            char s[2] = { (char)c, 0 };
            kf3ds_framebuffer_clear(&pic.fb, BG);
            kf3ds_raster_text(&pic.fb, 0, 0, s, 0xFFFFFFFFu, 1);
            if (drawn_box(&pic, BG, box) == 0) {
                print_error("glyph %d is empty\n", c);
                fail();
            }
        }
    }
    {
        picture q;
        pic_init(&q, 64, 32);
        kf3ds_framebuffer_clear(&pic.fb, BG);
        kf3ds_raster_text(&pic.fb, 0, 0, "\x01\xC3", 0xFFFFFFFFu, 1);
        kf3ds_raster_text(&q.fb, 0, 0, "??", 0xFFFFFFFFu, 1);
        assert_memory_equal(pic.fb.color, q.fb.color, 64 * 32 * 4);
        pic_free(&q);
    }
    /* clipped at every border without harm */
    kf3ds_raster_text(&pic.fb, -5, -5, "clip", 0xFFFFFFFFu, 3);
    kf3ds_raster_text(&pic.fb, 60, 30, "clip", 0xFFFFFFFFu, 3);
    kf3ds_raster_text(&pic.fb, -100000, 0, "x", 0xFFFFFFFFu, 1);
    kf3ds_raster_text(&pic.fb, 0, 0, "x", 0xFFFFFFFFu, 0);
    pic_free(&pic);
}

/* kf3ds_raster_label on a w×h picture draws what two kf3ds_raster_text
 * calls at scale `scale` draw by hand: the shadow at (x + scale, y + scale),
 * the text at (x, y). */
static void expect_label(int w, int h, int x, int y, int scale)
{
    picture pic, q;
    int box[4];
    pic_init(&pic, w, h);
    pic_init(&q, w, h);
    kf3ds_raster_label(&pic.fb, "I");
    kf3ds_raster_text(&q.fb, x + scale, y + scale, "I", 0xFF000000u, scale);
    kf3ds_raster_text(&q.fb, x, y, "I", 0xFFF0F0F0u, scale);
    assert_memory_equal(pic.fb.color, q.fb.color, (size_t)w * (size_t)h * 4);
    assert_true(drawn_box(&pic, BG, box) > 0);
    assert_true(box[0] >= x && box[1] >= y && box[2] <= x + 9 * scale &&
                box[3] <= y + 9 * scale);
    pic_free(&pic);
    pic_free(&q);
}

/* The frame label: 4 pixels from the left and bottom edges (an 8-pixel
 * font: top row height − 12), its shadow one pixel right and down; both
 * doubled from 720 rows up; nothing on a picture under 10 rows. */
static void test_label(void **state)
{
    picture pic;
    int box[4];
    (void)state;
    expect_label(64, 32, 4, 20, 1);
    expect_label(32, 719, 4, 707, 1);
    expect_label(32, 720, 8, 696, 2);
    pic_init(&pic, 64, 9);
    kf3ds_raster_label(&pic.fb, "I");
    kf3ds_raster_label(NULL, "I");
    kf3ds_raster_label(&pic.fb, NULL);
    assert_int_equal(drawn_box(&pic, BG, box), 0);
    pic_free(&pic);
}

/* Lines: clipped by the near plane, depth-tested with a little slack. */
static void test_lines(void **state)
{
    const float a[3] = { -1, 0, -5 }, b[3] = { 1, 0, -5 }, behind[3] = { 0, 0, 5 };
    const float q[3][3] = { { -3, -3, -4 }, { 3, -3, -4 }, { 0, 3, -4 } };
    const uint32_t red[3] = { 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u };
    kf3ds_view v;
    picture pic;
    int box[4];
    (void)state;
    identity_view(&v, 90.0f);
    pic_init(&pic, 200, 200);
    kf3ds_raster_line(&pic.fb, &v, a, b, 0xFF00FF00u, 1);
    assert_int_equal(drawn_box(&pic, BG, box), 41);
    assert_int_equal(box[1], 100);
    assert_int_equal(box[3], 100);
    assert_in_range(box[0], 79, 80);
    assert_in_range(box[2], 119, 120);
    /* a segment through the eye plane keeps its front part */
    kf3ds_framebuffer_clear(&pic.fb, BG);
    kf3ds_raster_line(&pic.fb, &v, a, behind, 0xFF00FF00u, 1);
    assert_true(drawn_box(&pic, BG, box) > 10);
    /* hidden behind a nearer triangle unless depth_test is 0 */
    kf3ds_framebuffer_clear(&pic.fb, BG);
    kf3ds_raster_triangle(&pic.fb, &v, q, red, 0);
    kf3ds_raster_line(&pic.fb, &v, a, b, 0xFF00FF00u, 1);
    assert_int_equal(px(&pic, 100, 100), 0xFFFF0000u);
    kf3ds_raster_line(&pic.fb, &v, a, b, 0xFF00FF00u, 0);
    assert_int_equal(px(&pic, 100, 100), 0xFF00FF00u);
    pic_free(&pic);
}

/* Corner k (0..7) of the box [mn, mx]. */
static void box_corner(const float mn[3], const float mx[3], int k, float c[3])
{
    c[0] = k & 1 ? mx[0] : mn[0];
    c[1] = k & 2 ? mx[1] : mn[1];
    c[2] = k & 4 ? mx[2] : mn[2];
}

/* Projection, orbit framing and camera views. */
static void test_views(void **state)
{
    const float mn[3] = { -3, 1, 0 }, mx[3] = { 5, 4, 2 };
    const float p0[3] = { 0, 0, -10 };
    kf3ds_view v;
    float x, y, d;
    int corner;
    (void)state;
    identity_view(&v, 90.0f);
    assert_int_equal(kf3ds_view_project(&v, 200, 100, p0, &x, &y, &d), 1);
    assert_near(x, 100, 1e-4);
    assert_near(y, 50, 1e-4);
    assert_near(d, 10, 1e-5);
    {
        const float q[3] = { 2, 1, -4 }, back[3] = { 0, 0, 3 };
        /* f = 50 (half the height over tan 45°) */
        assert_int_equal(kf3ds_view_project(&v, 200, 100, q, &x, &y, &d), 1);
        assert_near(x, 100 + 50 * 0.5, 1e-4);
        assert_near(y, 50 - 50 * 0.25, 1e-4);
        assert_int_equal(kf3ds_view_project(&v, 200, 100, back, &x, &y, &d), 0);
    }
    /* the orbit view keeps the whole box on screen, centred */
    for (corner = 0; corner < 4; corner++) {
        float az = (float)corner * 75.0f - 30.0f, el = (float)corner * 20.0f - 10.0f;
        int k;
        kf3ds_view_orbit(mn, mx, az, el, 45.0f, 4.0f / 3.0f, &v);
        for (k = 0; k < 8; k++) {
            float c[3];
            box_corner(mn, mx, k, c);
            assert_int_equal(kf3ds_view_project(&v, 160, 120, c, &x, &y, &d), 1);
            assert_true(x >= 0 && x <= 160 && y >= 0 && y <= 120);
            assert_true(d > v.near_plane && d < v.far_plane);
        }
        {
            float c[3] = { 1, 2.5f, 1 };
            assert_int_equal(kf3ds_view_project(&v, 160, 120, c, &x, &y, &d), 1);
            assert_near(x, 80, 1e-3);
            assert_near(y, 60, 1e-3);
        }
    }
    /* azimuth 0 looks along +y: a point further along +y is deeper */
    kf3ds_view_orbit(mn, mx, 0.0f, 0.0f, 45.0f, 1.0f, &v);
    {
        const float nearer[3] = { 1, 1, 1 }, farther[3] = { 1, 4, 1 };
        float d1, d2;
        kf3ds_view_project(&v, 100, 100, nearer, NULL, NULL, &d1);
        kf3ds_view_project(&v, 100, 100, farther, NULL, NULL, &d2);
        assert_near(d2 - d1, 3, 1e-3);
    }
    /* degenerate input still gives a usable view */
    kf3ds_view_orbit(NULL, NULL, 0, 0, 45, 1, &v);
    assert_true(v.near_plane > 0 && v.far_plane > v.near_plane);
    kf3ds_view_orbit(mx, mn, NAN, INFINITY, NAN, 0, &v);
    assert_true(v.near_plane > 0 && v.far_plane > v.near_plane);
}

/* A camera node looking at its target: the target projects to the centre,
 * the FOV comes from the camera (2400/lens), near/far from the bounds. */
static void test_camera_view(void **state)
{
    static const float pts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t face[3] = { 0, 1, 2 };
    const float cpos[3] = { 10, -20, 5 }, ctgt[3] = { 0, 1, 2 }, zero[3] = { 0, 0, 0 };
    kf3ds_scene *s;
    kf3ds_pose poses[3];
    kf3ds_view v;
    float x, y, d;
    int cam;
    kf3ds_builder *b = support_builder();
    kf3ds_camera editor_cam = support_camera("Cam", cpos, ctgt, 0.0f, 50.0f);
    (void)state;
    memset(poses, 0, sizeof poses); /* poses are zero-initialised before the first call */
    add_mesh(b, "T", pts, 3, face, NULL, NULL, 1, NULL, NULL);
    kf3ds_builder_add_camera(b, &editor_cam);
    support_build_node(b, KF3DS_NODE_OBJECT, "T", KF3DS_NONE, zero);
    support_build_node(b, KF3DS_NODE_CAMERA, "Cam", KF3DS_NONE, cpos);
    support_build_node(b, KF3DS_NODE_TARGET, "Cam", KF3DS_NONE, ctgt);
    s = support_build_scene(b);
    assert_int_equal(s->num_nodes, 3);
    memset(poses, 0, sizeof poses);
    kf3ds_scene_eval(s, 0.0, 0, poses);
    assert_int_equal(kf3ds_view_from_camera(s, 0, poses, &v), 0); /* an object node */
    for (cam = 0; cam < 3 && s->nodes[cam].type != KF3DS_NODE_CAMERA; cam++)
        ;
    assert_true(cam < 3);
    assert_int_equal(kf3ds_view_from_camera(s, (uint32_t)cam, poses, &v), 1);
    assert_near(v.fov_y_degrees, 48.0, 1e-3);
    assert_true(v.near_plane > 0 && v.far_plane > v.near_plane);
    assert_int_equal(kf3ds_view_project(&v, 160, 120, ctgt, &x, &y, &d), 1);
    assert_near(x, 80, 1e-3);
    assert_near(y, 60, 1e-3);
    /* The editor camera the node animates stands where the node is at frame
     * 0: its view is the same, bit for bit (one look-at, one plane rule). */
    {
        kf3ds_view e;
        memset(&e, 0xAB, sizeof e);
        assert_int_equal(kf3ds_view_from_editor_camera(s, 0, poses, &e), 1);
        assert_memory_equal(&e.view, &v.view, sizeof v.view);
        assert_near(e.fov_y_degrees, v.fov_y_degrees, 0);
        assert_near(e.near_plane, v.near_plane, 0);
        assert_near(e.far_plane, v.far_plane, 0);
        assert_int_equal(kf3ds_view_from_editor_camera(s, 1, poses, &e), 0); /* no camera 1 */
        assert_int_equal(kf3ds_view_from_editor_camera(NULL, 0, poses, &e), 0);
    }
    /* every bound corner lies before the far plane */
    {
        float mn[3], mx[3];
        int k;
        assert_int_equal(kf3ds_scene_bounds(s, poses, mn, mx), 1);
        /* the triangle and the object's pivot; the camera stands apart */
        assert_near(mn[0], 0, 1e-6);
        assert_near(mx[0], 1, 1e-6);
        assert_near(mn[1], 0, 1e-6);
        assert_near(mx[1], 1, 1e-6);
        assert_near(mx[2], 0, 1e-6);
        for (k = 0; k < 8; k++) {
            float c[3];
            box_corner(mn, mx, k, c);
            if (kf3ds_view_project(&v, 160, 120, c, NULL, NULL, &d))
                assert_true(d < v.far_plane);
        }
    }
    /* through the camera: the triangle is seen, the camera itself is not
     * drawn as an overlay */
    {
        picture pic;
        kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
        kf3ds_render_options o;
        kf3ds_render_stats st;
        int box[4];
        memset(&o, 0, sizeof o);
        o.background = BG;
        o.has_camera_node = 1;
        o.camera_node = (uint32_t)cam;
        o.overlays = KF3DS_OVERLAY_CAMERAS;
        pic_init(&pic, 160, 120);
        kf3ds_render_scene(r, poses, &v, &o, &pic.fb, &st);
        assert_int_equal(st.triangles_submitted, 1);
        assert_true(drawn_box(&pic, BG, box) > 0);
        kf3ds_renderer_free(r);
        pic_free(&pic);
    }
    kf3ds_scene_free(s);
}

/* NaN, infinite and huge coordinates, degenerate triangles, empty and NULL
 * framebuffers and arguments: nothing crashes, nothing strays. */
static void test_hostile_input(void **state)
{
    const uint32_t col[3] = { 0xFFFFFFFFu, 0xFF00FF00u, 0xFF0000FFu };
    const float nan3[3][3] = { { NAN, 0, -5 }, { 1, 0, -5 }, { 0, 1, -5 } };
    const float inf3[3][3] = { { INFINITY, 0, -5 }, { 1, -INFINITY, -5 }, { 0, 1, -5 } };
    const float huge[3][3] = { { -1e30f, -1e30f, -5 }, { 1e30f, -1e30f, -5 }, { 0, 1e30f, -5 } };
    const float big[3][3] = { { -1e7f, -1e7f, -5 }, { 1e7f, -1e7f, -5 }, { 0, 1e7f, -5 } };
    const float wide[3][3] = { { -1e6f, -1, 1e6f }, { 1e6f, -1, 1e6f }, { 0, -1, -1e6f } };
    const float degen[3][3] = { { 0, 0, -5 }, { 1, 1, -5 }, { 2, 2, -5 } };
    const float point[3][3] = { { 0, 0, -5 }, { 0, 0, -5 }, { 0, 0, -5 } };
    const float tiny[3][3] = { { 0, 0, -1e-30f }, { 1e-30f, 0, -1e-30f }, { 0, 1e-30f, -1e-30f } };
    const float a[3] = { NAN, 0, 0 }, b[3] = { 0, 0, -5 }, c[3] = { 1e30f, 1e30f, -1e30f };
    kf3ds_view v, bad;
    picture pic;
    kf3ds_framebuffer empty = { NULL, NULL, 0, 0 }, neg = { NULL, NULL, -5, 10 };
    int box[4];
    (void)state;
    identity_view(&v, 90.0f);
    pic_init(&pic, 64, 48);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, nan3, col, 0), 0);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, inf3, col, 0), 0);
    kf3ds_raster_triangle(&pic.fb, &v, huge, col, 0);
    kf3ds_raster_triangle(&pic.fb, &v, tiny, col, 0);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, degen, col, 0), 0);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, point, col, 0), 0);
    kf3ds_framebuffer_clear(&pic.fb, BG);
    /* a huge triangle covering the screen fills it exactly */
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, big, col, 0), 1);
    assert_int_equal(drawn_box(&pic, BG, box), 64 * 48);
    kf3ds_framebuffer_clear(&pic.fb, BG);
    kf3ds_raster_triangle(&pic.fb, &v, wide, col, 0);
    kf3ds_raster_line(&pic.fb, &v, a, b, 0xFFFFFFFFu, 1);
    kf3ds_raster_line(&pic.fb, &v, c, b, 0xFFFFFFFFu, 1);
    kf3ds_raster_line(&pic.fb, &v, b, b, 0xFFFFFFFFu, 1);
    /* bad views */
    bad = v;
    bad.fov_y_degrees = NAN;
    bad.near_plane = -1;
    bad.far_plane = NAN;
    kf3ds_raster_triangle(&pic.fb, &bad, big, col, 1);
    bad.view.m[0][0] = NAN;
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &bad, big, col, 0), 0);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, NULL, big, col, 0), 0);
    assert_int_equal(kf3ds_raster_triangle(NULL, &v, big, col, 0), 0);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, NULL, col, 0), 0);
    assert_int_equal(kf3ds_raster_triangle(&pic.fb, &v, big, NULL, 0), 0);
    assert_int_equal(kf3ds_view_project(NULL, 10, 10, b, NULL, NULL, NULL), 0);
    assert_int_equal(kf3ds_view_project(&v, 0, 10, b, NULL, NULL, NULL), 0);
    /* empty framebuffers */
    kf3ds_framebuffer_clear(&empty, 0);
    kf3ds_framebuffer_clear(&neg, 0);
    kf3ds_framebuffer_clear(NULL, 0);
    assert_int_equal(kf3ds_raster_triangle(&empty, &v, big, col, 0), 0);
    kf3ds_raster_line(&empty, &v, a, b, 0, 0);
    kf3ds_raster_line(NULL, &v, a, b, 0, 0);
    kf3ds_raster_text(&empty, 0, 0, "x", 0, 1);
    kf3ds_raster_text(NULL, 0, 0, "x", 0, 1);
    kf3ds_raster_text(&pic.fb, 0, 0, NULL, 0, 1);
    kf3ds_render_scene(NULL, NULL, &v, NULL, &pic.fb, NULL);
    kf3ds_render_scene(NULL, NULL, NULL, NULL, NULL, NULL);
    kf3ds_renderer_free(NULL);
    assert_null(kf3ds_renderer_create(NULL, NULL));
    assert_int_equal(kf3ds_scene_bounds(NULL, NULL, NULL, NULL), 0);
    assert_int_equal(kf3ds_view_from_camera(NULL, 0, NULL, &v), 0);
    pic_free(&pic);
}

/* A scene with bad vertices, faces and poses renders without harm (written
 * raw: the builder refuses non-finite points). */
static void test_hostile_scene(void **state)
{
    static const float pts[18] = { NAN, 0, 0, 1, 0, 0, 0, 1, 0, 1e30f, 1e30f, 0,
                                   INFINITY, 0, 0, 0, 0, 1 };
    static const uint16_t faces[15] = { 0, 1, 2, 1, 2, 3, 2, 3, 4, 1, 2, 5, 1, 1, 1 };
    const float zero[3] = { 0, 0, 0 };
    kf3ds_scene *s;
    kf3ds_pose poses[1];
    kf3ds_renderer *r;
    kf3ds_view v;
    kf3ds_render_options o;
    kf3ds_render_stats st;
    picture pic;
    float mn[3], mx[3];
    int shade;
    w3ds w;
    (void)state;
    memset(poses, 0, sizeof poses); /* poses are zero-initialised before the first call */
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_mesh(&w, "Bad", pts, 6, faces, 5, NULL, NULL);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "Bad", 0, 0xFFFF, zero);
    support_end_all(&w);
    s = support_load_w3ds(&w, NULL, NULL);
    memset(poses, 0, sizeof poses);
    kf3ds_scene_eval(s, 0.0, 0, poses);
    assert_int_equal(kf3ds_scene_bounds(s, poses, mn, mx), 1);
    kf3ds_view_orbit(mn, mx, 30, 20, 45, 4.0f / 3.0f, &v); /* must not crash */
    {
        const float eye[3] = { 0.3f, -5, 2 }, tgt[3] = { 0.3f, 0.3f, 0.3f };
        look_at(&v, eye, tgt, 60, 0.1f, 100);
    }
    r = kf3ds_renderer_create(s, NULL);
    assert_non_null(r);
    pic_init(&pic, 64, 48);
    memset(&o, 0, sizeof o);
    o.overlays = 0x3F;
    for (shade = 0; shade < 4; shade++) {
        o.shading = (kf3ds_shading)shade;
        kf3ds_render_scene(r, poses, &v, &o, &pic.fb, &st);
        assert_int_equal(st.triangles_submitted, 5);
    }
    /* a poisoned pose */
    poses[0].world.m[0][0] = NAN;
    poses[0].world.m[1][3] = INFINITY;
    kf3ds_render_scene(r, poses, &v, &o, &pic.fb, &st);
    kf3ds_render_scene(r, NULL, &v, &o, &pic.fb, &st);
    kf3ds_renderer_free(r);
    pic_free(&pic);
    kf3ds_scene_free(s);
}

/* An object node hidden by its NODE_HDR flag (0x800) is not drawn; a dummy
 * has no mesh; with overlays the dummy's box and the hierarchy appear. */
static void test_hidden_and_dummy(void **state)
{
    float pts[24];
    uint16_t faces[36];
    const float zero[3] = { 0, 0, 0 }, eye[3] = { 0, -10, 0 }, tgt[3] = { 0, 0, 0 };
    kf3ds_view v;
    picture pic;
    int hide, box[4];
    (void)state;
    cube(pts, faces);
    look_at(&v, eye, tgt, 90.0f, 0.1f, 100.0f);
    pic_init(&pic, 200, 200);
    for (hide = 0; hide < 2; hide++) {
        kf3ds_scene *s;
        kf3ds_render_stats st;
        kf3ds_builder *b = support_builder();
        int32_t holder, cube_node;
        add_mesh(b, "Cube", pts, 8, faces, NULL, NULL, 12, NULL, NULL);
        holder = support_build_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE, zero);
        kf3ds_builder_node_instance(b, holder, "Holder");
        cube_node = support_build_node(b, KF3DS_NODE_OBJECT, "Cube", holder, zero);
        kf3ds_builder_node_flags(b, cube_node, (uint16_t)(hide ? 0x800 : 0), 0);
        s = support_build_scene(b);
        assert_int_equal(s->num_nodes, 2);
        assert_true(s->nodes[0].is_dummy);
        render(s, &v, KF3DS_SHADE_SMOOTH, 0, &pic, &st);
        assert_int_equal(st.triangles_submitted, hide ? 0 : 12);
        assert_int_equal(drawn_box(&pic, BG, box), hide ? 0 : 22 * 22);
        render(s, &v, KF3DS_SHADE_SMOOTH, KF3DS_OVERLAY_HIERARCHY | KF3DS_OVERLAY_NAMES, &pic,
               &st);
        assert_true(drawn_box(&pic, BG, box) > (hide ? 0 : 22 * 22));
        kf3ds_scene_free(s);
    }
    pic_free(&pic);
}

/* Editor lights on a white square facing the camera: an omni light on the
 * left brightens the left corners; switched off (DL_OFF), ignored through
 * no_file_lights, or a spot aimed elsewhere, and both sides are alike. */
static void add_light(kf3ds_builder *b, const float pos[3], int off, const float *spot_target,
                      float falloff)
{
    const float white[3] = { 1, 1, 1 };
    kf3ds_light l = support_light("Lamp", pos, white, spot_target, falloff * 0.5f, falloff);
    l.off = (uint8_t)off;
    kf3ds_builder_add_light(b, &l);
}

static void render_lit(const float *lamp, int off, const float *spot_target, int no_file_lights,
                       uint32_t *left, uint32_t *right)
{
    static const float pts[12] = { -2, 0, -1, 2, 0, -1, 2, 0, 1, -2, 0, 1 };
    static const uint16_t faces[6] = { 0, 1, 2, 0, 2, 3 };
    static const uint32_t smoothing[2] = { 1, 1 };
    const float eye[3] = { 0, -10, 0 }, tgt[3] = { 0, 0, 0 };
    kf3ds_scene *s;
    kf3ds_renderer *r;
    kf3ds_render_options o;
    kf3ds_view v;
    picture pic;
    kf3ds_builder *b = support_builder();
    add_material(b, "W", 255, 255, 255, 0);
    add_mesh(b, "Sq", pts, 4, faces, NULL, smoothing, 2, NULL, "W");
    if (lamp)
        add_light(b, lamp, off, spot_target, 60.0f);
    s = support_build_scene(b);
    assert_int_equal(s->num_lights, lamp ? 1 : 0);
    look_at(&v, eye, tgt, 40.0f, 0.1f, 100.0f);
    pic_init(&pic, 160, 120);
    memset(&o, 0, sizeof o);
    o.background = BG;
    o.no_file_lights = (uint8_t)no_file_lights;
    r = kf3ds_renderer_create(s, NULL);
    kf3ds_render_scene(r, NULL, &v, &o, &pic.fb, NULL);
    /* f = 60/tan 20° = 164.8: the square spans 80 ± 33 across, 60 ± 16.5 */
    *left = px(&pic, 50, 60);
    *right = px(&pic, 110, 60);
    assert_int_not_equal(*left, BG);
    assert_int_not_equal(*right, BG);
    kf3ds_renderer_free(r);
    pic_free(&pic);
    kf3ds_scene_free(s);
}

static void test_lights(void **state)
{
    /* omni at the left; a spot over the left edge (cone half-angle 30°: the
     * left corners are 18° off its axis, the right ones 54°) or aimed away */
    const float lamp[3] = { -3, -1, 0 }, spot[3] = { -2, -3, 0 };
    const float away[3] = { -3, -10, 0 }, at_left[3] = { -2, 0, 0 };
    uint32_t l, rr, l0, r0;
    (void)state;
    render_lit(NULL, 0, NULL, 0, &l0, &r0);
    assert_int_equal(l0, r0);
    render_lit(lamp, 0, NULL, 0, &l, &rr);
    assert_true((l & 0xFF) > (rr & 0xFF) + 20);
    render_lit(lamp, 0, NULL, 1, &l, &rr);
    assert_int_equal(l, l0);
    assert_int_equal(rr, r0);
    render_lit(lamp, 1, NULL, 0, &l, &rr);
    assert_int_equal(l, l0);
    assert_int_equal(rr, r0);
    render_lit(lamp, 0, away, 0, &l, &rr);
    assert_int_equal(l, rr);
    render_lit(spot, 0, at_left, 0, &l, &rr);
    assert_true((l & 0xFF) > (rr & 0xFF) + 20);
}

/* The renderer's memory comes from the caller's allocator; a failure at any
 * point gives NULL and leaks nothing. */
typedef struct budget {
    long live, calls, fail_at;
} budget;

static void *budget_malloc(size_t n, void *user)
{
    budget *b = (budget *)user;
    if (++b->calls == b->fail_at)
        return NULL;
    b->live++;
    return malloc(n);
}

static void budget_free(void *p, void *user)
{
    budget *b = (budget *)user;
    if (p)
        b->live--;
    free(p);
}

static void test_allocator(void **state)
{
    float pts[24];
    uint16_t faces[36];
    kf3ds_scene *s;
    long k, total;
    kf3ds_builder *b = support_builder();
    (void)state;
    cube(pts, faces);
    add_material(b, "RED", 255, 0, 0, 1);
    add_mesh(b, "A", pts, 8, faces, NULL, NULL, 12, NULL, "RED");
    add_mesh(b, "B", pts, 8, faces, NULL, NULL, 6, NULL, NULL);
    s = support_build_scene(b);
    {
        budget b = { 0, 0, -1 };
        kf3ds_allocator a = { budget_malloc, budget_free, NULL };
        kf3ds_renderer *r;
        a.user = &b;
        r = kf3ds_renderer_create(s, &a);
        assert_non_null(r);
        total = b.calls;
        assert_true(total >= 2); /* its arena and the scratch arena of creation, at least */
        kf3ds_renderer_free(r);
        assert_int_equal(b.live, 0);
        a.free_fn = NULL; /* half an allocator is refused, not replaced by malloc */
        assert_null(kf3ds_renderer_create(s, &a));
        assert_int_equal(b.calls, total);
    }
    for (k = 1; k <= total; k++) {
        budget b = { 0, 0, 0 };
        kf3ds_allocator a = { budget_malloc, budget_free, NULL };
        b.fail_at = k;
        a.user = &b;
        assert_null(kf3ds_renderer_create(s, &a));
        assert_int_equal(b.live, 0);
    }
    kf3ds_scene_free(s);
}

/* ---- the corpus ---- */

/* Whether anything visible moves between two poses by more than 2% of the
 * scene's size: a mesh vertex of a shown object, or a camera or light. */
static int world_moved(const kf3ds_scene *s, const kf3ds_pose *a, const kf3ds_pose *b,
                       float size)
{
    uint32_t i, v;
    for (i = 0; i < s->num_nodes; i++) {
        const kf3ds_node *n = &s->nodes[i];
        int r;
        if (n->type == KF3DS_NODE_AMBIENT || n->type == KF3DS_NODE_TARGET ||
            n->type == KF3DS_NODE_LTARGET)
            continue;
        if (n->type == KF3DS_NODE_OBJECT) {
            kf3ds_mat4 ma, mb;
            const kf3ds_mesh *m;
            if (a[i].hidden != b[i].hidden)
                return 1;
            if (a[i].hidden || n->mesh < 0 || a[i].morph_mesh != b[i].morph_mesh)
                continue;
            kf3ds_node_mesh_matrix(s, i, &a[i], &ma);
            kf3ds_node_mesh_matrix(s, i, &b[i], &mb);
            m = &s->meshes[n->mesh];
            for (v = 0; v < m->num_points; v++) {
                float pa[3], pb[3];
                kf3ds_mat4_transform_point(&ma, m->points[v], pa);
                kf3ds_mat4_transform_point(&mb, m->points[v], pb);
                for (r = 0; r < 3; r++)
                    if (fabsf(pa[r] - pb[r]) > size * 0.02f)
                        return 1;
            }
            continue;
        }
        for (r = 0; r < 3; r++)
            if (fabsf(a[i].world.m[r][3] - b[i].world.m[r][3]) > size * 0.02f)
                return 1;
    }
    return 0;
}

/* The 160x120 orbit view of the bounds of `poses` (a unit box when there are
 * none), which are left in mn, mx. */
static void frame_bounds(const kf3ds_scene *s, const kf3ds_pose *poses, float mn[3], float mx[3],
                         kf3ds_view *v)
{
    if (!kf3ds_scene_bounds(s, poses, mn, mx)) {
        mn[0] = mn[1] = mn[2] = -1;
        mx[0] = mx[1] = mx[2] = 1;
    }
    kf3ds_view_orbit(mn, mx, 30.0f, 25.0f, 45.0f, 160.0f / 120.0f, v);
}

/* One corpus file with nodes, at the start, middle and end of its segment:
 * every frame draws something in every mode, a scene that moves gives
 * different pictures, and each camera's view renders. counts[0] counts the
 * files, counts[1] those that move. */
static void render_corpus_file(const char *path, const char *name, void *user)
{
    int *counts = (int *)user;
    size_t len = strlen(name);
    kf3ds_scene *s;
    kf3ds_renderer *r;
    kf3ds_pose *poses[3];
    uint32_t *pics[3];
    float mn[3], mx[3], size;
    double frames[3];
    int f, moved = 0, differs = 0, k;
    kf3ds_view v;
    kf3ds_render_options o;
    picture pic;
    if ((len > 4 && !strcmp(name + len - 4, ".txt")) || !strcmp(name, "MANIFEST.tsv"))
        return;
    s = kf3ds_load_file(path, NULL, NULL);
    if (!s)
        return;
    if (s->num_nodes == 0) {
        kf3ds_scene_free(s);
        return;
    }
    counts[0]++;
    r = kf3ds_renderer_create(s, NULL);
    assert_non_null(r);
    frames[0] = s->segment_start;
    frames[2] = s->segment_end;
    frames[1] = 0.5 * (frames[0] + frames[2]);
    pic_init(&pic, 160, 120);
    for (f = 0; f < 3; f++) {
        poses[f] = (kf3ds_pose *)calloc(s->num_nodes, sizeof(kf3ds_pose));
        pics[f] = (uint32_t *)malloc(160 * 120 * sizeof(uint32_t));
        assert_non_null(poses[f]);
        assert_non_null(pics[f]);
        kf3ds_scene_eval(s, frames[f], 0, poses[f]);
    }
    memset(&o, 0, sizeof o);
    o.background = BG;
    for (f = 0; f < 3; f++) {
        kf3ds_render_stats st;
        int box[4];
        /* framing this frame: something is drawn */
        frame_bounds(s, poses[f], mn, mx, &v);
        o.shading = KF3DS_SHADE_SMOOTH;
        o.overlays = 0;
        kf3ds_render_scene(r, poses[f], &v, &o, &pic.fb, &st);
        if (drawn_box(&pic, BG, box) == 0) {
            print_error("%s: frame %g is empty (%u triangles, box %g %g %g .. %g %g %g)\n",
                        name, frames[f], st.triangles_submitted, mn[0], mn[1], mn[2], mx[0],
                        mx[1], mx[2]);
            fail();
        }
        /* the other modes and every overlay, for robustness */
        o.overlays = 0x3F;
        o.shading = KF3DS_SHADE_FLAT;
        kf3ds_render_scene(r, poses[f], &v, &o, &pic.fb, NULL);
        o.shading = KF3DS_SHADE_WIRE;
        kf3ds_render_scene(r, poses[f], &v, &o, &pic.fb, NULL);
    }
    /* one view for the three frames (framing the first) to compare them:
     * smooth, with cameras, lights and the hierarchy */
    frame_bounds(s, poses[0], mn, mx, &v);
    size = sqrtf((mx[0] - mn[0]) * (mx[0] - mn[0]) + (mx[1] - mn[1]) * (mx[1] - mn[1]) +
                 (mx[2] - mn[2]) * (mx[2] - mn[2]));
    o.shading = KF3DS_SHADE_SMOOTH;
    o.overlays = KF3DS_OVERLAY_CAMERAS | KF3DS_OVERLAY_LIGHTS | KF3DS_OVERLAY_HIERARCHY;
    for (f = 0; f < 3; f++) {
        kf3ds_render_scene(r, poses[f], &v, &o, &pic.fb, NULL);
        memcpy(pics[f], pic.fb.color, 160 * 120 * sizeof(uint32_t));
    }
    for (f = 0; f < 3; f++) {
        int g = (f + 1) % 3;
        if (world_moved(s, poses[f], poses[g], size)) {
            moved = 1;
            if (memcmp(pics[f], pics[g], 160 * 120 * sizeof(uint32_t)) != 0)
                differs = 1;
        }
    }
    if (moved) {
        counts[1]++;
        if (!differs) {
            print_error("%s: the scene moves but the pictures are equal\n", name);
            fail();
        }
    }
    /* through each camera, too */
    for (k = 0; k < (int)s->num_nodes; k++) {
        if (s->nodes[k].type != KF3DS_NODE_CAMERA)
            continue;
        assert_int_equal(kf3ds_view_from_camera(s, (uint32_t)k, poses[1], &v), 1);
        o.has_camera_node = 1;
        o.camera_node = (uint32_t)k;
        o.overlays = 0x3F;
        kf3ds_render_scene(r, poses[1], &v, &o, &pic.fb, NULL);
    }
    for (f = 0; f < 3; f++) {
        free(poses[f]);
        free(pics[f]);
    }
    pic_free(&pic);
    kf3ds_renderer_free(r);
    kf3ds_scene_free(s);
}

static void test_corpus(void **state)
{
    int counts[2] = { 0, 0 };
    (void)state;
    if (support_corpus_each(render_corpus_file, counts) < 0) {
        skip();
        return;
    }
    fprintf(stderr, "corpus: %d files with nodes rendered, %d of them move\n", counts[0],
            counts[1]);
    assert_true(counts[0] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_rectangle),
        cmocka_unit_test(test_near_plane_clip),
        cmocka_unit_test(test_depth_order),
        cmocka_unit_test(test_mirrored_culling),
        cmocka_unit_test(test_back_faces_drawn),
        cmocka_unit_test(test_convex_hidden_faces),
        cmocka_unit_test(test_smoothing_groups),
        cmocka_unit_test(test_wireframe_edge_flags),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_label),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_camera_view),
        cmocka_unit_test(test_hostile_input),
        cmocka_unit_test(test_hostile_scene),
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_lights),
        cmocka_unit_test(test_hidden_and_dummy),
        cmocka_unit_test(test_corpus),
    };
    return support_run_tests(tests, NULL, NULL);
}
