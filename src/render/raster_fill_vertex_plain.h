/* kf3ds__fill_vertex_of, the plain C reference (raster_fill.h chooses it
 * or raster_fill_vertex_sse2.h). */
#ifndef KF3DS_RASTER_FILL_VERTEX_PLAIN_H
#define KF3DS_RASTER_FILL_VERTEX_PLAIN_H

static inline void kf3ds__fill_vertex_of(kf3ds__fill_vertex *f, const kf3ds__vertex *v,
                                         uint32_t color, int flat)
{
    f->X = v->X;
    f->Y = v->Y;
    f->v[0] = v->w;
    if (!flat) {
        f->v[1] = (float)((color >> 16) & 0xFF) + 0.5f;
        f->v[2] = (float)((color >> 8) & 0xFF) + 0.5f;
        f->v[3] = (float)(color & 0xFF) + 0.5f;
    }
}

#endif
