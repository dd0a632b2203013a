/* Recording the file's chunk layout for lossless saving (layout.c, source.h). */
#ifndef KF3DS_LAYOUT_H
#define KF3DS_LAYOUT_H
#include "source.h"
#include "arena.h"

/* Records the layout of data[0, size) into src (its entries and the element
 * counts they stand for) in the arena; the node chunks past max_nodes, which
 * the loader does not read, are marked shadowed. Returns the entries, or
 * NULL when the arena refuses (then src has no layout). */
const kf3ds__layout_chunk *kf3ds__layout_record(kf3ds__arena *arena, const void *data, size_t size,
                                       uint32_t max_nodes, kf3ds__source *src);

/* 1 for a chunk the loader skips but other readers descend into whose
 * sub-chunks are damaged (lengths that do not tile it): kept verbatim by a
 * lossless save, dropped by a repairing one, so the loader warns of it. */
int kf3ds__layout_damaged(const kf3ds__layout_chunk *e);

#endif
