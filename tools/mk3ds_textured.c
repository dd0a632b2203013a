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

/* ---- writing -------------------------------------------------------------- */

/* A textured mesh: points around its own origin, stored where the origin
 * (ox, oy, oz) puts them with MESH_MATRIX the translation there, one (u, v)
 * per point, faces with one smoothing group (or none), all in `material`. */
static void textured_mesh(w3ds *w, const char *name, const float *pts, const float *uv, uint32_t n,
                          const uint16_t *faces, uint32_t nf, uint32_t smoothing,
                          const char *material, double ox, double oy, double oz)
{
    float mf[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    uint32_t i;
    mf[9] = (float)ox;
    mf[10] = (float)oy;
    mf[11] = (float)oz;
    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, name);
    w3ds_begin(w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(w, (uint16_t)n);
    for (i = 0; i < n; i++) {
        w3ds_f32(w, (float)(pts[3 * i] + ox));
        w3ds_f32(w, (float)(pts[3 * i + 1] + oy));
        w3ds_f32(w, (float)(pts[3 * i + 2] + oz));
    }
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_TEX_VERTS);
    w3ds_u16(w, (uint16_t)n);
    w3ds_f32v(w, uv, (size_t)n * 2);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_FACE_ARRAY);
    w3ds_u16(w, (uint16_t)nf);
    for (i = 0; i < nf; i++) {
        w3ds_u16(w, faces[3 * i]);
        w3ds_u16(w, faces[3 * i + 1]);
        w3ds_u16(w, faces[3 * i + 2]);
        w3ds_u16(w, 7);
    }
    w3ds_begin(w, KF3DS_CHUNK_MSH_MAT_GROUP);
    w3ds_cstr(w, material);
    w3ds_u16(w, (uint16_t)nf);
    for (i = 0; i < nf; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    if (smoothing) {
        w3ds_begin(w, KF3DS_CHUNK_SMOOTH_GROUP);
        for (i = 0; i < nf; i++)
            w3ds_u32(w, smoothing);
        w3ds_end(w);
    }
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MESH_MATRIX);
    w3ds_f32v(w, mf, 12);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

static void color24(w3ds *w, uint16_t id, const uint8_t c[3])
{
    w3ds_begin(w, id);
    w3ds_begin(w, KF3DS_CHUNK_COLOR_24);
    w3ds_u8(w, c[0]);
    w3ds_u8(w, c[1]);
    w3ds_u8(w, c[2]);
    w3ds_end(w);
    w3ds_end(w);
}

static void percent(w3ds *w, uint16_t id, int pct)
{
    w3ds_begin(w, id);
    w3ds_begin(w, KF3DS_CHUNK_INT_PERCENTAGE);
    w3ds_u16(w, (uint16_t)pct);
    w3ds_end(w);
    w3ds_end(w);
}

/* A map chunk: strength, name, tiling bits and scale. */
static void map_chunk(w3ds *w, uint16_t id, const char *file, int pct, uint16_t tiling,
                      float scale)
{
    w3ds_begin(w, id);
    w3ds_begin(w, KF3DS_CHUNK_INT_PERCENTAGE);
    w3ds_u16(w, (uint16_t)pct);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MAT_MAPNAME);
    w3ds_cstr(w, file);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MAT_MAP_TILING);
    w3ds_u16(w, tiling);
    w3ds_end(w);
    if (scale != 1.0f) {
        w3ds_begin(w, KF3DS_CHUNK_MAT_MAP_USCALE);
        w3ds_f32(w, scale);
        w3ds_end(w);
        w3ds_begin(w, KF3DS_CHUNK_MAT_MAP_VSCALE);
        w3ds_f32(w, scale);
        w3ds_end(w);
    }
    w3ds_end(w);
}

/* A material: colours, Phong shading, and its maps. */
static void textured_material(w3ds *w, const char *name, const uint8_t diffuse[3], int shininess,
                              int transparency, const char *texmap, float scale,
                              const char *opacmap)
{
    static const uint8_t amb[3] = { 40, 40, 40 }, spec[3] = { 230, 230, 230 };
    w3ds_begin(w, KF3DS_CHUNK_MAT_ENTRY);
    w3ds_begin(w, KF3DS_CHUNK_MAT_NAME);
    w3ds_cstr(w, name);
    w3ds_end(w);
    color24(w, KF3DS_CHUNK_MAT_AMBIENT, amb);
    color24(w, KF3DS_CHUNK_MAT_DIFFUSE, diffuse);
    color24(w, KF3DS_CHUNK_MAT_SPECULAR, spec);
    percent(w, KF3DS_CHUNK_MAT_SHININESS, shininess);
    percent(w, KF3DS_CHUNK_MAT_SHIN2PCT, 60);
    percent(w, KF3DS_CHUNK_MAT_TRANSPARENCY, transparency);
    w3ds_begin(w, KF3DS_CHUNK_MAT_SHADING);
    w3ds_u16(w, 3);
    w3ds_end(w);
    if (opacmap) {
        w3ds_begin(w, KF3DS_CHUNK_MAT_TWO_SIDE);
        w3ds_end(w);
    }
    if (texmap)
        map_chunk(w, KF3DS_CHUNK_MAT_TEXMAP, texmap, 100, 0, scale);
    if (opacmap)
        map_chunk(w, KF3DS_CHUNK_MAT_OPACMAP, opacmap, 100, KF3DS_TILE_NONE, 1.0f);
    w3ds_end(w);
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

static void object_node(w3ds *w, const char *name, uint16_t id, const float pos[3], int spin)
{
    int k;
    w3ds_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG);
    w3ds_begin(w, KF3DS_CHUNK_NODE_ID);
    w3ds_u16(w, id);
    w3ds_end(w);
    w3ds_node_hdr(w, name, 0, 0, W3DS_NO_PARENT);
    w3ds_begin(w, KF3DS_CHUNK_PIVOT);
    w3ds_f32v(w, (const float[3]){ 0, 0, 0 }, 3);
    w3ds_end(w);
    write_constant_track(w, KF3DS_CHUNK_POS_TRACK_TAG, pos, 3);
    w3ds_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG);
    w3ds_track_header(w, 0, spin ? 5 : 1);
    for (k = 0; k < (spin ? 5 : 1); k++) {
        w3ds_key_header(w, k * 15, NULL);
        w3ds_f32(w, k ? 1.5707963f : 0.0f);
        w3ds_f32(w, 0);
        w3ds_f32(w, 0);
        w3ds_f32(w, 1);
    }
    w3ds_end(w);
    write_constant_track(w, KF3DS_CHUNK_SCL_TRACK_TAG, (const float[3]){ 1, 1, 1 }, 3);
    w3ds_end(w);
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
    uint32_t brick[BRICK_W * BRICK_H], ramp[16 * 64];
    unsigned char checker[CHECK_SIDE * CHECK_SIDE];
    uint8_t pal[256][3];
    float bpts[72], buv[48], qpts[12], quv[8];
    uint16_t bfaces[36], qfaces[6];
    const float box_pos[3] = { 0, 0, 6 }, floor_pos[3] = { 0, 0, 0 }, pane_pos[3] = { 0, -12, 6 };
    const float cam[3] = { 30, -46, 24 }, tgt[3] = { 0, 0, 4 };
    const float light_pos[3] = { -20, -30, 50 }, light_col[3] = { 0.9f, 0.9f, 0.85f };
    w3ds w;
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

    start_file(&w);
    /* a vertical gradient background, switched on */
    w3ds_begin(&w, KF3DS_CHUNK_V_GRADIENT);
    w3ds_f32(&w, 0.4f);
    {
        static const float cols[3][3] = { { 0.18f, 0.28f, 0.55f },
                                          { 0.62f, 0.70f, 0.82f },
                                          { 0.30f, 0.26f, 0.22f } };
        for (i = 0; i < 3; i++) {
            w3ds_begin(&w, KF3DS_CHUNK_COLOR_F);
            w3ds_f32v(&w, cols[i], 3);
            w3ds_end(&w);
        }
    }
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_USE_V_GRADIENT);
    w3ds_end(&w);
    textured_material(&w, "Brick", white, 30, 0, "BRICK.BMP", 1.0f, NULL);
    textured_material(&w, "Floor", white, 10, 0, "CHECKER.CEL", 4.0f, NULL);
    textured_material(&w, "Glass", glass, 70, 40, NULL, 1.0f, "GLASS.BMP");
    box_mesh(5, bpts, buv, bfaces);
    textured_mesh(&w, "Box", bpts, buv, 24, bfaces, 12, 0, "Brick", box_pos[0], box_pos[1],
                  box_pos[2]);
    quad_mesh(0, 1, 20, 20, qpts, quv, qfaces); /* x × y: facing up */
    textured_mesh(&w, "Floor", qpts, quv, 4, qfaces, 2, 0, "Floor", 0, 0, 0);
    quad_mesh(0, 2, 9, 6, qpts, quv, qfaces); /* x × z = −y: facing the camera */
    textured_mesh(&w, "Pane", qpts, quv, 4, qfaces, 2, 0, "Glass", pane_pos[0], pane_pos[1],
                  pane_pos[2]);
    w3ds_camera(&w, "Cam01", cam, tgt, 0, 35);
    w3ds_light(&w, "Spot01", light_pos, light_col, floor_pos, 40, 70);
    w3ds_end(&w); /* MDATA */

    begin_kfdata(&w, "textured", 60, 0, 60);
    object_node(&w, "Box", 0, box_pos, 1);
    object_node(&w, "Floor", 1, floor_pos, 0);
    object_node(&w, "Pane", 2, pane_pos, 0);
    p = join(dir, "textured.3ds");
    finish_file(&w, p);
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
    int i, a, b, k;
    char name[32];
    w3ds w;

    for (a = 0; a < BT_LAT; a++)
        for (b = 0; b < BT_LON; b++) {
            uint16_t v0 = (uint16_t)(a * (BT_LON + 1) + b), v1 = (uint16_t)(v0 + 1);
            uint16_t v2 = (uint16_t)(v0 + BT_LON + 1), v3 = (uint16_t)(v1 + BT_LON + 1);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }
    start_file(&w);
    textured_material(&w, "Checker", white, 20, 0, "CHECKER.PNG", 1.0f, NULL);
    for (i = 0; i < BT_MESHES; i++) {
        for (a = 0; a <= BT_LAT; a++)
            for (b = 0; b <= BT_LON; b++) {
                double th = PI * a / BT_LAT, ph = 2 * PI * b / BT_LON;
                float *p = pts + 3 * (a * (BT_LON + 1) + b);
                p[0] = (float)(10.0 * sin(th) * cos(ph));
                p[1] = (float)(10.0 * sin(th) * sin(ph));
                p[2] = (float)(10.0 * cos(th));
                uv[2 * (a * (BT_LON + 1) + b)] = (float)b / BT_LON;
                uv[2 * (a * (BT_LON + 1) + b) + 1] = 1.0f - (float)a / BT_LAT;
            }
        snprintf(name, sizeof name, "Ball%03d", i);
        textured_mesh(&w, name, pts, uv, NP, faces, nf, 1, "Checker", 0, 0, 0);
    }
    w3ds_end(&w); /* MDATA */
    begin_kfdata(&w, "benchtex", 100, 0, 100);
    for (i = 0; i < BT_MESHES; i++) {
        const float pos[3] = { (float)((i % 10) * 30.0), (float)((i / 10) * 30.0), 0 };
        snprintf(name, sizeof name, "Ball%03d", i);
        w3ds_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG);
        w3ds_node_hdr(&w, name, 0, 0, W3DS_NO_PARENT);
        write_constant_track(&w, KF3DS_CHUNK_POS_TRACK_TAG, pos, 3);
        w3ds_begin(&w, KF3DS_CHUNK_ROT_TRACK_TAG);
        w3ds_track_header(&w, 0, 5);
        for (k = 0; k < 5; k++) {
            w3ds_key_header(&w, k * 25, NULL);
            w3ds_f32(&w, k ? 1.5707963f : 0.0f);
            w3ds_f32(&w, 0);
            w3ds_f32(&w, 0);
            w3ds_f32(&w, 1);
        }
        w3ds_end(&w);
        w3ds_end(&w);
    }
    finish_file(&w, path);
}
