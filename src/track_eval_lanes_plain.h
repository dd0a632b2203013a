/* The plain C reference of evaluation's vector steps (track_eval.h): the
 * squad batch's gather and scatter and a vector record's cubic. The
 * reference gathers and scatters nothing four at a time (track_eval.h's
 * float-by-float loops do it all). Its fast version is
 * track_eval_lanes_vector.h; track_eval.h chooses one per build
 * (docs/architecture.md, "Fast paths"). */
#ifndef KF3DS_TRACK_EVAL_LANES_PLAIN_H
#define KF3DS_TRACK_EVAL_LANES_PLAIN_H

/* key[k][lane], con[k][lane] from record floats 4..19 and 20..27 of the
 * first lanes of seg[0..n-1], four at a time; returns the lanes done. */
static inline unsigned kf3ds__squad_gather4(const float *const *seg, unsigned n,
                                            float key[16][KF3DS__SQUAD_LANES],
                                            float con[8][KF3DS__SQUAD_LANES])
{
    (void)seg;
    (void)n;
    (void)key;
    (void)con;
    return 0;
}

/* out[lane][k] = r[k][lane] for the first lanes, four at a time, while no
 * lane of the four needs the general slerp (1 + l <= 1e-8); returns the
 * lanes done. */
static inline unsigned kf3ds__squad_scatter4(const float r[4][KF3DS__SQUAD_LANES],
                                             const float *l, unsigned n, float *const *out)
{
    (void)r;
    (void)l;
    (void)n;
    (void)out;
    return 0;
}

/* out = ((c3·u + c2)·u + c1)·u + c0 of a vector record (track_segments.h). */
static inline void kf3ds__cubic3(const float *rec, float u, float out[3])
{
    int d;
    for (d = 0; d < 3; d++)
        out[d] = ((rec[13 + d] * u + rec[10 + d]) * u + rec[7 + d]) * u + rec[4 + d];
}

#endif
