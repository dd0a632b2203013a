/* An allocator that fails (docs/robustness.md, 'The guarantees'): for every
 * n up to the number of allocations a load makes, the caller's allocator
 * refuses every call after the first n. Loading gives KF3DS_ERR_NOMEM or a
 * scene that keeps the invariants, and every block comes back, on the rich
 * and big scenes and on the strange files (non-finite values, extreme values,
 * unsorted keys to sort). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

static void fail_after_each(const char *what, const unsigned char *data, size_t size)
{
    counting c;
    kf3ds_diag err;
    kf3ds_scene *s;
    long total, n;
    support_set_what("%s: counting allocations", what);
    s = support_load_counted(data, size, &c, -1, NULL, &err);
    assert_non_null(s);
    assert_int_equal(err.code, KF3DS_OK);
    total = c.calls;
    counting_free_scene(s, &c);
    assert_true(total >= 1);
    for (n = 0; n <= total; n++) {
        support_set_what("%s: allocator fails after %ld of %ld allocations", what, n, total);
        memset(&err, 0x5A, sizeof err);
        s = support_load_counted(data, size, &c, n, NULL, &err);
        if (s) {
            support_check_scene(s, &err, SUPPORT_CHECK_LIGHT);
        } else {
            assert_int_equal(err.code, KF3DS_ERR_NOMEM);
            assert_int_equal(err.severity, KF3DS_ERROR);
        }
        counting_free_scene(s, &c);
        if (n >= total)
            assert_non_null(s);
        if (n == 0)
            assert_null(s);
    }
}

static void sweep_built(const char *what, unsigned char *(*build)(size_t *size))
{
    size_t size;
    unsigned char *data = build(&size);
    fail_after_each(what, data, size);
    free(data);
}

static void sweep_written(const char *what, w3ds *w)
{
    assert_false(w->failed);
    fail_after_each(what, w->buf, w->len);
    w3ds_free(w);
}

static void test_failing_allocator_rich(void **state)
{
    (void)state;
    sweep_built("rich scene", support_build_rich);
}

static void test_failing_allocator_big(void **state)
{
    (void)state;
    sweep_built("big scene", support_build_big);
}

static void test_failing_allocator_strange(void **state)
{
    w3ds w;
    (void)state;
    w3ds_init(&w);
    support_write_nonfinite(&w, NAN);
    sweep_written("NaN file", &w);
    w3ds_init(&w);
    support_write_extreme(&w, 1e30f, 40);
    sweep_written("extreme file", &w);
    w3ds_init(&w);
    support_write_dense(&w, SUPPORT_DENSE_UNSORTED_KEYS, 300000);
    sweep_written("unsorted keys", &w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_failing_allocator_rich),
        support_unit_test(test_failing_allocator_big),
        support_unit_test(test_failing_allocator_strange),
    };
    return support_run_tests(tests, NULL, NULL);
}
