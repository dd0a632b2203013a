/* Decoding the maps and giving them to the renderer (cmd_maps.h): Animator
 * pictures with cel_decode.c, everything else with SDL2_image, which reads JPG,
 * PNG, BMP (RLE too), GIF, TIF, PCX, LBM and, since IMG_Load passes the
 * file's extension, TGA. */
#include "cmd_maps.h"
#include <SDL.h>
#include <SDL_image.h>
#include <stdlib.h>
#include <string.h>

int image_load(const char *path, cel_picture *pic, char *why, size_t why_cap)
{
    unsigned char *data = NULL;
    size_t size = 0;
    SDL_Surface *raw, *argb;
    int y;
    FILE *f = fopen(path, "rb");
    memset(pic, 0, sizeof *pic);
    if (f) {
        unsigned char head[8];
        size_t n = fread(head, 1, sizeof head, f);
        fclose(f);
        if (cel_kind(head, n) != CEL_NONE) {
            size_t at = 0;
            char msg[200];
            int r;
            if (cli_read_file(path, &data, &size) != CLI_EXIT_OK) {
                snprintf(why, why_cap, "cannot be read");
                return -1;
            }
            r = cel_decode(data, size, pic, msg, sizeof msg, &at);
            free(data);
            if (r != 0)
                snprintf(why, why_cap, "offset %lu: %s", (unsigned long)at, msg);
            return r;
        }
    }
    raw = IMG_Load(path);
    if (!raw) {
        snprintf(why, why_cap, "%s", IMG_GetError());
        return -1;
    }
    argb = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(raw);
    if (!argb) {
        snprintf(why, why_cap, "%s", SDL_GetError());
        return -1;
    }
    pic->pixels = malloc((size_t)argb->w * (size_t)argb->h * sizeof *pic->pixels);
    if (!pic->pixels) {
        SDL_FreeSurface(argb);
        snprintf(why, why_cap, "out of memory");
        return -1;
    }
    SDL_LockSurface(argb);
    for (y = 0; y < argb->h; y++)
        memcpy(pic->pixels + (size_t)y * (size_t)argb->w,
               (const unsigned char *)argb->pixels + (size_t)y * (size_t)argb->pitch,
               (size_t)argb->w * sizeof *pic->pixels);
    SDL_UnlockSurface(argb);
    pic->width = argb->w;
    pic->height = argb->h;
    SDL_FreeSurface(argb);
    return 0;
}

/* A map already warned about (one line per name however many materials use it). */
typedef struct seen_names {
    const char **names;
    int num, cap;
} seen_names;

static int seen_before(seen_names *s, const char *name)
{
    int i;
    for (i = 0; i < s->num; i++)
        if (strcmp(s->names[i], name) == 0)
            return 1;
    if (s->num == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        const char **n = realloc(s->names, (size_t)cap * sizeof *n);
        if (!n)
            return 0;
        s->names = n;
        s->cap = cap;
    }
    s->names[s->num++] = name;
    return 0;
}

/* Finds and reads one picture; prints the warning when it cannot. */
static int load_named(const char *file, const char *name, const char *what,
                      const map_search *ms, seen_names *warned, cel_picture *pic)
{
    char why[256];
    char *path = map_find(ms, name);
    if (!path) {
        if (!seen_before(warned, name) && !cli_quiet()) { /* -q */
            fflush(stdout);
            fputs("kf3ds: warning: ", stderr);
            cli_text_cstr(stderr, file);
            fputs(": map '", stderr);
            cli_text_cstr(stderr, name);
            fprintf(stderr, "' (%s) not found in ", what);
            map_search_print(ms, stderr);
            fputs(" (add folders with --maps DIR or KF3DS_MAPS); drawn in the material's "
                  "colour\n", stderr);
        }
        return 0;
    }
    if (image_load(path, pic, why, sizeof why) != 0) {
        if (!seen_before(warned, name) && !cli_quiet()) { /* -q */
            fflush(stdout);
            fputs("kf3ds: warning: ", stderr);
            cli_text_cstr(stderr, path);
            fputs(": cannot read the map: ", stderr);
            cli_text_cstr(stderr, why);
            fputs("; drawn in the material's colour\n", stderr);
        }
        free(path);
        return 0;
    }
    free(path);
    return 1;
}

int maps_attach(kf3ds_renderer *r, const kf3ds_scene *s, const char *file, const map_search *ms)
{
    static const kf3ds_map_kind drawn[3] = { KF3DS_MAP_TEXTURE1, KF3DS_MAP_TEXTURE2,
                                             KF3DS_MAP_OPACITY };
    seen_names warned;
    uint32_t i;
    int k, given = 0;
    memset(&warned, 0, sizeof warned);
    for (i = 0; i < s->num_materials; i++)
        for (k = 0; k < 3; k++) {
            const kf3ds_texture_map *m = kf3ds_material_map(&s->materials[i], drawn[k]);
            cel_picture pic;
            char what[160];
            if (!m->file[0])
                continue;
            snprintf(what, sizeof what, "%s of material '%.100s'", kf3ds_map_kind_name(drawn[k]),
                     s->materials[i].name);
            if (!load_named(file, m->file, what, ms, &warned, &pic))
                continue;
            {
                kf3ds_image img;
                img.pixels = pic.pixels;
                img.width = pic.width;
                img.height = pic.height;
                given += kf3ds_renderer_set_map(r, i, drawn[k], &img) == 1;
            }
            free(pic.pixels);
        }
    if (s->environment.background == KF3DS_BACKGROUND_BITMAP && s->environment.bitmap[0]) {
        cel_picture pic;
        if (load_named(file, s->environment.bitmap, "the background bitmap", ms, &warned, &pic)) {
            kf3ds_image img;
            img.pixels = pic.pixels;
            img.width = pic.width;
            img.height = pic.height;
            given += kf3ds_renderer_set_background(r, &img) == 1;
            free(pic.pixels);
        }
    }
    free(warned.names);
    return given;
}

int cli_attach_maps(kf3ds_renderer *r, const kf3ds_scene *s, const char *file,
                    const map_search *given)
{
    map_search ms;
    int ok = map_search_begin(&ms, file, given);
    if (ok)
        maps_attach(r, s, file, &ms);
    else
        cli_print_error(file, "out of memory");
    map_search_free(&ms);
    return ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}
