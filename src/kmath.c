/* Vectors, quaternions (x, y, z, w), 4×4 column-vector matrices and the
 * camera look-at. The quaternion helpers follow lib3ds 1.3's definitions,
 * which kf3ds's evaluation adopts (docs/evaluation.md, "Rotation tracks"). */
#include "kmath.h"
#include "geometry.h"
#include <math.h>

#define KF3DS__EPSILON 1e-8

void kf3ds__quat_identity(float q[4])
{
    q[0] = q[1] = q[2] = 0.0f;
    q[3] = 1.0f;
}

/* Rotation by `angle` about `axis` (normalised here); a zero axis gives the identity. */
void kf3ds__quat_axis_angle(float q[4], const float axis[3], float angle)
{
    double l = sqrt((double)axis[0] * axis[0] + (double)axis[1] * axis[1] +
                    (double)axis[2] * axis[2]);
    double half, s;
    if (!(l >= KF3DS__EPSILON) || !isfinite(l)) {
        kf3ds__quat_identity(q);
        return;
    }
    half = 0.5 * (double)angle;
    s = sin(half) / l;
    q[0] = (float)(s * axis[0]);
    q[1] = (float)(s * axis[1]);
    q[2] = (float)(s * axis[2]);
    q[3] = (float)cos(half);
}

void kf3ds_mat4_identity(kf3ds_mat4 *out)
{
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            out->m[i][j] = i == j ? 1.0f : 0.0f;
}


float kf3ds__mat4_det3(const kf3ds_mat4 *mat)
{
    const float(*m)[4] = mat->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

void kf3ds_mat4_mul(const kf3ds_mat4 *a, const kf3ds_mat4 *b, kf3ds_mat4 *out)
{
    kf3ds_mat4 r;
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] +
                        a->m[i][2] * b->m[2][j] + a->m[i][3] * b->m[3][j];
    *out = r;
}

void kf3ds__mat4_mul_affine(const kf3ds_mat4 *a, const kf3ds_mat4 *b, kf3ds_mat4 *out)
{
    kf3ds_mat4 r;
    int i;
    for (i = 0; i < 3; i++) {
        const float *ar = a->m[i];
        r.m[i][0] = ar[0] * b->m[0][0] + ar[1] * b->m[1][0] + ar[2] * b->m[2][0];
        r.m[i][1] = ar[0] * b->m[0][1] + ar[1] * b->m[1][1] + ar[2] * b->m[2][1];
        r.m[i][2] = ar[0] * b->m[0][2] + ar[1] * b->m[1][2] + ar[2] * b->m[2][2];
        r.m[i][3] = ar[0] * b->m[0][3] + ar[1] * b->m[1][3] + ar[2] * b->m[2][3] + ar[3];
    }
    r.m[3][0] = r.m[3][1] = r.m[3][2] = 0.0f;
    r.m[3][3] = 1.0f;
    *out = r;
}

void kf3ds_mat4_transform_point(const kf3ds_mat4 *mat, const float p[3], float out[3])
{
    const float(*m)[4] = mat->m;
    float x = m[0][0] * p[0] + m[0][1] * p[1] + m[0][2] * p[2] + m[0][3];
    float y = m[1][0] * p[0] + m[1][1] * p[1] + m[1][2] * p[2] + m[1][3];
    float z = m[2][0] * p[0] + m[2][1] * p[1] + m[2][2] * p[2] + m[2][3];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* General 4×4 inverse by cofactors in double precision. Returns 0 (and the
 * identity) when the matrix is singular or not finite. */
int kf3ds_mat4_invert(const kf3ds_mat4 *m, kf3ds_mat4 *out)
{
    double a[16], inv[16], det;
    int i;
    for (i = 0; i < 16; i++)
        a[i] = m->m[i / 4][i % 4];
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] +
             a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] -
             a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] +
             a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] -
              a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] -
             a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] +
             a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] -
             a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] +
              a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] +
             a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] -
             a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] +
              a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] -
              a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] -
             a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] +
             a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] -
              a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] +
              a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    if (!(fabs(det) > 1e-30) || !isfinite(det)) {
        kf3ds_mat4_identity(out);
        return 0;
    }
    for (i = 0; i < 16; i++)
        out->m[i / 4][i % 4] = (float)(inv[i] / det);
    return 1;
}

int kf3ds__look_at(const double pos[3], const double tgt[3], double roll_degrees,
                   kf3ds_mat4 *view, double rows[3][3])
{
    double fwd[3], up0[3] = {0, 0, 1}, right[3], up[3], r, cr, sr;
    int i, j, ok;
    for (i = 0; i < 3; i++)
        fwd[i] = tgt[i] - pos[i];
    /* lib3ds's look-at: forward = camera +Y, up from world Z (or −X when
     * looking straight up or down). */
    if (fwd[0] == 0.0 && fwd[1] == 0.0) {
        up0[0] = -1.0;
        up0[2] = 0.0;
    }
    ok = kf3ds__normalize3d(fwd) > 0.0;
    kf3ds__cross3d(fwd, up0, right);
    ok &= kf3ds__normalize3d(right) > 0.0;
    kf3ds__cross3d(right, fwd, up);
    kf3ds__normalize3d(up);
    /* Roll (degrees) about the view axis, with lib3ds 1.3's sign: Ry(+roll)
     * in 3DS camera space, which is a rotation by −roll about OpenGL's +z. */
    r = roll_degrees == roll_degrees && fabs(roll_degrees) <= 1e6 ? -roll_degrees * KF3DS__DEG2RAD
                                                                 : 0.0;
    cr = cos(r);
    sr = sin(r);
    for (j = 0; j < 3; j++) {
        rows[0][j] = cr * right[j] - sr * up[j];
        rows[1][j] = sr * right[j] + cr * up[j];
        rows[2][j] = -fwd[j];
    }
    for (i = 0; i < 3; i++) {
        double t = 0.0;
        for (j = 0; j < 3; j++) {
            view->m[i][j] = (float)rows[i][j];
            t -= rows[i][j] * pos[j];
        }
        view->m[i][3] = (float)t;
    }
    view->m[3][0] = view->m[3][1] = view->m[3][2] = 0.0f;
    view->m[3][3] = 1.0f;
    return ok;
}

int kf3ds_look_at(const float eye[3], const float target[3], float roll_degrees, kf3ds_mat4 *view)
{
    double pos[3], tgt[3], rows[3][3];
    int i;
    if (!eye || !target || !view)
        return 0;
    for (i = 0; i < 3; i++) {
        pos[i] = eye[i];
        tgt[i] = target[i];
    }
    return kf3ds__look_at(pos, tgt, roll_degrees, view, rows);
}
