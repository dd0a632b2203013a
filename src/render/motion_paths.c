/* Motion paths (kf3ds_motion_paths_sample, kf3ds_motion_paths_draw): where
 * each node goes over a range of frames, sampled once and drawn as lines over
 * the picture — `kf3ds view`'s m and the page's (docs/viewer.md). Sampling
 * evaluates the scene; drawing only projects the stored points. */
#include "raster.h"
#include <math.h>

#define PATH_OBJECT 0xFFF0D040u /* object nodes: yellow */
#define PATH_CAMERA 0xFF50D0F0u /* cameras and their targets: cyan */
#define PATH_LIGHT 0xFFF09040u  /* the rest (lights, their targets, ambient): orange */

int kf3ds_motion_paths_sample(const kf3ds_scene *scene, double first, double last,
                              unsigned eval_flags, uint32_t samples, kf3ds_pose *poses,
                              float *points)
{
    uint32_t i, k;
    if (!scene || !poses || !points || samples < 2 || !(fabs(first) <= 1e9) ||
        !(fabs(last) <= 1e9))
        return 0;
    for (i = 0; i < samples; i++) {
        kf3ds_scene_eval(scene, first + (last - first) * i / (samples - 1), eval_flags, poses);
        for (k = 0; k < scene->num_nodes; k++) {
            float *p = points + ((size_t)k * samples + i) * 3;
            p[0] = poses[k].world.m[0][3];
            p[1] = poses[k].world.m[1][3];
            p[2] = poses[k].world.m[2][3];
        }
    }
    return 1;
}

void kf3ds_motion_paths_draw(kf3ds_framebuffer *fb, const kf3ds_view *view,
                             const kf3ds_scene *scene, const float *points, uint32_t samples)
{
    kf3ds__projection proj;
    uint32_t k, i;
    if (!scene || !points || samples < 2 || !kf3ds__framebuffer_ok(fb) ||
        !kf3ds__projection_setup(&proj, view, fb->width, fb->height))
        return;
    for (k = 0; k < scene->num_nodes; k++) {
        const float *p = points + (size_t)k * samples * 3;
        kf3ds_node_type t = scene->nodes[k].type;
        uint32_t color = t == KF3DS_NODE_OBJECT                             ? PATH_OBJECT
                         : t == KF3DS_NODE_CAMERA || t == KF3DS_NODE_TARGET ? PATH_CAMERA
                                                                            : PATH_LIGHT;
        for (i = 1; i < samples; i++)
            if (p[3 * i] != p[0] || p[3 * i + 1] != p[1] || p[3 * i + 2] != p[2])
                break;
        if (i == samples)
            continue; /* it stays where it is: a path would be a dot */
        for (i = 1; i < samples; i++)
            kf3ds__line_world(fb, &proj, p + 3 * (i - 1), p + 3 * i, color, 0);
    }
}
