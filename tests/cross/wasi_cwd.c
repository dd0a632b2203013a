/* Linked into the wasm32-wasi builds of `make test-cross` only (mk/cross.mk).
 * wasi-libc starts every program in "/", and resolves a relative path such as
 * data/arm.3ds against it; the host's working directory is not part of WASI.
 * tests/cross/wasi_run.mjs passes it as KF3DS_WASI_CWD (with the whole file
 * system preopened as "/"), and this constructor moves there before main, so
 * that the program opens the same files under the same names as the native
 * build does under the shell. */
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void wasi_cwd(void)
{
    const char *dir = getenv("KF3DS_WASI_CWD");
    if (dir && *dir)
        (void)chdir(dir);
}
