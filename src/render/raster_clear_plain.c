/* kf3ds__clear_pixels_plain: the plain C reference (raster_clear.h). */
#include "raster_clear.h"

void kf3ds__clear_pixels_plain(uint32_t *colors, float *depth, size_t n, uint32_t color)
{
    size_t i;
    if (colors)
        for (i = 0; i < n; i++)
            colors[i] = color;
    if (depth)
        for (i = 0; i < n; i++)
            depth[i] = 0.0f;
}
