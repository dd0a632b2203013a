/* A small glTF 2.0 writer for `kf3ds export` (docs/gltf.md): JSON text built
 * in memory (gltf_json.c), the binary buffer with its buffer views and
 * accessors (gltf_buffer.c), and the .glb or .gltf + .bin files
 * (gltf_file.c). It knows nothing of 3DS. Every function tolerates an
 * earlier out-of-memory: the failure is remembered (the `oom` fields) and
 * reported once at the end. */
#ifndef KF3DS_GLTF_H
#define KF3DS_GLTF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- JSON text ----------------------------------------------------------- */

#define GLTF_MAX_DEPTH 32

/* A piece of JSON being written: a whole document, or a list of array
 * elements (a fragment) spliced into a document later. Members and elements
 * get their commas by themselves. */
typedef struct gltf_json {
    FILE *f;                 /* open_memstream over buf */
    char *buf;
    size_t len;
    int oom;
    unsigned depth;
    unsigned char has_items[GLTF_MAX_DEPTH]; /* per level: a member was written */
    char closer[GLTF_MAX_DEPTH];             /* per level: '}' or ']' */
    uint32_t count;          /* elements written at depth 0 (fragments) */
} gltf_json;

void gltf_json_init(gltf_json *j);
void gltf_json_free(gltf_json *j);
/* Ends the text: *len bytes at the returned pointer (owned by j), NULL when
 * memory ran out. */
const char *gltf_json_text(gltf_json *j, size_t *len);

/* key is the member name inside an object, NULL for an array element. */
void gltf_obj(gltf_json *j, const char *key);
void gltf_arr(gltf_json *j, const char *key);
void gltf_end(gltf_json *j);             /* closes the innermost object or array */
void gltf_num(gltf_json *j, const char *key, double v); /* shortest exact form; 0 if not finite */
void gltf_int(gltf_json *j, const char *key, long v);
void gltf_bool(gltf_json *j, const char *key, int v);
void gltf_str(gltf_json *j, const char *key, const char *s); /* escaped, valid UTF-8 */
void gltf_nums(gltf_json *j, const char *key, const float *v, int n); /* [v0, ...] */
/* The elements of fragment `items` as members of the array just opened in j. */
void gltf_splice(gltf_json *j, gltf_json *items);

/* ---- binary buffer, buffer views, accessors ------------------------------ */

enum {
    GLTF_BYTE_U8 = 5121,
    GLTF_BYTE_U16 = 5123,
    GLTF_BYTE_U32 = 5125,
    GLTF_FLOAT = 5126,
    GLTF_ARRAY_BUFFER = 34962,
    GLTF_ELEMENT_ARRAY_BUFFER = 34963
};

typedef struct gltf_buffer {
    unsigned char *data;
    size_t len, cap;
    int oom;
    gltf_json views;         /* fragment: the bufferViews */
    gltf_json accessors;     /* fragment: the accessors */
} gltf_buffer;

void gltf_buffer_init(gltf_buffer *b);
void gltf_buffer_free(gltf_buffer *b);
/* Appends `bytes` bytes (4-byte aligned) as a new buffer view; target is
 * GLTF_ARRAY_BUFFER, GLTF_ELEMENT_ARRAY_BUFFER or 0. Returns its index. */
uint32_t gltf_view(gltf_buffer *b, const void *data, size_t bytes, int target);
/* An accessor over `count` elements of `ncomp` components (1 SCALAR, 2 VEC2,
 * 3 VEC3, 4 VEC4) of type `ctype`, in a buffer view of its own. minmax: also
 * write min and max (float and unsigned types). Returns its index. */
uint32_t gltf_accessor(gltf_buffer *b, const void *data, uint32_t count, int ctype, int ncomp,
                       int target, int minmax);

/* ---- files ----------------------------------------------------------------- */

/* Writes the document: `json` (the whole glTF JSON, which must name buffer 0
 * with the buffer's length when it is not empty) and the buffer, as one .glb
 * (binary) or as `path` plus `bin_path` (whose name the JSON's buffer uri
 * gives). Returns 0, or -1 after printing "kf3ds: PATH: cannot write: ...";
 * a partly written file is removed. */
int gltf_write_glb(const char *path, const char *json, size_t json_len, const gltf_buffer *b);
int gltf_write_gltf(const char *path, const char *json, size_t json_len, const char *bin_path,
                    const gltf_buffer *b);

#endif
