/* The Animator picture decoder (tools/front/cel_decode.c) on pictures built here
 * byte by byte, one per layout and pixel encoding, with the colours worked
 * out by hand (6-bit palette units scale by 255/63, rounded down), and on
 * broken ones: each refused with its reason and the byte offset it names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "cel_decode.h"
#include "support.h"

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, unsigned long v)
{
    put16(p, (unsigned)(v & 0xFFFF));
    put16(p + 2, (unsigned)(v >> 16));
}

/* Decodes and checks every pixel against want (w*h of them). */
static void expect_picture(const unsigned char *b, size_t n, int w, int h, const uint32_t *want)
{
    cel_picture pic;
    char why[200] = "";
    size_t at = 12345, i;
    if (cel_decode(b, n, &pic, why, sizeof why, &at) != 0)
        fail_msg("refused: %s at %lu", why, (unsigned long)at);
    assert_int_equal(pic.width, w);
    assert_int_equal(pic.height, h);
    for (i = 0; i < (size_t)w * (size_t)h; i++)
        if (pic.pixels[i] != want[i])
            fail_msg("pixel %lu: %08lx, not %08lx", (unsigned long)i,
                     (unsigned long)pic.pixels[i], (unsigned long)want[i]);
    free(pic.pixels);
}

/* Refused with a reason containing `reason`, at byte `at`, *pic empty. */
static void expect_refused(const unsigned char *b, size_t n, const char *reason, size_t want_at)
{
    cel_picture pic;
    char why[200] = "";
    size_t at = 12345;
    assert_int_equal(cel_decode(b, n, &pic, why, sizeof why, &at), -1);
    if (!strstr(why, reason))
        fail_msg("reason '%s', not '%s'", why, reason);
    if (at != want_at)
        fail_msg("'%s' at %lu, not %lu", why, (unsigned long)at, (unsigned long)want_at);
    assert_null(pic.pixels);
    assert_int_equal(pic.width, 0);
    assert_int_equal(pic.height, 0);
}

/* ---- Animator 1: 32-byte header, 768-byte 6-bit palette, pixels at 800 --- */

static size_t animator1(unsigned char *b, unsigned w, unsigned h)
{
    memset(b, 0, 800 + w * h);
    put16(b, 0x9119);
    put16(b + 2, w);
    put16(b + 4, h);
    b[10] = 8;
    b[32 + 0] = 63;                                    /* 0: red */
    b[32 + 3 + 1] = 63;                                /* 1: green */
    b[32 + 6] = 10, b[32 + 7] = 20, b[32 + 8] = 30;    /* 2 */
    b[32 + 9] = 0x7F, b[32 + 10] = 0xC0, b[32 + 11] = 1; /* 3: only 6 bits count */
    return 800 + w * h;
}

static void test_animator1(void **state)
{
    /* 10*255/63 = 40, 20*255/63 = 80, 30*255/63 = 121; 0x7F&63 = 63 -> 255,
     * 0xC0&63 = 0, 1*255/63 = 4 */
    static const uint32_t want[] = { 0xFFFF0000u, 0xFF00FF00u, 0xFF285079u,
                                     0xFFFF0004u, 0xFF000000u, 0xFFFF0000u };
    unsigned char b[806];
    size_t n = animator1(b, 3, 2);
    (void)state;
    b[800] = 0, b[801] = 1, b[802] = 2, b[803] = 3, b[804] = 4, b[805] = 0;
    assert_int_equal(cel_kind(b, n), CEL_ANIMATOR1);
    expect_picture(b, n, 3, 2, want);
    /* extra bytes after the pixels are ignored */
    {
        unsigned char c[900];
        memcpy(c, b, n);
        memset(c + n, 0xEE, sizeof c - n);
        expect_picture(c, sizeof c, 3, 2, want);
    }
}

static void test_animator1_broken(void **state)
{
    unsigned char b[806];
    size_t n = animator1(b, 3, 2);
    (void)state;
    expect_refused(b, 799, "needs 800 bytes", 799);
    expect_refused(b, n - 1, "pixels cut short", n - 1);
    b[10] = 4;
    expect_refused(b, n, "depth is not 8 bits", 10);
    animator1(b, 0, 2);
    expect_refused(b, n, "width or height out of range", 2);
    animator1(b, 3, 2);
    put16(b + 4, 0); /* height 0 */
    expect_refused(b, n, "width or height out of range", 2);
    put16(b + 2, 16385);
    put16(b + 4, 1);
    expect_refused(b, n, "width or height out of range", 2);
    /* 16384 x 16384 is within each side but over the pixel bound */
    put16(b + 2, 16384);
    put16(b + 4, 16384);
    expect_refused(b, n, "width or height out of range", 2);
}

/* ---- Animator Pro PIC: 64-byte header, then chunks ---------------------- */

static void test_pro_pic(void **state)
{
    /* pixels before the palette (it applies all the same), palette from
     * entry 0 in 8-bit units; index 5 has no palette entry: grey 5 */
    static const uint32_t want[] = { 0xFF102030u, 0xFFA0B0C0u, 0xFF050505u };
    unsigned char b[64 + 9 + 17];
    size_t at = 64;
    (void)state;
    memset(b, 0, sizeof b);
    put16(b + 4, 0x9500);
    put16(b + 6, 3);
    put16(b + 8, 1);
    put32(b + at, 9), put16(b + at + 4, 1); /* pixels */
    b[at + 6] = 0, b[at + 7] = 1, b[at + 8] = 5;
    at += 9;
    put32(b + at, 17), put16(b + at + 4, 0); /* palette: version, 3 triples */
    b[at + 8] = 0x10, b[at + 9] = 0x20, b[at + 10] = 0x30;
    b[at + 11] = 0xA0, b[at + 12] = 0xB0, b[at + 13] = 0xC0;
    b[at + 14] = 1, b[at + 15] = 2, b[at + 16] = 3;
    assert_int_equal(cel_kind(b, sizeof b), CEL_PRO_PIC);
    expect_picture(b, sizeof b, 3, 1, want);
    /* without the palette: the grey ramp */
    {
        static const uint32_t grey[] = { 0xFF000000u, 0xFF010101u, 0xFF050505u };
        expect_picture(b, 64 + 9, 3, 1, grey);
    }
}

static void test_pro_pic_bits(void **state)
{
    /* 10 x 2, one bit per pixel, most significant first, rows of 2 bytes */
    unsigned char b[64 + 6 + 4];
    uint32_t want[20];
    int i;
    (void)state;
    memset(b, 0, sizeof b);
    put16(b + 4, 0x9500);
    put16(b + 6, 10);
    put16(b + 8, 2);
    put32(b + 64, 10), put16(b + 68, 2);
    b[70] = 0x80, b[71] = 0x40; /* row 0: x = 0 and x = 9 */
    b[72] = 0x01, b[73] = 0x80; /* row 1: x = 7 and x = 8 */
    for (i = 0; i < 20; i++)
        want[i] = 0xFF000000u;
    want[0] = want[9] = want[10 + 7] = want[10 + 8] = 0xFFFFFFFFu;
    expect_picture(b, sizeof b, 10, 2, want);
    /* one byte short of the second row */
    put32(b + 64, 9);
    expect_refused(b, sizeof b - 1, "bit chunk shorter than its rows", 64);
}

static void test_pro_pic_broken(void **state)
{
    unsigned char b[64 + 9];
    (void)state;
    memset(b, 0, sizeof b);
    put16(b + 4, 0x9500);
    put16(b + 6, 3);
    put16(b + 8, 1);
    put32(b + 64, 9), put16(b + 68, 1);
    expect_refused(b, 63, "needs 64 bytes", 63);
    put32(b + 64, 10); /* one byte beyond the file */
    expect_refused(b, sizeof b, "chunk size beyond the file", 64);
    put32(b + 64, 5); /* smaller than its own header */
    expect_refused(b, sizeof b, "chunk size beyond the file", 64);
    put32(b + 64, 8); /* 2 pixels for 3 */
    expect_refused(b, 64 + 8, "pixel chunk shorter than width x height", 64);
    put32(b + 64, 9), put16(b + 68, 7); /* an unknown chunk only */
    expect_refused(b, sizeof b, "no pixel chunk", sizeof b);
    put16(b + 68, 1);
    put16(b + 6, 0);
    expect_refused(b, sizeof b, "width or height out of range", 6);
}

/* ---- Animator Pro CEL: a FLC header, its first frame -------------------- */

/* A 4 x 2 FLC at `frame_at` (0 in the header: 128) whose first frame has
 * COLOR_64 then BRUN, after a prefix chunk to be skipped. Returns its size. */
static size_t pro_cel(unsigned char *b, unsigned magic)
{
    size_t at = 128, frame, sub;
    memset(b, 0, 256);
    put16(b + 4, magic);
    put16(b + 8, 4);
    put16(b + 10, 2);
    put32(b + at, 10), put16(b + at + 4, 0xF100); /* prefix, skipped */
    at += 10;
    frame = at;
    put16(b + frame + 4, 0xF1FA);
    put16(b + frame + 6, 2); /* two sub-chunks */
    sub = frame + 16;
    /* COLOR_64: 1 packet, skip 1, 2 colours: 1 red, 2 blue */
    put32(b + sub, 16), put16(b + sub + 4, 11);
    put16(b + sub + 6, 1);
    b[sub + 8] = 1, b[sub + 9] = 2;
    b[sub + 10] = 63, b[sub + 11] = 0, b[sub + 12] = 0;
    b[sub + 13] = 0, b[sub + 14] = 0, b[sub + 15] = 63;
    sub += 16;
    /* BRUN: line 0 "1 x4"; line 1 two literals 2 0, then "1 x2" */
    put32(b + sub, 6 + 3 + 6), put16(b + sub + 4, 15);
    b[sub + 6] = 1, b[sub + 7] = 4, b[sub + 8] = 1;
    b[sub + 9] = 2, b[sub + 10] = 0xFE, b[sub + 11] = 2, b[sub + 12] = 0, b[sub + 13] = 2,
    b[sub + 14] = 1;
    sub += 15;
    put32(b + frame, (unsigned long)(sub - frame));
    return sub;
}

static const uint32_t pro_cel_want[] = { 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u,
                                         0xFF0000FFu, 0xFF000000u, 0xFFFF0000u, 0xFFFF0000u };

static void test_pro_cel(void **state)
{
    unsigned char b[256];
    size_t n = pro_cel(b, 0xAF12);
    (void)state;
    assert_int_equal(cel_kind(b, n), CEL_PRO_CEL);
    expect_picture(b, n, 4, 2, pro_cel_want);
    /* a FLI (0xAF11) starts at 128 whatever offset 80 holds */
    n = pro_cel(b, 0xAF11);
    put32(b + 80, 5000);
    expect_picture(b, n, 4, 2, pro_cel_want);
}

static void test_pro_cel_copy_black_256(void **state)
{
    /* the frame at 160 by the header's offset; COLOR_256 (8-bit units, a
     * count byte of 0 meaning 256), then COPY */
    unsigned char b[2048];
    size_t at = 160, sub, n;
    uint32_t want[8];
    int i;
    (void)state;
    memset(b, 0, sizeof b);
    put16(b + 4, 0xAF12);
    put16(b + 8, 4);
    put16(b + 10, 2);
    put32(b + 80, 160);
    put16(b + at + 4, 0xF1FA);
    put16(b + at + 6, 2);
    sub = at + 16;
    put32(b + sub, 6 + 2 + 2 + 768), put16(b + sub + 4, 4);
    put16(b + sub + 6, 1);
    b[sub + 8] = 0, b[sub + 9] = 0;
    for (i = 0; i < 256; i++)
        b[sub + 10 + 3 * i] = (unsigned char)i, b[sub + 11 + 3 * i] = 0x80,
                      b[sub + 12 + 3 * i] = (unsigned char)(255 - i);
    sub += 6 + 2 + 2 + 768;
    put32(b + sub, 6 + 8), put16(b + sub + 4, 16);
    for (i = 0; i < 8; i++) {
        b[sub + 6 + i] = (unsigned char)(i * 30);
        want[i] = 0xFF008000u | ((uint32_t)(i * 30) << 16) | (uint32_t)(255 - i * 30);
    }
    sub += 14;
    put32(b + at, (unsigned long)(sub - at));
    n = sub;
    expect_picture(b, n, 4, 2, want);
    /* BLACK instead of COPY: index 0 everywhere */
    put16(b + sub - 14 + 4, 13);
    for (i = 0; i < 8; i++)
        want[i] = 0xFF0080FFu;
    expect_picture(b, n, 4, 2, want);
}

static void test_pro_cel_broken(void **state)
{
    unsigned char b[256];
    size_t n = pro_cel(b, 0xAF12), brun = 128 + 10 + 16 + 16;
    (void)state;
    expect_refused(b, 127, "needs 128 bytes", 127);
    /* a run of 5 on a line of 4 */
    b[brun + 7] = 5;
    expect_refused(b, n, "run beyond the line", brun + 8);
    b[brun + 7] = 0;
    expect_refused(b, n, "empty run", brun + 8);
    b[brun + 7] = 0xFB; /* 5 literals */
    expect_refused(b, n, "run beyond the line", brun + 8);
    n = pro_cel(b, 0xAF12);
    /* the frame's size one beyond the file */
    put32(b + 138, (unsigned long)(n - 138 + 1));
    expect_refused(b, n, "chunk size beyond the file", 138);
    /* a frame that is not 0xF1FA: no pixels at all */
    n = pro_cel(b, 0xAF12);
    put16(b + 138 + 4, 0xF1FB);
    expect_refused(b, n, "no frame with pixels", n);
    /* the palette packet says 2 colours and holds 1 */
    n = pro_cel(b, 0xAF12);
    put32(b + 154, 13);
    put32(b + 138, 16 + 13);
    put16(b + 138 + 6, 1);
    expect_refused(b, 138 + 16 + 13, "palette colours cut short", 154 + 6 + 4);
}

static void test_not_animator(void **state)
{
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', 13, 10, 26, 10 };
    (void)state;
    assert_int_equal(cel_kind(png, sizeof png), CEL_NONE);
    assert_int_equal(cel_kind(png, 0), CEL_NONE);
    expect_refused(png, sizeof png, "not an Animator CEL or PIC picture", 0);
    expect_refused(png, 0, "not an Animator CEL or PIC picture", 0);
    /* a magic cut short is no magic */
    assert_int_equal(cel_kind((const unsigned char *)"\x19", 1), CEL_NONE);
    assert_int_equal(cel_kind((const unsigned char *)"\0\0\0\0\x00\x95", 5), CEL_NONE);
}

/* The sample map data/checker.cel (made by mk3ds): 64 x 64, squares of 8
 * pixels, palette 1 (59,58,55) where x/8 + y/8 is even, 2 (13,18,30) where
 * odd: 0xFFEEEADE and 0xFF344879 scaled by 255/63. */
static void test_sample_checker(void **state)
{
    size_t n, x, y;
    unsigned char *b = support_read_file("data/checker.cel", &n);
    cel_picture pic;
    char why[200];
    (void)state;
    if (!b) {
        print_message("data/checker.cel not found: run the tests from the repository root "
                      "(make samples writes it)\n");
        skip();
    }
    assert_int_equal(cel_decode(b, n, &pic, why, sizeof why, NULL), 0);
    assert_int_equal(pic.width, 64);
    assert_int_equal(pic.height, 64);
    for (y = 0; y < 64; y++)
        for (x = 0; x < 64; x++)
            assert_int_equal(pic.pixels[y * 64 + x],
                             (x / 8 + y / 8) % 2 == 0 ? 0xFFEEEADEu : 0xFF344879u);
    free(pic.pixels);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_animator1),      support_unit_test(test_animator1_broken),
        support_unit_test(test_pro_pic),        support_unit_test(test_pro_pic_bits),
        support_unit_test(test_pro_pic_broken), support_unit_test(test_pro_cel),
        support_unit_test(test_pro_cel_copy_black_256), support_unit_test(test_pro_cel_broken),
        support_unit_test(test_not_animator),   support_unit_test(test_sample_checker),
    };
    return support_run_tests(tests, NULL, NULL);
}
