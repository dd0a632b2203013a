/* kf3ds_gltf_write (include/kf3ds_gltf.h): the options checked and their
 * defaults filled in, the document assembled from the parts the export_*.c
 * files build, and the .glb (or the .gltf's JSON and the .bin's bytes) in
 * memory from the caller's allocator (docs/gltf.md). */
#include "export_internal.h"
#include "../arena.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_FPS 30.0
#define KNOWN_FLAGS                                                                        \
    (KF3DS_GLTF_SEPARATE | KF3DS_GLTF_NO_ANIMATION | KF3DS_GLTF_STATIC_FRAME |             \
     KF3DS_GLTF_FRAMES | KF3DS_GLTF_CUBIC | KF3DS_GLTF_VISIBILITY_EXT | KF3DS_GLTF_NO_EASE | \
     KF3DS_GLTF_EMBED_IMAGES | KF3DS_GLTF_EVERY_FRAME | KF3DS_GLTF_LINEAR)

static const char *file_name(const export_ctx *c)
{
    const char *n = c->o->user ? c->o->user->file_name : NULL;
    return n ? n : "";
}

/* The JSON fragments of the context, for setting up and freeing them. */
#define NUM_FRAGMENTS 9
static void fragments(export_ctx *c, gltf_json *out[NUM_FRAGMENTS])
{
    gltf_json *f[NUM_FRAGMENTS] = { &c->meshes,  &c->materials, &c->textures,
                                    &c->images,  &c->samplers,  &c->cameras,
                                    &c->lights,  &c->anim_samplers, &c->anim_channels };
    memcpy(out, f, sizeof f);
}

static void ctx_init(export_ctx *c)
{
    gltf_json *f[NUM_FRAGMENTS];
    int i;
    fragments(c, f);
    gltf_buffer_init(&c->buf, c->al);
    for (i = 0; i < NUM_FRAGMENTS; i++)
        gltf_json_init(f[i], c->al);
}

static void ctx_free(export_ctx *c)
{
    gltf_json *f[NUM_FRAGMENTS];
    int i;
    fragments(c, f);
    gltf_buffer_free(&c->buf);
    for (i = 0; i < NUM_FRAGMENTS; i++)
        gltf_json_free(f[i]);
    export_mesh_free(c);
    export_material_free(c);
    EX_FREE(c, c->nodes);
    EX_FREE(c, c->props);
    EX_FREE(c, c->node_gltf);
    EX_FREE(c, c->poses);
}

/* A top-level array from a fragment, left out when empty (glTF arrays must
 * not be empty). */
static void top_array(gltf_json *doc, const char *key, gltf_json *items)
{
    if (!items->count)
        return;
    gltf_arr(doc, key);
    gltf_splice(doc, items);
    gltf_end(doc);
}

static void write_asset(export_ctx *c, gltf_json *doc)
{
    const kf3ds_scene *s = c->s;
    gltf_obj(doc, "asset");
    gltf_str(doc, "version", "2.0");
    gltf_str(doc, "generator", "kf3ds " KF3DS_VERSION_STRING);
    gltf_obj(doc, "extras");
    gltf_obj(doc, "kf3ds");
    gltf_str(doc, "file", file_name(c));
    gltf_num(doc, "fps", c->o->fps);
    gltf_num(doc, "segment_start", c->first);
    gltf_num(doc, "segment_end", c->last);
    if (!c->animate)
        gltf_num(doc, "static_frame", c->first);
    else
        gltf_int(doc, "samples_per_frame", c->o->rate);
    /* only where something was resampled: a file whose channels are all
     * constant stays byte for byte as small as its per-frame export */
    if (c->animate && !c->o->every_frame && c->anim_channels.count) {
        gltf_num(doc, "tolerance", c->o->tolerance);
        /* channels whose bound needed more keys than one per sample */
        gltf_int(doc, "channels_over_tolerance", (long)c->over_tolerance);
        if (c->o->linear)
            gltf_bool(doc, "linear_only", 1);
    }
    gltf_arr(doc, "file_segment");
    gltf_int(doc, NULL, s->segment_start);
    gltf_int(doc, NULL, s->segment_end);
    gltf_end(doc);
    gltf_num(doc, "master_scale", s->master_scale);
    gltf_end(doc);
    gltf_end(doc);
    gltf_end(doc);
}

static void write_extensions_used(export_ctx *c, gltf_json *doc)
{
    if (!(c->used_lights || c->used_texture_transform || c->used_pointer || c->used_visibility))
        return;
    gltf_arr(doc, "extensionsUsed");
    if (c->used_lights)
        gltf_str(doc, NULL, "KHR_lights_punctual");
    if (c->used_texture_transform)
        gltf_str(doc, NULL, "KHR_texture_transform");
    if (c->used_pointer)
        gltf_str(doc, NULL, "KHR_animation_pointer");
    if (c->used_visibility)
        gltf_str(doc, NULL, "KHR_node_visibility");
    gltf_end(doc);
}

static void write_document(export_ctx *c, gltf_json *doc, const char *bin_uri)
{
    float ambient[3];
    int k;
    gltf_obj(doc, NULL);
    write_asset(c, doc);
    write_extensions_used(c, doc);
    gltf_int(doc, "scene", 0);
    gltf_arr(doc, "scenes");
    gltf_obj(doc, NULL);
    gltf_str(doc, "name", file_name(c));
    gltf_arr(doc, "nodes");
    gltf_int(doc, NULL, 0);
    gltf_end(doc);
    /* glTF has no ambient light: the editor's ambient colour, for readers
     * that want it. */
    for (k = 0; k < 3; k++)
        ambient[k] = c->s->ambient[k];
    gltf_obj(doc, "extras");
    gltf_nums(doc, "kf3ds_ambient", ambient, 3);
    gltf_end(doc);
    gltf_end(doc);
    gltf_end(doc);
    export_write_nodes(c, doc);
    top_array(doc, "meshes", &c->meshes);
    top_array(doc, "materials", &c->materials);
    top_array(doc, "textures", &c->textures);
    top_array(doc, "images", &c->images);
    top_array(doc, "samplers", &c->samplers);
    top_array(doc, "cameras", &c->cameras);
    if (c->lights.count) {
        gltf_obj(doc, "extensions");
        gltf_obj(doc, "KHR_lights_punctual");
        top_array(doc, "lights", &c->lights);
        gltf_end(doc);
        gltf_end(doc);
    }
    if (c->anim_channels.count) {
        gltf_arr(doc, "animations");
        gltf_obj(doc, NULL);
        gltf_str(doc, "name", "kf3ds keyframer");
        top_array(doc, "samplers", &c->anim_samplers);
        top_array(doc, "channels", &c->anim_channels);
        gltf_end(doc);
        gltf_end(doc);
    }
    top_array(doc, "accessors", &c->buf.accessors);
    top_array(doc, "bufferViews", &c->buf.views);
    if (c->buf.len) {
        gltf_arr(doc, "buffers");
        gltf_obj(doc, NULL);
        gltf_num(doc, "byteLength", (double)c->buf.len);
        if (bin_uri)
            gltf_str(doc, "uri", bin_uri);
        gltf_end(doc);
        gltf_end(doc);
    }
    gltf_end(doc);
}

/* The frames to export: KF3DS_GLTF_FRAMES, else the file's segment. */
static int choose_frames(export_ctx *c)
{
    const export_opts *o = c->o;
    const kf3ds_scene *s = c->s;
    if (o->flags & KF3DS_GLTF_STATIC_FRAME) {
        c->first = c->last = o->user->static_frame;
        return 0;
    }
    if (o->flags & KF3DS_GLTF_FRAMES) {
        c->first = (double)o->user->first_frame;
        c->last = (double)o->user->last_frame;
    } else {
        c->first = s->segment_start;
        c->last = s->segment_end > s->segment_start ? s->segment_end : s->segment_start;
    }
    c->animate = !o->no_animation && s->num_nodes > 0;
    if (!c->animate)
        c->last = c->first;
    if ((c->last - c->first) * o->rate + 1.0 > KF3DS_GLTF_MAX_SAMPLES) {
        c->failed = KF3DS_ERR_LIMIT;
        c->limit = KF3DS_GLTF_LIMIT_FRAMES;
        return -1;
    }
    return 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* The .glb: a 12-byte header, the JSON chunk padded with spaces, the BIN
 * chunk (when there is data) padded with zeros. */
static int make_glb(export_ctx *c, const char *json, size_t json_len, kf3ds_gltf_output *out)
{
    const gltf_buffer *b = &c->buf;
    size_t json_pad = (4 - (json_len & 3)) & 3, bin_pad = (4 - (b->len & 3)) & 3;
    size_t total = 12 + 8 + json_len + json_pad + (b->len ? 8 + b->len + bin_pad : 0), at;
    unsigned char *p;
    if (json_len > 0xFFFFFFFFu || b->len > 0xFFFFFFFFu || total > 0xFFFFFFFFu) {
        c->failed = KF3DS_ERR_LIMIT;
        c->limit = KF3DS_GLTF_LIMIT_GLB_SIZE;
        return -1;
    }
    p = EX_ALLOC(c, total);
    if (!p) {
        c->oom = 1;
        return -1;
    }
    memcpy(p, "glTF", 4);
    put_u32(p + 4, 2);
    put_u32(p + 8, (uint32_t)total);
    put_u32(p + 12, (uint32_t)(json_len + json_pad));
    memcpy(p + 16, "JSON", 4);
    memcpy(p + 20, json, json_len);
    memset(p + 20 + json_len, ' ', json_pad);
    at = 20 + json_len + json_pad;
    if (b->len) {
        put_u32(p + at, (uint32_t)(b->len + bin_pad));
        memcpy(p + at + 4, "BIN\0", 4);
        memcpy(p + at + 8, b->data, b->len);
        memset(p + at + 8 + b->len, 0, bin_pad);
    }
    out->bytes = p;
    out->size = total;
    return 0;
}

/* The document into *out: a .glb, or the .gltf's JSON and the .bin's bytes
 * (handed over from the buffer). */
static int write_output(export_ctx *c, kf3ds_gltf_output *out)
{
    gltf_json doc;
    char *uri = NULL, *text;
    size_t len;
    int r = -1;
    if (!c->o->glb && !(uri = export_uri_encode(c, c->o->user->bin_uri))) {
        c->oom = 1;
        return -1;
    }
    gltf_json_init(&doc, c->al);
    write_document(c, &doc, uri);
    EX_FREE(c, uri);
    if (c->buf.oom || c->oom || doc.oom) {
        c->oom = 1;
    } else if (c->o->glb) {
        text = (char *)gltf_json_text(&doc, &len);
        r = text ? make_glb(c, text, len, out) : -1;
        if (!text)
            c->oom = 1;
    } else {
        text = kf3ds__gltf_json_take(&doc, &len);
        if (!text) {
            c->oom = 1;
        } else {
            out->bytes = text;
            out->size = len;
            if (c->buf.len) {
                out->bin = c->buf.data;
                out->bin_size = c->buf.len;
                c->buf.data = NULL;
                c->buf.len = c->buf.cap = 0;
            }
            r = 0;
        }
    }
    gltf_json_free(&doc);
    return r;
}

static void set_error(kf3ds_diag *error, kf3ds_status code, const char *message)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->code = code;
    error->severity = code == KF3DS_OK ? KF3DS_WARNING : KF3DS_ERROR;
    error->chunk_name = "";
    snprintf(error->message, sizeof error->message, "%s", message);
}

static const char *failure_message(kf3ds_status status, kf3ds_gltf_limit limit)
{
    if (status == KF3DS_ERR_IO)
        return "the image callback stopped the export";
    if (status != KF3DS_ERR_LIMIT)
        return "out of memory";
    if (limit == KF3DS_GLTF_LIMIT_FRAMES)
        return "the frames times the rate are over 1000000 samples";
    if (limit == KF3DS_GLTF_LIMIT_PROPERTY)
        return "one property is over 20000000 samples";
    return "the .glb would be over 4 GiB";
}

/* The options checked, defaults filled in; 0, or -1 with the reason. */
static int read_options(const kf3ds_gltf_options *u, export_opts *o, const char **why)
{
    unsigned f = u ? u->flags : 0;
    memset(o, 0, sizeof *o);
    o->user = u;
    o->flags = f;
    o->fps = u && u->fps != 0.0 ? u->fps : DEFAULT_FPS;
    o->rate = u && u->rate != 0 ? u->rate : 1;
    o->tolerance = u && u->tolerance != 0.0 ? u->tolerance : KF3DS_GLTF_DEFAULT_TOLERANCE;
    o->every_frame = (f & KF3DS_GLTF_EVERY_FRAME) != 0;
    o->linear = (f & KF3DS_GLTF_LINEAR) != 0;
    *why = NULL;
    if (f & ~(unsigned)KNOWN_FLAGS)
        *why = "unknown flags";
    else if (u && (!u->allocator.malloc_fn) != (!u->allocator.free_fn))
        *why = "allocator hooks given in part";
    else if (!(o->fps > 0.0) || o->fps > KF3DS_GLTF_MAX_FPS)
        *why = "fps must be above 0 and at most 100000";
    else if (o->rate < 1 || o->rate > KF3DS_GLTF_MAX_RATE)
        *why = "rate must be 1 to 1000 samples per frame";
    else if (!(o->tolerance >= 1e-9 && o->tolerance <= KF3DS_GLTF_MAX_TOLERANCE))
        *why = "tolerance must be from 1e-9 to 0.1 of the scene's extent";
    else if ((f & KF3DS_GLTF_FRAMES) && u->first_frame > u->last_frame)
        *why = "first_frame is after last_frame";
    else if ((f & KF3DS_GLTF_STATIC_FRAME) && !isfinite(u->static_frame))
        *why = "static_frame must be finite";
    else if ((f & KF3DS_GLTF_STATIC_FRAME) && (f & (KF3DS_GLTF_FRAMES | KF3DS_GLTF_CUBIC)))
        *why = "a static frame takes no frame range and no cubic tracks";
    else if ((f & KF3DS_GLTF_LINEAR) && (f & KF3DS_GLTF_CUBIC))
        *why = "linear keys only take no cubic tracks";
    else if ((f & KF3DS_GLTF_SEPARATE) && !u->bin_uri)
        *why = "a separate .bin needs bin_uri";
    if (*why)
        return -1;
    o->glb = !(f & KF3DS_GLTF_SEPARATE);
    o->embed_images = (f & KF3DS_GLTF_EMBED_IMAGES) != 0;
    o->no_animation = (f & (KF3DS_GLTF_NO_ANIMATION | KF3DS_GLTF_STATIC_FRAME)) != 0;
    o->cubic = (f & KF3DS_GLTF_CUBIC) != 0;
    o->visibility_ext = (f & KF3DS_GLTF_VISIBILITY_EXT) != 0;
    return 0;
}

kf3ds_status kf3ds_gltf_write(const kf3ds_scene *scene, const kf3ds_gltf_options *options,
                              kf3ds_gltf_output *out, kf3ds_diag *error)
{
    kf3ds_allocator al;
    export_opts o;
    export_ctx c;
    const char *why;
    int built;
    kf3ds_status status;
    if (out)
        memset(out, 0, sizeof *out);
    if (!scene || !out) {
        set_error(error, KF3DS_ERR_ARGUMENT, scene ? "no output given" : "no scene given");
        return KF3DS_ERR_ARGUMENT;
    }
    if (read_options(options, &o, &why) != 0) {
        set_error(error, KF3DS_ERR_ARGUMENT, why);
        return KF3DS_ERR_ARGUMENT;
    }
    /* neither hook: the library's default allocator (src/arena.h); hooks
     * given in part were refused by read_options */
    if (kf3ds__allocator_resolve(options ? &options->allocator : NULL, &al)) {
        set_error(error, KF3DS_ERR_ARGUMENT, "no allocator");
        return KF3DS_ERR_ARGUMENT;
    }
    out->allocator_ = al;
    out->summary.fps = o.fps;
    memset(&c, 0, sizeof c);
    c.o = &o;
    c.s = scene;
    c.al = &al;
    c.flags = (o.flags & KF3DS_GLTF_NO_EASE) ? KF3DS_EVAL_NO_EASE : 0;
    ctx_init(&c);
    c.poses = EX_CALLOC(&c, scene->num_nodes ? scene->num_nodes : 1, sizeof *c.poses);
    built = c.poses && choose_frames(&c) == 0;
    out->summary.first_frame = c.first;
    out->summary.last_frame = c.last;
    out->summary.animated = c.animate;
    if (built) {
        export_materials(&c);
        built = !c.failed && !c.oom && export_nodes(&c) == 0 && export_animation(&c) == 0;
    }
    if (built && write_output(&c, out) == 0) {
        out->summary.num_nodes = c.num_nodes;
        out->summary.num_meshes = c.meshes.count;
        out->summary.num_channels = c.anim_channels.count;
        status = KF3DS_OK;
        set_error(error, KF3DS_OK, "");
    } else {
        if (!c.poses)
            c.oom = 1;
        status = c.failed ? c.failed : KF3DS_ERR_NOMEM;
        out->summary.limit = status == KF3DS_ERR_LIMIT ? c.limit : KF3DS_GLTF_LIMIT_NONE;
        set_error(error, status, failure_message(status, c.limit));
        kf3ds__gltf_free(&al, out->bytes);
        kf3ds__gltf_free(&al, out->bin);
        out->bytes = out->bin = NULL;
        out->size = out->bin_size = 0;
    }
    ctx_free(&c);
    return status;
}

void kf3ds_gltf_free(kf3ds_gltf_output *out)
{
    if (!out)
        return;
    if (out->allocator_.free_fn) {
        kf3ds__gltf_free(&out->allocator_, out->bytes);
        kf3ds__gltf_free(&out->allocator_, out->bin);
    }
    out->bytes = out->bin = NULL;
    out->size = out->bin_size = 0;
}
