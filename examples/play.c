/* The smallest use of kf3ds: load a file, evaluate every node at a few
 * frames, and print where each mesh's first vertex goes. */
#include <kf3ds.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    kf3ds_diag err;
    kf3ds_scene *scene;
    kf3ds_pose *poses;
    uint32_t i;
    double frame;

    if (argc != 2) {
        fprintf(stderr, "usage: play FILE.3ds\n");
        return 2;
    }
    scene = kf3ds_load_file(argv[1], NULL, &err);
    if (!scene) {
        fprintf(stderr, "play: %s: %s\n", argv[1], err.message);
        return 1;
    }
    /* Zeroed once and reused every frame: the poses carry search hints. */
    poses = calloc(scene->num_nodes ? scene->num_nodes : 1, sizeof *poses);
    for (frame = scene->segment_start; frame <= scene->segment_end; frame += 15.5) {
        kf3ds_scene_eval(scene, frame, 0, poses);
        for (i = 0; i < scene->num_nodes; i++) {
            const kf3ds_node *node = &scene->nodes[i];
            kf3ds_mat4 place;
            float v[3];
            if (!kf3ds_node_mesh_matrix(scene, i, &poses[i], &place) ||
                !scene->meshes[node->mesh].num_points)
                continue;
            kf3ds_mat4_transform_point(&place, scene->meshes[node->mesh].points[0], v);
            printf("frame %6.2f  %-10s vertex 0 at (%.3f, %.3f, %.3f)\n", frame, node->name,
                   v[0], v[1], v[2]);
        }
    }
    free(poses);
    kf3ds_scene_free(scene);
    return 0;
}
