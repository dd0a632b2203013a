/* The bounds-checked chunk walker: little-endian reads that work on any host,
 * sub-chunk iteration by length, and the id → name table. */
#include "internal.h"
#include <string.h>

kf3ds_reader kf3ds_reader_make(const void *data, size_t size)
{
    kf3ds_reader r;
    r.data = (const unsigned char *)data;
    r.pos = 0;
    r.end = data ? size : 0;
    r.short_read = 0;
    return r;
}

size_t kf3ds_reader_left(const kf3ds_reader *r)
{
    return r->pos < r->end ? r->end - r->pos : 0;
}

/* Returns a pointer to n readable bytes, or NULL (and marks the short read,
 * consuming the rest so that later reads fail too). */
static const unsigned char *take(kf3ds_reader *r, size_t n)
{
    const unsigned char *p;
    if (kf3ds_reader_left(r) < n) {
        r->short_read = 1;
        r->pos = r->end;
        return NULL;
    }
    p = r->data + r->pos;
    r->pos += n;
    return p;
}

uint8_t kf3ds_read_u8(kf3ds_reader *r)
{
    const unsigned char *p = take(r, 1);
    return p ? p[0] : 0;
}

uint16_t kf3ds_read_u16(kf3ds_reader *r)
{
    const unsigned char *p = take(r, 2);
    return p ? (uint16_t)(p[0] | (p[1] << 8)) : 0;
}

uint32_t kf3ds_read_u32(kf3ds_reader *r)
{
    const unsigned char *p = take(r, 4);
    return p ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                   ((uint32_t)p[3] << 24)
             : 0;
}

int16_t kf3ds_read_i16(kf3ds_reader *r)
{
    uint16_t u = kf3ds_read_u16(r);
    return u < 0x8000u ? (int16_t)u : (int16_t)((int32_t)u - 0x10000);
}

int32_t kf3ds_read_i32(kf3ds_reader *r)
{
    uint32_t u = kf3ds_read_u32(r);
    return u < 0x80000000u ? (int32_t)u : (int32_t)(u - 0x80000000u) - 0x7FFFFFFF - 1;
}

float kf3ds_read_f32(kf3ds_reader *r)
{
    uint32_t u = kf3ds_read_u32(r);
    float f;
    memcpy(&f, &u, sizeof f); /* IEEE single on every supported host */
    return f;
}

const char *kf3ds_read_cstr(kf3ds_reader *r, size_t *len, int *terminated)
{
    const unsigned char *start = r->data ? r->data + r->pos : NULL;
    size_t left = kf3ds_reader_left(r);
    const unsigned char *nul = left ? memchr(start, 0, left) : NULL;
    size_t n = nul ? (size_t)(nul - start) : left;
    if (len)
        *len = n;
    if (terminated)
        *terminated = nul != NULL;
    if (nul) {
        r->pos += n + 1;
    } else {
        r->pos = r->end;
        r->short_read = 1;
    }
    return start ? (const char *)start : "";
}

kf3ds_chunk_result kf3ds_chunk_next(kf3ds_reader *parent, kf3ds_chunk *chunk,
                                    kf3ds_reader *body)
{
    size_t left = kf3ds_reader_left(parent);
    size_t pos = parent->pos;
    kf3ds_chunk_result result = KF3DS_CHUNK_OK;
    const unsigned char *p;
    kf3ds_chunk c;

    memset(&c, 0, sizeof c);
    c.offset = (uint32_t)pos;
    if (left == 0) {
        if (chunk)
            *chunk = c;
        return KF3DS_CHUNK_NONE;
    }
    if (left < 6) {
        if (chunk)
            *chunk = c;
        return KF3DS_CHUNK_BAD;
    }
    p = parent->data + pos;
    c.id = (uint16_t)(p[0] | (p[1] << 8));
    c.length = (uint32_t)p[2] | ((uint32_t)p[3] << 8) | ((uint32_t)p[4] << 16) |
               ((uint32_t)p[5] << 24);
    if (c.length < 6) {
        c.end = c.offset;
        if (chunk)
            *chunk = c;
        return KF3DS_CHUNK_BAD;
    }
    if (c.length > left) {
        c.end = (uint32_t)parent->end;
        result = KF3DS_CHUNK_CLAMPED;
    } else {
        c.end = (uint32_t)(pos + c.length);
    }
    parent->pos = c.end;
    if (body) {
        body->data = parent->data;
        body->pos = pos + 6;
        body->end = c.end;
        body->short_read = 0;
    }
    if (chunk)
        *chunk = c;
    return result;
}

typedef struct chunk_name_entry {
    uint16_t id;
    const char *name;
} chunk_name_entry;

/* Sorted by id for binary search. */
static const chunk_name_entry chunk_names[] = {
    {0x0002, "M3D_VERSION"}, {0x0005, "M3D_KFVERSION"},
    {0x0010, "COLOR_F"}, {0x0011, "COLOR_24"}, {0x0012, "LIN_COLOR_24"},
    {0x0013, "LIN_COLOR_F"}, {0x0030, "INT_PERCENTAGE"}, {0x0031, "FLOAT_PERCENTAGE"},
    {0x0032, "DOUBLE_PERCENTAGE"}, {0x0100, "MASTER_SCALE"},
    {0x1100, "BIT_MAP"}, {0x1101, "USE_BIT_MAP"}, {0x1200, "SOLID_BGND"},
    {0x1201, "USE_SOLID_BGND"}, {0x1300, "V_GRADIENT"}, {0x1301, "USE_V_GRADIENT"},
    {0x1400, "LO_SHADOW_BIAS"}, {0x1410, "HI_SHADOW_BIAS"}, {0x1420, "SHADOW_MAP_SIZE"},
    {0x1430, "SHADOW_SAMPLES"}, {0x1440, "SHADOW_RANGE"}, {0x1450, "SHADOW_FILTER"},
    {0x1460, "RAY_BIAS"}, {0x1500, "O_CONSTS"},
    {0x2100, "AMBIENT_LIGHT"}, {0x2200, "FOG"}, {0x2201, "USE_FOG"},
    {0x2210, "FOG_BGND"}, {0x2300, "DISTANCE_CUE"}, {0x2301, "USE_DISTANCE_CUE"},
    {0x2302, "LAYER_FOG"}, {0x2303, "USE_LAYER_FOG"}, {0x2310, "DCUE_BGND"}, {0x2D2D, "SMAGIC"}, {0x2D3D, "LMAGIC"},
    {0x3000, "DEFAULT_VIEW"}, {0x3D3D, "MDATA"}, {0x3D3E, "MESH_VERSION"},
    {0x3DAA, "MLIBMAGIC"}, {0x3DFF, "MATMAGIC"},
    {0x4000, "NAMED_OBJECT"}, {0x4010, "OBJ_HIDDEN"}, {0x4011, "OBJ_VIS_LOFTER"},
    {0x4012, "OBJ_DOESNT_CAST"}, {0x4013, "OBJ_MATTE"}, {0x4014, "OBJ_FAST"},
    {0x4015, "OBJ_PROCEDURAL"}, {0x4016, "OBJ_FROZEN"}, {0x4017, "OBJ_DONT_RCVSHADOW"},
    {0x4100, "N_TRI_OBJECT"}, {0x4110, "POINT_ARRAY"}, {0x4111, "POINT_FLAG_ARRAY"},
    {0x4120, "FACE_ARRAY"}, {0x4130, "MSH_MAT_GROUP"}, {0x4140, "TEX_VERTS"},
    {0x4150, "SMOOTH_GROUP"}, {0x4160, "MESH_MATRIX"}, {0x4165, "MESH_COLOR"},
    {0x4170, "MESH_TEXTURE_INFO"}, {0x4190, "MSH_BOXMAP"},
    {0x4600, "N_DIRECT_LIGHT"}, {0x4610, "DL_SPOTLIGHT"}, {0x4620, "DL_OFF"},
    {0x4625, "DL_ATTENUATE"}, {0x4627, "DL_RAYSHAD"}, {0x4630, "DL_SHADOWED"},
    {0x4640, "DL_LOCAL_SHADOW"}, {0x4641, "DL_LOCAL_SHADOW2"}, {0x4650, "DL_SEE_CONE"},
    {0x4651, "DL_SPOT_RECTANGULAR"}, {0x4652, "DL_SPOT_OVERSHOOT"},
    {0x4653, "DL_SPOT_PROJECTOR"}, {0x4654, "DL_EXCLUDE"}, {0x4655, "DL_RANGE"},
    {0x4656, "DL_SPOT_ROLL"}, {0x4657, "DL_SPOT_ASPECT"}, {0x4658, "DL_RAY_BIAS"},
    {0x4659, "DL_INNER_RANGE"}, {0x465A, "DL_OUTER_RANGE"}, {0x465B, "DL_MULTIPLIER"},
    {0x4700, "N_CAMERA"}, {0x4710, "CAM_SEE_CONE"}, {0x4720, "CAM_RANGES"},
    {0x4D4D, "M3DMAGIC"}, {0x7001, "VIEWPORT_LAYOUT"}, {0x7011, "VIEWPORT_DATA"},
    {0x7012, "VIEWPORT_DATA_3"}, {0x7020, "VIEWPORT_SIZE"},
    {0xA000, "MAT_NAME"}, {0xA010, "MAT_AMBIENT"}, {0xA020, "MAT_DIFFUSE"},
    {0xA030, "MAT_SPECULAR"}, {0xA040, "MAT_SHININESS"}, {0xA041, "MAT_SHIN2PCT"},
    {0xA042, "MAT_SHIN3PCT"}, {0xA050, "MAT_TRANSPARENCY"}, {0xA052, "MAT_XPFALL"},
    {0xA053, "MAT_REFBLUR"}, {0xA080, "MAT_SELF_ILLUM"}, {0xA081, "MAT_TWO_SIDE"},
    {0xA082, "MAT_DECAL"}, {0xA083, "MAT_ADDITIVE"}, {0xA084, "MAT_SELF_ILPCT"},
    {0xA085, "MAT_WIRE"}, {0xA086, "MAT_SUPERSMP"}, {0xA087, "MAT_WIRE_SIZE"},
    {0xA088, "MAT_FACEMAP"}, {0xA08A, "MAT_XPFALLIN"}, {0xA08C, "MAT_PHONGSOFT"},
    {0xA08E, "MAT_WIREABS"}, {0xA100, "MAT_SHADING"}, {0xA200, "MAT_TEXMAP"},
    {0xA204, "MAT_SPECMAP"}, {0xA210, "MAT_OPACMAP"}, {0xA220, "MAT_REFLMAP"},
    {0xA230, "MAT_BUMPMAP"}, {0xA240, "MAT_USE_XPFALL"}, {0xA250, "MAT_USE_REFBLUR"},
    {0xA252, "MAT_BUMP_PERCENT"}, {0xA300, "MAT_MAPNAME"}, {0xA310, "MAT_ACUBIC"},
    {0xA33A, "MAT_TEX2MAP"}, {0xA33C, "MAT_SHINMAP"}, {0xA33D, "MAT_SELFIMAP"},
    {0xA33E, "MAT_TEXMASK"}, {0xA340, "MAT_TEX2MASK"}, {0xA342, "MAT_OPACMASK"},
    {0xA344, "MAT_BUMPMASK"}, {0xA346, "MAT_SHINMASK"}, {0xA348, "MAT_SPECMASK"},
    {0xA34A, "MAT_SELFIMASK"}, {0xA34C, "MAT_REFLMASK"}, {0xA351, "MAT_MAP_TILING"},
    {0xA353, "MAT_MAP_TEXBLUR"}, {0xA354, "MAT_MAP_USCALE"}, {0xA356, "MAT_MAP_VSCALE"},
    {0xA358, "MAT_MAP_UOFFSET"}, {0xA35A, "MAT_MAP_VOFFSET"}, {0xA35C, "MAT_MAP_ANG"},
    {0xA360, "MAT_MAP_COL1"}, {0xA362, "MAT_MAP_COL2"}, {0xA364, "MAT_MAP_RCOL"},
    {0xA366, "MAT_MAP_GCOL"}, {0xA368, "MAT_MAP_BCOL"}, {0xAFFF, "MAT_ENTRY"},
    {0xB000, "KFDATA"}, {0xB001, "AMBIENT_NODE_TAG"}, {0xB002, "OBJECT_NODE_TAG"},
    {0xB003, "CAMERA_NODE_TAG"}, {0xB004, "TARGET_NODE_TAG"}, {0xB005, "LIGHT_NODE_TAG"},
    {0xB006, "L_TARGET_NODE_TAG"}, {0xB007, "SPOTLIGHT_NODE_TAG"}, {0xB008, "KFSEG"},
    {0xB009, "KFCURTIME"}, {0xB00A, "KFHDR"}, {0xB010, "NODE_HDR"},
    {0xB011, "INSTANCE_NAME"}, {0xB012, "PRESCALE"}, {0xB013, "PIVOT"},
    {0xB014, "BOUNDBOX"}, {0xB015, "MORPH_SMOOTH"}, {0xB020, "POS_TRACK_TAG"},
    {0xB021, "ROT_TRACK_TAG"}, {0xB022, "SCL_TRACK_TAG"}, {0xB023, "FOV_TRACK_TAG"},
    {0xB024, "ROLL_TRACK_TAG"}, {0xB025, "COL_TRACK_TAG"}, {0xB026, "MORPH_TRACK_TAG"},
    {0xB027, "HOT_TRACK_TAG"}, {0xB028, "FALL_TRACK_TAG"}, {0xB029, "HIDE_TRACK_TAG"},
    {0xB030, "NODE_ID"}, {0xC23D, "CMAGIC"},
};

const char *kf3ds_chunk_name(uint16_t id)
{
    size_t lo = 0, hi = sizeof chunk_names / sizeof chunk_names[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (chunk_names[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sizeof chunk_names / sizeof chunk_names[0] && chunk_names[lo].id == id)
        return chunk_names[lo].name;
    return NULL;
}
