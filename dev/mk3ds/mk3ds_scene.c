/* The mk3ds scene model (mk3ds.h): nodes with their tracks and keys, meshes,
 * materials, cameras and lights, built in memory before mk3ds_write.c
 * serialises them. */
#include "mk3ds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void scene_init(scene *s, const char *kfname, int32_t length)
{
    memset(s, 0, sizeof *s);
    copy_name(s->kfname, sizeof s->kfname, kfname);
    s->length = length;
    s->seg_from = 0;
    s->seg_to = length;
}

void scene_free(scene *s)
{
    int i, j;
    for (i = 0; i < s->nn; i++)
        for (j = 0; j < s->nodes[i].ntr; j++)
            free(s->nodes[i].tr[j].k);
    free(s->nodes);
    free(s->meshes);
    memset(s, 0, sizeof *s);
}

int add_node(scene *s, uint16_t tag, const char *name, int parent)
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

void set_id(scene *s, int i, uint16_t id)
{
    s->nodes[i].has_id = 1;
    s->nodes[i].id = id;
}

void set_inst(scene *s, int i, const char *inst)
{
    copy_name(s->nodes[i].inst, sizeof s->nodes[i].inst, inst);
}

void set_pivot(scene *s, int i, double x, double y, double z)
{
    s->nodes[i].pivot[0] = (float)x;
    s->nodes[i].pivot[1] = (float)y;
    s->nodes[i].pivot[2] = (float)z;
}

track *add_track(scene *s, int i, uint16_t tag, uint16_t flags)
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

kkey *add_key(track *t, int32_t frame)
{
    kkey *k;
    t->k = grow_array(t->k, t->n, &t->cap, 8, sizeof *t->k);
    k = &t->k[t->n++];
    memset(k, 0, sizeof *k);
    k->frame = frame;
    return k;
}

kkey *key4(track *t, int32_t frame, double a, double b, double c, double d)
{
    kkey *k = add_key(t, frame);
    k->v[0] = (float)a;
    k->v[1] = (float)b;
    k->v[2] = (float)c;
    k->v[3] = (float)d;
    return k;
}

kkey *key3(track *t, int32_t frame, double a, double b, double c)
{
    return key4(t, frame, a, b, c, 0);
}

kkey *key1(track *t, int32_t frame, double a)
{
    return key4(t, frame, a, 0, 0, 0);
}

kkey *keyrot(track *t, int32_t frame, double deg, double x, double y, double z)
{
    double len = sqrt(x * x + y * y + z * z);
    if (len > 0) {
        x /= len;
        y /= len;
        z /= len;
    }
    return key4(t, frame, deg * PI / 180.0, x, y, z);
}

kkey *keyname(track *t, int32_t frame, const char *name)
{
    kkey *k = add_key(t, frame);
    /* lib3ds 1.3 reads morph names into 11 bytes: keep them short */
    if (strlen(name) > 10)
        die("morph target name too long: %s", name);
    copy_name(k->name, sizeof k->name, name);
    return k;
}

void tcb(kkey *k, double t, double c, double b)
{
    k->tcb.tension = (float)t;
    k->tcb.continuity = (float)c;
    k->tcb.bias = (float)b;
}

void ease(kkey *k, double to, double from)
{
    k->tcb.ease_to = (float)to;
    k->tcb.ease_from = (float)from;
}

track *add_turning_tracks(scene *s, int i, uint16_t rot_flags, double x, double y, double z)
{
    track *rot;
    key3(add_track(s, i, KF3DS_CHUNK_POS_TRACK_TAG, 0), 0, x, y, z);
    rot = add_track(s, i, KF3DS_CHUNK_ROT_TRACK_TAG, rot_flags);
    key3(add_track(s, i, KF3DS_CHUNK_SCL_TRACK_TAG, 0), 0, 1, 1, 1);
    return rot;
}

track *find_track(node *n, uint16_t tag)
{
    int i;
    for (i = 0; i < n->ntr; i++)
        if (n->tr[i].tag == tag)
            return &n->tr[i];
    return NULL;
}

int add_mesh(scene *s, const char *name, const char *material, int rest_node, double cx, double cy,
             double cz, double hx, double hy, double hz)
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

/* A TCB value in [-1, 1], mostly small. */
static double random_tcb_value(void)
{
    if (chance(0.1))
        return rnduni(-1, 1);
    return rnduni(-0.3, 0.3);
}

void random_tcb(kkey *k, double p)
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

void add_material(scene *s, const char *name, int r, int g, int b)
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
