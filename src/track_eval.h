/* Track evaluation, inline: eval.c calls it with constant kinds for every
 * node of every frame, and the compiler specialises it per kind; the public
 * kf3ds_track_eval (track_eval.c) is its out-of-line entry. It reads the
 * per-segment records of track_segments.h. */
#ifndef KF3DS_TRACK_EVAL_H
#define KF3DS_TRACK_EVAL_H
#include "kmath.h"
#include "track_segments.h"
#include <math.h>
#include <string.h>

/* ---- evaluation ------------------------------------------------------- */

/* Ease (docs/evaluation.md, "Ease"): e_f = ease_from of the segment's start
 * key, e_t = ease_to of its end key. */
static inline float ease(float u, float ef, float et)
{
    float s = ef + et, a;
    if (!(s > 0.0f))
        return u;
    if (s > 1.0f) {
        ef /= s;
        et /= s;
    }
    a = 1.0f / (2.0f - (ef + et));
    if (ef > 0.0f && u < ef)
        return (a / ef) * u * u;
    if (et > 0.0f && u >= 1.0f - et) {
        float v = 1.0f - u;
        return 1.0f - (a / et) * v * v;
    }
    return a * (2.0f * u - ef);
}

/* Number of keys with frame <= t: a branchless binary search over the packed
 * frames (the branchy one mispredicted on every other step). */
static inline uint32_t keys_at_or_before(const kf3ds_track *t, double time)
{
    const int32_t *base = t->frames_;
    uint32_t n = t->num_keys;
    while (n > 1) {
        uint32_t half = n / 2;
        base = (double)base[half] <= time ? base + half : base;
        n -= half;
    }
    return (uint32_t)(base - t->frames_) + ((double)*base <= time);
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
    float key[16][KF3DS__SQUAD_LANES]; /* Q_k, Q_k+1, A_k, B_k+1, component-major */
    float con[6][KF3DS__SQUAD_LANES];  /* both fixed slerps' constants */
    float *out[KF3DS__SQUAD_LANES];
} kf3ds__squad_batch;

/* clang's cost model declines this loop, though vectorised it is faster
 * (2,000-node benchmark: 273 ms without the pragma, 194 with it). Where it
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
    unsigned i, k, n = b->n;
    KF3DS__VECTORIZE
    for (i = 0; i < n; i++) {
        float u = b->u[i], sp0, sq0, sp1, sq1, sp, sq, c0[3], c1[3];
        for (k = 0; k < 3; k++) {
            c0[k] = b->con[k][i];
            c1[k] = b->con[3 + k][i];
        }
        fixed_weights(c0, u, &sp0, &sq0);
        fixed_weights(c1, u, &sp1, &sq1);
        for (k = 0; k < 4; k++) {
            p[k][i] = sp0 * b->key[k][i] + sq0 * b->key[4 + k][i];
            p[4 + k][i] = sp1 * b->key[8 + k][i] + sq1 * b->key[12 + k][i];
        }
        l[i] = p[0][i] * p[4][i] + p[1][i] * p[5][i] + p[2][i] * p[6][i] + p[3][i] * p[7][i];
        kf3ds__slerp_weights(l[i], 2.0f * u * (1.0f - u), &sp, &sq);
        for (k = 0; k < 4; k++)
            r[k][i] = sp * p[k][i] + sq * p[4 + k][i];
    }
    for (i = 0; i < n; i++) {
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

/* Queues the squad of rotation record seg at u, to be written to out. */
static inline void squad_batch_add(kf3ds__squad_batch *b, const float *seg, float u, float *out)
{
    unsigned i, k;
    if (b->n == KF3DS__SQUAD_LANES)
        squad_batch_run(b);
    i = b->n++;
    b->u[i] = u;
    for (k = 0; k < 16; k++)
        b->key[k][i] = seg[4 + k];
    for (k = 0; k < 3; k++) {
        b->con[k][i] = seg[20 + k];
        b->con[3 + k][i] = seg[25 + k];
    }
    b->out[i] = out;
}

/* Maps time into the track's period when its loop bits ask for it
 * (docs/evaluation.md, "Where time falls"). */
static inline double track_time(const kf3ds_track *t, double time)
{
    if ((t->flags & KF3DS_TRACK_LOOP_MASK) && t->num_keys >= 2) {
        double first = t->keys[0].frame;
        double period = (double)t->keys[t->num_keys - 1].frame - first;
        if (period > 0.0 && isfinite(time)) {
            double r = fmod(time - first, period);
            if (r < 0.0)
                r += period;
            return first + r;
        }
    }
    if (time != time) /* NaN: hold the first key */
        return t->num_keys ? (double)t->keys[0].frame : 0.0;
    return time;
}

static inline int default_value(kf3ds_track_kind kind, float out[4])
{
    memset(out, 0, 4 * sizeof(float));
    if (kind == KF3DS_TRACK_ROT) {
        out[3] = 1.0f;
        return 4;
    }
    if (kind == KF3DS_TRACK_MORPH)
        out[0] = -1.0f;
    return is_vector(kind) ? 3 : 1;
}

static inline int key_value(const kf3ds_key *k, kf3ds_track_kind kind, float out[4])
{
    int d, n = kind == KF3DS_TRACK_ROT ? 4 : dims_of(kind);
    for (d = 0; d < n; d++)
        out[d] = kind == KF3DS_TRACK_ROT ? k->quat[d] : k->value[d];
    return n;
}


/* The segment search, trying the hinted segment and the one after it first:
 * during playback that is nearly always where t is, and the records carry
 * their frames, so the packed frames are only read when the hint misses. */
static inline uint32_t find_count(const kf3ds_track *t, size_t stride, double time, uint32_t *hint)
{
    uint32_t n = t->num_keys, count, h, i;
    if (hint && t->segments_) {
        h = *hint; /* untrusted: checked before use */
        for (i = 0; i < 2 && h < n && h + i + 1 < n; i++) {
            const float *rec = t->segments_ + (size_t)(h + i) * stride;
            if ((double)seg_frame(rec, 0) <= time && time < (double)seg_frame(rec, 1)) {
                *hint = h + i;
                return h + i + 1;
            }
        }
    }
    count = keys_at_or_before(t, time);
    if (hint)
        *hint = count ? count - 1 : 0;
    return count;
}

static inline int kf3ds__track_eval_hinted(const kf3ds_track *track, kf3ds_track_kind kind, double frame,
                             unsigned flags, float out[4], uint32_t *hint,
                             kf3ds__squad_batch *batch)
{
    uint32_t count;
    const float *seg;
    double t, span;
    float u;
    int d;
    if (!track || !out || (unsigned)kind >= KF3DS_TRACK_COUNT)
        return 0;
    if (!track->num_keys)
        return default_value(kind, out);
    if (!track->frames_) /* not set up by the loader (hand-built track) */
        return key_value(&track->keys[0], kind, out);
    t = track_time(track, frame);
    count = find_count(track, kf3ds__seg_stride(kind), t, hint);
    if (kind == KF3DS_TRACK_HIDE) {
        /* lib3ds 2.0's rule: the first key does not toggle, each later key does. */
        out[0] = (count > 0 && count % 2 == 0) ? 1.0f : 0.0f;
        return 1;
    }
    if (kind == KF3DS_TRACK_MORPH) {
        out[0] = (float)(count ? count - 1 : 0);
        return 1;
    }
    if (count == 0)
        return key_value(&track->keys[0], kind, out);
    if (count >= track->num_keys || !track->segments_)
        return key_value(&track->keys[count - 1], kind, out);
    seg = track->segments_ + (size_t)(count - 1) * kf3ds__seg_stride(kind);
    span = (double)seg_frame(seg, 1) - seg_frame(seg, 0);
    u = (float)((t - seg_frame(seg, 0)) / span);
    if (!(flags & KF3DS_EVAL_NO_EASE))
        u = ease(u, seg[2], seg[3]);
    if (kind == KF3DS_TRACK_ROT) {
        if (seg[24] != 0.0f) {
            /* A half turn or more: turn the whole increment linearly
             * (docs/evaluation.md, "Rotation tracks"). */
            float inc[4];
            kf3ds__quat_axis_angle(inc, seg + 8, -u * seg[11]);
            kf3ds__quat_mul(inc, seg + 4, out);
        } else if (batch && fixed_usable(seg + 20) && fixed_usable(seg + 25)) {
            squad_batch_add(batch, seg, u, out); /* out is written when the batch runs */
        } else {
            /* squad: slerp(slerp(Q_k, Q_k+1, u), slerp(A_k, B_k+1, u), 2u(1-u)) */
            float p0[4], p1[4];
            slerp_fixed(seg + 4, seg + 8, seg + 20, u, p0);
            slerp_fixed(seg + 12, seg + 16, seg + 25, u, p1);
            kf3ds__quat_slerp(p0, p1, 2.0f * u * (1.0f - u), out);
        }
        return 4;
    } else {
        int n = dims_of(kind);
        for (d = 0; d < n; d++)
            out[d] = ((seg[13 + d] * u + seg[10 + d]) * u + seg[7 + d]) * u + seg[4 + d];
        return n;
    }
}

#endif
