/* Setup's per-key arithmetic, chosen once per build: the GCC/clang vector
 * version or the plain C reference (-DKF3DS_PLAIN_C, or another compiler).
 * Both write the same bits (docs/architecture.md, "Fast paths"). */
#ifndef KF3DS_TRACK_SETUP_MATH_H
#define KF3DS_TRACK_SETUP_MATH_H
#include "simd.h"
#if defined(KF3DS__GNUC_VECTORS)
#include "track_setup_math_vector.h"
#else
#include "track_setup_math_plain.h"
#endif
#endif
