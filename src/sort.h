/* The library's one sort: stable, without recursion or libc's qsort (the
 * core stays freestanding). */
#ifndef KF3DS_SORT_H
#define KF3DS_SORT_H
#include <stddef.h>

/* Sorts n elements of `size` bytes at base by `less` (a strict weak order),
 * keeping equal elements in their order. scratch holds n elements too; its
 * contents are left undefined. */
void kf3ds__sort(void *base, size_t n, size_t size, void *scratch,
                 int (*less)(const void *a, const void *b));

#endif
