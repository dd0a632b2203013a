/* Clipping a polygon in view space (Sutherland–Hodgman) against the near
 * plane and the guard-band planes it crosses, carrying any number of
 * attributes along (colours; the texture coordinates and lighting terms of
 * raster_shaded.c), and the screen positions of the result. */
#include "raster.h"

static int clip_plane(const kf3ds__projection *p, int plane, const kf3ds__clip_vertex *in, int n,
                      int nattr, kf3ds__clip_vertex *out)
{
    kf3ds__dist_fn dist = kf3ds__plane_dist[plane];
    int i, m = 0;
    float dprev;
    const kf3ds__clip_vertex *prev;
    if (n < 3)
        return 0;
    prev = &in[n - 1];
    dprev = dist(p, prev->x, prev->y, prev->d);
    for (i = 0; i < n && m + 2 <= KF3DS__CLIP_MAX; i++) {
        const kf3ds__clip_vertex *cur = &in[i];
        float dcur = dist(p, cur->x, cur->y, cur->d);
        int in_prev = dprev >= 0.0f, in_cur = dcur >= 0.0f;
        if (in_prev != in_cur) {
            /* The cut, computed from the inside vertex for symmetry. */
            const kf3ds__clip_vertex *s = in_cur ? cur : prev, *t = in_cur ? prev : cur;
            float ds = in_cur ? dcur : dprev, dt = in_cur ? dprev : dcur;
            float u = ds / (ds - dt);
            int k;
            kf3ds__clip_vertex *o = &out[m++];
            if (!(u >= 0.0f))
                u = 0.0f;
            if (u > 1.0f)
                u = 1.0f;
            o->x = s->x + (t->x - s->x) * u;
            o->y = s->y + (t->y - s->y) * u;
            o->d = s->d + (t->d - s->d) * u;
            for (k = 0; k < nattr; k++)
                o->a[k] = s->a[k] + (t->a[k] - s->a[k]) * u;
            o->src = -1;
        }
        if (in_cur)
            out[m++] = *cur;
        prev = cur;
        dprev = dcur;
    }
    return m;
}

int kf3ds__clip(const kf3ds__projection *p, uint32_t planes, kf3ds__clip_vertex *bufa,
                kf3ds__clip_vertex *bufb, int n, int nattr, kf3ds__clip_vertex **result)
{
    kf3ds__clip_vertex *in = bufa, *out = bufb, *t;
    int plane;
    for (plane = 0; plane < 5 && n >= 3; plane++) {
        if (!(planes & (1u << plane)))
            continue;
        n = clip_plane(p, plane, in, n, nattr, out);
        t = in;
        in = out;
        out = t;
    }
    *result = in;
    return n >= 3 ? n : 0;
}

void kf3ds__clip_screen(const kf3ds__projection *p, const kf3ds__vertex *const vs[3],
                        const kf3ds__clip_vertex *c, int32_t *X, int32_t *Y, float *w)
{
    if (c->src >= 0) {
        *X = vs[c->src]->X;
        *Y = vs[c->src]->Y;
        *w = vs[c->src]->w;
    } else {
        float d = c->d >= p->near_d ? c->d : p->near_d;
        *w = 1.0f / d;
        kf3ds__project_fixed(p, c->x, c->y, *w, X, Y);
    }
}
