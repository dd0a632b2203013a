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
