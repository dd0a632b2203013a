/* The output side of every verb that writes a file (issue 24, docs/output.md
 * "Output files"): -o - is standard output with the same bytes as a file;
 * outputs that cannot stream and binary on a terminal are refused with one
 * wording; an unwritable path gets one message and leaves no file; -o x.jpg
 * is refused; -q silences warnings in every verb; the viewer's no-display
 * line suggests a command that ends. Runs on data/ only (no corpus). */
#define _XOPEN_SOURCE 600 /* posix_openpt: a terminal for the refusal */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#define ARM "data/arm.3ds"
#define EDGE "data/edge.3ds" /* two warnings, no error */

/* One verb that writes one file, and how its output is named. */
typedef struct verb_case {
    const char *verb;
    const char *args[8];  /* after the verb, before the output option */
    const char *option;   /* "-o", "--screenshot" */
    const char *ext;      /* a name it accepts */
    const char *binary;   /* the format named by the terminal refusal */
    const char *env;
} verb_case;

static const verb_case cases[] = {
    {"render", {ARM, "--size", "160x120", NULL}, "-o", ".png", "PNG", NULL},
    {"plot", {ARM, "--all", NULL}, "-o", ".png", "PNG", NULL},
    {"export", {ARM, NULL}, "-o", ".glb", "glTF (.glb)", NULL},
    {"bake", {ARM, NULL}, "-o", ".kfb", "kfb", NULL},
    {"rewrite", {ARM, NULL}, "-o", ".3ds", "3DS", NULL},
    {"view", {ARM, "--exit-after-frames", "1", "--size", "160x120", NULL}, "--screenshot", ".png",
     "PNG", "SDL_VIDEODRIVER=dummy"},
};
#define NUM_CASES (sizeof cases / sizeof cases[0])

/* The argument vector of a case writing to `out`, with `extra` (or NULL)
 * at the end; `input` replaces the case's FILE when not NULL. */
static void case_argv(const verb_case *c, const char *input, const char *out, const char *extra,
                      const char **argv)
{
    size_t n = 0, i;
    argv[n++] = c->verb;
    for (i = 0; c->args[i]; i++)
        argv[n++] = i == 0 && input ? input : c->args[i];
    argv[n++] = c->option;
    argv[n++] = out;
    if (extra)
        argv[n++] = extra;
    argv[n] = NULL;
}

static support_run run_case(const verb_case *c, const char *input, const char *out,
                            const char *extra, const char *env)
{
    const char *argv[16];
    case_argv(c, input, out, extra, argv);
    support_set_what("%s %s %s", c->verb, c->option, out);
    return support_run_argv(support_tmpdir(), env ? env : c->env, argv);
}

/* The names in directory `dir` (not . and ..), counted. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static void make_dir(const char *name, char *path, size_t cap)
{
    support_tmp_path(path, cap, name);
    assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
}

/* ---- -o - ---------------------------------------------------------------- */

/* For every verb, -o - puts on standard output exactly the bytes -o FILE
 * writes, and nothing else (no 'wrote' line). */
static void test_stdout_same_bytes(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NUM_CASES; i++) {
        const verb_case *c = &cases[i];
        char dir[400], path[500];
        unsigned char *file;
        size_t size;
        support_run r;
        make_dir("same", dir, sizeof dir);
        snprintf(path, sizeof path, "%s/out%s", dir, c->ext);
        support_expect_exit(run_case(c, NULL, path, "-q", NULL), 0);
        file = support_read_file(path, &size);
        assert_non_null(file);
        assert_true(size > 8);
        r = run_case(c, NULL, "-", NULL, NULL);
        support_expect_status(&r, 0);
        assert_string_equal(r.err, "");
        if (r.out_len != size || memcmp(r.out, file, size) != 0)
            fail_msg("%s: -o - gave %lu bytes, -o FILE %lu, or they differ", c->verb,
                     (unsigned long)r.out_len, (unsigned long)size);
        support_run_free(&r);
        free(file);
        remove(path);
        assert_int_equal(count_entries(dir), 0);
    }
}

/* plot -o - is PNG; export -o - is a .glb (the one glTF form that streams). */
static void test_stdout_formats(void **state)
{
    support_run r;
    (void)state;
    r = support_run_tool(NULL, "plot", ARM, "--node", "UpperArm", "-o", "-", (char *)NULL);
    support_expect_status(&r, 0);
    assert_true(r.out_len > 8);
    assert_memory_equal(r.out, "\x89PNG\r\n\x1a\n", 8);
    support_run_free(&r);
    r = support_run_tool(NULL, "export", ARM, "-o", "-", (char *)NULL);
    support_expect_status(&r, 0);
    assert_true(r.out_len > 12);
    assert_memory_equal(r.out, "glTF\x02\0\0\0", 8);
    support_run_free(&r);
}

/* What cannot stream is refused before anything is read, in one wording. */
static void test_stdout_refusals(void **state)
{
    support_run r;
    (void)state;
    r = support_run_tool(NULL, "render", ARM, "--frames", "0:2", "-o", "-", (char *)NULL);
    support_expect_status(&r, 2);
    assert_string_equal(r.err, "kf3ds: render: -o -: --frames cannot be written to standard "
                               "output (one PNG per frame) (see 'kf3ds help render')\n");
    assert_int_equal(r.out_len, 0);
    support_run_free(&r);
    r = support_run_tool(NULL, "bake", ARM, "--c-source", "-", (char *)NULL);
    support_expect_status(&r, 2);
    assert_string_equal(r.err, "kf3ds: bake: --c-source -: C source cannot be written to "
                               "standard output (NAME.c and NAME.h) (see 'kf3ds help bake')\n");
    assert_int_equal(r.out_len, 0);
    support_run_free(&r);
}

/* Runs a case with standard output on a new terminal (a pty); returns the
 * exit status and the standard error in err. */
static int run_on_terminal(const verb_case *c, char *err, size_t cap)
{
    const char *argv[18];
    char err_path[400], *slave;
    int master, status = -1;
    pid_t pid;
    FILE *f;
    size_t n;
    argv[0] = support_tool();
    case_argv(c, NULL, "-", NULL, argv + 1);
    support_tmp_path(err_path, sizeof err_path, "tty_err.txt");
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ||
        !(slave = ptsname(master)))
        fail_msg("no pseudo-terminal: %s", strerror(errno));
    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int s = open(slave, O_RDWR | O_NOCTTY), e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC,
                                                         0644), in = open("/dev/null", O_RDONLY);
        if (s < 0 || e < 0 || in < 0 || dup2(in, 0) < 0 || dup2(s, 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        if (c->env)
            putenv((char *)c->env);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        fail_msg("%s did not exit", c->verb);
    close(master);
    f = fopen(err_path, "rb");
    assert_non_null(f);
    n = fread(err, 1, cap - 1, f);
    err[n] = '\0';
    fclose(f);
    return WEXITSTATUS(status);
}

/* Binary on a terminal: one usage line naming the format, the same words in
 * every verb. */
static void test_terminal_refused(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NUM_CASES; i++) {
        const verb_case *c = &cases[i];
        char err[1024], want[400];
        int status = run_on_terminal(c, err, sizeof err);
        snprintf(want, sizeof want,
                 "kf3ds: %s: refusing to write binary %s to a terminal; redirect standard output "
                 "or give %s FILE (see 'kf3ds help %s')\n",
                 c->verb, c->binary, c->option, c->verb);
        support_set_what("%s on a terminal", c->verb);
        assert_string_equal(err, want);
        assert_int_equal(status, 2);
    }
}

/* ---- unwritable outputs ------------------------------------------------------- */

/* The one message, exit 1, and the folder as it was. */
static void expect_cannot_write(const verb_case *c, const char *out, const char *reason,
                                const char *env, const char *dir, int entries)
{
    char want[700];
    support_run r = run_case(c, NULL, out, "-q", env);
    snprintf(want, sizeof want, "kf3ds: %s: cannot write: %s\n", out, reason);
    support_expect_status(&r, 1);
    assert_string_equal(r.err, want);
    if (dir)
        assert_int_equal(count_entries(dir), entries);
    support_run_free(&r);
}

static void test_unwritable(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NUM_CASES; i++) {
        const verb_case *c = &cases[i];
        char dir[400], out[600], env[200];
        make_dir("unwritable", dir, sizeof dir);
        /* a missing folder */
        snprintf(out, sizeof out, "%s/missing/out%s", dir, c->ext);
        expect_cannot_write(c, out, "No such file or directory", NULL, dir, 0);
        /* a folder given as the file */
        snprintf(out, sizeof out, "%s/folder%s", dir, c->ext);
        assert_int_equal(mkdir(out, 0755), 0);
        expect_cannot_write(c, out, "Is a directory", NULL, dir, 1);
        assert_int_equal(rmdir(out), 0);
        /* a folder without write permission (root may write anyway) */
        if (geteuid() != 0) {
            char ro[450];
            snprintf(ro, sizeof ro, "%s/ro", dir);
            assert_int_equal(mkdir(ro, 0555), 0);
            snprintf(out, sizeof out, "%s/out%s", ro, c->ext);
            expect_cannot_write(c, out, "Permission denied", NULL, ro, 0);
            assert_int_equal(rmdir(ro), 0);
        }
        /* a device that fills: written in place, the error seen at the end */
        if (access("/dev/full", W_OK) == 0 && c->ext[1] != 'g') /* export needs .glb */
            expect_cannot_write(c, "/dev/full", "No space left on device", NULL, NULL, 0);
        /* a write that fails halfway (a file size limit of 1 block, 512 bytes in dash): no file left,
         * and a file that was there keeps its bytes */
        snprintf(out, sizeof out, "%s/big%s", dir, c->ext);
        snprintf(env, sizeof env, "trap '' XFSZ; ulimit -f 1; %s", c->env ? c->env : "");
        expect_cannot_write(c, out, "File too large", env, dir, 0);
        support_write_file(out, "old", 3);
        expect_cannot_write(c, out, "File too large", env, dir, 1);
        {
            size_t size;
            unsigned char *old = support_read_file(out, &size);
            assert_non_null(old);
            assert_int_equal(size, 3);
            assert_memory_equal(old, "old", 3);
            free(old);
        }
        remove(out);
        assert_int_equal(count_entries(dir), 0);
    }
}

/* Standard output that fills: the same line with '-' for OUT, once. */
static void test_stdout_full(void **state)
{
    size_t i;
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    for (i = 0; i < NUM_CASES; i++) {
        const verb_case *c = &cases[i];
        char cmd[600], err_path[400], *err;
        size_t n, k;
        int st;
        support_tmp_path(err_path, sizeof err_path, "full_err.txt");
        n = (size_t)snprintf(cmd, sizeof cmd, "%s '%s' %s", c->env ? c->env : "",
                             support_tool(), c->verb);
        for (k = 0; c->args[k]; k++)
            n += (size_t)snprintf(cmd + n, sizeof cmd - n, " %s", c->args[k]);
        snprintf(cmd + n, sizeof cmd - n, " %s - >/dev/full 2>'%s'", c->option, err_path);
        st = system(cmd);
        support_set_what("%s", cmd);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 1);
        err = (char *)support_read_file(err_path, &n);
        assert_non_null(err);
        assert_true(n == strlen("kf3ds: -: cannot write: No space left on device\n") &&
                    memcmp(err, "kf3ds: -: cannot write: No space left on device\n", n) == 0);
        free(err);
    }
}

/* ---- the format of -o ---------------------------------------------------------- */

static void test_other_extension(void **state)
{
    char dir[400], out[500], want[700];
    support_run r;
    (void)state;
    make_dir("ext", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/x.jpg", dir);
    r = support_run_tool(NULL, "render", ARM, "-o", out, (char *)NULL);
    support_expect_status(&r, 2);
    snprintf(want, sizeof want, "kf3ds: render: -o '%s': render writes PNG only (name it .png) "
                                "(see 'kf3ds help render')\n", out);
    assert_string_equal(r.err, want);
    support_run_free(&r);
    r = support_run_tool(NULL, "plot", ARM, "--all", "-o", out, (char *)NULL);
    support_expect_status(&r, 2);
    snprintf(want, sizeof want, "kf3ds: plot: -o '%s': plot writes SVG, PDF or PNG (name it "
                                ".svg, .pdf or .png) (see 'kf3ds help plot')\n", out);
    assert_string_equal(r.err, want);
    support_run_free(&r);
    r = support_run_tool("SDL_VIDEODRIVER=dummy", "view", ARM, "--exit-after-frames", "1",
                         "--screenshot", out, (char *)NULL);
    support_expect_status(&r, 2);
    snprintf(want, sizeof want, "kf3ds: view: --screenshot '%s': view writes PNG only (name it "
                                ".png) (see 'kf3ds help view')\n", out);
    assert_string_equal(r.err, want);
    support_run_free(&r);
    assert_int_equal(count_entries(dir), 0);

    /* .PNG in capitals and a name without extension are PNG; plot's
     * .svg / .pdf by name */
    snprintf(out, sizeof out, "%s/X.PNG", dir);
    support_run_ok(NULL, "render", ARM, "--size", "16x12", "-q", "-o", out, (char *)NULL);
    snprintf(out, sizeof out, "%s/noext", dir);
    support_run_ok(NULL, "render", ARM, "--size", "16x12", "-q", "-o", out, (char *)NULL);
    snprintf(out, sizeof out, "%s/p.SVG", dir);
    support_run_ok(NULL, "plot", ARM, "--all", "-q", "-o", out, (char *)NULL);
    snprintf(out, sizeof out, "%s/p.pdf", dir);
    support_run_ok(NULL, "plot", ARM, "--all", "-q", "-o", out, (char *)NULL);
    {
        static const char *const names[][2] = {
            {"X.PNG", "\x89PNG"}, {"noext", "\x89PNG"}, {"p.SVG", "<?xm"}, {"p.pdf", "%PDF"}};
        size_t i, size;
        for (i = 0; i < 4; i++) {
            unsigned char *b;
            snprintf(out, sizeof out, "%s/%s", dir, names[i][0]);
            b = support_read_file(out, &size);
            assert_non_null(b);
            assert_true(size > 4);
            assert_memory_equal(b, names[i][1], 4);
            free(b);
            remove(out);
        }
    }
    assert_int_equal(count_entries(dir), 0);
}

/* ---- -q ------------------------------------------------------------------------- */

static void test_quiet(void **state)
{
    static const char *const readers[][4] = {
        {"info", EDGE, NULL}, {"dump", EDGE, NULL}, {"eval", EDGE, "--frame", "0"}};
    size_t i;
    (void)state;
    for (i = 0; i < NUM_CASES + 3; i++) {
        support_run loud, quiet;
        if (i < NUM_CASES) {
            const verb_case *c = &cases[i];
            char out[500];
            support_tmp_path(out, sizeof out, "quiet");
            strcat(out, c->ext);
            loud = run_case(c, EDGE, out, NULL, NULL);
            quiet = run_case(c, EDGE, out, "-q", NULL);
            remove(out);
        } else {
            const char *const *a = readers[i - NUM_CASES];
            support_set_what("%s -q", a[0]);
            loud = support_run_tool(NULL, a[0], a[1], a[2], a[3], (char *)NULL);
            quiet = support_run_tool(NULL, a[0], a[1], "-q", a[2], a[3], (char *)NULL);
        }
        support_expect_status(&loud, 0);
        support_expect_status(&quiet, 0);
        assert_int_equal(support_check_error_lines(loud.err, EDGE, 1), 0);
        assert_non_null(strstr(loud.err, "kf3ds: warning: " EDGE ": offset 2156, chunk 0xB020 "
                                         "POS_TRACK_TAG: keys out of frame order"));
        assert_string_equal(quiet.err, "");
        support_run_free(&loud);
        support_run_free(&quiet);
    }
}

/* The map warnings of render and view too; errors stay. */
static void test_quiet_maps_and_errors(void **state)
{
    char dir[400], in[500], out[500];
    unsigned char *b;
    size_t size;
    support_run r;
    (void)state;
    make_dir("maps", dir, sizeof dir);
    snprintf(in, sizeof in, "%s/textured.3ds", dir); /* without its maps beside it */
    b = support_read_file("data/textured.3ds", &size);
    assert_non_null(b);
    support_write_file(in, b, size);
    free(b);
    snprintf(out, sizeof out, "%s/t.png", dir);
    r = support_run_tool(NULL, "render", in, "--size", "16x12", "-o", out, (char *)NULL);
    support_expect_status(&r, 0);
    assert_non_null(strstr(r.err, "kf3ds: warning: "));
    assert_non_null(strstr(r.err, "not found in"));
    support_run_free(&r);
    r = support_run_tool(NULL, "render", in, "--size", "16x12", "-o", out, "-q", (char *)NULL);
    support_expect_status(&r, 0);
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, "");
    support_run_free(&r);
    r = support_run_tool("SDL_VIDEODRIVER=dummy", "view", in, "--exit-after-frames", "1", "-q",
                         (char *)NULL);
    support_expect_status(&r, 0);
    assert_string_equal(r.err, "");
    support_run_free(&r);
    /* an error is still printed with -q */
    r = support_run_tool(NULL, "info", "data/brick.bmp", "-q", (char *)NULL);
    support_expect_status(&r, 1);
    assert_true(support_check_error_lines(r.err, "data/brick.bmp", 0) == 1);
    support_run_free(&r);
    remove(out);
    remove(in);
}

/* ---- the viewer without a display ----------------------------------------------- */

static void test_view_no_display(void **state)
{
    support_run r;
    (void)state;
    r = support_run_tool("env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER", "view", ARM,
                         (char *)NULL);
    support_expect_status(&r, 1);
    assert_string_equal(r.err,
                        "kf3ds: view: cannot open a window (SDL_Init: no display: DISPLAY and "
                        "WAYLAND_DISPLAY are not set); without a display run "
                        "SDL_VIDEODRIVER=dummy kf3ds view FILE --exit-after-frames N "
                        "--screenshot OUT.png, or use 'kf3ds render FILE -o OUT.png' for a "
                        "PNG\n");
    support_run_free(&r);
    /* the suggested command ends and writes the PNG */
    {
        char out[500];
        unsigned char *b;
        size_t size;
        support_tmp_path(out, sizeof out, "suggested.png");
        support_run_ok("env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=dummy", "view", ARM,
                       "--size", "32x24", "--exit-after-frames", "2", "--screenshot", out,
                       (char *)NULL);
        b = support_read_file(out, &size);
        assert_non_null(b);
        assert_memory_equal(b, "\x89PNG", 4);
        free(b);
        remove(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stdout_same_bytes),
        cmocka_unit_test(test_stdout_formats),
        cmocka_unit_test(test_stdout_refusals),
        cmocka_unit_test(test_terminal_refused),
        cmocka_unit_test(test_unwritable),
        cmocka_unit_test(test_stdout_full),
        cmocka_unit_test(test_other_extension),
        cmocka_unit_test(test_quiet),
        cmocka_unit_test(test_quiet_maps_and_errors),
        cmocka_unit_test(test_view_no_display),
    };
    return support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown);
}
