/* JSON text for the glTF writer (tools/gltf.h): an in-memory stream with
 * commas placed per nesting level. Strings and numbers go through the
 * command's JSON helpers (cmd_common.c), so names come out as valid UTF-8
 * and numbers read back exactly. */
#define _POSIX_C_SOURCE 200809L
#include "gltf.h"
#include "cmd.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void gltf_json_init(gltf_json *j)
{
    memset(j, 0, sizeof *j);
    j->f = open_memstream(&j->buf, &j->len);
    if (!j->f)
        j->oom = 1;
}

void gltf_json_free(gltf_json *j)
{
    if (j->f)
        fclose(j->f);
    free(j->buf);
    memset(j, 0, sizeof *j);
}

const char *gltf_json_text(gltf_json *j, size_t *len)
{
    if (j->f && fflush(j->f) != 0)
        j->oom = 1;
    if (j->oom || !j->buf) {
        *len = 0;
        return NULL;
    }
    *len = j->len;
    return j->buf;
}

/* The comma before a member or element, and its key. */
static void item(gltf_json *j, const char *key)
{
    if (!j->f)
        return;
    if (j->has_items[j->depth])
        fputs(",", j->f);
    j->has_items[j->depth] = 1;
    if (j->depth == 0)
        j->count++;
    if (key) {
        cli_json_cstr(j->f, key);
        fputc(':', j->f);
    }
}

static void open_level(gltf_json *j, const char *key, char c)
{
    item(j, key);
    if (!j->f)
        return;
    fputc(c, j->f);
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
    if (!j->f || j->depth == 0)
        return;
    fputc(j->closer[j->depth], j->f);
    j->depth--;
}

/* A value that is a float prints as the shortest decimal that reads back as
 * that float ("0.1", not "0.100000001490116"), as glTF readers read floats;
 * any other as the shortest that reads back as the double. */
void gltf_num(gltf_json *j, const char *key, double v)
{
    char buf[40];
    int prec;
    item(j, key);
    if (!j->f)
        return;
    if (!isfinite(v))
        v = 0.0;
    if (v == floor(v) && fabs(v) < 1e15) {
        fprintf(j->f, "%.0f", v == 0.0 ? 0.0 : v);
        return;
    }
    if (fabs(v) > FLT_MAX || (double)(float)v != v) {
        cli_json_number_exact(j->f, v);
        return;
    }
    for (prec = 1; prec < 9; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtof(buf, NULL) == (float)v)
            break;
    }
    if (prec == 9)
        snprintf(buf, sizeof buf, "%.9g", v);
    fputs(buf, j->f);
}

void gltf_int(gltf_json *j, const char *key, long v)
{
    item(j, key);
    if (j->f)
        fprintf(j->f, "%ld", v);
}

void gltf_bool(gltf_json *j, const char *key, int v)
{
    item(j, key);
    if (j->f)
        fputs(v ? "true" : "false", j->f);
}

void gltf_str(gltf_json *j, const char *key, const char *s)
{
    item(j, key);
    if (j->f)
        cli_json_cstr(j->f, s);
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
    if (!text || !len || !j->f)
        return;
    if (j->has_items[j->depth])
        fputc(',', j->f);
    j->has_items[j->depth] = 1;
    fwrite(text, 1, len, j->f);
}
