/* What the malformed-input suites (tests/core/test_malformed_*.c) share: the
 * invariants every loaded scene keeps however bad its file
 * (docs/robustness.md, 'The guarantees'), loading through the counting
 * allocator from exactly sized copies, a walk of the chunks a test wrote, and
 * raw chunk bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "support_chunks.h"

/* ---- scene invariants ----------------------------------------------------- */

static const double eval_frames[] = { -5.0, 0.0, 2.5, 1e9, NAN };

int support_find_diag(const kf3ds_scene *s, kf3ds_status code, uint32_t offset,
                      int match_offset)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == code && (!match_offset || s->diags[i].offset == offset))
            return (int)i;
    return -1;
}

/* Every diagnostic well formed; the error returned is the first error listed. */
static void check_diags(const kf3ds_scene *s, const kf3ds_diag *err)
{
    uint32_t i;
    int first_error = -1;
    assert_in_range(s->num_diags, 0, 1000);
    assert_true(s->num_diags == 0 || s->diags != NULL);
    for (i = 0; i < s->num_diags; i++) {
        const kf3ds_diag *d = &s->diags[i];
        const char *name = kf3ds_chunk_name(d->chunk_id);
        assert_in_range(d->code, KF3DS_ERR_ARGUMENT, KF3DS_WARN_TRAILING);
        assert_int_equal(d->severity, kf3ds_status_severity(d->code));
        assert_non_null(memchr(d->message, '\0', sizeof d->message));
        assert_int_not_equal(d->message[0], '\0');
        assert_non_null(d->chunk_name);
        assert_string_equal(d->chunk_name, d->chunk_id == 0 ? "" : name ? name : "?");
        if (d->severity == KF3DS_ERROR && first_error < 0)
            first_error = (int)i;
    }
    if (!err)
        return;
    if (err->code == KF3DS_OK) {
        if (s->num_dropped_diags == 0)
            assert_int_equal(first_error, -1);
        return;
    }
    assert_int_equal(err->severity, KF3DS_ERROR);
    assert_in_range(err->code, KF3DS_ERR_ARGUMENT, KF3DS_WARN_OVERRUN - 1);
    assert_non_null(memchr(err->message, '\0', sizeof err->message));
    if (s->num_dropped_diags == 0) {
        assert_true(first_error >= 0);
        assert_int_equal(s->diags[first_error].code, err->code);
        assert_int_equal(s->diags[first_error].offset, err->offset);
    }
}

static void check_material_index(const kf3ds_scene *s, int32_t material)
{
    assert_true(support_in_range(material, s->num_materials));
}

static void check_meshes(const kf3ds_scene *s)
{
    uint32_t i, j;
    assert_true(s->num_meshes == 0 || s->meshes != NULL);
    assert_true(s->num_materials == 0 || s->materials != NULL);
    assert_true(s->num_cameras == 0 || s->cameras != NULL);
    assert_true(s->num_lights == 0 || s->lights != NULL);
    for (i = 0; i < s->num_materials; i++)
        assert_non_null(s->materials[i].name);
    for (i = 0; i < s->num_cameras; i++)
        assert_non_null(s->cameras[i].name);
    for (i = 0; i < s->num_lights; i++)
        assert_non_null(s->lights[i].name);
    for (i = 0; i < s->num_meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        assert_non_null(m->name);
        assert_true(m->num_points == 0 || m->points != NULL);
        assert_true(m->num_faces == 0 || m->faces != NULL);
        assert_true(m->num_texcoords == 0 || m->texcoords != NULL);
        assert_true(m->num_point_flags == 0 || m->point_flags != NULL);
        assert_true(m->num_groups == 0 || m->groups != NULL);
        for (j = 0; j < m->num_faces; j++) {
            const kf3ds_face *f = &m->faces[j];
            assert_true(f->v[0] < m->num_points && f->v[1] < m->num_points &&
                        f->v[2] < m->num_points);
            check_material_index(s, kf3ds_face_material(m, j));
        }
        for (j = 0; j < m->num_groups; j++) {
            const kf3ds_material_group *g = &m->groups[j];
            uint32_t k;
            assert_non_null(g->material_name);
            check_material_index(s, g->material);
            assert_true(g->num_faces == 0 || g->faces != NULL);
            for (k = 0; k < g->num_faces; k++)
                assert_true(g->faces[k] < m->num_faces);
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
    assert_true(n == 0 || s->nodes != NULL);
    if (n == 0)
        return;
    assert_non_null(s->eval_order);
    pos = (uint32_t *)malloc(n * sizeof *pos);
    assert_non_null(pos);
    for (i = 0; i < n; i++)
        pos[i] = UINT32_MAX;
    for (i = 0; i < n; i++) {
        uint32_t idx = s->eval_order[i];
        assert_true(idx < n);
        assert_int_equal(pos[idx], UINT32_MAX); /* a permutation: each index once */
        pos[idx] = i;
    }
    for (i = 0; i < n; i++) {
        const kf3ds_node *nd = &s->nodes[i];
        assert_in_range(nd->type, 0, KF3DS_NODE_SPOT);
        assert_non_null(nd->name);
        assert_true(support_in_range(nd->parent, n));
        assert_int_not_equal(nd->parent, (int32_t)i);
        if (nd->parent != KF3DS_NONE) {
            assert_true(pos[nd->parent] < pos[i]); /* parents first */
            assert_int_equal(nd->depth, s->nodes[nd->parent].depth + 1);
        } else {
            assert_int_equal(nd->depth, 0);
        }
        assert_true(support_in_range(nd->mesh, s->num_meshes));
        assert_true(support_in_range(nd->camera, s->num_cameras));
        assert_true(support_in_range(nd->light, s->num_lights));
        assert_true(support_in_range(nd->target, n));
        if (nd->mesh != KF3DS_NONE)
            assert_int_equal(nd->type, KF3DS_NODE_OBJECT);
        for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
            const kf3ds_track *t = &nd->tracks[k];
            uint32_t j;
            assert_true(t->num_keys == 0 || t->keys != NULL);
            for (j = 0; j < t->num_keys; j++) {
                if (j)
                    assert_true(t->keys[j - 1].frame <= t->keys[j].frame);
                if (k == KF3DS_TRACK_MORPH) {
                    assert_non_null(t->keys[j].morph_name);
                    assert_true(support_in_range(t->keys[j].morph_mesh, s->num_meshes));
                }
            }
        }
    }
    free(pos);
}

/* Evaluates every node at every test frame and places every vertex. */
static void check_eval(const kf3ds_scene *s, support_check mode)
{
    uint32_t n = s->num_nodes, i, j;
    size_t f;
    kf3ds_pose *poses = (kf3ds_pose *)calloc(n + 1, sizeof *poses);
    assert_non_null(poses);
    for (f = 0; f < sizeof eval_frames / sizeof eval_frames[0]; f++) {
        double frame = eval_frames[f];
        kf3ds_scene_eval(s, frame, 0, poses);
        kf3ds_scene_eval(s, frame, KF3DS_EVAL_NO_EASE, poses);
        for (i = 0; i < n; i++) {
            kf3ds_mat4 m, view;
            float fov, roll;
            if (mode == SUPPORT_CHECK_FULL) {
                kf3ds_pose one;
                kf3ds_node_eval(s, i, frame, 0, &one);
                assert_true(support_in_range(one.morph_mesh, s->num_meshes));
            }
            assert_true(support_in_range(poses[i].morph_mesh, s->num_meshes));
            if (kf3ds_node_mesh_matrix(s, i, &poses[i], &m)) {
                const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
                for (j = 0; j < mesh->num_points; j++) {
                    float out[3];
                    kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                }
            }
            if (kf3ds_node_camera_view(s, i, poses, &view, &fov, &roll))
                assert_int_equal(s->nodes[i].type, KF3DS_NODE_CAMERA);
        }
    }
    {
        float out[4];
        kf3ds_mat4 m;
        /* out-of-range arguments are refused, not crashed on */
        kf3ds_node_eval(s, n, 0.0, 0, &poses[0]);
        kf3ds_node_eval(s, UINT32_MAX, 0.0, 0, &poses[0]);
        assert_int_equal(kf3ds_node_mesh_matrix(s, n, &poses[0], &m), 0);
        assert_int_equal(kf3ds_track_eval(NULL, KF3DS_TRACK_POS, 0.0, 0, out), 0);
    }
    free(poses);
}

void support_check_scene(const kf3ds_scene *s, const kf3ds_diag *err, support_check mode)
{
    assert_non_null(s);
    assert_non_null(s->internal_);
    check_diags(s, err);
    check_meshes(s);
    check_nodes(s);
    check_eval(s, mode);
    if (s->num_nodes)
        assert_int_not_equal(kf3ds_scene_find_node(s, s->nodes[0].name), KF3DS_NONE);
    assert_int_equal(kf3ds_scene_find_node(s, NULL), KF3DS_NONE);
}

void support_check_finite_everywhere(const kf3ds_scene *s)
{
    static const double frames[] = { -2147483648.0, -1e12, -1.0, 0.0, 0.25, 0.5, 1.0, 2.5,
                                     3.0, 4.75, 5.0, 9.999, 10.0, 15.5, 20.0, 99.0, 1e6,
                                     2147483647.0, 1e300 };
    kf3ds_pose *poses = (kf3ds_pose *)calloc(s->num_nodes + 1, sizeof *poses);
    size_t f;
    uint32_t i, j;
    unsigned flags;
    assert_non_null(poses);
    for (flags = 0; flags < 2; flags++)
        for (f = 0; f < sizeof frames / sizeof frames[0]; f++) {
            kf3ds_scene_eval(s, frames[f], flags, poses);
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_pose *p = &poses[i];
                kf3ds_mat4 m;
                kf3ds_pose one;
                float fov, roll;
                support_set_what("node %u at frame %g", i, frames[f]);
                assert_true(support_finite_mat(&p->world));
                assert_true(support_finite_n(p->position, 3) &&
                            support_finite_n(p->rotation, 4) && support_finite_n(p->scale, 3) &&
                            support_finite_n(p->color, 3));
                assert_true(isfinite(p->fov) && isfinite(p->roll) && isfinite(p->hotspot) &&
                            isfinite(p->falloff));
                if (kf3ds_node_mesh_matrix(s, i, p, &m)) {
                    const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
                    assert_true(support_finite_mat(&m));
                    for (j = 0; j < mesh->num_points; j++) {
                        float out[3];
                        kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                        assert_true(support_finite_n(out, 3));
                    }
                }
                if (kf3ds_node_camera_view(s, i, poses, &m, &fov, &roll))
                    assert_true(support_finite_mat(&m) && isfinite(fov) && isfinite(roll));
                memset(&one, 0, sizeof one);
                kf3ds_node_eval(s, i, frames[f], flags, &one);
                assert_true(support_finite_mat(&one.world));
            }
        }
    free(poses);
}

/* ---- loading -------------------------------------------------------------- */

kf3ds_scene *support_load_counted(const unsigned char *data, size_t size, counting *c,
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

kf3ds_scene *support_load_scene(const unsigned char *data, size_t size, counting *c,
                                const kf3ds_limits *limits, kf3ds_diag *err, support_check mode)
{
    kf3ds_scene *s = support_load_counted(data, size, c, -1, limits, err);
    assert_non_null(s);
    support_check_scene(s, err, mode);
    return s;
}

kf3ds_scene *support_load_written(w3ds *w, counting *c, const kf3ds_limits *limits,
                                  kf3ds_diag *err, support_check mode)
{
    kf3ds_scene *s;
    support_end_all(w);
    assert_false(w->failed);
    s = support_load_scene(w->buf, w->len, c, limits, err, mode);
    w3ds_free(w);
    return s;
}

int support_load_and_check(const unsigned char *data, size_t size, const kf3ds_limits *limits,
                           support_check mode, kf3ds_diag *err_out, support_inspect_fn inspect,
                           void *user)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    memset(&err, 0xA5, sizeof err); /* must be overwritten */
    s = support_load_counted(data, size, &c, -1, limits, &err);
    if (s) {
        support_check_scene(s, &err, mode);
    } else {
        assert_int_not_equal(err.code, KF3DS_OK);
        assert_int_equal(err.severity, KF3DS_ERROR);
        assert_non_null(memchr(err.message, '\0', sizeof err.message));
        assert_non_null(err.chunk_name);
    }
    if (inspect)
        inspect(s, &err, user);
    counting_free_scene(s, &c);
    if (err_out)
        *err_out = err;
    return s != NULL;
}

unsigned char *support_take_bytes(w3ds *w, size_t *size)
{
    unsigned char *out;
    assert_false(w->failed);
    out = (unsigned char *)malloc(w->len ? w->len : 1);
    assert_non_null(out);
    memcpy(out, w->buf, w->len);
    *size = w->len;
    w3ds_free(w);
    return out;
}

/* ---- the chunks of a written file ------------------------------------------ */

static void collect(support_chunk_list *l, kf3ds_reader *parent, int depth)
{
    kf3ds_chunk c;
    kf3ds_reader body;
    while (kf3ds_chunk_next(parent, &c, &body) == KF3DS_NEXT_OK) {
        long skip;
        if (l->n == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 64;
            l->v = (support_chunk_info *)realloc(l->v, l->cap * sizeof *l->v);
            assert_non_null(l->v);
        }
        l->v[l->n].id = c.id;
        l->v[l->n].offset = c.offset;
        l->v[l->n].length = c.length;
        l->v[l->n].end = c.end;
        l->v[l->n].depth = depth;
        l->n++;
        skip = support_chunk_children_at(c.id, body.data + body.pos, kf3ds_reader_left(&body));
        if (skip >= 0 && (size_t)skip <= kf3ds_reader_left(&body)) {
            body.pos += (size_t)skip;
            collect(l, &body, depth + 1);
        }
    }
}

support_chunk_list support_collect_chunks(const unsigned char *data, size_t size)
{
    support_chunk_list l;
    kf3ds_reader top = kf3ds_reader_make(data, size);
    memset(&l, 0, sizeof l);
    collect(&l, &top, 0);
    return l;
}

/* ---- raw bytes ------------------------------------------------------------- */

void support_put_u16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)(v >> 8);
}

void support_put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)((v >> 8) & 0xFF);
    p[2] = (unsigned char)((v >> 16) & 0xFF);
    p[3] = (unsigned char)((v >> 24) & 0xFF);
}

unsigned char *support_build_levels(const support_level *levels, size_t n, const void *tail,
                                    size_t tail_len, size_t *size)
{
    size_t total = tail_len, i, pos = 0;
    unsigned char *out;
    for (i = 0; i < n; i++)
        total += 6 + levels[i].prefix_len;
    out = (unsigned char *)malloc(total ? total : 1);
    assert_non_null(out);
    for (i = 0; i < n; i++) {
        support_put_u16(out + pos, levels[i].id);
        support_put_u32(out + pos + 2, (uint32_t)(total - pos));
        memcpy(out + pos + 6, levels[i].prefix, levels[i].prefix_len);
        pos += 6 + levels[i].prefix_len;
    }
    if (tail_len)
        memcpy(out + pos, tail, tail_len);
    *size = total;
    return out;
}
