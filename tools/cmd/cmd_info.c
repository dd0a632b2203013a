/* kf3ds info FILE — the summary a person reads first: sizes, counts, frame
 * range, the node hierarchy with key counts, and the diagnostics. */
#include "cmd_maps.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INFO_MAX_INDENT 40

static const char *const track_names[KF3DS_TRACK_COUNT] = {
    "pos", "rot", "scl", "fov", "roll", "col", "morph", "hot", "fall", "hide"
};

static int rot_multi_turn(const kf3ds_track *t)
{
    uint32_t k;
    for (k = 1; k < t->num_keys; k++) {
        const float *v = t->keys[k].value;
        if (fabs((double)v[0]) >= 3.14159265358979323846 &&
            (v[1] != 0 || v[2] != 0 || v[3] != 0))
            return 1;
    }
    return 0;
}

static void print_vec3(FILE *out, const float v[3])
{
    fprintf(out, "(%g, %g, %g)", cli_text_float(v[0]), cli_text_float(v[1]),
            cli_text_float(v[2]));
}

static void print_node(FILE *out, const kf3ds_scene *s, uint32_t i, uint32_t depth)
{
    const kf3ds_node *n = &s->nodes[i];
    uint32_t d = depth < INFO_MAX_INDENT ? depth : INFO_MAX_INDENT;
    int k, any = 0;
    fprintf(out, "  %*s", (int)(2 * d), "");
    if (depth > INFO_MAX_INDENT)
        fprintf(out, "(depth %lu) ", (unsigned long)depth);
    cli_node_label(out, s, i);
    if (n->flags1 & 0x800)
        fputs(" hidden", out);
    if (n->type == KF3DS_NODE_OBJECT && !n->is_dummy && n->mesh == KF3DS_NONE)
        fputs(" no-mesh", out);
    if (n->type == KF3DS_NODE_OBJECT) {
        fputs(" pivot ", out);
        print_vec3(out, n->pivot);
    }
    fputc(':', out);
    for (k = 0; k < KF3DS_TRACK_COUNT; k++) {
        const kf3ds_track *t = &n->tracks[k];
        const char *loop[4] = { NULL, "wrap", "repeat", "loop" };
        int multi;
        if (!t->num_keys)
            continue;
        any = 1;
        fprintf(out, " %s %lu", track_names[k], (unsigned long)t->num_keys);
        multi = k == KF3DS_TRACK_ROT && rot_multi_turn(t);
        if (multi || loop[t->flags & 3])
            fprintf(out, " (%s%s%s)", multi ? "multi-turn" : "",
                    multi && loop[t->flags & 3] ? ", " : "",
                    loop[t->flags & 3] ? loop[t->flags & 3] : "");
    }
    if (!any)
        fputs(" no keys", out);
    fputc('\n', out);
}

/* The hierarchy as an indented tree (parents before children, siblings in
 * index order); iterative, so any depth is fine. */
static int print_tree(FILE *out, const kf3ds_scene *s)
{
    uint32_t n = s->num_nodes, i, printed = 0;
    int32_t *first = malloc(sizeof(int32_t) * (n ? n : 1));
    int32_t *next = malloc(sizeof(int32_t) * (n ? n : 1));
    int32_t *parent = malloc(sizeof(int32_t) * (n ? n : 1));
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!first || !next || !parent || !seen) {
        free(first);
        free(next);
        free(parent);
        free(seen);
        return -1;
    }
    for (i = 0; i < n; i++) {
        int32_t p = s->nodes[i].parent;
        first[i] = next[i] = -1;
        parent[i] = (p >= 0 && (uint32_t)p < n && (uint32_t)p != i) ? p : -1;
    }
    for (i = n; i-- > 0;) { /* prepend in reverse: lists come out in index order */
        if (parent[i] >= 0) {
            next[i] = first[parent[i]];
            first[parent[i]] = (int32_t)i;
        }
    }
    for (i = 0; i < n; i++) {
        int32_t cur = (int32_t)i;
        uint32_t depth = 0;
        if (parent[i] >= 0)
            continue;
        for (;;) {
            print_node(out, s, (uint32_t)cur, depth);
            seen[cur] = 1;
            printed++;
            if (first[cur] >= 0) {
                cur = first[cur];
                depth++;
                continue;
            }
            while (cur != (int32_t)i && next[cur] < 0) {
                cur = parent[cur];
                depth--;
            }
            if (cur == (int32_t)i)
                break;
            cur = next[cur];
        }
    }
    if (printed < n) {
        fputs("  nodes in a parent cycle:\n", out);
        for (i = 0; i < n; i++)
            if (!seen[i])
                print_node(out, s, i, 1);
    }
    free(first);
    free(next);
    free(parent);
    free(seen);
    return 0;
}

static void print_diag_list(FILE *out, const kf3ds_scene *s, const kf3ds_diag *err)
{
    uint32_t i, nerr = 0, nwarn = 0;
    int err_listed = 0;
    for (i = 0; i < s->num_diags; i++) {
        if (s->diags[i].severity == KF3DS_ERROR || cli_is_truncation_diag(&s->diags[i]))
            nerr++; /* a cut file counts as an error (docs/output.md, "Damaged files") */
        else
            nwarn++;
    }
    if (err->code != KF3DS_OK && nerr == 0)
        nerr = 1; /* the load's error is not in the list: show it too */
    fprintf(out, "diagnostics: %lu %s, %lu %s", (unsigned long)nerr,
            cli_plural(nerr, "error", "errors"), (unsigned long)nwarn,
            cli_plural(nwarn, "warning", "warnings"));
    if (s->num_dropped_diags)
        fprintf(out, " (+%lu not stored)", (unsigned long)s->num_dropped_diags);
    fputc('\n', out);
    for (i = 0; i <= s->num_diags; i++) {
        const kf3ds_diag *d;
        if (i < s->num_diags) {
            d = &s->diags[i];
            if (d->severity == KF3DS_ERROR)
                err_listed = 1;
            if (cli_is_truncation_diag(d)) { /* the same words as on standard error */
                fprintf(out, "  error: offset 0, chunk 0x%04X ", (unsigned)d->chunk_id);
                cli_text_cstr(out, kf3ds_chunk_name(d->chunk_id));
                fputs(": ", out);
                cli_truncation_text(out);
                fputc('\n', out);
                continue;
            }
        } else if (err->code != KF3DS_OK && !err_listed) {
            d = err;
        } else {
            break;
        }
        fprintf(out, "  %s: ", d->severity == KF3DS_ERROR || d == err ? "error" : "warning");
        if (d->chunk_id || (d->chunk_name && d->chunk_name[0])) {
            const char *name = d->chunk_name && d->chunk_name[0] ? d->chunk_name
                                                                 : kf3ds_chunk_name(d->chunk_id);
            fprintf(out, "offset %lu, chunk 0x%04X ", (unsigned long)d->offset,
                    (unsigned)d->chunk_id);
            cli_text_cstr(out, name ? name : "?");
            fputs(": ", out);
        } else if (d->offset) {
            fprintf(out, "offset %lu: ", (unsigned long)d->offset);
        }
        cli_text_string(out, d->message, cli_diag_message_len(d));
        fputc('\n', out);
    }
}

/* One map: its kind, stored name and where it was found (or where not). */
static void print_map(FILE *out, const map_search *ms, const char *kind, const char *name)
{
    char *path = map_find(ms, name);
    fprintf(out, " %s ", kind);
    cli_text_name(out, name);
    if (path) {
        fputs(" found ", out);
        cli_text_cstr(out, path);
    } else {
        fputs(" missing", out);
    }
    free(path);
}

/* The maps of each material that has any, and the background and
 * atmosphere the file switches on (docs/output.md, 'info'). */
static void print_maps(FILE *out, const kf3ds_scene *s, const map_search *ms)
{
    static const char *const backgrounds[4] = { "none", "bitmap", "solid", "gradient" };
    static const char *const atmospheres[4] = { "none", "fog", "layer fog", "distance cue" };
    const kf3ds_environment *e = &s->environment;
    uint32_t i;
    int k, listed = 0;
    for (i = 0; i < s->num_materials; i++) {
        const kf3ds_material *m = &s->materials[i];
        int any = 0;
        for (k = 0; k < KF3DS_MAP_COUNT; k++) {
            const kf3ds_texture_map *t = kf3ds_material_map(m, (kf3ds_map_kind)k);
            if (!t->file[0])
                continue;
            if (!any) {
                fprintf(out, "  [%lu] ", (unsigned long)i);
                cli_text_name(out, m->name);
                fputc(':', out);
            }
            if (any)
                fputc(';', out);
            print_map(out, ms, kf3ds_map_kind_name((kf3ds_map_kind)k), t->file);
            any = 1;
        }
        if (any)
            fputc('\n', out);
        listed |= any;
    }
    if (listed || (e->background == KF3DS_BACKGROUND_BITMAP && e->bitmap[0])) {
        fputs("  maps looked for in ", out);
        map_search_print(ms, out);
        fputc('\n', out);
    }
    if (e->background == KF3DS_BACKGROUND_NONE && e->atmosphere == KF3DS_ATMOSPHERE_NONE)
        return;
    fprintf(out, "environment: background %s", backgrounds[e->background & 3]);
    if (e->background == KF3DS_BACKGROUND_SOLID) {
        fputc(' ', out);
        print_vec3(out, e->solid);
    } else if (e->background == KF3DS_BACKGROUND_BITMAP && e->bitmap[0]) {
        fputc(',', out);
        print_map(out, ms, "bitmap", e->bitmap);
    }
    fprintf(out, ", atmosphere %s\n", atmospheres[e->atmosphere & 3]);
}

static int run_info(const char *file, const map_search *given)
{
    size_t size;
    kf3ds_diag err;
    kf3ds_scene *s;
    uint32_t i, spots = 0, dummies = 0;
    unsigned long long verts = 0, faces = 0;
    unsigned char *data;
    int status = cli_read_3ds(file, 1, &data, &size);
    FILE *out = stdout;
    if (status)
        return status;
    if (cli_is_kfb(data, size)) { /* a baked file (docs/kfb.md) */
        status = cli_kfb_info(file, data, size);
        free(data);
        return status;
    }
    s = kf3ds_load_memory(data, size, NULL, &err);
    free(data);
    if (!s)
        return cli_report_load(file, NULL, &err);

    fputs("file: ", out);
    cli_text_cstr(out, file);
    fprintf(out, " (%lu %s)\n", (unsigned long)size, cli_plural(size, "byte", "bytes"));
    fprintf(out, "version: %lu, mesh version %lu, master scale %g\n", (unsigned long)s->version,
            (unsigned long)s->mesh_version, (double)s->master_scale);
    for (i = 0; i < s->num_meshes; i++) {
        verts += s->meshes[i].num_points;
        faces += s->meshes[i].num_faces;
    }
    for (i = 0; i < s->num_lights; i++)
        spots += s->lights[i].spot != 0;
    fprintf(out, "meshes: %lu (%llu %s, %llu %s)\n", (unsigned long)s->num_meshes, verts,
            cli_plural(verts, "vertex", "vertices"), faces, cli_plural(faces, "face", "faces"));
    fprintf(out, "materials: %lu\n", (unsigned long)s->num_materials);
    {
        map_search ms;
        if (map_search_begin(&ms, file, given))
            print_maps(out, s, &ms);
        map_search_free(&ms);
    }
    fprintf(out, "cameras: %lu\n", (unsigned long)s->num_cameras);
    fprintf(out, "lights: %lu (%lu spot)\n", (unsigned long)s->num_lights, (unsigned long)spots);
    fprintf(out, "ambient: ");
    print_vec3(out, s->ambient);
    fputc('\n', out);
    if (s->has_keyframer) {
        fprintf(out, "keyframer: revision %u", (unsigned)s->kf_revision);
        if (s->kf_filename && s->kf_filename[0]) {
            fputs(", file ", out);
            cli_text_name(out, s->kf_filename);
        }
        fputc('\n', out);
        fprintf(out, "frames: segment %ld..%ld, animation length %ld, current frame %ld\n",
                (long)s->segment_start, (long)s->segment_end, (long)s->anim_length,
                (long)s->current_frame);
    } else {
        fputs("keyframer: none\n", out);
    }
    for (i = 0; i < s->num_nodes; i++)
        dummies += s->nodes[i].is_dummy != 0;
    fprintf(out, "nodes: %lu", (unsigned long)s->num_nodes);
    if (dummies)
        fprintf(out, " (%lu %s)", (unsigned long)dummies, cli_plural(dummies, "dummy", "dummies"));
    fputc('\n', out);
    if (print_tree(out, s) != 0)
        fputs("  (out of memory listing the nodes)\n", out);
    print_diag_list(out, s, &err);
    fflush(out);
    status = cli_report_load(file, s, &err);
    kf3ds_scene_free(s);
    return status;
}

static int cmd_info(int argc, char **argv)
{
    cli_args a;
    map_search given;
    int r;
    memset(&given, 0, sizeof given);
    cli_args_begin(&a, "info", argc, argv);
    while ((r = cli_next_option(&a)) > 0) {
        int m = map_search_option(&a, &given);
        if (m == 0 && (strcmp(cli_option(&a), "-q") == 0 ||
                       strcmp(cli_option(&a), "--quiet") == 0)) {
            cli_set_quiet(1); /* the report still lists them */
            continue;
        }
        if (m == 0)
            m = (cli_unknown_option(&a), -1);
        if (m < 0) {
            map_search_free(&given);
            return CLI_EXIT_USAGE;
        }
    }
    if (r < 0) {
        map_search_free(&given);
        return CLI_EXIT_USAGE;
    }
    r = run_info(a.file, &given);
    map_search_free(&given);
    return r;
}

const cli_verb cmd_info_verb = {
    "info",
    cmd_info,
    "info FILE [--maps DIR]... [-q]",
    "Summarise a file: size, version, counts, frame range, node tree, problems.",
    "Prints the file size, M3D_VERSION, MESH_VERSION and MASTER_SCALE, the number of\n"
    "meshes (with their total vertices and faces), materials (with the maps each one\n"
    "uses and whether its picture was found, see --maps), cameras and lights, the\n"
    "keyframer's segment (KFSEG) and animation length, then the node hierarchy as an\n"
    "indented tree: each node's [index], type, name (instance name), pivot and the\n"
    "key count of every track it has, e.g. \"pos 5 rot 3 (multi-turn) scl 1\"\n"
    "(multi-turn: a rotation key of half a turn or more; wrap/repeat/loop: the track's\n"
    "loop mode). Last come the warnings and errors found while reading; they are\n"
    "also printed on standard error. A line 'environment:' names the background and\n"
    "atmosphere the file switches on, when it does.\n"
    "\n"
    "Options:\n"
    "  --maps DIR         also look for texture maps in DIR (repeatable; after the\n"
    "                     .3ds file's folder, before the folders of $KF3DS_MAPS)\n"
    "  -q, --quiet        no warning lines on standard error (the report still lists\n"
    "                     them; errors are still printed)\n",
};
