/* The kf3ds command: verbs (one cmd_*.c file each) and the helpers they share
 * (cmd_common.c). The tools use only the public header include/kf3ds.h. */
#ifndef KF3DS_CMD_H
#define KF3DS_CMD_H
#include <stddef.h>
#include <stdio.h>
#include "kf3ds.h"
#include "kf3ds_render.h"
#include "cli_options.h"

/* Exit status of the command (docs/output.md). */
enum {
    CLI_EXIT_OK = 0,      /* success (warnings allowed) */
    CLI_EXIT_INPUT = 1,   /* input unreadable or malformed */
    CLI_EXIT_USAGE = 2    /* wrong usage */
};

/* One verb of the command. run() gets argv[0] = the verb's name and the
 * arguments after it, and returns the exit status. */
typedef struct cli_verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;  /* "dump FILE [--json] [--full]" */
    const char *summary;   /* one line for the verb list */
    const char *help;      /* the rest of `kf3ds help VERB` */
} cli_verb;

extern const cli_verb cmd_dump_verb;
extern const cli_verb cmd_info_verb;
extern const cli_verb cmd_eval_verb;
extern const cli_verb cmd_bake_verb;
extern const cli_verb cmd_rewrite_verb;
/* Built with -DKF3DS_NO_FRONTENDS (mk/cross.mk), the command has no render,
 * view and export verbs and needs neither SDL2 nor libpng. */
#ifndef KF3DS_NO_FRONTENDS
extern const cli_verb cmd_export_verb;
extern const cli_verb cmd_render_verb;
extern const cli_verb cmd_view_verb;
extern const cli_verb cmd_plot_verb;
extern const cli_verb cmd_convert_verb;
extern const cli_verb cmd_thumbnail_verb;
#endif

/* ---- usage and help ---------------------------------------------------- */

/* Prints "kf3ds: VERB: <message> (see 'kf3ds help VERB')" as one line on
 * stderr and returns CLI_EXIT_USAGE. verb may be NULL. */
int cli_usage_error(const char *verb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints the help of one verb on `out`. */
void cli_print_verb_help(FILE *out, const cli_verb *verb);
/* 1 when one of argv[1..] (before a "--") is -h or --help. */
int cli_wants_help(int argc, char **argv);
/* A verb's command line: exactly one FILE, "--" (what follows is a FILE),
 * and options, which the verb takes one at a time:
 *     cli_args a;
 *     cli_args_begin(&a, "info", argc, argv);
 *     while ((r = cli_next_option(&a)) > 0)
 *         if (strcmp(cli_option(&a), "--json") == 0) ... else return cli_unknown_option(&a);
 *     if (r < 0) return CLI_EXIT_USAGE;   (the usage error is printed)
 *     ... a.file ... */
typedef struct cli_args {
    const char *verb;
    int argc;
    char **argv;
    int i;               /* argv index of the current option */
    int no_more_options; /* after "--" */
    const char *file;
} cli_args;
void cli_args_begin(cli_args *a, const char *verb, int argc, char **argv);
/* 1: cli_option(a) is an option for the verb; 0: the end, a->file is set;
 * -1: a second FILE or none (printed). */
int cli_next_option(cli_args *a);
const char *cli_option(const cli_args *a);
/* Matches the current option against a value option `name` ("--frame"), in
 * either form "--frame=V" or "--frame V" (then the value is consumed).
 * Returns 1 with *value set, 0 when it is not that option, -1 when the value
 * is missing. */
int cli_option_value(cli_args *a, const char *name, const char **value);
/* Prints "unknown option" for the current option; returns CLI_EXIT_USAGE. */
int cli_unknown_option(const cli_args *a);

/* ---- input --------------------------------------------------------------- */

/* Reads the whole file ("-" is stdin), at most the input limit (1 GiB, or
 * $KF3DS_MAX_INPUT; docs/output.md). On failure prints "kf3ds: FILE: cannot
 * open: <reason>" or why it is over the limit and returns CLI_EXIT_INPUT
 * (CLI_EXIT_USAGE when KF3DS_MAX_INPUT is not a size). */
int cli_read_file(const char *path, unsigned char **data, size_t *size);
/* cli_read_file for the FILE of a verb: the first bytes must be a 3DS root
 * chunk (or, when kfb is set, the .kfb magic), checked as soon as they arrive;
 * otherwise prints "kf3ds: FILE: not a 3DS file: it is a PNG image" (what
 * the bytes say it is) and returns CLI_EXIT_INPUT without reading further. */
int cli_read_3ds(const char *path, int kfb, unsigned char **data, size_t *size);
/* Reads FILE and loads it. Returns CLI_EXIT_OK with *scene set (a damaged
 * file's scene too: its diagnostics are in the scene and *error, not yet
 * printed), or, when nothing could be loaded, the exit status after printing
 * why (*scene NULL). file_size may be NULL. */
int cli_load(const char *file, kf3ds_scene **scene, kf3ds_diag *error, size_t *file_size);
/* cli_load for verbs that need a sound scene (render, view): prints every
 * diagnostic and returns CLI_EXIT_OK only when none is an error (else the
 * scene is freed and *scene NULL). */
int cli_load_sound(const char *file, kf3ds_scene **scene);
/* The scene a verb evaluates: loaded, with one pose per node for
 * kf3ds_scene_eval. */
typedef struct cli_scene {
    kf3ds_scene *scene;
    kf3ds_pose *poses;   /* scene->num_nodes of them (at least one) */
    kf3ds_diag error;    /* cli_scene_load: the load's error, for cli_report_load */
} cli_scene;
/* cli_load, then the poses: CLI_EXIT_OK, or the exit status after printing
 * why (then there is nothing to free). The load's diagnostics are not printed
 * yet: cli_report_load(file, cs->scene, &cs->error) does that. */
int cli_scene_load(cli_scene *cs, const char *file);
/* The same for verbs that need a sound scene, with cli_load_sound (the
 * diagnostics are printed). */
int cli_scene_load_sound(cli_scene *cs, const char *file);
void cli_scene_free(cli_scene *cs);
/* The camera `--camera NAME` names: the first camera node called NAME (*node
 * its index), else, when editor_camera is not NULL, an editor camera called
 * NAME that no camera node animates (*editor_camera its index). The one not
 * found is KF3DS_NONE. When neither is found, prints the usage error
 *   kf3ds: VERB: --camera 'NAME': no such camera (the file has: Cam01, Cam02)
 * (the camera nodes, or without any the editor cameras when those count), or
 * "... the file has no camera", and returns CLI_EXIT_INPUT (it depends on the
 * file, not on the command line). */
int cli_find_camera(const char *verb, const kf3ds_scene *s, const char *name, int32_t *node,
                    int32_t *editor_camera);
/* Prints one diagnostic as a single line on stderr:
 *   kf3ds: FILE: offset N, chunk 0xB021 ROT_TRACK_TAG: message
 *   kf3ds: warning: FILE: offset N, chunk 0x.... NAME: message */
void cli_print_diag(const char *file, const kf3ds_diag *d);
/* Prints a plain error line "kf3ds: FILE: message". */
void cli_print_error(const char *file, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints all diagnostics of a load (scene may be NULL, then only *error) and
 * returns the exit status it implies: CLI_EXIT_INPUT when the load failed,
 * returned an error, or any diagnostic is an error; CLI_EXIT_OK otherwise. */
int cli_report_load(const char *file, const kf3ds_scene *scene, const kf3ds_diag *error);
/* The exit status cli_report_load would return, without printing. */
int cli_load_status(const kf3ds_scene *scene, const kf3ds_diag *error);
/* A 3DS file cut short: the file ends before its root chunk does and cuts a
 * chunk inside it (found by cli_read_3ds). The library reports it as the
 * root's "file ends N bytes before the chunk does; clamped" warning; the
 * command reports it instead, as an error (a warning for rewrite), with what
 * was lost (docs/output.md, "Damaged files"):
 *   kf3ds: FILE: offset 0, chunk 0x4D4D M3DMAGIC: truncated: the file ends 4043
 *   bytes before its root chunk does; lost: the chunks past offset 1000, inside
 *   MDATA (offset 16) > ..., and the keyframer (no KFDATA chunk is left)
 * cli_is_truncation_diag: 1 for that diagnostic of the file read. */
int cli_is_truncation_diag(const kf3ds_diag *d);
void cli_print_truncation(const char *file, int as_warning);
/* The text after "offset 0, chunk 0x4D4D M3DMAGIC: " (for info's list). */
void cli_truncation_text(FILE *out);
/* The message of a diagnostic as a C string (it may lack a terminator). */
size_t cli_diag_message_len(const kf3ds_diag *d);

/* ---- output -------------------------------------------------------------- */

/* A JSON string (with quotes): ", \ and control characters escaped, valid
 * UTF-8 kept, every other byte as \u00XX. */
void cli_json_string(FILE *out, const char *s, size_t len);
/* The same for a C string; NULL prints "". */
void cli_json_cstr(FILE *out, const char *s);
/* A JSON number with 9 significant digits; NaN and infinities print null. */
void cli_json_number(FILE *out, double v);
/* The shortest decimal that reads back as v (up to 17 digits); null when
 * not finite. */
void cli_json_number_exact(FILE *out, double v);
/* A name for people: printable characters and valid UTF-8 as they are,
 * backslash as \\, everything else as \xNN; no quotes added. */
void cli_text_string(FILE *out, const char *s, size_t len);
void cli_text_cstr(FILE *out, const char *s);
/* A name for people: as cli_text_cstr, in double quotes (with \" inside)
 * when it is empty or has spaces, quotes, parentheses or control bytes. */
void cli_text_name(FILE *out, const char *s);
/* v, with -0 turned into 0 (for text output). */
double cli_text_float(double v);
/* `one` when n is 1, else `many`: "1 face", "2 faces", "0 faces" in every
 * count the command prints (docs/output.md). */
const char *cli_plural(unsigned long long n, const char *one, const char *many);

/* Writes fb as an 8-bit RGB PNG through libpng (cmd_png.c); path "-" is
 * standard output. Returns 0 on success; on failure prints
 * "kf3ds: PATH: cannot write: <reason>", removes a partly written regular
 * file and returns -1. */
int cli_write_png(const char *path, const kf3ds_framebuffer *fb);
/* Encodes 0xAARRGGBB pixels (top row first) as PNG in memory (a palette
 * when all are opaque and of at most 256 colours, else RGB, or RGBA when
 * some are not opaque; tools/cmd/cmd_png_memory.c): 0 with *out (free it) and
 * *size, or -1 with *why. */
int cli_encode_png(const uint32_t *argb, int width, int height, unsigned char **out,
                   size_t *size, char *why, size_t why_cap);

/* ---- .kfb files (cmd_dump_kfb.c, docs/kfb.md) ----------------------------- */

/* 1 when the bytes start with the .kfb magic (cmd_common.c). */
int cli_is_kfb(const unsigned char *data, size_t size);
/* kf3ds info and kf3ds dump [--json] [--full] of a .kfb file; the exit status
 * (an invalid file: "kf3ds: FILE: offset N: what", CLI_EXIT_INPUT). */
int cli_kfb_info(const char *file, const unsigned char *data, size_t size);
int cli_kfb_dump(const char *file, const unsigned char *data, size_t size, int json, int full);
/* num / scale (a power of ten) as the shortest decimal: 12, -0.75. */
void cli_print_decimal(FILE *out, int64_t num, uint32_t scale);

/* The node type as the output names it ("object", "camera", ...; docs/output.md). */
const char *cli_node_type(kf3ds_node_type type);

/* "[i] type name (instance) id N": how info and eval name a node. */
void cli_node_label(FILE *out, const kf3ds_scene *s, uint32_t i);

/* ---- output files (docs/output.md, "Output files") ----------------------- */

/* -q: warning lines are not printed (cli_print_diag, the map warnings);
 * errors still are. Set by every verb that prints warnings. */
void cli_set_quiet(int quiet);
int cli_quiet(void);
/* 1 when an output path means standard output ("-"). */
int cli_is_stdout(const char *path);
/* Checks an output option before anything is read: when `path` is "-",
 * `binary` (a format name such as "PNG", NULL for text) is not written to a
 * terminal. Returns CLI_EXIT_OK or, after the usage line
 *   kf3ds: VERB: refusing to write binary PNG to a terminal; redirect
 *   standard output or give -o FILE (see 'kf3ds help VERB'),
 * CLI_EXIT_USAGE. `option` is the option's name ("-o", "--screenshot"). */
int cli_check_output(const char *verb, const char *option, const char *path, const char *binary);
/* The one refusal for an output that cannot stream, e.g.
 *   kf3ds: render: -o -: --frames cannot be written to standard output (one
 *   PNG per frame) (see 'kf3ds help render')
 * Returns CLI_EXIT_USAGE. */
int cli_refuse_stdout(const char *verb, const char *option, const char *what, const char *why);
/* 1 when path ends in a filename extension (a dot after the last '/', not
 * leading the name) and that extension is none of the NULL-terminated list
 * (compared without case): such a name asks for a format the verb does not
 * write. */
int cli_other_extension(const char *path, const char *const *allowed);

/* One output file being written: to a temporary file beside it that is
 * renamed over it when complete, so a failure leaves no partial file (a path
 * that is not a regular file, such as /dev/null, is written in place); "-"
 * is standard output. */
typedef struct cli_output {
    const char *path;   /* as given, for messages */
    FILE *file;         /* write here */
    char *tmp;          /* the temporary name, NULL when written in place */
    int to_stdout;
    int created;        /* written in place to a file this call created */
    int error;          /* errno of the first failed cli_output_write, or 0 */
} cli_output;
/* Opens it; on failure prints "kf3ds: PATH: cannot write: REASON" and
 * returns -1 (then nothing is left to close). */
int cli_output_open(cli_output *o, const char *path);
/* fwrite that remembers the first failure; returns 0 or -1. */
int cli_output_write(cli_output *o, const void *data, size_t len);
/* Flushes and closes it and renames it into place; on any failure (also an
 * earlier write's) prints "kf3ds: PATH: cannot write: REASON", removes what
 * was written and returns -1. */
int cli_output_close(cli_output *o);
/* Gives it up without a message (the caller printed why): removes what was
 * written. */
void cli_output_abort(cli_output *o);
/* cli_output_open, the bytes, cli_output_close: 0 or -1 (printed). */
int cli_write_output(const char *path, const void *data, size_t len);

#endif
