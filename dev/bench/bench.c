/* kf3ds-bench: load and evaluation timings (run by `make bench`, dev/bench/bench.sh).
 *
 *   kf3ds-bench [--once] [--random-frames SPAN] FILE [FRAMES]
 *   kf3ds-bench --render WxH [--textured] FILE [FRAMES]
 *
 * Loads FILE, then evaluates every node at FRAMES frames (default: the file's
 * animation length, anim_length or segment_end - segment_start if larger,
 * at least 1) at i + 0.5 for i in 0..FRAMES-1, or with --random-frames at
 * FRAMES frames drawn at random from [0, SPAN) (dev/bench/bench_common.h), and
 * prints on its last line
 *
 *   load_ms 12.34 eval_ms 5.67 node_evals 20100
 *
 * Method (the same in dev/bench/bench_lib3ds.c, so that the two compare; the
 * shared parts are in dev/bench/bench_common.h):
 *  - load: kf3ds_load_file (file read included) is repeated at least
 *    MIN_RUNS times, then until the runs add up to TARGET_MS or MAX_RUNS
 *    runs were made; load_ms is the BEST (minimum) time of one load. The minimum is
 *    used because timing noise (page faults, scheduling) only ever adds time.
 *    The first load's time is printed too ("first"): it alone runs on memory
 *    the process has never used.
 *  - eval: one run is kf3ds_scene_eval at all FRAMES frames into a poses
 *    array allocated once, with the default flags (ease on); runs repeat as
 *    for load and eval_ms is the BEST (minimum) time of one run.
 *  - --once: one load and one evaluation run (for callgrind's counts).
 * Clock: clock_gettime(CLOCK_MONOTONIC).
 *
 * --render WxH: renders FRAMES frames (default 100) evenly spread over the
 * segment, first and last included, with the software rasterizer into a
 * WxH framebuffer: smooth shading, depth test, no overlays, from the orbit
 * view (azimuth 35, elevation 25, 45 degree FOV) framing the scene's bounds
 * over all those frames. One run is kf3ds_scene_eval + kf3ds_render_scene
 * (which clears the framebuffer) for every frame; runs repeat at least
 * RENDER_MIN_RUNS times, then until they add up to RENDER_TARGET_MS or
 * RENDER_MAX_RUNS runs; the best run gives the time per frame. Last line:
 *
 *   render_ms_per_frame 9.87 triangles 100000
 *
 * where triangles is the mean number submitted per frame (render stats).
 *
 * --textured times the file twice in one run: as it is (no pictures), then
 * with a generated 256×256 checker given as texture 1 of every material that
 * names one (mk3ds bench-render-textured writes such a file), and ends with
 *
 *   render_ms_per_frame 9.87 triangles 100000 untextured_ms_per_frame 8.12 textured_ratio 1.215
 *
 * Exit status: 0 success, 1 the file cannot be loaded, 2 wrong usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "kf3ds.h"
#include "kf3ds_render.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_common.h"
#include "bench_render_common.h"

static int usage(void)
{
    fputs("usage: kf3ds-bench [--once] [--random-frames SPAN] FILE [FRAMES]\n"
          "       kf3ds-bench --render WxH [--textured] FILE [FRAMES]\n"
          "  FRAMES: number of frames to evaluate (positive integer; default: the\n"
          "  file's animation length), or to render (default 100, spread over the\n"
          "  segment) at WxH pixels\n"
          "  --random-frames SPAN: evaluate at FRAMES frames drawn at random from\n"
          "  [0, SPAN) (a fixed sequence) instead of at i + 0.5\n"
          "  --once: one load and one evaluation run (for instruction counts)\n",
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

/* What one timing of the render loop gives. */
typedef struct render_timing {
    int runs;
    double best, total;              /* ms for all frames: the best run, all runs */
    unsigned long long submitted, drawn;
} render_timing;

/* Renders every frame once per run, runs as the method above says. */
static render_timing time_render(const kf3ds_scene *scene, kf3ds_pose *poses,
                                 kf3ds_renderer *renderer, const kf3ds_view *view,
                                 const kf3ds_render_options *ro, kf3ds_framebuffer *fb,
                                 long frames)
{
    render_timing tm;
    kf3ds_render_stats st;
    volatile uint32_t sink = 0;
    long f;
    memset(&tm, 0, sizeof tm);
    /* Warm-up: one frame, so that the first run does not pay page faults. */
    kf3ds_scene_eval(scene, bench_render_frame(scene, 0, frames), 0, poses);
    kf3ds_render_scene(renderer, poses, view, ro, fb, &st);
    for (tm.runs = 0; bench_render_more_runs(tm.runs, tm.total); tm.runs++) {
        unsigned long long sub = 0, drw = 0;
        double t0 = now_ms(), t;
        for (f = 0; f < frames; f++) {
            kf3ds_scene_eval(scene, bench_render_frame(scene, f, frames), 0, poses);
            kf3ds_render_scene(renderer, poses, view, ro, fb, &st);
            sub += st.triangles_submitted;
            drw += st.triangles_drawn;
        }
        t = now_ms() - t0;
        tm.total += t;
        if (tm.runs == 0 || t < tm.best)
            tm.best = t;
        tm.submitted = sub;
        tm.drawn = drw;
        sink += fb->color[(size_t)(fb->height / 2) * (size_t)fb->width + (size_t)(fb->width / 2)];
    }
    (void)sink;
    return tm;
}

/* --textured: a 256×256 checkerboard of 16×16 cells with a thin grid,
 * given as texture 1 of every material that names one. Returns how many. */
static int attach_checkers(const kf3ds_scene *scene, kf3ds_renderer *renderer)
{
    static uint32_t px[256 * 256];
    kf3ds_image img;
    uint32_t i;
    int x, y, n = 0;
    for (y = 0; y < 256; y++)
        for (x = 0; x < 256; x++)
            px[y * 256 + x] = x % 16 == 0 || y % 16 == 0 ? 0xFF202020u
                              : ((x / 16 + y / 16) & 1) ? 0xFFE8C070u : 0xFF3060A0u;
    img.pixels = px;
    img.width = img.height = 256;
    for (i = 0; i < scene->num_materials; i++)
        if (scene->materials[i].texture1.file[0])
            n += kf3ds_renderer_set_map(renderer, i, KF3DS_MAP_TEXTURE1, &img) == 1;
    return n;
}

static void print_timing(const char *what, const render_timing *tm, long frames)
{
    printf("%s runs %d best %.3f ms mean %.3f ms (%.3f ms per frame; %.1f triangles "
           "drawn per frame)\n",
           what, tm->runs, tm->best, tm->total / tm->runs, tm->best / (double)frames,
           (double)tm->drawn / (double)frames);
}

static int bench_render(int argc, char **argv)
{
    const char *file;
    long frames = RENDER_DEFAULT_FRAMES;
    int width, height, textured = 0, maps = 0;
    kf3ds_diag err;
    kf3ds_scene *scene;
    kf3ds_pose *poses;
    kf3ds_renderer *renderer;
    kf3ds_framebuffer fb;
    kf3ds_view view;
    kf3ds_render_options ro;
    render_timing plain, tex;

    if (argc >= 4 && strcmp(argv[3], "--textured") == 0) {
        textured = 1;
        argv[3] = argv[2]; /* drop the switch: --render WxH FILE [FRAMES] */
        argv++;
        argc--;
    }
    if (argc < 4 || argc > 5 || !bench_parse_size(argv[2], &width, &height) ||
        argv[3][0] == '\0') {
        if (argc >= 3 && !bench_parse_size(argv[2], &width, &height))
            fprintf(stderr, "kf3ds-bench: --render needs WxH (1 to 16384 each), not '%s'\n",
                    argv[2]);
        return usage();
    }
    file = argv[3];
    if (argc == 5 &&
        !(frames = bench_parse_count("kf3ds-bench", "FRAMES", argv[4], BENCH_MAX_FRAMES)))
        return usage();

    scene = kf3ds_load_file(file, NULL, &err);
    if (!scene) {
        print_diag(file, &err, 0);
        return 1;
    }
    if (err.code != KF3DS_OK)
        print_diag(file, &err, 1); /* malformed: benchmark what was read */
    poses = (kf3ds_pose *)calloc(scene->num_nodes ? scene->num_nodes : 1, sizeof *poses);
    renderer = kf3ds_renderer_create(scene, NULL);
    fb.width = width;
    fb.height = height;
    fb.color = (uint32_t *)malloc((size_t)width * (size_t)height * sizeof *fb.color);
    fb.depth = (float *)malloc((size_t)width * (size_t)height * sizeof *fb.depth);
    if (!poses || !renderer || !fb.color || !fb.depth) {
        fprintf(stderr, "kf3ds-bench: out of memory\n");
        free(poses);
        kf3ds_renderer_free(renderer);
        free(fb.color);
        free(fb.depth);
        kf3ds_scene_free(scene);
        return 1;
    }
    bench_render_view(scene, frames, width, height, poses, &view);
    memset(&ro, 0, sizeof ro);
    ro.shading = KF3DS_SHADE_SMOOTH;

    plain = time_render(scene, poses, renderer, &view, &ro, &fb, frames);
    printf("file %s\n", file);
    printf("render %dx%d frames %ld over %g..%g, smooth shading, orbit view\n", width, height,
           frames, bench_render_frame(scene, 0, 1),
           bench_render_frame(scene, frames > 1 ? frames - 1 : 0, frames));
    print_timing(textured ? "untextured" : "render", &plain, frames);
    if (textured) {
        maps = attach_checkers(scene, renderer);
        tex = time_render(scene, poses, renderer, &view, &ro, &fb, frames);
        printf("textured: a 256x256 checker as texture 1 of %d materials\n", maps);
        print_timing("textured", &tex, frames);
        printf("render_ms_per_frame %.2f triangles %llu untextured_ms_per_frame %.2f "
               "textured_ratio %.3f\n",
               tex.best / (double)frames,
               (tex.submitted + (unsigned long long)frames / 2) / (unsigned long long)frames,
               plain.best / (double)frames, plain.best > 0 ? tex.best / plain.best : 0.0);
    } else {
        printf("render_ms_per_frame %.2f triangles %llu\n", plain.best / (double)frames,
               (plain.submitted + (unsigned long long)frames / 2) / (unsigned long long)frames);
    }
    free(fb.color);
    free(fb.depth);
    kf3ds_renderer_free(renderer);
    free(poses);
    kf3ds_scene_free(scene);
    return 0;
}

int main(int argc, char **argv)
{
    bench_options o;
    const char *file;
    long frames;
    kf3ds_diag err;
    kf3ds_scene *scene;
    kf3ds_pose *poses;
    double t0, t, total, best_load, first_load = 0.0, best_eval, *times;
    unsigned long long keys = 0, verts = 0;
    volatile float sink = 0.0f;
    uint32_t i, k;
    int runs;

    if (argc >= 2 && strcmp(argv[1], "--render") == 0)
        return bench_render(argc, argv);
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage();
        return 0;
    }
    if (!bench_parse_options("kf3ds-bench", argc, argv, &o))
        return usage();
    file = o.file;

    /* ---- load ---------------------------------------------------------- */
    best_load = 0.0;
    total = 0.0;
    scene = NULL;
    for (runs = 0; bench_more_runs(&o, runs, total - first_load, MIN_LOAD_RUNS); runs++) {
        kf3ds_scene *s;
        t0 = now_ms();
        s = kf3ds_load_file(file, NULL, &err);
        t = now_ms() - t0;
        if (!s) {
            print_diag(file, &err, 0);
            kf3ds_scene_free(scene);
            return 1;
        }
        total += t;
        if (runs == 0)
            first_load = t;
        if (runs == 0 || t < best_load)
            best_load = t;
        if (!scene) {
            scene = s; /* keep the first one for evaluation */
            if (err.code != KF3DS_OK)
                print_diag(file, &err, 1); /* malformed: benchmark what was read */
        } else {
            kf3ds_scene_free(s);
        }
    }

    frames = o.frames ? o.frames
                      : bench_default_frames((long)scene->anim_length, (long)scene->segment_start,
                                             (long)scene->segment_end);

    for (i = 0; i < scene->num_nodes; i++)
        for (k = 0; k < KF3DS_TRACK_COUNT; k++)
            keys += scene->nodes[i].tracks[k].num_keys;
    for (i = 0; i < scene->num_meshes; i++)
        verts += scene->meshes[i].num_points;
    printf("file %s\n", file);
    printf("nodes %lu keys %llu meshes %lu vertices %llu frames %ld\n",
           (unsigned long)scene->num_nodes, keys, (unsigned long)scene->num_meshes, verts,
           frames);
    bench_print_frames(&o, frames);
    printf("load runs %d best %.3f ms mean %.3f ms first %.3f ms\n", runs, best_load,
           total / runs, first_load);

    /* ---- eval ---------------------------------------------------------- */
    poses = (kf3ds_pose *)calloc(scene->num_nodes ? scene->num_nodes : 1, sizeof *poses);
    times = bench_frames(&o, frames);
    if (!poses || !times) {
        fprintf(stderr, "kf3ds-bench: out of memory\n");
        free(poses);
        free(times);
        kf3ds_scene_free(scene);
        return 1;
    }
    best_eval = 0.0;
    total = 0.0;
    for (runs = 0; bench_more_runs(&o, runs, total, MIN_RUNS); runs++) {
        long f;
        t0 = now_ms();
        for (f = 0; f < frames; f++)
            kf3ds_scene_eval(scene, times[f], 0, poses);
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
    free(times);
    free(poses);
    kf3ds_scene_free(scene);
    return 0;
}
