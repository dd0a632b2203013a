/* kf3ds__class_colors_all_plain: the plain C reference (class_colors.h),
 * one class after another. */
#include "class_colors.h"

void kf3ds__class_colors_all_plain(kf3ds_renderer *r, const kf3ds__render_mesh *rm,
                                   const float C[3][3], int back)
{
    const float sign = back ? -1.0f : 1.0f;
    const float *diffuse = r->materials[rm->class_slot].diffuse;
    uint32_t ci, slot;
    for (ci = 0; ci < rm->num_classes; ci++) {
        slot = 2 * ci + (uint32_t)back;
        r->class_color[slot] = kf3ds__class_color_headlight(r, rm, ci, C, sign, diffuse);
        r->class_color_stamp[slot] = r->color_stamp;
    }
}
