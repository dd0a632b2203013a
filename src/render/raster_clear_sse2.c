/* kf3ds__clear_pixels_sse2 (raster_clear.h): the colour eight pixels per
 * turn, and the depth, all zero bytes, by memset, whose string stores on
 * x86 fill whole cache lines without reading them first; a large frame's
 * clear is a noticeable part of a cheap frame (docs/performance.md). */
#include "raster_clear.h"

#if defined(KF3DS__SSE2)
#include <string.h>

void kf3ds__clear_pixels_sse2(uint32_t *colors, float *depth, size_t n, uint32_t color)
{
    size_t i = 0;
    if (colors && depth) {
        const __m128i c = _mm_set1_epi32((int)color);
        for (; i + 8 <= n; i += 8) {
            _mm_storeu_si128((__m128i *)(void *)(colors + i), c);
            _mm_storeu_si128((__m128i *)(void *)(colors + i + 4), c);
        }
        memset(depth, 0, i * sizeof *depth);
    }
    kf3ds__clear_pixels_plain(colors ? colors + i : NULL, depth ? depth + i : NULL, n - i, color);
}
#endif
