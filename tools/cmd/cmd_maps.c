/* Finding the pictures a .3ds file names: 3D Studio stored DOS 8.3 names,
 * mostly in capitals, while the files beside it come in any case, so a name
 * is matched case-insensitively, folder by folder (cmd_maps.h). */
#define _POSIX_C_SOURCE 200809L
/* 64-bit directory offsets on 32-bit hosts too: readdir fails there with
 * EOVERFLOW on file systems whose offsets are hashes (ext4) otherwise. */
#define _FILE_OFFSET_BITS 64
#include "cmd_maps.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *copy(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static int add_n(map_search *s, const char *dir, size_t n)
{
    char *d;
    if (s->num == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        char **nd = realloc(s->dirs, (size_t)cap * sizeof *nd);
        if (!nd)
            return 0;
        s->dirs = nd;
        s->cap = cap;
    }
    d = copy(dir, n);
    if (!d)
        return 0;
    s->dirs[s->num++] = d;
    return 1;
}

int map_search_add(map_search *s, const char *dir)
{
    return add_n(s, dir, strlen(dir));
}

int map_search_begin(map_search *s, const char *scene_file, const map_search *given)
{
    const char *slash = strrchr(scene_file, '/'), *e = getenv("KF3DS_MAPS");
    int i, ok;
    memset(s, 0, sizeof *s);
    if (strcmp(scene_file, "-") == 0 || !slash)
        ok = add_n(s, ".", 1);
    else
        ok = add_n(s, scene_file, slash == scene_file ? 1 : (size_t)(slash - scene_file));
    for (i = 0; ok && given && i < given->num; i++)
        ok = map_search_add(s, given->dirs[i]);
    while (ok && e && *e) {
        const char *c = strchr(e, ':');
        size_t n = c ? (size_t)(c - e) : strlen(e);
        if (n)
            ok = add_n(s, e, n);
        e = c ? c + 1 : NULL;
    }
    return ok;
}

void map_search_free(map_search *s)
{
    int i;
    for (i = 0; i < s->num; i++)
        free(s->dirs[i]);
    free(s->dirs);
    memset(s, 0, sizeof *s);
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

char *map_find_in(const char *dir, const char *stored)
{
    const char *base = stored;
    const char *p;
    DIR *d;
    struct dirent *e;
    char *found;
    FILE *f;
    for (p = stored; *p; p++)
        if (*p == '/' || *p == '\\' || *p == ':')
            base = p + 1;
    /* (a name that would step out of the folder or be it is no map) */
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return NULL;
    found = join(dir, base);
    f = found ? fopen(found, "rb") : NULL;
    /* the stored spelling first, so that of FOO.JPG and foo.jpg it wins */
    if (f) {
        fclose(f);
        return found;
    }
    free(found);
    found = NULL;
    d = opendir(dir);
    if (!d)
        return NULL;
    while (!found && (e = readdir(d)) != NULL)
        if (strcasecmp(e->d_name, base) == 0)
            found = join(dir, e->d_name);
    closedir(d);
    return found;
}

char *map_find(const map_search *s, const char *stored)
{
    int i;
    for (i = 0; i < s->num; i++) {
        char *found = map_find_in(s->dirs[i], stored);
        if (found)
            return found;
    }
    return NULL;
}

void map_search_print(const map_search *s, FILE *out)
{
    int i;
    for (i = 0; i < s->num; i++) {
        if (i)
            fputs(", ", out);
        cli_text_cstr(out, s->dirs[i]);
    }
}

int map_search_option(cli_args *a, map_search *s)
{
    const char *v = NULL;
    int r = cli_option_value(a, "--maps", &v);
    if (r == 0)
        return 0;
    if (r < 0 || !*v) {
        cli_usage_error(a->verb, "--maps needs a folder");
        return -1;
    }
    if (!map_search_add(s, v)) {
        cli_usage_error(a->verb, "out of memory");
        return -1;
    }
    return 1;
}
