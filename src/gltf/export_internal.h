/* The glTF export module's own header (include/kf3ds_gltf.h is the public
 * one; docs/gltf.md the mapping). A small glTF writer that knows nothing of
 * 3DS: JSON text in memory (gltf_json.c), the binary buffer with its buffer
 * views and accessors (gltf_buffer.c). Then the scene into glTF by concern:
 * export_graph.c the node list the others add to, export_nodes.c the node
 * graph, cameras and lights, export_mesh.c the meshes, export_material.c
 * materials and images, export_prop.c one animated property's value,
 * export_anim.c the animation, export.c the options,
 * the document and the .glb.
 *
 * C99, libc and libm and the core only; every allocation goes through the
 * options' kf3ds_allocator (kf3ds__gltf_alloc and friends). Every writer
 * function tolerates an earlier out-of-memory: the failure is remembered
 * (the `oom` fields) and reported once at the end. Names outside a file are
 * kf3ds__ (hidden in the shared library). */
#ifndef KF3DS_GLTF_EXPORT_INTERNAL_H
#define KF3DS_GLTF_EXPORT_INTERNAL_H
#include "kf3ds.h"
#include "kf3ds_gltf.h"
#include <stddef.h>
#include <stdint.h>

/* ---- memory (gltf_json.c) -------------------------------------------------- */

/* `a` has both hooks set (export.c fills in malloc and free for NULL ones).
 * kf3ds__gltf_alloc never returns NULL for size 0 unless out of memory;
 * kf3ds__gltf_calloc checks count × size for overflow; kf3ds__gltf_grow is
 * realloc from `old` to `size` bytes (the hooks have no realloc): on failure
 * NULL, p untouched. */
void *kf3ds__gltf_alloc(const kf3ds_allocator *a, size_t size);
void *kf3ds__gltf_calloc(const kf3ds_allocator *a, size_t count, size_t size);
void *kf3ds__gltf_grow(const kf3ds_allocator *a, void *p, size_t old, size_t size);
void kf3ds__gltf_free(const kf3ds_allocator *a, void *p);

/* ---- JSON text (gltf_json.c) ----------------------------------------------- */

#define GLTF_MAX_DEPTH 32

/* A piece of JSON being written: a whole document, or a list of array
 * elements (a fragment) spliced into a document later. Members and elements
 * get their commas by themselves. */
typedef struct gltf_json {
    const kf3ds_allocator *al;
    char *buf;
    size_t len, cap;
    int oom;
    unsigned depth;
    unsigned char has_items[GLTF_MAX_DEPTH]; /* per level: a member was written */
    char closer[GLTF_MAX_DEPTH];             /* per level: '}' or ']' */
    uint32_t count;          /* elements written at depth 0 (fragments) */
} gltf_json;

void kf3ds__gltf_json_init(gltf_json *j, const kf3ds_allocator *al);
void kf3ds__gltf_json_free(gltf_json *j);
/* The text so far: *len bytes at the returned pointer (owned by j), NULL
 * when memory ran out. */
const char *kf3ds__gltf_json_text(gltf_json *j, size_t *len);
/* Hands the text over: the caller frees it with j's allocator; j is empty
 * after. NULL when memory ran out (or nothing was written). */
char *kf3ds__gltf_json_take(gltf_json *j, size_t *len);

/* key is the member name inside an object, NULL for an array element. */
void kf3ds__gltf_obj(gltf_json *j, const char *key);
void kf3ds__gltf_arr(gltf_json *j, const char *key);
void kf3ds__gltf_end(gltf_json *j); /* closes the innermost object or array */
/* The shortest form that reads back exactly; 0 when not finite. */
void kf3ds__gltf_num(gltf_json *j, const char *key, double v);
void kf3ds__gltf_int(gltf_json *j, const char *key, long v);
void kf3ds__gltf_bool(gltf_json *j, const char *key, int v);
void kf3ds__gltf_str(gltf_json *j, const char *key, const char *s); /* escaped, valid UTF-8 */
void kf3ds__gltf_nums(gltf_json *j, const char *key, const float *v, int n); /* [v0, ...] */
/* The elements of fragment `items` as members of the array just opened in j. */
void kf3ds__gltf_splice(gltf_json *j, gltf_json *items);

/* The short names the export's files use. */
#define gltf_json_init kf3ds__gltf_json_init
#define gltf_json_free kf3ds__gltf_json_free
#define gltf_json_text kf3ds__gltf_json_text
#define gltf_obj kf3ds__gltf_obj
#define gltf_arr kf3ds__gltf_arr
#define gltf_end kf3ds__gltf_end
#define gltf_num kf3ds__gltf_num
#define gltf_int kf3ds__gltf_int
#define gltf_bool kf3ds__gltf_bool
#define gltf_str kf3ds__gltf_str
#define gltf_nums kf3ds__gltf_nums
#define gltf_splice kf3ds__gltf_splice

/* ---- binary buffer, buffer views, accessors (gltf_buffer.c) ---------------- */

enum {
    GLTF_BYTE_U8 = 5121,
    GLTF_BYTE_U16 = 5123,
    GLTF_BYTE_U32 = 5125,
    GLTF_FLOAT = 5126,
    GLTF_ARRAY_BUFFER = 34962,
    GLTF_ELEMENT_ARRAY_BUFFER = 34963
};

typedef struct gltf_buffer {
    const kf3ds_allocator *al;
    unsigned char *data;
    size_t len, cap;
    int oom;
    gltf_json views;         /* fragment: the bufferViews */
    gltf_json accessors;     /* fragment: the accessors */
} gltf_buffer;

void kf3ds__gltf_buffer_init(gltf_buffer *b, const kf3ds_allocator *al);
void kf3ds__gltf_buffer_free(gltf_buffer *b);
/* Appends `bytes` bytes (4-byte aligned) as a new buffer view; target is
 * GLTF_ARRAY_BUFFER, GLTF_ELEMENT_ARRAY_BUFFER or 0. Returns its index. */
uint32_t kf3ds__gltf_view(gltf_buffer *b, const void *data, size_t bytes, int target);
/* An accessor over `count` elements of `ncomp` components (1 SCALAR, 2 VEC2,
 * 3 VEC3, 4 VEC4) of type `ctype`, in a buffer view of its own. minmax: also
 * write min and max (float and unsigned types). Returns its index. */
uint32_t kf3ds__gltf_accessor(gltf_buffer *b, const void *data, uint32_t count, int ctype,
                              int ncomp, int target, int minmax);

#define gltf_buffer_init kf3ds__gltf_buffer_init
#define gltf_buffer_free kf3ds__gltf_buffer_free
#define gltf_view kf3ds__gltf_view
#define gltf_accessor kf3ds__gltf_accessor

/* ---- the export -------------------------------------------------------------- */

/* A glTF node being built (written out at the end, children found then). */
typedef struct ex_node {
    const char *name;
    int32_t parent;           /* glTF node index, -1: a root of the scene */
    float t[3], r[4], s[3];
    int32_t mesh, camera, light; /* glTF indices or -1 */
    int32_t kf3ds_index;      /* the keyframer node it stands for, or -1 */
    int8_t visible;           /* KHR_node_visibility: -1 not used, else 0/1 */
} ex_node;

/* What an animated glTF property follows (export_anim.c samples it). */
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

/* The options as the export reads them (defaults filled in). */
typedef struct export_opts {
    unsigned flags;           /* KF3DS_GLTF_... */
    int glb;                  /* not KF3DS_GLTF_SEPARATE */
    int embed_images, no_animation, cubic, visibility_ext;
    double fps;
    int rate;                 /* samples per frame */
    int every_frame;          /* KF3DS_GLTF_EVERY_FRAME: no resampling */
    int linear;               /* KF3DS_GLTF_LINEAR: resampled to LINEAR keys only, no budget */
    double tolerance;         /* fraction of the extent (export_tolerance.c) */
    const kf3ds_gltf_options *user; /* callbacks, names, frames */
} export_opts;

typedef struct export_ctx {
    const export_opts *o;
    const kf3ds_scene *s;
    const kf3ds_allocator *al;
    kf3ds_pose *poses;        /* scene->num_nodes, scratch for evaluation */
    unsigned flags;           /* KF3DS_EVAL_NO_EASE or 0 (KF3DS_EVAL_LOCAL while sampling) */
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
    kf3ds_status failed;      /* an error other than out of memory (KF3DS_OK: none) */
    kf3ds_gltf_limit limit;   /* with failed == KF3DS_ERR_LIMIT */
    /* resampling (export_tolerance.c), per keyframer node: the largest
     * error of its translation (units), rotation (radians), scale */
    double *tol_pos, *tol_rot, *tol_scl;
    double tol_abs;           /* tolerance × extent */
    uint32_t over_tolerance;  /* channels kept at their samples: the bound needed more keys */
    struct ex_memo *memo;     /* export_samples.c: values already evaluated, or NULL */
} export_ctx;

/* export_nodes.c: the node graph with meshes, cameras and lights, and the
 * properties to animate. Returns 0, -1 on failure (c->failed or c->oom). */
int kf3ds__export_nodes(export_ctx *c);
/* export_graph.c: a node appended to c->nodes (its index; on failure c->oom
 * is set), a property to animate appended to c->props (when animating). */
uint32_t kf3ds__export_add_node(export_ctx *c, const char *name, int32_t parent);
void kf3ds__export_add_prop(export_ctx *c, ex_prop_kind kind, uint32_t gnode, uint32_t node,
                            int32_t mesh, int32_t target);
/* Writes the "nodes" array and the scene's root list into doc. */
void kf3ds__export_write_nodes(export_ctx *c, gltf_json *doc);

/* export_editor.c: a file without keyframer nodes: its editor cameras and
 * lights as nodes under `root`, placed as the editor stored them. */
void kf3ds__export_editor_cameras_lights(export_ctx *c, uint32_t root);

/* export_mesh.c: the glTF mesh of mesh `mesh` placed by `place` (the part
 * of N·T(−pivot)·M⁻¹ after N); cached by (mesh, own, pivot) so that
 * instances share it. -1 when the mesh has no vertices. */
int32_t kf3ds__export_mesh(export_ctx *c, int32_t mesh, const kf3ds_mat4 *place, int32_t own,
                           const float pivot[3]);
void kf3ds__export_mesh_free(export_ctx *c);

/* export_material.c: every 3DS material as a glTF material (same index). */
void kf3ds__export_materials(export_ctx *c);
void kf3ds__export_material_free(export_ctx *c);
/* s percent-encoded for a URI (unreserved characters and '/' kept), in
 * memory from c's allocator; NULL when out of memory. */
char *kf3ds__export_uri_encode(export_ctx *c, const char *s);

/* export_anim.c: samples every property and writes the animation's
 * samplers and channels. Returns 0, -1 on failure. */
int kf3ds__export_animation(export_ctx *c);
/* export_prop.c: one property's value at `frame` (also the static values):
 * 1..4 floats. */
int kf3ds__export_prop_value(export_ctx *c, const ex_prop *p, double frame, float out[4]);

/* export_samples.c: export_prop_value, each (property, frame) evaluated
 * once while c->memo is set (kf3ds__export_samples_init; without it every
 * call evaluates). The same values bit for bit. init returns 0, -1 out of
 * memory. */
int kf3ds__export_samples_init(export_ctx *c);
void kf3ds__export_samples_free(export_ctx *c);
int kf3ds__export_sample(export_ctx *c, const ex_prop *p, double frame, float out[4]);

/* export_tolerance.c: fills tol_pos, tol_rot, tol_scl and tol_abs (the
 * caller frees the arrays). Returns 0, -1 when out of memory. */
int kf3ds__export_tolerances(export_ctx *c);

/* export_budget.c: the forms of a file's resampled channels (docs/gltf.md,
 * rule 36). Each item comes in with its form EX_FORM_NONE (no channel, or
 * --cubic's own keys), EX_FORM_STEP (lin_keys keys) or EX_FORM_LINEAR, and
 * for the latter its LINEAR and CUBICSPLINE key counts that keep the bound
 * and its per-frame samples; it leaves with EX_FORM_LINEAR, EX_FORM_CUBIC
 * or, where the file's keys would exceed the per-frame export's, with
 * EX_FORM_SAMPLES (at most `samples` keys, the bound given up). Returns 0,
 * -1 out of memory. */
typedef enum ex_form { EX_FORM_NONE, EX_FORM_STEP, EX_FORM_LINEAR, EX_FORM_CUBIC, EX_FORM_SAMPLES } ex_form;
typedef struct ex_budget_item {
    ex_form form;
    uint32_t samples, lin_keys, cub_keys;
} ex_budget_item;
int kf3ds__export_budget(export_ctx *c, ex_budget_item *items, uint32_t n);

/* Small helpers. v within [lo, hi]; NaN becomes lo. */
static inline double export_clamp(double v, double lo, double hi)
{
    return v == v ? (v < lo ? lo : v > hi ? hi : v) : lo;
}
/* (export_graph.c) */
void kf3ds__export_quat_normalize(float q[4]);
/* 1 when node `i` may be hidden at some exported frame. */
int kf3ds__export_node_may_hide(const export_ctx *c, uint32_t i);

#define export_nodes kf3ds__export_nodes
#define export_add_node kf3ds__export_add_node
#define export_add_prop kf3ds__export_add_prop
#define export_write_nodes kf3ds__export_write_nodes
#define export_editor_cameras_lights kf3ds__export_editor_cameras_lights
#define export_mesh kf3ds__export_mesh
#define export_mesh_free kf3ds__export_mesh_free
#define export_materials kf3ds__export_materials
#define export_material_free kf3ds__export_material_free
#define export_uri_encode kf3ds__export_uri_encode
#define export_animation kf3ds__export_animation
#define export_prop_value kf3ds__export_prop_value
#define export_quat_normalize kf3ds__export_quat_normalize
#define export_node_may_hide kf3ds__export_node_may_hide
#define export_tolerances kf3ds__export_tolerances
#define export_sample kf3ds__export_sample

/* Allocation shorthands over c's allocator. */
#define EX_ALLOC(c, n) kf3ds__gltf_alloc((c)->al, (n))
#define EX_CALLOC(c, n, size) kf3ds__gltf_calloc((c)->al, (n), (size))
#define EX_GROW(c, p, old, n) kf3ds__gltf_grow((c)->al, (p), (old), (n))
#define EX_FREE(c, p) kf3ds__gltf_free((c)->al, (p))

#endif
