/* Unit tests of the chunk walker (src/chunk.c): little-endian reads on
 * hand-built bytes, bounds (reads past the end, exactly sized heap buffers so
 * that ASan sees any overread), strings, sub-chunk iteration, and the one
 * list of chunk ids (include/kf3ds_chunks.h): its order, its names, the
 * id → name table and the root magics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf3ds.h"
#include "support.h"

#define UNKNOWN_ID 0x1234 /* an id kf3ds does not know */

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
    assert_int_equal(kf3ds_read_u32(&r), 0x12345678u);
    assert_int_equal(kf3ds_read_u32(&r), 0xDEADBEEFu);
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
    assert_int_equal(kf3ds_read_i32(&r), INT32_MIN);
    assert_int_equal(kf3ds_read_i32(&r), INT32_MAX);
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
    assert_near(kf3ds_read_f32(&r), 1.0, 0);
    assert_near(kf3ds_read_f32(&r), -2.0, 0);
    f = kf3ds_read_f32(&r);
    assert_int_equal(float_bits(f), 0x00000000u);
    f = kf3ds_read_f32(&r);
    assert_int_equal(float_bits(f), 0x80000000u);
    f = kf3ds_read_f32(&r);
    assert_int_equal(float_bits(f), 0x40490FDBu);
    assert_near(f, 3.14159265, 5e-7);
    f = kf3ds_read_f32(&r);
    assert_int_equal(float_bits(f), 0x7F800000u);
    f = kf3ds_read_f32(&r);
    assert_true(isnan(f)); /* NaN survives as NaN */
    assert_int_equal(float_bits(f), 0x7FC00000u);
    f = kf3ds_read_f32(&r);
    assert_int_equal(float_bits(f), 0x00000001u);
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
    assert_int_equal(kf3ds_read_u32(&r), 0x12345678u);
    assert_near(kf3ds_read_f32(&r), 1.0, 0);
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
    assert_int_equal(kf3ds_read_u32(&r), 0);
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
    assert_near(kf3ds_read_f32(&r), 0.0, 0);
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
    assert_int_equal(kf3ds_read_u32(&r), 0); /* would need byte 4 */
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

/* M3DMAGIC { M3D_VERSION u32 3; 0x1234 (unknown, 5 payload bytes);
 *            MDATA { MESH_VERSION u32 7 }; MASTER_SCALE f32 1.0 } */
static unsigned char *build_tree(size_t *size)
{
    unsigned char tmp[128];
    size_t n = 0;
    size_t root, mdata;
    memset(tmp, 0, sizeof tmp);
    root = n;
    n += 6;
    put_header(tmp + n, KF3DS_CHUNK_M3D_VERSION, 10);
    tmp[n + 6] = 3;
    n += 10;
    put_header(tmp + n, UNKNOWN_ID, 11);
    memcpy(tmp + n + 6, "\x01\x02\x03\x04\x05", 5);
    n += 11;
    mdata = n;
    put_header(tmp + n, KF3DS_CHUNK_MDATA, 16);
    put_header(tmp + n + 6, KF3DS_CHUNK_MESH_VERSION, 10);
    tmp[n + 12] = 7;
    n += 16;
    put_header(tmp + n, KF3DS_CHUNK_MASTER_SCALE, 10);
    tmp[n + 8] = 0x80;
    tmp[n + 9] = 0x3F;
    n += 10;
    put_header(tmp + root, KF3DS_CHUNK_M3DMAGIC, (uint32_t)n);
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
    expect_chunk(&top, &root_body, KF3DS_NEXT_OK, KF3DS_CHUNK_M3DMAGIC, 0, 53, 53);
    assert_ptr_equal(root_body.data, buf);
    assert_int_equal(root_body.short_read, 0);
    assert_int_equal(top.pos, 53);
    assert_int_equal(kf3ds_chunk_next(&top, &c, NULL), KF3DS_NEXT_NONE);

    /* first child */
    expect_chunk(&root_body, &body, KF3DS_NEXT_OK, KF3DS_CHUNK_M3D_VERSION, 6, 10, 16);
    assert_int_equal(kf3ds_read_u32(&body), 3);
    assert_int_equal(body.short_read, 0);
    assert_int_equal(root_body.pos, 16);

    /* the unknown chunk is skipped by its length, body unread */
    expect_chunk(&root_body, NULL, KF3DS_NEXT_OK, UNKNOWN_ID, 16, 11, 27);
    assert_int_equal(root_body.pos, 27);

    /* a container, and its own child */
    expect_chunk(&root_body, &body, KF3DS_NEXT_OK, KF3DS_CHUNK_MDATA, 27, 16, 43);
    expect_chunk(&body, &sub_body, KF3DS_NEXT_OK, KF3DS_CHUNK_MESH_VERSION, 33, 10, 43);
    assert_int_equal(kf3ds_read_u32(&sub_body), 7);
    assert_int_equal(kf3ds_chunk_next(&body, &c, NULL), KF3DS_NEXT_NONE);

    /* last child */
    expect_chunk(&root_body, &body, KF3DS_NEXT_OK, KF3DS_CHUNK_MASTER_SCALE, 43, 10, 53);
    assert_near(kf3ds_read_f32(&body), 1.0, 0);
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
    assert_int_equal(seen[0], KF3DS_CHUNK_M3D_VERSION);
    assert_int_equal(seen[1], UNKNOWN_ID);
    assert_int_equal(seen[2], KF3DS_CHUNK_MDATA);
    assert_int_equal(seen[3], KF3DS_CHUNK_MASTER_SCALE);
    free(buf);
}

static void test_length_exactly_six(void **state)
{
    unsigned char tmp[18];
    unsigned char *buf;
    kf3ds_reader r, body;
    kf3ds_chunk c;
    (void)state;
    put_header(tmp, KF3DS_CHUNK_M3DMAGIC, 18);
    put_header(tmp + 6, KF3DS_CHUNK_OBJ_HIDDEN, 6); /* empty flag chunk */
    put_header(tmp + 12, KF3DS_CHUNK_OBJ_VIS_LOFTER, 6);
    r = exact_reader(tmp, sizeof tmp, &buf);
    r.pos = 6; /* iterate the root's children directly */
    expect_chunk(&r, &body, KF3DS_NEXT_OK, KF3DS_CHUNK_OBJ_HIDDEN, 6, 6, 12);
    assert_int_equal(kf3ds_reader_left(&body), 0);
    assert_int_equal(kf3ds_chunk_next(&body, &c, NULL), KF3DS_NEXT_NONE);
    expect_chunk(&r, &body, KF3DS_NEXT_OK, KF3DS_CHUNK_OBJ_VIS_LOFTER, 12, 6, 18);
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
    /* M3DMAGIC (40) { M3D_VERSION len 10; MDATA len 100 (only 24 left)
     *                 { MESH_VERSION len 1000 } } */
    put_header(tmp, KF3DS_CHUNK_M3DMAGIC, 40);
    put_header(tmp + 6, KF3DS_CHUNK_M3D_VERSION, 10);
    put_header(tmp + 16, KF3DS_CHUNK_MDATA, 100);
    put_header(tmp + 22, KF3DS_CHUNK_MESH_VERSION, 1000);
    top = exact_reader(tmp, sizeof tmp, &buf);
    assert_int_equal(kf3ds_chunk_next(&top, &c, &root_body), KF3DS_NEXT_OK);
    assert_int_equal(kf3ds_chunk_next(&root_body, &c, NULL), KF3DS_NEXT_OK);
    /* the length as declared, the end clamped */
    expect_chunk(&root_body, &body, KF3DS_NEXT_CLAMPED, KF3DS_CHUNK_MDATA, 16, 100, 40);
    assert_int_equal(root_body.pos, 40);
    assert_int_equal(kf3ds_chunk_next(&root_body, &c, NULL), KF3DS_NEXT_NONE);

    /* its child overruns the clamped parent too */
    expect_chunk(&body, &body2, KF3DS_NEXT_CLAMPED, KF3DS_CHUNK_MESH_VERSION, 22, 1000, 40);
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
    put_header(tmp, KF3DS_CHUNK_M3DMAGIC, 0xFFFFFFFFu);
    top = exact_reader(tmp, sizeof tmp, &buf);
    expect_chunk(&top, &body, KF3DS_NEXT_CLAMPED, KF3DS_CHUNK_M3DMAGIC, 0, 0xFFFFFFFFu, 12);
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
        put_header(tmp, KF3DS_CHUNK_M3D_VERSION, 10);         /* a good chunk first */
        put_header(tmp + 10, KF3DS_CHUNK_ROT_TRACK_TAG, len); /* then the bad one */
        r = exact_reader(tmp, sizeof tmp, &buf);
        assert_int_equal(kf3ds_chunk_next(&r, &c, &body), KF3DS_NEXT_OK);
        assert_int_equal(kf3ds_chunk_next(&r, &c, &body), KF3DS_NEXT_BAD);
        assert_int_equal(c.id, KF3DS_CHUNK_ROT_TRACK_TAG);
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
        put_header(tmp, KF3DS_CHUNK_M3D_VERSION, 10);
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
        put_header(tmp, KF3DS_CHUNK_M3D_VERSION, 10);
        put_header(tmp + 10, KF3DS_CHUNK_OBJ_HIDDEN, 6);
        r = exact_reader(tmp, 16, &buf);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_OK);
        assert_int_equal(kf3ds_chunk_next(&r, &c, NULL), KF3DS_NEXT_OK);
        assert_int_equal(c.id, KF3DS_CHUNK_OBJ_HIDDEN);
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
    put_header(tmp, KF3DS_CHUNK_M3D_VERSION, 10);
    put_header(tmp + 10, KF3DS_CHUNK_MASTER_SCALE, 20); /* would fit the buffer, not the range */
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

/* ---- the list of chunk ids ------------------------------------------- */

typedef struct listed_chunk {
    uint16_t id;
    const char *name;
} listed_chunk;

/* Every entry of include/kf3ds_chunks.h, as the list spells it. */
static const listed_chunk listed[] = {
#define LISTED(name, id) { KF3DS_CHUNK_##name, #name },
    KF3DS_CHUNK_LIST(LISTED)
#undef LISTED
};
#define NUM_LISTED (sizeof listed / sizeof listed[0])

/* Ids in strictly increasing order (kf3ds_chunk_name bisects the table made
 * from the list), names unique, each one the name kf3ds_chunk_name gives. */
static void test_chunk_list(void **state)
{
    size_t i, j;
    (void)state;
    assert_true(NUM_LISTED > 100);
    for (i = 0; i < NUM_LISTED; i++) {
        if (i > 0 && listed[i].id <= listed[i - 1].id)
            fail_msg("chunk list: 0x%04X %s after 0x%04X %s", (unsigned)listed[i].id,
                     listed[i].name, (unsigned)listed[i - 1].id, listed[i - 1].name);
        for (j = 0; j < i; j++)
            if (strcmp(listed[i].name, listed[j].name) == 0)
                fail_msg("chunk list: %s twice", listed[i].name);
        assert_non_null(kf3ds_chunk_name(listed[i].id));
        assert_string_equal(kf3ds_chunk_name(listed[i].id), listed[i].name);
    }
}

/* A few names through the public enum, and the format's own numbers for a
 * few ids, written out here independently of the list. */
static void test_chunk_name_known(void **state)
{
    static const listed_chunk format_ids[] = {
        { 0x4D4D, "M3DMAGIC" },      { 0x3D3D, "MDATA" },     { 0xB000, "KFDATA" },
        { 0xB010, "NODE_HDR" },      { 0xB021, "ROT_TRACK_TAG" }, { 0xB030, "NODE_ID" },
        { 0x4160, "MESH_MATRIX" },   { 0x2D2D, "SMAGIC" },    { 0x0010, "COLOR_F" },
        { 0xAFFF, "MAT_ENTRY" },     { 0xC23D, "CMAGIC" },
    };
    size_t i;
    (void)state;
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_M3DMAGIC), "M3DMAGIC");
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_MDATA), "MDATA");
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_ROT_TRACK_TAG), "ROT_TRACK_TAG");
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_MESH_MATRIX), "MESH_MATRIX");
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_SMAGIC), "SMAGIC");
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_NODE_ID), "NODE_ID");
    assert_string_equal(kf3ds_chunk_name(KF3DS_CHUNK_COLOR_F), "COLOR_F");
    for (i = 0; i < sizeof format_ids / sizeof format_ids[0]; i++) {
        const char *got = kf3ds_chunk_name(format_ids[i].id);
        if (!got || strcmp(got, format_ids[i].name) != 0)
            fail_msg("kf3ds_chunk_name(0x%04X) = %s, expected %s", (unsigned)format_ids[i].id,
                     got ? got : "NULL", format_ids[i].name);
    }
}

/* The neighbours of listed ids, and ids far from any, have no name. */
static void test_chunk_name_unknown(void **state)
{
    static const uint16_t unknown[] = {
        UNKNOWN_ID, 0x0000, KF3DS_CHUNK_M3D_VERSION - 1, KF3DS_CHUNK_M3D_VERSION + 1, 0x00FF,
        KF3DS_CHUNK_SMAGIC - 1, KF3DS_CHUNK_MDATA - 1, KF3DS_CHUNK_M3DMAGIC - 1,
        KF3DS_CHUNK_M3DMAGIC + 1, KF3DS_CHUNK_NODE_ID + 1, KF3DS_CHUNK_KFHDR + 1,
        KF3DS_CHUNK_CMAGIC - 1, KF3DS_CHUNK_CMAGIC + 1, 0xFFFF, KF3DS_CHUNK_MAT_ENTRY - 1, 0x8000
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        if (kf3ds_chunk_name(unknown[i]) != NULL)
            fail_msg("kf3ds_chunk_name(0x%04X) = %s, expected NULL", (unsigned)unknown[i],
                     kf3ds_chunk_name(unknown[i]));
}

/* Every id 0..0xFFFF: exactly the listed ones have a name, a non-empty one,
 * whatever their neighbours. */
static void test_chunk_name_all_ids(void **state)
{
    uint32_t id;
    size_t found = 0;
    (void)state;
    for (id = 0; id <= 0xFFFF; id++) {
        const char *n = kf3ds_chunk_name((uint16_t)id);
        if (n) {
            assert_int_not_equal(n[0], '\0');
            found++;
        }
    }
    assert_int_equal(found, NUM_LISTED);
}

/* The root magics, and nothing else, may start a file. */
static void test_chunk_is_root(void **state)
{
    static const uint16_t roots[] = { KF3DS_CHUNK_M3DMAGIC, KF3DS_CHUNK_MLIBMAGIC,
                                      KF3DS_CHUNK_CMAGIC,   KF3DS_CHUNK_SMAGIC,
                                      KF3DS_CHUNK_LMAGIC,   KF3DS_CHUNK_MATMAGIC,
                                      KF3DS_CHUNK_MDATA };
    uint32_t id;
    (void)state;
    for (id = 0; id <= 0xFFFF; id++) {
        size_t i;
        int root = 0;
        for (i = 0; i < sizeof roots / sizeof roots[0]; i++)
            root |= id == roots[i];
        if (kf3ds_chunk_is_root((uint16_t)id) != root)
            fail_msg("kf3ds_chunk_is_root(0x%04X %s) = %d, expected %d", (unsigned)id,
                     kf3ds_chunk_name((uint16_t)id) ? kf3ds_chunk_name((uint16_t)id) : "?",
                     kf3ds_chunk_is_root((uint16_t)id), root);
    }
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
        cmocka_unit_test(test_chunk_list),
        cmocka_unit_test(test_chunk_name_known),
        cmocka_unit_test(test_chunk_name_unknown),
        cmocka_unit_test(test_chunk_name_all_ids),
        cmocka_unit_test(test_chunk_is_root),
    };
    return support_run_tests(tests, NULL, NULL);
}
