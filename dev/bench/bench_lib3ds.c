/* bench-lib3ds: the kf3ds-bench measurement made with lib3ds 1.3, for comparison.
 *
 *   bench-lib3ds [--once] [--random-frames SPAN] FILE [FRAMES]
 *
 * Loads FILE with lib3ds_file_load, then evaluates the whole node tree with
 * lib3ds_file_eval(file, t) at FRAMES frames: t = i + 0.5 for i in
 * 0..FRAMES-1, or the random sequence of --random-frames (dev/bench/bench_common.h,
 * the same as kf3ds-bench's). FRAMES defaults to the file's animation length,
 * frames or segment_to - segment_from if larger, at least 1
 * (lib3ds 1.3 defaults the segment to 0..100 when the file has no KFSEG, so
 * this default can differ from kf3ds-bench's: pass FRAMES to compare) and
 * prints on its last line, like kf3ds-bench,
 *
 *   load_ms 12.34 eval_ms 5.67 node_evals 20100
 *
 * Method (the same as dev/bench/bench.c): load (file read included) is repeated
 * at least MIN_RUNS times, then until the runs add up to TARGET_MS or MAX_RUNS
 * runs were made; load_ms is the BEST (minimum) time of one load, and the
 * first load's time is printed too. One eval run is all FRAMES frames;
 * eval_ms is the BEST (minimum) run, repeated likewise. --once: one run of each.
 * Clock: clock_gettime(CLOCK_MONOTONIC).
 *
 * Exit status: 0 success, 1 the file cannot be loaded, 2 wrong usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <lib3ds/file.h>
#include <lib3ds/mesh.h>
#include <lib3ds/node.h>
#include <lib3ds/tracks.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_common.h"



static int usage(void)
{
    fputs("usage: bench-lib3ds [--once] [--random-frames SPAN] FILE [FRAMES]\n", stderr);
    return 2;
}

/* Length of a lib3ds key list (every key type starts with tcb, then next). */
#define COUNT_KEYS(track, type, n)                         \
    do {                                                   \
        const type *k_;                                    \
        for (k_ = (track).keyL; k_; k_ = k_->next)         \
            (n)++;                                         \
    } while (0)

static void count_nodes(const Lib3dsNode *node, unsigned long *nodes, unsigned long long *keys)
{
    for (; node; node = node->next) {
        const Lib3dsNodeData *d = &node->data;
        (*nodes)++;
        switch (node->type) {
        case LIB3DS_AMBIENT_NODE:
            COUNT_KEYS(d->ambient.col_track, Lib3dsLin3Key, *keys);
            break;
        case LIB3DS_OBJECT_NODE:
            COUNT_KEYS(d->object.pos_track, Lib3dsLin3Key, *keys);
            COUNT_KEYS(d->object.rot_track, Lib3dsQuatKey, *keys);
            COUNT_KEYS(d->object.scl_track, Lib3dsLin3Key, *keys);
            COUNT_KEYS(d->object.morph_track, Lib3dsMorphKey, *keys);
            COUNT_KEYS(d->object.hide_track, Lib3dsBoolKey, *keys);
            break;
        case LIB3DS_CAMERA_NODE:
            COUNT_KEYS(d->camera.pos_track, Lib3dsLin3Key, *keys);
            COUNT_KEYS(d->camera.fov_track, Lib3dsLin1Key, *keys);
            COUNT_KEYS(d->camera.roll_track, Lib3dsLin1Key, *keys);
            break;
        case LIB3DS_TARGET_NODE:
            COUNT_KEYS(d->target.pos_track, Lib3dsLin3Key, *keys);
            break;
        case LIB3DS_LIGHT_NODE:
            COUNT_KEYS(d->light.pos_track, Lib3dsLin3Key, *keys);
            COUNT_KEYS(d->light.col_track, Lib3dsLin3Key, *keys);
            COUNT_KEYS(d->light.hotspot_track, Lib3dsLin1Key, *keys);
            COUNT_KEYS(d->light.falloff_track, Lib3dsLin1Key, *keys);
            COUNT_KEYS(d->light.roll_track, Lib3dsLin1Key, *keys);
            break;
        case LIB3DS_SPOT_NODE:
            COUNT_KEYS(d->spot.pos_track, Lib3dsLin3Key, *keys);
            break;
        default:
            break;
        }
        count_nodes(node->childs, nodes, keys);
    }
}

int main(int argc, char **argv)
{
    bench_options o;
    const char *file;
    long frames;
    Lib3dsFile *lf;
    const Lib3dsMesh *mesh;
    double t0, t, total, best_load, first_load = 0.0, best_eval, *times;
    unsigned long nodes = 0, meshes = 0;
    unsigned long long keys = 0, verts = 0;
    volatile float sink = 0.0f;
    int runs;

    if (!bench_parse_options("bench-lib3ds", argc, argv, &o))
        return usage();
    file = o.file;

    /* ---- load ---------------------------------------------------------- */
    best_load = 0.0;
    total = 0.0;
    lf = NULL;
    for (runs = 0; bench_more_runs(&o, runs, total - first_load, MIN_LOAD_RUNS); runs++) {
        Lib3dsFile *f;
        t0 = now_ms();
        f = lib3ds_file_load(file);
        t = now_ms() - t0;
        if (!f) {
            fprintf(stderr, "bench-lib3ds: %s: lib3ds_file_load failed\n", file);
            if (lf)
                lib3ds_file_free(lf);
            return 1;
        }
        total += t;
        if (runs == 0)
            first_load = t;
        if (runs == 0 || t < best_load)
            best_load = t;
        if (!lf)
            lf = f; /* keep the first one for evaluation */
        else
            lib3ds_file_free(f);
    }

    frames = o.frames ? o.frames
                      : bench_default_frames((long)lf->frames, (long)lf->segment_from,
                                             (long)lf->segment_to);
    count_nodes(lf->nodes, &nodes, &keys);
    for (mesh = lf->meshes; mesh; mesh = mesh->next) {
        meshes++;
        verts += mesh->points;
    }
    printf("file %s\n", file);
    printf("nodes %lu keys %llu meshes %lu vertices %llu frames %ld\n", nodes, keys, meshes,
           verts, frames);
    bench_print_frames(&o, frames);
    printf("load runs %d best %.3f ms mean %.3f ms first %.3f ms\n", runs, best_load,
           total / runs, first_load);

    /* ---- eval ---------------------------------------------------------- */
    times = bench_frames(&o, frames);
    if (!times) {
        fprintf(stderr, "bench-lib3ds: out of memory\n");
        lib3ds_file_free(lf);
        return 1;
    }
    best_eval = 0.0;
    total = 0.0;
    for (runs = 0; bench_more_runs(&o, runs, total, MIN_RUNS); runs++) {
        long f;
        t0 = now_ms();
        for (f = 0; f < frames; f++)
            lib3ds_file_eval(lf, (Lib3dsFloat)times[f]);
        t = now_ms() - t0;
        total += t;
        if (runs == 0 || t < best_eval)
            best_eval = t;
        if (lf->nodes)
            sink += lf->nodes->matrix[3][0];
    }
    printf("eval runs %d best %.3f ms mean %.3f ms (%.1f ns per node eval)\n", runs, best_eval,
           total / runs, nodes ? best_eval * 1e6 / ((double)nodes * (double)frames) : 0.0);
    printf("load_ms %.2f eval_ms %.2f node_evals %llu\n", best_load, best_eval,
           (unsigned long long)nodes * (unsigned long long)frames);
    (void)sink;
    free(times);
    lib3ds_file_free(lf);
    return 0;
}
