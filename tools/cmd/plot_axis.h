/* The axis ticks of kf3ds plot (docs/output.md, 'plot'): steps of 1, 2 or 5
 * times a power of ten, labels with just the decimals the step needs. Header
 * only (static inline), so that tests/front/test_plot_docs.c checks the choice
 * without linking the command. C99. */
#ifndef KF3DS_PLOT_AXIS_H
#define KF3DS_PLOT_AXIS_H
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct plot_ticks {
    double step;   /* 1, 2 or 5 × 10^k */
    long first;    /* the first tick is first × step, the last (first + count − 1) × step */
    int count;     /* ticks within [lo, hi], ends included */
    int decimals;  /* digits after the point that step needs (0 for steps >= 1) */
} plot_ticks;

/* The round step that cuts [lo, hi] into at most `intervals` parts (at least
 * 1), and the ticks on its multiples within [lo, hi]. A range that is empty,
 * reversed or not finite is taken as [lo − 1, lo + 1] (or [−1, 1]). */
static inline void plot_ticks_choose(double lo, double hi, int intervals, plot_ticks *t)
{
    double raw, mag, norm, eps;
    if (!isfinite(lo))
        lo = 0;
    if (!isfinite(hi) || !(hi > lo))
        hi = lo + 1, lo -= 1;
    if (intervals < 1)
        intervals = 1;
    raw = (hi - lo) / intervals;
    mag = pow(10, floor(log10(raw)));
    norm = raw / mag;
    /* the smallest of 1, 2, 5, 10 (× mag) not below raw, with a little slack
     * for raw itself being round but computed a hair above */
    t->step = (norm <= 1 + 1e-9 ? 1 : norm <= 2 + 1e-9 ? 2 : norm <= 5 + 1e-9 ? 5 : 10) * mag;
    eps = 1e-9;
    t->first = (long)ceil(lo / t->step - eps);
    t->count = (int)((long)floor(hi / t->step + eps) - t->first + 1);
    t->decimals = t->step >= 1 ? 0 : (int)-floor(log10(t->step) + 1e-9);
}

/* The value of tick i (0 .. count − 1): a multiple of the step, computed
 * from its index so that no error accumulates. */
static inline double plot_tick_value(const plot_ticks *t, int i)
{
    return (double)(t->first + i) * t->step;
}

/* [lo, hi] widened to the nearest multiples of the step outside it, so that
 * the axis starts and ends on a tick (the ticks then include both ends: up
 * to two more intervals than asked for). */
static inline void plot_ticks_round_out(plot_ticks *t, double *lo, double *hi)
{
    long a = (long)floor(*lo / t->step + 1e-9), b = (long)ceil(*hi / t->step - 1e-9);
    *lo = (double)a * t->step;
    *hi = (double)b * t->step;
    t->first = a;
    t->count = (int)(b - a + 1);
}

/* "2.5", "-10", "0.02": v with the tick's decimals, never "-0". */
static inline void plot_tick_label(char *buf, size_t cap, const plot_ticks *t, double v)
{
    char *p;
    if (fabs(v) >= 1e15) { /* beyond exact %f digits: the short form */
        snprintf(buf, cap, "%.6g", v);
        return;
    }
    snprintf(buf, cap, "%.*f", t->decimals, v);
    /* a value that rounds to zero prints as 0, without the sign */
    for (p = buf[0] == '-' ? buf + 1 : buf; *p == '0' || *p == '.'; p++)
        ;
    if (buf[0] == '-' && *p == '\0')
        memmove(buf, buf + 1, strlen(buf));
}
#endif
