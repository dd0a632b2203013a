/* libFuzzer target: the Animator CEL/PIC decoder of the command
 * (tools/front/cel_decode.c) on any bytes.
 *
 * Oracles beyond the sanitizers (abort() = a finding): a decoded picture has
 * both sides in 1..16384 and every pixel opaque; a refused one has a reason
 * and an offset within the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel_decode.h"

static void finding(const char *what, unsigned long v)
{
    fprintf(stderr, "fuzz_cel: %s (%lu)\n", what, v);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cel_picture pic;
    char why[200];
    size_t at = (size_t)-1, i;
    why[0] = '\0';
    if (cel_decode(data, size, &pic, why, sizeof why, &at) == 0) {
        if (!pic.pixels || pic.width < 1 || pic.height < 1 || pic.width > 16384 ||
            pic.height > 16384)
            finding("bad picture size", (unsigned long)pic.width);
        for (i = 0; i < (size_t)pic.width * (size_t)pic.height; i++)
            if (pic.pixels[i] >> 24 != 0xFF)
                finding("pixel not opaque", (unsigned long)i);
        free(pic.pixels);
    } else {
        if (!why[0])
            finding("refused without a reason", 0);
        if (at > size)
            finding("offset beyond the input", (unsigned long)at);
        if (pic.pixels)
            finding("pixels left after a refusal", 0);
    }
    return 0;
}
