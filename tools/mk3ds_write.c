/* Serialising mk3ds scenes with write3ds (mk3ds.h): the editor section
 * (materials, box meshes, cameras, lights), then the keyframer (KFDATA with
 * one node chunk per node); and the pieces the benchmark files share. */
#include "mk3ds.h"

#include <string.h>

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
        case KF3DS_CHUNK_POS_TRACK_TAG:
        case KF3DS_CHUNK_SCL_TRACK_TAG:
        case KF3DS_CHUNK_COL_TRACK_TAG:
            w3ds_f32v(w, k->v, 3);
            break;
        case KF3DS_CHUNK_ROT_TRACK_TAG:
            w3ds_f32v(w, k->v, 4);
            break;
        case KF3DS_CHUNK_FOV_TRACK_TAG:
        case KF3DS_CHUNK_ROLL_TRACK_TAG:
        case KF3DS_CHUNK_HOT_TRACK_TAG:
        case KF3DS_CHUNK_FALL_TRACK_TAG:
            w3ds_f32(w, k->v[0]);
            break;
        case KF3DS_CHUNK_MORPH_TRACK_TAG:
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
        parent = W3DS_NO_PARENT;
    else
        parent = node_ident(s, n->parent);

    w3ds_begin(w, n->tag);
    if (n->has_id) {
        w3ds_begin(w, KF3DS_CHUNK_NODE_ID);
        w3ds_u16(w, n->id);
        w3ds_end(w);
    }
    w3ds_node_hdr(w, n->name, n->flags1, n->flags2, parent);
    if (n->inst[0]) {
        w3ds_begin(w, KF3DS_CHUNK_INSTANCE_NAME);
        w3ds_cstr(w, n->inst);
        w3ds_end(w);
    }
    if (n->tag == KF3DS_CHUNK_OBJECT_NODE_TAG) {
        w3ds_begin(w, KF3DS_CHUNK_PIVOT);
        w3ds_f32v(w, n->pivot, 3);
        w3ds_end(w);
    }
    for (j = 0; j < n->ntr; j++)
        write_track(w, &n->tr[j]);
    w3ds_end(w);
}

void begin_kfdata(w3ds *w, const char *name, int32_t length, int32_t from, int32_t to)
{
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    w3ds_begin(w, KF3DS_CHUNK_KFHDR);
    w3ds_u16(w, 5);
    w3ds_cstr(w, name);
    w3ds_u32(w, (uint32_t)length);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_KFSEG);
    w3ds_i32(w, from);
    w3ds_i32(w, to);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_KFCURTIME);
    w3ds_i32(w, 0);
    w3ds_end(w);
}

void start_file(w3ds *w)
{
    w3ds_init(w);
    w3ds_begin(w, KF3DS_CHUNK_M3DMAGIC);
    w3ds_begin(w, KF3DS_CHUNK_M3D_VERSION);
    w3ds_u32(w, 3);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MDATA);
    w3ds_begin(w, KF3DS_CHUNK_MESH_VERSION);
    w3ds_u32(w, 3);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MASTER_SCALE);
    w3ds_f32(w, 1.0f);
    w3ds_end(w);
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

void write_constant_track(w3ds *w, uint16_t id, const float *v, size_t n)
{
    w3ds_begin(w, id);
    w3ds_track_header(w, 0, 1);
    w3ds_key_header(w, 0, NULL);
    w3ds_f32v(w, v, n);
    w3ds_end(w);
}

void finish_file(w3ds *w, const char *path)
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

void scene_save(scene *s, const char *path)
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
