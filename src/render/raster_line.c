/* Lines: clipped against the near plane and the guard band in view space,
 * then against the screen in pixels, and stepped one pixel at a time along
 * their major axis, with 1/d interpolated for the optional depth test. Lines
 * never write depth. */
#include "raster.h"

/* Projected end points beyond this, in pixels, are dropped as absurd. */
#define SCREEN_LIMIT (2.0f * (float)KF3DS__MAX_DIM + KF3DS__GUARD_BAND)

/* A screen-space segment, already inside the guard band; w = 1/d is linear
 * along it. Clipped to the screen rectangle, then stepped one pixel at a time
 * along its major axis. */
static void line2d(kf3ds_framebuffer *fb, float x0, float y0, float w0, float x1, float y1,
                   float w1, uint32_t color, int depth_test)
{
    const float W = (float)fb->width, H = (float)fb->height;
    float t0 = 0.0f, t1 = 1.0f, dx = x1 - x0, dy = y1 - y0, dw = w1 - w0;
    float pq[4][2];
    float sx, sy, sw, len;
    int i, n;
    pq[0][0] = -dx, pq[0][1] = x0;     /* x >= 0 */
    pq[1][0] = dx, pq[1][1] = W - x0;  /* x <= W */
    pq[2][0] = -dy, pq[2][1] = y0;     /* y >= 0 */
    pq[3][0] = dy, pq[3][1] = H - y0;  /* y <= H */
    if (x0 >= 0.0f && x0 <= W && x1 >= 0.0f && x1 <= W && y0 >= 0.0f && y0 <= H && y1 >= 0.0f &&
        y1 <= H)
        i = 4; /* on screen already (the common case) */
    else
        i = 0;
    for (; i < 4; i++) {
        float pp = pq[i][0], qq = pq[i][1];
        if (pp == 0.0f) {
            if (qq < 0.0f)
                return;
        } else {
            float r = qq / pp;
            if (pp < 0.0f) {
                if (r > t0)
                    t0 = r;
            } else if (r < t1) {
                t1 = r;
            }
        }
    }
    if (!(t0 <= t1))
        return;
    x1 = x0 + dx * t1;
    y1 = y0 + dy * t1;
    w1 = w0 + dw * t1;
    x0 = x0 + dx * t0;
    y0 = y0 + dy * t0;
    w0 = w0 + dw * t0;
    dx = x1 - x0;
    dy = y1 - y0;
    len = fabsf(dx) > fabsf(dy) ? fabsf(dx) : fabsf(dy);
    if (!(len <= 4.0f * (float)KF3DS__MAX_DIM))
        return;
    n = (int)len + 1;
    sx = dx / (float)n;
    sy = dy / (float)n;
    sw = (w1 - w0) / (float)n;
    color |= 0xFF000000u;
    for (i = 0; i <= n; i++) {
        float fx = x0 + sx * (float)i, fy = y0 + sy * (float)i;
        int px = (int)fx, py = (int)fy;
        size_t idx;
        if (px >= fb->width)
            px = fb->width - 1;
        if (py >= fb->height)
            py = fb->height - 1;
        if (px < 0)
            px = 0;
        if (py < 0)
            py = 0;
        idx = (size_t)py * (size_t)fb->width + (size_t)px;
        if (depth_test && fb->depth) {
            float w = w0 + sw * (float)i;
            /* a little slack so lines on surfaces stay visible (depth holds 1/d) */
            if (!(w * 1.001f >= fb->depth[idx]))
                continue;
        }
        fb->color[idx] = color;
    }
}

void kf3ds__line(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *a,
                 const kf3ds__vertex *b, uint32_t color, int depth_test)
{
    uint32_t all = a->code | b->code;
    float ax = a->x, ay = a->y, ad = a->d, bx = b->x, by = b->y, bd = b->d;
    float sa[2], sb[2], wa, wb;
    int plane;
    if ((a->code & b->code & OC_CLIP) || (all & OC_BAD) || !kf3ds__framebuffer_ok(fb))
        return;
    if (!(all & OC_CLIP)) {
        /* both projected already */
        const float k = 1.0f / (float)KF3DS__SUBPIXELS;
        line2d(fb, (float)a->X * k, (float)a->Y * k, a->w, (float)b->X * k, (float)b->Y * k, b->w,
               color, depth_test);
        return;
    }
    if (all & OC_CLIP) {
        float t0 = 0.0f, t1 = 1.0f;
        for (plane = 0; plane < 5; plane++) {
            float da, db;
            if (!(all & (1u << plane)))
                continue;
            da = kf3ds__plane_dist[plane](p, ax, ay, ad);
            db = kf3ds__plane_dist[plane](p, bx, by, bd);
            if (da < 0.0f && db < 0.0f)
                return;
            if (da < 0.0f) {
                float t = da / (da - db);
                if (t > t0)
                    t0 = t;
            } else if (db < 0.0f) {
                float t = da / (da - db);
                if (t < t1)
                    t1 = t;
            }
        }
        if (!(t0 <= t1))
            return;
        {
            float nax = ax + (bx - ax) * t0, nay = ay + (by - ay) * t0, nad = ad + (bd - ad) * t0;
            float nbx = ax + (bx - ax) * t1, nby = ay + (by - ay) * t1, nbd = ad + (bd - ad) * t1;
            ax = nax, ay = nay, ad = nad, bx = nbx, by = nby, bd = nbd;
        }
        if (ad < p->near_d)
            ad = p->near_d;
        if (bd < p->near_d)
            bd = p->near_d;
    }
    wa = 1.0f / ad;
    wb = 1.0f / bd;
    sa[0] = p->cx + p->fx * ax * wa;
    sa[1] = p->cy - p->fy * ay * wa;
    sb[0] = p->cx + p->fx * bx * wb;
    sb[1] = p->cy - p->fy * by * wb;
    if (!(fabsf(sa[0]) <= SCREEN_LIMIT && fabsf(sa[1]) <= SCREEN_LIMIT &&
          fabsf(sb[0]) <= SCREEN_LIMIT && fabsf(sb[1]) <= SCREEN_LIMIT))
        return;
    line2d(fb, sa[0], sa[1], wa, sb[0], sb[1], wb, color, depth_test);
}

void kf3ds__line_world(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float a[3],
                       const float b[3], uint32_t color, int depth_test)
{
    kf3ds__vertex v[2];
    kf3ds__classify_world(p, a, &v[0]);
    kf3ds__classify_world(p, b, &v[1]);
    kf3ds__line(fb, p, &v[0], &v[1], color, depth_test);
}

void kf3ds_raster_line(kf3ds_framebuffer *fb, const kf3ds_view *view, const float a[3],
                       const float b[3], uint32_t color, int depth_test)
{
    kf3ds__projection p;
    if (!kf3ds__framebuffer_ok(fb) || !a || !b ||
        !kf3ds__projection_setup(&p, view, fb->width, fb->height))
        return;
    kf3ds__line_world(fb, &p, a, b, color, depth_test);
}
