/* KFDATA: headers, the seven node tags, their tracks and keys, and, once the
 * whole section is read, hierarchy resolution and name linking. */
#include "readers.h"
#include "arena.h"
#include "node_types.h"
#include "read_util.h"
#include "track_setup.h"
#include <string.h>

/* NODE_HDR's parent field of a root. */
#define NO_PARENT 0xFFFF

/* The seven node tags are in kf3ds_node_type's order, the ten track tags in
 * kf3ds_track_kind's: a tag's offset from the first is the type or kind. */
static int is_node_tag(uint16_t id)
{
    return id >= KF3DS_CHUNK_AMBIENT_NODE_TAG && id <= KF3DS_CHUNK_SPOTLIGHT_NODE_TAG;
}
static int is_track_tag(uint16_t id)
{
    return id >= KF3DS_CHUNK_POS_TRACK_TAG && id <= KF3DS_CHUNK_HIDE_TRACK_TAG;
}
typedef char kf3ds__node_tags_in_type_order
    [KF3DS_CHUNK_SPOTLIGHT_NODE_TAG - KF3DS_CHUNK_AMBIENT_NODE_TAG == KF3DS_NODE_SPOT ? 1 : -1];
typedef char kf3ds__track_tags_in_kind_order
    [KF3DS_CHUNK_HIDE_TRACK_TAG - KF3DS_CHUNK_POS_TRACK_TAG == KF3DS_TRACK_HIDE ? 1 : -1];

void kf3ds__count_kfdata(kf3ds__load_ctx *ctx, const kf3ds_reader *kfdata_body)
{
    kf3ds_reader it = *kfdata_body;
    kf3ds_chunk c;
    ctx->scene->has_keyframer = 1;
    while (kf3ds_chunk_next(&it, &c, NULL) != KF3DS_NEXT_NONE && c.length >= 6)
        if (is_node_tag(c.id))
            ctx->scene->num_nodes++;
}

/* Bytes of a key's value in the file (MORPH: at least its terminator). */
static size_t value_size(kf3ds_track_kind kind)
{
    switch (kind) {
    case KF3DS_TRACK_POS: case KF3DS_TRACK_SCL: case KF3DS_TRACK_COL: return 12;
    case KF3DS_TRACK_ROT: return 16;
    case KF3DS_TRACK_MORPH: return 1;
    case KF3DS_TRACK_HIDE: return 0;
    default: return 4;
    }
}

/* Little-endian fields of a key at p (the caller checked there is room). */
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static float lef32(const unsigned char *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f); /* IEEE single on every supported host */
    return f;
}

/* The spline fields the flags announce, each 0 when absent. */
static const unsigned char *read_spline_fast(const unsigned char *p, kf3ds_key *k)
{
    uint16_t f = k->spline_flags;
    k->tension = f & KF3DS_KEY_TENSION ? lef32(p) : 0.0f;
    p += f & KF3DS_KEY_TENSION ? 4 : 0;
    k->continuity = f & KF3DS_KEY_CONTINUITY ? lef32(p) : 0.0f;
    p += f & KF3DS_KEY_CONTINUITY ? 4 : 0;
    k->bias = f & KF3DS_KEY_BIAS ? lef32(p) : 0.0f;
    p += f & KF3DS_KEY_BIAS ? 4 : 0;
    k->ease_to = f & KF3DS_KEY_EASE_TO ? lef32(p) : 0.0f;
    p += f & KF3DS_KEY_EASE_TO ? 4 : 0;
    k->ease_from = f & KF3DS_KEY_EASE_FROM ? lef32(p) : 0.0f;
    p += f & KF3DS_KEY_EASE_FROM ? 4 : 0;
    return p;
}

/* The same through the checked reads (a key that may run past the chunk,
 * and MORPH keys); a short read is left in r->short_read. */
static void read_key_checked(kf3ds__load_ctx *ctx, kf3ds_reader *r, kf3ds_track_kind kind,
                             kf3ds_key *k)
{
    memset(k->value, 0, sizeof k->value);
    k->frame = kf3ds_read_i32(r);
    k->spline_flags = kf3ds_read_u16(r);
    k->tension = k->spline_flags & KF3DS_KEY_TENSION ? kf3ds_read_f32(r) : 0.0f;
    k->continuity = k->spline_flags & KF3DS_KEY_CONTINUITY ? kf3ds_read_f32(r) : 0.0f;
    k->bias = k->spline_flags & KF3DS_KEY_BIAS ? kf3ds_read_f32(r) : 0.0f;
    k->ease_to = k->spline_flags & KF3DS_KEY_EASE_TO ? kf3ds_read_f32(r) : 0.0f;
    k->ease_from = k->spline_flags & KF3DS_KEY_EASE_FROM ? kf3ds_read_f32(r) : 0.0f;
    switch (kind) {
    case KF3DS_TRACK_POS: case KF3DS_TRACK_SCL: case KF3DS_TRACK_COL:
        k->value[0] = kf3ds_read_f32(r);
        k->value[1] = kf3ds_read_f32(r);
        k->value[2] = kf3ds_read_f32(r);
        break;
    case KF3DS_TRACK_ROT:
        k->value[0] = kf3ds_read_f32(r);
        k->value[1] = kf3ds_read_f32(r);
        k->value[2] = kf3ds_read_f32(r);
        k->value[3] = kf3ds_read_f32(r);
        break;
    case KF3DS_TRACK_MORPH: {
        size_t len;
        int terminated;
        const char *s = kf3ds_read_cstr(r, &len, &terminated);
        k->morph_name = kf3ds__arena_strdup(ctx->arena, s, len);
        break;
    }
    case KF3DS_TRACK_HIDE:
        break;
    default:
        k->value[0] = kf3ds_read_f32(r);
        break;
    }
}

#define SPLINE_FIELDS                                                                        \
    (KF3DS_KEY_TENSION | KF3DS_KEY_CONTINUITY | KF3DS_KEY_BIAS | KF3DS_KEY_EASE_TO |          \
     KF3DS_KEY_EASE_FROM)

/* The checks of a key's numbers once it is read; what they change is
 * counted in bad and big. */
static void clean_key(kf3ds_key *k, kf3ds_track_kind kind, uint32_t *bad, uint32_t *big)
{
    /* NaN and infinities become 0 (1 for a scale), spline parameters are
     * kept within ±KF3DS__MAX_SPLINE, values within ±KF3DS__MAX_VALUE. */
    if ((k->spline_flags & SPLINE_FIELDS) &&
        !(fabsf(k->tension) <= KF3DS__MAX_SPLINE && fabsf(k->continuity) <= KF3DS__MAX_SPLINE &&
          fabsf(k->bias) <= KF3DS__MAX_SPLINE && fabsf(k->ease_to) <= KF3DS__MAX_SPLINE &&
          fabsf(k->ease_from) <= KF3DS__MAX_SPLINE)) {
        float *spline[5];
        int j;
        spline[0] = &k->tension; spline[1] = &k->continuity; spline[2] = &k->bias;
        spline[3] = &k->ease_to; spline[4] = &k->ease_from;
        for (j = 0; j < 5; j++)
            kf3ds__clean_floats(spline[j], 1, 0.0f, KF3DS__MAX_SPLINE, bad, big);
    }
    /* A negative ease would throw the eased parameter far outside 0..1
     * (and a Hermite cubic to infinity), a tiny one (a denormal) makes
     * ease's a/e overflow and gives NaN; ease values of 1e-6 and more
     * (beyond 1 the evaluator normalises them by their sum) keep it
     * within 0..1. So the others count as 0. */
    if (k->ease_to != 0.0f && !(k->ease_to >= 1e-6f)) {
        k->ease_to = 0.0f;
        (*big)++;
    }
    if (k->ease_from != 0.0f && !(k->ease_from >= 1e-6f)) {
        k->ease_from = 0.0f;
        (*big)++;
    }
    if (!kf3ds__in_range4(k->value, KF3DS__MAX_VALUE))
        kf3ds__clean_floats(k->value, 4, kind == KF3DS_TRACK_SCL ? 1.0f : 0.0f,
                            KF3DS__MAX_VALUE, bad, big);
}

/* 1 when clean_key would change nothing in a key with spline fields: every
 * number in range, each ease 0 or at least 1e-6 (without a branch per
 * field; docs/performance.md, "Loading"). */
static inline int spline_key_clean(const kf3ds_key *k)
{
    return (fabsf(k->tension) <= KF3DS__MAX_SPLINE) & (fabsf(k->continuity) <= KF3DS__MAX_SPLINE) &
           (fabsf(k->bias) <= KF3DS__MAX_SPLINE) & (fabsf(k->ease_to) <= KF3DS__MAX_SPLINE) &
           (fabsf(k->ease_from) <= KF3DS__MAX_SPLINE) &
           ((k->ease_to == 0.0f) | (k->ease_to >= 1e-6f)) &
           ((k->ease_from == 0.0f) | (k->ease_from >= 1e-6f)) &
           kf3ds__in_range4(k->value, KF3DS__MAX_VALUE);
}

/* Keys of n value floats (kind not MORPH) from r while there is room for
 * the longest one (frame, flags, the five spline floats, the values), so
 * that no field needs a bounds check of its own; at most `count`. Returns
 * how many it read. Inline with a constant n: one loop per value count. */
static inline uint32_t read_keys_fast(kf3ds_reader *r, kf3ds_track_kind kind, int n,
                                      kf3ds_key *keys, uint32_t count, uint32_t *bad,
                                      uint32_t *big, unsigned *flags)
{
    size_t max_key = 26 + 4 * (size_t)n;
    const unsigned char *p = r->data + r->pos;
    /* the last position from which the longest key fits (none: no keys) */
    const unsigned char *last = r->pos <= r->end && r->end - r->pos >= max_key
                                    ? r->data + (r->end - max_key)
                                    : NULL;
    uint32_t i;
    int d;
    for (i = 0; last && i < count && p <= last; i++) {
        kf3ds_key *k = &keys[i];
        memset(k->quat, 0, sizeof k->quat);
        k->morph_name = NULL;
        k->morph_mesh = KF3DS_NONE;
        k->frame = (int32_t)le32(p);
        k->spline_flags = (uint16_t)(p[4] | (p[5] << 8));
        *flags |= k->spline_flags;
        if (k->spline_flags & SPLINE_FIELDS) {
            p = read_spline_fast(p + 6, k);
        } else { /* most keys: nothing to read or check but the values */
            k->tension = k->continuity = k->bias = k->ease_to = k->ease_from = 0.0f;
            p += 6;
        }
        for (d = 0; d < 4; d++)
            k->value[d] = d < n ? lef32(p + 4 * d) : 0.0f;
        p += 4 * n;
        if ((k->spline_flags & SPLINE_FIELDS) ? !spline_key_clean(k)
                                              : !kf3ds__in_range4(k->value, KF3DS__MAX_VALUE))
            clean_key(k, kind, bad, big);
    }
    r->pos = (size_t)(p - r->data);
    return i;
}

static void read_track(kf3ds__load_ctx *ctx, kf3ds_reader b, const kf3ds_chunk *c,
                       kf3ds_track_kind kind, kf3ds_track *t, uint32_t node)
{
    uint32_t count, fit, i, bad = 0, big = 0;
    size_t min_key = 6 + value_size(kind);
    unsigned flags = 0; /* every key's spline flags, or'ed */
    t->flags = kf3ds_read_u16(&b);
    kf3ds_read_u32(&b); /* two reserved words */
    kf3ds_read_u32(&b);
    count = kf3ds_read_u32(&b);
    if (kf3ds__check_short(ctx, &b, c))
        return;
    fit = (uint32_t)(kf3ds_reader_left(&b) / min_key);
    if (count > fit) {
        kf3ds__diag(ctx, KF3DS_ERR_TRUNCATED, c->offset, c->id,
                    "key count %lu is beyond the chunk (room for at most %lu)",
                    (unsigned long)count, (unsigned long)fit);
        count = fit;
    }
    if (count > ctx->limits.max_keys) {
        kf3ds__diag(ctx, KF3DS_ERR_LIMIT, c->offset, c->id,
                    "%lu keys exceed the limit of %lu", (unsigned long)count,
                    (unsigned long)ctx->limits.max_keys);
        count = ctx->limits.max_keys;
    }
    /* Every field of every key is written below: no zeroing first. */
    t->keys = (kf3ds_key *)kf3ds__arena_alloc_raw(ctx->arena, count, sizeof(kf3ds_key));
    if (!t->keys)
        return;
    switch (kind) {
    case KF3DS_TRACK_MORPH: i = 0; break;
    case KF3DS_TRACK_HIDE:
        i = read_keys_fast(&b, kind, 0, t->keys, count, &bad, &big, &flags);
        break;
    case KF3DS_TRACK_POS: case KF3DS_TRACK_SCL: case KF3DS_TRACK_COL:
        i = read_keys_fast(&b, kind, 3, t->keys, count, &bad, &big, &flags);
        break;
    case KF3DS_TRACK_ROT:
        i = read_keys_fast(&b, kind, 4, t->keys, count, &bad, &big, &flags);
        break;
    default: i = read_keys_fast(&b, kind, 1, t->keys, count, &bad, &big, &flags); break;
    }
    /* the rest (keys near the chunk's end, MORPH keys) through the checked reads */
    for (; i < count; i++) {
        kf3ds_key *k = &t->keys[i];
        size_t key_at = b.pos;
        memset(k->quat, 0, sizeof k->quat);
        k->morph_name = NULL;
        k->morph_mesh = KF3DS_NONE;
        read_key_checked(ctx, &b, kind, k);
        if (b.short_read) {
            kf3ds__diag(ctx, KF3DS_ERR_TRUNCATED, (uint32_t)key_at, c->id,
                        "key %lu of %lu is cut short; %lu %s kept", (unsigned long)i,
                        (unsigned long)count, (unsigned long)i, i == 1 ? "key" : "keys");
            break;
        }
        flags |= k->spline_flags;
        clean_key(k, kind, &bad, &big);
    }
    kf3ds__warn_cleaned(ctx, bad, big, c->offset, c->id, "key values");
    t->num_keys = i;
    /* (cleaning only ever zeroes an ease) */
    kf3ds__track_setup_known(ctx, t, kind, node, c->offset, c->id,
                             flags & (KF3DS_KEY_EASE_TO | KF3DS_KEY_EASE_FROM)
                                 ? 0u
                                 : KF3DS__KEYS_NO_EASE);
}

static void read_node(kf3ds__load_ctx *ctx, kf3ds_reader body, const kf3ds_chunk *nc, kf3ds_node *n,
                      uint32_t index)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    int i;
    n->type = (kf3ds_node_type)(nc->id - KF3DS_CHUNK_AMBIENT_NODE_TAG);
    n->offset = nc->offset;
    n->id = (int32_t)index;
    n->name = "";
    n->parent_raw = NO_PARENT;
    n->parent = n->mesh = n->camera = n->light = n->target = KF3DS_NONE;
    while (kf3ds__next_chunk(ctx, &body, nc->id, &c, &b)) {
        switch (c.id) {
        case KF3DS_CHUNK_NODE_ID:
            n->id = kf3ds_read_u16(&b);
            n->has_node_id = !b.short_read;
            if (b.short_read)
                n->id = (int32_t)index;
            break;
        case KF3DS_CHUNK_NODE_HDR:
            n->name = kf3ds__read_name(ctx, &b, &c);
            n->flags1 = kf3ds_read_u16(&b);
            n->flags2 = kf3ds_read_u16(&b);
            n->parent_raw = kf3ds_read_u16(&b);
            if (b.short_read)
                n->parent_raw = NO_PARENT;
            break;
        case KF3DS_CHUNK_INSTANCE_NAME:
            n->instance = kf3ds__read_name(ctx, &b, &c);
            break;
        case KF3DS_CHUNK_PRESCALE:
            for (i = 0; i < 3; i++)
                n->prescale[i] = kf3ds_read_f32(&b);
            n->has_prescale = !b.short_read;
            kf3ds__sanitize(ctx, n->prescale, 3, 1.0f, KF3DS__MAX_VALUE, c.offset, c.id,
                            "prescale");
            break;
        case KF3DS_CHUNK_PIVOT:
            for (i = 0; i < 3; i++)
                n->pivot[i] = kf3ds_read_f32(&b);
            kf3ds__sanitize(ctx, n->pivot, 3, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id, "pivot");
            break;
        case KF3DS_CHUNK_BOUNDBOX:
            for (i = 0; i < 3; i++)
                n->bbox_min[i] = kf3ds_read_f32(&b);
            for (i = 0; i < 3; i++)
                n->bbox_max[i] = kf3ds_read_f32(&b);
            n->has_bbox = !b.short_read;
            kf3ds__sanitize(ctx, n->bbox_min, 3, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id,
                            "bounding box");
            kf3ds__sanitize(ctx, n->bbox_max, 3, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id,
                            "bounding box");
            break;
        case KF3DS_CHUNK_MORPH_SMOOTH:
            n->morph_smooth = kf3ds_read_f32(&b);
            n->has_morph_smooth = !b.short_read;
            kf3ds__sanitize(ctx, &n->morph_smooth, 1, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id,
                            "morph smoothing angle");
            break;
        default:
            if (is_track_tag(c.id)) {
                kf3ds_track_kind kind = (kf3ds_track_kind)(c.id - KF3DS_CHUNK_POS_TRACK_TAG);
                kf3ds_track *t = &n->tracks[kind];
                if (t->keys)
                    kf3ds__diag(ctx, KF3DS_WARN_VALUE, c.offset, c.id,
                                "second track of this kind in one node; it replaces the first");
                memset(t, 0, sizeof *t);
                read_track(ctx, b, &c, kind, t, index);
                continue; /* read_track reports its own short reads */
            }
            break;
        }
        kf3ds__check_short(ctx, &b, &c);
    }
    n->is_dummy = strcmp(n->name, "$$$DUMMY") == 0;
}

void kf3ds__read_kfdata(kf3ds__load_ctx *ctx, const kf3ds_reader *kfdata_body)
{
    kf3ds_scene *s = ctx->scene;
    kf3ds_reader it = *kfdata_body;
    kf3ds_chunk c;
    kf3ds_reader b;
    while (kf3ds__next_chunk(ctx, &it, KF3DS_CHUNK_KFDATA, &c, &b)) {
        switch (c.id) {
        case KF3DS_CHUNK_KFHDR:
            s->kf_revision = kf3ds_read_u16(&b);
            s->kf_filename = kf3ds__read_name(ctx, &b, &c);
            s->anim_length = kf3ds_read_i32(&b);
            if (!s->segment_end && !s->segment_start)
                s->segment_end = s->anim_length;
            break;
        case KF3DS_CHUNK_KFSEG:
            s->segment_start = kf3ds_read_i32(&b);
            s->segment_end = kf3ds_read_i32(&b);
            break;
        case KF3DS_CHUNK_KFCURTIME:
            s->current_frame = kf3ds_read_i32(&b);
            break;
        default:
            if (is_node_tag(c.id)) {
                if (s->num_nodes < ctx->cap_nodes) { /* beyond: over the node limit */
                    uint32_t index = s->num_nodes++;
                    read_node(ctx, b, &c, &s->nodes[index], index);
                }
                continue;
            }
            break;
        }
        kf3ds__check_short(ctx, &b, &c);
    }
}

/* ---- after the whole file: names, parents, order ---------------------- */

typedef struct name_table {
    int32_t *slots; /* index + 1, 0 = empty */
    uint32_t mask;
} name_table;

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

typedef const char *(*name_of_fn)(const kf3ds_scene *s, uint32_t i);

static const char *mesh_name(const kf3ds_scene *s, uint32_t i) { return s->meshes[i].name; }
static const char *camera_name(const kf3ds_scene *s, uint32_t i) { return s->cameras[i].name; }
static const char *light_name(const kf3ds_scene *s, uint32_t i) { return s->lights[i].name; }

/* Builds an open-addressing table of the first index with each name. */
static name_table build_table(kf3ds__load_ctx *ctx, uint32_t count, name_of_fn name_of)
{
    name_table t;
    uint32_t size = 16, i;
    while (size < count * 2u && size < 0x40000000u)
        size *= 2;
    t.mask = size - 1;
    t.slots = (int32_t *)kf3ds__arena_alloc(ctx->arena, size, sizeof(int32_t));
    if (!t.slots)
        return t;
    for (i = 0; i < count; i++) {
        const char *name = name_of(ctx->scene, i);
        uint32_t h = hash_name(name) & t.mask;
        while (t.slots[h] && strcmp(name_of(ctx->scene, (uint32_t)t.slots[h] - 1), name) != 0)
            h = (h + 1) & t.mask;
        if (!t.slots[h])
            t.slots[h] = (int32_t)i + 1;
    }
    return t;
}

static int32_t table_find(const kf3ds_scene *s, const name_table *t, name_of_fn name_of,
                          const char *name)
{
    uint32_t h;
    if (!t->slots)
        return KF3DS_NONE;
    h = hash_name(name) & t->mask;
    while (t->slots[h]) {
        if (strcmp(name_of(s, (uint32_t)t->slots[h] - 1), name) == 0)
            return t->slots[h] - 1;
        h = (h + 1) & t->mask;
    }
    return KF3DS_NONE;
}

static void resolve_parents(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    uint32_t n = s->num_nodes, i;
    int32_t max_id = 0;
    int32_t *by_id, *stamp;
    for (i = 0; i < n; i++)
        if (s->nodes[i].id > max_id)
            max_id = s->nodes[i].id;
    by_id = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, (size_t)max_id + 1, sizeof(int32_t));
    stamp = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(int32_t));
    if (!by_id || !stamp)
        return;
    for (i = 0; i <= (uint32_t)max_id; i++)
        by_id[i] = KF3DS_NONE;
    for (i = n; i-- > 0;) /* the first node with an id wins */
        by_id[s->nodes[i].id] = (int32_t)i;
    for (i = 0; i < n; i++) {
        kf3ds_node *node = &s->nodes[i];
        uint16_t p = node->parent_raw;
        stamp[i] = -1;
        if (p == NO_PARENT)
            continue;
        if ((int32_t)p > max_id || by_id[p] == KF3DS_NONE) {
            kf3ds__diag(ctx, KF3DS_WARN_PARENT, node->offset, KF3DS_CHUNK_NODE_HDR,
                        "node %lu '%s': parent id %u matches no node; made a root",
                        (unsigned long)i, node->name, (unsigned)p);
            continue;
        }
        node->parent = by_id[p];
    }
    /* Cycles: walk up from every node, stamping the walk; meeting our own
     * stamp means a cycle, which is broken at the node that closes it. */
    for (i = 0; i < n; i++) {
        int32_t j = (int32_t)i;
        while (j != KF3DS_NONE && stamp[j] == -1) {
            int32_t p = s->nodes[j].parent;
            stamp[j] = (int32_t)i;
            if (p != KF3DS_NONE && stamp[p] == (int32_t)i) {
                kf3ds__diag(ctx, KF3DS_WARN_PARENT, s->nodes[j].offset, KF3DS_CHUNK_NODE_HDR,
                            "node %lu '%s': parent link closes a cycle; made a root",
                            (unsigned long)j, s->nodes[j].name);
                s->nodes[j].parent = KF3DS_NONE;
                break;
            }
            j = p;
        }
    }
}

/* Depths and an evaluation order with every parent before its children:
 * file order when it already is one, else a counting sort by depth. */
static void order_nodes(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    uint32_t n = s->num_nodes, i, max_depth = 0;
    uint32_t *count;
    uint8_t *done = (uint8_t *)kf3ds__arena_alloc(ctx->arena, n, 1);
    s->eval_order = (uint32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(uint32_t));
    if (!done || !s->eval_order)
        return;
    for (i = 0; i < n; i++) {
        /* Walk up to a node whose depth is known, then assign on the way down
         * by walking again; parents are acyclic now, so this terminates. */
        uint32_t d = 0;
        int32_t j = (int32_t)i;
        while (j != KF3DS_NONE && !done[j]) {
            j = s->nodes[j].parent;
            d++;
        }
        d += j == KF3DS_NONE ? 0 : s->nodes[j].depth + 1;
        j = (int32_t)i;
        while (j != KF3DS_NONE && !done[j]) {
            s->nodes[j].depth = --d;
            done[j] = 1;
            if (s->nodes[j].depth > max_depth)
                max_depth = s->nodes[j].depth;
            j = s->nodes[j].parent;
        }
    }
    /* File order already puts parents first in most files: keep it then, so
     * that evaluation walks the nodes sequentially. */
    for (i = 0; i < n && s->nodes[i].parent < (int32_t)i; i++)
        ;
    if (i == n) {
        for (i = 0; i < n; i++)
            s->eval_order[i] = i;
        return;
    }
    count = (uint32_t *)kf3ds__arena_alloc(ctx->arena, (size_t)max_depth + 2, sizeof(uint32_t));
    if (!count)
        return;
    for (i = 0; i < n; i++)
        count[s->nodes[i].depth + 1]++;
    for (i = 1; i <= max_depth + 1; i++)
        count[i] += count[i - 1];
    for (i = 0; i < n; i++)
        s->eval_order[count[s->nodes[i].depth]++] = i;
}

/* Pairs cameras with camera targets and spotlights with spot targets by
 * name: each camera or spotlight, in node order, takes the first unpaired
 * target of the matching tag with its name. The targets are put in a table
 * by tag and name, those sharing both chained in node order; a slot's head
 * moves on as its targets are taken, so each target is looked at once (a
 * scan of all nodes per camera made a file of thousands of cameras
 * quadratic to load). */
static void pair_targets(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    uint32_t n = s->num_nodes, size = 16, mask, i, targets = 0;
    int32_t *first, *head, *tail, *next;
    for (i = 0; i < n; i++)
        targets +=
            s->nodes[i].type == KF3DS_NODE_TARGET || s->nodes[i].type == KF3DS_NODE_LTARGET;
    if (!targets)
        return;
    while (size < targets * 2u && size < 0x40000000u)
        size *= 2;
    mask = size - 1;
    first = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, size, sizeof(int32_t));
    head = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, size, sizeof(int32_t));
    tail = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, size, sizeof(int32_t));
    next = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(int32_t));
    if (!first || !head || !tail || !next)
        return;
    for (i = 0; i < size; i++)
        first[i] = head[i] = tail[i] = KF3DS_NONE; /* first: the slot's tag and name */
    for (i = 0; i < n; i++) {
        const kf3ds_node *t = &s->nodes[i];
        uint32_t h;
        next[i] = KF3DS_NONE;
        if (t->type != KF3DS_NODE_TARGET && t->type != KF3DS_NODE_LTARGET)
            continue;
        h = (hash_name(t->name) + (uint32_t)t->type) & mask;
        while (first[h] != KF3DS_NONE && (s->nodes[first[h]].type != t->type ||
                                          strcmp(s->nodes[first[h]].name, t->name) != 0))
            h = (h + 1) & mask;
        if (first[h] == KF3DS_NONE)
            first[h] = head[h] = (int32_t)i;
        else
            next[tail[h]] = (int32_t)i;
        tail[h] = (int32_t)i;
    }
    for (i = 0; i < n; i++) {
        kf3ds_node *c = &s->nodes[i];
        kf3ds_node_type want = c->type == KF3DS_NODE_CAMERA ? KF3DS_NODE_TARGET
                             : c->type == KF3DS_NODE_SPOT   ? KF3DS_NODE_LTARGET
                                                            : c->type;
        uint32_t h;
        if (want == c->type)
            continue;
        h = (hash_name(c->name) + (uint32_t)want) & mask;
        while (first[h] != KF3DS_NONE && (s->nodes[first[h]].type != want ||
                                          strcmp(s->nodes[first[h]].name, c->name) != 0))
            h = (h + 1) & mask;
        if (first[h] != KF3DS_NONE && head[h] != KF3DS_NONE) {
            c->target = head[h];
            s->nodes[head[h]].target = (int32_t)i;
            head[h] = next[head[h]];
        }
    }
}

static void link_nodes(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    name_table meshes = build_table(ctx, s->num_meshes, mesh_name);
    name_table cameras = build_table(ctx, s->num_cameras, camera_name);
    name_table lights = build_table(ctx, s->num_lights, light_name);
    uint32_t i, k;
    for (i = 0; i < s->num_nodes; i++) {
        kf3ds_node *n = &s->nodes[i];
        kf3ds_track *morph = &n->tracks[KF3DS_TRACK_MORPH];
        switch (n->type) {
        case KF3DS_NODE_OBJECT:
            if (n->is_dummy)
                break;
            n->mesh = table_find(s, &meshes, mesh_name, n->name);
            if (n->mesh == KF3DS_NONE)
                kf3ds__diag(ctx, KF3DS_WARN_REFERENCE, n->offset, KF3DS_CHUNK_OBJECT_NODE_TAG,
                            "object node '%s' names no mesh", n->name);
            break;
        case KF3DS_NODE_CAMERA:
        case KF3DS_NODE_TARGET:
            n->camera = table_find(s, &cameras, camera_name, n->name);
            break;
        case KF3DS_NODE_LIGHT:
        case KF3DS_NODE_SPOT:
        case KF3DS_NODE_LTARGET:
            n->light = table_find(s, &lights, light_name, n->name);
            break;
        default:
            break;
        }
        for (k = 0; k < morph->num_keys; k++) {
            kf3ds_key *key = &morph->keys[k];
            key->morph_mesh = table_find(s, &meshes, mesh_name, key->morph_name);
            if (key->morph_mesh == KF3DS_NONE)
                kf3ds__diag(ctx, KF3DS_WARN_REFERENCE, n->offset, KF3DS_CHUNK_MORPH_TRACK_TAG,
                            "morph key names unknown object '%s'", key->morph_name);
        }
    }
    pair_targets(ctx);
}

/* Which tracks the evaluator will read for each node: those its type uses
 * that have keys. */
static void mark_active_tracks(kf3ds_scene *s)
{
    uint32_t i, k;
    for (i = 0; i < s->num_nodes; i++) {
        kf3ds_node *n = &s->nodes[i];
        unsigned used = kf3ds__node_type_tracks(n->type);
        n->active_tracks_ = 0;
        for (k = 0; k < KF3DS_TRACK_COUNT; k++)
            if ((used & (1u << k)) && n->tracks[k].num_keys && n->tracks[k].frames_)
                n->active_tracks_ |= 1u << k;
    }
}

void kf3ds__finish_keyframer(kf3ds__load_ctx *ctx)
{
    if (!ctx->scene->num_nodes)
        return;
    resolve_parents(ctx);
    order_nodes(ctx);
    link_nodes(ctx);
    mark_active_tracks(ctx->scene);
}
