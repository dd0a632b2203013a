/* gen_seeds DIR [--big]: small valid-but-strange .3ds files, the project's
 * own fuzzing seeds (and inputs of the kind tests/core/test_malformed_values.c loads).
 *
 * Each file is a complete scene (materials, a box mesh, a camera with its
 * target, an omni light, a spotlight with its target, the ambient node and
 * object nodes with every track) with one kind of strangeness: NaN and
 * infinite floats, huge values, zero rotation axes and multi-turn angles,
 * duplicate / unsorted / extreme frames, loops, self-parents and cycles,
 * singular and mirrored mesh matrices, extreme TCB and ease, counts far
 * beyond their chunks, deep nesting, long parent chains and many nodes.
 * With --big it also writes 65,535 nodes (about 2 MB: not a default seed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support_w3ds.h"
#include "../tests/support.h" /* the chunk writers the tests use too */

typedef struct opts {
    float nan_value;        /* a value written where a normal one would be */
    int use_nan;            /* 1: put nan_value in keys, points, pivots, camera */
    float scale;            /* every scale key */
    int zero_axes, multi_turn;
    int frames_odd;         /* duplicate, unsorted and extreme frames */
    int loop;               /* track flags */
    int parents;            /* 0 normal, 1 self, 2 cycle, 3 unknown, 4 duplicate ids */
    int matrix;             /* 0 identity-ish, 1 zero, 2 singular, 3 mirrored, 4 nearly singular, 5 huge */
    float tcb;              /* TCB and ease magnitude (0: none) */
    int claim_keys;         /* key count claimed beyond the chunk */
    int chain;              /* extra nodes, each the child of the previous */
    int flat_nodes;         /* extra nodes, all roots */
    int nest;               /* extra nesting levels of unknown chunks */
} opts;

static float odd(const opts *o, float normal)
{
    return o->use_nan ? o->nan_value : normal;
}

static void write_editor(w3ds *w, const opts *o)
{
    static const uint8_t red[3] = { 200, 30, 30 }, grey[3] = { 90, 90, 90 };
    static const uint16_t faces[36] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                        1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7 };
    float pts[24] = { -1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1,
                      -1, -1, 1,  1, -1, 1,  1, 1, 1,  -1, 1, 1 };
    float m[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    const float cpos[3] = { 0, -20, 5 }, ctgt[3] = { 0, 0, 0 };
    const float lpos[3] = { 10, -10, 10 }, lcol[3] = { 1, 0.9f, 0.8f };
    const float spos[3] = { -10, -10, 10 }, stgt[3] = { 0, 0, 0 };
    float cp[3];
    int i;

    w3ds_begin(w, KF3DS_CHUNK_MDATA);
    support_chunk_u32(w, KF3DS_CHUNK_MESH_VERSION, 3);
    support_chunk_f32(w, KF3DS_CHUNK_MASTER_SCALE, odd(o, 1.0f));
    w3ds_material(w, "Red", red, red, grey);
    w3ds_material(w, "Grey", grey, grey, NULL);
    if (o->use_nan) {
        pts[0] = o->nan_value;
        pts[13] = o->nan_value;
    }
    switch (o->matrix) {
    case 1: memset(m, 0, sizeof m); break;
    case 2: m[3] = 1; m[4] = 0; break;                  /* Y axis = X axis */
    case 3: m[0] = -1; break;                           /* mirrored */
    case 4: m[0] = 1e-12f; m[4] = 1e-12f; m[8] = 1e-12f; break;
    case 5: for (i = 0; i < 12; i++) m[i] = m[i] * 1e30f + 1e20f; break;
    default: m[9] = 2; break;
    }
    if (o->matrix == 3)
        for (i = 0; i < 8; i++)
            pts[3 * i] = -pts[3 * i];
    w3ds_mesh(w, "Box", pts, 8, faces, 12, m, "Red");
    w3ds_mesh(w, "Box2", pts, 8, faces, 12, NULL, "Grey");
    /* a mesh with texture coordinates and point flags, no faces */
    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, "Loose");
    w3ds_begin(w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(w, 3);
    w3ds_f32v(w, pts, 9);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_TEX_VERTS);
    w3ds_u16(w, 3);
    for (i = 0; i < 6; i++)
        w3ds_f32(w, odd(o, (float)i * 0.25f));
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_POINT_FLAG_ARRAY);
    w3ds_u16(w, 3);
    for (i = 0; i < 3; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
    cp[0] = odd(o, cpos[0]);
    cp[1] = cpos[1];
    cp[2] = cpos[2];
    w3ds_camera(w, "Cam", cp, ctgt, odd(o, 5.0f), o->use_nan ? o->nan_value : 35.0f);
    w3ds_light(w, "Omni", lpos, lcol, NULL, 0, 0);
    w3ds_light(w, "Spot", spos, lcol, stgt, odd(o, 30.0f), 45.0f);
    w3ds_begin(w, KF3DS_CHUNK_AMBIENT_LIGHT);
    w3ds_begin(w, KF3DS_CHUNK_COLOR_F);
    w3ds_f32(w, 0.1f);
    w3ds_f32(w, odd(o, 0.1f));
    w3ds_f32(w, 0.1f);
    w3ds_end(w);
    w3ds_end(w);
    for (i = 0; i < o->nest; i++)
        w3ds_begin(w, 0x7777); /* an id kf3ds does not know */
    for (i = 0; i < o->nest; i++)
        w3ds_end(w);
    w3ds_end(w);
}

static w3ds_tcb tcb_of(const opts *o, int k)
{
    w3ds_tcb t;
    memset(&t, 0, sizeof t);
    if (o->tcb != 0.0f) {
        t.tension = (k & 1) ? o->tcb : -o->tcb;
        t.continuity = o->tcb;
        t.bias = -o->tcb;
        t.ease_to = (k & 2) ? o->tcb : 0.5f;
        t.ease_from = (k & 1) ? -o->tcb : 0.7f;
    } else if (k == 1) {
        t.ease_to = 0.3f;
        t.ease_from = 0.4f;
        t.tension = 0.2f;
    }
    return t;
}

static int32_t frame_of(const opts *o, int k)
{
    static const int32_t odd_frames[] = { 10, 10, 0, INT32_MAX, INT32_MIN, 5, 5, -3 };
    return o->frames_odd ? odd_frames[k % 8] : 10 * k;
}

static void track_header(w3ds *w, uint16_t id, const opts *o, uint32_t n)
{
    support_track_begin(w, id, (uint16_t)o->loop, o->claim_keys ? 0xFFFFFFFFu - 7u : n);
}

static void vec_track(w3ds *w, uint16_t id, const opts *o, int n, float base)
{
    int k;
    track_header(w, id, o, (uint32_t)n);
    for (k = 0; k < n; k++) {
        w3ds_tcb t = tcb_of(o, k);
        w3ds_key_header(w, frame_of(o, k), &t);
        w3ds_f32(w, id == KF3DS_CHUNK_SCL_TRACK_TAG ? o->scale : base + (float)k);
        w3ds_f32(w, (k == 1) ? odd(o, base * 2.0f) : base * 2.0f);
        w3ds_f32(w, id == KF3DS_CHUNK_SCL_TRACK_TAG ? o->scale : base - (float)k);
    }
    w3ds_end(w);
}

static void scalar_track(w3ds *w, uint16_t id, const opts *o, int n, float base)
{
    int k;
    track_header(w, id, o, (uint32_t)n);
    for (k = 0; k < n; k++) {
        w3ds_tcb t = tcb_of(o, k);
        w3ds_key_header(w, frame_of(o, k), &t);
        w3ds_f32(w, k == 2 ? odd(o, base) : base + 3.0f * (float)k);
    }
    w3ds_end(w);
}

static void rot_track(w3ds *w, const opts *o, int n)
{
    int k;
    track_header(w, KF3DS_CHUNK_ROT_TRACK_TAG, o, (uint32_t)n);
    for (k = 0; k < n; k++) {
        w3ds_tcb t = tcb_of(o, k);
        float angle = o->multi_turn ? 7.5f * (float)(k + 1) : 0.4f * (float)k;
        float ax = (o->zero_axes && (k & 1)) ? 0.0f : 0.0f;
        float az = (o->zero_axes && (k & 1)) ? 0.0f : 1.0f;
        if (o->multi_turn && k == 2)
            angle = 1e30f;
        w3ds_key_header(w, frame_of(o, k), &t);
        w3ds_f32(w, k == 1 ? odd(o, angle) : angle);
        w3ds_f32(w, ax);
        w3ds_f32(w, (k == 3) ? odd(o, 0.0f) : 0.0f);
        w3ds_f32(w, az);
    }
    w3ds_end(w);
}

static uint16_t parent_of(const opts *o, uint16_t id, uint16_t normal)
{
    switch (o->parents) {
    case 1: return id;                         /* self */
    case 2: return (uint16_t)(id == 1 ? 3 : id - 1 ? id - 1 : 3); /* 1 -> 3 -> 2 -> 1 */
    case 3: return (uint16_t)(4000 + id);      /* unknown */
    default: return normal;
    }
}

static void write_keyframer(w3ds *w, const opts *o)
{
    const float piv[3] = { odd(o, 0.5f), 0.0f, -0.5f };
    int i;
    uint16_t next = 9;
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    support_kf_segment(w, "seed", 100);
    support_chunk_u32(w, KF3DS_CHUNK_KFCURTIME, 0);

    support_node_begin(w, KF3DS_CHUNK_AMBIENT_NODE_TAG, 0, "$AMBIENT$", 0xFFFF);
    vec_track(w, KF3DS_CHUNK_COL_TRACK_TAG, o, 3, 0.2f);
    w3ds_end(w);

    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 1, "Box", parent_of(o, 1, 0xFFFF));
    support_chunk_f32v(w, KF3DS_CHUNK_PIVOT, piv, 3);
    vec_track(w, KF3DS_CHUNK_POS_TRACK_TAG, o, 4, 1.0f);
    rot_track(w, o, 5);
    vec_track(w, KF3DS_CHUNK_SCL_TRACK_TAG, o, 3, 1.0f);
    track_header(w, KF3DS_CHUNK_HIDE_TRACK_TAG, o, 3);
    for (i = 0; i < 3; i++)
        w3ds_key_header(w, frame_of(o, i) + 3, NULL);
    w3ds_end(w);
    track_header(w, KF3DS_CHUNK_MORPH_TRACK_TAG, o, 2);
    w3ds_key_header(w, 0, NULL);
    w3ds_cstr(w, "Box");
    w3ds_key_header(w, frame_of(o, 1), NULL);
    w3ds_cstr(w, "Box2");
    w3ds_end(w);
    w3ds_end(w);

    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 2, "$$$DUMMY", parent_of(o, 2, 1));
    support_chunk_str(w, KF3DS_CHUNK_INSTANCE_NAME, "Dummy01");
    support_chunk_f32v(w, KF3DS_CHUNK_BOUNDBOX, (const float[6]){ -1, -1, -1, 1, 1, 1 }, 6);
    vec_track(w, KF3DS_CHUNK_POS_TRACK_TAG, o, 2, -2.0f);
    rot_track(w, o, 3);
    w3ds_end(w);

    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 3, "Box2", parent_of(o, 3, 2));
    support_chunk_f32v(w, KF3DS_CHUNK_PRESCALE, (const float[3]){ 1, 1, 1 }, 3);
    vec_track(w, KF3DS_CHUNK_SCL_TRACK_TAG, o, 2, 1.0f);
    w3ds_end(w);

    support_node_begin(w, KF3DS_CHUNK_CAMERA_NODE_TAG, 4, "Cam", 0xFFFF);
    vec_track(w, KF3DS_CHUNK_POS_TRACK_TAG, o, 2, 5.0f);
    scalar_track(w, KF3DS_CHUNK_FOV_TRACK_TAG, o, 3, 45.0f);
    scalar_track(w, KF3DS_CHUNK_ROLL_TRACK_TAG, o, 3, 0.0f);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_TARGET_NODE_TAG, 5, "Cam", o->parents == 4 ? 4 : 0xFFFF);
    vec_track(w, KF3DS_CHUNK_POS_TRACK_TAG, o, 2, 0.0f);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_LIGHT_NODE_TAG, 6, "Omni", 0xFFFF);
    vec_track(w, KF3DS_CHUNK_POS_TRACK_TAG, o, 2, 10.0f);
    vec_track(w, KF3DS_CHUNK_COL_TRACK_TAG, o, 2, 0.5f);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_SPOTLIGHT_NODE_TAG, 7, "Spot", 0xFFFF);
    vec_track(w, KF3DS_CHUNK_POS_TRACK_TAG, o, 2, -10.0f);
    scalar_track(w, KF3DS_CHUNK_HOT_TRACK_TAG, o, 3, 30.0f);
    scalar_track(w, KF3DS_CHUNK_FALL_TRACK_TAG, o, 3, 45.0f);
    scalar_track(w, KF3DS_CHUNK_ROLL_TRACK_TAG, o, 2, 0.0f);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_L_TARGET_NODE_TAG, 8, "Spot", 0xFFFF);
    w3ds_end(w);
    if (o->parents == 4) { /* duplicate ids */
        support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 1, "Box", 1);
        w3ds_end(w);
        support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0xFFFF, "Box", 0xFFFE);
        w3ds_end(w);
    }
    for (i = 0; i < o->chain; i++, next++) {
        support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, next, "$$$DUMMY",
                           (uint16_t)(i ? next - 1 : 1));
        if (i % 7 == 0)
            vec_track(w, KF3DS_CHUNK_SCL_TRACK_TAG, o, 2, 1.0f);
        w3ds_end(w);
    }
    for (i = 0; i < o->flat_nodes; i++) {
        w3ds_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG);
        w3ds_node_hdr(w, "Box", 0, 0, 0xFFFF);
        w3ds_end(w);
    }
    w3ds_end(w);
}

static int save(const char *dir, const char *name, const opts *o)
{
    char path[4096];
    w3ds w;
    int rc;
    w3ds_init(&w);
    w3ds_begin(&w, KF3DS_CHUNK_M3DMAGIC);
    support_chunk_u32(&w, KF3DS_CHUNK_M3D_VERSION, 3);
    write_editor(&w, o);
    write_keyframer(&w, o);
    w3ds_end(&w);
    snprintf(path, sizeof path, "%s/%s.3ds", dir, name);
    rc = w.failed || w3ds_save(&w, path) != 0;
    if (rc)
        fprintf(stderr, "gen_seeds: cannot write %s\n", path);
    w3ds_free(&w);
    return rc;
}

int main(int argc, char **argv)
{
    opts base, o;
    int rc = 0, big = argc > 2 && strcmp(argv[2], "--big") == 0;
    if (argc < 2) {
        fprintf(stderr, "usage: gen_seeds DIR [--big]\n");
        return 2;
    }
    memset(&base, 0, sizeof base);
    base.scale = 1.0f;
#define SEED(name, stmt)          \
    do {                          \
        o = base;                 \
        stmt;                     \
        rc |= save(argv[1], name, &o); \
    } while (0)
    SEED("plain", (void)0);
    SEED("nan", (o.use_nan = 1, o.nan_value = NAN));
    SEED("inf", (o.use_nan = 1, o.nan_value = INFINITY));
    SEED("neg-inf", (o.use_nan = 1, o.nan_value = -INFINITY));
    SEED("huge", (o.use_nan = 1, o.nan_value = 3.4e38f, o.scale = 1e38f));
    SEED("denormal", (o.use_nan = 1, o.nan_value = 1e-42f, o.scale = 1e-42f));
    SEED("huge-scale-chain", (o.scale = 1e18f, o.chain = 40));
    SEED("zero-scale", (o.scale = 0.0f));
    SEED("zero-axes", (o.zero_axes = 1));
    SEED("multi-turn", (o.multi_turn = 1));
    SEED("odd-frames", (o.frames_odd = 1));
    SEED("loop", (o.loop = 3, o.frames_odd = 1));
    SEED("repeat", (o.loop = 2));
    SEED("self-parent", (o.parents = 1));
    SEED("cycle", (o.parents = 2));
    SEED("unknown-parent", (o.parents = 3));
    SEED("duplicate-ids", (o.parents = 4));
    SEED("matrix-zero", (o.matrix = 1));
    SEED("matrix-singular", (o.matrix = 2));
    SEED("matrix-mirrored", (o.matrix = 3));
    SEED("matrix-tiny", (o.matrix = 4));
    SEED("matrix-huge", (o.matrix = 5));
    SEED("tcb-extreme", (o.tcb = 1e30f));
    SEED("tcb-large", (o.tcb = 50.0f, o.loop = 3));
    SEED("claim-keys", (o.claim_keys = 1));
    SEED("deep-nest", (o.nest = 60));
    SEED("chain-2000", (o.chain = 2000));
    SEED("flat-3000", (o.flat_nodes = 3000));
    if (big)
        SEED("nodes-65535", (o.flat_nodes = 65535 - 9));
    return rc;
}
