/* kf3ds_load_file: the only part of the library that uses stdio, kept apart
 * so that embedded builds can leave it out. */
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kf3ds_scene *kf3ds_load_file(const char *path, const kf3ds_load_options *options,
                             kf3ds_diag *error)
{
    FILE *f;
    long size;
    unsigned char *buf;
    kf3ds_scene *scene;
    if (error)
        memset(error, 0, sizeof *error);
    if (!path) {
        if (error) {
            error->code = KF3DS_ERR_ARGUMENT;
            error->severity = KF3DS_ERROR;
            error->chunk_name = "";
            strcpy(error->message, "no path");
        }
        return NULL;
    }
    f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        if (error) {
            error->code = KF3DS_ERR_IO;
            error->severity = KF3DS_ERROR;
            error->chunk_name = "";
            snprintf(error->message, sizeof error->message, "cannot open: %s", strerror(errno));
        }
        if (f)
            fclose(f);
        return NULL;
    }
    buf = (unsigned char *)malloc(size ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        if (error) {
            error->code = buf ? KF3DS_ERR_IO : KF3DS_ERR_NOMEM;
            error->severity = KF3DS_ERROR;
            error->chunk_name = "";
            strcpy(error->message, buf ? "read failed" : "out of memory");
        }
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    scene = kf3ds_load_memory(buf, (size_t)size, options, error);
    free(buf);
    return scene;
}
