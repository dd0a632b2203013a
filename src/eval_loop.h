/* The frame loop of kf3ds_scene_eval (docs/architecture.md, "Evaluation"):
 * a node's values from its plan record, its world matrix, the squad batch
 * and the prefetching, all inline. Included by eval.c, which compiles it for
 * the build's target and uses its steps for kf3ds_node_eval too, and by
 * eval_avx2.c, which compiles the same code once more for CPUs with AVX2.
 * Nothing here allocates or writes to the scene. */
#ifndef KF3DS_EVAL_LOOP_H
#define KF3DS_EVAL_LOOP_H
#include "eval_plan.h"
#include "kmath.h"
#include "scene_internal.h"
#include "world_rows.h"
#include <math.h>
#include <string.h>

/* The per-node steps are inlined into kf3ds_scene_eval's loop
 * (KF3DS__ALWAYS_INLINE, kmath.h): they are small beside the calls' cost on
 * a node with constant tracks. */

/* The world matrix, once the pose's values are in: parent · L, L the local
 * matrix: T(pos)·R(rot)·S(scl) for objects, T(pos) for cameras, lights and
 * targets (docs/evaluation.md, "Transforms"), or the plan's for a node that
 * never moves; parent may be NULL. This runs for every node of every frame. */
static KF3DS__ALWAYS_INLINE void place(const kf3ds__plan_node *r, kf3ds_pose *p,
                                       const kf3ds_mat4 *parent)
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
    default: /* PLAN_LOCAL_T, PLAN_LOCAL_ROOT_T */
        if (!parent) {
            kf3ds__translation_world(p->position, &p->world);
            return;
        }
        plan_translation_rows(p->position, l);
        break;
    }
    kf3ds__world_rows(parent, (const float(*)[4])l, 1, &p->world);
}

/* The tracks other than an object's position, rotation and scale, each in
 * its own small function: called in kind order (the order of the views), by
 * a test per kind rather than a switch, so that each test's branch sees the
 * same outcome for every node of a type (a switch's one indirect jump, taken
 * to a different case per track, mispredicted). */
static KF3DS__ALWAYS_INLINE void eval_vector_view(const kf3ds__track_view *v, double frame,
                                                  int maybe_nan, unsigned ease, uint32_t *hint,
                                                  float *out)
{
    view_vector(v, frame, maybe_nan, ease, hint, out, 3);
}

static KF3DS__ALWAYS_INLINE void eval_scalar_view(const kf3ds__track_view *v, double frame,
                                                  int maybe_nan, unsigned ease, uint32_t *hint,
                                                  float *out)
{
    view_vector(v, frame, maybe_nan, ease, hint, out, 1);
}

#define BIT(k) (1u << (k))
#define OBJECT_TRS (BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_ROT) | BIT(KF3DS_TRACK_SCL))

/* The node's pose from its plan record, all but the world matrix: the
 * record's values (defaults and constant tracks), then each animated track.
 * Squad rotations go to the batch, which writes p->rotation when it runs.
 * The segment hints in *p are kept; every other field is written. The
 * commonest node, an object whose position, rotation and scale are all
 * animated and nothing else, has its three tracks inline. The other kinds
 * are tested in groups, so that a node skips the tests of kinds its type
 * does not animate: a target or an object seven tests fewer, a camera or an
 * omni light three, a spotlight one more (docs/performance.md, "Evaluation"). */
static KF3DS__ALWAYS_INLINE void eval_values(const kf3ds__plan_node *r, double frame,
                                             int maybe_nan, unsigned ease, kf3ds_pose *p,
                                             kf3ds__squad_batch *batch)
{
    const kf3ds__track_view *v = plan_views(r);
    unsigned animated = r->animated;
    uint32_t *hint = p->segment_hint_;
    memcpy(p->position, r->values, PLAN_POSE_VALUES);
    if (!animated)
        return;
    if (animated == OBJECT_TRS) {
        view_vector(&v[0], frame, maybe_nan, ease, &hint[KF3DS_TRACK_POS], p->position, 3);
        view_rotation(&v[1], frame, maybe_nan, ease, &hint[KF3DS_TRACK_ROT], p->rotation, batch);
        view_vector(&v[2], frame, maybe_nan, ease, &hint[KF3DS_TRACK_SCL], p->scale, 3);
        return;
    }
    if (animated & BIT(KF3DS_TRACK_POS))
        eval_vector_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_POS], p->position);
    if (animated & (BIT(KF3DS_TRACK_ROT) | BIT(KF3DS_TRACK_SCL))) {
        if (animated & BIT(KF3DS_TRACK_ROT))
            view_rotation(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_ROT], p->rotation,
                          batch);
        if (animated & BIT(KF3DS_TRACK_SCL))
            eval_vector_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_SCL], p->scale);
    }
    if (!(animated & ~OBJECT_TRS))
        return;
    if (animated & BIT(KF3DS_TRACK_FOV))
        eval_scalar_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_FOV], &p->fov);
    if (animated & BIT(KF3DS_TRACK_ROLL))
        eval_scalar_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_ROLL], &p->roll);
    if (animated & BIT(KF3DS_TRACK_COL))
        eval_vector_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_COL], p->color);
    if (!(animated & (BIT(KF3DS_TRACK_MORPH) | BIT(KF3DS_TRACK_HOT) | BIT(KF3DS_TRACK_FALL) |
                      BIT(KF3DS_TRACK_HIDE))))
        return;
    if (animated & BIT(KF3DS_TRACK_MORPH)) {
        p->morph_mesh =
            v->cold->keys[view_morph_key(v, frame, &hint[KF3DS_TRACK_MORPH])].morph_mesh;
        v++;
    }
    if (animated & BIT(KF3DS_TRACK_HOT))
        eval_scalar_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_HOT], &p->hotspot);
    if (animated & BIT(KF3DS_TRACK_FALL))
        eval_scalar_view(v++, frame, maybe_nan, ease, &hint[KF3DS_TRACK_FALL], &p->falloff);
    if (animated & BIT(KF3DS_TRACK_HIDE))
        p->hidden |= (uint8_t)view_hidden(v, frame, &hint[KF3DS_TRACK_HIDE]);
}
typedef char kf3ds__track_kinds_in_view_order
    [KF3DS_TRACK_POS == 0 && KF3DS_TRACK_ROT == 1 && KF3DS_TRACK_SCL == 2 &&
     KF3DS_TRACK_FOV == 3 && KF3DS_TRACK_ROLL == 4 && KF3DS_TRACK_COL == 5 &&
     KF3DS_TRACK_MORPH == 6 && KF3DS_TRACK_HOT == 7 && KF3DS_TRACK_FALL == 8 &&
     KF3DS_TRACK_HIDE == 9 ? 1 : -1];

/* Memory wanted soon: a pose's lines (its hints are read, all of it is
 * written), and the segment records a record's hints point to. Always
 * inlined: GCC deems a function that only prefetches "pure" and deletes
 * calls to it. */
static KF3DS__ALWAYS_INLINE void prefetch_pose(const kf3ds_pose *p)
{
    const char *c = (const char *)p;
    KF3DS__PREFETCH_WRITE(c);
    KF3DS__PREFETCH_WRITE(c + 64);
    KF3DS__PREFETCH_WRITE(c + 128);
}

/* The records a view's hint points to: its first and last line, worked out
 * as integers, since a stale hint may point anywhere (prefetching any
 * address is harmless). */
static KF3DS__ALWAYS_INLINE void prefetch_record(const kf3ds__track_view *v, const kf3ds_pose *p)
{
    uintptr_t rec = (uintptr_t)v->seg + (uintptr_t)p->segment_hint_[v->kind] * v->record_bytes;
    KF3DS__PREFETCH_READ((const void *)rec);
    KF3DS__PREFETCH_READ((const void *)(rec + v->record_bytes - sizeof(float)));
}

/* Those of every view of a record with tracks: the first three by tests
 * (an object's), the rest in a loop, so that a spotlight's hotspot and
 * falloff records are not fetched only when read (docs/performance.md,
 * "Evaluation", "Prefetching"). */
static KF3DS__ALWAYS_INLINE void prefetch_segments(const kf3ds__plan_node *r,
                                                  const kf3ds_pose *p)
{
    const kf3ds__track_view *v = plan_views(r);
    unsigned k;
    prefetch_record(v, p);
    if (r->num_tracks > 1)
        prefetch_record(v + 1, p);
    if (r->num_tracks > 2) {
        prefetch_record(v + 2, p);
        for (k = 3; k < r->num_tracks; k++)
            prefetch_record(v + k, p);
    }
}

/* Nodes go in groups of KF3DS__SQUAD_LANES in evaluation order (the plan's
 * order): the values of the whole group, then, once the squad batch is full
 * or empty, the batch and the world matrices of the nodes waiting for them,
 * parents first, which the order guarantees (a node that never moves, or a
 * root placed by its position alone, gets its world with its values). A
 * group with fewer rotations than lanes leaves its nodes waiting, up to
 * PLACING_MAX of them, so that scenes with few animated rotations still run
 * the batch with its lanes full (docs/performance.md, "Evaluation":
 * bench-constant). maybe_nan 0: frame is not NaN; in_order: the plan's order
 * is the poses' (both tested once, see kf3ds_scene_eval). */
#define PLACING_MAX (8 * KF3DS__SQUAD_LANES)

static KF3DS__ALWAYS_INLINE void eval_plan(const kf3ds_scene *scene, const kf3ds__plan *plan,
                                           double frame, int maybe_nan, int in_order,
                                           unsigned ease, kf3ds_pose *poses)
{
    const kf3ds__plan_node *r, *ahead, *placing[PLACING_MAX];
    kf3ds__squad_batch batch;
    uint32_t i, j, end, num;
    unsigned k, n = 0;
    num = plan->num_nodes;
    r = ahead = (const kf3ds__plan_node *)(const void *)plan->records;
    for (i = 0; i < KF3DS__SQUAD_LANES; i++) /* it stops at the end record */
        ahead = plan_next(ahead);
    batch.n = 0;
    for (i = 0; i < num; i = end) {
        end = num - i > KF3DS__SQUAD_LANES ? i + KF3DS__SQUAD_LANES : num;
        for (j = i; j < end; j++, r = plan_next(r)) {
            kf3ds_pose *p = in_order ? &poses[j] : &poses[r->node]; /* node j when in order */
            /* Memory ahead of use: poses two groups ahead (when they are not
             * in memory order, which the hardware would see), then the
             * segment records their hints point to one group ahead. */
            if (!in_order && j + 2 * KF3DS__SQUAD_LANES < num)
                prefetch_pose(&poses[scene->eval_order[j + 2 * KF3DS__SQUAD_LANES]]);
            if (ahead->num_tracks)
                prefetch_segments(ahead, in_order ? &poses[j + KF3DS__SQUAD_LANES]
                                                  : &poses[ahead->node]);
            ahead = plan_next(ahead);
            eval_values(r, frame, maybe_nan, ease, p, &batch);
            if (r->local == PLAN_LOCAL_STATIC)
                memcpy(&p->world, plan_tail(r), sizeof p->world);
            else if (r->local == PLAN_LOCAL_ROOT_T)
                kf3ds__translation_world(p->position, &p->world);
            else
                placing[n++] = r;
        }
        if (end < num && (!n || (batch.n && batch.n < KF3DS__SQUAD_LANES &&
                                 n <= PLACING_MAX - KF3DS__SQUAD_LANES)))
            continue; /* nothing to place, or room to wait for more rotations */
        if (batch.n)
            squad_batch_run(&batch);
        for (k = 0; k < n; k++) {
            const kf3ds__plan_node *q = placing[k];
            place(q, &poses[q->node], q->parent != KF3DS_NONE ? &poses[q->parent].world : NULL);
        }
        n = 0;
    }
}

/* A NaN frame holds every track's first key; it is tested here once rather
 * than by each track, and whether the poses are visited in memory order
 * once rather than by each node: four copies of the loop (docs/performance.md,
 * "Evaluation"). */
static KF3DS__ALWAYS_INLINE void eval_frame(const kf3ds_scene *scene, const kf3ds__plan *plan,
                                            double frame, unsigned flags, kf3ds_pose *poses)
{
    if (plan->in_node_order) {
        if (frame != frame)
            eval_plan(scene, plan, frame, 1, 1, view_ease(flags), poses);
        else
            eval_plan(scene, plan, frame, 0, 1, view_ease(flags), poses);
    } else {
        if (frame != frame)
            eval_plan(scene, plan, frame, 1, 0, view_ease(flags), poses);
        else
            eval_plan(scene, plan, frame, 0, 0, view_ease(flags), poses);
    }
}

/* eval_frame compiled for the build's target (eval.c) and, in eval_avx2.c,
 * for AVX2 (eval.c asks cpu_avx2.h whether the CPU runs it) */
void kf3ds__eval_frame(const kf3ds_scene *scene, const kf3ds__plan *plan, double frame,
                       unsigned flags, kf3ds_pose *poses);
#if defined(KF3DS__AVX2)
void kf3ds__eval_frame_avx2(const kf3ds_scene *scene, const kf3ds__plan *plan, double frame,
                            unsigned flags, kf3ds_pose *poses);
#else
/* never chosen without AVX2 code (kf3ds__eval_frame_pick) */
#define kf3ds__eval_frame_avx2 kf3ds__eval_frame
#endif

#endif
