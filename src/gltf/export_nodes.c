/* kf3ds export: the node graph (docs/gltf.md, "Nodes", "Cameras and
 * lights"). A root node turns 3DS's Z-up into glTF's Y-up; under it one glTF
 * node per keyframer node, in the 3DS hierarchy, with the node's own
 * position, rotation and scale; meshes in the node's space; cameras and
 * spotlights on a child node that carries the look-at rotation. The node
 * list itself is export_graph.c's. */
#include "export_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The glTF aspect ratio of cameras: kf3ds render's default picture, 640×480. */
#define CAMERA_ASPECT (4.0 / 3.0)

/* The static value of a property onto its node or object. */
static void static_value(export_ctx *c, ex_prop_kind kind, uint32_t gnode, uint32_t node,
                         int32_t mesh, float out[4])
{
    ex_prop p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    p.gnode = gnode;
    p.node = node;
    p.mesh = mesh;
    p.target = -1;
    export_prop_value(c, &p, c->first, out);
}

/* T(−pivot)·M⁻¹ of an object node: where its mesh vertices go in its space. */
static void node_place(const kf3ds_scene *s, const kf3ds_node *n, kf3ds_mat4 *out)
{
    int r;
    *out = s->meshes[n->mesh].inv_matrix;
    for (r = 0; r < 3; r++)
        out->m[r][3] -= n->pivot[r];
}

/* The meshes an object node can show over the export: its own and, when
 * animating, every morph target (at the static frame only the one shown). */
static uint32_t shown_meshes(const export_ctx *c, uint32_t i, int32_t *list, uint32_t cap)
{
    const kf3ds_node *n = &c->s->nodes[i];
    const kf3ds_track *morph = &n->tracks[KF3DS_TRACK_MORPH];
    uint32_t k, j, count = 0;
    if (!c->animate) {
        list[0] = kf3ds_node_pose_mesh(c->s, i, &c->poses[i]);
        return 1;
    }
    list[count++] = n->mesh;
    for (k = 0; k < morph->num_keys && count < cap; k++) {
        int32_t m = morph->keys[k].morph_mesh;
        if (m < 0 || (uint32_t)m >= c->s->num_meshes)
            continue;
        for (j = 0; j < count && list[j] != m; j++)
            ;
        if (j == count)
            list[count++] = m;
    }
    return count;
}

#define MAX_MORPH_MESHES 256

static void attach_object(export_ctx *c, uint32_t i, uint32_t g, int has_children)
{
    const kf3ds_node *n = &c->s->nodes[i];
    int32_t list[MAX_MORPH_MESHES];
    uint32_t count, k;
    kf3ds_mat4 place;
    int may_hide, ext = c->o->visibility_ext;
    float v[4];

    export_add_prop(c, EX_TRANSLATION, g, i, -1, -1);
    export_add_prop(c, EX_ROTATION, g, i, -1, -1);
    if (n->mesh < 0 || (uint32_t)n->mesh >= c->s->num_meshes) {
        export_add_prop(c, EX_SCALE, g, i, -1, -1);
        return;
    }
    node_place(c->s, n, &place);
    count = shown_meshes(c, i, list, MAX_MORPH_MESHES);
    may_hide = export_node_may_hide(c, i);
    if (count == 1 && !(may_hide && has_children)) {
        /* The mesh on the node itself; hiding is its scale (or visibility). */
        c->nodes[g].mesh = export_mesh(c, list[0], &place, n->mesh, n->pivot);
        export_add_prop(c, EX_SCALE, g, i, -1, -1);
        if (may_hide && ext) {
            static_value(c, EX_SHOWN_EXT, g, i, -1, v);
            c->nodes[g].visible = v[0] != 0.0f;
            export_add_prop(c, EX_SHOWN_EXT, g, i, -1, -1);
            c->used_visibility = 1;
        } else if (may_hide && c->num_props) {
            c->props[c->num_props - 1].merge_visibility = 1;
        }
        if (may_hide && !ext) {
            static_value(c, EX_SHOWN_SCALE, g, i, -1, v);
            for (k = 0; k < 3; k++)
                c->nodes[g].s[k] *= v[0];
        }
        return;
    }
    /* Several meshes, or hiding that must not reach the children: one
     * child node per mesh, shown while the node shows that mesh. */
    export_add_prop(c, EX_SCALE, g, i, -1, -1);
    for (k = 0; k < count; k++) {
        uint32_t h = export_add_node(c, c->s->meshes[list[k]].name, (int32_t)g);
        c->nodes[h].mesh = export_mesh(c, list[k], &place, n->mesh, n->pivot);
        static_value(c, ext ? EX_SHOWN_EXT : EX_SHOWN_SCALE, h, i, list[k], v);
        if (ext) {
            c->nodes[h].visible = v[0] != 0.0f;
            c->used_visibility = 1;
        } else {
            c->nodes[h].s[0] = c->nodes[h].s[1] = c->nodes[h].s[2] = v[0];
        }
        export_add_prop(c, ext ? EX_SHOWN_EXT : EX_SHOWN_SCALE, h, i, list[k], -1);
    }
}

static void attach_camera(export_ctx *c, uint32_t i, uint32_t g)
{
    uint32_t aim = export_add_node(c, c->s->nodes[i].name, (int32_t)g);
    int32_t cam = (int32_t)c->cameras.count;
    float v[4];
    double znear = c->extent > 0.0f ? c->extent * 1e-4 : 0.01;
    const kf3ds_node *n = &c->s->nodes[i];
    if (n->camera >= 0 && (uint32_t)n->camera < c->s->num_cameras) {
        float nr = c->s->cameras[n->camera].near_range;
        if (nr > 0.0f && nr < 1e30f)
            znear = nr;
    }
    static_value(c, EX_YFOV, aim, i, -1, v);
    gltf_obj(&c->cameras, NULL);
    gltf_str(&c->cameras, "name", n->name);
    gltf_str(&c->cameras, "type", "perspective");
    gltf_obj(&c->cameras, "perspective");
    gltf_num(&c->cameras, "aspectRatio", CAMERA_ASPECT);
    gltf_num(&c->cameras, "yfov", v[0]);
    gltf_num(&c->cameras, "znear", znear);
    gltf_end(&c->cameras);
    gltf_end(&c->cameras);
    c->nodes[aim].camera = cam;
    static_value(c, EX_AIM, aim, i, -1, c->nodes[aim].r);
    export_add_prop(c, EX_AIM, aim, i, -1, -1);
    export_add_prop(c, EX_YFOV, aim, i, -1, cam);
}

static void attach_light(export_ctx *c, uint32_t i, uint32_t g)
{
    const kf3ds_node *n = &c->s->nodes[i];
    int spot = n->type == KF3DS_NODE_SPOT;
    int32_t light = (int32_t)c->lights.count;
    uint32_t holder = g;
    const kf3ds_light *l =
        n->light >= 0 && (uint32_t)n->light < c->s->num_lights ? &c->s->lights[n->light] : NULL;
    float v[4];
    double intensity = l ? (l->off ? 0.0 : export_clamp(l->multiplier, 0.0, 1e30)) : 1.0;
    if (spot)
        holder = export_add_node(c, n->name, (int32_t)g);
    gltf_obj(&c->lights, NULL);
    gltf_str(&c->lights, "name", n->name);
    gltf_str(&c->lights, "type", spot ? "spot" : "point");
    static_value(c, EX_LIGHT_COLOR, holder, i, -1, v);
    gltf_nums(&c->lights, "color", v, 3);
    gltf_num(&c->lights, "intensity", intensity);
    if (l && l->attenuate && l->outer_range > 0.0f && l->outer_range < 1e30f)
        gltf_num(&c->lights, "range", l->outer_range);
    if (spot) {
        gltf_obj(&c->lights, "spot");
        static_value(c, EX_SPOT_INNER, holder, i, -1, v);
        gltf_num(&c->lights, "innerConeAngle", v[0]);
        static_value(c, EX_SPOT_OUTER, holder, i, -1, v);
        gltf_num(&c->lights, "outerConeAngle", v[0]);
        gltf_end(&c->lights);
    }
    gltf_end(&c->lights);
    c->nodes[holder].light = light;
    c->used_lights = 1;
    export_add_prop(c, EX_LIGHT_COLOR, holder, i, -1, light);
    if (spot) {
        static_value(c, EX_AIM, holder, i, -1, c->nodes[holder].r);
        export_add_prop(c, EX_AIM, holder, i, -1, -1);
        export_add_prop(c, EX_SPOT_INNER, holder, i, -1, light);
        export_add_prop(c, EX_SPOT_OUTER, holder, i, -1, light);
    }
}

/* The name a node goes by: its instance name when it has one (instances of
 * one mesh share the node name), else its NODE_HDR name. */
static const char *node_name(const kf3ds_node *n)
{
    return n->instance && n->instance[0] ? n->instance : n->name;
}

/* Files whose nodes place no mesh: every mesh not hidden, where the editor
 * had it. */
static void attach_editor_meshes(export_ctx *c, uint32_t root)
{
    static const float no_pivot[3] = { 0.0f, 0.0f, 0.0f };
    uint32_t m;
    for (m = 0; m < c->s->num_meshes; m++) {
        kf3ds_mat4 place;
        int32_t gm;
        if (c->s->meshes[m].hidden)
            continue;
        kf3ds_mesh_editor_matrix(&c->s->meshes[m], &place);
        gm = export_mesh(c, (int32_t)m, &place, -1, no_pivot);
        if (gm >= 0) {
            uint32_t g = export_add_node(c, c->s->meshes[m].name, (int32_t)root);
            c->nodes[g].mesh = gm;
        }
    }
}

int export_nodes(export_ctx *c)
{
    const kf3ds_scene *s = c->s;
    uint32_t i, root, *children = NULL;
    float mn[3], mx[3];

    root = export_add_node(c, "kf3ds Z-up to Y-up", -1);
    if (c->oom)
        return -1; /* no node array at all */
    c->nodes[root].r[0] = -0.70710678f; /* −90° about x: 3DS +Z becomes glTF +Y */
    c->nodes[root].r[3] = 0.70710678f;
    kf3ds_scene_eval(s, c->first, c->flags, c->poses);
    if (kf3ds_scene_bounds(s, c->poses, mn, mx))
        c->extent = (float)sqrt((double)(mx[0] - mn[0]) * (mx[0] - mn[0]) +
                                (double)(mx[1] - mn[1]) * (mx[1] - mn[1]) +
                                (double)(mx[2] - mn[2]) * (mx[2] - mn[2]));
    if (!(c->extent < 1e30f))
        c->extent = 0.0f;
    c->node_gltf = EX_CALLOC(c, (size_t)s->num_nodes + 1, sizeof *c->node_gltf);
    children = EX_CALLOC(c, (size_t)s->num_nodes + 1, sizeof *children);
    if (!c->node_gltf || !children) {
        EX_FREE(c, children);
        c->oom = 1;
        return -1;
    }
    for (i = 0; i < s->num_nodes; i++) {
        const kf3ds_node *n = &s->nodes[i];
        uint32_t g = export_add_node(c, node_name(n), (int32_t)root);
        c->node_gltf[i] = g;
        c->nodes[g].kf3ds_index = (int32_t)i;
        if (n->type != KF3DS_NODE_AMBIENT && n->parent >= 0 && (uint32_t)n->parent < s->num_nodes)
            children[n->parent]++;
    }
    for (i = 0; i < s->num_nodes && !c->oom; i++) {
        const kf3ds_node *n = &s->nodes[i];
        uint32_t g = c->node_gltf[i];
        const kf3ds_pose *p = &c->poses[i];
        if (n->type == KF3DS_NODE_AMBIENT)
            continue; /* the identity, whatever its parent */
        if (n->parent >= 0 && (uint32_t)n->parent < s->num_nodes)
            c->nodes[g].parent = (int32_t)c->node_gltf[n->parent];
        memcpy(c->nodes[g].t, p->position, sizeof c->nodes[g].t);
        if (n->type == KF3DS_NODE_OBJECT) {
            memcpy(c->nodes[g].r, p->rotation, sizeof c->nodes[g].r);
            export_quat_normalize(c->nodes[g].r);
            memcpy(c->nodes[g].s, p->scale, sizeof c->nodes[g].s);
            attach_object(c, i, g, children[i] != 0);
        } else {
            export_add_prop(c, EX_TRANSLATION, g, i, -1, -1);
            if (n->type == KF3DS_NODE_CAMERA)
                attach_camera(c, i, g);
            else if (n->type == KF3DS_NODE_LIGHT || n->type == KF3DS_NODE_SPOT)
                attach_light(c, i, g);
        }
    }
    EX_FREE(c, children);
    if (!kf3ds_scene_places_meshes(s))
        attach_editor_meshes(c, root);
    if (s->num_nodes == 0) /* nothing else places them (export_editor.c) */
        export_editor_cameras_lights(c, root);
    return c->oom ? -1 : 0;
}

static int is_identity_quat(const float r[4])
{
    return r[0] == 0.0f && r[1] == 0.0f && r[2] == 0.0f && r[3] == 1.0f;
}

void export_write_nodes(export_ctx *c, gltf_json *doc)
{
    uint32_t i, *start = EX_CALLOC(c, (size_t)c->num_nodes + 1, sizeof *start);
    uint32_t *list = EX_CALLOC(c, (size_t)c->num_nodes + 1, sizeof *list);
    if (!start || !list) {
        EX_FREE(c, start);
        EX_FREE(c, list);
        c->oom = 1;
        return;
    }
    /* Children lists in node order (a counting sort on the parent). */
    for (i = 0; i < c->num_nodes; i++)
        if (c->nodes[i].parent >= 0)
            start[c->nodes[i].parent + 1]++;
    for (i = 0; i < c->num_nodes; i++)
        start[i + 1] += start[i];
    for (i = 0; i < c->num_nodes; i++)
        if (c->nodes[i].parent >= 0)
            list[start[c->nodes[i].parent]++] = i;
    for (i = c->num_nodes; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;

    gltf_arr(doc, "nodes");
    for (i = 0; i < c->num_nodes; i++) {
        const ex_node *g = &c->nodes[i];
        uint32_t k;
        gltf_obj(doc, NULL);
        gltf_str(doc, "name", g->name);
        if (start[i + 1] > start[i]) {
            gltf_arr(doc, "children");
            for (k = start[i]; k < start[i + 1]; k++)
                gltf_int(doc, NULL, (long)list[k]);
            gltf_end(doc);
        }
        if (g->t[0] != 0.0f || g->t[1] != 0.0f || g->t[2] != 0.0f)
            gltf_nums(doc, "translation", g->t, 3);
        if (!is_identity_quat(g->r))
            gltf_nums(doc, "rotation", g->r, 4);
        if (g->s[0] != 1.0f || g->s[1] != 1.0f || g->s[2] != 1.0f)
            gltf_nums(doc, "scale", g->s, 3);
        if (g->mesh >= 0)
            gltf_int(doc, "mesh", g->mesh);
        if (g->camera >= 0)
            gltf_int(doc, "camera", g->camera);
        if (g->light >= 0 || g->visible >= 0) {
            gltf_obj(doc, "extensions");
            if (g->light >= 0) {
                gltf_obj(doc, "KHR_lights_punctual");
                gltf_int(doc, "light", g->light);
                gltf_end(doc);
            }
            if (g->visible >= 0) {
                gltf_obj(doc, "KHR_node_visibility");
                gltf_bool(doc, "visible", g->visible);
                gltf_end(doc);
            }
            gltf_end(doc);
        }
        if (g->kf3ds_index >= 0) {
            gltf_obj(doc, "extras");
            gltf_int(doc, "kf3ds_index", g->kf3ds_index);
            gltf_end(doc);
        }
        gltf_end(doc);
    }
    gltf_end(doc);
    EX_FREE(c, start);
    EX_FREE(c, list);
}
