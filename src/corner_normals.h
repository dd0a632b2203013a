/* The smoothing-group normal rule of the exports (docs/gltf.md, "Meshes";
 * the renderer's rule too): a corner's normal is the normalised sum of the
 * face normals of the faces at its point that share a smoothing group with
 * its face; a face without groups, or a sum without direction, keeps the
 * face's own normal (0, 0, 1 when the face has none). Shared by the glTF
 * export (src/gltf/export_mesh.c) and the static export
 * (src/static/static_mesh.c), so that their normals are the same bits. */
#ifndef KF3DS_CORNER_NORMALS_H
#define KF3DS_CORNER_NORMALS_H
#include <stddef.h>
#include <stdint.h>

/* n normalised into out as floats; 0 (out untouched) when it has no
 * direction (shorter than 1e-30, longer than 1e300, or NaN). */
int kf3ds__unit_normal(const double n[3], float out[3]);

/* One face corner at a point. */
typedef struct kf3ds__corner {
    uint32_t mask;   /* its face's smoothing groups */
    uint32_t corner; /* 3 * face + k: face indexes the caller's face normals */
} kf3ds__corner;

/* Given each run of a point's corners that gets one normal, and that normal. */
typedef void (*kf3ds__corner_normal_fn)(void *user, const kf3ds__corner *cs, size_t n,
                                        const float normal[3]);

/* The normals of one point's corners cs[0..n), n > 0: sorts cs by mask, then
 * corner, and passes every run of one normal to fn, in that order.
 * face_normal[f] is face f's unit normal, or 0, 0, 0 when it has none.
 * Scratch space of n elements each: sort, masks, sums. With more than
 * KF3DS__MAX_OVERLAP_MASKS distinct masks at the point only equal masks are
 * summed, so that a hostile file cannot make the sums quadratic. */
#define KF3DS__MAX_OVERLAP_MASKS 256
void kf3ds__corner_normals(kf3ds__corner *cs, size_t n, const float (*face_normal)[3],
                           kf3ds__corner *sort, uint32_t *masks, double (*sums)[3],
                           kf3ds__corner_normal_fn fn, void *user);

#endif
