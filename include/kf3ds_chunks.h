/*
 * kf3ds_chunks.h — the one list of every chunk id kf3ds knows.
 *
 * Each entry is X(NAME, ID). kf3ds.h turns the list into the public enum
 * kf3ds_chunk_id (KF3DS_CHUNK_NAME = ID) and src/chunk.c into the id → name
 * table of kf3ds_chunk_name; tools expand it for their own tables. Entries are
 * in increasing id order (kf3ds_chunk_name searches them by bisection; a test
 * checks the order). The names are the ones of Autodesk's 3DS file toolkit as
 * the format's readers have long spelt them; docs/format.md describes what the
 * loader reads from each.
 *
 * To add a chunk: add one line here, in order. Nothing else lists ids.
 */
#ifndef KF3DS_CHUNKS_H
#define KF3DS_CHUNKS_H

#define KF3DS_CHUNK_LIST(X) \
    /* file versions, colours, percentages */ \
    X(M3D_VERSION, 0x0002) \
    X(M3D_KFVERSION, 0x0005) \
    X(COLOR_F, 0x0010) \
    X(COLOR_24, 0x0011) \
    X(LIN_COLOR_24, 0x0012) \
    X(LIN_COLOR_F, 0x0013) \
    X(INT_PERCENTAGE, 0x0030) \
    X(FLOAT_PERCENTAGE, 0x0031) \
    X(DOUBLE_PERCENTAGE, 0x0032) \
    /* editor settings: scale, backgrounds, shadows, ambient, fog */ \
    X(MASTER_SCALE, 0x0100) \
    X(BIT_MAP, 0x1100) \
    X(USE_BIT_MAP, 0x1101) \
    X(SOLID_BGND, 0x1200) \
    X(USE_SOLID_BGND, 0x1201) \
    X(V_GRADIENT, 0x1300) \
    X(USE_V_GRADIENT, 0x1301) \
    X(LO_SHADOW_BIAS, 0x1400) \
    X(HI_SHADOW_BIAS, 0x1410) \
    X(SHADOW_MAP_SIZE, 0x1420) \
    X(SHADOW_SAMPLES, 0x1430) \
    X(SHADOW_RANGE, 0x1440) \
    X(SHADOW_FILTER, 0x1450) \
    X(RAY_BIAS, 0x1460) \
    X(O_CONSTS, 0x1500) \
    X(AMBIENT_LIGHT, 0x2100) \
    X(FOG, 0x2200) \
    X(USE_FOG, 0x2201) \
    X(FOG_BGND, 0x2210) \
    X(DISTANCE_CUE, 0x2300) \
    X(USE_DISTANCE_CUE, 0x2301) \
    X(LAYER_FOG, 0x2302) \
    X(USE_LAYER_FOG, 0x2303) \
    X(DCUE_BGND, 0x2310) \
    /* magic numbers and the editor section */ \
    X(SMAGIC, 0x2D2D) \
    X(LMAGIC, 0x2D3D) \
    X(DEFAULT_VIEW, 0x3000) \
    X(MDATA, 0x3D3D) \
    X(MESH_VERSION, 0x3D3E) \
    X(MLIBMAGIC, 0x3DAA) \
    X(MATMAGIC, 0x3DFF) \
    /* named objects and triangle meshes */ \
    X(NAMED_OBJECT, 0x4000) \
    X(OBJ_HIDDEN, 0x4010) \
    X(OBJ_VIS_LOFTER, 0x4011) \
    X(OBJ_DOESNT_CAST, 0x4012) \
    X(OBJ_MATTE, 0x4013) \
    X(OBJ_FAST, 0x4014) \
    X(OBJ_PROCEDURAL, 0x4015) \
    X(OBJ_FROZEN, 0x4016) \
    X(OBJ_DONT_RCVSHADOW, 0x4017) \
    X(N_TRI_OBJECT, 0x4100) \
    X(POINT_ARRAY, 0x4110) \
    X(POINT_FLAG_ARRAY, 0x4111) \
    X(FACE_ARRAY, 0x4120) \
    X(MSH_MAT_GROUP, 0x4130) \
    X(TEX_VERTS, 0x4140) \
    X(SMOOTH_GROUP, 0x4150) \
    X(MESH_MATRIX, 0x4160) \
    X(MESH_COLOR, 0x4165) \
    X(MESH_TEXTURE_INFO, 0x4170) \
    X(MSH_BOXMAP, 0x4190) \
    /* lights */ \
    X(N_DIRECT_LIGHT, 0x4600) \
    X(DL_SPOTLIGHT, 0x4610) \
    X(DL_OFF, 0x4620) \
    X(DL_ATTENUATE, 0x4625) \
    X(DL_RAYSHAD, 0x4627) \
    X(DL_SHADOWED, 0x4630) \
    X(DL_LOCAL_SHADOW, 0x4640) \
    X(DL_LOCAL_SHADOW2, 0x4641) \
    X(DL_SEE_CONE, 0x4650) \
    X(DL_SPOT_RECTANGULAR, 0x4651) \
    X(DL_SPOT_OVERSHOOT, 0x4652) \
    X(DL_SPOT_PROJECTOR, 0x4653) \
    X(DL_EXCLUDE, 0x4654) \
    X(DL_RANGE, 0x4655) \
    X(DL_SPOT_ROLL, 0x4656) \
    X(DL_SPOT_ASPECT, 0x4657) \
    X(DL_RAY_BIAS, 0x4658) \
    X(DL_INNER_RANGE, 0x4659) \
    X(DL_OUTER_RANGE, 0x465A) \
    X(DL_MULTIPLIER, 0x465B) \
    /* cameras */ \
    X(N_CAMERA, 0x4700) \
    X(CAM_SEE_CONE, 0x4710) \
    X(CAM_RANGES, 0x4720) \
    /* the main magic, viewports */ \
    X(M3DMAGIC, 0x4D4D) \
    X(VIEWPORT_LAYOUT, 0x7001) \
    X(VIEWPORT_DATA, 0x7011) \
    X(VIEWPORT_DATA_3, 0x7012) \
    X(VIEWPORT_SIZE, 0x7020) \
    /* materials and their maps */ \
    X(MAT_NAME, 0xA000) \
    X(MAT_AMBIENT, 0xA010) \
    X(MAT_DIFFUSE, 0xA020) \
    X(MAT_SPECULAR, 0xA030) \
    X(MAT_SHININESS, 0xA040) \
    X(MAT_SHIN2PCT, 0xA041) \
    X(MAT_SHIN3PCT, 0xA042) \
    X(MAT_TRANSPARENCY, 0xA050) \
    X(MAT_XPFALL, 0xA052) \
    X(MAT_REFBLUR, 0xA053) \
    X(MAT_SELF_ILLUM, 0xA080) \
    X(MAT_TWO_SIDE, 0xA081) \
    X(MAT_DECAL, 0xA082) \
    X(MAT_ADDITIVE, 0xA083) \
    X(MAT_SELF_ILPCT, 0xA084) \
    X(MAT_WIRE, 0xA085) \
    X(MAT_SUPERSMP, 0xA086) \
    X(MAT_WIRE_SIZE, 0xA087) \
    X(MAT_FACEMAP, 0xA088) \
    X(MAT_XPFALLIN, 0xA08A) \
    X(MAT_PHONGSOFT, 0xA08C) \
    X(MAT_WIREABS, 0xA08E) \
    X(MAT_SHADING, 0xA100) \
    X(MAT_TEXMAP, 0xA200) \
    X(MAT_SPECMAP, 0xA204) \
    X(MAT_OPACMAP, 0xA210) \
    X(MAT_REFLMAP, 0xA220) \
    X(MAT_BUMPMAP, 0xA230) \
    X(MAT_USE_XPFALL, 0xA240) \
    X(MAT_USE_REFBLUR, 0xA250) \
    X(MAT_BUMP_PERCENT, 0xA252) \
    X(MAT_MAPNAME, 0xA300) \
    X(MAT_ACUBIC, 0xA310) \
    X(MAT_TEX2MAP, 0xA33A) \
    X(MAT_SHINMAP, 0xA33C) \
    X(MAT_SELFIMAP, 0xA33D) \
    X(MAT_TEXMASK, 0xA33E) \
    X(MAT_TEX2MASK, 0xA340) \
    X(MAT_OPACMASK, 0xA342) \
    X(MAT_BUMPMASK, 0xA344) \
    X(MAT_SHINMASK, 0xA346) \
    X(MAT_SPECMASK, 0xA348) \
    X(MAT_SELFIMASK, 0xA34A) \
    X(MAT_REFLMASK, 0xA34C) \
    X(MAT_MAP_TILING, 0xA351) \
    X(MAT_MAP_TEXBLUR, 0xA353) \
    X(MAT_MAP_USCALE, 0xA354) \
    X(MAT_MAP_VSCALE, 0xA356) \
    X(MAT_MAP_UOFFSET, 0xA358) \
    X(MAT_MAP_VOFFSET, 0xA35A) \
    X(MAT_MAP_ANG, 0xA35C) \
    X(MAT_MAP_COL1, 0xA360) \
    X(MAT_MAP_COL2, 0xA362) \
    X(MAT_MAP_RCOL, 0xA364) \
    X(MAT_MAP_GCOL, 0xA366) \
    X(MAT_MAP_BCOL, 0xA368) \
    X(MAT_ENTRY, 0xAFFF) \
    /* keyframer */ \
    X(KFDATA, 0xB000) \
    X(AMBIENT_NODE_TAG, 0xB001) \
    X(OBJECT_NODE_TAG, 0xB002) \
    X(CAMERA_NODE_TAG, 0xB003) \
    X(TARGET_NODE_TAG, 0xB004) \
    X(LIGHT_NODE_TAG, 0xB005) \
    X(L_TARGET_NODE_TAG, 0xB006) \
    X(SPOTLIGHT_NODE_TAG, 0xB007) \
    X(KFSEG, 0xB008) \
    X(KFCURTIME, 0xB009) \
    X(KFHDR, 0xB00A) \
    X(NODE_HDR, 0xB010) \
    X(INSTANCE_NAME, 0xB011) \
    X(PRESCALE, 0xB012) \
    X(PIVOT, 0xB013) \
    X(BOUNDBOX, 0xB014) \
    X(MORPH_SMOOTH, 0xB015) \
    X(POS_TRACK_TAG, 0xB020) \
    X(ROT_TRACK_TAG, 0xB021) \
    X(SCL_TRACK_TAG, 0xB022) \
    X(FOV_TRACK_TAG, 0xB023) \
    X(ROLL_TRACK_TAG, 0xB024) \
    X(COL_TRACK_TAG, 0xB025) \
    X(MORPH_TRACK_TAG, 0xB026) \
    X(HOT_TRACK_TAG, 0xB027) \
    X(FALL_TRACK_TAG, 0xB028) \
    X(HIDE_TRACK_TAG, 0xB029) \
    X(NODE_ID, 0xB030) \
    /* other magic */ \
    X(CMAGIC, 0xC23D)

#endif
