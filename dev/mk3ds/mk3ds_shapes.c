/* The benchmark's scene shapes beyond bench-nodes (mk3ds bench-SHAPE FILE),
 * all at the scale of bench-nodes (2,000 nodes, or as many keys for
 * bench-long), each stressing what the uniform file does not:
 *   bench-random    mixed key counts 1..60, a random hierarchy written in a
 *                   random file order (children often before parents), TCB
 *                   and ease on a third of the keys, dummies
 *   bench-chain     ten chains of 200 nodes, each the parent of the next
 *   bench-constant  one key per track except on 100 animated nodes
 *   bench-lights    cameras with targets, omni lights, spotlights with
 *                   targets and a few dummies they hang from; FOV, roll,
 *                   colour, hotspot and falloff tracks; no NODE_ID
 *   bench-long      100 object nodes with 1,000 keys per track (meant to be
 *                   evaluated at random frames, dev/bench/bench.sh)
 *   bench-render-city  a render benchmark of many small meshes, as in real
 *                   files: 100 city blocks (dummies) of 20 box buildings
 *                   each, a tenth of them turning, the blocks drifting
 * Deterministic: each shape seeds the generator with its own fixed seed. */
#include "mk3ds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHAPE_NODES 2000
#define SHAPE_LENGTH 1000  /* frames */
#define SHAPE_MAX_KEYS 60

/* n key frames in 0..length, strictly increasing: even spacing with a
 * jitter of up to a third of the gap either way. */
static void shape_frames(int n, int32_t length, int32_t *frames)
{
    int i;
    double gap = n > 1 ? (double)length / (n - 1) : 0.0;
    int jitter = (int)(gap / 3.0);
    for (i = 0; i < n; i++) {
        int32_t f = (int32_t)(i * gap + 0.5);
        if (i > 0 && i < n - 1 && jitter > 0)
            f += rndint(2 * jitter + 1) - jitter;
        if (i > 0 && f <= frames[i - 1])
            f = frames[i - 1] + 1;
        frames[i] = f;
    }
}

/* Some TCB and ease values on key k with probability p (interior keys only:
 * the end keys' tangents are chords whatever they say). */
static void shape_spline(kkey *k, double p)
{
    if (!chance(p))
        return;
    tcb(k, rnduni(-0.5, 0.5), rnduni(-0.5, 0.5), rnduni(-0.5, 0.5));
    if (chance(0.5))
        ease(k, rnduni(0.0, 0.6), rnduni(0.0, 0.6));
}

/* A track of n keys over 0..length: POS, SCL, COL three values in [lo, hi],
 * FOV, ROLL, HOT, FALL one, ROT a random axis and an angle below 115 degrees
 * (lo, hi unused); spline values on interior keys with probability p. */
static void shape_track(scene *s, int node, uint16_t tag, int n, int32_t length, double lo,
                        double hi, double p)
{
    int32_t *frames = xrealloc(NULL, (size_t)n * sizeof *frames);
    track *t = add_track(s, node, tag, 0);
    int i;
    shape_frames(n, length, frames);
    for (i = 0; i < n; i++) {
        kkey *k;
        if (tag == KF3DS_CHUNK_ROT_TRACK_TAG) {
            double ax[3], ang;
            random_axis(ax);
            ang = rnduni(-2.0, 2.0);
            k = key4(t, frames[i], ang, ax[0], ax[1], ax[2]);
        } else if (tag == KF3DS_CHUNK_POS_TRACK_TAG || tag == KF3DS_CHUNK_SCL_TRACK_TAG ||
                   tag == KF3DS_CHUNK_COL_TRACK_TAG) {
            double r3[3];
            rnd3(r3, lo, hi);
            k = key3(t, frames[i], r3[0], r3[1], r3[2]);
        } else {
            k = key1(t, frames[i], rnduni(lo, hi));
        }
        if (i > 0 && i < n - 1)
            shape_spline(k, p);
    }
    free(frames);
}

/* 1..SHAPE_MAX_KEYS, uniform. */
static int mixed_keys(void)
{
    return 1 + rndint(SHAPE_MAX_KEYS);
}

/* An object node's POS, ROT and SCL tracks of the given key counts; pos_range
 * bounds the positions, scale_dev the scales' distance from 1. */
static void object_tracks(scene *s, int n, const int keys[3], int32_t length, double pos_range,
                          double scale_dev, double p)
{
    shape_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, keys[0], length, -pos_range, pos_range, p);
    shape_track(s, n, KF3DS_CHUNK_ROT_TRACK_TAG, keys[1], length, 0, 0, p);
    shape_track(s, n, KF3DS_CHUNK_SCL_TRACK_TAG, keys[2], length, 1.0 - scale_dev,
                1.0 + scale_dev, p);
}

/* An object node with a box mesh at its frame-0 place, or (dummy) a
 * $$$DUMMY node with an instance name and no mesh. */
static int object_node(scene *s, const char *name, int parent, int dummy)
{
    int n;
    if (dummy) {
        n = add_node(s, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", parent);
        set_inst(s, n, name);
    } else {
        double p3[3];
        n = add_node(s, KF3DS_CHUNK_OBJECT_NODE_TAG, name, parent);
        rnd3(p3, -1, 1);
        set_pivot(s, n, p3[0], p3[1], p3[2]);
    }
    return n;
}

/* Whether every ancestor of node i comes before it in the file. */
static int ancestors_first(const scene *s, int i)
{
    int p;
    for (p = s->nodes[i].parent; p >= 0; i = p, p = s->nodes[p].parent)
        if (p >= i)
            return 0;
    return 1;
}

/* The meshes of every non-dummy object node, added once all nodes exist. A
 * mesh's matrix comes from its node's frame-0 place, which the generator
 * computes only for nodes whose ancestors come first; the others (in
 * bench-random) keep the identity: the benchmark does not look at them. */
static void add_node_meshes(scene *s)
{
    int i, nn = s->nn;
    add_material(s, "Bench", 200, 200, 200);
    for (i = 0; i < nn; i++)
        if (s->nodes[i].tag == KF3DS_CHUNK_OBJECT_NODE_TAG && !s->nodes[i].inst[0])
            add_mesh(s, s->nodes[i].name, "Bench", ancestors_first(s, i) ? i : -1, 0, 0, 0, 1,
                     1, 1);
}

static void shuffle(int *v, int n)
{
    int i;
    for (i = n - 1; i > 0; i--) {
        int j = rndint(i + 1), tmp = v[i];
        v[i] = v[j];
        v[j] = tmp;
    }
}

/* A random tree (node i's parent an earlier node with probability 0.9)
 * written in a random order: file position pos[i] holds tree node i. */
static void make_random_shape(scene *s)
{
    int *parent = xrealloc(NULL, SHAPE_NODES * sizeof *parent);
    int *pos = xrealloc(NULL, SHAPE_NODES * sizeof *pos);
    int *at = xrealloc(NULL, SHAPE_NODES * sizeof *at);
    int i;
    char name[32];
    for (i = 0; i < SHAPE_NODES; i++) {
        parent[i] = i > 0 && chance(0.9) ? rndint(i) : -1;
        pos[i] = i;
    }
    shuffle(pos, SHAPE_NODES);
    for (i = 0; i < SHAPE_NODES; i++)
        at[pos[i]] = i;
    for (i = 0; i < SHAPE_NODES; i++) { /* file order */
        int t = at[i], n, keys[3];
        snprintf(name, sizeof name, "R%04d", t);
        n = object_node(s, name, parent[t] >= 0 ? pos[parent[t]] : -1, chance(0.1));
        set_id(s, n, (uint16_t)n);
        keys[0] = mixed_keys();
        keys[1] = mixed_keys();
        keys[2] = mixed_keys();
        object_tracks(s, n, keys, SHAPE_LENGTH, 20.0, 0.2, 1.0 / 3.0);
    }
    free(parent);
    free(pos);
    free(at);
}

#define CHAIN_DEPTH 200

static void make_chain_shape(scene *s)
{
    int i;
    char name[32];
    for (i = 0; i < SHAPE_NODES; i++) {
        int n, keys[3];
        snprintf(name, sizeof name, "C%04d", i);
        n = object_node(s, name, i % CHAIN_DEPTH ? i - 1 : -1, 0);
        keys[0] = mixed_keys();
        keys[1] = mixed_keys();
        keys[2] = mixed_keys();
        /* small steps and scales near 1: 200 levels stay in range */
        object_tracks(s, n, keys, SHAPE_LENGTH, 5.0, 0.01, 1.0 / 3.0);
    }
}

#define CONSTANT_ANIMATED 100

static void make_constant_shape(scene *s)
{
    int i;
    char name[32];
    for (i = 0; i < SHAPE_NODES; i++) {
        int parent = i > 0 && chance(0.9) ? rndint(i) : -1, n, k, keys[3];
        int animated = i % (SHAPE_NODES / CONSTANT_ANIMATED) == 0;
        snprintf(name, sizeof name, "K%04d", i);
        n = object_node(s, name, parent, chance(0.1));
        for (k = 0; k < 3; k++)
            keys[k] = animated ? 2 + rndint(SHAPE_MAX_KEYS - 1) : 1;
        object_tracks(s, n, keys, SHAPE_LENGTH, 20.0, 0.2, 1.0 / 3.0);
    }
}

/* Camera + target, omni, spotlight + target, in that mix; every 20th rig
 * hangs from one of the dummies made first. */
#define LIGHTS_DUMMIES 50

static void make_lights_shape(scene *s)
{
    int i = 0, rig = 0;
    char name[32];
    for (; i < LIGHTS_DUMMIES; i++) {
        int n, keys[3];
        snprintf(name, sizeof name, "Rig%02d", i);
        n = object_node(s, name, -1, 1);
        keys[0] = mixed_keys();
        keys[1] = mixed_keys();
        keys[2] = 1;
        object_tracks(s, n, keys, SHAPE_LENGTH, 50.0, 0.0, 1.0 / 3.0);
    }
    while (s->nn < SHAPE_NODES) {
        int kind = rig % 3, n, parent = rig % 20 == 0 ? rndint(LIGHTS_DUMMIES) : -1;
        const double p = 1.0 / 3.0;
        if (kind == 0 && s->nn + 2 <= SHAPE_NODES) {
            snprintf(name, sizeof name, "Camera%04d", rig);
            n = add_node(s, KF3DS_CHUNK_CAMERA_NODE_TAG, name, parent);
            shape_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -100, 100, p);
            shape_track(s, n, KF3DS_CHUNK_FOV_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, 20, 80, p);
            shape_track(s, n, KF3DS_CHUNK_ROLL_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -30, 30, p);
            n = add_node(s, KF3DS_CHUNK_TARGET_NODE_TAG, name, parent);
            shape_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -100, 100, p);
        } else if (kind == 1 || s->nn + 2 > SHAPE_NODES) {
            snprintf(name, sizeof name, "Omni%04d", rig);
            n = add_node(s, KF3DS_CHUNK_LIGHT_NODE_TAG, name, parent);
            shape_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -100, 100, p);
            shape_track(s, n, KF3DS_CHUNK_COL_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, 0, 1, p);
        } else {
            snprintf(name, sizeof name, "Spot%04d", rig);
            n = add_node(s, KF3DS_CHUNK_SPOTLIGHT_NODE_TAG, name, parent);
            shape_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -100, 100, p);
            shape_track(s, n, KF3DS_CHUNK_COL_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, 0, 1, p);
            shape_track(s, n, KF3DS_CHUNK_HOT_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, 10, 40, p);
            shape_track(s, n, KF3DS_CHUNK_FALL_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, 40, 60, p);
            shape_track(s, n, KF3DS_CHUNK_ROLL_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -30, 30, p);
            n = add_node(s, KF3DS_CHUNK_L_TARGET_NODE_TAG, name, parent);
            shape_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, mixed_keys(), SHAPE_LENGTH, -100, 100, p);
        }
        rig++;
    }
}

#define LONG_NODES 100
#define LONG_KEYS 1000
#define LONG_LENGTH 10000

static void make_long_shape(scene *s)
{
    static const int keys[3] = {LONG_KEYS, LONG_KEYS, LONG_KEYS};
    int i;
    char name[32];
    for (i = 0; i < LONG_NODES; i++) {
        int n;
        snprintf(name, sizeof name, "L%03d", i);
        n = object_node(s, name, i > 0 && chance(0.9) ? rndint(i) : -1, 0);
        object_tracks(s, n, keys, LONG_LENGTH, 20.0, 0.2, 1.0 / 3.0);
    }
}

#define CITY_BLOCKS 100
#define CITY_BUILDINGS 20

static void make_city_shape(scene *s)
{
    int b, i;
    char name[32];
    add_material(s, "Stone", 180, 170, 150);
    add_material(s, "Glass", 90, 140, 200);
    for (b = 0; b < CITY_BLOCKS; b++) {
        double bx = (b % 10) * 60.0, by = (b / 10) * 60.0;
        int block;
        track *t;
        snprintf(name, sizeof name, "Block%03d", b);
        block = object_node(s, name, -1, 1);
        t = add_track(s, block, KF3DS_CHUNK_POS_TRACK_TAG, 0);
        key3(t, 0, bx, by, 0);
        key3(t, 100, bx + rnduni(-5, 5), by + rnduni(-5, 5), 0);
        key4(add_track(s, block, KF3DS_CHUNK_ROT_TRACK_TAG, 0), 0, 0, 0, 0, 1);
        key3(add_track(s, block, KF3DS_CHUNK_SCL_TRACK_TAG, 0), 0, 1, 1, 1);
        for (i = 0; i < CITY_BUILDINGS; i++) {
            double h = rnduni(2, 20), w = rnduni(2, 6);
            int n;
            snprintf(name, sizeof name, "B%03d_%02d", b, i);
            n = add_node(s, KF3DS_CHUNK_OBJECT_NODE_TAG, name, block);
            key3(add_track(s, n, KF3DS_CHUNK_POS_TRACK_TAG, 0), 0, (i % 5) * 11.0 - 22.0,
                 (i / 5) * 11.0 - 16.5, h);
            t = add_track(s, n, KF3DS_CHUNK_ROT_TRACK_TAG, 0);
            key4(t, 0, 0, 0, 0, 1);
            if (i % 10 == 0) { /* a turning one */
                keyrot(t, 50, 90, 0, 0, 1);
                keyrot(t, 100, 90, 0, 0, 1);
            }
            key3(add_track(s, n, KF3DS_CHUNK_SCL_TRACK_TAG, 0), 0, 1, 1, 1);
            add_mesh(s, name, s->mats[i % 2].name, n, 0, 0, 0, w, w, h);
        }
    }
}

typedef struct shape {
    const char *name;
    void (*make)(scene *s);
    uint64_t seed;
    int32_t length;
} shape;

static const shape shapes[] = {
    {"bench-random", make_random_shape, 20260101u, SHAPE_LENGTH},
    {"bench-chain", make_chain_shape, 20260102u, SHAPE_LENGTH},
    {"bench-constant", make_constant_shape, 20260103u, SHAPE_LENGTH},
    {"bench-lights", make_lights_shape, 20260104u, SHAPE_LENGTH},
    {"bench-long", make_long_shape, 20260105u, LONG_LENGTH},
    {"bench-render-city", make_city_shape, 20260106u, 100},
};

int make_bench_shape(const char *name, const char *path)
{
    size_t i;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (strcmp(name, shapes[i].name) == 0) {
            scene s;
            rng_seed(shapes[i].seed);
            scene_init(&s, "benchshp", shapes[i].length);
            shapes[i].make(&s);
            if (!s.nm) /* the render scene made its own */
                add_node_meshes(&s);
            scene_save(&s, path);
            scene_free(&s);
            return 1;
        }
    return 0;
}
