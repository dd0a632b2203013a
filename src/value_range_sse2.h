/* kf3ds__in_range4 with SSE2: one compare of the four magnitudes, the
 * answer of value_range_plain.h's (a NaN fails either test). */
#ifndef KF3DS_VALUE_RANGE_SSE2_H
#define KF3DS_VALUE_RANGE_SSE2_H
#include "simd.h"

static inline int kf3ds__in_range4(const float v[4], float limit)
{
    __m128 a = _mm_andnot_ps(_mm_set1_ps(-0.0f), _mm_loadu_ps(v));
    return _mm_movemask_ps(_mm_cmple_ps(a, _mm_set1_ps(limit))) == 15;
}

#endif
