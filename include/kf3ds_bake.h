/* kf3ds bake as a library call: a scene's keyframer animation evaluated at a
 * list of frames and laid out as a .kfb file (docs/kfb.md) in memory.
 *
 * Part of libkf3ds (src/bake/): C99, libc and libm only, no file I/O; the
 * bytes come from the options' allocator. include/kf3ds_kfb.h reads them.
 *
 *     kf3ds_bake_options o = { 0 };        (every zero field: its default)
 *     unsigned char *kfb; size_t size;
 *     o.flags = KF3DS_BAKE_FIXED;          (16.16 fixed point)
 *     if (kf3ds_bake(scene, &o, &kfb, &size, NULL, NULL) == KF3DS_OK) {
 *         ... use kfb[0..size) ...
 *         kf3ds_bake_free(kfb, &o);
 *     }
 */
#ifndef KF3DS_BAKE_H
#define KF3DS_BAKE_H
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Option flags. */
#define KF3DS_BAKE_FIXED     0x1 /* signed 32-bit fixed point instead of IEEE binary32 */
#define KF3DS_BAKE_NO_MESHES 0x2 /* matrices, visibility and channels only: no meshes
                                  * and no materials */

/* frac_bits: 0 is the default (16), 1 to KF3DS_BAKE_MAX_FRAC_BITS that many;
 * KF3DS_BAKE_FRAC_AUTO the most with which every stored and every placed value
 * fits; KF3DS_BAKE_FRAC_NONE no fraction bits (whole numbers). */
#define KF3DS_BAKE_MAX_FRAC_BITS 28
#define KF3DS_BAKE_FRAC_AUTO (-1)
#define KF3DS_BAKE_FRAC_NONE (-2)

/* Zero-initialise; every zero field means its default. */
typedef struct kf3ds_bake_options {
    kf3ds_allocator allocator; /* where every block comes from, the bytes too
                                * (kf3ds_bake_free gives them back); both hooks
                                * NULL: the library's default allocator */
    unsigned flags;            /* KF3DS_BAKE_... */
    int frac_bits;             /* fixed point only; anything but 0 implies
                                * KF3DS_BAKE_FIXED (like --frac-bits) */
    /* The frames: frame i is (frame_first + i·frame_step) / frame_scale for
     * i < num_frames (frame_step 0 means 1; frame_scale 1, 10, 100, ... or
     * 1,000,000, 0 means 1); the last frame must fit in 32 bits. With
     * num_frames 0, the scene's segment: from segment_start to segment_end
     * at that step (frame_first is then not read). */
    int32_t frame_first, frame_step;
    uint32_t frame_scale, num_frames;
    /* The nodes: those with these names or instance names (each must match at
     * least one node), in the scene's order; num_nodes 0: every node. */
    const char *const *nodes;
    uint32_t num_nodes;
} kf3ds_bake_options;

/* Why kf3ds_bake failed, beside its status. */
typedef enum kf3ds_bake_problem {
    KF3DS_BAKE_OK = 0,
    KF3DS_BAKE_BAD_OPTION,   /* KF3DS_ERR_ARGUMENT: NULL arguments, a bad field */
    KF3DS_BAKE_STATIC,       /* KF3DS_ERR_ARGUMENT: no keyframer nodes, nothing to bake */
    KF3DS_BAKE_UNKNOWN_NODE, /* KF3DS_ERR_ARGUMENT: info->missing_node names no node */
    KF3DS_BAKE_RANGE,        /* KF3DS_ERR_LIMIT: info->largest does not fit the fixed
                              * point asked for; info->frac_bits would (-1: none) */
    KF3DS_BAKE_TOO_BIG,      /* KF3DS_ERR_LIMIT: the file would exceed 4 GiB */
    KF3DS_BAKE_NOMEM         /* KF3DS_ERR_NOMEM: the allocator returned NULL */
} kf3ds_bake_problem;

/* What was baked (what `kf3ds bake` prints), or why not. */
typedef struct kf3ds_bake_info {
    kf3ds_bake_problem problem;
    int fixed;                 /* 1: fixed point, 0: float */
    int frac_bits;             /* the fraction bits used (0 in a float file) */
    double largest;            /* the largest magnitude of any stored or placed value */
    int32_t frame_first, frame_step; /* the frames baked, the defaults resolved */
    uint32_t frame_scale, num_frames;
    uint32_t num_nodes, num_channels, num_meshes, num_materials;
    const char *missing_node;  /* KF3DS_BAKE_UNKNOWN_NODE: the option's string */
} kf3ds_bake_info;

/* Bakes the scene into a new buffer: *bytes (free it with kf3ds_bake_free and
 * the same options) and *size, a valid .kfb file. `options`, `info` and
 * `error` may be NULL (NULL options: every default); on failure *bytes is
 * NULL, info->problem says why and error->message in a few words. */
KF3DS_API kf3ds_status kf3ds_bake(const kf3ds_scene *scene, const kf3ds_bake_options *options,
                                  unsigned char **bytes, size_t *size, kf3ds_bake_info *info,
                                  kf3ds_diag *error);
KF3DS_API void kf3ds_bake_free(unsigned char *bytes, const kf3ds_bake_options *options);

/* Between baked frames (docs/kfb.md, "Between baked frames"): how far an
 * engine that blends two baked frames' matrices linearly strays from kf3ds,
 * measured at the quarter points of every step over every object node's own
 * mesh (whatever options->nodes says; a node hidden at either end left out),
 * as a fraction of the extent of the baked frames' vertices. */
typedef enum kf3ds_bake_fit_limit {
    KF3DS_BAKE_FIT_OK = 0,
    KF3DS_BAKE_FIT_DECIMALS, /* half the step would need more than 6 decimals */
    KF3DS_BAKE_FIT_FRAMES,   /* ... more than KF3DS_BAKE_FIT_MAX_FRAMES frames */
    KF3DS_BAKE_FIT_RANGE     /* ... frame numbers beyond 32 bits */
} kf3ds_bake_fit_limit;
#define KF3DS_BAKE_FIT_MAX_FRAMES 1000000u
/* kf3ds_bake_fit_step's tolerance, a fraction of the extent: from MIN to MAX. */
#define KF3DS_BAKE_FIT_MIN_TOLERANCE 1e-9
#define KF3DS_BAKE_FIT_MAX_TOLERANCE 0.1

typedef struct kf3ds_bake_between_info {
    double worst;              /* the largest distance (0 with fewer than two frames) */
    double frame;              /* where: the frame */
    uint32_t node;             /* and the node */
    kf3ds_bake_fit_limit limit; /* why kf3ds_bake_fit_step stopped short */
} kf3ds_bake_between_info;

/* Measures it for the frames `options` gives (its allocator for scratch
 * memory). KF3DS_ERR_ARGUMENT for unsound frames, KF3DS_ERR_NOMEM. */
KF3DS_API kf3ds_status kf3ds_bake_between(const kf3ds_scene *scene,
                                          const kf3ds_bake_options *options,
                                          kf3ds_bake_between_info *out);

/* Called with each step tried and its measure (may be NULL). */
typedef void (*kf3ds_bake_fit_progress)(void *user, const kf3ds_bake_options *frames,
                                        const kf3ds_bake_between_info *measure);

/* Chooses the step for a bound: writes the options' frames resolved (the
 * segment when num_frames is 0), then halves the step, keeping the first
 * and the last frame, until the measure is within `tolerance` (a fraction
 * of the extent, KF3DS_BAKE_FIT_MIN_TOLERANCE to _MAX_TOLERANCE). KF3DS_OK: *options holds those frames and
 * *out their measure. KF3DS_ERR_LIMIT: half the last step tried would not
 * fit (out->limit says why); *options and *out are that step's. Also
 * KF3DS_ERR_ARGUMENT, KF3DS_ERR_NOMEM. */
KF3DS_API kf3ds_status kf3ds_bake_fit_step(const kf3ds_scene *scene, kf3ds_bake_options *options,
                                           double tolerance, kf3ds_bake_fit_progress progress,
                                           void *user, kf3ds_bake_between_info *out);

#ifdef __cplusplus
}
#endif
#endif
