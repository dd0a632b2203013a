/* The pictures a caller gives the renderer (kf3ds_renderer_set_map,
 * kf3ds_renderer_set_background) and the map placements from the file.
 *
 * A picture is copied once: resampled to power-of-two sides (the nearest
 * power of two, at most KF3DS__MAX_SIDE; averaging the source pixels each
 * texel covers when shrinking, linear between them when growing), the map's
 * meaning baked into its texels (below), then halved level by level into its
 * mipmaps (2×2 averages). Sampling (raster_shaded.c) then only looks texels
 * up. What a texel holds, per map (docs/format.md, 'Materials'):
 *   texture 1: the surface colour, diffuse·(1 − k) + picture·k with
 *              k = strength × the picture's alpha (1 with the ignore-alpha bit);
 *   texture 2: the same premultiplied, (picture·k, k), laid over texture 1;
 *   opacity:   alpha = (1 − strength) + strength × the picture's luminance
 *              (its alpha with the alpha-source bit), white opaque;
 * the negative bit inverts the picture first. The tiling bits choose how the
 * map continues outside 0..1: repeated, mirrored, or not at all (no-tile and
 * decal, or the material's decal flag). */
#include "renderer.h"
#include <stdlib.h>
#include <string.h>

#define KF3DS__MAX_SIDE 1024     /* texels a side: 4 MB a map with its mipmaps */

/* ---- placements ---------------------------------------------------------- */

/* The map's placement as an affine map of (u, v), centred on the middle of
 * the map (docs/format.md, 'Texture mapping'):
 *     (s, t) = c + S·R(θ)·((u, v) − c − (u_offset, −v_offset)),  c = (½, ½),
 * S = diag(u_scale, v_scale), R the turn by θ = rotation (degrees)
 * counter-clockwise. */
static void map_placement(const kf3ds_texture_map *m, float out[6])
{
    double th = (double)m->rotation * KF3DS__DEG2RAD, c = cos(th), s = sin(th);
    double su = m->u_scale, sv = m->v_scale;
    double dx = -0.5 - m->u_offset, dy = -0.5 + m->v_offset;
    out[0] = (float)(su * c);
    out[1] = (float)(-su * s);
    out[2] = (float)(su * (c * dx - s * dy) + 0.5);
    out[3] = (float)(sv * s);
    out[4] = (float)(sv * c);
    out[5] = (float)(sv * (s * dx + c * dy) + 0.5);
}

static int map_wrap(const kf3ds_material *mat, const kf3ds_texture_map *m)
{
    if ((m->tiling & KF3DS_TILE_NONE) || mat->decal)
        return KF3DS__WRAP_NONE;
    return m->tiling & KF3DS_TILE_MIRROR ? KF3DS__WRAP_MIRROR : KF3DS__WRAP_TILE;
}

static const kf3ds_map_kind slot_kind[KF3DS__MAX_MAPS] = { KF3DS_MAP_TEXTURE1,
                                                           KF3DS_MAP_TEXTURE2,
                                                           KF3DS_MAP_OPACITY };

void kf3ds__prepare_maps(kf3ds_renderer *r)
{
    const kf3ds_scene *s = r->scene;
    uint32_t i;
    int k;
    for (i = 0; i < s->num_materials; i++)
        for (k = 0; k < KF3DS__MAX_MAPS; k++) {
            const kf3ds_texture_map *m = kf3ds_material_map(&s->materials[i], slot_kind[k]);
            map_placement(m, r->materials[i].uv[k]);
            r->materials[i].maps[k].wrap = map_wrap(&s->materials[i], m);
        }
}

/* ---- resampling ---------------------------------------------------------- */

/* The power of two nearest n (in ratio), at most KF3DS__MAX_SIDE. */
static int pow2_log(int n)
{
    int k = 0;
    while (k < 10 && (1 << k) * 3 < n * 2) /* 2^k < n / 1.5: the next is nearer */
        k++;
    return k;
}

/* One line of RGBA floats: n source values at stride ss into m at stride
 * ds (strides in floats). */
static void resample_line(const float *src, int n, size_t ss, float *dst, int m, size_t ds)
{
    double r = (double)n / (double)m;
    int i, j, c;
    for (i = 0; i < m; i++) {
        float *o = dst + (size_t)i * ds;
        if (r > 1.0) { /* the source pixels the texel covers, partly at its ends */
            double x0 = i * r, x1 = (i + 1) * r, sum[4] = { 0, 0, 0, 0 };
            int j0 = (int)x0, j1 = (int)x1;
            if (j1 >= n)
                j1 = n - 1;
            for (j = j0; j <= j1; j++) {
                double lo = j > x0 ? j : x0, hi = j + 1 < x1 ? j + 1 : x1, wgt = hi - lo;
                if (wgt <= 0)
                    continue;
                for (c = 0; c < 4; c++)
                    sum[c] += wgt * src[(size_t)j * ss + (size_t)c];
            }
            for (c = 0; c < 4; c++)
                o[c] = (float)(sum[c] / r);
        } else { /* linear between the two nearest, edges held */
            double x = (i + 0.5) * r - 0.5, f;
            int a, b;
            if (x < 0)
                x = 0;
            a = (int)x;
            if (a > n - 1)
                a = n - 1;
            b = a + 1 < n ? a + 1 : a;
            f = x - a;
            for (c = 0; c < 4; c++)
                o[c] = (float)((1 - f) * src[(size_t)a * ss + (size_t)c] +
                               f * src[(size_t)b * ss + (size_t)c]);
        }
    }
}

static void *map_alloc(kf3ds_renderer *r, size_t n, size_t size)
{
    if (size && n > ((size_t)-1) / size)
        return NULL;
    return r->allocator.malloc_fn(n * size, r->allocator.user);
}

static void map_free(kf3ds_renderer *r, void *p)
{
    if (p)
        r->allocator.free_fn(p, r->allocator.user);
}

/* What the texel of a picture pixel (RGBA 0..1) becomes, per kind of map. */
typedef struct bake {
    int slot;                    /* 0 texture 1, 1 texture 2, 2 opacity, -1 background */
    float strength;
    uint16_t tiling;
    float diffuse[3];
} bake;

static uint32_t bake_texel(const bake *b, const float in[4])
{
    float c[3], a = in[3], k, out[4];
    int i;
    for (i = 0; i < 3; i++) {
        c[i] = in[i] < 0.0f ? 0.0f : (in[i] > 1.0f ? 1.0f : in[i]);
        if (b->tiling & KF3DS_TILE_NEGATIVE)
            c[i] = 1.0f - c[i];
    }
    a = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    if (b->tiling & KF3DS_TILE_IGNORE_ALPHA)
        a = 1.0f;
    switch (b->slot) {
    case 0:
        k = b->strength * a;
        for (i = 0; i < 3; i++)
            out[i] = b->diffuse[i] * (1.0f - k) + c[i] * k;
        out[3] = 1.0f;
        break;
    case 1:
        k = b->strength * a;
        for (i = 0; i < 3; i++)
            out[i] = c[i] * k;
        out[3] = k;
        break;
    case 2: {
        float o = (b->tiling & KF3DS_TILE_ALPHA_SOURCE) ? in[3]
                                                          : 0.299f * c[0] + 0.587f * c[1] +
                                                                0.114f * c[2];
        if ((b->tiling & KF3DS_TILE_ALPHA_SOURCE) && (b->tiling & KF3DS_TILE_NEGATIVE))
            o = 1.0f - o;
        out[0] = out[1] = out[2] = o;
        out[3] = (1.0f - b->strength) + b->strength * o;
        break;
    }
    default:
        out[0] = c[0];
        out[1] = c[1];
        out[2] = c[2];
        out[3] = 1.0f;
        break;
    }
    return ((uint32_t)(kf3ds__clamp01(out[3]) * 255.0f + 0.5f) << 24) |
           (kf3ds__pack_rgb(out[0], out[1], out[2]) & 0xFFFFFFu);
}

/* The 2×2 average of level k into level k + 1. */
static void halve(const uint32_t *src, int lw, int lh, uint32_t *dst)
{
    int w = 1 << lw, h = 1 << lh, nw = lw ? w / 2 : 1, nh = lh ? h / 2 : 1, x, y, c;
    for (y = 0; y < nh; y++)
        for (x = 0; x < nw; x++) {
            int x0 = lw ? 2 * x : 0, y0 = lh ? 2 * y : 0, x1 = lw ? x0 + 1 : 0,
                y1 = lh ? y0 + 1 : 0;
            uint32_t p[4], out = 0;
            p[0] = src[y0 * w + x0];
            p[1] = src[y0 * w + x1];
            p[2] = src[y1 * w + x0];
            p[3] = src[y1 * w + x1];
            for (c = 0; c < 32; c += 8) {
                uint32_t sum = ((p[0] >> c) & 0xFF) + ((p[1] >> c) & 0xFF) + ((p[2] >> c) & 0xFF) +
                               ((p[3] >> c) & 0xFF);
                out |= ((sum + 2) / 4) << c;
            }
            dst[y * nw + x] = out;
        }
}

static int image_ok(const kf3ds_image *img)
{
    return img && img->pixels && img->width > 0 && img->height > 0 &&
           img->width <= KF3DS__MAX_DIM && img->height <= KF3DS__MAX_DIM;
}

/* Builds tex (its wrap mode kept) from the picture. Returns 0 when out of
 * memory (tex then has no picture). */
static int build_texture(kf3ds_renderer *r, kf3ds__texture *tex, const kf3ds_image *img,
                         const bake *b)
{
    int lw = pow2_log(img->width), lh = pow2_log(img->height), W = 1 << lw, H = 1 << lh;
    int w = img->width, h = img->height, x, y, k, levels;
    size_t total = 0;
    float *src = (float *)map_alloc(r, (size_t)w * (size_t)h, 4 * sizeof(float));
    float *mid = (float *)map_alloc(r, (size_t)W * (size_t)h, 4 * sizeof(float));
    float *dst = (float *)map_alloc(r, (size_t)W * (size_t)H, 4 * sizeof(float));
    uint32_t *texels = NULL;
    map_free(r, tex->texels);
    tex->texels = NULL;
    for (levels = 0; levels < KF3DS__MAX_LEVELS; levels++) {
        int a = lw - levels > 0 ? lw - levels : 0, c = lh - levels > 0 ? lh - levels : 0;
        tex->level_offset[levels] = (uint32_t)total;
        total += (size_t)1 << (a + c);
        if (a == 0 && c == 0) {
            levels++;
            break;
        }
    }
    if (src && mid && dst)
        texels = (uint32_t *)map_alloc(r, total, sizeof *texels);
    if (!texels) {
        map_free(r, src);
        map_free(r, mid);
        map_free(r, dst);
        return 0;
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            uint32_t p = img->pixels[(size_t)y * (size_t)w + (size_t)x];
            float *o = src + 4 * ((size_t)y * (size_t)w + (size_t)x);
            o[0] = (float)((p >> 16) & 0xFF) / 255.0f;
            o[1] = (float)((p >> 8) & 0xFF) / 255.0f;
            o[2] = (float)(p & 0xFF) / 255.0f;
            o[3] = (float)(p >> 24) / 255.0f;
        }
    for (y = 0; y < h; y++)
        resample_line(src + 4 * (size_t)y * (size_t)w, w, 4, mid + 4 * (size_t)y * (size_t)W, W, 4);
    for (x = 0; x < W; x++)
        resample_line(mid + 4 * (size_t)x, h, 4 * (size_t)W, dst + 4 * (size_t)x, H, 4 * (size_t)W);
    for (k = 0; k < W * H; k++)
        texels[k] = bake_texel(b, dst + 4 * (size_t)k);
    for (k = 0; k + 1 < levels; k++) {
        int a = lw - k > 0 ? lw - k : 0, c = lh - k > 0 ? lh - k : 0;
        halve(texels + tex->level_offset[k], a, c, texels + tex->level_offset[k + 1]);
    }
    map_free(r, src);
    map_free(r, mid);
    map_free(r, dst);
    tex->texels = texels;
    tex->log2w = lw;
    tex->log2h = lh;
    tex->levels = levels;
    return 1;
}

/* ---- the public calls ---------------------------------------------------- */

/* Which materials draw shaded or blended, from what is given now. */
void kf3ds__update_material(kf3ds__render_material *m)
{
    m->blended = m->opacity < 1.0f || m->additive || m->maps[2].texels != NULL;
    m->shaded = m->blended || m->maps[0].texels || m->maps[1].texels;
}

int kf3ds_renderer_set_map(kf3ds_renderer *r, uint32_t material, kf3ds_map_kind kind,
                           const kf3ds_image *image)
{
    const kf3ds_material *mat;
    const kf3ds_texture_map *m;
    kf3ds__render_material *rm;
    bake b;
    int slot;
    if (!r || material >= r->scene->num_materials)
        return -1;
    for (slot = 0; slot < KF3DS__MAX_MAPS && slot_kind[slot] != kind; slot++)
        continue;
    if (slot == KF3DS__MAX_MAPS)
        return (unsigned)kind < KF3DS_MAP_COUNT ? 0 : -1;
    mat = &r->scene->materials[material];
    m = kf3ds_material_map(mat, kind);
    rm = &r->materials[material];
    if (!image) {
        map_free(r, rm->maps[slot].texels);
        rm->maps[slot].texels = NULL;
        kf3ds__update_material(rm);
        return 1;
    }
    if (!image_ok(image))
        return -1;
    b.slot = slot;
    b.strength = kf3ds__clamp01(m->strength);
    b.tiling = m->tiling;
    memcpy(b.diffuse, rm->diffuse, sizeof b.diffuse);
    if (!build_texture(r, &rm->maps[slot], image, &b)) {
        kf3ds__update_material(rm);
        return -1;
    }
    kf3ds__update_material(rm);
    return 1;
}

int kf3ds_renderer_set_background(kf3ds_renderer *r, const kf3ds_image *image)
{
    bake b;
    if (!r)
        return -1;
    if (!image) {
        map_free(r, r->background.texels);
        r->background.texels = NULL;
        return 1;
    }
    if (!image_ok(image))
        return -1;
    memset(&b, 0, sizeof b);
    b.slot = -1;
    r->background.wrap = KF3DS__WRAP_NONE;
    return build_texture(r, &r->background, image, &b) ? 1 : -1;
}

void kf3ds__free_maps(kf3ds_renderer *r)
{
    uint32_t i;
    int k;
    for (i = 0; r->materials && i <= r->scene->num_materials; i++)
        for (k = 0; k < KF3DS__MAX_MAPS; k++)
            map_free(r, r->materials[i].maps[k].texels);
    map_free(r, r->background.texels);
}
