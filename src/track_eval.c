/* kf3ds_track_eval: one track at one frame, the out-of-line entry to the
 * inline evaluation of track_eval.h. */
#include "track_eval.h"

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
    kf3ds__track_view v;
    kf3ds__view_cold c;
    uint32_t hint = 0;
    if (!track || !out || (unsigned)kind >= KF3DS_TRACK_COUNT)
        return 0;
    if (!track->num_keys)
        return default_value(kind, out);
    if (!track->frames_) /* not set up by the loader (hand-built track) */
        return key_value(&track->keys[0], kind, out);
    kf3ds__view_of(track, kind, &v, &c);
    switch (kind) {
    case KF3DS_TRACK_ROT:
        view_rotation(&v, frame, 1, view_ease(flags), &hint, out, NULL);
        return 4;
    case KF3DS_TRACK_HIDE:
        out[0] = view_hidden(&v, frame, &hint) ? 1.0f : 0.0f;
        return 1;
    case KF3DS_TRACK_MORPH:
        out[0] = (float)view_morph_key(&v, frame, &hint);
        return 1;
    default:
        view_vector(&v, frame, 1, view_ease(flags), &hint, out, dims_of(kind));
        return dims_of(kind);
    }
}
