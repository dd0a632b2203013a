/* kf3ds static export (include/kf3ds_static.h): what its files share. A
 * growing byte buffer over the caller's allocator, and one mesh placed at
 * the frame with its triangles and smoothing-group normals. */
#ifndef KF3DS_STATIC_INTERNAL_H
#define KF3DS_STATIC_INTERNAL_H

#include "kf3ds.h"
#include "kf3ds_static.h"
#include <stddef.h>

/* Bytes being written; `failed` is set by the first allocation that fails,
 * after which appends do nothing. */
typedef struct static_buf {
    const kf3ds_allocator *al;
    unsigned char *p;
    size_t n, cap;
    int failed;
} static_buf;

void kf3ds__static_put(static_buf *b, const void *data, size_t len);
void kf3ds__static_puts(static_buf *b, const char *s);
/* printf-style; one call writes at most 255 bytes (numbers and keywords). */
void kf3ds__static_printf(static_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A name as one OBJ/MTL token: bytes up to space and control characters
 * (those become '_'); an empty name becomes `empty`. */
void kf3ds__static_name(static_buf *b, const char *name, const char *empty);

void *kf3ds__static_alloc(const kf3ds_allocator *a, size_t count, size_t size);
void kf3ds__static_free(const kf3ds_allocator *a, void *p);

/* One mesh placed at the frame. */
typedef struct static_mesh {
    const char *name;          /* the node's name (the mesh's for unplaced files) */
    const kf3ds_mesh *mesh;
    uint32_t np;
    float (*pos)[3];           /* the placed points, in stored order */
    uint32_t nf;               /* triangles kept */
    uint32_t *tri;             /* 3 point indices per triangle, wound outward */
    uint32_t *face;            /* triangle -> face of the mesh */
    float (*face_normal)[3];   /* unit, or 0,0,0 for a face without area */
    uint32_t *corner_normal;   /* 3 per triangle: index into normals */
    float (*normals)[3];
    uint32_t num_normals;
} static_mesh;

/* Places `mesh` by `place` and computes its triangles and normals: 0, or -1
 * when out of memory (then nothing is left to free). */
int kf3ds__static_mesh_build(const kf3ds_allocator *a, const kf3ds_mesh *mesh,
                             const kf3ds_mat4 *place, static_mesh *out);
void kf3ds__static_mesh_free(const kf3ds_allocator *a, static_mesh *m);

/* Called once per mesh the export writes, in node order; returns 0 to go on. */
typedef int (*static_mesh_fn)(void *user, const static_mesh *m);
/* Builds every visible mesh at the frame in turn and passes it to fn: 0, or
 * -1 when out of memory, or what fn returned when not 0. */
int kf3ds__static_each_mesh(const kf3ds_scene *s, const kf3ds_allocator *a, double frame,
                            unsigned eval_flags, static_mesh_fn fn, void *user);

int kf3ds__static_obj(const kf3ds_scene *s, const kf3ds_static_options *o, double frame,
                      static_buf *obj, static_buf *mtl, kf3ds_static_output *out);
int kf3ds__static_stl(const kf3ds_scene *s, const kf3ds_static_options *o, double frame,
                      static_buf *stl, kf3ds_static_output *out);

#endif
