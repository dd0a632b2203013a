/* `kf3ds view` (build/kf3ds, or $KF3DS_TOOL) without a display: SDL's dummy
 * video driver, --exit-after-frames and --screenshot, the PNG read back with
 * libpng; errors before any window opens; usage errors; repeatable scripted
 * playback. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

/* The viewer's default window size (tools/cmd_view.c). */
#define VIEW_W 640
#define VIEW_H 480
/* Rows at the bottom that hold the status line (its text changes with the
 * measured frame time, so comparisons of pictures leave it out). */
#define STATUS_ROWS 16

static char tmpdir[256];

/* ------------------------------------------------------------------------ */
/* Running the tool                                                         */
/* ------------------------------------------------------------------------ */

typedef support_run run_result;

/* Runs the tool with `env` (shell assignments such as "SDL_VIDEODRIVER=dummy",
 * or "") in front, and the arguments up to NULL. */
static run_result run_view(const char *env, const char *arg, ...)
{
    run_result r;
    va_list ap;
    va_start(ap, arg);
    r = support_run_va(tmpdir, env, arg, ap);
    va_end(ap);
    assert_int_not_equal(r.status, -1);
    return r;
}

#define run_free support_run_free

/* The environment of a headless viewer child: SDL's dummy video driver needs
 * no display. (Under the ASan build, LeakSanitizer finds no leak in SDL's
 * dummy driver, so leak detection stays on for the viewer too.) */
static const char *headless_env(void)
{
    return "SDL_VIDEODRIVER=dummy";
}

static void tmp_path(char *buf, size_t cap, const char *name)
{
    int n = snprintf(buf, cap, "%s/%s", tmpdir, name);
    assert_true(n > 0 && (size_t)n < cap);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ------------------------------------------------------------------------ */
/* Reading a PNG                                                            */
/* ------------------------------------------------------------------------ */

typedef struct picture {
    unsigned width, height;
    unsigned char *rgb;  /* width * height * 3 */
} picture;

/* Reads a PNG as 8-bit RGB; fails the test when it is not a valid PNG. */
static picture read_png(const char *path)
{
    png_image img;
    picture p;
    memset(&img, 0, sizeof img);
    memset(&p, 0, sizeof p);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        fail_msg("%s: not a readable PNG: %s", path, img.message);
    img.format = PNG_FORMAT_RGB;
    p.rgb = malloc(PNG_IMAGE_SIZE(img));
    assert_non_null(p.rgb);
    if (!png_image_finish_read(&img, NULL, p.rgb, 0, NULL)) {
        free(p.rgb);
        fail_msg("%s: cannot decode the PNG: %s", path, img.message);
    }
    p.width = img.width;
    p.height = img.height;
    png_image_free(&img);
    return p;
}

/* Number of distinct colours, counted up to `limit`. */
static unsigned count_colours(const picture *p, unsigned limit)
{
    uint32_t seen[64];
    unsigned n = 0, i, k;
    if (limit > 64)
        limit = 64;
    for (i = 0; i < p->width * p->height && n < limit; i++) {
        uint32_t c = (uint32_t)p->rgb[3 * i] << 16 | (uint32_t)p->rgb[3 * i + 1] << 8 |
                     p->rgb[3 * i + 2];
        for (k = 0; k < n && seen[k] != c; k++)
            ;
        if (k == n)
            seen[n++] = c;
    }
    return n;
}

/* Pixels that differ above the status line. */
static unsigned long scene_difference(const picture *a, const picture *b)
{
    unsigned long diff = 0;
    size_t i, n;
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    n = (size_t)a->width * (a->height > STATUS_ROWS ? a->height - STATUS_ROWS : 0);
    for (i = 0; i < n; i++)
        if (memcmp(a->rgb + 3 * i, b->rgb + 3 * i, 3) != 0)
            diff++;
    return diff;
}

/* Pixels in the middle of the picture that are not the background colour
 * (the top-left pixel, which the default orbit framing leaves empty). */
static unsigned long covered(const picture *p)
{
    unsigned long n = 0;
    unsigned x, y;
    for (y = p->height / 4; y < p->height * 3 / 4; y++)
        for (x = p->width / 4; x < p->width * 3 / 4; x++)
            if (memcmp(p->rgb + 3 * ((size_t)y * p->width + x), p->rgb, 3) != 0)
                n++;
    return n;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */
/* ------------------------------------------------------------------------ */

/* The CI check of the issue: 60 frames played, the last one as PNG. */
static void test_plays_and_screenshots(void **state)
{
    char png[320];
    run_result r;
    picture p;
    (void)state;
    tmp_path(png, sizeof png, "play.png");
    r = run_view(headless_env(), "view", "data/arm.3ds", "--exit-after-frames", "60",
                 "--screenshot", png, NULL);
    if (r.status != 0)
        fail_msg("view: status %d, stderr: %s", r.status, r.err);
    assert_string_equal(r.err, "");
    run_free(&r);
    p = read_png(png);
    assert_int_equal(p.width, VIEW_W);
    assert_int_equal(p.height, VIEW_H);
    assert_true(count_colours(&p, 16) >= 16);        /* not a single colour: shaded */
    assert_true(covered(&p) > (unsigned long)VIEW_W * VIEW_H / 4 / 50); /* something drawn */
    free(p.rgb);
    remove(png);
}

/* A scripted run steps one frame per drawn frame: after 31 drawn frames it
 * shows frame 30, the same picture as starting paused at frame 30; another
 * frame and a camera's view give other pictures. */
static void test_repeatable_frames(void **state)
{
    char a_path[320], b_path[320], c_path[320], d_path[320];
    run_result r;
    picture a, b, c, d;
    (void)state;
    tmp_path(a_path, sizeof a_path, "a.png");
    tmp_path(b_path, sizeof b_path, "b.png");
    tmp_path(c_path, sizeof c_path, "c.png");
    tmp_path(d_path, sizeof d_path, "d.png");
    r = run_view(headless_env(), "view", "data/arm.3ds", "--fps", "200",
                 "--exit-after-frames", "31", "--screenshot", a_path, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = run_view(headless_env(), "view", "data/arm.3ds", "--frame", "30", "--paused",
                 "--exit-after-frames", "1", "--screenshot", b_path, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = run_view(headless_env(), "view", "data/arm.3ds", "--frame", "10", "--paused",
                 "--exit-after-frames", "1", "--screenshot", c_path, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    r = run_view(headless_env(), "view", "data/arm.3ds", "--frame", "30", "--paused",
                 "--camera", "Cam01", "--exit-after-frames", "1", "--screenshot", d_path,
                 NULL);
    if (r.status != 0)
        fail_msg("view --camera Cam01: status %d, stderr: %s", r.status, r.err);
    run_free(&r);
    a = read_png(a_path);
    b = read_png(b_path);
    c = read_png(c_path);
    d = read_png(d_path);
    assert_int_equal(scene_difference(&a, &b), 0);
    assert_true(scene_difference(&b, &c) > 100);   /* the arm moves between 10 and 30 */
    assert_true(scene_difference(&b, &d) > 1000);  /* another point of view */
    assert_true(count_colours(&d, 16) >= 16);
    free(a.rgb);
    free(b.rgb);
    free(c.rgb);
    free(d.rgb);
    remove(a_path);
    remove(b_path);
    remove(c_path);
    remove(d_path);
}

/* --size sets the window, and so the screenshot. */
static void test_size(void **state)
{
    char png[320];
    run_result r;
    picture p;
    (void)state;
    tmp_path(png, sizeof png, "small.png");
    r = run_view(headless_env(), "view", "data/orrery.3ds", "--size", "200x150",
                 "--shading", "wire", "--hierarchy", "--names", "--grid",
                 "--exit-after-frames", "3", "--screenshot", png, NULL);
    if (r.status != 0)
        fail_msg("view: status %d, stderr: %s", r.status, r.err);
    run_free(&r);
    p = read_png(png);
    assert_int_equal(p.width, 200);
    assert_int_equal(p.height, 150);
    assert_true(count_colours(&p, 3) >= 3);
    free(p.rgb);
    remove(png);
}

/* 1 when a line of `text` starts with `prefix`. */
static int has_line_starting(const char *text, const char *prefix)
{
    const char *line = text;
    while (*line) {
        const char *nl = strchr(line, '\n');
        if (strncmp(line, prefix, strlen(prefix)) == 0)
            return 1;
        if (!nl)
            break;
        line = nl + 1;
    }
    return 0;
}

/* A missing or malformed file: the same error lines as `kf3ds info`, exit 1,
 * before SDL is started (a video driver that does not exist makes no
 * difference), and no screenshot. */
static void test_bad_input(void **state)
{
    static const char *const envs[2] = { "SDL_VIDEODRIVER=dummy",
                                         "SDL_VIDEODRIVER=no-such-driver" };
    char missing[320], truncated[320], png[320];
    unsigned char *data;
    size_t size = 0, e, k;
    FILE *f;
    (void)state;
    tmp_path(missing, sizeof missing, "no-such-file.3ds");
    tmp_path(truncated, sizeof truncated, "truncated.3ds");
    tmp_path(png, sizeof png, "never.png");
    data = support_read_file("data/arm.3ds", &size);
    assert_non_null(data);
    assert_true(size > 200);
    f = fopen(truncated, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size / 2, f), size / 2);
    assert_int_equal(fclose(f), 0);
    free(data);

    for (k = 0; k < 2; k++) {
        const char *file = k ? truncated : missing;
        run_result info = run_view("", "info", file, NULL);
        char prefix[400];
        assert_int_equal(info.status, 1);
        snprintf(prefix, sizeof prefix, "kf3ds: %s: ", file);
        assert_true(has_line_starting(info.err, prefix)); /* an error, not only warnings */
        if (!k)
            assert_non_null(strstr(info.err, ": cannot open: "));
        for (e = 0; e < 2; e++) {
            run_result r = run_view(envs[e], "view", file, "--exit-after-frames", "5",
                                    "--screenshot", png, NULL);
            if (r.status != 1)
                fail_msg("view %s (%s): status %d, want 1", file, envs[e], r.status);
            assert_string_equal(r.err, info.err);
            assert_string_equal(r.out, "");
            assert_false(file_exists(png));
            run_free(&r);
        }
        run_free(&info);
    }
    remove(truncated);
}

/* No usable video driver: one clear line that suggests the way out. */
static void test_no_display(void **state)
{
    char png[320];
    run_result r;
    const char *nl;
    (void)state;
    tmp_path(png, sizeof png, "nodisplay.png");
    r = run_view("SDL_VIDEODRIVER=no-such-driver", "view", "data/arm.3ds",
                 "--exit-after-frames", "5", "--screenshot", png, NULL);
    assert_int_equal(r.status, 1);
    assert_true(strncmp(r.err, "kf3ds: view: cannot open a window", 33) == 0);
    assert_non_null(strstr(r.err, "SDL_VIDEODRIVER=dummy"));
    assert_non_null(strstr(r.err, "kf3ds render"));
    nl = strchr(r.err, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0');    /* one line */
    assert_false(file_exists(png));
    run_free(&r);
}

static void test_usage(void **state)
{
    static const char *const bad[][3] = {
        { "--bogus", NULL, NULL },
        { "--fps", "0", NULL },
        { "--fps", "fast", NULL },
        { "--exit-after-frames", "0", NULL },
        { "--exit-after-frames", "x", NULL },
        { "--size", "640", NULL },
        { "--shading", "toon", NULL },
        { "--orbit", "30", NULL },
        { "--overlays", "hierarchy,bogus", NULL },
        { "--screenshot", NULL, NULL },
    };
    char png[320];
    run_result r;
    size_t i;
    (void)state;
    tmp_path(png, sizeof png, "usage.png");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run_view(headless_env(), "view", "data/arm.3ds", bad[i][0], bad[i][1], NULL);
        if (r.status != 2)
            fail_msg("view %s %s: status %d, want 2", bad[i][0],
                     bad[i][1] ? bad[i][1] : "", r.status);
        assert_true(strncmp(r.err, "kf3ds: view: ", 13) == 0);
        assert_non_null(strstr(r.err, "(see 'kf3ds help view')"));
        run_free(&r);
    }
    r = run_view(headless_env(), "view", NULL);                 /* no FILE */
    assert_int_equal(r.status, 2);
    run_free(&r);
    r = run_view(headless_env(), "view", "data/arm.3ds", "data/edge.3ds", NULL);
    assert_int_equal(r.status, 2);
    run_free(&r);
    /* a camera the file does not have: usage, found after loading */
    r = run_view(headless_env(), "view", "data/arm.3ds", "--camera", "NoSuchCamera",
                 "--exit-after-frames", "1", "--screenshot", png, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "NoSuchCamera"));
    assert_false(file_exists(png));
    run_free(&r);
}

static void test_help(void **state)
{
    static const char *const words[] = {
        "usage: kf3ds view FILE", "--fps", "--exit-after-frames", "--screenshot",
        "SDL_VIDEODRIVER=dummy", "space", "home, end", "[ ]", "esc, q", "F1", "drag",
    };
    run_result r;
    size_t i;
    (void)state;
    r = run_view("", "help", "view", NULL);
    assert_int_equal(r.status, 0);
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strstr(r.out, words[i]))
            fail_msg("'kf3ds help view' lacks \"%s\"", words[i]);
    run_free(&r);
    r = run_view("", "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  view "));
    run_free(&r);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kf3ds-view-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/stdout.txt", tmpdir);
    remove(path);
    snprintf(path, sizeof path, "%s/stderr.txt", tmpdir);
    remove(path);
    rmdir(tmpdir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plays_and_screenshots),
        cmocka_unit_test(test_repeatable_frames),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_no_display),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
