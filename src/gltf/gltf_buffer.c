/* The binary buffer of a glTF document (export_internal.h): data appended 4-byte
 * aligned, one buffer view per accessor, min/max computed from the very
 * values stored so that they match them exactly. */
#include "export_internal.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>

void gltf_buffer_init(gltf_buffer *b, const kf3ds_allocator *al)
{
    memset(b, 0, sizeof *b);
    b->al = al;
    gltf_json_init(&b->views, al);
    gltf_json_init(&b->accessors, al);
}

void gltf_buffer_free(gltf_buffer *b)
{
    const kf3ds_allocator *al = b->al;
    if (al)
        kf3ds__gltf_free(al, b->data);
    gltf_json_free(&b->views);
    gltf_json_free(&b->accessors);
    memset(b, 0, sizeof *b);
    b->al = al;
}

/* Room for `more` bytes; 0 when memory ran out (then b->oom is set). */
static int reserve(gltf_buffer *b, size_t more)
{
    size_t cap;
    unsigned char *p;
    if (b->oom || more > SIZE_MAX / 2 - b->len) {
        b->oom = 1;
        return 0;
    }
    if (b->len + more <= b->cap)
        return 1;
    cap = b->cap ? b->cap : 65536;
    while (cap < b->len + more)
        cap *= 2;
    p = kf3ds__gltf_grow(b->al, b->data, b->len, cap);
    if (!p) {
        b->oom = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

uint32_t gltf_view(gltf_buffer *b, const void *data, size_t bytes, int target)
{
    size_t pad = (4 - (b->len & 3)) & 3, offset;
    uint32_t index = b->views.count;
    if (!reserve(b, pad + bytes)) {
        b->views.oom = 1;
        return index;
    }
    memset(b->data + b->len, 0, pad);
    offset = b->len + pad;
    if (bytes)
        memcpy(b->data + offset, data, bytes);
    b->len = offset + bytes;
    gltf_obj(&b->views, NULL);
    gltf_int(&b->views, "buffer", 0);
    if (offset)
        gltf_num(&b->views, "byteOffset", (double)offset);
    gltf_num(&b->views, "byteLength", (double)bytes);
    if (target)
        gltf_int(&b->views, "target", target);
    gltf_end(&b->views);
    return index;
}

static size_t component_size(int ctype)
{
    return ctype == GLTF_BYTE_U8 ? 1 : ctype == GLTF_BYTE_U16 ? 2 : 4;
}

static double component(const void *data, int ctype, size_t i)
{
    const unsigned char *p = (const unsigned char *)data + i * component_size(ctype);
    switch (ctype) {
    case GLTF_BYTE_U8: return *p;
    case GLTF_BYTE_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case GLTF_BYTE_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { float v; memcpy(&v, p, 4); return v; }
    }
}

/* glTF's buffers are little-endian: on a big-endian host the components
 * just appended are turned around. */
static void to_little_endian(gltf_buffer *b, size_t bytes, size_t size)
{
    static const uint16_t one = 1;
    unsigned char *p, t;
    size_t i;
    if (*(const unsigned char *)&one == 1 || size == 1 || b->oom)
        return;
    for (p = b->data + b->len - bytes, i = 0; i + size <= bytes; i += size, p += size) {
        if (size == 2) {
            t = p[0], p[0] = p[1], p[1] = t;
        } else {
            t = p[0], p[0] = p[3], p[3] = t;
            t = p[1], p[1] = p[2], p[2] = t;
        }
    }
}

uint32_t gltf_accessor(gltf_buffer *b, const void *data, uint32_t count, int ctype, int ncomp,
                       int target, int minmax)
{
    static const char *const types[] = { "SCALAR", "VEC2", "VEC3", "VEC4" };
    size_t bytes = (size_t)count * (size_t)ncomp * component_size(ctype);
    uint32_t view = gltf_view(b, data, bytes, target);
    to_little_endian(b, bytes, component_size(ctype));
    uint32_t index = b->accessors.count;
    gltf_json *j = &b->accessors;
    gltf_obj(j, NULL);
    gltf_int(j, "bufferView", (long)view);
    gltf_int(j, "componentType", ctype);
    gltf_num(j, "count", (double)count);
    gltf_str(j, "type", types[ncomp >= 1 && ncomp <= 4 ? ncomp - 1 : 0]);
    if (minmax && count > 0 && !b->oom) {
        double mn[4], mx[4];
        uint32_t e;
        int c;
        for (c = 0; c < ncomp; c++)
            mn[c] = mx[c] = component(data, ctype, (size_t)c);
        for (e = 1; e < count; e++)
            for (c = 0; c < ncomp; c++) {
                double v = component(data, ctype, (size_t)e * (size_t)ncomp + (size_t)c);
                if (v < mn[c])
                    mn[c] = v;
                if (v > mx[c])
                    mx[c] = v;
            }
        gltf_arr(j, "min");
        for (c = 0; c < ncomp; c++)
            gltf_num(j, NULL, mn[c]);
        gltf_end(j);
        gltf_arr(j, "max");
        for (c = 0; c < ncomp; c++)
            gltf_num(j, NULL, mx[c]);
        gltf_end(j);
    }
    gltf_end(j);
    return index;
}
