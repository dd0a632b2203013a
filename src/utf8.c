/* kf3ds_utf8_char (include/kf3ds.h): the one UTF-8 test that the glTF
 * writer and the command's text and JSON share. 3DS names are bytes in the
 * author's code page; what is not valid UTF-8 is escaped by the caller
 * (docs/output.md). */
#include "kf3ds.h"

size_t kf3ds_utf8_char(const char *text, size_t left, uint32_t *codepoint)
{
    const unsigned char *s = (const unsigned char *)text;
    uint32_t c;
    size_t n, i;
    if (!s || !left)
        return 0;
    if (s[0] < 0x80) {
        n = 1;
        c = s[0];
    } else if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        n = 2;
        c = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        n = 3;
        c = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        n = 4;
        c = s[0] & 0x07u;
    } else {
        return 0; /* a continuation byte, or a lead byte of an overlong or too large form */
    }
    if (left < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    /* overlong three- and four-byte forms, beyond U+10FFFF, surrogates */
    if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10FFFF ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    if (codepoint)
        *codepoint = c;
    return n;
}
