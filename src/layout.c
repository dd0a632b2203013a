/* The file's chunk layout for lossless saving (source.h), recorded with
 * KF3DS_LOAD_KEEP_SOURCE once the scene is loaded: every chunk in file order,
 * walked with the readers' own structure (docs/format.md, "The chunk tree"),
 * each marked as written from the scene (the loader read it into the scene),
 * unknown (the loader skips it: its bytes are kept), shadowed (the loader
 * read it, but a later chunk replaced its value, or it was cut short where
 * the loader ignores it: its bytes are kept too) or a setting (a background
 * or atmosphere chunk: its bytes are kept, for saving to write back while
 * the scene's settings are unchanged). Like the loader, the walk
 * follows only the structure it knows, so no file makes it recurse deeper
 * than the format's seven levels. Two walks: one counts the entries, one
 * fills an array of exactly that size. */
#include "layout.h"
#include "arena.h"
#include <string.h>

/* What a chunk is where it stands (its parent's kind decides). */
typedef enum gkind {
    G_NONE = 0, /* not read there: unknown */
    G_LEAF,     /* read into the scene, no sub-chunks */
    G_SETTING,  /* a background or atmosphere chunk (source.h, KF3DS__LAY_SETTING) */
    G_ROOT, G_MDATA, G_MATERIAL, G_MAP, G_COLOR, G_PERCENT, G_NAMED, G_MESH, G_FACES,
    G_LIGHT, G_SPOT, G_CAMERA, G_KFDATA, G_NODE
} gkind;

static int is_color_leaf(uint16_t id)
{
    return id >= KF3DS_CHUNK_COLOR_F && id <= KF3DS_CHUNK_LIN_COLOR_F;
}

static int is_percent_leaf(uint16_t id)
{
    return id == KF3DS_CHUNK_INT_PERCENTAGE || id == KF3DS_CHUNK_FLOAT_PERCENTAGE;
}

static int is_node_tag(uint16_t id)
{
    return id >= KF3DS_CHUNK_AMBIENT_NODE_TAG && id <= KF3DS_CHUNK_SPOTLIGHT_NODE_TAG;
}

static int is_map(uint16_t id)
{
    switch (id) {
    case KF3DS_CHUNK_MAT_TEXMAP: case KF3DS_CHUNK_MAT_TEX2MAP: case KF3DS_CHUNK_MAT_OPACMAP:
    case KF3DS_CHUNK_MAT_BUMPMAP: case KF3DS_CHUNK_MAT_SPECMAP: case KF3DS_CHUNK_MAT_SHINMAP:
    case KF3DS_CHUNK_MAT_SELFIMAP: case KF3DS_CHUNK_MAT_REFLMAP:
        return 1;
    default:
        return 0;
    }
}

/* The readers' structure: what `id` is inside a `parent`. */
static gkind child_kind(gkind parent, uint16_t id)
{
    switch (parent) {
    case G_ROOT:
        return id == KF3DS_CHUNK_M3D_VERSION ? G_LEAF : id == KF3DS_CHUNK_MDATA ? G_MDATA
             : id == KF3DS_CHUNK_KFDATA ? G_KFDATA : G_NONE;
    case G_MDATA:
        switch (id) {
        case KF3DS_CHUNK_MESH_VERSION: case KF3DS_CHUNK_MASTER_SCALE: return G_LEAF;
        case KF3DS_CHUNK_AMBIENT_LIGHT: return G_COLOR;
        case KF3DS_CHUNK_MAT_ENTRY: return G_MATERIAL;
        case KF3DS_CHUNK_NAMED_OBJECT: return G_NAMED;
        default: return kf3ds__is_setting(id) ? G_SETTING : G_NONE;
        }
    case G_MATERIAL:
        switch (id) {
        case KF3DS_CHUNK_MAT_NAME: case KF3DS_CHUNK_MAT_SELF_ILLUM: case KF3DS_CHUNK_MAT_TWO_SIDE:
        case KF3DS_CHUNK_MAT_DECAL: case KF3DS_CHUNK_MAT_ADDITIVE: case KF3DS_CHUNK_MAT_WIRE:
        case KF3DS_CHUNK_MAT_FACEMAP: case KF3DS_CHUNK_MAT_PHONGSOFT:
        case KF3DS_CHUNK_MAT_WIRE_SIZE: case KF3DS_CHUNK_MAT_SHADING:
            return G_LEAF;
        case KF3DS_CHUNK_MAT_AMBIENT: case KF3DS_CHUNK_MAT_DIFFUSE: case KF3DS_CHUNK_MAT_SPECULAR:
            return G_COLOR;
        case KF3DS_CHUNK_MAT_SHININESS: case KF3DS_CHUNK_MAT_SHIN2PCT:
        case KF3DS_CHUNK_MAT_TRANSPARENCY: case KF3DS_CHUNK_MAT_SELF_ILPCT:
            return G_PERCENT;
        default:
            return is_map(id) ? G_MAP : G_NONE;
        }
    case G_MAP:
        switch (id) {
        case KF3DS_CHUNK_INT_PERCENTAGE: case KF3DS_CHUNK_FLOAT_PERCENTAGE:
        case KF3DS_CHUNK_MAT_MAPNAME: case KF3DS_CHUNK_MAT_MAP_TILING:
        case KF3DS_CHUNK_MAT_MAP_TEXBLUR: case KF3DS_CHUNK_MAT_MAP_USCALE:
        case KF3DS_CHUNK_MAT_MAP_VSCALE: case KF3DS_CHUNK_MAT_MAP_UOFFSET:
        case KF3DS_CHUNK_MAT_MAP_VOFFSET: case KF3DS_CHUNK_MAT_MAP_ANG:
            return G_LEAF;
        default:
            return G_NONE;
        }
    case G_COLOR:
        return is_color_leaf(id) ? G_LEAF : G_NONE;
    case G_PERCENT:
        return is_percent_leaf(id) ? G_LEAF : G_NONE;
    case G_NAMED:
        return id == KF3DS_CHUNK_OBJ_HIDDEN ? G_LEAF : id == KF3DS_CHUNK_N_TRI_OBJECT ? G_MESH
             : id == KF3DS_CHUNK_N_DIRECT_LIGHT ? G_LIGHT
             : id == KF3DS_CHUNK_N_CAMERA ? G_CAMERA : G_NONE;
    case G_MESH:
        switch (id) {
        case KF3DS_CHUNK_POINT_ARRAY: case KF3DS_CHUNK_POINT_FLAG_ARRAY: case KF3DS_CHUNK_TEX_VERTS:
        case KF3DS_CHUNK_MESH_MATRIX: case KF3DS_CHUNK_MESH_COLOR:
            return G_LEAF;
        case KF3DS_CHUNK_FACE_ARRAY:
            return G_FACES;
        default:
            return G_NONE;
        }
    case G_FACES:
        return id == KF3DS_CHUNK_MSH_MAT_GROUP || id == KF3DS_CHUNK_SMOOTH_GROUP ? G_LEAF : G_NONE;
    case G_LIGHT:
        switch (id) {
        case KF3DS_CHUNK_DL_OFF: case KF3DS_CHUNK_DL_ATTENUATE: case KF3DS_CHUNK_DL_INNER_RANGE:
        case KF3DS_CHUNK_DL_OUTER_RANGE: case KF3DS_CHUNK_DL_MULTIPLIER:
            return G_LEAF;
        case KF3DS_CHUNK_DL_SPOTLIGHT:
            return G_SPOT;
        default:
            return is_color_leaf(id) ? G_LEAF : G_NONE;
        }
    case G_SPOT:
        switch (id) {
        case KF3DS_CHUNK_DL_SPOT_ROLL: case KF3DS_CHUNK_DL_SHADOWED: case KF3DS_CHUNK_DL_SEE_CONE:
        case KF3DS_CHUNK_DL_SPOT_RECTANGULAR: case KF3DS_CHUNK_DL_SPOT_OVERSHOOT:
            return G_LEAF;
        default:
            return G_NONE;
        }
    case G_CAMERA:
        return id == KF3DS_CHUNK_CAM_SEE_CONE || id == KF3DS_CHUNK_CAM_RANGES ? G_LEAF : G_NONE;
    case G_KFDATA:
        if (id == KF3DS_CHUNK_KFHDR || id == KF3DS_CHUNK_KFSEG || id == KF3DS_CHUNK_KFCURTIME)
            return G_LEAF;
        return is_node_tag(id) ? G_NODE : G_NONE;
    case G_NODE:
        if (id == KF3DS_CHUNK_NODE_ID || id == KF3DS_CHUNK_NODE_HDR ||
            id == KF3DS_CHUNK_INSTANCE_NAME || id == KF3DS_CHUNK_PRESCALE ||
            id == KF3DS_CHUNK_PIVOT || id == KF3DS_CHUNK_BOUNDBOX ||
            id == KF3DS_CHUNK_MORPH_SMOOTH ||
            (id >= KF3DS_CHUNK_POS_TRACK_TAG && id <= KF3DS_CHUNK_HIDE_TRACK_TAG))
            return G_LEAF;
        return G_NONE;
    default:
        return G_NONE;
    }
}

/* Sub-chunks that stand for one value each: of two, the later one's value is
 * the scene's. (Objects, groups, OBJ_HIDDEN and the colour and percentage
 * leaves, which have rules of their own, repeat.) */
static int is_single(gkind parent, uint16_t id, gkind kind)
{
    if (kind != G_LEAF && kind != G_COLOR && kind != G_PERCENT && kind != G_MAP &&
        kind != G_FACES && kind != G_SPOT)
        return 0;
    if (parent == G_COLOR || parent == G_PERCENT)
        return 0;
    if (parent == G_LIGHT && is_color_leaf(id))
        return 0;
    return id != KF3DS_CHUNK_MSH_MAT_GROUP && id != KF3DS_CHUNK_OBJ_HIDDEN;
}

typedef struct recorder {
    kf3ds__arena *arena;
    kf3ds__layout_chunk *entries;        /* NULL in the counting walk */
    uint32_t n;
    uint32_t materials, meshes, lights, cameras, nodes;
    uint32_t max_nodes;
} recorder;

/* Bytes before the sub-chunks of a container with data of its own; -1 when
 * that data is cut short (the loader then reads no sub-chunks). */
static long payload_prefix(gkind kind, const kf3ds_reader *body)
{
    size_t left = kf3ds_reader_left(body);
    const unsigned char *p = body->data + body->pos;
    switch (kind) {
    case G_NAMED: {
        const unsigned char *z = left ? (const unsigned char *)memchr(p, 0, left) : NULL;
        return z ? (long)(z - p) + 1 : (long)left;
    }
    case G_FACES: {
        size_t n;
        if (left < 2)
            return (long)left;
        n = (size_t)(p[0] | (p[1] << 8));
        if (n > (left - 2) / 8)
            n = (left - 2) / 8;
        return (long)(2 + 8 * n);
    }
    case G_LIGHT: return left >= 12 ? 12 : -1;
    case G_SPOT: return left >= 20 ? 20 : -1;
    case G_CAMERA: return left >= 32 ? 32 : -1;
    default: return 0;
    }
}

/* An entry for chunk `c` whose payload `b` is data[offset, offset + size). */
static uint32_t add_entry(recorder *r, const kf3ds_chunk *c, const kf3ds_reader *b, int depth)
{
    uint32_t i = r->n++;
    if (r->entries) {
        kf3ds__layout_chunk *e = &r->entries[i];
        memset(e, 0, sizeof *e);
        e->id = c->id;
        e->depth = (uint8_t)depth;
        e->end = i + 1;
        e->offset = (uint32_t)b->pos;
        e->size = (uint32_t)kf3ds_reader_left(b);
    }
    return i;
}

/* Copies what verbatim writing needs out of the input, which is not kept:
 * the payload of every outermost unknown or shadowed chunk, the name of
 * every NAMED_OBJECT. */
static void keep_bytes(recorder *r, const unsigned char *data, uint32_t from, uint32_t to)
{
    uint32_t i = from;
    while (i < to) {
        kf3ds__layout_chunk *e = &r->entries[i];
        uint32_t n = e->kind != KF3DS__LAY_SCENE ? e->size
                   : e->id == KF3DS_CHUNK_NAMED_OBJECT ? e->reserved[0] : 0;
        if (n || e->kind != KF3DS__LAY_SCENE) {
            unsigned char *copy = (unsigned char *)kf3ds__arena_alloc_raw(r->arena, n ? n : 1, 1);
            if (copy && n)
                memcpy(copy, data + e->offset, n);
            e->bytes = copy;
            e->size = n;
        }
        if (e->kind != KF3DS__LAY_SCENE) {
            i = e->end; /* its sub-chunks are in the bytes */
        } else {
            i++;
        }
    }
}

static size_t leaf_size(uint16_t id)
{
    return id == KF3DS_CHUNK_COLOR_24 || id == KF3DS_CHUNK_LIN_COLOR_24 ? 3
         : id == KF3DS_CHUNK_INT_PERCENTAGE ? 2 : id == KF3DS_CHUNK_FLOAT_PERCENTAGE ? 4 : 12;
}

/* Of a container's colour or percentage leaves (entries first..last), the
 * one the loader took stays the scene's, the others are shadowed: a linear
 * colour wins over a gamma one, else the last; a leaf cut short counts only
 * where the loader reads it anyway (`short_ok`: a light's colour, a map's
 * strength). */
static void pick_leaf(recorder *r, uint32_t first, uint32_t end, gkind parent, int short_ok)
{
    uint32_t i, pick = end;
    int linear = 0;
    if (!r->entries)
        return;
    for (i = first; i < end; i = r->entries[i].end) {
        kf3ds__layout_chunk *e = &r->entries[i];
        int leaf = parent == G_COLOR || parent == G_LIGHT ? is_color_leaf(e->id)
                                                          : is_percent_leaf(e->id);
        int lin = e->id == KF3DS_CHUNK_LIN_COLOR_24 || e->id == KF3DS_CHUNK_LIN_COLOR_F;
        if (!leaf || e->kind != KF3DS__LAY_SCENE)
            continue;
        if (!short_ok && e->size < leaf_size(e->id))
            continue;
        if (linear && !lin)
            continue;
        pick = i;
        linear |= lin;
    }
    for (i = first; i < end; i = r->entries[i].end) {
        kf3ds__layout_chunk *e = &r->entries[i];
        int leaf = parent == G_COLOR || parent == G_LIGHT ? is_color_leaf(e->id)
                                                          : is_percent_leaf(e->id);
        if (leaf && i != pick && e->kind == KF3DS__LAY_SCENE)
            e->kind = e->size >= leaf_size(e->id) ? KF3DS__LAY_ALTERNATE : KF3DS__LAY_SHADOWED;
    }
}

static void walk(recorder *r, kf3ds_reader body, gkind kind, int depth);

/* Whether entry i, of kind `kind`, gives the scene its value, so that an
 * earlier chunk of its id is replaced: a colour or percentage container only
 * with the leaf the loader takes (without one, the earlier value stays). */
static int gives_value(const recorder *r, uint32_t i, gkind kind)
{
    uint32_t j;
    if (kind != G_COLOR && kind != G_PERCENT)
        return 1;
    for (j = i + 1; j < r->entries[i].end; j = r->entries[j].end)
        if (r->entries[j].kind == KF3DS__LAY_SCENE)
            return 1;
    return 0;
}

/* Containers the loader skips but other readers descend into, with the bytes
 * of their own data before the sub-chunks; -1 for every other id. */
static long foreign_container_prefix(uint16_t id)
{
    switch (id) {
    case KF3DS_CHUNK_SOLID_BGND: case KF3DS_CHUNK_MAT_SHIN3PCT: case KF3DS_CHUNK_MAT_XPFALL:
    case KF3DS_CHUNK_MAT_REFBLUR: case KF3DS_CHUNK_MAT_TEXMASK: case KF3DS_CHUNK_MAT_TEX2MASK:
    case KF3DS_CHUNK_MAT_OPACMASK: case KF3DS_CHUNK_MAT_BUMPMASK: case KF3DS_CHUNK_MAT_SHINMASK:
    case KF3DS_CHUNK_MAT_SPECMASK: case KF3DS_CHUNK_MAT_SELFIMASK: case KF3DS_CHUNK_MAT_REFLMASK:
        return 0;
    case KF3DS_CHUNK_V_GRADIENT:
        return 4;
    case KF3DS_CHUNK_FOG: case KF3DS_CHUNK_DISTANCE_CUE: case KF3DS_CHUNK_LAYER_FOG:
        return 16;
    /* the display settings lib3ds decodes (docs/writer.md, "kf3ds rewrite"):
       a viewport layout's seven words (style, active view, swap flags), then
       its VIEWPORT_SIZE and VIEWPORT_DATA chunks; a default view's VIEW_*
       chunks. lib3ds loops for ever on a sub-chunk of length 0 there. */
    case KF3DS_CHUNK_VIEWPORT_LAYOUT:
        return 14;
    case KF3DS_CHUNK_DEFAULT_VIEW:
        return 0;
    default:
        return -1;
    }
}

/* Whether a skipped chunk other readers descend into has sound sub-chunks:
 * every length at least 6 and within the chunk, no stray bytes. A chunk that
 * is not sound is kept verbatim only when saving lossless. */
static int foreign_chunk_sound(uint16_t id, kf3ds_reader b)
{
    long prefix = foreign_container_prefix(id);
    kf3ds_chunk c;
    kf3ds_chunk_result res;
    if (prefix < 0)
        return 1;
    if (kf3ds_reader_left(&b) < (size_t)prefix)
        return 0;
    b.pos += (size_t)prefix;
    while ((res = kf3ds_chunk_next(&b, &c, NULL)) == KF3DS_NEXT_OK)
        ;
    return res == KF3DS_NEXT_NONE && kf3ds_reader_left(&b) == 0;
}

/* Whether a background or atmosphere chunk is well formed: a bitmap name
 * with its terminator, the others' data whole and their sub-chunks sound. */
static int setting_sound(uint16_t id, kf3ds_reader b)
{
    size_t left = kf3ds_reader_left(&b);
    if (id == KF3DS_CHUNK_BIT_MAP)
        return left && memchr(b.data + b.pos, 0, left) != NULL;
    return foreign_chunk_sound(id, b);
}

/* One sub-chunk `c` (payload `b`) of a container of kind `parent`. */
static void record_child(recorder *r, const kf3ds_chunk *c, kf3ds_reader b, gkind parent,
                         int depth)
{
    gkind kind = child_kind(parent, c->id);
    uint32_t i = add_entry(r, c, &b, depth);
    if (kind == G_NODE && r->nodes >= r->max_nodes) {
        if (r->entries) /* beyond the node limit: not in the scene */
            r->entries[i].kind = KF3DS__LAY_SHADOWED;
        return;
    }
    if (kind == G_NONE) {
        if (r->entries && !foreign_chunk_sound(c->id, b)) {
            r->entries[i].kind = KF3DS__LAY_SHADOWED;
            r->entries[i].reserved[1] = 1; /* reported by the loader (kf3ds__layout_damaged) */
        } else if (r->entries) {
            r->entries[i].kind = KF3DS__LAY_UNKNOWN;
        }
        return;
    }
    if (kind == G_SETTING) { /* kept whole: saving decides how to write the settings */
        if (r->entries) {
            r->entries[i].kind = KF3DS__LAY_SETTING;
            r->entries[i].reserved[0] = (uint32_t)setting_sound(c->id, b);
        }
        return;
    }
    switch (kind) {
    case G_MATERIAL: r->materials++; break;
    case G_MESH: r->meshes++; break;
    case G_LIGHT: r->lights++; break;
    case G_CAMERA: r->cameras++; break;
    case G_NODE: r->nodes++; break;
    default: break;
    }
    if (kind == G_LEAF) {
        if (r->entries && c->id >= KF3DS_CHUNK_POS_TRACK_TAG &&
            c->id <= KF3DS_CHUNK_HIDE_TRACK_TAG) {
            kf3ds_reader t = b;
            kf3ds_read_u16(&t);
            r->entries[i].reserved[0] = kf3ds_read_u32(&t);
            r->entries[i].reserved[1] = kf3ds_read_u32(&t);
        }
        return;
    }
    {
        long prefix = payload_prefix(kind, &b);
        if (kind == G_NAMED && r->entries) /* the name, for a NAMED_OBJECT holding no object */
            r->entries[i].reserved[0] = (uint32_t)prefix;
        if (prefix >= 0) {
            b.pos += (size_t)prefix;
            walk(r, b, kind, depth + 1);
        }
    }
    if (r->entries)
        r->entries[i].end = r->n;
}

/* The sub-chunks of a container, then which of its single-valued ones the
 * scene holds (the last of each id) and which colour or percentage leaf. */
static void walk(recorder *r, kf3ds_reader body, gkind kind, int depth)
{
    uint32_t first = r->n, i, j;
    int pass;
    kf3ds_chunk c;
    kf3ds_reader b;
    kf3ds_chunk_result res;
    while ((res = kf3ds_chunk_next(&body, &c, &b)) == KF3DS_NEXT_OK || res == KF3DS_NEXT_CLAMPED)
        record_child(r, &c, b, kind, depth);
    if (!r->entries)
        return;
    /* pass 0: a single is shadowed by a later one that gives a value; pass 1:
       one that gives none (a colour container without a leaf the loader
       takes) by any other that does, or by any later one, so that exactly one
       of each id stays the scene's and a repaired save, which gives that one
       the scene's value, is a fixed point (docs/writer.md, "kf3ds rewrite") */
    for (pass = 0; pass < 2; pass++) {
        for (i = first; i < r->n; i = r->entries[i].end) {
            kf3ds__layout_chunk *e = &r->entries[i];
            gkind ck = child_kind(kind, e->id);
            if (e->kind != KF3DS__LAY_SCENE || !is_single(kind, e->id, ck) ||
                (pass == 1 && gives_value(r, i, ck)))
                continue;
            for (j = pass == 0 ? e->end : first; j < r->n; j = r->entries[j].end) {
                const kf3ds__layout_chunk *f = &r->entries[j];
                int same = f->id == e->id ||
                           (kind == G_MAP && is_percent_leaf(e->id) && is_percent_leaf(f->id));
                if (j != i && same && f->kind == KF3DS__LAY_SCENE &&
                    (gives_value(r, j, ck) || (pass == 1 && j > i))) {
                    e->kind = KF3DS__LAY_SHADOWED;
                    break;
                }
            }
        }
    }
    if (kind == G_COLOR || kind == G_PERCENT || kind == G_LIGHT)
        pick_leaf(r, first, r->n, kind, kind == G_LIGHT);
}

static int is_section(const kf3ds__layout_chunk *e)
{
    return e->kind == KF3DS__LAY_SCENE &&
           (e->id == KF3DS_CHUNK_MDATA || e->id == KF3DS_CHUNK_KFDATA);
}

/* Singles of the whole scene: of all MDATA (and all KFDATA) chunks, only
 * the last MESH_VERSION, MASTER_SCALE, AMBIENT_LIGHT (KFHDR, KFSEG,
 * KFCURTIME) that gives a value is the scene's; without one, the last (the
 * two passes of walk, across sections). */
static void shadow_across_sections(recorder *r)
{
    uint32_t i, j, k, m;
    int pass;
    if (!r->entries || r->n == 0)
        return;
    for (pass = 0; pass < 2; pass++)
        for (i = 1; i < r->n; i = r->entries[i].end) {
            const kf3ds__layout_chunk *sec = &r->entries[i];
            gkind section = sec->id == KF3DS_CHUNK_MDATA ? G_MDATA : G_KFDATA;
            if (!is_section(sec))
                continue;
            for (j = i + 1; j < sec->end; j = r->entries[j].end) {
                kf3ds__layout_chunk *e = &r->entries[j];
                gkind ck = child_kind(section, e->id);
                if (e->kind != KF3DS__LAY_SCENE || e->id == KF3DS_CHUNK_MAT_ENTRY ||
                    e->id == KF3DS_CHUNK_NAMED_OBJECT || is_node_tag(e->id) ||
                    (pass == 1 && gives_value(r, j, ck)))
                    continue;
                for (k = pass == 0 ? sec->end : 1; k < r->n && e->kind == KF3DS__LAY_SCENE;
                     k = r->entries[k].end) {
                    const kf3ds__layout_chunk *other = &r->entries[k];
                    if (k == i || other->id != sec->id || !is_section(other))
                        continue;
                    for (m = k + 1; m < other->end; m = r->entries[m].end)
                        if (r->entries[m].id == e->id && r->entries[m].kind == KF3DS__LAY_SCENE &&
                            (gives_value(r, m, ck) || (pass == 1 && k > i)))
                            e->kind = KF3DS__LAY_SHADOWED;
                }
            }
        }
}

const kf3ds__layout_chunk *kf3ds__layout_record(kf3ds__arena *arena, const void *data, size_t size,
                                       uint32_t max_nodes, kf3ds__source *src)
{
    kf3ds_reader top = kf3ds_reader_make(data, size), body;
    kf3ds_chunk root;
    int pass;
    recorder r;
    kf3ds_chunk_result res = kf3ds_chunk_next(&top, &root, &body);
    if (res != KF3DS_NEXT_OK && res != KF3DS_NEXT_CLAMPED)
        return NULL;
    memset(&r, 0, sizeof r);
    for (pass = 0; pass < 2; pass++) {
        kf3ds_chunk c = root;
        uint32_t at;
        r.n = 0;
        r.materials = r.meshes = r.lights = r.cameras = r.nodes = 0;
        r.arena = arena;
        r.max_nodes = max_nodes;
        c.id = root.id == KF3DS_CHUNK_MDATA ? KF3DS_CHUNK_M3DMAGIC : root.id;
        at = add_entry(&r, &c, &body, 0);
        if (root.id == KF3DS_CHUNK_MDATA) { /* a bare editor section: under M3DMAGIC */
            uint32_t m;
            c.id = KF3DS_CHUNK_MDATA;
            m = add_entry(&r, &c, &body, 1);
            walk(&r, body, G_MDATA, 2);
            if (r.entries)
                r.entries[m].end = r.n;
        } else {
            walk(&r, body, G_ROOT, 1);
        }
        if (r.entries) {
            r.entries[at].end = r.n;
            break;
        }
        r.entries = (kf3ds__layout_chunk *)kf3ds__arena_alloc(arena, r.n, sizeof(kf3ds__layout_chunk));
        if (!r.entries)
            return NULL;
    }
    shadow_across_sections(&r);
    keep_bytes(&r, (const unsigned char *)data, 0, r.n);
    src->num_layout = r.n;
    src->num_materials = r.materials;
    src->num_meshes = r.meshes;
    src->num_lights = r.lights;
    src->num_cameras = r.cameras;
    src->num_nodes = r.nodes;
    src->layout = r.entries;
    return r.entries;
}

int kf3ds__layout_damaged(const kf3ds__layout_chunk *e)
{
    return e->kind == KF3DS__LAY_SHADOWED && e->reserved[1] == 1 &&
           foreign_container_prefix(e->id) >= 0;
}
