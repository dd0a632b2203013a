/* `kf3ds render` (build/kf3ds, or $KF3DS_TOOL): pictures read back with
 * libpng (size, not empty, differences between views and frames), frame
 * sequences and contact sheets, the output pattern and option checks, and
 * the error lines and exit status of docs/output.md. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support.h"
#include "support_png.h"
#include "support_build.h"

#define ARM "data/arm.3ds"

static char editor_path[300], empty_path[300], text_path[300];

/* ------------------------------------------------------------------------ */
/* Running the tool                                                         */
/* ------------------------------------------------------------------------ */

typedef support_run run_result;

/* Runs the tool with the given arguments (NULL-terminated). */
#define run_tool(...) support_run_tool(NULL, __VA_ARGS__)
/* The same for a command that must exit 0 (its output is not kept). */
#define run_ok(...) support_run_ok(NULL, __VA_ARGS__)
#define run_free support_run_free

/* ------------------------------------------------------------------------ */
/* Files and pictures                                                       */
/* ------------------------------------------------------------------------ */

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Pixels that differ from the top-left one (the background). */
static long foreground(const picture *p)
{
    long n = 0, i, count = (long)p->width * p->height;
    for (i = 1; i < count; i++)
        if (memcmp(p->rgb + 3 * i, p->rgb, 3) != 0)
            n++;
    return n;
}

/* Every stderr line is "kf3ds: FILE: message" (the input and output error
 * line of docs/output.md, no warnings); returns the number of lines. */
static int check_file_errors(const char *err, const char *file)
{
    return support_check_error_lines(err, file, 0);
}

/* A usage error: exit 2 and one line "kf3ds: render: ... (see 'kf3ds help
 * render')". Frees the result. */
static void expect_usage_error(run_result r)
{
    const char *nl = strchr(r.err, '\n');
    const char *tail = "(see 'kf3ds help render')\n";
    support_expect_status(&r, 2);
    assert_int_equal(strncmp(r.err, "kf3ds: render: ", 15), 0);
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0'); /* one line */
    assert_true(r.err_len > strlen(tail));
    assert_string_equal(r.err + r.err_len - strlen(tail), tail);
    run_free(&r);
}

/* No file in the temporary folder whose name starts with `prefix`. */
static void expect_no_output(const char *prefix)
{
    DIR *d = opendir(support_tmpdir());
    struct dirent *e;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            fail_msg("unexpected output file %s", e->d_name);
    closedir(d);
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                    */
/* ------------------------------------------------------------------------ */

/* Editor data only: an octahedron with a material and a camera, no keyframer. */
static void write_editor_only(const char *path)
{
    static const float pts[18] = {10, 0, 0, -10, 0, 0, 0, 10, 0, 0, -10, 0, 0, 0, 10, 0, 0, -10};
    static const uint16_t faces[24] = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
                                       2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    static const uint32_t smooth[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    static const uint8_t red[3] = {220, 40, 30};
    static const float cam_pos[3] = {0, -35, 12}, cam_target[3] = {0, 0, 0};
    kf3ds_builder *b = support_builder();
    kf3ds_material m = support_material("Red", red);
    kf3ds_camera cam = support_camera("EdCam", cam_pos, cam_target, 30.0f, 50.0f);
    int32_t mesh;
    support_rgb24(m.ambient, red);
    support_rgb24(m.specular, red);
    kf3ds_builder_add_material(b, &m);
    mesh = support_build_mesh(b, "Octa", pts, 6, faces, NULL, 8, NULL);
    kf3ds_builder_mesh_material(b, mesh, "Red", NULL, 0);
    kf3ds_builder_mesh_smoothing(b, mesh, smooth);
    kf3ds_builder_add_camera(b, &cam);
    support_build_file(b, path);
}

static int setup(void **state)
{
    (void)state;
    if (support_tmpdir_make("kf3ds_test_png_render_") != 0)
        return -1;
    support_tmp_path(editor_path, sizeof editor_path, "editor.3ds");
    write_editor_only(editor_path);
    support_tmp_path(empty_path, sizeof empty_path, "empty.3ds");
    support_write_file(empty_path, "", 0);
    support_tmp_path(text_path, sizeof text_path, "text.3ds");
    support_write_file(text_path, "This is not a 3DS file at all.\n", 31);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    support_tmpdir_remove();
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */
/* ------------------------------------------------------------------------ */

static void test_single_frame(void **state)
{
    char png[300];
    run_result r;
    picture p;
    (void)state;
    support_tmp_path(png, sizeof png, "single.png");
    r = run_tool("render", ARM, "-o", png, "--size", "320x240", "--no-label", NULL);
    support_expect_status(&r, 0);
    assert_int_equal(r.err_len, 0);
    assert_non_null(strstr(r.out, "wrote "));
    run_free(&r);
    p = support_read_png(png);
    assert_int_equal(p.width, 320);
    assert_int_equal(p.height, 240);
    assert_true(support_colours(&p, 3) >= 3);
    assert_true(foreground(&p) > 320 * 240 / 100); /* the arm covers more than 1% */
    free(p.rgb);
}

static void test_camera_differs_from_orbit(void **state)
{
    char orbit[300], cam[300], other[300];
    run_result r;
    picture a, b, c;
    (void)state;
    support_tmp_path(orbit, sizeof orbit, "orbit.png");
    support_tmp_path(cam, sizeof cam, "cam.png");
    support_tmp_path(other, sizeof other, "orbit2.png");
    r = run_tool("render", ARM, "-o", orbit, "--size", "160x120", "--frame", "30", "-q", NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.out_len, 0); /* -q */
    run_free(&r);
    run_ok("render", ARM, "-o", cam, "--size", "160x120", "--frame", "30", "--camera",
           "Cam01", NULL);
    run_ok("render", ARM, "-o", other, "--size", "160x120", "--frame", "30", "--orbit",
           "200,-10", "--shading", "flat", "--overlays", "grid,hierarchy", NULL);
    a = support_read_png(orbit);
    b = support_read_png(cam);
    c = support_read_png(other);
    assert_true(foreground(&b) > 0);
    assert_true(support_difference(&a, &b, 0) > 160 * 120 / 100);
    assert_true(support_difference(&a, &c, 0) > 160 * 120 / 100);
    free(a.rgb);
    free(b.rgb);
    free(c.rgb);
}

static void test_sequence(void **state)
{
    char pattern[300], path[300];
    static const char *const names[3] = {"seq_0000.png", "seq_0005.png", "seq_0010.png"};
    picture p[3];
    int i;
    (void)state;
    support_tmp_path(pattern, sizeof pattern, "seq_%04d.png");
    run_ok("render", ARM, "--frames", "0:10:5", "-o", pattern, "--size", "96x72", NULL);
    for (i = 0; i < 3; i++) {
        support_tmp_path(path, sizeof path, names[i]);
        p[i] = support_read_png(path);
        assert_int_equal(p[i].width, 96);
        assert_int_equal(p[i].height, 72);
    }
    support_tmp_path(path, sizeof path, "seq_0015.png");
    assert_false(exists(path));
    support_tmp_path(path, sizeof path, "seq_0001.png");
    assert_false(exists(path));
    assert_true(support_difference(&p[0], &p[2], 0) > 0); /* the arm moves */
    for (i = 0; i < 3; i++)
        free(p[i].rgb);

    /* %d and %% */
    support_tmp_path(pattern, sizeof pattern, "pct%%_%d.png");
    run_ok("render", ARM, "--frames", "3:4", "-o", pattern, "--size", "32x24", "-q", NULL);
    support_tmp_path(path, sizeof path, "pct%_3.png");
    assert_true(exists(path));
    support_tmp_path(path, sizeof path, "pct%_4.png");
    assert_true(exists(path));
}

static void test_sheet(void **state)
{
    char path[300];
    run_result r;
    picture p;
    (void)state;
    support_tmp_path(path, sizeof path, "sheet.png");
    r = run_tool("render", ARM, "--sheet", "3x2", "--size", "80x60", "-o", path, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "3x2 cells"));
    run_free(&r);
    p = support_read_png(path);
    assert_int_equal(p.width, 240);
    assert_int_equal(p.height, 120);
    assert_true(foreground(&p) > 240 * 120 / 100);
    free(p.rgb);

    /* default cell size 200x150 */
    support_tmp_path(path, sizeof path, "sheet1.png");
    run_ok("render", ARM, "--sheet", "2x1", "-o", path, "-q", NULL);
    p = support_read_png(path);
    assert_int_equal(p.width, 400);
    assert_int_equal(p.height, 150);
    free(p.rgb);
}

static void test_editor_only_file(void **state)
{
    char path[300];
    picture p, q;
    (void)state;
    support_tmp_path(path, sizeof path, "editor.png");
    run_ok("render", editor_path, "-o", path, "--size", "64x48", "--no-label", NULL);
    p = support_read_png(path);
    assert_true(foreground(&p) > 64 * 48 / 20); /* the octahedron is drawn */

    /* through the editor camera (there is no camera node) */
    support_tmp_path(path, sizeof path, "editor_cam.png");
    run_ok("render", editor_path, "-o", path, "--size", "64x48", "--no-label", "--camera",
           "EdCam", NULL);
    q = support_read_png(path);
    assert_true(foreground(&q) > 64 * 48 / 20);
    assert_true(support_difference(&p, &q, 0) > 64 * 48 / 20);
    free(p.rgb);
    free(q.rgb);
}

static void test_stdout(void **state)
{
    run_result r;
    (void)state;
    r = run_tool("render", ARM, "-o", "-", "--size", "16x12", NULL);
    assert_int_equal(r.status, 0);
    assert_true(r.out_len > 8);
    assert_int_equal(memcmp(r.out, "\x89PNG\r\n\x1a\n", 8), 0);
    run_free(&r);
}

static void test_bad_options(void **state)
{
    static const char *const patterns[] = {
        "bad_.png", "bad_%s.png", "bad_%d_%d.png", "bad_%x.png", "bad_%n.png", "bad_%*d.png",
        "bad_%.3d.png", "bad_%5d.png", "bad_%ld.png", "bad_%", "bad_%00d.png", "bad_%010d.png",
    };
    static const char *const bad[][2] = {
        {"--size", "0x10"},    {"--size", "10x"},      {"--size", "x10"},
        {"--size", "abc"},     {"--size", "10x10x"},   {"--size", "-5x5"},
        {"--size", "99999x10"}, {"--size", " 10x10"},  {"--size", "10*10"},
        {"--sheet", "0x2"},    {"--sheet", "3"},       {"--sheet", "100x1"},
        {"--frames", "5:1"},   {"--frames", "0:10:0"}, {"--frames", "a:b"},
        {"--frames", "1"},     {"--frames", "1:2:3:4"}, {"--frame", "x"},
        {"--frame", "nan"},    {"--orbit", "10"},      {"--orbit", "10,95"},
        {"--shading", "phong"}, {"--overlays", "grid,bogus"}, {"--bogus", "1"},
    };
    char out[300], path[300];
    const char *args[16];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        support_tmp_path(path, sizeof path, patterns[i]);
        expect_usage_error(run_tool("render", ARM, "--frames", "0:2", "-o", path, NULL));
    }
    expect_no_output("bad_");

    support_tmp_path(out, sizeof out, "bad_opt.png");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        args[0] = "render";
        args[1] = ARM;
        args[2] = "-o";
        args[3] = out;
        args[4] = bad[i][0];
        args[5] = bad[i][1];
        args[6] = NULL;
        expect_usage_error(support_run_argv(support_tmpdir(), NULL, args));
    }
    /* conflicts and missing pieces */
    expect_usage_error(run_tool("render", ARM, "-o", out, "--frame", "1", "--sheet", "2x2", NULL));
    expect_usage_error(
        run_tool("render", ARM, "-o", out, "--camera", "Cam01", "--orbit", "1,2", NULL));
    expect_usage_error(run_tool("render", ARM, NULL));
    expect_usage_error(run_tool("render", "-o", out, NULL));
    expect_usage_error(run_tool("render", ARM, "-o", NULL));
    expect_usage_error(
        run_tool("render", ARM, "-o", out, "--sheet", "64x64", "--size", "1000x1000", NULL));
    expect_no_output("bad_");
}

static void test_unknown_camera(void **state)
{
    char out[300];
    run_result r;
    (void)state;
    support_tmp_path(out, sizeof out, "nocam.png");
    /* the file's content, not the command line: status 1 (docs/output.md) */
    r = run_tool("render", ARM, "-o", out, "--camera", "NoSuchCamera", NULL);
    support_expect_status(&r, 1);
    assert_string_equal(r.err, "kf3ds: render: --camera 'NoSuchCamera': no such camera (the "
                               "file has: Cam01)\n"); /* the cameras the file has */
    run_free(&r);
    /* a file with an editor camera only */
    r = run_tool("render", editor_path, "-o", out, "--camera", "Cam01", NULL);
    support_expect_status(&r, 1);
    assert_non_null(strstr(r.err, "EdCam"));
    run_free(&r);
    assert_false(exists(out));
}

static void test_bad_input(void **state)
{
    char out[300], missing[300];
    const char *inputs[3];
    run_result r;
    int i;
    (void)state;
    support_tmp_path(out, sizeof out, "input.png");
    support_tmp_path(missing, sizeof missing, "missing.3ds");
    inputs[0] = missing;
    inputs[1] = empty_path;
    inputs[2] = text_path;
    for (i = 0; i < 3; i++) {
        r = run_tool("render", inputs[i], "-o", out, NULL);
        if (r.status != 1)
            fail_msg("%s: exit %d, not 1", inputs[i], r.status);
        assert_true(check_file_errors(r.err, inputs[i]) >= 1);
        assert_int_equal(r.out_len, 0);
        run_free(&r);
        assert_false(exists(out)); /* nothing rendered */
    }
    /* the same error line as the other verbs */
    r = run_tool("render", text_path, "-o", out, "--sheet", "2x2", NULL);
    {
        run_result info = run_tool("info", text_path, NULL);
        assert_int_equal(info.status, 1);
        assert_string_equal(r.err, info.err);
        run_free(&info);
    }
    run_free(&r);
}

static void test_unwritable_output(void **state)
{
    char out[300];
    run_result r;
    (void)state;
    support_tmp_path(out, sizeof out, "no/such/dir/out.png");
    r = run_tool("render", ARM, "-o", out, "--size", "16x12", NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(check_file_errors(r.err, out), 1);
    assert_non_null(strstr(r.err, ": cannot write: "));
    run_free(&r);

    /* a folder as the output */
    r = run_tool("render", ARM, "-o", support_tmpdir(), "--size", "16x12", NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(check_file_errors(r.err, support_tmpdir()), 1);
    assert_non_null(strstr(r.err, ": cannot write: "));
    run_free(&r);

    /* a sequence stops at the first file it cannot write */
    support_tmp_path(out, sizeof out, "no/such/dir/f_%d.png");
    r = run_tool("render", ARM, "--frames", "0:3", "-o", out, "--size", "16x12", NULL);
    assert_int_equal(r.status, 1);
    support_tmp_path(out, sizeof out, "no/such/dir/f_0.png");
    assert_int_equal(check_file_errors(r.err, out), 1);
    assert_non_null(strstr(r.err, "f_0.png: cannot write: "));
    assert_null(strstr(r.err, "f_1.png"));
    run_free(&r);
}

static void test_help(void **state)
{
    static const char *const words[] = {
        "--frame ", "--frames", "--sheet", "--size", "--camera", "--orbit", "--shading",
        "--hierarchy", "--names", "--grid", "--pivots", "--cameras", "--lights",
        "--overlays", "--no-ease", "%0Nd", "cannot write",
    };
    run_result r;
    size_t i;
    (void)state;
    r = run_tool("help", "render", NULL);
    assert_int_equal(r.status, 0);
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strstr(r.out, words[i]))
            fail_msg("'kf3ds help render' does not mention %s", words[i]);
    run_free(&r);
    r = run_tool("--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "render"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_frame),
        cmocka_unit_test(test_camera_differs_from_orbit),
        cmocka_unit_test(test_sequence),
        cmocka_unit_test(test_sheet),
        cmocka_unit_test(test_editor_only_file),
        cmocka_unit_test(test_stdout),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_unknown_camera),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_unwritable_output),
        cmocka_unit_test(test_help),
    };
    return support_run_tests(tests, setup, teardown);
}
