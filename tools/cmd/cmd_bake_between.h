/* kf3ds bake --between: what an engine gets between baked frames
 * (docs/kfb.md, "Between baked frames"). */
#ifndef KF3DS_CMD_BAKE_BETWEEN_H
#define KF3DS_CMD_BAKE_BETWEEN_H
#include <stdint.h>
#include <stdio.h>
#include "kf3ds.h"
#include "kf3ds_bake.h"

/* How far an engine that lerps the baked matrices strays from kf3ds. */
typedef struct bake_between {
    double worst;  /* the largest distance, as a fraction of the scene's extent */
    double frame;  /* where: the frame */
    uint32_t node; /* and the node */
} bake_between;

/* Measures, for the frames `info` describes, the largest distance between
 * the vertices kf3ds places at the quarter points between consecutive
 * frames and the same vertices interpolated linearly between the two
 * frames' placements (what an engine gets from lerping the baked
 * matrices), as a fraction of the extent of the frames' vertices. 0 with
 * fewer than two frames. Returns 0, or -1 when out of memory. */
int bake_between_measure(const kf3ds_scene *s, const kf3ds_bake_info *info, bake_between *r);

/* Prints the measure as one line to `out`. */
void bake_between_print(FILE *out, const kf3ds_bake_info *info, const bake_between *r);

#endif
