/* The plain C reference of multiply_rows (world_rows.h explains it); its
 * fast version is world_rows_vector.h, and world_rows.h chooses one per
 * build (docs/architecture.md, "Fast paths"). */
#ifndef KF3DS_WORLD_ROWS_PLAIN_H
#define KF3DS_WORLD_ROWS_PLAIN_H
#include <math.h>
#include "value_range.h"

static inline int multiply_rows(const float (*a)[4], const float l[3][4], int built,
                                float (*out)[4])
{
    int i, j, ok = 1;
    (void)built;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float w = !a ? l[i][j]
                         : a[i][0] * l[0][j] + a[i][1] * l[1][j] + a[i][2] * l[2][j] +
                               (j == 3 ? a[i][3] : 0.0f);
            ok &= fabsf(w) <= KF3DS__MAX_WORLD;
            out[i][j] = w;
        }
    return ok;
}

#endif
