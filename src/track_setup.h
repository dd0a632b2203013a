/* Per-track setup at load (track_setup.c), called by the keyframer reader
 * once a track's keys are read. */
#ifndef KF3DS_TRACK_SETUP_H
#define KF3DS_TRACK_SETUP_H
#include "load_ctx.h"

/* Stable-sorts the keys by frame (with a warning when they were out of
 * order), accumulates rotations, derives tangents and squad controls, and
 * writes the packed frames and segment records evaluation reads. offset and
 * chunk_id name the track chunk in diagnostics. With ctx->source, the file
 * order of keys it sorted is kept there for node `node`. */
void kf3ds__track_setup(kf3ds__load_ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                        uint32_t node, uint32_t offset, uint16_t chunk_id);

/* What a reader may know of the keys as it reads them, so that setup need
 * not find it out again: no key has an ease (ease_to = ease_from = 0). */
#define KF3DS__KEYS_NO_EASE 0x1u

/* Rotation tracks' setup (track_rotation.h): the plain C reference
 * (track_setup_plain.c) or the two-lane SSE2 version (track_setup_lanes.c),
 * the same bits. records: the records of a rotation track of n >= 2 keys at
 * seg, accumulating Q_k from key `done` on; chain: Q_k of keys done..upto-1.
 * Both return the keys whose Q_k are in place. */
typedef struct kf3ds__rotation_setup {
    uint32_t (*records)(kf3ds_track *t, kf3ds_track_kind kind, int eased, uint32_t done,
                        float *seg, size_t stride);
    uint32_t (*chain)(kf3ds_track *t, uint32_t done, uint32_t upto);
} kf3ds__rotation_setup;

/* The version this build has, for kf3ds__load_ctx.rotations (set once per load). */
const kf3ds__rotation_setup *kf3ds__rotation_setup_pick(void);

/* kf3ds__track_setup with `known`, KF3DS__KEYS_... bits that hold. */
void kf3ds__track_setup_known(kf3ds__load_ctx *ctx, kf3ds_track *track, kf3ds_track_kind kind,
                              uint32_t node, uint32_t offset, uint16_t chunk_id, unsigned known);

#endif
