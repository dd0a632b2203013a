/* Triangles.
 *  - kf3ds__triangle: triangles whose three vertices share an outside plane
 *    are dropped; triangles inside every plane go straight to the fill; the
 *    rest are clipped in view space (Sutherland–Hodgman against the near plane
 *    and the guard planes they cross, so a triangle crossing the near plane is
 *    cut, never dropped, and nothing reaches the fill with huge coordinates),
 *    then fanned into triangles.
 *  - fill: culling, then the projection's fill (raster_fill.h: a plain C reference and its SSE2 and
 *    AVX2 versions, chosen once by kf3ds__fill_pick, raster_fill_pick.c). */
#include "raster_fill.h"

/* area: kf3ds__screen_area of (a, b, c), which the callers have (draw.c
 * computes it for the face's side). cull > 0 drops clockwise-on-screen
 * triangles (back faces), cull < 0 drops counter-clockwise ones. The
 * projection's fill draws it. Returns 1 when a pixel centre was covered. */
static int fill(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__fill_vertex *a,
                const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area, int cull,
                int flat, uint32_t flat_color)
{
    if (area == 0)
        return 0;
    if (area < 0) { /* counter-clockwise on screen (y down): a front face */
        const kf3ds__fill_vertex *t;
        if (cull < 0)
            return 0;
        t = b;
        b = c;
        c = t;
        area = -area;
    } else if (cull > 0) {
        return 0;
    }
    return p->fill(fb, a, b, c, area, flat, flat_color);
}

static inline void unpack(uint32_t c, float out[3])
{
    out[0] = (float)((c >> 16) & 0xFF) + 0.5f;
    out[1] = (float)((c >> 8) & 0xFF) + 0.5f;
    out[2] = (float)(c & 0xFF) + 0.5f;
}

/* A triangle the clipper cuts (kf3ds__triangle): kept apart so that the
 * common unclipped triangle does not pay for its stack of polygon buffers. */
static int triangle_clipped(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                            const kf3ds__vertex *const vs[3], uint32_t all,
                            const uint32_t color[3], int flat, int cull)
{
    /* Facing from the view-space plane: front when the eye (the origin)
     * sees the vertices counter-clockwise, i.e. n·v0 < 0 with z = −d. */
    kf3ds__clip_vertex bufa[KF3DS__CLIP_MAX], bufb[KF3DS__CLIP_MAX], *in = bufa;
    kf3ds__fill_vertex fv[KF3DS__CLIP_MAX];
    int n, k, covered = 0;
    if (cull) {
        const kf3ds__vertex *v0 = vs[0], *v1 = vs[1], *v2 = vs[2];
        float ux = v1->x - v0->x, uy = v1->y - v0->y, uz = v0->d - v1->d;
        float wx = v2->x - v0->x, wy = v2->y - v0->y, wz = v0->d - v2->d;
        float nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
        float s = nx * v0->x + ny * v0->y - nz * v0->d;
        if (!(s == s) || s == 0.0f)
            return 0;
        if ((s < 0.0f) != (cull > 0))
            return 0;
    }
    for (k = 0; k < 3; k++) {
        in[k].x = vs[k]->x;
        in[k].y = vs[k]->y;
        in[k].d = vs[k]->d;
        unpack(color[k], in[k].a);
        in[k].src = k;
    }
    n = kf3ds__clip(p, all, bufa, bufb, 3, 3, &in);
    if (n < 3)
        return 0;
    for (k = 0; k < n; k++) {
        const kf3ds__clip_vertex *c = &in[k];
        kf3ds__clip_screen(p, vs, c, &fv[k].X, &fv[k].Y, &fv[k].v[0]);
        fv[k].v[1] = c->a[0];
        fv[k].v[2] = c->a[1];
        fv[k].v[3] = c->a[2];
    }
    for (k = 1; k + 1 < n; k++)
        covered |= fill(fb, p, &fv[0], &fv[k], &fv[k + 1],
                        kf3ds__screen_area(fv[0].X, fv[0].Y, fv[k].X, fv[k].Y, fv[k + 1].X,
                                           fv[k + 1].Y),
                        0, flat, color[0] | 0xFF000000u);
    return covered;
}

/* A triangle inside every plane to the fill (kf3ds__triangle and
 * kf3ds__triangle_inside). */
static inline int triangle_unclipped(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                                     const kf3ds__vertex *const vs[3], int64_t area,
                                     const uint32_t color[3], int flat, int cull)
{
    kf3ds__fill_vertex f[3];
    int k;
    for (k = 0; k < 3; k++)
        kf3ds__fill_vertex_of(&f[k], vs[k], color[k], flat);
    return fill(fb, p, &f[0], &f[1], &f[2], area, cull, flat, color[0] | 0xFF000000u);
}

int kf3ds__triangle(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *v0,
               const kf3ds__vertex *v1, const kf3ds__vertex *v2, const uint32_t color[3], int cull)
{
    uint32_t all = v0->code | v1->code | v2->code;
    int flat = color[0] == color[1] && color[1] == color[2];
    const kf3ds__vertex *vs[3];
    if ((v0->code & v1->code & v2->code) || (all & OC_BAD))
        return 0;
    if (!fb->depth)
        return 0;
    vs[0] = v0;
    vs[1] = v1;
    vs[2] = v2;
    if (all & OC_CLIP)
        return triangle_clipped(fb, p, vs, all, color, flat, cull);
    return triangle_unclipped(fb, p, vs, kf3ds__screen_area(v0->X, v0->Y, v1->X, v1->Y, v2->X, v2->Y),
                              color, flat, cull);
}

int kf3ds__triangle_inside(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                           const kf3ds__vertex *const vs[3], int64_t area,
                           const uint32_t color[3])
{
    return triangle_unclipped(fb, p, vs, area, color, color[0] == color[1] && color[1] == color[2],
                              0);
}

int kf3ds_raster_triangle(kf3ds_framebuffer *fb, const kf3ds_view *view,
                          const float points[3][3], const uint32_t color[3], int cull)
{
    kf3ds__projection pr;
    kf3ds__vertex v[3];
    int k;
    if (!kf3ds__framebuffer_ok(fb) || !fb->depth || !points || !color ||
        !kf3ds__projection_setup(&pr, view, fb->width, fb->height))
        return 0;
    for (k = 0; k < 3; k++)
        kf3ds__classify_world(&pr, points[k], &v[k]);
    return kf3ds__triangle(fb, &pr, &v[0], &v[1], &v[2], color, cull ? 1 : 0);
}
