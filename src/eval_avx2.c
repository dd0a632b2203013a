/* kf3ds_scene_eval's frame loop (eval_loop.h) compiled for CPUs with AVX2,
 * which kf3ds_scene_eval runs when the CPU has it: the code eval.c compiles; the
 * three-operand VEX forms drop the register copies that two-operand SSE
 * needs, and the squad batch runs eight lanes to a vector: fewer
 * instructions per node (docs/performance.md, "Evaluation"). The
 * target enables avx2 alone, not fma, so no product and sum is contracted
 * into one rounding: the same operations, the same bits (make plain-check
 * compares them). */
#include "eval_loop.h"

#if defined(KF3DS__AVX2)
#include <cpuid.h>

/* CPUID leaf 1: OSXSAVE and AVX; XCR0 bits 1 and 2 (the OS saves the
 * registers); leaf 7: AVX2. Asked once. The core's own test: the renderer's
 * kf3ds__cpu_has_avx2 lives in the other library. */
int kf3ds__cpu_avx2(void)
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

__attribute__((target("avx2"))) void kf3ds__eval_frame_avx2(const kf3ds_scene *scene,
                                                            const kf3ds__plan *plan,
                                                            double frame, unsigned flags,
                                                            kf3ds_pose *poses)
{
    eval_frame(scene, plan, frame, flags, poses);
}

#else
typedef int kf3ds__eval_avx2_unused; /* ISO C wants a declaration in every unit */
#endif
