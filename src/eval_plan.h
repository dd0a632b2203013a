/* The evaluation plan (docs/architecture.md, "Evaluation"): one record per
 * node, in evaluation order (parents first), holding everything a frame's
 * evaluation of the node reads: its pose with every constant track already
 * applied, the views of its animated tracks, and, when nothing that places
 * it is animated, its local matrix. Built at load by eval_plan.c, read by
 * eval.c; never written after. */
#ifndef KF3DS_EVAL_PLAN_H
#define KF3DS_EVAL_PLAN_H
#include "track_eval.h"
#include <stddef.h>

/* The pose fields from position to morph_mesh, which a record's `values`
 * holds in the pose's own layout and evaluation copies in one go. */
#define PLAN_POSE_VALUES (offsetof(kf3ds_pose, segment_hint_) - offsetof(kf3ds_pose, position))

/* How a node's world matrix is made. */
enum {
    PLAN_LOCAL_TRS,   /* parent · T(position)·R(rotation)·S(scale) (objects), some animated */
    PLAN_LOCAL_T,     /* parent · T(position) (cameras, lights, targets), position animated */
    PLAN_LOCAL_ROOT_T, /* T(position) for such a node without a parent: placed with its values,
                        * not after its group (docs/performance.md, "Evaluation") */
    PLAN_LOCAL_FIXED, /* parent · L, nothing of L animated: the record holds L's top rows */
    PLAN_LOCAL_STATIC /* nothing of it or of its ancestors' placement animated, or an
                       * ambient node (the identity): the record holds the world matrix */
};

typedef struct kf3ds__plan_node {
    uint32_t node;       /* index into nodes and poses */
    int32_t parent;      /* the parent's index, KF3DS_NONE for a root */
    uint8_t local;       /* PLAN_LOCAL_... */
    uint8_t num_tracks;  /* animated tracks (two keys or more) */
    uint16_t size;       /* bytes to the next record, in 16s */
    uint8_t type;        /* kf3ds_node_type */
    uint8_t reserved;
    uint16_t animated;   /* bit k: tracks[k] is animated; its view is among the
                          * num_tracks, in kind order */
    unsigned char values[(PLAN_POSE_VALUES + 15) / 16 * 16]; /* (padded: views are aligned) */
    /* then num_tracks track views; then the tail: for PLAN_LOCAL_FIXED the
     * local matrix's three top rows (12 floats), for PLAN_LOCAL_STATIC the
     * world matrix (a kf3ds_mat4) */
} kf3ds__plan_node;

/* Which compiled copy of kf3ds_scene_eval's frame loop (eval_loop.h) a plan
 * runs, chosen once when it is built (kf3ds__eval_frame_pick, eval.c). */
enum { KF3DS__FRAME_TARGET, /* kf3ds__eval_frame (eval.c): the build's target */
       KF3DS__FRAME_AVX2    /* kf3ds__eval_frame_avx2 (eval_avx2.c) */ };
int kf3ds__eval_frame_pick(void);

typedef struct kf3ds__plan {
    const unsigned char *records; /* kf3ds__plan_node records, in evaluation order, then
                                   * an end record: size 0, no tracks */
    const uint32_t *record_of;    /* per node: the offset of its record, in 16s */
    uint32_t num_nodes;
    int in_node_order;            /* evaluation order is the nodes' (and poses') order */
    int frame_loop;               /* KF3DS__FRAME_..., kf3ds__eval_frame_pick's choice */
} kf3ds__plan;

typedef char kf3ds__plan_views_aligned[sizeof(kf3ds__plan_node) % 16 == 0 ? 1 : -1];

static inline const kf3ds__track_view *plan_views(const kf3ds__plan_node *r)
{
    return (const kf3ds__track_view *)(const void *)((const unsigned char *)r +
                                                    sizeof(kf3ds__plan_node));
}

static inline const float *plan_tail(const kf3ds__plan_node *r)
{
    return (const float *)(const void *)(plan_views(r) + r->num_tracks);
}

static inline const kf3ds__plan_node *plan_record(const kf3ds__plan *p, uint32_t node)
{
    return (const kf3ds__plan_node *)(const void *)(p->records +
                                                    (size_t)p->record_of[node] * 16);
}

static inline const kf3ds__plan_node *plan_next(const kf3ds__plan_node *r)
{
    return (const kf3ds__plan_node *)(const void *)((const unsigned char *)r +
                                                    (size_t)r->size * 16);
}

/* The three top rows of an object's local matrix T(pos)·R(q)·S(scl) and of
 * the others' T(pos): evaluation makes them from the pose each frame, the
 * plan once for a PLAN_LOCAL_FIXED node, with the same operations. */
static inline void plan_object_rows(const float pos[3], const float q[4], const float scl[3],
                                    float l[3][4])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float len = x * x + y * y + z * z + w * w;
    float k = len > 0.0f ? 2.0f / len : 0.0f;
    float xx = x * x * k, yy = y * y * k, zz = z * z * k;
    float xy = x * y * k, xz = x * z * k, yz = y * z * k;
    float wx = w * x * k, wy = w * y * k, wz = w * z * k;
    l[0][0] = (1.0f - (yy + zz)) * scl[0];
    l[0][1] = (xy - wz) * scl[1];
    l[0][2] = (xz + wy) * scl[2];
    l[1][0] = (xy + wz) * scl[0];
    l[1][1] = (1.0f - (xx + zz)) * scl[1];
    l[1][2] = (yz - wx) * scl[2];
    l[2][0] = (xz - wy) * scl[0];
    l[2][1] = (yz + wx) * scl[1];
    l[2][2] = (1.0f - (xx + yy)) * scl[2];
    l[0][3] = pos[0];
    l[1][3] = pos[1];
    l[2][3] = pos[2];
}

static inline void plan_translation_rows(const float pos[3], float l[3][4])
{
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++)
            l[i][j] = i == j ? 1.0f : 0.0f;
        l[i][3] = pos[i];
    }
}

#endif
