/* Scene → bytes: kf3ds_save_memory. Every container chunk is written by one
 * function from the scene's values. When the scene keeps its file's layout
 * (source.h), each container's sub-chunks come in the file's order, the
 * chunks the scene does not represent are copied verbatim where they were,
 * and whatever the scene holds that the file had no chunk for is added at the
 * container's end; otherwise the sub-chunks come in kf3ds's own order, the
 * one 3D Studio writes (docs/writer.md). The chunk writer (write_chunk.h)
 * runs twice: measuring, then writing into a buffer of exactly that size. */
#include "write_chunk.h"
#include "diag.h"
#include "arena.h"
#include "kmath.h"
#include "source.h"
#include <string.h>

#define NO_LAY 0xFFFFFFFFu
#define NO_PARENT 0xFFFF

typedef struct save_ctx {
    kf3ds__writer w;
    const kf3ds_scene *s;
    const kf3ds_save_options *o;
    const kf3ds__source *src;
    const kf3ds__layout_chunk *lay;      /* NULL: kf3ds's own order */
    uint32_t next_material, next_mesh, next_camera, next_light, next_node;
    uint32_t last_mdata, last_kfdata; /* the layout's last of each, or NO_LAY */
    int settings_as_loaded;     /* the layout's SETTING chunks are written as they were */
    int settings_done;          /* the scene's settings are written */
} save_ctx;

/* ---- walking the layout ------------------------------------------------- */

static uint32_t first_child(const save_ctx *c, uint32_t at)
{
    return at != NO_LAY && at + 1 < c->lay[at].end ? at + 1 : NO_LAY;
}

static uint32_t next_sibling(const save_ctx *c, uint32_t parent, uint32_t i)
{
    uint32_t n = c->lay[i].end;
    return n < c->lay[parent].end ? n : NO_LAY;
}

static void put_file_chunk(save_ctx *c, const kf3ds__layout_chunk *e)
{
    kf3ds__chunk_begin(&c->w, e->id);
    kf3ds__put_bytes(&c->w, e->bytes, e->size);
    kf3ds__chunk_end(&c->w);
}

static void put_settings(save_ctx *c);

/* A chunk the scene does not represent, as the file had it; or one of the
 * file's background and atmosphere chunks: as it was while the scene's
 * settings are the ones loaded, else (the first of them) the scene's
 * settings. */
static void put_verbatim(save_ctx *c, const kf3ds__layout_chunk *e)
{
    unsigned f = c->o->flags;
    if (e->kind == KF3DS__LAY_SETTING) {
        if (c->settings_as_loaded)
            put_file_chunk(c, e);
        else if (!c->settings_done)
            put_settings(c);
        return;
    }
    if ((f & KF3DS_SAVE_DROP_UNKNOWN) && e->kind != KF3DS__LAY_ALTERNATE)
        return;
    if (e->kind == KF3DS__LAY_SHADOWED && (f & KF3DS_SAVE_REPAIR))
        return;
    put_file_chunk(c, e);
}

/* Writes one sub-chunk of a container: `id` with the file's entry `at`, or
 * NO_LAY when the file had none (then only when the element holds it).
 * `k` counts repeated sub-chunks (material groups, objects) in this container. */
typedef void (*emit_fn)(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k);

/* The role a sub-chunk plays: the colour leaves all stand for the colour
 * (COLOR_F), both percentage forms for the percentage (INT_PERCENTAGE), the
 * node tags for the nodes (OBJECT_NODE_TAG), the background and atmosphere
 * chunks for the settings (BIT_MAP). */
static uint16_t role_of(uint16_t id)
{
    if (kf3ds__is_setting(id))
        return KF3DS_CHUNK_BIT_MAP;
    if (id >= KF3DS_CHUNK_COLOR_F && id <= KF3DS_CHUNK_LIN_COLOR_F)
        return KF3DS_CHUNK_COLOR_F;
    if (id == KF3DS_CHUNK_FLOAT_PERCENTAGE)
        return KF3DS_CHUNK_INT_PERCENTAGE;
    if (id >= KF3DS_CHUNK_AMBIENT_NODE_TAG && id <= KF3DS_CHUNK_SPOTLIGHT_NODE_TAG)
        return KF3DS_CHUNK_OBJECT_NODE_TAG;
    return id;
}

static int role_index(const uint16_t *roles, int num_roles, uint16_t id)
{
    int r;
    uint16_t role = role_of(id);
    for (r = 0; r < num_roles && roles[r] != role; r++)
        ;
    return r < num_roles ? r : -1;
}

/* The sub-chunks of a container: the file's, in its order; when `complete`,
 * each role the file did not have where kf3ds's own order (`roles`) puts it,
 * before the first of the file's chunks that comes after it in that order
 * (other readers expect NODE_HDR before a node's tracks). */
static void write_children(save_ctx *c, const void *el, uint32_t at, const uint16_t *roles,
                           int num_roles, emit_fn emit, int complete)
{
    uint32_t present = 0, done = 0, k = 0, i;
    int r, q;
    for (i = first_child(c, at); i != NO_LAY; i = next_sibling(c, at, i))
        if ((c->lay[i].kind == KF3DS__LAY_SCENE || c->lay[i].kind == KF3DS__LAY_SETTING) &&
            (r = role_index(roles, num_roles, c->lay[i].id)) >= 0)
            present |= 1u << r;
    for (i = first_child(c, at); i != NO_LAY; i = next_sibling(c, at, i)) {
        const kf3ds__layout_chunk *e = &c->lay[i];
        if (e->kind != KF3DS__LAY_SCENE) {
            put_verbatim(c, e);
            continue;
        }
        r = role_index(roles, num_roles, e->id);
        for (q = 0; complete && q < r; q++)
            if (!((present | done) & (1u << q))) {
                done |= 1u << q;
                emit(c, el, roles[q], NO_LAY, &k);
            }
        emit(c, el, e->id, i, &k);
    }
    if (!complete)
        return;
    for (r = 0; r < num_roles; r++)
        if (!((present | done) & (1u << r)))
            emit(c, el, roles[r], NO_LAY, &k);
}

/* ---- values in their chunk forms ------------------------------------------ */

static uint8_t to_u8(float v)
{
    if (!(v > 0.0f))
        return 0;
    if (v >= 1.0f)
        return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

/* Bit for bit (a -0 is not a 0). */
static int same_bits(const float *a, const float *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t x, y;
        memcpy(&x, &a[i], sizeof x);
        memcpy(&y, &b[i], sizeof y);
        if (x != y)
            return 0;
    }
    return 1;
}

/* The form that gives the value back exactly: 24-bit when every component
 * is a byte / 255 (as the loader divides), else floats. */
static uint16_t color_form(const float rgb[3], int linear)
{
    int i;
    for (i = 0; i < 3; i++) {
        float back = to_u8(rgb[i]) / 255.0f;
        if (!same_bits(&back, &rgb[i], 1))
            return linear ? KF3DS_CHUNK_LIN_COLOR_F : KF3DS_CHUNK_COLOR_F;
    }
    return linear ? KF3DS_CHUNK_LIN_COLOR_24 : KF3DS_CHUNK_COLOR_24;
}

static void put_color_leaf(save_ctx *c, uint16_t form, const float rgb[3])
{
    int i;
    kf3ds__chunk_begin(&c->w, form);
    if (form == KF3DS_CHUNK_COLOR_24 || form == KF3DS_CHUNK_LIN_COLOR_24)
        for (i = 0; i < 3; i++)
            kf3ds__put_u8(&c->w, to_u8(rgb[i]));
    else
        kf3ds__put_f32s(&c->w, rgb, 3);
    kf3ds__chunk_end(&c->w);
}

static int is_color_leaf(uint16_t id)
{
    return id >= KF3DS_CHUNK_COLOR_F && id <= KF3DS_CHUNK_LIN_COLOR_F;
}


/* Whether the container at `at` has a leaf the loader took its value from
 * (is_leaf tells the container's leaf ids). */
static int has_scene_leaf(const save_ctx *c, uint32_t at, int (*is_leaf)(uint16_t))
{
    uint32_t i;
    for (i = first_child(c, at); i != NO_LAY; i = next_sibling(c, at, i))
        if (is_leaf(c->lay[i].id) && c->lay[i].kind == KF3DS__LAY_SCENE)
            return 1;
    return 0;
}

/* Whether a repaired save gives the container at `at` a leaf of its own
 * first and copies only its known leaves: when the file's container held
 * none the loader could take (an unknown chunk in its place, say). Other
 * readers take a colour or percentage container's first sub-chunk as its
 * value (assimp reads past the container when that chunk is not one it
 * knows), so a repaired file holds the scene's value there
 * (docs/writer.md, "kf3ds rewrite"). */
static int repair_leaves(const save_ctx *c, uint32_t at, int (*is_leaf)(uint16_t))
{
    return (c->o->flags & KF3DS_SAVE_REPAIR) && !has_scene_leaf(c, at, is_leaf);
}

/* The colour leaves of a container at `at`: the one the loader took gets the
 * scene's value in its own form, the others are copied; without a file
 * entry, or repairing one without such a leaf, one leaf in the exact form. */
static void put_color_leaves(save_ctx *c, uint32_t at, const float rgb[3])
{
    uint32_t i;
    int repair;
    if (at == NO_LAY) {
        put_color_leaf(c, color_form(rgb, 0), rgb);
        return;
    }
    repair = repair_leaves(c, at, is_color_leaf);
    if (repair)
        put_color_leaf(c, color_form(rgb, 0), rgb);
    for (i = first_child(c, at); i != NO_LAY; i = next_sibling(c, at, i)) {
        const kf3ds__layout_chunk *e = &c->lay[i];
        if (is_color_leaf(e->id) && e->kind == KF3DS__LAY_SCENE)
            put_color_leaf(c, e->id, rgb);
        else if (!repair || is_color_leaf(e->id))
            put_verbatim(c, e);
    }
}

static void put_color_chunk(save_ctx *c, uint16_t id, uint32_t at, const float rgb[3])
{
    kf3ds__chunk_begin(&c->w, id);
    put_color_leaves(c, at, rgb);
    kf3ds__chunk_end(&c->w);
}

static int16_t to_percent(float v)
{
    float p = v * 100.0f;
    if (!(p > -32768.0f))
        return p < 0.0f ? (int16_t)-32768 : 0;
    if (p > 32767.0f)
        return 32767;
    return (int16_t)(p + (p >= 0.0f ? 0.5f : -0.5f));
}

static void put_percent_leaf(save_ctx *c, uint16_t form, float v)
{
    kf3ds__chunk_begin(&c->w, form);
    if (form == KF3DS_CHUNK_INT_PERCENTAGE)
        kf3ds__put_i16(&c->w, to_percent(v));
    else
        kf3ds__put_f32(&c->w, v);
    kf3ds__chunk_end(&c->w);
}

static int is_percent_leaf(uint16_t id)
{
    return id == KF3DS_CHUNK_INT_PERCENTAGE || id == KF3DS_CHUNK_FLOAT_PERCENTAGE;
}

/* INT_PERCENTAGE when it gives the value back exactly, else FLOAT_PERCENTAGE. */
static uint16_t percent_form(float v)
{
    float back = to_percent(v) / 100.0f;
    return same_bits(&back, &v, 1) ? KF3DS_CHUNK_INT_PERCENTAGE : KF3DS_CHUNK_FLOAT_PERCENTAGE;
}

/* As put_color_leaves, for a percentage. */
static void put_percent_leaves(save_ctx *c, uint32_t at, float v)
{
    uint32_t i;
    int repair;
    if (at == NO_LAY) {
        put_percent_leaf(c, percent_form(v), v);
        return;
    }
    repair = repair_leaves(c, at, is_percent_leaf);
    if (repair)
        put_percent_leaf(c, percent_form(v), v);
    for (i = first_child(c, at); i != NO_LAY; i = next_sibling(c, at, i)) {
        const kf3ds__layout_chunk *e = &c->lay[i];
        if (is_percent_leaf(e->id) && e->kind == KF3DS__LAY_SCENE)
            put_percent_leaf(c, e->id, v);
        else if (!repair || is_percent_leaf(e->id))
            put_verbatim(c, e);
    }
}

static void put_percent_chunk(save_ctx *c, uint16_t id, uint32_t at, float v)
{
    kf3ds__chunk_begin(&c->w, id);
    put_percent_leaves(c, at, v);
    kf3ds__chunk_end(&c->w);
}

static void put_f32_chunk(save_ctx *c, uint16_t id, float v)
{
    kf3ds__chunk_begin(&c->w, id);
    kf3ds__put_f32(&c->w, v);
    kf3ds__chunk_end(&c->w);
}

static void put_f32s_chunk(save_ctx *c, uint16_t id, const float *v, size_t n)
{
    kf3ds__chunk_begin(&c->w, id);
    kf3ds__put_f32s(&c->w, v, n);
    kf3ds__chunk_end(&c->w);
}

static void put_u16_chunk(save_ctx *c, uint16_t id, uint16_t v)
{
    kf3ds__chunk_begin(&c->w, id);
    kf3ds__put_u16(&c->w, v);
    kf3ds__chunk_end(&c->w);
}

static void put_u32_chunk(save_ctx *c, uint16_t id, uint32_t v)
{
    kf3ds__chunk_begin(&c->w, id);
    kf3ds__put_u32(&c->w, v);
    kf3ds__chunk_end(&c->w);
}

static void put_cstr_chunk(save_ctx *c, uint16_t id, const char *s)
{
    kf3ds__chunk_begin(&c->w, id);
    kf3ds__put_cstr(&c->w, s);
    kf3ds__chunk_end(&c->w);
}

static void put_flag_chunk(save_ctx *c, uint16_t id, int set)
{
    if (!set)
        return;
    kf3ds__chunk_begin(&c->w, id);
    kf3ds__chunk_end(&c->w);
}

static int nonzero(const float *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] != 0.0f)
            return 1;
    return 0;
}

/* A value chunk is written when the file had it, or when the scene holds
 * something other than what its absence means. */
#define WANTED(at, held) ((at) != NO_LAY || (held))

/* Whether a section `section` (MDATA or KFDATA) other than the last one
 * holds the scene's chunk `id`: then the last section, which adds what the
 * file lacks, does not add a second one (layout.c: the scene's value of a
 * single comes from one chunk of the whole file). */
static int held_in_earlier_section(const save_ctx *c, uint16_t section, uint16_t id)
{
    uint32_t i, j, root = c->lay ? 0 : NO_LAY;
    for (i = first_child(c, root); i != NO_LAY; i = next_sibling(c, root, i)) {
        if (c->lay[i].id != section || c->lay[i].kind != KF3DS__LAY_SCENE)
            continue;
        for (j = first_child(c, i); j != NO_LAY; j = next_sibling(c, i, j))
            if (c->lay[j].id == id && c->lay[j].kind == KF3DS__LAY_SCENE)
                return 1;
    }
    return 0;
}

/* A scene-wide single: written where the file had it, else (at == NO_LAY)
 * when the scene holds a value no earlier section gives. */
#define SINGLE_WANTED(c, at, section, id, held) \
    ((at) != NO_LAY || ((held) && !held_in_earlier_section(c, section, id)))

/* ---- materials ------------------------------------------------------------ */

static const uint16_t map_roles[] = {
    KF3DS_CHUNK_INT_PERCENTAGE, KF3DS_CHUNK_MAT_MAPNAME, KF3DS_CHUNK_MAT_MAP_TILING,
    KF3DS_CHUNK_MAT_MAP_TEXBLUR, KF3DS_CHUNK_MAT_MAP_USCALE, KF3DS_CHUNK_MAT_MAP_VSCALE,
    KF3DS_CHUNK_MAT_MAP_UOFFSET, KF3DS_CHUNK_MAT_MAP_VOFFSET, KF3DS_CHUNK_MAT_MAP_ANG
};

static void emit_map_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_texture_map *m = (const kf3ds_texture_map *)el;
    (void)k;
    switch (id) {
    case KF3DS_CHUNK_INT_PERCENTAGE: case KF3DS_CHUNK_FLOAT_PERCENTAGE:
        put_percent_leaf(c, at != NO_LAY ? id : percent_form(m->strength), m->strength);
        break;
    case KF3DS_CHUNK_MAT_MAPNAME: put_cstr_chunk(c, id, m->file); break;
    case KF3DS_CHUNK_MAT_MAP_TILING:
        if (WANTED(at, m->tiling != 0))
            put_u16_chunk(c, id, m->tiling);
        break;
    case KF3DS_CHUNK_MAT_MAP_TEXBLUR:
        if (WANTED(at, m->blur != 0.0f))
            put_f32_chunk(c, id, m->blur);
        break;
    case KF3DS_CHUNK_MAT_MAP_USCALE:
        if (WANTED(at, m->u_scale != 1.0f))
            put_f32_chunk(c, id, m->u_scale);
        break;
    case KF3DS_CHUNK_MAT_MAP_VSCALE:
        if (WANTED(at, m->v_scale != 1.0f))
            put_f32_chunk(c, id, m->v_scale);
        break;
    case KF3DS_CHUNK_MAT_MAP_UOFFSET:
        if (WANTED(at, m->u_offset != 0.0f))
            put_f32_chunk(c, id, m->u_offset);
        break;
    case KF3DS_CHUNK_MAT_MAP_VOFFSET:
        if (WANTED(at, m->v_offset != 0.0f))
            put_f32_chunk(c, id, m->v_offset);
        break;
    case KF3DS_CHUNK_MAT_MAP_ANG:
        if (WANTED(at, m->rotation != 0.0f))
            put_f32_chunk(c, id, m->rotation);
        break;
    default:
        break;
    }
}

static void put_map(save_ctx *c, uint16_t id, uint32_t at, const kf3ds_texture_map *m)
{
    if (!WANTED(at, m->file && m->file[0]))
        return;
    kf3ds__chunk_begin(&c->w, id);
    write_children(c, m, at, map_roles, (int)(sizeof map_roles / sizeof map_roles[0]),
                   emit_map_child, 1);
    kf3ds__chunk_end(&c->w);
}

static const uint16_t material_roles[] = {
    KF3DS_CHUNK_MAT_NAME, KF3DS_CHUNK_MAT_AMBIENT, KF3DS_CHUNK_MAT_DIFFUSE,
    KF3DS_CHUNK_MAT_SPECULAR, KF3DS_CHUNK_MAT_SHININESS, KF3DS_CHUNK_MAT_SHIN2PCT,
    KF3DS_CHUNK_MAT_TRANSPARENCY, KF3DS_CHUNK_MAT_SELF_ILPCT, KF3DS_CHUNK_MAT_SELF_ILLUM,
    KF3DS_CHUNK_MAT_TWO_SIDE, KF3DS_CHUNK_MAT_DECAL, KF3DS_CHUNK_MAT_ADDITIVE,
    KF3DS_CHUNK_MAT_WIRE, KF3DS_CHUNK_MAT_FACEMAP, KF3DS_CHUNK_MAT_PHONGSOFT,
    KF3DS_CHUNK_MAT_WIRE_SIZE, KF3DS_CHUNK_MAT_SHADING, KF3DS_CHUNK_MAT_TEXMAP,
    KF3DS_CHUNK_MAT_TEX2MAP, KF3DS_CHUNK_MAT_OPACMAP, KF3DS_CHUNK_MAT_BUMPMAP,
    KF3DS_CHUNK_MAT_SPECMAP, KF3DS_CHUNK_MAT_SHINMAP, KF3DS_CHUNK_MAT_SELFIMAP,
    KF3DS_CHUNK_MAT_REFLMAP
};

static void emit_material_child(save_ctx *c, const void *el, uint16_t id, uint32_t at,
                                uint32_t *k)
{
    const kf3ds_material *m = (const kf3ds_material *)el;
    int canonical = !c->lay;
    (void)k;
    switch (id) {
    case KF3DS_CHUNK_MAT_NAME: put_cstr_chunk(c, id, m->name); break;
    case KF3DS_CHUNK_MAT_AMBIENT:
        if (WANTED(at, canonical || nonzero(m->ambient, 3)))
            put_color_chunk(c, id, at, m->ambient);
        break;
    case KF3DS_CHUNK_MAT_DIFFUSE:
        if (WANTED(at, canonical || nonzero(m->diffuse, 3)))
            put_color_chunk(c, id, at, m->diffuse);
        break;
    case KF3DS_CHUNK_MAT_SPECULAR:
        if (WANTED(at, canonical || nonzero(m->specular, 3)))
            put_color_chunk(c, id, at, m->specular);
        break;
    case KF3DS_CHUNK_MAT_SHININESS:
        if (WANTED(at, m->shininess != 0.0f))
            put_percent_chunk(c, id, at, m->shininess);
        break;
    case KF3DS_CHUNK_MAT_SHIN2PCT:
        if (WANTED(at, m->shin_strength != 0.0f))
            put_percent_chunk(c, id, at, m->shin_strength);
        break;
    case KF3DS_CHUNK_MAT_TRANSPARENCY:
        if (WANTED(at, m->transparency != 0.0f))
            put_percent_chunk(c, id, at, m->transparency);
        break;
    case KF3DS_CHUNK_MAT_SELF_ILPCT:
        if (WANTED(at, m->self_illum != 0.0f))
            put_percent_chunk(c, id, at, m->self_illum);
        break;
    case KF3DS_CHUNK_MAT_SELF_ILLUM: put_flag_chunk(c, id, m->self_illum_flag); break;
    case KF3DS_CHUNK_MAT_TWO_SIDE: put_flag_chunk(c, id, m->two_sided); break;
    case KF3DS_CHUNK_MAT_DECAL: put_flag_chunk(c, id, m->decal); break;
    case KF3DS_CHUNK_MAT_ADDITIVE: put_flag_chunk(c, id, m->additive); break;
    case KF3DS_CHUNK_MAT_WIRE: put_flag_chunk(c, id, m->wire); break;
    case KF3DS_CHUNK_MAT_FACEMAP: put_flag_chunk(c, id, m->face_map); break;
    case KF3DS_CHUNK_MAT_PHONGSOFT: put_flag_chunk(c, id, m->soften); break;
    case KF3DS_CHUNK_MAT_WIRE_SIZE:
        if (WANTED(at, m->wire_size != 0.0f))
            put_f32_chunk(c, id, m->wire_size);
        break;
    case KF3DS_CHUNK_MAT_SHADING:
        if (WANTED(at, m->shading != 0))
            put_u16_chunk(c, id, m->shading);
        break;
    case KF3DS_CHUNK_MAT_TEXMAP: put_map(c, id, at, &m->texture1); break;
    case KF3DS_CHUNK_MAT_TEX2MAP: put_map(c, id, at, &m->texture2); break;
    case KF3DS_CHUNK_MAT_OPACMAP: put_map(c, id, at, &m->opacity); break;
    case KF3DS_CHUNK_MAT_BUMPMAP: put_map(c, id, at, &m->bump); break;
    case KF3DS_CHUNK_MAT_SPECMAP: put_map(c, id, at, &m->specular_map); break;
    case KF3DS_CHUNK_MAT_SHINMAP: put_map(c, id, at, &m->shininess_map); break;
    case KF3DS_CHUNK_MAT_SELFIMAP: put_map(c, id, at, &m->self_illum_map); break;
    case KF3DS_CHUNK_MAT_REFLMAP: put_map(c, id, at, &m->reflection); break;
    default: break;
    }
}

static void put_material(save_ctx *c, uint32_t at)
{
    const kf3ds_material *m;
    if (c->next_material >= c->s->num_materials)
        return;
    m = &c->s->materials[c->next_material++];
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_MAT_ENTRY);
    write_children(c, m, at, material_roles,
                   (int)(sizeof material_roles / sizeof material_roles[0]),
                   emit_material_child, 1);
    kf3ds__chunk_end(&c->w);
}

/* ---- meshes ----------------------------------------------------------------- */

static void put_group(save_ctx *c, const kf3ds_mesh *m, const kf3ds_material_group *g)
{
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_MSH_MAT_GROUP);
    kf3ds__put_cstr(&c->w, g->material_name);
    if (kf3ds__put_count16(&c->w, g->num_faces, KF3DS_CHUNK_MSH_MAT_GROUP,
                           "mesh material group faces of", m->name)) {
        uint32_t i;
        for (i = 0; i < g->num_faces && !c->w.failed; i++)
            kf3ds__put_u16(&c->w, g->faces[i]);
    }
    kf3ds__chunk_end(&c->w);
}

static const uint16_t face_roles[] = { KF3DS_CHUNK_MSH_MAT_GROUP, KF3DS_CHUNK_SMOOTH_GROUP };

static void emit_face_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_mesh *m = (const kf3ds_mesh *)el;
    uint32_t i;
    if (id == KF3DS_CHUNK_MSH_MAT_GROUP) {
        do { /* the file's k-th group, or every group it did not have */
            if (*k < m->num_groups)
                put_group(c, m, &m->groups[*k]);
            (*k)++;
        } while (at == NO_LAY && *k < m->num_groups);
    } else if (id == KF3DS_CHUNK_SMOOTH_GROUP && m->smoothing && m->num_faces) {
        /* (without faces there is nothing to smooth: loading keeps no groups) */
        kf3ds__chunk_begin(&c->w, id);
        for (i = 0; i < m->num_faces && !c->w.failed; i++)
            kf3ds__put_u32(&c->w, m->smoothing[i]);
        kf3ds__chunk_end(&c->w);
    }
}

static void put_faces(save_ctx *c, const kf3ds_mesh *m, uint32_t at)
{
    uint32_t i;
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_FACE_ARRAY);
    if (kf3ds__put_count16(&c->w, m->num_faces, KF3DS_CHUNK_FACE_ARRAY, "mesh faces of", m->name))
        for (i = 0; i < m->num_faces && !c->w.failed; i++) {
            const kf3ds_face *f = &m->faces[i];
            kf3ds__put_u16(&c->w, f->v[0]);
            kf3ds__put_u16(&c->w, f->v[1]);
            kf3ds__put_u16(&c->w, f->v[2]);
            kf3ds__put_u16(&c->w, f->flags);
        }
    write_children(c, m, at, face_roles, 2, emit_face_child, 1);
    kf3ds__chunk_end(&c->w);
}

/* The points as the file stores them: a mirrored mesh's as kept, or, when
 * they were not kept, with the mirror fix undone (it is its own inverse:
 * docs/evaluation.md, "Mesh placement"). */
static void put_points(save_ctx *c, const kf3ds_mesh *m)
{
    uint32_t mesh_index = (uint32_t)(m - c->s->meshes), i;
    const float(*kept)[3] = NULL;
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_POINT_ARRAY);
    if (!kf3ds__put_count16(&c->w, m->num_points, KF3DS_CHUNK_POINT_ARRAY, "mesh points of",
                            m->name))
        return;
    if (c->src && mesh_index < c->src->num_stored_points)
        kept = c->src->stored_points[mesh_index];
    if (kept || !m->mirrored) {
        if (m->num_points)
            kf3ds__put_f32s(&c->w, kept ? &kept[0][0] : &m->points[0][0],
                            (size_t)m->num_points * 3);
    } else {
        kf3ds_mat4 flip, fix;
        kf3ds_mat4_identity(&flip);
        flip.m[0][0] = -1.0f;
        kf3ds_mat4_mul(&m->matrix, &flip, &fix);
        kf3ds_mat4_mul(&fix, &m->inv_matrix, &fix);
        for (i = 0; i < m->num_points && !c->w.failed; i++) {
            float p[3];
            kf3ds_mat4_transform_point(&fix, m->points[i], p);
            kf3ds__put_f32s(&c->w, p, 3);
        }
    }
    kf3ds__chunk_end(&c->w);
}

static const uint16_t mesh_roles[] = {
    KF3DS_CHUNK_POINT_ARRAY, KF3DS_CHUNK_POINT_FLAG_ARRAY, KF3DS_CHUNK_TEX_VERTS,
    KF3DS_CHUNK_MESH_MATRIX, KF3DS_CHUNK_MESH_COLOR, KF3DS_CHUNK_FACE_ARRAY
};

static void emit_mesh_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_mesh *m = (const kf3ds_mesh *)el;
    uint32_t i;
    (void)k;
    switch (id) {
    case KF3DS_CHUNK_POINT_ARRAY:
        if (WANTED(at, m->num_points || !c->lay))
            put_points(c, m);
        break;
    case KF3DS_CHUNK_POINT_FLAG_ARRAY:
        if (!WANTED(at, m->num_point_flags))
            break;
        kf3ds__chunk_begin(&c->w, id);
        if (kf3ds__put_count16(&c->w, m->num_point_flags, id, "mesh point flags of", m->name))
            for (i = 0; i < m->num_point_flags && !c->w.failed; i++)
                kf3ds__put_u16(&c->w, m->point_flags[i]);
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_TEX_VERTS:
        if (!WANTED(at, m->num_texcoords))
            break;
        kf3ds__chunk_begin(&c->w, id);
        if (kf3ds__put_count16(&c->w, m->num_texcoords, id, "mesh texture coordinates of",
                               m->name) && m->num_texcoords)
            kf3ds__put_f32s(&c->w, &m->texcoords[0][0], (size_t)m->num_texcoords * 2);
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_MESH_MATRIX:
        if (!m->has_matrix)
            break;
        kf3ds__chunk_begin(&c->w, id);
        for (i = 0; i < 4; i++) { /* the columns: X, Y, Z axes and origin (docs/format.md) */
            kf3ds__put_f32(&c->w, m->matrix.m[0][i]);
            kf3ds__put_f32(&c->w, m->matrix.m[1][i]);
            kf3ds__put_f32(&c->w, m->matrix.m[2][i]);
        }
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_MESH_COLOR:
        if (!WANTED(at, m->color != 0))
            break;
        kf3ds__chunk_begin(&c->w, id);
        kf3ds__put_u8(&c->w, m->color);
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_FACE_ARRAY:
        if (WANTED(at, m->num_faces || m->num_groups))
            put_faces(c, m, at);
        break;
    default:
        break;
    }
}

/* ---- lights and cameras ------------------------------------------------------ */

static const uint16_t spot_roles[] = {
    KF3DS_CHUNK_DL_SPOT_ROLL, KF3DS_CHUNK_DL_SHADOWED, KF3DS_CHUNK_DL_SEE_CONE,
    KF3DS_CHUNK_DL_SPOT_RECTANGULAR, KF3DS_CHUNK_DL_SPOT_OVERSHOOT
};

static void emit_spot_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_light *l = (const kf3ds_light *)el;
    (void)k;
    switch (id) {
    case KF3DS_CHUNK_DL_SPOT_ROLL:
        if (WANTED(at, l->roll != 0.0f))
            put_f32_chunk(c, id, l->roll);
        break;
    case KF3DS_CHUNK_DL_SHADOWED: put_flag_chunk(c, id, l->shadowed); break;
    case KF3DS_CHUNK_DL_SEE_CONE: put_flag_chunk(c, id, l->see_cone); break;
    case KF3DS_CHUNK_DL_SPOT_RECTANGULAR: put_flag_chunk(c, id, l->rectangular); break;
    case KF3DS_CHUNK_DL_SPOT_OVERSHOOT: put_flag_chunk(c, id, l->overshoot); break;
    default: break;
    }
}

/* The light's colour leaves sit in N_DIRECT_LIGHT itself: the first role. */
static const uint16_t light_roles[] = {
    KF3DS_CHUNK_COLOR_F, KF3DS_CHUNK_DL_OFF, KF3DS_CHUNK_DL_ATTENUATE,
    KF3DS_CHUNK_DL_SPOTLIGHT, KF3DS_CHUNK_DL_INNER_RANGE, KF3DS_CHUNK_DL_OUTER_RANGE,
    KF3DS_CHUNK_DL_MULTIPLIER
};

static void emit_light_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_light *l = (const kf3ds_light *)el;
    (void)k;
    if (is_color_leaf(id)) { /* the file's leaf in its form, or one in the exact form */
        put_color_leaf(c, at != NO_LAY ? id : color_form(l->color, 0), l->color);
        return;
    }
    switch (id) {
    case KF3DS_CHUNK_DL_OFF: put_flag_chunk(c, id, l->off); break;
    case KF3DS_CHUNK_DL_ATTENUATE: put_flag_chunk(c, id, l->attenuate); break;
    case KF3DS_CHUNK_DL_SPOTLIGHT:
        if (!WANTED(at, l->spot))
            break;
        kf3ds__chunk_begin(&c->w, id);
        kf3ds__put_f32s(&c->w, l->target, 3);
        kf3ds__put_f32(&c->w, l->hotspot);
        kf3ds__put_f32(&c->w, l->falloff);
        write_children(c, l, at, spot_roles, (int)(sizeof spot_roles / sizeof spot_roles[0]),
                       emit_spot_child, 1);
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_DL_INNER_RANGE:
        if (WANTED(at, l->inner_range != 0.0f))
            put_f32_chunk(c, id, l->inner_range);
        break;
    case KF3DS_CHUNK_DL_OUTER_RANGE:
        if (WANTED(at, l->outer_range != 0.0f))
            put_f32_chunk(c, id, l->outer_range);
        break;
    case KF3DS_CHUNK_DL_MULTIPLIER:
        if (WANTED(at, l->multiplier != 1.0f))
            put_f32_chunk(c, id, l->multiplier);
        break;
    default:
        break;
    }
}

static const uint16_t camera_roles[] = { KF3DS_CHUNK_CAM_SEE_CONE, KF3DS_CHUNK_CAM_RANGES };

static void emit_camera_child(save_ctx *c, const void *el, uint16_t id, uint32_t at,
                              uint32_t *k)
{
    const kf3ds_camera *cam = (const kf3ds_camera *)el;
    (void)k;
    if (id == KF3DS_CHUNK_CAM_SEE_CONE) {
        put_flag_chunk(c, id, cam->see_cone);
    } else if (id == KF3DS_CHUNK_CAM_RANGES &&
               WANTED(at, cam->near_range != 0.0f || cam->far_range != 0.0f)) {
        kf3ds__chunk_begin(&c->w, id);
        kf3ds__put_f32(&c->w, cam->near_range);
        kf3ds__put_f32(&c->w, cam->far_range);
        kf3ds__chunk_end(&c->w);
    }
}

/* ---- named objects -------------------------------------------------------------- */

static void put_mesh(save_ctx *c, const kf3ds_mesh *m, uint32_t at)
{
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_N_TRI_OBJECT);
    write_children(c, m, at, mesh_roles, (int)(sizeof mesh_roles / sizeof mesh_roles[0]),
                   emit_mesh_child, 1);
    kf3ds__chunk_end(&c->w);
}

static void put_light(save_ctx *c, const kf3ds_light *l, uint32_t at)
{
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_N_DIRECT_LIGHT);
    kf3ds__put_f32s(&c->w, l->position, 3);
    write_children(c, l, at, light_roles, (int)(sizeof light_roles / sizeof light_roles[0]),
                   emit_light_child, 1);
    kf3ds__chunk_end(&c->w);
}

static void put_camera(save_ctx *c, const kf3ds_camera *cam, uint32_t at)
{
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_N_CAMERA);
    kf3ds__put_f32s(&c->w, cam->position, 3);
    kf3ds__put_f32s(&c->w, cam->target, 3);
    kf3ds__put_f32(&c->w, cam->roll);
    kf3ds__put_f32(&c->w, cam->lens);
    write_children(c, cam, at, camera_roles, 2, emit_camera_child, 1);
    kf3ds__chunk_end(&c->w);
}

/* A NAMED_OBJECT of the file: its objects are the next meshes, lights and
 * cameras; its name is theirs (or, holding none, the file's). */
static void put_named_object(save_ctx *c, uint32_t at)
{
    const kf3ds_scene *s = c->s;
    const char *name = NULL;
    uint32_t i, mesh = c->next_mesh, light = c->next_light, camera = c->next_camera;
    for (i = first_child(c, at); i != NO_LAY && !name; i = next_sibling(c, at, i)) {
        uint16_t id = c->lay[i].kind == KF3DS__LAY_SCENE ? c->lay[i].id : 0;
        if (id == KF3DS_CHUNK_N_TRI_OBJECT && mesh < s->num_meshes)
            name = s->meshes[mesh].name;
        else if (id == KF3DS_CHUNK_N_DIRECT_LIGHT && light < s->num_lights)
            name = s->lights[light].name;
        else if (id == KF3DS_CHUNK_N_CAMERA && camera < s->num_cameras)
            name = s->cameras[camera].name;
    }
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_NAMED_OBJECT);
    if (name)
        kf3ds__put_cstr(&c->w, name);
    else
        kf3ds__put_bytes(&c->w, c->lay[at].bytes, c->lay[at].size);
    for (i = first_child(c, at); i != NO_LAY; i = next_sibling(c, at, i)) {
        const kf3ds__layout_chunk *e = &c->lay[i];
        if (e->kind != KF3DS__LAY_SCENE)
            put_verbatim(c, e);
        else if (e->id == KF3DS_CHUNK_OBJ_HIDDEN)
            put_flag_chunk(c, e->id, 1);
        else if (e->id == KF3DS_CHUNK_N_TRI_OBJECT && c->next_mesh < s->num_meshes)
            put_mesh(c, &s->meshes[c->next_mesh++], i);
        else if (e->id == KF3DS_CHUNK_N_DIRECT_LIGHT && c->next_light < s->num_lights)
            put_light(c, &s->lights[c->next_light++], i);
        else if (e->id == KF3DS_CHUNK_N_CAMERA && c->next_camera < s->num_cameras)
            put_camera(c, &s->cameras[c->next_camera++], i);
    }
    kf3ds__chunk_end(&c->w);
}

/* One NAMED_OBJECT per object the layout did not place, in kf3ds's order:
 * meshes, cameras, lights. */
static void put_remaining_objects(save_ctx *c)
{
    const kf3ds_scene *s = c->s;
    while (c->next_mesh < s->num_meshes && !c->w.failed) {
        const kf3ds_mesh *m = &s->meshes[c->next_mesh++];
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_NAMED_OBJECT);
        kf3ds__put_cstr(&c->w, m->name);
        put_flag_chunk(c, KF3DS_CHUNK_OBJ_HIDDEN, m->hidden);
        put_mesh(c, m, NO_LAY);
        kf3ds__chunk_end(&c->w);
    }
    while (c->next_camera < s->num_cameras && !c->w.failed) {
        const kf3ds_camera *cam = &s->cameras[c->next_camera++];
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_NAMED_OBJECT);
        kf3ds__put_cstr(&c->w, cam->name);
        put_flag_chunk(c, KF3DS_CHUNK_OBJ_HIDDEN, cam->hidden);
        put_camera(c, cam, NO_LAY);
        kf3ds__chunk_end(&c->w);
    }
    while (c->next_light < s->num_lights && !c->w.failed) {
        const kf3ds_light *l = &s->lights[c->next_light++];
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_NAMED_OBJECT);
        kf3ds__put_cstr(&c->w, l->name);
        put_flag_chunk(c, KF3DS_CHUNK_OBJ_HIDDEN, l->hidden);
        put_light(c, l, NO_LAY);
        kf3ds__chunk_end(&c->w);
    }
}

/* ---- background and atmosphere (docs/format.md, 'Background and atmosphere') ---- */

/* Any value other than +0: what the absence of a setting's chunk means
 * (a -0 is written too, so that it comes back). */
static int any_bits(const float *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], sizeof u);
        if (u)
            return 1;
    }
    return 0;
}

/* The percentage that the loader's division by 100 turns back into
 * `fraction`: 100 times it, or the nearest float beside that which does. */
static float percent_for(float fraction)
{
    float guess = fraction * 100.0f;
    uint32_t u, bits;
    int k;
    memcpy(&u, &guess, sizeof u);
    for (k = 0; k <= 8; k++) {
        float v, back;
        bits = k & 1 ? u + (uint32_t)(k + 1) / 2 : u - (uint32_t)k / 2;
        memcpy(&v, &bits, sizeof v);
        back = v / 100.0f; /* (rounded to float, as the loader stores it) */
        if (back == fraction)
            return v;
    }
    return guess;
}

static void put_percent_floats(save_ctx *c, float near, float near_fraction, float far,
                               float far_fraction)
{
    kf3ds__put_f32(&c->w, near);
    kf3ds__put_f32(&c->w, percent_for(near_fraction));
    kf3ds__put_f32(&c->w, far);
    kf3ds__put_f32(&c->w, percent_for(far_fraction));
}

/* The scene's background and atmosphere in kf3ds's own order: each setting
 * whose values are not all zero (what its absence means), then the USE_
 * chunk of the background, then the atmosphere, in effect. */
static void put_settings(save_ctx *c)
{
    static const uint16_t use_background[4] = { 0, KF3DS_CHUNK_USE_BIT_MAP,
                                                KF3DS_CHUNK_USE_SOLID_BGND,
                                                KF3DS_CHUNK_USE_V_GRADIENT };
    static const uint16_t use_atmosphere[4] = { 0, KF3DS_CHUNK_USE_FOG,
                                                KF3DS_CHUNK_USE_LAYER_FOG,
                                                KF3DS_CHUNK_USE_DISTANCE_CUE };
    const kf3ds_environment *e = &c->s->environment;
    float v[7];
    int i;
    c->settings_done = 1;
    if (e->bitmap && e->bitmap[0])
        put_cstr_chunk(c, KF3DS_CHUNK_BIT_MAP, e->bitmap);
    if (any_bits(e->solid, 3))
        put_color_chunk(c, KF3DS_CHUNK_SOLID_BGND, NO_LAY, e->solid);
    if (any_bits(&e->gradient_mid, 1) || any_bits(&e->gradient[0][0], 9)) {
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_V_GRADIENT);
        kf3ds__put_f32(&c->w, e->gradient_mid);
        for (i = 0; i < 3; i++) /* top, middle, bottom */
            put_color_leaf(c, color_form(e->gradient[i], 0), e->gradient[i]);
        kf3ds__chunk_end(&c->w);
    }
    if (e->background > KF3DS_BACKGROUND_NONE && e->background <= KF3DS_BACKGROUND_GRADIENT)
        put_flag_chunk(c, use_background[e->background], 1);
    v[0] = e->fog_near;
    v[1] = e->fog_near_density;
    v[2] = e->fog_far;
    v[3] = e->fog_far_density;
    memcpy(v + 4, e->fog_color, sizeof e->fog_color);
    if (any_bits(v, 7) || e->fog_background) {
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_FOG);
        put_percent_floats(c, e->fog_near, e->fog_near_density, e->fog_far, e->fog_far_density);
        put_color_leaf(c, color_form(e->fog_color, 0), e->fog_color);
        put_flag_chunk(c, KF3DS_CHUNK_FOG_BGND, e->fog_background);
        kf3ds__chunk_end(&c->w);
    }
    v[0] = e->layer_bottom;
    v[1] = e->layer_top;
    v[2] = e->layer_density;
    memcpy(v + 3, e->layer_color, sizeof e->layer_color);
    if (any_bits(v, 6) || e->layer_flags) {
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_LAYER_FOG);
        kf3ds__put_f32s(&c->w, v, 3);
        kf3ds__put_u32(&c->w, e->layer_flags);
        put_color_leaf(c, color_form(e->layer_color, 0), e->layer_color);
        kf3ds__chunk_end(&c->w);
    }
    v[0] = e->cue_near;
    v[1] = e->cue_near_dim;
    v[2] = e->cue_far;
    v[3] = e->cue_far_dim;
    if (any_bits(v, 4) || e->cue_background) {
        kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_DISTANCE_CUE);
        put_percent_floats(c, e->cue_near, e->cue_near_dim, e->cue_far, e->cue_far_dim);
        put_flag_chunk(c, KF3DS_CHUNK_DCUE_BGND, e->cue_background);
        kf3ds__chunk_end(&c->w);
    }
    if (e->atmosphere > KF3DS_ATMOSPHERE_NONE && e->atmosphere <= KF3DS_ATMOSPHERE_DISTANCE_CUE)
        put_flag_chunk(c, use_atmosphere[e->atmosphere], 1);
}

/* Every float of the settings in one array, to compare them. */
#define ENV_FLOATS 30
static void environment_floats(const kf3ds_environment *e, float v[ENV_FLOATS])
{
    memcpy(v, e->solid, sizeof e->solid);
    v[3] = e->gradient_mid;
    memcpy(v + 4, e->gradient, sizeof e->gradient);
    v[13] = e->fog_near;
    v[14] = e->fog_near_density;
    v[15] = e->fog_far;
    v[16] = e->fog_far_density;
    memcpy(v + 17, e->fog_color, sizeof e->fog_color);
    v[20] = e->layer_bottom;
    v[21] = e->layer_top;
    v[22] = e->layer_density;
    memcpy(v + 23, e->layer_color, sizeof e->layer_color);
    v[26] = e->cue_near;
    v[27] = e->cue_near_dim;
    v[28] = e->cue_far;
    v[29] = e->cue_far_dim;
}

static int same_environment(const kf3ds_environment *a, const kf3ds_environment *b)
{
    float fa[ENV_FLOATS], fb[ENV_FLOATS];
    environment_floats(a, fa);
    environment_floats(b, fb);
    return a->background == b->background && a->atmosphere == b->atmosphere &&
           strcmp(a->bitmap ? a->bitmap : "", b->bitmap ? b->bitmap : "") == 0 &&
           a->fog_background == b->fog_background && a->layer_flags == b->layer_flags &&
           a->cue_background == b->cue_background && same_bits(fa, fb, ENV_FLOATS);
}

/* Whether the file's background and atmosphere chunks are written back as
 * they were: the scene's settings are still the ones they gave, and, when
 * repairing, each is well formed and the loader found nothing wrong in it
 * (no diagnostic within it). Otherwise the scene's settings replace them. */
static int settings_as_loaded(const save_ctx *c)
{
    const kf3ds_scene *s = c->s;
    uint32_t i, d;
    if (!c->lay || !same_environment(&s->environment, &c->src->environment))
        return 0;
    if (!(c->o->flags & KF3DS_SAVE_REPAIR))
        return 1;
    for (i = 0; i < c->src->num_layout; i++) {
        const kf3ds__layout_chunk *e = &c->lay[i];
        if (e->kind != KF3DS__LAY_SETTING)
            continue;
        if (!e->reserved[0] || s->num_dropped_diags)
            return 0;
        for (d = 0; d < s->num_diags; d++) /* (the chunk's header is 6 bytes before) */
            if (s->diags[d].offset + 6 >= e->offset && s->diags[d].offset < e->offset + e->size)
                return 0;
    }
    return 1;
}

/* ---- the editor section ---------------------------------------------------------- */

static const uint16_t mdata_roles[] = {
    KF3DS_CHUNK_MESH_VERSION, KF3DS_CHUNK_MASTER_SCALE, KF3DS_CHUNK_AMBIENT_LIGHT,
    KF3DS_CHUNK_BIT_MAP, KF3DS_CHUNK_MAT_ENTRY, KF3DS_CHUNK_NAMED_OBJECT
};

static void emit_mdata_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_scene *s = c->s;
    (void)el;
    (void)k;
    switch (id) {
    case KF3DS_CHUNK_MESH_VERSION:
        if (SINGLE_WANTED(c, at, KF3DS_CHUNK_MDATA, id, s->mesh_version != 0))
            put_u32_chunk(c, id, s->mesh_version);
        break;
    case KF3DS_CHUNK_MASTER_SCALE:
        if (SINGLE_WANTED(c, at, KF3DS_CHUNK_MDATA, id, s->master_scale != 1.0f || !c->lay))
            put_f32_chunk(c, id, s->master_scale);
        break;
    case KF3DS_CHUNK_AMBIENT_LIGHT:
        if (SINGLE_WANTED(c, at, KF3DS_CHUNK_MDATA, id, nonzero(s->ambient, 3)))
            put_color_chunk(c, id, at, s->ambient);
        break;
    case KF3DS_CHUNK_BIT_MAP: /* the settings, where the file had none */
        if (!c->settings_as_loaded && !c->settings_done)
            put_settings(c);
        break;
    case KF3DS_CHUNK_MAT_ENTRY:
        do
            put_material(c, at);
        while (at == NO_LAY && c->next_material < s->num_materials && !c->w.failed);
        break;
    case KF3DS_CHUNK_NAMED_OBJECT:
        if (at != NO_LAY)
            put_named_object(c, at);
        else
            put_remaining_objects(c);
        break;
    default:
        break;
    }
}

static void put_mdata(save_ctx *c, uint32_t at)
{
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_MDATA);
    write_children(c, NULL, at, mdata_roles, (int)(sizeof mdata_roles / sizeof mdata_roles[0]),
                   emit_mdata_child, at == c->last_mdata);
    kf3ds__chunk_end(&c->w);
}

/* ---- the keyframer ------------------------------------------------------------------ */

/* A node's id: for its NODE_ID any 16-bit value, as a parent's (`parent`)
 * one below 0xFFFF, which NODE_HDR's parent field spends on "none". */
static int node_ref(save_ctx *c, uint32_t node, int parent, uint16_t *out)
{
    int32_t id = c->s->nodes[node].id;
    if (id < 0 || id > 0xFFFF || (parent && id == NO_PARENT)) {
        kf3ds__writer_fail(&c->w, KF3DS_ERR_LIMIT, KF3DS_CHUNK_NODE_ID,
                           "node %lu '%s': id %ld does not fit the format's 16 bits%s",
                           (unsigned long)node, c->s->nodes[node].name, (long)id,
                           parent ? " as a parent" : "");
        return 0;
    }
    *out = (uint16_t)id;
    return 1;
}

/* NODE_HDR's parent field. Lossless: the file's own when it still means the
 * node's parent (an id that matches no node means none too); repaired, or
 * after an edit: the parent's id. */
static uint16_t parent_field(save_ctx *c, uint32_t node)
{
    const kf3ds_scene *s = c->s;
    const kf3ds_node *n = &s->nodes[node];
    uint16_t raw = n->parent_raw, ref = NO_PARENT;
    uint32_t j;
    if (n->parent != KF3DS_NONE && (uint32_t)n->parent < s->num_nodes &&
        !node_ref(c, (uint32_t)n->parent, 1, &ref))
        return NO_PARENT;
    if (c->o->flags & KF3DS_SAVE_REPAIR || raw == ref)
        return ref;
    if (n->parent != KF3DS_NONE)
        return ref;
    for (j = 0; j < s->num_nodes; j++) /* an id that matches no node: kept */
        if (s->nodes[j].id == (int32_t)raw)
            return NO_PARENT;
    return raw;
}

/* Bytes of a key's value (docs/format.md, "Tracks"). */
static void put_key(save_ctx *c, const kf3ds_key *k, kf3ds_track_kind kind)
{
    uint16_t flags = k->spline_flags;
    /* a value without its flag would be lost: the flag is added */
    if (k->tension != 0.0f) flags |= KF3DS_KEY_TENSION;
    if (k->continuity != 0.0f) flags |= KF3DS_KEY_CONTINUITY;
    if (k->bias != 0.0f) flags |= KF3DS_KEY_BIAS;
    if (k->ease_to != 0.0f) flags |= KF3DS_KEY_EASE_TO;
    if (k->ease_from != 0.0f) flags |= KF3DS_KEY_EASE_FROM;
    kf3ds__put_i32(&c->w, k->frame);
    kf3ds__put_u16(&c->w, flags);
    if (flags & KF3DS_KEY_TENSION) kf3ds__put_f32(&c->w, k->tension);
    if (flags & KF3DS_KEY_CONTINUITY) kf3ds__put_f32(&c->w, k->continuity);
    if (flags & KF3DS_KEY_BIAS) kf3ds__put_f32(&c->w, k->bias);
    if (flags & KF3DS_KEY_EASE_TO) kf3ds__put_f32(&c->w, k->ease_to);
    if (flags & KF3DS_KEY_EASE_FROM) kf3ds__put_f32(&c->w, k->ease_from);
    switch (kind) {
    case KF3DS_TRACK_POS: case KF3DS_TRACK_SCL: case KF3DS_TRACK_COL:
        kf3ds__put_f32s(&c->w, k->value, 3);
        break;
    case KF3DS_TRACK_ROT: /* the angle and axis relative to the previous key, as stored */
        kf3ds__put_f32s(&c->w, k->value, 4);
        break;
    case KF3DS_TRACK_MORPH:
        kf3ds__put_cstr(&c->w, k->morph_name);
        break;
    case KF3DS_TRACK_HIDE:
        break;
    default:
        kf3ds__put_f32(&c->w, k->value[0]);
        break;
    }
}

/* The file order of a sorted track's keys, when it was kept. */
static const uint32_t *key_order(const save_ctx *c, uint32_t node, kf3ds_track_kind kind)
{
    uint32_t i, n = c->s->nodes[node].tracks[kind].num_keys;
    if (!c->src || (c->o->flags & (KF3DS_SAVE_REPAIR | KF3DS_SAVE_CANONICAL)))
        return NULL;
    for (i = 0; i < c->src->num_key_orders; i++)
        if (c->src->key_orders[i].node == node && c->src->key_orders[i].kind == (uint32_t)kind &&
            c->src->key_orders[i].num_keys == n)
            return c->src->key_orders[i].index;
    return NULL; /* (a replaced track's order is dropped at load: at most one matches) */
}

static void put_track(save_ctx *c, uint32_t node, kf3ds_track_kind kind, uint32_t at)
{
    const kf3ds_track *t = &c->s->nodes[node].tracks[kind];
    const uint32_t *order = key_order(c, node, kind);
    uint32_t i;
    if (!WANTED(at, t->num_keys))
        return;
    if (!t->num_keys && (c->o->flags & KF3DS_SAVE_REPAIR))
        return; /* an empty track is no animation (assimp refuses one) */
    kf3ds__chunk_begin(&c->w, (uint16_t)(KF3DS_CHUNK_POS_TRACK_TAG + kind));
    kf3ds__put_u16(&c->w, t->flags);
    kf3ds__put_u32(&c->w, at != NO_LAY ? c->lay[at].reserved[0] : 0);
    kf3ds__put_u32(&c->w, at != NO_LAY ? c->lay[at].reserved[1] : 0);
    kf3ds__put_u32(&c->w, t->num_keys);
    for (i = 0; i < t->num_keys && !c->w.failed; i++)
        put_key(c, &t->keys[order && order[i] < t->num_keys ? order[i] : i], kind);
    kf3ds__chunk_end(&c->w);
}

static const uint16_t node_roles[] = {
    KF3DS_CHUNK_NODE_ID, KF3DS_CHUNK_NODE_HDR, KF3DS_CHUNK_INSTANCE_NAME, KF3DS_CHUNK_PRESCALE,
    KF3DS_CHUNK_PIVOT, KF3DS_CHUNK_BOUNDBOX, KF3DS_CHUNK_MORPH_SMOOTH,
    KF3DS_CHUNK_POS_TRACK_TAG, KF3DS_CHUNK_ROT_TRACK_TAG, KF3DS_CHUNK_SCL_TRACK_TAG,
    KF3DS_CHUNK_FOV_TRACK_TAG, KF3DS_CHUNK_ROLL_TRACK_TAG, KF3DS_CHUNK_COL_TRACK_TAG,
    KF3DS_CHUNK_MORPH_TRACK_TAG, KF3DS_CHUNK_HOT_TRACK_TAG, KF3DS_CHUNK_FALL_TRACK_TAG,
    KF3DS_CHUNK_HIDE_TRACK_TAG
};

static void emit_node_child(save_ctx *c, const void *el, uint16_t id, uint32_t at, uint32_t *k)
{
    const kf3ds_node *n = (const kf3ds_node *)el;
    uint32_t index = (uint32_t)(n - c->s->nodes);
    uint16_t ref;
    (void)k;
    switch (id) {
    case KF3DS_CHUNK_NODE_ID:
        if (n->has_node_id && node_ref(c, index, 0, &ref)) /* (a NODE_ID cut short is none) */
            put_u16_chunk(c, id, ref);
        break;
    case KF3DS_CHUNK_NODE_HDR:
        kf3ds__chunk_begin(&c->w, id);
        kf3ds__put_cstr(&c->w, n->name);
        kf3ds__put_u16(&c->w, n->flags1);
        kf3ds__put_u16(&c->w, n->flags2);
        kf3ds__put_u16(&c->w, parent_field(c, index));
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_INSTANCE_NAME:
        if (n->instance)
            put_cstr_chunk(c, id, n->instance);
        break;
    case KF3DS_CHUNK_PRESCALE:
        if (n->has_prescale)
            put_f32s_chunk(c, id, n->prescale, 3);
        break;
    case KF3DS_CHUNK_PIVOT:
        if (WANTED(at, nonzero(n->pivot, 3) || (!c->lay && n->type == KF3DS_NODE_OBJECT)))
            put_f32s_chunk(c, id, n->pivot, 3);
        break;
    case KF3DS_CHUNK_BOUNDBOX:
        if (n->has_bbox) {
            kf3ds__chunk_begin(&c->w, id);
            kf3ds__put_f32s(&c->w, n->bbox_min, 3);
            kf3ds__put_f32s(&c->w, n->bbox_max, 3);
            kf3ds__chunk_end(&c->w);
        }
        break;
    case KF3DS_CHUNK_MORPH_SMOOTH:
        if (n->has_morph_smooth)
            put_f32_chunk(c, id, n->morph_smooth);
        break;
    default:
        if (id >= KF3DS_CHUNK_POS_TRACK_TAG && id <= KF3DS_CHUNK_HIDE_TRACK_TAG)
            put_track(c, index, (kf3ds_track_kind)(id - KF3DS_CHUNK_POS_TRACK_TAG), at);
        break;
    }
}

static void put_node(save_ctx *c, uint32_t at)
{
    const kf3ds_node *n;
    if (c->next_node >= c->s->num_nodes)
        return;
    n = &c->s->nodes[c->next_node++];
    kf3ds__chunk_begin(&c->w, (uint16_t)(KF3DS_CHUNK_AMBIENT_NODE_TAG + n->type));
    write_children(c, n, at, node_roles, (int)(sizeof node_roles / sizeof node_roles[0]),
                   emit_node_child, 1);
    kf3ds__chunk_end(&c->w);
}

static const uint16_t kfdata_roles[] = {
    KF3DS_CHUNK_KFHDR, KF3DS_CHUNK_KFSEG, KF3DS_CHUNK_KFCURTIME, KF3DS_CHUNK_OBJECT_NODE_TAG
};

static int is_node_tag(uint16_t id)
{
    return id >= KF3DS_CHUNK_AMBIENT_NODE_TAG && id <= KF3DS_CHUNK_SPOTLIGHT_NODE_TAG;
}

static void emit_kfdata_child(save_ctx *c, const void *el, uint16_t id, uint32_t at,
                              uint32_t *k)
{
    const kf3ds_scene *s = c->s;
    int cut = (c->o->flags & KF3DS_SAVE_SEGMENT) != 0;
    (void)el;
    (void)k;
    if (is_node_tag(id)) {
        do
            put_node(c, at);
        while (at == NO_LAY && c->next_node < s->num_nodes && !c->w.failed);
        return;
    }
    switch (id) {
    case KF3DS_CHUNK_KFHDR:
        if (!SINGLE_WANTED(c, at, KF3DS_CHUNK_KFDATA, id,
                           s->kf_filename || s->anim_length || s->kf_revision || !c->lay))
            break;
        kf3ds__chunk_begin(&c->w, id);
        kf3ds__put_u16(&c->w, s->kf_revision);
        kf3ds__put_cstr(&c->w, s->kf_filename);
        kf3ds__put_i32(&c->w, s->anim_length);
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_KFSEG:
        if (!SINGLE_WANTED(c, at, KF3DS_CHUNK_KFDATA, id,
                           cut || s->segment_start != 0 || s->segment_end != s->anim_length ||
                               !c->lay))
            break;
        kf3ds__chunk_begin(&c->w, id);
        kf3ds__put_i32(&c->w, cut ? c->o->segment_start : s->segment_start);
        kf3ds__put_i32(&c->w, cut ? c->o->segment_end : s->segment_end);
        kf3ds__chunk_end(&c->w);
        break;
    case KF3DS_CHUNK_KFCURTIME:
        if (SINGLE_WANTED(c, at, KF3DS_CHUNK_KFDATA, id, s->current_frame != 0 || !c->lay))
            put_u32_chunk(c, id, (uint32_t)s->current_frame);
        break;
    default:
        break;
    }
}

static void put_kfdata(save_ctx *c, uint32_t at)
{
    kf3ds__chunk_begin(&c->w, KF3DS_CHUNK_KFDATA);
    write_children(c, NULL, at, kfdata_roles,
                   (int)(sizeof kfdata_roles / sizeof kfdata_roles[0]), emit_kfdata_child,
                   at == c->last_kfdata);
    kf3ds__chunk_end(&c->w);
}

/* ---- the file -------------------------------------------------------------------------- */

static int wants_keyframer(const save_ctx *c)
{
    return !(c->o->flags & KF3DS_SAVE_NO_KEYFRAMER) && (c->s->has_keyframer || c->s->num_nodes);
}

static void put_file(save_ctx *c)
{
    const kf3ds_scene *s = c->s;
    uint32_t i, root = c->lay ? 0 : NO_LAY;
    int had_version = 0;
    c->last_mdata = c->last_kfdata = NO_LAY;
    for (i = first_child(c, root); i != NO_LAY; i = next_sibling(c, root, i)) {
        if (c->lay[i].kind != KF3DS__LAY_SCENE)
            continue;
        if (c->lay[i].id == KF3DS_CHUNK_MDATA)
            c->last_mdata = i;
        else if (c->lay[i].id == KF3DS_CHUNK_KFDATA)
            c->last_kfdata = i;
        else if (c->lay[i].id == KF3DS_CHUNK_M3D_VERSION)
            had_version = 1;
    }
    kf3ds__chunk_begin(&c->w, c->lay ? c->lay[0].id : KF3DS_CHUNK_M3DMAGIC);
    if (!had_version && (s->version || !c->lay))
        put_u32_chunk(c, KF3DS_CHUNK_M3D_VERSION, s->version);
    for (i = first_child(c, root); i != NO_LAY; i = next_sibling(c, root, i)) {
        const kf3ds__layout_chunk *e = &c->lay[i];
        if (e->kind != KF3DS__LAY_SCENE)
            put_verbatim(c, e);
        else if (e->id == KF3DS_CHUNK_M3D_VERSION)
            put_u32_chunk(c, e->id, s->version);
        else if (e->id == KF3DS_CHUNK_MDATA)
            put_mdata(c, i);
        else if (e->id == KF3DS_CHUNK_KFDATA && wants_keyframer(c))
            put_kfdata(c, i);
    }
    if (c->last_mdata == NO_LAY)
        put_mdata(c, NO_LAY);
    if (c->last_kfdata == NO_LAY && wants_keyframer(c))
        put_kfdata(c, NO_LAY);
    kf3ds__chunk_end(&c->w);
}

/* The layout is used only while it describes the scene's elements. */
static const kf3ds__layout_chunk *usable_layout(const kf3ds_scene *s, const kf3ds__source *src,
                                       unsigned flags)
{
    if (!src || !src->layout || !src->num_layout || (flags & KF3DS_SAVE_CANONICAL))
        return NULL;
    if (src->num_meshes != s->num_meshes || src->num_materials != s->num_materials ||
        src->num_cameras != s->num_cameras || src->num_lights != s->num_lights ||
        src->num_nodes != s->num_nodes)
        return NULL;
    return src->layout;
}

static void run_pass(save_ctx *c, const kf3ds_scene *s, const kf3ds_save_options *o,
                     unsigned char *out, size_t cap)
{
    const kf3ds__source *src = (const kf3ds__source *)s->source_;
    memset(c, 0, sizeof *c);
    kf3ds__writer_init(&c->w, out, cap);
    c->s = s;
    c->o = o;
    c->src = src;
    c->lay = usable_layout(s, src, o->flags);
    c->settings_as_loaded = settings_as_loaded(c);
    put_file(c);
    if (!c->w.failed && c->w.depth != 0)
        kf3ds__writer_fail(&c->w, KF3DS_ERR_ARGUMENT, 0, "unbalanced chunks");
}

static kf3ds_status save_fail(kf3ds_diag *error, kf3ds_status code, const char *message)
{
    kf3ds__diag_set(error, code, "%s", message);
    return code;
}

static kf3ds_status check_scene(const kf3ds_scene *s)
{
    if (!s)
        return KF3DS_ERR_ARGUMENT;
    if ((s->num_meshes && !s->meshes) || (s->num_materials && !s->materials) ||
        (s->num_cameras && !s->cameras) || (s->num_lights && !s->lights) ||
        (s->num_nodes && !s->nodes))
        return KF3DS_ERR_ARGUMENT;
    return KF3DS_OK;
}

kf3ds_status kf3ds_save_memory(const kf3ds_scene *scene, const kf3ds_save_options *options,
                               void **bytes, size_t *size, kf3ds_diag *error)
{
    static const kf3ds_save_options defaults;
    const kf3ds_save_options *o = options ? options : &defaults;
    kf3ds_allocator allocator;
    save_ctx c;
    unsigned char *out;
    const char *why;
    size_t n;

    if (error)
        memset(error, 0, sizeof *error);
    if (bytes)
        *bytes = NULL;
    if (size)
        *size = 0;
    if (!bytes || !size || check_scene(scene) != KF3DS_OK)
        return save_fail(error, KF3DS_ERR_ARGUMENT, "no scene or no place for the bytes");
    why = kf3ds__allocator_resolve(&o->allocator, &allocator);
    if (why)
        return save_fail(error, KF3DS_ERR_ARGUMENT, why);
    if ((o->flags & KF3DS_SAVE_SEGMENT) && o->segment_start > o->segment_end)
        return save_fail(error, KF3DS_ERR_ARGUMENT, "segment starts after it ends");

    run_pass(&c, scene, o, NULL, 0); /* measuring */
    if (c.w.failed) {
        if (error)
            *error = c.w.error;
        return c.w.error.code;
    }
    n = c.w.len;
    out = (unsigned char *)allocator.malloc_fn(n ? n : 1, allocator.user);
    if (!out)
        return save_fail(error, KF3DS_ERR_NOMEM, "out of memory for the file's bytes");
    run_pass(&c, scene, o, out, n); /* writing */
    if (c.w.failed || c.w.len != n) {
        allocator.free_fn(out, allocator.user);
        if (!c.w.failed)
            return save_fail(error, KF3DS_ERR_ARGUMENT, "the scene changed while it was saved");
        if (error)
            *error = c.w.error;
        return c.w.error.code;
    }
    *bytes = out;
    *size = n;
    return KF3DS_OK;
}

void kf3ds_save_free(void *bytes, const kf3ds_save_options *options)
{
    kf3ds_allocator allocator;
    kf3ds_allocator none;
    memset(&none, 0, sizeof none);
    if (!bytes || kf3ds__allocator_resolve(options ? &options->allocator : &none, &allocator))
        return;
    allocator.free_fn(bytes, allocator.user);
}
