/* The chunk writer, the reader's mirror (chunk.c): little-endian values on
 * any host, nested chunks whose lengths are patched when they close. Saving
 * runs it twice (docs/writer.md, "How saving works"): a measuring pass with
 * no buffer that only counts bytes, then a writing pass into a buffer of
 * exactly that size, so nothing is ever reallocated. Every put is
 * bounds-checked; the first failure (a count that does not fit the format,
 * a chunk over 4 GiB, nesting too deep) stops the writer and is kept in
 * `error`, every later call then does nothing. */
#ifndef KF3DS_WRITE_CHUNK_H
#define KF3DS_WRITE_CHUNK_H
#include "kf3ds.h"

/* Deeper than any chunk tree kf3ds writes (the format nests seven levels). */
#define KF3DS__WRITER_MAX_DEPTH 16

typedef struct kf3ds__writer {
    unsigned char *out;     /* NULL in the measuring pass */
    size_t cap;             /* bytes at out */
    size_t len;             /* bytes written (or counted) so far */
    size_t open[KF3DS__WRITER_MAX_DEPTH]; /* where each open chunk starts */
    int depth;
    int failed;
    kf3ds_diag error;       /* the first failure */
} kf3ds__writer;

/* A writer over out[0..cap), or a measuring one when out is NULL. */
void kf3ds__writer_init(kf3ds__writer *w, unsigned char *out, size_t cap);
/* Stops the writer with an error (the first one is kept). */
void kf3ds__writer_fail(kf3ds__writer *w, kf3ds_status code, uint16_t chunk_id,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

void kf3ds__put_u8(kf3ds__writer *w, uint8_t v);
void kf3ds__put_u16(kf3ds__writer *w, uint16_t v);
void kf3ds__put_u32(kf3ds__writer *w, uint32_t v);
void kf3ds__put_i16(kf3ds__writer *w, int16_t v);
void kf3ds__put_i32(kf3ds__writer *w, int32_t v);
void kf3ds__put_f32(kf3ds__writer *w, float v);
void kf3ds__put_f32s(kf3ds__writer *w, const float *v, size_t n);
void kf3ds__put_bytes(kf3ds__writer *w, const void *p, size_t n);
/* s with its terminator; NULL writes "". */
void kf3ds__put_cstr(kf3ds__writer *w, const char *s);

/* Opens a chunk (its header, length patched by kf3ds__chunk_end). */
void kf3ds__chunk_begin(kf3ds__writer *w, uint16_t id);
void kf3ds__chunk_end(kf3ds__writer *w);

/* A u16 count: fails the writer (naming `what`, e.g. "mesh 'Box': points")
 * when n does not fit the format's 16 bits. Returns 1 when it fits. */
int kf3ds__put_count16(kf3ds__writer *w, uint32_t n, uint16_t chunk_id, const char *what,
                       const char *name);

#endif
