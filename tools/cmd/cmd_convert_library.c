/* kf3ds convert: 3D Studio material libraries (.mli). Their root chunk is
 * MLIBMAGIC and its children are MAT_ENTRY chunks with no scene around them
 * (docs/format.md, "The root chunk"), so there is nothing to export, bake,
 * render or rewrite as a scene; convert says what the library holds instead
 * of failing on it (docs/convert.md, its item "Projects and material libraries"). Only chunk
 * headers are read, a file's top level, so a library of any size costs a few
 * reads and no allocation. */
#define _XOPEN_SOURCE 700
#include "cmd_convert.h"
#include <stdio.h>

static int read_header(FILE *f, unsigned *id, unsigned long *length)
{
    unsigned char h[6];
    if (fread(h, 1, sizeof h, f) != sizeof h)
        return 0;
    *id = (unsigned)h[0] | (unsigned)h[1] << 8;
    *length = (unsigned long)h[2] | (unsigned long)h[3] << 8 | (unsigned long)h[4] << 16 |
              (unsigned long)h[5] << 24;
    return 1;
}

long convert_library_materials(const char *path, long *bad_offset)
{
    FILE *f = fopen(path, "rb");
    unsigned id;
    unsigned long root_len, end, pos = 6;
    long count = 0, size;
    *bad_offset = -1;
    if (!f)
        return -1;
    if (!read_header(f, &id, &root_len) || id != KF3DS_CHUNK_MLIBMAGIC || root_len < 6 ||
        fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 6) {
        fclose(f);
        return -1; /* not a library: the verb reads it and says what it is */
    }
    /* a root longer than the file is read to the file's end, as the loader does */
    end = root_len < (unsigned long)size ? root_len : (unsigned long)size;
    /* the root's children, each skipped by its length; a length below 6 or
     * past the end stops the count where the damage is */
    while (pos + 6 <= end && fseek(f, (long)pos, SEEK_SET) == 0) {
        unsigned long len;
        if (!read_header(f, &id, &len))
            break;
        if (len < 6 || len > end - pos) {
            *bad_offset = (long)pos;
            break;
        }
        if (id == KF3DS_CHUNK_MAT_ENTRY)
            count++;
        pos += len;
    }
    /* a file cut inside its root, or bytes too few for a chunk at its end */
    if (*bad_offset < 0 && (pos < end || root_len > (unsigned long)size))
        *bad_offset = (long)(pos < end ? pos : end);
    fclose(f);
    return count;
}
