/* The vertex transform (kf3ds__transform_points, raster.h): the plain C
 * reference (raster_transform_plain.c) and its SSE2 version
 * (raster_transform_sse2.c), which gives every vertex the same bits; the
 * build's is kf3ds__transform_points_chosen (docs/architecture.md, "Fast
 * paths"). */
#ifndef KF3DS_RASTER_TRANSFORM_H
#define KF3DS_RASTER_TRANSFORM_H
#include "raster.h"
#include "../simd.h"

void kf3ds__transform_points_plain(const kf3ds__projection *p, const float *m, const float *pts,
                                   uint32_t n, kf3ds__vertex *out);
#if defined(KF3DS__SSE2)
void kf3ds__transform_points_sse2(const kf3ds__projection *p, const float *m, const float *pts,
                                  uint32_t n, kf3ds__vertex *out);
#define kf3ds__transform_points_chosen kf3ds__transform_points_sse2
#else
#define kf3ds__transform_points_chosen kf3ds__transform_points_plain
#endif

#endif
