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
 * Colours are 0xAARRGGBB (alpha 0xFF where drawn). Depth holds 1/d, the
 * reciprocal of the view-space distance d along −z (positive, larger =
 * nearer: the test needs no division), 0 where nothing is drawn; a
 * framebuffer without depth (NULL) gets no triangles. Primitives
 * leave framebuffers over 32768 pixels on a side untouched. */
typedef struct kf3ds_framebuffer {
    uint32_t *color;
    float *depth;
    int width, height;
} kf3ds_framebuffer;

/* Fills every pixel with `color` (stored as given) and the depth, when there
 * is one, with 0 (nothing drawn). */
KF3DS_API void kf3ds_framebuffer_clear(kf3ds_framebuffer *fb, uint32_t color);

/* Where the picture is taken from. `view` maps world to camera space (x right,
 * y up, looking down −z), as kf3ds_node_camera_view gives it; the projection is
 * a perspective with this vertical field of view (clamped to [0.01, 179]
 * degrees, 45 for NaN) and the framebuffer's aspect, square pixels. Nothing
 * nearer than near_plane is drawn (a near_plane that is not positive counts as
 * 0.001), nothing farther than far_plane (a far_plane not beyond near_plane:
 * no far limit). */
typedef struct kf3ds_view {
    kf3ds_mat4 view;
    float fov_y_degrees;
    float near_plane, far_plane;
} kf3ds_view;

/* Projects a world point to pixel coordinates (x, y: pixel centres at
 * i + 0.5) and its view depth, for a width×height framebuffer; any of x, y,
 * depth may be NULL. Returns 0 when the point is behind the near plane. */
KF3DS_API int kf3ds_view_project(const kf3ds_view *view, int width, int height, const float world[3],
                       float *x, float *y, float *depth);

/* --- primitives: vertex positions in world space, clipped to the near plane
 * and the screen. --- */

/* A triangle with one colour per vertex (Gouraud), depth-tested, writing
 * depth. Front faces are counter-clockwise on screen; back faces are skipped
 * when cull != 0. Returns 1 when it covered a pixel (before the depth test). */
KF3DS_API int kf3ds_raster_triangle(kf3ds_framebuffer *fb, const kf3ds_view *view,
                          const float points[3][3], const uint32_t color[3], int cull);
/* A line of one colour, never writing depth; depth_test != 0 hides it behind
 * what is drawn (with a little slack, so lines on surfaces stay visible),
 * depth_test 0 draws it over everything. */
KF3DS_API void kf3ds_raster_line(kf3ds_framebuffer *fb, const kf3ds_view *view, const float a[3],
                       const float b[3], uint32_t color, int depth_test);
/* Text in the built-in 8×8 bitmap font (printable ASCII; others drawn as '?'),
 * top-left corner at pixel (x, y), scaled by an integer factor, no depth. */
KF3DS_API void kf3ds_raster_text(kf3ds_framebuffer *fb, int x, int y, const char *text, uint32_t color,
                       int scale);
KF3DS_API int kf3ds_raster_text_width(const char *text, int scale); /* in pixels */
/* A caption in the bottom-left corner, light on a dark shadow, at twice
 * the font's size from 720 rows up (the frame label of `kf3ds render` and
 * the web build); nothing on a picture too small for it. */
KF3DS_API void kf3ds_raster_label(kf3ds_framebuffer *fb, const char *text);

/* ------------------------------------------------------------------------ */
/* Whole scenes (the rest of src/render/)                                  */
/* ------------------------------------------------------------------------ */

typedef enum kf3ds_shading {
    KF3DS_SHADE_SMOOTH = 0, /* vertex normals shared where smoothing groups overlap */
    KF3DS_SHADE_FLAT,       /* one normal per face */
    KF3DS_SHADE_WIRE        /* the edges the file marks visible (face flags 0x4 AB,
                             * 0x2 BC, 0x1 CA), each once, no hidden-line removal */
} kf3ds_shading;

/* Overlays, drawn after the meshes: over them (no depth test, so that pivots
 * and hierarchy inside meshes stay visible), but for the grid, which meshes
 * hide. */
#define KF3DS_OVERLAY_HIERARCHY 0x01 /* pivot-to-parent lines, dummies as boxes */
#define KF3DS_OVERLAY_PIVOTS    0x02 /* a small cross at every object node's pivot */
#define KF3DS_OVERLAY_CAMERAS   0x04 /* camera frusta towards their targets */
#define KF3DS_OVERLAY_LIGHTS    0x08 /* light positions, spot cones */
#define KF3DS_OVERLAY_GRID      0x10 /* a grid on the ground plane z = 0 */
#define KF3DS_OVERLAY_NAMES     0x20 /* node names next to their pivots */

/* Zero-initialise; every zero field means its default. */
typedef struct kf3ds_render_options {
    kf3ds_shading shading;      /* default smooth */
    unsigned overlays;          /* KF3DS_OVERLAY_* bits; default none */
    uint32_t background;        /* 0xRRGGBB (the alpha byte is ignored, so
                                 * 0xFF000000 is black); 0: a dark grey; used
                                 * where the file has no background in effect */
    uint8_t no_file_lights;     /* 1: leave the file's omni and spot lights out
                                 * (the headlight and the ambient light stay) */
    uint8_t has_camera_node;    /* 1: the view is the one through camera_node */
    uint32_t camera_node;       /* that camera node (index into scene->nodes, as
                                 * given to kf3ds_view_from_camera): its frustum
                                 * and name are not drawn over its own view */
    uint8_t no_file_environment; /* 1: leave out the file's background and
                                 * atmosphere (scene->environment), which are
                                 * drawn when its USE_ chunks switch them on */
    uint8_t cull_back_faces;    /* 0: every face is drawn, a face seen from behind
                                 * lit on its flipped normal; 1: 3D Studio's
                                 * renderer, faces are one-sided unless their
                                 * material is two-sided */
} kf3ds_render_options;

typedef struct kf3ds_render_stats {
    uint32_t triangles_submitted; /* faces of the meshes drawn (visible object
                                   * nodes, or the editor's meshes) */
    uint32_t triangles_drawn;     /* of those, the ones that covered a pixel after
                                   * culling and clipping (wireframe: that had an
                                   * edge on screen); the faces a closed convex
                                   * mesh turns away from the eye, hidden behind
                                   * its other faces, are not drawn */
} kf3ds_render_stats;

/* What the renderer derives from a scene once (vertex normals from smoothing
 * groups, face normals, wireframe edges, material colours, scratch space for
 * transformed vertices). Creating it allocates; rendering with it does not.
 * The scene must stay loaded and unchanged while the renderer lives. One
 * renderer per thread. */
typedef struct kf3ds_renderer kf3ds_renderer;

/* allocator NULL, or both its malloc_fn and free_fn NULL: malloc and free;
 * given one without the other: NULL is returned. Returns NULL when out of
 * memory too. */
KF3DS_API kf3ds_renderer *kf3ds_renderer_create(const kf3ds_scene *scene, const kf3ds_allocator *allocator);
KF3DS_API void kf3ds_renderer_free(kf3ds_renderer *renderer);

/* Draws every visible object node's mesh at the given poses (from
 * kf3ds_scene_eval) over the file's background (or options->background), lit by a headlight, the ambient light and the file's omni
 * and spot lights that are not switched off (the light nodes at these poses, or
 * the editor's lights when there are none), every face from both sides or,
 * with options->cull_back_faces, one-sided but for two-sided materials (the
 * winding flip of mirrored meshes honoured), textured where pictures were
 * given, transparent and additive faces after the opaque ones, far to near,
 * in the file's atmosphere, then the requested overlays. A scene
 * whose keyframer places no mesh is drawn from its editor data instead: every
 * mesh not hidden, where the editor had it (poses may then be NULL). The
 * framebuffer is cleared first. options and stats may be NULL. */
KF3DS_API void kf3ds_render_scene(kf3ds_renderer *renderer, const kf3ds_pose *poses,
                        const kf3ds_view *view, const kf3ds_render_options *options,
                        kf3ds_framebuffer *fb, kf3ds_render_stats *stats);

/* ---- maps: pictures the caller decodes --------------------------------- */

/* A decoded picture: width×height pixels 0xAARRGGBB (alpha 0xFF opaque),
 * row-major, top row first, as image files store them. */
typedef struct kf3ds_image {
    const uint32_t *pixels;
    int width, height;          /* 1 .. 32768 */
} kf3ds_image;

/* Gives the picture of one of a material's maps (the image file its
 * kf3ds_texture_map names; the caller finds and decodes it). The renderer
 * draws texture 1, texture 2 and the opacity map: it copies the picture once
 * (resampled to power-of-two sides of at most 1024, with its mipmaps, the
 * map's strength, tiling bits and the material's diffuse colour taken into
 * account) and maps it with the mesh's texture coordinates, perspective-
 * correct, bilinear, mipmapped, placed by the map's scale, offset and angle
 * (docs/format.md, 'Texture mapping'). The other kinds are not drawn.
 * image NULL removes the picture. Allocates (the renderer's allocator);
 * rendering still does not. Returns 1 when the renderer uses the picture, 0
 * for a kind it does not draw, -1 for no such material, a picture out of
 * range, or out of memory (the map then has no picture). */
KF3DS_API int kf3ds_renderer_set_map(kf3ds_renderer *renderer, uint32_t material,
                                     kf3ds_map_kind kind, const kf3ds_image *image);
/* The picture of the file's bitmap background (environment.bitmap), shown
 * stretched over the frame when the file switches it on. Same rules. */
KF3DS_API int kf3ds_renderer_set_background(kf3ds_renderer *renderer, const kf3ds_image *image);

/* An orbit view looking at the centre of [min, max] from azimuth/elevation
 * (degrees; azimuth 0 looks along +y, 90 along +x; elevation up from the ground
 * plane, looking down, within ±89.9) at a distance that frames the whole box
 * with this vertical FOV (over 170: 170; under 1 or NaN: 45) and aspect
 * (width / height; 1 when outside 0.001 to 1000). When min or max is NULL, not
 * finite, or min > max, the box is [−1, 1]³. */
KF3DS_API void kf3ds_view_orbit(const float min[3], const float max[3], float azimuth_degrees,
                      float elevation_degrees, float fov_y_degrees, float aspect,
                      kf3ds_view *out);
/* The view through a camera node at these poses (kf3ds_node_camera_view), with
 * near and far planes from the camera's ranges widened to hold the scene
 * (kf3ds_scene_bounds). Returns 0 when `node` is not a camera node. */
KF3DS_API int kf3ds_view_from_camera(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                           kf3ds_view *out);
/* The same through an editor camera (scene->cameras[camera], as stored: for
 * files whose cameras have no keyframer node); poses (may be NULL) only size
 * the planes. Returns 0 when there is no such camera. */
KF3DS_API int kf3ds_view_from_editor_camera(const kf3ds_scene *scene, uint32_t camera,
                                  const kf3ds_pose *poses, kf3ds_view *out);

/* The default view of the front ends (`kf3ds render`, its --sheet, `kf3ds
 * view`), one rule for all (docs/viewer.md, 'The default view'):
 *  - an orbit view framing the objects (kf3ds_scene_bounds) over the frames
 *    [first, last], sampled, and at `frame`;
 *  - when the objects at `frame` are small beside that box (under a fifth of
 *    its diagonal: they travel far, a ship flying off), the view through the
 *    file's first camera node, or, without one or with
 *    KF3DS_AUTO_VIEW_NO_CAMERA, an orbit view following them: a box of their
 *    size at `frame` around them as they are at each frame;
 *  - in a file whose fog or distance cue is in effect and would hide the
 *    objects, the orbit view stands closer, the box centre where the
 *    atmosphere reaches half its strength (fog_distance). */
#define KF3DS_AUTO_VIEW_ORBIT 0
#define KF3DS_AUTO_VIEW_FOLLOW 1
#define KF3DS_AUTO_VIEW_CAMERA 2
#define KF3DS_AUTO_VIEW_NO_CAMERA 0x1u      /* never choose a camera (--orbit given) */
#define KF3DS_AUTO_VIEW_NO_ENVIRONMENT 0x2u /* the atmosphere is not drawn: ignore it */
typedef struct kf3ds_auto_view {
    int kind;               /* KF3DS_AUTO_VIEW_ORBIT, _FOLLOW or _CAMERA */
    uint32_t camera_node;   /* _CAMERA: the node looked through */
    float min[3], max[3];   /* the objects over the frames ([-1, 1]^3 when none) */
    float half[3];          /* half their size at `frame` (followed) */
    float fog_distance;     /* the orbit eye stands at most this far from the
                             * box centre; 0: no limit */
} kf3ds_auto_view;
/* Chooses the view; evaluates the scene into poses (as many as its nodes) at
 * the sampled frames with eval_flags (kf3ds_scene_eval), so evaluate again
 * before drawing. flags: KF3DS_AUTO_VIEW_* bits. */
KF3DS_API void kf3ds_auto_view_choose(const kf3ds_scene *scene, double first, double last,
                                      double frame, unsigned eval_flags, unsigned flags,
                                      kf3ds_pose *poses, kf3ds_auto_view *out);
/* The view it gives at these poses: through its camera, or kf3ds_view_orbit
 * at these angles, FOV and aspect around its box (following: around the
 * objects at the poses), stepped in to fog_distance. */
KF3DS_API void kf3ds_auto_view_at(const kf3ds_scene *scene, const kf3ds_auto_view *auto_view,
                                  const kf3ds_pose *poses, float azimuth_degrees,
                                  float elevation_degrees, float fov_y_degrees, float aspect,
                                  kf3ds_view *out);

/* ---- the orbit view steered (src/render/view_steer.c) ------------------ */

/* Makes the auto view follow the objects (KF3DS_AUTO_VIEW_FOLLOW, `kf3ds
 * view`'s t): a box of their size at `frame` (kf3ds_scene_bounds at the poses
 * evaluated there with eval_flags; when nothing is shown then, the size of
 * auto_view's min..max) kept around them as they are at each frame. Leaves
 * the poses at `frame`. */
KF3DS_API void kf3ds_auto_view_follow(const kf3ds_scene *scene, double frame, unsigned eval_flags,
                                      kf3ds_pose *poses, kf3ds_auto_view *auto_view);
/* kf3ds_auto_view_at, then, for an orbit or following view, the eye moved in
 * camera space: towards the centre of the box it frames until `zoom` times
 * the distance is left (1: as it is; clamped to 0.01..100, NaN or negative:
 * 1), and sideways by pan_x, pan_y times that distance (not finite: 0); a
 * zoom other than 1 also sets the near and far planes around the box. The
 * view of `kf3ds view`'s and the page's wheel and right drag. */
KF3DS_API void kf3ds_auto_view_moved(const kf3ds_scene *scene, const kf3ds_auto_view *auto_view,
                                     const kf3ds_pose *poses, float azimuth_degrees,
                                     float elevation_degrees, float fov_y_degrees, float aspect,
                                     float zoom, float pan_x, float pan_y, kf3ds_view *out);

/* ---- motion paths (src/render/motion_paths.c) -------------------------- */

/* The samples per node `kf3ds view` and the page take over the segment. */
#define KF3DS_MOTION_PATH_SAMPLES 240
/* Where every node goes over the frames [first, last]: its world position
 * (the translation of kf3ds_pose.world) at `samples` frames spread evenly
 * from first to last, both included, evaluated with eval_flags; node by node,
 * points[(node * samples + i) * 3 + axis], num_nodes * samples * 3 floats.
 * poses (as many as the nodes) are scratch, left at some sampled frame:
 * evaluate again before drawing. Returns 0, writing nothing, for fewer than
 * 2 samples, a frame beyond ±1e9 or NaN, or a NULL argument. */
KF3DS_API int kf3ds_motion_paths_sample(const kf3ds_scene *scene, double first, double last,
                                        unsigned eval_flags, uint32_t samples,
                                        kf3ds_pose *poses, float *points);
/* Draws those paths as lines over what is drawn (no depth test, no depth
 * written): objects yellow, cameras and camera targets cyan, lights and the
 * rest orange; a node whose samples are all one point has no path. */
KF3DS_API void kf3ds_motion_paths_draw(kf3ds_framebuffer *fb, const kf3ds_view *view,
                                       const kf3ds_scene *scene, const float *points,
                                       uint32_t samples);

#ifdef __cplusplus
}
#endif
#endif
