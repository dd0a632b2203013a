/* kf3ds_kfb.h — the reader of baked .kfb files (`kf3ds bake`, docs/kfb.md).
 *
 * One header, C89, no allocation, no C library: it reads the bytes of a .kfb
 * file (in RAM or ROM, any alignment, either byte order of the host) and
 * hands out its node table, per-frame world matrices and visibility, camera
 * and light channels, meshes (already in their node's local space) and
 * materials. kf3ds_kfb_open checks the header and every offset, count and
 * index of the file against its size first; afterwards the accessors only
 * check their own arguments.
 *
 * Use: in exactly one C file
 *     #define KF3DS_KFB_IMPLEMENTATION
 *     #include "kf3ds_kfb.h"
 * and include it plainly everywhere else (or define KF3DS_KFB_STATIC too, to
 * make every function static to that file).
 *
 * Fixed-point files (`kf3ds bake --fixed`) need integer arithmetic only:
 * define KF3DS_KFB_NO_FLOAT and the header contains no floating-point type or
 * operation at all (the *_float functions are left out); `make retro` checks
 * the object code of an 68000, ARM7TDMI and R3000 build for it.
 *
 *     kf3ds_kfb_file f;
 *     if (kf3ds_kfb_open(&f, rom_bytes, rom_size) != KF3DS_KFB_OK) fail();
 *     kf3ds_kfb_world_fixed(&f, frame, slot, m);           12 numbers, rows 0..2
 *     kf3ds_kfb_vertex_fixed(&f, &mesh, v, p);
 *     kf3ds_kfb_fixed_transform(m, p, f.frac_bits, out);   vertex × frame matrix
 */
#ifndef KF3DS_KFB_H
#define KF3DS_KFB_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(KF3DS_KFB_STATIC) && defined(__GNUC__)
#define KF3DS_KFB_DEF static __attribute__((unused)) /* a program uses only some */
#elif defined(KF3DS_KFB_STATIC)
#define KF3DS_KFB_DEF static
#else
#define KF3DS_KFB_DEF extern
#endif

/* Exactly 32-bit integers (C89 has no <stdint.h>). GCC and clang say which
 * type it is themselves, so that no header at all is needed; elsewhere
 * <limits.h>, which every freestanding compiler has, tells. */
#if defined(__INT_MAX__) && __INT_MAX__ == 2147483647
typedef unsigned int kf3ds_kfb_u32;
typedef int kf3ds_kfb_s32;
#elif defined(__LONG_MAX__) && __LONG_MAX__ == 2147483647L
typedef unsigned long kf3ds_kfb_u32;
typedef long kf3ds_kfb_s32;
#else
#include <limits.h>
#if UINT_MAX == 0xFFFFFFFFUL
typedef unsigned int kf3ds_kfb_u32;
typedef int kf3ds_kfb_s32;
#elif ULONG_MAX == 0xFFFFFFFFUL
typedef unsigned long kf3ds_kfb_u32;
typedef long kf3ds_kfb_s32;
#else
#error "kf3ds_kfb.h needs a 32-bit int or long"
#endif
#endif

#define KF3DS_KFB_VERSION 1
#define KF3DS_KFB_HEADER_SIZE 128
#define KF3DS_KFB_NONE 0xFFFFFFFFUL /* "no index" in unsigned fields */

typedef enum kf3ds_kfb_status {
    KF3DS_KFB_OK = 0,
    KF3DS_KFB_ERR_ARGUMENT,   /* a NULL pointer, an index or frame out of range */
    KF3DS_KFB_ERR_MAGIC,      /* not a .kfb file */
    KF3DS_KFB_ERR_VERSION,    /* a .kfb version this reader does not know */
    KF3DS_KFB_ERR_TRUNCATED,  /* fewer bytes than the header says the file has */
    KF3DS_KFB_ERR_HEADER,     /* a header field out of its range */
    KF3DS_KFB_ERR_SECTION,    /* a section misplaced, misaligned or of the wrong size */
    KF3DS_KFB_ERR_STRING,     /* a string outside the string section or unterminated */
    KF3DS_KFB_ERR_INDEX,      /* an index in the file beyond what it indexes */
    KF3DS_KFB_ERR_FORMAT,     /* a fixed-point call on a float file */
    KF3DS_KFB_ERR_FRAME       /* a frame that was not baked, or not a decimal number */
} kf3ds_kfb_status;

/* An open file: the bytes, the header's fields, the section offsets. */
typedef struct kf3ds_kfb_file {
    const unsigned char *data;
    kf3ds_kfb_u32 size;            /* the file's size (from its header) */
    kf3ds_kfb_u32 flags;           /* KF3DS_KFB_FLAG_* */
    unsigned frac_bits;            /* fixed point: value = raw / 2^frac_bits; 0 for floats */
    kf3ds_kfb_u32 num_nodes, num_frames, num_channels, num_channel_values;
    kf3ds_kfb_u32 num_meshes, num_materials;
    kf3ds_kfb_s32 frame_first, frame_step; /* frame i is (first + i·step) / frame_scale */
    kf3ds_kfb_u32 frame_scale;     /* 1, 10, 100, ... 1000000 */
    kf3ds_kfb_s32 segment_start, segment_end; /* the .3ds file's KFSEG */
    kf3ds_kfb_u32 frame_stride;    /* bytes per frame */
    kf3ds_kfb_u32 section[7][2];   /* KF3DS_KFB_SECTION_*: offset, size */
    kf3ds_kfb_u32 error_offset;    /* after a failed open: the byte offset of the problem */
} kf3ds_kfb_file;

#define KF3DS_KFB_FLAG_FIXED 0x1u  /* numbers are signed fixed point, else IEEE binary32 */
#define KF3DS_KFB_FLAG_MESHES 0x2u /* the file has meshes and materials */

enum {
    KF3DS_KFB_SECTION_NODES = 0, KF3DS_KFB_SECTION_CHANNELS, KF3DS_KFB_SECTION_FRAMES,
    KF3DS_KFB_SECTION_MESHES, KF3DS_KFB_SECTION_MATERIALS, KF3DS_KFB_SECTION_MESH_DATA,
    KF3DS_KFB_SECTION_STRINGS
};

/* Record sizes in bytes (docs/kfb.md). */
#define KF3DS_KFB_NODE_SIZE 40
#define KF3DS_KFB_CHANNEL_SIZE 24
#define KF3DS_KFB_MESH_SIZE 48
#define KF3DS_KFB_MATERIAL_SIZE 32
#define KF3DS_KFB_FACE_SIZE 28

/* A string of the file: `len` bytes at `s`, followed by a NUL. s is NULL
 * when the field is absent (an instance name, a texture). */
typedef struct kf3ds_kfb_string {
    const char *s;
    kf3ds_kfb_u32 len;
} kf3ds_kfb_string;

/* Node types, as kf3ds_node_type in kf3ds.h. */
enum {
    KF3DS_KFB_AMBIENT = 0, KF3DS_KFB_OBJECT, KF3DS_KFB_CAMERA, KF3DS_KFB_TARGET,
    KF3DS_KFB_LIGHT, KF3DS_KFB_LTARGET, KF3DS_KFB_SPOT
};

typedef struct kf3ds_kfb_node {
    kf3ds_kfb_string name, instance;
    kf3ds_kfb_u32 index;           /* the node's index in the .3ds (kf3ds eval "index") */
    kf3ds_kfb_s32 id;              /* NODE_ID (kf3ds eval "id") */
    kf3ds_kfb_s32 parent;          /* the parent's index in the .3ds, -1 at the root */
    kf3ds_kfb_s32 parent_slot;     /* the parent's slot in this file, -1 when not baked */
    kf3ds_kfb_s32 mesh;            /* its mesh in this file, -1 for none */
    int type;                      /* KF3DS_KFB_OBJECT, ... */
    int dummy;                     /* a $$$DUMMY node */
} kf3ds_kfb_node;

/* Channels: per-frame values of cameras and lights. */
enum {
    KF3DS_KFB_CHANNEL_FOV = 1,     /* camera field of view, degrees */
    KF3DS_KFB_CHANNEL_ROLL,        /* camera or spotlight roll, degrees */
    KF3DS_KFB_CHANNEL_COLOR,       /* light or ambient colour, r g b in 0..1 */
    KF3DS_KFB_CHANNEL_HOTSPOT,     /* spotlight hotspot cone, degrees */
    KF3DS_KFB_CHANNEL_FALLOFF      /* spotlight falloff cone, degrees */
};

typedef struct kf3ds_kfb_channel {
    kf3ds_kfb_u32 node_slot;
    int kind;                      /* KF3DS_KFB_CHANNEL_* */
    unsigned count;                /* numbers: 3 for a colour, else 1 */
    kf3ds_kfb_u32 first;           /* its first value in each frame, KF3DS_KFB_NONE: constant */
} kf3ds_kfb_channel;

typedef struct kf3ds_kfb_mesh {
    kf3ds_kfb_string name;
    kf3ds_kfb_u32 source;          /* the mesh's index in the .3ds */
    kf3ds_kfb_u32 num_vertices, num_faces, num_normals, num_uvs; /* num_uvs: 0 or num_vertices */
    const unsigned char *vertices, *faces, *normals, *uvs;     /* arrays (docs/kfb.md) */
} kf3ds_kfb_mesh;

typedef struct kf3ds_kfb_face {
    unsigned v[3];                 /* vertex indices, < num_vertices */
    unsigned material;             /* material index, 0xFFFF for none */
    unsigned flags;                /* the .3ds face flags (edge visibility, wrap) */
    kf3ds_kfb_u32 smoothing;       /* smoothing-group bits */
    kf3ds_kfb_u32 n[3];            /* normal index of each corner, < num_normals */
} kf3ds_kfb_face;

typedef struct kf3ds_kfb_material {
    kf3ds_kfb_string name, texture; /* texture: the first texture map's file name */
    unsigned char ambient[3], diffuse[3], specular[3]; /* 0..255 */
    unsigned shininess, transparency; /* 0..255 */
    unsigned shading;              /* 0 wire, 1 flat, 2 Gouraud, 3 Phong, 4 metal */
    unsigned flags;                /* KF3DS_KFB_MAT_* */
} kf3ds_kfb_material;

#define KF3DS_KFB_MAT_TWO_SIDED 0x1u
#define KF3DS_KFB_MAT_ADDITIVE 0x2u
#define KF3DS_KFB_MAT_WIRE 0x4u

/* ---- opening ----------------------------------------------------------- */

/* Checks everything and fills *f. `size` is how many bytes `data` holds (at
 * least the file's size; more, such as ROM padding, is fine). On failure
 * f->error_offset is the offset of the field at fault. */
KF3DS_KFB_DEF int kf3ds_kfb_open(kf3ds_kfb_file *f, const void *data, unsigned long size);
/* "truncated file", ... for a kf3ds_kfb_status. */
KF3DS_KFB_DEF const char *kf3ds_kfb_status_string(int status);
/* "object", "camera", ... as kf3ds eval names node types; "?" otherwise. */
KF3DS_KFB_DEF const char *kf3ds_kfb_node_type_name(int type);

/* ---- frames -------------------------------------------------------------- */

/* The frame index of a decimal number ("12", "-3", "12.5"; no exponent);
 * KF3DS_KFB_ERR_FRAME when the text is not such a number or that frame was
 * not baked. */
KF3DS_KFB_DEF int kf3ds_kfb_find_frame(const kf3ds_kfb_file *f, const char *text,
                                       kf3ds_kfb_u32 *index);
/* Frame `index` is numerator / f->frame_scale. */
KF3DS_KFB_DEF int kf3ds_kfb_frame_numerator(const kf3ds_kfb_file *f, kf3ds_kfb_u32 index,
                                            kf3ds_kfb_s32 *numerator);

/* ---- nodes, frames, channels -------------------------------------------- */

KF3DS_KFB_DEF int kf3ds_kfb_node_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 slot,
                                     kf3ds_kfb_node *out);
/* 1 when the node is visible at that frame, 0 when hidden or out of range. */
KF3DS_KFB_DEF int kf3ds_kfb_visible(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                    kf3ds_kfb_u32 slot);
/* The world matrix N(t): rows 0..2 of the 4×4 matrix (the last is 0 0 0 1),
 * m[4·row + col], column vectors, translation in m[3], m[7], m[11]. */
KF3DS_KFB_DEF int kf3ds_kfb_world_fixed(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                        kf3ds_kfb_u32 slot, kf3ds_kfb_s32 m[12]);
KF3DS_KFB_DEF int kf3ds_kfb_channel_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 channel,
                                        kf3ds_kfb_channel *out);
/* A channel's `count` values at a frame (its constant when it has one). */
KF3DS_KFB_DEF int kf3ds_kfb_channel_fixed(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                          kf3ds_kfb_u32 channel, kf3ds_kfb_s32 v[3]);

/* ---- meshes and materials ------------------------------------------------ */

KF3DS_KFB_DEF int kf3ds_kfb_mesh_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 index,
                                     kf3ds_kfb_mesh *out);
/* Vertex v of a mesh (in its node's local space: draw it at world × vertex). */
KF3DS_KFB_DEF int kf3ds_kfb_vertex_fixed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 v, kf3ds_kfb_s32 out[3]);
KF3DS_KFB_DEF int kf3ds_kfb_normal_fixed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 n, kf3ds_kfb_s32 out[3]);
KF3DS_KFB_DEF int kf3ds_kfb_uv_fixed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                     kf3ds_kfb_u32 v, kf3ds_kfb_s32 out[2]);
KF3DS_KFB_DEF int kf3ds_kfb_face_get(const kf3ds_kfb_mesh *m, kf3ds_kfb_u32 face,
                                     kf3ds_kfb_face *out);
KF3DS_KFB_DEF int kf3ds_kfb_material_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 index,
                                         kf3ds_kfb_material *out);

/* ---- fixed-point arithmetic (integer only, exact, any frac_bits 0..28) ---- */

/* round(a·b / 2^frac_bits), halves rounded up, saturated to 32 bits. */
KF3DS_KFB_DEF kf3ds_kfb_s32 kf3ds_kfb_fixed_mul(kf3ds_kfb_s32 a, kf3ds_kfb_s32 b,
                                                unsigned frac_bits);
/* out = M·(v, 1) for a 3×4 matrix: each coordinate is the exact sum of the
 * three products and the translation, rounded once as kf3ds_kfb_fixed_mul
 * rounds (docs/kfb.md, "Numbers and fixed point"). out may not alias v. */
KF3DS_KFB_DEF void kf3ds_kfb_fixed_transform(const kf3ds_kfb_s32 m[12], const kf3ds_kfb_s32 v[3],
                                             unsigned frac_bits, kf3ds_kfb_s32 out[3]);

/* ---- floating point (any file; fixed-point values are converted) -------- */
#ifndef KF3DS_KFB_NO_FLOAT
KF3DS_KFB_DEF int kf3ds_kfb_world_float(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                        kf3ds_kfb_u32 slot, float m[12]);
KF3DS_KFB_DEF int kf3ds_kfb_channel_float(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                          kf3ds_kfb_u32 channel, float v[3]);
KF3DS_KFB_DEF int kf3ds_kfb_vertex_float(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 v, float out[3]);
KF3DS_KFB_DEF int kf3ds_kfb_normal_float(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 n, float out[3]);
KF3DS_KFB_DEF int kf3ds_kfb_uv_float(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                     kf3ds_kfb_u32 v, float out[2]);
/* out = M·(v, 1), in float. out may not alias v. */
KF3DS_KFB_DEF void kf3ds_kfb_float_transform(const float m[12], const float v[3], float out[3]);
#endif

#ifdef __cplusplus
}
#endif
#endif /* KF3DS_KFB_H */

/* ======================================================================== */
/* Implementation                                                           */
/* ======================================================================== */
#ifdef KF3DS_KFB_IMPLEMENTATION
#ifndef KF3DS_KFB_IMPLEMENTED
#define KF3DS_KFB_IMPLEMENTED

#define KF3DS_KFB__MAX_FRAC_BITS 28u
#define KF3DS_KFB__U32_MAX ((kf3ds_kfb_u32)0xFFFFFFFFUL)

static kf3ds_kfb_u32 kf3ds_kfb__u16(const unsigned char *p)
{
    return (kf3ds_kfb_u32)p[0] | (kf3ds_kfb_u32)p[1] << 8;
}

static kf3ds_kfb_u32 kf3ds_kfb__u32(const unsigned char *p)
{
    return (kf3ds_kfb_u32)p[0] | (kf3ds_kfb_u32)p[1] << 8 | (kf3ds_kfb_u32)p[2] << 16 |
           (kf3ds_kfb_u32)p[3] << 24;
}

/* Two's complement bits as a signed value, without implementation-defined
 * conversions. */
static kf3ds_kfb_s32 kf3ds_kfb__signed(kf3ds_kfb_u32 u)
{
    if (u < 0x80000000UL)
        return (kf3ds_kfb_s32)u;
    return (kf3ds_kfb_s32)(u - 0x80000000UL) - 0x7FFFFFFF - 1;
}

static kf3ds_kfb_s32 kf3ds_kfb__s32(const unsigned char *p)
{
    return kf3ds_kfb__signed(kf3ds_kfb__u32(p));
}

/* A loop, not memset: the reader calls no library function. */
static void kf3ds_kfb__zero(void *p, unsigned long n)
{
    unsigned char *b = (unsigned char *)p;
    while (n--)
        *b++ = 0;
}

/* ---- validation ---------------------------------------------------------- */

static int kf3ds_kfb__fail(kf3ds_kfb_file *f, int status, kf3ds_kfb_u32 offset)
{
    f->error_offset = offset;
    return status;
}

/* A string reference (offset, length) at p: absent (offset 0xFFFFFFFF, length
 * 0) when optional, else inside the string section and followed by a NUL there. */
static int kf3ds_kfb__check_string(const kf3ds_kfb_file *f, const unsigned char *p, int optional)
{
    kf3ds_kfb_u32 off = kf3ds_kfb__u32(p), len = kf3ds_kfb__u32(p + 4);
    kf3ds_kfb_u32 size = f->section[KF3DS_KFB_SECTION_STRINGS][1];
    if (optional && off == KF3DS_KFB__U32_MAX)
        return len == 0;
    return off < size && len < size - off &&
           f->data[f->section[KF3DS_KFB_SECTION_STRINGS][0] + off + len] == 0;
}

static kf3ds_kfb_string kf3ds_kfb__string(const kf3ds_kfb_file *f, const unsigned char *p)
{
    kf3ds_kfb_string s;
    kf3ds_kfb_u32 off = kf3ds_kfb__u32(p);
    s.len = kf3ds_kfb__u32(p + 4);
    if (off == KF3DS_KFB__U32_MAX) {
        s.s = 0;
        s.len = 0;
    } else {
        s.s = (const char *)f->data + f->section[KF3DS_KFB_SECTION_STRINGS][0] + off;
    }
    return s;
}

/* a·b into *out when it fits in 32 bits (no division: FPU-less targets
 * often lack a divide instruction too). */
static int kf3ds_kfb__mul_ok(kf3ds_kfb_u32 a, kf3ds_kfb_u32 b, kf3ds_kfb_u32 *out)
{
    kf3ds_kfb_u32 ah = a >> 16, bh = b >> 16, al = a & 0xFFFFu, bl = b & 0xFFFFu, mid, lo, r;
    if (ah && bh)
        return 0;
    mid = ah * bl + al * bh; /* one of the two is 0 */
    if (mid > 0xFFFFu)
        return 0;
    lo = al * bl;
    r = lo + (mid << 16);
    if (r < lo)
        return 0;
    *out = r;
    return 1;
}

/* n / d and n mod d (d > 0) by shifting and subtracting. */
static kf3ds_kfb_u32 kf3ds_kfb__divmod(kf3ds_kfb_u32 n, kf3ds_kfb_u32 d, kf3ds_kfb_u32 *rem)
{
    kf3ds_kfb_u32 q = 0, r = 0, carry;
    int i;
    for (i = 31; i >= 0; i--) {
        carry = r >> 31;
        r = r << 1 | (n >> i & 1u);
        if (carry || r >= d) {
            r -= d;
            q |= (kf3ds_kfb_u32)1 << i;
        }
    }
    *rem = r;
    return q;
}

/* value·10 + d when it stays at most 2^31 (the magnitude of a frame number). */
static int kf3ds_kfb__digit(kf3ds_kfb_u32 *value, kf3ds_kfb_u32 d)
{
    if (*value > 214748364UL || (*value == 214748364UL && d > 8))
        return 0;
    *value = *value * 10 + d;
    return 1;
}

/* An array of `count` elements of `elem` bytes at absolute offset `off`,
 * inside the mesh-data section and 4-byte aligned. */
static int kf3ds_kfb__check_array(const kf3ds_kfb_file *f, kf3ds_kfb_u32 off, kf3ds_kfb_u32 count,
                                  kf3ds_kfb_u32 elem)
{
    kf3ds_kfb_u32 bytes, start = f->section[KF3DS_KFB_SECTION_MESH_DATA][0];
    kf3ds_kfb_u32 size = f->section[KF3DS_KFB_SECTION_MESH_DATA][1];
    if (!kf3ds_kfb__mul_ok(count, elem, &bytes))
        return 0;
    if (!count)
        return 1;
    return off % 4 == 0 && off >= start && off - start <= size && bytes <= size - (off - start);
}

static int kf3ds_kfb__check_header(kf3ds_kfb_file *f)
{
    const unsigned char *h = f->data;
    kf3ds_kfb_u32 n_words, stride, need, last, room, rem, i, pos;
    static const kf3ds_kfb_u32 record[7] = { KF3DS_KFB_NODE_SIZE, KF3DS_KFB_CHANNEL_SIZE, 0,
                                             KF3DS_KFB_MESH_SIZE, KF3DS_KFB_MATERIAL_SIZE, 0, 0 };
    kf3ds_kfb_u32 counts[7];
    f->flags = kf3ds_kfb__u32(h + 12);
    f->frac_bits = h[16];
    f->num_nodes = kf3ds_kfb__u32(h + 20);
    f->num_frames = kf3ds_kfb__u32(h + 24);
    f->frame_first = kf3ds_kfb__s32(h + 28);
    f->frame_step = kf3ds_kfb__s32(h + 32);
    f->frame_scale = kf3ds_kfb__u32(h + 36);
    f->segment_start = kf3ds_kfb__s32(h + 40);
    f->segment_end = kf3ds_kfb__s32(h + 44);
    f->num_channels = kf3ds_kfb__u32(h + 48);
    f->num_channel_values = kf3ds_kfb__u32(h + 52);
    f->frame_stride = kf3ds_kfb__u32(h + 56);
    f->num_meshes = kf3ds_kfb__u32(h + 60);
    f->num_materials = kf3ds_kfb__u32(h + 64);
    if (f->flags & ~(kf3ds_kfb_u32)(KF3DS_KFB_FLAG_FIXED | KF3DS_KFB_FLAG_MESHES))
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 12);
    if ((f->flags & KF3DS_KFB_FLAG_FIXED) ? f->frac_bits > KF3DS_KFB__MAX_FRAC_BITS
                                          : f->frac_bits != 0)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 16);
    if (h[17] != 4 || h[18] || h[19])
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 17);
    if (f->num_frames == 0)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 24);
    if (f->frame_step <= 0)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 32);
    for (i = 1; i < f->frame_scale && i <= 100000UL; i *= 10)
        ;
    if (i != f->frame_scale)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 36);
    /* The last frame, first + (n−1)·step, must fit in 32 bits; `room` is
     * 2^31 − 1 − first, which unsigned arithmetic gets right for any sign. */
    last = f->num_frames - 1;
    room = (kf3ds_kfb_u32)(0x7FFFFFFFUL - (kf3ds_kfb_u32)f->frame_first);
    if (last > kf3ds_kfb__divmod(room, (kf3ds_kfb_u32)f->frame_step, &rem))
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 24);
    if (!(f->flags & KF3DS_KFB_FLAG_MESHES) && (f->num_meshes || f->num_materials))
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 60);
    if (kf3ds_kfb__u32(h + 68))
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 68);
    /* stride = 4·(12·nodes + channel values + ceil(nodes / 32)) */
    n_words = f->num_nodes / 32 + (f->num_nodes % 32 != 0);
    if (!kf3ds_kfb__mul_ok(f->num_nodes, 12, &stride) ||
        stride > KF3DS_KFB__U32_MAX - f->num_channel_values ||
        stride + f->num_channel_values > KF3DS_KFB__U32_MAX - n_words ||
        !kf3ds_kfb__mul_ok(stride + f->num_channel_values + n_words, 4, &stride) ||
        stride != f->frame_stride)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 56);
    /* The sections: in order, aligned, inside the file, of their records' size. */
    counts[KF3DS_KFB_SECTION_FRAMES] = f->num_frames; /* (sized by the stride) */
    counts[KF3DS_KFB_SECTION_MESH_DATA] = counts[KF3DS_KFB_SECTION_STRINGS] = 0;
    counts[KF3DS_KFB_SECTION_NODES] = f->num_nodes;
    counts[KF3DS_KFB_SECTION_CHANNELS] = f->num_channels;
    counts[KF3DS_KFB_SECTION_MESHES] = f->num_meshes;
    counts[KF3DS_KFB_SECTION_MATERIALS] = f->num_materials;
    pos = KF3DS_KFB_HEADER_SIZE;
    for (i = 0; i < 7; i++) {
        kf3ds_kfb_u32 off = kf3ds_kfb__u32(h + 72 + 8 * i), size = kf3ds_kfb__u32(h + 76 + 8 * i);
        f->section[i][0] = off;
        f->section[i][1] = size;
        if (off % 4 || off < pos || off > f->size || size > f->size - off)
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, 72 + 8 * i);
        if (i == KF3DS_KFB_SECTION_FRAMES || record[i]) {
            int fits = i == KF3DS_KFB_SECTION_FRAMES
                           ? kf3ds_kfb__mul_ok(stride, f->num_frames, &need)
                           : kf3ds_kfb__mul_ok(record[i], counts[i], &need);
            if (!fits || size != need)
                return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, 76 + 8 * i);
        } else if (size % 4) {
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, 76 + 8 * i);
        }
        pos = off + size;
    }
    return KF3DS_KFB_OK;
}

static int kf3ds_kfb__check_tables(kf3ds_kfb_file *f)
{
    kf3ds_kfb_u32 i, k;
    for (i = 0; i < f->num_nodes; i++) {
        kf3ds_kfb_u32 at = f->section[KF3DS_KFB_SECTION_NODES][0] + i * KF3DS_KFB_NODE_SIZE;
        const unsigned char *p = f->data + at;
        kf3ds_kfb_s32 parent = kf3ds_kfb__s32(p + 24), slot = kf3ds_kfb__s32(p + 28);
        kf3ds_kfb_s32 mesh = kf3ds_kfb__s32(p + 32);
        if (!kf3ds_kfb__check_string(f, p, 0))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_STRING, at);
        if (!kf3ds_kfb__check_string(f, p + 8, 1))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_STRING, at + 8);
        if (kf3ds_kfb__u32(p + 16) > 0x7FFFFFFFUL || parent < -1)
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 16);
        if (slot < -1 || (slot >= 0 && (kf3ds_kfb_u32)slot >= f->num_nodes))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 28);
        if (mesh < -1 || (mesh >= 0 && (kf3ds_kfb_u32)mesh >= f->num_meshes))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 32);
        if (p[36] > KF3DS_KFB_SPOT || p[37] > 1 || p[38] || p[39])
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 36);
    }
    for (i = 0; i < f->num_channels; i++) {
        kf3ds_kfb_u32 at = f->section[KF3DS_KFB_SECTION_CHANNELS][0] + i * KF3DS_KFB_CHANNEL_SIZE;
        const unsigned char *p = f->data + at;
        kf3ds_kfb_u32 kind = kf3ds_kfb__u16(p + 4), count = kf3ds_kfb__u16(p + 6);
        kf3ds_kfb_u32 first = kf3ds_kfb__u32(p + 8);
        if (kf3ds_kfb__u32(p) >= f->num_nodes)
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at);
        if (kind < KF3DS_KFB_CHANNEL_FOV || kind > KF3DS_KFB_CHANNEL_FALLOFF ||
            count != (kind == KF3DS_KFB_CHANNEL_COLOR ? 3u : 1u))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 4);
        if (first != KF3DS_KFB__U32_MAX &&
            (first > f->num_channel_values || count > f->num_channel_values - first))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 8);
    }
    for (i = 0; i < f->num_materials; i++) {
        kf3ds_kfb_u32 at = f->section[KF3DS_KFB_SECTION_MATERIALS][0] + i * KF3DS_KFB_MATERIAL_SIZE;
        const unsigned char *p = f->data + at;
        if (!kf3ds_kfb__check_string(f, p, 0))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_STRING, at);
        if (!kf3ds_kfb__check_string(f, p + 8, 1))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_STRING, at + 8);
    }
    for (i = 0; i < f->num_meshes; i++) {
        kf3ds_kfb_u32 at = f->section[KF3DS_KFB_SECTION_MESHES][0] + i * KF3DS_KFB_MESH_SIZE;
        const unsigned char *p = f->data + at;
        kf3ds_kfb_u32 nv = kf3ds_kfb__u32(p + 12), nf = kf3ds_kfb__u32(p + 16);
        kf3ds_kfb_u32 nn = kf3ds_kfb__u32(p + 20), nuv = kf3ds_kfb__u32(p + 24);
        kf3ds_kfb_u32 faces = kf3ds_kfb__u32(p + 32);
        if (!kf3ds_kfb__check_string(f, p, 0))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_STRING, at);
        if (nv > 65536UL || (nuv && nuv != nv))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 12);
        if (!kf3ds_kfb__check_array(f, kf3ds_kfb__u32(p + 28), nv, 12))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, at + 28);
        if (!kf3ds_kfb__check_array(f, faces, nf, KF3DS_KFB_FACE_SIZE))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, at + 32);
        if (!kf3ds_kfb__check_array(f, kf3ds_kfb__u32(p + 36), nn, 12))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, at + 36);
        if (!kf3ds_kfb__check_array(f, kf3ds_kfb__u32(p + 40), nuv, 8))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_SECTION, at + 40);
        if (kf3ds_kfb__u32(p + 44))
            return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, at + 44);
        /* Every face's vertices, material and normals exist. */
        for (k = 0; k < nf; k++) {
            const unsigned char *q = f->data + faces + k * KF3DS_KFB_FACE_SIZE;
            kf3ds_kfb_u32 mat = kf3ds_kfb__u16(q + 6);
            if (kf3ds_kfb__u16(q) >= nv || kf3ds_kfb__u16(q + 2) >= nv ||
                kf3ds_kfb__u16(q + 4) >= nv || (mat != 0xFFFFu && mat >= f->num_materials) ||
                kf3ds_kfb__u32(q + 16) >= nn || kf3ds_kfb__u32(q + 20) >= nn ||
                kf3ds_kfb__u32(q + 24) >= nn)
                return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_INDEX, faces + k * KF3DS_KFB_FACE_SIZE);
        }
    }
    return KF3DS_KFB_OK;
}

KF3DS_KFB_DEF int kf3ds_kfb_open(kf3ds_kfb_file *f, const void *data, unsigned long size)
{
    const unsigned char *h = (const unsigned char *)data;
    int status;
    if (!f)
        return KF3DS_KFB_ERR_ARGUMENT;
    kf3ds_kfb__zero(f, sizeof *f);
    f->data = h;
    if (!h)
        return KF3DS_KFB_ERR_ARGUMENT;
    if (size < 4 || h[0] != 'K' || h[1] != 'F' || h[2] != 'B' || h[3] != 0x1A)
        return KF3DS_KFB_ERR_MAGIC;
    if (size < 8)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_TRUNCATED, (kf3ds_kfb_u32)size);
    if (kf3ds_kfb__u16(h + 4) != KF3DS_KFB_VERSION)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_VERSION, 4);
    if (kf3ds_kfb__u16(h + 6) != KF3DS_KFB_HEADER_SIZE)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 6);
    if (size < KF3DS_KFB_HEADER_SIZE)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_TRUNCATED, (kf3ds_kfb_u32)size);
    f->size = kf3ds_kfb__u32(h + 8);
    if (f->size < KF3DS_KFB_HEADER_SIZE)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_HEADER, 8);
    if (f->size > size)
        return kf3ds_kfb__fail(f, KF3DS_KFB_ERR_TRUNCATED, (kf3ds_kfb_u32)size);
    status = kf3ds_kfb__check_header(f);
    if (status == KF3DS_KFB_OK)
        status = kf3ds_kfb__check_tables(f);
    return status;
}

KF3DS_KFB_DEF const char *kf3ds_kfb_status_string(int status)
{
    switch (status) {
    case KF3DS_KFB_OK: return "ok";
    case KF3DS_KFB_ERR_ARGUMENT: return "bad argument";
    case KF3DS_KFB_ERR_MAGIC: return "not a .kfb file (no KFB magic)";
    case KF3DS_KFB_ERR_VERSION: return "unknown .kfb version";
    case KF3DS_KFB_ERR_TRUNCATED: return "file cut short";
    case KF3DS_KFB_ERR_HEADER: return "header field out of range";
    case KF3DS_KFB_ERR_SECTION: return "section misplaced or of the wrong size";
    case KF3DS_KFB_ERR_STRING: return "string outside the string section";
    case KF3DS_KFB_ERR_INDEX: return "index out of range";
    case KF3DS_KFB_ERR_FORMAT: return "a float file read as fixed point";
    case KF3DS_KFB_ERR_FRAME: return "frame not baked";
    default: return "unknown status";
    }
}

KF3DS_KFB_DEF const char *kf3ds_kfb_node_type_name(int type)
{
    static const char *const names[7] = { "ambient", "object", "camera", "target",
                                          "light", "ltarget", "spot" };
    return type >= 0 && type < 7 ? names[type] : "?";
}

/* ---- frames -------------------------------------------------------------- */

KF3DS_KFB_DEF int kf3ds_kfb_find_frame(const kf3ds_kfb_file *f, const char *text,
                                       kf3ds_kfb_u32 *index)
{
    kf3ds_kfb_u32 value = 0, scale = 1, d, rel;
    int neg = 0, digits = 0;
    kf3ds_kfb_s32 num;
    if (!f || !text || !index)
        return KF3DS_KFB_ERR_ARGUMENT;
    if (*text == '-' || *text == '+')
        neg = *text++ == '-';
    /* The number in units of 1/frame_scale: the integer part, then fraction
     * digits while the scale allows; further fraction digits must be zeros. */
    for (; *text >= '0' && *text <= '9'; text++, digits++) {
        if (!kf3ds_kfb__digit(&value, (kf3ds_kfb_u32)(*text - '0')))
            return KF3DS_KFB_ERR_FRAME;
    }
    if (*text == '.') {
        text++;
        if (!digits && !(*text >= '0' && *text <= '9'))
            return KF3DS_KFB_ERR_FRAME;
        for (; *text >= '0' && *text <= '9'; text++, digits++) {
            d = (kf3ds_kfb_u32)(*text - '0');
            if (scale >= f->frame_scale) {
                if (d)
                    return KF3DS_KFB_ERR_FRAME; /* finer than any baked frame */
                continue;
            }
            if (!kf3ds_kfb__digit(&value, d))
                return KF3DS_KFB_ERR_FRAME;
            scale *= 10;
        }
    }
    if (*text || !digits)
        return KF3DS_KFB_ERR_FRAME;
    for (; scale < f->frame_scale; scale *= 10) {
        if (!kf3ds_kfb__digit(&value, 0))
            return KF3DS_KFB_ERR_FRAME;
    }
    if (value > 0x7FFFFFFFUL + (kf3ds_kfb_u32)neg)
        return KF3DS_KFB_ERR_FRAME;
    num = neg ? kf3ds_kfb__signed(0UL - value) : (kf3ds_kfb_s32)value;
    if (num < f->frame_first)
        return KF3DS_KFB_ERR_FRAME;
    rel = (kf3ds_kfb_u32)num - (kf3ds_kfb_u32)f->frame_first; /* < 2^32 */
    rel = kf3ds_kfb__divmod(rel, (kf3ds_kfb_u32)f->frame_step, &d);
    if (d || rel >= f->num_frames)
        return KF3DS_KFB_ERR_FRAME;
    *index = rel;
    return KF3DS_KFB_OK;
}

KF3DS_KFB_DEF int kf3ds_kfb_frame_numerator(const kf3ds_kfb_file *f, kf3ds_kfb_u32 index,
                                            kf3ds_kfb_s32 *numerator)
{
    if (!numerator)
        return KF3DS_KFB_ERR_ARGUMENT;
    *numerator = 0;
    if (!f || index >= f->num_frames)
        return KF3DS_KFB_ERR_ARGUMENT;
    /* in range: checked by kf3ds_kfb_open */
    *numerator = kf3ds_kfb__signed((kf3ds_kfb_u32)f->frame_first +
                                   index * (kf3ds_kfb_u32)f->frame_step);
    return KF3DS_KFB_OK;
}

/* ---- accessors: every output is written, zeros when the call fails ------- */

/* The n numbers at p as fixed point into out; zeros and an error when p is
 * NULL (an argument out of range) or the file holds floats. */
static int kf3ds_kfb__get_fixed(const kf3ds_kfb_file *f, const unsigned char *p, unsigned n,
                                kf3ds_kfb_s32 *out)
{
    int status = !p ? KF3DS_KFB_ERR_ARGUMENT
                    : !(f->flags & KF3DS_KFB_FLAG_FIXED) ? KF3DS_KFB_ERR_FORMAT : KF3DS_KFB_OK;
    unsigned i;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    for (i = 0; i < n; i++)
        out[i] = status == KF3DS_KFB_OK ? kf3ds_kfb__s32(p + 4 * i) : 0;
    return status;
}

static const unsigned char *kf3ds_kfb__frame(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame)
{
    return f->data + f->section[KF3DS_KFB_SECTION_FRAMES][0] + frame * f->frame_stride;
}

/* A node's world matrix at a frame, or NULL. */
static const unsigned char *kf3ds_kfb__world_at(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                                kf3ds_kfb_u32 slot)
{
    if (!f || frame >= f->num_frames || slot >= f->num_nodes)
        return 0;
    return kf3ds_kfb__frame(f, frame) + 48 * slot;
}

/* A channel's values at a frame (the frame's or its constant) and their
 * count, or NULL. */
static const unsigned char *kf3ds_kfb__channel_at(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                                  kf3ds_kfb_u32 channel, unsigned *count)
{
    const unsigned char *p;
    kf3ds_kfb_u32 first;
    *count = 3;
    if (!f || frame >= f->num_frames || channel >= f->num_channels)
        return 0;
    p = f->data + f->section[KF3DS_KFB_SECTION_CHANNELS][0] + channel * KF3DS_KFB_CHANNEL_SIZE;
    first = kf3ds_kfb__u32(p + 8);
    *count = (unsigned)kf3ds_kfb__u16(p + 6);
    if (first == KF3DS_KFB__U32_MAX)
        return p + 12;
    return kf3ds_kfb__frame(f, frame) + 4 * (12 * f->num_nodes + first);
}

/* Element i (n numbers) of a mesh array, or NULL. */
static const unsigned char *kf3ds_kfb__element(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                               const unsigned char *base, kf3ds_kfb_u32 count,
                                               kf3ds_kfb_u32 i, unsigned n)
{
    if (!f || !m || !base || i >= count)
        return 0;
    return base + 4 * n * i;
}

KF3DS_KFB_DEF int kf3ds_kfb_node_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 slot,
                                     kf3ds_kfb_node *out)
{
    const unsigned char *p;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    kf3ds_kfb__zero(out, sizeof *out);
    if (!f || slot >= f->num_nodes)
        return KF3DS_KFB_ERR_ARGUMENT;
    p = f->data + f->section[KF3DS_KFB_SECTION_NODES][0] + slot * KF3DS_KFB_NODE_SIZE;
    out->name = kf3ds_kfb__string(f, p);
    out->instance = kf3ds_kfb__string(f, p + 8);
    out->index = kf3ds_kfb__u32(p + 16);
    out->id = kf3ds_kfb__s32(p + 20);
    out->parent = kf3ds_kfb__s32(p + 24);
    out->parent_slot = kf3ds_kfb__s32(p + 28);
    out->mesh = kf3ds_kfb__s32(p + 32);
    out->type = p[36];
    out->dummy = p[37] & 1;
    return KF3DS_KFB_OK;
}

KF3DS_KFB_DEF int kf3ds_kfb_visible(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                    kf3ds_kfb_u32 slot)
{
    const unsigned char *w;
    if (!f || frame >= f->num_frames || slot >= f->num_nodes)
        return 0;
    w = kf3ds_kfb__frame(f, frame) + 4 * (12 * f->num_nodes + f->num_channel_values) +
        4 * (slot / 32);
    return (int)(kf3ds_kfb__u32(w) >> (slot % 32) & 1u);
}

KF3DS_KFB_DEF int kf3ds_kfb_world_fixed(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                        kf3ds_kfb_u32 slot, kf3ds_kfb_s32 m[12])
{
    return kf3ds_kfb__get_fixed(f, kf3ds_kfb__world_at(f, frame, slot), 12, m);
}

KF3DS_KFB_DEF int kf3ds_kfb_channel_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 channel,
                                        kf3ds_kfb_channel *out)
{
    const unsigned char *p;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    kf3ds_kfb__zero(out, sizeof *out);
    if (!f || channel >= f->num_channels)
        return KF3DS_KFB_ERR_ARGUMENT;
    p = f->data + f->section[KF3DS_KFB_SECTION_CHANNELS][0] + channel * KF3DS_KFB_CHANNEL_SIZE;
    out->node_slot = kf3ds_kfb__u32(p);
    out->kind = (int)kf3ds_kfb__u16(p + 4);
    out->count = (unsigned)kf3ds_kfb__u16(p + 6);
    out->first = kf3ds_kfb__u32(p + 8);
    return KF3DS_KFB_OK;
}

KF3DS_KFB_DEF int kf3ds_kfb_channel_fixed(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                          kf3ds_kfb_u32 channel, kf3ds_kfb_s32 v[3])
{
    unsigned n;
    const unsigned char *p = kf3ds_kfb__channel_at(f, frame, channel, &n);
    int status = kf3ds_kfb__get_fixed(f, p, n, v);
    if (v)
        for (; n < 3; n++)
            v[n] = 0;
    return status;
}

KF3DS_KFB_DEF int kf3ds_kfb_mesh_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 index,
                                     kf3ds_kfb_mesh *out)
{
    const unsigned char *p;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    kf3ds_kfb__zero(out, sizeof *out);
    if (!f || index >= f->num_meshes)
        return KF3DS_KFB_ERR_ARGUMENT;
    p = f->data + f->section[KF3DS_KFB_SECTION_MESHES][0] + index * KF3DS_KFB_MESH_SIZE;
    out->name = kf3ds_kfb__string(f, p);
    out->source = kf3ds_kfb__u32(p + 8);
    out->num_vertices = kf3ds_kfb__u32(p + 12);
    out->num_faces = kf3ds_kfb__u32(p + 16);
    out->num_normals = kf3ds_kfb__u32(p + 20);
    out->num_uvs = kf3ds_kfb__u32(p + 24);
    out->vertices = f->data + kf3ds_kfb__u32(p + 28);
    out->faces = f->data + kf3ds_kfb__u32(p + 32);
    out->normals = f->data + kf3ds_kfb__u32(p + 36);
    out->uvs = out->num_uvs ? f->data + kf3ds_kfb__u32(p + 40) : 0;
    return KF3DS_KFB_OK;
}

KF3DS_KFB_DEF int kf3ds_kfb_vertex_fixed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 v, kf3ds_kfb_s32 out[3])
{
    return kf3ds_kfb__get_fixed(
        f, m ? kf3ds_kfb__element(f, m, m->vertices, m->num_vertices, v, 3) : 0, 3, out);
}

KF3DS_KFB_DEF int kf3ds_kfb_normal_fixed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 n, kf3ds_kfb_s32 out[3])
{
    return kf3ds_kfb__get_fixed(
        f, m ? kf3ds_kfb__element(f, m, m->normals, m->num_normals, n, 3) : 0, 3, out);
}

KF3DS_KFB_DEF int kf3ds_kfb_uv_fixed(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                     kf3ds_kfb_u32 v, kf3ds_kfb_s32 out[2])
{
    return kf3ds_kfb__get_fixed(f, m ? kf3ds_kfb__element(f, m, m->uvs, m->num_uvs, v, 2) : 0,
                                2, out);
}

KF3DS_KFB_DEF int kf3ds_kfb_face_get(const kf3ds_kfb_mesh *m, kf3ds_kfb_u32 face,
                                     kf3ds_kfb_face *out)
{
    const unsigned char *p;
    int k;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    kf3ds_kfb__zero(out, sizeof *out);
    if (!m || !m->faces || face >= m->num_faces)
        return KF3DS_KFB_ERR_ARGUMENT;
    p = m->faces + face * KF3DS_KFB_FACE_SIZE;
    for (k = 0; k < 3; k++) {
        out->v[k] = (unsigned)kf3ds_kfb__u16(p + 2 * k);
        out->n[k] = kf3ds_kfb__u32(p + 16 + 4 * k);
    }
    out->material = (unsigned)kf3ds_kfb__u16(p + 6);
    out->flags = (unsigned)kf3ds_kfb__u16(p + 8);
    out->smoothing = kf3ds_kfb__u32(p + 12);
    return KF3DS_KFB_OK;
}

KF3DS_KFB_DEF int kf3ds_kfb_material_get(const kf3ds_kfb_file *f, kf3ds_kfb_u32 index,
                                         kf3ds_kfb_material *out)
{
    const unsigned char *p;
    int k;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    kf3ds_kfb__zero(out, sizeof *out);
    if (!f || index >= f->num_materials)
        return KF3DS_KFB_ERR_ARGUMENT;
    p = f->data + f->section[KF3DS_KFB_SECTION_MATERIALS][0] + index * KF3DS_KFB_MATERIAL_SIZE;
    out->name = kf3ds_kfb__string(f, p);
    out->texture = kf3ds_kfb__string(f, p + 8);
    for (k = 0; k < 3; k++) {
        out->ambient[k] = p[16 + k];
        out->diffuse[k] = p[19 + k];
        out->specular[k] = p[22 + k];
    }
    out->shininess = p[25];
    out->transparency = p[26];
    out->shading = p[27];
    out->flags = p[28];
    return KF3DS_KFB_OK;
}

/* ---- fixed-point arithmetic ------------------------------------------------
 * 64-bit two's complement values as two 32-bit halves: C89 has no 64-bit
 * type, and a 68000 multiplies 16 × 16 bits anyway. */

typedef struct kf3ds_kfb__wide {
    kf3ds_kfb_u32 hi, lo;
} kf3ds_kfb__wide;

static void kf3ds_kfb__add(kf3ds_kfb__wide *a, kf3ds_kfb_u32 hi, kf3ds_kfb_u32 lo)
{
    kf3ds_kfb_u32 s = a->lo + lo;
    a->hi += hi + (s < lo);
    a->lo = s;
}

/* a·b exactly. */
static void kf3ds_kfb__mul_add(kf3ds_kfb__wide *acc, kf3ds_kfb_s32 a, kf3ds_kfb_s32 b)
{
    kf3ds_kfb_u32 ua = a < 0 ? 0UL - (kf3ds_kfb_u32)a : (kf3ds_kfb_u32)a;
    kf3ds_kfb_u32 ub = b < 0 ? 0UL - (kf3ds_kfb_u32)b : (kf3ds_kfb_u32)b;
    kf3ds_kfb_u32 a0 = ua & 0xFFFFu, a1 = ua >> 16, b0 = ub & 0xFFFFu, b1 = ub >> 16;
    kf3ds_kfb_u32 lo = a0 * b0, mid1 = a0 * b1, mid2 = a1 * b0, hi = a1 * b1, mid, t;
    mid = mid1 + mid2;
    hi += (kf3ds_kfb_u32)(mid < mid1) << 16;
    hi += mid >> 16;
    t = lo + (mid << 16);
    hi += t < lo;
    lo = t;
    if ((a < 0) != (b < 0)) { /* negate */
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
    }
    kf3ds_kfb__add(acc, hi, lo);
}

/* round(acc / 2^n), halves up, saturated to 32 bits. */
static kf3ds_kfb_s32 kf3ds_kfb__round(kf3ds_kfb__wide acc, unsigned n)
{
    kf3ds_kfb_u32 neg;
    if (n) {
        kf3ds_kfb__add(&acc, 0, (kf3ds_kfb_u32)1 << (n - 1));
        neg = acc.hi & 0x80000000UL;
        acc.lo = acc.lo >> n | acc.hi << (32 - n);
        acc.hi = acc.hi >> n | (neg ? ~(KF3DS_KFB__U32_MAX >> n) : 0);
    }
    neg = acc.hi & 0x80000000UL;
    if (acc.hi != (acc.lo & 0x80000000UL ? KF3DS_KFB__U32_MAX : 0))
        return neg ? -0x7FFFFFFF - 1 : 0x7FFFFFFF;
    return kf3ds_kfb__signed(acc.lo);
}

KF3DS_KFB_DEF kf3ds_kfb_s32 kf3ds_kfb_fixed_mul(kf3ds_kfb_s32 a, kf3ds_kfb_s32 b,
                                                unsigned frac_bits)
{
    kf3ds_kfb__wide acc;
    acc.hi = acc.lo = 0;
    kf3ds_kfb__mul_add(&acc, a, b);
    return kf3ds_kfb__round(acc, frac_bits > KF3DS_KFB__MAX_FRAC_BITS ? KF3DS_KFB__MAX_FRAC_BITS
                                                                      : frac_bits);
}

KF3DS_KFB_DEF void kf3ds_kfb_fixed_transform(const kf3ds_kfb_s32 m[12], const kf3ds_kfb_s32 v[3],
                                             unsigned frac_bits, kf3ds_kfb_s32 out[3])
{
    unsigned n = frac_bits > KF3DS_KFB__MAX_FRAC_BITS ? KF3DS_KFB__MAX_FRAC_BITS : frac_bits;
    int r;
    for (r = 0; r < 3; r++) {
        const kf3ds_kfb_s32 *row = m + 4 * r;
        kf3ds_kfb__wide acc;
        kf3ds_kfb_u32 t = (kf3ds_kfb_u32)row[3];
        /* the translation, sign-extended and shifted up by n */
        acc.hi = row[3] < 0 ? KF3DS_KFB__U32_MAX : 0;
        acc.lo = t;
        if (n) {
            acc.hi = acc.hi << n | t >> (32 - n);
            acc.lo = t << n;
        }
        kf3ds_kfb__mul_add(&acc, row[0], v[0]);
        kf3ds_kfb__mul_add(&acc, row[1], v[1]);
        kf3ds_kfb__mul_add(&acc, row[2], v[2]);
        out[r] = kf3ds_kfb__round(acc, n);
    }
}

/* ---- floating point -------------------------------------------------------- */
#ifndef KF3DS_KFB_NO_FLOAT

/* The n numbers at p as floats (converted from fixed point when need be);
 * zeros and an error when p is NULL. */
static int kf3ds_kfb__get_float(const kf3ds_kfb_file *f, const unsigned char *p, unsigned n,
                                float *out)
{
    unsigned i;
    if (!out)
        return KF3DS_KFB_ERR_ARGUMENT;
    for (i = 0; i < n; i++) {
        union {
            kf3ds_kfb_u32 u;
            float f;
        } bits;
        if (!p) {
            out[i] = 0.0f;
        } else if (f->flags & KF3DS_KFB_FLAG_FIXED) {
            out[i] = (float)kf3ds_kfb__s32(p + 4 * i) /
                     (float)((kf3ds_kfb_u32)1 << f->frac_bits); /* exact: a power of two */
        } else {
            bits.u = kf3ds_kfb__u32(p + 4 * i);
            out[i] = bits.f;
        }
    }
    return p ? KF3DS_KFB_OK : KF3DS_KFB_ERR_ARGUMENT;
}

KF3DS_KFB_DEF int kf3ds_kfb_world_float(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                        kf3ds_kfb_u32 slot, float m[12])
{
    return kf3ds_kfb__get_float(f, kf3ds_kfb__world_at(f, frame, slot), 12, m);
}

KF3DS_KFB_DEF int kf3ds_kfb_channel_float(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame,
                                          kf3ds_kfb_u32 channel, float v[3])
{
    unsigned n;
    const unsigned char *p = kf3ds_kfb__channel_at(f, frame, channel, &n);
    int status = kf3ds_kfb__get_float(f, p, n, v);
    if (v)
        for (; n < 3; n++)
            v[n] = 0.0f;
    return status;
}

KF3DS_KFB_DEF int kf3ds_kfb_vertex_float(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 v, float out[3])
{
    return kf3ds_kfb__get_float(
        f, m ? kf3ds_kfb__element(f, m, m->vertices, m->num_vertices, v, 3) : 0, 3, out);
}

KF3DS_KFB_DEF int kf3ds_kfb_normal_float(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                         kf3ds_kfb_u32 n, float out[3])
{
    return kf3ds_kfb__get_float(
        f, m ? kf3ds_kfb__element(f, m, m->normals, m->num_normals, n, 3) : 0, 3, out);
}

KF3DS_KFB_DEF int kf3ds_kfb_uv_float(const kf3ds_kfb_file *f, const kf3ds_kfb_mesh *m,
                                     kf3ds_kfb_u32 v, float out[2])
{
    return kf3ds_kfb__get_float(f, m ? kf3ds_kfb__element(f, m, m->uvs, m->num_uvs, v, 2) : 0,
                                2, out);
}

KF3DS_KFB_DEF void kf3ds_kfb_float_transform(const float m[12], const float v[3], float out[3])
{
    int r;
    for (r = 0; r < 3; r++)
        out[r] = m[4 * r] * v[0] + m[4 * r + 1] * v[1] + m[4 * r + 2] * v[2] + m[4 * r + 3];
}

#endif /* KF3DS_KFB_NO_FLOAT */
#endif /* KF3DS_KFB_IMPLEMENTED */
#endif /* KF3DS_KFB_IMPLEMENTATION */
