/* The colours of a mesh's normal classes under the headlight alone
 * (r->headlight_only), for smooth shading (draw.c). kf3ds__class_colors_all
 * lights every class of a mesh whose classes share one material at once:
 * the plain C reference (class_colors_plain.c) one class after another, the
 * SSE2 version (class_colors_sse2.c) four at a time with the same bits; the
 * build's is chosen here (docs/architecture.md, "Fast paths"). */
#ifndef KF3DS_CLASS_COLORS_H
#define KF3DS_CLASS_COLORS_H
#include "renderer.h"
#include "../simd.h"
#include <math.h>

/* Normal class ci's normal through the rows C, flipped by sign, not yet
 * normalised. */
static inline void kf3ds__class_normal(const kf3ds__render_mesh *rm, uint32_t ci,
                                       const float C[3][3], float sign, float n[3])
{
    const float *cn = rm->class_normals[ci];
    int k;
    for (k = 0; k < 3; k++)
        n[k] = sign * (C[k][0] * cn[0] + C[k][1] * cn[1] + C[k][2] * cn[2]);
}

/* draw.c's class_terms then terms_color, when the frame has no file lights and no
 * atmosphere (r->headlight_only): kf3ds__shade_terms then reads only the
 * normal's z, so only z is divided by the length, and no light loop or fog
 * is visited. The same operations in the same order, so the same colour
 * (scenes of many small smooth meshes light several classes per mesh). */
static inline uint32_t kf3ds__class_color_headlight(const kf3ds_renderer *r,
                                                    const kf3ds__render_mesh *rm, uint32_t ci,
                                                    const float C[3][3], float sign,
                                                    const float d[3])
{
    const kf3ds__render_material *mt = &r->materials[rm->class_material[ci]];
    float n[3], l, nd = 0.0f, acc[3], add[3], mul[3], spec = 0.0f;
    int k;
    kf3ds__class_normal(rm, ci, C, sign, n);
    l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l > 0.0f && l <= 1e30f) { /* kf3ds__normalize3f's z, else 0 */
        nd = n[2] / l;
        nd = nd > 0.0f ? nd : 0.0f;
    }
    for (k = 0; k < 3; k++)
        acc[k] = KF3DS__FILL_LIGHT + r->headlight[k] * nd;
    if (mt->shine_strength > 0.0f)
        spec += r->headlight[0] * kf3ds__highlight(nd, mt->shine_exponent);
    kf3ds__mix_terms(mt, r->ambient, acc, spec, add, mul);
    return kf3ds__pack_rgb(add[0] + mul[0] * d[0], add[1] + mul[1] * d[1],
                           add[2] + mul[2] * d[2]);
}

/* kf3ds__class_color_headlight for every class ci of rm (rm->class_slot is
 * not KF3DS__NO_SLOT) on the side `back`, stored at r->class_color[2ci +
 * back] and marked computed with r->color_stamp. */
void kf3ds__class_colors_all_plain(kf3ds_renderer *r, const kf3ds__render_mesh *rm,
                                   const float C[3][3], int back);
#if defined(KF3DS__SSE2)
void kf3ds__class_colors_all_sse2(kf3ds_renderer *r, const kf3ds__render_mesh *rm,
                                  const float C[3][3], int back);
#define kf3ds__class_colors_all kf3ds__class_colors_all_sse2
#else
#define kf3ds__class_colors_all kf3ds__class_colors_all_plain
#endif

#endif
