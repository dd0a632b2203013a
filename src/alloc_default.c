/* The default allocator behind a scene's arena. Large blocks come straight
 * from mmap on Linux, marked for transparent huge pages: loading a 90 MB file
 * writes over 100 MB of fresh memory, and with 4 KB pages the page faults
 * alone cost more than the parsing. Everywhere else: malloc. */
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

static void *default_malloc(size_t size, void *user)
{
    unsigned char *p;
    (void)user;
    if (size > (size_t)-1 - HEADER)
        return NULL;
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
    if (((size_t *)p)[1] == MAPPED)
        munmap(p, ((size_t *)p)[0]);
    else
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
