/* World matrices from local ones: world = parent · L for the three top
 * rows, kept within range (docs/robustness.md). Inline, shared by the
 * evaluation (eval.c) and the plan (eval_plan.c), which works out the world
 * matrices of nodes that never move once, with these same operations. */
#ifndef KF3DS_WORLD_ROWS_H
#define KF3DS_WORLD_ROWS_H
#include "kf3ds.h"
#include "value_range.h"
#include <math.h>
#include <string.h>

/* Keeps the three top rows of a matrix within ±KF3DS__MAX_WORLD (NaN, which
 * finite inputs cannot produce, would become 0): a long chain of scaled
 * nodes must not overflow to infinity (docs/robustness.md). The check is
 * branch-free and nearly always passes. */
static inline int rows_in_range(const float *v)
{
    int i, ok = 1;
    for (i = 0; i < 12; i++)
        ok &= fabsf(v[i]) <= KF3DS__MAX_WORLD;
    return ok;
}

static inline void clamp_rows(float *v)
{
    int i;
    for (i = 0; i < 12; i++)
        v[i] = v[i] > KF3DS__MAX_WORLD    ? KF3DS__MAX_WORLD
               : v[i] < -KF3DS__MAX_WORLD ? -KF3DS__MAX_WORLD
               : v[i] == v[i]             ? v[i]
                                          : 0.0f;
}

static inline void bound_matrix(kf3ds_mat4 *m)
{
    if (!rows_in_range(&m->m[0][0]))
        clamp_rows(&m->m[0][0]);
}

/* out = a · L for the three top rows: row i is a_i0·L0 + a_i1·L1 + a_i2·L2 +
 * (0, 0, 0, a_i3); L itself when a is NULL (a root). The range check of
 * bound_matrix is done on the values before they are stored (reading them
 * back as vectors right after they are stored would stall on store
 * forwarding); returns 0 when one is out of range. With GCC or clang in
 * vector form (world_rows_vector.h), else the plain C reference
 * (world_rows_plain.h; -DKF3DS_PLAIN_C selects it): the same bits.
 * `built` says L was just computed element-wise (its rows are then built
 * from the values: loading them as vectors would stall on store forwarding);
 * otherwise (a plan's fixed rows) they are loaded. */
#include "simd.h"
#if defined(KF3DS__GNUC_VECTORS)
#include "world_rows_vector.h"
#else
#include "world_rows_plain.h"
#endif

/* world = parent · L (parent may be NULL: world = L), its bottom row 0 0 0 1,
 * its entries kept within range; `built` as for multiply_rows. */
static inline void kf3ds__world_rows(const kf3ds_mat4 *parent, const float l[3][4], int built,
                                     kf3ds_mat4 *world)
{
    int ok =
        multiply_rows(parent ? (const float(*)[4])parent->m : NULL, l, built, world->m);
    world->m[3][0] = world->m[3][1] = world->m[3][2] = 0.0f;
    world->m[3][3] = 1.0f;
    if (!ok)
        clamp_rows(&world->m[0][0]);
}

/* world = T(pos) kept within range, for a camera, light or target without a
 * parent: only the position's entries can be out of range, and they are
 * tested as integers, as multiply_rows tests its rows (a magnitude's bit
 * pattern is above the limit's exactly when it is out of range or a NaN).
 * Most of a lights scene's placement (docs/performance.md, "Evaluation":
 * bench-lights). */
static inline void kf3ds__translation_world(const float pos[3], kf3ds_mat4 *world)
{
    static const kf3ds_mat4 identity = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 },
                                           { 0, 0, 1, 0 }, { 0, 0, 0, 1 } } };
    const float limf = KF3DS__MAX_WORLD;
    uint32_t x, y, z, lim;
    memcpy(&x, &pos[0], sizeof x);
    memcpy(&y, &pos[1], sizeof y);
    memcpy(&z, &pos[2], sizeof z);
    memcpy(&lim, &limf, sizeof lim);
    *world = identity;
    world->m[0][3] = pos[0];
    world->m[1][3] = pos[1];
    world->m[2][3] = pos[2];
    if (((x & 0x7FFFFFFFu) > lim) | ((y & 0x7FFFFFFFu) > lim) | ((z & 0x7FFFFFFFu) > lim))
        clamp_rows(&world->m[0][0]);
}

#endif
