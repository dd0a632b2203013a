/* kf3ds convert: whole folders of .3ds files in parallel (cmd_convert.c), the
 * walk that finds them (cmd_convert_walk.c) and the report and summary of the
 * run (cmd_convert_report.c). */
#ifndef KF3DS_CMD_CONVERT_H
#define KF3DS_CMD_CONVERT_H
#include "cmd.h"

typedef enum convert_outcome {
    CONVERT_PENDING = 0,
    CONVERT_OK,
    CONVERT_WARNINGS,   /* ok, with warnings (the loader repaired or ignored something) */
    CONVERT_REPAIRED,   /* errors (data lost), but an output of what was readable */
    CONVERT_FAILED,     /* no output */
    CONVERT_SKIPPED,    /* --skip-existing: the output was there */
    CONVERT_LIBRARY,    /* a material library (.mli): no scene, no output, not a failure */
    CONVERT_OUTCOMES
} convert_outcome;

/* One diagnostic line the single-file verb printed. */
typedef struct convert_diag {
    int error;          /* 1 error, 0 warning */
    long long offset;   /* -1 when the line names none */
    char *text;         /* the line without "kf3ds: " */
} convert_diag;

/* One input file and what became of it. */
typedef struct convert_job {
    char *in;           /* as found */
    char *rel;          /* its path under the folder given (the mirrored part) */
    char *out;          /* the output file */
    long long in_bytes, out_bytes;
    convert_outcome outcome;
    int status;         /* the verb's exit status; 128 + N when killed by signal N */
    long nodes;         /* -1 unknown */
    long first_frame, last_frame;
    long materials;     /* a material library's MAT_ENTRY chunks; -1 not a library */
    double seconds;
    convert_diag *diags;
    size_t num_diags;
} convert_job;

typedef struct convert_jobs {
    convert_job *v;
    size_t n, cap;
} convert_jobs;

/* Adds every .3ds/.prj/.mli under `path` (a folder, walked recursively without
 * following links to folders; or one file, taken whatever its name), sorted by
 * path, with its output name under outdir ending in `ext`. Files inside
 * `skip_dir` (the output folder) are left out. Returns 0, or -1 after printing
 * why (a path that does not exist). */
int convert_walk(convert_jobs *jobs, const char *path, const char *outdir, const char *ext,
                 const char *skip_dir);
void convert_jobs_free(convert_jobs *jobs);

/* When `path` is a 3D Studio material library (root chunk MLIBMAGIC), the
 * number of MAT_ENTRY chunks under its root, and in *bad_offset the offset of
 * a child chunk whose length is damaged (the count stops there; -1 none);
 * otherwise -1 (cmd_convert_library.c). */
long convert_library_materials(const char *path, long *bad_offset);

const char *convert_outcome_name(convert_outcome o);
/* The report as JSON (docs/convert.md): 0, or -1 (printed). */
int convert_write_report(const char *path, const convert_jobs *jobs, const char *format,
                         double seconds, int interrupted);
/* The table of outcomes, totals and each failure's first error, on `out`. */
void convert_print_summary(FILE *out, const convert_jobs *jobs, double seconds, int interrupted);

#endif
