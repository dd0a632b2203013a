/* kf3ds — the command: verb dispatch, --help, --version.
 * Each verb lives in its own tools/cmd/cmd_VERB.c; shared helpers in cmd_common.c. */
#include "cmd.h"
#include <string.h>

static const cli_verb *const verbs[] = {
    &cmd_info_verb,
    &cmd_dump_verb,
    &cmd_eval_verb,
    &cmd_bake_verb,
    &cmd_rewrite_verb,
#ifndef KF3DS_NO_FRONTENDS /* cross and embedded builds: no SDL2, no libpng, no export */
    &cmd_export_verb,
    &cmd_render_verb,
    &cmd_view_verb,
    &cmd_plot_verb,
    &cmd_convert_verb,
    &cmd_thumbnail_verb,
#endif
};
#define NUM_VERBS (sizeof verbs / sizeof verbs[0])

static const cli_verb *find_verb(const char *name)
{
    size_t i;
    for (i = 0; i < NUM_VERBS; i++)
        if (strcmp(verbs[i]->name, name) == 0)
            return verbs[i];
    return NULL;
}

/* 1 when the first argument is a file rather than a misspelt verb: it exists,
 * or its name ends with .3ds (any case). */
static int looks_like_file(const char *arg)
{
    size_t n = strlen(arg);
    FILE *f;
    if (n >= 4 && arg[n - 4] == '.' && (arg[n - 3] | 0x20) == '3' &&
        (arg[n - 2] | 0x20) == 'd' && (arg[n - 1] | 0x20) == 's')
        return 1;
    f = fopen(arg, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static void print_help(FILE *out)
{
    size_t i, width = 0;
    for (i = 0; i < NUM_VERBS; i++) /* the verb column: as wide as the longest verb */
        if (strlen(verbs[i]->name) > width)
            width = strlen(verbs[i]->name);
    fputs("usage: kf3ds VERB FILE [options]\n"
          "       kf3ds help VERB | kf3ds VERB --help | kf3ds --version\n"
          "\n"
          "Reads 3D Studio .3ds files and evaluates their keyframer animation.\n"
          "\n"
          "Verbs:\n",
          out);
    for (i = 0; i < NUM_VERBS; i++)
        fprintf(out, "  %-*s  %s\n", (int)width, verbs[i]->name, verbs[i]->summary);
    fputs("\n"
          "FILE may be - for standard input. Inputs over 1 GiB are refused\n"
          "(KF3DS_MAX_INPUT=4G raises the limit).\n"
          "\n"
          "Exit status: 0 success (warnings allowed), 1 the input could not be read, is\n"
          "not a 3DS file or is damaged (what could be read is still printed), 2 wrong\n"
          "usage. 'kf3ds help VERB' says what each status means for VERB.\n"
          "Errors and warnings go to standard error, one line each:\n"
          "  kf3ds: FILE: offset N, chunk 0xB021 ROT_TRACK_TAG: message\n"
          "  kf3ds: warning: FILE: offset N, chunk 0x4110 POINT_ARRAY: message\n",
          out);
}

int main(int argc, char **argv)
{
    const cli_verb *verb;
    int status;
    if (argc < 2) {
        print_help(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_help(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("kf3ds %s\n", KF3DS_VERSION_STRING);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "help") == 0) {
        if (argc == 2) {
            print_help(stdout);
            return CLI_EXIT_OK;
        }
        if (argc > 3)
            return cli_usage_error(NULL, "help takes one verb");
        verb = find_verb(argv[2]);
        if (!verb)
            return cli_usage_error(NULL, "unknown verb '%s'", argv[2]);
        cli_print_verb_help(stdout, verb);
        return CLI_EXIT_OK;
    }
    verb = find_verb(argv[1]);
    if (!verb) {
        if (argv[1][0] == '-')
            return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
        /* `kf3ds FILE.3ds`: a newcomer's first try; name the verb that shows
         * what the file holds (issue 24, docs/output.md "Exit status"). */
        if (looks_like_file(argv[1]))
            return cli_usage_error(NULL, "no verb given; to see what '%s' holds: kf3ds info %s",
                                   argv[1], argv[1]);
        return cli_usage_error(NULL, "unknown verb '%s'", argv[1]);
    }
    if (cli_wants_help(argc - 1, argv + 1)) {
        cli_print_verb_help(stdout, verb);
        return CLI_EXIT_OK;
    }
    status = verb->run(argc - 1, argv + 1);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("kf3ds: cannot write the output\n", stderr);
        if (status == CLI_EXIT_OK)
            status = CLI_EXIT_INPUT;
    }
    return status;
}
