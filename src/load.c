/* Buffer → scene: the arena and allocator hooks, limits, diagnostics, the
 * root chunk, the two passes (count, then fill) and kf3ds_scene_free. */
#include "internal.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define KF3DS__ALIGN 16
#define KF3DS__MIN_BLOCK ((size_t)64 * 1024)
#define KF3DS__MAX_BLOCK ((size_t)32 * 1024 * 1024)

static size_t align_up(size_t n)
{
    return (n + (KF3DS__ALIGN - 1)) & ~(size_t)(KF3DS__ALIGN - 1);
}

#define BLOCK_HEADER align_up(sizeof(kf3ds__block))

/* Under AddressSanitizer the arena tells ASan which bytes are handed out:
 * a block's free space and a 16-byte red zone after every allocation stay
 * poisoned, so that an overread of an arena array is reported like one of a
 * malloc'ed array (the fuzzers rely on it). No effect in other builds. */
#if defined(__SANITIZE_ADDRESS__)
#define KF3DS__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KF3DS__ASAN 1
#endif
#endif
#ifdef KF3DS__ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#define REDZONE KF3DS__ALIGN
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#define REDZONE 0
#endif

/* Blocks grow with the arena (half of what it holds so far, 64 KB to 32 MB),
 * so a big scene needs few allocator calls and small ones stay small. */
static kf3ds__block *new_block(kf3ds__owner *owner, size_t min_payload, size_t max_memory)
{
    size_t grow = owner->total / 2, payload;
    if (grow < KF3DS__MIN_BLOCK)
        grow = KF3DS__MIN_BLOCK;
    if (grow > KF3DS__MAX_BLOCK)
        grow = KF3DS__MAX_BLOCK;
    payload = min_payload < grow ? grow : min_payload;
    kf3ds__block *b;
    if (payload > (size_t)-1 - BLOCK_HEADER)
        return NULL;
    if (max_memory && owner->total + payload + BLOCK_HEADER > max_memory) {
        payload = min_payload; /* try the exact size before giving up */
        if (owner->total + payload + BLOCK_HEADER > max_memory)
            return NULL;
    }
    b = (kf3ds__block *)owner->allocator.malloc_fn(payload + BLOCK_HEADER, owner->allocator.user);
    if (!b)
        return NULL;
    b->size = payload;
    b->used = 0;
    owner->total += payload + BLOCK_HEADER;
    POISON((unsigned char *)b + BLOCK_HEADER, payload);
    return b;
}

void *kf3ds__alloc_raw(kf3ds__ctx *ctx, size_t n, size_t size)
{
    kf3ds__owner *owner = ctx->owner;
    kf3ds__block *b = owner->blocks;
    size_t bytes;
    if (ctx->out_of_memory)
        return NULL;
    if (size && n > ((size_t)-1 - 2 * KF3DS__ALIGN) / size)
        goto fail;
    bytes = align_up((n * size) != 0 ? n * size : 1) + REDZONE;
    if (!b || b->size - b->used < bytes) {
        kf3ds__block *nb = new_block(owner, bytes, ctx->limits.max_memory);
        if (!nb)
            goto fail;
        /* A big allocation gets its own block behind the current one, so the
         * current block's free space stays usable. */
        if (b && bytes >= nb->size) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            owner->blocks = nb;
        }
        b = nb;
    }
    b->used += bytes;
    UNPOISON((unsigned char *)b + BLOCK_HEADER + b->used - bytes, (n * size) != 0 ? n * size : 1);
    return (unsigned char *)b + BLOCK_HEADER + b->used - bytes;
fail:
    ctx->out_of_memory = 1;
    return NULL;
}

void *kf3ds__alloc_array(kf3ds__ctx *ctx, size_t n, size_t size)
{
    void *p = kf3ds__alloc_raw(ctx, n, size);
    if (p)
        memset(p, 0, (n * size) != 0 ? n * size : 1);
    return p;
}

void *kf3ds__alloc(kf3ds__ctx *ctx, size_t size)
{
    return kf3ds__alloc_array(ctx, 1, size);
}

const char *kf3ds__strdup(kf3ds__ctx *ctx, const char *s, size_t len)
{
    char *p = (char *)kf3ds__alloc_raw(ctx, len + 1, 1);
    if (!p)
        return "";
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static void fill_diag(kf3ds_diag *d, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                      const char *fmt, va_list ap)
{
    const char *name = chunk_id ? kf3ds_chunk_name(chunk_id) : "";
    d->code = code;
    d->severity = code >= KF3DS_WARN_OVERRUN ? KF3DS_WARNING : KF3DS_ERROR;
    d->offset = offset;
    d->chunk_id = chunk_id;
    d->chunk_name = name ? name : "?";
    kf3ds__format(d->message, sizeof d->message, fmt, ap);
}

void kf3ds__diag(kf3ds__ctx *ctx, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                 const char *fmt, ...)
{
    kf3ds_scene *s = ctx->scene;
    va_list ap;
    if (ctx->pass == 0)
        return;
    if (code < KF3DS_WARN_OVERRUN && ctx->first_error.code == KF3DS_OK) {
        va_start(ap, fmt);
        fill_diag(&ctx->first_error, code, offset, chunk_id, fmt, ap);
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
        d = (kf3ds_diag *)kf3ds__alloc_raw(ctx, cap, sizeof *d);
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
    fill_diag(&s->diags[s->num_diags++], code, offset, chunk_id, fmt, ap);
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

void kf3ds__warn_cleaned(kf3ds__ctx *ctx, uint32_t bad, uint32_t big, uint32_t offset,
                         uint16_t chunk_id, const char *what)
{
    if (bad)
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, offset, chunk_id,
                    "%s: %lu NaN or infinite values replaced%s", what, (unsigned long)bad,
                    big ? ", huge values clamped" : "");
    else if (big)
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, offset, chunk_id,
                    "%s: %lu values outside the supported range clamped", what,
                    (unsigned long)big);
}

int kf3ds__sanitize(kf3ds__ctx *ctx, float *v, size_t n, float fallback, float limit,
                    uint32_t offset, uint16_t chunk_id, const char *what)
{
    uint32_t bad = 0, big = 0;
    if (kf3ds__in_range(v, n, limit))
        return 0;
    kf3ds__clean_floats(v, n, fallback, limit, &bad, &big);
    kf3ds__warn_cleaned(ctx, bad, big, offset, chunk_id, what);
    return bad || big;
}

int kf3ds__next_chunk(kf3ds__ctx *ctx, kf3ds_reader *parent, uint16_t parent_id,
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
                    "length %lu overruns its parent by %lu bytes; clamped",
                    (unsigned long)chunk->length, (unsigned long)(chunk->length - left));
        return 1;
    case KF3DS_NEXT_BAD:
    default:
        if (left < 6)
            kf3ds__diag(ctx, KF3DS_WARN_TRAILING, chunk->offset, parent_id,
                        "%lu stray bytes at the end, too few for a chunk header",
                        (unsigned long)left);
        else
            kf3ds__diag(ctx, KF3DS_ERR_CHUNK, chunk->offset, chunk->id,
                        "chunk length %lu is less than 6; rest of the parent skipped",
                        (unsigned long)chunk->length);
        parent->pos = parent->end;
        return 0;
    }
}

int kf3ds__check_short(kf3ds__ctx *ctx, const kf3ds_reader *r, const kf3ds_chunk *chunk)
{
    if (!r->short_read)
        return 0;
    kf3ds__diag(ctx, KF3DS_ERR_TRUNCATED, chunk->offset, chunk->id,
                "payload ends before its data (chunk has %lu bytes)",
                (unsigned long)(chunk->end - chunk->offset));
    return 1;
}

const char *kf3ds_status_string(kf3ds_status code)
{
    switch (code) {
    case KF3DS_OK: return "ok";
    case KF3DS_ERR_ARGUMENT: return "invalid argument";
    case KF3DS_ERR_IO: return "i/o error";
    case KF3DS_ERR_NOMEM: return "out of memory";
    case KF3DS_ERR_NOT_3DS: return "not a 3DS file";
    case KF3DS_ERR_CHUNK: return "bad chunk header";
    case KF3DS_ERR_TRUNCATED: return "truncated data";
    case KF3DS_ERR_LIMIT: return "limit exceeded";
    case KF3DS_WARN_OVERRUN: return "chunk overrun";
    case KF3DS_WARN_UNSORTED: return "unsorted keys";
    case KF3DS_WARN_PARENT: return "bad parent";
    case KF3DS_WARN_REFERENCE: return "unresolved name";
    case KF3DS_WARN_VALUE: return "odd value";
    case KF3DS_WARN_TRAILING: return "stray bytes";
    }
    return "unknown";
}

/* Walks the root's children (or a bare MDATA root) for one pass. */
static void read_sections(kf3ds__ctx *ctx, const kf3ds_chunk *root, const kf3ds_reader *root_body)
{
    kf3ds_reader it = *root_body;
    kf3ds_chunk c;
    kf3ds_reader body;
    if (root->id == 0x3D3D) {
        kf3ds__read_mdata(ctx, root_body);
        return;
    }
    while (kf3ds__next_chunk(ctx, &it, root->id, &c, &body)) {
        switch (c.id) {
        case 0x0002:
            if (ctx->pass == 1) {
                ctx->scene->version = kf3ds_read_u32(&body);
                kf3ds__check_short(ctx, &body, &c);
            }
            break;
        case 0x3D3D:
            kf3ds__read_mdata(ctx, &body);
            break;
        case 0xB000:
            if (ctx->pass == 0)
                kf3ds__count_kfdata(ctx, &body);
            else
                kf3ds__read_kfdata(ctx, &body);
            break;
        default:
            break;
        }
    }
}

static void format_message(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kf3ds__format(out, cap, fmt, ap);
    va_end(ap);
}

int kf3ds__allocate_scene_arrays(kf3ds__ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    unsigned char *nodes;
    if (s->num_nodes > ctx->limits.max_nodes) {
        ctx->pass = 1;
        kf3ds__diag(ctx, KF3DS_ERR_LIMIT, 0, 0xB000, "%lu nodes exceed the limit of %lu",
                    (unsigned long)s->num_nodes, (unsigned long)ctx->limits.max_nodes);
        ctx->pass = 0;
        s->num_nodes = ctx->limits.max_nodes;
    }
    ctx->cap_meshes = s->num_meshes;
    ctx->cap_materials = s->num_materials;
    ctx->cap_cameras = s->num_cameras;
    ctx->cap_lights = s->num_lights;
    ctx->cap_nodes = s->num_nodes;
    s->meshes = (kf3ds_mesh *)kf3ds__alloc_array(ctx, s->num_meshes, sizeof(kf3ds_mesh));
    s->materials = (kf3ds_material *)kf3ds__alloc_array(ctx, s->num_materials, sizeof(kf3ds_material));
    s->cameras = (kf3ds_camera *)kf3ds__alloc_array(ctx, s->num_cameras, sizeof(kf3ds_camera));
    s->lights = (kf3ds_light *)kf3ds__alloc_array(ctx, s->num_lights, sizeof(kf3ds_light));
    /* Nodes start on a 64-byte line: the fields evaluation reads then fill
     * exactly two lines of each node. */
    nodes = (unsigned char *)kf3ds__alloc_array(ctx, (size_t)s->num_nodes + 1, sizeof(kf3ds_node));
    s->nodes = nodes ? (kf3ds_node *)(nodes + (64 - (uintptr_t)nodes % 64) % 64) : NULL;
    s->num_meshes = s->num_materials = s->num_cameras = s->num_lights = s->num_nodes = 0;
    return !ctx->out_of_memory;
}

static void fail(kf3ds_diag *error, kf3ds_status code, uint32_t offset, uint16_t id,
                 const char *msg)
{
    size_t n = strlen(msg);
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->code = code;
    error->severity = KF3DS_ERROR;
    error->offset = offset;
    error->chunk_id = id;
    error->chunk_name = id ? (kf3ds_chunk_name(id) ? kf3ds_chunk_name(id) : "?") : "";
    if (n >= sizeof error->message)
        n = sizeof error->message - 1;
    memcpy(error->message, msg, n);
    error->message[n] = '\0';
}

kf3ds_scene *kf3ds_load_memory(const void *data, size_t size,
                               const kf3ds_load_options *options, kf3ds_diag *error)
{
    kf3ds__ctx ctx;
    kf3ds__owner owner_init;
    kf3ds__block *first;
    kf3ds_reader top, root_body;
    kf3ds_chunk root;
    kf3ds_chunk_result rr;
    char msg[112];

    if (error)
        memset(error, 0, sizeof *error);
    if (!data && size) {
        fail(error, KF3DS_ERR_ARGUMENT, 0, 0, "no input buffer");
        return NULL;
    }
    if (size > 0xFFFFFFFFu) {
        fail(error, KF3DS_ERR_LIMIT, 0, 0, "input larger than 4 GiB");
        return NULL;
    }
    memset(&ctx, 0, sizeof ctx);
    memset(&owner_init, 0, sizeof owner_init);
    if (options)
        ctx.limits = options->limits;
    if (options && options->allocator.malloc_fn && options->allocator.free_fn) {
        owner_init.allocator = options->allocator;
    } else {
        owner_init.allocator = kf3ds__default_allocator();
    }
    if (!owner_init.allocator.malloc_fn || !owner_init.allocator.free_fn) {
        fail(error, KF3DS_ERR_ARGUMENT, 0, 0, "no allocator hooks (built without a default allocator)");
        return NULL;
    }
    if (!ctx.limits.max_nodes) ctx.limits.max_nodes = 1000000;
    if (!ctx.limits.max_keys) ctx.limits.max_keys = 10000000;
    if (!ctx.limits.max_diags) ctx.limits.max_diags = 1000;

    top = kf3ds_reader_make(data, size);
    rr = kf3ds_chunk_next(&top, &root, &root_body);
    if (rr == KF3DS_NEXT_NONE || (rr == KF3DS_NEXT_BAD && size < 6)) {
        fail(error, KF3DS_ERR_NOT_3DS, 0, 0,
             size ? "file shorter than a chunk header" : "empty file");
        return NULL;
    }
    if (!kf3ds_chunk_is_root(root.id)) {
        format_message(msg, sizeof msg, "root chunk 0x%04X is not a 3DS magic (expected 0x4D4D)",
                       (unsigned)root.id);
        fail(error, KF3DS_ERR_NOT_3DS, 0, 0, msg);
        return NULL;
    }
    if (rr == KF3DS_NEXT_BAD) {
        fail(error, KF3DS_ERR_CHUNK, 0, root.id, "root chunk length is less than 6");
        return NULL;
    }

    /* The first block holds the owner record and the scene itself. */
    first = new_block(&owner_init, align_up(sizeof(kf3ds__owner)) + align_up(sizeof(kf3ds_scene)),
                      ctx.limits.max_memory);
    if (!first) {
        fail(error, KF3DS_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    first->next = NULL;
    ctx.owner = (kf3ds__owner *)((unsigned char *)first + BLOCK_HEADER);
    first->used = align_up(sizeof(kf3ds__owner));
    UNPOISON(ctx.owner, sizeof(kf3ds__owner));
    *ctx.owner = owner_init;
    ctx.owner->blocks = first;
    ctx.scene = (kf3ds_scene *)kf3ds__alloc(&ctx, sizeof(kf3ds_scene));
    ctx.data = (const unsigned char *)data;
    ctx.size = size;
    ctx.scene->internal_ = ctx.owner;
    ctx.scene->master_scale = 1.0f;

    ctx.pass = 0;
    read_sections(&ctx, &root, &root_body);
    if (!kf3ds__allocate_scene_arrays(&ctx)) {
        kf3ds_scene_free(ctx.scene);
        fail(error, KF3DS_ERR_NOMEM, 0, 0, "out of memory (or the memory limit was reached)");
        return NULL;
    }
    ctx.pass = 1;
    if (rr == KF3DS_NEXT_CLAMPED)
        kf3ds__diag(&ctx, KF3DS_WARN_OVERRUN, 0, root.id,
                    "file ends %lu bytes before the chunk does; clamped",
                    (unsigned long)(root.length - size));
    else if (root.end < size)
        kf3ds__diag(&ctx, KF3DS_WARN_TRAILING, root.end, 0,
                    "%lu bytes after the root chunk ignored", (unsigned long)(size - root.end));
    read_sections(&ctx, &root, &root_body);
    kf3ds__finish_editor(&ctx);
    kf3ds__finish_keyframer(&ctx);

    if (ctx.out_of_memory) {
        kf3ds_scene_free(ctx.scene);
        fail(error, KF3DS_ERR_NOMEM, 0, 0, "out of memory (or the memory limit was reached)");
        return NULL;
    }
    if (error)
        *error = ctx.first_error;
    return ctx.scene;
}

void kf3ds_scene_free(kf3ds_scene *scene)
{
    kf3ds__owner *owner;
    kf3ds__block *b, *next;
    kf3ds_allocator a;
    if (!scene || !scene->internal_)
        return;
    owner = (kf3ds__owner *)scene->internal_;
    a = owner->allocator;
    b = owner->blocks;
    while (b) { /* the owner record lives in the last block of the list */
        next = b->next;
        UNPOISON(b, BLOCK_HEADER + b->size); /* the allocator may reuse it */
        a.free_fn(b, a.user);
        b = next;
    }
}
