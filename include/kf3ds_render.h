/*
 * kf3ds_render.h — the software rasterizer and scene renderer of kf3ds.
 *
 * A module of its own on top of the core (kf3ds.h): link libkf3ds_render.a
 * before libkf3ds.a. It has no dependencies either (libc and libm), draws into
 * a caller-owned framebuffer, and never evaluates tracks itself: it takes the
 * poses of kf3ds_scene_eval. An engine that only reads and evaluates needs
 * neither this header nor its archive.
 */
#ifndef KF3DS_RENDER_H
#define KF3DS_RENDER_H

#include "kf3ds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Software rasterizer (src/render/raster*.c)                               */
/* ------------------------------------------------------------------------ */

/* A caller-owned framebuffer: width×height pixels, row-major, top row first.
 * Colours are 0xAARRGGBB (alpha 0xFF when drawn). Depth holds view-space
 * distance along −z (positive, smaller = nearer); cleared to +infinity. */
typedef struct kf3ds_framebuffer {
    uint32_t *color;
    float *depth;
    int width, height;
} kf3ds_framebuffer;

KF3DS_API void kf3ds_fb_clear(kf3ds_framebuffer *fb, uint32_t color);

/* Where the picture is taken from. `view` maps world to camera space (x right,
 * y up, looking down −z), as kf3ds_node_camera_view gives; the projection is a
 * perspective with this vertical field of view and the framebuffer's aspect. */
typedef struct kf3ds_view {
    kf3ds_mat4 view;
    float fov_y_degrees;
    float near_plane, far_plane;
} kf3ds_view;

/* Projects a world point to pixel coordinates (x, y) and view depth; returns 0
 * when the point is behind the near plane. */
KF3DS_API int kf3ds_view_project(const kf3ds_view *view, int width, int height, const float world[3],
                       float *x, float *y, float *depth);

/* --- primitives: drawn with depth test, clipped to the near plane and the
 * screen. Vertex positions are in world space. --- */

/* A triangle with one colour per vertex (Gouraud). Back faces (counter-
 * clockwise on screen is front) are skipped when cull != 0. Returns 1 when
 * any part of it was in front of the near plane and on screen. */
KF3DS_API int kf3ds_raster_triangle(kf3ds_framebuffer *fb, const kf3ds_view *view, const float p[3][3],
                          const uint32_t color[3], int cull);
/* A 3D line of one colour, depth-tested (depth_test 0: drawn over everything). */
KF3DS_API void kf3ds_raster_line(kf3ds_framebuffer *fb, const kf3ds_view *view, const float a[3],
                       const float b[3], uint32_t color, int depth_test);
/* Text in the built-in 8×8 bitmap font (printable ASCII; others drawn as '?'),
 * top-left corner at pixel (x, y), scaled by an integer factor, no depth. */
KF3DS_API void kf3ds_raster_text(kf3ds_framebuffer *fb, int x, int y, const char *text, uint32_t color,
                       int scale);
KF3DS_API int kf3ds_raster_text_width(const char *text, int scale); /* in pixels */

/* --- whole scenes --- */

typedef enum kf3ds_shading {
    KF3DS_SHADE_SMOOTH = 0, /* vertex normals shared where smoothing groups overlap */
    KF3DS_SHADE_FLAT,
    KF3DS_SHADE_WIRE        /* visible edges only (face flags 0x1/0x2/0x4) */
} kf3ds_shading;

#define KF3DS_OVERLAY_HIERARCHY 0x01 /* pivot-to-parent lines, dummies as small boxes */
#define KF3DS_OVERLAY_PIVOTS    0x02 /* a small cross at every object node's pivot */
#define KF3DS_OVERLAY_CAMERAS   0x04 /* camera frusta towards their targets */
#define KF3DS_OVERLAY_LIGHTS    0x08 /* light positions, spot cones */
#define KF3DS_OVERLAY_GRID      0x10 /* a grid on the ground plane z = 0 */
#define KF3DS_OVERLAY_NAMES     0x20 /* node names next to their pivots */

typedef struct kf3ds_render_options {
    kf3ds_shading shading;
    unsigned overlays;          /* KF3DS_OVERLAY_* bits */
    uint32_t background;        /* 0 means the default dark grey */
    uint8_t no_file_lights;     /* headlight only */
    int32_t through_camera;     /* 1 + index of the camera node looked through (not drawn); 0: none */
} kf3ds_render_options;

typedef struct kf3ds_render_stats {
    uint32_t triangles;         /* submitted (visible object nodes' faces) */
    uint32_t triangles_drawn;   /* that produced pixels after culling and clipping */
} kf3ds_render_stats;

/* Per-scene data the renderer derives once (vertex normals from smoothing
 * groups, face normals, scratch space for transformed vertices). Creating it
 * allocates; rendering with it does not. One renderer per thread. */
typedef struct kf3ds_renderer kf3ds_renderer;

KF3DS_API kf3ds_renderer *kf3ds_renderer_create(const kf3ds_scene *scene, const kf3ds_allocator *allocator);
KF3DS_API void kf3ds_renderer_free(kf3ds_renderer *renderer);

/* Draws every visible object node's mesh at the given poses (from
 * kf3ds_scene_eval), lit by a headlight plus the file's omni and spot lights
 * (those not switched off), honouring two-sided materials and the winding
 * flip of mirrored meshes, then the requested overlays. The framebuffer is
 * cleared first. stats may be NULL. */
KF3DS_API void kf3ds_render_scene(kf3ds_renderer *renderer, const kf3ds_pose *poses,
                        const kf3ds_view *view, const kf3ds_render_options *options,
                        kf3ds_framebuffer *fb, kf3ds_render_stats *stats);

/* An orbit view looking at the centre of [min, max] from azimuth/elevation
 * (degrees; azimuth 0 looks along +y, elevation up from the ground plane) at a
 * distance that frames the whole box with this vertical FOV and aspect. */
KF3DS_API void kf3ds_view_orbit(const float min[3], const float max[3], float azimuth_degrees,
                      float elevation_degrees, float fov_y_degrees, float aspect,
                      kf3ds_view *out);
/* The view through a camera node at these poses (kf3ds_node_camera_view), with
 * near/far planes from the camera's ranges or the scene bounds. Returns 0 when
 * `node` is not a camera node. */
KF3DS_API int kf3ds_view_from_camera(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                           kf3ds_view *out);
/* The same through an editor camera (scene->cameras[camera], as stored: for
 * files whose cameras have no keyframer node); poses (may be NULL) only size
 * the planes. Returns 0 when there is no such camera. */
KF3DS_API int kf3ds_view_from_editor_camera(const kf3ds_scene *scene, uint32_t camera,
                                  const kf3ds_pose *poses, kf3ds_view *out);

#ifdef __cplusplus
}
#endif
#endif
