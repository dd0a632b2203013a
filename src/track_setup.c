/* Per-track setup at load: stable sort, accumulated rotations, tangents and
 * squad controls, and the per-segment records (track_segments.h) that
 * evaluation (track_eval.h) reads; kf3ds_track_key_tangents, a key's
 * tangents from the same functions. The mathematics is lib3ds 1.3's with the
 * fixes docs/evaluation.md lists. Rotation tracks' records come from
 * kf3ds__rotation_setup (track_rotation.h), chosen once per load. */
#include "track_setup.h"
#include "arena.h"
#include "read_util.h"
#include "sort.h"
#include "track_rotation.h"
#include "track_setup_math.h"

/* Keys by frame only: keys on one frame keep their file order (the sort is
 * stable; docs/evaluation.md, "Key order and duplicate frames"). */
static int key_less(const void *a, const void *b)
{
    return ((const kf3ds_key *)a)->frame < ((const kf3ds_key *)b)->frame;
}

/* The Kochanek–Bartels tangents of key c between keys p and n, three lanes
 * (a scalar track's other values are 0, and its records take only the
 * first). */
static inline void interior_tangents(const kf3ds_key *p, const kf3ds_key *c, const kf3ds_key *n,
                                     double dt_prev, double dt_next, float tin[4], float tout[4])
{
    double f[4];
    float ksm, ksp, kdm, kdp;
    tcb_factors(c, dt_prev, dt_next, 1, f);
    ksm = (float)f[0];
    ksp = (float)f[1];
    kdm = (float)f[2];
    kdp = (float)f[3];
    kf3ds__tangents4(p->value, c->value, n->value, ksm, ksp, kdm, kdp, tin, tout);
}

/* The tangents of key i of a vector or scalar track: Kochanek–Bartels for
 * interior keys, the chord for end keys (lib3ds 1.3; docs/evaluation.md,
 * "Hermite tracks"), zero for a lone key. */
static void vector_tangents(const kf3ds_track *t, uint32_t i, float tin[4], float tout[4])
{
    const kf3ds_key *c = &t->keys[i];
    neighbours nb = neighbours_of(t, i);
    int d;
    memset(tin, 0, 4 * sizeof(float));
    memset(tout, 0, 4 * sizeof(float));
    if (nb.p && nb.n) {
        interior_tangents(nb.p, c, nb.n, nb.dt_prev, nb.dt_next, tin, tout);
    } else if (nb.p || nb.n) {
        for (d = 0; d < 3; d++) {
            float chord = nb.p ? c->value[d] - nb.p->value[d] : nb.n->value[d] - c->value[d];
            tin[d] = tout[d] = chord;
        }
    }
}

/* A vector record's e_f and e_t, scaled by ease_scale (0
 * and 0 when the segment does not ease): the record has no room for the
 * rest, which evaluation works out from them (track_segments.h). */
static void ease_inputs(float ef, float et, float *rec)
{
    rec[2] = rec[3] = 0.0f;
    if (!ease_scale(&ef, &et))
        return;
    rec[2] = ef;
    rec[3] = et;
}

/* Whether some segment of the track eases (ease_from of its start key or
 * ease_to of its end key is set). */
static int track_eases(const kf3ds_track *t)
{
    uint32_t k;
    for (k = 0; k + 1 < t->num_keys; k++)
        if (t->keys[k].ease_from + t->keys[k + 1].ease_to > 0.0f)
            return 1;
    return 0;
}

/* The packed frames, followed by the frame index (track_segments.h) when
 * `indexed` and the track has enough keys; returns the index's shift or
 * SEG_NO_INDEX. (Only tracks with segment records are indexed: their header
 * holds the shift.) */
static unsigned setup_frames(kf3ds__load_ctx *ctx, kf3ds_track *t, int indexed)
{
    uint32_t k, n = t->num_keys, buckets = 0, b;
    unsigned shift = SEG_NO_INDEX;
    int32_t *frames;
    if (indexed && n > KF3DS__INDEX_MIN_KEYS && n <= KF3DS__INDEX_MAX_KEYS) {
        uint32_t range = (uint32_t)t->keys[n - 1].frame - (uint32_t)t->keys[0].frame;
        for (shift = 0; shift < 31 && (range >> shift) + 1u > n; shift++)
            ;
        buckets = kf3ds__index_buckets(t->keys[0].frame, t->keys[n - 1].frame, shift);
    }
    /* the index's buckets + 1 uint16 entries take (buckets + 2) / 2 words */
    frames = (int32_t *)kf3ds__arena_alloc_raw(
        ctx->arena, (size_t)n + (shift != SEG_NO_INDEX ? (buckets + 2) / 2 : 0), sizeof(int32_t));
    if (!frames)
        return SEG_NO_INDEX;
    for (k = 0; k < n; k++)
        frames[k] = t->keys[k].frame;
    t->frames_ = frames;
    if (shift != SEG_NO_INDEX) {
        uint16_t *index = (uint16_t *)(frames + n);
        for (b = 0, k = 0; b <= buckets; b++) {
            int64_t start = (int64_t)frames[0] + ((int64_t)b << shift);
            while (k < n && frames[k] < start)
                k++;
            index[b] = (uint16_t)k;
        }
    }
    return shift;
}

/* A scalar record's cubic at s[4..7], with the formulas of the vector
 * records' components (so the same bits); an eased record's unused tail
 * after its ease block is zeroed. */
static void scalar_coefficients(float *s, float p0, float p1, float m0, float m1, int eased)
{
    s[4] = p0;
    s[5] = m0;
    s[6] = -3.0f * p0 + 3.0f * p1 - 2.0f * m0 - m1;
    s[7] = 2.0f * p0 - 2.0f * p1 + m0 + m1;
    if (eased)
        memset(s + SEG_EASE_SCALAR + 4, 0,
               (SEG_SCALAR_EASED - SEG_EASE_SCALAR - 4) * sizeof(float));
}

/* The kinds of segment record (track_segments.h). */
/* The kinds of segment record (track_segments.h) this file writes (rotation
 * records: kf3ds__rotation_setup). */
enum { REC_SCALAR, REC_VECTOR };

/* The records of track t (setup_segments) in seg, `rec` a constant of the
 * call: the record loop inline, one copy per kind of record. */
static KF3DS__ALWAYS_INLINE void fill_records(kf3ds_track *t, kf3ds_track_kind kind, int rec,
                                              int eased, float *seg, size_t stride)
{
    uint32_t k, n = t->num_keys;
    float in[4] = { 0, 0, 0, 0 }, out[4] = { 0, 0, 0, 0 };
    /* Tangents are worked out key by key as the records need them: record k
     * takes key k's outgoing and key k+1's incoming. */
    vector_tangents(t, 0, in, out);
    for (k = 0; k + 1 < n; k++) {
        const kf3ds_key *a = &t->keys[k], *b = &t->keys[k + 1];
        float *s = seg + (size_t)k * stride, a_out[4];
        memcpy(a_out, out, sizeof a_out);
        if (k + 2 < n) { /* an interior key: its neighbours are the keys beside it */
            const kf3ds_key *c = &t->keys[k + 1];
            interior_tangents(a, c, c + 1, (double)c->frame - a->frame,
                              (double)c[1].frame - c->frame, in, out);
        } else {
            vector_tangents(t, k + 1, in, out);
        }
        if (rec == REC_VECTOR)
            kf3ds__hermite_cubic3(s, a->value, b->value, a_out, in);
        else
            scalar_coefficients(s, a->value[0], b->value[0], a_out[0], in[0], eased);
        /* the common fields last: kf3ds__hermite_cubic3 may write one float past
         * the coefficients */
        memcpy(s + 0, &a->frame, sizeof(int32_t));
        memcpy(s + 1, &b->frame, sizeof(int32_t));
        if (eased && rec == REC_VECTOR)
            ease_inputs(a->ease_from, b->ease_to, s);
        else if (eased)
            ease_constants(a->ease_from, b->ease_to, s, s + kf3ds__seg_ease_at(kind));
        else
            s[2] = s[3] = 0.0f;
    }
}

/* The packed frames and the records; `eased`: some segment eases. Returns
 * the keys whose Q_k are in place (rotation tracks: setup_segments
 * accumulates them as it goes, one key ahead of the controls). */
static uint32_t setup_segments(kf3ds__load_ctx *ctx, const kf3ds__rotation_setup *rs,
                               kf3ds_track *t, kf3ds_track_kind kind, int eased, uint32_t done)
{
    uint32_t n = t->num_keys;
    size_t stride;
    float *seg;
    unsigned shift;
    if (!n || kf3ds__arena_failed(ctx->arena))
        return done;
    shift = setup_frames(ctx, t, kind != KF3DS_TRACK_HIDE && kind != KF3DS_TRACK_MORPH);
    if (!t->frames_ || kind == KF3DS_TRACK_HIDE || kind == KF3DS_TRACK_MORPH || n < 2)
        return done;
    stride = kf3ds__seg_stride(kind, eased);
    /* 16 floats of slack to align the records on a 64-byte line; the int32
     * before the first record (always inside the slack) is the header. */
    /* (and one float more: kf3ds__hermite_cubic3 may write one past a record) */
    seg = (float *)kf3ds__arena_alloc_raw(ctx->arena, (size_t)(n - 1) * stride + 17,
                                          sizeof(float));
    if (!seg)
        return done;
    seg += 16 - ((uintptr_t)seg / sizeof(float)) % 16;
    {
        int32_t header = (int32_t)kind | (eased ? SEG_HEADER_EASED : 0) | (int32_t)(shift << 16);
        memcpy(seg - 1, &header, sizeof header);
    }
    /* one copy of the record loop per kind of record, without the tests of
     * the kind per record (docs/performance.md, "Loading") */
    if (kind == KF3DS_TRACK_ROT)
        done = rs->records(t, kind, eased, done, seg, stride);
    else if (is_vector(kind))
        fill_records(t, kind, REC_VECTOR, eased, seg, stride);
    else
        fill_records(t, kind, REC_SCALAR, eased, seg, stride);
    t->segments_ = seg;
    return done;
}

/* For saving in file order (source.h): where each key of the file went in
 * the stable sort. Keys of equal frames keep their order, so the file's j-th
 * key of frame f is the j-th key of frame f after the sort. */
static void keep_key_order(kf3ds__load_ctx *ctx, const kf3ds_track *t, const int32_t *file_frames,
                           kf3ds_track_kind kind, uint32_t node)
{
    kf3ds__source *src = ctx->source;
    uint32_t n = t->num_keys, i;
    uint32_t *index = (uint32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(uint32_t));
    uint32_t *seen = (uint32_t *)kf3ds__arena_alloc(ctx->arena, n, sizeof(uint32_t));
    kf3ds__key_order *o;
    if (!index || !seen)
        return;
    for (i = 0; i < n; i++) {
        uint32_t lo = 0, hi = n; /* the first sorted key of this frame */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (t->keys[mid].frame < file_frames[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        index[i] = lo + seen[lo]++;
    }
    if (src->num_key_orders == src->cap_key_orders) {
        uint32_t cap = src->cap_key_orders ? 2 * src->cap_key_orders : 16;
        kf3ds__key_order *grown =
            (kf3ds__key_order *)kf3ds__arena_alloc_raw(ctx->arena, cap, sizeof *grown);
        if (!grown)
            return;
        if (src->num_key_orders)
            memcpy(grown, src->key_orders, src->num_key_orders * sizeof *grown);
        src->key_orders = grown;
        src->cap_key_orders = cap;
    }
    o = &src->key_orders[src->num_key_orders++];
    o->node = node;
    o->kind = (uint32_t)kind;
    o->num_keys = n;
    o->index = index;
}

void kf3ds__track_setup(kf3ds__load_ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                        uint32_t node, uint32_t offset, uint16_t chunk_id)
{
    kf3ds__track_setup_known(ctx, track, kind, node, offset, chunk_id, 0);
}

void kf3ds__track_setup_known(kf3ds__load_ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                              uint32_t node, uint32_t offset, uint16_t chunk_id, unsigned known)
{
    const kf3ds__rotation_setup *rs =
        ctx->rotations ? ctx->rotations : kf3ds__rotation_setup_pick();
    uint32_t i, n = track->num_keys, done;
    int eased = 0;
    for (i = 0; ctx->source && i < ctx->source->num_key_orders; i++) {
        kf3ds__key_order *o = &ctx->source->key_orders[i];
        if (o->node == node && o->kind == (uint32_t)kind) /* a track this one replaces */
            o->node = 0xFFFFFFFFu;
    }
    /* (whether a segment eases, found on the way for keys in order) */
    if (known & KF3DS__KEYS_NO_EASE) {
        /* (whether any key descends, without a branch per key; where, only
         * when one does) */
        unsigned down = 0;
        for (i = 1; i < n; i++)
            down |= track->keys[i].frame < track->keys[i - 1].frame;
        for (i = down ? 1 : n; i < n && track->keys[i].frame >= track->keys[i - 1].frame; i++)
            ;
    } else {
        for (i = 1; i < n; i++) {
            if (track->keys[i].frame < track->keys[i - 1].frame)
                break;
            eased |= track->keys[i - 1].ease_from + track->keys[i].ease_to > 0.0f;
        }
    }
    if (i < n) {
        kf3ds_key *tmp = (kf3ds_key *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(kf3ds_key));
        int32_t *file_frames = NULL;
        uint32_t j;
        if (!tmp)
            return;
        if (ctx->source) {
            file_frames = (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(int32_t));
            for (j = 0; file_frames && j < n; j++)
                file_frames[j] = track->keys[j].frame;
        }
        kf3ds__sort(track->keys, n, sizeof *track->keys, tmp, key_less);
        if (file_frames)
            keep_key_order(ctx, track, file_frames, kind, node);
        kf3ds__diag(ctx, KF3DS_WARN_UNSORTED, offset, chunk_id,
                    "keys out of frame order (key %lu); stable-sorted", (unsigned long)i);
        eased = track_eases(track);
    }
    /* A closed curve's first controls need the last keys' Q. */
    done = kind == KF3DS_TRACK_ROT && is_cyclic(track) ? rs->chain(track, 0, n) : 0;
    done = setup_segments(ctx, rs, track, kind, eased, done);
    if (kind == KF3DS_TRACK_ROT)
        rs->chain(track, done, n);
}

/* The public view of what setup derives per key: the same functions as
 * setup_segments, so that the values are the records' own (rotation_controls
 * takes both logarithms, bit for bit the G_j setup's cache holds). */
const kf3ds__rotation_setup *kf3ds__rotation_setup_pick(void)
{
#if defined(KF3DS__ROTATION_LANES)
    static const kf3ds__rotation_setup chosen = { kf3ds__rotation_records_lanes,
                                                  kf3ds__rotation_chain_lanes };
#else
    static const kf3ds__rotation_setup chosen = { kf3ds__rotation_records_plain,
                                                  kf3ds__rotation_chain_plain };
#endif
    return &chosen;
}

int kf3ds_track_key_tangents(const kf3ds_track *track, kf3ds_track_kind kind, uint32_t key,
                             float in[4], float out[4])
{
    ln_cache lc;
    int d, dims;
    if (!track || !track->keys || key >= track->num_keys || !in || !out ||
        (unsigned)kind >= KF3DS_TRACK_COUNT || kind == KF3DS_TRACK_HIDE ||
        kind == KF3DS_TRACK_MORPH)
        return 0;
    if (kind == KF3DS_TRACK_ROT) {
        ln_cache_init(&lc);
        rotation_controls(track, key, &lc, in, out);
        return 4;
    }
    dims = dims_of(kind);
    vector_tangents(track, key, in, out);
    for (d = dims; d < 4; d++) /* vector_tangents fills three lanes from any values */
        in[d] = out[d] = 0.0f;
    return dims;
}

