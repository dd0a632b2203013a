/* Scene building, the rules of docs/evaluation.md: hierarchy resolution
 * ('Node ids and parents'), name linking, targets, mirrored meshes and mesh
 * placement ('Transforms and mesh placement'), camera views ('Cameras'),
 * editor data, allocator hooks, and that evaluation leaves the scene alone.
 * The scenes whose point is what follows from them are built
 * (support_build.h); the files of the parent rules (forward references,
 * unknown ids, cycles: nothing the builder can make) and of the loader's
 * allocator hooks are written raw. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kf3ds.h"
#include "support.h"
#include "support_build.h"
#include "support_w3ds.h"

typedef struct node_spec {
    uint16_t tag;
    int node_id;        /* -1: no NODE_ID chunk */
    const char *name;
    uint16_t parent;
    float pos[3];
} node_spec;

/* A file of the nodes, each with one POS key, loaded with options `o` (may
 * be NULL). */
static kf3ds_scene *load_nodes(const node_spec *nodes, int n, const kf3ds_load_options *o,
                               kf3ds_diag *err)
{
    w3ds w;
    int i;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < n; i++) {
        if (nodes[i].node_id >= 0) {
            support_node_begin(&w, nodes[i].tag, (uint16_t)nodes[i].node_id, nodes[i].name,
                               nodes[i].parent);
            support_pos_track(&w, nodes[i].pos);
            w3ds_end(&w);
        } else {
            support_node(&w, nodes[i].tag, nodes[i].name, 0, nodes[i].parent, nodes[i].pos);
        }
    }
    support_end_all(&w);
    return support_load_w3ds(&w, o, err);
}

static void assert_parents_first(const kf3ds_scene *s)
{
    uint32_t i, seen[64] = { 0 };
    assert_in_range(s->num_nodes, 0, 64);
    for (i = 0; i < s->num_nodes; i++) {
        uint32_t idx = s->eval_order[i];
        assert_true(idx < s->num_nodes);
        assert_false(seen[idx]);
        if (s->nodes[idx].parent != KF3DS_NONE)
            assert_true(seen[s->nodes[idx].parent]);
        seen[idx] = 1;
    }
}

/* Without NODE_ID: ids are file-order indices; forward references work
 * (docs/evaluation.md, 'Node ids and parents'). */
static void test_parents_by_index_forward(void **state)
{
    const node_spec nodes[] = {
        /* a child of node 2, which comes later */
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 2, { 1, 0, 0 } },
        /* the ambient node counts in the index */
        { KF3DS_CHUNK_AMBIENT_NODE_TAG, -1, "$AMBIENT$", 0xFFFF, { 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0xFFFF, { 0, 10, 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0, { 0, 0, 100 } },  /* grandchild */
    };
    kf3ds_diag err;
    kf3ds_scene *s = load_nodes(nodes, 4, NULL, &err);
    kf3ds_pose p[4];
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(s->nodes[0].parent, 2);
    assert_int_equal(s->nodes[3].parent, 0);
    assert_int_equal(s->nodes[3].depth, 2);
    assert_int_equal(s->nodes[1].type, KF3DS_NODE_AMBIENT);
    assert_parents_first(s);
    kf3ds_scene_eval(s, 0, 0, p);
    assert_near(p[3].world.m[0][3], 1, 1e-6);
    assert_near(p[3].world.m[1][3], 10, 1e-6);
    assert_near(p[3].world.m[2][3], 100, 1e-6);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_PARENT), 0);
    kf3ds_scene_free(s);
}

/* With NODE_ID: the parent field names ids, not positions
 * (docs/evaluation.md, 'Node ids and parents'). */
static void test_parents_by_node_id(void **state)
{
    const node_spec nodes[] = {
        { KF3DS_CHUNK_OBJECT_NODE_TAG, 40, "$$$DUMMY", 0xFFFF, { 1, 0, 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, 7, "$$$DUMMY", 40, { 0, 2, 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, 2, "$$$DUMMY", 7, { 0, 0, 3 } },
        /* id 0 exists nowhere: a root and a warning */
        { KF3DS_CHUNK_OBJECT_NODE_TAG, 9, "$$$DUMMY", 0, { 0 } },
    };
    kf3ds_diag err;
    kf3ds_scene *s = load_nodes(nodes, 4, NULL, &err);
    (void)state;
    assert_int_equal(s->nodes[1].parent, 0);
    assert_int_equal(s->nodes[2].parent, 1);
    assert_int_equal(s->nodes[3].parent, KF3DS_NONE);
    assert_int_equal(s->nodes[1].id, 7);
    assert_true(s->nodes[1].has_node_id);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_PARENT), 1);
    assert_int_equal(err.code, KF3DS_OK); /* a warning is not an error */
    assert_parents_first(s);
    kf3ds_scene_free(s);
}

/* A node that is its own parent and a cycle: roots with a warning
 * (docs/evaluation.md, 'Node ids and parents'). */
static void test_parent_cycles(void **state)
{
    const node_spec nodes[] = {
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0, { 0 } },  /* its own parent */
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 3, { 0 } },  /* 1 → 3 → 2 → 1 */
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 1, { 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 2, { 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 3, { 0 } },  /* hangs off the cycle */
    };
    kf3ds_diag err;
    kf3ds_scene *s = load_nodes(nodes, 5, NULL, &err);
    kf3ds_pose p[5];
    int roots = 0;
    uint32_t i;
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    assert_int_equal(s->nodes[0].parent, KF3DS_NONE);
    for (i = 1; i < 4; i++)
        roots += s->nodes[i].parent == KF3DS_NONE;
    assert_int_equal(roots, 1); /* the 3-cycle is broken at exactly one node */
    assert_int_equal(support_count_diags(s, KF3DS_WARN_PARENT), 2);
    assert_parents_first(s);
    kf3ds_scene_eval(s, 0, 0, p);
    kf3ds_node_eval(s, 4, 0, 0, &p[0]);
    kf3ds_scene_free(s);
}

/* Instances, targets linked by name and tag, editor data, and the camera's
 * view with the lens → FOV and roll rules (docs/evaluation.md, 'Cameras'). */
static void test_targets_and_links(void **state)
{
    static const float pts[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    static const uint16_t faces[] = { 0, 1, 2 };
    static const uint32_t smooth[] = { 1 };
    const float cam_pos[3] = { 0, -10, 0 }, cam_tgt[3] = { 0, 0, 0 }, col[3] = { 1, .5f, .25f };
    const float spot_tgt[3] = { 0, 0, -1 };
    const uint8_t red[3] = { 255, 0, 0 };
    kf3ds_builder *b = support_builder();
    kf3ds_material mat = support_material("Red", red);
    kf3ds_camera cam = support_camera("Cam", cam_pos, cam_tgt, 0, 50);
    kf3ds_light spot = support_light("Spot", cam_pos, col, spot_tgt, 20, 30);
    kf3ds_scene *s;
    kf3ds_pose p[7];
    kf3ds_mat4 view;
    float fov, roll, v[3];
    int32_t mesh, first, second;
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    support_rgb24(mat.ambient, red);
    kf3ds_builder_add_material(b, &mat);
    mesh = support_build_mesh(b, "Tri", pts, 3, faces, NULL, 1, NULL);
    kf3ds_builder_mesh_material(b, mesh, "Red", NULL, 0);
    kf3ds_builder_mesh_smoothing(b, mesh, smooth);
    kf3ds_builder_add_camera(b, &cam);
    kf3ds_builder_add_light(b, &spot);
    first = support_build_node(b, KF3DS_NODE_OBJECT, "Tri", KF3DS_NONE, NULL);
    kf3ds_builder_node_instance(b, first, "First");
    second = support_build_node(b, KF3DS_NODE_OBJECT, "Tri", KF3DS_NONE, NULL);
    kf3ds_builder_node_instance(b, second, "Second");
    support_build_node(b, KF3DS_NODE_TARGET, "Cam", KF3DS_NONE, cam_tgt);
    support_build_node(b, KF3DS_NODE_CAMERA, "Cam", KF3DS_NONE, cam_pos);
    support_build_node(b, KF3DS_NODE_SPOT, "Spot", KF3DS_NONE, NULL);
    support_build_node(b, KF3DS_NODE_LTARGET, "Spot", KF3DS_NONE, NULL);
    support_build_node(b, KF3DS_NODE_OBJECT, "Nothing", KF3DS_NONE, NULL);
    s = support_build_scene(b);
    /* Instances share the mesh. */
    assert_int_equal(s->nodes[0].mesh, 0);
    assert_int_equal(s->nodes[1].mesh, 0);
    assert_string_equal(s->nodes[1].instance, "Second");
    /* Camera ↔ target, spot ↔ spot target, by name and tag. */
    assert_int_equal(s->nodes[3].target, 2);
    assert_int_equal(s->nodes[2].target, 3);
    assert_int_equal(s->nodes[4].target, 5);
    assert_int_equal(s->nodes[4].light, 0);
    assert_int_equal(s->nodes[3].camera, 0);
    assert_int_equal(s->nodes[6].mesh, KF3DS_NONE);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_REFERENCE), 1);
    /* Editor data. */
    assert_near(s->cameras[0].fov, 48.0, 1e-4); /* 2400 / 50 */
    assert_true(s->lights[0].spot);
    assert_near(s->lights[0].hotspot, 20, 0);
    assert_near(s->lights[0].color[1], 0.5, 0);
    assert_near(s->materials[0].diffuse[0], 1.0, 0);
    assert_int_equal(kf3ds_face_material(&s->meshes[0], 0), 0);
    assert_int_equal(kf3ds_face_smoothing(&s->meshes[0], 0), 1);
    /* The camera at (0,−10,0) looking at the origin: world origin lands on
     * the −z axis of the view, 10 units away; world +Z is view +y. */
    kf3ds_scene_eval(s, 0, 0, p);
    assert_true(kf3ds_node_camera_view(s, 3, p, &view, &fov, &roll));
    kf3ds_mat4_transform_point(&view, (const float[]){ 0, 0, 0 }, v);
    assert_near(v[0], 0, 1e-5);
    assert_near(v[1], 0, 1e-5);
    assert_near(v[2], -10, 1e-5);
    kf3ds_mat4_transform_point(&view, (const float[]){ 1, 0, 1 }, v);
    assert_near(v[0], 1, 1e-5);
    assert_near(v[1], 1, 1e-5);
    assert_near(fov, 48.0, 1e-4);
    assert_false(kf3ds_node_camera_view(s, 0, p, &view, NULL, NULL));
    kf3ds_scene_free(s);
}

/* A mirrored mesh (docs/evaluation.md, 'Mesh placement'):
 * MESH_MATRIX with X axis (−1,0,0) and origin (5,0,0).
 * Stored (6,1,2) becomes M·S(−1,1,1)·M⁻¹·(6,1,2) = (4,1,2); placed at frame 0
 * by a node at (5,0,0) it lands back on (6,1,2). */
static void test_mirrored_mesh(void **state)
{
    static const float pts[] = { 6, 1, 2, 5, 0, 0, 5, 1, 0 };
    static const uint16_t faces[] = { 0, 1, 2 };
    static const float matrix[12] = { -1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 0, 0 };
    const float pos[3] = { 5, 0, 0 };
    kf3ds_builder *b = support_builder();
    kf3ds_scene *s;
    kf3ds_pose p;
    kf3ds_mat4 m;
    float v[3];
    (void)state;
    support_build_mesh(b, "M", pts, 3, faces, NULL, 1, matrix);
    support_build_node(b, KF3DS_NODE_OBJECT, "M", KF3DS_NONE, pos);
    s = support_build_scene(b);
    assert_true(s->meshes[0].mirrored);
    assert_near(s->meshes[0].points[0][0], 4, 1e-6);
    assert_near(s->meshes[0].points[0][1], 1, 1e-6);
    kf3ds_node_eval(s, 0, 0, 0, &p);
    assert_true(kf3ds_node_mesh_matrix(s, 0, &p, &m));
    kf3ds_mat4_transform_point(&m, s->meshes[0].points[0], v);
    assert_near(v[0], 6, 1e-5);
    assert_near(v[1], 1, 1e-5);
    assert_near(v[2], 2, 1e-5);
    kf3ds_scene_free(s);
}

static unsigned long checksum(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    unsigned long h = 5381;
    while (n--)
        h = h * 33 + *b++;
    return h;
}

/* Allocator hooks (the counting allocator of support.c): every block comes
 * from the caller's allocator and goes back on kf3ds_scene_free; evaluation does
 * not change one byte of the scene. */
static void test_allocator_and_const_eval(void **state)
{
    const node_spec nodes[] = {
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0xFFFF, { 1, 0, 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0, { 0, 2, 0 } },
    };
    counting c;
    kf3ds_load_options opt;
    kf3ds_scene *s;
    kf3ds_pose p[2];
    unsigned long before;
    (void)state;
    memset(p, 0, sizeof p); /* poses are zero-initialised before the first call */
    counting_reset(&c, -1);
    opt = counting_options(&c);
    s = load_nodes(nodes, 2, &opt, NULL);
    assert_true(c.calls > 0);
    before = checksum(s->nodes, s->num_nodes * sizeof *s->nodes) ^
             checksum(s->nodes[1].tracks[0].keys, sizeof(kf3ds_key));
    kf3ds_scene_eval(s, 3.5, 0, p);
    kf3ds_node_eval(s, 1, 7.25, 0, &p[1]);
    assert_int_equal(before, checksum(s->nodes, s->num_nodes * sizeof *s->nodes) ^
                                 checksum(s->nodes[1].tracks[0].keys, sizeof(kf3ds_key)));
    counting_free_scene(s, &c);
}

/* KF3DS_EVAL_LOCAL: a child at (0, 2, 0) under a root at (1, 0, 0) has the
 * world translation (1, 2, 0), and (0, 2, 0) with the flag, its own
 * placement; every other field of the pose is the same bits. */
static void test_local_flag(void **state)
{
    static const node_spec nodes[] = {
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0xFFFF, { 1, 0, 0 } },
        { KF3DS_CHUNK_OBJECT_NODE_TAG, -1, "$$$DUMMY", 0, { 0, 2, 0 } },
    };
    kf3ds_diag err;
    kf3ds_scene *s = load_nodes(nodes, 2, NULL, &err);
    kf3ds_pose whole, local;
    (void)state;
    memset(&whole, 0, sizeof whole);
    memset(&local, 0, sizeof local);
    kf3ds_node_eval(s, 1, 5.0, 0, &whole);
    kf3ds_node_eval(s, 1, 5.0, KF3DS_EVAL_LOCAL, &local);
    assert_near(whole.world.m[0][3], 1.0, 1e-6);
    assert_near(whole.world.m[1][3], 2.0, 1e-6);
    assert_near(local.world.m[0][3], 0.0, 1e-6);
    assert_near(local.world.m[1][3], 2.0, 1e-6);
    assert_near(local.world.m[2][3], 0.0, 1e-6);
    local.world = whole.world;
    assert_memory_equal(&local, &whole, sizeof whole);
    /* a root: the same pose either way */
    kf3ds_node_eval(s, 0, 5.0, 0, &whole);
    kf3ds_node_eval(s, 0, 5.0, KF3DS_EVAL_LOCAL, &local);
    assert_memory_equal(&local, &whole, sizeof whole);
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parents_by_index_forward),
        cmocka_unit_test(test_parents_by_node_id),
        cmocka_unit_test(test_parent_cycles),
        cmocka_unit_test(test_targets_and_links),
        cmocka_unit_test(test_mirrored_mesh),
        cmocka_unit_test(test_allocator_and_const_eval),
        cmocka_unit_test(test_local_flag),
    };
    return support_run_tests(tests, NULL, NULL);
}
