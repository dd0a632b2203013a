/*
 * kf3ds — a reader for 3D Studio .3ds files and their keyframer animation.
 *
 * Conventions (fixed, see docs/architecture.md):
 *  - World space is the file's own: right-handed, Z up, units as stored.
 *  - Matrices are kf3ds_mat4, a struct around float m[4][4] indexed m[row][col],
 *    column vectors (v' = M·v), translation in m[0][3], m[1][3], m[2][3]. (The
 *    struct avoids C's const-qualified 2-D array pitfall when passing them.)
 *  - Quaternions are float q[4] = x, y, z, w.
 *  - Frames are floats (double in the evaluator); 12.5 is halfway between 12 and 13.
 *
 * The core is C99, uses no stdio (kf3ds_load_file is a thin wrapper in its own
 * file) and has no global state. A loaded scene is plain read-only data: arrays
 * with counts beside them. Evaluation never allocates and never mutates the
 * scene, so any number of threads may evaluate one scene at once.
 */
#ifndef KF3DS_H
#define KF3DS_H

#include <stddef.h>
#include <stdint.h>
#include "kf3ds_chunks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the public functions: the shared library is built with hidden
 * visibility, so only these are exported. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define KF3DS_API __attribute__((visibility("default")))
#else
#define KF3DS_API
#endif

/* The library's version. The Makefile reads these three lines (SONAME, kf3ds.pc). */
#define KF3DS_VERSION_MAJOR 0
#define KF3DS_VERSION_MINOR 1
#define KF3DS_VERSION_PATCH 0
#define KF3DS__STR2(x) #x
#define KF3DS__STR(x) KF3DS__STR2(x)
#define KF3DS_VERSION_STRING \
    KF3DS__STR(KF3DS_VERSION_MAJOR) "." KF3DS__STR(KF3DS_VERSION_MINOR) "." KF3DS__STR(KF3DS_VERSION_PATCH)
/* One number for compile-time checks: major·10000 + minor·100 + patch. */
#define KF3DS_VERSION_NUMBER \
    (KF3DS_VERSION_MAJOR * 10000 + KF3DS_VERSION_MINOR * 100 + KF3DS_VERSION_PATCH)

/* The version of the library linked at run time, as KF3DS_VERSION_NUMBER;
 * compare it with the header's to catch a mismatched shared library. */
KF3DS_API int kf3ds_version(void);
/* The same as a string, "0.1.0". */
KF3DS_API const char *kf3ds_version_string(void);

/* The length (1 to 4) of the valid UTF-8 sequence at text, of which `left`
 * bytes may be read, and its code point into *codepoint (may be NULL); 0
 * when those bytes do not start one (overlong forms, surrogates and values
 * beyond U+10FFFF are not valid). 3DS names are bytes in their author's code
 * page: kf3ds's JSON, glTF and text write what this accepts as it is and
 * escape other bytes (docs/output.md). */
KF3DS_API size_t kf3ds_utf8_char(const char *text, size_t left, uint32_t *codepoint);

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                              */
/* ------------------------------------------------------------------------ */

/* The outcome of a load and the kind of each diagnostic. Every code has one
 * severity, kf3ds_status_severity: the KF3DS_ERR_ codes are errors (data was
 * lost or nothing could be loaded), the KF3DS_WARN_ codes warnings (the
 * loader repaired or ignored something, nothing readable was lost). */
typedef enum kf3ds_status {
    KF3DS_OK = 0,
    KF3DS_ERR_ARGUMENT,   /* NULL buffer, bad option (allocator hooks given in part) */
    KF3DS_ERR_IO,         /* file could not be opened or read */
    KF3DS_ERR_NOMEM,      /* allocator returned NULL or the memory limit was hit */
    KF3DS_ERR_NOT_3DS,    /* empty, too short, or the root chunk is not a 3DS magic */
    KF3DS_ERR_CHUNK,      /* chunk header damaged: length < 6, or header cut short */
    KF3DS_ERR_TRUNCATED,  /* a payload ends before its declared content (counts beyond the chunk) */
    KF3DS_ERR_LIMIT,      /* a configured limit (nodes, keys, depth) was exceeded */
    KF3DS_WARN_OVERRUN,   /* a child chunk overruns its parent or the file: clamped */
    KF3DS_WARN_UNSORTED,  /* keys out of frame order: stable-sorted */
    KF3DS_WARN_PARENT,    /* unknown parent id, self-parent or cycle: node made a root */
    KF3DS_WARN_REFERENCE, /* a name that matches nothing (mesh, material, morph target) */
    KF3DS_WARN_VALUE,     /* an odd value that was kept or replaced (NaN, zero axis...) */
    KF3DS_WARN_TRAILING   /* bytes after the last chunk that do not form a chunk */
} kf3ds_status;

typedef enum kf3ds_severity { KF3DS_WARNING = 0, KF3DS_ERROR = 1 } kf3ds_severity;

/* One problem found while reading. chunk_name is a static string ("?" when
 * the id is unknown, "" when no chunk is involved). */
typedef struct kf3ds_diag {
    kf3ds_status code;
    kf3ds_severity severity; /* kf3ds_status_severity(code) */
    uint32_t offset;        /* byte offset in the input where it was found */
    uint16_t chunk_id;      /* the chunk being read (0 when none) */
    const char *chunk_name;
    char message[112];
} kf3ds_diag;

/* A few words for the code: "truncated data", "unsorted keys"; "unknown"
 * for a value outside the enum. */
KF3DS_API const char *kf3ds_status_string(kf3ds_status code);
/* KF3DS_ERROR for the KF3DS_ERR_ codes and for values outside the enum,
 * KF3DS_WARNING for the KF3DS_WARN_ codes and KF3DS_OK. */
KF3DS_API kf3ds_severity kf3ds_status_severity(kf3ds_status code);

/* ------------------------------------------------------------------------ */
/* Chunk walker (public so tools can walk raw chunks)                       */
/* ------------------------------------------------------------------------ */

/* A bounds-checked little-endian cursor over data[pos, end). Reads past end
 * return 0 and set `short_read`; they never touch memory outside the range. */
typedef struct kf3ds_reader {
    const unsigned char *data; /* the whole input; offsets are relative to it */
    size_t pos;
    size_t end;
    int short_read;
} kf3ds_reader;

KF3DS_API kf3ds_reader kf3ds_reader_make(const void *data, size_t size);
KF3DS_API uint8_t  kf3ds_read_u8(kf3ds_reader *r);
KF3DS_API uint16_t kf3ds_read_u16(kf3ds_reader *r);
KF3DS_API uint32_t kf3ds_read_u32(kf3ds_reader *r);
KF3DS_API int16_t  kf3ds_read_i16(kf3ds_reader *r);
KF3DS_API int32_t  kf3ds_read_i32(kf3ds_reader *r);
KF3DS_API float    kf3ds_read_f32(kf3ds_reader *r);
/* Reads a zero-terminated string. Returns a pointer into the input and its
 * length; when no terminator is found before end, the string runs to end,
 * *terminated is set to 0 and short_read is set. */
KF3DS_API const char *kf3ds_read_cstr(kf3ds_reader *r, size_t *len, int *terminated);
KF3DS_API size_t kf3ds_reader_left(const kf3ds_reader *r);

typedef enum kf3ds_chunk_result {
    KF3DS_NEXT_NONE = 0,  /* no more chunks in the parent */
    KF3DS_NEXT_OK = 1,    /* a chunk was read */
    KF3DS_NEXT_CLAMPED = 2, /* a chunk was read, its length overran the parent and was clamped */
    KF3DS_NEXT_BAD = 3    /* length < 6 or fewer than 6 bytes left: iteration stops */
} kf3ds_chunk_result;

typedef struct kf3ds_chunk {
    uint16_t id;
    uint32_t offset;   /* where its 6-byte header starts */
    uint32_t length;   /* as declared in the file */
    uint32_t end;      /* offset + length, clamped to the parent's end */
} kf3ds_chunk;

/* Reads the chunk header at parent->pos and advances parent->pos to the end of
 * that chunk, so calling it in a loop iterates the siblings. `body` (may be
 * NULL) is set to a reader over the chunk's payload (after the header). */
KF3DS_API kf3ds_chunk_result kf3ds_chunk_next(kf3ds_reader *parent, kf3ds_chunk *chunk,
                                    kf3ds_reader *body);

/* Every chunk id kf3ds knows, from the one list in kf3ds_chunks.h:
 * KF3DS_CHUNK_M3DMAGIC = 0x4D4D, KF3DS_CHUNK_NODE_HDR = 0xB010, ... */
typedef enum kf3ds_chunk_id {
#define KF3DS__CHUNK_ENUM(name, id) KF3DS_CHUNK_##name = id,
    KF3DS_CHUNK_LIST(KF3DS__CHUNK_ENUM)
#undef KF3DS__CHUNK_ENUM
    KF3DS_CHUNK_UNKNOWN_ = 0xFFFF
} kf3ds_chunk_id;

/* The chunk's name ("M3DMAGIC", "ROT_TRACK_TAG", ...) or NULL when unknown. */
KF3DS_API const char *kf3ds_chunk_name(uint16_t id);
/* 1 when a file may start with this chunk: M3DMAGIC, or one of the magics of
 * 3DS's other file kinds (MLIBMAGIC, CMAGIC, SMAGIC, LMAGIC, MATMAGIC) or a
 * bare MDATA, all of which the loader reads the same way. */
KF3DS_API int kf3ds_chunk_is_root(uint16_t id);

/* ------------------------------------------------------------------------ */
/* Scene                                                                    */
/* ------------------------------------------------------------------------ */

#define KF3DS_NONE (-1)

typedef struct kf3ds_mat4 {
    float m[4][4]; /* m[row][col], column vectors */
} kf3ds_mat4;

typedef struct kf3ds_texture_map {
    const char *file;      /* MAT_MAPNAME, "" when the map is absent */
    float strength;        /* percentage / 100 */
    uint16_t tiling;
    float blur, u_scale, v_scale, u_offset, v_offset, rotation;
} kf3ds_texture_map;

typedef struct kf3ds_material {
    const char *name;
    float ambient[3], diffuse[3], specular[3];
    float shininess;       /* MAT_SHININESS, 0..1 */
    float shin_strength;   /* MAT_SHIN2PCT, 0..1 */
    float transparency;    /* 0..1 */
    float self_illum;      /* 0..1 */
    float wire_size;
    uint16_t shading;      /* 0 wire, 1 flat, 2 Gouraud, 3 Phong, 4 metal */
    uint8_t two_sided, additive, wire, decal, face_map, soften, self_illum_flag;
    kf3ds_texture_map texture1, texture2, opacity, bump, specular_map,
        shininess_map, self_illum_map, reflection;
} kf3ds_material;

/* The eight maps of a material, in the order of this enum; kf3ds_material_map
 * gives one by its kind. */
typedef enum kf3ds_map_kind {
    KF3DS_MAP_TEXTURE1 = 0, KF3DS_MAP_TEXTURE2, KF3DS_MAP_OPACITY, KF3DS_MAP_BUMP,
    KF3DS_MAP_SPECULAR, KF3DS_MAP_SHININESS, KF3DS_MAP_SELF_ILLUM, KF3DS_MAP_REFLECTION,
    KF3DS_MAP_COUNT
} kf3ds_map_kind;
/* Bits of kf3ds_texture_map.tiling (MAT_MAP_TILING). */
#define KF3DS_TILE_DECAL        0x001
#define KF3DS_TILE_MIRROR       0x002
#define KF3DS_TILE_NEGATIVE     0x008
#define KF3DS_TILE_NONE         0x010 /* no tiling: nothing of the map outside 0..1 */
#define KF3DS_TILE_SAT          0x020
#define KF3DS_TILE_ALPHA_SOURCE 0x040
#define KF3DS_TILE_TINT         0x080
#define KF3DS_TILE_IGNORE_ALPHA 0x100
#define KF3DS_TILE_RGB_TINT     0x200

/* One of the material's maps (NULL for a kind out of range or m NULL). */
KF3DS_API const kf3ds_texture_map *kf3ds_material_map(const kf3ds_material *m, kf3ds_map_kind kind);
/* Its short name: "texture1", "texture2", "opacity", "bump", "specular",
 * "shininess", "self_illum", "reflection" ("?" out of range). */
KF3DS_API const char *kf3ds_map_kind_name(kf3ds_map_kind kind);

/* 8 bytes, as in the file: big meshes stay small. A face's smoothing groups
 * and material are in the mesh's optional per-face arrays; see
 * kf3ds_face_smoothing and kf3ds_face_material. */
typedef struct kf3ds_face {
    uint16_t v[3];
    uint16_t flags;        /* 0x4 AB, 0x2 BC, 0x1 CA edge visible; 0x8/0x10 wrap seams */
} kf3ds_face;

typedef struct kf3ds_material_group {
    const char *material_name;
    int32_t material;      /* index or KF3DS_NONE when the name matches nothing */
    uint16_t *faces;
    uint32_t num_faces;
} kf3ds_material_group;

typedef struct kf3ds_mesh {
    const char *name;
    /* Stored vertices (world space of the editor). For a mirrored mesh
     * (det(matrix) < 0) the fix v <- M·S(-1,1,1)·M⁻¹·v is already applied. */
    float (*points)[3];
    uint32_t num_points;
    uint16_t *point_flags;
    uint32_t num_point_flags;
    float (*texcoords)[2];
    uint32_t num_texcoords;
    kf3ds_face *faces;
    uint32_t num_faces;
    uint32_t *smoothing;       /* per face SMOOTH_GROUP bits; NULL when the mesh has none */
    int32_t *face_materials;   /* per face material index or KF3DS_NONE; NULL without groups */
    kf3ds_material_group *groups;
    uint32_t num_groups;
    kf3ds_mat4 matrix;      /* MESH_MATRIX as a column-vector matrix (identity if absent) */
    kf3ds_mat4 inv_matrix;  /* its inverse (identity if singular) */
    uint8_t mirrored;       /* det(matrix) < 0: points were mirrored at load */
    uint8_t has_matrix, hidden, color;
} kf3ds_mesh;

static inline uint32_t kf3ds_face_smoothing(const kf3ds_mesh *m, uint32_t face)
{
    return m->smoothing && face < m->num_faces ? m->smoothing[face] : 0;
}

static inline int32_t kf3ds_face_material(const kf3ds_mesh *m, uint32_t face)
{
    return m->face_materials && face < m->num_faces ? m->face_materials[face] : KF3DS_NONE;
}

typedef struct kf3ds_camera {
    const char *name;
    float position[3], target[3];
    float roll;            /* degrees */
    float lens;            /* mm */
    float fov;             /* degrees, 2400 / lens (45 when lens ~ 0) */
    float near_range, far_range;
    uint8_t see_cone, hidden;
} kf3ds_camera;

typedef struct kf3ds_light {
    const char *name;
    float position[3];
    float color[3];
    uint8_t off, spot, hidden, attenuate, shadowed, see_cone, rectangular, overshoot;
    float inner_range, outer_range, multiplier;
    /* spotlight only */
    float target[3];
    float hotspot, falloff, roll; /* degrees */
} kf3ds_light;

typedef enum kf3ds_track_kind {
    KF3DS_TRACK_POS = 0, KF3DS_TRACK_ROT, KF3DS_TRACK_SCL, KF3DS_TRACK_FOV,
    KF3DS_TRACK_ROLL, KF3DS_TRACK_COL, KF3DS_TRACK_MORPH, KF3DS_TRACK_HOT,
    KF3DS_TRACK_FALL, KF3DS_TRACK_HIDE,
    KF3DS_TRACK_COUNT
} kf3ds_track_kind;

/* Spline flags of a key: which of the optional values were stored. */
#define KF3DS_KEY_TENSION    0x01
#define KF3DS_KEY_CONTINUITY 0x02
#define KF3DS_KEY_BIAS       0x04
#define KF3DS_KEY_EASE_TO    0x08
#define KF3DS_KEY_EASE_FROM  0x10

typedef struct kf3ds_key {
    int32_t frame;
    uint16_t spline_flags;
    float tension, continuity, bias, ease_to, ease_from; /* 0 when absent */
    /* POS/SCL/COL: value[0..2]; FOV/ROLL/HOT/FALL: value[0];
     * ROT: value[0] = angle (radians, relative to the previous key), value[1..3] = axis. */
    float value[4];
    /* ROT only: the accumulated absolute rotation Q_k (x, y, z, w); else 0. */
    float quat[4];
    /* MORPH only: the target object's mesh index (or KF3DS_NONE) and name. */
    int32_t morph_mesh;
    const char *morph_name;
    /* (The tangents and squad controls derived at load live in the track's
     * private segment records, where evaluation reads them.) */
} kf3ds_key;

/* Track flags: low two bits 0 single, 1 wrap, 2 repeat, 3 loop (see docs). */
#define KF3DS_TRACK_LOOP_MASK 0x0003

/* (The two reserved words of the track header are not kept: `kf3ds dump`
 * shows them from the raw chunk.) */
typedef struct kf3ds_track {
    kf3ds_key *keys;       /* sorted by frame (stable) */
    uint32_t num_keys;
    uint16_t flags;
    /* Private, derived at load for the evaluator: the key frames packed for
     * the segment search and per-segment records. Do not use. */
    const int32_t *frames_;
    const float *segments_;
} kf3ds_track;

typedef enum kf3ds_node_type {
    KF3DS_NODE_AMBIENT = 0, /* AMBIENT_NODE_TAG */
    KF3DS_NODE_OBJECT,      /* OBJECT_NODE_TAG */
    KF3DS_NODE_CAMERA,      /* CAMERA_NODE_TAG */
    KF3DS_NODE_TARGET,      /* TARGET_NODE_TAG, a camera target */
    KF3DS_NODE_LIGHT,       /* LIGHT_NODE_TAG, an omni light */
    KF3DS_NODE_LTARGET,     /* L_TARGET_NODE_TAG, a spotlight target */
    KF3DS_NODE_SPOT         /* SPOTLIGHT_NODE_TAG */
} kf3ds_node_type;

KF3DS_API const char *kf3ds_node_type_name(kf3ds_node_type type); /* "object", "camera", ... */

typedef struct kf3ds_node {
    /* (fields the evaluator reads come first, to share cache lines) */
    kf3ds_node_type type;
    int32_t parent;         /* index of the parent node or KF3DS_NONE */
    uint16_t flags1, flags2;
    int32_t mesh;           /* object: index into meshes, or KF3DS_NONE */
    int32_t camera;         /* camera/target: index into cameras, or KF3DS_NONE */
    int32_t light;          /* light/spot/ltarget: index into lights, or KF3DS_NONE */
    int32_t target;         /* camera/spot: its target node; target: its camera/spot node */
    uint32_t active_tracks_; /* private: bit k set when tracks[k] has keys and the type uses it */
    kf3ds_track tracks[KF3DS_TRACK_COUNT];
    float pivot[3];
    uint32_t offset;        /* file offset of the node chunk */
    int32_t id;             /* NODE_ID, or the index among node chunks in file order */
    uint16_t parent_raw;    /* NODE_HDR parent field as stored (0xFFFF = none) */
    uint8_t has_node_id;
    uint8_t is_dummy;       /* name is "$$$DUMMY" */
    uint8_t has_prescale, has_bbox, has_morph_smooth;
    const char *name;       /* NODE_HDR name, "" when absent */
    const char *instance;   /* INSTANCE_NAME or NULL */
    float prescale[3];
    float bbox_min[3], bbox_max[3];
    float morph_smooth;
    uint32_t depth;         /* 0 for roots */
} kf3ds_node;

/* Which of the file's backgrounds and atmospheres is switched on: by its USE_
 * chunk (USE_BIT_MAP, USE_SOLID_BGND, USE_V_GRADIENT; USE_FOG, USE_LAYER_FOG,
 * USE_DISTANCE_CUE). 3D Studio writes every setting with defaults, so a
 * setting without its USE_ chunk is not in effect. */
typedef enum kf3ds_background_kind {
    KF3DS_BACKGROUND_NONE = 0, KF3DS_BACKGROUND_BITMAP, KF3DS_BACKGROUND_SOLID,
    KF3DS_BACKGROUND_GRADIENT
} kf3ds_background_kind;
typedef enum kf3ds_atmosphere_kind {
    KF3DS_ATMOSPHERE_NONE = 0, KF3DS_ATMOSPHERE_FOG, KF3DS_ATMOSPHERE_LAYER_FOG,
    KF3DS_ATMOSPHERE_DISTANCE_CUE
} kf3ds_atmosphere_kind;

/* MDATA's background and atmosphere settings (docs/format.md, 'Background and
 * atmosphere'). Densities and dimming are fractions (the file's percent / 100);
 * distances are in scene units along the view direction. */
typedef struct kf3ds_environment {
    kf3ds_background_kind background; /* the one in effect (NONE: no USE_ chunk) */
    kf3ds_atmosphere_kind atmosphere;
    const char *bitmap;        /* BIT_MAP image name, "" when absent */
    float solid[3];            /* SOLID_BGND */
    float gradient_mid;        /* V_GRADIENT: where the middle colour sits, 0 bottom .. 1 top */
    float gradient[3][3];      /* top, middle, bottom */
    float fog_near, fog_near_density, fog_far, fog_far_density;
    float fog_color[3];
    uint8_t fog_background;    /* FOG_BGND: the background is fogged too */
    float layer_bottom, layer_top, layer_density;
    uint32_t layer_flags;      /* 0x1 falls off towards the bottom, 0x2 towards the top,
                                * 0x10000 (some writers 0x100000) fogs the background */
    float layer_color[3];
    float cue_near, cue_near_dim, cue_far, cue_far_dim;
    uint8_t cue_background;    /* DCUE_BGND */
} kf3ds_environment;

typedef struct kf3ds_scene {
    uint32_t version;       /* M3D_VERSION, 0 when absent */
    uint32_t mesh_version;
    float master_scale;     /* reported, never applied; 1 when absent */
    float ambient[3];
    kf3ds_environment environment;

    kf3ds_mesh *meshes;         uint32_t num_meshes;
    kf3ds_material *materials;  uint32_t num_materials;
    kf3ds_camera *cameras;      uint32_t num_cameras;
    kf3ds_light *lights;        uint32_t num_lights;

    /* keyframer */
    uint8_t has_keyframer;
    uint16_t kf_revision;
    const char *kf_filename;
    int32_t anim_length;
    int32_t segment_start, segment_end; /* KFSEG, or 0..anim_length */
    int32_t current_frame;
    kf3ds_node *nodes;          uint32_t num_nodes;
    uint32_t *eval_order;       /* node indices, every parent before its children */

    kf3ds_diag *diags;          uint32_t num_diags; /* warnings and errors, in order found */
    uint32_t num_dropped_diags; /* beyond the diagnostics limit */

    void *internal_;            /* owned memory; do not touch */
    /* Private: what saving needs that the fields above do not hold (the
     * file's chunk layout with KF3DS_LOAD_KEEP_SOURCE; the builder's stored
     * points); NULL when nothing was kept. Do not touch. */
    void *source_;
} kf3ds_scene;

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

/* Where a scene's memory comes from: a few large blocks (64 KB and up),
 * taken with malloc_fn and each given back with free_fn by kf3ds_scene_free;
 * nothing is ever reallocated. Return memory aligned for any type (16 bytes).
 * Set both hooks or neither: one without the other is KF3DS_ERR_ARGUMENT. */
typedef struct kf3ds_allocator {
    void *(*malloc_fn)(size_t size, void *user);
    void (*free_fn)(void *ptr, void *user);
    void *user;             /* passed to both hooks */
} kf3ds_allocator;

/* Zero means the documented default. */
typedef struct kf3ds_limits {
    size_t max_memory;          /* bytes the scene may own; default unlimited */
    uint32_t max_nodes;         /* default 1,000,000 */
    uint32_t max_keys;          /* per track; default 10,000,000 */
    uint32_t max_diags;         /* default 1000; more are counted, not stored */
} kf3ds_limits;

/* Load flags. KF3DS_LOAD_KEEP_SOURCE keeps, beside the scene, what saving
 * needs to give the file back as it was (docs/writer.md, "Lossless saving"):
 * its chunk layout (every chunk in file order, the ones the scene does not
 * represent copied verbatim), the points of mirrored meshes as stored before
 * the mirror fix, and the file order of keys that loading sorted. It costs
 * about the file's size again in memory. */
#define KF3DS_LOAD_KEEP_SOURCE 0x1

/* Zero-initialise; every zero field means its default. */
typedef struct kf3ds_load_options {
    kf3ds_allocator allocator;  /* both hooks NULL: the default allocator (malloc; large
                                 * blocks from mmap with huge pages on Linux) */
    kf3ds_limits limits;
    unsigned flags;             /* KF3DS_LOAD_... */
} kf3ds_load_options;

/* Loads a scene from memory (the buffer is not kept).
 * - returns NULL and sets *error: nothing usable (bad arguments, not 3DS, out of memory);
 * - returns a scene and error->code != KF3DS_OK: the file is malformed, and
 *   everything that could be read is in the scene; *error is its first error;
 * - returns a scene and error->code == KF3DS_OK: success (maybe with warnings).
 * `options` and `error` may be NULL. */
KF3DS_API kf3ds_scene *kf3ds_load_memory(const void *data, size_t size,
                               const kf3ds_load_options *options, kf3ds_diag *error);
/* The same for a file path (the only function that uses stdio). */
KF3DS_API kf3ds_scene *kf3ds_load_file(const char *path, const kf3ds_load_options *options,
                             kf3ds_diag *error);
KF3DS_API void kf3ds_scene_free(kf3ds_scene *scene);

/* ------------------------------------------------------------------------ */
/* Saving (docs/writer.md)                                                  */
/* ------------------------------------------------------------------------ */

/* Save flags. Without any, a scene loaded with KF3DS_LOAD_KEEP_SOURCE is
 * written back lossless: its file's chunks in the file's order with the
 * scene's current values, the chunks the scene does not represent verbatim
 * where they were; any other scene in kf3ds's own order (the one 3D Studio
 * writes). */
#define KF3DS_SAVE_CANONICAL    0x01 /* kf3ds's own order even when the layout was kept */
#define KF3DS_SAVE_REPAIR       0x02 /* what the loader resolved, not what the file said:
                                      * keys in frame order, parent fields that name the
                                      * node's parent (unknown or cyclic ones become
                                      * roots), chunks a later one replaced dropped */
#define KF3DS_SAVE_DROP_UNKNOWN 0x04 /* leave out every chunk kept verbatim */
#define KF3DS_SAVE_NO_KEYFRAMER 0x08 /* editor data only */
#define KF3DS_SAVE_SEGMENT      0x10 /* write segment_start..segment_end as the segment */

/* Zero-initialise; every zero field means its default. */
typedef struct kf3ds_save_options {
    kf3ds_allocator allocator;  /* where the bytes come from (kf3ds_save_free gives
                                 * them back); both hooks NULL: the default */
    unsigned flags;             /* KF3DS_SAVE_... */
    int32_t segment_start, segment_end; /* with KF3DS_SAVE_SEGMENT */
} kf3ds_save_options;

/* Writes the scene as a .3ds file into a new buffer: *bytes (free it with
 * kf3ds_save_free and the same options) and *size. Nothing is written and
 * KF3DS_ERR_LIMIT returned, with a message naming what, when the scene does
 * not fit the format (more than 65535 points, faces, texture coordinates or
 * group faces in a mesh, a node id beyond 16 bits, a file over 4 GiB).
 * `options` and `error` may be NULL. */
KF3DS_API kf3ds_status kf3ds_save_memory(const kf3ds_scene *scene,
                                         const kf3ds_save_options *options, void **bytes,
                                         size_t *size, kf3ds_diag *error);
KF3DS_API void kf3ds_save_free(void *bytes, const kf3ds_save_options *options);
/* The same into a file (the only saving function that uses stdio); on
 * failure no file is left behind. */
KF3DS_API kf3ds_status kf3ds_save_file(const kf3ds_scene *scene, const char *path,
                                       const kf3ds_save_options *options, kf3ds_diag *error);

/* ------------------------------------------------------------------------ */
/* Building a scene in code (docs/writer.md, "Building a scene")            */
/* ------------------------------------------------------------------------ */

/* Add materials, meshes, cameras, lights, nodes, tracks and keys, then
 * kf3ds_builder_finish gives the scene loading would give for the same
 * file (kf3ds_save_file writes it). Every call checks its arguments: the
 * first one that fails is kept (kf3ds_builder_error) and makes every later
 * call and kf3ds_builder_finish fail too, so checking once at the end is
 * enough. Indices are those of the scene's arrays; strings and arrays are
 * copied. */
typedef struct kf3ds_builder kf3ds_builder;

/* allocator: NULL or both hooks NULL for the default; the scene is made on it too. */
KF3DS_API kf3ds_builder *kf3ds_builder_create(const kf3ds_allocator *allocator);
KF3DS_API void kf3ds_builder_free(kf3ds_builder *b); /* without finishing */
KF3DS_API const kf3ds_diag *kf3ds_builder_error(const kf3ds_builder *b);

/* A copy of *m (its name and map file names too). Returns its index. */
KF3DS_API int32_t kf3ds_builder_add_material(kf3ds_builder *b, const kf3ds_material *m);
/* A mesh: points as the file stores them (the editor's world), faces
 * indexing them, the MESH_MATRIX (NULL: identity). A matrix with a negative
 * determinant makes a mirrored mesh, whose points the scene holds with the
 * mirror fix applied, as loading does. At most 65535 points and faces. */
KF3DS_API int32_t kf3ds_builder_add_mesh(kf3ds_builder *b, const char *name,
                                         const float (*points)[3], uint32_t num_points,
                                         const kf3ds_face *faces, uint32_t num_faces,
                                         const kf3ds_mat4 *matrix);
/* One texture coordinate / point flag per point; one smoothing mask per face. */
KF3DS_API kf3ds_status kf3ds_builder_mesh_texcoords(kf3ds_builder *b, int32_t mesh,
                                                    const float (*uv)[2], uint32_t n);
KF3DS_API kf3ds_status kf3ds_builder_mesh_point_flags(kf3ds_builder *b, int32_t mesh,
                                                      const uint16_t *flags, uint32_t n);
KF3DS_API kf3ds_status kf3ds_builder_mesh_smoothing(kf3ds_builder *b, int32_t mesh,
                                                    const uint32_t *groups);
/* How the editor shows a mesh: hidden (OBJ_HIDDEN) and its palette colour
 * index (MESH_COLOR). */
KF3DS_API kf3ds_status kf3ds_builder_mesh_display(kf3ds_builder *b, int32_t mesh, int hidden,
                                                  uint8_t color);
/* A material group: the faces (NULL: all of them) get the material, which
 * must have been added. */
KF3DS_API kf3ds_status kf3ds_builder_mesh_material(kf3ds_builder *b, int32_t mesh,
                                                   const char *material, const uint16_t *faces,
                                                   uint32_t n);
KF3DS_API int32_t kf3ds_builder_add_camera(kf3ds_builder *b, const kf3ds_camera *c);
KF3DS_API int32_t kf3ds_builder_add_light(kf3ds_builder *b, const kf3ds_light *l);
/* The background and atmosphere settings, a copy of *e (its bitmap name
 * too; NULL: none): the kinds in effect and every setting's values, the
 * fog densities and cue dimming as fractions (0..1 for 0..100 %). */
KF3DS_API kf3ds_status kf3ds_builder_environment(kf3ds_builder *b, const kf3ds_environment *e);
/* The scene's settings that belong to no element: MASTER_SCALE (1 unless
 * given; reported, never applied), the AMBIENT_LIGHT colour (black unless
 * given) and the keyframer's current frame (KFCURTIME, 0 unless given). */
KF3DS_API kf3ds_status kf3ds_builder_master_scale(kf3ds_builder *b, float scale);
KF3DS_API kf3ds_status kf3ds_builder_ambient(kf3ds_builder *b, const float rgb[3]);
KF3DS_API kf3ds_status kf3ds_builder_current_frame(kf3ds_builder *b, int32_t frame);

/* The keyframer header: its file name, length in frames and active segment. */
KF3DS_API kf3ds_status kf3ds_builder_keyframer(kf3ds_builder *b, const char *name,
                                               int32_t length, int32_t segment_start,
                                               int32_t segment_end);
/* A node named after the object it animates ("$$$DUMMY" for a dummy, a
 * camera's name for its target); parent: a node added before, or KF3DS_NONE.
 * Its id is its index unless kf3ds_builder_node_id gives another. */
KF3DS_API int32_t kf3ds_builder_add_node(kf3ds_builder *b, kf3ds_node_type type,
                                         const char *name, int32_t parent);
KF3DS_API kf3ds_status kf3ds_builder_node_pivot(kf3ds_builder *b, int32_t node,
                                                const float pivot[3]);
KF3DS_API kf3ds_status kf3ds_builder_node_id(kf3ds_builder *b, int32_t node, uint16_t id);
KF3DS_API kf3ds_status kf3ds_builder_node_instance(kf3ds_builder *b, int32_t node,
                                                   const char *instance);
KF3DS_API kf3ds_status kf3ds_builder_node_flags(kf3ds_builder *b, int32_t node,
                                                uint16_t flags1, uint16_t flags2);
/* A node's BOUNDBOX (min and max in the mesh's own space), PRESCALE and,
 * for a morphing node, MORPH_SMOOTH (the smoothing angle in degrees). */
KF3DS_API kf3ds_status kf3ds_builder_node_bbox(kf3ds_builder *b, int32_t node, const float min[3],
                                               const float max[3]);
KF3DS_API kf3ds_status kf3ds_builder_node_prescale(kf3ds_builder *b, int32_t node,
                                                   const float scale[3]);
KF3DS_API kf3ds_status kf3ds_builder_node_morph_smooth(kf3ds_builder *b, int32_t node,
                                                       float degrees);
KF3DS_API kf3ds_status kf3ds_builder_track_flags(kf3ds_builder *b, int32_t node,
                                                 kf3ds_track_kind kind, uint16_t flags);
/* A key: frame, TCB and ease (their spline flags are set from the nonzero
 * ones), the value as a kf3ds_key holds it (a rotation key is the angle and
 * axis relative to the previous key, as the format stores it), morph_name
 * for a morph key; the derived fields are ignored. Keys out of frame order
 * are sorted as loading sorts them (with its warning in scene->diags) and
 * saved in the order they were added. */
KF3DS_API kf3ds_status kf3ds_builder_add_key(kf3ds_builder *b, int32_t node,
                                             kf3ds_track_kind kind, const kf3ds_key *key);
/* The scene (free it with kf3ds_scene_free), or NULL and *error when a call
 * failed or memory ran out. The builder is freed either way. Warnings of
 * the loader's finishing steps (a node naming no mesh) are in scene->diags. */
KF3DS_API kf3ds_scene *kf3ds_builder_finish(kf3ds_builder *b, kf3ds_diag *error);

/* ------------------------------------------------------------------------ */
/* Scene queries                                                            */
/* ------------------------------------------------------------------------ */

KF3DS_API int32_t kf3ds_scene_find_node(const kf3ds_scene *scene, const char *name); /* first match */
KF3DS_API int32_t kf3ds_scene_find_mesh(const kf3ds_scene *scene, const char *name);

/* ------------------------------------------------------------------------ */
/* Evaluation                                                               */
/* ------------------------------------------------------------------------ */

#define KF3DS_EVAL_NO_EASE 0x1  /* ignore ease-to/ease-from (what every peer does) */
/* kf3ds_node_eval only: the node's world matrix is its own placement, its
 * ancestors' left out (they are not evaluated); every other value of the
 * pose is the same bits as without it. For callers that need a node's own
 * tracks at many frames (the glTF export's resampling) and not where its
 * parents put it. kf3ds_scene_eval ignores it. */
#define KF3DS_EVAL_LOCAL 0x2

/* The value of one track at `frame`. out receives 3 floats (POS/SCL/COL),
 * 4 (ROT: quaternion), or 1 (FOV/ROLL/HOT/FALL); for HIDE out[0] is 1 when
 * hidden, for MORPH out[0] is the index of the current key (as a float).
 * A track without keys gives 0 (identity quaternion for ROT). `kind` is the
 * kind the track was loaded as (the node's tracks[kind]); asked for as another
 * kind whose segments are laid out differently, the keys are held, not
 * interpolated. Returns the number of floats written. */
KF3DS_API int kf3ds_track_eval(const kf3ds_track *track, kf3ds_track_kind kind, double frame,
                     unsigned flags, float out[4]);

/* What evaluation interpolates with at key `key` of a track (docs/evaluation.md,
 * "Hermite tracks" and "Rotation tracks"), worked out from the keys and the
 * track's loop flags by the code that sets the track up at load, so the values
 * are exactly those evaluation uses. POS/SCL/COL and FOV/ROLL/HOT/FALL: the
 * incoming and outgoing Hermite tangents per unit of the segment parameter u
 * (0 to 1 over a segment; divide by the length in frames of the segment before
 * the key for `in`, after it for `out`, for a rate per frame); 3 or 1 floats,
 * the rest of in/out set to 0. ROT: the key's squad control quaternions, B_k in
 * `in` and A_k in `out` (x, y, z, w). The keys must be as loading or the
 * builder leaves them (sorted, rotations accumulated). Returns the number of
 * floats of each (3, 1 or 4); 0, writing nothing, for HIDE and MORPH tracks and
 * a key out of range. */
KF3DS_API int kf3ds_track_key_tangents(const kf3ds_track *track, kf3ds_track_kind kind,
                                       uint32_t key, float in[4], float out[4]);

typedef struct kf3ds_pose {
    kf3ds_mat4 world;      /* N(t) */
    float position[3];     /* POS track (local) */
    float rotation[4];     /* ROT track, accumulated quaternion (local) */
    float scale[3];        /* SCL track */
    float color[3];        /* COL track (lights, ambient) */
    float fov, roll, hotspot, falloff; /* degrees */
    uint8_t hidden;        /* HIDE track or NODE_HDR flags1 0x800 */
    int32_t morph_mesh;    /* MORPH track's current mesh, or KF3DS_NONE */
    /* Private: the segment each track was in last time, so that playback
     * finds the next segment without a search. Any value is safe (it is
     * checked); zero-initialise the poses before the first call. */
    uint32_t segment_hint_[KF3DS_TRACK_COUNT];
} kf3ds_pose;

/* Evaluates one node (and, without storing them, its ancestors). */
KF3DS_API void kf3ds_node_eval(const kf3ds_scene *scene, uint32_t node, double frame,
                     unsigned flags, kf3ds_pose *out);
/* Evaluates every node at `frame` into poses[num_nodes], parents first.
 * Reuse the same poses array from frame to frame: it carries search hints. */
KF3DS_API void kf3ds_scene_eval(const kf3ds_scene *scene, double frame, unsigned flags,
                      kf3ds_pose *poses);

/* The matrix that places an object node's mesh vertices: N·T(−pivot)·M⁻¹.
 * Returns 0 (and the identity) when the node has no mesh. */
KF3DS_API int kf3ds_node_mesh_matrix(const kf3ds_scene *scene, uint32_t node,
                           const kf3ds_pose *pose, kf3ds_mat4 *out);

/* A camera node's view: world → camera matrix with camera space x right,
 * y up, looking down −z (OpenGL style), roll applied about the view axis,
 * and the FOV in degrees. Uses the camera's target node when there is one,
 * else the editor camera's target. poses must hold every node (scene_eval).
 * Returns 0 when `node` is not a camera node. */
KF3DS_API int kf3ds_node_camera_view(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                      kf3ds_mat4 *view, float *fov_degrees, float *roll_degrees);

/* The look-at of kf3ds_node_camera_view for any eye and target (spotlights,
 * editor cameras): world → view, x right, y up, looking down −z, roll in
 * degrees about the view axis (docs/evaluation.md, "Cameras"). Returns 0
 * when eye and target coincide (the view is then not a rotation). */
KF3DS_API int kf3ds_look_at(const float eye[3], const float target[3], float roll_degrees,
                            kf3ds_mat4 *view);

/* 1 when some object node places a mesh: the scene is then drawn from its
 * keyframer nodes; otherwise (a file with editor data only) its meshes are
 * shown as stored. */
KF3DS_API int kf3ds_scene_places_meshes(const kf3ds_scene *scene);
/* The mesh an object node shows at this pose: its own, or the current morph
 * key's target; KF3DS_NONE for nodes without a mesh. pose may be NULL. */
KF3DS_API int32_t kf3ds_node_pose_mesh(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *pose);
/* The matrix that shows a mesh where the editor had it, for scenes drawn
 * without nodes: the identity, or for a mirrored mesh M·S(−1,1,1)·M⁻¹, which
 * undoes the mirror fix applied to its points at load. */
KF3DS_API void kf3ds_mesh_editor_matrix(const kf3ds_mesh *mesh, kf3ds_mat4 *out);
/* The box to frame at these poses: the placed vertices of visible object
 * meshes and the object nodes' positions; cameras, lights and targets only when
 * there is nothing else (they often stand far off); for files without object
 * nodes, the meshes as stored. Returns 0 when the scene has nothing to bound. */
KF3DS_API int kf3ds_scene_bounds(const kf3ds_scene *scene, const kf3ds_pose *poses, float min[3],
                       float max[3]);

/* Small math helpers used by the tools. */
KF3DS_API void kf3ds_mat4_identity(kf3ds_mat4 *out);
KF3DS_API void kf3ds_mat4_mul(const kf3ds_mat4 *a, const kf3ds_mat4 *b, kf3ds_mat4 *out); /* out may alias */
KF3DS_API void kf3ds_mat4_transform_point(const kf3ds_mat4 *m, const float p[3], float out[3]);
KF3DS_API int  kf3ds_mat4_invert(const kf3ds_mat4 *m, kf3ds_mat4 *out); /* 0 (identity) if singular */

#ifdef __cplusplus
}
#endif
#endif
