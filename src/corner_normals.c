/* The exports' smoothing-group normals of one point (corner_normals.h). The
 * sums run in the corners' sorted order, so every caller gets the same bits. */
#include "corner_normals.h"
#include "sort.h"
#include <math.h>
#include <string.h>

static int corner_less(const void *a, const void *b)
{
    const kf3ds__corner *x = (const kf3ds__corner *)a, *y = (const kf3ds__corner *)b;
    return x->mask != y->mask ? x->mask < y->mask : x->corner < y->corner;
}

int kf3ds__unit_normal(const double n[3], float out[3])
{
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    int k;
    if (!(l > 1e-30 && l < 1e300))
        return 0;
    for (k = 0; k < 3; k++)
        out[k] = (float)(n[k] / l);
    return 1;
}

void kf3ds__corner_normals(kf3ds__corner *cs, size_t n, const float (*face_normal)[3],
                           kf3ds__corner *sort, uint32_t *masks, double (*sums)[3],
                           kf3ds__corner_normal_fn fn, void *user)
{
    static const float up[3] = { 0.0f, 0.0f, 1.0f };
    size_t a, e, nm = 0, i;
    kf3ds__sort(cs, n, sizeof *cs, sort, corner_less);
    /* one sum of face normals per distinct mask */
    for (a = 0; a < n; a++) {
        const float *f = face_normal[cs[a].corner / 3];
        if (!nm || masks[nm - 1] != cs[a].mask) {
            masks[nm] = cs[a].mask;
            sums[nm][0] = sums[nm][1] = sums[nm][2] = 0.0;
            nm++;
        }
        for (i = 0; i < 3; i++)
            sums[nm - 1][i] += f[i];
    }
    for (a = 0; a < n; a = e) {
        uint32_t mask = cs[a].mask;
        double sum[3] = { 0.0, 0.0, 0.0 };
        float nrm[3];
        e = a + 1;
        while (e < n && mask != 0 && cs[e].mask == mask)
            e++;
        if (mask)
            for (i = 0; i < nm; i++)
                if (nm <= KF3DS__MAX_OVERLAP_MASKS ? (masks[i] & mask) != 0 : masks[i] == mask) {
                    sum[0] += sums[i][0];
                    sum[1] += sums[i][1];
                    sum[2] += sums[i][2];
                }
        if (!mask || !kf3ds__unit_normal(sum, nrm)) {
            const float *f = face_normal[cs[a].corner / 3];
            memcpy(nrm, f[0] != 0.0f || f[1] != 0.0f || f[2] != 0.0f ? f : up, sizeof nrm);
        }
        fn(user, cs + a, e - a, nrm);
    }
}
