/*
 * kf3ds static export: the scene as it stands at one frame, as Wavefront OBJ
 * (with its MTL material library) or binary STL, for CAD programs, 3D
 * printing and old tools that read no animation (docs/static.md). It is what
 * `kf3ds export -o OUT.obj|OUT.stl` and `kf3ds convert --to obj|stl` run.
 *
 * The module is C99 and uses libc, libm and kf3ds.h only; it writes into
 * memory, every byte from options->allocator, and opens no file.
 */
#ifndef KF3DS_STATIC_H
#define KF3DS_STATIC_H

#include "kf3ds.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kf3ds_static_format {
    KF3DS_STATIC_OBJ = 0,   /* OBJ text and MTL text */
    KF3DS_STATIC_STL = 1    /* binary STL */
} kf3ds_static_format;

/* Flags (kf3ds_static_options.flags). */
#define KF3DS_STATIC_FRAME   0x1 /* the pose at options->frame, not at the segment's start */
#define KF3DS_STATIC_NO_EASE 0x2 /* ignore ease-to/ease-from (KF3DS_EVAL_NO_EASE) */

/* Zero-initialise; every zero field means its default. */
typedef struct kf3ds_static_options {
    kf3ds_allocator allocator;  /* both hooks NULL: the library's default allocator */
    kf3ds_static_format format;
    unsigned flags;             /* KF3DS_STATIC_... */
    double frame;               /* with KF3DS_STATIC_FRAME: any finite frame */
    const char *mtl_name;       /* OBJ: the "mtllib" the OBJ names (the .mtl beside it);
                                 * NULL: no mtllib line (the MTL text is made all the same) */
    const char *file_name;      /* the input's name, for the OBJ comment and STL header */
} kf3ds_static_options;

/* The bytes of one export and what they hold. */
typedef struct kf3ds_static_output {
    void *bytes;                /* the .obj text or the .stl */
    size_t size;
    void *mtl;                  /* OBJ: the .mtl text; NULL for STL */
    size_t mtl_size;
    double frame;               /* the frame the pose is from */
    uint32_t num_objects;       /* meshes written (one per visible object node) */
    uint32_t num_vertices;      /* OBJ "v" lines (every placed point) */
    uint32_t num_triangles;
    kf3ds_allocator allocator_; /* private: where kf3ds_static_free gives the bytes back */
} kf3ds_static_output;

/* Writes the scene at the frame: every object node that is not hidden at that
 * frame, its mesh (the morph target it shows) placed by kf3ds_node_mesh_matrix,
 * so that an OBJ's "v" lines are the points `kf3ds eval --verts` prints, node
 * after node; a file without keyframer placement writes its meshes as stored.
 * Faces whose corners repeat or point past the mesh are left out. OBJ normals
 * follow the smoothing groups (the rule the renderer and the glTF export use);
 * STL carries each triangle's own normal.
 * Returns KF3DS_OK with *out filled in (free it with kf3ds_static_free), or
 * KF3DS_ERR_ARGUMENT (NULL scene or out, a frame not finite, hooks given in
 * part, unknown flags or format), KF3DS_ERR_NOMEM, KF3DS_ERR_LIMIT (an STL of
 * over 2^32 - 1 triangles); *error says what (it may be NULL). */
KF3DS_API kf3ds_status kf3ds_static_write(const kf3ds_scene *scene,
                                          const kf3ds_static_options *options,
                                          kf3ds_static_output *out, kf3ds_diag *error);
/* Gives the output's bytes back and empties it; an empty one is fine. */
KF3DS_API void kf3ds_static_free(kf3ds_static_output *out);

#ifdef __cplusplus
}
#endif

#endif
