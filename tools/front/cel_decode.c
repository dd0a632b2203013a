/* Autodesk Animator pictures, which DOS-era 3DS files use as maps and no
 * image library reads (docs/format.md, 'Animator CEL and PIC pictures'):
 *   - Animator 1 CEL/PIC: u16 0x9119 at 0, a 32-byte header, a 256-colour
 *     palette in 6-bit units, then width × height palette indices;
 *   - Animator Pro PIC: u16 0x9500 at 4, a 64-byte header, then chunks
 *     (u32 size, u16 type): 0 palette (u16 version, RGB triples 0..255),
 *     1 byte pixels, 2 bit pixels (1 bit each, rows padded to bytes);
 *   - Animator Pro CEL: a FLC (u16 0xAF12 at 4; 0xAF11, a FLI, too), whose
 *     first frame chunk (0xF1FA) holds the palette (4 COLOR_256, 11 COLOR_64)
 *     and the pixels (15 BRUN run-length, 16 COPY raw, 13 BLACK).
 * Every read is bounds-checked; a picture that is cut short or contradicts
 * itself is an error naming the byte offset. */
#include "cel_decode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cel_in {
    const unsigned char *p;
    size_t n;
    char *why;
    size_t why_cap;
    size_t *bad_at;
} cel_in;

static unsigned u16at(const unsigned char *p) { return (unsigned)p[0] | ((unsigned)p[1] << 8); }
static unsigned long u32at(const unsigned char *p)
{
    return (unsigned long)p[0] | ((unsigned long)p[1] << 8) | ((unsigned long)p[2] << 16) |
           ((unsigned long)p[3] << 24);
}

static int fail(const cel_in *in, size_t at, const char *what)
{
    snprintf(in->why, in->why_cap, "%s", what);
    if (in->bad_at)
        *in->bad_at = at;
    return -1;
}

int cel_kind(const unsigned char *p, size_t n)
{
    if (n >= 2 && u16at(p) == 0x9119)
        return CEL_ANIMATOR1;
    if (n >= 6 && u16at(p + 4) == 0x9500)
        return CEL_PRO_PIC;
    if (n >= 6 && (u16at(p + 4) == 0xAF12 || u16at(p + 4) == 0xAF11))
        return CEL_PRO_CEL;
    return CEL_NONE;
}

/* A grey ramp for pictures without a palette (Animator's own default
 * palette is not part of the file). */
static void grey_palette(uint32_t pal[256])
{
    int i;
    for (i = 0; i < 256; i++)
        pal[i] = 0xFF000000u | ((uint32_t)i * 0x010101u);
}

static int check_size(const cel_in *in, size_t at, unsigned w, unsigned h)
{
    if (w == 0 || h == 0 || w > CEL_MAX_SIDE || h > CEL_MAX_SIDE ||
        (long)w * (long)h > CEL_MAX_PIXELS)
        return fail(in, at, "width or height out of range");
    return 0;
}

static void indexed(const unsigned char *idx, size_t count, const uint32_t pal[256], uint32_t *out)
{
    size_t i;
    for (i = 0; i < count; i++)
        out[i] = pal[idx[i]];
}

static int decode_animator1(const cel_in *in, cel_picture *pic)
{
    uint32_t pal[256];
    unsigned w, h, i;
    if (in->n < 800)
        return fail(in, in->n, "header and palette cut short (needs 800 bytes)");
    w = u16at(in->p + 2);
    h = u16at(in->p + 4);
    if (check_size(in, 2, w, h))
        return -1;
    if (in->p[10] != 8)
        return fail(in, 10, "depth is not 8 bits");
    if (in->n - 800 < (size_t)w * h)
        return fail(in, in->n, "pixels cut short");
    for (i = 0; i < 256; i++) {
        const unsigned char *c = in->p + 32 + 3 * i;
        pal[i] = 0xFF000000u | ((uint32_t)((c[0] & 63) * 255 / 63) << 16) |
                 ((uint32_t)((c[1] & 63) * 255 / 63) << 8) | (uint32_t)((c[2] & 63) * 255 / 63);
    }
    pic->pixels = malloc((size_t)w * h * sizeof *pic->pixels);
    if (!pic->pixels)
        return fail(in, 0, "out of memory");
    indexed(in->p + 800, (size_t)w * h, pal, pic->pixels);
    pic->width = (int)w;
    pic->height = (int)h;
    return 0;
}

static int decode_pro_pic(const cel_in *in, cel_picture *pic)
{
    uint32_t pal[256];
    unsigned w, h;
    size_t at = 64, pixels_at = 0;
    int have_pixels = 0;
    if (in->n < 64)
        return fail(in, in->n, "header cut short (needs 64 bytes)");
    w = u16at(in->p + 6);
    h = u16at(in->p + 8);
    if (check_size(in, 6, w, h))
        return -1;
    grey_palette(pal);
    pic->pixels = calloc((size_t)w * h, sizeof *pic->pixels);
    if (!pic->pixels)
        return fail(in, 0, "out of memory");
    while (at + 6 <= in->n) {
        unsigned long size = u32at(in->p + at);
        unsigned type = u16at(in->p + at + 4);
        const unsigned char *body = in->p + at + 6;
        size_t len;
        if (size < 6 || size > in->n - at)
            return fail(in, at, "chunk size beyond the file");
        len = (size_t)size - 6;
        if (type == 0) { /* palette: u16 version, then RGB triples */
            size_t i, count = len >= 2 ? (len - 2) / 3 : 0;
            for (i = 0; i < count && i < 256; i++) {
                const unsigned char *c = body + 2 + 3 * i;
                pal[i] = 0xFF000000u | ((uint32_t)c[0] << 16) | ((uint32_t)c[1] << 8) | c[2];
            }
        } else if (type == 1) {
            if (len < (size_t)w * h)
                return fail(in, at, "pixel chunk shorter than width x height");
            have_pixels = 1; /* resolved below: the palette may come later */
            pixels_at = at + 6;
        } else if (type == 2) {
            size_t bpr = (w + 7) / 8, y, x;
            if (len < bpr * h)
                return fail(in, at, "bit chunk shorter than its rows");
            for (y = 0; y < h; y++)
                for (x = 0; x < w; x++)
                    pic->pixels[y * w + x] =
                        (body[y * bpr + x / 8] >> (7 - x % 8)) & 1 ? 0xFFFFFFFFu : 0xFF000000u;
            have_pixels = 2;
        }
        at += (size_t)size;
    }
    if (!have_pixels)
        return fail(in, in->n, "no pixel chunk");
    if (have_pixels == 1)
        indexed(in->p + pixels_at, (size_t)w * h, pal, pic->pixels);
    pic->width = (int)w;
    pic->height = (int)h;
    return 0;
}

/* The first frame of a FLC/FLI: palette and pixels into idx/pal. */
static int decode_frame(const cel_in *in, size_t at, size_t end, unsigned w, unsigned h,
                        unsigned char *idx, uint32_t pal[256], int *have_pixels)
{
    unsigned n, k;
    if (end - at < 16)
        return fail(in, at, "frame header cut short");
    n = u16at(in->p + at + 6);
    at += 16;
    for (k = 0; k < n && at + 6 <= end; k++) {
        unsigned long size = u32at(in->p + at);
        unsigned type = u16at(in->p + at + 4);
        const unsigned char *b = in->p + at + 6;
        size_t len, pos = 0;
        if (size < 6 || size > end - at)
            return fail(in, at, "frame chunk size beyond the frame");
        len = (size_t)size - 6;
        if (type == 4 || type == 11) { /* COLOR_256 / COLOR_64 */
            unsigned packets, pk, c = 0;
            if (len < 2)
                return fail(in, at, "palette chunk cut short");
            packets = u16at(b);
            pos = 2;
            for (pk = 0; pk < packets; pk++) {
                unsigned count, i;
                if (pos + 2 > len)
                    return fail(in, at + 6 + pos, "palette packet cut short");
                c += b[pos];
                count = b[pos + 1] ? b[pos + 1] : 256;
                pos += 2;
                if (pos + 3 * (size_t)count > len)
                    return fail(in, at + 6 + pos, "palette colours cut short");
                for (i = 0; i < count; i++, c++, pos += 3) {
                    unsigned r = b[pos], g = b[pos + 1], bl = b[pos + 2];
                    if (type == 11) {
                        r = (r & 63) * 255 / 63;
                        g = (g & 63) * 255 / 63;
                        bl = (bl & 63) * 255 / 63;
                    }
                    if (c < 256)
                        pal[c] = 0xFF000000u | (r << 16) | (g << 8) | bl;
                }
            }
        } else if (type == 15) { /* BRUN: per line a count byte, then runs */
            size_t y;
            for (y = 0; y < h; y++) {
                size_t x = 0;
                unsigned char *row = idx + y * w;
                if (pos >= len)
                    return fail(in, at + 6 + pos, "run-length line cut short");
                pos++; /* the old packet count, not needed */
                while (x < w) {
                    int c;
                    if (pos >= len)
                        return fail(in, at + 6 + pos, "run-length line cut short");
                    c = (signed char)b[pos++];
                    if (c > 0) { /* one byte, c times */
                        if (pos >= len)
                            return fail(in, at + 6 + pos, "run cut short");
                        if ((size_t)c > w - x)
                            return fail(in, at + 6 + pos, "run beyond the line");
                        memset(row + x, b[pos++], (size_t)c);
                        x += (size_t)c;
                    } else if (c < 0) { /* −c bytes as they are */
                        size_t m = (size_t)(-c);
                        if (m > w - x)
                            return fail(in, at + 6 + pos, "run beyond the line");
                        if (pos + m > len)
                            return fail(in, at + 6 + pos, "literal run cut short");
                        memcpy(row + x, b + pos, m);
                        pos += m;
                        x += m;
                    } else {
                        return fail(in, at + 6 + pos, "empty run");
                    }
                }
            }
            *have_pixels = 1;
        } else if (type == 16) { /* COPY */
            if (len < (size_t)w * h)
                return fail(in, at, "raw pixels cut short");
            memcpy(idx, b, (size_t)w * h);
            *have_pixels = 1;
        } else if (type == 13) { /* BLACK */
            memset(idx, 0, (size_t)w * h);
            *have_pixels = 1;
        }
        at += (size_t)size;
    }
    return 0;
}

static int decode_pro_cel(const cel_in *in, cel_picture *pic)
{
    uint32_t pal[256];
    unsigned w, h;
    size_t at;
    unsigned char *idx;
    int have_pixels = 0, r = 0;
    if (in->n < 128)
        return fail(in, in->n, "header cut short (needs 128 bytes)");
    w = u16at(in->p + 8);
    h = u16at(in->p + 10);
    if (check_size(in, 8, w, h))
        return -1;
    at = u16at(in->p + 4) == 0xAF12 && u32at(in->p + 80) ? (size_t)u32at(in->p + 80) : 128;
    grey_palette(pal);
    idx = calloc((size_t)w * h, 1);
    if (!idx)
        return fail(in, 0, "out of memory");
    /* chunks until the first frame: the prefix (0xF100, with the CEL data) is skipped */
    while (r == 0 && at + 6 <= in->n) {
        unsigned long size = u32at(in->p + at);
        unsigned type = u16at(in->p + at + 4);
        if (size < 6 || size > in->n - at) {
            r = fail(in, at, "chunk size beyond the file");
            break;
        }
        if (type == 0xF1FA) {
            r = decode_frame(in, at, at + (size_t)size, w, h, idx, pal, &have_pixels);
            break;
        }
        at += (size_t)size;
    }
    if (r == 0 && !have_pixels)
        r = fail(in, at < in->n ? at : in->n, "no frame with pixels");
    if (r == 0) {
        pic->pixels = malloc((size_t)w * h * sizeof *pic->pixels);
        if (!pic->pixels)
            r = fail(in, 0, "out of memory");
        else {
            indexed(idx, (size_t)w * h, pal, pic->pixels);
            pic->width = (int)w;
            pic->height = (int)h;
        }
    }
    free(idx);
    return r;
}

int cel_decode(const unsigned char *data, size_t size, cel_picture *pic, char *why, size_t why_cap,
               size_t *bad_at)
{
    cel_in in;
    int r;
    in.p = data;
    in.n = size;
    in.why = why;
    in.why_cap = why_cap;
    in.bad_at = bad_at;
    memset(pic, 0, sizeof *pic);
    switch (cel_kind(data, size)) {
    case CEL_ANIMATOR1: r = decode_animator1(&in, pic); break;
    case CEL_PRO_PIC: r = decode_pro_pic(&in, pic); break;
    case CEL_PRO_CEL: r = decode_pro_cel(&in, pic); break;
    default: return fail(&in, 0, "not an Animator CEL or PIC picture");
    }
    if (r != 0) {
        free(pic->pixels);
        memset(pic, 0, sizeof *pic);
    }
    return r;
}
