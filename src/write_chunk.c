/* The chunk writer (write_chunk.h): bounds-checked little-endian output,
 * written byte by byte so that it does not depend on the host's byte order. */
#include "write_chunk.h"
#include "diag.h"
#include <stdarg.h>
#include <string.h>

void kf3ds__writer_init(kf3ds__writer *w, unsigned char *out, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->cap = out ? cap : 0;
}

void kf3ds__writer_fail(kf3ds__writer *w, kf3ds_status code, uint16_t chunk_id,
                        const char *fmt, ...)
{
    va_list ap;
    if (w->failed)
        return;
    w->failed = 1;
    va_start(ap, fmt);
    kf3ds__diag_setv(&w->error, code, (uint32_t)(w->len > 0xFFFFFFFFu ? 0xFFFFFFFFu : w->len),
                     chunk_id, fmt, ap);
    va_end(ap);
}

/* Room for n more bytes: a pointer to them (NULL while measuring or after a
 * failure; the length is counted either way). */
static unsigned char *room(kf3ds__writer *w, size_t n)
{
    unsigned char *p;
    if (w->failed)
        return NULL;
    if (n > (size_t)0xFFFFFFFFu - w->len) {
        kf3ds__writer_fail(w, KF3DS_ERR_LIMIT, 0, "the file would be larger than 4 GiB");
        return NULL;
    }
    if (!w->out) {
        w->len += n;
        return NULL;
    }
    if (n > w->cap - w->len) { /* the passes disagree: never with the same input */
        kf3ds__writer_fail(w, KF3DS_ERR_ARGUMENT, 0, "the scene changed while it was saved");
        return NULL;
    }
    p = w->out + w->len;
    w->len += n;
    return p;
}

static void put_le(kf3ds__writer *w, uint32_t v, int bytes)
{
    unsigned char *p = room(w, (size_t)bytes);
    int i;
    for (i = 0; p && i < bytes; i++)
        p[i] = (unsigned char)((v >> (8 * i)) & 0xFFu);
}

void kf3ds__put_u8(kf3ds__writer *w, uint8_t v) { put_le(w, v, 1); }
void kf3ds__put_u16(kf3ds__writer *w, uint16_t v) { put_le(w, v, 2); }
void kf3ds__put_u32(kf3ds__writer *w, uint32_t v) { put_le(w, v, 4); }
/* two's complement bit patterns, well defined through the unsigned types */
void kf3ds__put_i16(kf3ds__writer *w, int16_t v) { put_le(w, (uint16_t)v, 2); }
void kf3ds__put_i32(kf3ds__writer *w, int32_t v) { put_le(w, (uint32_t)v, 4); }

void kf3ds__put_f32(kf3ds__writer *w, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits); /* IEEE single on every supported host */
    put_le(w, bits, 4);
}

void kf3ds__put_f32s(kf3ds__writer *w, const float *v, size_t n)
{
    size_t i;
    if (!w->out) { /* measuring: only the length */
        if (n <= (size_t)0xFFFFFFFFu / 4)
            room(w, n * 4);
        else
            kf3ds__writer_fail(w, KF3DS_ERR_LIMIT, 0, "the file would be larger than 4 GiB");
        return;
    }
    for (i = 0; i < n && !w->failed; i++)
        kf3ds__put_f32(w, v[i]);
}

void kf3ds__put_bytes(kf3ds__writer *w, const void *p, size_t n)
{
    unsigned char *d = n ? room(w, n) : NULL;
    if (d)
        memcpy(d, p, n);
}

void kf3ds__put_cstr(kf3ds__writer *w, const char *s)
{
    if (!s)
        s = "";
    kf3ds__put_bytes(w, s, strlen(s) + 1);
}

void kf3ds__chunk_begin(kf3ds__writer *w, uint16_t id)
{
    if (w->failed)
        return;
    if (w->depth >= KF3DS__WRITER_MAX_DEPTH) {
        kf3ds__writer_fail(w, KF3DS_ERR_LIMIT, id, "chunks nested too deep");
        return;
    }
    w->open[w->depth++] = w->len;
    kf3ds__put_u16(w, id);
    kf3ds__put_u32(w, 0); /* the length, patched by kf3ds__chunk_end */
}

void kf3ds__chunk_end(kf3ds__writer *w)
{
    size_t start, n;
    int i;
    if (w->failed)
        return;
    if (w->depth <= 0) {
        kf3ds__writer_fail(w, KF3DS_ERR_ARGUMENT, 0, "a chunk closed that was not open");
        return;
    }
    start = w->open[--w->depth];
    n = w->len - start; /* at most 4 GiB: room() keeps the whole file below */
    if (w->out)
        for (i = 0; i < 4; i++)
            w->out[start + 2 + (size_t)i] = (unsigned char)((n >> (8 * i)) & 0xFFu);
}

int kf3ds__put_count16(kf3ds__writer *w, uint32_t n, uint16_t chunk_id, const char *what,
                       const char *name)
{
    if (n > 0xFFFFu) {
        kf3ds__writer_fail(w, KF3DS_ERR_LIMIT, chunk_id,
                           "%s '%s': %lu do not fit the format's 16-bit count (at most 65535)",
                           what, name ? name : "", (unsigned long)n);
        return 0;
    }
    kf3ds__put_u16(w, (uint16_t)n);
    return 1;
}
