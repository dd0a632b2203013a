/* kf3ds export of what glTF cannot hold as it is (docs/gltf.md,
 * "Materials" rule 20 and "Cameras and lights", "Editor-only files"):
 *  - texture maps in other formats than PNG and JPEG (a BMP, a TGA, an
 *    Animator CEL, all written here) are re-encoded as PNG, embedded or
 *    written beside the output, and decode to the pixels of the original
 *    (known by construction, and as SDL2_image decodes the BMP and TGA);
 *    a PNG map goes into the output byte for byte; the corpus's BMP maps
 *    (claw, eye_piece1) decode from their copies as SDL2_image reads them;
 *  - a file without keyframer nodes keeps its editor cameras and lights,
 *    checked in the JSON against hand-derived numbers and as three.js
 *    places them.
 * Every export form (.glb, .gltf + .bin, each with and without
 * --embed-images) passes the Khronos validator with 0 errors and 0
 * warnings. The Node checks skip (with a note) without Node and the npm
 * packages (make npm-tools). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <SDL.h>
#include <SDL_image.h>

#include "support.h"
#include "support_png.h"
#include "support_build.h"
#include "support_node.h"
#include "support_pictures.h"

#define PI 3.14159265358979323846

/* ---- Node tools ----------------------------------------------------------------- */

/* Node.js and the npm packages for the validator and three.js checks. */
static int have_node_tools(void)
{
    return support_have_node_tools("test_png_export");
}

/* The validator on files of the temporary folder: 0 errors, 0 warnings each. */
static void validate(const char *const *names, int n)
{
    char args[8192], path[4200];
    size_t len = 0;
    int i, status;
    char *text;
    args[0] = '\0';
    for (i = 0; i < n; i++) {
        support_tmp_path(path, sizeof path, names[i]);
        len += (size_t)snprintf(args + len, sizeof args - len, " '%s'", path);
        assert_true(len < sizeof args);
    }
    text = support_run_node(&status, "tests/gltf/validate.cjs", args);
    fprintf(stderr, "%s", text);
    assert_int_equal(status, 0);
    for (i = 0; i < n; i++) {
        const char *line = strstr(text, names[i]);
        assert_non_null(line);
        assert_true(strncmp(line + strlen(names[i]), " errors 0 warnings 0", 20) == 0);
    }
    free(text);
}

/* ---- pictures written here -------------------------------------------------- */

/* The BMP: 20×16, every pixel its own colour (320: more than a palette
 * holds, so the copy is an RGB PNG). The TGA: 4×3 with alpha (an RGBA PNG).
 * The CEL below has one colour (a palette PNG). */
#define BW 20
#define BH 16
#define TW 4
#define TH 3

/* Pixel (x, y), top row first, of picture `seed`: 0xAARRGGBB; opaque
 * unless `alpha`. */
static uint32_t pattern(int seed, int x, int y, int alpha)
{
    unsigned r = (unsigned)(12 * x + seed) & 255, g = (unsigned)(15 * y + 3 * seed) & 255,
             b = (unsigned)(3 * x * y + 7) & 255, a = alpha ? (unsigned)(255 - 20 * x - 30 * y) : 255;
    return (uint32_t)a << 24 | (r << 16) | (g << 8) | b;
}

static uint32_t pattern_pixel(int x, int y, void *seed)
{
    return pattern(*(const int *)seed, x, y, 0) & 0xFFFFFFu;
}

/* A 24-bit BMP of the pattern (rows of 60 bytes: no padding). */
static void write_bmp(const char *path, int seed)
{
    support_write_bmp(path, BW, BH, pattern_pixel, &seed);
}

/* An uncompressed 32-bit TGA (type 2) with 8 alpha bits, origin top left
 * (descriptor 0x28), pixels B, G, R, A. */
static void write_tga(const char *path, int seed)
{
    unsigned char f[18 + TW * TH * 4];
    int x, y;
    memset(f, 0, sizeof f);
    f[2] = 2;
    support_put16(f + 12, TW);
    support_put16(f + 14, TH);
    f[16] = 32;
    f[17] = 0x28;
    for (y = 0; y < TH; y++)
        for (x = 0; x < TW; x++) {
            uint32_t c = pattern(seed, x, y, 1);
            unsigned char *p = f + 18 + 4 * (y * TW + x);
            p[0] = (unsigned char)c;
            p[1] = (unsigned char)(c >> 8);
            p[2] = (unsigned char)(c >> 16);
            p[3] = (unsigned char)(c >> 24);
        }
    support_write_file(path, f, sizeof f);
}

#define CW SUPPORT_CEL_W /* the Animator 1 CEL: 6×4, every pixel index 7 */
#define CH SUPPORT_CEL_H
/* Index 7's colour, 6 bits a channel, ×255/63 as Animator's readers do. */
#define CEL_COLOR (0xFF000000u | (uint32_t)(SUPPORT_CEL_R6 * 255 / 63) << 16 | \
                   (uint32_t)(SUPPORT_CEL_G6 * 255 / 63) << 8 | (uint32_t)(SUPPORT_CEL_B6 * 255 / 63))

/* A 2×2 PNG by libpng, its bytes kept for the byte-for-byte check. */
static unsigned char *write_png(const char *path, size_t *size)
{
    static const unsigned char rgb[12] = { 255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 99, 199 };
    png_image image;
    unsigned char *bytes;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = 2;
    image.height = 2;
    image.format = PNG_FORMAT_RGB;
    assert_true(png_image_write_to_file(&image, path, 0, rgb, 0, NULL));
    bytes = support_read_file(path, size);
    assert_non_null(bytes);
    return bytes;
}

/* ---- comparing pixels --------------------------------------------------------- */

/* The expected picture of a map: w × h pixels 0xAARRGGBB. */
typedef struct expected {
    const char *name;          /* the map as the file names it */
    int w, h;
    uint32_t px[BW * BH];
} expected;

static void expect_pattern(expected *e, const char *name, int seed, int w, int h, int alpha)
{
    int x, y;
    e->name = name;
    e->w = w;
    e->h = h;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            e->px[y * w + x] = pattern(seed, x, y, alpha);
}

static void expect_cel(expected *e, const char *name)
{
    int i;
    e->name = name;
    e->w = CW;
    e->h = CH;
    for (i = 0; i < CW * CH; i++)
        e->px[i] = CEL_COLOR;
}

/* 1 when the RGBA pixels are e's. */
static int same_pixels(const expected *e, const unsigned char *rgba, int w, int h)
{
    int i;
    if (w != e->w || h != e->h)
        return 0;
    for (i = 0; i < w * h; i++) {
        uint32_t c = e->px[i];
        if (rgba[4 * i] != (unsigned char)(c >> 16) || rgba[4 * i + 1] != (unsigned char)(c >> 8) ||
            rgba[4 * i + 2] != (unsigned char)c || rgba[4 * i + 3] != (unsigned char)(c >> 24))
            return 0;
    }
    return 1;
}

/* Decodes PNG bytes with libpng as RGBA and compares them with e. */
static int png_bytes_match(const unsigned char *png, size_t size, const expected *e)
{
    png_image image;
    unsigned char *rgba;
    int ok;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, png, size))
        return 0;
    image.format = PNG_FORMAT_RGBA;
    rgba = malloc(PNG_IMAGE_SIZE(image));
    assert_non_null(rgba);
    ok = png_image_finish_read(&image, NULL, rgba, 0, NULL) &&
         same_pixels(e, rgba, (int)image.width, (int)image.height);
    png_image_free(&image);
    free(rgba);
    return ok;
}

/* A picture file decoded by SDL2_image (the command's decoder for all but
 * Animator pictures) as R, G, B, A bytes (free them). */
static unsigned char *sdl_rgba(const char *path, int *w, int *h)
{
    SDL_Surface *raw = IMG_Load(path), *s;
    unsigned char *rgba;
    int y;
    if (!raw)
        fail_msg("%s: SDL2_image cannot read it: %s", path, IMG_GetError());
    s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ABGR8888, 0); /* R, G, B, A bytes */
    SDL_FreeSurface(raw);
    assert_non_null(s);
    rgba = malloc((size_t)s->w * (size_t)s->h * 4);
    assert_non_null(rgba);
    SDL_LockSurface(s);
    for (y = 0; y < s->h; y++)
        memcpy(rgba + 4 * (size_t)y * (size_t)s->w,
               (const unsigned char *)s->pixels + (size_t)y * (size_t)s->pitch, 4 * (size_t)s->w);
    SDL_UnlockSurface(s);
    *w = s->w;
    *h = s->h;
    SDL_FreeSurface(s);
    return rgba;
}

/* The original decoded by SDL2_image is the picture written: the expected
 * pixels are the original's. */
static void check_original_sdl(const char *path, const expected *e)
{
    int w, h;
    unsigned char *rgba = sdl_rgba(path, &w, &h);
    support_set_what("%s as SDL2_image reads it", path);
    assert_true(same_pixels(e, rgba, w, h));
    free(rgba);
}

static const unsigned char png_magic[8] = { 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };

static const unsigned char *find_bytes(const unsigned char *hay, size_t n, const unsigned char *needle,
                                       size_t m)
{
    size_t i;
    for (i = 0; m <= n && i <= n - m; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return hay + i;
    return NULL;
}

/* How many of the PNGs stored in `file` (a .glb or .bin) decode to e. */
static int embedded_matches(const unsigned char *data, size_t size, const expected *e)
{
    const unsigned char *p = data;
    int found = 0;
    while ((p = find_bytes(p, size - (size_t)(p - data), png_magic, 8)) != NULL) {
        found += png_bytes_match(p, size - (size_t)(p - data), e);
        p += 8;
    }
    return found;
}

/* ---- the textured scene -------------------------------------------------------- */

static void add_mapped_material(kf3ds_builder *b, const char *name, const char *map)
{
    static const uint8_t grey[3] = { 128, 128, 128 };
    kf3ds_material m = support_material(name, grey);
    m.texture1 = support_map(map);
    assert_true(kf3ds_builder_add_material(b, &m) >= 0);
}

/* maps.3ds: four quads, each with a material mapped by a picture of its own
 * (the names stored in DOS capitals, the files in lower case), no keyframer. */
static void write_mapped_scene(const char *path)
{
    static const float uv[8] = { 0, 0, 1, 0, 1, 1, 0, 1 };
    kf3ds_builder *b = support_builder();
    add_mapped_material(b, "bmp", "BRICK.BMP");
    add_mapped_material(b, "tga", "TILE.TGA");
    add_mapped_material(b, "cel", "LOGO.CEL");
    add_mapped_material(b, "png", "OK.PNG");
    support_build_textured_quad(b, "QuadBmp", uv, "bmp");
    support_build_textured_quad(b, "QuadTga", uv, "tga");
    support_build_textured_quad(b, "QuadCel", uv, "cel");
    support_build_textured_quad(b, "QuadPng", uv, "png");
    support_build_file(b, path);
}

/* The command runs in the test's folder: paths in the temporary one are absolute. */
static support_run export_tmp(const char *in, const char *out, const char *opt1, const char *opt2)
{
    char ip[4200], op[4200];
    support_tmp_path(ip, sizeof ip, in);
    if (strcmp(out, "-") == 0)
        snprintf(op, sizeof op, "-");
    else
        support_tmp_path(op, sizeof op, out);
    return support_run_tool(NULL, "export", ip, "-o", op, opt1, opt2, (char *)NULL);
}

static char *run_export(const char *out, const char *opt)
{
    support_run r = export_tmp("maps.3ds", out, opt, NULL);
    char *text;
    if (r.status != 0)
        fail_msg("export -o %s %s: status %d\n%s", out, opt ? opt : "", r.status, r.err);
    assert_string_equal(r.err, ""); /* every map was found and kept: no warning */
    text = strdup(r.out);
    assert_non_null(text);
    support_run_free(&r);
    return text;
}

static unsigned char *read_tmp(const char *name, size_t *size)
{
    char path[4200];
    unsigned char *data;
    support_tmp_path(path, sizeof path, name);
    data = support_read_file(path, size);
    if (!data)
        fail_msg("%s was not written", path);
    return data;
}

static int tmp_exists(const char *name)
{
    char path[4200];
    struct stat st;
    support_tmp_path(path, sizeof path, name);
    return stat(path, &st) == 0;
}

static void remove_tmp(const char *name)
{
    char path[4200];
    support_tmp_path(path, sizeof path, name);
    remove(path);
}

static void test_maps_reencoded(void **state)
{
    static const char *const copies[3] = { "brick.bmp.png", "tile.tga.png", "logo.cel.png" };
    /* 320 colours: RGB (2); alpha: RGBA (6); one colour: a palette (3) */
    static const unsigned char color_type[3] = { 2, 6, 3 };
    static const char *const forms[4] = { "uri.gltf", "uri.glb", "embed.gltf", "embed.glb" };
    static const char *const image_json[4] = {
        "{\"name\":\"BRICK.BMP\",\"uri\":\"brick.bmp.png\"}",
        "{\"name\":\"TILE.TGA\",\"uri\":\"tile.tga.png\"}",
        "{\"name\":\"LOGO.CEL\",\"uri\":\"logo.cel.png\"}",
        "{\"name\":\"OK.PNG\",\"uri\":\"ok.png\"}",
    };
    char path[4200];
    expected e[3];
    unsigned char *png_map, *data;
    size_t png_size, size;
    char *text;
    int i, k;
    (void)state;
    support_tmp_path(path, sizeof path, "maps.3ds");
    write_mapped_scene(path);
    support_tmp_path(path, sizeof path, "brick.bmp");
    write_bmp(path, 0);
    expect_pattern(&e[0], "brick.bmp", 0, BW, BH, 0);
    check_original_sdl(path, &e[0]);
    support_tmp_path(path, sizeof path, "tile.tga");
    write_tga(path, 7);
    expect_pattern(&e[1], "tile.tga", 7, TW, TH, 1);
    check_original_sdl(path, &e[1]);
    support_tmp_path(path, sizeof path, "logo.cel");
    support_write_cel_animator1(path);
    expect_cel(&e[2], "logo.cel");
    support_tmp_path(path, sizeof path, "ok.png");
    png_map = write_png(path, &png_size);

    /* Referenced by URI: the PNG copies beside the output, named NAME.png. */
    for (k = 0; k < 2; k++) {
        for (i = 0; i < 3; i++)
            remove_tmp(copies[i]);
        text = run_export(forms[k], NULL);
        support_set_what("%s: %s", forms[k], text);
        assert_non_null(strstr(text, ", 3 maps re-encoded as PNG)"));
        free(text);
        for (i = 0; i < 3; i++) {
            data = read_tmp(copies[i], &size);
            support_set_what("%s beside %s", copies[i], forms[k]);
            assert_true(png_bytes_match(data, size, &e[i]));
            assert_true(size > 25);
            assert_int_equal(data[25], color_type[i]); /* IHDR's colour type */
            free(data);
        }
        assert_false(tmp_exists("ok.png.png")); /* a PNG stays as it is */
        data = read_tmp(forms[k], &size); /* the JSON, or the .glb holding it */
        support_set_what("%s's images", forms[k]);
        for (i = 0; i < 4; i++)
            if (!find_bytes(data, size, (const unsigned char *)image_json[i], strlen(image_json[i])))
                fail_msg("%s: no %s in its images", forms[k], image_json[i]);
        free(data);
    }
    if (have_node_tools())
        validate(forms, 2); /* (with the copies beside them) */
    /* Embedded: each picture once in the .glb or the .bin, a PNG map byte for byte. */
    for (i = 0; i < 3; i++)
        remove_tmp(copies[i]);
    for (k = 2; k < 4; k++) {
        text = run_export(forms[k], "--embed-images");
        free(text);
        data = read_tmp(k == 2 ? "embed.bin" : "embed.glb", &size);
        for (i = 0; i < 3; i++) {
            support_set_what("%s in %s", e[i].name, forms[k]);
            assert_int_equal(embedded_matches(data, size, &e[i]), 1);
            assert_false(tmp_exists(copies[i])); /* nothing written beside */
        }
        support_set_what("ok.png in %s", forms[k]);
        assert_non_null(find_bytes(data, size, png_map, png_size));
        free(data);
    }
    free(png_map);
    if (!have_node_tools())
        skip(); /* the exports were checked, but nobody validated them */
    validate(forms + 2, 2);
}

/* Standard output has no folder for the copies: the map is left out with a
 * warning that says what to do, and the export still succeeds. */
static void test_stdout_without_embed(void **state)
{
    char path[4200];
    support_run r;
    (void)state;
    support_tmp_path(path, sizeof path, "maps.3ds");
    write_mapped_scene(path);
    support_tmp_path(path, sizeof path, "brick.bmp");
    write_bmp(path, 0);
    r = export_tmp("maps.3ds", "-", NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "maps.3ds: texture map '"));
    assert_non_null(strstr(r.err, "brick.bmp' is neither PNG nor JPEG and its PNG copy has no "
                                  "place beside standard output (use --embed-images); left out\n"));
    support_run_free(&r);
}

/* A map that cannot be decoded (an Animator CEL cut short) is left out with
 * a warning naming it and why; the export goes on with the others. */
static void test_undecodable_map(void **state)
{
    char path[4200];
    unsigned char cut[40];
    support_run r;
    (void)state;
    support_tmp_path(path, sizeof path, "maps.3ds");
    write_mapped_scene(path);
    support_tmp_path(path, sizeof path, "brick.bmp");
    write_bmp(path, 0);
    memset(cut, 0, sizeof cut);
    support_put16(cut, 0x9119); /* Animator 1's magic, then far too few bytes */
    support_put16(cut + 2, CW);
    support_put16(cut + 4, CH);
    support_tmp_path(path, sizeof path, "logo.cel");
    support_write_file(path, cut, sizeof cut);
    r = export_tmp("maps.3ds", "cut.glb", "--embed-images", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "logo.cel' is neither PNG nor JPEG and cannot be decoded ("));
    assert_non_null(strstr(r.out, "re-encoded as PNG)")); /* the BMP still is */
    support_run_free(&r);
}

/* ---- the editor-only scene ------------------------------------------------------ */

/* editor.3ds: a quad, two cameras looking from −y at the origin (lens 48 mm
 * and no roll; lens 24 mm and roll 30°), an omni light and a spotlight
 * straight above the origin (hotspot 30°, falloff 60°); no keyframer. */
static void write_editor_scene(const char *path)
{
    static const float uv[8] = { 0, 0, 1, 0, 1, 1, 0, 1 };
    static const uint8_t grey[3] = { 128, 128, 128 };
    static const float cam_pos[3] = { 0, -10, 0 }, origin[3] = { 0, 0, 0 };
    static const float omni_pos[3] = { 1, 2, 3 }, omni_color[3] = { 1.0f, 0.5f, 0.25f };
    static const float spot_pos[3] = { 0, 0, 10 }, spot_color[3] = { 0.2f, 0.4f, 0.6f };
    kf3ds_builder *b = support_builder();
    kf3ds_material m = support_material("grey", grey);
    kf3ds_camera c1 = support_camera("Cam1", cam_pos, origin, 0.0f, 48.0f);
    kf3ds_camera c2 = support_camera("Cam2", cam_pos, origin, 30.0f, 24.0f);
    kf3ds_light omni = support_light("Omni1", omni_pos, omni_color, NULL, 0, 0);
    kf3ds_light spot = support_light("Spot1", spot_pos, spot_color, origin, 30.0f, 60.0f);
    assert_true(kf3ds_builder_add_material(b, &m) >= 0);
    support_build_textured_quad(b, "Quad", uv, "grey");
    assert_true(kf3ds_builder_add_camera(b, &c1) >= 0);
    assert_true(kf3ds_builder_add_camera(b, &c2) >= 0);
    assert_true(kf3ds_builder_add_light(b, &omni) >= 0);
    assert_true(kf3ds_builder_add_light(b, &spot) >= 0);
    support_build_file(b, path);
}

/* The numbers after `key` in the object that starts at `from` (n of them,
 * an array when n > 1); the test fails when they are not there. */
static void json_numbers(const char *from, const char *key, double *v, int n)
{
    char pattern[64];
    const char *p;
    char *end;
    int i;
    snprintf(pattern, sizeof pattern, "\"%s\":%s", key, n > 1 ? "[" : "");
    p = strstr(from, pattern);
    if (!p)
        fail_msg("no %s after '%.60s'", pattern, from);
    p += strlen(pattern);
    for (i = 0; i < n; i++) {
        v[i] = strtod(p, &end);
        assert_true(end != p);
        p = end + 1;
    }
}

/* The text from the first "{\"name\":\"NAME\"" after `section`. */
static const char *json_object(const char *doc, const char *section, const char *name)
{
    char pattern[128];
    const char *s = strstr(doc, section), *p;
    assert_non_null(s);
    snprintf(pattern, sizeof pattern, "{\"name\":\"%s\"", name);
    p = strstr(s, pattern);
    if (!p)
        fail_msg("no %s in %s", name, section);
    return p;
}

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: %.9g, expected %.9g", what, got, want);
}

/* The hand-derived values, in 3DS's Z-up world (the nodes hang under the
 * root that turns it into glTF's Y-up):
 *  - Cam1, Cam2 at (0, −10, 0) looking along +y, up +z: the look-at's
 *    camera-to-world rotation has columns x = (1, 0, 0), y = (0, 0, 1),
 *    z = (0, −1, 0), Rx(90°), q = (sin 45°, 0, 0, cos 45°). Roll 30° turns
 *    x to cos 30°·x + sin 30°·up (docs/evaluation.md, "Cameras": ρ = −roll),
 *    Rx(90°)·Rz(30°), q = (s45·c15, −s45·s15, c45·s15, c45·c15).
 *  - yfov = 2400 / lens degrees: 50° and 100°.
 *  - Spot1 at (0, 0, 10) looking down: forward (0, 0, −1), world up falls
 *    back to (−1, 0, 0), right = f × up = (0, 1, 0), up' = (−1, 0, 0):
 *    columns (0, 1, 0), (−1, 0, 0), (0, 0, 1), Rz(90°), q = (0, 0, s45, c45);
 *    cones half the falloff and hotspot: 30° and 15°. */
static const double s45 = 0.70710678118654752, c15 = 0.96592582628906829,
                    s15 = 0.25881904510252076;

static void check_editor_json(const char *doc)
{
    double v[4];
    const char *o;
    /* nodes */
    o = json_object(doc, "\"nodes\":", "Cam1");
    json_numbers(o, "translation", v, 3);
    near(v[0], 0, 0, "Cam1 x");
    near(v[1], -10, 0, "Cam1 y");
    near(v[2], 0, 0, "Cam1 z");
    json_numbers(o, "rotation", v, 4);
    near(v[0], s45, 1e-7, "Cam1 qx");
    near(v[1], 0, 1e-7, "Cam1 qy");
    near(v[2], 0, 1e-7, "Cam1 qz");
    near(v[3], s45, 1e-7, "Cam1 qw");
    o = json_object(doc, "\"nodes\":", "Cam2");
    json_numbers(o, "rotation", v, 4);
    near(v[0], s45 * c15, 1e-6, "Cam2 qx");
    near(v[1], -s45 * s15, 1e-6, "Cam2 qy");
    near(v[2], s45 * s15, 1e-6, "Cam2 qz");
    near(v[3], s45 * c15, 1e-6, "Cam2 qw");
    o = json_object(doc, "\"nodes\":", "Omni1");
    json_numbers(o, "translation", v, 3);
    near(v[0], 1, 0, "Omni1 x");
    near(v[1], 2, 0, "Omni1 y");
    near(v[2], 3, 0, "Omni1 z");
    {
        /* an omni light has no direction: its node is not rotated */
        const char *next = strstr(o + 1, "{\"name\":"), *rot = strstr(o, "\"rotation\"");
        assert_true(!rot || (next && rot > next));
    }
    o = json_object(doc, "\"nodes\":", "Spot1");
    json_numbers(o, "translation", v, 3);
    near(v[2], 10, 0, "Spot1 z");
    json_numbers(o, "rotation", v, 4);
    near(v[0], 0, 1e-7, "Spot1 qx");
    near(v[1], 0, 1e-7, "Spot1 qy");
    near(v[2], s45, 1e-7, "Spot1 qz");
    near(v[3], s45, 1e-7, "Spot1 qw");
    /* cameras */
    o = json_object(doc, "\"cameras\":", "Cam1");
    assert_true(strncmp(strstr(o, "\"type\""), "\"type\":\"perspective\"", 20) == 0);
    json_numbers(o, "yfov", v, 1);
    near(v[0], 50 * PI / 180, 1e-7, "Cam1 yfov");
    json_numbers(o, "aspectRatio", v, 1);
    near(v[0], 4.0 / 3.0, 1e-12, "Cam1 aspectRatio");
    o = json_object(doc, "\"cameras\":", "Cam2");
    json_numbers(o, "yfov", v, 1);
    near(v[0], 100 * PI / 180, 1e-6, "Cam2 yfov");
    /* lights */
    assert_non_null(strstr(doc, "\"extensionsUsed\":[\"KHR_lights_punctual\"]"));
    o = json_object(doc, "\"KHR_lights_punctual\":{\"lights\":", "Omni1");
    assert_true(strncmp(strstr(o, "\"type\""), "\"type\":\"point\"", 14) == 0);
    json_numbers(o, "color", v, 3);
    near(v[0], 1.0, 0, "Omni1 r");
    near(v[1], 0.5, 0, "Omni1 g");
    near(v[2], 0.25, 0, "Omni1 b");
    json_numbers(o, "intensity", v, 1);
    near(v[0], 1.0, 0, "Omni1 intensity");
    o = json_object(doc, "\"KHR_lights_punctual\":{\"lights\":", "Spot1");
    assert_true(strncmp(strstr(o, "\"type\""), "\"type\":\"spot\"", 13) == 0);
    json_numbers(o, "color", v, 3);
    near(v[1], 0.4, 1e-7, "Spot1 g");
    json_numbers(o, "innerConeAngle", v, 1);
    near(v[0], 15 * PI / 180, 1e-7, "Spot1 inner");
    json_numbers(o, "outerConeAngle", v, 1);
    near(v[0], 30 * PI / 180, 1e-7, "Spot1 outer");
}

/* three.js's world is glTF's Y-up: 3DS (x, y, z) is (x, z, −y). Cam1 at
 * (0, 0, 10) looks down −z unrotated; Cam2 is Rz(30°) there; three.js's
 * fov is yfov in degrees. Spot1 at (0, 10, 0) shines down −y with angle
 * 30° and penumbra 1 − inner/outer = 0.5. */
static void check_editor_three(const char *text)
{
    char name[64], type[16];
    double a[13];
    const char *line;
    int cameras = 0, lights = 0;
    for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (sscanf(line, "camera %63s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", name, &a[0], &a[1],
                   &a[2], &a[3], &a[4], &a[5], &a[6], &a[7], &a[8], &a[9]) == 11) {
            int two = strncmp(name, "Cam2", 4) == 0;
            assert_true(two || strncmp(name, "Cam1", 4) == 0);
            near(a[0], two ? 100 : 50, 1e-4, "three.js fov");
            near(a[1], 4.0 / 3.0, 1e-6, "three.js aspect");
            near(a[3], 0, 1e-5, "three.js camera x");
            near(a[4], 0, 1e-5, "three.js camera y");
            near(a[5], 10, 1e-5, "three.js camera z");
            near(a[6], 0, 1e-6, "three.js camera qx");
            near(a[7], 0, 1e-6, "three.js camera qy");
            near(a[8], two ? s15 : 0, 1e-6, "three.js camera qz");
            near(a[9], two ? c15 : 1, 1e-6, "three.js camera qw");
            cameras++;
        } else if (sscanf(line, "light %63s %15s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
                          name, type, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7],
                          &a[8], &a[9], &a[10], &a[11]) == 14) {
            if (strcmp(type, "point") == 0) {
                assert_true(strncmp(name, "Omni1", 5) == 0);
                near(a[0], 1.0, 1e-6, "three.js omni r");
                near(a[1], 0.5, 1e-6, "three.js omni g");
                near(a[2], 0.25, 1e-6, "three.js omni b");
                near(a[3], 1.0, 1e-6, "three.js omni intensity");
                near(a[4], 1, 1e-5, "three.js omni x");
                near(a[5], 3, 1e-5, "three.js omni y");
                near(a[6], -2, 1e-5, "three.js omni z");
            } else {
                assert_string_equal(type, "spot");
                assert_true(strncmp(name, "Spot1", 5) == 0);
                near(a[4], 0, 1e-5, "three.js spot x");
                near(a[5], 10, 1e-5, "three.js spot y");
                near(a[6], 0, 1e-5, "three.js spot z");
                near(a[7], 0, 1e-6, "three.js spot dx");
                near(a[8], -1, 1e-6, "three.js spot dy");
                near(a[9], 0, 1e-6, "three.js spot dz");
                near(a[10], 30 * PI / 180, 1e-6, "three.js spot angle");
                near(a[11], 0.5, 1e-6, "three.js spot penumbra");
            }
            lights++;
        }
    }
    assert_int_equal(cameras, 2);
    assert_int_equal(lights, 2);
}

static void test_editor_cameras_lights(void **state)
{
    static const char *const forms[3] = { "editor.gltf", "editor.glb", "editor-e.glb" };
    char path[4200], args[4300];
    unsigned char *data;
    size_t size;
    char *doc, *text;
    int status;
    (void)state;
    support_tmp_path(path, sizeof path, "editor.3ds");
    write_editor_scene(path);
    support_expect_exit(export_tmp("editor.3ds", "editor.gltf", "-q", NULL), 0);
    support_expect_exit(export_tmp("editor.3ds", "editor.glb", "-q", NULL), 0);
    support_expect_exit(export_tmp("editor.3ds", "editor-e.glb", "-q", "--embed-images"), 0);
    data = read_tmp("editor.gltf", &size);
    doc = calloc(size + 1, 1);
    assert_non_null(doc);
    memcpy(doc, data, size);
    free(data);
    check_editor_json(doc);
    free(doc);
    if (!have_node_tools())
        skip();
    validate(forms, 3);
    support_tmp_path(path, sizeof path, "editor.glb");
    snprintf(args, sizeof args, "'%s'", path);
    text = support_run_node(&status, "tests/gltf/check_editor.mjs", args);
    fprintf(stderr, "%s", text);
    assert_int_equal(status, 0);
    check_editor_three(text);
    free(text);
}

/* The corpus maps glTF cannot hold (BMP), exported beside their models: the
 * PNG copies decode (libpng) to the pixels SDL2_image reads from the
 * originals. */
static void test_corpus_maps(void **state)
{
    static const char *const cases[][2] = {
        { "blitz3d-claw.3DS", "floor1.bmp" },
        { "blitz3d-eye_piece1.3ds", "frame.bmp" },
        { "blitz3d-eye_piece1.3ds", "grscreen.bmp" },
    };
    const char *dir = support_corpus_dir();
    char in[4200], orig[4200], copy[4200], out[4200];
    size_t i, size;
    int checked = 0;
    (void)state;
    if (!dir) {
        fprintf(stderr, "test_png_export: SKIPPED test_corpus_maps: no corpus\n");
        skip();
    }
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct stat st;
        unsigned char *rgba, *png;
        int w, h;
        png_image image;
        unsigned char *decoded;
        snprintf(in, sizeof in, "%s/%s", dir, cases[i][0]);
        snprintf(orig, sizeof orig, "%s/%s", dir, cases[i][1]);
        if (stat(in, &st) != 0 || stat(orig, &st) != 0)
            continue;
        support_tmp_path(out, sizeof out, "corpus.gltf");
        support_tmp_path(copy, sizeof copy, cases[i][1]);
        strcat(copy, ".png");
        remove(copy);
        support_expect_exit(support_run_tool(NULL, "export", in, "-o", out, "-q", (char *)NULL), 0);
        rgba = sdl_rgba(orig, &w, &h);
        png = support_read_file(copy, &size);
        support_set_what("%s's copy %s", cases[i][0], copy);
        assert_non_null(png);
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        assert_true(png_image_begin_read_from_memory(&image, png, size));
        image.format = PNG_FORMAT_RGBA;
        decoded = malloc(PNG_IMAGE_SIZE(image));
        assert_non_null(decoded);
        assert_true(png_image_finish_read(&image, NULL, decoded, 0, NULL));
        assert_int_equal(image.width, w);
        assert_int_equal(image.height, h);
        assert_memory_equal(decoded, rgba, (size_t)w * (size_t)h * 4);
        fprintf(stderr, "  %s: %dx%d, %lu-byte PNG, same pixels as SDL2_image reads\n",
                cases[i][1], w, h, (unsigned long)size);
        png_image_free(&image);
        free(decoded);
        free(png);
        free(rgba);
        checked++;
    }
    if (!checked) {
        fprintf(stderr, "test_png_export: SKIPPED test_corpus_maps: the corpus lacks "
                        "its BMP maps\n");
        skip();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_maps_reencoded),
        cmocka_unit_test(test_stdout_without_embed),
        cmocka_unit_test(test_undecodable_map),
        cmocka_unit_test(test_editor_cameras_lights),
        cmocka_unit_test(test_corpus_maps),
    };
    return cmocka_run_group_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
