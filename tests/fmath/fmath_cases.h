/*
 * fmath_cases.h — the arguments posekit's elementary functions
 * (engine/util/fmath.h) are checked on, the same list on every platform:
 * special values and domain edges, then FMATH_RANDOM arguments per range
 * from a fixed-seed xorshift generator.  Included by
 * tests/unit/test_fmath.c (against the C library and the checked-in
 * digests of tests/fmath/bits.txt) and tests/fmath/fmath_bits.c (prints
 * the digests: built for Linux, WebAssembly and Windows, the three must
 * print tests/fmath/bits.txt).
 */
#ifndef FMATH_CASES_H
#define FMATH_CASES_H

#include "util/fmath.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define FMATH_RANDOM 20000

typedef struct fmath_fn {
    const char *name;
    int arity;
    double (*f1)(double);
    double (*f2)(double, double);
    /* ranges [lo, hi]; log != 0: |x| log-uniform in [lo, hi], random sign
     * when log < 0 */
    struct {
        double lo, hi;
        int log;
    } range[3];
} fmath_fn;

static const fmath_fn FMATH_FNS[] = {
    {"sin", 1, pki_sin, NULL, {{-7, 7, 0}, {-1e6, 1e6, 0}, {1e-20, 1e300, -1}}},
    {"cos", 1, pki_cos, NULL, {{-7, 7, 0}, {-1e6, 1e6, 0}, {1e-20, 1e300, -1}}},
    {"tan", 1, pki_tan, NULL, {{-2, 2, 0}, {-1e4, 1e4, 0}, {1e-20, 1e300, -1}}},
    {"asin", 1, pki_asin, NULL, {{-1, 1, 0}, {0.9, 1, 0}, {1e-30, 1, -1}}},
    {"acos", 1, pki_acos, NULL, {{-1, 1, 0}, {0.9, 1, 0}, {1e-30, 1, -1}}},
    {"atan", 1, pki_atan, NULL, {{-4, 4, 0}, {-1, 1, 0}, {1e-300, 1e300, -1}}},
    {"atan2", 2, NULL, pki_atan2, {{-5, 5, 0}, {-1, 1, 0}, {1e-300, 1e300, -1}}},
    {"exp", 1, pki_exp, NULL, {{-745, 709.7, 0}, {-2, 2, 0}, {1e-20, 1, -1}}},
    {"log", 1, pki_log, NULL, {{0, 4, 0}, {0.5, 2, 0}, {1e-320, 1e300, 1}}},
    {"log10", 1, pki_log10, NULL, {{0, 4, 0}, {0.5, 2, 0}, {1e-320, 1e300, 1}}},
    {"pow", 2, NULL, pki_pow, {{0, 20, 0}, {0.5, 2, 0}, {1e-30, 1e30, 1}}},
    {"cbrt", 1, pki_cbrt, NULL, {{-8, 8, 0}, {0, 1, 0}, {1e-320, 1e300, -1}}},
    {"hypot", 2, NULL, pki_hypot, {{-3, 3, 0}, {-1e6, 1e6, 0}, {1e-300, 1e300, -1}}},
};
#define FMATH_NFNS (sizeof FMATH_FNS / sizeof FMATH_FNS[0])

/* Special values every function is evaluated at (pairs: every combination). */
static const double FMATH_EDGES[] = {
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    -2.0,
    3.0,
    -3.0,
    10.0,
    1000.0,
    0.1,
    8.0,
    -27.0,
    1e-300,
    -1e-310,
    4.9e-324,
    1e300,
    -1e300,
    1e22,
    0x1p20,
    0x1p52,
    0x1p53,
    1.5707963267948966,
    3.141592653589793,
    0.7853981633974483,
    709.7,
    -745.0,
    710.0,
    INFINITY,
    -INFINITY,
    NAN,
};
#define FMATH_NEDGES (sizeof FMATH_EDGES / sizeof FMATH_EDGES[0])

static uint64_t fmath_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Uniform in [0, 1): 53 random bits. */
static double fmath_unit(uint64_t *s)
{
    return (double)(fmath_next(s) >> 11) * 0x1p-53;
}

/* A random argument in range r of fn (the log ranges go through the C
 * library's log and exp only to pick arguments: the list differs from one
 * platform to another when they do, so the log ranges use pki_ functions,
 * the same everywhere). */
static double fmath_arg(const fmath_fn *fn, int r, uint64_t *s)
{
    double lo = fn->range[r].lo, hi = fn->range[r].hi;
    double u = fmath_unit(s);
    if (fn->range[r].log == 0)
        return lo + (hi - lo) * u;
    double x = pki_exp(pki_log(lo) + (pki_log(hi) - pki_log(lo)) * u);
    if (fn->range[r].log < 0 && (fmath_next(s) & 1))
        x = -x;
    return x;
}

/* Calls visit(fn, x, y, r, ctx) for every case of function i: edges (and
 * pairs of edges), then FMATH_RANDOM random arguments per range. */
static void fmath_cases(size_t i, void (*visit)(const fmath_fn *, double, double, double, void *),
                        void *ctx)
{
    const fmath_fn *fn = &FMATH_FNS[i];
    uint64_t s = 0x9E3779B97F4A7C15ull ^ (uint64_t)(i + 1);
    for (size_t a = 0; a < FMATH_NEDGES; a++) {
        if (fn->arity == 1) {
            visit(fn, FMATH_EDGES[a], 0, fn->f1(FMATH_EDGES[a]), ctx);
            continue;
        }
        for (size_t b = 0; b < FMATH_NEDGES; b++)
            visit(fn, FMATH_EDGES[a], FMATH_EDGES[b], fn->f2(FMATH_EDGES[a], FMATH_EDGES[b]), ctx);
    }
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < FMATH_RANDOM; k++) {
            double x = fmath_arg(fn, r, &s);
            if (fn->arity == 1) {
                visit(fn, x, 0, fn->f1(x), ctx);
            } else {
                double y = fmath_arg(fn, r, &s);
                if (strcmp(fn->name, "pow") == 0) /* exponents that keep x^y in range */
                    y = (fmath_unit(&s) - 0.5) * (r == 2 ? 20.0 : 200.0);
                visit(fn, x, y, fn->f2(x, y), ctx);
            }
        }
}

/* FNV-1a over the results' bits (every NaN as one). */
static void fmath_hash(const fmath_fn *fn, double x, double y, double r, void *ctx)
{
    (void)fn;
    (void)x;
    (void)y;
    uint64_t *h = ctx, b;
    memcpy(&b, &r, sizeof b);
    if (r != r)
        b = 0x7FF8000000000000ull;
    for (int k = 0; k < 8; k++) {
        *h ^= (b >> (8 * k)) & 0xFF;
        *h *= 0x100000001B3ull;
    }
}

static uint64_t fmath_digest(size_t i)
{
    uint64_t h = 0xCBF29CE484222325ull;
    fmath_cases(i, fmath_hash, &h);
    return h;
}

#endif
