/* The chunk writers of support.h: the tests and fuzz/gen_seeds write the same
 * small pieces of files. No cmocka here (gen_seeds links this file). */
#include "support.h"

void support_file_begin(w3ds *w, uint16_t section)
{
    w3ds_init(w);
    w3ds_begin(w, 0x4D4D); /* M3DMAGIC */
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
    support_chunk_u16(w, 0xB030, id); /* NODE_ID */
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
    w3ds_begin(w, 0xB00A); /* KFHDR */
    w3ds_u16(w, 5);
    w3ds_cstr(w, name);
    w3ds_i32(w, frames);
    w3ds_end(w);
    w3ds_begin(w, 0xB008); /* KFSEG */
    w3ds_i32(w, 0);
    w3ds_i32(w, frames);
    w3ds_end(w);
}

void support_pos_track(w3ds *w, const float pos[3])
{
    support_track_begin(w, 0xB020, 0, 1);
    support_key_vec(w, 0, NULL, pos[0], pos[1], pos[2]);
    w3ds_end(w);
}

void support_end_all(w3ds *w)
{
    while (w->depth > 0 && !w->failed)
        w3ds_end(w);
}
