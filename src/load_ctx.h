/* The state of one load, shared by the loader (load.c), the readers of the
 * two sections and the reading helpers. */
#ifndef KF3DS_LOAD_CTX_H
#define KF3DS_LOAD_CTX_H
#include "kf3ds.h"
#include "arena.h"
#include "source.h"

/* Loading reads the file twice (docs/architecture.md, "Memory"): the
 * counting pass only counts meshes, materials, cameras, lights and nodes, the
 * filling pass reads everything into arrays of exactly that size. */
typedef enum kf3ds__pass { KF3DS__PASS_COUNT, KF3DS__PASS_FILL } kf3ds__pass;

typedef struct kf3ds__load_ctx {
    kf3ds_scene *scene;
    kf3ds__arena *arena;    /* the scene's memory */
    kf3ds_limits limits;    /* defaults filled in */
    kf3ds__pass pass;
    kf3ds_diag first_error;
    uint32_t diags_cap;     /* room in scene->diags */
    /* Array sizes found by the counting pass; the filling pass never exceeds them. */
    uint32_t cap_meshes, cap_materials, cap_cameras, cap_lights, cap_nodes;
    uint32_t nodes_counted; /* node chunks in the file, before the node limit */
    /* What saving needs (KF3DS_LOAD_KEEP_SOURCE, or the builder); NULL: keep nothing. */
    kf3ds__source *source;
    /* Rotation tracks' setup (track_setup.h), chosen once per load; NULL:
     * track setup asks kf3ds__rotation_setup_pick. */
    const struct kf3ds__rotation_setup *rotations;
} kf3ds__load_ctx;

#endif
