/* kf3ds static export: the growing output buffer (static_internal.h). The
 * allocator hooks have no realloc, so growing copies into a block twice the
 * size. */
#include "static_internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void *kf3ds__static_alloc(const kf3ds_allocator *a, size_t count, size_t size)
{
    if (size && count > ((size_t)-1 - 16) / size)
        return NULL;
    return a->malloc_fn(count * size + 1, a->user); /* + 1: never a 0-byte request */
}

void kf3ds__static_free(const kf3ds_allocator *a, void *p)
{
    if (p)
        a->free_fn(p, a->user);
}

void kf3ds__static_put(static_buf *b, const void *data, size_t len)
{
    if (b->failed || len == 0)
        return;
    if (len > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 4096;
        unsigned char *p;
        while (len > cap - b->n) {
            if (cap > (size_t)-1 / 4) {
                b->failed = 1;
                return;
            }
            cap *= 2;
        }
        p = kf3ds__static_alloc(b->al, cap, 1);
        if (!p) {
            b->failed = 1;
            return;
        }
        if (b->n)
            memcpy(p, b->p, b->n);
        kf3ds__static_free(b->al, b->p);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
}

void kf3ds__static_puts(static_buf *b, const char *s)
{
    kf3ds__static_put(b, s, strlen(s));
}

void kf3ds__static_printf(static_buf *b, const char *fmt, ...)
{
    char tmp[256];
    int n;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    kf3ds__static_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void kf3ds__static_name(static_buf *b, const char *name, const char *empty)
{
    const unsigned char *p = (const unsigned char *)(name ? name : "");
    if (!*p) {
        kf3ds__static_puts(b, empty);
        return;
    }
    for (; *p; p++) {
        char c = (char)(*p <= ' ' || *p == 0x7f ? '_' : *p);
        kf3ds__static_put(b, &c, 1);
    }
}
