/* kf3ds convert: finding the input files. Folders are walked recursively
 * (links to folders are not followed, so a loop cannot trap the walk); the
 * files whose names end in .3ds, .prj or .mli in any case are taken, in
 * sorted order so that runs and reports are repeatable. */
#define _XOPEN_SOURCE 700
#include "cmd_convert.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (!p)
        return NULL;
    memcpy(p, a, na);
    p[na] = '/';
    memcpy(p + na + 1, b, nb + 1);
    if (na && a[na - 1] == '/')
        memmove(p + na, p + na + 1, nb + 1);
    return p;
}

static int is_scene_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (strcasecmp(name + n - 4, ".3ds") == 0 || strcasecmp(name + n - 4, ".prj") == 0 ||
                     strcasecmp(name + n - 4, ".mli") == 0);
}

/* rel with its extension replaced by ext, under outdir. */
static char *output_name(const char *outdir, const char *rel, const char *ext)
{
    const char *dot = strrchr(rel, '.'), *slash = strrchr(rel, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - rel) : strlen(rel);
    size_t no = strlen(outdir), ne = strlen(ext);
    char *p = malloc(no + 1 + stem + ne + 1);
    if (!p)
        return NULL;
    memcpy(p, outdir, no);
    p[no] = '/';
    memcpy(p + no + 1, rel, stem);
    memcpy(p + no + 1 + stem, ext, ne + 1);
    return p;
}

static int add_job(convert_jobs *jobs, const char *in, const char *rel, const char *outdir,
                   const char *ext, long long size)
{
    convert_job *j;
    if (jobs->n == jobs->cap) {
        size_t cap = jobs->cap ? jobs->cap * 2 : 64;
        convert_job *v = realloc(jobs->v, cap * sizeof *v);
        if (!v)
            return -1;
        jobs->v = v;
        jobs->cap = cap;
    }
    j = &jobs->v[jobs->n];
    memset(j, 0, sizeof *j);
    j->in = dup_str(in);
    j->rel = dup_str(rel);
    j->out = output_name(outdir, rel, ext);
    j->in_bytes = size;
    j->nodes = -1;
    j->materials = -1;
    if (!j->in || !j->rel || !j->out) {
        free(j->in);
        free(j->rel);
        free(j->out);
        return -1;
    }
    jobs->n++;
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walks dir (rel: its path under the root, "" for the root). */
static int walk_dir(convert_jobs *jobs, const char *dir, const char *rel, const char *outdir,
                    const char *ext, const char *skip_real)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int rc = 0;
    if (!d) {
        cli_print_error(dir, "cannot read the folder: %s", strerror(errno));
        return 0; /* one unreadable folder does not stop the run */
    }
    if (skip_real) {
        char real[PATH_MAX];
        if (realpath(dir, real) && strcmp(real, skip_real) == 0) {
            closedir(d);
            return 0;
        }
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            char **v = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            names = v;
        }
        if (!(names[n] = dup_str(e->d_name))) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, name_cmp);
    for (i = 0; i < n && rc == 0; i++) {
        char *path = join(dir, names[i]), *sub = rel[0] ? join(rel, names[i]) : dup_str(names[i]);
        struct stat st;
        if (!path || !sub)
            rc = -1;
        else if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            rc = walk_dir(jobs, path, sub, outdir, ext, skip_real);
        else if (is_scene_name(names[i]) && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            rc = add_job(jobs, path, sub, outdir, ext, (long long)st.st_size);
        free(path);
        free(sub);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int convert_walk(convert_jobs *jobs, const char *path, const char *outdir, const char *ext,
                 const char *skip_dir)
{
    struct stat st;
    char skip_real[PATH_MAX];
    int rc;
    if (stat(path, &st) != 0) {
        cli_print_error(path, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = walk_dir(jobs, path, "", outdir, ext,
                      skip_dir && realpath(skip_dir, skip_real) ? skip_real : NULL);
    } else {
        const char *slash = strrchr(path, '/');
        rc = add_job(jobs, path, slash ? slash + 1 : path, outdir, ext, (long long)st.st_size);
    }
    if (rc != 0)
        cli_print_error(path, "convert: out of memory");
    return rc;
}

void convert_jobs_free(convert_jobs *jobs)
{
    size_t i, k;
    for (i = 0; i < jobs->n; i++) {
        convert_job *j = &jobs->v[i];
        free(j->in);
        free(j->rel);
        free(j->out);
        for (k = 0; k < j->num_diags; k++)
            free(j->diags[k].text);
        free(j->diags);
    }
    free(jobs->v);
    memset(jobs, 0, sizeof *jobs);
}
