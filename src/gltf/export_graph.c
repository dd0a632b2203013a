/* kf3ds export: the glTF node list the other parts add to (export_internal.h):
 * nodes and the properties to animate, whether a node may hide, and the
 * quaternion normalisation that node values and samples share. A unit of
 * its own below export_nodes.c, export_editor.c and export_anim.c, so that
 * they call down to it and not into each other (no unit loops,
 * docs/architecture.md "Rules"). */
#include "export_internal.h"
#include <math.h>
#include <string.h>

/* NODE_HDR flags1: hidden at every frame (docs/evaluation.md, "Hide track"). */
#define NODE_HIDDEN 0x0800

void export_quat_normalize(float q[4])
{
    double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                    (double)q[3] * q[3]);
    int k;
    if (!(l > 1e-30 && l < 1e300)) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
        return;
    }
    for (k = 0; k < 4; k++)
        q[k] = (float)(q[k] / l);
}

int export_node_may_hide(const export_ctx *c, uint32_t i)
{
    const kf3ds_node *n = &c->s->nodes[i];
    if (n->type != KF3DS_NODE_OBJECT)
        return 0;
    if (!c->animate)
        return c->poses[i].hidden;
    /* A one-key hide track never hides. */
    return (n->flags1 & NODE_HIDDEN) || n->tracks[KF3DS_TRACK_HIDE].num_keys >= 2;
}

uint32_t export_add_node(export_ctx *c, const char *name, int32_t parent)
{
    ex_node *g;
    if (c->num_nodes == c->cap_nodes) {
        uint32_t cap = c->cap_nodes ? c->cap_nodes * 2 : 64;
        ex_node *p = cap > c->cap_nodes ? EX_GROW(c, c->nodes, c->cap_nodes * sizeof *p,
                                                  (size_t)cap * sizeof *p)
                                        : NULL;
        if (!p) {
            c->oom = 1;
            return 0; /* the root: harmless, the export fails anyway */
        }
        c->nodes = p;
        c->cap_nodes = cap;
    }
    g = &c->nodes[c->num_nodes];
    memset(g, 0, sizeof *g);
    g->name = name;
    g->parent = parent;
    g->r[3] = 1.0f;
    g->s[0] = g->s[1] = g->s[2] = 1.0f;
    g->mesh = g->camera = g->light = g->kf3ds_index = -1;
    g->visible = -1;
    return c->num_nodes++;
}

void export_add_prop(export_ctx *c, ex_prop_kind kind, uint32_t gnode, uint32_t node,
                     int32_t mesh, int32_t target)
{
    ex_prop *p;
    if (!c->animate)
        return;
    if (c->num_props == c->cap_props) {
        uint32_t cap = c->cap_props ? c->cap_props * 2 : 64;
        ex_prop *q = cap > c->cap_props ? EX_GROW(c, c->props, c->cap_props * sizeof *q,
                                                  (size_t)cap * sizeof *q)
                                        : NULL;
        if (!q) {
            c->oom = 1;
            return;
        }
        c->props = q;
        c->cap_props = cap;
    }
    p = &c->props[c->num_props++];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->gnode = gnode;
    p->node = node;
    p->mesh = mesh;
    p->target = target;
}
