/* Every input the fuzzers found (tests/fuzz-regressions/, each minimised by
 * libFuzzer from the project's own seeds and mutations; see
 * tests/fuzz-regressions/README.md for what each one broke) goes through what
 * the fuzz targets do: load with a counting allocator (memory bound, no leak),
 * the scene invariants, evaluation of every node at finite, fractional,
 * negative, huge and NaN frames with finite matrices, placed vertices and
 * camera views, a 32×24 render with every shading and overlay, and
 * `kf3ds dump` in text and JSON through the command ($KF3DS_TOOL), which
 * must exit 0 or 1 without a sanitizer report. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kf3ds.h"
#include "support.h"

#define BOUND_C 128u
#define BOUND_FIXED ((size_t)4 << 20)

static char g_what[1100];

#define MUST(cond)                                                                         \
    do {                                                                                   \
        if (!(cond))                                                                       \
            fail_msg("%s: check failed: %s (line %d)", g_what, #cond, __LINE__);           \
    } while (0)

static int finite_n(const float *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

static int in_range(int32_t v, uint32_t n)
{
    return v == KF3DS_NONE || (v >= 0 && (uint32_t)v < n);
}

static void check_invariants(const kf3ds_scene *s)
{
    uint32_t i, j, k;
    for (i = 0; i < s->num_meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        for (j = 0; j < m->num_faces; j++)
            MUST(m->faces[j].v[0] < m->num_points && m->faces[j].v[1] < m->num_points &&
                 m->faces[j].v[2] < m->num_points);
        for (j = 0; j < m->num_points; j++)
            MUST(finite_n(m->points[j], 3));
        MUST(finite_n(&m->matrix.m[0][0], 16) && finite_n(&m->inv_matrix.m[0][0], 16));
    }
    for (i = 0; i < s->num_nodes; i++) {
        const kf3ds_node *n = &s->nodes[i];
        MUST(s->eval_order[i] < s->num_nodes);
        MUST(in_range(n->parent, s->num_nodes) && n->parent != (int32_t)i);
        MUST(in_range(n->mesh, s->num_meshes) && in_range(n->camera, s->num_cameras));
        MUST(in_range(n->light, s->num_lights) && in_range(n->target, s->num_nodes));
        MUST(finite_n(n->pivot, 3));
        for (k = 0; k < KF3DS_TRACK_COUNT; k++)
            for (j = 0; j < n->tracks[k].num_keys; j++) {
                const kf3ds_key *key = &n->tracks[k].keys[j];
                MUST(finite_n(key->value, 4) && finite_n(key->quat, 4));
                MUST(finite_n(key->tan_in, 4) && finite_n(key->tan_out, 4));
            }
    }
}

static void evaluate_all(const kf3ds_scene *s)
{
    static const double frames[] = { 0.0, 1.0, 2.5, -1.0, -1000.75, 7.25, 1e9, -1e9,
                                     2147483647.0, -2147483648.0, 1e300, 0.001, NAN };
    kf3ds_pose *poses = (kf3ds_pose *)calloc(s->num_nodes + 1, sizeof *poses);
    size_t f;
    uint32_t i, j;
    MUST(poses != NULL);
    for (f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        int finite = isfinite(frames[f]);
        kf3ds_scene_eval(s, frames[f], f & 1 ? KF3DS_EVAL_NO_EASE : 0, poses);
        for (i = 0; i < s->num_nodes; i++) {
            kf3ds_mat4 m;
            kf3ds_pose one;
            float fov, roll;
            if (finite) {
                MUST(finite_n(&poses[i].world.m[0][0], 16));
                MUST(finite_n(poses[i].position, 3) && finite_n(poses[i].rotation, 4) &&
                     finite_n(poses[i].scale, 3) && finite_n(poses[i].color, 3));
            }
            if (kf3ds_node_mesh_matrix(s, i, &poses[i], &m)) {
                const kf3ds_mesh *mesh = &s->meshes[s->nodes[i].mesh];
                for (j = 0; j < mesh->num_points; j++) {
                    float out[3];
                    kf3ds_mat4_transform_point(&m, mesh->points[j], out);
                    if (finite)
                        MUST(finite_n(out, 3));
                }
            }
            if (kf3ds_camera_view(s, i, poses, &m, &fov, &roll) && finite)
                MUST(finite_n(&m.m[0][0], 16));
            if (i < 64) {
                memset(&one, 0, sizeof one);
                kf3ds_node_eval(s, i, frames[f], 0, &one);
                if (finite)
                    MUST(finite_n(&one.world.m[0][0], 16));
            }
        }
    }
    {
        static uint32_t color[32 * 24];
        static float depth[32 * 24];
        kf3ds_framebuffer fb = { color, depth, 32, 24 };
        kf3ds_renderer *r;
        kf3ds_render_options o;
        kf3ds_view view;
        float lo[3] = { -1, -1, -1 }, hi[3] = { 1, 1, 1 };
        int variant;
        kf3ds_scene_eval(s, 3.0, 0, poses);
        r = kf3ds_renderer_create(s, NULL);
        MUST(r != NULL);
        kf3ds_scene_bounds(s, poses, lo, hi);
        MUST(finite_n(lo, 3) && finite_n(hi, 3));
        kf3ds_view_orbit(lo, hi, 30.0f, 20.0f, 45.0f, 32.0f / 24.0f, &view);
        for (variant = 0; variant < 6; variant++) {
            memset(&o, 0, sizeof o);
            o.shading = (kf3ds_shading)(variant % 3);
            o.overlays = variant >= 3 ? 0x3F : 0;
            kf3ds_render_scene(r, poses, &view, &o, &fb, NULL);
        }
        for (i = 0; i < s->num_nodes && i < 8; i++)
            if (kf3ds_view_from_camera(s, i, poses, &view)) {
                memset(&o, 0, sizeof o);
                o.through_camera = (int32_t)i + 1;
                kf3ds_render_scene(r, poses, &view, &o, &fb, NULL);
            }
        kf3ds_renderer_free(r);
    }
    free(poses);
}

/* `kf3ds dump FILE [--json]`: exit 0 or 1, no signal, no sanitizer report
 * (the sanitizers' exit codes are moved off 1 for the run). */
static void dump_with_tool(const char *path, int json)
{
    char cmd[2048], out[256];
    FILE *f;
    long len = 0;
    int status;
    snprintf(out, sizeof out, "build/fuzz-regression-dump.%ld.out", (long)json);
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=\"$ASAN_OPTIONS:exitcode=99\" UBSAN_OPTIONS=\"$UBSAN_OPTIONS:exitcode=98\" "
             "'%s' dump '%s'%s > '%s' 2>/dev/null",
             support_tool(), path, json ? " --json" : "", out);
    status = system(cmd);
    MUST(status != -1 && WIFEXITED(status));
    MUST(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
    f = fopen(out, "rb");
    MUST(f != NULL);
    if (fseek(f, 0, SEEK_END) == 0)
        len = ftell(f);
    if (json && len > 0) {
        int first, last;
        fseek(f, 0, SEEK_SET);
        first = fgetc(f);
        fseek(f, -2, SEEK_END);
        last = fgetc(f);
        MUST(first == '[' && last == ']');
    }
    fclose(f);
    remove(out);
}

static const char *regression_dir(void)
{
    const char *env = getenv("KF3DS_FUZZ_REGRESSIONS");
    return env ? env : "tests/fuzz-regressions";
}

static int is_input(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".3ds") == 0;
}

static void test_regressions(void **state)
{
    const char *dir = regression_dir();
    DIR *d = opendir(dir);
    struct dirent *e;
    int files = 0;
    (void)state;
    snprintf(g_what, sizeof g_what, "%s", dir);
    MUST(d != NULL);
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        unsigned char *data;
        size_t size = 0;
        counting c;
        kf3ds_load_options o;
        kf3ds_diag err;
        kf3ds_scene *s;
        if (!is_input(e->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(g_what, sizeof g_what, "%s", path);
        data = support_read_file(path, &size);
        MUST(data != NULL);
        MUST(size <= 65536); /* small files only */
        counting_reset(&c, -1); /* the counting allocator of support.c */
        o = counting_options(&c);
        s = kf3ds_load_memory(data, size, &o, &err);
        MUST(c.peak <= BOUND_C * size + BOUND_FIXED);
        if (s) {
            check_invariants(s);
            evaluate_all(s);
            kf3ds_free(s);
        } else {
            MUST(err.code != KF3DS_OK);
        }
        MUST(c.live == 0 && c.bytes == 0);
        free(data);
        dump_with_tool(path, 0);
        dump_with_tool(path, 1);
        files++;
    }
    closedir(d);
    snprintf(g_what, sizeof g_what, "%s", dir);
    MUST(files > 0);
    printf("  %d regression inputs\n", files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
