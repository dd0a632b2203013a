/* kf3ds-bench: load and evaluation timings (docs/contracts.md, "kf3ds-bench").
 *
 *   kf3ds-bench FILE [FRAMES]
 *
 * Loads FILE, then evaluates every node at FRAMES frames (default: the file's
 * animation length, anim_length or segment_end - segment_start if larger,
 * at least 1) at i + 0.5 for i in 0..FRAMES-1, and prints on its last line
 *
 *   load_ms 12.34 eval_ms 5.67 node_evals 20100
 *
 * Method (the same in tools/bench_lib3ds.c, so that the two compare):
 *  - load: kf3ds_load_file (file read included) is repeated at least
 *    MIN_RUNS times, then until the runs add up to TARGET_MS or MAX_RUNS runs
 *    were made; load_ms is the BEST (minimum) time of one load. The minimum is
 *    used because timing noise (page faults, scheduling) only ever adds time.
 *  - eval: one run is kf3ds_scene_eval at all FRAMES frames into a poses
 *    array allocated once, with the default flags (ease on); runs repeat as
 *    for load and eval_ms is the BEST (minimum) time of one run.
 * Clock: clock_gettime(CLOCK_MONOTONIC).
 *
 * Exit status: 0 success, 1 the file cannot be loaded, 2 wrong usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "kf3ds.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TARGET_MS 200.0
#define MIN_RUNS 3
#define MAX_RUNS 50

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int usage(void)
{
    fputs("usage: kf3ds-bench FILE [FRAMES]\n"
          "  FRAMES: number of frames to evaluate (positive integer; default: the\n"
          "  file's animation length)\n",
          stderr);
    return 2;
}

static void print_diag(const char *file, const kf3ds_diag *d, int warning)
{
    fprintf(stderr, "kf3ds-bench: %s%s: ", warning ? "warning: " : "", file);
    if (d->chunk_id)
        fprintf(stderr, "offset %lu, chunk 0x%04X %s: ", (unsigned long)d->offset,
                (unsigned)d->chunk_id,
                d->chunk_name && d->chunk_name[0] ? d->chunk_name : "?");
    else if (d->offset)
        fprintf(stderr, "offset %lu: ", (unsigned long)d->offset);
    fprintf(stderr, "%s\n", d->message[0] ? d->message : kf3ds_status_string(d->code));
}

int main(int argc, char **argv)
{
    const char *file;
    long frames = 0;
    kf3ds_diag err;
    kf3ds_scene *scene;
    kf3ds_pose *poses;
    double t0, t, total, best_load, best_eval;
    unsigned long long keys = 0, verts = 0;
    volatile float sink = 0.0f;
    uint32_t i, k;
    int runs;

    if (argc < 2 || argc > 3 || argv[1][0] == '\0')
        return usage();
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage();
        return 0;
    }
    file = argv[1];
    if (argc == 3) {
        char *end = NULL;
        errno = 0;
        frames = strtol(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0' || errno || frames < 1 || frames > 100000000L) {
            fprintf(stderr, "kf3ds-bench: FRAMES must be a positive integer, not '%s'\n",
                    argv[2]);
            return usage();
        }
    }

    /* ---- load ---------------------------------------------------------- */
    best_load = 0.0;
    total = 0.0;
    scene = NULL;
    for (runs = 0; runs < MAX_RUNS && (runs < MIN_RUNS || total < TARGET_MS); runs++) {
        kf3ds_scene *s;
        t0 = now_ms();
        s = kf3ds_load_file(file, NULL, &err);
        t = now_ms() - t0;
        if (!s) {
            print_diag(file, &err, 0);
            kf3ds_free(scene);
            return 1;
        }
        total += t;
        if (runs == 0 || t < best_load)
            best_load = t;
        if (!scene) {
            scene = s; /* keep the first one for evaluation */
            if (err.code != KF3DS_OK)
                print_diag(file, &err, 1); /* malformed: benchmark what was read */
        } else {
            kf3ds_free(s);
        }
    }

    if (frames == 0) {
        long len = scene->anim_length;
        long seg = (long)scene->segment_end - (long)scene->segment_start;
        frames = seg > len ? seg : len;
        if (frames < 1)
            frames = 1;
    }

    for (i = 0; i < scene->num_nodes; i++)
        for (k = 0; k < KF3DS_TRACK_COUNT; k++)
            keys += scene->nodes[i].tracks[k].num_keys;
    for (i = 0; i < scene->num_meshes; i++)
        verts += scene->meshes[i].num_points;
    printf("file %s\n", file);
    printf("nodes %lu keys %llu meshes %lu vertices %llu frames %ld\n",
           (unsigned long)scene->num_nodes, keys, (unsigned long)scene->num_meshes, verts,
           frames);
    printf("load runs %d best %.3f ms mean %.3f ms\n", runs, best_load, total / runs);

    /* ---- eval ---------------------------------------------------------- */
    poses = (kf3ds_pose *)calloc(scene->num_nodes ? scene->num_nodes : 1, sizeof *poses);
    if (!poses) {
        fprintf(stderr, "kf3ds-bench: out of memory\n");
        kf3ds_free(scene);
        return 1;
    }
    best_eval = 0.0;
    total = 0.0;
    for (runs = 0; runs < MAX_RUNS && (runs < MIN_RUNS || total < TARGET_MS); runs++) {
        long f;
        t0 = now_ms();
        for (f = 0; f < frames; f++)
            kf3ds_scene_eval(scene, (double)f + 0.5, 0, poses);
        t = now_ms() - t0;
        total += t;
        if (runs == 0 || t < best_eval)
            best_eval = t;
        if (scene->num_nodes)
            sink += poses[scene->num_nodes - 1].world.m[0][3];
    }
    printf("eval runs %d best %.3f ms mean %.3f ms (%.1f ns per node eval)\n", runs, best_eval,
           total / runs,
           scene->num_nodes ? best_eval * 1e6 / ((double)scene->num_nodes * (double)frames)
                            : 0.0);
    printf("load_ms %.2f eval_ms %.2f node_evals %llu\n", best_load, best_eval,
           (unsigned long long)scene->num_nodes * (unsigned long long)frames);
    (void)sink;
    free(poses);
    kf3ds_free(scene);
    return 0;
}
