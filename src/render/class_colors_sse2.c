/* kf3ds__class_colors_all_sse2 (class_colors.h). */
#include "class_colors.h"

#if defined(KF3DS__SSE2)
/* kf3ds__class_color_headlight for every class of a mesh whose classes share one
 * material (class_slot), on the side `back`, four classes at once: lane j is
 * class ci + j and has the scalar code's operations in its order (each
 * channel's constants are the scalar products, computed once), so the same
 * colours bit for bit. One batch costs about what one class costs alone, so
 * lighting all classes beats lighting the half a convex mesh shows one at a
 * time (docs/performance.md). Marks them computed with the mesh's stamp. */
void kf3ds__class_colors_all_sse2(kf3ds_renderer *r, const kf3ds__render_mesh *rm,
                                  const float C[3][3], int back)
{
    const kf3ds__render_material *mt = &r->materials[rm->class_slot];
    const uint32_t nc = rm->num_classes, stamp = r->color_stamp;
    const __m128 zero = _mm_setzero_ps(), sign = _mm_set1_ps(back ? -1.0f : 1.0f);
    const float si = mt->self_illum;
    const int highlights = mt->shine_strength > 0.0f;
    const unsigned expo = highlights ? (unsigned)(mt->shine_exponent + 0.5f) : 0u;
    __m128 base[3], sc[3], dif[3];
    uint32_t ci;
    int k, j;
    for (k = 0; k < 3; k++) {
        base[k] = _mm_set1_ps(mt->ambient[k] * r->ambient[k]); /* mix_terms' add */
        sc[k] = _mm_set1_ps(mt->specular[k]);
        dif[k] = _mm_set1_ps(mt->diffuse[k]);
    }
    for (ci = 0; ci < nc; ci += 4) {
        __m128 cn[3], n[3], l, nd, spec = zero, ok;
        __m128i px = _mm_set1_epi32((int)0xFF000000u);
        uint32_t out[4];
        const float *c[4];
        for (j = 0; j < 4; j++) /* lanes past the end repeat the last class */
            c[j] = rm->class_normals[ci + (uint32_t)j < nc ? ci + (uint32_t)j : nc - 1];
        for (k = 0; k < 3; k++)
            cn[k] = _mm_set_ps(c[3][k], c[2][k], c[1][k], c[0][k]);
        for (k = 0; k < 3; k++) /* kf3ds__class_normal */
            n[k] = _mm_mul_ps(
                sign, _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(C[k][0]), cn[0]),
                                            _mm_mul_ps(_mm_set1_ps(C[k][1]), cn[1])),
                                 _mm_mul_ps(_mm_set1_ps(C[k][2]), cn[2])));
        l = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(n[0], n[0]), _mm_mul_ps(n[1], n[1])),
                                   _mm_mul_ps(n[2], n[2])));
        ok = _mm_and_ps(_mm_cmpgt_ps(l, zero), _mm_cmple_ps(l, _mm_set1_ps(1e30f)));
        /* max(nd, +0) is nd > 0 ? nd : +0; lanes not ok are 0 */
        nd = _mm_and_ps(ok, _mm_max_ps(_mm_div_ps(n[2], l), zero));
        if (highlights) { /* kf3ds__highlight: the same squarings on every lane */
            __m128 h = _mm_set1_ps(1.0f), b = nd;
            unsigned e = expo;
            while (e) {
                if (e & 1u)
                    h = _mm_mul_ps(h, b);
                b = _mm_mul_ps(b, b);
                e >>= 1;
            }
            h = _mm_and_ps(_mm_cmpgt_ps(nd, zero), h);
            spec = _mm_add_ps(zero, _mm_mul_ps(_mm_set1_ps(r->headlight[0]), h));
        }
        spec = _mm_mul_ps(spec, _mm_set1_ps(mt->shine_strength));
        for (k = 0; k < 3; k++) { /* acc, then kf3ds__mix_terms, then the colour */
            __m128 mul = _mm_add_ps(_mm_set1_ps(KF3DS__FILL_LIGHT),
                                    _mm_mul_ps(_mm_set1_ps(r->headlight[k]), nd));
            __m128 add = base[k], v;
            if (mt->metal)
                mul = _mm_add_ps(mul, spec);
            else
                add = _mm_add_ps(add, _mm_mul_ps(spec, sc[k]));
            add = _mm_mul_ps(add, _mm_set1_ps(1.0f - si));
            mul = _mm_add_ps(_mm_mul_ps(mul, _mm_set1_ps(1.0f - si)), _mm_set1_ps(si));
            v = _mm_add_ps(add, _mm_mul_ps(mul, dif[k]));
            /* kf3ds__pack_rgb: clamp01 (NaN gives 0), ·255 + 0.5, truncated */
            v = _mm_and_ps(_mm_cmpgt_ps(v, zero), _mm_min_ps(v, _mm_set1_ps(1.0f)));
            v = _mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
            px = _mm_or_si128(px, _mm_slli_epi32(_mm_cvttps_epi32(v), 16 - 8 * k));
        }
        _mm_storeu_si128((__m128i *)(void *)out, px);
        for (j = 0; j < 4 && ci + (uint32_t)j < nc; j++) {
            r->class_color[2 * (ci + (uint32_t)j) + (uint32_t)back] = out[j];
            r->class_color_stamp[2 * (ci + (uint32_t)j) + (uint32_t)back] = stamp;
        }
    }
}
#endif
