/* The parts of the bake module (include/kf3ds_bake.h), internal to src/bake/:
 *   bake.c        kf3ds_bake: the options checked, the frames and nodes
 *                 planned, the allocator resolved
 *   bake_alloc.c  the blocks, from the plan's allocator
 *   bake_mesh.c   meshes placed in their node's local space, smoothing-group
 *                 normals
 *   bake_image.c  sampling the frames and laying the file out byte by byte
 *                 (docs/kfb.md)
 *   bake_between.c  what an engine that lerps the baked matrices shows
 *                 between frames, and the step that keeps it within a bound
 * Only the public API of the core (include/kf3ds.h) and include/kf3ds_kfb.h's
 * constants are used; every block comes from the caller's allocator. */
#ifndef KF3DS_BAKE_INTERNAL_H
#define KF3DS_BAKE_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"
#include "kf3ds_bake.h"

/* What to bake. Frame i is (frame_first + i·frame_step) / frame_scale. */
typedef struct bake_plan {
    const kf3ds_allocator *alloc; /* both hooks set */
    int fixed;             /* fixed point, else IEEE binary32 */
    int frac_bits;         /* 0..28, or KF3DS_BAKE_FRAC_AUTO: the most that fit */
    int meshes;            /* meshes and materials, else matrices only */
    int32_t frame_first, frame_step;
    uint32_t frame_scale, num_frames;
    uint32_t *nodes;       /* the scene's nodes to bake, ascending */
    uint32_t num_nodes;
} bake_plan;

/* The options' frames into the plan, the defaults resolved (bake.c); 0 when
 * they are not sound. */
int kf3ds__bake_plan_frames(const kf3ds_scene *s, const kf3ds_bake_options *o, bake_plan *plan);

/* The allocator's hooks (bake_alloc.c); kf3ds__bake_calloc also zeroes (n·size must not
 * overflow: the callers' counts are 32-bit). */
void *kf3ds__bake_malloc(const bake_plan *plan, size_t size);
void *kf3ds__bake_calloc(const bake_plan *plan, size_t n, size_t size);
void kf3ds__bake_free(const bake_plan *plan, void *p);

/* One mesh as placed for its node: T(−pivot)·MESH_MATRIX⁻¹ applied to the
 * stored vertices (bake_mesh.c). Nodes with the same mesh and the same
 * placement share one. */
typedef struct bake_mesh {
    uint32_t source;       /* index into scene->meshes */
    kf3ds_mat4 local;      /* the placement */
    uint32_t num_vertices, num_faces, num_normals, num_uvs;
    double (*vertices)[3]; /* placed */
    double (*normals)[3];  /* unit, node-local */
    uint32_t *face_source; /* per face: its index among the .3ds mesh's faces */
    uint32_t (*corner_normals)[3]; /* per face: the normal index of each corner */
} bake_mesh;

typedef struct bake_meshes {
    bake_mesh *v;
    uint32_t n;
    int32_t *of_node;      /* per baked node: its bake_mesh or -1 */
} bake_meshes;

/* Places the meshes of the plan's object nodes. 0 on success, -1 out of memory. */
int kf3ds__bake_place_meshes(const kf3ds_scene *s, const bake_plan *plan, bake_meshes *out);
void kf3ds__bake_meshes_free(const bake_plan *plan, bake_meshes *m);

/* A finished .kfb image. */
typedef struct bake_image {
    unsigned char *data;
    size_t size;
    int frac_bits;         /* the fraction used (fixed point) */
    double largest;        /* the largest magnitude of any stored or placed value */
    uint32_t num_channels, num_meshes;
} bake_image;

/* Why building an image failed. */
typedef enum bake_error {
    BAKE_OK = 0,
    BAKE_NOMEM,            /* out of memory */
    BAKE_TOO_BIG,          /* more than 4 GiB */
    BAKE_RANGE             /* a value does not fit the fixed-point format */
} bake_error;

/* Samples the plan's frames and lays the file out (bake_image.c). On
 * BAKE_RANGE, img->largest is the value that does not fit and img->frac_bits
 * the most fraction bits with which it would. */
bake_error kf3ds__bake_build(const kf3ds_scene *s, const bake_plan *plan,
                             const bake_meshes *meshes, bake_image *img);

#endif
