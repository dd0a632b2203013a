/* Diagnostics: each status code's text and severity (diag.c), filling a
 * kf3ds_diag, and the message formatter (format.c). No load context: the
 * loader records diagnostics in the scene (read_util.h), the loader's early
 * failures and kf3ds_load_file fill the caller's kf3ds_diag directly. */
#ifndef KF3DS_DIAG_H
#define KF3DS_DIAG_H
#include "kf3ds.h"
#include <stdarg.h>

/* A tiny vsnprintf subset (%s %c %d %u %ld %lu %x %X with width/zero flags),
 * so that the core needs nothing from stdio. */
void kf3ds__format(char *out, size_t cap, const char *fmt, va_list ap);

/* Sets every field of *d: the code, its severity (kf3ds_status_severity),
 * offset, chunk id and name ("" without a chunk, "?" for an unknown id) and
 * the formatted message. */
void kf3ds__diag_setv(kf3ds_diag *d, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                      const char *fmt, va_list ap);

/* kf3ds__diag_setv for an error at no offset and in no chunk, into a
 * cleared *d (nothing when d is NULL): the early failures of loading,
 * saving and building, which fill the caller's kf3ds_diag. */
void kf3ds__diag_set(kf3ds_diag *d, kf3ds_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
