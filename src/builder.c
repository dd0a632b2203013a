/* The scene builder (docs/writer.md, "Building a scene"): materials, meshes,
 * cameras, lights, the background and atmosphere, nodes, tracks and keys
 * added in code, each call checked as it comes; kf3ds_builder_finish then
 * makes the scene loading would make of the same file, through the loader's
 * own finishing steps (mesh validation and the mirror fix, per-track setup,
 * parents, evaluation order, name links, the evaluation plan). Until then
 * everything lives in the builder's own arena, in lists; finishing copies it
 * into arrays of exactly the right size, so nothing is ever reallocated. */
#include "arena.h"
#include "diag.h"
#include "load_ctx.h"
#include "plan_build.h"
#include "readers.h"
#include "scene_internal.h"
#include "track_setup.h"
#include "value_range.h"
#include <stdarg.h>
#include <string.h>

#define NO_PARENT 0xFFFF

typedef struct key_block {
    struct key_block *next;
    uint32_t used, cap;
    kf3ds_key keys[1]; /* cap of them */
} key_block;

typedef struct staged_track {
    key_block *first, *last;
    uint32_t num_keys;
    uint16_t flags;
} staged_track;

typedef struct item {
    struct item *next;
    union {
        kf3ds_material material;
        kf3ds_mesh mesh;
        kf3ds_camera camera;
        kf3ds_light light;
        struct {
            kf3ds_node node;
            staged_track tracks[KF3DS_TRACK_COUNT];
        } n;
    } u;
} item;

typedef struct list {
    item *first, *last;
    uint32_t count;
    item **index;   /* (built on demand for lookups by index) */
} list;

struct kf3ds_builder {
    kf3ds__arena *arena;
    kf3ds_allocator allocator;
    kf3ds_diag error;
    list materials, meshes, cameras, lights, nodes;
    kf3ds_environment environment;
    float master_scale, ambient[3];
    int has_keyframer;
    const char *kf_name;
    int32_t anim_length, segment_start, segment_end, current_frame;
};

static void failv(kf3ds_builder *b, kf3ds_status code, uint16_t chunk, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void failv(kf3ds_builder *b, kf3ds_status code, uint16_t chunk, const char *fmt, ...)
{
    va_list ap;
    if (b->error.code != KF3DS_OK)
        return;
    va_start(ap, fmt);
    kf3ds__diag_setv(&b->error, code, 0, chunk, fmt, ap);
    va_end(ap);
}

static void set_error(kf3ds_diag *d, kf3ds_status code, const char *message)
{
    kf3ds__diag_set(d, code, "%s", message);
}

static int ok(const kf3ds_builder *b)
{
    return b && b->error.code == KF3DS_OK;
}

kf3ds_builder *kf3ds_builder_create(const kf3ds_allocator *allocator)
{
    kf3ds_allocator a;
    kf3ds__arena *arena;
    kf3ds_builder *b;
    if (kf3ds__allocator_resolve(allocator, &a))
        return NULL;
    arena = kf3ds__arena_create(&a, 0);
    b = arena ? (kf3ds_builder *)kf3ds__arena_alloc(arena, 1, sizeof *b) : NULL;
    if (!b) {
        kf3ds__arena_destroy(arena);
        return NULL;
    }
    b->arena = arena;
    b->allocator = a;
    b->master_scale = 1.0f; /* as loading a file without MASTER_SCALE */
    return b;
}

void kf3ds_builder_free(kf3ds_builder *b)
{
    if (b)
        kf3ds__arena_destroy(b->arena);
}

const kf3ds_diag *kf3ds_builder_error(const kf3ds_builder *b)
{
    return b ? &b->error : NULL;
}

static item *new_item(kf3ds_builder *b, list *l)
{
    item *it = (item *)kf3ds__arena_alloc(b->arena, 1, sizeof *it);
    if (!it) {
        failv(b, KF3DS_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    if (l->last)
        l->last->next = it;
    else
        l->first = it;
    l->last = it;
    l->count++;
    l->index = NULL;
    return it;
}

/* The i-th item of a list (KF3DS_NONE and out of range: NULL). */
static item *item_at(kf3ds_builder *b, list *l, int32_t i)
{
    uint32_t k;
    item *it;
    if (i < 0 || (uint32_t)i >= l->count)
        return NULL;
    if (!l->index) {
        l->index = (item **)kf3ds__arena_alloc_raw(b->arena, l->count, sizeof(item *));
        if (!l->index)
            return NULL;
        for (k = 0, it = l->first; it; it = it->next)
            l->index[k++] = it;
    }
    return l->index[i];
}

static const char *copy_str(kf3ds_builder *b, const char *s)
{
    return kf3ds__arena_strdup(b->arena, s ? s : "", s ? strlen(s) : 0);
}

static void *copy_array(kf3ds_builder *b, const void *p, size_t n, size_t size)
{
    void *q;
    if (!n)
        return NULL;
    q = kf3ds__arena_alloc_raw(b->arena, n, size);
    if (q)
        memcpy(q, p, n * size);
    else
        failv(b, KF3DS_ERR_NOMEM, 0, "out of memory");
    return q;
}

static int finite_within(kf3ds_builder *b, const float *v, size_t n, uint16_t chunk,
                         const char *what, const char *name)
{
    if (kf3ds__in_range(v, n, KF3DS__MAX_VALUE))
        return 1;
    failv(b, KF3DS_ERR_ARGUMENT, chunk, "%s '%s': a value is NaN, infinite or beyond 1e18",
          what, name);
    return 0;
}

static int fits16(kf3ds_builder *b, uint32_t n, uint16_t chunk, const char *what,
                  const char *name)
{
    if (n <= 0xFFFFu)
        return 1;
    failv(b, KF3DS_ERR_LIMIT, chunk, "%s '%s': %lu do not fit the format's 16-bit count", what,
          name, (unsigned long)n);
    return 0;
}

/* ---- the editor data ------------------------------------------------------- */

static void copy_map(kf3ds_builder *b, kf3ds_texture_map *m)
{
    m->file = copy_str(b, m->file);
}

int32_t kf3ds_builder_add_material(kf3ds_builder *b, const kf3ds_material *m)
{
    item *it;
    kf3ds_material *c;
    if (!ok(b))
        return KF3DS_NONE;
    if (!m || !m->name) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_MAT_ENTRY, "a material needs a name");
        return KF3DS_NONE;
    }
    if (!finite_within(b, m->ambient, 3, KF3DS_CHUNK_MAT_ENTRY, "material", m->name) ||
        !finite_within(b, m->diffuse, 3, KF3DS_CHUNK_MAT_ENTRY, "material", m->name) ||
        !finite_within(b, m->specular, 3, KF3DS_CHUNK_MAT_ENTRY, "material", m->name))
        return KF3DS_NONE;
    it = new_item(b, &b->materials);
    if (!it)
        return KF3DS_NONE;
    c = &it->u.material;
    *c = *m;
    c->name = copy_str(b, m->name);
    copy_map(b, &c->texture1);
    copy_map(b, &c->texture2);
    copy_map(b, &c->opacity);
    copy_map(b, &c->bump);
    copy_map(b, &c->specular_map);
    copy_map(b, &c->shininess_map);
    copy_map(b, &c->self_illum_map);
    copy_map(b, &c->reflection);
    return (int32_t)b->materials.count - 1;
}

int32_t kf3ds_builder_add_mesh(kf3ds_builder *b, const char *name, const float (*points)[3],
                               uint32_t num_points, const kf3ds_face *faces, uint32_t num_faces,
                               const kf3ds_mat4 *matrix)
{
    item *it;
    kf3ds_mesh *m;
    uint32_t i;
    if (!ok(b))
        return KF3DS_NONE;
    if (!name || (num_points && !points) || (num_faces && !faces)) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_N_TRI_OBJECT,
              "a mesh needs a name and its points and faces");
        return KF3DS_NONE;
    }
    if (!fits16(b, num_points, KF3DS_CHUNK_POINT_ARRAY, "mesh points of", name) ||
        !fits16(b, num_faces, KF3DS_CHUNK_FACE_ARRAY, "mesh faces of", name) ||
        (num_points &&
         !finite_within(b, &points[0][0], 3 * (size_t)num_points, KF3DS_CHUNK_POINT_ARRAY,
                        "mesh points of", name)) ||
        (matrix && !finite_within(b, &matrix->m[0][0], 16, KF3DS_CHUNK_MESH_MATRIX,
                                  "mesh matrix of", name)))
        return KF3DS_NONE;
    for (i = 0; i < num_faces; i++)
        if (faces[i].v[0] >= num_points || faces[i].v[1] >= num_points ||
            faces[i].v[2] >= num_points) {
            failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_FACE_ARRAY,
                  "mesh '%s': face %lu names a point beyond its %lu", name, (unsigned long)i,
                  (unsigned long)num_points);
            return KF3DS_NONE;
        }
    it = new_item(b, &b->meshes);
    if (!it)
        return KF3DS_NONE;
    m = &it->u.mesh;
    m->name = copy_str(b, name);
    m->points = (float(*)[3])copy_array(b, points, num_points, sizeof *points);
    m->num_points = num_points;
    m->faces = (kf3ds_face *)copy_array(b, faces, num_faces, sizeof *faces);
    m->num_faces = num_faces;
    if (matrix) {
        m->matrix = *matrix;
        m->matrix.m[3][0] = m->matrix.m[3][1] = m->matrix.m[3][2] = 0.0f;
        m->matrix.m[3][3] = 1.0f;
    } else {
        kf3ds_mat4_identity(&m->matrix);
    }
    m->has_matrix = 1;
    return (int32_t)b->meshes.count - 1;
}

static kf3ds_mesh *mesh_at(kf3ds_builder *b, int32_t mesh)
{
    item *it;
    if (!ok(b))
        return NULL;
    it = item_at(b, &b->meshes, mesh);
    if (!it)
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_N_TRI_OBJECT, "no mesh %ld", (long)mesh);
    return it ? &it->u.mesh : NULL;
}

kf3ds_status kf3ds_builder_mesh_texcoords(kf3ds_builder *b, int32_t mesh,
                                          const float (*uv)[2], uint32_t n)
{
    kf3ds_mesh *m = mesh_at(b, mesh);
    if (m && (!uv || n != m->num_points))
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_TEX_VERTS,
              "mesh '%s': %lu texture coordinates for %lu points", m->name, (unsigned long)n,
              (unsigned long)m->num_points);
    if (m && ok(b) && finite_within(b, &uv[0][0], 2 * (size_t)n, KF3DS_CHUNK_TEX_VERTS,
                                    "texture coordinates of", m->name)) {
        m->texcoords = (float(*)[2])copy_array(b, uv, n, sizeof *uv);
        m->num_texcoords = n;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_mesh_point_flags(kf3ds_builder *b, int32_t mesh,
                                            const uint16_t *flags, uint32_t n)
{
    kf3ds_mesh *m = mesh_at(b, mesh);
    if (m && (!flags || n != m->num_points))
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_POINT_FLAG_ARRAY,
              "mesh '%s': %lu point flags for %lu points", m->name, (unsigned long)n,
              (unsigned long)m->num_points);
    if (m && ok(b)) {
        m->point_flags = (uint16_t *)copy_array(b, flags, n, sizeof *flags);
        m->num_point_flags = n;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_mesh_display(kf3ds_builder *b, int32_t mesh, int hidden, uint8_t color)
{
    kf3ds_mesh *m = mesh_at(b, mesh);
    if (m) {
        m->hidden = (uint8_t)(hidden != 0);
        m->color = color;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_mesh_smoothing(kf3ds_builder *b, int32_t mesh,
                                          const uint32_t *groups)
{
    kf3ds_mesh *m = mesh_at(b, mesh);
    if (m && !groups)
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_SMOOTH_GROUP, "mesh '%s': no smoothing groups",
              m->name);
    if (m && ok(b) && m->num_faces)
        m->smoothing = (uint32_t *)copy_array(b, groups, m->num_faces, sizeof *groups);
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_mesh_material(kf3ds_builder *b, int32_t mesh, const char *material,
                                         const uint16_t *faces, uint32_t n)
{
    kf3ds_mesh *m = mesh_at(b, mesh);
    kf3ds_material_group *groups;
    item *it;
    uint32_t i;
    if (!m)
        return b ? b->error.code : KF3DS_ERR_ARGUMENT;
    for (it = b->materials.first; it && material; it = it->next)
        if (strcmp(it->u.material.name, material) == 0)
            break;
    if (!it) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_MSH_MAT_GROUP,
              "mesh '%s': no material '%s' (add it first)", m->name, material ? material : "");
        return b->error.code;
    }
    if (!faces)
        n = m->num_faces;
    for (i = 0; faces && i < n; i++)
        if (faces[i] >= m->num_faces) {
            failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_MSH_MAT_GROUP,
                  "mesh '%s': material face %lu is beyond its %lu faces", m->name,
                  (unsigned long)faces[i], (unsigned long)m->num_faces);
            return b->error.code;
        }
    groups = (kf3ds_material_group *)kf3ds__arena_alloc(b->arena, m->num_groups + 1,
                                                         sizeof *groups);
    if (!groups) {
        failv(b, KF3DS_ERR_NOMEM, 0, "out of memory");
        return b->error.code;
    }
    if (m->num_groups)
        memcpy(groups, m->groups, m->num_groups * sizeof *groups);
    groups[m->num_groups].material_name = it->u.material.name;
    groups[m->num_groups].material = KF3DS_NONE;
    groups[m->num_groups].num_faces = n;
    groups[m->num_groups].faces = (uint16_t *)kf3ds__arena_alloc_raw(b->arena, n ? n : 1, 2);
    for (i = 0; groups[m->num_groups].faces && i < n; i++)
        groups[m->num_groups].faces[i] = faces ? faces[i] : (uint16_t)i;
    m->groups = groups;
    m->num_groups++;
    return b->error.code;
}

int32_t kf3ds_builder_add_camera(kf3ds_builder *b, const kf3ds_camera *c)
{
    item *it;
    if (!ok(b))
        return KF3DS_NONE;
    if (!c || !c->name) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_N_CAMERA, "a camera needs a name");
        return KF3DS_NONE;
    }
    if (!finite_within(b, c->position, 3, KF3DS_CHUNK_N_CAMERA, "camera", c->name) ||
        !finite_within(b, c->target, 3, KF3DS_CHUNK_N_CAMERA, "camera", c->name) ||
        !finite_within(b, &c->roll, 1, KF3DS_CHUNK_N_CAMERA, "camera", c->name) ||
        !finite_within(b, &c->lens, 1, KF3DS_CHUNK_N_CAMERA, "camera", c->name))
        return KF3DS_NONE;
    it = new_item(b, &b->cameras);
    if (!it)
        return KF3DS_NONE;
    it->u.camera = *c;
    it->u.camera.name = copy_str(b, c->name);
    /* the field of view follows from the lens, as at load (docs/format.md, "Cameras") */
    it->u.camera.fov = c->lens < 1e-6f && c->lens > -1e-6f ? 45.0f : 2400.0f / c->lens;
    return (int32_t)b->cameras.count - 1;
}

int32_t kf3ds_builder_add_light(kf3ds_builder *b, const kf3ds_light *l)
{
    item *it;
    if (!ok(b))
        return KF3DS_NONE;
    if (!l || !l->name) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_N_DIRECT_LIGHT, "a light needs a name");
        return KF3DS_NONE;
    }
    if (!finite_within(b, l->position, 3, KF3DS_CHUNK_N_DIRECT_LIGHT, "light", l->name) ||
        !finite_within(b, l->color, 3, KF3DS_CHUNK_N_DIRECT_LIGHT, "light", l->name) ||
        !finite_within(b, l->target, 3, KF3DS_CHUNK_N_DIRECT_LIGHT, "light", l->name))
        return KF3DS_NONE;
    it = new_item(b, &b->lights);
    if (!it)
        return KF3DS_NONE;
    it->u.light = *l;
    it->u.light.name = copy_str(b, l->name);
    return (int32_t)b->lights.count - 1;
}

/* A fog density or cue dimming is saved as a percentage: 100 times the
 * fraction must stay within the supported range. */
#define MAX_FRACTION (KF3DS__MAX_VALUE / 100.0f)

kf3ds_status kf3ds_builder_environment(kf3ds_builder *b, const kf3ds_environment *e)
{
    float v[8];
    if (!ok(b))
        return b ? b->error.code : KF3DS_ERR_ARGUMENT;
    if (!e || (int)e->background < (int)KF3DS_BACKGROUND_NONE ||
        e->background > KF3DS_BACKGROUND_GRADIENT ||
        (int)e->atmosphere < (int)KF3DS_ATMOSPHERE_NONE ||
        e->atmosphere > KF3DS_ATMOSPHERE_DISTANCE_CUE) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_MDATA,
              "environment: none given, or a background or atmosphere kind out of range");
        return b->error.code;
    }
    v[0] = e->gradient_mid;
    v[1] = e->fog_near;
    v[2] = e->fog_far;
    v[3] = e->layer_bottom;
    v[4] = e->layer_top;
    v[5] = e->layer_density;
    v[6] = e->cue_near;
    v[7] = e->cue_far;
    if (!finite_within(b, e->solid, 3, KF3DS_CHUNK_SOLID_BGND, "environment", "solid") ||
        !finite_within(b, &e->gradient[0][0], 9, KF3DS_CHUNK_V_GRADIENT, "environment",
                       "gradient") ||
        !finite_within(b, e->fog_color, 3, KF3DS_CHUNK_FOG, "environment", "fog") ||
        !finite_within(b, e->layer_color, 3, KF3DS_CHUNK_LAYER_FOG, "environment", "layer fog") ||
        !finite_within(b, v, 8, KF3DS_CHUNK_MDATA, "environment", "distances"))
        return b->error.code;
    v[0] = e->fog_near_density;
    v[1] = e->fog_far_density;
    v[2] = e->cue_near_dim;
    v[3] = e->cue_far_dim;
    if (!kf3ds__in_range(v, 4, MAX_FRACTION)) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_FOG,
              "environment: a fog density or cue dimming is NaN, infinite or beyond 1e16");
        return b->error.code;
    }
    b->environment = *e;
    b->environment.bitmap = copy_str(b, e->bitmap);
    return b->error.code;
}

/* ---- the keyframer ----------------------------------------------------------- */

kf3ds_status kf3ds_builder_master_scale(kf3ds_builder *b, float scale)
{
    if (ok(b) && finite_within(b, &scale, 1, KF3DS_CHUNK_MASTER_SCALE, "scene", "master scale"))
        b->master_scale = scale;
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_ambient(kf3ds_builder *b, const float rgb[3])
{
    if (ok(b) && !rgb)
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_AMBIENT_LIGHT, "no ambient colour");
    if (ok(b) && finite_within(b, rgb, 3, KF3DS_CHUNK_AMBIENT_LIGHT, "scene", "ambient"))
        memcpy(b->ambient, rgb, sizeof b->ambient);
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_current_frame(kf3ds_builder *b, int32_t frame)
{
    if (ok(b))
        b->current_frame = frame;
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_keyframer(kf3ds_builder *b, const char *name, int32_t length,
                                     int32_t segment_start, int32_t segment_end)
{
    if (!ok(b))
        return b ? b->error.code : KF3DS_ERR_ARGUMENT;
    if (length < 0 || segment_start > segment_end) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_KFSEG,
              "keyframer: length %ld, segment %ld..%ld", (long)length, (long)segment_start,
              (long)segment_end);
        return b->error.code;
    }
    b->has_keyframer = 1;
    b->kf_name = copy_str(b, name);
    b->anim_length = length;
    b->segment_start = segment_start;
    b->segment_end = segment_end;
    return KF3DS_OK;
}

int32_t kf3ds_builder_add_node(kf3ds_builder *b, kf3ds_node_type type, const char *name,
                               int32_t parent)
{
    item *it;
    kf3ds_node *n;
    if (!ok(b))
        return KF3DS_NONE;
    if ((int)type < (int)KF3DS_NODE_AMBIENT || type > KF3DS_NODE_SPOT || !name) {
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_NODE_HDR, "a node needs a type and a name");
        return KF3DS_NONE;
    }
    if (parent != KF3DS_NONE && (parent < 0 || (uint32_t)parent >= b->nodes.count)) {
        /* parents come first: no cycle can be built */
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_NODE_HDR,
              "node '%s': parent %ld is not a node added before it", name, (long)parent);
        return KF3DS_NONE;
    }
    if (b->nodes.count >= NO_PARENT) {
        failv(b, KF3DS_ERR_LIMIT, KF3DS_CHUNK_NODE_ID, "more than 65534 nodes");
        return KF3DS_NONE;
    }
    it = new_item(b, &b->nodes);
    if (!it)
        return KF3DS_NONE;
    n = &it->u.n.node;
    n->type = type;
    n->name = copy_str(b, name);
    n->parent = parent;
    n->id = (int32_t)b->nodes.count - 1;
    b->has_keyframer = 1;
    return n->id;
}

static kf3ds_node *node_at(kf3ds_builder *b, int32_t node, item **out)
{
    item *it;
    if (!ok(b))
        return NULL;
    it = item_at(b, &b->nodes, node);
    if (!it)
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_NODE_HDR, "no node %ld", (long)node);
    if (out)
        *out = it;
    return it ? &it->u.n.node : NULL;
}

kf3ds_status kf3ds_builder_node_pivot(kf3ds_builder *b, int32_t node, const float pivot[3])
{
    kf3ds_node *n = node_at(b, node, NULL);
    if (n && finite_within(b, pivot, 3, KF3DS_CHUNK_PIVOT, "pivot of node", n->name))
        memcpy(n->pivot, pivot, sizeof n->pivot);
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_node_id(kf3ds_builder *b, int32_t node, uint16_t id)
{
    kf3ds_node *n = node_at(b, node, NULL);
    item *it;
    if (!n)
        return b ? b->error.code : KF3DS_ERR_ARGUMENT;
    for (it = b->nodes.first; it; it = it->next)
        if (&it->u.n.node != n && it->u.n.node.id == (int32_t)id) {
            failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_NODE_ID,
                  "node '%s': id %u is another node's", n->name, (unsigned)id);
            return b->error.code;
        }
    n->id = id;
    n->has_node_id = 1;
    return KF3DS_OK;
}

kf3ds_status kf3ds_builder_node_instance(kf3ds_builder *b, int32_t node, const char *instance)
{
    kf3ds_node *n = node_at(b, node, NULL);
    if (n)
        n->instance = instance ? copy_str(b, instance) : NULL;
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_node_flags(kf3ds_builder *b, int32_t node, uint16_t flags1,
                                      uint16_t flags2)
{
    kf3ds_node *n = node_at(b, node, NULL);
    if (n) {
        n->flags1 = flags1;
        n->flags2 = flags2;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_node_bbox(kf3ds_builder *b, int32_t node, const float min[3],
                                     const float max[3])
{
    kf3ds_node *n = node_at(b, node, NULL);
    if (n && (!min || !max))
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_BOUNDBOX, "node '%s': no bounding box", n->name);
    if (n && ok(b) && finite_within(b, min, 3, KF3DS_CHUNK_BOUNDBOX, "bounding box of node",
                                    n->name) &&
        finite_within(b, max, 3, KF3DS_CHUNK_BOUNDBOX, "bounding box of node", n->name)) {
        memcpy(n->bbox_min, min, sizeof n->bbox_min);
        memcpy(n->bbox_max, max, sizeof n->bbox_max);
        n->has_bbox = 1;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_node_prescale(kf3ds_builder *b, int32_t node, const float scale[3])
{
    kf3ds_node *n = node_at(b, node, NULL);
    if (n && !scale)
        failv(b, KF3DS_ERR_ARGUMENT, KF3DS_CHUNK_PRESCALE, "node '%s': no prescale", n->name);
    if (n && ok(b) && finite_within(b, scale, 3, KF3DS_CHUNK_PRESCALE, "prescale of node",
                                    n->name)) {
        memcpy(n->prescale, scale, sizeof n->prescale);
        n->has_prescale = 1;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_node_morph_smooth(kf3ds_builder *b, int32_t node, float degrees)
{
    kf3ds_node *n = node_at(b, node, NULL);
    if (n && finite_within(b, &degrees, 1, KF3DS_CHUNK_MORPH_SMOOTH, "morph smoothing of node",
                           n->name)) {
        n->morph_smooth = degrees;
        n->has_morph_smooth = 1;
    }
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

static staged_track *track_at(kf3ds_builder *b, int32_t node, kf3ds_track_kind kind,
                              kf3ds_node **n)
{
    item *it;
    *n = node_at(b, node, &it);
    if (!*n)
        return NULL;
    if ((int)kind < 0 || kind >= KF3DS_TRACK_COUNT) {
        failv(b, KF3DS_ERR_ARGUMENT, 0, "node '%s': no track kind %d", (*n)->name, (int)kind);
        return NULL;
    }
    return &it->u.n.tracks[kind];
}

kf3ds_status kf3ds_builder_track_flags(kf3ds_builder *b, int32_t node, kf3ds_track_kind kind,
                                       uint16_t flags)
{
    kf3ds_node *n;
    staged_track *t = track_at(b, node, kind, &n);
    if (t)
        t->flags = flags;
    return b ? b->error.code : KF3DS_ERR_ARGUMENT;
}

kf3ds_status kf3ds_builder_add_key(kf3ds_builder *b, int32_t node, kf3ds_track_kind kind,
                                   const kf3ds_key *key)
{
    kf3ds_node *n;
    staged_track *t = track_at(b, node, kind, &n);
    uint16_t chunk = (uint16_t)(KF3DS_CHUNK_POS_TRACK_TAG + kind);
    float spline[5];
    kf3ds_key *k;
    if (!t)
        return b ? b->error.code : KF3DS_ERR_ARGUMENT;
    if (!key || (kind == KF3DS_TRACK_MORPH && !key->morph_name)) {
        failv(b, KF3DS_ERR_ARGUMENT, chunk, "node '%s': no key (a morph key needs a name)",
              n->name);
        return b->error.code;
    }
    spline[0] = key->tension;
    spline[1] = key->continuity;
    spline[2] = key->bias;
    spline[3] = key->ease_to;
    spline[4] = key->ease_from;
    if (!kf3ds__in_range(spline, 5, KF3DS__MAX_SPLINE) || key->ease_to < 0.0f ||
        key->ease_from < 0.0f) {
        failv(b, KF3DS_ERR_ARGUMENT, chunk,
              "node '%s': key at frame %ld: tension, continuity and bias within +-1000, "
              "ease 0 to 1000", n->name, (long)key->frame);
        return b->error.code;
    }
    if (!finite_within(b, key->value, 4, chunk, "key value of node", n->name))
        return b->error.code;
    if (!t->last || t->last->used == t->last->cap) {
        uint32_t cap = t->last ? 2 * t->last->cap : 8;
        key_block *blk;
        if (cap > 65536)
            cap = 65536;
        blk = (key_block *)kf3ds__arena_alloc(b->arena, 1,
                                              sizeof *blk + (cap - 1) * sizeof(kf3ds_key));
        if (!blk) {
            failv(b, KF3DS_ERR_NOMEM, 0, "out of memory");
            return b->error.code;
        }
        blk->cap = cap;
        if (t->last)
            t->last->next = blk;
        else
            t->first = blk;
        t->last = blk;
    }
    k = &t->last->keys[t->last->used++];
    memset(k, 0, sizeof *k);
    k->frame = key->frame;
    k->spline_flags = key->spline_flags;
    if (key->tension != 0.0f) k->spline_flags |= KF3DS_KEY_TENSION;
    if (key->continuity != 0.0f) k->spline_flags |= KF3DS_KEY_CONTINUITY;
    if (key->bias != 0.0f) k->spline_flags |= KF3DS_KEY_BIAS;
    if (key->ease_to != 0.0f) k->spline_flags |= KF3DS_KEY_EASE_TO;
    if (key->ease_from != 0.0f) k->spline_flags |= KF3DS_KEY_EASE_FROM;
    k->tension = key->tension;
    k->continuity = key->continuity;
    k->bias = key->bias;
    k->ease_to = key->ease_to;
    k->ease_from = key->ease_from;
    memcpy(k->value, key->value, sizeof k->value);
    k->morph_name = kind == KF3DS_TRACK_MORPH ? copy_str(b, key->morph_name) : NULL;
    k->morph_mesh = KF3DS_NONE;
    t->num_keys++;
    return b->error.code;
}

/* ---- finishing ------------------------------------------------------------------- */

static void *scene_copy(kf3ds__load_ctx *ctx, const void *p, size_t n, size_t size)
{
    void *q;
    if (!p || !n)
        return NULL;
    q = kf3ds__arena_alloc_raw(ctx->arena, n, size);
    if (q)
        memcpy(q, p, n * size);
    return q;
}

static const char *scene_str(kf3ds__load_ctx *ctx, const char *s)
{
    return s ? kf3ds__arena_strdup(ctx->arena, s, strlen(s)) : NULL;
}

static void copy_editor(kf3ds__load_ctx *ctx, const kf3ds_builder *b)
{
    kf3ds_scene *s = ctx->scene;
    const item *it;
    uint32_t i, j;
    s->environment = b->environment;
    s->environment.bitmap = scene_str(ctx, b->environment.bitmap);
    for (i = 0, it = b->materials.first; it; it = it->next, i++) {
        kf3ds_material *m = &s->materials[i];
        kf3ds_texture_map *maps[8];
        *m = it->u.material;
        m->name = scene_str(ctx, m->name);
        maps[0] = &m->texture1; maps[1] = &m->texture2; maps[2] = &m->opacity;
        maps[3] = &m->bump; maps[4] = &m->specular_map; maps[5] = &m->shininess_map;
        maps[6] = &m->self_illum_map; maps[7] = &m->reflection;
        for (j = 0; j < 8; j++)
            maps[j]->file = scene_str(ctx, maps[j]->file);
    }
    for (i = 0, it = b->meshes.first; it; it = it->next, i++) {
        const kf3ds_mesh *src = &it->u.mesh;
        kf3ds_mesh *m = &s->meshes[i];
        *m = *src;
        m->name = scene_str(ctx, src->name);
        m->points = (float(*)[3])scene_copy(ctx, src->points, src->num_points, sizeof *src->points);
        m->faces = (kf3ds_face *)scene_copy(ctx, src->faces, src->num_faces, sizeof *src->faces);
        m->texcoords = (float(*)[2])scene_copy(ctx, src->texcoords, src->num_texcoords,
                                               sizeof *src->texcoords);
        m->point_flags = (uint16_t *)scene_copy(ctx, src->point_flags, src->num_point_flags, 2);
        m->smoothing = (uint32_t *)scene_copy(ctx, src->smoothing, src->num_faces, 4);
        m->groups = (kf3ds_material_group *)scene_copy(ctx, src->groups, src->num_groups,
                                                       sizeof *src->groups);
        for (j = 0; m->groups && j < m->num_groups; j++) {
            m->groups[j].material_name = scene_str(ctx, src->groups[j].material_name);
            m->groups[j].faces = (uint16_t *)scene_copy(ctx, src->groups[j].faces,
                                                        src->groups[j].num_faces, 2);
        }
    }
    for (i = 0, it = b->cameras.first; it; it = it->next, i++) {
        s->cameras[i] = it->u.camera;
        s->cameras[i].name = scene_str(ctx, it->u.camera.name);
    }
    for (i = 0, it = b->lights.first; it; it = it->next, i++) {
        s->lights[i] = it->u.light;
        s->lights[i].name = scene_str(ctx, it->u.light.name);
    }
}

static void copy_keyframer(kf3ds__load_ctx *ctx, const kf3ds_builder *b)
{
    kf3ds_scene *s = ctx->scene;
    const item *it;
    uint32_t i, k;
    s->has_keyframer = (uint8_t)b->has_keyframer;
    s->kf_revision = 5;
    s->kf_filename = scene_str(ctx, b->kf_name ? b->kf_name : "");
    s->anim_length = b->anim_length;
    s->segment_start = b->segment_start;
    s->segment_end = b->segment_end;
    s->current_frame = b->current_frame;
    for (i = 0, it = b->nodes.first; it; it = it->next, i++) {
        kf3ds_node *n = &s->nodes[i];
        *n = it->u.n.node;
        n->name = scene_str(ctx, n->name);
        n->instance = scene_str(ctx, n->instance);
        n->is_dummy = strcmp(n->name, "$$$DUMMY") == 0;
        n->mesh = n->camera = n->light = n->target = KF3DS_NONE;
        /* the parent as the file says it, resolved by the loader's own step */
        n->parent_raw = n->parent == KF3DS_NONE ? NO_PARENT
                                                : (uint16_t)s->nodes[n->parent].id;
        n->parent = KF3DS_NONE;
        for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
            const staged_track *st = &it->u.n.tracks[k];
            kf3ds_track *t = &n->tracks[k];
            const key_block *blk;
            uint32_t at = 0;
            memset(t, 0, sizeof *t);
            t->flags = st->flags;
            if (!st->num_keys)
                continue;
            t->keys = (kf3ds_key *)kf3ds__arena_alloc(ctx->arena, st->num_keys, sizeof *t->keys);
            for (blk = st->first; t->keys && blk; blk = blk->next) {
                memcpy(t->keys + at, blk->keys, blk->used * sizeof *t->keys);
                at += blk->used;
            }
            for (at = 0; t->keys && at < st->num_keys; at++)
                t->keys[at].morph_name = scene_str(ctx, t->keys[at].morph_name);
            t->num_keys = t->keys ? st->num_keys : 0;
            kf3ds__track_setup(ctx, t, (kf3ds_track_kind)k, i, 0,
                               (uint16_t)(KF3DS_CHUNK_POS_TRACK_TAG + k));
        }
    }
}

kf3ds_scene *kf3ds_builder_finish(kf3ds_builder *b, kf3ds_diag *error)
{
    kf3ds__load_ctx ctx;
    kf3ds_scene *s;
    kf3ds__scene_internal *internal;
    unsigned char *nodes;
    if (error)
        memset(error, 0, sizeof *error);
    if (!b) {
        set_error(error, KF3DS_ERR_ARGUMENT, "no builder");
        return NULL;
    }
    if (b->error.code != KF3DS_OK) {
        if (error)
            *error = b->error;
        kf3ds_builder_free(b);
        return NULL;
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.rotations = kf3ds__rotation_setup_pick();
    ctx.pass = KF3DS__PASS_FILL;
    ctx.limits.max_nodes = 0xFFFF;
    ctx.limits.max_keys = 0xFFFFFFFFu;
    ctx.limits.max_diags = 1000;
    ctx.arena = kf3ds__arena_create(&b->allocator, 0);
    s = ctx.arena ? (kf3ds_scene *)kf3ds__arena_alloc(ctx.arena, 1, sizeof *s) : NULL;
    internal = s ? (kf3ds__scene_internal *)kf3ds__arena_alloc(ctx.arena, 1, sizeof *internal)
                 : NULL;
    ctx.source = internal ? (kf3ds__source *)kf3ds__arena_alloc(ctx.arena, 1, sizeof *ctx.source)
                          : NULL;
    if (!ctx.source) {
        kf3ds__arena_destroy(ctx.arena);
        kf3ds_builder_free(b);
        set_error(error, KF3DS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    ctx.scene = s;
    internal->arena = ctx.arena;
    s->internal_ = internal;
    s->source_ = ctx.source;
    s->version = 3;
    s->mesh_version = 3;
    s->master_scale = b->master_scale;
    memcpy(s->ambient, b->ambient, sizeof s->ambient);
    s->num_materials = ctx.cap_materials = b->materials.count;
    s->num_meshes = ctx.cap_meshes = b->meshes.count;
    s->num_cameras = ctx.cap_cameras = b->cameras.count;
    s->num_lights = ctx.cap_lights = b->lights.count;
    s->num_nodes = ctx.cap_nodes = b->nodes.count;
    s->materials = (kf3ds_material *)kf3ds__arena_alloc(ctx.arena, s->num_materials,
                                                        sizeof *s->materials);
    s->meshes = (kf3ds_mesh *)kf3ds__arena_alloc(ctx.arena, s->num_meshes, sizeof *s->meshes);
    s->cameras = (kf3ds_camera *)kf3ds__arena_alloc(ctx.arena, s->num_cameras,
                                                    sizeof *s->cameras);
    s->lights = (kf3ds_light *)kf3ds__arena_alloc(ctx.arena, s->num_lights, sizeof *s->lights);
    /* nodes on a 64-byte line, as loading places them */
    nodes = (unsigned char *)kf3ds__arena_alloc(ctx.arena, (size_t)s->num_nodes + 1,
                                                sizeof(kf3ds_node));
    s->nodes = nodes ? (kf3ds_node *)(nodes + (64 - (uintptr_t)nodes % 64) % 64) : NULL;
    if (!kf3ds__arena_failed(ctx.arena)) {
        copy_editor(&ctx, b);
        copy_keyframer(&ctx, b);
        kf3ds__finish_editor(&ctx);
        kf3ds__finish_keyframer(&ctx);
        kf3ds__plan_build(&ctx); /* as a load ends: the scene evaluates as a loaded one */
    }
    kf3ds_builder_free(b);
    if (kf3ds__arena_failed(ctx.arena)) {
        kf3ds_scene_free(s);
        set_error(error, KF3DS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return s;
}
