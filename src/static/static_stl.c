/* kf3ds static export: binary STL (docs/static.md). An 80-byte header, the
 * triangle count, then per triangle its unit normal, three corners and a zero
 * attribute word, all little-endian whatever the machine. */
#include "static_internal.h"
#include <stdio.h>
#include <string.h>

typedef struct stl_ctx {
    static_buf *b;
    kf3ds_static_output *out;
    uint64_t triangles;
} stl_ctx;

static void put_f32(static_buf *b, float v)
{
    uint32_t u;
    unsigned char le[4];
    memcpy(&u, &v, 4);
    le[0] = (unsigned char)u;
    le[1] = (unsigned char)(u >> 8);
    le[2] = (unsigned char)(u >> 16);
    le[3] = (unsigned char)(u >> 24);
    kf3ds__static_put(b, le, 4);
}

static int write_mesh(void *user, const static_mesh *m)
{
    stl_ctx *c = user;
    static const unsigned char attribute[2] = { 0, 0 };
    uint32_t f;
    int k, j;
    for (f = 0; f < m->nf; f++) {
        for (j = 0; j < 3; j++)
            put_f32(c->b, m->face_normal[f][j]);
        for (k = 0; k < 3; k++)
            for (j = 0; j < 3; j++)
                put_f32(c->b, m->pos[m->tri[3 * f + k]][j]);
        kf3ds__static_put(c->b, attribute, 2);
    }
    c->triangles += m->nf;
    c->out->num_objects++;
    c->out->num_vertices += m->np;
    return c->b->failed ? -1 : c->triangles > 0xffffffffu ? 1 : 0;
}

int kf3ds__static_stl(const kf3ds_scene *s, const kf3ds_static_options *o, double frame,
                      static_buf *stl, kf3ds_static_output *out)
{
    char header[80];
    stl_ctx c;
    int rc;
    uint32_t n;
    size_t i, len;
    /* The header must not start with "solid", which marks ASCII STL. */
    memset(header, ' ', sizeof header);
    len = (size_t)snprintf(header, sizeof header, "kf3ds binary STL of %s at frame %.9g",
                           o->file_name ? o->file_name : "a 3DS scene", frame);
    for (i = len < sizeof header ? len : sizeof header - 1; i < sizeof header; i++)
        header[i] = ' ';
    kf3ds__static_put(stl, header, sizeof header);
    kf3ds__static_put(stl, "\0\0\0\0", 4); /* the count, filled in below */
    memset(&c, 0, sizeof c);
    c.b = stl;
    c.out = out;
    rc = kf3ds__static_each_mesh(s, stl->al, frame,
                                 o->flags & KF3DS_STATIC_NO_EASE ? KF3DS_EVAL_NO_EASE : 0,
                                 write_mesh, &c);
    if (rc > 0)
        return 1; /* over the format's count */
    if (rc != 0 || stl->failed)
        return -1;
    n = (uint32_t)c.triangles;
    out->num_triangles = n;
    stl->p[80] = (unsigned char)n;
    stl->p[81] = (unsigned char)(n >> 8);
    stl->p[82] = (unsigned char)(n >> 16);
    stl->p[83] = (unsigned char)(n >> 24);
    return 0;
}
