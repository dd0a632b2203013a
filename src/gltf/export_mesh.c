/* kf3ds export: meshes (docs/gltf.md, "Meshes"). The stored vertices are
 * placed in the node's own space, normals come from the smoothing groups
 * (the rule the renderer uses; src/corner_normals.c, shared with the static
 * export), a vertex is split where its corners' normals differ, and the
 * faces of each material make one primitive over the mesh's shared vertex
 * arrays. */
#include "export_internal.h"
#include "../corner_normals.h"
#include <string.h>

typedef struct ex_mesh_key {
    int32_t mesh, own;
    float pivot[3];
    int32_t gltf;
} ex_mesh_key;

/* Corners of one vertex whose normals are compared for sharing a vertex. */
#define MAX_SHARE_SCAN 16

static float finite_or_zero(double v)
{
    if (!(v == v))
        return 0.0f;
    if (v > 1e30)
        return 1e30f;
    if (v < -1e30)
        return -1e30f;
    return (float)v;
}

static double det3(const kf3ds_mat4 *m)
{
    const float(*a)[4] = m->m;
    return (double)a[0][0] * ((double)a[1][1] * a[2][2] - (double)a[1][2] * a[2][1]) -
           (double)a[0][1] * ((double)a[1][0] * a[2][2] - (double)a[1][2] * a[2][0]) +
           (double)a[0][2] * ((double)a[1][0] * a[2][1] - (double)a[1][1] * a[2][0]);
}

typedef struct mesh_build {
    const kf3ds_allocator *al;
    uint32_t np, nf;          /* points, valid faces */
    float (*pos)[3];          /* placed points */
    uint32_t *faces;          /* 3 per valid face, wound counter-clockwise outward */
    uint32_t *face_index;     /* valid face -> face of the mesh */
    float (*face_normal)[3];
    uint32_t *vstart;         /* corners grouped by vertex (CSR) */
    kf3ds__corner *corners;
    uint32_t *corner_out;     /* corner -> output vertex */
    float (*out_pos)[3], (*out_nrm)[3], (*out_uv)[2];
    uint32_t *out_point;
    uint32_t num_out;
} mesh_build;

static void build_free(mesh_build *b)
{
    kf3ds__gltf_free(b->al, b->pos);
    kf3ds__gltf_free(b->al, b->faces);
    kf3ds__gltf_free(b->al, b->face_index);
    kf3ds__gltf_free(b->al, b->face_normal);
    kf3ds__gltf_free(b->al, b->vstart);
    kf3ds__gltf_free(b->al, b->corners);
    kf3ds__gltf_free(b->al, b->corner_out);
    kf3ds__gltf_free(b->al, b->out_pos);
    kf3ds__gltf_free(b->al, b->out_nrm);
    kf3ds__gltf_free(b->al, b->out_uv);
    kf3ds__gltf_free(b->al, b->out_point);
}

static uint32_t add_out(mesh_build *b, uint32_t point, const float n[3])
{
    uint32_t o = b->num_out++;
    memcpy(b->out_pos[o], b->pos[point], sizeof b->out_pos[o]);
    memcpy(b->out_nrm[o], n, sizeof b->out_nrm[o]);
    b->out_point[o] = point;
    return o;
}

/* The output vertex for `point` with normal n: one already made for this
 * point (from first_out on) with the same normal bits, else a new one. */
static uint32_t share_out(mesh_build *b, uint32_t point, uint32_t first_out, const float n[3])
{
    uint32_t o = b->num_out, scanned = 0;
    while (o > first_out && scanned++ < MAX_SHARE_SCAN) {
        o--;
        if (memcmp(b->out_nrm[o], n, sizeof b->out_nrm[o]) == 0)
            return o;
    }
    return add_out(b, point, n);
}

/* The vertex whose corners kf3ds__corner_normals is giving normals. */
typedef struct vertex_normals {
    mesh_build *b;
    uint32_t point, first_out;
} vertex_normals;

/* kf3ds__corner_normals' runs: each run's corners get the output vertex of
 * the point with the normal. */
static void set_out(void *user, const kf3ds__corner *cs, size_t n, const float nrm[3])
{
    vertex_normals *vn = (vertex_normals *)user;
    uint32_t o = share_out(vn->b, vn->point, vn->first_out, nrm);
    size_t i;
    for (i = 0; i < n; i++)
        vn->b->corner_out[cs[i].corner] = o;
}

/* Vertex normals and the output vertices of one point's corners. */
static int point_normals(mesh_build *b, uint32_t v)
{
    static const float up[3] = { 0.0f, 0.0f, 1.0f };
    kf3ds__corner *cs = b->corners + b->vstart[v], *sort;
    size_t n = b->vstart[v + 1] - b->vstart[v];
    vertex_normals vn;
    uint32_t *masks;
    double (*sums)[3];
    if (n == 0) {
        add_out(b, v, up); /* unreferenced: kept, so the vertex box stays the stored one */
        return 0;
    }
    masks = kf3ds__gltf_alloc(b->al, n * sizeof *masks);
    sums = kf3ds__gltf_alloc(b->al, n * sizeof *sums);
    sort = kf3ds__gltf_alloc(b->al, n * sizeof *sort);
    if (masks && sums && sort) {
        vn.b = b;
        vn.point = v;
        vn.first_out = b->num_out;
        kf3ds__corner_normals(cs, n, (const float(*)[3])b->face_normal, sort, masks, sums,
                              set_out, &vn);
    }
    kf3ds__gltf_free(b->al, masks);
    kf3ds__gltf_free(b->al, sums);
    kf3ds__gltf_free(b->al, sort);
    return masks && sums && sort ? 0 : -1;
}

/* Places the points, keeps the faces that are triangles, their normals. */
static int build_faces(mesh_build *b, const kf3ds_mesh *m, const kf3ds_mat4 *place)
{
    uint32_t f, v;
    int flip = det3(place) < 0.0; /* a mirroring placement turns the winding over */
    b->np = m->num_points;
    b->pos = kf3ds__gltf_alloc(b->al, (size_t)b->np * sizeof *b->pos);
    b->faces = kf3ds__gltf_alloc(b->al, (size_t)m->num_faces * 3 * sizeof *b->faces + 1);
    b->face_index = kf3ds__gltf_alloc(b->al, (size_t)m->num_faces * sizeof *b->face_index + 1);
    if (!b->pos || !b->faces || !b->face_index)
        return -1;
    for (v = 0; v < b->np; v++) {
        int r;
        for (r = 0; r < 3; r++)
            b->pos[v][r] = finite_or_zero((double)place->m[r][0] * m->points[v][0] +
                                          (double)place->m[r][1] * m->points[v][1] +
                                          (double)place->m[r][2] * m->points[v][2] +
                                          place->m[r][3]);
    }
    for (f = 0; m->faces && f < m->num_faces; f++) {
        const uint16_t *i = m->faces[f].v;
        if (i[0] >= b->np || i[1] >= b->np || i[2] >= b->np || i[0] == i[1] || i[1] == i[2] ||
            i[0] == i[2])
            continue;
        b->faces[3 * b->nf] = i[0];
        b->faces[3 * b->nf + 1] = flip ? i[2] : i[1];
        b->faces[3 * b->nf + 2] = flip ? i[1] : i[2];
        b->face_index[b->nf++] = f;
    }
    b->face_normal = kf3ds__gltf_alloc(b->al, (size_t)b->nf * sizeof *b->face_normal + 1);
    if (!b->face_normal)
        return -1;
    for (f = 0; f < b->nf; f++) {
        const float *p0 = b->pos[b->faces[3 * f]], *p1 = b->pos[b->faces[3 * f + 1]],
                    *p2 = b->pos[b->faces[3 * f + 2]];
        double e1[3], e2[3], n[3];
        int k;
        for (k = 0; k < 3; k++) {
            e1[k] = (double)p1[k] - p0[k];
            e2[k] = (double)p2[k] - p0[k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        if (!kf3ds__unit_normal(n, b->face_normal[f])) /* no normal: 0, 0, 0 (corner_normals.h) */
            b->face_normal[f][0] = b->face_normal[f][1] = b->face_normal[f][2] = 0.0f;
    }
    return 0;
}

/* Corners by vertex, normals, output vertices. */
static int build_vertices(mesh_build *b, const kf3ds_mesh *m)
{
    size_t nc = (size_t)b->nf * 3, cap = nc + b->np, i;
    uint32_t v;
    b->vstart = kf3ds__gltf_calloc(b->al, (size_t)b->np + 1, sizeof *b->vstart);
    b->corners = kf3ds__gltf_alloc(b->al, nc * sizeof *b->corners + 1);
    b->corner_out = kf3ds__gltf_alloc(b->al, nc * sizeof *b->corner_out + 1);
    b->out_pos = kf3ds__gltf_alloc(b->al, cap * sizeof *b->out_pos);
    b->out_nrm = kf3ds__gltf_alloc(b->al, cap * sizeof *b->out_nrm);
    b->out_point = kf3ds__gltf_alloc(b->al, cap * sizeof *b->out_point);
    if (!b->vstart || !b->corners || !b->corner_out || !b->out_pos || !b->out_nrm ||
        !b->out_point)
        return -1;
    for (i = 0; i < nc; i++)
        b->vstart[b->faces[i] + 1]++;
    for (v = 0; v < b->np; v++)
        b->vstart[v + 1] += b->vstart[v];
    for (i = 0; i < nc; i++) {
        kf3ds__corner *k = &b->corners[b->vstart[b->faces[i]]++];
        k->mask = kf3ds_face_smoothing(m, b->face_index[i / 3]);
        k->corner = (uint32_t)i;
    }
    for (v = b->np; v > 0; v--)
        b->vstart[v] = b->vstart[v - 1];
    b->vstart[0] = 0;
    for (v = 0; v < b->np; v++)
        if (point_normals(b, v) != 0)
            return -1;
    return 0;
}

/* The texture coordinates of the output vertices, v turned to glTF's
 * top-left origin; NULL when the mesh has none for every point. */
static int build_uvs(mesh_build *b, const kf3ds_mesh *m)
{
    uint32_t o;
    if (!m->texcoords || m->num_texcoords < b->np)
        return 0;
    b->out_uv = kf3ds__gltf_alloc(b->al, (size_t)b->num_out * sizeof *b->out_uv + 1);
    if (!b->out_uv)
        return -1;
    for (o = 0; o < b->num_out; o++) {
        b->out_uv[o][0] = finite_or_zero(m->texcoords[b->out_point[o]][0]);
        b->out_uv[o][1] = finite_or_zero(1.0 - (double)m->texcoords[b->out_point[o]][1]);
    }
    return 0;
}

/* One primitive per material over the shared vertex arrays. */
static int write_primitives(export_ctx *c, mesh_build *b, const kf3ds_mesh *m, uint32_t apos,
                            uint32_t anrm, int has_uv, uint32_t auv)
{
    uint32_t nmat = c->s->num_materials, slot, f;
    uint32_t *count = kf3ds__gltf_calloc(b->al, (size_t)nmat + 1, sizeof *count);
    void *idx = NULL;
    int wide = b->num_out > 65535;
    if (!count)
        return -1;
    for (f = 0; f < b->nf; f++) {
        int32_t mat = kf3ds_face_material(m, b->face_index[f]);
        count[mat >= 0 && (uint32_t)mat < nmat ? (uint32_t)mat : nmat]++;
    }
    idx = kf3ds__gltf_alloc(b->al, (size_t)b->nf * 3 * (wide ? 4 : 2) + 1);
    if (!idx) {
        kf3ds__gltf_free(b->al, count);
        return -1;
    }
    gltf_arr(&c->meshes, "primitives");
    for (slot = 0; slot <= nmat; slot++) {
        uint32_t n = 0, acc;
        if (!count[slot])
            continue;
        for (f = 0; f < b->nf; f++) {
            int32_t mat = kf3ds_face_material(m, b->face_index[f]);
            int k;
            if ((mat >= 0 && (uint32_t)mat < nmat ? (uint32_t)mat : nmat) != slot)
                continue;
            for (k = 0; k < 3; k++, n++) {
                uint32_t o = b->corner_out[3 * f + (uint32_t)k];
                if (wide)
                    ((uint32_t *)idx)[n] = o;
                else
                    ((uint16_t *)idx)[n] = (uint16_t)o;
            }
        }
        acc = gltf_accessor(&c->buf, idx, n, wide ? GLTF_BYTE_U32 : GLTF_BYTE_U16, 1,
                            GLTF_ELEMENT_ARRAY_BUFFER, 0);
        gltf_obj(&c->meshes, NULL);
        gltf_obj(&c->meshes, "attributes");
        gltf_int(&c->meshes, "POSITION", (long)apos);
        gltf_int(&c->meshes, "NORMAL", (long)anrm);
        if (has_uv)
            gltf_int(&c->meshes, "TEXCOORD_0", (long)auv);
        gltf_end(&c->meshes);
        gltf_int(&c->meshes, "indices", (long)acc);
        if (slot < nmat)
            gltf_int(&c->meshes, "material", (long)slot);
        gltf_end(&c->meshes);
    }
    gltf_end(&c->meshes);
    kf3ds__gltf_free(b->al, idx);
    kf3ds__gltf_free(b->al, count);
    return 0;
}

static int32_t build_mesh(export_ctx *c, const kf3ds_mesh *m, const kf3ds_mat4 *place)
{
    mesh_build b;
    int32_t index = (int32_t)c->meshes.count;
    memset(&b, 0, sizeof b);
    b.al = c->al;
    if (build_faces(&b, m, place) != 0)
        goto oom;
    gltf_obj(&c->meshes, NULL);
    gltf_str(&c->meshes, "name", m->name);
    if (b.nf == 0) {
        /* No triangle: the points alone, so that they still show where they are. */
        uint32_t apos = gltf_accessor(&c->buf, b.pos, b.np, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 1);
        gltf_arr(&c->meshes, "primitives");
        gltf_obj(&c->meshes, NULL);
        gltf_obj(&c->meshes, "attributes");
        gltf_int(&c->meshes, "POSITION", (long)apos);
        gltf_end(&c->meshes);
        gltf_int(&c->meshes, "mode", 0);
        gltf_end(&c->meshes);
        gltf_end(&c->meshes);
    } else {
        uint32_t apos, anrm, auv = 0;
        if (build_vertices(&b, m) != 0 || build_uvs(&b, m) != 0)
            goto oom;
        apos = gltf_accessor(&c->buf, b.out_pos, b.num_out, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 1);
        anrm = gltf_accessor(&c->buf, b.out_nrm, b.num_out, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 0);
        if (b.out_uv)
            auv = gltf_accessor(&c->buf, b.out_uv, b.num_out, GLTF_FLOAT, 2, GLTF_ARRAY_BUFFER, 0);
        if (write_primitives(c, &b, m, apos, anrm, b.out_uv != NULL, auv) != 0)
            goto oom;
    }
    gltf_end(&c->meshes);
    build_free(&b);
    return index;
oom:
    build_free(&b);
    c->oom = 1;
    return -1;
}

int32_t export_mesh(export_ctx *c, int32_t mesh, const kf3ds_mat4 *place, int32_t own,
                    const float pivot[3])
{
    const kf3ds_mesh *m;
    ex_mesh_key key;
    uint32_t i;
    if (mesh < 0 || (uint32_t)mesh >= c->s->num_meshes)
        return -1;
    m = &c->s->meshes[mesh];
    if (!m->points || m->num_points == 0)
        return -1;
    memset(&key, 0, sizeof key);
    key.mesh = mesh;
    key.own = own;
    memcpy(key.pivot, pivot, sizeof key.pivot);
    for (i = 0; i < c->num_cached; i++)
        if (c->mesh_cache[i].mesh == mesh && c->mesh_cache[i].own == own &&
            memcmp(c->mesh_cache[i].pivot, pivot, sizeof key.pivot) == 0)
            return c->mesh_cache[i].gltf;
    if (c->num_cached == c->cap_cached) {
        uint32_t cap = c->cap_cached ? c->cap_cached * 2 : 16;
        ex_mesh_key *p = EX_GROW(c, c->mesh_cache, c->cap_cached * sizeof *p, cap * sizeof *p);
        if (!p) {
            c->oom = 1;
            return -1;
        }
        c->mesh_cache = p;
        c->cap_cached = cap;
    }
    key.gltf = build_mesh(c, m, place);
    c->mesh_cache[c->num_cached++] = key;
    return key.gltf;
}

void export_mesh_free(export_ctx *c)
{
    EX_FREE(c, c->mesh_cache);
    c->mesh_cache = NULL;
    c->num_cached = c->cap_cached = 0;
}
