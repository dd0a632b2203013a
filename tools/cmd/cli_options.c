/* The option-value parsers of the kf3ds command (cli_options.h). */
#include "cli_options.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_frame(const char *s, double *out)
{
    char *end = NULL;
    double v;
    if (!s || !*s)
        return 0;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0')
        return 0;
    if (isnan(v) || isinf(v))
        return 0;
    *out = v;
    return 1;
}

/* Digits s[0..n) with an optional sign, in [lo, hi]. */
static int parse_long_n(const char *s, size_t n, long lo, long hi, long *out)
{
    /* Accumulated as unsigned long towards the bound on the wanted side, so
     * that no length of digits can overflow. */
    unsigned long v = 0, limit;
    size_t i = 0;
    int neg = 0;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n)
        return 0;
    if (neg)
        limit = lo < 0 ? 0UL - (unsigned long)lo : 0;
    else
        limit = hi > 0 ? (unsigned long)hi : 0;
    for (; i < n; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9')
            return 0;
        d = (unsigned)(s[i] - '0');
        if (d > limit || v > (limit - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    if (neg) {
        /* v <= -lo here, so -v is representable. */
        long r = v == 0 ? 0 : -(long)(v - 1) - 1;
        if (r > hi)
            return 0;
        *out = r;
    } else {
        if ((long)v < lo)
            return 0;
        *out = (long)v;
    }
    return 1;
}

int cli_parse_long(const char *s, long lo, long hi, long *out)
{
    return s && parse_long_n(s, strlen(s), lo, hi, out);
}

/* Digits only (no sign) s[0..n) in [1, max]. */
static int parse_side(const char *s, size_t n, long max, long *out)
{
    return n > 0 && s[0] >= '0' && s[0] <= '9' && parse_long_n(s, n, 1, max, out);
}

int cli_parse_size(const char *s, long max, int *w, int *h)
{
    const char *x;
    long a, b;
    if (!s)
        return 0;
    x = strpbrk(s, "xX");
    if (!x || !parse_side(s, (size_t)(x - s), max, &a) ||
        !parse_side(x + 1, strlen(x + 1), max, &b))
        return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

int cli_parse_frames(const char *s, long *a, long *b, long *step)
{
    const char *c1, *c2;
    long x, y, z = 1;
    if (!s || !(c1 = strchr(s, ':')))
        return 0;
    c2 = strchr(c1 + 1, ':');
    if (c2 && !step)
        return 0;
    if (!parse_long_n(s, (size_t)(c1 - s), CLI_FRAME_MIN, CLI_FRAME_MAX, &x) ||
        !parse_long_n(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), CLI_FRAME_MIN,
                      CLI_FRAME_MAX, &y))
        return 0;
    if (c2 && !parse_side(c2 + 1, strlen(c2 + 1), CLI_FRAME_MAX, &z))
        return 0;
    if (x > y)
        return 0;
    *a = x;
    *b = y;
    if (step)
        *step = z;
    return 1;
}

int64_t cli_frames_count(long a, long b, long step)
{
    return ((int64_t)b - (int64_t)a) / (int64_t)step + 1;
}

int cli_parse_orbit(const char *s, float *az, float *el)
{
    char *end = NULL;
    double a, e;
    if (!s || !strchr(s, ','))
        return 0;
    /* The azimuth is read up to the comma with the same syntax as
     * cli_parse_frame; anything else before the comma is garbage. */
    a = strtod(s, &end);
    if (end == s || *end != ',' || isnan(a) || isinf(a))
        return 0;
    if (!cli_parse_frame(end + 1, &e))
        return 0;
    if (e < -90.0 || e > 90.0 || fabs(a) > CLI_ORBIT_MAX_AZIMUTH)
        return 0;
    *az = (float)a;
    *el = (float)e;
    return 1;
}

int cli_parse_shading(const char *s, kf3ds_shading *out)
{
    if (!s)
        return 0;
    if (strcmp(s, "smooth") == 0)
        *out = KF3DS_SHADE_SMOOTH;
    else if (strcmp(s, "flat") == 0)
        *out = KF3DS_SHADE_FLAT;
    else if (strcmp(s, "wire") == 0 || strcmp(s, "wireframe") == 0)
        *out = KF3DS_SHADE_WIRE;
    else
        return 0;
    return 1;
}

static const struct {
    const char *name;
    unsigned bit;
} overlay_names[] = {
    { "hierarchy", KF3DS_OVERLAY_HIERARCHY }, { "pivots", KF3DS_OVERLAY_PIVOTS },
    { "cameras", KF3DS_OVERLAY_CAMERAS },     { "lights", KF3DS_OVERLAY_LIGHTS },
    { "grid", KF3DS_OVERLAY_GRID },           { "names", KF3DS_OVERLAY_NAMES },
};
#define NUM_OVERLAYS (sizeof overlay_names / sizeof overlay_names[0])

unsigned cli_overlay_bit(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < NUM_OVERLAYS; i++)
        if (strlen(overlay_names[i].name) == n && strncmp(s, overlay_names[i].name, n) == 0)
            return overlay_names[i].bit;
    return 0;
}

unsigned cli_overlay_switch(const char *flag)
{
    if (!flag || strncmp(flag, "--", 2) != 0)
        return 0;
    return cli_overlay_bit(flag + 2, strlen(flag + 2));
}

int cli_parse_overlays(const char *s, unsigned *bits, char *bad, size_t bad_cap)
{
    unsigned out = *bits;
    size_t i;
    if (!s)
        return 0;
    for (;;) {
        const char *c = strchr(s, ',');
        size_t n = c ? (size_t)(c - s) : strlen(s);
        unsigned bit = cli_overlay_bit(s, n);
        if (n == 3 && strncmp(s, "all", 3) == 0) {
            for (i = 0; i < NUM_OVERLAYS; i++)
                out |= overlay_names[i].bit;
        } else if (n == 4 && strncmp(s, "none", 4) == 0) {
            out = 0;
        } else if (bit) {
            out |= bit;
        } else {
            if (bad_cap > 0)
                snprintf(bad, bad_cap, "%.*s", (int)(n < 40 ? n : 40), s);
            return 0;
        }
        if (!c)
            break;
        s = c + 1;
    }
    *bits = out;
    return 1;
}
