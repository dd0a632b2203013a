/* The per-segment records of a track: written at load by track_setup.c,
 * read by the evaluation of track_eval.h. */
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

static inline size_t kf3ds__seg_stride(kf3ds_track_kind kind)
{
    return kind == KF3DS_TRACK_ROT ? SEG_ROTATION : SEG_VECTOR;
}

static inline int32_t seg_frame(const float *rec, int i)
{
    int32_t f;
    memcpy(&f, rec + i, sizeof f);
    return f;
}

#endif
