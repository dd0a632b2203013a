/* Building the evaluation plan (eval_plan.h) at the end of a load, from the
 * linked nodes: what a node's pose is before its tracks (docs/evaluation.md,
 * "Transforms"), the tracks with one key folded into it (a track with one
 * key has that key's value at every frame), the others as views, and the
 * local matrix of nodes nothing of whose placement is animated. */
#include "eval_plan.h"
#include "plan_build.h"
#include "scene_internal.h"
#include "world_rows.h"
#include <string.h>

/* NODE_HDR flags1: the node starts hidden (docs/evaluation.md, "Hide and morph tracks"). */
#define NODE_HIDDEN 0x0800
#define BIT(k) (1u << (k))
#define PLACING (BIT(KF3DS_TRACK_POS) | BIT(KF3DS_TRACK_ROT) | BIT(KF3DS_TRACK_SCL))

/* The pose before any track: the defaults, and what the editor objects say. */
static void base_pose(const kf3ds_scene *s, const kf3ds_node *n, kf3ds_pose *p)
{
    memset(p, 0, sizeof *p);
    kf3ds__quat_identity(p->rotation);
    p->scale[0] = p->scale[1] = p->scale[2] = 1.0f;
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
}

/* Applies a track with one key, as evaluating it would. */
static void fold_constant(const kf3ds_track *t, kf3ds_track_kind kind, kf3ds_pose *p)
{
    const kf3ds_key *k = &t->keys[0];
    switch (kind) {
    case KF3DS_TRACK_POS: memcpy(p->position, k->value, sizeof p->position); break;
    case KF3DS_TRACK_ROT: memcpy(p->rotation, k->quat, sizeof p->rotation); break;
    case KF3DS_TRACK_SCL: memcpy(p->scale, k->value, sizeof p->scale); break;
    case KF3DS_TRACK_COL: memcpy(p->color, k->value, sizeof p->color); break;
    case KF3DS_TRACK_FOV: p->fov = k->value[0]; break;
    case KF3DS_TRACK_ROLL: p->roll = k->value[0]; break;
    case KF3DS_TRACK_HOT: p->hotspot = k->value[0]; break;
    case KF3DS_TRACK_FALL: p->falloff = k->value[0]; break;
    case KF3DS_TRACK_MORPH: p->morph_mesh = k->morph_mesh; break;
    default: break; /* HIDE: one key does not toggle */
    }
}

/* Bits of the tracks evaluated each frame: active ones with two keys or more. */
static unsigned animated_tracks(const kf3ds_node *n)
{
    unsigned bits = 0, k;
    for (k = 0; k < KF3DS_TRACK_COUNT; k++)
        if ((n->active_tracks_ & BIT(k)) && n->tracks[k].num_keys >= 2)
            bits |= BIT(k);
    return bits;
}

static unsigned count_bits(unsigned v)
{
    unsigned c = 0;
    for (; v; v &= v - 1)
        c++;
    return c;
}

/* How node n's world is made, its parent's already known (parent_local:
 * PLAN_LOCAL_STATIC for a root). */
static uint8_t local_kind(const kf3ds_node *n, unsigned animated, uint8_t parent_local)
{
    int fixed;
    if (n->type == KF3DS_NODE_AMBIENT)
        return PLAN_LOCAL_STATIC;
    fixed = n->type == KF3DS_NODE_OBJECT ? !(animated & PLACING)
                                         : !(animated & BIT(KF3DS_TRACK_POS));
    if (!fixed)
        return n->type == KF3DS_NODE_OBJECT ? PLAN_LOCAL_TRS
               : n->parent == KF3DS_NONE    ? PLAN_LOCAL_ROOT_T
                                            : PLAN_LOCAL_T;
    return parent_local == PLAN_LOCAL_STATIC ? PLAN_LOCAL_STATIC : PLAN_LOCAL_FIXED;
}

/* Bytes of a record with these tracks and local kind. */
static size_t record_bytes(unsigned animated, uint8_t local)
{
    size_t b = sizeof(kf3ds__plan_node) + count_bits(animated) * sizeof(kf3ds__track_view);
    if (local == PLAN_LOCAL_FIXED)
        b += 12 * sizeof(float);
    else if (local == PLAN_LOCAL_STATIC)
        b += sizeof(kf3ds_mat4);
    return (b + 15) / 16 * 16;
}

/* Writes node i's record; parent is its parent's record (NULL for a root). */
static void write_record(const kf3ds_scene *s, uint32_t i, uint8_t local,
                         const kf3ds__plan_node *parent, kf3ds__plan_node *r,
                         kf3ds__view_cold *cold)
{
    const kf3ds_node *n = &s->nodes[i];
    unsigned animated = animated_tracks(n), k;
    kf3ds__track_view *v = (kf3ds__track_view *)(void *)(r + 1);
    kf3ds_pose p;
    float l[3][4];
    memset(r, 0, sizeof *r);
    r->node = i;
    r->parent = n->parent;
    r->local = local;
    r->type = (uint8_t)n->type;
    r->num_tracks = (uint8_t)count_bits(animated);
    r->animated = (uint16_t)animated;
    r->size = (uint16_t)(record_bytes(animated, local) / 16);
    base_pose(s, n, &p);
    for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
        if (!(n->active_tracks_ & BIT(k)))
            continue;
        if (animated & BIT(k))
            kf3ds__view_of(&n->tracks[k], (kf3ds_track_kind)k, v++, cold++);
        else
            fold_constant(&n->tracks[k], (kf3ds_track_kind)k, &p);
    }
    memcpy(r->values, &p.position, PLAN_POSE_VALUES);
    if (local != PLAN_LOCAL_FIXED && local != PLAN_LOCAL_STATIC)
        return;
    if (n->type == KF3DS_NODE_OBJECT)
        plan_object_rows(p.position, p.rotation, p.scale, l);
    else
        plan_translation_rows(p.position, l);
    if (local == PLAN_LOCAL_FIXED) {
        memcpy(v, l, sizeof l);
    } else {
        /* the world matrix evaluation would make every frame, made once */
        kf3ds_mat4 world;
        if (n->type == KF3DS_NODE_AMBIENT)
            kf3ds_mat4_identity(&world);
        else
            kf3ds__world_rows(parent ? (const kf3ds_mat4 *)(const void *)plan_tail(parent) : NULL,
                              (const float(*)[4])l, 0, &world);
        memcpy(v, &world, sizeof world);
    }
}

void kf3ds__plan_build(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    kf3ds__scene_internal *in = (kf3ds__scene_internal *)s->internal_;
    kf3ds__plan *plan;
    unsigned char *records;
    uint8_t *local;
    uint32_t *record_of, i, views = 0;
    kf3ds__view_cold *cold;
    size_t bytes = 0, at = 0;
    if (!s->num_nodes || !s->eval_order || kf3ds__arena_failed(ctx->arena))
        return;
    local = (uint8_t *)kf3ds__arena_alloc_raw(ctx->arena, s->num_nodes, 1);
    if (!local)
        return;
    for (i = 0; i < s->num_nodes; i++) { /* parents first */
        uint32_t node = s->eval_order[i];
        const kf3ds_node *n = &s->nodes[node];
        local[node] = local_kind(n, animated_tracks(n),
                                 n->parent == KF3DS_NONE ? PLAN_LOCAL_STATIC : local[n->parent]);
        bytes += record_bytes(animated_tracks(n), local[node]);
        views += count_bits(animated_tracks(n));
    }
    plan = (kf3ds__plan *)kf3ds__arena_alloc(ctx->arena, 1, sizeof *plan);
    record_of = (uint32_t *)kf3ds__arena_alloc_raw(ctx->arena, s->num_nodes, sizeof(uint32_t));
    /* 16-aligned; then an end record of no size and no tracks, zeroed, at
     * which the evaluation's look-ahead stops without a test of its own */
    records = (unsigned char *)kf3ds__arena_alloc(ctx->arena, bytes + sizeof(kf3ds__plan_node), 1);
    /* the views' cold parts (track_eval.h), in the records' order; one more,
     * so that the pointer is never NULL */
    cold = (kf3ds__view_cold *)kf3ds__arena_alloc(ctx->arena, (size_t)views + 1, sizeof *cold);
    if (!plan || !record_of || !records || !cold)
        return;
    views = 0;
    for (i = 0; i < s->num_nodes; i++) {
        uint32_t node = s->eval_order[i];
        int32_t parent = s->nodes[node].parent;
        kf3ds__plan_node *r = (kf3ds__plan_node *)(void *)(records + at);
        record_of[node] = (uint32_t)(at / 16);
        write_record(s, node, local[node],
                     parent == KF3DS_NONE ? NULL
                                          : (const kf3ds__plan_node *)(const void *)(
                                                records + (size_t)record_of[parent] * 16),
                     r, cold + views);
        at += (size_t)r->size * 16;
        views += r->num_tracks;
    }
    plan->records = records;
    plan->record_of = record_of;
    plan->num_nodes = s->num_nodes;
    plan->in_node_order = 1;
    plan->frame_loop = kf3ds__eval_frame_pick();
    for (i = 0; i < s->num_nodes; i++)
        if (s->eval_order[i] != i)
            plan->in_node_order = 0;
    in->plan = plan;
}
