/* kf3ds bake --between (tools/cmd/cmd_bake_between.h): baked frames are exact,
 * the motion between them is the engine's interpolation; this measures the
 * plainest one, a linear blend of the two frames' matrices, against kf3ds's
 * evaluation at the quarter points of every step. The vertices are those
 * the bake writes: each object node's own mesh (no morph), placed as
 * kf3ds eval --verts does; nodes hidden at either end are left out. */
#include "cmd_bake_between.h"
#include "cmd.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static double frame_at(const kf3ds_bake_info *info, uint32_t i, double t)
{
    return ((double)info->frame_first + ((double)i + t) * info->frame_step) / info->frame_scale;
}

/* The placement of node n's own mesh at pose p; 0 when it has none. */
static int placed(const kf3ds_scene *s, uint32_t n, const kf3ds_pose *p, kf3ds_mat4 *m)
{
    int32_t mi = s->nodes[n].mesh;
    return s->nodes[n].type == KF3DS_NODE_OBJECT && mi >= 0 && (uint32_t)mi < s->num_meshes &&
           s->meshes[mi].num_points && !p->hidden && kf3ds_node_mesh_matrix(s, n, p, m);
}

int bake_between_measure(const kf3ds_scene *s, const kf3ds_bake_info *info, bake_between *r)
{
    kf3ds_pose *a = calloc(s->num_nodes + 1u, sizeof *a), *b = calloc(s->num_nodes + 1u, sizeof *b),
               *m = calloc(s->num_nodes + 1u, sizeof *m);
    double box[6] = { INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY };
    double worst = 0.0, worst_frame = 0.0, extent = 0.0;
    uint32_t i, n, v, worst_node = 0;
    int q, k;
    if (!a || !b || !m) {
        free(a);
        free(b);
        free(m);
        return -1;
    }
    kf3ds_scene_eval(s, frame_at(info, 0, 0.0), 0, b);
    for (i = 0; i < info->num_frames; i++) {
        kf3ds_pose *t = a;
        a = b;
        b = t;
        /* the box of the baked frames' vertices: the extent */
        for (n = 0; n < s->num_nodes; n++) {
            kf3ds_mat4 ma;
            if (!placed(s, n, &a[n], &ma))
                continue;
            for (v = 0; v < s->meshes[s->nodes[n].mesh].num_points; v++) {
                float p[3];
                kf3ds_mat4_transform_point(&ma, s->meshes[s->nodes[n].mesh].points[v], p);
                for (k = 0; k < 3; k++) {
                    box[k] = fmin(box[k], p[k]);
                    box[k + 3] = fmax(box[k + 3], p[k]);
                }
            }
        }
        if (i + 1 >= info->num_frames)
            break;
        kf3ds_scene_eval(s, frame_at(info, i + 1, 0.0), 0, b);
        for (q = 1; q <= 3; q++) {
            double t = q / 4.0;
            kf3ds_scene_eval(s, frame_at(info, i, t), 0, m);
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
                        double e = pm[k] - (pa[k] + t * ((double)pb[k] - pa[k]));
                        d += e * e;
                    }
                    if (sqrt(d) > worst) {
                        worst = sqrt(d);
                        worst_node = n;
                        worst_frame = frame_at(info, i, t);
                    }
                }
            }
        }
    }
    for (k = 0; k < 3; k++)
        extent = fmax(extent, box[k + 3] - box[k]);
    if (!(extent > 0.0))
        extent = 1.0;
    r->worst = worst / extent;
    r->frame = worst_frame;
    r->node = worst_node;
    free(a);
    free(b);
    free(m);
    return 0;
}

void bake_between_print(FILE *out, const kf3ds_bake_info *info, const bake_between *r)
{
    if (info->num_frames < 2)
        fprintf(out, "between frames: one frame baked, nothing between\n");
    else
        fprintf(out, "between frames: linear interpolation of the baked matrices strays up to "
                     "%.3g of the scene's extent (node %lu, frame %.6g)\n",
                r->worst, (unsigned long)r->node, r->frame);
}
