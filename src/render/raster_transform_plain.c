/* kf3ds__transform_points_plain: the plain C reference of the vertex
 * transform (raster_transform.h), kf3ds__classify per point. */
#include "raster_transform.h"

void kf3ds__transform_points_plain(const kf3ds__projection *p, const float *m, const float *pts,
                                   uint32_t n, kf3ds__vertex *out)
{
    uint32_t i;
    const float m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3];
    const float m10 = m[4], m11 = m[5], m12 = m[6], m13 = m[7];
    const float m20 = m[8], m21 = m[9], m22 = m[10], m23 = m[11];
    for (i = 0; i < n; i++) {
        float a = pts[3 * i], b = pts[3 * i + 1], c = pts[3 * i + 2];
        kf3ds__classify(p, m00 * a + m01 * b + m02 * c + m03, m10 * a + m11 * b + m12 * c + m13,
                 m20 * a + m21 * b + m22 * c + m23, &out[i]);
    }
}
