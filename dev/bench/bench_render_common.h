/* What kf3ds-bench --render (dev/bench/bench.c) and bench-osmesa
 * (dev/bench/bench_osmesa.c) share, so that the software renderer and Mesa draw
 * the same frames from the same view, timed the same way: the frames (FRAMES
 * of them spread evenly over the segment, first and last included), the
 * view (the orbit at azimuth 35, elevation 25, 45 degree FOV framing the
 * scene's bounds over all those frames), the WxH argument and the run policy
 * (at least RENDER_MIN_RUNS runs, then until they add up to RENDER_TARGET_MS
 * or RENDER_MAX_RUNS runs; the best run counts). Both use the kf3ds library
 * to load and evaluate. Include after bench_common.h. */
#ifndef KF3DS_BENCH_RENDER_COMMON_H
#define KF3DS_BENCH_RENDER_COMMON_H
#include "kf3ds.h"
#include "kf3ds_render.h"

#define RENDER_TARGET_MS 1000.0
#define RENDER_MIN_RUNS 2
#define RENDER_MAX_RUNS 20
#define RENDER_DEFAULT_FRAMES 100

/* "WxH", both 1..16384. */
static inline int bench_parse_size(const char *arg, int *w, int *h)
{
    char *end = NULL;
    long a, b;
    if (arg[0] < '0' || arg[0] > '9')
        return 0;
    errno = 0;
    a = strtol(arg, &end, 10);
    if (errno || *end != 'x' || end[1] < '0' || end[1] > '9')
        return 0;
    b = strtol(end + 1, &end, 10);
    if (errno || *end != '\0' || a < 1 || b < 1 || a > 16384 || b > 16384)
        return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

/* Frame i of n spread evenly over the scene's segment, both ends included. */
static inline double bench_render_frame(const kf3ds_scene *s, long i, long n)
{
    double start = s->segment_start;
    double end = s->segment_end > s->segment_start ? s->segment_end : start;
    return n > 1 ? start + (end - start) * (double)i / (double)(n - 1) : start;
}

/* The orbit view framing the scene's bounds over all the frames (poses is
 * scratch space for every node). */
static inline void bench_render_view(const kf3ds_scene *s, long frames, int width,
                                     int height, kf3ds_pose *poses, kf3ds_view *view)
{
    float mn[3] = {-1, -1, -1}, mx[3] = {1, 1, 1};
    int have = 0, k;
    long f;
    for (f = 0; f < frames; f++) {
        float a[3], b[3];
        kf3ds_scene_eval(s, bench_render_frame(s, f, frames), 0, poses);
        if (kf3ds_scene_bounds(s, poses, a, b)) {
            for (k = 0; k < 3; k++) {
                if (!have || a[k] < mn[k])
                    mn[k] = a[k];
                if (!have || b[k] > mx[k])
                    mx[k] = b[k];
            }
            have = 1;
        }
    }
    kf3ds_view_orbit(mn, mx, 35.0f, 25.0f, 45.0f, (float)width / (float)height, view);
}

static inline int bench_render_more_runs(int runs, double total_ms)
{
    return runs < RENDER_MAX_RUNS && (runs < RENDER_MIN_RUNS || total_ms < RENDER_TARGET_MS);
}
#endif
