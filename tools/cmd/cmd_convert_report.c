/* kf3ds convert: the report of a run (--report FILE.json) and the summary
 * table printed at its end (docs/convert.md). */
#include "cmd_convert.h"
#include <string.h>

static const char *const outcome_names[CONVERT_OUTCOMES] = {
    "not run", "ok", "ok with warnings", "repaired", "failed", "skipped", "material library"
};

const char *convert_outcome_name(convert_outcome o)
{
    return (unsigned)o < CONVERT_OUTCOMES ? outcome_names[o] : "?";
}

static void json_job(FILE *f, const convert_job *j)
{
    size_t k;
    fputs("    {\"file\": ", f);
    cli_json_cstr(f, j->in);
    fputs(", \"output\": ", f);
    if (j->outcome == CONVERT_LIBRARY)
        fputs("null", f); /* nothing is written for a library */
    else
        cli_json_cstr(f, j->out);
    fputs(", \"outcome\": ", f);
    cli_json_cstr(f, convert_outcome_name(j->outcome));
    fprintf(f, ", \"exit\": %d, \"input_bytes\": %lld, \"output_bytes\": %lld", j->status,
            j->in_bytes, j->out_bytes);
    if (j->outcome == CONVERT_LIBRARY)
        fprintf(f, ", \"materials\": %ld", j->materials);
    if (j->nodes >= 0)
        fprintf(f, ", \"nodes\": %ld, \"frames\": [%ld, %ld]", j->nodes, j->first_frame,
                j->last_frame);
    else
        fputs(", \"nodes\": null, \"frames\": null", f);
    fputs(", \"seconds\": ", f);
    cli_json_number(f, j->seconds);
    fputs(",\n     \"diagnostics\": [", f);
    for (k = 0; k < j->num_diags; k++) {
        const convert_diag *d = &j->diags[k];
        fprintf(f, "%s{\"severity\": \"%s\", \"offset\": ", k ? ",\n       " : "",
                d->error ? "error" : "warning");
        if (d->offset >= 0)
            fprintf(f, "%lld", d->offset);
        else
            fputs("null", f);
        fputs(", \"message\": ", f);
        cli_json_cstr(f, d->text);
        fputc('}', f);
    }
    fputs("]}", f);
}

static void count_outcomes(const convert_jobs *jobs, size_t counts[CONVERT_OUTCOMES],
                           long long *in_bytes, long long *out_bytes)
{
    size_t i;
    memset(counts, 0, CONVERT_OUTCOMES * sizeof counts[0]);
    *in_bytes = *out_bytes = 0;
    for (i = 0; i < jobs->n; i++) {
        counts[jobs->v[i].outcome]++;
        if (jobs->v[i].outcome != CONVERT_PENDING && jobs->v[i].outcome != CONVERT_SKIPPED)
            *in_bytes += jobs->v[i].in_bytes;
        *out_bytes += jobs->v[i].out_bytes;
    }
}

int convert_write_report(const char *path, const convert_jobs *jobs, const char *format,
                         double seconds, int interrupted)
{
    cli_output o;
    size_t counts[CONVERT_OUTCOMES], i;
    long long in_bytes, out_bytes;
    if (cli_output_open(&o, path) != 0)
        return -1;
    count_outcomes(jobs, counts, &in_bytes, &out_bytes);
    fputs("{\"format\": ", o.file);
    cli_json_cstr(o.file, format);
    fprintf(o.file, ", \"interrupted\": %s, \"files\": %lu, \"seconds\": ",
            interrupted ? "true" : "false", (unsigned long)jobs->n);
    cli_json_number(o.file, seconds);
    fputs(",\n \"outcomes\": {", o.file);
    for (i = 0; i < CONVERT_OUTCOMES; i++) {
        fprintf(o.file, "%s", i ? ", " : "");
        cli_json_cstr(o.file, outcome_names[i]);
        fprintf(o.file, ": %lu", (unsigned long)counts[i]);
    }
    fprintf(o.file, "},\n \"input_bytes\": %lld, \"output_bytes\": %lld,\n \"results\": [\n",
            in_bytes, out_bytes);
    for (i = 0; i < jobs->n; i++) {
        json_job(o.file, &jobs->v[i]);
        fputs(i + 1 < jobs->n ? ",\n" : "\n", o.file);
    }
    fputs(" ]}\n", o.file);
    if (ferror(o.file))
        o.error = o.error ? o.error : 5; /* EIO */
    return cli_output_close(&o);
}

void convert_print_summary(FILE *out, const convert_jobs *jobs, double seconds, int interrupted)
{
    size_t counts[CONVERT_OUTCOMES], i, k, done;
    long long in_bytes, out_bytes;
    count_outcomes(jobs, counts, &in_bytes, &out_bytes);
    done = jobs->n - counts[CONVERT_PENDING];
    fprintf(out, "\n  %-18s %8s\n", "outcome", "files");
    for (i = CONVERT_OK; i < CONVERT_OUTCOMES; i++)
        fprintf(out, "  %-18s %8lu\n", outcome_names[i], (unsigned long)counts[i]);
    if (counts[CONVERT_PENDING])
        fprintf(out, "  %-18s %8lu\n", "not run", (unsigned long)counts[CONVERT_PENDING]);
    fprintf(out, "  %-18s %8lu\n", "total", (unsigned long)jobs->n);
    fprintf(out, "%s%lu of %lu %s in %.1f s (%.1f files/s, %.2f MB/s in), %.2f MB read, "
                 "%.2f MB written\n",
            interrupted ? "interrupted: " : "", (unsigned long)done, (unsigned long)jobs->n,
            cli_plural(jobs->n, "file", "files"), seconds,
            seconds > 0 ? (double)done / seconds : 0.0,
            seconds > 0 ? (double)in_bytes / 1e6 / seconds : 0.0, (double)in_bytes / 1e6,
            (double)out_bytes / 1e6);
    for (i = 0; i < jobs->n; i++) {
        const convert_job *j = &jobs->v[i];
        const char *why = "no output";
        if (j->outcome == CONVERT_LIBRARY)
            fprintf(out, "material library: %s: %ld %s, no scene to convert\n", j->in,
                    j->materials, j->materials == 1 ? "material" : "materials");
        if (j->outcome != CONVERT_FAILED)
            continue;
        for (k = 0; k < j->num_diags; k++)
            if (j->diags[k].error) {
                why = j->diags[k].text;
                break;
            }
        if (strncmp(why, j->in, strlen(j->in)) == 0 && strncmp(why + strlen(j->in), ": ", 2) == 0)
            why += strlen(j->in) + 2; /* the verb named the file already */
        fprintf(out, "failed: %s: %s\n", j->in, why);
    }
}
