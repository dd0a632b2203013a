/* kf3ds thumbnail and the PNGs of kf3ds convert --to png, read back with
 * libpng: the thumbnail is square, RGBA, transparent where nothing is drawn
 * (its corners) and opaque over the scene; SIZE is its side; a damaged file
 * still gets the picture of what was read; convert's PNGs are the render
 * verb's pictures, mirrored under the output folder. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "support_png.h"

/* A picture as 8-bit RGBA. */
typedef struct rgba_picture {
    unsigned char *px;
    int width, height, had_alpha;
} rgba_picture;

static rgba_picture read_rgba(const char *path)
{
    png_image image;
    rgba_picture p;
    memset(&image, 0, sizeof image);
    memset(&p, 0, sizeof p);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        fail_msg("%s: not a readable PNG: %s", path, image.message);
    p.had_alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
    image.format = PNG_FORMAT_RGBA;
    p.px = malloc(PNG_IMAGE_SIZE(image));
    assert_non_null(p.px);
    if (!png_image_finish_read(&image, NULL, p.px, 0, NULL))
        fail_msg("%s: cannot decode the PNG: %s", path, image.message);
    p.width = (int)image.width;
    p.height = (int)image.height;
    png_image_free(&image);
    return p;
}

static long opaque_pixels(const rgba_picture *p)
{
    long n = 0, i;
    for (i = 0; i < (long)p->width * p->height; i++)
        n += p->px[4 * i + 3] == 255;
    return n;
}

static void test_thumbnail_transparent_and_square(void **state)
{
    char out[4096];
    rgba_picture p;
    long opaque;
    (void)state;
    support_path(out, sizeof out, support_tmpdir(), "arm-thumb.png");
    support_run_ok(NULL, "thumbnail", "data/arm.3ds", out, "96", "-q", NULL);
    p = read_rgba(out);
    assert_int_equal(p.width, 96);
    assert_int_equal(p.height, 96);
    assert_true(p.had_alpha);
    /* the corners are background: transparent */
    assert_int_equal(p.px[3], 0);
    assert_int_equal(p.px[4 * (96 * 96 - 1) + 3], 0);
    /* the arm covers part of the picture, framed: not all of it, not nothing */
    opaque = opaque_pixels(&p);
    assert_true(opaque > 96 * 96 / 50);
    assert_true(opaque < 96 * 96 * 9 / 10);
    free(p.px);
}

static void test_thumbnail_default_size_and_textures(void **state)
{
    char out[4096];
    rgba_picture p;
    long i, reddish = 0;
    (void)state;
    support_path(out, sizeof out, support_tmpdir(), "textured-thumb.png");
    support_run_ok(NULL, "thumbnail", "data/textured.3ds", out, "-q", NULL);
    p = read_rgba(out);
    assert_int_equal(p.width, 256);
    assert_int_equal(p.height, 256);
    /* the brick map (data/brick.bmp) is drawn: red-brown texels on the box */
    for (i = 0; i < 256L * 256; i++)
        if (p.px[4 * i + 3] == 255 && p.px[4 * i] > p.px[4 * i + 2] + 40)
            reddish++;
    assert_true(reddish > 100);
    free(p.px);
}

static void test_thumbnail_damaged_and_usage(void **state)
{
    char cut[4096], out[4096];
    FILE *f, *in;
    unsigned char buf[1000];
    size_t n;
    support_run r;
    (void)state;
    /* a file cut short: its readable meshes still make a picture */
    support_path(cut, sizeof cut, support_tmpdir(), "cut.3ds");
    in = fopen("data/arm.3ds", "rb");
    assert_non_null(in);
    n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    f = fopen(cut, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
    support_path(out, sizeof out, support_tmpdir(), "cut.png");
    support_run_ok(NULL, "thumbnail", cut, out, "32", "-q", NULL);
    free(read_rgba(out).px);
    /* usage errors: no output, a size that is not one */
    r = support_run_tool(NULL, "thumbnail", "data/arm.3ds", NULL);
    support_expect_status(&r, 2);
    support_run_free(&r);
    r = support_run_tool(NULL, "thumbnail", "data/arm.3ds", out, "0", NULL);
    support_expect_status(&r, 2);
    support_run_free(&r);
    /* not a 3DS file: status 1, no picture */
    support_path(out, sizeof out, support_tmpdir(), "none.png");
    r = support_run_tool(NULL, "thumbnail", "data/brick.bmp", out, NULL);
    support_expect_status(&r, 1);
    support_run_free(&r);
    assert_null(fopen(out, "rb"));
}

static void test_convert_png_read_back(void **state)
{
    char dir[4096], path[4096];
    picture p;
    (void)state;
    support_path(dir, sizeof dir, support_tmpdir(), "convert-png");
    support_run_ok(NULL, "convert", "data/arm.3ds", "data/textured.3ds", "--to", "png", "-o",
                   dir, "--size", "160x120", "-j", "2", "-q", NULL);
    support_path(path, sizeof path, dir, "arm.png");
    p = support_read_png(path);
    assert_int_equal(p.width, 160);
    assert_int_equal(p.height, 120);
    free(p.rgb);
    support_path(path, sizeof path, dir, "textured.png");
    p = support_read_png(path);
    assert_int_equal(p.width, 160);
    free(p.rgb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thumbnail_transparent_and_square),
        cmocka_unit_test(test_thumbnail_default_size_and_textures),
        cmocka_unit_test(test_thumbnail_damaged_and_usage),
        cmocka_unit_test(test_convert_png_read_back),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
