/* Input that is not a 3DS file at all (docs/robustness.md, 'The
 * guarantees'): empty and NULL buffers, the first bytes of a root header,
 * text files (KF3DS_ERR_NOT_3DS naming the id the text spells), and paths
 * that are missing, /dev/null or a folder. The smallest valid file, a bare
 * 6-byte root, loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

static void test_empty_and_null(void **state)
{
    /* the first bytes of M3DMAGIC with length 6, and the whole of it */
    static const unsigned char bare[6] = { 0x4D, 0x4D, 0x06, 0x00, 0x00, 0x00 };
    kf3ds_diag err;
    kf3ds_scene *s;
    unsigned char *one = (unsigned char *)malloc(1);
    size_t n;
    (void)state;
    assert_non_null(one);
    support_set_what("empty buffer");
    memset(&err, 0x5A, sizeof err);
    s = kf3ds_load_memory(one, 0, NULL, &err);
    assert_null(s);
    assert_int_equal(err.code, KF3DS_ERR_NOT_3DS);
    assert_int_equal(err.severity, KF3DS_ERROR);
    assert_non_null(err.chunk_name);
    assert_non_null(memchr(err.message, 0, sizeof err.message));

    support_set_what("NULL buffer with a size");
    memset(&err, 0x5A, sizeof err);
    s = kf3ds_load_memory(NULL, 100, NULL, &err);
    assert_null(s);
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);
    assert_int_equal(err.severity, KF3DS_ERROR);

    support_set_what("NULL buffer, size 0");
    memset(&err, 0x5A, sizeof err);
    s = kf3ds_load_memory(NULL, 0, NULL, &err);
    assert_null(s);
    assert_true(err.code == KF3DS_ERR_ARGUMENT || err.code == KF3DS_ERR_NOT_3DS);

    support_set_what("NULL error pointer");
    assert_null(kf3ds_load_memory(NULL, 0, NULL, NULL));
    assert_null(kf3ds_load_memory(one, 0, NULL, NULL));
    kf3ds_scene_free(NULL);
    free(one);

    for (n = 1; n <= 5; n++) { /* too short for a header */
        support_set_what("%lu bytes of a root header", (unsigned long)n);
        assert_false(support_load_and_check(bare, n, NULL, SUPPORT_CHECK_LIGHT, &err, NULL, NULL));
        assert_int_equal(err.code, KF3DS_ERR_NOT_3DS);
    }
    support_set_what("a bare 6-byte root");
    assert_true(support_load_and_check(bare, 6, NULL, SUPPORT_CHECK_FULL, &err, NULL, NULL));
    assert_int_equal(err.code, KF3DS_OK);
}

typedef struct text_ctx {
    const char *expect_id;
} text_ctx;

static void inspect_text(const kf3ds_scene *s, const kf3ds_diag *err, void *user)
{
    const text_ctx *t = (const text_ctx *)user;
    assert_null(s);
    assert_int_equal(err->code, KF3DS_ERR_NOT_3DS);
    if (!strstr(err->message, t->expect_id))
        fail_msg("message \"%s\" does not name the root id %s", err->message, t->expect_id);
}

static void test_text_files(void **state)
{
    static const char hello[] = "hello world\n";
    static const char lfs[] = "version https://git-lfs.github.com/spec/v1\n"
                              "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
                              "size 12345\n";
    static const char json[] = "{\"not\": \"a 3ds file\"}\n";
    text_ctx t;
    (void)state;
    support_set_what("\"hello world\\n\"");
    t.expect_id = "0x6568"; /* 'h' 'e' little-endian */
    assert_false(support_load_and_check((const unsigned char *)hello, sizeof hello - 1, NULL,
                                        SUPPORT_CHECK_LIGHT, NULL, inspect_text, &t));
    support_set_what("a Git LFS pointer");
    t.expect_id = "0x6576"; /* 'v' 'e' */
    assert_false(support_load_and_check((const unsigned char *)lfs, sizeof lfs - 1, NULL,
                                        SUPPORT_CHECK_LIGHT, NULL, inspect_text, &t));
    support_set_what("a JSON text");
    t.expect_id = "0x227B"; /* '{' '"' */
    assert_false(support_load_and_check((const unsigned char *)json, sizeof json - 1, NULL,
                                        SUPPORT_CHECK_LIGHT, NULL, inspect_text, &t));
}

/* kf3ds_load_file with paths that are not readable .3ds files. */
static void test_load_file_errors(void **state)
{
    kf3ds_diag err;
    (void)state;
    support_set_what("kf3ds_load_file(NULL)");
    assert_null(kf3ds_load_file(NULL, NULL, &err));
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);
    support_set_what("kf3ds_load_file of a missing file");
    assert_null(kf3ds_load_file("tests/no/such/file.3ds", NULL, &err));
    assert_int_equal(err.code, KF3DS_ERR_IO);
    assert_non_null(err.chunk_name);
    support_set_what("kf3ds_load_file of /dev/null");
    assert_null(kf3ds_load_file("/dev/null", NULL, &err));
    assert_int_equal(err.code, KF3DS_ERR_NOT_3DS);
    /* a directory: fopen succeeds on POSIX, its "size" is meaningless */
    support_set_what("kf3ds_load_file of a directory");
    assert_null(kf3ds_load_file(".", NULL, &err));
    assert_int_equal(err.code, KF3DS_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_empty_and_null),
        support_unit_test(test_text_files),
        support_unit_test(test_load_file_errors),
    };
    return support_run_tests(tests, NULL, NULL);
}
