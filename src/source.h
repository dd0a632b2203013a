/* What saving needs that the scene itself does not hold (docs/writer.md,
 * "Lossless saving"): kept by the loader with KF3DS_LOAD_KEEP_SOURCE, made
 * by the builder for the scenes it builds. scene->source_ points to it; it
 * lives in the scene's arena.
 *  - the file's chunk layout: every chunk in file order, with the bytes of
 *    those the scene does not represent (unknown ids, chunks the loader
 *    skips, values a later chunk replaced), so that saving writes the file's
 *    own tree back with the scene's values in it (layout.c records it);
 *  - the points of mirrored meshes as stored, before the mirror fix;
 *  - the file order of keys that loading sorted;
 *  - the background and atmosphere settings as loaded. */
#ifndef KF3DS_SOURCE_H
#define KF3DS_SOURCE_H
#include "kf3ds.h"

/* How a layout entry is written. */
typedef enum kf3ds__layout_chunk_kind {
    KF3DS__LAY_SCENE = 0,   /* written from the scene's values */
    KF3DS__LAY_UNKNOWN,     /* not read by the loader: its bytes, verbatim */
    /* read, but replaced by a later chunk or ignored; or skipped, but with
     * sub-chunks other readers would stumble on: verbatim unless repairing */
    KF3DS__LAY_SHADOWED,
    /* a complete colour or percentage leaf the loader did not take (a colour
     * may come in a gamma-corrected and a linear form): verbatim, always */
    KF3DS__LAY_ALTERNATE,
    /* a background or atmosphere chunk of MDATA (BIT_MAP, V_GRADIENT, FOG,
     * USE_FOG, ...): verbatim while the scene's settings are the ones loaded,
     * else replaced by the scene's (docs/writer.md, "Two orders") */
    KF3DS__LAY_SETTING
} kf3ds__layout_chunk_kind;

/* The background and atmosphere chunks of MDATA (KF3DS__LAY_SETTING). */
static inline int kf3ds__is_setting(uint16_t id)
{
    switch (id) {
    case KF3DS_CHUNK_BIT_MAP: case KF3DS_CHUNK_SOLID_BGND: case KF3DS_CHUNK_V_GRADIENT:
    case KF3DS_CHUNK_USE_BIT_MAP: case KF3DS_CHUNK_USE_SOLID_BGND:
    case KF3DS_CHUNK_USE_V_GRADIENT: case KF3DS_CHUNK_FOG: case KF3DS_CHUNK_LAYER_FOG:
    case KF3DS_CHUNK_DISTANCE_CUE: case KF3DS_CHUNK_USE_FOG: case KF3DS_CHUNK_USE_LAYER_FOG:
    case KF3DS_CHUNK_USE_DISTANCE_CUE:
        return 1;
    default:
        return 0;
    }
}

/* One chunk of the file, in file (pre-)order. */
typedef struct kf3ds__layout_chunk {
    uint16_t id;
    uint8_t kind;               /* kf3ds__layout_chunk_kind */
    uint8_t depth;              /* 0 for the root */
    uint32_t end;               /* index of the entry after its last descendant */
    /* UNKNOWN and SHADOWED: the payload after the 6-byte header (sub-chunks
     * included); NAMED_OBJECT: its name with the terminator. */
    const unsigned char *bytes;
    uint32_t size;
    uint32_t offset;            /* where its payload was in the file */
    /* tracks: the two reserved words of the header; NAMED_OBJECT (while
     * recording): the length of its name; SETTING: 1 when it is well formed
     * (its data whole, its sub-chunks sound); reserved[1] of a SHADOWED
     * chunk the loader skips: 1 when its sub-chunks are damaged */
    uint32_t reserved[2];
} kf3ds__layout_chunk;

/* The file positions of a track whose keys loading sorted. */
typedef struct kf3ds__key_order {
    uint32_t node;
    uint32_t kind;              /* kf3ds_track_kind */
    uint32_t num_keys;          /* used only while the track still has these many */
    const uint32_t *index;      /* for each key in file order, its index in track.keys */
} kf3ds__key_order;

typedef struct kf3ds__source {
    const kf3ds__layout_chunk *layout;   /* NULL: none (the builder's scenes) */
    uint32_t num_layout;
    /* The elements the layout's chunks stand for: it is used only while the
     * scene still has these many (else saving writes kf3ds's own order). */
    uint32_t num_meshes, num_materials, num_cameras, num_lights, num_nodes;
    /* Per mesh: its points as the file stored them, for mirrored meshes
     * (NULL for the others, whose points are stored as they are). */
    const float (**stored_points)[3];
    uint32_t num_stored_points;
    kf3ds__key_order *key_orders;
    uint32_t num_key_orders, cap_key_orders;
    /* The background and atmosphere as loaded, which the layout's SETTING
     * chunks give: while the scene's are the same, those chunks are written
     * back as they were. */
    kf3ds_environment environment;
} kf3ds__source;

#endif
