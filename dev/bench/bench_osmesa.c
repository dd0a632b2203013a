/* bench-osmesa: the kf3ds-bench --render measurement drawn by Mesa through
 * OSMesa (its llvmpipe rasterizer), for comparison (make bench; built only
 * where libosmesa6-dev is installed).
 *
 *   bench-osmesa WxH FILE [FRAMES]
 *
 * Loads and evaluates FILE with kf3ds, as kf3ds-bench --render does, and
 * draws the same frames from the same view (dev/bench/bench_render_common.h)
 * with OpenGL 1.x/2.x into a WxH off-screen buffer: every visible object
 * node's mesh at its placement (kf3ds_node_mesh_matrix), smooth shading with
 * per-vertex normals, per-vertex lighting by a headlight and an ambient
 * fill like kf3ds's renderer, depth test, and every face drawn, one seen
 * from behind lit on its flipped normal (two-sided lighting), as kf3ds's
 * renderer does by default (cull_back_faces 0): both draw the same
 * triangles. Meshes are uploaded once (vertex buffer objects: points,
 * normals, and indices grouped by material), so that a frame costs the
 * evaluation, one draw call per mesh and material and the rasterization;
 * glFinish ends each frame. Runs repeat as kf3ds-bench's do and the best
 * gives the time per frame. Last line:
 *
 *   render_ms_per_frame 9.87 triangles 100000
 *
 * For one core, as make bench runs it: LP_NUM_THREADS=1 and taskset -c N.
 * Exit status: 0 success, 1 the file cannot be loaded or no context, 2 wrong usage.
 */
#define _POSIX_C_SOURCE 200809L
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_common.h"
#include "bench_render_common.h"

/* One mesh on the GPU side: its buffers and its faces' index ranges per material. */
typedef struct gl_mesh {
    GLuint vbo[3]; /* points, normals, indices */
    uint32_t num_groups;
    uint32_t *group_first, *group_count;
    float (*group_color)[4];
} gl_mesh;

static int usage(void)
{
    fputs("usage: bench-osmesa WxH FILE [FRAMES]\n", stderr);
    return 2;
}

/* Area-weighted vertex normals (the benchmark scenes are one smoothing
 * group per mesh, where kf3ds's renderer gives the same normals). */
static void vertex_normals(const kf3ds_mesh *m, float *out)
{
    uint32_t f, i;
    memset(out, 0, (size_t)m->num_points * 3 * sizeof *out);
    for (f = 0; f < m->num_faces; f++) {
        const uint16_t *v = m->faces[f].v;
        const float *a = m->points[v[0]], *b = m->points[v[1]], *c = m->points[v[2]];
        float e1[3], e2[3], n[3];
        if (v[0] >= m->num_points || v[1] >= m->num_points || v[2] >= m->num_points)
            continue;
        for (i = 0; i < 3; i++) {
            e1[i] = b[i] - a[i];
            e2[i] = c[i] - a[i];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (i = 0; i < 3; i++) {
            out[3 * v[0] + i] += n[i];
            out[3 * v[1] + i] += n[i];
            out[3 * v[2] + i] += n[i];
        }
    }
    for (i = 0; i < m->num_points; i++) {
        float *n = out + 3 * i, l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l > 0.0f) {
            n[0] /= l;
            n[1] /= l;
            n[2] /= l;
        }
    }
}

/* Uploads mesh m: its faces sorted into one index range per material. */
static int upload(const kf3ds_scene *s, const kf3ds_mesh *m, gl_mesh *g)
{
    uint32_t nm = s->num_materials + 1, f, k, at = 0, *count, *first;
    uint16_t *idx = (uint16_t *)malloc((size_t)m->num_faces * 3 * sizeof *idx + 1);
    float *normals = (float *)malloc((size_t)m->num_points * 3 * sizeof *normals + 1);
    count = (uint32_t *)calloc(nm, sizeof *count);
    first = (uint32_t *)calloc(nm, sizeof *first);
    memset(g, 0, sizeof *g);
    g->group_first = (uint32_t *)calloc(nm, sizeof *g->group_first);
    g->group_count = (uint32_t *)calloc(nm, sizeof *g->group_count);
    g->group_color = (float(*)[4])calloc(nm, sizeof *g->group_color);
    if (!idx || !normals || !count || !first || !g->group_first || !g->group_count ||
        !g->group_color) {
        free(idx);
        free(normals);
        free(count);
        free(first);
        return 0;
    }
    for (f = 0; f < m->num_faces; f++) { /* slot nm - 1: no material */
        int32_t mat = kf3ds_face_material(m, f);
        count[mat >= 0 && (uint32_t)mat < s->num_materials ? (uint32_t)mat : nm - 1]++;
    }
    for (k = 0; k < nm; k++) {
        first[k] = at;
        at += count[k];
    }
    for (f = 0; f < m->num_faces; f++) {
        int32_t mat = kf3ds_face_material(m, f);
        uint32_t slot = mat >= 0 && (uint32_t)mat < s->num_materials ? (uint32_t)mat : nm - 1;
        memcpy(idx + 3 * first[slot]++, m->faces[f].v, 3 * sizeof *idx);
    }
    for (k = 0, at = 0; k < nm; k++) {
        if (count[k]) {
            const float grey[3] = {0.7f, 0.7f, 0.7f};
            const float *d = k < s->num_materials ? s->materials[k].diffuse : grey;
            g->group_first[g->num_groups] = 3 * at;
            g->group_count[g->num_groups] = 3 * count[k];
            memcpy(g->group_color[g->num_groups], d, 3 * sizeof(float));
            g->group_color[g->num_groups][3] = 1.0f;
            g->num_groups++;
        }
        at += count[k];
    }
    vertex_normals(m, normals);
    glGenBuffers(3, g->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo[0]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)m->num_points * 3 * sizeof(float), m->points,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo[1]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)m->num_points * 3 * sizeof(float), normals,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->vbo[2]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)m->num_faces * 3 * sizeof *idx, idx,
                 GL_STATIC_DRAW);
    free(idx);
    free(normals);
    free(count);
    free(first);
    return 1;
}

/* kf3ds matrices are row-major with column vectors; OpenGL's are column-major. */
static void load_matrix(GLenum mode, const kf3ds_mat4 *m)
{
    GLfloat t[16];
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            t[4 * j + i] = m->m[i][j];
    glMatrixMode(mode);
    glLoadMatrixf(t);
}

static void projection(const kf3ds_view *v, int width, int height)
{
    kf3ds_mat4 p;
    double f = 1.0 / tan(v->fov_y_degrees * 0.5 * 3.14159265358979 / 180.0);
    double n = v->near_plane, fa = v->far_plane;
    memset(&p, 0, sizeof p);
    p.m[0][0] = (float)(f * height / width);
    p.m[1][1] = (float)f;
    p.m[2][2] = (float)((fa + n) / (n - fa));
    p.m[2][3] = (float)(2.0 * fa * n / (n - fa));
    p.m[3][2] = -1.0f;
    load_matrix(GL_PROJECTION, &p);
}

static void setup_gl(void)
{
    const GLfloat headlight_dir[4] = {0, 0, 1, 0}, headlight[4] = {0.9f, 0.9f, 0.9f, 1};
    const GLfloat fill[4] = {0.08f, 0.08f, 0.08f, 1}, black[4] = {0, 0, 0, 1};
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE); /* as kf3ds's renderer by default */
    glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
    glShadeModel(GL_SMOOTH);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_NORMALIZE);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity(); /* the headlight is given in eye space */
    glLightfv(GL_LIGHT0, GL_POSITION, headlight_dir);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, headlight);
    glLightfv(GL_LIGHT0, GL_SPECULAR, black);
    glLightModelfv(GL_LIGHT_MODEL_AMBIENT, fill);
    glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, black);
    glClearColor(0.19f, 0.19f, 0.19f, 1.0f);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_NORMAL_ARRAY);
}

/* One frame: evaluation, then every visible object node's mesh. Returns the
 * triangles submitted. */
static unsigned long draw_frame(const kf3ds_scene *s, const gl_mesh *meshes, double frame,
                                const kf3ds_view *view, kf3ds_pose *poses)
{
    unsigned long tris = 0;
    uint32_t i, k;
    kf3ds_scene_eval(s, frame, 0, poses);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    for (i = 0; i < s->num_nodes; i++) {
        kf3ds_mat4 placement, mv;
        const gl_mesh *g;
        int32_t mi;
        if (s->nodes[i].type != KF3DS_NODE_OBJECT || poses[i].hidden)
            continue;
        mi = kf3ds_node_pose_mesh(s, i, &poses[i]);
        if (mi < 0 || !kf3ds_node_mesh_matrix(s, i, &poses[i], &placement))
            continue;
        g = &meshes[mi];
        kf3ds_mat4_mul(&view->view, &placement, &mv);
        load_matrix(GL_MODELVIEW, &mv);
        glBindBuffer(GL_ARRAY_BUFFER, g->vbo[0]);
        glVertexPointer(3, GL_FLOAT, 0, NULL);
        glBindBuffer(GL_ARRAY_BUFFER, g->vbo[1]);
        glNormalPointer(GL_FLOAT, 0, NULL);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->vbo[2]);
        for (k = 0; k < g->num_groups; k++) {
            glMaterialfv(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE, g->group_color[k]);
            glDrawElements(GL_TRIANGLES, (GLsizei)g->group_count[k], GL_UNSIGNED_SHORT,
                           (const void *)(size_t)(g->group_first[k] * sizeof(uint16_t)));
        }
        tris += s->meshes[mi].num_faces;
    }
    glFinish();
    return tris;
}

int main(int argc, char **argv)
{
    const char *file;
    long frames = RENDER_DEFAULT_FRAMES, f;
    int width, height, runs;
    kf3ds_diag err;
    kf3ds_scene *scene;
    kf3ds_pose *poses;
    kf3ds_view view;
    gl_mesh *meshes;
    OSMesaContext ctx;
    unsigned char *buffer;
    double t0, t, total = 0.0, best = 0.0;
    unsigned long submitted = 0;
    uint32_t i;

    if (argc < 3 || argc > 4 || !bench_parse_size(argv[1], &width, &height) || !argv[2][0])
        return usage();
    file = argv[2];
    if (argc == 4 && !(frames = bench_parse_count("bench-osmesa", "FRAMES", argv[3],
                                                  BENCH_MAX_FRAMES)))
        return usage();
    scene = kf3ds_load_file(file, NULL, &err);
    if (!scene) {
        fprintf(stderr, "bench-osmesa: %s: %s\n", file, err.message);
        return 1;
    }
    poses = (kf3ds_pose *)calloc(scene->num_nodes + 1, sizeof *poses);
    meshes = (gl_mesh *)calloc(scene->num_meshes + 1, sizeof *meshes);
    buffer = (unsigned char *)malloc((size_t)width * (size_t)height * 4);
    ctx = OSMesaCreateContextExt(OSMESA_RGBA, 24, 0, 0, NULL);
    if (!poses || !meshes || !buffer || !ctx ||
        !OSMesaMakeCurrent(ctx, buffer, GL_UNSIGNED_BYTE, width, height)) {
        fprintf(stderr, "bench-osmesa: no OSMesa context (or out of memory)\n");
        return 1;
    }
    setup_gl();
    for (i = 0; i < scene->num_meshes; i++)
        if (!upload(scene, &scene->meshes[i], &meshes[i])) {
            fprintf(stderr, "bench-osmesa: out of memory\n");
            return 1;
        }
    bench_render_view(scene, frames, width, height, poses, &view);
    projection(&view, width, height);
    /* warm-up */
    draw_frame(scene, meshes, bench_render_frame(scene, 0, frames), &view, poses);
    for (runs = 0; bench_render_more_runs(runs, total); runs++) {
        unsigned long sub = 0;
        t0 = now_ms();
        for (f = 0; f < frames; f++)
            sub += draw_frame(scene, meshes, bench_render_frame(scene, f, frames), &view, poses);
        t = now_ms() - t0;
        total += t;
        if (runs == 0 || t < best)
            best = t;
        submitted = sub;
    }
    printf("file %s\n", file);
    printf("render %dx%d frames %ld, smooth shading, orbit view, %s (%s)\n", width, height,
           frames, (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    printf("render runs %d best %.3f ms mean %.3f ms (%.3f ms per frame)\n", runs, best,
           total / runs, best / (double)frames);
    printf("render_ms_per_frame %.2f triangles %lu\n", best / (double)frames,
           (submitted + (unsigned long)frames / 2) / (unsigned long)frames);
    for (i = 0; i < scene->num_meshes; i++) {
        glDeleteBuffers(3, meshes[i].vbo);
        free(meshes[i].group_first);
        free(meshes[i].group_count);
        free(meshes[i].group_color);
    }
    OSMesaDestroyContext(ctx);
    free(meshes);
    free(buffer);
    free(poses);
    kf3ds_scene_free(scene);
    return 0;
}
