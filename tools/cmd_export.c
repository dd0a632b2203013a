/* kf3ds export FILE -o OUT.glb|OUT.gltf [options]
 * The scene and its keyframer animation as glTF 2.0 (docs/gltf.md): the
 * verb's options, then the document assembled from the parts the
 * cmd_export_*.c files build, written through tools/gltf_file.c. */
#include "cmd_export.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VERB "export"
#define MAX_BASE_SAMPLES 1000000.0 /* exported frames × --rate */
#define MAX_RATE 1000
#define MAX_FPS 100000.0

/* ---- options ---------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcasecmp(s + n - m, suffix) == 0;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    long v;
    if (!s || !*s)
        return 0;
    v = strtol(s, &end, 10);
    if (*end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* "A:B" with integers A ≤ B. */
static int parse_frames(const char *s, long *a, long *b)
{
    char buf[64];
    const char *colon = strchr(s, ':');
    size_t n;
    if (!colon || (n = (size_t)(colon - s)) >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return parse_int(buf, -2000000000L, 2000000000L, a) &&
           parse_int(colon + 1, -2000000000L, 2000000000L, b) && *a <= *b;
}

static int parse_options(int argc, char **argv, export_opts *o)
{
    cli_args a;
    int r;
    memset(o, 0, sizeof *o);
    o->fps = 30.0;
    o->rate = 1;
    cli_args_begin(&a, VERB, argc, argv);
    while ((r = cli_next_option(&a)) > 0) {
        const char *opt = cli_option(&a), *value = NULL;
        int v;
        long l;
        if ((v = cli_option_value(&a, "-o", &value)) != 0 ||
            (v = cli_option_value(&a, "--output", &value)) != 0) {
            if (v < 0)
                return cli_usage_error(VERB, "-o needs a file name (OUT.glb or OUT.gltf)");
            o->out = value;
        } else if ((v = cli_option_value(&a, "--fps", &value)) != 0) {
            if (v < 0 || !cli_parse_frame(value, &o->fps) || !(o->fps > 0.0) || o->fps > MAX_FPS)
                return cli_usage_error(VERB, "--fps needs a number above 0 (at most 100000)");
            o->has_fps = 1;
        } else if ((v = cli_option_value(&a, "--rate", &value)) != 0) {
            if (v < 0 || !parse_int(value, 1, MAX_RATE, &l))
                return cli_usage_error(VERB, "--rate needs a whole number of samples per frame "
                                             "from 1 to %d", MAX_RATE);
            o->rate = (int)l;
            o->has_rate = 1;
        } else if ((v = cli_option_value(&a, "--frames", &value)) != 0) {
            if (v < 0 || !parse_frames(value, &o->first, &o->last))
                return cli_usage_error(VERB, "--frames needs A:B, whole frames with A <= B");
            o->has_frames = 1;
        } else if ((v = cli_option_value(&a, "--static-frame", &value)) != 0) {
            if (v < 0 || !cli_parse_frame(value, &o->static_frame))
                return cli_usage_error(VERB, "--static-frame needs a finite number");
            o->has_static_frame = 1;
        } else if (strcmp(opt, "--no-animation") == 0) {
            o->no_animation = 1;
        } else if (strcmp(opt, "--cubic") == 0) {
            o->cubic = 1;
        } else if (strcmp(opt, "--visibility-ext") == 0) {
            o->visibility_ext = 1;
        } else if (strcmp(opt, "--embed-images") == 0) {
            o->embed_images = 1;
        } else if (strcmp(opt, "--no-ease") == 0) {
            o->no_ease = 1;
        } else if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            o->quiet = 1;
            cli_set_quiet(1);
        } else {
            return cli_unknown_option(&a);
        }
    }
    if (r < 0)
        return CLI_EXIT_USAGE;
    o->file = a.file;
    if (!o->out)
        return cli_usage_error(VERB, "no output given: -o OUT.glb (or OUT.gltf)");
    /* Standard output takes the one-file .glb; a .gltf has its .bin beside
     * it, which has no place there. */
    if (ends_with(o->out, ".glb") || cli_is_stdout(o->out))
        o->glb = 1;
    else if (!ends_with(o->out, ".gltf"))
        return cli_usage_error(VERB, "-o '%s': the name must end in .glb or .gltf", o->out);
    if (o->has_static_frame && (o->has_frames || o->cubic || o->has_rate))
        return cli_usage_error(VERB, "--static-frame exports one pose: it takes no --frames, "
                                     "--rate or --cubic");
    if (o->has_static_frame)
        o->no_animation = 1;
    return cli_check_output(VERB, "-o", o->out, "glTF (.glb)");
}

/* ---- the document -------------------------------------------------------------- */

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
    gltf_buffer_init(&c->buf);
    for (i = 0; i < NUM_FRAGMENTS; i++)
        gltf_json_init(f[i]);
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
    free(c->nodes);
    free(c->props);
    free(c->node_gltf);
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

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void write_asset(export_ctx *c, gltf_json *doc)
{
    const kf3ds_scene *s = c->s;
    gltf_obj(doc, "asset");
    gltf_str(doc, "version", "2.0");
    gltf_str(doc, "generator", "kf3ds " KF3DS_VERSION_STRING);
    gltf_obj(doc, "extras");
    gltf_obj(doc, "kf3ds");
    gltf_str(doc, "file", base_name(c->o->file));
    gltf_num(doc, "fps", c->o->fps);
    gltf_num(doc, "segment_start", c->first);
    gltf_num(doc, "segment_end", c->last);
    if (!c->animate)
        gltf_num(doc, "static_frame", c->first);
    else
        gltf_int(doc, "samples_per_frame", c->o->rate);
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
    gltf_str(doc, "name", base_name(c->o->file));
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

/* OUT.gltf's buffer file: OUT.bin beside it. */
static char *bin_path_for(const char *out)
{
    size_t n = strlen(out) - 5; /* ".gltf" */
    char *p = malloc(n + 5);
    if (p) {
        memcpy(p, out, n);
        memcpy(p + n, ".bin", 5);
    }
    return p;
}

static int write_output(export_ctx *c)
{
    gltf_json doc;
    const char *text;
    size_t len;
    char *bin = c->o->glb ? NULL : bin_path_for(c->o->out);
    char uri[1024];
    int r = -1;
    if (!c->o->glb && (!bin || !export_uri_encode(base_name(bin), uri, sizeof uri))) {
        free(bin);
        cli_print_error(c->o->out, "cannot write: the name is too long");
        return -1;
    }
    gltf_json_init(&doc);
    write_document(c, &doc, c->o->glb ? NULL : uri);
    text = gltf_json_text(&doc, &len);
    if (!text || c->buf.oom || c->oom) {
        cli_print_error(c->o->file, "export: out of memory");
    } else if (c->o->glb) {
        r = gltf_write_glb(c->o->out, text, len, &c->buf);
    } else {
        r = gltf_write_gltf(c->o->out, text, len, bin, &c->buf);
    }
    gltf_json_free(&doc);
    free(bin);
    return r;
}

/* The frames to export: --frames, else the file's segment. */
static int choose_frames(export_ctx *c)
{
    const export_opts *o = c->o;
    const kf3ds_scene *s = c->s;
    if (o->has_static_frame) {
        c->first = c->last = o->static_frame;
        return 0;
    }
    if (o->has_frames) {
        c->first = (double)o->first;
        c->last = (double)o->last;
    } else {
        c->first = s->segment_start;
        c->last = s->segment_end > s->segment_start ? s->segment_end : s->segment_start;
    }
    c->animate = !o->no_animation && s->num_nodes > 0;
    if (!c->animate)
        c->last = c->first;
    if ((c->last - c->first) * o->rate + 1.0 > MAX_BASE_SAMPLES) {
        cli_print_error(o->file, "export: frames %.0f..%.0f at %d samples per frame are over "
                                 "%.0f samples; choose fewer with --frames A:B",
                        c->first, c->last, o->rate, MAX_BASE_SAMPLES);
        return -1;
    }
    return 0;
}

static int run_export(const export_opts *o)
{
    cli_scene cs;
    export_ctx c;
    int status = cli_scene_load(&cs, o->file), built;
    if (status)
        return status;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.s = cs.scene;
    c.poses = cs.poses;
    c.flags = o->no_ease ? KF3DS_EVAL_NO_EASE : 0;
    ctx_init(&c);
    built = choose_frames(&c) == 0;
    if (built) {
        export_materials(&c);
        built = export_nodes(&c) == 0 && export_animation(&c) == 0;
        if (!built && !c.failed)
            cli_print_error(o->file, "export: out of memory");
    }
    if (built && write_output(&c) == 0) {
        if (!o->quiet && !cli_is_stdout(o->out)) {
            printf("wrote %s (%lu %s, %lu %s, %lu %s", o->out, (unsigned long)c.num_nodes,
                   cli_plural(c.num_nodes, "node", "nodes"), (unsigned long)c.meshes.count,
                   cli_plural(c.meshes.count, "mesh", "meshes"),
                   (unsigned long)c.anim_channels.count,
                   cli_plural(c.anim_channels.count, "animation channel", "animation channels"));
            if (c.animate)
                printf(", frames %.0f..%.0f at %g fps", c.first, c.last, o->fps);
            else
                printf(", the pose at frame %g", c.first);
            printf(")\n");
        }
    } else {
        built = 0;
    }
    status = cli_report_load(o->file, cs.scene, &cs.error);
    ctx_free(&c);
    cli_scene_free(&cs);
    return built ? status : CLI_EXIT_INPUT;
}

static int cmd_export(int argc, char **argv)
{
    export_opts o;
    int status = parse_options(argc, argv, &o);
    return status ? status : run_export(&o);
}

const cli_verb cmd_export_verb = {
    "export",
    cmd_export,
    "export FILE -o OUT.glb|OUT.gltf [--frames A:B] [--fps N] [--rate N] [--cubic]\n"
    "       [--no-animation] [--static-frame F] [--visibility-ext] [--embed-images]\n"
    "       [--no-ease] [-q]",
    "Write the scene and its animation as glTF 2.0.",
    "Options:\n"
    "  -o, --output OUT   the glTF file: OUT.glb (binary, one file) or OUT.gltf (JSON\n"
    "                     with OUT.bin beside it); - is standard output, as .glb\n"
    "  --frames A:B       export frames A to B (whole numbers; default: the file's\n"
    "                     segment); glTF time t = (frame - A) / fps\n"
    "  --fps N            frames per second of the glTF timeline (default 30)\n"
    "  --rate N           samples per frame of the sampled channels (default 1)\n"
    "  --cubic            position and scale tracks without ease as CUBICSPLINE (exact\n"
    "                     at every time); the rest stays sampled\n"
    "  --no-animation     no animation: the pose at the first frame\n"
    "  --static-frame F   no animation: the pose at frame F (any finite number)\n"
    "  --visibility-ext   hide nodes with KHR_node_visibility instead of scale 0\n"
    "  --embed-images     put the texture images into the output (else they are\n"
    "                     referenced by a relative URI)\n"
    "  --no-ease          ignore ease-to/ease-from, as kf3ds eval --no-ease\n"
    "  -q, --quiet        no summary line, no warnings\n"
    "\n"
    "The glTF scene's root node turns 3DS's Z-up into glTF's Y-up; below it one node\n"
    "per keyframer node with \"extras\": {\"kf3ds_index\": I} (I as in kf3ds eval), its\n"
    "own position, rotation and scale, its mesh in its own space. Rotations are\n"
    "sampled LINEAR at every frame, with extra samples so that no two are more than\n"
    "90 degrees apart; hiding and morphing are STEP channels; camera FOV and light\n"
    "colour and cones use KHR_animation_pointer. docs/gltf.md has the whole mapping.\n"
    "On success prints one line: wrote OUT (N nodes, M meshes, K animation channels, ...).\n",
};
