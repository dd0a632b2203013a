/* kf3ds_track_eval: one track at one frame, the out-of-line entry to the
 * inline evaluation of track_eval.h. */
#include "track_eval.h"

int kf3ds_track_eval(const kf3ds_track *track, kf3ds_track_kind kind, double frame,
                     unsigned flags, float out[4])
{
    if (track && track->segments_ && (unsigned)kind < KF3DS_TRACK_COUNT) {
        int32_t own;
        memcpy(&own, track->segments_ - 1, sizeof own);
        if ((unsigned)own >= KF3DS_TRACK_COUNT ||
            kf3ds__seg_stride((kf3ds_track_kind)own) != kf3ds__seg_stride(kind)) {
            /* Evaluated as a kind whose records have another layout (a
             * rotation track as a position...): its segment records would be
             * misread, so the keys are held without interpolation. */
            kf3ds_track t = *track;
            t.segments_ = NULL;
            return kf3ds__track_eval_hinted(&t, kind, frame, flags, out, NULL, NULL);
        }
    }
    return kf3ds__track_eval_hinted(track, kind, frame, flags, out, NULL, NULL);
}
