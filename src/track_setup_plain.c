/* Rotation tracks' setup in plain C: the chain of Q_k, the squad controls
 * key by key and the record loop (track_rotation.h), the reference that
 * track_setup_lanes.c matches bit for bit. */
#include "track_rotation.h"

/* Q_i of the chain below (its turn through lc when given). */
static KF3DS__ALWAYS_INLINE void chain_step(kf3ds_track *t, uint32_t i, ln_cache *lc)
{
    kf3ds_key *k = &t->keys[i];
    key_turn own;
    const key_turn *tr = lc ? turn_at(lc, i) : (turn_of(k, &own), &own);
    if (i == 0) {
        memcpy(k->quat, tr->q, sizeof tr->q);
    } else {
        kf3ds__quat_mul(tr->q, t->keys[i - 1].quat, k->quat);
    }
}

/* Q_0 = q(a_0, −θ_0), Q_k = q(a_k, −θ_k) ⊗ Q_{k−1} over every key
 * (docs/evaluation.md, "Rotation tracks"): the increment rounded to float,
 * then the product of two float quaternions, exact in double and rounded
 * once, so that Q_k has the same bits on hosts that evaluate double in
 * extended precision (68881, x87) as on the others. Keys done..upto−1 (their
 * turns through lc when given, for the squad controls to use again); returns
 * the keys done. */
static uint32_t accumulate_rotations(kf3ds_track *t, uint32_t done, uint32_t upto, ln_cache *lc)
{
    uint32_t i;
    /* The turns first, in a loop of their own: they do not depend on each
     * other, so the processor overlaps their square roots and divisions,
     * which it cannot across the loop below (docs/performance.md,
     * "Loading"). */
    for (i = done; lc && i < upto; i++) {
        turn_get(lc, t, i);
    }
    for (i = done; i < upto; i++) {
        chain_step(t, i, lc);
        if (!lc || i == 0)
            continue;
        segment_step(t, i - 1, lc);
    }
    return upto > done ? upto : done;
}

/* The controls' slerp constants of every segment of a rotation track (its
 * records at seg), in a loop of their own: each segment's are then
 * independent of the next one's, and the processor overlaps their latency
 * (a square root and the acos) instead of waiting for them at the end of a
 * long chain from Q to the controls. */
static void control_slerps(const kf3ds_track *t, float *seg, size_t stride)
{
    uint32_t k, n = t->num_keys;
    for (k = 0; k + 1 < n; k++)
        control_slerp(t, seg, stride, k);
}

uint32_t kf3ds__rotation_records_plain(kf3ds_track *t, kf3ds_track_kind kind, int eased,
                                       uint32_t done, float *seg, size_t stride)
{
    uint32_t k, n = t->num_keys;
    float in[4] = { 0, 0, 0, 0 }, out[4] = { 0, 0, 0, 0 };
    ln_cache lc;
    ln_cache_init(&lc);
    /* Controls are worked out key by key as the records need them: record k
     * takes key k's outgoing and key k+1's incoming. */
    if (done == 0) { /* (a closed curve has its Q_k already) */
        lc.seg = seg;
        lc.stride = stride;
    }
    done = accumulate_rotations(t, done, n < 3 ? n : 3, &lc);
    rotation_controls(t, 0, &lc, in, out);
    for (k = 0; k + 1 < n; k++) {
        float a_out[4];
        memcpy(a_out, out, sizeof a_out);
        if (done < k + 4) /* the controls of keys k + 1 and k + 2 need Q_k+3 */
            done = accumulate_rotations(t, done, n - k > 4 + ROT_AHEAD ? k + 4 + ROT_AHEAD : n,
                                        &lc);
        if (k + 2 < n)
            interior_controls(t, k + 1, &lc, in, out);
        else
            rotation_controls(t, k + 1, &lc, in, out);
        rotation_record(t, kind, eased, k, seg + (size_t)k * stride, a_out, in, &lc);
    }
    control_slerps(t, seg, stride);
    return done;
}

uint32_t kf3ds__rotation_chain_plain(kf3ds_track *t, uint32_t done, uint32_t upto)
{
    return accumulate_rotations(t, done, upto, NULL);
}
