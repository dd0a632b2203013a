/* The rasterizer's base: framebuffer clearing, the projection of a view
 * (raster.h describes it), transforming vertices, and projecting one point. */
#include "raster.h"
#include "../geometry.h"
#include <string.h>
#include <stddef.h>
#include "raster_clear.h"
#include "raster_transform.h"

/* The depth buffer holds 1/d, so nothing drawn is 0 (kf3ds_render.h). The
 * pixels are cleared by the build's kf3ds__clear_pixels (raster_clear.h). */
void kf3ds_framebuffer_clear(kf3ds_framebuffer *fb, uint32_t color)
{
    if (!fb || fb->width <= 0 || fb->height <= 0)
        return;
    kf3ds__clear_pixels(fb->color, fb->depth, (size_t)fb->width * (size_t)fb->height, color);
}

int kf3ds__projection_setup(kf3ds__projection *p, const kf3ds_view *view, int width, int height)
{
    float fov, t;
    int i, j;
    if (!p || !view || width <= 0 || height <= 0 || width > KF3DS__MAX_DIM ||
        height > KF3DS__MAX_DIM)
        return 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float v = view->view.m[i][j];
            if (!(fabsf(v) <= KF3DS__BIG_COORD))
                return 0;
            p->m[i][j] = v;
        }
    fov = view->fov_y_degrees;
    if (!(fov == fov))
        fov = 45.0f;
    if (fov < 0.01f)
        fov = 0.01f;
    if (fov > 179.0f)
        fov = 179.0f;
    t = tanf(fov * 0.5f * (float)KF3DS__DEG2RAD);
    p->fill = kf3ds__fill_pick();
    p->fy = (float)height * 0.5f / t;
    p->fx = p->fy;
    p->cx = (float)width * 0.5f;
    p->cy = (float)height * 0.5f;
    p->near_d = view->near_plane;
    if (!(p->near_d > 0.0f))
        p->near_d = 1e-3f; /* NaN, zero or negative */
    if (p->near_d < 1e-6f)
        p->near_d = 1e-6f;
    if (p->near_d > 1e15f)
        p->near_d = 1e15f;
    p->far_d = view->far_plane;
    if (!(p->far_d > p->near_d))
        p->far_d = INFINITY;
    p->xlo = -KF3DS__GUARD_BAND;
    p->ylo = -KF3DS__GUARD_BAND;
    p->xhi = (float)width + KF3DS__GUARD_BAND;
    p->yhi = (float)height + KF3DS__GUARD_BAND;
    p->width = width;
    p->height = height;
    return 1;
}


void kf3ds__transform_points(const kf3ds__projection *p, const float *m, const float *pts,
                             uint32_t n, kf3ds__vertex *out)
{
    kf3ds__transform_points_chosen(p, m, pts, n, out);
}

int kf3ds_view_project(const kf3ds_view *view, int width, int height, const float world[3],
                       float *x, float *y, float *depth)
{
    kf3ds__projection p;
    float v[3], d;
    if (!world || !kf3ds__projection_setup(&p, view, width, height))
        return 0;
    kf3ds__to_view(&p, world, v);
    d = -v[2];
    if (!(d >= p.near_d) || !(fabsf(v[0]) <= KF3DS__BIG_COORD &&
                              fabsf(v[1]) <= KF3DS__BIG_COORD && d <= KF3DS__BIG_COORD))
        return 0;
    if (x)
        *x = p.cx + p.fx * v[0] / d;
    if (y)
        *y = p.cy - p.fy * v[1] / d;
    if (depth)
        *depth = d;
    return 1;
}
