/* The scene builder (docs/writer.md, "Building a scene"): the scene it makes
 * is the one loading makes of the file it saves (every field, the derived
 * evaluation data and the mirror fix included); every call checks its
 * arguments and the first failure stops the builder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "support_build.h"

static const float box[8][3] = { {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                 {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1} };

static void box_faces(kf3ds_face f[12])
{
    static const uint16_t t[12][3] = { {0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                       {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                       {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7} };
    int i;
    for (i = 0; i < 12; i++) {
        memcpy(f[i].v, t[i], sizeof f[i].v);
        f[i].flags = (uint16_t)(i % 8);
    }
}

/* A scene with something of every kind. */
static kf3ds_builder *rich_builder(void)
{
    kf3ds_builder *b = kf3ds_builder_create(NULL);
    kf3ds_face faces[12];
    kf3ds_material m;
    kf3ds_camera cam;
    kf3ds_light spot;
    kf3ds_environment env;
    kf3ds_mat4 mirror;
    kf3ds_key k;
    float uv[8][2], pivot[3] = { 0.5f, 0.5f, 0.5f };
    uint16_t flags[8], half[6] = { 0, 1, 2, 3, 4, 5 };
    uint32_t smooth[12];
    int32_t box_mesh, mir, dummy, obj, c, t, s, st;
    int i;
    assert_non_null(b);
    box_faces(faces);
    for (i = 0; i < 8; i++) {
        uv[i][0] = box[i][0];
        uv[i][1] = box[i][1];
        flags[i] = (uint16_t)i;
    }
    for (i = 0; i < 12; i++)
        smooth[i] = 1u << (i / 2);
    memset(&m, 0, sizeof m);
    m.name = "Red";
    m.diffuse[0] = 1.0f;
    m.ambient[0] = 0.2f; /* not a byte / 255: saved as floats */
    m.specular[0] = m.specular[1] = m.specular[2] = 0.9f;
    m.shininess = 0.4f;
    m.transparency = 0.1f;
    m.two_sided = 1;
    m.shading = 3;
    m.texture1.file = "checker.png";
    m.texture1.strength = 0.75f;
    m.texture1.u_scale = 2.0f;
    m.texture1.v_scale = 1.0f;
    m.texture1.rotation = 45.0f;
    assert_int_equal(kf3ds_builder_add_material(b, &m), 0);
    m.name = "Blue";
    assert_int_equal(kf3ds_builder_add_material(b, &m), 1);
    box_mesh = kf3ds_builder_add_mesh(b, "Box", box, 8, faces, 12, NULL);
    kf3ds_builder_mesh_texcoords(b, box_mesh, (const float(*)[2])uv, 8);
    kf3ds_builder_mesh_point_flags(b, box_mesh, flags, 8);
    kf3ds_builder_mesh_smoothing(b, box_mesh, smooth);
    kf3ds_builder_mesh_material(b, box_mesh, "Red", half, 6);
    kf3ds_builder_mesh_material(b, box_mesh, "Blue", NULL, 0);
    kf3ds_mat4_identity(&mirror);
    mirror.m[0][0] = -1.0f;
    mirror.m[0][3] = -4.0f;
    mir = kf3ds_builder_add_mesh(b, "Mirror", box, 8, faces, 12, &mirror);
    assert_int_equal(mir, 1);
    memset(&cam, 0, sizeof cam);
    cam.name = "Cam01";
    cam.position[1] = -10.0f;
    cam.lens = 35.0f;
    cam.near_range = 1.0f;
    cam.far_range = 1000.0f;
    assert_int_equal(kf3ds_builder_add_camera(b, &cam), 0);
    memset(&spot, 0, sizeof spot);
    spot.name = "Spot01";
    spot.position[2] = 10.0f;
    spot.color[0] = spot.color[1] = spot.color[2] = 1.0f;
    spot.multiplier = 1.5f;
    spot.spot = 1;
    spot.hotspot = 30.0f;
    spot.falloff = 45.0f;
    spot.shadowed = 1;
    assert_int_equal(kf3ds_builder_add_light(b, &spot), 0);
    memset(&env, 0, sizeof env);
    env.background = KF3DS_BACKGROUND_BITMAP;
    env.bitmap = "SKY.JPG";
    env.gradient_mid = 0.4f;
    env.gradient[0][2] = 0.8f;
    env.gradient[2][0] = 0.3f;
    env.atmosphere = KF3DS_ATMOSPHERE_FOG;
    env.fog_near = 10.0f;
    env.fog_near_density = 0.05f;
    env.fog_far = 250.0f;
    env.fog_far_density = 0.75f;
    env.fog_color[0] = env.fog_color[1] = env.fog_color[2] = 0.6f;
    env.fog_background = 1;
    env.cue_far = 300.0f;
    env.cue_far_dim = 0.333f;
    assert_int_equal(kf3ds_builder_environment(b, &env), KF3DS_OK);

    kf3ds_builder_keyframer(b, "rich", 100, 0, 100);
    dummy = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
    kf3ds_builder_node_instance(b, dummy, "Group01");
    kf3ds_builder_node_id(b, dummy, 40);
    k = support_key(0, 0, 0, 0, 0);
    kf3ds_builder_add_key(b, dummy, KF3DS_TRACK_POS, &k);
    k = support_key(50, 1, -1, 2, 0);
    k.tension = 0.5f;
    k.ease_from = 0.25f;
    kf3ds_builder_add_key(b, dummy, KF3DS_TRACK_POS, &k);
    obj = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Box", dummy);
    kf3ds_builder_node_pivot(b, obj, pivot);
    kf3ds_builder_track_flags(b, obj, KF3DS_TRACK_ROT, 3); /* loop */
    k = support_key(0, 0, 0, 0, 1);
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_ROT, &k);
    k = support_key(20, 4.0f, 0, 1, 0); /* more than a half turn */
    k.continuity = -0.25f;
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_ROT, &k);
    k = support_key(10, 1, 1, 1, 0); /* out of frame order: sorted, saved as added */
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_SCL, &k);
    k = support_key(0, 1, 1, 1, 0);
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_SCL, &k);
    k = support_key(0, 0, 0, 0, 0);
    k.morph_name = "Box";
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_MORPH, &k);
    k.frame = 30;
    k.morph_name = "Mirror";
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_MORPH, &k);
    k = support_key(15, 0, 0, 0, 0);
    kf3ds_builder_add_key(b, obj, KF3DS_TRACK_HIDE, &k);
    kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Mirror", obj);
    c = kf3ds_builder_add_node(b, KF3DS_NODE_CAMERA, "Cam01", KF3DS_NONE);
    k = support_key(0, 45, 0, 0, 0);
    kf3ds_builder_add_key(b, c, KF3DS_TRACK_FOV, &k);
    k = support_key(0, 10, 0, 0, 0);
    kf3ds_builder_add_key(b, c, KF3DS_TRACK_ROLL, &k);
    t = kf3ds_builder_add_node(b, KF3DS_NODE_TARGET, "Cam01", KF3DS_NONE);
    k = support_key(0, 0, 0, 1, 0);
    kf3ds_builder_add_key(b, t, KF3DS_TRACK_POS, &k);
    s = kf3ds_builder_add_node(b, KF3DS_NODE_SPOT, "Spot01", KF3DS_NONE);
    k = support_key(0, 30, 0, 0, 0);
    kf3ds_builder_add_key(b, s, KF3DS_TRACK_HOT, &k);
    k = support_key(0, 45, 0, 0, 0);
    kf3ds_builder_add_key(b, s, KF3DS_TRACK_FALL, &k);
    k = support_key(0, 1, 0.5f, 0.25f, 0);
    kf3ds_builder_add_key(b, s, KF3DS_TRACK_COL, &k);
    st = kf3ds_builder_add_node(b, KF3DS_NODE_LTARGET, "Spot01", KF3DS_NONE);
    kf3ds_builder_node_flags(b, st, 0x800, 0);
    /* the settings that belong to no element */
    kf3ds_builder_master_scale(b, 2.54f);
    kf3ds_builder_ambient(b, (const float[3]){ 0.1f, 0.2f, 0.3f });
    kf3ds_builder_current_frame(b, 12);
    kf3ds_builder_mesh_display(b, mir, 1, 7);
    kf3ds_builder_node_bbox(b, obj, (const float[3]){ 0, 0, 0 }, (const float[3]){ 1, 1, 1 });
    kf3ds_builder_node_prescale(b, dummy, (const float[3]){ 1, 2, 3 });
    kf3ds_builder_node_morph_smooth(b, obj, 30.0f);
    assert_int_equal(kf3ds_builder_error(b)->code, KF3DS_OK);
    return b;
}

static const double frames[] = { -5, 0, 2.5, 10, 15, 19.5, 20, 30, 49, 50, 77.7, 100, 1e4 };

/* The built scene is the one loading makes of its file; save -> load -> save
 * is a fixed point. */
static void test_built_scene_is_the_loaded_one(void **state)
{
    kf3ds_diag err;
    kf3ds_scene *built = kf3ds_builder_finish(rich_builder(), &err), *loaded;
    kf3ds_load_options lo;
    void *bytes, *again;
    size_t n, n2;
    char what[300];
    (void)state;
    assert_non_null(built);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(support_count_diags(built, KF3DS_WARN_UNSORTED), 1);
    assert_int_equal(built->meshes[1].mirrored, 1);
    assert_int_equal(built->nodes[1].parent, 0);
    assert_int_equal(built->nodes[1].parent_raw, 40); /* the dummy's id */
    assert_int_equal(built->nodes[3].target, 4); /* the camera and its target */
    assert_int_equal(built->nodes[1].tracks[KF3DS_TRACK_MORPH].keys[1].morph_mesh, 1);
    assert_int_equal(built->meshes[0].groups[0].num_faces, 6);
    assert_int_equal(kf3ds_face_material(&built->meshes[0], 3), 1); /* the last group naming it */
    assert_int_equal(kf3ds_face_material(&built->meshes[0], 9), 1);
    assert_int_equal(built->environment.background, KF3DS_BACKGROUND_BITMAP);
    assert_int_equal(built->environment.atmosphere, KF3DS_ATMOSPHERE_FOG);
    assert_string_equal(built->environment.bitmap, "SKY.JPG");
    assert_near(built->environment.fog_far_density, 0.75, 0);
    assert_near(built->environment.cue_far_dim, 0.333, 1e-7);
    assert_string_equal(built->materials[0].texture1.file, "checker.png");
    assert_near(built->materials[0].texture1.rotation, 45, 0);
    assert_string_equal(built->materials[0].opacity.file, ""); /* absent, as loading gives */
    assert_near(built->master_scale, 2.54f, 0);
    assert_near(built->ambient[2], 0.3f, 0);
    assert_int_equal(built->current_frame, 12);
    assert_int_equal(built->meshes[1].hidden, 1);
    assert_int_equal(built->meshes[1].color, 7);
    assert_int_equal(built->nodes[1].has_bbox, 1);
    assert_near(built->nodes[1].bbox_max[1], 1, 0);
    assert_int_equal(built->nodes[0].has_prescale, 1);
    assert_near(built->nodes[0].prescale[2], 3, 0);
    assert_int_equal(built->nodes[1].has_morph_smooth, 1);
    assert_near(built->nodes[1].morph_smooth, 30, 0);
    assert_int_equal(kf3ds_save_memory(built, NULL, &bytes, &n, &err), KF3DS_OK);
    memset(&lo, 0, sizeof lo);
    lo.flags = KF3DS_LOAD_KEEP_SOURCE;
    loaded = kf3ds_load_memory(bytes, n, &lo, &err);
    assert_non_null(loaded);
    assert_int_equal(err.code, KF3DS_OK);
    if (support_scene_diff(built, loaded, 0, what, sizeof what))
        fail_msg("the loaded scene differs from the built one: %s", what);
    if (support_eval_diff(built, loaded, frames, sizeof frames / sizeof frames[0], what,
                          sizeof what))
        fail_msg("they evaluate differently: %s", what);
    assert_int_equal(loaded->num_diags, built->num_diags); /* the same warning */
    assert_int_equal(kf3ds_save_memory(loaded, NULL, &again, &n2, &err), KF3DS_OK);
    assert_int_equal(n2, n);
    assert_memory_equal(again, bytes, n);
    kf3ds_save_free(again, NULL);
    kf3ds_save_free(bytes, NULL);
    kf3ds_scene_free(loaded);
    kf3ds_scene_free(built);
}

/* Each bad call is refused with a message naming what; the first one stops
 * the builder, and finishing gives it back. */
static void test_builder_checks_its_arguments(void **state)
{
    kf3ds_face faces[12], bad_face[1] = { { { 0, 1, 9 }, 0 } };
    kf3ds_material m;
    kf3ds_key k;
    kf3ds_diag err;
    float nan_point[1][3] = { { 0, NAN, 0 } };
    float (*many)[3];
    int32_t mesh, node;
    kf3ds_builder *b;
    (void)state;
    box_faces(faces);
    memset(&m, 0, sizeof m);
    memset(&k, 0, sizeof k);

    b = kf3ds_builder_create(NULL);
    assert_int_equal(kf3ds_builder_add_mesh(b, "Bad", box, 8, bad_face, 1, NULL), KF3DS_NONE);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "beyond"));
    /* the builder stays stopped */
    assert_int_equal(kf3ds_builder_add_mesh(b, "Good", box, 8, faces, 12, NULL), KF3DS_NONE);
    assert_null(kf3ds_builder_finish(b, &err));
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);

    b = kf3ds_builder_create(NULL);
    many = calloc(70000, sizeof *many);
    assert_non_null(many);
    assert_int_equal(kf3ds_builder_add_mesh(b, "Huge", (const float(*)[3])many, 70000, NULL, 0,
                                            NULL), KF3DS_NONE);
    assert_int_equal(kf3ds_builder_error(b)->code, KF3DS_ERR_LIMIT);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "Huge"));
    free(many);
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    assert_int_equal(kf3ds_builder_add_mesh(b, "NaN", (const float(*)[3])nan_point, 1, NULL, 0,
                                            NULL), KF3DS_NONE);
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    mesh = kf3ds_builder_add_mesh(b, "Box", box, 8, faces, 12, NULL);
    assert_int_not_equal(kf3ds_builder_mesh_material(b, mesh, "Nowhere", NULL, 0), KF3DS_OK);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "Nowhere"));
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    assert_int_equal(kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Orphan", 3), KF3DS_NONE);
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    assert_int_not_equal(kf3ds_builder_master_scale(b, INFINITY), KF3DS_OK);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "master scale"));
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    node = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Boxed", KF3DS_NONE);
    assert_int_not_equal(kf3ds_builder_node_bbox(b, node, nan_point[0], nan_point[0]),
                         KF3DS_OK);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "Boxed"));
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    node = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
    kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", node);
    assert_int_not_equal(kf3ds_builder_node_id(b, 1, 0), KF3DS_OK); /* node 0's id */
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    node = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
    k.tension = 5000.0f;
    assert_int_not_equal(kf3ds_builder_add_key(b, node, KF3DS_TRACK_POS, &k), KF3DS_OK);
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    node = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
    k.tension = 0.0f;
    assert_int_not_equal(kf3ds_builder_add_key(b, node, KF3DS_TRACK_MORPH, &k), KF3DS_OK);
    kf3ds_builder_free(b);

    assert_null(kf3ds_builder_finish(NULL, &err));
    assert_int_equal(kf3ds_builder_add_material(NULL, &m), KF3DS_NONE);
}

/* The background and atmosphere: a kind out of range, a value that is not
 * finite, a density whose percentage would leave the supported range. */
static void test_builder_checks_the_environment(void **state)
{
    kf3ds_environment env;
    kf3ds_builder *b;
    kf3ds_scene *s;
    kf3ds_diag err;
    (void)state;
    memset(&env, 0, sizeof env);
    b = kf3ds_builder_create(NULL);
    assert_int_not_equal(kf3ds_builder_environment(b, NULL), KF3DS_OK);
    kf3ds_builder_free(b);

    b = kf3ds_builder_create(NULL);
    env.atmosphere = (kf3ds_atmosphere_kind)7;
    assert_int_equal(kf3ds_builder_environment(b, &env), KF3DS_ERR_ARGUMENT);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "out of range"));
    kf3ds_builder_free(b);

    env.atmosphere = KF3DS_ATMOSPHERE_LAYER_FOG;
    env.layer_top = NAN;
    b = kf3ds_builder_create(NULL);
    assert_int_equal(kf3ds_builder_environment(b, &env), KF3DS_ERR_ARGUMENT);
    kf3ds_builder_free(b);

    env.layer_top = 20.0f;
    env.cue_near_dim = 1e17f; /* 1e19 % */
    b = kf3ds_builder_create(NULL);
    assert_int_equal(kf3ds_builder_environment(b, &env), KF3DS_ERR_ARGUMENT);
    assert_non_null(strstr(kf3ds_builder_error(b)->message, "dimming"));
    kf3ds_builder_free(b);

    /* without a bitmap name the scene has "" (as loading gives) */
    env.cue_near_dim = 0.5f;
    b = kf3ds_builder_create(NULL);
    assert_int_equal(kf3ds_builder_environment(b, &env), KF3DS_OK);
    s = kf3ds_builder_finish(b, &err);
    assert_non_null(s);
    assert_string_equal(s->environment.bitmap, "");
    assert_int_equal(s->environment.atmosphere, KF3DS_ATMOSPHERE_LAYER_FOG);
    assert_near(s->environment.layer_top, 20, 0);
    kf3ds_scene_free(s);
}

/* The builder and its scene on the caller's allocator: every block back. */
static void test_builder_allocator(void **state)
{
    counting c;
    kf3ds_load_options o = counting_options(&c);
    kf3ds_builder *b;
    kf3ds_scene *s;
    kf3ds_diag err;
    long fail_after;
    (void)state;
    counting_reset(&c, -1);
    b = kf3ds_builder_create(&o.allocator);
    assert_non_null(b);
    kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
    s = kf3ds_builder_finish(b, &err);
    assert_non_null(s);
    counting_free_scene(s, &c);
    /* refusals anywhere: no scene or a whole one, nothing leaked */
    for (fail_after = 0; fail_after < 4; fail_after++) {
        counting_reset(&c, fail_after);
        b = kf3ds_builder_create(&o.allocator);
        if (b) {
            kf3ds_builder_free(rich_builder());
            kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
            s = kf3ds_builder_finish(b, &err);
            counting_free_scene(s, &c);
        }
        assert_int_equal(c.live, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_built_scene_is_the_loaded_one),
        support_unit_test(test_builder_checks_its_arguments),
        support_unit_test(test_builder_checks_the_environment),
        support_unit_test(test_builder_allocator),
    };
    return support_run_tests(tests, NULL, NULL);
}
