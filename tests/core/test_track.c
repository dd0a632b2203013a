/* Track evaluation, the rules of docs/evaluation.md: golden values measured
 * with lib3ds 1.3 and 2.0 on a probe scene (where lib3ds 1.3 is wrong, the
 * value of kf3ds's rule), the loop flags ('Where time falls'), ease worked
 * out by hand ('Ease'), Hermite tangents ('Hermite tracks', also as
 * kf3ds_track_key_tangents gives them), multi-turn
 * rotations ('Rotation tracks'), duplicate frames, unsorted keys and late
 * first keys ('Key order and duplicate frames'), hide and morph tracks
 * ('Hide and morph tracks'). The scenes are made with the scene builder
 * (support_build.h); only the file with keys out of frame order, a load
 * quirk, is written raw. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "kf3ds.h"
#include "support_build.h"
#include "support_w3ds.h"
#include "support.h"
#include "../../src/kmath.h" /* the rotation code's sin/cos/acos, tested below */

#define PI_F 3.14159265358979f

static void assert_vec(const float *got, const double *want, int n, double tol)
{
    int i;
    for (i = 0; i < n; i++)
        assert_near(got[i], want[i], tol);
}

/* Keys `keys[0..n)` into a track of `kind` with `flags` on `node`. */
static void add_track(kf3ds_builder *b, int32_t node, kf3ds_track_kind kind, uint16_t flags,
                      const kf3ds_key *keys, int n)
{
    int i;
    kf3ds_builder_track_flags(b, node, kind, flags);
    for (i = 0; i < n; i++)
        kf3ds_builder_add_key(b, node, kind, &keys[i]);
}

/* The probe scene the golden values were measured on with lib3ds 1.3 and
 * 2.0: mesh "Box", an object node (id 7) with POS/ROT/SCL tracks carrying
 * `flags`, and a $$$DUMMY child (id 8). */
static kf3ds_scene *probe_scene(uint16_t flags)
{
    static const float pts[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t faces[] = { 0, 1, 2 };
    const kf3ds_key pos[3] = { support_key(0, 0, 0, 0, 0), support_key(10, 10, 0, 0, 0),
                               support_key(20, 10, 10, 0, 0) };
    const kf3ds_key rot[2] = { support_key(0, PI_F / 2, 0, 0, 1),   /* +90° about +Z */
                               support_key(10, PI_F / 2, 1, 0, 0) }; /* +90° about +X */
    const kf3ds_key scl = support_key(0, 1, 1, 1, 0);
    const kf3ds_key cpos = support_key(0, 0, 5, 0, 0), crot = support_key(0, 0, 0, 0, 0);
    kf3ds_builder *b = support_builder();
    int32_t box, child;
    kf3ds_scene *s;
    support_build_mesh(b, "Box", pts, 3, faces, NULL, 1, NULL);
    box = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Box", KF3DS_NONE);
    kf3ds_builder_node_id(b, box, 7);
    kf3ds_builder_node_flags(b, box, 0x40, 0);
    add_track(b, box, KF3DS_TRACK_POS, flags, pos, 3);
    add_track(b, box, KF3DS_TRACK_ROT, flags, rot, 2);
    add_track(b, box, KF3DS_TRACK_SCL, 0, &scl, 1);
    child = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", box);
    kf3ds_builder_node_id(b, child, 8);
    kf3ds_builder_node_flags(b, child, 0x4000, 0); /* 0x4000: a flags1 bit */
    kf3ds_builder_node_instance(b, child, "Child");
    add_track(b, child, KF3DS_TRACK_POS, 0, &cpos, 1);
    add_track(b, child, KF3DS_TRACK_ROT, 0, &crot, 1);
    s = support_build_scene(b);
    assert_int_equal(s->num_nodes, 2);
    return s;
}

static void eval_track(const kf3ds_scene *s, kf3ds_track_kind kind, double t, float out[4])
{
    kf3ds_track_eval(&s->nodes[0].tracks[kind], kind, t, 0, out);
}

static void test_golden_flags0(void **state)
{
    static const struct { double t, pos[3], rot[4]; } g[] = {
        { -5, { 0, 0, 0 }, { 0, 0, -.70711, .70711 } }, /* 1.3 wrongly gives the last key */
        { 0, { 0, 0, 0 }, { 0, 0, -.70711, .70711 } },
        { 2.5, { 2.734375, -0.234375, 0 }, { -.1379, -.1379, -.6935, .6935 } },
        { 5, { 5.625, -0.625, 0 }, { -.2706, -.2706, -.6533, .6533 } },
        { 7.5, { 8.203125, -0.703125, 0 }, { -.3928, -.3928, -.5879, .5879 } },
        { 10, { 10, 0, 0 }, { -.5, -.5, -.5, .5 } },
        { 15, { 10.625, 4.375, 0 }, { -.5, -.5, -.5, .5 } },
        { 20, { 10, 10, 0 }, { -.5, -.5, -.5, .5 } },
        { 99, { 10, 10, 0 }, { -.5, -.5, -.5, .5 } },
    };
    kf3ds_scene *s = probe_scene(0);
    size_t i;
    float v[4];
    (void)state;
    for (i = 0; i < sizeof g / sizeof g[0]; i++) {
        eval_track(s, KF3DS_TRACK_POS, g[i].t, v);
        assert_vec(v, g[i].pos, 3, 1e-3);
        eval_track(s, KF3DS_TRACK_ROT, g[i].t, v);
        assert_vec(v, g[i].rot, 4, 1e-4);
    }
    kf3ds_scene_free(s);
}

static void test_golden_matrix_columns(void **state)
{
    kf3ds_scene *s = probe_scene(0);
    kf3ds_pose p[2];
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    kf3ds_scene_eval(s, 0, 0, p);
    /* X → (0,−1,0), Y → (1,0,0) at t = 0: each rotation key turns by minus its
     * file angle about an axis of the parent frame (docs/evaluation.md,
     * 'Rotation tracks'), as lib3ds 1.3 and 2.0 do. */
    assert_near(p[0].world.m[0][0], 0, 1e-6); /* X.x */
    assert_near(p[0].world.m[1][0], -1, 1e-6); /* X.y */
    assert_near(p[0].world.m[0][1], 1, 1e-6); /* Y.x */
    kf3ds_scene_eval(s, 10, 0, p);
    assert_near(p[0].world.m[2][0], 1, 1e-6); /* X.z at 10 */
    assert_near(p[0].world.m[0][1], 1, 1e-6); /* Y.x at 10 */
    kf3ds_scene_free(s);
}

static void test_golden_child_dummy(void **state)
{
    static const struct { double t, w[3]; } g[] = {
        { 0, { 5, 0, 0 } }, { 2.5, { 7.734, -0.234, 0 } }, { 10, { 15, 0, 0 } },
        { -5, { 5, 0, 0 } }, /* 1.3 gives (15,10,0): it inherits the pre-roll bug */
    };
    kf3ds_scene *s = probe_scene(0);
    kf3ds_pose p[2], single;
    size_t i;
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    assert_int_equal(s->nodes[1].parent, 0);
    assert_true(s->nodes[1].is_dummy);
    assert_string_equal(s->nodes[1].instance, "Child");
    for (i = 0; i < sizeof g / sizeof g[0]; i++) {
        kf3ds_scene_eval(s, g[i].t, 0, p);
        assert_near(p[1].world.m[0][3], g[i].w[0], 1e-3);
        assert_near(p[1].world.m[1][3], g[i].w[1], 1e-3);
        assert_near(p[1].world.m[2][3], g[i].w[2], 1e-3);
        /* The single-node evaluator agrees with the whole-scene pass. */
        kf3ds_node_eval(s, 1, g[i].t, 0, &single);
        assert_memory_equal(&single.world, &p[1].world, sizeof single.world);
    }
    kf3ds_scene_free(s);
}

/* Flags 1 (wrap): periodic in both directions with each track's own period
 * (docs/evaluation.md, 'Where time falls'). */
static void test_wrap_flag1(void **state)
{
    static const struct { double t, pos[3]; } g[] = {
        { 20, { 0, 0, 0 } }, { 25, { 5.625, -0.625, 0 } }, { 30, { 10, 0, 0 } },
        { 35, { 10.625, 4.375, 0 } },
        { -5, { 10.625, 4.375, 0 } }, /* periodic before the first key too */
    };
    kf3ds_scene *s = probe_scene(1);
    size_t i;
    float v[4], w[4];
    (void)state;
    for (i = 0; i < sizeof g / sizeof g[0]; i++) {
        eval_track(s, KF3DS_TRACK_POS, g[i].t, v);
        assert_vec(v, g[i].pos, 3, 1e-3);
    }
    /* Rotation period 10: t = 10, 20, 30 give key 0, t = 15 the value at 5. */
    eval_track(s, KF3DS_TRACK_ROT, 0, w);
    eval_track(s, KF3DS_TRACK_ROT, 20, v);
    assert_memory_equal(v, w, sizeof v);
    eval_track(s, KF3DS_TRACK_ROT, 5, w);
    eval_track(s, KF3DS_TRACK_ROT, 15, v);
    assert_vec(v, (const double[]){ w[0], w[1], w[2], w[3] }, 4, 1e-6);
    kf3ds_scene_free(s);
}

/* Flags 3 (loop): wrap plus cyclic end tangents — lib3ds 1.3's numbers
 * (docs/evaluation.md, 'Where time falls'). */
static void test_loop_flag3(void **state)
{
    static const struct { double t, pos[3]; } g[] = {
        { 2.5, { 1.328, -0.234, 0 } }, { 5, { 4.375, -0.625, 0 } },
        { 7.5, { 7.734, -0.703, 0 } }, { 15, { 10.625, 5.625, 0 } },
    };
    kf3ds_scene *s = probe_scene(3);
    size_t i;
    float v[4];
    (void)state;
    for (i = 0; i < sizeof g / sizeof g[0]; i++) {
        eval_track(s, KF3DS_TRACK_POS, g[i].t, v);
        assert_vec(v, g[i].pos, 3, 1e-3);
    }
    eval_track(s, KF3DS_TRACK_ROT, 2.5, v);
    assert_vec(v, (const double[]){ -.1123, -.1123, -.6981, .6981 }, 4, 1e-4);
    eval_track(s, KF3DS_TRACK_ROT, 7.5, v);
    assert_vec(v, (const double[]){ -.4142, -.4142, -.5731, .5731 }, 4, 1e-4);
    kf3ds_scene_free(s);
}

/* Flags 2 (repeat): wrap without cyclic tangents — the toolkit's meaning
 * (docs/evaluation.md, 'Where time falls'); lib3ds 1.3 instead gives cyclic
 * tangents and no wrap. */
static void test_repeat_flag2(void **state)
{
    kf3ds_scene *s = probe_scene(2);
    float v[4];
    (void)state;
    eval_track(s, KF3DS_TRACK_POS, 2.5, v);
    assert_vec(v, (const double[]){ 2.734375, -0.234375, 0 }, 3, 1e-3);
    eval_track(s, KF3DS_TRACK_POS, 22.5, v);
    assert_vec(v, (const double[]){ 2.734375, -0.234375, 0 }, 3, 1e-3);
    eval_track(s, KF3DS_TRACK_POS, 15, v);
    assert_vec(v, (const double[]){ 10.625, 4.375, 0 }, 3, 1e-3);
    kf3ds_scene_free(s);
}

/* x of node 0's position track at frame t. */
static double pos_x(const kf3ds_scene *s, double t, unsigned flags)
{
    float v[4];
    kf3ds_track_eval(&s->nodes[0].tracks[KF3DS_TRACK_POS], KF3DS_TRACK_POS, t, flags, v);
    return v[0];
}

/* A one-node scene (a dummy) with one track of `kind`. */
static kf3ds_scene *one_track(kf3ds_track_kind kind, uint16_t flags, const kf3ds_key *keys,
                              int n)
{
    kf3ds_builder *b = support_builder();
    add_track(b, kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE), kind,
              flags, keys, n);
    return support_build_scene(b);
}

/* Ease by hand (docs/evaluation.md, 'Ease') on a two-key track, which
 * without ease is the straight line x = 10u. */
static void test_ease(void **state)
{
    kf3ds_key k[2] = { support_key(0, 0, 0, 0, 0), support_key(10, 10, 0, 0, 0) };
    kf3ds_scene *s;
    (void)state;
    k[0].ease_from = 0.5f; /* e_f = 0.5, e_t = 0: a = 2/3 */
    s = one_track(KF3DS_TRACK_POS, 0, k, 2);
    assert_near(pos_x(s, 2.5, 0), 10.0 * (4.0 / 3.0) * 0.0625, 1e-4); /* accelerating: (a/e_f)u² */
    assert_near(pos_x(s, 7.5, 0), 10.0 * (2.0 / 3.0) * (1.5 - 0.5), 1e-4); /* constant speed */
    assert_near(pos_x(s, 2.5, KF3DS_EVAL_NO_EASE), 2.5, 1e-5); /* ease off */
    kf3ds_scene_free(s);

    k[1].ease_to = 1.0f; /* e_f + e_t = 1.5 > 1: normalised to 1/3, 2/3; a = 1 */
    s = one_track(KF3DS_TRACK_POS, 0, k, 2);
    assert_near(pos_x(s, 2.0, 0), 10.0 * (1.0 / (1.0 / 3.0)) * 0.04, 1e-4); /* accelerating */
    assert_near(pos_x(s, 8.0, 0), 10.0 * (1.0 - (1.0 / (2.0 / 3.0)) * 0.04), 1e-4); /* slowing */
    /* no constant part when e_f + e_t = 1 */
    assert_near(pos_x(s, 5.0, 0), 10.0 * (1.0 - 1.5 * 0.25), 1e-4);
    kf3ds_scene_free(s);
}

/* A 720° increment makes two full turns, linearly in u (docs/evaluation.md,
 * 'Rotation tracks'). */
static void test_multi_turn(void **state)
{
    const kf3ds_key k[3] = { support_key(0, 0, 0, 0, 1),          /* 0° about Z */
                             support_key(20, 4 * PI_F, 0, 0, 1),  /* +720° about Z */
                             support_key(30, PI_F / 2, 0, 0, 1) }; /* then +90° */
    kf3ds_scene *s;
    float v[4];
    int i;
    (void)state;
    s = one_track(KF3DS_TRACK_ROT, 0, k, 3);
    for (i = 0; i <= 20; i++) {
        double angle = -(i / 20.0) * 4 * PI_F; /* the file angle negated */
        kf3ds_track_eval(&s->nodes[0].tracks[KF3DS_TRACK_ROT], KF3DS_TRACK_ROT, i, 0, v);
        assert_near(fabs(v[2] * sin(angle / 2) + v[3] * cos(angle / 2)), 1.0, 1e-4);
    }
    /* The accumulated orientation after two full turns is the identity up to sign. */
    assert_near(fabs(s->nodes[0].tracks[KF3DS_TRACK_ROT].keys[1].quat[3]), 1.0, 1e-5);
    assert_near(fabs(s->nodes[0].tracks[KF3DS_TRACK_ROT].keys[2].quat[2]), sin(PI_F / 4), 1e-5);
    kf3ds_scene_free(s);
}

/* Every key counts, in a stable order; the later key holds from its frame
 * (docs/evaluation.md, 'Key order and duplicate frames'). */
static void test_duplicate_and_triple_frames(void **state)
{
    const kf3ds_key pos[6] = { support_key(0, 0, 0, 0, 0),  support_key(10, 10, 0, 0, 0),
                               support_key(10, 20, 0, 0, 0), support_key(20, 30, 0, 0, 0),
                               support_key(20, 40, 0, 0, 0), support_key(20, 50, 0, 0, 0) };
    const kf3ds_key rot[3] = { support_key(0, 0, 0, 0, 1), support_key(10, PI_F / 2, 0, 0, 1),
                               support_key(10, PI_F / 2, 0, 0, 1) };
    kf3ds_scene *s;
    float v[4];
    (void)state;
    s = one_track(KF3DS_TRACK_POS, 0, pos, 6);
    assert_near(pos_x(s, 9.999, 0), 10, 0.01); /* approaching the first of the pair */
    assert_near(pos_x(s, 10, 0), 20, 1e-5); /* later key holds */
    assert_near(pos_x(s, 20, 0), 50, 1e-5); /* last of three */
    assert_true(isfinite(pos_x(s, 15, 0)));
    kf3ds_scene_free(s);

    /* Two rotation increments on one frame both count (blitz3d-claw has this). */
    s = one_track(KF3DS_TRACK_ROT, 0, rot, 3);
    kf3ds_track_eval(&s->nodes[0].tracks[KF3DS_TRACK_ROT], KF3DS_TRACK_ROT, 10, 0, v);
    assert_vec(v, (const double[]){ 0, 0, -1, 0 }, 4, 1e-5); /* 180° in all */
    kf3ds_scene_free(s);
}

/* Keys out of order are sorted, with a warning (docs/evaluation.md, 'Key
 * order and duplicate frames'). */
static void test_unsorted_keys(void **state)
{
    static const int32_t frames[3] = { 20, 0, 10 }; /* x = frame / 10 */
    w3ds w;
    kf3ds_scene *s;
    int i;
    (void)state;
    /* Raw: a file's key order is what this is about (the loader's sort and warning). */
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    w3ds_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG);
    w3ds_node_hdr(&w, "$$$DUMMY", 0, 0, W3DS_NO_PARENT);
    support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 3);
    for (i = 0; i < 3; i++) {
        w3ds_key_header(&w, frames[i], NULL);
        w3ds_f32v(&w, (const float[]){ frames[i] / 10.0f, 0, 0 }, 3);
    }
    support_end_all(&w);
    s = support_load_w3ds(&w, NULL, NULL);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_UNSORTED), 1);
    assert_int_equal(s->nodes[0].tracks[0].keys[0].frame, 0);
    assert_int_equal(s->nodes[0].tracks[0].keys[2].frame, 20);
    assert_near(pos_x(s, 10, 0), 1, 1e-6);
    kf3ds_scene_free(s);
}

/* Before the first key the first key holds (docs/evaluation.md, 'Where time
 * falls'). */
static void test_late_first_key(void **state)
{
    const kf3ds_key k[2] = { support_key(20, 1, 0, 0, 0), support_key(30, 2, 0, 0, 0) };
    kf3ds_scene *s;
    (void)state;
    s = one_track(KF3DS_TRACK_POS, 0, k, 2);
    assert_near(pos_x(s, 0, 0), 1, 1e-6); /* the first key holds before it; lib3ds 1.3: 2 */
    assert_near(pos_x(s, 25, 0), 1.5, 1e-5);
    kf3ds_scene_free(s);
}

/* Kochanek–Bartels tangents of an interior key (docs/evaluation.md, 'Hermite
 * tracks'), seen in the curve: halfway through a segment the Hermite cubic is
 * (P0 + P1)/2 + (T0 − T1)/8, T0 the start key's outgoing and T1 the end key's
 * incoming tangent. Keys (0,0) at 0, (10,0) at 10, (10,10) at 30: the end
 * keys' tangents are the chords (10,0) and (0,10). */
static void test_tcb_interior(void **state)
{
    kf3ds_key k[3] = { support_key(0, 0, 0, 0, 0), support_key(10, 10, 0, 0, 0),
                       support_key(30, 10, 10, 0, 0) };
    kf3ds_scene *s;
    float out[4];
    (void)state;
    k[1].tension = 1;
    /* Tension 1 on the middle key makes its tangents zero. */
    s = one_track(KF3DS_TRACK_POS, 0, k, 3);
    assert_int_equal(s->nodes[0].tracks[0].keys[1].spline_flags, KF3DS_KEY_TENSION);
    kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_POS, 5, 0, out);
    assert_near(out[0], 5 + (10 - 0) / 8.0, 1e-5); /* T=1 in: 0 */
    kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_POS, 20, 0, out);
    assert_near(out[1], 5 + (0 - 10) / 8.0, 1e-5); /* T=1 out: 0 */
    kf3ds_scene_free(s);
    /* Uneven spacing (10 then 20 frames), TCB 0: fp = 10/15, fn = 20/15;
     * TS = ½·fp·(Δ⁻+Δ⁺), TD = ½·fn·(Δ⁻+Δ⁺) with Δ⁻ = (10,0), Δ⁺ = (0,10). */
    k[1].tension = 0;
    s = one_track(KF3DS_TRACK_POS, 0, k, 3);
    kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_POS, 5, 0, out);
    assert_near(out[0], 5 + (10 - 0.5 * (10.0 / 15.0) * 10) / 8.0, 1e-5); /* TS.x */
    kf3ds_track_eval(&s->nodes[0].tracks[0], KF3DS_TRACK_POS, 20, 0, out);
    assert_near(out[1], 5 + (0.5 * (20.0 / 15.0) * 10 - 10) / 8.0, 1e-5); /* TD.y */
    kf3ds_scene_free(s);
}

/* A Hermite segment from its ends and tangents at parameter u (the formula
 * of docs/evaluation.md, 'Hermite tracks'). */
static double hermite(double p0, double td0, double p1, double ts1, double u)
{
    return (2 * u * u * u - 3 * u * u + 1) * p0 + (u * u * u - 2 * u * u + u) * td0 +
           (-2 * u * u * u + 3 * u * u) * p1 + (u * u * u - u * u) * ts1;
}

/* kf3ds_track_key_tangents: the tangents of docs/evaluation.md by hand, and
 * the very ones evaluation interpolates with; the squad controls of
 * rotations about one axis; nothing for hide tracks or keys out of range. */
static void test_key_tangents(void **state)
{
    static const double in1[3] = { 10.0 / 3, 10.0 / 3, 0 }, out1[3] = { 20.0 / 3, 20.0 / 3, 0 };
    static const double chord0[3] = { 10, 0, 0 }, chord2[3] = { 0, 10, 0 };
    const kf3ds_key pos[3] = { support_key(0, 0, 0, 0, 0), support_key(10, 10, 0, 0, 0),
                               support_key(30, 10, 10, 0, 0) };
    const kf3ds_key fov[2] = { support_key(0, 10, 0, 0, 0), support_key(8, 50, 0, 0, 0) };
    const kf3ds_key rot[3] = { support_key(0, 0, 0, 0, 1), support_key(10, PI_F / 6, 0, 0, 1),
                               support_key(20, PI_F / 3, 0, 0, 1) };
    const kf3ds_key hide[2] = { support_key(0, 0, 0, 0, 0), support_key(10, 0, 0, 0, 0) };
    kf3ds_scene *s;
    const kf3ds_track *t;
    float in[3][4], out[3][4], v[4];
    double want[4];
    int i, d, f;
    (void)state;
    s = one_track(KF3DS_TRACK_POS, 0, pos, 3);
    t = &s->nodes[0].tracks[KF3DS_TRACK_POS];
    for (i = 0; i < 3; i++)
        assert_int_equal(kf3ds_track_key_tangents(t, KF3DS_TRACK_POS, (uint32_t)i, in[i],
                                                  out[i]), 3);
    /* fp = 10/15, fn = 20/15: TS = ½·fp·(Δ⁻ + Δ⁺), TD = ½·fn·(Δ⁻ + Δ⁺) */
    assert_vec(in[1], in1, 3, 1e-5);
    assert_vec(out[1], out1, 3, 1e-5);
    assert_vec(in[0], chord0, 3, 0); /* end keys: the chord */
    assert_vec(out[0], chord0, 3, 0);
    assert_vec(in[2], chord2, 3, 0);
    assert_vec(out[2], chord2, 3, 0);
    assert_true(in[1][3] == 0.0f && out[1][3] == 0.0f);
    for (f = 1; f < 30; f += 3) { /* evaluation's curve is the Hermite of these */
        int seg = f < 10 ? 0 : 1;
        double u = seg ? (f - 10) / 20.0 : f / 10.0;
        kf3ds_track_eval(t, KF3DS_TRACK_POS, f, 0, v);
        for (d = 0; d < 3; d++)
            assert_near(v[d], hermite(t->keys[seg].value[d], out[seg][d],
                                      t->keys[seg + 1].value[d], in[seg + 1][d], u), 1e-4);
    }
    assert_int_equal(kf3ds_track_key_tangents(t, KF3DS_TRACK_POS, 3, in[0], out[0]), 0);
    assert_int_equal(kf3ds_track_key_tangents(NULL, KF3DS_TRACK_POS, 0, in[0], out[0]), 0);
    kf3ds_scene_free(s);

    /* a scalar track: one value, the rest 0 */
    s = one_track(KF3DS_TRACK_FOV, 0, fov, 2);
    t = &s->nodes[0].tracks[KF3DS_TRACK_FOV];
    assert_int_equal(kf3ds_track_key_tangents(t, KF3DS_TRACK_FOV, 1, in[0], out[0]), 1);
    assert_true(in[0][0] == 40.0f && out[0][0] == 40.0f);
    assert_true(in[0][1] == 0.0f && in[0][2] == 0.0f && out[0][3] == 0.0f);
    kf3ds_scene_free(s);

    /* Rotations about +Z by 0, 30° and 60° (Q = q(Z, 0), q(Z, −30°), q(Z, −90°)),
     * evenly spaced, TCB 0: g⁻ = (0, 0, −π/12), g⁺ = (0, 0, −π/6), and both
     * controls are Q_1 ⊗ exp(¼(g⁻ − g⁺)) = q(Z, −30° + 7.5°); the end keys' are
     * their own orientations. */
    s = one_track(KF3DS_TRACK_ROT, 0, rot, 3);
    t = &s->nodes[0].tracks[KF3DS_TRACK_ROT];
    for (i = 0; i < 3; i++)
        assert_int_equal(kf3ds_track_key_tangents(t, KF3DS_TRACK_ROT, (uint32_t)i, in[i],
                                                  out[i]), 4);
    want[0] = want[1] = 0;
    want[2] = -sin(22.5 / 2 * PI_F / 180);
    want[3] = cos(22.5 / 2 * PI_F / 180);
    assert_vec(in[1], want, 4, 1e-5);
    assert_vec(out[1], want, 4, 1e-5);
    for (d = 0; d < 4; d++) {
        assert_true(in[0][d] == t->keys[0].quat[d] && out[0][d] == t->keys[0].quat[d]);
        assert_true(in[2][d] == t->keys[2].quat[d] && out[2][d] == t->keys[2].quat[d]);
    }
    kf3ds_scene_free(s);

    s = one_track(KF3DS_TRACK_HIDE, 0, hide, 2);
    assert_int_equal(kf3ds_track_key_tangents(&s->nodes[0].tracks[KF3DS_TRACK_HIDE],
                                              KF3DS_TRACK_HIDE, 0, in[0], out[0]), 0);
    kf3ds_scene_free(s);
}

/* The first hide key does not toggle, every later one does
 * (docs/evaluation.md, 'Hide and morph tracks'). */
static void test_hide_track(void **state)
{
    const kf3ds_key k[3] = { support_key(0, 0, 0, 0, 0), support_key(10, 0, 0, 0, 0),
                             support_key(20, 0, 0, 0, 0) };
    kf3ds_scene *s;
    kf3ds_pose p;
    (void)state;
    s = one_track(KF3DS_TRACK_HIDE, 0, k, 3);
    kf3ds_node_eval(s, 0, -1, 0, &p);
    assert_false(p.hidden);
    kf3ds_node_eval(s, 5, 0, 0, &p); /* node index out of range: untouched, no crash */
    kf3ds_node_eval(s, 0, 5, 0, &p);
    assert_false(p.hidden); /* the first key does not toggle */
    kf3ds_node_eval(s, 0, 10, 0, &p);
    assert_true(p.hidden);
    kf3ds_node_eval(s, 0, 19.5, 0, &p);
    assert_true(p.hidden);
    kf3ds_node_eval(s, 0, 20, 0, &p);
    assert_false(p.hidden);
    kf3ds_scene_free(s);
}

/* Every scalar and vector kind runs through the same Hermite: a two-key
 * track is the straight line between its keys, whatever the kind. */
static void test_every_interpolated_kind(void **state)
{
    static const kf3ds_track_kind kinds[] = { KF3DS_TRACK_POS, KF3DS_TRACK_SCL,
                                              KF3DS_TRACK_COL, KF3DS_TRACK_FOV,
                                              KF3DS_TRACK_ROLL, KF3DS_TRACK_HOT,
                                              KF3DS_TRACK_FALL };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const kf3ds_key k[2] = { support_key(0, 10, 20, 30, 0), support_key(8, 50, 60, 70, 0) };
        kf3ds_scene *s;
        float v[4];
        int n, d;
        s = one_track(kinds[i], 0, k, 2);
        n = kf3ds_track_eval(&s->nodes[0].tracks[kinds[i]], kinds[i], 2, 0, v);
        assert_int_equal(n, kinds[i] == KF3DS_TRACK_POS || kinds[i] == KF3DS_TRACK_SCL ||
                                    kinds[i] == KF3DS_TRACK_COL ? 3 : 1);
        for (d = 0; d < n; d++)
            assert_near(v[d], 10 * (d + 1) + 40 * 0.25, 1e-4);
        kf3ds_scene_free(s);
    }
}

/* Morph: a step function over the keys' object names, resolved to meshes
 * (docs/evaluation.md, 'Hide and morph tracks'). */
static void test_morph_track(void **state)
{
    static const float pts[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t faces[] = { 0, 1, 2 };
    static const char *names[] = { "A", "B", "Nowhere" };
    kf3ds_builder *b = support_builder();
    kf3ds_scene *s;
    kf3ds_pose p;
    int32_t node;
    int i;
    (void)state;
    support_build_mesh(b, "A", pts, 3, faces, NULL, 1, NULL);
    support_build_mesh(b, "B", pts, 3, faces, NULL, 1, NULL);
    node = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "A", KF3DS_NONE);
    for (i = 0; i < 3; i++) {
        kf3ds_key k = support_key(i * 10, 0, 0, 0, 0);
        k.morph_name = names[i];
        kf3ds_builder_add_key(b, node, KF3DS_TRACK_MORPH, &k);
    }
    s = support_build_scene(b);
    kf3ds_node_eval(s, 0, -3, 0, &p);
    assert_int_equal(p.morph_mesh, 0);
    kf3ds_node_eval(s, 0, 10, 0, &p);
    assert_int_equal(p.morph_mesh, 1);
    kf3ds_node_eval(s, 0, 19.9, 0, &p);
    assert_int_equal(p.morph_mesh, 1);
    kf3ds_node_eval(s, 0, 25, 0, &p);
    assert_int_equal(p.morph_mesh, KF3DS_NONE); /* names an object that does not exist */
    assert_string_equal(s->nodes[0].tracks[KF3DS_TRACK_MORPH].keys[2].morph_name, "Nowhere");
    kf3ds_scene_free(s);
}

/* Playback with search hints gives exactly what one-shot evaluation gives,
 * forwards, backwards and jumping. */
static void test_hints_match_search(void **state)
{
    kf3ds_scene *s = probe_scene(3);
    kf3ds_pose hinted[2], fresh;
    double t;
    (void)state;
    memset(hinted, 0, sizeof hinted);
    for (t = -12; t < 60; t += 0.75) {
        kf3ds_scene_eval(s, t, 0, hinted);
        kf3ds_node_eval(s, 1, t, 0, &fresh);
        assert_memory_equal(&hinted[1].world, &fresh.world, sizeof fresh.world);
    }
    for (t = 60; t > -12; t -= 3.3) {
        kf3ds_scene_eval(s, t, 0, hinted);
        kf3ds_node_eval(s, 1, t, 0, &fresh);
        assert_memory_equal(&hinted[1].world, &fresh.world, sizeof fresh.world);
    }
    kf3ds_scene_free(s);
}

/* The polynomials behind every rotation (src/kmath.h) against libm in
 * double, over their whole domain: sin and cos on [-π, π], acos on [-1, 1].
 * Bounds: about two float ulps of the largest results (1 and π); measured
 * 2.0e-7 and 4.3e-7. */
static void test_rotation_polynomials(void **state)
{
    double worst_sc = 0.0, worst_acos = 0.0;
    int i;
    (void)state;
    for (i = -200000; i <= 200000; i++) {
        float x = (float)(i * (3.14159265358979 / 200000.0)), sn, cs;
        float c = (float)(i / 200000.0);
        double e;
        kf3ds__sincos_pi(x, &sn, &cs);
        e = fmax(fabs(sn - sin((double)x)), fabs(cs - cos((double)x)));
        worst_sc = fmax(worst_sc, e);
        worst_acos = fmax(worst_acos, fabs(kf3ds__acos(c) - acos((double)c)));
    }
    print_message("worst error: sin/cos %.2e, acos %.2e\n", worst_sc, worst_acos);
    assert_true(worst_sc < 2.5e-7);
    assert_true(worst_acos < 5e-7);
}

/* kf3ds_scene_eval evaluates the rotations of eight nodes at once (vector
 * code), kf3ds_node_eval one at a time: the local values must agree bit for
 * bit, on the samples and on every corpus file, at fractional frames. */
static void check_batched_equals_single(const char *path)
{
    kf3ds_scene *s = kf3ds_load_file(path, NULL, NULL);
    kf3ds_pose *all, one;
    double t, step;
    uint32_t i;
    if (!s)
        return;
    /* about 300 fractional frames over the segment and a little beyond */
    step = 0.37 * ceil(((double)s->segment_end - s->segment_start + 3.0) / (0.37 * 300.0));
    all = (kf3ds_pose *)test_calloc(s->num_nodes + 1, sizeof *all);
    for (t = s->segment_start - 1.5; t <= s->segment_end + 1.5; t += step) {
        kf3ds_scene_eval(s, t, 0, all);
        for (i = 0; i < s->num_nodes; i++) {
            memset(&one, 0, sizeof one);
            kf3ds_node_eval(s, i, t, 0, &one);
            if (memcmp(all[i].rotation, one.rotation, sizeof one.rotation) ||
                memcmp(all[i].position, one.position, sizeof one.position) ||
                memcmp(all[i].scale, one.scale, sizeof one.scale)) {
                print_error("%s: node %lu at frame %g: batched and single evaluation differ\n",
                            path, (unsigned long)i, t);
                fail();
            }
        }
    }
    test_free(all);
    kf3ds_scene_free(s);
}

/* A corpus file with a .3ds name; *user counts them. */
static void check_corpus_batched(const char *path, const char *name, void *user)
{
    if (!support_is_3ds_name(name))
        return;
    check_batched_equals_single(path);
    ++*(unsigned *)user;
}

static void test_batched_equals_single(void **state)
{
    static const char *const samples[] = { "data/orrery.3ds", "data/arm.3ds", "data/edge.3ds" };
    unsigned i, files = 0;
    (void)state;
    for (i = 0; i < 3; i++)
        check_batched_equals_single(samples[i]);
    support_corpus_each(check_corpus_batched, &files); /* none without a corpus */
    print_message("batched = single on the 3 samples and %u corpus files\n", files);
}

static void test_nan_and_huge_frames(void **state)
{
    kf3ds_scene *s = probe_scene(3);
    kf3ds_pose p[2];
    int i, j;
    const double frames[] = { NAN, INFINITY, -INFINITY, 1e300, -1e300, 2147483647.0 };
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    for (i = 0; i < 6; i++) {
        kf3ds_scene_eval(s, frames[i], 0, p);
        for (j = 0; j < 16; j++)
            assert_true(isfinite(p[0].world.m[j / 4][j % 4]));
    }
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_flags0),
        cmocka_unit_test(test_golden_matrix_columns),
        cmocka_unit_test(test_golden_child_dummy),
        cmocka_unit_test(test_wrap_flag1),
        cmocka_unit_test(test_loop_flag3),
        cmocka_unit_test(test_repeat_flag2),
        cmocka_unit_test(test_ease),
        cmocka_unit_test(test_multi_turn),
        cmocka_unit_test(test_duplicate_and_triple_frames),
        cmocka_unit_test(test_unsorted_keys),
        cmocka_unit_test(test_late_first_key),
        cmocka_unit_test(test_tcb_interior),
        cmocka_unit_test(test_key_tangents),
        cmocka_unit_test(test_hide_track),
        cmocka_unit_test(test_every_interpolated_kind),
        cmocka_unit_test(test_morph_track),
        cmocka_unit_test(test_hints_match_search),
        cmocka_unit_test(test_rotation_polynomials),
        cmocka_unit_test(test_batched_equals_single),
        cmocka_unit_test(test_nan_and_huge_frames),
    };
    return support_run_tests(tests, NULL, NULL);
}
