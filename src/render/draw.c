/* kf3ds_render_scene: a frame, and drawing one mesh at one placement (smooth,
 * flat or wireframe) with the data kf3ds_renderer_create prepared. */
#include "renderer.h"
#include <string.h>

#define DEFAULT_BACKGROUND 0xFF303030u

/* Transforms the mesh's points by mv = view·placement into r->vertices, and
 * gives det(mv) and the rows that transform its normals.
 *
 * Winding: in stored space every mesh is counter-clockwise outward (for a
 * mirrored mesh the loader's mirror of the points undoes the file's inside-out
 * winding; docs/evaluation.md, 'Mesh placement'). A placement
 * with a negative determinant (the M⁻¹ of a mirrored mesh, a negative scale
 * key, a mirroring view) reverses the winding on screen, so the front faces
 * are then the clockwise ones: a face's side is judged with the sign of
 * det(mv).
 * Normals go through the cofactor rows of mv (det · inverse transpose) times
 * the sign of det, so that they keep pointing out.
 *
 * Returns 0 when mv is not finite (the mesh is not drawn). */
static int mesh_transform(kf3ds_renderer *r, const kf3ds__projection *p, const kf3ds_mesh *m,
                          uint32_t np, const kf3ds_mat4 *placement, float normal_rows[3][3],
                          float *det)
{
    float mv[3][4], sgn;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) {
            float v = p->m[i][0] * placement->m[0][j] + p->m[i][1] * placement->m[1][j] +
                      p->m[i][2] * placement->m[2][j] + (j == 3 ? p->m[i][3] : 0.0f);
            if (!(fabsf(v) <= 1e30f))
                return 0;
            mv[i][j] = v;
        }
    kf3ds__cross3f(mv[1], mv[2], normal_rows[0]);
    kf3ds__cross3f(mv[2], mv[0], normal_rows[1]);
    kf3ds__cross3f(mv[0], mv[1], normal_rows[2]);
    *det = mv[0][0] * normal_rows[0][0] + mv[0][1] * normal_rows[0][1] +
           mv[0][2] * normal_rows[0][2];
    sgn = *det < 0.0f ? -1.0f : 1.0f;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            normal_rows[i][j] *= sgn;
    kf3ds__transform_points(p, &mv[0][0], &m->points[0][0], np, r->vertices);
    return 1;
}

/* Wireframe: each face draws the visible edges the renderer gave it
 * (wire_edges: every edge some face marks visible, once), in its material's
 * colour lightened. Lines write no depth, so none hides another: there is no
 * hidden-line removal. */
static void draw_mesh_wire(const kf3ds_renderer *r, const kf3ds__projection *p,
                           const kf3ds_mesh *m, const kf3ds__render_mesh *rm,
                           kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    const uint32_t np = m->num_points, nf = m->num_faces, num_materials = r->scene->num_materials;
    const kf3ds__vertex *V = r->vertices;
    uint32_t f;
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        const kf3ds__vertex *a, *b, *c;
        const float *d;
        uint32_t col;
        if (!kf3ds__face_valid(fc, np))
            continue;
        st->triangles_submitted++;
        if (!rm->wire_edges[f])
            continue;
        a = &V[fc->v[0]];
        b = &V[fc->v[1]];
        c = &V[fc->v[2]];
        if ((a->code & b->code & c->code) || ((a->code | b->code | c->code) & OC_BAD))
            continue;
        st->triangles_drawn++;
        d = r->material_diffuse[kf3ds__face_material_slot(m, f, num_materials)];
        col = kf3ds__pack_rgb(0.3f + 0.7f * d[0], 0.3f + 0.7f * d[1], 0.3f + 0.7f * d[2]);
        if (rm->wire_edges[f] & KF3DS__EDGE_AB)
            kf3ds__line(fb, p, a, b, col, 1);
        if (rm->wire_edges[f] & KF3DS__EDGE_BC)
            kf3ds__line(fb, p, b, c, col, 1);
        if (rm->wire_edges[f] & KF3DS__EDGE_CA)
            kf3ds__line(fb, p, c, a, col, 1);
    }
}

/* Which side of face (a, b, c) the eye sees: 1 for its back. On screen that
 * is the winding of the snapped positions (the fill uses the same), for faces
 * the clipper cuts the side of the eye (the view-space origin) against the
 * face's plane; a placement with det < 0 swaps the two. Returns -1 for a face
 * seen edge-on (nothing to draw). */
static int face_back(const kf3ds__vertex *a, const kf3ds__vertex *b, const kf3ds__vertex *c,
                     float det)
{
    int back;
    if (!((a->code | b->code | c->code) & (OC_CLIP | OC_BAD))) {
        int64_t area = (int64_t)(b->X - a->X) * (c->Y - a->Y) -
                       (int64_t)(c->X - a->X) * (b->Y - a->Y);
        if (area == 0)
            return -1;
        back = area > 0; /* clockwise on screen (y down) */
    } else {
        float ux = b->x - a->x, uy = b->y - a->y, uz = a->d - b->d;
        float wx = c->x - a->x, wy = c->y - a->y, wz = a->d - c->d;
        float nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
        float side = nx * a->x + ny * a->y - nz * a->d;
        if (!(side == side) || side == 0.0f)
            return -1;
        back = side > 0.0f;
    }
    return det < 0.0f ? !back : back;
}

/* Faces are drawn from both sides, a back face lit on its flipped normal
 * (what modelling programs show), unless cull_back_faces asks for 3D
 * Studio's renderer: one-sided faces, two-sided materials excepted
 * (docs/format.md, 'Materials'). Smooth shading lights each normal class the
 * first time a face that is drawn needs it, once per side, in the class's
 * material; flat shading lights each face at its centre with its face
 * normal. */
static void draw_mesh_filled(kf3ds_renderer *r, const kf3ds__projection *p,
                             const kf3ds_mesh *m, const kf3ds__render_mesh *rm,
                             const float normal_rows[3][3], float det, int smooth, int cull,
                             kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    const uint32_t np = m->num_points, nf = m->num_faces, num_materials = r->scene->num_materials;
    const kf3ds__vertex *V = r->vertices;
    float C[3][3]; /* a local copy: no store in the loop can change it */
    uint32_t f;
    int j, k;

    memcpy(C, normal_rows, sizeof C);

    /* A new stamp invalidates every class colour of the previous mesh. */
    if (++r->color_stamp == 0) {
        memset(r->class_color_stamp, 0,
               (2 * (size_t)r->max_classes + 2) * sizeof *r->class_color_stamp);
        r->color_stamp = 1;
    }
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        const kf3ds__vertex *a, *b, *c;
        uint32_t col[3], mat;
        float sign;
        int back;
        if (!kf3ds__face_valid(fc, np))
            continue;
        st->triangles_submitted++;
        a = &V[fc->v[0]];
        b = &V[fc->v[1]];
        c = &V[fc->v[2]];
        if ((a->code & b->code & c->code) || ((a->code | b->code | c->code) & OC_BAD))
            continue;
        back = face_back(a, b, c, det);
        if (back < 0)
            continue;
        mat = kf3ds__face_material_slot(m, f, num_materials);
        if (back && cull && !r->material_two_sided[mat])
            continue;
        sign = back ? -1.0f : 1.0f;
        if (smooth) {
            const uint32_t *cc = &rm->corner_class[3 * f];
            for (k = 0; k < 3; k++) {
                uint32_t ci = cc[k], slot = 2 * ci + (uint32_t)back;
                if (r->class_color_stamp[slot] != r->color_stamp) {
                    const float *cn = rm->class_normals[ci];
                    const kf3ds__vertex *v = &V[rm->class_vertex[ci]];
                    float n[3];
                    for (j = 0; j < 3; j++)
                        n[j] = sign * (C[j][0] * cn[0] + C[j][1] * cn[1] + C[j][2] * cn[2]);
                    kf3ds__normalize3f(n);
                    r->class_color[slot] =
                        kf3ds__shade(r, n, v->x, v->y, -v->d, rm->class_material[ci]);
                    r->class_color_stamp[slot] = r->color_stamp;
                }
                col[k] = r->class_color[slot];
            }
        } else {
            const float *fn = rm->face_normals[f];
            float n[3];
            for (k = 0; k < 3; k++)
                n[k] = sign * (C[k][0] * fn[0] + C[k][1] * fn[1] + C[k][2] * fn[2]);
            kf3ds__normalize3f(n);
            col[0] = kf3ds__shade(r, n, (a->x + b->x + c->x) * (1.0f / 3.0f),
                                  (a->y + b->y + c->y) * (1.0f / 3.0f),
                                  -(a->d + b->d + c->d) * (1.0f / 3.0f), mat);
            col[1] = col[2] = col[0];
        }
        st->triangles_drawn += (uint32_t)kf3ds__triangle(fb, p, a, b, c, col, 0);
    }
}

static void draw_mesh(kf3ds_renderer *r, const kf3ds__projection *p, uint32_t mi,
                      const kf3ds_mat4 *placement, const kf3ds_render_options *o,
                      kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    const kf3ds_mesh *m = &r->scene->meshes[mi];
    const kf3ds__render_mesh *rm = &r->meshes[mi];
    float normal_rows[3][3], det;
    if (!m->points || !m->num_points || !m->faces || !m->num_faces ||
        !mesh_transform(r, p, m, m->num_points, placement, normal_rows, &det))
        return;
    if (o->shading == KF3DS_SHADE_WIRE)
        draw_mesh_wire(r, p, m, rm, fb, st);
    else
        draw_mesh_filled(r, p, m, rm, (const float (*)[3])normal_rows, det,
                         o->shading == KF3DS_SHADE_SMOOTH, o->cull_back_faces != 0, fb, st);
}

void kf3ds_render_scene(kf3ds_renderer *r, const kf3ds_pose *poses, const kf3ds_view *view,
                        const kf3ds_render_options *options, kf3ds_framebuffer *fb,
                        kf3ds_render_stats *stats)
{
    kf3ds_render_options o;
    kf3ds_render_stats st;
    kf3ds__projection p;
    const kf3ds_scene *s;
    uint32_t i;
    memset(&st, 0, sizeof st);
    if (stats)
        *stats = st;
    if (!fb || !fb->color || fb->width <= 0 || fb->height <= 0)
        return;
    if (options)
        o = *options;
    else
        memset(&o, 0, sizeof o);
    kf3ds_framebuffer_clear(fb, o.background ? (o.background | 0xFF000000u) : DEFAULT_BACKGROUND);
    if (!r || !fb->depth || !kf3ds__projection_setup(&p, view, fb->width, fb->height))
        return;
    s = r->scene;
    if (o.shading != KF3DS_SHADE_FLAT && o.shading != KF3DS_SHADE_WIRE)
        o.shading = KF3DS_SHADE_SMOOTH;
    kf3ds__setup_lights(r, &p, poses, o.no_file_lights);
    if (r->nodes_place_meshes && poses) {
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            kf3ds_mat4 placement;
            int32_t mi;
            if (n->type != KF3DS_NODE_OBJECT || poses[i].hidden)
                continue;
            mi = kf3ds_node_pose_mesh(s, i, &poses[i]);
            if (mi < 0 || !kf3ds_node_mesh_matrix(s, i, &poses[i], &placement))
                continue;
            draw_mesh(r, &p, (uint32_t)mi, &placement, &o, fb, &st);
        }
    } else if (!r->nodes_place_meshes) {
        /* Scenes whose keyframer places no mesh are drawn from the editor
         * data: every mesh not hidden at its file position (the stored
         * points, mirrored back for mirrored meshes). */
        for (i = 0; i < s->num_meshes; i++) {
            kf3ds_mat4 placement;
            if (s->meshes[i].hidden)
                continue;
            kf3ds_mesh_editor_matrix(&s->meshes[i], &placement);
            draw_mesh(r, &p, i, &placement, &o, fb, &st);
        }
    }
    if (o.overlays)
        kf3ds__draw_overlays(r, &p, view, poses, &o, fb);
    if (stats)
        *stats = st;
}
