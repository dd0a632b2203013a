/* Textured and blended triangles (raster.h, kf3ds__surface, says what a pixel
 * is made of).
 *  - Texture coordinates are interpolated perspective-correct: s·w, t·w and
 *    w = 1/d are linear on screen, s = (s·w)/w at every pixel. The lighting
 *    terms (add, mul) and the opacity are interpolated linearly on screen,
 *    like Gouraud colours.
 *  - Each map is sampled bilinearly on one mipmap level: the level whose
 *    texels are closest to one pixel, log2 of the larger of the two screen
 *    derivatives of the texel position, computed exactly at the corners from
 *    the gradients of s·w, t·w and w, and interpolated between them.
 *  - Opaque surfaces write depth; blended ones test it only, so that what is
 *    behind shows through them.
 * The edge setup and the spans are raster_edges.h's (the same pixels as
 * kf3ds__triangle covers), the clipping raster_clip.c's. */
#include "raster_edges.h"
#include <string.h>

/* ---- sampling ------------------------------------------------------------ */

/* s in [0, 1) by repetition, or mirrored repetition (two copies per unit,
 * the second one mirrored). Coordinates beyond ±2^23 carry no fraction. */
static inline float wrap_tile(float s)
{
    if (!(s > -8388608.0f && s < 8388608.0f))
        return 0.0f;
    return s - floorf(s);
}

static inline float wrap_mirror(float s)
{
    float r = 2.0f * wrap_tile(s);
    return r < 1.0f ? r : 2.0f - r;
}

/* Bilinear blend of four texels with weights fx, fy in 0..256. */
static inline uint32_t bilerp(uint32_t c00, uint32_t c10, uint32_t c01, uint32_t c11, uint32_t fx,
                              uint32_t fy)
{
    uint32_t gx = 256 - fx, gy = 256 - fy;
    uint32_t rb0 = ((c00 & 0x00FF00FFu) * gx + (c10 & 0x00FF00FFu) * fx) >> 8 & 0x00FF00FFu;
    uint32_t ag0 = (((c00 >> 8) & 0x00FF00FFu) * gx + ((c10 >> 8) & 0x00FF00FFu) * fx) >> 8 &
                   0x00FF00FFu;
    uint32_t rb1 = ((c01 & 0x00FF00FFu) * gx + (c11 & 0x00FF00FFu) * fx) >> 8 & 0x00FF00FFu;
    uint32_t ag1 = (((c01 >> 8) & 0x00FF00FFu) * gx + ((c11 >> 8) & 0x00FF00FFu) * fx) >> 8 &
                   0x00FF00FFu;
    uint32_t rb = (rb0 * gy + rb1 * fy) >> 8 & 0x00FF00FFu;
    uint32_t ag = (ag0 * gy + ag1 * fy) >> 8 & 0x00FF00FFu;
    return rb | (ag << 8);
}

int kf3ds__texture_sample(const kf3ds__texture *tex, float s, float t, int level, uint32_t *out)
{
    const uint32_t *texels;
    int lw, lh, W, H, xi, yi, x0, x1, y0, y1;
    float x, y;
    uint32_t fx, fy;
    if (!tex->texels)
        return 0;
    if (level >= tex->levels)
        level = tex->levels - 1;
    if (level < 0)
        level = 0;
    lw = tex->log2w - level > 0 ? tex->log2w - level : 0;
    lh = tex->log2h - level > 0 ? tex->log2h - level : 0;
    W = 1 << lw;
    H = 1 << lh;
    if (tex->wrap == KF3DS__WRAP_TILE) {
        s = wrap_tile(s);
        t = wrap_tile(t);
    } else if (tex->wrap == KF3DS__WRAP_MIRROR) {
        s = wrap_mirror(s);
        t = wrap_mirror(t);
    } else if (!(s >= 0.0f && s < 1.0f && t >= 0.0f && t < 1.0f)) {
        return 0;
    }
    /* v runs up, rows down: texel row (1 − t)·H; texel centres at i + 0.5. */
    x = s * (float)W - 0.5f;
    y = (1.0f - t) * (float)H - 0.5f;
    xi = (int)(x + 1.0f) - 1; /* floor, for x >= −1 */
    yi = (int)(y + 1.0f) - 1;
    fx = (uint32_t)((x - (float)xi) * 256.0f);
    fy = (uint32_t)((y - (float)yi) * 256.0f);
    if (fx > 256)
        fx = 256;
    if (fy > 256)
        fy = 256;
    if (tex->wrap == KF3DS__WRAP_TILE) {
        x0 = xi & (W - 1);
        x1 = (xi + 1) & (W - 1);
        y0 = yi & (H - 1);
        y1 = (yi + 1) & (H - 1);
    } else {
        x0 = xi < 0 ? 0 : (xi >= W ? W - 1 : xi);
        x1 = xi + 1 >= W ? W - 1 : (xi + 1 < 0 ? 0 : xi + 1);
        y0 = yi < 0 ? 0 : (yi >= H ? H - 1 : yi);
        y1 = yi + 1 >= H ? H - 1 : (yi + 1 < 0 ? 0 : yi + 1);
    }
    texels = tex->texels + tex->level_offset[level];
    *out = bilerp(texels[(y0 << lw) + x0], texels[(y0 << lw) + x1], texels[(y1 << lw) + x0],
                  texels[(y1 << lw) + x1], fx, fy);
    return 1;
}

/* log2 of a positive float to about ±0.1 (exponent plus a linear mantissa):
 * enough to choose a mipmap level. */
static inline float fast_log2(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return (float)(int32_t)((u >> 23) & 0xFF) - 127.0f +
           (float)(u & 0x7FFFFF) * (1.0f / 8388608.0f);
}

/* ---- the fill ------------------------------------------------------------- */

/* A vertex of the fill: screen position, w = 1/d, the varyings. */
typedef struct shaded_vertex {
    int32_t X, Y;
    float w;
    float v[KF3DS__VARS];
} shaded_vertex;

/* The values stepped along a row: w; add (3), mul (3), alpha; s·w and t·w
 * and the mipmap level of each map. Colours in 0..255. */
#define Q_W 0
#define Q_ADD 1
#define Q_MUL 4
#define Q_ALPHA 7
#define Q_SW 8                          /* s·w, t·w of map k at 8 + 2k */
#define Q_LOD (Q_SW + 2 * KF3DS__MAX_MAPS) /* level of map k at Q_LOD + k */
#define Q_COUNT (Q_LOD + KF3DS__MAX_MAPS)

static inline uint32_t clamp255(float v)
{
    return v > 0.0f ? (v < 255.0f ? (uint32_t)v : 255u) : 0u;
}

/* The map's mipmap level at a corner: log2 of the larger screen derivative
 * of its texel position, from the per-pixel gradients (gx, gy) of w, s·w and
 * t·w there. */
static float corner_level(const kf3ds__texture *tex, float w, float s, float t, const float gw[2],
                          const float gs[2], const float gt[2])
{
    float W = (float)(1 << tex->log2w), H = (float)(1 << tex->log2h), iw, m, k;
    float dsx, dsy, dtx, dty, rx, ry;
    if (!(w > 0.0f) || tex->levels <= 1)
        return 0.0f;
    iw = 1.0f / w;
    dsx = (gs[0] - s * gw[0]) * iw * W;
    dtx = (gt[0] - t * gw[0]) * iw * H;
    dsy = (gs[1] - s * gw[1]) * iw * W;
    dty = (gt[1] - t * gw[1]) * iw * H;
    rx = dsx * dsx + dtx * dtx;
    ry = dsy * dsy + dty * dty;
    m = rx > ry ? rx : ry;
    if (!(m > 1.0f))
        return 0.0f;
    if (!(m < 1e30f))
        return (float)(tex->levels - 1);
    k = 0.5f * fast_log2(m);
    return k < (float)(tex->levels - 1) ? k : (float)(tex->levels - 1);
}

/* One pixel: the surface colour from the maps, then lit, then written. */
static inline void shade_pixel(const kf3ds__surface *su, int nmaps, const float *q, uint32_t *dst,
                               float *zdst)
{
    float z = 1.0f / q[Q_W], T[3], alpha = q[Q_ALPHA];
    uint32_t texel, r, g, b;
    int k;
    T[0] = su->base[0];
    T[1] = su->base[1];
    T[2] = su->base[2];
    for (k = 0; k < nmaps; k++) {
        const kf3ds__texture *tex = su->map[k];
        if (!tex || !kf3ds__texture_sample(tex, q[Q_SW + 2 * k] * z, q[Q_SW + 2 * k + 1] * z,
                                           (int)(q[Q_LOD + k] + 0.5f), &texel))
            continue;
        if (k == 0) {
            T[0] = (float)((texel >> 16) & 0xFF);
            T[1] = (float)((texel >> 8) & 0xFF);
            T[2] = (float)(texel & 0xFF);
        } else if (k == 1) {
            float keep = 1.0f - (float)(texel >> 24) * (1.0f / 255.0f);
            T[0] = T[0] * keep + (float)((texel >> 16) & 0xFF);
            T[1] = T[1] * keep + (float)((texel >> 8) & 0xFF);
            T[2] = T[2] * keep + (float)(texel & 0xFF);
        } else {
            alpha *= (float)(texel >> 24) * (1.0f / 255.0f);
        }
    }
    r = clamp255(q[Q_ADD] + q[Q_MUL] * T[0] + 0.5f);
    g = clamp255(q[Q_ADD + 1] + q[Q_MUL + 1] * T[1] + 0.5f);
    b = clamp255(q[Q_ADD + 2] + q[Q_MUL + 2] * T[2] + 0.5f);
    if (su->blend == KF3DS__BLEND_NONE) {
        *zdst = z;
        *dst = 0xFF000000u | (r << 16) | (g << 8) | b;
        return;
    }
    {
        uint32_t d = *dst;
        float dr = (float)((d >> 16) & 0xFF), dg = (float)((d >> 8) & 0xFF),
              db = (float)(d & 0xFF);
        if (!(alpha > 0.0f))
            return;
        if (alpha > 1.0f)
            alpha = 1.0f;
        if (su->blend == KF3DS__BLEND_ADD) {
            r = clamp255(dr + (float)r * alpha + 0.5f);
            g = clamp255(dg + (float)g * alpha + 0.5f);
            b = clamp255(db + (float)b * alpha + 0.5f);
        } else {
            r = clamp255(dr + ((float)r - dr) * alpha + 0.5f);
            g = clamp255(dg + ((float)g - dg) * alpha + 0.5f);
            b = clamp255(db + ((float)b - db) * alpha + 0.5f);
        }
        *dst = 0xFF000000u | (r << 16) | (g << 8) | b;
    }
}

/* The pixels of one span [x, xe] of row y, with q the values at x and dq
 * their steps. nmaps is a constant where it is called, so each count gets a
 * loop of its own. */
static inline void shade_span(const kf3ds__surface *su, int nmaps, float *q, const float *dq,
                              uint32_t *crow, float *zrow, int x, int xe)
{
    int k;
    for (; x <= xe; x++) {
        if (q[Q_W] * zrow[x] > 1.0f)
            shade_pixel(su, nmaps, q, &crow[x], &zrow[x]);
        for (k = 0; k < Q_COUNT; k++)
            q[k] += dq[k];
    }
}

static int fill_shaded(kf3ds_framebuffer *fb, const shaded_vertex *a, const shaded_vertex *b,
                       const shaded_vertex *c, const kf3ds__surface *su)
{
    const int W = fb->width, H = fb->height;
    const shaded_vertex *vs[3];
    kf3ds__edges E;
    int64_t area, e0r, e1r, e2r;
    float inv, coef[Q_COUNT][3], dq[Q_COUNT], gy[Q_COUNT];
    int nmaps = 0, y, i, k, covered = 0;

    area = (int64_t)(b->X - a->X) * (c->Y - a->Y) - (int64_t)(c->X - a->X) * (b->Y - a->Y);
    if (area == 0)
        return 0;
    if (area < 0) {
        const shaded_vertex *t = b;
        b = c;
        c = t;
        area = -area;
    }
    if (!kf3ds__edges_setup(&E, a->X, a->Y, b->X, b->Y, c->X, c->Y, W, H))
        return 0;
    for (k = 0; k < KF3DS__MAX_MAPS; k++)
        if (su->map[k])
            nmaps = k + 1;
    vs[0] = a;
    vs[1] = b;
    vs[2] = c;
    /* Per corner values, then each one's gradient: a value at a pixel is
     * sum_i value_i·e_i / area. */
    inv = 1.0f / (float)area;
    for (i = 0; i < 3; i++) {
        const shaded_vertex *v = vs[i];
        coef[Q_W][i] = v->w;
        for (k = 0; k < 3; k++) {
            coef[Q_ADD + k][i] = v->v[KF3DS__VAR_ADD + k] * 255.0f;
            coef[Q_MUL + k][i] = v->v[KF3DS__VAR_MUL + k];
        }
        coef[Q_ALPHA][i] = v->v[KF3DS__VAR_ALPHA];
        for (k = 0; k < 2 * KF3DS__MAX_MAPS; k++)
            coef[Q_SW + k][i] = v->v[KF3DS__VAR_ST + k] * v->w;
    }
    for (k = 0; k < Q_LOD; k++) {
        dq[k] = (coef[k][0] * (float)E.a0 + coef[k][1] * (float)E.a1 + coef[k][2] * (float)E.a2) *
                inv;
        gy[k] = (coef[k][0] * (float)E.b0 + coef[k][1] * (float)E.b1 + coef[k][2] * (float)E.b2) *
                inv;
    }
    for (k = 0; k < KF3DS__MAX_MAPS; k++) {
        for (i = 0; i < 3; i++) {
            float gw[2], gs[2], gt[2];
            gw[0] = dq[Q_W];
            gw[1] = gy[Q_W];
            gs[0] = dq[Q_SW + 2 * k];
            gs[1] = gy[Q_SW + 2 * k];
            gt[0] = dq[Q_SW + 2 * k + 1];
            gt[1] = gy[Q_SW + 2 * k + 1];
            coef[Q_LOD + k][i] =
                su->map[k] ? corner_level(su->map[k], vs[i]->w, vs[i]->v[KF3DS__VAR_ST + 2 * k],
                                          vs[i]->v[KF3DS__VAR_ST + 2 * k + 1], gw, gs, gt)
                           : 0.0f;
        }
        dq[Q_LOD + k] = (coef[Q_LOD + k][0] * (float)E.a0 + coef[Q_LOD + k][1] * (float)E.a1 +
                         coef[Q_LOD + k][2] * (float)E.a2) *
                        inv;
    }
    for (k = 0; k < Q_COUNT; k++)
        for (i = 0; i < 3; i++)
            coef[k][i] *= inv;

    e0r = E.e0;
    e1r = E.e1;
    e2r = E.e2;
    for (y = E.py0; y <= E.py1; y++, e0r += E.b0, e1r += E.b1, e2r += E.b2) {
        int64_t lo, hi;
        float f0, f1, f2, q[Q_COUNT];
        uint32_t *crow;
        float *zrow;
        if (!kf3ds__edges_span(&E, e0r, e1r, e2r, &lo, &hi))
            continue;
        covered = 1;
        /* the exact values at the span's first pixel */
        f0 = (float)(e0r + E.a0 * lo);
        f1 = (float)(e1r + E.a1 * lo);
        f2 = (float)(e2r + E.a2 * lo);
        for (k = 0; k < Q_COUNT; k++)
            q[k] = coef[k][0] * f0 + coef[k][1] * f1 + coef[k][2] * f2;
        crow = fb->color + (size_t)y * (size_t)W;
        zrow = fb->depth + (size_t)y * (size_t)W;
        switch (nmaps) {
        case 0: shade_span(su, 0, q, dq, crow, zrow, E.px0 + (int)lo, E.px0 + (int)hi); break;
        case 1: shade_span(su, 1, q, dq, crow, zrow, E.px0 + (int)lo, E.px0 + (int)hi); break;
        default:
            shade_span(su, nmaps, q, dq, crow, zrow, E.px0 + (int)lo, E.px0 + (int)hi);
            break;
        }
    }
    return covered;
}

int kf3ds__triangle_shaded(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                           const kf3ds__vertex *const v[3], const kf3ds__varyings var[3],
                           const kf3ds__surface *surface)
{
    uint32_t all = v[0]->code | v[1]->code | v[2]->code;
    shaded_vertex sv[KF3DS__CLIP_MAX];
    int k, covered = 0;
    if ((v[0]->code & v[1]->code & v[2]->code) || (all & OC_BAD) || !fb->depth)
        return 0;
    if (!(all & OC_CLIP)) {
        for (k = 0; k < 3; k++) {
            sv[k].X = v[k]->X;
            sv[k].Y = v[k]->Y;
            sv[k].w = v[k]->w;
            memcpy(sv[k].v, var[k].v, sizeof sv[k].v);
        }
        return fill_shaded(fb, &sv[0], &sv[1], &sv[2], surface);
    }
    {
        kf3ds__clip_vertex bufa[KF3DS__CLIP_MAX], bufb[KF3DS__CLIP_MAX], *in = bufa;
        int n;
        for (k = 0; k < 3; k++) {
            bufa[k].x = v[k]->x;
            bufa[k].y = v[k]->y;
            bufa[k].d = v[k]->d;
            memcpy(bufa[k].a, var[k].v, sizeof var[k].v);
            bufa[k].src = k;
        }
        n = kf3ds__clip(p, all, bufa, bufb, 3, KF3DS__VARS, &in);
        for (k = 0; k < n; k++) {
            kf3ds__clip_screen(p, v, &in[k], &sv[k].X, &sv[k].Y, &sv[k].w);
            memcpy(sv[k].v, in[k].a, sizeof sv[k].v);
        }
        for (k = 1; k + 1 < n; k++)
            covered |= fill_shaded(fb, &sv[0], &sv[k], &sv[k + 1], surface);
    }
    return covered;
}
