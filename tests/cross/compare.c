/* cross-compare NATIVE.json OTHER.json [TOLERANCE]
 *
 * Compares two outputs of `kf3ds eval --json --verts` token by token: every
 * string, key, punctuation mark, null and integer field must be identical;
 * the numbers of "world" matrices and "verts" may differ by at most
 * TOLERANCE (default 1e-5) times the scene extent. The extent is the largest
 * |coordinate| over the native output's vertices and node positions (the
 * translation column of the world matrices), at least 1.
 * Prints one line; exit status 0 when within tolerance, 1 when not, 2 on
 * usage or I/O errors. Used by `make test-cross` (mk/cross.mk). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tokens {
    const char *text;   /* the whole file, NUL-terminated */
    size_t pos, len;
    char key[32];       /* the last object key seen */
    int world_index;    /* index of the next number inside "world" */
} tokens;

typedef struct token {
    const char *start;
    size_t len;
    int is_number;
    double value;
    int measured;       /* a number of "world" or "verts" */
    int position;       /* a vertex coordinate or a world translation */
} token;

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f) {
        fprintf(stderr, "cross-compare: cannot open %s\n", path);
        return NULL;
    }
    for (;;) {
        if (n + 1 >= cap) {
            char *nb;
            cap = cap ? cap * 2 : 1 << 16;
            nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        {
            size_t got = fread(buf + n, 1, cap - n - 1, f);
            if (!got)
                break;
            n += got;
        }
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The next token; 0 at the end. */
static int next(tokens *t, token *out)
{
    const char *s = t->text;
    size_t p = t->pos;
    while (p < t->len && (s[p] == ' ' || s[p] == '\n' || s[p] == '\t' || s[p] == '\r'))
        p++;
    if (p >= t->len)
        return 0;
    memset(out, 0, sizeof *out);
    out->start = s + p;
    if (s[p] == '"') {
        size_t q = p + 1, k;
        while (q < t->len && s[q] != '"')
            q += s[q] == '\\' ? 2 : 1;
        q = q < t->len ? q + 1 : t->len;
        out->len = q - p;
        /* A string followed by ':' is a key. */
        k = q;
        while (k < t->len && (s[k] == ' ' || s[k] == '\n'))
            k++;
        if (k < t->len && s[k] == ':' && out->len >= 2) {
            size_t n = out->len - 2 < sizeof t->key - 1 ? out->len - 2 : sizeof t->key - 1;
            memcpy(t->key, s + p + 1, n);
            t->key[n] = '\0';
            t->world_index = 0;
        }
        t->pos = q;
        return 1;
    }
    if (s[p] == '-' || (s[p] >= '0' && s[p] <= '9')) {
        char *end;
        out->value = strtod(s + p, &end);
        out->len = (size_t)(end - (s + p));
        if (out->len == 0)
            out->len = 1;
        out->is_number = 1;
        if (strcmp(t->key, "verts") == 0) {
            out->measured = out->position = 1;
        } else if (strcmp(t->key, "world") == 0) {
            out->measured = 1;
            out->position = t->world_index == 3 || t->world_index == 7 || t->world_index == 11;
            t->world_index++;
        }
        t->pos = p + out->len;
        return 1;
    }
    if ((s[p] >= 'a' && s[p] <= 'z') || (s[p] >= 'A' && s[p] <= 'Z')) {
        size_t q = p;
        while (q < t->len && ((s[q] >= 'a' && s[q] <= 'z') || (s[q] >= 'A' && s[q] <= 'Z')))
            q++;
        out->len = q - p;
        if (strcmp(t->key, "world") == 0 && out->len == 4 && memcmp(out->start, "null", 4) == 0)
            t->world_index++;
        t->pos = q;
        return 1;
    }
    out->len = 1;
    t->pos = p + 1;
    return 1;
}

static void show(const char *what, const token *a)
{
    fprintf(stdout, "%s '%.*s'", what, (int)(a->len > 40 ? 40 : a->len), a->start);
}

int main(int argc, char **argv)
{
    size_t la, lb;
    char *a, *b;
    tokens ta, tb;
    token x, y;
    double tol = 1e-5, extent = 1.0, worst = 0.0;
    unsigned long numbers = 0, count = 0;
    int status = 0;
    if (argc != 3 && argc != 4) {
        fputs("usage: cross-compare NATIVE.json OTHER.json [TOLERANCE]\n", stderr);
        return 2;
    }
    if (argc == 4)
        tol = strtod(argv[3], NULL);
    a = read_all(argv[1], &la);
    b = read_all(argv[2], &lb);
    if (!a || !b)
        return 2;

    /* Pass 1: the extent, from the native output alone. */
    memset(&ta, 0, sizeof ta);
    ta.text = a;
    ta.len = la;
    while (next(&ta, &x))
        if (x.position && fabs(x.value) > extent && isfinite(x.value))
            extent = fabs(x.value);

    /* Pass 2: token by token. */
    memset(&ta, 0, sizeof ta);
    ta.text = a;
    ta.len = la;
    memset(&tb, 0, sizeof tb);
    tb.text = b;
    tb.len = lb;
    for (;;) {
        int ha = next(&ta, &x), hb = next(&tb, &y);
        if (!ha || !hb) {
            if (ha != hb) {
                printf("FAIL: %s ends first (token %lu)\n", ha ? argv[2] : argv[1], count);
                status = 1;
            }
            break;
        }
        count++;
        if (x.measured && x.is_number && y.is_number) {
            double d = fabs(x.value - y.value);
            numbers++;
            if (!(d <= worst))
                worst = d;
            if (!(d <= tol * extent)) {
                printf("FAIL: token %lu (key \"%s\", byte %lu): ", count, ta.key,
                       (unsigned long)(x.start - a));
                show("native", &x);
                show(", other", &y);
                printf(": difference %.3g > %.3g (extent %.6g)\n", d, tol * extent, extent);
                status = 1;
                break;
            }
        } else if (x.len != y.len || memcmp(x.start, y.start, x.len) != 0) {
            printf("FAIL: token %lu (byte %lu) differs: ", count, (unsigned long)(x.start - a));
            show("native", &x);
            show(", other", &y);
            putchar('\n');
            status = 1;
            break;
        }
    }
    if (!status)
        printf("ok: %lu numbers, max difference %.3g = %.3g of the extent %.6g\n", numbers,
               worst, worst / extent, extent);
    free(a);
    free(b);
    return status;
}
