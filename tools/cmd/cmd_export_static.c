/* kf3ds export FILE -o OUT.obj|OUT.stl [--frame F]: the scene at one frame as
 * OBJ + MTL or binary STL, by kf3ds_static_write (src/static/,
 * include/kf3ds_static.h; docs/static.md). The files are written under
 * temporary names and renamed when complete (cli_output). */
#include "cmd_static.h"
#include "kf3ds_static.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcasecmp(s + n - m, suffix) == 0;
}

int cli_static_format(const char *out, int *stl)
{
    if (has_suffix(out, ".obj")) {
        *stl = 0;
        return 1;
    }
    if (has_suffix(out, ".stl")) {
        *stl = 1;
        return 1;
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* OUT.obj's material library: OUT.mtl. */
static char *mtl_path_for(const char *out)
{
    size_t n = strlen(out) - 4;
    char *p = malloc(n + 5);
    if (p) {
        memcpy(p, out, n);
        memcpy(p + n, ".mtl", 5);
    }
    return p;
}

/* OUT.obj and OUT.mtl: the OBJ is renamed into place only once the MTL is. */
static int write_obj(const char *path, const kf3ds_static_output *g, const char *mtl)
{
    cli_output out;
    if (cli_output_open(&out, path) != 0)
        return -1;
    cli_output_write(&out, g->bytes, g->size);
    if (cli_write_output(mtl, g->mtl, g->mtl_size) != 0) {
        cli_output_abort(&out);
        return -1;
    }
    if (cli_output_close(&out) != 0) {
        remove(mtl);
        return -1;
    }
    return 0;
}

int cli_static_export(const cli_static_opts *o, size_t *bytes)
{
    cli_scene cs;
    kf3ds_static_options so;
    kf3ds_static_output g;
    kf3ds_diag err;
    kf3ds_status st;
    char *mtl = NULL;
    int status = cli_scene_load(&cs, o->file), built = 0;
    if (bytes)
        *bytes = 0;
    if (status)
        return status;
    memset(&so, 0, sizeof so);
    so.format = o->stl ? KF3DS_STATIC_STL : KF3DS_STATIC_OBJ;
    so.flags = (o->has_frame ? KF3DS_STATIC_FRAME : 0) | (o->no_ease ? KF3DS_STATIC_NO_EASE : 0);
    so.frame = o->frame;
    so.file_name = base_name(o->file);
    if (!o->stl) {
        mtl = mtl_path_for(o->out);
        so.mtl_name = mtl ? base_name(mtl) : NULL;
    }
    st = (!o->stl && !mtl) ? KF3DS_ERR_NOMEM : kf3ds_static_write(cs.scene, &so, &g, &err);
    if (st != KF3DS_OK) {
        if (st == KF3DS_ERR_NOMEM)
            cli_print_error(o->file, "export: out of memory");
        else
            cli_print_error(o->file, "export: %s", err.message);
    } else if ((o->stl ? cli_write_output(o->out, g.bytes, g.size) : write_obj(o->out, &g, mtl)) ==
               0) {
        built = 1;
        if (bytes)
            *bytes = g.size + g.mtl_size;
        if (!o->quiet)
            printf("wrote %s (%lu %s, %lu %s, the pose at frame %g)\n", o->out,
                   (unsigned long)g.num_objects, cli_plural(g.num_objects, "object", "objects"),
                   (unsigned long)g.num_triangles,
                   cli_plural(g.num_triangles, "triangle", "triangles"), g.frame);
    }
    if (st == KF3DS_OK)
        kf3ds_static_free(&g);
    free(mtl);
    status = cli_report_load(o->file, cs.scene, &cs.error);
    cli_scene_free(&cs);
    return built ? status : CLI_EXIT_INPUT;
}
