/* Between baked frames (include/kf3ds_bake.h, docs/kfb.md "Between baked
 * frames"): baked frames are exact; between them an engine shows its own
 * interpolation. kf3ds_bake_between measures the plainest one, a linear
 * blend of the two frames' matrices, against kf3ds's evaluation at the
 * quarter points of every step, over the vertices the bake writes: each
 * object node's own mesh (no morph) placed as kf3ds_node_mesh_matrix does.
 * kf3ds_bake_fit_step halves the step until that is within a bound. */
#include "bake_internal.h"
#include "../arena.h" /* kf3ds__allocator_resolve */
#include <math.h>
#include <string.h>

static double frame_at(const bake_plan *f, uint32_t i, double t)
{
    return ((double)f->frame_first + ((double)i + t) * f->frame_step) / f->frame_scale;
}

/* The placement of node n's own mesh at pose p; 0 when it has none or is
 * hidden. */
static int placed(const kf3ds_scene *s, uint32_t n, const kf3ds_pose *p, kf3ds_mat4 *m)
{
    int32_t mi = s->nodes[n].mesh;
    return s->nodes[n].type == KF3DS_NODE_OBJECT && mi >= 0 && (uint32_t)mi < s->num_meshes &&
           s->meshes[mi].num_points && !p->hidden && kf3ds_node_mesh_matrix(s, n, p, m);
}

/* Grows box[6] (min xyz, max xyz) by the placed vertices of frame `a`. */
static void grow_box(const kf3ds_scene *s, const kf3ds_pose *a, double box[6])
{
    uint32_t n, v;
    int k;
    for (n = 0; n < s->num_nodes; n++) {
        kf3ds_mat4 m;
        if (!placed(s, n, &a[n], &m))
            continue;
        for (v = 0; v < s->meshes[s->nodes[n].mesh].num_points; v++) {
            float p[3];
            kf3ds_mat4_transform_point(&m, s->meshes[s->nodes[n].mesh].points[v], p);
            for (k = 0; k < 3; k++) {
                box[k] = fmin(box[k], p[k]);
                box[k + 3] = fmax(box[k + 3], p[k]);
            }
        }
    }
}

/* The measure for the frames of f, with three pose arrays of the scene's
 * size. */
static void measure(const kf3ds_scene *s, const bake_plan *f, kf3ds_pose *a, kf3ds_pose *b,
                    kf3ds_pose *m, kf3ds_bake_between_info *out)
{
    double box[6] = { INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY };
    double worst = 0.0, extent = 0.0;
    uint32_t i, n, v;
    int q, k;
    out->worst = out->frame = 0.0;
    out->node = 0;
    kf3ds_scene_eval(s, frame_at(f, 0, 0.0), 0, b);
    for (i = 0; i < f->num_frames; i++) {
        kf3ds_pose *t = a;
        a = b;
        b = t;
        grow_box(s, a, box); /* the extent: the box of the baked frames' vertices */
        if (i + 1 >= f->num_frames)
            break;
        kf3ds_scene_eval(s, frame_at(f, i + 1, 0.0), 0, b);
        for (q = 1; q <= 3; q++) {
            double t4 = q / 4.0;
            kf3ds_scene_eval(s, frame_at(f, i, t4), 0, m);
            for (n = 0; n < s->num_nodes; n++) {
                kf3ds_mat4 ma, mb, mm;
                float(*pts)[3];
                if (!placed(s, n, &a[n], &ma) || !placed(s, n, &b[n], &mb) ||
                    !placed(s, n, &m[n], &mm))
                    continue;
                pts = s->meshes[s->nodes[n].mesh].points;
                for (v = 0; v < s->meshes[s->nodes[n].mesh].num_points; v++) {
                    float pa[3], pb[3], pm[3];
                    double d = 0.0;
                    kf3ds_mat4_transform_point(&ma, pts[v], pa);
                    kf3ds_mat4_transform_point(&mb, pts[v], pb);
                    kf3ds_mat4_transform_point(&mm, pts[v], pm);
                    for (k = 0; k < 3; k++) {
                        double e = pm[k] - (pa[k] + t4 * ((double)pb[k] - pa[k]));
                        d += e * e;
                    }
                    if (sqrt(d) > worst) {
                        worst = sqrt(d);
                        out->node = n;
                        out->frame = frame_at(f, i, t4);
                    }
                }
            }
        }
    }
    for (k = 0; k < 3; k++)
        extent = fmax(extent, box[k + 3] - box[k]);
    out->worst = worst / (extent > 0.0 ? extent : 1.0);
}

/* The allocator and three pose arrays for measuring scene s. */
typedef struct scratch {
    kf3ds_allocator alloc;
    bake_plan plan;
    kf3ds_pose *poses[3];
} scratch;

static kf3ds_status scratch_open(const kf3ds_scene *s, const kf3ds_bake_options *o, scratch *w)
{
    int k;
    memset(w, 0, sizeof *w);
    if (kf3ds__allocator_resolve(o ? &o->allocator : NULL, &w->alloc) != NULL)
        return KF3DS_ERR_ARGUMENT; /* one hook without the other */
    w->plan.alloc = &w->alloc;
    if (!kf3ds__bake_plan_frames(s, o, &w->plan))
        return KF3DS_ERR_ARGUMENT;
    for (k = 0; k < 3; k++) {
        w->poses[k] = kf3ds__bake_calloc(&w->plan, s->num_nodes + 1u, sizeof(kf3ds_pose));
        if (!w->poses[k])
            return KF3DS_ERR_NOMEM;
    }
    return KF3DS_OK;
}

static void scratch_close(scratch *w)
{
    int k;
    for (k = 0; k < 3; k++)
        if (w->plan.alloc)
            kf3ds__bake_free(&w->plan, w->poses[k]);
}

kf3ds_status kf3ds_bake_between(const kf3ds_scene *scene, const kf3ds_bake_options *options,
                                kf3ds_bake_between_info *out)
{
    scratch w;
    kf3ds_status st;
    if (!scene || !out)
        return KF3DS_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    st = scratch_open(scene, options, &w);
    if (st == KF3DS_OK)
        measure(scene, &w.plan, w.poses[0], w.poses[1], w.poses[2], out);
    scratch_close(&w);
    return st;
}

kf3ds_status kf3ds_bake_fit_step(const kf3ds_scene *scene, kf3ds_bake_options *options,
                                 double tolerance, kf3ds_bake_fit_progress progress, void *user,
                                 kf3ds_bake_between_info *out)
{
    scratch w;
    kf3ds_status st;
    if (!scene || !options || !out ||
        !(tolerance >= KF3DS_BAKE_FIT_MIN_TOLERANCE && tolerance <= KF3DS_BAKE_FIT_MAX_TOLERANCE))
        return KF3DS_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    st = scratch_open(scene, options, &w);
    while (st == KF3DS_OK) {
        bake_plan *f = &w.plan;
        int64_t first = f->frame_first, step = f->frame_step, scale = f->frame_scale;
        int64_t last = first + step * ((int64_t)f->num_frames - 1);
        options->frame_first = f->frame_first;
        options->frame_step = f->frame_step;
        options->frame_scale = f->frame_scale;
        options->num_frames = f->num_frames;
        measure(scene, f, w.poses[0], w.poses[1], w.poses[2], out);
        if (progress)
            progress(user, options, out);
        if (out->worst <= tolerance)
            break;
        if (step % 2) { /* one more decimal */
            first *= 10;
            last *= 10;
            step *= 10;
            scale *= 10;
        }
        step /= 2;
        out->limit = scale > 1000000                                    ? KF3DS_BAKE_FIT_DECIMALS
                     : first < INT32_MIN || last > INT32_MAX            ? KF3DS_BAKE_FIT_RANGE
                     : (last - first) / step + 1 > KF3DS_BAKE_FIT_MAX_FRAMES ? KF3DS_BAKE_FIT_FRAMES
                                                                        : KF3DS_BAKE_FIT_OK;
        if (out->limit != KF3DS_BAKE_FIT_OK) {
            st = KF3DS_ERR_LIMIT;
            break;
        }
        f->frame_first = (int32_t)first;
        f->frame_step = (int32_t)step;
        f->frame_scale = (uint32_t)scale;
        f->num_frames = (uint32_t)((last - first) / step + 1);
    }
    scratch_close(&w);
    return st;
}
