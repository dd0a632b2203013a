/* mk3ds frame-0 evaluation (mk3ds.h): the node matrices at frame 0, computed
 * with the rules of docs/evaluation.md (stable key sort, accumulated
 * rotations, first key held before the track starts) but only what t = 0
 * needs. They place the meshes (MESH_MATRIX), cameras and lights so that the
 * editor data agrees with the keyframer. */
#include "mk3ds.h"

#include <stdlib.h>
#include <string.h>

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
    track_value0(find_track(n, KF3DS_CHUNK_POS_TRACK_TAG), pos);
    switch (n->tag) {
    case KF3DS_CHUNK_OBJECT_NODE_TAG: {
        mat4 rot = track_rot0(find_track(n, KF3DS_CHUNK_ROT_TRACK_TAG));
        track_value0(find_track(n, KF3DS_CHUNK_SCL_TRACK_TAG), scl);
        local = mat_mul(mat_mul(mat_translate(pos[0], pos[1], pos[2]), rot),
                        mat_scale(scl[0], scl[1], scl[2]));
        break;
    }
    case KF3DS_CHUNK_AMBIENT_NODE_TAG:
        break;
    default: /* cameras, targets, lights: translation only */
        local = mat_translate(pos[0], pos[1], pos[2]);
        break;
    }
    n->world0 = mat_mul(parent, local);
    n->done = 1;
    return n->world0;
}

void node_pos0(scene *s, int i, double out[3])
{
    mat4 w = node_world0(s, i);
    out[0] = w.m[0][3];
    out[1] = w.m[1][3];
    out[2] = w.m[2][3];
}

mat4 mesh_matrix(scene *s, const mesh *m)
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

void add_camera_at_nodes(scene *s, const char *name, int cam_node, int target_node, double roll,
                         double lens)
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

light *add_light_at_node(scene *s, const char *name, int light_node, double r, double g, double b)
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
