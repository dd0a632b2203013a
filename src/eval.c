/* Node and scene evaluation, mesh placement and camera views
 * (docs/evaluation.md, "Transforms", "Mesh placement", "Cameras").
 * Nothing here allocates or writes to the scene. */
#include "track_eval.h"
#include "kmath.h"
#include "value_range.h"
#include <math.h>
#include <string.h>

#define BIT(k) (1u << (k))
/* NODE_HDR flags1: the node starts hidden (docs/evaluation.md, "Hide and morph tracks"). */
#define NODE_HIDDEN 0x0800

/* Keeps the three top rows of a matrix within ±KF3DS__MAX_WORLD (NaN, which
 * finite inputs cannot produce, would become 0): a long chain of scaled
 * nodes must not overflow to infinity (docs/robustness.md). The check is
 * branch-free and nearly always passes. */
static int rows_in_range(const float *v)
{
    int i, ok = 1;
    for (i = 0; i < 12; i++)
        ok &= fabsf(v[i]) <= KF3DS__MAX_WORLD;
    return ok;
}

static void clamp_rows(float *v)
{
    int i;
    for (i = 0; i < 12; i++)
        v[i] = v[i] > KF3DS__MAX_WORLD    ? KF3DS__MAX_WORLD
               : v[i] < -KF3DS__MAX_WORLD ? -KF3DS__MAX_WORLD
               : v[i] == v[i]             ? v[i]
                                          : 0.0f;
}

static void bound_matrix(kf3ds_mat4 *m)
{
    if (!rows_in_range(&m->m[0][0]))
        clamp_rows(&m->m[0][0]);
}

/* out = a · L for the three top rows: row i is a_i0·L0 + a_i1·L1 + a_i2·L2 +
 * (0, 0, 0, a_i3); L itself when a is NULL (a root). The range check of bound_matrix is done on the values
 * before they are stored (reading them back as vectors right after they are
 * stored would stall on store forwarding); returns 0 when one is out of
 * range. With GCC or clang in vector form; the plain form does the same
 * operations in the same order, so both give the same bits (make plain-check;
 * -DKF3DS_PLAIN_C selects it). */
#if defined(__GNUC__) && !defined(KF3DS_PLAIN_C)
typedef float kf3ds__v4 __attribute__((vector_size(16)));
typedef int kf3ds__i4 __attribute__((vector_size(16)));

static int multiply_rows(const float (*a)[4], const float l[3][4], float (*out)[4])
{
    /* Built from the values, not loaded: l was just written element-wise. */
    kf3ds__v4 l0 = { l[0][0], l[0][1], l[0][2], l[0][3] };
    kf3ds__v4 l1 = { l[1][0], l[1][1], l[1][2], l[1][3] };
    kf3ds__v4 l2 = { l[2][0], l[2][1], l[2][2], l[2][3] };
    kf3ds__v4 lim = { KF3DS__MAX_WORLD, KF3DS__MAX_WORLD, KF3DS__MAX_WORLD, KF3DS__MAX_WORLD };
    kf3ds__i4 in = { -1, -1, -1, -1 };
    int i;
    for (i = 0; i < 3; i++) {
        kf3ds__v4 w = i == 0 ? l0 : i == 1 ? l1 : l2;
        if (a) {
            /* Scalars broadcast explicitly: where float arithmetic has excess
             * precision (68k, x87) a scalar operand would be a long double. */
            kf3ds__v4 a0 = { a[i][0], a[i][0], a[i][0], a[i][0] };
            kf3ds__v4 a1 = { a[i][1], a[i][1], a[i][1], a[i][1] };
            kf3ds__v4 a2 = { a[i][2], a[i][2], a[i][2], a[i][2] };
            kf3ds__v4 e = { 0.0f, 0.0f, 0.0f, a[i][3] };
            w = a0 * l0 + a1 * l1 + a2 * l2 + e;
        }
        memcpy(out[i], &w, sizeof w);
        in &= (w <= lim) & (w >= -lim); /* false for NaN */
    }
    return (in[0] & in[1] & in[2] & in[3]) != 0;
}
#else
static int multiply_rows(const float (*a)[4], const float l[3][4], float (*out)[4])
{
    int i, j, ok = 1;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float w = !a ? l[i][j]
                         : a[i][0] * l[0][j] + a[i][1] * l[1][j] + a[i][2] * l[2][j] +
                               (j == 3 ? a[i][3] : 0.0f);
            ok &= fabsf(w) <= KF3DS__MAX_WORLD;
            out[i][j] = w;
        }
    return ok;
}
#endif

/* world = parent · T(pos) · R(rot) · S(scl) for objects, parent · T(pos) for
 * cameras, lights and targets, identity for ambient (docs/evaluation.md,
 * "Transforms"); parent may be NULL. One pass, written
 * once: this runs for every node of every frame. */
static void place(const kf3ds_node *n, kf3ds_pose *p, const kf3ds_mat4 *parent)
{
    const float(*a)[4] = parent ? (const float(*)[4])parent->m : NULL;
    float l[3][4];
    int i, j, ok;
    if (n->type == KF3DS_NODE_AMBIENT) {
        kf3ds_mat4_identity(&p->world);
        return;
    }
    if (n->type == KF3DS_NODE_OBJECT) {
        const float *q = p->rotation;
        float x = q[0], y = q[1], z = q[2], w = q[3];
        float len = x * x + y * y + z * z + w * w;
        float k = len > 0.0f ? 2.0f / len : 0.0f;
        float xx = x * x * k, yy = y * y * k, zz = z * z * k;
        float xy = x * y * k, xz = x * z * k, yz = y * z * k;
        float wx = w * x * k, wy = w * y * k, wz = w * z * k;
        l[0][0] = (1.0f - (yy + zz)) * p->scale[0];
        l[0][1] = (xy - wz) * p->scale[1];
        l[0][2] = (xz + wy) * p->scale[2];
        l[1][0] = (xy + wz) * p->scale[0];
        l[1][1] = (1.0f - (xx + zz)) * p->scale[1];
        l[1][2] = (yz - wx) * p->scale[2];
        l[2][0] = (xz - wy) * p->scale[0];
        l[2][1] = (yz + wx) * p->scale[1];
        l[2][2] = (1.0f - (xx + yy)) * p->scale[2];
    } else {
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++)
                l[i][j] = i == j ? 1.0f : 0.0f;
    }
    l[0][3] = p->position[0];
    l[1][3] = p->position[1];
    l[2][3] = p->position[2];
    ok = multiply_rows(a, (const float(*)[4])l, p->world.m);
    p->world.m[3][0] = p->world.m[3][1] = p->world.m[3][2] = 0.0f;
    p->world.m[3][3] = 1.0f;
    if (!ok)
        clamp_rows(&p->world.m[0][0]);
}

/* Memory wanted soon: a node's and its pose's cache lines that evaluation
 * reads, and the segment records its hints point to (position, rotation,
 * scale). Always inlined: GCC deems a function that only prefetches "pure"
 * and deletes calls to it. */
#if defined(__GNUC__) && !defined(KF3DS_PLAIN_C)
static inline __attribute__((always_inline)) void prefetch_node(const kf3ds_node *n,
                                                                const kf3ds_pose *p)
{
    /* The node's first 128 bytes hold what evaluation reads of an object
     * (type to active_tracks_, then tracks[0..2]: position, rotation, scale). */
    const char *c = (const char *)n;
    __builtin_prefetch(c);
    __builtin_prefetch(c + 64);
    __builtin_prefetch(p->segment_hint_);
}

static inline __attribute__((always_inline)) void prefetch_records(const kf3ds_node *n,
                                                                   const kf3ds_pose *p)
{
    unsigned k;
    for (k = 0; k < 3; k++)
        if ((n->active_tracks_ & (1u << k)) && p->segment_hint_[k] + 1 < n->tracks[k].num_keys) {
            size_t stride = kf3ds__seg_stride((kf3ds_track_kind)k), off;
            const float *rec = n->tracks[k].segments_ + (size_t)p->segment_hint_[k] * stride;
            for (off = 0; off < stride; off += 16) /* every 64-byte line of the record */
                __builtin_prefetch(rec + off);
        }
}
#else
#define prefetch_node(n, p) ((void)(n), (void)(p))
#define prefetch_records(n, p) ((void)(n), (void)(p))
#endif

/* The node's pose from its tracks, all but the world matrix. Squad
 * rotations go to the batch, which writes p->rotation when it runs. The
 * segment hints in *p are kept; every other field is written. */
static void eval_tracks(const kf3ds_scene *s, const kf3ds_node *n, double frame, unsigned flags,
                        kf3ds_pose *p, kf3ds__squad_batch *batch)
{
    unsigned active = n->active_tracks_;
    const kf3ds_track *t = n->tracks;
    uint32_t *hint = p->segment_hint_;
    float v[4];

    p->position[0] = p->position[1] = p->position[2] = 0.0f;
    kf3ds__quat_identity(p->rotation);
    p->scale[0] = p->scale[1] = p->scale[2] = 1.0f;
    p->color[0] = p->color[1] = p->color[2] = 0.0f;
    p->fov = p->roll = p->hotspot = p->falloff = 0.0f;
    p->hidden = (n->flags1 & NODE_HIDDEN) != 0;
    p->morph_mesh = KF3DS_NONE;
    if (n->type == KF3DS_NODE_CAMERA && n->camera != KF3DS_NONE) {
        p->fov = s->cameras[n->camera].fov;
        p->roll = s->cameras[n->camera].roll;
    } else if (n->type >= KF3DS_NODE_LIGHT && n->light != KF3DS_NONE) {
        const kf3ds_light *l = &s->lights[n->light];
        memcpy(p->color, l->color, sizeof p->color);
        p->hotspot = l->hotspot;
        p->falloff = l->falloff;
        p->roll = l->roll;
    } else if (n->type == KF3DS_NODE_AMBIENT) {
        memcpy(p->color, s->ambient, sizeof p->color);
    }

    if (active & BIT(KF3DS_TRACK_POS)) {
        kf3ds__track_eval_hinted(&t[KF3DS_TRACK_POS], KF3DS_TRACK_POS, frame, flags, v,
                                 &hint[KF3DS_TRACK_POS], NULL);
        memcpy(p->position, v, sizeof p->position);
    }
    if (active & BIT(KF3DS_TRACK_ROT))
        kf3ds__track_eval_hinted(&t[KF3DS_TRACK_ROT], KF3DS_TRACK_ROT, frame, flags,
                                 p->rotation, &hint[KF3DS_TRACK_ROT], batch);
    if (active & BIT(KF3DS_TRACK_SCL)) {
        kf3ds__track_eval_hinted(&t[KF3DS_TRACK_SCL], KF3DS_TRACK_SCL, frame, flags, v,
                                 &hint[KF3DS_TRACK_SCL], NULL);
        memcpy(p->scale, v, sizeof p->scale);
    }
    if (active & ~(BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_ROT) | BIT(KF3DS_TRACK_SCL))) {
        if (active & BIT(KF3DS_TRACK_COL)) {
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_COL], KF3DS_TRACK_COL, frame, flags, v,
                                     &hint[KF3DS_TRACK_COL], NULL);
            memcpy(p->color, v, sizeof p->color);
        }
        if (active & BIT(KF3DS_TRACK_FOV))
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_FOV], KF3DS_TRACK_FOV, frame, flags, v,
                                     &hint[KF3DS_TRACK_FOV], NULL), p->fov = v[0];
        if (active & BIT(KF3DS_TRACK_ROLL))
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_ROLL], KF3DS_TRACK_ROLL, frame, flags, v,
                                     &hint[KF3DS_TRACK_ROLL], NULL), p->roll = v[0];
        if (active & BIT(KF3DS_TRACK_HOT))
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_HOT], KF3DS_TRACK_HOT, frame, flags, v,
                                     &hint[KF3DS_TRACK_HOT], NULL), p->hotspot = v[0];
        if (active & BIT(KF3DS_TRACK_FALL))
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_FALL], KF3DS_TRACK_FALL, frame, flags, v,
                                     &hint[KF3DS_TRACK_FALL], NULL), p->falloff = v[0];
        if (active & BIT(KF3DS_TRACK_HIDE)) {
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_HIDE], KF3DS_TRACK_HIDE, frame, flags, v,
                                     &hint[KF3DS_TRACK_HIDE], NULL);
            p->hidden |= v[0] != 0.0f;
        }
        if (active & BIT(KF3DS_TRACK_MORPH)) {
            uint32_t k;
            kf3ds__track_eval_hinted(&t[KF3DS_TRACK_MORPH], KF3DS_TRACK_MORPH, frame, flags, v,
                                     &hint[KF3DS_TRACK_MORPH], NULL);
            k = (uint32_t)v[0];
            if (k < t[KF3DS_TRACK_MORPH].num_keys)
                p->morph_mesh = t[KF3DS_TRACK_MORPH].keys[k].morph_mesh;
        }
    }
}

/* One node's whole pose; parent is the parent's world matrix, NULL for roots. */
static void eval_local(const kf3ds_scene *s, const kf3ds_node *n, double frame, unsigned flags,
                       const kf3ds_mat4 *parent, kf3ds_pose *p)
{
    kf3ds__squad_batch batch;
    batch.n = 0;
    eval_tracks(s, n, frame, flags, p, &batch);
    squad_batch_run(&batch);
    place(n, p, parent);
}

void kf3ds_node_eval(const kf3ds_scene *scene, uint32_t node, double frame, unsigned flags,
                     kf3ds_pose *out)
{
    int32_t p;
    uint32_t guard = 0;
    if (!scene || !out || node >= scene->num_nodes)
        return;
    memset(out->segment_hint_, 0, sizeof out->segment_hint_); /* one-shot: no hints */
    eval_local(scene, &scene->nodes[node], frame, flags, NULL, out);
    if (scene->nodes[node].type == KF3DS_NODE_AMBIENT)
        return;
    /* Ancestors multiply on the left, one at a time: no stack needed. */
    for (p = scene->nodes[node].parent; p != KF3DS_NONE && guard++ < scene->num_nodes;
         p = scene->nodes[p].parent) {
        kf3ds_pose pp;
        memset(pp.segment_hint_, 0, sizeof pp.segment_hint_);
        eval_local(scene, &scene->nodes[p], frame, flags, NULL, &pp);
        kf3ds__mat4_mul_affine(&pp.world, &out->world, &out->world);
        bound_matrix(&out->world);
    }
}

/* Nodes go in groups of KF3DS__SQUAD_LANES (in evaluation order): the
 * tracks of the whole group, then its squad batch, then the world matrices,
 * parents first, which the order guarantees across and within groups. */
void kf3ds_scene_eval(const kf3ds_scene *scene, double frame, unsigned flags, kf3ds_pose *poses)
{
    kf3ds__squad_batch batch;
    uint32_t i, j, end, num;
    if (!scene || !poses || !scene->eval_order)
        return;
    num = scene->num_nodes;
    batch.n = 0;
    for (i = 0; i < num; i = end) {
        end = num - i > KF3DS__SQUAD_LANES ? i + KF3DS__SQUAD_LANES : num;
        for (j = i; j < end; j++) {
            uint32_t idx = scene->eval_order[j];
            /* Memory ahead of use: nodes and hints two groups ahead, then
             * the records their hints point to one group ahead. */
            if (j + 2 * KF3DS__SQUAD_LANES < num) {
                uint32_t a = scene->eval_order[j + 2 * KF3DS__SQUAD_LANES];
                prefetch_node(&scene->nodes[a], &poses[a]);
            }
            if (j + KF3DS__SQUAD_LANES < num) {
                uint32_t a = scene->eval_order[j + KF3DS__SQUAD_LANES];
                prefetch_records(&scene->nodes[a], &poses[a]);
            }
            eval_tracks(scene, &scene->nodes[idx], frame, flags, &poses[idx], &batch);
        }
        squad_batch_run(&batch);
        for (j = i; j < end; j++) {
            uint32_t idx = scene->eval_order[j];
            const kf3ds_node *n = &scene->nodes[idx];
            place(n, &poses[idx], n->parent != KF3DS_NONE ? &poses[n->parent].world : NULL);
        }
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
    bound_matrix(out);
    return 1;
}

int kf3ds_node_camera_view(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                      kf3ds_mat4 *view, float *fov_degrees, float *roll_degrees)
{
    const kf3ds_node *n;
    const kf3ds_pose *p;
    double pos[3], tgt[3], rows[3][3];
    int i;
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
    }
    kf3ds__look_at(pos, tgt, p->roll, view, rows);
    if (fov_degrees)
        *fov_degrees = p->fov;
    if (roll_degrees)
        *roll_degrees = p->roll;
    return 1;
}
