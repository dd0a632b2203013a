/* kf3ds bake --between: what an engine gets between baked frames
 * (docs/kfb.md, "Between baked frames"). */
#ifndef KF3DS_CMD_BAKE_BETWEEN_H
#define KF3DS_CMD_BAKE_BETWEEN_H
#include <stdio.h>
#include "kf3ds.h"
#include "kf3ds_bake.h"

/* Prints one line to `out`: the largest distance, as a fraction of the
 * scene's extent, between the vertices kf3ds places at the quarter points
 * between consecutive baked frames and the same vertices interpolated
 * linearly between the two frames' placements (what an engine gets from
 * lerping the baked matrices). 0, or -1 when out of memory (reported). */
int bake_between_report(const char *file, const kf3ds_scene *s, const kf3ds_bake_info *info,
                        FILE *out);

#endif
