/* kf3ds static export: Wavefront OBJ and its MTL library (docs/static.md).
 * Per mesh: "o NAME", its placed points as "v" (in stored order, so that
 * they line up with kf3ds eval --verts), "vt" when every point has texture
 * coordinates, the distinct corner normals as "vn", and the triangles grouped
 * by "usemtl". Floats are written with 9 significant digits, which read back
 * to the same float. */
#include "static_internal.h"
#include <string.h>

#define NO_MATERIAL "kf3ds_default"

typedef struct obj_ctx {
    const kf3ds_scene *s;
    static_buf *b;
    kf3ds_static_output *out;
    uint32_t v_base, vt_base, vn_base; /* 1-based indices used so far */
} obj_ctx;

static void put_vec(static_buf *b, const char *tag, const float *v, int n)
{
    if (n == 3)
        kf3ds__static_printf(b, "%s %.9g %.9g %.9g\n", tag, v[0], v[1], v[2]);
    else
        kf3ds__static_printf(b, "%s %.9g %.9g\n", tag, v[0], v[1]);
}

static int write_mesh(void *user, const static_mesh *m)
{
    obj_ctx *c = user;
    static_buf *b = c->b;
    const kf3ds_mesh *mesh = m->mesh;
    int has_uv = mesh->texcoords && mesh->num_texcoords >= m->np && m->np > 0;
    uint32_t i, f, nmat = c->s->num_materials;
    int64_t current = -2; /* no usemtl yet */
    kf3ds__static_puts(b, "o ");
    kf3ds__static_name(b, m->name, "object");
    kf3ds__static_puts(b, "\n");
    for (i = 0; i < m->np; i++)
        put_vec(b, "v", m->pos[i], 3);
    if (has_uv)
        for (i = 0; i < m->np; i++) {
            float uv[2];
            uv[0] = mesh->texcoords[i][0] == mesh->texcoords[i][0] ? mesh->texcoords[i][0] : 0.0f;
            uv[1] = mesh->texcoords[i][1] == mesh->texcoords[i][1] ? mesh->texcoords[i][1] : 0.0f;
            put_vec(b, "vt", uv, 2); /* 3DS and OBJ both have v up from the bottom */
        }
    for (i = 0; i < m->num_normals; i++)
        put_vec(b, "vn", m->normals[i], 3);
    for (f = 0; f < m->nf; f++) {
        int32_t mat = kf3ds_face_material(mesh, m->face[f]);
        int64_t slot = mat >= 0 && (uint32_t)mat < nmat ? mat : -1;
        int k;
        if (slot != current) {
            kf3ds__static_puts(b, "usemtl ");
            if (slot < 0)
                kf3ds__static_puts(b, NO_MATERIAL);
            else
                kf3ds__static_name(b, c->s->materials[slot].name, "unnamed");
            kf3ds__static_puts(b, "\n");
            current = slot;
        }
        kf3ds__static_puts(b, "f");
        for (k = 0; k < 3; k++) {
            unsigned long v = (unsigned long)c->v_base + m->tri[3 * f + k];
            unsigned long n = (unsigned long)c->vn_base + m->corner_normal[3 * f + k];
            if (has_uv)
                kf3ds__static_printf(b, " %lu/%lu/%lu", v, (unsigned long)c->vt_base +
                                                            m->tri[3 * f + k], n);
            else
                kf3ds__static_printf(b, " %lu//%lu", v, n);
        }
        kf3ds__static_puts(b, "\n");
    }
    c->v_base += m->np;
    if (has_uv)
        c->vt_base += m->np;
    c->vn_base += m->num_normals;
    c->out->num_objects++;
    c->out->num_vertices += m->np;
    c->out->num_triangles += m->nf;
    return b->failed ? -1 : 0;
}

static void put_map(static_buf *b, const char *keyword, const kf3ds_texture_map *map)
{
    if (!map->file || !map->file[0])
        return;
    kf3ds__static_printf(b, "%s ", keyword);
    kf3ds__static_name(b, map->file, "map");
    kf3ds__static_puts(b, "\n");
}

static void write_mtl(const kf3ds_scene *s, static_buf *b)
{
    uint32_t i;
    kf3ds__static_puts(b, "# kf3ds: the materials of the 3DS file\n");
    kf3ds__static_puts(b, "newmtl " NO_MATERIAL "\nKa 0 0 0\nKd 0.7 0.7 0.7\n"
                          "Ks 0 0 0\nd 1\nillum 1\n");
    for (i = 0; i < s->num_materials; i++) {
        const kf3ds_material *m = &s->materials[i];
        kf3ds__static_puts(b, "\nnewmtl ");
        kf3ds__static_name(b, m->name, "unnamed");
        kf3ds__static_puts(b, "\n");
        put_vec(b, "Ka", m->ambient, 3);
        put_vec(b, "Kd", m->diffuse, 3);
        put_vec(b, "Ks", m->specular, 3);
        /* OBJ's exponent runs 0..1000; 3DS's shininess is 0..1 of the same range */
        kf3ds__static_printf(b, "Ns %.9g\n", (double)m->shininess * 1000.0);
        kf3ds__static_printf(b, "d %.9g\n", 1.0 - (double)m->transparency);
        kf3ds__static_printf(b, "illum %d\n", m->shading <= 1 ? 1 : 2);
        put_map(b, "map_Kd", &m->texture1);
        put_map(b, "map_d", &m->opacity);
        put_map(b, "map_bump", &m->bump);
        put_map(b, "map_Ks", &m->specular_map);
    }
}

int kf3ds__static_obj(const kf3ds_scene *s, const kf3ds_static_options *o, double frame,
                      static_buf *obj, static_buf *mtl, kf3ds_static_output *out)
{
    obj_ctx c;
    int rc;
    kf3ds__static_puts(obj, "# kf3ds: ");
    kf3ds__static_name(obj, o->file_name, "scene");
    kf3ds__static_printf(obj, " at frame %.9g\n", frame);
    if (o->mtl_name) {
        kf3ds__static_puts(obj, "mtllib ");
        kf3ds__static_name(obj, o->mtl_name, "scene.mtl");
        kf3ds__static_puts(obj, "\n");
    }
    memset(&c, 0, sizeof c);
    c.s = s;
    c.b = obj;
    c.out = out;
    c.v_base = c.vt_base = c.vn_base = 1;
    rc = kf3ds__static_each_mesh(s, obj->al, frame,
                                 o->flags & KF3DS_STATIC_NO_EASE ? KF3DS_EVAL_NO_EASE : 0,
                                 write_mesh, &c);
    write_mtl(s, mtl);
    return rc != 0 || obj->failed || mtl->failed ? -1 : 0;
}
