/* The input side of every verb of the kf3ds command (issue 24): unbounded
 * input ends at once (/dev/zero, a FIFO fed endlessly, a 10 GB sparse file),
 * inputs that are not 3DS files are named for what they are, `kf3ds FILE.3ds`
 * suggests `kf3ds info`, exit status 2 means wrong usage only, and every verb's
 * help has its exit-status paragraph (docs/output.md, "Exit status" and
 * "Input"). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support.h"
#include "support_build.h"

typedef support_run run_result;
#define run_free support_run_free

/* Every verb that reads FILE, with the options it needs besides FILE (the
 * outputs land in the suite's folder). view runs with SDL's dummy driver. */
typedef struct verb_case {
    const char *verb;
    const char *args[5];
} verb_case;

static const verb_case verbs[] = {
    { "info", { NULL } },
    { "dump", { NULL } },
    { "eval", { "--frame", "0", NULL } },
    { "bake", { "-o", "out.kfb", NULL } },
    { "rewrite", { "-o", "out.3ds", NULL } },
    { "export", { "-o", "out.glb", NULL } },
    { "render", { "-o", "out.png", NULL } },
    { "plot", { "--all", "-o", "out.svg", NULL } },
    { "view", { "--exit-after-frames", "1", NULL } },
};
#define NUM_VERBS (sizeof verbs / sizeof verbs[0])

/* Runs verb `v` on `file` (through the shell: stdin is /dev/null; the
 * command runs in the current folder, so outputs get the suite's folder). */
static run_result run_verb(const verb_case *v, const char *file)
{
    const char *args[10];
    static char outs[5][300];
    size_t n = 0, i;
    args[n++] = v->verb;
    args[n++] = file;
    for (i = 0; v->args[i]; i++) {
        args[n++] = v->args[i];
        if (strncmp(v->args[i], "out.", 4) == 0) { /* outputs go to the suite's folder */
            support_tmp_path(outs[i], sizeof outs[i], v->args[i]);
            args[n - 1] = outs[i];
        }
    }
    args[n] = NULL;
    return support_run_argv(support_tmpdir(), "SDL_VIDEODRIVER=dummy", args);
}

/* ------------------------------------------------------------------------ */
/* Running the tool with a given standard input, with a deadline            */
/* ------------------------------------------------------------------------ */

typedef struct timed_run {
    int status;     /* exit status, 128 + signal, or -1 when killed at the deadline */
    double seconds; /* how long it ran */
    char *err;      /* stderr, NUL-terminated */
} timed_run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs the tool with argv `args` (args[0] the verb) and standard input from
 * `in` (a path, opened for reading), killing it after 10 seconds. */
static timed_run run_timed(const char *in, const char *const *args)
{
    timed_run r;
    char err_path[400], out_path[400];
    const char *argv[16];
    size_t n = 0, size = 0;
    pid_t pid;
    int st = 0;
    double start;

    memset(&r, 0, sizeof r);
    support_tmp_path(err_path, sizeof err_path, "timed.err");
    support_tmp_path(out_path, sizeof out_path, "timed.out");
    static char tool[4096];
    if (!realpath(support_tool(), tool)) /* the child runs in the suite's folder */
        fail_msg("%s: %s", support_tool(), strerror(errno));
    argv[n++] = tool;
    while (*args && n + 1 < sizeof argv / sizeof argv[0])
        argv[n++] = *args++;
    argv[n] = NULL;
    start = now();
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd_in = open(in, O_RDONLY);
        int fd_out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fd_err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd_in < 0 || fd_out < 0 || fd_err < 0)
            _exit(126);
        dup2(fd_in, 0);
        dup2(fd_out, 1);
        dup2(fd_err, 2);
        if (chdir(support_tmpdir()) != 0)
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (now() - start > 10.0) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            r.status = -1;
            break;
        }
        {
            struct timespec nap = { 0, 5000000 };
            nanosleep(&nap, NULL);
        }
    }
    r.seconds = now() - start;
    if (r.status != -1)
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    {
        unsigned char *bytes = support_read_file(err_path, &size);
        r.err = calloc(1, size + 1);
        assert_non_null(r.err);
        if (bytes)
            memcpy(r.err, bytes, size);
        free(bytes);
    }
    return r;
}

/* A child that writes `head` (n bytes), then zeros, into the FIFO `path`
 * until the reader goes away. */
static pid_t start_writer(const char *path, const void *head, size_t n)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        static const char zeros[4096];
        int fd = open(path, O_WRONLY);
        signal(SIGPIPE, SIG_DFL);
        if (fd < 0 || (n && write(fd, head, n) != (ssize_t)n))
            _exit(1);
        for (;;)
            if (write(fd, zeros, sizeof zeros) < 0)
                _exit(0);
    }
    return pid;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

static char anim_path[300], static_path[300], kfb_path[300];

/* One triangle mesh; with a keyframer node when `animated`. */
static unsigned char *build_model(int animated, size_t *size)
{
    static const float points[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    static const uint16_t faces[3] = { 0, 1, 2 };
    static const float pos[3] = { 1, 2, 3 };
    kf3ds_builder *b = support_builder();
    support_build_mesh(b, "Box", points, 3, faces, NULL, 1, NULL);
    if (animated) {
        kf3ds_key one = support_key(0, 1, 1, 1, 0);
        int32_t node;
        kf3ds_builder_keyframer(b, "test", 10, 0, 10);
        node = support_build_node(b, KF3DS_NODE_OBJECT, "Box", KF3DS_NONE, pos);
        kf3ds_builder_add_key(b, node, KF3DS_TRACK_SCL, &one);
    }
    return support_build_bytes(b, size);
}

/* A path in the suite's folder (one of a few rotating buffers). */
static const char *tmp(const char *name)
{
    static char paths[4][300];
    static int next;
    char *p = paths[next++ % 4];
    support_tmp_path(p, sizeof paths[0], name);
    return p;
}

static int setup(void **state)
{
    unsigned char *bytes;
    size_t size;
    (void)state;
    if (support_tmpdir_make("kf3ds_test_cli_input_") != 0)
        return -1;
    support_tmp_path(anim_path, sizeof anim_path, "anim.3ds");
    bytes = build_model(1, &size);
    support_write_file(anim_path, bytes, size);
    free(bytes);
    support_tmp_path(static_path, sizeof static_path, "static.3ds");
    bytes = build_model(0, &size);
    support_write_file(static_path, bytes, size);
    free(bytes);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    support_tmpdir_remove();
    return 0;
}

/* ------------------------------------------------------------------------ */
/* 1. No unbounded input                                                    */
/* ------------------------------------------------------------------------ */

static void expect_line(const char *err, const char *line)
{
    if (strcmp(err, line) != 0)
        fail_msg("stderr:\n%s\nwant:\n%s", err, line);
}

/* /dev/zero as standard input and as a path: every verb stops at once. */
static void test_dev_zero(void **state)
{
    size_t i, k, n;
    (void)state;
    for (i = 0; i < NUM_VERBS; i++) {
        if (strcmp(verbs[i].verb, "view") == 0)
            continue; /* the same reading helper; SDL needs its environment */
        for (k = 0; k < 2; k++) {
            const char *args[10];
            timed_run r;
            n = 0;
            args[n++] = verbs[i].verb;
            args[n++] = k ? "/dev/zero" : "-";
            for (; verbs[i].args[n - 2]; n++)
                args[n] = verbs[i].args[n - 2];
            args[n] = NULL;
            r = run_timed("/dev/zero", args);
            if (r.status != 1 || r.seconds > 2.0)
                fail_msg("%s %s: status %d after %.2f s", args[0], args[1], r.status, r.seconds);
            expect_line(r.err, k ? "kf3ds: /dev/zero: not a 3DS file: it starts with zero bytes\n"
                                 : "kf3ds: -: not a 3DS file: it starts with zero bytes\n");
            free(r.err);
        }
    }
}

/* A FIFO fed zeros without end, as FILE. */
static void test_fifo(void **state)
{
    char fifo[300], line[400];
    const char *args[4];
    timed_run r;
    pid_t writer;
    int st;
    (void)state;
    support_tmp_path(fifo, sizeof fifo, "zeros.fifo");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    writer = start_writer(fifo, NULL, 0);
    args[0] = "info";
    args[1] = fifo;
    args[2] = NULL;
    r = run_timed("/dev/null", args);
    kill(writer, SIGKILL); /* in case the tool never opened the FIFO */
    waitpid(writer, &st, 0);
    unlink(fifo);
    if (r.status != 1 || r.seconds > 2.0)
        fail_msg("status %d after %.2f s: %s", r.status, r.seconds, r.err);
    snprintf(line, sizeof line, "kf3ds: %s: not a 3DS file: it starts with zero bytes\n", fifo);
    expect_line(r.err, line);
    free(r.err);
}

/* A stream that starts like a 3DS file and does not end: reading stops at the
 * input limit, which the message names with the way to raise it. */
static void test_stream_limit(void **state)
{
    char path[300], fifo[300];
    unsigned char *bytes = calloc(1, 5000);
    pid_t writer;
    int st;
    const char *args[3] = { "info", "-", NULL };
    run_result r;
    timed_run t;
    (void)state;
    assert_non_null(bytes);
    bytes[0] = 0x4D, bytes[1] = 0x4D, bytes[2] = 0xFF, bytes[3] = 0xFF, bytes[4] = 0xFF;
    bytes[5] = 0x7F;
    support_tmp_path(path, sizeof path, "long.3ds");
    support_write_file(path, bytes, 5000);
    free(bytes);
    /* as a regular file: refused before reading */
    r = support_run_tool("KF3DS_MAX_INPUT=4K", "info", path, NULL);
    support_expect_status(&r, 1);
    assert_non_null(strstr(r.err, ": 5000 bytes, over the input limit of 4 KiB (set "
                                  "KF3DS_MAX_INPUT, e.g. KF3DS_MAX_INPUT=4G, to raise it; at most "
                                  "4G)\n"));
    run_free(&r);
    /* as a stream (a FIFO as standard input): read up to the limit */
    support_tmp_path(fifo, sizeof fifo, "long.fifo");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    writer = start_writer(fifo, "\x4D\x4D\xFF\xFF\xFF\x7F", 6);
    setenv("KF3DS_MAX_INPUT", "4K", 1);
    t = run_timed(fifo, args);
    unsetenv("KF3DS_MAX_INPUT");
    kill(writer, SIGKILL);
    waitpid(writer, &st, 0);
    unlink(fifo);
    assert_int_equal(t.status, 1);
    expect_line(t.err, "kf3ds: -: more than 4 KiB, the input limit; stopped reading (set "
                       "KF3DS_MAX_INPUT, e.g. KF3DS_MAX_INPUT=4G, to raise it; at most 4G)\n");
    free(t.err);
    /* under the limit it is read */
    r = support_run_tool("KF3DS_MAX_INPUT=5000", "info", path, NULL);
    assert_null(strstr(r.err, "input limit"));
    run_free(&r);
    /* a limit that is not a size is wrong usage */
    r = support_run_tool("KF3DS_MAX_INPUT=lots", "info", anim_path, NULL);
    support_expect_status(&r, 2);
    expect_line(r.err, "kf3ds: KF3DS_MAX_INPUT='lots' is not a size such as 2G, 512M or 1000000 "
                       "(see 'kf3ds --help')\n");
    run_free(&r);
}

/* A 10 GB sparse file: refused before reading, by every verb. */
static void test_sparse_10g(void **state)
{
    char path[300], want[500];
    size_t i;
    int fd;
    (void)state;
    support_tmp_path(path, sizeof path, "big.3ds");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    if (ftruncate(fd, (off_t)10 * 1024 * 1024 * 1024) != 0) {
        close(fd);
        unlink(path);
        skip(); /* a file system without sparse files that large */
        return;
    }
    close(fd);
    snprintf(want, sizeof want,
             "kf3ds: %s: 10737418240 bytes, over the input limit of 1 GiB (set KF3DS_MAX_INPUT, "
             "e.g. KF3DS_MAX_INPUT=4G, to raise it; at most 4G)\n",
             path);
    for (i = 0; i < NUM_VERBS; i++) {
        double start = now();
        run_result r = run_verb(&verbs[i], path);
        if (r.status != 1 || now() - start > 2.0)
            fail_msg("%s: status %d after %.2f s", verbs[i].verb, r.status, now() - start);
        expect_line(r.err, want);
        run_free(&r);
    }
    unlink(path);
}

/* ------------------------------------------------------------------------ */
/* 2. Inputs that are not 3DS files                                         */
/* ------------------------------------------------------------------------ */

typedef struct not_3ds {
    const char *name;
    const char *bytes;
    size_t len;
    const char *what; /* after "not a 3DS file: " */
} not_3ds;

static const not_3ds kinds[] = {
    { "empty.3ds", "", 0, "it is empty" },
    { "zeros.3ds", "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16, "it is all zero bytes" },
    { "image.png", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, "it is a PNG image" },
    { "photo.jpg", "\xFF\xD8\xFF\xE0\0\x10JFIF\0", 11, "it is a JPEG image" },
    { "scene.glb", "glTF\2\0\0\0\x40\0\0\0", 12, "it is a binary glTF file (.glb)" },
    { "scene.gltf", "{\n  \"asset\": {\"version\": \"2.0\"}\n}\n", 34,
      "it is a glTF file (.gltf)" },
    { "notes.txt", "This is not a 3DS file at all.\n", 31, "it is a text file" },
    { "short.3ds", "\x4D\x4D\x10", 3, "it is 3 bytes long, shorter than a chunk header (6 bytes)" },
    { "other.3ds", "\x01\x02\x03\x04\x05\x06\x07\x08", 8,
      "it starts with chunk 0x0201, not a 3DS magic such as 0x4D4D (M3DMAGIC)" },
};

/* Each kind, given to every verb: exit 1 and one line naming what it is. */
static void test_not_3ds_kinds(void **state)
{
    size_t i, k;
    (void)state;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char path[300], want[1000];
        support_tmp_path(path, sizeof path, kinds[k].name);
        support_write_file(path, kinds[k].bytes, kinds[k].len);
        snprintf(want, sizeof want, "kf3ds: %s: not a 3DS file: %s\n", path, kinds[k].what);
        for (i = 0; i < NUM_VERBS; i++) {
            run_result r = run_verb(&verbs[i], path);
            if (r.status != 1)
                fail_msg("%s %s: status %d, not 1", verbs[i].verb, kinds[k].name, r.status);
            expect_line(r.err, want);
            run_free(&r);
        }
    }
}

/* A .kfb: info and dump read it; the other verbs say what it is and which
 * verbs read it. */
static void test_kfb_to_3ds_verb(void **state)
{
    char want[1000];
    size_t i;
    run_result r;
    (void)state;
    support_tmp_path(kfb_path, sizeof kfb_path, "anim.kfb");
    r = support_run_tool(NULL, "bake", anim_path, "-o", kfb_path, NULL);
    support_expect_status(&r, 0);
    run_free(&r);
    snprintf(want, sizeof want,
             "kf3ds: %s: not a 3DS file: it is a kf3ds baked file (.kfb); read it with 'kf3ds "
             "info' or 'kf3ds dump'\n",
             kfb_path);
    for (i = 0; i < NUM_VERBS; i++) {
        r = run_verb(&verbs[i], kfb_path);
        if (strcmp(verbs[i].verb, "info") == 0 || strcmp(verbs[i].verb, "dump") == 0) {
            support_expect_status(&r, 0);
            assert_string_equal(r.err, "");
        } else {
            if (r.status != 1)
                fail_msg("%s: status %d, not 1", verbs[i].verb, r.status);
            expect_line(r.err, want);
        }
        run_free(&r);
    }
}

/* ------------------------------------------------------------------------ */
/* 3. No verb                                                               */
/* ------------------------------------------------------------------------ */

static void test_no_verb(void **state)
{
    char want[1000];
    run_result r;
    (void)state;
    /* an existing file */
    r = support_run_tool(NULL, anim_path, NULL);
    support_expect_status(&r, 2);
    snprintf(want, sizeof want,
             "kf3ds: no verb given; to see what '%s' holds: kf3ds info %s (see 'kf3ds --help')\n",
             anim_path, anim_path);
    expect_line(r.err, want);
    assert_int_equal(r.out_len, 0);
    run_free(&r);
    /* a name ending .3ds that does not exist, any case */
    r = support_run_tool(NULL, "missing.3DS", NULL);
    support_expect_status(&r, 2);
    expect_line(r.err, "kf3ds: no verb given; to see what 'missing.3DS' holds: kf3ds info "
                       "missing.3DS (see 'kf3ds --help')\n");
    run_free(&r);
    /* with options after it */
    r = support_run_tool(NULL, "x.3ds", "--json", NULL);
    support_expect_status(&r, 2);
    assert_non_null(strstr(r.err, "kf3ds info x.3ds"));
    run_free(&r);
    /* a misspelt verb stays an unknown verb */
    r = support_run_tool(NULL, "inof", NULL);
    support_expect_status(&r, 2);
    expect_line(r.err, "kf3ds: unknown verb 'inof' (see 'kf3ds --help')\n");
    run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* 4. Damage is reported the same way by every verb                         */
/* ------------------------------------------------------------------------ */

/* 1 when no line of `text` comes twice. */
static int lines_unique(const char *text)
{
    const char *a, *b;
    for (a = text; *a; a = strchr(a, '\n') ? strchr(a, '\n') + 1 : a + strlen(a)) {
        size_t n = strcspn(a, "\n");
        for (b = a + n + (a[n] != 0); *b; b = b[strcspn(b, "\n")] ? b + strcspn(b, "\n") + 1
                                                                   : b + strlen(b))
            if (strcspn(b, "\n") == n && strncmp(a, b, n) == 0)
                return 0;
    }
    return 1;
}

/* data/arm.3ds cut to 1000 bytes: its keyframer and most meshes are gone. The
 * same status for every verb (1; rewrite 0, its contract: it writes what is
 * left), one "what was lost" line, every line once on stderr. */
static void test_truncated_file(void **state)
{
    char cut[300], line[1000];
    unsigned char *bytes;
    size_t size, i;
    run_result r;
    static const char *const lost =
        "offset 0, chunk 0x4D4D M3DMAGIC: truncated: the file ends 4043 bytes before its root "
        "chunk does; lost: the chunks past offset 1000, inside MDATA (offset 16) > NAMED_OBJECT "
        "'Forearm' (offset 980) > N_TRI_OBJECT (offset 994), and the keyframer (no KFDATA chunk "
        "is left)\n";
    (void)state;
    bytes = support_read_file("data/arm.3ds", &size);
    assert_non_null(bytes);
    assert_int_equal(size, 5043);
    support_tmp_path(cut, sizeof cut, "cut.3ds");
    support_write_file(cut, bytes, 1000);
    free(bytes);
    for (i = 0; i < NUM_VERBS; i++) {
        int rewrite = strcmp(verbs[i].verb, "rewrite") == 0;
        r = run_verb(&verbs[i], cut);
        if (r.status != (rewrite ? 0 : 1))
            fail_msg("%s: status %d:\n%s", verbs[i].verb, r.status, r.err);
        snprintf(line, sizeof line, "kf3ds: %s%s: %s", rewrite ? "warning: " : "", cut, lost);
        if (strncmp(r.err, line, strlen(line)) != 0) /* first, then the clamped chunks */
            fail_msg("%s: stderr:\n%s\nwant first:\n%s", verbs[i].verb, r.err, line);
        assert_null(strstr(r.err, "file ends 4043 bytes before the chunk does"));
        if (!lines_unique(r.err))
            fail_msg("%s: a line printed twice:\n%s", verbs[i].verb, r.err);
        assert_int_equal(support_check_error_lines(r.err, cut, 1), rewrite ? 0 : 1);
        run_free(&r);
    }
    /* info's report lists it as an error too, on standard output */
    r = support_run_tool(NULL, "info", cut, NULL);
    snprintf(line, sizeof line, "diagnostics: 1 error, 3 warnings\n  error: %s", lost);
    assert_non_null(strstr(r.out, line));
    run_free(&r);
    /* cut inside a chunk header too; a file that is whole is not truncated */
    support_write_file(cut, "\x4D\x4D\x40\0\0\0\x02\0\x0A\0\0\0\x03\0\0\0\x3D\x3D", 18);
    r = support_run_tool(NULL, "info", cut, NULL);
    support_expect_status(&r, 1);
    snprintf(line, sizeof line,
             "kf3ds: %s: offset 0, chunk 0x4D4D M3DMAGIC: truncated: the file ends 46 bytes "
             "before its root chunk does; lost: the chunks past offset 18, from a chunk header cut "
             "at offset 16, and the keyframer (no KFDATA chunk is left)\n",
             cut);
    assert_non_null(strstr(r.err, line));
    run_free(&r);
    r = support_run_tool(NULL, "info", "data/arm.3ds", NULL);
    support_expect_status(&r, 0);
    assert_null(strstr(r.err, "truncated"));
    run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* 5. Exit codes mean one thing                                             */
/* ------------------------------------------------------------------------ */

/* A sound static model (no keyframer) given to bake: a clear refusal with
 * status 1 (it depends on the file), not a "malformed input" error. */
static void test_bake_static_model(void **state)
{
    char want[1000];
    run_result r;
    (void)state;
    r = support_run_tool(NULL, "info", static_path, NULL);
    support_expect_status(&r, 0);
    assert_string_equal(r.err, "");
    run_free(&r);
    r = support_run_tool(NULL, "bake", static_path, "-o", tmp("static.kfb"), NULL);
    support_expect_status(&r, 1);
    snprintf(want, sizeof want,
             "kf3ds: %s: no keyframer nodes: a static model, nothing to bake (a .kfb holds "
             "keyframer animation; 'kf3ds export' writes a static model)\n",
             static_path);
    expect_line(r.err, want);
    run_free(&r);
    support_expect_exit(support_run_tool(NULL, "export", static_path, "-o", tmp("static.glb"), "-q",
                                         NULL),
                        0);
}

/* Names the file lacks are the file's content (1); a bad command line is 2
 * whatever the file holds. */
static void test_content_is_1_usage_is_2(void **state)
{
    char want[1000];
    run_result r;
    (void)state;
    r = support_run_tool(NULL, "bake", anim_path, "-o", tmp("x.kfb"), "--nodes", "Nope", NULL);
    support_expect_status(&r, 1);
    snprintf(want, sizeof want,
             "kf3ds: %s: --nodes: no node is called 'Nope' ('kf3ds info %s' lists them)\n",
             anim_path, anim_path);
    expect_line(r.err, want);
    run_free(&r);
    r = support_run_tool(NULL, "plot", anim_path, "--node", "Nope", "-o", tmp("x.svg"), NULL);
    support_expect_status(&r, 1);
    snprintf(want, sizeof want, "kf3ds: %s: --node 'Nope': no such node\n", anim_path);
    expect_line(r.err, want);
    run_free(&r);
    r = support_run_tool(NULL, "render", anim_path, "-o", tmp("x.png"), "--camera", "Nope", NULL);
    support_expect_status(&r, 1);
    expect_line(r.err, "kf3ds: render: --camera 'Nope': the file has no camera\n");
    run_free(&r);
    /* usage: the same on a sound file and on one that is not 3DS at all */
    support_expect_exit(support_run_tool(NULL, "eval", anim_path, "--frame", "x", NULL), 2);
    support_expect_exit(support_run_tool(NULL, "eval", "/dev/null", "--frame", "x", NULL), 2);
    support_expect_exit(support_run_tool(NULL, "info", anim_path, "--bogus", NULL), 2);
    support_expect_exit(support_run_tool(NULL, "info", "/dev/null", "--bogus", NULL), 2);
}

/* `kf3ds help VERB`: one exit-status paragraph per verb, the same pattern. */
static void test_help_exit_paragraph(void **state)
{
    static const char *const all[] = { "info",   "dump",   "eval", "bake", "rewrite",
                                       "export", "render", "view", "plot" };
    static const char *const usage =
        "2 wrong usage (an unknown option, a bad or missing value, no FILE).\n";
    size_t i, k;
    (void)state;
    for (i = 0; i < sizeof all / sizeof all[0]; i++) {
        run_result r = support_run_tool(NULL, "help", all[i], NULL);
        const char *p, *q;
        char para[2000];
        size_t n = 0;
        support_expect_status(&r, 0);
        p = strstr(r.out, "\nExit status: 0 ");
        if (!p)
            fail_msg("help %s: no exit-status paragraph:\n%s", all[i], r.out);
        assert_null(strstr(p + 2, "Exit status")); /* only one */
        /* the paragraph, its lines (at most 80 columns) joined */
        for (q = p + 1, k = 0; *q && n + 1 < sizeof para; q++, k++) {
            if (*q == '\n') {
                assert_true(k <= 80);
                k = (size_t)-1;
            }
            para[n++] = *q == '\n' ? ' ' : *q;
        }
        para[n] = '\0';
        if (n && para[n - 1] == ' ')
            para[n - 1] = '\n';
        assert_non_null(strstr(para, "; 1 "));
        if (strlen(para) < strlen(usage) ||
            strcmp(para + strlen(para) - strlen(usage), usage) != 0)
            fail_msg("help %s: %s", all[i], para);
        if (strcmp(all[i], "rewrite") != 0)
            assert_non_null(strstr(para, ", warnings allowed; 1 FILE could not be read, is not "
                                         "a 3DS file or has an error"));
        run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dev_zero),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_stream_limit),
        cmocka_unit_test(test_sparse_10g),
        cmocka_unit_test(test_not_3ds_kinds),
        cmocka_unit_test(test_kfb_to_3ds_verb),
        cmocka_unit_test(test_no_verb),
        cmocka_unit_test(test_truncated_file),
        cmocka_unit_test(test_bake_static_model),
        cmocka_unit_test(test_content_is_1_usage_is_2),
        cmocka_unit_test(test_help_exit_paragraph),
    };
    return support_run_tests(tests, setup, teardown);
}
