/* kf3ds__fill_sse2: the triangle fill with SSE2 (raster_fill.h). Spans are
 * drawn four pixels per vector and tall narrow triangles find their rows'
 * pixels four at a time (row_bits), with kf3ds__fill_plain's results. */
#include "raster_fill.h"

#if defined(KF3DS__SSE2)
#include "raster_span_sse2.h"

#if defined(__GNUC__)
__attribute__((noinline)) /* inlined, it costs the row loops registers */
#endif
static void setup_values(const kf3ds__fill_vertex *a, const kf3ds__fill_vertex *b,
                         const kf3ds__fill_vertex *c, int64_t area, int64_t a0, int64_t a1,
                         int64_t a2, int flat, float K[3][4], float *dw, int32_t dc[3])
{
    setup_values_body(a, b, c, area, a0, a1, a2, flat, K, dw, dc);
}

static void span_steps_setup(span_steps *S, float dw, const int32_t dc[3])
{
    span_steps_body(S, dw, dc);
}

static void span4(float *zrow, uint32_t *crow, int x, int n, size_t room, float w, float dw,
                  int32_t r, int32_t g, int32_t bl, const span_steps *S, const int32_t dc[3],
                  int flat, uint32_t flat_color)
{
    span4_body(zrow, crow, x, n, room, w, dw, r, g, bl, S, dc, flat, flat_color);
}

/* The pixels of a narrow row inside all three edges, bit k for px0 + k:
 * the sign bits of e0 | e1 | e2 over G vectors of four (lanes: the edge
 * functions at px0 + k; the next vector adds A4 = 4a). */
static inline unsigned row_bits(const __m128i V[3], const __m128i A4[3], int G)
{
    __m128i e0 = V[0], e1 = V[1], e2 = V[2];
    unsigned bits = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(
                        _mm_or_si128(_mm_or_si128(e0, e1), e2))) ^ 15u;
    int g;
    for (g = 1; g < G; g++) {
        e0 = _mm_add_epi32(e0, A4[0]);
        e1 = _mm_add_epi32(e1, A4[1]);
        e2 = _mm_add_epi32(e2, A4[2]);
        bits |= ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(
                     _mm_or_si128(_mm_or_si128(e0, e1), e2))) ^ 15u) << (4 * g);
    }
    return bits;
}

/* The rows of a narrow_vector_rows triangle: the three edge functions at
 * the row's first visited pixel in one vector (edges_fit32: 32 bits hold
 * them), so a row's first covered pixel's are one addition (AK[off] = a·off)
 * and one conversion, the same values as the 64-bit ones converted. */
static int narrow_rows(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                       const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                       const kf3ds__edges *E, int flat, uint32_t flat_color)
{
    const int W = fb->width, H = fb->height, px0 = E->px0, px1 = E->px1;
    const int G = (px1 - px0 + 4) / 4;
    const unsigned rowmask = (2u << (px1 - px0)) - 1u;
    const int64_t e[3] = { E->e0, E->e1, E->e2 }, st[3] = { E->a0, E->a1, E->a2 };
    const int64_t dn[3] = { E->b0, E->b1, E->b2 };
    float *zbuf = fb->depth;
    uint32_t *cbuf = fb->color;
    float K[3][4], dw = 0.0f;
    int32_t dc[3] = { 0, 0, 0 };
    span_steps S;
    __m128i V[3], A4[3], B[3], AK[12];
    __m128i Er = _mm_set_epi32(0, (int32_t)e[2], (int32_t)e[1], (int32_t)e[0]);
    const __m128i Bv = _mm_set_epi32(0, (int32_t)dn[2], (int32_t)dn[1], (int32_t)dn[0]);
    const __m128i Av = _mm_set_epi32(0, (int32_t)st[2], (int32_t)st[1], (int32_t)st[0]);
    int k, y, covered = 0;
    for (k = 0; k < 3; k++) {
        /* lane k: the edge function at px0 + k (edges_fit32 bounds 3a) */
        const int32_t s1 = (int32_t)st[k];
        V[k] = _mm_add_epi32(_mm_set1_epi32((int32_t)e[k]), _mm_set_epi32(3 * s1, 2 * s1, s1, 0));
        A4[k] = _mm_set1_epi32((int32_t)(4 * st[k]));
        B[k] = _mm_set1_epi32((int32_t)dn[k]);
    }
    AK[0] = _mm_setzero_si128();
    for (k = 1; k <= px1 - px0; k++) /* off <= px1 - px0 */
        AK[k] = _mm_add_epi32(AK[k - 1], Av);
    for (y = E->py0; y <= E->py1; y++) {
        const unsigned bits = row_bits(V, A4, G) & rowmask;
        const size_t row = (size_t)y * (size_t)W;
        __m128 fe;
        int off, n;
        V[0] = _mm_add_epi32(V[0], B[0]);
        V[1] = _mm_add_epi32(V[1], B[1]);
        V[2] = _mm_add_epi32(V[2], B[2]);
        if (!bits) {
            Er = _mm_add_epi32(Er, Bv);
            continue;
        }
        off = lowest_bit(bits);
        n = lowest_bit(~(bits >> off)); /* the covered pixels are one run */
        fe = _mm_cvtepi32_ps(_mm_add_epi32(Er, AK[off]));
        Er = _mm_add_epi32(Er, Bv);
        /* Many small triangles of a dense mesh cover no pixel centre: the
         * stepped values are set up once a row has pixels. */
        if (!covered) {
            setup_values(a, b, c, area, E->a0, E->a1, E->a2, flat, K, &dw, dc);
            span_steps_setup(&S, dw, dc);
            covered = 1;
        }
        /* row_start's sums; flat: lane 0 alone counts (K's others are 0) */
        span_row(zbuf + row, cbuf + row, px0 + off, n,
                 (size_t)(H - y) * (size_t)W - (size_t)(px0 + off),
                 row_sums_v((const float(*)[4])K, fe), dw, &S, dc, flat, flat_color, span4);
    }
    return covered;
}

int kf3ds__fill_sse2(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                     const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                     const kf3ds__edges *E, int flat, uint32_t flat_color)
{
    const int W = fb->width, H = fb->height;
    const int64_t a0 = E->a0, a1 = E->a1, a2 = E->a2, b0 = E->b0, b1 = E->b1, b2 = E->b2;
    const int px0 = E->px0, px1 = E->px1, py0 = E->py0, py1 = E->py1;
    int64_t e0r = E->e0, e1r = E->e1, e2r = E->e2;
    int y, covered = 0;
    float K[3][4], dw = 0.0f; /* K: setup_values sets every weight */
    int32_t dc[3] = { 0, 0, 0 };
    float *zbuf = fb->depth;
    uint32_t *cbuf = fb->color;
    span_steps S;

    if (narrow_vector_rows(E))
        return narrow_rows(fb, a, b, c, area, E, flat, flat_color);
    if (px1 - px0 < 12) {
        /* kf3ds__fill_plain's narrow loop, row_start in one vector */
        for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
            int64_t e0 = e0r, e1 = e1r, e2 = e2r;
            int x;
            uint32_t *crow;
            float *zrow, w, f0, f1, f2;
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
    /* the wide rows: each row's span found exactly first, then span_row */
    for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
        int64_t e0 = e0r, e1 = e1r, e2 = e2r, lo, hi;
        int x, xe;
        float f0, f1, f2;
        if (!kf3ds__edges_span(E, e0, e1, e2, &lo, &hi))
            continue;
        x = px0 + (int)lo;
        xe = px0 + (int)hi;
        e0 += a0 * lo;
        e1 += a1 * lo;
        e2 += a2 * lo;
        if (!covered) {
            setup_values(a, b, c, area, a0, a1, a2, flat, K, &dw, dc);
            span_steps_setup(&S, dw, dc);
        }
        covered = 1;
        f0 = (float)e0;
        f1 = (float)e1;
        f2 = (float)e2;
        span_row(zbuf + (size_t)y * (size_t)W, cbuf + (size_t)y * (size_t)W, x, xe - x + 1,
                 (size_t)(H - y) * (size_t)W - (size_t)x,
                 flat ? _mm_set_ss(K[0][0] * f0 + K[1][0] * f1 + K[2][0] * f2)
                      : row_sums((const float(*)[4])K, f0, f1, f2),
                 dw, &S, dc, flat, flat_color, span4);
    }
    return covered;
}
#else
/* No SSE2 in this build: kf3ds__fill_plain serves. */
typedef int kf3ds__fill_sse2_absent;
#endif
