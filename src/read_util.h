/* What the readers of both sections share: recording diagnostics, sub-chunk
 * iteration and short-read checks that report, names, and the float checks
 * of value_range.h. Nothing here calls a reader or the loader. */
#ifndef KF3DS_READ_UTIL_H
#define KF3DS_READ_UTIL_H
#include "load_ctx.h"
#include "value_range.h"

/* Records a diagnostic in the scene (its severity is the code's,
 * kf3ds_status_severity) and keeps the first error for the caller. Only the
 * filling pass records: the counting pass walks the same bytes, and what it
 * finds is reported when the filling pass finds it again (the node limit,
 * which only the count knows, is reported at the start of the filling pass
 * by the loader). Beyond limits.max_diags diagnostics are counted, not kept. */
void kf3ds__diag(kf3ds__load_ctx *ctx, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Sub-chunk iteration for the readers: like kf3ds_chunk_next, and it reports
 * overruns, stray bytes and bad lengths. Returns 1 when a chunk was read. */
int kf3ds__next_chunk(kf3ds__load_ctx *ctx, kf3ds_reader *parent, uint16_t parent_id,
                      kf3ds_chunk *chunk, kf3ds_reader *body);
/* Reports a truncation error when `r` ran short while reading `chunk`;
 * returns 1 then. */
int kf3ds__check_short(kf3ds__load_ctx *ctx, const kf3ds_reader *r, const kf3ds_chunk *chunk);

/* A zero-terminated name, copied into the scene; without a terminator it
 * runs to the chunk end (a warning). */
const char *kf3ds__read_name(kf3ds__load_ctx *ctx, kf3ds_reader *r, const kf3ds_chunk *c);

/* Replaces non-finite values of v[0..n) with `fallback` and clamps the others
 * to ±limit; counts what it changed into *bad (non-finite) and *big (clamped). */
void kf3ds__clean_floats(float *v, size_t n, float fallback, float limit, uint32_t *bad,
                         uint32_t *big);
/* The same, then one KF3DS_WARN_VALUE for the chunk when something changed
 * (`what` names the values, e.g. "points of mesh 'Box'"). Returns 1 then. */
int kf3ds__sanitize(kf3ds__load_ctx *ctx, float *v, size_t n, float fallback, float limit,
                    uint32_t offset, uint16_t chunk_id, const char *what);
/* Warns about values changed by kf3ds__clean_floats (counts from it). */
void kf3ds__warn_cleaned(kf3ds__load_ctx *ctx, uint32_t bad, uint32_t big, uint32_t offset,
                         uint16_t chunk_id, const char *what);

#endif
