/* kf3ds export: what its files share (docs/gltf.md). cmd_export.c is the
 * verb (options, assembling and writing the document); the scene goes into
 * glTF by concern: cmd_export_nodes.c the node graph, cameras and lights,
 * cmd_export_mesh.c the meshes, cmd_export_material.c materials and
 * images, cmd_export_anim.c the animation. */
#ifndef KF3DS_CMD_EXPORT_H
#define KF3DS_CMD_EXPORT_H
#include "cmd.h"
#include "gltf.h"

typedef struct export_opts {
    const char *file, *out;
    int glb;                  /* OUT ends in .glb */
    int embed_images, no_animation, cubic, visibility_ext, no_ease, quiet;
    int has_static_frame, has_frames, has_fps, has_rate;
    double static_frame;
    long first, last;         /* --frames A:B */
    double fps;
    int rate;                 /* samples per frame */
} export_opts;

/* A glTF node being built (written out at the end, children found then). */
typedef struct ex_node {
    const char *name;
    int32_t parent;           /* glTF node index, -1: a root of the scene */
    float t[3], r[4], s[3];
    int32_t mesh, camera, light; /* glTF indices or -1 */
    int32_t kf3ds_index;      /* the keyframer node it stands for, or -1 */
    int8_t visible;           /* KHR_node_visibility: -1 not used, else 0/1 */
} ex_node;

/* What an animated glTF property follows (cmd_export_anim.c samples it). */
typedef enum ex_prop_kind {
    EX_TRANSLATION,   /* the node's POS */
    EX_ROTATION,      /* the node's ROT, normalised */
    EX_SCALE,         /* the node's SCL (times visibility when `merge_visibility`) */
    EX_SHOWN_SCALE,   /* holder: scale 1 while `mesh` is shown, else 0 */
    EX_SHOWN_EXT,     /* holder or node: KHR_node_visibility */
    EX_AIM,           /* camera or spot aim node: look-at rotation in the node's frame */
    EX_YFOV,          /* camera: vertical FOV, radians */
    EX_LIGHT_COLOR,   /* light: colour */
    EX_SPOT_INNER, EX_SPOT_OUTER /* spot: cone half-angles, radians */
} ex_prop_kind;

typedef struct ex_prop {
    ex_prop_kind kind;
    uint32_t gnode;           /* the glTF node it animates */
    uint32_t node;            /* the keyframer node it follows */
    int32_t mesh;             /* EX_SHOWN_*: the mesh this holder shows, -1: any */
    int32_t target;           /* pointer properties: camera or light index */
    int merge_visibility;     /* EX_SCALE */
} ex_prop;

typedef struct export_ctx {
    const export_opts *o;
    const kf3ds_scene *s;
    kf3ds_pose *poses;        /* scene->num_nodes, scratch for evaluation */
    unsigned flags;           /* KF3DS_EVAL_NO_EASE or 0 */
    int animate;              /* an animation is written */
    double first, last;       /* the exported frames (both the static frame when not animating) */
    gltf_buffer buf;
    gltf_json meshes, materials, textures, images, samplers, cameras, lights;
    gltf_json anim_samplers, anim_channels;
    ex_node *nodes;
    uint32_t num_nodes, cap_nodes;
    ex_prop *props;
    uint32_t num_props, cap_props;
    int32_t *node_gltf;       /* keyframer node -> its glTF node */
    struct ex_mesh_key *mesh_cache;
    uint32_t num_cached, cap_cached;
    struct ex_image *image_list;
    uint32_t num_image_list;
    float extent;             /* the scene's size at the static pose (camera near planes) */
    int used_texture_transform, used_lights, used_pointer, used_visibility;
    int oom;
    int failed;               /* an error was printed */
} export_ctx;

/* cmd_export_nodes.c: the node graph with meshes, cameras and lights, and
 * the properties to animate. Returns 0, -1 on failure (printed or oom). */
int export_nodes(export_ctx *c);
uint32_t export_add_node(export_ctx *c, const char *name, int32_t parent);
void export_add_prop(export_ctx *c, ex_prop_kind kind, uint32_t gnode, uint32_t node,
                     int32_t mesh, int32_t target);
/* Writes the "nodes" array and the scene's root list into doc. */
void export_write_nodes(export_ctx *c, gltf_json *doc);

/* cmd_export_mesh.c: the glTF mesh of mesh `mesh` placed by `place` (the
 * part of N·T(−pivot)·M⁻¹ after N); cached by (mesh, own, pivot) so that
 * instances share it. -1 when the mesh has no vertices. */
int32_t export_mesh(export_ctx *c, int32_t mesh, const kf3ds_mat4 *place, int32_t own,
                    const float pivot[3]);
void export_mesh_free(export_ctx *c);

/* cmd_export_material.c: every 3DS material as a glTF material (same index). */
void export_materials(export_ctx *c);
void export_material_free(export_ctx *c);
/* s percent-encoded for a URI (unreserved characters and '/' kept); 0 when
 * it does not fit in cap. */
int export_uri_encode(const char *s, char *out, size_t cap);

/* cmd_export_anim.c: samples every property and writes the animation's
 * samplers and channels. Returns 0, -1 on failure. */
int export_animation(export_ctx *c);
/* One property's value at `frame` (also the static values): 1..4 floats. */
int export_prop_value(export_ctx *c, const ex_prop *p, double frame, float out[4]);

/* Small helpers. v within [lo, hi]; NaN becomes lo. */
static inline double export_clamp(double v, double lo, double hi)
{
    return v == v ? (v < lo ? lo : v > hi ? hi : v) : lo;
}
/* (cmd_export_nodes.c) */
void export_quat_normalize(float q[4]);
/* 1 when node `i` may be hidden at some exported frame. */
int export_node_may_hide(const export_ctx *c, uint32_t i);

#endif
