/* kf3ds__transform_points_sse2: the vertex transform four points at a time
 * with SSE2 (raster_transform.h), the rest by the plain reference. */
#include "raster_transform.h"

#if defined(KF3DS__SSE2)
#include <stddef.h>

/* transform4's stores assume the vertex is seven 4-byte fields, X at byte 16. */
typedef char kf3ds__vertex_layout_check[offsetof(kf3ds__vertex, X) == 16 &&
                                                sizeof(kf3ds__vertex) == 28 ? 1 : -1];

/* Four points at a time: kf3ds__classify's operations lane by lane, in the
 * same order, so every vertex gets the same bits as the scalar code (dense
 * meshes spend much of their frame here; docs/performance.md). */
static void transform4(const kf3ds__projection *p, const float *m, const float *pts,
                       kf3ds__vertex *out)
{
    const __m128 zero = _mm_setzero_ps(), big = _mm_set1_ps(KF3DS__BIG_COORD);
    const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    __m128 a = _mm_set_ps(pts[9], pts[6], pts[3], pts[0]);
    __m128 b = _mm_set_ps(pts[10], pts[7], pts[4], pts[1]);
    __m128 c = _mm_set_ps(pts[11], pts[8], pts[5], pts[2]);
    __m128 x, y, z, d, fxx, fyy, bad, w, sx, sy;
    __m128i code, clip, X, Y;
#define ROW(i)                                                                            \
    _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(m[4 * (i)]), a),              \
                                     _mm_mul_ps(_mm_set1_ps(m[4 * (i) + 1]), b)),         \
                          _mm_mul_ps(_mm_set1_ps(m[4 * (i) + 2]), c)),                    \
               _mm_set1_ps(m[4 * (i) + 3]))
    x = ROW(0);
    y = ROW(1);
    z = ROW(2);
#undef ROW
    /* d = −z by flipping the sign, as the scalar code (0 − z would give +0) */
    d = _mm_xor_ps(z, _mm_castsi128_ps(_mm_set1_epi32((int)0x80000000u)));
    bad = _mm_or_ps(_mm_or_ps(_mm_cmpnle_ps(_mm_and_ps(x, absmask), big),
                              _mm_cmpnle_ps(_mm_and_ps(y, absmask), big)),
                    _mm_cmpnle_ps(_mm_and_ps(d, absmask), big));
    fxx = _mm_mul_ps(_mm_set1_ps(p->fx), x);
    fyy = _mm_mul_ps(_mm_set1_ps(p->fy), y);
#define BIT(mask, bit) _mm_and_si128(_mm_castps_si128(mask), _mm_set1_epi32((int)(bit)))
    code = _mm_or_si128(
        _mm_or_si128(
            _mm_or_si128(BIT(_mm_cmpnge_ps(_mm_sub_ps(d, _mm_set1_ps(p->near_d)), zero), OC_NEAR),
                         BIT(_mm_cmpgt_ps(d, _mm_set1_ps(p->far_d)), OC_FAR)),
            _mm_or_si128(
                BIT(_mm_cmplt_ps(_mm_add_ps(fxx, _mm_mul_ps(_mm_set1_ps(p->cx - p->xlo), d)),
                                 zero), OC_LEFT),
                BIT(_mm_cmplt_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(p->xhi - p->cx), d), fxx),
                                 zero), OC_RIGHT))),
        _mm_or_si128(
            BIT(_mm_cmplt_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(p->cy - p->ylo), d), fyy), zero),
                OC_TOP),
            BIT(_mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(p->yhi - p->cy), d), fyy), zero),
                OC_BOTTOM)));
#undef BIT
    code = _mm_or_si128(_mm_andnot_si128(_mm_castps_si128(bad), code),
                        _mm_and_si128(_mm_castps_si128(bad), _mm_set1_epi32((int)OC_BAD)));
    /* w, X, Y only inside the clip planes (and not bad), else 0 */
    clip = _mm_cmpeq_epi32(_mm_and_si128(code, _mm_set1_epi32((int)(OC_CLIP | OC_BAD))),
                           _mm_setzero_si128());
    w = _mm_div_ps(_mm_set1_ps(1.0f), d);
    /* kf3ds__project_fixed: max_ps(s, lo) is s > lo ? s : lo (NaN: lo), then
     * min_ps(hi, s) is hi < s ? hi : s */
    sx = _mm_add_ps(_mm_set1_ps(p->cx), _mm_mul_ps(fxx, w));
    sy = _mm_sub_ps(_mm_set1_ps(p->cy), _mm_mul_ps(fyy, w));
    sx = _mm_min_ps(_mm_set1_ps(p->xhi), _mm_max_ps(sx, _mm_set1_ps(p->xlo)));
    sy = _mm_min_ps(_mm_set1_ps(p->yhi), _mm_max_ps(sy, _mm_set1_ps(p->ylo)));
    X = _mm_sub_epi32(_mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(sx, _mm_set1_ps(
                                                                 (float)KF3DS__SUBPIXELS)),
                                                  _mm_set1_ps((float)KF3DS__FIX_OFFSET + 0.5f))),
                      _mm_set1_epi32(KF3DS__FIX_OFFSET));
    Y = _mm_sub_epi32(_mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(sy, _mm_set1_ps(
                                                                 (float)KF3DS__SUBPIXELS)),
                                                  _mm_set1_ps((float)KF3DS__FIX_OFFSET + 0.5f))),
                      _mm_set1_epi32(KF3DS__FIX_OFFSET));
    /* Lanes to vertices: (x, y, d, w) and (X, Y, code, 0) of each vertex by two
     * 4×4 transposes, each stored as 16 bytes. The second store of vertex j
     * spills into vertex j + 1's x, which its own first store then replaces;
     * the last vertex's second part is stored as 12 bytes. */
    w = _mm_and_ps(w, _mm_castsi128_ps(clip));
    _MM_TRANSPOSE4_PS(x, y, d, w);
    {
        __m128 i0 = _mm_castsi128_ps(_mm_and_si128(X, clip));
        __m128 i1 = _mm_castsi128_ps(_mm_and_si128(Y, clip));
        __m128 i2 = _mm_castsi128_ps(code), i3 = zero;
        _MM_TRANSPOSE4_PS(i0, i1, i2, i3);
        _mm_storeu_ps(&out[0].x, x);
        _mm_storeu_ps((float *)(void *)&out[0].X, i0);
        _mm_storeu_ps(&out[1].x, y);
        _mm_storeu_ps((float *)(void *)&out[1].X, i1);
        _mm_storeu_ps(&out[2].x, d);
        _mm_storeu_ps((float *)(void *)&out[2].X, i2);
        _mm_storeu_ps(&out[3].x, w);
        _mm_storel_pi((__m64 *)(void *)&out[3].X, i3);
        out[3].code = (uint32_t)_mm_cvtsi128_si32(_mm_castps_si128(_mm_movehl_ps(i3, i3)));
    }
}

void kf3ds__transform_points_sse2(const kf3ds__projection *p, const float *m, const float *pts,
                                  uint32_t n, kf3ds__vertex *out)
{
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4)
        transform4(p, m, pts + 3 * i, out + i);
    kf3ds__transform_points_plain(p, m, pts + 3 * i, n - i, out + i);
}
#endif
