/* The scene oracles of support.h, shared by the fuzz target fuzz/fuzz_load.c
 * and the replay of its findings in tests/front/test_fuzz_regressions.c, so that a
 * regression input is checked exactly as the fuzzer checked it. No cmocka
 * here: a broken check goes to the caller's `fail`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds_render.h"
#include "support.h"

#define CHECK(cond, v)                                                    \
    do {                                                                  \
        if (!(cond))                                                      \
            fail(#cond, (double)(v));                                     \
    } while (0)

static void check_structure(const kf3ds_scene *s, support_fail_fn fail)
{
    uint32_t i, j, k;
    for (i = 0; i < s->num_meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        CHECK(m->name != NULL, i);
        CHECK(support_finite_mat(&m->matrix) && support_finite_mat(&m->inv_matrix), i);
        for (j = 0; j < m->num_faces; j++) {
            CHECK(m->faces[j].v[0] < m->num_points && m->faces[j].v[1] < m->num_points &&
                      m->faces[j].v[2] < m->num_points,
                  j);
            CHECK(support_in_range(kf3ds_face_material(m, j), s->num_materials), j);
        }
        for (j = 0; j < m->num_points; j++)
            CHECK(support_finite_n(m->points[j], 3), j);
        for (j = 0; j < m->num_groups; j++)
            for (k = 0; k < m->groups[j].num_faces; k++)
                CHECK(m->groups[j].faces[k] < m->num_faces, k);
    }
    if (s->num_nodes)
        CHECK(s->eval_order != NULL, s->num_nodes);
    for (i = 0; i < s->num_nodes; i++) {
        const kf3ds_node *n = &s->nodes[i];
        CHECK(s->eval_order[i] < s->num_nodes, i);
        CHECK(support_in_range(n->parent, s->num_nodes) && n->parent != (int32_t)i, i);
        CHECK(support_in_range(n->mesh, s->num_meshes), i);
        CHECK(support_in_range(n->camera, s->num_cameras), i);
        CHECK(support_in_range(n->light, s->num_lights), i);
        CHECK(support_in_range(n->target, s->num_nodes), i);
        CHECK(support_finite_n(n->pivot, 3), i);
        for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
            const kf3ds_track *t = &n->tracks[k];
            for (j = 0; j < t->num_keys; j++) {
                const kf3ds_key *key = &t->keys[j];
                CHECK(j == 0 || t->keys[j - 1].frame <= key->frame, j);
                CHECK(support_finite_n(key->value, 4), j);
                CHECK(support_finite_n(key->quat, 4), j);
                CHECK(isfinite(key->tension) && isfinite(key->continuity) &&
                          isfinite(key->bias) && isfinite(key->ease_to) &&
                          isfinite(key->ease_from),
                      j);
                if (k == KF3DS_TRACK_MORPH)
                    CHECK(support_in_range(key->morph_mesh, s->num_meshes), j);
            }
        }
    }
}

static void check_pose(const kf3ds_scene *s, const kf3ds_pose *p, double frame,
                       support_fail_fn fail)
{
    if (!isfinite(frame))
        return;
    CHECK(support_finite_mat(&p->world), frame);
    CHECK(support_finite_n(p->position, 3) && support_finite_n(p->rotation, 4) &&
              support_finite_n(p->scale, 3),
          frame);
    CHECK(support_finite_n(p->color, 3), frame);
    CHECK(isfinite(p->fov) && isfinite(p->roll) && isfinite(p->hotspot) && isfinite(p->falloff),
          frame);
    CHECK(support_in_range(p->morph_mesh, s->num_meshes), p->morph_mesh);
}

static void evaluate(const kf3ds_scene *s, kf3ds_pose *poses, double frame, unsigned flags,
                     uint32_t *placed, uint32_t max_placed, support_fail_fn fail)
{
    uint32_t i, j;
    int finite = isfinite(frame);
    kf3ds_scene_eval(s, frame, flags, poses);
    for (i = 0; i < s->num_nodes; i++) {
        kf3ds_mat4 m;
        float fov, roll;
        check_pose(s, &poses[i], frame, fail);
        if (kf3ds_node_mesh_matrix(s, i, &poses[i], &m)) {
            const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
            if (finite)
                CHECK(support_finite_mat(&m), frame);
            for (j = 0; j < mesh->num_points && *placed < max_placed; j++, (*placed)++) {
                float out[3];
                kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                if (finite)
                    CHECK(support_finite_n(out, 3), frame);
            }
        }
        if (kf3ds_node_camera_view(s, i, poses, &m, &fov, &roll) && finite) {
            CHECK(support_finite_mat(&m), frame);
            CHECK(isfinite(fov) && isfinite(roll), frame);
        }
    }
    /* One-shot evaluation (it walks the ancestors): the first nodes without
     * flags, and the last ones with them. */
    for (i = 0; i < s->num_nodes && i < 64; i++) {
        kf3ds_pose one;
        memset(&one, 0, sizeof one);
        kf3ds_node_eval(s, i, frame, 0, &one);
        check_pose(s, &one, frame, fail);
    }
    for (i = 0; i < s->num_nodes && i < 16; i++) {
        kf3ds_pose one;
        memset(&one, 0, sizeof one);
        kf3ds_node_eval(s, s->num_nodes - 1 - i, frame, flags, &one);
        check_pose(s, &one, frame, fail);
    }
}

/* Renders variant v (shading v % 3, every overlay when v is odd: v = 0..5
 * are all the combinations) through the orbit view around the bounds and
 * through the first cameras. */
static void render(const kf3ds_scene *s, const kf3ds_pose *poses, unsigned v,
                   support_fail_fn fail)
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
    CHECK(r != NULL, 0);
    memset(&o, 0, sizeof o);
    o.shading = (kf3ds_shading)(v % 3);
    o.overlays = v & 1 ? 0x3F : 0;
    if (!kf3ds_scene_bounds(s, poses, lo, hi)) {
        lo[0] = lo[1] = lo[2] = -1.0f;
        hi[0] = hi[1] = hi[2] = 1.0f;
    }
    CHECK(support_finite_n(lo, 3) && support_finite_n(hi, 3), 0);
    kf3ds_view_orbit(lo, hi, 30.0f, 20.0f, 45.0f, 32.0f / 24.0f, &view);
    CHECK(support_finite_mat(&view.view), 0);
    kf3ds_render_scene(r, poses, &view, &o, &fb, &st);
    for (i = 0; i < s->num_nodes && cams < 8; i++)
        if (kf3ds_view_from_camera(s, i, poses, &view)) {
            cams++;
            CHECK(support_finite_mat(&view.view), i);
            o.has_camera_node = 1;
            o.camera_node = i;
            kf3ds_render_scene(r, poses, &view, &o, &fb, NULL);
        }
    kf3ds_renderer_free(r);
}

void support_exercise_scene(const kf3ds_scene *s, uint32_t max_placed, unsigned first_variant,
                            unsigned variants, support_fail_fn fail)
{
    /* Finite, fractional, negative, huge and non-finite frames, with ease
     * and without (no_ease), 0.001 and NaN both ways. */
    static const struct {
        double frame;
        int no_ease;
    } at[] = {
        { 0.0, 0 },  { 1.0, 1 },  { 2.5, 0 },          { -1.0, 1 },          { -1000.75, 0 },
        { 7.25, 1 }, { 1e9, 0 },  { -1e9, 1 },         { 2147483647.0, 0 },  { -2147483648.0, 1 },
        { 1e300, 0 }, { -1e300, 1 }, { 0.001, 0 },     { 0.001, 1 },         { NAN, 0 },
        { NAN, 1 },  { INFINITY, 0 },
    };
    kf3ds_pose *poses;
    uint32_t placed = 0;
    size_t f;
    unsigned v;
    check_structure(s, fail);
    poses = (kf3ds_pose *)calloc(s->num_nodes + 1, sizeof *poses);
    CHECK(poses != NULL, s->num_nodes);
    for (f = 0; f < sizeof at / sizeof at[0]; f++)
        evaluate(s, poses, at[f].frame, at[f].no_ease ? KF3DS_EVAL_NO_EASE : 0, &placed,
                 max_placed, fail);
    /* the file's own frames: the segment and the keys' range */
    evaluate(s, poses, s->segment_start + 0.5, 0, &placed, max_placed, fail);
    evaluate(s, poses, (double)s->segment_end - 0.25, 0, &placed, max_placed, fail);
    evaluate(s, poses, (double)s->anim_length * 0.5, 0, &placed, max_placed, fail);
    for (v = 0; v < variants; v++)
        render(s, poses, first_variant + v, fail);
    kf3ds_scene_eval(s, 3.0, 0, poses);
    for (v = 0; v < variants; v++)
        render(s, poses, first_variant + 1 + v, fail);
    free(poses);
}
