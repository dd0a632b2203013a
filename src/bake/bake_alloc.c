/* The bake module's blocks (bake_internal.h): every one from the plan's
 * allocator. A unit of its own so that bake_mesh.c and bake_image.c call
 * down to it, not back up into bake.c (no unit loops, docs/architecture.md
 * "Rules"). */
#include "bake_internal.h"
#include <string.h>

void *kf3ds__bake_malloc(const bake_plan *plan, size_t size)
{
    return plan->alloc->malloc_fn(size ? size : 1, plan->alloc->user);
}

void *kf3ds__bake_calloc(const bake_plan *plan, size_t n, size_t size)
{
    void *p = kf3ds__bake_malloc(plan, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void kf3ds__bake_free(const bake_plan *plan, void *p)
{
    if (p)
        plan->alloc->free_fn(p, plan->alloc->user);
}
