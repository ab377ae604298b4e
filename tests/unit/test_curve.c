/* test_curve.c — math/curve.h: subdivision and the grid-curve fitters
 * (keyframe reduction and retarget's fold build on these).
 *
 * Recovery: a channel sampled from a random grid curve at every integer
 * frame of a segment must be fitted again within 1e-4 of every sample,
 * checked here with the sampler's own formula, not the fitter's error.
 * Refusal: data no grid curve can follow (a step, an overshoot, a still
 * segment with a bump, a rotation off the slerp arc) is refused. */
#include "testutil.h"
#include "math/bezier.h"
#include "math/curve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint32_t rng = 12345u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (next() % 1000001u) / 1000000.0;
}

/* The value the sampler gives for a translation channel (sample.c). */
static float sample_pos(float a, float b, const uint8_t cp[4], double s)
{
    return (float)(a + ((double)b - a) * pki_bezier_solve(cp[0], cp[1], cp[2], cp[3], s, NULL));
}

static void sub_of_whole_is_itself(void **state)
{
    (void)state;
    const uint8_t cp[4] = {53, 0, 74, 127};
    double n[4];
    assert_true(pki_curve_sub(cp, 0.0, 1.0, n));
    for (int j = 0; j < 4; j++)
        assert_true(fabs(n[j] - cp[j] / 127.0) < 1e-12);
    /* the right half of the linear-in-x ease curve, and no extent */
    const uint8_t lin[4] = {20, 20, 107, 107};
    assert_true(pki_curve_sub(lin, 0.5, 1.0, n));
    assert_true(fabs(n[1] - n[0]) < 1e-12 && fabs(n[3] - n[2]) < 1e-12);
    assert_false(pki_curve_sub(cp, 0.3, 0.3, n)); /* no extent */
}

static void random_grid_curves_are_found_again(void **state)
{
    (void)state;
    int found = 0, tries = 200;
    clock_t t0 = clock();
    for (int k = 0; k < tries; k++) {
        uint8_t cp[4] = {(uint8_t)(next() % 128), (uint8_t)(next() % 128), (uint8_t)(next() % 128),
                         (uint8_t)(next() % 128)};
        size_t n = 2 + next() % 60;
        float a = (float)uniform(-20, 20), b = (float)uniform(-20, 20);
        float v[64];
        for (size_t i = 0; i <= n; i++)
            v[i] = sample_pos(a, b, cp, (double)i / (double)n);
        uint8_t got[4];
        double worst = -1;
        int rc = pki_curve_fit_scalar(v, n, 1e-4, got, &worst);
        if (rc != 1)
            fail_msg("curve %d %d %d %d, n %zu, %g -> %g: not found (worst %g)", cp[0], cp[1],
                     cp[2], cp[3], n, a, b, worst);
        for (size_t i = 0; i <= n; i++) {
            double e = fabs((double)sample_pos(a, b, got, (double)i / (double)n) - v[i]);
            if (e > 1e-4)
                fail_msg("curve %d %d %d %d, n %zu: fitted %d %d %d %d is %g off at %zu", cp[0],
                         cp[1], cp[2], cp[3], n, got[0], got[1], got[2], got[3], e, i);
        }
        found++;
    }
    assert_int_equal(found, tries);
    print_message("fit_scalar: %d fits in %.1f ms\n", tries,
                  1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
}

static void random_axis(float q[4], double deg)
{
    double ax[3] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
    double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]) + 1e-9;
    double h = deg * 3.14159265358979323846 / 360.0;
    for (int i = 0; i < 3; i++)
        q[i] = (float)(ax[i] / n * sin(h));
    q[3] = (float)cos(h);
}

static void random_rotation_curves_are_found_again(void **state)
{
    (void)state;
    for (int k = 0; k < 100; k++) {
        uint8_t cp[4] = {(uint8_t)(next() % 128), (uint8_t)(next() % 128), (uint8_t)(next() % 128),
                         (uint8_t)(next() % 128)};
        size_t n = 2 + next() % 40;
        float q[64][4];
        random_axis(q[0], uniform(0, 170));
        random_axis(q[n], uniform(0, 170));
        if (k % 3 == 0) /* the other sign of the same end rotation */
            for (int j = 0; j < 4; j++)
                q[n][j] = -q[n][j];
        for (size_t i = 1; i < n; i++)
            pk_quat_slerp(
                q[0], q[n],
                (float)pki_bezier_solve(cp[0], cp[1], cp[2], cp[3], (double)i / (double)n, NULL),
                q[i]);
        uint8_t got[4];
        double worst = -1;
        if (pki_curve_fit_rot((const float(*)[4])q, n, 1e-3, got, &worst) != 1)
            fail_msg("rotation curve %d %d %d %d, n %zu: not found (worst %g deg)", cp[0], cp[1],
                     cp[2], cp[3], n, worst);
        for (size_t i = 1; i < n; i++) {
            float r[4];
            pk_quat_slerp(q[0], q[n],
                          (float)pki_bezier_solve(got[0], got[1], got[2], got[3],
                                                  (double)i / (double)n, NULL),
                          r);
            double e = pk_quat_angle_deg(r, q[i]);
            if (e > 1e-3)
                fail_msg("rotation curve %d %d %d %d: fitted one %g deg off at %zu", cp[0], cp[1],
                         cp[2], cp[3], e, i);
        }
    }
}

static void impossible_data_is_refused(void **state)
{
    (void)state;
    uint8_t cp[4];
    double worst;
    /* a step: held, then a jump between two frames */
    const float step[] = {0, 0, 0, 0, 1, 1, 1, 1};
    assert_int_equal(pki_curve_fit_scalar(step, 7, 1e-3, cp, &worst), 0);
    assert_true(worst > 1e-3);
    /* an overshoot past the end value and back */
    const float over[] = {0, 0.3f, 0.8f, 1.2f, 1.3f, 1.1f, 1.0f};
    assert_int_equal(pki_curve_fit_scalar(over, 6, 1e-3, cp, &worst), 0);
    /* going backwards first */
    const float back[] = {0, -0.2f, 0.1f, 0.6f, 1.0f};
    assert_int_equal(pki_curve_fit_scalar(back, 4, 1e-3, cp, &worst), 0);
    /* a still segment with a bump */
    const float bump[] = {2, 2, 2.5f, 2, 2};
    assert_int_equal(pki_curve_fit_scalar(bump, 4, 1e-3, cp, &worst), 0);
    assert_true(fabs(worst - 0.5) < 1e-6);
    /* still, and within tolerance: the linear curve */
    const float still[] = {2, 2, 2.00001f, 2, 2};
    assert_int_equal(pki_curve_fit_scalar(still, 4, 1e-3, cp, &worst), 1);
    assert_memory_equal(cp, pki_curve_linear, 4);
    /* a linear ramp fits MMD's default linear curve */
    const float ramp[] = {0, 1, 2, 3, 4};
    assert_int_equal(pki_curve_fit_scalar(ramp, 4, 1e-6, cp, &worst), 1);
    assert_memory_equal(cp, pki_curve_linear, 4);
    /* bad input */
    const float nan[] = {0, NAN, 1};
    assert_int_equal(pki_curve_fit_scalar(nan, 2, 1e-3, cp, NULL), -1);
    assert_int_equal(pki_curve_fit_scalar(ramp, 0, 1e-3, cp, NULL), -1);
    /* a rotation off the arc: the middle sample turns about another axis */
    float q[5][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    random_axis(q[4], 90);
    pk_quat_slerp(q[0], q[4], 0.25f, q[1]);
    pk_quat_slerp(q[0], q[4], 0.75f, q[3]);
    float tilt[4] = {0.0871557f, 0, 0, 0.9961947f}; /* 10 degrees about X */
    float mid[4];
    pk_quat_slerp(q[0], q[4], 0.5f, mid);
    pk_quat_mul(tilt, mid, q[2]);
    assert_int_equal(pki_curve_fit_rot((const float(*)[4])q, 4, 0.01, cp, &worst), 0);
    assert_true(worst > 1.0);
}

/* FAST and QUICK with a cache (the coarse scan's bases kept per segment
 * length below 256 frames, computed afresh above): every curve returned is
 * within tolerance at every sample by the sampler's formula, QUICK finds
 * at least as many random grid curves as FAST less 2 % (FAST finds eight
 * in ten: long segments at 1e-3 over moves of up to 40), and both refuse
 * two eased moves in a row (a staircase no single curve follows). */
static void fast_and_quick_with_a_cache(void **state)
{
    (void)state;
    pki_curve_cache *cache = pki_curve_cache_new();
    assert_non_null(cache);
    static float v[400];
    int found[2] = {0, 0}, tries = 300;
    const pki_fit_effort effort[2] = {PKI_FIT_FAST, PKI_FIT_QUICK};
    for (int k = 0; k < tries; k++) {
        uint8_t cp[4] = {(uint8_t)(next() % 128), (uint8_t)(next() % 128), (uint8_t)(next() % 128),
                         (uint8_t)(next() % 128)};
        size_t n = 2 + next() % 380;
        float a = (float)uniform(-20, 20), b = (float)uniform(-20, 20);
        for (size_t i = 0; i <= n; i++)
            v[i] = sample_pos(a, b, cp, (double)i / (double)n);
        for (int e = 0; e < 2; e++) {
            uint8_t got[4];
            int rc = pki_curve_fit_scalar_ex(v, n, 1e-3, effort[e], cache, got, NULL);
            assert_true(rc == 0 || rc == 1);
            if (rc != 1)
                continue;
            found[e]++;
            for (size_t i = 0; i <= n; i++) {
                double d = fabs((double)sample_pos(a, b, got, (double)i / (double)n) - v[i]);
                if (d > 1e-3)
                    fail_msg("%s: curve %d %d %d %d, n %zu: fitted %d %d %d %d is %g off at %zu",
                             e ? "QUICK" : "FAST", cp[0], cp[1], cp[2], cp[3], n, got[0], got[1],
                             got[2], got[3], d, i);
            }
        }
    }
    print_message("with a cache: FAST found %d, QUICK %d of %d\n", found[0], found[1], tries);
    assert_true(found[0] >= tries * 7 / 10);
    assert_true(found[1] >= found[0] - tries / 50);
    /* two eased moves of one unit each, 40 frames apart */
    const uint8_t ease[4] = {64, 0, 64, 127};
    for (size_t i = 0; i <= 80; i++)
        v[i] = (float)(i <= 40 ? pki_curve_progress(ease, (double)i / 40.0)
                               : 1.0 + pki_curve_progress(ease, (double)(i - 40) / 40.0));
    uint8_t got[4];
    double worst = 0;
    for (int e = 0; e < 2; e++) {
        assert_int_equal(pki_curve_fit_scalar_ex(v, 80, 1e-3, effort[e], cache, got, &worst), 0);
        assert_true(worst > 1e-3);
    }
    pki_curve_cache_free(cache);
}

/* A cache's kept bases (the coarse cells' and the descents', by segment
 * length and x bytes) give the curves a fit computed them for: 2,000
 * segments of 2 to 120 frames (a grid curve with noise) fitted FAST on one
 * cache, enough cells that many meet in a slot of it, and each 25 on a
 * cache of their own: the same answer, curve and error, every time. */
static void cached_bases_fit_the_same(void **state)
{
    (void)state;
    enum { SEGS = 2000 };
    pki_curve_cache *warm = pki_curve_cache_new(), *cold = NULL;
    assert_non_null(warm);
    static float v[121];
    int fitted = 0;
    for (int k = 0; k < SEGS; k++) {
        uint8_t cp[4] = {(uint8_t)(next() % 128), (uint8_t)(next() % 128), (uint8_t)(next() % 128),
                         (uint8_t)(next() % 128)};
        size_t n = 2 + next() % 119;
        float a = (float)uniform(-5, 5), b = (float)uniform(-5, 5);
        double noise = uniform(0, 2e-3);
        for (size_t i = 0; i <= n; i++)
            v[i] = sample_pos(a, b, cp, (double)i / (double)n) +
                   (float)(i && i < n ? uniform(-noise, noise) : 0.0);
        if (k % 25 == 0) {
            pki_curve_cache_free(cold);
            cold = pki_curve_cache_new();
            assert_non_null(cold);
        }
        uint8_t got[4], again[4];
        double w0, w1;
        int rc = pki_curve_fit_scalar_ex(v, n, 1e-3, PKI_FIT_FAST, warm, got, &w0);
        assert_int_equal(pki_curve_fit_scalar_ex(v, n, 1e-3, PKI_FIT_FAST, cold, again, &w1), rc);
        assert_memory_equal(again, got, 4);
        assert_true(w0 == w1);
        fitted += rc == 1;
    }
    pki_curve_cache_free(cold);
    assert_true(fitted > SEGS / 4);
    pki_curve_cache_free(warm);
}

/* DIRECT (retarget's key search) on short pieces: for x bytes (42, 85),
 * the first pair it tries, every grid point (g1, g2) is searched here by
 * brute force over all 128 x 128 of them; wherever one follows the
 * samples within 0.999 tol, DIRECT must fit the piece, and its curve must
 * follow every sample within tol by the sampler's formula.  FAST's search
 * (a descent to the best real curve, then its rounding and the eight
 * around it) misses such pieces at tight tolerances: 300 pieces of 2 to
 * 5 frames at a tolerance of 2e-4 of the move, each with a grid point of
 * (42, 85) within it.  DIRECT also refuses two eased moves in a row. */
static void direct_finds_a_grid_point_where_there_is_one(void **state)
{
    (void)state;
    pki_curve_cache *cache = pki_curve_cache_new();
    assert_non_null(cache);
    const double tol = 2e-4;
    int pieces = 0, fast = 0;
    while (pieces < 300) {
        size_t n = 2 + next() % 4;
        double p[4];
        double prev = 0.0;
        for (size_t i = 1; i < n; i++) { /* an increasing run in (0, 1) */
            prev += uniform(0.02, 1.0) * (1.0 - prev) / (double)(n - i + 1) * 1.6;
            p[i - 1] = prev < 0.98 ? prev : 0.98;
        }
        /* progress at s_i is 3u^2t y1 + 3ut^2 y2 + t^3 with x(t) = s_i */
        double t[4];
        for (size_t i = 1; i < n; i++)
            t[i - 1] = pki_bezier_param(42, 85, (double)i / (double)n, -1.0);
        bool exists = false;
        for (int g1 = 0; g1 < 128 && !exists; g1++)
            for (int g2 = 0; g2 < 128 && !exists; g2++) {
                double e = 0.0;
                for (size_t i = 1; i < n && e <= 0.999 * tol; i++) {
                    double u = t[i - 1], w = 1.0 - u;
                    double y =
                        3.0 * w * w * u * (g1 / 127.0) + 3.0 * w * u * u * (g2 / 127.0) + u * u * u;
                    e = fmax(e, fabs(y - p[i - 1]));
                }
                exists = e <= 0.999 * tol;
            }
        if (!exists)
            continue;
        pieces++;
        uint8_t got[4];
        double worst = 1.0;
        if (pki_curve_fit_progress_ex(p, n, 1.0, NULL, tol, PKI_FIT_DIRECT, cache, got, &worst) !=
            1)
            fail_msg("DIRECT refused a piece of %zu frames a grid curve of (42, 85) follows", n);
        for (size_t i = 1; i < n; i++) {
            double d =
                fabs(pki_bezier_solve(got[0], got[1], got[2], got[3], (double)i / (double)n, NULL) -
                     p[i - 1]);
            if (d > tol)
                fail_msg("DIRECT's %d %d %d %d is %g off at %zu of %zu", got[0], got[1], got[2],
                         got[3], d, i, n);
        }
        assert_true(worst <= tol);
        fast +=
            pki_curve_fit_progress_ex(p, n, 1.0, NULL, tol, PKI_FIT_FAST, cache, got, NULL) == 1;
    }
    print_message("DIRECT fitted all %d pieces with a grid curve of (42, 85), FAST %d\n", pieces,
                  fast);
    assert_true(fast < pieces);
    /* two eased moves of one unit each, 20 frames apart */
    static float v[41];
    const uint8_t ease[4] = {64, 0, 64, 127};
    for (size_t i = 0; i <= 40; i++)
        v[i] = (float)(i <= 20 ? pki_curve_progress(ease, (double)i / 20.0)
                               : 1.0 + pki_curve_progress(ease, (double)(i - 20) / 20.0));
    uint8_t got[4];
    assert_int_equal(pki_curve_fit_scalar_ex(v, 40, 1e-3, PKI_FIT_DIRECT, cache, got, NULL), 0);
    pki_curve_cache_free(cache);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sub_of_whole_is_itself),
        cmocka_unit_test(random_grid_curves_are_found_again),
        cmocka_unit_test(random_rotation_curves_are_found_again),
        cmocka_unit_test(impossible_data_is_refused),
        cmocka_unit_test(fast_and_quick_with_a_cache),
        cmocka_unit_test(cached_bases_fit_the_same),
        cmocka_unit_test(direct_finds_a_grid_point_where_there_is_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
