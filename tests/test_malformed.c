/* Malformed input: truncated files at every byte, damaged chunk lengths, key
 * and element counts far beyond their chunk, names without terminators,
 * 10,000 levels of nesting, empty and text files, failing allocators, memory
 * limits, bad parent links and truncated corpus files. Each must give a clean
 * error or warning: no crash, no hang, no leak (a counting allocator checks
 * that every block is returned), and a scene that is safe to evaluate. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"
#include "write3ds.h"

/* ------------------------------------------------------------------------ */
/* Scene invariants                                                         */
/* ------------------------------------------------------------------------ */

enum { CHECK_LIGHT = 0, CHECK_FULL = 1 };

static const double eval_frames[] = { -5.0, 0.0, 2.5, 1e9, NAN };

static int find_diag(const kf3ds_scene *s, kf3ds_status code, uint32_t offset, int match_offset)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == code && (!match_offset || s->diags[i].offset == offset))
            return (int)i;
    return -1;
}

static void check_diags(const kf3ds_scene *s, const kf3ds_diag *err)
{
    uint32_t i;
    int first_error = -1;
    MUST(s->num_diags <= 1000);
    MUST(s->num_diags == 0 || s->diags != NULL);
    for (i = 0; i < s->num_diags; i++) {
        const kf3ds_diag *d = &s->diags[i];
        const char *name;
        MUST(d->code != KF3DS_OK);
        MUST((int)d->code <= (int)KF3DS_WARN_TRAILING);
        MUST(d->severity == (d->code >= KF3DS_WARN_OVERRUN ? KF3DS_WARNING : KF3DS_ERROR));
        MUST(d->chunk_name != NULL);
        MUST(memchr(d->message, '\0', sizeof d->message) != NULL);
        MUST(d->message[0] != '\0');
        name = kf3ds_chunk_name(d->chunk_id);
        if (d->chunk_id == 0)
            MUST(strcmp(d->chunk_name, "") == 0);
        else
            MUST(strcmp(d->chunk_name, name ? name : "?") == 0);
        if (d->severity == KF3DS_ERROR && first_error < 0)
            first_error = (int)i;
    }
    if (!err)
        return;
    if (err->code == KF3DS_OK) {
        if (s->num_dropped_diags == 0)
            MUST(first_error < 0);
    } else {
        MUST(err->severity == KF3DS_ERROR);
        MUST(err->code < KF3DS_WARN_OVERRUN);
        MUST(memchr(err->message, '\0', sizeof err->message) != NULL);
        if (s->num_dropped_diags == 0) {
            MUST(first_error >= 0);
            MUST(s->diags[first_error].code == err->code);
            MUST(s->diags[first_error].offset == err->offset);
        }
    }
}

static void check_meshes(const kf3ds_scene *s)
{
    uint32_t i, j;
    MUST(s->num_meshes == 0 || s->meshes != NULL);
    MUST(s->num_materials == 0 || s->materials != NULL);
    MUST(s->num_cameras == 0 || s->cameras != NULL);
    MUST(s->num_lights == 0 || s->lights != NULL);
    for (i = 0; i < s->num_materials; i++)
        MUST(s->materials[i].name != NULL);
    for (i = 0; i < s->num_cameras; i++)
        MUST(s->cameras[i].name != NULL);
    for (i = 0; i < s->num_lights; i++)
        MUST(s->lights[i].name != NULL);
    for (i = 0; i < s->num_meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        MUST(m->name != NULL);
        MUST(m->num_points == 0 || m->points != NULL);
        MUST(m->num_faces == 0 || m->faces != NULL);
        MUST(m->num_texcoords == 0 || m->texcoords != NULL);
        MUST(m->num_point_flags == 0 || m->point_flags != NULL);
        MUST(m->num_groups == 0 || m->groups != NULL);
        for (j = 0; j < m->num_faces; j++) {
            const kf3ds_face *f = &m->faces[j];
            MUST(f->v[0] < m->num_points && f->v[1] < m->num_points && f->v[2] < m->num_points);
            MUST(kf3ds_face_material(m, j) == KF3DS_NONE ||
                 (kf3ds_face_material(m, j) >= 0 &&
                  (uint32_t)kf3ds_face_material(m, j) < s->num_materials));
        }
        for (j = 0; j < m->num_groups; j++) {
            const kf3ds_material_group *g = &m->groups[j];
            uint32_t k;
            MUST(g->material_name != NULL);
            MUST(g->material == KF3DS_NONE ||
                 (g->material >= 0 && (uint32_t)g->material < s->num_materials));
            MUST(g->num_faces == 0 || g->faces != NULL);
            for (k = 0; k < g->num_faces; k++)
                MUST(g->faces[k] < m->num_faces);
        }
        /* touch every element so that ASan sees an array shorter than its count */
        if (m->num_points) {
            volatile float sink = m->points[m->num_points - 1][2];
            (void)sink;
        }
        if (m->num_texcoords) {
            volatile float sink = m->texcoords[m->num_texcoords - 1][1];
            (void)sink;
        }
        if (m->num_point_flags) {
            volatile uint16_t sink = m->point_flags[m->num_point_flags - 1];
            (void)sink;
        }
    }
}

static void check_nodes(const kf3ds_scene *s)
{
    uint32_t n = s->num_nodes, i, k;
    uint32_t *pos;
    MUST(n == 0 || s->nodes != NULL);
    if (n == 0)
        return;
    MUST(s->eval_order != NULL);
    pos = (uint32_t *)malloc(n * sizeof *pos);
    MUST(pos != NULL);
    for (i = 0; i < n; i++)
        pos[i] = UINT32_MAX;
    for (i = 0; i < n; i++) {
        uint32_t idx = s->eval_order[i];
        MUST(idx < n);
        MUST(pos[idx] == UINT32_MAX); /* a permutation: each index once */
        pos[idx] = i;
    }
    for (i = 0; i < n; i++) {
        const kf3ds_node *nd = &s->nodes[i];
        MUST((unsigned)nd->type <= (unsigned)KF3DS_NODE_SPOT);
        MUST(nd->name != NULL);
        MUST(support_in_range(nd->parent, n));
        MUST(nd->parent != (int32_t)i);
        if (nd->parent != KF3DS_NONE) {
            MUST(pos[nd->parent] < pos[i]); /* parents first */
            MUST(nd->depth == s->nodes[nd->parent].depth + 1);
        } else {
            MUST(nd->depth == 0);
        }
        MUST(support_in_range(nd->mesh, s->num_meshes));
        MUST(support_in_range(nd->camera, s->num_cameras));
        MUST(support_in_range(nd->light, s->num_lights));
        MUST(support_in_range(nd->target, n));
        if (nd->mesh != KF3DS_NONE)
            MUST(nd->type == KF3DS_NODE_OBJECT);
        for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
            const kf3ds_track *t = &nd->tracks[k];
            uint32_t j;
            MUST(t->num_keys == 0 || t->keys != NULL);
            for (j = 0; j < t->num_keys; j++) {
                if (j)
                    MUST(t->keys[j - 1].frame <= t->keys[j].frame);
                if (k == KF3DS_TRACK_MORPH) {
                    MUST(t->keys[j].morph_name != NULL);
                    MUST(support_in_range(t->keys[j].morph_mesh, s->num_meshes));
                }
            }
        }
    }
    free(pos);
}

/* Evaluates every node at every test frame and places every vertex. */
static void check_eval(const kf3ds_scene *s, int mode)
{
    uint32_t n = s->num_nodes, i, j;
    size_t f;
    kf3ds_pose *poses = (kf3ds_pose *)calloc(n + 1, sizeof *poses);
    MUST(poses != NULL);
    for (f = 0; f < sizeof eval_frames / sizeof eval_frames[0]; f++) {
        double frame = eval_frames[f];
        kf3ds_scene_eval(s, frame, 0, poses);
        kf3ds_scene_eval(s, frame, KF3DS_EVAL_NO_EASE, poses);
        for (i = 0; i < n; i++) {
            kf3ds_mat4 m, view;
            float fov, roll;
            if (mode == CHECK_FULL) {
                kf3ds_pose one;
                kf3ds_node_eval(s, i, frame, 0, &one);
                MUST(support_in_range(one.morph_mesh, s->num_meshes));
            }
            MUST(support_in_range(poses[i].morph_mesh, s->num_meshes));
            if (kf3ds_node_mesh_matrix(s, i, &poses[i], &m)) {
                const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
                for (j = 0; j < mesh->num_points; j++) {
                    float out[3];
                    kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                }
            }
            if (kf3ds_node_camera_view(s, i, poses, &view, &fov, &roll))
                MUST(s->nodes[i].type == KF3DS_NODE_CAMERA);
        }
    }
    {
        float out[4];
        /* out-of-range arguments are refused, not crashed on */
        kf3ds_node_eval(s, n, 0.0, 0, &poses[0]);
        kf3ds_node_eval(s, UINT32_MAX, 0.0, 0, &poses[0]);
        MUST(kf3ds_node_mesh_matrix(s, n, &poses[0], &(kf3ds_mat4){{{0}}}) == 0);
        MUST(kf3ds_track_eval(NULL, KF3DS_TRACK_POS, 0.0, 0, out) == 0);
    }
    free(poses);
}

static void check_scene(const kf3ds_scene *s, const kf3ds_diag *err, int mode)
{
    MUST(s != NULL);
    MUST(s->internal_ != NULL);
    check_diags(s, err);
    check_meshes(s);
    check_nodes(s);
    check_eval(s, mode);
    if (s->num_nodes) {
        MUST(kf3ds_scene_find_node(s, s->nodes[0].name) != KF3DS_NONE);
    }
    MUST(kf3ds_scene_find_node(s, NULL) == KF3DS_NONE);
}

/* Loads `size` bytes from an exactly sized heap copy (so that an overread is
 * an ASan report) with the counting allocator reset to refuse every call
 * after the first `fail_after` (-1: never) and the given limits (may be
 * NULL). Returns the scene (the caller frees it) or NULL. */
static kf3ds_scene *load_counted(const unsigned char *data, size_t size, counting *c,
                                 long fail_after, const kf3ds_limits *limits, kf3ds_diag *err)
{
    unsigned char *copy = (unsigned char *)malloc(size ? size : 1);
    kf3ds_load_options o;
    kf3ds_scene *s;
    assert_non_null(copy);
    if (size)
        memcpy(copy, data, size);
    counting_reset(c, fail_after);
    o = counting_options(c);
    if (limits)
        o.limits = *limits;
    s = kf3ds_load_memory(copy, size, &o, err);
    free(copy); /* the buffer is not kept */
    return s;
}

/* load_counted of a file that must give a scene, checked at `mode`. */
static kf3ds_scene *load_scene(const unsigned char *data, size_t size, counting *c,
                               const kf3ds_limits *limits, kf3ds_diag *err, int mode)
{
    kf3ds_scene *s = load_counted(data, size, c, -1, limits, err);
    MUST(s != NULL);
    check_scene(s, err, mode);
    return s;
}

/* load_scene of what `w` holds, once its open chunks are closed; frees the
 * writer. */
static kf3ds_scene *load_written(w3ds *w, counting *c, const kf3ds_limits *limits,
                                 kf3ds_diag *err, int mode)
{
    kf3ds_scene *s;
    support_end_all(w);
    assert_false(w->failed);
    s = load_scene(w->buf, w->len, c, limits, err, mode);
    w3ds_free(w);
    return s;
}

/* Loads as load_counted does, checks the result, frees it and checks that the
 * counting allocator got every block back. `inspect` (may be NULL) sees the
 * scene (or NULL) and the error before the scene is freed. Returns 1 when a
 * scene was returned, 0 when the load returned NULL; *err_out gets the
 * error. */
typedef void (*inspect_fn)(const kf3ds_scene *s, const kf3ds_diag *err, void *user);

static int load_and_check(const unsigned char *data, size_t size, const kf3ds_limits *limits,
                          int mode, kf3ds_diag *err_out, inspect_fn inspect, void *user)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    memset(&err, 0xA5, sizeof err); /* must be overwritten */
    s = load_counted(data, size, &c, -1, limits, &err);
    if (s) {
        check_scene(s, &err, mode);
    } else {
        MUST(err.code != KF3DS_OK);
        MUST(err.severity == KF3DS_ERROR);
        MUST(memchr(err.message, '\0', sizeof err.message) != NULL);
        MUST(err.chunk_name != NULL);
    }
    if (inspect)
        inspect(s, &err, user);
    counting_free_scene(s, &c);
    if (err_out)
        *err_out = err;
    return s != NULL;
}

/* The bytes `w` holds as an exactly sized copy (free with free()); the writer
 * is freed. */
static unsigned char *take_bytes(w3ds *w, size_t *size)
{
    unsigned char *out;
    assert_false(w->failed);
    out = (unsigned char *)malloc(w->len);
    assert_non_null(out);
    memcpy(out, w->buf, w->len);
    *size = w->len;
    w3ds_free(w);
    return out;
}

/* ------------------------------------------------------------------------ */
/* A rich, valid scene                                                      */
/* ------------------------------------------------------------------------ */

static void color_f(w3ds *w, uint16_t id, float r, float g, float b)
{
    const float v[3] = { r, g, b };
    support_chunk_f32v(w, id, v, 3);
}

static void color_24(w3ds *w, uint16_t id, uint8_t r, uint8_t g, uint8_t b)
{
    w3ds_begin(w, id);
    w3ds_u8(w, r);
    w3ds_u8(w, g);
    w3ds_u8(w, b);
    w3ds_end(w);
}

static void int_percent(w3ds *w, uint16_t id, int16_t v)
{
    w3ds_begin(w, id);
    support_chunk_u16(w, 0x0030, (uint16_t)v); /* INT_PERCENTAGE */
    w3ds_end(w);
}

static void float_percent(w3ds *w, uint16_t id, float v)
{
    w3ds_begin(w, id);
    support_chunk_f32(w, 0x0031, v);
    w3ds_end(w);
}

static void write_material(w3ds *w, const char *name, int rich)
{
    w3ds_begin(w, 0xAFFF);
    support_chunk_str(w, 0xA000, name);
    w3ds_begin(w, 0xA010);
    color_24(w, 0x0011, 200, 10, 10);
    w3ds_end(w);
    w3ds_begin(w, 0xA020);
    color_24(w, 0x0011, 255, 0, 0);
    color_24(w, 0x0012, 250, 0, 0);
    w3ds_end(w);
    w3ds_begin(w, 0xA030);
    color_f(w, 0x0010, 1.0f, 1.0f, 1.0f);
    color_f(w, 0x0013, 0.9f, 0.9f, 0.9f);
    w3ds_end(w);
    if (rich) {
        int_percent(w, 0xA040, 40);
        float_percent(w, 0xA041, 0.25f);
        int_percent(w, 0xA050, 10);
        int_percent(w, 0xA084, 5);
        support_chunk_empty(w, 0xA081);
        support_chunk_empty(w, 0xA080);
        support_chunk_empty(w, 0xA083);
        support_chunk_f32(w, 0xA087, 1.5f);
        support_chunk_u16(w, 0xA100, 3);
        w3ds_begin(w, 0xA200); /* MAT_TEXMAP */
        support_chunk_u16(w, 0x0030, 75);
        support_chunk_str(w, 0xA300, "checker.png");
        support_chunk_u16(w, 0xA351, 0x10);
        support_chunk_f32(w, 0xA353, 0.07f);
        support_chunk_f32(w, 0xA354, 2.0f);
        support_chunk_f32(w, 0xA356, 3.0f);
        support_chunk_f32(w, 0xA358, 0.5f);
        support_chunk_f32(w, 0xA35A, 0.25f);
        support_chunk_f32(w, 0xA35C, 45.0f);
        w3ds_end(w);
        w3ds_begin(w, 0xA230); /* MAT_BUMPMAP */
        support_chunk_f32(w, 0x0031, 0.5f);
        support_chunk_str(w, 0xA300, "bump.png");
        w3ds_end(w);
    }
    w3ds_end(w);
}

static void write_box_mesh(w3ds *w, const char *name, float ox, int mirrored)
{
    static const float pts[8][3] = { {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1} };
    static const uint16_t faces[12][3] = { {0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                           {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                           {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7} };
    uint32_t i;
    float matrix[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    matrix[9] = ox;
    matrix[10] = 2.0f;
    matrix[11] = 3.0f;
    if (mirrored)
        matrix[0] = -1.0f;
    w3ds_begin(w, 0x4000);
    w3ds_cstr(w, name);
    w3ds_begin(w, 0x4100);
    w3ds_begin(w, 0x4110); /* POINT_ARRAY */
    w3ds_u16(w, 8);
    for (i = 0; i < 8; i++) {
        w3ds_f32(w, pts[i][0] + ox);
        w3ds_f32(w, pts[i][1] + 2.0f);
        w3ds_f32(w, pts[i][2] + 3.0f);
    }
    w3ds_end(w);
    w3ds_begin(w, 0x4111); /* POINT_FLAG_ARRAY */
    w3ds_u16(w, 8);
    for (i = 0; i < 8; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_begin(w, 0x4140); /* TEX_VERTS */
    w3ds_u16(w, 8);
    for (i = 0; i < 8; i++) {
        w3ds_f32(w, pts[i][0]);
        w3ds_f32(w, pts[i][1]);
    }
    w3ds_end(w);
    w3ds_begin(w, 0x4120); /* FACE_ARRAY */
    w3ds_u16(w, 12);
    for (i = 0; i < 12; i++) {
        w3ds_u16(w, faces[i][0]);
        w3ds_u16(w, faces[i][1]);
        w3ds_u16(w, faces[i][2]);
        w3ds_u16(w, 7);
    }
    w3ds_begin(w, 0x4130); /* MSH_MAT_GROUP */
    w3ds_cstr(w, "Red");
    w3ds_u16(w, 6);
    for (i = 0; i < 6; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_begin(w, 0x4130);
    w3ds_cstr(w, "Blue");
    w3ds_u16(w, 6);
    for (i = 6; i < 12; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_begin(w, 0x4150); /* SMOOTH_GROUP */
    for (i = 0; i < 12; i++)
        w3ds_u32(w, 1u << (i / 2));
    w3ds_end(w);
    w3ds_end(w);
    support_chunk_f32v(w, 0x4160, matrix, 12); /* MESH_MATRIX */
    w3ds_begin(w, 0x4165);                     /* MESH_COLOR */
    w3ds_u8(w, 3);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

static void write_editor(w3ds *w)
{
    static const float cam_pos[3] = { 0, -10, 5 }, cam_tgt[3] = { 0, 0, 0 };
    static const float spot_pos[3] = { 5, 5, 10 }, spot_tgt[3] = { 0, 0, 0 };
    static const float omni_pos[3] = { -5, 0, 3 };
    support_chunk_u32(w, 0x3D3E, 3);    /* MESH_VERSION */
    support_chunk_f32(w, 0x0100, 1.0f); /* MASTER_SCALE */
    w3ds_begin(w, 0x2100);              /* AMBIENT_LIGHT */
    color_f(w, 0x0010, 0.1f, 0.1f, 0.1f);
    w3ds_end(w);
    write_material(w, "Red", 1);
    write_material(w, "Blue", 0);
    write_box_mesh(w, "Box", 1.0f, 0);
    write_box_mesh(w, "Mirror", -4.0f, 1);

    w3ds_begin(w, 0x4000);
    w3ds_cstr(w, "Cam01");
    w3ds_begin(w, 0x4700);
    w3ds_f32v(w, cam_pos, 3);
    w3ds_f32v(w, cam_tgt, 3);
    w3ds_f32(w, 5.0f);
    w3ds_f32(w, 35.0f);
    support_chunk_empty(w, 0x4710);
    w3ds_begin(w, 0x4720);
    w3ds_f32(w, 1.0f);
    w3ds_f32(w, 1000.0f);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);

    w3ds_begin(w, 0x4000);
    w3ds_cstr(w, "Spot01");
    w3ds_begin(w, 0x4600);
    w3ds_f32v(w, spot_pos, 3);
    color_f(w, 0x0010, 1.0f, 0.9f, 0.8f);
    color_24(w, 0x0011, 200, 200, 200);
    w3ds_begin(w, 0x4610);
    w3ds_f32v(w, spot_tgt, 3);
    w3ds_f32(w, 30.0f);
    w3ds_f32(w, 45.0f);
    support_chunk_f32(w, 0x4656, 10.0f);
    support_chunk_empty(w, 0x4630);
    support_chunk_empty(w, 0x4650);
    support_chunk_empty(w, 0x4651);
    support_chunk_empty(w, 0x4652);
    w3ds_end(w);
    support_chunk_empty(w, 0x4625);
    support_chunk_f32(w, 0x4659, 10.0f);
    support_chunk_f32(w, 0x465A, 100.0f);
    support_chunk_f32(w, 0x465B, 1.5f);
    w3ds_end(w);
    w3ds_end(w);

    w3ds_begin(w, 0x4000);
    w3ds_cstr(w, "Omni01");
    support_chunk_empty(w, 0x4010); /* OBJ_HIDDEN */
    w3ds_begin(w, 0x4600);
    w3ds_f32v(w, omni_pos, 3);
    color_f(w, 0x0013, 0.5f, 0.5f, 1.0f);
    support_chunk_empty(w, 0x4620);
    w3ds_end(w);
    w3ds_end(w);
}

static void key_rot(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float angle, float x, float y,
                    float z)
{
    w3ds_key_header(w, frame, tcb);
    w3ds_f32(w, angle);
    w3ds_f32(w, x);
    w3ds_f32(w, y);
    w3ds_f32(w, z);
}

static void key_scalar(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float v)
{
    w3ds_key_header(w, frame, tcb);
    w3ds_f32(w, v);
}

static void simple_pos(w3ds *w, float x, float y, float z)
{
    support_track_begin(w, 0xB020, 0, 2);
    support_key_vec(w, 0, NULL, x, y, z);
    support_key_vec(w, 50, NULL, x + 1, y - 1, z + 2);
    w3ds_end(w);
}

static void write_keyframer(w3ds *w)
{
    static const w3ds_tcb tcb1 = { 0.5f, -0.25f, 0.3f, 0.2f, 0.4f, 0 };
    static const w3ds_tcb tcb2 = { -0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 0 };
    static const w3ds_tcb tcb3 = { 0.0f, 0.5f, -1.0f, 0.0f, 0.0f, 0 };
    static const float pivot[3] = { 0.5f, 0.5f, 0.5f };
    static const float bbox[6] = { -1, -1, -1, 1, 1, 1 };
    static const float prescale[3] = { 1, 1, 1 };
    w3ds_begin(w, 0xB000);
    support_kf_segment(w, "rich.3ds", 100);
    support_chunk_u32(w, 0xB009, 0); /* KFCURTIME */

    /* 0: ambient */
    support_node_begin(w, 0xB001, 0, "$AMBIENT$", 0xFFFF);
    support_track_begin(w, 0xB025, 0, 2);
    support_key_vec(w, 0, NULL, 0.1f, 0.1f, 0.1f);
    support_key_vec(w, 100, &tcb2, 0.3f, 0.2f, 0.1f);
    w3ds_end(w);
    w3ds_end(w);

    /* 1: a dummy group */
    support_node_begin(w, 0xB002, 1, "$$$DUMMY", 0xFFFF);
    support_chunk_str(w, 0xB011, "Group01");
    support_chunk_f32v(w, 0xB013, pivot, 3);
    support_chunk_f32v(w, 0xB014, bbox, 6);
    simple_pos(w, 0, 0, 0);
    support_track_begin(w, 0xB021, 0, 1);
    key_rot(w, 0, NULL, 0.0f, 0, 0, 1);
    w3ds_end(w);
    support_track_begin(w, 0xB022, 0, 1);
    support_key_vec(w, 0, NULL, 1, 1, 1);
    w3ds_end(w);
    w3ds_end(w);

    /* 2: the box, child of the dummy, with TCB keys everywhere */
    support_node_begin(w, 0xB002, 2, "Box", 1);
    support_chunk_f32v(w, 0xB013, pivot, 3);
    support_chunk_f32(w, 0xB015, 30.0f);
    support_track_begin(w, 0xB020, 0, 3);
    support_key_vec(w, 0, &tcb1, 0, 0, 0);
    support_key_vec(w, 10, &tcb2, 10, 0, 0);
    support_key_vec(w, 20, &tcb3, 10, 10, 0);
    w3ds_end(w);
    support_track_begin(w, 0xB021, 0, 3);
    key_rot(w, 0, &tcb1, 0.0f, 0, 0, 1);
    key_rot(w, 10, &tcb2, 1.0f, 0, 0, 1);
    key_rot(w, 20, &tcb3, 4.0f, 0, 1, 0); /* more than a half turn */
    w3ds_end(w);
    support_track_begin(w, 0xB022, 0, 2);
    support_key_vec(w, 0, NULL, 1, 1, 1);
    support_key_vec(w, 20, &tcb1, 2, 2, 2);
    w3ds_end(w);
    support_track_begin(w, 0xB029, 0, 2); /* HIDE */
    w3ds_key_header(w, 0, NULL);
    w3ds_key_header(w, 15, NULL);
    w3ds_end(w);
    support_track_begin(w, 0xB026, 0, 2); /* MORPH */
    w3ds_key_header(w, 0, NULL);
    w3ds_cstr(w, "Box");
    w3ds_key_header(w, 10, NULL);
    w3ds_cstr(w, "Mirror");
    w3ds_end(w);
    w3ds_end(w);

    /* 3: the mirrored box, child of the box, a looping track */
    support_node_begin(w, 0xB002, 3, "Mirror", 2);
    support_chunk_f32v(w, 0xB012, prescale, 3);
    support_track_begin(w, 0xB020, 3, 3);
    support_key_vec(w, 0, NULL, 0, 0, 0);
    support_key_vec(w, 10, &tcb1, 0, 5, 0);
    support_key_vec(w, 20, NULL, 0, 0, 0);
    w3ds_end(w);
    support_track_begin(w, 0xB021, 2, 2);
    key_rot(w, 0, NULL, 0.5f, 1, 0, 0);
    key_rot(w, 20, NULL, 0.5f, 1, 0, 0);
    w3ds_end(w);
    w3ds_end(w);

    /* 4, 5: camera and its target */
    support_node_begin(w, 0xB003, 4, "Cam01", 0xFFFF);
    simple_pos(w, 0, -10, 5);
    support_track_begin(w, 0xB023, 0, 2);
    key_scalar(w, 0, NULL, 45.0f);
    key_scalar(w, 50, &tcb2, 60.0f);
    w3ds_end(w);
    support_track_begin(w, 0xB024, 0, 2);
    key_scalar(w, 0, NULL, 0.0f);
    key_scalar(w, 50, NULL, 30.0f);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, 0xB004, 5, "Cam01", 0xFFFF);
    simple_pos(w, 0, 0, 0);
    w3ds_end(w);

    /* 6, 7: spotlight and its target */
    support_node_begin(w, 0xB007, 6, "Spot01", 0xFFFF);
    simple_pos(w, 5, 5, 10);
    support_track_begin(w, 0xB025, 0, 1);
    support_key_vec(w, 0, NULL, 1, 1, 1);
    w3ds_end(w);
    support_track_begin(w, 0xB027, 0, 1);
    key_scalar(w, 0, NULL, 30.0f);
    w3ds_end(w);
    support_track_begin(w, 0xB028, 0, 1);
    key_scalar(w, 0, NULL, 45.0f);
    w3ds_end(w);
    support_track_begin(w, 0xB024, 0, 1);
    key_scalar(w, 0, NULL, 10.0f);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, 0xB006, 7, "Spot01", 0xFFFF);
    simple_pos(w, 0, 0, 0);
    w3ds_end(w);

    /* 8: omni light, child of the dummy */
    support_node_begin(w, 0xB005, 8, "Omni01", 1);
    simple_pos(w, -5, 0, 3);
    support_track_begin(w, 0xB025, 0, 1);
    support_key_vec(w, 0, NULL, 0.5f, 0.5f, 1.0f);
    w3ds_end(w);
    w3ds_end(w);

    w3ds_end(w); /* KFDATA */
}

/* The whole file; free with free(). */
static unsigned char *build_rich(size_t *size)
{
    w3ds w;
    w3ds_init(&w);
    w3ds_begin(&w, 0x4D4D);
    support_chunk_u32(&w, 0x0002, 3);
    w3ds_begin(&w, 0x3D3D);
    write_editor(&w);
    w3ds_end(&w);
    write_keyframer(&w);
    w3ds_end(&w);
    assert_int_equal(w.depth, 0);
    return take_bytes(&w, size);
}

/* The rich scene plus enough data that the scene needs many blocks from the
 * allocator (arrays larger than the arena's first block, many keys). */
static unsigned char *build_big(size_t *size)
{
    w3ds w;
    uint32_t i;
    char name[32];
    support_file_begin(&w, 0x3D3D);
    write_editor(&w);
    for (i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "Mat%u", (unsigned)i);
        write_material(&w, name, 1);
    }
    w3ds_begin(&w, 0x4000);
    w3ds_cstr(&w, "Grid");
    w3ds_begin(&w, 0x4100);
    w3ds_begin(&w, 0x4110);
    w3ds_u16(&w, 7000);
    for (i = 0; i < 7000; i++) {
        w3ds_f32(&w, (float)(i % 100));
        w3ds_f32(&w, (float)(i / 100));
        w3ds_f32(&w, 0.0f);
    }
    w3ds_end(&w);
    w3ds_begin(&w, 0x4120);
    w3ds_u16(&w, 6000);
    for (i = 0; i < 6000; i++) {
        w3ds_u16(&w, (uint16_t)i);
        w3ds_u16(&w, (uint16_t)(i + 1));
        w3ds_u16(&w, (uint16_t)(i + 100));
        w3ds_u16(&w, 7);
    }
    w3ds_begin(&w, 0x4130);
    w3ds_cstr(&w, "Mat7");
    w3ds_u16(&w, 3000);
    for (i = 0; i < 3000; i++)
        w3ds_u16(&w, (uint16_t)(2 * i));
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w); /* MDATA */
    w3ds_begin(&w, 0xB000);
    for (i = 0; i < 200; i++) {
        support_node_begin(&w, 0xB002, (uint16_t)i, i == 0 ? "Grid" : "$$$DUMMY",
                           i == 0 ? 0xFFFF : (uint16_t)(i - 1));
        if (i == 1) {
            uint32_t k;
            support_track_begin(&w, 0xB021, 0, 3000);
            for (k = 0; k < 3000; k++) /* unsorted on purpose: the sort allocates */
                key_rot(&w, (int32_t)((k * 7919u) % 3000u), NULL, 0.01f, 0, 0, 1);
            w3ds_end(&w);
        }
        simple_pos(&w, (float)i, 0, 0);
        w3ds_end(&w);
    }
    w3ds_end(&w); /* KFDATA */
    w3ds_end(&w);
    return take_bytes(&w, size);
}

/* ------------------------------------------------------------------------ */
/* Our own walk of the chunks we wrote                                      */
/* ------------------------------------------------------------------------ */

typedef struct chunk_info {
    uint16_t id;
    uint32_t offset, length, end;
    int depth;
} chunk_info;

typedef struct chunk_list {
    chunk_info *v;
    size_t n, cap;
} chunk_list;

/* Bytes of fixed data before the sub-chunks of `id`, or -1 for a leaf. */
static long children_at(uint16_t id, kf3ds_reader body)
{
    switch (id) {
    case 0x4D4D: case 0x3D3D: case 0x4100: case 0xAFFF: case 0xB000:
    case 0xB001: case 0xB002: case 0xB003: case 0xB004: case 0xB005: case 0xB006:
    case 0xB007: case 0xA010: case 0xA020: case 0xA030: case 0xA040: case 0xA041:
    case 0xA050: case 0xA084: case 0xA200: case 0xA230: case 0x2100:
        return 0;
    case 0x4000: {
        size_t len;
        int term;
        kf3ds_read_cstr(&body, &len, &term);
        return (long)len + 1;
    }
    case 0x4120:
        return 2 + 8 * (long)kf3ds_read_u16(&body);
    case 0x4600:
        return 12;
    case 0x4610:
        return 20;
    case 0x4700:
        return 32;
    default:
        return -1;
    }
}

static void collect(chunk_list *l, kf3ds_reader *parent, int depth)
{
    kf3ds_chunk c;
    kf3ds_reader body;
    while (kf3ds_chunk_next(parent, &c, &body) == KF3DS_NEXT_OK) {
        long skip;
        if (l->n == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 64;
            l->v = (chunk_info *)realloc(l->v, l->cap * sizeof *l->v);
            assert_non_null(l->v);
        }
        l->v[l->n].id = c.id;
        l->v[l->n].offset = c.offset;
        l->v[l->n].length = c.length;
        l->v[l->n].end = c.end;
        l->v[l->n].depth = depth;
        l->n++;
        skip = children_at(c.id, body);
        if (skip >= 0) {
            body.pos += (size_t)skip;
            collect(l, &body, depth + 1);
        }
    }
}

static chunk_list collect_chunks(const unsigned char *data, size_t size)
{
    chunk_list l;
    kf3ds_reader top = kf3ds_reader_make(data, size);
    memset(&l, 0, sizeof l);
    collect(&l, &top, 0);
    return l;
}

/* ------------------------------------------------------------------------ */
/* The valid scene itself                                                   */
/* ------------------------------------------------------------------------ */

static void inspect_rich(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    int32_t box, mirror;
    (void)user;
    MUST(s != NULL);
    MUST(err->code == KF3DS_OK);
    MUST(s->num_diags == 0);
    MUST(s->num_meshes == 2);
    MUST(s->num_materials == 2);
    MUST(s->num_cameras == 1);
    MUST(s->num_lights == 2);
    MUST(s->num_nodes == 9);
    box = kf3ds_scene_find_mesh(s, "Box");
    mirror = kf3ds_scene_find_mesh(s, "Mirror");
    MUST(box >= 0 && mirror >= 0);
    MUST(s->meshes[box].num_points == 8);
    MUST(s->meshes[box].num_faces == 12);
    MUST(s->meshes[box].num_texcoords == 8);
    MUST(s->meshes[box].num_groups == 2);
    MUST(kf3ds_face_material(&s->meshes[box], 0) == 0);
    MUST(kf3ds_face_material(&s->meshes[box], 11) == 1);
    MUST(s->meshes[mirror].mirrored == 1);
    MUST(s->nodes[2].parent == 1);
    MUST(s->nodes[3].parent == 2);
    MUST(s->nodes[8].parent == 1);
    MUST(s->nodes[2].mesh == box);
    MUST(s->nodes[1].is_dummy);
    MUST(s->nodes[4].target == 5);
    MUST(s->nodes[6].target == 7);
    MUST(s->nodes[2].tracks[KF3DS_TRACK_POS].num_keys == 3);
    MUST(s->nodes[2].tracks[KF3DS_TRACK_ROT].num_keys == 3);
    MUST(s->nodes[2].tracks[KF3DS_TRACK_MORPH].num_keys == 2);
    MUST(s->nodes[2].tracks[KF3DS_TRACK_MORPH].keys[1].morph_mesh == mirror);
    MUST(s->lights[0].spot == 1);
    MUST(s->anim_length == 100);
}

static void test_rich_scene_is_valid(void **state)
{
    size_t size;
    unsigned char *data = build_rich(&size);
    chunk_list l = collect_chunks(data, size);
    (void)state;
    support_set_what("rich scene (%lu bytes)", (unsigned long)size);
    MUST(l.n > 100);
    MUST(l.v[0].id == 0x4D4D && l.v[0].end == size);
    MUST(load_and_check(data, size, NULL, CHECK_FULL, NULL, inspect_rich, NULL));
    free(l.v);
    free(data);
}

/* ------------------------------------------------------------------------ */
/* (1) truncation at every byte                                             */
/* ------------------------------------------------------------------------ */

static void inspect_truncated(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    int k;
    (void)err;
    (void)user;
    if (!s)
        return;
    /* the root's own overrun is always reported */
    k = find_diag(s, KF3DS_WARN_OVERRUN, 0, 1);
    MUST(k >= 0);
    MUST(s->diags[k].chunk_id == 0x4D4D);
}

static void test_truncate_every_byte(void **state)
{
    size_t size, cut;
    unsigned char *data = build_rich(&size);
    (void)state;
    for (cut = 0; cut < size; cut++) {
        kf3ds_diag err;
        int got;
        support_set_what("rich scene cut to %lu of %lu bytes", (unsigned long)cut,
                         (unsigned long)size);
        got = load_and_check(data, cut, NULL, CHECK_FULL, &err, inspect_truncated, NULL);
        if (cut < 6) {
            MUST(!got);
            MUST(err.code == KF3DS_ERR_NOT_3DS);
        } else {
            MUST(got); /* the root is there: a scene with what could be read */
        }
    }
    free(data);
}

/* ------------------------------------------------------------------------ */
/* (2) truncation at chunk boundaries: the overrun is listed                */
/* ------------------------------------------------------------------------ */

typedef struct boundary_ctx {
    const chunk_list *chunks;
    uint32_t cut;
} boundary_ctx;

static void inspect_boundary(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const boundary_ctx *b = (const boundary_ctx *)user;
    size_t i;
    (void)err;
    MUST(s != NULL);
    /* every chunk whose header is complete and whose end lies beyond the cut
     * was clamped, and each clamp is listed with its offset and id */
    for (i = 0; i < b->chunks->n; i++) {
        const chunk_info *c = &b->chunks->v[i];
        if (c->offset + 6 <= b->cut && b->cut < c->end) {
            int k = find_diag(s, KF3DS_WARN_OVERRUN, c->offset, 1);
            if (k < 0)
                fail_msg("%s: no overrun listed for chunk 0x%04X at %lu", support_what,
                         (unsigned)c->id, (unsigned long)c->offset);
            MUST(s->diags[k].chunk_id == c->id);
            MUST(s->diags[k].severity == KF3DS_WARNING);
        }
    }
}

static void test_truncate_chunk_boundaries(void **state)
{
    size_t size, i;
    unsigned char *data = build_rich(&size);
    chunk_list l = collect_chunks(data, size);
    (void)state;
    for (i = 0; i < 2 * l.n; i++) {
        boundary_ctx b;
        uint32_t cut = i % 2 ? l.v[i / 2].end : l.v[i / 2].offset;
        if (cut < 6 || cut >= size)
            continue;
        b.chunks = &l;
        b.cut = cut;
        support_set_what("rich scene cut at chunk boundary %lu (%s of chunk 0x%04X)",
                         (unsigned long)cut, i % 2 ? "end" : "start", (unsigned)l.v[i / 2].id);
        MUST(load_and_check(data, cut, NULL, CHECK_LIGHT, NULL, inspect_boundary, &b));
    }
    free(l.v);
    free(data);
}

/* ------------------------------------------------------------------------ */
/* (3) damaged length fields                                                */
/* ------------------------------------------------------------------------ */

typedef struct length_ctx {
    const chunk_info *chunk;
    uint32_t value;
} length_ctx;

static void inspect_length(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const length_ctx *lc = (const length_ctx *)user;
    int k;
    if (lc->value < 6) {
        if (lc->chunk->offset == 0) { /* the root itself */
            MUST(s == NULL);
            MUST(err->code == KF3DS_ERR_CHUNK);
            MUST(err->offset == 0);
            return;
        }
        MUST(s != NULL);
        k = find_diag(s, KF3DS_ERR_CHUNK, lc->chunk->offset, 1);
        if (k < 0)
            fail_msg("%s: no KF3DS_ERR_CHUNK at offset %lu", support_what,
                     (unsigned long)lc->chunk->offset);
        MUST(s->diags[k].severity == KF3DS_ERROR);
        MUST(s->diags[k].chunk_id == lc->chunk->id);
        MUST(err->code == KF3DS_ERR_CHUNK);
        MUST(err->offset == lc->chunk->offset);
    } else if (lc->value == 0xFFFFFFFFu) {
        MUST(s != NULL);
        k = find_diag(s, KF3DS_WARN_OVERRUN, lc->chunk->offset, 1);
        if (k < 0)
            fail_msg("%s: no KF3DS_WARN_OVERRUN at offset %lu", support_what,
                     (unsigned long)lc->chunk->offset);
        MUST(s->diags[k].chunk_id == lc->chunk->id);
    }
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)((v >> 8) & 0xFF);
    p[2] = (unsigned char)((v >> 16) & 0xFF);
    p[3] = (unsigned char)((v >> 24) & 0xFF);
}

static void put_u16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)(v >> 8);
}

static void test_damaged_lengths(void **state)
{
    size_t size, i, j;
    unsigned char *data = build_rich(&size);
    unsigned char *copy = (unsigned char *)malloc(size);
    chunk_list l = collect_chunks(data, size);
    (void)state;
    assert_non_null(copy);
    for (i = 0; i < l.n; i++) {
        const uint32_t values[] = { 0, 5, 6, 0xFFFFFFFFu, l.v[i].length - 1, l.v[i].length + 1 };
        for (j = 0; j < sizeof values / sizeof values[0]; j++) {
            length_ctx lc;
            lc.chunk = &l.v[i];
            lc.value = values[j];
            memcpy(copy, data, size);
            put_u32(copy + l.v[i].offset + 2, values[j]);
            support_set_what("chunk 0x%04X at %lu: length %lu -> %lu", (unsigned)l.v[i].id,
                             (unsigned long)l.v[i].offset, (unsigned long)l.v[i].length,
                             (unsigned long)values[j]);
            load_and_check(copy, size, NULL, CHECK_LIGHT, NULL, inspect_length, &lc);
        }
    }
    free(l.v);
    free(copy);
    free(data);
}

/* Every chunk id in turn replaced by an unknown one and by a container id:
 * the readers must skip or misread it without harm. */
static void test_damaged_ids(void **state)
{
    static const uint16_t ids[] = { 0x1234, 0x4D4D, 0x3D3D, 0x4000, 0x4120, 0xB002, 0xB021 };
    size_t size, i, j;
    unsigned char *data = build_rich(&size);
    unsigned char *copy = (unsigned char *)malloc(size);
    chunk_list l = collect_chunks(data, size);
    (void)state;
    assert_non_null(copy);
    for (i = 1; i < l.n; i++) {
        for (j = 0; j < sizeof ids / sizeof ids[0]; j++) {
            memcpy(copy, data, size);
            put_u16(copy + l.v[i].offset, ids[j]);
            support_set_what("chunk 0x%04X at %lu: id -> 0x%04X", (unsigned)l.v[i].id,
                             (unsigned long)l.v[i].offset, (unsigned)ids[j]);
            MUST(load_and_check(copy, size, NULL, CHECK_LIGHT, NULL, NULL, NULL));
        }
    }
    free(l.v);
    free(copy);
    free(data);
}

/* ------------------------------------------------------------------------ */
/* (4) counts far beyond their chunk                                        */
/* ------------------------------------------------------------------------ */

/* A file with one object node carrying one track of kind `tag` whose header
 * claims `count` keys while only two follow. */
static unsigned char *build_track_file(uint16_t tag, uint32_t count, int fat_keys, size_t *size)
{
    static const w3ds_tcb tcb = { 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0 };
    const w3ds_tcb *t = fat_keys ? &tcb : NULL;
    w3ds w;
    int k;
    support_file_begin(&w, 0x3D3D);
    write_box_mesh(&w, "Box", 0.0f, 0);
    w3ds_end(&w);
    w3ds_begin(&w, 0xB000);
    support_node_begin(&w, 0xB002, 0, "Box", 0xFFFF);
    support_track_begin(&w, tag, 0, count);
    for (k = 0; k < 2; k++) {
        int32_t frame = 10 * k;
        switch (tag) {
        case 0xB020: case 0xB022: case 0xB025:
            support_key_vec(&w, frame, t, 1.0f + (float)k, 2.0f, 3.0f);
            break;
        case 0xB021:
            key_rot(&w, frame, t, 0.5f, 0, 0, 1);
            break;
        case 0xB026:
            w3ds_key_header(&w, frame, t);
            w3ds_cstr(&w, "Box");
            break;
        case 0xB029:
            w3ds_key_header(&w, frame, t);
            break;
        default:
            key_scalar(&w, frame, t, 40.0f + (float)k);
            break;
        }
    }
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    return take_bytes(&w, size);
}

static void test_key_count_beyond_chunk(void **state)
{
    static const uint16_t tags[] = { 0xB020, 0xB021, 0xB022, 0xB023, 0xB024, 0xB025,
                                     0xB026, 0xB027, 0xB028, 0xB029 };
    static const uint32_t counts[] = { 0xFFFFFFFFu, 1000000u, 3u };
    size_t t, n, fat;
    (void)state;
    for (t = 0; t < sizeof tags / sizeof tags[0]; t++)
        for (n = 0; n < sizeof counts / sizeof counts[0]; n++)
            for (fat = 0; fat < 2; fat++) {
                size_t size;
                unsigned char *data = build_track_file(tags[t], counts[n], (int)fat, &size);
                counting c;
                kf3ds_diag err;
                kf3ds_scene *s;
                const kf3ds_track *tr;
                int k;
                support_set_what("track 0x%04X claiming %lu keys with 2 present%s",
                                 (unsigned)tags[t], (unsigned long)counts[n],
                                 fat ? " (TCB keys)" : "");
                s = load_scene(data, size, &c, NULL, &err, CHECK_FULL);
                MUST(err.code == KF3DS_ERR_TRUNCATED);
                k = find_diag(s, KF3DS_ERR_TRUNCATED, 0, 0);
                MUST(k >= 0);
                MUST(s->diags[k].chunk_id == tags[t]);
                MUST(s->num_nodes == 1);
                tr = &s->nodes[0].tracks[tags[t] - 0xB020];
                MUST(tr->num_keys == 2);
                MUST(tr->keys[0].frame == 0 && tr->keys[1].frame == 10);
                if (tags[t] == 0xB020)
                    MUST(tr->keys[0].value[0] == 1.0f && tr->keys[1].value[0] == 2.0f);
                if (tags[t] == 0xB026)
                    MUST(strcmp(tr->keys[1].morph_name, "Box") == 0);
                if (fat)
                    MUST(tr->keys[1].tension == 0.1f && tr->keys[1].ease_from == 0.5f);
                MUST(c.bytes < 1024u * 1024u); /* the scene owns little memory */
                counting_free_scene(s, &c);
                free(data);
            }
}

/* max_keys: a clean ERR_LIMIT and the first keys kept. */
static void test_key_limit(void **state)
{
    size_t size;
    unsigned char *data = build_track_file(0xB020, 2, 0, &size);
    counting c;
    kf3ds_diag err;
    kf3ds_limits limits;
    kf3ds_scene *s;
    (void)state;
    memset(&limits, 0, sizeof limits);
    limits.max_keys = 1;
    support_set_what("max_keys 1 with a 2-key track");
    s = load_scene(data, size, &c, &limits, &err, CHECK_FULL);
    MUST(err.code == KF3DS_ERR_LIMIT);
    MUST(s->nodes[0].tracks[KF3DS_TRACK_POS].num_keys == 1);
    counting_free_scene(s, &c);
    free(data);
}

/* POINT_ARRAY of the triangle (0,0,0) (1,0,0) (0,1,0). */
static void triangle_points(w3ds *w)
{
    static const float pts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    w3ds_begin(w, 0x4110);
    w3ds_u16(w, 3);
    w3ds_f32v(w, pts, 9);
    w3ds_end(w);
}

static unsigned char *build_array_counts(size_t *size)
{
    w3ds w;
    support_file_begin(&w, 0x3D3D);
    w3ds_material(&w, "M", NULL, NULL, NULL);
    /* mesh A: every array claims 65535 elements */
    w3ds_begin(&w, 0x4000);
    w3ds_cstr(&w, "A");
    w3ds_begin(&w, 0x4100);
    w3ds_begin(&w, 0x4110);
    w3ds_u16(&w, 0xFFFF);
    w3ds_f32(&w, 1.0f); w3ds_f32(&w, 2.0f); w3ds_f32(&w, 3.0f);
    w3ds_f32(&w, 4.0f); w3ds_f32(&w, 5.0f); w3ds_f32(&w, 6.0f);
    w3ds_end(&w);
    w3ds_begin(&w, 0x4111);
    w3ds_u16(&w, 0xFFFF);
    w3ds_u16(&w, 9);
    w3ds_end(&w);
    w3ds_begin(&w, 0x4140);
    w3ds_u16(&w, 0xFFFF);
    w3ds_f32(&w, 0.5f); w3ds_f32(&w, 0.25f);
    w3ds_f32(&w, 0.75f); w3ds_f32(&w, 1.0f);
    w3ds_end(&w);
    w3ds_begin(&w, 0x4120);
    w3ds_u16(&w, 0xFFFF);
    w3ds_u16(&w, 0); w3ds_u16(&w, 1); w3ds_u16(&w, 1); w3ds_u16(&w, 7);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    /* mesh B: sane arrays, a material group and smoothing that claim too much */
    w3ds_begin(&w, 0x4000);
    w3ds_cstr(&w, "B");
    w3ds_begin(&w, 0x4100);
    triangle_points(&w);
    w3ds_begin(&w, 0x4120);
    w3ds_u16(&w, 2);
    w3ds_u16(&w, 0); w3ds_u16(&w, 1); w3ds_u16(&w, 2); w3ds_u16(&w, 7);
    w3ds_u16(&w, 2); w3ds_u16(&w, 1); w3ds_u16(&w, 0); w3ds_u16(&w, 7);
    w3ds_begin(&w, 0x4130);
    w3ds_cstr(&w, "M");
    w3ds_u16(&w, 0xFFFF);
    w3ds_u16(&w, 1);
    w3ds_end(&w);
    w3ds_begin(&w, 0x4150);
    w3ds_u32(&w, 1); /* one of two */
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    return take_bytes(&w, size);
}

static void test_array_counts_beyond_chunk(void **state)
{
    size_t size;
    unsigned char *data = build_array_counts(&size);
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    const kf3ds_mesh *a, *b;
    (void)state;
    support_set_what("POINT_ARRAY/FACE_ARRAY/TEX_VERTS/POINT_FLAG_ARRAY/MSH_MAT_GROUP counts "
                     "65535");
    s = load_scene(data, size, &c, NULL, &err, CHECK_FULL);
    MUST(err.code == KF3DS_ERR_TRUNCATED);
    MUST(s->num_meshes == 2);
    a = &s->meshes[kf3ds_scene_find_mesh(s, "A")];
    b = &s->meshes[kf3ds_scene_find_mesh(s, "B")];
    MUST(a->num_points == 2);
    MUST(a->points[1][0] == 4.0f && a->points[1][2] == 6.0f);
    MUST(a->num_point_flags == 1 && a->point_flags[0] == 9);
    MUST(a->num_texcoords == 2 && a->texcoords[1][0] == 0.75f);
    MUST(a->num_faces == 1);
    MUST(a->faces[0].v[0] == 0 && a->faces[0].v[1] == 1);
    MUST(b->num_faces == 2);
    MUST(b->num_groups == 1);
    MUST(b->groups[0].num_faces == 1);
    MUST(b->groups[0].material == 0);
    MUST(b->groups[0].faces[0] == 1);
    MUST(kf3ds_face_material(b, 0) == KF3DS_NONE);
    MUST(kf3ds_face_material(b, 1) == 0);
    MUST(kf3ds_face_smoothing(b, 0) == 1);
    MUST(c.bytes < 1024u * 1024u);
    counting_free_scene(s, &c);
    free(data);
}

/* ------------------------------------------------------------------------ */
/* (5) names without terminators at the very end of the buffer             */
/* ------------------------------------------------------------------------ */

/* Writes raw chunks: each level is (id, prefix bytes); the last one gets
 * `tail` as its payload. Returns an exactly sized malloc'ed buffer. */
typedef struct level {
    uint16_t id;
    const char *prefix;
    size_t prefix_len;
} level;

static unsigned char *build_levels(const level *levels, size_t n, const void *tail,
                                   size_t tail_len, size_t *size)
{
    size_t total = tail_len, i, pos = 0;
    unsigned char *out;
    for (i = 0; i < n; i++)
        total += 6 + levels[i].prefix_len;
    out = (unsigned char *)malloc(total ? total : 1);
    assert_non_null(out);
    for (i = 0; i < n; i++) {
        size_t rest = total - pos;
        put_u16(out + pos, levels[i].id);
        put_u32(out + pos + 2, (uint32_t)rest);
        memcpy(out + pos + 6, levels[i].prefix, levels[i].prefix_len);
        pos += 6 + levels[i].prefix_len;
    }
    if (tail_len)
        memcpy(out + pos, tail, tail_len);
    *size = total;
    return out;
}

typedef struct name_ctx {
    uint16_t id;
    uint32_t offset;
    int error_allowed; /* the fields after the name are missing too */
    const char *expect;
} name_ctx;

static void inspect_name(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const name_ctx *nc = (const name_ctx *)user;
    uint32_t i;
    int found = 0;
    MUST(s != NULL);
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == KF3DS_WARN_VALUE && s->diags[i].offset == nc->offset &&
            s->diags[i].chunk_id == nc->id)
            found = 1;
    MUST(found);
    if (!nc->error_allowed)
        MUST(err->code == KF3DS_OK);
    if (nc->id == 0xA000) {
        MUST(s->num_materials == 1);
        MUST(strcmp(s->materials[0].name, nc->expect) == 0);
    }
    if (nc->id == 0xB010 || nc->id == 0xB011) {
        MUST(s->num_nodes == 1);
        if (nc->id == 0xB010) {
            MUST(strcmp(s->nodes[0].name, nc->expect) == 0);
            MUST(s->nodes[0].parent == KF3DS_NONE);
        } else {
            MUST(s->nodes[0].instance != NULL);
            MUST(strcmp(s->nodes[0].instance, nc->expect) == 0);
        }
    }
    if (nc->id == 0xA300) {
        MUST(s->num_materials == 1);
        MUST(s->materials[0].texture1.file != NULL);
        MUST(strcmp(s->materials[0].texture1.file, nc->expect) == 0);
    }
}

static void test_unterminated_names(void **state)
{
    static const level named_object[] = { {0x4D4D, "", 0}, {0x3D3D, "", 0}, {0x4000, "", 0} };
    static const level node_hdr[] = { {0x4D4D, "", 0}, {0xB000, "", 0}, {0xB002, "", 0},
                                      {0xB010, "", 0} };
    static const level instance[] = { {0x4D4D, "", 0}, {0xB000, "", 0}, {0xB002, "", 0},
                                      {0xB011, "", 0} };
    static const level mat_name[] = { {0x4D4D, "", 0}, {0x3D3D, "", 0}, {0xAFFF, "", 0},
                                      {0xA000, "", 0} };
    static const level map_name[] = { {0x4D4D, "", 0}, {0x3D3D, "", 0}, {0xAFFF, "", 0},
                                      {0xA200, "", 0}, {0xA300, "", 0} };
    static const struct {
        const level *levels;
        size_t n;
        int error_allowed;
        const char *what;
    } cases[] = {
        {named_object, 3, 0, "NAMED_OBJECT"},
        {node_hdr, 4, 1, "NODE_HDR"},
        {instance, 4, 0, "INSTANCE_NAME"},
        {mat_name, 4, 0, "MAT_NAME"},
        {map_name, 5, 0, "MAT_MAPNAME"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        unsigned char *data = build_levels(cases[i].levels, cases[i].n, "Box", 3, &size);
        name_ctx nc;
        nc.id = cases[i].levels[cases[i].n - 1].id;
        nc.offset = (uint32_t)(6 * (cases[i].n - 1));
        nc.error_allowed = cases[i].error_allowed;
        nc.expect = "Box";
        support_set_what("%s without terminator at the end of the buffer", cases[i].what);
        MUST(load_and_check(data, size, NULL, CHECK_FULL, NULL, inspect_name, &nc));
        free(data);
    }
}

/* Other strings cut at the end of the buffer: the KFHDR file name, a
 * material group name, a morph key name. No crash, a scene. */
static void test_unterminated_other_strings(void **state)
{
    static const level kfhdr[] = { {0x4D4D, "", 0}, {0xB000, "", 0}, {0xB00A, "\x05\x00", 2} };
    static const level group[] = { {0x4D4D, "", 0}, {0x3D3D, "", 0}, {0x4000, "G\0", 2},
                                   {0x4100, "", 0}, {0x4120, "\x00\x00", 2}, {0x4130, "", 0} };
    static const level morph[] = {
        {0x4D4D, "", 0}, {0xB000, "", 0}, {0xB002, "", 0},
        {0xB026, "\0\0\0\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\0\0", 20} };
    static const struct {
        const level *levels;
        size_t n;
        const char *what;
    } cases[] = {
        {kfhdr, 3, "KFHDR name"},
        {group, 6, "MSH_MAT_GROUP name"},
        {morph, 4, "MORPH key name"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        unsigned char *data = build_levels(cases[i].levels, cases[i].n, "Box", 3, &size);
        support_set_what("%s without terminator at the end of the buffer", cases[i].what);
        MUST(load_and_check(data, size, NULL, CHECK_FULL, NULL, NULL, NULL));
        free(data);
    }
}

/* ------------------------------------------------------------------------ */
/* (6) 10,000 levels of nesting                                             */
/* ------------------------------------------------------------------------ */

#define DEEP 10000

static void nested(const char *what, const level *head, size_t nhead, const level *cycle,
                   size_t ncycle)
{
    level *levels = (level *)malloc(DEEP * sizeof *levels);
    size_t i, size;
    unsigned char *data;
    assert_non_null(levels);
    for (i = 0; i < DEEP; i++)
        levels[i] = i < nhead ? head[i] : cycle[(i - nhead) % ncycle];
    data = build_levels(levels, DEEP, "\x01\x02\x03\x04", 4, &size);
    support_set_what("%d levels: %s", DEEP, what);
    MUST(load_and_check(data, size, NULL, CHECK_FULL, NULL, NULL, NULL));
    free(data);
    free(levels);
}

static void test_deep_nesting(void **state)
{
    static const level root[] = { {0x4D4D, "", 0} };
    static const level root_mdata[] = { {0x4D4D, "", 0}, {0x3D3D, "", 0} };
    static const level root_mdata_mat[] = { {0x4D4D, "", 0}, {0x3D3D, "", 0}, {0xAFFF, "", 0} };
    static const level mdata[] = { {0x3D3D, "", 0} };
    static const level magic[] = { {0x4D4D, "", 0} };
    static const level kf_node[] = { {0xB000, "", 0}, {0xB002, "", 0} };
    static const level root_kf[] = { {0x4D4D, "", 0}, {0xB000, "", 0} };
    static const level node[] = { {0xB002, "", 0} };
    static const level node_track[] = { {0xB002, "", 0}, {0xB020, "", 0} };
    static const level obj_mesh[] = { {0x4000, "x\0", 2}, {0x4100, "", 0} };
    static const level faces[] = { {0x4000, "x\0", 2}, {0x4100, "", 0}, {0x4120, "\0\0", 2} };
    static const level texmap[] = { {0xA200, "", 0} };
    static const level colors[] = { {0xA010, "", 0}, {0x0010, "", 0} };
    static const level unknown[] = { {0x1234, "", 0} };
    static const level light[] = { {0x4000, "L\0", 2},
                                   {0x4600, "\0\0\0\0\0\0\0\0\0\0\0\0", 12} };
    (void)state;
    nested("M3DMAGIC > MDATA > MDATA > ...", root, 1, mdata, 1);
    nested("M3DMAGIC > M3DMAGIC > ...", root, 0, magic, 1);
    nested("M3DMAGIC > KFDATA > OBJECT_NODE_TAG > KFDATA > ...", root, 1, kf_node, 2);
    nested("KFDATA > OBJECT_NODE_TAG > OBJECT_NODE_TAG > ...", root_kf, 2, node, 1);
    nested("KFDATA > OBJECT_NODE_TAG > POS_TRACK_TAG > OBJECT_NODE_TAG > ...", root_kf, 2,
           node_track, 2);
    nested("NAMED_OBJECT > N_TRI_OBJECT > NAMED_OBJECT > ...", root_mdata, 2, obj_mesh, 2);
    nested("NAMED_OBJECT > N_TRI_OBJECT > FACE_ARRAY > NAMED_OBJECT > ...", root_mdata, 2,
           faces, 3);
    nested("MAT_ENTRY > MAT_TEXMAP > MAT_TEXMAP > ...", root_mdata_mat, 3, texmap, 1);
    nested("MAT_ENTRY > MAT_AMBIENT > COLOR_F > MAT_AMBIENT > ...", root_mdata_mat, 3, colors,
           2);
    nested("M3DMAGIC > unknown > unknown > ...", root, 1, unknown, 1);
    nested("NAMED_OBJECT > N_DIRECT_LIGHT > NAMED_OBJECT > ...", root_mdata, 2, light, 2);
}

/* ------------------------------------------------------------------------ */
/* (7), (8) empty, NULL and text input                                      */
/* ------------------------------------------------------------------------ */

static void test_empty_and_null(void **state)
{
    kf3ds_diag err;
    kf3ds_scene *s;
    unsigned char *one = (unsigned char *)malloc(1);
    (void)state;
    assert_non_null(one);
    support_set_what("empty buffer");
    memset(&err, 0x5A, sizeof err);
    s = kf3ds_load_memory(one, 0, NULL, &err);
    MUST(s == NULL);
    MUST(err.code == KF3DS_ERR_NOT_3DS);
    MUST(err.severity == KF3DS_ERROR);
    MUST(err.chunk_name != NULL);
    MUST(memchr(err.message, 0, sizeof err.message) != NULL);

    support_set_what("NULL buffer with a size");
    memset(&err, 0x5A, sizeof err);
    s = kf3ds_load_memory(NULL, 100, NULL, &err);
    MUST(s == NULL);
    MUST(err.code == KF3DS_ERR_ARGUMENT);
    MUST(err.severity == KF3DS_ERROR);

    support_set_what("NULL buffer, size 0");
    memset(&err, 0x5A, sizeof err);
    s = kf3ds_load_memory(NULL, 0, NULL, &err);
    MUST(s == NULL);
    MUST(err.code == KF3DS_ERR_ARGUMENT || err.code == KF3DS_ERR_NOT_3DS);

    support_set_what("NULL error pointer");
    MUST(kf3ds_load_memory(NULL, 0, NULL, NULL) == NULL);
    MUST(kf3ds_load_memory(one, 0, NULL, NULL) == NULL);
    kf3ds_scene_free(NULL);
    free(one);

    /* 1..5 bytes: too short for a header */
    {
        static const unsigned char magic[5] = { 0x4D, 0x4D, 0x06, 0x00, 0x00 };
        size_t n;
        for (n = 1; n <= 5; n++) {
            support_set_what("%lu bytes of a root header", (unsigned long)n);
            MUST(!load_and_check(magic, n, NULL, CHECK_LIGHT, &err, NULL, NULL));
            MUST(err.code == KF3DS_ERR_NOT_3DS);
        }
    }
    /* the smallest valid file: a bare root */
    {
        static const unsigned char bare[6] = { 0x4D, 0x4D, 0x06, 0x00, 0x00, 0x00 };
        support_set_what("a bare 6-byte root");
        MUST(load_and_check(bare, 6, NULL, CHECK_FULL, &err, NULL, NULL));
        MUST(err.code == KF3DS_OK);
    }
}

typedef struct text_ctx {
    const char *expect_id;
} text_ctx;

static void inspect_text(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const text_ctx *t = (const text_ctx *)user;
    MUST(s == NULL);
    MUST(err->code == KF3DS_ERR_NOT_3DS);
    if (!strstr(err->message, t->expect_id))
        fail_msg("%s: message \"%s\" does not name the root id %s", support_what, err->message,
                 t->expect_id);
}

static void test_text_files(void **state)
{
    static const char hello[] = "hello world\n";
    static const char lfs[] = "version https://git-lfs.github.com/spec/v1\n"
                              "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
                              "size 12345\n";
    static const char json[] = "{\"not\": \"a 3ds file\"}\n";
    text_ctx t;
    (void)state;
    support_set_what("\"hello world\\n\"");
    t.expect_id = "0x6568"; /* 'h' 'e' little-endian */
    MUST(!load_and_check((const unsigned char *)hello, sizeof hello - 1, NULL, CHECK_LIGHT, NULL,
                         inspect_text, &t));
    support_set_what("a Git LFS pointer");
    t.expect_id = "0x6576"; /* 'v' 'e' */
    MUST(!load_and_check((const unsigned char *)lfs, sizeof lfs - 1, NULL, CHECK_LIGHT, NULL,
                         inspect_text, &t));
    support_set_what("a JSON text");
    t.expect_id = "0x227B"; /* '{' '"' */
    MUST(!load_and_check((const unsigned char *)json, sizeof json - 1, NULL, CHECK_LIGHT, NULL,
                         inspect_text, &t));
}

/* ------------------------------------------------------------------------ */
/* (9) an allocator that fails after N allocations                          */
/* ------------------------------------------------------------------------ */

static void fail_after_each(const char *what, const unsigned char *data, size_t size)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    long total, n;
    support_set_what("%s: counting allocations", what);
    s = load_counted(data, size, &c, -1, NULL, &err);
    MUST(s != NULL);
    MUST(err.code == KF3DS_OK);
    total = c.calls;
    counting_free_scene(s, &c);
    MUST(total >= 1);
    for (n = 0; n <= total; n++) {
        support_set_what("%s: allocator fails after %ld of %ld allocations", what, n, total);
        memset(&err, 0x5A, sizeof err);
        s = load_counted(data, size, &c, n, NULL, &err);
        if (s) {
            check_scene(s, &err, CHECK_LIGHT);
        } else {
            MUST(err.code == KF3DS_ERR_NOMEM);
            MUST(err.severity == KF3DS_ERROR);
        }
        counting_free_scene(s, &c);
        if (n >= total)
            MUST(s != NULL);
        if (n == 0)
            MUST(s == NULL);
    }
}

/* Runs `sweep` over the file `build` writes. */
typedef unsigned char *(*build_fn)(size_t *size);
typedef void (*sweep_fn)(const char *what, const unsigned char *data, size_t size);

static void sweep_built(build_fn build, const char *what, sweep_fn sweep)
{
    size_t size;
    unsigned char *data = build(&size);
    sweep(what, data, size);
    free(data);
}

static void test_failing_allocator_rich(void **state)
{
    (void)state;
    sweep_built(build_rich, "rich scene", fail_after_each);
}

static void test_failing_allocator_big(void **state)
{
    (void)state;
    sweep_built(build_big, "big scene", fail_after_each);
}

/* ------------------------------------------------------------------------ */
/* (10) a small memory limit                                                */
/* ------------------------------------------------------------------------ */

static void limit_sweep(const char *what, const unsigned char *data, size_t size)
{
    static const size_t limits[] = { 1, 16, 64, 100, 500, 1000, 4096, 30000, 65536, 65600,
                                      70000, 100000, 200000, 400000, 1000000, 4000000 };
    size_t i;
    for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        counting c;
        kf3ds_diag err;
        kf3ds_limits lim;
        kf3ds_scene *s;
        memset(&lim, 0, sizeof lim);
        lim.max_memory = limits[i];
        support_set_what("%s with max_memory %lu", what, (unsigned long)limits[i]);
        memset(&err, 0x5A, sizeof err);
        s = load_counted(data, size, &c, -1, &lim, &err);
        MUST(c.peak <= limits[i]); /* never more than allowed, even on the way */
        if (s)
            check_scene(s, &err, CHECK_LIGHT);
        else
            MUST(err.code == KF3DS_ERR_NOMEM);
        if (limits[i] <= 1000)
            MUST(s == NULL);
        counting_free_scene(s, &c);
    }
}

static void test_memory_limit_rich(void **state)
{
    (void)state;
    sweep_built(build_rich, "rich scene", limit_sweep);
}

static void test_memory_limit_big(void **state)
{
    (void)state;
    sweep_built(build_big, "big scene", limit_sweep);
}

/* ------------------------------------------------------------------------ */
/* (11) parents: self, cycles, unknown ids                                  */
/* ------------------------------------------------------------------------ */

static int has_parent_warning(const kf3ds_scene *s, uint32_t node)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == KF3DS_WARN_PARENT && s->diags[i].offset == s->nodes[node].offset)
            return 1;
    return 0;
}

static void test_bad_parents(void **state)
{
    /* with NODE_IDs: 10 self; 11→12→13→11 a 3-cycle; 14→99 unknown; 15→14 fine;
     * 16→0xFFFE unknown; 17→17 self again */
    static const struct {
        uint16_t id, parent;
    } nodes[] = { {10, 10}, {11, 12}, {12, 13}, {13, 11}, {14, 99}, {15, 14}, {16, 0xFFFE},
                  {17, 17} };
    w3ds w;
    size_t i;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    int roots = 0;
    (void)state;
    support_file_begin(&w, 0xB000);
    for (i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        support_node_begin(&w, 0xB002, nodes[i].id, "$$$DUMMY", nodes[i].parent);
        simple_pos(&w, (float)i, 0, 0);
        w3ds_end(&w);
    }
    support_set_what("bad parents (with NODE_ID)");
    s = load_written(&w, &c, NULL, &err, CHECK_FULL);
    MUST(err.code == KF3DS_OK); /* warnings only */
    MUST(s->num_nodes == 8);
    MUST(s->nodes[0].parent == KF3DS_NONE && has_parent_warning(s, 0));
    MUST(s->nodes[4].parent == KF3DS_NONE && has_parent_warning(s, 4));
    MUST(s->nodes[5].parent == 4);
    MUST(s->nodes[6].parent == KF3DS_NONE && has_parent_warning(s, 6));
    MUST(s->nodes[7].parent == KF3DS_NONE && has_parent_warning(s, 7));
    for (i = 1; i <= 3; i++)
        if (s->nodes[i].parent == KF3DS_NONE) {
            roots++;
            MUST(has_parent_warning(s, (uint32_t)i));
        }
    MUST(roots == 1); /* the cycle is broken at one node, the others keep their links */
    counting_free_scene(s, &c);
}

static void test_bad_parents_by_index(void **state)
{
    /* no NODE_IDs: parents are file-order indices. 0→2→1→0 a cycle; 3→3; 4→500. */
    static const uint16_t parents[] = { 2, 0, 1, 3, 500, 0xFFFF };
    w3ds w;
    size_t i;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    int roots = 0;
    (void)state;
    support_file_begin(&w, 0xB000);
    for (i = 0; i < sizeof parents / sizeof parents[0]; i++) {
        support_node(&w, 0xB002, "$$$DUMMY", 0, parents[i], NULL);
    }
    support_set_what("bad parents (file-order ids)");
    s = load_written(&w, &c, NULL, &err, CHECK_FULL);
    MUST(s->num_nodes == 6);
    for (i = 0; i < 3; i++)
        roots += s->nodes[i].parent == KF3DS_NONE;
    MUST(roots == 1);
    MUST(s->nodes[3].parent == KF3DS_NONE && has_parent_warning(s, 3));
    MUST(s->nodes[4].parent == KF3DS_NONE && has_parent_warning(s, 4));
    MUST(s->nodes[5].parent == KF3DS_NONE && !has_parent_warning(s, 5));
    counting_free_scene(s, &c);
}

/* A long chain written children first, and one long cycle: the order must
 * still put every parent first, and no walk may loop. */
static void test_long_chains(void **state)
{
    enum { N = 3000 };
    int variant;
    (void)state;
    for (variant = 0; variant < 2; variant++) {
        w3ds w;
        uint32_t i;
        counting c;
        kf3ds_diag err;
        kf3ds_scene *s;
        support_file_begin(&w, 0xB000);
        for (i = 0; i < N; i++) {
            /* variant 0: node i's parent is i+1 (root last); variant 1: a cycle */
            uint16_t parent = (uint16_t)(i + 1 < N ? i + 1 : (variant ? 0 : 0xFFFF));
            w3ds_begin(&w, 0xB002);
            support_chunk_u16(&w, 0xB030, (uint16_t)i);
            w3ds_node_hdr(&w, "$$$DUMMY", 0, 0, parent);
            if (i % 100 == 0)
                simple_pos(&w, 1, 0, 0);
            w3ds_end(&w);
        }
        support_set_what("a chain of %d nodes, %s", N,
                         variant ? "closed into a cycle" : "children first");
        s = load_written(&w, &c, NULL, &err, CHECK_LIGHT);
        MUST(s->num_nodes == N);
        if (variant == 0) {
            MUST(s->nodes[0].depth == N - 1);
            MUST(s->eval_order[0] == N - 1);
        }
        {
            kf3ds_pose p;
            kf3ds_node_eval(s, 0, 10.0, 0, &p); /* walks all ancestors */
        }
        counting_free_scene(s, &c);
    }
}

/* ------------------------------------------------------------------------ */
/* Other damage found while writing these tests                             */
/* ------------------------------------------------------------------------ */

/* A mesh with two FACE_ARRAY chunks: the first with two material groups, the
 * second with none. The second replaces the first; the groups must not
 * outlive it. */
static void test_duplicate_face_array(void **state)
{
    w3ds w;
    int second;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    (void)state;
    support_file_begin(&w, 0x3D3D);
    w3ds_material(&w, "M", NULL, NULL, NULL);
    w3ds_begin(&w, 0x4000);
    w3ds_cstr(&w, "Dup");
    w3ds_begin(&w, 0x4100);
    triangle_points(&w);
    for (second = 0; second < 2; second++) {
        w3ds_begin(&w, 0x4120);
        w3ds_u16(&w, 1);
        w3ds_u16(&w, 0); w3ds_u16(&w, 1); w3ds_u16(&w, 2); w3ds_u16(&w, 7);
        if (!second) {
            int g;
            for (g = 0; g < 2; g++) {
                w3ds_begin(&w, 0x4130);
                w3ds_cstr(&w, "M");
                w3ds_u16(&w, 1);
                w3ds_u16(&w, 0);
                w3ds_end(&w);
            }
        }
        w3ds_end(&w);
    }
    support_set_what("a mesh with two FACE_ARRAYs, the second without groups");
    s = load_written(&w, &c, NULL, &err, CHECK_FULL);
    MUST(s->num_meshes == 1);
    MUST(s->meshes[0].num_faces == 1);
    MUST(s->meshes[0].num_groups == 0);
    counting_free_scene(s, &c);
}

/* The header documents texture_map.file as "" when the map is absent. */
static void test_absent_map_file_is_empty(void **state)
{
    size_t size;
    unsigned char *data = build_rich(&size);
    kf3ds_diag err;
    kf3ds_scene *s;
    uint32_t i;
    (void)state;
    support_set_what("texture map names of the rich scene");
    s = kf3ds_load_memory(data, size, NULL, &err);
    MUST(s != NULL);
    for (i = 0; i < s->num_materials; i++) {
        const kf3ds_material *m = &s->materials[i];
        MUST(m->texture1.file != NULL);
        MUST(m->texture2.file != NULL);
        MUST(m->opacity.file != NULL);
        MUST(m->bump.file != NULL);
        MUST(m->specular_map.file != NULL);
        MUST(m->shininess_map.file != NULL);
        MUST(m->self_illum_map.file != NULL);
        MUST(m->reflection.file != NULL);
    }
    MUST(strcmp(s->materials[0].texture1.file, "checker.png") == 0);
    MUST(strcmp(s->materials[0].texture2.file, "") == 0);
    kf3ds_scene_free(s);
    free(data);
}

/* Bytes after the root and a bare MDATA root. */
static void test_trailing_and_bare_roots(void **state)
{
    size_t size, extra;
    unsigned char *data = build_rich(&size);
    unsigned char *bigger = (unsigned char *)malloc(size + 16);
    kf3ds_diag err;
    (void)state;
    assert_non_null(bigger);
    memcpy(bigger, data, size);
    memset(bigger + size, 0x4D, 16);
    for (extra = 1; extra <= 16; extra++) {
        support_set_what("rich scene with %lu stray bytes after the root", (unsigned long)extra);
        MUST(load_and_check(bigger, size + extra, NULL, CHECK_LIGHT, &err, NULL, NULL));
        MUST(err.code == KF3DS_OK);
    }
    /* the MDATA chunk alone, as a root */
    {
        chunk_list l = collect_chunks(data, size);
        size_t i;
        for (i = 0; i < l.n; i++)
            if (l.v[i].id == 0x3D3D && l.v[i].depth == 1) {
                support_set_what("a bare MDATA root");
                MUST(load_and_check(data + l.v[i].offset, l.v[i].length, NULL, CHECK_FULL, &err,
                                    NULL, NULL));
                MUST(err.code == KF3DS_OK);
            }
        free(l.v);
    }
    free(bigger);
    free(data);
}

/* Random byte damage (deterministic): flips in the rich scene. */
static void test_byte_flips(void **state)
{
    size_t size, i;
    unsigned char *data = build_rich(&size);
    unsigned char *copy = (unsigned char *)malloc(size);
    uint32_t rng = 12345u;
    (void)state;
    assert_non_null(copy);
    for (i = 0; i < 20000; i++) {
        int k, flips;
        memcpy(copy, data, size);
        rng = rng * 1103515245u + 12345u;
        flips = 1 + (int)((rng >> 16) % 4);
        for (k = 0; k < flips; k++) {
            size_t at;
            rng = rng * 1103515245u + 12345u;
            at = (rng >> 8) % size;
            rng = rng * 1103515245u + 12345u;
            copy[at] = (unsigned char)(rng >> 16);
        }
        support_set_what("rich scene with random damage #%lu", (unsigned long)i);
        load_and_check(copy, size, NULL, CHECK_LIGHT, NULL, NULL, NULL);
    }
    free(copy);
    free(data);
}

/* Limits on nodes and diagnostics: a clean ERR_LIMIT, counted drops. */
static void test_node_and_diag_limits(void **state)
{
    size_t size;
    unsigned char *data = build_rich(&size);
    counting c;
    kf3ds_diag err;
    kf3ds_limits lim;
    kf3ds_scene *s;
    w3ds w;
    uint32_t i;
    (void)state;
    memset(&lim, 0, sizeof lim);
    lim.max_nodes = 2;
    support_set_what("rich scene with max_nodes 2");
    s = load_scene(data, size, &c, &lim, &err, CHECK_FULL);
    MUST(err.code == KF3DS_ERR_LIMIT);
    MUST(s->num_nodes == 2);
    counting_free_scene(s, &c);
    free(data);

    /* 40 nodes with unknown parents and room for 3 diagnostics */
    support_file_begin(&w, 0xB000);
    for (i = 0; i < 40; i++) {
        support_node(&w, 0xB002, "$$$DUMMY", 0, (uint16_t)(1000 + i), NULL);
    }
    memset(&lim, 0, sizeof lim);
    lim.max_diags = 3;
    support_set_what("40 unknown parents with max_diags 3");
    s = load_written(&w, &c, &lim, &err, CHECK_LIGHT);
    MUST(err.code == KF3DS_OK);
    MUST(s->num_diags == 3);
    MUST(s->num_dropped_diags == 37);
    for (i = 0; i < s->num_nodes; i++)
        MUST(s->nodes[i].parent == KF3DS_NONE);
    counting_free_scene(s, &c);
}

/* Names far longer than a diagnostic message: messages stay terminated. */
static void test_long_names(void **state)
{
    enum { LONG = 5000 };
    char *name = (char *)malloc(LONG + 1), *mat = (char *)malloc(LONG + 1);
    static const float pts[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t face[3] = { 0, 1, 7 }; /* a missing vertex */
    w3ds w;
    (void)state;
    assert_non_null(name);
    assert_non_null(mat);
    memset(name, 'n', LONG);
    name[LONG] = '\0';
    memset(mat, 'm', LONG);
    mat[LONG] = '\0';
    support_file_begin(&w, 0x3D3D);
    w3ds_mesh(&w, name, pts, 3, face, 1, NULL, mat); /* unknown material */
    w3ds_end(&w);
    w3ds_begin(&w, 0xB000);
    support_node_begin(&w, 0xB002, 0, mat, 77); /* names no mesh, unknown parent */
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    assert_false(w.failed);
    support_set_what("5000-character names in diagnostics");
    MUST(load_and_check(w.buf, w.len, NULL, CHECK_FULL, NULL, NULL, NULL));
    w3ds_free(&w);
    free(name);
    free(mat);
}

/* Odd numbers everywhere: NaN, infinities, huge values, singular matrices,
 * zero axes, extreme and duplicate frames, unsorted keys. No crash and no
 * undefined behaviour, whatever the frame. */
static void test_odd_values(void **state)
{
    static const double frames[] = { -2147483648.0, 2147483647.0, -1e300, 1e300, 4.5, 5.0,
                                     5.5, 9.99999999, 0.0, -0.0 };
    const float nan = NAN, inf = INFINITY;
    const w3ds_tcb odd = { NAN, INFINITY, -INFINITY, 1e30f, -1.0f, 0 };
    const w3ds_tcb ease = { 0.0f, 0.0f, 0.0f, 0.7f, 0.9f, 0 };
    w3ds w;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    uint32_t i, k;
    size_t f;
    int kind;
    kf3ds_pose *poses;
    (void)state;
    support_file_begin(&w, 0x3D3D);
    {
        const float pts[9] = { nan, 0, 0, inf, -inf, 0, 1e38f, 1e38f, -1e38f };
        const uint16_t face[3] = { 0, 1, 2 };
        const float zero[12] = { 0 };
        const float nanm[12] = { nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan };
        const float cpos[3] = { nan, 0, 0 }, ctgt[3] = { 0, inf, 0 };
        const float lcol[3] = { nan, inf, -1 };
        w3ds_mesh(&w, "Z", pts, 3, face, 1, zero, NULL);
        w3ds_mesh(&w, "N", pts, 3, face, 1, nanm, NULL);
        w3ds_camera(&w, "C", cpos, ctgt, nan, 0.0f);
        w3ds_camera(&w, "C2", ctgt, ctgt, inf, nan);
        w3ds_light(&w, "L", cpos, lcol, ctgt, nan, inf);
        support_chunk_f32(&w, 0x0100, nan);
    }
    w3ds_end(&w);
    w3ds_begin(&w, 0xB000);
    support_node_begin(&w, 0xB002, 0, "Z", 0xFFFF);
    {
        const float piv[3] = { nan, inf, 0 };
        support_chunk_f32v(&w, 0xB013, piv, 3);
    }
    support_track_begin(&w, 0xB020, 3, 6);
    support_key_vec(&w, INT32_MIN, &odd, 0, 0, 0);
    support_key_vec(&w, 0, &ease, nan, 1, 2);
    support_key_vec(&w, 5, NULL, 1, 1, 1);
    support_key_vec(&w, 5, &odd, 2, 2, 2); /* same frame */
    support_key_vec(&w, 5, NULL, 3, 3, 3);
    support_key_vec(&w, INT32_MAX, &odd, inf, -inf, 1e38f);
    w3ds_end(&w);
    support_track_begin(&w, 0xB021, 2, 5);
    key_rot(&w, 10, NULL, nan, 0, 0, 0); /* unsorted */
    key_rot(&w, 0, &odd, 0.0f, 0, 0, 0); /* zero axis */
    key_rot(&w, 20, NULL, 1e30f, 1, 0, 0);
    key_rot(&w, 30, &ease, 7.0f, 0, 1, 0);
    key_rot(&w, 40, NULL, -inf, nan, 1, 0);
    w3ds_end(&w);
    support_track_begin(&w, 0xB022, 1, 2);
    support_key_vec(&w, 0, NULL, 0, 0, 0);
    support_key_vec(&w, 10, &ease, -1e38f, 1e38f, nan);
    w3ds_end(&w);
    support_track_begin(&w, 0xB029, 0, 5);
    for (i = 0; i < 5; i++)
        w3ds_key_header(&w, (int32_t)(5 - i), NULL);
    w3ds_end(&w);
    support_track_begin(&w, 0xB026, 0, 3);
    w3ds_key_header(&w, 0, NULL);
    w3ds_cstr(&w, "nothing");
    w3ds_key_header(&w, 0, NULL);
    w3ds_cstr(&w, "N");
    w3ds_key_header(&w, 3, NULL);
    w3ds_cstr(&w, "");
    w3ds_end(&w);
    w3ds_end(&w);
    support_node_begin(&w, 0xB002, 1, "N", 0);
    support_chunk_f32v(&w, 0xB012, (const float[3]){ nan, 0, inf }, 3);
    w3ds_end(&w);
    support_node_begin(&w, 0xB003, 2, "C", 1);
    support_track_begin(&w, 0xB023, 3, 2);
    key_scalar(&w, 0, NULL, nan);
    key_scalar(&w, 1, &odd, inf);
    w3ds_end(&w);
    support_track_begin(&w, 0xB024, 0, 1);
    key_scalar(&w, 0, NULL, inf);
    w3ds_end(&w);
    w3ds_end(&w);
    support_node_begin(&w, 0xB004, 3, "C", 0xFFFF);
    w3ds_end(&w);
    support_node_begin(&w, 0xB003, 4, "C2", 0xFFFF); /* no target node */
    w3ds_end(&w);
    support_node_begin(&w, 0xB007, 5, "L", 2);
    support_track_begin(&w, 0xB027, 0, 1);
    key_scalar(&w, 0, NULL, nan);
    w3ds_end(&w);
    w3ds_end(&w);
    support_node_begin(&w, 0xB001, 6, "$AMBIENT$", 2);
    support_set_what("odd values");
    s = load_written(&w, &c, NULL, &err, CHECK_FULL);
    MUST(s->num_nodes == 7);
    MUST(find_diag(s, KF3DS_WARN_UNSORTED, 0, 0) >= 0);
    MUST(find_diag(s, KF3DS_WARN_REFERENCE, 0, 0) >= 0);
    poses = (kf3ds_pose *)calloc(s->num_nodes, sizeof *poses);
    MUST(poses != NULL);
    for (f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        double frame = frames[f];
        kf3ds_scene_eval(s, frame, 0, poses);
        for (i = 0; i < s->num_nodes; i++) {
            kf3ds_mat4 m;
            float fov, roll;
            kf3ds_node_mesh_matrix(s, i, &poses[i], &m);
            kf3ds_node_camera_view(s, i, poses, &m, &fov, &roll);
            /* every track evaluated as every kind */
            for (k = 0; k < KF3DS_TRACK_COUNT; k++)
                for (kind = 0; kind < KF3DS_TRACK_COUNT; kind++) {
                    float out[4];
                    int n = kf3ds_track_eval(&s->nodes[i].tracks[k], (kf3ds_track_kind)kind,
                                             frame, 0, out);
                    MUST(n >= 1 && n <= 4);
                }
        }
    }
    {
        float out[4];
        MUST(kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_COUNT, 0.0, 0, out) == 0);
        MUST(kf3ds_track_eval(&s->nodes[0].tracks[0], (kf3ds_track_kind)-1, 0.0, 0, out) == 0);
        MUST(kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_POS, 0.0, 0, NULL) == 0);
    }
    free(poses);
    counting_free_scene(s, &c);
}

/* kf3ds_load_file with paths that are not readable .3ds files. */
static void test_load_file_errors(void **state)
{
    kf3ds_diag err;
    kf3ds_scene *s;
    (void)state;
    support_set_what("kf3ds_load_file(NULL)");
    s = kf3ds_load_file(NULL, NULL, &err);
    MUST(s == NULL && err.code == KF3DS_ERR_ARGUMENT);
    support_set_what("kf3ds_load_file of a missing file");
    s = kf3ds_load_file("tests/no/such/file.3ds", NULL, &err);
    MUST(s == NULL && err.code == KF3DS_ERR_IO);
    MUST(err.chunk_name != NULL);
    support_set_what("kf3ds_load_file of /dev/null");
    s = kf3ds_load_file("/dev/null", NULL, &err);
    MUST(s == NULL && err.code == KF3DS_ERR_NOT_3DS);
    /* a directory: fopen succeeds on POSIX, its "size" is meaningless */
    support_set_what("kf3ds_load_file of a directory");
    s = kf3ds_load_file(".", NULL, &err);
    MUST(s == NULL);
    MUST(err.code == KF3DS_ERR_IO);
}

/* ------------------------------------------------------------------------ */
/* (12) the corpus, truncated                                               */
/* ------------------------------------------------------------------------ */

/* One corpus file cut to 0, 2, 4, ... 100 % of its size. */
static void cut_corpus_file(const char *path, const char *name, void *user)
{
    size_t size = 0, k;
    unsigned char *data = support_read_file(path, &size);
    if (!data)
        return;
    ++*(int *)user;
    for (k = 0; k <= 50; k++) {
        size_t cut = (size_t)((double)size * (double)k / 50.0);
        if (cut > size)
            cut = size;
        support_set_what("%s cut to %lu of %lu bytes", name, (unsigned long)cut,
                         (unsigned long)size);
        load_and_check(data, cut, NULL, CHECK_LIGHT, NULL, NULL, NULL);
    }
    free(data);
}

static void test_corpus_truncated(void **state)
{
    int files = 0;
    (void)state;
    if (support_corpus_each(cut_corpus_file, &files) < 0)
        skip();
    MUST(files > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rich_scene_is_valid),
        cmocka_unit_test(test_truncate_every_byte),
        cmocka_unit_test(test_truncate_chunk_boundaries),
        cmocka_unit_test(test_damaged_lengths),
        cmocka_unit_test(test_key_count_beyond_chunk),
        cmocka_unit_test(test_key_limit),
        cmocka_unit_test(test_array_counts_beyond_chunk),
        cmocka_unit_test(test_unterminated_names),
        cmocka_unit_test(test_unterminated_other_strings),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_empty_and_null),
        cmocka_unit_test(test_text_files),
        cmocka_unit_test(test_bad_parents),
        cmocka_unit_test(test_bad_parents_by_index),
        cmocka_unit_test(test_long_chains),
        cmocka_unit_test(test_node_and_diag_limits),
        cmocka_unit_test(test_long_names),
        cmocka_unit_test(test_odd_values),
        cmocka_unit_test(test_trailing_and_bare_roots),
        cmocka_unit_test(test_absent_map_file_is_empty),
        cmocka_unit_test(test_corpus_truncated),
        cmocka_unit_test(test_failing_allocator_rich),
        /* Last, because a library bug here can take the whole process down
         * (heap corruption, an ASan abort) and hide the results above. */
        cmocka_unit_test(test_duplicate_face_array),
        cmocka_unit_test(test_damaged_ids),
        cmocka_unit_test(test_byte_flips),
        cmocka_unit_test(test_failing_allocator_big),
        cmocka_unit_test(test_load_file_errors),
        cmocka_unit_test(test_memory_limit_rich),
        cmocka_unit_test(test_memory_limit_big),
    };
    /* KF3DS_TEST_FILTER=test_name (or a pattern with *) runs a subset */
    if (getenv("KF3DS_TEST_FILTER"))
        cmocka_set_test_filter(getenv("KF3DS_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
