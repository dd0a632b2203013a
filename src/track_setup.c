/* Per-track setup at load: stable sort, accumulated rotations, tangents and
 * squad controls, and the per-segment records (track_segments.h) that
 * evaluation (track_eval.h) reads; kf3ds_track_key_tangents, a key's
 * tangents from the same functions. The mathematics is lib3ds 1.3's with the
 * fixes docs/evaluation.md lists. */
#include "track_setup.h"
#include "arena.h"
#include "geometry.h"
#include "kmath.h"
#include "read_util.h"
#include "sort.h"
#include "track_segments.h"
#include <float.h>
#include <math.h>
#include <string.h>

/* acos_float's bound, relative to ω (see there). */
#define ACOS_REL 0x1p-40
/* acos_float's first guess, acos |l| within 1e-7 (Abramowitz and Stegun
 * 4.4.46): sqrt(1 − |l|)·(A0 + A1·|l| + … + A7·|l|⁷); acos_float2 reads the
 * same coefficients from pair_consts_. */
#define ACOS_A0 1.5707963050
#define ACOS_A1 (-0.2145988016)
#define ACOS_A2 0.0889789874
#define ACOS_A3 (-0.0501743046)
#define ACOS_A4 0.0308918810
#define ACOS_A5 (-0.0170881256)
#define ACOS_A6 0.0066700901
#define ACOS_A7 (-0.0012624911)

/* Loop bits 3: the track loops, and its tangents close the curve. */
#define LOOP_CLOSED 3

static int is_cyclic(const kf3ds_track *t)
{
    return (t->flags & KF3DS_TRACK_LOOP_MASK) == LOOP_CLOSED && t->num_keys >= 2;
}

/* Keys by frame only: keys on one frame keep their file order (the sort is
 * stable; docs/evaluation.md, "Key order and duplicate frames"). */
static int key_less(const void *a, const void *b)
{
    return ((const kf3ds_key *)a)->frame < ((const kf3ds_key *)b)->frame;
}

/* The Kochanek–Bartels factors of key c (docs/evaluation.md, "Hermite
 * tracks") in f: ksm, ksp, kdm, kdp. dt_prev / dt_next are the frame spacings
 * to the neighbours; `both` says both neighbours exist. Returns 1 when the
 * key has both and no tension, continuity or bias: then ksm = ksp = fp/2 and
 * kdm = kdp = fn/2 with fp + fn = 2 (the other factors are 1). */
static inline int tcb_factors(const kf3ds_key *c, double dt_prev, double dt_next, int both,
                              double f[4])
{
    double fp = 1.0, fn = 1.0;
    double tm, cm, cp, bm, bp;
    if (both &&
        !(c->spline_flags & (KF3DS_KEY_TENSION | KF3DS_KEY_CONTINUITY | KF3DS_KEY_BIAS))) {
        double dt = 0.5 * (dt_prev + dt_next);
        if (dt != 0.0) {
            fp = dt_prev / dt;
            fn = dt_next / dt;
        }
        f[0] = f[1] = 0.5 * fp;
        f[2] = f[3] = 0.5 * fn;
        return 1;
    }
    if (both) {
        double dt = 0.5 * (dt_prev + dt_next);
        double cc = fabs((double)c->continuity);
        if (dt != 0.0) { /* three keys on one frame are legal */
            fp = dt_prev / dt;
            fn = dt_next / dt;
        }
        fp = fp + cc - cc * fp;
        fn = fn + cc - cc * fn;
    }
    tm = 0.5 * (1.0 - c->tension);
    cm = 1.0 - c->continuity;
    cp = 2.0 - cm;
    bm = 1.0 - c->bias;
    bp = 2.0 - bm;
    f[0] = tm * cm * bp * fp;
    f[1] = tm * cp * bm * fp;
    f[2] = tm * cp * bp * fn;
    f[3] = tm * cm * bm * fn;
    return 0;
}

/* Neighbours of key i for tangent purposes: value keys p and n, and the frame
 * spacings. Loop tracks close the curve as lib3ds 1.3 does (docs/evaluation.md,
 * "Where time falls"). */
typedef struct neighbours {
    const kf3ds_key *p, *n;
    double dt_prev, dt_next;
} neighbours;

static inline neighbours neighbours_of(const kf3ds_track *t, uint32_t i)
{
    neighbours nb;
    uint32_t last = t->num_keys - 1;
    const kf3ds_key *k = t->keys;
    nb.p = i > 0 ? &k[i - 1] : NULL;
    nb.n = i < last ? &k[i + 1] : NULL;
    nb.dt_prev = nb.p ? (double)k[i].frame - nb.p->frame : 0.0;
    nb.dt_next = nb.n ? (double)nb.n->frame - k[i].frame : 0.0;
    if (is_cyclic(t)) {
        if (i == 0) {
            nb.p = &k[last - 1];
            nb.dt_prev = (double)k[last].frame - k[last - 1].frame;
        }
        if (i == last) {
            nb.n = &k[1];
            nb.dt_next = (double)k[1].frame - k[0].frame;
        }
    }
    return nb;
}

/* The Kochanek–Bartels tangents of key c between keys p and n, three lanes
 * (a scalar track's other values are 0, and its records take only the
 * first). */
static inline void interior_tangents(const kf3ds_key *p, const kf3ds_key *c, const kf3ds_key *n,
                                     double dt_prev, double dt_next, float tin[4], float tout[4])
{
    double f[4];
    float ksm, ksp, kdm, kdp;
    int d;
    tcb_factors(c, dt_prev, dt_next, 1, f);
    ksm = (float)f[0];
    ksp = (float)f[1];
    kdm = (float)f[2];
    kdp = (float)f[3];
#if defined(KF3DS__GNUC_VECTORS)
    {
        /* The three components (and value[3], 0) as one vector: the
         * same operations per lane as the loop below. */
        kf3ds__sv4 vc, vp, vn, dm, dp, ti, to;
        kf3ds__sv4 sm = { ksm, ksm, ksm, ksm }, sp = { ksp, ksp, ksp, ksp };
        kf3ds__sv4 dmk = { kdm, kdm, kdm, kdm }, dpk = { kdp, kdp, kdp, kdp };
        memcpy(&vc, c->value, sizeof vc);
        memcpy(&vp, p->value, sizeof vp);
        memcpy(&vn, n->value, sizeof vn);
        dm = vc - vp;
        dp = vn - vc;
        ti = sm * dm + sp * dp;
        to = dmk * dm + dpk * dp;
        memcpy(tin, &ti, sizeof ti);
        memcpy(tout, &to, sizeof to);
        return;
    }
#endif
    for (d = 0; d < 4; d++) {
        float dm = c->value[d] - p->value[d];
        float dp = n->value[d] - c->value[d];
        tin[d] = ksm * dm + ksp * dp;
        tout[d] = kdm * dm + kdp * dp;
    }
}

/* The tangents of key i of a vector or scalar track: Kochanek–Bartels for
 * interior keys, the chord for end keys (lib3ds 1.3; docs/evaluation.md,
 * "Hermite tracks"), zero for a lone key. */
static void vector_tangents(const kf3ds_track *t, uint32_t i, float tin[4], float tout[4])
{
    const kf3ds_key *c = &t->keys[i];
    neighbours nb = neighbours_of(t, i);
    int d;
    memset(tin, 0, 4 * sizeof(float));
    memset(tout, 0, 4 * sizeof(float));
    if (nb.p && nb.n) {
        interior_tangents(nb.p, c, nb.n, nb.dt_prev, nb.dt_next, tin, tout);
    } else if (nb.p || nb.n) {
        for (d = 0; d < 3; d++) {
            float chord = nb.p ? c->value[d] - nb.p->value[d] : nb.n->value[d] - c->value[d];
            tin[d] = tout[d] = chord;
        }
    }
}

/* a·b of two float quaternions in double, summed in lane order: the
 * products are exact in double, so with SSE2 two packed conversions and
 * multiplications give the same bits as eight conversions and four
 * multiplications (docs/architecture.md, "Loading"). */
static KF3DS__ALWAYS_INLINE double dot4_d(const float a[4], const float b[4])
{
#if defined(KF3DS__GNUC_VECTORS) && defined(KF3DS__SSE2)
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
#else
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] +
           (double)a[3] * b[3];
#endif
}

/* a ⊗ b in double (the order of kf3ds__quat_mul). */
static inline void quat_mul_d(const double a[4], const double b[4], double out[4])
{
    out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    out[1] = a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2];
    out[2] = a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0];
    out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/* A rotation key's increment q(a, −θ) = (sin h·a/|a|, cos h), h = −θ/2,
 * worked out in double and rounded to float, and the angle φ in [0, π] with
 * cos φ = cos h and sin φ = |sin h| in double (h less whole turns). A zero
 * axis gives the identity and φ = 0. */
typedef struct key_turn {
    float q[4]; /* rounded to float, as Q_k takes it */
    double phi, sin_phi, cos_phi;
} key_turn;

static inline void turn_of(const kf3ds_key *k, key_turn *tr)
{
    const float *axis = &k->value[1];
    double l = sqrt((double)axis[0] * axis[0] + (double)axis[1] * axis[1] +
                    (double)axis[2] * axis[2]);
    double s, c, f;
    /* (one compare pair for "tiny, NaN or infinite") */
    if (!(l >= 1e-8 && l <= DBL_MAX)) {
        tr->q[0] = tr->q[1] = tr->q[2] = 0.0f;
        tr->q[3] = 1.0f;
        tr->phi = tr->sin_phi = 0.0;
        tr->cos_phi = 1.0;
        return;
    }
    tr->phi = fabs(kf3ds__sincos_d(-0.5 * (double)k->value[0], &s, &c));
    f = s / l;
    /* (rounded to double first, as when q was kept in double: the same
     * bits where double is evaluated in extended precision) */
    tr->q[0] = (float)(double)(f * axis[0]);
    tr->q[1] = (float)(double)(f * axis[1]);
    tr->q[2] = (float)(double)(f * axis[2]);
    tr->q[3] = (float)c;
    tr->sin_phi = fabs(s);
    tr->cos_phi = c;
}

#if defined(KF3DS__GNUC_VECTORS) && defined(KF3DS__SSE2)
/* Rotation setup two keys at a time (docs/architecture.md, "Loading"): the
 * turns of two keys, and the logarithms and slerp constants of two segments,
 * in the two lanes of SSE2 vectors, with the scalar code's operations in its
 * order lane by lane, so the same bits. A pair one of whose lanes needs a
 * rare case (a tiny or huge value, libm's fallback) goes one by one. */
#define ROT_PAIRS 1

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
#endif

/* Setup accumulates Q_k this many keys ahead of the controls, in one loop:
 * the turns and products of keys are independent but for the product's
 * chain, so the processor overlaps their latencies (a square root and a
 * division per key), which it cannot across the long per-key chain of the
 * controls. */
#define ROT_AHEAD 33 /* (odd: the batches of ROT_AHEAD + 1 keys go in pairs) */
#define TURN_SLOTS 64 /* a power of two above ROT_AHEAD + 4 */

/* What the squad controls of one key after another share: the turns of the
 * keys last asked for (turn_get), by key index modulo TURN_SLOTS (setup runs
 * forward through the keys and needs at most ROT_AHEAD + 4 at a time), and
 * G_j = ln(Q_j⁻¹ ⊗ ±Q_j+1), by j modulo TURN_SLOTS: g⁺ of key j is bit for
 * bit g⁻ of key j + 1 (the same products, negated or not, and the same sign
 * test), and both are worked out with the Q_k ahead of the controls. */
typedef struct ln_cache {
    uint32_t turn_key[TURN_SLOTS]; /* key index + 1; 0: empty */
    key_turn turn[TURN_SLOTS];
    uint32_t g_key[TURN_SLOTS]; /* j + 1; 0: empty */
    double G[TURN_SLOTS][3];
    /* the track's records when accumulation writes their slerp constants of
     * Q_j and Q_j+1 (record j, [20..22]) as it goes; else NULL */
    float *seg;
    size_t stride;
} ln_cache;

static void ln_cache_init(ln_cache *lc)
{
    lc->seg = NULL;
    memset(lc->turn_key, 0, sizeof lc->turn_key);
    memset(lc->g_key, 0, sizeof lc->g_key);
}

static inline void step_ln(const float from[4], const float to[4], const key_turn *turn,
                           double g[3]);
static void slerp_constants(const float a[4], const float b[4], const key_turn *turn,
                            float out[3]);

/* The turn of key i of t, from the cache or into it. */
static inline const key_turn *turn_get(ln_cache *lc, const kf3ds_track *t, uint32_t i)
{
    unsigned slot = i & (TURN_SLOTS - 1u);
    if (lc->turn_key[slot] != i + 1) {
        lc->turn_key[slot] = i + 1;
        turn_of(&t->keys[i], &lc->turn[slot]);
    }
    return &lc->turn[slot];
}

/* The turn of key i, in the cache: accumulate_rotations' first loop puts
 * those of its batch there. */
static inline const key_turn *turn_at(const ln_cache *lc, uint32_t i)
{
    return &lc->turn[i & (TURN_SLOTS - 1u)];
}

/* Q_i of the chain below (its turn through lc when given). */
static KF3DS__ALWAYS_INLINE void chain_step(kf3ds_track *t, uint32_t i, ln_cache *lc)
{
    kf3ds_key *k = &t->keys[i];
    key_turn own;
    const key_turn *tr = lc ? turn_at(lc, i) : (turn_of(k, &own), &own);
    if (i == 0) {
        memcpy(k->quat, tr->q, sizeof tr->q);
    } else {
#ifdef ROT_PAIRS
        __m128d a01, a23, b01, b23, xy, zw;
        quat_pd(tr->q, &a01, &a23);
        quat_pd(t->keys[i - 1].quat, &b01, &b23);
        quat_mul_pd(pair_consts_get(), a01, a23, b01, b23, &xy, &zw);
        quat_store(xy, zw, k->quat); /* kf3ds__quat_mul's bits */
#else
        kf3ds__quat_mul(tr->q, t->keys[i - 1].quat, k->quat);
#endif
    }
}

/* Where accumulation writes the slerp constants of Q_j and Q_j+1 (record j,
 * [20..22]): NULL when it does not, or when the segment is a turn or more
 * (such a segment keeps axis and angle instead). */
static inline float *segment_slerp(const kf3ds_track *t, uint32_t j, const ln_cache *lc)
{
    if (!lc->seg || fabsf(t->keys[j + 1].value[0]) >= (float)KF3DS__PI)
        return NULL;
    return lc->seg + (size_t)j * lc->stride + 20;
}

/* G_j and the slerp constants of segment j, once Q_j+1 is known. */
static inline void segment_step(const kf3ds_track *t, uint32_t j, ln_cache *lc)
{
    unsigned slot = j & (TURN_SLOTS - 1u);
    const key_turn *tr = turn_at(lc, j + 1);
    float *sl = segment_slerp(t, j, lc);
    step_ln(t->keys[j].quat, t->keys[j + 1].quat, tr, lc->G[slot]);
    lc->g_key[slot] = j + 1;
    if (sl)
        slerp_constants(t->keys[j].quat, t->keys[j + 1].quat, tr, sl);
}

#ifdef ROT_PAIRS
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
#endif

/* Q_0 = q(a_0, −θ_0), Q_k = q(a_k, −θ_k) ⊗ Q_{k−1} over every key
 * (docs/evaluation.md, "Rotation tracks"): the increment rounded to float,
 * then the product of two float quaternions, exact in double and rounded
 * once, so that Q_k has the same bits on hosts that evaluate double in
 * extended precision (68881, x87) as on the others. Keys done..upto−1 (their
 * turns through lc when given, for the squad controls to use again); returns
 * the keys done. */
static uint32_t accumulate_rotations(kf3ds_track *t, uint32_t done, uint32_t upto, ln_cache *lc)
{
    uint32_t i;
    /* The turns first, in a loop of their own: they do not depend on each
     * other, so the processor overlaps their square roots and divisions,
     * which it cannot across the loop below (docs/architecture.md,
     * "Loading"). */
    for (i = done; lc && i < upto; i++) {
#ifdef ROT_PAIRS
        unsigned slot = i & (TURN_SLOTS - 1u), next = (i + 1) & (TURN_SLOTS - 1u);
        if (i + 1 < upto && lc->turn_key[slot] != i + 1 && lc->turn_key[next] != i + 2 &&
            turn_of2(&t->keys[i], &t->keys[i + 1], &lc->turn[slot], &lc->turn[next])) {
            lc->turn_key[slot] = i + 1;
            lc->turn_key[next] = i + 2;
            i++;
            continue;
        }
#endif
        turn_get(lc, t, i);
    }
    for (i = done; i < upto; i++) {
        chain_step(t, i, lc);
        if (!lc || i == 0)
            continue;
#ifdef ROT_PAIRS
        /* with the next key's Q, the segments i − 1 and i at once */
        if (i + 1 < upto) {
            chain_step(t, i + 1, lc);
            segments2(t, i - 1, lc);
            i++;
            continue;
        }
#endif
        segment_step(t, i - 1, lc);
    }
    return upto > done ? upto : done;
}

/* G_j (ln_cache), from the cache or into it. */
static KF3DS__ALWAYS_INLINE const double *ln_get(ln_cache *lc, const kf3ds_track *t, uint32_t j)
{
    unsigned slot = j & (TURN_SLOTS - 1u);
    if (lc->g_key[slot] != j + 1) {
        step_ln(t->keys[j].quat, t->keys[j + 1].quat, turn_get(lc, t, j + 1), lc->G[slot]);
        lc->g_key[slot] = j + 1;
    }
    return lc->G[slot];
}

/* g = ln(Q_f⁻¹ ⊗ ±Q_t) (docs/evaluation.md, "Squad"; Q_t negated when
 * Q_f·Q_t < 0) in double. ln(v, w) depends on the direction of (v, w) only,
 * so the conjugate of Q_f serves for its inverse. When Q_t is the key after
 * Q_f, Q_f⁻¹ ⊗ Q_t is that key's increment seen from Q_f, whose angle is the
 * increment's own φ (`turn`; π − φ when negated): atan2 becomes a small
 * correction of it. */
static inline void step_ln(const float from[4], const float to[4], const key_turn *turn,
                           double g[3])
{
    int neg = kf3ds__quat_dot(to, from) < 0.0f, d;
    double f[4], q[4], p[4], s, om;
    double l = dot4_d(from, from);
    for (d = 0; d < 4; d++) {
        f[d] = d < 3 ? -(double)from[d] : from[d];
        q[d] = neg ? -(double)to[d] : to[d];
    }
    if (fabs(l) < 1e-8) { /* kf3ds__quat_inv's identity */
        f[0] = f[1] = f[2] = 0.0;
        f[3] = 1.0;
    }
    quat_mul_d(f, q, p);
    s = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (s < 1e-8) {
        g[0] = g[1] = g[2] = 0.0;
        return;
    }
    if (turn)
        om = kf3ds__atan2_near(s, p[3], neg ? KF3DS__PI - turn->phi : turn->phi, turn->sin_phi,
                               neg ? -turn->cos_phi : turn->cos_phi);
    else
        om = atan2(s, p[3]);
    om /= s;
    for (d = 0; d < 3; d++)
        g[d] = p[d] * om;
}

/* out = q ⊗ exp(v, 0) (docs/evaluation.md, "Squad"), in double, rounded once.
 * A small |v| (most controls: a quarter of the change between two steps)
 * takes sin ω/ω and cos ω from their series in ω² (the first term left out
 * is below 1e-20 for ω < 1/4): no square root, division or reduction. */
static KF3DS__ALWAYS_INLINE void mul_exp(const float q[4], const double v[3], float out[4])
{
    double w2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2], s, c, e[4], qd[4], p[4];
    int d;
    if (w2 < 0.0625) {
        s = 1.0 + w2 * (KF3DS__SIN_S1 + w2 * (KF3DS__SIN_S2 + w2 * (KF3DS__SIN_S3 +
            w2 * (KF3DS__SIN_S4 + w2 * (KF3DS__SIN_S5 + w2 * (KF3DS__SIN_S6 +
            w2 * KF3DS__SIN_S7))))));
        c = 1.0 + w2 * (KF3DS__COS_C1 + w2 * (KF3DS__COS_C2 + w2 * (KF3DS__COS_C3 +
            w2 * (KF3DS__COS_C4 + w2 * (KF3DS__COS_C5 + w2 * (KF3DS__COS_C6 +
            w2 * KF3DS__COS_C7))))));
    } else {
        double om = sqrt(w2);
        kf3ds__sincos_d(om, &s, &c);
        s /= om;
    }
    for (d = 0; d < 3; d++)
        e[d] = v[d] * s;
    e[3] = c;
#ifdef ROT_PAIRS
    {
        __m128d q01, q23, xy, zw;
        quat_pd(q, &q01, &q23);
        quat_mul_pd(pair_consts_get(), q01, q23, _mm_loadu_pd(e), _mm_loadu_pd(e + 2), &xy, &zw);
        quat_store(xy, zw, out);
        return;
    }
#endif
    for (d = 0; d < 4; d++)
        qd[d] = q[d];
    quat_mul_d(qd, e, p);
    for (d = 0; d < 4; d++)
        out[d] = (float)p[d];
}

#ifdef ROT_PAIRS
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
#endif

/* The squad controls of rotation key c, tin = B_c and tout = A_c, from its
 * frame spacings and the logarithms gm = g⁻ and gp = g⁺ (docs/evaluation.md,
 * "Squad"). */
static KF3DS__ALWAYS_INLINE void squad_controls(const kf3ds_key *c, double dt_prev,
                                                double dt_next, const double gm[3],
                                                const double gp[3], float tin[4], float tout[4])
{
    double f[4], a[3], b[3];
    int d;
    if (tcb_factors(c, dt_prev, dt_next, 1, f)) {
        /* No TCB: ½(kdm·g⁻ + (kdp − 1)·g⁺) and ½((1 − ksm)·g⁻ − ksp·g⁺) are
         * both ¼(fn·g⁻ − fp·g⁺), as fp + fn = 2: A_i = B_i. */
        for (d = 0; d < 3; d++)
            a[d] = 0.5 * (f[2] * gm[d] - f[1] * gp[d]);
        mul_exp(c->quat, a, tout);
        memcpy(tin, tout, 4 * sizeof(float));
        return;
    }
    for (d = 0; d < 3; d++) {
        a[d] = 0.5 * (f[2] * gm[d] + (f[3] - 1.0) * gp[d]);
        b[d] = 0.5 * ((1.0 - f[0]) * gm[d] - f[1] * gp[d]);
    }
#ifdef ROT_PAIRS
    { /* the two exponentials at once */
        __m128d v[3];
        for (d = 0; d < 3; d++)
            v[d] = _mm_set_pd(b[d], a[d]);
        if (mul_exp2(pair_consts_get(), c->quat, c->quat, v, tout, tin))
            return;
    }
#endif
    mul_exp(c->quat, a, tout);
    mul_exp(c->quat, b, tin);
}

/* The squad controls of rotation key i: tin = B_i, tout = A_i, the key's
 * orientation for end keys (lib3ds 1.3). */
static void rotation_controls(const kf3ds_track *t, uint32_t i, ln_cache *lc, float tin[4],
                              float tout[4])
{
    const kf3ds_key *c = &t->keys[i];
    neighbours nb = neighbours_of(t, i);
    double gm[3], gp[3];
    if (!nb.p || !nb.n) {
        memcpy(tin, c->quat, sizeof c->quat);
        memcpy(tout, c->quat, sizeof c->quat);
        return;
    }
    /* (the neighbours are the keys before and after unless a cyclic track
     * closes its curve: then they have no turn in common with key i) */
    step_ln(nb.p->quat, c->quat, i > 0 ? turn_get(lc, t, i) : NULL, gm);
    step_ln(c->quat, nb.n->quat, i + 1 < t->num_keys ? turn_get(lc, t, i + 1) : NULL, gp);
    squad_controls(c, nb.dt_prev, nb.dt_next, gm, gp, tin, tout);
}

/* rotation_controls for an interior key 0 < i < last, whose neighbours are
 * the keys beside it even on a closed curve: inline in setup's loop, without
 * the neighbour and end-key cases, its logarithms G_i−1 and G_i. */
static KF3DS__ALWAYS_INLINE void interior_controls(const kf3ds_track *t, uint32_t i,
                                                   ln_cache *lc, float tin[4], float tout[4])
{
    const kf3ds_key *c = &t->keys[i];
    const double *gm = ln_get(lc, t, i - 1), *gp = ln_get(lc, t, i);
    squad_controls(c, (double)c->frame - c[-1].frame, (double)c[1].frame - c->frame, gm, gp,
                   tin, tout);
}

#ifdef ROT_PAIRS
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
    squad_controls(&c[0], (double)c[0].frame - c[-1].frame, (double)c[1].frame - c[0].frame, g0,
                   g1, in0, out0);
    squad_controls(&c[1], (double)c[1].frame - c[0].frame, (double)c[2].frame - c[1].frame, g1,
                   g2, in1, out1);
}
#endif

/* ω_i = iπ/64 (the double nearest), cos ω_i and sin ω_i (rounded from the
 * exact values): the starting angles of acos_float. */
static const double acos_table[65][3] = {
    { 0.0, 1.0, 0.0 },
    { 0.04908738521234052, 0.9987954562051724, 0.049067674327418015 },
    { 0.09817477042468103, 0.9951847266721969, 0.0980171403295606 },
    { 0.14726215563702155, 0.989176509964781, 0.14673047445536175 },
    { 0.19634954084936207, 0.9807852804032304, 0.19509032201612825 },
    { 0.2454369260617026, 0.970031253194544, 0.24298017990326387 },
    { 0.2945243112740431, 0.9569403357322088, 0.29028467725446233 },
    { 0.3436116964863836, 0.9415440651830208, 0.33688985339222005 },
    { 0.39269908169872414, 0.9238795325112867, 0.3826834323650898 },
    { 0.44178646691106466, 0.9039892931234433, 0.4275550934302821 },
    { 0.4908738521234052, 0.881921264348355, 0.47139673682599764 },
    { 0.5399612373357457, 0.857728610000272, 0.5141027441932218 },
    { 0.5890486225480862, 0.8314696123025452, 0.5555702330196022 },
    { 0.6381360077604268, 0.8032075314806449, 0.5956993044924334 },
    { 0.6872233929727672, 0.773010453362737, 0.6343932841636455 },
    { 0.7363107781851078, 0.7409511253549591, 0.6715589548470184 },
    { 0.7853981633974483, 0.7071067811865476, 0.7071067811865475 },
    { 0.8344855486097889, 0.6715589548470183, 0.7409511253549591 },
    { 0.8835729338221293, 0.6343932841636455, 0.773010453362737 },
    { 0.9326603190344699, 0.5956993044924334, 0.8032075314806449 },
    { 0.9817477042468103, 0.5555702330196023, 0.8314696123025452 },
    { 1.030835089459151, 0.5141027441932217, 0.8577286100002721 },
    { 1.0799224746714915, 0.4713967368259976, 0.881921264348355 },
    { 1.1290098598838318, 0.4275550934302822, 0.9039892931234433 },
    { 1.1780972450961724, 0.38268343236508984, 0.9238795325112867 },
    { 1.227184630308513, 0.33688985339222005, 0.9415440651830208 },
    { 1.2762720155208536, 0.29028467725446233, 0.9569403357322089 },
    { 1.325359400733194, 0.24298017990326398, 0.970031253194544 },
    { 1.3744467859455345, 0.19509032201612833, 0.9807852804032304 },
    { 1.423534171157875, 0.14673047445536175, 0.989176509964781 },
    { 1.4726215563702156, 0.09801714032956055, 0.9951847266721969 },
    { 1.5217089415825562, 0.049067674327417904, 0.9987954562051724 },
    { 1.5707963267948966, 6.123233995736766e-17, 1.0 },
    { 1.6198837120072371, -0.04906767432741801, 0.9987954562051724 },
    { 1.6689710972195777, -0.09801714032956065, 0.9951847266721969 },
    { 1.7180584824319183, -0.14673047445536186, 0.9891765099647809 },
    { 1.7671458676442586, -0.1950903220161282, 0.9807852804032304 },
    { 1.8162332528565992, -0.24298017990326387, 0.970031253194544 },
    { 1.8653206380689398, -0.2902846772544624, 0.9569403357322088 },
    { 1.9144080232812803, -0.33688985339222016, 0.9415440651830207 },
    { 1.9634954084936207, -0.3826834323650897, 0.9238795325112867 },
    { 2.0125827937059615, -0.42755509343028225, 0.9039892931234432 },
    { 2.061670178918302, -0.4713967368259977, 0.881921264348355 },
    { 2.110757564130642, -0.5141027441932217, 0.8577286100002721 },
    { 2.159844949342983, -0.5555702330196023, 0.8314696123025451 },
    { 2.2089323345553233, -0.5956993044924334, 0.8032075314806449 },
    { 2.2580197197676637, -0.6343932841636454, 0.7730104533627371 },
    { 2.3071071049800045, -0.6715589548470184, 0.740951125354959 },
    { 2.356194490192345, -0.7071067811865475, 0.7071067811865476 },
    { 2.4052818754046856, -0.7409511253549592, 0.6715589548470182 },
    { 2.454369260617026, -0.773010453362737, 0.6343932841636455 },
    { 2.5034566458293663, -0.8032075314806448, 0.5956993044924335 },
    { 2.552544031041707, -0.8314696123025453, 0.5555702330196022 },
    { 2.6016314162540475, -0.857728610000272, 0.5141027441932218 },
    { 2.650718801466388, -0.8819212643483549, 0.47139673682599786 },
    { 2.6998061866787286, -0.9039892931234433, 0.42755509343028203 },
    { 2.748893571891069, -0.9238795325112867, 0.3826834323650899 },
    { 2.7979809571034098, -0.9415440651830208, 0.3368898533922199 },
    { 2.84706834231575, -0.9569403357322088, 0.2902846772544624 },
    { 2.8961557275280905, -0.970031253194544, 0.24298017990326407 },
    { 2.9452431127404313, -0.9807852804032304, 0.19509032201612816 },
    { 2.9943304979527716, -0.989176509964781, 0.1467304744553618 },
    { 3.0434178831651124, -0.9951847266721969, 0.0980171403295604 },
    { 3.0925052683774528, -0.9987954562051724, 0.049067674327417966 },
    { 3.141592653589793, -1.0, 1.2246467991473532e-16 },
};

/* acos(l) rounded to float, from l and s = sqrt((1 − l)(1 + l)) > 1e-6
 * (docs/architecture.md, "Loading"): ω is the angle of (l, s), the nearest
 * table angle ω_i plus atan(d), d = tan(ω − ω_i) = num/den with (num, den)
 * = (l, s) turned back by ω_i, |d| < 0.025 and its series to d⁹ (the next
 * term is below 1e-18). With every rounding (the table's, s's) that is within
 * a few ulps of acos(l) for ω_0 = 0 and within 2e-15 for the others, where
 * ω >= π/128: within ACOS_REL·ω always (ACOS_REL, above), 15 times over. When a value within
 * that of it could round to another float (about one in 40,000), libm's acos
 * decides, so the float is always (float)acos(l). */
static KF3DS__ALWAYS_INLINE float acos_float(double l, double s)
{
    double al = fabs(l), r, num, den, d, d2, om;
    const double *e;
    int i;
    /* acos |l| within 1e-7 (ACOS_A0..A7): which ω_i */
    r = sqrt(1.0 - al) *
        (ACOS_A0 + al * (ACOS_A1 + al * (ACOS_A2 + al * (ACOS_A3 + al * (ACOS_A4 +
         al * (ACOS_A5 + al * (ACOS_A6 + al * ACOS_A7)))))));
    i = (int)(r * (64.0 / KF3DS__PI) + 0.5); /* 0..32 */
    e = acos_table[l < 0.0 ? 64 - i : i];
    num = s * e[1] - l * e[2];
    den = l * e[1] + s * e[2];
    d = num / den;
    d2 = d * d;
    om = e[0] + (d + d * d2 * (-1.0 / 3 + d2 * (1.0 / 5 + d2 * (-1.0 / 7 + d2 * (1.0 / 9)))));
    if ((float)(om - ACOS_REL * om) == (float)(om + ACOS_REL * om))
        return (float)om;
    return (float)acos(l);
}

/* Constants of slerp(a, b, t) for a fixed pair: ω, cos ω and 1/sin ω, so that
 * sq = sin(tω)/sin ω and sp = cos(tω) − cos ω·sq need one sine/cosine pair.
 * 1/sin ω = 0 asks for the general routine (nearly opposite inputs), < 0 for
 * linear weights (nearly equal inputs). sin ω is sqrt((1 − l)(1 + l)); ω is
 * a correction of the turn of b's key when a and b are consecutive keys
 * (`turn`: a·b is the cosine of its φ, to rounding), else libm's acos. */
static void slerp_constants(const float a[4], const float b[4], const key_turn *turn,
                            float out[3])
{
    double l = dot4_d(a, b);
    double om, s;
    out[0] = out[1] = out[2] = 0.0f;
    if (1.0 + l <= 1e-6)
        return;
    if (l > 1.0)
        l = 1.0;
    s = sqrt((1.0 - l) * (1.0 + l));
    if (!(s > 1e-6)) {
        out[2] = -1.0f;
        return;
    }
    if (turn) {
        om = kf3ds__atan2_near(s, l, turn->phi, turn->sin_phi, turn->cos_phi);
        out[0] = (float)om;
    } else {
        out[0] = acos_float(l, s);
    }
    out[1] = (float)l;
    out[2] = (float)(1.0 / s);
}

#if defined(KF3DS__GNUC_VECTORS) && defined(KF3DS__SSE2)
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
#endif

/* The controls' slerp constants of segment k (none for a turn or more). */
static void control_slerp(const kf3ds_track *t, float *seg, size_t stride, uint32_t k)
{
    float *s = seg + (size_t)k * stride;
    if (!(fabsf(t->keys[k + 1].value[0]) >= (float)KF3DS__PI))
        slerp_constants(s + 12, s + 16, NULL, s + 25);
}

/* The controls' slerp constants of every segment of a rotation track (its
 * records at seg; a segment of a turn or more has none): slerp_constants of
 * A_k and B_k+1, two segments at a time with SSE2 when both are ordinary
 * (docs/architecture.md, "Loading"). */
static void control_slerps(const kf3ds_track *t, float *seg, size_t stride)
{
    uint32_t k = 0, n = t->num_keys;
#if defined(KF3DS__GNUC_VECTORS) && defined(KF3DS__SSE2)
    for (; k + 2 < n; k += 2) {
        float *s0 = seg + (size_t)k * stride, *s1 = s0 + stride, om[2], f[4];
        double l0, l1;
        __m128d l, s, one = _mm_set1_pd(1.0), lim = _mm_set1_pd(1e-6);
        if (fabsf(t->keys[k + 1].value[0]) >= (float)KF3DS__PI ||
            fabsf(t->keys[k + 2].value[0]) >= (float)KF3DS__PI)
            goto one_by_one;
        l0 = dot4_d(s0 + 12, s0 + 16);
        l1 = dot4_d(s1 + 12, s1 + 16);
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
#endif
    for (; k + 1 < n; k++)
        control_slerp(t, seg, stride, k);
}

/* Whether a segment with e_f (its start key's ease_from) and e_t (its end
 * key's ease_to) eases; when it does, scales them down to a sum of 1 when
 * larger (track_segments.h). */
static int ease_scale(float *ef, float *et)
{
    float s = *ef + *et;
    if (!(s > 0.0f))
        return 0;
    if (s > 1.0f) {
        *ef /= s;
        *et /= s;
    }
    return 1;
}

/* The ease constants of a segment from e_f (its start key's ease_from) and
 * e_t (its end key's ease_to), in the float operations of the formula
 * (track_segments.h): rec[2], rec[3] and the ease block. */
static void ease_constants(float ef, float et, float *rec, float *block)
{
    float a;
    rec[2] = 0.0f;
    rec[3] = INFINITY;
    /* A segment that does not ease: only the middle piece applies, and
     * a = 1/2 makes it (1/2)·(2u − 0), which is u exactly. */
    block[0] = 0.5f;
    block[1] = block[2] = block[3] = 0.0f;
    if (!ease_scale(&ef, &et))
        return;
    a = 1.0f / (2.0f - (ef + et));
    rec[2] = ef;
    if (et > 0.0f)
        rec[3] = 1.0f - et;
    block[0] = a;
    block[1] = ef > 0.0f ? a / ef : 0.0f;
    block[2] = et > 0.0f ? a / et : 0.0f;
}

/* A vector record's e_f and e_t, scaled by ease_scale (0
 * and 0 when the segment does not ease): the record has no room for the
 * rest, which evaluation works out from them (track_segments.h). */
static void ease_inputs(float ef, float et, float *rec)
{
    rec[2] = rec[3] = 0.0f;
    if (!ease_scale(&ef, &et))
        return;
    rec[2] = ef;
    rec[3] = et;
}

/* Whether some segment of the track eases (ease_from of its start key or
 * ease_to of its end key is set). */
static int track_eases(const kf3ds_track *t)
{
    uint32_t k;
    for (k = 0; k + 1 < t->num_keys; k++)
        if (t->keys[k].ease_from + t->keys[k + 1].ease_to > 0.0f)
            return 1;
    return 0;
}

/* The packed frames, followed by the frame index (track_segments.h) when
 * `indexed` and the track has enough keys; returns the index's shift or
 * SEG_NO_INDEX. (Only tracks with segment records are indexed: their header
 * holds the shift.) */
static unsigned setup_frames(kf3ds__ctx *ctx, kf3ds_track *t, int indexed)
{
    uint32_t k, n = t->num_keys, buckets = 0, b;
    unsigned shift = SEG_NO_INDEX;
    int32_t *frames;
    if (indexed && n > KF3DS__INDEX_MIN_KEYS && n <= KF3DS__INDEX_MAX_KEYS) {
        uint32_t range = (uint32_t)t->keys[n - 1].frame - (uint32_t)t->keys[0].frame;
        for (shift = 0; shift < 31 && (range >> shift) + 1u > n; shift++)
            ;
        buckets = kf3ds__index_buckets(t->keys[0].frame, t->keys[n - 1].frame, shift);
    }
    /* the index's buckets + 1 uint16 entries take (buckets + 2) / 2 words */
    frames = (int32_t *)kf3ds__arena_alloc_raw(
        ctx->arena, (size_t)n + (shift != SEG_NO_INDEX ? (buckets + 2) / 2 : 0), sizeof(int32_t));
    if (!frames)
        return SEG_NO_INDEX;
    for (k = 0; k < n; k++)
        frames[k] = t->keys[k].frame;
    t->frames_ = frames;
    if (shift != SEG_NO_INDEX) {
        uint16_t *index = (uint16_t *)(frames + n);
        for (b = 0, k = 0; b <= buckets; b++) {
            int64_t start = (int64_t)frames[0] + ((int64_t)b << shift);
            while (k < n && frames[k] < start)
                k++;
            index[b] = (uint16_t)k;
        }
    }
    return shift;
}

/* A vector record's cubic: c0 = p0, c1 = m0, c2 = −3p0 + 3p1 − 2m0 − m1,
 * c3 = 2p0 − 2p1 + m0 + m1 at s[4..15], 3 components each. Writes 16 floats
 * from s + 4 on: s[16], the float after a plain record, is written over (by
 * the next record, or into the slack after the last), so the record's own
 * fields after it (the ease block) come later. */
static void vector_coefficients(float *s, const float p0v[4], const float p1v[4],
                                const float m0v[4], const float m1v[4])
{
    int d;
#if defined(KF3DS__GNUC_VECTORS)
    {
        kf3ds__sv4 p0, p1, m0, m1, c2, c3;
        kf3ds__sv4 three = { 3, 3, 3, 3 }, two = { 2, 2, 2, 2 }, mthree = { -3, -3, -3, -3 };
        memcpy(&p0, p0v, sizeof p0);
        memcpy(&p1, p1v, sizeof p1);
        memcpy(&m0, m0v, sizeof m0);
        memcpy(&m1, m1v, sizeof m1);
        c2 = mthree * p0 + three * p1 - two * m0 - m1;
        c3 = two * p0 - two * p1 + m0 + m1;
        memcpy(s + 4, &p0, sizeof p0);  /* [7] is m0's */
        memcpy(s + 7, &m0, sizeof m0);  /* [10] is c2's */
        memcpy(s + 10, &c2, sizeof c2); /* [13] is c3's */
        memcpy(s + 13, &c3, sizeof c3); /* [16] is the next record's */
        return;
    }
#endif
    for (d = 0; d < 3; d++) {
        float p0 = p0v[d], p1 = p1v[d], m0 = m0v[d], m1 = m1v[d];
        s[4 + d] = p0;
        s[7 + d] = m0;
        s[10 + d] = -3.0f * p0 + 3.0f * p1 - 2.0f * m0 - m1;
        s[13 + d] = 2.0f * p0 - 2.0f * p1 + m0 + m1;
    }
}

/* A scalar record's cubic at s[4..7], with the formulas of the vector
 * records' components (so the same bits); an eased record's unused tail
 * after its ease block is zeroed. */
static void scalar_coefficients(float *s, float p0, float p1, float m0, float m1, int eased)
{
    s[4] = p0;
    s[5] = m0;
    s[6] = -3.0f * p0 + 3.0f * p1 - 2.0f * m0 - m1;
    s[7] = 2.0f * p0 - 2.0f * p1 + m0 + m1;
    if (eased)
        memset(s + SEG_EASE_SCALAR + 4, 0,
               (SEG_SCALAR_EASED - SEG_EASE_SCALAR - 4) * sizeof(float));
}

/* The kinds of segment record (track_segments.h). */
enum { REC_SCALAR, REC_VECTOR, REC_ROTATION };

/* The records of track t (setup_segments) in seg, `rec` a constant of the
 * call: the record loop inline, one copy per kind of record. */
static KF3DS__ALWAYS_INLINE uint32_t fill_records(kf3ds_track *t, kf3ds_track_kind kind, int rec,
                                                  int eased, uint32_t done, float *seg,
                                                  size_t stride)
{
    uint32_t k, n = t->num_keys;
    float in[4] = { 0, 0, 0, 0 }, out[4] = { 0, 0, 0, 0 };
#ifdef ROT_PAIRS
    /* key k + 2's controls, worked out with key k + 1's */
    float next_in[4] = { 0, 0, 0, 0 }, next_out[4] = { 0, 0, 0, 0 };
#endif
    ln_cache lc;
    if (rec == REC_ROTATION)
        ln_cache_init(&lc);
    /* Tangents (or squad controls) are worked out key by key as the records
     * need them: record k takes key k's outgoing and key k+1's incoming. */
    if (rec == REC_ROTATION) {
        if (done == 0) { /* (a closed curve has its Q_k already) */
            lc.seg = seg;
            lc.stride = stride;
        }
        done = accumulate_rotations(t, done, n < 3 ? n : 3, &lc);
        rotation_controls(t, 0, &lc, in, out);
    } else {
        vector_tangents(t, 0, in, out);
    }
    for (k = 0; k + 1 < n; k++) {
        const kf3ds_key *a = &t->keys[k], *b = &t->keys[k + 1];
        float *s = seg + (size_t)k * stride, a_out[4];
        memcpy(a_out, out, sizeof a_out);
        if (rec == REC_ROTATION) {
            if (done < k + 4) /* the controls of keys k + 1 and k + 2 need Q_k+3 */
                done = accumulate_rotations(t, done, n - k > 4 + ROT_AHEAD ? k + 4 + ROT_AHEAD : n,
                                            &lc);
#ifdef ROT_PAIRS
            if ((k & 1) && k + 2 < n) { /* (worked out with key k's) */
                memcpy(in, next_in, sizeof in);
                memcpy(out, next_out, sizeof out);
            } else if (k + 3 < n) {
                interior_controls2(t, k + 1, &lc, in, out, next_in, next_out);
            } else
#endif
            if (k + 2 < n)
                interior_controls(t, k + 1, &lc, in, out);
            else
                rotation_controls(t, k + 1, &lc, in, out);
        } else if (k + 2 < n) { /* an interior key: its neighbours are the keys beside it */
            const kf3ds_key *c = &t->keys[k + 1];
            interior_tangents(a, c, c + 1, (double)c->frame - a->frame,
                              (double)c[1].frame - c->frame, in, out);
        } else {
            vector_tangents(t, k + 1, in, out);
        }
        if (rec == REC_ROTATION) {
            memcpy(s + 4, a->quat, 4 * sizeof(float));
            if (fabsf(b->value[0]) >= (float)KF3DS__PI) {
                /* what the mode does not use, the ease block */
                memset(s + 12, 0, 20 * sizeof(float));
                s[24] = 1.0f;
                memcpy(s + 8, &b->value[1], 3 * sizeof(float));
                s[11] = b->value[0];
            } else {
                memcpy(s + 8, b->quat, 4 * sizeof(float));
                memcpy(s + 12, a_out, 4 * sizeof(float));
                memcpy(s + 16, in, 4 * sizeof(float));
                if (!lc.seg) /* (else accumulate_rotations wrote them) */
                    slerp_constants(s + 4, s + 8, turn_get(&lc, t, k + 1), s + 20);
                s[23] = s[24] = 0.0f; /* (the slerp constants fill 20..22 and 25..27) */
                memset(s + 28, 0, 4 * sizeof(float)); /* the ease block */
            }
        } else if (rec == REC_VECTOR) {
            vector_coefficients(s, a->value, b->value, a_out, in);
        } else {
            scalar_coefficients(s, a->value[0], b->value[0], a_out[0], in[0], eased);
        }
        /* the common fields last: vector_coefficients writes one float past
         * the coefficients */
        memcpy(s + 0, &a->frame, sizeof(int32_t));
        memcpy(s + 1, &b->frame, sizeof(int32_t));
        if (eased && rec == REC_VECTOR)
            ease_inputs(a->ease_from, b->ease_to, s);
        else if (eased)
            ease_constants(a->ease_from, b->ease_to, s, s + kf3ds__seg_ease_at(kind));
        else
            s[2] = s[3] = 0.0f;
    }
    /* The controls' slerp constants in a loop of their own: each segment's
     * are then independent of the next one's, and the processor overlaps
     * their latency (a square root and the acos) instead of waiting for
     * them at the end of a long chain from Q to the controls. */
    if (rec == REC_ROTATION)
        control_slerps(t, seg, stride);
    return done;
}

/* The packed frames and the records; `eased`: some segment eases. Returns
 * the keys whose Q_k are in place (rotation tracks: setup_segments
 * accumulates them as it goes, one key ahead of the controls). */
static uint32_t setup_segments(kf3ds__ctx *ctx, kf3ds_track *t, kf3ds_track_kind kind,
                               int eased, uint32_t done)
{
    uint32_t n = t->num_keys;
    size_t stride;
    float *seg;
    unsigned shift;
    if (!n || kf3ds__arena_failed(ctx->arena))
        return done;
    shift = setup_frames(ctx, t, kind != KF3DS_TRACK_HIDE && kind != KF3DS_TRACK_MORPH);
    if (!t->frames_ || kind == KF3DS_TRACK_HIDE || kind == KF3DS_TRACK_MORPH || n < 2)
        return done;
    stride = kf3ds__seg_stride(kind, eased);
    /* 16 floats of slack to align the records on a 64-byte line; the int32
     * before the first record (always inside the slack) is the header. */
    /* (and one float more: vector_coefficients writes one past a record) */
    seg = (float *)kf3ds__arena_alloc_raw(ctx->arena, (size_t)(n - 1) * stride + 17,
                                          sizeof(float));
    if (!seg)
        return done;
    seg += 16 - ((uintptr_t)seg / sizeof(float)) % 16;
    {
        int32_t header = (int32_t)kind | (eased ? SEG_HEADER_EASED : 0) | (int32_t)(shift << 16);
        memcpy(seg - 1, &header, sizeof header);
    }
    /* one copy of the record loop per kind of record, without the tests of
     * the kind per record (docs/architecture.md, "Loading") */
    if (kind == KF3DS_TRACK_ROT)
        done = fill_records(t, kind, REC_ROTATION, eased, done, seg, stride);
    else if (is_vector(kind))
        done = fill_records(t, kind, REC_VECTOR, eased, done, seg, stride);
    else
        done = fill_records(t, kind, REC_SCALAR, eased, done, seg, stride);
    t->segments_ = seg;
    return done;
}

/* For saving in file order (source.h): where each key of the file went in
 * the stable sort. Keys of equal frames keep their order, so the file's j-th
 * key of frame f is the j-th key of frame f after the sort. */
static void keep_key_order(kf3ds__ctx *ctx, const kf3ds_track *t, const int32_t *file_frames,
                           kf3ds_track_kind kind, uint32_t node)
{
    kf3ds__source *src = ctx->source;
    uint32_t n = t->num_keys, i;
    uint32_t *index = (uint32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(uint32_t));
    uint32_t *seen = (uint32_t *)kf3ds__arena_alloc(ctx->arena, n, sizeof(uint32_t));
    kf3ds__key_order *o;
    if (!index || !seen)
        return;
    for (i = 0; i < n; i++) {
        uint32_t lo = 0, hi = n; /* the first sorted key of this frame */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->keys[mid].frame < file_frames[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        index[i] = lo + seen[lo]++;
    }
    if (src->num_key_orders == src->cap_key_orders) {
        uint32_t cap = src->cap_key_orders ? 2 * src->cap_key_orders : 16;
        kf3ds__key_order *grown =
            (kf3ds__key_order *)kf3ds__arena_alloc_raw(ctx->arena, cap, sizeof *grown);
        if (!grown)
            return;
        if (src->num_key_orders)
            memcpy(grown, src->key_orders, src->num_key_orders * sizeof *grown);
        src->key_orders = grown;
        src->cap_key_orders = cap;
    }
    o = &src->key_orders[src->num_key_orders++];
    o->node = node;
    o->kind = (uint32_t)kind;
    o->num_keys = n;
    o->index = index;
}

void kf3ds__track_setup(kf3ds__ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                        uint32_t node, uint32_t offset, uint16_t chunk_id)
{
    kf3ds__track_setup_known(ctx, track, kind, node, offset, chunk_id, 0);
}

void kf3ds__track_setup_known(kf3ds__ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                              uint32_t node, uint32_t offset, uint16_t chunk_id, unsigned known)
{
    uint32_t i, n = track->num_keys, done;
    int eased = 0;
    for (i = 0; ctx->source && i < ctx->source->num_key_orders; i++) {
        kf3ds__key_order *o = &ctx->source->key_orders[i];
        if (o->node == node && o->kind == (uint32_t)kind) /* a track this one replaces */
            o->node = 0xFFFFFFFFu;
    }
    /* (whether a segment eases, found on the way for keys in order) */
    if (known & KF3DS__KEYS_NO_EASE) {
        /* (whether any key descends, without a branch per key; where, only
         * when one does) */
        unsigned down = 0;
        for (i = 1; i < n; i++)
            down |= track->keys[i].frame < track->keys[i - 1].frame;
        for (i = down ? 1 : n; i < n && track->keys[i].frame >= track->keys[i - 1].frame; i++)
            ;
    } else {
        for (i = 1; i < n; i++) {
            if (track->keys[i].frame < track->keys[i - 1].frame)
                break;
            eased |= track->keys[i - 1].ease_from + track->keys[i].ease_to > 0.0f;
        }
    }
    if (i < n) {
        kf3ds_key *tmp = (kf3ds_key *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(kf3ds_key));
        int32_t *file_frames = NULL;
        uint32_t j;
        if (!tmp)
            return;
        if (ctx->source) {
            file_frames = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(int32_t));
            for (j = 0; file_frames && j < n; j++)
                file_frames[j] = track->keys[j].frame;
        }
        kf3ds__sort(track->keys, n, sizeof *track->keys, tmp, key_less);
        if (file_frames)
            keep_key_order(ctx, track, file_frames, kind, node);
        kf3ds__diag(ctx, KF3DS_WARN_UNSORTED, offset, chunk_id,
                    "keys out of frame order (key %lu); stable-sorted", (unsigned long)i);
        eased = track_eases(track);
    }
    /* A closed curve's first controls need the last keys' Q. */
    done = kind == KF3DS_TRACK_ROT && is_cyclic(track) ? accumulate_rotations(track, 0, n, NULL)
                                                       : 0;
    done = setup_segments(ctx, track, kind, eased, done);
    if (kind == KF3DS_TRACK_ROT)
        accumulate_rotations(track, done, n, NULL);
}

/* The public view of what setup derives per key: the same functions as
 * setup_segments, so that the values are the records' own (rotation_controls
 * takes both logarithms, bit for bit the G_j setup's cache holds). */
int kf3ds_track_key_tangents(const kf3ds_track *track, kf3ds_track_kind kind, uint32_t key,
                             float in[4], float out[4])
{
    ln_cache lc;
    int d, dims;
    if (!track || !track->keys || key >= track->num_keys || !in || !out ||
        (unsigned)kind >= KF3DS_TRACK_COUNT || kind == KF3DS_TRACK_HIDE ||
        kind == KF3DS_TRACK_MORPH)
        return 0;
    if (kind == KF3DS_TRACK_ROT) {
        ln_cache_init(&lc);
        rotation_controls(track, key, &lc, in, out);
        return 4;
    }
    dims = dims_of(kind);
    vector_tangents(track, key, in, out);
    for (d = dims; d < 4; d++) /* vector_tangents fills three lanes from any values */
        in[d] = out[d] = 0.0f;
    return dims;
}
