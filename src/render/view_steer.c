/* The orbit view as the interactive front ends steer it (`kf3ds view`, the
 * page; docs/viewer.md): following the objects (t) and moving the default
 * view towards its centre and sideways (the wheel and the right drag). */
#include "kf3ds_render.h"
#include <math.h>
#include <string.h>

void kf3ds_auto_view_follow(const kf3ds_scene *scene, double frame, unsigned eval_flags,
                            kf3ds_pose *poses, kf3ds_auto_view *auto_view)
{
    float lo[3], hi[3];
    int k;
    if (!scene || !poses || !auto_view)
        return;
    kf3ds_scene_eval(scene, frame, eval_flags, poses);
    if (!kf3ds_scene_bounds(scene, poses, lo, hi)) {
        /* Nothing shown at that frame: the size of all they sweep. */
        memcpy(lo, auto_view->min, sizeof lo);
        memcpy(hi, auto_view->max, sizeof hi);
    }
    for (k = 0; k < 3; k++)
        auto_view->half[k] = 0.5f * (hi[k] - lo[k]);
    auto_view->kind = KF3DS_AUTO_VIEW_FOLLOW;
}

void kf3ds_auto_view_moved(const kf3ds_scene *scene, const kf3ds_auto_view *auto_view,
                           const kf3ds_pose *poses, float azimuth_degrees,
                           float elevation_degrees, float fov_y_degrees, float aspect, float zoom,
                           float pan_x, float pan_y, kf3ds_view *out)
{
    float mn[3] = { -1, -1, -1 }, mx[3] = { 1, 1, 1 }, c[3], cc[3], t[3], r = 0, d, dz;
    int k;
    if (!out)
        return;
    kf3ds_auto_view_at(scene, auto_view, poses, azimuth_degrees, elevation_degrees,
                       fov_y_degrees, aspect, out);
    if (!(zoom >= 0.01f && zoom <= 100.0f))
        zoom = zoom > 100.0f ? 100.0f : zoom >= 0.0f ? 0.01f : 1.0f;
    if (!isfinite(pan_x))
        pan_x = 0.0f;
    if (!isfinite(pan_y))
        pan_y = 0.0f;
    if ((zoom == 1.0f && pan_x == 0.0f && pan_y == 0.0f) || !auto_view ||
        auto_view->kind == KF3DS_AUTO_VIEW_CAMERA)
        return;
    /* The box kf3ds_auto_view_at framed (following: around the objects now). */
    memcpy(mn, auto_view->min, sizeof mn);
    memcpy(mx, auto_view->max, sizeof mx);
    if (auto_view->kind == KF3DS_AUTO_VIEW_FOLLOW && scene && poses &&
        kf3ds_scene_bounds(scene, poses, mn, mx))
        for (k = 0; k < 3; k++) {
            float m = 0.5f * (mn[k] + mx[k]);
            mn[k] = m - auto_view->half[k];
            mx[k] = m + auto_view->half[k];
        }
    for (k = 0; k < 3; k++) {
        float h = 0.5f * (mx[k] - mn[k]);
        c[k] = 0.5f * (mn[k] + mx[k]);
        r += h * h;
    }
    r = sqrtf(r);
    kf3ds_mat4_transform_point(&out->view, c, cc);
    d = -cc[2]; /* how far the box centre stands in front of the eye */
    if (!(d > 0) || !isfinite(d))
        return;
    dz = d * zoom;
    t[0] = pan_x * d;
    t[1] = pan_y * d;
    t[2] = d - dz;
    for (k = 0; k < 3; k++) /* T(t)·view: only the translation column changes */
        out->view.m[k][3] += t[k];
    if (zoom != 1.0f) {
        float nearp = dz - 2 * r, farp = dz + 4 * r;
        if (nearp < dz * 0.005f)
            nearp = dz * 0.005f;
        out->near_plane = nearp;
        if (farp > out->far_plane)
            out->far_plane = farp;
    }
}
