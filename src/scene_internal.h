/* What a loaded or built scene's internal_ points to: the arena that owns all
 * of the scene's memory, and the evaluation plan built from it at load (or
 * when the builder finishes). Private to the core (load.c, builder.c,
 * eval_plan.c, eval.c). */
#ifndef KF3DS_SCENE_INTERNAL_H
#define KF3DS_SCENE_INTERNAL_H
#include "arena.h"

struct kf3ds__plan;

typedef struct kf3ds__scene_internal {
    kf3ds__arena *arena;
    const struct kf3ds__plan *plan; /* NULL: nothing to evaluate */
} kf3ds__scene_internal;

#endif
