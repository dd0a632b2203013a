/* Shared helpers for the cmocka suites. */
#ifndef KF3DS_TEST_SUPPORT_H
#define KF3DS_TEST_SUPPORT_H
#include <stdarg.h>
#include <stddef.h>
#include "kf3ds.h"

/* The public corpus folder (../shared/corpus, or $KF3DS_CORPUS), or NULL with
 * a message on stderr when it is absent, so suites skip cleanly. */
const char *support_corpus_dir(void);
/* Reads a whole file; NULL when it cannot. Free with free(). */
unsigned char *support_read_file(const char *path, size_t *size);
/* Path of the kf3ds command ($KF3DS_TOOL or build/kf3ds). */
const char *support_tool(void);

/* A counting allocator for the load options: it can refuse every call after
 * the first `fail_after` (-1: never), and it tracks live blocks and bytes. */
typedef struct counting {
    long fail_after; /* calls that succeed before every later one fails; -1: never */
    long calls;      /* malloc/realloc calls, failed ones included */
    long live;       /* blocks handed out and not yet freed */
    size_t bytes;    /* bytes handed out and not yet freed */
    size_t peak;     /* the most `bytes` ever was */
} counting;

void counting_reset(counting *c, long fail_after);
/* Load options whose allocator hooks count into *c. */
kf3ds_load_options counting_options(counting *c);

/* Running the kf3ds command as a child: stdout and stderr are captured through
 * files in `dir`. */
typedef struct support_run {
    int status;        /* exit status, or 128 + signal, or -1 */
    char *out, *err;   /* stdout and stderr, NUL-terminated */
    size_t out_len, err_len;
} support_run;

/* Runs support_tool() with `env` (shell assignments such as
 * "SDL_VIDEODRIVER=dummy", or NULL) in front and the arguments up to NULL;
 * standard input is /dev/null. status is -1 when the command does not fit. */
support_run support_run_argv(const char *dir, const char *env, const char *const *args);
support_run support_run_va(const char *dir, const char *env, const char *arg, va_list ap);
void support_run_free(support_run *r);
#endif
