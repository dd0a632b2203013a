/* Numbers that cannot explode (docs/robustness.md). Every float read from a
 * file is finite and at most KF3DS__MAX_VALUE in magnitude after loading
 * (NaN and infinities replaced, huge values clamped, with a KF3DS_WARN_VALUE
 * naming the chunk); spline parameters (tension, continuity, bias, ease) at
 * most KF3DS__MAX_SPLINE. Evaluation clamps world and mesh matrices to
 * KF3DS__MAX_WORLD, so that matrices, and vertices placed with them, stay
 * finite at every finite frame. */
#ifndef KF3DS_VALUE_RANGE_H
#define KF3DS_VALUE_RANGE_H
#include <math.h>
#include <stddef.h>
#include "simd.h" /* KF3DS__SSE2: which kf3ds__in_range4 */

#define KF3DS__MAX_VALUE 1e18f
#define KF3DS__MAX_SPLINE 1e3f
#define KF3DS__MAX_WORLD 1e18f

/* 1 when every v[i] is finite and within ±limit (the fast path of the checks). */
static inline int kf3ds__in_range(const float *v, size_t n, float limit)
{
    size_t i;
    int ok = 1;
    for (i = 0; i < n; i++)
        ok &= fabsf(v[i]) <= limit;
    return ok;
}

/* kf3ds__in_range of four floats: with SSE2 one compare of the four
 * (value_range_sse2.h), else the plain C reference (value_range_plain.h);
 * the same answer (docs/architecture.md, "Fast paths"). */
#if defined(KF3DS__GNUC_VECTORS) && defined(KF3DS__SSE2)
#include "value_range_sse2.h"
#else
#include "value_range_plain.h"
#endif

#endif
