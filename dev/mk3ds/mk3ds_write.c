/* Serialising mk3ds scenes (mk3ds.h) with the library's scene builder and
 * writer: the editor data (materials, box meshes, cameras, lights), then the
 * keyframer (one node per node, its tracks and keys); and the pieces the
 * benchmark files share. */
#include "mk3ds.h"

#include <stdlib.h>
#include <string.h>

static const uint16_t box_faces[36] = {
    0, 2, 3, 0, 3, 1, /* -Z */
    4, 5, 7, 4, 7, 6, /* +Z */
    0, 1, 5, 0, 5, 4, /* -Y */
    2, 6, 7, 2, 7, 3, /* +Y */
    0, 4, 6, 0, 6, 2, /* -X */
    1, 3, 7, 1, 7, 5  /* +X */
};

void check_builder(const kf3ds_builder *b, const char *what)
{
    const kf3ds_diag *e = kf3ds_builder_error(b);
    if (!e || e->code != KF3DS_OK)
        die("%s: %s", what, e ? e->message : "no builder");
}

int32_t build_mesh(kf3ds_builder *b, const char *name, const float *points, uint32_t n,
                   const uint16_t *faces, uint32_t nf, const float *matrix,
                   const char *material)
{
    kf3ds_face *f = xrealloc(NULL, (nf ? nf : 1) * sizeof *f);
    kf3ds_mat4 m;
    uint32_t i;
    int32_t mesh;
    kf3ds_mat4_identity(&m);
    for (i = 0; matrix && i < 4; i++) { /* X, Y, Z axes and origin: the columns */
        m.m[0][i] = matrix[3 * i];
        m.m[1][i] = matrix[3 * i + 1];
        m.m[2][i] = matrix[3 * i + 2];
    }
    for (i = 0; i < nf; i++) {
        f[i].v[0] = faces[3 * i];
        f[i].v[1] = faces[3 * i + 1];
        f[i].v[2] = faces[3 * i + 2];
        f[i].flags = 7; /* every edge visible */
    }
    mesh = kf3ds_builder_add_mesh(b, name, (const float(*)[3])points, n, f, nf, &m);
    if (material) { /* one material and one smoothing group on every face */
        uint32_t *smooth = xrealloc(NULL, (nf ? nf : 1) * sizeof *smooth);
        for (i = 0; i < nf; i++)
            smooth[i] = 1;
        kf3ds_builder_mesh_material(b, mesh, material, NULL, 0);
        kf3ds_builder_mesh_smoothing(b, mesh, smooth);
        free(smooth);
    }
    free(f);
    check_builder(b, name);
    return mesh;
}

/* A box mesh: 8 corners of the object-local box placed by `mm`; faces wound
 * outward in world space (reversed when mm mirrors). */
static void build_box(kf3ds_builder *b, const char *name, const mat4 *mm, const double c[3],
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
    build_mesh(b, name, pts, 8, faces, 12, mf, material);
}

static void color_from_bytes(float out[3], const uint8_t in[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = in[i] / 255.0f;
}

static void build_track(kf3ds_builder *b, int node, const track *t)
{
    kf3ds_track_kind kind = (kf3ds_track_kind)(t->tag - KF3DS_CHUNK_POS_TRACK_TAG);
    int i;
    kf3ds_builder_track_flags(b, node, kind, t->flags);
    for (i = 0; i < t->n; i++) {
        const kkey *k = &t->k[i];
        kf3ds_key key;
        memset(&key, 0, sizeof key);
        key.frame = k->frame;
        key.spline_flags = k->tcb.flags;
        key.tension = k->tcb.tension;
        key.continuity = k->tcb.continuity;
        key.bias = k->tcb.bias;
        key.ease_to = k->tcb.ease_to;
        key.ease_from = k->tcb.ease_from;
        memcpy(key.value, k->v, sizeof key.value);
        key.morph_name = k->name;
        kf3ds_builder_add_key(b, node, kind, &key);
    }
}

static void build_node(kf3ds_builder *b, const scene *s, int i)
{
    const node *n = &s->nodes[i];
    int j, index;
    /* the builder takes only parents added before: a later one (the random
     * file order of bench-random) is set on the scene by set_file_parents */
    index = kf3ds_builder_add_node(b, (kf3ds_node_type)(n->tag - KF3DS_CHUNK_AMBIENT_NODE_TAG),
                                   n->name, n->parent < i ? n->parent : KF3DS_NONE);
    if (n->has_id)
        kf3ds_builder_node_id(b, index, n->id);
    if (n->inst[0])
        kf3ds_builder_node_instance(b, index, n->inst);
    kf3ds_builder_node_flags(b, index, n->flags1, n->flags2);
    kf3ds_builder_node_pivot(b, index, n->pivot);
    for (j = 0; j < n->ntr; j++)
        build_track(b, index, &n->tr[j]);
    check_builder(b, n->name);
}

void save_built(kf3ds_builder *b, const char *path, void (*edit)(kf3ds_scene *, void *),
                void *user)
{
    kf3ds_diag err;
    kf3ds_scene *s = kf3ds_builder_finish(b, &err);
    if (!s)
        die("%s: %s", path, err.message);
    if (edit)
        edit(s, user);
    if (kf3ds_save_file(s, path, NULL, &err) != KF3DS_OK)
        die("%s: %s", path, err.message);
    kf3ds_scene_free(s);
}

void add_quad(uint16_t *faces, uint32_t *nf, uint16_t v0, uint16_t v1, uint16_t v2, uint16_t v3)
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

void translated_mesh_matrix(float mf[12], double x, double y)
{
    static const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    memcpy(mf, identity, sizeof identity);
    mf[9] = (float)x;
    mf[10] = (float)y;
}

void build_constant_track(kf3ds_builder *b, int node, kf3ds_track_kind kind, const float *v,
                          size_t n)
{
    kf3ds_key key;
    memset(&key, 0, sizeof key);
    memcpy(key.value, v, n * sizeof *v);
    kf3ds_builder_add_key(b, node, kind, &key);
}

/* The parents the builder does not make, set on the scene before it is
 * written: NODE_HDR parent fields that match no node (a sample's deliberate
 * oddity) and parents that come after their child in the file (the writer
 * writes the parent's id). */
static void set_file_parents(kf3ds_scene *out, void *user)
{
    const scene *s = (const scene *)user;
    int i;
    for (i = 0; i < s->nn; i++)
        if (s->nodes[i].raw_parent >= 0)
            out->nodes[i].parent_raw = (uint16_t)s->nodes[i].raw_parent;
        else if (s->nodes[i].parent > i)
            out->nodes[i].parent = s->nodes[i].parent;
}

void scene_save(scene *s, const char *path)
{
    kf3ds_builder *b = kf3ds_builder_create(NULL);
    int i;
    if (!b)
        die("out of memory");
    for (i = 0; i < s->nmat; i++) {
        kf3ds_material m;
        memset(&m, 0, sizeof m);
        m.name = s->mats[i].name;
        color_from_bytes(m.ambient, s->mats[i].amb);
        color_from_bytes(m.diffuse, s->mats[i].dif);
        color_from_bytes(m.specular, s->mats[i].spe);
        kf3ds_builder_add_material(b, &m);
    }
    for (i = 0; i < s->nm; i++) {
        mat4 mm = mesh_matrix(s, &s->meshes[i]);
        build_box(b, s->meshes[i].name, &mm, s->meshes[i].center, s->meshes[i].half,
                  s->meshes[i].material);
    }
    for (i = 0; i < s->ncam; i++) {
        kf3ds_camera c;
        memset(&c, 0, sizeof c);
        c.name = s->cams[i].name;
        memcpy(c.position, s->cams[i].pos, sizeof c.position);
        memcpy(c.target, s->cams[i].target, sizeof c.target);
        c.roll = s->cams[i].roll;
        c.lens = s->cams[i].lens;
        kf3ds_builder_add_camera(b, &c);
    }
    for (i = 0; i < s->nlight; i++) {
        const light *l = &s->lights[i];
        kf3ds_light k;
        memset(&k, 0, sizeof k);
        k.name = l->name;
        memcpy(k.position, l->pos, sizeof k.position);
        memcpy(k.color, l->color, sizeof k.color);
        k.multiplier = 1.0f;
        k.spot = (uint8_t)l->spot;
        if (l->spot) {
            memcpy(k.target, l->target, sizeof k.target);
            k.hotspot = l->hot;
            k.falloff = l->fall;
        }
        kf3ds_builder_add_light(b, &k);
    }
    check_builder(b, path);
    kf3ds_builder_keyframer(b, s->kfname, s->length, s->seg_from, s->seg_to);
    for (i = 0; i < s->nn; i++)
        build_node(b, s, i);
    save_built(b, path, set_file_parents, s);
}
