/* Every input the fuzzers found (tests/fuzz-regressions/, each minimised by
 * libFuzzer from the project's own seeds and mutations; see
 * tests/fuzz-regressions/README.md for what each one broke) goes through what
 * the fuzz targets do: load with a counting allocator (memory bound, no leak),
 * then fuzz_load's own oracles (support_exercise_scene: the scene invariants,
 * evaluation of every node at finite, fractional, negative, huge and NaN
 * frames with finite matrices, placed vertices and camera views, 32×24
 * renders with every shading and overlay), and
 * `kf3ds dump` in text and JSON through the command ($KF3DS_TOOL), which
 * must exit 0 or 1 without a sanitizer report. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kf3ds.h"
#include "support.h"

/* A broken oracle fails the test (support_unit_test names the input). */
static void oracle_failed(const char *check, double value)
{
    fail_msg("check failed: %s (%g)", check, value);
}

/* `kf3ds dump FILE [--json]`: exit 0 or 1, no signal, no sanitizer report
 * (the sanitizers' exit codes are moved off 1 for the run). */
static void dump_with_tool(const char *path, int json)
{
    char cmd[2048], out[256];
    FILE *f;
    long len = 0;
    int status;
    snprintf(out, sizeof out, "build/fuzz-regression-dump.%ld.out", (long)json);
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=\"$ASAN_OPTIONS:exitcode=99\" UBSAN_OPTIONS=\"$UBSAN_OPTIONS:exitcode=98\" "
             "'%s' dump '%s'%s > '%s' 2>/dev/null",
             support_tool(), path, json ? " --json" : "", out);
    status = system(cmd);
    assert_true(status != -1 && WIFEXITED(status));
    assert_in_range(WEXITSTATUS(status), 0, 1);
    f = fopen(out, "rb");
    assert_non_null(f);
    if (fseek(f, 0, SEEK_END) == 0)
        len = ftell(f);
    if (json && len > 0) {
        int first, last;
        fseek(f, 0, SEEK_SET);
        first = fgetc(f);
        fseek(f, -2, SEEK_END);
        last = fgetc(f);
        assert_int_equal(first, '[');
        assert_int_equal(last, ']');
    }
    fclose(f);
    remove(out);
}

static const char *regression_dir(void)
{
    const char *env = getenv("KF3DS_FUZZ_REGRESSIONS");
    return env ? env : "tests/fuzz-regressions";
}

static int is_input(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".3ds") == 0;
}

/* One input: loaded, exercised and dumped; *user counts the inputs. */
static void replay(const char *path, const char *name, void *user)
{
    unsigned char *data;
    size_t size = 0;
    counting c;
    kf3ds_load_options o;
    kf3ds_diag err;
    kf3ds_scene *s;
    if (!is_input(name))
        return;
    support_set_what("%s", path);
    data = support_read_file(path, &size);
    assert_non_null(data);
    assert_in_range(size, 0, 65536); /* small files only */
    counting_reset(&c, -1); /* the counting allocator of support.c */
    o = counting_options(&c);
    s = kf3ds_load_memory(data, size, &o, &err);
    assert_true(c.peak <= SUPPORT_BOUND_PER_BYTE * size + SUPPORT_BOUND_FIXED);
    if (s) {
        /* as fuzz_load does, with every vertex and every render variant */
        support_exercise_scene(s, UINT32_MAX, 0, 6, oracle_failed);
        kf3ds_scene_free(s);
    } else {
        assert_int_not_equal(err.code, KF3DS_OK);
    }
    assert_int_equal(c.live, 0);
    assert_int_equal(c.bytes, 0);
    free(data);
    dump_with_tool(path, 0);
    dump_with_tool(path, 1);
    ++*(int *)user;
}

static void test_regressions(void **state)
{
    const char *dir = regression_dir();
    int files = 0;
    (void)state;
    support_set_what("%s", dir);
    assert_true(support_dir_each(dir, replay, &files) >= 0);
    support_set_what("%s", dir);
    assert_true(files > 0);
    printf("  %d regression inputs\n", files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_regressions),
    };
    return support_run_tests(tests, NULL, NULL);
}
