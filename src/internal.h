/* Internal to the library: the load context, the arena, diagnostics, math. */
#ifndef KF3DS_INTERNAL_H
#define KF3DS_INTERNAL_H
#include "kf3ds.h"
#include <math.h>
#include <stdarg.h>

/* Every allocation of a scene comes from this arena; kf3ds_scene_free releases the
 * block list in one walk. Blocks come from the caller's allocator. */
typedef struct kf3ds__block {
    struct kf3ds__block *next;
    size_t size, used;
} kf3ds__block;

typedef struct kf3ds__owner {
    kf3ds_allocator allocator;
    kf3ds__block *blocks;
    size_t total;           /* bytes obtained from the allocator */
} kf3ds__owner;

typedef struct kf3ds__ctx {
    kf3ds_scene *scene;
    kf3ds__owner *owner;
    kf3ds_limits limits;
    const unsigned char *data;
    size_t size;
    kf3ds_diag first_error;
    uint32_t diags_cap;
    int out_of_memory;
    int pass;               /* 0: counting (silent), 1: filling */
    /* Array sizes found by the counting pass; the filling pass never exceeds them. */
    uint32_t cap_meshes, cap_materials, cap_cameras, cap_lights, cap_nodes;
} kf3ds__ctx;

/* A tiny vsnprintf subset (%s %c %d %u %ld %lu %x %X with width/zero flags),
 * so that the core needs nothing from stdio. */
void kf3ds__format(char *out, size_t cap, const char *fmt, va_list ap);

kf3ds_allocator kf3ds__default_allocator(void); /* alloc_default.c */
void *kf3ds__alloc(kf3ds__ctx *ctx, size_t size);            /* zeroed; NULL on failure */
void *kf3ds__alloc_array(kf3ds__ctx *ctx, size_t n, size_t size);
const char *kf3ds__strdup(kf3ds__ctx *ctx, const char *s, size_t len);
void kf3ds__diag(kf3ds__ctx *ctx, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Sub-chunk iteration for the readers: like kf3ds_chunk_next, and in the
 * filling pass it records overruns, stray bytes and bad lengths. Returns 1
 * when a chunk was read. */
int kf3ds__next_chunk(kf3ds__ctx *ctx, kf3ds_reader *parent, uint16_t parent_id,
                      kf3ds_chunk *chunk, kf3ds_reader *body);
/* Records a truncation error when `r` ran short while reading `chunk`. */
int kf3ds__check_short(kf3ds__ctx *ctx, const kf3ds_reader *r, const kf3ds_chunk *chunk);
void *kf3ds__alloc_raw(kf3ds__ctx *ctx, size_t n, size_t size); /* not zeroed */

/* A zero-terminated name; without a terminator it runs to the chunk end (warning). */
const char *kf3ds__read_name(kf3ds__ctx *ctx, kf3ds_reader *r, const kf3ds_chunk *c);

/* Numbers that cannot explode (docs/robustness.md). Every float read from a
 * file is finite and at most KF3DS__MAX_VALUE in magnitude after loading
 * (NaN and infinities replaced, huge values clamped, with a KF3DS_WARN_VALUE
 * naming the chunk); spline parameters (tension, continuity, bias, ease) at
 * most KF3DS__MAX_SPLINE. Evaluation clamps world and mesh matrices to
 * KF3DS__MAX_WORLD, so that matrices, and vertices placed with them, stay
 * finite at every finite frame. */
#define KF3DS__MAX_VALUE 1e18f
#define KF3DS__MAX_SPLINE 1e3f
#define KF3DS__MAX_WORLD 1e18f

/* 1 when every v[i] is finite and within ±limit (the fast path of the checks). */
static inline int kf3ds__in_range(const float *v, size_t n, float limit)
{
    size_t i;
    int ok = 1;
    for (i = 0; i < n; i++)
        ok &= fabsf(v[i]) <= limit;
    return ok;
}

/* Replaces non-finite values of v[0..n) with `fallback` and clamps the others
 * to ±limit; counts what it changed into *bad (non-finite) and *big (clamped). */
void kf3ds__clean_floats(float *v, size_t n, float fallback, float limit, uint32_t *bad,
                         uint32_t *big);
/* The same, then one KF3DS_WARN_VALUE for the chunk when something changed
 * (`what` names the values, e.g. "points of mesh 'Box'"). Returns 1 then. */
int kf3ds__sanitize(kf3ds__ctx *ctx, float *v, size_t n, float fallback, float limit,
                    uint32_t offset, uint16_t chunk_id, const char *what);
/* Warns about values changed by kf3ds__clean_floats (counts from it). */
void kf3ds__warn_cleaned(kf3ds__ctx *ctx, uint32_t bad, uint32_t big, uint32_t offset,
                         uint16_t chunk_id, const char *what);

/* Readers of the two sections (read_editor.c, read_keyframer.c). */
void kf3ds__read_mdata(kf3ds__ctx *ctx, const kf3ds_reader *mdata_body);
void kf3ds__read_kfdata(kf3ds__ctx *ctx, const kf3ds_reader *kfdata_body);
void kf3ds__count_kfdata(kf3ds__ctx *ctx, const kf3ds_reader *kfdata_body);
void kf3ds__finish_keyframer(kf3ds__ctx *ctx);
void kf3ds__finish_editor(kf3ds__ctx *ctx);
int kf3ds__allocate_scene_arrays(kf3ds__ctx *ctx);

/* Track setup (track.c): sort, accumulate rotations, tangents. */
void kf3ds__track_setup(kf3ds__ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                        uint32_t offset, uint16_t chunk_id);

/* The tracks a node type evaluates, as bits 1 << kind (eval.c). */
unsigned kf3ds__node_type_tracks(kf3ds_node_type type);
/* out = a·b for affine matrices (bottom rows 0 0 0 1); out may alias. */
void kf3ds__mat4_mul_affine(const kf3ds_mat4 *a, const kf3ds_mat4 *b, kf3ds_mat4 *out);

/* The view of a 3DS camera at pos looking at tgt with roll (degrees), as
 * lib3ds sets it up (eval.c): world → camera, x right, y up, looking down −z.
 * rows gets the three camera axes (right, up, −forward) in world space.
 * Returns 0 when pos and tgt coincide (the matrix is then not a rotation). */
int kf3ds__look_at(const double pos[3], const double tgt[3], double roll_degrees,
                   kf3ds_mat4 *view, double rows[3][3]);

/* Math (kmath.c). Quaternions x, y, z, w. */
void kf3ds__quat_identity(float q[4]);
void kf3ds__quat_axis_angle(float q[4], const float axis[3], float angle);
void kf3ds__quat_mul(const float a[4], const float b[4], float out[4]); /* a ⊗ b */
void kf3ds__quat_inv(const float q[4], float out[4]);
void kf3ds__quat_ln(float q[4]);
void kf3ds__quat_exp(float q[4]);
float kf3ds__mat4_det3(const kf3ds_mat4 *m);


static inline float kf3ds__quat_dot(const float a[4], const float b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* sin and cos of x for |x| <= π (a little beyond is fine): Taylor
 * polynomials on [0, π/2] after folding, within 2.1e-7 of the true values
 * (tests/test_track.c). Branch-free and inline,
 * so that the squad batch (track_eval.h) vectorises; the rotation code uses
 * these everywhere so that batched and one-shot evaluations agree bit for bit. */
static inline void kf3ds__sincos_pi(float x, float *s, float *c)
{
    float ax = x < 0.0f ? -x : x;
    float far = ax > 1.57079632679f ? 1.0f : 0.0f;
    float r = far != 0.0f ? 3.14159265359f - ax : ax;
    float r2 = r * r;
    float sp = r * (1.0f + r2 * (-1.66666667e-1f + r2 * (8.33333333e-3f + r2 * (-1.98412698e-4f +
                                  r2 * (2.75573192e-6f + r2 * -2.50521084e-8f)))));
    float cp = 1.0f + r2 * (-0.5f + r2 * (4.16666667e-2f + r2 * (-1.38888889e-3f +
                           r2 * (2.48015873e-5f + r2 * (-2.75573192e-7f + r2 * 2.08767570e-9f)))));
    *s = x < 0.0f ? -sp : sp;
    *c = far != 0.0f ? -cp : cp;
}

/* acos(x) for x in [-1, 1]: sqrt(1 - |x|)·P(|x|), P of degree 7 (Abramowitz
 * and Stegun 4.4.46, error 2e-8 in exact arithmetic), reflected for negative
 * x; within 4.4e-7 in float, two ulps of π. */
static inline float kf3ds__acos(float x)
{
    float ax = x < 0.0f ? -x : x;
    float p = 1.5707963050f + ax * (-0.2145988016f + ax * (0.0889789874f + ax * (-0.0501743046f +
              ax * (0.0308918810f + ax * (-0.0170881256f + ax * (0.0066700901f +
              ax * -0.0012624911f))))));
    float r = sqrtf(1.0f - ax) * p;
    return x < 0.0f ? 3.14159265359f - r : r;
}

/* The weights (sp, sq) of lib3ds 1.3's slerp, sp·a + sq·b, for inputs with
 * dot product l, -1 < l: sq = sin(tω)/sin ω, sp = cos(tω) − cos ω·sq, and
 * linear weights when sin ω is tiny. */
static inline void kf3ds__slerp_weights(float l, float t, float *sp, float *sq)
{
    float lc = l > 1.0f ? 1.0f : l < -1.0f ? -1.0f : l;
    float om = kf3ds__acos(lc), s, c;
    float sinom = sqrtf((1.0f - lc) * (1.0f + lc));
    int tiny = !(sinom > 1e-6f);
    kf3ds__sincos_pi(t * om, &s, &c);
    *sq = tiny ? t : s / (tiny ? 1.0f : sinom);
    *sp = tiny ? 1.0f - t : c - lc * *sq;
}

/* lib3ds 1.3's slerp: no short-arc flip; nearly opposite inputs
 * (1 + a·b <= 1e-8) turn through a perpendicular quaternion. */
static inline void kf3ds__quat_slerp(const float a[4], const float b[4], float t, float out[4])
{
    float l = kf3ds__quat_dot(a, b), sp, sq;
    int i;
    if (1.0f + l > 1e-8f) {
        kf3ds__slerp_weights(l, t, &sp, &sq);
        for (i = 0; i < 4; i++)
            out[i] = sp * a[i] + sq * b[i];
    } else {
        float flip[4];
        flip[0] = -a[1];
        flip[1] = a[0];
        flip[2] = -a[3];
        flip[3] = a[2];
        sp = sinf((1.0f - t) * 1.5707963f);
        sq = sinf(t * 1.5707963f);
        for (i = 0; i < 4; i++)
            out[i] = sp * a[i] + sq * flip[i];
    }
}

#endif
