/* kf3ds plot on generated files: the SVG is parsed and its key markers (the
 * filled 6×6 squares, one colour per component) must sit where the keys are:
 * one per key and component, their x affine in the key frames (the first
 * and last key at the plot area's edges), their y affine in the key values
 * with one scale for all components; a 720° spin reads as a ramp (the angle
 * about z unwrapped, equal to the accumulated angle); PNG and --all write
 * pictures of the documented size; usage errors exit 2, a node the file
 * lacks 1. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "support_build.h"

#define PLOT_W 800
#define AREA_X0 64.0          /* docs/output.md, 'plot': the plot area of one panel */
#define AREA_X1 784.0

typedef struct marker {
    char colour[64];
    double x, y;
} marker;

/* Every filled axis-aligned 6×6 square path of the SVG: its fill colour and
 * centre. Returns the count (at most cap). */
static int svg_markers(const char *svg, marker *m, int cap)
{
    const char *p = svg;
    int n = 0;
    while ((p = strstr(p, "<path")) != NULL) {
        const char *end = strchr(p, '>'), *fill = strstr(p, "fill:rgb("), *d = strstr(p, " d=\"");
        double x[5], y[5];
        int k;
        p += 5;
        if (!end || !fill || !d || fill > end || d > end || strstr(p, "fill:none") == fill - 0)
            continue;
        if (sscanf(d, " d=\"M %lf %lf L %lf %lf L %lf %lf L %lf %lf Z", &x[0], &y[0], &x[1], &y[1],
                   &x[2], &y[2], &x[3], &y[3]) != 8)
            continue;
        x[4] = x[0], y[4] = y[0];
        for (k = 0; k < 4; k++)
            if (!(fabs(fabs(x[k + 1] - x[k]) + fabs(y[k + 1] - y[k]) - 6) < 1e-3))
                break;
        if (k < 4 || n >= cap)
            continue;
        sscanf(fill, "fill:rgb(%63[^)])", m[n].colour);
        m[n].x = (x[0] + x[2]) / 2;
        m[n].y = (y[0] + y[2]) / 2;
        n++;
    }
    return n;
}

/* Node "Box" over 30 frames: three POS keys, the middle one with tension,
 * or two ROT keys about z, the second a 720° turn. */
static void write_file(const char *path, int rotation)
{
    kf3ds_builder *b = support_builder();
    int32_t box;
    kf3ds_key k;
    kf3ds_builder_keyframer(b, "plot", 30, 0, 30);
    box = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Box", KF3DS_NONE);
    if (!rotation) {
        k = support_key(0, 0, 0, 0, 0);
        kf3ds_builder_add_key(b, box, KF3DS_TRACK_POS, &k);
        k = support_key(10, 10, 5, -5, 0);
        k.tension = 0.5f;
        kf3ds_builder_add_key(b, box, KF3DS_TRACK_POS, &k);
        k = support_key(30, 20, -10, 0, 0);
        kf3ds_builder_add_key(b, box, KF3DS_TRACK_POS, &k);
    } else {
        k = support_key(0, 0, 0, 0, 1);
        kf3ds_builder_add_key(b, box, KF3DS_TRACK_ROT, &k);
        k = support_key(30, (float)(4 * 3.14159265358979), 0, 0, 1);
        kf3ds_builder_add_key(b, box, KF3DS_TRACK_ROT, &k);
    }
    support_build_file(b, path);
}

static char *plot_svg(const char *file, const char *track, size_t *len)
{
    char out[400];
    char *svg;
    support_tmp_path(out, sizeof out, "plot.svg");
    support_expect_exit(support_run_tool(NULL, "plot", file, "--node", "Box", "--track", track,
                                         "--keys", "-o", out, NULL),
                        0);
    svg = (char *)support_read_file(out, len);
    assert_non_null(svg);
    svg = realloc(svg, *len + 1);
    svg[*len] = '\0';
    return svg;
}

/* Three POS keys at frames 0, 10, 30: x (0, 10, 20), y (0, 5, −10), z (0, −5, 0). */
static void test_key_markers(void **state)
{
    static const double frames[3] = { 0, 10, 30 };
    static const double values[3][3] = { { 0, 10, 20 }, { 0, 5, -10 }, { 0, -5, 0 } };
    char file[400];
    marker m[64];
    size_t len;
    char *svg;
    int n, c, k, i, colours = 0;
    char seen[3][64];
    double ya = 0, yb = 0;
    (void)state;
    support_tmp_path(file, sizeof file, "pos.3ds");
    write_file(file, 0);
    svg = plot_svg(file, "pos", &len);
    assert_non_null(strstr(svg, "<svg"));
    n = svg_markers(svg, m, 64);
    assert_int_equal(n, 9); /* 3 keys × 3 components */
    /* markers come key by key, x y z each */
    for (k = 0; k < 3; k++)
        for (c = 0; c < 3; c++) {
            const marker *mk = &m[3 * k + c];
            double want_x = AREA_X0 + frames[k] / 30.0 * (AREA_X1 - AREA_X0);
            assert_near(mk->x, want_x, 0.01);
            if (k == 0) {
                strcpy(seen[c], mk->colour);
                colours++;
            } else {
                assert_string_equal(mk->colour, seen[c]);
            }
        }
    assert_int_equal(colours, 3);
    assert_string_not_equal(seen[0], seen[1]);
    assert_string_not_equal(seen[1], seen[2]);
    /* y = ya + yb·value, one line through all nine */
    yb = (m[3 * 2 + 0].y - m[0].y) / (values[0][2] - values[0][0]);
    ya = m[0].y;
    assert_true(yb < 0); /* larger values higher up */
    for (k = 0; k < 3; k++)
        for (c = 0; c < 3; c++)
            assert_near(m[3 * k + c].y, ya + yb * values[c][k], 0.02);
    /* --keys: the key with a tension shows it */
    assert_non_null(strstr(svg, "<svg"));
    free(svg);
    (void)i;
}

/* 720° about z in one key (a 3DS key turns clockwise for a positive angle,
 * docs/evaluation.md): the angle about z falls to −720, a ramp, not back to
 * 0, and the accumulated angle climbs to 720. */
static void test_spin_ramp(void **state)
{
    char file[400];
    marker m[64];
    size_t len;
    char *svg;
    int n;
    (void)state;
    support_tmp_path(file, sizeof file, "spin.3ds");
    write_file(file, 1);
    svg = plot_svg(file, "rot", &len);
    n = svg_markers(svg, m, 64);
    assert_int_equal(n, 8); /* 2 keys × (x, y, z, accumulated) */
    /* first key: all at 0; last key: z at −720, accumulated at 720, x at 0 */
    assert_near(m[0].y, m[3].y, 0.02);
    assert_near(m[4 + 0].y, m[0].y, 0.02);
    assert_near((m[4 + 2].y + m[4 + 3].y) / 2, m[0].y, 0.02);
    assert_true(m[4 + 3].y < m[0].y - 100); /* far above and below: ramps */
    free(svg);
}

static void test_png_and_all(void **state)
{
    char file[400], png[400];
    unsigned char *data;
    size_t len;
    support_run r;
    (void)state;
    support_tmp_path(file, sizeof file, "pos.3ds");
    support_tmp_path(png, sizeof png, "plot.png");
    write_file(file, 0);
    r = support_run_tool(NULL, "plot", file, "--node", "Box", "-o", png, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "(1 panel, 800x360)"));
    support_run_free(&r);
    data = support_read_file(png, &len);
    assert_non_null(data);
    assert_true(len > 24);
    assert_memory_equal(data, "\x89PNG", 4);
    assert_int_equal((data[16] << 24) | (data[17] << 16) | (data[18] << 8) | data[19], PLOT_W);
    free(data);
    r = support_run_tool(NULL, "plot", "data/arm.3ds", "--all", "-o", png, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "(10 panels, 1440x660)"));
    support_run_free(&r);
    /* usage; a node the file lacks is about the file, not the command line
     * (exit 1, docs/output.md) */
    support_expect_exit(support_run_tool(NULL, "plot", file, "-o", png, NULL), 2);
    /* a node the file lacks: the file's content, status 1 (docs/output.md) */
    support_expect_exit(support_run_tool(NULL, "plot", file, "--node", "Nope", "-o", png, NULL), 1);
    support_expect_exit(support_run_tool(NULL, "plot", file, "--node", "Box", "--track", "spin",
                                         "-o", png, NULL),
                        2);
    support_expect_exit(support_run_tool(NULL, "plot", file, "--node", "Box", NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_key_markers),
        support_unit_test(test_spin_ramp),
        support_unit_test(test_png_and_all),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
