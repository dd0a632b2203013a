/* What the tests' chunk walker (tests/support_malformed.c) and the fuzz
 * mutator (fuzz/mutate3ds.c) know of the chunk tree: which chunks hold
 * sub-chunks, and after how many bytes of their own data (docs/format.md
 * describes the payloads). Header only, so that the fuzz targets need no
 * other support file. */
#ifndef KF3DS_TEST_SUPPORT_CHUNKS_H
#define KF3DS_TEST_SUPPORT_CHUNKS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kf3ds.h"

/* Bytes of a container's own data before its sub-chunks (`body`, `len`: the
 * payload), or -1 when `id` holds no sub-chunks or the data is cut short. */
static inline long support_chunk_children_at(uint16_t id, const unsigned char *body, size_t len)
{
    switch (id) {
    case KF3DS_CHUNK_M3DMAGIC: case KF3DS_CHUNK_MDATA: case KF3DS_CHUNK_MLIBMAGIC:
    case KF3DS_CHUNK_CMAGIC: case KF3DS_CHUNK_N_TRI_OBJECT: case KF3DS_CHUNK_MAT_ENTRY:
    case KF3DS_CHUNK_KFDATA: case KF3DS_CHUNK_AMBIENT_NODE_TAG: case KF3DS_CHUNK_OBJECT_NODE_TAG:
    case KF3DS_CHUNK_CAMERA_NODE_TAG: case KF3DS_CHUNK_TARGET_NODE_TAG:
    case KF3DS_CHUNK_LIGHT_NODE_TAG: case KF3DS_CHUNK_L_TARGET_NODE_TAG:
    case KF3DS_CHUNK_SPOTLIGHT_NODE_TAG: case KF3DS_CHUNK_MAT_AMBIENT:
    case KF3DS_CHUNK_MAT_DIFFUSE: case KF3DS_CHUNK_MAT_SPECULAR: case KF3DS_CHUNK_MAT_SHININESS:
    case KF3DS_CHUNK_MAT_SHIN2PCT: case KF3DS_CHUNK_MAT_TRANSPARENCY:
    case KF3DS_CHUNK_MAT_SELF_ILPCT: case KF3DS_CHUNK_MAT_TEXMAP: case KF3DS_CHUNK_MAT_TEX2MAP:
    case KF3DS_CHUNK_MAT_OPACMAP: case KF3DS_CHUNK_MAT_BUMPMAP: case KF3DS_CHUNK_MAT_SPECMAP:
    case KF3DS_CHUNK_MAT_SHINMAP: case KF3DS_CHUNK_MAT_SELFIMAP: case KF3DS_CHUNK_MAT_REFLMAP:
    case KF3DS_CHUNK_AMBIENT_LIGHT:
        return 0;
    case KF3DS_CHUNK_NAMED_OBJECT: { /* the object's name */
        const unsigned char *z = (const unsigned char *)memchr(body, 0, len);
        return z ? (long)(z - body) + 1 : -1;
    }
    case KF3DS_CHUNK_FACE_ARRAY: /* a count and 8 bytes a face */
        return len >= 2 ? 2 + 8L * (body[0] | (body[1] << 8)) : -1;
    case KF3DS_CHUNK_N_CAMERA: /* position, target, roll, lens */
        return 32;
    case KF3DS_CHUNK_N_DIRECT_LIGHT: /* position */
        return 12;
    case KF3DS_CHUNK_DL_SPOTLIGHT: /* target, hotspot, falloff */
        return 20;
    default:
        return -1;
    }
}
#endif
