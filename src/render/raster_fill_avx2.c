/* kf3ds__fill_avx2: the triangle fill where the CPU has AVX2 (raster_fill.h).
 * Tall narrow triangles (narrow_vector_rows) take narrow_rows_avx2, two rows
 * per vector; every other triangle takes kf3ds__fill_sse2's rows (fill_rows). The same bytes
 * as kf3ds__fill_plain. The functions enable avx2 alone (target attribute),
 * not fma, so that no product and sum is contracted into one rounding. */
#include "raster_fill.h"

#if defined(KF3DS__AVX2)
#include <immintrin.h>
#include "raster_span_sse2.h"

/* The SSE2 pieces in VEX code: legacy SSE code run while the upper halves of
 * the AVX registers are in use costs a transition each time (GCC adds no
 * vzeroupper before these calls). The same operations, so the same bits. */
__attribute__((noinline, target("avx2"))) static void
setup_values_avx2(const kf3ds__fill_vertex *a, const kf3ds__fill_vertex *b,
                  const kf3ds__fill_vertex *c, int64_t area, int64_t a0, int64_t a1, int64_t a2,
                  int flat, float K[3][4], float *dw, int32_t dc[3])
{
    setup_values_body(a, b, c, area, a0, a1, a2, flat, K, dw, dc);
}

__attribute__((target("avx2"))) static void span_steps_setup_avx2(span_steps *S, float dw,
                                                                  const int32_t dc[3])
{
    span_steps_body(S, dw, dc);
}

__attribute__((target("avx2"))) static void span4_avx2(float *zrow, uint32_t *crow, int x, int n,
                                                       size_t room, float w, float dw, int32_t r,
                                                       int32_t g, int32_t bl,
                                                       const span_steps *S,
                                                       const int32_t dc[3], int flat,
                                                       uint32_t flat_color)
{
    span4_body(zrow, crow, x, n, room, w, dw, r, g, bl, S, dc, flat, flat_color);
}

/* What fill hands narrow_rows_avx2: a narrow triangle of G vectors per row. */
typedef struct narrow_tri {
    const kf3ds__fill_vertex *a, *b, *c;
    int64_t area, a0, a1, a2;
    int flat, px0, px1, py0, py1;
    uint32_t flat_color;
    unsigned rowmask;
    int32_t e[3], ea[3], eb[3];  /* the edge functions at (px0, py0), their steps */
} narrow_tri;

/* The covered pixels of a narrow row, bit k for px0 + k (row_bits on eight
 * lanes: V the edge functions at px0.., A8 = 8a). */
__attribute__((target("avx2"))) static KF3DS__ALWAYS_INLINE unsigned
narrow_bits(const __m256i V[3], const __m256i A8[3], int G8)
{
    unsigned bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
                        _mm256_or_si256(_mm256_or_si256(V[0], V[1]), V[2]))) ^ 255u;
    if (G8 > 1) {
        const __m256i e0 = _mm256_add_epi32(V[0], A8[0]), e1 = _mm256_add_epi32(V[1], A8[1]);
        const __m256i e2 = _mm256_add_epi32(V[2], A8[2]);
        bits |= ((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
                     _mm256_or_si256(_mm256_or_si256(e0, e1), e2))) ^ 255u) << 8;
    }
    return bits;
}

/* pack4 on eight lanes (two rows of four, or one row of eight). */
__attribute__((target("avx2"))) static KF3DS__ALWAYS_INLINE __m256i
pack8(__m256i rv, __m256i gv, __m256i bv)
{
    return _mm256_or_si256(
        _mm256_or_si256(_mm256_set1_epi32((int)0xFF000000u),
                        _mm256_and_si256(rv, _mm256_set1_epi32(0xFF0000))),
        _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(gv, 8), _mm256_set1_epi32(0xFF00)),
                        _mm256_and_si256(_mm256_srli_epi32(bv, 16), _mm256_set1_epi32(0xFF))));
}

/* One row of narrow_rows_avx2: n covered pixels from zp/cp on (room: the
 * pixels from there to the end of the framebuffer), fe the edge functions at
 * the first. Five to eight pixels are one vector (lane k's 1/d: q plus D[0..6],
 * so k additions of dw then zeros, which leave a passing value's bits alone);
 * other spans go to span_row. */
__attribute__((target("avx2"))) static KF3DS__ALWAYS_INLINE void
narrow_row_avx2(float *zp, uint32_t *cp, int n, size_t room, __m128 fe, const float K[3][4],
                float dw, const span_steps *S, const int32_t dc[3], int flat, uint32_t flat_color,
                const __m256 D[7], __m256i DR, __m256i DG, __m256i DB)
{
    const __m256i lane = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    int k;
    /* row_start's sums; flat: lane 0 alone counts (K's others are 0) */
    const __m128 q = _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(K[0]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(0, 0, 0, 0))),
                   _mm_mul_ps(_mm_loadu_ps(K[1]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(1, 1, 1, 1)))),
        _mm_mul_ps(_mm_loadu_ps(K[2]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(2, 2, 2, 2))));
    if (n <= 4 || n > 8 || room < 8) {
        span_row(zp, cp, 0, n, room, q, dw, S, dc, flat, flat_color, span4_avx2);
        return;
    }
    {
        /* five to eight pixels: one vector */
        __m256 wv = _mm256_broadcastss_ps(q), z, pass;
        for (k = 0; k < 7; k++)
            wv = _mm256_add_ps(wv, D[k]);
        z = _mm256_loadu_ps(zp);
        pass = _mm256_and_ps(_mm256_cmp_ps(z, wv, _CMP_LT_OS),
                             _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane)));
        if (_mm256_movemask_ps(pass)) {
            const __m256i pm = _mm256_castps_si256(pass);
            const __m256i old = _mm256_loadu_si256((const __m256i *)(const void *)cp);
            __m256i c = _mm256_set1_epi32((int)flat_color);
            if (!flat) {
                /* row_fix, then pack4 on eight lanes */
                const __m128i qi = row_fix(q);
                const __m256i rv = _mm256_add_epi32(_mm256_broadcastd_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(1, 1, 1, 1))), DR);
                const __m256i gv = _mm256_add_epi32(_mm256_broadcastd_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(2, 2, 2, 2))), DG);
                const __m256i bv = _mm256_add_epi32(_mm256_broadcastd_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(3, 3, 3, 3))), DB);
                c = pack8(rv, gv, bv);
            }
            _mm256_storeu_ps(zp, _mm256_blendv_ps(z, wv, pass));
            _mm256_storeu_si256((__m256i *)(void *)cp, _mm256_blendv_epi8(old, c, pm));
        }
    }
}

/* fill's vector rows (its G loop) in AVX2, rows y and y + 1 together. Each
 * row's covered pixels come from one vector of eight edge-function lanes
 * (two up to twelve pixels wide: narrow_bits). When both rows cover one to
 * four pixels (most rows of tall thin triangles), their start
 * values, depth tests, colours and blends are one 256-bit vector, row y on
 * the low lanes, row y + 1 on the high (span_row's one-vector case twice);
 * any other row is drawn alone (narrow_row_avx2: five to eight pixels in one
 * vector, else span_row). Every lane has the SSE2 code's operations in the
 * same order, so the same bits: lane k's 1/d is w plus dw k times, the
 * colours the same 16.16 integers. Returns 1 when a pixel was covered. */
/* (noinline: the other triangles do not pay for its registers) */
__attribute__((noinline, target("avx2"))) static int narrow_rows_avx2(kf3ds_framebuffer *fb,
                                                             const narrow_tri *T)
{
    const int W = fb->width, H = fb->height, px0 = T->px0, flat = T->flat;
    const int G8 = (T->px1 - px0 + 8) / 8;
    const uint32_t flat_color = T->flat_color;
    float *zbuf = fb->depth;
    uint32_t *cbuf = fb->color;
    float K[3][4] = { { 0 } }, dw = 0.0f;
    int32_t dc[3] = { 0, 0, 0 };
    span_steps S;
    __m128i AK[12], Er;
    __m256i V[3], A8[3], B[3], DR = _mm256_setzero_si256(), DG = DR, DB = DR, PR = DR, PG = DR,
                                                                PB = DR;
    __m256 D[7], K0 = _mm256_setzero_ps(), K1 = K0, K2 = K0, D1 = K0, D2 = K0, D3 = K0;
    const __m256i lane = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    const __m256i lane4 = _mm256_set_epi32(3, 2, 1, 0, 3, 2, 1, 0);
    const __m128i Av = _mm_set_epi32(0, T->ea[2], T->ea[1], T->ea[0]);
    const __m128i Bv = _mm_set_epi32(0, T->eb[2], T->eb[1], T->eb[0]);
    int covered = 0, k, y;
    for (k = 0; k < 3; k++) {
        /* lane j: the edge function at px0 + j (edges_fit32 bounds the lanes
         * of the row's pixels; the others are masked off) */
        const int32_t s1 = T->ea[k];
        V[k] = _mm256_add_epi32(_mm256_set1_epi32(T->e[k]),
                                _mm256_mullo_epi32(_mm256_set1_epi32(s1), lane));
        A8[k] = _mm256_set1_epi32((int32_t)((uint32_t)s1 * 8u));
        B[k] = _mm256_set1_epi32(T->eb[k]);
    }
    for (k = 0; k < 7; k++)
        D[k] = _mm256_setzero_ps();
    Er = _mm_set_epi32(0, T->e[2], T->e[1], T->e[0]);
    AK[0] = _mm_setzero_si128();
    for (k = 1; k <= T->px1 - px0; k++) /* off <= px1 - px0 */
        AK[k] = _mm_add_epi32(AK[k - 1], Av);
    for (y = T->py0; y <= T->py1; y += 2) {
        /* rows y (a) and y + 1 (b) */
        __m256i v0 = _mm256_add_epi32(V[0], B[0]), v1 = _mm256_add_epi32(V[1], B[1]);
        __m256i v2 = _mm256_add_epi32(V[2], B[2]);
        unsigned ba = narrow_bits(V, A8, G8) & T->rowmask, bb;
        const __m128i Era = Er, Erb = _mm_add_epi32(Er, Bv);
        const size_t ra = (size_t)y * (size_t)W, rb = ra + (size_t)W;
        int offa = 0, na = 0, offb = 0, nb = 0;
        {
            const __m256i Vb[3] = { v0, v1, v2 };
            bb = y < T->py1 ? narrow_bits(Vb, A8, G8) & T->rowmask : 0u;
        }
        V[0] = _mm256_add_epi32(v0, B[0]);
        V[1] = _mm256_add_epi32(v1, B[1]);
        V[2] = _mm256_add_epi32(v2, B[2]);
        Er = _mm_add_epi32(Erb, Bv);
        if (!(ba | bb))
            continue;
        if (!covered) {
            setup_values_avx2(T->a, T->b, T->c, T->area, T->a0, T->a1, T->a2, flat, K, &dw, dc);
            span_steps_setup_avx2(&S, dw, dc);
            {
                /* D[j]: dw on lanes j + 1.., so lane k gets k additions */
                const __m256 w8 = _mm256_set1_ps(dw);
                for (k = 0; k < 7; k++)
                    D[k] = _mm256_and_ps(w8, _mm256_castsi256_ps(_mm256_cmpgt_epi32(
                                                 lane, _mm256_set1_epi32(k))));
                /* 0, dc, ..., 7dc: lane j's j·dc as the exact integer sum */
                DR = _mm256_mullo_epi32(_mm256_set1_epi32(dc[0]), lane);
                DG = _mm256_mullo_epi32(_mm256_set1_epi32(dc[1]), lane);
                DB = _mm256_mullo_epi32(_mm256_set1_epi32(dc[2]), lane);
                K0 = _mm256_set_m128(_mm_loadu_ps(K[0]), _mm_loadu_ps(K[0]));
                K1 = _mm256_set_m128(_mm_loadu_ps(K[1]), _mm_loadu_ps(K[1]));
                K2 = _mm256_set_m128(_mm_loadu_ps(K[2]), _mm_loadu_ps(K[2]));
                D1 = _mm256_set_m128(S.d1, S.d1);
                D2 = _mm256_set_m128(S.d2, S.d2);
                D3 = _mm256_set_m128(S.d3, S.d3);
                PR = _mm256_set_m128i(S.dr, S.dr);
                PG = _mm256_set_m128i(S.dg, S.dg);
                PB = _mm256_set_m128i(S.db, S.db);
            }
            covered = 1;
        }
        if (ba) {
            offa = lowest_bit(ba);
            na = lowest_bit(~(ba >> offa)); /* the covered pixels are one run */
        }
        if (bb) {
            offb = lowest_bit(bb);
            nb = lowest_bit(~(bb >> offb));
        }
        if (ba && bb && na <= 4 && nb <= 4 &&
            (size_t)(H - y - 1) * (size_t)W - (size_t)(px0 + offb) >= 4) {
            /* Both rows of up to four pixels in one vector each: row a on
             * the low lanes, row b on the high (span_row's one vector twice) */
            float *za = zbuf + ra + px0 + offa, *zb = zbuf + rb + px0 + offb;
            uint32_t *ca = cbuf + ra + px0 + offa, *cb = cbuf + rb + px0 + offb;
            const __m256 fe = _mm256_cvtepi32_ps(_mm256_add_epi32(
                _mm256_set_m128i(Erb, Era), _mm256_set_m128i(AK[offb], AK[offa])));
            const __m256 q = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(K0, _mm256_shuffle_ps(fe, fe, _MM_SHUFFLE(0, 0, 0, 0))),
                              _mm256_mul_ps(K1, _mm256_shuffle_ps(fe, fe, _MM_SHUFFLE(1, 1, 1, 1)))),
                _mm256_mul_ps(K2, _mm256_shuffle_ps(fe, fe, _MM_SHUFFLE(2, 2, 2, 2))));
            __m256 wv = _mm256_shuffle_ps(q, q, _MM_SHUFFLE(0, 0, 0, 0)), z, pass;
            wv = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(wv, D1), D2), D3);
            z = _mm256_set_m128(_mm_loadu_ps(zb), _mm_loadu_ps(za));
            pass = _mm256_and_ps(
                _mm256_cmp_ps(z, wv, _CMP_LT_OS),
                _mm256_castsi256_ps(_mm256_cmpgt_epi32(
                    _mm256_set_m128i(_mm_set1_epi32(nb), _mm_set1_epi32(na)), lane4)));
            if (_mm256_movemask_ps(pass)) {
                const __m256i pm = _mm256_castps_si256(pass);
                const __m256 zn = _mm256_blendv_ps(z, wv, pass);
                const __m256i old =
                    _mm256_set_m128i(_mm_loadu_si128((const __m128i *)(const void *)cb),
                                     _mm_loadu_si128((const __m128i *)(const void *)ca));
                __m256i c = _mm256_set1_epi32((int)flat_color);
                if (!flat) {
                    /* row_fix on both rows, then their colour lanes */
                    __m256 f = _mm256_mul_ps(q, _mm256_set1_ps(65536.0f));
                    __m256i qi;
                    f = _mm256_max_ps(f, _mm256_set1_ps(-16777216.0f));
                    f = _mm256_min_ps(_mm256_set1_ps(16777216.0f), f);
                    qi = _mm256_cvttps_epi32(f);
                    c = pack8(_mm256_add_epi32(_mm256_shuffle_epi32(qi, _MM_SHUFFLE(1, 1, 1, 1)), PR),
                              _mm256_add_epi32(_mm256_shuffle_epi32(qi, _MM_SHUFFLE(2, 2, 2, 2)), PG),
                              _mm256_add_epi32(_mm256_shuffle_epi32(qi, _MM_SHUFFLE(3, 3, 3, 3)), PB));
                }
                c = _mm256_blendv_epi8(old, c, pm);
                /* row a first: its lanes past the row's end hold row b's old
                 * pixels, which row b's stores then replace */
                _mm_storeu_ps(za, _mm256_castps256_ps128(zn));
                _mm_storeu_si128((__m128i *)(void *)ca, _mm256_castsi256_si128(c));
                _mm_storeu_ps(zb, _mm256_extractf128_ps(zn, 1));
                _mm_storeu_si128((__m128i *)(void *)cb, _mm256_extracti128_si256(c, 1));
            }
            continue;
        }
        if (ba) {
            const int x = px0 + offa;
            narrow_row_avx2(zbuf + ra + x, cbuf + ra + x, na, (size_t)(H - y) * (size_t)W - (size_t)x,
                            _mm_cvtepi32_ps(_mm_add_epi32(Era, AK[offa])), (const float(*)[4])K,
                            dw, &S, dc, flat, flat_color, D, DR, DG, DB);
        }
        if (bb) {
            const int x = px0 + offb;
            narrow_row_avx2(zbuf + rb + x, cbuf + rb + x, nb,
                            (size_t)(H - y - 1) * (size_t)W - (size_t)x,
                            _mm_cvtepi32_ps(_mm_add_epi32(Erb, AK[offb])), (const float(*)[4])K,
                            dw, &S, dc, flat, flat_color, D, DR, DG, DB);
        }
    }
    return covered;
}

int kf3ds__fill_avx2(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                     const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                     int flat, uint32_t flat_color)
{
    kf3ds__edges e;
    const kf3ds__edges *E = &e;
    narrow_tri T;
    if (!kf3ds__edges_setup(&e, a->X, a->Y, b->X, b->Y, c->X, c->Y, fb->width, fb->height))
        return 0;
    if (!narrow_vector_rows(E))
        return fill_rows(fb, a, b, c, area, E, flat, flat_color);
    T.a = a, T.b = b, T.c = c, T.area = area, T.a0 = E->a0, T.a1 = E->a1, T.a2 = E->a2;
    T.flat = flat, T.px0 = E->px0, T.px1 = E->px1, T.py0 = E->py0, T.py1 = E->py1;
    T.flat_color = flat_color, T.rowmask = (2u << (E->px1 - E->px0)) - 1u;
    T.e[0] = (int32_t)E->e0, T.e[1] = (int32_t)E->e1, T.e[2] = (int32_t)E->e2;
    T.ea[0] = (int32_t)E->a0, T.ea[1] = (int32_t)E->a1, T.ea[2] = (int32_t)E->a2;
    T.eb[0] = (int32_t)E->b0, T.eb[1] = (int32_t)E->b1, T.eb[2] = (int32_t)E->b2;
    return narrow_rows_avx2(fb, &T);
}
#else
/* No AVX2 in this build: kf3ds__fill_sse2 or kf3ds__fill_plain serves. */
typedef int kf3ds__fill_avx2_absent;
#endif
