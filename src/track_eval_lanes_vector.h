/* The GCC/clang vector version of track_eval_lanes_plain.h: the same
 * functions and results, the same operations per lane (make plain-check
 * compares them). */
#ifndef KF3DS_TRACK_EVAL_LANES_VECTOR_H
#define KF3DS_TRACK_EVAL_LANES_VECTOR_H
#include <string.h>
#include "simd.h"

/* dst[c][r] = src[r][c] for a 4x4 block of floats: four loads, eight
 * shuffles and four stores for sixteen floats. */
static KF3DS__ALWAYS_INLINE void kf3ds__transpose4(const float *const src[4],
                                                   float *const dst[4])
{
    kf3ds__sv4 r0, r1, r2, r3, t0, t1, t2, t3, c;
    memcpy(&r0, src[0], sizeof r0);
    memcpy(&r1, src[1], sizeof r1);
    memcpy(&r2, src[2], sizeof r2);
    memcpy(&r3, src[3], sizeof r3);
    t0 = KF3DS__SHUFFLE2(r0, r1, 0, 4, 1, 5); /* a0 b0 a1 b1 */
    t1 = KF3DS__SHUFFLE2(r2, r3, 0, 4, 1, 5); /* c0 d0 c1 d1 */
    t2 = KF3DS__SHUFFLE2(r0, r1, 2, 6, 3, 7); /* a2 b2 a3 b3 */
    t3 = KF3DS__SHUFFLE2(r2, r3, 2, 6, 3, 7); /* c2 d2 c3 d3 */
    c = KF3DS__SHUFFLE2(t0, t1, 0, 1, 4, 5);
    memcpy(dst[0], &c, sizeof c);
    c = KF3DS__SHUFFLE2(t0, t1, 2, 3, 6, 7);
    memcpy(dst[1], &c, sizeof c);
    c = KF3DS__SHUFFLE2(t2, t3, 0, 1, 4, 5);
    memcpy(dst[2], &c, sizeof c);
    c = KF3DS__SHUFFLE2(t2, t3, 2, 3, 6, 7);
    memcpy(dst[3], &c, sizeof c);
}

static inline unsigned kf3ds__squad_gather4(const float *const *seg, unsigned n,
                                            float key[16][KF3DS__SQUAD_LANES],
                                            float con[8][KF3DS__SQUAD_LANES])
{
    unsigned i = 0, k, c;
    for (; i + 4 <= n; i += 4)
        for (k = 0; k < 6; k++) {
            /* record floats 4 + 4k .. 7 + 4k of the four lanes */
            float(*rows)[KF3DS__SQUAD_LANES] = k < 4 ? key + 4 * k : con + 4 * (k - 4);
            const float *src[4];
            float *dst[4];
            for (c = 0; c < 4; c++) {
                src[c] = seg[i + c] + 4 + 4 * k;
                dst[c] = &rows[c][i];
            }
            kf3ds__transpose4(src, dst);
        }
    return i;
}

static inline unsigned kf3ds__squad_scatter4(const float r[4][KF3DS__SQUAD_LANES],
                                             const float *l, unsigned n, float *const *out)
{
    unsigned i = 0, k;
    for (; i + 4 <= n && 1.0f + l[i] > 1e-8f && 1.0f + l[i + 1] > 1e-8f &&
           1.0f + l[i + 2] > 1e-8f && 1.0f + l[i + 3] > 1e-8f;
         i += 4) {
        const float *src[4];
        for (k = 0; k < 4; k++)
            src[k] = &r[k][i];
        kf3ds__transpose4(src, out + i);
    }
    return i;
}

/* Each coefficient as the last three lanes of a vector loaded one float
 * early (lane 0, the float before it in the record, is computed and
 * dropped). */
static inline void kf3ds__cubic3(const float *rec, float u, float out[3])
{
    kf3ds__sv4 c0, c1, c2, c3, uu = { u, u, u, u }, r;
    memcpy(&c0, rec + 3, sizeof c0);
    memcpy(&c1, rec + 6, sizeof c1);
    memcpy(&c2, rec + 9, sizeof c2);
    memcpy(&c3, rec + 12, sizeof c3);
    r = ((c3 * uu + c2) * uu + c1) * uu + c0;
    out[0] = r[1];
    out[1] = r[2];
    out[2] = r[3];
}

#endif
