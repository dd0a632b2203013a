/* The default allocator behind a scene's arena. Large blocks come straight
 * from mmap on Linux, marked for transparent huge pages: loading a 90 MB file
 * writes over 100 MB of fresh memory, and with 4 KB pages the page faults
 * alone cost more than the parsing. Freed large blocks are kept for the next
 * arena (a few, up to KEEP_BYTES), as malloc keeps freed memory: the kernel
 * zeroes every fresh page, and for a program that loads one file after
 * another (a viewer, a converter, a benchmark) that zeroing cost more than
 * the parsing. A kept block is marked MADV_FREE, so that under memory
 * pressure the kernel may take its pages back (they are then fresh again).
 * Everywhere else: malloc. */
#if defined(KF3DS_NO_DEFAULT_ALLOCATOR)
/* Freestanding builds (-ffreestanding, no malloc): no default. Loading and
 * kf3ds_renderer_create then need the caller's allocator hooks and fail
 * cleanly (KF3DS_ERR_ARGUMENT, NULL) without them. */
#include "arena.h"

kf3ds_allocator kf3ds__default_allocator(void)
{
    kf3ds_allocator a;
    a.malloc_fn = NULL;
    a.free_fn = NULL;
    a.user = NULL;
    return a;
}
#else
#if defined(__linux__)
#define _DEFAULT_SOURCE 1
#endif
#include "arena.h"
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>

#define HEADER 16                    /* keeps 16-byte alignment */
#define MAPPED ((size_t)0x4B463344u) /* tag of an mmap'ed block */
#define BIG ((size_t)2 << 20)

/* ---- kept blocks ---------------------------------------------------------
 * Up to KEEP_BLOCKS freed mapped blocks of KEEP_BYTES in all, behind a spin
 * lock (GCC and clang atomics; other compilers keep nothing). A block is
 * reused for a request it fits that is at least half its size. */
#define KEEP_BLOCKS 16
#define KEEP_BYTES ((size_t)256 << 20)

#if defined(__GNUC__)
static unsigned char *kept[KEEP_BLOCKS];
static size_t kept_size[KEEP_BLOCKS]; /* beside them: their pages may be dropped */
static size_t kept_bytes;
static char kept_lock;

static void lock_kept(void)
{
    while (__atomic_test_and_set(&kept_lock, __ATOMIC_ACQUIRE))
        ;
}

static void unlock_kept(void)
{
    __atomic_clear(&kept_lock, __ATOMIC_RELEASE);
}

/* A kept block for `mapped` bytes (header included), its header written,
 * or NULL. */
static unsigned char *take_kept(size_t mapped)
{
    unsigned char *p = NULL;
    size_t have = 0;
    int i, best = -1;
    lock_kept();
    for (i = 0; i < KEEP_BLOCKS; i++)
        if (kept[i] && kept_size[i] >= mapped && kept_size[i] / 2 <= mapped &&
            (best < 0 || kept_size[i] < kept_size[best]))
            best = i;
    if (best >= 0) {
        p = kept[best];
        have = kept_size[best];
        kept[best] = NULL;
        kept_bytes -= have;
    }
    unlock_kept();
    if (p) {
        ((size_t *)p)[0] = have;
        ((size_t *)p)[1] = MAPPED;
    }
    return p;
}

/* Keeps the mapped block p when there is room; returns whether it did. */
static int keep(unsigned char *p)
{
    size_t mapped = ((size_t *)p)[0];
    int i, done = 0;
    lock_kept();
    if (kept_bytes + mapped <= KEEP_BYTES)
        for (i = 0; i < KEEP_BLOCKS && !done; i++)
            if (!kept[i]) {
                kept[i] = p;
                kept_size[i] = mapped;
                kept_bytes += mapped;
                done = 1;
            }
    unlock_kept();
#ifdef MADV_FREE
    if (done)
        madvise(p, mapped, MADV_FREE);
#endif
    return done;
}
#else
#define take_kept(mapped) ((void)(mapped), (unsigned char *)NULL)
#define keep(p) ((void)(p), 0)
#endif

static void *default_malloc(size_t size, void *user)
{
    unsigned char *p;
    (void)user;
    if (size > (size_t)-1 - HEADER)
        return NULL;
    if (size >= BIG && (p = take_kept(size + HEADER)) != NULL)
        return p + HEADER;
    if (size >= BIG) {
        p = (unsigned char *)mmap(NULL, size + HEADER, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
#ifdef MADV_HUGEPAGE
        madvise(p, size + HEADER, MADV_HUGEPAGE);
#endif
        ((size_t *)p)[0] = size + HEADER;
        ((size_t *)p)[1] = MAPPED;
    } else {
        p = (unsigned char *)malloc(size + HEADER);
        if (!p)
            return NULL;
        ((size_t *)p)[1] = 0;
    }
    return p + HEADER;
}

static void default_free(void *ptr, void *user)
{
    unsigned char *p;
    (void)user;
    if (!ptr)
        return;
    p = (unsigned char *)ptr - HEADER;
    if (((size_t *)p)[1] == MAPPED) {
        if (!keep(p))
            munmap(p, ((size_t *)p)[0]);
    } else
        free(p);
}
#else
static void *default_malloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void default_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}
#endif

kf3ds_allocator kf3ds__default_allocator(void)
{
    kf3ds_allocator a;
    a.malloc_fn = default_malloc;
    a.free_fn = default_free;
    a.user = NULL;
    return a;
}
#endif /* KF3DS_NO_DEFAULT_ALLOCATOR */
