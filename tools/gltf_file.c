/* Writing a glTF document (tools/gltf.h): a .glb (12-byte header, a JSON
 * chunk padded with spaces, a BIN chunk padded with zeros), or a .gltf with
 * its buffer in a .bin beside it. */
#include "gltf.h"
#include "cmd.h"
#include <errno.h>
#include <string.h>

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* Writes `n` pieces to `path`; on failure prints why and removes the file. */
static int write_pieces(const char *path, const void *const *data, const size_t *len, int n)
{
    FILE *f;
    int i, ok = 1;
    errno = 0;
    f = fopen(path, "wb");
    if (!f) {
        cli_print_error(path, "cannot write: %s", strerror(errno ? errno : EIO));
        return -1;
    }
    for (i = 0; i < n && ok; i++)
        if (len[i] && fwrite(data[i], 1, len[i], f) != len[i])
            ok = 0;
    if (fclose(f) != 0)
        ok = 0;
    if (!ok) {
        int e = errno ? errno : EIO;
        remove(path);
        cli_print_error(path, "cannot write: %s", strerror(e));
        return -1;
    }
    return 0;
}

int gltf_write_glb(const char *path, const char *json, size_t json_len, const gltf_buffer *b)
{
    static const char spaces[4] = { ' ', ' ', ' ', ' ' };
    static const unsigned char zeros[4] = { 0, 0, 0, 0 };
    unsigned char header[12], json_head[8], bin_head[8];
    size_t json_pad = (4 - (json_len & 3)) & 3, bin_pad = (4 - (b->len & 3)) & 3;
    size_t total = 12 + 8 + json_len + json_pad + (b->len ? 8 + b->len + bin_pad : 0);
    const void *data[7];
    size_t len[7];
    if (total > 0xFFFFFFFFu) {
        cli_print_error(path, "cannot write: the export is over 4 GB, too big for a .glb "
                              "(write a .gltf instead)");
        return -1;
    }
    memcpy(header, "glTF", 4);
    put_u32(header + 4, 2);
    put_u32(header + 8, (uint32_t)total);
    put_u32(json_head, (uint32_t)(json_len + json_pad));
    memcpy(json_head + 4, "JSON", 4);
    put_u32(bin_head, (uint32_t)(b->len + bin_pad));
    memcpy(bin_head + 4, "BIN\0", 4);
    data[0] = header, len[0] = 12;
    data[1] = json_head, len[1] = 8;
    data[2] = json, len[2] = json_len;
    data[3] = spaces, len[3] = json_pad;
    data[4] = bin_head, len[4] = b->len ? 8 : 0;
    data[5] = b->data, len[5] = b->len;
    data[6] = zeros, len[6] = b->len ? bin_pad : 0;
    return write_pieces(path, data, len, 7);
}

int gltf_write_gltf(const char *path, const char *json, size_t json_len, const char *bin_path,
                    const gltf_buffer *b)
{
    const void *data[1];
    size_t len[1];
    if (b->len) {
        data[0] = b->data, len[0] = b->len;
        if (write_pieces(bin_path, data, len, 1) != 0)
            return -1;
    }
    data[0] = json, len[0] = json_len;
    if (write_pieces(path, data, len, 1) != 0) {
        if (b->len)
            remove(bin_path);
        return -1;
    }
    return 0;
}
