/* The kf3ds command (build/kf3ds, or $KF3DS_TOOL) run on files built with the
 * library (support_build.h), on broken ones and on the corpus: exit status, the
 * error line format of docs/output.md, JSON validity of eval --json and dump
 * --json, and the numbers eval prints. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support.h"
#include "support_build.h"

/* ------------------------------------------------------------------------ */
/* Running the tool                                                         */
/* ------------------------------------------------------------------------ */

typedef support_run run_result;

/* Runs the tool with the given arguments (NULL-terminated). */
#define run_tool(...) support_run_tool(NULL, __VA_ARGS__)
#define run_free support_run_free

/* ------------------------------------------------------------------------ */
/* A small JSON checker (RFC 8259 grammar, UTF-8 validated)                 */
/* ------------------------------------------------------------------------ */

typedef struct jp {
    const unsigned char *p, *end;
    int depth;
} jp;

static void ws(jp *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static int json_value(jp *j);

static int lit(jp *j, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, s, n) != 0)
        return 0;
    j->p += n;
    return 1;
}

static int hexd(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int json_string(jp *j)
{
    if (j->p >= j->end || *j->p != '"')
        return 0;
    j->p++;
    while (j->p < j->end) {
        unsigned char c = *j->p;
        if (c == '"') {
            j->p++;
            return 1;
        }
        if (c < 0x20)
            return 0;
        if (c == '\\') {
            j->p++;
            if (j->p >= j->end)
                return 0;
            c = *j->p++;
            if (c == 'u') {
                int i;
                for (i = 0; i < 4; i++, j->p++)
                    if (j->p >= j->end || !hexd(*j->p))
                        return 0;
            } else if (!strchr("\"\\/bfnrt", c) || c == 0) {
                return 0;
            }
            continue;
        }
        if (c < 0x80) {
            j->p++;
            continue;
        }
        {   /* a valid UTF-8 sequence */
            int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                    : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            int i;
            if (!n || j->end - j->p < n)
                return 0;
            for (i = 1; i < n; i++)
                if ((j->p[i] & 0xC0) != 0x80)
                    return 0;
            j->p += n;
        }
    }
    return 0;
}

/* Skips decimal digits; 1 when there was at least one. */
static int json_digits(jp *j)
{
    const unsigned char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > s;
}

static int json_number(jp *j)
{
    const unsigned char *s = j->p;
    if (j->p < j->end && *j->p == '-')
        j->p++;
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (j->p >= j->end || *j->p < '1' || *j->p > '9' || !json_digits(j))
        return 0;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!json_digits(j))
            return 0;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!json_digits(j))
            return 0;
    }
    return j->p > s;
}

/* The rest of an object (members "name": value) or an array (values) after
 * its opening bracket, up to the closing `close`. */
static int json_items(jp *j, int object, unsigned char close)
{
    ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 1;
    }
    for (;;) {
        if (object) {
            ws(j);
            if (!json_string(j))
                return 0;
            ws(j);
            if (j->p >= j->end || *j->p++ != ':')
                return 0;
        }
        if (!json_value(j))
            return 0;
        ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return 1;
        }
        return 0;
    }
}

static int json_value(jp *j)
{
    int ok = 0;
    ws(j);
    if (j->p >= j->end || ++j->depth > 1000)
        return 0;
    switch (*j->p) {
    case '{':
        j->p++;
        ok = json_items(j, 1, '}');
        break;
    case '[':
        j->p++;
        ok = json_items(j, 0, ']');
        break;
    case '"':
        ok = json_string(j);
        break;
    case 't':
        ok = lit(j, "true");
        break;
    case 'f':
        ok = lit(j, "false");
        break;
    case 'n':
        ok = lit(j, "null");
        break;
    default:
        ok = json_number(j);
        break;
    }
    j->depth--;
    return ok;
}

/* 1 when text[0, len) is exactly one JSON document (plus whitespace). */
static int json_valid(const char *text, size_t len)
{
    jp j;
    j.p = (const unsigned char *)text;
    j.end = j.p + len;
    j.depth = 0;
    if (!json_value(&j))
        return 0;
    ws(&j);
    return j.p == j.end;
}

static int jv(const char *s)
{
    return json_valid(s, strlen(s));
}

static void test_json_checker(void **state)
{
    (void)state;
    assert_true(jv("{\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\n\xc3\xa9\"]}"));
    assert_true(jv("[]"));
    assert_true(jv(" {} "));
    assert_false(jv("[1,]"));
    assert_false(jv("{\"a\" 1}"));
    assert_false(jv("[nan]"));
    assert_false(jv("[01]"));
    assert_false(jv("[\"\x01\"]"));
    assert_false(jv("[\"\xff\"]"));
    assert_false(jv("[\"\\x\"]"));
    assert_false(jv("[1] [2]"));
    assert_false(jv(""));
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

/* One mesh "Box" (3 points, 1 face, identity MESH_MATRIX) and one OBJECT node
 * "Box" with a POS key (1,2,3) and a SCL key (1,1,1) at frame 0, in a
 * keyframer of 10 frames; `name` replaces the mesh/node name. The file's
 * bytes (free with free()). */
static unsigned char *build_simple(const char *name, size_t *size)
{
    static const float points[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    static const uint16_t faces[3] = { 0, 1, 2 };
    static const float pos[3] = { 1, 2, 3 };
    kf3ds_builder *b = support_builder();
    kf3ds_key one = support_key(0, 1, 1, 1, 0);
    int32_t node;
    support_build_mesh(b, name, points, 3, faces, NULL, 1, NULL);
    kf3ds_builder_keyframer(b, "test", 10, 0, 10);
    node = support_build_node(b, KF3DS_NODE_OBJECT, name, KF3DS_NONE, pos);
    kf3ds_builder_add_key(b, node, KF3DS_TRACK_SCL, &one);
    return support_build_bytes(b, size);
}

static char simple_path[300], truncated_path[300], empty_path[300], text_path[300],
    deep_path[300], names_path[300];

static int setup(void **state)
{
    unsigned char *bytes;
    size_t i, size, cut = 0;
    unsigned char *deep;
    const size_t levels = 10000;
    (void)state;
    if (support_tmpdir_make("kf3ds_test_cli_") != 0)
        return -1;

    support_tmp_path(simple_path, sizeof simple_path, "simple.3ds");
    bytes = build_simple("Box", &size);
    support_write_file(simple_path, bytes, size);
    /* the same file cut in the middle of the first point of POINT_ARRAY */
    for (i = 0; i + 1 < size; i++)
        if (bytes[i] == (KF3DS_CHUNK_POINT_ARRAY & 0xFF) &&
            bytes[i + 1] == KF3DS_CHUNK_POINT_ARRAY >> 8) {
            cut = i + 6 + 2 + 5;
            break;
        }
    if (!cut)
        return -1;
    support_tmp_path(truncated_path, sizeof truncated_path, "truncated.3ds");
    support_write_file(truncated_path, bytes, cut);
    free(bytes);

    /* names with quotes, backslashes, control and non-UTF-8 bytes */
    support_tmp_path(names_path, sizeof names_path, "names.3ds");
    bytes = build_simple("q\"b\\s\x01\x1b[1m\xff\xe9 x", &size);
    support_write_file(names_path, bytes, size);
    free(bytes);

    support_tmp_path(empty_path, sizeof empty_path, "empty.3ds");
    support_write_file(empty_path, "", 0);
    support_tmp_path(text_path, sizeof text_path, "text.3ds");
    support_write_file(text_path, "This is not a 3DS file at all.\n", 31);

    /* 10,000 nested M3DMAGIC chunks */
    deep = malloc(levels * 6);
    if (!deep)
        return -1;
    for (i = 0; i < levels; i++) {
        uint32_t len = (uint32_t)((levels - i) * 6);
        deep[6 * i] = 0x4D;
        deep[6 * i + 1] = 0x4D;
        deep[6 * i + 2] = (unsigned char)(len & 0xFF);
        deep[6 * i + 3] = (unsigned char)((len >> 8) & 0xFF);
        deep[6 * i + 4] = (unsigned char)((len >> 16) & 0xFF);
        deep[6 * i + 5] = (unsigned char)(len >> 24);
    }
    support_tmp_path(deep_path, sizeof deep_path, "deep.3ds");
    support_write_file(deep_path, deep, levels * 6);
    free(deep);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    support_tmpdir_remove();
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                   */
/* ------------------------------------------------------------------------ */

/* Every stderr line is an error or warning line of docs/output.md for `file`;
 * returns the number of error (non-warning) lines. */
static int check_error_lines(const char *err, const char *file)
{
    return support_check_error_lines(err, file, 1);
}

/* The 16 numbers after "world": [ at or after `from`. */
static const char *parse_world(const char *from, double m[16])
{
    const char *p = strstr(from, "\"world\": [");
    int i;
    assert_non_null(p);
    p += strlen("\"world\": [");
    for (i = 0; i < 16; i++) {
        char *end;
        while (*p == ' ' || *p == ',')
            p++;
        m[i] = strtod(p, &end);
        assert_ptr_not_equal(end, p);
        p = end;
    }
    while (*p == ' ')
        p++;
    assert_int_equal(*p, ']');
    return p;
}

/* The world matrix (row by row) of the simple file's node: a translation by
 * (1, 2, 3), exactly. */
static void expect_moved_by_123(const double m[16])
{
    static const double moved[16] = { 1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1 };
    int i;
    for (i = 0; i < 16; i++)
        assert_near(m[i], moved[i], 0);
}

static void test_usage(void **state)
{
    run_result r;
    (void)state;
    support_expect_exit(run_tool(NULL), 2);
    r = run_tool("frobnicate", simple_path, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "kf3ds: "));
    run_free(&r);
    support_expect_exit(run_tool("info", NULL), 2);
    support_expect_exit(run_tool("info", simple_path, "--bogus", NULL), 2);
    support_expect_exit(run_tool("info", simple_path, simple_path, NULL), 2);
    support_expect_exit(run_tool("dump", simple_path, "--jsn", NULL), 2);
    support_expect_exit(run_tool("eval", simple_path, NULL), 2); /* no --frame */
    support_expect_exit(run_tool("eval", simple_path, "--frame", NULL), 2);
    support_expect_exit(run_tool("eval", simple_path, "--frame", "abc", NULL), 2);
    support_expect_exit(run_tool("eval", simple_path, "--frame", "nan", NULL), 2);
    support_expect_exit(run_tool("eval", simple_path, "--frame", "1.5x", NULL), 2);
    r = run_tool("eval", simple_path, "--frame", "", NULL);
    assert_int_equal(r.status, 2);
    assert_int_equal(r.out_len, 0);
    /* a usage error is one line */
    assert_non_null(strchr(r.err, '\n'));
    assert_int_equal(strchr(r.err, '\n') + 1 - r.err, (long)r.err_len);
    run_free(&r);
    support_expect_exit(run_tool("help", "nosuchverb", NULL), 2);
}

static void test_help_version(void **state)
{
    static const char *const verbs[] = { "info", "dump", "eval" };
    run_result r;
    size_t i;
    (void)state;
    r = run_tool("--help", NULL);
    assert_int_equal(r.status, 0);
    for (i = 0; i < 3; i++)
        assert_non_null(strstr(r.out, verbs[i]));
    run_free(&r);
    r = run_tool("--version", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kf3ds "));
    run_free(&r);
    for (i = 0; i < 3; i++) {
        r = run_tool("help", verbs[i], NULL);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, verbs[i]));
        run_free(&r);
        r = run_tool(verbs[i], "--help", NULL);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: kf3ds "));
        run_free(&r);
    }
    r = run_tool("eval", "--help", NULL);
    assert_non_null(strstr(r.out, "--no-ease"));
    run_free(&r);
}

static void test_unreadable(void **state)
{
    static const char *const verbs[] = { "info", "dump", "eval" };
    const char *files[3];
    run_result r;
    char missing[320];
    size_t i, k;
    (void)state;
    files[0] = empty_path;
    files[1] = text_path;
    files[2] = truncated_path;
    for (k = 0; k < 3; k++) {
        for (i = 0; i < 3; i++) {
            if (i == 2)
                r = run_tool(verbs[i], files[k], "--frame", "0", "--json", NULL);
            else
                r = run_tool(verbs[i], files[k], NULL);
            if (r.status != 1)
                fail_msg("%s %s: status %d, want 1", verbs[i], files[k], r.status);
            assert_true(check_error_lines(r.err, files[k]) >= 1);
            run_free(&r);
        }
    }
    /* a truncated payload is reported in the chunk form */
    r = run_tool("info", truncated_path, NULL);
    assert_non_null(strstr(r.err, "chunk 0x4110 POINT_ARRAY: "));
    run_free(&r);
    r = run_tool("dump", truncated_path, NULL);
    assert_non_null(strstr(r.out, "POINT_ARRAY"));   /* what could be read is printed */
    assert_non_null(strstr(r.err, "chunk 0x4110 POINT_ARRAY: "));
    run_free(&r);
    r = run_tool("dump", truncated_path, "--json", NULL);
    assert_int_equal(r.status, 1);
    assert_true(json_valid(r.out, r.out_len));
    run_free(&r);

    support_tmp_path(missing, sizeof missing, "no-such-file.3ds");
    r = run_tool("info", missing, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, ": cannot open: "));
    check_error_lines(r.err, missing);
    run_free(&r);
}

static void test_deep_nesting(void **state)
{
    run_result r;
    (void)state;
    r = run_tool("dump", deep_path, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "nested deeper"));
    check_error_lines(r.err, deep_path);
    run_free(&r);
    r = run_tool("dump", deep_path, "--json", NULL);
    assert_int_equal(r.status, 1);
    assert_true(json_valid(r.out, r.out_len));
    run_free(&r);
    r = run_tool("info", deep_path, NULL);
    assert_in_range(r.status, 0, 1);
    run_free(&r);
}

static void test_eval_json(void **state)
{
    run_result r;
    double m[16];
    const char *p;
    (void)state;
    r = run_tool("eval", simple_path, "--frame", "0", "--json", NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.err_len, 0);
    assert_true(json_valid(r.out, r.out_len));
    assert_non_null(strstr(r.out, "\"frame\": 0"));
    assert_non_null(strstr(r.out, "\"index\": 0"));
    assert_non_null(strstr(r.out, "\"name\": \"Box\""));
    assert_non_null(strstr(r.out, "\"type\": \"object\""));
    assert_non_null(strstr(r.out, "\"parent\": -1"));
    assert_null(strstr(r.out, "\"verts\""));
    assert_null(strstr(r.out, "\"instance\""));
    parse_world(r.out, m);
    expect_moved_by_123(m);
    run_free(&r);

    /* several frames (in the given order), --verts, --no-ease, --frame=F */
    r = run_tool("eval", "--json", "--verts", "--no-ease", "--frame=12.5", simple_path,
                 "--frame", "-3", NULL);
    assert_int_equal(r.status, 0);
    assert_true(json_valid(r.out, r.out_len));
    p = strstr(r.out, "\"frame\": 12.5");
    assert_non_null(p);
    assert_non_null(strstr(p, "\"frame\": -3"));
    parse_world(p, m);
    expect_moved_by_123(m);
    /* stored point (1,0,0), identity MESH_MATRIX, pivot 0: placed at (2,2,3) */
    assert_non_null(strstr(r.out, "\"verts\": [[2, 2, 3], [1, 3, 3], [1, 2, 4]]"));
    run_free(&r);
}

static void test_text_outputs(void **state)
{
    run_result r;
    (void)state;
    r = run_tool("dump", simple_path, NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.err_len, 0);
    assert_non_null(strstr(r.out, "0x000000 0x4D4D M3DMAGIC len "));
    assert_non_null(strstr(r.out, "0x000006 0x0002 M3D_VERSION len 10: 3"));
    assert_non_null(strstr(r.out, "POS_TRACK_TAG"));
    assert_non_null(strstr(r.out, "value (1, 2, 3)"));
    run_free(&r);

    r = run_tool("dump", simple_path, "--json", NULL);
    assert_int_equal(r.status, 0);
    assert_true(json_valid(r.out, r.out_len));
    assert_non_null(strstr(r.out, "\"id\":\"0x4D4D\""));
    assert_non_null(strstr(r.out, "\"name\":\"M3D_VERSION\""));
    run_free(&r);

    r = run_tool("info", simple_path, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "meshes: 1 (3 vertices, 1 face)"));
    assert_non_null(strstr(r.out, "[0] object Box"));
    assert_non_null(strstr(r.out, "pos 1"));
    run_free(&r);

    r = run_tool("eval", simple_path, "--frame", "0", "--verts", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "frame 0"));
    assert_non_null(strstr(r.out, "[0] object Box"));
    run_free(&r);
}

static void test_names_are_escaped(void **state)
{
    run_result r;
    (void)state;
    r = run_tool("eval", names_path, "--frame", "0", "--json", "--verts", NULL);
    assert_int_equal(r.status, 0);
    assert_true(json_valid(r.out, r.out_len));
    assert_non_null(strstr(r.out, "\"q\\\"b\\\\s\\u0001\\u001b[1m\\u00ff\\u00e9 x\""));
    run_free(&r);
    r = run_tool("dump", names_path, "--json", "--full", NULL);
    assert_int_equal(r.status, 0);
    assert_true(json_valid(r.out, r.out_len));
    run_free(&r);
    r = run_tool("info", names_path, NULL);
    assert_int_equal(r.status, 0);
    assert_null(strchr(r.out, '\x1b')); /* no raw control bytes for the terminal */
    assert_null(strchr(r.out, '\x01'));
    run_free(&r);
}

/* One corpus file: status 0 and valid JSON, or for the broken ones (empty,
 * and a Git LFS pointer) status 1 and the error lines of docs/output.md. */
static void run_corpus_file(const char *path, const char *name, void *user)
{
    struct stat st;
    run_result r;
    if (!support_is_3ds_name(name) || stat(path, &st) != 0 ||
        st.st_size > 300000) /* keep the suite fast */
        return;
    if (st.st_size == 0 || strstr(name, "iflamigm")) {
        r = run_tool("info", path, NULL);
        assert_int_equal(r.status, 1);
        check_error_lines(r.err, path);
        run_free(&r);
        return;
    }
    r = run_tool("eval", path, "--frame", "0", "--frame", "7.5", "--json", "--verts", NULL);
    if (r.status != 0)
        fail_msg("eval %s: status %d: %s", path, r.status, r.err);
    if (!json_valid(r.out, r.out_len))
        fail_msg("eval %s: invalid JSON", path);
    assert_int_equal(check_error_lines(r.err, path), 0);
    run_free(&r);

    r = run_tool("dump", path, "--json", NULL);
    if (r.status != 0)
        fail_msg("dump %s: status %d: %s", path, r.status, r.err);
    if (!json_valid(r.out, r.out_len))
        fail_msg("dump %s: invalid JSON", path);
    run_free(&r);

    r = run_tool("info", path, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "nodes: "));
    run_free(&r);
    ++*(int *)user;
}

/* Real files: every readable corpus file gives status 0 and valid JSON. */
static void test_corpus(void **state)
{
    int tested = 0;
    (void)state;
    if (support_corpus_each(run_corpus_file, &tested) < 0) {
        skip();
        return;
    }
    assert_true(tested > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_checker),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_help_version),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_eval_json),
        cmocka_unit_test(test_text_outputs),
        cmocka_unit_test(test_names_are_escaped),
        cmocka_unit_test(test_corpus),
    };
    return support_run_tests(tests, setup, teardown);
}
