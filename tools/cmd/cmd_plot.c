/* kf3ds plot FILE --node NAME [--track KIND] -o OUT.svg|.png|.pdf
 * The curves of a node's track over the segment, drawn with cairo: every
 * component's value, the keys marked, on request their TCB and ease values;
 * rotations as the angle about each axis (Euler X, Y, Z, unwrapped so that
 * a spin reads as a ramp) and the accumulated angle turned since the start.
 * --all: small multiples of every animated node on one sheet. The layout is
 * in docs/output.md, 'plot'. */
#include "cmd.h"
#include "plot_axis.h"
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VERB "plot"
#define PANEL_W 800          /* one panel, in points (pixels for PNG) */
#define PANEL_H 360
#define SMALL_W 360          /* a panel of --all */
#define SMALL_H 220
#define MARGIN_L 64          /* the plot area inside a panel */
#define MARGIN_R 16
#define MARGIN_T 28
#define MARGIN_B 36
#define MARKER 6             /* side of a key's square marker */
#define SAMPLES_PER_FRAME 8
#define MAX_SAMPLES 4000
#define MAX_PANELS 400
/* At most this many intervals between ticks along the frames and the values
 * of one panel (of a small --all panel); the steps are round (plot_axis.h). */
#define FRAME_TICKS 8
#define VALUE_TICKS 8
#define SMALL_FRAME_TICKS 5
#define SMALL_VALUE_TICKS 5
#define PI 3.14159265358979323846

static const char *const track_words[KF3DS_TRACK_COUNT] = {
    "pos", "rot", "scl", "fov", "roll", "col", "morph", "hot", "fall", "hide"
};

/* Component colours: x/red, y/green, z/blue, and the accumulated angle. */
static const double comp_rgb[4][3] = {
    { 0.85, 0.15, 0.15 }, { 0.10, 0.60, 0.15 }, { 0.15, 0.30, 0.90 }, { 0.10, 0.10, 0.10 }
};

typedef struct plot_opts {
    const char *file, *out, *node;
    int track;               /* -1: the node's first animated track */
    int keys, all, no_ease, quiet;
    int format;              /* PLOT_PNG, PLOT_SVG, PLOT_PDF: from -o's extension */
} plot_opts;

enum { PLOT_PNG, PLOT_SVG, PLOT_PDF };

/* One curve set: n samples of up to 4 components. */
typedef struct curves {
    int n, comps;
    double *frame;
    double *v[4];
    const char *names[4];
    double lo, hi;
} curves;

static int parse_track(const char *s)
{
    int k;
    for (k = 0; k < KF3DS_TRACK_COUNT; k++)
        if (strcmp(s, track_words[k]) == 0)
            return k;
    return -1;
}

static int first_animated(const kf3ds_node *n, int min_keys)
{
    static const int order[KF3DS_TRACK_COUNT] = {
        KF3DS_TRACK_POS, KF3DS_TRACK_ROT, KF3DS_TRACK_SCL, KF3DS_TRACK_FOV, KF3DS_TRACK_ROLL,
        KF3DS_TRACK_COL, KF3DS_TRACK_HOT, KF3DS_TRACK_FALL, KF3DS_TRACK_HIDE, KF3DS_TRACK_MORPH
    };
    int i;
    for (i = 0; i < KF3DS_TRACK_COUNT; i++)
        if (n->tracks[order[i]].num_keys >= (uint32_t)min_keys)
            return order[i];
    return -1;
}

/* X, Y, Z Euler angles (degrees) of the rotation q (x, y, z, w), for
 * R = Rz·Ry·Rx. */
static void euler(const float q[4], double out[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3], s;
    out[0] = atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)) * 180 / PI;
    s = 2 * (w * y - z * x);
    out[1] = (s >= 1 ? PI / 2 : s <= -1 ? -PI / 2 : asin(s)) * 180 / PI;
    out[2] = atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) * 180 / PI;
}

static void curves_free(curves *c)
{
    int k;
    free(c->frame);
    for (k = 0; k < 4; k++)
        free(c->v[k]);
    memset(c, 0, sizeof *c);
}

/* Samples track `kind` of node `ni` over the segment. */
static int sample(const kf3ds_scene *s, uint32_t ni, int kind, unsigned flags, curves *c)
{
    const kf3ds_track *t = &s->nodes[ni].tracks[kind];
    double a = s->segment_start, b = s->segment_end > a ? s->segment_end : a + 1;
    double prev_e[3] = { 0, 0, 0 }, acc = 0;
    float prev_q[4] = { 0, 0, 0, 1 };
    int i, k;
    memset(c, 0, sizeof *c);
    c->n = (int)((b - a) * SAMPLES_PER_FRAME) + 1;
    if (c->n > MAX_SAMPLES)
        c->n = MAX_SAMPLES;
    if (c->n < 2)
        c->n = 2;
    c->comps = kind == KF3DS_TRACK_POS || kind == KF3DS_TRACK_SCL || kind == KF3DS_TRACK_COL ? 3
               : kind == KF3DS_TRACK_ROT                                                     ? 4
                                                                                             : 1;
    c->frame = malloc(sizeof(double) * (size_t)c->n);
    for (k = 0; k < c->comps; k++)
        c->v[k] = malloc(sizeof(double) * (size_t)c->n);
    if (!c->frame || (c->comps > 0 && !c->v[c->comps - 1]))
        return 0;
    if (kind == KF3DS_TRACK_POS || kind == KF3DS_TRACK_SCL) {
        c->names[0] = "x", c->names[1] = "y", c->names[2] = "z";
    } else if (kind == KF3DS_TRACK_COL) {
        c->names[0] = "r", c->names[1] = "g", c->names[2] = "b";
    } else if (kind == KF3DS_TRACK_ROT) {
        c->names[0] = "about x", c->names[1] = "about y", c->names[2] = "about z";
        c->names[3] = "accumulated";
    } else {
        c->names[0] = track_words[kind];
    }
    for (i = 0; i < c->n; i++) {
        double f = a + (b - a) * i / (c->n - 1);
        float out[4] = { 0, 0, 0, 1 };
        c->frame[i] = f;
        kf3ds_track_eval(t, (kf3ds_track_kind)kind, f, flags, out);
        if (kind == KF3DS_TRACK_ROT) {
            double e[3], d;
            euler(out, e);
            for (k = 0; k < 3; k++) {
                if (i) { /* unwrapped: the nearest turn to the previous sample */
                    while (e[k] - prev_e[k] > 180)
                        e[k] -= 360;
                    while (e[k] - prev_e[k] < -180)
                        e[k] += 360;
                }
                prev_e[k] = e[k];
                c->v[k][i] = e[k];
            }
            if (i) { /* the angle turned since the previous sample */
                d = fabs((double)(prev_q[0] * out[0] + prev_q[1] * out[1] + prev_q[2] * out[2] +
                                  prev_q[3] * out[3]));
                acc += 2 * acos(d > 1 ? 1 : d) * 180 / PI;
            }
            memcpy(prev_q, out, sizeof prev_q);
            c->v[3][i] = acc;
        } else {
            for (k = 0; k < c->comps; k++)
                c->v[k][i] = out[k];
        }
    }
    c->lo = c->hi = c->v[0][0];
    for (k = 0; k < c->comps; k++)
        for (i = 0; i < c->n; i++) {
            if (c->v[k][i] < c->lo)
                c->lo = c->v[k][i];
            if (c->v[k][i] > c->hi)
                c->hi = c->v[k][i];
        }
    if (!(c->hi - c->lo > 1e-9)) {
        c->lo -= 1;
        c->hi += 1;
    } else {
        double pad = 0.05 * (c->hi - c->lo);
        c->lo -= pad;
        c->hi += pad;
    }
    return 1;
}

/* The value axis: the padded range widened to the round ticks around it, so
 * that both ends carry a label. */
static void value_axis(curves *c, int intervals, plot_ticks *t)
{
    plot_ticks_choose(c->lo, c->hi, intervals, t);
    plot_ticks_round_out(t, &c->lo, &c->hi);
}

/* The value of each component at sample index nearest `frame`. */
static int nearest_sample(const curves *c, double frame)
{
    double a = c->frame[0], b = c->frame[c->n - 1];
    int i = (int)floor((frame - a) / (b - a) * (c->n - 1) + 0.5);
    return i < 0 ? 0 : i >= c->n ? c->n - 1 : i;
}

typedef struct area {
    double x0, y0, x1, y1;   /* the plot area */
    double f0, f1, lo, hi;   /* its frame and value ranges */
} area;

static double ax(const area *a, double f) { return a->x0 + (f - a->f0) / (a->f1 - a->f0) * (a->x1 - a->x0); }
static double ay(const area *a, double v) { return a->y1 - (v - a->lo) / (a->hi - a->lo) * (a->y1 - a->y0); }

/* Text with its start (align 0), end (1) or middle (2) at x; returns its
 * advance. */
static double text_at(cairo_t *cr, double x, double y, const char *s, double size, int align)
{
    cairo_text_extents_t e;
    cairo_set_font_size(cr, size);
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, align == 1 ? x - e.x_advance : align == 2 ? x - e.x_advance / 2 : x, y);
    cairo_show_text(cr, s);
    return e.x_advance;
}

/* A label in a readable form: printable ASCII as it is, other bytes as '?'. */
static void clean_label(char *dst, size_t cap, const char *src)
{
    size_t i;
    for (i = 0; i + 1 < cap && src[i]; i++)
        dst[i] = src[i] >= 32 && src[i] < 127 ? src[i] : '?';
    dst[i] = '\0';
}

/* One panel at (px, py) of size pw × ph: title, axes with round ticks, the
 * curves, the key markers (and their values with --keys), and the legend in
 * the bottom margin, where the key values running down from the top of the
 * plot area cannot cover it. */
static void draw_panel(cairo_t *cr, const kf3ds_scene *s, uint32_t ni, int kind, curves *c,
                       int keys, double px, double py, double pw, double ph, int small)
{
    const kf3ds_track *t = &s->nodes[ni].tracks[kind];
    char buf[200], name[80];
    area a;
    plot_ticks ft, vt;
    int i, k;
    double fs = small ? 9 : 11, last_label = -1e9, lx;
    value_axis(c, small ? SMALL_VALUE_TICKS : VALUE_TICKS, &vt);
    a.x0 = px + MARGIN_L * (small ? 0.8 : 1);
    a.x1 = px + pw - MARGIN_R;
    a.y0 = py + MARGIN_T;
    a.y1 = py + ph - MARGIN_B;
    a.f0 = c->frame[0];
    a.f1 = c->frame[c->n - 1];
    a.lo = c->lo;
    a.hi = c->hi;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, px, py, pw, ph);
    cairo_fill(cr);
    /* title */
    clean_label(name, sizeof name, s->nodes[ni].name);
    snprintf(buf, sizeof buf, "[%lu] %s: %s (%lu %s)%s", (unsigned long)ni, name,
             track_words[kind], (unsigned long)t->num_keys, cli_plural(t->num_keys, "key", "keys"),
             kind == KF3DS_TRACK_ROT ? ", degrees" : "");
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, a.x0, py + MARGIN_T - 10, buf, fs + 1, 0);
    /* grid and ticks: frames on the round values within the segment, values
     * on the round values that bound the axis */
    plot_ticks_choose(a.f0, a.f1, small ? SMALL_FRAME_TICKS : FRAME_TICKS, &ft);
    cairo_set_line_width(cr, 0.5);
    for (i = 0; i < ft.count; i++) {
        double f = plot_tick_value(&ft, i);
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, ax(&a, f), a.y0);
        cairo_line_to(cr, ax(&a, f), a.y1);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        plot_tick_label(buf, sizeof buf, &ft, f);
        text_at(cr, ax(&a, f), a.y1 + fs + 3, buf, fs, 2);
    }
    for (i = 0; i < vt.count; i++) {
        double v = plot_tick_value(&vt, i);
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, a.x0, ay(&a, v));
        cairo_line_to(cr, a.x1, ay(&a, v));
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        plot_tick_label(buf, sizeof buf, &vt, v);
        text_at(cr, a.x0 - 4, ay(&a, v) + 3, buf, fs, 1);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
    cairo_stroke(cr);
    /* the curves, clipped to the area */
    cairo_save(cr);
    cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
    cairo_clip(cr);
    for (k = 0; k < c->comps; k++) {
        cairo_set_source_rgb(cr, comp_rgb[k][0], comp_rgb[k][1], comp_rgb[k][2]);
        cairo_set_line_width(cr, k == 3 ? 2.0 : 1.4);
        for (i = 0; i < c->n; i++) {
            if (i)
                cairo_line_to(cr, ax(&a, c->frame[i]), ay(&a, c->v[k][i]));
            else
                cairo_move_to(cr, ax(&a, c->frame[i]), ay(&a, c->v[k][i]));
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
    /* keys: a filled square on every component at each key's frame within
     * the segment (the rotation's at the sampled value there) */
    for (i = 0; i < (int)t->num_keys; i++) {
        const kf3ds_key *key = &t->keys[i];
        double f = key->frame;
        int si;
        if (f < a.f0 - 1e-9 || f > a.f1 + 1e-9)
            continue;
        si = nearest_sample(c, f);
        for (k = 0; k < c->comps; k++) {
            double v;
            float out[4] = { 0, 0, 0, 1 };
            if (kind == KF3DS_TRACK_ROT) {
                v = c->v[k][si];
            } else {
                kf3ds_track_eval(t, (kf3ds_track_kind)kind, f, 0, out);
                v = out[k];
            }
            cairo_set_source_rgb(cr, comp_rgb[k][0], comp_rgb[k][1], comp_rgb[k][2]);
            cairo_rectangle(cr, ax(&a, f) - MARKER / 2.0, ay(&a, v) - MARKER / 2.0, MARKER,
                            MARKER);
            cairo_fill(cr);
        }
        /* a key's values run down from the top of the area beside it; one
         * that would overprint the previous label is left out (its marker
         * stays) */
        if (keys && ax(&a, f) - last_label >= fs) {
            size_t n = 0;
            last_label = ax(&a, f);
            buf[0] = '\0';
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%ld", (long)key->frame);
            if (key->spline_flags & KF3DS_KEY_TENSION)
                n += (size_t)snprintf(buf + n, sizeof buf - n, " T%.2g", key->tension);
            if (key->spline_flags & KF3DS_KEY_CONTINUITY && n < sizeof buf)
                n += (size_t)snprintf(buf + n, sizeof buf - n, " C%.2g", key->continuity);
            if (key->spline_flags & KF3DS_KEY_BIAS && n < sizeof buf)
                n += (size_t)snprintf(buf + n, sizeof buf - n, " B%.2g", key->bias);
            if (key->spline_flags & KF3DS_KEY_EASE_TO && n < sizeof buf)
                n += (size_t)snprintf(buf + n, sizeof buf - n, " to%.2g", key->ease_to);
            if (key->spline_flags & KF3DS_KEY_EASE_FROM && n < sizeof buf)
                snprintf(buf + n, sizeof buf - n, " from%.2g", key->ease_from);
            cairo_set_source_rgb(cr, 0.35, 0.2, 0.5);
            cairo_save(cr);
            cairo_move_to(cr, ax(&a, f) + 2, a.y0 + 4);
            cairo_rotate(cr, PI / 2);
            cairo_set_font_size(cr, fs - 1);
            cairo_show_text(cr, buf);
            cairo_restore(cr);
        }
    }
    /* legend: on the line of "frame", below the frame ticks */
    lx = a.x0;
    for (k = 0; k < c->comps; k++) {
        double ly = a.y1 + 2 * fs + 4;
        cairo_set_source_rgb(cr, comp_rgb[k][0], comp_rgb[k][1], comp_rgb[k][2]);
        cairo_set_line_width(cr, k == 3 ? 2.0 : 1.4);
        cairo_move_to(cr, lx, ly - fs / 3);
        cairo_line_to(cr, lx + 14, ly - fs / 3);
        cairo_stroke(cr);
        lx += 17 + text_at(cr, lx + 17, ly, c->names[k], fs, 0) + (small ? 8 : 14);
    }
    /* the frame axis's name at its end, where the legend leaves room */
    {
        cairo_text_extents_t e;
        cairo_set_font_size(cr, fs);
        cairo_text_extents(cr, "frame", &e);
        if (lx + e.x_advance <= a.x1) {
            cairo_set_source_rgb(cr, 0, 0, 0);
            text_at(cr, a.x1, a.y1 + 2 * fs + 4, "frame", fs, 1);
        }
    }
}

/* The nodes to draw and the track of each. */
typedef struct panel {
    uint32_t node;
    int track;
} panel;

/* "node 'Box01' (object) has no fov track; its tracks: pos, rot, scl", or
 * "... has no keys" for a node without any (kind -1: none asked for). */
static void no_track(const char *file, const kf3ds_scene *s, uint32_t ni, int kind)
{
    const kf3ds_node *n = &s->nodes[ni];
    char have[120];
    size_t len = 0;
    int k;
    have[0] = '\0';
    for (k = 0; k < KF3DS_TRACK_COUNT; k++)
        if (n->tracks[k].num_keys > 0)
            len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", len ? ", " : "",
                                    track_words[k]);
    if (!len)
        cli_print_error(file, "node '%s' (%s) has no keys", n->name ? n->name : "",
                        cli_node_type(n->type));
    else
        cli_print_error(file, "node '%s' (%s) has no %s track; its tracks: %s",
                        n->name ? n->name : "",
                        cli_node_type(n->type), kind >= 0 ? track_words[kind] : "", have);
}

/* cairo's write callback: every format goes through one cli_output, so
 * "-" is standard output and a failed plot leaves no file (docs/output.md,
 * "Output files"). */
static cairo_status_t write_out(void *closure, const unsigned char *data, unsigned int length)
{
    return cli_output_write((cli_output *)closure, data, length) == 0 ? CAIRO_STATUS_SUCCESS
                                                                      : CAIRO_STATUS_WRITE_ERROR;
}

static int make_surface(int format, cli_output *out, double w, double h, cairo_surface_t **sf)
{
    if (format == PLOT_SVG)
        *sf = cairo_svg_surface_create_for_stream(write_out, out, w, h);
    else if (format == PLOT_PDF)
        *sf = cairo_pdf_surface_create_for_stream(write_out, out, w, h);
    else
        *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
    return cairo_surface_status(*sf) == CAIRO_STATUS_SUCCESS;
}

static int run_plot(const plot_opts *o)
{
    cli_scene cs;
    const kf3ds_scene *s;
    panel *panels = NULL;
    int np = 0, status, i, cols, rows, png = o->format == PLOT_PNG;
    cli_output out;
    double pw, ph;
    cairo_surface_t *sf;
    cairo_t *cr;
    unsigned flags = o->no_ease ? KF3DS_EVAL_NO_EASE : 0;

    status = cli_scene_load_sound(&cs, o->file);
    if (status)
        return status;
    s = cs.scene;
    panels = malloc(sizeof *panels * (s->num_nodes ? s->num_nodes : 1));
    if (!panels) {
        cli_print_error(o->file, "out of memory");
        cli_scene_free(&cs);
        return CLI_EXIT_INPUT;
    }
    if (o->all) {
        uint32_t n;
        for (n = 0; n < s->num_nodes && np < MAX_PANELS; n++) {
            int k = o->track >= 0 ? (s->nodes[n].tracks[o->track].num_keys > 1 ? o->track : -1)
                                  : first_animated(&s->nodes[n], 2);
            if (k < 0)
                continue;
            panels[np].node = n;
            panels[np].track = k;
            np++;
        }
        /* what the file holds, not the command line: exit 1 (docs/output.md,
         * 'plot') */
        if (!np) {
            if (o->track >= 0)
                cli_print_error(o->file, "no node has an animated %s track (more than one key) "
                                         "to plot", track_words[o->track]);
            else
                cli_print_error(o->file, "nothing to plot: no node has an animated track (more "
                                         "than one key)%s",
                                s->num_nodes ? "; --node NAME plots a node's constant tracks" : "");
            free(panels);
            cli_scene_free(&cs);
            return CLI_EXIT_INPUT;
        }
    } else {
        int32_t n = kf3ds_scene_find_node(s, o->node);
        int k;
        if (n < 0) {
            cli_print_error(o->file, "--node '%s': no such node", o->node);
            free(panels);
            cli_scene_free(&cs);
            return CLI_EXIT_INPUT;
        }
        k = o->track >= 0 ? o->track : first_animated(&s->nodes[n], 2);
        if (k < 0)
            k = first_animated(&s->nodes[n], 1);
        if (k < 0 || s->nodes[n].tracks[k].num_keys == 0) {
            no_track(o->file, s, (uint32_t)n, o->track);
            free(panels);
            cli_scene_free(&cs);
            return CLI_EXIT_INPUT;
        }
        panels[0].node = (uint32_t)n;
        panels[0].track = k;
        np = 1;
    }
    cols = np == 1 ? 1 : (int)ceil(sqrt((double)np));
    rows = (np + cols - 1) / cols;
    pw = np == 1 ? PANEL_W : SMALL_W;
    ph = np == 1 ? PANEL_H : SMALL_H;
    if (cli_output_open(&out, o->out) != 0) {
        free(panels);
        cli_scene_free(&cs);
        return CLI_EXIT_INPUT;
    }
    if (!make_surface(o->format, &out, pw * cols, ph * rows, &sf)) {
        cli_print_error(o->out, "cannot write: %s", cairo_status_to_string(cairo_surface_status(sf)));
        cairo_surface_destroy(sf);
        cli_output_abort(&out);
        free(panels);
        cli_scene_free(&cs);
        return CLI_EXIT_INPUT;
    }
    cr = cairo_create(sf);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
    cairo_paint(cr);
    for (i = 0; i < np && status == CLI_EXIT_OK; i++) {
        curves c;
        if (!sample(s, panels[i].node, panels[i].track, flags, &c)) {
            cli_print_error(o->file, "out of memory");
            status = CLI_EXIT_INPUT;
        } else {
            draw_panel(cr, s, panels[i].node, panels[i].track, &c, o->keys, (i % cols) * pw,
                       (i / cols) * ph, pw - (np > 1), ph - (np > 1), np > 1);
        }
        curves_free(&c);
    }
    cairo_destroy(cr);
    cairo_surface_flush(sf);
    if (status == CLI_EXIT_OK && png &&
        cairo_surface_write_to_png_stream(sf, write_out, &out) != CAIRO_STATUS_SUCCESS &&
        !out.error) {
        cli_print_error(o->out, "cannot write the PNG");
        status = CLI_EXIT_INPUT;
    }
    cairo_surface_finish(sf);
    if (status == CLI_EXIT_OK && !out.error &&
        cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
        cli_print_error(o->out, "cannot write: %s", cairo_status_to_string(cairo_surface_status(sf)));
        status = CLI_EXIT_INPUT;
    }
    cairo_surface_destroy(sf);
    if (status != CLI_EXIT_OK)
        cli_output_abort(&out);
    else if (cli_output_close(&out) != 0) /* also reports a failed write */
        status = CLI_EXIT_INPUT;
    if (status == CLI_EXIT_OK && !o->quiet && !cli_is_stdout(o->out)) {
        fputs("wrote ", stdout);
        cli_text_cstr(stdout, o->out);
        printf(" (%d panel%s, %gx%g)\n", np, np == 1 ? "" : "s", pw * cols, ph * rows);
    }
    free(panels);
    cli_scene_free(&cs);
    /* cairo's and fontconfig's caches, given back so that leak checkers see
     * a clean exit */
    cairo_debug_reset_static_data();
    FcFini();
    return status;
}

static int cmd_plot(int argc, char **argv)
{
    plot_opts o;
    cli_args args;
    int more;
    memset(&o, 0, sizeof o);
    o.track = -1;
    cli_args_begin(&args, VERB, argc, argv);
    while ((more = cli_next_option(&args)) > 0) {
        const char *a = cli_option(&args), *v = NULL;
        int r;
        if (strcmp(a, "--keys") == 0) {
            o.keys = 1;
        } else if (strcmp(a, "--all") == 0) {
            o.all = 1;
        } else if (strcmp(a, "--no-ease") == 0) {
            o.no_ease = 1;
        } else if ((r = cli_option_value(&args, "--node", &v)) != 0) {
            if (r < 0)
                return cli_usage_error(VERB, "--node needs a node name");
            o.node = v;
        } else if ((r = cli_option_value(&args, "--track", &v)) != 0) {
            if (r < 0 || (o.track = parse_track(v)) < 0)
                return cli_usage_error(VERB, "--track needs pos, rot, scl, fov, roll, col, hot, "
                                             "fall, hide or morph");
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
            cli_set_quiet(1);
        } else if ((r = cli_option_value(&args, "-o", &v)) != 0 ||
                   (r = cli_option_value(&args, "--output", &v)) != 0) {
            if (r < 0 || !*v)
                return cli_usage_error(VERB, "%s needs a file name", a);
            o.out = v;
        } else {
            return cli_unknown_option(&args);
        }
    }
    if (more < 0)
        return CLI_EXIT_USAGE;
    o.file = args.file;
    if (!o.out)
        return cli_usage_error(VERB, "no output given (-o OUT.svg, OUT.png or OUT.pdf)");
    {
        static const char *const names[] = { "png", "svg", "pdf", NULL };
        size_t n = strlen(o.out);
        if (cli_other_extension(o.out, names))
            return cli_usage_error(VERB, "-o '%s': plot writes SVG, PDF or PNG (name it .svg, "
                                         ".pdf or .png)", o.out);
        if (n > 4 && strcasecmp(o.out + n - 4, ".svg") == 0)
            o.format = PLOT_SVG;
        else if (n > 4 && strcasecmp(o.out + n - 4, ".pdf") == 0)
            o.format = PLOT_PDF;
        if (cli_check_output(VERB, "-o", o.out,
                             o.format == PLOT_SVG ? NULL : o.format == PLOT_PDF ? "PDF" : "PNG"))
            return CLI_EXIT_USAGE;
    }
    if (!o.node && !o.all)
        return cli_usage_error(VERB, "--node NAME or --all is needed");
    if (o.node && o.all)
        return cli_usage_error(VERB, "--node and --all exclude each other");
    return run_plot(&o);
}

const cli_verb cmd_plot_verb = {
    VERB,
    cmd_plot,
    "plot FILE (--node NAME | --all) [--track KIND] [--keys] [--no-ease] [-q] -o OUT",
    "Plot a node's animation curves over the segment to SVG, PNG or PDF (cairo).",
    "What to plot:\n"
    "  --node NAME        the node (the first one of that name)\n"
    "  --all              small multiples: one panel for every node with an animated\n"
    "                     track (more than one key), on one sheet\n"
    "  --track KIND       pos, rot, scl, fov, roll, col, hot, fall, hide or morph\n"
    "                     (default: the node's first animated track, in that order)\n"
    "  --keys             write each key's frame, tension, continuity, bias and ease\n"
    "                     values beside it (those the key stores)\n"
    "  --no-ease          evaluate without ease-to/ease-from\n"
    "  -o, --output OUT   OUT.svg, OUT.pdf or OUT.png (PNG also without an extension;\n"
    "                     another extension is refused); - is standard output (PNG)\n"
    "  -q, --quiet        no 'wrote OUT' line, no warnings\n"
    "\n"
    "Each component's value is sampled 8 times a frame (at most 4000 samples) over\n"
    "the segment and drawn against the frame; every key within the segment is a\n"
    "filled square on each component. A rotation is drawn as its angles about x,\n"
    "y and z (Euler angles of R = Rz Ry Rx, in degrees, unwrapped from sample to\n"
    "sample, so a spin keeps climbing) and as the accumulated angle turned since\n"
    "the segment's start. hide is 0 or 1 (hidden); morph is the index of the\n"
    "current key. Ticks are at round values (steps of 1, 2 or 5 x 10^k).\n",
};
