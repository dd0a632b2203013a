/* Pictures in other formats than PNG (support_pictures.h). */
#include "support_pictures.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "support.h"

void support_put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

void support_put32(unsigned char *p, unsigned long v)
{
    support_put16(p, (unsigned)(v & 0xFFFF));
    support_put16(p + 2, (unsigned)(v >> 16));
}

#define BMP_MAX 64

void support_write_bmp(const char *path, int w, int h, support_pixel_fn pixel, void *user)
{
    static unsigned char f[54 + BMP_MAX * (BMP_MAX * 3 + 3)];
    size_t row = ((size_t)w * 3 + 3) & ~(size_t)3, size = 54 + row * (size_t)h;
    int x, y;
    assert_true(w > 0 && h > 0 && w <= BMP_MAX && h <= BMP_MAX);
    memset(f, 0, size);
    f[0] = 'B';
    f[1] = 'M';
    support_put32(f + 2, (unsigned long)size);
    support_put32(f + 10, 54);
    support_put32(f + 14, 40);
    support_put32(f + 18, (unsigned long)w);
    support_put32(f + 22, (unsigned long)h);
    support_put16(f + 26, 1);
    support_put16(f + 28, 24);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            uint32_t c = pixel(x, h - 1 - y, user); /* the bottom row first */
            unsigned char *p = f + 54 + row * (size_t)y + 3 * (size_t)x;
            p[0] = (unsigned char)c;
            p[1] = (unsigned char)(c >> 8);
            p[2] = (unsigned char)(c >> 16);
        }
    support_write_file(path, f, size);
}

void support_write_cel_animator1(const char *path)
{
    unsigned char f[800 + SUPPORT_CEL_W * SUPPORT_CEL_H];
    memset(f, 0, sizeof f);
    support_put16(f, 0x9119);
    support_put16(f + 2, SUPPORT_CEL_W);
    support_put16(f + 4, SUPPORT_CEL_H);
    f[10] = 8;
    support_put32(f + 12, SUPPORT_CEL_W * SUPPORT_CEL_H);
    f[32 + 3 * 7] = SUPPORT_CEL_R6; /* the 256-entry palette from byte 32 */
    f[33 + 3 * 7] = SUPPORT_CEL_G6;
    f[34 + 3 * 7] = SUPPORT_CEL_B6;
    memset(f + 800, 7, SUPPORT_CEL_W * SUPPORT_CEL_H);
    support_write_file(path, f, sizeof f);
}
