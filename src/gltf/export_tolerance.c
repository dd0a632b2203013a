/* kf3ds export: how far each animated property may stray from kf3ds's own
 * evaluation (docs/gltf.md, "Resampling"). The tolerance is a fraction of
 * the scene's extent; this file turns it into a budget per node and
 * channel so that every placed vertex stays within tolerance × extent.
 *
 * A vertex of node v moves with the translation, rotation and scale of v
 * and of every ancestor. Each node a gets tol·extent / (3·D_a), D_a the
 * deepest depth below a (a itself included): along any chain the budgets
 * then add up to at most tol·extent. A channel's own bound follows from how
 * its error moves the vertices of a's subtree (N = Np·T·R·S):
 *   translation  Np·δT            |δT| ≤ budget / σ(Np)
 *   rotation     Np·δR·(S·q)      δθ  ≤ budget / r       (r: world distance from a's origin)
 *   scale        Np·R·δS·q        |δs| ≤ budget / (σ(Np)·|q|)  (q = N⁻¹·vertex)
 * σ(Np) is the largest column length of the parent's 3×3 part (its largest
 * stretch when the parent does not shear); for rotation r is exact when the
 * parent scales evenly. The extents and distances are taken at up to
 * MAX_FRAMES frames spread over the export. */
#include "export_internal.h"
#include <math.h>
#include <string.h>

/* Frames the extent and the distances are measured at. */
#define MAX_FRAMES 100
/* A property that moves no vertex still keeps a sensible bound. */
#define MAX_ANGLE 1e-2

static double column_stretch(const kf3ds_mat4 *m)
{
    double best = 0.0;
    int k;
    for (k = 0; k < 3; k++) {
        double l = sqrt((double)m->m[0][k] * m->m[0][k] + (double)m->m[1][k] * m->m[1][k] +
                        (double)m->m[2][k] * m->m[2][k]);
        if (l > best)
            best = l;
    }
    return best;
}

static double length3(const float a[3])
{
    return sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
}

/* One point of node v's subtree (world position w) seen from every
 * ancestor a of v: the largest world distance and |q|. */
static void reach(export_ctx *c, uint32_t v, const float w[3], double *rot_r, double *scl_r,
                  const kf3ds_mat4 *inv)
{
    const kf3ds_scene *s = c->s;
    int32_t a = (int32_t)v;
    uint32_t guard = 0;
    while (a >= 0 && (uint32_t)a < s->num_nodes && guard++ <= s->num_nodes) {
        const kf3ds_mat4 *n = &c->poses[a].world;
        float d[3], q[3];
        int k;
        for (k = 0; k < 3; k++)
            d[k] = w[k] - n->m[k][3];
        if (length3(d) > rot_r[a])
            rot_r[a] = length3(d);
        kf3ds_mat4_transform_point(&inv[a], w, q);
        if (length3(q) > scl_r[a])
            scl_r[a] = length3(q);
        a = s->nodes[a].parent;
    }
}

int kf3ds__export_tolerances(export_ctx *c)
{
    const kf3ds_scene *s = c->s;
    uint32_t n = s->num_nodes, i, f, nf, v;
    double *rot_r, *scl_r, *stretch, box[6] = { INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY };
    double extent = 0.0, tol = c->o->tolerance;
    uint32_t *deep;
    kf3ds_mat4 *inv;
    int any = 0, k;
    c->tol_pos = EX_CALLOC(c, n + 1, sizeof *c->tol_pos);
    c->tol_rot = EX_CALLOC(c, n + 1, sizeof *c->tol_rot);
    c->tol_scl = EX_CALLOC(c, n + 1, sizeof *c->tol_scl);
    rot_r = EX_CALLOC(c, n + 1, sizeof *rot_r);
    scl_r = EX_CALLOC(c, n + 1, sizeof *scl_r);
    stretch = EX_CALLOC(c, n + 1, sizeof *stretch);
    deep = EX_CALLOC(c, n + 1, sizeof *deep);
    inv = EX_CALLOC(c, n + 1, sizeof *inv);
    if (!c->tol_pos || !c->tol_rot || !c->tol_scl || !rot_r || !scl_r || !stretch || !deep || !inv) {
        EX_FREE(c, rot_r);
        EX_FREE(c, scl_r);
        EX_FREE(c, stretch);
        EX_FREE(c, deep);
        EX_FREE(c, inv);
        c->oom = 1;
        return -1;
    }
    nf = c->last > c->first ? (uint32_t)fmin(c->last - c->first, MAX_FRAMES - 1) + 1 : 1;
    for (f = 0; f < nf; f++) {
        /* whole frames (the reference's own frames include them) */
        double frame = nf > 1 ? floor(c->first + (c->last - c->first) * f / (nf - 1) + 0.5) : c->first;
        if (frame > c->last)
            frame = c->last;
        kf3ds_scene_eval(s, frame, c->flags, c->poses);
        for (i = 0; i < n; i++) {
            int32_t p = s->nodes[i].parent;
            double st = p >= 0 && (uint32_t)p < n ? column_stretch(&c->poses[p].world) : 1.0;
            if (st > stretch[i])
                stretch[i] = st;
            kf3ds_mat4_invert(&c->poses[i].world, &inv[i]);
        }
        for (i = 0; i < n; i++) {
            kf3ds_mat4 m;
            const kf3ds_pose *pose = &c->poses[i];
            int32_t mi = kf3ds_node_pose_mesh(s, i, pose);
            float origin[3];
            for (k = 0; k < 3; k++)
                origin[k] = pose->world.m[k][3];
            /* a child's origin moves with its ancestors' channels too */
            if (s->nodes[i].parent >= 0)
                reach(c, (uint32_t)s->nodes[i].parent, origin, rot_r, scl_r, inv);
            if (s->nodes[i].type != KF3DS_NODE_OBJECT || mi < 0 || (uint32_t)mi >= s->num_meshes ||
                !kf3ds_node_mesh_matrix(s, i, pose, &m))
                continue;
            for (v = 0; v < s->meshes[mi].num_points; v++) {
                float w[3];
                kf3ds_mat4_transform_point(&m, s->meshes[mi].points[v], w);
                if (!(fabsf(w[0]) < 1e30f && fabsf(w[1]) < 1e30f && fabsf(w[2]) < 1e30f))
                    continue;
                reach(c, i, w, rot_r, scl_r, inv);
                if (pose->hidden)
                    continue;
                for (k = 0; k < 3; k++) {
                    box[k] = fmin(box[k], w[k]);
                    box[k + 3] = fmax(box[k + 3], w[k]);
                }
                any = 1;
            }
        }
    }
    for (k = 0; any && k < 3; k++)
        extent = fmax(extent, box[k + 3] - box[k]);
    if (!(extent > 0.0 && extent < 1e30))
        extent = 1.0;
    c->tol_abs = tol * extent;
    /* D_a: each node's depth pushed up to every ancestor */
    for (i = 0; i < n; i++) {
        uint32_t d = 0, guard = 0;
        int32_t a = (int32_t)i;
        while (a >= 0 && (uint32_t)a < n && guard++ <= n) {
            d++;
            a = s->nodes[a].parent;
        }
        a = (int32_t)i;
        guard = 0;
        while (a >= 0 && (uint32_t)a < n && guard++ <= n) {
            if (d > deep[a])
                deep[a] = d;
            a = s->nodes[a].parent;
        }
    }
    for (i = 0; i < n; i++) {
        double budget = c->tol_abs / (3.0 * (deep[i] ? deep[i] : 1));
        double st = stretch[i] > 1e-30 ? stretch[i] : 1.0;
        c->tol_pos[i] = budget / st;
        c->tol_rot[i] = rot_r[i] > 0.0 ? fmin(budget / rot_r[i], MAX_ANGLE) : MAX_ANGLE;
        c->tol_scl[i] = scl_r[i] > 0.0 ? budget / (st * scl_r[i]) : tol;
    }
    EX_FREE(c, rot_r);
    EX_FREE(c, scl_r);
    EX_FREE(c, stretch);
    EX_FREE(c, deep);
    EX_FREE(c, inv);
    return 0;
}
