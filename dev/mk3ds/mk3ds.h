/* The parts of the mk3ds generator (internal to the mk3ds*.c files):
 *   mk3ds.c          the command line
 *   mk3ds_util.c     failing, allocation, names; the deterministic random draws
 *   mk3ds_math.c     4x4 matrices
 *   mk3ds_scene.c    the scene model: nodes, tracks and keys, meshes, materials,
 *                    cameras and lights
 *   mk3ds_eval.c     the frame-0 evaluation that places meshes, cameras, lights
 *   mk3ds_write.c    serialising a scene (or a benchmark file) with the library's
 *                    scene builder and writer
 *   mk3ds_samples.c  the samples of data/: orrery, arm, edge
 *   mk3ds_bench.c    the benchmark inputs: bench-meshes, bench-render(-dense), bench-nodes
 *   mk3ds_random.c   the random scenes of the differential test
 *   mk3ds_shapes.c   the benchmark's other scene shapes: bench-random, bench-chain,
 *                    bench-constant, bench-lights, bench-long, bench-render-city
 *   mk3ds_textured.c the textured sample with its pictures, and the textured
 *                    render benchmark
 * The scene model keeps its own frame-0 evaluator (mk3ds_eval.c): what places
 * the meshes is computed independently of the library's evaluator, which the
 * samples test; only building and writing the file go through the library. */
#ifndef KF3DS_MK3DS_H
#define KF3DS_MK3DS_H
#include "kf3ds.h"

#include <stddef.h>
#include <stdint.h>

#define PI 3.14159265358979323846

/* ---- utilities (mk3ds_util.c) --------------------------------------------- */

/* Prints "mk3ds: <message>" and exits with status 1. */
void die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void *xrealloc(void *p, size_t n); /* dies when out of memory */
/* Makes room for one more item in an array holding `count` of `*cap`: the
 * capacity doubles (starting at `first_cap`) so that appends stay cheap. */
void *grow_array(void *items, int count, int *cap, int first_cap, size_t item_size);
void copy_name(char *dst, size_t cap, const char *src); /* dies when too long */

/* Random draws: xorshift64 seeded through splitmix64, the same sequence on
 * every platform for a seed. */
void rng_seed(uint64_t seed);
int rndint(int n);                  /* 0 .. n-1 */
double rnduni(double a, double b);  /* [a, b) */
int chance(double p);               /* 1 with probability p */
/* Three draws in a fixed order (never draw twice inside one argument list:
 * the evaluation order of arguments is unspecified and differs by compiler). */
void rnd3(double out[3], double a, double b);
void random_axis(double a[3]);      /* a unit vector */

/* ---- matrices (mk3ds_math.c): double m[4][4], m[row][col], column vectors - */

typedef struct mat4 { double m[4][4]; } mat4;

mat4 mat_identity(void);
mat4 mat_mul(mat4 a, mat4 b);
mat4 mat_translate(double x, double y, double z);
mat4 mat_scale(double x, double y, double z);
/* Right-handed rotation by `angle` about axis (x,y,z); zero axis = identity. */
mat4 mat_rotate(double angle, double x, double y, double z);
void mat_apply(const mat4 *a, const double in[3], double out[3]);
double mat_det3(const mat4 *a);
/* MESH_MATRIX layout: X axis, Y axis, Z axis, origin (the four columns). */
void mat_to_mesh_matrix(const mat4 *a, float out[12]);

/* ---- the scene model (mk3ds_scene.c) -------------------------------------- */

/* TCB/ease of one key; `flags` nonzero: spline flags written as they are
 * (the library adds the bits of the nonzero values). */
typedef struct key_tcb {
    float tension, continuity, bias, ease_to, ease_from;
    uint16_t flags;
} key_tcb;

typedef struct kkey {
    int32_t frame;
    key_tcb tcb;
    float v[4];      /* POS/SCL/COL: 3; ROT: angle (rad), axis; FOV/ROLL/HOT/FALL: 1 */
    char name[16];   /* MORPH */
} kkey;

typedef struct track {
    uint16_t tag, flags;   /* tag: KF3DS_CHUNK_POS_TRACK_TAG, ... */
    int n, cap;
    kkey *k;
} track;

#define NODE_MAX_TRACKS 8

typedef struct node {
    uint16_t tag;          /* KF3DS_CHUNK_OBJECT_NODE_TAG, ... */
    char name[64], inst[64];
    int has_id;
    uint16_t id;
    int parent;        /* index of the parent node, -1 = none */
    long raw_parent;   /* >= 0: parent field written as is (an id matching nothing) */
    uint16_t flags1, flags2;
    float pivot[3];
    int ntr;
    track tr[NODE_MAX_TRACKS];
    int done;          /* frame-0 world matrix computed */
    mat4 world0;
} node;

typedef struct mesh {
    char name[64];
    const char *material;
    int rest_node;      /* >= 0: MESH_MATRIX = N0(rest)·T(-pivot)[·S(-1,1,1)] */
    int mirrored;
    mat4 matrix;        /* used when rest_node < 0 */
    double center[3], half[3]; /* the box in object-local coordinates */
} mesh;

typedef struct material {
    char name[32];
    uint8_t amb[3], dif[3], spe[3];
} material;

typedef struct camera {
    char name[32];
    float pos[3], target[3], roll, lens;
} camera;

typedef struct light {
    char name[32];
    float pos[3], color[3];
    int spot;
    float target[3], hot, fall;
} light;

typedef struct scene {
    node *nodes;
    int nn, ncap;
    mesh *meshes;
    int nm, mcap;
    material mats[8];
    int nmat;
    camera cams[4];
    int ncam;
    light lights[4];
    int nlight;
    char kfname[13];
    int32_t length, seg_from, seg_to;
} scene;

void scene_init(scene *s, const char *kfname, int32_t length);
void scene_free(scene *s);
/* Appends a node (tag: KF3DS_CHUNK_..._NODE_TAG); returns its index. */
int add_node(scene *s, uint16_t tag, const char *name, int parent);
void set_id(scene *s, int i, uint16_t id);
void set_inst(scene *s, int i, const char *inst);
void set_pivot(scene *s, int i, double x, double y, double z);
/* Appends a track (tag: KF3DS_CHUNK_..._TRACK_TAG) to node i; the pointer is
 * valid until the next add_node moves the nodes. */
track *add_track(scene *s, int i, uint16_t tag, uint16_t flags);
track *find_track(node *n, uint16_t tag);
kkey *add_key(track *t, int32_t frame);
/* key with up to four values */
kkey *key4(track *t, int32_t frame, double a, double b, double c, double d);
kkey *key3(track *t, int32_t frame, double a, double b, double c);
kkey *key1(track *t, int32_t frame, double a);
/* Rotation key: angle in degrees (stored as radians), axis (normalised here). */
kkey *keyrot(track *t, int32_t frame, double deg, double x, double y, double z);
kkey *keyname(track *t, int32_t frame, const char *name);
void tcb(kkey *k, double t, double c, double b);
void ease(kkey *k, double to, double from);
/* Sets some of the TCB values of k, with probability p (random draws). */
void random_tcb(kkey *k, double p);
/* The tracks of an object node that only turns: POS held at (x, y, z), SCL
 * held at 1 and between them an empty ROT track, returned for the caller's
 * keys (valid until the next add_node moves the nodes). */
track *add_turning_tracks(scene *s, int i, uint16_t rot_flags, double x, double y, double z);
int add_mesh(scene *s, const char *name, const char *material, int rest_node, double cx,
             double cy, double cz, double hx, double hy, double hz);
void add_material(scene *s, const char *name, int r, int g, int b);

/* ---- frame-0 evaluation (mk3ds_eval.c) ------------------------------------ */

/* Where node i is at frame 0 (its world translation). */
void node_pos0(scene *s, int i, double out[3]);
/* The MESH_MATRIX of m: its own, or the one its rest node gives it. */
mat4 mesh_matrix(scene *s, const mesh *m);
/* The camera sits where its camera node is at frame 0 and looks at where its
 * target node is, so that the editor data agrees with the keyframer. */
void add_camera_at_nodes(scene *s, const char *name, int cam_node, int target_node, double roll,
                         double lens);
/* A light where its node is at frame 0 (see add_camera_at_nodes). */
light *add_light_at_node(scene *s, const char *name, int light_node, double r, double g,
                         double b);

/* ---- serialising (mk3ds_write.c) ------------------------------------------ */

/* Writes the scene to path (dies on failure). */
void scene_save(scene *s, const char *path);
/* Dies naming `what` when a builder call failed. */
void check_builder(const kf3ds_builder *b, const char *what);
/* A mesh in the builder: points (n x 3), faces (nf x 3 indices, every edge
 * visible), matrix: 12 floats (X, Y, Z axes, origin) or NULL for identity;
 * material: the name of a material for every face (one smoothing group)
 * or NULL. Returns its index. */
int32_t build_mesh(kf3ds_builder *b, const char *name, const float *points, uint32_t n,
                   const uint16_t *faces, uint32_t nf, const float *matrix,
                   const char *material);
/* Finishes the builder, lets `edit` (may be NULL) change the scene, writes
 * it to path; dies on failure. */
void save_built(kf3ds_builder *b, const char *path, void (*edit)(kf3ds_scene *, void *),
                void *user);
/* A track of one key at frame 0 holding n floats (the benchmark files). */
void build_constant_track(kf3ds_builder *b, int node, kf3ds_track_kind kind, const float *v,
                          size_t n);
/* Two triangles (v0 v1 v3) and (v0 v3 v2) for the cell whose corners are v0,
 * v1 in one row and v2, v3 below them; *nf counts the faces written. */
void add_quad(uint16_t *faces, uint32_t *nf, uint16_t v0, uint16_t v1, uint16_t v2, uint16_t v3);
/* MESH_MATRIX of a mesh whose points are stored in place at (x, y, 0):
 * identity axes, that origin. */
void translated_mesh_matrix(float mf[12], double x, double y);

/* ---- the generators ------------------------------------------------------- */

void make_orrery(const char *path);        /* mk3ds_samples.c */
void make_arm(const char *path);
void make_edge(const char *path);
void make_bench_meshes(const char *path);  /* mk3ds_bench.c */
void make_bench_render(const char *path);
void make_bench_render_dense(const char *path);
void make_bench_nodes(const char *path);
void make_random(uint64_t seed, const char *path); /* mk3ds_random.c */
void make_textured(const char *dir);       /* mk3ds_textured.c: textured.3ds and its maps */
void make_bench_render_textured(const char *path);
/* mk3ds_shapes.c: writes the benchmark shape `name` (bench-random, ...) to
 * path; 0 when there is no such shape. */
int make_bench_shape(const char *name, const char *path);

#endif
