/* kf3ds__fill_vertex_of with SSE2: the bytes widened, converted and offset
 * at once, the reference's values (raster_fill_vertex_plain.h). */
#ifndef KF3DS_RASTER_FILL_VERTEX_SSE2_H
#define KF3DS_RASTER_FILL_VERTEX_SSE2_H

static inline void kf3ds__fill_vertex_of(kf3ds__fill_vertex *f, const kf3ds__vertex *v,
                                         uint32_t color, int flat)
{
    const __m128i zero = _mm_setzero_si128();
    __m128i c = _mm_cvtsi32_si128((int)color);
    __m128 bgra;
    (void)flat;
    f->X = v->X;
    f->Y = v->Y;
    c = _mm_unpacklo_epi16(_mm_unpacklo_epi8(c, zero), zero);
    bgra = _mm_add_ps(_mm_cvtepi32_ps(c), _mm_set1_ps(0.5f));
    _mm_storeu_ps(f->v, _mm_move_ss(_mm_shuffle_ps(bgra, bgra, _MM_SHUFFLE(0, 1, 2, 3)),
                                    _mm_set_ss(v->w)));
}

#endif
