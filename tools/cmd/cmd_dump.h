/* The parts of `kf3ds dump` (internal to the cmd_dump*.c files):
 *   cmd_dump.c         the verb: options, the run, the diagnostics merged with
 *                      the library's and printed
 *   cmd_dump_diag.c    the diagnostics the walk and the decoders collect
 *   cmd_dump_walk.c    the walk of the chunk tree
 *   cmd_dump_spec.c    the table of known chunks: container or not, the layout
 *                      of the payload or its decoder
 *   cmd_dump_decode.c  payload reading: fixed layouts, arrays, special fields
 *   cmd_dump_track.c   the keyframer tracks and their keys
 *   cmd_dump_emit.c    the emitter: the same calls write the text or JSON tree */
#ifndef KF3DS_CMD_DUMP_H
#define KF3DS_CMD_DUMP_H
#include "cmd.h"

#define DUMP_MAX_DEPTH 64   /* chunk nesting levels shown: depths 0..63 */
#define DUMP_FEW 8          /* array entries shown without --full */
#define DUMP_MAX_DIAGS 1000

/* ---- state --------------------------------------------------------------- */

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

/* ---- diagnostics (cmd_dump_diag.c) ---------------------------------------- */

/* A problem found by the walk, about the range start..end. */
void dump_add_diag(dumper *d, kf3ds_status code, uint32_t offset, uint16_t id, uint32_t start,
                   uint32_t end, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
/* A problem in the payload of chunk c. */
void dump_chunk_diag(dumper *d, kf3ds_status code, const kf3ds_chunk *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- the walk (cmd_dump_walk.c) ------------------------------------------- */

/* The root chunk (and what follows it). */
void dump_walk_file(dumper *d, const unsigned char *data, size_t size);

/* ---- the table of known chunks (cmd_dump_spec.c) -------------------------- */

/* Decodes the payload of chunk c from body; 0 when it was too short
 * (reported; a container is then not descended into). */
typedef int (*dump_decode_fn)(dumper *d, const kf3ds_chunk *c, kf3ds_reader *body,
                              dump_ctx *ctx);

#define DUMP_CONTAINER 1
#define DUMP_LENIENT 2   /* not read by the library: short payloads are warnings */

typedef struct dump_spec {
    uint16_t id;
    unsigned flags;       /* DUMP_CONTAINER, DUMP_LENIENT */
    const char *layout;   /* fixed fields (dump_decode_layout) or NULL */
    dump_decode_fn decode; /* custom decoder or NULL */
} dump_spec;

/* The spec of a chunk id, or NULL. */
const dump_spec *dump_find_spec(uint16_t id);

/* ---- payload reading (cmd_dump_decode.c) ---------------------------------- */

void dump_read_floats(kf3ds_reader *r, float *v, int n);
/* 1 when at least `need` payload bytes are left; else marks a short read
 * and reports it (the payload ends before `what`), 0. */
int dump_require_bytes(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, size_t need,
                       const char *what);
/* Decodes fields described by a layout string: space-separated "type:key"
 * with type u8 u16 i16 x16 u32 i32 x32 f32 f64 v2 v3 c24 str. Returns 0 when
 * the payload was too short (reported). */
int dump_decode_layout(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, const char *layout);

/* The decoders of the chunks with arrays or special fields. */
int dump_dec_points(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_texverts(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_point_flags(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_faces(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_mat_group(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_smooth(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_boxmap(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_mesh_matrix(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_texture_info(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_shading(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_shadow_range(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_node_tag(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
int dump_dec_node_hdr(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);
/* The tracks (cmd_dump_track.c). */
int dump_dec_track(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx);

/* ---- the emitter (cmd_dump_emit.c) ---------------------------------------- */

/* A chunk: its header line (text) or object (JSON) and its fields; then
 * dump_chunk_children closes the fields and opens the children, and
 * dump_chunk_end closes the chunk. */
void dump_chunk_begin(dumper *d, const kf3ds_chunk *c, const char *name, int depth, int clamped);
/* A region of a .kfb file (cmd_dump_kfb.c), shown as a chunk is but without an
 * id: text "OFFSET NAME len LENGTH: fields", JSON {"offset", "name", "length",
 * "fields", "children"}; closed with dump_chunk_children and dump_chunk_end. */
void dump_region_begin(dumper *d, unsigned long offset, const char *name, unsigned long length,
                       int depth);
void dump_chunk_children(dumper *d);
void dump_chunk_end(dumper *d);
/* Text: ends the current line, if one is open. */
void dump_end_line(dumper *d);

/* Fields "key value" (text; without the key when d->bare) or "key":value. */
void dump_fld_uint(dumper *d, const char *k, unsigned long v);
void dump_fld_int(dumper *d, const char *k, long v);
/* JSON a plain number, text 0x and `digits` hex digits. */
void dump_fld_hex(dumper *d, const char *k, unsigned long v, int digits);
void dump_fld_float(dumper *d, const char *k, double v);
void dump_fld_vec(dumper *d, const char *k, const float *v, int n);
void dump_fld_ints(dumper *d, const char *k, const unsigned long *v, int n);
void dump_fld_str(dumper *d, const char *k, const char *s, size_t len);
/* A bool field: JSON true/false, text its key alone when true. */
void dump_fld_flag(dumper *d, const char *k, int on);
/* A word shown in text only (e.g. the name of a shading mode). */
void dump_txt_word(dumper *d, const char *w);

/* A list of entries: JSON "k":[ ... ]; text: one line per entry, and a
 * "... N more" line when fewer than total were shown. */
void dump_list_begin(dumper *d, const char *k);
void dump_list_end(dumper *d, unsigned long shown, unsigned long total);
/* An entry that is an object with fields: JSON {..}; text "label index:" and
 * the fields. */
void dump_item_begin(dumper *d, const char *label, unsigned long index);
void dump_item_end(dumper *d);
/* Entries that are plain values: JSON the value, text "[index] value". */
void dump_item_vec(dumper *d, unsigned long index, const float *v, int n);
void dump_item_ints(dumper *d, unsigned long index, const unsigned long *v, int n);
void dump_item_hex(dumper *d, unsigned long index, unsigned long v);
void dump_item_str(dumper *d, unsigned long index, const char *s, size_t len);

#endif
