/* Bad parent links (docs/evaluation.md, 'Node ids and parents'): a node that
 * is its own parent, cycles and unknown ids become roots with a
 * KF3DS_WARN_PARENT, with NODE_IDs and with file-order ids; chains of 3,000
 * nodes written children first, and one closed into a cycle, give an order
 * with every parent first and walks that end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kf3ds.h"
#include "support.h"

static int has_parent_warning(const kf3ds_scene *s, uint32_t node)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++)
        if (s->diags[i].code == KF3DS_WARN_PARENT && s->diags[i].offset == s->nodes[node].offset)
            return 1;
    return 0;
}

/* Node `node` is a root, with or without a warning. */
static void expect_root(const kf3ds_scene *s, uint32_t node, int warned)
{
    assert_int_equal(s->nodes[node].parent, KF3DS_NONE);
    assert_int_equal(has_parent_warning(s, node), warned);
}

static void test_bad_parents(void **state)
{
    /* with NODE_IDs: 10 self; 11→12→13→11 a 3-cycle; 14→99 unknown; 15→14 fine;
     * 16→0xFFFE unknown; 17→17 self again */
    static const struct {
        uint16_t id, parent;
    } nodes[] = { {10, 10}, {11, 12}, {12, 13}, {13, 11}, {14, 99}, {15, 14}, {16, 0xFFFE},
                  {17, 17} };
    w3ds w;
    size_t i;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    int roots = 0;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, nodes[i].id, "$$$DUMMY",
                           nodes[i].parent);
        support_pos_track_moving(&w, (float)i, 0, 0);
        w3ds_end(&w);
    }
    support_set_what("bad parents (with NODE_ID)");
    s = support_load_written(&w, &c, NULL, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(err.code, KF3DS_OK); /* warnings only */
    assert_int_equal(s->num_nodes, 8);
    expect_root(s, 0, 1);
    expect_root(s, 4, 1);
    assert_int_equal(s->nodes[5].parent, 4);
    expect_root(s, 6, 1);
    expect_root(s, 7, 1);
    for (i = 1; i <= 3; i++)
        if (s->nodes[i].parent == KF3DS_NONE) {
            roots++;
            assert_true(has_parent_warning(s, (uint32_t)i));
        }
    assert_int_equal(roots, 1); /* the cycle is broken at one node, the others keep their links */
    counting_free_scene(s, &c);
}

static void test_bad_parents_by_index(void **state)
{
    /* no NODE_IDs: parents are file-order indices. 0→2→1→0 a cycle; 3→3; 4→500. */
    static const uint16_t parents[] = { 2, 0, 1, 3, 500, 0xFFFF };
    w3ds w;
    size_t i;
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    int roots = 0;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < sizeof parents / sizeof parents[0]; i++)
        support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, parents[i], NULL);
    support_set_what("bad parents (file-order ids)");
    s = support_load_written(&w, &c, NULL, &err, SUPPORT_CHECK_FULL);
    assert_int_equal(s->num_nodes, 6);
    for (i = 0; i < 3; i++)
        roots += s->nodes[i].parent == KF3DS_NONE;
    assert_int_equal(roots, 1);
    expect_root(s, 3, 1);
    expect_root(s, 4, 1);
    expect_root(s, 5, 0);
    counting_free_scene(s, &c);
}

/* A long chain written children first, and one long cycle: the order must
 * still put every parent first, and no walk may loop. */
static void test_long_chains(void **state)
{
    enum { N = 3000 };
    int variant;
    (void)state;
    for (variant = 0; variant < 2; variant++) {
        w3ds w;
        uint32_t i;
        counting c;
        kf3ds_diag err;
        kf3ds_scene *s;
        kf3ds_pose p;
        support_file_begin(&w, KF3DS_CHUNK_KFDATA);
        for (i = 0; i < N; i++) {
            /* variant 0: node i's parent is i+1 (root last); variant 1: a cycle */
            uint16_t parent = (uint16_t)(i + 1 < N ? i + 1 : (variant ? 0 : 0xFFFF));
            support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, (uint16_t)i, "$$$DUMMY", parent);
            if (i % 100 == 0)
                support_pos_track_moving(&w, 1, 0, 0);
            w3ds_end(&w);
        }
        support_set_what("a chain of %d nodes, %s", N,
                         variant ? "closed into a cycle" : "children first");
        s = support_load_written(&w, &c, NULL, &err, SUPPORT_CHECK_LIGHT);
        assert_int_equal(s->num_nodes, N);
        if (variant == 0) {
            assert_int_equal(s->nodes[0].depth, N - 1);
            assert_int_equal(s->eval_order[0], N - 1);
        }
        kf3ds_node_eval(s, 0, 10.0, 0, &p); /* walks all ancestors */
        counting_free_scene(s, &c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_bad_parents),
        support_unit_test(test_bad_parents_by_index),
        support_unit_test(test_long_chains),
    };
    return support_run_tests(tests, NULL, NULL);
}
