/* The reference tests/gltf/check_three.mjs compares an export with: the
 * library's placement of every object node's mesh, as a box per node per
 * frame. Written by tests/front/test_export.c and by dev/resample/ref_boxes.c
 * (dev/resample/table.sh), so it needs nothing but the core and stdio: no
 * cmocka. */
#ifndef KF3DS_SUPPORT_BOXES_H
#define KF3DS_SUPPORT_BOXES_H
#include <stddef.h>
#include <stdio.h>
#include "kf3ds.h"

/* Writes REF.json to out: {"fps", "first", "samples": [{"frame", "nodes":
 * [[node, hidden, min x, y, z, max x, y, z], ...]}, ...], "extent"}. At each
 * of the n frames, every object node showing a mesh with points: its hidden
 * state and the box of that mesh's vertices placed by kf3ds_node_mesh_matrix
 * (what `kf3ds eval --verts` prints). The extent is the largest side of the
 * box of the shown ones over all frames (1 when there are none). Returns the
 * number of boxes written, 0 when no node has one (nothing to check), −1 when
 * out of memory. */
long support_write_boxes(FILE *out, const kf3ds_scene *s, double fps, double first,
                         const double *frames, size_t n);
#endif
