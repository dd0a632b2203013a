/* The loader's background and atmosphere (scene->environment,
 * docs/format.md, 'Background and atmosphere'): every value read as written,
 * densities as fractions, linear gradient colours winning, the USE_ chunk
 * deciding what is in effect (nothing without one; the first of the order
 * when several), and short payloads reported without harm. Also the map
 * accessors of kf3ds.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"
#include "support_w3ds.h"

static void colour_f(w3ds *w, uint16_t id, float r, float g, float b)
{
    const float c[3] = { r, g, b };
    support_chunk_f32v(w, id, c, 3);
}

/* All six settings with defaults-like values; `uses` USE_ chunks (0 none). */
static kf3ds_scene *environment_file(const uint16_t *uses, int n_uses)
{
    kf3ds_diag err;
    kf3ds_scene *s;
    w3ds w;
    int i;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    support_chunk_str(&w, KF3DS_CHUNK_BIT_MAP, "SKY.GIF");
    w3ds_begin(&w, KF3DS_CHUNK_SOLID_BGND);
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 0.25f, 0.5f, 0.75f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_V_GRADIENT);
    w3ds_f32(&w, 0.3f);
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 1, 0, 0);
    colour_f(&w, KF3DS_CHUNK_LIN_COLOR_F, 0.5f, 0, 0); /* the linear one wins */
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 0, 1, 0);
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 0, 0, 1);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_FOG);
    w3ds_f32(&w, 10);
    w3ds_f32(&w, 20);
    w3ds_f32(&w, 500);
    w3ds_f32(&w, 90);
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 0.9f, 0.8f, 0.7f);
    support_chunk_empty(&w, KF3DS_CHUNK_FOG_BGND);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_LAYER_FOG);
    w3ds_f32(&w, -5);
    w3ds_f32(&w, 15);
    w3ds_f32(&w, 0.5f);
    w3ds_u32(&w, 0x10002u);
    colour_f(&w, KF3DS_CHUNK_COLOR_F, 0.1f, 0.2f, 0.3f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_DISTANCE_CUE);
    w3ds_f32(&w, 1);
    w3ds_f32(&w, 5);
    w3ds_f32(&w, 100);
    w3ds_f32(&w, 75);
    support_chunk_empty(&w, KF3DS_CHUNK_DCUE_BGND);
    w3ds_end(&w);
    for (i = 0; i < n_uses; i++)
        support_chunk_empty(&w, uses[i]);
    support_end_all(&w);
    s = support_load_w3ds(&w, NULL, &err);
    assert_int_equal(err.code, KF3DS_OK);
    return s;
}

static void test_values(void **state)
{
    kf3ds_scene *s = environment_file(NULL, 0);
    const kf3ds_environment *e = &s->environment;
    (void)state;
    /* written with defaults and no USE_ chunk, as 3DS does: none in effect */
    assert_int_equal(e->background, KF3DS_BACKGROUND_NONE);
    assert_int_equal(e->atmosphere, KF3DS_ATMOSPHERE_NONE);
    assert_string_equal(e->bitmap, "SKY.GIF");
    assert_near(e->solid[1], 0.5, 0);
    assert_near(e->gradient_mid, 0.3, 1e-7);
    assert_near(e->gradient[0][0], 0.5, 0);
    assert_near(e->gradient[1][1], 1, 0);
    assert_near(e->gradient[2][2], 1, 0);
    assert_near(e->fog_near, 10, 0);
    assert_near(e->fog_near_density, 0.2, 1e-7);
    assert_near(e->fog_far, 500, 0);
    assert_near(e->fog_far_density, 0.9, 1e-7);
    assert_near(e->fog_color[2], 0.7, 1e-7);
    assert_int_equal(e->fog_background, 1);
    assert_near(e->layer_bottom, -5, 0);
    assert_near(e->layer_top, 15, 0);
    assert_near(e->layer_density, 0.5, 0);
    assert_int_equal(e->layer_flags, 0x10002u);
    assert_near(e->layer_color[1], 0.2, 1e-7);
    assert_near(e->cue_near_dim, 0.05, 1e-7);
    assert_near(e->cue_far_dim, 0.75, 1e-7);
    assert_int_equal(e->cue_background, 1);
    kf3ds_scene_free(s);
}

static void test_use_chunks(void **state)
{
    static const uint16_t grad_fog[2] = { KF3DS_CHUNK_USE_V_GRADIENT, KF3DS_CHUNK_USE_FOG };
    static const uint16_t several[4] = { KF3DS_CHUNK_USE_V_GRADIENT, KF3DS_CHUNK_USE_SOLID_BGND,
                                         KF3DS_CHUNK_USE_DISTANCE_CUE,
                                         KF3DS_CHUNK_USE_LAYER_FOG };
    static const uint16_t bitmap[1] = { KF3DS_CHUNK_USE_BIT_MAP };
    kf3ds_scene *s;
    (void)state;
    s = environment_file(grad_fog, 2);
    assert_int_equal(s->environment.background, KF3DS_BACKGROUND_GRADIENT);
    assert_int_equal(s->environment.atmosphere, KF3DS_ATMOSPHERE_FOG);
    kf3ds_scene_free(s);
    /* several: bitmap before solid before gradient; fog, layer fog, cue */
    s = environment_file(several, 4);
    assert_int_equal(s->environment.background, KF3DS_BACKGROUND_SOLID);
    assert_int_equal(s->environment.atmosphere, KF3DS_ATMOSPHERE_LAYER_FOG);
    kf3ds_scene_free(s);
    s = environment_file(bitmap, 1);
    assert_int_equal(s->environment.background, KF3DS_BACKGROUND_BITMAP);
    kf3ds_scene_free(s);
}

/* A FOG cut short is an error at its offset; the rest is still read. */
static void test_short_payload(void **state)
{
    kf3ds_diag err;
    kf3ds_scene *s;
    w3ds w;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    w3ds_begin(&w, KF3DS_CHUNK_FOG);
    w3ds_f32(&w, 1);
    w3ds_end(&w);
    support_chunk_empty(&w, KF3DS_CHUNK_USE_FOG);
    support_end_all(&w);
    s = support_load_w3ds(&w, NULL, &err);
    assert_int_equal(err.code, KF3DS_ERR_TRUNCATED);
    assert_int_equal(err.chunk_id, KF3DS_CHUNK_FOG);
    assert_int_equal(s->environment.atmosphere, KF3DS_ATMOSPHERE_FOG);
    assert_near(s->environment.fog_far, 0, 0);
    assert_string_equal(s->environment.bitmap, "");
    kf3ds_scene_free(s);
}

static void test_map_accessors(void **state)
{
    kf3ds_material m;
    (void)state;
    memset(&m, 0, sizeof m);
    assert_ptr_equal(kf3ds_material_map(&m, KF3DS_MAP_TEXTURE1), &m.texture1);
    assert_ptr_equal(kf3ds_material_map(&m, KF3DS_MAP_OPACITY), &m.opacity);
    assert_ptr_equal(kf3ds_material_map(&m, KF3DS_MAP_REFLECTION), &m.reflection);
    assert_null(kf3ds_material_map(&m, KF3DS_MAP_COUNT));
    assert_null(kf3ds_material_map(NULL, KF3DS_MAP_TEXTURE1));
    assert_string_equal(kf3ds_map_kind_name(KF3DS_MAP_SELF_ILLUM), "self_illum");
    assert_string_equal(kf3ds_map_kind_name((kf3ds_map_kind)42), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_use_chunks),
        cmocka_unit_test(test_short_payload),
        cmocka_unit_test(test_map_accessors),
    };
    return support_run_tests(tests, NULL, NULL);
}
