/* The check_three.mjs reference (support_boxes.h). */
#include "support_boxes.h"
#include <math.h>
#include <stdlib.h>

long support_write_boxes(FILE *out, const kf3ds_scene *s, double fps, double first,
                         const double *frames, size_t n)
{
    kf3ds_pose *poses = calloc(s->num_nodes + 1, sizeof *poses);
    float all_min[3] = { INFINITY, INFINITY, INFINITY };
    float all_max[3] = { -INFINITY, -INFINITY, -INFINITY };
    double extent = 0.0;
    long boxes = 0;
    size_t k;
    uint32_t i, v;
    int c;
    if (!poses)
        return -1;
    fprintf(out, "{\"fps\": %.17g, \"first\": %.17g, \"samples\": [", fps, first);
    for (k = 0; k < n; k++) {
        int any = 0;
        kf3ds_scene_eval(s, frames[k], 0, poses);
        fprintf(out, "%s\n{\"frame\": %.17g, \"nodes\": [", k ? "," : "", frames[k]);
        for (i = 0; i < s->num_nodes; i++) {
            kf3ds_mat4 m;
            int32_t mi = kf3ds_node_pose_mesh(s, i, &poses[i]);
            float mn[3] = { INFINITY, INFINITY, INFINITY };
            float mx[3] = { -INFINITY, -INFINITY, -INFINITY };
            if (s->nodes[i].type != KF3DS_NODE_OBJECT || mi < 0 || !s->meshes[mi].num_points ||
                !kf3ds_node_mesh_matrix(s, i, &poses[i], &m))
                continue;
            for (v = 0; v < s->meshes[mi].num_points; v++) {
                float p[3];
                kf3ds_mat4_transform_point(&m, s->meshes[mi].points[v], p);
                for (c = 0; c < 3; c++) {
                    mn[c] = fminf(mn[c], p[c]);
                    mx[c] = fmaxf(mx[c], p[c]);
                    if (!poses[i].hidden) {
                        all_min[c] = fminf(all_min[c], p[c]);
                        all_max[c] = fmaxf(all_max[c], p[c]);
                    }
                }
            }
            fprintf(out, "%s[%lu, %d, %.9g, %.9g, %.9g, %.9g, %.9g, %.9g]", any ? ", " : "",
                    (unsigned long)i, poses[i].hidden ? 1 : 0, mn[0], mn[1], mn[2], mx[0], mx[1],
                    mx[2]);
            any = 1;
            boxes++;
        }
        fputs("]}", out);
    }
    for (c = 0; c < 3; c++)
        if (all_max[c] - all_min[c] > extent)
            extent = all_max[c] - all_min[c];
    fprintf(out, "],\n\"extent\": %.17g}\n", extent > 0.0 ? extent : 1.0);
    free(poses);
    return boxes;
}
