/* The rasterizer's internal interface, shared by its files and the scene
 * renderer:
 *   raster.c           framebuffer, projection setup, vertex transform, kf3ds_view_project
 *   raster_triangle.c  flat and Gouraud triangles (raster_edges.h: their setup)
 *   raster_shaded.c    textured and blended triangles
 *   raster_clip.c      clipping polygons in view space
 *   raster_line.c      line clipping and stepping
 *   raster_font.c      the built-in 8×8 font
 * The projection helpers are inline here because every vertex goes through
 * them.
 *
 * The projection (kf3ds__projection_setup): square pixels, pixel centres at
 * (x + 0.5, y + 0.5), screen x = cx + f·x/d, screen y = cy − f·y/d with d = −z
 * the view depth. A vertex gets an outcode against the near and far planes and
 * a guard band of KF3DS__GUARD_BAND pixels around the screen; a vertex inside
 * the near plane and the guard band also gets its fixed-point screen position
 * (KF3DS__SUB_BITS fractional bits) and w = 1/d.
 *
 * Framebuffers are limited to KF3DS__MAX_DIM pixels on a side (bigger ones are
 * left untouched by the primitives) so that the fixed-point arithmetic stays
 * exact. */
#ifndef KF3DS_RASTER_H
#define KF3DS_RASTER_H
#include "../geometry.h"
#include "../kmath.h"
#include "kf3ds_render.h"

#define KF3DS__SUB_BITS 8                         /* fractional bits of screen positions */
#define KF3DS__SUBPIXELS (1 << KF3DS__SUB_BITS)   /* fixed-point steps per pixel */
#define KF3DS__GUARD_BAND 4096.0f                 /* pixels beyond each screen edge */
#define KF3DS__MAX_DIM 32768
#define KF3DS__BIG_COORD 1e18f    /* view-space coordinates beyond this are treated as bad */
#define KF3DS__FIX_OFFSET 1048832 /* (GUARD_BAND + 1) · SUBPIXELS: makes every screen
                                   * coordinate positive before rounding */

/* Outcodes: the planes a vertex is outside of. The first five are the clip
 * planes, in the order of kf3ds__plane_dist. */
#define OC_NEAR 1u
#define OC_LEFT 2u               /* the guard band's edges */
#define OC_RIGHT 4u
#define OC_TOP 8u
#define OC_BOTTOM 16u
#define OC_CLIP 31u              /* any of the five above */
#define OC_FAR 32u
#define OC_BAD 64u               /* a coordinate beyond KF3DS__BIG_COORD or NaN */

/* The triangle fill (raster_fill.h): the plain C reference or a fast
 * version, the same bytes either way. */
struct kf3ds__fill_vertex;
typedef int (*kf3ds__fill_fn)(kf3ds_framebuffer *fb, const struct kf3ds__fill_vertex *a,
                              const struct kf3ds__fill_vertex *b,
                              const struct kf3ds__fill_vertex *c, int64_t area, int flat,
                              uint32_t flat_color);
/* The fastest fill this build and CPU have (raster_fill_pick.c). */
kf3ds__fill_fn kf3ds__fill_pick(void);

typedef struct kf3ds__projection {
    float m[3][4];           /* world → view */
    float fx, fy, cx, cy;    /* focal lengths and centre, in pixels */
    float near_d, far_d;     /* far_d is +inf when the view has none */
    float xlo, xhi, ylo, yhi; /* the guard band, in pixels */
    int width, height;
    kf3ds__fill_fn fill;     /* kf3ds__fill_pick's, chosen once per setup */
} kf3ds__projection;

/* A vertex ready for drawing. */
typedef struct kf3ds__vertex {
    float x, y, d;           /* view space, d = −z */
    float w;                 /* 1/d (code & OC_CLIP == 0 only) */
    int32_t X, Y;            /* fixed-point pixel position (idem) */
    uint32_t code;           /* OC_* */
} kf3ds__vertex;

/* Sets the projection up for a width×height framebuffer; returns 0 when the
 * view is unusable (NULL, a matrix entry beyond KF3DS__BIG_COORD) or the size
 * is out of range. */
int kf3ds__projection_setup(kf3ds__projection *p, const kf3ds_view *view, int width, int height);
/* Transforms n points (pts: x y z each) by the 3×4 row-major matrix m12 (world
 * or model → view) and classifies them. */
void kf3ds__transform_points(const kf3ds__projection *p, const float *m12, const float *pts,
                             uint32_t n, kf3ds__vertex *out);
/* A triangle with a colour per vertex (raster_triangle.c): cull > 0 drops
 * back faces (clockwise on screen), cull < 0 front faces, 0 none. Returns 1
 * when it covered a pixel centre. */
int kf3ds__triangle(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *v0,
                    const kf3ds__vertex *v1, const kf3ds__vertex *v2, const uint32_t color[3],
                    int cull);
/* The same for a triangle whose corners all have code 0 (inside every
 * plane: nothing to drop or clip), no culling, on a framebuffer with depth:
 * the checks kf3ds__triangle would make are left out (draw.c's meshes wholly
 * inside). area: the corners' doubled signed area on screen,
 * (X1−X0)(Y2−Y0) − (X2−X0)(Y1−Y0) in 64 bits, which draw.c has computed for
 * the face's side already (the fill would compute it again). */
int kf3ds__triangle_inside(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                           const kf3ds__vertex *const vs[3], int64_t area,
                           const uint32_t color[3]);
/* The clipper (raster_clip.c). A polygon vertex in view space with up to
 * KF3DS__CLIP_ATTRS attributes; src is the input vertex it is (0..2), −1 for
 * one made by a cut. */
#define KF3DS__CLIP_ATTRS 16
#define KF3DS__CLIP_MAX 16       /* a triangle cut by five planes has at most 8 */
typedef struct kf3ds__clip_vertex {
    float x, y, d;
    float a[KF3DS__CLIP_ATTRS];
    int src;
} kf3ds__clip_vertex;
/* Clips the polygon bufa[0..n) against the clip planes among `planes` (OC_
 * bits), interpolating the first nattr attributes; bufb is scratch. Returns
 * the number of vertices (0 when fewer than 3 remain), *result the buffer
 * holding them. */
int kf3ds__clip(const kf3ds__projection *p, uint32_t planes, kf3ds__clip_vertex *bufa,
                kf3ds__clip_vertex *bufb, int n, int nattr, kf3ds__clip_vertex **result);
/* The fixed-point screen position and 1/d of a clipped vertex: its input
 * vertex's (vs[src]) or, for a cut, projected. */
void kf3ds__clip_screen(const kf3ds__projection *p, const kf3ds__vertex *const vs[3],
                        const kf3ds__clip_vertex *c, int32_t *X, int32_t *Y, float *w);

/* ---- textured and blended triangles (raster_shaded.c) ------------------ */

#define KF3DS__MAX_LEVELS 12     /* mipmap levels: sides up to 2048 */
#define KF3DS__MAX_MAPS 3        /* texture 1, texture 2, opacity */
/* How a map continues outside 0..1 (texture.c sets it from the tiling bits). */
#define KF3DS__WRAP_TILE 0
#define KF3DS__WRAP_MIRROR 1     /* two mirrored copies per unit */
#define KF3DS__WRAP_NONE 2       /* no map outside [0, 1) */

/* A picture ready for sampling: power-of-two sides, every mipmap level (level
 * k is max(1, w >> k) × max(1, h >> k)), 0xAARRGGBB, top row first. */
typedef struct kf3ds__texture {
    uint32_t *texels;            /* all levels, level 0 first (NULL: no picture) */
    uint32_t level_offset[KF3DS__MAX_LEVELS];
    int log2w, log2h;            /* of level 0 */
    int levels;
    int wrap;                    /* KF3DS__WRAP_* */
} kf3ds__texture;

/* How the pixels of a shaded triangle are made from its interpolated values
 * (the varyings below): with T the surface colour,
 *     T = base, or texture 1's texel where it has one (its strength, alpha and
 *         the diffuse colour are baked into its texels, texture.c);
 *     T = T·(1 − a2) + c2 with texture 2's premultiplied texel (c2, a2);
 *     colour = add + mul·T,  opacity = alpha · opacity map's texel alpha;
 * then written (blend NONE, with depth), mixed over the framebuffer by the
 * opacity (ALPHA) or added to it times the opacity (ADD), the last two
 * without writing depth. */
#define KF3DS__BLEND_NONE 0
#define KF3DS__BLEND_ALPHA 1
#define KF3DS__BLEND_ADD 2
typedef struct kf3ds__surface {
    const kf3ds__texture *map[KF3DS__MAX_MAPS]; /* texture 1, texture 2, opacity; NULL: none */
    float base[3];               /* T where texture 1 has no texel, 0..255 */
    int blend;                   /* KF3DS__BLEND_* */
} kf3ds__surface;

/* The varyings of a shaded vertex, as offsets into kf3ds__varyings.v. */
#define KF3DS__VAR_ADD 0         /* 3: colour added, channels 0..1 */
#define KF3DS__VAR_MUL 3         /* 3: times the surface colour */
#define KF3DS__VAR_ALPHA 6       /* opacity 0..1 */
#define KF3DS__VAR_ST 7          /* s, t of map k at 7 + 2k (the map's own placement) */
#define KF3DS__VARS (KF3DS__VAR_ST + 2 * KF3DS__MAX_MAPS)
typedef struct kf3ds__varyings {
    float v[KF3DS__VARS];
} kf3ds__varyings;

/* A triangle drawn as the surface says, depth-tested, clipped like
 * kf3ds__triangle; both sides are drawn. Returns 1 when it covered a pixel
 * centre. */
int kf3ds__triangle_shaded(kf3ds_framebuffer *fb, const kf3ds__projection *p,
                           const kf3ds__vertex *const v[3], const kf3ds__varyings var[3],
                           const kf3ds__surface *surface);
/* The texel of `t` at map coordinates (s, t) (v up), bilinear on mipmap level
 * `level` (clamped to the levels there are); 0 when the map has none there
 * (KF3DS__WRAP_NONE outside [0, 1)), else 1 with *out set. */
int kf3ds__texture_sample(const kf3ds__texture *tex, float s, float t, int level, uint32_t *out);

/* Lines (raster_line.c), never writing depth. */
void kf3ds__line(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds__vertex *a,
                 const kf3ds__vertex *b, uint32_t color, int depth_test);
void kf3ds__line_world(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float a[3],
                       const float b[3], uint32_t color, int depth_test);

/* ------------------------------------------------------------------------ */
/* Inline helpers                                                           */
/* ------------------------------------------------------------------------ */

/* A framebuffer the primitives draw into. */
static inline int kf3ds__framebuffer_ok(const kf3ds_framebuffer *fb)
{
    return fb && fb->color && fb->width > 0 && fb->height > 0 && fb->width <= KF3DS__MAX_DIM &&
           fb->height <= KF3DS__MAX_DIM;
}

/* A world point in view space. */
/* Twice the signed area of the screen triangle (a, b, c) from the snapped
 * fixed-point positions, exact in 64 bits: positive when it is clockwise on
 * screen (y down). Its sign is a face's side (draw.c) and the fill's
 * winding; the same value serves both, so draw.c hands it on. */
static inline int64_t kf3ds__screen_area(int32_t ax, int32_t ay, int32_t bx, int32_t by,
                                         int32_t cx, int32_t cy)
{
    return (int64_t)(bx - ax) * (cy - ay) - (int64_t)(cx - ax) * (by - ay);
}

static inline void kf3ds__to_view(const kf3ds__projection *p, const float w[3], float out[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = p->m[i][0] * w[0] + p->m[i][1] * w[1] + p->m[i][2] * w[2] + p->m[i][3];
}

/* Signed distances to the clip planes (inside >= 0). The outcodes and the
 * clippers use these same expressions so that they agree exactly. */
static inline float kf3ds__dist_near(const kf3ds__projection *p, float x, float y, float d)
{
    (void)x;
    (void)y;
    return d - p->near_d;
}
static inline float kf3ds__dist_left(const kf3ds__projection *p, float x, float y, float d)
{
    (void)y;
    return p->fx * x + (p->cx - p->xlo) * d;
}
static inline float kf3ds__dist_right(const kf3ds__projection *p, float x, float y, float d)
{
    (void)y;
    return (p->xhi - p->cx) * d - p->fx * x;
}
static inline float kf3ds__dist_top(const kf3ds__projection *p, float x, float y, float d)
{
    (void)x;
    return (p->cy - p->ylo) * d - p->fy * y;
}
static inline float kf3ds__dist_bottom(const kf3ds__projection *p, float x, float y, float d)
{
    (void)x;
    return (p->yhi - p->cy) * d + p->fy * y;
}

/* The distance to clip plane i (the bit 1 << i of the outcodes). */
typedef float (*kf3ds__dist_fn)(const kf3ds__projection *, float, float, float);
static const kf3ds__dist_fn kf3ds__plane_dist[5] = { kf3ds__dist_near, kf3ds__dist_left,
                                                     kf3ds__dist_right, kf3ds__dist_top,
                                                     kf3ds__dist_bottom };

/* Screen position of a view-space point in front of the near plane (w = 1/d),
 * clamped into the guard band, in fixed point. */
static inline void kf3ds__project_fixed(const kf3ds__projection *p, float x, float y, float w,
                                        int32_t *X, int32_t *Y)
{
    float sx = p->cx + p->fx * x * w;
    float sy = p->cy - p->fy * y * w;
    if (!(sx >= p->xlo))
        sx = p->xlo;
    if (sx > p->xhi)
        sx = p->xhi;
    if (!(sy >= p->ylo))
        sy = p->ylo;
    if (sy > p->yhi)
        sy = p->yhi;
    *X = (int32_t)(sx * (float)KF3DS__SUBPIXELS + ((float)KF3DS__FIX_OFFSET + 0.5f)) -
         KF3DS__FIX_OFFSET;
    *Y = (int32_t)(sy * (float)KF3DS__SUBPIXELS + ((float)KF3DS__FIX_OFFSET + 0.5f)) -
         KF3DS__FIX_OFFSET;
}

/* The vertex at view-space (x, y, z): its outcode, and inside the clip planes
 * its screen position and 1/d. */
static inline void kf3ds__classify(const kf3ds__projection *p, float x, float y, float z,
                                   kf3ds__vertex *o)
{
    float d = -z;
    uint32_t c = 0;
    o->x = x;
    o->y = y;
    o->d = d;
    o->w = 0.0f;
    o->X = o->Y = 0;
    if (!(fabsf(x) <= KF3DS__BIG_COORD && fabsf(y) <= KF3DS__BIG_COORD &&
          fabsf(d) <= KF3DS__BIG_COORD)) {
        o->code = OC_BAD;
        return;
    }
    if (!(kf3ds__dist_near(p, x, y, d) >= 0.0f))
        c |= OC_NEAR;
    if (d > p->far_d)
        c |= OC_FAR;
    if (kf3ds__dist_left(p, x, y, d) < 0.0f)
        c |= OC_LEFT;
    if (kf3ds__dist_right(p, x, y, d) < 0.0f)
        c |= OC_RIGHT;
    if (kf3ds__dist_top(p, x, y, d) < 0.0f)
        c |= OC_TOP;
    if (kf3ds__dist_bottom(p, x, y, d) < 0.0f)
        c |= OC_BOTTOM;
    o->code = c;
    if (!(c & OC_CLIP)) {
        o->w = 1.0f / d;
        kf3ds__project_fixed(p, x, y, o->w, &o->X, &o->Y);
    }
}

/* The same for a world point. */
static inline void kf3ds__classify_world(const kf3ds__projection *p, const float w[3],
                                         kf3ds__vertex *o)
{
    float v[3];
    kf3ds__to_view(p, w, v);
    kf3ds__classify(p, v[0], v[1], v[2], o);
}

#endif
