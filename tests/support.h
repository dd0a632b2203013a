/* Shared helpers of the cmocka suites, built once into build/tests/libsupport.a:
 *  - support.c: files, the corpus, assertions, the command, the counting
 *    allocator;
 *  - support_malformed.c, support_scenes.c: loading damaged files, and the
 *    files the malformed-input suites damage;
 *  - support_build.c (support_build.h): well-formed scenes through the
 *    library's builder;
 *  - support_write.c: chunk writers, also linked into fuzz/gen_seeds;
 *  - support_oracle.c: the scene oracles (they render: the renderer's
 *    archive), also linked into fuzz/fuzz_load;
 *  - support_compare.c: two scenes field by field, also linked into
 *    fuzz/fuzz_save.
 * The first three call cmocka (they fail the running test); the others
 * never do, so that the fuzz builds can use them. Nothing here needs SDL2 or
 * libpng (support_png.h is for the suites that link libpng). */
#ifndef KF3DS_TEST_SUPPORT_H
#define KF3DS_TEST_SUPPORT_H
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"
#include "support_w3ds.h"

/* ---- support.c: files, folders, the corpus ------------------------------ */

/* The corpus folder, an optional test input: $KF3DS_CORPUS when set, else
 * ../shared/corpus; NULL, with a note on stderr, when it is not a folder or
 * holds no .3ds file, so that the suites skip their corpus checks cleanly. */
const char *support_corpus_dir(void);
/* Calls fn(path, name, user) for every regular file of `dir` whose name does
 * not start with '.', in name order. Returns the number of files, or -1 when
 * the folder cannot be read. */
typedef void (*support_file_fn)(const char *path, const char *name, void *user);
int support_dir_each(const char *dir, support_file_fn fn, void *user);
/* The same over the corpus folder; -1 when there is no corpus (the caller
 * skips), and a corpus folder that cannot be read fails the test. */
int support_corpus_each(support_file_fn fn, void *user);
/* N when KF3DS_CORPUS_SAMPLE=N asks for every Nth corpus .3ds file (the
 * sanitizer pass of make test), else 1; counts asserted over the corpus are
 * divided by it. */
unsigned support_corpus_sample_step(void);
/* support_corpus_each over every file whatever KF3DS_CORPUS_SAMPLE says, for
 * a check whose statistics need the whole corpus and that costs little. */
int support_corpus_each_whole(support_file_fn fn, void *user);
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
/* The cmocka group setup and teardown of a suite whose files live in a
 * fresh temporary folder, /tmp/kf3ds_test_XXXXXX, removed at the end:
 * support_run_tests(tests, support_tmpdir_setup, support_tmpdir_teardown). */
int support_tmpdir_setup(void **state);
int support_tmpdir_teardown(void **state);

/* ---- support.c: scenes ---------------------------------------------------- */

/* Loads what `w` holds (fails the test when writing failed or nothing loads),
 * then frees the writer. `o` and `err` may be NULL. */
kf3ds_scene *support_load_w3ds(w3ds *w, const kf3ds_load_options *o, kf3ds_diag *err);
/* How many diagnostics of the scene have `code`. */
int support_count_diags(const kf3ds_scene *s, kf3ds_status code);

/* ---- support.c: assertions and running the tests ----------------------- */

/* Near-equality, the one way the suites compare numbers that are not exact:
 * fails the running test unless |actual - expected| <= tolerance (NaN never
 * is), naming the expression, both values and their difference. */
#define assert_near(actual, expected, tolerance)                                           \
    support_assert_near((double)(actual), (double)(expected), (double)(tolerance), #actual, \
                        __FILE__, __LINE__)
void support_assert_near(double actual, double expected, double tolerance, const char *what,
                         const char *file, int line);

/* What a suite is checking right now ("rich scene cut to 120 of 900 bytes"),
 * for the suites that loop over many generated inputs. A test registered with
 * support_unit_test prints it when it fails. */
extern char support_what[1100];
void support_set_what(const char *fmt, ...);

/* cmocka_unit_test(f) whose failure also prints support_what. */
typedef struct support_test {
    void (*fn)(void **state);
    int finished;
} support_test;
void support_test_run(void **state);
int support_test_report(void **state);
#define support_unit_test(f) \
    { #f, support_test_run, NULL, support_test_report, &(support_test){ f, 0 } }

/* Runs a suite's tests; KF3DS_TEST_FILTER=test_name (or a pattern with *)
 * runs only the matching ones. */
void support_apply_filter(void);
#define support_run_tests(tests, setup, teardown) \
    (support_apply_filter(), cmocka_run_group_tests(tests, setup, teardown))

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

/* Every line of `err` must be an error line of docs/output.md for `file`
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

/* ---- support_malformed.c: loading damaged files ------------------------ */

/* How much support_check_scene evaluates: LIGHT the whole scene at a few
 * frames, FULL also each node on its own. */
typedef enum support_check { SUPPORT_CHECK_LIGHT, SUPPORT_CHECK_FULL } support_check;

/* Fails the test unless the scene keeps the invariants of docs/robustness.md
 * whatever its file: diagnostics well formed (the error returned in `err`,
 * when not NULL, is the first one listed), every index in range, the
 * evaluation order a permutation with parents first, keys sorted, and
 * evaluation at odd frames and of out-of-range nodes harmless. */
void support_check_scene(const kf3ds_scene *s, const kf3ds_diag *err, support_check mode);
/* Every node at many finite frames, with and without ease: finite world
 * matrices, poses, mesh matrices, placed vertices and camera views. */
void support_check_finite_everywhere(const kf3ds_scene *s);
/* The index of the first diagnostic with `code` (at `offset` when
 * `match_offset`), or -1. */
int support_find_diag(const kf3ds_scene *s, kf3ds_status code, uint32_t offset, int match_offset);

/* Loads `size` bytes from an exactly sized heap copy (an overread is an ASan
 * report) with the counting allocator *c reset to refuse every call after the
 * first `fail_after` (-1: never) and `limits` (may be NULL). The caller frees
 * the scene, if any, with counting_free_scene. */
kf3ds_scene *support_load_counted(const unsigned char *data, size_t size, counting *c,
                                  long fail_after, const kf3ds_limits *limits, kf3ds_diag *err);
/* support_load_counted of a file that must give a scene, checked at `mode`;
 * support_load_written of what `w` holds once its open chunks are closed
 * (the writer is freed). */
kf3ds_scene *support_load_scene(const unsigned char *data, size_t size, counting *c,
                                const kf3ds_limits *limits, kf3ds_diag *err, support_check mode);
kf3ds_scene *support_load_written(w3ds *w, counting *c, const kf3ds_limits *limits,
                                  kf3ds_diag *err, support_check mode);
/* Loads as support_load_counted does, checks the scene (or the error), lets
 * `inspect` (may be NULL) see both, frees the scene and checks that every
 * block came back. Returns 1 when a scene was returned; *err_out (may be
 * NULL) gets the error. */
typedef void (*support_inspect_fn)(const kf3ds_scene *s, const kf3ds_diag *err, void *user);
int support_load_and_check(const unsigned char *data, size_t size, const kf3ds_limits *limits,
                           support_check mode, kf3ds_diag *err_out, support_inspect_fn inspect,
                           void *user);
/* The bytes `w` holds as an exactly sized copy (free with free()); the writer
 * is freed. */
unsigned char *support_take_bytes(w3ds *w, size_t *size);

/* Every chunk of a file the tests wrote, in file order, descending into the
 * containers of support_chunks.h. Free `v` with free(). */
typedef struct support_chunk_info {
    uint16_t id;
    uint32_t offset, length, end;
    int depth;
} support_chunk_info;
typedef struct support_chunk_list {
    support_chunk_info *v;
    size_t n, cap;
} support_chunk_list;
support_chunk_list support_collect_chunks(const unsigned char *data, size_t size);

/* Little-endian values into raw bytes. */
void support_put_u16(unsigned char *p, uint16_t v);
void support_put_u32(unsigned char *p, uint32_t v);
/* Chunks nested in each other, each level its id and `prefix_len` bytes of
 * its own, the innermost followed by `tail`; every length runs to the end of
 * the buffer. Returns an exactly sized buffer (free with free()). */
typedef struct support_level {
    uint16_t id;
    const char *prefix;
    size_t prefix_len;
} support_level;
unsigned char *support_build_levels(const support_level *levels, size_t n, const void *tail,
                                    size_t tail_len, size_t *size);

/* ---- support_scenes.c: whole test files --------------------------------- */

/* A rich valid scene (about 3.5 KB): two materials with every colour form and
 * map parameter, two boxes (one mirrored) with flags, texture coordinates,
 * material groups and smoothing, a camera, a spotlight, a hidden omni, and
 * nine nodes of every type with tracks of every kind, TCB keys, a loop, a
 * multi-turn key, hide and morph tracks. Free with free(). */
unsigned char *support_build_rich(size_t *size);
/* The rich editor section plus 300 materials, a 7,000-vertex grid and 200
 * nodes, one with 3,000 unsorted rotation keys: loading it needs many blocks
 * from the allocator. Free with free(). */
unsigned char *support_build_big(size_t *size);
/* The unit box of the rich scene as mesh `name` at (ox, 2, 3), mirrored or
 * not, in its NAMED_OBJECT. */
void support_write_box_mesh(w3ds *w, const char *name, float ox, int mirrored);
/* A whole file with `bad` in every kind of float it holds: master scale,
 * colour, percentage, map scale, vertices, mesh matrix, camera, spotlight,
 * pivot, TCB, position, rotation, scale and FOV keys. */
void support_write_nonfinite(w3ds *w, float bad);
/* A whole file of `big` values, extreme TCB and nearly singular matrices
 * down a chain of `chain` scaled nodes with a camera at its end. */
void support_write_extreme(w3ds *w, float big, int chain);
/* The densest files of one kind of element, about `target` bytes. */
typedef enum support_dense_kind {
    SUPPORT_DENSE_NODES, SUPPORT_DENSE_NAMED_NODES, SUPPORT_DENSE_HIDE_KEYS,
    SUPPORT_DENSE_MORPH_KEYS, SUPPORT_DENSE_SCALAR_KEYS, SUPPORT_DENSE_ROT_KEYS,
    SUPPORT_DENSE_UNSORTED_KEYS, SUPPORT_DENSE_TRACKS, SUPPORT_DENSE_MESHES,
    SUPPORT_DENSE_MATERIALS, SUPPORT_DENSE_CAMERAS, SUPPORT_DENSE_LIGHTS, SUPPORT_DENSE_GROUPS,
    SUPPORT_DENSE_FACES, SUPPORT_DENSE_COUNT
} support_dense_kind;
extern const char *const support_dense_names[SUPPORT_DENSE_COUNT];
void support_write_dense(w3ds *w, support_dense_kind kind, size_t target);

/* ---- support_write.c: chunks written with support_w3ds.c ----------------- */

/* Initialises the writer and opens M3DMAGIC and in it `section`
 * (KF3DS_CHUNK_MDATA or KF3DS_CHUNK_KFDATA). */
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
/* A key of three floats (position, scale, colour), a rotation key (angle in
 * radians, axis) and a key of one float (FOV, roll, hotspot, falloff). */
void support_key_vec(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float x, float y, float z);
void support_key_rot(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float angle, float x, float y,
                     float z);
void support_key_scalar(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float v);
/* KFHDR (revision 5, `name`, `frames` long) and KFSEG (0 to `frames`). */
void support_kf_segment(w3ds *w, const char *name, int32_t frames);
/* A whole POS_TRACK_TAG of one key at frame 0, and one of two keys: (x, y, z)
 * at frame 0, (x + 1, y - 1, z + 2) at frame 50. */
void support_pos_track(w3ds *w, const float pos[3]);
void support_pos_track_moving(w3ds *w, float x, float y, float z);
/* Closes every chunk still open. */
void support_end_all(w3ds *w);

/* ---- support_compare.c: two scenes ------------------------------------------ */

/* The second scene was saved repaired (KF3DS_SAVE_REPAIR): NODE_HDR's parent
 * fields as stored may differ (the resolved parents may not), a camera
 * that had no FOV (cut short) may have one, an empty track has no flags. */
#define SUPPORT_DIFF_REPAIRED 0x1
/* The second was saved without its keyframer: the keyframer header is not compared. */
#define SUPPORT_DIFF_NO_KEYFRAMER 0x2
/* 0 when every field of the two scenes is the same (floats bit for bit, the
 * derived evaluation data included), else 1 with the first difference
 * described in what[0..cap). Diagnostics are not compared. */
int support_scene_diff(const kf3ds_scene *a, const kf3ds_scene *b, unsigned flags, char *what,
                       size_t cap);
/* 0 when evaluating both at every frame gives the same bits (world and mesh
 * matrices, hidden, morph, colour, FOV, roll, hotspot, falloff), else 1
 * with the first difference described. */
int support_eval_diff(const kf3ds_scene *a, const kf3ds_scene *b, const double *frames,
                      size_t num_frames, char *what, size_t cap);

/* ---- support_oracle.c: what must hold of any loaded scene ----------------- */

/* The memory bound of docs/robustness.md: loading takes at most
 * SUPPORT_BOUND_PER_BYTE bytes per input byte plus SUPPORT_BOUND_FIXED. */
#define SUPPORT_BOUND_PER_BYTE 128u
#define SUPPORT_BOUND_FIXED ((size_t)4 << 20)

/* 1 when the n values, or the 16 of the matrix, are finite. */
static inline int support_finite_n(const float *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}
static inline int support_finite_mat(const kf3ds_mat4 *m)
{
    return support_finite_n(&m->m[0][0], 16);
}
/* 1 when v is KF3DS_NONE or an index below n. */
static inline int support_in_range(int32_t v, uint32_t n)
{
    return v == KF3DS_NONE || (v >= 0 && (uint32_t)v < n);
}

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
