/* Rotation tracks' setup two keys at a time (docs/performance.md,
 * "Loading"): the turns of two keys, and the logarithms and slerp constants
 * of two segments, in the two lanes of SSE2 vectors, with the plain code's
 * operations (track_setup_plain.c, track_rotation.h) in its order lane by
 * lane, so the same bits. A pair one of whose lanes needs a rare case (a
 * tiny or huge value, libm's fallback) goes one by one. */
#include "track_rotation.h"

#if defined(KF3DS__ROTATION_LANES)

/* The constants of the two-lane code, read through a pointer the compiler
 * cannot see through (pair_consts_get): else GCC builds every _mm_set1_pd
 * from a scalar (movsd, unpcklpd) where a memory operand would do. */
typedef struct pair_consts {
    __m128d sign, one, mhalf, half, two_over_pi, head, tail, half_pi, pi, two_pi;
    __m128d tiny_axis, max_axis, sincos_max, tiny_ln, tiny_slerp, near, third;
    __m128d s_poly[8], c_poly[10]; /* kf3ds__sincos_d's, innermost first */
    __m128d neg_hi; /* (0, −0) */
    __m128d acos_poly[8], acos_index, atan_poly[4], acos_rel; /* acos_float2's */
    __m128d exp_s[8], exp_c[8], exp_small; /* mul_exp's series, innermost first */
} pair_consts;

#define PD2(c) { (c), (c) }
static const pair_consts pair_consts_ = {
    PD2(-0.0), PD2(1.0), PD2(-0.5), PD2(0.5), PD2(2.0 / KF3DS__PI),
    PD2(KF3DS__HALF_PI_HEAD), PD2(KF3DS__HALF_PI_TAIL),
    PD2(0.5 * KF3DS__PI), PD2(KF3DS__PI), PD2(2.0 * KF3DS__PI),
    PD2(1e-8), PD2(DBL_MAX), PD2(KF3DS__SINCOS_D_MAX), PD2(1e-8), PD2(1e-6), PD2(1e-4),
    PD2(1.0 / 3.0),
    { PD2(KF3DS__SIN_S8), PD2(KF3DS__SIN_S7), PD2(KF3DS__SIN_S6), PD2(KF3DS__SIN_S5),
      PD2(KF3DS__SIN_S4), PD2(KF3DS__SIN_S3), PD2(KF3DS__SIN_S2), PD2(KF3DS__SIN_S1) },
    { PD2(KF3DS__COS_C9), PD2(KF3DS__COS_C8), PD2(KF3DS__COS_C7), PD2(KF3DS__COS_C6),
      PD2(KF3DS__COS_C5), PD2(KF3DS__COS_C4), PD2(KF3DS__COS_C3), PD2(KF3DS__COS_C2),
      PD2(KF3DS__COS_C1), PD2(1.0) },
    { 0.0, -0.0 },
    { PD2(ACOS_A7), PD2(ACOS_A6), PD2(ACOS_A5), PD2(ACOS_A4), PD2(ACOS_A3), PD2(ACOS_A2),
      PD2(ACOS_A1), PD2(ACOS_A0) },
    PD2(64.0 / KF3DS__PI),
    { PD2(1.0 / 9), PD2(-1.0 / 7), PD2(1.0 / 5), PD2(-1.0 / 3) },
    PD2(ACOS_REL),
    { PD2(KF3DS__SIN_S7), PD2(KF3DS__SIN_S6), PD2(KF3DS__SIN_S5), PD2(KF3DS__SIN_S4),
      PD2(KF3DS__SIN_S3), PD2(KF3DS__SIN_S2), PD2(KF3DS__SIN_S1), PD2(1.0) },
    { PD2(KF3DS__COS_C7), PD2(KF3DS__COS_C6), PD2(KF3DS__COS_C5), PD2(KF3DS__COS_C4),
      PD2(KF3DS__COS_C3), PD2(KF3DS__COS_C2), PD2(KF3DS__COS_C1), PD2(1.0) },
    PD2(0.0625),
};

static KF3DS__ALWAYS_INLINE const pair_consts *pair_consts_get(void)
{
    const pair_consts *k = &pair_consts_;
    __asm__("" : "+r"(k));
    return k;
}

static KF3DS__ALWAYS_INLINE __m128d pd_sel(__m128d mask, __m128d a, __m128d b)
{
    return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}

/* a ⊗ b of a = (a01, a23) and b = (b01, b23) as (x, y) and (z, w): every
 * term is quat_mul_d's product and the sums are in its order; a term it
 * subtracts is here added negated, or the other way round (x − y is
 * x + (−y), and −(a·b) is (−a)·b, bit for bit). */
static KF3DS__ALWAYS_INLINE void quat_mul_pd(const pair_consts *K, __m128d a01, __m128d a23,
                                             __m128d b01, __m128d b23, __m128d *xy, __m128d *zw)
{
    __m128d a33 = _mm_unpackhi_pd(a23, a23);
    __m128d a12 = _mm_shuffle_pd(a01, a23, 1), a20 = _mm_shuffle_pd(a23, a01, 0);
    *xy = _mm_sub_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(a33, b01),
                                           _mm_mul_pd(a01, _mm_unpackhi_pd(b23, b23))),
                                _mm_mul_pd(a12, _mm_shuffle_pd(b23, b01, 0))),
                     _mm_mul_pd(a20, _mm_shuffle_pd(b01, b23, 1)));
    *zw = _mm_sub_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(a33, b23),
                                           _mm_mul_pd(_mm_xor_pd(a20, K->neg_hi),
                                                      _mm_shuffle_pd(b23, b01, 1))),
                                _mm_mul_pd(_mm_xor_pd(a01, K->neg_hi), _mm_unpackhi_pd(b01, b01))),
                     _mm_mul_pd(a12, _mm_unpacklo_pd(b01, b23)));
}

/* A float quaternion as (x, y) and (z, w) in double. */
static KF3DS__ALWAYS_INLINE void quat_pd(const float q[4], __m128d *q01, __m128d *q23)
{
    __m128 v = _mm_loadu_ps(q);
    *q01 = _mm_cvtps_pd(v);
    *q23 = _mm_cvtps_pd(_mm_movehl_ps(v, v));
}

/* (x, y) and (z, w) rounded to float, into out. */
static KF3DS__ALWAYS_INLINE void quat_store(__m128d xy, __m128d zw, float out[4])
{
    _mm_storeu_ps(out, _mm_movelh_ps(_mm_cvtpd_ps(xy), _mm_cvtpd_ps(zw)));
}

/* The 64-bit lane masks of the low two 32-bit lanes of m. */
static KF3DS__ALWAYS_INLINE __m128d pd_mask32(__m128i m)
{
    return _mm_castsi128_pd(_mm_unpacklo_epi32(m, m));
}

/* Two float quaternions (or key values) as four vectors of lanes (a[d], b[d]),
 * and the float vectors they come from: lo = (a0, b0, a1, b1), hi = (a2, b2,
 * a3, b3). */
static KF3DS__ALWAYS_INLINE void quat_lanes(const float a[4], const float b[4], __m128d v[4],
                                            __m128 *lo, __m128 *hi)
{
    __m128 va = _mm_loadu_ps(a), vb = _mm_loadu_ps(b);
    *lo = _mm_unpacklo_ps(va, vb);
    *hi = _mm_unpackhi_ps(va, vb);
    v[0] = _mm_cvtps_pd(*lo);
    v[1] = _mm_cvtps_pd(_mm_movehl_ps(*lo, *lo));
    v[2] = _mm_cvtps_pd(*hi);
    v[3] = _mm_cvtps_pd(_mm_movehl_ps(*hi, *hi));
}

/* Stores lanes 0 and 1 of four double vectors, rounded to float, as the
 * float quaternions a and b. */
static KF3DS__ALWAYS_INLINE void quat_store2(__m128d x, __m128d y, __m128d z, __m128d w,
                                             float a[4], float b[4])
{
    __m128 xy = _mm_unpacklo_ps(_mm_cvtpd_ps(x), _mm_cvtpd_ps(y)); /* xa ya xb yb */
    __m128 zw = _mm_unpacklo_ps(_mm_cvtpd_ps(z), _mm_cvtpd_ps(w));
    _mm_storeu_ps(a, _mm_movelh_ps(xy, zw));
    _mm_storeu_ps(b, _mm_movehl_ps(zw, xy));
}

/* kf3ds__sincos_d in two lanes, for |x| <= KF3DS__SINCOS_D_MAX: sin x and
 * cos x in *s and *c; returns x less whole turns. */
static KF3DS__ALWAYS_INLINE __m128d sincos_d2(const pair_consts *K, __m128d x, __m128d *sp,
                                              __m128d *cp)
{
    __m128d md, r, r2, sr, cr, odd, s, c, red;
    __m128i m, m3;
    int i;
    /* |m| < 2^16, so 32-bit lanes hold it */
    m = _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(x, K->two_over_pi),
                                    pd_sel(_mm_cmpge_pd(x, _mm_setzero_pd()), K->half, K->mhalf)));
    md = _mm_cvtepi32_pd(m);
    r = _mm_sub_pd(_mm_sub_pd(x, _mm_mul_pd(md, K->head)), _mm_mul_pd(md, K->tail));
    r2 = _mm_mul_pd(r, r);
    sr = K->s_poly[0];
    for (i = 1; i < 8; i++)
        sr = _mm_add_pd(K->s_poly[i], _mm_mul_pd(r2, sr));
    sr = _mm_add_pd(r, _mm_mul_pd(_mm_mul_pd(r, r2), sr));
    cr = K->c_poly[0];
    for (i = 1; i < 10; i++)
        cr = _mm_add_pd(K->c_poly[i], _mm_mul_pd(r2, cr));
    /* the quadrant m mod 4: odd m swaps sine and cosine, m mod 4 in {2, 3}
     * negates the sine, in {1, 2} the cosine */
    odd = pd_mask32(_mm_cmpeq_epi32(_mm_and_si128(m, _mm_set1_epi32(1)), _mm_set1_epi32(1)));
    s = pd_sel(odd, cr, sr);
    c = pd_sel(odd, sr, cr);
    s = _mm_xor_pd(s, _mm_and_pd(K->sign, pd_mask32(_mm_cmpeq_epi32(
                                     _mm_and_si128(m, _mm_set1_epi32(2)), _mm_set1_epi32(2)))));
    c = _mm_xor_pd(c, _mm_and_pd(K->sign, pd_mask32(_mm_cmpeq_epi32(
                                     _mm_and_si128(_mm_add_epi32(m, _mm_set1_epi32(1)),
                                                   _mm_set1_epi32(2)),
                                     _mm_set1_epi32(2)))));
    /* m mod 4 as -1..2 */
    m3 = _mm_sub_epi32(_mm_and_si128(_mm_add_epi32(m, _mm_set1_epi32(1)), _mm_set1_epi32(3)),
                       _mm_set1_epi32(1));
    red = _mm_add_pd(_mm_mul_pd(_mm_cvtepi32_pd(m3), K->half_pi), r);
    red = _mm_sub_pd(red, _mm_and_pd(_mm_cmpgt_pd(red, K->pi), K->two_pi));
    *sp = s;
    *cp = c;
    return red;
}

/* turn_of of keys ka and kb; 0, having written nothing, when one of them
 * has a tiny, NaN or infinite axis or an angle beyond kf3ds__sincos_d's
 * fast path. */
static int turn_of2(const kf3ds_key *ka, const kf3ds_key *kb, key_turn *ta, key_turn *tb)
{
    const pair_consts *K = pair_consts_get();
    __m128d v[4], l, x, ok, s, c, red, f;
    __m128 lo, hi;
    quat_lanes(ka->value, kb->value, v, &lo, &hi);
    l = _mm_sqrt_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(v[1], v[1]), _mm_mul_pd(v[2], v[2])),
                               _mm_mul_pd(v[3], v[3])));
    x = _mm_mul_pd(K->mhalf, v[0]);
    ok = _mm_and_pd(_mm_cmpge_pd(l, K->tiny_axis), _mm_cmple_pd(l, K->max_axis));
    ok = _mm_and_pd(ok, _mm_cmple_pd(_mm_andnot_pd(K->sign, x), K->sincos_max));
    if (_mm_movemask_pd(ok) != 3)
        return 0;
    red = sincos_d2(K, x, &s, &c);
    /* the turn */
    f = _mm_div_pd(s, l);
    quat_store2(_mm_mul_pd(f, v[1]), _mm_mul_pd(f, v[2]), _mm_mul_pd(f, v[3]), c, ta->q, tb->q);
    red = _mm_andnot_pd(K->sign, red);
    s = _mm_andnot_pd(K->sign, s);
    _mm_storel_pd(&ta->phi, red);
    _mm_storeh_pd(&tb->phi, red);
    _mm_storel_pd(&ta->sin_phi, s);
    _mm_storeh_pd(&tb->sin_phi, s);
    _mm_storel_pd(&ta->cos_phi, c);
    _mm_storeh_pd(&tb->cos_phi, c);
    return 1;
}

/* kf3ds__atan2_near in two lanes, with its test (den > 0, |num| < 1e-4·den)
 * and'ed into *ok. */
static KF3DS__ALWAYS_INLINE __m128d atan2_near2(const pair_consts *K, __m128d y, __m128d x,
                                                __m128d phi, __m128d sin_phi, __m128d cos_phi,
                                                __m128d *ok)
{
    __m128d num = _mm_sub_pd(_mm_mul_pd(y, cos_phi), _mm_mul_pd(x, sin_phi));
    __m128d den = _mm_add_pd(_mm_mul_pd(x, cos_phi), _mm_mul_pd(y, sin_phi)), d;
    *ok = _mm_and_pd(*ok, _mm_and_pd(_mm_cmpgt_pd(den, _mm_setzero_pd()),
                                     _mm_cmplt_pd(_mm_andnot_pd(K->sign, num),
                                                  _mm_mul_pd(K->near, den))));
    d = _mm_div_pd(num, den);
    return _mm_add_pd(phi, _mm_sub_pd(d, _mm_mul_pd(_mm_mul_pd(_mm_mul_pd(d, d), d), K->third)));
}

/* step_ln(from_j, to_j, turn_j, g_j) and, where sl_j, slerp_constants(from_j,
 * to_j, turn_j, sl_j) for the segments j = a, b; 0, having written nothing,
 * when one of them takes a rare case of theirs. */
static int segment_pair(const float from_a[4], const float to_a[4], const float from_b[4],
                        const float to_b[4], const key_turn *ra, const key_turn *rb, double ga[3],
                        double gb[3], float *sl_a, float *sl_b)
{
    const pair_consts *K = pair_consts_get();
    const __m128d sign = K->sign, one = K->one;
    __m128d F[4], T[4], q[4], p[4], neg, l, ok, s, phi, sin_phi, cos_phi, om, sl_need, sl_ok;
    __m128 flo, fhi, tlo, thi, dot;
    int d;
    quat_lanes(from_a, from_b, F, &flo, &fhi);
    quat_lanes(to_a, to_b, T, &tlo, &thi);
    /* step_ln: the sign of kf3ds__quat_dot(to, from), in float */
    {
        __m128 plo = _mm_mul_ps(tlo, flo), phi4 = _mm_mul_ps(thi, fhi);
        dot = _mm_add_ps(_mm_add_ps(_mm_add_ps(plo, _mm_movehl_ps(plo, plo)), phi4),
                         _mm_movehl_ps(phi4, phi4));
        neg = pd_mask32(_mm_castps_si128(_mm_cmplt_ps(dot, _mm_setzero_ps())));
    }
    l = _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(F[0], F[0]), _mm_mul_pd(F[1], F[1])),
                              _mm_mul_pd(F[2], F[2])),
                   _mm_mul_pd(F[3], F[3]));
    ok = _mm_cmpge_pd(_mm_andnot_pd(sign, l), K->tiny_ln);
    for (d = 0; d < 4; d++)
        q[d] = _mm_xor_pd(T[d], _mm_and_pd(neg, sign));
    /* quat_mul_d(f, q) with f = (−F0, −F1, −F2, F3): −F_i·x is −(F_i·x) */
    p[0] = _mm_sub_pd(_mm_sub_pd(_mm_sub_pd(_mm_mul_pd(F[3], q[0]), _mm_mul_pd(F[0], q[3])),
                                 _mm_mul_pd(F[1], q[2])),
                      _mm_xor_pd(_mm_mul_pd(F[2], q[1]), sign));
    p[1] = _mm_sub_pd(_mm_sub_pd(_mm_sub_pd(_mm_mul_pd(F[3], q[1]), _mm_mul_pd(F[1], q[3])),
                                 _mm_mul_pd(F[2], q[0])),
                      _mm_xor_pd(_mm_mul_pd(F[0], q[2]), sign));
    p[2] = _mm_sub_pd(_mm_sub_pd(_mm_sub_pd(_mm_mul_pd(F[3], q[2]), _mm_mul_pd(F[2], q[3])),
                                 _mm_mul_pd(F[0], q[1])),
                      _mm_xor_pd(_mm_mul_pd(F[1], q[0]), sign));
    p[3] = _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(F[3], q[3]), _mm_mul_pd(F[0], q[0])),
                                 _mm_mul_pd(F[1], q[1])),
                      _mm_mul_pd(F[2], q[2]));
    s = _mm_sqrt_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(p[0], p[0]), _mm_mul_pd(p[1], p[1])),
                               _mm_mul_pd(p[2], p[2])));
    ok = _mm_and_pd(ok, _mm_cmpge_pd(s, K->tiny_ln));
    phi = _mm_set_pd(rb->phi, ra->phi);
    sin_phi = _mm_set_pd(rb->sin_phi, ra->sin_phi);
    cos_phi = _mm_set_pd(rb->cos_phi, ra->cos_phi);
    om = atan2_near2(K, s, p[3], pd_sel(neg, _mm_sub_pd(K->pi, phi), phi), sin_phi,
                     _mm_xor_pd(cos_phi, _mm_and_pd(neg, sign)), &ok);
    om = _mm_div_pd(om, s);
    /* slerp_constants, in the lanes that want them */
    sl_need = _mm_castsi128_pd(_mm_set_epi32(sl_b ? -1 : 0, sl_b ? -1 : 0, sl_a ? -1 : 0,
                                             sl_a ? -1 : 0));
    l = _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(F[0], T[0]), _mm_mul_pd(F[1], T[1])),
                              _mm_mul_pd(F[2], T[2])),
                   _mm_mul_pd(F[3], T[3]));
    sl_ok = _mm_and_pd(_mm_cmpgt_pd(_mm_add_pd(one, l), K->tiny_slerp), _mm_cmple_pd(l, one));
    s = _mm_sqrt_pd(_mm_mul_pd(_mm_sub_pd(one, l), _mm_add_pd(one, l)));
    sl_ok = _mm_and_pd(sl_ok, _mm_cmpgt_pd(s, K->tiny_slerp));
    phi = atan2_near2(K, s, l, phi, sin_phi, cos_phi, &sl_ok);
    ok = _mm_and_pd(ok, _mm_or_pd(sl_ok, _mm_xor_pd(sl_need, _mm_castsi128_pd(_mm_set1_epi32(-1)))));
    if (_mm_movemask_pd(ok) != 3)
        return 0;
    for (d = 0; d < 3; d++) {
        __m128d g = _mm_mul_pd(p[d], om);
        _mm_storel_pd(&ga[d], g);
        _mm_storeh_pd(&gb[d], g);
    }
    if (sl_a || sl_b) {
        float o[3][4];
        _mm_storeu_ps(o[0], _mm_cvtpd_ps(phi));
        _mm_storeu_ps(o[1], _mm_cvtpd_ps(l));
        _mm_storeu_ps(o[2], _mm_cvtpd_ps(_mm_div_pd(one, s)));
        if (sl_a) {
            sl_a[0] = o[0][0];
            sl_a[1] = o[1][0];
            sl_a[2] = o[2][0];
        }
        if (sl_b) {
            sl_b[0] = o[0][1];
            sl_b[1] = o[1][1];
            sl_b[2] = o[2][1];
        }
    }
    return 1;
}

/* dot4_d with two packed conversions and multiplications instead of eight
 * conversions and four multiplications: the same bits (the products are
 * exact in double). */
static KF3DS__ALWAYS_INLINE double dot4_lanes(const float a[4], const float b[4])
{
    double w[4]; /* the float pairs, as the 64-bit words they are */
    __m128d p01, p23;
    memcpy(w, a, 2 * sizeof(double));
    memcpy(w + 2, b, 2 * sizeof(double));
    p01 = _mm_mul_pd(_mm_cvtps_pd(_mm_castpd_ps(_mm_set_sd(w[0]))),
                     _mm_cvtps_pd(_mm_castpd_ps(_mm_set_sd(w[2]))));
    p23 = _mm_mul_pd(_mm_cvtps_pd(_mm_castpd_ps(_mm_set_sd(w[1]))),
                     _mm_cvtps_pd(_mm_castpd_ps(_mm_set_sd(w[3]))));
    return ((_mm_cvtsd_f64(p01) + _mm_cvtsd_f64(_mm_unpackhi_pd(p01, p01))) +
            _mm_cvtsd_f64(p23)) + _mm_cvtsd_f64(_mm_unpackhi_pd(p23, p23));
}

/* Q_i of the chain below (its turn through lc when given). */
static KF3DS__ALWAYS_INLINE void chain_step_lanes(kf3ds_track *t, uint32_t i, ln_cache *lc)
{
    kf3ds_key *k = &t->keys[i];
    key_turn own;
    const key_turn *tr = lc ? turn_at(lc, i) : (turn_of(k, &own), &own);
    if (i == 0) {
        memcpy(k->quat, tr->q, sizeof tr->q);
    } else {
        __m128d a01, a23, b01, b23, xy, zw;
        quat_pd(tr->q, &a01, &a23);
        quat_pd(t->keys[i - 1].quat, &b01, &b23);
        quat_mul_pd(pair_consts_get(), a01, a23, b01, b23, &xy, &zw);
        quat_store(xy, zw, k->quat); /* kf3ds__quat_mul's bits */
    }
}

/* segment_step of segments j and j + 1, in two lanes when they allow. */
static inline void segments2(const kf3ds_track *t, uint32_t j, ln_cache *lc)
{
    unsigned s0 = j & (TURN_SLOTS - 1u), s1 = (j + 1) & (TURN_SLOTS - 1u);
    const kf3ds_key *k = &t->keys[j];
    if (segment_pair(k[0].quat, k[1].quat, k[1].quat, k[2].quat, turn_at(lc, j + 1),
                     turn_at(lc, j + 2), lc->G[s0], lc->G[s1], segment_slerp(t, j, lc),
                     segment_slerp(t, j + 1, lc))) {
        lc->g_key[s0] = j + 1;
        lc->g_key[s1] = j + 2;
        return;
    }
    segment_step(t, j, lc);
    segment_step(t, j + 1, lc);
}

/* track_setup_plain.c's accumulate_rotations, the turns of two keys and the
 * logarithms of two segments at a time. */
static uint32_t accumulate_rotations_lanes(kf3ds_track *t, uint32_t done, uint32_t upto,
                                           ln_cache *lc)
{
    uint32_t i;
    /* The turns first, in a loop of their own: they do not depend on each
     * other, so the processor overlaps their square roots and divisions,
     * which it cannot across the loop below (docs/performance.md,
     * "Loading"). */
    for (i = done; lc && i < upto; i++) {
        unsigned slot = i & (TURN_SLOTS - 1u), next = (i + 1) & (TURN_SLOTS - 1u);
        if (i + 1 < upto && lc->turn_key[slot] != i + 1 && lc->turn_key[next] != i + 2 &&
            turn_of2(&t->keys[i], &t->keys[i + 1], &lc->turn[slot], &lc->turn[next])) {
            lc->turn_key[slot] = i + 1;
            lc->turn_key[next] = i + 2;
            i++;
            continue;
        }
        turn_get(lc, t, i);
    }
    for (i = done; i < upto; i++) {
        chain_step_lanes(t, i, lc);
        if (!lc || i == 0)
            continue;
        /* with the next key's Q, the segments i − 1 and i at once */
        if (i + 1 < upto) {
            chain_step_lanes(t, i + 1, lc);
            segments2(t, i - 1, lc);
            i++;
            continue;
        }
        segment_step(t, i - 1, lc);
    }
    return upto > done ? upto : done;
}

/* out = q ⊗ exp(v, 0) (docs/evaluation.md, "Squad"), in double, rounded once.
 * exp(v) by exp_vector (track_rotation.h), as mul_exp. */
static KF3DS__ALWAYS_INLINE void mul_exp_lanes(const float q[4], const double v[3], float out[4])
{
    double e[4];
    __m128d q01, q23, xy, zw;
    exp_vector(v, e);
    /* quat_mul_d(q, e), rounded to float */
    quat_pd(q, &q01, &q23);
    quat_mul_pd(pair_consts_get(), q01, q23, _mm_loadu_pd(e), _mm_loadu_pd(e + 2), &xy, &zw);
    quat_store(xy, zw, out);
}

/* mul_exp(qa, v_a, outa) and mul_exp(qb, v_b, outb) in two lanes, v_a and v_b
 * the lanes of v; 0, having written nothing, when ω is beyond
 * kf3ds__sincos_d's fast path. */
static KF3DS__ALWAYS_INLINE int mul_exp2(const pair_consts *K, const float qa[4], const float qb[4],
                                         const __m128d v[3], float outa[4], float outb[4])
{
    __m128d w2, sc, cc, e[3], q[4], p[4];
    __m128 lo, hi;
    int d, k, small;
    w2 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(v[0], v[0]), _mm_mul_pd(v[1], v[1])),
                    _mm_mul_pd(v[2], v[2]));
    small = _mm_movemask_pd(_mm_cmplt_pd(w2, K->exp_small));
    sc = cc = w2;
    if (small) { /* sin ω/ω and cos ω of ω = |v| from their series */
        sc = K->exp_s[0];
        cc = K->exp_c[0];
        for (k = 1; k < 8; k++) {
            sc = _mm_add_pd(K->exp_s[k], _mm_mul_pd(w2, sc));
            cc = _mm_add_pd(K->exp_c[k], _mm_mul_pd(w2, cc));
        }
    }
    if (small != 3) { /* or from sin ω and cos ω (a lane each, or both) */
        __m128d om = _mm_sqrt_pd(w2), sl, cl, m = _mm_cmplt_pd(w2, K->exp_small);
        if (_mm_movemask_pd(_mm_cmple_pd(om, K->sincos_max)) != 3)
            return 0;
        sincos_d2(K, om, &sl, &cl);
        sc = pd_sel(m, sc, _mm_div_pd(sl, om));
        cc = pd_sel(m, cc, cl);
    }
    for (d = 0; d < 3; d++)
        e[d] = _mm_mul_pd(v[d], sc);
    quat_lanes(qa, qb, q, &lo, &hi);
    /* quat_mul_d(q, e) */
    p[0] = _mm_sub_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(q[3], e[0]), _mm_mul_pd(q[0], cc)),
                                 _mm_mul_pd(q[1], e[2])),
                      _mm_mul_pd(q[2], e[1]));
    p[1] = _mm_sub_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(q[3], e[1]), _mm_mul_pd(q[1], cc)),
                                 _mm_mul_pd(q[2], e[0])),
                      _mm_mul_pd(q[0], e[2]));
    p[2] = _mm_sub_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(q[3], e[2]), _mm_mul_pd(q[2], cc)),
                                 _mm_mul_pd(q[0], e[1])),
                      _mm_mul_pd(q[1], e[0]));
    p[3] = _mm_sub_pd(_mm_sub_pd(_mm_sub_pd(_mm_mul_pd(q[3], cc), _mm_mul_pd(q[0], e[0])),
                                 _mm_mul_pd(q[1], e[1])),
                      _mm_mul_pd(q[2], e[2]));
    quat_store2(p[0], p[1], p[2], p[3], outa, outb);
    return 1;
}
/* The squad controls of rotation key c, tin = B_c and tout = A_c, from its
 * frame spacings and the logarithms gm = g⁻ and gp = g⁺ (docs/evaluation.md,
 * "Squad"). */
static KF3DS__ALWAYS_INLINE void squad_controls_lanes(const kf3ds_key *c, double dt_prev,
                                                      double dt_next, const double gm[3],
                                                      const double gp[3], float tin[4],
                                                      float tout[4])
{
    double f[4], a[3], b[3];
    int d;
    if (tcb_factors(c, dt_prev, dt_next, 1, f)) {
        /* No TCB: ½(kdm·g⁻ + (kdp − 1)·g⁺) and ½((1 − ksm)·g⁻ − ksp·g⁺) are
         * both ¼(fn·g⁻ − fp·g⁺), as fp + fn = 2: A_i = B_i. */
        for (d = 0; d < 3; d++)
            a[d] = 0.5 * (f[2] * gm[d] - f[1] * gp[d]);
        mul_exp_lanes(c->quat, a, tout);
        memcpy(tin, tout, 4 * sizeof(float));
        return;
    }
    for (d = 0; d < 3; d++) {
        a[d] = 0.5 * (f[2] * gm[d] + (f[3] - 1.0) * gp[d]);
        b[d] = 0.5 * ((1.0 - f[0]) * gm[d] - f[1] * gp[d]);
    }
    { /* the two exponentials at once */
        __m128d v[3];
        for (d = 0; d < 3; d++)
            v[d] = _mm_set_pd(b[d], a[d]);
        if (mul_exp2(pair_consts_get(), c->quat, c->quat, v, tout, tin))
            return;
    }
    mul_exp_lanes(c->quat, a, tout);
    mul_exp_lanes(c->quat, b, tin);
}

/* track_rotation.h's control helpers with the two-lane squad_controls. */
static void rotation_controls_lanes(const kf3ds_track *t, uint32_t i, ln_cache *lc,
                                    float tin[4], float tout[4])
{
    rotation_controls_by(t, i, lc, tin, tout, squad_controls_lanes);
}

static KF3DS__ALWAYS_INLINE void interior_controls_lanes(const kf3ds_track *t, uint32_t i,
                                                         ln_cache *lc, float tin[4],
                                                         float tout[4])
{
    interior_controls_by(t, i, lc, tin, tout, squad_controls_lanes);
}

/* interior_controls of keys i and i + 1 (both interior), in two lanes when
 * neither has tension, continuity or bias (A = B, one exponential each):
 * tcb_factors, squad_controls and mul_exp with their operations lane by
 * lane. */
static KF3DS__ALWAYS_INLINE void interior_controls2(const kf3ds_track *t, uint32_t i,
                                                    ln_cache *lc, float in0[4], float out0[4],
                                                    float in1[4], float out1[4])
{
    const pair_consts *K = pair_consts_get();
    const kf3ds_key *c = &t->keys[i];
    const double *g0 = ln_get(lc, t, i - 1), *g1 = ln_get(lc, t, i), *g2 = ln_get(lc, t, i + 1);
    __m128d f0, f1, fp, fn, dt, v[3];
    int d;
    if (!((c[0].spline_flags | c[1].spline_flags) &
          (KF3DS_KEY_TENSION | KF3DS_KEY_CONTINUITY | KF3DS_KEY_BIAS))) {
        /* tcb_factors: the frame spacings to the neighbours, then fp and fn */
        __m128i fr = _mm_set_epi32(0, 0, c[1].frame, c[0].frame);
        __m128i fr_prev = _mm_set_epi32(0, 0, c[0].frame, c[-1].frame);
        __m128i fr_next = _mm_set_epi32(0, 0, c[2].frame, c[1].frame);
        __m128d dp = _mm_sub_pd(_mm_cvtepi32_pd(fr), _mm_cvtepi32_pd(fr_prev));
        __m128d dn = _mm_sub_pd(_mm_cvtepi32_pd(fr_next), _mm_cvtepi32_pd(fr));
        dt = _mm_mul_pd(K->half, _mm_add_pd(dp, dn));
        if (_mm_movemask_pd(_mm_cmpeq_pd(dt, _mm_setzero_pd())))
            goto one_by_one;
        fp = _mm_div_pd(dp, dt);
        fn = _mm_div_pd(dn, dt);
        f1 = _mm_mul_pd(K->half, fp); /* ksp */
        f0 = _mm_mul_pd(K->half, fn); /* kdm */
        /* squad_controls: ½(kdm·g⁻ − ksp·g⁺) */
        for (d = 0; d < 3; d++)
            v[d] = _mm_mul_pd(K->half, _mm_sub_pd(_mm_mul_pd(f0, _mm_set_pd(g1[d], g0[d])),
                                                  _mm_mul_pd(f1, _mm_set_pd(g2[d], g1[d]))));
        if (!mul_exp2(K, c[0].quat, c[1].quat, v, out0, out1))
            goto one_by_one;
        memcpy(in0, out0, 4 * sizeof(float));
        memcpy(in1, out1, 4 * sizeof(float));
        return;
    }
one_by_one:
    squad_controls_lanes(&c[0], (double)c[0].frame - c[-1].frame, (double)c[1].frame - c[0].frame, g0,
                   g1, in0, out0);
    squad_controls_lanes(&c[1], (double)c[1].frame - c[0].frame, (double)c[2].frame - c[1].frame, g1,
                   g2, in1, out1);
}

/* The acos of two slerps at once (acos_float's steps, lane by lane, the
 * same bits): l and s as given there; the floats in om. */
static void acos_float2(__m128d l, __m128d s, float om[2])
{
    const pair_consts *K = pair_consts_get();
    __m128d al = _mm_andnot_pd(K->sign, l), r, c0, s0, w0, num, den, d, d2, o, err;
    const double *e0, *e1;
    int i0, i1, same, k;
    double lv[2];
    r = K->acos_poly[0];
    for (k = 1; k < 8; k++)
        r = _mm_add_pd(K->acos_poly[k], _mm_mul_pd(al, r));
    r = _mm_mul_pd(_mm_sqrt_pd(_mm_sub_pd(K->one, al)), r);
    r = _mm_add_pd(_mm_mul_pd(r, K->acos_index), K->half);
    _mm_storeu_pd(lv, l);
    i0 = _mm_cvttsd_si32(r);
    i1 = _mm_cvttsd_si32(_mm_unpackhi_pd(r, r));
    e0 = acos_table[lv[0] < 0.0 ? 64 - i0 : i0];
    e1 = acos_table[lv[1] < 0.0 ? 64 - i1 : i1];
    w0 = _mm_set_pd(e1[0], e0[0]);
    c0 = _mm_set_pd(e1[1], e0[1]);
    s0 = _mm_set_pd(e1[2], e0[2]);
    num = _mm_sub_pd(_mm_mul_pd(s, c0), _mm_mul_pd(l, s0));
    den = _mm_add_pd(_mm_mul_pd(l, c0), _mm_mul_pd(s, s0));
    d = _mm_div_pd(num, den);
    d2 = _mm_mul_pd(d, d);
    o = K->atan_poly[0];
    for (k = 1; k < 4; k++)
        o = _mm_add_pd(K->atan_poly[k], _mm_mul_pd(d2, o));
    o = _mm_add_pd(w0, _mm_add_pd(d, _mm_mul_pd(_mm_mul_pd(d, d2), o)));
    err = _mm_mul_pd(K->acos_rel, o);
    same = _mm_movemask_ps(_mm_cmpeq_ps(_mm_cvtpd_ps(_mm_sub_pd(o, err)),
                                        _mm_cvtpd_ps(_mm_add_pd(o, err))));
    _mm_storel_pi((__m64 *)(void *)om, _mm_cvtpd_ps(o));
    if ((same & 3) != 3) { /* (rare) */
        if (!(same & 1))
            om[0] = (float)acos(lv[0]);
        if (!(same & 2))
            om[1] = (float)acos(lv[1]);
    }
}

/* The controls' slerp constants of every segment of a rotation track (its
 * records at seg; a segment of a turn or more has none): slerp_constants of
 * A_k and B_k+1, two segments at a time when both are ordinary
 * (docs/performance.md, "Loading"). */
static void control_slerps_lanes(const kf3ds_track *t, float *seg, size_t stride)
{
    uint32_t k = 0, n = t->num_keys;
    for (; k + 2 < n; k += 2) {
        float *s0 = seg + (size_t)k * stride, *s1 = s0 + stride, om[2], f[4];
        double l0, l1;
        __m128d l, s, one = _mm_set1_pd(1.0), lim = _mm_set1_pd(1e-6);
        if (fabsf(t->keys[k + 1].value[0]) >= (float)KF3DS__PI ||
            fabsf(t->keys[k + 2].value[0]) >= (float)KF3DS__PI)
            goto one_by_one;
        l0 = dot4_lanes(s0 + 12, s0 + 16);
        l1 = dot4_lanes(s1 + 12, s1 + 16);
        l = _mm_set_pd(l1, l0);
        /* (slerp_constants' special cases: 1 + l <= 1e-6, l > 1, sin ω <= 1e-6) */
        if (_mm_movemask_pd(_mm_or_pd(_mm_cmple_pd(_mm_add_pd(one, l), lim),
                                      _mm_cmpgt_pd(l, one))))
            goto one_by_one;
        s = _mm_sqrt_pd(_mm_mul_pd(_mm_sub_pd(one, l), _mm_add_pd(one, l)));
        if (_mm_movemask_pd(_mm_cmpgt_pd(s, lim)) != 3)
            goto one_by_one;
        acos_float2(l, s, om);
        _mm_storeu_ps(f, _mm_movelh_ps(_mm_cvtpd_ps(l), _mm_cvtpd_ps(_mm_div_pd(one, s))));
        s0[25] = om[0];
        s0[26] = f[0];
        s0[27] = f[2];
        s1[25] = om[1];
        s1[26] = f[1];
        s1[27] = f[3];
        continue;
    one_by_one:
        control_slerp(t, seg, stride, k);
        control_slerp(t, seg, stride, k + 1);
    }
    for (; k + 1 < n; k++)
        control_slerp(t, seg, stride, k);
}

uint32_t kf3ds__rotation_records_lanes(kf3ds_track *t, kf3ds_track_kind kind, int eased,
                                       uint32_t done, float *seg, size_t stride)
{
    uint32_t k, n = t->num_keys;
    float in[4] = { 0, 0, 0, 0 }, out[4] = { 0, 0, 0, 0 };
    /* key k + 2's controls, worked out with key k + 1's */
    float next_in[4] = { 0, 0, 0, 0 }, next_out[4] = { 0, 0, 0, 0 };
    ln_cache lc;
    ln_cache_init(&lc);
    if (done == 0) { /* (a closed curve has its Q_k already) */
        lc.seg = seg;
        lc.stride = stride;
    }
    done = accumulate_rotations_lanes(t, done, n < 3 ? n : 3, &lc);
    rotation_controls_lanes(t, 0, &lc, in, out);
    for (k = 0; k + 1 < n; k++) {
        float a_out[4];
        memcpy(a_out, out, sizeof a_out);
        if (done < k + 4) /* the controls of keys k + 1 and k + 2 need Q_k+3 */
            done = accumulate_rotations_lanes(
                t, done, n - k > 4 + ROT_AHEAD ? k + 4 + ROT_AHEAD : n, &lc);
        if ((k & 1) && k + 2 < n) { /* (worked out with key k's) */
            memcpy(in, next_in, sizeof in);
            memcpy(out, next_out, sizeof out);
        } else if (k + 3 < n) {
            interior_controls2(t, k + 1, &lc, in, out, next_in, next_out);
        } else if (k + 2 < n) {
            interior_controls_lanes(t, k + 1, &lc, in, out);
        } else {
            rotation_controls_lanes(t, k + 1, &lc, in, out);
        }
        rotation_record(t, kind, eased, k, seg + (size_t)k * stride, a_out, in, &lc);
    }
    control_slerps_lanes(t, seg, stride);
    return done;
}

uint32_t kf3ds__rotation_chain_lanes(kf3ds_track *t, uint32_t done, uint32_t upto)
{
    return accumulate_rotations_lanes(t, done, upto, NULL);
}
#else
/* No SSE2 or vector extension in this build: track_setup_plain.c serves. */
typedef int kf3ds__rotation_lanes_absent;
#endif
