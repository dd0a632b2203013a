/* The scenes of support.h that the malformed-input suites damage, and the
 * strange ones they load whole: a rich valid scene, a big one, a file with a
 * non-finite value in every kind of float, one of extreme values, and the
 * densest files of each kind of element. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "support.h"

/* ---- the rich scene ----------------------------------------------------- */

static void color_f(w3ds *w, uint16_t id, float r, float g, float b)
{
    const float v[3] = { r, g, b };
    support_chunk_f32v(w, id, v, 3);
}

static void color_24(w3ds *w, uint16_t id, uint8_t r, uint8_t g, uint8_t b)
{
    w3ds_begin(w, id);
    w3ds_u8(w, r);
    w3ds_u8(w, g);
    w3ds_u8(w, b);
    w3ds_end(w);
}

static void int_percent(w3ds *w, uint16_t id, int16_t v)
{
    w3ds_begin(w, id);
    support_chunk_u16(w, KF3DS_CHUNK_INT_PERCENTAGE, (uint16_t)v);
    w3ds_end(w);
}

static void float_percent(w3ds *w, uint16_t id, float v)
{
    w3ds_begin(w, id);
    support_chunk_f32(w, KF3DS_CHUNK_FLOAT_PERCENTAGE, v);
    w3ds_end(w);
}

/* A material with colours in every form; `rich`: percentages, flags, a
 * texture map with every map parameter and a bump map. */
static void write_material(w3ds *w, const char *name, int rich)
{
    w3ds_begin(w, KF3DS_CHUNK_MAT_ENTRY);
    support_chunk_str(w, KF3DS_CHUNK_MAT_NAME, name);
    w3ds_begin(w, KF3DS_CHUNK_MAT_AMBIENT);
    color_24(w, KF3DS_CHUNK_COLOR_24, 200, 10, 10);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MAT_DIFFUSE);
    color_24(w, KF3DS_CHUNK_COLOR_24, 255, 0, 0);
    color_24(w, KF3DS_CHUNK_LIN_COLOR_24, 250, 0, 0);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MAT_SPECULAR);
    color_f(w, KF3DS_CHUNK_COLOR_F, 1.0f, 1.0f, 1.0f);
    color_f(w, KF3DS_CHUNK_LIN_COLOR_F, 0.9f, 0.9f, 0.9f);
    w3ds_end(w);
    if (rich) {
        int_percent(w, KF3DS_CHUNK_MAT_SHININESS, 40);
        float_percent(w, KF3DS_CHUNK_MAT_SHIN2PCT, 0.25f);
        int_percent(w, KF3DS_CHUNK_MAT_TRANSPARENCY, 10);
        int_percent(w, KF3DS_CHUNK_MAT_SELF_ILPCT, 5);
        support_chunk_empty(w, KF3DS_CHUNK_MAT_TWO_SIDE);
        support_chunk_empty(w, KF3DS_CHUNK_MAT_SELF_ILLUM);
        support_chunk_empty(w, KF3DS_CHUNK_MAT_ADDITIVE);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_WIRE_SIZE, 1.5f);
        support_chunk_u16(w, KF3DS_CHUNK_MAT_SHADING, 3);
        w3ds_begin(w, KF3DS_CHUNK_MAT_TEXMAP);
        support_chunk_u16(w, KF3DS_CHUNK_INT_PERCENTAGE, 75);
        support_chunk_str(w, KF3DS_CHUNK_MAT_MAPNAME, "checker.png");
        support_chunk_u16(w, KF3DS_CHUNK_MAT_MAP_TILING, 0x10);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_MAP_TEXBLUR, 0.07f);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_MAP_USCALE, 2.0f);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_MAP_VSCALE, 3.0f);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_MAP_UOFFSET, 0.5f);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_MAP_VOFFSET, 0.25f);
        support_chunk_f32(w, KF3DS_CHUNK_MAT_MAP_ANG, 45.0f);
        w3ds_end(w);
        w3ds_begin(w, KF3DS_CHUNK_MAT_BUMPMAP);
        support_chunk_f32(w, KF3DS_CHUNK_FLOAT_PERCENTAGE, 0.5f);
        support_chunk_str(w, KF3DS_CHUNK_MAT_MAPNAME, "bump.png");
        w3ds_end(w);
    }
    w3ds_end(w);
}

void support_write_box_mesh(w3ds *w, const char *name, float ox, int mirrored)
{
    static const float pts[8][3] = { {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1} };
    static const uint16_t faces[12][3] = { {0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                           {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                           {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7} };
    uint32_t i;
    float matrix[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    matrix[9] = ox;
    matrix[10] = 2.0f;
    matrix[11] = 3.0f;
    if (mirrored)
        matrix[0] = -1.0f;
    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, name);
    w3ds_begin(w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(w, 8);
    for (i = 0; i < 8; i++) {
        w3ds_f32(w, pts[i][0] + ox);
        w3ds_f32(w, pts[i][1] + 2.0f);
        w3ds_f32(w, pts[i][2] + 3.0f);
    }
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_POINT_FLAG_ARRAY);
    w3ds_u16(w, 8);
    for (i = 0; i < 8; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_TEX_VERTS);
    w3ds_u16(w, 8);
    for (i = 0; i < 8; i++) {
        w3ds_f32(w, pts[i][0]);
        w3ds_f32(w, pts[i][1]);
    }
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_FACE_ARRAY);
    w3ds_u16(w, 12);
    for (i = 0; i < 12; i++) {
        w3ds_u16(w, faces[i][0]);
        w3ds_u16(w, faces[i][1]);
        w3ds_u16(w, faces[i][2]);
        w3ds_u16(w, 7);
    }
    w3ds_begin(w, KF3DS_CHUNK_MSH_MAT_GROUP);
    w3ds_cstr(w, "Red");
    w3ds_u16(w, 6);
    for (i = 0; i < 6; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MSH_MAT_GROUP);
    w3ds_cstr(w, "Blue");
    w3ds_u16(w, 6);
    for (i = 6; i < 12; i++)
        w3ds_u16(w, (uint16_t)i);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_SMOOTH_GROUP);
    for (i = 0; i < 12; i++)
        w3ds_u32(w, 1u << (i / 2));
    w3ds_end(w);
    w3ds_end(w);
    support_chunk_f32v(w, KF3DS_CHUNK_MESH_MATRIX, matrix, 12);
    w3ds_begin(w, KF3DS_CHUNK_MESH_COLOR);
    w3ds_u8(w, 3);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

/* The editor section's content: versions, ambient light, two materials, two
 * boxes (one mirrored), a camera, a spotlight and a hidden omni light. */
static void write_editor(w3ds *w)
{
    static const float cam_pos[3] = { 0, -10, 5 }, cam_tgt[3] = { 0, 0, 0 };
    static const float spot_pos[3] = { 5, 5, 10 }, spot_tgt[3] = { 0, 0, 0 };
    static const float omni_pos[3] = { -5, 0, 3 };
    support_chunk_u32(w, KF3DS_CHUNK_MESH_VERSION, 3);
    support_chunk_f32(w, KF3DS_CHUNK_MASTER_SCALE, 1.0f);
    w3ds_begin(w, KF3DS_CHUNK_AMBIENT_LIGHT);
    color_f(w, KF3DS_CHUNK_COLOR_F, 0.1f, 0.1f, 0.1f);
    w3ds_end(w);
    write_material(w, "Red", 1);
    write_material(w, "Blue", 0);
    support_write_box_mesh(w, "Box", 1.0f, 0);
    support_write_box_mesh(w, "Mirror", -4.0f, 1);

    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, "Cam01");
    w3ds_begin(w, KF3DS_CHUNK_N_CAMERA);
    w3ds_f32v(w, cam_pos, 3);
    w3ds_f32v(w, cam_tgt, 3);
    w3ds_f32(w, 5.0f);
    w3ds_f32(w, 35.0f);
    support_chunk_empty(w, KF3DS_CHUNK_CAM_SEE_CONE);
    w3ds_begin(w, KF3DS_CHUNK_CAM_RANGES);
    w3ds_f32(w, 1.0f);
    w3ds_f32(w, 1000.0f);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);

    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, "Spot01");
    w3ds_begin(w, KF3DS_CHUNK_N_DIRECT_LIGHT);
    w3ds_f32v(w, spot_pos, 3);
    color_f(w, KF3DS_CHUNK_COLOR_F, 1.0f, 0.9f, 0.8f);
    color_24(w, KF3DS_CHUNK_COLOR_24, 200, 200, 200);
    w3ds_begin(w, KF3DS_CHUNK_DL_SPOTLIGHT);
    w3ds_f32v(w, spot_tgt, 3);
    w3ds_f32(w, 30.0f);
    w3ds_f32(w, 45.0f);
    support_chunk_f32(w, KF3DS_CHUNK_DL_SPOT_ROLL, 10.0f);
    support_chunk_empty(w, KF3DS_CHUNK_DL_SHADOWED);
    support_chunk_empty(w, KF3DS_CHUNK_DL_SEE_CONE);
    support_chunk_empty(w, KF3DS_CHUNK_DL_SPOT_RECTANGULAR);
    support_chunk_empty(w, KF3DS_CHUNK_DL_SPOT_OVERSHOOT);
    w3ds_end(w);
    support_chunk_empty(w, KF3DS_CHUNK_DL_ATTENUATE);
    support_chunk_f32(w, KF3DS_CHUNK_DL_INNER_RANGE, 10.0f);
    support_chunk_f32(w, KF3DS_CHUNK_DL_OUTER_RANGE, 100.0f);
    support_chunk_f32(w, KF3DS_CHUNK_DL_MULTIPLIER, 1.5f);
    w3ds_end(w);
    w3ds_end(w);

    w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(w, "Omni01");
    support_chunk_empty(w, KF3DS_CHUNK_OBJ_HIDDEN);
    w3ds_begin(w, KF3DS_CHUNK_N_DIRECT_LIGHT);
    w3ds_f32v(w, omni_pos, 3);
    color_f(w, KF3DS_CHUNK_LIN_COLOR_F, 0.5f, 0.5f, 1.0f);
    support_chunk_empty(w, KF3DS_CHUNK_DL_OFF);
    w3ds_end(w);
    w3ds_end(w);
}

/* KFDATA with nine nodes of every type and tracks of every kind. */
static void write_keyframer(w3ds *w)
{
    static const w3ds_tcb tcb1 = { 0.5f, -0.25f, 0.3f, 0.2f, 0.4f, 0 };
    static const w3ds_tcb tcb2 = { -0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 0 };
    static const w3ds_tcb tcb3 = { 0.0f, 0.5f, -1.0f, 0.0f, 0.0f, 0 };
    static const float pivot[3] = { 0.5f, 0.5f, 0.5f };
    static const float bbox[6] = { -1, -1, -1, 1, 1, 1 };
    static const float prescale[3] = { 1, 1, 1 };
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    support_kf_segment(w, "rich.3ds", 100);
    support_chunk_u32(w, KF3DS_CHUNK_KFCURTIME, 0);

    /* 0: ambient */
    support_node_begin(w, KF3DS_CHUNK_AMBIENT_NODE_TAG, 0, "$AMBIENT$", 0xFFFF);
    support_track_begin(w, KF3DS_CHUNK_COL_TRACK_TAG, 0, 2);
    support_key_vec(w, 0, NULL, 0.1f, 0.1f, 0.1f);
    support_key_vec(w, 100, &tcb2, 0.3f, 0.2f, 0.1f);
    w3ds_end(w);
    w3ds_end(w);

    /* 1: a dummy group */
    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 1, "$$$DUMMY", 0xFFFF);
    support_chunk_str(w, KF3DS_CHUNK_INSTANCE_NAME, "Group01");
    support_chunk_f32v(w, KF3DS_CHUNK_PIVOT, pivot, 3);
    support_chunk_f32v(w, KF3DS_CHUNK_BOUNDBOX, bbox, 6);
    support_pos_track_moving(w, 0, 0, 0);
    support_track_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG, 0, 1);
    support_key_rot(w, 0, NULL, 0.0f, 0, 0, 1);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_SCL_TRACK_TAG, 0, 1);
    support_key_vec(w, 0, NULL, 1, 1, 1);
    w3ds_end(w);
    w3ds_end(w);

    /* 2: the box, child of the dummy, with TCB keys everywhere */
    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 2, "Box", 1);
    support_chunk_f32v(w, KF3DS_CHUNK_PIVOT, pivot, 3);
    support_chunk_f32(w, KF3DS_CHUNK_MORPH_SMOOTH, 30.0f);
    support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 3);
    support_key_vec(w, 0, &tcb1, 0, 0, 0);
    support_key_vec(w, 10, &tcb2, 10, 0, 0);
    support_key_vec(w, 20, &tcb3, 10, 10, 0);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG, 0, 3);
    support_key_rot(w, 0, &tcb1, 0.0f, 0, 0, 1);
    support_key_rot(w, 10, &tcb2, 1.0f, 0, 0, 1);
    support_key_rot(w, 20, &tcb3, 4.0f, 0, 1, 0); /* more than a half turn */
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_SCL_TRACK_TAG, 0, 2);
    support_key_vec(w, 0, NULL, 1, 1, 1);
    support_key_vec(w, 20, &tcb1, 2, 2, 2);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_HIDE_TRACK_TAG, 0, 2);
    w3ds_key_header(w, 0, NULL);
    w3ds_key_header(w, 15, NULL);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_MORPH_TRACK_TAG, 0, 2);
    w3ds_key_header(w, 0, NULL);
    w3ds_cstr(w, "Box");
    w3ds_key_header(w, 10, NULL);
    w3ds_cstr(w, "Mirror");
    w3ds_end(w);
    w3ds_end(w);

    /* 3: the mirrored box, child of the box, a looping track */
    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 3, "Mirror", 2);
    support_chunk_f32v(w, KF3DS_CHUNK_PRESCALE, prescale, 3);
    support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, 3, 3);
    support_key_vec(w, 0, NULL, 0, 0, 0);
    support_key_vec(w, 10, &tcb1, 0, 5, 0);
    support_key_vec(w, 20, NULL, 0, 0, 0);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG, 2, 2);
    support_key_rot(w, 0, NULL, 0.5f, 1, 0, 0);
    support_key_rot(w, 20, NULL, 0.5f, 1, 0, 0);
    w3ds_end(w);
    w3ds_end(w);

    /* 4, 5: camera and its target */
    support_node_begin(w, KF3DS_CHUNK_CAMERA_NODE_TAG, 4, "Cam01", 0xFFFF);
    support_pos_track_moving(w, 0, -10, 5);
    support_track_begin(w, KF3DS_CHUNK_FOV_TRACK_TAG, 0, 2);
    support_key_scalar(w, 0, NULL, 45.0f);
    support_key_scalar(w, 50, &tcb2, 60.0f);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROLL_TRACK_TAG, 0, 2);
    support_key_scalar(w, 0, NULL, 0.0f);
    support_key_scalar(w, 50, NULL, 30.0f);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_TARGET_NODE_TAG, 5, "Cam01", 0xFFFF);
    support_pos_track_moving(w, 0, 0, 0);
    w3ds_end(w);

    /* 6, 7: spotlight and its target */
    support_node_begin(w, KF3DS_CHUNK_SPOTLIGHT_NODE_TAG, 6, "Spot01", 0xFFFF);
    support_pos_track_moving(w, 5, 5, 10);
    support_track_begin(w, KF3DS_CHUNK_COL_TRACK_TAG, 0, 1);
    support_key_vec(w, 0, NULL, 1, 1, 1);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_HOT_TRACK_TAG, 0, 1);
    support_key_scalar(w, 0, NULL, 30.0f);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_FALL_TRACK_TAG, 0, 1);
    support_key_scalar(w, 0, NULL, 45.0f);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROLL_TRACK_TAG, 0, 1);
    support_key_scalar(w, 0, NULL, 10.0f);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_L_TARGET_NODE_TAG, 7, "Spot01", 0xFFFF);
    support_pos_track_moving(w, 0, 0, 0);
    w3ds_end(w);

    /* 8: omni light, child of the dummy */
    support_node_begin(w, KF3DS_CHUNK_LIGHT_NODE_TAG, 8, "Omni01", 1);
    support_pos_track_moving(w, -5, 0, 3);
    support_track_begin(w, KF3DS_CHUNK_COL_TRACK_TAG, 0, 1);
    support_key_vec(w, 0, NULL, 0.5f, 0.5f, 1.0f);
    w3ds_end(w);
    w3ds_end(w);

    w3ds_end(w); /* KFDATA */
}

unsigned char *support_build_rich(size_t *size)
{
    w3ds w;
    w3ds_init(&w);
    w3ds_begin(&w, KF3DS_CHUNK_M3DMAGIC);
    support_chunk_u32(&w, KF3DS_CHUNK_M3D_VERSION, 3);
    w3ds_begin(&w, KF3DS_CHUNK_MDATA);
    write_editor(&w);
    w3ds_end(&w);
    write_keyframer(&w);
    w3ds_end(&w);
    assert_int_equal(w.depth, 0);
    return support_take_bytes(&w, size);
}

unsigned char *support_build_big(size_t *size)
{
    w3ds w;
    uint32_t i;
    char name[32];
    support_file_begin(&w, KF3DS_CHUNK_MDATA);
    write_editor(&w);
    for (i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "Mat%u", (unsigned)i);
        write_material(&w, name, 1);
    }
    w3ds_begin(&w, KF3DS_CHUNK_NAMED_OBJECT);
    w3ds_cstr(&w, "Grid");
    w3ds_begin(&w, KF3DS_CHUNK_N_TRI_OBJECT);
    w3ds_begin(&w, KF3DS_CHUNK_POINT_ARRAY);
    w3ds_u16(&w, 7000);
    for (i = 0; i < 7000; i++) {
        w3ds_f32(&w, (float)(i % 100));
        w3ds_f32(&w, (float)(i / 100));
        w3ds_f32(&w, 0.0f);
    }
    w3ds_end(&w);
    w3ds_begin(&w, KF3DS_CHUNK_FACE_ARRAY);
    w3ds_u16(&w, 6000);
    for (i = 0; i < 6000; i++) {
        w3ds_u16(&w, (uint16_t)i);
        w3ds_u16(&w, (uint16_t)(i + 1));
        w3ds_u16(&w, (uint16_t)(i + 100));
        w3ds_u16(&w, 7);
    }
    w3ds_begin(&w, KF3DS_CHUNK_MSH_MAT_GROUP);
    w3ds_cstr(&w, "Mat7");
    w3ds_u16(&w, 3000);
    for (i = 0; i < 3000; i++)
        w3ds_u16(&w, (uint16_t)(2 * i));
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w);
    w3ds_end(&w); /* MDATA */
    w3ds_begin(&w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < 200; i++) {
        support_node_begin(&w, KF3DS_CHUNK_OBJECT_NODE_TAG, (uint16_t)i,
                           i == 0 ? "Grid" : "$$$DUMMY", i == 0 ? 0xFFFF : (uint16_t)(i - 1));
        if (i == 1) {
            uint32_t k;
            support_track_begin(&w, KF3DS_CHUNK_ROT_TRACK_TAG, 0, 3000);
            for (k = 0; k < 3000; k++) /* unsorted on purpose: the sort allocates */
                support_key_rot(&w, (int32_t)((k * 7919u) % 3000u), NULL, 0.01f, 0, 0, 1);
            w3ds_end(&w);
        }
        support_pos_track_moving(&w, (float)i, 0, 0);
        w3ds_end(&w);
    }
    w3ds_end(&w); /* KFDATA */
    w3ds_end(&w);
    return support_take_bytes(&w, size);
}

/* ---- strange but whole files -------------------------------------------- */

static const uint16_t quad_faces[6] = { 0, 1, 2, 0, 2, 3 };

void support_write_nonfinite(w3ds *w, float bad)
{
    const float pts[12] = { bad, 0, 0, 1, bad, 0, 1, 1, 0, 0, 1, -bad };
    const float mat[12] = { bad, 0, 0, 0, 1, 0, 0, 0, 1, bad, 0, 0 };
    const float cpos[3] = { bad, -10, 0 }, ctgt[3] = { 0, 0, bad };
    const float lcol[3] = { bad, 1, 1 };
    const w3ds_tcb tcb = { bad, bad, bad, bad, bad, 0 };
    w3ds_begin(w, KF3DS_CHUNK_M3DMAGIC);
    w3ds_begin(w, KF3DS_CHUNK_MDATA);
    support_chunk_f32v(w, KF3DS_CHUNK_MASTER_SCALE, &bad, 1);
    w3ds_begin(w, KF3DS_CHUNK_MAT_ENTRY);
    support_chunk_str(w, KF3DS_CHUNK_MAT_NAME, "M");
    w3ds_begin(w, KF3DS_CHUNK_MAT_DIFFUSE);
    support_chunk_f32v(w, KF3DS_CHUNK_COLOR_F, lcol, 3);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MAT_SHININESS);
    support_chunk_f32v(w, KF3DS_CHUNK_FLOAT_PERCENTAGE, &bad, 1);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_MAT_TEXMAP);
    support_chunk_f32v(w, KF3DS_CHUNK_MAT_MAP_USCALE, &bad, 1);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_mesh(w, "Box", pts, 4, quad_faces, 2, mat, "M");
    w3ds_camera(w, "Cam", cpos, ctgt, bad, bad);
    w3ds_light(w, "Spot", cpos, lcol, ctgt, bad, 40.0f);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, 0, "Box", 0xFFFF);
    support_chunk_f32v(w, KF3DS_CHUNK_PIVOT, cpos, 3);
    support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 3);
    support_key_vec(w, 0, NULL, 0, 0, 0);
    support_key_vec(w, 5, &tcb, bad, 1, 2);
    support_key_vec(w, 10, NULL, 3, 3, 3);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG, 0, 2);
    support_key_rot(w, 0, NULL, 0.5f, 0, 0, 1);
    support_key_rot(w, 10, NULL, bad, bad, 0, 1);
    w3ds_end(w);
    support_track_begin(w, KF3DS_CHUNK_SCL_TRACK_TAG, 0, 2);
    support_key_vec(w, 0, NULL, bad, 1, 1);
    support_key_vec(w, 10, NULL, 2, 2, 2);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_CAMERA_NODE_TAG, 1, "Cam", 0xFFFF);
    support_track_begin(w, KF3DS_CHUNK_FOV_TRACK_TAG, 0, 1);
    support_key_scalar(w, 0, NULL, bad);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_TARGET_NODE_TAG, 2, "Cam", 0xFFFF);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

void support_write_extreme(w3ds *w, float big, int chain)
{
    const float pts[12] = { big, big, -big, -big, big, big, big, -big, big, 0, 0, 0 };
    const float tiny[12] = { 1e-7f, 0, 0, 0, 1e-7f, 0, 0, 0, 1e-7f, big, 0, 0 };
    const float illc[12] = { -1, 0, 0, 1, 1e-6f, 0, 0, 0, 1, 0, 0, 0 }; /* mirrored, cond 1e6 */
    const w3ds_tcb wild = { 1e30f, -1e30f, 1e30f, -1e30f, 1e30f, 0 };
    const w3ds_tcb big_tcb = { 900, -900, 900, 900, -900, 0 };
    const float cpos[3] = { big, -big, big }, ctgt[3] = { -big, big, 0 };
    int i;
    w3ds_begin(w, KF3DS_CHUNK_M3DMAGIC);
    w3ds_begin(w, KF3DS_CHUNK_MDATA);
    w3ds_mesh(w, "Big", pts, 4, quad_faces, 2, NULL, NULL);
    w3ds_mesh(w, "Tiny", pts, 4, quad_faces, 2, tiny, NULL);
    w3ds_mesh(w, "Ill", pts, 4, quad_faces, 2, illc, NULL);
    w3ds_camera(w, "Cam", cpos, ctgt, big, 1e-30f);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    for (i = 0; i < chain; i++) {
        support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG, (uint16_t)i,
                           i % 3 == 0 ? "Big" : i % 3 == 1 ? "Tiny" : "Ill",
                           i ? (uint16_t)(i - 1) : 0xFFFF);
        support_chunk_f32v(w, KF3DS_CHUNK_PIVOT, cpos, 3);
        support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, (uint16_t)(i % 4), 4);
        support_key_vec(w, 0, &wild, big, -big, big);
        support_key_vec(w, 1, &big_tcb, -big, big, -big);
        support_key_vec(w, 1, &wild, big, big, big);
        support_key_vec(w, 10, &big_tcb, -big, -big, big);
        w3ds_end(w);
        support_track_begin(w, KF3DS_CHUNK_ROT_TRACK_TAG, 0, 3);
        support_key_rot(w, 0, &wild, big, 1, 1, 0);
        support_key_rot(w, 5, &big_tcb, 1e-30f, 0, 0, 1e-30f);
        support_key_rot(w, 10, &wild, -big, 0, 1, 0);
        w3ds_end(w);
        support_track_begin(w, KF3DS_CHUNK_SCL_TRACK_TAG, 0, 3);
        support_key_vec(w, 0, &wild, big, big, big);
        support_key_vec(w, 4, &big_tcb, -big, big, 1e-30f);
        support_key_vec(w, 10, NULL, big, -big, big);
        w3ds_end(w);
        w3ds_end(w);
    }
    support_node_begin(w, KF3DS_CHUNK_CAMERA_NODE_TAG, (uint16_t)chain, "Cam",
                       (uint16_t)(chain - 1));
    support_track_begin(w, KF3DS_CHUNK_FOV_TRACK_TAG, 0, 2);
    support_key_scalar(w, 0, &wild, big);
    support_key_scalar(w, 10, &big_tcb, -big);
    w3ds_end(w);
    w3ds_end(w);
    support_node_begin(w, KF3DS_CHUNK_TARGET_NODE_TAG, (uint16_t)(chain + 1), "Cam", 0);
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

const char *const support_dense_names[SUPPORT_DENSE_COUNT] = {
    "empty node chunks", "nodes with ids and names", "HIDE keys", "MORPH keys",
    "FOV keys", "ROT keys", "unsorted POS keys", "2-key tracks", "empty meshes", "materials",
    "cameras", "lights", "material groups", "faces with smoothing and groups"
};

/* Nodes, or tracks in nodes, until the file has `target` bytes. */
static void write_dense_nodes(w3ds *w, support_dense_kind kind, size_t target)
{
    size_t i = 0;
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    while (w->len < target && !w->failed) {
        if (kind == SUPPORT_DENSE_NODES) {
            support_chunk_empty(w, KF3DS_CHUNK_OBJECT_NODE_TAG);
        } else if (kind == SUPPORT_DENSE_NAMED_NODES) {
            support_node_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG,
                               (uint16_t)(0xFFFE - (i & 0x7FFF)), "", 0);
            w3ds_end(w);
        } else {
            w3ds_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG);
            support_track_begin(w, KF3DS_CHUNK_FOV_TRACK_TAG, 3, 2);
            support_key_scalar(w, 0, NULL, 1);
            support_key_scalar(w, 1, NULL, 2);
            w3ds_end(w);
            w3ds_end(w);
        }
        i++;
    }
    w3ds_end(w);
}

/* One track of the smallest keys of its kind filling `target` bytes. */
static void write_dense_keys(w3ds *w, support_dense_kind kind, size_t target)
{
    uint16_t id = kind == SUPPORT_DENSE_HIDE_KEYS     ? KF3DS_CHUNK_HIDE_TRACK_TAG
                : kind == SUPPORT_DENSE_MORPH_KEYS    ? KF3DS_CHUNK_MORPH_TRACK_TAG
                : kind == SUPPORT_DENSE_SCALAR_KEYS   ? KF3DS_CHUNK_FOV_TRACK_TAG
                : kind == SUPPORT_DENSE_ROT_KEYS      ? KF3DS_CHUNK_ROT_TRACK_TAG
                                                      : KF3DS_CHUNK_POS_TRACK_TAG;
    size_t key = kind == SUPPORT_DENSE_HIDE_KEYS ? 6 : kind == SUPPORT_DENSE_MORPH_KEYS ? 7
               : kind == SUPPORT_DENSE_SCALAR_KEYS ? 10 : kind == SUPPORT_DENSE_ROT_KEYS ? 22 : 18;
    uint32_t n = (uint32_t)(target / key), k;
    w3ds_begin(w, KF3DS_CHUNK_KFDATA);
    w3ds_begin(w, KF3DS_CHUNK_OBJECT_NODE_TAG);
    support_track_begin(w, id, 0, n);
    for (k = 0; k < n; k++) {
        int32_t frame = kind == SUPPORT_DENSE_UNSORTED_KEYS ? (int32_t)(n - k) : (int32_t)k;
        if (kind == SUPPORT_DENSE_MORPH_KEYS) {
            w3ds_key_header(w, frame, NULL);
            w3ds_u8(w, 0);
        } else if (kind == SUPPORT_DENSE_SCALAR_KEYS) {
            support_key_scalar(w, frame, NULL, (float)k);
        } else if (kind == SUPPORT_DENSE_ROT_KEYS) {
            support_key_rot(w, frame, NULL, 0.1f, 0, 0, 1);
        } else if (kind == SUPPORT_DENSE_UNSORTED_KEYS) {
            support_key_vec(w, frame, NULL, 1, 2, 3);
        } else {
            w3ds_key_header(w, frame, NULL);
        }
    }
    w3ds_end(w);
    w3ds_end(w);
    w3ds_end(w);
}

/* Editor elements until the file has `target` bytes. */
static void write_dense_editor(w3ds *w, support_dense_kind kind, size_t target)
{
    w3ds_begin(w, KF3DS_CHUNK_MDATA);
    if (kind == SUPPORT_DENSE_MATERIALS) {
        while (w->len < target && !w->failed)
            support_chunk_empty(w, KF3DS_CHUNK_MAT_ENTRY);
    } else if (kind != SUPPORT_DENSE_FACES) {
        uint16_t id = kind == SUPPORT_DENSE_MESHES    ? KF3DS_CHUNK_N_TRI_OBJECT
                    : kind == SUPPORT_DENSE_CAMERAS   ? KF3DS_CHUNK_N_CAMERA
                    : kind == SUPPORT_DENSE_LIGHTS    ? KF3DS_CHUNK_N_DIRECT_LIGHT
                                                      : KF3DS_CHUNK_MSH_MAT_GROUP;
        w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
        w3ds_u8(w, 0);
        if (kind == SUPPORT_DENSE_GROUPS) {
            w3ds_begin(w, KF3DS_CHUNK_N_TRI_OBJECT);
            w3ds_begin(w, KF3DS_CHUNK_FACE_ARRAY);
            w3ds_u16(w, 0);
        }
        while (w->len < target && !w->failed)
            support_chunk_empty(w, id);
        if (kind == SUPPORT_DENSE_GROUPS) {
            w3ds_end(w);
            w3ds_end(w);
        }
        w3ds_end(w);
    } else { /* faces: 8 bytes each, smoothing and a tiny material group */
        uint32_t n = (uint32_t)(target / 8 > 0xFFFF ? 0xFFFF : target / 8), k;
        w3ds_begin(w, KF3DS_CHUNK_NAMED_OBJECT);
        w3ds_u8(w, 0);
        w3ds_begin(w, KF3DS_CHUNK_N_TRI_OBJECT);
        w3ds_begin(w, KF3DS_CHUNK_POINT_ARRAY);
        w3ds_u16(w, 3);
        w3ds_f32v(w, (const float[9]){ 0, 0, 0, 1, 0, 0, 0, 1, 0 }, 9);
        w3ds_end(w);
        w3ds_begin(w, KF3DS_CHUNK_FACE_ARRAY);
        w3ds_u16(w, (uint16_t)n);
        for (k = 0; k < n; k++) {
            w3ds_u16(w, 0);
            w3ds_u16(w, 1);
            w3ds_u16(w, 2);
            w3ds_u16(w, 7);
        }
        w3ds_begin(w, KF3DS_CHUNK_MSH_MAT_GROUP);
        w3ds_u8(w, 0);
        w3ds_u16(w, 0);
        w3ds_end(w);
        support_chunk_u32(w, KF3DS_CHUNK_SMOOTH_GROUP, 1);
        w3ds_end(w);
        w3ds_end(w);
        w3ds_end(w);
    }
    w3ds_end(w);
}

void support_write_dense(w3ds *w, support_dense_kind kind, size_t target)
{
    w3ds_begin(w, KF3DS_CHUNK_M3DMAGIC);
    switch (kind) {
    case SUPPORT_DENSE_NODES: case SUPPORT_DENSE_NAMED_NODES: case SUPPORT_DENSE_TRACKS:
        write_dense_nodes(w, kind, target);
        break;
    case SUPPORT_DENSE_HIDE_KEYS: case SUPPORT_DENSE_MORPH_KEYS: case SUPPORT_DENSE_SCALAR_KEYS:
    case SUPPORT_DENSE_ROT_KEYS: case SUPPORT_DENSE_UNSORTED_KEYS:
        write_dense_keys(w, kind, target);
        break;
    default:
        write_dense_editor(w, kind, target);
        break;
    }
    w3ds_end(w);
}
