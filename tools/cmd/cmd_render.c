/* kf3ds render FILE -o OUT.png [options]
 * Renders frames of the animation headless with the library's software
 * rasterizer and writes them as PNG (cmd_png.c): one frame, a numbered
 * sequence (--frames), or a contact sheet (--sheet). */
#include "cmd_maps.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VERB "render"
#define DEFAULT_W 640
#define DEFAULT_H 480
#define SHEET_CELL_W 200
#define SHEET_CELL_H 150
#define MAX_SIDE 16384                 /* pixels, either side of any picture */
#define MAX_PIXELS (32L * 1024 * 1024) /* per picture: 256 MB of colour + depth */
#define MAX_SHEET_CELLS 64             /* per side of a sheet */
#define MAX_SEQUENCE 1000000L          /* pictures of one --frames run */
#define ORBIT_FOV 45.0f
#define DEFAULT_AZIMUTH 35.0f
#define DEFAULT_ELEVATION 25.0f
#define SHEET_RULE 0xFF101010u

/* An output pattern "out_%04d.png": text before and after one frame-number
 * conversion, with "%%" already turned into "%". */
typedef struct out_pattern {
    char *prefix, *suffix;
    int zero_width;        /* N of %0Nd, 0 for %d */
} out_pattern;

typedef struct render_opts {
    const char *file, *out;
    double frame;
    int has_frame;
    int has_frames;
    long first, last, step;    /* --frames A:B:STEP */
    int sheet_cols, sheet_rows; /* --sheet, 0 when absent */
    int width, height, has_size;
    const char *camera;
    float azimuth, elevation;
    int has_orbit;
    kf3ds_shading shading;
    unsigned overlays;
    int no_ease, no_label, quiet, cull, no_textures, no_environment;
    map_search maps;           /* the --maps folders */
    out_pattern pattern;
} render_opts;

/* ---- option values ------------------------------------------------------ */

/* Parses an output pattern: exactly one %d or %0Nd (N 1..9), "%%" for a
 * literal percent sign, no other conversion. Returns 0 with a reason. */
static int parse_pattern(const char *s, out_pattern *pat, const char **why)
{
    size_t len = strlen(s), i, n = 0;
    char *buf = malloc(len + 1);
    int found = 0;
    size_t split = 0;
    pat->prefix = pat->suffix = NULL;
    pat->zero_width = 0;
    if (!buf) {
        *why = "out of memory";
        return 0;
    }
    for (i = 0; i < len; i++) {
        if (s[i] != '%') {
            buf[n++] = s[i];
            continue;
        }
        if (s[i + 1] == '%') {
            buf[n++] = '%';
            i++;
            continue;
        }
        if (found) {
            free(buf);
            *why = "has more than one %d conversion";
            return 0;
        }
        if (s[i + 1] == 'd') {
            i += 1;
        } else if (s[i + 1] == '0' && s[i + 2] >= '1' && s[i + 2] <= '9' && s[i + 3] == 'd') {
            pat->zero_width = s[i + 2] - '0';
            i += 3;
        } else {
            free(buf);
            *why = "may only contain %d or %0Nd (N 1-9) once, and %% for a percent sign";
            return 0;
        }
        found = 1;
        split = n;
    }
    buf[n] = '\0';
    if (!found) {
        free(buf);
        *why = "needs a %d or %0Nd for the frame number (e.g. out_%04d.png)";
        return 0;
    }
    pat->suffix = malloc(n - split + 1);
    if (!pat->suffix) {
        free(buf);
        *why = "out of memory";
        return 0;
    }
    memcpy(pat->suffix, buf + split, n - split + 1);
    buf[split] = '\0';
    pat->prefix = buf;
    return 1;
}

/* The file name of frame `number`; NULL when out of memory. Free it. */
static char *pattern_path(const out_pattern *pat, long number)
{
    char num[32];
    size_t a, b;
    char *p;
    snprintf(num, sizeof num, "%0*ld", pat->zero_width, number);
    a = strlen(pat->prefix);
    b = strlen(num);
    p = malloc(a + b + strlen(pat->suffix) + 1);
    if (!p)
        return NULL;
    memcpy(p, pat->prefix, a);
    memcpy(p + a, num, b);
    strcpy(p + a + b, pat->suffix);
    return p;
}

/* ---- rendering ----------------------------------------------------------- */

typedef struct render_ctx {
    const render_opts *o;
    const kf3ds_scene *scene;
    kf3ds_renderer *renderer;
    kf3ds_pose *poses;
    unsigned eval_flags;
    int32_t camera_node;       /* a camera node to look through, or KF3DS_NONE */
    int32_t editor_camera;     /* else an editor camera (no keyframer node), or -1 */
    const char *camera_label;  /* the camera's name for the label, NULL: none */
    kf3ds_auto_view auto_view; /* without --camera: the default view (kf3ds_auto_view_choose) */
} render_ctx;

/* "12", "12.5", "-3.25": a frame number for people. */
static void format_frame(char *buf, size_t cap, double frame)
{
    size_t n;
    if (fabs(frame - floor(frame + 0.5)) < 5e-4) {
        snprintf(buf, cap, "%.0f", floor(frame + 0.5));
        return;
    }
    snprintf(buf, cap, "%.3f", frame);
    n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
}


/* Draws one frame into fb (cleared by the library). */
static void render_frame(render_ctx *c, double frame, kf3ds_framebuffer *fb)
{
    const kf3ds_scene *s = c->scene;
    kf3ds_view view;
    kf3ds_render_options ro;
    char label[160], num[48];

    kf3ds_scene_eval(s, frame, c->eval_flags, c->poses);
    memset(&view, 0, sizeof view);
    if (c->camera_node != KF3DS_NONE) {
        kf3ds_view_from_camera(s, (uint32_t)c->camera_node, c->poses, &view);
    } else if (c->editor_camera >= 0) {
        kf3ds_view_from_editor_camera(s, (uint32_t)c->editor_camera, c->poses, &view);
    } else {
        kf3ds_auto_view_at(s, &c->auto_view, c->poses, c->o->azimuth, c->o->elevation,
                           ORBIT_FOV, (float)fb->width / (float)fb->height, &view);
    }
    memset(&ro, 0, sizeof ro);
    ro.shading = c->o->shading;
    ro.overlays = c->o->overlays;
    ro.has_camera_node = c->camera_node != KF3DS_NONE;
    ro.camera_node = ro.has_camera_node ? (uint32_t)c->camera_node : 0;
    ro.cull_back_faces = (uint8_t)c->o->cull;
    ro.no_file_environment = (uint8_t)c->o->no_environment;
    kf3ds_render_scene(c->renderer, c->poses, &view, &ro, fb, NULL);
    if (!c->o->no_label) {
        format_frame(num, sizeof num, frame);
        snprintf(label, sizeof label, "frame %s", num);
        if (c->camera_label) {
            size_t n = strlen(label);
            snprintf(label + n, sizeof label - n, "  %.60s", c->camera_label);
        }
        kf3ds_raster_label(fb, label);
    }
}

static int fb_alloc(kf3ds_framebuffer *fb, int w, int h, int with_depth)
{
    size_t n = (size_t)w * (size_t)h;
    fb->width = w;
    fb->height = h;
    fb->color = malloc(n * sizeof *fb->color);
    fb->depth = with_depth ? malloc(n * sizeof *fb->depth) : NULL;
    if (!fb->color || (with_depth && !fb->depth)) {
        free(fb->color);
        free(fb->depth);
        fb->color = NULL;
        fb->depth = NULL;
        return 0;
    }
    return 1;
}

static void fb_release(kf3ds_framebuffer *fb)
{
    free(fb->color);
    free(fb->depth);
    fb->color = NULL;
    fb->depth = NULL;
}

static void report(const render_ctx *c, const char *path, int w, int h, const char *what)
{
    if (c->o->quiet || strcmp(path, "-") == 0)
        return;
    fputs("wrote ", stdout);
    cli_text_cstr(stdout, path);
    printf(" (%dx%d, %s)\n", w, h, what);
}

/* The frames of a sheet: evenly spaced over the segment, both ends included,
 * rounded to whole frames when the segment has at least one per cell. */
static double sheet_frame(const kf3ds_scene *s, int i, int n)
{
    double a = s->segment_start, b = s->segment_end, f;
    if (b < a)
        b = a;
    if (n <= 1)
        return a;
    f = a + (b - a) * (double)i / (double)(n - 1);
    return b - a >= (double)(n - 1) ? floor(f + 0.5) : f;
}

/* Without --camera, the view `kf3ds view` starts with (kf3ds_auto_view_choose,
 * docs/viewer.md, 'The default view'): chosen over the segment at the first
 * frame rendered, the same for one picture, a sequence and a sheet. */
static void choose_view(render_ctx *c)
{
    const render_opts *o = c->o;
    const kf3ds_scene *s = c->scene;
    double first = (double)s->segment_start;
    unsigned flags = 0;
    if (o->has_frame)
        first = o->frame;
    else if (o->has_frames)
        first = (double)o->first;
    if (o->has_orbit)
        flags |= KF3DS_AUTO_VIEW_NO_CAMERA;
    if (o->no_environment)
        flags |= KF3DS_AUTO_VIEW_NO_ENVIRONMENT;
    kf3ds_auto_view_choose(s, (double)s->segment_start, (double)s->segment_end, first,
                           c->eval_flags, flags, c->poses, &c->auto_view);
    if (c->auto_view.kind == KF3DS_AUTO_VIEW_CAMERA) {
        const kf3ds_node *n = &s->nodes[c->auto_view.camera_node];
        c->camera_node = (int32_t)c->auto_view.camera_node;
        c->camera_label = n->name && n->name[0] ? n->name : "camera";
    }
}

static int render_single(render_ctx *c)
{
    const render_opts *o = c->o;
    kf3ds_framebuffer fb;
    double frame = o->has_frame ? o->frame : (double)c->scene->segment_start;
    char what[64];
    int status = CLI_EXIT_OK;
    if (!fb_alloc(&fb, o->width, o->height, 1)) {
        cli_print_error(o->out, "cannot write: out of memory for %dx%d", o->width, o->height);
        return CLI_EXIT_INPUT;
    }
    render_frame(c, frame, &fb);
    if (cli_write_png(o->out, &fb) != 0) {
        status = CLI_EXIT_INPUT;
    } else {
        format_frame(what + 6, sizeof what - 6, frame);
        memcpy(what, "frame ", 6);
        report(c, o->out, fb.width, fb.height, what);
    }
    fb_release(&fb);
    return status;
}

static int render_sequence(render_ctx *c)
{
    const render_opts *o = c->o;
    kf3ds_framebuffer fb;
    /* n <= MAX_SEQUENCE (checked with the options), so i and n fit a long;
     * the frame is summed in 64 bits because first + i * step only stays
     * within [first, last] at the end. */
    long n = (long)cli_frames_count(o->first, o->last, o->step), i;
    int status = CLI_EXIT_OK;
    if (!fb_alloc(&fb, o->width, o->height, 1)) {
        cli_print_error(o->out, "cannot write: out of memory for %dx%d", o->width, o->height);
        return CLI_EXIT_INPUT;
    }
    for (i = 0; i < n && status == CLI_EXIT_OK; i++) {
        long f = (long)((int64_t)o->first + (int64_t)i * o->step);
        char *path = pattern_path(&o->pattern, f), what[48];
        if (!path) {
            cli_print_error(o->out, "cannot write: out of memory");
            status = CLI_EXIT_INPUT;
            break;
        }
        render_frame(c, (double)f, &fb);
        if (cli_write_png(path, &fb) != 0) {
            status = CLI_EXIT_INPUT;
        } else {
            snprintf(what, sizeof what, "frame %ld", f);
            report(c, path, fb.width, fb.height, what);
        }
        free(path);
    }
    fb_release(&fb);
    return status;
}

static int render_sheet(render_ctx *c)
{
    const render_opts *o = c->o;
    kf3ds_framebuffer cell, sheet;
    int cols = o->sheet_cols, rows = o->sheet_rows, n = cols * rows, i, x, y;
    int status = CLI_EXIT_OK;
    char what[200], a[48], b[48];
    if (!fb_alloc(&cell, o->width, o->height, 1)) {
        cli_print_error(o->out, "cannot write: out of memory for %dx%d", o->width, o->height);
        return CLI_EXIT_INPUT;
    }
    if (!fb_alloc(&sheet, o->width * cols, o->height * rows, 0)) {
        fb_release(&cell);
        cli_print_error(o->out, "cannot write: out of memory for %dx%d", o->width * cols,
                        o->height * rows);
        return CLI_EXIT_INPUT;
    }
    for (i = 0; i < n; i++) {
        int cx = (i % cols) * cell.width, cy = (i / cols) * cell.height;
        render_frame(c, sheet_frame(c->scene, i, n), &cell);
        for (y = 0; y < cell.height; y++)
            memcpy(sheet.color + (size_t)(cy + y) * (size_t)sheet.width + (size_t)cx,
                   cell.color + (size_t)y * (size_t)cell.width,
                   (size_t)cell.width * sizeof *cell.color);
    }
    /* One-pixel rules between the cells. */
    for (i = 1; i < cols; i++)
        for (y = 0; y < sheet.height; y++)
            sheet.color[(size_t)y * (size_t)sheet.width + (size_t)(i * cell.width)] = SHEET_RULE;
    for (i = 1; i < rows; i++)
        for (x = 0; x < sheet.width; x++)
            sheet.color[(size_t)(i * cell.height) * (size_t)sheet.width + (size_t)x] = SHEET_RULE;
    if (cli_write_png(o->out, &sheet) != 0) {
        status = CLI_EXIT_INPUT;
    } else {
        format_frame(a, sizeof a, sheet_frame(c->scene, 0, n));
        format_frame(b, sizeof b, sheet_frame(c->scene, n - 1, n));
        snprintf(what, sizeof what, "%dx%d cells of %dx%d, frames %s..%s", cols, rows,
                 cell.width, cell.height, a, b);
        report(c, o->out, sheet.width, sheet.height, what);
    }
    fb_release(&cell);
    fb_release(&sheet);
    return status;
}

static int run_render(render_opts *o)
{
    cli_scene cs;
    render_ctx c;
    int status;

    status = cli_scene_load_sound(&cs, o->file);
    if (status)
        return status;

    memset(&c, 0, sizeof c);
    c.o = o;
    c.scene = cs.scene;
    c.poses = cs.poses;
    c.eval_flags = o->no_ease ? KF3DS_EVAL_NO_EASE : 0;
    c.camera_node = KF3DS_NONE;
    c.editor_camera = -1;
    if (o->camera) {
        status = cli_find_camera(VERB, cs.scene, o->camera, &c.camera_node, &c.editor_camera);
        if (status) {
            cli_scene_free(&cs);
            return status;
        }
        c.camera_label = o->camera;
    } else {
        choose_view(&c);
    }

    c.renderer = kf3ds_renderer_create(cs.scene, NULL);
    if (!c.renderer) {
        cli_print_error(o->file, "out of memory preparing the renderer");
        cli_scene_free(&cs);
        return CLI_EXIT_INPUT;
    }
    if (!o->no_textures)
        status = cli_attach_maps(c.renderer, cs.scene, o->file, &o->maps);
    if (status)
        ; /* (printed) */
    else if (o->sheet_cols)
        status = render_sheet(&c);
    else if (o->has_frames)
        status = render_sequence(&c);
    else
        status = render_single(&c);
    kf3ds_renderer_free(c.renderer);
    cli_scene_free(&cs);
    return status;
}

/* ---- the verb ------------------------------------------------------------ */

/* The names -o may end in (docs/output.md, "Output files"). */
static const char *const png_names[] = { "png", NULL };

/* Parses the command line into *o and runs the verb; the caller frees what
 * *o holds. */
static int cmd_render_parsed(render_opts *o, int argc, char **argv)
{
    cli_args args;
    int more;
    const char *why = NULL;
    memset(o, 0, sizeof *o);
    o->azimuth = DEFAULT_AZIMUTH;
    o->elevation = DEFAULT_ELEVATION;
    o->shading = KF3DS_SHADE_SMOOTH;

    cli_args_begin(&args, VERB, argc, argv);
    while ((more = cli_next_option(&args)) > 0) {
        const char *a = cli_option(&args), *v = NULL;
        unsigned bit;
        int r;
        if (strcmp(a, "--no-ease") == 0) {
            o->no_ease = 1;
        } else if (strcmp(a, "--no-label") == 0) {
            o->no_label = 1;
        } else if (strcmp(a, "--cull") == 0) {
            o->cull = 1;
        } else if (strcmp(a, "--no-textures") == 0) {
            o->no_textures = 1;
        } else if (strcmp(a, "--no-environment") == 0) {
            o->no_environment = 1;
        } else if ((r = map_search_option(&args, &o->maps)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            cli_set_quiet(1);
        } else if ((bit = cli_overlay_switch(a)) != 0) {
            o->overlays |= bit;
        } else if ((r = cli_option_value(&args, "-o", &v)) != 0 ||
                   (r = cli_option_value(&args, "--output", &v)) != 0) {
            if (r < 0)
                return cli_usage_error(VERB, "%s needs a file name", a);
            if (o->out)
                return cli_usage_error(VERB, "more than one output ('%s' and '%s')", o->out, v);
            if (!*v)
                return cli_usage_error(VERB, "the output file name is empty");
            o->out = v;
        } else if ((r = cli_option_value(&args, "--frame", &v)) != 0) {
            if (r < 0)
                return cli_usage_error(VERB, "--frame needs a number");
            if (!cli_parse_frame(v, &o->frame) || fabs(o->frame) > 1e9)
                return cli_usage_error(VERB, "--frame '%s' is not a finite number", v);
            o->has_frame = 1;
        } else if ((r = cli_option_value(&args, "--frames", &v)) != 0) {
            if (r < 0 || !cli_parse_frames(v, &o->first, &o->last, &o->step))
                return cli_usage_error(VERB,
                                       "--frames needs A:B or A:B:STEP (integers, A <= B, "
                                       "STEP >= 1), not '%s'",
                                       r < 0 ? "" : v);
            if (cli_frames_count(o->first, o->last, o->step) > MAX_SEQUENCE)
                return cli_usage_error(VERB, "--frames '%s' makes more than %ld pictures", v,
                                       MAX_SEQUENCE);
            o->has_frames = 1;
        } else if ((r = cli_option_value(&args, "--sheet", &v)) != 0) {
            if (r < 0 || !cli_parse_size(v, MAX_SHEET_CELLS, &o->sheet_cols, &o->sheet_rows))
                return cli_usage_error(VERB, "--sheet needs COLSxROWS (1 to %d each), not '%s'",
                                       MAX_SHEET_CELLS, r < 0 ? "" : v);
        } else if ((r = cli_option_value(&args, "--size", &v)) != 0) {
            if (r < 0 || !cli_parse_size(v, MAX_SIDE, &o->width, &o->height))
                return cli_usage_error(VERB, "--size needs WxH (1 to %d pixels each), not '%s'",
                                       MAX_SIDE, r < 0 ? "" : v);
            o->has_size = 1;
        } else if ((r = cli_option_value(&args, "--camera", &v)) != 0) {
            if (r < 0 || !*v)
                return cli_usage_error(VERB, "--camera needs a camera name");
            o->camera = v;
        } else if ((r = cli_option_value(&args, "--orbit", &v)) != 0) {
            if (r < 0 || !cli_parse_orbit(v, &o->azimuth, &o->elevation))
                return cli_usage_error(VERB,
                                       "--orbit needs AZ,EL in degrees (elevation -90 to 90, "
                                       "azimuth -1000000 to 1000000), not '%s'",
                                       r < 0 ? "" : v);
            o->has_orbit = 1;
        } else if ((r = cli_option_value(&args, "--shading", &v)) != 0) {
            if (r < 0 || !cli_parse_shading(v, &o->shading))
                return cli_usage_error(VERB, "--shading needs smooth, flat or wire, not '%s'",
                                       r < 0 ? "" : v);
        } else if ((r = cli_option_value(&args, "--overlays", &v)) != 0) {
            char bad[48];
            if (r < 0)
                return cli_usage_error(VERB, "--overlays needs a list (e.g. hierarchy,names)");
            if (!cli_parse_overlays(v, &o->overlays, bad, sizeof bad))
                return cli_usage_error(VERB,
                                       "--overlays: unknown overlay '%s' (hierarchy, pivots, "
                                       "cameras, lights, grid, names, all, none)",
                                       bad);
        } else {
            return cli_unknown_option(&args);
        }
    }
    if (more < 0)
        return CLI_EXIT_USAGE;
    o->file = args.file;
    if (!o->out)
        return cli_usage_error(VERB, "no output given (-o OUT.png)");
    if (o->has_frame + o->has_frames + (o->sheet_cols != 0) > 1)
        return cli_usage_error(VERB, "--frame, --frames and --sheet exclude each other");
    if (o->camera && o->has_orbit)
        return cli_usage_error(VERB, "--camera and --orbit exclude each other");
    if (!o->has_size) {
        o->width = o->sheet_cols ? SHEET_CELL_W : DEFAULT_W;
        o->height = o->sheet_cols ? SHEET_CELL_H : DEFAULT_H;
    }
    if ((long)o->width * o->height > MAX_PIXELS)
        return cli_usage_error(VERB, "--size %dx%d: more than %ld pixels", o->width, o->height,
                               MAX_PIXELS);
    if (o->sheet_cols) {
        long w = (long)o->width * o->sheet_cols, h = (long)o->height * o->sheet_rows;
        if (w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_PIXELS)
            return cli_usage_error(VERB,
                                   "the sheet would be %ldx%ld pixels (at most %d a side and "
                                   "%ld in all): make --size or --sheet smaller",
                                   w, h, MAX_SIDE, MAX_PIXELS);
    }
    if (cli_other_extension(o->out, png_names) && !strchr(strrchr(o->out, '.'), '%'))
        return cli_usage_error(VERB, "-o '%s': render writes PNG only (name it .png)", o->out);
    if (o->has_frames) {
        if (cli_is_stdout(o->out))
            return cli_refuse_stdout(VERB, "-o", "--frames", "one PNG per frame");
        if (!parse_pattern(o->out, &o->pattern, &why))
            return cli_usage_error(VERB, "-o '%s' %s", o->out, why);
    }
    if (cli_check_output(VERB, "-o", o->out, "PNG") != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    return run_render(o);
}

static int cmd_render(int argc, char **argv)
{
    render_opts o;
    int status = cmd_render_parsed(&o, argc, argv);
    map_search_free(&o.maps);
    free(o.pattern.prefix);
    free(o.pattern.suffix);
    return status;
}

const cli_verb cmd_render_verb = {
    VERB,
    cmd_render,
    "render FILE -o OUT.png [--frame F | --frames A:B[:STEP] | --sheet COLSxROWS]\n"
    "                    [--size WxH] [--camera NAME | --orbit AZ,EL] [--shading MODE]\n"
    "                    [--hierarchy] [--pivots] [--cameras] [--lights] [--grid] [--names]\n"
    "                    [--overlays LIST] [--cull] [--maps DIR]... [--no-textures]\n"
    "                    [--no-environment] [--no-ease] [--no-label] [-q]",
    "Render frames of the animation to PNG with the software rasterizer.",
    "What to render (one of):\n"
    "  --frame F          one frame (any finite number; default: the first frame of\n"
    "                     the segment, KFSEG)\n"
    "  --frames A:B[:STEP]  frames A, A+STEP, ... up to B (whole frames, 32-bit;\n"
    "                     STEP default 1), one PNG each: -o is a pattern with one\n"
    "                     %d or %0Nd (N 1-9) for the frame number, %% for a literal\n"
    "                     percent sign, e.g. -o out_%04d.png writes out_0000.png,\n"
    "                     out_0005.png, ...\n"
    "  --sheet COLSxROWS  a contact sheet: COLS*ROWS frames evenly spaced over the\n"
    "                     segment (first and last included; whole frames when the\n"
    "                     segment is long enough), left to right, top to bottom,\n"
    "                     each cell labelled with its frame number\n"
    "\n"
    "Picture:\n"
    "  -o, --output OUT   the PNG to write (8-bit RGB; a name ending in another\n"
    "                     extension than .png is refused); - is standard output\n"
    "  --size WxH         picture size in pixels (default 640x480); with --sheet the\n"
    "                     size of one cell (default 200x150)\n"
    "  --camera NAME      look through this camera node with its animated position,\n"
    "                     target, roll and field of view (the camera itself is not\n"
    "                     drawn); in a file without camera nodes, an editor camera\n"
    "  --orbit AZ,EL      an orbit view at azimuth AZ and elevation EL in degrees\n"
    "                     (default 35,25; azimuth 0 looks along +y) framing the\n"
    "                     objects over the whole animation, the view kf3ds view\n"
    "                     starts with; objects that travel far are followed, a\n"
    "                     view in fog steps in to where the fog is half strength\n"
    "                     (docs/viewer.md, 'The default view'). Without --camera\n"
    "                     and --orbit, a file whose objects travel far is seen\n"
    "                     through its first camera node\n"
    "  --shading MODE     smooth (default; normals from smoothing groups), flat, or wire\n"
    "                     (the visible edges of every face)\n"
    "  --maps DIR         also look for texture maps in DIR (repeatable; after the\n"
    "                     .3ds file's folder, before the folders of $KF3DS_MAPS,\n"
    "                     separated by ':'); names match case-insensitively, a map\n"
    "                     not found is drawn in its material's colour with a warning\n"
    "  --no-textures      draw every material in its colour, without maps\n"
    "  --no-environment   leave out the file's background and fog (drawn when the\n"
    "                     file switches them on)\n"
    "  --cull             faces one-sided, as 3D Studio renders them: a face seen from\n"
    "                     behind is left out unless its material is two-sided (by\n"
    "                     default every face is drawn, a back face lit on its\n"
    "                     flipped normal)\n"
    "  --hierarchy        lines from every node's pivot to its parent's, dummies as boxes\n"
    "  --pivots           a small cross at every object node's pivot\n"
    "  --cameras          camera frusta towards their targets\n"
    "  --lights           light positions and spot cones\n"
    "  --grid             a grid on the ground plane z = 0\n"
    "  --names            node names next to their pivots\n"
    "  --overlays LIST    the same as a comma-separated list: hierarchy, pivots, cameras,\n"
    "                     lights, grid, names, or all / none\n"
    "  --no-ease          evaluate without ease-to/ease-from (as lib3ds does)\n"
    "  --no-label         do not draw the frame number in the bottom-left corner\n"
    "  -q, --quiet        no 'wrote OUT (WxH, frame F)' line per file, no warnings\n"
    "\n"
    "A file without keyframer nodes (editor data only) is drawn as stored.\n"
    "Errors: the input is checked before anything is rendered (exit 1 with the\n"
    "same error line as the other verbs); an output that cannot be written gives\n"
    "'kf3ds: OUT: cannot write: reason' and exit 1; so does a camera name the file\n"
    "does not have.\n",
};
