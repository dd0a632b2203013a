/* kf3ds convert DIR|FILE... --to FORMAT -o OUTDIR [-j N] [--report R.json]
 *               [--skip-existing] [-q] [options of the single-file verb]
 * Converts whole archives (docs/convert.md). Each file is converted by the
 * single-file verb (export, bake, rewrite, render) in its own worker process:
 * a crash or a runaway allocation takes only that file with it, and the
 * memory of one file is given back when its worker ends. The verbs write
 * under temporary names and rename when complete (cli_output), so an
 * interrupted run leaves no partial file; the temporary files of workers
 * that were stopped are removed here. */
#define _XOPEN_SOURCE 700
#include "cmd_convert.h"
#include "cmd_static.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define VERB "convert"
#define MAX_JOBS 256
#define MAX_DIAGS_KEPT 200 /* per file, in the report */

typedef struct format_info {
    const char *name, *ext;
    const cli_verb *verb;
    const char *companion; /* a second file beside the output, or NULL */
} format_info;

static const format_info formats[] = {
    { "glb", ".glb", &cmd_export_verb, NULL },
    { "gltf", ".gltf", &cmd_export_verb, ".bin" },
    { "obj", ".obj", &cmd_export_verb, ".mtl" },
    { "stl", ".stl", &cmd_export_verb, NULL },
    { "kfb", ".kfb", &cmd_bake_verb, NULL },
    { "3ds", ".3ds", &cmd_rewrite_verb, NULL },
    { "png", ".png", &cmd_render_verb, NULL },
};
#define NUM_FORMATS (sizeof formats / sizeof formats[0])

/* Options of the single-file verbs that take a value as the next argument
 * (the "--opt=value" form needs no entry). */
static const char *const value_options[] = {
    "--fps", "--frames", "--rate", "--static-frame", "--frame", "--step", "--frac-bits",
    "--nodes", "--c-source", "--size", "--camera", "--orbit", "--shading", "--overlays",
    "--maps", "--sheet", NULL
};

typedef struct convert_opts {
    const format_info *fmt;
    const char *outdir, *report;
    int jobs, quiet, skip_existing;
    long max_memory_mb;  /* --max-memory: address space of one worker; 0 none */
    const char **inputs;
    int num_inputs;
    const char **pass;   /* options given to every single-file run */
    int num_pass;
} convert_opts;

typedef struct worker {
    pid_t pid;
    size_t job;
    double start;
    int had_output;      /* the output existed before, as (ino, mtime) */
    struct stat before;
} worker;

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- options ---------------------------------------------------------------- */

static int takes_value(const char *opt)
{
    int i;
    if (strchr(opt, '='))
        return 0;
    for (i = 0; value_options[i]; i++)
        if (strcmp(opt, value_options[i]) == 0)
            return 1;
    return 0;
}

static int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

static int parse_options(int argc, char **argv, convert_opts *o)
{
    int i, no_more = 0;
    memset(o, 0, sizeof *o);
    o->jobs = default_jobs();
    o->inputs = calloc((size_t)argc, sizeof *o->inputs);
    o->pass = calloc((size_t)argc, sizeof *o->pass);
    if (!o->inputs || !o->pass)
        return cli_usage_error(VERB, "out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (no_more || a[0] != '-' || strcmp(a, "-") == 0) {
            o->inputs[o->num_inputs++] = a;
        } else if (strcmp(a, "--") == 0) {
            no_more = 1;
        } else if (strcmp(a, "--to") == 0 || strncmp(a, "--to=", 5) == 0) {
            const char *name = a[4] == '=' ? a + 5 : value;
            size_t k;
            if (a[4] != '=')
                i++;
            if (!name)
                return cli_usage_error(VERB, "--to needs a format: glb, gltf, obj, stl, kfb, "
                                             "3ds or png");
            for (k = 0; k < NUM_FORMATS; k++)
                if (strcmp(name, formats[k].name) == 0)
                    o->fmt = &formats[k];
            if (!o->fmt)
                return cli_usage_error(VERB, "--to '%s': not a format; give glb, gltf, obj, "
                                             "stl, kfb, 3ds or png", name);
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (!value)
                return cli_usage_error(VERB, "-o needs the output folder");
            o->outdir = value;
            i++;
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 ||
                   (strncmp(a, "-j", 2) == 0 && a[2] >= '0' && a[2] <= '9')) {
            const char *n = a[1] == 'j' && a[2] ? a + 2 : value;
            char *end = NULL;
            long v = n ? strtol(n, &end, 10) : 0;
            if (!(a[1] == 'j' && a[2]))
                i++;
            if (!n || *end || v < 1 || v > MAX_JOBS)
                return cli_usage_error(VERB, "-j needs a number of worker processes from 1 "
                                             "to %d", MAX_JOBS);
            o->jobs = (int)v;
        } else if (strcmp(a, "--report") == 0) {
            if (!value)
                return cli_usage_error(VERB, "--report needs a file name (REPORT.json)");
            o->report = value;
            i++;
        } else if (strcmp(a, "--max-memory") == 0) {
            char *end = NULL;
            long v = value ? strtol(value, &end, 10) : 0;
            if (!value || *end || v < 1 || v > 1048576L)
                return cli_usage_error(VERB, "--max-memory needs the megabytes one worker may "
                                             "use, 1 to 1048576");
            o->max_memory_mb = v;
            i++;
        } else if (strcmp(a, "--skip-existing") == 0) {
            o->skip_existing = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
        } else {
            /* an option of the single-file verb: passed on, its value too */
            o->pass[o->num_pass++] = a;
            if (takes_value(a)) {
                if (!value)
                    return cli_usage_error(VERB, "%s needs a value", a);
                o->pass[o->num_pass++] = value;
                i++;
            }
        }
    }
    if (!o->fmt)
        return cli_usage_error(VERB, "no format given: --to glb|gltf|obj|stl|kfb|3ds|png");
    if (!o->outdir || !o->outdir[0])
        return cli_usage_error(VERB, "no output folder given: -o OUTDIR");
    if (o->num_inputs == 0)
        return cli_usage_error(VERB, "no input given: a folder or .3ds files");
    if (o->report && cli_is_stdout(o->report))
        return cli_usage_error(VERB, "--report needs a file name, not standard output");
    return CLI_EXIT_OK;
}

/* ---- files ---------------------------------------------------------------- */

/* mkdir -p of the folder that holds `file`. */
static int make_parent_dirs(const char *file)
{
    char *p = malloc(strlen(file) + 1), *s;
    int rc = 0;
    if (!p)
        return -1;
    strcpy(p, file);
    for (s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            rc = -1;
        *s = '/';
    }
    free(p);
    return rc;
}

/* The companion of an output (OUT.mtl beside OUT.obj, OUT.bin beside
 * OUT.gltf), malloc'd; NULL when the format has none. */
static char *companion_of(const convert_opts *o, const char *out)
{
    size_t n = strlen(out) - strlen(o->fmt->ext), m;
    char *p;
    if (!o->fmt->companion)
        return NULL;
    m = strlen(o->fmt->companion);
    p = malloc(n + m + 1);
    if (p) {
        memcpy(p, out, n);
        memcpy(p + n, o->fmt->companion, m + 1);
    }
    return p;
}

static long long file_size(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Removes the temporary files worker `pid` left beside `out` (the verbs'
 * "NAME.kf3ds-PID-N.tmp", docs/output.md). */
static void remove_temporaries(const char *out, pid_t pid)
{
    char dir[4096], tag[64];
    const char *slash = strrchr(out, '/');
    size_t n = slash ? (size_t)(slash - out) : 0;
    DIR *d;
    struct dirent *e;
    if (n >= sizeof dir)
        return;
    if (n)
        memcpy(dir, out, n);
    else
        dir[n++] = '.';
    dir[n] = '\0';
    snprintf(tag, sizeof tag, ".kf3ds-%ld-", (long)pid);
    if (!(d = opendir(dir)))
        return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strstr(e->d_name, tag) && len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0) {
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
    }
    closedir(d);
}

/* ---- one worker ------------------------------------------------------------- */

static void child_path(char *buf, size_t cap, const char *tmpdir, size_t job, const char *what)
{
    snprintf(buf, cap, "%s/%lu.%s", tmpdir, (unsigned long)job, what);
}

/* In the worker: the scene's size for the report, then the single-file verb
 * with stdout to /dev/null and stderr to a file the parent reads. */
static void run_child(const convert_opts *o, const convert_job *j, size_t index,
                      const char *tmpdir)
{
    char path[1200];
    const char **argv = calloc((size_t)o->num_pass + 6, sizeof *argv);
    int argc = 0, fd, k;
    kf3ds_scene *s;
    kf3ds_diag err;
    FILE *meta;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (o->max_memory_mb > 0) {
        /* a file that needs more fails alone, out of memory */
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)o->max_memory_mb * 1024 * 1024;
        setrlimit(RLIMIT_AS, &rl);
    }
    child_path(path, sizeof path, tmpdir, index, "err");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0)
        dup2(fd, 2);
    fd = open("/dev/null", O_WRONLY);
    if (fd >= 0)
        dup2(fd, 1);
    if (!argv)
        _exit(CLI_EXIT_INPUT);
    {
        /* a material library holds no scene: say what it holds, convert nothing */
        long bad, n = convert_library_materials(j->in, &bad);
        if (n >= 0) {
            child_path(path, sizeof path, tmpdir, index, "lib");
            if ((meta = fopen(path, "w")) != NULL) {
                fprintf(meta, "%ld\n", n);
                fclose(meta);
            }
            if (bad >= 0)
                fprintf(stderr, "kf3ds: warning: %s: offset %ld, chunk 0x3DAA MLIBMAGIC: the "
                                "material library is cut short or damaged here; %ld %s "
                                "counted before it\n",
                        j->in, bad, n, n == 1 ? "material" : "materials");
            fflush(stderr);
            _exit(CLI_EXIT_OK);
        }
    }
    child_path(path, sizeof path, tmpdir, index, "meta");
    s = kf3ds_load_file(j->in, NULL, &err);
    if (s && (meta = fopen(path, "w")) != NULL) {
        fprintf(meta, "%lu %ld %ld\n", (unsigned long)s->num_nodes, (long)s->segment_start,
                (long)s->segment_end);
        fclose(meta);
    }
    kf3ds_scene_free(s);
    argv[argc++] = o->fmt->verb->name;
    argv[argc++] = "-o";
    argv[argc++] = j->out;
    for (k = 0; k < o->num_pass; k++)
        argv[argc++] = o->pass[k];
    argv[argc++] = "--";
    argv[argc++] = j->in;
    k = o->fmt->verb->run(argc, (char **)argv);
    fflush(stdout);
    fflush(stderr);
    _exit(k);
}

/* The diagnostics the worker printed: "kf3ds: [warning: ]FILE: offset N,
 * chunk ...: message" and plain error lines. */
static void read_diags(convert_job *j, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[2048];
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        const char *text = line, *off;
        convert_diag *d;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!n || j->num_diags >= MAX_DIAGS_KEPT)
            continue;
        d = realloc(j->diags, (j->num_diags + 1) * sizeof *d);
        if (!d)
            break;
        j->diags = d;
        d = &j->diags[j->num_diags];
        if (strncmp(text, "kf3ds: ", 7) == 0)
            text += 7;
        d->error = strncmp(text, "warning: ", 9) != 0;
        off = strstr(text, ": offset ");
        /* "not a 3DS file" is about the root chunk's header, at offset 0 */
        d->offset = off ? strtoll(off + 9, NULL, 10) : strstr(text, ": not a 3DS file") ? 0 : -1;
        d->text = malloc(strlen(text) + 1);
        if (!d->text)
            break;
        strcpy(d->text, text);
        j->num_diags++;
    }
    fclose(f);
}

static void add_diag(convert_job *j, const char *text)
{
    convert_diag *d = realloc(j->diags, (j->num_diags + 1) * sizeof *d);
    if (!d)
        return;
    j->diags = d;
    d += j->num_diags;
    d->error = 1;
    d->offset = -1;
    d->text = malloc(strlen(text) + 1);
    if (d->text) {
        strcpy(d->text, text);
        j->num_diags++;
    }
}

/* What became of a job whose worker ended with wait status `st`. */
static void finish_job(const convert_opts *o, convert_job *j, const worker *w, int st,
                       size_t index, const char *tmpdir)
{
    char path[1200];
    struct stat now;
    FILE *meta;
    int fresh, errors = 0;
    size_t k;
    j->seconds = now_seconds() - w->start;
    j->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
    child_path(path, sizeof path, tmpdir, index, "err");
    read_diags(j, path);
    remove(path);
    child_path(path, sizeof path, tmpdir, index, "meta");
    if ((meta = fopen(path, "r")) != NULL) {
        long nodes, a, b;
        if (fscanf(meta, "%ld %ld %ld", &nodes, &a, &b) == 3) {
            j->nodes = nodes;
            j->first_frame = a;
            j->last_frame = b;
        }
        fclose(meta);
    }
    remove(path);
    child_path(path, sizeof path, tmpdir, index, "lib");
    if ((meta = fopen(path, "r")) != NULL) {
        long n;
        if (fscanf(meta, "%ld", &n) == 1 && n >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
            j->materials = n;
        fclose(meta);
        remove(path);
        if (j->materials >= 0) {
            j->outcome = CONVERT_LIBRARY;
            return;
        }
    }
    if (WIFSIGNALED(st)) {
        char why[96];
        char *comp = companion_of(o, j->out);
        snprintf(why, sizeof why, "%s: the worker ended by signal %d (%s); no output",
                 j->in ? "convert" : "", WTERMSIG(st), strsignal(WTERMSIG(st)));
        add_diag(j, why);
        remove_temporaries(j->out, w->pid);
        if (comp)
            remove_temporaries(comp, w->pid);
        free(comp);
    }
    fresh = stat(j->out, &now) == 0 &&
            (!w->had_output || now.st_ino != w->before.st_ino ||
             now.st_mtime != w->before.st_mtime);
    for (k = 0; k < j->num_diags; k++)
        errors |= j->diags[k].error;
    if (!fresh || WIFSIGNALED(st)) {
        j->outcome = CONVERT_FAILED;
    } else {
        char *comp = companion_of(o, j->out);
        j->out_bytes = file_size(j->out) + file_size(comp);
        free(comp);
        j->outcome = j->status != 0 || errors ? CONVERT_REPAIRED
                     : j->num_diags          ? CONVERT_WARNINGS
                                             : CONVERT_OK;
    }
}

/* ---- progress ------------------------------------------------------------- */

typedef struct progress {
    int tty, quiet;
    size_t total, done, failed;
    double start, last_draw;
} progress;

static void progress_line(progress *p, const convert_job *j, int force)
{
    double t = now_seconds(), el = t - p->start;
    double rate = el > 0 ? (double)p->done / el : 0.0;
    if (p->quiet)
        return;
    if (p->tty) {
        double eta;
        if (!force && t - p->last_draw < 0.1 && p->done < p->total)
            return;
        p->last_draw = t;
        eta = rate > 0 ? (double)(p->total - p->done) / rate : 0.0;
        fprintf(stderr, "\r\033[Kconvert: %lu/%lu files, %.1f files/s, ETA %d:%02d, %lu failed",
                (unsigned long)p->done, (unsigned long)p->total, rate, (int)(eta / 60),
                (int)eta % 60, (unsigned long)p->failed);
    } else if (j && j->outcome == CONVERT_LIBRARY) {
        fprintf(stderr, "convert: [%lu/%lu] %s: %s: %ld %s, no scene to convert\n",
                (unsigned long)p->done, (unsigned long)p->total,
                convert_outcome_name(j->outcome), j->in, j->materials,
                j->materials == 1 ? "material" : "materials");
    } else if (j) {
        fprintf(stderr, "convert: [%lu/%lu] %s: %s -> %s\n", (unsigned long)p->done,
                (unsigned long)p->total, convert_outcome_name(j->outcome), j->in, j->out);
    }
}

/* A failure on its own line (also on a terminal, above the progress line). */
static void print_failure(progress *p, const convert_job *j)
{
    const char *why = "no output";
    size_t k;
    for (k = 0; k < j->num_diags; k++)
        if (j->diags[k].error) {
            why = j->diags[k].text;
            break;
        }
    if (p->tty && !p->quiet)
        fputs("\r\033[K", stderr);
    if (strncmp(why, j->in, strlen(j->in)) == 0 && strncmp(why + strlen(j->in), ": ", 2) == 0)
        why += strlen(j->in) + 2; /* the verb named the file already */
    fprintf(stderr, "kf3ds: convert: failed: %s: %s\n", j->in, why);
}

/* ---- the run ---------------------------------------------------------------- */

static int run_convert(convert_opts *o)
{
    convert_jobs jobs;
    worker *workers;
    progress p;
    char tmpdir[1024];
    const char *tmproot = getenv("TMPDIR");
    struct sigaction sa, old_int, old_term;
    size_t next = 0, running = 0, i;
    int usage_failed = 0, status = CLI_EXIT_OK, w;
    double t0 = now_seconds();

    memset(&jobs, 0, sizeof jobs);
    {
        /* the output folder and the folders above it, as mkdir -p */
        size_t n = strlen(o->outdir);
        char *probe = malloc(n + 3);
        if (probe) {
            memcpy(probe, o->outdir, n);
            memcpy(probe + n, "/x", 3);
            make_parent_dirs(probe);
            free(probe);
        }
    }
    if (mkdir(o->outdir, 0777) != 0 && errno != EEXIST) {
        cli_print_error(o->outdir, "cannot create the output folder: %s", strerror(errno));
        return CLI_EXIT_INPUT;
    }
    for (i = 0; i < (size_t)o->num_inputs; i++)
        if (convert_walk(&jobs, o->inputs[i], o->outdir, o->fmt->ext, o->outdir) != 0) {
            convert_jobs_free(&jobs);
            return CLI_EXIT_INPUT;
        }
    snprintf(tmpdir, sizeof tmpdir, "%s/kf3ds-convert-XXXXXX",
             tmproot && tmproot[0] ? tmproot : "/tmp");
    workers = calloc((size_t)o->jobs, sizeof *workers);
    if (!workers || !mkdtemp(tmpdir)) {
        cli_print_error(tmpdir, "cannot create a temporary folder: %s", strerror(errno));
        free(workers);
        convert_jobs_free(&jobs);
        return CLI_EXIT_INPUT;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop; /* no SA_RESTART: waitpid returns on the signal */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    memset(&p, 0, sizeof p);
    p.tty = isatty(2);
    p.quiet = o->quiet;
    p.total = jobs.n;
    p.start = t0;
    if (!o->quiet && !p.tty)
        fprintf(stderr, "convert: %lu %s to %s in %s, %d %s\n", (unsigned long)jobs.n,
                cli_plural(jobs.n, "file", "files"), o->fmt->name, o->outdir, o->jobs,
                cli_plural((unsigned long long)o->jobs, "worker", "workers"));
    fflush(stdout);
    fflush(stderr);
    while (!stop_signal && !usage_failed && (next < jobs.n || running > 0)) {
        /* start workers while there are free slots */
        while (!stop_signal && !usage_failed && next < jobs.n && running < (size_t)o->jobs) {
            convert_job *j = &jobs.v[next];
            worker *wk = NULL;
            for (w = 0; w < o->jobs; w++)
                if (workers[w].pid == 0) {
                    wk = &workers[w];
                    break;
                }
            if (!wk)
                break; /* (cannot happen: running < jobs means a free slot) */
            if (o->skip_existing && access(j->out, F_OK) == 0) {
                char *comp = companion_of(o, j->out);
                j->outcome = CONVERT_SKIPPED;
                j->out_bytes = file_size(j->out) + file_size(comp);
                free(comp);
                next++;
                p.done++;
                progress_line(&p, j, 0);
                continue;
            }
            if (make_parent_dirs(j->out) != 0) {
                char why[256];
                snprintf(why, sizeof why, "%s: cannot create its folder: %s", j->out,
                         strerror(errno));
                add_diag(j, why);
                j->outcome = CONVERT_FAILED;
                next++;
                p.done++;
                p.failed++;
                print_failure(&p, j);
                continue;
            }
            wk->had_output = stat(j->out, &wk->before) == 0;
            wk->job = next;
            wk->start = now_seconds();
            wk->pid = fork();
            if (wk->pid == 0)
                run_child(o, j, next, tmpdir);
            if (wk->pid < 0) {
                wk->pid = 0;
                if (running == 0) {
                    cli_print_error(j->in, "convert: cannot start a worker: %s",
                                    strerror(errno));
                    usage_failed = 1;
                }
                break;
            }
            next++;
            running++;
        }
        if (running == 0)
            continue;
        {
            int st;
            pid_t pid = waitpid(-1, &st, 0);
            worker *wk = NULL;
            if (pid < 0)
                continue; /* a signal: the loop's test sees it */
            for (w = 0; w < o->jobs; w++)
                if (workers[w].pid == pid)
                    wk = &workers[w];
            if (!wk)
                continue;
            running--;
            finish_job(o, &jobs.v[wk->job], wk, st, wk->job, tmpdir);
            wk->pid = 0;
            if (WIFEXITED(st) && WEXITSTATUS(st) == CLI_EXIT_USAGE) {
                /* the options passed on do not suit the verb: every file would fail */
                convert_job *j = &jobs.v[wk->job];
                size_t k;
                if (p.tty && !p.quiet)
                    fputs("\r\033[K", stderr);
                for (k = 0; k < j->num_diags; k++)
                    fprintf(stderr, "kf3ds: %s\n", j->diags[k].text);
                cli_usage_error(VERB, "the options passed to '%s' are wrong; stopped",
                                o->fmt->verb->name);
                usage_failed = 1;
                j->outcome = CONVERT_PENDING;
                continue;
            }
            p.done++;
            if (jobs.v[wk->job].outcome == CONVERT_FAILED) {
                p.failed++;
                print_failure(&p, &jobs.v[wk->job]);
            }
            progress_line(&p, &jobs.v[wk->job], p.done == p.total);
        }
    }
    /* interrupted (or stopped): the workers still running are stopped and
     * their temporary files removed; their files count as not run */
    for (w = 0; w < o->jobs; w++)
        if (workers[w].pid > 0)
            kill(workers[w].pid, SIGTERM);
    for (w = 0; w < o->jobs; w++)
        if (workers[w].pid > 0) {
            char *comp = companion_of(o, jobs.v[workers[w].job].out);
            while (waitpid(workers[w].pid, NULL, 0) < 0 && errno == EINTR)
                ;
            remove_temporaries(jobs.v[workers[w].job].out, workers[w].pid);
            if (comp)
                remove_temporaries(comp, workers[w].pid);
            free(comp);
            workers[w].pid = 0;
        }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    rmdir(tmpdir);
    if (p.tty && !p.quiet)
        fputs("\n", stderr);
    {
        double el = now_seconds() - t0;
        if (!o->quiet)
            convert_print_summary(stdout, &jobs, el, stop_signal != 0);
        if (o->report && convert_write_report(o->report, &jobs, o->fmt->name, el,
                                              stop_signal != 0 || usage_failed) != 0)
            status = CLI_EXIT_INPUT;
    }
    if (p.failed)
        status = CLI_EXIT_INPUT;
    if (usage_failed)
        status = CLI_EXIT_USAGE;
    free(workers);
    convert_jobs_free(&jobs);
    if (stop_signal) {
        if (!o->quiet)
            fprintf(stderr, "kf3ds: convert: interrupted; the files not converted are "
                            "converted by running the same command with --skip-existing\n");
        return 128 + (int)stop_signal;
    }
    return status;
}

static int cmd_convert(int argc, char **argv)
{
    convert_opts o;
    int status;
    if (cli_wants_help(argc, argv)) {
        cli_print_verb_help(stdout, &cmd_convert_verb);
        return CLI_EXIT_OK;
    }
    status = parse_options(argc, argv, &o);
    if (status == CLI_EXIT_OK)
        status = run_convert(&o);
    free(o.inputs);
    free(o.pass);
    return status;
}

const cli_verb cmd_convert_verb = {
    "convert",
    cmd_convert,
    "convert DIR|FILE... --to glb|gltf|obj|stl|kfb|3ds|png -o OUTDIR [-j N]\n"
    "       [--report REPORT.json] [--skip-existing] [--max-memory MB] [-q]\n"
    "       [options of the verb]",
    "Convert whole folders of .3ds files in parallel, with progress and a report.",
    "Walks each folder recursively for .3ds, .prj and .mli files (any case) and\n"
    "converts each to OUTDIR, keeping the folder structure: DIR/a/b.3ds becomes\n"
    "OUTDIR/a/b.glb. A material library (.mli) holds no scene: it is listed with\n"
    "its number of materials (outcome \"material library\") and converts to nothing.\n"
    "Each file is converted by the single-file verb in its own worker process:\n"
    "glb, gltf, obj and stl by export, kfb by bake, 3ds by rewrite, png by render.\n"
    "A bad file never stops the run; outputs appear only when complete.\n"
    "\n"
    "Options:\n"
    "  --to FORMAT        glb, gltf, obj, stl, kfb, 3ds or png\n"
    "  -o, --output DIR   the output folder (made when missing)\n"
    "  -j, --jobs N       worker processes (default: the number of cores)\n"
    "  --report FILE      write a JSON report: per file the outcome (ok, ok with\n"
    "                     warnings, repaired, failed, skipped, material library),\n"
    "                     the diagnostics with\n"
    "                     their offsets, nodes, frames, output bytes and seconds\n"
    "  --skip-existing    leave files whose output is there (resumes a run)\n"
    "  --max-memory MB    the address space one worker may use; a file that needs\n"
    "                     more fails alone (default: no limit)\n"
    "  -q, --quiet        no progress and no summary; failures are still printed\n"
    "Every other option goes to the single-file verb for every file, e.g. --fps N,\n"
    "--frames A:B, --frame F (export), --fixed, --step S (bake), --size WxH (render).\n"
    "\n"
    "On a terminal one progress line (files done/total, rate, ETA, failures);\n"
    "otherwise one line per file. At the end a table of outcomes and each failure.\n"
    "Exit status: 0 when no file failed, 1 when one did, 2 for wrong usage, 128+N\n"
    "after signal N (Ctrl-C: 130), which leaves no partial output: run the same\n"
    "command with --skip-existing to go on.\n",
};
