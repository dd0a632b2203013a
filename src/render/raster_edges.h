/* The triangle setup both fills share (raster_triangle.c: flat and Gouraud;
 * raster_shaded.c: textured and blended): the bounding box clamped to the
 * screen and the three edge functions in exact 64-bit integers, with the
 * top-left rule, and the exact span of covered pixels on a row.
 *
 * Edge functions, inside >= 0: e0 = E(b→c) weighs a, e1 = E(c→a) weighs b,
 * e2 = E(a→b) weighs c, with E(s→t)(P) = (t.X−s.X)(P.Y−s.Y) − (t.Y−s.Y)(P.X−s.X)
 * for a triangle turned so that its area is positive. Top-left rule: an edge
 * going up (dY < 0) or right along a horizontal keeps its pixels; the others
 * lose exact hits (bias −1), so shared edges are drawn once. */
#ifndef KF3DS_RASTER_EDGES_H
#define KF3DS_RASTER_EDGES_H
#include "raster.h"

#define KF3DS__HALF (KF3DS__SUBPIXELS / 2) /* a pixel's centre, in fixed point */

typedef struct kf3ds__edges {
    int64_t e0, e1, e2;      /* at the centre of pixel (px0, py0) */
    int64_t a0, a1, a2;      /* steps per pixel to the right */
    int64_t b0, b1, b2;      /* steps per row down */
    int px0, px1, py0, py1;  /* the pixels to visit, inside the screen */
} kf3ds__edges;

/* For the span of one row: with e the edge function at the row's first
 * pixel and a its step per pixel, the first k >= 0 where e + a·k >= 0 (a > 0,
 * e < 0), or the last one (a < 0, e >= 0). The quotient comes from doubles
 * (e and a are exact there) and is corrected with the exact test; k is
 * clamped to [0, limit]. */
static inline int64_t kf3ds__first_inside(int64_t e, int64_t a, int64_t limit)
{
    double q = (double)-e / (double)a;
    int64_t k = q < (double)limit ? (int64_t)q : limit;
    while (k < limit && e + a * k < 0)
        k++;
    while (k > 0 && e + a * (k - 1) >= 0)
        k--;
    return k;
}

static inline int64_t kf3ds__last_inside(int64_t e, int64_t a, int64_t limit)
{
    double q = (double)e / (double)-a;
    int64_t k = q < (double)limit ? (int64_t)q : limit;
    while (k > 0 && e + a * k < 0)
        k--;
    while (k < limit && e + a * (k + 1) >= 0)
        k++;
    return k;
}

/* Sets the edges up for the triangle (a, b, c) of positive area on a W×H
 * screen. Returns 0 when no pixel centre can be covered. */
static inline int kf3ds__edges_setup(kf3ds__edges *E, int32_t ax, int32_t ay, int32_t bx,
                                     int32_t by, int32_t cx, int32_t cy, int W, int H)
{
    int32_t xmin, xmax, ymin, ymax;
    int64_t X0, Y0;
    xmin = ax < bx ? ax : bx;
    xmin = cx < xmin ? cx : xmin;
    xmax = ax > bx ? ax : bx;
    xmax = cx > xmax ? cx : xmax;
    ymin = ay < by ? ay : by;
    ymin = cy < ymin ? cy : ymin;
    ymax = ay > by ? ay : by;
    ymax = cy > ymax ? cy : ymax;
    /* Pixel px is sampled at px·KF3DS__SUBPIXELS + HALF. */
    E->px0 = xmin + (KF3DS__HALF - 1) < 0 ? 0 : (xmin + (KF3DS__HALF - 1)) / KF3DS__SUBPIXELS;
    E->py0 = ymin + (KF3DS__HALF - 1) < 0 ? 0 : (ymin + (KF3DS__HALF - 1)) / KF3DS__SUBPIXELS;
    if (xmax - KF3DS__HALF < 0 || ymax - KF3DS__HALF < 0)
        return 0;
    E->px1 = (xmax - KF3DS__HALF) / KF3DS__SUBPIXELS;
    E->py1 = (ymax - KF3DS__HALF) / KF3DS__SUBPIXELS;
    if (E->px1 >= W)
        E->px1 = W - 1;
    if (E->py1 >= H)
        E->py1 = H - 1;
    if (E->px0 > E->px1 || E->py0 > E->py1)
        return 0;
    X0 = (int64_t)E->px0 * KF3DS__SUBPIXELS + KF3DS__HALF;
    Y0 = (int64_t)E->py0 * KF3DS__SUBPIXELS + KF3DS__HALF;
#define KF3DS__EDGE_SETUP(sx, sy, tx, ty, e, A, B)                                      \
    do {                                                                                \
        int64_t dX = (int64_t)(tx) - (sx), dY = (int64_t)(ty) - (sy);                   \
        e = dX * (Y0 - (sy)) - dY * (X0 - (sx));                                        \
        if (!(dY < 0 || (dY == 0 && dX > 0)))                                           \
            e -= 1;                                                                     \
        A = -dY * KF3DS__SUBPIXELS;                                                     \
        B = dX * KF3DS__SUBPIXELS;                                                      \
    } while (0)
    KF3DS__EDGE_SETUP(bx, by, cx, cy, E->e0, E->a0, E->b0);
    KF3DS__EDGE_SETUP(cx, cy, ax, ay, E->e1, E->a1, E->b1);
    KF3DS__EDGE_SETUP(ax, ay, bx, by, E->e2, E->a2, E->b2);
#undef KF3DS__EDGE_SETUP
    return 1;
}

/* The covered pixels of a row whose edge functions at its first pixel
 * (px0) are e0, e1, e2: offsets [*lo, *hi] from px0; returns 0 when none. */
static inline int kf3ds__edges_span(const kf3ds__edges *E, int64_t e0, int64_t e1, int64_t e2,
                                    int64_t *lo_out, int64_t *hi_out)
{
    int64_t lim = E->px1 - E->px0, lo = 0, hi = lim;
#define KF3DS__SPAN(e, A)                                                                \
    do {                                                                                 \
        if (A > 0) {                                                                     \
            if (e < 0) {                                                                 \
                int64_t k = kf3ds__first_inside(e, A, lim + 1);                          \
                if (k > lo)                                                              \
                    lo = k;                                                              \
            }                                                                            \
        } else if (A < 0) {                                                              \
            if (e < 0) {                                                                 \
                lo = lim + 1;                                                            \
            } else {                                                                     \
                int64_t k = kf3ds__last_inside(e, A, lim);                               \
                if (k < hi)                                                              \
                    hi = k;                                                              \
            }                                                                            \
        } else if (e < 0) {                                                              \
            lo = lim + 1;                                                                \
        }                                                                                \
    } while (0)
    KF3DS__SPAN(e0, E->a0);
    KF3DS__SPAN(e1, E->a1);
    KF3DS__SPAN(e2, E->a2);
#undef KF3DS__SPAN
    *lo_out = lo;
    *hi_out = hi;
    return lo <= hi;
}

#endif
