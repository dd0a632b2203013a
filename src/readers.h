/* The readers of the two sections, called by the loader (load.c) in both
 * passes: read_editor.c (MDATA) and read_keyframer.c (KFDATA). */
#ifndef KF3DS_READERS_H
#define KF3DS_READERS_H
#include "load_ctx.h"

/* MDATA in either pass (the counting pass only counts its objects). */
void kf3ds__read_mdata(kf3ds__load_ctx *ctx, const kf3ds_reader *mdata_body);
/* KFDATA: the counting pass counts its node chunks, the filling pass reads them. */
void kf3ds__count_kfdata(kf3ds__load_ctx *ctx, const kf3ds_reader *kfdata_body);
void kf3ds__read_kfdata(kf3ds__load_ctx *ctx, const kf3ds_reader *kfdata_body);
/* After the filling pass: what needs a whole section (face indices, material
 * names, mirrored meshes; parents, evaluation order, name links). */
void kf3ds__finish_editor(kf3ds__load_ctx *ctx);
void kf3ds__finish_keyframer(kf3ds__load_ctx *ctx);

#endif
