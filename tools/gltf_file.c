/* Writing a glTF document (tools/gltf.h): a .glb (12-byte header, a JSON
 * chunk padded with spaces, a BIN chunk padded with zeros), or a .gltf with
 * its buffer in a .bin beside it. */
#include "gltf.h"
#include "cmd.h"
#include <string.h>

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* Writes `n` pieces to `path` ("-": standard output) through a temporary
 * file renamed into place; on failure prints why and leaves no file. */
static int write_pieces(const char *path, const void *const *data, const size_t *len, int n)
{
    cli_output out;
    int i;
    if (cli_output_open(&out, path) != 0)
        return -1;
    for (i = 0; i < n; i++)
        cli_output_write(&out, data[i], len[i]);
    return cli_output_close(&out);
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
    cli_output out;
    /* OUT.gltf first, so that an unwritable OUT is reported by its own name;
     * it is renamed into place only once OUT.bin is complete. */
    if (cli_output_open(&out, path) != 0)
        return -1;
    cli_output_write(&out, json, json_len);
    if (b->len && cli_write_output(bin_path, b->data, b->len) != 0) {
        cli_output_abort(&out);
        return -1;
    }
    if (cli_output_close(&out) != 0) {
        if (b->len)
            remove(bin_path);
        return -1;
    }
    return 0;
}
