/* kf3ds in an engine: the README's "Embedding kf3ds in an engine" example.
 * The file is already in memory (a pak entry, a ROM array; here read with
 * stdio in main), the scene's memory comes from the engine's allocator hooks,
 * one frame is evaluated and every visible mesh is walked, placed.
 * Built and run by `make embed-check` and, for each cross target, by
 * `make test-cross` (mk/cross.mk). Usage: embed [FILE.3ds [FRAME]] */
#include <kf3ds.h>
#include <stdio.h>
#include <stdlib.h>

/* The engine's allocator (here malloc): every byte of the scene comes from it. */
static void *eng_malloc(size_t size, void *user) { (void)user; return malloc(size); }
static void eng_free(void *p, void *user) { (void)user; free(p); }

/* Shows `file` (size bytes in memory) at `frame`. */
static int show(const void *file, size_t size, double frame)
{
    kf3ds_load_options opt = {{eng_malloc, eng_free, NULL}, {0, 0, 0, 0}, 0};
    kf3ds_diag err;
    kf3ds_scene *scene = kf3ds_load_memory(file, size, &opt, &err);
    kf3ds_pose *poses;
    uint32_t i, v;
    if (!scene) {
        printf("cannot load: %s\n", err.message);
        return 1;
    }
    poses = calloc(scene->num_nodes + 1, sizeof *poses); /* zeroed once, reused every frame */
    if (poses)
        kf3ds_scene_eval(scene, frame, 0, poses);
    for (i = 0; poses && i < scene->num_nodes; i++) {
        kf3ds_mat4 place; /* node's world · T(−pivot) · MESH_MATRIX⁻¹ */
        const kf3ds_mesh *mesh;
        float p[3] = {0, 0, 0};
        if (poses[i].hidden || !kf3ds_node_mesh_matrix(scene, i, &poses[i], &place))
            continue;
        mesh = &scene->meshes[scene->nodes[i].mesh];
        for (v = 0; v < mesh->num_points; v++) /* submit p; faces index mesh->points */
            kf3ds_mat4_transform_point(&place, mesh->points[v], p);
        printf("%-12s %5lu vertices %5lu faces, last at (%.2f, %.2f, %.2f)\n", mesh->name,
               (unsigned long)mesh->num_points, (unsigned long)mesh->num_faces, p[0], p[1], p[2]);
    }
    free(poses);
    kf3ds_scene_free(scene); /* one call frees everything the hooks gave */
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "data/arm.3ds";
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long size;
    int status;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(data = malloc((size_t)size + 1)) || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "embed: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    status = show(data, (size_t)size, argc > 2 ? atof(argv[2]) : 30.0);
    free(data);
    return status;
}
