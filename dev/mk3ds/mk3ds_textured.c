/* Textured files: the sample data/textured.3ds with its pictures, and the
 * textured render benchmark.
 *
 *   mk3ds samples DIR                 also DIR/textured.3ds, DIR/brick.bmp,
 *                                     DIR/checker.cel, DIR/glass.bmp
 *   mk3ds bench-render-textured FILE  the bench-render spheres with texture
 *                                     coordinates and a texture map each
 *
 * The sample: a brick box spinning a full turn over a checkered floor (an
 * Animator CEL, tiled four times), behind a half-transparent pane whose
 * opacity map is a vertical ramp, under a vertical gradient background, seen
 * by a camera and lit by a spot. The file stores the map names in capitals
 * (BRICK.BMP, CHECKER.CEL, GLASS.BMP) as 3D Studio did, the pictures are
 * written in lower case: finding them needs the case-insensitive lookup. */
#include "mk3ds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pictures ------------------------------------------------------------- */

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, unsigned long v)
{
    put16(p, (unsigned)(v & 0xFFFF));
    put16(p + 2, (unsigned)(v >> 16));
}

static void write_bytes(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        die("cannot write %s", path);
}

/* A 24-bit BMP (rows bottom-up, padded to 4 bytes) of w×h 0xRRGGBB pixels,
 * top row first. */
static void write_bmp(const char *path, const uint32_t *px, int w, int h)
{
    size_t row = ((size_t)w * 3 + 3) & ~(size_t)3, size = 54 + row * (size_t)h;
    unsigned char *b = xrealloc(NULL, size);
    int x, y;
    memset(b, 0, size);
    b[0] = 'B';
    b[1] = 'M';
    put32(b + 2, size);
    put32(b + 10, 54);
    put32(b + 14, 40);
    put32(b + 18, (unsigned long)w);
    put32(b + 22, (unsigned long)h);
    put16(b + 26, 1);
    put16(b + 28, 24);
    put32(b + 34, row * (size_t)h);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            uint32_t c = px[(size_t)(h - 1 - y) * (size_t)w + (size_t)x];
            unsigned char *o = b + 54 + (size_t)y * row + 3 * (size_t)x;
            o[0] = (unsigned char)c;
            o[1] = (unsigned char)(c >> 8);
            o[2] = (unsigned char)(c >> 16);
        }
    write_bytes(path, b, size);
    free(b);
}

/* An Animator 1 CEL: the 32-byte header (magic 0x9119, size, depth 8), a
 * palette in 6-bit units, w×h indices, top row first. */
static void write_cel(const char *path, const unsigned char *idx, const uint8_t pal[256][3], int w,
                      int h)
{
    size_t size = 800 + (size_t)w * (size_t)h;
    unsigned char *b = xrealloc(NULL, size);
    int i;
    memset(b, 0, 800);
    put16(b, 0x9119);
    put16(b + 2, (unsigned)w);
    put16(b + 4, (unsigned)h);
    b[10] = 8;
    put32(b + 12, (unsigned long)w * (unsigned long)h);
    for (i = 0; i < 256; i++) {
        b[32 + 3 * i] = (unsigned char)(pal[i][0] >> 2);
        b[33 + 3 * i] = (unsigned char)(pal[i][1] >> 2);
        b[34 + 3 * i] = (unsigned char)(pal[i][2] >> 2);
    }
    memcpy(b + 800, idx, (size_t)w * (size_t)h);
    write_bytes(path, b, size);
    free(b);
}

#define BRICK_W 128
#define BRICK_H 64

/* Bricks of 32×16 texels, every other row offset by half a brick, in mortar
 * two texels wide; the brick colour varies a little from brick to brick. */
static void make_brick(uint32_t *px)
{
    int x, y;
    for (y = 0; y < BRICK_H; y++)
        for (x = 0; x < BRICK_W; x++) {
            int row = y / 16, xs = (x + (row & 1) * 16) % BRICK_W, col = xs / 32;
            int mortar = y % 16 < 2 || xs % 32 < 2;
            int shade = ((row * 7 + col * 13) % 5) * 10 + ((x * 3 + y * 5) % 7);
            px[y * BRICK_W + x] = mortar ? 0xC8C0B0u
                                         : ((uint32_t)(150 + shade) << 16) |
                                               ((uint32_t)(60 + shade / 2) << 8) |
                                               (uint32_t)(40 + shade / 3);
        }
}

#define CHECK_SIDE 64

/* An 8×8 checkerboard of two palette colours. */
static void make_checker(unsigned char *idx, uint8_t pal[256][3])
{
    int x, y;
    memset(pal, 0, 256 * 3);
    pal[1][0] = 236, pal[1][1] = 232, pal[1][2] = 220;
    pal[2][0] = 52, pal[2][1] = 72, pal[2][2] = 120;
    for (y = 0; y < CHECK_SIDE; y++)
        for (x = 0; x < CHECK_SIDE; x++)
            idx[y * CHECK_SIDE + x] = (unsigned char)(((x / 8 + y / 8) & 1) ? 2 : 1);
}

/* ---- building ------------------------------------------------------------- */

/* A textured mesh: points around its own origin, stored where the origin
 * (ox, oy, oz) puts them with MESH_MATRIX the translation there, one (u, v)
 * per point, faces with one smoothing group (or none), all in `material`. */
static void textured_mesh(kf3ds_builder *b, const char *name, const float *pts, const float *uv,
                          uint32_t n, const uint16_t *faces, uint32_t nf, uint32_t smoothing,
                          const char *material, double ox, double oy, double oz)
{
    float *placed = xrealloc(NULL, (size_t)n * 3 * sizeof *placed);
    uint32_t *groups = xrealloc(NULL, (nf ? nf : 1) * sizeof *groups);
    float mf[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    int32_t mesh;
    uint32_t i;
    mf[9] = (float)ox;
    mf[10] = (float)oy;
    mf[11] = (float)oz;
    for (i = 0; i < n; i++) {
        placed[3 * i] = (float)(pts[3 * i] + ox);
        placed[3 * i + 1] = (float)(pts[3 * i + 1] + oy);
        placed[3 * i + 2] = (float)(pts[3 * i + 2] + oz);
    }
    mesh = build_mesh(b, name, placed, n, faces, nf, mf, NULL);
    kf3ds_builder_mesh_texcoords(b, mesh, (const float(*)[2])uv, n);
    kf3ds_builder_mesh_material(b, mesh, material, NULL, 0);
    if (smoothing) {
        for (i = 0; i < nf; i++)
            groups[i] = smoothing;
        kf3ds_builder_mesh_smoothing(b, mesh, groups);
    }
    check_builder(b, name);
    free(groups);
    free(placed);
}

static void byte_color(float out[3], const uint8_t c[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = c[i] / 255.0f;
}

/* A map at full strength: its file, tiling bits and scale. */
static void set_map(kf3ds_texture_map *m, const char *file, uint16_t tiling, float scale)
{
    m->file = file;
    m->strength = 1.0f;
    m->tiling = tiling;
    m->u_scale = m->v_scale = scale;
}

/* A material: colours, Phong shading, and its maps. */
static void textured_material(kf3ds_builder *b, const char *name, const uint8_t diffuse[3],
                              int shininess, int transparency, const char *texmap, float scale,
                              const char *opacmap)
{
    static const uint8_t amb[3] = { 40, 40, 40 }, spec[3] = { 230, 230, 230 };
    kf3ds_material m;
    memset(&m, 0, sizeof m);
    m.name = name;
    byte_color(m.ambient, amb);
    byte_color(m.diffuse, diffuse);
    byte_color(m.specular, spec);
    m.shininess = shininess / 100.0f;
    m.shin_strength = 60 / 100.0f;
    m.transparency = transparency / 100.0f;
    m.shading = 3;
    m.two_sided = opacmap != NULL;
    if (texmap)
        set_map(&m.texture1, texmap, 0, scale);
    if (opacmap)
        set_map(&m.opacity, opacmap, KF3DS_TILE_NONE, 1.0f);
    kf3ds_builder_add_material(b, &m);
    check_builder(b, name);
}

/* A box of side 2·h centred on the origin, each face with the whole map
 * (24 points, 12 faces, counter-clockwise from outside). */
static void box_mesh(float h, float pts[72], float uv[48], uint16_t faces[36])
{
    static const int axes[6][3] = { { 0, 1, 2 }, { 0, 1, 2 }, { 1, 2, 0 },
                                    { 1, 2, 0 }, { 2, 0, 1 }, { 2, 0, 1 } };
    static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    int f, k;
    for (f = 0; f < 6; f++) {
        int u = axes[f][0], v = axes[f][1], n = axes[f][2];
        float side = f & 1 ? 1.0f : -1.0f;
        for (k = 0; k < 4; k++) {
            float *p = pts + 3 * (4 * f + k);
            /* on the negative side the corners go the other way round */
            float cu = side > 0 ? corner[k][0] : -corner[k][0];
            p[u] = h * cu;
            p[v] = h * corner[k][1];
            p[n] = h * side;
            uv[2 * (4 * f + k)] = 0.5f * (corner[k][0] + 1);
            uv[2 * (4 * f + k) + 1] = 0.5f * (corner[k][1] + 1);
        }
        faces[6 * f] = (uint16_t)(4 * f);
        faces[6 * f + 1] = (uint16_t)(4 * f + 1);
        faces[6 * f + 2] = (uint16_t)(4 * f + 2);
        faces[6 * f + 3] = (uint16_t)(4 * f);
        faces[6 * f + 4] = (uint16_t)(4 * f + 2);
        faces[6 * f + 5] = (uint16_t)(4 * f + 3);
    }
}

/* A rectangle of half sides a (along `right`) and b (along `up`), the map
 * once over it, (u, v) = (right, up): counter-clockwise seen from the side
 * right × up points to. */
static void quad_mesh(int right, int up, float a, float b, float pts[12], float uv[8],
                      uint16_t faces[6])
{
    static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    int k;
    memset(pts, 0, 12 * sizeof *pts);
    for (k = 0; k < 4; k++) {
        pts[3 * k + right] = a * corner[k][0];
        pts[3 * k + up] = b * corner[k][1];
        uv[2 * k] = 0.5f * (corner[k][0] + 1);
        uv[2 * k + 1] = 0.5f * (corner[k][1] + 1);
    }
    faces[0] = 0, faces[1] = 1, faces[2] = 2, faces[3] = 0, faces[4] = 2, faces[5] = 3;
}

/* An object node at `pos` with a track of rotation keys every `step`
 * frames: none but the rest key, or four quarter turns about Z. */
static int32_t spinning_node(kf3ds_builder *b, const char *name, const float pos[3], int spin,
                             int32_t step)
{
    int32_t n = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, name, KF3DS_NONE);
    int k;
    build_constant_track(b, n, KF3DS_TRACK_POS, pos, 3);
    for (k = 0; k < (spin ? 5 : 1); k++) {
        kf3ds_key key;
        memset(&key, 0, sizeof key);
        key.frame = k * step;
        key.value[0] = k ? 1.5707963f : 0.0f;
        key.value[3] = 1;
        kf3ds_builder_add_key(b, n, KF3DS_TRACK_ROT, &key);
    }
    check_builder(b, name);
    return n;
}

/* A node of the sample: its NODE_ID, its position, a rotation key every 15
 * frames when it spins, scale 1. */
static void object_node(kf3ds_builder *b, const char *name, uint16_t id, const float pos[3],
                        int spin)
{
    static const float one[3] = { 1, 1, 1 };
    int32_t n = spinning_node(b, name, pos, spin, 15);
    kf3ds_builder_node_id(b, n, id);
    build_constant_track(b, n, KF3DS_TRACK_SCL, one, 3);
    check_builder(b, name);
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = xrealloc(NULL, n);
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

void make_textured(const char *dir)
{
    static const uint8_t white[3] = { 255, 255, 255 }, glass[3] = { 120, 180, 255 };
    static const float sky[3][3] = { { 0.18f, 0.28f, 0.55f }, /* top, middle, bottom */
                                     { 0.62f, 0.70f, 0.82f },
                                     { 0.30f, 0.26f, 0.22f } };
    uint32_t brick[BRICK_W * BRICK_H], ramp[16 * 64];
    unsigned char checker[CHECK_SIDE * CHECK_SIDE];
    uint8_t pal[256][3];
    float bpts[72], buv[48], qpts[12], quv[8];
    uint16_t bfaces[36], qfaces[6];
    const float box_pos[3] = { 0, 0, 6 }, floor_pos[3] = { 0, 0, 0 }, pane_pos[3] = { 0, -12, 6 };
    const float cam_pos[3] = { 30, -46, 24 }, cam_tgt[3] = { 0, 0, 4 };
    const float light_pos[3] = { -20, -30, 50 }, light_col[3] = { 0.9f, 0.9f, 0.85f };
    kf3ds_environment env;
    kf3ds_camera cam;
    kf3ds_light spot;
    kf3ds_builder *b;
    char *p;
    int i, y;

    make_brick(brick);
    p = join(dir, "brick.bmp");
    write_bmp(p, brick, BRICK_W, BRICK_H);
    free(p);
    make_checker(checker, pal);
    p = join(dir, "checker.cel");
    write_cel(p, checker, (const uint8_t(*)[3])pal, CHECK_SIDE, CHECK_SIDE);
    free(p);
    for (y = 0; y < 64; y++) /* opaque at the top, clear at the bottom */
        for (i = 0; i < 16; i++)
            ramp[y * 16 + i] = (uint32_t)(255 - y * 4) * 0x010101u;
    p = join(dir, "glass.bmp");
    write_bmp(p, ramp, 16, 64);
    free(p);

    b = kf3ds_builder_create(NULL);
    if (!b)
        die("out of memory");
    /* a vertical gradient background, switched on */
    memset(&env, 0, sizeof env);
    env.background = KF3DS_BACKGROUND_GRADIENT;
    env.gradient_mid = 0.4f;
    memcpy(env.gradient, sky, sizeof sky);
    kf3ds_builder_environment(b, &env);
    textured_material(b, "Brick", white, 30, 0, "BRICK.BMP", 1.0f, NULL);
    textured_material(b, "Floor", white, 10, 0, "CHECKER.CEL", 4.0f, NULL);
    textured_material(b, "Glass", glass, 70, 40, NULL, 1.0f, "GLASS.BMP");
    box_mesh(5, bpts, buv, bfaces);
    textured_mesh(b, "Box", bpts, buv, 24, bfaces, 12, 0, "Brick", box_pos[0], box_pos[1],
                  box_pos[2]);
    quad_mesh(0, 1, 20, 20, qpts, quv, qfaces); /* x × y: facing up */
    textured_mesh(b, "Floor", qpts, quv, 4, qfaces, 2, 0, "Floor", 0, 0, 0);
    quad_mesh(0, 2, 9, 6, qpts, quv, qfaces); /* x × z = −y: facing the camera */
    textured_mesh(b, "Pane", qpts, quv, 4, qfaces, 2, 0, "Glass", pane_pos[0], pane_pos[1],
                  pane_pos[2]);
    memset(&cam, 0, sizeof cam);
    cam.name = "Cam01";
    memcpy(cam.position, cam_pos, sizeof cam.position);
    memcpy(cam.target, cam_tgt, sizeof cam.target);
    cam.lens = 35;
    kf3ds_builder_add_camera(b, &cam);
    memset(&spot, 0, sizeof spot);
    spot.name = "Spot01";
    memcpy(spot.position, light_pos, sizeof spot.position);
    memcpy(spot.color, light_col, sizeof spot.color);
    spot.multiplier = 1.0f;
    spot.spot = 1;
    memcpy(spot.target, floor_pos, sizeof spot.target);
    spot.hotspot = 40;
    spot.falloff = 70;
    kf3ds_builder_add_light(b, &spot);
    check_builder(b, "textured");

    kf3ds_builder_keyframer(b, "textured", 60, 0, 60);
    object_node(b, "Box", 0, box_pos, 1);
    object_node(b, "Floor", 1, floor_pos, 0);
    object_node(b, "Pane", 2, pane_pos, 0);
    p = join(dir, "textured.3ds");
    save_built(b, p, NULL, NULL);
    free(p);
}

/* ---- the textured benchmark ---------------------------------------------- */

#define BT_MESHES 100
#define BT_LAT 20
#define BT_LON 25

/* The bench-render layout (a 10 × 10 grid of spheres of 1,000 triangles,
 * each spinning a turn about Z over 0..100) with a seam column so that
 * every sphere wraps its map once around (u) and once from pole to pole (v),
 * and a texture map named CHECKER.PNG on every material (kf3ds-bench
 * --textured makes the picture itself). */
void make_bench_render_textured(const char *path)
{
    static const uint8_t white[3] = { 220, 220, 220 };
    enum { NP = (BT_LAT + 1) * (BT_LON + 1) };
    float pts[NP * 3], uv[NP * 2];
    uint16_t faces[2 * BT_LAT * BT_LON * 3];
    uint32_t nf = 0;
    int i, a, k;
    char name[32];
    kf3ds_builder *b;

    for (a = 0; a < BT_LAT; a++)
        for (k = 0; k < BT_LON; k++) {
            uint16_t v0 = (uint16_t)(a * (BT_LON + 1) + k), v1 = (uint16_t)(v0 + 1);
            uint16_t v2 = (uint16_t)(v0 + BT_LON + 1), v3 = (uint16_t)(v1 + BT_LON + 1);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }
    b = kf3ds_builder_create(NULL);
    if (!b)
        die("out of memory");
    textured_material(b, "Checker", white, 20, 0, "CHECKER.PNG", 1.0f, NULL);
    for (i = 0; i < BT_MESHES; i++) {
        for (a = 0; a <= BT_LAT; a++)
            for (k = 0; k <= BT_LON; k++) {
                double th = PI * a / BT_LAT, ph = 2 * PI * k / BT_LON;
                float *p = pts + 3 * (a * (BT_LON + 1) + k);
                p[0] = (float)(10.0 * sin(th) * cos(ph));
                p[1] = (float)(10.0 * sin(th) * sin(ph));
                p[2] = (float)(10.0 * cos(th));
                uv[2 * (a * (BT_LON + 1) + k)] = (float)k / BT_LON;
                uv[2 * (a * (BT_LON + 1) + k) + 1] = 1.0f - (float)a / BT_LAT;
            }
        snprintf(name, sizeof name, "Ball%03d", i);
        textured_mesh(b, name, pts, uv, NP, faces, nf, 1, "Checker", 0, 0, 0);
    }
    kf3ds_builder_keyframer(b, "benchtex", 100, 0, 100);
    for (i = 0; i < BT_MESHES; i++) {
        const float pos[3] = { (float)((i % 10) * 30.0), (float)((i / 10) * 30.0), 0 };
        snprintf(name, sizeof name, "Ball%03d", i);
        spinning_node(b, name, pos, 1, 25);
    }
    save_built(b, path, NULL, NULL);
}
