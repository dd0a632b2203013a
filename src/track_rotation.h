/* Rotation tracks' setup at load, the part the plain C reference
 * (track_setup_plain.c) and the two-lane SSE2 version (track_setup_lanes.c)
 * share: key turns, the accumulated rotations' logarithms, squad controls,
 * slerp constants and the rotation record. Each of the two files has its own
 * chain of Q_k, controls and record loop; track_setup.c chooses one once per
 * load (kf3ds__rotation_setup_pick). Both give the same bits
 * (make plain-check). Included by those three files only. */
#ifndef KF3DS_TRACK_ROTATION_H
#define KF3DS_TRACK_ROTATION_H
#include "geometry.h"
#include "kmath.h"
#include "simd.h"
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

static inline int is_cyclic(const kf3ds_track *t)
{
    return (t->flags & KF3DS_TRACK_LOOP_MASK) == LOOP_CLOSED && t->num_keys >= 2;
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

/* a·b of two float quaternions in double, summed in lane order (the
 * products are exact in double). */
static KF3DS__ALWAYS_INLINE double dot4_d(const float a[4], const float b[4])
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] +
           (double)a[3] * b[3];
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

static inline void ln_cache_init(ln_cache *lc)
{
    lc->seg = NULL;
    memset(lc->turn_key, 0, sizeof lc->turn_key);
    memset(lc->g_key, 0, sizeof lc->g_key);
}

static inline void step_ln(const float from[4], const float to[4], const key_turn *turn,
                           double g[3]);
static inline void slerp_constants(const float a[4], const float b[4], const key_turn *turn,
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

/* The turn of key i, in the cache: accumulation's first loop puts those of
 * its batch there. */
static inline const key_turn *turn_at(const ln_cache *lc, uint32_t i)
{
    return &lc->turn[i & (TURN_SLOTS - 1u)];
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

/* e = exp(v) = (v·sin ω/ω, cos ω), ω = |v|: a small |v| from the series
 * in ω² (mul_exp explains), else through kf3ds__sincos_d. Shared by
 * mul_exp and its two-lane version (track_setup_lanes.c). */
static KF3DS__ALWAYS_INLINE void exp_vector(const double v[3], double e[4])
{
    double w2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2], s, c;
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
}

/* out = q ⊗ exp(v, 0) (docs/evaluation.md, "Squad"), in double, rounded once.
 * A small |v| (most controls: a quarter of the change between two steps)
 * takes sin ω/ω and cos ω from their series in ω² (the first term left out
 * is below 1e-20 for ω < 1/4): no square root, division or reduction. */
static KF3DS__ALWAYS_INLINE void mul_exp(const float q[4], const double v[3], float out[4])
{
    double e[4], qd[4], p[4];
    int d;
    exp_vector(v, e);
    for (d = 0; d < 4; d++)
        qd[d] = q[d];
    quat_mul_d(qd, e, p);
    for (d = 0; d < 4; d++)
        out[d] = (float)p[d];
}

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
    mul_exp(c->quat, a, tout);
    mul_exp(c->quat, b, tin);
}

/* squad_controls or its two-lane version (track_setup_lanes.c): the one
 * step the setups' control helpers below differ in. */
typedef void (*squad_controls_fn)(const kf3ds_key *c, double dt_prev, double dt_next,
                                  const double gm[3], const double gp[3], float tin[4],
                                  float tout[4]);

/* The squad controls of rotation key i: tin = B_i, tout = A_i, the key's
 * orientation for end keys (lib3ds 1.3); `squad` works them out. Always
 * inlined, so that squad, a constant at each caller, is a direct call. */
static KF3DS__ALWAYS_INLINE void rotation_controls_by(const kf3ds_track *t, uint32_t i,
                                                      ln_cache *lc, float tin[4],
                                                      float tout[4], squad_controls_fn squad)
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
    squad(c, nb.dt_prev, nb.dt_next, gm, gp, tin, tout);
}

/* rotation_controls_by for an interior key 0 < i < last, whose neighbours
 * are the keys beside it even on a closed curve: inline in setup's loop,
 * without the neighbour and end-key cases, its logarithms G_i−1 and G_i. */
static KF3DS__ALWAYS_INLINE void interior_controls_by(const kf3ds_track *t, uint32_t i,
                                                      ln_cache *lc, float tin[4],
                                                      float tout[4], squad_controls_fn squad)
{
    const kf3ds_key *c = &t->keys[i];
    const double *gm = ln_get(lc, t, i - 1), *gp = ln_get(lc, t, i);
    squad(c, (double)c->frame - c[-1].frame, (double)c[1].frame - c->frame, gm, gp, tin, tout);
}

/* The plain reference's: rotation_controls_by and interior_controls_by with
 * squad_controls. */
static inline void rotation_controls(const kf3ds_track *t, uint32_t i, ln_cache *lc, float tin[4],
                                     float tout[4])
{
    rotation_controls_by(t, i, lc, tin, tout, squad_controls);
}

static KF3DS__ALWAYS_INLINE void interior_controls(const kf3ds_track *t, uint32_t i,
                                                   ln_cache *lc, float tin[4], float tout[4])
{
    interior_controls_by(t, i, lc, tin, tout, squad_controls);
}

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
 * (docs/performance.md, "Loading"): ω is the angle of (l, s), the nearest
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
static inline void slerp_constants(const float a[4], const float b[4], const key_turn *turn,
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

/* The controls' slerp constants of segment k (none for a turn or more). */
static inline void control_slerp(const kf3ds_track *t, float *seg, size_t stride, uint32_t k)
{
    float *s = seg + (size_t)k * stride;
    if (!(fabsf(t->keys[k + 1].value[0]) >= (float)KF3DS__PI))
        slerp_constants(s + 12, s + 16, NULL, s + 25);
}

/* Whether a segment with e_f (its start key's ease_from) and e_t (its end
 * key's ease_to) eases; when it does, scales them down to a sum of 1 when
 * larger (track_segments.h). */
static inline int ease_scale(float *ef, float *et)
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
static inline void ease_constants(float ef, float et, float *rec, float *block)
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

/* Record k of rotation track t at s (track_segments.h): key k's
 * orientation and outgoing control a_out, key k + 1's orientation and
 * incoming control in, the slerp constants (unless accumulation wrote them:
 * lc->seg), the frames and the ease constants. */
static KF3DS__ALWAYS_INLINE void rotation_record(const kf3ds_track *t, kf3ds_track_kind kind,
                                                 int eased, uint32_t k, float *s,
                                                 const float a_out[4], const float in[4],
                                                 ln_cache *lc)
{
    const kf3ds_key *a = &t->keys[k], *b = &t->keys[k + 1];
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
        if (!lc->seg) /* (else accumulation wrote them) */
            slerp_constants(s + 4, s + 8, turn_get(lc, t, k + 1), s + 20);
        s[23] = s[24] = 0.0f; /* (the slerp constants fill 20..22 and 25..27) */
        memset(s + 28, 0, 4 * sizeof(float)); /* the ease block */
    }
    memcpy(s + 0, &a->frame, sizeof(int32_t));
    memcpy(s + 1, &b->frame, sizeof(int32_t));
    if (eased)
        ease_constants(a->ease_from, b->ease_to, s, s + kf3ds__seg_ease_at(kind));
    else
        s[2] = s[3] = 0.0f;
}

/* The two versions of kf3ds__rotation_setup (track_setup.h). records: the
 * records of rotation track t (n >= 2 keys) at seg, Q_k accumulated on the
 * way from key `done` (a closed curve has them all already); returns the
 * keys whose Q_k are in place. chain: Q_k of keys done..upto-1; returns the
 * keys done. */
uint32_t kf3ds__rotation_records_plain(kf3ds_track *t, kf3ds_track_kind kind, int eased,
                                       uint32_t done, float *seg, size_t stride);
uint32_t kf3ds__rotation_chain_plain(kf3ds_track *t, uint32_t done, uint32_t upto);
#if defined(KF3DS__GNUC_VECTORS) && defined(KF3DS__SSE2)
#define KF3DS__ROTATION_LANES 1
uint32_t kf3ds__rotation_records_lanes(kf3ds_track *t, kf3ds_track_kind kind, int eased,
                                       uint32_t done, float *seg, size_t stride);
uint32_t kf3ds__rotation_chain_lanes(kf3ds_track *t, uint32_t done, uint32_t upto);
#endif

#endif
