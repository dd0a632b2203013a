/* The overlays of kf3ds_render_scene (KF3DS_OVERLAY_*): hierarchy lines and
 * dummy boxes, pivots, camera frusta, lights and spot cones, a ground grid and
 * node names. All but the grid are drawn over everything (no depth test), so
 * that pivots and hierarchy inside the meshes stay visible; the grid is depth
 * tested. Lines never write depth. Their sizes follow a rough box of the
 * scene. */
#include "renderer.h"
#include <string.h>

#define COLOR_HIERARCHY 0xFFE0B040u
#define COLOR_DUMMY 0xFFC08030u
#define COLOR_PIVOT 0xFF40E0E0u
#define COLOR_CAMERA 0xFF70A8FFu
#define COLOR_GRID 0xFF4A4A4Au
#define COLOR_AXIS_X 0xFF904040u /* the grid line along the x axis (y = 0) */
#define COLOR_AXIS_Y 0xFF409040u
#define COLOR_NAME 0xFFE8E8E8u
#define COLOR_LIGHT_OFF 0xFF606060u
#define COLOR_LIGHT_BLACK 0xFFFFFF80u /* a light whose colour is black */
#define HALF_BRIGHT 0xFF7F7F7Fu       /* a mask dimming a colour: the line to a target */

/* A rough box of the scene for sizing overlays: the transformed boxes of the
 * drawn meshes and every node position. */
static int overlay_bounds(const kf3ds_renderer *r, const kf3ds_pose *poses, float mn[3],
                          float mx[3])
{
    const kf3ds_scene *s = r->scene;
    const int by_nodes = r->nodes_place_meshes && poses;
    uint32_t i;
    int any = 0;
    kf3ds__box_empty(mn, mx);
    for (i = 0; i < s->num_meshes && r->meshes; i++) {
        const kf3ds_mesh *m = &s->meshes[i];
        const kf3ds__render_mesh *rm = &r->meshes[i];
        uint32_t nn, c;
        if (!rm->has_box)
            continue;
        nn = by_nodes ? s->num_nodes : 1;
        for (c = 0; c < nn; c++) {
            kf3ds_mat4 placement;
            int corner;
            if (by_nodes) {
                const kf3ds_node *n = &s->nodes[c];
                if (n->type != KF3DS_NODE_OBJECT || poses[c].hidden ||
                    kf3ds_node_pose_mesh(s, c, &poses[c]) != (int32_t)i)
                    continue;
                kf3ds_node_mesh_matrix(s, c, &poses[c], &placement);
            } else {
                if (m->hidden)
                    continue;
                kf3ds_mesh_editor_matrix(m, &placement);
            }
            for (corner = 0; corner < 8; corner++) {
                float q[3], w[3];
                q[0] = corner & 1 ? rm->box_max[0] : rm->box_min[0];
                q[1] = corner & 2 ? rm->box_max[1] : rm->box_min[1];
                q[2] = corner & 4 ? rm->box_max[2] : rm->box_min[2];
                kf3ds_mat4_transform_point(&placement, q, w);
                any |= kf3ds__box_grow(mn, mx, w);
            }
        }
    }
    if (poses)
        any |= kf3ds__box_grow_nodes(s, poses, mn, mx);
    return any;
}

/* ------------------------------------------------------------------------ */
/* Shapes                                                                   */
/* ------------------------------------------------------------------------ */

static void line_xyz(kf3ds_framebuffer *fb, const kf3ds__projection *p, float ax, float ay,
                     float az, float bx, float by, float bz, uint32_t color, int depth_test)
{
    float a[3], b[3];
    a[0] = ax, a[1] = ay, a[2] = az;
    b[0] = bx, b[1] = by, b[2] = bz;
    kf3ds__line_world(fb, p, a, b, color, depth_test);
}

/* The 12 edges of a box given by its corners (corner bit k: coordinate k at
 * the maximum). */
static void draw_box(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float c[8][3],
                     uint32_t color)
{
    static const unsigned char e[12][2] = { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 },
                                            { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 },
                                            { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } };
    int i;
    for (i = 0; i < 12; i++)
        kf3ds__line_world(fb, p, c[e[i][0]], c[e[i][1]], color, 0);
}

/* Three axis lines of half length s through c; with `star`, four diagonals
 * too. */
static void draw_cross(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float c[3],
                       float s, uint32_t color, int star)
{
    line_xyz(fb, p, c[0] - s, c[1], c[2], c[0] + s, c[1], c[2], color, 0);
    line_xyz(fb, p, c[0], c[1] - s, c[2], c[0], c[1] + s, c[2], color, 0);
    line_xyz(fb, p, c[0], c[1], c[2] - s, c[0], c[1], c[2] + s, color, 0);
    if (star) {
        float d = s * 0.6f;
        line_xyz(fb, p, c[0] - d, c[1] - d, c[2] - d, c[0] + d, c[1] + d, c[2] + d, color, 0);
        line_xyz(fb, p, c[0] + d, c[1] - d, c[2] - d, c[0] - d, c[1] + d, c[2] + d, color, 0);
        line_xyz(fb, p, c[0] - d, c[1] + d, c[2] - d, c[0] + d, c[1] - d, c[2] + d, color, 0);
        line_xyz(fb, p, c[0] + d, c[1] + d, c[2] - d, c[0] - d, c[1] - d, c[2] + d, color, 0);
    }
}

static float distance3(const float a[3], const float b[3])
{
    return sqrtf((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                 (b[2] - a[2]) * (b[2] - a[2]));
}

/* How far the shape of a camera or spot reaches: to its target, at most
 * limit. */
static float shape_length(const float pos[3], const float tgt[3], float limit)
{
    float dist = distance3(pos, tgt);
    return dist > 0.0f && dist < limit ? dist : limit;
}

/* The camera frame looking from pos to tgt, rolled: kf3ds_node_camera_view's
 * look-at (kf3ds__look_at), as floats for drawing. */
static int look_frame(const float pos[3], const float tgt[3], float roll_deg, float fwd[3],
                      float right[3], float up[3])
{
    double dp[3], dt[3], rows[3][3];
    kf3ds_mat4 view;
    int k;
    for (k = 0; k < 3; k++) {
        dp[k] = pos[k];
        dt[k] = tgt[k];
    }
    if (!kf3ds__look_at(dp, dt, roll_deg, &view, rows))
        return 0;
    for (k = 0; k < 3; k++) {
        right[k] = (float)rows[0][k];
        up[k] = (float)rows[1][k];
        fwd[k] = (float)-rows[2][k];
    }
    return 1;
}

/* A camera: a dimmed line to its target, its frustum with this FOV (degrees)
 * up to the target or 4·size away, and a small triangle on top marking up. */
static void draw_camera(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float pos[3],
                        const float tgt[3], float roll, float fov, float size)
{
    float fwd[3], right[3], up[3], len, hh, hw, c[4][3], top[3];
    int i, k;
    if (!kf3ds__finite3(pos) || !kf3ds__finite3(tgt) || !look_frame(pos, tgt, roll, fwd, right, up))
        return;
    kf3ds__line_world(fb, p, pos, tgt, COLOR_CAMERA & HALF_BRIGHT, 0);
    len = shape_length(pos, tgt, size * 4.0f);
    if (!(fov > 0.1f && fov < 179.0f))
        fov = 45.0f;
    hh = len * (float)tan(fov * 0.5 * KF3DS__DEG2RAD);
    hw = hh * (float)p->width / (float)p->height;
    for (i = 0; i < 4; i++) {
        float sx = (i == 0 || i == 3) ? -hw : hw, sy = i < 2 ? hh : -hh;
        for (k = 0; k < 3; k++)
            c[i][k] = pos[k] + fwd[k] * len + right[k] * sx + up[k] * sy;
        kf3ds__line_world(fb, p, pos, c[i], COLOR_CAMERA, 0);
    }
    for (i = 0; i < 4; i++)
        kf3ds__line_world(fb, p, c[i], c[(i + 1) & 3], COLOR_CAMERA, 0);
    for (k = 0; k < 3; k++)
        top[k] = pos[k] + fwd[k] * len + up[k] * hh * 1.4f;
    kf3ds__line_world(fb, p, c[0], top, COLOR_CAMERA, 0);
    kf3ds__line_world(fb, p, c[1], top, COLOR_CAMERA, 0);
}

/* A light's colour at full brightness, lightened; grey when it is off. */
static uint32_t overlay_light_color(const float color[3], int off)
{
    float c[3], mx;
    if (off)
        return COLOR_LIGHT_OFF;
    kf3ds__clamp_color(color, c, 1e6f);
    mx = c[0] > c[1] ? c[0] : c[1];
    mx = c[2] > mx ? c[2] : mx;
    if (!(mx > 0.0f))
        return COLOR_LIGHT_BLACK;
    return kf3ds__pack_rgb(0.4f + 0.6f * c[0] / mx, 0.4f + 0.6f * c[1] / mx,
                           0.4f + 0.6f * c[2] / mx);
}

/* A light: a star at its position; a spot also gets a dimmed line to its
 * target and its falloff cone (degrees) up to the target or 5·size away. */
static void draw_light(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float pos[3],
                       const float color[3], int off, int spot, const float tgt[3], float falloff,
                       float size)
{
    uint32_t c = overlay_light_color(color, off);
    if (!kf3ds__finite3(pos))
        return;
    draw_cross(fb, p, pos, size, c, 1);
    if (spot && tgt && kf3ds__finite3(tgt)) {
        float fwd[3], right[3], up[3], len, rad, ring[16][3];
        int i, k;
        if (!look_frame(pos, tgt, 0.0f, fwd, right, up))
            return;
        kf3ds__line_world(fb, p, pos, tgt, c & HALF_BRIGHT, 0);
        len = shape_length(pos, tgt, size * 5.0f);
        if (!(falloff > 0.1f && falloff < 179.0f))
            falloff = falloff >= 179.0f ? 179.0f : 45.0f;
        rad = len * (float)tan(falloff * 0.5 * KF3DS__DEG2RAD);
        for (i = 0; i < 16; i++) {
            double a = i * (6.283185307179586 / 16.0);
            float ca = (float)cos(a), sa = (float)sin(a);
            for (k = 0; k < 3; k++)
                ring[i][k] = pos[k] + fwd[k] * len + (right[k] * ca + up[k] * sa) * rad;
        }
        for (i = 0; i < 16; i++) {
            kf3ds__line_world(fb, p, ring[i], ring[(i + 1) & 15], c, 0);
            if ((i & 3) == 0)
                kf3ds__line_world(fb, p, pos, ring[i], c, 0);
        }
    }
}

/* A round grid spacing (1, 2 or 5 times a power of ten) giving about 12 lines
 * over range. */
static float grid_step(float range)
{
    double raw = range / 12.0, mag, n;
    if (!(raw > 0.0 && raw < 1e30))
        return 1.0f;
    mag = pow(10.0, floor(log10(raw)));
    n = raw / mag;
    return (float)((n < 1.5 ? 1.0 : n < 3.5 ? 2.0 : n < 7.5 ? 5.0 : 10.0) * mag);
}

/* The grid on the ground plane z = 0 over the box's x and y extent and a
 * margin, the axes in colour. */
static void draw_grid(kf3ds_framebuffer *fb, const kf3ds__projection *p, const float mn[3],
                      const float mx[3])
{
    float ext = mx[0] - mn[0] > mx[1] - mn[1] ? mx[0] - mn[0] : mx[1] - mn[1];
    float step, x0, x1, y0, y1, v, fx, fy;
    int i, nx, ny;
    if (!(ext > 0.0f))
        ext = mx[2] - mn[2] > 0.0f ? mx[2] - mn[2] : 1.0f;
    step = grid_step(ext);
    x0 = (float)floor((mn[0] - ext * 0.1f) / step) * step;
    x1 = (float)ceil((mx[0] + ext * 0.1f) / step) * step;
    y0 = (float)floor((mn[1] - ext * 0.1f) / step) * step;
    y1 = (float)ceil((mx[1] + ext * 0.1f) / step) * step;
    /* Counted in float first: a box reaching infinity gives inf or NaN here,
     * which no int can hold. */
    fx = (x1 - x0) / step + 0.5f;
    fy = (y1 - y0) / step + 0.5f;
    if (!(fx >= 0.0f && fx < 401.0f && fy >= 0.0f && fy < 401.0f))
        return;
    nx = (int)fx;
    ny = (int)fy;
    for (i = 0; i <= nx; i++) {
        v = x0 + step * (float)i;
        line_xyz(fb, p, v, y0, 0.0f, v, y1, 0.0f,
                 fabsf(v) < step * 0.01f ? COLOR_AXIS_Y : COLOR_GRID, 1);
    }
    for (i = 0; i <= ny; i++) {
        v = y0 + step * (float)i;
        line_xyz(fb, p, x0, v, 0.0f, x1, v, 0.0f,
                 fabsf(v) < step * 0.01f ? COLOR_AXIS_X : COLOR_GRID, 1);
    }
}

/* ------------------------------------------------------------------------ */
/* The overlays                                                             */
/* ------------------------------------------------------------------------ */

/* A dummy (or an object node without a mesh): its bounding box from the
 * file, placed at the pose, or a small cube around its pivot when it has none
 * or the box would be absurdly large. */
static void draw_dummy(kf3ds_framebuffer *fb, const kf3ds__projection *p, const kf3ds_node *n,
                       const kf3ds_pose *pose, const float pivot[3], float size)
{
    float c[8][3];
    int k, ok = 1, corner;
    for (corner = 0; corner < 8; corner++) {
        float q[3];
        if (n->has_bbox) {
            q[0] = (corner & 1 ? n->bbox_max[0] : n->bbox_min[0]) - n->pivot[0];
            q[1] = (corner & 2 ? n->bbox_max[1] : n->bbox_min[1]) - n->pivot[1];
            q[2] = (corner & 4 ? n->bbox_max[2] : n->bbox_min[2]) - n->pivot[2];
            kf3ds_mat4_transform_point(&pose->world, q, c[corner]);
            for (k = 0; k < 3; k++)
                if (!(fabsf(c[corner][k] - pivot[k]) <= size * 400.0f))
                    ok = 0;
        }
    }
    if (!n->has_bbox || !ok) {
        if (!kf3ds__finite3(pivot))
            return;
        for (corner = 0; corner < 8; corner++)
            for (k = 0; k < 3; k++)
                c[corner][k] = pivot[k] + ((corner >> k) & 1 ? size : -size) * 0.7f;
    }
    draw_box(fb, p, (const float (*)[3])c, COLOR_DUMMY);
}

/* Whether node i is the camera node the view is taken through (not drawn). */
static int is_view_camera(const kf3ds_render_options *o, uint32_t i)
{
    return o->has_camera_node && o->camera_node == i;
}

void kf3ds__draw_overlays(const kf3ds_renderer *r, const kf3ds__projection *p,
                          const kf3ds_view *view, const kf3ds_pose *poses,
                          const kf3ds_render_options *o, kf3ds_framebuffer *fb)
{
    const kf3ds_scene *s = r->scene;
    float mn[3], mx[3], size;
    uint32_t i;
    if (!overlay_bounds(r, poses, mn, mx)) {
        mn[0] = mn[1] = mn[2] = -1.0f;
        mx[0] = mx[1] = mx[2] = 1.0f;
    }
    size = distance3(mn, mx) * 0.015f;
    if (!(size > 0.0f && size < 1e30f))
        size = 0.05f;
    if (o->overlays & KF3DS_OVERLAY_GRID)
        draw_grid(fb, p, mn, mx);
    if (poses && (o->overlays & KF3DS_OVERLAY_HIERARCHY))
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            float a[3], b[3];
            kf3ds__pose_position(&poses[i], a);
            if (n->parent >= 0 && (uint32_t)n->parent < s->num_nodes) {
                kf3ds__pose_position(&poses[n->parent], b);
                if (kf3ds__finite3(a) && kf3ds__finite3(b))
                    kf3ds__line_world(fb, p, a, b, COLOR_HIERARCHY, 0);
            }
            if (n->type == KF3DS_NODE_OBJECT && (n->is_dummy || n->mesh < 0))
                draw_dummy(fb, p, n, &poses[i], a, size);
        }
    if (poses && (o->overlays & KF3DS_OVERLAY_PIVOTS))
        for (i = 0; i < s->num_nodes; i++) {
            float a[3];
            if (s->nodes[i].type != KF3DS_NODE_OBJECT)
                continue;
            kf3ds__pose_position(&poses[i], a);
            if (kf3ds__finite3(a))
                draw_cross(fb, p, a, size * 0.6f, COLOR_PIVOT, 0);
        }
    if (o->overlays & KF3DS_OVERLAY_CAMERAS) {
        int have = 0;
        if (poses)
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_node *n = &s->nodes[i];
                float pos[3], tgt[3];
                if (n->type != KF3DS_NODE_CAMERA)
                    continue;
                have = 1;
                if (is_view_camera(o, i))
                    continue;
                kf3ds__pose_position(&poses[i], pos);
                if (n->target >= 0 && (uint32_t)n->target < s->num_nodes)
                    kf3ds__pose_position(&poses[n->target], tgt);
                else if (n->camera >= 0 && (uint32_t)n->camera < s->num_cameras)
                    memcpy(tgt, s->cameras[n->camera].target, sizeof tgt);
                else
                    tgt[0] = pos[0], tgt[1] = pos[1] + 1.0f, tgt[2] = pos[2];
                draw_camera(fb, p, pos, tgt, poses[i].roll, poses[i].fov, size);
            }
        if (!have)
            for (i = 0; i < s->num_cameras; i++)
                draw_camera(fb, p, s->cameras[i].position, s->cameras[i].target,
                            s->cameras[i].roll, s->cameras[i].fov, size);
    }
    if (o->overlays & KF3DS_OVERLAY_LIGHTS) {
        int have = 0;
        if (poses)
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_light *el;
                float pos[3], tgt[3];
                const float *tp;
                if (!kf3ds__light_node(s, poses, i, pos, tgt, &tp, &el))
                    continue;
                have = 1;
                draw_light(fb, p, pos, poses[i].color, el && el->off,
                           s->nodes[i].type == KF3DS_NODE_SPOT, tp, poses[i].falloff, size);
            }
        if (!have)
            for (i = 0; i < s->num_lights; i++) {
                const kf3ds_light *l = &s->lights[i];
                draw_light(fb, p, l->position, l->color, l->off, l->spot, l->target, l->falloff,
                           size);
            }
    }
    if (poses && (o->overlays & KF3DS_OVERLAY_NAMES))
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            const char *label = n->name;
            float a[3], x, y;
            if (n->type == KF3DS_NODE_AMBIENT || n->type == KF3DS_NODE_TARGET ||
                n->type == KF3DS_NODE_LTARGET)
                continue;
            if (n->type == KF3DS_NODE_OBJECT && poses[i].hidden)
                continue;
            if (n->type == KF3DS_NODE_CAMERA && is_view_camera(o, i))
                continue;
            if (n->is_dummy && n->instance && n->instance[0])
                label = n->instance;
            if (!label || !label[0])
                continue;
            kf3ds__pose_position(&poses[i], a);
            if (!kf3ds__finite3(a) ||
                !kf3ds_view_project(view, fb->width, fb->height, a, &x, &y, NULL))
                continue;
            if (!(x > -1e6f && x < 1e6f && y > -1e6f && y < 1e6f))
                continue;
            kf3ds_raster_text(fb, (int)x + 4, (int)y - 10, label, COLOR_NAME, 1);
        }
}
