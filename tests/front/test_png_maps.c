/* Texture maps through the command: finding a map by its stored 8.3 name
 * (any case, the file's folder, --maps, KF3DS_MAPS), the warning for a map
 * that is missing or unreadable, `kf3ds info`'s map lines, and the decoders
 * on pictures written here: a BMP (SDL2_image) and an Animator picture of
 * each of its three layouts (tools/front/cel_decode.c), each seen on a
 * self-illuminated quad filling the middle of the picture. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support.h"
#include "support_png.h"
#include "support_build.h"
#include "support_pictures.h"

/* ---- pictures --------------------------------------------------------------- */

/* A 4×4 BMP of one colour. */
static uint32_t one_colour(int x, int y, void *user)
{
    (void)x;
    (void)y;
    return *(const uint32_t *)user;
}

static void write_bmp(const char *path, unsigned r, unsigned g, unsigned b)
{
    uint32_t c = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
    support_write_bmp(path, 4, 4, one_colour, &c);
}

#define CW SUPPORT_CEL_W /* the Animator pictures: 6×4, every pixel index 7 */
#define CH SUPPORT_CEL_H

/* Animator Pro PIC: 64-byte header, a CMAP chunk (index 7 = (10, 200, 90)),
 * a byte-pixel chunk. */
static void write_pic_pro(const char *path)
{
    unsigned char f[64 + 8 + 3 * 8 + 6 + CW * CH];
    size_t at = 64;
    memset(f, 0, sizeof f);
    support_put32(f, sizeof f);
    support_put16(f + 4, 0x9500);
    support_put16(f + 6, CW);
    support_put16(f + 8, CH);
    f[18] = 8;
    support_put32(f + at, 8 + 3 * 8);
    support_put16(f + at + 4, 0);
    f[at + 8 + 3 * 7] = 10;
    f[at + 9 + 3 * 7] = 200;
    f[at + 10 + 3 * 7] = 90;
    at += 8 + 3 * 8;
    support_put32(f + at, 6 + CW * CH);
    support_put16(f + at + 4, 1);
    memset(f + at + 6, 7, CW * CH);
    support_write_file(path, f, sizeof f);
}

/* Animator Pro CEL (a FLC): 128-byte header, one frame with COLOR_256
 * (index 7 = (250, 120, 30)) and BRUN lines: per line a count byte, a run of
 * 4 (count 4, byte 7), then 2 literal bytes (count −2, 7, 7). */
static void write_cel_pro(const char *path, size_t cut)
{
    unsigned char f[512];
    size_t at = 128, frame, chunk, n;
    int y;
    memset(f, 0, sizeof f);
    support_put16(f + 4, 0xAF12);
    support_put16(f + 6, 1);
    support_put16(f + 8, CW);
    support_put16(f + 10, CH);
    support_put16(f + 12, 8);
    support_put32(f + 80, 128);
    frame = at;
    support_put16(f + at + 4, 0xF1FA);
    support_put16(f + at + 6, 2);
    at += 16;
    chunk = at;
    support_put16(f + at + 4, 4);
    support_put16(f + at + 6, 1);   /* one packet */
    f[at + 8] = 7;          /* skip 7 */
    f[at + 9] = 1;          /* one colour */
    f[at + 10] = 250;
    f[at + 11] = 120;
    f[at + 12] = 30;
    at += 13;
    support_put32(f + chunk, at - chunk);
    chunk = at;
    support_put16(f + at + 4, 15);
    at += 6;
    for (y = 0; y < CH; y++) {
        f[at++] = 2;
        f[at++] = 4;
        f[at++] = 7;
        f[at++] = (unsigned char)(signed char)-2;
        f[at++] = 7;
        f[at++] = 7;
    }
    support_put32(f + chunk, at - chunk);
    support_put32(f + frame, at - frame);
    support_put32(f, at);
    n = cut && cut < at ? cut : at;
    support_write_file(path, f, n);
}

/* ---- the scene ---------------------------------------------------------------- */

/* A self-illuminated quad with texture map `map` (grey 0x808080 where it has
 * none) facing the editor camera Cam01. */
static void write_scene(const char *path, const char *map)
{
    static const float uv[8] = { 0, 0, 1, 0, 1, 1, 0, 1 };
    static const uint8_t grey[3] = { 128, 128, 128 };
    const float eye[3] = { 0, -3, 0 }, target[3] = { 0, 0, 0 };
    kf3ds_builder *b = support_builder();
    kf3ds_material m = support_material("M", grey);
    kf3ds_camera cam = support_camera("Cam01", eye, target, 0, 50);
    m.self_illum_flag = 1;
    m.texture1 = support_map(map);
    kf3ds_builder_add_material(b, &m);
    support_build_textured_quad(b, "Quad", uv, "M");
    kf3ds_builder_add_camera(b, &cam);
    support_build_file(b, path);
}

/* The centre pixel of `kf3ds render SCENE --camera Cam01` (with more
 * arguments), and the command's result. */
static support_run render_centre(const char *env, const char *scene, const char *more,
                                 unsigned rgb[3])
{
    char png[400];
    support_run r;
    picture p;
    support_tmp_path(png, sizeof png, "out.png");
    remove(png);
    /* no -q: it would silence the map warnings these tests look for */
    if (more)
        r = support_run_tool(env, "render", scene, "--camera", "Cam01", "--size", "80x60", more,
                             "-o", png, NULL);
    else
        r = support_run_tool(env, "render", scene, "--camera", "Cam01", "--size", "80x60",
                             "-o", png, NULL);
    support_expect_status(&r, 0);
    p = support_read_png(png);
    rgb[0] = p.rgb[3 * (30 * 80 + 40)];
    rgb[1] = p.rgb[3 * (30 * 80 + 40) + 1];
    rgb[2] = p.rgb[3 * (30 * 80 + 40) + 2];
    free(p.rgb);
    return r;
}

static void expect_rgb(const unsigned got[3], unsigned r, unsigned g, unsigned b, const char *what)
{
    if (got[0] != r || got[1] != g || got[2] != b)
        fail_msg("%s: centre pixel (%u, %u, %u), want (%u, %u, %u)", what, got[0], got[1],
                 got[2], r, g, b);
}

/* ---- tests ---------------------------------------------------------------- */

/* Each decoder on its own picture: the quad shows the picture's colour. */
static void test_decoders(void **state)
{
    static const struct {
        const char *stored, *disk;
        void (*write)(const char *);
        unsigned rgb[3];
    } cases[] = {
        { "A1.CEL", "a1.cel", support_write_cel_animator1,
          { SUPPORT_CEL_R6 * 255 / 63, SUPPORT_CEL_G6 * 255 / 63, SUPPORT_CEL_B6 * 255 / 63 } },
        { "PRO.PIC", "pro.pic", write_pic_pro, { 10, 200, 90 } },
    };
    char scene[400], pic[400];
    unsigned rgb[3];
    size_t i;
    support_run r;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        support_tmp_path(scene, sizeof scene, "decode.3ds");
        support_tmp_path(pic, sizeof pic, cases[i].disk);
        cases[i].write(pic);
        write_scene(scene, cases[i].stored);
        r = render_centre(NULL, scene, NULL, rgb);
        assert_string_equal(r.err, "");
        expect_rgb(rgb, cases[i].rgb[0], cases[i].rgb[1], cases[i].rgb[2], cases[i].stored);
        support_run_free(&r);
        remove(pic);
    }
    /* the FLC layout, run-length coded */
    support_tmp_path(pic, sizeof pic, "flc.cel");
    write_cel_pro(pic, 0);
    write_scene(scene, "FLC.CEL");
    r = render_centre(NULL, scene, NULL, rgb);
    assert_string_equal(r.err, "");
    expect_rgb(rgb, 250, 120, 30, "FLC.CEL");
    support_run_free(&r);
    /* SDL2_image: a BMP */
    support_tmp_path(pic, sizeof pic, "flat.bmp");
    write_bmp(pic, 30, 60, 220);
    write_scene(scene, "FLAT.BMP");
    r = render_centre(NULL, scene, NULL, rgb);
    assert_string_equal(r.err, "");
    expect_rgb(rgb, 30, 60, 220, "FLAT.BMP");
    support_run_free(&r);
}

/* A damaged picture: one warning with the byte offset, the material's colour,
 * exit 0. */
static void test_damaged_picture(void **state)
{
    char scene[400], pic[400];
    unsigned rgb[3];
    support_run r;
    (void)state;
    support_tmp_path(scene, sizeof scene, "damaged.3ds");
    support_tmp_path(pic, sizeof pic, "cut.cel");
    write_cel_pro(pic, 160); /* inside the first frame's chunks */
    write_scene(scene, "CUT.CEL");
    r = render_centre(NULL, scene, NULL, rgb);
    expect_rgb(rgb, 128, 128, 128, "damaged");
    assert_non_null(strstr(r.err, "kf3ds: warning: "));
    assert_non_null(strstr(r.err, "cut.cel: cannot read the map: offset "));
    assert_int_equal(strchr(r.err, '\n')[1], '\0');
    support_run_free(&r);
}

/* The stored name in capitals finds the file in any case beside the .3ds;
 * elsewhere only with --maps or KF3DS_MAPS; when missing, one warning line
 * naming the map and the folders, and the material's colour. */
static void test_lookup(void **state)
{
    char scene[400], sub[400], pic[400], env[500];
    unsigned rgb[3];
    support_run r;
    (void)state;
    support_tmp_path(scene, sizeof scene, "lookup.3ds");
    support_tmp_path(sub, sizeof sub, "maps");
    mkdir(sub, 0755);
    support_path(pic, sizeof pic, sub, "Wall.Bmp");
    write_bmp(pic, 200, 10, 10);
    write_scene(scene, "WALL.BMP");

    r = render_centre(NULL, scene, NULL, rgb);
    expect_rgb(rgb, 128, 128, 128, "not beside the file");
    assert_non_null(strstr(r.err, "kf3ds: warning: "));
    assert_non_null(strstr(r.err, "map 'WALL.BMP' (texture1 of material 'M') not found in "));
    assert_non_null(strstr(r.err, support_tmpdir()));
    assert_non_null(strstr(r.err, "--maps DIR or KF3DS_MAPS"));
    assert_int_equal(strchr(r.err, '\n')[1], '\0'); /* one line */
    support_run_free(&r);

    /* --maps DIR (the option's form with '=' too) */
    snprintf(env, sizeof env, "--maps=%s", sub);
    r = render_centre(NULL, scene, env, rgb);
    expect_rgb(rgb, 200, 10, 10, "--maps");
    assert_string_equal(r.err, "");
    support_run_free(&r);

    /* KF3DS_MAPS, a ':' list */
    snprintf(env, sizeof env, "KF3DS_MAPS=/nonexistent:%s", sub);
    r = render_centre(env, scene, NULL, rgb);
    expect_rgb(rgb, 200, 10, 10, "KF3DS_MAPS");
    assert_string_equal(r.err, "");
    support_run_free(&r);

    /* info says where, or that it is missing */
    r = support_run_tool(NULL, "info", scene, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "  [0] M: texture1 WALL.BMP missing\n"));
    assert_non_null(strstr(r.out, "  maps looked for in "));
    support_run_free(&r);
    snprintf(env, sizeof env, "--maps=%s", sub);
    r = support_run_tool(NULL, "info", scene, env, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "  [0] M: texture1 WALL.BMP found "));
    assert_non_null(strstr(r.out, "maps/Wall.Bmp\n"));
    support_run_free(&r);

    /* beside the file, in lower case, without any option; --no-textures */
    support_tmp_path(pic, sizeof pic, "wall.bmp");
    write_bmp(pic, 10, 200, 10);
    r = render_centre(NULL, scene, NULL, rgb);
    expect_rgb(rgb, 10, 200, 10, "beside the file");
    support_run_free(&r);
    r = render_centre(NULL, scene, "--no-textures", rgb);
    expect_rgb(rgb, 128, 128, 128, "--no-textures");
    support_run_free(&r);
    support_expect_exit(support_run_tool(NULL, "render", scene, "--maps", "-o", "x.png", NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_decoders),
        support_unit_test(test_damaged_picture),
        support_unit_test(test_lookup),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
