/* The tests' well-formed scenes, made with the library's scene builder
 * (docs/writer.md, "Building a scene") instead of chunk by chunk: the
 * builder checks every call and gives the scene loading gives, and the
 * library's writer turns it into bytes or a file for the suites that need
 * one. Deliberately broken and byte-exact files stay with the raw writer
 * (support_w3ds.h). These helpers fail the running test (cmocka) when the
 * builder or the writer refuses. */
#ifndef KF3DS_SUPPORT_BUILD_H
#define KF3DS_SUPPORT_BUILD_H
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"

/* ---- the builder and what it gives ---------------------------------------- */

/* A builder on the default allocator. */
kf3ds_builder *support_builder(void);
/* Finishes the builder: its scene (warnings of the finishing steps in its
 * diags); the test fails with the builder's first error when there is none. */
kf3ds_scene *support_build_scene(kf3ds_builder *b);
/* Finishes the builder and saves its scene: the file's bytes as an exactly
 * sized copy (free with free()), or the file at `path`. */
unsigned char *support_build_bytes(kf3ds_builder *b, size_t *size);
void support_build_file(kf3ds_builder *b, const char *path);

/* ---- elements as loading fills them, for the caller to adjust ------------- */

/* A colour of three bytes (COLOR_24): each byte / 255, as the loader divides. */
void support_rgb24(float rgb[3], const uint8_t bytes[3]);
/* A material whose every colour is zero but the diffuse one, `diffuse` as
 * bytes; no flags, no maps. */
kf3ds_material support_material(const char *name, const uint8_t diffuse[3]);
/* A map of `file` whose chunk names nothing else: strength 1, scale 1. */
kf3ds_texture_map support_map(const char *file);
/* A camera (N_CAMERA without sub-chunks): position, target, roll in degrees,
 * lens in mm. */
kf3ds_camera support_camera(const char *name, const float pos[3], const float target[3],
                            float roll, float lens);
/* An omni light of `color` (N_DIRECT_LIGHT with COLOR_F, multiplier 1), or
 * with `spot_target` a spotlight (DL_SPOTLIGHT: hotspot, falloff in degrees). */
kf3ds_light support_light(const char *name, const float pos[3], const float color[3],
                          const float *spot_target, float hotspot, float falloff);
/* A key at `frame` with value (a, b, c, d) (a rotation key: angle, axis),
 * without TCB or ease. */
kf3ds_key support_key(int32_t frame, float a, float b, float c, float d);

/* ---- pieces of scenes ----------------------------------------------------- */

/* A mesh from flat arrays: n points (x, y, z each); nf faces, three point
 * indices each, with the edge flags `flags` (NULL: 7, every edge shown);
 * `matrix` 12 floats as MESH_MATRIX stores them (X, Y, Z axes, origin) or
 * NULL for identity. Returns its index. */
int32_t support_build_mesh(kf3ds_builder *b, const char *name, const float *points, uint32_t n,
                           const uint16_t *faces, const uint16_t *flags, uint32_t nf,
                           const float *matrix);
/* The quad of the texture suites, `name`: [−1, 1]² in the plane y = 0 facing
 * −y, corners (−1, −1), (1, −1), (1, 1), (−1, 1) with texture coordinates
 * uv[8], both faces in `material` (added before). Returns its index. */
int32_t support_build_textured_quad(kf3ds_builder *b, const char *name, const float uv[8],
                                    const char *material);
/* A node with, when `pos` is not NULL, one POS key at frame 0 there.
 * Returns its index. */
int32_t support_build_node(kf3ds_builder *b, kf3ds_node_type type, const char *name,
                           int32_t parent, const float *pos);
#endif
