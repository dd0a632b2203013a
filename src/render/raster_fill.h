/* The triangle fill, raster_triangle.c's inner loop, behind one signature:
 *   raster_fill_plain.c  kf3ds__fill_plain, the plain C reference
 *   raster_fill_sse2.c   kf3ds__fill_sse2, spans four pixels per vector
 *   raster_fill_avx2.c   kf3ds__fill_avx2, tall narrow triangles two rows
 *                        per vector, the rest to kf3ds__fill_sse2
 * Every version draws the same bytes (make plain-check). kf3ds__fill_pick
 * chooses one when a projection is set up (kf3ds__projection.fill), so the
 * choice is made once per frame, not per triangle.
 *
 * What a fill does: edge functions in exact 64-bit integers over the
 * bounding box clamped to the screen (raster_edges.h: the top-left rule, so
 * shared edges are drawn once), 1/d and the colours interpolated linearly in
 * screen space (exact for 1/d; Gouraud for colour). Each row's values start
 * from the exact barycentrics of its first covered pixel, so long spans of
 * thin triangles never extrapolate. The depth buffer holds w = 1/d
 * (kf3ds_render.h): the test is w > zbuf and a passing pixel stores w. */
#ifndef KF3DS_RASTER_FILL_H
#define KF3DS_RASTER_FILL_H
#include "raster_edges.h"
#include "../simd.h"

typedef struct kf3ds__fill_vertex {
    int32_t X, Y;
    float v[4];              /* 1/d, then the colour channels 0..255, +0.5 so that
                              * truncation rounds (unset when the triangle is flat) */
} kf3ds__fill_vertex;

/* kf3ds__fill_pick takes the fills' addresses: hidden, position-independent
 * code takes them without the GOT (make freestanding allows the core no
 * symbols but string and math functions). */
#if defined(__GNUC__)
#define KF3DS__FILL_LOCAL __attribute__((visibility("hidden")))
#else
#define KF3DS__FILL_LOCAL
#endif

/* Fills the triangle (a, b, c), turned so that its doubled screen area
 * `area` is positive (each fill sets its edges up, kf3ds__edges_setup, so
 * that they stay in registers). flat: every pixel gets flat_color. Returns 1
 * when a pixel centre was covered. (The function type kf3ds__fill_fn is in
 * raster.h.) */
KF3DS__FILL_LOCAL
int kf3ds__fill_plain(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                      const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                      int flat, uint32_t flat_color);
#if defined(KF3DS__SSE2)
KF3DS__FILL_LOCAL
int kf3ds__fill_sse2(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                     const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                     int flat, uint32_t flat_color);
#endif
#if defined(KF3DS__AVX2)
KF3DS__FILL_LOCAL
int kf3ds__fill_avx2(kf3ds_framebuffer *fb, const kf3ds__fill_vertex *a,
                     const kf3ds__fill_vertex *b, const kf3ds__fill_vertex *c, int64_t area,
                     int flat, uint32_t flat_color);
#endif

/* A fill vertex from a projected vertex inside every plane and its colour:
 * 1/d, then the colour's channels + 0.5 unless flat (with SSE2 always: a
 * flat fill reads only v[0]). Every triangle pays it, so with SSE2 the same
 * values are made in one vector (raster_fill_vertex_sse2.h), else by the
 * plain C reference (raster_fill_vertex_plain.h). */
#if defined(KF3DS__SSE2)
#include "raster_fill_vertex_sse2.h"
#else
#include "raster_fill_vertex_plain.h"
#endif

/* Colours step in 16.16 fixed point: the row's first value is exact and
 * every pixel of a span is inside the triangle, so the values stay within
 * [0.5, 255.5] up to rounding; the masks only guard the packing. */
#define KF3DS__PACK(r, g, b)                                                             \
    (0xFF000000u | ((uint32_t)(r)&0xFF0000u) | (((uint32_t)(g) >> 8) & 0xFF00u) |        \
     (((uint32_t)(b) >> 16) & 0xFFu))

#endif
