/* Seeds for fuzz_cel: one small picture of each Animator layout (docs/format.md,
 * 'Animator CEL and PIC pictures'), written into the folder given. */
#include <stdio.h>
#include <string.h>

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, unsigned long v)
{
    put16(p, (unsigned)(v & 0xFFFF));
    put16(p + 2, (unsigned)(v >> 16));
}

static int save(const char *dir, const char *name, const unsigned char *p, size_t n)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "gen_cel_seeds: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned char a[800 + 12], b[64 + 14 + 18 + 12], c[128 + 16 + 12 + 6 + 4 * 4];
    size_t at;
    int y, fail = 0;
    if (argc != 2) {
        fputs("usage: gen_cel_seeds DIR\n", stderr);
        return 2;
    }
    /* Animator 1: 4x3, palette ramp */
    memset(a, 0, sizeof a);
    put16(a, 0x9119);
    put16(a + 2, 4);
    put16(a + 4, 3);
    a[10] = 8;
    put32(a + 12, 12);
    for (y = 0; y < 768; y++)
        a[32 + y] = (unsigned char)(y % 64);
    for (y = 0; y < 12; y++)
        a[800 + y] = (unsigned char)(y * 20);
    fail |= save(argv[1], "animator1.cel", a, sizeof a);
    /* Animator Pro PIC: 4x3, a two-colour palette, byte pixels */
    memset(b, 0, sizeof b);
    put32(b, sizeof b);
    put16(b + 4, 0x9500);
    put16(b + 6, 4);
    put16(b + 8, 3);
    b[18] = 8;
    at = 64;
    put32(b + at, 14);
    put16(b + at + 4, 0);
    b[at + 11] = 255;
    at += 14;
    put32(b + at, 18);
    put16(b + at + 4, 1);
    for (y = 0; y < 12; y++)
        b[at + 6 + y] = (unsigned char)(y & 1);
    fail |= save(argv[1], "pro.pic", b, sizeof b);
    /* Animator Pro CEL (FLC): 4x4, COLOR_256 and BRUN */
    memset(c, 0, sizeof c);
    put16(c + 4, 0xAF12);
    put16(c + 6, 1);
    put16(c + 8, 4);
    put16(c + 10, 4);
    put16(c + 12, 8);
    put32(c + 80, 128);
    at = 128;
    put16(c + at + 4, 0xF1FA);
    put16(c + at + 6, 2);
    at += 16;
    put32(c + at, 12);
    put16(c + at + 4, 4);
    put16(c + at + 6, 1);
    c[at + 8] = 1;
    c[at + 9] = 1;
    c[at + 10] = 200;
    at += 12;
    put32(c + at, 6 + 4 * 4);
    put16(c + at + 4, 15);
    at += 6;
    for (y = 0; y < 4; y++) {
        c[at++] = 1;
        c[at++] = 2;
        c[at++] = 1;
        c[at++] = (unsigned char)(signed char)-2;
    }
    put32(c + 128, at - 128);
    put32(c, at);
    fail |= save(argv[1], "flc.cel", c, at);
    return fail;
}
