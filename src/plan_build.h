/* Building the evaluation plan (eval_plan.c), the last step of a load and of
 * kf3ds_builder_finish. */
#ifndef KF3DS_PLAN_BUILD_H
#define KF3DS_PLAN_BUILD_H
#include "load_ctx.h"

/* Builds the plan of the loaded scene's nodes (parents, evaluation order
 * and links resolved) into the scene's internal record. */
void kf3ds__plan_build(kf3ds__load_ctx *ctx);

#endif
