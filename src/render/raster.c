/* The rasterizer's base: framebuffer clearing, the projection of a view
 * (raster.h describes it), transforming vertices, and projecting one point. */
#include "raster.h"
#include "../geometry.h"
#include <string.h>
#include <stddef.h>
#include "../simd.h"

/* The depth buffer holds 1/d, so nothing drawn is 0 (kf3ds_render.h). With
 * SSE2 the colour is filled eight pixels per turn and the depth, all zero
 * bytes, by memset, whose string stores on x86 fill whole cache lines without
 * reading them first: a 1280x960 clear writes 9.8 MB, 10-15% of the city's
 * frame time (docs/architecture.md, 'What makes the renderer fast, and which
 * scene it serves'). */
void kf3ds_framebuffer_clear(kf3ds_framebuffer *fb, uint32_t color)
{
    size_t i = 0, k, n;
    if (!fb || fb->width <= 0 || fb->height <= 0)
        return;
    n = (size_t)fb->width * (size_t)fb->height;
#if defined(KF3DS__SSE2)
    if (fb->color && fb->depth) {
        const __m128i c = _mm_set1_epi32((int)color);
        uint32_t *cp = fb->color;
        for (; i + 8 <= n; i += 8) {
            _mm_storeu_si128((__m128i *)(void *)(cp + i), c);
            _mm_storeu_si128((__m128i *)(void *)(cp + i + 4), c);
        }
        memset(fb->depth, 0, i * sizeof *fb->depth);
    }
#endif
    if (fb->color)
        for (k = i; k < n; k++)
            fb->color[k] = color;
    if (fb->depth)
        for (; i < n; i++)
            fb->depth[i] = 0.0f;
}

int kf3ds__projection_setup(kf3ds__projection *p, const kf3ds_view *view, int width, int height)
{
    float fov, t;
    int i, j;
    if (!p || !view || width <= 0 || height <= 0 || width > KF3DS__MAX_DIM ||
        height > KF3DS__MAX_DIM)
        return 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float v = view->view.m[i][j];
            if (!(fabsf(v) <= KF3DS__BIG_COORD))
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
    t = tanf(fov * 0.5f * (float)KF3DS__DEG2RAD);
    p->fill = kf3ds__fill_pick();
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
    p->xlo = -KF3DS__GUARD_BAND;
    p->ylo = -KF3DS__GUARD_BAND;
    p->xhi = (float)width + KF3DS__GUARD_BAND;
    p->yhi = (float)height + KF3DS__GUARD_BAND;
    p->width = width;
    p->height = height;
    return 1;
}

#if defined(KF3DS__SSE2)
/* transform4's stores assume the vertex is seven 4-byte fields, X at byte 16. */
typedef char kf3ds__vertex_layout_check[offsetof(kf3ds__vertex, X) == 16 &&
                                                sizeof(kf3ds__vertex) == 28 ? 1 : -1];

/* Four points at a time: kf3ds__classify's operations lane by lane, in the
 * same order, so every vertex gets the same bits as the scalar code; the
 * meshes' vertices of the dense benchmark scenes are this loop's work
 * (docs/architecture.md, 'Rendering benchmark'). */
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
#endif

void kf3ds__transform_points(const kf3ds__projection *p, const float *m, const float *pts,
                             uint32_t n, kf3ds__vertex *out)
{
    uint32_t i = 0;
    const float m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3];
    const float m10 = m[4], m11 = m[5], m12 = m[6], m13 = m[7];
    const float m20 = m[8], m21 = m[9], m22 = m[10], m23 = m[11];
#if defined(KF3DS__SSE2)
    for (; i + 4 <= n; i += 4)
        transform4(p, m, pts + 3 * i, out + i);
#endif
    for (; i < n; i++) {
        float a = pts[3 * i], b = pts[3 * i + 1], c = pts[3 * i + 2];
        kf3ds__classify(p, m00 * a + m01 * b + m02 * c + m03, m10 * a + m11 * b + m12 * c + m13,
                 m20 * a + m21 * b + m22 * c + m23, &out[i]);
    }
}

int kf3ds_view_project(const kf3ds_view *view, int width, int height, const float world[3],
                       float *x, float *y, float *depth)
{
    kf3ds__projection p;
    float v[3], d;
    if (!world || !kf3ds__projection_setup(&p, view, width, height))
        return 0;
    kf3ds__to_view(&p, world, v);
    d = -v[2];
    if (!(d >= p.near_d) || !(fabsf(v[0]) <= KF3DS__BIG_COORD &&
                              fabsf(v[1]) <= KF3DS__BIG_COORD && d <= KF3DS__BIG_COORD))
        return 0;
    if (x)
        *x = p.cx + p.fx * v[0] / d;
    if (y)
        *y = p.cy - p.fy * v[1] / d;
    if (depth)
        *depth = d;
    return 1;
}
