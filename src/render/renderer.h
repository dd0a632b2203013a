/* The scene renderer's internal interface, shared by its files:
 *   renderer.c  kf3ds_renderer_create / _free: what is derived once per scene
 *   lighting.c  the lights of a frame and the shading model
 *   draw.c      kf3ds_render_scene: which meshes, at which matrices; one mesh
 *   overlays.c  hierarchy, pivots, cameras, lights, grid, names
 *   view.c      kf3ds_view_orbit, kf3ds_view_from_camera, _from_editor_camera
 *   view_steer.c  kf3ds_auto_view_follow, _moved: the orbit view followed, zoomed, panned
 *   motion_paths.c  kf3ds_motion_paths_sample, _draw
 *   texture.c   the pictures the caller gives: kf3ds_renderer_set_map, _set_background
 *   environment.c  the file's background and atmosphere
 * on top of the rasterizer (raster.h).
 *
 * Rendering never allocates: the scratch space of a frame (transformed
 * vertices, class colours, lights) is sized in kf3ds_renderer_create for the
 * largest mesh. */
#ifndef KF3DS_RENDERER_H
#define KF3DS_RENDERER_H
#include "raster.h"
#include "../arena.h"
#include "../geometry.h"
#include "../sort.h"

#define KF3DS__NO_CLASS 0xFFFFFFFFu      /* corner_class of the corners of invalid faces */
#define KF3DS__MAX_FILE_LIGHTS 64        /* more omni and spot lights are left out */
#define KF3DS__NO_MATERIAL_GREY 0.75f    /* diffuse and ambient of faces without a material */
#define KF3DS__MAX_DEFERRED (1u << 22)   /* blended faces sorted per frame; more are drawn
                                          * unsorted */

/* The visible-edge bits of a face (kf3ds_face.flags), also those of wire_edges:
 * edge k of a face (0 AB, 1 BC, 2 CA) has the bit KF3DS__EDGE_AB >> k. */
#define KF3DS__EDGE_AB 0x4u
#define KF3DS__EDGE_BC 0x2u
#define KF3DS__EDGE_CA 0x1u

/* What kf3ds_renderer_create derives from one mesh (renderer.c), in the
 * mesh's stored space.
 *
 * A corner's smooth normal is shared by the corners at its vertex whose faces
 * have the same smoothing mask and material: they form one normal class. A
 * frame transforms and lights each class once and looks its colour up for
 * every corner (draw.c). */
typedef struct kf3ds__render_mesh {
    float (*face_normals)[3];    /* per face: unit (zero when degenerate) */
    uint32_t *corner_class;      /* per face corner (3·face + k): its normal class,
                                  * KF3DS__NO_CLASS for the corners of invalid faces */
    uint32_t *face_slot;         /* per face: its material slot (kf3ds__face_material_slot),
                                  * KF3DS__NO_SLOT for an invalid face (kf3ds__face_valid):
                                  * looked up once, not per face per frame */
    uint8_t *wire_edges;         /* per face: the visible edges it draws in
                                  * wireframe (KF3DS__EDGE_* bits); an edge that
                                  * several faces share is drawn by one of them */
    float (*class_normals)[3];   /* per normal class: unit */
    uint32_t *class_vertex;      /* per normal class: its vertex */
    uint32_t *class_material;    /* per normal class: its material slot (below) */
    uint32_t num_classes;
    uint32_t class_slot;         /* the material slot of every class, KF3DS__NO_SLOT
                                  * when they differ (or there are none): such a
                                  * mesh's class colours can be lit together (draw.c) */
    float box_min[3], box_max[3]; /* the box of the finite points (has_box) */
    int has_box;
    int convex;                  /* a closed convex surface, its fronts outside (1)
                                  * or inside (−1), else 0 (renderer.c, mesh_convex) */
} kf3ds__render_mesh;

/* A material as the renderer draws it (renderer.c prepares it, texture.c adds
 * the maps). Colours clamped to [0, 1]. */
typedef struct kf3ds__render_material {
    float diffuse[3], ambient[3], specular[3];
    float shine_exponent;        /* of the highlights (Phong, metal) */
    float shine_strength;        /* 0: no highlights */
    float self_illum;            /* 0..1 */
    float opacity;               /* 1 − transparency */
    uint8_t metal;               /* highlights in the surface's colour */
    uint8_t two_sided, additive;
    uint8_t may_blend;           /* transparent, additive or with an opacity map named:
                                  * its faces may go to the blended pass */
    uint8_t shaded;              /* drawn by kf3ds__triangle_shaded: a map given, or blended */
    uint8_t blended;             /* drawn after the opaque faces, far to near */
    kf3ds__texture maps[KF3DS__MAX_MAPS]; /* texture 1, texture 2, opacity (texels NULL: none) */
    float uv[KF3DS__MAX_MAPS][6]; /* map k's (s, t) = (uv[0]u + uv[1]v + uv[2], uv[3]u + uv[4]v + uv[5]) */
} kf3ds__render_material;

/* A mesh drawn this frame whose blended faces wait for the blended pass. */
typedef struct kf3ds__render_instance {
    uint32_t mesh;
    float mv[3][4];              /* model → view */
    float normal_rows[3][3];
    float det;
} kf3ds__render_instance;

/* A blended face waiting: its instance, its face, its depth (sorted far first). */
typedef struct kf3ds__deferred_face {
    float depth;
    uint32_t instance, face;
} kf3ds__deferred_face;

/* The atmosphere of the current frame (environment.c). */
typedef struct kf3ds__fog {
    kf3ds_atmosphere_kind kind;  /* NONE: nothing to do */
    float color[3];
    float near_d, far_d, near_amount, far_amount; /* linear fog and distance cue */
    float bottom, top, density;  /* layer fog, world heights */
    uint32_t flags;
    float eye_z, up[3];          /* world z of the eye; world z of a view-space offset = up·v */
} kf3ds__fog;

/* A file light (omni or spot) as the current frame sees it, in view space. */
typedef struct kf3ds__render_light {
    float position[3];
    float direction[3];          /* a spot's axis, unit */
    float color[3];              /* each channel within [0, 4] */
    float cos_hotspot, cos_falloff; /* of the half angles of a spot's cones */
    int is_spot;
} kf3ds__render_light;

struct kf3ds_renderer {
    const kf3ds_scene *scene;
    kf3ds_allocator allocator;
    kf3ds__arena *arena;         /* this record and every array below (the core's
                                  * arena); kf3ds_renderer_free destroys it */
    kf3ds__render_mesh *meshes;  /* one per scene mesh */
    /* Per material slot: the scene's materials, then slot num_materials for
     * faces without a (valid) material. */
    kf3ds__render_material *materials;
    int frame_blends;            /* some material slot is blended this frame (draw.c) */
    int headlight_only;          /* no file lights and no atmosphere this frame (draw.c) */
    kf3ds__texture background;   /* the BIT_MAP picture, when given */
    /* The blended pass, sized at creation for every face that may need it. */
    kf3ds__render_instance *instances;
    uint32_t num_instances, max_instances;
    kf3ds__deferred_face *deferred, *deferred_scratch;
    uint32_t num_deferred, max_deferred;
    kf3ds__fog fog;
    int nodes_place_meshes;      /* kf3ds_scene_places_meshes: draw the object
                                  * nodes, else the editor's meshes */
    /* Scratch for drawing one mesh, sized for the largest. */
    kf3ds__vertex *vertices;     /* the mesh's points, transformed */
    uint32_t *away_faces;        /* a convex mesh's faces turned away from the eye */
    uint32_t *class_color;       /* per normal class and side (2·class + 1 for the back):
                                  * its colour in this mesh draw... */
    float (*class_terms)[6];     /* the same as lighting terms (add, mul) for the
                                  * classes of shaded materials... */
    uint32_t *class_color_stamp; /* ...when its stamp is color_stamp (no clearing) */
    uint32_t color_stamp;
    uint32_t max_classes;        /* normal classes of the largest mesh */
    /* The lights of the current frame (kf3ds__setup_lights), view space. */
    kf3ds__render_light lights[KF3DS__MAX_FILE_LIGHTS];
    uint32_t num_lights;
    float ambient[3];            /* the ambient light */
    float headlight[3];          /* from the eye */
};

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

static inline float kf3ds__clamp01(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

/* An opaque 0xAARRGGBB colour from channels in [0, 1] (clamped, rounded). */
static inline uint32_t kf3ds__pack_rgb(float r, float g, float b)
{
    return 0xFF000000u | ((uint32_t)(kf3ds__clamp01(r) * 255.0f + 0.5f) << 16) |
           ((uint32_t)(kf3ds__clamp01(g) * 255.0f + 0.5f) << 8) |
           (uint32_t)(kf3ds__clamp01(b) * 255.0f + 0.5f);
}

/* A colour from the file with each channel clamped to [0, hi] (NaN gives 0). */
static inline void kf3ds__clamp_color(const float in[3], float out[3], float hi)
{
    int k;
    for (k = 0; k < 3; k++) {
        float c = in[k];
        out[k] = c > 0.0f ? (c < hi ? c : hi) : 0.0f;
    }
}

#define KF3DS__NO_SLOT 0xFFFFFFFFu

/* Whether the face's three vertex indices are in range; other faces are
 * neither drawn nor counted. */
static inline int kf3ds__face_valid(const kf3ds_face *face, uint32_t num_points)
{
    return face->v[0] < num_points && face->v[1] < num_points && face->v[2] < num_points;
}

/* The material slot of a face: its material, or num_materials for none. */
static inline uint32_t kf3ds__face_material_slot(const kf3ds_mesh *m, uint32_t face,
                                                 uint32_t num_materials)
{
    int32_t mat = kf3ds_face_material(m, face);
    return mat >= 0 && (uint32_t)mat < num_materials ? (uint32_t)mat : num_materials;
}

/* ------------------------------------------------------------------------ */
/* Lighting (lighting.c)                                                    */
/* ------------------------------------------------------------------------ */

/* Sets the frame's ambient light, headlight and file lights (view space, from
 * the projection p) from the nodes at these poses, or the editor's lights. */
void kf3ds__setup_lights(kf3ds_renderer *r, const kf3ds__projection *p, const kf3ds_pose *poses,
                         int no_file_lights);

/* Node i when it is a light (omni or spot): its position at these poses, the
 * spot's target (*target: the target node's position, stored in target_pos,
 * else the editor light's target; NULL for omni lights) and its editor light
 * (*editor_light, or NULL). Returns 0 for other nodes. */
int kf3ds__light_node(const kf3ds_scene *s, const kf3ds_pose *poses, uint32_t i, float pos[3],
                      float target_pos[3], const float **target,
                      const kf3ds_light **editor_light);

#define KF3DS__FILL_LIGHT 0.08f /* a constant diffuse fill so that unlit sides are not black */

/* (n·h)^e for the highlights: e from the material (renderer.c), by repeated
 * squaring of a rounded exponent, which is plenty for a highlight. */
static inline float kf3ds__highlight(float c, float e)
{
    float r = 1.0f, b = c;
    unsigned k = (unsigned)(e + 0.5f);
    if (!(c > 0.0f))
        return 0.0f;
    while (k) {
        if (k & 1u)
            r *= b;
        b *= b;
        k >>= 1;
    }
    return r;
}

/* The end of the lighting model (lighting.c, kf3ds__shade_terms; draw.c's
 * headlight-only class colours): the diffuse light acc and the highlights'
 * sum spec into add and mul, before the atmosphere. One copy, so that both
 * give the same bits. */
static inline void kf3ds__mix_terms(const kf3ds__render_material *mt, const float ambient[3],
                                    const float acc[3], float spec, float add[3], float mul[3])
{
    float si = mt->self_illum;
    int k;
    spec *= mt->shine_strength;
    for (k = 0; k < 3; k++) {
        add[k] = mt->ambient[k] * ambient[k];
        mul[k] = acc[k];
        if (mt->metal)
            mul[k] += spec;
        else
            add[k] += spec * mt->specular[k];
        add[k] *= 1.0f - si;
        mul[k] = mul[k] * (1.0f - si) + si;
    }
}

/* The lighting of a surface point at view-space (px, py, pz) with unit
 * normal `normal` in material slot `material`: its colour is add + mul·T for
 * the surface colour T (the lighting model, fog included: lighting.c). */
void kf3ds__shade_terms(const kf3ds_renderer *r, const float normal[3], float px, float py,
                        float pz, uint32_t material, float add[3], float mul[3]);

/* ------------------------------------------------------------------------ */
/* Background and atmosphere (environment.c)                                */
/* ------------------------------------------------------------------------ */

/* Clears fb to the frame's background: the file's (when in effect and not
 * switched off), else options->background or the default grey; sets r->fog. */
void kf3ds__setup_environment(kf3ds_renderer *r, const kf3ds__projection *p,
                              const kf3ds_render_options *o, kf3ds_framebuffer *fb);
/* Mixes the frame's fog into the lighting terms of a point at view-space
 * (px, py, pz): add ← add·(1 − f) + fog·f, mul ← mul·(1 − f). */
void kf3ds__fog_terms(const kf3ds_renderer *r, float px, float py, float pz, float add[3],
                      float mul[3]);

/* ------------------------------------------------------------------------ */
/* Maps (texture.c)                                                         */
/* ------------------------------------------------------------------------ */

/* Each material's map placements and wrap modes from the file (before any
 * picture is given). */
void kf3ds__prepare_maps(kf3ds_renderer *r);
/* Whether the material draws shaded and blended, from its values and the
 * pictures given so far. */
void kf3ds__update_material(kf3ds__render_material *m);
/* Gives back the pictures' memory (kf3ds_renderer_free). */
void kf3ds__free_maps(kf3ds_renderer *r);

/* ------------------------------------------------------------------------ */
/* Overlays (overlays.c)                                                    */
/* ------------------------------------------------------------------------ */

/* Draws the overlays options->overlays asks for, over the frame's meshes. */
void kf3ds__draw_overlays(const kf3ds_renderer *r, const kf3ds__projection *p,
                          const kf3ds_view *view, const kf3ds_pose *poses,
                          const kf3ds_render_options *options, kf3ds_framebuffer *fb);

#endif
