/* The benchmark inputs: mk3ds bench-meshes, bench-render, bench-render-dense,
 * bench-nodes FILE. */
#include "mk3ds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BM_MESHES 200
#define BM_COLS 200
#define BM_ROWS 100      /* 20,000 vertices */
#define BM_FACE_ROWS 65  /* 65 rows of 199 cells, 2 triangles each: 25,870 faces */

void make_bench_meshes(const char *path)
{
    kf3ds_builder *b = kf3ds_builder_create(NULL);
    float *pts = xrealloc(NULL, (size_t)BM_ROWS * BM_COLS * 3 * sizeof *pts);
    uint16_t *faces = xrealloc(NULL, (size_t)BM_FACE_ROWS * (BM_COLS - 1) * 6 * sizeof *faces);
    uint32_t nf = 0;
    int i, r, c;
    char name[32];

    if (!b)
        die("out of memory");
    for (r = 0; r < BM_FACE_ROWS; r++)
        for (c = 0; c < BM_COLS - 1; c++) {
            uint16_t v0 = (uint16_t)(r * BM_COLS + c), v1 = (uint16_t)(v0 + 1);
            uint16_t v2 = (uint16_t)(v0 + BM_COLS), v3 = (uint16_t)(v2 + 1);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }

    for (i = 0; i < BM_MESHES; i++) {
        double ox = (i % 20) * 250.0, oy = (i / 20) * 150.0;
        float mf[12];
        translated_mesh_matrix(mf, ox, oy);
        for (r = 0; r < BM_ROWS; r++)
            for (c = 0; c < BM_COLS; c++) {
                float *p = pts + 3 * (r * BM_COLS + c);
                p[0] = (float)(ox + c);
                p[1] = (float)(oy + r);
                p[2] = (float)(3.0 * sin(c * 0.1 + i) * cos(r * 0.13));
            }
        snprintf(name, sizeof name, "Grid%03d", i);
        build_mesh(b, name, pts, BM_ROWS * BM_COLS, faces, nf, mf, NULL);
    }

    kf3ds_builder_keyframer(b, "benchmsh", 100, 0, 100);
    for (i = 0; i < BM_MESHES; i++) {
        double ox = (i % 20) * 250.0, oy = (i / 20) * 150.0;
        const float pos[3] = {(float)ox, (float)oy, 0}, rot[4] = {0, 0, 0, 1};
        const float scl[3] = {1, 1, 1};
        int n;
        snprintf(name, sizeof name, "Grid%03d", i);
        n = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, name, KF3DS_NONE);
        build_constant_track(b, n, KF3DS_TRACK_POS, pos, 3);
        build_constant_track(b, n, KF3DS_TRACK_ROT, rot, 4);
        build_constant_track(b, n, KF3DS_TRACK_SCL, scl, 3);
    }
    check_builder(b, path);
    save_built(b, path, NULL, NULL);
    free(pts);
    free(faces);
}

/* The render benchmarks: a grid of UV spheres of lat x lon cells (one
 * smoothing group, one material each, radius r, `spacing` apart, per_row a
 * row), every one spinning a full turn about Z over 0..100 in four 90-degree
 * keys. bench-render: 100 spheres of 1,000 triangles; bench-render-dense: 10
 * of 10,000. */
static void make_spheres(const char *path, int count, int per_row, int lat, int lon, double r,
                         double spacing)
{
    kf3ds_builder *b = kf3ds_builder_create(NULL);
    float *pts = xrealloc(NULL, (size_t)(lat + 1) * lon * 3 * sizeof *pts);
    uint16_t *faces = xrealloc(NULL, (size_t)2 * lat * lon * 3 * sizeof *faces);
    uint32_t nf = 0;
    int i, a, k;
    char name[32], mat[32];

    if (!b)
        die("out of memory");
    for (a = 0; a < lat; a++)
        for (k = 0; k < lon; k++) {
            uint16_t v0 = (uint16_t)(a * lon + k);
            uint16_t v1 = (uint16_t)(a * lon + (k + 1) % lon);
            uint16_t v2 = (uint16_t)(v0 + lon), v3 = (uint16_t)(v1 + lon);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }
    for (i = 0; i < count; i++) {
        kf3ds_material m;
        memset(&m, 0, sizeof m);
        snprintf(mat, sizeof mat, "Mat%03d", i);
        m.name = mat;
        m.ambient[0] = m.ambient[1] = m.ambient[2] = 40 / 255.0f;
        m.diffuse[0] = (float)(80 + (i * 37) % 170) / 255.0f;
        m.diffuse[1] = (float)(80 + (i * 73) % 170) / 255.0f;
        m.diffuse[2] = (float)(80 + (i * 151) % 170) / 255.0f;
        m.specular[0] = m.specular[1] = m.specular[2] = 200 / 255.0f;
        kf3ds_builder_add_material(b, &m);
    }
    for (i = 0; i < count; i++) {
        double cx = (i % per_row) * spacing, cy = (i / per_row) * spacing;
        float mf[12];
        translated_mesh_matrix(mf, cx, cy);
        for (a = 0; a <= lat; a++)
            for (k = 0; k < lon; k++) {
                double th = 3.14159265358979 * a / lat, ph = 6.28318530717959 * k / lon;
                float *p = pts + 3 * (a * lon + k);
                p[0] = (float)(cx + r * sin(th) * cos(ph));
                p[1] = (float)(cy + r * sin(th) * sin(ph));
                p[2] = (float)(r * cos(th));
            }
        snprintf(name, sizeof name, "Ball%03d", i);
        snprintf(mat, sizeof mat, "Mat%03d", i);
        build_mesh(b, name, pts, (uint32_t)((lat + 1) * lon), faces, nf, mf, mat);
    }

    kf3ds_builder_keyframer(b, "benchrnd", 100, 0, 100);
    for (i = 0; i < count; i++) {
        const float pos[3] = {(float)((i % per_row) * spacing), (float)((i / per_row) * spacing),
                              0};
        int n;
        snprintf(name, sizeof name, "Ball%03d", i);
        n = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, name, KF3DS_NONE);
        build_constant_track(b, n, KF3DS_TRACK_POS, pos, 3);
        for (k = 0; k < 5; k++) {
            kf3ds_key key;
            memset(&key, 0, sizeof key);
            key.frame = k * 25;
            key.value[0] = k ? 1.5707963f : 0.0f;
            key.value[3] = 1;
            kf3ds_builder_add_key(b, n, KF3DS_TRACK_ROT, &key);
        }
    }
    check_builder(b, path);
    save_built(b, path, NULL, NULL);
    free(pts);
    free(faces);
}

void make_bench_render(const char *path)
{
    make_spheres(path, 100, 10, 20, 25, 10.0, 30.0); /* 2 x 20 x 25 = 1,000 triangles each */
}

void make_bench_render_dense(const char *path)
{
    make_spheres(path, 10, 5, 50, 100, 25.0, 60.0); /* 2 x 50 x 100 = 10,000 each */
}

#define BN_NODES 2000
#define BN_KEYS 60
#define BN_FRAMES 1000

void make_bench_nodes(const char *path)
{
    scene s;
    int i, j, f;
    char name[32];

    rng_seed(20240601u);
    scene_init(&s, "benchnod", BN_FRAMES);
    add_material(&s, "Bench", 200, 200, 200);
    for (i = 0; i < BN_NODES; i++) {
        int parent = (i > 0 && chance(0.9)) ? rndint(i) : -1;
        int n;
        double r3[3];
        track *tp, *tr, *ts;
        snprintf(name, sizeof name, "N%04d", i);
        n = add_node(&s, KF3DS_CHUNK_OBJECT_NODE_TAG, name, parent);
        rnd3(r3, -1, 1);
        set_pivot(&s, n, r3[0], r3[1], r3[2]);
        tp = add_track(&s, n, KF3DS_CHUNK_POS_TRACK_TAG, 0);
        tr = add_track(&s, n, KF3DS_CHUNK_ROT_TRACK_TAG, 0);
        ts = add_track(&s, n, KF3DS_CHUNK_SCL_TRACK_TAG, 0);
        for (j = 0; j < BN_KEYS; j++) {
            double ax[3];
            int interior = j > 0 && j < BN_KEYS - 1;
            kkey *k;
            f = (int)((long)j * BN_FRAMES / (BN_KEYS - 1));
            rnd3(r3, -20, 20);
            k = key3(tp, f, r3[0], r3[1], r3[2]);
            if (interior)
                random_tcb(k, 0.2);
            random_axis(ax);
            k = key4(tr, f, rnduni(-2.0, 2.0), ax[0], ax[1], ax[2]); /* |θ| < 115° */
            if (interior)
                random_tcb(k, 0.2);
            rnd3(r3, 0.8, 1.25);
            k = key3(ts, f, r3[0], r3[1], r3[2]);
            if (interior)
                random_tcb(k, 0.2);
        }
        add_mesh(&s, name, "Bench", n, 0, 0, 0, 1, 1, 1);
    }
    scene_save(&s, path);
    scene_free(&s);
}
