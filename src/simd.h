/* The one seam for fast paths (docs/architecture.md, "Fast paths"): every
 * file that has vector code asks this header which instruction sets the
 * build uses, instead of testing compiler macros itself. -DKF3DS_PLAIN_C
 * turns every fast path off, so the plain C reference beside each one is
 * what gets compiled (make plain-check compares the two builds).
 *   KF3DS__GNUC_VECTORS  GCC/clang vector extension (kf3ds__sv4, kf3ds__si4,
 *                        KF3DS__SHUFFLE2)
 *   KF3DS__SSE2          SSE2 intrinsics (<emmintrin.h> included)
 *   KF3DS__AVX2          AVX2 functions chosen at run time (x86-64 GCC/clang)
 * the one always-inline macro, KF3DS__ALWAYS_INLINE, and the prefetch hints
 * KF3DS__PREFETCH_READ/WRITE (nothing in the plain build). */
#ifndef KF3DS_SIMD_H
#define KF3DS_SIMD_H

/* For small steps on hot paths that compilers would otherwise leave as
 * calls (evaluation's per-node steps, setup's per-key steps, the fill's
 * row bodies). */
#if defined(__GNUC__)
#define KF3DS__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define KF3DS__ALWAYS_INLINE inline
#endif

#if defined(__GNUC__) && !defined(KF3DS_PLAIN_C)
#define KF3DS__GNUC_VECTORS 1
/* Four floats in one vector, for the GCC/clang vector code of setup and
 * evaluation (each has a plain-C path beside it). */
typedef float kf3ds__sv4 __attribute__((vector_size(16)));
typedef int kf3ds__si4 __attribute__((vector_size(16)));
/* Lanes i, j, k, l of a and b side by side (0-3 a's, 4-7 b's). */
#if defined(__clang__)
#define KF3DS__SHUFFLE2(a, b, i, j, k, l) __builtin_shufflevector((a), (b), i, j, k, l)
#else
#define KF3DS__SHUFFLE2(a, b, i, j, k, l) \
    __builtin_shuffle((a), (b), (kf3ds__si4){ i, j, k, l })
#endif
#endif

/* Hints only: they change no result, so the plain build drops them. */
#if defined(KF3DS__GNUC_VECTORS)
#define KF3DS__PREFETCH_READ(p) __builtin_prefetch((p))
#define KF3DS__PREFETCH_WRITE(p) __builtin_prefetch((p), 1)
#else
#define KF3DS__PREFETCH_READ(p) ((void)(p))
#define KF3DS__PREFETCH_WRITE(p) ((void)(p))
#endif

#if defined(__SSE2__) && !defined(KF3DS_PLAIN_C)
#define KF3DS__SSE2 1
#include <emmintrin.h>
#endif

/* The AVX2 functions enable avx2 alone (target attribute), not fma, so no
 * product and sum is contracted into one rounding; the CPU is asked once. */
#if defined(KF3DS__SSE2) && defined(__x86_64__) && defined(__GNUC__)
#define KF3DS__AVX2 1
#endif

#endif
