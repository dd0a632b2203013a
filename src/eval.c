/* Node and scene evaluation, mesh placement and camera views (rules §7).
 * Nothing here allocates or writes to the scene. */
#include "internal.h"
#include <math.h>
#include <string.h>

#define KF3DS__DEG2RAD 0.017453292519943295

/* Which tracks each node type evaluates (lib3ds: cameras ignore rotation,
 * objects ignore colour...). Skipping the others keeps a node's evaluation
 * within a few cache lines. */
#define BIT(k) (1u << (k))
static const unsigned type_tracks[7] = {
    BIT(KF3DS_TRACK_COL),                                                 /* ambient */
    BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_ROT) | BIT(KF3DS_TRACK_SCL) |
        BIT(KF3DS_TRACK_HIDE) | BIT(KF3DS_TRACK_MORPH),                   /* object */
    BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_FOV) | BIT(KF3DS_TRACK_ROLL), /* camera */
    BIT(KF3DS_TRACK_POS),                                                 /* target */
    BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_COL),                          /* light */
    BIT(KF3DS_TRACK_POS),                                                 /* ltarget */
    BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_COL) | BIT(KF3DS_TRACK_ROLL) |
        BIT(KF3DS_TRACK_HOT) | BIT(KF3DS_TRACK_FALL),                     /* spot */
};

/* Evaluates track k of node n into v when the node type uses it and it has keys. */
static int track_value(const kf3ds_node *n, kf3ds_track_kind k, double frame, unsigned flags,
                       float v[4], kf3ds_pose *p)
{
    if (!(type_tracks[n->type] & BIT(k)) || !n->tracks[k].num_keys)
        return 0;
    kf3ds__track_eval_hinted(&n->tracks[k], k, frame, flags, v, &p->segment_hint_[k]);
    return 1;
}

/* The node's own pose (tracks and local matrix); world is left local.
 * The segment hints in *p are kept; everything else is overwritten. */
static void eval_local(const kf3ds_scene *s, const kf3ds_node *n, double frame, unsigned flags,
                       kf3ds_pose *p)
{
    float v[4];
    uint32_t hints[KF3DS_TRACK_COUNT];
    memcpy(hints, p->segment_hint_, sizeof hints);
    memset(p, 0, sizeof *p);
    memcpy(p->segment_hint_, hints, sizeof hints);
    kf3ds__quat_identity(p->rotation);
    p->scale[0] = p->scale[1] = p->scale[2] = 1.0f;
    p->morph_mesh = KF3DS_NONE;
    if (n->type == KF3DS_NODE_CAMERA && n->camera != KF3DS_NONE) {
        p->fov = s->cameras[n->camera].fov;
        p->roll = s->cameras[n->camera].roll;
    }
    if (n->type >= KF3DS_NODE_LIGHT && n->light != KF3DS_NONE) {
        const kf3ds_light *l = &s->lights[n->light];
        memcpy(p->color, l->color, sizeof p->color);
        p->hotspot = l->hotspot;
        p->falloff = l->falloff;
        p->roll = l->roll;
    }
    if (n->type == KF3DS_NODE_AMBIENT)
        memcpy(p->color, s->ambient, sizeof p->color);

    if (track_value(n, KF3DS_TRACK_POS, frame, flags, v, p))
        memcpy(p->position, v, sizeof p->position);
    if (track_value(n, KF3DS_TRACK_ROT, frame, flags, v, p))
        memcpy(p->rotation, v, sizeof p->rotation);
    if (track_value(n, KF3DS_TRACK_SCL, frame, flags, v, p))
        memcpy(p->scale, v, sizeof p->scale);
    if (track_value(n, KF3DS_TRACK_COL, frame, flags, v, p))
        memcpy(p->color, v, sizeof p->color);
    if (track_value(n, KF3DS_TRACK_FOV, frame, flags, v, p))
        p->fov = v[0];
    if (track_value(n, KF3DS_TRACK_ROLL, frame, flags, v, p))
        p->roll = v[0];
    if (track_value(n, KF3DS_TRACK_HOT, frame, flags, v, p))
        p->hotspot = v[0];
    if (track_value(n, KF3DS_TRACK_FALL, frame, flags, v, p))
        p->falloff = v[0];
    p->hidden = (n->flags1 & 0x0800) != 0;
    if (track_value(n, KF3DS_TRACK_HIDE, frame, flags, v, p))
        p->hidden |= v[0] != 0.0f;
    if (track_value(n, KF3DS_TRACK_MORPH, frame, flags, v, p)) {
        uint32_t k = (uint32_t)v[0];
        if (k < n->tracks[KF3DS_TRACK_MORPH].num_keys)
            p->morph_mesh = n->tracks[KF3DS_TRACK_MORPH].keys[k].morph_mesh;
    }

    switch (n->type) {
    case KF3DS_NODE_OBJECT:
        kf3ds__mat4_from_trs(p->position, p->rotation, p->scale, &p->world);
        break;
    case KF3DS_NODE_AMBIENT:
        kf3ds_mat4_identity(&p->world);
        break;
    default: /* cameras, lights and targets translate only */
        kf3ds__mat4_translation(p->position, &p->world);
        break;
    }
}

void kf3ds_node_eval(const kf3ds_scene *scene, uint32_t node, double frame, unsigned flags,
                     kf3ds_pose *out)
{
    int32_t p;
    uint32_t guard = 0;
    if (!scene || !out || node >= scene->num_nodes)
        return;
    memset(out->segment_hint_, 0, sizeof out->segment_hint_); /* one-shot: no hints */
    eval_local(scene, &scene->nodes[node], frame, flags, out);
    if (scene->nodes[node].type == KF3DS_NODE_AMBIENT)
        return;
    /* Ancestors multiply on the left, one at a time: no stack needed. */
    for (p = scene->nodes[node].parent; p != KF3DS_NONE && guard++ < scene->num_nodes;
         p = scene->nodes[p].parent) {
        kf3ds_pose pp;
        memset(pp.segment_hint_, 0, sizeof pp.segment_hint_);
        eval_local(scene, &scene->nodes[p], frame, flags, &pp);
        kf3ds_mat4_mul(&pp.world, &out->world, &out->world);
    }
}

void kf3ds_scene_eval(const kf3ds_scene *scene, double frame, unsigned flags, kf3ds_pose *poses)
{
    uint32_t i;
    if (!scene || !poses || !scene->eval_order)
        return;
    for (i = 0; i < scene->num_nodes; i++) {
        uint32_t idx = scene->eval_order[i];
        const kf3ds_node *n = &scene->nodes[idx];
        eval_local(scene, n, frame, flags, &poses[idx]);
        if (n->parent != KF3DS_NONE && n->type != KF3DS_NODE_AMBIENT)
            kf3ds_mat4_mul(&poses[n->parent].world, &poses[idx].world, &poses[idx].world);
    }
}

int kf3ds_node_mesh_matrix(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *pose,
                           kf3ds_mat4 *out)
{
    const kf3ds_node *n;
    kf3ds_mat4 local;
    int i;
    if (!scene || !pose || !out || node >= scene->num_nodes ||
        scene->nodes[node].mesh == KF3DS_NONE) {
        if (out)
            kf3ds_mat4_identity(out);
        return 0;
    }
    n = &scene->nodes[node];
    /* T(−pivot)·M⁻¹: M⁻¹ with the pivot taken off its translation. */
    local = scene->meshes[n->mesh].inv_matrix;
    for (i = 0; i < 3; i++)
        local.m[i][3] -= n->pivot[i];
    kf3ds_mat4_mul(&pose->world, &local, out);
    return 1;
}

static void normalize3(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

int kf3ds_camera_view(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                      kf3ds_mat4 *view, float *fov_degrees, float *roll_degrees)
{
    const kf3ds_node *n;
    const kf3ds_pose *p;
    double pos[3], tgt[3], fwd[3], up0[3] = {0, 0, 1}, right[3], up[3], r, cr, sr;
    double rows[3][3];
    int i, j;
    if (!scene || !poses || !view || node >= scene->num_nodes ||
        scene->nodes[node].type != KF3DS_NODE_CAMERA)
        return 0;
    n = &scene->nodes[node];
    p = &poses[node];
    for (i = 0; i < 3; i++) {
        pos[i] = p->world.m[i][3];
        if (n->target != KF3DS_NONE)
            tgt[i] = poses[n->target].world.m[i][3];
        else if (n->camera != KF3DS_NONE)
            tgt[i] = scene->cameras[n->camera].target[i];
        else
            tgt[i] = pos[i] + (i == 1);
        fwd[i] = tgt[i] - pos[i];
    }
    /* lib3ds's look-at: forward = camera +Y, up from world Z (or −X when
     * looking straight up or down). */
    if (fwd[0] == 0.0 && fwd[1] == 0.0) {
        up0[0] = -1.0;
        up0[2] = 0.0;
    }
    normalize3(fwd);
    cross3(fwd, up0, right);
    normalize3(right);
    cross3(right, fwd, up);
    normalize3(up);
    /* Roll (degrees) about the view axis, with lib3ds 1.3's sign: Ry(+roll)
     * in 3DS camera space, which is a rotation by −roll about OpenGL's +z. */
    r = -(double)p->roll * KF3DS__DEG2RAD;
    cr = cos(r);
    sr = sin(r);
    for (j = 0; j < 3; j++) {
        rows[0][j] = cr * right[j] - sr * up[j];
        rows[1][j] = sr * right[j] + cr * up[j];
        rows[2][j] = -fwd[j];
    }
    for (i = 0; i < 3; i++) {
        double t = 0.0;
        for (j = 0; j < 3; j++) {
            view->m[i][j] = (float)rows[i][j];
            t -= rows[i][j] * pos[j];
        }
        view->m[i][3] = (float)t;
    }
    view->m[3][0] = view->m[3][1] = view->m[3][2] = 0.0f;
    view->m[3][3] = 1.0f;
    if (fov_degrees)
        *fov_degrees = p->fov;
    if (roll_degrees)
        *roll_degrees = p->roll;
    return 1;
}
