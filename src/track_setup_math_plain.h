/* The plain C reference of setup's per-key arithmetic (track_setup.c):
 * Kochanek–Bartels tangents and a vector record's cubic. Its fast version,
 * track_setup_math_vector.h, has the same functions with the same operations
 * per lane; track_setup_math.h chooses one per build (docs/architecture.md,
 * "Fast paths"). */
#ifndef KF3DS_TRACK_SETUP_MATH_PLAIN_H
#define KF3DS_TRACK_SETUP_MATH_PLAIN_H

/* tin = ksm·(c − p) + ksp·(n − c), tout = kdm·(c − p) + kdp·(n − c), four
 * lanes (a vector's fourth value is 0, a scalar's other three are 0). */
static inline void kf3ds__tangents4(const float p[4], const float c[4], const float n[4],
                                    float ksm, float ksp, float kdm, float kdp, float tin[4],
                                    float tout[4])
{
    int d;
    for (d = 0; d < 4; d++) {
        float dm = c[d] - p[d];
        float dp = n[d] - c[d];
        tin[d] = ksm * dm + ksp * dp;
        tout[d] = kdm * dm + kdp * dp;
    }
}

/* c0 = p0, c1 = m0, c2 = −3p0 + 3p1 − 2m0 − m1, c3 = 2p0 − 2p1 + m0 + m1 at
 * s[4..15], three components each. */
static inline void kf3ds__hermite_cubic3(float *s, const float p0v[4], const float p1v[4],
                                         const float m0v[4], const float m1v[4])
{
    int d;
    for (d = 0; d < 3; d++) {
        float p0 = p0v[d], p1 = p1v[d], m0 = m0v[d], m1 = m1v[d];
        s[4 + d] = p0;
        s[7 + d] = m0;
        s[10 + d] = -3.0f * p0 + 3.0f * p1 - 2.0f * m0 - m1;
        s[13 + d] = 2.0f * p0 - 2.0f * p1 + m0 + m1;
    }
}

#endif
