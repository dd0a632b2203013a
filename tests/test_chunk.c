/* Unit tests of the chunk walker (src/chunk.c): little-endian reads on
 * hand-built bytes, bounds (reads past the end, exactly sized heap buffers so
 * that ASan sees any overread), strings, sub-chunk iteration and the id → name
 * table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"

/* An exactly sized heap copy of `bytes`: one byte further is outside the
 * allocation, so an overread is an ASan report. */
static unsigned char *exact_copy(const void *bytes, size_t n)
{
    unsigned char *p = malloc(n ? n : 1);
    assert_non_null(p);
    if (n)
        memcpy(p, bytes, n);
    return p;
}

/* A reader over an exactly sized copy of `n` bytes, put in *buf (free it). */
static kf3ds_reader exact_reader(const void *bytes, size_t n, unsigned char **buf)
{
    *buf = exact_copy(bytes, n);
    return kf3ds_reader_make(*buf, n);
}

/* At the end of a range (or of nothing): an empty, unterminated string and a
 * short read. */
static void expect_no_string(kf3ds_reader *r)
{
    size_t len = 99;
    int term = 1;
    const char *s = kf3ds_read_cstr(r, &len, &term);
    assert_non_null(s);
    assert_int_equal(len, 0);
    assert_int_equal(term, 0);
    assert_int_equal(r->short_read, 1);
}

/* Writes a chunk header (id, length) at p. */
static void put_header(unsigned char *p, uint16_t id, uint32_t length)
{
    p[0] = (unsigned char)(id & 0xFF);
    p[1] = (unsigned char)(id >> 8);
    p[2] = (unsigned char)(length & 0xFF);
    p[3] = (unsigned char)((length >> 8) & 0xFF);
    p[4] = (unsigned char)((length >> 16) & 0xFF);
    p[5] = (unsigned char)((length >> 24) & 0xFF);
}

/* The next chunk of `parent` must come with result `res` (OK or CLAMPED) and
 * be `id` at `offset` with the declared `length` and the (clamped) `end`;
 * its body, when asked for, must run from offset + 6 to `end`. */
static void expect_chunk(kf3ds_reader *parent, kf3ds_reader *body, kf3ds_chunk_result res,
                         uint16_t id, uint32_t offset, uint32_t length, uint32_t end)
{
    kf3ds_chunk c;
    kf3ds_chunk_result got = kf3ds_chunk_next(parent, &c, body);
    if (got != res || c.id != id || c.offset != offset || c.length != length || c.end != end)
        fail_msg("chunk: got result %d, 0x%04X at %lu, length %lu, end %lu; expected result %d, "
                 "0x%04X at %lu, length %lu, end %lu",
                 (int)got, (unsigned)c.id, (unsigned long)c.offset, (unsigned long)c.length,
                 (unsigned long)c.end, (int)res, (unsigned)id, (unsigned long)offset,
                 (unsigned long)length, (unsigned long)end);
    if (body && (body->pos != (size_t)offset + 6 || body->end != end))
        fail_msg("chunk 0x%04X at %lu: body %lu..%lu, expected %lu..%lu", (unsigned)id,
                 (unsigned long)offset, (unsigned long)body->pos, (unsigned long)body->end,
                 (unsigned long)offset + 6, (unsigned long)end);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- little-endian reads ----------------------------------------------- */

static void test_read_unsigned(void **state)
{
    static const unsigned char bytes[] = {
        0xAB,                   /* u8 */
        0x34, 0x12,             /* u16 0x1234 */
        0xFF, 0xFF,             /* u16 0xFFFF */
        0x78, 0x56, 0x34, 0x12, /* u32 0x12345678 */
        0xEF, 0xBE, 0xAD, 0xDE, /* u32 0xDEADBEEF */
    };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r = kf3ds_reader_make(buf, sizeof bytes);
    (void)state;
    assert_ptr_equal(r.data, buf);
    assert_int_equal(r.pos, 0);
    assert_int_equal(r.end, sizeof bytes);
    assert_int_equal(r.short_read, 0);
    assert_int_equal(kf3ds_reader_left(&r), sizeof bytes);

    assert_int_equal(kf3ds_read_u8(&r), 0xAB);
    assert_int_equal(kf3ds_read_u16(&r), 0x1234);
    assert_int_equal(kf3ds_read_u16(&r), 0xFFFF);
    assert_true(kf3ds_read_u32(&r) == 0x12345678u);
    assert_true(kf3ds_read_u32(&r) == 0xDEADBEEFu);
    assert_int_equal(r.pos, sizeof bytes);
    assert_int_equal(kf3ds_reader_left(&r), 0);
    assert_int_equal(r.short_read, 0);
    free(buf);
}

static void test_read_signed(void **state)
{
    static const unsigned char bytes[] = {
        0xFE, 0xFF,             /* i16 -2 */
        0x00, 0x80,             /* i16 -32768 */
        0xFF, 0x7F,             /* i16 32767 */
        0xFF, 0xFF, 0xFF, 0xFF, /* i32 -1 */
        0x00, 0x00, 0x00, 0x80, /* i32 INT32_MIN */
        0xFF, 0xFF, 0xFF, 0x7F, /* i32 INT32_MAX */
        0x9C, 0xFF, 0xFF, 0xFF, /* i32 -100 */
        0x64, 0x00, 0x00, 0x00, /* i32 100 */
    };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r = kf3ds_reader_make(buf, sizeof bytes);
    (void)state;
    assert_int_equal(kf3ds_read_i16(&r), -2);
    assert_int_equal(kf3ds_read_i16(&r), -32768);
    assert_int_equal(kf3ds_read_i16(&r), 32767);
    assert_int_equal(kf3ds_read_i32(&r), -1);
    assert_true(kf3ds_read_i32(&r) == INT32_MIN);
    assert_true(kf3ds_read_i32(&r) == INT32_MAX);
    assert_int_equal(kf3ds_read_i32(&r), -100);
    assert_int_equal(kf3ds_read_i32(&r), 100);
    assert_int_equal(r.short_read, 0);
    assert_int_equal(kf3ds_reader_left(&r), 0);
    free(buf);
}

static void test_read_f32(void **state)
{
    static const unsigned char bytes[] = {
        0x00, 0x00, 0x80, 0x3F, /* 1.0f */
        0x00, 0x00, 0x00, 0xC0, /* -2.0f */
        0x00, 0x00, 0x00, 0x00, /* +0 */
        0x00, 0x00, 0x00, 0x80, /* -0 */
        0xDB, 0x0F, 0x49, 0x40, /* pi 0x40490FDB */
        0x00, 0x00, 0x80, 0x7F, /* +inf */
        0x00, 0x00, 0xC0, 0x7F, /* quiet NaN */
        0x01, 0x00, 0x00, 0x00, /* smallest denormal */
    };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r = kf3ds_reader_make(buf, sizeof bytes);
    float f;
    (void)state;
    assert_true(kf3ds_read_f32(&r) == 1.0f);
    assert_true(kf3ds_read_f32(&r) == -2.0f);
    f = kf3ds_read_f32(&r);
    assert_true(float_bits(f) == 0x00000000u);
    f = kf3ds_read_f32(&r);
    assert_true(float_bits(f) == 0x80000000u);
    f = kf3ds_read_f32(&r);
    assert_true(float_bits(f) == 0x40490FDBu);
    assert_true(f > 3.14159f && f < 3.14160f);
    f = kf3ds_read_f32(&r);
    assert_true(float_bits(f) == 0x7F800000u);
    f = kf3ds_read_f32(&r);
    assert_true(f != f); /* NaN survives as NaN */
    assert_true(float_bits(f) == 0x7FC00000u);
    f = kf3ds_read_f32(&r);
    assert_true(float_bits(f) == 0x00000001u);
    assert_int_equal(r.short_read, 0);
    free(buf);
}

/* Reads need no alignment: a u32 at an odd offset. */
static void test_read_unaligned(void **state)
{
    static const unsigned char bytes[] = { 0x11, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x80, 0x3F };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r = kf3ds_reader_make(buf, sizeof bytes);
    (void)state;
    assert_int_equal(kf3ds_read_u8(&r), 0x11);
    assert_true(kf3ds_read_u32(&r) == 0x12345678u);
    assert_true(kf3ds_read_f32(&r) == 1.0f);
    assert_int_equal(r.short_read, 0);
    free(buf);
}

/* ---- reads past the end ------------------------------------------------ */

static void test_short_reads(void **state)
{
    static const unsigned char bytes[] = { 0x01, 0x02, 0x03 };
    unsigned char *buf;
    kf3ds_reader r;
    (void)state;

    /* u32 from 3 bytes */
    r = exact_reader(bytes, 3, &buf);
    assert_true(kf3ds_read_u32(&r) == 0);
    assert_int_equal(r.short_read, 1);
    assert_true(r.pos <= r.end);
    (void)kf3ds_read_u8(&r);
    assert_int_equal(r.short_read, 1); /* sticky: a later read does not clear it */
    free(buf);

    /* i32 / f32 from 3 bytes */
    r = exact_reader(bytes, 3, &buf);
    assert_int_equal(kf3ds_read_i32(&r), 0);
    assert_int_equal(r.short_read, 1);
    free(buf);
    r = exact_reader(bytes, 3, &buf);
    assert_true(kf3ds_read_f32(&r) == 0.0f);
    assert_int_equal(r.short_read, 1);
    free(buf);

    /* u16 / i16 from 1 byte */
    r = exact_reader(bytes, 1, &buf);
    assert_int_equal(kf3ds_read_u16(&r), 0);
    assert_int_equal(r.short_read, 1);
    free(buf);
    r = exact_reader("\xFF", 1, &buf);
    assert_int_equal(kf3ds_read_i16(&r), 0);
    assert_int_equal(r.short_read, 1);
    free(buf);

    /* u8 from an empty range */
    r = exact_reader(bytes, 0, &buf);
    assert_int_equal(kf3ds_reader_left(&r), 0);
    assert_int_equal(kf3ds_read_u8(&r), 0);
    assert_int_equal(r.short_read, 1);
    free(buf);

    /* Reading exactly to the end is not short; one more byte is. */
    r = exact_reader(bytes, 3, &buf);
    assert_int_equal(kf3ds_read_u16(&r), 0x0201);
    assert_int_equal(kf3ds_read_u8(&r), 0x03);
    assert_int_equal(r.short_read, 0);
    assert_int_equal(kf3ds_read_u8(&r), 0);
    assert_int_equal(r.short_read, 1);
    assert_int_equal(kf3ds_reader_left(&r), 0);
    free(buf);
}

/* A reader over a sub-range stops at its own end, not at the buffer's. */
static void test_subrange_end(void **state)
{
    static const unsigned char bytes[] = { 0xAA, 0x01, 0x02, 0x03, 0x04, 0x05 };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r;
    (void)state;
    r.data = buf;
    r.pos = 1;
    r.end = 4; /* bytes 1..3 */
    r.short_read = 0;
    assert_int_equal(kf3ds_reader_left(&r), 3);
    assert_true(kf3ds_read_u32(&r) == 0); /* would need byte 4 */
    assert_int_equal(r.short_read, 1);

    r.pos = 1;
    r.short_read = 0;
    assert_int_equal(kf3ds_read_u16(&r), 0x0201);
    assert_int_equal(kf3ds_read_u8(&r), 0x03);
    assert_int_equal(r.short_read, 0);
    assert_int_equal(kf3ds_read_u8(&r), 0);
    assert_int_equal(r.short_read, 1);

    /* pos beyond end: nothing left, reads are short */
    r.pos = 5;
    r.end = 4;
    r.short_read = 0;
    assert_int_equal(kf3ds_reader_left(&r), 0);
    assert_int_equal(kf3ds_read_u8(&r), 0);
    assert_int_equal(r.short_read, 1);
    free(buf);
}

static void test_null_reader(void **state)
{
    kf3ds_reader r = kf3ds_reader_make(NULL, 100);
    kf3ds_chunk c;
    (void)state;
    assert_int_equal(r.end, 0);
    assert_int_equal(kf3ds_reader_left(&r), 0);
    assert_int_equal(kf3ds_read_u32(&r), 0);
    assert_int_equal(r.short_read, 1);
    r.short_read = 0;
    expect_no_string(&r);
    r = kf3ds_reader_make(NULL, 0);
    assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_NONE);
}

/* ---- strings ----------------------------------------------------------- */

static void test_cstr(void **state)
{
    static const unsigned char bytes[] = { 'a', 'b', 'c', 0, 0, 'd', 'e', 'f' };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r = kf3ds_reader_make(buf, sizeof bytes);
    size_t len = 99;
    int term = -1;
    const char *s;
    (void)state;

    s = kf3ds_read_cstr(&r, &len, &term);
    assert_ptr_equal(s, (const char *)buf); /* points into the input */
    assert_int_equal(len, 3);
    assert_int_equal(term, 1);
    assert_int_equal(memcmp(s, "abc", 4), 0);
    assert_int_equal(r.pos, 4);
    assert_int_equal(r.short_read, 0);

    /* empty string */
    s = kf3ds_read_cstr(&r, &len, &term);
    assert_ptr_equal(s, (const char *)buf + 4);
    assert_int_equal(len, 0);
    assert_int_equal(term, 1);
    assert_int_equal(r.pos, 5);
    assert_int_equal(r.short_read, 0);

    /* no terminator: runs to the end (not beyond), short_read set */
    s = kf3ds_read_cstr(&r, &len, &term);
    assert_ptr_equal(s, (const char *)buf + 5);
    assert_int_equal(len, 3);
    assert_int_equal(term, 0);
    assert_int_equal(memcmp(s, "def", 3), 0);
    assert_int_equal(r.short_read, 1);
    assert_int_equal(r.pos, r.end);

    /* at the end: empty, unterminated */
    r.short_read = 0;
    expect_no_string(&r);

    /* NULL len / terminated are allowed */
    r = kf3ds_reader_make(buf, sizeof bytes);
    s = kf3ds_read_cstr(&r, NULL, NULL);
    assert_ptr_equal(s, (const char *)buf);
    assert_int_equal(r.pos, 4);
    free(buf);
}

/* The terminator must be searched for inside [pos, end) only. */
static void test_cstr_respects_end(void **state)
{
    static const unsigned char bytes[] = { 'x', 'y', 'z', 0 };
    unsigned char *buf = exact_copy(bytes, sizeof bytes);
    kf3ds_reader r;
    size_t len;
    int term;
    (void)state;
    r.data = buf;
    r.pos = 0;
    r.end = 3; /* the NUL at 3 is outside */
    r.short_read = 0;
    kf3ds_read_cstr(&r, &len, &term);
    assert_int_equal(len, 3);
    assert_int_equal(term, 0);
    assert_int_equal(r.short_read, 1);
    assert_int_equal(r.pos, 3);
    free(buf);
}

/* ---- sub-chunk iteration ----------------------------------------------- */

/* root 0x4D4D { 0x0002 u32=3; 0x1234 (unknown, 5 payload bytes);
 *               0x3D3D { 0x3D3E u32=7 }; 0x0100 f32 1.0 } */
static unsigned char *build_tree(size_t *size)
{
    unsigned char tmp[128];
    size_t n = 0;
    size_t root, mdata;
    memset(tmp, 0, sizeof tmp);
    root = n;
    n += 6;
    put_header(tmp + n, 0x0002, 10);
    tmp[n + 6] = 3;
    n += 10;
    put_header(tmp + n, 0x1234, 11);
    memcpy(tmp + n + 6, "\x01\x02\x03\x04\x05", 5);
    n += 11;
    mdata = n;
    put_header(tmp + n, 0x3D3D, 16);
    put_header(tmp + n + 6, 0x3D3E, 10);
    tmp[n + 12] = 7;
    n += 16;
    put_header(tmp + n, 0x0100, 10);
    tmp[n + 8] = 0x80;
    tmp[n + 9] = 0x3F;
    n += 10;
    put_header(tmp + root, 0x4D4D, (uint32_t)n);
    (void)mdata;
    *size = n;
    return exact_copy(tmp, n);
}

static void test_iterate_siblings(void **state)
{
    size_t size;
    unsigned char *buf = build_tree(&size);
    kf3ds_reader top = kf3ds_reader_make(buf, size), root_body, body, sub_body;
    kf3ds_chunk c;
    (void)state;

    assert_int_equal(size, 53);
    expect_chunk(&top, &root_body, KF3DS_NEXT_OK, 0x4D4D, 0, 53, 53);
    assert_ptr_equal(root_body.data, buf);
    assert_int_equal(root_body.short_read, 0);
    assert_int_equal(top.pos, 53);
    assert_int_equal(kf3ds_chunk_next(&top, &c, NULL), KF3DS_NEXT_NONE);

    /* first child */
    expect_chunk(&root_body, &body, KF3DS_NEXT_OK, 0x0002, 6, 10, 16);
    assert_true(kf3ds_read_u32(&body) == 3);
    assert_int_equal(body.short_read, 0);
    assert_int_equal(root_body.pos, 16);

    /* the unknown chunk is skipped by its length, body unread */
    expect_chunk(&root_body, NULL, KF3DS_NEXT_OK, 0x1234, 16, 11, 27);
    assert_int_equal(root_body.pos, 27);

    /* a container, and its own child */
    expect_chunk(&root_body, &body, KF3DS_NEXT_OK, 0x3D3D, 27, 16, 43);
    expect_chunk(&body, &sub_body, KF3DS_NEXT_OK, 0x3D3E, 33, 10, 43);
    assert_true(kf3ds_read_u32(&sub_body) == 7);
    assert_int_equal(kf3ds_chunk_next(&body, &c, NULL), KF3DS_NEXT_NONE);

    /* last child */
    expect_chunk(&root_body, &body, KF3DS_NEXT_OK, 0x0100, 43, 10, 53);
    assert_true(kf3ds_read_f32(&body) == 1.0f);
    assert_int_equal(kf3ds_chunk_next(&root_body, &c, &body), KF3DS_NEXT_NONE);
    assert_int_equal(kf3ds_chunk_next(&root_body, &c, &body), KF3DS_NEXT_NONE);
    free(buf);
}

/* The ids seen by a plain loop, skipping what it does not know. */
static void test_iterate_loop(void **state)
{
    size_t size;
    unsigned char *buf = build_tree(&size);
    kf3ds_reader top = kf3ds_reader_make(buf, size), root_body;
    kf3ds_chunk c;
    uint16_t seen[8];
    int n = 0;
    kf3ds_chunk_result res;
    (void)state;
    assert_int_equal(kf3ds_chunk_next(&top, &c, &root_body), KF3DS_NEXT_OK);
    while ((res = kf3ds_chunk_next(&root_body, &c, NULL)) == KF3DS_NEXT_OK && n < 8)
        seen[n++] = c.id;
    assert_int_equal(res, KF3DS_NEXT_NONE);
    assert_int_equal(n, 4);
    assert_int_equal(seen[0], 0x0002);
    assert_int_equal(seen[1], 0x1234);
    assert_int_equal(seen[2], 0x3D3D);
    assert_int_equal(seen[3], 0x0100);
    free(buf);
}

static void test_length_exactly_six(void **state)
{
    unsigned char tmp[18];
    unsigned char *buf;
    kf3ds_reader r, body;
    kf3ds_chunk c;
    (void)state;
    put_header(tmp, 0x4D4D, 18);
    put_header(tmp + 6, 0x4010, 6); /* empty flag chunk */
    put_header(tmp + 12, 0x4011, 6);
    r = exact_reader(tmp, sizeof tmp, &buf);
    r.pos = 6; /* iterate the root's children directly */
    expect_chunk(&r, &body, KF3DS_NEXT_OK, 0x4010, 6, 6, 12);
    assert_int_equal(kf3ds_reader_left(&body), 0);
    assert_int_equal(kf3ds_chunk_next(&body, &c, NULL), KF3DS_NEXT_NONE);
    expect_chunk(&r, &body, KF3DS_NEXT_OK, 0x4011, 12, 6, 18);
    assert_int_equal(kf3ds_chunk_next(&r, &c, &body), KF3DS_NEXT_NONE);
    free(buf);
}

/* A child longer than what is left of its parent is clamped to the parent. */
static void test_child_overruns_parent(void **state)
{
    unsigned char tmp[40];
    unsigned char *buf;
    kf3ds_reader top, root_body, body, body2;
    kf3ds_chunk c;
    (void)state;
    memset(tmp, 0, sizeof tmp);
    /* root (40) { A 0x0002 len 10; B 0x3D3D len 100 (only 24 left) { C len 1000 } } */
    put_header(tmp, 0x4D4D, 40);
    put_header(tmp + 6, 0x0002, 10);
    put_header(tmp + 16, 0x3D3D, 100);
    put_header(tmp + 22, 0x3D3E, 1000);
    top = exact_reader(tmp, sizeof tmp, &buf);
    assert_int_equal(kf3ds_chunk_next(&top, &c, &root_body), KF3DS_NEXT_OK);
    assert_int_equal(kf3ds_chunk_next(&root_body, &c, NULL), KF3DS_NEXT_OK);
    /* the length as declared, the end clamped */
    expect_chunk(&root_body, &body, KF3DS_NEXT_CLAMPED, 0x3D3D, 16, 100, 40);
    assert_int_equal(root_body.pos, 40);
    assert_int_equal(kf3ds_chunk_next(&root_body, &c, NULL), KF3DS_NEXT_NONE);

    /* its child overruns the clamped parent too */
    expect_chunk(&body, &body2, KF3DS_NEXT_CLAMPED, 0x3D3E, 22, 1000, 40);
    assert_int_equal(kf3ds_chunk_next(&body, &c, NULL), KF3DS_NEXT_NONE);
    free(buf);
}

/* A root whose length runs past the buffer, and 0xFFFFFFFF. */
static void test_root_overruns_buffer(void **state)
{
    unsigned char tmp[12];
    unsigned char *buf;
    kf3ds_reader top, body;
    kf3ds_chunk c;
    (void)state;
    memset(tmp, 0, sizeof tmp);
    put_header(tmp, 0x4D4D, 0xFFFFFFFFu);
    top = exact_reader(tmp, sizeof tmp, &buf);
    expect_chunk(&top, &body, KF3DS_NEXT_CLAMPED, 0x4D4D, 0, 0xFFFFFFFFu, 12);
    assert_int_equal(top.pos, 12);
    /* the 6 zero bytes in the body: a chunk header with length 0 */
    assert_int_equal(kf3ds_chunk_next(&body, &c, NULL), KF3DS_NEXT_BAD);
    free(buf);
}

static void test_length_below_six(void **state)
{
    uint32_t len;
    (void)state;
    for (len = 0; len < 6; len++) {
        unsigned char tmp[26];
        unsigned char *buf;
        kf3ds_reader r, body;
        kf3ds_chunk c;
        memset(tmp, 0xEE, sizeof tmp);
        put_header(tmp, 0x0002, 10);      /* a good chunk first */
        put_header(tmp + 10, 0xB021, len); /* then the bad one */
        r = exact_reader(tmp, sizeof tmp, &buf);
        assert_int_equal(kf3ds_chunk_next(&r, &c, &body), KF3DS_NEXT_OK);
        assert_int_equal(kf3ds_chunk_next(&r, &c, &body), KF3DS_NEXT_BAD);
        assert_int_equal(c.id, 0xB021);
        assert_int_equal(c.offset, 10);
        assert_int_equal(c.length, len);
        assert_true(r.pos <= r.end);
        free(buf);
    }
}

/* 1..5 bytes after the last chunk: too few for a header. */
static void test_trailing_bytes(void **state)
{
    size_t extra;
    (void)state;
    for (extra = 1; extra <= 5; extra++) {
        unsigned char tmp[16];
        unsigned char *buf;
        kf3ds_reader r;
        kf3ds_chunk c;
        memset(tmp, 0x4D, sizeof tmp); /* looks like a header start */
        put_header(tmp, 0x0002, 10);
        r = exact_reader(tmp, 10 + extra, &buf);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_OK);
        assert_int_equal(c.end, 10);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_BAD);
        assert_int_equal(c.offset, 10);
        free(buf);
    }
    /* exactly 6 bytes left is a header, not trailing garbage */
    {
        unsigned char tmp[16];
        unsigned char *buf;
        kf3ds_reader r;
        kf3ds_chunk c;
        put_header(tmp, 0x0002, 10);
        put_header(tmp + 10, 0x4010, 6);
        r = exact_reader(tmp, 16, &buf);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_OK);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_OK);
        assert_int_equal(c.id, 0x4010);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_NONE);
        free(buf);
    }
}

/* The walker honours parent->end, not the buffer size. */
static void test_parent_end_inside_buffer(void **state)
{
    unsigned char tmp[30];
    unsigned char *buf;
    kf3ds_reader r, body;
    kf3ds_chunk c;
    (void)state;
    memset(tmp, 0, sizeof tmp);
    put_header(tmp, 0x0002, 10);
    put_header(tmp + 10, 0x0100, 20); /* would fit the buffer, not the range */
    buf = exact_copy(tmp, sizeof tmp);
    r.data = buf;
    r.pos = 0;
    r.end = 20;
    r.short_read = 0;
    assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_OK);
    assert_int_equal(kf3ds_chunk_next(&r, &c, &body), KF3DS_NEXT_CLAMPED);
    assert_int_equal(c.end, 20);
    assert_int_equal(body.end, 20);
    assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_NONE);
    free(buf);
}

/* ---- names --------------------------------------------------------------- */

typedef struct known_name {
    uint16_t id;
    const char *name;
} known_name;

/* Every id the table holds (in no particular order): a binary search over an
 * unsorted table loses some of them. */
static const known_name known_names[] = {
    {0x4D4D, "M3DMAGIC"}, {0x3D3D, "MDATA"}, {0xB021, "ROT_TRACK_TAG"},
    {0x4160, "MESH_MATRIX"}, {0x2D2D, "SMAGIC"}, {0xB030, "NODE_ID"},
    {0x0010, "COLOR_F"}, {0x0002, "M3D_VERSION"}, {0x0005, "M3D_KFVERSION"},
    {0x0011, "COLOR_24"}, {0x0012, "LIN_COLOR_24"}, {0x0013, "LIN_COLOR_F"},
    {0x0030, "INT_PERCENTAGE"}, {0x0031, "FLOAT_PERCENTAGE"}, {0x0032, "DOUBLE_PERCENTAGE"},
    {0x0100, "MASTER_SCALE"}, {0x1100, "BIT_MAP"}, {0x1101, "USE_BIT_MAP"},
    {0x1200, "SOLID_BGND"}, {0x1201, "USE_SOLID_BGND"}, {0x1300, "V_GRADIENT"},
    {0x1301, "USE_V_GRADIENT"}, {0x1400, "LO_SHADOW_BIAS"}, {0x1410, "HI_SHADOW_BIAS"},
    {0x1420, "SHADOW_MAP_SIZE"}, {0x1430, "SHADOW_SAMPLES"}, {0x1440, "SHADOW_RANGE"},
    {0x1450, "SHADOW_FILTER"}, {0x1460, "RAY_BIAS"}, {0x1500, "O_CONSTS"},
    {0x2100, "AMBIENT_LIGHT"}, {0x2200, "FOG"}, {0x2201, "USE_FOG"}, {0x2210, "FOG_BGND"},
    {0x2300, "DISTANCE_CUE"}, {0x2301, "USE_DISTANCE_CUE"}, {0x2302, "LAYER_FOG"},
    {0x2303, "USE_LAYER_FOG"}, {0x2310, "DCUE_BGND"}, {0x2D3D, "LMAGIC"},
    {0x3000, "DEFAULT_VIEW"}, {0x3D3E, "MESH_VERSION"}, {0x3DAA, "MLIBMAGIC"},
    {0x3DFF, "MATMAGIC"}, {0x4000, "NAMED_OBJECT"}, {0x4010, "OBJ_HIDDEN"},
    {0x4011, "OBJ_VIS_LOFTER"}, {0x4012, "OBJ_DOESNT_CAST"}, {0x4013, "OBJ_MATTE"},
    {0x4014, "OBJ_FAST"}, {0x4015, "OBJ_PROCEDURAL"}, {0x4016, "OBJ_FROZEN"},
    {0x4017, "OBJ_DONT_RCVSHADOW"}, {0x4100, "N_TRI_OBJECT"}, {0x4110, "POINT_ARRAY"},
    {0x4111, "POINT_FLAG_ARRAY"}, {0x4120, "FACE_ARRAY"}, {0x4130, "MSH_MAT_GROUP"},
    {0x4140, "TEX_VERTS"}, {0x4150, "SMOOTH_GROUP"}, {0x4165, "MESH_COLOR"},
    {0x4170, "MESH_TEXTURE_INFO"}, {0x4190, "MSH_BOXMAP"}, {0x4600, "N_DIRECT_LIGHT"},
    {0x4610, "DL_SPOTLIGHT"}, {0x4620, "DL_OFF"}, {0x4625, "DL_ATTENUATE"},
    {0x4627, "DL_RAYSHAD"}, {0x4630, "DL_SHADOWED"}, {0x4640, "DL_LOCAL_SHADOW"},
    {0x4641, "DL_LOCAL_SHADOW2"}, {0x4650, "DL_SEE_CONE"}, {0x4651, "DL_SPOT_RECTANGULAR"},
    {0x4652, "DL_SPOT_OVERSHOOT"}, {0x4653, "DL_SPOT_PROJECTOR"}, {0x4654, "DL_EXCLUDE"},
    {0x4655, "DL_RANGE"}, {0x4656, "DL_SPOT_ROLL"}, {0x4657, "DL_SPOT_ASPECT"},
    {0x4658, "DL_RAY_BIAS"}, {0x4659, "DL_INNER_RANGE"}, {0x465A, "DL_OUTER_RANGE"},
    {0x465B, "DL_MULTIPLIER"}, {0x4700, "N_CAMERA"}, {0x4710, "CAM_SEE_CONE"},
    {0x4720, "CAM_RANGES"}, {0x7001, "VIEWPORT_LAYOUT"}, {0x7011, "VIEWPORT_DATA"},
    {0x7012, "VIEWPORT_DATA_3"}, {0x7020, "VIEWPORT_SIZE"}, {0xA000, "MAT_NAME"},
    {0xA010, "MAT_AMBIENT"}, {0xA020, "MAT_DIFFUSE"}, {0xA030, "MAT_SPECULAR"},
    {0xA040, "MAT_SHININESS"}, {0xA041, "MAT_SHIN2PCT"}, {0xA042, "MAT_SHIN3PCT"},
    {0xA050, "MAT_TRANSPARENCY"}, {0xA052, "MAT_XPFALL"}, {0xA053, "MAT_REFBLUR"},
    {0xA080, "MAT_SELF_ILLUM"}, {0xA081, "MAT_TWO_SIDE"}, {0xA082, "MAT_DECAL"},
    {0xA083, "MAT_ADDITIVE"}, {0xA084, "MAT_SELF_ILPCT"}, {0xA085, "MAT_WIRE"},
    {0xA086, "MAT_SUPERSMP"}, {0xA087, "MAT_WIRE_SIZE"}, {0xA088, "MAT_FACEMAP"},
    {0xA08A, "MAT_XPFALLIN"}, {0xA08C, "MAT_PHONGSOFT"}, {0xA08E, "MAT_WIREABS"},
    {0xA100, "MAT_SHADING"}, {0xA200, "MAT_TEXMAP"}, {0xA204, "MAT_SPECMAP"},
    {0xA210, "MAT_OPACMAP"}, {0xA220, "MAT_REFLMAP"}, {0xA230, "MAT_BUMPMAP"},
    {0xA240, "MAT_USE_XPFALL"}, {0xA250, "MAT_USE_REFBLUR"}, {0xA252, "MAT_BUMP_PERCENT"},
    {0xA300, "MAT_MAPNAME"}, {0xA310, "MAT_ACUBIC"}, {0xA33A, "MAT_TEX2MAP"},
    {0xA33C, "MAT_SHINMAP"}, {0xA33D, "MAT_SELFIMAP"}, {0xA33E, "MAT_TEXMASK"},
    {0xA340, "MAT_TEX2MASK"}, {0xA342, "MAT_OPACMASK"}, {0xA344, "MAT_BUMPMASK"},
    {0xA346, "MAT_SHINMASK"}, {0xA348, "MAT_SPECMASK"}, {0xA34A, "MAT_SELFIMASK"},
    {0xA34C, "MAT_REFLMASK"}, {0xA351, "MAT_MAP_TILING"}, {0xA353, "MAT_MAP_TEXBLUR"},
    {0xA354, "MAT_MAP_USCALE"}, {0xA356, "MAT_MAP_VSCALE"}, {0xA358, "MAT_MAP_UOFFSET"},
    {0xA35A, "MAT_MAP_VOFFSET"}, {0xA35C, "MAT_MAP_ANG"}, {0xA360, "MAT_MAP_COL1"},
    {0xA362, "MAT_MAP_COL2"}, {0xA364, "MAT_MAP_RCOL"}, {0xA366, "MAT_MAP_GCOL"},
    {0xA368, "MAT_MAP_BCOL"}, {0xAFFF, "MAT_ENTRY"}, {0xB000, "KFDATA"},
    {0xB001, "AMBIENT_NODE_TAG"}, {0xB002, "OBJECT_NODE_TAG"}, {0xB003, "CAMERA_NODE_TAG"},
    {0xB004, "TARGET_NODE_TAG"}, {0xB005, "LIGHT_NODE_TAG"}, {0xB006, "L_TARGET_NODE_TAG"},
    {0xB007, "SPOTLIGHT_NODE_TAG"}, {0xB008, "KFSEG"}, {0xB009, "KFCURTIME"},
    {0xB00A, "KFHDR"}, {0xB010, "NODE_HDR"}, {0xB011, "INSTANCE_NAME"},
    {0xB012, "PRESCALE"}, {0xB013, "PIVOT"}, {0xB014, "BOUNDBOX"}, {0xB015, "MORPH_SMOOTH"},
    {0xB020, "POS_TRACK_TAG"}, {0xB022, "SCL_TRACK_TAG"}, {0xB023, "FOV_TRACK_TAG"},
    {0xB024, "ROLL_TRACK_TAG"}, {0xB025, "COL_TRACK_TAG"}, {0xB026, "MORPH_TRACK_TAG"},
    {0xB027, "HOT_TRACK_TAG"}, {0xB028, "FALL_TRACK_TAG"}, {0xB029, "HIDE_TRACK_TAG"},
    {0xC23D, "CMAGIC"},
};

static void test_chunk_name_known(void **state)
{
    size_t i;
    (void)state;
    /* the ones the brief names explicitly first, with exact checks */
    assert_string_equal(kf3ds_chunk_name(0x4D4D), "M3DMAGIC");
    assert_string_equal(kf3ds_chunk_name(0x3D3D), "MDATA");
    assert_string_equal(kf3ds_chunk_name(0xB021), "ROT_TRACK_TAG");
    assert_string_equal(kf3ds_chunk_name(0x4160), "MESH_MATRIX");
    assert_string_equal(kf3ds_chunk_name(0x2D2D), "SMAGIC");
    assert_string_equal(kf3ds_chunk_name(0xB030), "NODE_ID");
    assert_string_equal(kf3ds_chunk_name(0x0010), "COLOR_F");
    for (i = 0; i < sizeof known_names / sizeof known_names[0]; i++) {
        const char *got = kf3ds_chunk_name(known_names[i].id);
        if (!got || strcmp(got, known_names[i].name) != 0)
            fail_msg("kf3ds_chunk_name(0x%04X) = %s, expected %s", (unsigned)known_names[i].id,
                     got ? got : "NULL", known_names[i].name);
    }
}

static void test_chunk_name_unknown(void **state)
{
    static const uint16_t unknown[] = { 0x1234, 0x0000, 0x0001, 0x0003, 0x00FF, 0x2D2C,
                                        0x3D3C, 0x4D4C, 0x4D4E, 0xB031, 0xB00B, 0xC23C,
                                        0xC23E, 0xFFFF, 0xAFFE, 0x8000 };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        if (kf3ds_chunk_name(unknown[i]) != NULL)
            fail_msg("kf3ds_chunk_name(0x%04X) = %s, expected NULL", (unsigned)unknown[i],
                     kf3ds_chunk_name(unknown[i]));
}

/* Every id 0..0xFFFF: a name is either NULL or a non-empty string, and the
 * known ones are found whatever their neighbours. */
static void test_chunk_name_all_ids(void **state)
{
    uint32_t id;
    size_t found = 0;
    (void)state;
    for (id = 0; id <= 0xFFFF; id++) {
        const char *n = kf3ds_chunk_name((uint16_t)id);
        if (n) {
            assert_true(n[0] != '\0');
            found++;
        }
    }
    assert_true(found >= sizeof known_names / sizeof known_names[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_unsigned),
        cmocka_unit_test(test_read_signed),
        cmocka_unit_test(test_read_f32),
        cmocka_unit_test(test_read_unaligned),
        cmocka_unit_test(test_short_reads),
        cmocka_unit_test(test_subrange_end),
        cmocka_unit_test(test_null_reader),
        cmocka_unit_test(test_cstr),
        cmocka_unit_test(test_cstr_respects_end),
        cmocka_unit_test(test_iterate_siblings),
        cmocka_unit_test(test_iterate_loop),
        cmocka_unit_test(test_length_exactly_six),
        cmocka_unit_test(test_child_overruns_parent),
        cmocka_unit_test(test_root_overruns_buffer),
        cmocka_unit_test(test_length_below_six),
        cmocka_unit_test(test_trailing_bytes),
        cmocka_unit_test(test_parent_end_inside_buffer),
        cmocka_unit_test(test_chunk_name_known),
        cmocka_unit_test(test_chunk_name_unknown),
        cmocka_unit_test(test_chunk_name_all_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
