/* Node.js checks from the C suites (support_node.h). */
#define _POSIX_C_SOURCE 200809L
#include "support_node.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

const char *support_npm_dir(void)
{
    const char *d = getenv("KF3DS_NPM");
    return d && *d ? d : "build/npm";
}

void support_abs_path(char *buf, size_t cap, const char *rel)
{
    char cwd[2048];
    int n;
    if (rel[0] == '/' || !getcwd(cwd, sizeof cwd))
        n = snprintf(buf, cap, "%s", rel);
    else
        n = snprintf(buf, cap, "%s/%s", cwd, rel);
    if (n < 0 || (size_t)n >= cap)
        fail_msg("path too long: %s", rel);
}

int support_have_node_tools(const char *suite)
{
    static int known = -1;
    char path[4600];
    struct stat st;
    if (known >= 0)
        return known;
    known = system("node --version > /dev/null 2>&1") == 0;
    snprintf(path, sizeof path, "%s/node_modules/gltf-validator/package.json", support_npm_dir());
    known &= stat(path, &st) == 0;
    snprintf(path, sizeof path, "%s/node_modules/three/package.json", support_npm_dir());
    known &= stat(path, &st) == 0;
    if (!known)
        fprintf(stderr, "%s: SKIPPED the validator and three.js checks: they need Node.js and "
                        "the npm packages gltf-validator and three in %s (make npm-tools "
                        "installs them; .ci/run does)\n", suite, support_npm_dir());
    return known;
}

char *support_run_node(int *status, const char *script, const char *args)
{
    char cmd[16384], npm[4096], js[4096], out[4200];
    char *text;
    unsigned char *data;
    size_t size;
    support_abs_path(npm, sizeof npm, support_npm_dir());
    support_abs_path(js, sizeof js, script);
    support_tmp_path(out, sizeof out, "node.out");
    snprintf(cmd, sizeof cmd, "cd '%s' && KF3DS_NPM='%s' node '%s' %s > '%s' 2>&1",
             support_tmpdir(), npm, js, args, out);
    *status = system(cmd);
    *status = *status >= 0 && (*status & 0x7f) == 0 ? (*status >> 8) & 0xff : 128;
    data = support_read_file(out, &size);
    text = calloc(size + 1, 1);
    assert_non_null(text);
    if (data)
        memcpy(text, data, size);
    free(data);
    return text;
}
