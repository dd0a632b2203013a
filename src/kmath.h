/* Math (kmath.c): quaternions (x, y, z, w), affine matrix helpers, the
 * camera look-at, and the inline polynomials and slerp every rotation path
 * uses. The quaternion helpers follow lib3ds 1.3's definitions
 * (docs/evaluation.md, "Rotation tracks"). */
#ifndef KF3DS_KMATH_H
#define KF3DS_KMATH_H
#include "kf3ds.h"
#include "geometry.h"
#include <math.h>

#include "simd.h" /* KF3DS__ALWAYS_INLINE, kf3ds__sv4 */

void kf3ds__quat_identity(float q[4]);
void kf3ds__quat_axis_angle(float q[4], const float axis[3], float angle);
float kf3ds__mat4_det3(const kf3ds_mat4 *m);
/* out = a·b for affine matrices (bottom rows 0 0 0 1); out may alias. */
void kf3ds__mat4_mul_affine(const kf3ds_mat4 *a, const kf3ds_mat4 *b, kf3ds_mat4 *out);

/* The view of a 3DS camera at pos looking at tgt with roll (degrees), as
 * lib3ds sets it up: world → camera, x right, y up, looking down −z.
 * rows gets the three camera axes (right, up, −forward) in world space.
 * Returns 0 when pos and tgt coincide (the matrix is then not a rotation). */
int kf3ds__look_at(const double pos[3], const double tgt[3], double roll_degrees,
                   kf3ds_mat4 *view, double rows[3][3]);

/* a ⊗ b, in double, rounded once to float: the products of floats are exact
 * in double, so the result does not depend on FLT_EVAL_METHOD (68881 and
 * x87 evaluate float expressions in extended precision, SSE and PowerPC in
 * float). Inline: evaluation's multi-turn segments take one per call. */
static inline void kf3ds__quat_mul(const float a[4], const float b[4], float out[4])
{
    double a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    double b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    float x = (float)(a3 * b0 + a0 * b3 + a1 * b2 - a2 * b1);
    float y = (float)(a3 * b1 + a1 * b3 + a2 * b0 - a0 * b2);
    float z = (float)(a3 * b2 + a2 * b3 + a0 * b1 - a1 * b0);
    float w = (float)(a3 * b3 - a0 * b0 - a1 * b1 - a2 * b2);
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

static inline float kf3ds__quat_dot(const float a[4], const float b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* sin and cos of x for |x| <= π (a little beyond is fine): Taylor
 * polynomials on [0, π/2] after folding, within 2.1e-7 of the true values
 * (tests/core/test_track.c). Branch-free and inline,
 * so that the squad batch (track_eval.h) vectorises; the rotation code uses
 * these everywhere so that batched and one-shot evaluations agree bit for bit. */
static inline void kf3ds__sincos_pi(float x, float *s, float *c)
{
    float ax = x < 0.0f ? -x : x;
    float far = ax > 1.57079632679f ? 1.0f : 0.0f;
    float r = far != 0.0f ? 3.14159265359f - ax : ax;
    float r2 = r * r;
    float sp = r * (1.0f + r2 * (-1.66666667e-1f + r2 * (8.33333333e-3f + r2 * (-1.98412698e-4f +
                                  r2 * (2.75573192e-6f + r2 * -2.50521084e-8f)))));
    float cp = 1.0f + r2 * (-0.5f + r2 * (4.16666667e-2f + r2 * (-1.38888889e-3f +
                           r2 * (2.48015873e-5f + r2 * (-2.75573192e-7f + r2 * 2.08767570e-9f)))));
    *s = x < 0.0f ? -sp : sp;
    *c = far != 0.0f ? -cp : cp;
}

/* acos(x) for x in [-1, 1]: sqrt(1 - |x|)·P(|x|), P of degree 7 (Abramowitz
 * and Stegun 4.4.46, error 2e-8 in exact arithmetic), reflected for negative
 * x; within 4.4e-7 in float, two ulps of π. */
static inline float kf3ds__acos(float x)
{
    float ax = x < 0.0f ? -x : x;
    float p = 1.5707963050f + ax * (-0.2145988016f + ax * (0.0889789874f + ax * (-0.0501743046f +
              ax * (0.0308918810f + ax * (-0.0170881256f + ax * (0.0066700901f +
              ax * -0.0012624911f))))));
    float r = sqrtf(1.0f - ax) * p;
    return x < 0.0f ? 3.14159265359f - r : r;
}

/* The weights (sp, sq) of lib3ds 1.3's slerp, sp·a + sq·b, for inputs with
 * dot product l, -1 < l: sq = sin(tω)/sin ω, sp = cos(tω) − cos ω·sq, and
 * linear weights when sin ω is tiny. */
static inline void kf3ds__slerp_weights(float l, float t, float *sp, float *sq)
{
    float lc = l > 1.0f ? 1.0f : l < -1.0f ? -1.0f : l;
    float om = kf3ds__acos(lc), s, c;
    float sinom = sqrtf((1.0f - lc) * (1.0f + lc));
    int tiny = !(sinom > 1e-6f);
    kf3ds__sincos_pi(t * om, &s, &c);
    *sq = tiny ? t : s / (tiny ? 1.0f : sinom);
    *sp = tiny ? 1.0f - t : c - lc * *sq;
}

/* lib3ds 1.3's slerp: no short-arc flip; nearly opposite inputs
 * (1 + a·b <= 1e-8) turn through a perpendicular quaternion. */
static inline void kf3ds__quat_slerp(const float a[4], const float b[4], float t, float out[4])
{
    float l = kf3ds__quat_dot(a, b), sp, sq;
    int i;
    if (1.0f + l > 1e-8f) {
        kf3ds__slerp_weights(l, t, &sp, &sq);
        for (i = 0; i < 4; i++)
            out[i] = sp * a[i] + sq * b[i];
    } else {
        float flip[4];
        flip[0] = -a[1];
        flip[1] = a[0];
        flip[2] = -a[3];
        flip[3] = a[2];
        sp = sinf((1.0f - t) * 1.5707963f);
        sq = sinf(t * 1.5707963f);
        for (i = 0; i < 4; i++)
            out[i] = sp * a[i] + sq * flip[i];
    }
}

/* Beyond this, sin and cos come from libm: the reduction below keeps its
 * accuracy while m·π/2 is exact in the two-part constant (|m| < 2^20). */
#define KF3DS__SINCOS_D_MAX 1e5

/* The Taylor coefficients of sin r = r·(1 + S1·r² + … + S8·r¹⁶) and
 * cos r = 1 + C1·r² + … + C9·r¹⁸ (±1/k!), and π/2 as a 33-bit head (m·head
 * is exact) and its tail: read by kf3ds__sincos_d, by loading's mul_exp and
 * by its two-lane copies (track_setup.c), which must give the same bits. */
#define KF3DS__SIN_S1 (-1.0 / 6)
#define KF3DS__SIN_S2 (1.0 / 120)
#define KF3DS__SIN_S3 (-1.0 / 5040)
#define KF3DS__SIN_S4 (1.0 / 362880)
#define KF3DS__SIN_S5 (-1.0 / 39916800)
#define KF3DS__SIN_S6 (1.0 / 6227020800.0)
#define KF3DS__SIN_S7 (-1.0 / 1307674368000.0)
#define KF3DS__SIN_S8 (1.0 / 355687428096000.0)
#define KF3DS__COS_C1 (-0.5)
#define KF3DS__COS_C2 (1.0 / 24)
#define KF3DS__COS_C3 (-1.0 / 720)
#define KF3DS__COS_C4 (1.0 / 40320)
#define KF3DS__COS_C5 (-1.0 / 3628800)
#define KF3DS__COS_C6 (1.0 / 479001600.0)
#define KF3DS__COS_C7 (-1.0 / 87178291200.0)
#define KF3DS__COS_C8 (1.0 / 20922789888000.0)
#define KF3DS__COS_C9 (-1.0 / 6402373705728000.0)
#define KF3DS__HALF_PI_HEAD 1.57079632673412561417
#define KF3DS__HALF_PI_TAIL 6.07710050650619224932e-11

/* sin x and cos x in double, to within a few ulps (tests/core/test_track_setup.c), for
 * loading, which rounds what it derives to float: one polynomial pair
 * instead of libm's sincos. Returns x less whole turns, in [-π, π]. */
static inline double kf3ds__sincos_d(double x, double *s, double *c)
{
    const double head = KF3DS__HALF_PI_HEAD, tail = KF3DS__HALF_PI_TAIL;
    double r, r2, sr, cr, red;
    long m;
    if (!(fabs(x) <= KF3DS__SINCOS_D_MAX)) {
        *s = sin(x);
        *c = cos(x);
        return atan2(*s, *c);
    }
    m = (long)(x * (2.0 / KF3DS__PI) + (x >= 0.0 ? 0.5 : -0.5));
    r = (x - (double)m * head) - (double)m * tail; /* |r| <= π/4 (and a little) */
    r2 = r * r;
    /* Taylor series to r^17 and r^18: the first term left out is below 2e-19
     * on |r| <= π/4 */
    sr = r + r * r2 * (KF3DS__SIN_S1 + r2 * (KF3DS__SIN_S2 + r2 * (KF3DS__SIN_S3 +
         r2 * (KF3DS__SIN_S4 + r2 * (KF3DS__SIN_S5 + r2 * (KF3DS__SIN_S6 +
         r2 * (KF3DS__SIN_S7 + r2 * KF3DS__SIN_S8)))))));
    cr = 1.0 + r2 * (KF3DS__COS_C1 + r2 * (KF3DS__COS_C2 + r2 * (KF3DS__COS_C3 +
         r2 * (KF3DS__COS_C4 + r2 * (KF3DS__COS_C5 + r2 * (KF3DS__COS_C6 +
         r2 * (KF3DS__COS_C7 + r2 * (KF3DS__COS_C8 + r2 * KF3DS__COS_C9))))))));
    switch (((unsigned long)m) & 3u) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
    }
    /* x less whole turns: (m mod 4, as -1..2)·π/2 + r, within [-π, π] */
    m &= 3;
    red = (double)(m == 3 ? -1 : m) * (0.5 * KF3DS__PI) + r;
    if (red > KF3DS__PI)
        red -= 2.0 * KF3DS__PI;
    return red;
}

/* atan2(y, x) for (x, y) at an angle near φ (sin φ and cos φ given): a
 * correction of φ, or libm's atan2 when φ is not near. */
static inline double kf3ds__atan2_near(double y, double x, double phi, double sin_phi,
                                       double cos_phi)
{
    /* atan2(y, x) − φ is the angle of (x, y) turned back by φ, atan(d) with
     * d = num/den; for |d| < 1e-4 (loading's case: d is rounding) its series
     * d − d³/3 + d⁵/5 … stops after the cube (the next term is below 2e-21) */
    double num = y * cos_phi - x * sin_phi, den = x * cos_phi + y * sin_phi, d;
    if (!(den > 0.0) || !(fabs(num) < 1e-4 * den))
        return atan2(y, x);
    d = num / den;
    return phi + (d - d * d * d * (1.0 / 3.0));
}

#endif
