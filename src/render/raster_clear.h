/* Clearing n pixels: colour (may be NULL) to `color`, depth (may be NULL)
 * to 0. The plain C reference (raster_clear_plain.c) and the SSE2 version
 * (raster_clear_sse2.c), the same bytes; the build's is kf3ds__clear_pixels
 * (docs/architecture.md, "Fast paths"). */
#ifndef KF3DS_RASTER_CLEAR_H
#define KF3DS_RASTER_CLEAR_H
#include <stddef.h>
#include <stdint.h>
#include "../simd.h"

void kf3ds__clear_pixels_plain(uint32_t *colors, float *depth, size_t n, uint32_t color);
#if defined(KF3DS__SSE2)
void kf3ds__clear_pixels_sse2(uint32_t *colors, float *depth, size_t n, uint32_t color);
#define kf3ds__clear_pixels kf3ds__clear_pixels_sse2
#else
#define kf3ds__clear_pixels kf3ds__clear_pixels_plain
#endif

#endif
