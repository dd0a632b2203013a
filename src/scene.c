/* Queries on a loaded scene: names, lookups, which mesh a node shows, and
 * the box to frame. Read-only, no allocation. */
#include "kf3ds.h"
#include "geometry.h"
#include <string.h>

const char *kf3ds_node_type_name(kf3ds_node_type type)
{
    static const char *const names[] = { "ambient", "object", "camera", "target",
                                         "light", "ltarget", "spot" };
    return (unsigned)type < 7 ? names[type] : "?";
}

const kf3ds_texture_map *kf3ds_material_map(const kf3ds_material *m, kf3ds_map_kind kind)
{
    if (!m)
        return NULL;
    switch (kind) {
    case KF3DS_MAP_TEXTURE1: return &m->texture1;
    case KF3DS_MAP_TEXTURE2: return &m->texture2;
    case KF3DS_MAP_OPACITY: return &m->opacity;
    case KF3DS_MAP_BUMP: return &m->bump;
    case KF3DS_MAP_SPECULAR: return &m->specular_map;
    case KF3DS_MAP_SHININESS: return &m->shininess_map;
    case KF3DS_MAP_SELF_ILLUM: return &m->self_illum_map;
    case KF3DS_MAP_REFLECTION: return &m->reflection;
    default: return NULL;
    }
}

const char *kf3ds_map_kind_name(kf3ds_map_kind kind)
{
    static const char *const names[KF3DS_MAP_COUNT] = {
        "texture1", "texture2", "opacity", "bump", "specular", "shininess", "self_illum",
        "reflection"
    };
    return (unsigned)kind < KF3DS_MAP_COUNT ? names[kind] : "?";
}

int32_t kf3ds_scene_find_node(const kf3ds_scene *scene, const char *name)
{
    uint32_t i;
    if (!scene || !name)
        return KF3DS_NONE;
    for (i = 0; i < scene->num_nodes; i++)
        if (strcmp(scene->nodes[i].name, name) == 0)
            return (int32_t)i;
    return KF3DS_NONE;
}

int32_t kf3ds_scene_find_mesh(const kf3ds_scene *scene, const char *name)
{
    uint32_t i;
    if (!scene || !name)
        return KF3DS_NONE;
    for (i = 0; i < scene->num_meshes; i++)
        if (strcmp(scene->meshes[i].name, name) == 0)
            return (int32_t)i;
    return KF3DS_NONE;
}

int kf3ds_scene_places_meshes(const kf3ds_scene *scene)
{
    uint32_t i;
    for (i = 0; scene && scene->nodes && i < scene->num_nodes; i++) {
        const kf3ds_node *n = &scene->nodes[i];
        if (n->type == KF3DS_NODE_OBJECT && n->mesh >= 0 && (uint32_t)n->mesh < scene->num_meshes)
            return 1;
    }
    return 0;
}

int32_t kf3ds_node_pose_mesh(const kf3ds_scene *scene, uint32_t node, const kf3ds_pose *pose)
{
    int32_t m;
    if (!scene || node >= scene->num_nodes)
        return KF3DS_NONE;
    m = scene->nodes[node].mesh;
    if (m < 0 || (uint32_t)m >= scene->num_meshes)
        return KF3DS_NONE;
    if (pose && pose->morph_mesh >= 0 && (uint32_t)pose->morph_mesh < scene->num_meshes)
        m = pose->morph_mesh;
    return m;
}

void kf3ds_mesh_editor_matrix(const kf3ds_mesh *mesh, kf3ds_mat4 *out)
{
    /* The loader mirrored the points of a mirrored mesh (docs/evaluation.md,
     * "Mesh placement"); M·S(−1,1,1)·M⁻¹ puts them back where the editor
     * showed them. */
    if (mesh && mesh->mirrored) {
        kf3ds_mat4 t = mesh->matrix;
        int i;
        for (i = 0; i < 3; i++)
            t.m[i][0] = -t.m[i][0];
        kf3ds_mat4_mul(&t, &mesh->inv_matrix, out);
    } else {
        kf3ds_mat4_identity(out);
    }
}

int kf3ds_scene_bounds(const kf3ds_scene *s, const kf3ds_pose *poses, float min[3], float max[3])
{
    uint32_t i, v;
    int any = 0, node_mode;
    float mn[3], mx[3];
    if (!s)
        return 0;
    kf3ds__box_empty(mn, mx);
    node_mode = kf3ds_scene_places_meshes(s);
    if (node_mode && poses) {
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            kf3ds_mat4 P;
            float w[3];
            int32_t mi;
            if (n->type != KF3DS_NODE_OBJECT)
                continue;
            kf3ds__pose_position(&poses[i], w);
            any |= kf3ds__box_grow(mn, mx, w);
            if (poses[i].hidden)
                continue;
            mi = kf3ds_node_pose_mesh(s, i, &poses[i]);
            if (mi < 0 || !s->meshes[mi].points || !kf3ds_node_mesh_matrix(s, i, &poses[i], &P))
                continue;
            for (v = 0; v < s->meshes[mi].num_points; v++) {
                kf3ds_mat4_transform_point(&P, s->meshes[mi].points[v], w);
                any |= kf3ds__box_grow(mn, mx, w);
            }
        }
    } else if (!node_mode) {
        for (i = 0; i < s->num_meshes; i++) {
            const kf3ds_mesh *m = &s->meshes[i];
            kf3ds_mat4 P;
            if (m->hidden || !m->points)
                continue;
            kf3ds_mesh_editor_matrix(m, &P);
            for (v = 0; v < m->num_points; v++) {
                float w[3];
                kf3ds_mat4_transform_point(&P, m->points[v], w);
                any |= kf3ds__box_grow(mn, mx, w);
            }
        }
    }
    /* Cameras, lights and targets only when there is nothing else: they often
     * stand far off, and framing them would shrink the objects to a dot. */
    if (!any && poses)
        any |= kf3ds__box_grow_nodes(s, poses, mn, mx);
    if (!any)
        return 0;
    if (min)
        memcpy(min, mn, sizeof mn);
    if (max)
        memcpy(max, mx, sizeof mx);
    return 1;
}
