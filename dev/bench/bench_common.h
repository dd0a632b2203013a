/* What both benchmark harnesses (dev/bench/bench.c, dev/bench/bench_lib3ds.c) share,
 * so that kf3ds and lib3ds are measured the same way:
 *  - a monotonic clock;
 *  - the run policy: each measurement repeated at least MIN_RUNS times, then
 *    until the runs add up to TARGET_MS or MAX_RUNS runs were made (the best
 *    run counts: noise only ever adds time); --once makes one run of each,
 *    for counting instructions under callgrind (make bench-callgrind). A
 *    load's first run does not count towards TARGET_MS: it alone reads a file
 *    the kernel may have evicted and faults in the process's fresh memory
 *    (seconds for bench-meshes). Loads run at least MIN_LOAD_RUNS times:
 *    on the VM the benchmarks run on, a warm load now and then takes five to
 *    ten times its usual time (bench-nodes: 25.6 ms, then 207 ms in the same
 *    process), and three runs left too few to take the best of;
 *  - the frames evaluated: i + 0.5 for i in 0..FRAMES-1 (playback), or with
 *    --random-frames SPAN, FRAMES frames drawn from [0, SPAN) in eighths of a
 *    frame (exact in lib3ds's float) by a fixed-seed generator, the same
 *    sequence in both harnesses;
 *  - the options that select these.
 * Include after defining _POSIX_C_SOURCE. */
#ifndef KF3DS_BENCH_COMMON_H
#define KF3DS_BENCH_COMMON_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TARGET_MS 500.0
#define MIN_RUNS 3
#define MIN_LOAD_RUNS 8
#define MAX_RUNS 50
#define BENCH_MAX_FRAMES 100000000L
#define BENCH_MAX_SPAN 1000000L /* eighths of a frame stay exact in a float */

typedef struct bench_options {
    const char *file;
    long frames;      /* 0: the file's animation length */
    long random_span; /* > 0: random frames in [0, random_span) */
    int once;         /* one run of each measurement */
} bench_options;

/* FRAMES when not given: the longer of the animation length and the KFSEG
 * segment, at least 1 (what dev/bench/bench.c calls the file's animation length). */
static inline long bench_default_frames(long anim_length, long segment_start,
                                        long segment_end)
{
    long seg = segment_end - segment_start;
    long frames = seg > anim_length ? seg : anim_length;
    return frames < 1 ? 1 : frames;
}

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Whether another run is due after `runs` runs taking `total_ms` in all,
 * at least min_runs of them (MIN_RUNS, or MIN_LOAD_RUNS for loads). */
static inline int bench_more_runs(const bench_options *o, int runs, double total_ms,
                                  int min_runs)
{
    if (o->once)
        return runs < 1;
    return runs < MAX_RUNS && (runs < min_runs || total_ms < TARGET_MS);
}

/* A positive integer argument up to max; 0 (after a message) when it is not. */
static inline long bench_parse_count(const char *prog, const char *what, const char *arg,
                                     long max)
{
    char *end = NULL;
    long v;
    errno = 0;
    v = strtol(arg, &end, 10);
    if (end == arg || *end != '\0' || errno || v < 1 || v > max) {
        fprintf(stderr, "%s: %s must be an integer from 1 to %ld, not '%s'\n", prog, what, max,
                arg);
        return 0;
    }
    return v;
}

/* [--once] [--random-frames SPAN] FILE [FRAMES]. Returns 0 (after a message
 * when an argument is wrong) on wrong usage. */
static inline int bench_parse_options(const char *prog, int argc, char **argv,
                                      bench_options *o)
{
    int i = 1;
    memset(o, 0, sizeof *o);
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        if (strcmp(argv[i], "--once") == 0) {
            o->once = 1;
        } else if (strcmp(argv[i], "--random-frames") == 0 && i + 1 < argc) {
            o->random_span = bench_parse_count(prog, "SPAN", argv[++i], BENCH_MAX_SPAN);
            if (!o->random_span)
                return 0;
        } else {
            fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[i]);
            return 0;
        }
    }
    if (i >= argc || argc - i > 2 || argv[i][0] == '\0')
        return 0;
    o->file = argv[i];
    if (argc - i == 2 && !(o->frames = bench_parse_count(prog, "FRAMES", argv[i + 1],
                                                         BENCH_MAX_FRAMES)))
        return 0;
    return 1;
}

/* The frames to evaluate, frames[0..n-1] (malloc'ed; NULL when out of memory). */
static inline double *bench_frames(const bench_options *o, long n)
{
    double *f = (double *)malloc((size_t)n * sizeof *f);
    uint64_t x = 0x2545F4914F6CDD1Du; /* xorshift64, fixed seed */
    long i;
    if (!f)
        return NULL;
    for (i = 0; i < n; i++) {
        if (o->random_span > 0) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f[i] = (double)(x % (uint64_t)(o->random_span * 8)) / 8.0;
        } else {
            f[i] = (double)i + 0.5;
        }
    }
    return f;
}

/* "frames N at i + 0.5" or "frames N at random in [0, SPAN)". */
static inline void bench_print_frames(const bench_options *o, long n)
{
    if (o->random_span > 0)
        printf("frames %ld at random in [0, %ld)\n", n, o->random_span);
    else
        printf("frames %ld at i + 0.5\n", n);
}
#endif
