/* MDATA: meshes, materials, cameras, lights, ambient colour, master scale,
 * background and atmosphere.
 * Runs in both passes: the counting pass only counts the objects, so that
 * the filling pass can fill arrays of the right size. Validation that needs
 * the whole section (face indices, material names, mirrored meshes) happens
 * in kf3ds__finish_editor. */
#include "readers.h"
#include "arena.h"
#include "kmath.h"
#include "read_util.h"
#include <math.h>
#include <string.h>

/* Reads a colour from the colour sub-chunks of `body`; a linear colour wins
 * over the gamma-corrected one, as in lib3ds. Returns 1 when one was found. */
static int read_color(kf3ds__load_ctx *ctx, kf3ds_reader body, uint16_t parent_id, float rgb[3])
{
    kf3ds_chunk c;
    kf3ds_reader b;
    int found = 0, have_linear = 0, i;
    while (kf3ds__next_chunk(ctx, &body, parent_id, &c, &b)) {
        float v[3];
        int linear = c.id == KF3DS_CHUNK_LIN_COLOR_24 || c.id == KF3DS_CHUNK_LIN_COLOR_F;
        if (c.id == KF3DS_CHUNK_COLOR_F || c.id == KF3DS_CHUNK_LIN_COLOR_F) {
            for (i = 0; i < 3; i++)
                v[i] = kf3ds_read_f32(&b);
        } else if (c.id == KF3DS_CHUNK_COLOR_24 || c.id == KF3DS_CHUNK_LIN_COLOR_24) {
            for (i = 0; i < 3; i++)
                v[i] = kf3ds_read_u8(&b) / 255.0f;
        } else {
            continue;
        }
        if (kf3ds__check_short(ctx, &b, &c))
            continue;
        if (have_linear && !linear)
            continue;
        kf3ds__sanitize(ctx, v, 3, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id, "colour");
        memcpy(rgb, v, sizeof v);
        found = 1;
        have_linear |= linear;
    }
    return found;
}

static int read_percentage(kf3ds__load_ctx *ctx, kf3ds_reader body, uint16_t parent_id, float *out)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    int found = 0;
    while (kf3ds__next_chunk(ctx, &body, parent_id, &c, &b)) {
        float v;
        if (c.id == KF3DS_CHUNK_INT_PERCENTAGE)
            v = kf3ds_read_i16(&b) / 100.0f;
        else if (c.id == KF3DS_CHUNK_FLOAT_PERCENTAGE)
            v = kf3ds_read_f32(&b);
        else
            continue;
        if (!kf3ds__check_short(ctx, &b, &c)) {
            kf3ds__sanitize(ctx, &v, 1, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id, "percentage");
            *out = v;
            found = 1;
        }
    }
    return found;
}

static void read_map(kf3ds__load_ctx *ctx, kf3ds_reader body, uint16_t id, kf3ds_texture_map *m)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    uint32_t at = (uint32_t)(body.pos >= 6 ? body.pos - 6 : 0); /* the map chunk */
    m->u_scale = m->v_scale = 1.0f;
    m->strength = 1.0f;
    while (kf3ds__next_chunk(ctx, &body, id, &c, &b)) {
        switch (c.id) {
        case KF3DS_CHUNK_INT_PERCENTAGE: m->strength = kf3ds_read_i16(&b) / 100.0f; break;
        case KF3DS_CHUNK_FLOAT_PERCENTAGE: m->strength = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_MAT_MAPNAME: m->file = kf3ds__read_name(ctx, &b, &c); break;
        case KF3DS_CHUNK_MAT_MAP_TILING: m->tiling = kf3ds_read_u16(&b); break;
        case KF3DS_CHUNK_MAT_MAP_TEXBLUR: m->blur = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_MAT_MAP_USCALE: m->u_scale = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_MAT_MAP_VSCALE: m->v_scale = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_MAT_MAP_UOFFSET: m->u_offset = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_MAT_MAP_VOFFSET: m->v_offset = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_MAT_MAP_ANG: m->rotation = kf3ds_read_f32(&b); break;
        default: break;
        }
        kf3ds__check_short(ctx, &b, &c);
    }
    {
        uint32_t bad = 0, big = 0;
        float *one[7];
        int i;
        one[0] = &m->strength; one[1] = &m->blur; one[2] = &m->u_offset;
        one[3] = &m->v_offset; one[4] = &m->rotation; one[5] = &m->u_scale; one[6] = &m->v_scale;
        for (i = 0; i < 7; i++)
            kf3ds__clean_floats(one[i], 1, i < 5 ? 0.0f : 1.0f, KF3DS__MAX_VALUE, &bad, &big);
        kf3ds__warn_cleaned(ctx, bad, big, at, id, "texture map");
    }
}

static void read_material(kf3ds__load_ctx *ctx, kf3ds_reader body, kf3ds_material *m)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    while (kf3ds__next_chunk(ctx, &body, KF3DS_CHUNK_MAT_ENTRY, &c, &b)) {
        switch (c.id) {
        case KF3DS_CHUNK_MAT_NAME: m->name = kf3ds__read_name(ctx, &b, &c); break;
        case KF3DS_CHUNK_MAT_AMBIENT: read_color(ctx, b, c.id, m->ambient); break;
        case KF3DS_CHUNK_MAT_DIFFUSE: read_color(ctx, b, c.id, m->diffuse); break;
        case KF3DS_CHUNK_MAT_SPECULAR: read_color(ctx, b, c.id, m->specular); break;
        case KF3DS_CHUNK_MAT_SHININESS: read_percentage(ctx, b, c.id, &m->shininess); break;
        case KF3DS_CHUNK_MAT_SHIN2PCT: read_percentage(ctx, b, c.id, &m->shin_strength); break;
        case KF3DS_CHUNK_MAT_TRANSPARENCY: read_percentage(ctx, b, c.id, &m->transparency); break;
        case KF3DS_CHUNK_MAT_SELF_ILPCT: read_percentage(ctx, b, c.id, &m->self_illum); break;
        case KF3DS_CHUNK_MAT_SELF_ILLUM: m->self_illum_flag = 1; break;
        case KF3DS_CHUNK_MAT_TWO_SIDE: m->two_sided = 1; break;
        case KF3DS_CHUNK_MAT_DECAL: m->decal = 1; break;
        case KF3DS_CHUNK_MAT_ADDITIVE: m->additive = 1; break;
        case KF3DS_CHUNK_MAT_WIRE: m->wire = 1; break;
        case KF3DS_CHUNK_MAT_FACEMAP: m->face_map = 1; break;
        case KF3DS_CHUNK_MAT_PHONGSOFT: m->soften = 1; break;
        case KF3DS_CHUNK_MAT_WIRE_SIZE:
            m->wire_size = kf3ds_read_f32(&b);
            if (!b.short_read)
                kf3ds__sanitize(ctx, &m->wire_size, 1, 1.0f, KF3DS__MAX_VALUE, c.offset, c.id,
                                "wire size");
            break;
        case KF3DS_CHUNK_MAT_SHADING: m->shading = kf3ds_read_u16(&b); break;
        case KF3DS_CHUNK_MAT_TEXMAP: read_map(ctx, b, c.id, &m->texture1); break;
        case KF3DS_CHUNK_MAT_TEX2MAP: read_map(ctx, b, c.id, &m->texture2); break;
        case KF3DS_CHUNK_MAT_OPACMAP: read_map(ctx, b, c.id, &m->opacity); break;
        case KF3DS_CHUNK_MAT_BUMPMAP: read_map(ctx, b, c.id, &m->bump); break;
        case KF3DS_CHUNK_MAT_SPECMAP: read_map(ctx, b, c.id, &m->specular_map); break;
        case KF3DS_CHUNK_MAT_SHINMAP: read_map(ctx, b, c.id, &m->shininess_map); break;
        case KF3DS_CHUNK_MAT_SELFIMAP: read_map(ctx, b, c.id, &m->self_illum_map); break;
        case KF3DS_CHUNK_MAT_REFLMAP: read_map(ctx, b, c.id, &m->reflection); break;
        default: break;
        }
        kf3ds__check_short(ctx, &b, &c);
    }
}

/* Reads a u16 count and validates it against the bytes left: a count beyond
 * the chunk is an error and only the elements present are kept. */
static uint32_t read_count(kf3ds__load_ctx *ctx, kf3ds_reader *b, const kf3ds_chunk *c,
                           size_t element_size)
{
    uint32_t n = kf3ds_read_u16(b);
    size_t fit = kf3ds_reader_left(b) / element_size;
    if (b->short_read) {
        kf3ds__check_short(ctx, b, c);
        return 0;
    }
    if (n > fit) {
        kf3ds__diag(ctx, KF3DS_ERR_TRUNCATED, c->offset, c->id,
                    "count %lu needs %lu bytes but the chunk holds %lu; %lu kept",
                    (unsigned long)n, (unsigned long)(n * element_size),
                    (unsigned long)kf3ds_reader_left(b), (unsigned long)fit);
        n = (uint32_t)fit;
    }
    return n;
}

/* Bulk decoding: once read_count has checked that n elements fit, decode them
 * straight from the bytes (no per-value bounds checks or calls). */
static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static float lef32(const unsigned char *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static void get_f32s(kf3ds_reader *b, float *out, size_t count)
{
    const unsigned char *p = b->data + b->pos;
    size_t i;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (count) {
        memcpy(out, p, count * 4);
        b->pos += count * 4;
        return;
    }
#endif
    for (i = 0; i < count; i++)
        out[i] = lef32(p + 4 * i);
    b->pos += count * 4;
}
static void get_u16s(kf3ds_reader *b, uint16_t *out, size_t count)
{
    const unsigned char *p = b->data + b->pos;
    size_t i;
    for (i = 0; i < count; i++)
        out[i] = le16(p + 2 * i);
    b->pos += count * 2;
}

static void read_faces(kf3ds__load_ctx *ctx, kf3ds_reader b, const kf3ds_chunk *fc, kf3ds_mesh *m)
{
    kf3ds_chunk c;
    kf3ds_reader sb, sub;
    kf3ds_chunk_result r;
    uint32_t i, n = read_count(ctx, &b, fc, 8), groups = 0, num_smooth = 0;
    const unsigned char *p, *smooth = NULL;
    m->groups = NULL; /* a second FACE_ARRAY replaces the first entirely */
    m->num_groups = 0;
    m->num_faces = 0;
    m->smoothing = NULL;
    m->face_materials = NULL;
    m->faces = (kf3ds_face *)kf3ds__arena_alloc_raw(ctx->arena, n, sizeof(kf3ds_face));
    if (!m->faces)
        return;
    m->num_faces = n;
    /* Look at the sub-chunks first: how many material groups there are, and
     * where the smoothing groups are, so that the faces are written once. */
    sub = b;
    sub.pos += (size_t)n * 8;
    while ((r = kf3ds_chunk_next(&sub, &c, &sb)) == KF3DS_NEXT_OK || r == KF3DS_NEXT_CLAMPED) {
        if (c.id == KF3DS_CHUNK_MSH_MAT_GROUP) {
            groups++;
        } else if (c.id == KF3DS_CHUNK_SMOOTH_GROUP) {
            smooth = sb.data + sb.pos;
            num_smooth = (uint32_t)(kf3ds_reader_left(&sb) / 4);
            if (num_smooth < n)
                kf3ds__diag(ctx, KF3DS_ERR_TRUNCATED, c.offset, c.id,
                            "%lu smoothing %s for %lu %s", (unsigned long)num_smooth,
                            num_smooth == 1 ? "group" : "groups", (unsigned long)n,
                            n == 1 ? "face" : "faces");
        }
    }
    p = b.data + b.pos;
    for (i = 0; i < n; i++, p += 8) {
        kf3ds_face *f = &m->faces[i];
        f->v[0] = le16(p);
        f->v[1] = le16(p + 2);
        f->v[2] = le16(p + 4);
        f->flags = le16(p + 6);
    }
    b.pos += (size_t)n * 8;
    if (smooth && n) {
        m->smoothing = (uint32_t *)kf3ds__arena_alloc(ctx->arena, n, sizeof(uint32_t));
        for (i = 0; m->smoothing && i < n && i < num_smooth; i++)
            m->smoothing[i] = le32(smooth + 4 * (size_t)i);
    }
    m->groups = (kf3ds_material_group *)kf3ds__arena_alloc(ctx->arena, groups, sizeof *m->groups);
    while (kf3ds__next_chunk(ctx, &b, fc->id, &c, &sb)) {
        if (c.id == KF3DS_CHUNK_MSH_MAT_GROUP && m->groups && m->num_groups < groups) {
            kf3ds_material_group *g = &m->groups[m->num_groups++];
            uint32_t k;
            g->material_name = kf3ds__read_name(ctx, &sb, &c);
            g->material = KF3DS_NONE;
            k = read_count(ctx, &sb, &c, 2);
            g->faces = (uint16_t *)kf3ds__arena_alloc_raw(ctx->arena, k, 2);
            if (g->faces) {
                g->num_faces = k;
                get_u16s(&sb, g->faces, k);
            }
        }
    }
}

static void read_mesh(kf3ds__load_ctx *ctx, kf3ds_reader body, kf3ds_mesh *m)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    uint32_t i, n;
    kf3ds_mat4_identity(&m->matrix);
    while (kf3ds__next_chunk(ctx, &body, KF3DS_CHUNK_N_TRI_OBJECT, &c, &b)) {
        switch (c.id) {
        case KF3DS_CHUNK_POINT_ARRAY:
            n = read_count(ctx, &b, &c, 12);
            m->points = (float(*)[3])kf3ds__arena_alloc_raw(ctx->arena, n, sizeof *m->points);
            if (!m->points)
                break;
            m->num_points = n;
            get_f32s(&b, &m->points[0][0], (size_t)n * 3);
            kf3ds__sanitize(ctx, &m->points[0][0], (size_t)n * 3, 0.0f, KF3DS__MAX_VALUE,
                            c.offset, c.id, "vertices");
            break;
        case KF3DS_CHUNK_POINT_FLAG_ARRAY:
            n = read_count(ctx, &b, &c, 2);
            m->point_flags = (uint16_t *)kf3ds__arena_alloc_raw(ctx->arena, n, 2);
            if (!m->point_flags)
                break;
            m->num_point_flags = n;
            get_u16s(&b, m->point_flags, n);
            break;
        case KF3DS_CHUNK_FACE_ARRAY:
            read_faces(ctx, b, &c, m);
            break;
        case KF3DS_CHUNK_TEX_VERTS:
            n = read_count(ctx, &b, &c, 8);
            m->texcoords = (float(*)[2])kf3ds__arena_alloc_raw(ctx->arena, n, sizeof *m->texcoords);
            if (!m->texcoords)
                break;
            m->num_texcoords = n;
            get_f32s(&b, &m->texcoords[0][0], (size_t)n * 2);
            kf3ds__sanitize(ctx, &m->texcoords[0][0], (size_t)n * 2, 0.0f, KF3DS__MAX_VALUE,
                            c.offset, c.id, "texture coordinates");
            break;
        case KF3DS_CHUNK_MESH_MATRIX: {
            float v[12];
            for (i = 0; i < 12; i++)
                v[i] = kf3ds_read_f32(&b);
            if (kf3ds__check_short(ctx, &b, &c))
                break;
            /* a NaN or infinite entry is taken from the identity */
            {
                uint32_t bad = 0, big = 0;
                for (i = 0; i < 12; i++)
                    kf3ds__clean_floats(&v[i], 1, i < 9 && i % 4 == 0 ? 1.0f : 0.0f,
                                        KF3DS__MAX_VALUE, &bad, &big);
                kf3ds__warn_cleaned(ctx, bad, big, c.offset, c.id, "mesh matrix");
            }
            /* X axis, Y axis, Z axis, origin: the columns of M. */
            for (i = 0; i < 4; i++) {
                m->matrix.m[0][i] = v[i * 3 + 0];
                m->matrix.m[1][i] = v[i * 3 + 1];
                m->matrix.m[2][i] = v[i * 3 + 2];
            }
            m->has_matrix = 1;
            break;
        }
        case KF3DS_CHUNK_MESH_COLOR:
            m->color = kf3ds_read_u8(&b);
            break;
        default:
            break;
        }
        kf3ds__check_short(ctx, &b, &c);
    }
}

static void read_camera(kf3ds__load_ctx *ctx, kf3ds_reader body, const kf3ds_chunk *cc,
                        kf3ds_camera *cam)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    int i;
    for (i = 0; i < 3; i++)
        cam->position[i] = kf3ds_read_f32(&body);
    for (i = 0; i < 3; i++)
        cam->target[i] = kf3ds_read_f32(&body);
    cam->roll = kf3ds_read_f32(&body);
    cam->lens = kf3ds_read_f32(&body);
    /* (what was read before a short read is kept: check it too) */
    kf3ds__sanitize(ctx, cam->position, 3, 0.0f, KF3DS__MAX_VALUE, cc->offset, cc->id,
                    "camera position");
    kf3ds__sanitize(ctx, cam->target, 3, 0.0f, KF3DS__MAX_VALUE, cc->offset, cc->id,
                    "camera target");
    kf3ds__sanitize(ctx, &cam->roll, 1, 0.0f, KF3DS__MAX_VALUE, cc->offset, cc->id, "camera roll");
    kf3ds__sanitize(ctx, &cam->lens, 1, 0.0f, KF3DS__MAX_VALUE, cc->offset, cc->id, "camera lens");
    /* a lens cut short reads as 0 and gives 45 degrees, as a lens of 0 written
       out would on reload (docs/evaluation.md, "Cameras") */
    cam->fov = fabsf(cam->lens) < 1e-6f ? 45.0f : 2400.0f / cam->lens;
    if (kf3ds__check_short(ctx, &body, cc))
        return;
    while (kf3ds__next_chunk(ctx, &body, cc->id, &c, &b)) {
        if (c.id == KF3DS_CHUNK_CAM_SEE_CONE) {
            cam->see_cone = 1;
        } else if (c.id == KF3DS_CHUNK_CAM_RANGES) {
            cam->near_range = kf3ds_read_f32(&b);
            cam->far_range = kf3ds_read_f32(&b);
            kf3ds__check_short(ctx, &b, &c);
            {
                uint32_t bad = 0, big = 0;
                kf3ds__clean_floats(&cam->near_range, 1, 0.0f, KF3DS__MAX_VALUE, &bad, &big);
                kf3ds__clean_floats(&cam->far_range, 1, 0.0f, KF3DS__MAX_VALUE, &bad, &big);
                kf3ds__warn_cleaned(ctx, bad, big, c.offset, c.id, "camera ranges");
            }
        }
    }
}

static void read_spot(kf3ds__load_ctx *ctx, kf3ds_reader b, const kf3ds_chunk *sc, kf3ds_light *l)
{
    kf3ds_chunk c;
    kf3ds_reader sb;
    int i;
    l->spot = 1;
    for (i = 0; i < 3; i++)
        l->target[i] = kf3ds_read_f32(&b);
    l->hotspot = kf3ds_read_f32(&b);
    l->falloff = kf3ds_read_f32(&b);
    kf3ds__sanitize(ctx, l->target, 3, 0.0f, KF3DS__MAX_VALUE, sc->offset, sc->id,
                    "spotlight target");
    kf3ds__sanitize(ctx, &l->hotspot, 1, 0.0f, KF3DS__MAX_VALUE, sc->offset, sc->id, "hotspot");
    kf3ds__sanitize(ctx, &l->falloff, 1, 0.0f, KF3DS__MAX_VALUE, sc->offset, sc->id, "falloff");
    if (kf3ds__check_short(ctx, &b, sc))
        return;
    while (kf3ds__next_chunk(ctx, &b, sc->id, &c, &sb)) {
        switch (c.id) {
        case KF3DS_CHUNK_DL_SPOT_ROLL:
            l->roll = kf3ds_read_f32(&sb);
            if (!sb.short_read)
                kf3ds__sanitize(ctx, &l->roll, 1, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id,
                                "spotlight roll");
            break;
        case KF3DS_CHUNK_DL_SHADOWED: l->shadowed = 1; break;
        case KF3DS_CHUNK_DL_SEE_CONE: l->see_cone = 1; break;
        case KF3DS_CHUNK_DL_SPOT_RECTANGULAR: l->rectangular = 1; break;
        case KF3DS_CHUNK_DL_SPOT_OVERSHOOT: l->overshoot = 1; break;
        default: break;
        }
        kf3ds__check_short(ctx, &sb, &c);
    }
}

static void read_light(kf3ds__load_ctx *ctx, kf3ds_reader body, const kf3ds_chunk *lc, kf3ds_light *l)
{
    kf3ds_chunk c;
    kf3ds_reader b;
    int i, have_linear = 0;
    for (i = 0; i < 3; i++)
        l->position[i] = kf3ds_read_f32(&body);
    l->color[0] = l->color[1] = l->color[2] = 1.0f;
    l->multiplier = 1.0f;
    kf3ds__sanitize(ctx, l->position, 3, 0.0f, KF3DS__MAX_VALUE, lc->offset, lc->id,
                    "light position");
    if (kf3ds__check_short(ctx, &body, lc))
        return;
    while (kf3ds__next_chunk(ctx, &body, lc->id, &c, &b)) {
        switch (c.id) {
        case KF3DS_CHUNK_COLOR_F: case KF3DS_CHUNK_LIN_COLOR_F:
            if (have_linear && c.id == KF3DS_CHUNK_COLOR_F)
                break;
            for (i = 0; i < 3; i++)
                l->color[i] = kf3ds_read_f32(&b);
            have_linear |= c.id == KF3DS_CHUNK_LIN_COLOR_F;
            break;
        case KF3DS_CHUNK_COLOR_24: case KF3DS_CHUNK_LIN_COLOR_24:
            if (have_linear && c.id == KF3DS_CHUNK_COLOR_24)
                break;
            for (i = 0; i < 3; i++)
                l->color[i] = kf3ds_read_u8(&b) / 255.0f;
            have_linear |= c.id == KF3DS_CHUNK_LIN_COLOR_24;
            break;
        case KF3DS_CHUNK_DL_OFF: l->off = 1; break;
        case KF3DS_CHUNK_DL_ATTENUATE: l->attenuate = 1; break;
        case KF3DS_CHUNK_DL_INNER_RANGE: l->inner_range = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_DL_OUTER_RANGE: l->outer_range = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_DL_MULTIPLIER: l->multiplier = kf3ds_read_f32(&b); break;
        case KF3DS_CHUNK_DL_SPOTLIGHT: read_spot(ctx, b, &c, l); break;
        default: break;
        }
        kf3ds__check_short(ctx, &b, &c);
    }
    {
        uint32_t bad = 0, big = 0;
        kf3ds__clean_floats(l->color, 3, 1.0f, KF3DS__MAX_VALUE, &bad, &big);
        kf3ds__clean_floats(&l->inner_range, 1, 0.0f, KF3DS__MAX_VALUE, &bad, &big);
        kf3ds__clean_floats(&l->outer_range, 1, 0.0f, KF3DS__MAX_VALUE, &bad, &big);
        kf3ds__clean_floats(&l->multiplier, 1, 1.0f, KF3DS__MAX_VALUE, &bad, &big);
        kf3ds__warn_cleaned(ctx, bad, big, lc->offset, lc->id, "light colour or ranges");
    }
}

/* ---- background and atmosphere (docs/format.md, 'Background and atmosphere') */

/* Floats at the start of a payload, cleaned (NaN and huge values become
 * `fallback`, with one warning). Returns 0 after a short read. */
static int read_floats(kf3ds__load_ctx *ctx, kf3ds_reader *b, const kf3ds_chunk *c, float *v, int n,
                       const char *what)
{
    uint32_t bad = 0, big = 0;
    int i;
    for (i = 0; i < n; i++)
        v[i] = kf3ds_read_f32(b);
    if (kf3ds__check_short(ctx, b, c))
        return 0;
    kf3ds__clean_floats(v, (size_t)n, 0.0f, KF3DS__MAX_VALUE, &bad, &big);
    kf3ds__warn_cleaned(ctx, bad, big, c->offset, c->id, what);
    return 1;
}

/* V_GRADIENT: the middle colour's position, then three colours, top first,
 * each a COLOR_ chunk that a linear one after it may replace. */
static void read_gradient(kf3ds__load_ctx *ctx, kf3ds_reader b, const kf3ds_chunk *gc,
                          kf3ds_environment *e)
{
    kf3ds_chunk c;
    kf3ds_reader cb;
    int slot = -1, i;
    if (!read_floats(ctx, &b, gc, &e->gradient_mid, 1, "gradient position"))
        return;
    while (kf3ds__next_chunk(ctx, &b, gc->id, &c, &cb)) {
        int linear = c.id == KF3DS_CHUNK_LIN_COLOR_F || c.id == KF3DS_CHUNK_LIN_COLOR_24;
        float v[3];
        if (c.id == KF3DS_CHUNK_COLOR_F || c.id == KF3DS_CHUNK_LIN_COLOR_F) {
            for (i = 0; i < 3; i++)
                v[i] = kf3ds_read_f32(&cb);
        } else if (c.id == KF3DS_CHUNK_COLOR_24 || c.id == KF3DS_CHUNK_LIN_COLOR_24) {
            for (i = 0; i < 3; i++)
                v[i] = kf3ds_read_u8(&cb) / 255.0f;
        } else {
            continue;
        }
        if (!linear || slot < 0)
            slot++;
        if (kf3ds__check_short(ctx, &cb, &c) || slot > 2)
            continue;
        kf3ds__sanitize(ctx, v, 3, 0.0f, KF3DS__MAX_VALUE, c.offset, c.id, "colour");
        memcpy(e->gradient[slot], v, sizeof v);
    }
}

/* FOG, LAYER_FOG, DISTANCE_CUE: fixed floats, then a colour and the flag
 * that fogs the background. */
static void read_atmosphere(kf3ds__load_ctx *ctx, kf3ds_reader b, const kf3ds_chunk *c,
                            kf3ds_environment *e)
{
    float v[4];
    kf3ds_chunk sc;
    kf3ds_reader sb;
    if (c->id == KF3DS_CHUNK_LAYER_FOG) {
        if (!read_floats(ctx, &b, c, v, 3, "layer fog"))
            return;
        e->layer_flags = kf3ds_read_u32(&b);
        if (kf3ds__check_short(ctx, &b, c))
            return;
        e->layer_bottom = v[0];
        e->layer_top = v[1];
        e->layer_density = v[2];
        read_color(ctx, b, c->id, e->layer_color);
        return;
    }
    if (!read_floats(ctx, &b, c, v, 4, c->id == KF3DS_CHUNK_FOG ? "fog" : "distance cue"))
        return;
    if (c->id == KF3DS_CHUNK_FOG) {
        e->fog_near = v[0];
        e->fog_near_density = v[1] / 100.0f;
        e->fog_far = v[2];
        e->fog_far_density = v[3] / 100.0f;
        read_color(ctx, b, c->id, e->fog_color);
    } else {
        e->cue_near = v[0];
        e->cue_near_dim = v[1] / 100.0f;
        e->cue_far = v[2];
        e->cue_far_dim = v[3] / 100.0f;
    }
    while (kf3ds__next_chunk(ctx, &b, c->id, &sc, &sb)) {
        if (sc.id == KF3DS_CHUNK_FOG_BGND && c->id == KF3DS_CHUNK_FOG)
            e->fog_background = 1;
        if (sc.id == KF3DS_CHUNK_DCUE_BGND && c->id == KF3DS_CHUNK_DISTANCE_CUE)
            e->cue_background = 1;
    }
}

/* The USE_ chunks: one background and one atmosphere are in effect; when a
 * file has several, the first of the order below wins (the 3DS toolkit's). */
static void use_environment(kf3ds_environment *e, uint16_t id)
{
    static const uint16_t order[6] = { KF3DS_CHUNK_USE_BIT_MAP, KF3DS_CHUNK_USE_SOLID_BGND,
                                       KF3DS_CHUNK_USE_V_GRADIENT, KF3DS_CHUNK_USE_FOG,
                                       KF3DS_CHUNK_USE_LAYER_FOG,
                                       KF3DS_CHUNK_USE_DISTANCE_CUE };
    int i;
    for (i = 0; i < 6 && order[i] != id; i++)
        continue;
    if (i < 3 && (e->background == KF3DS_BACKGROUND_NONE || (int)e->background > i + 1))
        e->background = (kf3ds_background_kind)(i + 1);
    else if (i >= 3 && i < 6 &&
             (e->atmosphere == KF3DS_ATMOSPHERE_NONE || (int)e->atmosphere > i - 2))
        e->atmosphere = (kf3ds_atmosphere_kind)(i - 2);
}

/* Takes the next slot of an array sized by the counting pass (NULL in the
 * counting pass or when full). */
#define NEXT_SLOT(ctx, arr, num, cap) \
    ((ctx)->pass == KF3DS__PASS_COUNT ? ((num)++, NULL) : ((num) < (cap) ? &(arr)[(num)++] : NULL))

static void read_named_object(kf3ds__load_ctx *ctx, kf3ds_reader body, const kf3ds_chunk *oc)
{
    kf3ds_scene *s = ctx->scene;
    kf3ds_chunk c;
    kf3ds_reader b;
    const char *name = "";
    int hidden = 0;
    if (ctx->pass == KF3DS__PASS_FILL)
        name = kf3ds__read_name(ctx, &body, oc);
    else
        kf3ds_read_cstr(&body, NULL, NULL);
    while (kf3ds__next_chunk(ctx, &body, oc->id, &c, &b)) {
        if (c.id == KF3DS_CHUNK_OBJ_HIDDEN)
            hidden = 1;
        if (c.id == KF3DS_CHUNK_N_TRI_OBJECT) {
            kf3ds_mesh *m = NEXT_SLOT(ctx, s->meshes, s->num_meshes, ctx->cap_meshes);
            if (m) {
                m->name = name;
                m->hidden = (uint8_t)hidden;
                read_mesh(ctx, b, m);
            }
        } else if (c.id == KF3DS_CHUNK_N_DIRECT_LIGHT) {
            kf3ds_light *l = NEXT_SLOT(ctx, s->lights, s->num_lights, ctx->cap_lights);
            if (l) {
                l->name = name;
                l->hidden = (uint8_t)hidden;
                read_light(ctx, b, &c, l);
            }
        } else if (c.id == KF3DS_CHUNK_N_CAMERA) {
            kf3ds_camera *cam = NEXT_SLOT(ctx, s->cameras, s->num_cameras, ctx->cap_cameras);
            if (cam) {
                cam->name = name;
                cam->hidden = (uint8_t)hidden;
                read_camera(ctx, b, &c, cam);
            }
        }
    }
}

void kf3ds__read_mdata(kf3ds__load_ctx *ctx, const kf3ds_reader *mdata_body)
{
    kf3ds_scene *s = ctx->scene;
    kf3ds_reader it = *mdata_body;
    kf3ds_chunk c;
    kf3ds_reader b;
    while (kf3ds__next_chunk(ctx, &it, KF3DS_CHUNK_MDATA, &c, &b)) {
        if (c.id == KF3DS_CHUNK_MAT_ENTRY) {
            kf3ds_material *m = NEXT_SLOT(ctx, s->materials, s->num_materials, ctx->cap_materials);
            if (m) {
                m->name = "";
                read_material(ctx, b, m);
            }
        } else if (c.id == KF3DS_CHUNK_NAMED_OBJECT) {
            read_named_object(ctx, b, &c);
        } else if (ctx->pass == KF3DS__PASS_FILL) {
            switch (c.id) {
            case KF3DS_CHUNK_MESH_VERSION: s->mesh_version = kf3ds_read_u32(&b); break;
            case KF3DS_CHUNK_MASTER_SCALE:
                s->master_scale = kf3ds_read_f32(&b);
                if (!b.short_read)
                    kf3ds__sanitize(ctx, &s->master_scale, 1, 1.0f, KF3DS__MAX_VALUE, c.offset,
                                    c.id, "master scale");
                break;
            case KF3DS_CHUNK_AMBIENT_LIGHT: read_color(ctx, b, c.id, s->ambient); break;
            case KF3DS_CHUNK_BIT_MAP: s->environment.bitmap = kf3ds__read_name(ctx, &b, &c); break;
            case KF3DS_CHUNK_SOLID_BGND: read_color(ctx, b, c.id, s->environment.solid); break;
            case KF3DS_CHUNK_V_GRADIENT: read_gradient(ctx, b, &c, &s->environment); break;
            case KF3DS_CHUNK_FOG:
            case KF3DS_CHUNK_LAYER_FOG:
            case KF3DS_CHUNK_DISTANCE_CUE: read_atmosphere(ctx, b, &c, &s->environment); break;
            case KF3DS_CHUNK_USE_BIT_MAP:
            case KF3DS_CHUNK_USE_SOLID_BGND:
            case KF3DS_CHUNK_USE_V_GRADIENT:
            case KF3DS_CHUNK_USE_FOG:
            case KF3DS_CHUNK_USE_LAYER_FOG:
            case KF3DS_CHUNK_USE_DISTANCE_CUE: use_environment(&s->environment, c.id); break;
            default: break;
            }
            kf3ds__check_short(ctx, &b, &c);
        }
    }
}

static int inverse_in_range(const kf3ds_mat4 *inv)
{
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            if (!(fabsf(inv->m[i][j]) <= KF3DS__MAX_VALUE))
                return 0;
    return 1;
}

/* Saving writes a mirrored mesh's points as the file stored them (source.h). */
static void keep_stored_points(kf3ds__load_ctx *ctx, const kf3ds_mesh *m)
{
    kf3ds__source *src = ctx->source;
    uint32_t index = (uint32_t)(m - ctx->scene->meshes);
    float(*copy)[3];
    if (!src || !m->num_points)
        return;
    if (!src->stored_points) {
        src->stored_points = (const float(**)[3])kf3ds__arena_alloc(
            ctx->arena, ctx->scene->num_meshes, sizeof *src->stored_points);
        if (!src->stored_points)
            return;
        src->num_stored_points = ctx->scene->num_meshes;
    }
    copy = (float(*)[3])kf3ds__arena_alloc_raw(ctx->arena, m->num_points, sizeof *copy);
    if (copy && index < src->num_stored_points) {
        memcpy(copy, m->points, (size_t)m->num_points * sizeof *copy);
        src->stored_points[index] = (const float(*)[3])copy;
    }
}

static void validate_mesh(kf3ds__load_ctx *ctx, kf3ds_mesh *m)
{
    kf3ds_scene *s = ctx->scene;
    uint32_t i, j, bad = 0;
    if (!m->name)
        m->name = "";
    for (i = 0; i < m->num_faces; i++) {
        kf3ds_face *f = &m->faces[i];
        if (f->v[0] >= m->num_points || f->v[1] >= m->num_points || f->v[2] >= m->num_points) {
            f->v[0] = f->v[1] = f->v[2] = 0; /* degenerate: draws nothing */
            bad++;
        }
    }
    if (bad) {
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, 0, KF3DS_CHUNK_FACE_ARRAY,
                    "mesh '%s': %lu %s missing vertices; made degenerate", m->name,
                    (unsigned long)bad, bad == 1 ? "face indexes" : "faces index");
        if (!m->num_points)
            m->num_faces = 0;
    }
    for (i = 0; i < m->num_groups; i++) {
        kf3ds_material_group *g = &m->groups[i];
        uint32_t kept = 0;
        if (!g->material_name)
            g->material_name = "";
        for (j = 0; j < s->num_materials; j++)
            if (strcmp(s->materials[j].name, g->material_name) == 0) {
                g->material = (int32_t)j;
                break;
            }
        if (g->material == KF3DS_NONE)
            kf3ds__diag(ctx, KF3DS_WARN_REFERENCE, 0, KF3DS_CHUNK_MSH_MAT_GROUP,
                        "mesh '%s' uses unknown material '%s'", m->name, g->material_name);
        if (!m->face_materials && m->num_faces) {
            m->face_materials =
                (int32_t *)kf3ds__arena_alloc_raw(ctx->arena, m->num_faces, sizeof(int32_t));
            for (j = 0; m->face_materials && j < m->num_faces; j++)
                m->face_materials[j] = KF3DS_NONE;
        }
        for (j = 0; j < g->num_faces; j++)
            if (g->faces[j] < m->num_faces) {
                g->faces[kept++] = g->faces[j];
                if (m->face_materials)
                    m->face_materials[g->faces[j]] = g->material;
            }
        if (kept < g->num_faces)
            kf3ds__diag(ctx, KF3DS_WARN_VALUE, 0, KF3DS_CHUNK_MSH_MAT_GROUP,
                        "mesh '%s': %lu material face %s out of range dropped", m->name,
                        (unsigned long)(g->num_faces - kept),
                        g->num_faces - kept == 1 ? "index" : "indices");
        g->num_faces = kept;
    }
    if (!kf3ds_mat4_invert(&m->matrix, &m->inv_matrix))
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, 0, KF3DS_CHUNK_MESH_MATRIX,
                    "mesh '%s': MESH_MATRIX is singular; identity used", m->name);
    else if (!inverse_in_range(&m->inv_matrix)) {
        /* So nearly singular that its inverse would blow vertices up beyond
         * the supported range: treated as singular. */
        kf3ds_mat4_identity(&m->inv_matrix);
        kf3ds__diag(ctx, KF3DS_WARN_VALUE, 0, KF3DS_CHUNK_MESH_MATRIX,
                    "mesh '%s': MESH_MATRIX is nearly singular; identity used", m->name);
    }
    if (kf3ds__mat4_det3(&m->matrix) < 0.0f) {
        /* Mirrored object: v <- M·S(-1,1,1)·M⁻¹·v, as lib3ds does at load. */
        kf3ds_mat4 flip, fix;
        keep_stored_points(ctx, m);
        kf3ds_mat4_identity(&flip);
        flip.m[0][0] = -1.0f;
        kf3ds_mat4_mul(&m->matrix, &flip, &fix);
        kf3ds_mat4_mul(&fix, &m->inv_matrix, &fix);
        for (i = 0; i < m->num_points; i++)
            kf3ds_mat4_transform_point(&fix, m->points[i], m->points[i]);
        m->mirrored = 1;
        /* an ill-conditioned M can throw the mirrored points out of range */
        if (m->num_points)
            kf3ds__sanitize(ctx, &m->points[0][0], (size_t)m->num_points * 3, 0.0f,
                            KF3DS__MAX_VALUE, 0, KF3DS_CHUNK_POINT_ARRAY, "mirrored vertices");
    }
}

void kf3ds__finish_editor(kf3ds__load_ctx *ctx)
{
    kf3ds_scene *s = ctx->scene;
    uint32_t i, j;
    if (!s->environment.bitmap)
        s->environment.bitmap = "";
    for (i = 0; i < s->num_materials; i++) {
        kf3ds_material *m = &s->materials[i];
        if (!m->name)
            m->name = "";
        for (j = 0; j < KF3DS_MAP_COUNT; j++) {
            kf3ds_texture_map *map = (kf3ds_texture_map *)kf3ds_material_map(m, (kf3ds_map_kind)j);
            if (!map->file)
                map->file = "";
        }
    }
    for (i = 0; i < s->num_meshes; i++)
        validate_mesh(ctx, &s->meshes[i]);
}
