/* kf3ds rewrite (build/kf3ds, or $KF3DS_TOOL): on the samples and every
 * corpus file that loads without diagnostics, `kf3ds dump --full` of the
 * rewrite is the original's apart from offsets and lengths, and `kf3ds eval
 * --json --verts` at a spread of frames is identical; a file with warnings
 * comes back without any; damaged files give a clean file and warning
 * lines; the options and the exit status. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define EVAL_FRAMES "--frame", "-3", "--frame", "0", "--frame", "0.5", "--frame", "7.25", \
    "--frame", "13", "--frame", "33", "--frame", "50", "--frame", "61.5", "--frame", "100", \
    "--frame", "333.3", "--frame", "2000"

static char out_path[1024];

/* The dump with each line's offset and every "len N" taken out. */
static char *normalise_dump(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1), *o = out;
    assert_non_null(out);
    while (*s) {
        const char *eol = strchr(s, '\n');
        const char *p = s, *end = eol ? eol : s + strlen(s);
        while (p < end && *p == ' ')
            *o++ = *p++;
        if (end - p > 2 && p[0] == '0' && p[1] == 'x') { /* the offset column */
            p += 2;
            while (p < end && *p != ' ')
                p++;
            if (p < end)
                p++;
        }
        while (p < end) {
            if (end - p > 5 && memcmp(p, " len ", 5) == 0 && p[5] >= '0' && p[5] <= '9') {
                p += 5;
                while (p < end && *p >= '0' && *p <= '9')
                    p++;
                memcpy(o, " len", 4);
                o += 4;
                continue;
            }
            *o++ = *p++;
        }
        *o++ = '\n';
        s = eol ? eol + 1 : end;
    }
    *o = '\0';
    return out;
}

/* The first line that differs, for the message. */
static void first_difference(const char *a, const char *b, char *buf, size_t cap)
{
    size_t line = 1;
    while (*a && *a == *b) {
        if (*a == '\n')
            line++;
        a++;
        b++;
    }
    snprintf(buf, cap, "line %lu: '%.80s' vs '%.80s'", (unsigned long)line, a, b);
}

typedef struct tally {
    int files, rewritten, clean, dump_identical, eval_identical, repaired;
} tally;

static void rewrite_one(const char *path, const char *name, void *user)
{
    tally *t = (tally *)user;
    support_run r, d1, d2, e1, e2, i2;
    kf3ds_diag err;
    kf3ds_scene *s;
    int clean;
    char why[300];
    if (!support_is_3ds_name(name))
        return;
    t->files++;
    support_set_what("%s", name);
    s = kf3ds_load_file(path, NULL, &err);
    if (!s) {
        r = support_run_tool(NULL, "rewrite", path, "-o", out_path, NULL);
        support_expect_status(&r, 1); /* nothing to rewrite */
        support_run_free(&r);
        return;
    }
    clean = s->num_diags == 0 && err.code == KF3DS_OK;
    kf3ds_scene_free(s);
    r = support_run_tool(NULL, "rewrite", path, "-o", out_path, "-q", NULL);
    support_expect_status(&r, 0);
    support_check_error_lines(r.err, path, 1);
    assert_int_equal(r.out_len, 0);
    support_run_free(&r);
    t->rewritten++;
    /* the rewrite loads without a diagnostic */
    i2 = support_run_tool(NULL, "info", out_path, NULL);
    support_expect_status(&i2, 0);
    if (i2.err_len)
        fail_msg("%s: the rewrite has diagnostics: %s", name, i2.err);
    support_run_free(&i2);
    if (!clean) {
        t->repaired++;
        return;
    }
    t->clean++;
    d1 = support_run_tool(NULL, "dump", "--full", path, NULL);
    d2 = support_run_tool(NULL, "dump", "--full", out_path, NULL);
    support_expect_status(&d1, 0);
    support_expect_status(&d2, 0);
    {
        char *a = normalise_dump(d1.out), *b = normalise_dump(d2.out);
        if (strcmp(a, b) != 0) {
            first_difference(a, b, why, sizeof why);
            fail_msg("%s: dump of the rewrite differs: %s", name, why);
        }
        free(a);
        free(b);
    }
    t->dump_identical++;
    e1 = support_run_tool(NULL, "eval", path, EVAL_FRAMES, "--json", "--verts", NULL);
    e2 = support_run_tool(NULL, "eval", out_path, EVAL_FRAMES, "--json", "--verts", NULL);
    support_expect_status(&e1, 0);
    support_expect_status(&e2, 0);
    {
        /* after the first line, which names the file */
        const char *a = strchr(e1.out, '\n'), *b = strchr(e2.out, '\n');
        assert_non_null(a);
        assert_non_null(b);
        if (strcmp(a, b) != 0) {
            first_difference(a, b, why, sizeof why);
            fail_msg("%s: eval of the rewrite differs: %s", name, why);
        }
    }
    t->eval_identical++;
    support_run_free(&d1);
    support_run_free(&d2);
    support_run_free(&e1);
    support_run_free(&e2);
}

static void test_rewrite_samples(void **state)
{
    tally t;
    (void)state;
    memset(&t, 0, sizeof t);
    support_dir_each("data", rewrite_one, &t);
    assert_int_equal(t.files, 4);
    assert_int_equal(t.clean, 3);    /* orrery, arm, textured */
    assert_int_equal(t.repaired, 1); /* edge: an unknown parent and unsorted keys */
    assert_int_equal(t.dump_identical, 3);
    assert_int_equal(t.eval_identical, 3);
}

static void test_rewrite_corpus(void **state)
{
    tally t;
    (void)state;
    memset(&t, 0, sizeof t);
    if (support_corpus_each(rewrite_one, &t) < 0)
        skip();
    print_message("rewrite: %d corpus .3ds files, %d rewritten (%d clean, %d with repairs); "
                  "dump identical %d, eval identical %d of the clean ones\n",
                  t.files, t.rewritten, t.clean, t.repaired, t.dump_identical, t.eval_identical);
    assert_int_equal(t.dump_identical, t.clean);
    assert_int_equal(t.eval_identical, t.clean);
}

/* A damaged file: exit 0, one warning line per repair, a clean output. */
static void test_rewrite_damaged(void **state)
{
    size_t size;
    unsigned char *rich = support_build_rich(&size);
    char in[1024];
    support_run r;
    (void)state;
    support_tmp_path(in, sizeof in, "cut.3ds");
    support_put_u32(rich + 2, (uint32_t)size); /* the root length still says the whole file */
    support_write_file(in, rich, size * 2 / 3);
    r = support_run_tool(NULL, "rewrite", in, "-o", out_path, NULL);
    support_expect_status(&r, 0);
    assert_true(support_check_error_lines(r.err, in, 1) == 0); /* warnings only */
    assert_non_null(strstr(r.err, "kf3ds: warning: "));
    assert_non_null(strstr(r.out, "wrote "));
    support_run_free(&r);
    r = support_run_tool(NULL, "info", out_path, NULL);
    support_expect_status(&r, 0);
    assert_int_equal(r.err_len, 0);
    assert_non_null(strstr(r.out, "diagnostics: 0 errors, 0 warnings"));
    support_run_free(&r);
    free(rich);
}

static void test_rewrite_options(void **state)
{
    support_run r;
    (void)state;
    r = support_run_tool(NULL, "rewrite", "data/arm.3ds", "-o", out_path, "--frames", "10:40",
                         "-q", NULL);
    support_expect_exit(r, 0);
    r = support_run_tool(NULL, "info", out_path, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "segment 10..40"));
    support_run_free(&r);

    r = support_run_tool(NULL, "rewrite", "data/arm.3ds", "-o", out_path, "--no-keyframer",
                         "--drop-unknown", "--canonical", "-q", NULL);
    support_expect_exit(r, 0);
    r = support_run_tool(NULL, "info", out_path, NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.out, "meshes: 7"));
    assert_non_null(strstr(r.out, "keyframer: none"));
    support_run_free(&r);

    r = support_run_tool(NULL, "rewrite", "data/arm.3ds", "-o", "-", NULL); /* standard output */
    support_expect_status(&r, 0);
    assert_int_equal(r.out_len, 5043); /* data/arm.3ds, as kf3ds wrote it: the same bytes */
    assert_int_equal(r.out[0], 0x4D);
    support_run_free(&r);

    support_expect_exit(support_run_tool(NULL, "rewrite", "data/arm.3ds", NULL), 2);
    support_expect_exit(support_run_tool(NULL, "rewrite", "data/arm.3ds", "-o", out_path,
                                         "--frames", "40:10", NULL), 2);
    support_expect_exit(support_run_tool(NULL, "rewrite", "data/arm.3ds", "-o", out_path,
                                         "--bogus", NULL), 2);
    support_expect_exit(support_run_tool(NULL, "rewrite", "no-such-file.3ds", "-o", out_path,
                                         NULL), 1);
    support_expect_exit(support_run_tool(NULL, "rewrite", "data/arm.3ds", "-o",
                                         "/no-such-dir/out.3ds", NULL), 1);
}

static int setup(void **state)
{
    (void)state;
    if (support_tmpdir_make("kf3ds_test_rewrite_") != 0)
        return -1;
    support_tmp_path(out_path, sizeof out_path, "out.3ds");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    support_tmpdir_remove();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_rewrite_samples),
        support_unit_test(test_rewrite_corpus),
        support_unit_test(test_rewrite_damaged),
        support_unit_test(test_rewrite_options),
    };
    return support_run_tests(tests, setup, teardown);
}
