/* Comparing two scenes field by field (support.h): what the round-trip tests
 * and the save fuzz target check. Floats are compared bit for bit. No cmocka
 * here: fuzz/fuzz_save links this file. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cmp {
    char *what;
    size_t cap;
    int differs;
} cmp;

static void differ(cmp *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void differ(cmp *c, const char *fmt, ...)
{
    va_list ap;
    if (c->differs++)
        return;
    va_start(ap, fmt);
    if (c->what && c->cap)
        vsnprintf(c->what, c->cap, fmt, ap);
    va_end(ap);
}

static int same_floats(const float *a, const float *b, size_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof(float)) == 0;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

#define FIELD(c, a, b, f, label)                                                      \
    do {                                                                              \
        if ((a)->f != (b)->f)                                                         \
            differ(c, "%s: %s %.17g vs %.17g", label, #f, (double)(a)->f, (double)(b)->f); \
    } while (0)
#define FLOATS(c, a, b, f, n, label)                                  \
    do {                                                              \
        if (!same_floats((const float *)(a)->f, (const float *)(b)->f, n)) \
            differ(c, "%s: %s differs", label, #f);                   \
    } while (0)
#define FLOAT1(c, a, b, f, label)                                     \
    do {                                                              \
        if (!same_floats(&(a)->f, &(b)->f, 1))                        \
            differ(c, "%s: %s %.9g vs %.9g", label, #f, (double)(a)->f, (double)(b)->f); \
    } while (0)
#define STR(c, a, b, f, label)                                                        \
    do {                                                                              \
        if (!same_str((a)->f, (b)->f))                                                \
            differ(c, "%s: %s '%s' vs '%s'", label, #f, (a)->f ? (a)->f : "(null)",  \
                   (b)->f ? (b)->f : "(null)");                                       \
    } while (0)

static void compare_map(cmp *c, const kf3ds_texture_map *a, const kf3ds_texture_map *b,
                        const char *label)
{
    STR(c, a, b, file, label);
    FIELD(c, a, b, strength, label);
    FIELD(c, a, b, tiling, label);
    FIELD(c, a, b, blur, label);
    FIELD(c, a, b, u_scale, label);
    FIELD(c, a, b, v_scale, label);
    FIELD(c, a, b, u_offset, label);
    FIELD(c, a, b, v_offset, label);
    FIELD(c, a, b, rotation, label);
}

static void compare_environment(cmp *c, const kf3ds_environment *a, const kf3ds_environment *b)
{
    const char *label = "environment";
    FIELD(c, a, b, background, label);
    FIELD(c, a, b, atmosphere, label);
    STR(c, a, b, bitmap, label);
    FLOATS(c, a, b, solid, 3, label);
    FLOAT1(c, a, b, gradient_mid, label);
    FLOATS(c, a, b, gradient, 9, label);
    FLOAT1(c, a, b, fog_near, label);
    FLOAT1(c, a, b, fog_near_density, label);
    FLOAT1(c, a, b, fog_far, label);
    FLOAT1(c, a, b, fog_far_density, label);
    FLOATS(c, a, b, fog_color, 3, label);
    FIELD(c, a, b, fog_background, label);
    FLOAT1(c, a, b, layer_bottom, label);
    FLOAT1(c, a, b, layer_top, label);
    FLOAT1(c, a, b, layer_density, label);
    FIELD(c, a, b, layer_flags, label);
    FLOATS(c, a, b, layer_color, 3, label);
    FLOAT1(c, a, b, cue_near, label);
    FLOAT1(c, a, b, cue_near_dim, label);
    FLOAT1(c, a, b, cue_far, label);
    FLOAT1(c, a, b, cue_far_dim, label);
    FIELD(c, a, b, cue_background, label);
}

static void compare_material(cmp *c, const kf3ds_material *a, const kf3ds_material *b,
                             const char *label)
{
    STR(c, a, b, name, label);
    FLOATS(c, a, b, ambient, 3, label);
    FLOATS(c, a, b, diffuse, 3, label);
    FLOATS(c, a, b, specular, 3, label);
    FIELD(c, a, b, shininess, label);
    FIELD(c, a, b, shin_strength, label);
    FIELD(c, a, b, transparency, label);
    FIELD(c, a, b, self_illum, label);
    FIELD(c, a, b, wire_size, label);
    FIELD(c, a, b, shading, label);
    FIELD(c, a, b, two_sided, label);
    FIELD(c, a, b, additive, label);
    FIELD(c, a, b, wire, label);
    FIELD(c, a, b, decal, label);
    FIELD(c, a, b, face_map, label);
    FIELD(c, a, b, soften, label);
    FIELD(c, a, b, self_illum_flag, label);
    compare_map(c, &a->texture1, &b->texture1, label);
    compare_map(c, &a->texture2, &b->texture2, label);
    compare_map(c, &a->opacity, &b->opacity, label);
    compare_map(c, &a->bump, &b->bump, label);
    compare_map(c, &a->specular_map, &b->specular_map, label);
    compare_map(c, &a->shininess_map, &b->shininess_map, label);
    compare_map(c, &a->self_illum_map, &b->self_illum_map, label);
    compare_map(c, &a->reflection, &b->reflection, label);
}

static void compare_mesh(cmp *c, const kf3ds_mesh *a, const kf3ds_mesh *b, const char *label)
{
    uint32_t i;
    STR(c, a, b, name, label);
    FIELD(c, a, b, num_points, label);
    FIELD(c, a, b, num_point_flags, label);
    FIELD(c, a, b, num_texcoords, label);
    FIELD(c, a, b, num_faces, label);
    FIELD(c, a, b, num_groups, label);
    FIELD(c, a, b, mirrored, label);
    FIELD(c, a, b, has_matrix, label);
    FIELD(c, a, b, hidden, label);
    FIELD(c, a, b, color, label);
    if (c->differs)
        return;
    if (a->num_points && !same_floats(&a->points[0][0], &b->points[0][0], 3 * (size_t)a->num_points))
        differ(c, "%s: points differ", label);
    if (a->num_point_flags &&
        memcmp(a->point_flags, b->point_flags, a->num_point_flags * sizeof(uint16_t)) != 0)
        differ(c, "%s: point flags differ", label);
    if (a->num_texcoords &&
        !same_floats(&a->texcoords[0][0], &b->texcoords[0][0], 2 * (size_t)a->num_texcoords))
        differ(c, "%s: texture coordinates differ", label);
    if (a->num_faces && memcmp(a->faces, b->faces, a->num_faces * sizeof(kf3ds_face)) != 0)
        differ(c, "%s: faces differ", label);
    for (i = 0; i < a->num_faces; i++)
        if (kf3ds_face_smoothing(a, i) != kf3ds_face_smoothing(b, i) ||
            kf3ds_face_material(a, i) != kf3ds_face_material(b, i)) {
            differ(c, "%s: face %lu smoothing or material differs", label, (unsigned long)i);
            break;
        }
    for (i = 0; i < a->num_groups; i++) {
        const kf3ds_material_group *ga = &a->groups[i], *gb = &b->groups[i];
        if (!same_str(ga->material_name, gb->material_name) || ga->material != gb->material ||
            ga->num_faces != gb->num_faces ||
            (ga->num_faces && memcmp(ga->faces, gb->faces, ga->num_faces * 2) != 0))
            differ(c, "%s: material group %lu differs", label, (unsigned long)i);
    }
    FLOATS(c, a, b, matrix.m, 16, label);
    FLOATS(c, a, b, inv_matrix.m, 16, label);
}

static void compare_camera(cmp *c, const kf3ds_camera *a, const kf3ds_camera *b,
                           const char *label)
{
    STR(c, a, b, name, label);
    FLOATS(c, a, b, position, 3, label);
    FLOATS(c, a, b, target, 3, label);
    FIELD(c, a, b, roll, label);
    FIELD(c, a, b, lens, label);
    FIELD(c, a, b, fov, label);
    FIELD(c, a, b, near_range, label);
    FIELD(c, a, b, far_range, label);
    FIELD(c, a, b, see_cone, label);
    FIELD(c, a, b, hidden, label);
}

static void compare_light(cmp *c, const kf3ds_light *a, const kf3ds_light *b, const char *label)
{
    STR(c, a, b, name, label);
    FLOATS(c, a, b, position, 3, label);
    FLOATS(c, a, b, color, 3, label);
    FIELD(c, a, b, off, label);
    FIELD(c, a, b, spot, label);
    FIELD(c, a, b, hidden, label);
    FIELD(c, a, b, attenuate, label);
    FIELD(c, a, b, shadowed, label);
    FIELD(c, a, b, see_cone, label);
    FIELD(c, a, b, rectangular, label);
    FIELD(c, a, b, overshoot, label);
    FIELD(c, a, b, inner_range, label);
    FIELD(c, a, b, outer_range, label);
    FIELD(c, a, b, multiplier, label);
    FLOATS(c, a, b, target, 3, label);
    FIELD(c, a, b, hotspot, label);
    FIELD(c, a, b, falloff, label);
    FIELD(c, a, b, roll, label);
}

static void compare_track(cmp *c, const kf3ds_track *a, const kf3ds_track *b, unsigned flags,
                          const char *label)
{
    uint32_t i;
    /* a repaired rewrite leaves empty tracks out, their flags with them */
    if (!(flags & SUPPORT_DIFF_REPAIRED) || a->num_keys)
        FIELD(c, a, b, flags, label);
    FIELD(c, a, b, num_keys, label);
    if (c->differs)
        return;
    for (i = 0; i < a->num_keys && !c->differs; i++) {
        const kf3ds_key *ka = &a->keys[i], *kb = &b->keys[i];
        char klabel[300];
        snprintf(klabel, sizeof klabel, "%s key %lu", label, (unsigned long)i);
        FIELD(c, ka, kb, frame, klabel);
        FIELD(c, ka, kb, spline_flags, klabel);
        FIELD(c, ka, kb, tension, klabel);
        FIELD(c, ka, kb, continuity, klabel);
        FIELD(c, ka, kb, bias, klabel);
        FIELD(c, ka, kb, ease_to, klabel);
        FIELD(c, ka, kb, ease_from, klabel);
        FLOATS(c, ka, kb, value, 4, klabel);
        FLOATS(c, ka, kb, quat, 4, klabel); /* (tangents follow from these and the flags) */
        STR(c, ka, kb, morph_name, klabel);
        FIELD(c, ka, kb, morph_mesh, klabel);
    }
}

static void compare_node(cmp *c, const kf3ds_node *a, const kf3ds_node *b, unsigned flags,
                         const char *label)
{
    int k;
    FIELD(c, a, b, type, label);
    FIELD(c, a, b, parent, label);
    FIELD(c, a, b, flags1, label);
    FIELD(c, a, b, flags2, label);
    FIELD(c, a, b, mesh, label);
    FIELD(c, a, b, camera, label);
    FIELD(c, a, b, light, label);
    FIELD(c, a, b, target, label);
    FIELD(c, a, b, active_tracks_, label);
    FLOATS(c, a, b, pivot, 3, label);
    FIELD(c, a, b, id, label);
    if (!(flags & SUPPORT_DIFF_REPAIRED))
        FIELD(c, a, b, parent_raw, label);
    FIELD(c, a, b, has_node_id, label);
    FIELD(c, a, b, is_dummy, label);
    FIELD(c, a, b, has_prescale, label);
    FIELD(c, a, b, has_bbox, label);
    FIELD(c, a, b, has_morph_smooth, label);
    STR(c, a, b, name, label);
    STR(c, a, b, instance, label);
    /* (what a chunk cut short left in a field that says it is absent is not
     * written when repairing) */
    if (!(flags & SUPPORT_DIFF_REPAIRED) || a->has_prescale)
        FLOATS(c, a, b, prescale, 3, label);
    if (!(flags & SUPPORT_DIFF_REPAIRED) || a->has_bbox) {
        FLOATS(c, a, b, bbox_min, 3, label);
        FLOATS(c, a, b, bbox_max, 3, label);
    }
    if (!(flags & SUPPORT_DIFF_REPAIRED) || a->has_morph_smooth)
        FIELD(c, a, b, morph_smooth, label);
    FIELD(c, a, b, depth, label);
    for (k = 0; k < KF3DS_TRACK_COUNT && !c->differs; k++) {
        char tlabel[200];
        snprintf(tlabel, sizeof tlabel, "%s track %d", label, k);
        compare_track(c, &a->tracks[k], &b->tracks[k], flags, tlabel);
    }
}

int support_scene_diff(const kf3ds_scene *a, const kf3ds_scene *b, unsigned flags, char *what,
                       size_t cap)
{
    cmp c;
    uint32_t i;
    char label[160];
    c.what = what;
    c.cap = cap;
    c.differs = 0;
    if (what && cap)
        what[0] = '\0';
    FIELD(&c, a, b, version, "scene");
    FIELD(&c, a, b, mesh_version, "scene");
    FIELD(&c, a, b, master_scale, "scene");
    FLOATS(&c, a, b, ambient, 3, "scene");
    compare_environment(&c, &a->environment, &b->environment);
    FIELD(&c, a, b, num_meshes, "scene");
    FIELD(&c, a, b, num_materials, "scene");
    FIELD(&c, a, b, num_cameras, "scene");
    FIELD(&c, a, b, num_lights, "scene");
    FIELD(&c, a, b, num_nodes, "scene");
    if (!(flags & SUPPORT_DIFF_NO_KEYFRAMER)) {
        FIELD(&c, a, b, has_keyframer, "scene");
        FIELD(&c, a, b, kf_revision, "scene");
        if (!same_str(a->kf_filename ? a->kf_filename : "", b->kf_filename ? b->kf_filename : ""))
            differ(&c, "scene: keyframer file name differs");
        FIELD(&c, a, b, anim_length, "scene");
        FIELD(&c, a, b, segment_start, "scene");
        FIELD(&c, a, b, segment_end, "scene");
        FIELD(&c, a, b, current_frame, "scene");
    }
    if (c.differs)
        return 1;
    for (i = 0; i < a->num_materials; i++) {
        snprintf(label, sizeof label, "material %lu", (unsigned long)i);
        compare_material(&c, &a->materials[i], &b->materials[i], label);
    }
    for (i = 0; i < a->num_meshes; i++) {
        snprintf(label, sizeof label, "mesh %lu '%.40s'", (unsigned long)i, a->meshes[i].name);
        compare_mesh(&c, &a->meshes[i], &b->meshes[i], label);
    }
    for (i = 0; i < a->num_cameras; i++) {
        snprintf(label, sizeof label, "camera %lu", (unsigned long)i);
        compare_camera(&c, &a->cameras[i], &b->cameras[i], label);
    }
    for (i = 0; i < a->num_lights; i++) {
        snprintf(label, sizeof label, "light %lu", (unsigned long)i);
        compare_light(&c, &a->lights[i], &b->lights[i], label);
    }
    for (i = 0; i < a->num_nodes && !c.differs; i++) {
        snprintf(label, sizeof label, "node %lu '%.40s'", (unsigned long)i, a->nodes[i].name);
        compare_node(&c, &a->nodes[i], &b->nodes[i], flags, label);
        if (a->eval_order && b->eval_order && a->eval_order[i] != b->eval_order[i])
            differ(&c, "evaluation order differs at %lu", (unsigned long)i);
    }
    return c.differs != 0;
}

int support_eval_diff(const kf3ds_scene *a, const kf3ds_scene *b, const double *frames,
                      size_t num_frames, char *what, size_t cap)
{
    kf3ds_pose *pa, *pb;
    size_t f;
    uint32_t i, n = a->num_nodes;
    int bad = 0;
    if (what && cap)
        what[0] = '\0';
    if (a->num_nodes != b->num_nodes) {
        if (what)
            snprintf(what, cap, "%lu vs %lu nodes", (unsigned long)a->num_nodes,
                     (unsigned long)b->num_nodes);
        return 1;
    }
    pa = calloc(n ? n : 1, sizeof *pa);
    pb = calloc(n ? n : 1, sizeof *pb);
    if (!pa || !pb) {
        free(pa);
        free(pb);
        return 0; /* out of memory is not a difference */
    }
    for (f = 0; f < num_frames && !bad; f++) {
        kf3ds_scene_eval(a, frames[f], 0, pa);
        kf3ds_scene_eval(b, frames[f], 0, pb);
        for (i = 0; i < n && !bad; i++) {
            kf3ds_mat4 ma, mb;
            int ha = kf3ds_node_mesh_matrix(a, i, &pa[i], &ma);
            int hb = kf3ds_node_mesh_matrix(b, i, &pb[i], &mb);
            if (memcmp(&pa[i].world, &pb[i].world, sizeof pa[i].world) != 0 ||
                pa[i].hidden != pb[i].hidden || pa[i].morph_mesh != pb[i].morph_mesh ||
                memcmp(pa[i].color, pb[i].color, sizeof pa[i].color) != 0 ||
                pa[i].fov != pb[i].fov || pa[i].roll != pb[i].roll ||
                pa[i].hotspot != pb[i].hotspot || pa[i].falloff != pb[i].falloff ||
                ha != hb || (ha && memcmp(&ma, &mb, sizeof ma) != 0)) {
                bad = 1;
                if (what)
                    snprintf(what, cap, "node %lu '%.40s' differs at frame %g", (unsigned long)i,
                             a->nodes[i].name, frames[f]);
            }
        }
    }
    free(pa);
    free(pb);
    return bad;
}
