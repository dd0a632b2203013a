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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support.h"
#include "support_png.h"

/* The viewer's default window size (tools/cmd/cmd_view.c). */
#define VIEW_W 640
#define VIEW_H 480
/* Rows at the bottom that hold the status line (its text changes with the
 * measured frame time, so comparisons of pictures leave it out). */
#define STATUS_ROWS 16

/* ------------------------------------------------------------------------ */
/* Running the tool                                                         */
/* ------------------------------------------------------------------------ */

typedef support_run run_result;

/* Runs the tool with `env` (shell assignments such as "SDL_VIDEODRIVER=dummy",
 * or "") in front, and the arguments up to NULL. */
#define run_view support_run_tool

#define run_free support_run_free

/* The environment of a headless viewer child: SDL's dummy video driver needs
 * no display. (Under the ASan build, LeakSanitizer finds no leak in SDL's
 * dummy driver, so leak detection stays on for the viewer too.) */
static const char *headless_env(void)
{
    return "SDL_VIDEODRIVER=dummy";
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Pixels in the middle of the picture that are not the background colour
 * (the top-left pixel, which the default orbit framing leaves empty). */
static long covered(const picture *p)
{
    long n = 0;
    int x, y;
    for (y = p->height / 4; y < p->height * 3 / 4; y++)
        for (x = p->width / 4; x < p->width * 3 / 4; x++)
            if (memcmp(p->rgb + 3 * ((size_t)y * (size_t)p->width + (size_t)x), p->rgb, 3) != 0)
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
    support_tmp_path(png, sizeof png, "play.png");
    r = run_view(headless_env(), "view", "data/arm.3ds", "--exit-after-frames", "60",
                 "--screenshot", png, NULL);
    support_expect_status(&r, 0);
    assert_string_equal(r.err, "");
    run_free(&r);
    p = support_read_png(png);
    assert_int_equal(p.width, VIEW_W);
    assert_int_equal(p.height, VIEW_H);
    assert_true(support_colours(&p, 16) >= 16);        /* not a single colour: shaded */
    assert_true(covered(&p) > (long)VIEW_W * VIEW_H / 4 / 50); /* something drawn */
    free(p.rgb);
    remove(png);
}

/* A scripted run steps one frame per drawn frame: after 31 drawn frames it
 * shows frame 30, the same picture as starting paused at frame 30; another
 * frame and a camera's view give other pictures. */
static void test_repeatable_frames(void **state)
{
    char a_path[320], b_path[320], c_path[320], d_path[320];
    picture a, b, c, d;
    (void)state;
    support_tmp_path(a_path, sizeof a_path, "a.png");
    support_tmp_path(b_path, sizeof b_path, "b.png");
    support_tmp_path(c_path, sizeof c_path, "c.png");
    support_tmp_path(d_path, sizeof d_path, "d.png");
    support_run_ok(headless_env(), "view", "data/arm.3ds", "--fps", "200",
                   "--exit-after-frames", "31", "--screenshot", a_path, NULL);
    support_run_ok(headless_env(), "view", "data/arm.3ds", "--frame", "30", "--paused",
                   "--exit-after-frames", "1", "--screenshot", b_path, NULL);
    support_run_ok(headless_env(), "view", "data/arm.3ds", "--frame", "10", "--paused",
                   "--exit-after-frames", "1", "--screenshot", c_path, NULL);
    support_run_ok(headless_env(), "view", "data/arm.3ds", "--frame", "30", "--paused",
                   "--camera", "Cam01", "--exit-after-frames", "1", "--screenshot", d_path,
                   NULL);
    a = support_read_png(a_path);
    b = support_read_png(b_path);
    c = support_read_png(c_path);
    d = support_read_png(d_path);
    assert_int_equal(support_difference(&a, &b, STATUS_ROWS), 0);
    assert_true(support_difference(&b, &c, STATUS_ROWS) > 100);  /* the arm moves, 10 to 30 */
    assert_true(support_difference(&b, &d, STATUS_ROWS) > 1000); /* another point of view */
    assert_true(support_colours(&d, 16) >= 16);
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
    picture p;
    (void)state;
    support_tmp_path(png, sizeof png, "small.png");
    support_run_ok(headless_env(), "view", "data/orrery.3ds", "--size", "200x150",
                   "--shading", "wire", "--hierarchy", "--names", "--grid",
                   "--exit-after-frames", "3", "--screenshot", png, NULL);
    p = support_read_png(png);
    assert_int_equal(p.width, 200);
    assert_int_equal(p.height, 150);
    assert_true(support_colours(&p, 3) >= 3);
    free(p.rgb);
    remove(png);
}

/* Pixels of the motion paths' object colour (0xF0D040). */
static long path_pixels(const picture *p)
{
    long n = 0, i;
    for (i = 0; i < (long)p->width * p->height; i++)
        n += p->rgb[3 * i] == 0xF0 && p->rgb[3 * i + 1] == 0xD0 && p->rgb[3 * i + 2] == 0x40;
    return n;
}

/* --paths (key m): the orbits of the orrery's moving planets appear as lines
 * of their colour; without it there are none. */
static void test_motion_paths(void **state)
{
    char png[320];
    picture p;
    (void)state;
    support_tmp_path(png, sizeof png, "paths.png");
    support_run_ok(headless_env(), "view", "data/orrery.3ds", "--paused", "--frame", "10",
                   "--paths", "--exit-after-frames", "1", "--screenshot", png, NULL);
    p = support_read_png(png);
    assert_true(path_pixels(&p) > 300);
    free(p.rgb);
    support_run_ok(headless_env(), "view", "data/orrery.3ds", "--paused", "--frame", "10",
                   "--exit-after-frames", "1", "--screenshot", png, NULL);
    p = support_read_png(png);
    assert_int_equal(path_pixels(&p), 0);
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
    (void)state;
    support_tmp_path(missing, sizeof missing, "no-such-file.3ds");
    support_tmp_path(truncated, sizeof truncated, "truncated.3ds");
    support_tmp_path(png, sizeof png, "never.png");
    data = support_read_file("data/arm.3ds", &size);
    assert_non_null(data);
    assert_true(size > 200);
    support_write_file(truncated, data, size / 2);
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
    support_tmp_path(png, sizeof png, "nodisplay.png");
    r = run_view("SDL_VIDEODRIVER=no-such-driver", "view", "data/arm.3ds",
                 "--exit-after-frames", "5", "--screenshot", png, NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(strncmp(r.err, "kf3ds: view: cannot open a window", 33), 0);
    assert_non_null(strstr(r.err, "SDL_VIDEODRIVER=dummy"));
    assert_non_null(strstr(r.err, "kf3ds render"));
    nl = strchr(r.err, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0');    /* one line */
    assert_false(file_exists(png));
    run_free(&r);
}

/* No display and no driver chosen: SDL would fall back to its invisible
 * offscreen window and play there forever; the viewer says why it cannot
 * show anything and exits 1 instead (no --exit-after-frames: a viewer that
 * ran would never return). */
static void test_headless_without_driver(void **state)
{
    run_result r;
    const char *nl;
    (void)state;
    r = run_view("env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER", "view", "data/arm.3ds",
                 NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(strncmp(r.err, "kf3ds: view: cannot open a window (", 35), 0);
    assert_non_null(strstr(r.err, "no display"));
    assert_non_null(strstr(r.err, "SDL_VIDEODRIVER=dummy"));
    nl = strchr(r.err, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0'); /* one line */
    assert_string_equal(r.out, "");
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
    support_tmp_path(png, sizeof png, "usage.png");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run_view(headless_env(), "view", "data/arm.3ds", bad[i][0], bad[i][1], NULL);
        if (r.status != 2)
            fail_msg("view %s %s: status %d, want 2", bad[i][0],
                     bad[i][1] ? bad[i][1] : "", r.status);
        assert_int_equal(strncmp(r.err, "kf3ds: view: ", 13), 0);
        assert_non_null(strstr(r.err, "(see 'kf3ds help view')"));
        run_free(&r);
    }
    support_expect_exit(run_view(headless_env(), "view", NULL), 2); /* no FILE */
    support_expect_exit(run_view(headless_env(), "view", "data/arm.3ds", "data/edge.3ds", NULL), 2);
    /* a camera the file does not have: the file's content, status 1 */
    r = run_view(headless_env(), "view", "data/arm.3ds", "--camera", "NoSuchCamera",
                 "--exit-after-frames", "1", "--screenshot", png, NULL);
    assert_int_equal(r.status, 1);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plays_and_screenshots),
        cmocka_unit_test(test_repeatable_frames),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_motion_paths),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_no_display),
        cmocka_unit_test(test_headless_without_driver),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_help),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
