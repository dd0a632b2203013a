/* kf3ds_wasm.c — the WebAssembly glue of kf3ds (docs/web.md): what
 * web/kf3ds.mjs calls. Built by mk/wasm.mk only, with the core (every src/[a-z]*.c but
 * the stdio wrappers load_file.c and save_file.c) and the renderer
 * (src/render/) and the glTF and bake modules (src/gltf/, src/bake/), for wasm32 with wasi-libc but no WASI call: the module
 * imports nothing.
 *
 * A loaded file is a kfw_scene handle: the scene (loaded with
 * KF3DS_LOAD_KEEP_SOURCE, so that saving gives the file back as `kf3ds
 * rewrite` does), its poses, the renderer (made at the first render) and the
 * buffers the results are returned in. Every function checks its handle and
 * indices and returns 0 / NULL / -1 for anything out of range; the JS side
 * checks types and ranges first and throws. */
#include "kf3ds.h"
#include "kf3ds_bake.h"
#include "kf3ds_gltf.h"
#include "kf3ds_render.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KFW_EXPORT(name) __attribute__((export_name(#name), used, visibility("default")))

#define KFW_MAGIC 0x4B465753u /* "KFWS", a live handle */
#define KFW_DEAD 0x44454144u  /* "DEAD", a freed one */
#define MAX_SIDE 16384
#define MAX_PIXELS (32L * 1024 * 1024)
#define ORBIT_FOV 45.0f

typedef struct kfw_scene {
    uint32_t magic;
    kf3ds_scene *scene;
    kf3ds_pose *poses;
    kf3ds_renderer *renderer;
    kf3ds_diag error;       /* the load's first error (code KF3DS_OK: none) */
    kf3ds_diag save_error;  /* the last kfw_save's */
    float *matrices;        /* num_nodes * 16 */
    float *verts;           /* max points of any mesh * 3 */
    uint32_t max_points;
    unsigned char *rgba;    /* the last render */
    uint32_t *color;
    float *depth;
    size_t pixels;          /* what color/depth/rgba hold */
    float *paths;           /* motion paths: num_nodes * KF3DS_MOTION_PATH_SAMPLES positions
                             * (made once) */
    char message[sizeof ((kf3ds_diag *)0)->message + 1];
} kfw_scene;

static int live(const kfw_scene *h)
{
    return h && h->magic == KFW_MAGIC && h->scene;
}

/* ---- memory for JS's byte buffers ----------------------------------------- */

KFW_EXPORT(kfw_alloc) void *kfw_alloc(size_t size)
{
    return malloc(size ? size : 1);
}

KFW_EXPORT(kfw_free) void kfw_free(void *p)
{
    free(p);
}

KFW_EXPORT(kfw_version) int kfw_version(void)
{
    return kf3ds_version();
}

/* ---- loading -------------------------------------------------------------- */

static void handle_release(kfw_scene *h)
{
    kf3ds_renderer_free(h->renderer);
    kf3ds_scene_free(h->scene);
    free(h->poses);
    free(h->matrices);
    free(h->verts);
    free(h->rgba);
    free(h->color);
    free(h->depth);
    free(h->paths);
}

/* A handle always (NULL only when out of memory for the handle itself):
 * kfw_loaded tells whether it holds a scene, kfw_get(KFW_DIAG, -1) gives the
 * error when it does not. */
KFW_EXPORT(kfw_load) kfw_scene *kfw_load(const void *data, size_t size)
{
    kf3ds_load_options lo;
    kfw_scene *h = calloc(1, sizeof *h);
    uint32_t i, n;
    if (!h)
        return NULL;
    h->magic = KFW_MAGIC;
    memset(&lo, 0, sizeof lo);
    lo.flags = KF3DS_LOAD_KEEP_SOURCE;
    h->scene = kf3ds_load_memory(data, size, &lo, &h->error);
    if (!h->scene)
        return h;
    n = h->scene->num_nodes;
    h->poses = calloc(n ? n : 1, sizeof *h->poses);
    h->matrices = calloc(n ? (size_t)n * 16 : 1, sizeof *h->matrices);
    for (i = 0; i < h->scene->num_meshes; i++)
        if (h->scene->meshes[i].num_points > h->max_points)
            h->max_points = h->scene->meshes[i].num_points;
    h->verts = calloc(h->max_points ? (size_t)h->max_points * 3 : 1, sizeof *h->verts);
    if (!h->poses || !h->matrices || !h->verts) {
        handle_release(h);
        memset(h, 0, sizeof *h);
        h->magic = KFW_MAGIC;
        h->error.code = KF3DS_ERR_NOMEM;
        h->error.severity = KF3DS_ERROR;
        h->error.chunk_name = "";
        strcpy(h->error.message, "out of memory");
    }
    return h;
}

KFW_EXPORT(kfw_loaded) int kfw_loaded(const kfw_scene *h)
{
    return live(h);
}

KFW_EXPORT(kfw_scene_free) void kfw_scene_free(kfw_scene *h)
{
    if (!h || h->magic != KFW_MAGIC)
        return;
    handle_release(h);
    h->magic = KFW_DEAD;
    free(h);
}

/* ---- queries -------------------------------------------------------------- */

enum {
    KFW_SCENE = 0, KFW_DIAG, KFW_NODE, KFW_TRACK, KFW_KEY, KFW_MESH, KFW_MATERIAL, KFW_MAP,
    KFW_CAMERA, KFW_LIGHT, KFW_ENVIRONMENT
};
#define KFW_MAX_VALUES 64

static int put3(double *out, int n, const float v[3])
{
    out[n] = v[0];
    out[n + 1] = v[1];
    out[n + 2] = v[2];
    return n + 3;
}

static const kf3ds_diag *diag_at(const kfw_scene *h, int32_t i)
{
    if (i < 0)
        return h->error.code != KF3DS_OK ? &h->error : NULL;
    if (!live(h) || (uint32_t)i >= h->scene->num_diags)
        return NULL;
    return &h->scene->diags[i];
}

static const kf3ds_track *track_at(const kfw_scene *h, int32_t node, int32_t kind)
{
    if (!live(h) || node < 0 || (uint32_t)node >= h->scene->num_nodes || kind < 0 ||
        kind >= KF3DS_TRACK_COUNT)
        return NULL;
    return &h->scene->nodes[node].tracks[kind];
}

/* Numbers of one element of the scene into out[0..KFW_MAX_VALUES), in the
 * order web/kf3ds.mjs reads them; returns how many, -1 for no such element. */
KFW_EXPORT(kfw_get) int kfw_get(const kfw_scene *h, int what, int32_t i, int32_t j, int32_t k,
                                double *out)
{
    const kf3ds_scene *s;
    int n = 0;
    if (!h || h->magic != KFW_MAGIC || !out)
        return -1;
    if (what == KFW_DIAG) {
        const kf3ds_diag *d = diag_at(h, i);
        if (!d)
            return -1;
        out[n++] = d->code;
        out[n++] = d->severity;
        out[n++] = d->offset;
        out[n++] = d->chunk_id;
        return n;
    }
    if (!live(h))
        return -1;
    s = h->scene;
    switch (what) {
    case KFW_SCENE:
        out[n++] = s->num_nodes;
        out[n++] = s->num_meshes;
        out[n++] = s->num_materials;
        out[n++] = s->num_cameras;
        out[n++] = s->num_lights;
        out[n++] = s->num_diags;
        out[n++] = s->num_dropped_diags;
        out[n++] = s->has_keyframer;
        out[n++] = s->anim_length;
        out[n++] = s->segment_start;
        out[n++] = s->segment_end;
        out[n++] = s->current_frame;
        out[n++] = s->version;
        out[n++] = s->mesh_version;
        out[n++] = s->master_scale;
        n = put3(out, n, s->ambient);
        out[n++] = kf3ds_scene_places_meshes(s);
        out[n++] = s->kf_revision;
        return n;
    case KFW_NODE: {
        const kf3ds_node *nd;
        if (i < 0 || (uint32_t)i >= s->num_nodes)
            return -1;
        nd = &s->nodes[i];
        out[n++] = nd->type;
        out[n++] = nd->parent >= 0 && (uint32_t)nd->parent < s->num_nodes ? nd->parent : -1;
        out[n++] = nd->id;
        out[n++] = nd->mesh;
        out[n++] = nd->camera;
        out[n++] = nd->light;
        out[n++] = nd->target;
        out[n++] = nd->flags1;
        out[n++] = nd->flags2;
        n = put3(out, n, nd->pivot);
        out[n++] = nd->is_dummy;
        out[n++] = nd->has_node_id;
        out[n++] = nd->depth;
        out[n++] = nd->offset;
        return n;
    }
    case KFW_TRACK: {
        const kf3ds_track *t = track_at(h, i, j);
        if (!t)
            return -1;
        out[n++] = t->num_keys;
        out[n++] = t->flags;
        return n;
    }
    case KFW_KEY: {
        const kf3ds_track *t = track_at(h, i, j);
        const kf3ds_key *key;
        int c;
        if (!t || k < 0 || (uint32_t)k >= t->num_keys)
            return -1;
        key = &t->keys[k];
        out[n++] = key->frame;
        out[n++] = key->spline_flags;
        out[n++] = key->tension;
        out[n++] = key->continuity;
        out[n++] = key->bias;
        out[n++] = key->ease_to;
        out[n++] = key->ease_from;
        for (c = 0; c < 4; c++)
            out[n++] = key->value[c];
        for (c = 0; c < 4; c++)
            out[n++] = key->quat[c];
        out[n++] = key->morph_mesh;
        return n;
    }
    case KFW_MESH: {
        const kf3ds_mesh *m;
        if (i < 0 || (uint32_t)i >= s->num_meshes)
            return -1;
        m = &s->meshes[i];
        out[n++] = m->num_points;
        out[n++] = m->num_faces;
        out[n++] = m->num_texcoords;
        out[n++] = m->num_groups;
        out[n++] = m->mirrored;
        out[n++] = m->hidden;
        out[n++] = m->color;
        out[n++] = m->has_matrix;
        return n;
    }
    case KFW_MATERIAL: {
        const kf3ds_material *m;
        if (i < 0 || (uint32_t)i >= s->num_materials)
            return -1;
        m = &s->materials[i];
        n = put3(out, n, m->ambient);
        n = put3(out, n, m->diffuse);
        n = put3(out, n, m->specular);
        out[n++] = m->shininess;
        out[n++] = m->shin_strength;
        out[n++] = m->transparency;
        out[n++] = m->self_illum;
        out[n++] = m->wire_size;
        out[n++] = m->shading;
        out[n++] = m->two_sided;
        out[n++] = m->additive;
        out[n++] = m->wire;
        out[n++] = m->decal;
        out[n++] = m->face_map;
        out[n++] = m->soften;
        out[n++] = m->self_illum_flag;
        return n;
    }
    case KFW_MAP: {
        const kf3ds_texture_map *t;
        if (i < 0 || (uint32_t)i >= s->num_materials || j < 0 || j >= KF3DS_MAP_COUNT)
            return -1;
        t = kf3ds_material_map(&s->materials[i], (kf3ds_map_kind)j);
        out[n++] = t->strength;
        out[n++] = t->tiling;
        out[n++] = t->blur;
        out[n++] = t->u_scale;
        out[n++] = t->v_scale;
        out[n++] = t->u_offset;
        out[n++] = t->v_offset;
        out[n++] = t->rotation;
        return n;
    }
    case KFW_CAMERA: {
        const kf3ds_camera *c;
        if (i < 0 || (uint32_t)i >= s->num_cameras)
            return -1;
        c = &s->cameras[i];
        n = put3(out, n, c->position);
        n = put3(out, n, c->target);
        out[n++] = c->roll;
        out[n++] = c->lens;
        out[n++] = c->fov;
        out[n++] = c->near_range;
        out[n++] = c->far_range;
        out[n++] = c->see_cone;
        out[n++] = c->hidden;
        return n;
    }
    case KFW_LIGHT: {
        const kf3ds_light *l;
        if (i < 0 || (uint32_t)i >= s->num_lights)
            return -1;
        l = &s->lights[i];
        n = put3(out, n, l->position);
        n = put3(out, n, l->color);
        out[n++] = l->off;
        out[n++] = l->spot;
        out[n++] = l->hidden;
        out[n++] = l->attenuate;
        out[n++] = l->shadowed;
        out[n++] = l->see_cone;
        out[n++] = l->rectangular;
        out[n++] = l->overshoot;
        out[n++] = l->inner_range;
        out[n++] = l->outer_range;
        out[n++] = l->multiplier;
        n = put3(out, n, l->target);
        out[n++] = l->hotspot;
        out[n++] = l->falloff;
        out[n++] = l->roll;
        return n;
    }
    case KFW_ENVIRONMENT: {
        const kf3ds_environment *e = &s->environment;
        out[n++] = e->background;
        out[n++] = e->atmosphere;
        n = put3(out, n, e->solid);
        out[n++] = e->gradient_mid;
        n = put3(out, n, e->gradient[0]);
        n = put3(out, n, e->gradient[1]);
        n = put3(out, n, e->gradient[2]);
        out[n++] = e->fog_near;
        out[n++] = e->fog_near_density;
        out[n++] = e->fog_far;
        out[n++] = e->fog_far_density;
        n = put3(out, n, e->fog_color);
        out[n++] = e->fog_background;
        out[n++] = e->layer_bottom;
        out[n++] = e->layer_top;
        out[n++] = e->layer_density;
        out[n++] = e->layer_flags;
        n = put3(out, n, e->layer_color);
        out[n++] = e->cue_near;
        out[n++] = e->cue_near_dim;
        out[n++] = e->cue_far;
        out[n++] = e->cue_far_dim;
        out[n++] = e->cue_background;
        return n;
    }
    default:
        return -1;
    }
}

enum {
    KFW_S_NODE_NAME = 0, KFW_S_NODE_INSTANCE, KFW_S_MESH_NAME, KFW_S_MATERIAL_NAME,
    KFW_S_CAMERA_NAME, KFW_S_LIGHT_NAME, KFW_S_DIAG_MESSAGE, KFW_S_DIAG_CHUNK, KFW_S_DIAG_CODE,
    KFW_S_KF_FILENAME, KFW_S_MAP_FILE, KFW_S_KEY_MORPH, KFW_S_NODE_TYPE, KFW_S_SAVE_ERROR,
    KFW_S_BITMAP, KFW_S_GROUP_MATERIAL, KFW_S_CHUNK_NAME
};

/* A zero-terminated string of the scene (bytes as in the file), or NULL. */
KFW_EXPORT(kfw_str) const char *kfw_str(kfw_scene *h, int what, int32_t i, int32_t j, int32_t k)
{
    const kf3ds_scene *s;
    /* (static strings: no handle needed) */
    if (what == KFW_S_NODE_TYPE)
        return kf3ds_node_type_name((kf3ds_node_type)i);
    if (what == KFW_S_CHUNK_NAME)
        return i >= 0 && i <= 0xFFFF ? kf3ds_chunk_name((uint16_t)i) : NULL;
    if (!h || h->magic != KFW_MAGIC)
        return NULL;
    if (what == KFW_S_DIAG_MESSAGE || what == KFW_S_DIAG_CHUNK || what == KFW_S_DIAG_CODE ||
        what == KFW_S_SAVE_ERROR) {
        const kf3ds_diag *d = what == KFW_S_SAVE_ERROR ? &h->save_error : diag_at(h, i);
        if (!d)
            return NULL;
        if (what == KFW_S_DIAG_CHUNK)
            return d->chunk_name ? d->chunk_name : "";
        if (what == KFW_S_DIAG_CODE)
            return kf3ds_status_string(d->code);
        memcpy(h->message, d->message, sizeof d->message);
        h->message[sizeof d->message] = '\0';
        return h->message;
    }
    if (!live(h))
        return NULL;
    s = h->scene;
    switch (what) {
    case KFW_S_NODE_NAME:
    case KFW_S_NODE_INSTANCE:
        if (i < 0 || (uint32_t)i >= s->num_nodes)
            return NULL;
        return what == KFW_S_NODE_NAME ? s->nodes[i].name : s->nodes[i].instance;
    case KFW_S_MESH_NAME:
        return i >= 0 && (uint32_t)i < s->num_meshes ? s->meshes[i].name : NULL;
    case KFW_S_MATERIAL_NAME:
        return i >= 0 && (uint32_t)i < s->num_materials ? s->materials[i].name : NULL;
    case KFW_S_CAMERA_NAME:
        return i >= 0 && (uint32_t)i < s->num_cameras ? s->cameras[i].name : NULL;
    case KFW_S_LIGHT_NAME:
        return i >= 0 && (uint32_t)i < s->num_lights ? s->lights[i].name : NULL;
    case KFW_S_KF_FILENAME:
        return s->kf_filename;
    case KFW_S_BITMAP:
        return s->environment.bitmap;
    case KFW_S_MAP_FILE:
        if (i < 0 || (uint32_t)i >= s->num_materials || j < 0 || j >= KF3DS_MAP_COUNT)
            return NULL;
        return kf3ds_material_map(&s->materials[i], (kf3ds_map_kind)j)->file;
    case KFW_S_KEY_MORPH: {
        const kf3ds_track *t = track_at(h, i, j);
        if (!t || k < 0 || (uint32_t)k >= t->num_keys)
            return NULL;
        return t->keys[k].morph_name;
    }
    case KFW_S_GROUP_MATERIAL:
        if (i < 0 || (uint32_t)i >= s->num_meshes || j < 0 ||
            (uint32_t)j >= s->meshes[i].num_groups)
            return NULL;
        return s->meshes[i].groups[j].material_name;
    default:
        return NULL;
    }
}

/* ---- evaluation ----------------------------------------------------------- */

/* Every node's world matrix at `frame`, 16 floats each, row-major m[row][col]
 * (as `kf3ds eval --json` prints "world"); NULL for a dead handle. */
KFW_EXPORT(kfw_eval) const float *kfw_eval(kfw_scene *h, double frame, unsigned flags)
{
    uint32_t i;
    if (!live(h))
        return NULL;
    kf3ds_scene_eval(h->scene, frame, flags, h->poses);
    for (i = 0; i < h->scene->num_nodes; i++)
        memcpy(h->matrices + (size_t)i * 16, h->poses[i].world.m, 16 * sizeof(float));
    return h->matrices;
}

/* The placed vertices of an object node's mesh at `frame` (N(t)·T(−pivot)·M⁻¹·v,
 * `kf3ds eval --verts`), 3 floats each; *count gets how many vertices. NULL
 * when the node places no mesh. */
KFW_EXPORT(kfw_vertices) const float *kfw_vertices(kfw_scene *h, int32_t node, double frame,
                                                   unsigned flags, uint32_t *count)
{
    const kf3ds_scene *s;
    const kf3ds_node *n;
    const kf3ds_mesh *mesh;
    kf3ds_mat4 m;
    uint32_t k;
    if (count)
        *count = 0;
    if (!live(h) || node < 0 || (uint32_t)node >= h->scene->num_nodes)
        return NULL;
    s = h->scene;
    n = &s->nodes[node];
    if (n->type != KF3DS_NODE_OBJECT || n->mesh < 0 || (uint32_t)n->mesh >= s->num_meshes)
        return NULL;
    kf3ds_scene_eval(s, frame, flags, h->poses);
    if (!kf3ds_node_mesh_matrix(s, (uint32_t)node, &h->poses[node], &m))
        return NULL;
    mesh = &s->meshes[n->mesh];
    for (k = 0; k < mesh->num_points; k++)
        kf3ds_mat4_transform_point(&m, mesh->points[k], h->verts + (size_t)k * 3);
    if (count)
        *count = mesh->num_points;
    return h->verts;
}

/* ---- rendering (the pictures of `kf3ds render`, tools/cmd/cmd_render.c) ------- */

static int ensure_renderer(kfw_scene *h)
{
    if (!h->renderer)
        h->renderer = kf3ds_renderer_create(h->scene, NULL);
    return h->renderer != NULL;
}

/* kf3ds_renderer_set_map (kind 0..7) or, kind −1, set_background, with a
 * width×height picture of 0xAARRGGBB pixels (NULL: remove it). Returns the
 * library's answer, or −2 when the renderer cannot be made. */
KFW_EXPORT(kfw_set_map) int kfw_set_map(kfw_scene *h, int32_t material, int32_t kind,
                                        const uint32_t *pixels, int width, int height)
{
    kf3ds_image img;
    if (!live(h))
        return -1;
    if (!ensure_renderer(h))
        return -2;
    img.pixels = pixels;
    img.width = width;
    img.height = height;
    if (kind < 0)
        return kf3ds_renderer_set_background(h->renderer, pixels ? &img : NULL);
    if (material < 0 || kind >= KF3DS_MAP_COUNT)
        return -1;
    return kf3ds_renderer_set_map(h->renderer, (uint32_t)material, (kf3ds_map_kind)kind,
                                  pixels ? &img : NULL);
}

/* Appends the decimal digits of v (0 <= v < 1e19) to buf at *at. */
static void put_digits(char *buf, size_t *at, unsigned long long v, int min_digits)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v || n < min_digits);
    while (n)
        buf[(*at)++] = tmp[--n];
}

/* "12", "12.5", "-3.25", as the command labels its frames (its
 * "%.0f" or "%.3f" without trailing zeros; libc's printf would pull stdio,
 * and with it WASI imports, into the module). |frame| <= 1e9. */
static void format_frame(char *buf, double frame)
{
    size_t at = 0;
    double p, e, r;
    unsigned long long q;
    if (fabs(frame - floor(frame + 0.5)) < 5e-4) {
        r = floor(frame + 0.5);
        if (r < 0)
            buf[at++] = '-';
        put_digits(buf, &at, (unsigned long long)fabs(r), 1);
        buf[at] = '\0';
        return;
    }
    /* frame·1000 rounded to an integer, ties to even, from the exact product
     * p + e (printf rounds the exact value). */
    p = frame * 1000.0;
    e = fma(frame, 1000.0, -p);
    r = nearbyint(p);
    if (fabs(p - r) == 0.5 && e != 0.0)
        r = e > 0 ? ceil(p) : floor(p);
    if (r < 0 || (r == 0 && frame < 0))
        buf[at++] = '-';
    q = (unsigned long long)fabs(r);
    put_digits(buf, &at, q / 1000, 1);
    buf[at++] = '.';
    put_digits(buf, &at, q % 1000, 3);
    while (at > 0 && buf[at - 1] == '0')
        at--;
    buf[at] = '\0';
}


#define KFW_RENDER_ORBIT 0x01    /* --orbit given: never a camera by default */
#define KFW_RENDER_CULL 0x02     /* --cull */
#define KFW_RENDER_NO_ENV 0x04   /* --no-environment */
#define KFW_RENDER_NO_EASE 0x08  /* --no-ease */
#define KFW_RENDER_NO_LABEL 0x10 /* --no-label */
#define KFW_RENDER_NO_LIGHTS 0x20 /* the file's lights left out */
#define KFW_RENDER_FOLLOW 0x40    /* `kf3ds view`'s t: the orbit view follows the objects */
#define KFW_RENDER_PATHS 0x80     /* `kf3ds view`'s m: motion paths over the picture */

/* `kf3ds view`'s motion paths (kf3ds_motion_paths_sample), sampled once per
 * scene, then kept. Leaves the poses at some sampled frame. Returns 0 when
 * out of memory. */
static int make_paths(kfw_scene *h)
{
    const kf3ds_scene *s = h->scene;
    size_t n = s->num_nodes;
    if (h->paths || !n)
        return 1;
    if (n > SIZE_MAX / (KF3DS_MOTION_PATH_SAMPLES * 3 * sizeof *h->paths))
        return 0;
    h->paths = malloc(n * KF3DS_MOTION_PATH_SAMPLES * 3 * sizeof *h->paths);
    if (!h->paths)
        return 0;
    kf3ds_motion_paths_sample(s, (double)s->segment_start, (double)s->segment_end, 0,
                              KF3DS_MOTION_PATH_SAMPLES, h->poses, h->paths);
    return 1;
}

/* One picture, width×height RGBA bytes (alpha 255), the pixels `kf3ds render
 * FILE --frame F --size WxH` writes with the same options: through camera
 * node camera_node (≥ 0) or editor camera editor_camera (≥ 0), else the
 * default view at azimuth/elevation. background: 0xRRGGBB, 0 the default.
 * KFW_RENDER_FOLLOW: the orbit view of `kf3ds view`'s t instead, a box of
 * the objects' size at follow_frame around them as they are at `frame`.
 * NULL when out of memory or an argument is out of range. */
KFW_EXPORT(kfw_render) const unsigned char *kfw_render(kfw_scene *h, int width, int height,
                                                       double frame, int32_t camera_node,
                                                       int32_t editor_camera, float azimuth,
                                                       float elevation, unsigned shading,
                                                       unsigned overlays, unsigned flags,
                                                       uint32_t background, float zoom,
                                                       float pan_x, float pan_y,
                                                       double follow_frame)
{
    const kf3ds_scene *s;
    kf3ds_framebuffer fb;
    kf3ds_render_options ro;
    kf3ds_view view;
    kf3ds_auto_view av;
    unsigned eval_flags = flags & KFW_RENDER_NO_EASE ? KF3DS_EVAL_NO_EASE : 0;
    const char *camera_label = NULL;
    size_t n, p;
    if (!live(h) || !(fabs(frame) <= 1e9) || !(zoom >= 0.01f && zoom <= 100.0f) ||
        !(fabs(pan_x) <= 1e3f) || !(fabs(pan_y) <= 1e3f) || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE ||
        (long)width * height > MAX_PIXELS || shading > KF3DS_SHADE_WIRE ||
        ((flags & KFW_RENDER_FOLLOW) && !(fabs(follow_frame) <= 1e9)))
        return NULL;
    s = h->scene;
    if (camera_node >= 0 && ((uint32_t)camera_node >= s->num_nodes ||
                             s->nodes[camera_node].type != KF3DS_NODE_CAMERA))
        return NULL;
    if (editor_camera >= 0 && (uint32_t)editor_camera >= s->num_cameras)
        return NULL;
    if (!ensure_renderer(h))
        return NULL;
    n = (size_t)width * (size_t)height;
    if (n > h->pixels) {
        free(h->color);
        free(h->depth);
        free(h->rgba);
        h->color = malloc(n * sizeof *h->color);
        h->depth = malloc(n * sizeof *h->depth);
        h->rgba = malloc(n * 4);
        h->pixels = n;
        if (!h->color || !h->depth || !h->rgba) {
            free(h->color);
            free(h->depth);
            free(h->rgba);
            h->color = NULL;
            h->depth = NULL;
            h->rgba = NULL;
            h->pixels = 0;
            return NULL;
        }
    }
    fb.color = h->color;
    fb.depth = h->depth;
    fb.width = width;
    fb.height = height;

    if (camera_node < 0 && editor_camera < 0) {
        unsigned af = 0;
        if (flags & KFW_RENDER_ORBIT)
            af |= KF3DS_AUTO_VIEW_NO_CAMERA;
        if (flags & KFW_RENDER_NO_ENV)
            af |= KF3DS_AUTO_VIEW_NO_ENVIRONMENT;
        kf3ds_auto_view_choose(s, (double)s->segment_start, (double)s->segment_end, frame,
                               eval_flags, af, h->poses, &av);
        if (flags & KFW_RENDER_FOLLOW) {
            kf3ds_auto_view_follow(s, follow_frame, eval_flags, h->poses, &av);
        } else if (av.kind == KF3DS_AUTO_VIEW_CAMERA) {
            const kf3ds_node *nd = &s->nodes[av.camera_node];
            camera_node = (int32_t)av.camera_node;
            camera_label = nd->name && nd->name[0] ? nd->name : "camera";
        }
    } else {
        camera_label = camera_node >= 0 ? s->nodes[camera_node].name
                                        : s->cameras[editor_camera].name;
    }

    if ((flags & KFW_RENDER_PATHS) && !make_paths(h))
        return NULL;
    kf3ds_scene_eval(s, frame, eval_flags, h->poses);
    memset(&view, 0, sizeof view);
    if (camera_node >= 0)
        kf3ds_view_from_camera(s, (uint32_t)camera_node, h->poses, &view);
    else if (editor_camera >= 0)
        kf3ds_view_from_editor_camera(s, (uint32_t)editor_camera, h->poses, &view);
    else
        kf3ds_auto_view_moved(s, &av, h->poses, azimuth, elevation, ORBIT_FOV,
                              (float)width / (float)height, zoom, pan_x, pan_y, &view);
    memset(&ro, 0, sizeof ro);
    ro.shading = (kf3ds_shading)shading;
    ro.overlays = overlays;
    ro.background = background;
    ro.no_file_lights = (uint8_t)(flags & KFW_RENDER_NO_LIGHTS ? 1 : 0);
    ro.has_camera_node = camera_node >= 0;
    ro.camera_node = camera_node >= 0 ? (uint32_t)camera_node : 0;
    ro.cull_back_faces = (uint8_t)(flags & KFW_RENDER_CULL ? 1 : 0);
    ro.no_file_environment = (uint8_t)(flags & KFW_RENDER_NO_ENV ? 1 : 0);
    kf3ds_render_scene(h->renderer, h->poses, &view, &ro, &fb, NULL);
    if (flags & KFW_RENDER_PATHS)
        kf3ds_motion_paths_draw(&fb, &view, s, h->paths, KF3DS_MOTION_PATH_SAMPLES);
    if (!(flags & KFW_RENDER_NO_LABEL)) {
        char label[160];
        size_t len;
        memcpy(label, "frame ", 6);
        format_frame(label + 6, frame);
        len = strlen(label);
        if (camera_label) { /* "  %.60s" */
            size_t c = 0;
            label[len++] = ' ';
            label[len++] = ' ';
            while (c < 60 && camera_label[c])
                label[len++] = camera_label[c++];
            label[len] = '\0';
        }
        kf3ds_raster_label(&fb, label);
    }
    for (p = 0; p < n; p++) {
        uint32_t c = h->color[p];
        h->rgba[4 * p] = (unsigned char)(c >> 16);
        h->rgba[4 * p + 1] = (unsigned char)(c >> 8);
        h->rgba[4 * p + 2] = (unsigned char)c;
        h->rgba[4 * p + 3] = 255;
    }
    return h->rgba;
}

/* ---- saving (`kf3ds rewrite`, tools/cmd/cmd_rewrite.c) ------------------------- */

/* The scene as a .3ds file: KF3DS_SAVE_REPAIR plus the given KF3DS_SAVE_
 * flags (segment with KF3DS_SAVE_SEGMENT). Free the bytes with
 * kfw_save_free; NULL and kfw_str(KFW_S_SAVE_ERROR) on failure. */
KFW_EXPORT(kfw_save) void *kfw_save(kfw_scene *h, unsigned flags, int32_t segment_start,
                                    int32_t segment_end, size_t *size)
{
    kf3ds_save_options so;
    void *bytes = NULL;
    if (size)
        *size = 0;
    if (!live(h) || !size)
        return NULL;
    memset(&so, 0, sizeof so);
    so.flags = flags | KF3DS_SAVE_REPAIR;
    so.segment_start = segment_start;
    so.segment_end = segment_end;
    memset(&h->save_error, 0, sizeof h->save_error);
    if (kf3ds_save_memory(h->scene, &so, &bytes, size, &h->save_error) != KF3DS_OK) {
        *size = 0;
        return NULL;
    }
    return bytes;
}

KFW_EXPORT(kfw_save_free) void kfw_save_free(void *bytes)
{
    kf3ds_save_free(bytes, NULL);
}

/* ---- glTF export (`kf3ds export`, tools/cmd/cmd_export.c) --------------------- */

/* The texture images JS supplies for one export: data[i] is the picture of
 * the map named names[i] (the name as the material stores it; JS matched
 * the caller's file names to those names, as tools/cmd/cmd_maps.c matches the
 * files beside the input), uris[i] the caller's file name. */
typedef struct kfw_images {
    uint32_t count;
    const char *const *names;
    const void *const *data;
    const uint32_t *sizes;
    const char *const *uris;
    int32_t embed;         /* KF3DS_GLTF_EMBED_IMAGES: no URI */
} kfw_images;

/* The warnings of the last export, for JS to word as the command does: one
 * record per warning, the kind as a byte then the map's name, NUL-ended. */
typedef struct kfw_warnings {
    char *text;
    size_t len, cap;
    int failed;            /* out of memory: some were lost */
} kfw_warnings;

static kfw_warnings last_warnings;

static int find_image(void *user, const char *name, kf3ds_gltf_image *image)
{
    const kfw_images *im = user;
    uint32_t i;
    for (i = 0; i < im->count; i++)
        if (strcmp(im->names[i], name) == 0) {
            image->data = im->data[i];
            image->size = im->sizes[i];
            /* (the .glb refers to the file by its name, as beside it) */
            image->uri = im->embed ? NULL : im->uris[i];
            return KF3DS_GLTF_IMAGE_FOUND;
        }
    return KF3DS_GLTF_IMAGE_MISSING;
}

static void keep_warning(void *user, const kf3ds_gltf_warning *w)
{
    kfw_warnings *ws = user;
    size_t n = strlen(w->map ? w->map : "") + 2;
    (void)w->message;
    if (ws->len + n > ws->cap) {
        size_t cap = (ws->cap ? ws->cap * 2 : 256) + n;
        char *p = realloc(ws->text, cap);
        if (!p) {
            ws->failed = 1;
            return;
        }
        ws->text = p;
        ws->cap = cap;
    }
    ws->text[ws->len] = (char)w->kind;
    memcpy(ws->text + ws->len + 1, w->map ? w->map : "", n - 1);
    ws->len += n;
}

KFW_EXPORT(kfw_warnings_text) const char *kfw_warnings_text(size_t *size)
{
    if (size)
        *size = last_warnings.len;
    return last_warnings.text;
}

/* The last export's bytes, until kfw_gltf_free (JS copies them out at once). */
static kf3ds_gltf_output last_gltf;

KFW_EXPORT(kfw_gltf_free) void kfw_gltf_free(void)
{
    kf3ds_gltf_free(&last_gltf);
}

/* kf3ds_gltf_write with the command's options (a .glb, never SEPARATE):
 * `flags` KF3DS_GLTF_ flags; frames, fps, rate as the options say. The
 * bytes (free with kfw_gltf_free) and *size, or NULL with status[0] the
 * library's status and status[1] which limit; status[2..3] the exported
 * frames, as the summary says them, in the double at `frames`. */
KFW_EXPORT(kfw_export) void *kfw_export(kfw_scene *h, unsigned flags, double static_frame,
                                        int32_t first, int32_t last, double fps, int rate,
                                        const char *file_name, const kfw_images *images,
                                        size_t *size, int32_t *status)
{
    kf3ds_gltf_options go;
    kf3ds_status st;
    kfw_images none;
    if (size)
        *size = 0;
    if (!live(h) || !size || !status)
        return NULL;
    memset(&none, 0, sizeof none);
    last_warnings.len = 0;
    last_warnings.failed = 0;
    memset(&go, 0, sizeof go);
    go.flags = flags & ~(unsigned)KF3DS_GLTF_SEPARATE;
    go.file_name = file_name;
    go.static_frame = static_frame;
    go.first_frame = first;
    go.last_frame = last;
    go.fps = fps;
    go.rate = rate;
    go.image = find_image;
    go.image_user = (void *)(images ? images : &none);
    if (images && images->embed)
        go.flags |= KF3DS_GLTF_EMBED_IMAGES;
    go.warning = keep_warning;
    go.warning_user = &last_warnings;
    kf3ds_gltf_free(&last_gltf);
    st = kf3ds_gltf_write(h->scene, &go, &last_gltf, NULL);
    status[0] = st;
    status[1] = (int32_t)last_gltf.summary.limit;
    status[2] = (int32_t)last_gltf.summary.first_frame;
    status[3] = (int32_t)last_gltf.summary.last_frame;
    if (st != KF3DS_OK)
        return NULL;
    *size = last_gltf.size;
    return last_gltf.bytes;
}

/* ---- bake (`kf3ds bake`, tools/cmd/cmd_bake.c) -------------------------------- */

/* kf3ds_bake with the frames JS planned as the command does (num_frames 0:
 * the segment), `nodes` num_nodes NUL-ended names one after the other. The
 * bytes (free with kfw_bake_free) and *size, or NULL with out[0] the status,
 * out[1] the kf3ds_bake_problem, out[2] the fraction bits that would fit;
 * *largest the largest magnitude; kfw_str(KFW_S_BAKE_NODE) the unknown node. */
static char bake_missing[256];

KFW_EXPORT(kfw_bake) void *kfw_bake(kfw_scene *h, unsigned flags, int frac_bits, int32_t first,
                                    int32_t step, uint32_t scale, uint32_t num_frames,
                                    const char *nodes, uint32_t num_nodes, size_t *size,
                                    int32_t *out, double *largest)
{
    kf3ds_bake_options o;
    kf3ds_bake_info info;
    kf3ds_diag error;
    kf3ds_status st;
    const char **names = NULL;
    unsigned char *bytes = NULL;
    uint32_t i;
    if (size)
        *size = 0;
    if (!live(h) || !size || !out || !largest)
        return NULL;
    memset(&o, 0, sizeof o);
    memset(&info, 0, sizeof info);
    o.flags = flags;
    o.frac_bits = frac_bits;
    o.frame_first = first;
    o.frame_step = step;
    o.frame_scale = scale;
    o.num_frames = num_frames;
    if (num_nodes) {
        const char *p = nodes;
        if (!nodes)
            return NULL;
        names = malloc(sizeof *names * num_nodes);
        if (!names) {
            out[0] = KF3DS_ERR_NOMEM;
            out[1] = KF3DS_BAKE_NOMEM;
            return NULL;
        }
        for (i = 0; i < num_nodes; i++) {
            names[i] = p;
            p += strlen(p) + 1;
        }
        o.nodes = names;
        o.num_nodes = num_nodes;
    }
    st = kf3ds_bake(h->scene, &o, &bytes, size, &info, &error);
    out[0] = st;
    out[1] = info.problem;
    out[2] = info.frac_bits;
    *largest = info.largest;
    bake_missing[0] = '\0';
    if (info.problem == KF3DS_BAKE_UNKNOWN_NODE && info.missing_node) {
        size_t n = strlen(info.missing_node);
        if (n >= sizeof bake_missing)
            n = sizeof bake_missing - 1;
        memcpy(bake_missing, info.missing_node, n);
        bake_missing[n] = '\0';
    }
    free(names);
    if (st != KF3DS_OK) {
        kf3ds_bake_free(bytes, &o);
        *size = 0;
        return NULL;
    }
    return bytes;
}

/* kf3ds_bake_fit_step (`kf3ds bake --tolerance`) on the frames JS planned:
 * frames[0..3] (first, step, scale, count) in, and out as the step chosen or
 * the last tried; m[0] the measure, m[1] its frame; out[0] the status,
 * out[1] the kf3ds_bake_fit_limit, out[2] the node. */
KFW_EXPORT(kfw_bake_fit) void kfw_bake_fit(kfw_scene *h, double tolerance, int32_t *frames,
                                           double *m, int32_t *out)
{
    kf3ds_bake_options o;
    kf3ds_bake_between_info b;
    if (!live(h) || !frames || !m || !out)
        return;
    memset(&o, 0, sizeof o);
    o.frame_first = frames[0];
    o.frame_step = frames[1];
    o.frame_scale = (uint32_t)frames[2];
    o.num_frames = (uint32_t)frames[3];
    out[0] = kf3ds_bake_fit_step(h->scene, &o, tolerance, NULL, NULL, &b);
    out[1] = b.limit;
    out[2] = (int32_t)b.node;
    m[0] = b.worst;
    m[1] = b.frame;
    frames[0] = o.frame_first;
    frames[1] = o.frame_step;
    frames[2] = (int32_t)o.frame_scale;
    frames[3] = (int32_t)o.num_frames;
}

KFW_EXPORT(kfw_bake_free) void kfw_bake_free(unsigned char *bytes)
{
    kf3ds_bake_free(bytes, NULL);
}

KFW_EXPORT(kfw_bake_missing) const char *kfw_bake_missing(void)
{
    return bake_missing;
}
