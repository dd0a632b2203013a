/* kf3ds_renderer_create and kf3ds_renderer_free: what the renderer derives
 * once per scene (materials, room for the blended pass; per mesh its face normals, normal classes,
 * wireframe edges and box) and the scratch space of a frame. Creating
 * allocates; nothing after it does. */
#include "renderer.h"
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Memory                                                                   */
/* ------------------------------------------------------------------------ */

/* Every array a renderer keeps comes zeroed from its arena (src/arena.h, the
 * one the scenes use); the working arrays of kf3ds_renderer_create from a
 * second arena destroyed before it returns. */
static void *renderer_alloc(kf3ds_renderer *r, size_t n, size_t size)
{
    return kf3ds__arena_alloc(r->arena, n, size);
}

/* ------------------------------------------------------------------------ */
/* Sorting                                                                  */
/* ------------------------------------------------------------------------ */

/* A face corner at a vertex, sorted so that the corners of one normal class
 * (same smoothing mask and material) are adjacent. */
typedef struct corner_key {
    uint32_t mask;               /* its face's smoothing groups */
    int32_t material;            /* its face's material, or KF3DS_NONE */
    uint32_t corner;             /* 3·face + k */
} corner_key;

static int corner_key_less(const void *pa, const void *pb)
{
    const corner_key *a = (const corner_key *)pa, *b = (const corner_key *)pb;
    if (a->mask != b->mask)
        return a->mask < b->mask;
    if (a->material != b->material)
        return a->material < b->material;
    return a->corner < b->corner;
}

/* A visible edge of a face, sorted so that the faces sharing an edge are
 * adjacent, the first face first. */
typedef struct edge_key {
    uint64_t vertices;           /* smaller vertex << 32 | larger */
    uint32_t face_edge;          /* face << 2 | k (edge k: 0 AB, 1 BC, 2 CA) */
} edge_key;

static int edge_key_less(const void *pa, const void *pb)
{
    const edge_key *a = (const edge_key *)pa, *b = (const edge_key *)pb;
    return a->vertices != b->vertices ? a->vertices < b->vertices : a->face_edge < b->face_edge;
}

/* ------------------------------------------------------------------------ */
/* One mesh                                                                 */
/* ------------------------------------------------------------------------ */

/* A point at its rounded position (mesh_convex). */
typedef struct point_key {
    int64_t cell[3];             /* its position in steps of 1e-9 of the mesh's size */
    uint32_t index;
} point_key;

/* The working arrays of prepare_mesh, sized once for the largest mesh. */
typedef struct prepare_scratch {
    void *sort_scratch;          /* per corner: room for kf3ds__sort */
    edge_key *edges;             /* per corner: the visible edges */
    size_t *vertex_start;        /* per vertex + 1: the corners at vertex v are
                                  * corners[vertex_start[v] .. vertex_start[v + 1]) */
    corner_key *corners;         /* per corner */
    uint32_t *masks;             /* the distinct smoothing masks at one vertex... */
    double (*mask_normals)[3];   /* ...and the sum of their faces' normals */
    float (*class_normals)[3];   /* per normal class (at most one per corner) */
    uint32_t *class_vertex;
    uint32_t *class_material;
    point_key *points;           /* per point: sorted by position... */
    uint32_t *weld;              /* ...the first point at its position... */
    uint32_t *parent;            /* ...and its set of connected points (mesh_convex) */
    void *point_scratch;         /* per point: room for kf3ds__sort */
} prepare_scratch;

/* Face normals. A face's normal is (b−a)×(c−a) of its stored points,
 * normalised, in double (counter-clockwise is the front, as in 3DS and
 * lib3ds); degenerate faces keep a zero normal. Also marks every corner as
 * in no class yet, and counts the corners of the valid faces at each vertex
 * into vertex_start[v + 1]. */
static void face_normals(const kf3ds_mesh *m, uint32_t np, uint32_t nf, kf3ds__render_mesh *rm,
                         prepare_scratch *t)
{
    uint32_t f, v;
    int k;
    for (v = 0; v <= np; v++)
        t->vertex_start[v] = 0;
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        double e1[3], e2[3], n[3], l;
        rm->corner_class[3 * f] = rm->corner_class[3 * f + 1] = rm->corner_class[3 * f + 2] =
            KF3DS__NO_CLASS;
        if (!kf3ds__face_valid(fc, np))
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
                rm->face_normals[f][k] = (float)(n[k] / l);
        for (k = 0; k < 3; k++)
            t->vertex_start[fc->v[k] + 1]++;
    }
}

/* Normal classes. A corner's smooth normal is the sum of the normals of the
 * faces around its vertex whose smoothing bits overlap its face's (lib3ds's
 * rule; with more than 256 distinct masks at a vertex only equal masks are
 * summed), normalised; corners of faces with smoothing 0 keep their face
 * normal, and so does a corner whose sum vanishes. Corners at one vertex with
 * the same mask and material share one class. Returns the number of classes. */
static uint32_t normal_classes(const kf3ds_scene *s, const kf3ds_mesh *m, uint32_t np,
                               uint32_t nf, kf3ds__render_mesh *rm, prepare_scratch *t)
{
    uint32_t f, v, nc = 0;
    int k;
    for (v = 0; v < np; v++)
        t->vertex_start[v + 1] += t->vertex_start[v];
    /* The corners grouped by vertex (vertex_start[v] is advanced while filling,
     * then restored by the shift below). */
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        int32_t mat = kf3ds_face_material(m, f);
        if (!kf3ds__face_valid(fc, np))
            continue;
        if (mat < 0 || (uint32_t)mat >= s->num_materials)
            mat = KF3DS_NONE;
        for (k = 0; k < 3; k++) {
            corner_key *key = &t->corners[t->vertex_start[fc->v[k]]++];
            key->mask = kf3ds_face_smoothing(m, f);
            key->material = mat;
            key->corner = 3 * f + (uint32_t)k;
        }
    }
    for (v = np; v > 0; v--)
        t->vertex_start[v] = t->vertex_start[v - 1];
    t->vertex_start[0] = 0;

    for (v = 0; v < np; v++) {
        corner_key *keys = t->corners + t->vertex_start[v];
        size_t n = t->vertex_start[v + 1] - t->vertex_start[v], nm = 0, a, b;
        if (!n)
            continue;
        kf3ds__sort(keys, n, sizeof *keys, t->sort_scratch, corner_key_less);
        /* The distinct masks and the sum of their faces' normals. */
        for (a = 0; a < n; a++) {
            const float *fnv = rm->face_normals[keys[a].corner / 3];
            if (!nm || t->masks[nm - 1] != keys[a].mask) {
                t->masks[nm] = keys[a].mask;
                t->mask_normals[nm][0] = t->mask_normals[nm][1] = t->mask_normals[nm][2] = 0.0;
                nm++;
            }
            for (k = 0; k < 3; k++)
                t->mask_normals[nm - 1][k] += fnv[k];
        }
        /* The classes: runs of equal (mask, material); mask 0: one per corner. */
        for (a = 0, b = 0; a < n; a = b) {
            uint32_t mask = keys[a].mask;
            size_t mi;
            double sum[3] = { 0, 0, 0 }, l;
            b = a + 1;
            while (b < n && mask != 0 && keys[b].mask == mask &&
                   keys[b].material == keys[a].material)
                b++;
            if (mask) {
                for (mi = 0; mi < nm; mi++) {
                    int take = nm <= 256 ? (t->masks[mi] & mask) != 0 : t->masks[mi] == mask;
                    if (take)
                        for (k = 0; k < 3; k++)
                            sum[k] += t->mask_normals[mi][k];
                }
            }
            l = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
            if (!(l > 1e-12 && l < 1e300)) {
                const float *fnv = rm->face_normals[keys[a].corner / 3];
                sum[0] = fnv[0];
                sum[1] = fnv[1];
                sum[2] = fnv[2];
                l = 1.0;
            }
            for (k = 0; k < 3; k++)
                t->class_normals[nc][k] = (float)(sum[k] / l);
            t->class_vertex[nc] = v;
            t->class_material[nc] =
                keys[a].material >= 0 ? (uint32_t)keys[a].material : s->num_materials;
            for (mi = a; mi < b; mi++)
                rm->corner_class[keys[mi].corner] = nc;
            nc++;
        }
    }
    return nc;
}

/* Wireframe edges: every edge that some face marks visible (kf3ds_face.flags)
 * once, however many faces share it, drawn by the first face showing it. */
static void wire_edges(const kf3ds_mesh *m, uint32_t np, uint32_t nf, kf3ds__render_mesh *rm,
                       prepare_scratch *t)
{
    size_t ne = 0, a, b;
    uint32_t f;
    int k;
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        if (!kf3ds__face_valid(fc, np))
            continue;
        for (k = 0; k < 3; k++) {
            uint32_t p = fc->v[k], q = fc->v[(k + 1) % 3];
            if (!(fc->flags & (KF3DS__EDGE_AB >> k)))
                continue;
            t->edges[ne].vertices = p < q ? ((uint64_t)p << 32) | q : ((uint64_t)q << 32) | p;
            t->edges[ne].face_edge = (f << 2) | (uint32_t)k;
            ne++;
        }
    }
    kf3ds__sort(t->edges, ne, sizeof *t->edges, t->sort_scratch, edge_key_less);
    for (a = 0; a < ne; a = b) {
        uint32_t id = t->edges[a].face_edge;
        rm->wire_edges[id >> 2] |= (uint8_t)(KF3DS__EDGE_AB >> (id & 3));
        for (b = a + 1; b < ne && t->edges[b].vertices == t->edges[a].vertices; b++)
            ;
    }
}

/* Convex closed meshes. A mesh is convex here when its faces, with points
 * at the same position to 1e-9 of the mesh's size taken as one (the poles
 * and seams of UV spheres; on any screen the mesh fits in, far less than
 * the 1/256 pixel the corners snap to) and the faces this makes degenerate
 * left out, form one connected closed surface (every edge shared by
 * exactly two faces, in opposite directions) whose every edge
 * is convex: each face's corners lie on or behind the plane of its
 * neighbour across the edge (within 1e-6 of the mesh's size, for coplanar
 * faces), its fronts all outside (1) or all inside (−1, a mesh wound inside
 * out). Such a surface bounds a convex body: from an eye outside it, every
 * pixel one of its faces turned away covers is covered by a nearer face of
 * it turned to the eye, so draw.c leaves the faces turned away out
 * (draw_mesh_filled). */
static int point_key_less(const void *pa, const void *pb)
{
    const point_key *a = (const point_key *)pa, *b = (const point_key *)pb;
    int k;
    for (k = 0; k < 3; k++)
        if (a->cell[k] != b->cell[k])
            return a->cell[k] < b->cell[k];
    return a->index < b->index;
}

static uint32_t set_of(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v)
        v = parent[v] = parent[parent[v]];
    return v;
}

static int mesh_convex(const kf3ds_mesh *m, uint32_t np, uint32_t nf,
                       const kf3ds__render_mesh *rm, prepare_scratch *t)
{
    point_key *keys = t->points;
    size_t ne = 0, a;
    uint32_t f, v, root = 0, used = 0;
    double size, tol;
    int k, outward = 1, inward = 1;
    if (!rm->has_box || nf < 4 || nf > (UINT32_MAX >> 2))
        return 0;
    size = 0.0;
    for (k = 0; k < 3; k++)
        size += (double)rm->box_max[k] - rm->box_min[k];
    if (!(size > 0.0 && size < 1e30))
        return 0;
    tol = 1e-6 * size;
    for (v = 0; v < np; v++) {
        for (k = 0; k < 3; k++) {
            double c = (double)m->points[v][k] / (1e-9 * size);
            if (!(fabs(c) < 4e18))
                return 0;
            keys[v].cell[k] = (int64_t)floor(c + 0.5);
        }
        keys[v].index = v;
    }
    kf3ds__sort(keys, np, sizeof *keys, t->point_scratch, point_key_less);
    for (v = 0; v < np; v++) {
        const point_key *q = &keys[v];
        uint32_t w = q->index;
        if (v > 0 && q[-1].cell[0] == q->cell[0] && q[-1].cell[1] == q->cell[1] &&
            q[-1].cell[2] == q->cell[2])
            w = t->weld[q[-1].index];
        t->weld[q->index] = w;
        t->parent[q->index] = q->index;
    }
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        uint32_t w[3];
        if (!kf3ds__face_valid(fc, np))
            return 0;
        for (k = 0; k < 3; k++)
            w[k] = t->weld[fc->v[k]];
        if (w[0] == w[1] || w[1] == w[2] || w[2] == w[0])
            continue; /* degenerate once welded: no area from any view */
        for (k = 0; k < 3; k++) {
            uint32_t p = w[k], q = w[(k + 1) % 3];
            t->edges[ne].vertices = p < q ? ((uint64_t)p << 32) | q : ((uint64_t)q << 32) | p;
            /* bit 0: the edge runs from the larger point */
            t->edges[ne].face_edge = (f << 2) | (uint32_t)(p > q);
            ne++;
            t->parent[set_of(t->parent, p)] = set_of(t->parent, q);
        }
        root = w[0];
        used++;
    }
    if (used < 4)
        return 0;
    kf3ds__sort(t->edges, ne, sizeof *t->edges, t->sort_scratch, edge_key_less);
    for (a = 0; a < ne; a += 2) {
        const edge_key *e = &t->edges[a];
        uint32_t fa, fb, i, j;
        if (a + 1 >= ne || e[1].vertices != e->vertices ||
            (a + 2 < ne && e[2].vertices == e->vertices) ||
            (e->face_edge & 1u) == (e[1].face_edge & 1u))
            return 0;
        if (set_of(t->parent, (uint32_t)(e->vertices >> 32)) != set_of(t->parent, root))
            return 0;
        fa = e->face_edge >> 2;
        fb = e[1].face_edge >> 2;
        /* each face's corner off the edge against the other face's plane */
        for (i = 0; i < 2; i++) {
            const uint32_t f0 = i ? fb : fa, f1 = i ? fa : fb;
            const float *n = rm->face_normals[f0], *o = m->points[m->faces[f0].v[0]];
            for (j = 0; j < 3; j++) {
                const float *q = m->points[m->faces[f1].v[j]];
                double s = n[0] * ((double)q[0] - o[0]) + n[1] * ((double)q[1] - o[1]) +
                           n[2] * ((double)q[2] - o[2]);
                /* a face without a normal (collinear corners) has no plane */
                outward &= !(s > tol);
                inward &= !(s < -tol);
            }
        }
        if (!outward && !inward)
            return 0;
    }
    return outward ? 1 : -1;
}

static int prepare_mesh(kf3ds_renderer *r, const kf3ds_mesh *m, kf3ds__render_mesh *rm,
                        prepare_scratch *t)
{
    uint32_t np = m->points ? m->num_points : 0, nf = m->faces ? m->num_faces : 0;
    uint32_t v, nc;
    rm->class_slot = KF3DS__NO_SLOT;
    if (nf) {
        rm->face_normals = (float (*)[3])renderer_alloc(r, nf, sizeof *rm->face_normals);
        rm->corner_class = (uint32_t *)renderer_alloc(r, (size_t)nf * 3, sizeof *rm->corner_class);
        rm->wire_edges = (uint8_t *)renderer_alloc(r, nf, 1);
        rm->face_slot = (uint32_t *)renderer_alloc(r, nf, sizeof *rm->face_slot);
        if (!rm->face_normals || !rm->corner_class || !rm->wire_edges || !rm->face_slot)
            return 0;
    }
    for (v = 0; v < nf; v++)
        rm->face_slot[v] = kf3ds__face_valid(&m->faces[v], np)
                               ? kf3ds__face_material_slot(m, v, r->scene->num_materials)
                               : KF3DS__NO_SLOT;
    kf3ds__box_empty(rm->box_min, rm->box_max);
    for (v = 0; v < np; v++)
        rm->has_box |= kf3ds__box_grow(rm->box_min, rm->box_max, m->points[v]);
    if (!nf)
        return 1;

    face_normals(m, np, nf, rm, t);
    nc = normal_classes(r->scene, m, np, nf, rm, t);
    wire_edges(m, np, nf, rm, t);
    rm->convex = mesh_convex(m, np, nf, rm, t);
    rm->num_classes = nc;
    if (nc) {
        rm->class_normals = (float (*)[3])renderer_alloc(r, nc, sizeof *rm->class_normals);
        rm->class_vertex = (uint32_t *)renderer_alloc(r, nc, sizeof *rm->class_vertex);
        rm->class_material = (uint32_t *)renderer_alloc(r, nc, sizeof *rm->class_material);
        if (!rm->class_normals || !rm->class_vertex || !rm->class_material)
            return 0;
        memcpy(rm->class_normals, t->class_normals, nc * sizeof *rm->class_normals);
        memcpy(rm->class_vertex, t->class_vertex, nc * sizeof *rm->class_vertex);
        memcpy(rm->class_material, t->class_material, nc * sizeof *rm->class_material);
    }
    rm->class_slot = nc ? rm->class_material[0] : KF3DS__NO_SLOT;
    for (v = 1; v < nc; v++)
        if (rm->class_material[v] != rm->class_slot)
            rm->class_slot = KF3DS__NO_SLOT;
    if (nc > r->max_classes)
        r->max_classes = nc;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The renderer                                                             */
/* ------------------------------------------------------------------------ */

/* The material slots: each material's colours clamped to [0, 1], and slot
 * num_materials, for faces without one, a light grey. Highlights for Phong
 * (shading 3) and metal (4) only, with the exponent 2^(10·shininess), from
 * 1 to 1024, times the shininess strength. */
static void prepare_materials(kf3ds_renderer *r)
{
    const kf3ds_scene *scene = r->scene;
    uint32_t i;
    for (i = 0; i <= scene->num_materials; i++) {
        const kf3ds_material *sm = i < scene->num_materials && scene->materials ?
                                       &scene->materials[i] : NULL;
        kf3ds__render_material *m = &r->materials[i];
        int k;
        for (k = 0; k < 3; k++) {
            m->diffuse[k] = sm ? kf3ds__clamp01(sm->diffuse[k]) : KF3DS__NO_MATERIAL_GREY;
            m->ambient[k] = sm ? kf3ds__clamp01(sm->ambient[k]) : KF3DS__NO_MATERIAL_GREY;
            m->specular[k] = sm ? kf3ds__clamp01(sm->specular[k]) : 0.0f;
        }
        m->opacity = 1.0f;
        if (!sm)
            continue;
        if (sm->shading == 3 || sm->shading == 4) {
            m->shine_exponent = (float)pow(2.0, 10.0 * kf3ds__clamp01(sm->shininess));
            m->shine_strength = kf3ds__clamp01(sm->shin_strength);
            m->metal = sm->shading == 4;
        }
        m->self_illum = sm->self_illum_flag ? 1.0f : kf3ds__clamp01(sm->self_illum);
        m->opacity = 1.0f - kf3ds__clamp01(sm->transparency);
        m->two_sided = sm->two_sided;
        m->additive = sm->additive;
        m->may_blend = m->opacity < 1.0f || m->additive || sm->opacity.file[0] != '\0';
        kf3ds__update_material(m);
    }
}

/* Room for the blended pass: every face whose material may blend, once for
 * each object node that may show its mesh (or once, for editor meshes). */
static uint32_t blended_capacity(const kf3ds_renderer *r)
{
    const kf3ds_scene *s = r->scene;
    uint64_t total = 0, most = 0, *per_mesh;
    uint32_t i, f;
    if (!s->num_meshes || !s->meshes)
        return 0;
    per_mesh = (uint64_t *)kf3ds__arena_alloc(r->arena, s->num_meshes, sizeof *per_mesh);
    if (!per_mesh)
        return 0;
    for (i = 0; i < s->num_meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        for (f = 0; m->faces && f < m->num_faces; f++)
            per_mesh[i] += r->materials[kf3ds__face_material_slot(m, f, s->num_materials)]
                               .may_blend;
        total += per_mesh[i];
        if (per_mesh[i] > most)
            most = per_mesh[i];
    }
    if (r->nodes_place_meshes) {
        /* a morphing node may show any mesh: count the largest */
        total = 0;
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            if (n->type != KF3DS_NODE_OBJECT)
                continue;
            if (n->tracks[KF3DS_TRACK_MORPH].num_keys)
                total += most;
            else if (n->mesh >= 0 && (uint32_t)n->mesh < s->num_meshes)
                total += per_mesh[n->mesh];
        }
    }
    return total > KF3DS__MAX_DEFERRED ? KF3DS__MAX_DEFERRED : (uint32_t)total;
}

/* Prepares every mesh with one set of working arrays sized for the largest. */
static int prepare_meshes(kf3ds_renderer *r, uint32_t max_points, uint32_t max_faces)
{
    const kf3ds_scene *scene = r->scene;
    kf3ds__arena *scratch;
    prepare_scratch t;
    uint32_t i;
    int ok;
    if (!max_faces) {
        memset(&t, 0, sizeof t);
        for (i = 0; r->meshes && i < scene->num_meshes; i++)
            if (!prepare_mesh(r, &scene->meshes[i], &r->meshes[i], &t))
                return 0;
        return 1;
    }
    scratch = kf3ds__arena_create(&r->allocator, 0);
    if (!scratch)
        return 0;
    {
        size_t corners = (size_t)max_faces * 3;
        size_t key = sizeof(corner_key) > sizeof(edge_key) ? sizeof(corner_key) : sizeof(edge_key);
        t.sort_scratch = kf3ds__arena_alloc_raw(scratch, corners, key);
        t.edges = (edge_key *)kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.edges);
        t.vertex_start =
            (size_t *)kf3ds__arena_alloc_raw(scratch, (size_t)max_points + 2, sizeof *t.vertex_start);
        t.corners = (corner_key *)kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.corners);
        t.masks = (uint32_t *)kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.masks);
        t.mask_normals =
            (double (*)[3])kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.mask_normals);
        t.class_normals =
            (float (*)[3])kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.class_normals);
        t.class_vertex = (uint32_t *)kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.class_vertex);
        t.class_material =
            (uint32_t *)kf3ds__arena_alloc_raw(scratch, corners, sizeof *t.class_material);
        t.points = (point_key *)kf3ds__arena_alloc_raw(scratch, (size_t)max_points + 1,
                                                       sizeof *t.points);
        t.weld = (uint32_t *)kf3ds__arena_alloc_raw(scratch, (size_t)max_points + 1,
                                                    sizeof *t.weld);
        t.parent = (uint32_t *)kf3ds__arena_alloc_raw(scratch, (size_t)max_points + 1,
                                                      sizeof *t.parent);
        t.point_scratch = kf3ds__arena_alloc_raw(scratch, (size_t)max_points + 1,
                                                 sizeof(point_key));
    }
    ok = !kf3ds__arena_failed(scratch);
    for (i = 0; ok && r->meshes && i < scene->num_meshes; i++)
        ok = prepare_mesh(r, &scene->meshes[i], &r->meshes[i], &t);
    kf3ds__arena_destroy(scratch);
    return ok;
}

kf3ds_renderer *kf3ds_renderer_create(const kf3ds_scene *scene, const kf3ds_allocator *allocator)
{
    kf3ds_allocator a;
    kf3ds__arena *arena;
    kf3ds_renderer *r;
    uint32_t i, max_points = 0, max_faces = 0, num_slots;
    int have_meshes;
    /* Half an allocator is a mistake, not a request for malloc (the core's
     * rule, kf3ds__allocator_resolve). */
    if (!scene || kf3ds__allocator_resolve(allocator, &a) != NULL)
        return NULL;
    arena = kf3ds__arena_create(&a, 0);
    r = arena ? (kf3ds_renderer *)kf3ds__arena_alloc(arena, 1, sizeof *r) : NULL;
    if (!r) {
        kf3ds__arena_destroy(arena);
        return NULL;
    }
    r->scene = scene;
    r->allocator = a;
    r->arena = arena;
    have_meshes = scene->num_meshes && scene->meshes;
    for (i = 0; have_meshes && i < scene->num_meshes; i++) {
        const kf3ds_mesh *m = &scene->meshes[i];
        if (m->points && m->num_points > max_points)
            max_points = m->num_points;
        if (m->faces && m->num_faces > max_faces)
            max_faces = m->num_faces;
    }
    r->nodes_place_meshes = kf3ds_scene_places_meshes(scene);
    if (have_meshes)
        r->meshes = (kf3ds__render_mesh *)renderer_alloc(r, scene->num_meshes, sizeof *r->meshes);
    num_slots = scene->num_materials + 1;
    r->materials = (kf3ds__render_material *)renderer_alloc(r, num_slots, sizeof *r->materials);
    r->vertices = (kf3ds__vertex *)renderer_alloc(r, (size_t)max_points + 1, sizeof *r->vertices);
    r->away_faces = (uint32_t *)renderer_alloc(r, (size_t)max_faces + 1, sizeof *r->away_faces);
    if ((have_meshes && !r->meshes) || !r->materials || !r->vertices || !r->away_faces ||
        !prepare_meshes(r, max_points, max_faces)) {
        kf3ds_renderer_free(r);
        return NULL;
    }
    prepare_materials(r);
    kf3ds__prepare_maps(r);
    r->max_deferred = blended_capacity(r);
    r->max_instances = scene->num_nodes + scene->num_meshes;
    if (r->max_deferred) {
        r->deferred = (kf3ds__deferred_face *)renderer_alloc(r, r->max_deferred,
                                                             sizeof *r->deferred);
        r->deferred_scratch = (kf3ds__deferred_face *)renderer_alloc(r, r->max_deferred,
                                                                     sizeof *r->deferred);
        r->instances = (kf3ds__render_instance *)renderer_alloc(r, r->max_instances,
                                                                sizeof *r->instances);
        if (!r->deferred || !r->deferred_scratch || !r->instances) {
            kf3ds_renderer_free(r);
            return NULL;
        }
    }
    /* The colour cache (a front and a back colour per class), now that the
     * largest class count is known. */
    r->class_color =
        (uint32_t *)renderer_alloc(r, 2 * (size_t)r->max_classes + 2, sizeof *r->class_color);
    r->class_color_stamp = (uint32_t *)renderer_alloc(r, 2 * (size_t)r->max_classes + 2,
                                                      sizeof *r->class_color_stamp);
    r->class_terms = (float(*)[6])renderer_alloc(r, 2 * (size_t)r->max_classes + 2,
                                                 sizeof *r->class_terms);
    if (!r->class_color || !r->class_color_stamp || !r->class_terms) {
        kf3ds_renderer_free(r);
        return NULL;
    }
    return r;
}

void kf3ds_renderer_free(kf3ds_renderer *r)
{
    if (!r)
        return;
    kf3ds__free_maps(r);            /* the pictures, from the allocator itself */
    kf3ds__arena_destroy(r->arena); /* the record lives in it too */
}
