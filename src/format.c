/* A small formatter for diagnostic messages, so the core needs no stdio. */
#include "diag.h"

typedef struct sink {
    char *out;
    size_t cap, len;
} sink;

static void put(sink *s, char c)
{
    if (s->len + 1 < s->cap)
        s->out[s->len] = c;
    s->len++;
}

static void put_unsigned(sink *s, unsigned long v, unsigned base, int upper, int width, char pad)
{
    char digits[32];
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    do {
        digits[n++] = set[v % base];
        v /= base;
    } while (v && n < (int)sizeof digits);
    while (width-- > n)
        put(s, pad);
    while (n)
        put(s, digits[--n]);
}

void kf3ds__format(char *out, size_t cap, const char *fmt, va_list ap)
{
    sink s;
    s.out = out;
    s.cap = cap;
    s.len = 0;
    if (!cap)
        return;
    for (; *fmt; fmt++) {
        char pad = ' ';
        int width = 0, is_long = 0;
        if (*fmt != '%') {
            put(&s, *fmt);
            continue;
        }
        fmt++;
        if (*fmt == '0') {
            pad = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        if (*fmt == 'l') {
            is_long = 1;
            fmt++;
        }
        switch (*fmt) {
        case 's': {
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = "(null)";
            while (*str)
                put(&s, *str++);
            break;
        }
        case 'c':
            put(&s, (char)va_arg(ap, int));
            break;
        case 'd': {
            long v = is_long ? va_arg(ap, long) : va_arg(ap, int);
            unsigned long u = (unsigned long)v;
            if (v < 0) {
                put(&s, '-');
                u = 0UL - u;
            }
            put_unsigned(&s, u, 10, 0, width, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned long v = is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            put_unsigned(&s, v, *fmt == 'u' ? 10 : 16, *fmt == 'X', width, pad);
            break;
        }
        case '%':
            put(&s, '%');
            break;
        case '\0':
            fmt--;
            break;
        default:
            put(&s, '%');
            put(&s, *fmt);
            break;
        }
    }
    out[s.len < cap ? s.len : cap - 1] = '\0';
}
