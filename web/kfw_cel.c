/* kfw_cel.c — the Animator CEL/PIC decoder (tools/front/cel_decode.c, the
 * one `kf3ds render` and `kf3ds export` use) for web/kf3ds.mjs's decodeCel:
 * browsers decode PNG, JPEG, BMP and GIF maps themselves, but not these
 * (docs/web.md, "The page"). Built by mk/wasm.mk only. */
#include "../tools/front/cel_decode.h"
#include <stdint.h>
#include <string.h>

#define KFW_EXPORT(name) __attribute__((export_name(#name), used, visibility("default")))

/* Decodes `size` bytes at `data`. Returns width*height RGBA bytes (alpha
 * 255; free with kfw_free) with out[0] the width, out[1] the height; or NULL
 * with out[2] the byte offset of the problem and `why` (why_cap bytes) the
 * decoder's reason, the words the command prints for the same picture. */
KFW_EXPORT(kfw_cel_decode) unsigned char *kfw_cel_decode(const unsigned char *data, size_t size,
                                                        int32_t *out, char *why, size_t why_cap)
{
    cel_picture pic;
    size_t at = 0, n, i;
    unsigned char *rgba;
    if (!out || !why || !why_cap)
        return NULL;
    out[0] = out[1] = out[2] = 0;
    why[0] = '\0';
    if (!data && size)
        return NULL;
    memset(&pic, 0, sizeof pic);
    if (cel_decode(data, size, &pic, why, why_cap, &at) != 0) {
        out[2] = at > INT32_MAX ? INT32_MAX : (int32_t)at;
        return NULL;
    }
    /* 0xAARRGGBB words to R, G, B, A bytes in place: pixel i's bytes are
     * read before they are overwritten. */
    n = (size_t)pic.width * (size_t)pic.height;
    rgba = (unsigned char *)pic.pixels;
    for (i = 0; i < n; i++) {
        uint32_t c = pic.pixels[i];
        rgba[4 * i] = (unsigned char)(c >> 16);
        rgba[4 * i + 1] = (unsigned char)(c >> 8);
        rgba[4 * i + 2] = (unsigned char)c;
        rgba[4 * i + 3] = (unsigned char)(c >> 24);
    }
    out[0] = pic.width;
    out[1] = pic.height;
    return rgba;
}
