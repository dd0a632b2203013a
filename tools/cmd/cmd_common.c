/* Helpers shared by the verbs of the kf3ds command: option parsing, reading
 * the input, printing diagnostics, JSON and text escaping. */
#define _POSIX_C_SOURCE 200809L /* isatty, fdopen, lstat: the output files */
#include "cmd.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- usage and help ---------------------------------------------------- */

int cli_usage_error(const char *verb, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fputs("kf3ds: ", stderr);
    if (verb)
        fprintf(stderr, "%s: ", verb);
    cli_text_cstr(stderr, msg);
    if (verb)
        fprintf(stderr, " (see 'kf3ds help %s')\n", verb);
    else
        fputs(" (see 'kf3ds --help')\n", stderr);
    return CLI_EXIT_USAGE;
}

/* Each verb's exit-status paragraph, one pattern for all (docs/output.md,
 * "Exit status"): what 0 means, then what besides "FILE could not be read, is
 * not a 3DS file or has an error" makes it 1. */
static const struct {
    const char *verb, *ok, *input;
} exit_words[] = {
    { "info", "the report was printed",
      "(FILE may also be a .kfb; what could be read is still reported)" },
    { "dump", "the chunks were printed",
      "(FILE may also be a .kfb; what could be read is still printed)" },
    { "eval", "the poses were printed", "(what could be read is still printed)" },
    { "bake", "OUT was written",
      "or has no keyframer nodes (a static model), or --nodes names a node it lacks, or the "
      "values do not fit, or OUT could not be written" },
    { "rewrite", "OUT was written (the warnings list what was repaired)",
      "only when FILE could not be read at all or is not a 3DS file, or OUT could not be "
      "written; errors in FILE are repaired, not a failure" },
    { "export", "OUT was written",
      "(OUT is still written from what could be read), or OUT could not be written" },
    { "render", "the picture was written",
      "or --camera names a camera it lacks, or OUT could not be written" },
    { "view", "the window was closed",
      "or --camera names a camera it lacks, or no window could be opened, or the screenshot "
      "could not be written" },
    { "plot", "OUT was written",
      "or --node names a node it lacks or one without keys, or OUT could not be written" },
};

/* Prints `text` on `out` folded at 80 columns (at spaces). */
static void print_folded(FILE *out, const char *text)
{
    size_t col = 0;
    while (*text) {
        const char *sp = strchr(text, ' ');
        size_t n = sp ? (size_t)(sp - text) : strlen(text);
        if (col && col + 1 + n > 80) {
            fputc('\n', out);
            col = 0;
        } else if (col) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, n, out);
        col += n;
        text += n;
        while (*text == ' ')
            text++;
    }
    fputc('\n', out);
}

void cli_print_verb_help(FILE *out, const cli_verb *verb)
{
    char para[1024];
    size_t i;
    const char *ok = "success", *input = "";
    fprintf(out, "usage: kf3ds %s\n\n%s\n", verb->synopsis, verb->summary);
    if (verb->help && verb->help[0])
        fprintf(out, "\n%s", verb->help);
    for (i = 0; i < sizeof exit_words / sizeof exit_words[0]; i++)
        if (strcmp(exit_words[i].verb, verb->name) == 0) {
            ok = exit_words[i].ok;
            input = exit_words[i].input;
        }
    snprintf(para, sizeof para,
             "Exit status: 0 %s, warnings allowed; 1 FILE could not be read, is not a 3DS "
             "file or has an error%s%s; 2 wrong usage (an unknown option, a bad or missing "
             "value, no FILE).",
             ok, input[0] == '(' ? " " : input[0] ? ", " : "", input);
    if (strcmp(verb->name, "rewrite") == 0) /* rewrite's contract (docs/output.md) */
        snprintf(para, sizeof para,
                 "Exit status: 0 %s; 1 %s; 2 wrong usage (an unknown "
                 "option, a bad or missing value, no FILE).",
                 ok, input);
    fputc('\n', out);
    print_folded(out, para);
}

int cli_wants_help(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    }
    return 0;
}

void cli_args_begin(cli_args *a, const char *verb, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->verb = verb;
    a->argc = argc;
    a->argv = argv;
}

int cli_next_option(cli_args *a)
{
    while (++a->i < a->argc) {
        const char *s = a->argv[a->i];
        if (!a->no_more_options && s[0] == '-' && s[1] != '\0') {
            if (strcmp(s, "--") != 0)
                return 1;
            a->no_more_options = 1;
        } else if (a->file) {
            cli_usage_error(a->verb, "more than one FILE ('%s' and '%s')", a->file, s);
            return -1;
        } else {
            a->file = s;
        }
    }
    if (!a->file) {
        cli_usage_error(a->verb, "no FILE given");
        return -1;
    }
    return 0;
}

const char *cli_option(const cli_args *a)
{
    return a->argv[a->i];
}

int cli_option_value(cli_args *a, const char *name, const char **value)
{
    const char *s = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0)
        return 0;
    if (s[n] == '=') {
        *value = s + n + 1;
        return 1;
    }
    if (s[n] != '\0')
        return 0;
    if (a->i + 1 >= a->argc)
        return -1;
    a->i += 1;
    *value = a->argv[a->i];
    return 1;
}

int cli_unknown_option(const cli_args *a)
{
    return cli_usage_error(a->verb, "unknown option '%s'", a->argv[a->i]);
}

int cli_is_kfb(const unsigned char *data, size_t size)
{
    return size >= 4 && memcmp(data, "KFB\x1a", 4) == 0;
}

/* ---- input --------------------------------------------------------------- */

/* The name of a file in messages: the argument as given, one line. */
static void put_file_name(FILE *out, const char *file)
{
    cli_text_cstr(out, file ? file : "-");
}

/* The input limit (docs/output.md, "Input"): a regular file larger than
 * it is refused before it is read, a stream is read up to it and no further.
 * KF3DS_MAX_INPUT raises or lowers it: bytes, or a number with K, M or G
 * (powers of 1024). The library reads at most 4 GiB - 1 (kf3ds_load_memory). */
#define CLI_INPUT_DEFAULT_LIMIT (1024ul * 1024ul * 1024ul)
#define CLI_INPUT_MAX_LIMIT 0xFFFFFFFFul

/* The limit in bytes; 0 after printing why KF3DS_MAX_INPUT is not a size. */
static unsigned long input_limit(void)
{
    const char *s = getenv("KF3DS_MAX_INPUT");
    unsigned long long v = 0, unit = 1;
    const char *p;
    if (!s || !*s)
        return CLI_INPUT_DEFAULT_LIMIT;
    for (p = s; *p >= '0' && *p <= '9' && v <= CLI_INPUT_MAX_LIMIT; p++)
        v = v * 10 + (unsigned)(*p - '0');
    if (*p == 'K' || *p == 'k')
        unit = 1024ull;
    else if (*p == 'M' || *p == 'm')
        unit = 1024ull * 1024ull;
    else if (*p == 'G' || *p == 'g')
        unit = 1024ull * 1024ull * 1024ull;
    if (unit > 1)
        p++;
    if (p == s || *p != '\0' || v == 0 || v > CLI_INPUT_MAX_LIMIT) {
        cli_usage_error(NULL, "KF3DS_MAX_INPUT='%s' is not a size such as 2G, 512M or 1000000",
                        s);
        return 0;
    }
    v *= unit;
    return v > CLI_INPUT_MAX_LIMIT ? CLI_INPUT_MAX_LIMIT : (unsigned long)v;
}

/* The limit for people: "1 GiB", "512 MiB", "1000 bytes". */
static void format_size(char *buf, size_t cap, unsigned long long n)
{
    if (n >= 1024ull * 1024ull * 1024ull && n % (1024ull * 1024ull * 1024ull) == 0)
        snprintf(buf, cap, "%llu GiB", n / (1024ull * 1024ull * 1024ull));
    else if (n >= 1024ull * 1024ull && n % (1024ull * 1024ull) == 0)
        snprintf(buf, cap, "%llu MiB", n / (1024ull * 1024ull));
    else if (n >= 1024ull && n % 1024ull == 0)
        snprintf(buf, cap, "%llu KiB", n / 1024ull);
    else
        snprintf(buf, cap, "%llu bytes", n);
}

static void print_over_limit(const char *path, unsigned long long size, unsigned long limit)
{
    char lim[40];
    format_size(lim, sizeof lim, limit);
    if (size)
        cli_print_error(path,
                        "%llu bytes, over the input limit of %s (set KF3DS_MAX_INPUT, "
                        "e.g. KF3DS_MAX_INPUT=4G, to raise it; at most 4G)",
                        size, lim);
    else
        cli_print_error(path,
                        "more than %s, the input limit; stopped reading (set "
                        "KF3DS_MAX_INPUT, e.g. KF3DS_MAX_INPUT=4G, to raise it; at most 4G)",
                        lim);
}

/* 1 when the n bytes are text: printable ASCII, tabs and line ends, or bytes
 * of 0x80 and above (UTF-8 and the legacy code pages). */
static int is_text(const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!(p[i] == '\t' || p[i] == '\n' || p[i] == '\r' || (p[i] >= 0x20 && p[i] != 0x7F)))
            return 0;
    return 1;
}

/* What the first bytes of a file that is not a 3DS file say it is, for the
 * error line (docs/output.md, "Input"). p: the first n bytes;
 * whole: they are the whole file. */
static void describe_not_3ds(char *buf, size_t cap, const unsigned char *p, size_t n, int whole)
{
    size_t i, zeros = 0;
    for (i = 0; i < n; i++)
        zeros += p[i] == 0;
    if (n == 0)
        snprintf(buf, cap, "it is empty");
    else if (cli_is_kfb(p, n))
        snprintf(buf, cap,
                 "it is a kf3ds baked file (.kfb); read it with 'kf3ds info' or 'kf3ds dump'");
    else if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0)
        snprintf(buf, cap, "it is a PNG image");
    else if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF)
        snprintf(buf, cap, "it is a JPEG image");
    else if (n >= 6 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0))
        snprintf(buf, cap, "it is a GIF image");
    else if (n >= 14 && p[0] == 'B' && p[1] == 'M' && p[6] == 0 && p[7] == 0 && p[8] == 0 &&
             p[9] == 0)
        snprintf(buf, cap, "it is a BMP image");
    else if (n >= 4 && memcmp(p, "glTF", 4) == 0)
        snprintf(buf, cap, "it is a binary glTF file (.glb)");
    else if (n >= 2 && p[0] == 0x1F && p[1] == 0x8B)
        snprintf(buf, cap, "it is a gzip-compressed file; uncompress it first");
    else if (n >= 4 && memcmp(p, "PK\x03\x04", 4) == 0)
        snprintf(buf, cap, "it is a ZIP archive; extract the .3ds file first");
    else if (zeros == n)
        snprintf(buf, cap, whole ? "it is all zero bytes" : "it starts with zero bytes");
    else if (is_text(p, n)) {
        const unsigned char *q = p, *end = p + n;
        if (end - q >= 3 && q[0] == 0xEF && q[1] == 0xBB && q[2] == 0xBF)
            q += 3; /* a UTF-8 byte order mark */
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        if (q < end && *q == '{') {
            int gltf = 0;
            for (i = 0; i + 7 <= n && !gltf; i++)
                gltf = memcmp(p + i, "\"asset\"", 7) == 0;
            snprintf(buf, cap, gltf ? "it is a glTF file (.gltf)" : "it is a JSON file");
        } else {
            snprintf(buf, cap, "it is a text file");
        }
    } else if (n < 6)
        snprintf(buf, cap, "it is %lu bytes long, shorter than a chunk header (6 bytes)",
                 (unsigned long)n);
    else
        snprintf(buf, cap, "it starts with chunk 0x%04X, not a 3DS magic such as 0x%04X (%s)",
                 (unsigned)(p[0] | p[1] << 8), (unsigned)KF3DS_CHUNK_M3DMAGIC,
                 kf3ds_chunk_name(KF3DS_CHUNK_M3DMAGIC));
}

/* A 3DS file cut short (docs/output.md, "Damaged files"): the file ends
 * before its root chunk does and a chunk inside is cut. Found once per run by
 * the reading helper (the command reads one FILE), reported by every verb. */
static struct {
    int cut;             /* a chunk inside the root is cut by the file's end */
    uint16_t root_id;
    unsigned long missing, size;
    char lost[400];      /* "the chunks past offset 1000, inside MDATA (offset 16) > ..." */
} damage;

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Chunks whose body is chunks (after a name for NAMED_OBJECT): the walk
 * follows the cut down through them. */
static int is_container(uint16_t id)
{
    return kf3ds_chunk_is_root(id) || id == KF3DS_CHUNK_MDATA || id == KF3DS_CHUNK_KFDATA ||
           id == KF3DS_CHUNK_NAMED_OBJECT || id == KF3DS_CHUNK_N_TRI_OBJECT ||
           id == KF3DS_CHUNK_MAT_ENTRY || (id >= KF3DS_CHUNK_AMBIENT_NODE_TAG &&
                                           id <= KF3DS_CHUNK_SPOTLIGHT_NODE_TAG);
}

/* Follows the file's end down the chunk tree: which chunks it cuts, and
 * whether the keyframer section is left at all. */
static void find_damage(const unsigned char *p, size_t size)
{
    size_t off = 6, end, n = 0;
    int depth, has_kfdata = 0, any_cut = 0;
    uint16_t parent = (uint16_t)(p[0] | p[1] << 8);
    memset(&damage, 0, sizeof damage);
    if (size < 6 || le32(p + 2) <= size)
        return;
    damage.root_id = parent;
    damage.missing = (unsigned long)(le32(p + 2) - size);
    damage.size = (unsigned long)size;
    end = size;
    n = (size_t)snprintf(damage.lost, sizeof damage.lost, "the chunks past offset %lu",
                         (unsigned long)size);
    for (depth = 0; depth < 16; depth++) {
        int cut = 0;
        while (off + 6 <= end) {
            uint16_t id = (uint16_t)(p[off] | p[off + 1] << 8);
            uint32_t len = le32(p + off + 2);
            if (len < 6)
                return; /* not a chunk: the walk stops, as the loader's does */
            if (depth == 0 && id == KF3DS_CHUNK_KFDATA)
                has_kfdata = 1;
            if (len <= end - off) {
                off += len;
                continue;
            }
            /* this chunk is cut by the file's end */
            any_cut = cut = 1;
            if (n < sizeof damage.lost) {
                const char *name = kf3ds_chunk_name(id);
                n += (size_t)snprintf(damage.lost + n, sizeof damage.lost - n, "%s%s",
                                      depth ? " > " : ", inside ", name ? name : "?");
                if (id == KF3DS_CHUNK_NAMED_OBJECT && n < sizeof damage.lost) {
                    size_t k = off + 6;
                    while (k < end && p[k] && k - off - 6 < 16)
                        k++;
                    if (k < end && !p[k]) /* its name, when it is all there */
                        n += (size_t)snprintf(damage.lost + n, sizeof damage.lost - n, " '%.*s'",
                                              (int)(k - off - 6), (const char *)p + off + 6);
                }
                if (n < sizeof damage.lost)
                    n += (size_t)snprintf(damage.lost + n, sizeof damage.lost - n,
                                          " (offset %lu)", (unsigned long)off);
            }
            parent = id;
            if (id == KF3DS_CHUNK_NAMED_OBJECT) { /* the children follow the name */
                size_t k = off + 6;
                while (k < end && p[k])
                    k++;
                off = k + 1;
            } else {
                off += 6;
            }
            break;
        }
        if (!cut || !is_container(parent))
            break;
    }
    if (off + 6 > end && off < end && n < sizeof damage.lost) /* a cut chunk header */
        n += (size_t)snprintf(damage.lost + n, sizeof damage.lost - n, "%s a chunk header cut "
                              "at offset %lu", any_cut ? ", then" : ", from",
                              (unsigned long)off), any_cut = 1;
    if (!has_kfdata && n < sizeof damage.lost)
        snprintf(damage.lost + n, sizeof damage.lost - n,
                 ", and the keyframer (no KFDATA chunk is left)");
    damage.cut = any_cut;
}

int cli_is_truncation_diag(const kf3ds_diag *d)
{
    return damage.cut && d->offset == 0 && d->code == KF3DS_WARN_OVERRUN &&
           d->chunk_id == damage.root_id;
}

void cli_print_truncation(const char *file, int as_warning)
{
    const char *name = kf3ds_chunk_name(damage.root_id);
    fflush(stdout);
    fputs(as_warning ? "kf3ds: warning: " : "kf3ds: ", stderr);
    put_file_name(stderr, file);
    fprintf(stderr, ": offset 0, chunk 0x%04X %s: ", (unsigned)damage.root_id, name ? name : "?");
    cli_truncation_text(stderr);
    fputc('\n', stderr);
}

void cli_truncation_text(FILE *out)
{
    fprintf(out, "truncated: the file ends %lu bytes before its root chunk does; lost: ",
            damage.missing);
    cli_text_cstr(out, damage.lost); /* a cut object's name is the file's bytes */
}

/* 1 when the first bytes (at least 6, or the whole file) are the start of a
 * file this verb reads: a 3DS root chunk, or a .kfb when kfb is set. */
static int accepted_start(const unsigned char *p, size_t n, int kfb)
{
    if (kfb && cli_is_kfb(p, n))
        return 1;
    return n >= 6 && kf3ds_chunk_is_root((uint16_t)(p[0] | p[1] << 8));
}

/* Reads FILE ("-" is stdin) into *data, at most the input limit. check: 0
 * any content (textures), 1 a 3DS file, 2 a 3DS or .kfb file; the first bytes
 * are checked as soon as they arrive, so that an endless stream that is not
 * one ends at once. */
static int read_input(const char *path, int check, unsigned char **data, size_t *size)
{
    FILE *f;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, want;
    unsigned long limit = input_limit();
    int oom = 0, read_errno = 0, at_end = 0, checked = !check;
    int is_stdin = strcmp(path, "-") == 0;
    struct stat st;

    *data = NULL;
    *size = 0;
    if (!limit)
        return CLI_EXIT_USAGE;
    errno = 0;
    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        cli_print_error(path, "cannot open: %s", strerror(errno ? errno : ENOENT));
        return CLI_EXIT_INPUT;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((unsigned long long)st.st_size > limit) { /* refused before reading */
            if (!is_stdin)
                fclose(f);
            print_over_limit(path, (unsigned long long)st.st_size, limit);
            return CLI_EXIT_INPUT;
        }
        cap = (size_t)st.st_size + 1; /* one read, no copies; +1 sees growth */
        buf = malloc(cap);
        if (!buf)
            cap = 0;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            unsigned char *nbuf;
            if (ncap > (size_t)limit + 1)
                ncap = (size_t)limit + 1; /* one byte past the limit tells it is over */
            nbuf = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nbuf) {
                oom = 1;
                break;
            }
            buf = nbuf;
            cap = ncap;
        }
        /* Until the start is checked, read only what the check needs: 6 bytes,
         * then up to 512 to say what a file that is not 3DS is. */
        want = cap - len;
        if (!checked && want > (len < 6 ? 6 - len : 512 - len))
            want = len < 6 ? 6 - len : 512 - len;
        errno = 0;
        got = fread(buf + len, 1, want, f);
        len += got;
        if (got < want) {
            read_errno = errno;
            at_end = !ferror(f);
            if (!at_end)
                break;
        }
        if (!checked && (len >= 6 || at_end)) {
            int ok = accepted_start(buf, len, check == 2);
            /* A text file can start like a chunk ("====" is MDATA); a 3DS
             * file's first chunk headers always hold a zero byte. */
            if (ok && (len >= 512 || at_end)) {
                ok = cli_is_kfb(buf, len) || !is_text(buf, len < 512 ? len : 512);
                checked = ok;
            }
            if (!ok && (len >= 512 || at_end)) {
                char what[160];
                describe_not_3ds(what, sizeof what, buf, len, at_end);
                if (!is_stdin)
                    fclose(f);
                free(buf);
                cli_print_error(path, "not a 3DS file: %s", what);
                return CLI_EXIT_INPUT;
            }
        }
        if (len > limit) {
            if (!is_stdin)
                fclose(f);
            free(buf);
            print_over_limit(path, 0, limit);
            return CLI_EXIT_INPUT;
        }
        if (at_end)
            break;
    }
    if (oom || ferror(f)) {
        int e = oom ? ENOMEM : read_errno ? read_errno : EIO;
        if (!is_stdin)
            fclose(f);
        free(buf);
        cli_print_error(path, "cannot open: %s", strerror(e));
        return CLI_EXIT_INPUT;
    }
    if (!is_stdin)
        fclose(f);
    if (!buf) {
        buf = malloc(1);
        if (!buf) {
            cli_print_error(path, "cannot open: %s", strerror(ENOMEM));
            return CLI_EXIT_INPUT;
        }
    }
    *data = buf;
    *size = len;
    if (check && !cli_is_kfb(buf, len))
        find_damage(buf, len);
    return CLI_EXIT_OK;
}

int cli_read_file(const char *path, unsigned char **data, size_t *size)
{
    return read_input(path, 0, data, size);
}

int cli_read_3ds(const char *path, int kfb, unsigned char **data, size_t *size)
{
    return read_input(path, kfb ? 2 : 1, data, size);
}

int cli_load(const char *file, kf3ds_scene **scene, kf3ds_diag *error, size_t *file_size)
{
    unsigned char *data;
    size_t size;
    int status = cli_read_3ds(file, 0, &data, &size);
    *scene = NULL;
    if (status)
        return status;
    *scene = kf3ds_load_memory(data, size, NULL, error);
    free(data);
    if (file_size)
        *file_size = size;
    return *scene ? CLI_EXIT_OK : cli_report_load(file, NULL, error);
}

int cli_load_sound(const char *file, kf3ds_scene **scene)
{
    kf3ds_diag err;
    int status = cli_load(file, scene, &err, NULL);
    if (status)
        return status;
    status = cli_report_load(file, *scene, &err);
    if (status != CLI_EXIT_OK) {
        kf3ds_scene_free(*scene);
        *scene = NULL;
    }
    return status;
}

/* The poses of cs->scene; on failure the scene is freed. */
static int alloc_poses(cli_scene *cs, const char *file)
{
    uint32_t n = cs->scene->num_nodes;
    cs->poses = calloc(n ? n : 1, sizeof *cs->poses);
    if (cs->poses)
        return CLI_EXIT_OK;
    cli_print_error(file, "out of memory (%lu nodes)", (unsigned long)n);
    kf3ds_scene_free(cs->scene);
    cs->scene = NULL;
    return CLI_EXIT_INPUT;
}

int cli_scene_load(cli_scene *cs, const char *file)
{
    int status;
    memset(cs, 0, sizeof *cs);
    status = cli_load(file, &cs->scene, &cs->error, NULL);
    return status ? status : alloc_poses(cs, file);
}

int cli_scene_load_sound(cli_scene *cs, const char *file)
{
    int status;
    memset(cs, 0, sizeof *cs);
    status = cli_load_sound(file, &cs->scene);
    return status ? status : alloc_poses(cs, file);
}

void cli_scene_free(cli_scene *cs)
{
    free(cs->poses);
    kf3ds_scene_free(cs->scene);
    memset(cs, 0, sizeof *cs);
}

/* 1 when a camera node shows editor camera `camera`. */
static int has_camera_node(const kf3ds_scene *s, uint32_t camera)
{
    uint32_t k;
    for (k = 0; k < s->num_nodes; k++)
        if (s->nodes[k].type == KF3DS_NODE_CAMERA && s->nodes[k].camera == (int32_t)camera)
            return 1;
    return 0;
}

int cli_find_camera(const char *verb, const kf3ds_scene *s, const char *name, int32_t *node,
                    int32_t *editor_camera)
{
    char list[300];
    size_t n = 0;
    uint32_t i;
    int count = 0;

    *node = KF3DS_NONE;
    if (editor_camera)
        *editor_camera = KF3DS_NONE;
    for (i = 0; i < s->num_nodes; i++)
        if (s->nodes[i].type == KF3DS_NODE_CAMERA && s->nodes[i].name &&
            strcmp(s->nodes[i].name, name) == 0) {
            *node = (int32_t)i;
            return CLI_EXIT_OK;
        }
    for (i = 0; editor_camera && i < s->num_cameras; i++)
        if (s->cameras[i].name && strcmp(s->cameras[i].name, name) == 0 &&
            !has_camera_node(s, i)) {
            *editor_camera = (int32_t)i;
            return CLI_EXIT_OK;
        }

    list[0] = '\0';
    for (i = 0; i < s->num_nodes; i++)
        if (s->nodes[i].type == KF3DS_NODE_CAMERA && n + 40 < sizeof list) {
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%.32s", count ? ", " : "",
                                  s->nodes[i].name);
            count++;
        }
    if (!count && editor_camera)
        for (i = 0; i < s->num_cameras && n + 40 < sizeof list; i++) {
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%.32s", count ? ", " : "",
                                  s->cameras[i].name ? s->cameras[i].name : "");
            count++;
        }
    /* The file's content, not the command line: status 1 (docs/output.md,
     * "Exit status"); the verb names the line as the option does. */
    if (!count)
        cli_print_error(verb, "--camera '%s': the file has no camera", name);
    else
        cli_print_error(verb, "--camera '%s': no such camera (the file has: %s)", name, list);
    return CLI_EXIT_INPUT;
}

size_t cli_diag_message_len(const kf3ds_diag *d)
{
    size_t n = 0;
    while (n < sizeof d->message && d->message[n])
        n++;
    return n;
}

void cli_print_diag(const char *file, const kf3ds_diag *d)
{
    const char *name = d->chunk_name;
    if (d->severity != KF3DS_ERROR && cli_quiet())
        return; /* -q */
    fflush(stdout);
    fputs(d->severity == KF3DS_ERROR ? "kf3ds: " : "kf3ds: warning: ", stderr);
    put_file_name(stderr, file);
    fputs(": ", stderr);
    if (d->chunk_id != 0 || (name && name[0])) {
        if (!name || !name[0])
            name = kf3ds_chunk_name(d->chunk_id);
        fprintf(stderr, "offset %lu, chunk 0x%04X ", (unsigned long)d->offset,
                (unsigned)d->chunk_id);
        cli_text_cstr(stderr, name ? name : "?");
        fputs(": ", stderr);
    } else if (d->offset != 0) {
        fprintf(stderr, "offset %lu: ", (unsigned long)d->offset);
    }
    cli_text_string(stderr, d->message, cli_diag_message_len(d));
    if (cli_diag_message_len(d) == 0)
        fputs(kf3ds_status_string(d->code), stderr);
    fputc('\n', stderr);
}

void cli_print_error(const char *file, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fputs("kf3ds: ", stderr);
    put_file_name(stderr, file);
    fputs(": ", stderr);
    cli_text_cstr(stderr, msg);
    fputc('\n', stderr);
}

int cli_load_status(const kf3ds_scene *scene, const kf3ds_diag *error)
{
    uint32_t i;
    if (!scene || (error && error->code != KF3DS_OK))
        return CLI_EXIT_INPUT;
    for (i = 0; i < scene->num_diags; i++)
        if (scene->diags[i].severity == KF3DS_ERROR || cli_is_truncation_diag(&scene->diags[i]))
            return CLI_EXIT_INPUT;
    return CLI_EXIT_OK;
}

int cli_report_load(const char *file, const kf3ds_scene *scene, const kf3ds_diag *error)
{
    uint32_t i;
    int printed_error = 0;
    if (!scene) {
        if (error && error->code != KF3DS_OK) {
            kf3ds_diag d = *error;
            d.severity = KF3DS_ERROR;
            cli_print_diag(file, &d);
        } else {
            cli_print_error(file, "cannot load the file");
        }
        return CLI_EXIT_INPUT;
    }
    for (i = 0; i < scene->num_diags; i++) {
        if (cli_is_truncation_diag(&scene->diags[i])) {
            /* a cut file is an error, with what was lost (docs/output.md) */
            cli_print_truncation(file, 0);
            continue;
        }
        cli_print_diag(file, &scene->diags[i]);
        if (scene->diags[i].severity == KF3DS_ERROR)
            printed_error = 1;
    }
    if (scene->num_dropped_diags && !cli_quiet()) {
        fflush(stdout);
        fputs("kf3ds: warning: ", stderr);
        put_file_name(stderr, file);
        fprintf(stderr, ": %lu more %s not shown\n", (unsigned long)scene->num_dropped_diags,
                cli_plural(scene->num_dropped_diags, "diagnostic", "diagnostics"));
    }
    /* The first error is normally among the diagnostics; print it when not. */
    if (error && error->code != KF3DS_OK && !printed_error) {
        kf3ds_diag d = *error;
        d.severity = KF3DS_ERROR;
        cli_print_diag(file, &d);
    }
    return cli_load_status(scene, error);
}

/* ---- output -------------------------------------------------------------- */

void cli_json_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    putc('"', out);
    while (p && i < len) {
        unsigned char c = p[i];
        size_t n;
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
            i++;
        } else if (c == '\n') {
            fputs("\\n", out);
            i++;
        } else if (c == '\t') {
            fputs("\\t", out);
            i++;
        } else if (c == '\r') {
            fputs("\\r", out);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(out, "\\u%04x", (unsigned)c);
            i++;
        } else if (c < 0x80) {
            putc(c, out);
            i++;
        } else if ((n = kf3ds_utf8_char((const char *)p + i, len - i, NULL)) != 0) {
            fwrite(p + i, 1, n, out);
            i += n;
        } else {
            fprintf(out, "\\u%04x", (unsigned)c);
            i++;
        }
    }
    putc('"', out);
}

void cli_json_cstr(FILE *out, const char *s)
{
    cli_json_string(out, s ? s : "", s ? strlen(s) : 0);
}

void cli_json_number(FILE *out, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", out);
    else
        fprintf(out, "%.9g", v);
}

void cli_json_number_exact(FILE *out, double v)
{
    char buf[64];
    int prec;
    if (isnan(v) || isinf(v)) {
        fputs("null", out);
        return;
    }
    for (prec = 9; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (prec == 17)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, out);
}

void cli_text_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p && i < len) {
        unsigned char c = p[i];
        uint32_t cp = 0;
        size_t n;
        if (c == '\\') {
            fputs("\\\\", out);
            i++;
        } else if (c >= 0x20 && c < 0x7F) {
            putc(c, out);
            i++;
        } else if (c >= 0x80 && (n = kf3ds_utf8_char((const char *)p + i, len - i, &cp)) != 0 &&
                   !(cp >= 0x80 && cp <= 0x9F) && cp != 0x2028 && cp != 0x2029 &&
                   !(cp >= 0x202A && cp <= 0x202E) && !(cp >= 0x2066 && cp <= 0x2069)) {
            fwrite(p + i, 1, n, out);
            i += n;
        } else {
            fprintf(out, "\\x%02X", (unsigned)c);
            i++;
        }
    }
}

void cli_text_cstr(FILE *out, const char *s)
{
    cli_text_string(out, s ? s : "", s ? strlen(s) : 0);
}

void cli_text_name(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    int quote = *p == '\0';
    for (; *p; p++)
        if (*p <= ' ' || *p == '"' || *p == '(' || *p == ')' || *p == '\\' || *p == 0x7F)
            quote = 1;
    if (quote)
        fputc('"', out);
    if (s && quote) {
        for (p = (const unsigned char *)s; *p; p++) {
            if (*p == '"') {
                fputs("\\\"", out);
            } else {
                const unsigned char *q = p;
                while (*q && *q != '"')
                    q++;
                cli_text_string(out, (const char *)p, (size_t)(q - p));
                p = q - 1;
            }
        }
    } else {
        cli_text_cstr(out, s);
    }
    if (quote)
        fputc('"', out);
}

double cli_text_float(double v)
{
    if (isnan(v))
        return fabs(v); /* "nan", not "-nan" */
    return v == 0 ? 0.0 : v; /* no "-0" for people */
}

const char *cli_plural(unsigned long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

const char *cli_node_type(kf3ds_node_type type)
{
    const char *n = kf3ds_node_type_name(type);
    return n ? n : "?";
}

void cli_node_label(FILE *out, const kf3ds_scene *s, uint32_t i)
{
    const kf3ds_node *n = &s->nodes[i];
    fprintf(out, "[%lu] %s ", (unsigned long)i, cli_node_type(n->type));
    cli_text_name(out, n->name);
    if (n->instance) {
        fputs(" (", out);
        cli_text_name(out, n->instance);
        fputc(')', out);
    }
    if (n->has_node_id)
        fprintf(out, " id %ld", (long)n->id);
}

/* ---- output files (docs/output.md, "Output files") ----------------------- */

static int quiet_warnings;

void cli_set_quiet(int quiet)
{
    quiet_warnings = quiet;
}

int cli_quiet(void)
{
    return quiet_warnings;
}

int cli_is_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

int cli_check_output(const char *verb, const char *option, const char *path, const char *binary)
{
    /* Binary bytes on a terminal garble it; what a user meant was a file or
     * a pipe (as gzip and curl refuse). */
    if (!cli_is_stdout(path) || !binary || !isatty(STDOUT_FILENO))
        return CLI_EXIT_OK;
    return cli_usage_error(verb, "refusing to write binary %s to a terminal; redirect standard "
                           "output or give %s FILE", binary, option);
}

int cli_refuse_stdout(const char *verb, const char *option, const char *what, const char *why)
{
    return cli_usage_error(verb, "%s -: %s cannot be written to standard output (%s)", option,
                           what, why);
}

int cli_other_extension(const char *path, const char *const *allowed)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base || !dot[1])
        return 0; /* no extension: the verb's own format */
    for (; *allowed; allowed++)
        if (strcasecmp(dot + 1, *allowed) == 0)
            return 0;
    return 1;
}

static int output_fail(const char *path, int e)
{
    cli_print_error(path, "cannot write: %s", strerror(e ? e : EIO));
    return -1;
}

/* Writes in place (a device, a FIFO, a symbolic link, a name too long for a
 * temporary suffix). */
static int output_in_place(cli_output *o, int existed)
{
    errno = 0;
    o->file = fopen(o->path, "wb");
    if (!o->file)
        return output_fail(o->path, errno);
    o->created = !existed;
    return 0;
}

int cli_output_open(cli_output *o, const char *path)
{
    static unsigned serial;
    struct stat st, lst;
    mode_t mode = 0666;
    int existed, fd = -1, tries;
    size_t n;

    memset(o, 0, sizeof *o);
    o->path = path;
    if (cli_is_stdout(path)) {
        o->file = stdout;
        o->to_stdout = 1;
        return 0;
    }
    if (!path[0])
        return output_fail(path, ENOENT);
    existed = stat(path, &st) == 0;
    if (existed && S_ISDIR(st.st_mode))
        return output_fail(path, EISDIR);
    if (existed && (!S_ISREG(st.st_mode) ||
                    (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))))
        return output_in_place(o, 1);
    if (existed) {
        /* The rename would replace a file the user may not write: refuse as
         * writing it directly would. Keep its permissions. */
        if (access(path, W_OK) != 0)
            return output_fail(path, errno);
        mode = st.st_mode & 07777;
    }
    n = strlen(path) + 48;
    o->tmp = malloc(n);
    if (!o->tmp)
        return output_fail(path, ENOMEM);
    for (tries = 0; tries < 100 && fd < 0; tries++) {
        snprintf(o->tmp, n, "%s.kf3ds-%ld-%u.tmp", path, (long)getpid(), serial++);
        errno = 0;
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, mode);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        if (e == ENAMETOOLONG)
            return output_in_place(o, existed);
        return output_fail(path, e);
    }
#ifndef __wasi__ /* WASI has no permission bits (make test-cross TARGET=wasm32-wasi) */
    if (existed)
        (void)fchmod(fd, mode); /* open's mode went through the umask */
#endif
    o->file = fdopen(fd, "wb");
    if (!o->file) {
        int e = errno;
        close(fd);
        remove(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return output_fail(path, e);
    }
    return 0;
}

int cli_output_write(cli_output *o, const void *data, size_t len)
{
    if (o->error)
        return -1;
    errno = 0;
    if (len && fwrite(data, 1, len, o->file) != len) {
        o->error = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

/* Removes what was written (never a file that was there before, nor a
 * device) and frees the name. */
static void output_remove(cli_output *o)
{
    if (o->tmp)
        remove(o->tmp);
    else if (o->created)
        remove(o->path);
    free(o->tmp);
    o->tmp = NULL;
    o->file = NULL;
}

int cli_output_close(cli_output *o)
{
    int e = o->error;
    if (!o->file)
        return -1;
    errno = 0;
    if (fflush(o->file) != 0 && !e)
        e = errno ? errno : EIO;
    if (ferror(o->file) && !e)
        e = EIO;
    if (o->to_stdout) {
        o->file = NULL;
        if (!e)
            return 0;
        clearerr(stdout); /* reported here, with its reason: once */
        return output_fail(o->path, e);
    }
    errno = 0;
    if (fclose(o->file) != 0 && !e)
        e = errno ? errno : EIO;
    o->file = NULL;
    errno = 0;
    if (!e && o->tmp && rename(o->tmp, o->path) != 0)
        e = errno ? errno : EIO;
    if (e) {
        output_remove(o);
        return output_fail(o->path, e);
    }
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

void cli_output_abort(cli_output *o)
{
    if (!o->file)
        return;
    if (o->to_stdout) {
        fflush(stdout);
        o->file = NULL;
        return;
    }
    fclose(o->file);
    output_remove(o);
}

int cli_write_output(const char *path, const void *data, size_t len)
{
    cli_output o;
    if (cli_output_open(&o, path) != 0)
        return -1;
    cli_output_write(&o, data, len);
    return cli_output_close(&o);
}
