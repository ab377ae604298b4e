/* test_quat.c — quaternion helpers (x, y, z, w order), hand-computed. */
#include "testutil.h"
#include "math/quat.h"
#include "util/fmath.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define DEG (3.14159265358979323846 / 180.0)

/* Unit quaternion for `deg` degrees about axis 0 = X, 1 = Y, 2 = Z. */
static void axis_angle(int axis, double deg, float q[4])
{
    q[0] = q[1] = q[2] = 0.0f;
    q[axis] = (float)sin(deg * DEG / 2.0);
    q[3] = (float)cos(deg * DEG / 2.0);
}

static void assert_quat(const float got[4], const float want[4], double tol)
{
    for (int i = 0; i < 4; i++)
        if (fabs((double)got[i] - want[i]) > tol)
            fail_msg("component %d: got (%g %g %g %g), want (%g %g %g %g)", i, got[0], got[1],
                     got[2], got[3], want[0], want[1], want[2], want[3]);
}

static void normalize(void **state)
{
    (void)state;
    float out[4];
    pk_quat_normalize((float[]){0, 0, 0, 2}, out);
    assert_quat(out, (float[]){0, 0, 0, 1}, 0);
    pk_quat_normalize((float[]){3, 0, 4, 0}, out);
    assert_quat(out, (float[]){0.6f, 0, 0.8f, 0}, 1e-7);
    pk_quat_normalize((float[]){0, 0, 0, 0}, out); /* all-zero = no rotation */
    assert_quat(out, (float[]){0, 0, 0, 1}, 0);
}

static void multiply(void **state)
{
    (void)state;
    float out[4];
    pk_quat_mul((float[]){1, 0, 0, 0}, (float[]){0, 1, 0, 0}, out); /* i j = k */
    assert_quat(out, (float[]){0, 0, 1, 0}, 0);
    pk_quat_mul((float[]){0, 1, 0, 0}, (float[]){1, 0, 0, 0}, out); /* j i = -k */
    assert_quat(out, (float[]){0, 0, -1, 0}, 0);
    float x90[4], x180[4];
    axis_angle(0, 90, x90);
    axis_angle(0, 180, x180);
    pk_quat_mul(x90, x90, out);
    assert_quat(out, x180, 1e-6);
}

static void slerp(void **state)
{
    (void)state;
    float id[4] = {0, 0, 0, 1}, y90[4], y45[4], out[4];
    axis_angle(1, 90, y90);
    axis_angle(1, 45, y45);
    pk_quat_slerp(id, y90, 0.5f, out);
    assert_quat(out, y45, 1e-6);
    pk_quat_slerp(id, y90, 0.0f, out);
    assert_quat(out, id, 1e-7);
    pk_quat_slerp(id, y90, 1.0f, out);
    assert_quat(out, y90, 1e-7);
    /* Negative dot: -y90 is the same rotation; the short way still goes
     * through +45 degrees, not through 135. */
    float neg[4] = {-y90[0], -y90[1], -y90[2], -y90[3]};
    pk_quat_slerp(id, neg, 0.5f, out);
    assert_quat(out, y45, 1e-6);
    /* Unnormalised inputs are normalised first. */
    float id2[4] = {0, 0, 0, 3}, y90s[4] = {y90[0] * 2, y90[1] * 2, y90[2] * 2, y90[3] * 2};
    pk_quat_slerp(id2, y90s, 0.5f, out);
    assert_quat(out, y45, 1e-6);
}

static void angle(void **state)
{
    (void)state;
    float id[4] = {0, 0, 0, 1}, x90[4], q[4];
    axis_angle(0, 90, x90);
    assert_float_equal(pk_quat_angle_deg(x90, id), 90.0, 1e-5);
    assert_float_equal(pk_quat_angle_deg(id, x90), 90.0, 1e-5);
    /* q and -q are the same rotation */
    float neg[4] = {-x90[0], -x90[1], -x90[2], -x90[3]};
    assert_float_equal(pk_quat_angle_deg(x90, neg), 0.0, 1e-9);
    /* 180 degrees: the largest possible */
    axis_angle(2, 180, q);
    assert_float_equal(pk_quat_angle_deg(q, id), 180.0, 1e-4);
    /* 30 about Z vs -60 about Z = 90 */
    float z30[4], zm60[4];
    axis_angle(2, 30, z30);
    axis_angle(2, -60, zm60);
    assert_float_equal(pk_quat_angle_deg(z30, zm60), 90.0, 1e-4);
    /* small angles stay accurate (acos alone would lose them) */
    axis_angle(0, 0.001, q);
    assert_float_equal(pk_quat_angle_deg(q, id), 0.001, 1e-5);
    /* unnormalised input (VPD rounding leaves norms of 1 +- 3e-6) */
    float big[4] = {x90[0] * 5, 0, 0, x90[3] * 5};
    assert_float_equal(pk_quat_angle_deg(big, id), 90.0, 1e-5);
    /* a 0.001 degree difference on a 150 degree rotation still shows */
    float a150[4], b150[4];
    axis_angle(1, 150, a150);
    axis_angle(1, 150.001, b150);
    assert_float_equal(pk_quat_angle_deg(a150, b150), 0.001, 2e-5);
    /* zero and broken quaternions count as the identity */
    float zero[4] = {0, 0, 0, 0}, nan4[4] = {NAN, 0, 0, 1};
    assert_float_equal(pk_quat_angle_deg(zero, x90), 90.0, 1e-5);
    assert_float_equal(pk_quat_angle_deg(x90, nan4), 90.0, 1e-5);
    assert_float_equal(pk_quat_angle_deg(zero, id), 0.0, 1e-12);
}

/* The angle against the same geometry in long double with the C
 * library's atan2l, over pairs at every distance: random rotations, a
 * rotation and a copy nudged by a few float steps (differences of 1e-5
 * degrees and less, where acos would lose everything), near-opposite
 * pairs (close to 180 degrees) and pairs at the polynomial's seams
 * (22.5 * 2 and 67.5 * 2 degrees between the 4-vectors). */
static long double angle_ref(const float a[4], const float b[4])
{
    long double d = 0, w = 0;
    for (int i = 0; i < 4; i++)
        d += (long double)a[i] * b[i];
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            long double m = (long double)a[i] * b[j] - (long double)a[j] * b[i];
            w += m * m;
        }
    return 2.0L * atan2l(sqrtl(w), fabsl(d)) * (180.0L / 3.14159265358979323846264338327950288L);
}

static float unit_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) * (2.0 / 16777216.0) - 1.0);
}

static void angle_accuracy(void **state)
{
    (void)state;
    uint32_t s = 7;
    double worst = 0.0, worst_rel = 0.0;
    for (int n = 0; n < 200000; n++) {
        float a[4], b[4];
        for (int i = 0; i < 4; i++)
            a[i] = unit_rand(&s);
        switch (n % 4) {
        case 0: /* unrelated */
            for (int i = 0; i < 4; i++)
                b[i] = unit_rand(&s);
            break;
        case 1: /* a few float steps apart */
            for (int i = 0; i < 4; i++)
                b[i] = nextafterf(a[i], unit_rand(&s) > 0 ? 2.0f : -2.0f);
            break;
        case 2: /* nearly opposite rotations: b ~ a rotated by ~180 degrees */
            b[0] = -a[1] + 1e-4f * unit_rand(&s);
            b[1] = a[0];
            b[2] = -a[3];
            b[3] = a[2] + 1e-4f * unit_rand(&s);
            break;
        default: { /* 45 or 135 degrees between the 4-vectors, nudged */
            double t = (n % 8 == 3 ? 3.14159265358979 / 8 : 3 * 3.14159265358979 / 8) +
                       1e-6 * unit_rand(&s);
            b[0] = (float)(cos(t) * a[0] - sin(t) * a[1]);
            b[1] = (float)(sin(t) * a[0] + cos(t) * a[1]);
            b[2] = (float)(cos(t) * a[2] - sin(t) * a[3]);
            b[3] = (float)(sin(t) * a[2] + cos(t) * a[3]);
        }
        }
        long double want = angle_ref(a, b);
        double got = pk_quat_angle_deg(a, b), e = fabs((double)(got - want));
        if (e > worst)
            worst = e;
        if (want > 0 && e / (double)want > worst_rel)
            worst_rel = e / (double)want;
    }
    /* A few units of double rounding, relative to the angle itself. */
    if (worst > 2e-13 || worst_rel > 1e-14)
        fail_msg("worst error %.3g degrees, %.3g relative", worst, worst_rel);
}

/* ---- the double helpers' lanes (math/quat.h): the plain operations' bits ---- */

/* The plain operations, as quat.h's -DPK_NO_VECTOR versions write them. */
static void mul_plain(const double a[4], const double b[4], double out[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

static bool unit_plain(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(n > 1e-12))
        return false;
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
    return true;
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

/* A double from a fixed-seed stream: mostly in [-1, 1], and the values a
 * lane may treat otherwise (signed zeros, +-1, tiny, subnormal, huge). */
static double some(uint64_t *s)
{
    static const double odd[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1e-300, -4.9e-324, 1e300, 3e-13};
    uint64_t k = lcg(s);
    if (k % 5 == 0)
        return odd[(k / 5) % (sizeof odd / sizeof odd[0])];
    return (double)(k % 2000001) / 1000000.0 - 1.0 + (double)(lcg(s) % 1000) * 1e-12;
}

static void same_bits(const double *got, const double *want, int n, const char *what, int i)
{
    if (memcmp(got, want, (size_t)n * sizeof *got) != 0)
        fail_msg("%s, case %d: got %a %a %a, want %a %a %a", what, i, got[0], got[1], got[2],
                 want[0], want[1], want[2]);
}

/* pki_half_from_cos (a free IK link's CCD step, eval.c) against MMD's
 * acos then sin and cos of half of it (pki_acos, pki_sincos) on 400,000
 * fixed-seed cosines: uniform over [-1, 1], within 1e-3 .. 1e-15 of 1 and
 * of -1, and -1, 0, 1 and beyond: within 4e-16 absolute (two ulps of 1),
 * so the step turns by the same angle but for rounding; and a unit
 * quaternion (s^2 + c^2 within 2.3e-16 of 1); and pki_half_add's sums. */
static void half_from_cos(void **state)
{
    (void)state;
    uint64_t seed = 2027;
    double worst = 0.0;
    for (int i = 0; i < 400000; i++) {
        double u = (double)(lcg(&seed) % 1000001) / 1000000.0, d;
        switch (i % 4) {
        case 0:
            d = 2.0 * u - 1.0;
            break;
        case 1:
            d = 1.0 - u * pow(10.0, -3.0 - (double)(i / 4 % 13));
            break;
        case 2:
            d = -1.0 + u * pow(10.0, -3.0 - (double)(i / 4 % 13));
            break;
        default: {
            static const double edge[] = {-1.0, 0.0, 1.0, -1.0000001, 1.0000001, 0.5, -0.5};
            d = edge[i / 4 % 7];
        }
        }
        double s, c, ws, wc;
        pki_half_from_cos(d, &s, &c);
        double dc = d > 1.0 ? 1.0 : d < -1.0 ? -1.0 : d;
        pki_sincos(pki_acos(dc) / 2.0, &ws, &wc);
        double e = fmax(fabs(s - ws), fabs(c - wc));
        worst = fmax(worst, e);
        if (!(e <= 4e-16) || !(fabs(s * s + c * c - 1.0) <= 2.3e-16) || s < 0.0 || c < 0.0)
            fail_msg("case %d: d %a: got %a %a, acos then sincos %a %a", i, d, s, c, ws, wc);
    }
    assert_true(worst > 0.0); /* the two differ: rounding, not the same operations */
    /* a knee's step: the half of its angle so far p plus or minus the
     * step's t = acos(d), by the sum, against sincos((p +- t) / 2), p
     * itself such a sum of up to 40 steps (as in a solve's passes, within
     * about pi of 0): within 2e-15 absolute (the sums' rounding and p's, a
     * few ulps of 1) */
    for (int i = 0; i < 20000; i++) {
        double p = 0.0, ps = 0.0, pc = 1.0;
        for (int k = 0; k < 40; k++) {
            double d = 2.0 * (double)(lcg(&seed) % 1000001) / 1000000.0 - 1.0, ts, tc, s, c, ws,
                   wc;
            double t = pki_acos(d);
            pki_half_from_cos(d, &ts, &tc);
            if (p > 1.5 || (p > -1.5 && lcg(&seed) % 2)) { /* p within a knee's range */
                t = -t;
                ts = -ts;
            }
            pki_half_add(ps, pc, ts, tc, &s, &c);
            p += t;
            pki_sincos(p / 2.0, &ws, &wc);
            if (!(fabs(s - ws) <= 2e-15) || !(fabs(c - wc) <= 2e-15))
                fail_msg("sum %d, step %d: got %a %a, sincos %a %a", i, k, s, c, ws, wc);
            ps = s;
            pc = c;
        }
    }
}

/* pki_qd_mul and pki_qd_rotate2_unit (two lanes where the vector extension
 * is) give the bits of the plain operations, out aliasing an input too. */
static void double_lanes(void **state)
{
    (void)state;
    uint64_t seed = 27;
    for (int i = 0; i < 200000; i++) {
        double a[4], b[4], want[4], got[4], u[3], v[3];
        for (int k = 0; k < 4; k++) {
            a[k] = some(&seed);
            b[k] = some(&seed);
        }
        for (int k = 0; k < 3; k++) {
            u[k] = some(&seed);
            v[k] = some(&seed);
        }
        mul_plain(a, b, want);
        pki_qd_mul(a, b, got);
        same_bits(got, want, 4, "mul", i);
        memcpy(got, a, sizeof got);
        pki_qd_mul(got, b, got);
        same_bits(got, want, 4, "mul into a", i);
        memcpy(got, b, sizeof got);
        pki_qd_mul(a, got, got);
        same_bits(got, want, 4, "mul into b", i);
        double wu[3], wv[3], gu[3], gv[3];
        pki_qd_rotate(a, u, wu);
        pki_qd_rotate(a, v, wv);
        bool ok = unit_plain(wu) && unit_plain(wv);
        if (pki_qd_rotate2_unit(a, u, v, gu, gv) != ok)
            fail_msg("rotate2_unit, case %d: %s", i, ok ? "refused" : "taken");
        if (ok) {
            same_bits(gu, wu, 3, "rotate2_unit u", i);
            same_bits(gv, wv, 3, "rotate2_unit v", i);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(normalize),
        cmocka_unit_test(multiply),
        cmocka_unit_test(slerp),
        cmocka_unit_test(angle),
        cmocka_unit_test(angle_accuracy),
        cmocka_unit_test(double_lanes),
        cmocka_unit_test(half_from_cos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
