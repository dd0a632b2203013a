/* mk3ds: writes the sample files of data/, the benchmark inputs and random
 * scenes for the differential test against lib3ds 1.3.
 *
 *   mk3ds samples DIR          DIR/orrery.3ds, DIR/arm.3ds, DIR/edge.3ds
 *   mk3ds bench-meshes FILE    200 meshes x 20,000 vertices (~90 MB)
 *   mk3ds bench-nodes FILE     2,000 animated object nodes, 60 keys per track
 *   mk3ds bench-render FILE    100 spinning spheres, 100,000 smooth triangles
 *   mk3ds random SEED FILE     a random valid animated scene, deterministic
 *
 * A scene is built in memory (nodes with their tracks, meshes, materials,
 * cameras, lights) and then serialised with write3ds. Mesh geometry is made
 * consistent with the keyframer: a mesh bound to a "rest node" gets
 * MESH_MATRIX = N(0)·T(-pivot) (times S(-1,1,1) when mirrored, as real files
 * do) and its vertices are MESH_MATRIX applied to object-local coordinates, so
 * that the frame-0 pose N(0)·T(-pivot)·M^-1·v reproduces the stored vertices
 * (after lib3ds' mirror fix for a negative determinant). N(0) is computed with
 * the rules of docs evaluation-rules.md (stable key sort, accumulated
 * rotations, first key held before the track starts). */
#include "write3ds.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define DEG(x) ((float)((x) * PI / 180.0))

/* chunk ids */
enum {
    C_AMBIENT_NODE = 0xB001, C_OBJECT_NODE = 0xB002, C_CAMERA_NODE = 0xB003,
    C_TARGET_NODE = 0xB004, C_LIGHT_NODE = 0xB005, C_LTARGET_NODE = 0xB006,
    C_SPOT_NODE = 0xB007,
    C_POS = 0xB020, C_ROT = 0xB021, C_SCL = 0xB022, C_FOV = 0xB023, C_ROLL = 0xB024,
    C_COL = 0xB025, C_MORPH = 0xB026, C_HOT = 0xB027, C_FALL = 0xB028, C_HIDE = 0xB029
};

/* ------------------------------------------------------------------------ */
/* Small utilities                                                          */
/* ------------------------------------------------------------------------ */

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("mk3ds: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory");
    return q;
}

/* Makes room for one more item in an array holding `count` of `*cap`: the
 * capacity doubles (starting at `first_cap`) so that appends stay cheap. */
static void *grow_array(void *items, int count, int *cap, int first_cap, size_t item_size)
{
    if (count < *cap)
        return items;
    *cap = *cap ? 2 * *cap : first_cap;
    return xrealloc(items, (size_t)*cap * item_size);
}

static void copy_name(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        die("name too long: %s", src);
    memcpy(dst, src, n + 1);
}

/* xorshift64 seeded through splitmix64: deterministic on every platform. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static void rng_seed(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    rng_state = z ? z : 0x2545F4914F6CDD1Du;
}

static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static double rnd01(void) /* [0, 1) */
{
    return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

static int rndint(int n) /* 0 .. n-1 */
{
    return (int)(rng_next() % (uint64_t)n);
}

static double rnduni(double a, double b)
{
    return a + (b - a) * rnd01();
}

static int chance(double p)
{
    return rnd01() < p;
}

/* Three draws in a fixed order (never draw twice inside one argument list:
 * the evaluation order of arguments is unspecified and differs by compiler). */
static void rnd3(double out[3], double a, double b)
{
    out[0] = rnduni(a, b);
    out[1] = rnduni(a, b);
    out[2] = rnduni(a, b);
}

/* ------------------------------------------------------------------------ */
/* Matrices: double m[4][4], m[row][col], column vectors                    */
/* ------------------------------------------------------------------------ */

typedef struct mat4 { double m[4][4]; } mat4;

static mat4 mat_identity(void)
{
    mat4 r;
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            r.m[i][j] = i == j;
    return r;
}

static mat4 mat_mul(mat4 a, mat4 b)
{
    mat4 r;
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            double s = 0;
            for (k = 0; k < 4; k++)
                s += a.m[i][k] * b.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

static mat4 mat_translate(double x, double y, double z)
{
    mat4 r = mat_identity();
    r.m[0][3] = x;
    r.m[1][3] = y;
    r.m[2][3] = z;
    return r;
}

static mat4 mat_scale(double x, double y, double z)
{
    mat4 r = mat_identity();
    r.m[0][0] = x;
    r.m[1][1] = y;
    r.m[2][2] = z;
    return r;
}

/* Right-handed rotation by `angle` about axis (x,y,z); zero axis = identity. */
static mat4 mat_rotate(double angle, double x, double y, double z)
{
    mat4 r = mat_identity();
    double len = sqrt(x * x + y * y + z * z), c, s, t;
    if (len < 1e-12)
        return r;
    x /= len;
    y /= len;
    z /= len;
    c = cos(angle);
    s = sin(angle);
    t = 1 - c;
    r.m[0][0] = t * x * x + c;
    r.m[0][1] = t * x * y - s * z;
    r.m[0][2] = t * x * z + s * y;
    r.m[1][0] = t * x * y + s * z;
    r.m[1][1] = t * y * y + c;
    r.m[1][2] = t * y * z - s * x;
    r.m[2][0] = t * x * z - s * y;
    r.m[2][1] = t * y * z + s * x;
    r.m[2][2] = t * z * z + c;
    return r;
}

static void mat_apply(const mat4 *a, const double in[3], double out[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = a->m[i][0] * in[0] + a->m[i][1] * in[1] + a->m[i][2] * in[2] + a->m[i][3];
}

static double mat_det3(const mat4 *a)
{
    const double(*m)[4] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* MESH_MATRIX layout: X axis, Y axis, Z axis, origin (the four columns). */
static void mat_to_mesh_matrix(const mat4 *a, float out[12])
{
    int c, r;
    for (c = 0; c < 4; c++)
        for (r = 0; r < 3; r++)
            out[3 * c + r] = (float)a->m[r][c];
}

/* ------------------------------------------------------------------------ */
/* Scene model                                                              */
/* ------------------------------------------------------------------------ */

typedef struct kkey {
    int32_t frame;
    w3ds_tcb tcb;
    float v[4];      /* POS/SCL/COL: 3; ROT: angle (rad), axis; FOV/ROLL/HOT/FALL: 1 */
    char name[16];   /* MORPH */
} kkey;

typedef struct track {
    uint16_t tag, flags;
    int n, cap;
    kkey *k;
} track;

#define NODE_MAX_TRACKS 8

typedef struct node {
    uint16_t tag;
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

static void scene_init(scene *s, const char *kfname, int32_t length)
{
    memset(s, 0, sizeof *s);
    copy_name(s->kfname, sizeof s->kfname, kfname);
    s->length = length;
    s->seg_from = 0;
    s->seg_to = length;
}

static void scene_free(scene *s)
{
    int i, j;
    for (i = 0; i < s->nn; i++)
        for (j = 0; j < s->nodes[i].ntr; j++)
            free(s->nodes[i].tr[j].k);
    free(s->nodes);
    free(s->meshes);
    memset(s, 0, sizeof *s);
}

static int add_node(scene *s, uint16_t tag, const char *name, int parent)
{
    node *n;
    char copy[sizeof n->name];
    /* name may point into s->nodes (an instance of an earlier node): copied
     * before the array moves. */
    copy_name(copy, sizeof copy, name);
    s->nodes = grow_array(s->nodes, s->nn, &s->ncap, 16, sizeof *s->nodes);
    n = &s->nodes[s->nn];
    memset(n, 0, sizeof *n);
    n->tag = tag;
    copy_name(n->name, sizeof n->name, copy);
    n->parent = parent;
    n->raw_parent = -1;
    return s->nn++;
}

static void set_id(scene *s, int i, uint16_t id)
{
    s->nodes[i].has_id = 1;
    s->nodes[i].id = id;
}

static void set_inst(scene *s, int i, const char *inst)
{
    copy_name(s->nodes[i].inst, sizeof s->nodes[i].inst, inst);
}

static void set_pivot(scene *s, int i, double x, double y, double z)
{
    s->nodes[i].pivot[0] = (float)x;
    s->nodes[i].pivot[1] = (float)y;
    s->nodes[i].pivot[2] = (float)z;
}

static track *add_track(scene *s, int i, uint16_t tag, uint16_t flags)
{
    node *n = &s->nodes[i];
    track *t;
    if (n->ntr == NODE_MAX_TRACKS)
        die("too many tracks on node %s", n->name);
    t = &n->tr[n->ntr++];
    memset(t, 0, sizeof *t);
    t->tag = tag;
    t->flags = flags;
    return t;
}

static kkey *add_key(track *t, int32_t frame)
{
    kkey *k;
    t->k = grow_array(t->k, t->n, &t->cap, 8, sizeof *t->k);
    k = &t->k[t->n++];
    memset(k, 0, sizeof *k);
    k->frame = frame;
    return k;
}

/* key with up to four values */
static kkey *key4(track *t, int32_t frame, double a, double b, double c, double d)
{
    kkey *k = add_key(t, frame);
    k->v[0] = (float)a;
    k->v[1] = (float)b;
    k->v[2] = (float)c;
    k->v[3] = (float)d;
    return k;
}

static kkey *key3(track *t, int32_t frame, double a, double b, double c)
{
    return key4(t, frame, a, b, c, 0);
}

static kkey *key1(track *t, int32_t frame, double a)
{
    return key4(t, frame, a, 0, 0, 0);
}

/* Rotation key: angle in degrees (stored as radians), axis (normalised here). */
static kkey *keyrot(track *t, int32_t frame, double deg, double x, double y, double z)
{
    double len = sqrt(x * x + y * y + z * z);
    if (len > 0) {
        x /= len;
        y /= len;
        z /= len;
    }
    return key4(t, frame, deg * PI / 180.0, x, y, z);
}

static kkey *keyname(track *t, int32_t frame, const char *name)
{
    kkey *k = add_key(t, frame);
    /* lib3ds 1.3 reads morph names into 11 bytes: keep them short */
    if (strlen(name) > 10)
        die("morph target name too long: %s", name);
    copy_name(k->name, sizeof k->name, name);
    return k;
}

static void tcb(kkey *k, double t, double c, double b)
{
    k->tcb.tension = (float)t;
    k->tcb.continuity = (float)c;
    k->tcb.bias = (float)b;
}

static void ease(kkey *k, double to, double from)
{
    k->tcb.ease_to = (float)to;
    k->tcb.ease_from = (float)from;
}

/* The tracks of an object node that only turns: POS held at (x, y, z), SCL
 * held at 1 and between them an empty ROT track, returned for the caller's
 * keys (valid until the next add_node moves the nodes). */
static track *add_turning_tracks(scene *s, int i, uint16_t rot_flags, double x, double y, double z)
{
    track *rot;
    key3(add_track(s, i, C_POS, 0), 0, x, y, z);
    rot = add_track(s, i, C_ROT, rot_flags);
    key3(add_track(s, i, C_SCL, 0), 0, 1, 1, 1);
    return rot;
}

static track *find_track(node *n, uint16_t tag)
{
    int i;
    for (i = 0; i < n->ntr; i++)
        if (n->tr[i].tag == tag)
            return &n->tr[i];
    return NULL;
}

static int add_mesh(scene *s, const char *name, const char *material, int rest_node,
                    double cx, double cy, double cz, double hx, double hy, double hz)
{
    mesh *m;
    s->meshes = grow_array(s->meshes, s->nm, &s->mcap, 16, sizeof *s->meshes);
    m = &s->meshes[s->nm];
    memset(m, 0, sizeof *m);
    copy_name(m->name, sizeof m->name, name);
    m->material = material;
    m->rest_node = rest_node;
    m->matrix = mat_identity();
    m->center[0] = cx;
    m->center[1] = cy;
    m->center[2] = cz;
    m->half[0] = hx;
    m->half[1] = hy;
    m->half[2] = hz;
    return s->nm++;
}

static void add_material(scene *s, const char *name, int r, int g, int b)
{
    material *m;
    if (s->nmat == (int)(sizeof s->mats / sizeof s->mats[0]))
        die("too many materials");
    m = &s->mats[s->nmat++];
    copy_name(m->name, sizeof m->name, name);
    m->dif[0] = (uint8_t)r;
    m->dif[1] = (uint8_t)g;
    m->dif[2] = (uint8_t)b;
    m->amb[0] = (uint8_t)(r * 3 / 10);
    m->amb[1] = (uint8_t)(g * 3 / 10);
    m->amb[2] = (uint8_t)(b * 3 / 10);
    m->spe[0] = m->spe[1] = m->spe[2] = 229;
}

/* ------------------------------------------------------------------------ */
/* Frame-0 evaluation (evaluation-rules.md, only what t = 0 needs)          */
/* ------------------------------------------------------------------------ */

/* Stable sort of key indices by frame. */
static int *sorted_keys(const track *t)
{
    int *ix = xrealloc(NULL, (size_t)(t->n ? t->n : 1) * sizeof *ix);
    int i, j;
    memset(ix, 0, (size_t)(t->n ? t->n : 1) * sizeof *ix); /* quiets gcc -O3 */
    for (i = 0; i < t->n; i++) {
        int v = i;
        for (j = i; j > 0 && t->k[ix[j - 1]].frame > t->k[v].frame; j--)
            ix[j] = ix[j - 1];
        ix[j] = v;
    }
    return ix;
}

/* Value of a scalar/vector track at frame 0: the last key at or before 0
 * (the later of equal frames), or the first key when the track starts later. */
static void track_value0(const track *t, double out[3])
{
    int *ix, i, pick;
    if (!t || t->n == 0)
        return;
    ix = sorted_keys(t);
    pick = ix[0];
    for (i = 0; i < t->n && t->k[ix[i]].frame <= 0; i++)
        pick = ix[i];
    if (t->k[pick].frame < 0 && i < t->n)
        die("frame-0 value between keys is not supported by the generator");
    for (i = 0; i < 3; i++)
        out[i] = t->k[pick].v[i];
    free(ix);
}

/* Accumulated rotation at frame 0: R_0 = Rot(a_0, -θ_0), R_k = Rot(a_k, -θ_k)·R_{k-1}. */
static mat4 track_rot0(const track *t)
{
    mat4 r = mat_identity();
    int *ix, i;
    if (!t || t->n == 0)
        return r;
    ix = sorted_keys(t);
    for (i = 0; i < t->n; i++) {
        const kkey *k = &t->k[ix[i]];
        if (i > 0 && k->frame > 0)
            break;
        if (k->frame < 0 && i + 1 < t->n && t->k[ix[i + 1]].frame > 0)
            die("frame-0 rotation between keys is not supported by the generator");
        r = mat_mul(mat_rotate(-k->v[0], k->v[1], k->v[2], k->v[3]), r);
    }
    free(ix);
    return r;
}

static mat4 node_world0(scene *s, int i)
{
    node *n = &s->nodes[i];
    mat4 local = mat_identity(), parent = mat_identity();
    double pos[3] = {0, 0, 0}, scl[3] = {1, 1, 1};

    if (n->done)
        return n->world0;
    if (n->parent >= 0) {
        if (n->parent >= i)
            die("parent of %s must come earlier", n->name);
        parent = node_world0(s, n->parent);
    }
    track_value0(find_track(n, C_POS), pos);
    switch (n->tag) {
    case C_OBJECT_NODE:
        track_value0(find_track(n, C_SCL), scl);
        local = mat_mul(mat_mul(mat_translate(pos[0], pos[1], pos[2]), track_rot0(find_track(n, C_ROT))),
                        mat_scale(scl[0], scl[1], scl[2]));
        break;
    case C_AMBIENT_NODE:
        break;
    default: /* cameras, targets, lights: translation only */
        local = mat_translate(pos[0], pos[1], pos[2]);
        break;
    }
    n->world0 = mat_mul(parent, local);
    n->done = 1;
    return n->world0;
}

static void node_pos0(scene *s, int i, double out[3])
{
    mat4 w = node_world0(s, i);
    out[0] = w.m[0][3];
    out[1] = w.m[1][3];
    out[2] = w.m[2][3];
}

/* The camera sits where its camera node is at frame 0 and looks at where its
 * target node is, so that the editor data agrees with the keyframer. */
static void add_camera_at_nodes(scene *s, const char *name, int cam_node, int target_node,
                                double roll, double lens)
{
    camera *c = &s->cams[s->ncam++];
    double pos[3], tgt[3];
    int i;
    node_pos0(s, cam_node, pos);
    node_pos0(s, target_node, tgt);
    copy_name(c->name, sizeof c->name, name);
    for (i = 0; i < 3; i++) {
        c->pos[i] = (float)pos[i];
        c->target[i] = (float)tgt[i];
    }
    c->roll = (float)roll;
    c->lens = (float)lens;
}

/* A light where its node is at frame 0 (see add_camera_at_nodes). */
static light *add_light_at_node(scene *s, const char *name, int light_node, double r, double g,
                                double b)
{
    light *l = &s->lights[s->nlight++];
    double pos[3];
    int i;
    node_pos0(s, light_node, pos);
    memset(l, 0, sizeof *l);
    copy_name(l->name, sizeof l->name, name);
    for (i = 0; i < 3; i++)
        l->pos[i] = (float)pos[i];
    l->color[0] = (float)r;
    l->color[1] = (float)g;
    l->color[2] = (float)b;
    return l;
}

static mat4 mesh_matrix(scene *s, const mesh *m)
{
    mat4 r;
    const node *n;
    if (m->rest_node < 0)
        return m->matrix;
    r = node_world0(s, m->rest_node);
    n = &s->nodes[m->rest_node];
    r = mat_mul(r, mat_translate(-n->pivot[0], -n->pivot[1], -n->pivot[2]));
    if (m->mirrored)
        r = mat_mul(r, mat_scale(-1, 1, 1));
    return r;
}

/* ------------------------------------------------------------------------ */
/* Serialisation                                                            */
/* ------------------------------------------------------------------------ */

static const uint16_t box_faces[36] = {
    0, 2, 3, 0, 3, 1, /* -Z */
    4, 5, 7, 4, 7, 6, /* +Z */
    0, 1, 5, 0, 5, 4, /* -Y */
    2, 6, 7, 2, 7, 3, /* +Y */
    0, 4, 6, 0, 6, 2, /* -X */
    1, 3, 7, 1, 7, 5  /* +X */
};

/* A box mesh: 8 corners of the object-local box placed by `mm`; faces wound
 * outward in world space (reversed when mm mirrors). */
static void write_box(w3ds *w, const char *name, const mat4 *mm, const double c[3],
                      const double h[3], const char *material)
{
    float pts[24], mf[12];
    uint16_t faces[36];
    int i;
    int flip = mat_det3(mm) < 0;
    for (i = 0; i < 8; i++) {
        double l[3], v[3];
        l[0] = c[0] + ((i & 1) ? h[0] : -h[0]);
        l[1] = c[1] + ((i & 2) ? h[1] : -h[1]);
        l[2] = c[2] + ((i & 4) ? h[2] : -h[2]);
        mat_apply(mm, l, v);
        pts[3 * i] = (float)v[0];
        pts[3 * i + 1] = (float)v[1];
        pts[3 * i + 2] = (float)v[2];
    }
    for (i = 0; i < 12; i++) {
        faces[3 * i] = box_faces[3 * i];
        faces[3 * i + 1] = box_faces[3 * i + (flip ? 2 : 1)];
        faces[3 * i + 2] = box_faces[3 * i + (flip ? 1 : 2)];
    }
    mat_to_mesh_matrix(mm, mf);
    w3ds_mesh(w, name, pts, 8, faces, 12, mf, material);
}

static void write_track(w3ds *w, const track *t)
{
    int i;
    w3ds_begin(w, t->tag);
    w3ds_track_header(w, t->flags, (uint32_t)t->n);
    for (i = 0; i < t->n; i++) {
        const kkey *k = &t->k[i];
        w3ds_key_header(w, k->frame, &k->tcb);
        switch (t->tag) {
        case C_POS:
        case C_SCL:
        case C_COL:
            w3ds_f32v(w, k->v, 3);
            break;
        case C_ROT:
            w3ds_f32v(w, k->v, 4);
            break;
        case C_FOV:
        case C_ROLL:
        case C_HOT:
        case C_FALL:
            w3ds_f32(w, k->v[0]);
            break;
        case C_MORPH:
            w3ds_cstr(w, k->name);
            break;
        default: /* HIDE: no value */
            break;
        }
    }
    w3ds_end(w);
}

static uint16_t node_ident(const scene *s, int i)
{
    return s->nodes[i].has_id ? s->nodes[i].id : (uint16_t)i;
}

static void write_node(w3ds *w, const scene *s, int i)
{
    const node *n = &s->nodes[i];
    uint16_t parent;
    int j;

    if (n->raw_parent >= 0)
        parent = (uint16_t)n->raw_parent;
    else if (n->parent < 0)
        parent = 0xFFFF;
    else
        parent = node_ident(s, n->parent);

    w3ds_begin(w, n->tag);
    if (n->has_id) {
        w3ds_begin(w, 0xB030);
        w3ds_u16(w, n->id);
        w3ds_end(w);
    }
    w3ds_node_hdr(w, n->name, n->flags1, n->flags2, parent);
    if (n->inst[0]) {
        w3ds_begin(w, 0xB011);
        w3ds_cstr(w, n->inst);
        w3ds_end(w);
    }
    if (n->tag == C_OBJECT_NODE) {
        w3ds_begin(w, 0xB013);
        w3ds_f32v(w, n->pivot, 3);
        w3ds_end(w);
    }
    for (j = 0; j < n->ntr; j++)
        write_track(w, &n->tr[j]);
    w3ds_end(w);
}

/* Opens KFDATA (closed by finish_file) with its header, segment and time. */
static void begin_kfdata(w3ds *w, const char *name, int32_t length, int32_t from, int32_t to)
{
    w3ds_begin(w, 0xB000); /* KFDATA */
    w3ds_begin(w, 0xB00A); /* KFHDR */
    w3ds_u16(w, 5);
    w3ds_cstr(w, name);
    w3ds_u32(w, (uint32_t)length);
    w3ds_end(w);
    w3ds_begin(w, 0xB008); /* KFSEG */
    w3ds_i32(w, from);
    w3ds_i32(w, to);
    w3ds_end(w);
    w3ds_begin(w, 0xB009); /* KFCURTIME */
    w3ds_i32(w, 0);
    w3ds_end(w);
}

/* Starts a file in w: M3DMAGIC and MDATA stay open for the editor data. */
static void start_file(w3ds *w)
{
    w3ds_init(w);
    w3ds_begin(w, 0x4D4D); /* M3DMAGIC */
    w3ds_begin(w, 0x0002); /* M3D_VERSION */
    w3ds_u32(w, 3);
    w3ds_end(w);
    w3ds_begin(w, 0x3D3D); /* MDATA */
    w3ds_begin(w, 0x3D3E); /* MESH_VERSION */
    w3ds_u32(w, 3);
    w3ds_end(w);
    w3ds_begin(w, 0x0100); /* MASTER_SCALE */
    w3ds_f32(w, 1.0f);
    w3ds_end(w);
}

/* Two triangles (v0 v1 v3) and (v0 v3 v2) for the cell whose corners are v0,
 * v1 in one row and v2, v3 below them; *nf counts the faces written. */
static void add_quad(uint16_t *faces, uint32_t *nf, uint16_t v0, uint16_t v1, uint16_t v2,
                     uint16_t v3)
{
    uint16_t *f = faces + 3 * *nf;
    f[0] = v0;
    f[1] = v1;
    f[2] = v3;
    f[3] = v0;
    f[4] = v3;
    f[5] = v2;
    *nf += 2;
}

/* MESH_MATRIX of a mesh whose points are stored in place at (x, y, 0):
 * identity axes, that origin. */
static void translated_mesh_matrix(float mf[12], double x, double y)
{
    static const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    memcpy(mf, identity, sizeof identity);
    mf[9] = (float)x;
    mf[10] = (float)y;
}

/* A track of one key at frame 0 holding n floats (the benchmark files). */
static void write_constant_track(w3ds *w, uint16_t id, const float *v, size_t n)
{
    w3ds_begin(w, id);
    w3ds_track_header(w, 0, 1);
    w3ds_key_header(w, 0, NULL);
    w3ds_f32v(w, v, n);
    w3ds_end(w);
}

/* Closes KFDATA and M3DMAGIC, writes the file and frees w. */
static void finish_file(w3ds *w, const char *path)
{
    w3ds_end(w); /* KFDATA */
    w3ds_end(w); /* M3DMAGIC */
    if (w->failed)
        die("%s: writer failed (out of memory or a count overflow)", path);
    if (w->depth != 0)
        die("%s: unbalanced chunks", path);
    if (w3ds_save(w, path) != 0)
        die("%s: cannot write", path);
    w3ds_free(w);
}

static void scene_save(scene *s, const char *path)
{
    w3ds w;
    int i;

    start_file(&w);
    for (i = 0; i < s->nmat; i++)
        w3ds_material(&w, s->mats[i].name, s->mats[i].amb, s->mats[i].dif, s->mats[i].spe);
    for (i = 0; i < s->nm; i++) {
        mat4 mm = mesh_matrix(s, &s->meshes[i]);
        write_box(&w, s->meshes[i].name, &mm, s->meshes[i].center, s->meshes[i].half,
                  s->meshes[i].material);
    }
    for (i = 0; i < s->ncam; i++)
        w3ds_camera(&w, s->cams[i].name, s->cams[i].pos, s->cams[i].target, s->cams[i].roll,
                    s->cams[i].lens);
    for (i = 0; i < s->nlight; i++) {
        const light *l = &s->lights[i];
        w3ds_light(&w, l->name, l->pos, l->color, l->spot ? l->target : NULL, l->hot, l->fall);
    }
    w3ds_end(&w); /* MDATA */

    begin_kfdata(&w, s->kfname, s->length, s->seg_from, s->seg_to);
    for (i = 0; i < s->nn; i++)
        write_node(&w, s, i);
    finish_file(&w, path);
}

/* ------------------------------------------------------------------------ */
/* Sample: orrery                                                           */
/* ------------------------------------------------------------------------ */

static void make_orrery(const char *path)
{
    scene s;
    int sun, orbit, planet, moon, cam, tgt, lamp;
    track *t;
    kkey *k;

    scene_init(&s, "orrery", 100);
    add_material(&s, "Sun", 255, 200, 40);
    add_material(&s, "Planet", 60, 110, 230);
    add_material(&s, "Moon", 170, 170, 170);

    /* 0: the sun spins two full turns in one key (720°), looping. */
    sun = add_node(&s, C_OBJECT_NODE, "Sun", -1);
    set_pivot(&s, sun, 0, 0, 0);
    t = add_turning_tracks(&s, sun, 3, 0, 0, 0);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 100, 720, 0, 0, 1);

    /* 1: the planet's orbit, a rotating dummy: four -90° increments about Z
     * (counter-clockwise seen from above), TCB inside, ease at both ends. */
    orbit = add_node(&s, C_OBJECT_NODE, "$$$DUMMY", -1);
    set_inst(&s, orbit, "PlanetOrbit");
    t = add_turning_tracks(&s, orbit, 0, 0, 0, 0);
    k = keyrot(t, 0, 0, 0, 0, 1);
    ease(k, 0, 0.4);
    k = keyrot(t, 25, -90, 0, 0, 1);
    tcb(k, 0.3, 0, 0);
    k = keyrot(t, 50, -90, 0, 0, 1);
    tcb(k, 0, -0.2, 0.3);
    k = keyrot(t, 75, -90, 0, 0, 1);
    tcb(k, -0.2, 0, 0);
    k = keyrot(t, 100, -90, 0, 0, 1);
    ease(k, 0.4, 0);

    /* 2: the planet, 40 units out on the orbit, tilted, spinning once. */
    planet = add_node(&s, C_OBJECT_NODE, "Planet", orbit);
    set_pivot(&s, planet, 0, 0, 0.5);
    t = add_turning_tracks(&s, planet, 0, 40, 0, 0);
    keyrot(t, 0, 23.5, 1, 0, 0);
    k = keyrot(t, 30, -120, 0, 0, 1);
    tcb(k, 0, 0.25, 0);
    k = keyrot(t, 60, -120, 0, 0, 1);
    tcb(k, 0.4, 0, -0.3);
    keyrot(t, 100, -120, 0, 0, 1);

    /* 3: the moon, 10 units from the planet in its (spinning) frame. */
    moon = add_node(&s, C_OBJECT_NODE, "Moon", planet);
    set_pivot(&s, moon, -1, 0, 0);
    key3(add_track(&s, moon, C_POS, 0), 0, 10, 0, 0);
    t = add_track(&s, moon, C_ROT, 0);
    keyrot(t, 0, 30, 1, 1, 0);
    keyrot(t, 50, 150, 0, 0, 1);
    keyrot(t, 100, 150, 0, 1, 0);
    t = add_track(&s, moon, C_SCL, 0);
    k = key3(t, 0, 1, 1, 1);
    ease(k, 0, 0.5);
    k = key3(t, 50, 1.3, 1.3, 1.3);
    tcb(k, 0.5, 0, 0);
    k = key3(t, 100, 1, 1, 1);
    ease(k, 0.5, 0);

    /* 4, 5: camera and its animated target. */
    cam = add_node(&s, C_CAMERA_NODE, "Camera01", -1);
    t = add_track(&s, cam, C_POS, 0);
    key3(t, 0, 0, -160, 90);
    k = key3(t, 50, 90, -120, 70);
    tcb(k, 0, 0.2, 0);
    key3(t, 100, 0, -160, 90);
    tgt = add_node(&s, C_TARGET_NODE, "Camera01", -1);
    t = add_track(&s, tgt, C_POS, 0);
    key3(t, 0, 0, 0, 0);
    key3(t, 50, 20, 10, 0);
    key3(t, 100, 0, 0, 0);

    /* 6: omni light above the sun. */
    lamp = add_node(&s, C_LIGHT_NODE, "Light01", -1);
    key3(add_track(&s, lamp, C_POS, 0), 0, 0, 0, 70);
    key3(add_track(&s, lamp, C_COL, 0), 0, 1, 0.95, 0.8);

    add_mesh(&s, "Sun", "Sun", sun, 0, 0, 0, 8, 8, 8);
    add_mesh(&s, "Planet", "Planet", planet, 0, 0, 0, 4, 4, 4);
    add_mesh(&s, "Moon", "Moon", moon, 0, 0, 0, 1.5, 1.5, 1.5);
    add_camera_at_nodes(&s, "Camera01", cam, tgt, 0, 35);
    add_light_at_node(&s, "Light01", lamp, 1, 0.95, 0.8);

    scene_save(&s, path);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Sample: arm                                                              */
/* ------------------------------------------------------------------------ */

/* A scalar track of the 60-frame arm scene: `ends` at frames 0 and 60,
 * `middle` at frame 30. */
static void add_out_and_back_track(scene *s, int i, uint16_t tag, double ends, double middle)
{
    track *t = add_track(s, i, tag, 0);
    key1(t, 0, ends);
    key1(t, 30, middle);
    key1(t, 60, ends);
}

static void make_arm(const char *path)
{
    scene s;
    int base, upper, fore, hand, fl, fr, spot, stgt, cam, ctgt, m;
    track *t;
    kkey *k;
    double spot_target[3];
    light *l;

    scene_init(&s, "arm", 60);
    add_material(&s, "Steel", 180, 180, 190);
    add_material(&s, "Orange", 240, 120, 20);
    add_material(&s, "Rubber", 40, 40, 40);

    /* Each box is centred on its local origin; the pivot is the joint at the
     * bottom of the box; POS is the joint in the parent's pivot frame. */
    base = add_node(&s, C_OBJECT_NODE, "Base", -1);
    set_pivot(&s, base, 0, 0, -5);
    t = add_turning_tracks(&s, base, 0, 0, 0, 0);
    keyrot(t, 0, 30, 0, 0, 1);
    k = keyrot(t, 20, -60, 0, 0, 1);
    tcb(k, 0.2, 0, 0);
    keyrot(t, 40, -60, 0, 0, 1);
    keyrot(t, 60, 90, 0, 0, 1);

    upper = add_node(&s, C_OBJECT_NODE, "UpperArm", base);
    set_pivot(&s, upper, 0, 0, -15);
    t = add_turning_tracks(&s, upper, 0, 0, 0, 10);
    keyrot(t, 0, -25, 1, 0, 0);
    k = keyrot(t, 15, 40, 1, 0, 0);
    tcb(k, 0, 0.3, 0);
    keyrot(t, 30, -30, 1, 0, 0);
    k = keyrot(t, 45, 20, 1, 0, 0);
    tcb(k, 0, 0, 0.4);
    keyrot(t, 60, -5, 1, 0, 0);

    fore = add_node(&s, C_OBJECT_NODE, "Forearm", upper);
    set_pivot(&s, fore, 0, 0, -12);
    t = add_turning_tracks(&s, fore, 0, 0, 0, 30);
    keyrot(t, 0, -60, 1, 0, 0);
    keyrot(t, 20, 50, 1, 0, 0);
    k = keyrot(t, 40, -70, 1, 0, 0);
    tcb(k, 0.5, 0, 0);
    keyrot(t, 60, 20, 1, 0, 0);

    /* The hand twists about the forearm's long axis, switches to the open
     * hand mesh between frames 30 and 50 and is hidden between 40 and 50. */
    hand = add_node(&s, C_OBJECT_NODE, "Hand", fore);
    set_pivot(&s, hand, 0, 0, -3);
    t = add_turning_tracks(&s, hand, 0, 0, 0, 24);
    keyrot(t, 0, 10, 0, 0, 1);
    keyrot(t, 30, 90, 0, 0, 1);
    keyrot(t, 60, -100, 0, 0, 1);
    t = add_track(&s, hand, C_HIDE, 0);
    add_key(t, 0);
    add_key(t, 40);
    add_key(t, 50);
    t = add_track(&s, hand, C_MORPH, 0);
    keyname(t, 0, "Hand");
    keyname(t, 30, "HandOpen");
    keyname(t, 50, "Hand");

    fl = add_node(&s, C_OBJECT_NODE, "FingerL", hand);
    set_pivot(&s, fl, 0, 0, -3);
    t = add_turning_tracks(&s, fl, 0, 2.5, 0, 6);
    keyrot(t, 0, -15, 0, 1, 0);
    keyrot(t, 30, 20, 0, 1, 0);
    keyrot(t, 60, -20, 0, 1, 0);

    /* The right finger is the left one mirrored: its MESH_MATRIX has a
     * negative determinant. */
    fr = add_node(&s, C_OBJECT_NODE, "FingerR", hand);
    set_pivot(&s, fr, 0, 0, -3);
    t = add_turning_tracks(&s, fr, 0, -2.5, 0, 6);
    keyrot(t, 0, 15, 0, 1, 0);
    keyrot(t, 30, -20, 0, 1, 0);
    keyrot(t, 60, 20, 0, 1, 0);

    spot = add_node(&s, C_SPOT_NODE, "Spot01", -1);
    t = add_track(&s, spot, C_POS, 0);
    key3(t, 0, -50, -40, 90);
    key3(t, 60, -30, -60, 90);
    t = add_track(&s, spot, C_COL, 0);
    key3(t, 0, 1, 1, 1);
    k = key3(t, 30, 1, 0.6, 0.3);
    tcb(k, 0.25, 0, 0);
    key3(t, 60, 1, 1, 1);
    add_out_and_back_track(&s, spot, C_HOT, 25, 15);
    add_out_and_back_track(&s, spot, C_FALL, 40, 30);
    stgt = add_node(&s, C_LTARGET_NODE, "Spot01", -1);
    t = add_track(&s, stgt, C_POS, 0);
    key3(t, 0, 0, 0, 40);
    key3(t, 60, 10, 5, 50);

    cam = add_node(&s, C_CAMERA_NODE, "Cam01", -1);
    t = add_track(&s, cam, C_POS, 0);
    key3(t, 0, 90, -90, 70);
    key3(t, 60, 70, -110, 60);
    add_out_and_back_track(&s, cam, C_FOV, 48, 35);
    add_out_and_back_track(&s, cam, C_ROLL, 0, 8);
    ctgt = add_node(&s, C_TARGET_NODE, "Cam01", -1);
    t = add_track(&s, ctgt, C_POS, 0);
    key3(t, 0, 0, 0, 35);
    key3(t, 60, 0, 0, 45);

    add_mesh(&s, "Base", "Steel", base, 0, 0, 0, 10, 10, 5);
    add_mesh(&s, "UpperArm", "Orange", upper, 0, 0, 0, 3, 3, 15);
    add_mesh(&s, "Forearm", "Orange", fore, 0, 0, 0, 2.5, 2.5, 12);
    add_mesh(&s, "Hand", "Steel", hand, 0, 0, 0, 4, 2, 3);
    add_mesh(&s, "HandOpen", "Steel", hand, 0, 0, 0.5, 5, 1.5, 3.5); /* morph target */
    add_mesh(&s, "FingerL", "Rubber", fl, 0, 0, 0, 0.75, 1, 3);
    m = add_mesh(&s, "FingerR", "Rubber", fr, 0, 0, 0, 0.75, 1, 3);
    s.meshes[m].mirrored = 1;

    add_camera_at_nodes(&s, "Cam01", cam, ctgt, 0, 2400.0 / 48.0);
    l = add_light_at_node(&s, "Spot01", spot, 1, 1, 1);
    node_pos0(&s, stgt, spot_target);
    l->spot = 1;
    l->target[0] = (float)spot_target[0];
    l->target[1] = (float)spot_target[1];
    l->target[2] = (float)spot_target[2];
    l->hot = 25;
    l->fall = 40;

    scene_save(&s, path);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Sample: edge                                                             */
/* ------------------------------------------------------------------------ */

static void make_edge(const char *path)
{
    scene s;
    int amb, a, b, c, dummy, d, e;
    track *t;
    kkey *k;

    scene_init(&s, "edge", 100);
    add_material(&s, "Grey", 128, 128, 128);

    /* 0: ambient first, so every later file-order index counts it. */
    amb = add_node(&s, C_AMBIENT_NODE, "$AMBIENT$", -1);
    t = add_track(&s, amb, C_COL, 0);
    key3(t, 0, 0.1, 0.1, 0.1);
    k = key3(t, 50, 0.4, 0.3, 0.2);
    tcb(k, 0.5, 0, 0);
    key3(t, 100, 0.1, 0.1, 0.1);

    /* 1: BoxA, NODE_ID 100. POS keys out of order; ROT flags 1 (wrap). */
    a = add_node(&s, C_OBJECT_NODE, "BoxA", -1);
    set_id(&s, a, 100);
    t = add_track(&s, a, C_POS, 0);
    key3(t, 30, 20, 0, 0);
    key3(t, 0, 0, 0, 0);
    key3(t, 15, 10, 10, 0);
    t = add_track(&s, a, C_ROT, 1);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 20, -90, 0, 0, 1);
    key3(add_track(&s, a, C_SCL, 0), 0, 1, 1, 1);

    /* 2: BoxB, NODE_ID 101, child of 100. POS flags 2 with two keys on
     * frame 10; ROT flags 3 (loop), four -90° turns about X. */
    b = add_node(&s, C_OBJECT_NODE, "BoxB", a);
    set_id(&s, b, 101);
    set_pivot(&s, b, 0, 0, -2);
    t = add_track(&s, b, C_POS, 2);
    key3(t, 0, 15, 0, 0);
    key3(t, 10, 15, 5, 0);
    key3(t, 10, 15, 10, 0);
    key3(t, 20, 15, 0, 0);
    t = add_track(&s, b, C_ROT, 3);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 10, -90, 1, 0, 0);
    keyrot(t, 20, -90, 1, 0, 0);
    keyrot(t, 30, -90, 1, 0, 0);
    keyrot(t, 40, -90, 1, 0, 0);
    t = add_track(&s, b, C_SCL, 0);
    key3(t, 0, 1, 1, 1);
    key3(t, 25, 1.5, 1, 1);
    key3(t, 50, 1, 1, 1);

    /* 3: BoxC, no NODE_ID (id 3), parent 777 which matches nothing; its POS
     * track starts at frame 20. */
    c = add_node(&s, C_OBJECT_NODE, "BoxC", -1);
    s.nodes[c].raw_parent = 777;
    set_pivot(&s, c, 1, 1, 0);
    t = add_track(&s, c, C_POS, 0);
    key3(t, 20, -30, 0, 0);
    key3(t, 40, -30, 20, 0);
    key3(t, 60, -30, 20, 10);
    keyrot(add_track(&s, c, C_ROT, 0), 0, 45, 0, 0, 1);
    key3(add_track(&s, c, C_SCL, 0), 0, 1, 1, 1);

    /* 4: a dummy, NODE_ID 102, child of BoxB (101). */
    dummy = add_node(&s, C_OBJECT_NODE, "$$$DUMMY", b);
    set_id(&s, dummy, 102);
    set_inst(&s, dummy, "Helper");
    t = add_turning_tracks(&s, dummy, 0, 0, 0, 10);
    keyrot(t, 0, 0, 0, 0, 1);
    keyrot(t, 50, -90, 0, 0, 1);

    /* 5: BoxD, no NODE_ID (id 5), child of the dummy (102); a rotation key
     * with angle 0 and a zero axis (identity). */
    d = add_node(&s, C_OBJECT_NODE, "BoxD", dummy);
    keyrot(add_turning_tracks(&s, d, 0, 5, 0, 0), 0, 0, 0, 0, 0);

    /* 6: BoxE, no NODE_ID, parent 3 = BoxC by file-order index. */
    e = add_node(&s, C_OBJECT_NODE, "BoxE", c);
    keyrot(add_turning_tracks(&s, e, 0, 0, 0, 8), 0, 0, 0, 0, 1);

    add_mesh(&s, "BoxA", "Grey", a, 0, 0, 0, 5, 5, 5);
    add_mesh(&s, "BoxB", "Grey", b, 0, 0, 0, 2, 2, 2);
    add_mesh(&s, "BoxC", "Grey", c, 0, 0, 0, 3, 3, 3);
    add_mesh(&s, "BoxD", "Grey", d, 0, 0, 0, 1, 1, 1);
    add_mesh(&s, "BoxE", "Grey", e, 0, 0, 0, 1, 1, 1);

    scene_save(&s, path);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                               */
/* ------------------------------------------------------------------------ */

#define BM_MESHES 200
#define BM_COLS 200
#define BM_ROWS 100      /* 20,000 vertices */
#define BM_FACE_ROWS 65  /* 65 rows of 199 cells, 2 triangles each: 25,870 faces */

static void make_bench_meshes(const char *path)
{
    w3ds w;
    float *pts = xrealloc(NULL, (size_t)BM_ROWS * BM_COLS * 3 * sizeof *pts);
    uint16_t *faces = xrealloc(NULL, (size_t)BM_FACE_ROWS * (BM_COLS - 1) * 6 * sizeof *faces);
    uint32_t nf = 0;
    int i, r, c;
    char name[32];

    for (r = 0; r < BM_FACE_ROWS; r++)
        for (c = 0; c < BM_COLS - 1; c++) {
            uint16_t v0 = (uint16_t)(r * BM_COLS + c), v1 = (uint16_t)(v0 + 1);
            uint16_t v2 = (uint16_t)(v0 + BM_COLS), v3 = (uint16_t)(v2 + 1);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }

    start_file(&w);
    for (i = 0; i < BM_MESHES; i++) {
        double ox = (i % 20) * 250.0, oy = (i / 20) * 150.0;
        float mf[12];
        translated_mesh_matrix(mf, ox, oy);
        for (r = 0; r < BM_ROWS; r++)
            for (c = 0; c < BM_COLS; c++) {
                float *p = pts + 3 * (r * BM_COLS + c);
                p[0] = (float)(ox + c);
                p[1] = (float)(oy + r);
                p[2] = (float)(3.0 * sin(c * 0.1 + i) * cos(r * 0.13));
            }
        snprintf(name, sizeof name, "Grid%03d", i);
        w3ds_mesh(&w, name, pts, BM_ROWS * BM_COLS, faces, nf, mf, NULL);
    }
    w3ds_end(&w); /* MDATA */

    begin_kfdata(&w, "benchmsh", 100, 0, 100);
    for (i = 0; i < BM_MESHES; i++) {
        double ox = (i % 20) * 250.0, oy = (i / 20) * 150.0;
        snprintf(name, sizeof name, "Grid%03d", i);
        w3ds_begin(&w, C_OBJECT_NODE);
        w3ds_node_hdr(&w, name, 0, 0, 0xFFFF);
        w3ds_begin(&w, 0xB013);
        w3ds_f32(&w, 0);
        w3ds_f32(&w, 0);
        w3ds_f32(&w, 0);
        w3ds_end(&w);
        {
            const float pos[3] = {(float)ox, (float)oy, 0}, rot[4] = {0, 0, 0, 1};
            const float scl[3] = {1, 1, 1};
            write_constant_track(&w, C_POS, pos, 3);
            write_constant_track(&w, C_ROT, rot, 4);
            write_constant_track(&w, C_SCL, scl, 3);
        }
        w3ds_end(&w);
    }
    finish_file(&w, path);
    free(pts);
    free(faces);
}

#define BR_MESHES 100
#define BR_LAT 20  /* latitude bands */
#define BR_LON 25  /* longitude segments: 2 * 20 * 25 = 1,000 triangles a sphere */

/* The render benchmark: a 10 x 10 grid of UV spheres (one smoothing group,
 * one material each), every one spinning a full turn about Z over 0..100 in
 * four 90-degree keys. */
static void make_bench_render(const char *path)
{
    static const uint8_t amb[3] = {40, 40, 40}, spec[3] = {200, 200, 200};
    w3ds w;
    float pts[(BR_LAT + 1) * BR_LON * 3];
    uint16_t faces[2 * BR_LAT * BR_LON * 3];
    uint32_t nf = 0;
    int i, a, b, k;
    char name[32], mat[32];

    for (a = 0; a < BR_LAT; a++)
        for (b = 0; b < BR_LON; b++) {
            uint16_t v0 = (uint16_t)(a * BR_LON + b);
            uint16_t v1 = (uint16_t)(a * BR_LON + (b + 1) % BR_LON);
            uint16_t v2 = (uint16_t)(v0 + BR_LON), v3 = (uint16_t)(v1 + BR_LON);
            add_quad(faces, &nf, v0, v1, v2, v3);
        }
    start_file(&w);
    for (i = 0; i < BR_MESHES; i++) {
        uint8_t diffuse[3];
        diffuse[0] = (uint8_t)(80 + (i * 37) % 170);
        diffuse[1] = (uint8_t)(80 + (i * 73) % 170);
        diffuse[2] = (uint8_t)(80 + (i * 151) % 170);
        snprintf(mat, sizeof mat, "Mat%03d", i);
        w3ds_material(&w, mat, amb, diffuse, spec);
    }
    for (i = 0; i < BR_MESHES; i++) {
        double cx = (i % 10) * 30.0, cy = (i / 10) * 30.0;
        float mf[12];
        translated_mesh_matrix(mf, cx, cy);
        for (a = 0; a <= BR_LAT; a++)
            for (b = 0; b < BR_LON; b++) {
                double th = 3.14159265358979 * a / BR_LAT, ph = 6.28318530717959 * b / BR_LON;
                float *p = pts + 3 * (a * BR_LON + b);
                p[0] = (float)(cx + 10.0 * sin(th) * cos(ph));
                p[1] = (float)(cy + 10.0 * sin(th) * sin(ph));
                p[2] = (float)(10.0 * cos(th));
            }
        snprintf(name, sizeof name, "Ball%03d", i);
        snprintf(mat, sizeof mat, "Mat%03d", i);
        w3ds_mesh(&w, name, pts, (BR_LAT + 1) * BR_LON, faces, nf, mf, mat);
    }
    w3ds_end(&w); /* MDATA */

    begin_kfdata(&w, "benchrnd", 100, 0, 100);
    for (i = 0; i < BR_MESHES; i++) {
        snprintf(name, sizeof name, "Ball%03d", i);
        w3ds_begin(&w, C_OBJECT_NODE);
        w3ds_node_hdr(&w, name, 0, 0, 0xFFFF);
        {
            const float pos[3] = {(float)((i % 10) * 30.0), (float)((i / 10) * 30.0), 0};
            write_constant_track(&w, C_POS, pos, 3);
        }
        w3ds_begin(&w, C_ROT);
        w3ds_track_header(&w, 0, 5);
        for (k = 0; k < 5; k++) {
            w3ds_key_header(&w, k * 25, NULL);
            w3ds_f32(&w, k ? 1.5707963f : 0.0f);
            w3ds_f32(&w, 0);
            w3ds_f32(&w, 0);
            w3ds_f32(&w, 1);
        }
        w3ds_end(&w);
        w3ds_end(&w);
    }
    finish_file(&w, path);
}

static void random_axis(double a[3])
{
    double len;
    do {
        a[0] = rnduni(-1, 1);
        a[1] = rnduni(-1, 1);
        a[2] = rnduni(-1, 1);
        len = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    } while (len > 1 || len < 0.01);
    len = sqrt(len);
    a[0] /= len;
    a[1] /= len;
    a[2] /= len;
}

/* A TCB value in [-1, 1], mostly small. */
static double random_tcb_value(void)
{
    if (chance(0.1))
        return rnduni(-1, 1);
    return rnduni(-0.3, 0.3);
}

static void random_tcb(kkey *k, double p)
{
    if (!chance(p))
        return;
    if (chance(0.6))
        k->tcb.tension = (float)random_tcb_value();
    if (chance(0.5))
        k->tcb.continuity = (float)random_tcb_value();
    if (chance(0.5))
        k->tcb.bias = (float)random_tcb_value();
}

#define BN_NODES 2000
#define BN_KEYS 60
#define BN_FRAMES 1000

static void make_bench_nodes(const char *path)
{
    scene s;
    int i, j, f;
    char name[32];

    rng_seed(20240601u);
    scene_init(&s, "benchnod", BN_FRAMES);
    add_material(&s, "Bench", 200, 200, 200);
    for (i = 0; i < BN_NODES; i++) {
        int parent = (i > 0 && chance(0.9)) ? rndint(i) : -1;
        int n;
        double r3[3];
        track *tp, *tr, *ts;
        snprintf(name, sizeof name, "N%04d", i);
        n = add_node(&s, C_OBJECT_NODE, name, parent);
        rnd3(r3, -1, 1);
        set_pivot(&s, n, r3[0], r3[1], r3[2]);
        tp = add_track(&s, n, C_POS, 0);
        tr = add_track(&s, n, C_ROT, 0);
        ts = add_track(&s, n, C_SCL, 0);
        for (j = 0; j < BN_KEYS; j++) {
            double ax[3];
            int interior = j > 0 && j < BN_KEYS - 1;
            kkey *k;
            f = (int)((long)j * BN_FRAMES / (BN_KEYS - 1));
            rnd3(r3, -20, 20);
            k = key3(tp, f, r3[0], r3[1], r3[2]);
            if (interior)
                random_tcb(k, 0.2);
            random_axis(ax);
            k = key4(tr, f, rnduni(-2.0, 2.0), ax[0], ax[1], ax[2]); /* |θ| < 115° */
            if (interior)
                random_tcb(k, 0.2);
            rnd3(r3, 0.8, 1.25);
            k = key3(ts, f, r3[0], r3[1], r3[2]);
            if (interior)
                random_tcb(k, 0.2);
        }
        add_mesh(&s, name, "Bench", n, 0, 0, 0, 1, 1, 1);
    }
    scene_save(&s, path);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Random scene for the differential test                                   */
/* ------------------------------------------------------------------------ */

/* Frames 0 = f_0 < f_1 < ... (strictly increasing integers). */
static void random_frames(int n, int32_t *frames)
{
    int i;
    frames[0] = 0;
    for (i = 1; i < n; i++)
        frames[i] = frames[i - 1] + 1 + rndint(25);
}

/* A track of 1..maxkeys keys (at most 8) with TCB on some interior keys;
 * values in [lo, hi] (FOV, ROLL: one, else three), ROT: a random axis and an
 * angle (lo, hi unused). Returns the last key's frame. */
static int32_t random_track(scene *s, int node, uint16_t tag, double lo, double hi, int maxkeys)
{
    int32_t frames[8];
    int n = 1 + rndint(maxkeys), i;
    track *t = add_track(s, node, tag, 0);
    random_frames(n, frames);
    for (i = 0; i < n; i++) {
        kkey *k;
        if (tag == C_ROT) {
            double ax[3], ang;
            random_axis(ax);
            ang = chance(0.3) ? rnduni(-0.5, 0.5) : rnduni(-169.0, 169.0) * PI / 180.0;
            k = key4(t, frames[i], ang, ax[0], ax[1], ax[2]);
        } else if (tag == C_FOV || tag == C_ROLL) {
            k = key1(t, frames[i], rnduni(lo, hi));
        } else {
            double r3[3];
            rnd3(r3, lo, hi);
            k = key3(t, frames[i], r3[0], r3[1], r3[2]);
        }
        if (i > 0 && i < n - 1)
            random_tcb(k, 0.4);
    }
    return frames[n - 1];
}

static int32_t later_frame(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

static mat4 random_mesh_matrix(int mirrored)
{
    double ax[3], tr[3], sc[3], ang;
    random_axis(ax);
    rnd3(tr, -40, 40);
    ang = rnduni(-PI, PI);
    rnd3(sc, 0.5, 2);
    if (mirrored)
        sc[0] = -sc[0];
    return mat_mul(mat_translate(tr[0], tr[1], tr[2]),
                   mat_mul(mat_rotate(ang, ax[0], ax[1], ax[2]), mat_scale(sc[0], sc[1], sc[2])));
}

static void make_random(uint64_t seed, const char *path)
{
    scene s;
    int nobj, ntotal, i, idmode, slot_cam, slot_tgt, slot_light, slot_amb, obj_made = 0;
    int *objnodes, nobjnodes = 0;
    int *mesh_of; /* per node: mesh index, -1 */
    int32_t last = 1;
    char name[64];
    int cam = -1, tgt = -1, lamp = -1, inst_counter = 0;

    rng_seed(seed);
    nobj = 3 + rndint(23);
    ntotal = nobj + 3;
    slot_amb = chance(0.3) ? rndint(ntotal + 1) : -1;
    if (slot_amb >= 0)
        ntotal++;
    /* camera, target and light anywhere in file order */
    do {
        slot_cam = rndint(ntotal);
        slot_tgt = rndint(ntotal);
        slot_light = rndint(ntotal);
    } while (slot_cam == slot_tgt || slot_cam == slot_light || slot_tgt == slot_light ||
             slot_amb == slot_cam || slot_amb == slot_tgt || slot_amb == slot_light);

    scene_init(&s, "random", 100);
    add_material(&s, "Red", 220, 40, 40);
    add_material(&s, "Blue", 40, 60, 220);
    objnodes = xrealloc(NULL, (size_t)ntotal * sizeof *objnodes);
    mesh_of = xrealloc(NULL, (size_t)ntotal * sizeof *mesh_of);

    for (i = 0; i < ntotal; i++) {
        int n, parent = -1;
        mesh_of[i] = -1;
        if (i == slot_cam || i == slot_tgt || i == slot_light) {
            uint16_t tag = i == slot_cam ? C_CAMERA_NODE : i == slot_tgt ? C_TARGET_NODE : C_LIGHT_NODE;
            if (nobjnodes > 0 && chance(0.3))
                parent = objnodes[rndint(nobjnodes)];
            n = add_node(&s, tag, tag == C_LIGHT_NODE ? "Omni01" : "Cam01", parent);
            if (tag == C_LIGHT_NODE)
                lamp = n;
            else if (tag == C_CAMERA_NODE)
                cam = n;
            else
                tgt = n;
            last = later_frame(last, random_track(&s, n, C_POS, -100, 100, 8));
            if (tag == C_CAMERA_NODE) {
                random_track(&s, n, C_FOV, 20, 80, 4);
                random_track(&s, n, C_ROLL, -30, 30, 4);
            } else if (tag == C_LIGHT_NODE) {
                random_track(&s, n, C_COL, 0, 1, 4);
            }
            continue;
        }
        if (i == slot_amb) {
            n = add_node(&s, C_AMBIENT_NODE, "$AMBIENT$", -1);
            random_track(&s, n, C_COL, 0, 1, 4);
            continue;
        }
        if (nobjnodes > 0 && chance(0.7))
            parent = objnodes[rndint(nobjnodes)];
        if (obj_made > 0 && chance(0.2)) {
            /* a dummy */
            n = add_node(&s, C_OBJECT_NODE, "$$$DUMMY", parent);
            snprintf(name, sizeof name, "Dummy%02d", obj_made);
            set_inst(&s, n, name);
        } else {
            /* an instance of an earlier mesh, or a new mesh */
            int src = -1, j;
            if (nobjnodes > 0 && chance(0.15)) {
                for (j = 0; j < 4 && src < 0; j++) {
                    int cand = objnodes[rndint(nobjnodes)];
                    if (mesh_of[cand] >= 0)
                        src = cand;
                }
            }
            if (src >= 0) {
                n = add_node(&s, C_OBJECT_NODE, s.nodes[src].name, parent);
                mesh_of[n] = mesh_of[src];
                if (!s.nodes[src].inst[0]) {
                    snprintf(name, sizeof name, "Inst%02d", inst_counter++);
                    set_inst(&s, src, name);
                }
                snprintf(name, sizeof name, "Inst%02d", inst_counter++);
                set_inst(&s, n, name);
            } else {
                int m;
                const char *mat = chance(0.7) ? s.mats[rndint(2)].name : NULL;
                double c3[3], h3[3];
                rnd3(c3, -2, 2);
                rnd3(h3, 0.5, 4);
                snprintf(name, sizeof name, "Mesh%02d", obj_made);
                n = add_node(&s, C_OBJECT_NODE, name, parent);
                m = add_mesh(&s, name, mat, -1, c3[0], c3[1], c3[2], h3[0], h3[1], h3[2]);
                s.meshes[m].matrix = random_mesh_matrix(chance(0.3));
                mesh_of[n] = m;
            }
        }
        if (chance(0.7)) {
            double p3[3];
            rnd3(p3, -3, 3);
            set_pivot(&s, n, p3[0], p3[1], p3[2]);
        }
        /* one statement each: the draws must keep their order */
        last = later_frame(last, random_track(&s, n, C_POS, -30, 30, 8));
        last = later_frame(last, random_track(&s, n, C_ROT, 0, 0, 8));
        last = later_frame(last, random_track(&s, n, C_SCL, 0.4, 2.0, 8));
        objnodes[nobjnodes++] = n;
        obj_made++;
    }

    /* Node ids: 0 none (parents are file-order indices), 1 a shuffled
     * permutation of 0..n-1, 2 shuffled distinct numbers below 1000, 3 ids
     * >= 1000 on some nodes only (the others keep their file-order index). */
    idmode = rndint(4);
    if (idmode > 0) {
        int *ids = xrealloc(NULL, (size_t)s.nn * sizeof *ids);
        for (i = 0; i < s.nn; i++)
            ids[i] = idmode == 1 ? i : idmode == 2 ? i * (1000 / s.nn) + rndint(1000 / s.nn) : 1000 + i * 7;
        for (i = s.nn - 1; i > 0; i--) {
            int j = rndint(i + 1), tmp = ids[i];
            ids[i] = ids[j];
            ids[j] = tmp;
        }
        for (i = 0; i < s.nn; i++)
            if (idmode != 3 || chance(0.5))
                set_id(&s, i, (uint16_t)ids[i]);
        free(ids);
    }

    s.length = last < 100 ? 100 : last;
    s.seg_to = s.length;
    add_camera_at_nodes(&s, "Cam01", cam, tgt, 0, 35);
    add_light_at_node(&s, "Omni01", lamp, 1, 1, 1);
    scene_save(&s, path);
    free(objnodes);
    free(mesh_of);
    scene_free(&s);
}

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */

static int usage(void)
{
    fputs("usage: mk3ds samples DIR          write DIR/orrery.3ds, DIR/arm.3ds, DIR/edge.3ds\n"
          "       mk3ds bench-meshes FILE    200 meshes of 20,000 vertices (~90 MB)\n"
          "       mk3ds bench-nodes FILE     2,000 animated object nodes, 60 keys per track\n"
          "       mk3ds bench-render FILE    100 spinning spheres, 100,000 smooth triangles\n"
          "       mk3ds random SEED FILE     a random valid animated scene (SEED: unsigned integer)\n",
          stderr);
    return 2;
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = xrealloc(NULL, n);
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "samples") == 0) {
        static const char *const names[3] = {"orrery.3ds", "arm.3ds", "edge.3ds"};
        int i;
        for (i = 0; i < 3; i++) {
            char *p = join(argv[2], names[i]);
            if (i == 0)
                make_orrery(p);
            else if (i == 1)
                make_arm(p);
            else
                make_edge(p);
            free(p);
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-meshes") == 0) {
        make_bench_meshes(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-render") == 0) {
        make_bench_render(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "bench-nodes") == 0) {
        make_bench_nodes(argv[2]);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "random") == 0) {
        const char *p = argv[2];
        uint64_t seed = 0;
        if (!*p)
            return usage();
        for (; *p; p++) {
            if (*p < '0' || *p > '9' || seed > (UINT64_MAX - 9) / 10)
                return usage();
            seed = seed * 10 + (uint64_t)(*p - '0');
        }
        make_random(seed, argv[3]);
        return 0;
    }
    return usage();
}
