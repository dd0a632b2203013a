/* The plain C reference of kf3ds__in_range4 (value_range.h chooses it or
 * value_range_sse2.h). */
#ifndef KF3DS_VALUE_RANGE_PLAIN_H
#define KF3DS_VALUE_RANGE_PLAIN_H

static inline int kf3ds__in_range4(const float v[4], float limit)
{
    return kf3ds__in_range(v, 4, limit);
}

#endif
