/* Shared helpers for the cmocka suites, in three sources:
 *  - support.c: the test programs only (it may fail the running cmocka test);
 *  - support_write.c: chunk writers, also linked into fuzz/gen_seeds;
 *  - support_oracle.c: the scene oracles, also linked into fuzz/fuzz_load.
 * The last two never call cmocka, so that the fuzz builds can use them. */
#ifndef KF3DS_TEST_SUPPORT_H
#define KF3DS_TEST_SUPPORT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"
#include "write3ds.h"

/* ---- support.c: files, folders, the corpus ------------------------------ */

/* The public corpus folder (../shared/corpus, or $KF3DS_CORPUS), or NULL with
 * a message on stderr when it is absent, so suites skip cleanly. */
const char *support_corpus_dir(void);
/* Calls fn(path, name, user) for every regular file of `dir` whose name does
 * not start with '.', in name order. Returns the number of files, or -1 when
 * the folder cannot be read. */
typedef void (*support_file_fn)(const char *path, const char *name, void *user);
int support_dir_each(const char *dir, support_file_fn fn, void *user);
/* The same over the corpus folder; -1 when there is no corpus (the caller
 * skips), and a corpus folder that cannot be read fails the test. */
int support_corpus_each(support_file_fn fn, void *user);
/* 1 when `name` ends in .3ds or .3DS. */
int support_is_3ds_name(const char *name);
/* Reads a whole file; NULL when it cannot. Free with free(). */
unsigned char *support_read_file(const char *path, size_t *size);
/* Writes `len` bytes to `path`; fails the test when it cannot. */
void support_write_file(const char *path, const void *data, size_t len);
/* dir/name into buf; fails the test when it does not fit. */
void support_path(char *buf, size_t cap, const char *dir, const char *name);
/* The suite's temporary folder: support_tmpdir_make makes a new
 * /tmp/<prefix>XXXXXX (0 on success), support_tmpdir_remove removes it with
 * its files, support_tmp_path gives the path of `name` in it. */
int support_tmpdir_make(const char *prefix);
const char *support_tmpdir(void);
void support_tmpdir_remove(void);
void support_tmp_path(char *buf, size_t cap, const char *name);

/* ---- support.c: scenes ---------------------------------------------------- */

/* Loads what `w` holds (fails the test when writing failed or nothing loads),
 * then frees the writer. `o` and `err` may be NULL. */
kf3ds_scene *support_load_w3ds(w3ds *w, const kf3ds_load_options *o, kf3ds_diag *err);
/* How many diagnostics of the scene have `code`. */
int support_count_diags(const kf3ds_scene *s, kf3ds_status code);

/* What a suite is checking right now, for the messages of MUST (a cmocka
 * failure) inside loops. */
extern char support_what[1100];
void support_set_what(const char *fmt, ...);

#define MUST(cond)                                                                         \
    do {                                                                                   \
        if (!(cond))                                                                       \
            fail_msg("%s: check failed: %s (line %d)", support_what, #cond, __LINE__);     \
    } while (0)

/* ---- support.c: the command --------------------------------------------- */

/* Path of the kf3ds command ($KF3DS_TOOL or build/kf3ds). */
const char *support_tool(void);

/* Running the kf3ds command as a child: stdout and stderr are captured through
 * files in `dir`. */
typedef struct support_run {
    int status;        /* exit status, or 128 + signal, or -1 */
    char *out, *err;   /* stdout and stderr, NUL-terminated */
    size_t out_len, err_len;
} support_run;

/* Runs support_tool() with `env` (shell assignments such as
 * "SDL_VIDEODRIVER=dummy", or NULL) in front and the arguments up to NULL;
 * standard input is /dev/null. Fails the test when the command does not fit
 * or cannot be run. support_run_tool runs in the suite's temporary folder. */
support_run support_run_argv(const char *dir, const char *env, const char *const *args);
support_run support_run_va(const char *dir, const char *env, const char *arg, va_list ap);
support_run support_run_tool(const char *env, const char *arg, ...);
void support_run_free(support_run *r);
/* Fails the test unless the command exited with `status` (its stderr is in
 * the message); support_expect_exit also frees the result. */
void support_expect_status(const support_run *r, int status);
void support_expect_exit(support_run r, int status);
/* support_run_tool for a command that must exit 0, whose output is not
 * needed. */
#define support_run_ok(...) support_expect_exit(support_run_tool(__VA_ARGS__), 0)

/* Every line of `err` must be an error line of docs/contracts.md for `file`
 * ("kf3ds: FILE: message", with the chunk form), or with `warnings` also a
 * "kf3ds: warning: FILE: ..." line; fails the test otherwise. Returns the
 * number of error (not warning) lines. */
int support_check_error_lines(const char *err, const char *file, int warnings);

/* ---- support.c: the counting allocator ------------------------------------ */

/* A counting allocator for the load options: it can refuse every call after
 * the first `fail_after` (-1: never), and it tracks live blocks and bytes. */
typedef struct counting {
    long fail_after; /* calls that succeed before every later one fails; -1: never */
    long calls;      /* malloc calls, failed ones included */
    long live;       /* blocks handed out and not yet freed */
    size_t bytes;    /* bytes handed out and not yet freed */
    size_t peak;     /* the most `bytes` ever was */
} counting;

void counting_reset(counting *c, long fail_after);
/* Load options whose allocator hooks count into *c. */
kf3ds_load_options counting_options(counting *c);
/* Frees a scene loaded with counting_options(c) (NULL is fine) and fails the
 * test unless every block came back. */
void counting_free_scene(kf3ds_scene *s, const counting *c);

/* ---- support_write.c: chunks written with write3ds ---------------------- */

/* Initialises the writer and opens M3DMAGIC and in it `section` (MDATA
 * 0x3D3D or KFDATA 0xB000). */
void support_file_begin(w3ds *w, uint16_t section);
/* A whole chunk holding one value, a float vector, a C string, or nothing. */
void support_chunk_u16(w3ds *w, uint16_t id, uint16_t v);
void support_chunk_u32(w3ds *w, uint16_t id, uint32_t v);
void support_chunk_f32(w3ds *w, uint16_t id, float v);
void support_chunk_f32v(w3ds *w, uint16_t id, const float *v, size_t n);
void support_chunk_str(w3ds *w, uint16_t id, const char *s);
void support_chunk_empty(w3ds *w, uint16_t id);
/* Opens node chunk `tag` with its NODE_ID and NODE_HDR (flags 0); the caller
 * adds tracks and closes it with w3ds_end. */
void support_node_begin(w3ds *w, uint16_t tag, uint16_t id, const char *name, uint16_t parent);
/* A whole node chunk `tag`: its NODE_HDR (flags1, 0, parent) and, when `pos`
 * is not NULL, a POS_TRACK_TAG of one key at frame 0 there. */
void support_node(w3ds *w, uint16_t tag, const char *name, uint16_t flags1, uint16_t parent,
                  const float *pos);
/* Opens track chunk `id` with its header; the caller adds `keys` keys and
 * closes it with w3ds_end. */
void support_track_begin(w3ds *w, uint16_t id, uint16_t flags, uint32_t keys);
/* A key of three floats (position, scale, colour). */
void support_key_vec(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float x, float y, float z);
/* KFHDR (revision 5, `name`, `frames` long) and KFSEG (0 to `frames`). */
void support_kf_segment(w3ds *w, const char *name, int32_t frames);
/* A whole POS_TRACK_TAG of one key at frame 0. */
void support_pos_track(w3ds *w, const float pos[3]);
/* Closes every chunk still open. */
void support_end_all(w3ds *w);

/* ---- support_oracle.c: what must hold of any loaded scene ----------------- */

/* The memory bound of docs/robustness.md: loading takes at most
 * SUPPORT_BOUND_PER_BYTE bytes per input byte plus SUPPORT_BOUND_FIXED. */
#define SUPPORT_BOUND_PER_BYTE 128u
#define SUPPORT_BOUND_FIXED ((size_t)4 << 20)

int support_finite_n(const float *v, int n);
int support_finite_mat(const kf3ds_mat4 *m);
/* v is KF3DS_NONE or an index below n. */
int support_in_range(int32_t v, uint32_t n);

/* Called with the text of a broken check and a value that goes with it; it
 * must not return (abort() in the fuzzer, a cmocka failure in a test). */
typedef void (*support_fail_fn)(const char *check, double value);
/* Everything a front end does with a scene, under the oracles of
 * docs/robustness.md: indices in range and keys sorted; evaluation of every
 * node at finite, fractional, negative, huge and NaN frames, each finite
 * frame giving finite matrices, poses, placed vertices (at most `max_placed`
 * in all) and camera views; bounds and 32x24 renders through the orbit view
 * and the first cameras, at two frames, `variants` of them at each (variant
 * v: shading v % 3, every overlay when v is odd), starting at
 * `first_variant` and `first_variant` + 1. */
void support_exercise_scene(const kf3ds_scene *s, uint32_t max_placed, unsigned first_variant,
                            unsigned variants, support_fail_fn fail);
#endif
