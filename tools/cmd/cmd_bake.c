/* kf3ds bake FILE -o OUT.kfb [--frames A:B] [--step S] [--fixed] [--frac-bits N]
 *                 [--no-meshes] [--nodes NAME,...] [--c-source NAME] [-q]
 *                 [--tolerance T] [--between]
 * Evaluates the animation at every baked frame and writes the world matrices,
 * visibility, camera and light channels, placed meshes and materials as a
 * .kfb file (docs/kfb.md), and/or as C source for a ROM image. The baking is
 * the library's (include/kf3ds_bake.h, src/bake/); this file is the verb: its
 * options, messages and files. */
#include "cmd.h"
#include "kf3ds_bake.h"
#include "kf3ds_kfb.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define VERB "bake"
#define MAX_DECIMALS 6

typedef struct bake_opts {
    const char *file, *out, *c_source, *frames, *step, *nodes;
    int fixed, frac_bits, no_meshes, quiet;
    int between;              /* --between: report interpolation between frames */
    double tolerance;         /* --tolerance: the bound between frames, 0 none */
} bake_opts;

/* ---- frames --------------------------------------------------------------- */

/* A decimal "[-]digits[.digits]" as num / 10^decimals (trailing zeros of the
 * fraction dropped), |num| < 2^31. 0 when it is not one. */
static int parse_decimal(const char *s, int64_t *num, int *decimals)
{
    int64_t v = 0;
    int neg = 0, digits = 0, d = 0, frac = 0;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    for (; isdigit((unsigned char)*s); s++, digits++) {
        v = v * 10 + (*s - '0');
        if (v > INT32_MAX)
            return 0;
    }
    if (*s == '.') {
        const char *f = ++s, *last = s;
        for (; isdigit((unsigned char)*s); s++)
            if (*s != '0')
                last = s + 1;
        for (; f < last; f++, digits++, frac++) {
            if (frac == MAX_DECIMALS)
                return 0;
            v = v * 10 + (*f - '0');
            if (v > INT32_MAX)
                return 0;
        }
        digits += (int)(s - last);
        d = frac;
    }
    if (*s || !digits)
        return 0;
    *num = neg ? -v : v;
    *decimals = d;
    return 1;
}

static int64_t pow10i(int n)
{
    int64_t p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

/* The frames A, A+S, ... up to B as (first + i·step) / scale. */
static int plan_frames(const bake_opts *o, const kf3ds_scene *s, kf3ds_bake_options *plan)
{
    int64_t a = s->segment_start, b = s->segment_end, st = 1, count;
    int da = 0, db = 0, ds = 0, d;
    if (o->frames) {
        const char *colon = strchr(o->frames, ':');
        char left[64];
        size_t n = colon ? (size_t)(colon - o->frames) : 0;
        if (!colon || n >= sizeof left)
            return cli_usage_error(VERB, "--frames '%s': expected A:B, e.g. 0:100", o->frames);
        memcpy(left, o->frames, n);
        left[n] = '\0';
        if (!parse_decimal(left, &a, &da) || !parse_decimal(colon + 1, &b, &db))
            return cli_usage_error(VERB, "--frames '%s': A and B must be decimal numbers with "
                                   "at most %d decimals", o->frames, MAX_DECIMALS);
    }
    if (o->step && (!parse_decimal(o->step, &st, &ds) || st <= 0))
        return cli_usage_error(VERB, "--step '%s': a positive decimal number with at most %d "
                               "decimals is needed", o->step, MAX_DECIMALS);
    d = da > db ? da : db;
    d = d > ds ? d : ds;
    a *= pow10i(d - da);
    b *= pow10i(d - db);
    st *= pow10i(d - ds);
    if (b < a)
        return cli_usage_error(VERB, "--frames %s: the last frame comes before the first",
                               o->frames);
    count = (b - a) / st + 1;
    if (a < INT32_MIN || a > INT32_MAX || b > INT32_MAX || st > INT32_MAX)
        return cli_usage_error(VERB, "the frames do not fit the file's 32-bit frame numbers");
    if (count > 0xFFFFFFFFll)
        return cli_usage_error(VERB, "%lld frames are too many", (long long)count);
    plan->frame_first = (int32_t)a;
    plan->frame_step = (int32_t)st;
    plan->frame_scale = (uint32_t)pow10i(d);
    plan->num_frames = (uint32_t)count;
    return CLI_EXIT_OK;
}

/* --tolerance's progress: each step tried, on standard error. */
static void step_tried(void *user, const kf3ds_bake_options *f,
                       const kf3ds_bake_between_info *m)
{
    const bake_opts *o = user;
    if (o->quiet)
        return;
    fputs("bake: step ", stderr);
    cli_print_decimal(stderr, f->frame_step, f->frame_scale);
    fprintf(stderr, ": %lu %s, between them up to %.3g of the extent%s\n",
            (unsigned long)f->num_frames, cli_plural(f->num_frames, "frame", "frames"), m->worst,
            m->worst <= o->tolerance ? " (within --tolerance)" : "");
}

/* --tolerance T (docs/kfb.md, "Between baked frames"): the library halves
 * the step until an engine that lerps the baked matrices stays within T. */
static int choose_step(const bake_opts *o, const kf3ds_scene *s, kf3ds_bake_options *plan,
                       kf3ds_bake_between_info *m)
{
    kf3ds_status st = kf3ds_bake_fit_step(s, plan, o->tolerance, step_tried, (void *)o, m);
    if (st == KF3DS_ERR_LIMIT) {
        cli_print_error(o->file, "--tolerance %g: at step %.6g (%lu frames) an engine that lerps "
                        "the baked matrices still strays %.3g of the extent (node %lu, frame "
                        "%.6g), and half that step %s: bake fewer frames (--frames) or allow "
                        "more (--tolerance)", o->tolerance,
                        (double)plan->frame_step / plan->frame_scale,
                        (unsigned long)plan->num_frames, m->worst, (unsigned long)m->node, m->frame,
                        m->limit == KF3DS_BAKE_FIT_DECIMALS ? "would have more than 6 decimals"
                        : m->limit == KF3DS_BAKE_FIT_RANGE  ? "would not fit 32-bit frame numbers"
                                                            : "would make over a million frames");
        return CLI_EXIT_INPUT;
    }
    if (st != KF3DS_OK) {
        cli_print_error(o->file, "--tolerance: %s", kf3ds_status_string(st));
        return CLI_EXIT_INPUT;
    }
    return CLI_EXIT_OK;
}

/* --between: the measure on one line. */
static void print_between(FILE *out, uint32_t num_frames, const kf3ds_bake_between_info *m)
{
    if (num_frames < 2)
        fprintf(out, "between frames: one frame baked, nothing between\n");
    else
        fprintf(out, "between frames: linear interpolation of the baked matrices strays up to "
                     "%.3g of the scene's extent (node %lu, frame %.6g)\n",
                m->worst, (unsigned long)m->node, m->frame);
}

/* ---- nodes ----------------------------------------------------------------- */

/* --nodes NAME,...: the names, split at the commas, into the library's
 * options; *copy (free it) holds them. */
static int plan_nodes(const bake_opts *o, kf3ds_bake_options *plan, char **copy)
{
    size_t len = strlen(o->nodes), n = 1, i;
    const char **names;
    char *p;
    for (i = 0; i < len; i++)
        n += o->nodes[i] == ',';
    *copy = malloc(len + 1);
    names = malloc(sizeof *names * n);
    if (!*copy || !names) {
        free(names);
        cli_print_error(o->file, "out of memory");
        return CLI_EXIT_INPUT;
    }
    memcpy(*copy, o->nodes, len + 1);
    for (p = *copy, i = 0;; i++) {
        char *comma = strchr(p, ',');
        names[i] = p;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    plan->nodes = names;
    plan->num_nodes = (uint32_t)n;
    return CLI_EXIT_OK;
}

/* ---- outputs ---------------------------------------------------------------- */

static int write_bytes(const char *path, const void *data, size_t size)
{
    return cli_write_output(path, data, size) == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

/* The C identifier of --c-source NAME: its last path component. */
static const char *c_identifier(const char *name)
{
    const char *id = strrchr(name, '/'), *p;
    id = id ? id + 1 : name;
    if (!*id || isdigit((unsigned char)*id))
        return NULL;
    for (p = id; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return NULL;
    return id;
}

/* NAME.h and NAME.c: the bytes as a const array and an accessor that opens them. */
static int write_c_source(const char *name, const char *id, const char *source,
                          const unsigned char *data, size_t size)
{
    size_t n = strlen(name) + 3, i;
    char *path = malloc(n);
    char upper[256];
    cli_output out;
    FILE *f;
    int ok;
    if (!path) {
        cli_print_error(name, "out of memory");
        return CLI_EXIT_INPUT;
    }
    for (i = 0; id[i] && i + 1 < sizeof upper; i++)
        upper[i] = (char)toupper((unsigned char)id[i]);
    upper[i] = '\0';

    snprintf(path, n, "%s.h", name);
    if (cli_output_open(&out, path) != 0) {
        free(path);
        return CLI_EXIT_INPUT;
    }
    f = out.file;
    fprintf(f, "/* %s.h: %s baked by kf3ds bake (docs/kfb.md). */\n", id, source);
    fprintf(f, "#ifndef %s_KFB_H\n#define %s_KFB_H\n#include \"kf3ds_kfb.h\"\n\n", upper, upper);
    fprintf(f, "#define %s_KFB_SIZE %luUL\n", upper, (unsigned long)size);
    fprintf(f, "/* The .kfb file's bytes (little-endian whatever the CPU; 4-byte aligned\n"
               " * with GCC and clang). */\n");
    fprintf(f, "extern const unsigned char %s_kfb[%s_KFB_SIZE];\n", id, upper);
    fprintf(f, "/* kf3ds_kfb_open on them: KF3DS_KFB_OK, and *f ready for the accessors. */\n");
    fprintf(f, "int %s_open(kf3ds_kfb_file *f);\n\n#endif\n", id);
    ok = cli_output_close(&out) == 0;

    snprintf(path, n, "%s.c", name);
    if (!ok || cli_output_open(&out, path) != 0) {
        free(path);
        return CLI_EXIT_INPUT;
    }
    f = out.file;
    fprintf(f, "/* %s.c: %s baked by kf3ds bake, %lu bytes (docs/kfb.md). */\n", id, source,
            (unsigned long)size);
    fprintf(f, "#include \"%s.h\"\n\n", id);
    fprintf(f, "#if defined(__GNUC__)\n__attribute__((aligned(4)))\n#endif\n");
    fprintf(f, "const unsigned char %s_kfb[%s_KFB_SIZE] = {", id, upper);
    for (i = 0; i < size; i++)
        fprintf(f, "%s0x%02x,", i % 12 ? " " : "\n    ", data[i]);
    fprintf(f, "\n};\n\nint %s_open(kf3ds_kfb_file *f)\n{\n"
               "    return kf3ds_kfb_open(f, %s_kfb, %s_KFB_SIZE);\n}\n", id, id, upper);
    ok = cli_output_close(&out) == 0;
    free(path);
    return ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

/* "16.16 fixed point" / "float" */
static void describe_format(FILE *out, const kf3ds_bake_info *info)
{
    if (info->fixed)
        fprintf(out, "%d.%d fixed point", 32 - info->frac_bits, info->frac_bits);
    else
        fputs("float", out);
}

static void report(const bake_opts *o, const kf3ds_bake_info *info, size_t size)
{
    FILE *out = stdout;
    if (o->quiet || cli_is_stdout(o->out))
        return; /* standard output holds the .kfb */
    fputs("wrote ", out);
    if (o->out)
        cli_text_cstr(out, o->out);
    if (o->c_source) {
        fprintf(out, "%s", o->out ? ", " : "");
        cli_text_cstr(out, o->c_source);
        fputs(".c and ", out);
        cli_text_cstr(out, o->c_source);
        fputs(".h", out);
    }
    fprintf(out, " (%lu bytes): %lu %s ", (unsigned long)size,
            (unsigned long)info->num_frames, cli_plural(info->num_frames, "frame", "frames"));
    cli_print_decimal(out, info->frame_first, info->frame_scale);
    fputs("..", out);
    cli_print_decimal(out, info->frame_first + (int64_t)info->frame_step * (info->num_frames - 1),
                info->frame_scale);
    fputs(" step ", out);
    cli_print_decimal(out, info->frame_step, info->frame_scale);
    fprintf(out, ", %lu %s, %lu %s, %lu %s, %lu %s, ", (unsigned long)info->num_nodes,
            cli_plural(info->num_nodes, "node", "nodes"), (unsigned long)info->num_channels,
            cli_plural(info->num_channels, "channel", "channels"),
            (unsigned long)info->num_meshes, cli_plural(info->num_meshes, "mesh", "meshes"),
            (unsigned long)info->num_materials,
            cli_plural(info->num_materials, "material", "materials"));
    describe_format(out, info);
    fputc('\n', out);
}

static int run_bake(const bake_opts *o)
{
    kf3ds_scene *s;
    kf3ds_bake_options plan;
    kf3ds_bake_info info;
    kf3ds_diag error;
    kf3ds_status e;
    kf3ds_kfb_file check;
    unsigned char *data = NULL;
    size_t size = 0;
    char *names = NULL;
    const char *id = NULL;
    kf3ds_bake_between_info between;
    int status, st;

    if (o->c_source && !(id = c_identifier(o->c_source)))
        return cli_usage_error(VERB, "--c-source '%s': the name (after the last /) must be a C "
                               "identifier", o->c_source);
    status = cli_load_sound(o->file, &s);
    if (status)
        return status;
    memset(&plan, 0, sizeof plan);
    if (!s->num_nodes) {
        /* a sound static model, not a malformed one: say so (status 1, the
         * file has nothing this verb makes; docs/output.md "Exit status") */
        cli_print_error(o->file, "no keyframer nodes: a static model, nothing to bake (a .kfb "
                        "holds keyframer animation; 'kf3ds export' writes a static model)");
        kf3ds_scene_free(s);
        return CLI_EXIT_INPUT;
    }
    plan.flags = (o->fixed ? KF3DS_BAKE_FIXED : 0) | (o->no_meshes ? KF3DS_BAKE_NO_MESHES : 0);
    plan.frac_bits = o->frac_bits == 16 ? 0 : o->frac_bits == 0 ? KF3DS_BAKE_FRAC_NONE
                                                                : o->frac_bits;
    status = plan_frames(o, s, &plan);
    if (!status && o->tolerance > 0.0)
        status = choose_step(o, s, &plan, &between);
    if (!status && o->nodes)
        status = plan_nodes(o, &plan, &names);
    e = status ? KF3DS_OK : kf3ds_bake(s, &plan, &data, &size, &info, &error);
    if (status) {
        /* printed */
    } else if (info.problem == KF3DS_BAKE_UNKNOWN_NODE) {
        /* the file's content: status 1 (docs/output.md, "Exit status") */
        cli_print_error(o->file, "--nodes: no node is called '%s' ('kf3ds info %s' lists them)",
                        info.missing_node, o->file);
        status = CLI_EXIT_INPUT;
    } else if (info.problem == KF3DS_BAKE_TOO_BIG) {
        cli_print_error(o->file, "the baked file would exceed 4 GiB: bake fewer frames "
                        "(--frames, --step) or nodes (--nodes)");
        status = CLI_EXIT_INPUT;
    } else if (info.problem == KF3DS_BAKE_RANGE) {
        if (info.frac_bits >= 0)
            cli_print_error(o->file, "a value of magnitude %.6g does not fit %d.%d fixed point: "
                            "use --frac-bits %d or less (or --frac-bits auto)", info.largest,
                            32 - o->frac_bits, o->frac_bits, info.frac_bits);
        else
            cli_print_error(o->file, "a value of magnitude %.6g does not fit 32-bit fixed "
                            "point: bake without --fixed", info.largest);
        status = CLI_EXIT_INPUT;
    } else if (e != KF3DS_OK) { /* out of memory: the library's words */
        cli_print_error(o->file, "%s", error.message);
        status = CLI_EXIT_INPUT;
    } else if ((st = kf3ds_kfb_open(&check, data, size)) != KF3DS_KFB_OK) {
        cli_print_error(o->file, "internal error: the baked image fails its own check (%s at "
                        "offset %lu)", kf3ds_kfb_status_string(st),
                        (unsigned long)check.error_offset);
        status = CLI_EXIT_INPUT;
    } else {
        if (o->out)
            status = write_bytes(o->out, data, size);
        if (!status && o->c_source)
            status = write_c_source(o->c_source, id, o->file, data, size);
        if (!status)
            report(o, &info, size);
        if (!status && o->between) {
            FILE *to = cli_is_stdout(o->out) ? stderr : stdout;
            /* with --tolerance, measured at this step already */
            if (o->tolerance > 0.0 || kf3ds_bake_between(s, &plan, &between) == KF3DS_OK) {
                print_between(to, info.num_frames, &between);
            } else {
                cli_print_error(o->file, "bake --between: out of memory");
                status = CLI_EXIT_INPUT;
            }
        }
    }
    kf3ds_bake_free(data, &plan);
    free((void *)plan.nodes);
    free(names);
    kf3ds_scene_free(s);
    return status;
}

static int cmd_bake(int argc, char **argv)
{
    bake_opts o;
    cli_args a;
    int r;
    memset(&o, 0, sizeof o);
    o.frac_bits = 16;
    cli_args_begin(&a, VERB, argc, argv);
    while ((r = cli_next_option(&a)) > 0) {
        const char *opt = cli_option(&a), *v = NULL;
        int got;
        if (strcmp(opt, "--fixed") == 0) {
            o.fixed = 1;
        } else if (strcmp(opt, "--no-meshes") == 0) {
            o.no_meshes = 1;
        } else if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            o.quiet = 1;
            cli_set_quiet(1);
        } else if ((got = cli_option_value(&a, "-o", &v)) != 0 ||
                   (got = cli_option_value(&a, "--output", &v)) != 0) {
            if (got < 0)
                return cli_usage_error(VERB, "-o needs a file name");
            o.out = v;
        } else if ((got = cli_option_value(&a, "--frames", &v)) != 0) {
            if (got < 0)
                return cli_usage_error(VERB, "--frames needs A:B");
            o.frames = v;
        } else if (strcmp(opt, "--between") == 0) {
            o.between = 1;
        } else if ((got = cli_option_value(&a, "--tolerance", &v)) != 0) {
            if (got < 0)
                return cli_usage_error(VERB, "--tolerance needs a fraction of the extent");
            if (!cli_parse_frame(v, &o.tolerance) ||
                !(o.tolerance >= KF3DS_BAKE_FIT_MIN_TOLERANCE &&
                  o.tolerance <= KF3DS_BAKE_FIT_MAX_TOLERANCE))
                return cli_usage_error(VERB, "--tolerance '%s': a fraction of the scene's extent "
                                       "from 1e-9 to 0.1 (e.g. 1e-4)", v);
        } else if ((got = cli_option_value(&a, "--step", &v)) != 0) {
            if (got < 0)
                return cli_usage_error(VERB, "--step needs a number");
            o.step = v;
        } else if ((got = cli_option_value(&a, "--frac-bits", &v)) != 0) {
            char *end = NULL;
            long n;
            if (got < 0)
                return cli_usage_error(VERB, "--frac-bits needs a number of bits or auto");
            o.fixed = 1;
            if (strcmp(v, "auto") == 0) {
                o.frac_bits = KF3DS_BAKE_FRAC_AUTO;
                continue;
            }
            n = strtol(v, &end, 10);
            if (!*v || *end || n < 0 || n > KF3DS_BAKE_MAX_FRAC_BITS)
                return cli_usage_error(VERB, "--frac-bits '%s': 0 to %d, or auto", v,
                                       KF3DS_BAKE_MAX_FRAC_BITS);
            o.frac_bits = (int)n;
        } else if ((got = cli_option_value(&a, "--nodes", &v)) != 0) {
            if (got < 0 || !*v)
                return cli_usage_error(VERB, "--nodes needs NAME,NAME,...");
            o.nodes = v;
        } else if ((got = cli_option_value(&a, "--c-source", &v)) != 0) {
            if (got < 0 || !*v)
                return cli_usage_error(VERB, "--c-source needs a NAME");
            o.c_source = v;
        } else {
            return cli_unknown_option(&a);
        }
    }
    o.file = a.file;
    if (r < 0)
        return CLI_EXIT_USAGE;
    if (!o.out && !o.c_source)
        return cli_usage_error(VERB, "say where to write: -o OUT.kfb and/or --c-source NAME");
    if (cli_is_stdout(o.c_source))
        return cli_refuse_stdout(VERB, "--c-source", "C source", "NAME.c and NAME.h");
    if (cli_check_output(VERB, "-o", o.out, "kfb") != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    return run_bake(&o);
}

const cli_verb cmd_bake_verb = {
    VERB,
    cmd_bake,
    "bake FILE -o OUT.kfb [--frames A:B] [--step S] [--fixed] [--frac-bits N]\n"
    "                  [--no-meshes] [--nodes NAME,...] [--c-source NAME] [--tolerance T]\n"
    "                  [--between] [-q]",
    "Bake poses and meshes into a .kfb file for engines (and C source for ROMs).",
    "Evaluates every node at frames A, A+S, A+2S, ... up to B and writes, for each\n"
    "frame and node, the world matrix N(t) (3x4) and a visible bit; camera FOV and\n"
    "roll, light colour and spotlight cones (stored once when they never change);\n"
    "the meshes already in their node's local space (vertex x frame matrix is the\n"
    "placed vertex kf3ds eval --verts prints), with faces, per-face materials,\n"
    "smoothing-group normals and texture coordinates; and the materials. The\n"
    "format (little-endian, every section 4-byte aligned) is in docs/kfb.md;\n"
    "include/kf3ds_kfb.h reads it without allocating, and without floating point\n"
    "for --fixed files. kf3ds info and kf3ds dump show .kfb files.\n"
    "\n"
    "Options:\n"
    "  -o, --output OUT    the .kfb file to write (- is standard output)\n"
    "  --frames A:B        the frames to bake (default: the segment, KFSEG); decimals\n"
    "                      allowed, at most 6 after the point\n"
    "  --step S            the distance between baked frames (default 1; e.g. 0.5)\n"
    "  --tolerance T       halve the step (from S) until an engine that lerps the\n"
    "                      baked matrices stays within T of the scene's extent\n"
    "                      between frames (measured at quarter steps; e.g. 1e-4);\n"
    "                      prints each step tried unless -q\n"
    "  --fixed             signed 32-bit fixed point (16.16 unless --frac-bits) instead\n"
    "                      of IEEE floats: value = raw / 2^N, rounded to nearest\n"
    "  --frac-bits N       N fraction bits, 0 to 28, or auto: the most with which every\n"
    "                      stored and every placed value fits (implies --fixed)\n"
    "  --no-meshes         matrices, visibility and channels only\n"
    "  --nodes NAME,...    only these nodes (by name or instance name); node indices\n"
    "                      stay those of the .3ds\n"
    "  --c-source NAME     also (or instead of -o) write NAME.c and NAME.h: the same\n"
    "                      bytes as a const array NAME_kfb and int NAME_open(kf3ds_kfb_file\n"
    "                      *f); the name after the last / must be a C identifier\n"
    "  --between           also say how far linear interpolation of the baked\n"
    "                      matrices strays from kf3ds between frames (at quarter steps)\n"
    "  -q, --quiet         no summary line, no warnings\n"
    "\n"
    "A file that cannot be read soundly (any error, see kf3ds info) is not baked.\n",
};
