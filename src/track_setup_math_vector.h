/* The GCC/clang vector version of track_setup_math_plain.h: the same
 * functions, each component's operations in the reference's order, so the
 * same bits (make plain-check compares them). */
#ifndef KF3DS_TRACK_SETUP_MATH_VECTOR_H
#define KF3DS_TRACK_SETUP_MATH_VECTOR_H
#include <string.h>
#include "simd.h"

static inline void kf3ds__tangents4(const float p[4], const float c[4], const float n[4],
                                    float ksm, float ksp, float kdm, float kdp, float tin[4],
                                    float tout[4])
{
    kf3ds__sv4 vc, vp, vn, dm, dp, ti, to;
    kf3ds__sv4 sm = { ksm, ksm, ksm, ksm }, sp = { ksp, ksp, ksp, ksp };
    kf3ds__sv4 dmk = { kdm, kdm, kdm, kdm }, dpk = { kdp, kdp, kdp, kdp };
    memcpy(&vc, c, sizeof vc);
    memcpy(&vp, p, sizeof vp);
    memcpy(&vn, n, sizeof vn);
    dm = vc - vp;
    dp = vn - vc;
    ti = sm * dm + sp * dp;
    to = dmk * dm + dpk * dp;
    memcpy(tin, &ti, sizeof ti);
    memcpy(tout, &to, sizeof to);
}

/* Four-lane stores, each overlapping the next by one float, so it writes
 * s[4..16]: s[16], the float after a plain record, is written over (by the
 * next record, or into the slack after the last); track_setup.c writes a
 * record's own fields after it later. */
static inline void kf3ds__hermite_cubic3(float *s, const float p0v[4], const float p1v[4],
                                         const float m0v[4], const float m1v[4])
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
}

#endif
