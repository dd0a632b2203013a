/* mk3ds utilities (mk3ds.h): failing, allocation, names, and the random draws.
 * The generator is deterministic: a seed gives the same file on every
 * platform and with every compiler. */
#include "mk3ds.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void die(const char *fmt, ...)
{
    va_list ap;
    fputs("mk3ds: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory");
    return q;
}

void *grow_array(void *items, int count, int *cap, int first_cap, size_t item_size)
{
    if (count < *cap)
        return items;
    *cap = *cap ? 2 * *cap : first_cap;
    return xrealloc(items, (size_t)*cap * item_size);
}

void copy_name(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        die("name too long: %s", src);
    memcpy(dst, src, n + 1);
}

/* xorshift64 seeded through splitmix64: deterministic on every platform. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

void rng_seed(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    rng_state = z ? z : 0x2545F4914F6CDD1Du;
}

static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static double rnd01(void) /* [0, 1) */
{
    return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

int rndint(int n) /* 0 .. n-1 */
{
    return (int)(rng_next() % (uint64_t)n);
}

double rnduni(double a, double b)
{
    return a + (b - a) * rnd01();
}

int chance(double p)
{
    return rnd01() < p;
}

void rnd3(double out[3], double a, double b)
{
    out[0] = rnduni(a, b);
    out[1] = rnduni(a, b);
    out[2] = rnduni(a, b);
}
void random_axis(double a[3])
{
    double len;
    do {
        a[0] = rnduni(-1, 1);
        a[1] = rnduni(-1, 1);
        a[2] = rnduni(-1, 1);
        len = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    } while (len > 1 || len < 0.01);
    len = sqrt(len);
    a[0] /= len;
    a[1] /= len;
    a[2] /= len;
}
