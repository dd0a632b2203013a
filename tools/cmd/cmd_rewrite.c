/* kf3ds rewrite IN -o OUT — a clean, well-formed .3ds of everything kf3ds
 * could read from IN: the file's own chunks in its order (unknown ones kept
 * verbatim unless --drop-unknown), written from the scene with what the
 * loader repaired (docs/writer.md, "kf3ds rewrite"). Each repair is one of the
 * load's diagnostics, printed as a warning line. */
#include "cmd.h"
#include <stdlib.h>
#include <string.h>

#define VERB "rewrite"

typedef struct rewrite_opts {
    const char *out;
    unsigned flags;
    int has_frames, quiet;
    long first, last;
} rewrite_opts;

static int parse_options(int argc, char **argv, cli_args *a, rewrite_opts *o)
{
    int r;
    memset(o, 0, sizeof *o);
    cli_args_begin(a, VERB, argc, argv);
    while ((r = cli_next_option(a)) > 0) {
        const char *opt = cli_option(a), *v;
        int got;
        if ((got = cli_option_value(a, "-o", &v)) != 0 ||
            (got = cli_option_value(a, "--output", &v)) != 0) {
            if (got < 0)
                return cli_usage_error(VERB, "%s needs a file", opt);
            o->out = v;
        } else if ((got = cli_option_value(a, "--frames", &v)) != 0) {
            if (got < 0 || !cli_parse_frames(v, &o->first, &o->last, NULL))
                return cli_usage_error(VERB, "--frames needs A:B, integers with A <= B");
            o->has_frames = 1;
        } else if (strcmp(opt, "--keep-unknown") == 0) {
            o->flags &= ~(unsigned)KF3DS_SAVE_DROP_UNKNOWN;
        } else if (strcmp(opt, "--drop-unknown") == 0) {
            o->flags |= KF3DS_SAVE_DROP_UNKNOWN;
        } else if (strcmp(opt, "--no-keyframer") == 0) {
            o->flags |= KF3DS_SAVE_NO_KEYFRAMER;
        } else if (strcmp(opt, "--canonical") == 0) {
            o->flags |= KF3DS_SAVE_CANONICAL;
        } else if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            o->quiet = 1;
            cli_set_quiet(1);
        } else {
            return cli_unknown_option(a);
        }
    }
    if (r < 0)
        return CLI_EXIT_USAGE;
    if (!o->out)
        return cli_usage_error(VERB, "no output file (-o OUT)");
    return cli_check_output(VERB, "-o", o->out, "3DS");
}

/* Every diagnostic of the load is something the rewrite changed (a value
 * replaced, a payload cut to its complete elements, a parent dropped, keys
 * sorted): printed as a warning. */
static uint32_t report_repairs(const char *file, const kf3ds_scene *s)
{
    uint32_t i;
    for (i = 0; i < s->num_diags; i++) {
        kf3ds_diag d = s->diags[i];
        d.severity = KF3DS_WARNING;
        if (cli_is_truncation_diag(&d)) /* what was lost; OUT has what is left */
            cli_print_truncation(file, 1);
        else
            cli_print_diag(file, &d);
    }
    if (s->num_dropped_diags && !cli_quiet())
        cli_print_error(file, "warning: %lu more %s not listed",
                        (unsigned long)s->num_dropped_diags,
                        cli_plural(s->num_dropped_diags, "repair", "repairs"));
    return s->num_diags + s->num_dropped_diags;
}

static int cmd_rewrite(int argc, char **argv)
{
    cli_args a;
    rewrite_opts o;
    unsigned char *data;
    size_t size;
    kf3ds_load_options lo;
    kf3ds_save_options so;
    kf3ds_scene *s;
    kf3ds_diag err;
    void *bytes = NULL;
    size_t out_size = 0;
    uint32_t repairs;
    int status = parse_options(argc, argv, &a, &o);
    if (status)
        return status;
    status = cli_read_3ds(a.file, 0, &data, &size);
    if (status)
        return status;
    memset(&lo, 0, sizeof lo);
    lo.flags = KF3DS_LOAD_KEEP_SOURCE;
    s = kf3ds_load_memory(data, size, &lo, &err);
    free(data);
    if (!s)
        return cli_report_load(a.file, NULL, &err);
    repairs = report_repairs(a.file, s);

    memset(&so, 0, sizeof so);
    so.flags = o.flags | KF3DS_SAVE_REPAIR;
    if (o.has_frames) {
        so.flags |= KF3DS_SAVE_SEGMENT;
        so.segment_start = (int32_t)o.first;
        so.segment_end = (int32_t)o.last;
    }
    if (kf3ds_save_memory(s, &so, &bytes, &out_size, &err) != KF3DS_OK) {
        cli_print_diag(o.out, &err);
        kf3ds_scene_free(s);
        return CLI_EXIT_INPUT;
    }
    kf3ds_scene_free(s);
    {
        int ok = cli_write_output(o.out, bytes, out_size) == 0;
        kf3ds_save_free(bytes, &so);
        if (!ok)
            return CLI_EXIT_INPUT; /* printed, no partial file left */
        if (!o.quiet && !cli_is_stdout(o.out))
            printf("wrote %s (%lu bytes, %lu %s)\n", o.out, (unsigned long)out_size,
                   (unsigned long)repairs, repairs == 1 ? "repair" : "repairs");
    }
    return CLI_EXIT_OK;
}

const cli_verb cmd_rewrite_verb = {
    VERB,
    cmd_rewrite,
    "rewrite FILE -o OUT [--keep-unknown | --drop-unknown] [--no-keyframer]\n"
    "                     [--frames A:B] [--canonical] [-q]",
    "Write a clean, well-formed .3ds of everything kf3ds could read from FILE.",
    "The file's chunks are written back in its order with the values kf3ds read:\n"
    "chunk lengths correct, keys in frame order, unknown or cyclic parents made\n"
    "roots, NaN and infinite values replaced, truncated payloads cut to their\n"
    "complete elements. Every change is listed as a warning line on standard error.\n"
    "\n"
    "  -o, --output OUT   the file to write; - is standard output\n"
    "  --keep-unknown     keep the chunks kf3ds does not read, verbatim, where they\n"
    "                     were (the default)\n"
    "  --drop-unknown     leave them out\n"
    "  --no-keyframer     leave out the keyframer section (editor data only)\n"
    "  --frames A:B       make frames A to B (integers) the active segment (KFSEG);\n"
    "                     the keys are kept, so those frames play as before\n"
    "  --canonical        write the chunks in kf3ds's own order (the one 3D Studio\n"
    "                     writes) instead of the file's\n"
    "  -q, --quiet        no summary line, no warnings (the repairs are still made)\n"
};
