/* kf3ds dump FILE [--json] [--full] — the chunk tree with decoded payloads.
 *
 * The walk uses only the library's bounds-checked reader (kf3ds_reader,
 * kf3ds_read_*, kf3ds_chunk_next). Known containers are descended into (up to
 * DUMP_MAX_DEPTH levels; recursion depth is bounded by it), unknown chunks are
 * shown with the name "?" and skipped. The file is also loaded with
 * kf3ds_load_memory, for the accumulated rotation quaternions (the library's
 * are authoritative when keys were out of order) and the resolved node indices.
 * The parts: cmd_dump.h. This file: the verb, merging and printing the
 * diagnostics. */
#include "cmd_dump.h"
#include <stdlib.h>
#include <string.h>

static int is_duplicate(const dumper *d, const kf3ds_diag *x)
{
    size_t i;
    for (i = 0; i < d->num_diags; i++) {
        const dump_diag *y = &d->diags[i];
        if (y->d.code != x->code || y->d.severity != x->severity)
            continue;
        if (y->d.offset == x->offset || (x->offset >= y->start && x->offset < y->end))
            return 1;
    }
    return 0;
}

static int run_dump(const char *file, int json, int full)
{
    unsigned char *data;
    size_t size, i;
    kf3ds_diag err;
    kf3ds_scene *scene;
    dumper d;
    int status = cli_read_3ds(file, 1, &data, &size);
    if (status)
        return status;
    if (cli_is_kfb(data, size)) { /* a baked file (docs/kfb.md) */
        status = cli_kfb_dump(file, data, size, json, full);
        free(data);
        return status;
    }
    memset(&err, 0, sizeof err);
    scene = kf3ds_load_memory(data, size, NULL, &err);

    memset(&d, 0, sizeof d);
    d.out = stdout;
    d.json = json;
    d.full = full;
    d.scene = scene;
    d.first_sep = ": ";
    if (json)
        fputc('[', d.out);
    dump_walk_file(&d, data, size);
    if (json)
        fputs("\n]\n", d.out);
    else
        dump_end_line(&d);
    fflush(d.out);

    status = d.errors ? CLI_EXIT_INPUT : CLI_EXIT_OK;
    for (i = 0; i < d.num_diags; i++) {
        if (cli_is_truncation_diag(&d.diags[i].d)) {
            /* a cut file is an error, with what was lost (docs/output.md) */
            cli_print_truncation(file, 0);
            status = CLI_EXIT_INPUT;
            continue;
        }
        cli_print_diag(file, &d.diags[i].d);
    }
    if (d.dropped && !cli_quiet()) {
        fputs("kf3ds: warning: ", stderr);
        cli_text_cstr(stderr, file);
        fprintf(stderr, ": %lu more %s not shown\n", d.dropped,
                cli_plural(d.dropped, "diagnostic", "diagnostics"));
    }
    /* The library's findings that the walk does not see (references, parents,
     * key order, values), and its errors in case the walk missed one. */
    if (!scene) {
        if (!d.errors) {
            kf3ds_diag x = err;
            x.severity = KF3DS_ERROR;
            cli_print_diag(file, &x);
        }
        status = CLI_EXIT_INPUT;
    } else {
        uint32_t k;
        for (k = 0; k < scene->num_diags; k++) {
            const kf3ds_diag *x = &scene->diags[k];
            if (is_duplicate(&d, x))
                continue;
            cli_print_diag(file, x);
            if (x->severity == KF3DS_ERROR)
                status = CLI_EXIT_INPUT;
        }
        if (err.code != KF3DS_OK && status == CLI_EXIT_OK) {
            /* the load's error, not among the diagnostics shown */
            kf3ds_diag x = err;
            x.severity = KF3DS_ERROR;
            cli_print_diag(file, &x);
            status = CLI_EXIT_INPUT;
        }
        kf3ds_scene_free(scene);
    }
    free(d.diags);
    free(data);
    return status;
}

static int cmd_dump(int argc, char **argv)
{
    cli_args a;
    int r, json = 0, full = 0;
    cli_args_begin(&a, "dump", argc, argv);
    while ((r = cli_next_option(&a)) > 0) {
        if (strcmp(cli_option(&a), "--json") == 0)
            json = 1;
        else if (strcmp(cli_option(&a), "--full") == 0)
            full = 1;
        else if (strcmp(cli_option(&a), "-q") == 0 || strcmp(cli_option(&a), "--quiet") == 0)
            cli_set_quiet(1);
        else
            return cli_unknown_option(&a);
    }
    if (r < 0)
        return CLI_EXIT_USAGE;
    return run_dump(a.file, json, full);
}

const cli_verb cmd_dump_verb = {
    "dump",
    cmd_dump,
    "dump FILE [--json] [--full] [-q]",
    "Print the chunk tree with every known chunk's decoded payload.",
    "Each chunk is one line, indented by depth:\n"
    "  OFFSET ID NAME len LENGTH: decoded fields\n"
    "e.g. \"0x000006 0x0002 M3D_VERSION len 10: 3\". Unknown chunks show the name \"?\"\n"
    "and are not descended into; known containers are (at most 64 levels deep).\n"
    "Tracks list every key: frame, spline flags, the TCB/ease values present and\n"
    "the value; rotation keys also the accumulated quaternion (x, y, z, w).\n"
    "\n"
    "Options:\n"
    "  --json   the same tree as JSON: [{\"offset\", \"id\": \"0x4D4D\", \"name\",\n"
    "           \"length\", \"clamped_length\"?, \"fields\": {...}, \"children\": [...]}]\n"
    "  --full   print every entry of big arrays (points, faces, texture\n"
    "           coordinates, ...), not only the first 8\n"
    "  -q, --quiet  no warning lines on standard error (errors still)\n"
    "\n"
    "A chunk that overruns its parent is clamped (a warning). A chunk length below 6,\n"
    "a payload shorter than its counts, or nesting deeper than 64 levels is an\n"
    "error: what could be read is printed, then the error, and the status is 1.\n",
};

