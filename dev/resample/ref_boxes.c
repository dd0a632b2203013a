/* Writes the reference check_three.mjs compares a kf3ds export with
 * (tests/gltf/check_three.mjs): at SUB instants per frame over the file's
 * whole segment, every object node with a mesh, its hidden state and the
 * box of the mesh it shows, placed by kf3ds_node_mesh_matrix (what
 * `kf3ds eval --verts` prints), and the scene's extent. The same reference
 * tests/front/test_export.c writes, without its cap on the frames, so that
 * dev/resample/table.sh measures every instant.
 *   ref_boxes FILE.3ds SUB > REF.json */
#include <kf3ds.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    kf3ds_scene *s;
    kf3ds_pose *poses;
    double first, last, extent = 0.0;
    float all_min[3] = { INFINITY, INFINITY, INFINITY }, all_max[3] = { -INFINITY, -INFINITY, -INFINITY };
    long k, sub, count;
    uint32_t i, v;
    int c, checked = 0;
    if (argc != 3 || (sub = atol(argv[2])) < 1) {
        fprintf(stderr, "usage: ref_boxes FILE.3ds SUB\n");
        return 2;
    }
    s = kf3ds_load_file(argv[1], NULL, NULL);
    if (!s) {
        fprintf(stderr, "ref_boxes: %s: cannot load\n", argv[1]);
        return 1;
    }
    poses = calloc(s->num_nodes + 1, sizeof *poses);
    if (!poses)
        return 1;
    first = s->segment_start;
    last = s->segment_end > s->segment_start ? s->segment_end : s->segment_start;
    count = (long)(last - first) * sub + 1;
    printf("{\"fps\": 30, \"first\": %.17g, \"samples\": [", first);
    for (k = 0; k < count; k++) {
        double frame = first + (double)(k / sub) + (double)(k % sub) / (double)sub;
        int any = 0;
        kf3ds_scene_eval(s, frame, 0, poses);
        printf("%s\n{\"frame\": %.17g, \"nodes\": [", k ? "," : "", frame);
        for (i = 0; i < s->num_nodes; i++) {
            kf3ds_mat4 m;
            int32_t mi = kf3ds_node_pose_mesh(s, i, &poses[i]);
            float mn[3] = { INFINITY, INFINITY, INFINITY }, mx[3] = { -INFINITY, -INFINITY, -INFINITY };
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
            printf("%s[%lu, %d, %.9g, %.9g, %.9g, %.9g, %.9g, %.9g]", any ? ", " : "",
                   (unsigned long)i, poses[i].hidden ? 1 : 0, mn[0], mn[1], mn[2], mx[0], mx[1], mx[2]);
            any = 1;
            checked++;
        }
        printf("]}");
    }
    for (c = 0; c < 3; c++)
        if (all_max[c] - all_min[c] > extent)
            extent = all_max[c] - all_min[c];
    printf("],\n\"extent\": %.17g}\n", extent > 0.0 ? extent : 1.0);
    free(poses);
    kf3ds_scene_free(s);
    return checked ? 0 : 3;
}
