/* The readers' shared helpers: diagnostics recorded in the scene, float
 * checks, sub-chunk iteration and short reads that report, names. */
#include "read_util.h"
#include "diag.h"
#include <stdarg.h>
#include <string.h>

void kf3ds__diag(kf3ds__load_ctx *ctx, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                 const char *fmt, ...)
{
    kf3ds_scene *s = ctx->scene;
    va_list ap;
    if (ctx->pass == KF3DS__PASS_COUNT)
        return;
    if (kf3ds_status_severity(code) == KF3DS_ERROR && ctx->first_error.code == KF3DS_OK) {
        va_start(ap, fmt);
        kf3ds__diag_setv(&ctx->first_error, code, offset, chunk_id, fmt, ap);
        va_end(ap);
    }
    if (s->num_diags >= ctx->limits.max_diags) {
        s->num_dropped_diags++;
        return;
    }
    if (s->num_diags == ctx->diags_cap) {
        /* Grow by doubling inside the arena; the old array is left behind. */
        uint32_t cap = ctx->diags_cap ? ctx->diags_cap * 2 : 16;
        kf3ds_diag *d;
        if (cap > ctx->limits.max_diags)
            cap = ctx->limits.max_diags;
        d = (kf3ds_diag *)kf3ds__arena_alloc_raw(ctx->arena, cap, sizeof *d);
        if (!d) {
            s->num_dropped_diags++;
            return;
        }
        if (s->num_diags)
            memcpy(d, s->diags, s->num_diags * sizeof *d);
        s->diags = d;
        ctx->diags_cap = cap;
    }
    va_start(ap, fmt);
    kf3ds__diag_setv(&s->diags[s->num_diags++], code, offset, chunk_id, fmt, ap);
    va_end(ap);
}

void kf3ds__clean_floats(float *v, size_t n, float fallback, float limit, uint32_t *bad,
                         uint32_t *big)
{
    size_t i;
    for (i = 0; i < n; i++) {
        float x = v[i];
        if (!isfinite(x)) {
            v[i] = fallback;
            (*bad)++;
        } else if (x > limit || x < -limit) {
            v[i] = x > 0.0f ? limit : -limit;
            (*big)++;
        }
    }
}

void kf3ds__warn_cleaned(kf3ds__load_ctx *ctx, uint32_t bad, uint32_t big, uint32_t offset,
                         uint16_t chunk_id, const char *what)
{
    if (bad)
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, offset, chunk_id,
                    "%s: %lu NaN or infinite %s replaced%s", what, (unsigned long)bad,
                    bad == 1 ? "value" : "values", big ? ", huge values clamped" : "");
    else if (big)
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, offset, chunk_id,
                    "%s: %lu %s outside the supported range clamped", what,
                    (unsigned long)big, big == 1 ? "value" : "values");
}

int kf3ds__sanitize(kf3ds__load_ctx *ctx, float *v, size_t n, float fallback, float limit,
                    uint32_t offset, uint16_t chunk_id, const char *what)
{
    uint32_t bad = 0, big = 0;
    if (kf3ds__in_range(v, n, limit))
        return 0;
    kf3ds__clean_floats(v, n, fallback, limit, &bad, &big);
    kf3ds__warn_cleaned(ctx, bad, big, offset, chunk_id, what);
    return bad || big;
}

int kf3ds__next_chunk(kf3ds__load_ctx *ctx, kf3ds_reader *parent, uint16_t parent_id,
                      kf3ds_chunk *chunk, kf3ds_reader *body)
{
    size_t left = kf3ds_reader_left(parent);
    switch (kf3ds_chunk_next(parent, chunk, body)) {
    case KF3DS_NEXT_NONE:
        return 0;
    case KF3DS_NEXT_OK:
        return 1;
    case KF3DS_NEXT_CLAMPED:
        kf3ds__diag(ctx, KF3DS_WARN_OVERRUN, chunk->offset, chunk->id,
                    "length %lu overruns its parent by %lu %s; clamped",
                    (unsigned long)chunk->length, (unsigned long)(chunk->length - left),
                    chunk->length - left == 1 ? "byte" : "bytes");
        return 1;
    case KF3DS_NEXT_BAD:
    default:
        if (left < 6)
            kf3ds__diag(ctx, KF3DS_WARN_TRAILING, chunk->offset, parent_id,
                        "%lu stray %s at the end, too few for a chunk header",
                        (unsigned long)left, left == 1 ? "byte" : "bytes");
        else
            kf3ds__diag(ctx, KF3DS_ERR_CHUNK, chunk->offset, chunk->id,
                        "chunk length %lu is less than 6; rest of the parent skipped",
                        (unsigned long)chunk->length);
        parent->pos = parent->end;
        return 0;
    }
}

int kf3ds__check_short(kf3ds__load_ctx *ctx, const kf3ds_reader *r, const kf3ds_chunk *chunk)
{
    if (!r->short_read)
        return 0;
    kf3ds__diag(ctx, KF3DS_ERR_TRUNCATED, chunk->offset, chunk->id,
                "payload ends before its data (chunk has %lu bytes)",
                (unsigned long)(chunk->end - chunk->offset));
    return 1;
}

/* Names may lack a terminator: they then run to the end of the chunk. */
const char *kf3ds__read_name(kf3ds__load_ctx *ctx, kf3ds_reader *r, const kf3ds_chunk *c)
{
    size_t len;
    int terminated;
    const char *s = kf3ds_read_cstr(r, &len, &terminated);
    if (!terminated) {
        r->short_read = 0;
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, c->offset, c->id,
                    "name without terminator; taken up to the chunk end");
    }
    return kf3ds__arena_strdup(ctx->arena, s, len);
}
