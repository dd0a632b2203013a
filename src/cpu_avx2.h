/* Whether the CPU and the OS run AVX2 code, for the fast paths that choose
 * at run time (docs/architecture.md, "Fast paths"): CPUID leaf 1 (OSXSAVE and
 * AVX), XCR0 bits 1 and 2 (the OS saves the registers), leaf 7 (AVX2).
 * Our own test, not __builtin_cpu_supports, which reads libgcc's
 * __cpu_model: the core asks nothing of its environment but string and
 * math functions (README, "What it needs"). Static: the core and the
 * renderer are separate shared libraries whose internal names do not cross,
 * so each includes this in the unit that picks its fast path (eval.c,
 * render/raster_fill_pick.c) and keeps its own answer, asked once. */
#ifndef KF3DS_CPU_AVX2_H
#define KF3DS_CPU_AVX2_H

#include "simd.h"

#if defined(KF3DS__AVX2)
#include <cpuid.h>

static inline int kf3ds__cpu_avx2(void)
{
    static int known; /* 0: not asked yet; 1: no; 2: yes */
    int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (!v) {
        unsigned a, b, c, d, lo, hi;
        v = 1;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27)) && (c & (1u << 28))) {
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6u) == 6u && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5)))
                v = 2;
        }
        __atomic_store_n(&known, v, __ATOMIC_RELAXED);
    }
    return v == 2;
}
#endif

#endif
