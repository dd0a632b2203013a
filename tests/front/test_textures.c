/* The renderer's materials and environment on generated scenes, every
 * expected pixel computed here, independently of the renderer:
 *  - the texture mapping formula (docs/format.md, 'Texture mapping'): scale,
 *    offset and angle, v up, repetition; the tiling bits mirror, no-tile and
 *    negative; a second map; strength;
 *  - transparency, additive transparency and opacity maps over a known
 *    background;
 *  - backgrounds (solid, gradient, bitmap; none when not in effect) and
 *    atmospheres (fog, distance cue, layer fog).
 * The scenes are built (support_build.h); how the loader reads those chunks
 * is test_environment's. The quad under test faces the camera squarely, so
 * its texture coordinates are affine in screen space and each pixel's (u, v)
 * follows from the projection. A self-illuminated material shows its
 * surface colour exactly. */
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

#define W 200
#define H 200
#define FOV 60.0
#define DIST 2.5       /* the camera's distance from the quad */
#define TEX 8          /* the test picture: 8×8 texels in 2×2 blocks of one colour */
#define BG 0xFF102030u

/* ---- the scene ---------------------------------------------------------- */

typedef struct map_params {
    const char *file;
    int pct;                     /* strength */
    uint16_t tiling;
    float u_scale, v_scale, u_offset, v_offset, angle;
} map_params;

typedef struct quad_params {
    float uv0[2], uv1[2];        /* (u, v) at the corners (−1, −1) and (1, 1) */
    uint8_t diffuse[3];
    int self_illum;              /* 1: MAT_SELF_ILLUM, the surface colour as it is */
    int transparency;            /* percent */
    int additive;
    map_params tex1, tex2, opac;
} quad_params;

/* The map as loading gives a map chunk with these values. */
static kf3ds_texture_map map_of(const map_params *m)
{
    kf3ds_texture_map t = support_map(m->file);
    t.strength = (float)m->pct / 100.0f; /* INT_PERCENTAGE, as the loader divides */
    t.tiling = m->tiling;
    t.u_scale = m->u_scale;
    t.v_scale = m->v_scale;
    t.u_offset = m->u_offset;
    t.v_offset = m->v_offset;
    t.rotation = m->angle;
    return t;
}

/* The quad [−1, 1]² in the plane y = 0, facing −y (towards the camera),
 * with its material; `environment` (may be NULL) sets the background and
 * atmosphere. */
static kf3ds_scene *quad_scene(const quad_params *q, void (*environment)(kf3ds_environment *))
{
    float uv[8];
    kf3ds_builder *b = support_builder();
    kf3ds_material m = support_material("M", q->diffuse);
    uv[0] = q->uv0[0], uv[1] = q->uv0[1];
    uv[2] = q->uv1[0], uv[3] = q->uv0[1];
    uv[4] = q->uv1[0], uv[5] = q->uv1[1];
    uv[6] = q->uv0[0], uv[7] = q->uv1[1];
    if (environment) {
        kf3ds_environment e;
        memset(&e, 0, sizeof e);
        environment(&e);
        kf3ds_builder_environment(b, &e);
    }
    m.self_illum_flag = (uint8_t)q->self_illum;
    m.additive = (uint8_t)q->additive;
    m.transparency = (float)q->transparency / 100.0f;
    if (q->tex1.file)
        m.texture1 = map_of(&q->tex1);
    if (q->tex2.file)
        m.texture2 = map_of(&q->tex2);
    if (q->opac.file)
        m.opacity = map_of(&q->opac);
    kf3ds_builder_add_material(b, &m);
    support_build_textured_quad(b, "Quad", uv, "M");
    return support_build_scene(b);
}

/* The test picture: block (bx, by) of 2×2 texels, top row first. */
static uint32_t block_colour(int bx, int by)
{
    return 0xFF000000u | ((uint32_t)(20 + 60 * bx) << 16) | ((uint32_t)(20 + 60 * by) << 8) |
           (uint32_t)(10 + 15 * (bx + 4 * by));
}

static void test_picture(uint32_t px[TEX * TEX])
{
    int x, y;
    for (y = 0; y < TEX; y++)
        for (x = 0; x < TEX; x++)
            px[y * TEX + x] = block_colour(x / 2, y / 2);
}

typedef struct frame {
    uint32_t color[W * H];
    float depth[W * H];
} frame;

/* The camera at (0, −DIST, 0) looking along +y, z up. */
static void camera(kf3ds_view *v, float dist)
{
    memset(v, 0, sizeof *v);
    v->view.m[0][0] = 1;
    v->view.m[1][2] = 1;
    v->view.m[2][1] = -1;
    v->view.m[2][3] = -dist;
    v->view.m[3][3] = 1;
    v->fov_y_degrees = (float)FOV;
    v->near_plane = 0.1f;
    v->far_plane = 1000.0f;
}

/* Renders the scene with the test picture on every map the material names
 * (picture: NULL for the default), through the renderer's own API. */
static void render_scene(const kf3ds_scene *s, const uint32_t *picture, unsigned background,
                         frame *f)
{
    uint32_t px[TEX * TEX];
    kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
    kf3ds_render_options o;
    kf3ds_framebuffer fb;
    kf3ds_image img;
    kf3ds_view v;
    int k;
    assert_non_null(r);
    test_picture(px);
    img.pixels = picture ? picture : px;
    img.width = img.height = TEX;
    for (k = 0; k < 3; k++) {
        const kf3ds_map_kind kind = k == 0 ? KF3DS_MAP_TEXTURE1 : k == 1 ? KF3DS_MAP_TEXTURE2
                                                                         : KF3DS_MAP_OPACITY;
        if (kf3ds_material_map(&s->materials[0], kind)->file[0])
            assert_int_equal(kf3ds_renderer_set_map(r, 0, kind, &img), 1);
    }
    assert_int_equal(kf3ds_renderer_set_map(r, 0, KF3DS_MAP_BUMP, &img), 0); /* not drawn */
    camera(&v, (float)DIST);
    memset(&o, 0, sizeof o);
    o.background = background;
    fb.color = f->color;
    fb.depth = f->depth;
    fb.width = W;
    fb.height = H;
    kf3ds_render_scene(r, NULL, &v, &o, &fb, NULL);
    kf3ds_renderer_free(r);
}

/* ---- the mapping, computed here ----------------------------------------- */

/* The (u, v) the quad has at pixel (x, y), from the projection: screen x =
 * W/2 + f·X/d, screen y = H/2 − f·Z/d. Returns 0 near the quad's edges. */
static int pixel_uv(const quad_params *q, int x, int y, double uv[2])
{
    double f = H / 2.0 / tan(FOV * 0.5 * 3.14159265358979323846 / 180.0);
    double X = (x + 0.5 - W / 2.0) * DIST / f, Z = (H / 2.0 - (y + 0.5)) * DIST / f;
    if (fabs(X) > 0.95 || fabs(Z) > 0.95)
        return 0;
    uv[0] = q->uv0[0] + (X + 1) / 2 * (q->uv1[0] - q->uv0[0]);
    uv[1] = q->uv0[1] + (Z + 1) / 2 * (q->uv1[1] - q->uv0[1]);
    return 1;
}

/* The map's placement: about the centre (½, ½), offset in map units (v
 * offset up), turned by the angle counter-clockwise, scaled. */
static void place(const map_params *m, const double uv[2], double st[2])
{
    double th = m->angle * 3.14159265358979323846 / 180.0;
    double du = uv[0] - 0.5 - m->u_offset, dv = uv[1] - 0.5 + m->v_offset;
    st[0] = 0.5 + m->u_scale * (cos(th) * du - sin(th) * dv);
    st[1] = 0.5 + m->v_scale * (sin(th) * du + cos(th) * dv);
}

/* Where in the picture (s, t) falls: *block (bx, by), 0 outside the map (no
 * tiling), -1 too near a block's edge for bilinear filtering to keep it. */
static int lookup(const map_params *m, const double st[2], int block[2])
{
    double c[2];
    int k;
    for (k = 0; k < 2; k++) {
        double s = st[k], fr = s - floor(s);
        if (m->tiling & KF3DS_TILE_NONE) {
            if (s < 0 || s >= 1)
                return 0;
            fr = s;
        } else if (m->tiling & KF3DS_TILE_MIRROR) {
            double r = 2 * fr;
            fr = r < 1 ? r : 2 - r;
        }
        c[k] = k == 0 ? fr * TEX : (1 - fr) * TEX; /* v up, rows down */
    }
    for (k = 0; k < 2; k++) {
        double in = fmod(c[k], 2.0);
        if (in < 0.6 || in > 1.4)
            return -1;
        block[k] = (int)(c[k] / 2);
        if (block[k] > TEX / 2 - 1)
            return -1;
    }
    return 1;
}

static uint32_t rgb_of(const uint8_t c[3])
{
    return 0xFF000000u | ((uint32_t)c[0] << 16) | ((uint32_t)c[1] << 8) | c[2];
}

static uint32_t invert(uint32_t c)
{
    return (c ^ 0x00FFFFFFu) | 0xFF000000u;
}

/* Checks every pixel of the quad whose texel is certain; returns how many. */
static long check_mapping(const quad_params *q, const frame *f)
{
    long checked = 0, outside = 0;
    int x, y;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            double uv[2], st[2];
            int block[2], where;
            uint32_t want, got = f->color[y * W + x];
            if (!pixel_uv(q, x, y, uv))
                continue;
            place(&q->tex1, uv, st);
            where = lookup(&q->tex1, st, block);
            if (where < 0)
                continue;
            want = where ? block_colour(block[0], block[1]) : rgb_of(q->diffuse);
            if (where && (q->tex1.tiling & KF3DS_TILE_NEGATIVE))
                want = invert(want);
            if (got != want)
                fail_msg("pixel (%d, %d): uv (%.4f, %.4f) -> st (%.4f, %.4f): got 0x%08X, "
                         "want 0x%08X", x, y, uv[0], uv[1], st[0], st[1], (unsigned)got,
                         (unsigned)want);
            checked++;
            outside += !where;
        }
    if (q->tex1.tiling & KF3DS_TILE_NONE)
        assert_true(outside > 100); /* the material's colour around the map */
    return checked;
}

static quad_params base_quad(void)
{
    quad_params q;
    memset(&q, 0, sizeof q);
    q.uv1[0] = q.uv1[1] = 1;
    q.diffuse[0] = 200, q.diffuse[1] = 100, q.diffuse[2] = 50;
    q.self_illum = 1;
    q.tex1.file = "TEST.PNG";
    q.tex1.pct = 100;
    q.tex1.u_scale = q.tex1.v_scale = 1;
    return q;
}

static void run_mapping(const quad_params *q)
{
    static frame f;
    kf3ds_scene *s = quad_scene(q, NULL);
    render_scene(s, NULL, BG, &f);
    assert_true(check_mapping(q, &f) > 2000);
    kf3ds_scene_free(s);
}

/* (u, v) over 0..1: the picture once, its top row at v = 1 (v up). */
static void test_uv_orientation(void **state)
{
    static frame f;
    quad_params q = base_quad();
    kf3ds_scene *s;
    (void)state;
    s = quad_scene(&q, NULL);
    render_scene(s, NULL, BG, &f);
    /* (u, v) = (0.14, 0.86), near the upper-left corner: the picture's first
     * block; (0.87, 0.13) its last */
    assert_int_equal(f.color[48 * W + 48], block_colour(0, 0));
    assert_int_equal(f.color[151 * W + 151], block_colour(3, 3));
    assert_int_equal(f.color[5 * W + 5], BG);
    kf3ds_scene_free(s);
    run_mapping(&q);
}

/* Scale, offset and angle, each alone and together, and repetition of
 * coordinates far outside 0..1. */
static void test_mapping_formula(void **state)
{
    static const struct {
        float uv0[2], uv1[2], us, vs, uo, vo, ang;
    } cases[] = {
        { { -1, -1 }, { 2, 2 }, 1, 1, 0, 0, 0 },          /* three copies each way */
        { { 0, 0 }, { 1, 1 }, 2, 3, 0, 0, 0 },            /* scale about the centre */
        { { 0, 0 }, { 1, 1 }, 1, 1, 0.25f, 0.125f, 0 },   /* offset: u right, v up */
        { { 0, 0 }, { 1, 1 }, 1, 1, 0, 0, 30 },           /* a turn */
        { { 0, 0 }, { 1, 1 }, 1.5f, 0.75f, -0.3f, 0.2f, -50 },
        { { 3, -7 }, { 5.5f, -4 }, 1, 1, 1, 1, 90 },
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        quad_params q = base_quad();
        memcpy(q.uv0, cases[i].uv0, sizeof q.uv0);
        memcpy(q.uv1, cases[i].uv1, sizeof q.uv1);
        q.tex1.u_scale = cases[i].us;
        q.tex1.v_scale = cases[i].vs;
        q.tex1.u_offset = cases[i].uo;
        q.tex1.v_offset = cases[i].vo;
        q.tex1.angle = cases[i].ang;
        support_set_what("mapping case %lu", (unsigned long)i);
        run_mapping(&q);
    }
}

/* The tiling bits: mirror (two mirrored copies a unit), no tiling (the
 * material's colour outside 0..1), negative (the picture inverted). */
static void test_tiling_bits(void **state)
{
    static const uint16_t bits[] = { KF3DS_TILE_MIRROR, KF3DS_TILE_NONE, KF3DS_TILE_NEGATIVE,
                                     KF3DS_TILE_NONE | KF3DS_TILE_NEGATIVE };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        quad_params q = base_quad();
        q.uv0[0] = q.uv0[1] = -0.5f;
        q.uv1[0] = q.uv1[1] = 1.5f;
        q.tex1.tiling = bits[i];
        q.tex1.angle = 10;
        support_set_what("tiling 0x%03X", (unsigned)bits[i]);
        run_mapping(&q);
    }
}

/* Strength: a 50 % map shows half picture, half diffuse colour; a second
 * map at 100 % covers the first. */
static void test_strength_and_second_map(void **state)
{
    static frame f;
    quad_params q = base_quad();
    kf3ds_scene *s;
    uint32_t got, want = block_colour(0, 0), d = 0xFFC86432u;
    int k;
    (void)state;
    q.tex1.pct = 50;
    s = quad_scene(&q, NULL);
    render_scene(s, NULL, BG, &f);
    got = f.color[48 * W + 48];
    for (k = 0; k < 24; k += 8)
        assert_near((got >> k) & 0xFF, 0.5 * ((want >> k) & 0xFF) + 0.5 * ((d >> k) & 0xFF), 1);
    kf3ds_scene_free(s);

    q = base_quad();
    q.tex2 = q.tex1;
    q.tex2.angle = 90; /* the second picture turned a quarter */
    s = quad_scene(&q, NULL);
    render_scene(s, NULL, BG, &f);
    {
        /* at the upper-left quarter, map 2 shows block (0, 3) turned there */
        double uv[2], st[2];
        int block[2];
        assert_true(pixel_uv(&q, 48, 48, uv));
        place(&q.tex2, uv, st);
        assert_int_equal(lookup(&q.tex2, st, block), 1);
        assert_int_equal(f.color[48 * W + 48], block_colour(block[0], block[1]));
        assert_int_not_equal(block_colour(block[0], block[1]), block_colour(0, 0));
    }
    kf3ds_scene_free(s);
}

/* ---- transparency --------------------------------------------------------- */

static uint32_t mix(uint32_t a, uint32_t b, double t)
{
    uint32_t out = 0xFF000000u;
    int k;
    for (k = 0; k < 24; k += 8)
        out |= (uint32_t)floor(((a >> k) & 0xFF) * (1 - t) + ((b >> k) & 0xFF) * t + 0.5) << k;
    return out;
}

static void expect_near_colour(uint32_t got, uint32_t want, const char *what)
{
    int k;
    for (k = 0; k < 24; k += 8)
        if (abs((int)((got >> k) & 0xFF) - (int)((want >> k) & 0xFF)) > 1)
            fail_msg("%s: got 0x%08X, want 0x%08X", what, (unsigned)got, (unsigned)want);
}

/* A 40 % transparent quad shows 60 % of itself over the background; an
 * additive one adds 60 % of itself; an opacity map makes white opaque and
 * black clear. */
static void test_transparency(void **state)
{
    static frame f;
    uint32_t ramp[TEX * TEX];
    quad_params q = base_quad();
    kf3ds_scene *s;
    uint32_t d = 0xFFC86432u;
    int i;
    (void)state;
    q.tex1.file = NULL;
    q.transparency = 40;
    s = quad_scene(&q, NULL);
    render_scene(s, NULL, BG, &f);
    expect_near_colour(f.color[100 * W + 100], mix(BG, d, 0.6), "transparent");
    assert_int_equal(f.color[5 * W + 5], BG);
    kf3ds_scene_free(s);

    q.additive = 1;
    s = quad_scene(&q, NULL);
    render_scene(s, NULL, BG, &f);
    expect_near_colour(f.color[100 * W + 100],
                       0xFF000000u | ((uint32_t)(0x10 + 0.6 * 200 + 0.5) << 16) |
                           ((uint32_t)(0x20 + 0.6 * 100 + 0.5) << 8) |
                           (uint32_t)(0x30 + 0.6 * 50 + 0.5),
                       "additive");
    kf3ds_scene_free(s);

    /* opacity map: the left half white (opaque), the right half black (clear) */
    for (i = 0; i < TEX * TEX; i++)
        ramp[i] = i % TEX < TEX / 2 ? 0xFFFFFFFFu : 0xFF000000u;
    q = base_quad();
    q.tex1.file = NULL;
    q.opac = base_quad().tex1;
    q.opac.file = "OPAC.PNG";
    s = quad_scene(&q, NULL);
    render_scene(s, ramp, BG, &f);
    assert_int_equal(f.color[100 * W + 60], d);
    assert_int_equal(f.color[100 * W + 140], BG);
    kf3ds_scene_free(s);
}

/* ---- backgrounds and atmospheres ----------------------------------------- */

static void env_solid(kf3ds_environment *e)
{
    e->solid[0] = 0.2f, e->solid[1] = 0.4f, e->solid[2] = 0.6f;
    e->background = KF3DS_BACKGROUND_SOLID;
}

/* The solid colour set, but not in effect. */
static void env_solid_unused(kf3ds_environment *e)
{
    env_solid(e);
    e->background = KF3DS_BACKGROUND_NONE;
}

static void env_gradient(kf3ds_environment *e)
{
    static const float grad[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }; /* top first */
    e->gradient_mid = 0.25f;
    memcpy(e->gradient, grad, sizeof e->gradient);
    e->background = KF3DS_BACKGROUND_GRADIENT;
}

static void env_bitmap(kf3ds_environment *e)
{
    e->bitmap = "SKY.GIF";
    e->background = KF3DS_BACKGROUND_BITMAP;
}

/* Fog from 0 % at distance 2 to 100 % at 4, white: the quad at 2.5 is 25 %
 * white; distance cue dims 50 % .. 100 % over 0 .. 5: 75 % at 2.5. */
static void env_fog(kf3ds_environment *e)
{
    e->fog_near = 2, e->fog_near_density = 0;
    e->fog_far = 4, e->fog_far_density = 1;
    e->fog_color[0] = e->fog_color[1] = e->fog_color[2] = 1;
    e->atmosphere = KF3DS_ATMOSPHERE_FOG;
}

static void env_cue(kf3ds_environment *e)
{
    e->cue_near = 0, e->cue_near_dim = 0.5f;
    e->cue_far = 5, e->cue_far_dim = 1;
    e->atmosphere = KF3DS_ATMOSPHERE_DISTANCE_CUE;
}

/* A layer of grey fog between heights −10 and 10 (the eye at 0, inside),
 * density 80 %: the quad 2.5 away is seen through 2.5 of the 20 thick layer:
 * 0.8 · 2.5 / 20 = 10 %. */
static void env_layer(kf3ds_environment *e)
{
    e->layer_bottom = -10, e->layer_top = 10, e->layer_density = 0.8f;
    e->layer_color[0] = e->layer_color[1] = e->layer_color[2] = 0.5f;
    e->atmosphere = KF3DS_ATMOSPHERE_LAYER_FOG;
}

static uint32_t pack(double r, double g, double b)
{
    return 0xFF000000u | ((uint32_t)floor(r * 255 + 0.5) << 16) |
           ((uint32_t)floor(g * 255 + 0.5) << 8) | (uint32_t)floor(b * 255 + 0.5);
}

static void test_backgrounds(void **state)
{
    static frame f;
    quad_params q = base_quad();
    kf3ds_scene *s;
    uint32_t sky[TEX * TEX];
    int i;
    (void)state;
    q.tex1.file = NULL;
    s = quad_scene(&q, env_solid);
    assert_int_equal(s->environment.background, KF3DS_BACKGROUND_SOLID);
    render_scene(s, NULL, BG, &f);
    assert_int_equal(f.color[3 * W + 3], pack(0.2, 0.4, 0.6));
    kf3ds_scene_free(s);

    /* a background not in effect is not drawn */
    s = quad_scene(&q, env_solid_unused);
    assert_int_equal(s->environment.background, KF3DS_BACKGROUND_NONE);
    render_scene(s, NULL, BG, &f);
    assert_int_equal(f.color[3 * W + 3], BG);
    kf3ds_scene_free(s);

    /* gradient: top red at row 0, green at a quarter of the height up from
     * the bottom, blue at the bottom row */
    s = quad_scene(&q, env_gradient);
    render_scene(s, NULL, BG, &f);
    assert_int_equal(f.color[0 * W + 3], pack(1, 0, 0));
    assert_int_equal(f.color[(H - 1) * W + 3], pack(0, 0, 1));
    {
        double u = 1.0 - 100.0 / (H - 1); /* row 100, from the bottom */
        double t = (u - 0.25) / 0.75;
        assert_int_equal(f.color[100 * W + 3], pack(t, 1 - t, 0));
    }
    kf3ds_scene_free(s);

    /* a bitmap, stretched over the frame (the caller gives the picture) */
    s = quad_scene(&q, env_bitmap);
    assert_string_equal(s->environment.bitmap, "SKY.GIF");
    {
        kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
        kf3ds_framebuffer fb;
        kf3ds_image img;
        kf3ds_view v;
        for (i = 0; i < TEX * TEX; i++)
            sky[i] = i < TEX * TEX / 2 ? 0xFF0000FFu : 0xFF00FF00u; /* top blue, bottom green */
        img.pixels = sky;
        img.width = img.height = TEX;
        assert_int_equal(kf3ds_renderer_set_background(r, &img), 1);
        camera(&v, (float)DIST);
        fb.color = f.color;
        fb.depth = f.depth;
        fb.width = W;
        fb.height = H;
        kf3ds_render_scene(r, NULL, &v, NULL, &fb, NULL);
        assert_int_equal(f.color[3 * W + 3], 0xFF0000FFu);
        assert_int_equal(f.color[(H - 3) * W + 3], 0xFF00FF00u);
        kf3ds_renderer_free(r);
    }
    kf3ds_scene_free(s);
}

static void test_atmospheres(void **state)
{
    static frame f;
    quad_params q = base_quad();
    kf3ds_scene *s;
    (void)state;
    q.tex1.file = NULL;
    q.diffuse[0] = 0, q.diffuse[1] = 0, q.diffuse[2] = 0; /* black: the fog alone shows */
    s = quad_scene(&q, env_fog);
    assert_int_equal(s->environment.atmosphere, KF3DS_ATMOSPHERE_FOG);
    render_scene(s, NULL, BG, &f);
    expect_near_colour(f.color[100 * W + 100], pack(0.25, 0.25, 0.25), "fog at 2.5");
    kf3ds_scene_free(s);

    q.diffuse[0] = 200, q.diffuse[1] = 100, q.diffuse[2] = 40;
    s = quad_scene(&q, env_cue);
    render_scene(s, NULL, BG, &f);
    expect_near_colour(f.color[100 * W + 100], pack(0.25 * 200 / 255.0, 0.25 * 100 / 255.0,
                                                    0.25 * 40 / 255.0),
                       "distance cue at 2.5");
    kf3ds_scene_free(s);

    s = quad_scene(&q, env_layer);
    render_scene(s, NULL, BG, &f);
    expect_near_colour(f.color[100 * W + 100],
                       pack(0.9 * 200 / 255.0 + 0.05, 0.9 * 100 / 255.0 + 0.05,
                            0.9 * 40 / 255.0 + 0.05),
                       "layer fog");
    kf3ds_scene_free(s);

    /* the atmosphere is left out on request */
    s = quad_scene(&q, env_fog);
    {
        kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
        kf3ds_render_options o;
        kf3ds_framebuffer fb;
        kf3ds_view v;
        camera(&v, (float)DIST);
        memset(&o, 0, sizeof o);
        o.no_file_environment = 1;
        fb.color = f.color;
        fb.depth = f.depth;
        fb.width = W;
        fb.height = H;
        kf3ds_render_scene(r, NULL, &v, &o, &fb, NULL);
        assert_int_equal(f.color[100 * W + 100], 0xFFC86428u);
        kf3ds_renderer_free(r);
    }
    kf3ds_scene_free(s);
}

/* Pictures out of range and bad arguments are refused without harm. */
static void test_bad_pictures(void **state)
{
    quad_params q = base_quad();
    kf3ds_scene *s = quad_scene(&q, NULL);
    kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
    uint32_t one = 0xFFFFFFFFu;
    kf3ds_image img;
    (void)state;
    img.pixels = &one;
    img.width = 0;
    img.height = 1;
    assert_int_equal(kf3ds_renderer_set_map(r, 0, KF3DS_MAP_TEXTURE1, &img), -1);
    img.width = 1;
    assert_int_equal(kf3ds_renderer_set_map(r, 5, KF3DS_MAP_TEXTURE1, &img), -1);
    assert_int_equal(kf3ds_renderer_set_map(r, 0, (kf3ds_map_kind)99, &img), -1);
    assert_int_equal(kf3ds_renderer_set_map(r, 0, KF3DS_MAP_TEXTURE1, &img), 1);
    assert_int_equal(kf3ds_renderer_set_map(r, 0, KF3DS_MAP_TEXTURE1, &img), 1); /* again */
    assert_int_equal(kf3ds_renderer_set_map(r, 0, KF3DS_MAP_TEXTURE1, NULL), 1);
    assert_int_equal(kf3ds_renderer_set_map(NULL, 0, KF3DS_MAP_TEXTURE1, &img), -1);
    img.pixels = NULL;
    assert_int_equal(kf3ds_renderer_set_background(r, &img), -1);
    kf3ds_renderer_free(r);
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_uv_orientation),
        support_unit_test(test_mapping_formula),
        support_unit_test(test_tiling_bits),
        support_unit_test(test_strength_and_second_map),
        support_unit_test(test_transparency),
        support_unit_test(test_backgrounds),
        support_unit_test(test_atmospheres),
        support_unit_test(test_bad_pictures),
    };
    return support_run_tests(tests, NULL, NULL);
}
