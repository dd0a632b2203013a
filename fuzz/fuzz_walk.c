/* libFuzzer target: the raw chunk walker (kf3ds_chunk_next and the
 * kf3ds_read_* cursor, descending into every chunk as if it were a container)
 * and the dump printer of tools/cmd/cmd_dump*.c in text, JSON and --full JSON.
 *
 * The dump verb reads its FILE ("-" is standard input) and prints on stdout
 * and stderr through stdio; the target swaps the three FILE pointers for the
 * call: stdin reads the input from memory (fmemopen), stdout goes to a memory
 * stream (open_memstream) and stderr to a sink. The file descriptors stay
 * untouched, so libFuzzer's and the sanitizers' reports still reach fd 2.
 *
 * Oracles beyond the sanitizers (abort() = a finding): the walker never
 * leaves its parent's range and always advances; the dump exits 0 or 1; its
 * JSON output is well-formed JSON; the text output has no NUL byte. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "kf3ds.h"

static void finding(const char *what, unsigned long v)
{
    fprintf(stderr, "fuzz_walk: %s (%lu)\n", what, v);
    abort();
}

#define CHECK(cond, v)                                                    \
    do {                                                                  \
        if (!(cond))                                                      \
            finding(#cond, (unsigned long)(v));                           \
    } while (0)

/* ---- the raw walker --------------------------------------------------- */

#define WALK_DEPTH 48
#define WALK_BUDGET 20000

static void read_everything(kf3ds_reader r)
{
    unsigned step = 0;
    while (kf3ds_reader_left(&r)) {
        size_t before = r.pos, len = 0;
        int term = 0;
        switch (step++ % 7) {
        case 0: (void)kf3ds_read_u8(&r); break;
        case 1: (void)kf3ds_read_u16(&r); break;
        case 2: (void)kf3ds_read_i32(&r); break;
        case 3: (void)kf3ds_read_f32(&r); break;
        case 4: {
            const char *s = kf3ds_read_cstr(&r, &len, &term);
            CHECK(s != NULL, 0);
            CHECK(len <= r.end - before, len);
            if (len)
                CHECK(s[len - 1] != 0 || 1, 0);
            break;
        }
        case 5: (void)kf3ds_read_i16(&r); break;
        default: (void)kf3ds_read_u32(&r); break;
        }
        CHECK(r.pos <= r.end, r.pos);
        CHECK(r.pos > before || r.short_read, before);
        if (r.short_read)
            break;
    }
}

/* Every chunk is treated as a container, iteratively (explicit stack). */
static void walk_raw(const uint8_t *data, size_t size)
{
    kf3ds_reader stack[WALK_DEPTH];
    int top = 0;
    unsigned budget = WALK_BUDGET;
    stack[0] = kf3ds_reader_make(data, size);
    while (top >= 0 && budget) {
        kf3ds_reader *parent = &stack[top];
        kf3ds_chunk c;
        kf3ds_reader body;
        size_t before = parent->pos;
        kf3ds_chunk_result res = kf3ds_chunk_next(parent, &c, &body);
        budget--;
        if (res == KF3DS_NEXT_NONE || res == KF3DS_NEXT_BAD) {
            if (res == KF3DS_NEXT_BAD)
                CHECK(kf3ds_reader_left(parent) < 6 || c.length < 6, c.length);
            top--;
            continue;
        }
        CHECK(c.offset == before, c.offset);
        CHECK(c.end <= parent->end && c.end >= c.offset + 6, c.end);
        CHECK(parent->pos == c.end, parent->pos);
        CHECK(body.pos == before + 6 && body.end == c.end, body.pos);
        CHECK((res == KF3DS_NEXT_CLAMPED) == (c.length > c.end - c.offset), c.length);
        (void)kf3ds_chunk_name(c.id);
        read_everything(body);
        if (top + 1 < WALK_DEPTH)
            stack[++top] = body;
    }
}

/* ---- JSON well-formedness (iterative) --------------------------------- */

typedef struct jp {
    const char *s;
    size_t i, n;
} jp;

static void ws(jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\n' || p->s[p->i] == '\t' ||
                           p->s[p->i] == '\r'))
        p->i++;
}

static int string(jp *p)
{
    if (p->i >= p->n || p->s[p->i] != '"')
        return 0;
    p->i++;
    while (p->i < p->n) {
        unsigned char ch = (unsigned char)p->s[p->i++];
        if (ch == '"')
            return 1;
        if (ch < 0x20)
            return 0;
        if (ch == '\\') {
            if (p->i >= p->n)
                return 0;
            ch = (unsigned char)p->s[p->i++];
            if (ch == 'u') {
                int k;
                for (k = 0; k < 4; k++, p->i++)
                    if (p->i >= p->n || !strchr("0123456789abcdefABCDEF", p->s[p->i]) ||
                        !p->s[p->i])
                        return 0;
            } else if (!strchr("\"\\/bfnrt", ch) || !ch) {
                return 0;
            }
        }
    }
    return 0;
}

static int scalar(jp *p)
{
    size_t start = p->i;
    if (p->i < p->n && p->s[p->i] == '"')
        return string(p);
    if (p->n - p->i >= 4 && (memcmp(p->s + p->i, "true", 4) == 0 ||
                             memcmp(p->s + p->i, "null", 4) == 0)) {
        p->i += 4;
        return 1;
    }
    if (p->n - p->i >= 5 && memcmp(p->s + p->i, "false", 5) == 0) {
        p->i += 5;
        return 1;
    }
    if (p->i < p->n && p->s[p->i] == '-')
        p->i++;
    if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
        return 0;
    if (p->s[p->i] == '0')
        p->i++;
    else
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
            return 0;
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
            return 0;
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    }
    return p->i > start;
}

/* A value: nested arrays/objects with an explicit stack of brackets. */
static int json_valid(const char *s, size_t n)
{
    char stack[4096];
    int top = 0;
    jp p = { s, 0, n };
    ws(&p);
    for (;;) {
        /* expect a value */
        ws(&p);
        if (p.i < p.n && (p.s[p.i] == '[' || p.s[p.i] == '{')) {
            char open = p.s[p.i++];
            if (top >= (int)sizeof stack)
                return 0;
            stack[top++] = open;
            ws(&p);
            if (p.i < p.n && p.s[p.i] == (open == '[' ? ']' : '}')) {
                p.i++;
                top--;
                goto after_value;
            }
            if (open == '{') {
                if (!string(&p))
                    return 0;
                ws(&p);
                if (p.i >= p.n || p.s[p.i++] != ':')
                    return 0;
            }
            continue;
        }
        if (!scalar(&p))
            return 0;
    after_value:
        for (;;) {
            ws(&p);
            if (top == 0)
                return p.i == p.n;
            if (p.i >= p.n)
                return 0;
            if (p.s[p.i] == ',') {
                p.i++;
                if (stack[top - 1] == '{') {
                    ws(&p);
                    if (!string(&p))
                        return 0;
                    ws(&p);
                    if (p.i >= p.n || p.s[p.i++] != ':')
                        return 0;
                }
                break; /* next value */
            }
            if (p.s[p.i] == (stack[top - 1] == '[' ? ']' : '}')) {
                p.i++;
                top--;
                continue;
            }
            return 0;
        }
    }
}

/* ---- the dump printer ------------------------------------------------- */

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    (void)buf;
    return (ssize_t)n;
}

static FILE *sink(void)
{
    static FILE *f;
    if (!f) {
        cookie_io_functions_t io = { NULL, sink_write, NULL, NULL };
        f = fopencookie(NULL, "w", io);
        if (!f)
            abort();
    }
    return f;
}

static void run_dump(const uint8_t *data, size_t size, const char *opt1, const char *opt2)
{
    char verb[] = "dump", dash[] = "-", o1[16], o2[16];
    char *argv[5];
    int argc = 0, status;
    FILE *saved_in = stdin, *saved_out = stdout, *saved_err = stderr;
    FILE *in, *out;
    char *text = NULL;
    size_t text_len = 0;
    static const char empty[1] = { 0 };

    argv[argc++] = verb;
    argv[argc++] = dash;
    if (opt1) {
        snprintf(o1, sizeof o1, "%s", opt1);
        argv[argc++] = o1;
    }
    if (opt2) {
        snprintf(o2, sizeof o2, "%s", opt2);
        argv[argc++] = o2;
    }
    argv[argc] = NULL;
    in = size ? fmemopen((void *)data, size, "r") : fmemopen((void *)empty, 1, "r");
    out = open_memstream(&text, &text_len);
    if (!in || !out)
        abort();
    if (!size)
        fgetc(in); /* an empty stream */
    stdin = in;
    stdout = out;
    stderr = sink();
    status = cmd_dump_verb.run(argc, argv);
    fflush(stderr);
    stdin = saved_in;
    stdout = saved_out;
    stderr = saved_err;
    fclose(in);
    fclose(out);
    CHECK(status == CLI_EXIT_OK || status == CLI_EXIT_INPUT, status);
    /* An input refused before the walk (not a 3DS file, docs/output.md
     * "Input") prints nothing on stdout; anything printed is one
     * JSON document. */
    if (opt1 && strcmp(opt1, "--json") == 0 && (status == CLI_EXIT_OK || text_len))
        CHECK(json_valid(text, text_len), text_len);
    else
        CHECK(memchr(text, '\0', text_len) == NULL, text_len);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    walk_raw(data, size);
    run_dump(data, size, NULL, NULL);
    run_dump(data, size, "--json", size < 16384 ? "--full" : NULL);
    if (size < 4096)
        run_dump(data, size, "--full", NULL);
    return 0;
}
