/* kf3ds__fill_sse2: the triangle fill with SSE2 (raster_fill.h). Spans are
 * drawn four pixels per vector and tall narrow triangles find their rows'
 * pixels four at a time (row_bits), with kf3ds__fill_plain's results. */
#include "raster_fill.h"

#if defined(KF3DS__SSE2)
#include "raster_span_sse2.h"

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
                     int flat, uint32_t flat_color)
{
    kf3ds__edges E;
    if (!kf3ds__edges_setup(&E, a->X, a->Y, b->X, b->Y, c->X, c->Y, fb->width, fb->height))
        return 0;
    if (narrow_vector_rows(&E))
        return narrow_rows(fb, a, b, c, area, &E, flat, flat_color);
    return fill_rows(fb, a, b, c, area, &E, flat, flat_color);
}
#else
/* No SSE2 in this build: kf3ds__fill_plain serves. */
typedef int kf3ds__fill_sse2_absent;
#endif

