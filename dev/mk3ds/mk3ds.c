/* mk3ds: writes the sample files of data/, the benchmark inputs and random
 * scenes for the differential test against lib3ds 1.3.
 *
 *   mk3ds samples DIR          DIR/orrery.3ds, DIR/arm.3ds, DIR/edge.3ds,
 *                              DIR/textured.3ds with its maps (mk3ds_textured.c)
 *   mk3ds bench-meshes FILE    200 meshes x 20,000 vertices (~90 MB)
 *   mk3ds bench-nodes FILE     2,000 animated object nodes, 60 keys per track
 *   mk3ds bench-render FILE    100 spinning spheres, 100,000 smooth triangles
 *   mk3ds bench-render-dense FILE  10 spinning spheres of 10,000 triangles
 *   mk3ds bench-render-textured FILE  the bench-render spheres with a texture map
 *   mk3ds random SEED FILE     a random valid animated scene, deterministic
 *   mk3ds bench-SHAPE FILE     the benchmark's other scene shapes (mk3ds_shapes.c):
 *                              random, chain, constant, lights, long, render-city
 *
 * A scene is built in memory (nodes with their tracks, meshes, materials,
 * cameras, lights) and then written with the library's builder and writer.
 * Mesh geometry is made consistent with the keyframer: a mesh bound to a
 * "rest node" gets MESH_MATRIX = N(0)·T(-pivot) (times S(-1,1,1) when
 * mirrored, as real files do) and its vertices are MESH_MATRIX applied to
 * object-local coordinates, so that the frame-0 pose N(0)·T(-pivot)·M^-1·v
 * reproduces the stored vertices (after lib3ds' mirror fix for a negative
 * determinant). N(0) is computed with the rules of docs/evaluation.md (stable
 * key sort, accumulated rotations, first key held before the track starts).
 * The parts: mk3ds.h. This file: the command line. */
#include "mk3ds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fputs("usage: mk3ds samples DIR          write DIR/orrery.3ds, DIR/arm.3ds, DIR/edge.3ds\n"
          "       mk3ds bench-meshes FILE    200 meshes of 20,000 vertices (~90 MB)\n"
          "       mk3ds bench-nodes FILE     2,000 animated object nodes, 60 keys per track\n"
          "       mk3ds bench-render FILE    100 spinning spheres, 100,000 smooth triangles\n"
          "       mk3ds bench-render-dense FILE  10 spinning spheres of 10,000 triangles\n"
          "       mk3ds bench-render-textured FILE  the bench-render spheres with a texture map\n"
          "       mk3ds random SEED FILE     a random valid animated scene (SEED: unsigned integer)\n"
          "       mk3ds bench-SHAPE FILE     benchmark shapes: bench-random, bench-chain,\n"
          "                                  bench-constant, bench-lights, bench-long,\n"
          "                                  bench-render-city\n",
          stderr);
    return 2;
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = xrealloc(NULL, n);
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "samples") == 0) {
        static const char *const names[3] = {"orrery.3ds", "arm.3ds", "edge.3ds"};
        int i;
        for (i = 0; i < 3; i++) {
            char *p = join(argv[2], names[i]);
            if (i == 0)
                make_orrery(p);
            else if (i == 1)
                make_arm(p);
            else
                make_edge(p);
            free(p);
        }
        make_textured(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-render-textured") == 0) {
        make_bench_render_textured(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-meshes") == 0) {
        make_bench_meshes(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-render") == 0) {
        make_bench_render(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-render-dense") == 0) {
        make_bench_render_dense(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-nodes") == 0) {
        make_bench_nodes(argv[2]);
        return 0;
    }
    if (argc == 3 && make_bench_shape(argv[1], argv[2]))
        return 0;
    if (argc == 4 && strcmp(argv[1], "random") == 0) {
        const char *p = argv[2];
        uint64_t seed = 0;
        if (!*p)
            return usage();
        for (; *p; p++) {
            if (*p < '0' || *p > '9' || seed > (UINT64_MAX - 9) / 10)
                return usage();
            seed = seed * 10 + (uint64_t)(*p - '0');
        }
        make_random(seed, argv[3]);
        return 0;
    }
    return usage();
}
