/* kf3ds export: the animation (docs/gltf.md, "Animation" and "Resampling").
 * Every property (ex_prop) is sampled at every exported frame (times --rate)
 * and, unless --every-frame, resampled to the keys its tolerance needs
 * (LINEAR or CUBICSPLINE, never more than the samples); rotations get
 * extra samples wherever two neighbours would be more than 90° apart, hiding
 * is a STEP channel, and with --cubic the position and scale tracks that
 * allow it are written as their own Hermite curves. A property whose samples
 * are all equal gets no channel (the node holds that value). */
#include "export_internal.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
/* A rotation of more than 90° between two samples gets a sample between
 * them: |dot| below cos 45° (the quaternion's half-angle). */
#define MAX_STEP_COS 0.70710678
/* Subdivision stops at this distance between samples, in frames. */
#define MIN_STEP_FRAMES 1e-3
/* Samples one property may have: beyond, the export fails with a message. */
#define MAX_PROP_SAMPLES KF3DS_GLTF_MAX_PROPERTY_SAMPLES

/* ---- a series of samples ------------------------------------------------- */

typedef struct series {
    const kf3ds_allocator *al;
    double *frames;
    float *values;
    uint32_t n, cap;
    int width;
    int full;                 /* MAX_PROP_SAMPLES reached */
} series;

static int push(series *se, double frame, const float *v)
{
    if (se->n == se->cap) {
        uint32_t cap = se->cap ? se->cap * 2 : 256;
        double *f;
        float *vals;
        if (se->cap >= MAX_PROP_SAMPLES) {
            se->full = 1;
            return -1;
        }
        f = kf3ds__gltf_grow(se->al, se->frames, se->cap * sizeof *f, cap * sizeof *f);
        if (!f)
            return -1;
        se->frames = f;
        vals = kf3ds__gltf_grow(se->al, se->values,
                                (size_t)se->cap * (size_t)se->width * sizeof *vals,
                                (size_t)cap * (size_t)se->width * sizeof *vals);
        if (!vals)
            return -1;
        se->values = vals;
        se->cap = cap;
    }
    se->frames[se->n] = frame;
    memcpy(se->values + (size_t)se->n * (size_t)se->width, v, (size_t)se->width * sizeof *v);
    se->n++;
    return 0;
}

static double qdot(const float *a, const float *b)
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
}

/* Samples strictly between frames a and b (values va, vb) until no two
 * neighbours are more than 90° apart. */
static int refine(export_ctx *c, const ex_prop *p, series *se, double a, const float *va,
                  double b, const float *vb, int depth)
{
    float vm[4];
    double m = 0.5 * (a + b);
    if (fabs(qdot(va, vb)) >= MAX_STEP_COS || b - a < 2 * MIN_STEP_FRAMES || depth > 30)
        return 0;
    export_sample(c, p, m, vm);
    if (refine(c, p, se, a, va, m, vm, depth + 1) != 0 || push(se, m, vm) != 0)
        return -1;
    return refine(c, p, se, m, vm, b, vb, depth + 1);
}

static int is_rotation(ex_prop_kind k)
{
    return k == EX_ROTATION || k == EX_AIM;
}

/* A growable list of frames. */
typedef struct frame_list {
    const kf3ds_allocator *al;
    double *f;
    uint32_t n, cap;
} frame_list;

static int add_frame(frame_list *l, double frame)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 1024;
        double *p;
        if (l->cap >= MAX_PROP_SAMPLES)
            return -2;
        p = kf3ds__gltf_grow(l->al, l->f, l->cap * sizeof *p, cap * sizeof *p);
        if (!p)
            return -1;
        l->f = p;
        l->cap = cap;
    }
    l->f[l->n++] = frame;
    return 0;
}

/* How far before a jump its "before" sample goes, in frames: far enough
 * for float seconds to tell the two apart. */
static double jump_offset(const export_ctx *c, double frame)
{
    double t = fabs(frame - c->first) / c->o->fps;
    return (t * 1e-6 > 1e-5 ? t * 1e-6 : 1e-5) * c->o->fps;
}

/* Samples just before the frames where track t jumps: keys sharing a frame,
 * every hide key after the first (`toggles`), and for a periodic track the
 * wrap from its last key back to its first, repeated over the export. */
static int add_jumps(const export_ctx *c, const kf3ds_track *t, int toggles, frame_list *l)
{
    uint32_t n = t->num_keys, k;
    double p = n >= 2 ? (double)t->keys[n - 1].frame - t->keys[0].frame : 0.0;
    int periodic = (t->flags & KF3DS_TRACK_LOOP_MASK) != 0 && p > 0.0;
    for (k = 1; k < n; k++) {
        double b = t->keys[k].frame, m, lo, hi;
        int jump = toggles || t->keys[k].frame == t->keys[k - 1].frame ||
                   (periodic && k == n - 1);
        if (!jump)
            continue;
        lo = periodic ? ceil((c->first - b) / p) : 0.0;
        hi = periodic ? floor((c->last - b) / p) : 0.0;
        for (m = lo; m <= hi; m++) {
            double f = b + m * p;
            int r;
            if (f > c->first && f <= c->last && (r = add_frame(l, f - jump_offset(c, f))) != 0)
                return r;
        }
    }
    return 0;
}

/* The frames a property is sampled at: every exported frame times --rate;
 * just before each jump of its track; and for rotation tracks whose keys
 * turn by more than 45°, enough frames inside those segments (multi-turn
 * keys). Unsorted. */
static int base_frames(export_ctx *c, const ex_prop *p, frame_list *l)
{
    const kf3ds_node *n = &c->s->nodes[p->node];
    double span = c->last - c->first;
    uint32_t steps = (uint32_t)(span * c->o->rate + 0.5), k;
    const kf3ds_track *t = p->kind == EX_TRANSLATION ? &n->tracks[KF3DS_TRACK_POS]
                           : p->kind == EX_ROTATION  ? &n->tracks[KF3DS_TRACK_ROT]
                           : p->kind == EX_SCALE     ? &n->tracks[KF3DS_TRACK_SCL]
                                                     : NULL;
    int r = 0;
    for (k = 0; k <= steps && r == 0; k++)
        r = add_frame(l, k == steps ? c->last : c->first + (double)k / c->o->rate);
    if (r == 0 && t && n->type == KF3DS_NODE_OBJECT)
        r = add_jumps(c, t, 0, l);
    if (r == 0 && p->kind == EX_SCALE && p->merge_visibility)
        r = add_jumps(c, &n->tracks[KF3DS_TRACK_HIDE], 1, l);
    for (k = 1; r == 0 && p->kind == EX_ROTATION && k < t->num_keys; k++) {
        double a = t->keys[k - 1].frame, b = t->keys[k].frame;
        double turns = fabs(t->keys[k].value[0]) / (PI / 4);
        uint32_t pieces = turns < 4096.0 ? (uint32_t)turns + 1 : 4096u, j;
        for (j = 1; j < pieces && b > a && r == 0; j++) {
            double fr = a + (b - a) * j / pieces;
            if (fr > c->first && fr < c->last)
                r = add_frame(l, fr);
        }
    }
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Samples property p into se: the base frames, with the rotation
 * refinement between them. */
static int sample(export_ctx *c, const ex_prop *p, series *se)
{
    frame_list l = { NULL, NULL, 0, 0 };
    uint32_t k;
    float v[4], prev[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    int r;
    l.al = c->al;
    r = base_frames(c, p, &l);
    if (r != 0) {
        EX_FREE(c, l.f);
        return r;
    }
    qsort(l.f, l.n, sizeof *l.f, cmp_double);
    for (k = 0; k < l.n; k++) {
        if (k && l.f[k] <= l.f[k - 1])
            continue;
        export_sample(c, p, l.f[k], v);
        if (is_rotation(p->kind) && se->n &&
            refine(c, p, se, se->frames[se->n - 1], prev, l.f[k], v, 0) != 0)
            goto fail;
        if (push(se, l.f[k], v) != 0)
            goto fail;
        memcpy(prev, v, sizeof prev);
    }
    EX_FREE(c, l.f);
    return 0;
fail:
    EX_FREE(c, l.f);
    return se->full ? -2 : -1;
}

static int all_equal(const series *se)
{
    uint32_t k;
    size_t w = (size_t)se->width;
    for (k = 1; k < se->n; k++)
        if (memcmp(se->values, se->values + k * w, w * sizeof *se->values) != 0)
            return 0;
    return 1;
}

/* Quaternion signs made continuous (q and −q are one rotation; readers
 * interpolate the short way between neighbours). */
static void fix_signs(series *se)
{
    uint32_t k;
    if (se->width != 4)
        return;
    for (k = 1; k < se->n; k++) {
        float *a = se->values + (size_t)(k - 1) * 4, *b = se->values + (size_t)k * 4;
        if (qdot(a, b) < 0.0)
            b[0] = -b[0], b[1] = -b[1], b[2] = -b[2], b[3] = -b[3];
    }
}

/* ---- resampling (docs/gltf.md, "Resampling") ------------------------------ */

/* The dense samples are refined down to this distance, in frames. */
#define MIN_DENSE_FRAMES (1.0 / 1024.0)
/* Intervals this short are a jump's "before" sample and its jump: left as
 * they are. */
#define JUMP_FRAMES 0.01
/* How the tolerance is spent: the dense samples' chords within DENSE_SHARE
 * of the curve, the keys' lines within KEY_SHARE of the dense samples; the
 * rest is left for float rounding of times and values. */
#define DENSE_SHARE 0.25
#define KEY_SHARE 0.5
/* For a cubic curve the largest distance from its chord is at most 8/3 of
 * the larger one at the quarter points (the distance is s(1−s)·L(s), L
 * linear). */
#define QUARTER_FACTOR (8.0 / 3.0)

/* The value between a and b at fraction t: lerp, or slerp for rotations. */
static void interpolate(int width, const float *a, const float *b, double t, double *out)
{
    int k;
    if (width == 4) {
        double d = qdot(a, b), sgn = d < 0.0 ? -1.0 : 1.0, wa, wb;
        d = fabs(d);
        if (d > 0.9999995) {
            wa = 1.0 - t;
            wb = t;
        } else {
            double th = acos(d), sn = sin(th);
            wa = sin((1.0 - t) * th) / sn;
            wb = sin(t * th) / sn;
        }
        for (k = 0; k < 4; k++)
            out[k] = wa * a[k] + sgn * wb * b[k];
        return;
    }
    for (k = 0; k < width; k++)
        out[k] = a[k] + t * ((double)b[k] - a[k]);
}

/* How far value v is from w: distance, or for rotations the angle between
 * them (4·asin of half the chord between the nearer signs). */
static double distance(int width, const float *v, const double *w)
{
    double s = 0.0, sgn = 1.0, n = 0.0;
    int k;
    if (width == 4) {
        for (k = 0; k < 4; k++) {
            s += v[k] * w[k];
            n += w[k] * w[k];
        }
        sgn = s < 0.0 ? -1.0 : 1.0;
        n = n > 0.0 ? 1.0 / sqrt(n) : 1.0;
        s = 0.0;
        for (k = 0; k < 4; k++)
            s += (v[k] - sgn * n * w[k]) * (v[k] - sgn * n * w[k]);
        return 4.0 * asin(fmin(1.0, sqrt(s) * 0.5));
    }
    for (k = 0; k < width; k++)
        s += (v[k] - w[k]) * (v[k] - w[k]);
    return sqrt(s);
}

/* distance() between two double values. */
static double distance2(int width, const double *v, const double *w)
{
    float f[4];
    int k;
    for (k = 0; k < width; k++)
        f[k] = (float)v[k];
    return distance(width, f, w);
}

/* The error allowed for property p (export_tolerance.c). */
static double prop_tolerance(const export_ctx *c, const ex_prop *p)
{
    switch (p->kind) {
    case EX_TRANSLATION: return c->tol_pos[p->node];
    case EX_ROTATION: return c->tol_rot[p->node];
    case EX_SCALE: return c->tol_scl[p->node];
    default: return c->o->tolerance; /* radians, colour, cones; aim nodes place no vertex */
    }
}

/* Adds samples strictly between a and b until every interval's chord is
 * within tol of the curve, checked at its quarter points. */
static int densify(export_ctx *c, const ex_prop *p, series *out, double a, const float *va,
                   double b, const float *vb, double tol, double cap)
{
    float vq[3][4];
    double chord[4], worst = 0.0;
    int k;
    if (b - a < 2.0 * MIN_DENSE_FRAMES)
        return 0;
    for (k = 0; k < 3; k++) {
        export_sample(c, p, a + (b - a) * (k + 1) / 4.0, vq[k]);
        interpolate(out->width, va, vb, (k + 1) / 4.0, chord);
        worst = fmax(worst, distance(out->width, vq[k], chord));
    }
    if (worst * QUARTER_FACTOR <= tol) {
        double e[4];
        for (k = 0; k < out->width; k++)
            e[k] = vb[k];
        /* rotations: also no more than the nlerp cap apart (rule 38) */
        if (out->width != 4 || distance(4, va, e) <= cap)
            return 0;
    }
    if (densify(c, p, out, a, va, 0.5 * (a + b), vq[1], tol, cap) != 0 ||
        push(out, 0.5 * (a + b), vq[1]) != 0)
        return -1;
    return densify(c, p, out, 0.5 * (a + b), vq[1], b, vb, tol, cap);
}

/* 1 when the line (slerp) from sample i to sample j passes every sample
 * between them within tol, and (rotations) turns by at most `cap` radians
 * (rule 38: readers that nlerp stay close to slerp). */
static int segment_fits(const series *se, uint32_t i, uint32_t j, double tol, double cap)
{
    size_t w = (size_t)se->width;
    double span = se->frames[j] - se->frames[i], v[4];
    uint32_t k;
    if (w == 4) {
        double e[4];
        for (k = 0; k < 4; k++)
            e[k] = se->values[j * w + k];
        if (distance(4, se->values + i * w, e) > cap)
            return 0;
    }
    for (k = i + 1; k < j; k++) {
        interpolate(se->width, se->values + i * w, se->values + j * w,
                    (se->frames[k] - se->frames[i]) / span, v);
        if (distance(se->width, se->values + k * w, v) > tol)
            return 0;
    }
    return 1;
}

/* Keeps the samples the bound needs: from each key, the farthest sample
 * the line still fits (doubling, then halving), greedily. */
static void reduce(series *se, double tol, double cap)
{
    size_t w = (size_t)se->width;
    uint32_t i = 0, n = 0;
    if (se->n < 3)
        return;
    while (i < se->n - 1) {
        uint32_t good = i + 1, step = 1, bad = se->n;
        while (good + step < se->n && segment_fits(se, i, good + step, tol, cap)) {
            good += step;
            step *= 2;
        }
        if (good + step < se->n)
            bad = good + step;
        while (bad - good > 1) {
            uint32_t m = good + (bad - good) / 2;
            if (segment_fits(se, i, m, tol, cap))
                good = m;
            else
                bad = m;
        }
        /* keep sample i as key n */
        se->frames[n] = se->frames[i];
        memmove(se->values + n * w, se->values + (size_t)i * w, w * sizeof *se->values);
        n++;
        i = good;
    }
    se->frames[n] = se->frames[se->n - 1];
    memmove(se->values + n * w, se->values + (size_t)(se->n - 1) * w, w * sizeof *se->values);
    se->n = n + 1;
}

/* ---- cubic resampling: Hermite keys with kf3ds's own slopes -------------- */

/* The one-sided slopes are taken over this step at most, in frames: short
 * enough for the curve's third derivative, long enough for float values. */
#define SLOPE_STEP (1.0 / 8.0)
/* A rotation that turns more than MAX_SLOPE_TURN radians over the three
 * steps gets shorter ones (down to MIN_SLOPE_STEP frames): over 3/8 frame a
 * spin of 6 rad a frame (blitz3d-mak_robotic's root, assimp-RotatingCube)
 * has its slope 1.5% off, so that its Hermite arcs never fit. Slower
 * channels keep SLOPE_STEP (and their keys). */
#define MAX_SLOPE_TURN 0.5
#define MIN_SLOPE_STEP (1.0 / 16384.0)
/* Below these the tolerance would be lost in float32 values (the glTF's and
 * kf3ds's own): radians of rotation (kf3ds's float rotations wobble by a few
 * 1e-6 rad between frames: below this, data/arm.3ds needed a key every
 * 1/20 frame), and ulps of a series' largest value. */
#define MIN_ANGLE 1e-5
#define MIN_ULPS 16.0

/* 1 when frame a is a sample of orig whose next sample is less than
 * JUMP_FRAMES away: the two sides of a jump (rule 29). */
static int is_jump(const series *orig, double a)
{
    uint32_t lo = 0, hi = orig->n;
    while (hi - lo > 1) {
        uint32_t m = lo + (hi - lo) / 2;
        if (orig->frames[m] <= a)
            lo = m;
        else
            hi = m;
    }
    return hi > lo && orig->frames[lo] == a && lo + 1 < orig->n &&
           orig->frames[lo + 1] - a < JUMP_FRAMES;
}

/* The one-sided difference of property p at `frame` towards `dir` (+1 or
 * -1) over steps of h frames, into m (value per frame): third order, exact
 * on a cubic. Rotations sign-fixed to v0. */
static void one_sided(export_ctx *c, const ex_prop *p, double frame, const float *v0, int dir,
                      double h, size_t w, double *m)
{
    float v[3][4];
    int i, j, tries;
    for (tries = 0;; tries++) {
        double last[4];
        for (i = 0; i < 3; i++) {
            export_sample(c, p, frame + dir * (i + 1) * h, v[i]);
            if (w == 4 && qdot(v0, v[i]) < 0.0)
                for (j = 0; j < 4; j++)
                    v[i][j] = -v[i][j];
        }
        if (w != 4 || tries == 3 || h <= MIN_SLOPE_STEP)
            break;
        /* a fast spin: shorter steps, or the difference is far off */
        for (j = 0; j < 4; j++)
            last[j] = v[2][j];
        if (distance(4, v0, last) <= MAX_SLOPE_TURN)
            break;
        h = fmax(h * 0.5 * MAX_SLOPE_TURN / distance(4, v0, last), MIN_SLOPE_STEP);
    }
    for (j = 0; j < (int)w; j++)
        m[j] = dir * (-11.0 * v0[j] + 18.0 * v[0][j] - 9.0 * v[1][j] + 2.0 * v[2][j]) / (6.0 * h);
}

/* Slopes of property p at each sample of se (value per frame): tangents[2k]
 * the incoming, tangents[2k+1] the outgoing one, each width floats. 3DS
 * keys lie on whole frames, so kf3ds's curves are smooth between whole
 * frames and may turn a corner only on one: a sample on a whole frame gets
 * a slope from each side, one between gets one slope for both, taken on the
 * side with more room, never past a whole frame. The differences span 3/8
 * frame whatever the dense samples' spacing (over 1/1024 frame float noise
 * would swamp them). 0 across a jump (two of the samples before
 * densification closer than JUMP_FRAMES; dense samples may be closer than
 * that and are no jump). */
static void slopes(export_ctx *c, const ex_prop *p, const series *se, const series *orig,
                   double *tangents)
{
    size_t w = (size_t)se->width;
    uint32_t k;
    int side, j;
    for (k = 0; k < se->n; k++) {
        const float *v0 = se->values + k * w;
        double f = se->frames[k], whole = floor(f + 0.5);
        int on_whole = fabs(f - whole) < 1e-9;
        for (side = 0; side < 2; side++) {
            double *m = tangents + (2 * (size_t)k + (size_t)side) * w;
            int has = side ? k + 1 < se->n : k > 0;
            double gap = has ? fabs(se->frames[side ? k + 1 : k - 1] - f) : 1.0;
            if (has && gap < JUMP_FRAMES && is_jump(orig, side ? f : se->frames[k - 1])) {
                for (j = 0; j < (int)w; j++)
                    m[j] = 0.0;
                continue;
            }
            if (on_whole) {
                one_sided(c, p, f, v0, side ? 1 : -1, SLOPE_STEP, w, m);
            } else {
                /* inside a frame: the side with more room, within it */
                double lo = f - floor(f), hi = ceil(f) - f;
                int dir = hi >= lo ? 1 : -1;
                one_sided(c, p, f, v0, dir, fmin(SLOPE_STEP, fmax(lo, hi) / 3.0), w, m);
            }
        }
    }
    /* the ends have one side: the other copies it */
    if (se->n) {
        memcpy(tangents, tangents + w, w * sizeof *tangents);
        memcpy(tangents + (2 * (size_t)(se->n - 1) + 1) * w, tangents + 2 * (size_t)(se->n - 1) * w,
               w * sizeof *tangents);
    }
}

/* glTF's CUBICSPLINE between keys i and j at fraction t, with ma the
 * out-slope of key i and mb the in-slope of key j (value per frame;
 * rotations normalised, as glTF asks of readers). */
static void hermite(const series *se, const double *ma, const double *mb, uint32_t i, uint32_t j,
                    double t, double *out)
{
    size_t w = (size_t)se->width;
    double d = se->frames[j] - se->frames[i], t2 = t * t, t3 = t2 * t, n = 0.0;
    double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
    const float *a = se->values + i * w, *b = se->values + j * w;
    size_t k;
    for (k = 0; k < w; k++) {
        out[k] = h00 * a[k] + h10 * d * ma[k] + h01 * b[k] + h11 * d * mb[k];
        n += out[k] * out[k];
    }
    if (w == 4 && n > 0.0)
        for (k = 0; k < 4; k++)
            out[k] /= sqrt(n);
}

/* orig: the samples before densification, which tell a jump's two sides
 * (is_jump) from dense samples that are merely close. */
static int cubic_fits(const series *se, const series *orig, const double *ma, const double *mb,
                      uint32_t i, uint32_t j, double tol)
{
    size_t w = (size_t)se->width;
    double span = se->frames[j] - se->frames[i], v[4], mid[4], q;
    uint32_t k;
    for (k = i + 1; k <= j; k++) {
        /* the dense samples, and their chords at the quarter points: unlike a
         * line the Hermite curve may bulge between them (a spin that slerp
         * follows exactly leaves no dense sample inside; by symmetry its
         * Hermite arc is right at the middle, wrong at the quarters) */
        double a = se->frames[k - 1], b = se->frames[k];
        if (k < j) {
            hermite(se, ma, mb, i, j, (b - se->frames[i]) / span, v);
            if (distance(se->width, se->values + k * w, v) > tol)
                return 0;
        }
        /* only a jump is left unchecked between its samples: dense samples
         * closer than JUMP_FRAMES (a fast spin's, 1/128 frame apart) have
         * arcs that bulge like any other (blitz3d-mak_robotic's root at
         * frame 286.5: 6e-5 rad between keys 1/64 frame apart) */
        if (b - a < JUMP_FRAMES && is_jump(orig, a))
            continue;
        for (q = 0.25; q < 1.0; q += 0.5) {
            hermite(se, ma, mb, i, j, (a + q * (b - a) - se->frames[i]) / span, v);
            interpolate(se->width, se->values + (k - 1) * w, se->values + k * w, q, mid);
            if (distance2(se->width, mid, v) > tol)
                return 0;
        }
    }
    return 1;
}

/* The slopes of the samples i and j as their own (out of i, into j). */
static int slope_fits(const series *se, const series *orig, const double *tangents, uint32_t i,
                      uint32_t j, double tol)
{
    size_t w = (size_t)se->width;
    return cubic_fits(se, orig, tangents + (2 * (size_t)i + 1) * w, tangents + 2 * (size_t)j * w,
                      i, j, tol);
}

/* Slopes ma (out of i) and mb (into j) for the Hermite arc from sample i to
 * sample j closest to the samples between them (least squares; the arc's
 * ends are its samples). 0 when fewer than two samples lie between. */
static int fitted_slopes(const series *se, uint32_t i, uint32_t j, double *ma, double *mb)
{
    size_t w = (size_t)se->width;
    double d = se->frames[j] - se->frames[i], s00 = 0, s01 = 0, s11 = 0, r0[4] = {0}, r1[4] = {0};
    double det;
    const float *a = se->values + i * w, *b = se->values + j * w;
    uint32_t k;
    size_t c;
    if (j < i + 3)
        return 0;
    for (k = i + 1; k < j; k++) {
        double t = (se->frames[k] - se->frames[i]) / d, t2 = t * t, t3 = t2 * t;
        double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2;
        double h11 = t3 - t2;
        s00 += h10 * h10;
        s01 += h10 * h11;
        s11 += h11 * h11;
        for (c = 0; c < w; c++) {
            double r = se->values[k * w + c] - h00 * a[c] - h01 * b[c];
            r0[c] += h10 * r;
            r1[c] += h11 * r;
        }
    }
    det = s00 * s11 - s01 * s01;
    if (!(det > 1e-12 * s00 * s11))
        return 0;
    for (c = 0; c < w; c++) {
        ma[c] = (s11 * r0[c] - s01 * r1[c]) / det / d;
        mb[c] = (s00 * r1[c] - s01 * r0[c]) / det / d;
    }
    return 1;
}

/* 1 when a jump (rule 29) lies between samples i and j. */
static int spans_jump(const series *se, const series *orig, uint32_t i, uint32_t j)
{
    uint32_t k;
    for (k = i + 1; k <= j; k++)
        if (se->frames[k] - se->frames[k - 1] < JUMP_FRAMES && is_jump(orig, se->frames[k - 1]))
            return 1;
    return 0;
}

/* 1 when an arc from sample i to sample j keeps the bound (rule 35): with
 * the samples' own slopes, or else with slopes fitted to the samples
 * between (not across a jump, which keeps its own zero slopes, so that it
 * stays sharp: between its two samples no arc is checked). The slopes
 * tried last are left in ma and mb. */
static int arc_fits(const series *se, const series *orig, const double *tangents, uint32_t i,
                    uint32_t j, double tol, double *ma, double *mb)
{
    size_t w = (size_t)se->width;
    memcpy(ma, tangents + (2 * (size_t)i + 1) * w, w * sizeof *ma);
    memcpy(mb, tangents + 2 * (size_t)j * w, w * sizeof *mb);
    if (cubic_fits(se, orig, ma, mb, i, j, tol))
        return 1;
    return !spans_jump(se, orig, i, j) && fitted_slopes(se, i, j, ma, mb) &&
           cubic_fits(se, orig, ma, mb, i, j, tol);
}

/* The Hermite keys the bound needs, greedily as reduce() does, into out:
 * width 3·w per key (in-tangent, value, out-tangent, per second), each
 * arc with the slopes arc_fits found for it (a key's in-tangent ends the
 * arc before it, its out-tangent starts the next). Returns
 * the number of keys, 0 when out of memory. */
static uint32_t reduce_cubic(export_ctx *c, const series *se, const series *orig,
                             const double *tangents, double tol, series *out, int *fits)
{
    size_t w = (size_t)se->width;
    uint32_t i = 0, k, j;
    double fps = c->o->fps, in[4], ma[4], mb[4], ta[4], tb[4];
    out->width = 3 * se->width;
    for (j = 0; j < w; j++)
        in[j] = tangents[j];
    for (;;) {
        float key[12];
        uint32_t good = i + 1, step = 1, bad = se->n;
        if (i + 1 >= se->n) {
            for (j = 0; j < w; j++)
                ma[j] = tangents[(2 * (size_t)i + 1) * w + j];
        } else {
            /* the dense samples are close enough for lines, not always for
             * Hermite arcs: then this form does not keep the bound */
            if (!arc_fits(se, orig, tangents, i, good, tol, ma, mb))
                *fits = 0;
            while (good + step < se->n && arc_fits(se, orig, tangents, i, good + step, tol, ta, tb)) {
                good += step;
                step *= 2;
                memcpy(ma, ta, w * sizeof *ma);
                memcpy(mb, tb, w * sizeof *mb);
            }
            if (good + step < se->n)
                bad = good + step;
            while (bad - good > 1) {
                uint32_t m = good + (bad - good) / 2;
                if (arc_fits(se, orig, tangents, i, m, tol, ta, tb)) {
                    good = m;
                    memcpy(ma, ta, w * sizeof *ma);
                    memcpy(mb, tb, w * sizeof *mb);
                } else {
                    bad = m;
                }
            }
        }
        for (k = 0; k < 3; k++)
            for (j = 0; j < w; j++)
                key[k * w + j] = k == 1 ? se->values[i * w + j] : (float)((k ? ma[j] : in[j]) * fps);
        if (push(out, se->frames[i], key) != 0)
            return 0;
        if (i + 1 >= se->n)
            break;
        memcpy(in, mb, w * sizeof *in);
        i = good;
    }
    return out->n;
}

/* STEP channels keep the samples where the value changes. */
static void keep_changes(series *se)
{
    size_t w = (size_t)se->width;
    uint32_t k, n = 1;
    for (k = 1; k < se->n; k++) {
        if (memcmp(se->values + (n - 1) * w, se->values + k * w, w * sizeof *se->values) == 0)
            continue;
        se->frames[n] = se->frames[k];
        memmove(se->values + n * w, se->values + k * w, w * sizeof *se->values);
        n++;
    }
    se->n = n;
}

/* The largest turn between two LINEAR rotation keys (rule 38): readers
 * that interpolate the components and normalise (nlerp; Blender's importer)
 * then stray from slerp by at most NLERP_SHARE of the bound. Between keys θ
 * apart nlerp's turn differs from slerp's by θ³/(144·√3) at most, to within
 * 1.3% up to θ = 1 rad (docs/gltf.md), hence the 0.99 and the 1 rad. */
#define NLERP_SHARE 0.125
static double nlerp_cap(double tol)
{
    return fmin(1.0, 0.99 * cbrt(144.0 * sqrt(3.0) * NLERP_SHARE * tol));
}

/* The bound of property p (rule 33) raised to what float32 can hold. */
static double series_tolerance(const export_ctx *c, const ex_prop *p, const series *se)
{
    double big = 0.0;
    size_t k;
    for (k = 0; k < (size_t)se->n * (size_t)se->width; k++)
        big = fmax(big, fabs(se->values[k]));
    return fmax(prop_tolerance(c, p), se->width == 4 ? MIN_ANGLE : MIN_ULPS * big * FLT_EPSILON);
}

static void free_series(export_ctx *c, series *se)
{
    EX_FREE(c, se->frames);
    EX_FREE(c, se->values);
    se->frames = NULL;
    se->values = NULL;
    se->n = se->cap = 0;
}

/* Halvings of the dense spacing for Hermite arcs (rule 35): 1/8 frame, a
 * multi-turn key's samples, down to MIN_DENSE_FRAMES. */
#define HERMITE_ROUNDS 7

/* The samples the Hermite keys are chosen from, into *out with their
 * slopes in *tangents (the caller frees both): d's, and where the Hermite
 * arc between two neighbours strays from their chord by more than tol (a
 * spin that slerp follows exactly leaves its dense samples far apart) the
 * curve halfway, again for up to HERMITE_ROUNDS rounds. Returns 0, -1 out
 * of memory, -2 over the sample limit. */
static int hermite_samples(export_ctx *c, const ex_prop *p, const series *orig, const series *d,
                           double tol, series *out, double **tangents)
{
    series e, f;
    size_t w = (size_t)d->width;
    uint32_t k;
    int round, r = 0;
    memset(&e, 0, sizeof e);
    e.al = d->al;
    e.width = d->width;
    *tangents = NULL;
    for (k = 0; k < d->n && r == 0; k++)
        r = push(&e, d->frames[k], d->values + k * w);
    for (round = 0; r == 0; round++) {
        int added = 0;
        *tangents = EX_ALLOC(c, (size_t)e.n * 2 * w * sizeof **tangents + 1);
        if (!*tangents) {
            r = -1;
            break;
        }
        slopes(c, p, &e, orig, *tangents);
        if (round == HERMITE_ROUNDS)
            break;
        memset(&f, 0, sizeof f);
        f.al = d->al;
        f.width = d->width;
        for (k = 0; k < e.n && r == 0; k++) {
            r = push(&f, e.frames[k], e.values + k * w);
            if (r == 0 && k + 1 < e.n && e.frames[k + 1] - e.frames[k] >= 2.0 * MIN_DENSE_FRAMES &&
                !slope_fits(&e, orig, *tangents, k, k + 1, tol)) {
                float v[4];
                double m = 0.5 * (e.frames[k] + e.frames[k + 1]);
                export_sample(c, p, m, v);
                r = push(&f, m, v);
                added = 1;
            }
        }
        if (r != 0 || !added) {
            if (r != 0 && f.full)
                r = -2;
            free_series(c, &f);
            break;
        }
        fix_signs(&f);
        EX_FREE(c, *tangents);
        *tangents = NULL;
        free_series(c, &e);
        e = f;
    }
    if (r != 0) {
        if (e.full)
            r = -2;
        EX_FREE(c, *tangents);
        *tangents = NULL;
        free_series(c, &e);
        return r;
    }
    *out = e;
    return 0;
}

/* The two resampled forms of se that keep the bound (rules 34-35): se's
 * samples densified until their chords follow the curve, reduced to LINEAR
 * keys into *lin and to CUBICSPLINE keys into *cub (none, cub->n 0, when
 * Hermite arcs do not fit between neighbouring dense samples). se is kept. Returns 0,
 * -1 out of memory, -2 over the sample limit. */
static int resample(export_ctx *c, const ex_prop *p, const series *se, series *lin, series *cub)
{
    series d, h;
    double *tangents;
    uint32_t k;
    size_t w = (size_t)se->width;
    double tol = series_tolerance(c, p, se);
    int fits = 1, r = 0;
    series e;
    memset(&d, 0, sizeof d);
    d.al = se->al;
    d.width = se->width;
    memset(&h, 0, sizeof h);
    h.al = se->al;
    for (k = 0; k < se->n; k++) {
        const float *v = se->values + k * w;
        if (k && se->frames[k] - se->frames[k - 1] >= JUMP_FRAMES &&
            densify(c, p, &d, se->frames[k - 1], se->values + (k - 1) * w, se->frames[k], v,
                    tol * DENSE_SHARE, nlerp_cap(tol)) != 0)
            goto fail;
        if (push(&d, se->frames[k], v) != 0)
            goto fail;
    }
    fix_signs(&d);
    if (c->o->linear) /* --linear: no Hermite form to choose from (h stays empty) */
        goto lines;
    /* Hermite keys with the curve's own slopes, over the dense samples and
     * more where a Hermite arc does not fit between two of them */
    r = hermite_samples(c, p, se, &d, tol * KEY_SHARE, &e, &tangents);
    if (r != 0)
        goto fail;
    k = reduce_cubic(c, &e, se, tangents, tol * KEY_SHARE, &h, &fits);
    EX_FREE(c, tangents);
    free_series(c, &e);
    if (!k)
        goto fail;
    if (!fits) {
        free_series(c, &h);
        h.al = se->al;
    }
lines:
    reduce(&d, tol * KEY_SHARE, nlerp_cap(tol));
    *lin = d;
    *cub = h;
    return 0;
fail:
    EX_FREE(c, d.frames);
    EX_FREE(c, d.values);
    EX_FREE(c, h.frames);
    EX_FREE(c, h.values);
    return d.full || r == -2 ? -2 : -1;
}

/* ---- writing channels --------------------------------------------------- */

/* Frames to seconds; samples whose float time would not increase are
 * dropped (with their values). Returns the input accessor. */
static uint32_t write_times(export_ctx *c, series *se, int step)
{
    float *t = EX_ALLOC(c, (size_t)se->n * sizeof *t + 1);
    uint32_t k, n = 0, acc;
    size_t w = (size_t)se->width;
    if (!t) {
        c->oom = 1;
        return 0;
    }
    for (k = 0; k < se->n; k++) {
        double exact = (se->frames[k] - c->first) / c->o->fps;
        float tk = (float)exact;
        /* STEP keys, and the sample right after a jump's "before" sample,
         * rounded down, so that the new value is in effect at the frame's
         * exact time; the others to nearest, closest at the sample. */
        /* Resampled keys may be 1/128 frame apart on a fast spin: there only
         * a jump's own "before" sample (add_jumps) marks a jump, else such
         * keys would all be rounded down, twice rule 39's float noise. The
         * per-frame export keeps its spacing test (its bytes stay as they
         * were). */
        int after_jump = k && (c->o->every_frame
                                   ? se->frames[k] - se->frames[k - 1] < 0.01
                                   : se->frames[k - 1] == se->frames[k] - jump_offset(c, se->frames[k]));
        if ((step || after_jump) && (double)tk > exact)
            tk = nextafterf(tk, 0.0f);
        if (n && !(tk > t[n - 1]))
            continue;
        t[n] = tk;
        if (n != k)
            memmove(se->values + n * w, se->values + k * w, w * sizeof *se->values);
        n++;
    }
    se->n = n;
    acc = gltf_accessor(&c->buf, t, n, GLTF_FLOAT, 1, 0, 1);
    EX_FREE(c, t);
    return acc;
}

static const char *const path_names[] = { "translation", "rotation", "scale" };

static void write_channel(export_ctx *c, const ex_prop *p, uint32_t input, uint32_t output,
                          const char *interpolation)
{
    uint32_t sampler = c->anim_samplers.count;
    char pointer[96];
    gltf_obj(&c->anim_samplers, NULL);
    gltf_int(&c->anim_samplers, "input", (long)input);
    gltf_int(&c->anim_samplers, "output", (long)output);
    gltf_str(&c->anim_samplers, "interpolation", interpolation);
    gltf_end(&c->anim_samplers);

    gltf_obj(&c->anim_channels, NULL);
    gltf_int(&c->anim_channels, "sampler", (long)sampler);
    gltf_obj(&c->anim_channels, "target");
    pointer[0] = '\0';
    switch (p->kind) {
    case EX_TRANSLATION:
    case EX_ROTATION:
    case EX_SCALE:
    case EX_SHOWN_SCALE:
    case EX_AIM:
        gltf_int(&c->anim_channels, "node", (long)p->gnode);
        gltf_str(&c->anim_channels, "path",
                 path_names[p->kind == EX_TRANSLATION                     ? 0
                            : p->kind == EX_ROTATION || p->kind == EX_AIM ? 1
                                                                          : 2]);
        break;
    case EX_SHOWN_EXT:
        snprintf(pointer, sizeof pointer, "/nodes/%lu/extensions/KHR_node_visibility/visible",
                 (unsigned long)p->gnode);
        break;
    case EX_YFOV:
        snprintf(pointer, sizeof pointer, "/cameras/%ld/perspective/yfov", (long)p->target);
        break;
    case EX_LIGHT_COLOR:
        snprintf(pointer, sizeof pointer, "/extensions/KHR_lights_punctual/lights/%ld/color",
                 (long)p->target);
        break;
    case EX_SPOT_INNER:
    case EX_SPOT_OUTER:
        snprintf(pointer, sizeof pointer, "/extensions/KHR_lights_punctual/lights/%ld/spot/%s",
                 (long)p->target, p->kind == EX_SPOT_INNER ? "innerConeAngle" : "outerConeAngle");
        break;
    }
    if (pointer[0]) {
        gltf_str(&c->anim_channels, "path", "pointer");
        gltf_obj(&c->anim_channels, "extensions");
        gltf_obj(&c->anim_channels, "KHR_animation_pointer");
        gltf_str(&c->anim_channels, "pointer", pointer);
        gltf_end(&c->anim_channels);
        gltf_end(&c->anim_channels);
        c->used_pointer = 1;
    }
    gltf_end(&c->anim_channels);
    gltf_end(&c->anim_channels);
}

/* --cubic: the track as CUBICSPLINE when that is exact — a single (not
 * repeating) track of at least two keys, none with ease (or ease ignored),
 * frames strictly increasing inside the exported frames. Returns 1 when
 * written. */
static int cubic_track(const export_ctx *c, const ex_prop *p)
{
    const kf3ds_track *t;
    kf3ds_track_kind kind = p->kind == EX_TRANSLATION ? KF3DS_TRACK_POS : KF3DS_TRACK_SCL;
    uint32_t k, n;
    if (!c->o->cubic || !(p->kind == EX_TRANSLATION || p->kind == EX_SCALE) ||
        p->merge_visibility || c->s->nodes[p->node].type != KF3DS_NODE_OBJECT)
        return 0;
    t = &c->s->nodes[p->node].tracks[kind];
    n = t->num_keys;
    if (n < 2 || (t->flags & KF3DS_TRACK_LOOP_MASK) != 0)
        return 0;
    for (k = 0; k < n; k++) {
        const kf3ds_key *key = &t->keys[k];
        if (key->frame < c->first || key->frame > c->last ||
            (k && key->frame <= t->keys[k - 1].frame))
            return 0;
        if (!(c->flags & KF3DS_EVAL_NO_EASE) && (key->ease_to != 0.0f || key->ease_from != 0.0f))
            return 0;
        /* frames too close for float seconds */
        if (k && !((float)((key->frame - c->first) / c->o->fps) >
                   (float)((t->keys[k - 1].frame - c->first) / c->o->fps)))
            return 0;
    }
    return 1;
}

static int write_cubic(export_ctx *c, const ex_prop *p)
{
    const kf3ds_track *t;
    kf3ds_track_kind kind = p->kind == EX_TRANSLATION ? KF3DS_TRACK_POS : KF3DS_TRACK_SCL;
    float *times, *out;
    uint32_t k, n, input, output;
    if (!cubic_track(c, p))
        return 0;
    t = &c->s->nodes[p->node].tracks[kind];
    n = t->num_keys;
    times = EX_ALLOC(c, (size_t)n * sizeof *times);
    out = EX_ALLOC(c, (size_t)n * 9 * sizeof *out);
    if (!times || !out) {
        EX_FREE(c, times);
        EX_FREE(c, out);
        c->oom = 1;
        return 1;
    }
    for (k = 0; k < n; k++)
        times[k] = (float)((t->keys[k].frame - c->first) / c->o->fps);
    for (k = 0; k < n; k++) {
        /* Tangents per unit of the segment parameter become per second:
         * divided by the length of their segment (docs/gltf.md). */
        double din = k ? (t->keys[k].frame - t->keys[k - 1].frame) / c->o->fps : 0.0;
        double dout = k + 1 < n ? (t->keys[k + 1].frame - t->keys[k].frame) / c->o->fps : 0.0;
        float tin[4], tout[4];
        int j;
        kf3ds_track_key_tangents(t, kind, k, tin, tout); /* the ones evaluation uses */
        for (j = 0; j < 3; j++) {
            out[9 * k + j] = din > 0.0 ? (float)(tin[j] / din) : 0.0f;
            out[9 * k + 3 + j] = t->keys[k].value[j];
            out[9 * k + 6 + j] = dout > 0.0 ? (float)(tout[j] / dout) : 0.0f;
        }
    }
    for (k = 1; k < n; k++)
        if (!(times[k] > times[k - 1])) { /* frames too close for float seconds */
            EX_FREE(c, times);
            EX_FREE(c, out);
            return 0;
        }
    /* The times' accessor first, then the values', as for every other
     * channel: two calls as arguments of one would run in the compiler's
     * order (gcc and clang differ), and so would the accessor numbers. */
    input = gltf_accessor(&c->buf, times, n, GLTF_FLOAT, 1, 0, 1);
    output = gltf_accessor(&c->buf, out, 3 * n, GLTF_FLOAT, 3, 0, 0);
    write_channel(c, p, input, output, "CUBICSPLINE");
    EX_FREE(c, times);
    EX_FREE(c, out);
    return 1;
}

static int prop_width(ex_prop_kind k)
{
    switch (k) {
    case EX_ROTATION:
    case EX_AIM: return 4;
    case EX_TRANSLATION:
    case EX_SCALE:
    case EX_SHOWN_SCALE:
    case EX_LIGHT_COLOR: return 3;
    default: return 1;
    }
}

/* Writes se as property p's channel (interpolation LINEAR, STEP or
 * CUBICSPLINE). Returns 0, -1 out of memory. */
static int write_series(export_ctx *c, const ex_prop *p, series *se, const char *interp)
{
    uint32_t input, output;
    int cubic = interp[0] == 'C';
    input = write_times(c, se, interp[0] == 'S');
    if (p->kind == EX_SHOWN_EXT) {
        unsigned char *b = EX_ALLOC(c, se->n + 1u);
        uint32_t k;
        if (!b)
            return -1;
        for (k = 0; k < se->n; k++)
            b[k] = se->values[k] != 0.0f;
        output = gltf_accessor(&c->buf, b, se->n, GLTF_BYTE_U8, 1, 0, 0);
        write_channel(c, p, input, output, interp);
        EX_FREE(c, b);
        return 0;
    }
    output = cubic ? gltf_accessor(&c->buf, se->values, 3 * se->n, GLTF_FLOAT, se->width / 3, 0, 0)
                   : gltf_accessor(&c->buf, se->values, se->n, GLTF_FLOAT, se->width, 0, 0);
    write_channel(c, p, input, output, interp);
    return 0;
}

static int is_step(const ex_prop *p)
{
    return p->kind == EX_SHOWN_SCALE || p->kind == EX_SHOWN_EXT;
}

/* Property p's samples (rule 27) into se, signs made continuous. Returns
 * 0, -1 out of memory, -2 over the sample limit. */
static int sample_prop(export_ctx *c, const ex_prop *p, series *se)
{
    int r;
    memset(se, 0, sizeof *se);
    se->al = c->al;
    se->width = prop_width(p->kind);
    r = sample(c, p, se);
    if (r == 0)
        fix_signs(se);
    return r;
}

static int fail_code(export_ctx *c, int r)
{
    if (r == -2) {
        c->failed = KF3DS_ERR_LIMIT;
        c->limit = KF3DS_GLTF_LIMIT_PROPERTY;
        return -1;
    }
    if (r != 0)
        c->oom = 1;
    return r;
}

/* --every-frame: every sample a key, as sampled. */
static int export_prop(export_ctx *c, const ex_prop *p)
{
    series se;
    int r;
    if (write_cubic(c, p))
        return c->oom ? -1 : 0;
    r = sample_prop(c, p, &se);
    if (r == 0 && !all_equal(&se))
        r = write_series(c, p, &se, is_step(p) ? "STEP" : "LINEAR");
    free_series(c, &se);
    return fail_code(c, r);
}

/* ---- the file's key budget (rule 36) ------------------------------------ */

/* What resampling found for one property. */
typedef struct ex_plan {
    series lin, cub;          /* the LINEAR and CUBICSPLINE keys that keep the bound */
    uint32_t samples;         /* rule 27's samples: the per-frame export's keys */
    ex_form form;             /* what is written */
} ex_plan;

/* The default export: every property resampled to the forms that keep its
 * bound, the file's forms chosen within the per-frame export's key total
 * (export_budget.c), then every channel written in property order. */
static int export_resampled(export_ctx *c)
{
    ex_plan *plans = EX_CALLOC(c, c->num_props + 1, sizeof *plans);
    ex_budget_item *items = EX_CALLOC(c, c->num_props + 1, sizeof *items);
    uint32_t i;
    int r = 0;
    if (!plans || !items) {
        EX_FREE(c, plans);
        EX_FREE(c, items);
        c->oom = 1;
        return -1;
    }
    for (i = 0; r == 0 && i < c->num_props; i++) {
        const ex_prop *p = &c->props[i];
        ex_plan *pl = &plans[i];
        series se;
        pl->form = EX_FORM_NONE;
        if (cubic_track(c, p))
            continue; /* --cubic: the track's own keys */
        r = sample_prop(c, p, &se);
        if (r == 0 && !all_equal(&se)) {
            pl->samples = se.n;
            if (is_step(p)) {
                keep_changes(&se);
                pl->lin = se;
                pl->form = EX_FORM_STEP;
                continue;
            }
            r = resample(c, p, &se, &pl->lin, &pl->cub);
            pl->form = EX_FORM_LINEAR;
        }
        free_series(c, &se);
    }
    for (i = 0; i < c->num_props; i++) {
        items[i].form = plans[i].form;
        items[i].samples = plans[i].samples;
        items[i].lin_keys = plans[i].lin.n;
        items[i].cub_keys = plans[i].cub.n ? plans[i].cub.n : UINT32_MAX; /* no such form */
    }
    /* --linear is held to the bound only, not to the per-frame key total:
     * the budget's only ways to save keys are CUBICSPLINE and giving up the
     * bound (rule 36) */
    if (r == 0 && !c->o->linear && kf3ds__export_budget(c, items, c->num_props) != 0)
        r = -1;
    for (i = 0; r == 0 && i < c->num_props; i++) {
        const ex_prop *p = &c->props[i];
        ex_plan *pl = &plans[i];
        series se;
        switch (r == 0 ? items[i].form : EX_FORM_NONE) {
        case EX_FORM_NONE:
            if (write_cubic(c, p) && c->oom)
                r = -1;
            break;
        case EX_FORM_STEP: r = write_series(c, p, &pl->lin, "STEP"); break;
        case EX_FORM_LINEAR: r = write_series(c, p, &pl->lin, "LINEAR"); break;
        case EX_FORM_CUBIC: r = write_series(c, p, &pl->cub, "CUBICSPLINE"); break;
        case EX_FORM_SAMPLES:
            /* over the file's budget: the samples, reduced at the same bound
             * (exact at every sample, as the per-frame export) */
            r = sample_prop(c, p, &se);
            if (r == 0) {
                double tol = series_tolerance(c, p, &se);
                reduce(&se, tol * KEY_SHARE, nlerp_cap(tol));
                r = write_series(c, p, &se, "LINEAR");
                c->over_tolerance++;
            }
            free_series(c, &se);
            break;
        }
    }
    for (i = 0; i < c->num_props; i++) {
        free_series(c, &plans[i].lin);
        free_series(c, &plans[i].cub);
    }
    EX_FREE(c, plans);
    EX_FREE(c, items);
    return fail_code(c, r);
}

int export_animation(export_ctx *c)
{
    uint32_t i;
    int r = 0;
    if (c->num_props && kf3ds__export_samples_init(c) != 0)
        return -1;
    if (c->o->every_frame) {
        for (i = 0; r == 0 && i < c->num_props; i++)
            if (export_prop(c, &c->props[i]) != 0)
                r = -1;
        kf3ds__export_samples_free(c);
        return r != 0 || c->oom ? -1 : 0;
    }
    if (c->num_props && export_tolerances(c) != 0)
        r = -1;
    if (r == 0 && export_resampled(c) != 0)
        r = -1;
    kf3ds__export_samples_free(c);
    EX_FREE(c, c->tol_pos);
    EX_FREE(c, c->tol_rot);
    EX_FREE(c, c->tol_scl);
    c->tol_pos = c->tol_rot = c->tol_scl = NULL;
    return r != 0 || c->oom ? -1 : 0;
}
