/* kf3ds static export: the meshes at one frame, placed, with triangles wound
 * outward and normals from the smoothing groups. The normal rule is the
 * renderer's and the glTF export's (docs/gltf.md, "Meshes"): a corner's
 * normal is the sum of the face normals of the faces at its point that share
 * a smoothing group with its face; a face without groups keeps its own
 * (src/corner_normals.c, shared with the glTF export). */
#include "static_internal.h"
#include "../corner_normals.h"
#include <string.h>

/* Earlier normals of one point looked at for reuse. */
#define MAX_REUSE_SCAN 16

static float clamp_finite(double v)
{
    if (!(v == v))
        return 0.0f;
    return v > 1e30 ? 1e30f : v < -1e30 ? -1e30f : (float)v;
}

void kf3ds__static_mesh_free(const kf3ds_allocator *a, static_mesh *m)
{
    kf3ds__static_free(a, m->pos);
    kf3ds__static_free(a, m->tri);
    kf3ds__static_free(a, m->face);
    kf3ds__static_free(a, m->face_normal);
    kf3ds__static_free(a, m->corner_normal);
    kf3ds__static_free(a, m->normals);
    memset(m, 0, sizeof *m);
}

static void place_points(static_mesh *m, const kf3ds_mesh *mesh, const kf3ds_mat4 *t)
{
    uint32_t v;
    int r;
    for (v = 0; v < m->np; v++)
        for (r = 0; r < 3; r++)
            m->pos[v][r] = clamp_finite((double)t->m[r][0] * mesh->points[v][0] +
                                        (double)t->m[r][1] * mesh->points[v][1] +
                                        (double)t->m[r][2] * mesh->points[v][2] + t->m[r][3]);
}

static double det3(const kf3ds_mat4 *t)
{
    const float(*a)[4] = t->m;
    return (double)a[0][0] * ((double)a[1][1] * a[2][2] - (double)a[1][2] * a[2][1]) -
           (double)a[0][1] * ((double)a[1][0] * a[2][2] - (double)a[1][2] * a[2][0]) +
           (double)a[0][2] * ((double)a[1][0] * a[2][1] - (double)a[1][1] * a[2][0]);
}

static void keep_triangles(static_mesh *m, const kf3ds_mesh *mesh, int flip)
{
    uint32_t f, k;
    for (f = 0; mesh->faces && f < mesh->num_faces; f++) {
        const uint16_t *i = mesh->faces[f].v;
        double e1[3], e2[3], n[3];
        uint32_t *t = m->tri + 3 * m->nf;
        if (i[0] >= m->np || i[1] >= m->np || i[2] >= m->np || i[0] == i[1] ||
            i[1] == i[2] || i[0] == i[2])
            continue;
        t[0] = i[0];
        t[1] = flip ? i[2] : i[1]; /* a mirroring placement turns the winding over */
        t[2] = flip ? i[1] : i[2];
        for (k = 0; k < 3; k++) {
            e1[k] = (double)m->pos[t[1]][k] - m->pos[t[0]][k];
            e2[k] = (double)m->pos[t[2]][k] - m->pos[t[0]][k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        if (!kf3ds__unit_normal(n, m->face_normal[m->nf]))
            memset(m->face_normal[m->nf], 0, sizeof m->face_normal[m->nf]);
        m->face[m->nf++] = f;
    }
}

/* The normal index for point's corners cs[a..e) with normal n: one made
 * earlier for the same point (from `first`) with the same bits, else new. */
static uint32_t reuse_normal(static_mesh *m, uint32_t first, const float n[3])
{
    uint32_t i = m->num_normals, scanned = 0;
    while (i > first && scanned++ < MAX_REUSE_SCAN) {
        i--;
        if (memcmp(m->normals[i], n, sizeof m->normals[i]) == 0)
            return i;
    }
    memcpy(m->normals[m->num_normals], n, sizeof m->normals[0]);
    return m->num_normals++;
}

/* The point whose corners kf3ds__corner_normals is giving normals. */
typedef struct point_normals {
    static_mesh *m;
    uint32_t first;    /* the point's first normal */
} point_normals;

/* kf3ds__corner_normals' runs: each run's corners get the normal's index. */
static void set_normal(void *user, const kf3ds__corner *cs, size_t n, const float nrm[3])
{
    point_normals *p = (point_normals *)user;
    uint32_t idx = reuse_normal(p->m, p->first, nrm);
    size_t i;
    for (i = 0; i < n; i++)
        p->m->corner_normal[cs[i].corner] = idx;
}

static int build_normals(const kf3ds_allocator *al, static_mesh *m, const kf3ds_mesh *mesh)
{
    size_t nc = (size_t)m->nf * 3, i, most = 0;
    uint32_t v, *start = kf3ds__static_alloc(al, (size_t)m->np + 1, sizeof *start);
    kf3ds__corner *cs = kf3ds__static_alloc(al, nc, sizeof *cs), *sort = NULL;
    uint32_t *masks = NULL;
    double(*sums)[3] = NULL;
    point_normals pn;
    int rc = -1;
    pn.m = m;
    m->corner_normal = kf3ds__static_alloc(al, nc, sizeof *m->corner_normal);
    m->normals = kf3ds__static_alloc(al, nc, sizeof *m->normals);
    if (!start || !cs || !m->corner_normal || !m->normals)
        goto done;
    memset(start, 0, ((size_t)m->np + 1) * sizeof *start);
    for (i = 0; i < nc; i++)
        start[m->tri[i] + 1]++;
    for (v = 0; v < m->np; v++) {
        if (start[v + 1] > most)
            most = start[v + 1];
        start[v + 1] += start[v];
    }
    for (i = 0; i < nc; i++) {
        kf3ds__corner *c = &cs[start[m->tri[i]]++];
        c->mask = kf3ds_face_smoothing(mesh, m->face[i / 3]);
        c->corner = (uint32_t)i;
    }
    for (v = m->np; v > 0; v--)
        start[v] = start[v - 1];
    start[0] = 0;
    masks = kf3ds__static_alloc(al, most, sizeof *masks);
    sums = kf3ds__static_alloc(al, most, sizeof *sums);
    sort = kf3ds__static_alloc(al, most, sizeof *sort);
    if (!masks || !sums || !sort)
        goto done;
    for (v = 0; v < m->np; v++)
        if (start[v + 1] > start[v]) {
            pn.first = m->num_normals;
            kf3ds__corner_normals(cs + start[v], start[v + 1] - start[v],
                                  (const float(*)[3])m->face_normal, sort, masks, sums,
                                  set_normal, &pn);
        }
    rc = 0;
done:
    kf3ds__static_free(al, start);
    kf3ds__static_free(al, cs);
    kf3ds__static_free(al, masks);
    kf3ds__static_free(al, sums);
    kf3ds__static_free(al, sort);
    return rc;
}

int kf3ds__static_mesh_build(const kf3ds_allocator *al, const kf3ds_mesh *mesh,
                             const kf3ds_mat4 *place, static_mesh *m)
{
    memset(m, 0, sizeof *m);
    m->mesh = mesh;
    m->name = mesh->name;
    m->np = mesh->points ? mesh->num_points : 0;
    m->pos = kf3ds__static_alloc(al, m->np, sizeof *m->pos);
    m->tri = kf3ds__static_alloc(al, (size_t)mesh->num_faces, 3 * sizeof *m->tri);
    m->face = kf3ds__static_alloc(al, (size_t)mesh->num_faces, sizeof *m->face);
    m->face_normal = kf3ds__static_alloc(al, (size_t)mesh->num_faces, sizeof *m->face_normal);
    if (!m->pos || !m->tri || !m->face || !m->face_normal)
        goto fail;
    place_points(m, mesh, place);
    keep_triangles(m, mesh, det3(place) < 0.0);
    if (build_normals(al, m, mesh) == 0)
        return 0;
fail:
    kf3ds__static_mesh_free(al, m);
    return -1;
}

int kf3ds__static_each_mesh(const kf3ds_scene *s, const kf3ds_allocator *al, double frame,
                            unsigned eval_flags, static_mesh_fn fn, void *user)
{
    kf3ds_pose *poses = NULL;
    static_mesh m;
    uint32_t i;
    int rc = 0;
    if (kf3ds_scene_places_meshes(s)) {
        poses = kf3ds__static_alloc(al, (size_t)s->num_nodes, sizeof *poses);
        if (!poses)
            return -1;
        memset(poses, 0, (size_t)s->num_nodes * sizeof *poses);
        kf3ds_scene_eval(s, frame, eval_flags, poses);
        for (i = 0; i < s->num_nodes && rc == 0; i++) {
            kf3ds_mat4 place;
            int32_t mesh;
            if (s->nodes[i].type != KF3DS_NODE_OBJECT || poses[i].hidden)
                continue;
            mesh = kf3ds_node_pose_mesh(s, i, &poses[i]);
            if (mesh < 0 || (uint32_t)mesh >= s->num_meshes ||
                !kf3ds_node_mesh_matrix(s, i, &poses[i], &place))
                continue;
            if (kf3ds__static_mesh_build(al, &s->meshes[mesh], &place, &m) != 0) {
                rc = -1;
                break;
            }
            m.name = s->nodes[i].name;
            rc = fn(user, &m);
            kf3ds__static_mesh_free(al, &m);
        }
        kf3ds__static_free(al, poses);
        return rc;
    }
    /* editor data only: the meshes where the editor had them */
    for (i = 0; i < s->num_meshes && rc == 0; i++) {
        kf3ds_mat4 place;
        kf3ds_mesh_editor_matrix(&s->meshes[i], &place);
        if (kf3ds__static_mesh_build(al, &s->meshes[i], &place, &m) != 0)
            return -1;
        rc = fn(user, &m);
        kf3ds__static_mesh_free(al, &m);
    }
    return rc;
}
