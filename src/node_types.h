/* Which tracks each node type evaluates, as bits 1 << kind: cameras ignore
 * rotation, objects colour, and so on, as lib3ds does (docs/evaluation.md).
 * Skipping the others keeps a node's evaluation within a few cache lines.
 * A table, not a module: the keyframer reader marks each node's active
 * tracks with it, and anything else that needs the rule includes it too,
 * without a call into another part of the library. */
#ifndef KF3DS_NODE_TYPES_H
#define KF3DS_NODE_TYPES_H
#include "kf3ds.h"

#define KF3DS__TRACK_BIT(k) (1u << (k))

static inline unsigned kf3ds__node_type_tracks(kf3ds_node_type type)
{
    static const unsigned tracks[7] = {
        KF3DS__TRACK_BIT(KF3DS_TRACK_COL),                          /* ambient */
        KF3DS__TRACK_BIT(KF3DS_TRACK_POS) | KF3DS__TRACK_BIT(KF3DS_TRACK_ROT) |
            KF3DS__TRACK_BIT(KF3DS_TRACK_SCL) | KF3DS__TRACK_BIT(KF3DS_TRACK_HIDE) |
            KF3DS__TRACK_BIT(KF3DS_TRACK_MORPH),                    /* object */
        KF3DS__TRACK_BIT(KF3DS_TRACK_POS) | KF3DS__TRACK_BIT(KF3DS_TRACK_FOV) |
            KF3DS__TRACK_BIT(KF3DS_TRACK_ROLL),                     /* camera */
        KF3DS__TRACK_BIT(KF3DS_TRACK_POS),                          /* target */
        KF3DS__TRACK_BIT(KF3DS_TRACK_POS) | KF3DS__TRACK_BIT(KF3DS_TRACK_COL), /* light */
        KF3DS__TRACK_BIT(KF3DS_TRACK_POS),                          /* ltarget */
        KF3DS__TRACK_BIT(KF3DS_TRACK_POS) | KF3DS__TRACK_BIT(KF3DS_TRACK_COL) |
            KF3DS__TRACK_BIT(KF3DS_TRACK_ROLL) | KF3DS__TRACK_BIT(KF3DS_TRACK_HOT) |
            KF3DS__TRACK_BIT(KF3DS_TRACK_FALL),                     /* spot */
    };
    return (unsigned)type < 7 ? tracks[type] : 0;
}

#endif
