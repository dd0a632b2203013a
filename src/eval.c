/* Node and scene evaluation, mesh placement and camera views
 * (docs/evaluation.md, "Transforms", "Mesh placement", "Cameras").
 * Nothing here allocates or writes to the scene. */
#include "eval_loop.h"
#include "cpu_avx2.h"
#include "kmath.h"
#include "scene_internal.h"
#include "world_rows.h"
#include <math.h>
#include <string.h>

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

/* One node's pose with its local matrix as the world (kf3ds_node_eval). */
static void eval_one(const kf3ds__plan_node *r, double frame, unsigned flags, kf3ds_pose *p)
{
    kf3ds__squad_batch batch;
    batch.n = 0;
    eval_values(r, frame, 1, view_ease(flags), p, &batch);
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
    if (scene->nodes[node].type == KF3DS_NODE_AMBIENT || (flags & KF3DS_EVAL_LOCAL))
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

/* The frame loop (eval_loop.h) for the build's target; eval_avx2.c compiles
 * it once more for AVX2, and the plan says which one this CPU runs, chosen
 * when the plan is built (docs/architecture.md, "Fast paths"). A flag and
 * direct calls rather than a function pointer: taking a function's address
 * would ask a freestanding build for a global offset table. */
void kf3ds__eval_frame(const kf3ds_scene *scene, const kf3ds__plan *plan, double frame,
                       unsigned flags, kf3ds_pose *poses)
{
    eval_frame(scene, plan, frame, flags, poses);
}

int kf3ds__eval_frame_pick(void)
{
#if defined(KF3DS__AVX2)
    if (kf3ds__cpu_avx2())
        return KF3DS__FRAME_AVX2;
#endif
    return KF3DS__FRAME_TARGET;
}

void kf3ds_scene_eval(const kf3ds_scene *scene, double frame, unsigned flags, kf3ds_pose *poses)
{
    const kf3ds__plan *plan;
    if (!scene || !poses || !(plan = plan_of(scene)))
        return;
    if (plan->frame_loop == KF3DS__FRAME_AVX2)
        kf3ds__eval_frame_avx2(scene, plan, frame, flags, poses);
    else
        kf3ds__eval_frame(scene, plan, frame, flags, poses);
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
