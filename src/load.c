/* Buffer → scene, the orchestration: options and allocator, the root chunk,
 * the counting pass, the scene's arrays, the filling pass, the finishing
 * steps of both sections; and kf3ds_scene_free. The readers (readers.h) do
 * the reading, with the helpers of read_util.h; nothing calls back here. */
#include "load_ctx.h"
#include "arena.h"
#include "diag.h"
#include "layout.h"
#include "plan_build.h"
#include "read_util.h"
#include "readers.h"
#include "scene_internal.h"
#include "track_setup.h"
#include <stdarg.h>
#include <string.h>

#define DEFAULT_MAX_NODES 1000000
#define DEFAULT_MAX_KEYS 10000000
#define DEFAULT_MAX_DIAGS 1000

/* Walks the root's children (or a bare MDATA root) for one pass. */
static void read_sections(kf3ds__load_ctx *ctx, const kf3ds_chunk *root, const kf3ds_reader *root_body)
{
    kf3ds_reader it = *root_body;
    kf3ds_chunk c;
    kf3ds_reader body;
    if (root->id == KF3DS_CHUNK_MDATA) {
        kf3ds__read_mdata(ctx, root_body);
        return;
    }
    while (kf3ds__next_chunk(ctx, &it, root->id, &c, &body)) {
        switch (c.id) {
        case KF3DS_CHUNK_M3D_VERSION:
            if (ctx->pass == KF3DS__PASS_FILL) {
                ctx->scene->version = kf3ds_read_u32(&body);
                kf3ds__check_short(ctx, &body, &c);
            }
            break;
        case KF3DS_CHUNK_MDATA:
            kf3ds__read_mdata(ctx, &body);
            break;
        case KF3DS_CHUNK_KFDATA:
            if (ctx->pass == KF3DS__PASS_COUNT)
                kf3ds__count_kfdata(ctx, &body);
            else
                kf3ds__read_kfdata(ctx, &body);
            break;
        default:
            break;
        }
    }
}

/* Sizes the scene's arrays by the counting pass's counts, which the filling
 * pass counts up again. Nodes beyond the node limit are left out here; the
 * filling pass reports it. */
static int allocate_scene_arrays(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    kf3ds__arena *a = ctx->arena;
    unsigned char *nodes;
    ctx->nodes_counted = s->num_nodes;
    if (s->num_nodes > ctx->limits.max_nodes)
        s->num_nodes = ctx->limits.max_nodes;
    ctx->cap_meshes = s->num_meshes;
    ctx->cap_materials = s->num_materials;
    ctx->cap_cameras = s->num_cameras;
    ctx->cap_lights = s->num_lights;
    ctx->cap_nodes = s->num_nodes;
    s->meshes = (kf3ds_mesh *)kf3ds__arena_alloc(a, s->num_meshes, sizeof(kf3ds_mesh));
    s->materials =
        (kf3ds_material *)kf3ds__arena_alloc(a, s->num_materials, sizeof(kf3ds_material));
    s->cameras = (kf3ds_camera *)kf3ds__arena_alloc(a, s->num_cameras, sizeof(kf3ds_camera));
    s->lights = (kf3ds_light *)kf3ds__arena_alloc(a, s->num_lights, sizeof(kf3ds_light));
    /* Nodes start on a 64-byte line: the fields evaluation reads then fill
     * exactly two lines of each node. */
    nodes = (unsigned char *)kf3ds__arena_alloc(a, (size_t)s->num_nodes + 1, sizeof(kf3ds_node));
    s->nodes = nodes ? (kf3ds_node *)(nodes + (64 - (uintptr_t)nodes % 64) % 64) : NULL;
    s->num_meshes = s->num_materials = s->num_cameras = s->num_lights = s->num_nodes = 0;
    return !kf3ds__arena_failed(a);
}

/* The first reports of the filling pass: what only the count knows (the
 * node limit), and how the root chunk ends. */
static void report_counts_and_root(kf3ds__load_ctx *ctx, const kf3ds_chunk *root,
                                   kf3ds_chunk_result rr, size_t size)
{
    if (ctx->nodes_counted > ctx->limits.max_nodes)
        kf3ds__diag(ctx, KF3DS_ERR_LIMIT, 0, KF3DS_CHUNK_KFDATA,
                    "%lu nodes exceed the limit of %lu", (unsigned long)ctx->nodes_counted,
                    (unsigned long)ctx->limits.max_nodes);
    if (rr == KF3DS_NEXT_CLAMPED)
        kf3ds__diag(ctx, KF3DS_WARN_OVERRUN, 0, root->id,
                    "file ends %lu %s before the chunk does; clamped",
                    (unsigned long)(root->length - size),
                    root->length - size == 1 ? "byte" : "bytes");
    else if (root->end < size)
        kf3ds__diag(ctx, KF3DS_WARN_TRAILING, root->end, 0,
                    "%lu %s after the root chunk ignored", (unsigned long)(size - root->end),
                    size - root->end == 1 ? "byte" : "bytes");
}

/* Fills the caller's *error for a load that gives no scene. */
/* The chunks the loader skips but other readers decode whose sub-chunks are
 * damaged (layout.c): a repairing save drops them, so say which
 * (docs/writer.md, "kf3ds rewrite"). */
static void report_damaged_foreign(kf3ds__load_ctx *ctx, const kf3ds__layout_chunk *lay, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (kf3ds__layout_damaged(&lay[i]))
            kf3ds__diag(ctx, KF3DS_WARN_OVERRUN, lay[i].offset - 6, lay[i].id,
                        "its sub-chunks' lengths do not fill it (other readers may loop on "
                        "it); kept as it is, left out by a repairing save");
}

static kf3ds_scene *fail(kf3ds_diag *error, kf3ds_status code, uint16_t id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static kf3ds_scene *fail(kf3ds_diag *error, kf3ds_status code, uint16_t id, const char *fmt, ...)
{
    va_list ap;
    if (!error)
        return NULL;
    memset(error, 0, sizeof *error);
    va_start(ap, fmt);
    kf3ds__diag_setv(error, code, 0, id, fmt, ap);
    va_end(ap);
    return NULL;
}

kf3ds_scene *kf3ds_load_memory(const void *data, size_t size,
                               const kf3ds_load_options *options, kf3ds_diag *error)
{
    kf3ds__load_ctx ctx;
    kf3ds_allocator allocator;
    kf3ds_reader top, root_body;
    kf3ds_chunk root;
    kf3ds_chunk_result rr;
    kf3ds__scene_internal *internal;
    const char *why;

    if (error)
        memset(error, 0, sizeof *error);
    if (!data && size)
        return fail(error, KF3DS_ERR_ARGUMENT, 0, "no input buffer");
    if (size > 0xFFFFFFFFu)
        return fail(error, KF3DS_ERR_LIMIT, 0, "input larger than 4 GiB");
    memset(&ctx, 0, sizeof ctx);
    ctx.rotations = kf3ds__rotation_setup_pick();
    if (options)
        ctx.limits = options->limits;
    why = kf3ds__allocator_resolve(options ? &options->allocator : NULL, &allocator);
    if (why)
        return fail(error, KF3DS_ERR_ARGUMENT, 0, "%s", why);
    if (!ctx.limits.max_nodes) ctx.limits.max_nodes = DEFAULT_MAX_NODES;
    if (!ctx.limits.max_keys) ctx.limits.max_keys = DEFAULT_MAX_KEYS;
    if (!ctx.limits.max_diags) ctx.limits.max_diags = DEFAULT_MAX_DIAGS;

    top = kf3ds_reader_make(data, size);
    rr = kf3ds_chunk_next(&top, &root, &root_body);
    if (rr == KF3DS_NEXT_NONE || (rr == KF3DS_NEXT_BAD && size < 6))
        return fail(error, KF3DS_ERR_NOT_3DS, 0, "%s",
                    size ? "file shorter than a chunk header" : "empty file");
    if (!kf3ds_chunk_is_root(root.id))
        return fail(error, KF3DS_ERR_NOT_3DS, 0,
                    "root chunk 0x%04X is not a 3DS magic (expected 0x%04X)", (unsigned)root.id,
                    (unsigned)KF3DS_CHUNK_M3DMAGIC);
    if (rr == KF3DS_NEXT_BAD)
        return fail(error, KF3DS_ERR_CHUNK, root.id, "root chunk length is less than 6");

    ctx.arena = kf3ds__arena_create(&allocator, ctx.limits.max_memory);
    ctx.scene = ctx.arena ? (kf3ds_scene *)kf3ds__arena_alloc(ctx.arena, 1, sizeof(kf3ds_scene))
                          : NULL;
    internal = ctx.scene ? (kf3ds__scene_internal *)kf3ds__arena_alloc(ctx.arena, 1,
                                                                      sizeof *internal)
                         : NULL;
    if (!internal) {
        kf3ds__arena_destroy(ctx.arena);
        return fail(error, KF3DS_ERR_NOMEM, 0, "out of memory");
    }
    internal->arena = ctx.arena;
    ctx.scene->internal_ = internal;
    ctx.scene->master_scale = 1.0f;
    if (options && (options->flags & KF3DS_LOAD_KEEP_SOURCE))
        ctx.source = (kf3ds__source *)kf3ds__arena_alloc(ctx.arena, 1, sizeof(kf3ds__source));

    ctx.pass = KF3DS__PASS_COUNT;
    read_sections(&ctx, &root, &root_body);
    /* a scene takes a few times its file's size, nearly all of it in the
     * fill pass: blocks of the file's size, and of at least 2 MB (what the
     * default allocator maps and keeps) from a 256 KB file on */
    if (size >= ((size_t)256 << 10))
        kf3ds__arena_block_floor(ctx.arena, size > ((size_t)2 << 20) ? size : (size_t)2 << 20);
    if (allocate_scene_arrays(&ctx)) {
        ctx.pass = KF3DS__PASS_FILL;
        report_counts_and_root(&ctx, &root, rr, size);
        read_sections(&ctx, &root, &root_body);
        kf3ds__finish_editor(&ctx);
        kf3ds__finish_keyframer(&ctx);
        if (ctx.source) {
            const kf3ds__layout_chunk *lay =
                kf3ds__layout_record(ctx.arena, data, size, ctx.cap_nodes, ctx.source);
            report_damaged_foreign(&ctx, lay, lay ? ctx.source->num_layout : 0);
            ctx.source->environment = ctx.scene->environment;
            ctx.scene->source_ = ctx.source;
        }
        kf3ds__plan_build(&ctx);
    }
    if (kf3ds__arena_failed(ctx.arena)) {
        kf3ds_scene_free(ctx.scene);
        return fail(error, KF3DS_ERR_NOMEM, 0, "out of memory (or the memory limit was reached)");
    }
    if (error)
        *error = ctx.first_error;
    return ctx.scene;
}

void kf3ds_scene_free(kf3ds_scene *scene)
{
    if (scene && scene->internal_)
        kf3ds__arena_destroy(((kf3ds__scene_internal *)scene->internal_)->arena);
}
