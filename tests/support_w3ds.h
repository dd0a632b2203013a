/* The tests' raw chunk writer, for deliberately broken files and for files
 * whose exact bytes a test is about (every form the reader accepts, chunk
 * layouts that loading or saving must keep): nested chunks whose lengths are
 * patched when closed, and nothing else; it never validates. Well-formed
 * scenes go through the library's builder instead (support_build.h, saved
 * with kf3ds_save_memory or kf3ds_save_file where a test needs a file).
 * Chunk ids are the KF3DS_CHUNK_ names of kf3ds.h (only the enum: fuzz/gen_seeds
 * links this file without the library). */
#ifndef KF3DS_SUPPORT_W3DS_H
#define KF3DS_SUPPORT_W3DS_H
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"

#define W3DS_MAX_DEPTH 64

typedef struct w3ds {
    unsigned char *buf;
    size_t len, cap;
    size_t open[W3DS_MAX_DEPTH]; /* start offsets of the open chunks */
    int depth;
    int failed;                  /* out of memory or depth exceeded */
} w3ds;

/* TCB/ease of one key; the spline flags written are the bits of the nonzero
 * fields, unless `flags` is nonzero, in which case it is written as is. */
typedef struct w3ds_tcb {
    float tension, continuity, bias, ease_to, ease_from;
    uint16_t flags;
} w3ds_tcb;

void w3ds_init(w3ds *w);
void w3ds_free(w3ds *w);
void w3ds_begin(w3ds *w, uint16_t id);   /* opens a chunk */
void w3ds_end(w3ds *w);                  /* closes it, patching its length */
void w3ds_u8(w3ds *w, uint8_t v);
void w3ds_u16(w3ds *w, uint16_t v);
void w3ds_u32(w3ds *w, uint32_t v);
void w3ds_i32(w3ds *w, int32_t v);
void w3ds_f32(w3ds *w, float v);
void w3ds_f32v(w3ds *w, const float *v, size_t n);
void w3ds_cstr(w3ds *w, const char *s);  /* with its terminator */
void w3ds_bytes(w3ds *w, const void *p, size_t n);
int  w3ds_save(const w3ds *w, const char *path); /* 0 on success */

/* Keyframer helpers. */
void w3ds_track_header(w3ds *w, uint16_t flags, uint32_t num_keys);
void w3ds_key_header(w3ds *w, int32_t frame, const w3ds_tcb *tcb); /* tcb may be NULL */
/* The parent field of NODE_HDR for a node without a parent. */
#define W3DS_NO_PARENT 0xFFFF
/* NODE_HDR chunk: name, flags1, flags2, parent (W3DS_NO_PARENT = none). */
void w3ds_node_hdr(w3ds *w, const char *name, uint16_t flags1, uint16_t flags2, uint16_t parent);

/* Editor helpers. A triangle mesh inside its NAMED_OBJECT: points (n×3),
 * faces (nf×3 indices, flags 7), matrix: 12 floats (X, Y, Z axes, origin) or
 * NULL for identity, material: name of a material applied to all faces or NULL. */
void w3ds_mesh(w3ds *w, const char *name, const float *points, uint32_t n,
               const uint16_t *faces, uint32_t nf, const float *matrix, const char *material);

/* Added helpers (editor section). */
/* MAT_ENTRY: MAT_NAME, then MAT_AMBIENT / MAT_DIFFUSE / MAT_SPECULAR, each a
 * COLOR_24 sub-chunk; a NULL colour is left out. */
void w3ds_material(w3ds *w, const char *name, const uint8_t ambient[3],
                   const uint8_t diffuse[3], const uint8_t specular[3]);
/* NAMED_OBJECT > N_CAMERA: position, target, roll (degrees), lens (mm). */
void w3ds_camera(w3ds *w, const char *name, const float pos[3], const float target[3],
                 float roll_deg, float lens_mm);
/* NAMED_OBJECT > N_DIRECT_LIGHT: position and a COLOR_F sub-chunk; with a
 * non-NULL spot_target also DL_SPOTLIGHT (target, hotspot, falloff in degrees). */
void w3ds_light(w3ds *w, const char *name, const float pos[3], const float color[3],
                const float *spot_target, float hotspot_deg, float falloff_deg);
#endif
