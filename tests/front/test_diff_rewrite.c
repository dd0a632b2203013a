/* The rewrite against independent readers: Debian's lib3ds 1.3 (linked) and
 * assimp (its `assimp info` command, when installed).
 *  - every corpus file and sample that loads without error, rewritten
 *    (KF3DS_LOAD_KEEP_SOURCE, KF3DS_SAVE_REPAIR): lib3ds and assimp load the
 *    rewrite (assimp unless it refuses the original too, for one of the
 *    reasons of assimp_refusal), and lib3ds's evaluation of it (every node's
 *    matrix at a spread of frames) is the same as of the original wherever
 *    lib3ds loads that;
 *  - corpus files damaged the way broken files are (cut, flipped bytes,
 *    rewritten chunk lengths and counts), 10 variants of each: lib3ds loads
 *    and evaluates every rewrite without a crash (and assimp loads it) while
 *    it crashes on some originals. lib3ds runs in a child process so that its
 *    crashes are counted, not fatal;
 *  - display chunks kf3ds copies but lib3ds decodes (VIEWPORT_LAYOUT,
 *    DEFAULT_VIEW), damaged so that lib3ds loops for ever: the rewrite leaves
 *    them out with a warning naming each, and lib3ds loads it. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lib3ds/file.h>
#include <lib3ds/mesh.h>
#include <lib3ds/node.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#define VARIANTS 10
#define MAX_MUTATED_SIZE (300u * 1024u)

static const float lib3ds_frames[] = { 0, 7.5f, 33, 100 };

static char orig_path[1024], rw_path[1024], probe_a[1024], probe_b[1024];
static int have_assimp;
static unsigned probe_seconds = 20;

/* ---- lib3ds in a child ------------------------------------------------------ */

static void print_nodes(FILE *out, Lib3dsNode *n)
{
    int i, j;
    for (; n; n = n->next) {
        fprintf(out, "%d %s", (int)n->type, n->name);
        for (i = 0; i < 4; i++)
            for (j = 0; j < 4; j++)
                fprintf(out, " %.7g", n->matrix[i][j] + 0.0f);
        fputc('\n', out);
        print_nodes(out, n->childs);
    }
}

/* In the child: load `path` with lib3ds, evaluate it at the frames, write the
 * node matrices and the mesh sizes to `out`. Exit 0, or 3 when lib3ds does
 * not load the file. */
static void probe_child(const char *path, const char *out_path)
{
    Lib3dsFile *f;
    Lib3dsMesh *m;
    FILE *out;
    size_t i;
    alarm(probe_seconds); /* a hang counts as a crash */
    f = lib3ds_file_load(path);
    if (!f)
        _exit(3);
    out = fopen(out_path, "w");
    if (!out)
        _exit(4);
    for (m = f->meshes; m; m = m->next)
        fprintf(out, "mesh %s %u %u\n", m->name, (unsigned)m->points, (unsigned)m->faces);
    for (i = 0; i < sizeof lib3ds_frames / sizeof lib3ds_frames[0]; i++) {
        lib3ds_file_eval(f, lib3ds_frames[i]);
        fprintf(out, "frame %g\n", lib3ds_frames[i]);
        print_nodes(out, f->nodes);
    }
    fclose(out);
    lib3ds_file_free(f);
    _exit(0);
}

typedef enum probe_result { PROBE_OK, PROBE_FAILED, PROBE_CRASHED } probe_result;

static probe_result lib3ds_probe(const char *path, const char *out_path)
{
    pid_t pid;
    int status;
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* lib3ds's crashes end the child: not cmocka's handlers (inherited) */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        signal(SIGILL, SIG_DFL);
        signal(SIGFPE, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        signal(SIGALRM, SIG_DFL);
        /* lib3ds prints nothing, but a crash report must not clutter the test */
        if (!freopen("/dev/null", "w", stderr))
            _exit(5);
        probe_child(path, out_path);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status))
        return PROBE_CRASHED;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? PROBE_OK : PROBE_FAILED;
}

static char assimp_log[1024];

/* `assimp info` loads the file: exit 0. Its messages go to assimp_log. */
static int assimp_loads(const char *path)
{
    char cmd[3200];
    snprintf(cmd, sizeof cmd, "assimp info '%s' > '%s' 2>&1", path, assimp_log);
    return system(cmd) == 0;
}

/* assimp refuses some files that are well formed: one without any face
 * ("No faces loaded"), one whose faces all collapse ("No meshes remaining"),
 * one with a keyframer that animates some camera or light but has no node
 * for another ("has no corresponding node"), one with a node without keys
 * ("Empty node animation channel"). A damaged file can lose its geometry,
 * nodes or keys; the rewrite keeps what is left and invents nothing. */
static const char *assimp_refusal(void)
{
    static const char *const known[] = { "No faces loaded", "No meshes remaining",
                                         "has no corresponding node in the scene graph",
                                         "Empty node animation channel" };
    size_t n, i;
    unsigned char *log = support_read_file(assimp_log, &n);
    const char *why = NULL;
    if (!log)
        return NULL;
    for (i = 0; i < sizeof known / sizeof known[0] && !why; i++) {
        size_t k = strlen(known[i]), j;
        for (j = 0; j + k <= n && !why; j++)
            if (memcmp(log + j, known[i], k) == 0)
                why = known[i];
    }
    free(log);
    return why;
}

/* ---- the rewrite ------------------------------------------------------------- */

/* Rewrites data[0, size) into rw_path as `kf3ds rewrite` does; 0 when
 * kf3ds reads nothing of it. */
static int rewrite_bytes(const unsigned char *data, size_t size)
{
    kf3ds_load_options lo;
    kf3ds_save_options so;
    kf3ds_diag err;
    kf3ds_scene *s;
    void *bytes;
    size_t n;
    memset(&lo, 0, sizeof lo);
    lo.flags = KF3DS_LOAD_KEEP_SOURCE;
    s = kf3ds_load_memory(data, size, &lo, &err);
    if (!s)
        return 0;
    memset(&so, 0, sizeof so);
    so.flags = KF3DS_SAVE_REPAIR;
    if (kf3ds_save_memory(s, &so, &bytes, &n, &err) != KF3DS_OK)
        fail_msg("%s: the rewrite failed: %s", support_what, err.message);
    support_write_file(rw_path, bytes, n);
    kf3ds_save_free(bytes, &so);
    kf3ds_scene_free(s);
    return 1;
}

static int same_text_files(const char *a, const char *b)
{
    size_t na, nb;
    unsigned char *x = support_read_file(a, &na), *y = support_read_file(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

typedef struct tally {
    int files, lib3ds_original_ok, lib3ds_rewrite_ok, lib3ds_same_eval, assimp_ok;
    int assimp_refusals; /* refused, rewrite and original alike, for one of assimp_refusal's reasons */
} tally;

static void peers_one(const char *path, const char *name, void *user)
{
    tally *t = (tally *)user;
    size_t size;
    unsigned char *data;
    kf3ds_diag err;
    kf3ds_scene *s;
    probe_result po, pr;
    if (!support_is_3ds_name(name))
        return;
    support_set_what("%s", name);
    s = kf3ds_load_file(path, NULL, &err);
    if (!s || err.code != KF3DS_OK) {
        kf3ds_scene_free(s);
        return;
    }
    kf3ds_scene_free(s);
    data = support_read_file(path, &size);
    assert_non_null(data);
    assert_true(rewrite_bytes(data, size));
    free(data);
    t->files++;
    po = lib3ds_probe(path, probe_a);
    pr = lib3ds_probe(rw_path, probe_b);
    if (pr != PROBE_OK)
        fail_msg("%s: lib3ds %s the rewrite", name, pr == PROBE_CRASHED ? "crashes on" : "does not load");
    t->lib3ds_rewrite_ok++;
    if (po == PROBE_OK) {
        t->lib3ds_original_ok++;
        if (!same_text_files(probe_a, probe_b))
            fail_msg("%s: lib3ds evaluates the rewrite differently from the original", name);
        t->lib3ds_same_eval++;
    }
    if (have_assimp) {
        const char *refusal;
        if (assimp_loads(rw_path)) {
            t->assimp_ok++;
        } else if ((refusal = assimp_refusal()) == NULL || assimp_loads(path) ||
                   assimp_refusal() != refusal) {
            fail_msg("%s: assimp does not load the rewrite", name);
        } else { /* (data/textured.3ds: a camera and a light the keyframer has no node for) */
            print_message("%s: assimp refuses the original and the rewrite: %s\n", name, refusal);
            t->assimp_refusals++;
        }
    }
}

static void test_peers_load_rewrites(void **state)
{
    tally t;
    (void)state;
    memset(&t, 0, sizeof t);
    support_dir_each("data", peers_one, &t);
    if (support_corpus_each(peers_one, &t) < 0)
        print_message("(no corpus: the samples only)\n");
    print_message("peers: %d files rewritten; lib3ds loads %d of the rewrites (%d of the "
                  "originals), evaluates %d the same as the original; assimp loads %d, refuses "
                  "%d as it refuses the original%s\n",
                  t.files, t.lib3ds_rewrite_ok, t.lib3ds_original_ok, t.lib3ds_same_eval,
                  t.assimp_ok, t.assimp_refusals, have_assimp ? "" : " (assimp not installed)");
    assert_int_equal(t.lib3ds_rewrite_ok, t.files);
    assert_int_equal(t.lib3ds_same_eval, t.lib3ds_original_ok);
}

/* ---- damaged files ------------------------------------------------------------ */

static uint64_t rng_state = 0x2545F4914F6CDD1Du;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (uint32_t)(rng_state % n) : 0;
}

static const char *const damage_names[4] = { "cut", "flipped bytes", "chunk length",
                                             "count" };

/* Damages a copy of the file the way broken exporters and truncated
 * downloads do: variant % 4 is the kind. Returns the new size. */
static size_t damage(unsigned char *d, size_t size, int variant)
{
    support_chunk_list chunks = support_collect_chunks(d, size);
    size_t i, n = size;
    int kind = variant % 4;
    if (kind == 0) { /* cut anywhere */
        n = 1 + rnd((uint32_t)size - 1);
    } else if (kind == 1) { /* 1 to 16 random bytes */
        int k, flips = 1 + (int)rnd(16);
        for (k = 0; k < flips; k++)
            d[rnd((uint32_t)size)] ^= (unsigned char)(1 + rnd(255));
    } else if (chunks.n > 1) {
        const support_chunk_info *c = &chunks.v[1 + rnd((uint32_t)chunks.n - 1)];
        if (kind == 2) { /* a chunk's length: small, off by a little, or huge */
            static const uint32_t lengths[] = { 0, 3, 5, 6, 7, 0xFFFFFFFFu, 0x7FFFFFFFu };
            uint32_t v = rnd(2) ? lengths[rnd(7)] : c->length + rnd(64) - 32;
            support_put_u32(d + c->offset + 2, v);
        } else { /* the first u16 or u32 of a payload: most of them are counts */
            static const uint32_t counts[] = { 0, 1, 0xFFFF, 0x7FFF, 0xFFFFFFFFu, 1000 };
            size_t at = c->offset + 6;
            for (i = 0; i < chunks.n; i++) /* a track's key count is at 10 */
                if (chunks.v[i].offset == c->offset && c->id >= KF3DS_CHUNK_POS_TRACK_TAG &&
                    c->id <= KF3DS_CHUNK_HIDE_TRACK_TAG)
                    at += 10;
            if (at + 4 <= size) {
                uint32_t v = counts[rnd(6)];
                if (rnd(2))
                    support_put_u16(d + at, (uint16_t)v);
                else
                    support_put_u32(d + at, v);
            }
        }
    }
    free(chunks.v);
    return n;
}

typedef struct damage_tally {
    int variants, readable, original_crashes, original_fails, original_ok;
    int rewrite_ok, rewrite_fails, rewrite_crashes, assimp_ok, assimp_fails, assimp_refusals;
} damage_tally;

static void damage_one(const char *path, const char *name, void *user)
{
    damage_tally *t = (damage_tally *)user;
    size_t size;
    unsigned char *data, *copy;
    int v;
    kf3ds_diag err;
    kf3ds_scene *s;
    if (!support_is_3ds_name(name))
        return;
    s = kf3ds_load_file(path, NULL, &err);
    if (!s || err.code != KF3DS_OK) {
        kf3ds_scene_free(s);
        return;
    }
    kf3ds_scene_free(s);
    data = support_read_file(path, &size);
    assert_non_null(data);
    if (size > MAX_MUTATED_SIZE || size < 16) {
        free(data);
        return;
    }
    copy = malloc(size);
    assert_non_null(copy);
    for (v = 0; v < VARIANTS; v++) {
        size_t n;
        probe_result po, pr;
        memcpy(copy, data, size);
        n = damage(copy, size, v);
        support_set_what("%s, variant %d (%s)", name, v, damage_names[v % 4]);
        support_write_file(orig_path, copy, n);
        t->variants++;
        po = lib3ds_probe(orig_path, probe_a);
        t->original_crashes += po == PROBE_CRASHED;
        t->original_fails += po == PROBE_FAILED;
        t->original_ok += po == PROBE_OK;
        if (!rewrite_bytes(copy, n))
            continue; /* not a 3DS file any more: nothing to rewrite */
        t->readable++;
        pr = lib3ds_probe(rw_path, probe_b);
        t->rewrite_crashes += pr == PROBE_CRASHED;
        t->rewrite_fails += pr == PROBE_FAILED;
        t->rewrite_ok += pr == PROBE_OK;
        if (pr != PROBE_OK)
            print_message("%s: lib3ds %s the rewrite\n", support_what,
                          pr == PROBE_CRASHED ? "crashes on" : "does not load");
        if (have_assimp) {
            int ok = assimp_loads(rw_path);
            const char *refusal = ok ? NULL : assimp_refusal();
            t->assimp_ok += ok;
            t->assimp_refusals += refusal != NULL;
            t->assimp_fails += !ok && !refusal;
            if (!ok && !refusal)
                print_message("%s: assimp does not load the rewrite\n", support_what);
        }
    }
    free(copy);
    free(data);
}

static void test_peers_on_damaged_files(void **state)
{
    damage_tally t;
    (void)state;
    memset(&t, 0, sizeof t);
    if (support_corpus_each(damage_one, &t) < 0)
        skip();
    print_message("damaged corpus files: %d variants, %d still readable by kf3ds; lib3ds on "
                  "the originals: %d crash, %d fail, %d load; on the rewrites: %d crash, %d "
                  "fail, %d load and evaluate; assimp loads %d of the rewrites, refuses %d that "
                  "have no face, node or key left, fails on %d\n",
                  t.variants, t.readable, t.original_crashes, t.original_fails, t.original_ok,
                  t.rewrite_crashes, t.rewrite_fails, t.rewrite_ok, t.assimp_ok,
                  t.assimp_refusals, t.assimp_fails);
    assert_true(t.variants >= 300 / (int)support_corpus_sample_step());
    assert_int_equal(t.rewrite_crashes, 0);
    assert_int_equal(t.rewrite_fails, 0);
    /* (a damaged blitz3d-hearse.3ds with an unknown chunk in a colour container made
     * assimp read past it until repaired saves wrote the colour; docs/writer.md) */
    assert_int_equal(t.assimp_fails, 0);
}

/* ---- damaged display chunks --------------------------------------------------- */

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xFFFFu);
    put16(p + 2, v >> 16);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* data/arm.3ds with `extra` appended to its editor section (MDATA) or, when
 * `in_kfdata`, to its keyframer section (KFDATA); the lengths of the section
 * and the root grow by it. */
static unsigned char *arm_with(const unsigned char *extra, size_t n, int in_kfdata, size_t *size)
{
    size_t len, at, sec = 0;
    unsigned char *arm = support_read_file("data/arm.3ds", &len), *d;
    unsigned want = in_kfdata ? 0xB000u : 0x3D3Du;
    assert_non_null(arm);
    for (at = 6; at + 6 <= len && get32(arm + at + 2) >= 6; at += get32(arm + at + 2))
        if ((unsigned)(arm[at] | arm[at + 1] << 8) == want)
            sec = at;
    assert_true(sec != 0);
    at = sec + get32(arm + sec + 2);
    d = malloc(len + n);
    assert_non_null(d);
    memcpy(d, arm, at);
    memcpy(d + at, extra, n);
    memcpy(d + at + n, arm + at, len - at);
    put32(d + 2, get32(arm + 2) + (uint32_t)n);
    put32(d + sec + 2, get32(arm + sec + 2) + (uint32_t)n);
    free(arm);
    *size = len + n;
    return d;
}

/* A VIEWPORT_LAYOUT: its seven words, then a VIEWPORT_SIZE whose length
 * field is `size_len` (14 when sound), then a sound VIEWPORT_DATA_3. */
static size_t viewport_layout(unsigned char *p, uint32_t size_len)
{
    size_t n = 6 + 14 + 14 + 6 + 4;
    memset(p, 0, n);
    put16(p, 0x7001);
    put32(p + 2, (uint32_t)n);
    put16(p + 6, 3);                 /* the layout style */
    put16(p + 20, 0x7020);           /* VIEWPORT_SIZE: x, y, w, h */
    put32(p + 22, size_len);
    put16(p + 28, 640);
    put16(p + 30, 480);
    put16(p + 34, 0x7012);           /* VIEWPORT_DATA_3, cut to 4 bytes */
    put32(p + 36, 10);
    return n;
}

static void expect_dropped(const unsigned char *d, size_t n, const char *what, const char *chunk)
{
    char path[1024];
    support_run r;
    support_set_what("%s", what);
    support_write_file(orig_path, d, n);
    assert_int_equal(lib3ds_probe(orig_path, probe_a), PROBE_CRASHED); /* it loops */
    support_tmp_path(path, sizeof path, "display-rewrite.3ds");
    r = support_run_tool(NULL, "rewrite", orig_path, "-o", path, NULL);
    support_expect_status(&r, 0);
    if (!strstr(r.err, chunk) || !strstr(r.err, "warning"))
        fail_msg("%s: the rewrite's warnings do not name %s:\n%s", what, chunk, r.err);
    support_run_free(&r);
    assert_int_equal(lib3ds_probe(path, probe_b), PROBE_OK);
    print_message("  %s: lib3ds loops on the original; the rewrite drops %s, lib3ds loads it\n",
                  what, chunk);
}

static void test_damaged_display_chunks(void **state)
{
    unsigned char vp[64], dv[32], *d, *rw;
    size_t n, m, rn;
    (void)state;
    probe_seconds = 2;
    /* a VIEWPORT_SIZE of length 0 in the editor's and in the keyframer's layout */
    m = viewport_layout(vp, 0);
    d = arm_with(vp, m, 0, &n);
    expect_dropped(d, n, "VIEWPORT_LAYOUT in MDATA, a sub-chunk of length 0",
                   "chunk 0x7001 VIEWPORT_LAYOUT");
    free(d);
    d = arm_with(vp, m, 1, &n);
    expect_dropped(d, n, "VIEWPORT_LAYOUT in KFDATA, a sub-chunk of length 0",
                   "chunk 0x7001 VIEWPORT_LAYOUT");
    free(d);
    /* a DEFAULT_VIEW whose VIEW_TOP has length 0 */
    memset(dv, 0, sizeof dv);
    put16(dv, 0x3000);
    put32(dv + 2, 6 + 6 + 16);
    put16(dv + 6, 0x3010);
    d = arm_with(dv, 6 + 6 + 16, 0, &n);
    expect_dropped(d, n, "DEFAULT_VIEW, a sub-chunk of length 0", "chunk 0x3000 DEFAULT_VIEW");
    free(d);
    /* a sound layout is kept byte for byte */
    m = viewport_layout(vp, 14);
    d = arm_with(vp, m, 0, &n);
    support_write_file(orig_path, d, n);
    support_run_ok(NULL, "rewrite", orig_path, "-o", rw_path, NULL);
    rw = support_read_file(rw_path, &rn);
    assert_non_null(rw);
    assert_int_equal(rn, n);
    assert_memory_equal(rw, d, n);
    assert_int_equal(lib3ds_probe(rw_path, probe_b), PROBE_OK);
    free(rw);
    free(d);
    probe_seconds = 20;
}

static int setup(void **state)
{
    (void)state;
    if (support_tmpdir_make("kf3ds_test_diff_rewrite_") != 0)
        return -1;
    support_tmp_path(orig_path, sizeof orig_path, "damaged.3ds");
    support_tmp_path(rw_path, sizeof rw_path, "rewrite.3ds");
    support_tmp_path(probe_a, sizeof probe_a, "lib3ds-a.txt");
    support_tmp_path(probe_b, sizeof probe_b, "lib3ds-b.txt");
    support_tmp_path(assimp_log, sizeof assimp_log, "assimp.txt");
    have_assimp = system("command -v assimp > /dev/null 2>&1") == 0;
    if (!have_assimp)
        print_message("assimp not installed (Debian: assimp-utils): its checks are skipped\n");
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
        support_unit_test(test_peers_load_rewrites),
        support_unit_test(test_peers_on_damaged_files),
        support_unit_test(test_damaged_display_chunks),
    };
    return support_run_tests(tests, setup, teardown);
}
