/* Small pictures in other formats than PNG, written byte by byte for the
 * suites that hand texture maps to the command (tests/front/test_png_maps.c,
 * test_png_export.c). Plain C, no libpng: it goes into libsupport.a. */
#ifndef KF3DS_TEST_SUPPORT_PICTURES_H
#define KF3DS_TEST_SUPPORT_PICTURES_H
#include <stdint.h>

/* Little-endian 16- and 32-bit fields. */
void support_put16(unsigned char *p, unsigned v);
void support_put32(unsigned char *p, unsigned long v);

/* A pixel of a picture being written: 0xRRGGBB at (x, y), top row first. */
typedef uint32_t (*support_pixel_fn)(int x, int y, void *user);

/* A 24-bit BMP of w × h pixels (at most 64 × 64), rows stored bottom-up and
 * padded to 4 bytes. Fails the test when it cannot be written. */
void support_write_bmp(const char *path, int w, int h, support_pixel_fn pixel, void *user);

/* An Animator 1 CEL of SUPPORT_CEL_W × SUPPORT_CEL_H pixels, every pixel
 * palette index 7 = SUPPORT_CEL_RGB6 in 6-bit channels. */
#define SUPPORT_CEL_W 6
#define SUPPORT_CEL_H 4
#define SUPPORT_CEL_R6 40
#define SUPPORT_CEL_G6 20
#define SUPPORT_CEL_B6 60
void support_write_cel_animator1(const char *path);

#endif
