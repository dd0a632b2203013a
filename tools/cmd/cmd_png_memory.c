/* A decoded picture encoded as PNG into memory through libpng, for `kf3ds
 * export`: glTF holds PNG and JPEG only, so maps in other formats are
 * re-encoded (docs/gltf.md, "Materials"). An opaque picture of at most 256
 * colours (most 3DS-era maps: 8-bit BMP, CEL, GIF, PCX) as a palette PNG,
 * which keeps the copy near the original's size; other opaque ones RGB,
 * the rest RGBA. No time or text chunks, so the same picture gives the same
 * bytes on every run. */
#include "cmd.h"
#include <png.h>
#include <stdlib.h>
#include <string.h>

/* The growing output and the first libpng error. */
typedef struct png_memory {
    unsigned char *data;
    size_t size, cap;
    char message[200];
} png_memory;

static void memory_error(png_structp png, png_const_charp msg)
{
    png_memory *m = (png_memory *)png_get_error_ptr(png);
    if (m && !m->message[0])
        snprintf(m->message, sizeof m->message, "%s", msg ? msg : "libpng error");
    png_longjmp(png, 1);
}

static void memory_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* nothing a user could act on */
}

static void memory_write(png_structp png, png_bytep data, size_t len)
{
    png_memory *m = (png_memory *)png_get_io_ptr(png);
    if (len > m->cap - m->size) {
        size_t cap = m->cap ? m->cap : 4096;
        unsigned char *p;
        while (cap - m->size < len) {
            if (cap > ((size_t)-1) / 2)
                png_error(png, "out of memory");
            cap *= 2;
        }
        p = realloc(m->data, cap);
        if (!p)
            png_error(png, "out of memory");
        m->data = p;
        m->cap = cap;
    }
    memcpy(m->data + m->size, data, len);
    m->size += len;
}

static void memory_flush(png_structp png)
{
    (void)png;
}

#define PALETTE_MAX 256
#define PALETTE_SLOTS 1024 /* open addressing, at most a quarter full */

/* The picture's colours in first-seen order into palette[] (0xRRGGBB) and
 * each pixel's index into idx[] (when not NULL); the number of colours, or
 * 0 when there are more than PALETTE_MAX. */
static int palette_of(const uint32_t *argb, size_t count, uint32_t palette[PALETTE_MAX],
                      unsigned char *idx)
{
    uint32_t key[PALETTE_SLOTS];
    short slot_index[PALETTE_SLOTS];
    size_t i;
    int n = 0;
    memset(slot_index, 0xFF, sizeof slot_index); /* -1: empty */
    for (i = 0; i < count; i++) {
        uint32_t c = argb[i] & 0xFFFFFFu;
        unsigned h = (unsigned)((c * 2654435761u) >> 22) & (PALETTE_SLOTS - 1);
        while (slot_index[h] >= 0 && key[h] != c)
            h = (h + 1) & (PALETTE_SLOTS - 1);
        if (slot_index[h] < 0) {
            if (n == PALETTE_MAX)
                return 0;
            key[h] = c;
            slot_index[h] = (short)n;
            palette[n++] = c;
        }
        if (idx)
            idx[i] = (unsigned char)slot_index[h];
    }
    return n;
}

/* 1 when some pixel is not fully opaque. */
static int has_alpha(const uint32_t *argb, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        if ((argb[i] >> 24) != 0xFF)
            return 1;
    return 0;
}

/* Encodes the rows; `row` holds one row of channels bytes per pixel
 * (channels 1: palette indices from idx). Every local the jump could leave
 * stale is set before setjmp. */
static int encode(png_memory *m, const uint32_t *argb, int width, int height, int channels,
                  const uint32_t *palette, int colors, const unsigned char *idx, png_bytep row)
{
    png_structp png;
    png_infop info;
    png_color plte[PALETTE_MAX];
    int x, y;
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, m, memory_error, memory_warning);
    if (!png)
        return -1;
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, m, memory_write, memory_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 1   ? PNG_COLOR_TYPE_PALETTE
                 : channels == 4 ? PNG_COLOR_TYPE_RGBA
                                 : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (channels == 1) {
        for (x = 0; x < colors; x++) {
            plte[x].red = (png_byte)(palette[x] >> 16);
            plte[x].green = (png_byte)(palette[x] >> 8);
            plte[x].blue = (png_byte)palette[x];
        }
        png_set_PLTE(png, info, plte, colors);
    }
    png_write_info(png, info);
    for (y = 0; y < height; y++) {
        const uint32_t *src = argb + (size_t)y * (size_t)width;
        if (channels == 1) {
            png_write_row(png, (png_const_bytep)(idx + (size_t)y * (size_t)width));
            continue;
        }
        for (x = 0; x < width; x++) {
            png_bytep p = row + (size_t)x * (size_t)channels;
            p[0] = (png_byte)(src[x] >> 16);
            p[1] = (png_byte)(src[x] >> 8);
            p[2] = (png_byte)src[x];
            if (channels == 4)
                p[3] = (png_byte)(src[x] >> 24);
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

/* libpng refuses sides over a million by default. */
#define PNG_MAX_SIDE 1000000

int cli_encode_png(const uint32_t *argb, int width, int height, unsigned char **out,
                   size_t *size, char *why, size_t why_cap)
{
    png_memory m;
    png_bytep row;
    uint32_t palette[PALETTE_MAX];
    unsigned char *idx = NULL;
    int channels, colors = 0;
    size_t count;
    *out = NULL;
    *size = 0;
    if (!argb || width < 1 || height < 1 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE) {
        snprintf(why, why_cap, "bad picture size %dx%d", width, height);
        return -1;
    }
    count = (size_t)width * (size_t)height;
    channels = has_alpha(argb, count) ? 4 : 3;
    if (channels == 3 && palette_of(argb, count, palette, NULL) > 0) {
        idx = malloc(count);
        if (idx) {
            colors = palette_of(argb, count, palette, idx);
            channels = 1;
        }
    }
    row = malloc((size_t)width * (size_t)channels);
    if (!row) {
        free(idx);
        snprintf(why, why_cap, "out of memory");
        return -1;
    }
    memset(&m, 0, sizeof m);
    if (encode(&m, argb, width, height, channels, palette, colors, idx, row) != 0) {
        free(row);
        free(idx);
        free(m.data);
        snprintf(why, why_cap, "%s", m.message[0] ? m.message : "out of memory");
        return -1;
    }
    free(row);
    free(idx);
    *out = m.data;
    *size = m.size;
    return 0;
}
