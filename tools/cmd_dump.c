/* kf3ds dump FILE [--json] [--full] — the chunk tree with decoded payloads.
 *
 * The walk uses only the library's bounds-checked reader (kf3ds_reader,
 * kf3ds_read_*, kf3ds_chunk_next). Known containers are descended into (up to
 * DUMP_MAX_DEPTH levels; recursion depth is bounded by it), unknown chunks are
 * shown with the name "?" and skipped. The file is also loaded with
 * kf3ds_load_memory, for the accumulated rotation quaternions (the library's
 * are authoritative when keys were out of order) and the resolved node indices. */
#include "cmd.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_MAX_DEPTH 64   /* chunk nesting levels shown: depths 0..63 */
#define DUMP_FEW 8          /* array entries shown without --full */
#define DUMP_MAX_DIAGS 1000

/* ------------------------------------------------------------------------ */
/* State                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct dump_diag {
    kf3ds_diag d;
    uint32_t start, end;    /* the chunk (or parent) range it concerns */
} dump_diag;

typedef struct dumper {
    FILE *out;
    int json, full;
    const kf3ds_scene *scene;   /* NULL when the library could not load the file */
    /* output state */
    int need_comma;             /* JSON: a value was written at this level */
    int line_open;              /* text: a line is being written */
    int nfields;                /* text: fields on the current line */
    const char *first_sep;      /* text: before the first field of the line */
    int bare;                   /* text: print field values without their key */
    int depth;                  /* depth of the chunk being printed */
    /* diagnostics found by the walk */
    dump_diag *diags;
    size_t num_diags, cap_diags;
    unsigned long dropped;
    int errors;
    int lenient;                /* decoding a chunk the library does not read:
                                   a short payload there is only a warning */
    uint32_t kf_nodes_seen;     /* node chunks met in KFDATA so far */
} dumper;

/* What the children of a chunk need to know about their ancestors. */
typedef struct dump_ctx {
    int32_t node;               /* scene node of the enclosing node tag, or -1 */
    uint32_t num_faces;         /* inside FACE_ARRAY: its face count */
    int has_faces;
} dump_ctx;

static void add_diag(dumper *d, kf3ds_status code, uint32_t offset, uint16_t id,
                     uint32_t start, uint32_t end, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static void add_diag(dumper *d, kf3ds_status code, uint32_t offset, uint16_t id,
                     uint32_t start, uint32_t end, const char *fmt, ...)
{
    dump_diag *x;
    const char *name;
    va_list ap;
    kf3ds_severity sev = code < KF3DS_WARN_OVERRUN ? KF3DS_ERROR : KF3DS_WARNING;
    if (d->lenient && code == KF3DS_ERR_TRUNCATED)
        sev = KF3DS_WARNING;
    if (sev == KF3DS_ERROR)
        d->errors++;
    if (d->num_diags >= DUMP_MAX_DIAGS) {
        d->dropped++;
        return;
    }
    if (d->num_diags == d->cap_diags) {
        size_t cap = d->cap_diags ? d->cap_diags * 2 : 16;
        dump_diag *n = realloc(d->diags, cap * sizeof *n);
        if (!n) {
            d->dropped++;
            return;
        }
        d->diags = n;
        d->cap_diags = cap;
    }
    x = &d->diags[d->num_diags++];
    memset(x, 0, sizeof *x);
    x->d.code = code;
    x->d.severity = sev;
    x->d.offset = offset;
    x->d.chunk_id = id;
    name = id ? kf3ds_chunk_name(id) : "";
    x->d.chunk_name = name ? name : "?";
    va_start(ap, fmt);
    vsnprintf(x->d.message, sizeof x->d.message, fmt, ap);
    va_end(ap);
    x->start = start;
    x->end = end;
}

static void chunk_diag(dumper *d, kf3ds_status code, const kf3ds_chunk *c, const char *fmt,
                       ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void chunk_diag(dumper *d, kf3ds_status code, const kf3ds_chunk *c, const char *fmt, ...)
{
    char msg[sizeof ((kf3ds_diag *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add_diag(d, code, c->offset, c->id, c->offset, c->end, "%s", msg);
}

/* ------------------------------------------------------------------------ */
/* Emitter: the same calls produce the text tree or the JSON tree           */
/* ------------------------------------------------------------------------ */

static void end_line(dumper *d)
{
    if (!d->json && d->line_open) {
        fputc('\n', d->out);
        d->line_open = 0;
    }
}

static void comma(dumper *d)
{
    if (d->need_comma)
        fputc(',', d->out);
    d->need_comma = 0;
}

/* Text: a new line of fields, whose first field follows `first_sep`. */
static void start_text_line(dumper *d, const char *first_sep)
{
    d->line_open = 1;
    d->nfields = 0;
    d->first_sep = first_sep;
}

/* Text: what goes before the next field of the line. */
static void text_field_sep(dumper *d)
{
    fputs(d->nfields ? " " : d->first_sep, d->out);
    d->nfields++;
}

/* JSON: closes an object or array with `closer`; text: ends the line. */
static void close_value(dumper *d, const char *closer)
{
    if (d->json) {
        fputs(closer, d->out);
        d->need_comma = 1;
    } else {
        end_line(d);
    }
}

/* Starts a field: the JSON key or the text separator and key. */
static void key(dumper *d, const char *k)
{
    if (d->json) {
        comma(d);
        cli_json_cstr(d->out, k);
        fputc(':', d->out);
    } else {
        text_field_sep(d);
        if (!d->bare)
            fprintf(d->out, "%s ", k);
    }
}

static void fld_uint(dumper *d, const char *k, unsigned long v)
{
    key(d, k);
    fprintf(d->out, "%lu", v);
    d->need_comma = 1;
}

static void fld_int(dumper *d, const char *k, long v)
{
    key(d, k);
    fprintf(d->out, "%ld", v);
    d->need_comma = 1;
}

/* JSON a plain number, text 0x and `digits` hex digits. */
static void put_hex(dumper *d, unsigned long v, int digits)
{
    if (d->json)
        fprintf(d->out, "%lu", v);
    else
        fprintf(d->out, "0x%0*lX", digits, v);
}

static void fld_hex(dumper *d, const char *k, unsigned long v, int digits)
{
    key(d, k);
    put_hex(d, v, digits);
    d->need_comma = 1;
}

static void put_float(dumper *d, double v)
{
    if (d->json)
        cli_json_number(d->out, v);
    else
        fprintf(d->out, "%g", cli_text_float(v));
}

static void fld_float(dumper *d, const char *k, double v)
{
    key(d, k);
    put_float(d, v);
    d->need_comma = 1;
}

static void put_vec(dumper *d, const float *v, int n)
{
    int i;
    fputs(d->json ? "[" : "(", d->out);
    for (i = 0; i < n; i++) {
        if (i)
            fputs(d->json ? "," : ", ", d->out);
        put_float(d, v[i]);
    }
    fputs(d->json ? "]" : ")", d->out);
}

static void fld_vec(dumper *d, const char *k, const float *v, int n)
{
    key(d, k);
    put_vec(d, v, n);
    d->need_comma = 1;
}

static void put_ints(dumper *d, const unsigned long *v, int n)
{
    int i;
    fputs(d->json ? "[" : "(", d->out);
    for (i = 0; i < n; i++)
        fprintf(d->out, i ? (d->json ? ",%lu" : ", %lu") : "%lu", v[i]);
    fputs(d->json ? "]" : ")", d->out);
}

static void fld_ints(dumper *d, const char *k, const unsigned long *v, int n)
{
    key(d, k);
    put_ints(d, v, n);
    d->need_comma = 1;
}

static void put_str(dumper *d, const char *s, size_t len)
{
    if (d->json) {
        cli_json_string(d->out, s, len);
    } else {
        fputc('"', d->out);
        cli_text_string(d->out, s, len);
        fputc('"', d->out);
    }
}

static void fld_str(dumper *d, const char *k, const char *s, size_t len)
{
    key(d, k);
    put_str(d, s, len);
    d->need_comma = 1;
}

/* A word shown in text only (e.g. the name of a shading mode). */
static void txt_word(dumper *d, const char *w)
{
    if (d->json)
        return;
    text_field_sep(d);
    fputs(w, d->out);
}

/* A bool field: JSON true/false, text its key alone when true. */
static void fld_flag(dumper *d, const char *k, int on)
{
    if (d->json) {
        key(d, k);
        fputs(on ? "true" : "false", d->out);
        d->need_comma = 1;
    } else if (on) {
        txt_word(d, k);
    }
}

static void indent_items(dumper *d)
{
    fprintf(d->out, "%*s", 2 * d->depth + 4, "");
}

/* A list of entries: JSON "k":[ ... ]; text: one line per entry. */
static void list_begin(dumper *d, const char *k)
{
    if (d->json) {
        key(d, k);
        fputc('[', d->out);
        d->need_comma = 0;
    } else {
        end_line(d);
    }
}

static void list_end(dumper *d, unsigned long shown, unsigned long total)
{
    close_value(d, "]");
    if (!d->json && shown < total) {
        indent_items(d);
        fprintf(d->out, "... %lu more (--full shows all)\n", total - shown);
    }
}

/* An entry that is an object with fields: JSON {..}; text "label:" and fields. */
static void item_begin(dumper *d, const char *label, unsigned long index)
{
    if (d->json) {
        comma(d);
        fputc('{', d->out);
        d->need_comma = 0;
    } else {
        end_line(d);
        indent_items(d);
        fprintf(d->out, "%s %lu:", label, index);
        start_text_line(d, " ");
    }
}

static void item_end(dumper *d)
{
    close_value(d, "}");
}

/* Entries that are plain values: JSON the value, text "[index] value" on a
 * line of its own. These two go around the value. */
static void item_value_begin(dumper *d, unsigned long index)
{
    if (d->json) {
        comma(d);
    } else {
        indent_items(d);
        fprintf(d->out, "[%lu] ", index);
    }
}

static void item_value_end(dumper *d)
{
    if (!d->json)
        fputc('\n', d->out);
    d->need_comma = 1;
}

static void item_vec(dumper *d, unsigned long index, const float *v, int n)
{
    item_value_begin(d, index);
    put_vec(d, v, n);
    item_value_end(d);
}

static void item_ints(dumper *d, unsigned long index, const unsigned long *v, int n)
{
    item_value_begin(d, index);
    if (n == 1)
        fprintf(d->out, "%lu", v[0]);
    else
        put_ints(d, v, n);
    item_value_end(d);
}

static void item_hex(dumper *d, unsigned long index, unsigned long v)
{
    item_value_begin(d, index);
    put_hex(d, v, 8);
    item_value_end(d);
}

static void item_str(dumper *d, unsigned long index, const char *s, size_t len)
{
    item_value_begin(d, index);
    put_str(d, s, len);
    item_value_end(d);
}

static void chunk_begin(dumper *d, const kf3ds_chunk *c, const char *name, int depth, int clamped)
{
    d->depth = depth;
    d->bare = 0;
    if (d->json) {
        comma(d);
        fprintf(d->out, "\n{\"offset\":%lu,\"id\":\"0x%04X\",\"name\":", (unsigned long)c->offset,
                (unsigned)c->id);
        cli_json_cstr(d->out, name);
        fprintf(d->out, ",\"length\":%lu", (unsigned long)c->length);
        if (clamped)
            fprintf(d->out, ",\"clamped_length\":%lu", (unsigned long)(c->end - c->offset));
        fputs(",\"fields\":{", d->out);
        d->need_comma = 0;
    } else {
        end_line(d);
        fprintf(d->out, "%*s0x%06lX 0x%04X ", 2 * depth, "", (unsigned long)c->offset,
                (unsigned)c->id);
        cli_text_cstr(d->out, name);
        fprintf(d->out, " len %lu", (unsigned long)c->length);
        if (clamped)
            fprintf(d->out, " (clamped to %lu)", (unsigned long)(c->end - c->offset));
        start_text_line(d, ": ");
    }
}

/* Closes the fields and opens the children. */
static void chunk_children(dumper *d)
{
    d->bare = 0;
    if (d->json) {
        fputs("},\"children\":[", d->out);
        d->need_comma = 0;
    } else {
        end_line(d);
    }
}

static void chunk_end(dumper *d)
{
    close_value(d, "]}");
}

/* ------------------------------------------------------------------------ */
/* Payload helpers                                                          */
/* ------------------------------------------------------------------------ */

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

static void read_floats(kf3ds_reader *r, float *v, int n)
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
        chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "payload ends before its %s string", k);
        return 0;
    }
    s = kf3ds_read_cstr(r, &len, &term);
    fld_str(d, k, s, len);
    if (!term) {
        chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "%s string is not terminated before the chunk ends",
                   k);
        return 0;
    }
    return 1;
}

/* Reports a payload shorter than its fixed fields. */
static int check_short(dumper *d, const kf3ds_chunk *c, const kf3ds_reader *r, const char *what)
{
    if (!r->short_read)
        return 1;
    chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "payload ends before its %s (chunk has %lu bytes)",
               what, (unsigned long)(c->end - c->offset));
    return 0;
}

/* 1 when at least `need` payload bytes are left; else marks a short read
 * and reports it (the payload ends before `what`), 0. */
static int require_bytes(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, size_t need,
                         const char *what)
{
    if (kf3ds_reader_left(r) >= need)
        return 1;
    r->short_read = 1;
    return check_short(d, c, r, what);
}

/* Decodes fields described by a layout string: space-separated "type:key"
 * with type u8 u16 i16 x16 u32 i32 x32 f32 f64 v2 v3 c24 str. Returns 0 when
 * the payload was too short (reported). */
static int decode_layout(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, const char *layout)
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
            if (!require_bytes(d, c, r, need, k)) {
                d->bare = 0;
                return 0;
            }
        }
        if (strcmp(type, "u8") == 0) {
            fld_uint(d, k, kf3ds_read_u8(r));
        } else if (strcmp(type, "u16") == 0) {
            fld_uint(d, k, kf3ds_read_u16(r));
        } else if (strcmp(type, "i16") == 0) {
            fld_int(d, k, kf3ds_read_i16(r));
        } else if (strcmp(type, "x16") == 0) {
            fld_hex(d, k, kf3ds_read_u16(r), 4);
        } else if (strcmp(type, "u32") == 0) {
            fld_uint(d, k, kf3ds_read_u32(r));
        } else if (strcmp(type, "i32") == 0) {
            fld_int(d, k, (long)kf3ds_read_i32(r));
        } else if (strcmp(type, "x32") == 0) {
            fld_hex(d, k, kf3ds_read_u32(r), 8);
        } else if (strcmp(type, "f32") == 0) {
            fld_float(d, k, kf3ds_read_f32(r));
        } else if (strcmp(type, "f64") == 0) {
            fld_float(d, k, read_f64(r));
        } else if (strcmp(type, "v2") == 0 || strcmp(type, "v3") == 0) {
            float v[3];
            int n = type[1] - '0';
            read_floats(r, v, n);
            fld_vec(d, k, v, n);
        } else if (strcmp(type, "c24") == 0) {
            unsigned long v[3];
            v[0] = kf3ds_read_u8(r);
            v[1] = kf3ds_read_u8(r);
            v[2] = kf3ds_read_u8(r);
            fld_ints(d, k, v, 3);
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
    if (!require_bytes(d, c, r, 2, "count")) {
        *declared = 0;
        return 0;
    }
    n = kf3ds_read_u16(r);
    *declared = n;
    fld_uint(d, "count", n);
    avail = (unsigned long)(kf3ds_reader_left(r) / size);
    if (avail < n) {
        chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "%lu %s declared, the payload holds only %lu", n,
                   what, avail);
        return avail;
    }
    return n;
}

static unsigned long shown_count(const dumper *d, unsigned long n)
{
    return d->full || n < DUMP_FEW ? n : DUMP_FEW;
}

/* ------------------------------------------------------------------------ */
/* Decoders of the chunks with arrays or special fields                     */
/* ------------------------------------------------------------------------ */

typedef int (*decode_fn)(dumper *d, const kf3ds_chunk *c, kf3ds_reader *body, dump_ctx *ctx);

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
    list_begin(d, list_key);
    for (i = 0; i < shown; i++) {
        if (type == ENTRY_F32) {
            float v[ARRAY_MAX_WIDTH];
            read_floats(r, v, width);
            item_vec(d, i, v, width);
        } else {
            unsigned long v[ARRAY_MAX_WIDTH];
            for (j = 0; j < width; j++)
                v[j] = kf3ds_read_u16(r);
            item_ints(d, i, v, width);
        }
    }
    list_end(d, shown, *declared);
    return n;
}

static int dec_points(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared;
    (void)ctx;
    return list_array(d, c, r, "points", "points", ENTRY_F32, 3, &declared) == declared;
}

static int dec_texverts(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared;
    (void)ctx;
    return list_array(d, c, r, "texture coordinates", "texcoords", ENTRY_F32, 2, &declared) ==
           declared;
}

static int dec_point_flags(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared;
    (void)ctx;
    return list_array(d, c, r, "point flags", "flags", ENTRY_U16, 1, &declared) == declared;
}

static int dec_faces(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
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

static int dec_mat_group(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long declared, n;
    (void)ctx;
    if (!read_str_field(d, c, r, "material"))
        return 0;
    n = list_array(d, c, r, "face indices", "faces", ENTRY_U16, 1, &declared);
    return n == declared && !r->short_read;
}

static int dec_smooth(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned long avail = (unsigned long)(kf3ds_reader_left(r) / 4), n = avail, i, shown;
    if (ctx->has_faces) {
        n = ctx->num_faces;
        if (avail < n) {
            chunk_diag(d, KF3DS_ERR_TRUNCATED, c,
                       "%lu faces need %lu smoothing groups, the payload holds only %lu", n, n,
                       avail);
            n = avail;
        }
    }
    fld_uint(d, "count", n);
    shown = shown_count(d, n);
    list_begin(d, "groups");
    for (i = 0; i < shown; i++)
        item_hex(d, i, kf3ds_read_u32(r));
    list_end(d, shown, n);
    return 1;
}

static int dec_boxmap(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    static const char *const sides[6] = { "front", "back", "left", "right", "top", "bottom" };
    int i;
    (void)ctx;
    list_begin(d, "maps");
    for (i = 0; i < 6; i++) {
        size_t len = 0;
        int term = 0;
        const char *s;
        if (kf3ds_reader_left(r) == 0) {
            list_end(d, 0, 0);
            chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "payload ends before the %s map name",
                       sides[i]);
            return 0;
        }
        s = kf3ds_read_cstr(r, &len, &term);
        item_str(d, (unsigned long)i, s, len);
        if (!term) {
            list_end(d, 0, 0);
            chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "%s map name is not terminated", sides[i]);
            return 0;
        }
    }
    list_end(d, 0, 0);
    return 1;
}

static int dec_mesh_matrix(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    float m[12];
    double det;
    (void)ctx;
    if (!require_bytes(d, c, r, 48, "12 floats"))
        return 0;
    read_floats(r, m, 12);
    fld_vec(d, "x_axis", m, 3);
    fld_vec(d, "y_axis", m + 3, 3);
    fld_vec(d, "z_axis", m + 6, 3);
    fld_vec(d, "origin", m + 9, 3);
    /* det of the 3x3 whose columns are the axes */
    det = (double)m[0] * ((double)m[4] * m[8] - (double)m[7] * m[5]) -
          (double)m[3] * ((double)m[1] * m[8] - (double)m[7] * m[2]) +
          (double)m[6] * ((double)m[1] * m[5] - (double)m[4] * m[2]);
    fld_float(d, "det", det);
    fld_flag(d, "mirrored", det < 0);
    return 1;
}

static int dec_texture_info(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    float m[12];
    (void)ctx;
    if (!decode_layout(d, c, r, "u16:map_type v2:tile v3:icon_pos f32:icon_scale"))
        return 0;
    if (!require_bytes(d, c, r, 48, "matrix"))
        return 0;
    read_floats(r, m, 12);
    fld_vec(d, "matrix", m, 12);
    return decode_layout(d, c, r, "v2:icon_size f32:cyl_height");
}

static int dec_shading(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    static const char *const names[] = { "wire", "flat", "gouraud", "phong", "metal" };
    unsigned v;
    (void)ctx;
    if (!require_bytes(d, c, r, 2, "shading"))
        return 0;
    v = kf3ds_read_u16(r);
    d->bare = 1;
    fld_uint(d, "shading", v);
    d->bare = 0;
    if (v < 5)
        txt_word(d, names[v]);
    return 1;
}

/* SHADOW_RANGE: an i32 in lib3ds, an i16 in some files. */
static int dec_shadow_range(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    (void)ctx;
    d->bare = 1;
    if (kf3ds_reader_left(r) >= 4)
        fld_int(d, "range", (long)kf3ds_read_i32(r));
    else if (kf3ds_reader_left(r) >= 2)
        fld_int(d, "range", (long)kf3ds_read_i16(r));
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

static int dec_node_tag(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    (void)r;
    ctx->node = scene_node_at(d, d->kf_nodes_seen, c->offset);
    d->kf_nodes_seen++;
    if (ctx->node >= 0)
        fld_uint(d, "node", (unsigned long)ctx->node);
    return 1;
}

static int dec_node_hdr(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    unsigned parent;
    if (!read_str_field(d, c, r, "name"))
        return 0;
    if (!require_bytes(d, c, r, 6, "flags and parent"))
        return 0;
    fld_hex(d, "flags1", kf3ds_read_u16(r), 4);
    fld_hex(d, "flags2", kf3ds_read_u16(r), 4);
    parent = kf3ds_read_u16(r);
    fld_int(d, "parent", parent == 0xFFFF ? -1L : (long)parent);
    if (d->scene && ctx->node >= 0 && (uint32_t)ctx->node < d->scene->num_nodes) {
        int32_t p = d->scene->nodes[ctx->node].parent;
        fld_int(d, "parent_node", p >= 0 && (uint32_t)p < d->scene->num_nodes ? (long)p : -1L);
    }
    return 1;
}

/* ---- tracks -------------------------------------------------------------- */

typedef struct raw_key {
    int32_t frame;
    unsigned flags;
    float tcb[5];
    float value[4];
    const char *name;
    size_t name_len;
} raw_key;

/* Reads one key; 0 when the payload ends inside it. */
static int read_key(kf3ds_reader *r, kf3ds_track_kind kind, raw_key *k)
{
    int b;
    memset(k, 0, sizeof *k);
    if (kf3ds_reader_left(r) < 6)
        return 0;
    k->frame = kf3ds_read_i32(r);
    k->flags = kf3ds_read_u16(r);
    for (b = 0; b < 5; b++)
        if (k->flags & (1u << b))
            k->tcb[b] = kf3ds_read_f32(r);
    switch (kind) {
    case KF3DS_TRACK_POS:
    case KF3DS_TRACK_SCL:
    case KF3DS_TRACK_COL:
        read_floats(r, k->value, 3);
        break;
    case KF3DS_TRACK_ROT:
        read_floats(r, k->value, 4);
        break;
    case KF3DS_TRACK_FOV:
    case KF3DS_TRACK_ROLL:
    case KF3DS_TRACK_HOT:
    case KF3DS_TRACK_FALL:
        k->value[0] = kf3ds_read_f32(r);
        break;
    case KF3DS_TRACK_MORPH: {
        int term = 0;
        if (kf3ds_reader_left(r) == 0)
            return 0;
        k->name = kf3ds_read_cstr(r, &k->name_len, &term);
        if (!term)
            return 0;
        break;
    }
    default:
        break;
    }
    return !r->short_read;
}

/* q(axis, -angle) ⊗ prev, the accumulation rule of the keyframer. */
static void accumulate(const float value[4], double q[4])
{
    double ax = value[1], ay = value[2], az = value[3];
    double len = sqrt(ax * ax + ay * ay + az * az);
    double k[4], out[4];
    if (!(len > 0.0) || isinf(len) || isnan((double)value[0])) {
        return; /* zero (or unusable) axis: the identity, Q unchanged */
    }
    {
        double h = -(double)value[0] / 2.0, s = sin(h) / len;
        k[0] = ax * s;
        k[1] = ay * s;
        k[2] = az * s;
        k[3] = cos(h);
    }
    out[3] = k[3] * q[3] - k[0] * q[0] - k[1] * q[1] - k[2] * q[2];
    out[0] = k[3] * q[0] + k[0] * q[3] + k[1] * q[2] - k[2] * q[1];
    out[1] = k[3] * q[1] - k[0] * q[2] + k[1] * q[3] + k[2] * q[0];
    out[2] = k[3] * q[2] + k[0] * q[1] - k[1] * q[0] + k[2] * q[3];
    memcpy(q, out, sizeof out);
}

typedef struct frame_rank {
    int32_t frame;
    uint32_t index;
} frame_rank;

static int cmp_frame_rank(const void *a, const void *b)
{
    const frame_rank *x = a, *y = b;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* For each raw key (file order) its index among the scene's sorted keys:
 * the library sorts stably, so it is the key's rank by (frame, file order).
 * NULL when the scene's track cannot be matched (then the quaternions are
 * accumulated here from the raw keys). */
static uint32_t *scene_key_ranks(const kf3ds_track *t, kf3ds_reader r, uint32_t declared)
{
    frame_rank *fr;
    uint32_t *rank, n = 0, i;
    int sorted = 1;
    if (!t || !t->keys || t->num_keys != declared || declared == 0)
        return NULL;
    fr = malloc(sizeof *fr * declared);
    rank = malloc(sizeof *rank * declared);
    if (!fr || !rank) {
        free(fr);
        free(rank);
        return NULL;
    }
    for (n = 0; n < declared; n++) {
        raw_key k;
        if (!read_key(&r, KF3DS_TRACK_ROT, &k))
            break;
        fr[n].frame = k.frame;
        fr[n].index = n;
        if (n && k.frame < fr[n - 1].frame)
            sorted = 0;
    }
    if (n != declared) {
        free(fr);
        free(rank);
        return NULL;
    }
    if (!sorted)
        qsort(fr, n, sizeof *fr, cmp_frame_rank);
    for (i = 0; i < n; i++) {
        rank[fr[i].index] = i;
        if (t->keys[i].frame != fr[i].frame) { /* not the track the scene holds */
            free(fr);
            free(rank);
            return NULL;
        }
    }
    free(fr);
    return rank;
}

static int dec_track(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    static const char *const tcb_names[5] = { "tension", "continuity", "bias", "ease_to",
                                              "ease_from" };
    kf3ds_track_kind kind = (kf3ds_track_kind)(c->id - 0xB020);
    const kf3ds_track *scene_track = NULL;
    uint32_t declared, i, *ranks = NULL;
    unsigned long shown_keys = 0;
    double q[4] = { 0, 0, 0, 1 };
    int ok = 1;

    if (!require_bytes(d, c, r, 14, "14-byte track header"))
        return 0;
    fld_hex(d, "flags", kf3ds_read_u16(r), 4);
    {
        unsigned long u[2];
        u[0] = kf3ds_read_u32(r);
        u[1] = kf3ds_read_u32(r);
        fld_ints(d, "unknown", u, 2);
    }
    declared = kf3ds_read_u32(r);
    fld_uint(d, "count", declared);
    if (kind == KF3DS_TRACK_ROT && d->scene && ctx->node >= 0 &&
        (uint32_t)ctx->node < d->scene->num_nodes) {
        scene_track = &d->scene->nodes[ctx->node].tracks[KF3DS_TRACK_ROT];
        ranks = scene_key_ranks(scene_track, *r, declared);
    }
    list_begin(d, "keys");
    for (i = 0; i < declared; i++) {
        raw_key k;
        int b;
        if (kf3ds_reader_left(r) == 0) {
            chunk_diag(d, KF3DS_ERR_TRUNCATED, c,
                       "track declares %lu keys, the payload ends after %lu",
                       (unsigned long)declared, (unsigned long)i);
            ok = 0;
            break;
        }
        if (!read_key(r, kind, &k)) {
            chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "key %lu of %lu is cut short",
                       (unsigned long)i, (unsigned long)declared);
            ok = 0;
            break;
        }
        item_begin(d, "key", i);
        fld_int(d, "frame", (long)k.frame);
        fld_hex(d, "spline_flags", k.flags, 4);
        for (b = 0; b < 5; b++)
            if (k.flags & (1u << b))
                fld_float(d, tcb_names[b], k.tcb[b]);
        switch (kind) {
        case KF3DS_TRACK_POS:
        case KF3DS_TRACK_SCL:
        case KF3DS_TRACK_COL:
            fld_vec(d, "value", k.value, 3);
            break;
        case KF3DS_TRACK_FOV:
        case KF3DS_TRACK_ROLL:
        case KF3DS_TRACK_HOT:
        case KF3DS_TRACK_FALL:
            fld_float(d, "value", k.value[0]);
            break;
        case KF3DS_TRACK_MORPH:
            fld_str(d, "name", k.name, k.name_len);
            break;
        case KF3DS_TRACK_ROT: {
            float qf[4];
            accumulate(k.value, q);
            if (ranks) {
                memcpy(qf, scene_track->keys[ranks[i]].quat, sizeof qf);
            } else {
                qf[0] = (float)q[0];
                qf[1] = (float)q[1];
                qf[2] = (float)q[2];
                qf[3] = (float)q[3];
            }
            fld_float(d, "angle", k.value[0]);
            fld_vec(d, "axis", k.value + 1, 3);
            fld_vec(d, "quat", qf, 4);
            break;
        }
        default:
            break;
        }
        item_end(d);
        shown_keys++;
    }
    list_end(d, shown_keys, shown_keys);
    free(ranks);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* The table of known chunks                                                */
/* ------------------------------------------------------------------------ */

#define CONTAINER 1
#define LENIENT 2   /* not read by the library: short payloads are warnings */

typedef struct chunk_spec {
    uint16_t id;
    unsigned flags;
    const char *layout;   /* fixed fields (decode_layout) or NULL */
    decode_fn decode;     /* custom decoder or NULL */
} chunk_spec;

/* Colour and percentage holders, map chunks: containers without own data. */
static const chunk_spec specs[] = {
    { 0x0002, 0, "u32:version", NULL },
    { 0x0005, LENIENT, "u32:version", NULL },
    { 0x0010, 0, "v3:rgb", NULL },
    { 0x0011, 0, "c24:rgb", NULL },
    { 0x0012, 0, "c24:rgb", NULL },
    { 0x0013, 0, "v3:rgb", NULL },
    { 0x0030, 0, "i16:percent", NULL },
    { 0x0031, 0, "f32:percent", NULL },
    { 0x0032, LENIENT, "f64:percent", NULL },
    { 0x0100, 0, "f32:scale", NULL },
    { 0x1100, LENIENT, "str:file", NULL },
    { 0x1200, CONTAINER | LENIENT, "", NULL },
    { 0x1300, CONTAINER | LENIENT, "f32:midpoint", NULL },
    { 0x1400, LENIENT, "f32:bias", NULL },
    { 0x1410, LENIENT, "f32:bias", NULL },
    { 0x1420, LENIENT, "i16:size", NULL },
    { 0x1430, LENIENT, "i16:samples", NULL },
    { 0x1440, LENIENT, NULL, dec_shadow_range },
    { 0x1450, LENIENT, "f32:filter", NULL },
    { 0x1460, LENIENT, "f32:bias", NULL },
    { 0x1500, LENIENT, "v3:point", NULL },
    { 0x2100, CONTAINER, "", NULL },
    { 0x2200, CONTAINER | LENIENT, "f32:near f32:near_density f32:far f32:far_density", NULL },
    { 0x2300, CONTAINER | LENIENT, "f32:near f32:near_dim f32:far f32:far_dim", NULL },
    { 0x2302, CONTAINER | LENIENT, "f32:z_min f32:z_max f32:density x32:flags", NULL },
    { 0x2D2D, CONTAINER, "", NULL },
    { 0x2D3D, CONTAINER, "", NULL },
    { 0x3D3D, CONTAINER, "", NULL },
    { 0x3D3E, 0, "u32:version", NULL },
    { 0x3DAA, CONTAINER, "", NULL },
    { 0x3DFF, CONTAINER, "", NULL },
    { 0x4000, CONTAINER, "str:name", NULL },
    { 0x4100, CONTAINER, "", NULL },
    { 0x4110, 0, NULL, dec_points },
    { 0x4111, 0, NULL, dec_point_flags },
    { 0x4120, CONTAINER, NULL, dec_faces },
    { 0x4130, 0, NULL, dec_mat_group },
    { 0x4140, 0, NULL, dec_texverts },
    { 0x4150, 0, NULL, dec_smooth },
    { 0x4160, 0, NULL, dec_mesh_matrix },
    { 0x4165, 0, "u8:color", NULL },
    { 0x4170, LENIENT, NULL, dec_texture_info },
    { 0x4190, LENIENT, NULL, dec_boxmap },
    { 0x4600, CONTAINER, "v3:position", NULL },
    { 0x4610, CONTAINER, "v3:target f32:hotspot f32:falloff", NULL },
    { 0x4641, LENIENT, "f32:bias f32:filter i16:map_size", NULL },
    { 0x4653, LENIENT, "str:file", NULL },
    { 0x4654, LENIENT, "str:name", NULL },
    { 0x4655, LENIENT, "f32:range", NULL },
    { 0x4656, 0, "f32:roll", NULL },
    { 0x4657, LENIENT, "f32:aspect", NULL },
    { 0x4658, LENIENT, "f32:bias", NULL },
    { 0x4659, 0, "f32:range", NULL },
    { 0x465A, 0, "f32:range", NULL },
    { 0x465B, 0, "f32:multiplier", NULL },
    { 0x4700, CONTAINER, "v3:position v3:target f32:roll f32:lens", NULL },
    { 0x4720, 0, "f32:near f32:far", NULL },
    { 0x4D4D, CONTAINER, "", NULL },
    { 0xA000, 0, "str:name", NULL },
    { 0xA010, CONTAINER, "", NULL },
    { 0xA020, CONTAINER, "", NULL },
    { 0xA030, CONTAINER, "", NULL },
    { 0xA040, CONTAINER, "", NULL },
    { 0xA041, CONTAINER, "", NULL },
    { 0xA042, CONTAINER, "", NULL },
    { 0xA050, CONTAINER, "", NULL },
    { 0xA052, CONTAINER, "", NULL },
    { 0xA053, CONTAINER, "", NULL },
    { 0xA084, CONTAINER, "", NULL },
    { 0xA087, 0, "f32:size", NULL },
    { 0xA100, 0, NULL, dec_shading },
    { 0xA200, CONTAINER, "", NULL },
    { 0xA204, CONTAINER, "", NULL },
    { 0xA210, CONTAINER, "", NULL },
    { 0xA220, CONTAINER, "", NULL },
    { 0xA230, CONTAINER, "", NULL },
    { 0xA252, LENIENT, "i16:percent", NULL },
    { 0xA300, 0, "str:file", NULL },
    { 0xA33A, CONTAINER, "", NULL },
    { 0xA33C, CONTAINER, "", NULL },
    { 0xA33D, CONTAINER, "", NULL },
    { 0xA33E, CONTAINER, "", NULL },
    { 0xA340, CONTAINER, "", NULL },
    { 0xA342, CONTAINER, "", NULL },
    { 0xA344, CONTAINER, "", NULL },
    { 0xA346, CONTAINER, "", NULL },
    { 0xA348, CONTAINER, "", NULL },
    { 0xA34A, CONTAINER, "", NULL },
    { 0xA34C, CONTAINER, "", NULL },
    { 0xA351, 0, "x16:tiling", NULL },
    { 0xA353, 0, "f32:blur", NULL },
    { 0xA354, 0, "f32:u_scale", NULL },
    { 0xA356, 0, "f32:v_scale", NULL },
    { 0xA358, 0, "f32:u_offset", NULL },
    { 0xA35A, 0, "f32:v_offset", NULL },
    { 0xA35C, 0, "f32:angle", NULL },
    { 0xA360, LENIENT, "c24:rgb", NULL },
    { 0xA362, LENIENT, "c24:rgb", NULL },
    { 0xA364, LENIENT, "c24:rgb", NULL },
    { 0xA366, LENIENT, "c24:rgb", NULL },
    { 0xA368, LENIENT, "c24:rgb", NULL },
    { 0xAFFF, CONTAINER, "", NULL },
    { 0xB000, CONTAINER, "", NULL },
    { 0xB001, CONTAINER, NULL, dec_node_tag },
    { 0xB002, CONTAINER, NULL, dec_node_tag },
    { 0xB003, CONTAINER, NULL, dec_node_tag },
    { 0xB004, CONTAINER, NULL, dec_node_tag },
    { 0xB005, CONTAINER, NULL, dec_node_tag },
    { 0xB006, CONTAINER, NULL, dec_node_tag },
    { 0xB007, CONTAINER, NULL, dec_node_tag },
    { 0xB008, 0, "i32:start i32:end", NULL },
    { 0xB009, 0, "i32:frame", NULL },
    { 0xB00A, 0, "u16:revision str:file i32:length", NULL },
    { 0xB010, 0, NULL, dec_node_hdr },
    { 0xB011, 0, "str:name", NULL },
    { 0xB012, 0, "v3:scale", NULL },
    { 0xB013, 0, "v3:pivot", NULL },
    { 0xB014, 0, "v3:min v3:max", NULL },
    { 0xB015, 0, "f32:angle", NULL },
    { 0xB020, 0, NULL, dec_track },
    { 0xB021, 0, NULL, dec_track },
    { 0xB022, 0, NULL, dec_track },
    { 0xB023, 0, NULL, dec_track },
    { 0xB024, 0, NULL, dec_track },
    { 0xB025, 0, NULL, dec_track },
    { 0xB026, 0, NULL, dec_track },
    { 0xB027, 0, NULL, dec_track },
    { 0xB028, 0, NULL, dec_track },
    { 0xB029, 0, NULL, dec_track },
    { 0xB030, 0, "u16:id", NULL },
    { 0xC23D, CONTAINER, "", NULL },
};

static const chunk_spec *find_spec(uint16_t id)
{
    size_t lo = 0, hi = sizeof specs / sizeof specs[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (specs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sizeof specs / sizeof specs[0] && specs[lo].id == id ? &specs[lo] : NULL;
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                 */
/* ------------------------------------------------------------------------ */

static void walk(dumper *d, kf3ds_reader *parent, uint16_t parent_id, uint32_t parent_start,
                 int depth, dump_ctx ctx);

static void dump_chunk(dumper *d, const kf3ds_chunk *c, kf3ds_reader *body, int clamped,
                       int depth, dump_ctx ctx)
{
    const char *name = kf3ds_chunk_name(c->id);
    const chunk_spec *spec = name ? find_spec(c->id) : NULL;
    int ok = 1;

    chunk_begin(d, c, name ? name : "?", depth, clamped);
    d->lenient = spec && (spec->flags & LENIENT);
    if (spec) {
        if (c->id == 0xB000)
            d->kf_nodes_seen = 0;
        if (spec->decode)
            ok = spec->decode(d, c, body, &ctx);
        else if (spec->layout)
            ok = decode_layout(d, c, body, spec->layout);
    }
    d->lenient = 0;
    chunk_children(d);
    if (spec && (spec->flags & CONTAINER) && ok && !body->short_read)
        walk(d, body, c->id, c->offset, depth + 1, ctx);
    chunk_end(d);
}

static void walk(dumper *d, kf3ds_reader *parent, uint16_t parent_id, uint32_t parent_start,
                 int depth, dump_ctx ctx)
{
    for (;;) {
        size_t left = kf3ds_reader_left(parent), before = parent->pos;
        kf3ds_chunk c;
        kf3ds_reader body;
        kf3ds_chunk_result res;
        if (left == 0)
            return;
        if (left < 6) {
            add_diag(d, KF3DS_WARN_TRAILING, (uint32_t)before, parent_id, parent_start,
                     (uint32_t)parent->end,
                     "%lu stray bytes at the end, too few for a chunk header",
                     (unsigned long)left);
            parent->pos = parent->end;
            return;
        }
        if (depth >= DUMP_MAX_DEPTH) {
            kf3ds_reader peek = *parent;
            uint16_t id = kf3ds_read_u16(&peek);
            add_diag(d, KF3DS_ERR_LIMIT, (uint32_t)before, id, (uint32_t)before,
                     (uint32_t)parent->end,
                     "chunks nested deeper than %d levels; not descended", DUMP_MAX_DEPTH);
            parent->pos = parent->end;
            return;
        }
        res = kf3ds_chunk_next(parent, &c, &body);
        if (res == KF3DS_NEXT_NONE)
            return;
        if (res == KF3DS_NEXT_BAD) {
            kf3ds_reader peek = *parent;
            uint16_t id;
            uint32_t len;
            peek.pos = before;
            id = kf3ds_read_u16(&peek);
            len = kf3ds_read_u32(&peek);
            add_diag(d, KF3DS_ERR_CHUNK, (uint32_t)before, id, (uint32_t)before,
                     (uint32_t)parent->end,
                     "chunk length %lu is less than 6; rest of the parent skipped",
                     (unsigned long)len);
            parent->pos = parent->end;
            return;
        }
        if (res == KF3DS_NEXT_CLAMPED)
            add_diag(d, KF3DS_WARN_OVERRUN, c.offset, c.id, c.offset, c.end,
                     "length %lu overruns its parent by %lu bytes; clamped",
                     (unsigned long)c.length, (unsigned long)(c.length - left));
        dump_chunk(d, &c, &body, res == KF3DS_NEXT_CLAMPED, depth, ctx);
        if (parent->pos <= before) /* cannot happen: a chunk has >= 6 bytes */
            return;
    }
}

/* The root chunk (and what follows it). */
static void walk_file(dumper *d, const unsigned char *data, size_t size)
{
    kf3ds_reader top = kf3ds_reader_make(data, size);
    kf3ds_chunk c;
    kf3ds_reader body;
    kf3ds_chunk_result res;
    dump_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.node = -1;

    if (size == 0) {
        add_diag(d, KF3DS_ERR_NOT_3DS, 0, 0, 0, 0, "empty file");
        return;
    }
    if (size < 6) {
        add_diag(d, KF3DS_ERR_NOT_3DS, 0, 0, 0, (uint32_t)size,
                 "file shorter than a chunk header (%lu bytes)", (unsigned long)size);
        return;
    }
    res = kf3ds_chunk_next(&top, &c, &body);
    if (!kf3ds_chunk_is_root(c.id)) {
        if (res != KF3DS_NEXT_BAD)
            dump_chunk(d, &c, &body, res == KF3DS_NEXT_CLAMPED, 0, ctx);
        add_diag(d, KF3DS_ERR_NOT_3DS, 0, 0, 0, (uint32_t)size,
                 "root chunk 0x%04X is not a 3DS magic (expected 0x4D4D)", (unsigned)c.id);
        return;
    }
    if (res == KF3DS_NEXT_BAD) {
        add_diag(d, KF3DS_ERR_CHUNK, 0, c.id, 0, (uint32_t)size,
                 "root chunk length %lu is less than 6", (unsigned long)c.length);
        return;
    }
    if (res == KF3DS_NEXT_CLAMPED)
        add_diag(d, KF3DS_WARN_OVERRUN, 0, c.id, 0, c.end,
                 "file ends %lu bytes before the chunk does; clamped",
                 (unsigned long)(c.length - size));
    dump_chunk(d, &c, &body, res == KF3DS_NEXT_CLAMPED, 0, ctx);
    if (c.end < size)
        add_diag(d, KF3DS_WARN_TRAILING, c.end, 0, c.end, (uint32_t)size,
                 "%lu bytes after the root chunk ignored", (unsigned long)(size - c.end));
}

/* A library diagnostic that the walk reported too (same problem, same place). */
static int is_duplicate(const dumper *d, const kf3ds_diag *x)
{
    size_t i;
    for (i = 0; i < d->num_diags; i++) {
        const dump_diag *y = &d->diags[i];
        if (y->d.code != x->code || y->d.severity != x->severity)
            continue;
        if (y->d.offset == x->offset || (x->offset >= y->start && x->offset < y->end))
            return 1;
    }
    return 0;
}

static int run_dump(const char *file, int json, int full)
{
    unsigned char *data;
    size_t size, i;
    kf3ds_diag err;
    kf3ds_scene *scene;
    dumper d;
    int status = cli_read_file(file, &data, &size);
    if (status)
        return status;
    memset(&err, 0, sizeof err);
    scene = kf3ds_load_memory(data, size, NULL, &err);

    memset(&d, 0, sizeof d);
    d.out = stdout;
    d.json = json;
    d.full = full;
    d.scene = scene;
    d.first_sep = ": ";
    if (json)
        fputc('[', d.out);
    walk_file(&d, data, size);
    if (json)
        fputs("\n]\n", d.out);
    else
        end_line(&d);
    fflush(d.out);

    status = d.errors ? CLI_EXIT_INPUT : CLI_EXIT_OK;
    for (i = 0; i < d.num_diags; i++)
        cli_print_diag(file, &d.diags[i].d);
    if (d.dropped) {
        fputs("kf3ds: warning: ", stderr);
        cli_text_cstr(stderr, file);
        fprintf(stderr, ": %lu more diagnostics not shown\n", d.dropped);
    }
    /* The library's findings that the walk does not see (references, parents,
     * key order, values), and its errors in case the walk missed one. */
    if (!scene) {
        if (!d.errors) {
            kf3ds_diag x = err;
            x.severity = KF3DS_ERROR;
            cli_print_diag(file, &x);
        }
        status = CLI_EXIT_INPUT;
    } else {
        uint32_t k;
        for (k = 0; k < scene->num_diags; k++) {
            const kf3ds_diag *x = &scene->diags[k];
            if (is_duplicate(&d, x))
                continue;
            cli_print_diag(file, x);
            if (x->severity == KF3DS_ERROR)
                status = CLI_EXIT_INPUT;
        }
        if (err.code != KF3DS_OK && status == CLI_EXIT_OK) {
            /* the load's error, not among the diagnostics shown */
            kf3ds_diag x = err;
            x.severity = KF3DS_ERROR;
            cli_print_diag(file, &x);
            status = CLI_EXIT_INPUT;
        }
        kf3ds_scene_free(scene);
    }
    free(d.diags);
    free(data);
    return status;
}

static int cmd_dump(int argc, char **argv)
{
    cli_args a;
    int r, json = 0, full = 0;
    cli_args_begin(&a, "dump", argc, argv);
    while ((r = cli_next_option(&a)) > 0) {
        if (strcmp(cli_option(&a), "--json") == 0)
            json = 1;
        else if (strcmp(cli_option(&a), "--full") == 0)
            full = 1;
        else
            return cli_unknown_option(&a);
    }
    if (r < 0)
        return CLI_EXIT_USAGE;
    return run_dump(a.file, json, full);
}

const cli_verb cmd_dump_verb = {
    "dump",
    cmd_dump,
    "dump FILE [--json] [--full]",
    "Print the chunk tree with every known chunk's decoded payload.",
    "Each chunk is one line, indented by depth:\n"
    "  OFFSET ID NAME len LENGTH: decoded fields\n"
    "e.g. \"0x000006 0x0002 M3D_VERSION len 10: 3\". Unknown chunks show the name \"?\"\n"
    "and are not descended into; known containers are (at most 64 levels deep).\n"
    "Tracks list every key: frame, spline flags, the TCB/ease values present and\n"
    "the value; rotation keys also the accumulated quaternion (x, y, z, w).\n"
    "\n"
    "Options:\n"
    "  --json   the same tree as JSON: [{\"offset\", \"id\": \"0x4D4D\", \"name\",\n"
    "           \"length\", \"clamped_length\"?, \"fields\": {...}, \"children\": [...]}]\n"
    "  --full   print every entry of big arrays (points, faces, texture\n"
    "           coordinates, ...), not only the first 8\n"
    "\n"
    "A chunk that overruns its parent is clamped (a warning). A chunk length below 6,\n"
    "a payload shorter than its counts, or nesting deeper than 64 levels is an\n"
    "error: what could be read is printed, then the error, and the status is 1.\n",
};
