/* The helpers of support.h that only test programs link: they may fail the
 * running cmocka test. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

/* The one wording of the note, quoted in README.md ("Tests and the corpus"). */
static void corpus_note(const char *dir, const char *why)
{
    fprintf(stderr, "note: no corpus at %s (%s; set KF3DS_CORPUS); corpus checks skipped\n", dir,
            why);
}

static int has_3ds_file(const struct dirent *e)
{
    return support_is_3ds_name(e->d_name);
}

const char *support_corpus_dir(void)
{
    const char *env = getenv("KF3DS_CORPUS");
    const char *dir = env && *env ? env : "../shared/corpus";
    struct dirent **names;
    struct stat st;
    int n, i;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        corpus_note(dir, "not a folder");
        return NULL;
    }
    /* An empty folder (a fresh machine's KF3DS_CORPUS) is no corpus either:
     * the corpus checks count files and would fail on none. */
    n = scandir(dir, &names, has_3ds_file, NULL);
    for (i = 0; i < n; i++)
        free(names[i]);
    if (n >= 0)
        free(names);
    if (n <= 0) {
        corpus_note(dir, n < 0 ? "cannot be read" : "no .3ds file in it");
        return NULL;
    }
    return dir;
}

int support_is_3ds_name(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && (strcmp(name + n - 4, ".3ds") == 0 || strcmp(name + n - 4, ".3DS") == 0);
}

static int is_visible(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

int support_dir_each(const char *dir, support_file_fn fn, void *user)
{
    struct dirent **names;
    int n = scandir(dir, &names, is_visible, alphasort), i, files = 0;
    if (n < 0)
        return -1;
    for (i = 0; i < n; i++) {
        char path[1024];
        struct stat st;
        support_path(path, sizeof path, dir, names[i]->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            fn(path, names[i]->d_name, user);
            files++;
        }
        free(names[i]);
    }
    free(names);
    return files;
}

/* KF3DS_CORPUS_SAMPLE=N keeps every Nth .3ds file of the corpus (the first,
 * the N+1th, ... in name order) and every other file: the sanitizer pass of
 * `make test` runs on such a sample to stay within CI's time (README, "Tests
 * and the corpus"); the plain pass reads every file. */
unsigned support_corpus_sample_step(void)
{
    const char *env = getenv("KF3DS_CORPUS_SAMPLE");
    long n = env && *env ? strtol(env, NULL, 10) : 1;
    return n > 1 && n < 1000 ? (unsigned)n : 1;
}

typedef struct corpus_sample {
    support_file_fn fn;
    void *user;
    unsigned step, seen;
} corpus_sample;

static void corpus_sample_one(const char *path, const char *name, void *user)
{
    corpus_sample *s = user;
    if (support_is_3ds_name(name) && s->seen++ % s->step != 0)
        return;
    s->fn(path, name, s->user);
}

static int corpus_each_step(support_file_fn fn, void *user, unsigned step)
{
    const char *dir = support_corpus_dir();
    corpus_sample s;
    int files;
    s.fn = fn;
    s.user = user;
    s.step = step;
    s.seen = 0;
    files = dir ? support_dir_each(dir, corpus_sample_one, &s) : -1;
    assert_true(!dir || files >= 0);
    return files;
}

int support_corpus_each(support_file_fn fn, void *user)
{
    return corpus_each_step(fn, user, support_corpus_sample_step());
}

int support_corpus_each_whole(support_file_fn fn, void *user)
{
    return corpus_each_step(fn, user, 1);
}

unsigned char *support_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        if (buf && size)
            *size = (size_t)n;
    }
    fclose(f);
    return buf;
}

void support_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    if (len)
        assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void support_path(char *buf, size_t cap, const char *dir, const char *name)
{
    int n = snprintf(buf, cap, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < cap);
}

static char tmpdir[256];

int support_tmpdir_make(const char *prefix)
{
    int n = snprintf(tmpdir, sizeof tmpdir, "/tmp/%sXXXXXX", prefix);
    return n > 0 && (size_t)n < sizeof tmpdir && mkdtemp(tmpdir) ? 0 : -1;
}

const char *support_tmpdir(void)
{
    return tmpdir;
}

static void remove_file(const char *path, const char *name, void *user)
{
    (void)name;
    (void)user;
    remove(path);
}

void support_tmpdir_remove(void)
{
    support_dir_each(tmpdir, remove_file, NULL);
    rmdir(tmpdir);
}

void support_tmp_path(char *buf, size_t cap, const char *name)
{
    support_path(buf, cap, tmpdir, name);
}

int support_tmpdir_setup(void **state)
{
    (void)state;
    return support_tmpdir_make("kf3ds_test_");
}

int support_tmpdir_teardown(void **state)
{
    (void)state;
    support_tmpdir_remove();
    return 0;
}

kf3ds_scene *support_load_w3ds(w3ds *w, const kf3ds_load_options *o, kf3ds_diag *err)
{
    kf3ds_scene *s;
    assert_false(w->failed);
    s = kf3ds_load_memory(w->buf, w->len, o, err);
    w3ds_free(w);
    assert_non_null(s);
    return s;
}

int support_count_diags(const kf3ds_scene *s, kf3ds_status code)
{
    uint32_t i;
    int n = 0;
    for (i = 0; i < s->num_diags; i++)
        n += s->diags[i].code == code;
    return n;
}

void support_assert_near(double actual, double expected, double tolerance, const char *what,
                         const char *file, int line)
{
    if (fabs(actual - expected) <= tolerance)
        return;
    print_error("%s is %.9g, expected %.9g within %g (difference %.3g)\n", what, actual,
                expected, tolerance, actual - expected);
    _fail(file, line);
}

char support_what[1100];

void support_set_what(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(support_what, sizeof support_what, fmt, ap);
    va_end(ap);
}

/* The test itself; its state is the support_test. A failure leaves through
 * cmocka's longjmp, so `finished` stays 0 for support_test_report. */
void support_test_run(void **state)
{
    support_test *t = (support_test *)*state;
    support_what[0] = '\0';
    t->finished = 0;
    t->fn(state);
    t->finished = 1;
}

/* cmocka runs the teardown after a failure too. */
int support_test_report(void **state)
{
    const support_test *t = (const support_test *)*state;
    if (!t->finished && support_what[0])
        print_error("[  WHILE   ] --- checking %s\n", support_what);
    return 0;
}

void support_apply_filter(void)
{
    const char *filter = getenv("KF3DS_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
}

const char *support_tool(void)
{
    const char *env = getenv("KF3DS_TOOL");
    return env ? env : "build/kf3ds";
}

/* Appends s to buf; 0 when it does not fit. */
static int append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf), m = strlen(s);
    if (n + m >= cap)
        return 0;
    memcpy(buf + n, s, m + 1);
    return 1;
}

/* Appends s in single quotes for sh. */
static int append_quoted(char *buf, size_t cap, const char *s)
{
    int ok = append(buf, cap, "'");
    for (; *s && ok; s++) {
        char one[2];
        one[0] = *s;
        one[1] = '\0';
        ok = append(buf, cap, *s == '\'' ? "'\\''" : one);
    }
    return ok && append(buf, cap, "'");
}

/* The whole file as a NUL-terminated string ("" when it cannot be read). */
static char *slurp(const char *path, size_t *len)
{
    size_t n = 0;
    unsigned char *p = support_read_file(path, &n);
    if (!p) {
        p = malloc(1);
        n = 0;
    }
    if (p)
        p[n] = '\0';
    *len = p ? n : 0;
    return (char *)p;
}

support_run support_run_argv(const char *dir, const char *env, const char *const *args)
{
    char cmd[8192] = "", out_path[1024], err_path[1024];
    support_run r;
    int ok, st;
    memset(&r, 0, sizeof r);
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", dir);
    ok = append(cmd, sizeof cmd, env ? env : "") && append(cmd, sizeof cmd, " ") &&
         append_quoted(cmd, sizeof cmd, support_tool());
    for (; ok && *args; args++)
        ok = append(cmd, sizeof cmd, " ") && append_quoted(cmd, sizeof cmd, *args);
    ok = ok && append(cmd, sizeof cmd, " </dev/null >") &&
         append_quoted(cmd, sizeof cmd, out_path) && append(cmd, sizeof cmd, " 2>") &&
         append_quoted(cmd, sizeof cmd, err_path);
    st = ok ? system(cmd) : -1;
    if (st == -1)
        r.status = -1;
    else if (WIFEXITED(st))
        r.status = WEXITSTATUS(st);
    else if (WIFSIGNALED(st))
        r.status = 128 + WTERMSIG(st);
    else
        r.status = -1;
    r.out = slurp(out_path, &r.out_len);
    r.err = slurp(err_path, &r.err_len);
    assert_int_not_equal(r.status, -1);
    return r;
}

support_run support_run_va(const char *dir, const char *env, const char *arg, va_list ap)
{
    const char *args[128];
    size_t n = 0;
    for (; arg && n + 1 < sizeof args / sizeof args[0]; arg = va_arg(ap, const char *))
        args[n++] = arg;
    args[n] = NULL;
    return support_run_argv(dir, env, args);
}

support_run support_run_tool(const char *env, const char *arg, ...)
{
    support_run r;
    va_list ap;
    va_start(ap, arg);
    r = support_run_va(tmpdir, env, arg, ap);
    va_end(ap);
    return r;
}

void support_expect_exit(support_run r, int status)
{
    support_expect_status(&r, status);
    support_run_free(&r);
}

void support_run_free(support_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void support_expect_status(const support_run *r, int status)
{
    if (r->status != status)
        fail_msg("exit %d, not %d; stderr: %s", r->status, status, r->err);
}

int support_check_error_lines(const char *err, const char *file, int warnings)
{
    regex_t re;
    char pattern[1024], esc[600];
    const char *p = err, *f;
    size_t n = 0;
    int errors = 0;
    for (f = file; *f && n + 3 < sizeof esc; f++) { /* escape regex specials */
        if (strchr(".[]()*+?{}|^$\\", *f))
            esc[n++] = '\\';
        esc[n++] = *f;
    }
    esc[n] = '\0';
    snprintf(pattern, sizeof pattern,
             "^kf3ds: %s%s: (offset [0-9]+, chunk 0x[0-9A-F]{4} [A-Z0-9_?]+: [^\n]+|[^\n]+)$",
             warnings ? "(warning: )?" : "", esc);
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    while (*p) {
        char line[2048];
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        assert_non_null(nl); /* every line ends with a newline */
        assert_true(len < sizeof line);
        memcpy(line, p, len);
        line[len] = '\0';
        if (regexec(&re, line, 0, NULL, 0) != 0)
            fail_msg("stderr line is not an error line of docs/output.md: '%s'", line);
        if (strncmp(line, "kf3ds: warning: ", 16) != 0)
            errors++;
        p = nl + 1;
    }
    regfree(&re);
    return errors;
}

/* ---- the counting allocator ---- */

typedef union counting_header {
    size_t size;
    max_align_t align;
} counting_header;

void counting_reset(counting *c, long fail_after)
{
    memset(c, 0, sizeof *c);
    c->fail_after = fail_after;
}

static int counting_refuse(counting *c)
{
    int refuse = c->fail_after >= 0 && c->calls >= c->fail_after;
    c->calls++;
    return refuse;
}

static void *counting_malloc(size_t size, void *user)
{
    counting *c = (counting *)user;
    counting_header *h;
    if (counting_refuse(c) || size > (size_t)1 << 40) /* no test needs a terabyte */
        return NULL;
    h = (counting_header *)malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->live++;
    c->bytes += size;
    if (c->bytes > c->peak)
        c->peak = c->bytes;
    return h + 1;
}

static void counting_free(void *ptr, void *user)
{
    counting *c = (counting *)user;
    counting_header *h;
    if (!ptr)
        return;
    h = (counting_header *)ptr - 1;
    c->live--;
    c->bytes -= h->size;
    free(h);
}

kf3ds_load_options counting_options(counting *c)
{
    kf3ds_load_options o;
    memset(&o, 0, sizeof o);
    o.allocator.malloc_fn = counting_malloc;
    o.allocator.free_fn = counting_free;
    o.allocator.user = c;
    return o;
}

void counting_free_scene(kf3ds_scene *s, const counting *c)
{
    kf3ds_scene_free(s);
    assert_int_equal(c->live, 0);
    assert_int_equal(c->bytes, 0);
}
