/* Writing a framebuffer as PNG through libpng (8-bit RGB, no alpha: every
 * pixel of a rendered frame is opaque). Shared by `kf3ds render` and the
 * viewer's --screenshot. */
#include "cmd.h"
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

/* What the libpng callbacks share with the writer. */
typedef struct png_sink {
    FILE *file;
    char message[200];   /* the first libpng error, or the write error */
    int write_errno;     /* errno of a failed fwrite/fflush, 0 when none */
} png_sink;

static void sink_message(png_sink *sink, const char *msg)
{
    if (sink->message[0])
        return;
    snprintf(sink->message, sizeof sink->message, "%s", msg ? msg : "libpng error");
}

/* libpng's error handler must not return: it jumps back to the setjmp. */
static void on_png_error(png_structp png, png_const_charp msg)
{
    png_sink *sink = (png_sink *)png_get_error_ptr(png);
    if (sink)
        sink_message(sink, msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* nothing a user could act on */
}

/* Our own write and flush callbacks, so that a short write (disk full) is
 * seen with its errno instead of being lost in stdio's buffer. */
static void on_png_write(png_structp png, png_bytep data, size_t len)
{
    png_sink *sink = (png_sink *)png_get_io_ptr(png);
    errno = 0;
    if (fwrite(data, 1, len, sink->file) != len) {
        sink->write_errno = errno ? errno : EIO;
        png_error(png, strerror(sink->write_errno));
    }
}

static void on_png_flush(png_structp png)
{
    png_sink *sink = (png_sink *)png_get_io_ptr(png);
    errno = 0;
    if (fflush(sink->file) != 0) {
        sink->write_errno = errno ? errno : EIO;
        png_error(png, strerror(sink->write_errno));
    }
}

/* Writes the rows of fb, converting 0xAARRGGBB to R, G, B bytes. */
static void encode_rows(png_structp png, const kf3ds_framebuffer *fb, png_bytep row)
{
    int x, y;
    for (y = 0; y < fb->height; y++) {
        const uint32_t *src = fb->color + (size_t)y * (size_t)fb->width;
        for (x = 0; x < fb->width; x++) {
            uint32_t c = src[x];
            row[3 * x] = (png_byte)(c >> 16);
            row[3 * x + 1] = (png_byte)(c >> 8);
            row[3 * x + 2] = (png_byte)c;
        }
        png_write_row(png, row);
    }
}

/* Encodes fb into sink->file. Returns 0 on success. Every local that the
 * jump could leave stale is set before setjmp and not changed after it. */
static int encode(png_sink *sink, const kf3ds_framebuffer *fb, png_bytep row)
{
    png_structp png;
    png_infop info;
    png_text text[1];
    static char key[] = "Software", value[] = "kf3ds " KF3DS_VERSION_STRING;

    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_png_error, on_png_warning);
    if (!png) {
        sink_message(sink, "out of memory");
        return -1;
    }
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        sink_message(sink, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, sink, on_png_write, on_png_flush);
    png_set_IHDR(png, info, (png_uint_32)fb->width, (png_uint_32)fb->height, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    memset(text, 0, sizeof text);
    text[0].compression = PNG_TEXT_COMPRESSION_NONE;
    text[0].key = key;
    text[0].text = value;
    png_set_text(png, info, text, 1);
    png_write_info(png, info);
    encode_rows(png, fb, row);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

/* PNG allows 2^31 - 1; libpng refuses more than this by default. */
#define PNG_MAX_SIDE 1000000

int cli_write_png(const char *path, const kf3ds_framebuffer *fb)
{
    png_sink sink;
    png_bytep row;
    cli_output out;
    int status;

    memset(&sink, 0, sizeof sink);
    if (!path)
        path = "-";
    if (!fb || !fb->color || fb->width < 1 || fb->height < 1 || fb->width > PNG_MAX_SIDE ||
        fb->height > PNG_MAX_SIDE) {
        cli_print_error(path, "cannot write: bad image size %dx%d", fb ? fb->width : 0,
                        fb ? fb->height : 0);
        return -1;
    }
    row = malloc((size_t)fb->width * 3);
    if (!row) {
        cli_print_error(path, "cannot write: %s", strerror(ENOMEM));
        return -1;
    }
    /* A temporary file renamed into place: no truncated picture is left
     * behind (docs/output.md, "Output files"). */
    if (cli_output_open(&out, path) != 0) {
        free(row);
        return -1;
    }
    sink.file = out.file;
    status = encode(&sink, fb, row);
    free(row);
    if (status != 0) {
        cli_output_abort(&out);
        if (sink.write_errno)
            cli_print_error(path, "cannot write: %s", strerror(sink.write_errno));
        else
            cli_print_error(path, "cannot write: %s",
                            sink.message[0] ? sink.message : "libpng error");
        return -1;
    }
    return cli_output_close(&out);
}
