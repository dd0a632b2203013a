/* kf3ds thumbnail FILE OUT.png [SIZE] [--frame F] [-q]
 * A small picture of the scene for file managers (the freedesktop
 * thumbnailer entry tools/kf3ds.thumbnailer.in runs it): square, lit and
 * textured as kf3ds render draws it, on a transparent background, at the
 * frame of the segment where the most objects show, framed by the default
 * view (kf3ds_auto_view_choose, docs/viewer.md). */
#define _XOPEN_SOURCE 700
#include "cmd.h"
#include "cmd_maps.h"
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VERB "thumbnail"
#define DEFAULT_SIZE 256
#define MAX_SIZE 4096
#define FRAME_SAMPLES 33      /* frames looked at for the one that shows most */
#define ORBIT_FOV 45.0f
#define AZIMUTH 35.0f         /* kf3ds render's default orbit */
#define ELEVATION 25.0f

/* How much of the scene shows at the frame: the visible object nodes with a
 * mesh, then the size of what they cover. */
static void score_frame(const kf3ds_scene *s, kf3ds_pose *poses, double frame, long *count,
                        double *extent)
{
    float mn[3], mx[3];
    uint32_t i;
    kf3ds_scene_eval(s, frame, 0, poses);
    *count = 0;
    for (i = 0; i < s->num_nodes; i++)
        if (s->nodes[i].type == KF3DS_NODE_OBJECT && !poses[i].hidden &&
            kf3ds_node_pose_mesh(s, i, &poses[i]) >= 0)
            (*count)++;
    *extent = 0.0;
    if (kf3ds_scene_bounds(s, poses, mn, mx))
        *extent = ((double)mx[0] - mn[0]) * ((double)mx[0] - mn[0]) +
                  ((double)mx[1] - mn[1]) * ((double)mx[1] - mn[1]) +
                  ((double)mx[2] - mn[2]) * ((double)mx[2] - mn[2]);
}

static double best_frame(const kf3ds_scene *s, kf3ds_pose *poses)
{
    double a = (double)s->segment_start, b = (double)s->segment_end, best = a, extent, best_extent = -1;
    long count, best_count = -1;
    int k, n = b > a ? FRAME_SAMPLES : 1;
    if (!kf3ds_scene_places_meshes(s))
        return a;
    for (k = 0; k < n; k++) {
        double f = n > 1 ? a + (b - a) * k / (n - 1) : a;
        f = (double)(long)(f + 0.5); /* whole frames, where the keys are */
        score_frame(s, poses, f, &count, &extent);
        if (count > best_count || (count == best_count && extent > best_extent * 1.0001)) {
            best = f;
            best_count = count;
            best_extent = extent;
        }
    }
    return best;
}

/* The PNG's bytes into OUT. Tumbler (Thunar's thumbnailer service) creates
 * OUT empty and reads the picture back through the file it holds open, so a
 * file renamed over it goes unseen: an existing empty regular file is written
 * in place (and emptied again on failure); anything else goes through
 * cli_output's temporary file (docs/output.md, "Output files"). */
static int write_bytes(const char *path, const void *data, size_t len)
{
    struct stat st;
    FILE *f;
    int ok, err;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 0 ||
        (f = fopen(path, "r+b")) == NULL)
        return cli_write_output(path, data, len);
    ok = fwrite(data, 1, len, f) == len;
    ok = fflush(f) == 0 && ok;
    err = errno;
    if (!ok && ftruncate(fileno(f), 0) != 0)
        err = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok)
        cli_print_error(path, "cannot write: %s", strerror(err));
    return ok ? 0 : -1;
}

/* The picture as RGBA, transparent where nothing was drawn (depth 0). */
static int write_rgba(const char *path, const kf3ds_framebuffer *fb)
{
    size_t n = (size_t)fb->width * (size_t)fb->height, i;
    unsigned char *px = malloc(n * 4), *png = NULL;
    png_alloc_size_t png_size = 0;
    png_image image;
    int rc = -1;
    if (!px) {
        cli_print_error(path, "cannot write: out of memory");
        return -1;
    }
    for (i = 0; i < n; i++) {
        uint32_t c = fb->color[i];
        px[4 * i] = (unsigned char)(c >> 16);
        px[4 * i + 1] = (unsigned char)(c >> 8);
        px[4 * i + 2] = (unsigned char)c;
        px[4 * i + 3] = fb->depth[i] > 0.0f ? 255 : 0;
    }
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)fb->width;
    image.height = (png_uint_32)fb->height;
    image.format = PNG_FORMAT_RGBA;
    /* the size first, then the bytes */
    if (!png_image_write_to_memory(&image, NULL, &png_size, 0, px, 0, NULL) ||
        (png = malloc(png_size ? png_size : 1)) == NULL ||
        !png_image_write_to_memory(&image, png, &png_size, 0, px, 0, NULL))
        cli_print_error(path, "cannot write: %s", png ? image.message : "out of memory");
    else
        rc = write_bytes(path, png, png_size);
    png_image_free(&image);
    free(png);
    free(px);
    return rc;
}

static int run_thumbnail(const char *file, const char *out, int size, int has_frame,
                         double frame, int quiet)
{
    cli_scene cs;
    kf3ds_renderer *r;
    kf3ds_auto_view av;
    kf3ds_view view;
    kf3ds_render_options ro;
    kf3ds_framebuffer fb;
    const kf3ds_scene *s;
    int status = cli_scene_load(&cs, file), written = 0;
    if (status)
        return status;
    s = cs.scene;
    r = kf3ds_renderer_create(s, NULL);
    fb.width = fb.height = size;
    fb.color = malloc((size_t)size * (size_t)size * sizeof *fb.color);
    fb.depth = malloc((size_t)size * (size_t)size * sizeof *fb.depth);
    if (!r || !fb.color || !fb.depth) {
        cli_print_error(file, "thumbnail: out of memory");
    } else if (cli_attach_maps(r, s, file, NULL) == CLI_EXIT_OK) {
        if (!has_frame)
            frame = best_frame(s, cs.poses);
        kf3ds_auto_view_choose(s, frame, frame, frame, 0, KF3DS_AUTO_VIEW_NO_ENVIRONMENT,
                               cs.poses, &av);
        kf3ds_scene_eval(s, frame, 0, cs.poses);
        memset(&view, 0, sizeof view);
        kf3ds_auto_view_at(s, &av, cs.poses, AZIMUTH, ELEVATION, ORBIT_FOV, 1.0f, &view);
        memset(&ro, 0, sizeof ro);
        ro.no_file_environment = 1; /* the background stays transparent */
        if (av.kind == KF3DS_AUTO_VIEW_CAMERA) {
            ro.has_camera_node = 1;
            ro.camera_node = av.camera_node;
        }
        kf3ds_render_scene(r, cs.poses, &view, &ro, &fb, NULL);
        written = write_rgba(out, &fb) == 0;
        if (written && !quiet && !cli_is_stdout(out))
            printf("wrote %s (%dx%d, frame %g)\n", out, size, size, frame);
    }
    free(fb.color);
    free(fb.depth);
    kf3ds_renderer_free(r);
    status = quiet ? cli_load_status(s, &cs.error) : cli_report_load(file, s, &cs.error);
    cli_scene_free(&cs);
    /* a damaged file's picture is still its picture: only no picture fails */
    (void)status;
    return written ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

static int cmd_thumbnail(int argc, char **argv)
{
    const char *pos[3] = { NULL, NULL, NULL };
    int npos = 0, i, quiet = 0, has_frame = 0, no_more = 0;
    long size = DEFAULT_SIZE;
    double frame = 0.0;
    if (cli_wants_help(argc, argv)) {
        cli_print_verb_help(stdout, &cmd_thumbnail_verb);
        return CLI_EXIT_OK;
    }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!no_more && strcmp(a, "--") == 0) {
            no_more = 1;
        } else if (!no_more && (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)) {
            quiet = 1;
            cli_set_quiet(1);
        } else if (!no_more && strcmp(a, "--frame") == 0) {
            if (i + 1 >= argc || !cli_parse_frame(argv[i + 1], &frame))
                return cli_usage_error(VERB, "--frame needs a finite number");
            has_frame = 1;
            i++;
        } else if (!no_more && a[0] == '-' && a[1]) {
            return cli_usage_error(VERB, "unknown option '%s'", a);
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            return cli_usage_error(VERB, "too many arguments: FILE OUT.png [SIZE]");
        }
    }
    if (npos < 2)
        return cli_usage_error(VERB, "give FILE and OUT.png (and the size, default %d)",
                               DEFAULT_SIZE);
    if (pos[2]) {
        char *end = NULL;
        size = strtol(pos[2], &end, 10);
        if (*end || size < 1 || size > MAX_SIZE)
            return cli_usage_error(VERB, "SIZE '%s': give the side in pixels, 1 to %d", pos[2],
                                   MAX_SIZE);
    }
    if (cli_check_output(VERB, "OUT.png", pos[1], "PNG") != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    return run_thumbnail(pos[0], pos[1], (int)size, has_frame, frame, quiet);
}

const cli_verb cmd_thumbnail_verb = {
    "thumbnail",
    cmd_thumbnail,
    "thumbnail FILE OUT.png [SIZE] [--frame F] [-q]",
    "Write a square thumbnail picture of the scene on a transparent background.",
    "Renders the scene lit and textured, as kf3ds render does, SIZE x SIZE pixels\n"
    "(default 256) on a transparent background, at the frame of the segment where\n"
    "the most objects show (the largest of them when several frames tie), framed\n"
    "by the default view. File managers run it through the installed\n"
    "kf3ds.thumbnailer entry (Exec=kf3ds thumbnail %i %o %s).\n"
    "\n"
    "Options:\n"
    "  --frame F    the picture at frame F instead\n"
    "  -q, --quiet  no summary line and no warnings\n"
    "A damaged file gets the picture of what could be read; the exit status is 1\n"
    "only when no picture was written.\n",
};
