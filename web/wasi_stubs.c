/* wasi_stubs.c — the three WASI calls that wasi-libc's stdio refers to,
 * defined here so that kf3ds.wasm still imports nothing (docs/web.md).
 *
 * The glTF writer (src/gltf/) formats its numbers with snprintf and reads
 * them back with strtod; linking those brings in musl's FILE machinery,
 * whose exit and close paths name fd_write, fd_seek and fd_close. The module
 * never opens, writes or closes a file descriptor (no stdout, no exit), so
 * these are never called; should one be, it fails with EBADF instead of
 * needing an import. Built by mk/wasm.mk only. */
#include <stdint.h>

#define KFW_WASI_EBADF 8 /* __WASI_ERRNO_BADF */

int32_t __imported_wasi_snapshot_preview1_fd_write(int32_t fd, int32_t iovs, int32_t iovs_len,
                                                   int32_t written);
int32_t __imported_wasi_snapshot_preview1_fd_seek(int32_t fd, int64_t offset, int32_t whence,
                                                  int32_t position);
int32_t __imported_wasi_snapshot_preview1_fd_close(int32_t fd);

int32_t __imported_wasi_snapshot_preview1_fd_write(int32_t fd, int32_t iovs, int32_t iovs_len,
                                                   int32_t written)
{
    (void)fd, (void)iovs, (void)iovs_len, (void)written;
    return KFW_WASI_EBADF;
}

int32_t __imported_wasi_snapshot_preview1_fd_seek(int32_t fd, int64_t offset, int32_t whence,
                                                  int32_t position)
{
    (void)fd, (void)offset, (void)whence, (void)position;
    return KFW_WASI_EBADF;
}

int32_t __imported_wasi_snapshot_preview1_fd_close(int32_t fd)
{
    (void)fd;
    return KFW_WASI_EBADF;
}
