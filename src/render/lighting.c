/* The lights of a frame: the ambient light, a headlight, and the file's omni
 * and spot lights (those not switched off) in view space, from the light nodes
 * at the frame's poses or, for files without light nodes, from the editor's
 * lights; and the shading model that uses them. */
#include "renderer.h"
#include <string.h>

/* Adds a light at pos (a spot aimed at target with hotspot and falloff cone
 * angles in degrees); lights that are not finite, spots without a direction,
 * and lights beyond KF3DS__MAX_FILE_LIGHTS are left out. */
static void add_light(kf3ds_renderer *r, const kf3ds__projection *p, const float pos[3],
                      const float color[3], int spot, const float target[3], float hotspot,
                      float falloff)
{
    kf3ds__render_light *l;
    if (r->num_lights >= KF3DS__MAX_FILE_LIGHTS || !kf3ds__finite3(pos))
        return;
    l = &r->lights[r->num_lights];
    memset(l, 0, sizeof *l);
    kf3ds__to_view(p, pos, l->position);
    kf3ds__clamp_color(color, l->color, 4.0f);
    if (spot) {
        float d[3], vt[3];
        if (!target || !kf3ds__finite3(target))
            return;
        kf3ds__to_view(p, target, vt);
        d[0] = vt[0] - l->position[0];
        d[1] = vt[1] - l->position[1];
        d[2] = vt[2] - l->position[2];
        if (kf3ds__normalize3f(d) == 0.0f)
            return;
        memcpy(l->direction, d, sizeof d);
        if (!(falloff > 0.0f && falloff <= 360.0f))
            falloff = 90.0f;
        if (!(hotspot >= 0.0f && hotspot <= falloff))
            hotspot = falloff;
        if (falloff > 359.0f)
            falloff = 359.0f;
        l->cos_hotspot = (float)cos(hotspot * 0.5 * KF3DS__DEG2RAD);
        l->cos_falloff = (float)cos(falloff * 0.5 * KF3DS__DEG2RAD);
        l->is_spot = 1;
    }
    r->num_lights++;
}

int kf3ds__light_node(const kf3ds_scene *s, const kf3ds_pose *poses, uint32_t i, float pos[3],
                      float target_pos[3], const float **target,
                      const kf3ds_light **editor_light)
{
    const kf3ds_node *n = &s->nodes[i];
    *target = NULL;
    *editor_light = NULL;
    if (n->type != KF3DS_NODE_LIGHT && n->type != KF3DS_NODE_SPOT)
        return 0;
    if (n->light >= 0 && (uint32_t)n->light < s->num_lights)
        *editor_light = &s->lights[n->light];
    kf3ds__pose_position(&poses[i], pos);
    if (n->type == KF3DS_NODE_SPOT) {
        if (n->target >= 0 && (uint32_t)n->target < s->num_nodes) {
            kf3ds__pose_position(&poses[n->target], target_pos);
            *target = target_pos;
        } else if (*editor_light) {
            *target = (*editor_light)->target;
        }
    }
    return 1;
}

void kf3ds__setup_lights(kf3ds_renderer *r, const kf3ds__projection *p, const kf3ds_pose *poses,
                         int no_file_lights)
{
    const kf3ds_scene *s = r->scene;
    float amb[3];
    uint32_t i;
    int k, have_nodes = 0;
    memcpy(amb, s->ambient, sizeof amb);
    r->num_lights = 0;
    if (poses)
        for (i = 0; i < s->num_nodes; i++) {
            const kf3ds_node *n = &s->nodes[i];
            if (n->type == KF3DS_NODE_AMBIENT)
                memcpy(amb, poses[i].color, sizeof amb);
            if (n->type == KF3DS_NODE_LIGHT || n->type == KF3DS_NODE_SPOT)
                have_nodes = 1;
        }
    kf3ds__clamp_color(amb, r->ambient, 1.0f);
    if (!no_file_lights) {
        if (have_nodes) {
            for (i = 0; i < s->num_nodes; i++) {
                const kf3ds_light *el;
                float pos[3], tgt[3];
                const float *tp;
                if (!kf3ds__light_node(s, poses, i, pos, tgt, &tp, &el) || (el && el->off))
                    continue;
                add_light(r, p, pos, poses[i].color, s->nodes[i].type == KF3DS_NODE_SPOT, tp,
                          poses[i].hotspot, poses[i].falloff);
            }
        } else {
            for (i = 0; i < s->num_lights; i++) {
                const kf3ds_light *l = &s->lights[i];
                if (l->off)
                    continue;
                add_light(r, p, l->position, l->color, l->spot, l->target, l->hotspot,
                          l->falloff);
            }
        }
    }
    /* The headlight is dimmer when file lights share the work. */
    for (k = 0; k < 3; k++)
        r->headlight[k] = r->num_lights ? 0.45f : 0.9f;
}

/* The lighting model, as 3DS mixes it, at view-space (px, py, pz) with this
 * unit normal in material slot `material`: the surface colour T (the
 * diffuse colour, or the texture's texel) is lit as
 *     add + mul·T
 * with mul the diffuse light (a small constant fill, the headlight from the
 * eye, +z in view space, and the file lights, spots fading from the hotspot
 * to the falloff cone) and add the ambient light times the material's ambient
 * colour. Phong and metal materials add highlights, Blinn's n·h to the power
 * of the shininess exponent times the shininess strength, per light: in the
 * specular colour for Phong (added), in the surface's own colour for metal
 * (so into mul). Self-illumination moves the result towards T itself; then
 * the atmosphere (environment.c) mixes in the fog colour. The caller flips
 * the normal of a face seen from behind (draw.c). */
void kf3ds__shade_terms(const kf3ds_renderer *r, const float normal[3], float px, float py,
                        float pz, uint32_t material, float add[3], float mul[3])
{
    const kf3ds__render_material *mt = &r->materials[material];
    float n[3], acc[3], spec = 0.0f, nd, vx = 0.0f, vy = 0.0f, vz = 1.0f, vl;
    uint32_t i;
    n[0] = normal[0];
    n[1] = normal[1];
    n[2] = normal[2];
    nd = n[2] > 0.0f ? n[2] : 0.0f;
    acc[0] = KF3DS__FILL_LIGHT + r->headlight[0] * nd;
    acc[1] = KF3DS__FILL_LIGHT + r->headlight[1] * nd;
    acc[2] = KF3DS__FILL_LIGHT + r->headlight[2] * nd;
    if (mt->shine_strength > 0.0f) /* the headlight's highlight: h = the view axis */
        spec += r->headlight[0] * kf3ds__highlight(nd, mt->shine_exponent);
    /* towards the eye, for the file lights' highlights (only they use it:
     * the bench scenes and most files have none) */
    if (r->num_lights && mt->shine_strength > 0.0f) {
        vl = sqrtf(px * px + py * py + pz * pz);
        vx = vl > 0.0f ? -px / vl : 0.0f;
        vy = vl > 0.0f ? -py / vl : 0.0f;
        vz = vl > 0.0f ? -pz / vl : 1.0f;
    }
    for (i = 0; i < r->num_lights; i++) {
        const kf3ds__render_light *l = &r->lights[i];
        float L[3], len2, inv, ndl;
        L[0] = l->position[0] - px;
        L[1] = l->position[1] - py;
        L[2] = l->position[2] - pz;
        len2 = L[0] * L[0] + L[1] * L[1] + L[2] * L[2];
        if (!(len2 > 0.0f))
            continue;
        inv = 1.0f / sqrtf(len2);
        L[0] *= inv;
        L[1] *= inv;
        L[2] *= inv;
        ndl = n[0] * L[0] + n[1] * L[1] + n[2] * L[2];
        if (!(ndl > 0.0f))
            continue;
        if (l->is_spot) {
            float c = -(L[0] * l->direction[0] + L[1] * l->direction[1] + L[2] * l->direction[2]);
            if (c <= l->cos_falloff)
                continue;
            if (c < l->cos_hotspot)
                ndl *= (c - l->cos_falloff) / (l->cos_hotspot - l->cos_falloff);
        }
        acc[0] += l->color[0] * ndl;
        acc[1] += l->color[1] * ndl;
        acc[2] += l->color[2] * ndl;
        if (mt->shine_strength > 0.0f) {
            float h[3], hl, nh;
            h[0] = L[0] + vx;
            h[1] = L[1] + vy;
            h[2] = L[2] + vz;
            hl = sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
            nh = hl > 0.0f ? (n[0] * h[0] + n[1] * h[1] + n[2] * h[2]) / hl : 0.0f;
            spec += (l->color[0] + l->color[1] + l->color[2]) * (1.0f / 3.0f) *
                    kf3ds__highlight(nh, mt->shine_exponent);
        }
    }
    kf3ds__mix_terms(mt, r->ambient, acc, spec, add, mul);
    kf3ds__fog_terms(r, px, py, pz, add, mul);
}
