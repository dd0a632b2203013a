/* The library writer (docs/writer.md): load -> save -> load gives the same
 * scene, bit for bit, on the samples and every corpus file that loads
 * without error; save -> load -> save is a fixed point; the maps and the
 * background and atmosphere settings in each order; the options; counts
 * that do not fit the format are errors naming what; the allocator hooks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static const double frames[] = { -7.5, 0, 0.25, 1, 5.5, 10, 12.5, 17, 30, 33.3, 50, 60, 75.75,
                                 99, 100, 150, 250.5, 1000, 2150 };
#define NUM_FRAMES (sizeof frames / sizeof frames[0])

static kf3ds_scene *load_bytes(const void *data, size_t size, unsigned flags, kf3ds_diag *err)
{
    kf3ds_load_options o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    return kf3ds_load_memory(data, size, &o, err);
}

static unsigned char *save_bytes(const kf3ds_scene *s, unsigned flags, size_t *size)
{
    kf3ds_save_options o;
    kf3ds_diag err;
    void *bytes = NULL;
    unsigned char *copy;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    if (kf3ds_save_memory(s, &o, &bytes, size, &err) != KF3DS_OK)
        fail_msg("%s: save failed: %s", support_what, err.message);
    copy = malloc(*size ? *size : 1);
    assert_non_null(copy);
    memcpy(copy, bytes, *size);
    kf3ds_save_free(bytes, &o);
    return copy;
}

typedef struct tally {
    int files, loaded, identical, fixed_points;
    int with_settings; /* of the identical ones: with a background or atmosphere setting */
} tally;

/* Whether a file has background or atmosphere chunks (settings). */
static int has_settings(const unsigned char *data, size_t size)
{
    support_chunk_list chunks = support_collect_chunks(data, size);
    size_t i;
    int found = 0;
    for (i = 0; i < chunks.n; i++)
        switch (chunks.v[i].id) {
        case KF3DS_CHUNK_BIT_MAP: case KF3DS_CHUNK_SOLID_BGND: case KF3DS_CHUNK_V_GRADIENT:
        case KF3DS_CHUNK_FOG: case KF3DS_CHUNK_LAYER_FOG: case KF3DS_CHUNK_DISTANCE_CUE:
            found = 1;
            break;
        default:
            break;
        }
    free(chunks.v);
    return found;
}

/* Load (keeping the source) -> save with `save_flags` -> load: the same
 * scene and evaluation; saving the reloaded scene gives the same bytes. */
static void round_trip(const unsigned char *data, size_t size, unsigned save_flags,
                       unsigned diff_flags, tally *t)
{
    kf3ds_diag err;
    kf3ds_scene *a, *b, *c;
    unsigned char *first, *second;
    size_t n1, n2;
    char what[300];
    t->files++;
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    if (!a || err.code != KF3DS_OK) {
        kf3ds_scene_free(a);
        return;
    }
    t->loaded++;
    first = save_bytes(a, save_flags, &n1);
    b = load_bytes(first, n1, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(b);
    if (err.code != KF3DS_OK)
        fail_msg("%s: the saved file has an error: %s", support_what, err.message);
    if (support_scene_diff(a, b, diff_flags, what, sizeof what))
        fail_msg("%s: the reloaded scene differs: %s", support_what, what);
    if (support_eval_diff(a, b, frames, NUM_FRAMES, what, sizeof what))
        fail_msg("%s: the reloaded scene evaluates differently: %s", support_what, what);
    t->identical++;
    t->with_settings += has_settings(data, size);
    second = save_bytes(b, save_flags, &n2);
    if (n1 != n2 || memcmp(first, second, n1) != 0)
        fail_msg("%s: save -> load -> save is not a fixed point (%lu, %lu bytes)", support_what,
                 (unsigned long)n1, (unsigned long)n2);
    /* and the same without the kept source: kf3ds's own order, same scene */
    c = load_bytes(first, n1, 0, &err);
    assert_non_null(c);
    if (support_scene_diff(b, c, diff_flags, what, sizeof what))
        fail_msg("%s: loading without the source differs: %s", support_what, what);
    t->fixed_points++;
    kf3ds_scene_free(a);
    kf3ds_scene_free(b);
    kf3ds_scene_free(c);
    free(first);
    free(second);
}

static void round_trip_file(const char *path, const char *name, void *user)
{
    size_t size;
    unsigned char *data;
    tally *t = (tally *)user;
    if (!support_is_3ds_name(name))
        return;
    data = support_read_file(path, &size);
    assert_non_null(data);
    support_set_what("%s (lossless)", name);
    round_trip(data, size, 0, 0, t);
    support_set_what("%s (repaired)", name);
    round_trip(data, size, KF3DS_SAVE_REPAIR, SUPPORT_DIFF_REPAIRED, &t[1]);
    support_set_what("%s (canonical)", name);
    round_trip(data, size, KF3DS_SAVE_CANONICAL, 0, &t[2]);
    free(data);
}

static void test_samples_round_trip(void **state)
{
    tally t[3];
    int i;
    (void)state;
    memset(t, 0, sizeof t);
    support_dir_each("data", round_trip_file, t);
    for (i = 0; i < 3; i++) { /* orrery, arm, edge, textured: lossless, repaired, canonical */
        assert_int_equal(t[i].files, 4);
        assert_int_equal(t[i].identical, 4);
        assert_int_equal(t[i].fixed_points, 4);
        assert_int_equal(t[i].with_settings, 1); /* textured: a gradient background */
    }
}

static void test_corpus_round_trip(void **state)
{
    tally t[3];
    (void)state;
    memset(t, 0, sizeof t);
    if (support_corpus_each(round_trip_file, t) < 0)
        skip();
    print_message("corpus round trip: %d .3ds files, %d load without error; identical after "
                  "load -> save -> load: %d lossless, %d repaired, %d canonical (%d, %d, %d of "
                  "them with backgrounds or atmospheres); fixed points %d, %d, %d\n",
                  t[0].files, t[0].loaded, t[0].identical, t[1].identical, t[2].identical,
                  t[0].with_settings, t[1].with_settings, t[2].with_settings,
                  t[0].fixed_points, t[1].fixed_points, t[2].fixed_points);
    assert_true(t[0].loaded > 0);
    assert_int_equal(t[0].identical, t[0].loaded);
    assert_int_equal(t[1].identical, t[0].loaded);
    assert_int_equal(t[2].identical, t[0].loaded);
    assert_int_equal(t[1].with_settings, t[0].with_settings);
    assert_int_equal(t[2].with_settings, t[0].with_settings);
}

static int count_chunks(const unsigned char *data, size_t size, uint16_t id)
{
    support_chunk_list chunks = support_collect_chunks(data, size);
    size_t i;
    int n = 0;
    for (i = 0; i < chunks.n; i++)
        n += chunks.v[i].id == id;
    free(chunks.v);
    return n;
}

/* Where the first chunk `id` of a file starts (0 when there is none). */
static uint32_t chunk_offset(const unsigned char *data, size_t size, uint16_t id)
{
    support_chunk_list chunks = support_collect_chunks(data, size);
    size_t i;
    uint32_t at = 0;
    for (i = 0; i < chunks.n && !at; i++)
        if (chunks.v[i].id == id)
            at = chunks.v[i].offset;
    free(chunks.v);
    return at;
}

/* data/textured.3ds saved without its kept source (kf3ds's own order): its
 * maps with their file, tiling, scale and strength, the texture coordinates
 * and the gradient background come back as dev/mk3ds/mk3ds_textured.c made them. */
static void test_textured_canonical(void **state)
{
    size_t size, n;
    unsigned char *data = support_read_file("data/textured.3ds", &size), *out;
    kf3ds_scene *a, *b;
    const kf3ds_environment *e;
    const kf3ds_material *floor, *glass;
    char what[300];
    (void)state;
    assert_non_null(data);
    a = load_bytes(data, size, 0, NULL);
    assert_non_null(a);
    out = save_bytes(a, 0, &n);
    b = load_bytes(out, n, 0, NULL);
    assert_non_null(b);
    if (support_scene_diff(a, b, 0, what, sizeof what))
        fail_msg("textured.3ds: the reloaded scene differs: %s", what);
    e = &b->environment;
    assert_int_equal(e->background, KF3DS_BACKGROUND_GRADIENT);
    assert_int_equal(e->atmosphere, KF3DS_ATMOSPHERE_NONE);
    assert_near(e->gradient_mid, 0.4, 1e-7);
    assert_near(e->gradient[0][2], 0.55, 1e-7); /* the top: blue */
    assert_near(e->gradient[2][0], 0.30, 1e-7);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_V_GRADIENT), 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_USE_V_GRADIENT), 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_FOG), 0);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_SOLID_BGND), 0);
    assert_int_equal(b->num_materials, 3);
    floor = &b->materials[1];
    assert_string_equal(floor->name, "Floor");
    assert_string_equal(floor->texture1.file, "CHECKER.CEL");
    assert_near(floor->texture1.strength, 1, 0);
    assert_near(floor->texture1.u_scale, 4, 0);
    assert_near(floor->texture1.v_scale, 4, 0);
    assert_int_equal(floor->texture1.tiling, 0);
    assert_string_equal(floor->opacity.file, "");
    glass = &b->materials[2];
    assert_string_equal(glass->opacity.file, "GLASS.BMP");
    assert_int_equal(glass->opacity.tiling, KF3DS_TILE_NONE);
    assert_near(glass->transparency, 0.4, 1e-7);
    assert_int_equal(glass->two_sided, 1);
    assert_int_equal(b->meshes[0].num_texcoords, 24);
    assert_near(b->meshes[0].texcoords[2][0], 1, 0);
    assert_near(b->meshes[0].texcoords[2][1], 1, 0);
    kf3ds_scene_free(a);
    kf3ds_scene_free(b);
    free(out);
    free(data);
}

/* Settings changed after loading replace the file's background and
 * atmosphere chunks in a lossless save, where the file had the first of
 * them; unchanged, they are written back as they were. */
static void test_settings_changed(void **state)
{
    size_t size, n;
    unsigned char *data = support_read_file("data/textured.3ds", &size), *out;
    kf3ds_scene *a, *b;
    kf3ds_environment *e;
    char what[300];
    (void)state;
    assert_non_null(data);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, NULL);
    assert_non_null(a);
    out = save_bytes(a, 0, &n);
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size);
    free(out);

    e = &a->environment;
    e->background = KF3DS_BACKGROUND_SOLID;
    e->solid[0] = 0.5f;
    e->solid[1] = 0.25f;
    e->atmosphere = KF3DS_ATMOSPHERE_FOG;
    e->fog_near = 10.0f;
    e->fog_near_density = 0.25f;
    e->fog_far = 200.0f;
    e->fog_far_density = 0.9f;
    e->fog_color[0] = e->fog_color[1] = e->fog_color[2] = 1.0f;
    e->fog_background = 1;
    out = save_bytes(a, 0, &n);
    b = load_bytes(out, n, KF3DS_LOAD_KEEP_SOURCE, NULL);
    assert_non_null(b);
    if (support_scene_diff(a, b, 0, what, sizeof what))
        fail_msg("the changed settings do not come back: %s", what);
    assert_int_equal(b->environment.background, KF3DS_BACKGROUND_SOLID);
    assert_near(b->environment.fog_far_density, 0.9, 1e-7);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_SOLID_BGND), 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_USE_SOLID_BGND), 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_V_GRADIENT), 1); /* its values stay */
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_USE_V_GRADIENT), 0);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_FOG), 1);
    assert_int_equal(b->environment.fog_background, 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_USE_FOG), 1);
    /* where the file had its gradient: before the materials */
    assert_true(chunk_offset(out, n, KF3DS_CHUNK_SOLID_BGND) <
                chunk_offset(out, n, KF3DS_CHUNK_MAT_ENTRY));
    kf3ds_scene_free(a);
    kf3ds_scene_free(b);
    free(out);
    free(data);
}

/* A colour gamma-corrected, then linear (the one the loader takes). */
static void put_color_pair(w3ds *w, float r, float g, float b)
{
    const float gamma[3] = { r, g, b }, linear[3] = { r * 0.5f, g * 0.5f, b * 0.5f };
    support_chunk_f32v(w, KF3DS_CHUNK_COLOR_F, gamma, 3);
    support_chunk_f32v(w, KF3DS_CHUNK_LIN_COLOR_F, linear, 3);
}

/* Every setting with unusual values (fractional percentages, a negative
 * zero, gamma-corrected colours beside linear ones), in a file written by
 * hand: lossless and repaired saves give the file back, and those and the
 * canonical save give the same settings bit for bit. */
static void test_settings_round_trip(void **state)
{
    static const unsigned modes[3] = { 0, KF3DS_SAVE_REPAIR, KF3DS_SAVE_CANONICAL };
    w3ds w;
    unsigned char *data, *out;
    size_t size, n;
    kf3ds_scene *a, *b;
    kf3ds_diag err;
    char what[300];
    int i;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    support_chunk_str(&w, KF3DS_CHUNK_BIT_MAP, "SKY.GIF");
    w3ds_begin(&w, KF3DS_CHUNK_SOLID_BGND);
    put_color_pair(&w, 0.1f, 0.2f, 0.3f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_V_GRADIENT);
    w3ds_f32(&w, 0.35f);
    put_color_pair(&w, 0.9f, 0.8f, 0.7f);
    put_color_pair(&w, 0.6f, 0.5f, 0.4f);
    put_color_pair(&w, 0.3f, 0.2f, 0.1f);
    w3ds_end(&w);
    support_chunk_empty(&w, KF3DS_CHUNK_USE_BIT_MAP);
    w3ds_begin(&w, KF3DS_CHUNK_FOG);
    w3ds_f32(&w, -0.0f);
    w3ds_f32(&w, 33.3f); /* percent: 0.333 */
    w3ds_f32(&w, 512.5f);
    w3ds_f32(&w, 77.7f);
    put_color_pair(&w, 0.7f, 0.7f, 0.75f);
    support_chunk_empty(&w, KF3DS_CHUNK_FOG_BGND);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_LAYER_FOG);
    w3ds_f32(&w, -5);
    w3ds_f32(&w, 15.25f);
    w3ds_f32(&w, 0.45f);
    w3ds_u32(&w, 0x100002u);
    put_color_pair(&w, 0.2f, 0.4f, 0.6f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_DISTANCE_CUE);
    w3ds_f32(&w, 1);
    w3ds_f32(&w, 12.5f);
    w3ds_f32(&w, 1000);
    w3ds_f32(&w, 99.9f);
    support_chunk_empty(&w, KF3DS_CHUNK_DCUE_BGND);
    w3ds_end(&w);
    support_chunk_empty(&w, KF3DS_CHUNK_USE_DISTANCE_CUE);
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(a->environment.background, KF3DS_BACKGROUND_BITMAP);
    assert_int_equal(a->environment.atmosphere, KF3DS_ATMOSPHERE_DISTANCE_CUE);
    assert_near(a->environment.gradient[1][0], 0.3, 1e-7); /* the linear colour wins */
    assert_near(a->environment.fog_near_density, 0.333, 1e-7);
    for (i = 0; i < 3; i++) {
        support_set_what("settings saved with flags %u", modes[i]);
        out = save_bytes(a, modes[i], &n);
        if (modes[i] != KF3DS_SAVE_CANONICAL) { /* nothing to repair: as it was */
            assert_int_equal(n, size);
            assert_memory_equal(out, data, size);
        }
        b = load_bytes(out, n, 0, &err);
        assert_non_null(b);
        assert_int_equal(b->num_diags, 0);
        if (support_scene_diff(a, b, 0, what, sizeof what))
            fail_msg("flags %u: the settings differ: %s", modes[i], what);
        kf3ds_scene_free(b);
        free(out);
    }
    /* canonical: one colour each, no linear alternates */
    out = save_bytes(a, KF3DS_SAVE_CANONICAL, &n);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_LIN_COLOR_F), 0);
    free(out);
    kf3ds_scene_free(a);
    free(data);
}

/* The invariants of a repaired save of `a` (docs/writer.md, "kf3ds
 * rewrite"): it loads without a diagnostic, gives the same scene and the
 * same evaluation at a few frames, and saving it again gives the same bytes.
 * `what_of` names the scene in a failure. */
static void check_repaired(const kf3ds_scene *a, const char *what_of)
{
    static const double frames[] = { -3, 0, 10 };
    unsigned char *out, *again;
    size_t n, n2;
    kf3ds_scene *b;
    char what[300];
    out = save_bytes(a, KF3DS_SAVE_REPAIR, &n);
    b = load_bytes(out, n, KF3DS_LOAD_KEEP_SOURCE, NULL);
    assert_non_null(b);
    assert_int_equal(b->num_diags, 0);
    if (support_scene_diff(a, b, SUPPORT_DIFF_REPAIRED, what, sizeof what))
        fail_msg("%s, repaired: the scene differs: %s", what_of, what);
    if (support_eval_diff(a, b, frames, sizeof frames / sizeof frames[0], what, sizeof what))
        fail_msg("%s, repaired: the evaluation differs: %s", what_of, what);
    again = save_bytes(b, KF3DS_SAVE_REPAIR, &n2);
    assert_int_equal(n2, n);
    assert_memory_equal(again, out, n);
    free(again);
    kf3ds_scene_free(b);
    free(out);
}

/* A damaged setting (a gradient colour cut short, a bitmap name without its
 * terminator) is written back as it was when saving lossless, and replaced
 * by the settings the loader made of it when repairing: the rewrite loads
 * without a diagnostic, gives the same settings, and is a fixed point. */
static void test_damaged_settings_repaired(void **state)
{
    w3ds w;
    unsigned char *data, *out;
    size_t size, n;
    kf3ds_scene *a;
    kf3ds_diag err;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_V_GRADIENT);
    w3ds_f32(&w, 0.5f);
    support_chunk_f32v(&w, KF3DS_CHUNK_COLOR_F, (const float[3]){ 0.25f, 0.5f, 0.75f }, 3);
    support_chunk_f32v(&w, KF3DS_CHUNK_COLOR_F, (const float[3]){ 1, 1, 0 }, 2); /* cut short */
    w3ds_end(&w);
    support_chunk_empty(&w, KF3DS_CHUNK_USE_V_GRADIENT);
    w3ds_begin(&w, KF3DS_CHUNK_BIT_MAP);
    w3ds_bytes(&w, "CLOUDS", 6);
    w3ds_end(&w);
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);
    assert_int_equal(support_count_diags(a, KF3DS_ERR_TRUNCATED), 1);
    assert_int_equal(support_count_diags(a, KF3DS_WARN_VALUE), 1);
    assert_string_equal(a->environment.bitmap, "CLOUDS");
    assert_near(a->environment.gradient[0][2], 0.75, 0);
    assert_near(a->environment.gradient[1][0], 0, 0); /* the short colour is not taken */

    out = save_bytes(a, 0, &n);
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size);
    free(out);

    check_repaired(a, "damaged settings");
    kf3ds_scene_free(a);
    free(data);
}

/* A camera cut short before its lens has a lens of 0, so a field of view of
 * 45 degrees, like the camera its repaired rewrite writes (lens 0): the
 * camera node, which has no FOV track, evaluates the same from both
 * (docs/evaluation.md, "Cameras"; found by fuzz_save). */
static void test_camera_cut_before_lens(void **state)
{
    const float pos[3] = { 0, -20, 5 }, target[3] = { 0, 0, 0 };
    w3ds w;
    unsigned char *data;
    size_t size;
    kf3ds_scene *a;
    kf3ds_diag err;
    kf3ds_pose pose[2];
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(&w, "Cam");
    w3ds_begin(&w, KF3DS_CHUNK_N_CAMERA);
    w3ds_f32v(&w, pos, 3);
    w3ds_f32v(&w, target, 3);
    w3ds_f32(&w, 5); /* the roll, then no lens */
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_CAMERA_NODE_TAG, 0, "Cam", W3DS_NO_PARENT);
    w3ds_end(&w);
    support_node_begin(&w, KF3DS_CHUNK_TARGET_NODE_TAG, 1, "Cam", W3DS_NO_PARENT);
    w3ds_end(&w);
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);
    assert_int_equal(support_count_diags(a, KF3DS_ERR_TRUNCATED), 1);
    assert_int_equal(a->num_cameras, 1);
    assert_near(a->cameras[0].roll, 5, 0);
    assert_near(a->cameras[0].lens, 0, 0);
    assert_near(a->cameras[0].fov, 45, 0);
    assert_int_equal(a->num_nodes, 2);
    kf3ds_scene_eval(a, 0, 0, pose);
    assert_near(pose[0].fov, 45, 0);

    check_repaired(a, "camera cut before its lens");
    kf3ds_scene_free(a);
    free(data);
}

/* A later chunk that holds no value (an AMBIENT_LIGHT without a colour) does
 * not replace an earlier one's, and a negative zero is a value of its own
 * (a gradient colour): both come back from repaired and canonical saves. */
static void test_values_kept_through_repair(void **state)
{
    static const unsigned modes[2] = { KF3DS_SAVE_REPAIR, KF3DS_SAVE_CANONICAL };
    const float ambient[3] = { 0.25f, 0.5f, 1.0f }, top[3] = { -0.0f, 0.5f, 1.0f };
    w3ds w;
    unsigned char *data, *out;
    size_t size, n;
    kf3ds_scene *a, *b;
    char what[300];
    int i;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_AMBIENT_LIGHT);
    support_chunk_f32v(&w, KF3DS_CHUNK_COLOR_F, ambient, 3);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_AMBIENT_LIGHT);
    support_chunk_u32(&w, 0x7777, 1); /* no colour in it */
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_V_GRADIENT);
    w3ds_f32(&w, 0.5f);
    support_chunk_f32v(&w, KF3DS_CHUNK_COLOR_F, top, 3);
    w3ds_end(&w);
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, NULL);
    assert_non_null(a);
    assert_near(a->ambient[0], 0.25, 0);
    assert_true(signbit(a->environment.gradient[0][0]));
    for (i = 0; i < 2; i++) {
        support_set_what("saved with flags %u", modes[i]);
        out = save_bytes(a, modes[i], &n);
        b = load_bytes(out, n, 0, NULL);
        assert_non_null(b);
        if (support_scene_diff(a, b, SUPPORT_DIFF_REPAIRED, what, sizeof what))
            fail_msg("flags %u: %s", modes[i], what);
        kf3ds_scene_free(b);
        free(out);
    }
    kf3ds_scene_free(a);
    free(data);
}

/* Of chunks that each stand for one value, a later one that holds none (a
 * colour container with only an unknown chunk in it) changes nothing at load;
 * a repaired save writes only the one the value came from (or, when none
 * holds a value, the last), so saving its reload gives the same bytes: a
 * material with such a second MAT_DIFFUSE (found by fuzz_save), one with two
 * such MAT_SPECULARs, an AMBIENT_LIGHT in a second MDATA. Lossless keeps all. */
static void test_valueless_singles_fixed_point(void **state)
{
    const float grey[3] = { 0.5f, 0.5f, 0.5f };
    w3ds w;
    unsigned char *data, *out;
    size_t size, n;
    kf3ds_scene *a;
    int k;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_MAT_ENTRY);
    support_chunk_str(&w, KF3DS_CHUNK_MAT_NAME, "M");
    w3ds_begin(&w, KF3DS_CHUNK_MAT_DIFFUSE);
    support_chunk_f32v(&w, KF3DS_CHUNK_COLOR_F, grey, 3);
    w3ds_end(&w);
    for (k = 0; k < 3; k++) {
        w3ds_begin(&w, k == 0 ? KF3DS_CHUNK_MAT_DIFFUSE : KF3DS_CHUNK_MAT_SPECULAR);
        support_chunk_u32(&w, 0x7777, (uint32_t)k); /* no colour in it */
        w3ds_end(&w);
    }
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_AMBIENT_LIGHT);
    support_chunk_f32v(&w, KF3DS_CHUNK_COLOR_F, grey, 3);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_AMBIENT_LIGHT);
    support_chunk_u32(&w, 0x7777, 3);
    w3ds_end(&w);
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, NULL);
    assert_non_null(a);
    assert_int_equal(a->num_materials, 1);
    assert_near(a->materials[0].diffuse[0], 0.5, 0);
    assert_near(a->ambient[0], 0.5, 0);

    out = save_bytes(a, 0, &n);
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size);
    free(out);

    out = save_bytes(a, KF3DS_SAVE_REPAIR, &n);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_MAT_DIFFUSE), 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_MAT_SPECULAR), 1);
    assert_int_equal(count_chunks(out, n, KF3DS_CHUNK_AMBIENT_LIGHT), 1);
    free(out);
    check_repaired(a, "valueless singles");
    kf3ds_scene_free(a);
    free(data);
}

/* Lossless keeps what the file said, repaired writes what the loader made of it. */
static void test_lossless_and_repaired(void **state)
{
    size_t size, n;
    unsigned char *data = support_read_file("data/edge.3ds", &size), *out;
    kf3ds_diag err;
    kf3ds_scene *a, *b;
    int32_t boxc, boxa;
    (void)state;
    assert_non_null(data);
    support_set_what("data/edge.3ds");
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);
    assert_int_equal(support_count_diags(a, KF3DS_WARN_PARENT), 1);
    assert_int_equal(support_count_diags(a, KF3DS_WARN_UNSORTED), 1);

    out = save_bytes(a, 0, &n); /* lossless: the same bytes as the file */
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size);
    free(out);

    out = save_bytes(a, KF3DS_SAVE_REPAIR, &n);
    b = load_bytes(out, n, 0, &err);
    assert_non_null(b);
    assert_int_equal(b->num_diags, 0); /* nothing left to repair */
    boxc = kf3ds_scene_find_node(b, "BoxC");
    boxa = kf3ds_scene_find_node(b, "BoxA");
    assert_true(boxc >= 0 && boxa >= 0);
    assert_int_equal(b->nodes[boxc].parent_raw, 0xFFFF);
    assert_int_equal(b->nodes[boxc].parent, KF3DS_NONE);
    assert_int_equal(b->nodes[boxa].tracks[KF3DS_TRACK_POS].keys[0].frame, 0);
    kf3ds_scene_free(b);
    free(out);
    kf3ds_scene_free(a);
    free(data);
}

/* A colour or percentage container holding only a chunk kf3ds does not know
 * is kept as it is by a lossless save; a repaired one writes the scene's value
 * there, first, and drops the unknown chunk (docs/writer.md, "kf3ds rewrite"). */
static void test_repair_gives_containers_a_value(void **state)
{
    w3ds w;
    unsigned char *data, *out;
    size_t size, n, i;
    kf3ds_diag err;
    kf3ds_scene *a, *b;
    support_chunk_list chunks;
    int seen_specular = 0, seen_shininess = 0;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_MAT_ENTRY);
    w3ds_begin(&w, KF3DS_CHUNK_MAT_NAME);
    w3ds_cstr(&w, "Odd");
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_MAT_SPECULAR);
    w3ds_begin(&w, 0x0001); /* not a colour chunk */
    w3ds_u8(&w, 9);
    w3ds_u8(&w, 9);
    w3ds_u8(&w, 9);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_MAT_SHININESS);
    support_chunk_u16(&w, 0x7777, 50); /* not a percentage chunk */
    w3ds_end(&w);
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);
    assert_int_equal(a->num_materials, 1);

    out = save_bytes(a, 0, &n);
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size);
    free(out);

    out = save_bytes(a, KF3DS_SAVE_REPAIR, &n);
    chunks = support_collect_chunks(out, n);
    for (i = 0; i + 1 < chunks.n; i++) {
        assert_int_not_equal(chunks.v[i].id, 0x0001);
        assert_int_not_equal(chunks.v[i].id, 0x7777);
        if (chunks.v[i].id == KF3DS_CHUNK_MAT_SPECULAR) {
            assert_int_equal(chunks.v[i + 1].id, KF3DS_CHUNK_COLOR_24);
            assert_int_equal(chunks.v[i + 1].depth, chunks.v[i].depth + 1);
            seen_specular = 1;
        }
        if (chunks.v[i].id == KF3DS_CHUNK_MAT_SHININESS) {
            assert_int_equal(chunks.v[i + 1].id, KF3DS_CHUNK_INT_PERCENTAGE);
            seen_shininess = 1;
        }
    }
    assert_true(seen_specular && seen_shininess);
    free(chunks.v);
    b = load_bytes(out, n, 0, &err);
    assert_non_null(b);
    assert_int_equal(b->num_diags, 0);
    assert_memory_equal(b->materials[0].specular, a->materials[0].specular,
                        sizeof a->materials[0].specular);
    assert_memory_equal(&b->materials[0].shininess, &a->materials[0].shininess,
                        sizeof a->materials[0].shininess);
    kf3ds_scene_free(b);
    free(out);
    kf3ds_scene_free(a);
    free(data);
}

/* The options: drop the verbatim chunks, the keyframer, cut the segment. */
static void test_save_options(void **state)
{
    w3ds w;
    unsigned char *data, *out;
    size_t size, n;
    kf3ds_diag err;
    kf3ds_scene *a, *b;
    support_chunk_list chunks;
    size_t i, unknown = 0;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    support_chunk_u32(&w, 0x7777, 42); /* an unknown chunk */
    support_chunk_f32(&w, KF3DS_CHUNK_MASTER_SCALE, 2.0f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_kf_segment(&w, "opts", 100);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0xFFFF, (const float[3]){ 1, 2, 3 });
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);

    out = save_bytes(a, 0, &n);
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size); /* the unknown chunk kept, in place */
    free(out);

    out = save_bytes(a, KF3DS_SAVE_DROP_UNKNOWN, &n);
    chunks = support_collect_chunks(out, n);
    for (i = 0; i < chunks.n; i++)
        unknown += chunks.v[i].id == 0x7777;
    assert_int_equal(unknown, 0);
    assert_int_equal(n, size - 10);
    free(chunks.v);
    free(out);

    out = save_bytes(a, KF3DS_SAVE_NO_KEYFRAMER, &n);
    b = load_bytes(out, n, 0, &err);
    assert_non_null(b);
    assert_int_equal(b->has_keyframer, 0);
    assert_int_equal(b->num_nodes, 0);
    assert_near(b->master_scale, 2.0, 0);
    kf3ds_scene_free(b);
    free(out);

    {
        kf3ds_save_options o;
        void *bytes;
        memset(&o, 0, sizeof o);
        o.flags = KF3DS_SAVE_SEGMENT;
        o.segment_start = 10;
        o.segment_end = 40;
        assert_int_equal(kf3ds_save_memory(a, &o, &bytes, &n, &err), KF3DS_OK);
        b = load_bytes(bytes, n, 0, &err);
        kf3ds_save_free(bytes, &o);
        assert_non_null(b);
        assert_int_equal(b->segment_start, 10);
        assert_int_equal(b->segment_end, 40);
        assert_int_equal(b->anim_length, 100);
        kf3ds_scene_free(b);
        o.segment_start = 50; /* after its end */
        assert_int_equal(kf3ds_save_memory(a, &o, &bytes, &n, &err), KF3DS_ERR_ARGUMENT);
        assert_null(bytes);
    }
    kf3ds_scene_free(a);
    free(data);
}

/* Arrays that do not fit the format's 16-bit counts: an error naming what,
 * and no bytes. */
static void test_counts_that_do_not_fit(void **state)
{
    kf3ds_scene s;
    kf3ds_mesh m;
    kf3ds_diag err;
    void *bytes = (void *)&s;
    size_t n = 1;
    (void)state;
    memset(&s, 0, sizeof s);
    memset(&m, 0, sizeof m);
    m.name = "Huge";
    m.num_points = 70000;
    m.points = calloc(m.num_points, sizeof *m.points);
    assert_non_null(m.points);
    kf3ds_mat4_identity(&m.matrix);
    kf3ds_mat4_identity(&m.inv_matrix);
    s.meshes = &m;
    s.num_meshes = 1;
    s.master_scale = 1.0f;
    assert_int_equal(kf3ds_save_memory(&s, NULL, &bytes, &n, &err), KF3DS_ERR_LIMIT);
    assert_null(bytes);
    assert_int_equal(n, 0);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_int_equal(err.chunk_id, KF3DS_CHUNK_POINT_ARRAY);
    assert_non_null(strstr(err.message, "Huge"));
    assert_non_null(strstr(err.message, "70000"));
    m.num_points = 65535; /* the most that fits */
    assert_int_equal(kf3ds_save_memory(&s, NULL, &bytes, &n, &err), KF3DS_OK);
    /* M3DMAGIC, M3D_VERSION, MDATA, MASTER_SCALE, NAMED_OBJECT "Huge", N_TRI_OBJECT,
     * POINT_ARRAY */
    assert_int_equal(n, 6 + 10 + 6 + 10 + (6 + 5) + 6 + (6 + 2 + 65535 * 12));
    kf3ds_save_free(bytes, NULL);
    free(m.points);
}

/* The bytes come from the caller's hooks and go back through them; a
 * refusal is KF3DS_ERR_NOMEM with nothing to free; bad arguments. */
static void test_save_allocator(void **state)
{
    counting c;
    kf3ds_load_options lo = counting_options(&c);
    kf3ds_save_options so;
    size_t size, n;
    unsigned char *data = support_read_file("data/arm.3ds", &size);
    kf3ds_scene *s = kf3ds_load_memory(data, size, NULL, NULL);
    kf3ds_diag err;
    void *bytes;
    (void)state;
    assert_non_null(s);
    memset(&so, 0, sizeof so);
    so.allocator = lo.allocator;
    counting_reset(&c, -1);
    assert_int_equal(kf3ds_save_memory(s, &so, &bytes, &n, &err), KF3DS_OK);
    assert_int_equal(c.live, 1);
    assert_int_equal(c.bytes, n);
    kf3ds_save_free(bytes, &so);
    assert_int_equal(c.live, 0);
    counting_reset(&c, 0);
    assert_int_equal(kf3ds_save_memory(s, &so, &bytes, &n, &err), KF3DS_ERR_NOMEM);
    assert_null(bytes);
    assert_int_equal(c.live, 0);
    so.allocator.free_fn = NULL; /* hooks in part */
    assert_int_equal(kf3ds_save_memory(s, &so, &bytes, &n, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_save_memory(NULL, NULL, &bytes, &n, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_save_memory(s, NULL, NULL, &n, &err), KF3DS_ERR_ARGUMENT);
    kf3ds_scene_free(s);
    free(data);
}

/* A mirrored mesh saved without the kept source: its points are un-mirrored
 * by the same transform, the same up to float rounding. */
static void test_mirrored_without_source(void **state)
{
    size_t size, n;
    unsigned char *data = support_read_file("data/arm.3ds", &size), *out;
    kf3ds_scene *a = load_bytes(data, size, 0, NULL), *b;
    int32_t m;
    uint32_t i;
    (void)state;
    assert_non_null(a);
    m = kf3ds_scene_find_mesh(a, "FingerR");
    assert_true(m >= 0 && a->meshes[m].mirrored);
    out = save_bytes(a, 0, &n);
    b = load_bytes(out, n, 0, NULL);
    assert_non_null(b);
    for (i = 0; i < a->meshes[m].num_points; i++) {
        assert_near(b->meshes[m].points[i][0], a->meshes[m].points[i][0], 1e-4);
        assert_near(b->meshes[m].points[i][1], a->meshes[m].points[i][1], 1e-4);
        assert_near(b->meshes[m].points[i][2], a->meshes[m].points[i][2], 1e-4);
    }
    kf3ds_scene_free(a);
    kf3ds_scene_free(b);
    free(out);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_samples_round_trip),
        support_unit_test(test_corpus_round_trip),
        support_unit_test(test_textured_canonical),
        support_unit_test(test_settings_changed),
        support_unit_test(test_settings_round_trip),
        support_unit_test(test_damaged_settings_repaired),
        support_unit_test(test_camera_cut_before_lens),
        support_unit_test(test_values_kept_through_repair),
        support_unit_test(test_valueless_singles_fixed_point),
        support_unit_test(test_lossless_and_repaired),
        support_unit_test(test_repair_gives_containers_a_value),
        support_unit_test(test_save_options),
        support_unit_test(test_counts_that_do_not_fit),
        support_unit_test(test_save_allocator),
        support_unit_test(test_mirrored_without_source),
    };
    return support_run_tests(tests, NULL, NULL);
}
