/* kf3ds export: the editor's cameras and lights of a file without keyframer
 * nodes (docs/gltf.md, "Cameras and lights", "Editor-only files"). Such a file is shown
 * as the editor stored it (its meshes by attach_editor_meshes), so its
 * cameras and lights stand where the editor put them: one glTF node each,
 * directly under the Z-up root, translated to the editor position and, for
 * cameras and spotlights, rotated by the look-at towards the editor target
 * with the roll (kf3ds_look_at, docs/evaluation.md "Cameras"). The values
 * follow the rules of keyframer cameras and lights (rules 22–23). */
#include "export_internal.h"
#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846
#define DEG2RAD (PI / 180.0)
/* As export_nodes.c: kf3ds render's default picture, 640×480. */
#define CAMERA_ASPECT (4.0 / 3.0)

/* The camera-to-world rotation of kf3ds_look_at as a unit quaternion
 * (x, y, z, w); the identity when eye and target coincide. The view's rows
 * are the camera axes in the world, so the rotation's columns are those rows. */
static void look_at_quat(const float eye[3], const float target[3], float roll, float q[4])
{
    kf3ds_mat4 view;
    double m[3][3], t, s, r[4];
    int i, k;
    q[0] = q[1] = q[2] = 0.0f;
    q[3] = 1.0f;
    if (!kf3ds_look_at(eye, target, roll, &view))
        return;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            m[i][k] = view.m[k][i];
    /* Shepperd's method: the largest of w, x, y, z first, for precision. */
    t = m[0][0] + m[1][1] + m[2][2];
    if (t > 0.0) {
        s = 2.0 * sqrt(t + 1.0);
        r[3] = 0.25 * s;
        r[0] = (m[2][1] - m[1][2]) / s;
        r[1] = (m[0][2] - m[2][0]) / s;
        r[2] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        r[0] = 0.25 * s;
        r[1] = (m[0][1] + m[1][0]) / s;
        r[2] = (m[0][2] + m[2][0]) / s;
        r[3] = (m[2][1] - m[1][2]) / s;
    } else if (m[1][1] >= m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        r[0] = (m[0][1] + m[1][0]) / s;
        r[1] = 0.25 * s;
        r[2] = (m[1][2] + m[2][1]) / s;
        r[3] = (m[0][2] - m[2][0]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        r[0] = (m[0][2] + m[2][0]) / s;
        r[1] = (m[1][2] + m[2][1]) / s;
        r[2] = 0.25 * s;
        r[3] = (m[1][0] - m[0][1]) / s;
    }
    for (k = 0; k < 4; k++)
        q[k] = (float)r[k];
    export_quat_normalize(q);
}

/* A position the JSON can hold: non-finite or absurd coordinates become 0
 * (a damaged file must still give a valid glTF). */
static void finite_position(const float in[3], float out[3])
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = fabsf(in[k]) < 1e30f ? in[k] : 0.0f;
}

static void editor_camera(export_ctx *c, const kf3ds_camera *cam, uint32_t root)
{
    uint32_t g = export_add_node(c, cam->name, (int32_t)root);
    /* The renderer's rule (rule 22): the FOV is vertical, 45° outside 0.1–179°. */
    double fov = cam->fov >= 0.1f && cam->fov <= 179.0f ? cam->fov : 45.0;
    double znear = c->extent > 0.0f ? c->extent * 1e-4 : 0.01;
    float eye[3], target[3];
    if (c->oom)
        return;
    if (cam->near_range > 0.0f && cam->near_range < 1e30f)
        znear = cam->near_range;
    finite_position(cam->position, eye);
    finite_position(cam->target, target);
    memcpy(c->nodes[g].t, eye, sizeof eye);
    look_at_quat(eye, target, cam->roll, c->nodes[g].r);
    c->nodes[g].camera = (int32_t)c->cameras.count;
    gltf_obj(&c->cameras, NULL);
    gltf_str(&c->cameras, "name", cam->name);
    gltf_str(&c->cameras, "type", "perspective");
    gltf_obj(&c->cameras, "perspective");
    gltf_num(&c->cameras, "aspectRatio", CAMERA_ASPECT);
    gltf_num(&c->cameras, "yfov", (float)(fov * DEG2RAD));
    gltf_num(&c->cameras, "znear", znear);
    gltf_end(&c->cameras);
    gltf_end(&c->cameras);
}

static void editor_light(export_ctx *c, const kf3ds_light *l, uint32_t root)
{
    uint32_t g = export_add_node(c, l->name, (int32_t)root);
    float color[3], eye[3], target[3];
    int k;
    if (c->oom)
        return;
    for (k = 0; k < 3; k++)
        color[k] = (float)export_clamp(l->color[k], 0.0, 1.0);
    finite_position(l->position, eye);
    memcpy(c->nodes[g].t, eye, sizeof eye);
    c->nodes[g].light = (int32_t)c->lights.count;
    gltf_obj(&c->lights, NULL);
    gltf_str(&c->lights, "name", l->name);
    gltf_str(&c->lights, "type", l->spot ? "spot" : "point");
    gltf_nums(&c->lights, "color", color, 3);
    gltf_num(&c->lights, "intensity", l->off ? 0.0 : export_clamp(l->multiplier, 0.0, 1e30));
    if (l->attenuate && l->outer_range > 0.0f && l->outer_range < 1e30f)
        gltf_num(&c->lights, "range", l->outer_range);
    if (l->spot) {
        /* Rule 23's cones: half the falloff and hotspot, 0 ≤ inner < outer ≤ π/2. */
        double outer = export_clamp(l->falloff * 0.5 * DEG2RAD, 1e-4, PI / 2);
        double inner = export_clamp(l->hotspot * 0.5 * DEG2RAD, 0.0, outer);
        if (inner >= outer * 0.999)
            inner = outer * 0.999;
        finite_position(l->target, target);
        look_at_quat(eye, target, l->roll, c->nodes[g].r);
        gltf_obj(&c->lights, "spot");
        gltf_num(&c->lights, "innerConeAngle", (float)inner);
        gltf_num(&c->lights, "outerConeAngle", (float)outer);
        gltf_end(&c->lights);
    }
    gltf_end(&c->lights);
    c->used_lights = 1;
}

void export_editor_cameras_lights(export_ctx *c, uint32_t root)
{
    uint32_t i;
    for (i = 0; i < c->s->num_cameras && !c->oom; i++)
        editor_camera(c, &c->s->cameras[i], root);
    for (i = 0; i < c->s->num_lights && !c->oom; i++)
        editor_light(c, &c->s->lights[i], root);
}
