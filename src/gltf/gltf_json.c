/* JSON text for the glTF writer (export_internal.h): a growable buffer from
 * the export's allocator, commas placed per nesting level. Names come out
 * as valid UTF-8 (kf3ds_utf8_char) and numbers read back exactly (the same
 * rules as the command's JSON, tools/cmd/cmd_common.c). Also the module's memory helpers. */
#include "export_internal.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory ---------------------------------------------------------------- */

void *kf3ds__gltf_alloc(const kf3ds_allocator *a, size_t size)
{
    return a->malloc_fn(size ? size : 1, a->user);
}

void *kf3ds__gltf_calloc(const kf3ds_allocator *a, size_t count, size_t size)
{
    void *p;
    if (size && count > SIZE_MAX / size)
        return NULL;
    p = kf3ds__gltf_alloc(a, count * size);
    if (p && count && size)
        memset(p, 0, count * size);
    return p;
}

void *kf3ds__gltf_grow(const kf3ds_allocator *a, void *p, size_t old, size_t size)
{
    void *q = kf3ds__gltf_alloc(a, size);
    if (!q)
        return NULL;
    if (p) {
        if (old)
            memcpy(q, p, old < size ? old : size);
        a->free_fn(p, a->user);
    }
    return q;
}

void kf3ds__gltf_free(const kf3ds_allocator *a, void *p)
{
    if (p)
        a->free_fn(p, a->user);
}

/* ---- text ------------------------------------------------------------------- */

void gltf_json_init(gltf_json *j, const kf3ds_allocator *al)
{
    memset(j, 0, sizeof *j);
    j->al = al;
}

void gltf_json_free(gltf_json *j)
{
    const kf3ds_allocator *al = j->al;
    if (al)
        kf3ds__gltf_free(al, j->buf);
    memset(j, 0, sizeof *j);
    j->al = al;
}

const char *gltf_json_text(gltf_json *j, size_t *len)
{
    if (j->oom || !j->buf) {
        *len = 0;
        return NULL;
    }
    *len = j->len;
    return j->buf;
}

char *kf3ds__gltf_json_take(gltf_json *j, size_t *len)
{
    char *text = (char *)gltf_json_text(j, len);
    if (text) {
        j->buf = NULL;
        j->len = j->cap = 0;
    }
    return text;
}

/* Appends n bytes. */
static void put(gltf_json *j, const char *s, size_t n)
{
    if (j->oom || !n)
        return;
    if (n > j->cap - j->len) {
        size_t cap = j->cap ? j->cap : 256;
        char *p;
        while (cap - j->len < n) {
            if (cap > SIZE_MAX / 2) {
                j->oom = 1;
                return;
            }
            cap *= 2;
        }
        p = kf3ds__gltf_grow(j->al, j->buf, j->len, cap);
        if (!p) {
            j->oom = 1;
            return;
        }
        j->buf = p;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
}

static void put_c(gltf_json *j, char c)
{
    put(j, &c, 1);
}

static void put_s(gltf_json *j, const char *s)
{
    put(j, s, strlen(s));
}

/* A JSON string: quotes, backslashes and control characters escaped, bytes
 * that are not UTF-8 as \u00XX (their Latin-1 reading). */
static void put_string(gltf_json *j, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t len = strlen((const char *)p), i = 0;
    char esc[8];
    put_c(j, '"');
    while (i < len) {
        unsigned char c = p[i];
        size_t n;
        if (c == '"' || c == '\\') {
            put_c(j, '\\');
            put_c(j, (char)c);
            i++;
        } else if (c == '\n') {
            put_s(j, "\\n");
            i++;
        } else if (c == '\t') {
            put_s(j, "\\t");
            i++;
        } else if (c == '\r') {
            put_s(j, "\\r");
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)c);
            put_s(j, esc);
            i++;
        } else if (c < 0x80) {
            put_c(j, (char)c);
            i++;
        } else if ((n = kf3ds_utf8_char((const char *)p + i, len - i, NULL)) != 0) {
            put(j, (const char *)p + i, n);
            i += n;
        } else {
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)c);
            put_s(j, esc);
            i++;
        }
    }
    put_c(j, '"');
}

/* The comma before a member or element, and its key. */
static void item(gltf_json *j, const char *key)
{
    if (j->has_items[j->depth])
        put_c(j, ',');
    j->has_items[j->depth] = 1;
    if (j->depth == 0)
        j->count++;
    if (key) {
        put_string(j, key);
        put_c(j, ':');
    }
}

static void open_level(gltf_json *j, const char *key, char c)
{
    item(j, key);
    put_c(j, c);
    if (j->depth + 1 < GLTF_MAX_DEPTH) {
        j->depth++;
        j->has_items[j->depth] = 0;
        j->closer[j->depth] = c == '{' ? '}' : ']';
    } else {
        j->oom = 1; /* deeper than any glTF document this writer makes */
    }
}

void gltf_obj(gltf_json *j, const char *key)
{
    open_level(j, key, '{');
}

void gltf_arr(gltf_json *j, const char *key)
{
    open_level(j, key, '[');
}

void gltf_end(gltf_json *j)
{
    if (j->depth == 0)
        return;
    put_c(j, j->closer[j->depth]);
    j->depth--;
}

/* The shortest "%.*g" from 9 digits on that reads back as the double. */
static void put_exact(gltf_json *j, double v)
{
    char buf[64];
    int prec;
    for (prec = 9; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (prec == 17)
        snprintf(buf, sizeof buf, "%.17g", v);
    put_s(j, buf);
}

/* A value that is a float prints as the shortest decimal that reads back as
 * that float ("0.1", not "0.100000001490116"), as glTF readers read floats;
 * any other as the shortest that reads back as the double. */
void gltf_num(gltf_json *j, const char *key, double v)
{
    char buf[64];
    int prec;
    item(j, key);
    if (!isfinite(v))
        v = 0.0;
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, sizeof buf, "%.0f", v == 0.0 ? 0.0 : v);
        put_s(j, buf);
        return;
    }
    if (fabs(v) > FLT_MAX || (double)(float)v != v) {
        put_exact(j, v);
        return;
    }
    for (prec = 1; prec < 9; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtof(buf, NULL) == (float)v)
            break;
    }
    if (prec == 9)
        snprintf(buf, sizeof buf, "%.9g", v);
    put_s(j, buf);
}

void gltf_int(gltf_json *j, const char *key, long v)
{
    char buf[32];
    item(j, key);
    snprintf(buf, sizeof buf, "%ld", v);
    put_s(j, buf);
}

void gltf_bool(gltf_json *j, const char *key, int v)
{
    item(j, key);
    put_s(j, v ? "true" : "false");
}

void gltf_str(gltf_json *j, const char *key, const char *s)
{
    item(j, key);
    put_string(j, s);
}

void gltf_nums(gltf_json *j, const char *key, const float *v, int n)
{
    int i;
    gltf_arr(j, key);
    for (i = 0; i < n; i++)
        gltf_num(j, NULL, v[i]);
    gltf_end(j);
}

void gltf_splice(gltf_json *j, gltf_json *items)
{
    size_t len;
    const char *text = gltf_json_text(items, &len);
    if (items->oom)
        j->oom = 1;
    if (!text || !len)
        return;
    if (j->has_items[j->depth])
        put_c(j, ',');
    j->has_items[j->depth] = 1;
    put(j, text, len);
}
