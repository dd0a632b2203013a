/* Node and scene evaluation, mesh placement and camera views
 * (docs/evaluation.md, "Transforms", "Mesh placement", "Cameras").
 * Nothing here allocates or writes to the scene. */
#include "eval_plan.h"
#include "kmath.h"
#include "scene_internal.h"
#include "world_rows.h"
#include <math.h>
#include <string.h>

/* The per-node steps are inlined into kf3ds_scene_eval's loop: they are
 * small beside the calls' cost on a node with constant tracks. */
#if defined(__GNUC__)
#define KF3DS__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define KF3DS__ALWAYS_INLINE inline
#endif

/* The world matrix, once the pose's values are in: parent · L, L the local
 * matrix: T(pos)·R(rot)·S(scl) for objects, T(pos) for cameras, lights and
 * targets (docs/evaluation.md, "Transforms"), or the plan's for a node that
 * never moves; parent may be NULL. This runs for every node of every frame. */
static KF3DS__ALWAYS_INLINE void place(const kf3ds__plan_node *r, kf3ds_pose *p, const kf3ds_mat4 *parent)
{
    float l[3][4];
    switch (r->local) {
    case PLAN_LOCAL_STATIC:
        memcpy(&p->world, plan_tail(r), sizeof p->world);
        return;
    case PLAN_LOCAL_FIXED:
        kf3ds__world_rows(parent, (const float(*)[4])plan_tail(r), 0, &p->world);
        return;
    case PLAN_LOCAL_TRS:
        plan_object_rows(p->position, p->rotation, p->scale, l);
        break;
    default:
        plan_translation_rows(p->position, l);
        break;
    }
    kf3ds__world_rows(parent, (const float(*)[4])l, 1, &p->world);
}

/* The node's own local matrix as its world (kf3ds_node_eval multiplies the
 * ancestors' on): for a node that never moves, made from the plan's values
 * as the plan made its world. */
static void place_local(const kf3ds__plan_node *r, kf3ds_pose *p)
{
    float l[3][4];
    if (r->type == KF3DS_NODE_AMBIENT) {
        kf3ds_mat4_identity(&p->world);
        return;
    }
    if (r->local != PLAN_LOCAL_STATIC) {
        place(r, p, NULL);
        return;
    }
    if (r->type == KF3DS_NODE_OBJECT)
        plan_object_rows(p->position, p->rotation, p->scale, l);
    else
        plan_translation_rows(p->position, l);
    kf3ds__world_rows(NULL, (const float(*)[4])l, 1, &p->world);
}

/* Where in the pose each kind of track goes (ROT, HIDE and MORPH have their
 * own code). */
static const unsigned short track_field[KF3DS_TRACK_COUNT] = {
    offsetof(kf3ds_pose, position), 0, offsetof(kf3ds_pose, scale),
    offsetof(kf3ds_pose, fov),      offsetof(kf3ds_pose, roll),
    offsetof(kf3ds_pose, color),    0, offsetof(kf3ds_pose, hotspot),
    offsetof(kf3ds_pose, falloff),  0,
};
typedef char kf3ds__track_kinds_in_field_order
    [KF3DS_TRACK_POS == 0 && KF3DS_TRACK_SCL == 2 && KF3DS_TRACK_FOV == 3 &&
     KF3DS_TRACK_ROLL == 4 && KF3DS_TRACK_COL == 5 && KF3DS_TRACK_HOT == 7 &&
     KF3DS_TRACK_FALL == 8 ? 1 : -1];

/* The node's pose from its plan record, all but the world matrix: the
 * record's values (defaults and constant tracks), then each animated track.
 * Squad rotations go to the batch, which writes p->rotation when it runs.
 * The segment hints in *p are kept; every other field is written. */
static KF3DS__ALWAYS_INLINE void eval_values(const kf3ds__plan_node *r, double frame, unsigned flags, kf3ds_pose *p,
                        kf3ds__squad_batch *batch)
{
    const kf3ds__track_view *v = plan_views(r), *end = v + r->num_tracks;
    uint32_t *hint = p->segment_hint_;
    memcpy(p->position, r->values, PLAN_POSE_VALUES);
    for (; v < end; v++) {
        unsigned kind = v->kind;
        float *field = (float *)(void *)((unsigned char *)p + track_field[kind]);
        switch (kind) {
        case KF3DS_TRACK_ROT:
            view_rotation(v, frame, flags, &hint[kind], p->rotation, batch);
            break;
        case KF3DS_TRACK_POS:
        case KF3DS_TRACK_SCL:
        case KF3DS_TRACK_COL:
            view_vector(v, frame, flags, &hint[kind], field, 3);
            break;
        case KF3DS_TRACK_HIDE:
            p->hidden |= (uint8_t)view_hidden(v, frame, &hint[kind]);
            break;
        case KF3DS_TRACK_MORPH:
            p->morph_mesh = v->keys[view_morph_key(v, frame, &hint[kind])].morph_mesh;
            break;
        default: /* FOV, ROLL, HOT, FALL */
            view_vector(v, frame, flags, &hint[kind], field, 1);
            break;
        }
    }
}

/* One node's pose with its local matrix as the world (kf3ds_node_eval). */
static void eval_one(const kf3ds__plan_node *r, double frame, unsigned flags, kf3ds_pose *p)
{
    kf3ds__squad_batch batch;
    batch.n = 0;
    eval_values(r, frame, flags, p, &batch);
    squad_batch_run(&batch);
    place_local(r, p);
}

static const kf3ds__plan *plan_of(const kf3ds_scene *scene)
{
    const kf3ds__scene_internal *in = (const kf3ds__scene_internal *)scene->internal_;
    return in && in->plan && in->plan->num_nodes == scene->num_nodes ? in->plan : NULL;
}

void kf3ds_node_eval(const kf3ds_scene *scene, uint32_t node, double frame, unsigned flags,
                     kf3ds_pose *out)
{
    const kf3ds__plan *plan;
    int32_t p;
    uint32_t guard = 0;
    if (!scene || !out || node >= scene->num_nodes || !(plan = plan_of(scene)))
        return;
    memset(out->segment_hint_, 0, sizeof out->segment_hint_); /* one-shot: no hints */
    eval_one(plan_record(plan, node), frame, flags, out);
    if (scene->nodes[node].type == KF3DS_NODE_AMBIENT)
        return;
    /* Ancestors multiply on the left, one at a time: no stack needed. */
    for (p = scene->nodes[node].parent; p != KF3DS_NONE && guard++ < scene->num_nodes;
         p = scene->nodes[p].parent) {
        kf3ds_pose pp;
        memset(pp.segment_hint_, 0, sizeof pp.segment_hint_);
        eval_one(plan_record(plan, (uint32_t)p), frame, flags, &pp);
        kf3ds__mat4_mul_affine(&pp.world, &out->world, &out->world);
        bound_matrix(&out->world);
    }
}

/* Memory wanted soon: a pose's lines (its hints are read, all of it is
 * written), and the segment records a record's hints point to. Always
 * inlined: GCC deems a function that only prefetches "pure" and deletes
 * calls to it. */
#if defined(__GNUC__) && !defined(KF3DS_PLAIN_C)
static inline __attribute__((always_inline)) void prefetch_pose(const kf3ds_pose *p)
{
    const char *c = (const char *)p;
    __builtin_prefetch(c, 1);
    __builtin_prefetch(c + 64, 1);
    __builtin_prefetch(c + 128, 1);
}

static inline __attribute__((always_inline)) void prefetch_segments(const kf3ds__plan_node *r,
                                                                    const kf3ds_pose *p)
{
    const kf3ds__track_view *v = plan_views(r), *end = v + r->num_tracks;
    for (; v < end; v++) {
        uint32_t h = p->segment_hint_[v->kind];
        if (v->seg && h < v->num_keys - 1) {
            const float *rec = v->seg + (size_t)h * v->stride;
            __builtin_prefetch(rec);
            __builtin_prefetch(rec + v->stride - 1);
        }
    }
}
#else
#define prefetch_pose(p) ((void)(p))
#define prefetch_segments(r, p) ((void)(r), (void)(p))
#endif

/* Nodes go in groups of KF3DS__SQUAD_LANES in evaluation order (the plan's
 * order): the values of the whole group, then its squad batch, then the
 * world matrices, parents first, which the order guarantees across and
 * within groups (a node that never moves gets its world with its values). */
void kf3ds_scene_eval(const kf3ds_scene *scene, double frame, unsigned flags, kf3ds_pose *poses)
{
    const kf3ds__plan *plan;
    const kf3ds__plan_node *r, *ahead, *placing[KF3DS__SQUAD_LANES];
    kf3ds__squad_batch batch;
    uint32_t i, j, end, num;
    unsigned k, n;
    int in_order;
    if (!scene || !poses || !(plan = plan_of(scene)))
        return;
    num = plan->num_nodes;
    in_order = plan->in_node_order;
    r = ahead = (const kf3ds__plan_node *)(const void *)plan->records;
    for (i = 0; i < num && i < KF3DS__SQUAD_LANES; i++)
        ahead = plan_next(ahead);
    batch.n = 0;
    for (i = 0; i < num; i = end) {
        end = num - i > KF3DS__SQUAD_LANES ? i + KF3DS__SQUAD_LANES : num;
        for (j = i, n = 0; j < end; j++, r = plan_next(r)) {
            kf3ds_pose *p = &poses[r->node];
            /* Memory ahead of use: poses two groups ahead (when they are not
             * in memory order, which the hardware would see), then the
             * segment records their hints point to one group ahead. */
            if (!in_order && j + 2 * KF3DS__SQUAD_LANES < num)
                prefetch_pose(&poses[scene->eval_order[j + 2 * KF3DS__SQUAD_LANES]]);
            if (j + KF3DS__SQUAD_LANES < num) {
                if (ahead->num_tracks)
                    prefetch_segments(ahead, &poses[ahead->node]);
                ahead = plan_next(ahead);
            }
            eval_values(r, frame, flags, p, &batch);
            if (r->local == PLAN_LOCAL_STATIC)
                memcpy(&p->world, plan_tail(r), sizeof p->world);
            else
                placing[n++] = r;
        }
        if (batch.n)
            squad_batch_run(&batch);
        for (k = 0; k < n; k++) {
            const kf3ds__plan_node *q = placing[k];
            place(q, &poses[q->node], q->parent != KF3DS_NONE ? &poses[q->parent].world : NULL);
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
