#include "support.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *support_corpus_dir(void)
{
    static const char *candidates[] = { "../shared/corpus", "../../shared/corpus" };
    const char *env = getenv("KF3DS_CORPUS");
    struct stat st;
    size_t i;
    if (env && stat(env, &st) == 0 && S_ISDIR(st.st_mode))
        return env;
    for (i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (stat(candidates[i], &st) == 0 && S_ISDIR(st.st_mode))
            return candidates[i];
    fprintf(stderr, "note: ../shared/corpus not found; corpus checks skipped\n");
    return NULL;
}

unsigned char *support_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        if (buf && size)
            *size = (size_t)n;
    }
    fclose(f);
    return buf;
}

const char *support_tool(void)
{
    const char *env = getenv("KF3DS_TOOL");
    return env ? env : "build/kf3ds";
}
