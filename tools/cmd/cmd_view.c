/* kf3ds view FILE — the SDL2 player: plays the keyframer animation in a
 * resizable window with the library's software rasterizer.
 *
 * The scene is drawn into a framebuffer this file owns (kf3ds_render_scene,
 * then the status line with kf3ds_raster_text) and copied to an SDL streaming
 * texture. When SDL gives a window but no renderer (some headless drivers),
 * the picture is still drawn into the framebuffer, just not presented, so
 * --screenshot works the same everywhere. The frame loop does not allocate:
 * buffers only grow when the window does. */
#define SDL_MAIN_HANDLED
#include "cmd_maps.h"
#include <SDL.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_DEFAULT_W 640
#define VIEW_DEFAULT_H 480
#define VIEW_DEFAULT_FPS 30.0
#define VIEW_ORBIT_AZ 35.0f      /* default orbit: from the front right, above */
#define VIEW_ORBIT_EL 25.0f
#define VIEW_ORBIT_FOV 45.0f
#define VIEW_MIN_SPEED (1.0 / 64.0)
#define VIEW_MAX_SPEED 64.0

static const char *const shading_names[3] = { "smooth", "flat", "wire" };

typedef struct view_opts {
    const char *file;
    double fps;
    long exit_after;          /* 0: run until closed */
    const char *screenshot;
    int width, height;
    double frame;
    int has_frame, paused;
    const char *camera;
    float az, el;
    int has_orbit;
    kf3ds_shading shading;
    unsigned overlays;
    int cull, no_textures, no_environment, paths;
    map_search maps;          /* the --maps folders */
} view_opts;

typedef struct viewer {
    const view_opts *o;
    const kf3ds_scene *scene;
    kf3ds_renderer *renderer;
    kf3ds_pose *poses;
    kf3ds_framebuffer fb;
    size_t fb_cap;            /* pixels allocated in fb.color / fb.depth */
    uint32_t *cameras;        /* camera node indices */
    uint32_t num_cameras;
    uint32_t view_index;      /* 0: orbit, k: cameras[k - 1] */
    kf3ds_auto_view av;       /* the default view; av.min/max: the objects over the
                                 whole animation, av.half: following, the half size
                                 of the box kept around them */
    int follow;               /* orbit view centred on the objects of each frame */
    float az, el, zoom, pan_x, pan_y;
    double frame, speed;
    int playing, help;
    kf3ds_shading shading;
    unsigned overlays;
    int cull;                 /* one-sided faces (b toggles) */
    int paths;                /* motion paths shown (m toggles) */
    float *path_points;       /* per node, KF3DS_MOTION_PATH_SAMPLES world positions over
                                 the segment */
    double frame_ms;          /* eval + render time, smoothed */
    /* SDL */
    SDL_Window *window;
    SDL_Renderer *sdl_renderer;
    SDL_Texture *texture;
    int tex_w, tex_h;
} viewer;

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */
/* ------------------------------------------------------------------------ */

static double seg_start(const viewer *v) { return (double)v->scene->segment_start; }
static double seg_end(const viewer *v) { return (double)v->scene->segment_end; }

/* Brings a frame back into [start, end] by looping; a static segment stays
 * at its start. */
static double wrap_frame(const viewer *v, double f)
{
    double s = seg_start(v), len = seg_end(v) - s;
    if (!(len > 0) || !isfinite(f))
        return s;
    if (f >= s && f <= s + len)
        return f;
    f = s + fmod(f - s, len);
    if (f < s)
        f += len;
    return f;
}

static void step_frame(viewer *v, int dir)
{
    double s = seg_start(v), e = seg_end(v), f;
    v->playing = 0;
    f = dir > 0 ? floor(v->frame) + 1 : ceil(v->frame) - 1;
    if (f > e)
        f = s;
    else if (f < s)
        f = e;
    v->frame = f;
}

/* ------------------------------------------------------------------------ */
/* Views                                                                    */
/* ------------------------------------------------------------------------ */


/* The box around the objects over the whole animation, the same as `kf3ds
 * render` frames (kf3ds_auto_view_choose). Leaves the poses at some sampled
 * frame: evaluate before drawing. */
static void frame_whole_scene(viewer *v)
{
    unsigned flags = v->o->has_orbit ? KF3DS_AUTO_VIEW_NO_CAMERA : 0;
    if (v->o->no_environment)
        flags |= KF3DS_AUTO_VIEW_NO_ENVIRONMENT;
    kf3ds_auto_view_choose(v->scene, seg_start(v), seg_end(v), v->frame, 0, flags, v->poses,
                           &v->av);
    v->follow = 0;
    v->zoom = 1;
    v->pan_x = v->pan_y = 0;
}

/* Starts following the objects, keeping a box of their present size. */
static void start_follow(viewer *v)
{
    kf3ds_auto_view_follow(v->scene, v->frame, 0, v->poses, &v->av);
    v->follow = 1;
    v->zoom = 1;
    v->pan_x = v->pan_y = 0;
}

/* The free orbit view: the default view moved towards its centre (zoom) and
 * sideways (pan); following, around the objects at the poses being drawn. */
static void orbit_view(const viewer *v, kf3ds_view *view)
{
    float aspect = (float)v->fb.width / (float)(v->fb.height > 0 ? v->fb.height : 1);
    kf3ds_auto_view av = v->av;
    av.kind = v->follow ? KF3DS_AUTO_VIEW_FOLLOW : KF3DS_AUTO_VIEW_ORBIT;
    kf3ds_auto_view_moved(v->scene, &av, v->poses, v->az, v->el, VIEW_ORBIT_FOV, aspect,
                          v->zoom, v->pan_x, v->pan_y, view);
}

/* The view being looked through, and the camera node it belongs to. */
static int32_t current_view(viewer *v, kf3ds_view *view)
{
    if (v->view_index > 0) {
        uint32_t node = v->cameras[v->view_index - 1];
        if (kf3ds_view_from_camera(v->scene, node, v->poses, view))
            return (int32_t)node;
    }
    orbit_view(v, view);
    return KF3DS_NONE;
}

static const char *view_name(const viewer *v)
{
    if (v->view_index > 0) {
        const kf3ds_node *n = &v->scene->nodes[v->cameras[v->view_index - 1]];
        if (n->name && n->name[0])
            return n->name;
        if (n->camera >= 0 && (uint32_t)n->camera < v->scene->num_cameras)
            return v->scene->cameras[n->camera].name;
        return "camera";
    }
    return v->follow ? "follow" : "orbit";
}

/* ------------------------------------------------------------------------ */
/* Motion paths                                                             */
/* ------------------------------------------------------------------------ */

/* Samples every node's path over the segment once, the first time the paths
 * are shown (kf3ds_motion_paths_sample). Returns 0 when out of memory.
 * Leaves the poses at some sampled frame: evaluate before drawing. */
static int compute_paths(viewer *v)
{
    size_t n = v->scene->num_nodes;
    if (v->path_points || !n)
        return 1;
    if (n > SIZE_MAX / (KF3DS_MOTION_PATH_SAMPLES * 3 * sizeof *v->path_points))
        return 0;
    v->path_points = malloc(n * KF3DS_MOTION_PATH_SAMPLES * 3 * sizeof *v->path_points);
    if (!v->path_points)
        return 0;
    kf3ds_motion_paths_sample(v->scene, seg_start(v), seg_end(v), 0, KF3DS_MOTION_PATH_SAMPLES,
                              v->poses, v->path_points);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static int text_scale(const kf3ds_framebuffer *fb)
{
    return fb->width >= 1280 && fb->height >= 720 ? 2 : 1;
}

/* Darkens rows [y0, y1) so text stays readable over the scene. */
static void shade_rows(kf3ds_framebuffer *fb, int y0, int y1)
{
    int y, x;
    if (y0 < 0)
        y0 = 0;
    if (y1 > fb->height)
        y1 = fb->height;
    for (y = y0; y < y1; y++) {
        uint32_t *row = fb->color + (size_t)y * (size_t)fb->width;
        for (x = 0; x < fb->width; x++)
            row[x] = ((row[x] >> 2) & 0x003F3F3Fu) | 0xFF000000u;
    }
}

static const char help_text[] =
    "space play  left/right step  home/end  [ ] speed  w shading  h hierarchy  n names  "
    "g grid  p pivots  l lights  b back faces  m motion paths  c camera  f frame all  t follow  drag orbit  right-drag pan  "
    "wheel zoom  q quit";

/* The help on as many lines as the width needs, broken between items (two
 * spaces). Draws nothing when `draw` is 0; returns the number of lines. */
static int draw_help(kf3ds_framebuffer *fb, int y, int scale, int draw)
{
    char line[sizeof help_text];
    const char *p = help_text;
    int lines = 0, cw = kf3ds_raster_text_width("M", scale);
    int maxc = cw > 0 ? (fb->width - 2 * scale * 4) / cw : 80;
    if (maxc < 8)
        maxc = 8;
    while (*p) {
        size_t n = strlen(p), cut = n;
        if (n > (size_t)maxc) {
            const char *q = p, *best = NULL;
            while ((q = strstr(q, "  ")) != NULL && (size_t)(q - p) <= (size_t)maxc) {
                best = q;
                q += 2;
            }
            cut = best ? (size_t)(best - p) : (size_t)maxc;
        }
        memcpy(line, p, cut);
        line[cut] = '\0';
        if (draw)
            kf3ds_raster_text(fb, 4 * scale, y + lines * 10 * scale, line, 0xFFFFE08Au, scale);
        lines++;
        p += cut;
        while (*p == ' ')
            p++;
    }
    return lines;
}

static void draw_text_layers(viewer *v)
{
    kf3ds_framebuffer *fb = &v->fb;
    int scale = text_scale(fb), lh = 10 * scale, room = fb->width - 8 * scale, form;
    char status[256];
    /* The longest form that fits: with the help hint, without, then terse. */
    for (form = 0; form < 3; form++) {
        if (form < 2)
            snprintf(status, sizeof status,
                     "frame %.1f / %ld-%ld  speed %gx%s  view %.24s  %s  %.1f ms%s", v->frame,
                     (long)v->scene->segment_start, (long)v->scene->segment_end, v->speed,
                     v->playing ? "" : " (paused)", view_name(v), shading_names[v->shading],
                     v->frame_ms, form == 0 && !v->help ? "  ? help" : "");
        else
            snprintf(status, sizeof status, "%.1f/%ld-%ld %gx%s %.12s %s %.1fms", v->frame,
                     (long)v->scene->segment_start, (long)v->scene->segment_end, v->speed,
                     v->playing ? "" : " ||", view_name(v), shading_names[v->shading],
                     v->frame_ms);
        if (kf3ds_raster_text_width(status, scale) <= room)
            break;
    }
    shade_rows(fb, fb->height - lh - 2 * scale, fb->height);
    kf3ds_raster_text(fb, 4 * scale, fb->height - lh, status, 0xFFE8E8E8u, scale);
    if (v->help) {
        int lines = draw_help(fb, 0, scale, 0);
        shade_rows(fb, 0, lines * lh + 3 * scale);
        draw_help(fb, 2 * scale, scale, 1);
    }
}

static void draw_frame(viewer *v)
{
    kf3ds_view view;
    kf3ds_render_options ro;
    int32_t camera_node;
    uint64_t t0 = SDL_GetPerformanceCounter(), t1;
    double ms;
    kf3ds_scene_eval(v->scene, v->frame, 0, v->poses);
    memset(&ro, 0, sizeof ro);
    ro.shading = v->shading;
    ro.overlays = v->overlays;
    camera_node = current_view(v, &view);
    ro.has_camera_node = camera_node != KF3DS_NONE;
    ro.camera_node = ro.has_camera_node ? (uint32_t)camera_node : 0;
    ro.cull_back_faces = (uint8_t)v->cull;
    ro.no_file_environment = (uint8_t)v->o->no_environment;
    kf3ds_render_scene(v->renderer, v->poses, &view, &ro, &v->fb, NULL);
    if (v->paths)
        kf3ds_motion_paths_draw(&v->fb, &view, v->scene, v->path_points,
                                KF3DS_MOTION_PATH_SAMPLES);
    t1 = SDL_GetPerformanceCounter();
    ms = (double)(t1 - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
    v->frame_ms = v->frame_ms > 0 ? 0.9 * v->frame_ms + 0.1 * ms : ms;
    draw_text_layers(v);
}

/* ------------------------------------------------------------------------ */
/* Framebuffer and window                                                   */
/* ------------------------------------------------------------------------ */

/* Sets the framebuffer size, growing its buffers only when they are too
 * small. Returns 0 when out of memory (the old size stays). */
static int fb_resize(viewer *v, int w, int h)
{
    size_t need;
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    need = (size_t)w * (size_t)h;
    if (need > v->fb_cap) {
        uint32_t *c = malloc(need * sizeof *c);
        float *d = malloc(need * sizeof *d);
        if (!c || !d) {
            free(c);
            free(d);
            return 0;
        }
        free(v->fb.color);
        free(v->fb.depth);
        v->fb.color = c;
        v->fb.depth = d;
        v->fb_cap = need;
    }
    v->fb.width = w;
    v->fb.height = h;
    return 1;
}

/* The drawable size of the window in pixels. */
static void window_pixels(const viewer *v, int *w, int *h)
{
    *w = *h = 0;
    if (v->sdl_renderer)
        SDL_GetRendererOutputSize(v->sdl_renderer, w, h);
    if (*w <= 0 || *h <= 0)
        SDL_GetWindowSize(v->window, w, h);
}

/* Copies the framebuffer to the window. The texture only grows; a smaller
 * window uses its top-left part. Presentation failures are not fatal: the
 * picture is still in the framebuffer. */
static void present(viewer *v)
{
    SDL_Rect src;
    if (!v->sdl_renderer)
        return;
    if (!v->texture || v->fb.width > v->tex_w || v->fb.height > v->tex_h) {
        int w = v->fb.width > v->tex_w ? v->fb.width : v->tex_w;
        int h = v->fb.height > v->tex_h ? v->fb.height : v->tex_h;
        if (v->texture)
            SDL_DestroyTexture(v->texture);
        v->texture = SDL_CreateTexture(v->sdl_renderer, SDL_PIXELFORMAT_ARGB8888,
                                       SDL_TEXTUREACCESS_STREAMING, w, h);
        v->tex_w = v->texture ? w : 0;
        v->tex_h = v->texture ? h : 0;
        if (!v->texture)
            return;
    }
    src.x = src.y = 0;
    src.w = v->fb.width;
    src.h = v->fb.height;
    if (SDL_UpdateTexture(v->texture, &src, v->fb.color, v->fb.width * 4) != 0)
        return;
    SDL_RenderClear(v->sdl_renderer);
    SDL_RenderCopy(v->sdl_renderer, v->texture, &src, NULL);
    SDL_RenderPresent(v->sdl_renderer);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                    */
/* ------------------------------------------------------------------------ */

enum { EV_NONE = 0, EV_REDRAW = 1, EV_QUIT = 2, EV_NOMEM = 4 };

static void set_speed(viewer *v, double s)
{
    if (s < VIEW_MIN_SPEED)
        s = VIEW_MIN_SPEED;
    if (s > VIEW_MAX_SPEED)
        s = VIEW_MAX_SPEED;
    v->speed = s;
}

static int on_key(viewer *v, const SDL_KeyboardEvent *k)
{
    switch (k->keysym.sym) {
    case SDLK_ESCAPE:
    case SDLK_q:
        return EV_QUIT;
    case SDLK_SPACE:
        if (k->repeat)
            return EV_NONE;
        v->playing = !v->playing;
        return EV_REDRAW;
    case SDLK_RIGHT:
        step_frame(v, 1);
        return EV_REDRAW;
    case SDLK_LEFT:
        step_frame(v, -1);
        return EV_REDRAW;
    case SDLK_HOME:
        v->frame = seg_start(v);
        return EV_REDRAW;
    case SDLK_END:
        v->frame = seg_end(v);
        return EV_REDRAW;
    case SDLK_F1:
        v->help = !v->help;
        return EV_REDRAW;
    default:
        break;
    }
    if (k->repeat)
        return EV_NONE;
    switch (k->keysym.sym) {
    case SDLK_w: /* smooth -> wire -> flat -> smooth */
        v->shading = v->shading == KF3DS_SHADE_SMOOTH ? KF3DS_SHADE_WIRE
                     : v->shading == KF3DS_SHADE_WIRE ? KF3DS_SHADE_FLAT
                                                       : KF3DS_SHADE_SMOOTH;
        return EV_REDRAW;
    case SDLK_h:
        v->overlays ^= KF3DS_OVERLAY_HIERARCHY;
        return EV_REDRAW;
    case SDLK_n:
        v->overlays ^= KF3DS_OVERLAY_NAMES;
        return EV_REDRAW;
    case SDLK_g:
        v->overlays ^= KF3DS_OVERLAY_GRID;
        return EV_REDRAW;
    case SDLK_p:
        v->overlays ^= KF3DS_OVERLAY_PIVOTS;
        return EV_REDRAW;
    case SDLK_l:
        v->overlays ^= KF3DS_OVERLAY_LIGHTS | KF3DS_OVERLAY_CAMERAS;
        return EV_REDRAW;
    case SDLK_b:
        v->cull = !v->cull;
        return EV_REDRAW;
    case SDLK_m:
        v->paths = !v->paths;
        if (v->paths && !compute_paths(v))
            return EV_NOMEM;
        return EV_REDRAW;
    case SDLK_c:
        v->view_index = (v->view_index + 1) % (v->num_cameras + 1);
        return EV_REDRAW;
    case SDLK_f:
        frame_whole_scene(v);
        v->view_index = 0;
        return EV_REDRAW;
    case SDLK_t:
        if (v->follow && v->view_index == 0) {
            v->follow = 0;
            v->zoom = 1;
            v->pan_x = v->pan_y = 0;
        } else {
            start_follow(v);
        }
        v->view_index = 0;
        return EV_REDRAW;
    default:
        return EV_NONE;
    }
}

/* Characters that depend on the keyboard layout come as text. */
static int on_text(viewer *v, const char *text)
{
    int r = EV_NONE;
    for (; *text; text++) {
        if (*text == '[') {
            set_speed(v, v->speed * 0.5);
            r = EV_REDRAW;
        } else if (*text == ']') {
            set_speed(v, v->speed * 2);
            r = EV_REDRAW;
        } else if (*text == '?') {
            v->help = !v->help;
            r = EV_REDRAW;
        }
    }
    return r;
}

/* Dragging in a camera's view takes over from there in the orbit view. */
static void to_orbit(viewer *v)
{
    v->view_index = 0;
}

static int on_event(viewer *v, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        return EV_QUIT;
    case SDL_KEYDOWN:
        return on_key(v, &e->key);
    case SDL_TEXTINPUT:
        return on_text(v, e->text.text);
    case SDL_MOUSEMOTION:
        if (e->motion.state & SDL_BUTTON_LMASK) {
            to_orbit(v);
            v->az -= 0.4f * (float)e->motion.xrel;
            v->el += 0.4f * (float)e->motion.yrel;
            if (v->el > 89)
                v->el = 89;
            if (v->el < -89)
                v->el = -89;
            v->az = fmodf(v->az, 360);
            return EV_REDRAW;
        }
        if (e->motion.state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK)) {
            /* grab: the point under the mouse follows it at the centre's depth */
            float k = 2 * v->zoom * tanf(VIEW_ORBIT_FOV * 0.5f * 3.14159265f / 180) /
                      (float)(v->fb.height > 0 ? v->fb.height : 1);
            to_orbit(v);
            v->pan_x += k * (float)e->motion.xrel;
            v->pan_y -= k * (float)e->motion.yrel;
            return EV_REDRAW;
        }
        return EV_NONE;
    case SDL_MOUSEWHEEL: {
        int y = e->wheel.y;
        if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED)
            y = -y;
        if (!y)
            return EV_NONE;
        to_orbit(v);
        v->zoom *= powf(0.85f, (float)y);
        if (v->zoom < 0.01f)
            v->zoom = 0.01f;
        if (v->zoom > 100)
            v->zoom = 100;
        return EV_REDRAW;
    }
    case SDL_RENDER_DEVICE_RESET: /* textures are lost: make a new one */
        if (v->texture)
            SDL_DestroyTexture(v->texture);
        v->texture = NULL;
        v->tex_w = v->tex_h = 0;
        return EV_REDRAW;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
            e->window.event == SDL_WINDOWEVENT_EXPOSED) {
            int w, h;
            window_pixels(v, &w, &h);
            if (w > 0 && h > 0 && (w != v->fb.width || h != v->fb.height) &&
                !fb_resize(v, w, h))
                return EV_NOMEM;
            return EV_REDRAW;
        }
        return EV_NONE;
    default:
        return EV_NONE;
    }
}

/* ------------------------------------------------------------------------ */
/* The player                                                               */
/* ------------------------------------------------------------------------ */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void window_error(const char *what)
{
    fflush(stdout);
    /* The suggestion must terminate: the dummy driver alone would play for
     * ever where nobody sees it (docs/viewer.md). */
    fprintf(stderr,
            "kf3ds: view: cannot open a window (%s: %s); without a display run "
            "SDL_VIDEODRIVER=dummy kf3ds view FILE --exit-after-frames N --screenshot "
            "OUT.png, or use 'kf3ds render FILE -o OUT.png' for a PNG\n",
            what, SDL_GetError());
}

/* SDL falls back to its offscreen or dummy driver when there is no display,
 * and the player would then run where nobody sees it: without a display
 * (DISPLAY and WAYLAND_DISPLAY unset, or one of those drivers picked) that is
 * an error, unless the user chose the driver with SDL_VIDEODRIVER. */
static int invisible_driver(void)
{
    const char *chosen = getenv("SDL_VIDEODRIVER"), *d;
    if (chosen && *chosen)
        return 0;
    d = SDL_GetCurrentVideoDriver();
    return d && (strcmp(d, "offscreen") == 0 || strcmp(d, "dummy") == 0);
}

static int no_display(void)
{
#if defined(__APPLE__) || defined(_WIN32) /* displays without DISPLAY */
    return 0;
#endif
    const char *chosen = getenv("SDL_VIDEODRIVER"), *x = getenv("DISPLAY"),
               *w = getenv("WAYLAND_DISPLAY");
    return !(chosen && *chosen) && !(x && *x) && !(w && *w);
}

/* Plays until closed or --exit-after-frames. Returns the exit status. */
static int play(viewer *v)
{
    const view_opts *o = v->o;
    char title[256];
    uint64_t freq = SDL_GetPerformanceFrequency(), period, now, last, next_draw;
    long drawn = 0;
    int status = CLI_EXIT_OK, dirty = 1, scripted = o->exit_after > 0;

    if (no_display()) {
        SDL_SetError("no display: DISPLAY and WAYLAND_DISPLAY are not set");
        window_error("SDL_Init");
        return CLI_EXIT_INPUT;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        window_error("SDL_Init");
        return CLI_EXIT_INPUT;
    }
    if (invisible_driver()) {
        SDL_SetError("no display: SDL picked its '%s' driver", SDL_GetCurrentVideoDriver());
        window_error("SDL_Init");
        SDL_Quit();
        return CLI_EXIT_INPUT;
    }
    snprintf(title, sizeof title, "kf3ds - %s", base_name(o->file));
    v->window = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                 o->width, o->height, SDL_WINDOW_RESIZABLE);
    if (!v->window) {
        window_error("SDL_CreateWindow");
        SDL_Quit();
        return CLI_EXIT_INPUT;
    }
    v->sdl_renderer = SDL_CreateRenderer(v->window, -1, 0);
    /* Without a renderer (a headless driver may have none) the frames are
     * still drawn into the framebuffer, for --screenshot; nothing shows. */
    SDL_StartTextInput();
    {
        int w, h;
        window_pixels(v, &w, &h);
        if (w <= 0 || h <= 0) {
            w = o->width;
            h = o->height;
        }
        if (!fb_resize(v, w, h)) {
            cli_print_error(o->file, "out of memory for a %dx%d framebuffer", w, h);
            status = CLI_EXIT_INPUT;
            goto done;
        }
    }

    period = (uint64_t)((double)freq / o->fps);
    if (period == 0)
        period = 1;
    now = last = next_draw = SDL_GetPerformanceCounter();
    for (;;) {
        SDL_Event e;
        int ev = EV_NONE;
        while (SDL_PollEvent(&e))
            ev |= on_event(v, &e);
        if (ev & EV_NOMEM) {
            cli_print_error(o->file, "out of memory for the resized window");
            status = CLI_EXIT_INPUT;
            break;
        }
        if (ev & EV_QUIT)
            break;
        if (ev & EV_REDRAW)
            dirty = 1;
        now = SDL_GetPerformanceCounter();
        /* Playback follows the clock; a scripted run steps exactly one frame
         * (times the speed) per drawn frame, so its pictures are repeatable. */
        if (v->playing && !scripted)
            v->frame = wrap_frame(v, v->frame + (double)(now - last) / (double)freq * o->fps *
                                                    v->speed);
        last = now;
        /* A scripted run draws on the clock ticks only (input shows at the next
         * tick), so window events cannot change which frames it draws. */
        if (scripted ? now >= next_draw
                     : dirty || (v->playing && now >= next_draw)) {
            if (scripted && v->playing && drawn > 0)
                v->frame = wrap_frame(v, v->frame + v->speed);
            draw_frame(v);
            present(v);
            drawn++;
            dirty = 0;
            next_draw += period;
            if (next_draw < now)
                next_draw = now + period;
            if (scripted && drawn >= o->exit_after)
                break;
        } else {
            int ms = 250;
            if (v->playing || scripted) {
                uint64_t left = next_draw > now ? next_draw - now : 0;
                ms = (int)(left * 1000 / freq);
            }
            if (ms > 0)
                SDL_WaitEventTimeout(NULL, ms);
        }
    }

    if (status == CLI_EXIT_OK && o->screenshot) {
        if (drawn == 0)
            draw_frame(v);
        if (cli_write_png(o->screenshot, &v->fb) != 0)
            status = CLI_EXIT_INPUT;
    }
done:
    if (v->texture)
        SDL_DestroyTexture(v->texture);
    if (v->sdl_renderer)
        SDL_DestroyRenderer(v->sdl_renderer);
    SDL_DestroyWindow(v->window);
    SDL_Quit();
    return status;
}

static int run_view(const view_opts *o)
{
    cli_scene cs;
    const kf3ds_scene *scene;
    viewer v;
    uint32_t i;
    int status;

    /* Load (and report) first: a bad file never opens a window. */
    status = cli_scene_load_sound(&cs, o->file);
    if (status)
        return status;

    memset(&v, 0, sizeof v);
    v.o = o;
    v.scene = scene = cs.scene;
    v.poses = cs.poses;
    v.cameras = malloc(sizeof *v.cameras * (scene->num_nodes ? scene->num_nodes : 1));
    v.renderer = kf3ds_renderer_create(scene, NULL);
    if (!v.cameras || !v.renderer) {
        cli_print_error(o->file, "out of memory (%lu nodes)", (unsigned long)scene->num_nodes);
        status = CLI_EXIT_INPUT;
        goto done;
    }
    if (!o->no_textures && (status = cli_attach_maps(v.renderer, scene, o->file, &o->maps)) != 0)
        goto done;
    for (i = 0; i < scene->num_nodes; i++)
        if (scene->nodes[i].type == KF3DS_NODE_CAMERA)
            v.cameras[v.num_cameras++] = i;
    if (o->camera) {
        int32_t node;
        status = cli_find_camera("view", scene, o->camera, &node, NULL);
        if (status)
            goto done;
        for (i = 0; v.cameras[i] != (uint32_t)node; i++)
            continue; /* the node is one of v.cameras */
        v.view_index = i + 1;
    }
    v.az = o->az;
    v.el = o->el;
    v.speed = 1;
    v.playing = !o->paused;
    v.shading = o->shading;
    v.overlays = o->overlays;
    v.cull = o->cull;
    v.paths = o->paths;
    if (v.paths && !compute_paths(&v)) {
        cli_print_error(o->file, "out of memory for the motion paths");
        status = CLI_EXIT_INPUT;
        goto done;
    }
    v.frame = wrap_frame(&v, o->has_frame ? o->frame : seg_start(&v));
    frame_whole_scene(&v);
    /* Objects that travel far (a ship flying off) would be dots in the view
     * of the whole animation: without --orbit the film is watched through
     * the file's first camera, else the orbit view follows them (the rule
     * `kf3ds render` follows too, kf3ds_auto_view_choose). */
    if (!o->camera && v.av.kind != KF3DS_AUTO_VIEW_ORBIT) {
        int through_camera = v.av.kind == KF3DS_AUTO_VIEW_CAMERA;
        start_follow(&v);
        if (through_camera)
            for (i = 0; i < v.num_cameras; i++)
                if (v.cameras[i] == v.av.camera_node)
                    v.view_index = i + 1;
    }

    status = play(&v);
done:
    free(v.fb.color);
    free(v.fb.depth);
    free(v.path_points);
    kf3ds_renderer_free(v.renderer);
    free(v.cameras);
    cli_scene_free(&cs);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */
/* ------------------------------------------------------------------------ */

/* Parses the command line into *o and runs the verb; the caller frees what
 * *o holds. */
static int cmd_view_parsed(view_opts *o, int argc, char **argv)
{
    unsigned bit;
    cli_args args;
    int more;
    memset(o, 0, sizeof *o);
    o->fps = VIEW_DEFAULT_FPS;
    o->width = VIEW_DEFAULT_W;
    o->height = VIEW_DEFAULT_H;
    o->az = VIEW_ORBIT_AZ;
    o->el = VIEW_ORBIT_EL;
    o->shading = KF3DS_SHADE_SMOOTH;
    cli_args_begin(&args, "view", argc, argv);
    while ((more = cli_next_option(&args)) > 0) {
        const char *a = cli_option(&args), *value = NULL;
        int r;
        if (strcmp(a, "--paused") == 0) {
            o->paused = 1;
        } else if (strcmp(a, "--cull") == 0) {
            o->cull = 1;
        } else if (strcmp(a, "--no-textures") == 0) {
            o->no_textures = 1;
        } else if (strcmp(a, "--paths") == 0) {
            o->paths = 1;
        } else if (strcmp(a, "--no-environment") == 0) {
            o->no_environment = 1;
        } else if ((r = map_search_option(&args, &o->maps)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
        } else if (a[1] == '-' && (bit = cli_overlay_switch(a)) != 0) {
            o->overlays |= bit;
        } else if ((r = cli_option_value(&args, "--overlays", &value)) != 0) {
            if (r < 0 || !cli_parse_overlays(value, &o->overlays, NULL, 0))
                return cli_usage_error("view", "--overlays needs a comma-separated list of "
                                               "hierarchy, pivots, cameras, lights, grid, "
                                               "names, or all / none");
        } else if ((r = cli_option_value(&args, "--fps", &value)) != 0) {
            if (r < 0 || !cli_parse_frame(value, &o->fps) || o->fps <= 0 || o->fps > 1000)
                return cli_usage_error("view", "--fps needs a number of frames per second "
                                               "above 0 and up to 1000");
        } else if ((r = cli_option_value(&args, "--exit-after-frames", &value)) != 0) {
            if (r < 0 || !cli_parse_long(value, 1, 100000000L, &o->exit_after))
                return cli_usage_error("view", "--exit-after-frames needs a count of 1 or more");
        } else if ((r = cli_option_value(&args, "--screenshot", &value)) != 0) {
            static const char *const png_names[] = { "png", NULL };
            if (r < 0 || !value[0])
                return cli_usage_error("view", "--screenshot needs a PNG file name");
            if (cli_other_extension(value, png_names))
                return cli_usage_error("view", "--screenshot '%s': view writes PNG only (name "
                                               "it .png)", value);
            if (cli_check_output("view", "--screenshot", value, "PNG") != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            o->screenshot = value;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            cli_set_quiet(1);
        } else if ((r = cli_option_value(&args, "--size", &value)) != 0) {
            if (r < 0 || !cli_parse_size(value, 16384, &o->width, &o->height))
                return cli_usage_error("view", "--size needs WIDTHxHEIGHT, like 640x480");
        } else if ((r = cli_option_value(&args, "--frame", &value)) != 0) {
            if (r < 0 || !cli_parse_frame(value, &o->frame))
                return cli_usage_error("view", "--frame needs a finite number");
            o->has_frame = 1;
        } else if ((r = cli_option_value(&args, "--camera", &value)) != 0) {
            if (r < 0)
                return cli_usage_error("view", "--camera needs a camera name");
            o->camera = value;
        } else if ((r = cli_option_value(&args, "--orbit", &value)) != 0) {
            if (r < 0 || !cli_parse_orbit(value, &o->az, &o->el))
                return cli_usage_error("view", "--orbit needs AZ,EL in degrees (EL from -90 "
                                               "to 90, AZ from -1000000 to 1000000)");
            o->has_orbit = 1;
        } else if ((r = cli_option_value(&args, "--shading", &value)) != 0) {
            if (r < 0 || !cli_parse_shading(value, &o->shading))
                return cli_usage_error("view", "--shading needs smooth, flat or wire");
        } else {
            return cli_unknown_option(&args);
        }
    }
    if (more < 0)
        return CLI_EXIT_USAGE;
    o->file = args.file;
    return run_view(o);
}

static int cmd_view(int argc, char **argv)
{
    view_opts o;
    int status = cmd_view_parsed(&o, argc, argv);
    map_search_free(&o.maps);
    return status;
}

const cli_verb cmd_view_verb = {
    "view",
    cmd_view,
    "view FILE [--fps N] [--size WxH] [--frame F] [--paused] [--camera NAME]\n"
    "                  [--orbit AZ,EL] [--shading smooth|flat|wire] [--hierarchy]\n"
    "                  [--pivots] [--cameras] [--lights] [--grid] [--names]\n"
    "                  [--overlays LIST] [--cull] [--paths] [--maps DIR]... [--no-textures]\n"
    "                  [--no-environment] [--exit-after-frames N] [--screenshot OUT.png]\n"
    "                  [-q]",
    "Play the animation in a window (SDL2), looping over the file's segment.",
    "Options:\n"
    "  --fps N            playback rate in frames per second (default 30)\n"
    "  --size WxH         window size in pixels (default 640x480); resizable\n"
    "  --frame F          start at frame F (default: the segment's first frame)\n"
    "  --paused           start paused\n"
    "  --camera NAME      start looking through the camera node NAME (by default the\n"
    "                     orbit view, or the first camera when the objects travel far\n"
    "                     beside their size and --orbit is not given)\n"
    "  --orbit AZ,EL      orbit view azimuth and elevation in degrees (default 35,25;\n"
    "                     EL from -90 to 90, AZ from -1000000 to 1000000)\n"
    "  --shading MODE     smooth (default), flat or wire\n"
    "  --hierarchy        start with an overlay on: lines from every node's pivot to\n"
    "                     its parent's, dummies as boxes; likewise --pivots, --cameras\n"
    "                     (frusta), --lights, --grid (ground plane z = 0), --names\n"
    "  --overlays LIST    the same as a comma-separated list, or all / none\n"
    "  --paths            start with the motion paths shown (key m)\n"
    "  --maps DIR         also look for texture maps in DIR (repeatable), as\n"
    "                     'kf3ds help render' describes\n"
    "  --no-textures      draw every material in its colour, without maps\n"
    "  --no-environment   leave out the file's background and fog\n"
    "  --cull             start with one-sided faces, as 3D Studio renders them (a\n"
    "                     face seen from behind is left out unless its material is\n"
    "                     two-sided); by default every face is drawn\n"
    "  --exit-after-frames N\n"
    "                     quit after N drawn frames; playback then steps exactly one\n"
    "                     frame (times the speed) per drawn frame, so runs repeat\n"
    "  --screenshot OUT.png\n"
    "                     on quitting, write the last drawn frame as PNG (- is\n"
    "                     standard output)\n"
    "  -q, --quiet        no warnings\n"
    "\n"
    "Keys:\n"
    "  space        play / pause\n"
    "  left, right  one frame back / forward (pauses)\n"
    "  home, end    first / last frame of the segment\n"
    "  [ ]          half / double playback speed\n"
    "  w            cycle shading: smooth, wireframe, flat\n"
    "  h            hierarchy overlay (pivot-to-parent lines, dummies as boxes)\n"
    "  n            node names\n"
    "  g            ground grid\n"
    "  p            pivots\n"
    "  l            lights and camera frusta\n"
    "  b            back faces: every face drawn (default) / one-sided as in 3D Studio\n"
    "  m            motion paths: each moving node's trajectory over the segment\n"
    "  c            cycle views: the free orbit view, then every camera in the file\n"
    "  f            orbit view framing the objects over the whole animation\n"
    "  t            orbit view following the objects frame by frame (the start\n"
    "               when they travel far beside their size)\n"
    "  ? or F1      one-line key help\n"
    "  esc, q       quit\n"
    "Mouse: drag orbits, right-drag (or middle-drag) pans, the wheel zooms.\n"
    "\n"
    "The status line shows the frame / segment, play state and speed, the view (orbit\n"
    "or the camera's name), the shading mode and the time to evaluate and draw a frame.\n"
    "Without a display, run SDL_VIDEODRIVER=dummy kf3ds view FILE --exit-after-frames N\n"
    "--screenshot OUT.png, or use 'kf3ds render FILE -o OUT.png' for a PNG.\n",
};
