/* The per-segment records of a track and the index of its key frames:
 * written at load by track_setup.c, read by the evaluation of track_eval.h. */
#ifndef KF3DS_TRACK_SEGMENTS_H
#define KF3DS_TRACK_SEGMENTS_H
#include "kf3ds.h"
#include <string.h>

static inline int is_vector(kf3ds_track_kind kind)
{
    return kind == KF3DS_TRACK_POS || kind == KF3DS_TRACK_SCL || kind == KF3DS_TRACK_COL;
}

/* Floats in a key's value: 3 for position, scale and colour, else 1
 * (rotations are evaluated from their quaternions). */
static inline int dims_of(kf3ds_track_kind kind)
{
    return is_vector(kind) ? 3 : 1;
}

/* ---- per-segment records ------------------------------------------------
 * Evaluation reads one contiguous record per segment k → k+1, which also
 * holds the segment's frames, so that playback with a hint touches nothing
 * else of the track.
 *   common:  [0] f_k, [1] f_k+1 (int32 bit patterns), [2] e_f, [3] t_out
 *            (the ease constants below; 0 and 0 in a track without ease)
 *   vector (16 floats, with ease or not): [4..15] c0, c1, c2, c3 (3 each):
 *            P(u) = ((c3 u + c2) u + c1) u + c0; with ease, [2] e_f and [3]
 *            e_t themselves and no ease block: evaluation works a, a/e_f or
 *            a/e_t out (the same float operations, so the same bits), and
 *            the record is one cache line instead of two (docs/performance.md,
 *            "Evaluation": bench-lights)
 *   scalar (FOV, ROLL, HOT, FALL; 8 floats, 16 with ease): [4..7] c0, c1,
 *            c2, c3; [8..11] the ease block, [12..15] unused: half a cache
 *            line, or one with ease, where the vector layout took one or two
 *            (docs/performance.md, "Evaluation": bench-lights)
 *   rotation (32 floats): [4] Q_k, [8] Q_k+1, [12] A_k, [16] B_k+1 (4 floats each),
 *            [20] ω, cos ω, 1/sin ω of slerp(Q_k, Q_k+1), [25] the same for
 *            slerp(A_k, B_k+1), [24] mode: 0 squad, 1 multi-turn with [8] axis
 *            and [11] angle of key k+1; [28..31] the ease block
 * Ease (docs/evaluation.md, "Ease") is piecewise in u, with e_f and e_t
 * scaled down to a sum of 1 when larger and a = 1 / (2 − e_f − e_t):
 * (a/e_f)·u² below e_f, 1 − (a/e_t)·(1−u)² from 1 − e_t on, a·(2u − e_f)
 * between. Its constants are worked out here once, in the same float
 * operations the formula does, so that evaluation is branch-free (a
 * data-dependent branch per track mispredicted on tracks that mix eased and
 * plain segments) and gives the same bits: [2] e_f, [3] t_out = 1 − e_t (+∞
 * when e_t = 0), ease block: a, a/e_f, a/e_t, 0. A segment that does not
 * ease has e_f = 0, t_out = +∞ and a = 1/2: only the middle piece applies,
 * (1/2)·(2u − 0), which is u exactly. A track none of whose segments eases
 * has no ease block and is not eased at all. Vector records hold e_f and
 * e_t (0 and 0 for a segment that does not ease) instead: see above.
 *
 * The int32 before the first record holds the track's kind, whether it has
 * ease blocks (bit 8) and the shift of its frame index (bits 16..23, see
 * below), so that kf3ds_track_eval can tell records of another layout. */
#define SEG_VECTOR 16
#define SEG_VECTOR_EASED 16
#define SEG_SCALAR 8
#define SEG_SCALAR_EASED 16
#define SEG_ROTATION 32
#define SEG_EASE_VECTOR 2    /* (no ease block: e_f and e_t at [2], [3]) */
#define SEG_EASE_SCALAR 8
#define SEG_EASE_ROTATION 28

#define SEG_HEADER_EASED 0x100
#define SEG_NO_INDEX 0xFF

static inline size_t kf3ds__seg_stride(kf3ds_track_kind kind, int eased)
{
    if (kind == KF3DS_TRACK_ROT)
        return SEG_ROTATION;
    if (is_vector(kind))
        return eased ? SEG_VECTOR_EASED : SEG_VECTOR;
    return eased ? SEG_SCALAR_EASED : SEG_SCALAR;
}

/* Where a kind's ease block starts. */
static inline int kf3ds__seg_ease_at(kf3ds_track_kind kind)
{
    return kind == KF3DS_TRACK_ROT ? SEG_EASE_ROTATION
                                   : is_vector(kind) ? SEG_EASE_VECTOR : SEG_EASE_SCALAR;
}

/* Which of the three record layouts a kind's records have (rotation,
 * vector, scalar): a view asking for another kind's layout than the
 * records' holds the keys instead (track_eval.h). */
static inline int kf3ds__seg_layout(kf3ds_track_kind kind)
{
    return kind == KF3DS_TRACK_ROT ? 2 : is_vector(kind) ? 1 : 0;
}

static inline int32_t seg_frame(const float *rec, int i)
{
    int32_t f;
    memcpy(&f, rec + i, sizeof f);
    return f;
}

/* ---- the frame index ------------------------------------------------------
 * Tracks of more than KF3DS__INDEX_MIN_KEYS keys (and fewer than 65,536) get
 * an index beside their packed frames, so that a frame far from the hint (a
 * jump, a scrub, random access) finds its segment in one or two cache lines
 * instead of a binary search over all of them: bucket b covers the frames
 * f_0 + b·2^shift … f_0 + (b+1)·2^shift − 1 and index[b] is the number of keys
 * before it; the keys at or before a frame of bucket b are then index[b] plus
 * those of index[b] … index[b+1] − 1 at or before it. The shift makes the
 * buckets about as many as the keys. The index's uint16 entries follow the
 * packed frames. */
#define KF3DS__INDEX_MIN_KEYS 64
#define KF3DS__INDEX_MAX_KEYS 65535

/* Number of buckets of a track whose frames run from first to last. */
static inline uint32_t kf3ds__index_buckets(int32_t first, int32_t last, unsigned shift)
{
    return (uint32_t)(((uint32_t)last - (uint32_t)first) >> shift) + 1u;
}

#endif
