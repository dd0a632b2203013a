/* The chunk writers of support.h: the tests and fuzz/gen_seeds write the same
 * small pieces of files. No cmocka here (gen_seeds links this file). */
#include "support.h"

void support_file_begin(w3ds *w, uint16_t section)
{
    w3ds_init(w);
    w3ds_begin(w, KF3DS_CHUNK_M3DMAGIC);
    w3ds_begin(w, section);
}

void support_chunk_u16(w3ds *w, uint16_t id, uint16_t v)
{
    w3ds_begin(w, id);
    w3ds_u16(w, v);
    w3ds_end(w);
}

void support_chunk_u32(w3ds *w, uint16_t id, uint32_t v)
{
    w3ds_begin(w, id);
    w3ds_u32(w, v);
    w3ds_end(w);
}

void support_chunk_f32(w3ds *w, uint16_t id, float v)
{
    w3ds_begin(w, id);
    w3ds_f32(w, v);
    w3ds_end(w);
}

void support_chunk_f32v(w3ds *w, uint16_t id, const float *v, size_t n)
{
    w3ds_begin(w, id);
    w3ds_f32v(w, v, n);
    w3ds_end(w);
}

void support_chunk_str(w3ds *w, uint16_t id, const char *s)
{
    w3ds_begin(w, id);
    w3ds_cstr(w, s);
    w3ds_end(w);
}

void support_chunk_empty(w3ds *w, uint16_t id)
{
    w3ds_begin(w, id);
    w3ds_end(w);
}

void support_node_begin(w3ds *w, uint16_t tag, uint16_t id, const char *name, uint16_t parent)
{
    w3ds_begin(w, tag);
    support_chunk_u16(w, KF3DS_CHUNK_NODE_ID, id);
    w3ds_node_hdr(w, name, 0, 0, parent);
}

void support_node(w3ds *w, uint16_t tag, const char *name, uint16_t flags1, uint16_t parent,
                  const float *pos)
{
    w3ds_begin(w, tag);
    w3ds_node_hdr(w, name, flags1, 0, parent);
    if (pos)
        support_pos_track(w, pos);
    w3ds_end(w);
}

void support_track_begin(w3ds *w, uint16_t id, uint16_t flags, uint32_t keys)
{
    w3ds_begin(w, id);
    w3ds_track_header(w, flags, keys);
}

void support_key_vec(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float x, float y, float z)
{
    w3ds_key_header(w, frame, tcb);
    w3ds_f32(w, x);
    w3ds_f32(w, y);
    w3ds_f32(w, z);
}

void support_kf_segment(w3ds *w, const char *name, int32_t frames)
{
    w3ds_begin(w, KF3DS_CHUNK_KFHDR);
    w3ds_u16(w, 5);
    w3ds_cstr(w, name);
    w3ds_i32(w, frames);
    w3ds_end(w);
    w3ds_begin(w, KF3DS_CHUNK_KFSEG);
    w3ds_i32(w, 0);
    w3ds_i32(w, frames);
    w3ds_end(w);
}

void support_key_rot(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float angle, float x, float y,
                     float z)
{
    w3ds_key_header(w, frame, tcb);
    w3ds_f32(w, angle);
    w3ds_f32(w, x);
    w3ds_f32(w, y);
    w3ds_f32(w, z);
}

void support_key_scalar(w3ds *w, int32_t frame, const w3ds_tcb *tcb, float v)
{
    w3ds_key_header(w, frame, tcb);
    w3ds_f32(w, v);
}

void support_pos_track(w3ds *w, const float pos[3])
{
    support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 1);
    support_key_vec(w, 0, NULL, pos[0], pos[1], pos[2]);
    w3ds_end(w);
}

void support_pos_track_moving(w3ds *w, float x, float y, float z)
{
    support_track_begin(w, KF3DS_CHUNK_POS_TRACK_TAG, 0, 2);
    support_key_vec(w, 0, NULL, x, y, z);
    support_key_vec(w, 50, NULL, x + 1, y - 1, z + 2);
    w3ds_end(w);
}

void support_end_all(w3ds *w)
{
    while (w->depth > 0 && !w->failed)
        w3ds_end(w);
}
