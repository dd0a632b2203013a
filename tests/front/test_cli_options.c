/* The option-value parsers of the kf3ds command (tools/cmd/cli_options.c): what
 * each accepts, the values it gives, and the bad input it refuses, so that
 * render and view (--orbit, --overlays, --size) and export, rewrite and
 * render (--frames) read the same words the same way (docs/kf3ds.1, OPTION
 * VALUES). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "cli_options.h"
#include "support.h"

static void test_long(void **state)
{
    static const char *const bad[] = {
        "", "-", "+", " 5", "5 ", "0x10", "1e3", "5.0", "--5", "+-5", "1,000", "abc",
        "99999999999999999999999999999999999999", "-99999999999999999999999999999999",
    };
    long v = 12345;
    size_t i;
    (void)state;
    assert_true(cli_parse_long("0", 0, 10, &v));
    assert_int_equal(v, 0);
    assert_true(cli_parse_long("10", 0, 10, &v));
    assert_int_equal(v, 10);
    assert_true(cli_parse_long("+7", 0, 10, &v));
    assert_int_equal(v, 7);
    assert_true(cli_parse_long("-7", -10, 10, &v));
    assert_int_equal(v, -7);
    assert_true(cli_parse_long("-0", 0, 10, &v));
    assert_int_equal(v, 0);
    assert_true(cli_parse_long("000042", 0, 100, &v));
    assert_int_equal(v, 42);
    /* the ends of the type itself */
    assert_true(cli_parse_long("-2147483647", CLI_FRAME_MIN, CLI_FRAME_MAX, &v));
    assert_int_equal(v, -2147483647L);
    assert_true(cli_parse_long("2147483647", CLI_FRAME_MIN, CLI_FRAME_MAX, &v));
    assert_int_equal(v, 2147483647L);
    /* just outside the bounds, and garbage: refused, *out untouched */
    v = 12345;
    assert_false(cli_parse_long("11", 0, 10, &v));
    assert_false(cli_parse_long("-1", 0, 10, &v));
    assert_false(cli_parse_long("-11", -10, 10, &v));
    assert_false(cli_parse_long("2147483648", CLI_FRAME_MIN, CLI_FRAME_MAX, &v));
    assert_false(cli_parse_long("-2147483648", CLI_FRAME_MIN, CLI_FRAME_MAX, &v));
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(cli_parse_long(bad[i], -1000, 1000000, &v));
    assert_false(cli_parse_long(NULL, 0, 1, &v));
    assert_int_equal(v, 12345);
}

static void test_frame(void **state)
{
    double f = -1.0;
    (void)state;
    assert_true(cli_parse_frame("7.25", &f));
    assert_true(f == 7.25);
    assert_true(cli_parse_frame("-3", &f));
    assert_true(f == -3.0);
    assert_true(cli_parse_frame("1e2", &f));
    assert_true(f == 100.0);
    f = 5.0;
    assert_false(cli_parse_frame("", &f));
    assert_false(cli_parse_frame("nan", &f));
    assert_false(cli_parse_frame("inf", &f));
    assert_false(cli_parse_frame("-infinity", &f));
    assert_false(cli_parse_frame("1e400", &f));
    assert_false(cli_parse_frame("7x", &f));
    assert_false(cli_parse_frame(NULL, &f));
    assert_true(f == 5.0);
}

static void test_size(void **state)
{
    static const char *const bad[] = {
        "", "x", "640", "640x", "x480", "0x480", "640x0", "640x480x2", "-640x480", "+640x480",
        "640x+480", " 640x480", "640 x480", "640x480 ", "16385x1", "1x16385", "640*480",
        "99999999999999999999x1",
    };
    int w = 3, h = 4;
    size_t i;
    (void)state;
    assert_true(cli_parse_size("640x480", 16384, &w, &h));
    assert_int_equal(w, 640);
    assert_int_equal(h, 480);
    assert_true(cli_parse_size("1X16384", 16384, &w, &h));
    assert_int_equal(w, 1);
    assert_int_equal(h, 16384);
    assert_true(cli_parse_size("3x2", 64, &w, &h));
    assert_int_equal(w, 3);
    assert_int_equal(h, 2);
    w = 3;
    h = 4;
    assert_false(cli_parse_size("65x1", 64, &w, &h));
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(cli_parse_size(bad[i], 16384, &w, &h));
    assert_int_equal(w, 3);
    assert_int_equal(h, 4);
}

static void test_frames(void **state)
{
    static const char *const bad[] = {
        "", ":", "5", "5:", ":5", "a:b", "5:3", "1:2:", "1:2:0", "1:2:-1", "1:2:+1", "1:2:3:4",
        "1.5:3", "1:3.0", " 1:3", "1:3 ", "0:2147483648", "-2147483648:0", "0:1:2147483648",
        "0x1:5",
    };
    long a = 11, b = 22, step = 33;
    size_t i;
    (void)state;
    assert_true(cli_parse_frames("0:100", &a, &b, NULL));
    assert_int_equal(a, 0);
    assert_int_equal(b, 100);
    assert_true(cli_parse_frames("-5:-5", &a, &b, NULL));
    assert_int_equal(a, -5);
    assert_int_equal(b, -5);
    assert_true(cli_parse_frames("+3:7", &a, &b, NULL));
    assert_int_equal(a, 3);
    assert_int_equal(b, 7);
    assert_true(cli_parse_frames("-2147483647:2147483647", &a, &b, NULL));
    assert_int_equal(a, -2147483647L);
    assert_int_equal(b, 2147483647L);
    /* without a step: 1; with one: that */
    assert_true(cli_parse_frames("2:9", &a, &b, &step));
    assert_int_equal(step, 1);
    assert_true(cli_parse_frames("2:9:3", &a, &b, &step));
    assert_int_equal(a, 2);
    assert_int_equal(b, 9);
    assert_int_equal(step, 3);
    /* a verb without steps refuses one */
    a = 11;
    b = 22;
    step = 33;
    assert_false(cli_parse_frames("2:9:3", &a, &b, NULL));
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(cli_parse_frames(bad[i], &a, &b, &step));
        assert_false(cli_parse_frames(bad[i], &a, &b, NULL));
    }
    assert_int_equal(a, 11);
    assert_int_equal(b, 22);
    assert_int_equal(step, 33);
}

static void test_frames_count(void **state)
{
    (void)state;
    /* 2, 5, 8: 9 is not reached */
    assert_true(cli_frames_count(2, 9, 3) == 3);
    assert_true(cli_frames_count(2, 8, 3) == 3);
    assert_true(cli_frames_count(-5, -5, 1) == 1);
    assert_true(cli_frames_count(0, 100, 1) == 101);
    /* the widest range: 2^32 - 1 frames, more than a 32-bit long holds */
    assert_true(cli_frames_count(CLI_FRAME_MIN, CLI_FRAME_MAX, 1) == INT64_C(4294967295));
    assert_true(cli_frames_count(CLI_FRAME_MIN, CLI_FRAME_MAX, CLI_FRAME_MAX) == 3);
}

static void test_orbit(void **state)
{
    static const char *const bad[] = {
        "", ",", "35", "35,", ",25", "35;25", "35,25,1", "a,25", "35,b", "35 ,25", "nan,0",
        "0,nan", "inf,0", "0,inf", "1e400,0", "0,90.5", "0,-90.001", "1000001,0",
        "-1000000.5,0", "1e300,0",
    };
    float az = 1.0f, el = 2.0f;
    size_t i;
    (void)state;
    assert_true(cli_parse_orbit("35,25", &az, &el));
    assert_true(az == 35.0f && el == 25.0f);
    assert_true(cli_parse_orbit("-720.5,-90", &az, &el));
    assert_true(az == -720.5f && el == -90.0f);
    assert_true(cli_parse_orbit("1000000,90", &az, &el));
    assert_true(az == 1000000.0f && el == 90.0f);
    assert_true(cli_parse_orbit("-1e6,0", &az, &el));
    assert_true(az == -1000000.0f && el == 0.0f);
    /* strtod's syntax on both sides, as for --frame */
    assert_true(cli_parse_orbit(" 1.5e1, 2", &az, &el));
    assert_true(az == 15.0f && el == 2.0f);
    az = 1.0f;
    el = 2.0f;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(cli_parse_orbit(bad[i], &az, &el));
    assert_false(cli_parse_orbit(NULL, &az, &el));
    assert_true(az == 1.0f && el == 2.0f);
}

static void test_shading(void **state)
{
    kf3ds_shading s = KF3DS_SHADE_FLAT;
    (void)state;
    assert_true(cli_parse_shading("smooth", &s));
    assert_int_equal(s, KF3DS_SHADE_SMOOTH);
    assert_true(cli_parse_shading("flat", &s));
    assert_int_equal(s, KF3DS_SHADE_FLAT);
    assert_true(cli_parse_shading("wire", &s));
    assert_int_equal(s, KF3DS_SHADE_WIRE);
    s = KF3DS_SHADE_FLAT;
    assert_true(cli_parse_shading("wireframe", &s));
    assert_int_equal(s, KF3DS_SHADE_WIRE);
    assert_false(cli_parse_shading("Smooth", &s));
    assert_false(cli_parse_shading("", &s));
    assert_false(cli_parse_shading("wire ", &s));
    assert_false(cli_parse_shading(NULL, &s));
    assert_int_equal(s, KF3DS_SHADE_WIRE);
}

static void test_overlay_words(void **state)
{
    (void)state;
    assert_int_equal(cli_overlay_bit("hierarchy", 9), KF3DS_OVERLAY_HIERARCHY);
    assert_int_equal(cli_overlay_bit("names,grid", 5), KF3DS_OVERLAY_NAMES);
    assert_int_equal(cli_overlay_bit("name", 4), 0);
    assert_int_equal(cli_overlay_bit("all", 3), 0);
    assert_int_equal(cli_overlay_switch("--pivots"), KF3DS_OVERLAY_PIVOTS);
    assert_int_equal(cli_overlay_switch("--cameras"), KF3DS_OVERLAY_CAMERAS);
    assert_int_equal(cli_overlay_switch("--lights"), KF3DS_OVERLAY_LIGHTS);
    assert_int_equal(cli_overlay_switch("--grid"), KF3DS_OVERLAY_GRID);
    assert_int_equal(cli_overlay_switch("-grid"), 0);
    assert_int_equal(cli_overlay_switch("grid"), 0);
    assert_int_equal(cli_overlay_switch("--all"), 0);
    assert_int_equal(cli_overlay_switch("--"), 0);
}

static void test_overlays(void **state)
{
    const unsigned all = KF3DS_OVERLAY_HIERARCHY | KF3DS_OVERLAY_PIVOTS | KF3DS_OVERLAY_CAMERAS |
                         KF3DS_OVERLAY_LIGHTS | KF3DS_OVERLAY_GRID | KF3DS_OVERLAY_NAMES;
    unsigned bits = 0;
    char bad[48];
    (void)state;
    assert_int_equal(all, 0x3Fu);
    assert_true(cli_parse_overlays("hierarchy,names", &bits, bad, sizeof bad));
    assert_int_equal(bits, KF3DS_OVERLAY_HIERARCHY | KF3DS_OVERLAY_NAMES);
    /* added to what switches gave before */
    bits = KF3DS_OVERLAY_GRID;
    assert_true(cli_parse_overlays("lights", &bits, bad, sizeof bad));
    assert_int_equal(bits, KF3DS_OVERLAY_GRID | KF3DS_OVERLAY_LIGHTS);
    bits = 0;
    assert_true(cli_parse_overlays("all", &bits, bad, sizeof bad));
    assert_int_equal(bits, all);
    /* "none" clears everything before it, the switches included */
    bits = KF3DS_OVERLAY_GRID;
    assert_true(cli_parse_overlays("pivots,none,cameras", &bits, bad, sizeof bad));
    assert_int_equal(bits, KF3DS_OVERLAY_CAMERAS);
    assert_true(cli_parse_overlays("none", &bits, NULL, 0));
    assert_int_equal(bits, 0);
    /* an unknown or empty word: refused, named, bits untouched */
    bits = KF3DS_OVERLAY_PIVOTS;
    assert_false(cli_parse_overlays("grid,nmes", &bits, bad, sizeof bad));
    assert_string_equal(bad, "nmes");
    assert_false(cli_parse_overlays("none,grid,", &bits, bad, sizeof bad));
    assert_string_equal(bad, "");
    assert_false(cli_parse_overlays("", &bits, bad, sizeof bad));
    assert_false(cli_parse_overlays(",grid", &bits, bad, sizeof bad));
    assert_false(cli_parse_overlays("Grid", &bits, bad, sizeof bad));
    assert_string_equal(bad, "Grid");
    assert_false(cli_parse_overlays("grid,all,x", &bits, NULL, 0));
    assert_false(cli_parse_overlays(NULL, &bits, bad, sizeof bad));
    assert_int_equal(bits, KF3DS_OVERLAY_PIVOTS);
    /* a long bad word is cut to 40 bytes in the message */
    assert_false(cli_parse_overlays("grid,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                                    &bits, bad, sizeof bad));
    assert_int_equal(strlen(bad), 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_long),          support_unit_test(test_frame),
        support_unit_test(test_size),          support_unit_test(test_frames),
        support_unit_test(test_frames_count),  support_unit_test(test_orbit),
        support_unit_test(test_shading),       support_unit_test(test_overlay_words),
        support_unit_test(test_overlays),
    };
    return support_run_tests(tests, NULL, NULL);
}
