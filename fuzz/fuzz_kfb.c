/* libFuzzer target: the .kfb reader, include/kf3ds_kfb.h (docs/kfb.md).
 * kf3ds_kfb_open on the input, and when it accepts it, every accessor over
 * everything the file holds: nodes, every frame's matrices, visibility and
 * channels, every mesh's vertices, faces (and the vertices and normals they
 * index), normals and texture coordinates, the materials, frame lookups, and
 * the fixed-point transform of vertices by world matrices.
 *
 * Oracles beyond the sanitizers (abort() = a finding): a refused file names
 * an offset inside it; an accepted file's strings end with a NUL inside it,
 * every index it hands out is in range (the accessors succeed on them), and
 * out-of-range arguments are refused with zeroed outputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KF3DS_KFB_IMPLEMENTATION
#define KF3DS_KFB_STATIC
#include "kf3ds_kfb.h"

#define MAX_FRAMES 64 /* frames walked per input: enough, and bounded */

static void finding(const char *what, unsigned long v)
{
    fprintf(stderr, "fuzz_kfb: %s (%lu)\n", what, v);
    abort();
}

#define CHECK(cond, v)                                                    \
    do {                                                                  \
        if (!(cond))                                                      \
            finding(#cond, (unsigned long)(v));                           \
    } while (0)

static void check_string(const kf3ds_kfb_file *f, kf3ds_kfb_string s, int optional)
{
    if (!s.s) {
        CHECK(optional && s.len == 0, s.len);
        return;
    }
    CHECK((const unsigned char *)s.s >= f->data &&
              (const unsigned char *)s.s + s.len < f->data + f->size, s.len);
    CHECK(s.s[s.len] == 0, s.len);
}

static void walk(const kf3ds_kfb_file *f)
{
    kf3ds_kfb_u32 i, fr, v, frames = f->num_frames < MAX_FRAMES ? f->num_frames : MAX_FRAMES;
    kf3ds_kfb_s32 m[12], p[3], q[3], num;
    float fl[12];
    int fixed = (f->flags & KF3DS_KFB_FLAG_FIXED) != 0;
    for (i = 0; i < f->num_nodes; i++) {
        kf3ds_kfb_node n;
        CHECK(kf3ds_kfb_node_get(f, i, &n) == KF3DS_KFB_OK, i);
        check_string(f, n.name, 0);
        check_string(f, n.instance, 1);
        CHECK(n.parent_slot < 0 || (kf3ds_kfb_u32)n.parent_slot < f->num_nodes, n.parent_slot);
        CHECK(n.mesh < 0 || (kf3ds_kfb_u32)n.mesh < f->num_meshes, n.mesh);
        (void)kf3ds_kfb_node_type_name(n.type);
        for (fr = 0; fr < frames; fr++) {
            CHECK(kf3ds_kfb_world_float(f, fr, i, fl) == KF3DS_KFB_OK, fr);
            CHECK((kf3ds_kfb_world_fixed(f, fr, i, m) == KF3DS_KFB_OK) == fixed, fr);
            (void)kf3ds_kfb_visible(f, fr, i);
        }
    }
    for (fr = 0; fr < frames; fr++) {
        CHECK(kf3ds_kfb_frame_numerator(f, fr, &num) == KF3DS_KFB_OK, fr);
        for (i = 0; i < f->num_channels; i++) {
            kf3ds_kfb_channel ch;
            CHECK(kf3ds_kfb_channel_get(f, i, &ch) == KF3DS_KFB_OK, i);
            CHECK(ch.node_slot < f->num_nodes && ch.count >= 1 && ch.count <= 3, ch.count);
            CHECK(kf3ds_kfb_channel_float(f, fr, i, fl) == KF3DS_KFB_OK, i);
        }
    }
    for (i = 0; i < f->num_materials; i++) {
        kf3ds_kfb_material mat;
        CHECK(kf3ds_kfb_material_get(f, i, &mat) == KF3DS_KFB_OK, i);
        check_string(f, mat.name, 0);
        check_string(f, mat.texture, 1);
    }
    for (i = 0; i < f->num_meshes; i++) {
        kf3ds_kfb_mesh mesh;
        CHECK(kf3ds_kfb_mesh_get(f, i, &mesh) == KF3DS_KFB_OK, i);
        check_string(f, mesh.name, 0);
        for (v = 0; v < mesh.num_faces; v++) {
            kf3ds_kfb_face face;
            int k;
            CHECK(kf3ds_kfb_face_get(&mesh, v, &face) == KF3DS_KFB_OK, v);
            CHECK(face.material == 0xFFFFu || face.material < f->num_materials, face.material);
            for (k = 0; k < 3; k++) {
                CHECK(kf3ds_kfb_vertex_float(f, &mesh, face.v[k], fl) == KF3DS_KFB_OK, face.v[k]);
                CHECK(kf3ds_kfb_normal_float(f, &mesh, face.n[k], fl) == KF3DS_KFB_OK, face.n[k]);
            }
        }
        for (v = 0; v < mesh.num_vertices; v++) {
            CHECK(kf3ds_kfb_vertex_float(f, &mesh, v, fl) == KF3DS_KFB_OK, v);
            if (fixed && kf3ds_kfb_vertex_fixed(f, &mesh, v, p) == KF3DS_KFB_OK && f->num_nodes) {
                kf3ds_kfb_world_fixed(f, v % frames, v % f->num_nodes, m);
                kf3ds_kfb_fixed_transform(m, p, f->frac_bits, q);
                (void)kf3ds_kfb_fixed_mul(m[0], p[0], f->frac_bits);
            }
            if (mesh.num_uvs)
                CHECK(kf3ds_kfb_uv_float(f, &mesh, v, fl) == KF3DS_KFB_OK, v);
        }
        for (v = 0; v < mesh.num_normals; v++)
            CHECK(kf3ds_kfb_normal_float(f, &mesh, v, fl) == KF3DS_KFB_OK, v);
    }
    /* out of range: refused, zeros */
    CHECK(kf3ds_kfb_world_float(f, f->num_frames, 0, fl) == KF3DS_KFB_ERR_ARGUMENT, 0);
    CHECK(fl[0] == 0.0f && fl[11] == 0.0f, 0);
    CHECK(kf3ds_kfb_visible(f, 0, f->num_nodes) == 0, 0);
    {
        static const char *const texts[] = { "0", "-1", "12.5", "2147483647", "-2147483648",
                                             "0.000001", "1e3", "", "-", "." };
        char last[24];
        size_t t;
        kf3ds_kfb_u32 index;
        for (t = 0; t < sizeof texts / sizeof texts[0]; t++)
            if (kf3ds_kfb_find_frame(f, texts[t], &index) == KF3DS_KFB_OK)
                CHECK(index < f->num_frames, index);
        /* the last frame is found again from its decimal form */
        kf3ds_kfb_frame_numerator(f, f->num_frames - 1, &num);
        if (f->frame_scale == 1) {
            snprintf(last, sizeof last, "%ld", (long)num);
            CHECK(kf3ds_kfb_find_frame(f, last, &index) == KF3DS_KFB_OK &&
                      index == f->num_frames - 1, index);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kf3ds_kfb_file f;
    int st = kf3ds_kfb_open(&f, data, size);
    if (st != KF3DS_KFB_OK) {
        CHECK(f.error_offset <= size, f.error_offset);
        CHECK(*kf3ds_kfb_status_string(st) != 0, st);
        return 0;
    }
    CHECK(f.size <= size && f.num_frames >= 1, f.size);
    walk(&f);
    return 0;
}
