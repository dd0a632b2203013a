/* The benchmark inputs: mk3ds bench-meshes, bench-render, bench-render-dense,
 * bench-nodes FILE. */
#include "mk3ds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BM_MESHES 200
#define BM_COLS 200
#define BM_ROWS 100      /* 20,000 vertices */
#define BM_FACE_ROWS 65  /* 65 rows of 199 cells, 2 triangles each: 25,870 faces */

void make_bench_meshes(const char *path)
{
    w3ds w;
    float *pts = xrealloc(NULL, (size_t)BM_ROWS * BM_COLS * 3 * sizeof *pts);
    uint16_t *faces = xrealloc(NULL, (size_t)BM_FACE_ROWS * (BM_COLS - 1) * 6 * sizeof *faces);
    uint32_t nf = 0;
    int i, r, c;
    char name[32];

    for (r = 0; r < BM_FACE_ROWS; r++)
        for (c = 0; c < BM_COLS - 1; c++) {
            uint16_t v0 = (uint16_t)(r * BM_COLS + c), v1 = (uint16_t)(v0 + 1);
            uint16_t v2 = (uint16_t)(v0 + BM_COLS), v3 = (uint16_t)(v2 + 1);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }

    start_file(&w);
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
        w3ds_mesh(&w, name, pts, BM_ROWS * BM_COLS, faces, nf, mf, NULL);
    }
    w3ds_end(&w); /* MDATA */

    begin_kfdata(&w, "benchmsh", 100, 0, 100);
    for (i = 0; i < BM_MESHES; i++) {
        double ox = (i % 20) * 250.0, oy = (i / 20) * 150.0;
        snprintf(name, sizeof name, "Grid%03d", i);
        w3ds_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG);
        w3ds_node_hdr(&w, name, 0, 0, W3DS_NO_PARENT);
        w3ds_begin(&w, KF3DS_CHUNK_PIVOT);
        w3ds_f32(&w, 0);
        w3ds_f32(&w, 0);
        w3ds_f32(&w, 0);
        w3ds_end(&w);
        {
            const float pos[3] = {(float)ox, (float)oy, 0}, rot[4] = {0, 0, 0, 1};
            const float scl[3] = {1, 1, 1};
            write_constant_track(&w, KF3DS_CHUNK_POS_TRACK_TAG, pos, 3);
            write_constant_track(&w, KF3DS_CHUNK_ROT_TRACK_TAG, rot, 4);
            write_constant_track(&w, KF3DS_CHUNK_SCL_TRACK_TAG, scl, 3);
        }
        w3ds_end(&w);
    }
    finish_file(&w, path);
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
    static const uint8_t amb[3] = {40, 40, 40}, spec[3] = {200, 200, 200};
    w3ds w;
    float *pts = xrealloc(NULL, (size_t)(lat + 1) * lon * 3 * sizeof *pts);
    uint16_t *faces = xrealloc(NULL, (size_t)2 * lat * lon * 3 * sizeof *faces);
    uint32_t nf = 0;
    int i, a, b, k;
    char name[32], mat[32];

    for (a = 0; a < lat; a++)
        for (b = 0; b < lon; b++) {
            uint16_t v0 = (uint16_t)(a * lon + b);
            uint16_t v1 = (uint16_t)(a * lon + (b + 1) % lon);
            uint16_t v2 = (uint16_t)(v0 + lon), v3 = (uint16_t)(v1 + lon);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }
    start_file(&w);
    for (i = 0; i < count; i++) {
        uint8_t diffuse[3];
        diffuse[0] = (uint8_t)(80 + (i * 37) % 170);
        diffuse[1] = (uint8_t)(80 + (i * 73) % 170);
        diffuse[2] = (uint8_t)(80 + (i * 151) % 170);
        snprintf(mat, sizeof mat, "Mat%03d", i);
        w3ds_material(&w, mat, amb, diffuse, spec);
    }
    for (i = 0; i < count; i++) {
        double cx = (i % per_row) * spacing, cy = (i / per_row) * spacing;
        float mf[12];
        translated_mesh_matrix(mf, cx, cy);
        for (a = 0; a <= lat; a++)
            for (b = 0; b < lon; b++) {
                double th = 3.14159265358979 * a / lat, ph = 6.28318530717959 * b / lon;
                float *p = pts + 3 * (a * lon + b);
                p[0] = (float)(cx + r * sin(th) * cos(ph));
                p[1] = (float)(cy + r * sin(th) * sin(ph));
                p[2] = (float)(r * cos(th));
            }
        snprintf(name, sizeof name, "Ball%03d", i);
        snprintf(mat, sizeof mat, "Mat%03d", i);
        w3ds_mesh(&w, name, pts, (uint32_t)((lat + 1) * lon), faces, nf, mf, mat);
    }
    w3ds_end(&w); /* MDATA */

    begin_kfdata(&w, "benchrnd", 100, 0, 100);
    for (i = 0; i < count; i++) {
        snprintf(name, sizeof name, "Ball%03d", i);
        w3ds_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG);
        w3ds_node_hdr(&w, name, 0, 0, W3DS_NO_PARENT);
        {
            const float pos[3] = {(float)((i % per_row) * spacing),
                                  (float)((i / per_row) * spacing), 0};
            write_constant_track(&w, KF3DS_CHUNK_POS_TRACK_TAG, pos, 3);
        }
        w3ds_begin(&w, KF3DS_CHUNK_ROT_TRACK_TAG);
        w3ds_track_header(&w, 0, 5);
        for (k = 0; k < 5; k++) {
            w3ds_key_header(&w, k * 25, NULL);
            w3ds_f32(&w, k ? 1.5707963f : 0.0f);
            w3ds_f32(&w, 0);
            w3ds_f32(&w, 0);
            w3ds_f32(&w, 1);
        }
        w3ds_end(&w);
        w3ds_end(&w);
    }
    finish_file(&w, path);
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
