/* kf3ds_utf8_char (include/kf3ds.h): which bytes start a valid UTF-8
 * sequence, by hand from the encoding's table (RFC 3629): the shortest form
 * only, no surrogates, nothing beyond U+10FFFF, never a read past `left`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "kf3ds.h"
#include "support.h"

/* The length kf3ds_utf8_char gives for the whole of s (its code point into
 * *cp, which is left alone when the result is 0). */
static size_t len_of(const char *s, uint32_t *cp)
{
    return kf3ds_utf8_char(s, strlen(s), cp);
}

static void test_valid(void **state)
{
    uint32_t cp = 0;
    (void)state;
    assert_int_equal(len_of("A", &cp), 1);
    assert_int_equal(cp, 0x41);
    assert_int_equal(len_of("\xC2\x80", &cp), 2); /* the first two-byte one */
    assert_int_equal(cp, 0x80);
    assert_int_equal(len_of("\xC3\xA9", &cp), 2); /* é */
    assert_int_equal(cp, 0xE9);
    assert_int_equal(len_of("\xDF\xBF", &cp), 2);
    assert_int_equal(cp, 0x7FF);
    assert_int_equal(len_of("\xE0\xA0\x80", &cp), 3);
    assert_int_equal(cp, 0x800);
    assert_int_equal(len_of("\xE2\x82\xAC", &cp), 3); /* € */
    assert_int_equal(cp, 0x20AC);
    assert_int_equal(len_of("\xED\x9F\xBF", &cp), 3); /* just below the surrogates */
    assert_int_equal(cp, 0xD7FF);
    assert_int_equal(len_of("\xEF\xBF\xBF", &cp), 3);
    assert_int_equal(cp, 0xFFFF);
    assert_int_equal(len_of("\xF0\x90\x80\x80", &cp), 4);
    assert_int_equal(cp, 0x10000);
    assert_int_equal(len_of("\xF4\x8F\xBF\xBF", &cp), 4);
    assert_int_equal(cp, 0x10FFFF);
    /* only the first sequence counts */
    assert_int_equal(len_of("\xC3\xA9xyz", &cp), 2);
    assert_int_equal(kf3ds_utf8_char("\xE2\x82\xAC", 3, NULL), 3);
}

static void test_invalid(void **state)
{
    uint32_t cp = 7;
    (void)state;
    assert_int_equal(len_of("\x80", &cp), 0);             /* a continuation byte */
    assert_int_equal(len_of("\xC0\xAF", &cp), 0);         /* overlong '/' */
    assert_int_equal(len_of("\xC1\xBF", &cp), 0);         /* overlong */
    assert_int_equal(len_of("\xE0\x9F\xBF", &cp), 0);     /* overlong U+07FF */
    assert_int_equal(len_of("\xF0\x8F\xBF\xBF", &cp), 0); /* overlong U+FFFF */
    assert_int_equal(len_of("\xED\xA0\x80", &cp), 0);     /* U+D800, a surrogate */
    assert_int_equal(len_of("\xED\xBF\xBF", &cp), 0);     /* U+DFFF */
    assert_int_equal(len_of("\xF4\x90\x80\x80", &cp), 0); /* U+110000 */
    assert_int_equal(len_of("\xF5\x80\x80\x80", &cp), 0);
    assert_int_equal(len_of("\xFF", &cp), 0);
    assert_int_equal(len_of("\xC3(", &cp), 0);            /* no continuation */
    assert_int_equal(len_of("\xE2\x82(", &cp), 0);
    assert_int_equal(cp, 7);
    /* cut short by `left`: the bytes beyond are never read */
    assert_int_equal(kf3ds_utf8_char("\xE2\x82\xAC", 2, &cp), 0);
    assert_int_equal(kf3ds_utf8_char("\xC3\xA9", 1, &cp), 0);
    assert_int_equal(kf3ds_utf8_char("A", 0, &cp), 0);
    assert_int_equal(kf3ds_utf8_char(NULL, 4, &cp), 0);
    assert_int_equal(cp, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_valid),
        support_unit_test(test_invalid),
    };
    return support_run_tests(tests, NULL, NULL);
}
