/* kf3ds__fill_plain: the triangle fill in plain C, the reference the fast
 * versions match byte for byte (raster_fill.h). */
#include "raster_fill.h"

static inline int32_t to_fix(float v)
{
    float f = v * 65536.0f;
    if (!(f > -16777216.0f))
        f = -16777216.0f;
    if (f > 16777216.0f)
        f = 16777216.0f;
    return (int32_t)f;
}

/* The weights of the triangle's values on the edge functions, K[j] for
 * corner j: lane 0 for 1/d, lanes 1..3 (unless flat) for the colour
 * channels; and their steps per pixel to the right (a0..a2). */
#if defined(__GNUC__)
__attribute__((noinline)) /* inlined, it costs the row loops registers */
#endif
static void setup_values(const kf3ds__fill_vertex *a, const kf3ds__fill_vertex *b,
                         const kf3ds__fill_vertex *c, int64_t area, int64_t a0, int64_t a1,
                         int64_t a2, int flat, float K[3][4], float *dw, int32_t dc[3])
{
    float inv = 1.0f / (float)area;
    int k;
    if (flat) {
        /* the colour weights are zero (K starts unset: most triangles are
         * not flat, and some cover no pixel) */
        for (k = 0; k < 3; k++)
            K[k][1] = K[k][2] = K[k][3] = 0.0f;
    } else {
        for (k = 1; k < 4; k++) {
            K[0][k] = a->v[k] * inv;
            K[1][k] = b->v[k] * inv;
            K[2][k] = c->v[k] * inv;
            dc[k - 1] = to_fix(K[0][k] * (float)a0 + K[1][k] * (float)a1 + K[2][k] * (float)a2);
        }
    }
    K[0][0] = a->v[0] * inv;
    K[1][0] = b->v[0] * inv;
    K[2][0] = c->v[0] * inv;
    *dw = K[0][0] * (float)a0 + K[1][0] * (float)a1 + K[2][0] * (float)a2;
}

/* A row's 1/d (returned) and colour in fixed point (rgb[1..3]) at its first
 * pixel, from the exact edge functions f0..f2 there. */
static inline float row_start(const float K[3][4], float f0, float f1, float f2, int32_t rgb[4])
{
    int l;
    for (l = 1; l < 4; l++)
        rgb[l] = to_fix(K[0][l] * f0 + K[1][l] * f1 + K[2][l] * f2);
    return K[0][0] * f0 + K[1][0] * f1 + K[2][0] * f2;
}

/* The rows of the triangle whose edges E are set up. */
static KF3DS__ALWAYS_INLINE int fill_rows(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                                          const kf3ds__fill_vertex *b,
                                          const kf3ds__fill_vertex *c, int64_t area,
                                          const kf3ds__edges *E, int flat, uint32_t flat_color)
{
    const int W = fb->width;
    const int64_t a0 = E->a0, a1 = E->a1, a2 = E->a2, b0 = E->b0, b1 = E->b1, b2 = E->b2;
    const int px0 = E->px0, px1 = E->px1, py0 = E->py0, py1 = E->py1;
    int64_t e0r = E->e0, e1r = E->e1, e2r = E->e2;
    int y, covered = 0;
    float K[3][4], dw = 0.0f; /* K: setup_values sets every weight */
    int32_t dc[3] = { 0, 0, 0 };
    float *zbuf = fb->depth;
    uint32_t *cbuf = fb->color;

    if (px1 - px0 < 12) {
        /* Narrow triangles (most faces of dense meshes: a few pixels on two
         * or three rows) test each row's pixels against the edges, in a loop
         * of their own that keeps its values in registers. */
        for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
            int64_t e0 = e0r, e1 = e1r, e2 = e2r;
            int x;
            uint32_t *crow;
            float *zrow, w, f0, f1, f2;
            /* walk to the first covered pixel, then draw while the edge
             * functions stay non-negative */
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
            /* Many small triangles of a dense mesh cover no pixel centre:
             * the stepped values are set up once a row has pixels. */
            if (!covered)
                setup_values(a, b, c, area, a0, a1, a2, flat, K, &dw, dc);
            covered = 1;
            crow = cbuf + (size_t)y * (size_t)W;
            zrow = zbuf + (size_t)y * (size_t)W;
            f0 = (float)e0;
            f1 = (float)e1;
            f2 = (float)e2;
            if (flat) {
                w = K[0][0] * f0 + K[1][0] * f1 + K[2][0] * f2;
                do {
                    if (w > zrow[x]) {
                        zrow[x] = w;
                        crow[x] = flat_color;
                    }
                    w += dw;
                    e0 += a0;
                    e1 += a1;
                    e2 += a2;
                } while (++x <= px1 && (e0 | e1 | e2) >= 0);
            } else {
                int32_t q[4], r, g, bl;
                w = row_start((const float(*)[4])K, f0, f1, f2, q);
                r = q[1], g = q[2], bl = q[3];
                do {
                    if (w > zrow[x]) {
                        zrow[x] = w;
                        crow[x] = KF3DS__PACK(r, g, bl);
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
        }
        return covered;
    }
    /* the wide rows: each row's span found exactly first */
    for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
        int64_t e0 = e0r, e1 = e1r, e2 = e2r, lo, hi;
        int x, xe;
        uint32_t *crow;
        float *zrow, f0, f1, f2, w;
        if (!kf3ds__edges_span(E, e0, e1, e2, &lo, &hi))
            continue;
        x = px0 + (int)lo;
        xe = px0 + (int)hi;
        e0 += a0 * lo;
        e1 += a1 * lo;
        e2 += a2 * lo;
        if (!covered)
            setup_values(a, b, c, area, a0, a1, a2, flat, K, &dw, dc);
        covered = 1;
        crow = cbuf + (size_t)y * (size_t)W;
        zrow = zbuf + (size_t)y * (size_t)W;
        f0 = (float)e0;
        f1 = (float)e1;
        f2 = (float)e2;
        if (flat) {
            w = K[0][0] * f0 + K[1][0] * f1 + K[2][0] * f2;
            for (; x <= xe; x++, w += dw)
                if (w > zrow[x]) {
                    zrow[x] = w;
                    crow[x] = flat_color;
                }
        } else {
            int32_t q[4], r, g, bl;
            w = row_start((const float(*)[4])K, f0, f1, f2, q);
            r = q[1], g = q[2], bl = q[3];
            for (; x <= xe; x++, w += dw, r += dc[0], g += dc[1], bl += dc[2])
                if (w > zrow[x]) {
                    zrow[x] = w;
                    crow[x] = KF3DS__PACK(r, g, bl);
                }
        }
    }
    return covered;
}

int kf3ds__fill_plain(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                      const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                      int flat, uint32_t flat_color)
{
    kf3ds__edges E;
    if (!kf3ds__edges_setup(&E, a->X, a->Y, b->X, b->Y, c->X, c->Y, fb->width, fb->height))
        return 0;
    return fill_rows(fb, a, b, c, area, &E, flat, flat_color);
}
