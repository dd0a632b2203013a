/* The tests' well-formed scenes through the library's builder: see
 * support_build.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support_build.h"

kf3ds_builder *support_builder(void)
{
    kf3ds_builder *b = kf3ds_builder_create(NULL);
    assert_non_null(b);
    return b;
}

kf3ds_scene *support_build_scene(kf3ds_builder *b)
{
    kf3ds_diag err;
    kf3ds_scene *s = kf3ds_builder_finish(b, &err);
    if (!s)
        fail_msg("the builder refused the scene: %s", err.message);
    return s;
}

/* Fails the test unless saving gave KF3DS_OK. */
static void expect_saved(kf3ds_status status, const kf3ds_diag *err)
{
    if (status != KF3DS_OK)
        fail_msg("the built scene was not saved: %s", err->message);
}

unsigned char *support_build_bytes(kf3ds_builder *b, size_t *size)
{
    kf3ds_scene *s = support_build_scene(b);
    kf3ds_diag err;
    void *bytes = NULL;
    unsigned char *copy;
    expect_saved(kf3ds_save_memory(s, NULL, &bytes, size, &err), &err);
    copy = (unsigned char *)malloc(*size);
    assert_non_null(copy);
    memcpy(copy, bytes, *size);
    kf3ds_save_free(bytes, NULL);
    kf3ds_scene_free(s);
    return copy;
}

void support_build_file(kf3ds_builder *b, const char *path)
{
    kf3ds_scene *s = support_build_scene(b);
    kf3ds_diag err;
    expect_saved(kf3ds_save_file(s, path, NULL, &err), &err);
    kf3ds_scene_free(s);
}

void support_rgb24(float rgb[3], const uint8_t bytes[3])
{
    int i;
    for (i = 0; i < 3; i++)
        rgb[i] = bytes[i] / 255.0f;
}

kf3ds_material support_material(const char *name, const uint8_t diffuse[3])
{
    kf3ds_material m;
    memset(&m, 0, sizeof m);
    m.name = name;
    support_rgb24(m.diffuse, diffuse);
    return m;
}

kf3ds_texture_map support_map(const char *file)
{
    kf3ds_texture_map m;
    memset(&m, 0, sizeof m);
    m.file = file;
    m.strength = m.u_scale = m.v_scale = 1.0f;
    return m;
}

kf3ds_camera support_camera(const char *name, const float pos[3], const float target[3],
                            float roll, float lens)
{
    kf3ds_camera c;
    memset(&c, 0, sizeof c);
    c.name = name;
    memcpy(c.position, pos, sizeof c.position);
    memcpy(c.target, target, sizeof c.target);
    c.roll = roll;
    c.lens = lens;
    return c;
}

kf3ds_light support_light(const char *name, const float pos[3], const float color[3],
                          const float *spot_target, float hotspot, float falloff)
{
    kf3ds_light l;
    memset(&l, 0, sizeof l);
    l.name = name;
    memcpy(l.position, pos, sizeof l.position);
    memcpy(l.color, color, sizeof l.color);
    l.multiplier = 1.0f;
    if (spot_target) {
        l.spot = 1;
        memcpy(l.target, spot_target, sizeof l.target);
        l.hotspot = hotspot;
        l.falloff = falloff;
    }
    return l;
}

kf3ds_key support_key(int32_t frame, float a, float b, float c, float d)
{
    kf3ds_key k;
    memset(&k, 0, sizeof k);
    k.frame = frame;
    k.value[0] = a;
    k.value[1] = b;
    k.value[2] = c;
    k.value[3] = d;
    return k;
}

int32_t support_build_mesh(kf3ds_builder *b, const char *name, const float *points, uint32_t n,
                           const uint16_t *faces, const uint16_t *flags, uint32_t nf,
                           const float *matrix)
{
    kf3ds_face *f = (kf3ds_face *)calloc(nf ? nf : 1, sizeof *f);
    kf3ds_mat4 m;
    uint32_t i;
    int32_t mesh;
    int r, c;
    assert_non_null(f);
    for (i = 0; i < nf; i++) {
        memcpy(f[i].v, faces + 3 * i, sizeof f[i].v);
        f[i].flags = flags ? flags[i] : 7;
    }
    kf3ds_mat4_identity(&m);
    for (c = 0; matrix && c < 4; c++)
        for (r = 0; r < 3; r++)
            m.m[r][c] = matrix[3 * c + r];
    mesh = kf3ds_builder_add_mesh(b, name, (const float(*)[3])points, n, f, nf,
                                  matrix ? &m : NULL);
    free(f);
    return mesh;
}

int32_t support_build_textured_quad(kf3ds_builder *b, const char *name, const float uv[8],
                                    const char *material)
{
    static const float pts[12] = { -1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1 };
    static const uint16_t faces[6] = { 0, 1, 2, 0, 2, 3 };
    int32_t mesh = support_build_mesh(b, name, pts, 4, faces, NULL, 2, NULL);
    kf3ds_builder_mesh_texcoords(b, mesh, (const float(*)[2])uv, 4);
    kf3ds_builder_mesh_material(b, mesh, material, NULL, 0);
    return mesh;
}

int32_t support_build_node(kf3ds_builder *b, kf3ds_node_type type, const char *name,
                           int32_t parent, const float *pos)
{
    int32_t node = kf3ds_builder_add_node(b, type, name, parent);
    if (pos) {
        kf3ds_key k = support_key(0, pos[0], pos[1], pos[2], 0);
        kf3ds_builder_add_key(b, node, KF3DS_TRACK_POS, &k);
    }
    return node;
}
