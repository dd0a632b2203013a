/* libFuzzer target: kf3ds_load_memory, then everything a front end does with
 * the scene: evaluate every node at several frames (fractional, negative,
 * huge, NaN), place every mesh vertex, camera views, bounds, and a tiny render
 * (32×24) through the scene renderer.
 *
 * Oracles beyond the sanitizers (abort() = a finding):
 *  - the scene's indices are in range (parents, meshes, order, faces...);
 *  - for every finite frame every world matrix, every pose value, every mesh
 *    matrix, every placed vertex and every camera view is finite
 *    ("numbers that cannot explode", docs/robustness.md);
 *  - loading allocates at most the documented bound (C × size + overhead). */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"

/* The memory bound of docs/robustness.md, checked on every input. */
#define BOUND_PER_BYTE 128u
#define BOUND_FIXED ((size_t)4 << 20)

static void finding(const char *what, double v)
{
    fprintf(stderr, "fuzz_load: %s (%g)\n", what, v);
    abort();
}

#define CHECK(cond, v)                                                    \
    do {                                                                  \
        if (!(cond))                                                      \
            finding(#cond, (double)(v));                                  \
    } while (0)

/* A counting allocator: the peak of what the scene holds. */
typedef struct counter {
    size_t bytes, peak;
} counter;

typedef union header {
    size_t size;
    max_align_t align;
} header;

static void *c_malloc(size_t size, void *user)
{
    counter *c = (counter *)user;
    header *h = (header *)malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->bytes += size;
    if (c->bytes > c->peak)
        c->peak = c->bytes;
    return h + 1;
}

static void c_free(void *p, void *user)
{
    counter *c = (counter *)user;
    header *h;
    if (!p)
        return;
    h = (header *)p - 1;
    c->bytes -= h->size;
    free(h);
}

static void *c_realloc(void *p, size_t size, void *user)
{
    void *q = c_malloc(size, user);
    if (q && p) {
        header *h = (header *)p - 1;
        memcpy(q, p, h->size < size ? h->size : size);
        c_free(p, user);
    }
    return q;
}

static int finite_mat(const kf3ds_mat4 *m)
{
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            if (!isfinite(m->m[i][j]))
                return 0;
    return 1;
}

static int finite_n(const float *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

static int in_range(int32_t v, uint32_t n)
{
    return v == KF3DS_NONE || (v >= 0 && (uint32_t)v < n);
}

static void check_structure(const kf3ds_scene *s)
{
    uint32_t i, j, k;
    for (i = 0; i < s->num_meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        CHECK(m->name != NULL, i);
        CHECK(finite_mat(&m->matrix) && finite_mat(&m->inv_matrix), i);
        for (j = 0; j < m->num_faces; j++) {
            CHECK(m->faces[j].v[0] < m->num_points && m->faces[j].v[1] < m->num_points &&
                      m->faces[j].v[2] < m->num_points,
                  j);
            CHECK(in_range(kf3ds_face_material(m, j), s->num_materials), j);
        }
        for (j = 0; j < m->num_points; j++)
            CHECK(finite_n(m->points[j], 3), j);
        for (j = 0; j < m->num_groups; j++)
            for (k = 0; k < m->groups[j].num_faces; k++)
                CHECK(m->groups[j].faces[k] < m->num_faces, k);
    }
    if (s->num_nodes)
        CHECK(s->eval_order != NULL, s->num_nodes);
    for (i = 0; i < s->num_nodes; i++) {
        const kf3ds_node *n = &s->nodes[i];
        CHECK(s->eval_order[i] < s->num_nodes, i);
        CHECK(in_range(n->parent, s->num_nodes) && n->parent != (int32_t)i, i);
        CHECK(in_range(n->mesh, s->num_meshes), i);
        CHECK(in_range(n->camera, s->num_cameras), i);
        CHECK(in_range(n->light, s->num_lights), i);
        CHECK(in_range(n->target, s->num_nodes), i);
        CHECK(finite_n(n->pivot, 3), i);
        for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
            const kf3ds_track *t = &n->tracks[k];
            for (j = 0; j < t->num_keys; j++) {
                CHECK(j == 0 || t->keys[j - 1].frame <= t->keys[j].frame, j);
                CHECK(finite_n(t->keys[j].value, 4), j);
                CHECK(finite_n(t->keys[j].quat, 4), j);
                CHECK(finite_n(t->keys[j].tan_in, 4) && finite_n(t->keys[j].tan_out, 4), j);
                CHECK(isfinite(t->keys[j].tension) && isfinite(t->keys[j].continuity) &&
                          isfinite(t->keys[j].bias) && isfinite(t->keys[j].ease_to) &&
                          isfinite(t->keys[j].ease_from),
                      j);
                if (k == KF3DS_TRACK_MORPH)
                    CHECK(in_range(t->keys[j].morph_mesh, s->num_meshes), j);
            }
        }
    }
}

static void check_pose(const kf3ds_scene *s, const kf3ds_pose *p, double frame)
{
    if (!isfinite(frame))
        return;
    CHECK(finite_mat(&p->world), frame);
    CHECK(finite_n(p->position, 3) && finite_n(p->rotation, 4) && finite_n(p->scale, 3), frame);
    CHECK(finite_n(p->color, 3), frame);
    CHECK(isfinite(p->fov) && isfinite(p->roll) && isfinite(p->hotspot) && isfinite(p->falloff),
          frame);
    CHECK(in_range(p->morph_mesh, s->num_meshes), p->morph_mesh);
}

/* Vertex placements are capped per input so that huge meshes stay fast. */
#define MAX_PLACED 200000u

static void evaluate(const kf3ds_scene *s, kf3ds_pose *poses, double frame, unsigned flags,
                     uint32_t *placed)
{
    uint32_t i, j;
    int finite = isfinite(frame);
    kf3ds_scene_eval(s, frame, flags, poses);
    for (i = 0; i < s->num_nodes; i++) {
        kf3ds_mat4 m;
        float fov, roll;
        check_pose(s, &poses[i], frame);
        if (kf3ds_node_mesh_matrix(s, i, &poses[i], &m)) {
            const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
            if (finite)
                CHECK(finite_mat(&m), frame);
            for (j = 0; j < mesh->num_points && *placed < MAX_PLACED; j++, (*placed)++) {
                float out[3];
                kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                if (finite)
                    CHECK(finite_n(out, 3), frame);
            }
        }
        if (kf3ds_camera_view(s, i, poses, &m, &fov, &roll) && finite) {
            CHECK(finite_mat(&m), frame);
            CHECK(isfinite(fov) && isfinite(roll), frame);
        }
    }
    /* one-shot evaluation (walks the ancestors) of a few nodes */
    for (i = 0; i < s->num_nodes && i < 16; i++) {
        kf3ds_pose one;
        memset(&one, 0, sizeof one);
        kf3ds_node_eval(s, s->num_nodes - 1 - i, frame, flags, &one);
        check_pose(s, &one, frame);
    }
}

static void render(const kf3ds_scene *s, const kf3ds_pose *poses, unsigned variant)
{
    static uint32_t color[32 * 24];
    static float depth[32 * 24];
    kf3ds_framebuffer fb = { color, depth, 32, 24 };
    kf3ds_renderer *r = kf3ds_renderer_create(s, NULL);
    kf3ds_render_options o;
    kf3ds_render_stats st;
    kf3ds_view view;
    float lo[3], hi[3];
    uint32_t i, cams = 0;
    if (!r)
        return;
    memset(&o, 0, sizeof o);
    o.shading = (kf3ds_shading)(variant % 3);
    o.overlays = variant & 1 ? 0x3F : 0;
    if (!kf3ds_scene_bounds(s, poses, lo, hi)) {
        lo[0] = lo[1] = lo[2] = -1.0f;
        hi[0] = hi[1] = hi[2] = 1.0f;
    }
    CHECK(finite_n(lo, 3) && finite_n(hi, 3), 0);
    kf3ds_view_orbit(lo, hi, 30.0f, 20.0f, 45.0f, 32.0f / 24.0f, &view);
    CHECK(finite_mat(&view.view), 0);
    kf3ds_render_scene(r, poses, &view, &o, &fb, &st);
    for (i = 0; i < s->num_nodes && cams < 2; i++)
        if (kf3ds_view_from_camera(s, i, poses, &view)) {
            cams++;
            CHECK(finite_mat(&view.view), i);
            o.through_camera = (int32_t)i + 1;
            kf3ds_render_scene(r, poses, &view, &o, &fb, NULL);
        }
    kf3ds_renderer_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const double frames[] = { 0.0,  1.0,    2.5,          -1.0,          -1000.75, 7.25,
                                     1e9,  -1e9,   2147483647.0, -2147483648.0, 1e300,    -1e300,
                                     0.001, NAN,   INFINITY };
    counter c = { 0, 0 };
    kf3ds_load_options o;
    kf3ds_diag err;
    kf3ds_scene *s;
    kf3ds_pose *poses;
    uint32_t placed = 0;
    size_t f;

    memset(&o, 0, sizeof o);
    o.allocator.malloc_fn = c_malloc;
    o.allocator.realloc_fn = c_realloc;
    o.allocator.free_fn = c_free;
    o.allocator.user = &c;
    s = kf3ds_load_memory(data, size, &o, &err);
    CHECK(c.peak <= BOUND_PER_BYTE * size + BOUND_FIXED, c.peak);
    if (!s) {
        CHECK(err.code != KF3DS_OK, err.code);
        CHECK(c.bytes == 0, c.bytes);
        return 0;
    }
    check_structure(s);
    poses = (kf3ds_pose *)calloc(s->num_nodes + 1, sizeof *poses);
    if (!poses)
        abort();
    for (f = 0; f < sizeof frames / sizeof frames[0]; f++)
        evaluate(s, poses, frames[f], f & 1 ? KF3DS_EVAL_NO_EASE : 0, &placed);
    /* the file's own frames: the segment and the keys' range */
    evaluate(s, poses, s->segment_start + 0.5, 0, &placed);
    evaluate(s, poses, (double)s->segment_end - 0.25, 0, &placed);
    evaluate(s, poses, (double)s->anim_length * 0.5, 0, &placed);
    render(s, poses, (unsigned)size);
    kf3ds_scene_eval(s, 3.0, 0, poses);
    render(s, poses, (unsigned)size + 1);
    free(poses);
    kf3ds_free(s);
    CHECK(c.bytes == 0, c.bytes);
    return 0;
}
