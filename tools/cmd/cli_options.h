/* Option values shared by the verbs of the kf3ds command: one parser per
 * kind of value, so that every verb taking --orbit, --overlays, --frames or
 * --size accepts exactly the same words (docs/kf3ds.1, OPTION VALUES).
 * Depends on libc and the public headers only, so that its unit test and
 * fuzzing need nothing of the command. Each parser reads the whole string,
 * returns 1 and fills its outputs, or returns 0 and leaves them alone. */
#ifndef KF3DS_CLI_OPTIONS_H
#define KF3DS_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "kf3ds_render.h"

/* Frame numbers are 32-bit in the file (KFSEG, key frames), so that is the
 * range a verb's --frames accepts (docs/format.md). */
#define CLI_FRAME_MIN (-2147483647L)
#define CLI_FRAME_MAX 2147483647L

/* A finite number, the whole string (strtod's syntax); 0 on garbage, NaN or
 * infinity. */
int cli_parse_frame(const char *s, double *out);

/* A decimal integer in [lo, hi]: an optional '+' or '-' then digits only (no
 * spaces, no hex), the whole string; no overflow on any length. */
int cli_parse_long(const char *s, long lo, long hi, long *out);

/* "WxH" (or "WXH"): two runs of digits, each from 1 to max. */
int cli_parse_size(const char *s, long max, int *w, int *h);

/* "A:B", or with step non-NULL also "A:B:STEP" (*step is 1 when absent):
 * whole frames from CLI_FRAME_MIN to CLI_FRAME_MAX with A <= B, STEP from 1
 * to CLI_FRAME_MAX. */
int cli_parse_frames(const char *s, long *a, long *b, long *step);
/* The number of frames A, A+STEP, ... up to B, without overflow where long
 * is 32 bits (B - A can reach 2^32 - 2). */
int64_t cli_frames_count(long a, long b, long step);

/* "AZ,EL" in degrees: both finite, |AZ| <= CLI_ORBIT_MAX_AZIMUTH (beyond it
 * a float no longer holds whole degrees) and EL from -90 to 90. */
#define CLI_ORBIT_MAX_AZIMUTH 1e6
int cli_parse_orbit(const char *s, float *az, float *el);

/* "smooth", "flat", "wire" or "wireframe". */
int cli_parse_shading(const char *s, kf3ds_shading *out);

/* The overlay bit named by s[0..n) ("hierarchy", "pivots", "cameras",
 * "lights", "grid", "names"), 0 when none. */
unsigned cli_overlay_bit(const char *s, size_t n);
/* The bit of a switch "--hierarchy" etc., 0 when flag is not one. */
unsigned cli_overlay_switch(const char *flag);
/* A comma-separated list of overlay names, "all" or "none", added to *bits
 * left to right; "none" clears everything before it, switches included.
 * On an unknown or empty word returns 0 with that word (cut to 40 bytes) in
 * bad (when bad_cap > 0) and *bits unchanged. */
int cli_parse_overlays(const char *s, unsigned *bits, char *bad, size_t bad_cap);

#endif
