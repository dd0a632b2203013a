/* kfb-eval FILE.kfb --frame F [--frame F ...] --json [--verts]
 *
 * Prints a baked file (kf3ds bake, docs/kfb.md) as the JSON `kf3ds eval`
 * prints for the same frames: per frame every baked node's index, id, name,
 * instance, type, parent and world matrix (16 numbers, row-major), and with
 * --verts its mesh's vertices placed at that frame (world matrix × stored
 * vertex). A frame that was not baked is an error (exit 2).
 *
 * Built two ways from this one file:
 *  - hosted (`make` → build/kfb-eval): stdio; float and fixed-point files;
 *  - freestanding (`make retro`, -DKFB_EVAL_FREESTANDING): no C library, no
 *    floating point, fixed-point files only; the start-up code
 *    (tests/retro/runtime.c) supplies kfb_sys_write and kfb_sys_load and calls
 *    kfb_eval_main.
 * Fixed-point numbers are printed exactly (every decimal digit of raw / 2^N)
 * by integer code shared by both, so both print the same bytes. */
#ifdef KFB_EVAL_FREESTANDING
#define KF3DS_KFB_NO_FLOAT
long kfb_sys_write(int fd, const void *data, unsigned long size);
/* The whole file, or NULL (then *why is a short reason). */
const unsigned char *kfb_sys_load(const char *path, unsigned long *size, const char **why);
int kfb_eval_main(int argc, char **argv);
#else
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif
#define KF3DS_KFB_IMPLEMENTATION
#define KF3DS_KFB_STATIC
#include "kf3ds_kfb.h"

#define EXIT_INPUT 1 /* the file is unreadable or corrupt */
#define EXIT_USAGE 2 /* wrong usage, or a frame that was not baked */
#define MAX_FRAMES 4096
#define USAGE "usage: kfb-eval FILE.kfb --frame F [--frame F ...] --json [--verts]\n"

/* ---- output: buffered, written with fwrite or the write system call ------ */

static char out_buf[8192];
static unsigned long out_len;

static void out_write(int fd, const char *s, unsigned long n)
{
#ifdef KFB_EVAL_FREESTANDING
    while (n) {
        long w = kfb_sys_write(fd, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (unsigned long)w;
    }
#else
    fwrite(s, 1, n, fd == 1 ? stdout : stderr);
#endif
}

static void flush(void)
{
    out_write(1, out_buf, out_len);
    out_len = 0;
}

static void put(const char *s, unsigned long n)
{
    while (n--) {
        if (out_len == sizeof out_buf)
            flush();
        out_buf[out_len++] = *s++;
    }
}

static unsigned long len_of(const char *s)
{
    unsigned long n = 0;
    while (s[n])
        n++;
    return n;
}

static void puts_(const char *s)
{
    put(s, len_of(s));
}

static int same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static int starts(const char *s, const char *prefix)
{
    while (*prefix && *s == *prefix)
        s++, prefix++;
    return !*prefix;
}

/* The decimal digits of v into d (1 to 10 of them), without a division
 * (FPU-less CPUs often have no divide instruction): powers of ten subtracted. */
static int digits_of(kf3ds_kfb_u32 v, char d[10])
{
    static const kf3ds_kfb_u32 pow10[10] = { 1000000000UL, 100000000UL, 10000000UL, 1000000UL,
                                             100000UL, 10000UL, 1000UL, 100UL, 10UL, 1UL };
    int i, n = 0;
    for (i = 0; i < 10; i++) {
        char c = '0';
        while (v >= pow10[i]) {
            v -= pow10[i];
            c++;
        }
        if (c != '0' || n || i == 9)
            d[n++] = c;
    }
    return n;
}

static void put_unsigned(kf3ds_kfb_u32 v)
{
    char d[10];
    put(d, (unsigned long)digits_of(v, d));
}

static kf3ds_kfb_u32 magnitude(kf3ds_kfb_s32 v)
{
    return v < 0 ? 0UL - (kf3ds_kfb_u32)v : (kf3ds_kfb_u32)v;
}

static void put_signed(kf3ds_kfb_s32 v)
{
    if (v < 0)
        put("-", 1);
    put_unsigned(magnitude(v));
}

/* raw / 2^n exactly: the integer part, then each fraction digit (at most n). */
static void put_fixed(kf3ds_kfb_s32 raw, unsigned n)
{
    kf3ds_kfb_u32 mag = magnitude(raw), mask = ((kf3ds_kfb_u32)1 << n) - 1, frac = mag & mask;
    if (raw < 0)
        put("-", 1);
    put_unsigned(mag >> n);
    if (frac)
        put(".", 1);
    while (frac) {
        char c;
        frac *= 10; /* < 10·2^28: fits */
        c = (char)('0' + (frac >> n));
        frac &= mask;
        put(&c, 1);
    }
}

/* A frame, num / scale (a power of ten), as the shortest decimal. */
static void put_frame(kf3ds_kfb_s32 num, kf3ds_kfb_u32 scale)
{
    char d[10], text[24];
    int n, decimals = 0, len = 0, i, point;
    kf3ds_kfb_u32 s;
    for (s = 1; s < scale; s *= 10)
        decimals++;
    n = digits_of(magnitude(num), d);
    for (i = n; i < decimals + 1; i++) /* at least one digit before the point */
        text[len++] = '0';
    for (i = 0; i < n; i++)
        text[len++] = d[i];
    point = len - decimals;
    while (decimals > 0 && text[len - 1] == '0') {
        len--;
        decimals--;
    }
    if (num < 0)
        put("-", 1);
    put(text, (unsigned long)point);
    if (decimals) {
        put(".", 1);
        put(text + point, (unsigned long)decimals);
    }
}

#ifndef KFB_EVAL_FREESTANDING
/* As kf3ds eval prints numbers: 9 significant digits, null when not finite. */
static void put_float(double v)
{
    char buf[40];
    if (v != v || v > 3.5e38 || v < -3.5e38) {
        puts_("null");
        return;
    }
    snprintf(buf, sizeof buf, "%.9g", v);
    puts_(buf);
}
#endif

/* The length of the UTF-8 sequence at s (0 when it is not a valid one): the
 * rule of tools/cmd/cmd_common.c, repeated here because this program links no
 * more than the reader, so that names come out as kf3ds eval prints them. */
static unsigned utf8_len(const unsigned char *s, unsigned long left)
{
    kf3ds_kfb_u32 c;
    unsigned n, i;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        n = 2;
        c = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        n = 3;
        c = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        n = 4;
        c = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10FFFF ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    return n;
}

/* A JSON string as kf3ds prints them: quotes, backslashes and control bytes
 * escaped, valid UTF-8 kept, any other byte as \u00XX. Its own copy of the
 * command's escaper (tools/), since this example is one self-contained file
 * that also builds freestanding, without the library or libc. */
static void put_json_string(const char *str, unsigned long len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)str;
    unsigned long i = 0;
    put("\"", 1);
    while (p && i < len) {
        unsigned char c = p[i];
        unsigned n;
        if (c == '"' || c == '\\') {
            put("\\", 1);
            put((const char *)&p[i], 1);
            i++;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            put(c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r", 2);
            i++;
        } else if (c >= 0x20 && c < 0x7F) {
            put((const char *)&p[i], 1);
            i++;
        } else if (c >= 0x80 && (n = utf8_len(p + i, len - i)) != 0) {
            put((const char *)&p[i], n);
            i += n;
        } else {
            char esc[6];
            esc[0] = '\\';
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            put(esc, 6);
            i++;
        }
    }
    put("\"", 1);
}

/* ---- the JSON of one node at one frame ------------------------------------- */

/* A number of the file: the fixed-point value, or (hosted builds) the float.
 * Freestanding builds never see the float expression. */
#ifdef KFB_EVAL_FREESTANDING
#define PUT_NUMBER(f, fixed_value, float_value) put_fixed((fixed_value), (f)->frac_bits)
#else
#define PUT_NUMBER(f, fixed_value, float_value)                 \
    ((f)->flags & KF3DS_KFB_FLAG_FIXED ? put_fixed((fixed_value), (f)->frac_bits) \
                                       : put_float(float_value))
#endif

static void put_node(const kf3ds_kfb_file *f, kf3ds_kfb_u32 frame, kf3ds_kfb_u32 slot, int verts)
{
    kf3ds_kfb_node n;
    kf3ds_kfb_s32 m[12] = { 0 };
    kf3ds_kfb_mesh mesh;
    kf3ds_kfb_u32 v;
    int i;
#ifndef KFB_EVAL_FREESTANDING
    float mf[12];
    kf3ds_kfb_world_float(f, frame, slot, mf);
#endif
    kf3ds_kfb_node_get(f, slot, &n);
    if (f->flags & KF3DS_KFB_FLAG_FIXED)
        kf3ds_kfb_world_fixed(f, frame, slot, m);
    puts_("{\"index\": ");
    put_unsigned(n.index);
    puts_(", \"id\": ");
    put_signed(n.id);
    puts_(", \"name\": ");
    put_json_string(n.name.s, n.name.len);
    if (n.instance.s) {
        puts_(", \"instance\": ");
        put_json_string(n.instance.s, n.instance.len);
    }
    puts_(", \"type\": ");
    put_json_string(kf3ds_kfb_node_type_name(n.type), len_of(kf3ds_kfb_node_type_name(n.type)));
    puts_(", \"parent\": ");
    put_signed(n.parent);
    puts_(", \"world\": [");
    for (i = 0; i < 12; i++) {
        if (i)
            puts_(", ");
        PUT_NUMBER(f, m[i], mf[i]);
    }
    puts_(", 0, 0, 0, 1]");
    if (!verts || n.mesh < 0 || kf3ds_kfb_mesh_get(f, (kf3ds_kfb_u32)n.mesh, &mesh) != KF3DS_KFB_OK) {
        puts_("}");
        return;
    }
    puts_(",\n     \"verts\": [");
    for (v = 0; v < mesh.num_vertices; v++) {
        kf3ds_kfb_s32 p[3], q[3] = { 0, 0, 0 };
#ifndef KFB_EVAL_FREESTANDING
        float pf[3], w[3];
        int r;
        kf3ds_kfb_vertex_float(f, &mesh, v, pf);
        for (r = 0; r < 3; r++) /* float inputs, one rounding at the end */
            w[r] = (float)((double)mf[4 * r] * pf[0] + (double)mf[4 * r + 1] * pf[1] +
                           (double)mf[4 * r + 2] * pf[2] + (double)mf[4 * r + 3]);
#endif
        if (f->flags & KF3DS_KFB_FLAG_FIXED) {
            kf3ds_kfb_vertex_fixed(f, &mesh, v, p);
            kf3ds_kfb_fixed_transform(m, p, f->frac_bits, q);
        }
        puts_(v ? ", [" : "[");
        for (i = 0; i < 3; i++) {
            if (i)
                puts_(", ");
            PUT_NUMBER(f, q[i], w[i]);
        }
        puts_("]");
    }
    puts_("]}");
}

/* ---- the command ----------------------------------------------------------- */

static void error_line(const char *file, const char *what, const char *detail)
{
    flush();
    out_write(2, "kfb-eval: ", 10);
    if (file) {
        out_write(2, file, len_of(file));
        out_write(2, ": ", 2);
    }
    out_write(2, what, len_of(what));
    if (detail)
        out_write(2, detail, len_of(detail));
    out_write(2, "\n", 1);
}

static int usage(const char *what, const char *detail)
{
    error_line(0, what, detail);
    out_write(2, USAGE, len_of(USAGE));
    return EXIT_USAGE;
}

/* The JSON of the frames of one file; the exit status. */
static int print_file(const char *file, const unsigned char *data, unsigned long size,
                      const char *const *frame_text, unsigned long nf, int verts)
{
    static kf3ds_kfb_u32 frames[MAX_FRAMES];
    kf3ds_kfb_file f;
    kf3ds_kfb_u32 s;
    unsigned long i;
    int status;
    status = kf3ds_kfb_open(&f, data, size);
    if (status != KF3DS_KFB_OK) { /* kfb-eval: FILE: offset N: what */
        char digits[10];
        flush();
        out_write(2, "kfb-eval: ", 10);
        out_write(2, file, len_of(file));
        out_write(2, ": offset ", 9);
        out_write(2, digits, (unsigned long)digits_of(f.error_offset, digits));
        out_write(2, ": ", 2);
        out_write(2, kf3ds_kfb_status_string(status), len_of(kf3ds_kfb_status_string(status)));
        out_write(2, "\n", 1);
        return EXIT_INPUT;
    }
#ifdef KFB_EVAL_FREESTANDING
    if (!(f.flags & KF3DS_KFB_FLAG_FIXED)) {
        error_line(file, "a float file: this build reads fixed-point files only (kf3ds bake "
                         "--fixed)", 0);
        return EXIT_INPUT;
    }
#endif
    for (i = 0; i < nf; i++)
        if (kf3ds_kfb_find_frame(&f, frame_text[i], &frames[i]) != KF3DS_KFB_OK) {
            error_line(file, "this frame was not baked: ", frame_text[i]);
            return EXIT_USAGE;
        }

    puts_("{\"file\": ");
    put_json_string(file, len_of(file));
    puts_(",\n \"frames\": [");
    for (i = 0; i < nf; i++) {
        kf3ds_kfb_s32 num = 0;
        kf3ds_kfb_frame_numerator(&f, frames[i], &num);
        puts_(i ? ",\n  {\"frame\": " : "\n  {\"frame\": ");
        put_frame(num, f.frame_scale);
        puts_(", \"nodes\": [");
        for (s = 0; s < f.num_nodes; s++) {
            puts_(s ? ",\n    " : "\n    ");
            put_node(&f, frames[i], s, verts);
        }
        puts_("]}");
    }
    puts_("]}\n");
    flush();
    return 0;
}

#ifndef KFB_EVAL_FREESTANDING
static const unsigned char *load(const char *path, unsigned long *size, const char **why)
{
    FILE *in = same(path, "-") ? stdin : fopen(path, "rb");
    unsigned char *buf = NULL;
    unsigned long len = 0, cap = 0;
    if (!in) {
        *why = strerror(errno);
        return NULL;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!nb) {
                free(buf);
                buf = NULL;
                *why = "out of memory";
                break;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, in);
        len += got;
        if (!got) {
            if (ferror(in)) {
                free(buf);
                buf = NULL;
                *why = "read error";
            }
            break;
        }
    }
    if (in != stdin)
        fclose(in);
    *size = len;
    return buf;
}

int main(int argc, char **argv)
#else
int kfb_eval_main(int argc, char **argv)
#endif
{
    static const char *frame_text[MAX_FRAMES];
    const char *file = 0, *why = "";
    const unsigned char *data;
    unsigned long size = 0, nf = 0, i;
    int json = 0, verts = 0, status;

    for (i = 1; i < (unsigned long)argc; i++) {
        const char *a = argv[i];
        if (same(a, "--json")) {
            json = 1;
        } else if (same(a, "--verts")) {
            verts = 1;
        } else if (same(a, "--frame") || starts(a, "--frame=")) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < (unsigned long)argc ? argv[++i] : 0);
            if (!v)
                return usage("--frame needs a frame number", 0);
            if (nf == MAX_FRAMES)
                return usage("too many --frame options", 0);
            frame_text[nf++] = v;
        } else if (same(a, "-h") || same(a, "--help")) {
            puts_("usage: kfb-eval FILE.kfb --frame F [--frame F ...] --json [--verts]\n"
                  "Prints the baked frames of a .kfb file (kf3ds bake) as the JSON kf3ds eval\n"
                  "prints; --verts adds every mesh's placed vertices. Frames are decimal\n"
                  "numbers that were baked. Exit status: 0 ok, 1 unreadable or corrupt file,\n"
                  "2 wrong usage or a frame that was not baked.\n");
            flush();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            return usage("unknown option ", a);
        } else if (file) {
            return usage("more than one FILE: ", a);
        } else {
            file = a;
        }
    }
    if (!file)
        return usage("no FILE.kfb given", 0);
    if (!nf)
        return usage("at least one --frame F is needed", 0);
    if (!json)
        return usage("only the JSON form exists: add --json", 0);
#ifdef KFB_EVAL_FREESTANDING
    data = kfb_sys_load(file, &size, &why);
#else
    data = load(file, &size, &why);
#endif
    if (!data) {
        error_line(file, "cannot open: ", why);
        return EXIT_INPUT;
    }
    status = print_file(file, data, size, frame_text, nf, verts);
#ifndef KFB_EVAL_FREESTANDING
    free((void *)data);
#endif
    return status;
}
