/* Triangles.
 *  - kf3ds__triangle: triangles whose three vertices share an outside plane
 *    are dropped; triangles inside every plane go straight to the fill; the
 *    rest are clipped in view space (Sutherland–Hodgman against the near plane
 *    and the guard planes they cross, so a triangle crossing the near plane is
 *    cut, never dropped, and nothing reaches the fill with huge coordinates),
 *    then fanned into triangles.
 *  - fill: edge functions in exact 64-bit integers over the bounding box
 *    clamped to the screen, the top-left rule (shared edges are drawn once;
 *    raster_edges.h), 1/d and the colours interpolated linearly in screen space (exact for 1/d;
 *    Gouraud for colour). Each row's attributes start from the exact
 *    barycentrics of its first covered pixel, so long spans of thin triangles
 *    never extrapolate. The depth buffer holds w = 1/d (kf3ds_render.h), so
 *    the test is w > zbuf and a passing pixel stores w: no division per
 *    pixel. With SSE2 the spans are drawn four pixels
 *    per vector and tall narrow triangles find their rows' pixels four at a
 *    time (span4, row_bits), with the scalar code's results; where the CPU
 *    has AVX2, those narrow triangles take narrow_rows_avx2 instead (two rows
 *    per vector), again with the same results. */
#include "raster_edges.h"
#include "../simd.h"
/* fill's narrow vector rows in AVX2 (narrow_rows_avx2), chosen at run time
 * (cpu_has_avx2, a load and a test per triangle): GCC and clang on x86-64
 * only; every other build, and a CPU without AVX2, keeps the SSE2 or scalar
 * code. The AVX2 functions enable avx2 alone, not fma, so that no product
 * and sum is contracted into one rounding. */
#if defined(KF3DS__AVX2)
#define KF3DS__FILL_AVX2 1
#include <cpuid.h>
#include <immintrin.h>

/* Whether the CPU has AVX2 and the OS saves the YMM registers (CPUID leaf 1:
 * OSXSAVE and AVX; XCR0 bits 1 and 2; leaf 7: AVX2), asked once. Our own
 * test, not __builtin_cpu_supports: that reads libgcc's __cpu_model, and
 * the core asks nothing of its environment but string and math functions
 * (README, "What it needs"). */
static int cpu_has_avx2(void)
{
    static int known; /* 0: not asked yet; 1: no; 2: yes */
    int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (!v) {
        unsigned a, b, c, d, lo, hi;
        v = 1;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27)) && (c & (1u << 28))) {
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6u) == 6u && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5)))
                v = 2;
        }
        __atomic_store_n(&known, v, __ATOMIC_RELAXED);
    }
    return v == 2;
}
#endif

typedef struct fill_vertex {
    int32_t X, Y;
    float v[4];              /* 1/d, then the colour channels 0..255, +0.5 so that
                              * truncation rounds (setup_values takes all four at once) */
} fill_vertex;

/* Colours step in 16.16 fixed point: the row's first value is exact and
 * every pixel of a span is inside the triangle, so the values stay within
 * [0.5, 255.5] up to rounding; the masks only guard the packing. */
#define PACK(r, g, b)                                                                    \
    (0xFF000000u | ((uint32_t)(r)&0xFF0000u) | (((uint32_t)(g) >> 8) & 0xFF00u) |        \
     (((uint32_t)(b) >> 16) & 0xFFu))

#if !defined(KF3DS__SSE2) /* the SSE2 code does this on four lanes at once */
static inline int32_t to_fix(float v)
{
    float f = v * 65536.0f;
    if (!(f > -16777216.0f))
        f = -16777216.0f;
    if (f > 16777216.0f)
        f = 16777216.0f;
    return (int32_t)f;
}
#endif

/* The weights of the triangle's values on the edge functions, K[j] for
 * corner j: lane 0 for 1/d, lanes 1..3 (unless flat) for the colour
 * channels; and their steps per pixel to the right (a0..a2). */
static KF3DS__ALWAYS_INLINE void
setup_values_body(const fill_vertex *a, const fill_vertex *b, const fill_vertex *c, int64_t area,
                  int64_t a0, int64_t a1, int64_t a2, int flat, float K[3][4], float *dw,
                  int32_t dc[3])
{
    float inv = 1.0f / (float)area;
    if (flat) {
        /* the colour weights are zero (fill's K starts unset: most of its
         * triangles are not flat, and some cover no pixel) */
        int k;
        for (k = 0; k < 3; k++)
            K[k][1] = K[k][2] = K[k][3] = 0.0f;
    } else {
#if defined(KF3DS__SSE2)
        /* the scalar code below, lane by lane in the same order */
        const __m128 vi = _mm_set1_ps(inv);
        __m128 k0 = _mm_mul_ps(_mm_loadu_ps(a->v), vi), k1 = _mm_mul_ps(_mm_loadu_ps(b->v), vi);
        __m128 k2 = _mm_mul_ps(_mm_loadu_ps(c->v), vi), sum, f;
        int32_t fix[4];
        sum = _mm_add_ps(_mm_add_ps(_mm_mul_ps(k0, _mm_set1_ps((float)a0)),
                                    _mm_mul_ps(k1, _mm_set1_ps((float)a1))),
                         _mm_mul_ps(k2, _mm_set1_ps((float)a2)));
        f = _mm_mul_ps(sum, _mm_set1_ps(65536.0f));
        f = _mm_min_ps(_mm_set1_ps(16777216.0f), _mm_max_ps(f, _mm_set1_ps(-16777216.0f)));
        _mm_storeu_si128((__m128i *)(void *)fix, _mm_cvttps_epi32(f));
        _mm_storeu_ps(K[0], k0);
        _mm_storeu_ps(K[1], k1);
        _mm_storeu_ps(K[2], k2);
        *dw = _mm_cvtss_f32(sum);
        dc[0] = fix[1];
        dc[1] = fix[2];
        dc[2] = fix[3];
        return;
#else
        int k;
        for (k = 1; k < 4; k++) {
            K[0][k] = a->v[k] * inv;
            K[1][k] = b->v[k] * inv;
            K[2][k] = c->v[k] * inv;
            dc[k - 1] = to_fix(K[0][k] * (float)a0 + K[1][k] * (float)a1 + K[2][k] * (float)a2);
        }
#endif
    }
    K[0][0] = a->v[0] * inv;
    K[1][0] = b->v[0] * inv;
    K[2][0] = c->v[0] * inv;
    *dw = K[0][0] * (float)a0 + K[1][0] * (float)a1 + K[2][0] * (float)a2;
}

#if defined(__GNUC__)
__attribute__((noinline)) /* inlined, it costs fill's row loops registers */
#endif
static void setup_values(const fill_vertex *a, const fill_vertex *b, const fill_vertex *c,
                         int64_t area, int64_t a0, int64_t a1, int64_t a2, int flat,
                         float K[3][4], float *dw, int32_t dc[3])
{
    setup_values_body(a, b, c, area, a0, a1, a2, flat, K, dw, dc);
}

#if defined(KF3DS__FILL_AVX2)
/* The same in VEX code for narrow_rows_avx2: legacy SSE code run while the
 * upper halves of the AVX registers are in use costs a transition each time
 * (GCC adds no vzeroupper before these calls). The same operations, so the
 * same bits. */
__attribute__((noinline, target("avx2"))) static void
setup_values_avx2(const fill_vertex *a, const fill_vertex *b, const fill_vertex *c, int64_t area,
                  int64_t a0, int64_t a1, int64_t a2, int flat, float K[3][4], float *dw,
                  int32_t dc[3])
{
    setup_values_body(a, b, c, area, a0, a1, a2, flat, K, dw, dc);
}
#endif

#if defined(KF3DS__SSE2)
/* A row's sums at its first pixel as one vector (1/d, then the colour
 * channels unscaled): span_row converts the colours only when a pixel passes. */
static inline __m128 row_sums(const float K[3][4], float f0, float f1, float f2)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(K[0]), _mm_set1_ps(f0)),
                                 _mm_mul_ps(_mm_loadu_ps(K[1]), _mm_set1_ps(f1))),
                      _mm_mul_ps(_mm_loadu_ps(K[2]), _mm_set1_ps(f2)));
}

/* to_fix of the sums q on every lane: max_ps(f, lo) is f > lo ? f : lo (NaN
 * gives lo), min_ps(hi, f) is hi < f ? hi : f. */
static inline __m128i row_fix(__m128 q)
{
    __m128 f = _mm_mul_ps(q, _mm_set1_ps(65536.0f));
    f = _mm_max_ps(f, _mm_set1_ps(-16777216.0f));
    f = _mm_min_ps(_mm_set1_ps(16777216.0f), f);
    return _mm_cvttps_epi32(f);
}

/* The packed colours of a vector of four pixels from its channels in 16.16
 * (PACK on every lane). */
static inline __m128i pack4(__m128i rv, __m128i gv, __m128i bv)
{
    return _mm_or_si128(_mm_or_si128(_mm_set1_epi32((int)0xFF000000u),
                                     _mm_and_si128(rv, _mm_set1_epi32(0xFF0000))),
                        _mm_or_si128(_mm_and_si128(_mm_srli_epi32(gv, 8), _mm_set1_epi32(0xFF00)),
                                     _mm_and_si128(_mm_srli_epi32(bv, 16), _mm_set1_epi32(0xFF))));
}

/* Stores a vector of four pixels: 1/d wv and colours c where pass is set,
 * the old depth z and colour elsewhere. */
static inline void store4(float *zrow, uint32_t *crow, int x, __m128 pass, __m128 wv, __m128 z,
                          __m128i c)
{
    const __m128i pm = _mm_castps_si128(pass);
    const __m128i old = _mm_loadu_si128((const __m128i *)(const void *)(crow + x));
    _mm_storeu_ps(zrow + x, _mm_or_ps(_mm_and_ps(pass, wv), _mm_andnot_ps(pass, z)));
    _mm_storeu_si128((__m128i *)(void *)(crow + x),
                     _mm_or_si128(_mm_and_si128(pm, c), _mm_andnot_si128(pm, old)));
}

#endif

/* A row's 1/d (returned) and colour in fixed point (rgb[1..3]) at its first pixel,
 * from the exact edge functions f0..f2 there. The four values are the same
 * sums of products, so with SSE2 they are computed in one vector, in the
 * same order (the same bits) as the scalar code: tall thin triangles pay
 * this for every few pixels (docs/architecture.md, 'Rendering benchmark'). */
static inline float row_start(const float K[3][4], float f0, float f1, float f2,
                              int32_t rgb[4])
{
#if defined(KF3DS__SSE2)
    const __m128 q = row_sums(K, f0, f1, f2);
    _mm_storeu_si128((__m128i *)(void *)rgb, row_fix(q));
    return _mm_cvtss_f32(q);
#else
    int l;
    for (l = 1; l < 4; l++)
        rgb[l] = to_fix(K[0][l] * f0 + K[1][l] * f1 + K[2][l] * f2);
    return K[0][0] * f0 + K[1][0] * f1 + K[2][0] * f2;
#endif
}

#if defined(KF3DS__SSE2)
/* The steps of a triangle's values across a vector of four pixels. */
typedef struct span_steps {
    __m128 d1, d2, d3;       /* dw on lanes 1..3, 2..3, 3: lane k gets k additions */
    __m128i dr, dg, db;      /* 0, dc, 2dc, 3dc per colour channel */
    __m128i r4, g4, b4;      /* 4dc on every lane: the next vector */
    int32_t dc4[3];          /* 4dc */
} span_steps;

/* (0, v, 2v, 3v) from v on every lane: v on lanes 1..3, plus itself moved
 * up one lane and two lanes (exact integer sums, as 2·v and 3·v) */
static inline __m128i lane_steps(__m128i v)
{
    const __m128i t = _mm_slli_si128(v, 4);
    return _mm_add_epi32(_mm_add_epi32(t, _mm_slli_si128(t, 4)), _mm_slli_si128(t, 8));
}

static KF3DS__ALWAYS_INLINE void span_steps_body(span_steps *S, float dw,
                                                      const int32_t dc[3])
{
    const __m128 w = _mm_set1_ps(dw);
    int k;
    S->d1 = _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(w), 4));
    S->d2 = _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(w), 8));
    S->d3 = _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(w), 12));
    for (k = 0; k < 3; k++)
        S->dc4[k] = 4 * dc[k];
    S->r4 = _mm_set1_epi32(S->dc4[0]);
    S->g4 = _mm_set1_epi32(S->dc4[1]);
    S->b4 = _mm_set1_epi32(S->dc4[2]);
    S->dr = lane_steps(_mm_set1_epi32(dc[0]));
    S->dg = lane_steps(_mm_set1_epi32(dc[1]));
    S->db = lane_steps(_mm_set1_epi32(dc[2]));
}

static void span_steps_setup(span_steps *S, float dw, const int32_t dc[3])
{
    span_steps_body(S, dw, dc);
}

#if defined(KF3DS__FILL_AVX2)
__attribute__((target("avx2"))) static void span_steps_setup_avx2(span_steps *S, float dw,
                                                                  const int32_t dc[3])
{
    span_steps_body(S, dw, dc);
}
#endif

/* n >= 1 covered pixels of a row from x on, four per vector, with the bits
 * of the scalar loops in fill: lane k's 1/d is w plus dw k times, in that
 * order, the colours are the same 16.16 integers, the test is w > zbuf and
 * a passing lane stores w. The lanes past the span
 * are written back as they were. `room` is the pixels from x to the end of
 * the framebuffer: the vectors never reach past it, the scalar loop does the
 * last few there (docs/architecture.md, 'What makes the renderer fast, and
 * which scene it serves'). */
static KF3DS__ALWAYS_INLINE void span4_body(float *zrow, uint32_t *crow, int x, int n,
                                                 size_t room, float w, float dw, int32_t r,
                                                 int32_t g, int32_t bl, const span_steps *S,
                                                 const int32_t dc[3], int flat,
                                                 uint32_t flat_color)
{
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
    for (; room >= 4; x += 4, n -= 4, room -= 4) {
        __m128 wv = _mm_set1_ps(w), z, pass;
        wv = _mm_add_ps(_mm_add_ps(_mm_add_ps(wv, S->d1), S->d2), S->d3);
        z = _mm_loadu_ps(zrow + x);
        pass = _mm_and_ps(_mm_cmplt_ps(z, wv),
                          _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32(n), lane)));
        if (_mm_movemask_ps(pass))
            store4(zrow, crow, x, pass, wv, z,
                   flat ? _mm_set1_epi32((int)flat_color)
                        : pack4(_mm_add_epi32(_mm_set1_epi32(r), S->dr),
                                _mm_add_epi32(_mm_set1_epi32(g), S->dg),
                                _mm_add_epi32(_mm_set1_epi32(bl), S->db)));
        if (n <= 4)
            return;
        /* the next vector's lane 0: the last lane plus dw, as the scalar chain */
        w = _mm_cvtss_f32(_mm_shuffle_ps(wv, wv, _MM_SHUFFLE(3, 3, 3, 3))) + dw;
        r += S->dc4[0];
        g += S->dc4[1];
        bl += S->dc4[2];
    }
    for (; n > 0; n--, x++, w += dw, r += dc[0], g += dc[1], bl += dc[2])
        if (w > zrow[x]) {
            zrow[x] = w;
            crow[x] = flat ? flat_color : PACK(r, g, bl);
        }
}

static void span4(float *zrow, uint32_t *crow, int x, int n, size_t room, float w, float dw,
                  int32_t r, int32_t g, int32_t bl, const span_steps *S, const int32_t dc[3],
                  int flat, uint32_t flat_color)
{
    span4_body(zrow, crow, x, n, room, w, dw, r, g, bl, S, dc, flat, flat_color);
}

#if defined(KF3DS__FILL_AVX2)
__attribute__((target("avx2"))) static void span4_avx2(float *zrow, uint32_t *crow, int x, int n,
                                                       size_t room, float w, float dw, int32_t r,
                                                       int32_t g, int32_t bl,
                                                       const span_steps *S,
                                                       const int32_t dc[3], int flat,
                                                       uint32_t flat_color)
{
    span4_body(zrow, crow, x, n, room, w, dw, r, g, bl, S, dc, flat, flat_color);
}
#endif

/* A row's span from the sums q of its first pixel (row_sums; lane 0 alone
 * when flat), with span4's operations on each vector, the values kept in
 * vectors (no round trip through memory, no call): spans of a few pixels,
 * the rows of the city's narrow box sides, pay little more than their
 * vectors (docs/architecture.md, 'What makes the renderer fast, and which
 * scene it serves'). A span whose last vector would pass the end of the
 * framebuffer goes to span4 (span4_avx2 when vex). The same bits either way. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void span_row(float *zrow, uint32_t *crow, int x, int n, size_t room, __m128 q,
                            float dw, const span_steps *S, const int32_t dc[3], int flat,
                            uint32_t flat_color, int vex)
{
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
    (void)vex; /* 1 in narrow_rows_avx2: span4's VEX copy */
    if (n <= 4 && room >= 4) {
        /* one vector: the colours converted only when a pixel passes */
        __m128 wv = _mm_shuffle_ps(q, q, _MM_SHUFFLE(0, 0, 0, 0)), z, pass;
        wv = _mm_add_ps(_mm_add_ps(_mm_add_ps(wv, S->d1), S->d2), S->d3);
        z = _mm_loadu_ps(zrow + x);
        pass = _mm_and_ps(_mm_cmplt_ps(z, wv),
                          _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32(n), lane)));
        if (_mm_movemask_ps(pass)) {
            __m128i c = _mm_set1_epi32((int)flat_color);
            if (!flat) {
                const __m128i qi = row_fix(q);
                c = pack4(_mm_add_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(1, 1, 1, 1)), S->dr),
                          _mm_add_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(2, 2, 2, 2)), S->dg),
                          _mm_add_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(3, 3, 3, 3)), S->db));
            }
            store4(zrow, crow, x, pass, wv, z, c);
        }
    } else if ((size_t)n + 3 <= room) {
        /* every vector inside the framebuffer: span4's loop */
        __m128 wb = _mm_shuffle_ps(q, q, _MM_SHUFFLE(0, 0, 0, 0));
        __m128i rv = _mm_setzero_si128(), gv = rv, bv = rv, c = _mm_set1_epi32((int)flat_color);
        if (!flat) {
            const __m128i qi = row_fix(q);
            rv = _mm_add_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(1, 1, 1, 1)), S->dr);
            gv = _mm_add_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(2, 2, 2, 2)), S->dg);
            bv = _mm_add_epi32(_mm_shuffle_epi32(qi, _MM_SHUFFLE(3, 3, 3, 3)), S->db);
        }
        for (;; x += 4, n -= 4) {
            __m128 wv = _mm_add_ps(_mm_add_ps(_mm_add_ps(wb, S->d1), S->d2), S->d3);
            __m128 z = _mm_loadu_ps(zrow + x);
            __m128 pass = _mm_and_ps(_mm_cmplt_ps(z, wv),
                                     _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32(n), lane)));
            if (_mm_movemask_ps(pass))
                store4(zrow, crow, x, pass, wv, z, flat ? c : pack4(rv, gv, bv));
            if (n <= 4)
                return;
            /* the next vector's lane 0: the last lane plus dw, as span4 */
            wb = _mm_add_ss(_mm_shuffle_ps(wv, wv, _MM_SHUFFLE(3, 3, 3, 3)), _mm_set_ss(dw));
            wb = _mm_shuffle_ps(wb, wb, _MM_SHUFFLE(0, 0, 0, 0));
            rv = _mm_add_epi32(rv, S->r4);
            gv = _mm_add_epi32(gv, S->g4);
            bv = _mm_add_epi32(bv, S->b4);
        }
    } else {
        int32_t rgb[4] = { 0, 0, 0, 0 };
        if (!flat)
            _mm_storeu_si128((__m128i *)(void *)rgb, row_fix(q));
#if defined(KF3DS__FILL_AVX2)
        if (vex) /* narrow_rows_avx2 */
            span4_avx2(zrow, crow, x, n, room, _mm_cvtss_f32(q), dw, rgb[1], rgb[2], rgb[3], S, dc,
                       flat, flat_color);
        else
#endif
            span4(zrow, crow, x, n, room, _mm_cvtss_f32(q), dw, rgb[1], rgb[2], rgb[3], S, dc,
                  flat, flat_color);
    }
}

/* Whether the edge functions of every pixel a narrow triangle's vectors
 * visit (G vectors of four per row from px0, rows py0..py1 and one more)
 * fit in 32 bits: then its rows are tested four pixels per vector. */
static int edges_fit32(const kf3ds__edges *E, int G)
{
    const int64_t lim = 2147483647, cols = 4 * G - 1, rows = E->py1 - E->py0 + 1;
    const int64_t e[3] = { E->e0, E->e1, E->e2 }, a[3] = { E->a0, E->a1, E->a2 };
    const int64_t b[3] = { E->b0, E->b1, E->b2 };
    int k;
    for (k = 0; k < 3; k++) {
        int64_t m = (e[k] < 0 ? -e[k] : e[k]) + (a[k] < 0 ? -a[k] : a[k]) * cols +
                    (b[k] < 0 ? -b[k] : b[k]) * rows;
        if (m > lim)
            return 0;
    }
    return 1;
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

static inline int lowest_bit(unsigned v) /* v != 0 */
{
#if defined(__GNUC__)
    return __builtin_ctz(v);
#else
    int k = 0;
    while (!(v & 1u)) {
        v >>= 1;
        k++;
    }
    return k;
#endif
}
#endif

#if defined(KF3DS__FILL_AVX2)
/* What fill hands narrow_rows_avx2: a narrow triangle of G vectors per row. */
typedef struct narrow_tri {
    const fill_vertex *a, *b, *c;
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
        span_row(zp, cp, 0, n, room, q, dw, S, dc, flat, flat_color, 1);
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
 * four pixels (most rows of the city's tall thin box sides), their start
 * values, depth tests, colours and blends are one 256-bit vector, row y on
 * the low lanes, row y + 1 on the high (span_row's one-vector case twice);
 * any other row is drawn alone (narrow_row_avx2: five to eight pixels in one
 * vector, else span_row). Every lane has the SSE2 code's operations in the
 * same order, so the same bits: lane k's 1/d is w plus dw k times, the
 * colours the same 16.16 integers. Returns 1 when a pixel was covered. */
__attribute__((target("avx2"))) static int narrow_rows_avx2(kf3ds_framebuffer *fb,
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
#endif

/* area: kf3ds__screen_area of (a, b, c), which the callers have (draw.c
 * computes it for the face's side). cull > 0 drops clockwise-on-screen
 * triangles (back faces), cull < 0 drops counter-clockwise ones. Returns 1
 * when a pixel centre was covered. */
static int fill(kf3ds_framebuffer *fb, const fill_vertex *a, const fill_vertex *b,
                const fill_vertex *c, int64_t area, int cull, int flat, uint32_t flat_color)
{
    const int W = fb->width, H = fb->height;
    int64_t e0r, e1r, e2r, a0, a1, a2, b0, b1, b2;
    int px0, px1, py0, py1, y, covered = 0, wide;
    float K[3][4], dw = 0.0f; /* K: setup_values sets every weight */
    int32_t dc[3] = { 0, 0, 0 };
    float *zbuf = fb->depth;
    uint32_t *cbuf = fb->color;
    kf3ds__edges E;
#if defined(KF3DS__SSE2)
    span_steps S;
    __m128i V[3], A4[3], B[3];
    int G = 0; /* vectors per narrow row, 0: the scalar walk */
    unsigned rowmask = 0;
#endif

    if (area == 0)
        return 0;
    if (area < 0) { /* counter-clockwise on screen (y down): a front face */
        const fill_vertex *t;
        if (cull < 0)
            return 0;
        t = b;
        b = c;
        c = t;
        area = -area;
    } else if (cull > 0) {
        return 0;
    }
    if (!kf3ds__edges_setup(&E, a->X, a->Y, b->X, b->Y, c->X, c->Y, W, H))
        return 0;
    e0r = E.e0, e1r = E.e1, e2r = E.e2;
    a0 = E.a0, a1 = E.a1, a2 = E.a2;
    b0 = E.b0, b1 = E.b1, b2 = E.b2;
    px0 = E.px0, px1 = E.px1, py0 = E.py0, py1 = E.py1;

    /* Narrow triangles test each row's pixels against the edges; wide ones
     * find the row's span exactly first. */
    wide = px1 - px0 >= 12;
#if defined(KF3DS__SSE2)
    /* Narrow rows four pixels per vector when the edge functions fit in 32
     * bits, for triangles of several rows (the tall thin sides of the city's
     * boxes): no walk per pixel. The small triangles of dense meshes keep
     * the scalar walk, which costs them less than setting the vectors up. */
    if (!wide && py1 - py0 >= 6 && edges_fit32(&E, (px1 - px0 + 4) / 4)) {
        const int64_t e[3] = { e0r, e1r, e2r }, st[3] = { a0, a1, a2 }, dn[3] = { b0, b1, b2 };
        int k;
        G = (px1 - px0 + 4) / 4;
        rowmask = (2u << (px1 - px0)) - 1u;
#if defined(KF3DS__FILL_AVX2)
        /* with AVX2, the rows two at a time (narrow_rows_avx2), without
         * this path's vectors */
        if (cpu_has_avx2()) {
            narrow_tri T;
            T.a = a, T.b = b, T.c = c, T.area = area, T.a0 = a0, T.a1 = a1, T.a2 = a2;
            T.flat = flat, T.px0 = px0, T.px1 = px1, T.py0 = py0, T.py1 = py1;
            T.flat_color = flat_color, T.rowmask = rowmask;
            T.e[0] = (int32_t)e0r, T.e[1] = (int32_t)e1r, T.e[2] = (int32_t)e2r;
            T.ea[0] = (int32_t)a0, T.ea[1] = (int32_t)a1, T.ea[2] = (int32_t)a2;
            T.eb[0] = (int32_t)b0, T.eb[1] = (int32_t)b1, T.eb[2] = (int32_t)b2;
            return narrow_rows_avx2(fb, &T);
        }
#endif
        for (k = 0; k < 3; k++) {
            /* lane k: the edge function at px0 + k (edges_fit32 bounds 3a) */
            const int32_t s1 = (int32_t)st[k];
            V[k] = _mm_add_epi32(_mm_set1_epi32((int32_t)e[k]),
                                 _mm_set_epi32(3 * s1, 2 * s1, s1, 0));
            A4[k] = _mm_set1_epi32((int32_t)(4 * st[k]));
            B[k] = _mm_set1_epi32((int32_t)dn[k]);
        }
    }
#endif

#if defined(KF3DS__SSE2)
    if (G) {
        /* The vector rows in a loop of their own: the three edge functions at
         * the row's first visited pixel in one vector (edges_fit32: 32 bits
         * hold them), so a row's first covered pixel's are one addition
         * (AK[off] = a·off) and one conversion, the same values as fill's
         * 64-bit ones converted. */
        __m128i Er = _mm_set_epi32(0, (int32_t)e2r, (int32_t)e1r, (int32_t)e0r);
        const __m128i Bv = _mm_set_epi32(0, (int32_t)b2, (int32_t)b1, (int32_t)b0);
        const __m128i Av = _mm_set_epi32(0, (int32_t)a2, (int32_t)a1, (int32_t)a0);
        __m128i AK[12];
        int k;
        AK[0] = _mm_setzero_si128();
        for (k = 1; k <= px1 - px0; k++) /* off <= px1 - px0 */
            AK[k] = _mm_add_epi32(AK[k - 1], Av);
        for (y = py0; y <= py1; y++) {
            const unsigned bits = row_bits(V, A4, G) & rowmask;
            const size_t row = (size_t)y * (size_t)W;
            __m128 fe, q;
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
            /* Many small triangles of a dense mesh cover no pixel centre:
             * the stepped values are set up once a row has pixels. */
            if (!covered) {
                setup_values(a, b, c, area, a0, a1, a2, flat, K, &dw, dc);
                span_steps_setup(&S, dw, dc);
                covered = 1;
            }
            /* row_start's sums; flat: lane 0 alone counts (K's others are 0) */
            q = _mm_add_ps(
                _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(K[0]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(0, 0, 0, 0))),
                           _mm_mul_ps(_mm_loadu_ps(K[1]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(1, 1, 1, 1)))),
                _mm_mul_ps(_mm_loadu_ps(K[2]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(2, 2, 2, 2))));
            span_row(zbuf + row, cbuf + row, px0 + off, n,
                     (size_t)(H - y) * (size_t)W - (size_t)(px0 + off), q, dw, &S, dc, flat,
                     flat_color, 0);
        }
        return covered;
    }
#endif
    if (!wide) {
        /* The small narrow triangles (most faces of dense meshes: a few
         * pixels on two or three rows) in a loop of their own, the same
         * operations as before: sharing the wide rows' loop, its values lived
         * on the stack and each row paid for loads, stores and the wide
         * rows' state (callgrind: about a third fewer instructions per row). */
        for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
            int64_t e0 = e0r, e1 = e1r, e2 = e2r;
            int x;
            uint32_t *crow;
            float *zrow, w, f0, f1, f2;
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
        }
        return covered;
    }
    /* the wide rows: each row's span found exactly first */
    for (y = py0; y <= py1; y++, e0r += b0, e1r += b1, e2r += b2) {
        int64_t e0 = e0r, e1 = e1r, e2 = e2r, lo, hi;
        int x, xe;
        uint32_t *crow;
        float *zrow, f0, f1, f2;
#if !defined(KF3DS__SSE2)
        float w;
#endif
        if (!kf3ds__edges_span(&E, e0, e1, e2, &lo, &hi))
            continue;
        x = px0 + (int)lo;
        xe = px0 + (int)hi;
        e0 += a0 * lo;
        e1 += a1 * lo;
        e2 += a2 * lo;
        /* Many small triangles of a dense mesh cover no pixel centre:
         * the stepped values are set up once a row has pixels. */
        if (!covered) {
            setup_values(a, b, c, area, a0, a1, a2, flat, K, &dw, dc);
#if defined(KF3DS__SSE2)
            span_steps_setup(&S, dw, dc);
#endif
        }
        covered = 1;
        crow = cbuf + (size_t)y * (size_t)W;
        zrow = zbuf + (size_t)y * (size_t)W;
        f0 = (float)e0;
        f1 = (float)e1;
        f2 = (float)e2;
#if defined(KF3DS__SSE2)
        span_row(zrow, crow, x, xe - x + 1, (size_t)(H - y) * (size_t)W - (size_t)x,
                 flat ? _mm_set_ss(K[0][0] * f0 + K[1][0] * f1 + K[2][0] * f2)
                      : row_sums((const float(*)[4])K, f0, f1, f2),
                 dw, &S, dc, flat, flat_color, 0);
#else
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
                    crow[x] = PACK(r, g, bl);
                }
        }
#endif
    }
    return covered;
}

static inline void unpack(uint32_t c, float out[3])
{
    out[0] = (float)((c >> 16) & 0xFF) + 0.5f;
    out[1] = (float)((c >> 8) & 0xFF) + 0.5f;
    out[2] = (float)(c & 0xFF) + 0.5f;
}

/* A triangle the clipper cuts (kf3ds__triangle): kept apart so that the
 * common unclipped triangle does not pay for its stack of polygon buffers. */
static int triangle_clipped(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                            const kf3ds__vertex *const vs[3], uint32_t all,
                            const uint32_t color[3], int flat, int cull)
{
    /* Facing from the view-space plane: front when the eye (the origin)
     * sees the vertices counter-clockwise, i.e. n·v0 < 0 with z = −d. */
    kf3ds__clip_vertex bufa[KF3DS__CLIP_MAX], bufb[KF3DS__CLIP_MAX], *in = bufa;
    fill_vertex fv[KF3DS__CLIP_MAX];
    int n, k, covered = 0;
    if (cull) {
        const kf3ds__vertex *v0 = vs[0], *v1 = vs[1], *v2 = vs[2];
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
        unpack(color[k], in[k].a);
        in[k].src = k;
    }
    n = kf3ds__clip(p, all, bufa, bufb, 3, 3, &in);
    if (n < 3)
        return 0;
    for (k = 0; k < n; k++) {
        const kf3ds__clip_vertex *c = &in[k];
        kf3ds__clip_screen(p, vs, c, &fv[k].X, &fv[k].Y, &fv[k].v[0]);
        fv[k].v[1] = c->a[0];
        fv[k].v[2] = c->a[1];
        fv[k].v[3] = c->a[2];
    }
    for (k = 1; k + 1 < n; k++)
        covered |= fill(fb, &fv[0], &fv[k], &fv[k + 1],
                        kf3ds__screen_area(fv[0].X, fv[0].Y, fv[k].X, fv[k].Y, fv[k + 1].X,
                                           fv[k + 1].Y),
                        0, flat, color[0] | 0xFF000000u);
    return covered;
}

/* A triangle inside every plane to the fill (kf3ds__triangle and
 * kf3ds__triangle_inside). */
static inline int triangle_unclipped(kf3ds_framebuffer *fb, const kf3ds__vertex *const vs[3],
                                     int64_t area, const uint32_t color[3], int flat, int cull)
{
    fill_vertex f[3];
    int k;
    for (k = 0; k < 3; k++) {
        f[k].X = vs[k]->X;
        f[k].Y = vs[k]->Y;
#if defined(KF3DS__SSE2)
        {
            /* unpack's values on lanes 1..3 beside 1/d, the same bits: the
             * bytes b, g, r, a widened to integers, converted, +0.5 */
            const __m128i zero = _mm_setzero_si128();
            __m128i c = _mm_cvtsi32_si128((int)color[k]);
            __m128 bgra;
            c = _mm_unpacklo_epi16(_mm_unpacklo_epi8(c, zero), zero);
            bgra = _mm_add_ps(_mm_cvtepi32_ps(c), _mm_set1_ps(0.5f));
            _mm_storeu_ps(f[k].v, _mm_move_ss(_mm_shuffle_ps(bgra, bgra, _MM_SHUFFLE(0, 1, 2, 3)),
                                              _mm_set_ss(vs[k]->w)));
        }
#else
        f[k].v[0] = vs[k]->w;
        if (!flat)
            unpack(color[k], f[k].v + 1);
#endif
    }
    return fill(fb, &f[0], &f[1], &f[2], area, cull, flat, color[0] | 0xFF000000u);
}

int kf3ds__triangle(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *v0,
               const kf3ds__vertex *v1, const kf3ds__vertex *v2, const uint32_t color[3], int cull)
{
    uint32_t all = v0->code | v1->code | v2->code;
    int flat = color[0] == color[1] && color[1] == color[2];
    const kf3ds__vertex *vs[3];
    if ((v0->code & v1->code & v2->code) || (all & OC_BAD))
        return 0;
    if (!fb->depth)
        return 0;
    vs[0] = v0;
    vs[1] = v1;
    vs[2] = v2;
    if (all & OC_CLIP)
        return triangle_clipped(fb, p, vs, all, color, flat, cull);
    return triangle_unclipped(fb, vs, kf3ds__screen_area(v0->X, v0->Y, v1->X, v1->Y, v2->X, v2->Y),
                              color, flat, cull);
}

int kf3ds__triangle_inside(kf3ds_framebuffer *fb, const kf3ds__vertex *const vs[3],
                           int64_t area, const uint32_t color[3])
{
    return triangle_unclipped(fb, vs, area, color, color[0] == color[1] && color[1] == color[2],
                              0);
}

int kf3ds_raster_triangle(kf3ds_framebuffer *fb, const kf3ds_view *view,
                          const float points[3][3], const uint32_t color[3], int cull)
{
    kf3ds__projection pr;
    kf3ds__vertex v[3];
    int k;
    if (!kf3ds__framebuffer_ok(fb) || !fb->depth || !points || !color ||
        !kf3ds__projection_setup(&pr, view, fb->width, fb->height))
        return 0;
    for (k = 0; k < 3; k++)
        kf3ds__classify_world(&pr, points[k], &v[k]);
    return kf3ds__triangle(fb, &pr, &v[0], &v[1], &v[2], color, cull ? 1 : 0);
}
