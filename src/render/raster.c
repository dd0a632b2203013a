/* The software rasterizer: projection, clipping, triangles and lines.
 *
 * Pipeline (shared with render.c through the kf3ds__ functions of raster.h):
 *  - kf3ds__projection_setup turns a kf3ds_view and a framebuffer size into the
 *    projection constants: square pixels, pixel centres at (x + 0.5, y + 0.5),
 *    screen x = cx + f·x/d, screen y = cy − f·y/d with d = −z the view depth.
 *  - kf3ds__transform_points takes vertices to view space once and gives each
 *    an outcode against the near plane and a guard band of GUARD pixels around
 *    the screen; a vertex inside all of them also gets its fixed-point screen
 *    position (SUB_BITS fractional bits) and w = 1/d.
 *  - kf3ds__triangle: triangles whose three vertices share an outside plane are
 *    dropped; triangles inside every plane go straight to the fill; the rest
 *    are clipped in view space (Sutherland–Hodgman against the near plane and
 *    the guard planes they cross, so a triangle crossing the near plane is cut,
 *    never dropped, and nothing reaches the fill with huge coordinates), then
 *    fanned into triangles.
 *  - fill: edge functions in exact 64-bit integers over the bounding box
 *    clamped to the screen, the top-left rule (shared edges are drawn once),
 *    1/d and the colours interpolated linearly in screen space (exact for 1/d;
 *    Gouraud for colour). Each row's attributes start from the exact
 *    barycentrics of its first covered pixel, so long spans of thin triangles
 *    never extrapolate. The depth test compares w·zbuf > 1 (no division); a
 *    passing pixel stores d = 1/w.
 *
 * Framebuffers are limited to MAX_DIM pixels on a side (bigger ones are left
 * untouched by the primitives) so that the fixed-point arithmetic stays exact.
 */
#include "raster.h"
#include <float.h>
#include <string.h>

#define SUB_BITS 8
#define SUB (1 << SUB_BITS)
#define HALF (SUB / 2)
#define GUARD 4096.0f
#define MAX_DIM 32768
#define BIG 1e18f           /* view-space coordinates beyond this are treated as bad */
#define FIX_OFFSET 1048832  /* (GUARD + 1) · SUB: makes every screen coordinate positive */

/* ------------------------------------------------------------------------ */

static int fb_ok(const kf3ds_framebuffer *fb)
{
    return fb && fb->color && fb->width > 0 && fb->height > 0 && fb->width <= MAX_DIM &&
           fb->height <= MAX_DIM;
}

void kf3ds_framebuffer_clear(kf3ds_framebuffer *fb, uint32_t color)
{
    size_t i, n;
    if (!fb || fb->width <= 0 || fb->height <= 0)
        return;
    n = (size_t)fb->width * (size_t)fb->height;
    if (fb->color)
        for (i = 0; i < n; i++)
            fb->color[i] = color;
    if (fb->depth)
        for (i = 0; i < n; i++)
            fb->depth[i] = INFINITY;
}

int kf3ds__projection_setup(kf3ds__projection *p, const kf3ds_view *view, int width, int height)
{
    float fov, t;
    int i, j;
    if (!p || !view || width <= 0 || height <= 0 || width > MAX_DIM || height > MAX_DIM)
        return 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float v = view->view.m[i][j];
            if (!(fabsf(v) <= BIG))
                return 0;
            p->m[i][j] = v;
        }
    fov = view->fov_y_degrees;
    if (!(fov == fov))
        fov = 45.0f;
    if (fov < 0.01f)
        fov = 0.01f;
    if (fov > 179.0f)
        fov = 179.0f;
    t = tanf(fov * 0.5f * 0.017453292519943295f);
    p->fy = (float)height * 0.5f / t;
    p->fx = p->fy;
    p->cx = (float)width * 0.5f;
    p->cy = (float)height * 0.5f;
    p->near_d = view->near_plane;
    if (!(p->near_d > 0.0f))
        p->near_d = 1e-3f; /* NaN, zero or negative */
    if (p->near_d < 1e-6f)
        p->near_d = 1e-6f;
    if (p->near_d > 1e15f)
        p->near_d = 1e15f;
    p->far_d = view->far_plane;
    if (!(p->far_d > p->near_d))
        p->far_d = INFINITY;
    p->xlo = -GUARD;
    p->ylo = -GUARD;
    p->xhi = (float)width + GUARD;
    p->yhi = (float)height + GUARD;
    p->width = width;
    p->height = height;
    return 1;
}

/* Signed distances to the clip planes (inside >= 0). The outcodes and the
 * clipper use these same expressions so that they agree exactly. */
static inline float dist_near(const kf3ds__projection *p, float x, float y, float d)
{
    (void)x;
    (void)y;
    return d - p->near_d;
}
static inline float dist_left(const kf3ds__projection *p, float x, float y, float d)
{
    (void)y;
    return p->fx * x + (p->cx - p->xlo) * d;
}
static inline float dist_right(const kf3ds__projection *p, float x, float y, float d)
{
    (void)y;
    return (p->xhi - p->cx) * d - p->fx * x;
}
static inline float dist_top(const kf3ds__projection *p, float x, float y, float d)
{
    (void)x;
    return (p->cy - p->ylo) * d - p->fy * y;
}
static inline float dist_bottom(const kf3ds__projection *p, float x, float y, float d)
{
    (void)x;
    return (p->yhi - p->cy) * d + p->fy * y;
}

typedef float (*dist_fn)(const kf3ds__projection *, float, float, float);
static const dist_fn plane_dist[5] = { dist_near, dist_left, dist_right, dist_top, dist_bottom };

/* Screen position of a view-space point in front of the near plane, clamped
 * into the guard band, in fixed point. */
static inline void project_fixed(const kf3ds__projection *p, float x, float y, float w, int32_t *X,
                                 int32_t *Y)
{
    float sx = p->cx + p->fx * x * w;
    float sy = p->cy - p->fy * y * w;
    if (!(sx >= p->xlo))
        sx = p->xlo;
    if (sx > p->xhi)
        sx = p->xhi;
    if (!(sy >= p->ylo))
        sy = p->ylo;
    if (sy > p->yhi)
        sy = p->yhi;
    *X = (int32_t)(sx * (float)SUB + ((float)FIX_OFFSET + 0.5f)) - FIX_OFFSET;
    *Y = (int32_t)(sy * (float)SUB + ((float)FIX_OFFSET + 0.5f)) - FIX_OFFSET;
}

static inline void classify(const kf3ds__projection *p, float x, float y, float z, kf3ds__vertex *o)
{
    float d = -z;
    uint32_t c = 0;
    o->x = x;
    o->y = y;
    o->d = d;
    o->w = 0.0f;
    o->X = o->Y = 0;
    if (!(fabsf(x) <= BIG && fabsf(y) <= BIG && fabsf(d) <= BIG)) {
        o->code = OC_BAD;
        return;
    }
    if (!(dist_near(p, x, y, d) >= 0.0f))
        c |= OC_NEAR;
    if (d > p->far_d)
        c |= OC_FAR;
    if (dist_left(p, x, y, d) < 0.0f)
        c |= OC_LEFT;
    if (dist_right(p, x, y, d) < 0.0f)
        c |= OC_RIGHT;
    if (dist_top(p, x, y, d) < 0.0f)
        c |= OC_TOP;
    if (dist_bottom(p, x, y, d) < 0.0f)
        c |= OC_BOTTOM;
    o->code = c;
    if (!(c & OC_CLIP)) {
        o->w = 1.0f / d;
        project_fixed(p, x, y, o->w, &o->X, &o->Y);
    }
}

void kf3ds__transform_points(const kf3ds__projection *p, const float *m, const float *pts,
                             uint32_t n, kf3ds__vertex *out)
{
    uint32_t i;
    const float m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3];
    const float m10 = m[4], m11 = m[5], m12 = m[6], m13 = m[7];
    const float m20 = m[8], m21 = m[9], m22 = m[10], m23 = m[11];
    for (i = 0; i < n; i++) {
        float a = pts[3 * i], b = pts[3 * i + 1], c = pts[3 * i + 2];
        classify(p, m00 * a + m01 * b + m02 * c + m03, m10 * a + m11 * b + m12 * c + m13,
                 m20 * a + m21 * b + m22 * c + m23, &out[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Triangle fill                                                            */
/* ------------------------------------------------------------------------ */

typedef struct fvert {
    int32_t X, Y;
    float w;
    float c[3];              /* colour channels 0..255, +0.5 so truncation rounds */
} fvert;

/* For the span of one row: with e the edge function at the row's first
 * pixel and a its step per pixel, the first k >= 0 where e + a·k >= 0 (a > 0,
 * e < 0), or the last one (a < 0, e >= 0). The quotient comes from doubles
 * (e and a are exact there) and is corrected with the exact test; k is
 * clamped to [0, limit]. */
static inline int64_t first_inside(int64_t e, int64_t a, int64_t limit)
{
    double q = (double)-e / (double)a;
    int64_t k = q < (double)limit ? (int64_t)q : limit;
    while (k < limit && e + a * k < 0)
        k++;
    while (k > 0 && e + a * (k - 1) >= 0)
        k--;
    return k;
}

static inline int64_t last_inside(int64_t e, int64_t a, int64_t limit)
{
    double q = (double)e / (double)-a;
    int64_t k = q < (double)limit ? (int64_t)q : limit;
    while (k > 0 && e + a * k < 0)
        k--;
    while (k < limit && e + a * (k + 1) >= 0)
        k++;
    return k;
}

/* Colours step in 16.16 fixed point: the row's first value is exact and
 * every pixel of a span is inside the triangle, so the values stay within
 * [0.5, 255.5] up to rounding; the masks only guard the packing. */
#define PACK(r, g, b)                                                                    \
    (0xFF000000u | ((uint32_t)(r)&0xFF0000u) | (((uint32_t)(g) >> 8) & 0xFF00u) |        \
     (((uint32_t)(b) >> 16) & 0xFFu))

static inline int32_t to_fix(float v)
{
    float f = v * 65536.0f;
    if (!(f > -16777216.0f))
        f = -16777216.0f;
    if (f > 16777216.0f)
        f = 16777216.0f;
    return (int32_t)f;
}

/* cull > 0 drops clockwise-on-screen triangles (back faces), cull < 0 drops
 * counter-clockwise ones. Returns 1 when a pixel centre was covered. */
static int fill(kf3ds_framebuffer *fb, const fvert *a, const fvert *b, const fvert *c, int cull,
                int flat, uint32_t flat_color)
{
    const int W = fb->width, H = fb->height;
    int64_t area, e0r, e1r, e2r, a0, a1, a2, b0, b1, b2;
    int32_t xmin, xmax, ymin, ymax;
    int px0, px1, py0, py1, y, covered = 0, wide;
    int64_t X0, Y0;
    float inv, kw[3], kc[3][3], dw, dcf[3];
    int32_t dc[3];
    float *zbuf = fb->depth;
    uint32_t *cbuf = fb->color;

    area = (int64_t)(b->X - a->X) * (c->Y - a->Y) - (int64_t)(c->X - a->X) * (b->Y - a->Y);
    if (area == 0)
        return 0;
    if (area < 0) { /* counter-clockwise on screen (y down): a front face */
        const fvert *t;
        if (cull < 0)
            return 0;
        t = b;
        b = c;
        c = t;
        area = -area;
    } else if (cull > 0) {
        return 0;
    }
    xmin = a->X < b->X ? a->X : b->X;
    xmin = c->X < xmin ? c->X : xmin;
    xmax = a->X > b->X ? a->X : b->X;
    xmax = c->X > xmax ? c->X : xmax;
    ymin = a->Y < b->Y ? a->Y : b->Y;
    ymin = c->Y < ymin ? c->Y : ymin;
    ymax = a->Y > b->Y ? a->Y : b->Y;
    ymax = c->Y > ymax ? c->Y : ymax;
    /* Pixel px is sampled at px·SUB + HALF. */
    px0 = xmin + (HALF - 1) < 0 ? 0 : (xmin + (HALF - 1)) / SUB;
    py0 = ymin + (HALF - 1) < 0 ? 0 : (ymin + (HALF - 1)) / SUB;
    if (xmax - HALF < 0 || ymax - HALF < 0)
        return 0;
    px1 = (xmax - HALF) / SUB;
    py1 = (ymax - HALF) / SUB;
    if (px1 >= W)
        px1 = W - 1;
    if (py1 >= H)
        py1 = H - 1;
    if (px0 > px1 || py0 > py1)
        return 0;

    /* Edge functions, inside >= 0: e0 = E(b→c) weighs a, e1 = E(c→a) weighs b,
     * e2 = E(a→b) weighs c. E(s→t)(P) = (t.X−s.X)(P.Y−s.Y) − (t.Y−s.Y)(P.X−s.X).
     * Top-left rule: an edge going up (dY < 0) or right along a horizontal
     * keeps its pixels; the others lose exact hits (bias −1). */
    X0 = (int64_t)px0 * SUB + HALF;
    Y0 = (int64_t)py0 * SUB + HALF;
#define EDGE_SETUP(s, t, e, A, B)                                                       \
    do {                                                                                \
        int64_t dX = (int64_t)t->X - s->X, dY = (int64_t)t->Y - s->Y;                   \
        e = dX * (Y0 - s->Y) - dY * (X0 - s->X);                                        \
        if (!(dY < 0 || (dY == 0 && dX > 0)))                                           \
            e -= 1;                                                                     \
        A = -dY * SUB;                                                                  \
        B = dX * SUB;                                                                   \
    } while (0)
    EDGE_SETUP(b, c, e0r, a0, b0);
    EDGE_SETUP(c, a, e1r, a1, b1);
    EDGE_SETUP(a, b, e2r, a2, b2);
#undef EDGE_SETUP

    inv = 1.0f / (float)area;
    kw[0] = a->w * inv;
    kw[1] = b->w * inv;
    kw[2] = c->w * inv;
    dw = kw[0] * (float)a0 + kw[1] * (float)a1 + kw[2] * (float)a2;
    if (!flat) {
        int k;
        for (k = 0; k < 3; k++) {
            kc[k][0] = a->c[k] * inv;
            kc[k][1] = b->c[k] * inv;
            kc[k][2] = c->c[k] * inv;
            dcf[k] = kc[k][0] * (float)a0 + kc[k][1] * (float)a1 + kc[k][2] * (float)a2;
            dc[k] = to_fix(dcf[k]);
        }
    }
    /* Narrow triangles walk each row testing the edges; wide ones find the
     * row's span exactly first. */
    wide = px1 - px0 >= 12;

    for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
        int64_t e0 = e0r, e1 = e1r, e2 = e2r;
        int x, xe;
        uint32_t *crow;
        float *zrow, w, f0, f1, f2;
        if (wide) {
            int64_t lim = px1 - px0, lo = 0, hi = lim;
#define SPAN(e, A)                                                                       \
    do {                                                                                 \
        if (A > 0) {                                                                     \
            if (e < 0) {                                                                 \
                int64_t k = first_inside(e, A, lim + 1);                                 \
                if (k > lo)                                                              \
                    lo = k;                                                              \
            }                                                                            \
        } else if (A < 0) {                                                              \
            if (e < 0) {                                                                 \
                lo = lim + 1;                                                            \
            } else {                                                                     \
                int64_t k = last_inside(e, A, lim);                                      \
                if (k < hi)                                                              \
                    hi = k;                                                              \
            }                                                                            \
        } else if (e < 0) {                                                              \
            lo = lim + 1;                                                                \
        }                                                                                \
    } while (0)
            SPAN(e0, a0);
            SPAN(e1, a1);
            SPAN(e2, a2);
#undef SPAN
            if (lo > hi)
                continue;
            x = px0 + (int)lo;
            xe = px0 + (int)hi;
            e0 += a0 * lo;
            e1 += a1 * lo;
            e2 += a2 * lo;
        } else {
            /* narrow: walk to the first covered pixel, then draw while the
             * edge functions stay non-negative */
            x = px0;
            while ((e0 | e1 | e2) < 0) {
                if (++x > px1)
                    break;
                e0 += a0;
                e1 += a1;
                e2 += a2;
            }
            if (x > px1)
                continue;
            covered = 1;
            crow = cbuf + (size_t)y * (size_t)W;
            zrow = zbuf + (size_t)y * (size_t)W;
            f0 = (float)e0;
            f1 = (float)e1;
            f2 = (float)e2;
            w = kw[0] * f0 + kw[1] * f1 + kw[2] * f2;
            if (flat) {
                do {
                    if (w * zrow[x] > 1.0f) {
                        zrow[x] = 1.0f / w;
                        crow[x] = flat_color;
                    }
                    w += dw;
                    e0 += a0;
                    e1 += a1;
                    e2 += a2;
                } while (++x <= px1 && (e0 | e1 | e2) >= 0);
            } else {
                int32_t r = to_fix(kc[0][0] * f0 + kc[0][1] * f1 + kc[0][2] * f2);
                int32_t g = to_fix(kc[1][0] * f0 + kc[1][1] * f1 + kc[1][2] * f2);
                int32_t bl = to_fix(kc[2][0] * f0 + kc[2][1] * f1 + kc[2][2] * f2);
                do {
                    if (w * zrow[x] > 1.0f) {
                        zrow[x] = 1.0f / w;
                        crow[x] = PACK(r, g, bl);
                    }
                    w += dw;
                    r += dc[0];
                    g += dc[1];
                    bl += dc[2];
                    e0 += a0;
                    e1 += a1;
                    e2 += a2;
                } while (++x <= px1 && (e0 | e1 | e2) >= 0);
            }
            continue;
        }
        covered = 1;
        crow = cbuf + (size_t)y * (size_t)W;
        zrow = zbuf + (size_t)y * (size_t)W;
        f0 = (float)e0;
        f1 = (float)e1;
        f2 = (float)e2;
        w = kw[0] * f0 + kw[1] * f1 + kw[2] * f2;
        if (flat) {
            for (; x <= xe; x++, w += dw)
                if (w * zrow[x] > 1.0f) {
                    zrow[x] = 1.0f / w;
                    crow[x] = flat_color;
                }
        } else {
            int32_t r = to_fix(kc[0][0] * f0 + kc[0][1] * f1 + kc[0][2] * f2);
            int32_t g = to_fix(kc[1][0] * f0 + kc[1][1] * f1 + kc[1][2] * f2);
            int32_t bl = to_fix(kc[2][0] * f0 + kc[2][1] * f1 + kc[2][2] * f2);
            for (; x <= xe; x++, w += dw, r += dc[0], g += dc[1], bl += dc[2])
                if (w * zrow[x] > 1.0f) {
                    zrow[x] = 1.0f / w;
                    crow[x] = PACK(r, g, bl);
                }
        }
    }
    return covered;
}

static inline void unpack(uint32_t c, float out[3])
{
    out[0] = (float)((c >> 16) & 0xFF) + 0.5f;
    out[1] = (float)((c >> 8) & 0xFF) + 0.5f;
    out[2] = (float)(c & 0xFF) + 0.5f;
}

/* A vertex of the clipper: view space and colour. `src` is the input vertex
 * it is (0..2) or −1 for one made by a cut. */
typedef struct cvert {
    float x, y, d;
    float c[3];
    int src;
} cvert;

static int clip_plane(const kf3ds__projection *p, int plane, const cvert *in, int n, cvert *out)
{
    dist_fn dist = plane_dist[plane];
    int i, m = 0;
    float dprev;
    const cvert *prev;
    if (n < 3)
        return 0;
    prev = &in[n - 1];
    dprev = dist(p, prev->x, prev->y, prev->d);
    for (i = 0; i < n; i++) {
        const cvert *cur = &in[i];
        float dcur = dist(p, cur->x, cur->y, cur->d);
        int in_prev = dprev >= 0.0f, in_cur = dcur >= 0.0f;
        if (in_prev != in_cur) {
            /* The cut, computed from the inside vertex for symmetry. */
            const cvert *s = in_cur ? cur : prev, *t = in_cur ? prev : cur;
            float ds = in_cur ? dcur : dprev, dt = in_cur ? dprev : dcur;
            float u = ds / (ds - dt);
            int k;
            cvert *o = &out[m++];
            if (!(u >= 0.0f))
                u = 0.0f;
            if (u > 1.0f)
                u = 1.0f;
            o->x = s->x + (t->x - s->x) * u;
            o->y = s->y + (t->y - s->y) * u;
            o->d = s->d + (t->d - s->d) * u;
            for (k = 0; k < 3; k++)
                o->c[k] = s->c[k] + (t->c[k] - s->c[k]) * u;
            o->src = -1;
        }
        if (in_cur)
            out[m++] = *cur;
        prev = cur;
        dprev = dcur;
    }
    return m;
}

int kf3ds__triangle(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *v0,
               const kf3ds__vertex *v1, const kf3ds__vertex *v2, const uint32_t color[3], int cull)
{
    uint32_t all = v0->code | v1->code | v2->code;
    int flat = color[0] == color[1] && color[1] == color[2];
    const kf3ds__vertex *vs[3];
    fvert f[3];
    int k;
    if ((v0->code & v1->code & v2->code) || (all & OC_BAD))
        return 0;
    if (!fb->depth)
        return 0;
    vs[0] = v0;
    vs[1] = v1;
    vs[2] = v2;
    if (!(all & OC_CLIP)) {
        for (k = 0; k < 3; k++) {
            f[k].X = vs[k]->X;
            f[k].Y = vs[k]->Y;
            f[k].w = vs[k]->w;
            if (!flat)
                unpack(color[k], f[k].c);
        }
        return fill(fb, &f[0], &f[1], &f[2], cull, flat, color[0] | 0xFF000000u);
    }
    {
        /* Facing from the view-space plane: front when the eye (the origin)
         * sees the vertices counter-clockwise, i.e. n·v0 < 0 with z = −d. */
        cvert bufa[16], bufb[16], *in = bufa, *out = bufb, *t;
        int n = 3, plane, covered = 0;
        if (cull) {
            float ux = v1->x - v0->x, uy = v1->y - v0->y, uz = v0->d - v1->d;
            float wx = v2->x - v0->x, wy = v2->y - v0->y, wz = v0->d - v2->d;
            float nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
            float s = nx * v0->x + ny * v0->y - nz * v0->d;
            if (!(s == s) || s == 0.0f)
                return 0;
            if ((s < 0.0f) != (cull > 0))
                return 0;
        }
        for (k = 0; k < 3; k++) {
            in[k].x = vs[k]->x;
            in[k].y = vs[k]->y;
            in[k].d = vs[k]->d;
            unpack(color[k], in[k].c);
            in[k].src = k;
        }
        for (plane = 0; plane < 5 && n >= 3; plane++) {
            if (!(all & (1u << plane)))
                continue;
            n = clip_plane(p, plane, in, n, out);
            t = in;
            in = out;
            out = t;
        }
        if (n < 3)
            return 0;
        {
            fvert fv[16];
            for (k = 0; k < n; k++) {
                const cvert *c = &in[k];
                if (c->src >= 0) {
                    fv[k].X = vs[c->src]->X;
                    fv[k].Y = vs[c->src]->Y;
                    fv[k].w = vs[c->src]->w;
                } else {
                    float d = c->d >= p->near_d ? c->d : p->near_d;
                    fv[k].w = 1.0f / d;
                    project_fixed(p, c->x, c->y, fv[k].w, &fv[k].X, &fv[k].Y);
                }
                fv[k].c[0] = c->c[0];
                fv[k].c[1] = c->c[1];
                fv[k].c[2] = c->c[2];
            }
            for (k = 1; k + 1 < n; k++)
                covered |= fill(fb, &fv[0], &fv[k], &fv[k + 1], 0, flat,
                                color[0] | 0xFF000000u);
        }
        return covered;
    }
}

int kf3ds_view_project(const kf3ds_view *view, int width, int height, const float world[3],
                       float *x, float *y, float *depth)
{
    kf3ds__projection p;
    float vx, vy, vz, d;
    if (!world || !kf3ds__projection_setup(&p, view, width, height))
        return 0;
    vx = p.m[0][0] * world[0] + p.m[0][1] * world[1] + p.m[0][2] * world[2] + p.m[0][3];
    vy = p.m[1][0] * world[0] + p.m[1][1] * world[1] + p.m[1][2] * world[2] + p.m[1][3];
    vz = p.m[2][0] * world[0] + p.m[2][1] * world[1] + p.m[2][2] * world[2] + p.m[2][3];
    d = -vz;
    if (!(d >= p.near_d) || !(fabsf(vx) <= BIG && fabsf(vy) <= BIG && d <= BIG))
        return 0;
    if (x)
        *x = p.cx + p.fx * vx / d;
    if (y)
        *y = p.cy - p.fy * vy / d;
    if (depth)
        *depth = d;
    return 1;
}

int kf3ds_raster_triangle(kf3ds_framebuffer *fb, const kf3ds_view *view, const float p[3][3],
                          const uint32_t color[3], int cull)
{
    kf3ds__projection pr;
    kf3ds__vertex v[3];
    int k;
    if (!fb_ok(fb) || !fb->depth || !p || !color ||
        !kf3ds__projection_setup(&pr, view, fb->width, fb->height))
        return 0;
    for (k = 0; k < 3; k++) {
        const float *q = p[k];
        classify(&pr, pr.m[0][0] * q[0] + pr.m[0][1] * q[1] + pr.m[0][2] * q[2] + pr.m[0][3],
                 pr.m[1][0] * q[0] + pr.m[1][1] * q[1] + pr.m[1][2] * q[2] + pr.m[1][3],
                 pr.m[2][0] * q[0] + pr.m[2][1] * q[1] + pr.m[2][2] * q[2] + pr.m[2][3], &v[k]);
    }
    return kf3ds__triangle(fb, &pr, &v[0], &v[1], &v[2], color, cull ? 1 : 0);
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                    */
/* ------------------------------------------------------------------------ */

/* A screen-space segment, already inside the guard band; w = 1/d is linear
 * along it. Clipped to the screen rectangle, then stepped one pixel at a time
 * along its major axis. */
static void line2d(kf3ds_framebuffer *fb, float x0, float y0, float w0, float x1, float y1,
                   float w1, uint32_t color, int depth_test)
{
    const float W = (float)fb->width, H = (float)fb->height;
    float t0 = 0.0f, t1 = 1.0f, dx = x1 - x0, dy = y1 - y0, dw = w1 - w0;
    float pq[4][2];
    float sx, sy, sw, len;
    int i, n;
    pq[0][0] = -dx, pq[0][1] = x0;     /* x >= 0 */
    pq[1][0] = dx, pq[1][1] = W - x0;  /* x <= W */
    pq[2][0] = -dy, pq[2][1] = y0;     /* y >= 0 */
    pq[3][0] = dy, pq[3][1] = H - y0;  /* y <= H */
    if (x0 >= 0.0f && x0 <= W && x1 >= 0.0f && x1 <= W && y0 >= 0.0f && y0 <= H && y1 >= 0.0f &&
        y1 <= H)
        i = 4; /* on screen already (the common case) */
    else
        i = 0;
    for (; i < 4; i++) {
        float pp = pq[i][0], qq = pq[i][1];
        if (pp == 0.0f) {
            if (qq < 0.0f)
                return;
        } else {
            float r = qq / pp;
            if (pp < 0.0f) {
                if (r > t0)
                    t0 = r;
            } else if (r < t1) {
                t1 = r;
            }
        }
    }
    if (!(t0 <= t1))
        return;
    x1 = x0 + dx * t1;
    y1 = y0 + dy * t1;
    w1 = w0 + dw * t1;
    x0 = x0 + dx * t0;
    y0 = y0 + dy * t0;
    w0 = w0 + dw * t0;
    dx = x1 - x0;
    dy = y1 - y0;
    len = fabsf(dx) > fabsf(dy) ? fabsf(dx) : fabsf(dy);
    if (!(len <= 4.0f * (float)MAX_DIM))
        return;
    n = (int)len + 1;
    sx = dx / (float)n;
    sy = dy / (float)n;
    sw = (w1 - w0) / (float)n;
    color |= 0xFF000000u;
    for (i = 0; i <= n; i++) {
        float fx = x0 + sx * (float)i, fy = y0 + sy * (float)i;
        int px = (int)fx, py = (int)fy;
        size_t idx;
        if (px >= fb->width)
            px = fb->width - 1;
        if (py >= fb->height)
            py = fb->height - 1;
        if (px < 0)
            px = 0;
        if (py < 0)
            py = 0;
        idx = (size_t)py * (size_t)fb->width + (size_t)px;
        if (depth_test && fb->depth) {
            float w = w0 + sw * (float)i;
            /* a little slack so lines on surfaces stay visible */
            if (!(w * fb->depth[idx] * 1.001f >= 1.0f))
                continue;
        }
        fb->color[idx] = color;
    }
}

void kf3ds__line(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *a,
                 const kf3ds__vertex *b, uint32_t color, int depth_test)
{
    uint32_t all = a->code | b->code;
    float ax = a->x, ay = a->y, ad = a->d, bx = b->x, by = b->y, bd = b->d;
    float sa[2], sb[2], wa, wb;
    int plane;
    if ((a->code & b->code & OC_CLIP) || (all & OC_BAD) || !fb_ok(fb))
        return;
    if (!(all & OC_CLIP)) {
        /* both projected already */
        const float k = 1.0f / (float)SUB;
        line2d(fb, (float)a->X * k, (float)a->Y * k, a->w, (float)b->X * k, (float)b->Y * k, b->w,
               color, depth_test);
        return;
    }
    if (all & OC_CLIP) {
        float t0 = 0.0f, t1 = 1.0f;
        for (plane = 0; plane < 5; plane++) {
            float da, db;
            if (!(all & (1u << plane)))
                continue;
            da = plane_dist[plane](p, ax, ay, ad);
            db = plane_dist[plane](p, bx, by, bd);
            if (da < 0.0f && db < 0.0f)
                return;
            if (da < 0.0f) {
                float t = da / (da - db);
                if (t > t0)
                    t0 = t;
            } else if (db < 0.0f) {
                float t = da / (da - db);
                if (t < t1)
                    t1 = t;
            }
        }
        if (!(t0 <= t1))
            return;
        {
            float nax = ax + (bx - ax) * t0, nay = ay + (by - ay) * t0, nad = ad + (bd - ad) * t0;
            float nbx = ax + (bx - ax) * t1, nby = ay + (by - ay) * t1, nbd = ad + (bd - ad) * t1;
            ax = nax, ay = nay, ad = nad, bx = nbx, by = nby, bd = nbd;
        }
        if (ad < p->near_d)
            ad = p->near_d;
        if (bd < p->near_d)
            bd = p->near_d;
    }
    wa = 1.0f / ad;
    wb = 1.0f / bd;
    sa[0] = p->cx + p->fx * ax * wa;
    sa[1] = p->cy - p->fy * ay * wa;
    sb[0] = p->cx + p->fx * bx * wb;
    sb[1] = p->cy - p->fy * by * wb;
    if (!(fabsf(sa[0]) <= 2.0f * (float)MAX_DIM + GUARD && fabsf(sa[1]) <= 2.0f * (float)MAX_DIM + GUARD &&
          fabsf(sb[0]) <= 2.0f * (float)MAX_DIM + GUARD && fabsf(sb[1]) <= 2.0f * (float)MAX_DIM + GUARD))
        return;
    line2d(fb, sa[0], sa[1], wa, sb[0], sb[1], wb, color, depth_test);
}

void kf3ds__line_world(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float a[3],
                       const float b[3], uint32_t color, int depth_test)
{
    kf3ds__vertex v[2];
    int k;
    for (k = 0; k < 2; k++) {
        const float *q = k ? b : a;
        classify(p, p->m[0][0] * q[0] + p->m[0][1] * q[1] + p->m[0][2] * q[2] + p->m[0][3],
                 p->m[1][0] * q[0] + p->m[1][1] * q[1] + p->m[1][2] * q[2] + p->m[1][3],
                 p->m[2][0] * q[0] + p->m[2][1] * q[1] + p->m[2][2] * q[2] + p->m[2][3], &v[k]);
    }
    kf3ds__line(fb, p, &v[0], &v[1], color, depth_test);
}

void kf3ds_raster_line(kf3ds_framebuffer *fb, const kf3ds_view *view, const float a[3],
                       const float b[3], uint32_t color, int depth_test)
{
    kf3ds__projection p;
    if (!fb_ok(fb) || !a || !b || !kf3ds__projection_setup(&p, view, fb->width, fb->height))
        return;
    kf3ds__line_world(fb, &p, a, b, color, depth_test);
}
