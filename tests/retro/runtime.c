/* The start-up code of the freestanding retro builds of kfb-eval (`make retro`,
 * mk/retro.mk): everything a program without a C library needs to run as a
 * static Linux executable under qemu-user on a 68000, an ARM7TDMI (ARM or
 * Thumb code) or a MIPS R3000, and nothing more:
 *  - _start: hands the initial stack (argc, argv) to retro_start;
 *  - write, open, read, close and exit as raw system calls;
 *  - memcpy and memset (the compiler may emit calls to them), and on the
 *    68000, which multiplies only 16 × 16 bits, __mulsi3: these builds link
 *    no libgcc, so a floating-point helper (__addsf3, __aeabi_fmul, ...) or
 *    any other one would not link;
 *  - kfb_sys_write and kfb_sys_load for examples/kfb_eval.c (the file is read
 *    into a static buffer: no allocation).
 * Compiled with the same flags as kfb-eval: -ffreestanding, soft float. */
#include <stddef.h>

#define RETRO_MAX_FILE (32ul << 20) /* the biggest .kfb these builds read */

int kfb_eval_main(int argc, char **argv);
long kfb_sys_write(int fd, const void *data, unsigned long size);
const unsigned char *kfb_sys_load(const char *path, unsigned long *size, const char **why);
void retro_start(long *stack);

/* ---- system calls ------------------------------------------------------- */

#if defined(__m68k__)
enum { SYS_exit = 1, SYS_read = 3, SYS_write = 4, SYS_open = 5, SYS_close = 6 };

static long syscall3(long n, long a, long b, long c)
{
    register long d0 __asm__("d0") = n;
    register long d1 __asm__("d1") = a;
    register long d2 __asm__("d2") = b;
    register long d3 __asm__("d3") = c;
    __asm__ volatile("trap #0" : "+r"(d0) : "r"(d1), "r"(d2), "r"(d3) : "memory");
    return d0;
}

__asm__(".text\n"
        ".globl _start\n"
        "_start:\n"
        "    move.l %sp,-(%sp)\n"
        "    jsr retro_start\n");

/* The 68000 has no 32 × 32-bit multiply: the product from mulu.w, its
 * 16 × 16 → 32-bit one (written in asm: in C the compiler would call
 * __mulsi3 again). */
static unsigned long mulu16(unsigned long a, unsigned long b)
{
    __asm__("mulu.w %1,%0" : "+d"(a) : "d"(b));
    return a;
}

unsigned long __mulsi3(unsigned long a, unsigned long b);
unsigned long __mulsi3(unsigned long a, unsigned long b)
{
    unsigned long cross = mulu16(a & 0xFFFF, b >> 16) + mulu16(a >> 16, b & 0xFFFF);
    return mulu16(a & 0xFFFF, b & 0xFFFF) + (cross << 16);
}

#elif defined(__arm__)
enum { SYS_exit = 1, SYS_read = 3, SYS_write = 4, SYS_open = 5, SYS_close = 6 };

static long syscall3(long n, long a, long b, long c)
{
    register long r7 __asm__("r7") = n;
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    __asm__ volatile("swi 0" : "+r"(r0) : "r"(r7), "r"(r1), "r"(r2) : "memory");
    return r0;
}

/* The kernel enters in ARM state; bx switches to Thumb when retro_start is
 * Thumb code (its address then has bit 0 set). ARMv4T has no blx. */
__asm__(".text\n"
        ".arm\n"
        ".globl _start\n"
        "_start:\n"
        "    mov r0, sp\n"
        "    ldr r1, =retro_start\n"
        "    mov lr, pc\n"
        "    bx r1\n"
        ".ltorg\n");

#elif defined(__mips__)
enum { SYS_exit = 4001, SYS_read = 4003, SYS_write = 4004, SYS_open = 4005, SYS_close = 4006 };

static long syscall3(long n, long a, long b, long c)
{
    register long v0 __asm__("$2") = n;
    register long a0 __asm__("$4") = a;
    register long a1 __asm__("$5") = b;
    register long a2 __asm__("$6") = c;
    register long a3 __asm__("$7");
    __asm__ volatile("syscall"
                     : "+r"(v0), "=r"(a3)
                     : "r"(a0), "r"(a1), "r"(a2)
                     : "memory", "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14",
                       "$15", "$24", "$25", "hi", "lo");
    return a3 ? -v0 : v0; /* a3 set: v0 is the error number */
}

/* o32: the caller leaves 16 bytes for the callee's arguments. */
__asm__(".text\n"
        ".globl __start\n"
        ".set noreorder\n"
        "__start:\n"
        "    move $4, $sp\n"
        "    addiu $sp, $sp, -16\n"
        "    jal retro_start\n"
        "    nop\n"
        ".set reorder\n");

#else
#error "tests/retro/runtime.c: a 68000, ARM or MIPS target is needed"
#endif

/* ---- what the compiler and kfb-eval call --------------------------------- */

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

long kfb_sys_write(int fd, const void *data, unsigned long size)
{
    return syscall3(SYS_write, fd, (long)data, (long)size);
}

static unsigned char file_buf[RETRO_MAX_FILE];

const unsigned char *kfb_sys_load(const char *path, unsigned long *size, const char **why)
{
    long fd = path[0] == '-' && !path[1] ? 0 : syscall3(SYS_open, (long)path, 0 /* O_RDONLY */, 0);
    unsigned long n = 0;
    if (fd < 0) {
        *why = fd == -2 ? "No such file or directory" : "cannot read it";
        return NULL;
    }
    for (;;) {
        long got = syscall3(SYS_read, fd, (long)(file_buf + n), (long)(RETRO_MAX_FILE - n));
        if (got < 0) {
            *why = "read error";
            return NULL;
        }
        if (got == 0)
            break;
        n += (unsigned long)got;
        if (n == RETRO_MAX_FILE) {
            *why = "larger than this build's 32 MB buffer";
            return NULL;
        }
    }
    if (fd)
        syscall3(SYS_close, fd, 0, 0);
    *size = n;
    return file_buf;
}

void retro_start(long *stack)
{
    int argc = (int)stack[0];
    char **argv = (char **)(stack + 1);
    syscall3(SYS_exit, kfb_eval_main(argc, argv), 0, 0);
    for (;;)
        ;
}
