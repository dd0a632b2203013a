/* The GCC/clang vector version of world_rows_plain.h's multiply_rows: the
 * same operations in the same order, so the same bits (make plain-check
 * compares them); world_rows.h chooses it. */
#ifndef KF3DS_WORLD_ROWS_VECTOR_H
#define KF3DS_WORLD_ROWS_VECTOR_H
#include <string.h>
#include "simd.h"
#include "value_range.h"

typedef unsigned long long kf3ds__u2 __attribute__((vector_size(16)));
/* lane k of v in all four lanes */
#define KF3DS__SPLAT(v, k) KF3DS__SHUFFLE2((v), (v), (k), (k), (k), (k))

static KF3DS__ALWAYS_INLINE int multiply_rows(const float (*a)[4], const float l[3][4],
                                              int built, float (*out)[4])
{
    kf3ds__sv4 l0, l1, l2;
    /* |w| <= KF3DS__MAX_WORLD compares as integers: the bit patterns of
     * non-negative floats are in the order of their values, and a NaN's is
     * above infinity's, so "out of range" is one compare per row. */
    kf3ds__sv4 limf = { KF3DS__MAX_WORLD, KF3DS__MAX_WORLD, KF3DS__MAX_WORLD, KF3DS__MAX_WORLD };
    kf3ds__si4 lim, out_of_range = { 0, 0, 0, 0 };
    kf3ds__si4 magnitude = { 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF };
    kf3ds__u2 both;
    int i;
    memcpy(&lim, &limf, sizeof lim);
    if (built) {
        kf3ds__sv4 b0 = { l[0][0], l[0][1], l[0][2], l[0][3] };
        kf3ds__sv4 b1 = { l[1][0], l[1][1], l[1][2], l[1][3] };
        kf3ds__sv4 b2 = { l[2][0], l[2][1], l[2][2], l[2][3] };
        l0 = b0;
        l1 = b1;
        l2 = b2;
    } else {
        memcpy(&l0, l[0], sizeof l0);
        memcpy(&l1, l[1], sizeof l1);
        memcpy(&l2, l[2], sizeof l2);
    }
    for (i = 0; i < 3; i++) {
        kf3ds__sv4 w = i == 0 ? l0 : i == 1 ? l1 : l2;
        if (a) {
            /* The parent's row loaded once, its lanes broadcast by shuffles
             * (scalars are broadcast explicitly: where float arithmetic has
             * excess precision, 68k and x87, a scalar operand would be a
             * long double) and e = (0, 0, 0, a_i3) by a mask. */
            kf3ds__sv4 ar, e;
            kf3ds__si4 bits, last = { 0, 0, 0, -1 };
            memcpy(&ar, a[i], sizeof ar);
            memcpy(&bits, &ar, sizeof bits);
            bits &= last;
            memcpy(&e, &bits, sizeof e);
            w = KF3DS__SPLAT(ar, 0) * l0 + KF3DS__SPLAT(ar, 1) * l1 +
                KF3DS__SPLAT(ar, 2) * l2 + e;
        }
        {
            kf3ds__si4 bits;
            memcpy(&bits, &w, sizeof bits);
            out_of_range |= (bits & magnitude) > lim;
        }
        memcpy(out[i], &w, sizeof w);
    }
    memcpy(&both, &out_of_range, sizeof both);
    return (both[0] | both[1]) == 0;
}

#endif
