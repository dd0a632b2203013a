/* The library writer (docs/writer.md): load -> save -> load gives the same
 * scene, bit for bit, on the samples and every corpus file that loads
 * without error; save -> load -> save is a fixed point; the options; counts
 * that do not fit the format are errors naming what; the allocator hooks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static const double frames[] = { -7.5, 0, 0.25, 1, 5.5, 10, 12.5, 17, 30, 33.3, 50, 60, 75.75,
                                 99, 100, 150, 250.5, 1000, 2150 };
#define NUM_FRAMES (sizeof frames / sizeof frames[0])

static kf3ds_scene *load_bytes(const void *data, size_t size, unsigned flags, kf3ds_diag *err)
{
    kf3ds_load_options o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    return kf3ds_load_memory(data, size, &o, err);
}

static unsigned char *save_bytes(const kf3ds_scene *s, unsigned flags, size_t *size)
{
    kf3ds_save_options o;
    kf3ds_diag err;
    void *bytes = NULL;
    unsigned char *copy;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    if (kf3ds_save_memory(s, &o, &bytes, size, &err) != KF3DS_OK)
        fail_msg("%s: save failed: %s", support_what, err.message);
    copy = malloc(*size ? *size : 1);
    assert_non_null(copy);
    memcpy(copy, bytes, *size);
    kf3ds_save_free(bytes, &o);
    return copy;
}

typedef struct tally {
    int files, loaded, identical, fixed_points;
} tally;

/* Load (keeping the source) -> save with `save_flags` -> load: the same
 * scene and evaluation; saving the reloaded scene gives the same bytes. */
static void round_trip(const unsigned char *data, size_t size, unsigned save_flags,
                       unsigned diff_flags, tally *t)
{
    kf3ds_diag err;
    kf3ds_scene *a, *b, *c;
    unsigned char *first, *second;
    size_t n1, n2;
    char what[300];
    t->files++;
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    if (!a || err.code != KF3DS_OK) {
        kf3ds_scene_free(a);
        return;
    }
    t->loaded++;
    first = save_bytes(a, save_flags, &n1);
    b = load_bytes(first, n1, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(b);
    if (err.code != KF3DS_OK)
        fail_msg("%s: the saved file has an error: %s", support_what, err.message);
    if (support_scene_diff(a, b, diff_flags, what, sizeof what))
        fail_msg("%s: the reloaded scene differs: %s", support_what, what);
    if (support_eval_diff(a, b, frames, NUM_FRAMES, what, sizeof what))
        fail_msg("%s: the reloaded scene evaluates differently: %s", support_what, what);
    t->identical++;
    second = save_bytes(b, save_flags, &n2);
    if (n1 != n2 || memcmp(first, second, n1) != 0)
        fail_msg("%s: save -> load -> save is not a fixed point (%lu, %lu bytes)", support_what,
                 (unsigned long)n1, (unsigned long)n2);
    /* and the same without the kept source: kf3ds's own order, same scene */
    c = load_bytes(first, n1, 0, &err);
    assert_non_null(c);
    if (support_scene_diff(b, c, diff_flags, what, sizeof what))
        fail_msg("%s: loading without the source differs: %s", support_what, what);
    t->fixed_points++;
    kf3ds_scene_free(a);
    kf3ds_scene_free(b);
    kf3ds_scene_free(c);
    free(first);
    free(second);
}

static void round_trip_file(const char *path, const char *name, void *user)
{
    size_t size;
    unsigned char *data;
    tally *t = (tally *)user;
    if (!support_is_3ds_name(name))
        return;
    data = support_read_file(path, &size);
    assert_non_null(data);
    support_set_what("%s (lossless)", name);
    round_trip(data, size, 0, 0, t);
    support_set_what("%s (repaired)", name);
    round_trip(data, size, KF3DS_SAVE_REPAIR, SUPPORT_DIFF_REPAIRED, &t[1]);
    support_set_what("%s (canonical)", name);
    round_trip(data, size, KF3DS_SAVE_CANONICAL, 0, &t[2]);
    free(data);
}

static void test_samples_round_trip(void **state)
{
    tally t[3];
    (void)state;
    memset(t, 0, sizeof t);
    assert_int_equal(support_dir_each("data", round_trip_file, t), 3);
    assert_int_equal(t[0].identical, 3);
    assert_int_equal(t[0].fixed_points, 3);
    assert_int_equal(t[1].fixed_points, 3);
    assert_int_equal(t[2].fixed_points, 3);
}

static void test_corpus_round_trip(void **state)
{
    tally t[3];
    (void)state;
    memset(t, 0, sizeof t);
    if (support_corpus_each(round_trip_file, t) < 0)
        skip();
    print_message("corpus round trip: %d .3ds files, %d load without error; identical after "
                  "load -> save -> load: %d lossless, %d repaired, %d canonical; fixed points "
                  "%d, %d, %d\n",
                  t[0].files, t[0].loaded, t[0].identical, t[1].identical, t[2].identical,
                  t[0].fixed_points, t[1].fixed_points, t[2].fixed_points);
    assert_true(t[0].loaded > 0);
    assert_int_equal(t[0].identical, t[0].loaded);
}

/* Lossless keeps what the file said, repaired writes what the loader made of it. */
static void test_lossless_and_repaired(void **state)
{
    size_t size, n;
    unsigned char *data = support_read_file("data/edge.3ds", &size), *out;
    kf3ds_diag err;
    kf3ds_scene *a, *b;
    int32_t boxc, boxa;
    (void)state;
    assert_non_null(data);
    support_set_what("data/edge.3ds");
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);
    assert_int_equal(support_count_diags(a, KF3DS_WARN_PARENT), 1);
    assert_int_equal(support_count_diags(a, KF3DS_WARN_UNSORTED), 1);

    out = save_bytes(a, 0, &n); /* lossless: the same bytes as the file */
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size);
    free(out);

    out = save_bytes(a, KF3DS_SAVE_REPAIR, &n);
    b = load_bytes(out, n, 0, &err);
    assert_non_null(b);
    assert_int_equal(b->num_diags, 0); /* nothing left to repair */
    boxc = kf3ds_scene_find_node(b, "BoxC");
    boxa = kf3ds_scene_find_node(b, "BoxA");
    assert_true(boxc >= 0 && boxa >= 0);
    assert_int_equal(b->nodes[boxc].parent_raw, 0xFFFF);
    assert_int_equal(b->nodes[boxc].parent, KF3DS_NONE);
    assert_int_equal(b->nodes[boxa].tracks[KF3DS_TRACK_POS].keys[0].frame, 0);
    kf3ds_scene_free(b);
    free(out);
    kf3ds_scene_free(a);
    free(data);
}

/* The options: drop the verbatim chunks, the keyframer, cut the segment. */
static void test_save_options(void **state)
{
    w3ds w;
    unsigned char *data, *out;
    size_t size, n;
    kf3ds_diag err;
    kf3ds_scene *a, *b;
    support_chunk_list chunks;
    size_t i, unknown = 0;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    support_chunk_u32(&w, 0x7777, 42); /* an unknown chunk */
    support_chunk_f32(&w, KF3DS_CHUNK_MASTER_SCALE, 2.0f);
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    support_kf_segment(&w, "opts", 100);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0xFFFF, (const float[3]){ 1, 2, 3 });
    support_end_all(&w);
    data = support_take_bytes(&w, &size);
    a = load_bytes(data, size, KF3DS_LOAD_KEEP_SOURCE, &err);
    assert_non_null(a);

    out = save_bytes(a, 0, &n);
    assert_int_equal(n, size);
    assert_memory_equal(out, data, size); /* the unknown chunk kept, in place */
    free(out);

    out = save_bytes(a, KF3DS_SAVE_DROP_UNKNOWN, &n);
    chunks = support_collect_chunks(out, n);
    for (i = 0; i < chunks.n; i++)
        unknown += chunks.v[i].id == 0x7777;
    assert_int_equal(unknown, 0);
    assert_int_equal(n, size - 10);
    free(chunks.v);
    free(out);

    out = save_bytes(a, KF3DS_SAVE_NO_KEYFRAMER, &n);
    b = load_bytes(out, n, 0, &err);
    assert_non_null(b);
    assert_int_equal(b->has_keyframer, 0);
    assert_int_equal(b->num_nodes, 0);
    assert_near(b->master_scale, 2.0, 0);
    kf3ds_scene_free(b);
    free(out);

    {
        kf3ds_save_options o;
        void *bytes;
        memset(&o, 0, sizeof o);
        o.flags = KF3DS_SAVE_SEGMENT;
        o.segment_start = 10;
        o.segment_end = 40;
        assert_int_equal(kf3ds_save_memory(a, &o, &bytes, &n, &err), KF3DS_OK);
        b = load_bytes(bytes, n, 0, &err);
        kf3ds_save_free(bytes, &o);
        assert_non_null(b);
        assert_int_equal(b->segment_start, 10);
        assert_int_equal(b->segment_end, 40);
        assert_int_equal(b->anim_length, 100);
        kf3ds_scene_free(b);
        o.segment_start = 50; /* after its end */
        assert_int_equal(kf3ds_save_memory(a, &o, &bytes, &n, &err), KF3DS_ERR_ARGUMENT);
        assert_null(bytes);
    }
    kf3ds_scene_free(a);
    free(data);
}

/* Arrays that do not fit the format's 16-bit counts: an error naming what,
 * and no bytes. */
static void test_counts_that_do_not_fit(void **state)
{
    kf3ds_scene s;
    kf3ds_mesh m;
    kf3ds_diag err;
    void *bytes = (void *)&s;
    size_t n = 1;
    (void)state;
    memset(&s, 0, sizeof s);
    memset(&m, 0, sizeof m);
    m.name = "Huge";
    m.num_points = 70000;
    m.points = calloc(m.num_points, sizeof *m.points);
    assert_non_null(m.points);
    kf3ds_mat4_identity(&m.matrix);
    kf3ds_mat4_identity(&m.inv_matrix);
    s.meshes = &m;
    s.num_meshes = 1;
    s.master_scale = 1.0f;
    assert_int_equal(kf3ds_save_memory(&s, NULL, &bytes, &n, &err), KF3DS_ERR_LIMIT);
    assert_null(bytes);
    assert_int_equal(n, 0);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_int_equal(err.chunk_id, KF3DS_CHUNK_POINT_ARRAY);
    assert_non_null(strstr(err.message, "Huge"));
    assert_non_null(strstr(err.message, "70000"));
    m.num_points = 65535; /* the most that fits */
    assert_int_equal(kf3ds_save_memory(&s, NULL, &bytes, &n, &err), KF3DS_OK);
    /* M3DMAGIC, M3D_VERSION, MDATA, MASTER_SCALE, NAMED_OBJECT "Huge", N_TRI_OBJECT,
     * POINT_ARRAY */
    assert_int_equal(n, 6 + 10 + 6 + 10 + (6 + 5) + 6 + (6 + 2 + 65535 * 12));
    kf3ds_save_free(bytes, NULL);
    free(m.points);
}

/* The bytes come from the caller's hooks and go back through them; a
 * refusal is KF3DS_ERR_NOMEM with nothing to free; bad arguments. */
static void test_save_allocator(void **state)
{
    counting c;
    kf3ds_load_options lo = counting_options(&c);
    kf3ds_save_options so;
    size_t size, n;
    unsigned char *data = support_read_file("data/arm.3ds", &size);
    kf3ds_scene *s = kf3ds_load_memory(data, size, NULL, NULL);
    kf3ds_diag err;
    void *bytes;
    (void)state;
    assert_non_null(s);
    memset(&so, 0, sizeof so);
    so.allocator = lo.allocator;
    counting_reset(&c, -1);
    assert_int_equal(kf3ds_save_memory(s, &so, &bytes, &n, &err), KF3DS_OK);
    assert_int_equal(c.live, 1);
    assert_int_equal(c.bytes, n);
    kf3ds_save_free(bytes, &so);
    assert_int_equal(c.live, 0);
    counting_reset(&c, 0);
    assert_int_equal(kf3ds_save_memory(s, &so, &bytes, &n, &err), KF3DS_ERR_NOMEM);
    assert_null(bytes);
    assert_int_equal(c.live, 0);
    so.allocator.free_fn = NULL; /* hooks in part */
    assert_int_equal(kf3ds_save_memory(s, &so, &bytes, &n, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_save_memory(NULL, NULL, &bytes, &n, &err), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_save_memory(s, NULL, NULL, &n, &err), KF3DS_ERR_ARGUMENT);
    kf3ds_scene_free(s);
    free(data);
}

/* A mirrored mesh saved without the kept source: its points are un-mirrored
 * by the same transform, the same up to float rounding. */
static void test_mirrored_without_source(void **state)
{
    size_t size, n;
    unsigned char *data = support_read_file("data/arm.3ds", &size), *out;
    kf3ds_scene *a = load_bytes(data, size, 0, NULL), *b;
    int32_t m;
    uint32_t i;
    (void)state;
    assert_non_null(a);
    m = kf3ds_scene_find_mesh(a, "FingerR");
    assert_true(m >= 0 && a->meshes[m].mirrored);
    out = save_bytes(a, 0, &n);
    b = load_bytes(out, n, 0, NULL);
    assert_non_null(b);
    for (i = 0; i < a->meshes[m].num_points; i++) {
        assert_near(b->meshes[m].points[i][0], a->meshes[m].points[i][0], 1e-4);
        assert_near(b->meshes[m].points[i][1], a->meshes[m].points[i][1], 1e-4);
        assert_near(b->meshes[m].points[i][2], a->meshes[m].points[i][2], 1e-4);
    }
    kf3ds_scene_free(a);
    kf3ds_scene_free(b);
    free(out);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_samples_round_trip),
        support_unit_test(test_corpus_round_trip),
        support_unit_test(test_lossless_and_repaired),
        support_unit_test(test_save_options),
        support_unit_test(test_counts_that_do_not_fit),
        support_unit_test(test_save_allocator),
        support_unit_test(test_mirrored_without_source),
    };
    return support_run_tests(tests, NULL, NULL);
}
