/* test_bezier.c — MMD interpolation curves and the 64-byte block layout.
 *
 * Hand-computed values use t = 0.25 and t = 0.5 on the Bezier polynomial:
 * x(t) = 3(1-t)^2 t x1 + 3(1-t) t^2 x2 + t^3 (same for y), so for a chosen
 * t the pair (x(t), y(t)) is exact and pk_bezier(x(t)) must give y(t). */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Independent reference: plain bisection on t in the Bernstein form, in
 * long double (near the S-curve's flat middle, double bisection itself is
 * only good to ~1e-5 because x(t) - s grows like (t - t*)^3). */
static long double ref_coord(long double p1, long double p2, long double t)
{
    long double u = 1.0L - t;
    return 3.0L * u * u * t * p1 + 3.0L * u * t * t * p2 + t * t * t;
}

static double ref_bezier(int x1, int y1, int x2, int y2, double s)
{
    long double lo = 0.0L, hi = 1.0L;
    for (int i = 0; i < 80; i++) {
        long double mid = 0.5L * (lo + hi);
        if (ref_coord(x1 / 127.0L, x2 / 127.0L, mid) < (long double)s)
            lo = mid;
        else
            hi = mid;
    }
    return (double)ref_coord(y1 / 127.0L, y2 / 127.0L, 0.5L * (lo + hi));
}

static void linear_curves_are_the_identity(void **state)
{
    (void)state;
    for (int i = 0; i <= 100; i++) {
        float s = (float)i / 100.0f;
        assert_true(pk_bezier(20, 20, 107, 107, s) == s); /* MMD's default */
        assert_true(pk_bezier(0, 0, 127, 127, s) == s);
        assert_true(pk_bezier(64, 64, 64, 64, s) == s);
    }
}

static void endpoints_and_out_of_range(void **state)
{
    (void)state;
    assert_true(pk_bezier(127, 0, 127, 127, 0.0f) == 0.0f);
    assert_true(pk_bezier(127, 0, 127, 127, 1.0f) == 1.0f);
    assert_true(pk_bezier(127, 0, 127, 127, -0.5f) == 0.0f);
    assert_true(pk_bezier(127, 0, 127, 127, 1.5f) == 1.0f);
    assert_true(pk_bezier(127, 0, 127, 127, NAN) == 0.0f);
}

static void ease_in(void **state)
{
    (void)state;
    /* P1 = (1, 0), P2 = (1, 1): x(.5) = 7/8, y(.5) = 1/2;
     * x(.25) = 0.578125, y(.25) = 0.15625. */
    assert_float_equal(pk_bezier(127, 0, 127, 127, 0.875f), 0.5f, 1e-6);
    assert_float_equal(pk_bezier(127, 0, 127, 127, 0.578125f), 0.15625f, 1e-6);
}

static void ease_out(void **state)
{
    (void)state;
    /* P1 = (0, 1), P2 = (0, 1): x(.5) = 1/8, y(.5) = 7/8.  x'(0) = 0, so
     * Newton starts where the curve is vertical. */
    assert_float_equal(pk_bezier(0, 127, 0, 127, 0.125f), 0.875f, 1e-6);
    /* x(.25) = 0.015625 + 0 ... = t^3 + 0 = 0.015625; y(.25) = 0.578125 */
    assert_float_equal(pk_bezier(0, 127, 0, 127, 0.015625f), 0.578125f, 1e-6);
}

static void s_curve(void **state)
{
    (void)state;
    /* P1 = (1, 0), P2 = (0, 1): x'(.5) = 0 (a double root of x' there).
     * x(.5) = 1/2 -> 1/2; x(.25) = 0.4375 -> y(.25) = 0.15625. */
    assert_float_equal(pk_bezier(127, 0, 0, 127, 0.5f), 0.5f, 1e-6);
    assert_float_equal(pk_bezier(127, 0, 0, 127, 0.4375f), 0.15625f, 1e-6);
    assert_float_equal(pk_bezier(127, 0, 0, 127, 0.5625f), 0.84375f, 1e-6);
}

static void agrees_with_bisection_everywhere(void **state)
{
    (void)state;
    srand(12345);
    double worst = 0.0;
    for (int c = 0; c < 3000; c++) {
        int x1 = rand() % 128, y1 = rand() % 128, x2 = rand() % 128, y2 = rand() % 128;
        if (c < 16) { /* the extreme corners */
            x1 = (c & 1) ? 127 : 0;
            x2 = (c & 2) ? 127 : 0;
            y1 = (c & 4) ? 127 : 0;
            y2 = (c & 8) ? 127 : 0;
        }
        for (int i = 0; i <= 64; i++) {
            float s = (float)i / 64.0f;
            double want = ref_bezier(x1, y1, x2, y2, s);
            double got = pk_bezier((uint8_t)x1, (uint8_t)y1, (uint8_t)x2, (uint8_t)y2, s);
            double e = fabs(want - got);
            if (e > worst) {
                worst = e;
                if (e > 1e-6)
                    print_message("curve %d %d %d %d s=%g: %.9f vs %.9f\n", x1, y1, x2, y2,
                                  (double)s, got, want);
            }
        }
    }
    if (worst > 1e-6)
        fail_msg("worst difference from bisection %g > 1e-6", worst);
}

/* doc/formats.md §3.4 worked example: vmd_babylon_physics_toggle_v2_yyb10th,
 * key at frame 21, physics-off flag in bytes 2-3 of row 0. */
static const uint8_t EXAMPLE[64] = {
    0x00, 0x00, 0x63, 0x0f, 0x7f, 0x5d, 0x00, 0x11, 0x7f, 0x21, 0x7f, 0x7f, 0x00, 0x7f, 0x34, 0x75,
    0x00, 0x5a, 0x00, 0x7f, 0x5d, 0x00, 0x11, 0x7f, 0x21, 0x7f, 0x7f, 0x00, 0x7f, 0x34, 0x75, 0x00,
    0x5a, 0x00, 0x7f, 0x5d, 0x00, 0x11, 0x7f, 0x21, 0x7f, 0x7f, 0x00, 0x7f, 0x34, 0x75, 0x00, 0x00,
    0x00, 0x7f, 0x5d, 0x00, 0x11, 0x7f, 0x21, 0x7f, 0x7f, 0x00, 0x7f, 0x34, 0x75, 0x00, 0x00, 0x00,
};

static void curves_come_from_row_starts_not_the_physics_flag(void **state)
{
    (void)state;
    uint8_t cp[4];
    pk_interp_curve(EXAMPLE, 0, cp);
    assert_memory_equal(cp, ((uint8_t[]){0, 127, 127, 0}), 4);
    pk_interp_curve(EXAMPLE, 1, cp);
    assert_memory_equal(cp, ((uint8_t[]){0, 93, 33, 127}), 4);
    pk_interp_curve(EXAMPLE, 2, cp); /* a row-0 reader would see x1 = 0x63 */
    assert_memory_equal(cp, ((uint8_t[]){90, 0, 127, 52}), 4);
    pk_interp_curve(EXAMPLE, 3, cp); /* ... and x1 = 0x0f here */
    assert_memory_equal(cp, ((uint8_t[]){0, 17, 127, 117}), 4);
}

static void set_writes_the_modern_layout(void **state)
{
    (void)state;
    const uint8_t cp[4][4] = {
        {0, 127, 127, 0}, {0, 93, 33, 127}, {90, 0, 127, 52}, {0, 17, 127, 117}};
    uint8_t ip[64];
    memset(ip, 0xAA, sizeof ip);
    pk_interp_set(ip, cp, true);
    assert_memory_equal(ip, EXAMPLE, 64); /* byte for byte what MMD wrote */
    pk_interp_set(ip, cp, false);
    assert_int_equal(ip[2], 0);
    assert_int_equal(ip[3], 0);
    assert_memory_equal(ip + 4, EXAMPLE + 4, 60);

    const uint8_t lin[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    uint8_t a[64], b[64];
    pk_interp_set(a, lin, false);
    pk_interp_linear(b);
    assert_memory_equal(a, b, 64);
    for (int axis = 0; axis < 4; axis++) {
        uint8_t got[4];
        pk_interp_curve(a, axis, got);
        assert_memory_equal(got, lin[axis], 4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(linear_curves_are_the_identity),
        cmocka_unit_test(endpoints_and_out_of_range),
        cmocka_unit_test(ease_in),
        cmocka_unit_test(ease_out),
        cmocka_unit_test(s_curve),
        cmocka_unit_test(agrees_with_bisection_everywhere),
        cmocka_unit_test(curves_come_from_row_starts_not_the_physics_flag),
        cmocka_unit_test(set_writes_the_modern_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
