/* bench_web_native.c — the native half of `make bench-web` (dev/bench/bench_web.mjs,
 * docs/web.md, "Speed"): the very glue the WebAssembly module runs,
 * web/kf3ds_wasm.c, compiled natively with the library, so that both sides
 * time the same calls: kfw_eval (evaluation, what scene.eval runs) and
 * kfw_eval + kfw_render (a frame evaluated and drawn, what scene.eval plus
 * scene.render run).
 *
 *   bench-web-native FILE START END COUNT WIDTH HEIGHT
 *
 * COUNT frames spread evenly over START..END, each timed as frame_time says;
 * prints one line of JSON, the mean times per frame in ms: {"eval_ms": …,
 * "frame_ms": …}. Exit 1 for a file that does not load. */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"

/* The glue is written for wasm32: its export_name attributes mean nothing
 * here and would only warn. Including it (rather than declaring its
 * functions again) lets the compiler check every call below against it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#include "../../web/kf3ds_wasm.c"
#pragma GCC diagnostic pop

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        *size = (size_t)n;
    fclose(f);
    return buf;
}

/* One call of what is timed: the frame evaluated (and drawn); 0 on failure. */
static int once(kfw_scene *h, double frame, int width, int height, int draw)
{
    if (!kfw_eval(h, frame, 0))
        return 0;
    /* scene.render's defaults: the default view, smooth, no overlays, the
     * label, the file's lights and background (web/kf3ds.mjs). */
    return !draw || kfw_render(h, width, height, frame, -1, -1, 35.0f, 25.0f, 0, 0, 0, 0, 1.0f,
                               0.0f, 0.0f, 0.0) != NULL;
}

/* The time of one call at `frame`, in ms: samples of K calls (K making a
 * sample about SAMPLE_MS, which a contended machine lets run uninterrupted
 * more often than a long one), the best sample over K. The same policy as
 * dev/bench/bench_web.mjs's Chromium side. -1 when a call failed. */
#define SAMPLE_MS 2.0
#define MIN_SAMPLES 5
#define MAX_SAMPLES 40
#define FRAME_MS 400.0
static double frame_time(kfw_scene *h, double frame, int width, int height, int draw)
{
    double t0, low = -1, spent = 0;
    long k, i;
    int n;
    for (k = 1;; k *= 2) { /* k: doubled until k calls take SAMPLE_MS */
        t0 = now_ms();
        for (i = 0; i < k; i++)
            if (!once(h, frame, width, height, draw))
                return -1;
        if (now_ms() - t0 >= SAMPLE_MS || k >= 65536)
            break;
    }
    for (n = 0; n < MIN_SAMPLES || (n < MAX_SAMPLES && spent < FRAME_MS); n++) {
        double ms;
        t0 = now_ms();
        for (i = 0; i < k; i++)
            if (!once(h, frame, width, height, draw))
                return -1;
        ms = now_ms() - t0;
        spent += ms;
        if (low < 0 || ms < low)
            low = ms;
    }
    return low / (double)k;
}

/* The mean over the frames of each frame's time. */
static double best(kfw_scene *h, const double *frames, int count, int width, int height,
                   int draw)
{
    double sum = 0, t;
    int i;
    for (i = 0; i < count; i++) {
        if ((t = frame_time(h, frames[i], width, height, draw)) < 0)
            return -1;
        sum += t;
    }
    return sum / count;
}

int main(int argc, char **argv)
{
    size_t size = 0;
    unsigned char *bytes;
    kfw_scene *h;
    double start, end, *frames, eval_ms, frame_ms;
    int count, width, height, i;
    if (argc != 7) {
        fprintf(stderr, "usage: bench-web-native FILE START END COUNT WIDTH HEIGHT\n");
        return 2;
    }
    start = atof(argv[2]);
    end = atof(argv[3]);
    count = atoi(argv[4]);
    width = atoi(argv[5]);
    height = atoi(argv[6]);
    if (count < 1 || count > 1000 || width < 1 || height < 1 || width > 4096 || height > 4096) {
        fprintf(stderr, "bench-web-native: COUNT 1..1000, WIDTH and HEIGHT 1..4096\n");
        return 2;
    }
    bytes = read_all(argv[1], &size);
    if (!bytes) {
        fprintf(stderr, "bench-web-native: %s: cannot read it\n", argv[1]);
        return 1;
    }
    h = kfw_load(bytes, size);
    free(bytes);
    frames = malloc((size_t)count * sizeof *frames);
    if (!h || !kfw_loaded(h) || !frames) {
        fprintf(stderr, "bench-web-native: %s: does not load\n", argv[1]);
        kfw_scene_free(h);
        free(frames);
        return 1;
    }
    for (i = 0; i < count; i++)
        frames[i] = count == 1 ? start : start + (end - start) * i / (count - 1);
    eval_ms = best(h, frames, count, width, height, 0);
    frame_ms = best(h, frames, count, width, height, 1);
    kfw_scene_free(h);
    free(frames);
    if (eval_ms < 0 || frame_ms < 0) {
        fprintf(stderr, "bench-web-native: %s: a call failed\n", argv[1]);
        return 1;
    }
    printf("{\"eval_ms\": %.6f, \"frame_ms\": %.6f}\n", eval_ms, frame_ms);
    return 0;
}
