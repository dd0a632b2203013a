/* kfb-print FILE.kfb [FRAME]: the README's "Baking for an engine" example,
 * complete (built by `make` as build/kfb-print, run by tests/front/test_bake.c).
 * It reads a fixed-point bake (kf3ds bake --fixed) and prints the placed
 * vertices of every visible mesh at FRAME (default: the first baked frame),
 * computed with integer arithmetic only, as a 68000 would; only the printing
 * turns them into decimals. An engine would draw them instead. */
#include <stdio.h>
#include <stdlib.h>
#define KF3DS_KFB_IMPLEMENTATION
#include "kf3ds_kfb.h"

/* README: begin */
static int print_vertices(const unsigned char *bytes, unsigned long size, const char *frame)
{
    kf3ds_kfb_file f;
    kf3ds_kfb_u32 fr, slot, v;
    if (kf3ds_kfb_open(&f, bytes, size) != KF3DS_KFB_OK || !(f.flags & KF3DS_KFB_FLAG_FIXED) ||
        kf3ds_kfb_find_frame(&f, frame, &fr) != KF3DS_KFB_OK)
        return 1;                                      /* not a --fixed bake of that frame */
    double unit = 1.0 / (1L << f.frac_bits);           /* for printing only */
    for (slot = 0; slot < f.num_nodes; slot++) {       /* every baked node */
        kf3ds_kfb_node node;
        kf3ds_kfb_mesh mesh;
        kf3ds_kfb_s32 world[12], p[3], q[3];           /* signed 16.16 (or --frac-bits) */
        kf3ds_kfb_node_get(&f, slot, &node);
        if (node.mesh < 0 || !kf3ds_kfb_visible(&f, fr, slot))
            continue;
        kf3ds_kfb_mesh_get(&f, (kf3ds_kfb_u32)node.mesh, &mesh);
        kf3ds_kfb_world_fixed(&f, fr, slot, world);    /* the node's world matrix N(t), 3x4 */
        for (v = 0; v < mesh.num_vertices; v++) {
            kf3ds_kfb_vertex_fixed(&f, &mesh, v, p);   /* already in the node's space */
            kf3ds_kfb_fixed_transform(world, p, f.frac_bits, q); /* placed: integers only */
            printf("%s %lu: %.4f %.4f %.4f\n", node.name.s, (unsigned long)v, q[0] * unit,
                   q[1] * unit, q[2] * unit);
        }
    }
    return 0;
}
/* README: end */

int main(int argc, char **argv)
{
    static unsigned char bytes[64 << 20]; /* or the file linked in: kf3ds bake --c-source */
    FILE *in = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t size = in ? fread(bytes, 1, sizeof bytes, in) : 0;
    kf3ds_kfb_file f;
    char first[16];
    if (in)
        fclose(in);
    if (argc < 2 || argc > 3 || kf3ds_kfb_open(&f, bytes, size) != KF3DS_KFB_OK) {
        fprintf(stderr, "usage: kfb-print FILE.kfb [FRAME] (a file of kf3ds bake --fixed)\n");
        return 2;
    }
    snprintf(first, sizeof first, "%ld", (long)f.frame_first); /* the first frame, when whole */
    if (print_vertices(bytes, size, argc > 2 ? argv[2] : f.frame_scale == 1 ? first : "")) {
        fprintf(stderr, "kfb-print: %s: not a --fixed bake, or that frame was not baked\n",
                argv[1]);
        return 1;
    }
    return 0;
}
