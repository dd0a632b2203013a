/* kf3ds_save_file: the only part of the writer that touches files (leave it
 * out on embedded targets, as load_file.c). The bytes are made in memory
 * first, so a scene that cannot be saved leaves no file behind. */
#include "kf3ds.h"
#include "diag.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static kf3ds_status fail(kf3ds_diag *error, kf3ds_status code, const char *what, int err)
{
    if (err)
        kf3ds__diag_set(error, code, "%s: %s", what, strerror(err));
    else
        kf3ds__diag_set(error, code, "%s", what);
    return code;
}

kf3ds_status kf3ds_save_file(const kf3ds_scene *scene, const char *path,
                             const kf3ds_save_options *options, kf3ds_diag *error)
{
    void *bytes;
    size_t size;
    FILE *f;
    int ok, err = 0;
    kf3ds_status status;
    if (!path)
        return fail(error, KF3DS_ERR_ARGUMENT, "no path", 0);
    status = kf3ds_save_memory(scene, options, &bytes, &size, error);
    if (status != KF3DS_OK)
        return status;
    errno = 0;
    f = fopen(path, "wb");
    if (!f) {
        err = errno;
        kf3ds_save_free(bytes, options);
        return fail(error, KF3DS_ERR_IO, "cannot create", err);
    }
    ok = fwrite(bytes, 1, size, f) == size;
    if (!ok)
        err = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    kf3ds_save_free(bytes, options);
    if (!ok) {
        remove(path);
        return fail(error, KF3DS_ERR_IO, "cannot write", err);
    }
    return KF3DS_OK;
}
