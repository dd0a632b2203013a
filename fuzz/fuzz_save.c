/* libFuzzer target: any input that loads is saved, reloaded and compared
 * (docs/writer.md).
 *
 * Oracles beyond the sanitizers (abort() = a finding), for a scene loaded
 * with KF3DS_LOAD_KEEP_SOURCE and saved with KF3DS_SAVE_REPAIR (what
 * `kf3ds rewrite` does):
 *  - saving succeeds (a loaded scene always fits the format);
 *  - the saved file loads without an error and gives the same scene, field
 *    by field and bit for bit, and the same evaluation at several frames
 *    (tests/support_compare.c);
 *  - saving that scene again gives the same bytes (a fixed point);
 *  - the output is bounded by a small multiple of the input;
 *  - saving lossless (no flags) succeeds and loads too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "../tests/support.h"

static void finding(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_save: %s%s%s\n", what, detail && *detail ? ": " : "",
            detail ? detail : "");
    abort();
}

static const double frames[] = { -3, 0, 0.5, 7.25, 33, 100 };

static void *save(const kf3ds_scene *s, unsigned flags, size_t *n)
{
    kf3ds_save_options o;
    kf3ds_diag err;
    void *bytes = NULL;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    if (kf3ds_save_memory(s, &o, &bytes, n, &err) != KF3DS_OK)
        finding("saving a loaded scene failed", err.message);
    return bytes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kf3ds_load_options lo;
    kf3ds_diag err;
    kf3ds_scene *a, *b, *c;
    void *first, *second, *lossless;
    size_t n1, n2, n3;
    char what[300];

    memset(&lo, 0, sizeof lo);
    lo.flags = KF3DS_LOAD_KEEP_SOURCE;
    a = kf3ds_load_memory(data, size, &lo, &err);
    if (!a)
        return 0;
    first = save(a, KF3DS_SAVE_REPAIR, &n1);
    if (n1 > 16 * size + 4096)
        finding("the rewrite is out of proportion to the input", NULL);
    b = kf3ds_load_memory(first, n1, &lo, &err);
    if (!b || err.code != KF3DS_OK)
        finding("the rewrite does not load cleanly", err.message);
    if (support_scene_diff(a, b, SUPPORT_DIFF_REPAIRED, what, sizeof what))
        finding("the rewrite gives another scene", what);
    if (support_eval_diff(a, b, frames, sizeof frames / sizeof frames[0], what, sizeof what))
        finding("the rewrite evaluates differently", what);
    second = save(b, KF3DS_SAVE_REPAIR, &n2);
    if (n1 != n2 || memcmp(first, second, n1) != 0)
        finding("save -> load -> save is not a fixed point", NULL);
    lossless = save(a, 0, &n3);
    c = kf3ds_load_memory(lossless, n3, NULL, &err);
    if (!c)
        finding("the lossless save does not load", err.message);
    kf3ds_scene_free(c);
    kf3ds_save_free(lossless, NULL);
    kf3ds_save_free(second, NULL);
    kf3ds_save_free(first, NULL);
    kf3ds_scene_free(b);
    kf3ds_scene_free(a);
    return 0;
}
