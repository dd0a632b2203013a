/* Pictures the kf3ds command wrote, read back with libpng, for the suites
 * that link libpng (tests/front/test_png_*.c). Header only: support.c is linked
 * into every suite, and the others do not link libpng. Include it after
 * cmocka.h. */
#ifndef KF3DS_TEST_SUPPORT_PNG_H
#define KF3DS_TEST_SUPPORT_PNG_H
#include <png.h>
#include <stdlib.h>
#include <string.h>

/* A picture as 8-bit RGB. */
typedef struct picture {
    unsigned char *rgb; /* width * height * 3 bytes; free with free() */
    int width, height;
} picture;

/* Reads a PNG the command wrote (RGB, no alpha); fails the test when it is
 * not one. */
static inline picture support_read_png(const char *path)
{
    png_image image;
    picture p;
    memset(&image, 0, sizeof image);
    memset(&p, 0, sizeof p);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        fail_msg("%s: not a readable PNG: %s", path, image.message);
    assert_int_equal(image.format & PNG_FORMAT_FLAG_ALPHA, 0); /* written as RGB */
    image.format = PNG_FORMAT_RGB;
    p.rgb = (unsigned char *)malloc(PNG_IMAGE_SIZE(image));
    assert_non_null(p.rgb);
    if (!png_image_finish_read(&image, NULL, p.rgb, 0, NULL)) {
        free(p.rgb);
        fail_msg("%s: cannot decode the PNG: %s", path, image.message);
    }
    p.width = (int)image.width;
    p.height = (int)image.height;
    png_image_free(&image);
    return p;
}

/* Distinct colours, counted up to `stop` (64 at the most). */
static inline int support_colours(const picture *p, int stop)
{
    unsigned char seen[64][3];
    int n = 0, k;
    long i, count = (long)p->width * p->height;
    for (i = 0; i < count && n < stop && n < 64; i++) {
        for (k = 0; k < n; k++)
            if (memcmp(seen[k], p->rgb + 3 * i, 3) == 0)
                break;
        if (k == n)
            memcpy(seen[n++], p->rgb + 3 * i, 3);
    }
    return n;
}

/* Pixels that differ between two pictures of the same size, leaving out the
 * bottom `skip_rows` rows. */
static inline long support_difference(const picture *a, const picture *b, int skip_rows)
{
    long n = 0, i, count;
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    count = (long)a->width * (a->height > skip_rows ? a->height - skip_rows : 0);
    for (i = 0; i < count; i++)
        if (memcmp(a->rgb + 3 * i, b->rgb + 3 * i, 3) != 0)
            n++;
    return n;
}
#endif
