/* kf3ds__fill_pick (raster.h): which triangle fill a projection uses, the
 * best the build and the CPU have (raster_fill.h). A unit of its own so that
 * raster.c, which stores the choice in each projection, need not call into
 * raster_triangle.c, which sets projections up through raster.c (no unit
 * loops, docs/architecture.md "Rules"). */
#include "raster_fill.h"
#include "../cpu_avx2.h"

kf3ds__fill_fn kf3ds__fill_pick(void)
{
#if defined(KF3DS__AVX2)
    if (kf3ds__cpu_avx2())
        return kf3ds__fill_avx2;
#endif
#if defined(KF3DS__SSE2)
    return kf3ds__fill_sse2;
#else
    return kf3ds__fill_plain;
#endif
}
