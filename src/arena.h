/* A block arena on a caller's allocator: many small allocations, released
 * all at once. A loaded scene lives in one (kf3ds_scene_free destroys it);
 * any other module may make its own on its own allocator hooks. */
#ifndef KF3DS_ARENA_H
#define KF3DS_ARENA_H
#include "kf3ds.h"

typedef struct kf3ds__arena kf3ds__arena;

/* The default hooks (alloc_default.c); all NULL in a build with
 * KF3DS_NO_DEFAULT_ALLOCATOR. */
kf3ds_allocator kf3ds__default_allocator(void);

/* The allocator that hooks `given` (may be NULL) ask for: the caller's when
 * malloc_fn and free_fn are both set, the default when neither is. Returns
 * NULL when *out is usable, else why not (an argument error): hooks given in
 * part, or no hooks in a build without a default allocator. */
const char *kf3ds__allocator_resolve(const kf3ds_allocator *given, kf3ds_allocator *out);

/* A new arena on `allocator` (both hooks set) that takes at most max_memory
 * bytes from it (0: no cap), or NULL when its first block cannot be had.
 * The arena's own record lives in that block. */
kf3ds__arena *kf3ds__arena_create(const kf3ds_allocator *allocator, size_t max_memory);

/* n elements of `size` bytes, 16-byte aligned; NULL when the allocator or the
 * cap refuses. A refusal is final: every later allocation fails too, so that
 * a caller may check kf3ds__arena_failed once at the end. */
void *kf3ds__arena_alloc_raw(kf3ds__arena *arena, size_t n, size_t size); /* not zeroed */
void *kf3ds__arena_alloc(kf3ds__arena *arena, size_t n, size_t size);     /* zeroed */
/* A zero-terminated copy of s[0..len); "" when the allocation fails. */
const char *kf3ds__arena_strdup(kf3ds__arena *arena, const char *s, size_t len);
int kf3ds__arena_failed(const kf3ds__arena *arena);
/* New blocks take at least `bytes` (up to the 32 MB block limit) instead of
 * growing from 64 KB, for an arena that will hold a few times that. Fewer,
 * larger blocks: the default allocator maps blocks of 2 MB and more itself
 * and keeps freed ones for the next scene, so a program that loads one file
 * after another does not fault their pages in again (docs/performance.md,
 * "Loading"). */
void kf3ds__arena_block_floor(kf3ds__arena *arena, size_t bytes);

/* Gives every block back to the allocator (the arena record with them). */
void kf3ds__arena_destroy(kf3ds__arena *arena);

#endif
