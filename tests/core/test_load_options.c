/* The load options and what the loader says: allocator hooks (both, neither,
 * or one of the two, which is refused), each status code's severity and
 * text, the severity of every recorded diagnostic, the node limit reported
 * first by the filling pass, the stable order of unsorted keys, and the
 * library's version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kf3ds.h"
#include "support.h"
#include "support_w3ds.h"

/* A small valid file: one object node with a position key. */
static void write_one_node(w3ds *w)
{
    const float pos[3] = { 1, 2, 3 };
    support_file_begin(w, KF3DS_CHUNK_KFDATA);
    support_node(w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0xFFFF, pos);
    support_end_all(w);
}

/* Loads w's bytes with `o`, keeping the writer's buffer for further loads. */
static kf3ds_scene *load_bytes(const w3ds *w, const kf3ds_load_options *o, kf3ds_diag *err)
{
    assert_false(w->failed);
    return kf3ds_load_memory(w->buf, w->len, o, err);
}

/* Loads w's bytes (from `path` when not NULL) with the counting allocator's
 * hooks but one: refused before anything is allocated, not replaced by the
 * default allocator. */
static void expect_refused(const w3ds *w, const char *path, int drop_free)
{
    counting c;
    kf3ds_load_options o;
    kf3ds_diag err;
    counting_reset(&c, -1);
    o = counting_options(&c);
    if (drop_free)
        o.allocator.free_fn = NULL;
    else
        o.allocator.malloc_fn = NULL;
    memset(&err, 0x5A, sizeof err);
    assert_null(path ? kf3ds_load_file(path, &o, &err) : load_bytes(w, &o, &err));
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_string_equal(err.chunk_name, "");
    assert_non_null(strstr(err.message, "malloc_fn and free_fn"));
    assert_int_equal(c.calls, 0);
}

/* malloc_fn without free_fn, or free_fn without malloc_fn, from memory and
 * through kf3ds_load_file. */
static void test_partial_hooks_refused(void **state)
{
    char path[512];
    w3ds w;
    (void)state;
    write_one_node(&w);
    expect_refused(&w, NULL, 1);
    expect_refused(&w, NULL, 0);
    assert_int_equal(support_tmpdir_make("kf3ds-load-options-"), 0);
    support_tmp_path(path, sizeof path, "one.3ds");
    support_write_file(path, w.buf, w.len);
    expect_refused(&w, path, 1);
    expect_refused(&w, path, 0);
    support_tmpdir_remove();
    w3ds_free(&w);
}

/* Both hooks: every block comes from them and goes back. Neither (a user
 * pointer alone does not count as a hook): the default allocator. */
static void test_whole_or_no_hooks(void **state)
{
    counting c;
    kf3ds_load_options o;
    kf3ds_diag err;
    kf3ds_scene *s;
    w3ds w;
    (void)state;
    write_one_node(&w);

    counting_reset(&c, -1);
    o = counting_options(&c);
    s = load_bytes(&w, &o, &err);
    assert_non_null(s);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(s->num_nodes, 1);
    assert_true(c.calls >= 1);
    assert_true(c.live >= 1);
    counting_free_scene(s, &c);

    counting_reset(&c, -1);
    memset(&o, 0, sizeof o);
    o.allocator.user = &c;
    s = load_bytes(&w, &o, &err);
    assert_non_null(s);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(c.calls, 0);
    kf3ds_scene_free(s);

    s = load_bytes(&w, NULL, NULL); /* no options at all */
    assert_non_null(s);
    assert_int_equal(s->num_nodes, 1);
    kf3ds_scene_free(s);
    w3ds_free(&w);
}

/* A memory limit below what the scene needs: NULL, KF3DS_ERR_NOMEM, and every
 * block the arena took is back. */
static void test_memory_limit_refused(void **state)
{
    counting c;
    kf3ds_load_options o;
    kf3ds_diag err;
    w3ds w;
    (void)state;
    write_one_node(&w);
    counting_reset(&c, -1);
    o = counting_options(&c);
    o.limits.max_memory = 256;
    assert_null(load_bytes(&w, &o, &err));
    assert_int_equal(err.code, KF3DS_ERR_NOMEM);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_true(c.peak <= 256);
    assert_int_equal(c.live, 0);
    w3ds_free(&w);
}

/* Every code's severity and text, as include/kf3ds.h states them. */
static void test_status_severity_and_text(void **state)
{
    static const struct {
        kf3ds_status code;
        kf3ds_severity severity;
        const char *text;
    } want[] = {
        { KF3DS_OK, KF3DS_WARNING, "ok" },
        { KF3DS_ERR_ARGUMENT, KF3DS_ERROR, "invalid argument" },
        { KF3DS_ERR_IO, KF3DS_ERROR, "i/o error" },
        { KF3DS_ERR_NOMEM, KF3DS_ERROR, "out of memory" },
        { KF3DS_ERR_NOT_3DS, KF3DS_ERROR, "not a 3DS file" },
        { KF3DS_ERR_CHUNK, KF3DS_ERROR, "bad chunk header" },
        { KF3DS_ERR_TRUNCATED, KF3DS_ERROR, "truncated data" },
        { KF3DS_ERR_LIMIT, KF3DS_ERROR, "limit exceeded" },
        { KF3DS_WARN_OVERRUN, KF3DS_WARNING, "chunk overrun" },
        { KF3DS_WARN_UNSORTED, KF3DS_WARNING, "unsorted keys" },
        { KF3DS_WARN_PARENT, KF3DS_WARNING, "bad parent" },
        { KF3DS_WARN_REFERENCE, KF3DS_WARNING, "unresolved name" },
        { KF3DS_WARN_VALUE, KF3DS_WARNING, "odd value" },
        { KF3DS_WARN_TRAILING, KF3DS_WARNING, "stray bytes" },
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        support_set_what("status %d", (int)want[i].code);
        assert_int_equal(kf3ds_status_severity(want[i].code), want[i].severity);
        assert_string_equal(kf3ds_status_string(want[i].code), want[i].text);
    }
    /* the last code of the enum is the last in the table */
    assert_int_equal(KF3DS_WARN_TRAILING + 1, (int)(sizeof want / sizeof want[0]));
    /* outside the enum: an error, "unknown" */
    assert_int_equal(kf3ds_status_severity((kf3ds_status)99), KF3DS_ERROR);
    assert_int_equal(kf3ds_status_severity((kf3ds_status)-1), KF3DS_ERROR);
    assert_string_equal(kf3ds_status_string((kf3ds_status)99), "unknown");
}

/* Every diagnostic a load records carries its code's severity, and the
 * first error returned is the first error recorded. The file: a track of
 * keys out of order (a warning), an object node naming no mesh (a
 * warning), then a POS track whose key count runs beyond its chunk (an
 * error). */
static void test_recorded_severities(void **state)
{
    kf3ds_diag err;
    kf3ds_scene *s;
    uint32_t i;
    int errors = 0, warnings = 0;
    w3ds w;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "Box", 0xFFFF);
    support_track_begin(&w, KF3DS_CHUNK_SCL_TRACK_TAG, 0, 2);
    support_key_vec(&w, 10, NULL, 1, 1, 1);
    support_key_vec(&w, 0, NULL, 2, 2, 2);
    w3ds_end(&w);
    support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 5); /* says 5, holds 1 */
    support_key_vec(&w, 0, NULL, 1, 2, 3);
    support_end_all(&w);
    s = support_load_w3ds(&w, NULL, &err);
    assert_true(s->num_diags >= 3);
    for (i = 0; i < s->num_diags; i++) {
        const kf3ds_diag *d = &s->diags[i];
        support_set_what("diagnostic %u (%s)", (unsigned)i, d->message);
        assert_int_equal(d->severity, kf3ds_status_severity(d->code));
        if (d->severity == KF3DS_ERROR && errors++ == 0) {
            assert_int_equal(err.code, d->code);
            assert_int_equal(err.offset, d->offset);
            assert_string_equal(err.message, d->message);
        }
        warnings += d->severity == KF3DS_WARNING;
    }
    assert_int_equal(support_count_diags(s, KF3DS_WARN_UNSORTED), 1);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_REFERENCE), 1);
    assert_int_equal(support_count_diags(s, KF3DS_ERR_TRUNCATED), 1);
    assert_int_equal(errors, 1);
    assert_true(warnings >= 2);
    assert_int_equal(err.code, KF3DS_ERR_TRUNCATED);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_int_equal(err.chunk_id, KF3DS_CHUNK_POS_TRACK_TAG);
    assert_string_equal(err.chunk_name, "POS_TRACK_TAG");
    kf3ds_scene_free(s);
}

/* More node chunks than limits.max_nodes: the first nodes are kept and the
 * limit error, which only the counting pass can know, is the scene's first
 * diagnostic and the error returned. */
static void test_node_limit_reported_first(void **state)
{
    const float pos[3] = { 0, 0, 0 };
    kf3ds_load_options o;
    kf3ds_diag err;
    kf3ds_scene *s;
    w3ds w;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0xFFFF, pos);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0, pos);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "Nothing", 0, 1, pos); /* names no mesh */
    support_end_all(&w);
    memset(&o, 0, sizeof o);
    o.limits.max_nodes = 2;
    s = support_load_w3ds(&w, &o, &err);
    assert_int_equal(s->num_nodes, 2);
    assert_int_equal(s->nodes[1].parent, 0);
    assert_true(s->num_diags >= 1);
    assert_int_equal(s->diags[0].code, KF3DS_ERR_LIMIT);
    assert_int_equal(s->diags[0].severity, KF3DS_ERROR);
    assert_int_equal(s->diags[0].chunk_id, KF3DS_CHUNK_KFDATA);
    assert_string_equal(s->diags[0].message, "3 nodes exceed the limit of 2");
    assert_int_equal(err.code, KF3DS_ERR_LIMIT);
    assert_string_equal(err.message, s->diags[0].message);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_REFERENCE), 0); /* node 3 was not read */
    kf3ds_scene_free(s);

    /* at the limit: nothing to report */
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0xFFFF, pos);
    support_node(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, "$$$DUMMY", 0, 0, pos);
    support_end_all(&w);
    s = support_load_w3ds(&w, &o, &err);
    assert_int_equal(s->num_nodes, 2);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(s->num_diags, 0);
    kf3ds_scene_free(s);
}

/* Keys out of order are sorted by frame only: keys on one frame keep their
 * file order (a stable sort), over a track long enough for several merge
 * rounds. Key i is written at frame (i·7) mod 13 with value i. */
static void test_unsorted_keys_stable(void **state)
{
    enum { N = 300 };
    kf3ds_diag err;
    kf3ds_scene *s;
    const kf3ds_track *t;
    uint32_t i;
    w3ds w;
    (void)state;
    support_file_begin(&w, KF3DS_CHUNK_KFDATA);
    support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "$$$DUMMY", 0xFFFF);
    support_track_begin(&w, KF3DS_CHUNK_POS_TRACK_TAG, 0, N);
    for (i = 0; i < N; i++)
        support_key_vec(&w, (int32_t)((i * 7) % 13), NULL, (float)i, 0, 0);
    support_end_all(&w);
    s = support_load_w3ds(&w, NULL, &err);
    assert_int_equal(err.code, KF3DS_OK);
    assert_int_equal(support_count_diags(s, KF3DS_WARN_UNSORTED), 1);
    t = &s->nodes[0].tracks[KF3DS_TRACK_POS];
    assert_int_equal(t->num_keys, N);
    for (i = 0; i < N; i++) {
        uint32_t index = (uint32_t)t->keys[i].value[0];
        support_set_what("key %u", (unsigned)i);
        assert_int_equal((index * 7) % 13, t->keys[i].frame); /* its own frame */
        if (i > 0) {
            assert_true(t->keys[i - 1].frame <= t->keys[i].frame);
            if (t->keys[i - 1].frame == t->keys[i].frame)
                assert_true(t->keys[i - 1].value[0] < t->keys[i].value[0]); /* file order */
        }
    }
    kf3ds_scene_free(s);
}

static void test_version(void **state)
{
    char want[32];
    (void)state;
    assert_int_equal(kf3ds_version(), KF3DS_VERSION_NUMBER);
    assert_int_equal(KF3DS_VERSION_NUMBER, KF3DS_VERSION_MAJOR * 10000 +
                                               KF3DS_VERSION_MINOR * 100 + KF3DS_VERSION_PATCH);
    snprintf(want, sizeof want, "%d.%d.%d", KF3DS_VERSION_MAJOR, KF3DS_VERSION_MINOR,
             KF3DS_VERSION_PATCH);
    assert_string_equal(KF3DS_VERSION_STRING, want);
    assert_string_equal(kf3ds_version_string(), want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_hooks_refused),
        cmocka_unit_test(test_whole_or_no_hooks),
        cmocka_unit_test(test_memory_limit_refused),
        support_unit_test(test_status_severity_and_text),
        support_unit_test(test_recorded_severities),
        cmocka_unit_test(test_node_limit_reported_first),
        support_unit_test(test_unsorted_keys_stable),
        cmocka_unit_test(test_version),
    };
    return support_run_tests(tests, NULL, NULL);
}
