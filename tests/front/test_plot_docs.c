/* Issue 24, plot and the documents: what plot says when the file has nothing
 * to plot (exit 1, one line naming what is missing, docs/output.md 'plot'),
 * the round axis ticks it chooses (tools/cmd/plot_axis.h, 1, 2 or 5 × 10^k),
 * counts of one in the singular in every summary line, and the man page
 * naming every verb of `kf3ds --help` in its SYNOPSIS and DESCRIPTION and
 * KF3DS_MAPS in its ENVIRONMENT. (make install/uninstall into a temporary
 * DESTDIR is tests/check_install.sh, run by make check.) */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot_axis.h"
#include "support.h"
#include "support_build.h"

#define MANPAGE "docs/kf3ds.1"

/* A triangle mesh `name` (3 points, 1 face) and its object node over frames
 * 0..10: with `animated` two POS keys (one animation channel), else one POS
 * key, one ROT key and one SCL key (nothing animated). */
static void write_one(const char *path, const char *name, int animated)
{
    static const float pts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t face[3] = { 0, 1, 2 };
    kf3ds_builder *b = support_builder();
    int32_t n;
    kf3ds_key k;
    support_build_mesh(b, name, pts, 3, face, NULL, 1, NULL);
    kf3ds_builder_keyframer(b, "one", 10, 0, 10);
    n = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, name, KF3DS_NONE);
    k = support_key(0, 0, 0, 0, 0);
    kf3ds_builder_add_key(b, n, KF3DS_TRACK_POS, &k);
    if (animated) {
        k = support_key(10, 5, 0, 0, 0);
        kf3ds_builder_add_key(b, n, KF3DS_TRACK_POS, &k);
    } else {
        k = support_key(0, 0, 0, 0, 1);
        kf3ds_builder_add_key(b, n, KF3DS_TRACK_ROT, &k);
        k = support_key(0, 1, 1, 1, 0);
        kf3ds_builder_add_key(b, n, KF3DS_TRACK_SCL, &k);
    }
    support_build_file(b, path);
}

/* Runs the command, expects `status`, no standard output and exactly the
 * line `want` on standard error. */
static void expect_one_error(int status, const char *want, const char *const *args)
{
    support_run r = support_run_argv(support_tmpdir(), NULL, args);
    support_expect_status(&r, status);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, want);
    support_run_free(&r);
}

static void test_plot_nothing_to_plot(void **state)
{
    char file[400], out[400], want[1200];
    (void)state;
    support_tmp_path(file, sizeof file, "static.3ds");
    support_tmp_path(out, sizeof out, "p.png");
    write_one(file, "Box01", 0);
    {
        const char *args[] = { "plot", file, "--all", "-o", out, NULL };
        snprintf(want, sizeof want,
                 "kf3ds: %s: nothing to plot: no node has an animated track (more than one "
                 "key); --node NAME plots a node's constant tracks\n",
                 file);
        expect_one_error(1, want, args);
    }
    {
        const char *args[] = { "plot", file, "--all", "--track", "rot", "-o", out, NULL };
        snprintf(want, sizeof want,
                 "kf3ds: %s: no node has an animated rot track (more than one key) to plot\n",
                 file);
        expect_one_error(1, want, args);
    }
    /* the node's constant tracks still plot */
    {
        support_run r = support_run_tool(NULL, "plot", file, "--node", "Box01", "--track", "scl",
                                         "-o", out, NULL);
        support_expect_status(&r, 0);
        snprintf(want, sizeof want, "wrote %s (1 panel, 800x360)\n", out);
        assert_string_equal(r.out, want);
        support_run_free(&r);
    }
}

static void test_plot_missing_track(void **state)
{
    char file[400], out[400], want[1200];
    (void)state;
    support_tmp_path(file, sizeof file, "static.3ds");
    support_tmp_path(out, sizeof out, "p.png");
    write_one(file, "Box01", 0);
    {
        const char *args[] = { "plot", file, "--node", "Box01", "--track", "fov", "-o", out,
                               NULL };
        snprintf(want, sizeof want,
                 "kf3ds: %s: node 'Box01' (object) has no fov track; its tracks: pos, rot, scl\n",
                 file);
        expect_one_error(1, want, args);
    }
    {
        const char *args[] = { "plot", file, "--node", "Nope", "-o", out, NULL };
        snprintf(want, sizeof want, "kf3ds: %s: --node 'Nope': no such node\n", file);
        expect_one_error(1, want, args);
    }
    /* the command line itself wrong: 2, whatever the file holds */
    support_expect_exit(support_run_tool(NULL, "plot", file, "--node", "Box01", "--track", "spin",
                                         "-o", out, NULL),
                        2);
    support_expect_exit(support_run_tool(NULL, "plot", file, "--all", "--node", "Box01", "-o",
                                         out, NULL),
                        2);
    /* the bundled arm: the hand's five tracks, in the order of the enum */
    {
        const char *args[] = { "plot", "data/arm.3ds", "--node", "Hand", "--track", "col", "-o",
                               out, NULL };
        support_run r;
        char arm[1000];
        if (!getcwd(arm, sizeof arm - 20))
            fail();
        strcat(arm, "/data/arm.3ds");
        args[1] = arm;
        r = support_run_argv(support_tmpdir(), NULL, args);
        support_expect_status(&r, 1);
        snprintf(want, sizeof want,
                 "kf3ds: %s: node 'Hand' (object) has no col track; its tracks: pos, rot, scl, "
                 "morph, hide\n",
                 arm);
        assert_string_equal(r.err, want);
        support_run_free(&r);
    }
}

/* The ticks for [lo, hi] in at most n intervals: step, first tick, count. */
static void expect_ticks(double lo, double hi, int n, double step, double first, int count,
                         int decimals)
{
    plot_ticks t;
    support_set_what("ticks of [%g, %g] in at most %d intervals", lo, hi, n);
    plot_ticks_choose(lo, hi, n, &t);
    assert_near(t.step, step, step * 1e-12);
    assert_near(plot_tick_value(&t, 0), first, step * 1e-9);
    assert_int_equal(t.count, count);
    assert_int_equal(t.decimals, decimals);
}

static void expect_label(const plot_ticks *t, double v, const char *want)
{
    char buf[64];
    plot_tick_label(buf, sizeof buf, t, v);
    assert_string_equal(buf, want);
}

static void test_ticks_round(void **state)
{
    plot_ticks t;
    double lo, hi;
    unsigned seed = 12345;
    int i, k;
    char buf[64];
    (void)state;
    /* the sample arm's segment 0..60 across a panel, and a long one */
    expect_ticks(0, 60, 8, 10, 0, 7, 0);
    expect_ticks(0, 60, 5, 20, 0, 4, 0);
    expect_ticks(0, 100, 5, 20, 0, 6, 0);
    expect_ticks(0, 2150, 8, 500, 0, 5, 0);
    /* UpperArm's rotation, padded: -28.1 .. 114.2 in steps of 20 */
    expect_ticks(-28.1, 114.2, 8, 20, -20, 7, 0);
    /* a camera's FOV 34.35 .. 48.65: steps of 2 */
    expect_ticks(34.35, 48.65, 8, 2, 36, 7, 0);
    /* small values: 0.2 and 5e-5 need 1 and 5 decimals */
    expect_ticks(0, 1, 5, 0.2, 0, 6, 1);
    expect_ticks(0.001, 0.0012, 4, 5e-5, 0.001, 5, 5);
    /* no range, or no number: around the value, or [-1, 1] */
    expect_ticks(3, 3, 4, 0.5, 2, 5, 1);
    expect_ticks(NAN, INFINITY, 4, 0.5, -1, 5, 1);

    /* the value axis widened to whole steps: -28.1 .. 114.2 becomes -40 .. 120 */
    lo = -28.1, hi = 114.2;
    plot_ticks_choose(lo, hi, 8, &t);
    plot_ticks_round_out(&t, &lo, &hi);
    assert_near(lo, -40, 1e-12);
    assert_near(hi, 120, 1e-12);
    assert_int_equal(t.count, 9);
    assert_near(plot_tick_value(&t, 0), -40, 1e-12);
    assert_near(plot_tick_value(&t, 8), 120, 1e-12);

    /* labels: just the step's decimals, no "-0" */
    support_set_what("tick labels");
    plot_ticks_choose(0, 1, 5, &t);
    expect_label(&t, 0.6000000000000001, "0.6");
    expect_label(&t, -1e-17, "0.0");
    expect_label(&t, -0.4, "-0.4");
    plot_ticks_choose(-100, 100, 4, &t);
    expect_label(&t, -0.0, "0");
    expect_label(&t, -50, "-50");
    plot_ticks_choose(0, 1e-3, 4, &t);
    expect_label(&t, plot_tick_value(&t, 1), "0.0005");
    plot_ticks_choose(0, 1e-3, 8, &t);
    expect_label(&t, plot_tick_value(&t, 3), "0.0006");

    /* any range: a step of 1, 2 or 5 × 10^k, at most n intervals (n + 1
     * ticks), every tick in the range on a multiple of the step, its label
     * the tick itself to the label's precision */
    for (i = 0; i < 2000; i++) {
        double m, a, b, e, smaller;
        int n;
        seed = seed * 1103515245u + 12345u;
        e = pow(10, (int)((seed >> 8) % 9) - 4);
        seed = seed * 1103515245u + 12345u;
        a = (((seed >> 8) % 200001) / 100.0 - 1000) * e;
        seed = seed * 1103515245u + 12345u;
        b = a + e * (0.01 + ((seed >> 8) % 10000) / 100.0);
        n = 2 + (int)((seed >> 4) % 9);
        support_set_what("ticks of [%.17g, %.17g] in at most %d intervals", a, b, n);
        plot_ticks_choose(a, b, n, &t);
        m = t.step / pow(10, floor(log10(t.step) + 1e-9));
        assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
        assert_true(t.count >= 1 && t.count <= n + 1);
        /* the step is the smallest round one that fits: the next smaller
         * (5 → 2, 2 → 1, 1 → 0.5) would need more than n intervals */
        smaller = t.step * (fabs(m - 5) < 1e-9 ? 0.4 : 0.5);
        assert_true((b - a) / smaller > n * (1 - 1e-9));
        for (k = 0; k < t.count; k++) {
            double v = plot_tick_value(&t, k), back;
            const char *dot;
            assert_true(v >= a - t.step * 1e-9 && v <= b + t.step * 1e-9);
            plot_tick_label(buf, sizeof buf, &t, v);
            dot = strchr(buf, '.');
            assert_int_equal(dot ? (int)strlen(dot + 1) : 0, t.decimals);
            back = strtod(buf, NULL);
            assert_near(back, v, t.step * 1e-6);
        }
    }
}

/* A count of one is "1 mesh", "1 face", "1 animation channel", ...: info,
 * export, bake, the .kfb's info and plot on a file of one of each. */
static void test_singular_counts(void **state)
{
    char file[400], glb[400], kfb[400], png[400];
    support_run r;
    (void)state;
    support_tmp_path(file, sizeof file, "one.3ds");
    support_tmp_path(glb, sizeof glb, "one.glb");
    support_tmp_path(kfb, sizeof kfb, "one.kfb");
    support_tmp_path(png, sizeof png, "one.png");
    write_one(file, "Tri", 1);

    r = support_run_tool(NULL, "info", file, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "\nmeshes: 1 (3 vertices, 1 face)\n"));
    assert_non_null(strstr(r.out, "\ndiagnostics: 0 errors, 0 warnings\n"));
    support_run_free(&r);

    r = support_run_tool(NULL, "export", file, "-o", glb, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, " nodes, 1 mesh, 1 animation channel, frames 0..10 at 30 fps)\n"));
    support_run_free(&r);

    r = support_run_tool(NULL, "bake", file, "-o", kfb, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, ", 1 node, "));
    assert_non_null(strstr(r.out, ", 1 mesh, 0 materials, "));
    support_run_free(&r);

    r = support_run_tool(NULL, "info", kfb, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "\nnodes: 1\n"));
    assert_non_null(strstr(r.out, "(3 vertices, 1 face, 1 normal, 0 texture coordinates)\n"));
    support_run_free(&r);

    r = support_run_tool(NULL, "plot", file, "--all", "-o", png, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, " (1 panel, 800x360)\n"));
    support_run_free(&r);

    /* one stray byte after the root chunk: the library's warning */
    {
        size_t len;
        unsigned char *data = support_read_file(file, &len);
        char want[600];
        assert_non_null(data);
        data = realloc(data, len + 1);
        assert_non_null(data);
        data[len] = 'x';
        support_write_file(file, data, len + 1);
        free(data);
        r = support_run_tool(NULL, "info", file, NULL);
        support_expect_status(&r, 0);
        snprintf(want, sizeof want,
                 "kf3ds: warning: %s: offset %lu: 1 byte after the root chunk ignored\n", file,
                 (unsigned long)len);
        assert_string_equal(r.err, want);
        assert_non_null(strstr(r.out, "\ndiagnostics: 0 errors, 1 warning\n"));
        support_run_free(&r);
    }
}

/* The lines of the man page's section `name` (.SH name up to the next .SH). */
static char *man_section(const char *page, const char *name)
{
    char head[64];
    const char *a, *b;
    char *s;
    snprintf(head, sizeof head, "\n.SH %s\n", name);
    a = strstr(page, head);
    if (!a)
        return NULL;
    a += strlen(head);
    b = strstr(a, "\n.SH ");
    if (!b)
        b = a + strlen(a);
    s = malloc((size_t)(b - a) + 2);
    assert_non_null(s);
    s[0] = '\n';
    memcpy(s + 1, a, (size_t)(b - a));
    s[b - a + 1] = '\0';
    return s;
}

static void test_manpage_verbs(void **state)
{
    size_t len;
    char *page = (char *)support_read_file(MANPAGE, &len), *syn, *desc, *env, *line;
    support_run r;
    int verbs = 0, in_list = 0;
    (void)state;
    assert_non_null(page);
    page = realloc(page, len + 1);
    assert_non_null(page);
    page[len] = '\0';
    syn = man_section(page, "SYNOPSIS");
    desc = man_section(page, "DESCRIPTION");
    env = man_section(page, "ENVIRONMENT");
    assert_non_null(syn);
    assert_non_null(desc);
    assert_non_null(env);

    /* every verb `kf3ds --help` lists: ".B kf3ds VERB" in the SYNOPSIS and
     * ".B VERB" (bold, in the sentence of the verbs) in the DESCRIPTION */
    r = support_run_tool(NULL, "--help", NULL);
    support_expect_status(&r, 0);
    for (line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        char verb[32], want[64];
        if (strcmp(line, "Verbs:") == 0) {
            in_list = 1;
            continue;
        }
        if (!in_list)
            continue;
        if (sscanf(line, "  %31[a-z]", verb) != 1)
            break;
        support_set_what("verb '%s' in " MANPAGE, verb);
        snprintf(want, sizeof want, "\n.B kf3ds %s\n", verb);
        assert_non_null(strstr(syn, want));
        snprintf(want, sizeof want, "\n.B %s\n", verb);
        if (!strstr(desc, want)) {
            snprintf(want, sizeof want, "\n.BR %s ", verb);
            assert_non_null(strstr(desc, want));
        }
        verbs++;
    }
    assert_int_equal(verbs, 11);
    support_run_free(&r);

    support_set_what("KF3DS_MAPS in " MANPAGE "'s ENVIRONMENT");
    assert_non_null(strstr(env, "\n.B KF3DS_MAPS\n"));
    assert_non_null(strstr(env, "\n.B SDL_VIDEODRIVER\n"));
    free(syn);
    free(desc);
    free(env);
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_plot_nothing_to_plot),
        support_unit_test(test_plot_missing_track),
        support_unit_test(test_ticks_round),
        support_unit_test(test_singular_counts),
        support_unit_test(test_manpage_verbs),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
