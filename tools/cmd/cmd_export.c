/* kf3ds export FILE -o OUT.glb|OUT.gltf [options]
 * The scene and its keyframer animation as glTF 2.0 (docs/gltf.md): the
 * verb's options, the texture images found beside the input for the
 * library's image callback, the export itself by kf3ds_gltf_write
 * (src/gltf/, include/kf3ds_gltf.h), and the file or files written. */
#define _XOPEN_SOURCE 700
#include "cmd.h"
#include "cmd_maps.h"
#include "cmd_static.h"
#include "kf3ds_gltf.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VERB "export"
#define MAX_RATE KF3DS_GLTF_MAX_RATE
#define MAX_FPS KF3DS_GLTF_MAX_FPS

typedef struct export_opts {
    const char *file, *out;
    int glb;                  /* OUT ends in .glb */
    int static_fmt, stl;      /* OUT ends in .obj or .stl (cmd_export_static.c) */
    int embed_images, no_animation, cubic, visibility_ext, no_ease, quiet;
    int has_static_frame, has_frames, has_fps, has_rate;
    int every_frame, has_tolerance, linear;
    double tolerance;         /* --tolerance: fraction of the scene's extent */
    double static_frame;
    long first, last;         /* --frames A:B */
    double fps;
    int rate;                 /* samples per frame */
} export_opts;

/* ---- options ---------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcasecmp(s + n - m, suffix) == 0;
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
            if (v < 0 || !cli_parse_long(value, 1, MAX_RATE, &l))
                return cli_usage_error(VERB, "--rate needs a whole number of samples per frame "
                                             "from 1 to %d", MAX_RATE);
            o->rate = (int)l;
            o->has_rate = 1;
        } else if ((v = cli_option_value(&a, "--frames", &value)) != 0) {
            if (v < 0 || !cli_parse_frames(value, &o->first, &o->last, NULL))
                return cli_usage_error(VERB, "--frames needs A:B, whole frames with A <= B");
            o->has_frames = 1;
        } else if ((v = cli_option_value(&a, "--static-frame", &value)) != 0 ||
                   (v = cli_option_value(&a, "--frame", &value)) != 0) {
            if (v < 0 || !cli_parse_frame(value, &o->static_frame))
                return cli_usage_error(VERB, "--static-frame needs a finite number");
            o->has_static_frame = 1;
        } else if (strcmp(opt, "--no-animation") == 0) {
            o->no_animation = 1;
        } else if ((v = cli_option_value(&a, "--tolerance", &value)) != 0) {
            if (v < 0 || !cli_parse_frame(value, &o->tolerance) || !(o->tolerance >= 1e-9) ||
                o->tolerance > KF3DS_GLTF_MAX_TOLERANCE)
                return cli_usage_error(VERB, "--tolerance needs a fraction of the scene's extent "
                                             "from 1e-9 to 0.1 (default 1e-5)");
            o->has_tolerance = 1;
        } else if (strcmp(opt, "--every-frame") == 0) {
            o->every_frame = 1;
        } else if (strcmp(opt, "--linear") == 0) {
            o->linear = 1;
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
    else if (cli_static_format(o->out, &o->stl))
        o->static_fmt = 1;
    else if (!ends_with(o->out, ".gltf"))
        return cli_usage_error(VERB, "-o '%s': the name must end in .glb, .gltf, .obj or .stl",
                               o->out);
    if (o->static_fmt && (o->has_frames || o->cubic || o->has_rate || o->has_fps ||
                          o->embed_images || o->visibility_ext))
        return cli_usage_error(VERB, "-o '%s': OBJ and STL hold one pose without animation: "
                                     "give --frame F, not --frames, --fps, --rate, --cubic, "
                                     "--embed-images or --visibility-ext", o->out);
    if (o->has_static_frame && (o->has_frames || o->cubic || o->has_rate))
        return cli_usage_error(VERB, "--static-frame exports one pose: it takes no --frames, "
                                     "--rate or --cubic");
    if (o->every_frame && o->has_tolerance)
        return cli_usage_error(VERB, "--every-frame keeps a key at every frame: it takes no "
                                     "--tolerance");
    if (o->linear && o->cubic)
        return cli_usage_error(VERB, "--linear writes LINEAR keys only: it takes no --cubic");
    if (o->has_static_frame)
        o->no_animation = 1;
    return cli_check_output(VERB, "-o", o->out, "glTF (.glb)");
}

/* ---- texture images -------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The folder of a path, without its last slash ("." for a bare name, "/"
 * for the root), into buf. */
static void dir_of(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (n == 0 || n >= cap) {
        snprintf(buf, cap, ".");
        return;
    }
    memcpy(buf, path, n);
    buf[n] = '\0';
}

/* 1 when `s` percent-encoded for a URI (unreserved characters and '/'
 * kept, as the library encodes it) fits in cap bytes with its NUL. */
static int uri_fits(const char *s, size_t cap)
{
    size_t n = 0;
    const unsigned char *p;
    for (p = (const unsigned char *)s; *p; p++) {
        if (n + 4 >= cap)
            return 0;
        n += (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                     *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/'
                 ? 1
                 : 3;
    }
    return 1;
}

/* The relative path from folder `from` to file `to` (both made absolute);
 * 0 when it cannot be made (or is too long for a URI). */
static int relative_path(const char *from, const char *to, char *out, size_t cap)
{
    char a[PATH_MAX], b[PATH_MAX];
    const char *pa, *pb, *p;
    size_t n = 0, common = 0, i;
    if (!realpath(from, a) || !realpath(to, b))
        return 0;
    /* The longest common prefix that ends at a folder boundary. */
    for (i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/')
            common = i + 1;
    if (a[i] == '\0' && b[i] == '/')
        common = i + 1;
    /* (when `to` is inside `from`, common is past a's NUL: nothing is left of a) */
    pa = common > strlen(a) ? a + strlen(a) : a + common;
    pb = b + common;
    for (p = pa; *p;) { /* one "../" per folder left in `from` */
        if (n + 4 >= cap)
            return 0;
        memcpy(out + n, "../", 3);
        n += 3;
        while (*p && *p != '/')
            p++;
        while (*p == '/')
            p++;
    }
    if (!uri_fits(pb, cap - n))
        return 0;
    snprintf(out + n, cap - n, "%s", pb);
    return 1;
}

/* A map re-encoded as PNG: its bytes, and where it goes beside the output
 * when the output refers to images by URI (written once the export succeeded). */
typedef struct png_copy {
    char *path;               /* NULL when embedded */
    unsigned char *data;
    size_t size;
} png_copy;

/* What the image callback keeps between calls. */
typedef struct image_finder {
    const export_opts *o;
    char in_dir[PATH_MAX], out_dir[PATH_MAX];
    char path[PATH_MAX];      /* the last map found, for the warning about it */
    char uri[3 * PATH_MAX];
    unsigned char *data;      /* its bytes, until the next call */
    png_copy *pngs;           /* the maps re-encoded as PNG, until the end */
    size_t num_pngs;
    int failed;               /* out of memory: the export is stopped */
} image_finder;

/* 1 when the bytes are PNG or JPEG, which glTF holds as they are. */
static int gltf_image_bytes(const unsigned char *b, size_t n)
{
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };
    return (n >= 8 && memcmp(b, png, 8) == 0) ||
           (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF);
}

static void map_warning(const image_finder *f, const char *what)
{
    if (f->o->quiet)
        return;
    fflush(stdout);
    fputs("kf3ds: warning: ", stderr);
    cli_text_cstr(stderr, f->o->file);
    fputs(": texture map '", stderr);
    cli_text_cstr(stderr, f->path);
    fprintf(stderr, "' %s; left out\n", what);
}

/* The picture at f->path (BMP, TGA, TIF, GIF, PCX, an Animator CEL/PIC:
 * whatever image_load reads) as PNG (docs/gltf.md, "Materials"): embedded,
 * or NAME.png beside the output (NAME the map's file name as found). */
static int reencode(image_finder *f, kf3ds_gltf_image *image)
{
    cel_picture pic;
    char why[300];
    unsigned char *png = NULL;
    size_t size = 0;
    png_copy *list, *c;
    const char *name = base_name(f->path);
    int uri = !f->o->embed_images;
    if (uri && cli_is_stdout(f->o->out)) {
        map_warning(f, "is neither PNG nor JPEG and its PNG copy has no place beside standard "
                       "output (use --embed-images)");
        return KF3DS_GLTF_IMAGE_SKIP;
    }
    if (image_load(f->path, &pic, why, sizeof why) != 0) {
        char what[400];
        snprintf(what, sizeof what, "is neither PNG nor JPEG and cannot be decoded (%s)", why);
        map_warning(f, what);
        return KF3DS_GLTF_IMAGE_SKIP;
    }
    if (cli_encode_png(pic.pixels, pic.width, pic.height, &png, &size, why, sizeof why) != 0) {
        char what[400];
        free(pic.pixels);
        snprintf(what, sizeof what, "cannot be re-encoded as PNG (%s)", why);
        map_warning(f, what);
        return KF3DS_GLTF_IMAGE_SKIP;
    }
    free(pic.pixels);
    list = realloc(f->pngs, (f->num_pngs + 1) * sizeof *list);
    if (!list) {
        free(png);
        f->failed = 1;
        return -1;
    }
    f->pngs = list;
    c = &list[f->num_pngs++];
    c->data = png;
    c->size = size;
    c->path = NULL;
    image->data = png;
    image->size = size;
    image->uri = NULL;
    if (uri) {
        size_t n = strlen(f->out_dir) + strlen(name) + 6;
        c->path = malloc(n);
        if (!c->path) {
            f->failed = 1;
            return -1;
        }
        snprintf(c->path, n, "%s/%s.png", f->out_dir, name);
        /* beside the output: the URI is the file's own name */
        snprintf(f->uri, sizeof f->uri, "%s.png", name);
        image->uri = uri_fits(f->uri, 1024) ? f->uri : NULL;
    }
    return KF3DS_GLTF_IMAGE_FOUND;
}

/* kf3ds_gltf_image_fn: the map beside the input file, read whole; PNG and
 * JPEG as they are, other formats re-encoded as PNG. */
static int find_image(void *user, const char *name, kf3ds_gltf_image *image)
{
    image_finder *f = user;
    size_t size = 0;
    char *found;
    free(f->data);
    f->data = NULL;
    f->path[0] = '\0';
    /* the input's folder only, not --maps or KF3DS_MAPS (docs/gltf.md) */
    found = map_find_in(f->in_dir, name);
    if (!found || strlen(found) >= sizeof f->path) {
        free(found);
        return KF3DS_GLTF_IMAGE_MISSING;
    }
    /* (named as the file names it: "brick.bmp", not "./brick.bmp") */
    snprintf(f->path, sizeof f->path, "%s", strncmp(found, "./", 2) == 0 ? found + 2 : found);
    free(found);
    if (cli_read_file(f->path, &f->data, &size) != CLI_EXIT_OK) {
        f->data = NULL;
        return KF3DS_GLTF_IMAGE_SKIP; /* cli_read_file said why */
    }
    if (!gltf_image_bytes(f->data, size))
        return reencode(f, image);
    image->data = f->data;
    image->size = size;
    image->uri = !f->o->embed_images && relative_path(f->out_dir, f->path, f->uri, sizeof f->uri)
                     ? f->uri
                     : NULL;
    return KF3DS_GLTF_IMAGE_FOUND;
}

/* Writes the PNG copies beside the output: 0, or -1 (printed). */
static int write_png_copies(const image_finder *f)
{
    size_t i;
    for (i = 0; i < f->num_pngs; i++)
        if (f->pngs[i].path && cli_write_output(f->pngs[i].path, f->pngs[i].data,
                                                f->pngs[i].size) != 0)
            return -1;
    return 0;
}

static void free_png_copies(image_finder *f)
{
    size_t i;
    for (i = 0; i < f->num_pngs; i++) {
        free(f->pngs[i].path);
        free(f->pngs[i].data);
    }
    free(f->pngs);
}

/* kf3ds_gltf_warning_fn: the warnings as the command words them. */
static void print_warning(void *user, const kf3ds_gltf_warning *w)
{
    image_finder *f = user;
    if (f->o->quiet)
        return;
    if (w->kind == KF3DS_GLTF_WARN_MAP_MISSING)
        fprintf(stderr, "kf3ds: warning: %s: texture map '%s' not found beside the file; "
                        "left out\n", f->o->file, w->map);
    else if (w->kind == KF3DS_GLTF_WARN_MAP_TYPE)
        fprintf(stderr, "kf3ds: warning: %s: texture map '%s' is neither PNG nor JPEG, "
                        "which glTF requires; left out\n", f->o->file, f->path);
    else
        fprintf(stderr, "kf3ds: warning: %s: %s\n", f->o->file, w->message);
}

/* ---- the export ------------------------------------------------------------ */

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

/* The library's failure in the command's words. */
static void print_failure(const export_opts *o, kf3ds_status st, const kf3ds_gltf_output *g)
{
    if (st == KF3DS_ERR_LIMIT && g->summary.limit == KF3DS_GLTF_LIMIT_FRAMES)
        cli_print_error(o->file, "export: frames %.0f..%.0f at %d samples per frame are over "
                                 "%.0f samples; choose fewer with --frames A:B",
                        g->summary.first_frame, g->summary.last_frame, o->rate,
                        KF3DS_GLTF_MAX_SAMPLES);
    else if (st == KF3DS_ERR_LIMIT && g->summary.limit == KF3DS_GLTF_LIMIT_PROPERTY)
        cli_print_error(o->file, "export: over %u samples for one property; "
                                 "export fewer frames (--frames A:B) or a lower --rate",
                        KF3DS_GLTF_MAX_PROPERTY_SAMPLES);
    else if (st == KF3DS_ERR_LIMIT && g->summary.limit == KF3DS_GLTF_LIMIT_GLB_SIZE)
        cli_print_error(o->out, "cannot write: the export is over 4 GB, too big for a .glb "
                                "(write a .gltf instead)");
    else if (st == KF3DS_ERR_NOMEM)
        cli_print_error(o->file, "export: out of memory");
    else
        cli_print_error(o->file, "export: %s", kf3ds_status_string(st));
}

/* OUT.gltf and OUT.bin: OUT.gltf opened first, so that an unwritable OUT is
 * reported by its own name; it is renamed into place only once OUT.bin is
 * complete. */
static int write_gltf(const char *path, const kf3ds_gltf_output *g, const char *bin_path)
{
    cli_output out;
    if (cli_output_open(&out, path) != 0)
        return -1;
    cli_output_write(&out, g->bytes, g->size);
    if (g->bin_size && cli_write_output(bin_path, g->bin, g->bin_size) != 0) {
        cli_output_abort(&out);
        return -1;
    }
    if (cli_output_close(&out) != 0) {
        if (g->bin_size)
            remove(bin_path);
        return -1;
    }
    return 0;
}

static int run_export(const export_opts *o)
{
    cli_scene cs;
    kf3ds_gltf_options go;
    kf3ds_gltf_output g;
    kf3ds_status st;
    image_finder *finder;
    char *bin = NULL;
    int status = cli_scene_load(&cs, o->file), built = 0;
    if (status)
        return status;
    finder = calloc(1, sizeof *finder);
    if (!finder) {
        cli_print_error(o->file, "export: out of memory");
        cli_report_load(o->file, cs.scene, &cs.error);
        cli_scene_free(&cs);
        return CLI_EXIT_INPUT;
    }
    finder->o = o;
    dir_of(strcmp(o->file, "-") == 0 ? "" : o->file, finder->in_dir, sizeof finder->in_dir);
    dir_of(o->out, finder->out_dir, sizeof finder->out_dir);
    if (!o->glb)
        bin = bin_path_for(o->out);
    memset(&go, 0, sizeof go);
    go.flags = (o->glb ? 0 : KF3DS_GLTF_SEPARATE) |
               (o->no_animation ? KF3DS_GLTF_NO_ANIMATION : 0) |
               (o->has_static_frame ? KF3DS_GLTF_STATIC_FRAME : 0) |
               (o->has_frames ? KF3DS_GLTF_FRAMES : 0) | (o->cubic ? KF3DS_GLTF_CUBIC : 0) |
               (o->visibility_ext ? KF3DS_GLTF_VISIBILITY_EXT : 0) |
               (o->no_ease ? KF3DS_GLTF_NO_EASE : 0) |
               (o->embed_images ? KF3DS_GLTF_EMBED_IMAGES : 0) |
               (o->every_frame ? KF3DS_GLTF_EVERY_FRAME : 0) |
               (o->linear ? KF3DS_GLTF_LINEAR : 0);
    go.tolerance = o->tolerance;
    go.bin_uri = bin ? base_name(bin) : "";
    go.file_name = base_name(o->file);
    go.static_frame = o->static_frame;
    go.first_frame = (int32_t)o->first;
    go.last_frame = (int32_t)o->last;
    go.fps = o->fps;
    go.rate = o->rate;
    go.image = find_image;
    go.image_user = finder;
    go.warning = print_warning;
    go.warning_user = finder;
    st = kf3ds_gltf_write(cs.scene, &go, &g, NULL);
    free(finder->data);
    finder->data = NULL;
    if (st != KF3DS_OK && finder->failed) {
        cli_print_error(o->file, "export: out of memory");
    } else if (st != KF3DS_OK) {
        print_failure(o, st, &g);
    } else if (!o->glb && (!bin || !uri_fits(base_name(bin), 1024))) {
        cli_print_error(o->out, "cannot write: the name is too long");
    } else if ((o->glb ? cli_write_output(o->out, g.bytes, g.size)
                       : write_gltf(o->out, &g, bin)) == 0 &&
               write_png_copies(finder) == 0) {
        built = 1;
        if (!o->quiet && !cli_is_stdout(o->out)) {
            const kf3ds_gltf_summary *s = &g.summary;
            printf("wrote %s (%lu %s, %lu %s, %lu %s", o->out, (unsigned long)s->num_nodes,
                   cli_plural(s->num_nodes, "node", "nodes"), (unsigned long)s->num_meshes,
                   cli_plural(s->num_meshes, "mesh", "meshes"), (unsigned long)s->num_channels,
                   cli_plural(s->num_channels, "animation channel", "animation channels"));
            if (s->animated)
                printf(", frames %.0f..%.0f at %g fps", s->first_frame, s->last_frame, o->fps);
            else
                printf(", the pose at frame %g", s->first_frame);
            if (finder->num_pngs)
                printf(", %lu %s re-encoded as PNG", (unsigned long)finder->num_pngs,
                       cli_plural(finder->num_pngs, "map", "maps"));
            printf(")\n");
        }
    }
    free_png_copies(finder);
    free(finder);
    kf3ds_gltf_free(&g);
    free(bin);
    status = cli_report_load(o->file, cs.scene, &cs.error);
    cli_scene_free(&cs);
    return built ? status : CLI_EXIT_INPUT;
}

static int cmd_export(int argc, char **argv)
{
    export_opts o;
    int status = parse_options(argc, argv, &o);
    if (!status && o.static_fmt) {
        cli_static_opts so;
        memset(&so, 0, sizeof so);
        so.file = o.file;
        so.out = o.out;
        so.stl = o.stl;
        so.has_frame = o.has_static_frame;
        so.frame = o.static_frame;
        so.no_ease = o.no_ease;
        so.quiet = o.quiet;
        return cli_static_export(&so, NULL);
    }
    return status ? status : run_export(&o);
}

const cli_verb cmd_export_verb = {
    "export",
    cmd_export,
    "export FILE -o OUT.glb|OUT.gltf|OUT.obj|OUT.stl [--frames A:B] [--fps N] [--rate N]\n"
    "       [--cubic] [--tolerance T | --every-frame] [--linear] [--no-animation]\n"
    "       [--static-frame F|--frame F] [--visibility-ext] [--embed-images] [--no-ease] [-q]",
    "Write the scene and its animation as glTF 2.0, or one pose as OBJ or STL.",
    "Options:\n"
    "  -o, --output OUT   the glTF file: OUT.glb (binary, one file) or OUT.gltf (JSON\n"
    "                     with OUT.bin beside it); - is standard output, as .glb;\n"
    "                     OUT.obj (with OUT.mtl beside it) or OUT.stl (binary): the\n"
    "                     pose at one frame, without animation (docs/static.md)\n"
    "  --frames A:B       export frames A to B (whole numbers; default: the file's\n"
    "                     segment); glTF time t = (frame - A) / fps\n"
    "  --fps N            frames per second of the glTF timeline (default 30)\n"
    "  --rate N           samples per frame of the sampled channels (default 1)\n"
    "  --tolerance T      keys are chosen so that the animation stays within T of the\n"
    "                     scene's extent at every instant (default 1e-5)\n"
    "  --every-frame      a key at every sample instead (the export before resampling)\n"
    "  --linear           resampled with LINEAR (and STEP) keys only, for readers that\n"
    "                     drop CUBICSPLINE tangents (Blender 3.4's importer): within T\n"
    "                     at every instant, but may have more keys than --every-frame\n"
    "  --cubic            position and scale tracks without ease as CUBICSPLINE (exact\n"
    "                     at every time); the rest stays sampled\n"
    "  --no-animation     no animation: the pose at the first frame\n"
    "  --static-frame F, --frame F\n"
    "                     no animation: the pose at frame F (any finite number; for\n"
    "                     OBJ and STL the default is the segment's first frame)\n"
    "  --visibility-ext   hide nodes with KHR_node_visibility instead of scale 0\n"
    "  --embed-images     put the texture images into the output (else they are\n"
    "                     referenced by a relative URI); maps glTF cannot hold (BMP,\n"
    "                     TGA, TIF, GIF, PCX, CEL) are re-encoded as PNG, embedded or\n"
    "                     written beside OUT as NAME.png\n"
    "  --no-ease          ignore ease-to/ease-from, as kf3ds eval --no-ease\n"
    "  -q, --quiet        no summary line, no warnings\n"
    "\n"
    "The glTF scene's root node turns 3DS's Z-up into glTF's Y-up; below it one node\n"
    "per keyframer node with \"extras\": {\"kf3ds_index\": I} (I as in kf3ds eval), its\n"
    "own position, rotation and scale, its mesh in its own space. Every animated\n"
    "property is sampled at every frame (and wherever a rotation turns fast), then\n"
    "resampled: LINEAR or CUBICSPLINE keys, as few as keep it within T of kf3ds's own\n"
    "evaluation at every instant, the file never more keys in total than one per\n"
    "sample (--linear: LINEAR only, without that cap; --every-frame: every sample a\n"
    "LINEAR key). Hiding and morphing are STEP channels; camera FOV and light colour\n"
    "and cones use KHR_animation_pointer. docs/gltf.md has the whole mapping.\n"
    "On success prints one line: wrote OUT (N nodes, M meshes, K animation channels, ...).\n",
};
