/* kf3ds_render_scene: a frame, and drawing one mesh at one placement (smooth,
 * flat or wireframe) with the data kf3ds_renderer_create prepared. */
#include "renderer.h"
#include <string.h>
#include "class_colors.h"

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
                          uint32_t np, const kf3ds_mat4 *placement, float mv[3][4],
                          float normal_rows[3][3], float *det)
{
    float sgn;
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
    const uint32_t nf = m->num_faces;
    const kf3ds__vertex *V = r->vertices;
    uint32_t f;
    for (f = 0; f < nf; f++) {
        const kf3ds_face *fc = &m->faces[f];
        const kf3ds__vertex *a, *b, *c;
        const float *d;
        uint32_t col;
        if (rm->face_slot[f] == KF3DS__NO_SLOT)
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
        d = r->materials[rm->face_slot[f]].diffuse;
        col = kf3ds__pack_rgb(0.3f + 0.7f * d[0], 0.3f + 0.7f * d[1], 0.3f + 0.7f * d[2]);
        if (rm->wire_edges[f] & KF3DS__EDGE_AB)
            kf3ds__line(fb, p, a, b, col, 1);
        if (rm->wire_edges[f] & KF3DS__EDGE_BC)
            kf3ds__line(fb, p, b, c, col, 1);
        if (rm->wire_edges[f] & KF3DS__EDGE_CA)
            kf3ds__line(fb, p, c, a, col, 1);
    }
}

/* The side of face_back for a face the clipper cuts: the eye's against its
 * plane. */
static int face_back_clipped(const kf3ds__vertex *a, const kf3ds__vertex *b,
                             const kf3ds__vertex *c)
{
    float ux = b->x - a->x, uy = b->y - a->y, uz = a->d - b->d;
    float wx = c->x - a->x, wy = c->y - a->y, wz = a->d - c->d;
    float nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    float side = nx * a->x + ny * a->y - nz * a->d;
    if (!(side == side) || side == 0.0f)
        return -1;
    return side > 0.0f;
}

/* kf3ds__screen_area of face (a, b, c) (raster.h). */
static inline int64_t screen_area(const kf3ds__vertex *a, const kf3ds__vertex *b,
                                  const kf3ds__vertex *c)
{
    return kf3ds__screen_area(a->X, a->Y, b->X, b->Y, c->X, c->Y);
}

/* The side a face whose corners are all on screen shows, from its
 * kf3ds__screen_area: 1 its back (clockwise on screen, y down; flip, for a
 * placement with det < 0, swaps the sides), 0 its front, −1 edge-on (nothing
 * to draw). The fill judges the winding from the same area. */
static inline int area_back(int64_t area, int flip)
{
    if (area == 0)
        return -1;
    return (area > 0) != flip;
}

/* Which side of face (a, b, c) the eye sees: 1 for its back. On screen that
 * is area_back; for faces the clipper cuts, the side of the eye (the
 * view-space origin) against the face's plane, swapped for det < 0. Returns
 * −1 for a face seen edge-on (nothing to draw). Inline in the face loop,
 * since every face of every mesh pays it; the faces the clipper cuts go out
 * of line. */
static inline int face_back(const kf3ds__vertex *a, const kf3ds__vertex *b,
                            const kf3ds__vertex *c, float det)
{
    int back;
    if (!((a->code | b->code | c->code) & (OC_CLIP | OC_BAD)))
        return area_back(screen_area(a, b, c), det < 0.0f);
    if ((back = face_back_clipped(a, b, c)) < 0)
        return -1;
    return det < 0.0f ? !back : back;
}

/* The transformed corners of face f. */
static inline void face_corners(const kf3ds__vertex *V, const kf3ds_face *fc,
                                const kf3ds__vertex *vs[3])
{
    vs[0] = &V[fc->v[0]];
    vs[1] = &V[fc->v[1]];
    vs[2] = &V[fc->v[2]];
}

/* The lighting terms (add, mul; kf3ds__shade_terms) of a corner in normal
 * class ci of a face seen from its front (sign 1) or back (−1), normals
 * through the rows C, at view-space vertex v. */
static void class_terms(const kf3ds_renderer *r, const kf3ds__render_mesh *rm, uint32_t ci,
                        const float C[3][3], float sign, const kf3ds__vertex *v, float out[6])
{
    float n[3];
    kf3ds__class_normal(rm, ci, C, sign, n);
    kf3ds__normalize3f(n);
    kf3ds__shade_terms(r, n, v->x, v->y, -v->d, rm->class_material[ci], out, out + 3);
}

/* The colour of lighting terms on the diffuse colour d: add + mul·d. */
static inline uint32_t terms_color(const float t[6], const float d[3])
{
    return kf3ds__pack_rgb(t[0] + t[3] * d[0], t[1] + t[4] * d[1], t[2] + t[5] * d[2]);
}

/* The same for flat shading: the face normal, at the face's centre. */
static void face_terms(const kf3ds_renderer *r, const kf3ds__render_mesh *rm, uint32_t f,
                       uint32_t mat, const float C[3][3], float sign,
                       const kf3ds__vertex *const v[3], float out[6])
{
    const float *fn = rm->face_normals[f];
    float n[3];
    int k;
    for (k = 0; k < 3; k++)
        n[k] = sign * (C[k][0] * fn[0] + C[k][1] * fn[1] + C[k][2] * fn[2]);
    kf3ds__normalize3f(n);
    kf3ds__shade_terms(r, n, (v[0]->x + v[1]->x + v[2]->x) * (1.0f / 3.0f),
                       (v[0]->y + v[1]->y + v[2]->y) * (1.0f / 3.0f),
                       -(v[0]->d + v[1]->d + v[2]->d) * (1.0f / 3.0f), mat, out, out + 3);
}

/* The surface and varyings of a shaded face (kf3ds__triangle_shaded) from
 * its corners' lighting terms: the material's maps placed on the mesh's
 * texture coordinates (none without them: the material's colour), its
 * opacity, its blending. */
static void shaded_face(const kf3ds__render_material *mt, const kf3ds_mesh *m, uint32_t f,
                        const float terms[3][6], kf3ds__surface *su, kf3ds__varyings var[3])
{
    int k, j;
    int nmaps = 0;
    for (j = 0; j < KF3DS__MAX_MAPS; j++) {
        su->map[j] = m->texcoords && mt->maps[j].texels ? &mt->maps[j] : NULL;
        if (su->map[j])
            nmaps = j + 1;
    }
    for (k = 0; k < 3; k++) /* the fill's colours are 0..255 */
        su->base[k] = mt->diffuse[k] * 255.0f;
    su->blend = mt->additive ? KF3DS__BLEND_ADD : mt->blended ? KF3DS__BLEND_ALPHA
                                                              : KF3DS__BLEND_NONE;
    for (k = 0; k < 3; k++) {
        uint32_t vi = m->faces[f].v[k];
        float u = 0.0f, v = 0.0f;
        memcpy(var[k].v + KF3DS__VAR_ADD, terms[k], 6 * sizeof(float));
        var[k].v[KF3DS__VAR_ALPHA] = mt->opacity;
        if (m->texcoords && vi < m->num_texcoords) {
            u = m->texcoords[vi][0];
            v = m->texcoords[vi][1];
        }
        for (j = 0; j < nmaps; j++) {
            const float *t = mt->uv[j];
            var[k].v[KF3DS__VAR_ST + 2 * j] = t[0] * u + t[1] * v + t[2];
            var[k].v[KF3DS__VAR_ST + 2 * j + 1] = t[3] * u + t[4] * v + t[5];
        }
    }
}

/* One face of draw_mesh_filled, seen from its back (back 1) or front, in
 * material slot mat: lit (smooth: each normal class the first time a face
 * needs it, once per side, in the class's material; flat: the face normal
 * at its centre), then to kf3ds__triangle with its colours, or to
 * kf3ds__triangle_shaded for textured materials (inside: every corner's code
 * is 0, so kf3ds__triangle_inside skips the checks; area: the corners'
 * screen_area, which it takes rather than computing it again). Inlined in the face loop: as
 * a call, passing its many arguments costs more than much of its work. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void draw_face(kf3ds_renderer *r, const kf3ds__projection *p, const kf3ds_mesh *m,
                      const kf3ds__render_mesh *rm, const float C[3][3], uint32_t f,
                      const kf3ds__vertex *const vs[3], uint32_t mat, int back, int smooth,
                      int inside, int64_t area, kf3ds_framebuffer *fb,
                      kf3ds_render_stats *st)
{
    const kf3ds__vertex *V = r->vertices;
    const kf3ds__render_material *mt = &r->materials[mat];
    const float sign = back ? -1.0f : 1.0f;
    uint32_t col[3];
    int k;
    if (mt->shaded) {
        float terms[3][6];
        kf3ds__surface su;
        kf3ds__varyings var[3];
        if (smooth) {
            for (k = 0; k < 3; k++) {
                uint32_t ci = rm->corner_class[3 * f + k], slot = 2 * ci + (uint32_t)back;
                if (r->class_color_stamp[slot] != r->color_stamp) {
                    class_terms(r, rm, ci, C, sign, &V[rm->class_vertex[ci]],
                                r->class_terms[slot]);
                    r->class_color_stamp[slot] = r->color_stamp;
                }
                memcpy(terms[k], r->class_terms[slot], sizeof terms[k]);
            }
        } else {
            face_terms(r, rm, f, mat, C, sign, vs, terms[0]);
            memcpy(terms[1], terms[0], sizeof terms[0]);
            memcpy(terms[2], terms[0], sizeof terms[0]);
        }
        shaded_face(mt, m, f, (const float(*)[6])terms, &su, var);
        st->triangles_drawn += (uint32_t)kf3ds__triangle_shaded(fb, p, vs, var, &su);
        return;
    }
    if (smooth) {
        for (k = 0; k < 3; k++) {
            uint32_t ci = rm->corner_class[3 * f + k], slot = 2 * ci + (uint32_t)back;
            if (r->class_color_stamp[slot] != r->color_stamp) {
                if (r->headlight_only) {
                    r->class_color[slot] = kf3ds__class_color_headlight(r, rm, ci, C, sign, mt->diffuse);
                } else {
                    float t[6];
                    class_terms(r, rm, ci, C, sign, &V[rm->class_vertex[ci]], t);
                    r->class_color[slot] = terms_color(t, mt->diffuse);
                }
                r->class_color_stamp[slot] = r->color_stamp;
            }
            col[k] = r->class_color[slot];
        }
    } else {
        float t[6];
        face_terms(r, rm, f, mat, C, sign, vs, t);
        col[0] = col[1] = col[2] = terms_color(t, mt->diffuse);
    }
    st->triangles_drawn += (uint32_t)(inside ? kf3ds__triangle_inside(fb, p, vs, area, col)
                                             : kf3ds__triangle(fb, p, vs[0], vs[1], vs[2], col, 0));
}

/* Whether every point of the mesh is inside all the clip planes and the far
 * plane: then no face is clipped or dropped by them. */
static int all_inside(const kf3ds__vertex *V, uint32_t np)
{
    uint32_t i, code = 0;
    for (i = 0; i < np; i++)
        code |= V[i].code;
    return code == 0;
}

/* Faces are drawn from both sides, a back face lit on its flipped normal
 * (what modelling programs show), unless cull_back_faces asks for 3D
 * Studio's renderer: one-sided faces, two-sided materials excepted
 * (docs/format.md, 'Materials'). Faces of plain and textured materials are
 * drawn now (draw_face); blended ones (transparent, additive, with an
 * opacity map) wait for the blended pass (instance: where this draw is
 * recorded, or NULL to draw them now).
 * A convex mesh (renderer.c, mesh_convex) wholly inside the clip and far
 * planes hides the faces turned away from an eye outside it (its back faces,
 * or its front faces when it is wound inside out) behind those turned to
 * the eye, and the eye is outside when any face is turned to it. So the
 * faces turned away are kept aside and drawn only when no face was turned
 * to the eye or one of the mesh's faces is blended (it hides nothing): the
 * picture is that of drawing them (docs/performance.md, "Rendering"). */
static void draw_mesh_filled(kf3ds_renderer *r, const kf3ds__projection *p,
                             const kf3ds_mesh *m, const kf3ds__render_mesh *rm,
                             const float normal_rows[3][3], float det, int smooth, int cull,
                             int32_t instance, kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    const uint32_t np = m->num_points, nf = m->num_faces;
    const kf3ds__vertex *V = r->vertices;
    /* the side that faces turned away from an eye outside show: 1 the back */
    const int away = rm->convex > 0 ? 1 : 0, hide = rm->convex && all_inside(V, np);
    float C[3][3]; /* a local copy: no store in the loop can change it */
    uint32_t f, i, num_away = 0;
    int seen_toward = 0, seen_blended = 0;

    memcpy(C, normal_rows, sizeof C);

    /* A new stamp invalidates every class colour of the previous mesh. */
    if (++r->color_stamp == 0) {
        memset(r->class_color_stamp, 0,
               (2 * (size_t)r->max_classes + 2) * sizeof *r->class_color_stamp);
        r->color_stamp = 1;
    }
    if (hide && !cull && !r->frame_blends) {
        /* The loop below when every point is inside (no codes, the side from
         * the snapped winding alone), nothing culled and no material blends
         * (nothing deferred, seen_blended stays 0): many small convex meshes,
         * whose faces turned away then pay only for their side. */
        const int flip = det < 0.0f;
        /* the classes of the faces turned to the eye (side !away), lit
         * together (kf3ds__class_colors_all) */
        if (smooth && r->headlight_only && rm->class_slot != KF3DS__NO_SLOT &&
            !r->materials[rm->class_slot].shaded)
            kf3ds__class_colors_all(r, rm, (const float(*)[3])C, !away);
        for (f = 0; f < nf; f++) {
            const kf3ds__vertex *vs[3];
            const uint32_t mat = rm->face_slot[f];
            int64_t area;
            int back;
            if (mat == KF3DS__NO_SLOT)
                continue;
            st->triangles_submitted++;
            face_corners(V, &m->faces[f], vs);
            area = screen_area(vs[0], vs[1], vs[2]); /* kept for the fill */
            back = area_back(area, flip);
            if (back < 0)
                continue;
            if (back == away) {
                r->away_faces[num_away++] = f;
                continue;
            }
            seen_toward = 1;
            draw_face(r, p, m, rm, (const float(*)[3])C, f, vs, mat, back, smooth, 1, area, fb,
                      st);
        }
    } else
    for (f = 0; f < nf; f++) {
        const kf3ds__vertex *vs[3];
        const kf3ds__render_material *mt;
        const uint32_t mat = rm->face_slot[f];
        int back;
        if (mat == KF3DS__NO_SLOT)
            continue;
        st->triangles_submitted++;
        face_corners(V, &m->faces[f], vs);
        if ((vs[0]->code & vs[1]->code & vs[2]->code) ||
            ((vs[0]->code | vs[1]->code | vs[2]->code) & OC_BAD))
            continue;
        back = face_back(vs[0], vs[1], vs[2], det);
        if (back < 0)
            continue;
        mt = &r->materials[mat];
        seen_blended |= mt->blended;
        if (back && cull && !mt->two_sided)
            continue;
        seen_toward |= back != away; /* and drawn: it hides what is behind */
        if (mt->blended && instance >= 0 && r->num_deferred < r->max_deferred) {
            kf3ds__deferred_face *d = &r->deferred[r->num_deferred++];
            d->depth = vs[0]->d + vs[1]->d + vs[2]->d;
            d->instance = (uint32_t)instance;
            d->face = f;
            continue;
        }
        if (hide && back == away) {
            r->away_faces[num_away++] = f;
            continue;
        }
        draw_face(r, p, m, rm, (const float(*)[3])C, f, vs, mat, back, smooth, 0, 0, fb, st);
    }
    if (seen_toward && !seen_blended)
        return;
    for (i = 0; i < num_away; i++) {
        const kf3ds__vertex *vs[3];
        face_corners(V, &m->faces[r->away_faces[i]], vs);
        draw_face(r, p, m, rm, (const float(*)[3])C, r->away_faces[i], vs,
                  rm->face_slot[r->away_faces[i]], away, smooth, hide,
                  hide ? screen_area(vs[0], vs[1], vs[2]) : 0, fb, st);
    }
}

static int deferred_farther(const void *pa, const void *pb)
{
    const kf3ds__deferred_face *a = (const kf3ds__deferred_face *)pa,
                               *b = (const kf3ds__deferred_face *)pb;
    return a->depth > b->depth;
}

/* The blended pass: the faces that waited, far to near (the depth of their
 * centres; stable, so equal depths keep their order), each lit and drawn
 * over what is there without writing depth. */
static void draw_blended(kf3ds_renderer *r, const kf3ds__projection *p, int smooth,
                         kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    uint32_t i;
    int k;
    kf3ds__sort(r->deferred, r->num_deferred, sizeof *r->deferred, r->deferred_scratch,
                deferred_farther);
    for (i = 0; i < r->num_deferred; i++) {
        const kf3ds__deferred_face *d = &r->deferred[i];
        const kf3ds__render_instance *in = &r->instances[d->instance];
        const kf3ds_mesh *m = &r->scene->meshes[in->mesh];
        const kf3ds__render_mesh *rm = &r->meshes[in->mesh];
        const kf3ds_face *fc = &m->faces[d->face];
        const uint32_t mat = rm->face_slot[d->face]; /* (a queued face is valid) */
        float pts[9], terms[3][6], sign;
        kf3ds__vertex tv[3];
        const kf3ds__vertex *vs[3];
        kf3ds__surface su;
        kf3ds__varyings var[3];
        for (k = 0; k < 3; k++) {
            memcpy(pts + 3 * k, m->points[fc->v[k]], 3 * sizeof(float));
            vs[k] = &tv[k];
        }
        kf3ds__transform_points(p, &in->mv[0][0], pts, 3, tv);
        sign = face_back(vs[0], vs[1], vs[2], in->det) == 1 ? -1.0f : 1.0f;
        if (smooth) {
            for (k = 0; k < 3; k++)
                class_terms(r, rm, rm->corner_class[3 * d->face + k], in->normal_rows, sign,
                            &tv[k], terms[k]);
        } else {
            face_terms(r, rm, d->face, mat, in->normal_rows, sign, vs, terms[0]);
            memcpy(terms[1], terms[0], sizeof terms[0]);
            memcpy(terms[2], terms[0], sizeof terms[0]);
        }
        shaded_face(&r->materials[mat], m, d->face, (const float(*)[6])terms, &su, var);
        st->triangles_drawn += (uint32_t)kf3ds__triangle_shaded(fb, p, vs, var, &su);
    }
    r->num_deferred = 0;
    r->num_instances = 0;
}

static void draw_mesh(kf3ds_renderer *r, const kf3ds__projection *p, uint32_t mi,
                      const kf3ds_mat4 *placement, const kf3ds_render_options *o,
                      kf3ds_framebuffer *fb, kf3ds_render_stats *st)
{
    const kf3ds_mesh *m = &r->scene->meshes[mi];
    const kf3ds__render_mesh *rm = &r->meshes[mi];
    float mv[3][4], normal_rows[3][3], det;
    int32_t instance = -1;
    if (!m->points || !m->num_points || !m->faces || !m->num_faces ||
        !mesh_transform(r, p, m, m->num_points, placement, mv, normal_rows, &det))
        return;
    if (o->shading == KF3DS_SHADE_WIRE) {
        draw_mesh_wire(r, p, m, rm, fb, st);
        return;
    }
    if (r->num_instances < r->max_instances && r->instances) {
        /* where its blended faces will find this draw again */
        kf3ds__render_instance *in = &r->instances[r->num_instances];
        in->mesh = mi;
        memcpy(in->mv, mv, sizeof mv);
        memcpy(in->normal_rows, normal_rows, sizeof normal_rows);
        in->det = det;
        instance = (int32_t)r->num_instances++;
    }
    draw_mesh_filled(r, p, m, rm, (const float (*)[3])normal_rows, det,
                     o->shading == KF3DS_SHADE_SMOOTH, o->cull_back_faces != 0, instance, fb, st);
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
    if (!r || !fb->depth || !kf3ds__projection_setup(&p, view, fb->width, fb->height)) {
        kf3ds_framebuffer_clear(fb, o.background ? (o.background | 0xFF000000u) : 0xFF303030u);
        return;
    }
    kf3ds__setup_environment(r, &p, &o, fb);
    r->num_deferred = r->num_instances = 0;
    s = r->scene;
    if (o.shading != KF3DS_SHADE_FLAT && o.shading != KF3DS_SHADE_WIRE)
        o.shading = KF3DS_SHADE_SMOOTH;
    kf3ds__setup_lights(r, &p, poses, o.no_file_lights);
    r->headlight_only = r->num_lights == 0 && r->fog.kind == KF3DS_ATMOSPHERE_NONE;
    r->frame_blends = 0;
    for (i = 0; i <= s->num_materials; i++) /* slot num_materials: no material */
        r->frame_blends |= r->materials[i].blended;
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
    if (r->num_deferred)
        draw_blended(r, &p, o.shading == KF3DS_SHADE_SMOOTH, fb, &st);
    if (o.overlays)
        kf3ds__draw_overlays(r, &p, view, poses, &o, fb);
    if (stats)
        *stats = st;
}
