/* Payload reading for `kf3ds dump` (cmd_dump.h): fixed layouts, counted
 * arrays and the chunks with special fields. Every read goes through the
 * library's bounds-checked kf3ds_reader; a payload shorter than its fields
 * is reported and decoding stops there. */
#include "cmd_dump.h"
#include <string.h>

#define NODE_HDR_NO_PARENT 0xFFFF /* NODE_HDR's parent field for a root node */

/* ---- payload helpers ------------------------------------------------------ */

/* Advances r by n bytes, or marks a short read (like the library's reads). */
static int skip_bytes(kf3ds_reader *r, size_t n)
{
    if (kf3ds_reader_left(r) < n) {
        r->pos = r->end;
        r->short_read = 1;
        return 0;
    }
    r->pos += n;
    return 1;
}

void dump_read_floats(kf3ds_reader *r, float *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = kf3ds_read_f32(r);
}

static double read_f64(kf3ds_reader *r)
{
    uint32_t lo = kf3ds_read_u32(r), hi = kf3ds_read_u32(r);
    uint64_t u = ((uint64_t)hi << 32) | lo;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* A zero-terminated string field; 0 (and an error) when it is cut short. */
static int read_str_field(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, const char *k)
{
    size_t len = 0;
    int term = 0;
    const char *s;
    if (kf3ds_reader_left(r) == 0) {
        r->short_read = 1;
        dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "payload ends before its %s string", k);
        return 0;
    }
    s = kf3ds_read_cstr(r, &len, &term);
    dump_fld_str(d, k, s, len);
    if (!term) {
        dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c,
                        "%s string is not terminated before the chunk ends", k);
        return 0;
    }
    return 1;
}

/* Reports a payload shorter than its fixed fields. */
static int check_short(dumper *d, const kf3ds_chunk *c, const kf3ds_reader *r, const char *what)
{
    if (!r->short_read)
        return 1;
    dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "payload ends before its %s (chunk has %lu bytes)",
                    what, (unsigned long)(c->end - c->offset));
    return 0;
}

int dump_require_bytes(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, size_t need,
                       const char *what)
{
    if (kf3ds_reader_left(r) >= need)
        return 1;
    r->short_read = 1;
    return check_short(d, c, r, what);
}

int dump_decode_layout(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, const char *layout)
{
    const char *p = layout;
    int nfields = 0;
    const char *q;
    for (q = layout; *q; q++)
        nfields += *q == ':';
    d->bare = nfields == 1;
    while (*p) {
        char type[8], k[32];
        size_t tl = 0, kl = 0;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        while (*p && *p != ':' && tl < sizeof type - 1)
            type[tl++] = *p++;
        type[tl] = '\0';
        if (*p == ':')
            p++;
        while (*p && *p != ' ' && kl < sizeof k - 1)
            k[kl++] = *p++;
        k[kl] = '\0';

        if (strcmp(type, "str") == 0) {
            if (!read_str_field(d, c, r, k)) {
                d->bare = 0;
                return 0;
            }
            continue;
        }
        {
            size_t need = strcmp(type, "u8") == 0 ? 1
                          : (strcmp(type, "u16") == 0 || strcmp(type, "i16") == 0 ||
                             strcmp(type, "x16") == 0) ? 2
                          : strcmp(type, "f64") == 0 ? 8
                          : strcmp(type, "v2") == 0 ? 8
                          : strcmp(type, "v3") == 0 ? 12
                          : strcmp(type, "c24") == 0 ? 3
                          : 4;
            if (!dump_require_bytes(d, c, r, need, k)) {
                d->bare = 0;
                return 0;
            }
        }
        if (strcmp(type, "u8") == 0) {
            dump_fld_uint(d, k, kf3ds_read_u8(r));
        } else if (strcmp(type, "u16") == 0) {
            dump_fld_uint(d, k, kf3ds_read_u16(r));
        } else if (strcmp(type, "i16") == 0) {
            dump_fld_int(d, k, kf3ds_read_i16(r));
        } else if (strcmp(type, "x16") == 0) {
            dump_fld_hex(d, k, kf3ds_read_u16(r), 4);
        } else if (strcmp(type, "u32") == 0) {
            dump_fld_uint(d, k, kf3ds_read_u32(r));
        } else if (strcmp(type, "i32") == 0) {
            dump_fld_int(d, k, (long)kf3ds_read_i32(r));
        } else if (strcmp(type, "x32") == 0) {
            dump_fld_hex(d, k, kf3ds_read_u32(r), 8);
        } else if (strcmp(type, "f32") == 0) {
            dump_fld_float(d, k, kf3ds_read_f32(r));
        } else if (strcmp(type, "f64") == 0) {
            dump_fld_float(d, k, read_f64(r));
        } else if (strcmp(type, "v2") == 0 || strcmp(type, "v3") == 0) {
            float v[3];
            int n = type[1] - '0';
            dump_read_floats(r, v, n);
            dump_fld_vec(d, k, v, n);
        } else if (strcmp(type, "c24") == 0) {
            unsigned long v[3];
            v[0] = kf3ds_read_u8(r);
            v[1] = kf3ds_read_u8(r);
            v[2] = kf3ds_read_u8(r);
            dump_fld_ints(d, k, v, 3);
        }
    }
    d->bare = 0;
    return 1;
}

/* The array count: entries of `size` bytes after a u16 count. Returns the
 * entries present (reports when fewer than declared). */
static unsigned long array_count(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, size_t size,
                                 const char *what, unsigned long *declared)
{
    unsigned long n, avail;
    if (!dump_require_bytes(d, c, r, 2, "count")) {
        *declared = 0;
        return 0;
    }
    n = kf3ds_read_u16(r);
    *declared = n;
    dump_fld_uint(d, "count", n);
    avail = (unsigned long)(kf3ds_reader_left(r) / size);
    if (avail < n) {
        dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "%s: %lu declared, the payload holds only %lu",
                        what, n, avail);
        return avail;
    }
    return n;
}

static unsigned long shown_count(const dumper *d, unsigned long n)
{
    return d->full || n < DUMP_FEW ? n : DUMP_FEW;
}

/* ---- decoders of the chunks with arrays or special fields ------------------ */

/* The entries of a counted array: `width` floats or u16s each. */
typedef enum array_entry { ENTRY_F32, ENTRY_U16 } array_entry;

#define ARRAY_MAX_WIDTH 4

/* A u16 count and the entries after it, listed under `list_key` (the first
 * DUMP_FEW without --full; the rest are left unread). `what` names the
 * entries in a report of fewer than declared. Returns the entries present. */
static unsigned long list_array(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r,
                                const char *what, const char *list_key, array_entry type,
                                int width, unsigned long *declared)
{
    size_t entry_size = (size_t)width * (type == ENTRY_F32 ? 4 : 2);
    unsigned long n = array_count(d, c, r, entry_size, what, declared), i, shown;
    int j;
    shown = shown_count(d, n);
    dump_list_begin(d, list_key);
    for (i = 0; i < shown; i++) {
        if (type == ENTRY_F32) {
            float v[ARRAY_MAX_WIDTH];
            dump_read_floats(r, v, width);
            dump_item_vec(d, i, v, width);
        } else {
            unsigned long v[ARRAY_MAX_WIDTH];
            for (j = 0; j < width; j++)
                v[j] = kf3ds_read_u16(r);
            dump_item_ints(d, i, v, width);
        }
    }
    dump_list_end(d, shown, *declared);
    return n;
}

int dump_dec_points(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared;
    (void)ctx;
    return list_array(d, c, r, "points", "points", ENTRY_F32, 3, &declared) == declared;
}

int dump_dec_texverts(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared;
    (void)ctx;
    return list_array(d, c, r, "texture coordinates", "texcoords", ENTRY_F32, 2, &declared) ==
           declared;
}

int dump_dec_point_flags(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared;
    (void)ctx;
    return list_array(d, c, r, "point flags", "flags", ENTRY_U16, 1, &declared) == declared;
}

int dump_dec_faces(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared, n = list_array(d, c, r, "faces", "faces", ENTRY_U16, 4, &declared);
    if (n != declared || r->short_read)
        return 0;
    /* the sub-chunks follow the faces */
    skip_bytes(r, (size_t)(n - shown_count(d, n)) * 8);
    ctx->num_faces = (uint32_t)n;
    ctx->has_faces = 1;
    return 1;
}

int dump_dec_mat_group(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared, n;
    (void)ctx;
    if (!read_str_field(d, c, r, "material"))
        return 0;
    n = list_array(d, c, r, "face indices", "faces", ENTRY_U16, 1, &declared);
    return n == declared && !r->short_read;
}

int dump_dec_smooth(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long avail = (unsigned long)(kf3ds_reader_left(r) / 4), n = avail, i, shown;
    if (ctx->has_faces) {
        n = ctx->num_faces;
        if (avail < n) {
            dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c,
                            "%lu %s %lu smoothing %s, the payload holds only %lu", n,
                            cli_plural(n, "face needs", "faces need"), n,
                            cli_plural(n, "group", "groups"), avail);
            n = avail;
        }
    }
    dump_fld_uint(d, "count", n);
    shown = shown_count(d, n);
    dump_list_begin(d, "groups");
    for (i = 0; i < shown; i++)
        dump_item_hex(d, i, kf3ds_read_u32(r));
    dump_list_end(d, shown, n);
    return 1;
}

int dump_dec_boxmap(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    static const char *const sides[6] = { "front", "back", "left", "right", "top", "bottom" };
    int i;
    (void)ctx;
    dump_list_begin(d, "maps");
    for (i = 0; i < 6; i++) {
        size_t len = 0;
        int term = 0;
        const char *s;
        if (kf3ds_reader_left(r) == 0) {
            dump_list_end(d, 0, 0);
            dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "payload ends before the %s map name",
                            sides[i]);
            return 0;
        }
        s = kf3ds_read_cstr(r, &len, &term);
        dump_item_str(d, (unsigned long)i, s, len);
        if (!term) {
            dump_list_end(d, 0, 0);
            dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "%s map name is not terminated", sides[i]);
            return 0;
        }
    }
    dump_list_end(d, 0, 0);
    return 1;
}

int dump_dec_mesh_matrix(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    float m[12];
    double det;
    (void)ctx;
    if (!dump_require_bytes(d, c, r, 48, "12 floats"))
        return 0;
    dump_read_floats(r, m, 12);
    dump_fld_vec(d, "x_axis", m, 3);
    dump_fld_vec(d, "y_axis", m + 3, 3);
    dump_fld_vec(d, "z_axis", m + 6, 3);
    dump_fld_vec(d, "origin", m + 9, 3);
    /* det of the 3x3 whose columns are the axes */
    det = (double)m[0] * ((double)m[4] * m[8] - (double)m[7] * m[5]) -
          (double)m[3] * ((double)m[1] * m[8] - (double)m[7] * m[2]) +
          (double)m[6] * ((double)m[1] * m[5] - (double)m[4] * m[2]);
    dump_fld_float(d, "det", det);
    dump_fld_flag(d, "mirrored", det < 0);
    return 1;
}

int dump_dec_texture_info(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    float m[12];
    (void)ctx;
    if (!dump_decode_layout(d, c, r, "u16:map_type v2:tile v3:icon_pos f32:icon_scale"))
        return 0;
    if (!dump_require_bytes(d, c, r, 48, "matrix"))
        return 0;
    dump_read_floats(r, m, 12);
    dump_fld_vec(d, "matrix", m, 12);
    return dump_decode_layout(d, c, r, "v2:icon_size f32:cyl_height");
}

int dump_dec_shading(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    static const char *const names[] = { "wire", "flat", "gouraud", "phong", "metal" };
    unsigned v;
    (void)ctx;
    if (!dump_require_bytes(d, c, r, 2, "shading"))
        return 0;
    v = kf3ds_read_u16(r);
    d->bare = 1;
    dump_fld_uint(d, "shading", v);
    d->bare = 0;
    if (v < 5)
        dump_txt_word(d, names[v]);
    return 1;
}

/* SHADOW_RANGE: an i32 in lib3ds, an i16 in some files. */
int dump_dec_shadow_range(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    (void)ctx;
    d->bare = 1;
    if (kf3ds_reader_left(r) >= 4)
        dump_fld_int(d, "range", (long)kf3ds_read_i32(r));
    else if (kf3ds_reader_left(r) >= 2)
        dump_fld_int(d, "range", (long)kf3ds_read_i16(r));
    else
        r->short_read = 1;
    d->bare = 0;
    return check_short(d, c, r, "range");
}

/* Finds the scene node read from the node chunk at `offset`: the n-th node
 * chunk of KFDATA is normally scene->nodes[n]; else binary search by offset. */
static int32_t scene_node_at(const dumper *d, uint32_t guess, uint32_t offset)
{
    const kf3ds_scene *s = d->scene;
    uint32_t lo = 0, hi;
    if (!s || !s->nodes || !s->num_nodes)
        return -1;
    if (guess < s->num_nodes && s->nodes[guess].offset == offset)
        return (int32_t)guess;
    hi = s->num_nodes;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->nodes[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->num_nodes && s->nodes[lo].offset == offset)
        return (int32_t)lo;
    return -1;
}

int dump_dec_node_tag(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    (void)r;
    ctx->node = scene_node_at(d, d->kf_nodes_seen, c->offset);
    d->kf_nodes_seen++;
    if (ctx->node >= 0)
        dump_fld_uint(d, "node", (unsigned long)ctx->node);
    return 1;
}

int dump_dec_node_hdr(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned parent;
    if (!read_str_field(d, c, r, "name"))
        return 0;
    if (!dump_require_bytes(d, c, r, 6, "flags and parent"))
        return 0;
    dump_fld_hex(d, "flags1", kf3ds_read_u16(r), 4);
    dump_fld_hex(d, "flags2", kf3ds_read_u16(r), 4);
    parent = kf3ds_read_u16(r);
    dump_fld_int(d, "parent", parent == NODE_HDR_NO_PARENT ? -1L : (long)parent);
    if (d->scene && ctx->node >= 0 && (uint32_t)ctx->node < d->scene->num_nodes) {
        int32_t p = d->scene->nodes[ctx->node].parent;
        dump_fld_int(d, "parent_node", p >= 0 && (uint32_t)p < d->scene->num_nodes ? (long)p : -1L);
    }
    return 1;
}
