/* Random damage (docs/robustness.md, 'The guarantees'): 20,000 copies of the
 * rich scene with one to four bytes set to random values, from a fixed seed
 * so that a failure repeats. Each load gives a clean error or a scene that
 * keeps the invariants of support_check_scene, and returns every block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

static void test_byte_flips(void **state)
{
    size_t size, i;
    unsigned char *data = support_build_rich(&size);
    unsigned char *copy = (unsigned char *)malloc(size);
    uint32_t rng = 12345u;
    (void)state;
    assert_non_null(copy);
    for (i = 0; i < 20000; i++) {
        int k, flips;
        memcpy(copy, data, size);
        rng = rng * 1103515245u + 12345u;
        flips = 1 + (int)((rng >> 16) % 4);
        for (k = 0; k < flips; k++) {
            size_t at;
            rng = rng * 1103515245u + 12345u;
            at = (rng >> 8) % size;
            rng = rng * 1103515245u + 12345u;
            copy[at] = (unsigned char)(rng >> 16);
        }
        support_set_what("rich scene with random damage #%lu", (unsigned long)i);
        support_load_and_check(copy, size, NULL, SUPPORT_CHECK_LIGHT, NULL, NULL, NULL);
    }
    free(copy);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_byte_flips),
    };
    return support_run_tests(tests, NULL, NULL);
}
