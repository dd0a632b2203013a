/* cross-ppc-mffs IN OUT
 *
 * Copies a 32-bit big-endian PowerPC ELF executable, rewriting in its
 * executable sections the ISA 3.0 "move from FPSCR" variants (mffscrn,
 * mffscrni, mffsl, mffsce, mffscdrn, mffscdrni) to plain mffs.
 *
 * Why: Debian's powerpc glibc calls them unconditionally in sin, cos, sincos
 * and atan2. Pre-POWER9 processors decode them as mffs (the extra fields are
 * "don't care" there; glibc then sets the rounding mode itself), but qemu-ppc
 * 7.2 raises SIGILL for them on every 32-bit CPU model. The rewrite gives the
 * G3/G4 behaviour, so `make test-cross TARGET=powerpc-linux-gnu` runs this
 * copy; build/powerpc-linux-gnu/kf3ds itself is left as linked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
    return (unsigned)(p[0] << 8 | p[1]);
}

int main(int argc, char **argv)
{
    FILE *f;
    unsigned char *buf;
    long size;
    unsigned long shoff, i, rewritten = 0;
    unsigned shentsize, shnum;
    if (argc != 3) {
        fputs("usage: cross-ppc-mffs IN OUT\n", stderr);
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 52 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cross-ppc-mffs: cannot read %s\n", argv[1]);
        return 1;
    }
    buf = malloc((size_t)size);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cross-ppc-mffs: cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(f);
    /* ELF, 32-bit, big-endian, EM_PPC (20) */
    if (memcmp(buf, "\177ELF", 4) != 0 || buf[4] != 1 || buf[5] != 2 || be16(buf + 18) != 20) {
        fprintf(stderr, "cross-ppc-mffs: %s is not a 32-bit big-endian PowerPC ELF file\n", argv[1]);
        return 1;
    }
    shoff = be32(buf + 32);
    shentsize = be16(buf + 46);
    shnum = be16(buf + 48);
    if (shentsize < 40 || shoff > (unsigned long)size ||
        (unsigned long)shnum * shentsize > (unsigned long)size - shoff) {
        fprintf(stderr, "cross-ppc-mffs: %s: bad section headers\n", argv[1]);
        return 1;
    }
    for (i = 0; i < shnum; i++) {
        const unsigned char *sh = buf + shoff + i * shentsize;
        unsigned long type = be32(sh + 4), flags = be32(sh + 8);
        unsigned long off = be32(sh + 16), len = be32(sh + 20), k;
        if (type != 1 /* SHT_PROGBITS */ || !(flags & 0x4 /* SHF_EXECINSTR */) ||
            off > (unsigned long)size || len > (unsigned long)size - off)
            continue;
        for (k = off; k + 4 <= off + len; k += 4) {
            unsigned long w = be32(buf + k), sub = (w >> 16) & 0x1F;
            /* primary opcode 63, extended opcode 583 (mffs), sub-opcode in bits 11-15 */
            if ((w & 0xFC0007FEul) == 0xFC00048Eul &&
                (sub == 1 || (sub >= 20 && sub <= 24))) {
                w &= ~0x001FF800ul;
                buf[k] = (unsigned char)(w >> 24);
                buf[k + 1] = (unsigned char)(w >> 16);
                buf[k + 2] = (unsigned char)(w >> 8);
                buf[k + 3] = (unsigned char)w;
                rewritten++;
            }
        }
    }
    f = fopen(argv[2], "wb");
    if (!f || fwrite(buf, 1, (size_t)size, f) != (size_t)size || fclose(f) != 0) {
        fprintf(stderr, "cross-ppc-mffs: cannot write %s\n", argv[2]);
        return 1;
    }
    free(buf);
    printf("cross-ppc-mffs: %s: %lu ISA 3.0 mffs* instructions rewritten to mffs\n", argv[2],
           rewritten);
    return 0;
}
