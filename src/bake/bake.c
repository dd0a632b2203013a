/* The bake module's entry point, kf3ds_bake (include/kf3ds_bake.h): the
 * options checked, the frames and nodes planned, the meshes placed and the
 * image built (bake_mesh.c, bake_image.c), everything on the caller's
 * allocator. */
#include "bake_internal.h"
#include "../arena.h" /* kf3ds__allocator_resolve */
#include <stdio.h>  /* snprintf: the error's message */
#include <string.h>

/* ---- the allocator ---------------------------------------------------------- */

/* The options' allocator, the library's default for neither hook (the core's
 * rule, src/arena.h); 0 when only one hook is set. */
static int resolve_allocator(const kf3ds_bake_options *o, kf3ds_allocator *a)
{
    return kf3ds__allocator_resolve(o ? &o->allocator : NULL, a) == NULL;
}

/* ---- failing ------------------------------------------------------------------ */

/* Sets the problem and the error (its message `what`) and returns its status. */
static kf3ds_status fail(kf3ds_bake_info *info, kf3ds_diag *error, kf3ds_bake_problem problem,
                         const char *what)
{
    kf3ds_status code = problem == KF3DS_BAKE_NOMEM ? KF3DS_ERR_NOMEM
                        : problem == KF3DS_BAKE_RANGE || problem == KF3DS_BAKE_TOO_BIG
                            ? KF3DS_ERR_LIMIT
                            : KF3DS_ERR_ARGUMENT;
    info->problem = problem;
    if (error) {
        memset(error, 0, sizeof *error);
        error->code = code;
        error->severity = KF3DS_ERROR;
        error->chunk_name = "";
        snprintf(error->message, sizeof error->message, "%s", what);
    }
    return code;
}

/* ---- frames and nodes ------------------------------------------------------------ */

int kf3ds__bake_plan_frames(const kf3ds_scene *s, const kf3ds_bake_options *o, bake_plan *plan)
{
    int64_t scale = o->frame_scale ? o->frame_scale : 1, step = o->frame_step ? o->frame_step : 1;
    int64_t first = o->frame_first, count = o->num_frames, p;
    for (p = 1; p < scale && p < 1000000; p *= 10)
        ;
    if (step < 0 || p != scale) /* the file's scale is a power of ten up to 10^6 */
        return 0;
    if (!count) { /* the segment */
        int64_t last = (int64_t)s->segment_end * scale;
        first = (int64_t)s->segment_start * scale;
        if (last < first || first < INT32_MIN || last > INT32_MAX)
            return 0;
        count = (last - first) / step + 1;
    }
    if (first < INT32_MIN || first + step * (count - 1) > INT32_MAX || count > 0xFFFFFFFFll)
        return 0;
    plan->frame_first = (int32_t)first;
    plan->frame_step = (int32_t)step;
    plan->frame_scale = (uint32_t)scale;
    plan->num_frames = (uint32_t)count;
    return 1;
}

static int name_is(const kf3ds_node *n, const char *name)
{
    return (n->name && strcmp(n->name, name) == 0) ||
           (n->instance && strcmp(n->instance, name) == 0);
}

/* Every node, or those named (by name or instance name) in the options. 0 on
 * success, -1 out of memory, else 1 + the index of a name that matches nothing. */
static long plan_nodes(const kf3ds_scene *s, const kf3ds_bake_options *o, bake_plan *plan)
{
    uint32_t i, k;
    unsigned char *pick = kf3ds__bake_calloc(plan, s->num_nodes + 1, 1);
    plan->nodes = kf3ds__bake_malloc(plan, sizeof *plan->nodes * (s->num_nodes + 1));
    if (!pick || !plan->nodes) {
        kf3ds__bake_free(plan, pick);
        return -1;
    }
    for (k = 0; k < o->num_nodes; k++) {
        int found = 0;
        for (i = 0; i < s->num_nodes; i++)
            if (name_is(&s->nodes[i], o->nodes[k]))
                pick[i] = 1, found = 1;
        if (!found) {
            kf3ds__bake_free(plan, pick);
            return 1 + (long)k;
        }
    }
    plan->num_nodes = 0;
    for (i = 0; i < s->num_nodes; i++)
        if (!o->num_nodes || pick[i])
            plan->nodes[plan->num_nodes++] = i;
    kf3ds__bake_free(plan, pick);
    return 0;
}

/* ---- kf3ds_bake -------------------------------------------------------------------- */

kf3ds_status kf3ds_bake(const kf3ds_scene *s, const kf3ds_bake_options *options,
                        unsigned char **bytes, size_t *size, kf3ds_bake_info *info,
                        kf3ds_diag *error)
{
    static const kf3ds_bake_options defaults;
    const kf3ds_bake_options *o = options ? options : &defaults;
    kf3ds_bake_info scratch;
    kf3ds_allocator alloc;
    bake_plan plan;
    bake_meshes meshes;
    bake_image img;
    bake_error e;
    kf3ds_status st = KF3DS_OK;
    uint32_t k;
    long r;

    if (!info)
        info = &scratch;
    memset(info, 0, sizeof *info);
    if (error) {
        memset(error, 0, sizeof *error);
        error->chunk_name = "";
    }
    if (bytes)
        *bytes = NULL;
    if (size)
        *size = 0;
    if (!s || !bytes || !size)
        return fail(info, error, KF3DS_BAKE_BAD_OPTION, "NULL scene, bytes or size");
    if (!resolve_allocator(o, &alloc))
        return fail(info, error, KF3DS_BAKE_BAD_OPTION, "allocator: set both hooks or neither");
    if (o->flags & ~(unsigned)(KF3DS_BAKE_FIXED | KF3DS_BAKE_NO_MESHES))
        return fail(info, error, KF3DS_BAKE_BAD_OPTION, "unknown flags");
    if (o->frac_bits < KF3DS_BAKE_FRAC_NONE || o->frac_bits > KF3DS_BAKE_MAX_FRAC_BITS)
        return fail(info, error, KF3DS_BAKE_BAD_OPTION,
                    "frac_bits: 0 (16), 1 to 28, KF3DS_BAKE_FRAC_AUTO or _NONE");
    if (o->num_nodes && !o->nodes)
        return fail(info, error, KF3DS_BAKE_BAD_OPTION, "num_nodes without nodes");
    for (k = 0; k < o->num_nodes; k++)
        if (!o->nodes[k])
            return fail(info, error, KF3DS_BAKE_BAD_OPTION, "a node name is NULL");

    memset(&plan, 0, sizeof plan);
    memset(&meshes, 0, sizeof meshes);
    memset(&img, 0, sizeof img);
    plan.alloc = &alloc;
    plan.fixed = (o->flags & KF3DS_BAKE_FIXED) || o->frac_bits;
    plan.frac_bits = o->frac_bits == 0                      ? 16
                     : o->frac_bits == KF3DS_BAKE_FRAC_NONE ? 0
                                                            : o->frac_bits;
    plan.meshes = !(o->flags & KF3DS_BAKE_NO_MESHES);
    info->fixed = plan.fixed;

    if (!s->num_nodes)
        return fail(info, error, KF3DS_BAKE_STATIC,
                    "no keyframer nodes: a static model, nothing to bake");
    if (!kf3ds__bake_plan_frames(s, o, &plan))
        return fail(info, error, KF3DS_BAKE_BAD_OPTION,
                    "frames: a negative step, a scale not 10^0..10^6, or beyond 32 bits");
    info->frame_first = plan.frame_first;
    info->frame_step = plan.frame_step;
    info->frame_scale = plan.frame_scale;
    info->num_frames = plan.num_frames;

    r = plan_nodes(s, o, &plan);
    if (r < 0) {
        st = fail(info, error, KF3DS_BAKE_NOMEM, "out of memory");
    } else if (r > 0) {
        info->missing_node = o->nodes[r - 1];
        st = fail(info, error, KF3DS_BAKE_UNKNOWN_NODE, "");
        if (error)
            snprintf(error->message, sizeof error->message, "no node is called '%s'",
                     o->nodes[r - 1]);
    } else if ((uint64_t)plan.num_frames * (48ull * plan.num_nodes + 4) > 0xFFFFFFFFull) {
        /* the matrices alone must fit the file's 32-bit offsets */
        st = fail(info, error, KF3DS_BAKE_TOO_BIG, "the baked file would exceed 4 GiB");
    } else if (kf3ds__bake_place_meshes(s, &plan, &meshes) != 0) {
        st = fail(info, error, KF3DS_BAKE_NOMEM, "out of memory placing the meshes");
    } else {
        info->num_nodes = plan.num_nodes;
        e = kf3ds__bake_build(s, &plan, &meshes, &img);
        info->largest = img.largest;
        if (e == BAKE_NOMEM) {
            st = fail(info, error, KF3DS_BAKE_NOMEM, "");
            if (error)
                snprintf(error->message, sizeof error->message, "out of memory baking %lu frames",
                         (unsigned long)plan.num_frames);
        } else if (e == BAKE_TOO_BIG) {
            st = fail(info, error, KF3DS_BAKE_TOO_BIG, "the baked file would exceed 4 GiB");
        } else if (e == BAKE_RANGE) {
            info->frac_bits = img.frac_bits;
            st = fail(info, error, KF3DS_BAKE_RANGE,
                      "a value does not fit the fixed point asked for");
        } else {
            *bytes = img.data;
            *size = img.size;
            info->frac_bits = plan.fixed ? img.frac_bits : 0;
            info->num_channels = img.num_channels;
            info->num_meshes = img.num_meshes;
            info->num_materials = plan.meshes ? s->num_materials : 0;
        }
    }
    kf3ds__bake_meshes_free(&plan, &meshes);
    kf3ds__bake_free(&plan, plan.nodes);
    return st;
}

void kf3ds_bake_free(unsigned char *bytes, const kf3ds_bake_options *options)
{
    kf3ds_allocator alloc;
    bake_plan plan;
    if (!bytes || !resolve_allocator(options, &alloc))
        return;
    memset(&plan, 0, sizeof plan);
    plan.alloc = &alloc;
    kf3ds__bake_free(&plan, bytes);
}
