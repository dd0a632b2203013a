/* mk3ds matrices (mk3ds.h): double m[4][4], m[row][col], column vectors. The
 * generator has its own (it does not link the library it makes inputs for). */
#include "mk3ds.h"

#include <math.h>

mat4 mat_identity(void)
{
    mat4 r;
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            r.m[i][j] = i == j;
    return r;
}

mat4 mat_mul(mat4 a, mat4 b)
{
    mat4 r;
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            double s = 0;
            for (k = 0; k < 4; k++)
                s += a.m[i][k] * b.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

mat4 mat_translate(double x, double y, double z)
{
    mat4 r = mat_identity();
    r.m[0][3] = x;
    r.m[1][3] = y;
    r.m[2][3] = z;
    return r;
}

mat4 mat_scale(double x, double y, double z)
{
    mat4 r = mat_identity();
    r.m[0][0] = x;
    r.m[1][1] = y;
    r.m[2][2] = z;
    return r;
}

mat4 mat_rotate(double angle, double x, double y, double z)
{
    mat4 r = mat_identity();
    double len = sqrt(x * x + y * y + z * z), c, s, t;
    if (len < 1e-12)
        return r;
    x /= len;
    y /= len;
    z /= len;
    c = cos(angle);
    s = sin(angle);
    t = 1 - c;
    r.m[0][0] = t * x * x + c;
    r.m[0][1] = t * x * y - s * z;
    r.m[0][2] = t * x * z + s * y;
    r.m[1][0] = t * x * y + s * z;
    r.m[1][1] = t * y * y + c;
    r.m[1][2] = t * y * z - s * x;
    r.m[2][0] = t * x * z - s * y;
    r.m[2][1] = t * y * z + s * x;
    r.m[2][2] = t * z * z + c;
    return r;
}

void mat_apply(const mat4 *a, const double in[3], double out[3])
{
    int i;
    for (i = 0; i < 3; i++)
        out[i] = a->m[i][0] * in[0] + a->m[i][1] * in[1] + a->m[i][2] * in[2] + a->m[i][3];
}

double mat_det3(const mat4 *a)
{
    const double(*m)[4] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

void mat_to_mesh_matrix(const mat4 *a, float out[12])
{
    int c, r;
    for (c = 0; c < 4; c++)
        for (r = 0; r < 3; r++)
            out[3 * c + r] = (float)a->m[r][c];
}
