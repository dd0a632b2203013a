/* libFuzzer target: kf3ds_load_memory, then everything a front end does with
 * the scene: evaluate every node at several frames (fractional, negative,
 * huge, NaN), place every mesh vertex, camera views, bounds, and a tiny render
 * (32×24) through the scene renderer.
 *
 * Oracles beyond the sanitizers (abort() = a finding):
 *  - the scene's indices are in range (parents, meshes, order, faces...);
 *  - for every finite frame every world matrix, every pose value, every mesh
 *    matrix, every placed vertex and every camera view is finite
 *    ("numbers that cannot explode", docs/robustness.md);
 *  - loading allocates at most the documented bound (C × size + overhead). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "../tests/support.h" /* the oracles, shared with tests/front/test_fuzz_regressions.c */

static void finding(const char *what, double v)
{
    fprintf(stderr, "fuzz_load: %s (%g)\n", what, v);
    abort();
}

#define CHECK(cond, v)                                                    \
    do {                                                                  \
        if (!(cond))                                                      \
            finding(#cond, (double)(v));                                  \
    } while (0)

/* A counting allocator: the peak of what the scene holds. */
typedef struct counter {
    size_t bytes, peak;
} counter;

typedef union header {
    size_t size;
    max_align_t align;
} header;

static void *c_malloc(size_t size, void *user)
{
    counter *c = (counter *)user;
    header *h = (header *)malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->bytes += size;
    if (c->bytes > c->peak)
        c->peak = c->bytes;
    return h + 1;
}

static void c_free(void *p, void *user)
{
    counter *c = (counter *)user;
    header *h;
    if (!p)
        return;
    h = (header *)p - 1;
    c->bytes -= h->size;
    free(h);
}

/* Vertex placements are capped per input so that huge meshes stay fast. */
#define MAX_PLACED 200000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    counter c = { 0, 0 };
    kf3ds_load_options o;
    kf3ds_diag err;
    kf3ds_scene *s;

    memset(&o, 0, sizeof o);
    o.allocator.malloc_fn = c_malloc;
    o.allocator.free_fn = c_free;
    o.allocator.user = &c;
    s = kf3ds_load_memory(data, size, &o, &err);
    CHECK(c.peak <= SUPPORT_BOUND_PER_BYTE * size + SUPPORT_BOUND_FIXED, c.peak);
    if (!s) {
        CHECK(err.code != KF3DS_OK, err.code);
        CHECK(c.bytes == 0, c.bytes);
        return 0;
    }
    support_exercise_scene(s, MAX_PLACED, (unsigned)size, 1, finding);
    kf3ds_scene_free(s);
    CHECK(c.bytes == 0, c.bytes);
    return 0;
}
