/* Per-track setup at load (stable sort, accumulated rotations, tangents and
 * squad controls) and evaluation at any time. The mathematics is lib3ds 1.3's
 * with the fixes of evaluation-rules.md; see docs/evaluation.md. */
#include "internal.h"
#include <math.h>
#include <string.h>

#define KF3DS__PI_F 3.14159265358979f

static int is_vector(kf3ds_track_kind kind)
{
    return kind == KF3DS_TRACK_POS || kind == KF3DS_TRACK_SCL || kind == KF3DS_TRACK_COL;
}

static int dims_of(kf3ds_track_kind kind)
{
    return is_vector(kind) ? 3 : 1;
}

static int is_cyclic(const kf3ds_track *t)
{
    return (t->flags & KF3DS_TRACK_LOOP_MASK) == 3 && t->num_keys >= 2;
}

/* Stable merge sort by frame (keys on one frame keep file order). */
static void sort_keys(kf3ds_key *keys, kf3ds_key *tmp, uint32_t n)
{
    uint32_t width, i;
    kf3ds_key *src = keys, *dst = tmp;
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            uint32_t lo = i, mid = i + width < n ? i + width : n;
            uint32_t hi = i + 2 * width < n ? i + 2 * width : n;
            uint32_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                dst[o++] = src[b].frame < src[a].frame ? src[b++] : src[a++];
            while (a < mid)
                dst[o++] = src[a++];
            while (b < hi)
                dst[o++] = src[b++];
        }
        src = dst;
        dst = dst == keys ? tmp : keys;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

/* The Kochanek–Bartels factors of key c (notes §6.2). dt_prev / dt_next are
 * the frame spacings to the neighbours; `both` says both neighbours exist. */
static void tcb_factors(const kf3ds_key *c, double dt_prev, double dt_next, int both,
                        float *ksm, float *ksp, float *kdm, float *kdp)
{
    double fp = 1.0, fn = 1.0;
    double tm, cm, cp, bm, bp;
    if (both) {
        double dt = 0.5 * (dt_prev + dt_next);
        double cc = fabs((double)c->continuity);
        if (dt != 0.0) { /* three keys on one frame are legal */
            fp = dt_prev / dt;
            fn = dt_next / dt;
        }
        fp = fp + cc - cc * fp;
        fn = fn + cc - cc * fn;
    }
    tm = 0.5 * (1.0 - c->tension);
    cm = 1.0 - c->continuity;
    cp = 2.0 - cm;
    bm = 1.0 - c->bias;
    bp = 2.0 - bm;
    *ksm = (float)(tm * cm * bp * fp);
    *ksp = (float)(tm * cp * bm * fp);
    *kdm = (float)(tm * cp * bp * fn);
    *kdp = (float)(tm * cm * bm * fn);
}

/* Neighbours of key i for tangent purposes: value keys p and n, and the frame
 * spacings. Loop tracks close the curve as lib3ds 1.3 does (rules §3). */
typedef struct neighbours {
    const kf3ds_key *p, *n;
    double dt_prev, dt_next;
} neighbours;

static neighbours neighbours_of(const kf3ds_track *t, uint32_t i)
{
    neighbours nb;
    uint32_t last = t->num_keys - 1;
    const kf3ds_key *k = t->keys;
    nb.p = i > 0 ? &k[i - 1] : NULL;
    nb.n = i < last ? &k[i + 1] : NULL;
    nb.dt_prev = nb.p ? (double)k[i].frame - nb.p->frame : 0.0;
    nb.dt_next = nb.n ? (double)nb.n->frame - k[i].frame : 0.0;
    if (is_cyclic(t)) {
        if (i == 0) {
            nb.p = &k[last - 1];
            nb.dt_prev = (double)k[last].frame - k[last - 1].frame;
        }
        if (i == last) {
            nb.n = &k[1];
            nb.dt_next = (double)k[1].frame - k[0].frame;
        }
    }
    return nb;
}

static void setup_vector(kf3ds_track *t, int dims)
{
    uint32_t i;
    int d;
    for (i = 0; i < t->num_keys; i++) {
        kf3ds_key *c = &t->keys[i];
        neighbours nb = neighbours_of(t, i);
        memset(c->tan_in, 0, sizeof c->tan_in);
        memset(c->tan_out, 0, sizeof c->tan_out);
        if (nb.p && nb.n) {
            float ksm, ksp, kdm, kdp;
            tcb_factors(c, nb.dt_prev, nb.dt_next, 1, &ksm, &ksp, &kdm, &kdp);
            for (d = 0; d < dims; d++) {
                float dm = c->value[d] - nb.p->value[d];
                float dp = nb.n->value[d] - c->value[d];
                c->tan_in[d] = ksm * dm + ksp * dp;
                c->tan_out[d] = kdm * dm + kdp * dp;
            }
        } else if (nb.p || nb.n) {
            /* End key: both tangents are the chord (lib3ds 1.3, rules §5). */
            for (d = 0; d < dims; d++) {
                float chord = nb.p ? c->value[d] - nb.p->value[d] : nb.n->value[d] - c->value[d];
                c->tan_in[d] = c->tan_out[d] = chord;
            }
        }
    }
}

static void setup_rotation(kf3ds_track *t)
{
    uint32_t i;
    int d;
    /* Q_0 = q(a_0, −θ_0), Q_k = q(a_k, −θ_k) ⊗ Q_{k−1} over every key (rules §2). */
    for (i = 0; i < t->num_keys; i++) {
        kf3ds_key *k = &t->keys[i];
        float inc[4];
        kf3ds__quat_axis_angle(inc, &k->value[1], -k->value[0]);
        if (i == 0)
            memcpy(k->quat, inc, sizeof inc);
        else
            kf3ds__quat_mul(inc, t->keys[i - 1].quat, k->quat);
    }
    for (i = 0; i < t->num_keys; i++) {
        kf3ds_key *c = &t->keys[i];
        neighbours nb = neighbours_of(t, i);
        float qp[4], qn[4], inv[4], gm[4], gp[4], a[4], b[4];
        float ksm, ksp, kdm, kdp;
        if (!nb.p || !nb.n) { /* end keys: controls equal the key (lib3ds 1.3) */
            memcpy(c->tan_in, c->quat, sizeof c->quat);
            memcpy(c->tan_out, c->quat, sizeof c->quat);
            continue;
        }
        memcpy(qp, nb.p->quat, sizeof qp);
        memcpy(qn, nb.n->quat, sizeof qn);
        if (kf3ds__quat_dot(qp, c->quat) < 0.0f)
            for (d = 0; d < 4; d++)
                qp[d] = -qp[d];
        if (kf3ds__quat_dot(qn, c->quat) < 0.0f)
            for (d = 0; d < 4; d++)
                qn[d] = -qn[d];
        kf3ds__quat_inv(qp, inv); /* g⁻ = ln(Q_p⁻¹ ⊗ Q_c) */
        kf3ds__quat_mul(inv, c->quat, gm);
        kf3ds__quat_ln(gm);
        kf3ds__quat_inv(c->quat, inv); /* g⁺ = ln(Q_c⁻¹ ⊗ Q_n) */
        kf3ds__quat_mul(inv, qn, gp);
        kf3ds__quat_ln(gp);
        tcb_factors(c, nb.dt_prev, nb.dt_next, 1, &ksm, &ksp, &kdm, &kdp);
        for (d = 0; d < 4; d++) {
            a[d] = 0.5f * (kdm * gm[d] + (kdp - 1.0f) * gp[d]);
            b[d] = 0.5f * ((1.0f - ksm) * gm[d] - ksp * gp[d]);
        }
        kf3ds__quat_exp(a);
        kf3ds__quat_exp(b);
        kf3ds__quat_mul(c->quat, a, c->tan_out);
        kf3ds__quat_mul(c->quat, b, c->tan_in);
    }
}

/* ---- per-segment records ------------------------------------------------
 * Evaluation reads one contiguous, cache-line aligned record per segment
 * k → k+1, which also holds the segment's frames, so that playback with a
 * hint touches nothing else of the track.
 *   common:  [0] f_k, [1] f_k+1 (int32 bit patterns), [2] ease_from of k, [3] ease_to of k+1
 *   vector (16 floats): [4..15] c0, c1, c2, c3 (3 each): P(u) = ((c3 u + c2) u + c1) u + c0
 *   rotation (32 floats): [4] Q_k, [8] Q_k+1, [12] A_k, [16] B_k+1 (4 floats each),
 *            [20] ω, cos ω, 1/sin ω of slerp(Q_k, Q_k+1), [25] the same for
 *            slerp(A_k, B_k+1), [24] mode: 0 squad, 1 multi-turn with [8] axis
 *            and [11] angle of key k+1
 */
#define SEG_VECTOR 16
#define SEG_ROTATION 32

static size_t seg_stride(kf3ds_track_kind kind)
{
    return kind == KF3DS_TRACK_ROT ? SEG_ROTATION : SEG_VECTOR;
}

static int32_t seg_frame(const float *rec, int i)
{
    int32_t f;
    memcpy(&f, rec + i, sizeof f);
    return f;
}

/* Constants of slerp(a, b, t) for a fixed pair: ω, cos ω and 1/sin ω, so that
 * sq = sin(tω)/sin ω and sp = cos(tω) − cos ω·sq need one sine/cosine pair.
 * 1/sin ω = 0 asks for the general routine (nearly opposite inputs), < 0 for
 * linear weights (nearly equal inputs). */
static void slerp_constants(const float a[4], const float b[4], float out[3])
{
    double l = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] +
               (double)a[3] * b[3];
    double om, s;
    out[0] = out[1] = out[2] = 0.0f;
    if (1.0 + l <= 1e-6)
        return;
    if (l > 1.0)
        l = 1.0;
    om = acos(l);
    s = sin(om);
    if (s > 1e-6) {
        out[0] = (float)om;
        out[1] = (float)l;
        out[2] = (float)(1.0 / s);
    } else {
        out[2] = -1.0f;
    }
}

static void setup_segments(kf3ds__ctx *ctx, kf3ds_track *t, kf3ds_track_kind kind)
{
    uint32_t k, n = t->num_keys;
    size_t stride = seg_stride(kind);
    int32_t *frames;
    float *seg;
    int d;
    if (!n || ctx->out_of_memory)
        return;
    frames = (int32_t *)kf3ds__alloc_raw(ctx, n, sizeof(int32_t));
    if (!frames)
        return;
    for (k = 0; k < n; k++)
        frames[k] = t->keys[k].frame;
    t->frames_ = frames;
    if (kind == KF3DS_TRACK_HIDE || kind == KF3DS_TRACK_MORPH || n < 2)
        return;
    /* 16 floats of slack to align the records on a 64-byte line. */
    seg = (float *)kf3ds__alloc_array(ctx, (size_t)(n - 1) * stride + 16, sizeof(float));
    if (!seg)
        return;
    seg += (16 - ((uintptr_t)seg / sizeof(float)) % 16) % 16;
    for (k = 0; k + 1 < n; k++) {
        const kf3ds_key *a = &t->keys[k], *b = &t->keys[k + 1];
        float *s = seg + (size_t)k * stride;
        memcpy(s + 0, &a->frame, sizeof(int32_t));
        memcpy(s + 1, &b->frame, sizeof(int32_t));
        s[2] = a->ease_from;
        s[3] = b->ease_to;
        if (kind == KF3DS_TRACK_ROT) {
            memcpy(s + 4, a->quat, 4 * sizeof(float));
            if (fabsf(b->value[0]) >= KF3DS__PI_F) {
                s[24] = 1.0f;
                memcpy(s + 8, &b->value[1], 3 * sizeof(float));
                s[11] = b->value[0];
                continue;
            }
            memcpy(s + 8, b->quat, 4 * sizeof(float));
            memcpy(s + 12, a->tan_out, 4 * sizeof(float));
            memcpy(s + 16, b->tan_in, 4 * sizeof(float));
            slerp_constants(s + 4, s + 8, s + 20);
            slerp_constants(s + 12, s + 16, s + 25);
        } else {
            for (d = 0; d < dims_of(kind); d++) {
                float p0 = a->value[d], p1 = b->value[d], m0 = a->tan_out[d], m1 = b->tan_in[d];
                s[4 + d] = p0;
                s[7 + d] = m0;
                s[10 + d] = -3.0f * p0 + 3.0f * p1 - 2.0f * m0 - m1;
                s[13 + d] = 2.0f * p0 - 2.0f * p1 + m0 + m1;
            }
        }
    }
    t->segments_ = seg;
}

void kf3ds__track_setup(kf3ds__ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                        uint32_t offset, uint16_t chunk_id)
{
    uint32_t i, n = track->num_keys;
    for (i = 1; i < n; i++)
        if (track->keys[i].frame < track->keys[i - 1].frame)
            break;
    if (i < n) {
        kf3ds_key *tmp = (kf3ds_key *)kf3ds__alloc_raw(ctx, n, sizeof(kf3ds_key));
        if (!tmp)
            return;
        sort_keys(track->keys, tmp, n);
        kf3ds__diag(ctx, KF3DS_WARN_UNSORTED, offset, chunk_id,
                    "keys out of frame order (key %lu); stable-sorted", (unsigned long)i);
    }
    if (kind == KF3DS_TRACK_ROT)
        setup_rotation(track);
    else if (kind != KF3DS_TRACK_HIDE && kind != KF3DS_TRACK_MORPH)
        setup_vector(track, dims_of(kind));
    setup_segments(ctx, track, kind);
}

/* ---- evaluation ------------------------------------------------------- */

/* Ease of notes §6.3: e_f = ease_from of the segment's start key, e_t =
 * ease_to of its end key. */
static float ease(float u, float ef, float et)
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
static uint32_t keys_at_or_before(const kf3ds_track *t, double time)
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

/* slerp(a, b, t) with the constants of slerp_constants. */
static void slerp_fixed(const float a[4], const float b[4], const float c[3], float t,
                        float out[4])
{
    float sp, sq;
    int i;
    if (c[2] > 0.0f) {
        float tw = t * c[0];
        sq = sinf(tw) * c[2];
        sp = cosf(tw) - c[1] * sq;
    } else if (c[2] < 0.0f) {
        sp = 1.0f - t;
        sq = t;
    } else {
        kf3ds__quat_slerp(a, b, t, out);
        return;
    }
    for (i = 0; i < 4; i++)
        out[i] = sp * a[i] + sq * b[i];
}

/* Maps time into the track's period when its loop bits ask for it (rules §3). */
static double track_time(const kf3ds_track *t, double time)
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

static int default_value(kf3ds_track_kind kind, float out[4])
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

static int key_value(const kf3ds_key *k, kf3ds_track_kind kind, float out[4])
{
    int d, n = kind == KF3DS_TRACK_ROT ? 4 : dims_of(kind);
    for (d = 0; d < n; d++)
        out[d] = kind == KF3DS_TRACK_ROT ? k->quat[d] : k->value[d];
    return n;
}

int kf3ds_track_eval(const kf3ds_track *track, kf3ds_track_kind kind, double frame,
                     unsigned flags, float out[4])
{
    return kf3ds__track_eval_hinted(track, kind, frame, flags, out, NULL);
}

/* The segment search, trying the hinted segment and the one after it first:
 * during playback that is nearly always where t is, and the records carry
 * their frames, so the packed frames are only read when the hint misses. */
static uint32_t find_count(const kf3ds_track *t, size_t stride, double time, uint32_t *hint)
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

int kf3ds__track_eval_hinted(const kf3ds_track *track, kf3ds_track_kind kind, double frame,
                             unsigned flags, float out[4], uint32_t *hint)
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
    count = find_count(track, seg_stride(kind), t, hint);
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
    seg = track->segments_ + (size_t)(count - 1) * seg_stride(kind);
    span = (double)seg_frame(seg, 1) - seg_frame(seg, 0);
    u = (float)((t - seg_frame(seg, 0)) / span);
    if (!(flags & KF3DS_EVAL_NO_EASE))
        u = ease(u, seg[2], seg[3]);
    if (kind == KF3DS_TRACK_ROT) {
        if (seg[24] != 0.0f) {
            /* A half turn or more: turn the whole increment linearly (rules §6). */
            float inc[4];
            kf3ds__quat_axis_angle(inc, seg + 8, -u * seg[11]);
            kf3ds__quat_mul(inc, seg + 4, out);
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
