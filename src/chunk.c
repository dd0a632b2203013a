/* The bounds-checked chunk walker: little-endian reads that work on any host,
 * sub-chunk iteration by length, and the id → name table. */
#include "kf3ds.h"
#include <string.h>

kf3ds_reader kf3ds_reader_make(const void *data, size_t size)
{
    kf3ds_reader r;
    r.data = (const unsigned char *)data;
    r.pos = 0;
    r.end = data ? size : 0;
    r.short_read = 0;
    return r;
}

/* The bytes left, for this file's readers: kf3ds_reader_left is exported
 * (and may be interposed), so the compiler calls it rather than inline it
 * (docs/performance.md, "Loading"). */
static inline size_t left_of(const kf3ds_reader *r)
{
    return r->pos < r->end ? r->end - r->pos : 0;
}

size_t kf3ds_reader_left(const kf3ds_reader *r)
{
    return left_of(r);
}

/* Returns a pointer to n readable bytes, or NULL (and marks the short read,
 * consuming the rest so that later reads fail too). */
static const unsigned char *take(kf3ds_reader *r, size_t n)
{
    const unsigned char *p;
    if (left_of(r) < n) {
        r->short_read = 1;
        r->pos = r->end;
        return NULL;
    }
    p = r->data + r->pos;
    r->pos += n;
    return p;
}

uint8_t kf3ds_read_u8(kf3ds_reader *r)
{
    const unsigned char *p = take(r, 1);
    return p ? p[0] : 0;
}

/* (inline for the signed and float reads, as left_of) */
static inline uint16_t u16_of(kf3ds_reader *r)
{
    const unsigned char *p = take(r, 2);
    return p ? (uint16_t)(p[0] | (p[1] << 8)) : 0;
}

static inline uint32_t u32_of(kf3ds_reader *r)
{
    const unsigned char *p = take(r, 4);
    return p ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                   ((uint32_t)p[3] << 24)
             : 0;
}

uint16_t kf3ds_read_u16(kf3ds_reader *r)
{
    return u16_of(r);
}

uint32_t kf3ds_read_u32(kf3ds_reader *r)
{
    return u32_of(r);
}

int16_t kf3ds_read_i16(kf3ds_reader *r)
{
    uint16_t u = u16_of(r);
    return u < 0x8000u ? (int16_t)u : (int16_t)((int32_t)u - 0x10000);
}

int32_t kf3ds_read_i32(kf3ds_reader *r)
{
    uint32_t u = u32_of(r);
    return u < 0x80000000u ? (int32_t)u : (int32_t)(u - 0x80000000u) - 0x7FFFFFFF - 1;
}

float kf3ds_read_f32(kf3ds_reader *r)
{
    uint32_t u = u32_of(r);
    float f;
    memcpy(&f, &u, sizeof f); /* IEEE single on every supported host */
    return f;
}

const char *kf3ds_read_cstr(kf3ds_reader *r, size_t *len, int *terminated)
{
    const unsigned char *start = r->data ? r->data + r->pos : NULL;
    size_t left = left_of(r);
    const unsigned char *nul = left ? memchr(start, 0, left) : NULL;
    size_t n = nul ? (size_t)(nul - start) : left;
    if (len)
        *len = n;
    if (terminated)
        *terminated = nul != NULL;
    if (nul) {
        r->pos += n + 1;
    } else {
        r->pos = r->end;
        r->short_read = 1;
    }
    return start ? (const char *)start : "";
}

kf3ds_chunk_result kf3ds_chunk_next(kf3ds_reader *parent, kf3ds_chunk *chunk,
                                    kf3ds_reader *body)
{
    size_t left = left_of(parent);
    size_t pos = parent->pos;
    kf3ds_chunk_result result = KF3DS_NEXT_OK;
    const unsigned char *p;
    kf3ds_chunk c;

    memset(&c, 0, sizeof c);
    c.offset = (uint32_t)pos;
    if (left == 0) {
        if (chunk)
            *chunk = c;
        return KF3DS_NEXT_NONE;
    }
    if (left < 6) {
        if (chunk)
            *chunk = c;
        return KF3DS_NEXT_BAD;
    }
    p = parent->data + pos;
    c.id = (uint16_t)(p[0] | (p[1] << 8));
    c.length = (uint32_t)p[2] | ((uint32_t)p[3] << 8) | ((uint32_t)p[4] << 16) |
               ((uint32_t)p[5] << 24);
    if (c.length < 6) {
        c.end = c.offset;
        if (chunk)
            *chunk = c;
        return KF3DS_NEXT_BAD;
    }
    if (c.length > left) {
        c.end = (uint32_t)parent->end;
        result = KF3DS_NEXT_CLAMPED;
    } else {
        c.end = (uint32_t)(pos + c.length);
    }
    parent->pos = c.end;
    if (body) {
        body->data = parent->data;
        body->pos = pos + 6;
        body->end = c.end;
        body->short_read = 0;
    }
    if (chunk)
        *chunk = c;
    return result;
}

typedef struct chunk_name_entry {
    uint16_t id;
    const char *name;
} chunk_name_entry;

/* From the one list, in its (increasing id) order, for bisection. */
static const chunk_name_entry chunk_names[] = {
#define NAME_ENTRY(name, id) { id, #name },
    KF3DS_CHUNK_LIST(NAME_ENTRY)
#undef NAME_ENTRY
};

const char *kf3ds_chunk_name(uint16_t id)
{
    size_t lo = 0, hi = sizeof chunk_names / sizeof chunk_names[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (chunk_names[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sizeof chunk_names / sizeof chunk_names[0] && chunk_names[lo].id == id)
        return chunk_names[lo].name;
    return NULL;
}

int kf3ds_chunk_is_root(uint16_t id)
{
    switch (id) {
    case KF3DS_CHUNK_M3DMAGIC:
    case KF3DS_CHUNK_MLIBMAGIC:
    case KF3DS_CHUNK_CMAGIC:
    case KF3DS_CHUNK_SMAGIC:
    case KF3DS_CHUNK_LMAGIC:
    case KF3DS_CHUNK_MATMAGIC:
    case KF3DS_CHUNK_MDATA:
        return 1;
    default:
        return 0;
    }
}
