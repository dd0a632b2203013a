/* The block arena: blocks from the caller's allocator carved with a bump
 * pointer, released in one walk. */
#include "arena.h"
#include <string.h>

#define ALIGN 16
#define MIN_BLOCK ((size_t)64 * 1024)
#define MAX_BLOCK ((size_t)32 * 1024 * 1024)

typedef struct block {
    struct block *next;
    size_t size, used;
} block;

struct kf3ds__arena {
    kf3ds_allocator allocator;
    block *blocks;          /* the current block first; the first block (holding
                             * this record) last */
    size_t total;           /* bytes obtained from the allocator */
    size_t max_memory;      /* cap on total; 0: none */
    size_t block_min;       /* payload floor of new blocks (kf3ds__arena_block_floor) */
    int failed;
};

static size_t align_up(size_t n)
{
    return (n + (ALIGN - 1)) & ~(size_t)(ALIGN - 1);
}

#define BLOCK_HEADER align_up(sizeof(block))

/* Under AddressSanitizer the arena tells ASan which bytes are handed out:
 * a block's free space and a 16-byte red zone after every allocation stay
 * poisoned, so that an overread of an arena array is reported like one of a
 * malloc'ed array (the fuzzers rely on it). No effect in other builds. */
#if defined(__SANITIZE_ADDRESS__)
#define KF3DS__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KF3DS__ASAN 1
#endif
#endif
#ifdef KF3DS__ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#define REDZONE ALIGN
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#define REDZONE 0
#endif

const char *kf3ds__allocator_resolve(const kf3ds_allocator *given, kf3ds_allocator *out)
{
    if (given && (given->malloc_fn || given->free_fn)) {
        if (!given->malloc_fn || !given->free_fn)
            return "allocator hooks given in part (malloc_fn and free_fn go together)";
        *out = *given;
        return NULL;
    }
    *out = kf3ds__default_allocator();
    if (!out->malloc_fn || !out->free_fn)
        return "no allocator hooks (built without a default allocator)";
    return NULL;
}

/* Blocks grow with the arena (half of what it holds so far, 64 KB to 32 MB,
 * and at least `floor`), so a big arena needs few allocator calls and small
 * ones stay small. */
static block *new_block(const kf3ds_allocator *allocator, size_t total, size_t floor,
                        size_t min_payload, size_t max_memory)
{
    size_t grow = total / 2, payload;
    block *b;
    if (grow < floor)
        grow = floor;
    if (grow < MIN_BLOCK)
        grow = MIN_BLOCK;
    if (grow > MAX_BLOCK)
        grow = MAX_BLOCK;
    payload = min_payload < grow ? grow : min_payload;
    if (payload > (size_t)-1 - BLOCK_HEADER)
        return NULL;
    if (max_memory && total + payload + BLOCK_HEADER > max_memory) {
        payload = min_payload; /* try the exact size before giving up */
        if (total + payload + BLOCK_HEADER > max_memory)
            return NULL;
    }
    b = (block *)allocator->malloc_fn(payload + BLOCK_HEADER, allocator->user);
    if (!b)
        return NULL;
    b->next = NULL;
    b->size = payload;
    b->used = 0;
    POISON((unsigned char *)b + BLOCK_HEADER, payload);
    return b;
}

kf3ds__arena *kf3ds__arena_create(const kf3ds_allocator *allocator, size_t max_memory)
{
    size_t record = align_up(sizeof(kf3ds__arena));
    block *first = new_block(allocator, 0, 0, record, max_memory);
    kf3ds__arena *a;
    if (!first)
        return NULL;
    a = (kf3ds__arena *)((unsigned char *)first + BLOCK_HEADER);
    first->used = record;
    UNPOISON(a, sizeof *a);
    a->allocator = *allocator;
    a->blocks = first;
    a->total = first->size + BLOCK_HEADER;
    a->max_memory = max_memory;
    a->block_min = 0;
    a->failed = 0;
    return a;
}

void *kf3ds__arena_alloc_raw(kf3ds__arena *a, size_t n, size_t size)
{
    block *b = a->blocks;
    size_t bytes;
    if (a->failed)
        return NULL;
    if (size && n > ((size_t)-1 - 2 * ALIGN) / size)
        goto fail;
    bytes = align_up((n * size) != 0 ? n * size : 1) + REDZONE;
    if (b->size - b->used < bytes) {
        block *nb = new_block(&a->allocator, a->total, a->block_min, bytes, a->max_memory);
        if (!nb)
            goto fail;
        a->total += nb->size + BLOCK_HEADER;
        /* A big allocation gets its own block behind the current one, so the
         * current block's free space stays usable. */
        if (bytes >= nb->size) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->blocks = nb;
        }
        b = nb;
    }
    b->used += bytes;
    UNPOISON((unsigned char *)b + BLOCK_HEADER + b->used - bytes, (n * size) != 0 ? n * size : 1);
    return (unsigned char *)b + BLOCK_HEADER + b->used - bytes;
fail:
    a->failed = 1;
    return NULL;
}

void *kf3ds__arena_alloc(kf3ds__arena *a, size_t n, size_t size)
{
    void *p = kf3ds__arena_alloc_raw(a, n, size);
    if (p)
        memset(p, 0, (n * size) != 0 ? n * size : 1);
    return p;
}

const char *kf3ds__arena_strdup(kf3ds__arena *a, const char *s, size_t len)
{
    char *p = (char *)kf3ds__arena_alloc_raw(a, len + 1, 1);
    if (!p)
        return "";
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void kf3ds__arena_block_floor(kf3ds__arena *a, size_t bytes)
{
    a->block_min = bytes < MAX_BLOCK ? bytes : MAX_BLOCK;
}

int kf3ds__arena_failed(const kf3ds__arena *a)
{
    return a->failed;
}

void kf3ds__arena_destroy(kf3ds__arena *a)
{
    kf3ds_allocator allocator;
    block *b, *next;
    if (!a)
        return;
    allocator = a->allocator; /* the record goes with the last block */
    for (b = a->blocks; b; b = next) {
        next = b->next;
        UNPOISON(b, BLOCK_HEADER + b->size); /* the allocator may reuse it */
        allocator.free_fn(b, allocator.user);
    }
}
