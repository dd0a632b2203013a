/* The Autodesk Animator picture decoder (cel_decode.c): Animator 1 CEL/PIC,
 * Animator Pro PIC and Animator Pro CEL (a FLC/FLI's first frame), the maps
 * of DOS-era 3DS files that no image library reads (docs/format.md,
 * 'Animator CEL and PIC pictures'). A unit of its own: libc only, any bytes
 * in, a picture or a reason with its byte offset out, so that the command,
 * its unit test and fuzz/fuzz_cel.c share it. */
#ifndef KF3DS_CEL_DECODE_H
#define KF3DS_CEL_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* The layouts, told apart by magic. */
enum { CEL_NONE = 0, CEL_ANIMATOR1, CEL_PRO_PIC, CEL_PRO_CEL };

/* Pictures are refused beyond these (either side; all pixels). */
#define CEL_MAX_SIDE 16384
#define CEL_MAX_PIXELS (64L * 1024 * 1024)

typedef struct cel_picture {
    uint32_t *pixels; /* 0xAARRGGBB, opaque, top row first (malloc'd) */
    int width, height;
} cel_picture;

/* Which Animator layout the bytes are, by magic (CEL_NONE: none). */
int cel_kind(const unsigned char *data, size_t size);
/* Decodes an Animator picture. Returns 0, or -1 with *why (and *bad_at the
 * byte offset, when not NULL) saying what is wrong; then *pic is empty. */
int cel_decode(const unsigned char *data, size_t size, cel_picture *pic, char *why, size_t why_cap,
               size_t *bad_at);

#endif
