/* kf3ds export: materials, textures and images (docs/gltf.md, "Materials").
 * The 3DS colours become a metallic-roughness approximation; the texture
 * map (Texture 1) becomes the base-colour texture: its bytes come from the
 * caller's image callback (the command looks beside the input file, names
 * compared without case, as 3DS ran on DOS), referenced by the relative URI
 * the caller gives or embedded (KF3DS_GLTF_EMBED_IMAGES). glTF takes PNG and
 * JPEG only: other images are left out with a warning. */
#include "export_internal.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MAT_MAP_TILING bits (docs/format.md). */
#define TILING_MIRROR 0x0002
#define TILING_NO_TILE 0x0010

typedef struct ex_image {
    char *name;               /* the map's file name as stored */
    int32_t image;            /* glTF image, -1 when it could not be used */
} ex_image;

static double clamp01(double v)
{
    return v == v ? (v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v) : 0.0;
}

/* "image/png", "image/jpeg" from the first bytes, NULL for anything else. */
static const char *image_type(const void *data, size_t n)
{
    const unsigned char *b = data;
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };
    if (n >= 8 && memcmp(b, png, 8) == 0)
        return "image/png";
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return "image/jpeg";
    return NULL;
}

char *export_uri_encode(export_ctx *c, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0, len = strlen(s);
    const char *p;
    char *out = len < ((size_t)-1) / 3 ? EX_ALLOC(c, 3 * len + 1) : NULL;
    if (!out)
        return NULL;
    for (p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/') {
            out[n++] = (char)ch;
        } else {
            out[n++] = '%';
            out[n++] = hex[ch >> 4];
            out[n++] = hex[ch & 15];
        }
    }
    out[n] = '\0';
    return out;
}

/* Tells the caller's warning callback. */
static void warn(export_ctx *c, kf3ds_gltf_warning_kind kind, const char *name)
{
    const kf3ds_gltf_options *u = c->o->user;
    kf3ds_gltf_warning w;
    char message[200];
    if (!u || !u->warning)
        return;
    if (kind == KF3DS_GLTF_WARN_MAP_MISSING)
        snprintf(message, sizeof message, "texture map '%.100s' not found; left out", name);
    else
        snprintf(message, sizeof message, "texture map '%.100s' is neither PNG nor JPEG, which "
                                          "glTF requires; left out", name);
    w.kind = kind;
    w.map = name;
    w.message = message;
    u->warning(u->warning_user, &w);
}

static char *copy_string(export_ctx *c, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = EX_ALLOC(c, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* The glTF image for map file `name`, made once per name; -1 when the
 * caller has no such file or it is not PNG/JPEG (warned once). */
static int32_t image_for(export_ctx *c, const char *name)
{
    const kf3ds_gltf_options *u = c->o->user;
    kf3ds_gltf_image img;
    const char *mime;
    uint32_t i;
    ex_image *list;
    int32_t index = -1;
    int found;
    for (i = 0; i < c->num_image_list; i++)
        if (c->image_list[i].name && strcmp(c->image_list[i].name, name) == 0)
            return c->image_list[i].image;
    list = EX_GROW(c, c->image_list, c->num_image_list * sizeof *list,
                   (c->num_image_list + 1) * sizeof *list);
    if (!list) {
        c->oom = 1;
        return -1;
    }
    c->image_list = list;
    memset(&img, 0, sizeof img);
    found = u && u->image ? u->image(u->image_user, name, &img) : KF3DS_GLTF_IMAGE_MISSING;
    if (found < 0) {
        if (!c->failed)
            c->failed = KF3DS_ERR_IO;
    } else if (found == KF3DS_GLTF_IMAGE_MISSING) {
        warn(c, KF3DS_GLTF_WARN_MAP_MISSING, name);
    } else if (found == KF3DS_GLTF_IMAGE_FOUND) {
        mime = img.data ? image_type(img.data, img.size) : NULL;
        if (!mime) {
            warn(c, KF3DS_GLTF_WARN_MAP_TYPE, name);
        } else if (c->o->embed_images) {
            uint32_t view = gltf_view(&c->buf, img.data, img.size, 0);
            index = (int32_t)c->images.count;
            gltf_obj(&c->images, NULL);
            gltf_str(&c->images, "name", name);
            gltf_int(&c->images, "bufferView", (long)view);
            gltf_str(&c->images, "mimeType", mime);
            gltf_end(&c->images);
        } else if (img.uri) {
            char *uri = export_uri_encode(c, img.uri);
            if (!uri) {
                c->oom = 1;
            } else {
                index = (int32_t)c->images.count;
                gltf_obj(&c->images, NULL);
                gltf_str(&c->images, "name", name);
                gltf_str(&c->images, "uri", uri);
                gltf_end(&c->images);
                EX_FREE(c, uri);
            }
        }
    }
    c->image_list[c->num_image_list].name = copy_string(c, name);
    if (!c->image_list[c->num_image_list].name)
        c->oom = 1;
    c->image_list[c->num_image_list++].image = index;
    return index;
}

/* The map's scale, offset and angle as KHR_texture_transform, in glTF's
 * flipped v (docs/gltf.md, "Materials"). */
static void texture_transform(export_ctx *c, const kf3ds_texture_map *map)
{
    double us = map->u_scale, vs = map->v_scale, uo = map->u_offset, vo = map->v_offset;
    double a = map->rotation * 3.14159265358979323846 / 180.0;
    float offset[2], scale[2];
    if (!(fabs(us) < 1e30) || !(fabs(vs) < 1e30) || !(fabs(uo) < 1e30) || !(fabs(vo) < 1e30) ||
        !(fabs(a) < 1e30))
        return;
    if (us == 1.0 && vs == 1.0 && uo == 0.0 && vo == 0.0 && a == 0.0)
        return;
    {
        /* uv' = c + S·R(−a)·(uv − c) − D·S·R(a)·o, c = (½, ½), D = diag(1, −1),
         * o = (uoff, −voff), written as offset + R(−a)·S·uv. */
        double ca = cos(a), sa = sin(a);
        double rx = ca * uo + sa * vo, ry = sa * uo - ca * vo; /* R(a)·o */
        double sx = us * rx, sy = -(vs * ry);                    /* D·S·R(a)·o */
        double cx = us * 0.5, cy = vs * 0.5;                     /* S·c */
        double rcx = ca * cx + sa * cy, rcy = -sa * cx + ca * cy; /* R(−a)·S·c */
        offset[0] = (float)(0.5 - rcx - sx);
        offset[1] = (float)(0.5 - rcy - sy);
        scale[0] = (float)us;
        scale[1] = (float)vs;
    }
    gltf_obj(&c->materials, "extensions");
    gltf_obj(&c->materials, "KHR_texture_transform");
    gltf_nums(&c->materials, "offset", offset, 2);
    if (a != 0.0) /* glTF's rotation matrix is R(rotation): R(−a) here */
        gltf_num(&c->materials, "rotation", -a);
    gltf_nums(&c->materials, "scale", scale, 2);
    gltf_end(&c->materials);
    gltf_end(&c->materials);
    c->used_texture_transform = 1;
}

/* The texture of a map (and its sampler); -1 when its image is unusable. */
static int32_t texture_for(export_ctx *c, const kf3ds_texture_map *map)
{
    int32_t image = image_for(c, map->file), tex;
    uint32_t sampler;
    int wrap = map->tiling & TILING_NO_TILE ? 33071 : map->tiling & TILING_MIRROR ? 33648 : 10497;
    if (image < 0)
        return -1;
    sampler = c->samplers.count;
    gltf_obj(&c->samplers, NULL);
    gltf_int(&c->samplers, "wrapS", wrap);
    gltf_int(&c->samplers, "wrapT", wrap);
    gltf_end(&c->samplers);
    tex = (int32_t)c->textures.count;
    gltf_obj(&c->textures, NULL);
    gltf_int(&c->textures, "source", image);
    gltf_int(&c->textures, "sampler", (long)sampler);
    gltf_end(&c->textures);
    return tex;
}

void export_materials(export_ctx *c)
{
    uint32_t i;
    for (i = 0; i < c->s->num_materials; i++) {
        const kf3ds_material *m = &c->s->materials[i];
        float base[4], emissive[3];
        int32_t tex = m->texture1.file && m->texture1.file[0] ? texture_for(c, &m->texture1) : -1;
        double shine = m->shin_strength > 0.0f ? clamp01(m->shininess) : 0.0;
        int k;
        for (k = 0; k < 3; k++) {
            base[k] = tex >= 0 ? 1.0f : (float)clamp01(m->diffuse[k]);
            emissive[k] = (float)clamp01(m->diffuse[k] * clamp01(m->self_illum));
        }
        base[3] = (float)(1.0 - clamp01(m->transparency));
        gltf_obj(&c->materials, NULL);
        gltf_str(&c->materials, "name", m->name);
        gltf_obj(&c->materials, "pbrMetallicRoughness");
        gltf_nums(&c->materials, "baseColorFactor", base, 4);
        if (tex >= 0) {
            gltf_obj(&c->materials, "baseColorTexture");
            gltf_int(&c->materials, "index", tex);
            texture_transform(c, &m->texture1);
            gltf_end(&c->materials);
        }
        gltf_num(&c->materials, "metallicFactor", m->shading == 4 ? 1.0 : 0.0);
        gltf_num(&c->materials, "roughnessFactor", 1.0 - shine);
        gltf_end(&c->materials);
        if (emissive[0] > 0.0f || emissive[1] > 0.0f || emissive[2] > 0.0f)
            gltf_nums(&c->materials, "emissiveFactor", emissive, 3);
        if (base[3] < 1.0f)
            gltf_str(&c->materials, "alphaMode", "BLEND");
        if (m->two_sided || m->wire)
            gltf_bool(&c->materials, "doubleSided", 1);
        gltf_end(&c->materials);
    }
}

void export_material_free(export_ctx *c)
{
    uint32_t i;
    for (i = 0; i < c->num_image_list; i++)
        EX_FREE(c, c->image_list[i].name);
    EX_FREE(c, c->image_list);
    c->image_list = NULL;
    c->num_image_list = 0;
}
