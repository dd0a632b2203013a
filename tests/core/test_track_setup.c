/* What loading derives for rotation tracks (src/track_setup.c), against the
 * definitions of docs/evaluation.md ("Rotation tracks") evaluated in long
 * double from the same stored floats: the accumulated orientations Q_k (from
 * the increment rounded to float, as setup does for host-independent bits), the
 * squad controls A_i and B_i, and the slerp constants of every segment
 * record; and the double-precision helpers that setup uses instead of
 * libm's sin, cos, atan2 and acos (src/kmath.h). The bound is half an ulp
 * of each float result (plus a little): setup computes in double and
 * rounds once. Files: the samples in data/, the corpus when present, and a built
 * scene with the awkward cases (zero axis, tiny and half-turn angles,
 * multi-turn keys, TCB, uneven spacing, a closed loop). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "kf3ds.h"
#include "support_build.h"
#include "support.h"
#include "../../src/kmath.h"
#include "../../src/track_segments.h"

typedef long double ld;

static void test_sincos_d(void **state)
{
    double worst = 0.0, worst_red = 0.0;
    int i;
    (void)state;
    for (i = -400000; i <= 400000; i++) {
        /* [-8π, 8π] finely, then out to ±1e5 and a little beyond (libm) */
        double x = i * (8.0 * 3.141592653589793 / 400000.0), s, c, red;
        if (i % 7 == 0)
            x = i * 0.25000000001;
        red = kf3ds__sincos_d(x, &s, &c);
        worst = fmax(worst, (double)fabsl(s - sinl((ld)x)));
        worst = fmax(worst, (double)fabsl(c - cosl((ld)x)));
        assert_true(red >= -3.14159265358979324 && red <= 3.14159265358979324);
        worst_red = fmax(worst_red, fmax((double)fabsl(sinl((ld)red) - sinl((ld)x)),
                                         (double)fabsl(cosl((ld)red) - cosl((ld)x))));
    }
    print_message("sincos_d: worst error %.2e, of the reduced angle %.2e\n", worst, worst_red);
    assert_true(worst < 5e-16);
    assert_true(worst_red < 1e-11); /* m·π/2 in double, |m| up to 6e4 */
}

static void test_atan2_near(void **state)
{
    double worst = 0.0;
    int i;
    (void)state;
    for (i = 0; i <= 20000; i++) {
        /* φ over [0, π], the point at φ + δ, δ from -2e-4 to 2e-4, at radius
         * near 1 */
        double phi = i * (3.141592653589793 / 20000.0);
        double delta = ((i * 7919) % 2001 - 1000) * 2e-7, r = 1.0 + (i % 13) * 1e-7;
        double y = r * sin(phi + delta), x = r * cos(phi + delta);
        double got = kf3ds__atan2_near(y, x, phi, sin(phi), cos(phi));
        if (y >= 0.0)
            worst = fmax(worst, (double)fabsl(got - atan2l((ld)y, (ld)x)));
    }
    print_message("atan2_near: worst error %.2e\n", worst);
    assert_true(worst < 5e-16);
    /* far from φ: libm's atan2 itself */
    assert_true(kf3ds__atan2_near(1.0, 0.0, 0.1, sin(0.1), cos(0.1)) == atan2(1.0, 0.0));
}

/* ---- rotation setup against the definitions ------------------------------ */

typedef struct worst {
    double q, ab, om, inv_sin;
    unsigned long keys, controls, slerps;
} worst;

/* The spacing of floats at |x| */
static ld float_ulp(ld x)
{
    int e;
    frexpl(x, &e);
    return ldexpl(1.0L, e - 24);
}

/* |got − ref| in ulps of ref, less 1e-15: what double arithmetic leaves
 * in a sum of products near 1, which can cancel to a tiny component */
static double ulps(float got, ld ref)
{
    return (double)((fabsl(got - ref) - 1e-15L) / float_ulp(ref));
}

static void qmul(const ld a[4], const ld b[4], ld o[4])
{
    ld r[4];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2];
    r[2] = a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(o, r, sizeof r);
}

static void widen(const float *f, ld *o)
{
    int d;
    for (d = 0; d < 4; d++)
        o[d] = f[d];
}

/* ln(a⁻¹ ⊗ b) with the helpers of docs/evaluation.md ("Squad") */
static void ln_step(const ld a[4], const ld b[4], ld g[4])
{
    ld l = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3], inv[4], s, t;
    inv[0] = -a[0] / l;
    inv[1] = -a[1] / l;
    inv[2] = -a[2] / l;
    inv[3] = a[3] / l;
    qmul(inv, b, g);
    s = sqrtl(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    t = s < 1e-8L ? 0.0L : atan2l(s, g[3]) / s;
    g[0] *= t;
    g[1] *= t;
    g[2] *= t;
    g[3] = 0.0L;
}

static void mul_exp(const ld q[4], ld v[4], ld out[4])
{
    ld om = sqrtl(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    ld t = om < 1e-8L ? 1.0L : sinl(om) / om;
    v[0] *= t;
    v[1] *= t;
    v[2] *= t;
    v[3] = cosl(om);
    qmul(q, v, out);
}

static float dotf(const float a[4], const float b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

static void check_slerp(const float *a, const float *b, const float *got, worst *w)
{
    ld l = 0.0L, s;
    int d;
    for (d = 0; d < 4; d++)
        l += (ld)a[d] * b[d];
    if (1.0L + l <= 1e-6L || got[2] <= 0.0f)
        return; /* nearly opposite, or linear weights */
    if (l > 1.0L)
        l = 1.0L;
    s = sqrtl((1.0L - l) * (1.0L + l));
    /* in ulps of the result, less what a·b summed in double (within
     * 4.5e-16) moves ω and 1/sin ω by, δl/sin ω and δl/sin³ω: the rest is
     * setup's own */
    w->om = fmax(w->om, (double)((fabsl(got[0] - acosl(l)) - 4.5e-16L / s) /
                                 float_ulp(acosl(l))));
    w->inv_sin = fmax(w->inv_sin, (double)((fabsl(got[2] - 1.0L / s) - 4.5e-16L / (s * s * s)) /
                                           float_ulp(1.0L / s)));
    w->slerps++;
}

static void check_controls(const kf3ds_track *t, uint32_t i, worst *w)
{
    const kf3ds_key *k = t->keys, *c = &k[i], *p = i > 0 ? &k[i - 1] : NULL, *n;
    uint32_t last = t->num_keys - 1;
    ld dtp, dtn, qp[4], qc[4], qn[4], gm[4], gp[4], a[4], b[4], A[4], B[4];
    ld fp = 1.0L, fn = 1.0L, dt, cc, tm, cm, cp, bm, bp, ksm, ksp, kdm, kdp;
    float in[4], out[4];
    int d, cyclic = (t->flags & 3) == 3 && t->num_keys >= 2;
    n = i < last ? &k[i + 1] : NULL;
    dtp = p ? (ld)c->frame - p->frame : 0.0L;
    dtn = n ? (ld)n->frame - c->frame : 0.0L;
    if (cyclic && i == 0) {
        p = &k[last - 1];
        dtp = (ld)k[last].frame - k[last - 1].frame;
    }
    if (cyclic && i == last) {
        n = &k[1];
        dtn = (ld)k[1].frame - k[0].frame;
    }
    if (!p || !n)
        return;
    widen(p->quat, qp);
    widen(c->quat, qc);
    widen(n->quat, qn);
    for (d = 0; d < 4; d++) { /* neighbours turned to Q_i's side (the float test) */
        qp[d] = dotf(p->quat, c->quat) < 0.0f ? -qp[d] : qp[d];
        qn[d] = dotf(n->quat, c->quat) < 0.0f ? -qn[d] : qn[d];
    }
    ln_step(qp, qc, gm);
    ln_step(qc, qn, gp);
    dt = 0.5L * (dtp + dtn);
    cc = fabsl((ld)c->continuity);
    if (dt != 0.0L) {
        fp = dtp / dt;
        fn = dtn / dt;
    }
    fp = fp + cc - cc * fp;
    fn = fn + cc - cc * fn;
    tm = 0.5L * (1.0L - c->tension);
    cm = 1.0L - c->continuity;
    cp = 2.0L - cm;
    bm = 1.0L - c->bias;
    bp = 2.0L - bm;
    ksm = tm * cm * bp * fp;
    ksp = tm * cp * bm * fp;
    kdm = tm * cp * bp * fn;
    kdp = tm * cm * bm * fn;
    for (d = 0; d < 4; d++) {
        a[d] = 0.5L * (kdm * gm[d] + (kdp - 1.0L) * gp[d]);
        b[d] = 0.5L * ((1.0L - ksm) * gm[d] - ksp * gp[d]);
    }
    mul_exp(qc, a, A);
    mul_exp(qc, b, B);
    assert_int_equal(kf3ds_track_key_tangents(t, KF3DS_TRACK_ROT, i, in, out), 4);
    for (d = 0; d < 4; d++)
        w->ab = fmax(w->ab, fmax(ulps(out[d], A[d]), ulps(in[d], B[d])));
    w->controls++;
}

static void check_track(const kf3ds_track *t, worst *w)
{
    const kf3ds_key *k = t->keys;
    uint32_t i;
    int d;
    for (i = 0; i < t->num_keys; i++) {
        /* Q_k = q(a_k, −θ_k) ⊗ Q_{k−1}, from the stored Q_{k−1} */
        const float *ax = &k[i].value[1];
        ld l = sqrtl((ld)ax[0] * ax[0] + (ld)ax[1] * ax[1] + (ld)ax[2] * ax[2]);
        ld h = -0.5L * k[i].value[0], q[4], prev[4];
        if (!(l >= 1e-8L)) {
            q[0] = q[1] = q[2] = 0.0L;
            q[3] = 1.0L;
        } else {
            for (d = 0; d < 3; d++)
                q[d] = sinl(h) / l * ax[d];
            q[3] = cosl(h);
        }
        /* the increment is rounded to float before the product, which is
           then exact in double (host-independent bits) */
        for (d = 0; d < 4; d++)
            q[d] = (float)q[d];
        if (i > 0) {
            widen(k[i - 1].quat, prev);
            qmul(q, prev, q);
        }
        for (d = 0; d < 4; d++)
            w->q = fmax(w->q, ulps(k[i].quat[d], q[d]));
        w->keys++;
        check_controls(t, i, w);
    }
    for (i = 0; t->segments_ && i + 1 < t->num_keys; i++) {
        const float *r = t->segments_ + (size_t)i * SEG_ROTATION;
        if (fabsf(k[i + 1].value[0]) >= 3.14159265f)
            continue; /* a multi-turn segment has no slerp */
        check_slerp(r + 4, r + 8, r + 20, w);   /* Q_k, Q_{k+1} */
        check_slerp(r + 12, r + 16, r + 25, w); /* A_k, B_{k+1} */
    }
}

static void check_scene(const kf3ds_scene *s, worst *w)
{
    uint32_t j;
    for (j = 0; j < s->num_nodes; j++)
        if (s->nodes[j].tracks[KF3DS_TRACK_ROT].num_keys)
            check_track(&s->nodes[j].tracks[KF3DS_TRACK_ROT], w);
}

static void check_file(const char *path, const char *name, void *user)
{
    kf3ds_scene *s;
    if (!support_is_3ds_name(name))
        return;
    s = kf3ds_load_file(path, NULL, NULL);
    if (!s)
        return;
    check_scene(s, user);
    kf3ds_scene_free(s);
}

/* Rotation keys over the awkward cases, 3 nodes: open, closed loop, TCB. */
static kf3ds_scene *awkward_scene(void)
{
    static const float angles[] = { 0.3f, 0.0f, 1e-9f, -1e-6f, 3.1415f, -3.14159f, 3.1416f,
                                    6.2831853f, 12.566371f, -7.0f, 0.7f, 2.0f, -2.5f, 1.2f,
                                    3.0f, 0.05f, -0.05f, 1.5707964f, 0.9f, 100.0f, -0.4f };
    kf3ds_builder *b = support_builder();
    uint32_t seed = 12345u;
    int node, i, n = (int)(sizeof angles / sizeof angles[0]);
    for (node = 0; node < 3; node++) {
        int32_t id = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
        int32_t frame = 0;
        kf3ds_builder_track_flags(b, id, KF3DS_TRACK_ROT, node == 1 ? 3 : 0);
        for (i = 0; i < n; i++) {
            float ax[3];
            kf3ds_key k;
            int d;
            for (d = 0; d < 3; d++) {
                seed = seed * 1103515245u + 12345u;
                ax[d] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
            }
            if (i == 1)
                ax[0] = ax[1] = ax[2] = 0.0f; /* a zero axis: the identity */
            k = support_key(frame, angles[i], ax[0], ax[1], ax[2]);
            if (node == 2 && i % 3 != 0) {
                k.spline_flags = KF3DS_KEY_TENSION | KF3DS_KEY_CONTINUITY | KF3DS_KEY_BIAS;
                k.tension = 0.3f * (float)(i % 4) - 0.4f;
                k.continuity = -0.2f * (float)(i % 3);
                k.bias = 0.25f * (float)(i % 5) - 0.5f;
            }
            kf3ds_builder_add_key(b, id, KF3DS_TRACK_ROT, &k);
            frame += 1 + (i * 7) % 11; /* uneven spacing */
        }
    }
    return support_build_scene(b);
}

/* Many ordinary keys, so that the accuracy is measured on hundreds of keys,
 * controls and slerps without the corpus: 2 nodes of 240 keys each, angles up
 * to two turns about random axes, the second node's keys with TCB. */
static kf3ds_scene *random_scene(void)
{
    kf3ds_builder *b = support_builder();
    uint32_t seed = 777u;
    int node, i;
    for (node = 0; node < 2; node++) {
        int32_t id = kf3ds_builder_add_node(b, KF3DS_NODE_OBJECT, "$$$DUMMY", KF3DS_NONE);
        int32_t frame = 0;
        for (i = 0; i < 240; i++) {
            float v[4];
            kf3ds_key k;
            int d;
            for (d = 0; d < 4; d++) {
                seed = seed * 1103515245u + 12345u;
                v[d] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
            }
            k = support_key(frame, v[3] * 12.5f, v[0], v[1], v[2]);
            if (node == 1) {
                k.spline_flags = KF3DS_KEY_TENSION | KF3DS_KEY_CONTINUITY | KF3DS_KEY_BIAS;
                k.tension = 0.5f * v[0];
                k.continuity = 0.5f * v[1];
                k.bias = 0.5f * v[2];
            }
            kf3ds_builder_add_key(b, id, KF3DS_TRACK_ROT, &k);
            frame += 1 + i % 5;
        }
    }
    return support_build_scene(b);
}

/* Every value within half an ulp: one rounding of an exact value (and a
 * little). */
static void expect_accurate(const worst *w, const char *what)
{
    print_message("%s: %lu keys, %lu controls, %lu slerps, worst errors in ulps: Q %.3f, A and "
                  "B %.3f, omega %.3f, 1/sin omega %.3f\n",
                  what, w->keys, w->controls, w->slerps, w->q, w->ab, w->om, w->inv_sin);
    assert_true(w->keys > 400 && w->controls > 300 && w->slerps > 300);
    assert_true(w->q < 0.501);
    assert_true(w->ab < 0.501);
    assert_true(w->om < 0.501);
    assert_true(w->inv_sin < 0.501);
}

static void test_rotation_setup_accuracy(void **state)
{
    static const char *const samples[] = { "data/orrery.3ds", "data/arm.3ds", "data/edge.3ds" };
    worst w;
    kf3ds_scene *s;
    unsigned i;
    (void)state;
    memset(&w, 0, sizeof w);
    s = awkward_scene();
    check_scene(s, &w);
    kf3ds_scene_free(s);
    s = random_scene();
    check_scene(s, &w);
    kf3ds_scene_free(s);
    for (i = 0; i < 3; i++)
        check_file(samples[i], samples[i], &w);
    expect_accurate(&w, "generated scenes and samples");
}

static void test_rotation_setup_accuracy_corpus(void **state)
{
    worst w;
    (void)state;
    memset(&w, 0, sizeof w);
    if (support_corpus_each_whole(check_file, &w) < 0)
        skip();
    expect_accurate(&w, "corpus");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sincos_d),
        cmocka_unit_test(test_atan2_near),
        cmocka_unit_test(test_rotation_setup_accuracy),
        cmocka_unit_test(test_rotation_setup_accuracy_corpus),
    };
    return support_run_tests(tests, NULL, NULL);
}
