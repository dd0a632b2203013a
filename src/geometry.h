/* Small vector and box helpers shared by the core and the renderer, inline
 * so that each module gets its own copy of the code without a second source. */
#ifndef KF3DS_GEOMETRY_H
#define KF3DS_GEOMETRY_H
#include "kf3ds.h"
#include <math.h>

#define KF3DS__PI 3.14159265358979323846
#define KF3DS__DEG2RAD (KF3DS__PI / 180.0)
#define KF3DS__RAD2DEG (180.0 / KF3DS__PI)

/* A point counts for bounds and drawing when each coordinate is within ±1e30
 * (NaN fails the test). */
static inline int kf3ds__finite3(const float v[3])
{
    return fabsf(v[0]) <= 1e30f && fabsf(v[1]) <= 1e30f && fabsf(v[2]) <= 1e30f;
}

/* An empty box: growing it by any point gives that point. */
static inline void kf3ds__box_empty(float mn[3], float mx[3])
{
    int k;
    for (k = 0; k < 3; k++) {
        mn[k] = INFINITY;
        mx[k] = -INFINITY;
    }
}

/* Grows the box [mn, mx] to hold p; a point that is not finite is left out.
 * Returns whether p counted. */
static inline int kf3ds__box_grow(float mn[3], float mx[3], const float p[3])
{
    int k;
    if (!kf3ds__finite3(p))
        return 0;
    for (k = 0; k < 3; k++) {
        if (p[k] < mn[k])
            mn[k] = p[k];
        if (p[k] > mx[k])
            mx[k] = p[k];
    }
    return 1;
}

/* The world position of a pose: the translation column of its matrix. */
static inline void kf3ds__pose_position(const kf3ds_pose *pose, float out[3])
{
    out[0] = pose->world.m[0][3];
    out[1] = pose->world.m[1][3];
    out[2] = pose->world.m[2][3];
}

/* Grows the box by the position of every node but ambient ones; returns
 * whether any counted. */
static inline int kf3ds__box_grow_nodes(const kf3ds_scene *s, const kf3ds_pose *poses,
                                        float mn[3], float mx[3])
{
    uint32_t i;
    int any = 0;
    for (i = 0; i < s->num_nodes; i++) {
        float w[3];
        if (s->nodes[i].type == KF3DS_NODE_AMBIENT)
            continue;
        kf3ds__pose_position(&poses[i], w);
        any |= kf3ds__box_grow(mn, mx, w);
    }
    return any;
}

/* Normalises v (double); returns its length before (0 leaves v as it was). */
static inline double kf3ds__normalize3d(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
    return l;
}

/* out = a × b (double); out must not alias a or b. */
static inline void kf3ds__cross3d(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Scales v to unit length and returns the old length; a vector of length 0
 * or beyond 1e30 (or with a NaN) becomes the zero vector, and 0 is returned. */
static inline float kf3ds__normalize3f(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f && l <= 1e30f) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
        return l;
    }
    v[0] = v[1] = v[2] = 0.0f;
    return 0.0f;
}

/* out = a × b; out may alias a or b. */
static inline void kf3ds__cross3f(const float a[3], const float b[3], float out[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
          z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

#endif
