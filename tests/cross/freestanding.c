/* The freestanding link test of `make freestanding` (mk/cross.mk), x86-64
 * Linux only: the core (without src/load_file.c, with
 * -DKF3DS_NO_DEFAULT_ALLOCATOR) is compiled with -ffreestanding and linked
 * with -nostdlib against this file alone. It supplies what an embedder
 * without a C library supplies: the entry point, the five string functions
 * and the twelve math functions the loader and evaluator call (plain series,
 * accurate to about 1e-15, not fast), an arena for the allocator hooks, and
 * the input (data/arm.3ds, assembled in with .incbin). It loads the file from
 * memory, evaluates frame 30, places every object node's vertices, prints one line
 * through the write system call (with the sum of the placed coordinates, which
 * `make freestanding` compares with the hosted kf3ds eval) and exits 0 when
 * everything checks out. */
#include <stddef.h>
#include <stdint.h>
#include "kf3ds.h"

#if !defined(__x86_64__) || !defined(__linux__)
#error "the freestanding link test is written for x86-64 Linux"
#endif

/* ---- entry point and system calls ------------------------------------ */

__asm__(".text\n"
        ".globl _start\n"
        "_start:\n"
        "    xor %ebp, %ebp\n"
        "    and $-16, %rsp\n"
        "    call fs_main\n"
        "    mov %eax, %edi\n"
        "    mov $60, %eax\n" /* exit */
        "    syscall\n"
        "    hlt\n");

__asm__(".section .rodata\n"
        ".balign 16\n"
        "fs_input:\n"
        ".incbin \"data/arm.3ds\"\n"
        "fs_input_end:\n"
        ".previous\n");
extern const unsigned char fs_input[], fs_input_end[];

static void put(const char *s, size_t n)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(1L), "D"(1L), "S"(s), "d"(n) : "rcx", "r11", "memory");
    (void)r;
}

/* ---- the C library functions the core calls -------------------------- */

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

void *memchr(const void *p, int c, size_t n)
{
    const unsigned char *s = p;
    for (; n; n--, s++)
        if (*s == (unsigned char)c)
            return (void *)(uintptr_t)s;
    return NULL;
}

int strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && *x == *y)
        x++, y++;
    return *x - *y;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

#define PI 3.14159265358979323846
#define PIO2_HI 1.57079632679489655800e+00 /* pi/2 split for the reduction */
#define PIO2_LO 6.12323399573676603587e-17

double fabs(double x) { return x < 0.0 || (x == 0.0 && 1.0 / x < 0.0) ? -x : x; }
float fabsf(float x) { return (float)fabs(x); }

double sqrt(double x)
{
    double r = 1.0, scale = 1.0;
    int i;
    if (!(x > 0.0) || x > 1.7e308)
        return x == 0.0 || x > 0.0 ? x : (x - x) / (x - x); /* 0, infinity or NaN */
    while (x > 4.0) { /* x·4^-k in [0.25, 4] */
        x *= 0.25;
        scale *= 2.0;
    }
    while (x < 0.25) {
        x *= 4.0;
        scale *= 0.5;
    }
    for (i = 0; i < 8; i++) /* Newton from 1 */
        r = 0.5 * (r + x / r);
    return r * scale;
}
float sqrtf(float x) { return (float)sqrt(x); }

/* sin and cos of |r| <= pi/4 by their Taylor series. */
static double sin_kernel(double r)
{
    double r2 = r * r, term = r, sum = r;
    int k;
    for (k = 1; k < 11; k++) {
        term *= -r2 / ((2.0 * k) * (2.0 * k + 1.0));
        sum += term;
    }
    return sum;
}

static double cos_kernel(double r)
{
    double r2 = r * r, term = 1.0, sum = 1.0;
    int k;
    for (k = 1; k < 11; k++) {
        term *= -r2 / ((2.0 * k - 1.0) * (2.0 * k));
        sum += term;
    }
    return sum;
}

/* x = k·π/2 + r; returns r and the quadrant k mod 4 (|x| < 2^50 or so). */
static double reduce(double x, int *quadrant)
{
    double k = x * (2.0 / PI);
    long long n = (long long)(k < 0.0 ? k - 0.5 : k + 0.5);
    *quadrant = (int)(n & 3);
    return (x - (double)n * PIO2_HI) - (double)n * PIO2_LO;
}

/* sin(x + shift·π/2): sin with shift 0, cos with shift 1 (a quarter turn
 * later), from the kernels of the reduced argument's quadrant. */
static double sin_shifted(double x, int shift)
{
    int q;
    double r;
    if (x != x || fabs(x) > 1e15)
        return (x - x) / (x - x);
    r = reduce(x, &q);
    switch ((q + shift) & 3) {
    case 0: return sin_kernel(r);
    case 1: return cos_kernel(r);
    case 2: return -sin_kernel(r);
    default: return -cos_kernel(r);
    }
}

double sin(double x) { return sin_shifted(x, 0); }
double cos(double x) { return sin_shifted(x, 1); }
float sinf(float x) { return (float)sin(x); }
float cosf(float x) { return (float)cos(x); }

/* atan of t >= 0: t > 1 through π/2 − atan(1/t), then two argument halvings
 * (atan t = 2 atan(t / (1 + sqrt(1 + t²)))) and the series. */
static double atan_pos(double t)
{
    double t2, term, sum, scale = 1.0, base = 0.0;
    int k;
    if (t > 1.0) {
        base = PI / 2;
        scale = -1.0;
        t = 1.0 / t;
    }
    for (k = 0; k < 2; k++)
        t = t / (1.0 + sqrt(1.0 + t * t));
    t2 = t * t;
    term = t;
    sum = t;
    for (k = 1; k < 20; k++) {
        term *= -t2;
        sum += term / (2.0 * k + 1.0);
    }
    return base + scale * 4.0 * sum;
}

double atan2(double y, double x)
{
    double a;
    if (x != x || y != y)
        return x + y;
    if (x == 0.0 && y == 0.0)
        return 1.0 / x < 0.0 ? (1.0 / y < 0.0 ? -PI : PI) : y;
    if (x == 0.0)
        return y > 0.0 ? PI / 2 : -PI / 2;
    a = atan_pos(fabs(y / x));
    if (x < 0.0)
        a = PI - a;
    return y < 0.0 || (y == 0.0 && 1.0 / y < 0.0) ? -a : a;
}

double acos(double x)
{
    if (!(x >= -1.0 && x <= 1.0))
        return (x - x) / (x - x);
    return atan2(sqrt((1.0 - x) * (1.0 + x)), x);
}
float acosf(float x) { return (float)acos(x); }

double fmod(double x, double y)
{
    double q;
    if (x != x || y != y || y == 0.0 || fabs(x) > 1e18 || fabs(x / y) > 9e18)
        return (x - x) / (x - x);
    q = x / y;
    q = (double)(long long)q; /* toward zero */
    return x - q * y;
}

/* ---- the allocator hooks: a bump arena -------------------------------- */

static unsigned char arena[1 << 20] __attribute__((aligned(16)));
static size_t arena_used, arena_peak;

static void *arena_malloc(size_t size, void *user)
{
    void *p;
    (void)user;
    size = (size + 15) & ~(size_t)15;
    if (size > sizeof arena - arena_used)
        return NULL;
    p = arena + arena_used;
    arena_used += size;
    if (arena_used > arena_peak)
        arena_peak = arena_used;
    return p;
}

static void arena_free(void *ptr, void *user)
{
    (void)ptr, (void)user; /* everything goes at once: arena_used = 0 */
}

/* ---- the test ---------------------------------------------------------- */

static void say(const char *s) { put(s, strlen(s)); }

static void say_num(unsigned long v)
{
    char buf[24];
    int n = 0;
    do
        buf[sizeof buf - 1 - n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    put(buf + sizeof buf - n, (size_t)n);
}

static void say_fixed(double v) /* v with 4 decimals */
{
    unsigned long whole, frac;
    if (v < 0.0) {
        say("-");
        v = -v;
    }
    whole = (unsigned long)v;
    frac = (unsigned long)((v - (double)whole) * 1e4 + 0.5);
    if (frac >= 10000) {
        whole++;
        frac -= 10000;
    }
    say_num(whole);
    say(".");
    say(frac < 1000 ? (frac < 100 ? (frac < 10 ? "000" : "00") : "0") : "");
    say_num(frac);
}

static int fail(const char *why)
{
    say("freestanding: FAIL: ");
    say(why);
    say("\n");
    return 1;
}

int fs_main(void);
int fs_main(void)
{
    static kf3ds_pose poses[32];
    kf3ds_load_options options;
    kf3ds_diag err;
    kf3ds_scene *scene;
    size_t size = (size_t)(fs_input_end - fs_input);
    uint32_t i, placed = 0, k;
    double s, c, sum = 0.0;

    /* the math shims against a few known values */
    s = sin(PI / 6);
    c = cos(1e3);
    if (fabs(s - 0.5) > 1e-14 || fabs(c - 0.5623790762907029) > 1e-12)
        return fail("math shims");

    /* no hooks in a build without a default allocator: a clean refusal */
    scene = kf3ds_load_memory(fs_input, size, NULL, &err);
    if (scene || err.code != KF3DS_ERR_ARGUMENT)
        return fail("loading without allocator hooks did not fail with KF3DS_ERR_ARGUMENT");

    memset(&options, 0, sizeof options);
    options.allocator.malloc_fn = arena_malloc;
    options.allocator.free_fn = arena_free;
    scene = kf3ds_load_memory(fs_input, size, &options, &err);
    if (!scene || err.code != KF3DS_OK)
        return fail("data/arm.3ds did not load");
    if (scene->num_nodes != 10 || scene->num_meshes != 7 || scene->num_nodes > 32)
        return fail("unexpected node or mesh count");
    kf3ds_scene_eval(scene, 30.0, 0, poses);
    for (i = 0; i < scene->num_nodes; i++) {
        kf3ds_mat4 m;
        const kf3ds_mesh *mesh;
        if (!kf3ds_node_mesh_matrix(scene, i, &poses[i], &m))
            continue;
        mesh = &scene->meshes[scene->nodes[i].mesh];
        for (k = 0; k < mesh->num_points; k++) {
            float v[3];
            kf3ds_mat4_transform_point(&m, mesh->points[k], v);
            if (!(fabs(v[0]) < 1e3 && fabs(v[1]) < 1e3 && fabs(v[2]) < 1e3))
                return fail("a placed vertex is not finite or far off");
            sum += (double)v[0] + v[1] + v[2];
            placed++;
        }
    }
    if (placed != 48) /* 6 object nodes of 8 vertices */
        return fail("not all 48 vertices were placed");
    kf3ds_scene_free(scene);
    say("freestanding: ok: loaded data/arm.3ds (");
    say_num((unsigned long)size);
    say(" bytes) from memory into a ");
    say_num((unsigned long)arena_peak);
    say("-byte arena, evaluated frame 30, placed its 48 vertices (coordinate sum ");
    say_fixed(sum);
    say("); no C library linked\n");
    return 0;
}
