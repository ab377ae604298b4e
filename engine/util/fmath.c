/* fmath.c — posekit's elementary functions, the same bits on every
 * platform (util/fmath.h).
 *
 * Tools: double-double values (hi + lo, |lo| <= ulp(hi) / 2 once
 * normalized) built from error-free transformations that need only
 * correctly rounded + - *: two_sum (Knuth), fast_two_sum (Dekker, when
 * |a| >= |b|) and two_prod (Dekker's product with Veltkamp's split, so no
 * FMA is needed; its operands stay below 2^995 here).  Each function
 * reduces its argument exactly or to double-double accuracy, evaluates a
 * truncated Taylor series whose leading terms are carried in
 * double-double, and rounds once at the end: about 0.5 ulp plus a few
 * hundredths.
 *
 * Constants: tests/fmath/constants.py derives every one (pieces of pi/2
 * and ln 2, 2/pi's bits, double-double values, the Taylor coefficients
 * and their truncation bounds) and tests/fmath/check_constants.py checks
 * that the block below is its output. */
#include "util/fmath.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The kernels inlined into the functions that call them (pki_sincos takes
 * both sin's and cos's): the same operations, no calls. */
#if defined(__GNUC__) || defined(__clang__)
#define KERNEL static inline __attribute__((always_inline))
#else
#define KERNEL static inline
#endif

/* clang-format off */
/* constants.py begin */
#define PIO2_1 0x1.921fb54400000p+0
#define PIO2_2 0x1.0b4611a600000p-34
#define PIO2_3 0x1.3198a2e000000p-69
#define PIO2_4 0x1.b839a252049c1p-104
#define INV_PIO2 0x1.45f306dc9c883p-1
#define PI_H 0x1.921fb54442d18p+1
#define PI_L 0x1.1a62633145c07p-53
#define PIO2_H 0x1.921fb54442d18p+0
#define PIO2_L 0x1.1a62633145c07p-54
#define PIO4_H 0x1.921fb54442d18p-1
#define PIO4_L 0x1.1a62633145c07p-55
#define PI3O4_H 0x1.2d97c7f3321d2p+1
#define PI3O4_L 0x1.a79394c9e8a0ap-54
#define INV_LN10_H 0x1.bcb7b1526e50ep-2
#define INV_LN10_L 0x1.95355baaafad3p-57
#define SIN3_H -0x1.5555555555555p-3
#define SIN3_L -0x1.5555555555555p-57
#define LOG3_H 0x1.5555555555555p-1
#define LOG3_L 0x1.5555555555555p-55
#define LN2_HI 0x1.62e42fefa3800p-1
#define LN2_LO 0x1.ef35793c76730p-45
#define INV_LN2 0x1.71547652b82fep+0
static const uint32_t TWO_OVER_PI[40] = {
    0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041,
    0xFE5163AB, 0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C,
    0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484, 0xE99C7026, 0xB45F7E41,
    0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
    0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D,
    0x7527BAC7, 0xEBE5F17B, 0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08,
    0x56033046, 0xFC7B6BAB, 0xF0CFBC20, 0x9AF4361D,
};
static const double ATAN_K8[9][2] = {
    {0x0.0p+0, 0x0.0p+0},
    {0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59},
    {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
    {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
    {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
    {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
    {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
    {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
    {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
};
static const double SIN_C[7] = {
    0x1.1111111111111p-7,
    -0x1.a01a01a01a01ap-13,
    0x1.71de3a556c734p-19,
    -0x1.ae64567f544e4p-26,
    0x1.6124613a86d09p-33,
    -0x1.ae7f3e733b81fp-41,
    0x1.952c77030ad4ap-49,
};
static const double COS_C[8] = {
    0x1.5555555555555p-5,
    -0x1.6c16c16c16c17p-10,
    0x1.a01a01a01a01ap-16,
    -0x1.27e4fb7789f5cp-22,
    0x1.1eed8eff8d898p-29,
    -0x1.93974a8c07c9dp-37,
    0x1.ae7f3e733b81fp-45,
    -0x1.6827863b97d97p-53,
};
static const double ATAN_C[6] = {
    -0x1.5555555555555p-2,
    0x1.999999999999ap-3,
    -0x1.2492492492492p-3,
    0x1.c71c71c71c71cp-4,
    -0x1.745d1745d1746p-4,
    0x1.3b13b13b13b14p-4,
};
static const double EXP_C[13] = {
    0x1.5555555555555p-3,
    0x1.5555555555555p-5,
    0x1.1111111111111p-7,
    0x1.6c16c16c16c17p-10,
    0x1.a01a01a01a01ap-13,
    0x1.a01a01a01a01ap-16,
    0x1.71de3a556c734p-19,
    0x1.27e4fb7789f5cp-22,
    0x1.ae64567f544e4p-26,
    0x1.1eed8eff8d898p-29,
    0x1.6124613a86d09p-33,
    0x1.93974a8c07c9dp-37,
    0x1.ae7f3e733b81fp-41,
};
static const double LOG_C[10] = {
    0x1.999999999999ap-2,
    0x1.2492492492492p-2,
    0x1.c71c71c71c71cp-3,
    0x1.745d1745d1746p-3,
    0x1.3b13b13b13b14p-3,
    0x1.1111111111111p-3,
    0x1.e1e1e1e1e1e1ep-4,
    0x1.af286bca1af28p-4,
    0x1.8618618618618p-4,
    0x1.642c8590b2164p-4,
};
/* constants.py end */
/* clang-format on */

#define SQRT2 0x1.6a09e667f3bcdp+0
#define ROUND_MAGIC 0x1.8p52 /* (v + M) - M rounds |v| < 2^51 to an integer */

typedef struct dd {
    double h, l;
} dd;

static uint64_t bits_of(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static double from_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* 2^k, -1022 <= k <= 1023. */
static double pow2(int k)
{
    return from_bits((uint64_t)(k + 1023) << 52);
}

/* x * 2^k for -2044 <= k <= 2046 in two exact steps (one rounding at most,
 * in the second, when the result is subnormal). */
static double scale2(double x, int k)
{
    int k1 = k / 2;
    return x * pow2(k1) * pow2(k - k1);
}

/* The binary exponent of x > 0 finite: x = m * 2^e, 1 <= m < 2. */
static int expo(double x)
{
    int e = (int)(bits_of(x) >> 52);
    if (e == 0)
        return (int)(bits_of(x * 0x1p54) >> 52) - 1023 - 54;
    return e - 1023;
}

static dd two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    return (dd){s, (a - (s - bb)) + (b - bb)};
}

static dd fast_two_sum(double a, double b)
{
    double s = a + b;
    return (dd){s, b - (s - a)};
}

static dd two_prod(double a, double b)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double p = a * b;
    double ta = split * a, tb = split * b;
    double ah = ta - (ta - a), bh = tb - (tb - b);
    double al = a - ah, bl = b - bh;
    return (dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

/* c x exactly (h + l) for c = k/8, 0 <= k <= 8: c has at most 4
 * significant bits, so only x is split (Dekker's product, c's low half
 * 0). */
static dd mul_k8(double c, double x)
{
    const double split = 134217729.0;
    double p = c * x;
    double t = split * x;
    double xh = t - (t - x);
    return (dd){p, (c * xh - p) + c * (x - xh)};
}

/* a - b for double-doubles, normalized. */
static dd dd_sub(double ah, double al, dd b)
{
    dd s = two_sum(ah, -b.h);
    return fast_two_sum(s.h, s.l + al - b.l);
}

/* ---- sin, cos, tan -------------------------------------------------------
 * x = k pi/2 + r, |r| <= pi/4 (a hair more when x * 2/pi rounds near a
 * half): Cody-Waite below 2^20 with pi/2 in four pieces (three of 33 bits:
 * k * piece exact), Payne-Hanek above with 2/pi's bits. */

/* 32 bits of the little-endian integer p[0..n) from bit pos (pos < 0: low
 * bits 0). */
static uint32_t bits32(const uint32_t *p, int n, int pos)
{
    int li = pos >= 0 ? pos / 32 : -((-pos + 31) / 32);
    int off = pos - li * 32;
    uint64_t lo = li >= 0 && li < n ? p[li] : 0;
    uint64_t hi = li + 1 >= 0 && li + 1 < n ? p[li + 1] : 0;
    return (uint32_t)(((hi << 32) | lo) >> off);
}

/* |x| >= 2^20, finite: x * 2/pi = m 2^E * sum w[i] 2^(-32(i+1)) with the
 * words whose terms are multiples of 4 left out, 8 words kept (the rest
 * weighs < 2^-170 of a quarter turn, far below the closest a double comes
 * to a multiple of pi/2). */
static unsigned reduce_big(double x, dd *r)
{
    uint64_t b = bits_of(x);
    int e_biased = (int)((b >> 52) & 0x7FF);
    uint64_t m = (b & 0xFFFFFFFFFFFFFull) | (1ull << 52);
    int e = e_biased - 1075; /* |x| = m 2^e, e >= -32 */
    int i0 = e < 34 ? 0 : (e - 34) / 32 + 1;
    uint32_t w[8], p[10] = {0};
    for (int k = 0; k < 8; k++)
        w[k] = TWO_OVER_PI[i0 + 7 - k];
    uint32_t a[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t cur = (uint64_t)a[i] * w[k] + p[i + k] + carry;
            p[i + k] = (uint32_t)cur;
            carry = cur >> 32;
        }
        p[i + 8] = (uint32_t)carry;
    }
    int sh = 32 * (i0 + 8) - e; /* the binary point of p */
    unsigned q = bits32(p, 10, sh) & 3u;
    uint32_t f[7];
    for (int j = 0; j < 7; j++)
        f[j] = bits32(p, 10, sh - 32 * (j + 1));
    bool neg = f[0] & 0x80000000u;
    if (neg) { /* fraction >= 1/2: 1 - fraction, one quadrant on */
        uint64_t carry = 1;
        for (int j = 6; j >= 0; j--) {
            uint64_t v = (uint64_t)(uint32_t)~f[j] + carry;
            f[j] = (uint32_t)v;
            carry = v >> 32;
        }
        q = (q + 1) & 3u;
    }
    int j = 0;
    while (j < 4 && f[j] == 0)
        j++;
    double t[4];
    for (int i = 0; i < 4; i++)
        t[i] = j + i < 7 ? (double)f[j + i] * pow2(-32 * (j + i + 1)) : 0.0;
    dd v = two_sum(t[0], t[1]);
    v = fast_two_sum(v.h, v.l + t[2] + t[3]);
    dd rr = two_prod(v.h, PIO2_H);
    rr = fast_two_sum(rr.h, rr.l + v.h * PIO2_L + v.l * PIO2_H);
    if (neg) {
        rr.h = -rr.h;
        rr.l = -rr.l;
    }
    if (x < 0) {
        rr.h = -rr.h;
        rr.l = -rr.l;
        q = (4u - q) & 3u;
    }
    *r = rr;
    return q;
}

/* x = k pi/2 + r; returns k mod 4. */
KERNEL unsigned reduce(double x, dd *r)
{
    double ax = fabs(x);
    if (ax <= PIO4_H) {
        *r = (dd){x, 0.0};
        return 0;
    }
    if (ax >= 0x1p20)
        return reduce_big(x, r);
    double kd = (x * INV_PIO2 + ROUND_MAGIC) - ROUND_MAGIC;
    double t = x - kd * PIO2_1; /* exact: k * PIO2_1 is, then Sterbenz */
    dd s = two_sum(t, -(kd * PIO2_2));
    dd s2 = two_sum(s.h, -(kd * PIO2_3));
    *r = two_sum(s2.h, s.l + s2.l - kd * PIO2_4);
    return (unsigned)(int64_t)kd & 3u;
}

/* sin(r.h + r.l), unevaluated (h + l).  r.h + r.h^3 (-1/6) in
 * double-double, the rest of the series in double. */
KERNEL dd sin_k(dd r)
{
    double x = r.h;
    dd z = two_prod(x, x);
    dd c = two_prod(x, z.h); /* x^3 = c.h + c.l + x z.l */
    dd t = two_prod(c.h, SIN3_H);
    t.l += (c.l + x * z.l) * SIN3_H + c.h * SIN3_L;
    double p = SIN_C[6];
    for (int i = 5; i >= 0; i--)
        p = p * z.h + SIN_C[i];
    dd s = fast_two_sum(x, t.h);
    return (dd){s.h, s.l + t.l + c.h * z.h * p + r.l * (1.0 - 0.5 * z.h)};
}

/* cos(r.h + r.l), unevaluated: 1 - r^2/2 exactly, the rest in double. */
KERNEL dd cos_k(dd r)
{
    double x = r.h;
    dd z = two_prod(x, x);
    dd w = two_sum(1.0, -0.5 * z.h);
    double p = COS_C[7];
    for (int i = 6; i >= 0; i--)
        p = p * z.h + COS_C[i];
    return (dd){w.h, w.l - 0.5 * z.l - x * r.l + z.h * z.h * p};
}

/* sin_k(r) and cos_k(r) together: the same operations, the two series in
 * two lanes where the GCC/clang vector extension is (-DPK_NO_VECTOR: one
 * after the other). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_VECTOR)
typedef double v2d __attribute__((vector_size(16)));

KERNEL void sincos_k(dd r, dd *sv, dd *cv)
{
    double x = r.h;
    dd z = two_prod(x, x);
    v2d zz = {z.h, z.h};
    v2d p = {SIN_C[6], COS_C[7] * z.h + COS_C[6]};
    for (int i = 5; i >= 0; i--)
        p = p * zz + (v2d){SIN_C[i], COS_C[i]};
    dd c = two_prod(x, z.h); /* x^3 = c.h + c.l + x z.l */
    dd t = two_prod(c.h, SIN3_H);
    t.l += (c.l + x * z.l) * SIN3_H + c.h * SIN3_L;
    dd s = fast_two_sum(x, t.h);
    *sv = (dd){s.h, s.l + t.l + c.h * z.h * p[0] + r.l * (1.0 - 0.5 * z.h)};
    dd w = two_sum(1.0, -0.5 * z.h);
    *cv = (dd){w.h, w.l - 0.5 * z.l - x * r.l + z.h * z.h * p[1]};
}
#else
KERNEL void sincos_k(dd r, dd *sv, dd *cv)
{
    *sv = sin_k(r);
    *cv = cos_k(r);
}
#endif

double pki_sin(double x)
{
    double ax = fabs(x);
    if (!(ax <= 0x1.fffffffffffffp+1023))
        return x - x; /* NaN for inf and NaN */
    if (ax < 0x1p-26)
        return x; /* x^2/6 < 2^-54.5: x is the rounded sin */
    dd r;
    unsigned q = reduce(x, &r);
    dd v = (q & 1u) ? cos_k(r) : sin_k(r);
    double y = v.h + v.l;
    return (q & 2u) ? -y : y;
}

double pki_cos(double x)
{
    double ax = fabs(x);
    if (!(ax <= 0x1.fffffffffffffp+1023))
        return x - x;
    if (ax < 0x1p-27)
        return 1.0;
    dd r;
    unsigned q = reduce(x, &r);
    dd v = (q & 1u) ? sin_k(r) : cos_k(r);
    double y = v.h + v.l;
    return (q == 1u || q == 2u) ? -y : y;
}

void pki_sincos(double x, double *s, double *c)
{
    double ax = fabs(x);
    if (!(ax <= 0x1.fffffffffffffp+1023) || ax < 0x1p-26) {
        *s = pki_sin(x);
        *c = pki_cos(x);
        return;
    }
    dd r;
    unsigned q = reduce(x, &r);
    dd vs, vc;
    sincos_k(r, &vs, &vc);
    if (q & 1u) {
        dd t = vs;
        vs = vc;
        vc = t;
    }
    double ys = vs.h + vs.l, yc = vc.h + vc.l;
    *s = (q & 2u) ? -ys : ys;
    *c = (q == 1u || q == 2u) ? -yc : yc;
}

/* (n.h + n.l) / (d.h + d.l), rounded once. */
static double dd_div(dd n, dd d)
{
    double q = n.h / d.h;
    dd p = two_prod(q, d.h);
    return q + (((n.h - p.h) - p.l) + n.l - q * d.l) / d.h;
}

double pki_tan(double x)
{
    double ax = fabs(x);
    if (!(ax <= 0x1.fffffffffffffp+1023))
        return x - x;
    if (ax < 0x1p-27)
        return x; /* x^2/3 < 2^-55.5 */
    dd r;
    unsigned q = reduce(x, &r);
    dd s, c;
    sincos_k(r, &s, &c);
    s = fast_two_sum(s.h, s.l);
    c = fast_two_sum(c.h, c.l);
    if (q & 1u)
        return -dd_div(c, s);
    return dd_div(s, c);
}

/* ---- atan2, atan, asin, acos ---------------------------------------------
 * atan(n/d) for 0 <= n <= d: c = k/8 nearest to n/d, u = (n - c d) /
 * (d + c n) in double-double (|u| <= 1/16), atan(n/d) = atan(c) + atan(u)
 * with atan(c) from the table and atan(u) = u - u^3/3 + ... */
KERNEL dd atan_core(dd n, dd d)
{
    double t = n.h / d.h;
    int k = (int)(t * 8.0 + 0.5);
    double c = 0.125 * k, uh, ul;
    if (k == 0) { /* u = n/d */
        uh = t;
        dd m = two_prod(uh, d.h);
        ul = (((n.h - m.h) - m.l) + n.l - uh * d.l) / d.h;
    } else {
        dd p = mul_k8(c, d.h);
        dd num = two_sum(n.h, -p.h);
        num = two_sum(num.h, num.l + n.l - p.l - c * d.l);
        dd g = mul_k8(c, n.h);
        dd den = two_sum(d.h, g.h);
        den = fast_two_sum(den.h, den.l + g.l + d.l + c * n.l);
        uh = num.h / den.h;
        dd m = two_prod(uh, den.h);
        ul = (((num.h - m.h) - m.l) + num.l - uh * den.l) / den.h;
    }
    double z = uh * uh;
    double pz = ATAN_C[5];
    for (int i = 4; i >= 0; i--)
        pz = pz * z + ATAN_C[i];
    double rest = ul * (1.0 - z) + uh * z * pz;
    if (k == 0)
        return fast_two_sum(uh, rest);
    dd s = two_sum(ATAN_K8[k][0], uh);
    return fast_two_sum(s.h, s.l + ATAN_K8[k][1] + rest);
}

/* atan(y/x) in [0, pi/2] for y, x >= 0 (double-doubles, not both 0). */
KERNEL dd atan2_pos(dd y, dd x)
{
    if (y.h <= x.h)
        return atan_core(y, x);
    return dd_sub(PIO2_H, PIO2_L, atan_core(x, y));
}

/* atan2 where y or x is 0, infinite, NaN or beyond 2^+-500: true and the
 * result in *r, or false and the angle from +x in [0, pi] in *a. */
static bool atan2_edge(double y, double x, dd *a, double *r)
{
    if (isnan(x) || isnan(y)) {
        *r = x + y;
        return true;
    }
    double ay = fabs(y), ax = fabs(x);
    bool left = signbit(x);
    if (ay == 0.0) {
        if (!left) {
            *r = y;
            return true;
        }
        *a = (dd){PI_H, PI_L};
    } else if (isinf(ax)) {
        if (isinf(ay)) {
            *a = left ? (dd){PI3O4_H, PI3O4_L} : (dd){PIO4_H, PIO4_L};
        } else if (left) {
            *a = (dd){PI_H, PI_L};
        } else {
            *r = signbit(y) ? -0.0 : 0.0;
            return true;
        }
    } else if (isinf(ay) || ax == 0.0) {
        *a = (dd){PIO2_H, PIO2_L};
    } else {
        int ey = expo(ay), ex = expo(ax);
        dd b; /* atan(ay/ax) */
        if (ey - ex > 60) {
            b = dd_sub(PIO2_H, PIO2_L, (dd){ax / ay, 0.0});
        } else if (ex - ey > 60) {
            double t = ay / ax; /* atan t = t (1 - t^2/3): t is its rounding */
            if (!left) {
                *r = signbit(y) ? -t : t;
                return true;
            }
            b = (dd){t, 0.0};
        } else { /* scaled: the largest in [1, 2) */
            int k = -(ey > ex ? ey : ex);
            b = atan2_pos((dd){scale2(ay, k), 0.0}, (dd){scale2(ax, k), 0.0});
        }
        *a = left ? dd_sub(PI_H, PI_L, b) : b;
    }
    return false;
}

double pki_atan2(double y, double x)
{
    double ay = fabs(y), ax = fabs(x);
    dd a; /* the angle from +x, in [0, pi] */
    /* Both in [2^-500, 2^500): no product in atan_core can overflow or
     * lose bits below the normal range, nothing to scale. */
    if ((bits_of(ay) >> 52) - 523u < 1000u && (bits_of(ax) >> 52) - 523u < 1000u) {
        a = atan2_pos((dd){ay, 0.0}, (dd){ax, 0.0});
        if (signbit(x))
            a = dd_sub(PI_H, PI_L, a);
    } else {
        double r;
        if (atan2_edge(y, x, &a, &r))
            return r;
    }
    double v = a.h + a.l;
    return signbit(y) ? -v : v;
}

double pki_atan(double x)
{
    return pki_atan2(x, 1.0);
}

/* sqrt(1 - a^2) for 0 <= a <= 1, as a double-double. */
KERNEL dd sqrt_one_minus_sq(double a)
{
    dd p = two_prod(a, a);
    dd s = two_sum(1.0, -p.h);
    dd v = two_sum(s.h, s.l - p.l);
    if (v.h <= 0.0)
        return (dd){0.0, 0.0};
    double h = sqrt(v.h);
    dd hh = two_prod(h, h);
    return fast_two_sum(h, (((v.h - hh.h) - hh.l) + v.l) / (2.0 * h));
}

double pki_asin(double x)
{
    double ax = fabs(x);
    if (isnan(x))
        return x + x;
    if (ax > 1.0)
        return NAN;
    if (ax < 0x1p-26)
        return x; /* x^2/6 < 2^-54.5 */
    dd a = atan2_pos((dd){ax, 0.0}, sqrt_one_minus_sq(ax));
    double v = a.h + a.l;
    return x < 0 ? -v : v;
}

double pki_acos(double x)
{
    double ax = fabs(x);
    if (isnan(x))
        return x + x;
    if (ax > 1.0)
        return NAN;
    dd a = atan2_pos(sqrt_one_minus_sq(ax), (dd){ax, 0.0});
    if (x < 0)
        a = dd_sub(PI_H, PI_L, a);
    return a.h + a.l;
}

/* ---- exp, log, log10, pow ------------------------------------------------
 * exp: x = k ln2 + r (ln 2 in two pieces, k * LN2_HI exact), |r| <= 0.35,
 * exp r = 1 + r + r^2/2 (double-double) + r^3 (1/6 + r/24 + ...).
 * log: x = 2^e m, m in [sqrt(1/2), sqrt(2)), s = (m - 1) / (m + 1) in
 * double-double, log m = 2 atanh s = 2s + 2s^3/3 (double-double) + s^5
 * (2/5 + 2s^2/7 + ...). */

/* exp(x.h + x.l) = 2^k (h + l); |x.h| <= 746. */
static dd exp_core(dd x, int *k)
{
    double kd = (x.h * INV_LN2 + ROUND_MAGIC) - ROUND_MAGIC;
    double t = x.h - kd * LN2_HI; /* exact */
    dd r = two_sum(t, x.l - kd * LN2_LO);
    double rh = r.h;
    dd z = two_prod(rh, rh);
    double p = EXP_C[12];
    for (int i = 11; i >= 0; i--)
        p = p * rh + EXP_C[i];
    dd a = two_sum(rh, 0.5 * z.h);
    dd c = two_sum(1.0, a.h);
    dd e = fast_two_sum(c.h, c.l + a.l + 0.5 * z.l + rh * z.h * p);
    e.l += r.l * e.h;
    *k = (int)kd;
    return e;
}

/* (h + l) 2^k, rounded once. */
static double exp_finish(dd e, int k)
{
    if (k > 1023)
        return (e.h + e.l) * pow2(1023) * pow2(k - 1023);
    if (k >= -1021)
        return (e.h + e.l) * pow2(k);
    /* Subnormal: counted in units of 2^-1074 (exact scalings), rounded to
     * an integer once (to even on a tie), then scaled back exactly. */
    double uh = e.h * pow2(k + 1074), ul = e.l * pow2(k + 1074);
    if (uh >= 0x1p52)
        return (e.h + e.l) * pow2(k); /* normal after all */
    double r = (uh + 0x1p52) - 0x1p52;
    double d = (uh - r) + ul;
    bool odd = floor(0.5 * r) != 0.5 * r;
    if (d > 0.5 || (d == 0.5 && odd))
        r += 1.0;
    else if (d < -0.5 || (d == -0.5 && odd))
        r -= 1.0;
    return r * 0x1p-52 * 0x1p-1022;
}

double pki_exp(double x)
{
    if (isnan(x))
        return x + x;
    if (x > 710.0)
        return HUGE_VAL;
    if (x < -746.0)
        return 0.0;
    int k;
    dd e = exp_core((dd){x, 0.0}, &k);
    return exp_finish(e, k);
}

/* log x as a double-double, x > 0 finite. */
static dd log_core(double x)
{
    int e = expo(x);
    double m = scale2(x, -e); /* [1, 2), exact */
    if (m > SQRT2) {
        m *= 0.5;
        e++;
    }
    double f = m - 1.0; /* exact */
    dd d = two_sum(m, 1.0);
    double sh = f / d.h;
    dd p = two_prod(sh, d.h);
    double sl = (((f - p.h) - p.l) - sh * d.l) / d.h;
    dd z = two_prod(sh, sh);
    dd c = two_prod(sh, z.h); /* s^3 */
    dd t = two_prod(c.h, LOG3_H);
    t.l += (c.l + sh * z.l) * LOG3_H + c.h * LOG3_L;
    double q = LOG_C[9];
    for (int i = 8; i >= 0; i--)
        q = q * z.h + LOG_C[i];
    double ed = (double)e;
    dd a = two_sum(ed * LN2_HI, 2.0 * sh);
    dd a2 = two_sum(a.h, t.h);
    double lo = a.l + a2.l + t.l + ed * LN2_LO + 2.0 * sl * (1.0 + z.h) + c.h * z.h * q;
    return fast_two_sum(a2.h, lo);
}

double pki_log(double x)
{
    if (isnan(x))
        return x + x;
    if (x < 0.0)
        return NAN;
    if (x == 0.0)
        return -HUGE_VAL;
    if (isinf(x))
        return x;
    dd r = log_core(x);
    return r.h + r.l;
}

double pki_log10(double x)
{
    if (isnan(x))
        return x + x;
    if (x < 0.0)
        return NAN;
    if (x == 0.0)
        return -HUGE_VAL;
    if (isinf(x))
        return x;
    dd r = log_core(x);
    dd p = two_prod(r.h, INV_LN10_H);
    return p.h + (p.l + r.h * INV_LN10_L + r.l * INV_LN10_H);
}

static bool is_int(double y)
{
    return floor(y) == y;
}

static bool is_odd(double y)
{
    return is_int(y) && fabs(y) < 0x1p53 && floor(0.5 * y) != 0.5 * y;
}

double pki_pow(double x, double y)
{
    if (y == 0.0 || x == 1.0)
        return 1.0;
    if (isnan(x) || isnan(y))
        return x + y;
    double ax = fabs(x);
    if (isinf(y)) {
        if (ax == 1.0)
            return 1.0;
        return (ax > 1.0) == (y > 0.0) ? HUGE_VAL : 0.0;
    }
    bool odd = is_odd(y);
    if (x == 0.0) {
        if (y < 0.0)
            return odd ? copysign(HUGE_VAL, x) : HUGE_VAL;
        return odd ? x : 0.0;
    }
    if (isinf(x)) {
        if (x > 0.0)
            return y < 0.0 ? 0.0 : HUGE_VAL;
        if (y < 0.0)
            return odd ? -0.0 : 0.0;
        return odd ? -HUGE_VAL : HUGE_VAL;
    }
    if (x < 0.0 && !is_int(y))
        return NAN;
    double sign = x < 0.0 && odd ? -1.0 : 1.0;
    if (ax == 1.0)
        return sign;
    if (fabs(y) > 0x1p64) /* |log x| >= 2^-53: |y log x| > 2^11 */
        return sign * ((ax > 1.0) == (y > 0.0) ? HUGE_VAL : 0.0);
    dd l = log_core(ax);
    dd p = two_prod(y, l.h);
    p = fast_two_sum(p.h, p.l + y * l.l);
    if (p.h > 710.0)
        return sign * HUGE_VAL;
    if (p.h < -746.0)
        return sign * 0.0;
    int k;
    dd e = exp_core(p, &k);
    return sign * exp_finish(e, k);
}

/* ---- cbrt, hypot ---------------------------------------------------------- */

double pki_cbrt(double x)
{
    if (x == 0.0 || !isfinite(x))
        return x + x;
    double ax = fabs(x);
    int e = expo(ax);
    double m = scale2(ax, -e);                /* [1, 2), exact */
    int q = e >= 0 ? e / 3 : -((-e + 2) / 3); /* floor(e / 3) */
    int rem = e - 3 * q;
    double a = m * (rem == 0 ? 1.0 : rem == 1 ? 2.0 : 4.0); /* [1, 8), cbrt(a) in [1, 2) */
    /* cbrt m ~ 0.7467 + 0.2533 m on [1, 2) (within 0.7%), times 2^(rem/3)
     * (any close value: Newton's steps make up for it). */
    double y = (0.7467 + 0.2533 * m) * (rem == 0   ? 1.0
                                        : rem == 1 ? 1.2599210498948732
                                                   : 1.5874010519681994);
    for (int i = 0; i < 3; i++)
        y = y - (y * y * y - a) / (3.0 * y * y);
    /* One more step with a - y^3 exact: the error is then the rounding. */
    dd s = two_prod(y, y);
    dd c = two_prod(y, s.h);
    y = y + (((a - c.h) - c.l) - y * s.l) / (3.0 * s.h);
    return copysign(y * pow2(q), x);
}

double pki_hypot(double x, double y)
{
    if (isinf(x) || isinf(y))
        return HUGE_VAL;
    if (isnan(x) || isnan(y))
        return x + y;
    double a = fabs(x), b = fabs(y);
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b == 0.0)
        return a;
    int ea = expo(a);
    if (ea - expo(b) > 60)
        return a + b; /* b^2 / 2a < 2^-120 a */
    /* Scaled to 1 <= a < 2 every step's result is 0 or at least 2^-230 in
     * size, and below 2^4: for |ea| <= 300 the steps on a and b as they
     * are stay as far from underflow and overflow, and scaling by a power
     * of two commutes with every rounding then: the same bits, unscaled. */
    bool scale = ea < -300 || ea > 300;
    if (scale) {
        a = scale2(a, -ea);
        b = scale2(b, -ea);
    }
    dd p = two_prod(a, a), q = two_prod(b, b);
    dd s = two_sum(p.h, q.h);
    dd v = fast_two_sum(s.h, s.l + p.l + q.l);
    double h = sqrt(v.h);
    dd hh = two_prod(h, h);
    h = h + (((v.h - hh.h) - hh.l) + v.l) / (2.0 * h);
    return scale ? scale2(h, ea) : h;
}
