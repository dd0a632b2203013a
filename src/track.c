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
    if (u < ef)
        return (a / ef) * u * u;
    if (u >= 1.0f - et) {
        float v = 1.0f - u;
        return 1.0f - (a / et) * v * v;
    }
    return a * (2.0f * u - ef);
}

/* Number of keys with frame <= t (binary search: upper bound). */
static uint32_t keys_at_or_before(const kf3ds_track *t, double time)
{
    uint32_t lo = 0, hi = t->num_keys;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((double)t->keys[mid].frame <= time)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
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
    uint32_t count;
    const kf3ds_key *k0, *k1;
    double t, span;
    float u;
    int d;
    if (!track || !out || (unsigned)kind >= KF3DS_TRACK_COUNT)
        return 0;
    if (!track->num_keys)
        return default_value(kind, out);
    t = track_time(track, frame);
    count = keys_at_or_before(track, t);
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
    if (count >= track->num_keys)
        return key_value(&track->keys[track->num_keys - 1], kind, out);
    k0 = &track->keys[count - 1];
    k1 = &track->keys[count]; /* strictly later than k0: duplicates never interpolate */
    span = (double)k1->frame - k0->frame;
    u = (float)((t - k0->frame) / span);
    if (!(flags & KF3DS_EVAL_NO_EASE))
        u = ease(u, k0->ease_from, k1->ease_to);
    if (kind == KF3DS_TRACK_ROT) {
        if (fabsf(k1->value[0]) >= KF3DS__PI_F) {
            /* A half turn or more: turn the whole increment linearly (rules §6). */
            float inc[4];
            kf3ds__quat_axis_angle(inc, &k1->value[1], -u * k1->value[0]);
            kf3ds__quat_mul(inc, k0->quat, out);
        } else {
            kf3ds__quat_squad(k0->quat, k0->tan_out, k1->tan_in, k1->quat, u, out);
        }
        return 4;
    } else {
        float u2 = u * u, u3 = u2 * u;
        float h00 = 2 * u3 - 3 * u2 + 1, h01 = -2 * u3 + 3 * u2;
        float h10 = u3 - 2 * u2 + u, h11 = u3 - u2;
        int n = dims_of(kind);
        for (d = 0; d < n; d++)
            out[d] = h00 * k0->value[d] + h01 * k1->value[d] + h10 * k0->tan_out[d] +
                     h11 * k1->tan_in[d];
        return n;
    }
}
