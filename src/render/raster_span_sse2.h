/* The SSE2 pieces of the fast fills (raster_fill_sse2.c, and
 * raster_fill_avx2.c, which takes fill_rows for the triangles it does not
 * draw two rows at a time and compiles some pieces again as VEX code): spans
 * four pixels per vector, each with the operations of kf3ds__fill_plain in
 * the same order, so the same bits. Included only where KF3DS__SSE2 is
 * defined. */
#ifndef KF3DS_RASTER_SPAN_SSE2_H
#define KF3DS_RASTER_SPAN_SSE2_H
#include "raster_fill.h"

/* raster_fill_plain.c's setup_values, the colour lanes in one vector, lane
 * by lane in the same order. */
static KF3DS__ALWAYS_INLINE void
setup_values_body(const kf3ds__fill_vertex *a, const kf3ds__fill_vertex *b,
                  const kf3ds__fill_vertex *c, int64_t area, int64_t a0, int64_t a1, int64_t a2,
                  int flat, float K[3][4], float *dw, int32_t dc[3])
{
    float inv = 1.0f / (float)area;
    if (flat) {
        int k;
        for (k = 0; k < 3; k++)
            K[k][1] = K[k][2] = K[k][3] = 0.0f;
    } else {
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
    }
    K[0][0] = a->v[0] * inv;
    K[1][0] = b->v[0] * inv;
    K[2][0] = c->v[0] * inv;
    *dw = K[0][0] * (float)a0 + K[1][0] * (float)a1 + K[2][0] * (float)a2;
}

/* A row's sums at its first pixel as one vector (1/d, then the colour
 * channels unscaled): span_row converts the colours only when a pixel passes. */
static inline __m128 row_sums(const float K[3][4], float f0, float f1, float f2)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(K[0]), _mm_set1_ps(f0)),
                                 _mm_mul_ps(_mm_loadu_ps(K[1]), _mm_set1_ps(f1))),
                      _mm_mul_ps(_mm_loadu_ps(K[2]), _mm_set1_ps(f2)));
}

/* row_sums from the edge functions fe (lanes 0..2) as floats. */
static inline __m128 row_sums_v(const float K[3][4], __m128 fe)
{
    return _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(K[0]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(0, 0, 0, 0))),
                   _mm_mul_ps(_mm_loadu_ps(K[1]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(1, 1, 1, 1)))),
        _mm_mul_ps(_mm_loadu_ps(K[2]), _mm_shuffle_ps(fe, fe, _MM_SHUFFLE(2, 2, 2, 2))));
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

/* raster_fill_plain.c's row_start: the four values are the same sums of
 * products, so one vector computes them, in the same order; tall thin
 * triangles pay this for every few pixels. */
static inline float row_start(const float K[3][4], float f0, float f1, float f2, int32_t rgb[4])
{
    const __m128 q = row_sums(K, f0, f1, f2);
    _mm_storeu_si128((__m128i *)(void *)rgb, row_fix(q));
    return _mm_cvtss_f32(q);
}

/* The packed colours of a vector of four pixels from its channels in 16.16
 * (KF3DS__PACK on every lane). */
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

static KF3DS__ALWAYS_INLINE void span_steps_body(span_steps *S, float dw, const int32_t dc[3])
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

/* n >= 1 covered pixels of a row from x on, four per vector, with the bits
 * of the plain loops: lane k's 1/d is w plus dw k times, in that order, the
 * colours are the same 16.16 integers, the test is w > zbuf and a passing
 * lane stores w. The lanes past the span are written back as they were.
 * `room` is the pixels from x to the end of the framebuffer: the vectors
 * never reach past it, the scalar loop does the last few there. */
static KF3DS__ALWAYS_INLINE void span4_body(float *zrow, uint32_t *crow, int x, int n,
                                            size_t room, float w, float dw, int32_t r,
                                            int32_t g, int32_t bl, const span_steps *S,
                                            const int32_t dc[3], int flat, uint32_t flat_color)
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
            crow[x] = flat ? flat_color : KF3DS__PACK(r, g, bl);
        }
}

/* span4_body as a function, which span_row calls for spans that reach the
 * end of the framebuffer (each fill file has its own copy). */
typedef void (*span4_fn)(float *zrow, uint32_t *crow, int x, int n, size_t room, float w,
                         float dw, int32_t r, int32_t g, int32_t bl, const span_steps *S,
                         const int32_t dc[3], int flat, uint32_t flat_color);

/* A row's span from the sums q of its first pixel (row_sums; lane 0 alone
 * when flat), with span4's operations on each vector, the values kept in
 * vectors (no round trip through memory, no call): spans of a few pixels,
 * the rows of narrow triangles, pay little more than their
 * vectors. A span whose last vector would pass the end of the framebuffer
 * goes to `tail` (a constant, so a direct call once inlined). The same bits
 * either way. */
static KF3DS__ALWAYS_INLINE void span_row(float *zrow, uint32_t *crow, int x, int n, size_t room,
                                          __m128 q, float dw, const span_steps *S,
                                          const int32_t dc[3], int flat, uint32_t flat_color,
                                          span4_fn tail)
{
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
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
        tail(zrow, crow, x, n, room, _mm_cvtss_f32(q), dw, rgb[1], rgb[2], rgb[3], S, dc, flat,
             flat_color);
    }
}

/* Whether the edge functions of every pixel a narrow triangle's vectors
 * visit (G vectors of four per row from px0, rows py0..py1 and one more)
 * fit in 32 bits: then its rows are tested four pixels per vector. */
static inline int edges_fit32(const kf3ds__edges *E, int G)
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

/* Whether a triangle's rows are found four (or, with AVX2, eight) pixels
 * per vector: narrow ones of several rows whose edge functions fit in 32
 * bits (tall thin triangles, such as the sides of small boxes). The small triangles of
 * dense meshes keep the scalar walk, which costs them less than setting the
 * vectors up. */
static inline int narrow_vector_rows(const kf3ds__edges *E)
{
    return E->px1 - E->px0 < 12 && E->py1 - E->py0 >= 6 &&
           edges_fit32(E, (E->px1 - E->px0 + 4) / 4);
}

/* Out-of-line steps of fill_rows (one copy in each file that includes this
 * header: the fills that use them). */
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

/* The triangles narrow_vector_rows leaves: the small narrow ones row by row,
 * the wide ones span by span. */
static KF3DS__ALWAYS_INLINE int fill_rows(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                                          const kf3ds__fill_vertex *b,
                                          const kf3ds__fill_vertex *c, int64_t area,
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
