/* Texture maps for the command: finding the pictures a .3ds file names
 * (cmd_maps.c), decoding them (cmd_images.c: SDL2_image, and the Animator
 * CEL/PIC decoder, cel_decode.h) and giving them to the renderer. The rules
 * are in docs/format.md, 'Finding the maps'. */
#ifndef KF3DS_CMD_MAPS_H
#define KF3DS_CMD_MAPS_H
#include "cmd.h"
#include "../front/cel_decode.h" /* shared with the wasm module (tools/front/) */

/* ---- finding (cmd_maps.c) ---------------------------------------------- */

/* The folders a map is looked for in, in order: the .3ds file's folder, each
 * --maps DIR, each folder of KF3DS_MAPS (separated by ':'). */
typedef struct map_search {
    char **dirs;
    int num, cap;
} map_search;

/* The whole search for scene_file: its folder ("-": the current one), the
 * folders in `given` (the --maps options; may be NULL), those of KF3DS_MAPS.
 * Returns 0 when out of memory. */
int map_search_begin(map_search *s, const char *scene_file, const map_search *given);
/* Adds a folder (--maps DIR). Returns 0 when out of memory. */
int map_search_add(map_search *s, const char *dir);
void map_search_free(map_search *s);
/* The map `stored_name` in folder `dir` alone (map_find's step for one
 * folder): only its last part counts, the stored spelling first, then any
 * case. A new path (free it), or NULL. */
char *map_find_in(const char *dir, const char *stored_name);
/* The file a map's stored name means: its last path component (after '/',
 * '\' or a drive's ':') matched case-insensitively against the files of each
 * folder in turn. Returns a malloc'd path, or NULL when none has it (or the
 * name is empty, '.' or '..'). */
char *map_find(const map_search *s, const char *stored_name);
/* The folders, for messages: "DIR, DIR, ..." */
void map_search_print(const map_search *s, FILE *out);
/* The --maps option of a verb: 1 when the current option was --maps (added),
 * 0 when it is another, -1 after a usage error (printed). */
int map_search_option(cli_args *a, map_search *s);

/* ---- decoding (cmd_images.c) ------------------------------------------- */

#ifndef KF3DS_NO_FRONTENDS
/* Reads a picture file: Animator pictures by their magic, anything else
 * through SDL2_image (JPG, PNG, BMP, GIF, TGA, TIF, PCX, LBM, ...). Returns 0,
 * or -1 with *why. */
int image_load(const char *path, cel_picture *pic, char *why, size_t why_cap);
/* Finds and decodes the maps the renderer draws (texture 1, texture 2,
 * opacity of every material) and the background bitmap when the file uses
 * it, and gives them to the renderer; each map that cannot be found or read
 * gets one warning line (naming it and where it was looked for) and is drawn
 * in the material's colour. Returns the number of pictures given. */
int maps_attach(kf3ds_renderer *r, const kf3ds_scene *s, const char *file, const map_search *ms);
/* maps_attach with the search for `file` and its --maps folders `given`:
 * CLI_EXIT_OK, or CLI_EXIT_INPUT when out of memory (printed). */
int cli_attach_maps(kf3ds_renderer *r, const kf3ds_scene *s, const char *file,
                    const map_search *given);
#endif

#endif
