/* The diagnostics the dump's walk and decoders collect (cmd_dump.h): kept in
 * a unit of their own below the walk, so that the decoders that report them
 * do not depend on the verb (cmd_dump.c), which runs the walk. */
#include "cmd_dump.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void dump_add_diag(dumper *d, kf3ds_status code, uint32_t offset, uint16_t id, uint32_t start,
                   uint32_t end, const char *fmt, ...)
{
    dump_diag *x;
    const char *name;
    va_list ap;
    kf3ds_severity sev = kf3ds_status_severity(code);
    if (d->lenient && code == KF3DS_ERR_TRUNCATED)
        sev = KF3DS_WARNING;
    if (sev == KF3DS_ERROR)
        d->errors++;
    if (d->num_diags >= DUMP_MAX_DIAGS) {
        d->dropped++;
        return;
    }
    if (d->num_diags == d->cap_diags) {
        size_t cap = d->cap_diags ? d->cap_diags * 2 : 16;
        dump_diag *n = realloc(d->diags, cap * sizeof *n);
        if (!n) {
            d->dropped++;
            return;
        }
        d->diags = n;
        d->cap_diags = cap;
    }
    x = &d->diags[d->num_diags++];
    memset(x, 0, sizeof *x);
    x->d.code = code;
    x->d.severity = sev;
    x->d.offset = offset;
    x->d.chunk_id = id;
    name = id ? kf3ds_chunk_name(id) : "";
    x->d.chunk_name = name ? name : "?";
    va_start(ap, fmt);
    vsnprintf(x->d.message, sizeof x->d.message, fmt, ap);
    va_end(ap);
    x->start = start;
    x->end = end;
}

void dump_chunk_diag(dumper *d, kf3ds_status code, const kf3ds_chunk *c, const char *fmt, ...)
{
    char msg[sizeof ((kf3ds_diag *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dump_add_diag(d, code, c->offset, c->id, c->offset, c->end, "%s", msg);
}

/* A library diagnostic that the walk reported too (same problem, same place). */
