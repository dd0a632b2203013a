/* The bake module, include/kf3ds_bake.h (src/bake/): the library call gives
 * the same bytes as `kf3ds bake` for every file of data/ and the corpus
 * under several option sets, the bytes read back with include/kf3ds_kfb.h,
 * a failing allocator gives KF3DS_ERR_NOMEM with every block given back, and
 * bad options, unknown node names, static models and values that do not fit
 * give the documented status and problem. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "kf3ds_bake.h"
#define KF3DS_KFB_IMPLEMENTATION
#define KF3DS_KFB_STATIC
#include "kf3ds_kfb.h"

/* One option set: the command's arguments after -o OUT.kfb and the same as
 * library options. */
typedef struct option_set {
    const char *name;
    const char *args[6];   /* up to NULL */
    unsigned flags;
    int frac_bits;
    int32_t frame_step;
    uint32_t frame_scale;
    int first_node;        /* --nodes with the scene's first node's name */
} option_set;

static const option_set sets[] = {
    { "float", { NULL }, 0, 0, 0, 0, 0 },
    { "fixed", { "--fixed", NULL }, KF3DS_BAKE_FIXED, 0, 0, 0, 0 },
    { "auto", { "--frac-bits", "auto", NULL }, 0, KF3DS_BAKE_FRAC_AUTO, 0, 0, 0 },
    { "whole", { "--frac-bits", "0", NULL }, 0, KF3DS_BAKE_FRAC_NONE, 0, 0, 0 },
    { "step", { "--step", "0.5", "--no-meshes", NULL }, KF3DS_BAKE_NO_MESHES, 0, 5, 10, 0 },
    { "nodes", { "--nodes", NULL }, KF3DS_BAKE_FIXED, 8, 3, 1, 1 },
};

typedef struct sweep {
    unsigned long files, bakes, refused;
} sweep;

/* The command's .kfb for `path` under set `k` (its exit status in *status). */
static unsigned char *command_bake(const char *path, const option_set *set, const char *node,
                                   size_t *size, int *status)
{
    const char *args[16];
    char out[1024], step[32];
    size_t n = 0, i;
    support_run r;
    unsigned char *data = NULL;
    support_tmp_path(out, sizeof out, "module.kfb");
    remove(out);
    args[n++] = "bake";
    args[n++] = path;
    args[n++] = "-o";
    args[n++] = out;
    args[n++] = "-q";
    for (i = 0; set->args[i]; i++)
        args[n++] = set->args[i];
    if (set->first_node) {
        args[n++] = node;
        args[n++] = "--frac-bits";
        args[n++] = "8";
        snprintf(step, sizeof step, "%ld", (long)set->frame_step);
        args[n++] = "--step";
        args[n++] = step;
    }
    args[n] = NULL;
    r = support_run_argv(support_tmpdir(), NULL, args);
    *status = r.status;
    if (r.status == 0) {
        data = support_read_file(out, size);
        assert_non_null(data);
    }
    support_run_free(&r);
    return data;
}

/* The bytes read back: the header's counts are the info's. */
static void read_back(const unsigned char *bytes, size_t size, const kf3ds_bake_info *info)
{
    kf3ds_kfb_file f;
    int st = kf3ds_kfb_open(&f, bytes, size);
    if (st != KF3DS_KFB_OK)
        fail_msg("%s at offset %lu", kf3ds_kfb_status_string(st), (unsigned long)f.error_offset);
    assert_int_equal(f.num_frames, info->num_frames);
    assert_int_equal(f.num_nodes, info->num_nodes);
    assert_int_equal(f.num_channels, info->num_channels);
    assert_int_equal(f.num_meshes, info->num_meshes);
    assert_int_equal(f.num_materials, info->num_materials);
    assert_int_equal((f.flags & KF3DS_KFB_FLAG_FIXED) != 0, info->fixed);
    assert_int_equal(f.frac_bits, info->frac_bits);
    assert_int_equal(f.frame_first, info->frame_first);
    assert_int_equal(f.frame_step, info->frame_step);
    assert_int_equal(f.frame_scale, info->frame_scale);
}

static void bake_and_compare(const char *path, const char *name, void *user)
{
    sweep *sw = user;
    char abs[4096];
    kf3ds_diag err;
    kf3ds_scene *s;
    size_t k;
    if (!support_is_3ds_name(name))
        return;
    if (path[0] == '/')
        snprintf(abs, sizeof abs, "%s", path);
    else if (!getcwd(abs, sizeof abs - strlen(path) - 2))
        fail_msg("%s: getcwd failed", path);
    else
        strcat(strcat(abs, "/"), path); /* the command runs in the suite's folder */
    s = kf3ds_load_file(abs, NULL, &err);
    if (!s || err.code != KF3DS_OK) { /* not sound: the command refuses it */
        kf3ds_scene_free(s);
        return;
    }
    sw->files++;
    for (k = 0; k < sizeof sets / sizeof *sets; k++) {
        const option_set *set = &sets[k];
        kf3ds_bake_options o;
        kf3ds_bake_info info;
        kf3ds_status st;
        unsigned char *bytes = NULL, *want;
        size_t size = 0, want_size = 0;
        const char *node = s->num_nodes && s->nodes[0].name ? s->nodes[0].name : "";
        int status;
        if (set->first_node && (!*node || strchr(node, ',')))
            continue;
        memset(&o, 0, sizeof o);
        o.flags = set->flags;
        o.frac_bits = set->frac_bits;
        o.frame_step = set->frame_step;
        o.frame_scale = set->frame_scale;
        if (set->first_node) {
            o.nodes = &node;
            o.num_nodes = 1;
        }
        snprintf(support_what, sizeof support_what, "%s, %s", name, set->name);
        st = kf3ds_bake(s, &o, &bytes, &size, &info, &err);
        want = command_bake(abs, set, node, &want_size, &status);
        sw->bakes++;
        if (st != KF3DS_OK) {
            assert_null(bytes);
            assert_int_equal(status, 1);
            assert_int_equal(err.code, st);
            assert_true(info.problem == KF3DS_BAKE_STATIC || info.problem == KF3DS_BAKE_RANGE);
            assert_int_equal(st, info.problem == KF3DS_BAKE_STATIC ? KF3DS_ERR_ARGUMENT
                                                                   : KF3DS_ERR_LIMIT);
            sw->refused++;
            continue;
        }
        assert_int_equal(status, 0);
        assert_int_equal(info.problem, KF3DS_BAKE_OK);
        assert_int_equal(size, want_size);
        assert_memory_equal(bytes, want, size);
        read_back(bytes, size, &info);
        kf3ds_bake_free(bytes, &o);
        free(want);
    }
    support_what[0] = '\0';
    kf3ds_scene_free(s);
}

static void test_data_files_match_command(void **state)
{
    sweep sw = { 0, 0, 0 };
    (void)state;
    assert_true(support_dir_each("data", bake_and_compare, &sw) >= 0);
    assert_true(sw.files >= 4);
    print_message("bake module: %lu data files, %lu bakes identical to the command's (%lu "
                  "refused by both)\n", sw.files, sw.bakes, sw.refused);
}

static void test_corpus_matches_command(void **state)
{
    sweep sw = { 0, 0, 0 };
    (void)state;
    if (support_corpus_each(bake_and_compare, &sw) < 0)
        skip();
    print_message("bake module: %lu corpus files, %lu bakes identical to the command's (%lu "
                  "refused by both)\n", sw.files, sw.bakes, sw.refused);
}

/* ---- memory ----------------------------------------------------------------- */

static void test_failing_allocator(void **state)
{
    kf3ds_scene *s = kf3ds_load_file("data/arm.3ds", NULL, NULL);
    counting c;
    long fail_after;
    int ok = 0;
    (void)state;
    assert_non_null(s);
    for (fail_after = 0; !ok; fail_after++) {
        kf3ds_load_options lo = counting_options(&c);
        kf3ds_bake_options o;
        kf3ds_bake_info info;
        kf3ds_diag err;
        unsigned char *bytes = (unsigned char *)&o;
        size_t size = 1;
        kf3ds_status st;
        assert_true(fail_after < 100000);
        memset(&o, 0, sizeof o);
        o.allocator = lo.allocator;
        o.flags = fail_after % 2 ? KF3DS_BAKE_FIXED : 0;
        counting_reset(&c, fail_after);
        st = kf3ds_bake(s, &o, &bytes, &size, &info, &err);
        if (st == KF3DS_OK) {
            ok = 1;
            assert_true(c.live > 0);
            read_back(bytes, size, &info);
            kf3ds_bake_free(bytes, &o);
        } else {
            assert_int_equal(st, KF3DS_ERR_NOMEM);
            assert_int_equal(err.code, KF3DS_ERR_NOMEM);
            assert_int_equal(info.problem, KF3DS_BAKE_NOMEM);
            assert_null(bytes);
            assert_int_equal(size, 0);
            assert_non_null(strstr(err.message, "out of memory"));
        }
        assert_int_equal(c.live, 0);
        assert_int_equal(c.bytes, 0);
    }
    assert_true(fail_after > 5);
    print_message("bake module: out of memory at each of the first %ld allocations handled\n",
                  fail_after - 1);
    kf3ds_scene_free(s);
}

/* ---- errors ------------------------------------------------------------------- */

static kf3ds_status bake_with(const kf3ds_scene *s, const kf3ds_bake_options *o,
                              kf3ds_bake_info *info, kf3ds_diag *err)
{
    unsigned char *bytes;
    size_t size;
    kf3ds_status st = kf3ds_bake(s, o, &bytes, &size, info, err);
    if (st == KF3DS_OK)
        kf3ds_bake_free(bytes, o);
    else
        assert_null(bytes);
    return st;
}

static void *only_malloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void test_bad_options(void **state)
{
    kf3ds_scene *s = kf3ds_load_file("data/arm.3ds", NULL, NULL);
    kf3ds_bake_options o;
    kf3ds_bake_info info;
    kf3ds_diag err;
    unsigned char *bytes;
    size_t size;
    const char *names[2] = { "Forearm", "NoSuchNode" };
    const char *null_name[1] = { NULL };
    (void)state;
    assert_non_null(s);

    /* NULL arguments */
    assert_int_equal(kf3ds_bake(NULL, NULL, &bytes, &size, &info, &err), KF3DS_ERR_ARGUMENT);
    assert_null(bytes);
    assert_int_equal(info.problem, KF3DS_BAKE_BAD_OPTION);
    assert_int_equal(err.code, KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_bake(s, NULL, NULL, &size, NULL, NULL), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_bake(s, NULL, &bytes, NULL, NULL, NULL), KF3DS_ERR_ARGUMENT);
    /* NULL options, info and error: every default */
    assert_int_equal(kf3ds_bake(s, NULL, &bytes, &size, NULL, NULL), KF3DS_OK);
    kf3ds_bake_free(bytes, NULL);

#define EXPECT(want_status, want_problem)                              \
    do {                                                               \
        assert_int_equal(bake_with(s, &o, &info, &err), want_status); \
        assert_int_equal(info.problem, want_problem);                  \
        assert_int_equal(err.code, want_status);                       \
        assert_true(err.message[0] != '\0');                          \
    } while (0)

    memset(&o, 0, sizeof o);
    o.allocator.malloc_fn = only_malloc; /* one hook without the other */
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    memset(&o, 0, sizeof o);
    o.flags = 0x80;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    memset(&o, 0, sizeof o);
    o.frac_bits = KF3DS_BAKE_MAX_FRAC_BITS + 1;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    o.frac_bits = -3;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    memset(&o, 0, sizeof o);
    o.frame_step = -1;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    o.frame_step = 1;
    o.frame_scale = 1000; /* thousandths of a frame */
    assert_int_equal(bake_with(s, &o, &info, &err), KF3DS_OK);
    o.frame_scale = 30;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    o.frame_scale = 10000000;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    memset(&o, 0, sizeof o);
    o.num_frames = 3;
    o.frame_first = INT32_MAX - 1; /* the last frame beyond 32 bits */
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    memset(&o, 0, sizeof o);
    o.num_nodes = 1; /* without names */
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);
    o.nodes = null_name;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_BAD_OPTION);

    /* a name that matches no node: the option's string back */
    memset(&o, 0, sizeof o);
    o.nodes = names;
    o.num_nodes = 2;
    EXPECT(KF3DS_ERR_ARGUMENT, KF3DS_BAKE_UNKNOWN_NODE);
    assert_ptr_equal(info.missing_node, names[1]);
    assert_non_null(strstr(err.message, "NoSuchNode"));
    o.num_nodes = 1;
    assert_int_equal(bake_with(s, &o, &info, &err), KF3DS_OK);
    assert_int_equal(info.num_nodes, 1);

    /* values that do not fit 4.28: the fraction bits that would */
    memset(&o, 0, sizeof o);
    o.frac_bits = KF3DS_BAKE_MAX_FRAC_BITS;
    EXPECT(KF3DS_ERR_LIMIT, KF3DS_BAKE_RANGE);
    assert_true(info.fixed);
    assert_true(info.frac_bits >= 0 && info.frac_bits < KF3DS_BAKE_MAX_FRAC_BITS);
    assert_true(info.largest * (double)(1L << info.frac_bits) < 2147483647.0);
    assert_true(info.largest * (double)(1L << KF3DS_BAKE_MAX_FRAC_BITS) > 2147483647.0 - 4.0);
    o.frac_bits = KF3DS_BAKE_FRAC_AUTO; /* auto takes those */
    {
        int want = info.frac_bits;
        assert_int_equal(bake_with(s, &o, &info, &err), KF3DS_OK);
        assert_int_equal(info.frac_bits, want);
        assert_int_equal(info.fixed, 1);
    }

    /* a static model: nothing to bake */
    {
        kf3ds_builder *b = kf3ds_builder_create(NULL);
        kf3ds_scene *empty;
        assert_non_null(b);
        empty = kf3ds_builder_finish(b, NULL);
        assert_non_null(empty);
        assert_int_equal(empty->num_nodes, 0);
        memset(&o, 0, sizeof o);
        assert_int_equal(bake_with(empty, &o, &info, &err), KF3DS_ERR_ARGUMENT);
        assert_int_equal(info.problem, KF3DS_BAKE_STATIC);
        kf3ds_scene_free(empty);
    }
#undef EXPECT
    kf3ds_scene_free(s);
}

/* The segment's default frames and explicit ones agree with the info. */
static void test_frames(void **state)
{
    kf3ds_scene *s = kf3ds_load_file("data/arm.3ds", NULL, NULL);
    kf3ds_bake_options o;
    kf3ds_bake_info info;
    unsigned char *bytes;
    size_t size;
    (void)state;
    assert_non_null(s);
    memset(&o, 0, sizeof o);
    assert_int_equal(kf3ds_bake(s, &o, &bytes, &size, &info, NULL), KF3DS_OK);
    assert_int_equal(info.frame_first, s->segment_start);
    assert_int_equal(info.frame_step, 1);
    assert_int_equal(info.frame_scale, 1);
    assert_int_equal(info.num_frames, (uint32_t)(s->segment_end - s->segment_start + 1));
    read_back(bytes, size, &info);
    kf3ds_bake_free(bytes, &o);
    o.frame_first = 25; /* 2.5, 2.75, ... 5 */
    o.frame_step = 25;
    o.frame_scale = 100;
    o.num_frames = 11;
    assert_int_equal(kf3ds_bake(s, &o, &bytes, &size, &info, NULL), KF3DS_OK);
    assert_int_equal(info.frame_first, 25);
    assert_int_equal(info.num_frames, 11);
    read_back(bytes, size, &info);
    kf3ds_bake_free(bytes, &o);
    kf3ds_scene_free(s);
}

/* ---- between baked frames ------------------------------------------------------ */

typedef struct steps_seen {
    int n;
    double step[16], worst[16];
    uint32_t frames[16];
} steps_seen;

static void seen(void *user, const kf3ds_bake_options *f, const kf3ds_bake_between_info *m)
{
    steps_seen *w = user;
    assert_true(w->n < 16);
    w->step[w->n] = (double)f->frame_step / f->frame_scale;
    w->frames[w->n] = f->num_frames;
    w->worst[w->n++] = m->worst;
}

/* kf3ds_bake_fit_step on data/arm.3ds (docs/kfb.md, "Between baked
 * frames"): the measure 2.3e-3, 5.9e-4, 1.5e-4, 3.7e-5 at steps 1, 1/2,
 * 1/4, 1/8, so 1e-4 stops at 1/8 with 481 frames over 0..60 (the first and
 * last frame kept), each step reported once and the measure the same as
 * kf3ds_bake_between's for those frames. Past 6 decimals: KF3DS_ERR_LIMIT
 * at step 1/64. A failing allocator gives every block back. */
static void test_fit_step(void **state)
{
    kf3ds_scene *s = kf3ds_load_file("data/arm.3ds", NULL, NULL);
    kf3ds_bake_options o;
    kf3ds_bake_between_info m, again;
    steps_seen w;
    counting c;
    long fail_after;
    int i;
    (void)state;
    assert_non_null(s);
    memset(&o, 0, sizeof o);
    memset(&w, 0, sizeof w);
    assert_int_equal(kf3ds_bake_fit_step(s, &o, 1e-4, seen, &w, &m), KF3DS_OK);
    assert_int_equal(w.n, 4);
    for (i = 0; i < 4; i++)
        assert_true(w.step[i] == 1.0 / (1 << i));
    assert_true(w.worst[0] > 2e-3 && w.worst[0] < 2.5e-3);
    assert_true(w.worst[1] > 5e-4 && w.worst[1] < 7e-4);
    assert_true(w.worst[2] > 1e-4 && w.worst[2] < 2e-4);
    assert_true(w.worst[3] < 1e-4 && m.worst == w.worst[3]);
    assert_int_equal(o.frame_first, 0);
    assert_int_equal(o.frame_step, 125);
    assert_int_equal(o.frame_scale, 1000);
    assert_int_equal(o.num_frames, 481);
    assert_int_equal(m.limit, KF3DS_BAKE_FIT_OK);
    assert_int_equal(kf3ds_bake_between(s, &o, &again), KF3DS_OK);
    assert_true(again.worst == m.worst && again.frame == m.frame && again.node == m.node);

    memset(&o, 0, sizeof o);
    assert_int_equal(kf3ds_bake_fit_step(s, &o, 1e-9, NULL, NULL, &m), KF3DS_ERR_LIMIT);
    assert_int_equal(m.limit, KF3DS_BAKE_FIT_DECIMALS);
    assert_int_equal(o.frame_step, 15625);
    assert_int_equal(o.frame_scale, 1000000);
    assert_true(m.worst > 1e-9);

    /* one frame: nothing between; bad arguments */
    memset(&o, 0, sizeof o);
    o.num_frames = 1;
    assert_int_equal(kf3ds_bake_between(s, &o, &m), KF3DS_OK);
    assert_true(m.worst == 0.0);
    assert_int_equal(kf3ds_bake_fit_step(s, &o, 0.0, NULL, NULL, &m), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_bake_fit_step(s, &o, 0.5, NULL, NULL, &m), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_bake_fit_step(NULL, &o, 1e-4, NULL, NULL, &m), KF3DS_ERR_ARGUMENT);
    assert_int_equal(kf3ds_bake_between(s, &o, NULL), KF3DS_ERR_ARGUMENT);
    o.frame_scale = 7;
    assert_int_equal(kf3ds_bake_between(s, &o, &m), KF3DS_ERR_ARGUMENT);

    for (fail_after = 0; fail_after < 3; fail_after++) {
        kf3ds_load_options lo = counting_options(&c);
        memset(&o, 0, sizeof o);
        o.allocator = lo.allocator;
        counting_reset(&c, fail_after);
        assert_int_equal(kf3ds_bake_fit_step(s, &o, 1e-3, NULL, NULL, &m), KF3DS_ERR_NOMEM);
        assert_int_equal(c.live, 0);
    }
    kf3ds_scene_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        support_unit_test(test_data_files_match_command),
        support_unit_test(test_corpus_matches_command),
        support_unit_test(test_failing_allocator),
        support_unit_test(test_bad_options),
        support_unit_test(test_frames),
        support_unit_test(test_fit_step),
    };
    int r;
    if (support_tmpdir_make("kf3ds_test_bake_module_") != 0)
        return 1;
    r = support_run_tests(tests, NULL, NULL);
    support_tmpdir_remove();
    return r;
}
