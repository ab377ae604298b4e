/* test_fmath.c — posekit's elementary functions (util/fmath.h): special
 * values as C99 Annex F says, every case of tests/fmath/fmath_cases.h
 * within 1 ulp of the C library's result (glibc's own error is under 1 ulp
 * for these but for log10, up to 2 ulp: there 2, and cbrt, up to 3: there
 * 4; tests/fmath/accuracy.py measures both against exact values), and the
 * same bits as the checked-in digests (tests/fmath/bits.txt), which the
 * WebAssembly and Windows builds print too; sin odd and cos even, bit for
 * bit; pki_sincos the bits of pki_sin and pki_cos. */
#include "testutil.h"
#include "../fmath/fmath_cases.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* Distance in representable doubles (+0 and -0 apart by one). */
static uint64_t ulps(double a, double b)
{
    if (a != a || b != b)
        return (a != a) == (b != b) ? 0 : UINT64_MAX;
    int64_t ia = (int64_t)bits(a), ib = (int64_t)bits(b);
    /* a monotonic map of the doubles onto the integers, -0 just below +0 */
    ia = ia < 0 ? -(ia & INT64_MAX) - 1 : ia;
    ib = ib < 0 ? -(ib & INT64_MAX) - 1 : ib;
    return ia > ib ? (uint64_t)ia - (uint64_t)ib : (uint64_t)ib - (uint64_t)ia;
}

#define SAME(got, want)                                                                            \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!(g_ != g_ && w_ != w_) && bits(g_) != bits(w_))                                       \
            fail_msg("%s = %a, want %a", #got, g_, w_);                                            \
    } while (0)

static void special_values(void **state)
{
    (void)state;
    const double pi = 0x1.921fb54442d18p+1, pio2 = 0x1.921fb54442d18p+0;
    const double pio4 = 0x1.921fb54442d18p-1, pi3o4 = 0x1.2d97c7f3321d2p+1;
    SAME(pki_sin(0.0), 0.0);
    SAME(pki_sin(-0.0), -0.0);
    SAME(pki_sin(INFINITY), NAN);
    SAME(pki_sin(NAN), NAN);
    SAME(pki_cos(-0.0), 1.0);
    SAME(pki_cos(-INFINITY), NAN);
    SAME(pki_tan(-0.0), -0.0);
    SAME(pki_asin(1.0), pio2);
    SAME(pki_asin(-1.0), -pio2);
    SAME(pki_asin(-0.0), -0.0);
    SAME(pki_asin(1.0000000000000002), NAN);
    SAME(pki_acos(1.0), 0.0);
    SAME(pki_acos(-1.0), pi);
    SAME(pki_acos(0.0), pio2);
    SAME(pki_acos(-1.0000000000000002), NAN);
    SAME(pki_atan(INFINITY), pio2);
    SAME(pki_atan(-INFINITY), -pio2);
    SAME(pki_atan(-0.0), -0.0);
    SAME(pki_atan(1.0), pio4);
    /* atan2: the quadrants, the axes and the signed zeros */
    SAME(pki_atan2(0.0, 0.0), 0.0);
    SAME(pki_atan2(-0.0, 0.0), -0.0);
    SAME(pki_atan2(0.0, -0.0), pi);
    SAME(pki_atan2(-0.0, -0.0), -pi);
    SAME(pki_atan2(0.0, -1.0), pi);
    SAME(pki_atan2(-0.0, -1.0), -pi);
    SAME(pki_atan2(-0.0, 1.0), -0.0);
    SAME(pki_atan2(1.0, 0.0), pio2);
    SAME(pki_atan2(-1.0, -0.0), -pio2);
    SAME(pki_atan2(1.0, 1.0), pio4);
    SAME(pki_atan2(1.0, -1.0), pi3o4);
    SAME(pki_atan2(-1.0, -1.0), -pi3o4);
    SAME(pki_atan2(-1.0, 1.0), -pio4);
    SAME(pki_atan2(INFINITY, INFINITY), pio4);
    SAME(pki_atan2(-INFINITY, -INFINITY), -pi3o4);
    SAME(pki_atan2(1.0, -INFINITY), pi);
    SAME(pki_atan2(-1.0, INFINITY), -0.0);
    SAME(pki_atan2(-INFINITY, 5.0), -pio2);
    SAME(pki_atan2(NAN, 1.0), NAN);
    SAME(pki_atan2(1e-300, 1e300), 0.0);
    SAME(pki_atan2(1e-300, -1e300), pi);
    SAME(pki_atan2(4.9e-324, 0x1p-1022), 0x1p-52);
    /* exp, log, log10, pow: exact cases */
    SAME(pki_exp(0.0), 1.0);
    SAME(pki_exp(-0.0), 1.0);
    SAME(pki_exp(INFINITY), INFINITY);
    SAME(pki_exp(-INFINITY), 0.0);
    SAME(pki_exp(710.0), INFINITY);
    SAME(pki_exp(-746.0), 0.0);
    SAME(pki_exp(-745.0), 4.9406564584124654e-324);
    SAME(pki_log(1.0), 0.0);
    SAME(pki_log(0.0), -INFINITY);
    SAME(pki_log(-0.0), -INFINITY);
    SAME(pki_log(-1.0), NAN);
    SAME(pki_log(INFINITY), INFINITY);
    SAME(pki_log(2.0), 0x1.62e42fefa39efp-1);
    for (int n = 0; n <= 22; n++) {
        double p = 1.0;
        for (int k = 0; k < n; k++)
            p *= 10.0; /* exact up to 1e22 */
        SAME(pki_log10(p), (double)n);
        SAME(pki_pow(10.0, n), p);
        SAME(pki_pow(10.0, -n), 1.0 / p); /* the correctly rounded quotient */
    }
    SAME(pki_pow(2.0, 0.5), 0x1.6a09e667f3bcdp+0);
    SAME(pki_pow(2.0, -1074.0), 4.9406564584124654e-324);
    SAME(pki_pow(2.0, 1024.0), INFINITY);
    SAME(pki_pow(NAN, 0.0), 1.0);
    SAME(pki_pow(1.0, NAN), 1.0);
    SAME(pki_pow(-1.0, INFINITY), 1.0);
    SAME(pki_pow(-2.0, 3.0), -8.0);
    SAME(pki_pow(-2.0, 0.5), NAN);
    SAME(pki_pow(-0.0, 3.0), -0.0);
    SAME(pki_pow(-0.0, -3.0), -INFINITY);
    SAME(pki_pow(-0.0, -2.0), INFINITY);
    SAME(pki_pow(0.0, -INFINITY), INFINITY);
    SAME(pki_pow(0.5, INFINITY), 0.0);
    SAME(pki_pow(-INFINITY, 3.0), -INFINITY);
    SAME(pki_pow(-INFINITY, -3.0), -0.0);
    SAME(pki_pow(-INFINITY, 2.0), INFINITY);
    SAME(pki_pow(INFINITY, -1.0), 0.0);
    SAME(pki_pow(1.0000001, 1e300), INFINITY);
    /* cbrt and hypot: exact cases */
    SAME(pki_cbrt(27.0), 3.0);
    SAME(pki_cbrt(-0.125), -0.5);
    SAME(pki_cbrt(-0.0), -0.0);
    SAME(pki_cbrt(-INFINITY), -INFINITY);
    SAME(pki_cbrt(0x1p-1074), 0x1p-358);
    SAME(pki_hypot(3.0, 4.0), 5.0);
    SAME(pki_hypot(-3e300, 4e300), 5e300);
    SAME(pki_hypot(3e-310, -4e-310), 5e-310);
    SAME(pki_hypot(NAN, INFINITY), INFINITY);
    SAME(pki_hypot(-0.0, -0.0), 0.0);
    SAME(pki_hypot(1e300, 1e300), 0x1.0e4d50f99b211p+997); /* mpmath */
}

/* The C library's value for a case. */
static double libm(const fmath_fn *fn, double x, double y)
{
    static const struct {
        const char *name;
        double (*f1)(double);
        double (*f2)(double, double);
    } c[] = {
        {"sin", sin, NULL},     {"cos", cos, NULL},   {"tan", tan, NULL},
        {"asin", asin, NULL},   {"acos", acos, NULL}, {"atan", atan, NULL},
        {"atan2", NULL, atan2}, {"exp", exp, NULL},   {"log", log, NULL},
        {"log10", log10, NULL}, {"pow", NULL, pow},   {"cbrt", cbrt, NULL},
        {"hypot", NULL, hypot},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (strcmp(c[i].name, fn->name) == 0)
            return c[i].f1 ? c[i].f1(x) : c[i].f2(x, y);
    fail_msg("no C library function for %s", fn->name);
    return 0;
}

typedef struct vs_libm {
    uint64_t bound, worst;
    long n, differ, bad;
} vs_libm;

static void compare(const fmath_fn *fn, double x, double y, double r, void *ctx)
{
    vs_libm *v = ctx;
    double want = libm(fn, x, y);
    uint64_t d = ulps(r, want);
    /* zeros and infinities: the same sign as the C library's */
    if ((r == 0 || isinf(r) || want == 0 || isinf(want)) && bits(r) != bits(want))
        d = UINT64_MAX;
    v->n++;
    v->differ += d != 0;
    if (d > v->worst)
        v->worst = d;
    if (d > v->bound && v->bad++ < 5)
        print_error("%s(%a, %a) = %a, the C library's %a\n", fn->name, x, y, r, want);
}

static void against_libm(void **state)
{
    (void)state;
    long bad = 0;
    for (size_t i = 0; i < FMATH_NFNS; i++) {
        const char *name = FMATH_FNS[i].name;
        vs_libm v = {strcmp(name, "cbrt") == 0    ? 4
                     : strcmp(name, "log10") == 0 ? 2
                                                  : 1,
                     0, 0, 0, 0};
        fmath_cases(i, compare, &v);
        print_message("%-6s %ld cases, %5.2f%% differ from the C library's, by %llu ulp at most\n",
                      FMATH_FNS[i].name, v.n, 100.0 * (double)v.differ / (double)v.n,
                      (unsigned long long)v.worst);
        bad += v.bad;
    }
    assert_int_equal(bad, 0);
}

/* The digests of every case, as tests/fmath/bits.txt holds them. */
static void same_bits_everywhere(void **state)
{
    (void)state;
    const char *src = getenv("PK_SOURCE");
    assert_non_null(src);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fmath/bits.txt", src);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char name[32];
    unsigned long long want;
    size_t seen = 0;
    while (fscanf(f, "%31s %llx", name, &want) == 2) {
        size_t i = 0;
        while (i < FMATH_NFNS && strcmp(FMATH_FNS[i].name, name) != 0)
            i++;
        assert_true(i < FMATH_NFNS);
        unsigned long long got = fmath_digest(i);
        if (got != want)
            fail_msg("%s: digest %016llx, bits.txt says %016llx (tests/fmath/fmath_bits -v "
                     "lists every case)",
                     name, got, want);
        seen++;
    }
    fclose(f);
    assert_int_equal(seen, FMATH_NFNS);
}

/* sin is odd and cos even, bit for bit (the IK solver turns a knee by
 * -a as the conjugate of its turn by a): angles of a turn and any double
 * the reduction takes. */
static void sin_odd_cos_even(void **state)
{
    (void)state;
    uint64_t r = 88172645463325252ull;
    for (int i = 0; i < 200000; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        double x;
        if (i % 2) {
            x = (double)(r >> 11) / 9007199254740992.0 * 8.0 - 4.0;
        } else {
            memcpy(&x, &r, sizeof x);
            if (x != x)
                continue;
        }
        SAME(pki_sin(-x), -pki_sin(x));
        SAME(pki_cos(-x), pki_cos(x));
    }
}

/* pki_sincos gives pki_sin's and pki_cos's bits: tiny, small, reduced by
 * Cody-Waite and by Payne-Hanek, special values. */
static void sincos_same(void **state)
{
    (void)state;
    const double edge[] = {0.0,
                           -0.0,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           0x1p-27,
                           0x1.fp-28,
                           0x1.fp-27,
                           0x1p-26,
                           0x1.1p-26,
                           0x1p-1022,
                           0x1p-1074,
                           1e300,
                           0x1.921fb54442d18p-1,
                           0x1.921fb54442d18p+0,
                           3.0,
                           0x1p20,
                           0x1.fffffp19,
                           DBL_MAX};
    uint64_t r = 88172645463325252ull;
    for (int i = 0; i < 200000 + 2 * (int)(sizeof edge / sizeof *edge); i++) {
        double x;
        int e = i - 200000;
        if (e >= 0) {
            x = e % 2 ? -edge[e / 2] : edge[e / 2];
        } else {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            if (i % 3 == 0)
                x = (double)(r >> 11) / 9007199254740992.0 * 8.0 - 4.0;
            else if (i % 3 == 1)
                x = ((double)(r >> 11) / 9007199254740992.0 - 0.5) * 0x1p-24;
            else
                memcpy(&x, &r, sizeof x);
        }
        double s = 7.0, c = 7.0;
        pki_sincos(x, &s, &c);
        SAME(s, pki_sin(x));
        SAME(c, pki_cos(x));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(special_values),
        cmocka_unit_test(against_libm),
        cmocka_unit_test(same_bits_everywhere),
        cmocka_unit_test(sin_odd_cos_even),
        cmocka_unit_test(sincos_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
