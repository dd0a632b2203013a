/* The bake module: the frames sampled and the .kfb image laid out byte by
 * byte, as docs/kfb.md describes it. */
#include "bake_internal.h"
#include "kf3ds_kfb.h"
#include <math.h>
#include <string.h>

/* Room left in a fixed-point value for the rounding of a transformed vertex
 * (each of the three products and the sum is rounded once; 4 units cover it). */
#define FIXED_SLACK 4.0

typedef struct channel {
    uint32_t slot;
    int kind, count;
    uint32_t sample;       /* its first number among the sampled numbers of a frame */
    uint32_t first;        /* its first value in each frame of the file, or
                              KF3DS_KFB_NONE when it is constant */
} channel;

/* Everything sampled before it is encoded (the fraction is chosen from the
 * largest value). */
typedef struct samples {
    float *world;          /* frames × nodes × 12 */
    unsigned char *visible; /* frames × nodes */
    float *chan;           /* frames × channel numbers (every channel, varying or not) */
    channel *channels;
    uint32_t num_channels, chan_numbers, varying_numbers;
    double largest;
} samples;

typedef struct writer {
    unsigned char *p;      /* the image */
    int fixed;
    unsigned frac_bits;
    double scale;          /* 2^frac_bits */
    uint32_t strings, str_pos; /* the string section's offset, the next free byte in it */
} writer;

static void wr_u16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void wr_u32(unsigned char *p, uint32_t v)
{
    wr_u16(p, v & 0xFFFFu);
    wr_u16(p + 2, v >> 16);
}

/* A number: IEEE binary32, or round(x·2^N) with halves away from zero
 * (docs/kfb.md, "Numbers"); the range was checked before. */
static void wr_num(const writer *w, unsigned char *p, double x)
{
    if (w->fixed) {
        double r = x * w->scale;
        r = r < 0 ? -floor(-r + 0.5) : floor(r + 0.5);
        wr_u32(p, (uint32_t)(int32_t)r);
    } else {
        float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        wr_u32(p, u);
    }
}

/* A string reference (offset, length) at p and the bytes with their NUL. */
static void wr_str(writer *w, unsigned char *p, const char *s, int optional)
{
    size_t len;
    if (optional && (!s || !*s)) {
        wr_u32(p, KF3DS_KFB_NONE);
        wr_u32(p + 4, 0);
        return;
    }
    len = s ? strlen(s) : 0;
    wr_u32(p, w->str_pos);
    wr_u32(p + 4, (uint32_t)len);
    if (len)
        memcpy(w->p + w->strings + w->str_pos, s, len);
    w->str_pos += (uint32_t)len + 1; /* the NUL is already there (calloc) */
}

static uint64_t str_bytes(const char *s, int optional)
{
    return optional && (!s || !*s) ? 0 : (s ? strlen(s) : 0) + 1;
}

static uint64_t align4(uint64_t v)
{
    return (v + 3) & ~(uint64_t)3;
}

/* ---- sampling ------------------------------------------------------------ */

static void grow(double *largest, double v)
{
    double a = fabs(v);
    if (!(a <= *largest)) /* NaN too: it fits no fixed-point format */
        *largest = isnan(a) ? INFINITY : a;
}

/* The channels of a node type (docs/kfb.md, "Channels"). */
static int type_channels(kf3ds_node_type type, int kinds[4])
{
    int n = 0;
    switch (type) {
    case KF3DS_NODE_CAMERA:
        kinds[n++] = KF3DS_KFB_CHANNEL_FOV;
        kinds[n++] = KF3DS_KFB_CHANNEL_ROLL;
        break;
    case KF3DS_NODE_SPOT:
        kinds[n++] = KF3DS_KFB_CHANNEL_COLOR;
        kinds[n++] = KF3DS_KFB_CHANNEL_HOTSPOT;
        kinds[n++] = KF3DS_KFB_CHANNEL_FALLOFF;
        kinds[n++] = KF3DS_KFB_CHANNEL_ROLL;
        break;
    case KF3DS_NODE_LIGHT:
    case KF3DS_NODE_AMBIENT:
        kinds[n++] = KF3DS_KFB_CHANNEL_COLOR;
        break;
    default:
        break;
    }
    return n;
}

static int channel_values(const kf3ds_pose *p, int kind, float v[3])
{
    switch (kind) {
    case KF3DS_KFB_CHANNEL_FOV: v[0] = p->fov; return 1;
    case KF3DS_KFB_CHANNEL_ROLL: v[0] = p->roll; return 1;
    case KF3DS_KFB_CHANNEL_HOTSPOT: v[0] = p->hotspot; return 1;
    case KF3DS_KFB_CHANNEL_FALLOFF: v[0] = p->falloff; return 1;
    default: memcpy(v, p->color, 3 * sizeof *v); return 3;
    }
}

static void free_samples(const bake_plan *plan, samples *sm)
{
    kf3ds__bake_free(plan, sm->world);
    kf3ds__bake_free(plan, sm->visible);
    kf3ds__bake_free(plan, sm->chan);
    kf3ds__bake_free(plan, sm->channels);
}

static bake_error sample(const kf3ds_scene *s, const bake_plan *plan, const bake_meshes *meshes,
                         samples *sm)
{
    uint32_t nn = plan->num_nodes, nf = plan->num_frames, f, k, c;
    size_t cells = (size_t)nf * nn;
    kf3ds_pose *poses = kf3ds__bake_calloc(plan, s->num_nodes ? s->num_nodes : 1, sizeof *poses);
    memset(sm, 0, sizeof *sm);
    sm->channels = kf3ds__bake_malloc(plan, sizeof *sm->channels * 4 * (nn ? nn : 1));
    for (k = 0; sm->channels && k < nn; k++) {
        int kinds[4], n = type_channels(s->nodes[plan->nodes[k]].type, kinds), j;
        for (j = 0; j < n; j++) {
            channel *ch = &sm->channels[sm->num_channels++];
            ch->slot = k;
            ch->kind = kinds[j];
            ch->count = kinds[j] == KF3DS_KFB_CHANNEL_COLOR ? 3 : 1;
            ch->sample = sm->chan_numbers;
            ch->first = KF3DS_KFB_NONE;
            sm->chan_numbers += (uint32_t)ch->count;
        }
    }
    sm->world = kf3ds__bake_malloc(plan, sizeof *sm->world * 12 * (cells ? cells : 1));
    sm->visible = kf3ds__bake_malloc(plan, cells ? cells : 1);
    sm->chan = kf3ds__bake_malloc(plan, sizeof *sm->chan * ((size_t)nf * sm->chan_numbers + 1));
    if (!poses || !sm->channels || !sm->world || !sm->visible || !sm->chan) {
        kf3ds__bake_free(plan, poses);
        free_samples(plan, sm);
        return BAKE_NOMEM;
    }
    for (f = 0; f < nf; f++) {
        double frame = ((double)plan->frame_first + (double)f * plan->frame_step) /
                       plan->frame_scale;
        kf3ds_scene_eval(s, frame, 0, poses);
        for (k = 0; k < nn; k++) {
            const kf3ds_pose *p = &poses[plan->nodes[k]];
            float *w = sm->world + ((size_t)f * nn + k) * 12;
            int r, col;
            for (r = 0; r < 3; r++)
                for (col = 0; col < 4; col++) {
                    w[4 * r + col] = p->world.m[r][col];
                    grow(&sm->largest, w[4 * r + col]);
                }
            sm->visible[(size_t)f * nn + k] = !p->hidden;
            /* the placed vertices must fit too: an engine computes them */
            if (meshes->of_node[k] >= 0) {
                const bake_mesh *b = &meshes->v[meshes->of_node[k]];
                uint32_t v;
                for (v = 0; v < b->num_vertices; v++)
                    for (r = 0; r < 3; r++)
                        grow(&sm->largest, w[4 * r] * b->vertices[v][0] +
                                               w[4 * r + 1] * b->vertices[v][1] +
                                               w[4 * r + 2] * b->vertices[v][2] + w[4 * r + 3]);
            }
        }
        for (c = 0; c < sm->num_channels; c++) {
            const channel *ch = &sm->channels[c];
            float *v = sm->chan + (size_t)f * sm->chan_numbers + ch->sample;
            int j, n = channel_values(&poses[plan->nodes[ch->slot]], ch->kind, v);
            for (j = 0; j < n; j++)
                grow(&sm->largest, v[j]);
        }
    }
    kf3ds__bake_free(plan, poses);
    /* A channel that never changes is stored once, in its record. */
    for (c = 0; c < sm->num_channels; c++) {
        channel *ch = &sm->channels[c];
        int varies = 0;
        for (f = 1; f < nf && !varies; f++)
            varies = memcmp(sm->chan + (size_t)f * sm->chan_numbers + ch->sample,
                            sm->chan + ch->sample, sizeof(float) * (size_t)ch->count) != 0;
        if (varies) {
            ch->first = sm->varying_numbers;
            sm->varying_numbers += (uint32_t)ch->count;
        }
    }
    return BAKE_OK;
}

/* ---- the image ------------------------------------------------------------ */

static uint8_t unit_byte(float v)
{
    double c = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)floor(c * 255.0 + 0.5);
}

static void wr_material(writer *w, unsigned char *p, const kf3ds_material *m)
{
    int k;
    wr_str(w, p, m->name, 0);
    wr_str(w, p + 8, m->texture1.file, 1);
    for (k = 0; k < 3; k++) {
        p[16 + k] = unit_byte(m->ambient[k]);
        p[19 + k] = unit_byte(m->diffuse[k]);
        p[22 + k] = unit_byte(m->specular[k]);
    }
    p[25] = unit_byte(m->shininess);
    p[26] = unit_byte(m->transparency);
    p[27] = (unsigned char)(m->shading <= 4 ? m->shading : 2);
    p[28] = (unsigned char)((m->two_sided ? KF3DS_KFB_MAT_TWO_SIDED : 0) |
                            (m->additive ? KF3DS_KFB_MAT_ADDITIVE : 0) |
                            (m->wire ? KF3DS_KFB_MAT_WIRE : 0));
}

/* A mesh's record and its arrays, written at data_pos (advanced). */
static void wr_mesh(writer *w, const kf3ds_scene *s, unsigned char *rec, const bake_mesh *b,
                    uint32_t *data_pos)
{
    const kf3ds_mesh *m = &s->meshes[b->source];
    uint32_t verts = *data_pos, faces = verts + 12 * b->num_vertices;
    uint32_t normals = faces + KF3DS_KFB_FACE_SIZE * b->num_faces;
    uint32_t uvs = normals + 12 * b->num_normals, i;
    int k;
    wr_str(w, rec, m->name, 0);
    wr_u32(rec + 8, b->source);
    wr_u32(rec + 12, b->num_vertices);
    wr_u32(rec + 16, b->num_faces);
    wr_u32(rec + 20, b->num_normals);
    wr_u32(rec + 24, b->num_uvs);
    wr_u32(rec + 28, verts);
    wr_u32(rec + 32, faces);
    wr_u32(rec + 36, normals);
    wr_u32(rec + 40, b->num_uvs ? uvs : 0);
    for (i = 0; i < b->num_vertices; i++)
        for (k = 0; k < 3; k++)
            wr_num(w, w->p + verts + 12 * i + 4 * k, b->vertices[i][k]);
    for (i = 0; i < b->num_faces; i++) {
        const kf3ds_face *fc = &m->faces[b->face_source[i]];
        unsigned char *p = w->p + faces + KF3DS_KFB_FACE_SIZE * i;
        int32_t mat = kf3ds_face_material(m, b->face_source[i]);
        for (k = 0; k < 3; k++) {
            wr_u16(p + 2 * k, fc->v[k]);
            wr_u32(p + 16 + 4 * k, b->corner_normals[i][k]);
        }
        wr_u16(p + 6, mat >= 0 && (uint32_t)mat < s->num_materials && mat < 0xFFFF
                          ? (uint32_t)mat : 0xFFFFu);
        wr_u16(p + 8, fc->flags);
        wr_u32(p + 12, kf3ds_face_smoothing(m, b->face_source[i]));
    }
    for (i = 0; i < b->num_normals; i++)
        for (k = 0; k < 3; k++)
            wr_num(w, w->p + normals + 12 * i + 4 * k, b->normals[i][k]);
    for (i = 0; i < b->num_uvs; i++)
        for (k = 0; k < 2; k++)
            wr_num(w, w->p + uvs + 8 * i + 4 * k, m->texcoords[i][k]);
    *data_pos = uvs + 8 * b->num_uvs;
}

/* The most fraction bits with which `largest` (and the rounding slack of a
 * transformed vertex) fits in a signed 32-bit value; -1 when none does. */
static int fitting_frac_bits(double largest)
{
    int n;
    for (n = KF3DS_BAKE_MAX_FRAC_BITS; n >= 0; n--)
        if (largest * ldexp(1.0, n) + FIXED_SLACK <= 2147483647.0)
            return n;
    return -1;
}

/* Where everything goes: the header, then the sections in their fixed order,
 * each at a multiple of 4 (docs/kfb.md, "Layout"). */
typedef struct layout {
    uint64_t sec[7][2];    /* offset, size */
    uint64_t stride, size;
    uint32_t num_materials;
} layout;

static void plan_layout(const kf3ds_scene *s, const bake_plan *plan, const bake_meshes *meshes,
                        const samples *sm, layout *l)
{
    uint64_t strings = 0, mesh_data = 0, pos = KF3DS_KFB_HEADER_SIZE;
    uint32_t nn = plan->num_nodes, i;
    l->num_materials = plan->meshes ? s->num_materials : 0;
    for (i = 0; i < meshes->n; i++) {
        const bake_mesh *b = &meshes->v[i];
        mesh_data += 12ull * b->num_vertices + (uint64_t)KF3DS_KFB_FACE_SIZE * b->num_faces +
                     12ull * b->num_normals + 8ull * b->num_uvs;
        strings += str_bytes(s->meshes[b->source].name, 0);
    }
    for (i = 0; i < nn; i++) {
        const kf3ds_node *n = &s->nodes[plan->nodes[i]];
        strings += str_bytes(n->name, 0) + str_bytes(n->instance, 1);
    }
    for (i = 0; i < l->num_materials; i++)
        strings += str_bytes(s->materials[i].name, 0) + str_bytes(s->materials[i].texture1.file, 1);
    l->stride = 4ull * (12ull * nn + sm->varying_numbers + (nn + 31) / 32);
    l->sec[KF3DS_KFB_SECTION_NODES][1] = (uint64_t)KF3DS_KFB_NODE_SIZE * nn;
    l->sec[KF3DS_KFB_SECTION_CHANNELS][1] = (uint64_t)KF3DS_KFB_CHANNEL_SIZE * sm->num_channels;
    l->sec[KF3DS_KFB_SECTION_FRAMES][1] = l->stride * plan->num_frames;
    l->sec[KF3DS_KFB_SECTION_MESHES][1] = (uint64_t)KF3DS_KFB_MESH_SIZE * meshes->n;
    l->sec[KF3DS_KFB_SECTION_MATERIALS][1] = (uint64_t)KF3DS_KFB_MATERIAL_SIZE * l->num_materials;
    l->sec[KF3DS_KFB_SECTION_MESH_DATA][1] = mesh_data;
    l->sec[KF3DS_KFB_SECTION_STRINGS][1] = align4(strings);
    for (i = 0; i < 7; i++) {
        l->sec[i][0] = pos;
        pos = align4(pos + l->sec[i][1]);
    }
    l->size = pos;
}

static void wr_header(const writer *w, const kf3ds_scene *s, const bake_plan *plan,
                      const bake_meshes *meshes, const samples *sm, const layout *l)
{
    unsigned char *h = w->p;
    int i;
    memcpy(h, "KFB\x1a", 4);
    wr_u16(h + 4, KF3DS_KFB_VERSION);
    wr_u16(h + 6, KF3DS_KFB_HEADER_SIZE);
    wr_u32(h + 8, (uint32_t)l->size);
    wr_u32(h + 12, (plan->fixed ? KF3DS_KFB_FLAG_FIXED : 0) |
                       (plan->meshes ? KF3DS_KFB_FLAG_MESHES : 0));
    h[16] = (unsigned char)w->frac_bits;
    h[17] = 4;
    wr_u32(h + 20, plan->num_nodes);
    wr_u32(h + 24, plan->num_frames);
    wr_u32(h + 28, (uint32_t)plan->frame_first);
    wr_u32(h + 32, (uint32_t)plan->frame_step);
    wr_u32(h + 36, plan->frame_scale);
    wr_u32(h + 40, (uint32_t)s->segment_start);
    wr_u32(h + 44, (uint32_t)s->segment_end);
    wr_u32(h + 48, sm->num_channels);
    wr_u32(h + 52, sm->varying_numbers);
    wr_u32(h + 56, (uint32_t)l->stride);
    wr_u32(h + 60, meshes->n);
    wr_u32(h + 64, l->num_materials);
    for (i = 0; i < 7; i++) {
        wr_u32(h + 72 + 8 * i, (uint32_t)l->sec[i][0]);
        wr_u32(h + 76 + 8 * i, (uint32_t)l->sec[i][1]);
    }
}

/* The node table; 0 on success, -1 out of memory. */
static int wr_nodes(writer *w, const kf3ds_scene *s, const bake_plan *plan,
                    const bake_meshes *meshes, const layout *l)
{
    int32_t *slot_of =
        kf3ds__bake_malloc(plan, sizeof *slot_of * (s->num_nodes ? s->num_nodes : 1));
    uint32_t i;
    if (!slot_of)
        return -1;
    for (i = 0; i < s->num_nodes; i++)
        slot_of[i] = -1;
    for (i = 0; i < plan->num_nodes; i++)
        slot_of[plan->nodes[i]] = (int32_t)i;
    for (i = 0; i < plan->num_nodes; i++) {
        uint32_t index = plan->nodes[i];
        const kf3ds_node *n = &s->nodes[index];
        unsigned char *p = w->p + l->sec[KF3DS_KFB_SECTION_NODES][0] + KF3DS_KFB_NODE_SIZE * i;
        int32_t parent = n->parent >= 0 && (uint32_t)n->parent < s->num_nodes ? n->parent : -1;
        wr_str(w, p, n->name, 0);
        wr_str(w, p + 8, n->instance, 1);
        wr_u32(p + 16, index);
        wr_u32(p + 20, (uint32_t)n->id);
        wr_u32(p + 24, (uint32_t)parent);
        wr_u32(p + 28, (uint32_t)(parent >= 0 ? slot_of[parent] : -1));
        wr_u32(p + 32, (uint32_t)meshes->of_node[i]);
        p[36] = (unsigned char)n->type;
        p[37] = n->is_dummy ? 1 : 0;
    }
    kf3ds__bake_free(plan, slot_of);
    return 0;
}

/* The channel table (a constant in its record) and every frame: matrices, the
 * changing channels' values, the visibility words. */
static void wr_channels_and_frames(const writer *w, const bake_plan *plan, const samples *sm,
                                   const layout *l)
{
    uint32_t nn = plan->num_nodes, f, i, c;
    for (c = 0; c < sm->num_channels; c++) {
        const channel *ch = &sm->channels[c];
        unsigned char *p =
            w->p + l->sec[KF3DS_KFB_SECTION_CHANNELS][0] + KF3DS_KFB_CHANNEL_SIZE * c;
        int k;
        wr_u32(p, ch->slot);
        wr_u16(p + 4, (uint32_t)ch->kind);
        wr_u16(p + 6, (uint32_t)ch->count);
        wr_u32(p + 8, ch->first);
        if (ch->first == KF3DS_KFB_NONE)
            for (k = 0; k < ch->count; k++)
                wr_num(w, p + 12 + 4 * k, sm->chan[ch->sample + (uint32_t)k]);
    }
    for (f = 0; f < plan->num_frames; f++) {
        unsigned char *p = w->p + l->sec[KF3DS_KFB_SECTION_FRAMES][0] + l->stride * f;
        unsigned char *vis = p + 4 * (12 * nn + sm->varying_numbers);
        for (i = 0; i < 12 * nn; i++)
            wr_num(w, p + 4 * i, sm->world[(size_t)f * nn * 12 + i]);
        for (c = 0; c < sm->num_channels; c++) {
            const channel *ch = &sm->channels[c];
            int k;
            if (ch->first == KF3DS_KFB_NONE)
                continue;
            for (k = 0; k < ch->count; k++)
                wr_num(w, p + 4 * (12 * nn + ch->first + (uint32_t)k),
                       sm->chan[(size_t)f * sm->chan_numbers + ch->sample + (uint32_t)k]);
        }
        for (i = 0; i < nn; i++) /* bit i mod 32 of little-endian word i div 32 */
            if (sm->visible[(size_t)f * nn + i])
                vis[4 * (i / 32) + (i % 32) / 8] |= (unsigned char)(1u << (i % 8));
    }
}

bake_error kf3ds__bake_build(const kf3ds_scene *s, const bake_plan *plan,
                             const bake_meshes *meshes, bake_image *img)
{
    samples sm;
    writer w;
    layout l;
    bake_error e;
    uint32_t i, data_pos;

    memset(img, 0, sizeof *img);
    e = sample(s, plan, meshes, &sm);
    if (e != BAKE_OK)
        return e;
    memset(&w, 0, sizeof w);
    w.fixed = plan->fixed;
    img->largest = sm.largest;
    for (i = 0; i < meshes->n; i++) { /* the stored vertices and uvs must fit too */
        const bake_mesh *b = &meshes->v[i];
        uint32_t v;
        int k;
        for (v = 0; v < b->num_vertices; v++)
            for (k = 0; k < 3; k++)
                grow(&img->largest, b->vertices[v][k]);
        for (v = 0; v < b->num_uvs; v++)
            for (k = 0; k < 2; k++)
                grow(&img->largest, s->meshes[b->source].texcoords[v][k]);
    }
    if (plan->fixed) {
        int fit = fitting_frac_bits(img->largest);
        img->frac_bits = plan->frac_bits == KF3DS_BAKE_FRAC_AUTO ? fit : plan->frac_bits;
        if (fit < 0 || img->frac_bits > fit) {
            img->frac_bits = fit;
            free_samples(plan, &sm);
            return BAKE_RANGE;
        }
        w.frac_bits = (unsigned)img->frac_bits;
        w.scale = ldexp(1.0, img->frac_bits);
    }
    plan_layout(s, plan, meshes, &sm, &l);
    if (l.size > 0xFFFFFFFFull) {
        free_samples(plan, &sm);
        return BAKE_TOO_BIG;
    }
    w.p = kf3ds__bake_calloc(plan, 1, (size_t)l.size);
    w.strings = (uint32_t)l.sec[KF3DS_KFB_SECTION_STRINGS][0];
    if (!w.p || wr_nodes(&w, s, plan, meshes, &l) != 0) {
        kf3ds__bake_free(plan, w.p);
        free_samples(plan, &sm);
        return BAKE_NOMEM;
    }
    wr_header(&w, s, plan, meshes, &sm, &l);
    wr_channels_and_frames(&w, plan, &sm, &l);
    data_pos = (uint32_t)l.sec[KF3DS_KFB_SECTION_MESH_DATA][0];
    for (i = 0; i < meshes->n; i++)
        wr_mesh(&w, s, w.p + l.sec[KF3DS_KFB_SECTION_MESHES][0] + KF3DS_KFB_MESH_SIZE * i,
                &meshes->v[i], &data_pos);
    for (i = 0; i < l.num_materials; i++)
        wr_material(&w, w.p + l.sec[KF3DS_KFB_SECTION_MATERIALS][0] + KF3DS_KFB_MATERIAL_SIZE * i,
                    &s->materials[i]);
    img->data = w.p;
    img->size = (size_t)l.size;
    img->num_channels = sm.num_channels;
    img->num_meshes = meshes->n;
    free_samples(plan, &sm);
    return BAKE_OK;
}
