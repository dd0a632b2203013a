/* Track evaluation, inline: eval.c calls it for every animated track of
 * every node of every frame with the kind known, and the compiler
 * specialises it per kind; the public kf3ds_track_eval (track_eval.c) is its
 * out-of-line entry. It reads the per-segment records and the frame index of
 * track_segments.h through a track view. */
#ifndef KF3DS_TRACK_EVAL_H
#define KF3DS_TRACK_EVAL_H
#include "kmath.h"
#include "track_segments.h"
#include <math.h>
#include <string.h>

/* ---- track views ---------------------------------------------------------
 * What evaluating one track reads, in two parts. The view (24 bytes) is
 * what an evaluation on the hint reads: the evaluation plan (eval_plan.h)
 * holds one per animated track, next to its node's other tracks, so that a
 * node's evaluation reads its plan sequentially. Its cold part, read only
 * by an evaluation off the hint (or a looped, held or NaN one), lives
 * apart, so that a frame's plan is smaller (docs/performance.md,
 * "Evaluation", "Short views"). The cold part
 * has the first and last frames copied in: every evaluation off the hint
 * compares with both. */
typedef struct kf3ds__view_cold {
    const int32_t *frames; /* packed key frames (and the frame index) */
    const kf3ds_key *keys; /* the values held before the first and after the last key */
    int32_t first, last;   /* frames[0], frames[num_keys - 1] */
    uint32_t num_keys;
} kf3ds__view_cold;

typedef struct kf3ds__track_view {
    const float *seg;      /* segment records; NULL: keys held (HIDE, MORPH) */
    const kf3ds__view_cold *cold; /* read off the hint only */
    uint32_t hint_segs;    /* num_keys - 1, or 0 for a view that loops or holds
                            * its keys: the hints an evaluation may try before
                            * anything else (view_find) */
    uint8_t kind;          /* kf3ds_track_kind */
    uint8_t bits;          /* VIEW_LOOPED, VIEW_EASED */
    uint8_t record_bytes;  /* bytes per record (at most 128): the prefetch's step */
    uint8_t index_shift;   /* the frame index's shift, SEG_NO_INDEX: none */
} kf3ds__track_view;

#define VIEW_LOOPED 1 /* the loop bits ask for time to wrap */
#define VIEW_EASED 2  /* the records carry ease constants */
#define VIEW_HELD 4   /* no records (seg NULL): the keys are held */

/* The view of a track set up by the loader (t->frames_ set, keys), evaluated as
 * `kind`. Records of another layout (a rotation track evaluated as a
 * position, a field of view as a colour...) would be misread: the keys are
 * then held without interpolation. */
static inline void kf3ds__view_of(const kf3ds_track *t, kf3ds_track_kind kind,
                                  kf3ds__track_view *v, kf3ds__view_cold *c)
{
    int32_t header = 0;
    v->seg = t->segments_;
    v->cold = c;
    c->frames = t->frames_;
    c->keys = t->keys;
    c->first = t->frames_[0];
    c->last = t->frames_[t->num_keys - 1];
    c->num_keys = t->num_keys;
    v->kind = (uint8_t)kind;
    v->bits = (t->flags & KF3DS_TRACK_LOOP_MASK) && t->num_keys >= 2 ? VIEW_LOOPED : 0;
    v->index_shift = SEG_NO_INDEX;
    v->record_bytes = (uint8_t)(kf3ds__seg_stride(kind, 0) * sizeof(float));
    if (v->seg) {
        int32_t own;
        memcpy(&header, v->seg - 1, sizeof header);
        own = header & 0xFF;
        v->index_shift = (uint8_t)((header >> 16) & 0xFF);
        if ((unsigned)own >= KF3DS_TRACK_COUNT || own == KF3DS_TRACK_HIDE ||
            own == KF3DS_TRACK_MORPH || kind == KF3DS_TRACK_HIDE || kind == KF3DS_TRACK_MORPH ||
            kf3ds__seg_layout((kf3ds_track_kind)own) != kf3ds__seg_layout(kind)) {
            v->seg = NULL;
        } else if (header & SEG_HEADER_EASED) {
            v->bits |= VIEW_EASED;
            v->record_bytes = (uint8_t)(kf3ds__seg_stride(kind, 1) * sizeof(float));
        }
    }
    if (!v->seg)
        v->bits |= VIEW_HELD;
    v->hint_segs = v->bits & (VIEW_LOOPED | VIEW_HELD) ? 0 : t->num_keys - 1;
}

/* ---- where time falls ----------------------------------------------------- */

/* Maps time into the track's period when its loop bits ask for it, and
 * holds the first key at a NaN time (docs/evaluation.md, "Where time falls").
 * maybe_nan 0 says time is not NaN: kf3ds_scene_eval tests its frame once
 * instead of every track testing it (docs/performance.md, "Evaluation"). */
static inline double view_time(const kf3ds__track_view *v, double time, int maybe_nan)
{
    if (v->bits & VIEW_LOOPED) {
        double first = v->cold->first;
        double period = (double)v->cold->last - first;
        if (period > 0.0 && isfinite(time)) {
            double r = fmod(time - first, period);
            if (r < 0.0)
                r += period;
            return first + r;
        }
    }
    if (maybe_nan && time != time)
        return (double)v->cold->first;
    return time;
}

/* lo + the number of frames[lo .. lo+len) at or before t (sorted): a
 * branchless binary search (the branchy one mispredicted on every other step). */
static inline uint32_t count_in(const int32_t *frames, uint32_t lo, uint32_t len, double t)
{
    const int32_t *base = frames + lo;
    if (!len)
        return lo;
    while (len > 1) {
        uint32_t half = len / 2;
        base = (double)base[half] <= t ? base + half : base;
        len -= half;
    }
    return (uint32_t)(base - frames) + ((double)*base <= t);
}

/* Number of keys at or before t (not NaN): before the first and after the
 * last key at once (tracks often end before the animation does), else
 * through the frame index or a binary search. */
static inline uint32_t view_search(const kf3ds__track_view *v, double t)
{
    uint32_t n = v->cold->num_keys;
    if (!((double)v->cold->first <= t))
        return 0;
    if ((double)v->cold->last <= t)
        return n;
    if (v->index_shift != SEG_NO_INDEX) {
        /* first <= t < last: the frame t is in, an int32 (floor(t)
         * without the library call) */
        const uint16_t *index = (const uint16_t *)(v->cold->frames + n);
        int32_t f = (int32_t)t;
        uint32_t b;
        f -= (double)f > t;
        b = ((uint32_t)f - (uint32_t)v->cold->first) >> v->index_shift;
        return count_in(v->cold->frames, index[b], (uint32_t)index[b + 1] - index[b], t);
    }
    return count_in(v->cold->frames, 0, n, t);
}

/* The segment search, trying the hinted segment and the one after it first:
 * during playback that is nearly always where t is, and the records carry
 * their frames, so the packed frames are only read when the hint misses.
 * The hint is untrusted (it lives in the caller's poses): checked before use.
 * Returns the number of keys at or before t. */
static inline uint32_t view_count(const kf3ds__track_view *v, double t, uint32_t *hint)
{
    uint32_t n = v->cold->num_keys, h = *hint, i, count;
    for (i = 0; i < 2; i++, h++) {
        const int32_t *frames = v->cold->frames;
        if (h < n - 1 && (double)frames[h] <= t && t < (double)frames[h + 1]) {
            *hint = h;
            return h + 1;
        }
    }
    count = view_search(v, t);
    *hint = count ? count - 1 : 0;
    return count;
}

static inline const float *view_record(const kf3ds__track_view *v, uint32_t k)
{
    return (const float *)(const void *)((const char *)v->seg + (size_t)k * v->record_bytes);
}

/* Segment h's record when t is in it (h checked against segs, the
 * track's segments: hints are untrusted), with its frames in f[]; else
 * NULL. */
static inline const float *segment_at(const kf3ds__track_view *v, uint32_t segs, uint32_t h,
                                      double t, double f[2])
{
    const float *rec;
    double f0, f1;
    if (!(h < segs))
        return NULL;
    rec = view_record(v, h);
    f0 = seg_frame(rec, 0);
    f1 = seg_frame(rec, 1);
    if (!(f0 <= t && t < f1))
        return NULL;
    f[0] = f0;
    f[1] = f1;
    return rec;
}

/* The same for a track with records: the record of the segment t is in, or
 * NULL when t is before the first key or at or after the last (*count then
 * says which: 0, or num_keys); segs: its segments; hint_tried: the hint's
 * segment was tried with t already. With a record, f[] gets its two frames: the
 * hint's test has them already, and the stores to *hint would otherwise make
 * the compiler read and convert them again (docs/performance.md,
 * "Evaluation": bench-lights). Always inlined, as view_vector is. */
static KF3DS__ALWAYS_INLINE const float *view_segment(const kf3ds__track_view *v, uint32_t segs,
                                                       int hint_tried, double t, uint32_t *hint,
                                                       uint32_t *count, double f[2])
{
    uint32_t h = *hint, c;
    const float *rec;
    if (!hint_tried && (rec = segment_at(v, segs, h, t, f))) { /* the hint stays */
        *count = h + 1;
        return rec;
    }
    if ((rec = segment_at(v, segs, h + 1, t, f))) {
        *hint = h + 1;
        *count = h + 2;
        return rec;
    }
    c = view_search(v, t);
    *hint = c ? c - 1 : 0;
    *count = c;
    if (c == 0 || c > segs)
        return NULL;
    rec = view_record(v, c - 1);
    f[0] = seg_frame(rec, 0);
    f[1] = seg_frame(rec, 1);
    return rec;
}

/* The record of the segment `frame` is in, its time mapped as view_time
 * maps it (into *t), or NULL with *count the keys at or before it. A view
 * that neither loops nor holds its keys, nearly every one, is first tried
 * on its hint, whose test against hint_segs (0 for the others) is also the
 * test of the kind of view (docs/performance.md, "Evaluation":
 * bench-lights); a NaN frame fails the frames' test. */
static KF3DS__ALWAYS_INLINE const float *view_find(const kf3ds__track_view *v, double frame,
                                                    int maybe_nan, uint32_t *hint, double *t,
                                                    uint32_t *count, double f[2])
{
    uint32_t h = *hint;
    const float *rec;
    if ((rec = segment_at(v, v->hint_segs, h, frame, f))) { /* the hint stays */
        *t = frame;
        *count = h + 1;
        return rec;
    }
    if (v->bits & (VIEW_LOOPED | VIEW_HELD)) {
        *t = view_time(v, frame, maybe_nan);
        if (v->bits & VIEW_HELD) {
            *count = view_count(v, *t, hint);
            return NULL;
        }
        return view_segment(v, v->cold->num_keys - 1, 0, *t, hint, count, f);
    }
    if (maybe_nan && frame != frame) {
        *t = (double)v->cold->first;
        return view_segment(v, v->hint_segs, 0, *t, hint, count, f);
    }
    *t = frame; /* (the hint was tried with it) */
    return view_segment(v, v->hint_segs, 1, frame, hint, count, f);
}

/* ---- interpolation -------------------------------------------------------- */

/* Ease from the segment's constants (track_segments.h), branch-free: the
 * same float operations as the formula, so the same bits. A segment that
 * does not ease has constants whose middle piece is u itself, so there is
 * no test of whether it eases (docs/performance.md, "Evaluation"). */
static inline float ease_apply(float u, const float *rec, const float *block)
{
    float v = 1.0f - u;
    float in = block[1] * u * u;
    float out = 1.0f - block[2] * v * v;
    float mid = block[0] * (2.0f * u - rec[2]);
    return u < rec[2] ? in : u >= rec[3] ? out : mid;
}

/* The same for a vector record, which holds e_f and e_t instead of the
 * constants (track_segments.h): a = 1/(2 − e_f − e_t), t_out = 1 − e_t (+∞
 * when e_t <= 0) and a/e_f or a/e_t, whichever piece u is in needs, in the
 * float operations of the load's ease_constants, so the same bits. One
 * division fewer than working out both: the piece is known first. The
 * record is then one cache line instead of two (docs/performance.md,
 * "Evaluation": bench-lights). */
static inline float ease_apply_vector(float u, const float *rec)
{
    float ef = rec[2], et = rec[3];
    float a = 1.0f / (2.0f - (ef + et));
    int below = u < ef, above = et > 0.0f && u >= 1.0f - et;
    float w = below ? u : 1.0f - u;
    /* (a/e_f)·u·u or (a/e_t)·(1−u)·(1−u); a division by e_t <= 0 when
     * neither piece applies gives a value that is not used */
    float q = a / (below ? ef : et) * w * w;
    float mid = a * (2.0f * u - ef);
    return below ? q : above ? 1.0f - q : mid;
}

/* What the view_ functions take for the flags of kf3ds_track_eval and
 * kf3ds_scene_eval: the view bit that asks for ease, or 0 when the flags say
 * to ignore it, so that a track tests one bit (docs/performance.md, "Evaluation"). */
static inline unsigned view_ease(unsigned flags)
{
    return flags & KF3DS_EVAL_NO_EASE ? 0u : VIEW_EASED;
}

/* The segment parameter of t in record rec, whose frames are f[], eased
 * when ease (view_ease) and the view ask for it; ease_at is where the record's ease block starts
 * (SEG_EASE_VECTOR, _SCALAR or _ROTATION: each caller knows which, so it is
 * not worked out from the view's kind per track). */
static inline float view_u(const kf3ds__track_view *v, const float *rec, const double f[2],
                           double t, unsigned ease, int ease_at)
{
    float u = (float)((t - f[0]) / (f[1] - f[0]));
    if ((v->bits & ease) && ease_at == SEG_EASE_VECTOR)
        u = ease_apply_vector(u, rec);
    else if (v->bits & ease)
        u = ease_apply(u, rec, rec + ease_at);
    return u;
}

/* The weights of slerp(a, b, t) from the constants of slerp_constants
 * (track_setup.c): ω, cos ω and 1/sin ω, which is < 0 for linear weights (nearly
 * equal inputs). Same operations as kf3ds__slerp_weights, with ω known. */
static inline void fixed_weights(const float c[3], float t, float *sp, float *sq)
{
    float s, co;
    kf3ds__sincos_pi(t * c[0], &s, &co);
    *sq = c[2] < 0.0f ? t : s * c[2];
    *sp = c[2] < 0.0f ? 1.0f - t : co - c[1] * *sq;
}

/* Whether those constants are usable: 1/sin ω = 0 (nearly opposite inputs)
 * asks for the general routine. */
static inline int fixed_usable(const float c[3])
{
    return c[2] > 0.0f || c[2] < 0.0f;
}

/* slerp(a, b, t) with those constants, or the general routine. */
static inline void slerp_fixed(const float a[4], const float b[4], const float c[3], float t,
                               float out[4])
{
    float sp, sq;
    int i;
    if (!fixed_usable(c)) {
        kf3ds__quat_slerp(a, b, t, out);
        return;
    }
    fixed_weights(c, t, &sp, &sq);
    for (i = 0; i < 4; i++)
        out[i] = sp * a[i] + sq * b[i];
}

/* ---- batched squad ------------------------------------------------------
 * squad is a long chain of dependent operations (two slerps, a dot product,
 * acos, sin/cos, a third slerp). Evaluating it for one node at a time leaves
 * the CPU waiting on that chain; kf3ds_scene_eval instead collects the
 * rotation segments of up to KF3DS__SQUAD_LANES nodes and runs them together
 * in one loop over lanes, which overlaps the chains and vectorises. Each lane
 * does exactly the operations of the one-at-a-time path (slerp_fixed and
 * kf3ds__quat_slerp), so both give the same bits. */
#define KF3DS__SQUAD_LANES 8

typedef struct kf3ds__squad_batch {
    unsigned n;
    float u[KF3DS__SQUAD_LANES];
    const float *seg[KF3DS__SQUAD_LANES]; /* the lanes' rotation records */
    float *out[KF3DS__SQUAD_LANES];
} kf3ds__squad_batch;

/* The batch's loop reads its inputs component-major: key[k][lane] the
 * components of Q_k, Q_k+1, A_k, B_k+1 (record floats 4..19), con[k][lane]
 * record floats 20..27 (both fixed slerps' constants: 20..22 and 25..27).
 * Copying them float by float costs a load and a store each; the vector
 * build transposes four lanes at a time (kf3ds__squad_gather4, chosen
 * below) and copies the rest float by float. */
#include "simd.h"
#if defined(KF3DS__GNUC_VECTORS)
#include "track_eval_lanes_vector.h"
#else
#include "track_eval_lanes_plain.h"
#endif

static inline void squad_batch_gather(const kf3ds__squad_batch *b,
                                      float key[16][KF3DS__SQUAD_LANES],
                                      float con[8][KF3DS__SQUAD_LANES])
{
    unsigned i = kf3ds__squad_gather4(b->seg, b->n, key, con), k;
    for (; i < b->n; i++) {
        for (k = 0; k < 16; k++)
            key[k][i] = b->seg[i][4 + k];
        for (k = 0; k < 8; k++)
            con[k][i] = b->seg[i][20 + k];
    }
}

/* clang's cost model declines this loop, though vectorised it is faster
 * (docs/performance.md, "Evaluation"). Where it
 * cannot be vectorised (without -fno-math-errno, or at -O1) clang would warn
 * that the request failed; that warning is off for this file. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#define KF3DS__VECTORIZE _Pragma("clang loop vectorize(enable)")
#else
#define KF3DS__VECTORIZE
#endif

static inline void squad_batch_run(kf3ds__squad_batch *b)
{
    float p[8][KF3DS__SQUAD_LANES], r[4][KF3DS__SQUAD_LANES], l[KF3DS__SQUAD_LANES];
    float key[16][KF3DS__SQUAD_LANES], con[8][KF3DS__SQUAD_LANES];
    unsigned i, k, n = b->n;
    squad_batch_gather(b, key, con);
    KF3DS__VECTORIZE
    for (i = 0; i < n; i++) {
        float u = b->u[i], sp0, sq0, sp1, sq1, sp, sq, c0[3], c1[3];
        for (k = 0; k < 3; k++) {
            c0[k] = con[k][i];
            c1[k] = con[5 + k][i];
        }
        fixed_weights(c0, u, &sp0, &sq0);
        fixed_weights(c1, u, &sp1, &sq1);
        for (k = 0; k < 4; k++) {
            p[k][i] = sp0 * key[k][i] + sq0 * key[4 + k][i];
            p[4 + k][i] = sp1 * key[8 + k][i] + sq1 * key[12 + k][i];
        }
        l[i] = p[0][i] * p[4][i] + p[1][i] * p[5][i] + p[2][i] * p[6][i] + p[3][i] * p[7][i];
        kf3ds__slerp_weights(l[i], 2.0f * u * (1.0f - u), &sp, &sq);
        for (k = 0; k < 4; k++)
            r[k][i] = sp * p[k][i] + sq * p[4 + k][i];
    }
    /* results four lanes at a time where the vector build can, then the rest */
    for (i = kf3ds__squad_scatter4((const float(*)[KF3DS__SQUAD_LANES])r, l, n, b->out); i < n;
         i++) {
        if (1.0f + l[i] > 1e-8f) {
            for (k = 0; k < 4; k++)
                b->out[i][k] = r[k][i];
        } else { /* nearly opposite: the general routine's other branch */
            float p0[4], p1[4], u = b->u[i];
            for (k = 0; k < 4; k++) {
                p0[k] = p[k][i];
                p1[k] = p[4 + k][i];
            }
            kf3ds__quat_slerp(p0, p1, 2.0f * u * (1.0f - u), b->out[i]);
        }
    }
    b->n = 0;
}

/* Queues the squad of rotation record seg at u, to be written to out.
 * Always inlined, as view_rotation is: a call costs as much as the copy. */
static KF3DS__ALWAYS_INLINE void squad_batch_add(kf3ds__squad_batch *b, const float *seg, float u,
                                                 float *out)
{
    unsigned i;
    if (b->n == KF3DS__SQUAD_LANES)
        squad_batch_run(b);
    i = b->n++;
    b->u[i] = u;
    b->seg[i] = seg;
    b->out[i] = out;
}

/* ---- evaluating a track through its view ---------------------------------
 * Each writes the track's value at `frame` to out and updates *hint. */

/* POS, SCL, COL (dims 3), FOV, ROLL, HOT, FALL (dims 1). Always inlined:
 * per track, a call costs as much as the evaluation on a hint. */
static KF3DS__ALWAYS_INLINE void view_vector(const kf3ds__track_view *v, double frame,
                                             int maybe_nan, unsigned ease, uint32_t *hint,
                                             float *out, int dims)
{
    double t, f[2];
    uint32_t count;
    const float *rec;
    float u;
    int d;
    if (!(rec = view_find(v, frame, maybe_nan, hint, &t, &count, f))) {
        const kf3ds_key *k = &v->cold->keys[count ? count - 1 : 0];
        for (d = 0; d < dims; d++)
            out[d] = k->value[d];
        return;
    }
    u = view_u(v, rec, f, t, ease, dims == 1 ? SEG_EASE_SCALAR : SEG_EASE_VECTOR);
    if (dims == 1) { /* the scalar layout, the operations of the loop below */
        out[0] = ((rec[7] * u + rec[6]) * u + rec[5]) * u + rec[4];
        return;
    }
    if (dims == 3) {
        kf3ds__cubic3(rec, u, out);
        return;
    }
    for (d = 0; d < dims; d++)
        out[d] = ((rec[13 + d] * u + rec[10 + d]) * u + rec[7 + d]) * u + rec[4 + d];
}

/* ROT: the squad goes to the batch when there is one (out is written when
 * it runs), else it is evaluated here. */
static KF3DS__ALWAYS_INLINE void view_rotation(const kf3ds__track_view *v, double frame,
                                               int maybe_nan, unsigned ease, uint32_t *hint,
                                               float out[4], kf3ds__squad_batch *batch)
{
    double t, f[2];
    uint32_t count;
    const float *rec;
    float u;
    if (!(rec = view_find(v, frame, maybe_nan, hint, &t, &count, f))) {
        memcpy(out, v->cold->keys[count ? count - 1 : 0].quat, 4 * sizeof(float));
        return;
    }
    u = view_u(v, rec, f, t, ease, SEG_EASE_ROTATION);
    if (rec[24] != 0.0f) {
        /* A half turn or more: turn the whole increment linearly
         * (docs/evaluation.md, "Rotation tracks"). */
        float inc[4];
        kf3ds__quat_axis_angle(inc, rec + 8, -u * rec[11]);
        kf3ds__quat_mul(inc, rec + 4, out);
    } else if (batch && fixed_usable(rec + 20) && fixed_usable(rec + 25)) {
        squad_batch_add(batch, rec, u, out);
    } else {
        /* squad: slerp(slerp(Q_k, Q_k+1, u), slerp(A_k, B_k+1, u), 2u(1-u)) */
        float p0[4], p1[4];
        slerp_fixed(rec + 4, rec + 8, rec + 20, u, p0);
        slerp_fixed(rec + 12, rec + 16, rec + 25, u, p1);
        kf3ds__quat_slerp(p0, p1, 2.0f * u * (1.0f - u), out);
    }
}

/* HIDE: 1 when hidden (lib3ds 2.0's rule: the first key does not toggle,
 * each later key does). */
static inline int view_hidden(const kf3ds__track_view *v, double frame, uint32_t *hint)
{
    uint32_t count = view_count(v, view_time(v, frame, 1), hint);
    return count > 0 && count % 2 == 0;
}

/* MORPH: the index of the current key. */
static inline uint32_t view_morph_key(const kf3ds__track_view *v, double frame, uint32_t *hint)
{
    uint32_t count = view_count(v, view_time(v, frame, 1), hint);
    return count ? count - 1 : 0;
}

#endif
