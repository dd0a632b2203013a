/* The rasterizer's internal interface (raster.c), used by render.c. */
#ifndef KF3DS_RASTER_H
#define KF3DS_RASTER_H
#include "../internal.h"
#include "kf3ds_render.h"

/* Outcodes. */
#define OC_NEAR 1u
#define OC_LEFT 2u
#define OC_RIGHT 4u
#define OC_TOP 8u
#define OC_BOTTOM 16u
#define OC_CLIP 31u
#define OC_FAR 32u
#define OC_BAD 64u

typedef struct kf3ds__projection {
    float m[3][4];           /* world → view */
    float fx, fy, cx, cy;
    float near_d, far_d;     /* far_d is +inf when the view has none */
    float xlo, xhi, ylo, yhi; /* the guard band, in pixels */
    int width, height;
} kf3ds__projection;

typedef struct kf3ds__vertex {
    float x, y, d;           /* view space, d = −z */
    float w;                 /* 1/d (code & OC_CLIP == 0 only) */
    int32_t X, Y;            /* fixed-point pixel position (idem) */
    uint32_t code;
} kf3ds__vertex;

int kf3ds__projection_setup(kf3ds__projection *p, const kf3ds_view *view, int width, int height);
void kf3ds__transform_points(const kf3ds__projection *p, const float *m12, const float *pts,
                             uint32_t n, kf3ds__vertex *out);
int kf3ds__triangle(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *v0,
               const kf3ds__vertex *v1, const kf3ds__vertex *v2, const uint32_t color[3], int cull);
void kf3ds__line(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *a,
                 const kf3ds__vertex *b, uint32_t color, int depth_test);
void kf3ds__line_world(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float a[3],
                       const float b[3], uint32_t color, int depth_test);

#endif
