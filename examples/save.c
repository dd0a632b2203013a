/* examples/save.c: a spinning box made with the scene builder and written
 * as a .3ds file (README.md, "Writing files"); then a file loaded and saved
 * back lossless. Usage: save OUT.3ds [IN.3ds OUT2.3ds] */
#include <kf3ds.h>
#include <stdio.h>
#include <string.h>

static int build_box(const char *out)
{
    static const float pts[8][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                    {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    static const uint16_t tri[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6},
                                        {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                        {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    kf3ds_face faces[12];
    kf3ds_material red;
    kf3ds_key key;
    kf3ds_diag err;
    kf3ds_scene *scene;
    kf3ds_builder *b = kf3ds_builder_create(NULL);
    int32_t mesh, node, i;
    for (i = 0; i < 12; i++) {
        memcpy(faces[i].v, tri[i], sizeof faces[i].v);
        faces[i].flags = 7; /* every edge visible */
    }
    memset(&red, 0, sizeof red);
    red.name = "Red";
    red.diffuse[0] = 1.0f;
    kf3ds_builder_add_material(b, &red);
    mesh = kf3ds_builder_add_mesh(b, "Box", pts, 8, faces, 12, NULL);
    kf3ds_builder_mesh_material(b, mesh, "Red", NULL, 0); /* every face */
    kf3ds_builder_keyframer(b, "box", 100, 0, 100);
    node = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "Box", KF3DS_NONE);
    memset(&key, 0, sizeof key);
    for (i = 0; i <= 4; i++) { /* a quarter turn about z every 25 frames */
        key.frame = 25 * i;
        key.value[0] = i ? 1.5707963f : 0.0f; /* angle, relative to the previous key */
        key.value[3] = 1.0f;                  /* axis (0, 0, 1) */
        kf3ds_builder_add_key(b, node, KF3DS_TRACK_ROT, &key);
    }
    scene = kf3ds_builder_finish(b, &err); /* NULL when any call above failed */
    if (!scene || kf3ds_save_file(scene, out, NULL, &err) != KF3DS_OK) {
        fprintf(stderr, "save: %s\n", err.message);
        kf3ds_scene_free(scene);
        return 1;
    }
    kf3ds_scene_free(scene);
    return 0;
}

/* Load keeping what saving needs to give the file back, then save. */
static int copy_file(const char *in, const char *out)
{
    kf3ds_load_options opt;
    kf3ds_diag err;
    kf3ds_scene *scene;
    memset(&opt, 0, sizeof opt);
    opt.flags = KF3DS_LOAD_KEEP_SOURCE;
    scene = kf3ds_load_file(in, &opt, &err);
    if (!scene || kf3ds_save_file(scene, out, NULL, &err) != KF3DS_OK) {
        fprintf(stderr, "save: %s\n", err.message);
        kf3ds_scene_free(scene);
        return 1;
    }
    kf3ds_scene_free(scene);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fputs("usage: save OUT.3ds [IN.3ds OUT2.3ds]\n", stderr);
        return 2;
    }
    if (build_box(argv[1]))
        return 1;
    return argc == 4 ? copy_file(argv[2], argv[3]) : 0;
}
