/* kf3ds static export: kf3ds_static_write and kf3ds_static_free
 * (include/kf3ds_static.h): the options checked, the frame chosen, the OBJ
 * or STL writer run into buffers that become the output. */
#include "static_internal.h"
#include "../arena.h"
#include <stdio.h>
#include <string.h>

static kf3ds_status fail(kf3ds_diag *error, kf3ds_status code, const char *message)
{
    if (error) {
        memset(error, 0, sizeof *error);
        error->code = code;
        error->severity = kf3ds_status_severity(code);
        error->chunk_name = "";
        snprintf(error->message, sizeof error->message, "%s", message);
    }
    return code;
}

kf3ds_status kf3ds_static_write(const kf3ds_scene *scene, const kf3ds_static_options *options,
                                kf3ds_static_output *out, kf3ds_diag *error)
{
    kf3ds_static_options o;
    static_buf main_buf, mtl_buf;
    double frame;
    int rc;
    if (out)
        memset(out, 0, sizeof *out);
    if (!scene || !out)
        return fail(error, KF3DS_ERR_ARGUMENT, "static export: no scene or no output");
    if (options)
        o = *options;
    else
        memset(&o, 0, sizeof o);
    /* neither hook: the library's default allocator (src/arena.h) */
    if (kf3ds__allocator_resolve(&o.allocator, &o.allocator))
        return fail(error, KF3DS_ERR_ARGUMENT, "static export: allocator hooks given in part");
    if (o.flags & ~(unsigned)(KF3DS_STATIC_FRAME | KF3DS_STATIC_NO_EASE))
        return fail(error, KF3DS_ERR_ARGUMENT, "static export: unknown flags");
    if (o.format != KF3DS_STATIC_OBJ && o.format != KF3DS_STATIC_STL)
        return fail(error, KF3DS_ERR_ARGUMENT, "static export: unknown format");
    frame = (o.flags & KF3DS_STATIC_FRAME) ? o.frame : (double)scene->segment_start;
    if (!(frame - frame == 0.0))
        return fail(error, KF3DS_ERR_ARGUMENT, "static export: the frame is not finite");
    out->allocator_ = o.allocator;
    out->frame = frame;
    memset(&main_buf, 0, sizeof main_buf);
    memset(&mtl_buf, 0, sizeof mtl_buf);
    main_buf.al = mtl_buf.al = &out->allocator_;
    rc = o.format == KF3DS_STATIC_OBJ ? kf3ds__static_obj(scene, &o, frame, &main_buf, &mtl_buf, out)
                                      : kf3ds__static_stl(scene, &o, frame, &main_buf, out);
    if (rc != 0) {
        kf3ds__static_free(&out->allocator_, main_buf.p);
        kf3ds__static_free(&out->allocator_, mtl_buf.p);
        out->num_objects = out->num_vertices = out->num_triangles = 0;
        if (rc > 0)
            return fail(error, KF3DS_ERR_LIMIT, "static export: over 4294967295 triangles, "
                                                "more than binary STL can count");
        return fail(error, KF3DS_ERR_NOMEM, "static export: out of memory");
    }
    out->bytes = main_buf.p;
    out->size = main_buf.n;
    out->mtl = mtl_buf.p;
    out->mtl_size = mtl_buf.n;
    return KF3DS_OK;
}

void kf3ds_static_free(kf3ds_static_output *out)
{
    if (!out)
        return;
    if (out->allocator_.free_fn) {
        kf3ds__static_free(&out->allocator_, out->bytes);
        kf3ds__static_free(&out->allocator_, out->mtl);
    }
    memset(out, 0, sizeof *out);
}
