/* Files cut short (docs/robustness.md, 'The guarantees'): the rich scene of
 * tests/support_scenes.c, valid as written, then cut at every byte and at
 * every chunk boundary (each clamped chunk listed as an overrun), with stray
 * bytes after its root, its MDATA alone as a root, and every corpus file cut
 * at 2 % steps. Each load gives a clean error or a scene that keeps the
 * invariants of support_check_scene, and returns every block it took. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

static void inspect_rich(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    int32_t box, mirror;
    (void)user;
    assert_non_null(s);
    assert_int_equal(err->code, KF3DS_OK);
    assert_int_equal(s->num_diags, 0);
    assert_int_equal(s->num_meshes, 2);
    assert_int_equal(s->num_materials, 2);
    assert_int_equal(s->num_cameras, 1);
    assert_int_equal(s->num_lights, 2);
    assert_int_equal(s->num_nodes, 9);
    box = kf3ds_scene_find_mesh(s, "Box");
    mirror = kf3ds_scene_find_mesh(s, "Mirror");
    assert_true(box >= 0 && mirror >= 0);
    assert_int_equal(s->meshes[box].num_points, 8);
    assert_int_equal(s->meshes[box].num_faces, 12);
    assert_int_equal(s->meshes[box].num_texcoords, 8);
    assert_int_equal(s->meshes[box].num_groups, 2);
    assert_int_equal(kf3ds_face_material(&s->meshes[box], 0), 0);
    assert_int_equal(kf3ds_face_material(&s->meshes[box], 11), 1);
    assert_int_equal(s->meshes[mirror].mirrored, 1);
    assert_int_equal(s->nodes[2].parent, 1);
    assert_int_equal(s->nodes[3].parent, 2);
    assert_int_equal(s->nodes[8].parent, 1);
    assert_int_equal(s->nodes[2].mesh, box);
    assert_true(s->nodes[1].is_dummy);
    assert_int_equal(s->nodes[4].target, 5);
    assert_int_equal(s->nodes[6].target, 7);
    assert_int_equal(s->nodes[2].tracks[KF3DS_TRACK_POS].num_keys, 3);
    assert_int_equal(s->nodes[2].tracks[KF3DS_TRACK_ROT].num_keys, 3);
    assert_int_equal(s->nodes[2].tracks[KF3DS_TRACK_MORPH].num_keys, 2);
    assert_int_equal(s->nodes[2].tracks[KF3DS_TRACK_MORPH].keys[1].morph_mesh, mirror);
    assert_int_equal(s->lights[0].spot, 1);
    assert_int_equal(s->anim_length, 100);
}

/* The scene the other tests damage loads whole, without a diagnostic. */
static void test_rich_scene_is_valid(void **state)
{
    size_t size;
    unsigned char *data = support_build_rich(&size);
    support_chunk_list l = support_collect_chunks(data, size);
    (void)state;
    support_set_what("rich scene (%lu bytes)", (unsigned long)size);
    assert_true(l.n > 100);
    assert_int_equal(l.v[0].id, KF3DS_CHUNK_M3DMAGIC);
    assert_int_equal(l.v[0].end, size);
    assert_true(support_load_and_check(data, size, NULL, SUPPORT_CHECK_FULL, NULL, inspect_rich,
                                       NULL));
    free(l.v);
    free(data);
}

static void inspect_truncated(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    int k;
    (void)err;
    (void)user;
    if (!s)
        return;
    /* the root's own overrun is always reported */
    k = support_find_diag(s, KF3DS_WARN_OVERRUN, 0, 1);
    assert_true(k >= 0);
    assert_int_equal(s->diags[k].chunk_id, KF3DS_CHUNK_M3DMAGIC);
}

static void test_truncate_every_byte(void **state)
{
    size_t size, cut;
    unsigned char *data = support_build_rich(&size);
    (void)state;
    for (cut = 0; cut < size; cut++) {
        kf3ds_diag err;
        int got;
        support_set_what("rich scene cut to %lu of %lu bytes", (unsigned long)cut,
                         (unsigned long)size);
        got = support_load_and_check(data, cut, NULL, SUPPORT_CHECK_FULL, &err, inspect_truncated,
                                     NULL);
        if (cut < 6) {
            assert_false(got);
            assert_int_equal(err.code, KF3DS_ERR_NOT_3DS);
        } else {
            assert_true(got); /* the root is there: a scene with what could be read */
        }
    }
    free(data);
}

typedef struct boundary_ctx {
    const support_chunk_list *chunks;
    uint32_t cut;
} boundary_ctx;

static void inspect_boundary(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const boundary_ctx *b = (const boundary_ctx *)user;
    size_t i;
    (void)err;
    assert_non_null(s);
    /* every chunk whose header is complete and whose end lies beyond the cut
     * was clamped, and each clamp is listed with its offset and id */
    for (i = 0; i < b->chunks->n; i++) {
        const support_chunk_info *c = &b->chunks->v[i];
        if (c->offset + 6 <= b->cut && b->cut < c->end) {
            int k = support_find_diag(s, KF3DS_WARN_OVERRUN, c->offset, 1);
            if (k < 0)
                fail_msg("no overrun listed for chunk 0x%04X at %lu", (unsigned)c->id,
                         (unsigned long)c->offset);
            assert_int_equal(s->diags[k].chunk_id, c->id);
            assert_int_equal(s->diags[k].severity, KF3DS_WARNING);
        }
    }
}

static void test_truncate_chunk_boundaries(void **state)
{
    size_t size, i;
    unsigned char *data = support_build_rich(&size);
    support_chunk_list l = support_collect_chunks(data, size);
    (void)state;
    for (i = 0; i < 2 * l.n; i++) {
        boundary_ctx b;
        uint32_t cut = i % 2 ? l.v[i / 2].end : l.v[i / 2].offset;
        if (cut < 6 || cut >= size)
            continue;
        b.chunks = &l;
        b.cut = cut;
        support_set_what("rich scene cut at chunk boundary %lu (%s of chunk 0x%04X)",
                         (unsigned long)cut, i % 2 ? "end" : "start", (unsigned)l.v[i / 2].id);
        assert_true(support_load_and_check(data, cut, NULL, SUPPORT_CHECK_LIGHT, NULL,
                                           inspect_boundary, &b));
    }
    free(l.v);
    free(data);
}

/* Bytes after the root, and a bare MDATA root. */
static void test_trailing_and_bare_roots(void **state)
{
    size_t size, extra, i;
    unsigned char *data = support_build_rich(&size);
    unsigned char *bigger = (unsigned char *)malloc(size + 16);
    support_chunk_list l = support_collect_chunks(data, size);
    kf3ds_diag err;
    (void)state;
    assert_non_null(bigger);
    memcpy(bigger, data, size);
    memset(bigger + size, 0x4D, 16); /* each byte like half a root id */
    for (extra = 1; extra <= 16; extra++) {
        support_set_what("rich scene with %lu stray bytes after the root", (unsigned long)extra);
        assert_true(support_load_and_check(bigger, size + extra, NULL, SUPPORT_CHECK_LIGHT, &err,
                                           NULL, NULL));
        assert_int_equal(err.code, KF3DS_OK);
    }
    for (i = 0; i < l.n; i++)
        if (l.v[i].id == KF3DS_CHUNK_MDATA && l.v[i].depth == 1) {
            support_set_what("a bare MDATA root");
            assert_true(support_load_and_check(data + l.v[i].offset, l.v[i].length, NULL,
                                               SUPPORT_CHECK_FULL, &err, NULL, NULL));
            assert_int_equal(err.code, KF3DS_OK);
        }
    free(l.v);
    free(bigger);
    free(data);
}

/* One corpus file cut to 0, 2, 4, ... 100 % of its size. */
static void cut_corpus_file(const char *path, const char *name, void *user)
{
    size_t size = 0, k;
    unsigned char *data = support_read_file(path, &size);
    if (!data)
        return;
    ++*(int *)user;
    for (k = 0; k <= 50; k++) {
        size_t cut = (size_t)((double)size * (double)k / 50.0);
        if (cut > size)
            cut = size;
        support_set_what("%s cut to %lu of %lu bytes", name, (unsigned long)cut,
                         (unsigned long)size);
        support_load_and_check(data, cut, NULL, SUPPORT_CHECK_LIGHT, NULL, NULL, NULL);
    }
    free(data);
}

static void test_corpus_truncated(void **state)
{
    int files = 0;
    (void)state;
    if (support_corpus_each(cut_corpus_file, &files) < 0)
        skip();
    assert_true(files > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_rich_scene_is_valid),
        support_unit_test(test_truncate_every_byte),
        support_unit_test(test_truncate_chunk_boundaries),
        support_unit_test(test_trailing_and_bare_roots),
        support_unit_test(test_corpus_truncated),
    };
    return support_run_tests(tests, NULL, NULL);
}
