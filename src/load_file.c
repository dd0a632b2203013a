/* kf3ds_load_file: the only part of the library that touches files, kept
 * apart so that embedded builds can leave it out. On POSIX systems the file
 * is mapped rather than copied (a 90 MB fread alone costs as much as parsing
 * it); elsewhere, or when mapping fails, it is read with stdio. */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1
#define _DARWIN_C_SOURCE 1
#define KF3DS__HAVE_MMAP 1
#endif
#include "kf3ds.h"
#include "diag.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef KF3DS__HAVE_MMAP
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

static kf3ds_scene *fail(kf3ds_diag *error, kf3ds_status code, const char *what, int err)
{
    if (err)
        kf3ds__diag_set(error, code, "%s: %s", what, strerror(err));
    else
        kf3ds__diag_set(error, code, "%s", what);
    return NULL;
}

static kf3ds_scene *load_with_stdio(const char *path, const kf3ds_load_options *options,
                                    kf3ds_diag *error)
{
    FILE *f = fopen(path, "rb");
    long size;
    unsigned char *buf;
    kf3ds_scene *scene;
    if (!f)
        return fail(error, KF3DS_ERR_IO, "cannot open", errno);
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        (unsigned long)size > 0xFFFFFFFFul) {
        int err = errno;
        fclose(f);
        return fail(error, KF3DS_ERR_IO, "cannot read", err);
    }
    buf = (unsigned char *)malloc(size ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(buf);
        return fail(error, buf ? KF3DS_ERR_IO : KF3DS_ERR_NOMEM,
                    buf ? "read failed" : "out of memory", 0);
    }
    fclose(f);
    scene = kf3ds_load_memory(buf, (size_t)size, options, error);
    free(buf);
    return scene;
}

kf3ds_scene *kf3ds_load_file(const char *path, const kf3ds_load_options *options,
                             kf3ds_diag *error)
{
#ifdef KF3DS__HAVE_MMAP
    int fd;
    struct stat st;
    void *map;
    kf3ds_scene *scene;
#endif
    if (error)
        memset(error, 0, sizeof *error);
    if (!path)
        return fail(error, KF3DS_ERR_ARGUMENT, "no path", 0);
#ifdef KF3DS__HAVE_MMAP
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return fail(error, KF3DS_ERR_IO, "cannot open", errno);
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return fail(error, KF3DS_ERR_IO, "cannot read", err);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return fail(error, KF3DS_ERR_IO, "cannot read", EISDIR);
    }
    if (!S_ISREG(st.st_mode) || st.st_size <= 0) {
        close(fd);
        return load_with_stdio(path, options, error); /* empty files, pipes, devices */
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return load_with_stdio(path, options, error);
#ifdef MADV_SEQUENTIAL
    madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
#endif
    scene = kf3ds_load_memory(map, (size_t)st.st_size, options, error);
    munmap(map, (size_t)st.st_size);
    return scene;
#else
    return load_with_stdio(path, options, error);
#endif
}
