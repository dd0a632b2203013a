/* The walk of the chunk tree for `kf3ds dump` (cmd_dump.h): every chunk through
 * kf3ds_chunk_next; known containers (cmd_dump_spec.c) are descended into, at
 * most DUMP_MAX_DEPTH levels deep, so the recursion is bounded. */
#include "cmd_dump.h"
#include <string.h>

static void walk(dumper *d, kf3ds_reader *parent, uint16_t parent_id, uint32_t parent_start,
                 int depth, dump_ctx ctx);

static void dump_chunk(dumper *d, const kf3ds_chunk *c, kf3ds_reader *body, int clamped, int depth,
                       dump_ctx ctx)
{
    const char *name = kf3ds_chunk_name(c->id);
    const dump_spec *spec = name ? dump_find_spec(c->id) : NULL;
    int ok = 1;

    dump_chunk_begin(d, c, name ? name : "?", depth, clamped);
    d->lenient = spec && (spec->flags & DUMP_LENIENT);
    if (spec) {
        if (c->id == KF3DS_CHUNK_KFDATA)
            d->kf_nodes_seen = 0;
        if (spec->decode)
            ok = spec->decode(d, c, body, &ctx);
        else if (spec->layout)
            ok = dump_decode_layout(d, c, body, spec->layout);
    }
    d->lenient = 0;
    dump_chunk_children(d);
    if (spec && (spec->flags & DUMP_CONTAINER) && ok && !body->short_read)
        walk(d, body, c->id, c->offset, depth + 1, ctx);
    dump_chunk_end(d);
}

static void walk(dumper *d, kf3ds_reader *parent, uint16_t parent_id, uint32_t parent_start,
                 int depth, dump_ctx ctx)
{
    for (;;) {
        size_t left = kf3ds_reader_left(parent), before = parent->pos;
        kf3ds_chunk c;
        kf3ds_reader body;
        kf3ds_chunk_result res;
        if (left == 0)
            return;
        if (left < 6) {
            dump_add_diag(d, KF3DS_WARN_TRAILING, (uint32_t)before, parent_id, parent_start,
                          (uint32_t)parent->end,
                          "%lu stray %s at the end, too few for a chunk header",
                          (unsigned long)left, cli_plural(left, "byte", "bytes"));
            parent->pos = parent->end;
            return;
        }
        if (depth >= DUMP_MAX_DEPTH) {
            kf3ds_reader peek = *parent;
            uint16_t id = kf3ds_read_u16(&peek);
            dump_add_diag(d, KF3DS_ERR_LIMIT, (uint32_t)before, id, (uint32_t)before,
                          (uint32_t)parent->end,
                          "chunks nested deeper than %d levels; not descended", DUMP_MAX_DEPTH);
            parent->pos = parent->end;
            return;
        }
        res = kf3ds_chunk_next(parent, &c, &body);
        if (res == KF3DS_NEXT_NONE)
            return;
        if (res == KF3DS_NEXT_BAD) {
            kf3ds_reader peek = *parent;
            uint16_t id;
            uint32_t len;
            peek.pos = before;
            id = kf3ds_read_u16(&peek);
            len = kf3ds_read_u32(&peek);
            dump_add_diag(d, KF3DS_ERR_CHUNK, (uint32_t)before, id, (uint32_t)before,
                          (uint32_t)parent->end,
                          "chunk length %lu is less than 6; rest of the parent skipped",
                          (unsigned long)len);
            parent->pos = parent->end;
            return;
        }
        if (res == KF3DS_NEXT_CLAMPED)
            dump_add_diag(d, KF3DS_WARN_OVERRUN, c.offset, c.id, c.offset, c.end,
                          "length %lu overruns its parent by %lu %s; clamped",
                          (unsigned long)c.length, (unsigned long)(c.length - left),
                          cli_plural(c.length - left, "byte", "bytes"));
        dump_chunk(d, &c, &body, res == KF3DS_NEXT_CLAMPED, depth, ctx);
        if (parent->pos <= before) /* cannot happen: a chunk has >= 6 bytes */
            return;
    }
}

void dump_walk_file(dumper *d, const unsigned char *data, size_t size)
{
    kf3ds_reader top = kf3ds_reader_make(data, size);
    kf3ds_chunk c;
    kf3ds_reader body;
    kf3ds_chunk_result res;
    dump_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.node = -1;

    if (size == 0) {
        dump_add_diag(d, KF3DS_ERR_NOT_3DS, 0, 0, 0, 0, "empty file");
        return;
    }
    if (size < 6) {
        dump_add_diag(d, KF3DS_ERR_NOT_3DS, 0, 0, 0, (uint32_t)size,
                      "file shorter than a chunk header (%lu %s)", (unsigned long)size,
                      cli_plural(size, "byte", "bytes"));
        return;
    }
    res = kf3ds_chunk_next(&top, &c, &body);
    if (!kf3ds_chunk_is_root(c.id)) {
        if (res != KF3DS_NEXT_BAD)
            dump_chunk(d, &c, &body, res == KF3DS_NEXT_CLAMPED, 0, ctx);
        dump_add_diag(d, KF3DS_ERR_NOT_3DS, 0, 0, 0, (uint32_t)size,
                      "root chunk 0x%04X is not a 3DS magic (expected 0x%04X)", (unsigned)c.id,
                      (unsigned)KF3DS_CHUNK_M3DMAGIC);
        return;
    }
    if (res == KF3DS_NEXT_BAD) {
        dump_add_diag(d, KF3DS_ERR_CHUNK, 0, c.id, 0, (uint32_t)size,
                      "root chunk length %lu is less than 6", (unsigned long)c.length);
        return;
    }
    if (res == KF3DS_NEXT_CLAMPED)
        dump_add_diag(d, KF3DS_WARN_OVERRUN, 0, c.id, 0, c.end,
                      "file ends %lu %s before the chunk does; clamped",
                      (unsigned long)(c.length - size), cli_plural(c.length - size, "byte", "bytes"));
    dump_chunk(d, &c, &body, res == KF3DS_NEXT_CLAMPED, 0, ctx);
    if (c.end < size)
        dump_add_diag(d, KF3DS_WARN_TRAILING, c.end, 0, c.end, (uint32_t)size,
                      "%lu %s after the root chunk ignored", (unsigned long)(size - c.end),
                      cli_plural(size - c.end, "byte", "bytes"));
}
