/* A bottom-up merge sort: runs of width 1, 2, 4... merged back and forth
 * between the array and the scratch space; on ties the left run's element
 * goes first, which is what makes it stable. */
#include "sort.h"
#include <string.h>

void kf3ds__sort(void *base, size_t n, size_t size, void *scratch,
                 int (*less)(const void *a, const void *b))
{
    unsigned char *src = (unsigned char *)base, *dst = (unsigned char *)scratch;
    size_t width, i;
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            size_t mid = n - i > width ? i + width : n;
            size_t hi = n - mid > width ? mid + width : n;
            size_t a = i, b = mid, o = i;
            while (a < mid && b < hi) {
                if (less(src + b * size, src + a * size))
                    memcpy(dst + o++ * size, src + b++ * size, size);
                else
                    memcpy(dst + o++ * size, src + a++ * size, size);
            }
            memcpy(dst + o * size, src + a * size, (mid - a) * size);
            o += mid - a;
            memcpy(dst + o * size, src + b * size, (hi - b) * size);
        }
        dst = src;
        src = src == (unsigned char *)base ? (unsigned char *)scratch : (unsigned char *)base;
    }
    if (src != (unsigned char *)base)
        memcpy(base, src, n * size);
}
