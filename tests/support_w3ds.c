/* The tests' raw chunk writer: see support_w3ds.h. Output is little-endian, written byte
 * by byte, so it does not depend on the host's byte order. Once `failed` is
 * set (out of memory, chunk depth exceeded, a count that does not fit), every
 * further call is a no-op and w3ds_save refuses to write. */
#include "support_w3ds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void w3ds_init(w3ds *w)
{
    memset(w, 0, sizeof *w);
}

void w3ds_free(w3ds *w)
{
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
    w->depth = 0;
}

/* Makes room for n more bytes; 0 on success. */
static int reserve(w3ds *w, size_t n)
{
    size_t need, cap;
    unsigned char *p;

    if (w->failed)
        return -1;
    if (n > (size_t)-1 - w->len) {
        w->failed = 1;
        return -1;
    }
    need = w->len + n;
    if (need <= w->cap)
        return 0;
    cap = w->cap ? w->cap : 256;
    while (cap < need) {
        if (cap > (size_t)-1 / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    p = realloc(w->buf, cap);
    if (!p) {
        w->failed = 1;
        return -1;
    }
    w->buf = p;
    w->cap = cap;
    return 0;
}

static void put_le(unsigned char *p, uint32_t v, int bytes)
{
    int i;
    for (i = 0; i < bytes; i++)
        p[i] = (unsigned char)((v >> (8 * i)) & 0xFFu);
}

void w3ds_u8(w3ds *w, uint8_t v)
{
    if (reserve(w, 1))
        return;
    w->buf[w->len++] = v;
}

void w3ds_u16(w3ds *w, uint16_t v)
{
    if (reserve(w, 2))
        return;
    put_le(w->buf + w->len, v, 2);
    w->len += 2;
}

void w3ds_u32(w3ds *w, uint32_t v)
{
    if (reserve(w, 4))
        return;
    put_le(w->buf + w->len, v, 4);
    w->len += 4;
}

void w3ds_i32(w3ds *w, int32_t v)
{
    /* two's complement bit pattern, well defined through uint32_t */
    w3ds_u32(w, (uint32_t)v);
}

void w3ds_f32(w3ds *w, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits); /* IEEE single assumed, as everywhere */
    w3ds_u32(w, bits);
}

void w3ds_f32v(w3ds *w, const float *v, size_t n)
{
    size_t i;
    for (i = 0; i < n && !w->failed; i++)
        w3ds_f32(w, v[i]);
}

void w3ds_bytes(w3ds *w, const void *p, size_t n)
{
    if (n == 0 || reserve(w, n))
        return;
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

void w3ds_cstr(w3ds *w, const char *s)
{
    if (!s)
        s = "";
    w3ds_bytes(w, s, strlen(s) + 1);
}

void w3ds_begin(w3ds *w, uint16_t id)
{
    if (w->failed)
        return;
    if (w->depth < 0 || w->depth >= W3DS_MAX_DEPTH) {
        w->failed = 1;
        return;
    }
    w->open[w->depth++] = w->len;
    w3ds_u16(w, id);
    w3ds_u32(w, 0); /* patched by w3ds_end */
}

void w3ds_end(w3ds *w)
{
    size_t start, n;

    if (w->failed)
        return;
    if (w->depth <= 0) {
        w->failed = 1;
        return;
    }
    start = w->open[--w->depth];
    n = w->len - start;
    if (n > 0xFFFFFFFFu) {
        w->failed = 1;
        return;
    }
    put_le(w->buf + start + 2, (uint32_t)n, 4);
}

int w3ds_save(const w3ds *w, const char *path)
{
    FILE *f;
    int ok;

    if (w->failed || !path)
        return -1;
    f = fopen(path, "wb");
    if (!f)
        return -1;
    ok = w->len == 0 || fwrite(w->buf, 1, w->len, f) == w->len;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

/* ---- keyframer helpers --------------------------------------------------- */

void w3ds_track_header(w3ds *w, uint16_t flags, uint32_t num_keys)
{
    w3ds_u16(w, flags);
    w3ds_u32(w, 0);
    w3ds_u32(w, 0);
    w3ds_u32(w, num_keys);
}

void w3ds_key_header(w3ds *w, int32_t frame, const w3ds_tcb *tcb)
{
    uint16_t flags = 0;

    w3ds_i32(w, frame);
    if (!tcb) {
        w3ds_u16(w, 0);
        return;
    }
    if (tcb->flags) {
        flags = tcb->flags;
    } else {
        if (tcb->tension != 0.0f)
            flags |= KF3DS_KEY_TENSION;
        if (tcb->continuity != 0.0f)
            flags |= KF3DS_KEY_CONTINUITY;
        if (tcb->bias != 0.0f)
            flags |= KF3DS_KEY_BIAS;
        if (tcb->ease_to != 0.0f)
            flags |= KF3DS_KEY_EASE_TO;
        if (tcb->ease_from != 0.0f)
            flags |= KF3DS_KEY_EASE_FROM;
    }
    w3ds_u16(w, flags);
    if (flags & KF3DS_KEY_TENSION)
        w3ds_f32(w, tcb->tension);
    if (flags & KF3DS_KEY_CONTINUITY)
        w3ds_f32(w, tcb->continuity);
    if (flags & KF3DS_KEY_BIAS)
        w3ds_f32(w, tcb->bias);
    if (flags & KF3DS_KEY_EASE_TO)
        w3ds_f32(w, tcb->ease_to);
    if (flags & KF3DS_KEY_EASE_FROM)
        w3ds_f32(w, tcb->ease_from);
}

void w3ds_node_hdr(w3ds *w, const char *name, uint16_t flags1, uint16_t flags2, uint16_t parent)
{
    w3ds_begin(w, KF3DS_CHUNK_NODE_HDR);
    w3ds_cstr(w, name);
    w3ds_u16(w, flags1);
    w3ds_u16(w, flags2);
    w3ds_u16(w, parent);
    w3ds_end(w);
}

/* ---- editor helpers ------------------------------------------------------ */

void w3ds_mesh(w3ds *w, const char *name, const float *points, uint32_t n,
               const uint16_t *faces, uint32_t nf, const float *matrix, const char *material)
{
    static const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    uint32_t i;

    /* Counts are u16 in the format: callers must not pass more. */
    if (n > 0xFFFFu || nf > 0xFFFFu) {
        w->failed = 1;
        return;
    }
    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, name);
    w3ds_begin(w, KF3DS_CHUNK_N_TRI_OBJECT);

    w3ds_begin(w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(w, (uint16_t)n);
    if (n)
        w3ds_f32v(w, points, (size_t)n * 3);
    w3ds_end(w);

    w3ds_begin(w, KF3DS_CHUNK_FACE_ARRAY);
    w3ds_u16(w, (uint16_t)nf);
    for (i = 0; i < nf && !w->failed; i++) {
        w3ds_u16(w, faces[3 * i]);
        w3ds_u16(w, faces[3 * i + 1]);
        w3ds_u16(w, faces[3 * i + 2]);
        w3ds_u16(w, 7);
    }
    if (material) {
        w3ds_begin(w, KF3DS_CHUNK_MSH_MAT_GROUP);
        w3ds_cstr(w, material);
        w3ds_u16(w, (uint16_t)nf);
        for (i = 0; i < nf && !w->failed; i++)
            w3ds_u16(w, (uint16_t)i);
        w3ds_end(w);
        w3ds_begin(w, KF3DS_CHUNK_SMOOTH_GROUP);
        for (i = 0; i < nf && !w->failed; i++)
            w3ds_u32(w, 1);
        w3ds_end(w);
    }
    w3ds_end(w); /* FACE_ARRAY */

    w3ds_begin(w, KF3DS_CHUNK_MESH_MATRIX);
    w3ds_f32v(w, matrix ? matrix : identity, 12);
    w3ds_end(w);

    w3ds_end(w); /* N_TRI_OBJECT */
    w3ds_end(w); /* NAMED_OBJECT */
}

static void color24(w3ds *w, uint16_t id, const uint8_t rgb[3])
{
    w3ds_begin(w, id);
    w3ds_begin(w, KF3DS_CHUNK_COLOR_24);
    w3ds_u8(w, rgb[0]);
    w3ds_u8(w, rgb[1]);
    w3ds_u8(w, rgb[2]);
    w3ds_end(w);
    w3ds_end(w);
}

void w3ds_material(w3ds *w, const char *name, const uint8_t ambient[3],
                   const uint8_t diffuse[3], const uint8_t specular[3])
{
    w3ds_begin(w, KF3DS_CHUNK_MAT_ENTRY);
    w3ds_begin(w, KF3DS_CHUNK_MAT_NAME);
    w3ds_cstr(w, name);
    w3ds_end(w);
    if (ambient)
        color24(w, KF3DS_CHUNK_MAT_AMBIENT, ambient);
    if (diffuse)
        color24(w, KF3DS_CHUNK_MAT_DIFFUSE, diffuse);
    if (specular)
        color24(w, KF3DS_CHUNK_MAT_SPECULAR, specular);
    w3ds_end(w);
}

void w3ds_camera(w3ds *w, const char *name, const float pos[3], const float target[3],
                 float roll_deg, float lens_mm)
{
    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, name);
    w3ds_begin(w, KF3DS_CHUNK_N_CAMERA);
    w3ds_f32v(w, pos, 3);
    w3ds_f32v(w, target, 3);
    w3ds_f32(w, roll_deg);
    w3ds_f32(w, lens_mm);
    w3ds_end(w);
    w3ds_end(w);
}

void w3ds_light(w3ds *w, const char *name, const float pos[3], const float color[3],
                const float *spot_target, float hotspot_deg, float falloff_deg)
{
    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, name);
    w3ds_begin(w, KF3DS_CHUNK_N_DIRECT_LIGHT);
    w3ds_f32v(w, pos, 3);
    w3ds_begin(w, KF3DS_CHUNK_COLOR_F);
    w3ds_f32v(w, color, 3);
    w3ds_end(w);
    if (spot_target) {
        w3ds_begin(w, KF3DS_CHUNK_DL_SPOTLIGHT);
        w3ds_f32v(w, spot_target, 3);
        w3ds_f32(w, hotspot_deg);
        w3ds_f32(w, falloff_deg);
        w3ds_end(w);
    }
    w3ds_end(w);
    w3ds_end(w);
}
