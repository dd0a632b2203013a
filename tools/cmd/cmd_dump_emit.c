/* The emitter of `kf3ds dump` (cmd_dump.h): the same calls produce the text
 * tree or the JSON tree. */
#include "cmd_dump.h"

void dump_end_line(dumper *d)
{
    if (!d->json && d->line_open) {
        fputc('\n', d->out);
        d->line_open = 0;
    }
}

static void comma(dumper *d)
{
    if (d->need_comma)
        fputc(',', d->out);
    d->need_comma = 0;
}

/* Text: a new line of fields, whose first field follows `first_sep`. */
static void start_text_line(dumper *d, const char *first_sep)
{
    d->line_open = 1;
    d->nfields = 0;
    d->first_sep = first_sep;
}

/* Text: what goes before the next field of the line. */
static void text_field_sep(dumper *d)
{
    fputs(d->nfields ? " " : d->first_sep, d->out);
    d->nfields++;
}

/* JSON: closes an object or array with `closer`; text: ends the line. */
static void close_value(dumper *d, const char *closer)
{
    if (d->json) {
        fputs(closer, d->out);
        d->need_comma = 1;
    } else {
        dump_end_line(d);
    }
}

/* Starts a field: the JSON key or the text separator and key. */
static void key(dumper *d, const char *k)
{
    if (d->json) {
        comma(d);
        cli_json_cstr(d->out, k);
        fputc(':', d->out);
    } else {
        text_field_sep(d);
        if (!d->bare)
            fprintf(d->out, "%s ", k);
    }
}

void dump_fld_uint(dumper *d, const char *k, unsigned long v)
{
    key(d, k);
    fprintf(d->out, "%lu", v);
    d->need_comma = 1;
}

void dump_fld_int(dumper *d, const char *k, long v)
{
    key(d, k);
    fprintf(d->out, "%ld", v);
    d->need_comma = 1;
}

/* JSON a plain number, text 0x and `digits` hex digits. */
static void put_hex(dumper *d, unsigned long v, int digits)
{
    if (d->json)
        fprintf(d->out, "%lu", v);
    else
        fprintf(d->out, "0x%0*lX", digits, v);
}

void dump_fld_hex(dumper *d, const char *k, unsigned long v, int digits)
{
    key(d, k);
    put_hex(d, v, digits);
    d->need_comma = 1;
}

static void put_float(dumper *d, double v)
{
    if (d->json)
        cli_json_number(d->out, v);
    else
        fprintf(d->out, "%g", cli_text_float(v));
}

void dump_fld_float(dumper *d, const char *k, double v)
{
    key(d, k);
    put_float(d, v);
    d->need_comma = 1;
}

static void put_vec(dumper *d, const float *v, int n)
{
    int i;
    fputs(d->json ? "[" : "(", d->out);
    for (i = 0; i < n; i++) {
        if (i)
            fputs(d->json ? "," : ", ", d->out);
        put_float(d, v[i]);
    }
    fputs(d->json ? "]" : ")", d->out);
}

void dump_fld_vec(dumper *d, const char *k, const float *v, int n)
{
    key(d, k);
    put_vec(d, v, n);
    d->need_comma = 1;
}

static void put_ints(dumper *d, const unsigned long *v, int n)
{
    int i;
    fputs(d->json ? "[" : "(", d->out);
    for (i = 0; i < n; i++)
        fprintf(d->out, i ? (d->json ? ",%lu" : ", %lu") : "%lu", v[i]);
    fputs(d->json ? "]" : ")", d->out);
}

void dump_fld_ints(dumper *d, const char *k, const unsigned long *v, int n)
{
    key(d, k);
    put_ints(d, v, n);
    d->need_comma = 1;
}

static void put_str(dumper *d, const char *s, size_t len)
{
    if (d->json) {
        cli_json_string(d->out, s, len);
    } else {
        fputc('"', d->out);
        cli_text_string(d->out, s, len);
        fputc('"', d->out);
    }
}

void dump_fld_str(dumper *d, const char *k, const char *s, size_t len)
{
    key(d, k);
    put_str(d, s, len);
    d->need_comma = 1;
}

void dump_txt_word(dumper *d, const char *w)
{
    if (d->json)
        return;
    text_field_sep(d);
    fputs(w, d->out);
}

void dump_fld_flag(dumper *d, const char *k, int on)
{
    if (d->json) {
        key(d, k);
        fputs(on ? "true" : "false", d->out);
        d->need_comma = 1;
    } else if (on) {
        dump_txt_word(d, k);
    }
}

static void indent_items(dumper *d)
{
    fprintf(d->out, "%*s", 2 * d->depth + 4, "");
}

/* A list of entries: JSON "k":[ ... ]; text: one line per entry. */
void dump_list_begin(dumper *d, const char *k)
{
    if (d->json) {
        key(d, k);
        fputc('[', d->out);
        d->need_comma = 0;
    } else {
        dump_end_line(d);
    }
}

void dump_list_end(dumper *d, unsigned long shown, unsigned long total)
{
    close_value(d, "]");
    if (!d->json && shown < total) {
        indent_items(d);
        fprintf(d->out, "... %lu more (--full shows all)\n", total - shown);
    }
}

/* An entry that is an object with fields: JSON {..}; text "label:" and fields. */
void dump_item_begin(dumper *d, const char *label, unsigned long index)
{
    if (d->json) {
        comma(d);
        fputc('{', d->out);
        d->need_comma = 0;
    } else {
        dump_end_line(d);
        indent_items(d);
        fprintf(d->out, "%s %lu:", label, index);
        start_text_line(d, " ");
    }
}

void dump_item_end(dumper *d)
{
    close_value(d, "}");
}

/* Entries that are plain values: JSON the value, text "[index] value" on a
 * line of its own. These two go around the value. */
static void item_value_begin(dumper *d, unsigned long index)
{
    if (d->json) {
        comma(d);
    } else {
        indent_items(d);
        fprintf(d->out, "[%lu] ", index);
    }
}

static void item_value_end(dumper *d)
{
    if (!d->json)
        fputc('\n', d->out);
    d->need_comma = 1;
}

void dump_item_vec(dumper *d, unsigned long index, const float *v, int n)
{
    item_value_begin(d, index);
    put_vec(d, v, n);
    item_value_end(d);
}

void dump_item_ints(dumper *d, unsigned long index, const unsigned long *v, int n)
{
    item_value_begin(d, index);
    if (n == 1)
        fprintf(d->out, "%lu", v[0]);
    else
        put_ints(d, v, n);
    item_value_end(d);
}

void dump_item_hex(dumper *d, unsigned long index, unsigned long v)
{
    item_value_begin(d, index);
    put_hex(d, v, 8);
    item_value_end(d);
}

void dump_item_str(dumper *d, unsigned long index, const char *s, size_t len)
{
    item_value_begin(d, index);
    put_str(d, s, len);
    item_value_end(d);
}

void dump_chunk_begin(dumper *d, const kf3ds_chunk *c, const char *name, int depth, int clamped)
{
    d->depth = depth;
    d->bare = 0;
    if (d->json) {
        comma(d);
        fprintf(d->out, "\n{\"offset\":%lu,\"id\":\"0x%04X\",\"name\":", (unsigned long)c->offset,
                (unsigned)c->id);
        cli_json_cstr(d->out, name);
        fprintf(d->out, ",\"length\":%lu", (unsigned long)c->length);
        if (clamped)
            fprintf(d->out, ",\"clamped_length\":%lu", (unsigned long)(c->end - c->offset));
        fputs(",\"fields\":{", d->out);
        d->need_comma = 0;
    } else {
        dump_end_line(d);
        fprintf(d->out, "%*s0x%06lX 0x%04X ", 2 * depth, "", (unsigned long)c->offset,
                (unsigned)c->id);
        cli_text_cstr(d->out, name);
        fprintf(d->out, " len %lu", (unsigned long)c->length);
        if (clamped)
            fprintf(d->out, " (clamped to %lu)", (unsigned long)(c->end - c->offset));
        start_text_line(d, ": ");
    }
}

void dump_region_begin(dumper *d, unsigned long offset, const char *name, unsigned long length,
                       int depth)
{
    d->depth = depth;
    d->bare = 0;
    if (d->json) {
        comma(d);
        fprintf(d->out, "\n{\"offset\":%lu,\"name\":", offset);
        cli_json_cstr(d->out, name);
        fprintf(d->out, ",\"length\":%lu,\"fields\":{", length);
        d->need_comma = 0;
    } else {
        dump_end_line(d);
        fprintf(d->out, "%*s0x%06lX %s len %lu", 2 * depth, "", offset, name, length);
        start_text_line(d, ": ");
    }
}

/* Closes the fields and opens the children. */
void dump_chunk_children(dumper *d)
{
    d->bare = 0;
    if (d->json) {
        fputs("},\"children\":[", d->out);
        d->need_comma = 0;
    } else {
        dump_end_line(d);
    }
}

void dump_chunk_end(dumper *d)
{
    close_value(d, "]}");
}
