/* The file's background and atmosphere (scene->environment, docs/format.md,
 * 'Background and atmosphere'), only the ones its USE_ chunks switch on:
 *  - backgrounds: a solid colour; a vertical gradient, top colour at the top
 *    row, bottom colour at the bottom, the middle colour at gradient_mid of
 *    the height up from the bottom, linear in between; a bitmap (the caller
 *    gives the picture, kf3ds_renderer_set_background) stretched over the
 *    whole frame;
 *  - atmospheres, as an amount f of the fog colour mixed into each lit
 *    vertex: linear fog from its near density at the near distance to its
 *    far density at the far one (held outside), view depth along −z; the
 *    distance cue the same towards black (dimming); layer fog between two
 *    world heights, f = density × the part of the eye-to-point segment inside
 *    the layer, relative to the layer's thickness (at most 1), with the
 *    density falling to 0 towards the layer's top or bottom when its
 *    fall-off bits ask, taken at the middle of that part.
 * The background is fogged too when the file says so (FOG_BGND, DCUE_BGND,
 * the layer fog's background bit), by the amount at the far distance (for
 * layer fog, its density). */
#include "renderer.h"
#include <string.h>

#define DEFAULT_BACKGROUND 0xFF303030u
#define LAYER_FOG_BACKGROUND 0x110000u /* 0x10000 as 3D Studio writes it, 0x100000 as
                                        * its toolkit documents it */

static float lerp_clamped(float d, float d0, float d1, float a0, float a1)
{
    float u;
    if (!(d1 > d0))
        return d >= d1 ? a1 : a0;
    u = (d - d0) / (d1 - d0);
    u = u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    return a0 + (a1 - a0) * u;
}

/* The fog amount at a view-space point. */
static float fog_amount(const kf3ds__fog *f, float px, float py, float pz)
{
    if (f->kind == KF3DS_ATMOSPHERE_FOG || f->kind == KF3DS_ATMOSPHERE_DISTANCE_CUE)
        return lerp_clamped(-pz, f->near_d, f->far_d, f->near_amount, f->far_amount);
    if (f->kind == KF3DS_ATMOSPHERE_LAYER_FOG) {
        float z0 = f->eye_z, z1 = f->eye_z + f->up[0] * px + f->up[1] * py + f->up[2] * pz;
        float len = sqrtf(px * px + py * py + pz * pz), lo, hi, inside, amount, mid;
        float thick = f->top - f->bottom;
        if (!(thick > 0.0f) || !(len > 0.0f))
            return 0.0f;
        lo = z0 < z1 ? z0 : z1;
        hi = z0 < z1 ? z1 : z0;
        if (hi > f->top)
            hi = f->top;
        if (lo < f->bottom)
            lo = f->bottom;
        if (!(hi > lo) && !(z0 == z1 && z0 >= f->bottom && z0 <= f->top))
            return 0.0f;
        /* the length of the segment inside the slab */
        inside = z0 == z1 ? len : len * (hi - lo) / fabsf(z1 - z0);
        amount = f->density * (inside < thick ? inside / thick : 1.0f);
        mid = z0 == z1 ? z0 : 0.5f * (lo + hi);
        if (f->flags & 0x2u) /* thinning towards the top */
            amount *= (f->top - mid) / thick;
        if (f->flags & 0x1u) /* ... towards the bottom */
            amount *= (mid - f->bottom) / thick;
        return amount;
    }
    return 0.0f;
}

void kf3ds__fog_terms(const kf3ds_renderer *r, float px, float py, float pz, float add[3],
                      float mul[3])
{
    const kf3ds__fog *f = &r->fog;
    float a;
    int k;
    if (f->kind == KF3DS_ATMOSPHERE_NONE)
        return;
    a = kf3ds__clamp01(fog_amount(f, px, py, pz));
    for (k = 0; k < 3; k++) {
        add[k] = add[k] * (1.0f - a) + f->color[k] * a;
        mul[k] *= 1.0f - a;
    }
}

/* The atmosphere of this frame, or none. Returns the amount that fogs the
 * background (0 when it stays clear). */
static float setup_fog(kf3ds_renderer *r, const kf3ds__projection *p)
{
    const kf3ds_environment *e = &r->scene->environment;
    kf3ds__fog *f = &r->fog;
    int k;
    memset(f, 0, sizeof *f);
    f->kind = e->atmosphere;
    switch (e->atmosphere) {
    case KF3DS_ATMOSPHERE_FOG:
        f->near_d = e->fog_near;
        f->far_d = e->fog_far;
        f->near_amount = e->fog_near_density;
        f->far_amount = e->fog_far_density;
        kf3ds__clamp_color(e->fog_color, f->color, 1.0f);
        return e->fog_background ? kf3ds__clamp01(f->far_amount) : 0.0f;
    case KF3DS_ATMOSPHERE_DISTANCE_CUE:
        f->near_d = e->cue_near;
        f->far_d = e->cue_far;
        f->near_amount = e->cue_near_dim;
        f->far_amount = e->cue_far_dim;
        return e->cue_background ? kf3ds__clamp01(f->far_amount) : 0.0f;
    case KF3DS_ATMOSPHERE_LAYER_FOG:
        f->bottom = e->layer_bottom;
        f->top = e->layer_top;
        f->density = e->layer_density;
        f->flags = e->layer_flags;
        kf3ds__clamp_color(e->layer_color, f->color, 1.0f);
        /* view → world: world = Rᵀ(v − t), so the eye is at −Rᵀt and a view
         * offset v rises by column 2 of R, read along the rows */
        for (k = 0; k < 3; k++) {
            f->up[k] = p->m[k][2];
            f->eye_z -= p->m[k][2] * p->m[k][3];
        }
        return (e->layer_flags & LAYER_FOG_BACKGROUND) ? kf3ds__clamp01(f->density) : 0.0f;
    default:
        f->kind = KF3DS_ATMOSPHERE_NONE;
        return 0.0f;
    }
}

static uint32_t mix_fog(uint32_t c, const float fog[3], float a)
{
    float r = (float)((c >> 16) & 0xFF) / 255.0f, g = (float)((c >> 8) & 0xFF) / 255.0f,
          b = (float)(c & 0xFF) / 255.0f;
    return kf3ds__pack_rgb(r + (fog[0] - r) * a, g + (fog[1] - g) * a, b + (fog[2] - b) * a);
}

/* The gradient's colour at height u (0 bottom, 1 top). */
static void gradient_at(const kf3ds_environment *e, float u, float out[3])
{
    float mid = kf3ds__clamp01(e->gradient_mid), c0[3], c1[3], t;
    int k;
    if (u >= mid) {
        t = mid < 1.0f ? (u - mid) / (1.0f - mid) : 1.0f;
        kf3ds__clamp_color(e->gradient[1], c0, 1.0f);
        kf3ds__clamp_color(e->gradient[0], c1, 1.0f);
    } else {
        t = mid > 0.0f ? u / mid : 1.0f;
        kf3ds__clamp_color(e->gradient[2], c0, 1.0f);
        kf3ds__clamp_color(e->gradient[1], c1, 1.0f);
    }
    for (k = 0; k < 3; k++)
        out[k] = c0[k] + (c1[k] - c0[k]) * t;
}

void kf3ds__setup_environment(kf3ds_renderer *r, const kf3ds__projection *p,
                              const kf3ds_render_options *o, kf3ds_framebuffer *fb)
{
    const kf3ds_environment *e = &r->scene->environment;
    uint32_t clear = o->background ? (o->background | 0xFF000000u) : DEFAULT_BACKGROUND;
    int own = !o->no_file_environment, x, y;
    float fog_bg = 0.0f;
    size_t W = (size_t)fb->width;
    memset(&r->fog, 0, sizeof r->fog);
    if (own && p)
        fog_bg = setup_fog(r, p);
    if (own && e->background == KF3DS_BACKGROUND_SOLID)
        clear = kf3ds__pack_rgb(kf3ds__clamp01(e->solid[0]), kf3ds__clamp01(e->solid[1]),
                                kf3ds__clamp01(e->solid[2]));
    if (fog_bg > 0.0f)
        clear = mix_fog(clear, r->fog.color, fog_bg);
    kf3ds_framebuffer_clear(fb, clear);
    if (!own || (e->background != KF3DS_BACKGROUND_GRADIENT &&
                 !(e->background == KF3DS_BACKGROUND_BITMAP && r->background.texels)))
        return;
    for (y = 0; y < fb->height; y++) {
        uint32_t *row = fb->color + (size_t)y * W;
        float u = fb->height > 1 ? 1.0f - (float)y / (float)(fb->height - 1) : 0.5f;
        if (e->background == KF3DS_BACKGROUND_GRADIENT) {
            float c[3];
            uint32_t px;
            gradient_at(e, u, c);
            px = kf3ds__pack_rgb(c[0], c[1], c[2]);
            if (fog_bg > 0.0f)
                px = mix_fog(px, r->fog.color, fog_bg);
            for (x = 0; x < fb->width; x++)
                row[x] = px;
        } else {
            float t = 1.0f - ((float)y + 0.5f) / (float)fb->height;
            for (x = 0; x < fb->width; x++) {
                uint32_t texel = 0;
                kf3ds__texture_sample(&r->background, ((float)x + 0.5f) / (float)fb->width, t, 0,
                                      &texel);
                texel |= 0xFF000000u;
                row[x] = fog_bg > 0.0f ? mix_fog(texel, r->fog.color, fog_bg) : texel;
            }
        }
    }
}
