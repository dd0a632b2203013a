/* The bake module: meshes placed in their node's local space, with the
 * normals of their smoothing groups (docs/kfb.md, "Meshes"). */
#include "bake_internal.h"
#include <math.h>
#include <stdlib.h> /* qsort */
#include <string.h>

/* A face corner for sorting: by vertex, then smoothing mask, then corner. */
typedef struct corner {
    uint32_t vertex, mask, index; /* index = 3·face + k */
} corner;

static int corner_cmp(const void *pa, const void *pb)
{
    const corner *a = pa, *b = pb;
    if (a->vertex != b->vertex)
        return a->vertex < b->vertex ? -1 : 1;
    if (a->mask != b->mask)
        return a->mask < b->mask ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void cross_unit(const double *a, const double *b, const double *c, double *n)
{
    double u[3], v[3], l;
    int k;
    for (k = 0; k < 3; k++) {
        u[k] = b[k] - a[k];
        v[k] = c[k] - a[k];
    }
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (k = 0; k < 3; k++)
        n[k] = l > 0.0 && l < 1e300 ? n[k] / l : 0.0;
}

/* The renderer's rule (src/render/renderer.c, "normal classes"): a corner's
 * normal is the normalised sum of the unit normals of the faces around its
 * vertex whose smoothing bits overlap its face's (with more than 256 distinct
 * masks at one vertex, only equal masks); a face without smoothing groups,
 * or a corner whose sum vanishes, keeps the face normal. One normal per
 * (vertex, mask), one per face for the rest. */
static int smooth_normals(const bake_plan *plan, const kf3ds_mesh *m, bake_mesh *b,
                          const kf3ds_face *faces, const uint32_t *face_source)
{
    uint32_t nf = b->num_faces, nc = 3 * nf, f, a, e, nn = 0;
    double (*face_n)[3] = kf3ds__bake_malloc(plan, sizeof *face_n * (nf ? nf : 1));
    int64_t *face_slot = kf3ds__bake_malloc(plan, sizeof *face_slot * (nf ? nf : 1));
    corner *c = kf3ds__bake_malloc(plan, sizeof *c * (nc ? nc : 1));
    uint32_t *masks = kf3ds__bake_malloc(plan, sizeof *masks * (nc ? nc : 1));
    double (*sums)[3] = kf3ds__bake_malloc(plan, sizeof *sums * (nc ? nc : 1));
    int k;
    b->normals = kf3ds__bake_malloc(plan, sizeof *b->normals * (nc ? nc : 1));
    b->corner_normals = kf3ds__bake_malloc(plan, sizeof *b->corner_normals * (nf ? nf : 1));
    if (!face_n || !face_slot || !c || !masks || !sums || !b->normals || !b->corner_normals) {
        kf3ds__bake_free(plan, face_n);
        kf3ds__bake_free(plan, face_slot);
        kf3ds__bake_free(plan, c);
        kf3ds__bake_free(plan, masks);
        kf3ds__bake_free(plan, sums);
        return -1;
    }
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &faces[f];
        cross_unit(b->vertices[fc->v[0]], b->vertices[fc->v[1]], b->vertices[fc->v[2]], face_n[f]);
        face_slot[f] = -1;
        for (k = 0; k < 3; k++) {
            c[3 * f + k].vertex = fc->v[k];
            c[3 * f + k].mask = kf3ds_face_smoothing(m, face_source[f]);
            c[3 * f + k].index = 3 * f + (uint32_t)k;
        }
    }
    qsort(c, nc, sizeof *c, corner_cmp);
    for (a = 0; a < nc; a = e) {
        uint32_t nm = 0, i, j;
        for (e = a; e < nc && c[e].vertex == c[a].vertex; e++)
            ;
        /* the distinct masks at this vertex and the sums of their faces' normals */
        for (i = a; i < e; i++) {
            if (!nm || masks[nm - 1] != c[i].mask) {
                masks[nm] = c[i].mask;
                sums[nm][0] = sums[nm][1] = sums[nm][2] = 0.0;
                nm++;
            }
            for (k = 0; k < 3; k++)
                sums[nm - 1][k] += face_n[c[i].index / 3][k];
        }
        for (i = a; i < e;) {
            uint32_t mask = c[i].mask, end = i;
            double sum[3] = { 0, 0, 0 }, l;
            while (end < e && c[end].mask == mask)
                end++;
            if (!mask) { /* face normals */
                for (; i < end; i++) {
                    uint32_t face = c[i].index / 3;
                    if (face_slot[face] < 0) {
                        memcpy(b->normals[nn], face_n[face], sizeof b->normals[nn]);
                        face_slot[face] = nn++;
                    }
                    b->corner_normals[face][c[i].index % 3] = (uint32_t)face_slot[face];
                }
                continue;
            }
            for (j = 0; j < nm; j++)
                if (nm <= 256 ? (masks[j] & mask) != 0 : masks[j] == mask)
                    for (k = 0; k < 3; k++)
                        sum[k] += sums[j][k];
            l = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
            if (l > 1e-12 && l < 1e300)
                for (k = 0; k < 3; k++)
                    b->normals[nn][k] = sum[k] / l;
            else
                memcpy(b->normals[nn], face_n[c[i].index / 3], sizeof b->normals[nn]);
            for (; i < end; i++)
                b->corner_normals[c[i].index / 3][c[i].index % 3] = nn;
            nn++;
        }
    }
    b->num_normals = nn;
    kf3ds__bake_free(plan, face_n);
    kf3ds__bake_free(plan, face_slot);
    kf3ds__bake_free(plan, c);
    kf3ds__bake_free(plan, masks);
    kf3ds__bake_free(plan, sums);
    return 0;
}

/* The faces whose three vertices exist (the loader already made bad ones
 * degenerate; this keeps the file's indices in range whatever happens). */
static kf3ds_face *valid_faces(const bake_plan *plan, const kf3ds_mesh *m, uint32_t *count,
                               uint32_t **source)
{
    kf3ds_face *v = kf3ds__bake_malloc(plan, sizeof *v * (m->num_faces ? m->num_faces : 1));
    uint32_t f, n = 0;
    *source = kf3ds__bake_malloc(plan, sizeof **source * (m->num_faces ? m->num_faces : 1));
    if (!v || !*source) {
        kf3ds__bake_free(plan, v);
        kf3ds__bake_free(plan, *source);
        *source = NULL;
        return NULL;
    }
    for (f = 0; f < m->num_faces; f++) {
        const kf3ds_face *fc = &m->faces[f];
        if (fc->v[0] < m->num_points && fc->v[1] < m->num_points && fc->v[2] < m->num_points) {
            (*source)[n] = f;
            v[n++] = *fc;
        }
    }
    *count = n;
    return v;
}

static int place(const bake_plan *plan, const kf3ds_scene *s, uint32_t mesh,
                 const kf3ds_mat4 *local, bake_mesh *b)
{
    const kf3ds_mesh *m = &s->meshes[mesh];
    uint32_t v, *face_source = NULL;
    kf3ds_face *faces;
    int r, k;
    memset(b, 0, sizeof *b);
    b->source = mesh;
    b->local = *local;
    b->num_vertices = m->points && m->num_points <= 65536 ? m->num_points : 0;
    b->num_uvs = m->texcoords && m->num_texcoords >= b->num_vertices ? b->num_vertices : 0;
    b->vertices = kf3ds__bake_malloc(plan, sizeof *b->vertices *
                                               (b->num_vertices ? b->num_vertices : 1));
    if (!b->vertices)
        return -1;
    for (v = 0; v < b->num_vertices; v++)
        for (k = 0; k < 3; k++) {
            const float *row = local->m[k];
            b->vertices[v][k] = (double)row[0] * m->points[v][0] + (double)row[1] * m->points[v][1] +
                                (double)row[2] * m->points[v][2] + (double)row[3];
        }
    faces = valid_faces(plan, m, &b->num_faces, &face_source);
    if (!faces)
        return -1;
    if (!b->num_vertices)
        b->num_faces = 0;
    b->face_source = face_source;
    r = smooth_normals(plan, m, b, faces, face_source);
    kf3ds__bake_free(plan, faces);
    return r;
}

static int same_matrix(const kf3ds_mat4 *a, const kf3ds_mat4 *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

int kf3ds__bake_place_meshes(const kf3ds_scene *s, const bake_plan *plan, bake_meshes *out)
{
    uint32_t k;
    memset(out, 0, sizeof *out);
    out->of_node = kf3ds__bake_malloc(plan, sizeof *out->of_node *
                                                (plan->num_nodes ? plan->num_nodes : 1));
    out->v = kf3ds__bake_calloc(plan, plan->num_nodes ? plan->num_nodes : 1, sizeof *out->v);
    if (!out->of_node || !out->v)
        return -1;
    for (k = 0; k < plan->num_nodes; k++) {
        uint32_t i = plan->nodes[k], j;
        const kf3ds_node *n = &s->nodes[i];
        kf3ds_pose origin;
        kf3ds_mat4 local;
        out->of_node[k] = -1;
        if (!plan->meshes || n->type != KF3DS_NODE_OBJECT || n->mesh < 0 ||
            (uint32_t)n->mesh >= s->num_meshes)
            continue;
        /* T(−pivot)·MESH_MATRIX⁻¹ exactly as kf3ds eval forms it, at world = I */
        memset(&origin, 0, sizeof origin);
        kf3ds_mat4_identity(&origin.world);
        kf3ds_node_mesh_matrix(s, i, &origin, &local);
        for (j = 0; j < out->n; j++)
            if (out->v[j].source == (uint32_t)n->mesh && same_matrix(&out->v[j].local, &local))
                break;
        if (j == out->n) {
            out->n++;
            if (place(plan, s, (uint32_t)n->mesh, &local, &out->v[j]) != 0)
                return -1;
        }
        out->of_node[k] = (int32_t)j;
    }
    return 0;
}

void kf3ds__bake_meshes_free(const bake_plan *plan, bake_meshes *m)
{
    uint32_t j;
    for (j = 0; m->v && j < m->n; j++) {
        kf3ds__bake_free(plan, m->v[j].vertices);
        kf3ds__bake_free(plan, m->v[j].normals);
        kf3ds__bake_free(plan, m->v[j].corner_normals);
        kf3ds__bake_free(plan, m->v[j].face_source);
    }
    kf3ds__bake_free(plan, m->v);
    kf3ds__bake_free(plan, m->of_node);
    memset(m, 0, sizeof *m);
}
