/* lib3ds 1.3's evaluation of a .3ds file, printed as JSON, so that the
 * Blender export check (tests/blender/check_export.py) can compare Blender's
 * motion with a second, independent reader of the written file:
 *
 *     lib3ds-eval FILE FRAME...
 *
 * For each frame, every object node with a mesh gives its placed vertices
 *     node->matrix · T(−pivot) · mesh->matrix⁻¹ · v
 * (lib3ds's own formula, docs/evaluation.md "Mesh placement"; v from
 * mesh->pointL), its hide flag, and every camera node its position, its
 * target's position, roll (degrees), FOV (degrees) and the view matrix
 * lib3ds_matrix_camera builds. lib3ds 1.3 hands the roll in degrees to
 * sine and cosine as radians (docs/evaluation.md, "Cameras"), so the matrix
 * is built from the roll converted to radians: what is checked is the value
 * lib3ds read, not that known slip. Exit 1 when the file does not load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lib3ds/camera.h>
#include <lib3ds/file.h>
#include <lib3ds/matrix.h>
#include <lib3ds/mesh.h>
#include <lib3ds/node.h>
#include <lib3ds/vector.h>

static void print_name(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c > 0x7e)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void print_vec(const float *v, int n)
{
    int i;
    putchar('[');
    for (i = 0; i < n; i++)
        printf("%s%.9g", i ? ", " : "", (double)v[i]);
    putchar(']');
}

/* lib3ds stores m[column][row]; printed row by row. */
static void print_mat(Lib3dsMatrix m)
{
    int r, c;
    putchar('[');
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++)
            printf("%s%.9g", r || c ? ", " : "", (double)m[c][r]);
    putchar(']');
}

static int first_node; /* no comma before the first node of a frame */

static void open_node(const Lib3dsNode *n, const char *kind)
{
    printf("%s\n    {\"name\": ", first_node ? "" : ",");
    first_node = 0;
    print_name(n->name);
    printf(", \"type\": \"%s\"", kind);
}

static void print_object(Lib3dsFile *f, Lib3dsNode *n)
{
    Lib3dsMesh *mesh = lib3ds_file_mesh_by_name(f, n->name);
    Lib3dsMatrix inv, local, world;
    unsigned i;
    if (!mesh)
        return;
    memcpy(inv, mesh->matrix, sizeof inv);
    if (!lib3ds_matrix_inv(inv))
        lib3ds_matrix_identity(inv);
    lib3ds_matrix_identity(local);
    lib3ds_matrix_translate_xyz(local, -n->data.object.pivot[0], -n->data.object.pivot[1],
                                -n->data.object.pivot[2]);
    lib3ds_matrix_mult(local, inv); /* m ← m · n */
    memcpy(world, n->matrix, sizeof world);
    lib3ds_matrix_mult(world, local);
    open_node(n, "object");
    printf(", \"hidden\": %s, \"vertices\": [", n->data.object.hide ? "true" : "false");
    for (i = 0; i < mesh->points; i++) {
        Lib3dsVector p;
        lib3ds_vector_transform(p, world, mesh->pointL[i].pos);
        if (i)
            printf(", ");
        print_vec(p, 3);
    }
    printf("]}");
}

static void print_camera(Lib3dsFile *f, Lib3dsNode *n)
{
    Lib3dsNode *t = lib3ds_file_node_by_name(f, n->name, LIB3DS_TARGET_NODE);
    Lib3dsMatrix view;
    Lib3dsVector tgt;
    if (!t)
        return;
    memcpy(tgt, t->data.target.pos, sizeof tgt);
    lib3ds_matrix_camera(view, n->data.camera.pos, tgt,
                         n->data.camera.roll * (float)(3.14159265358979323846 / 180.0));
    open_node(n, "camera");
    printf(", \"position\": ");
    print_vec(n->data.camera.pos, 3);
    printf(", \"target\": ");
    print_vec(tgt, 3);
    printf(", \"roll\": %.9g, \"fov\": %.9g, \"view\": ", (double)n->data.camera.roll,
           (double)n->data.camera.fov);
    print_mat(view);
    putchar('}');
}

static void print_nodes(Lib3dsFile *f, Lib3dsNode *n)
{
    for (; n; n = n->next) {
        if (n->type == LIB3DS_OBJECT_NODE)
            print_object(f, n);
        else if (n->type == LIB3DS_CAMERA_NODE)
            print_camera(f, n);
        print_nodes(f, n->childs);
    }
}

int main(int argc, char **argv)
{
    Lib3dsFile *f;
    int i;
    if (argc < 3) {
        fprintf(stderr, "usage: lib3ds-eval FILE FRAME...\n");
        return 2;
    }
    f = lib3ds_file_load(argv[1]);
    if (!f) {
        fprintf(stderr, "lib3ds-eval: %s: lib3ds 1.3 cannot load it\n", argv[1]);
        return 1;
    }
    printf("{\"file\": ");
    print_name(argv[1]);
    printf(", \"frames\": [");
    for (i = 2; i < argc; i++) {
        float t = strtof(argv[i], NULL);
        lib3ds_file_eval(f, t);
        printf("%s\n  {\"frame\": %.9g, \"nodes\": [", i > 2 ? "," : "", (double)t);
        first_node = 1;
        print_nodes(f, f->nodes);
        printf("]}");
    }
    printf("]}\n");
    lib3ds_file_free(f);
    return 0;
}
