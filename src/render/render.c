/* Whole-scene rendering on top of the rasterizer (raster.c): per-scene
 * precomputation, lighting, mesh drawing, overlays, bounds and views.
 *
 * Normals. A face's normal is (b−a)×(c−a) of its stored points, normalised
 * (counter-clockwise is the front, as in 3DS and lib3ds). A corner's smooth
 * normal is the sum of the normals of the faces around its vertex whose
 * smoothing bits overlap its face's (lib3ds's rule; faces with smoothing 0
 * keep their face normal). Corners at one vertex with the same smoothing mask
 * and material share one "class": kf3ds_renderer_create computes every class's
 * normal in stored space once; a frame transforms and lights each class once
 * (with the cofactor matrix of the placement, i.e. the inverse transpose up to
 * scale) and looks the colours up per corner.
 *
 * Winding. In stored space every mesh is counter-clockwise outward: for a
 * mirrored mesh the loader's mirror of the points undoes the file's inside-out
 * winding. A placement matrix with a negative determinant (the M⁻¹ of a
 * mirrored mesh, a negative scale key, a mirroring view) reverses the winding
 * on screen, so the front faces are then the clockwise ones: the renderer
 * culls by det(view·placement).
 *
 * Scenes whose keyframer places no mesh (no object node with a mesh) are drawn
 * from the editor data: every mesh not hidden at its file position (stored
 * points, mirrored back for mirrored meshes), lit by the editor lights.
 *
 * Wireframe draws every edge that some face marks visible (flags 0x4 AB,
 * 0x2 BC, 0x1 CA) once, however many faces share it, in the material's
 * colour, with no hidden-line removal.
 *
 * Bounds (kf3ds_scene_bounds) hold the placed vertices of the shown objects
 * and the positions of the object nodes (dummies too); cameras, lights and
 * targets count only when there is nothing else, because they often stand
 * far off and framing them would shrink the objects to a dot.
 *
 * Overlays other than the grid are drawn over everything (no depth test), so
 * that pivots and hierarchy inside the meshes stay visible; the grid is depth
 * tested. Lines never write depth.
 *
 * Rendering never allocates: scratch space (transformed vertices, class
 * colours, lights) is sized in kf3ds_renderer_create for the largest mesh.
 */
#include "raster.h"
#include "../geometry.h"
#include <string.h>

/* ------------------------------------------------------------------------ */

#define DEFAULT_BACKGROUND 0xFF303030u
#define NO_MATERIAL_GREY 0.75f
#define NONE_U32 0xFFFFFFFFu
#define MAX_FILE_LIGHTS 64
#define DEG2RAD 0.017453292519943295
#define FILL 0.08f /* a constant diffuse fill so unlit sides are not black */

typedef struct rmesh {
    float (*fnorm)[3];      /* per face, unit, stored space (zero when degenerate) */
    uint32_t *corner;       /* per face corner: its class, NONE_U32 for invalid faces */
    uint8_t *wire;          /* per face: the visible edges it draws (0x4 AB, 0x2 BC,
                             * 0x1 CA), each edge shared by several faces once */
    float (*cnorm)[3];      /* per class, unit, stored space */
    uint32_t *cvert;        /* per class: its vertex */
    int32_t *cmat;          /* per class: material index or KF3DS_NONE */
    uint32_t num_classes;
    float bmin[3], bmax[3]; /* stored-space box of the finite points */
    int has_bounds;
} rmesh;

typedef struct rlight {
    float pos[3];           /* view space */
    float dir[3];           /* spot axis, view space, unit */
    float col[3];
    float cos_hot, cos_fall;
    int spot;
} rlight;

typedef struct rblock {
    struct rblock *next;
    size_t pad_;
} rblock;

struct kf3ds_renderer {
    const kf3ds_scene *scene;
    kf3ds_allocator alloc;
    rblock *blocks;
    rmesh *meshes;
    float (*mat_diffuse)[3];
    float (*mat_ambient)[3];
    uint8_t *mat_two_sided;
    kf3ds__vtx *verts;
    uint32_t *ccol;         /* per class: its colour this frame... */
    uint32_t *cstamp;       /* ...valid when its stamp is `stamp` */
    uint32_t stamp;
    uint32_t max_points, max_classes;
    int node_mode;          /* some object node places a mesh */
    rlight lights[MAX_FILE_LIGHTS];
    uint32_t num_lights;
    float ambient[3], head[3];
};

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

static void *ralloc(kf3ds_renderer *r, size_t n, size_t size)
{
    rblock *b;
    size_t bytes;
    if (size && n > ((size_t)-1 - sizeof(rblock)) / size)
        return NULL;
    bytes = n * size + sizeof(rblock);
    b = (rblock *)r->alloc.malloc_fn(bytes, r->alloc.user);
    if (!b)
        return NULL;
    memset(b, 0, bytes);
    b->next = r->blocks;
    r->blocks = b;
    return b + 1;
}

static void *talloc(const kf3ds_allocator *a, size_t n, size_t size)
{
    if (size && n > ((size_t)-1 - 16) / size)
        return NULL;
    return a->malloc_fn(n * size + 16, a->user);
}

static float clamp01(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

static uint32_t pack_rgb(float r, float g, float b)
{
    return 0xFF000000u | ((uint32_t)(clamp01(r) * 255.0f + 0.5f) << 16) |
           ((uint32_t)(clamp01(g) * 255.0f + 0.5f) << 8) | (uint32_t)(clamp01(b) * 255.0f + 0.5f);
}

static void to_view(const kf3ds__proj *p, const float w[3], float out[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = p->m[i][0] * w[0] + p->m[i][1] * w[1] + p->m[i][2] * w[2] + p->m[i][3];
}

static float norm3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f && l <= 1e30f) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
        return l;
    }
    v[0] = v[1] = v[2] = 0.0f;
    return 0.0f;
}

static void cross3f(const float a[3], const float b[3], float out[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
          z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* ------------------------------------------------------------------------ */
/* Precomputation                                                           */
/* ------------------------------------------------------------------------ */

typedef struct ckey {
    uint32_t mask;
    int32_t mat;
    uint32_t corner;
} ckey;

static int ckey_less(const void *pa, const void *pb)
{
    const ckey *a = (const ckey *)pa, *b = (const ckey *)pb;
    if (a->mask != b->mask)
        return a->mask < b->mask;
    if (a->mat != b->mat)
        return a->mat < b->mat;
    return a->corner < b->corner;
}

typedef struct ekey {
    uint64_t key;           /* smaller vertex << 32 | larger */
    uint32_t id;            /* face << 2 | edge bit (4 AB, 2 BC, 1 CA) */
} ekey;

static int ekey_less(const void *pa, const void *pb)
{
    const ekey *a = (const ekey *)pa, *b = (const ekey *)pb;
    return a->key != b->key ? a->key < b->key : a->id < b->id;
}

/* Swaps two elements of `size` bytes (at most those of ckey and ekey). */
typedef char kf3ds__keys_fit_swap[sizeof(ckey) <= 32 && sizeof(ekey) <= 32 ? 1 : -1];
static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
    unsigned char t[32];
    memcpy(t, a, size);
    memcpy(a, b, size);
    memcpy(b, t, size);
}

/* Heapsort: no libc qsort, so that the core stays freestanding, and no
 * recursion; both key types are total orders, so stability is not needed. */
static void heap_sort(void *base, size_t n, size_t size, int (*less)(const void *, const void *))
{
    unsigned char *k = (unsigned char *)base;
    size_t i, end;
    for (end = n, i = n / 2; end > 1 || i > 0;) {
        size_t root, c;
        if (i > 0) {
            root = --i; /* building the heap */
        } else {
            swap_bytes(k, k + --end * size, size); /* moving the top out */
            root = 0;
        }
        for (; (c = 2 * root + 1) < end; root = c) {
            if (c + 1 < end && less(k + c * size, k + (c + 1) * size))
                c++;
            if (!less(k + root * size, k + c * size))
                break;
            swap_bytes(k + root * size, k + c * size, size);
        }
    }
}

typedef struct temp {
    ekey *edges;            /* per corner */
    size_t *start;          /* per vertex + 1 */
    ckey *keys;             /* per corner */
    uint32_t *masks;        /* per corner */
    double (*sums)[3];      /* per corner */
    float (*cn)[3];         /* per corner (class capacity) */
    uint32_t *cv;
    int32_t *cm;
} temp;

static int build_mesh(kf3ds_renderer *r, const kf3ds_mesh *m, rmesh *rm, temp *t)
{
    const kf3ds_scene *s = r->scene;
    uint32_t np = m->points ? m->num_points : 0, nf = m->faces ? m->num_faces : 0;
    uint32_t f, v, nc = 0;
    size_t i;
    int k;
    if (nf) {
        rm->fnorm = (float (*)[3])ralloc(r, nf, sizeof *rm->fnorm);
        rm->corner = (uint32_t *)ralloc(r, (size_t)nf * 3, sizeof *rm->corner);
        rm->wire = (uint8_t *)ralloc(r, nf, 1);
        if (!rm->fnorm || !rm->corner || !rm->wire)
            return 0;
    }
    for (i = 0; i < 3; i++) {
        rm->bmin[i] = INFINITY;
        rm->bmax[i] = -INFINITY;
    }
    for (v = 0; v < np; v++) {
        if (!kf3ds__finite3(m->points[v]))
            continue;
        rm->has_bounds = 1;
        for (i = 0; i < 3; i++) {
            if (m->points[v][i] < rm->bmin[i])
                rm->bmin[i] = m->points[v][i];
            if (m->points[v][i] > rm->bmax[i])
                rm->bmax[i] = m->points[v][i];
        }
    }
    if (!nf)
        return 1;

    /* Face normals, in double; invalid faces get no corners. */
    for (v = 0; v <= np; v++)
        t->start[v] = 0;
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        double e1[3], e2[3], n[3], l;
        rm->corner[3 * f] = rm->corner[3 * f + 1] = rm->corner[3 * f + 2] = NONE_U32;
        if (fc->v[0] >= np || fc->v[1] >= np || fc->v[2] >= np)
            continue;
        for (k = 0; k < 3; k++) {
            e1[k] = (double)m->points[fc->v[1]][k] - m->points[fc->v[0]][k];
            e2[k] = (double)m->points[fc->v[2]][k] - m->points[fc->v[0]][k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l > 0.0 && l < 1e300)
            for (k = 0; k < 3; k++)
                rm->fnorm[f][k] = (float)(n[k] / l);
        for (k = 0; k < 3; k++)
            t->start[fc->v[k] + 1]++;
    }
    for (v = 0; v < np; v++)
        t->start[v + 1] += t->start[v];
    /* Corners grouped by vertex (start[v] is advanced while filling, then
     * restored by the shift below). */
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        int32_t mat = kf3ds_face_material(m, f);
        if (fc->v[0] >= np || fc->v[1] >= np || fc->v[2] >= np)
            continue;
        if (mat < 0 || (uint32_t)mat >= s->num_materials)
            mat = KF3DS_NONE;
        for (k = 0; k < 3; k++) {
            ckey *key = &t->keys[t->start[fc->v[k]]++];
            key->mask = kf3ds_face_smoothing(m, f);
            key->mat = mat;
            key->corner = 3 * f + (uint32_t)k;
        }
    }
    for (v = np; v > 0; v--)
        t->start[v] = t->start[v - 1];
    t->start[0] = 0;

    for (v = 0; v < np; v++) {
        ckey *keys = t->keys + t->start[v];
        size_t n = t->start[v + 1] - t->start[v], nm = 0, a, b;
        if (!n)
            continue;
        heap_sort(keys, n, sizeof *keys, ckey_less);
        /* Distinct masks and the sum of their faces' normals. */
        for (a = 0; a < n; a++) {
            const float *fnv = rm->fnorm[keys[a].corner / 3];
            if (!nm || t->masks[nm - 1] != keys[a].mask) {
                t->masks[nm] = keys[a].mask;
                t->sums[nm][0] = t->sums[nm][1] = t->sums[nm][2] = 0.0;
                nm++;
            }
            for (k = 0; k < 3; k++)
                t->sums[nm - 1][k] += fnv[k];
        }
        /* Classes: runs of equal (mask, material); mask 0: one per corner. */
        for (a = 0, b = 0; a < n; a = b) {
            uint32_t mask = keys[a].mask;
            size_t mi;
            double sum[3] = { 0, 0, 0 }, l;
            b = a + 1;
            while (b < n && mask != 0 && keys[b].mask == mask && keys[b].mat == keys[a].mat)
                b++;
            if (mask) {
                for (mi = 0; mi < nm; mi++) {
                    int take = nm <= 256 ? (t->masks[mi] & mask) != 0 : t->masks[mi] == mask;
                    if (take)
                        for (k = 0; k < 3; k++)
                            sum[k] += t->sums[mi][k];
                }
            }
            l = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
            if (!(l > 1e-12 && l < 1e300)) {
                const float *fnv = rm->fnorm[keys[a].corner / 3];
                sum[0] = fnv[0];
                sum[1] = fnv[1];
                sum[2] = fnv[2];
                l = 1.0;
            }
            for (k = 0; k < 3; k++)
                t->cn[nc][k] = (float)(sum[k] / l);
            t->cv[nc] = v;
            t->cm[nc] = keys[a].mat;
            for (mi = a; mi < b; mi++)
                rm->corner[keys[mi].corner] = nc;
            nc++;
        }
    }
    /* Wireframe: each visible edge once, from the first face showing it. */
    {
        size_t ne = 0, a, b;
        for (f = 0; f < nf; f++) {
            const kf3ds_face *fc = &m->faces[f];
            static const unsigned char bit[3] = { 0x4, 0x2, 0x1 };
            if (fc->v[0] >= np || fc->v[1] >= np || fc->v[2] >= np)
                continue;
            for (k = 0; k < 3; k++) {
                uint32_t p = fc->v[k], q = fc->v[(k + 1) % 3];
                if (!(fc->flags & bit[k]))
                    continue;
                t->edges[ne].key = p < q ? ((uint64_t)p << 32) | q : ((uint64_t)q << 32) | p;
                t->edges[ne].id = (f << 2) | (uint32_t)k;
                ne++;
            }
        }
        heap_sort(t->edges, ne, sizeof *t->edges, ekey_less);
        for (a = 0; a < ne; a = b) {
            uint32_t id = t->edges[a].id;
            rm->wire[id >> 2] |= (uint8_t)(0x4 >> (id & 3));
            for (b = a + 1; b < ne && t->edges[b].key == t->edges[a].key; b++)
                ;
        }
    }
    rm->num_classes = nc;
    if (nc) {
        rm->cnorm = (float (*)[3])ralloc(r, nc, sizeof *rm->cnorm);
        rm->cvert = (uint32_t *)ralloc(r, nc, sizeof *rm->cvert);
        rm->cmat = (int32_t *)ralloc(r, nc, sizeof *rm->cmat);
        if (!rm->cnorm || !rm->cvert || !rm->cmat)
            return 0;
        memcpy(rm->cnorm, t->cn, nc * sizeof *rm->cnorm);
        memcpy(rm->cvert, t->cv, nc * sizeof *rm->cvert);
        memcpy(rm->cmat, t->cm, nc * sizeof *rm->cmat);
    }
    if (nc > r->max_classes)
        r->max_classes = nc;
    return 1;
}

kf3ds_renderer *kf3ds_renderer_create(const kf3ds_scene *scene, const kf3ds_allocator *allocator)
{
    kf3ds_allocator a;
    kf3ds_renderer *r;
    temp t;
    uint32_t i, max_np = 0, max_nf = 0;
    int ok = 1;
    if (!scene)
        return NULL;
    if (allocator && allocator->malloc_fn && allocator->free_fn)
        a = *allocator;
    else
        a = kf3ds__default_allocator();
    if (!a.malloc_fn || !a.free_fn) /* built with KF3DS_NO_DEFAULT_ALLOCATOR */
        return NULL;
    r = (kf3ds_renderer *)a.malloc_fn(sizeof *r, a.user);
    if (!r)
        return NULL;
    memset(r, 0, sizeof *r);
    r->scene = scene;
    r->alloc = a;
    for (i = 0; i < scene->num_meshes && scene->meshes; i++) {
        const kf3ds_mesh *m = &scene->meshes[i];
        if (m->points && m->num_points > max_np)
            max_np = m->num_points;
        if (m->faces && m->num_faces > max_nf)
            max_nf = m->num_faces;
    }
    r->node_mode = kf3ds_scene_places_meshes(scene);
    r->max_points = max_np;
    if (scene->num_meshes && scene->meshes)
        r->meshes = (rmesh *)ralloc(r, scene->num_meshes, sizeof *r->meshes);
    r->mat_diffuse = (float (*)[3])ralloc(r, scene->num_materials + 1, sizeof *r->mat_diffuse);
    r->mat_ambient = (float (*)[3])ralloc(r, scene->num_materials + 1, sizeof *r->mat_ambient);
    r->mat_two_sided = (uint8_t *)ralloc(r, scene->num_materials + 1, 1);
    r->verts = (kf3ds__vtx *)ralloc(r, (size_t)max_np + 1, sizeof *r->verts);
    if ((scene->num_meshes && scene->meshes && !r->meshes) || !r->mat_diffuse ||
        !r->mat_ambient || !r->mat_two_sided || !r->verts) {
        kf3ds_renderer_free(r);
        return NULL;
    }
    /* Materials: index num_materials stands for "none". */
    for (i = 0; i <= scene->num_materials; i++) {
        int k;
        for (k = 0; k < 3; k++) {
            float d = NO_MATERIAL_GREY, am = NO_MATERIAL_GREY;
            if (i < scene->num_materials && scene->materials) {
                d = clamp01(scene->materials[i].diffuse[k]);
                am = clamp01(scene->materials[i].ambient[k]);
            }
            r->mat_diffuse[i][k] = d;
            r->mat_ambient[i][k] = am;
        }
        r->mat_two_sided[i] = i < scene->num_materials && scene->materials &&
                              scene->materials[i].two_sided;
    }

    memset(&t, 0, sizeof t);
    if (max_nf) {
        size_t corners = (size_t)max_nf * 3;
        t.edges = (ekey *)talloc(&a, corners, sizeof *t.edges);
        t.start = (size_t *)talloc(&a, (size_t)max_np + 2, sizeof *t.start);
        t.keys = (ckey *)talloc(&a, corners, sizeof *t.keys);
        t.masks = (uint32_t *)talloc(&a, corners, sizeof *t.masks);
        t.sums = (double (*)[3])talloc(&a, corners, sizeof *t.sums);
        t.cn = (float (*)[3])talloc(&a, corners, sizeof *t.cn);
        t.cv = (uint32_t *)talloc(&a, corners, sizeof *t.cv);
        t.cm = (int32_t *)talloc(&a, corners, sizeof *t.cm);
        ok = t.edges && t.start && t.keys && t.masks && t.sums && t.cn && t.cv && t.cm;
    }
    for (i = 0; ok && r->meshes && i < scene->num_meshes; i++)
        ok = build_mesh(r, &scene->meshes[i], &r->meshes[i], &t);
    a.free_fn(t.edges, a.user);
    a.free_fn(t.start, a.user);
    a.free_fn(t.keys, a.user);
    a.free_fn(t.masks, a.user);
    a.free_fn(t.sums, a.user);
    a.free_fn(t.cn, a.user);
    a.free_fn(t.cv, a.user);
    a.free_fn(t.cm, a.user);
    if (ok) {
        r->ccol = (uint32_t *)ralloc(r, (size_t)r->max_classes + 1, sizeof *r->ccol);
        r->cstamp = (uint32_t *)ralloc(r, (size_t)r->max_classes + 1, sizeof *r->cstamp);
        ok = r->ccol && r->cstamp;
    }
    if (!ok) {
        kf3ds_renderer_free(r);
        return NULL;
    }
    return r;
}

void kf3ds_renderer_free(kf3ds_renderer *r)
{
    rblock *b;
    kf3ds_allocator a;
    if (!r)
        return;
    a = r->alloc;
    b = r->blocks;
    while (b) {
        rblock *next = b->next;
        a.free_fn(b, a.user);
        b = next;
    }
    a.free_fn(r, a.user);
}

/* ------------------------------------------------------------------------ */
/* Lighting                                                                 */
/* ------------------------------------------------------------------------ */

static void sanitize_color(const float in[3], float out[3], float hi)
{
    int k;
    for (k = 0; k < 3; k++) {
        float c = in[k];
        out[k] = c > 0.0f ? (c < hi ? c : hi) : 0.0f;
    }
}

static void add_light(kf3ds_renderer *r, const kf3ds__proj *p, const float pos[3],
                      const float color[3], int spot, const float target[3], float hot,
                      float fall)
{
    rlight *l;
    if (r->num_lights >= MAX_FILE_LIGHTS || !kf3ds__finite3(pos))
        return;
    l = &r->lights[r->num_lights];
    memset(l, 0, sizeof *l);
    to_view(p, pos, l->pos);
    sanitize_color(color, l->col, 4.0f);
    if (spot) {
        float d[3], vt[3];
        if (!target || !kf3ds__finite3(target))
            return;
        to_view(p, target, vt);
        d[0] = vt[0] - l->pos[0];
        d[1] = vt[1] - l->pos[1];
        d[2] = vt[2] - l->pos[2];
        if (norm3(d) == 0.0f)
            return;
        memcpy(l->dir, d, sizeof d);
        if (!(fall > 0.0f && fall <= 360.0f))
            fall = 90.0f;
        if (!(hot >= 0.0f && hot <= fall))
            hot = fall;
        if (fall > 359.0f)
            fall = 359.0f;
        l->cos_hot = (float)cos(hot * 0.5 * DEG2RAD);
        l->cos_fall = (float)cos(fall * 0.5 * DEG2RAD);
        l->spot = 1;
    }
    r->num_lights++;
}

/* Node i when it is a light (omni or spot): its position at these poses, the
 * spot's target (*tp: the target node's position in tgt, else the editor
 * light's target; NULL for omni lights) and its editor light (*el, or NULL). */
static int light_node(const kf3ds_scene *s, const kf3ds_pose *poses, uint32_t i, float pos[3],
                      float tgt[3], const float **tp, const kf3ds_light **el)
{
    const kf3ds_node *n = &s->nodes[i];
    *tp = NULL;
    *el = NULL;
    if (n->type != KF3DS_NODE_LIGHT && n->type != KF3DS_NODE_SPOT)
        return 0;
    if (n->light >= 0 && (uint32_t)n->light < s->num_lights)
        *el = &s->lights[n->light];
    kf3ds__pose_position(&poses[i], pos);
    if (n->type == KF3DS_NODE_SPOT) {
        if (n->target >= 0 && (uint32_t)n->target < s->num_nodes) {
            kf3ds__pose_position(&poses[n->target], tgt);
            *tp = tgt;
        } else if (*el) {
            *tp = (*el)->target;
        }
    }
    return 1;
}

static void setup_lights(kf3ds_renderer *r, const kf3ds__proj *p, const kf3ds_pose *poses,
                         const kf3ds_render_options *o)
{
    const kf3ds_scene *s = r->scene;
    float amb[3];
    uint32_t i;
    int k, have_nodes = 0;
    memcpy(amb, s->ambient, sizeof amb);
    r->num_lights = 0;
    if (poses)
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            if (n->type == KF3DS_NODE_AMBIENT)
                memcpy(amb, poses[i].color, sizeof amb);
            if (n->type == KF3DS_NODE_LIGHT || n->type == KF3DS_NODE_SPOT)
                have_nodes = 1;
        }
    sanitize_color(amb, r->ambient, 1.0f);
    if (!o->no_file_lights) {
        if (have_nodes) {
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_light *el;
                float pos[3], tgt[3];
                const float *tp;
                if (!light_node(s, poses, i, pos, tgt, &tp, &el) || (el && el->off))
                    continue;
                add_light(r, p, pos, poses[i].color, s->nodes[i].type == KF3DS_NODE_SPOT, tp,
                          poses[i].hotspot, poses[i].falloff);
            }
        } else {
            for (i = 0; i < s->num_lights; i++) {
                const kf3ds_light *l = &s->lights[i];
                if (l->off)
                    continue;
                add_light(r, p, l->position, l->color, l->spot, l->target, l->hotspot,
                          l->falloff);
            }
        }
    }
    for (k = 0; k < 3; k++)
        r->head[k] = r->num_lights ? 0.45f : 0.9f;
}

/* Lambert, as 3DS mixes it: the ambient light times the material's ambient
 * colour, plus the material's diffuse colour times a small constant fill, the
 * headlight (from the eye, +z in view space) and the file lights. Two-sided
 * surfaces seen from behind are lit on the side seen. */
static uint32_t shade(const kf3ds_renderer *r, const float n_in[3], float px, float py,
                      float pz, uint32_t mat)
{
    const float *diffuse = r->mat_diffuse[mat], *amb = r->mat_ambient[mat];
    const int two_sided = r->mat_two_sided[mat];
    float n[3], acc[3], nd;
    uint32_t i;
    n[0] = n_in[0];
    n[1] = n_in[1];
    n[2] = n_in[2];
    if (two_sided && n[0] * px + n[1] * py + n[2] * pz > 0.0f) {
        n[0] = -n[0];
        n[1] = -n[1];
        n[2] = -n[2];
    }
    nd = n[2] > 0.0f ? n[2] : 0.0f;
    acc[0] = FILL + r->head[0] * nd;
    acc[1] = FILL + r->head[1] * nd;
    acc[2] = FILL + r->head[2] * nd;
    for (i = 0; i < r->num_lights; i++) {
        const rlight *l = &r->lights[i];
        float L[3], len2, inv, ndl;
        L[0] = l->pos[0] - px;
        L[1] = l->pos[1] - py;
        L[2] = l->pos[2] - pz;
        len2 = L[0] * L[0] + L[1] * L[1] + L[2] * L[2];
        if (!(len2 > 0.0f))
            continue;
        inv = 1.0f / sqrtf(len2);
        L[0] *= inv;
        L[1] *= inv;
        L[2] *= inv;
        ndl = n[0] * L[0] + n[1] * L[1] + n[2] * L[2];
        if (!(ndl > 0.0f))
            continue;
        if (l->spot) {
            float c = -(L[0] * l->dir[0] + L[1] * l->dir[1] + L[2] * l->dir[2]);
            if (c <= l->cos_fall)
                continue;
            if (c < l->cos_hot)
                ndl *= (c - l->cos_fall) / (l->cos_hot - l->cos_fall);
        }
        acc[0] += l->col[0] * ndl;
        acc[1] += l->col[1] * ndl;
        acc[2] += l->col[2] * ndl;
    }
    return pack_rgb(amb[0] * r->ambient[0] + diffuse[0] * acc[0],
                    amb[1] * r->ambient[1] + diffuse[1] * acc[1],
                    amb[2] * r->ambient[2] + diffuse[2] * acc[2]);
}

/* ------------------------------------------------------------------------ */
/* Meshes                                                                   */
/* ------------------------------------------------------------------------ */

static void draw_mesh(kf3ds_renderer *r, const kf3ds__proj *p, uint32_t mi, const kf3ds_mat4 *P,
                      kf3ds_shading shading, kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    const kf3ds_scene *s = r->scene;
    const kf3ds_mesh *m = &s->meshes[mi];
    const rmesh *rm = &r->meshes[mi];
    const uint32_t np = m->points ? m->num_points : 0, nf = m->faces ? m->num_faces : 0;
    const uint32_t nomat = s->num_materials;
    kf3ds__vtx *V = r->verts;
    float mv[3][4], C[3][3], det, sgn;
    uint32_t i, f;
    int j, k;

    if (!np || !nf)
        return;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float v = p->m[i][0] * P->m[0][j] + p->m[i][1] * P->m[1][j] +
                      p->m[i][2] * P->m[2][j] + (j == 3 ? p->m[i][3] : 0.0f);
            if (!(fabsf(v) <= 1e30f))
                return;
            mv[i][j] = v;
        }
    /* Cofactor rows (det · inverse transpose) for the normals. */
    cross3f(mv[1], mv[2], C[0]);
    cross3f(mv[2], mv[0], C[1]);
    cross3f(mv[0], mv[1], C[2]);
    det = mv[0][0] * C[0][0] + mv[0][1] * C[0][1] + mv[0][2] * C[0][2];
    sgn = det < 0.0f ? -1.0f : 1.0f;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            C[i][j] *= sgn;

    kf3ds__transform_points(p, &mv[0][0], &m->points[0][0], np, V);

    if (shading == KF3DS_SHADE_WIRE) {
        for (f = 0; f < nf; f++) {
            const kf3ds_face *fc = &m->faces[f];
            const kf3ds__vtx *a, *b, *c;
            int32_t fm = kf3ds_face_material(m, f);
            uint32_t mat = (fm >= 0 && (uint32_t)fm < nomat) ? (uint32_t)fm : nomat;
            const float *d = r->mat_diffuse[mat];
            uint32_t col;
            if (fc->v[0] >= np || fc->v[1] >= np || fc->v[2] >= np)
                continue;
            st->triangles++;
            if (!rm->wire[f])
                continue;
            a = &V[fc->v[0]];
            b = &V[fc->v[1]];
            c = &V[fc->v[2]];
            if ((a->code & b->code & c->code) || ((a->code | b->code | c->code) & OC_BAD))
                continue;
            st->triangles_drawn++;
            col = pack_rgb(0.3f + 0.7f * d[0], 0.3f + 0.7f * d[1], 0.3f + 0.7f * d[2]);
            if (rm->wire[f] & 0x4)
                kf3ds__line(fb, p, a, b, col, 1);
            if (rm->wire[f] & 0x2)
                kf3ds__line(fb, p, b, c, col, 1);
            if (rm->wire[f] & 0x1)
                kf3ds__line(fb, p, c, a, col, 1);
        }
        return;
    }

    /* Smooth shading lights each class the first time a face that is drawn
     * needs it (stamps instead of clearing). */
    if (++r->stamp == 0) {
        memset(r->cstamp, 0, ((size_t)r->max_classes + 1) * sizeof *r->cstamp);
        r->stamp = 1;
    }
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        const kf3ds__vtx *a, *b, *c;
        uint32_t col[3], mat, any;
        int cull;
        if (fc->v[0] >= np || fc->v[1] >= np || fc->v[2] >= np)
            continue;
        st->triangles++;
        a = &V[fc->v[0]];
        b = &V[fc->v[1]];
        c = &V[fc->v[2]];
        if (a->code & b->code & c->code)
            continue;
        {
            int32_t fm = kf3ds_face_material(m, f);
            mat = (fm >= 0 && (uint32_t)fm < nomat) ? (uint32_t)fm : nomat;
        }
        cull = r->mat_two_sided[mat] ? 0 : (det < 0.0f ? -1 : 1);
        any = a->code | b->code | c->code;
        if (!(any & (OC_CLIP | OC_BAD))) {
            /* Early back-face and degenerate rejection on the snapped
             * positions (the fill does the same test). */
            int64_t area = (int64_t)(b->X - a->X) * (c->Y - a->Y) -
                           (int64_t)(c->X - a->X) * (b->Y - a->Y);
            if (area == 0 || (cull > 0 && area > 0) || (cull < 0 && area < 0))
                continue;
        }
        if (shading == KF3DS_SHADE_SMOOTH) {
            const uint32_t *cc = &rm->corner[3 * f];
            for (k = 0; k < 3; k++) {
                uint32_t ci = cc[k];
                if (r->cstamp[ci] != r->stamp) {
                    const float *cn = rm->cnorm[ci];
                    const kf3ds__vtx *v = &V[rm->cvert[ci]];
                    int32_t cm = rm->cmat[ci];
                    float n[3];
                    for (j = 0; j < 3; j++)
                        n[j] = C[j][0] * cn[0] + C[j][1] * cn[1] + C[j][2] * cn[2];
                    norm3(n);
                    r->ccol[ci] = shade(r, n, v->x, v->y, -v->d, cm >= 0 ? (uint32_t)cm : nomat);
                    r->cstamp[ci] = r->stamp;
                }
                col[k] = r->ccol[ci];
            }
        } else {
            const float *fn = rm->fnorm[f];
            float n[3];
            for (k = 0; k < 3; k++)
                n[k] = C[k][0] * fn[0] + C[k][1] * fn[1] + C[k][2] * fn[2];
            norm3(n);
            col[0] = shade(r, n, (a->x + b->x + c->x) * (1.0f / 3.0f),
                           (a->y + b->y + c->y) * (1.0f / 3.0f),
                           -(a->d + b->d + c->d) * (1.0f / 3.0f), mat);
            col[1] = col[2] = col[0];
        }
        st->triangles_drawn += (uint32_t)kf3ds__tri(fb, p, a, b, c, col, cull);
    }
}

/* ------------------------------------------------------------------------ */
/* Overlays                                                                 */
/* ------------------------------------------------------------------------ */

#define COL_HIER 0xFFE0B040u
#define COL_DUMMY 0xFFC08030u
#define COL_PIVOT 0xFF40E0E0u
#define COL_CAMERA 0xFF70A8FFu
#define COL_GRID 0xFF4A4A4Au
#define COL_AXIS_X 0xFF904040u
#define COL_AXIS_Y 0xFF409040u
#define COL_NAME 0xFFE8E8E8u

/* A rough box of the scene for sizing overlays: the transformed boxes of the
 * drawn meshes and every node position. */
static int approx_bounds(const kf3ds_renderer *r, const kf3ds_pose *poses, float mn[3],
                         float mx[3])
{
    const kf3ds_scene *s = r->scene;
    uint32_t i;
    int any = 0;
    kf3ds__box_empty(mn, mx);
    for (i = 0; i < s->num_meshes && r->meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        const rmesh *rm = &r->meshes[i];
        uint32_t nn, c;
        if (!rm->has_bounds)
            continue;
        nn = r->node_mode && poses ? s->num_nodes : 1;
        for (c = 0; c < nn; c++) {
            kf3ds_mat4 P;
            int corner;
            if (r->node_mode && poses) {
                const kf3ds_node *n = &s->nodes[c];
                if (n->type != KF3DS_NODE_OBJECT || poses[c].hidden ||
                    kf3ds_node_pose_mesh(s, c, &poses[c]) != (int32_t)i)
                    continue;
                kf3ds_node_mesh_matrix(s, c, &poses[c], &P);
            } else {
                if (m->hidden)
                    continue;
                kf3ds_mesh_editor_matrix(m, &P);
            }
            for (corner = 0; corner < 8; corner++) {
                float q[3], w[3];
                q[0] = corner & 1 ? rm->bmax[0] : rm->bmin[0];
                q[1] = corner & 2 ? rm->bmax[1] : rm->bmin[1];
                q[2] = corner & 4 ? rm->bmax[2] : rm->bmin[2];
                kf3ds_mat4_transform_point(&P, q, w);
                any |= kf3ds__box_grow(mn, mx, w);
            }
        }
    }
    if (poses)
        any |= kf3ds__box_grow_nodes(s, poses, mn, mx);
    return any;
}

static void line3(kf3ds_framebuffer *fb, const kf3ds__proj *p, float ax, float ay, float az,
                  float bx, float by, float bz, uint32_t col, int depth)
{
    float a[3], b[3];
    a[0] = ax, a[1] = ay, a[2] = az;
    b[0] = bx, b[1] = by, b[2] = bz;
    kf3ds__line_world(fb, p, a, b, col, depth);
}

static void draw_box(kf3ds_framebuffer *fb, const kf3ds__proj *p, const float c[8][3],
                     uint32_t col)
{
    static const unsigned char e[12][2] = { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 },
                                            { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 },
                                            { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } };
    int i;
    for (i = 0; i < 12; i++)
        kf3ds__line_world(fb, p, c[e[i][0]], c[e[i][1]], col, 0);
}

static void draw_cross(kf3ds_framebuffer *fb, const kf3ds__proj *p, const float c[3], float s,
                       uint32_t col, int star)
{
    line3(fb, p, c[0] - s, c[1], c[2], c[0] + s, c[1], c[2], col, 0);
    line3(fb, p, c[0], c[1] - s, c[2], c[0], c[1] + s, c[2], col, 0);
    line3(fb, p, c[0], c[1], c[2] - s, c[0], c[1], c[2] + s, col, 0);
    if (star) {
        float d = s * 0.6f;
        line3(fb, p, c[0] - d, c[1] - d, c[2] - d, c[0] + d, c[1] + d, c[2] + d, col, 0);
        line3(fb, p, c[0] + d, c[1] - d, c[2] - d, c[0] - d, c[1] + d, c[2] + d, col, 0);
        line3(fb, p, c[0] - d, c[1] + d, c[2] - d, c[0] + d, c[1] - d, c[2] + d, col, 0);
        line3(fb, p, c[0] + d, c[1] + d, c[2] - d, c[0] - d, c[1] - d, c[2] + d, col, 0);
    }
}

/* The camera frame looking from pos to tgt, rolled: kf3ds_node_camera_view's
 * look-at (kf3ds__look_at), as floats for drawing. */
static int look_frame(const float pos[3], const float tgt[3], float roll_deg, float fwd[3],
                      float right[3], float up[3])
{
    double dp[3], dt[3], rows[3][3];
    kf3ds_mat4 view;
    int k;
    for (k = 0; k < 3; k++) {
        dp[k] = pos[k];
        dt[k] = tgt[k];
    }
    if (!kf3ds__look_at(dp, dt, roll_deg, &view, rows))
        return 0;
    for (k = 0; k < 3; k++) {
        right[k] = (float)rows[0][k];
        up[k] = (float)rows[1][k];
        fwd[k] = (float)-rows[2][k];
    }
    return 1;
}

static void draw_camera(kf3ds_framebuffer *fb, const kf3ds__proj *p, const float pos[3],
                        const float tgt[3], float roll, float fov, float size)
{
    float fwd[3], right[3], up[3], dist, len, hh, hw, c[4][3], top[3];
    int i, k;
    if (!kf3ds__finite3(pos) || !kf3ds__finite3(tgt) || !look_frame(pos, tgt, roll, fwd, right, up))
        return;
    kf3ds__line_world(fb, p, pos, tgt, COL_CAMERA & 0xFF7F7F7Fu, 0);
    dist = sqrtf((tgt[0] - pos[0]) * (tgt[0] - pos[0]) + (tgt[1] - pos[1]) * (tgt[1] - pos[1]) +
                 (tgt[2] - pos[2]) * (tgt[2] - pos[2]));
    len = size * 4.0f;
    if (dist > 0.0f && dist < len)
        len = dist;
    if (!(fov > 0.1f && fov < 179.0f))
        fov = 45.0f;
    hh = len * (float)tan(fov * 0.5 * DEG2RAD);
    hw = hh * (float)p->width / (float)p->height;
    for (i = 0; i < 4; i++) {
        float sx = (i == 0 || i == 3) ? -hw : hw, sy = i < 2 ? hh : -hh;
        for (k = 0; k < 3; k++)
            c[i][k] = pos[k] + fwd[k] * len + right[k] * sx + up[k] * sy;
        kf3ds__line_world(fb, p, pos, c[i], COL_CAMERA, 0);
    }
    for (i = 0; i < 4; i++)
        kf3ds__line_world(fb, p, c[i], c[(i + 1) & 3], COL_CAMERA, 0);
    /* a small triangle on top marks "up" */
    for (k = 0; k < 3; k++)
        top[k] = pos[k] + fwd[k] * len + up[k] * hh * 1.4f;
    kf3ds__line_world(fb, p, c[0], top, COL_CAMERA, 0);
    kf3ds__line_world(fb, p, c[1], top, COL_CAMERA, 0);
}

static uint32_t overlay_light_color(const float col[3], int off)
{
    float c[3], mx;
    if (off)
        return 0xFF606060u;
    sanitize_color(col, c, 1e6f);
    mx = c[0] > c[1] ? c[0] : c[1];
    mx = c[2] > mx ? c[2] : mx;
    if (!(mx > 0.0f))
        return 0xFFFFFF80u;
    return pack_rgb(0.4f + 0.6f * c[0] / mx, 0.4f + 0.6f * c[1] / mx, 0.4f + 0.6f * c[2] / mx);
}

static void draw_light(kf3ds_framebuffer *fb, const kf3ds__proj *p, const float pos[3],
                       const float col[3], int off, int spot, const float tgt[3], float fall,
                       float size)
{
    uint32_t c = overlay_light_color(col, off);
    if (!kf3ds__finite3(pos))
        return;
    draw_cross(fb, p, pos, size, c, 1);
    if (spot && tgt && kf3ds__finite3(tgt)) {
        float fwd[3], right[3], up[3], dist, len, rad, ring[16][3];
        int i, k;
        if (!look_frame(pos, tgt, 0.0f, fwd, right, up))
            return;
        kf3ds__line_world(fb, p, pos, tgt, c & 0xFF7F7F7Fu, 0);
        dist = sqrtf((tgt[0] - pos[0]) * (tgt[0] - pos[0]) +
                     (tgt[1] - pos[1]) * (tgt[1] - pos[1]) +
                     (tgt[2] - pos[2]) * (tgt[2] - pos[2]));
        len = size * 5.0f;
        if (dist > 0.0f && dist < len)
            len = dist;
        if (!(fall > 0.1f && fall < 179.0f))
            fall = fall >= 179.0f ? 179.0f : 45.0f;
        rad = len * (float)tan(fall * 0.5 * DEG2RAD);
        for (i = 0; i < 16; i++) {
            double a = i * (6.283185307179586 / 16.0);
            float ca = (float)cos(a), sa = (float)sin(a);
            for (k = 0; k < 3; k++)
                ring[i][k] = pos[k] + fwd[k] * len + (right[k] * ca + up[k] * sa) * rad;
        }
        for (i = 0; i < 16; i++) {
            kf3ds__line_world(fb, p, ring[i], ring[(i + 1) & 15], c, 0);
            if ((i & 3) == 0)
                kf3ds__line_world(fb, p, pos, ring[i], c, 0);
        }
    }
}

static float nice_step(float range)
{
    double raw = range / 12.0, mag, n;
    if (!(raw > 0.0 && raw < 1e30))
        return 1.0f;
    mag = pow(10.0, floor(log10(raw)));
    n = raw / mag;
    return (float)((n < 1.5 ? 1.0 : n < 3.5 ? 2.0 : n < 7.5 ? 5.0 : 10.0) * mag);
}

static void draw_grid(kf3ds_framebuffer *fb, const kf3ds__proj *p, const float mn[3],
                      const float mx[3])
{
    float ext = mx[0] - mn[0] > mx[1] - mn[1] ? mx[0] - mn[0] : mx[1] - mn[1];
    float step, x0, x1, y0, y1, v;
    int i, nx, ny;
    if (!(ext > 0.0f))
        ext = mx[2] - mn[2] > 0.0f ? mx[2] - mn[2] : 1.0f;
    step = nice_step(ext);
    x0 = (float)floor((mn[0] - ext * 0.1f) / step) * step;
    x1 = (float)ceil((mx[0] + ext * 0.1f) / step) * step;
    y0 = (float)floor((mn[1] - ext * 0.1f) / step) * step;
    y1 = (float)ceil((mx[1] + ext * 0.1f) / step) * step;
    nx = (int)((x1 - x0) / step + 0.5f);
    ny = (int)((y1 - y0) / step + 0.5f);
    if (!(nx >= 0 && nx <= 400 && ny >= 0 && ny <= 400))
        return;
    for (i = 0; i <= nx; i++) {
        v = x0 + step * (float)i;
        line3(fb, p, v, y0, 0.0f, v, y1, 0.0f,
              fabsf(v) < step * 0.01f ? COL_AXIS_Y : COL_GRID, 1);
    }
    for (i = 0; i <= ny; i++) {
        v = y0 + step * (float)i;
        line3(fb, p, x0, v, 0.0f, x1, v, 0.0f,
              fabsf(v) < step * 0.01f ? COL_AXIS_X : COL_GRID, 1);
    }
}

static void draw_overlays(kf3ds_renderer *r, const kf3ds__proj *p, const kf3ds_view *view,
                          const kf3ds_pose *poses, const kf3ds_render_options *o,
                          kf3ds_framebuffer *fb)
{
    const kf3ds_scene *s = r->scene;
    float mn[3], mx[3], size;
    uint32_t i;
    if (!approx_bounds(r, poses, mn, mx)) {
        mn[0] = mn[1] = mn[2] = -1.0f;
        mx[0] = mx[1] = mx[2] = 1.0f;
    }
    size = sqrtf((mx[0] - mn[0]) * (mx[0] - mn[0]) + (mx[1] - mn[1]) * (mx[1] - mn[1]) +
                 (mx[2] - mn[2]) * (mx[2] - mn[2])) * 0.015f;
    if (!(size > 0.0f && size < 1e30f))
        size = 0.05f;
    if (o->overlays & KF3DS_OVERLAY_GRID)
        draw_grid(fb, p, mn, mx);
    if (poses && (o->overlays & KF3DS_OVERLAY_HIERARCHY))
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            float a[3], b[3];
            kf3ds__pose_position(&poses[i], a);
            if (n->parent >= 0 && (uint32_t)n->parent < s->num_nodes) {
                kf3ds__pose_position(&poses[n->parent], b);
                if (kf3ds__finite3(a) && kf3ds__finite3(b))
                    kf3ds__line_world(fb, p, a, b, COL_HIER, 0);
            }
            if (n->type == KF3DS_NODE_OBJECT && (n->is_dummy || n->mesh < 0)) {
                float c[8][3];
                int k, ok = 1, corner;
                for (corner = 0; corner < 8; corner++) {
                    float q[3];
                    if (n->has_bbox) {
                        q[0] = (corner & 1 ? n->bbox_max[0] : n->bbox_min[0]) - n->pivot[0];
                        q[1] = (corner & 2 ? n->bbox_max[1] : n->bbox_min[1]) - n->pivot[1];
                        q[2] = (corner & 4 ? n->bbox_max[2] : n->bbox_min[2]) - n->pivot[2];
                        kf3ds_mat4_transform_point(&poses[i].world, q, c[corner]);
                        for (k = 0; k < 3; k++)
                            if (!(fabsf(c[corner][k] - a[k]) <= size * 400.0f))
                                ok = 0;
                    }
                }
                if (!n->has_bbox || !ok) {
                    if (!kf3ds__finite3(a))
                        continue;
                    for (corner = 0; corner < 8; corner++)
                        for (k = 0; k < 3; k++)
                            c[corner][k] = a[k] + ((corner >> k) & 1 ? size : -size) * 0.7f;
                }
                draw_box(fb, p, (const float (*)[3])c, COL_DUMMY);
            }
        }
    if (poses && (o->overlays & KF3DS_OVERLAY_PIVOTS))
        for (i = 0; i < s->num_nodes; i++) {
            float a[3];
            if (s->nodes[i].type != KF3DS_NODE_OBJECT)
                continue;
            kf3ds__pose_position(&poses[i], a);
            if (kf3ds__finite3(a))
                draw_cross(fb, p, a, size * 0.6f, COL_PIVOT, 0);
        }
    if (o->overlays & KF3DS_OVERLAY_CAMERAS) {
        int have = 0;
        if (poses)
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_node *n = &s->nodes[i];
                float pos[3], tgt[3];
                if (n->type != KF3DS_NODE_CAMERA)
                    continue;
                have = 1;
                if ((int32_t)i + 1 == o->through_camera)
                    continue;
                kf3ds__pose_position(&poses[i], pos);
                if (n->target >= 0 && (uint32_t)n->target < s->num_nodes)
                    kf3ds__pose_position(&poses[n->target], tgt);
                else if (n->camera >= 0 && (uint32_t)n->camera < s->num_cameras)
                    memcpy(tgt, s->cameras[n->camera].target, sizeof tgt);
                else
                    tgt[0] = pos[0], tgt[1] = pos[1] + 1.0f, tgt[2] = pos[2];
                draw_camera(fb, p, pos, tgt, poses[i].roll, poses[i].fov, size);
            }
        if (!have)
            for (i = 0; i < s->num_cameras; i++)
                draw_camera(fb, p, s->cameras[i].position, s->cameras[i].target,
                            s->cameras[i].roll, s->cameras[i].fov, size);
    }
    if (o->overlays & KF3DS_OVERLAY_LIGHTS) {
        int have = 0;
        if (poses)
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_light *el;
                float pos[3], tgt[3];
                const float *tp;
                if (!light_node(s, poses, i, pos, tgt, &tp, &el))
                    continue;
                have = 1;
                draw_light(fb, p, pos, poses[i].color, el && el->off,
                           s->nodes[i].type == KF3DS_NODE_SPOT, tp, poses[i].falloff, size);
            }
        if (!have)
            for (i = 0; i < s->num_lights; i++) {
                const kf3ds_light *l = &s->lights[i];
                draw_light(fb, p, l->position, l->color, l->off, l->spot, l->target, l->falloff,
                           size);
            }
    }
    if (poses && (o->overlays & KF3DS_OVERLAY_NAMES))
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            const char *label = n->name;
            float a[3], x, y;
            if (n->type == KF3DS_NODE_AMBIENT || n->type == KF3DS_NODE_TARGET ||
                n->type == KF3DS_NODE_LTARGET)
                continue;
            if (n->type == KF3DS_NODE_OBJECT && poses[i].hidden)
                continue;
            if ((n->type == KF3DS_NODE_CAMERA && (int32_t)i + 1 == o->through_camera))
                continue;
            if (n->is_dummy && n->instance && n->instance[0])
                label = n->instance;
            if (!label || !label[0])
                continue;
            kf3ds__pose_position(&poses[i], a);
            if (!kf3ds__finite3(a) || !kf3ds_view_project(view, fb->width, fb->height, a, &x, &y, NULL))
                continue;
            if (!(x > -1e6f && x < 1e6f && y > -1e6f && y < 1e6f))
                continue;
            kf3ds_raster_text(fb, (int)x + 4, (int)y - 10, label, COL_NAME, 1);
        }
}

/* ------------------------------------------------------------------------ */
/* Scene                                                                    */
/* ------------------------------------------------------------------------ */

void kf3ds_render_scene(kf3ds_renderer *r, const kf3ds_pose *poses, const kf3ds_view *view,
                        const kf3ds_render_options *options, kf3ds_framebuffer *fb,
                        kf3ds_render_stats *stats)
{
    kf3ds_render_options o;
    kf3ds_render_stats st;
    kf3ds__proj p;
    const kf3ds_scene *s;
    uint32_t i;
    memset(&st, 0, sizeof st);
    if (stats)
        *stats = st;
    if (!fb || !fb->color || fb->width <= 0 || fb->height <= 0)
        return;
    if (options) {
        o = *options;
    } else {
        memset(&o, 0, sizeof o);
        o.through_camera = 0;
    }
    kf3ds_fb_clear(fb, o.background ? (o.background | 0xFF000000u) : DEFAULT_BACKGROUND);
    if (!r || !fb->depth || !kf3ds__proj_setup(&p, view, fb->width, fb->height))
        return;
    s = r->scene;
    if (o.shading != KF3DS_SHADE_FLAT && o.shading != KF3DS_SHADE_WIRE)
        o.shading = KF3DS_SHADE_SMOOTH;
    setup_lights(r, &p, poses, &o);
    if (r->node_mode && poses) {
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            kf3ds_mat4 P;
            int32_t mi;
            if (n->type != KF3DS_NODE_OBJECT || poses[i].hidden)
                continue;
            mi = kf3ds_node_pose_mesh(s, i, &poses[i]);
            if (mi < 0 || !kf3ds_node_mesh_matrix(s, i, &poses[i], &P))
                continue;
            draw_mesh(r, &p, (uint32_t)mi, &P, o.shading, fb, &st);
        }
    } else if (!r->node_mode) {
        for (i = 0; i < s->num_meshes; i++) {
            kf3ds_mat4 P;
            if (s->meshes[i].hidden)
                continue;
            kf3ds_mesh_editor_matrix(&s->meshes[i], &P);
            draw_mesh(r, &p, i, &P, o.shading, fb, &st);
        }
    }
    if (o.overlays)
        draw_overlays(r, &p, view, poses, &o, fb);
    if (stats)
        *stats = st;
}

void kf3ds_view_orbit(const float min[3], const float max[3], float azimuth_degrees,
                      float elevation_degrees, float fov_y_degrees, float aspect,
                      kf3ds_view *out)
{
    double c[3], half[3], radius, fov, half_angle, hx, dist, az, el, fwd[3], right[3], up[3],
        eye[3];
    int k, ok = min && max;
    if (!out)
        return;
    for (k = 0; k < 3 && ok; k++)
        if (!(fabsf(min[k]) <= 1e30f && fabsf(max[k]) <= 1e30f && min[k] <= max[k]))
            ok = 0;
    for (k = 0; k < 3; k++) {
        c[k] = ok ? 0.5 * ((double)min[k] + max[k]) : 0.0;
        half[k] = ok ? 0.5 * ((double)max[k] - min[k]) : 1.0;
    }
    radius = sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
    if (!(radius > 1e-12))
        radius = 1.0;
    fov = fov_y_degrees;
    if (!(fov >= 1.0 && fov <= 170.0))
        fov = fov > 170.0 ? 170.0 : 45.0;
    if (!(aspect > 1e-3f && aspect < 1e3f))
        aspect = 1.0f;
    half_angle = fov * 0.5 * DEG2RAD;
    hx = atan(tan(half_angle) * aspect);
    if (hx < half_angle)
        half_angle = hx;
    dist = radius / sin(half_angle);
    az = azimuth_degrees == azimuth_degrees ? azimuth_degrees * DEG2RAD : 0.0;
    el = elevation_degrees == elevation_degrees ? elevation_degrees * DEG2RAD : 0.0;
    if (el > 89.9 * DEG2RAD)
        el = 89.9 * DEG2RAD;
    if (el < -89.9 * DEG2RAD)
        el = -89.9 * DEG2RAD;
    /* Azimuth 0 looks along +y, 90 along +x; elevation looks down from above. */
    fwd[0] = sin(az) * cos(el);
    fwd[1] = cos(az) * cos(el);
    fwd[2] = -sin(el);
    right[0] = fwd[1];
    right[1] = -fwd[0];
    right[2] = 0.0;
    {
        double l = sqrt(right[0] * right[0] + right[1] * right[1]);
        right[0] /= l;
        right[1] /= l;
    }
    up[0] = right[1] * fwd[2] - right[2] * fwd[1];
    up[1] = right[2] * fwd[0] - right[0] * fwd[2];
    up[2] = right[0] * fwd[1] - right[1] * fwd[0];
    for (k = 0; k < 3; k++)
        eye[k] = c[k] - fwd[k] * dist;
    kf3ds_mat4_identity(&out->view);
    for (k = 0; k < 3; k++) {
        out->view.m[0][k] = (float)right[k];
        out->view.m[1][k] = (float)up[k];
        out->view.m[2][k] = (float)-fwd[k];
    }
    out->view.m[0][3] = (float)-(right[0] * eye[0] + right[1] * eye[1] + right[2] * eye[2]);
    out->view.m[1][3] = (float)-(up[0] * eye[0] + up[1] * eye[1] + up[2] * eye[2]);
    out->view.m[2][3] = (float)(fwd[0] * eye[0] + fwd[1] * eye[1] + fwd[2] * eye[2]);
    out->fov_y_degrees = (float)fov;
    out->near_plane = (float)(dist - radius * 1.5 > dist * 0.01 ? dist - radius * 1.5 : dist * 0.01);
    out->far_plane = (float)(dist + radius * 3.0);
}

/* A camera view's FOV and planes, its matrix already set: the planes from
 * the camera's ranges (cam may be NULL) widened to the scene bounds. */
static void finish_camera_view(const kf3ds_scene *scene, const kf3ds_pose *poses,
                               const kf3ds_camera *cam, float fov, kf3ds_view *out)
{
    float mn[3], mx[3], nearp = 0.0f, farp = 0.0f;
    /* The 3DS FOV is taken as the vertical angle, as lib3ds's viewer passes it
     * to gluPerspective; which axis 3D Studio meant is not documented. */
    if (!(fov >= 0.1f && fov <= 179.0f))
        fov = fov > 179.0f ? 179.0f : 45.0f;
    out->fov_y_degrees = fov;
    if (cam) {
        if (cam->near_range > 0.0f && cam->near_range < 1e30f)
            nearp = cam->near_range;
        if (cam->far_range > nearp && cam->far_range < 1e30f)
            farp = cam->far_range;
    }
    if (kf3ds_scene_bounds(scene, poses, mn, mx)) {
        /* From the box: the far plane reaches its farthest corner, the near
         * plane stays before its nearest one (and is small anyway: depth is
         * kept as 1/d, whose relative precision does not depend on near).
         * CAM_RANGES are 3DS's atmosphere ranges rather than clip planes, so
         * they are widened when they would cut the scene off. */
        float dmin = INFINITY, dmax = 0.0f, diag, bnear, bfar;
        int corner;
        diag = sqrtf((mx[0] - mn[0]) * (mx[0] - mn[0]) + (mx[1] - mn[1]) * (mx[1] - mn[1]) +
                     (mx[2] - mn[2]) * (mx[2] - mn[2]));
        if (!(diag > 0.0f && diag < 1e30f))
            diag = 1.0f;
        for (corner = 0; corner < 8; corner++) {
            float q[3], d;
            q[0] = corner & 1 ? mx[0] : mn[0];
            q[1] = corner & 2 ? mx[1] : mn[1];
            q[2] = corner & 4 ? mx[2] : mn[2];
            d = -(out->view.m[2][0] * q[0] + out->view.m[2][1] * q[1] +
                  out->view.m[2][2] * q[2] + out->view.m[2][3]);
            if (d > dmax)
                dmax = d;
            if (d < dmin)
                dmin = d;
        }
        bnear = diag * 1e-4f;
        if (dmin * 0.5f > bnear)
            bnear = dmin * 0.5f;
        bfar = (dmax > 0.0f ? dmax : diag) * 1.05f + diag * 0.01f;
        if (nearp <= 0.0f || nearp > bnear)
            nearp = bnear;
        if (farp < bfar)
            farp = bfar;
    }
    if (!(nearp > 0.0f))
        nearp = 0.01f;
    if (!(farp > nearp))
        farp = nearp * 1e6f;
    out->near_plane = nearp;
    out->far_plane = farp;
}

int kf3ds_view_from_camera(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *poses,
                           kf3ds_view *out)
{
    float fov = 45.0f;
    int32_t cam;
    if (!scene || !poses || !out || node >= scene->num_nodes)
        return 0;
    if (!kf3ds_node_camera_view(scene, node, poses, &out->view, &fov, NULL))
        return 0;
    cam = scene->nodes[node].camera;
    finish_camera_view(scene, poses,
                       cam >= 0 && (uint32_t)cam < scene->num_cameras ? &scene->cameras[cam] : NULL,
                       fov, out);
    return 1;
}

int kf3ds_view_from_editor_camera(const kf3ds_scene *scene, uint32_t camera,
                                  const kf3ds_pose *poses, kf3ds_view *out)
{
    const kf3ds_camera *c;
    double pos[3], tgt[3], rows[3][3];
    int k;
    if (!scene || !out || camera >= scene->num_cameras)
        return 0;
    c = &scene->cameras[camera];
    for (k = 0; k < 3; k++) {
        pos[k] = c->position[k];
        tgt[k] = c->target[k];
    }
    kf3ds__look_at(pos, tgt, c->roll, &out->view, rows);
    finish_camera_view(scene, poses, c, c->fov, out);
    return 1;
}
