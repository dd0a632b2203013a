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
