/* kf3ds eval FILE --frame F [--frame F ...] [--json] [--verts] [--no-ease]
 * Evaluates every keyframer node at the given frames (docs/output.md). */
#include "cmd.h"
#include <stdlib.h>
#include <string.h>

typedef struct eval_opts {
    const char *file;
    double *frames;
    size_t num_frames;
    int json, verts, no_ease;
} eval_opts;

/* The mesh of an object node and the matrix that places its vertices, or NULL. */
static const kf3ds_mesh *node_mesh(const kf3ds_scene *s, uint32_t i, const kf3ds_pose *pose,
                                   kf3ds_mat4 *m)
{
    const kf3ds_node *n = &s->nodes[i];
    if (n->type != KF3DS_NODE_OBJECT || n->mesh < 0 || (uint32_t)n->mesh >= s->num_meshes)
        return NULL;
    if (!kf3ds_node_mesh_matrix(s, i, pose, m))
        return NULL;
    return &s->meshes[n->mesh];
}

static void json_node(FILE *out, const eval_opts *o, const kf3ds_scene *s, uint32_t i,
                      const kf3ds_pose *pose)
{
    const kf3ds_node *n = &s->nodes[i];
    int r, c;
    fprintf(out, "{\"index\": %lu, \"id\": %ld, \"name\": ", (unsigned long)i, (long)n->id);
    cli_json_cstr(out, n->name);
    if (n->instance) {
        fputs(", \"instance\": ", out);
        cli_json_cstr(out, n->instance);
    }
    fputs(", \"type\": ", out);
    cli_json_cstr(out, cli_node_type(n->type));
    fprintf(out, ", \"parent\": %ld, \"world\": [",
            (long)(n->parent >= 0 && (uint32_t)n->parent < s->num_nodes ? n->parent : -1));
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++) {
            if (r || c)
                fputs(", ", out);
            cli_json_number(out, pose->world.m[r][c]);
        }
    fputc(']', out);
    if (o->verts) {
        kf3ds_mat4 m;
        const kf3ds_mesh *mesh = node_mesh(s, i, pose, &m);
        if (mesh) {
            uint32_t k;
            fputs(",\n     \"verts\": [", out);
            for (k = 0; k < mesh->num_points; k++) {
                float v[3];
                kf3ds_mat4_transform_point(&m, mesh->points[k], v);
                fputs(k ? ", [" : "[", out);
                cli_json_number(out, v[0]);
                fputs(", ", out);
                cli_json_number(out, v[1]);
                fputs(", ", out);
                cli_json_number(out, v[2]);
                fputc(']', out);
            }
            fputc(']', out);
        }
    }
    fputc('}', out);
}

static void text_node(FILE *out, const eval_opts *o, const kf3ds_scene *s, uint32_t i,
                      const kf3ds_pose *pose)
{
    const kf3ds_node *n = &s->nodes[i];
    int r;
    fputs("  ", out);
    cli_node_label(out, s, i);
    fprintf(out, " parent %ld%s\n",
            (long)(n->parent >= 0 && (uint32_t)n->parent < s->num_nodes ? n->parent : -1),
            pose->hidden ? " hidden" : "");
    for (r = 0; r < 4; r++)
        fprintf(out, "      %s %12.6g %12.6g %12.6g %12.6g\n", r ? "     " : "world",
                cli_text_float(pose->world.m[r][0]), cli_text_float(pose->world.m[r][1]),
                cli_text_float(pose->world.m[r][2]), cli_text_float(pose->world.m[r][3]));
    if (o->verts) {
        kf3ds_mat4 m;
        const kf3ds_mesh *mesh = node_mesh(s, i, pose, &m);
        if (mesh) {
            uint32_t k;
            fprintf(out, "      verts %lu\n", (unsigned long)mesh->num_points);
            for (k = 0; k < mesh->num_points; k++) {
                float v[3];
                kf3ds_mat4_transform_point(&m, mesh->points[k], v);
                fprintf(out, "      %6lu %12.6g %12.6g %12.6g\n", (unsigned long)k,
                        cli_text_float(v[0]), cli_text_float(v[1]), cli_text_float(v[2]));
            }
        }
    }
}

static int run_eval(const eval_opts *o)
{
    cli_scene cs;
    const kf3ds_scene *scene;
    kf3ds_pose *poses;
    unsigned flags = o->no_ease ? KF3DS_EVAL_NO_EASE : 0;
    size_t f;
    int status;

    status = cli_scene_load(&cs, o->file);
    if (status)
        return status;
    scene = cs.scene;
    poses = cs.poses;
    if (o->json) {
        fputs("{\"file\": ", stdout);
        cli_json_cstr(stdout, o->file);
        fputs(",\n \"frames\": [", stdout);
    }
    for (f = 0; f < o->num_frames; f++) {
        uint32_t i;
        kf3ds_scene_eval(scene, o->frames[f], flags, poses);
        if (o->json) {
            fputs(f ? ",\n  {\"frame\": " : "\n  {\"frame\": ", stdout);
            cli_json_number_exact(stdout, o->frames[f]);
            fputs(", \"nodes\": [", stdout);
            for (i = 0; i < scene->num_nodes; i++) {
                fputs(i ? ",\n    " : "\n    ", stdout);
                json_node(stdout, o, scene, i, &poses[i]);
            }
            fputs("]}", stdout);
        } else {
            printf("%sframe %.9g\n", f ? "\n" : "", o->frames[f]);
            if (!scene->num_nodes)
                fputs("  (no keyframer nodes)\n", stdout);
            for (i = 0; i < scene->num_nodes; i++)
                text_node(stdout, o, scene, i, &poses[i]);
        }
    }
    if (o->json)
        fputs("]}\n", stdout);
    fflush(stdout);
    status = cli_report_load(o->file, scene, &cs.error);
    cli_scene_free(&cs);
    return status;
}

static int cmd_eval(int argc, char **argv)
{
    eval_opts o;
    cli_args a;
    int r, status;
    memset(&o, 0, sizeof o);
    o.frames = malloc(sizeof *o.frames * (size_t)(argc > 0 ? argc : 1));
    if (!o.frames) {
        fputs("kf3ds: eval: out of memory\n", stderr);
        return CLI_EXIT_INPUT;
    }
    cli_args_begin(&a, "eval", argc, argv);
    while ((r = cli_next_option(&a)) > 0) {
        const char *opt = cli_option(&a), *value = NULL;
        int v;
        if (strcmp(opt, "--json") == 0) {
            o.json = 1;
        } else if (strcmp(opt, "--verts") == 0) {
            o.verts = 1;
        } else if (strcmp(opt, "--no-ease") == 0) {
            o.no_ease = 1;
        } else if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            cli_set_quiet(1);
        } else if ((v = cli_option_value(&a, "--frame", &value)) != 0) {
            if (v < 0) {
                free(o.frames);
                return cli_usage_error("eval", "--frame needs a number");
            }
            if (!cli_parse_frame(value, &o.frames[o.num_frames])) {
                free(o.frames);
                return cli_usage_error("eval", "--frame '%s' is not a finite number", value);
            }
            o.num_frames++;
        } else {
            free(o.frames);
            return cli_unknown_option(&a);
        }
    }
    o.file = a.file;
    if (r < 0) {
        free(o.frames);
        return CLI_EXIT_USAGE;
    }
    if (!o.num_frames) {
        free(o.frames);
        return cli_usage_error("eval", "at least one --frame F is needed");
    }
    status = run_eval(&o);
    free(o.frames);
    return status;
}

const cli_verb cmd_eval_verb = {
    "eval",
    cmd_eval,
    "eval FILE --frame F [--frame F ...] [--json] [--verts] [--no-ease] [-q]",
    "Evaluate every keyframer node at the given frames.",
    "Options:\n"
    "  --frame F   a frame to evaluate (any finite number; 12.5 is halfway between\n"
    "              12 and 13); repeat for several frames, printed in the given order\n"
    "  --json      one JSON document (docs/output.md): {\"file\", \"frames\": [{\"frame\",\n"
    "              \"nodes\": [{\"index\", \"id\", \"name\", \"instance\"?, \"type\", \"parent\",\n"
    "              \"world\": 16 numbers row-major, \"verts\"?}]}]}\n"
    "  --verts     also the placed mesh vertices N(t)*T(-pivot)*MESH_MATRIX^-1*v of\n"
    "              every object node that has a mesh\n"
    "  --no-ease   ignore ease-to/ease-from (what lib3ds and other readers do)\n"
    "  -q, --quiet no warning lines on standard error (errors still)\n"
    "\n"
    "Without --json: per frame, per node its index, type, name (instance), id, parent\n"
    "and world matrix N(t) as 4 rows (column vectors, translation in the last column).\n"
    "Numbers that are not finite print as null in JSON.\n",
};
