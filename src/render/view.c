/* Views and framing: an orbit view around a box (kf3ds_view_orbit) and the
 * views through a camera node or an editor camera, with near and far planes
 * that hold the scene.
 *
 * The scene's box (kf3ds_scene_bounds) holds the placed vertices of the shown
 * objects and the positions of the object nodes (dummies too); cameras, lights
 * and targets count only when there is nothing else, because they often stand
 * far off and framing them would shrink the objects to a dot. */
#include "../geometry.h"
#include "../kmath.h"
#include "kf3ds_render.h"
#include <string.h>

void kf3ds_view_orbit(const float min[3], const float max[3], float azimuth_degrees,
                      float elevation_degrees, float fov_y_degrees, float aspect,
                      kf3ds_view *out)
{
    double c[3], half[3], radius, fov, half_angle, hx, dist, az, el, fwd[3], right[3], up[3],
        eye[3];
    int k, ok = min && max;
    if (!out)
        return;
    for (k = 0; k < 3 && ok; k++)
        if (!(fabsf(min[k]) <= 1e30f && fabsf(max[k]) <= 1e30f && min[k] <= max[k]))
            ok = 0;
    for (k = 0; k < 3; k++) {
        c[k] = ok ? 0.5 * ((double)min[k] + max[k]) : 0.0;
        half[k] = ok ? 0.5 * ((double)max[k] - min[k]) : 1.0;
    }
    radius = sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
    if (!(radius > 1e-12))
        radius = 1.0;
    fov = fov_y_degrees;
    if (!(fov >= 1.0 && fov <= 170.0))
        fov = fov > 170.0 ? 170.0 : 45.0;
    if (!(aspect > 1e-3f && aspect < 1e3f))
        aspect = 1.0f;
    half_angle = fov * 0.5 * KF3DS__DEG2RAD;
    hx = atan(tan(half_angle) * aspect);
    if (hx < half_angle)
        half_angle = hx;
    dist = radius / sin(half_angle);
    az = azimuth_degrees == azimuth_degrees ? azimuth_degrees * KF3DS__DEG2RAD : 0.0;
    el = elevation_degrees == elevation_degrees ? elevation_degrees * KF3DS__DEG2RAD : 0.0;
    if (el > 89.9 * KF3DS__DEG2RAD)
        el = 89.9 * KF3DS__DEG2RAD;
    if (el < -89.9 * KF3DS__DEG2RAD)
        el = -89.9 * KF3DS__DEG2RAD;
    /* Azimuth 0 looks along +y, 90 along +x; elevation looks down from above. */
    fwd[0] = sin(az) * cos(el);
    fwd[1] = cos(az) * cos(el);
    fwd[2] = -sin(el);
    right[0] = fwd[1];
    right[1] = -fwd[0];
    right[2] = 0.0;
    {
        double l = sqrt(right[0] * right[0] + right[1] * right[1]);
        right[0] /= l;
        right[1] /= l;
    }
    up[0] = right[1] * fwd[2] - right[2] * fwd[1];
    up[1] = right[2] * fwd[0] - right[0] * fwd[2];
    up[2] = right[0] * fwd[1] - right[1] * fwd[0];
    for (k = 0; k < 3; k++)
        eye[k] = c[k] - fwd[k] * dist;
    kf3ds_mat4_identity(&out->view);
    for (k = 0; k < 3; k++) {
        out->view.m[0][k] = (float)right[k];
        out->view.m[1][k] = (float)up[k];
        out->view.m[2][k] = (float)-fwd[k];
    }
    out->view.m[0][3] = (float)-(right[0] * eye[0] + right[1] * eye[1] + right[2] * eye[2]);
    out->view.m[1][3] = (float)-(up[0] * eye[0] + up[1] * eye[1] + up[2] * eye[2]);
    out->view.m[2][3] = (float)(fwd[0] * eye[0] + fwd[1] * eye[1] + fwd[2] * eye[2]);
    out->fov_y_degrees = (float)fov;
    out->near_plane = (float)(dist - radius * 1.5 > dist * 0.01 ? dist - radius * 1.5 : dist * 0.01);
    out->far_plane = (float)(dist + radius * 3.0);
}

/* A camera view's FOV and planes, its matrix already set: the planes from
 * the camera's ranges (cam may be NULL) widened to the scene bounds. */
static void finish_camera_view(const kf3ds_scene *scene, const kf3ds_pose *poses,
                               const kf3ds_camera *cam, float fov, kf3ds_view *out)
{
    float mn[3], mx[3], nearp = 0.0f, farp = 0.0f;
    /* The 3DS FOV is taken as the vertical angle, as lib3ds's viewer passes it
     * to gluPerspective; which axis 3D Studio meant is not documented
     * (docs/evaluation.md, 'Cameras'). */
    if (!(fov >= 0.1f && fov <= 179.0f))
        fov = fov > 179.0f ? 179.0f : 45.0f;
    out->fov_y_degrees = fov;
    if (cam) {
        if (cam->near_range > 0.0f && cam->near_range < 1e30f)
            nearp = cam->near_range;
        if (cam->far_range > nearp && cam->far_range < 1e30f)
            farp = cam->far_range;
    }
    if (kf3ds_scene_bounds(scene, poses, mn, mx)) {
        /* From the box: the far plane reaches its farthest corner, the near
         * plane stays before its nearest one (and is small anyway: depth is
         * kept as 1/d, whose relative precision does not depend on near).
         * CAM_RANGES are 3DS's atmosphere ranges rather than clip planes, so
         * they are widened when they would cut the scene off. */
        float dmin = INFINITY, dmax = 0.0f, diag, bnear, bfar;
        int corner;
        diag = sqrtf((mx[0] - mn[0]) * (mx[0] - mn[0]) + (mx[1] - mn[1]) * (mx[1] - mn[1]) +
                     (mx[2] - mn[2]) * (mx[2] - mn[2]));
        if (!(diag > 0.0f && diag < 1e30f))
            diag = 1.0f;
        for (corner = 0; corner < 8; corner++) {
            float q[3], d;
            q[0] = corner & 1 ? mx[0] : mn[0];
            q[1] = corner & 2 ? mx[1] : mn[1];
            q[2] = corner & 4 ? mx[2] : mn[2];
            d = -(out->view.m[2][0] * q[0] + out->view.m[2][1] * q[1] +
                  out->view.m[2][2] * q[2] + out->view.m[2][3]);
            if (d > dmax)
                dmax = d;
            if (d < dmin)
                dmin = d;
        }
        bnear = diag * 1e-4f;
        if (dmin * 0.5f > bnear)
            bnear = dmin * 0.5f;
        bfar = (dmax > 0.0f ? dmax : diag) * 1.05f + diag * 0.01f;
        if (nearp <= 0.0f || nearp > bnear)
            nearp = bnear;
        if (farp < bfar)
            farp = bfar;
    }
    if (!(nearp > 0.0f))
        nearp = 0.01f;
    if (!(farp > nearp))
        farp = nearp * 1e6f;
    out->near_plane = nearp;
    out->far_plane = farp;
}

int kf3ds_view_from_camera(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                           kf3ds_view *out)
{
    float fov = 45.0f;
    int32_t cam;
    if (!scene || !poses || !out || node >= scene->num_nodes)
        return 0;
    if (!kf3ds_node_camera_view(scene, node, poses, &out->view, &fov, NULL))
        return 0;
    cam = scene->nodes[node].camera;
    finish_camera_view(scene, poses,
                       cam >= 0 && (uint32_t)cam < scene->num_cameras ? &scene->cameras[cam] : NULL,
                       fov, out);
    return 1;
}

int kf3ds_view_from_editor_camera(const kf3ds_scene *scene, uint32_t camera,
                                  const kf3ds_pose *poses, kf3ds_view *out)
{
    const kf3ds_camera *c;
    double pos[3], tgt[3], rows[3][3];
    int k;
    if (!scene || !out || camera >= scene->num_cameras)
        return 0;
    c = &scene->cameras[camera];
    for (k = 0; k < 3; k++) {
        pos[k] = c->position[k];
        tgt[k] = c->target[k];
    }
    kf3ds__look_at(pos, tgt, c->roll, &out->view, rows);
    finish_camera_view(scene, poses, c, c->fov, out);
    return 1;
}

/* ---- the default view of the front ends (docs/viewer.md, 'The default
 * view'): one rule for `kf3ds render`, its --sheet and `kf3ds view`. ---- */

#define AUTO_SAMPLES 64          /* frames sampled over the range framed */
#define AUTO_TRAVEL_RATIO 0.2    /* objects smaller than this part of the
                                  * range's box: they travel */

static void box_unite(float mn[3], float mx[3], int *have, const float a[3], const float b[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        if (!*have || a[k] < mn[k])
            mn[k] = a[k];
        if (!*have || b[k] > mx[k])
            mx[k] = b[k];
    }
    *have = 1;
}

static double box_diag2(const float mn[3], const float mx[3])
{
    double s = 0.0;
    int k;
    for (k = 0; k < 3; k++)
        s += ((double)mx[k] - mn[k]) * ((double)mx[k] - mn[k]);
    return s;
}

/* How far from the eye the file's fog or distance cue reaches half its
 * strength (docs/format.md, 'Background and atmosphere': linear from the near
 * amount at the near distance to the far amount at the far one, held
 * outside); 0 when it never does, so any distance shows the scene. Layer fog
 * depends on heights, not on the distance, and is left as it is. */
static float fog_half_distance(const kf3ds_environment *e)
{
    double nd, fd, a0, a1, d;
    if (e->atmosphere == KF3DS_ATMOSPHERE_FOG) {
        nd = e->fog_near;
        fd = e->fog_far;
        a0 = e->fog_near_density;
        a1 = e->fog_far_density;
    } else if (e->atmosphere == KF3DS_ATMOSPHERE_DISTANCE_CUE) {
        nd = e->cue_near;
        fd = e->cue_far;
        a0 = e->cue_near_dim;
        a1 = e->cue_far_dim;
    } else {
        return 0.0f;
    }
    if (!(fabs(nd) < 1e30 && fabs(fd) < 1e30 && fabs(a0) < 1e30 && fabs(a1) < 1e30))
        return 0.0f;
    if (a0 <= 0.5 && a1 <= 0.5)
        return 0.0f;
    if (a0 >= 0.5 || !(fd > nd))
        d = a0 >= 0.5 ? nd : fd; /* thick from the near distance on: stand there */
    else
        d = nd + (fd - nd) * (0.5 - a0) / (a1 - a0);
    return d > 0.0 ? (float)d : 0.0f;
}

void kf3ds_auto_view_choose(const kf3ds_scene *scene, double first, double last, double frame,
                            unsigned eval_flags, unsigned flags, kf3ds_pose *poses,
                            kf3ds_auto_view *out)
{
    float mn[3], mx[3], fmn[3], fmx[3];
    int i, k, n, have = 0, have_frame = 0;
    uint32_t node;
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    out->kind = KF3DS_AUTO_VIEW_ORBIT;
    for (k = 0; k < 3; k++) {
        out->min[k] = -1.0f;
        out->max[k] = 1.0f;
        out->half[k] = 1.0f;
    }
    if (!scene || !poses)
        return;
    if (!(frame == frame) || fabs(frame) > 1e9)
        frame = 0.0;
    if (!(first == first) || fabs(first) > 1e9)
        first = frame;
    if (!(last == last) || fabs(last) > 1e9 || last < first)
        last = first;
    n = last > first ? AUTO_SAMPLES : 0;
    /* The objects over the range (as the viewer has always framed them), the
     * frame shown first included even when it lies outside. */
    for (i = 0; i <= n + 1; i++) {
        double f = i > n ? frame : (n ? first + (last - first) * i / n : first);
        kf3ds_scene_eval(scene, f, eval_flags, poses);
        if (!kf3ds_scene_bounds(scene, poses, mn, mx))
            continue;
        box_unite(out->min, out->max, &have, mn, mx);
        if (i > n) {
            memcpy(fmn, mn, sizeof fmn);
            memcpy(fmx, mx, sizeof fmx);
            have_frame = 1;
        }
    }
    if (!have) {
        for (k = 0; k < 3; k++) {
            out->min[k] = -1.0f;
            out->max[k] = 1.0f;
        }
    }
    if (!(flags & KF3DS_AUTO_VIEW_NO_ENVIRONMENT))
        out->fog_distance = fog_half_distance(&scene->environment);
    if (!have_frame)
        return;
    for (k = 0; k < 3; k++)
        out->half[k] = 0.5f * (fmx[k] - fmn[k]);
    /* Objects small at that frame beside the box they sweep (a ship flying
     * off) would be dots in the view of the whole range: look through the
     * file's first camera, as the animator filmed it, or else follow them. */
    if (box_diag2(fmn, fmx) >=
        AUTO_TRAVEL_RATIO * AUTO_TRAVEL_RATIO * box_diag2(out->min, out->max))
        return;
    out->kind = KF3DS_AUTO_VIEW_FOLLOW;
    if (flags & KF3DS_AUTO_VIEW_NO_CAMERA)
        return;
    for (node = 0; node < scene->num_nodes; node++)
        if (scene->nodes[node].type == KF3DS_NODE_CAMERA) {
            out->kind = KF3DS_AUTO_VIEW_CAMERA;
            out->camera_node = node;
            return;
        }
}

void kf3ds_auto_view_at(const kf3ds_scene *scene, const kf3ds_auto_view *a,
                        const kf3ds_pose *poses, float azimuth_degrees, float elevation_degrees,
                        float fov_y_degrees, float aspect, kf3ds_view *out)
{
    float mn[3] = {-1, -1, -1}, mx[3] = {1, 1, 1}, c[3], cc[3];
    double r2 = 0.0, r, d, limit;
    int k;
    if (!out)
        return;
    if (a && a->kind == KF3DS_AUTO_VIEW_CAMERA && scene && poses &&
        kf3ds_view_from_camera(scene, a->camera_node, poses, out))
        return;
    if (a) {
        memcpy(mn, a->min, sizeof mn);
        memcpy(mx, a->max, sizeof mx);
    }
    /* Following: a box of the size the objects had at the chosen frame,
     * around them as they are at these poses. */
    if (a && a->kind != KF3DS_AUTO_VIEW_ORBIT && scene && poses &&
        kf3ds_scene_bounds(scene, poses, mn, mx)) {
        for (k = 0; k < 3; k++) {
            float m = 0.5f * (mn[k] + mx[k]);
            mn[k] = m - a->half[k];
            mx[k] = m + a->half[k];
        }
    }
    kf3ds_view_orbit(mn, mx, azimuth_degrees, elevation_degrees, fov_y_degrees, aspect, out);
    limit = a ? a->fog_distance : 0.0;
    if (!(limit > 0.0 && limit < 1e30))
        return;
    /* In fog that hides the scene from the framing distance, step in along
     * the view direction until the box centre is where the fog is half
     * strength (docs/viewer.md, 'The default view'). */
    for (k = 0; k < 3; k++) {
        c[k] = 0.5f * (mn[k] + mx[k]);
        r2 += 0.25 * ((double)mx[k] - mn[k]) * ((double)mx[k] - mn[k]);
    }
    r = sqrt(r2);
    kf3ds_mat4_transform_point(&out->view, c, cc);
    d = -(double)cc[2];
    if (!(d > limit))
        return;
    out->view.m[2][3] += (float)(d - limit);
    out->near_plane = (float)(limit - r * 1.5 > limit * 0.01 ? limit - r * 1.5 : limit * 0.01);
    out->far_plane = (float)(limit + r * 3.0);
}
