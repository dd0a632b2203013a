/* kf3ds export: materials, textures and images (docs/gltf.md, "Materials").
 * The 3DS colours become a metallic-roughness approximation; the texture
 * map (Texture 1) becomes the base-colour texture, found beside the input
 * file (names compared without case, as 3DS ran on DOS), referenced by a
 * relative URI or embedded with --embed-images. glTF takes PNG and JPEG
 * only: other images are left out with a warning. */
#define _XOPEN_SOURCE 700
#include "cmd_export.h"
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* The folder part of a path ("" for a bare name), into buf. */
static void dir_of(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    if (n >= cap)
        n = 0;
    memcpy(buf, path, n);
    buf[n] = '\0';
}

/* The file `name` in folder `dir`, its case ignored when no exact match:
 * the full path into buf, 1 when found. Only the last part of a stored
 * name counts (3DS stored DOS names, sometimes with a folder). */
static int find_beside(const char *dir, const char *name, char *buf, size_t cap)
{
    const char *base = name;
    const char *p;
    DIR *d;
    struct dirent *e;
    FILE *f;
    for (p = name; *p; p++)
        if (*p == '/' || *p == '\\' || *p == ':')
            base = p + 1;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return 0;
    if ((size_t)snprintf(buf, cap, "%s%s", dir, base) >= cap)
        return 0;
    if ((f = fopen(buf, "rb")) != NULL) {
        fclose(f);
        return 1;
    }
    d = opendir(dir[0] ? dir : ".");
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        if (strcasecmp(e->d_name, base) == 0 &&
            (size_t)snprintf(buf, cap, "%s%s", dir, e->d_name) < cap) {
            closedir(d);
            return 1;
        }
    closedir(d);
    return 0;
}

/* "image/png", "image/jpeg" from the first bytes, NULL for anything else. */
static const char *image_type(const unsigned char *b, size_t n)
{
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };
    if (n >= 8 && memcmp(b, png, 8) == 0)
        return "image/png";
    if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return "image/jpeg";
    return NULL;
}

/* The relative URI from folder `from` to file `to` (both made absolute),
 * percent-encoded; 0 when it cannot be made. */
static int relative_uri(const char *from, const char *to, char *out, size_t cap)
{
    char a[PATH_MAX], b[PATH_MAX];
    const char *pa, *pb, *p;
    size_t n = 0, common = 0, i;
    if (!realpath(from[0] ? from : ".", a) || !realpath(to, b))
        return 0;
    /* The longest common prefix that ends at a folder boundary. */
    for (i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/')
            common = i + 1;
    if (a[i] == '\0' && b[i] == '/')
        common = i + 1;
    pa = a + common;
    pb = b + common;
    for (p = pa; *p;) { /* one "../" per folder left in `from` */
        if (n + 4 >= cap)
            return 0;
        memcpy(out + n, "../", 3);
        n += 3;
        while (*p && *p != '/')
            p++;
        while (*p == '/')
            p++;
    }
    return export_uri_encode(pb, out + n, cap - n);
}

int export_uri_encode(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    const char *p;
    for (p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (n + 4 >= cap)
            return 0;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/')
            out[n++] = (char)ch;
        else
            n += (size_t)snprintf(out + n, cap - n, "%%%02X", ch);
    }
    out[n] = '\0';
    return 1;
}

/* The glTF image for map file `name`, made once per name; -1 when the file
 * is not there or not PNG/JPEG (warned once). */
static int32_t image_for(export_ctx *c, const char *name)
{
    char in_dir[PATH_MAX], out_dir[PATH_MAX], path[PATH_MAX], uri[3 * PATH_MAX];
    unsigned char *data = NULL;
    size_t size = 0;
    const char *mime;
    uint32_t i;
    ex_image *list;
    int32_t index = -1;
    for (i = 0; i < c->num_image_list; i++)
        if (strcmp(c->image_list[i].name, name) == 0)
            return c->image_list[i].image;
    list = realloc(c->image_list, (c->num_image_list + 1) * sizeof *list);
    if (!list) {
        c->oom = 1;
        return -1;
    }
    c->image_list = list;
    dir_of(strcmp(c->o->file, "-") == 0 ? "" : c->o->file, in_dir, sizeof in_dir);
    dir_of(c->o->out, out_dir, sizeof out_dir);
    if (!find_beside(in_dir, name, path, sizeof path)) {
        if (!c->o->quiet)
            fprintf(stderr, "kf3ds: warning: %s: texture map '%s' not found beside the file; "
                            "left out\n", c->o->file, name);
    } else if (cli_read_file(path, &data, &size) == CLI_EXIT_OK) {
        mime = image_type(data, size);
        if (!mime) {
            if (!c->o->quiet)
                fprintf(stderr, "kf3ds: warning: %s: texture map '%s' is neither PNG nor JPEG, "
                                "which glTF requires; left out\n", c->o->file, path);
        } else if (c->o->embed_images) {
            uint32_t view = gltf_view(&c->buf, data, size, 0);
            index = (int32_t)c->images.count;
            gltf_obj(&c->images, NULL);
            gltf_str(&c->images, "name", name);
            gltf_int(&c->images, "bufferView", (long)view);
            gltf_str(&c->images, "mimeType", mime);
            gltf_end(&c->images);
        } else if (relative_uri(out_dir, path, uri, sizeof uri)) {
            index = (int32_t)c->images.count;
            gltf_obj(&c->images, NULL);
            gltf_str(&c->images, "name", name);
            gltf_str(&c->images, "uri", uri);
            gltf_end(&c->images);
        }
        free(data);
    }
    c->image_list[c->num_image_list].name = strdup(name);
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
        free(c->image_list[i].name);
    free(c->image_list);
    c->image_list = NULL;
    c->num_image_list = 0;
}
