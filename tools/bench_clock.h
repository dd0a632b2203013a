/* The measuring rules both benchmark harnesses share, so that kf3ds and lib3ds
 * are timed the same way: a monotonic clock, and each measurement repeated at
 * least MIN_RUNS times, then until the runs add up to TARGET_MS or MAX_RUNS
 * runs were made (the best run counts: noise only ever adds time). Include
 * after defining _POSIX_C_SOURCE. */
#ifndef KF3DS_BENCH_CLOCK_H
#define KF3DS_BENCH_CLOCK_H
#include <time.h>

#define TARGET_MS 200.0
#define MIN_RUNS 3
#define MAX_RUNS 50

/* FRAMES when not given: the longer of the animation length and the KFSEG
 * segment, at least 1 (what tools/bench.c calls the file's animation length). */
static long bench_default_frames(long anim_length, long segment_start, long segment_end)
{
    long seg = segment_end - segment_start;
    long frames = seg > anim_length ? seg : anim_length;
    return frames < 1 ? 1 : frames;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
#endif
