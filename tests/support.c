#include "support.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *support_corpus_dir(void)
{
    static const char *candidates[] = { "../shared/corpus", "../../shared/corpus" };
    const char *env = getenv("KF3DS_CORPUS");
    struct stat st;
    size_t i;
    if (env && stat(env, &st) == 0 && S_ISDIR(st.st_mode))
        return env;
    for (i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (stat(candidates[i], &st) == 0 && S_ISDIR(st.st_mode))
            return candidates[i];
    fprintf(stderr, "note: ../shared/corpus not found; corpus checks skipped\n");
    return NULL;
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

void support_run_free(support_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
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

static void *counting_realloc(void *ptr, size_t size, void *user)
{
    counting *c = (counting *)user;
    counting_header *h;
    void *p;
    if (!ptr)
        return counting_malloc(size, user);
    if (counting_refuse(c))
        return NULL;
    c->calls--; /* counting_malloc counts the call again */
    p = counting_malloc(size, user);
    if (!p)
        return NULL;
    h = (counting_header *)ptr - 1;
    memcpy(p, ptr, h->size < size ? h->size : size);
    counting_free(ptr, user);
    return p;
}

kf3ds_load_options counting_options(counting *c)
{
    kf3ds_load_options o;
    memset(&o, 0, sizeof o);
    o.allocator.malloc_fn = counting_malloc;
    o.allocator.realloc_fn = counting_realloc;
    o.allocator.free_fn = counting_free;
    o.allocator.user = c;
    return o;
}

