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
    return s - (float)floor((double)s);
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

/* A vertex of the fill: screen position, w = 1/d, its varyings. */
typedef struct shaded_vertex {
    int32_t X, Y;
    float w;
    const float *v;              /* KF3DS__VARS values */
} shaded_vertex;

/* The values stepped along a row: w; add (3), mul (3), alpha; then per map
 * s·w, t·w and its mipmap level. Colours in 0..255. A triangle steps only
 * the values of the maps it has. */
#define Q_W 0
#define Q_ADD 1
#define Q_MUL 4
#define Q_ALPHA 7
#define Q_MAP(k) (8 + 3 * (k))            /* s·w, t·w, level of map k */
#define Q_COUNT Q_MAP(KF3DS__MAX_MAPS)

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
        if (!tex || !kf3ds__texture_sample(tex, q[Q_MAP(k)] * z, q[Q_MAP(k) + 1] * z,
                                           (int)(q[Q_MAP(k) + 2] + 0.5f), &texel))
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
        *zdst = q[Q_W];
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
    const int n = Q_MAP(nmaps);
    int k;
    for (; x <= xe; x++) {
        if (q[Q_W] > zrow[x])
            shade_pixel(su, nmaps, q, &crow[x], &zrow[x]);
        for (k = 0; k < n; k++)
            q[k] += dq[k];
    }
}

/* Narrow triangles (a bounding box under this many pixels wide) walk each
 * row to its span; wider ones find it exactly (raster_edges.h). */
#define NARROW 12

/* The corner values of each stepped value (cs[i] for corner i) and their
 * per-pixel steps dq, inv being 1 / the triangle's doubled area. A value at
 * a pixel is sum_i value_i·e_i / area. */
static void corner_values(const kf3ds__edges *E, const shaded_vertex *const vs[3],
                          const kf3ds__surface *su, int nmaps, int narrow, float inv,
                          float *const cs[3], float *dq)
{
    const int nq = Q_MAP(nmaps);
    float *c0 = cs[0], *c1 = cs[1], *c2 = cs[2];
    float fa0, fa1, fa2, fb0, fb1, fb2;
    int i, k;
    for (i = 0; i < 3; i++) {
        const float *v = vs[i]->v;
        float *o = cs[i], w = vs[i]->w;
        o[Q_W] = w;
        o[Q_ADD] = v[KF3DS__VAR_ADD] * 255.0f;
        o[Q_ADD + 1] = v[KF3DS__VAR_ADD + 1] * 255.0f;
        o[Q_ADD + 2] = v[KF3DS__VAR_ADD + 2] * 255.0f;
        o[Q_MUL] = v[KF3DS__VAR_MUL];
        o[Q_MUL + 1] = v[KF3DS__VAR_MUL + 1];
        o[Q_MUL + 2] = v[KF3DS__VAR_MUL + 2];
        o[Q_ALPHA] = v[KF3DS__VAR_ALPHA];
        for (k = 0; k < nmaps; k++) {
            o[Q_MAP(k)] = v[KF3DS__VAR_ST + 2 * k] * w;
            o[Q_MAP(k) + 1] = v[KF3DS__VAR_ST + 2 * k + 1] * w;
            o[Q_MAP(k) + 2] = 0.0f;
        }
    }
    /* per-pixel steps; the vertical ones only where the levels need them */
    fa0 = (float)E->a0 * inv;
    fa1 = (float)E->a1 * inv;
    fa2 = (float)E->a2 * inv;
    fb0 = (float)E->b0 * inv;
    fb1 = (float)E->b1 * inv;
    fb2 = (float)E->b2 * inv;
    for (k = 0; k < nq; k++)
        dq[k] = c0[k] * fa0 + c1[k] * fa1 + c2[k] * fa2;
    for (k = 0; k < nmaps; k++) {
        const kf3ds__texture *tex = su->map[k];
        int q = Q_MAP(k);
        float gw[2], gs[2], gt[2];
        if (!tex || tex->levels <= 1)
            continue;
        if (narrow) {
            /* small on screen: one level for the whole triangle, from the
             * ratio of its area in texels to its area in pixels */
            const float *s0 = vs[0]->v + KF3DS__VAR_ST + 2 * k,
                        *s1 = vs[1]->v + KF3DS__VAR_ST + 2 * k,
                        *s2 = vs[2]->v + KF3DS__VAR_ST + 2 * k;
            float texels = fabsf((s1[0] - s0[0]) * (s2[1] - s0[1]) -
                                 (s2[0] - s0[0]) * (s1[1] - s0[1])) *
                           (float)(1 << (tex->log2w + tex->log2h));
            float ratio = texels * inv * (float)(KF3DS__SUBPIXELS * KF3DS__SUBPIXELS), level = 0.0f;
            if (ratio > 1.0f)
                level = ratio < 1e30f ? 0.5f * fast_log2(ratio) : (float)(tex->levels - 1);
            c0[q + 2] = c1[q + 2] = c2[q + 2] = level;
            dq[q + 2] = 0.0f;
            continue;
        }
        gw[0] = dq[Q_W];
        gw[1] = c0[Q_W] * fb0 + c1[Q_W] * fb1 + c2[Q_W] * fb2;
        gs[0] = dq[q];
        gs[1] = c0[q] * fb0 + c1[q] * fb1 + c2[q] * fb2;
        gt[0] = dq[q + 1];
        gt[1] = c0[q + 1] * fb0 + c1[q + 1] * fb1 + c2[q + 1] * fb2;
        for (i = 0; i < 3; i++)
            cs[i][q + 2] = corner_level(tex, vs[i]->w, vs[i]->v[KF3DS__VAR_ST + 2 * k],
                                        vs[i]->v[KF3DS__VAR_ST + 2 * k + 1], gw, gs, gt);
        dq[q + 2] = c0[q + 2] * fa0 + c1[q + 2] * fa1 + c2[q + 2] * fa2;
    }
}

static int fill_shaded(kf3ds_framebuffer *fb, const shaded_vertex *a, const shaded_vertex *b,
                       const shaded_vertex *c, const kf3ds__surface *su)
{
    const int W = fb->width, H = fb->height;
    const shaded_vertex *vs[3];
    kf3ds__edges E;
    int64_t area, e0r, e1r, e2r;
    /* the corner values of each stepped value, one array per corner (so that
     * the loops over the values vectorise) */
    float c0[Q_COUNT], c1[Q_COUNT], c2[Q_COUNT], *const cs[3] = { c0, c1, c2 }, dq[Q_COUNT];
    float inv = 0.0f;
    int nmaps = 0, nq, y, k, covered = 0, narrow;

    area = kf3ds__screen_area(a->X, a->Y, b->X, b->Y, c->X, c->Y);
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
    nq = Q_MAP(nmaps);
    narrow = E.px1 - E.px0 < NARROW && E.py1 - E.py0 < NARROW;
    vs[0] = a;
    vs[1] = b;
    vs[2] = c;

    e0r = E.e0;
    e1r = E.e1;
    e2r = E.e2;
    for (y = E.py0; y <= E.py1; y++, e0r += E.b0, e1r += E.b1, e2r += E.b2) {
        int64_t lo, hi;
        float f0, f1, f2, q[Q_COUNT];
        uint32_t *crow;
        float *zrow;
        if (narrow) {
            int64_t e0 = e0r, e1 = e1r, e2 = e2r, lim = E.px1 - E.px0;
            for (lo = 0; lo <= lim && (e0 | e1 | e2) < 0; lo++)
                e0 += E.a0, e1 += E.a1, e2 += E.a2;
            if (lo > lim)
                continue;
            for (hi = lo; hi < lim && ((e0 + E.a0) | (e1 + E.a1) | (e2 + E.a2)) >= 0; hi++)
                e0 += E.a0, e1 += E.a1, e2 += E.a2;
        } else if (!kf3ds__edges_span(&E, e0r, e1r, e2r, &lo, &hi)) {
            continue;
        }
        /* Most small triangles of a dense mesh cover no pixel centre: the
         * values are set up only once a row has pixels to shade. */
        if (!covered) {
            inv = 1.0f / (float)area;
            corner_values(&E, vs, su, nmaps, narrow, inv, cs, dq);
            covered = 1;
        }
        /* the exact values at the span's first pixel */
        f0 = (float)(e0r + E.a0 * lo) * inv;
        f1 = (float)(e1r + E.a1 * lo) * inv;
        f2 = (float)(e2r + E.a2 * lo) * inv;
        for (k = 0; k < nq; k++)
            q[k] = c0[k] * f0 + c1[k] * f1 + c2[k] * f2;
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
            sv[k].v = var[k].v;
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
            sv[k].v = in[k].a;
        }
        for (k = 1; k + 1 < n; k++)
            covered |= fill_shaded(fb, &sv[0], &sv[k], &sv[k + 1], surface);
    }
    return covered;
}
