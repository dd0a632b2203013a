/* kf3ds export: one animated property's value at a frame (docs/gltf.md,
 * "Animation"): a node's position, rotation or scale, whether it is shown,
 * a camera's or spot's aim, a FOV, a light's colour or cones. The samplers
 * (export_samples.c) and the nodes' rest values (export_nodes.c) ask here. */
#include "export_internal.h"
#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846
#define DEG2RAD (PI / 180.0)

/* 3×3 rotation matrix (m[row][col]) to a unit quaternion x, y, z, w. */
static void matrix_quat(double m[3][3], float q[4])
{
    double t = m[0][0] + m[1][1] + m[2][2], r[4], s;
    int k;
    if (t > 0.0) {
        s = sqrt(t + 1.0) * 2.0;
        r[3] = 0.25 * s;
        r[0] = (m[2][1] - m[1][2]) / s;
        r[1] = (m[0][2] - m[2][0]) / s;
        r[2] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        s = sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2.0;
        r[3] = (m[2][1] - m[1][2]) / s;
        r[0] = 0.25 * s;
        r[1] = (m[0][1] + m[1][0]) / s;
        r[2] = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        s = sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2.0;
        r[3] = (m[0][2] - m[2][0]) / s;
        r[0] = (m[0][1] + m[1][0]) / s;
        r[1] = 0.25 * s;
        r[2] = (m[1][2] + m[2][1]) / s;
    } else {
        s = sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2.0;
        r[3] = (m[1][0] - m[0][1]) / s;
        r[0] = (m[0][2] + m[2][0]) / s;
        r[1] = (m[1][2] + m[2][1]) / s;
        r[2] = 0.25 * s;
    }
    for (k = 0; k < 4; k++)
        q[k] = (float)r[k];
    export_quat_normalize(q);
}

/* Normalises column `c` of a; 0 when it has no length. */
static int unit_column(double a[3][3], int c)
{
    double l = sqrt(a[0][c] * a[0][c] + a[1][c] * a[1][c] + a[2][c] * a[2][c]);
    int r;
    if (!(l > 1e-30 && l < 1e300))
        return 0;
    for (r = 0; r < 3; r++)
        a[r][c] /= l;
    return 1;
}

/* The rotation of a camera or spot aim node: the look-at's camera-to-world
 * rotation taken into the node's own frame (N's 3×3 part undone), made
 * orthonormal. */
static void aim_rotation(export_ctx *c, uint32_t i, double frame, float q[4])
{
    const kf3ds_scene *s = c->s;
    const kf3ds_node *n = &s->nodes[i];
    kf3ds_pose *p = &c->poses[i];
    kf3ds_mat4 view, n3, inv;
    double a[3][3], d;
    int r, k, ok;
    float eye[3], tgt[3];
    if (n->target >= 0 && (uint32_t)n->target < s->num_nodes)
        kf3ds_node_eval(s, (uint32_t)n->target, frame, c->flags, &c->poses[n->target]);
    if (n->type == KF3DS_NODE_CAMERA) {
        ok = kf3ds_node_camera_view(s, i, c->poses, &view, NULL, NULL);
    } else {
        for (k = 0; k < 3; k++) {
            eye[k] = p->world.m[k][3];
            if (n->target >= 0 && (uint32_t)n->target < s->num_nodes)
                tgt[k] = c->poses[n->target].world.m[k][3];
            else if (n->light >= 0 && (uint32_t)n->light < s->num_lights)
                tgt[k] = s->lights[n->light].target[k];
            else
                tgt[k] = eye[k] - (k == 2); /* straight down */
        }
        ok = kf3ds_look_at(eye, tgt, p->roll, &view);
    }
    if (!ok) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
        return;
    }
    n3 = p->world;
    for (k = 0; k < 3; k++)
        n3.m[k][3] = 0.0f;
    ok = kf3ds_mat4_invert(&n3, &inv);
    for (r = 0; r < 3; r++)
        for (k = 0; k < 3; k++) {
            /* N3⁻¹ · (camera-to-world), which is the view's transpose */
            a[r][k] = ok ? (double)inv.m[r][0] * view.m[k][0] + (double)inv.m[r][1] * view.m[k][1] +
                               (double)inv.m[r][2] * view.m[k][2]
                         : view.m[k][r];
        }
    /* Gram–Schmidt on the columns: x, then y against x, z = x × y. */
    ok = unit_column(a, 0);
    d = a[0][0] * a[0][1] + a[1][0] * a[1][1] + a[2][0] * a[2][1];
    for (r = 0; r < 3; r++)
        a[r][1] -= d * a[r][0];
    ok &= unit_column(a, 1);
    a[0][2] = a[1][0] * a[2][1] - a[2][0] * a[1][1];
    a[1][2] = a[2][0] * a[0][1] - a[0][0] * a[2][1];
    a[2][2] = a[0][0] * a[1][1] - a[1][0] * a[0][1];
    if (!ok) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
        return;
    }
    matrix_quat(a, q);
}

/* The half-angles of a spot's cones in radians: 0 ≤ inner < outer ≤ π/2. */
static void spot_cones(const kf3ds_pose *p, double *inner, double *outer)
{
    *outer = export_clamp(p->falloff * 0.5 * DEG2RAD, 1e-4, PI / 2);
    *inner = export_clamp(p->hotspot * 0.5 * DEG2RAD, 0.0, *outer);
    if (*inner >= *outer * 0.999)
        *inner = *outer * 0.999;
}

int export_prop_value(export_ctx *c, const ex_prop *p, double frame, float out[4])
{
    const kf3ds_scene *s = c->s;
    kf3ds_pose *pose = &c->poses[p->node];
    int k, shown;
    double inner, outer, fov;
    kf3ds_node_eval(s, p->node, frame, c->flags, pose);
    shown = !pose->hidden &&
            (p->mesh < 0 || kf3ds_node_pose_mesh(s, p->node, pose) == p->mesh);
    switch (p->kind) {
    case EX_TRANSLATION:
        memcpy(out, pose->position, 3 * sizeof *out);
        return 3;
    case EX_ROTATION:
        memcpy(out, pose->rotation, 4 * sizeof *out);
        export_quat_normalize(out);
        return 4;
    case EX_SCALE:
        for (k = 0; k < 3; k++)
            out[k] = pose->scale[k] * (p->merge_visibility && !shown ? 0.0f : 1.0f);
        return 3;
    case EX_SHOWN_SCALE:
        out[0] = out[1] = out[2] = shown ? 1.0f : 0.0f;
        return 3;
    case EX_SHOWN_EXT:
        out[0] = shown ? 1.0f : 0.0f;
        return 1;
    case EX_AIM:
        aim_rotation(c, p->node, frame, out);
        return 4;
    case EX_YFOV:
        /* The renderer's rule: the FOV is vertical, 45° outside 0.1–179°. */
        fov = pose->fov >= 0.1f && pose->fov <= 179.0f ? pose->fov : 45.0;
        out[0] = (float)(fov * DEG2RAD);
        return 1;
    case EX_LIGHT_COLOR:
        for (k = 0; k < 3; k++)
            out[k] = (float)export_clamp(pose->color[k], 0.0, 1.0);
        return 3;
    case EX_SPOT_INNER:
    case EX_SPOT_OUTER:
        spot_cones(pose, &inner, &outer);
        out[0] = (float)(p->kind == EX_SPOT_INNER ? inner : outer);
        return 1;
    }
    return 0;
}
