/* number.c — decimal text to numbers and back, locale-free
 * (util/number.h). */
#include "util/number.h"

#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * Big unsigned integers, just enough for exact decimal <-> binary32.
 * Sizes: a parsed significand keeps at most MAX_DIGITS decimal digits
 * (< 2^420), exponents are bounded so that the value lies within float
 * range, and the division scales by at most ~2^180: 1280 bits is ample.
 * ====================================================================== */

#define BIG_LIMBS 40
typedef struct big {
    uint32_t d[BIG_LIMBS]; /* little-endian limbs */
    int n;                 /* limbs in use; d[n-1] != 0 unless n == 0 */
} big;

static void big_set(big *b, uint64_t v)
{
    b->n = 0;
    while (v) {
        b->d[b->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void big_trim(big *b)
{
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
}

/* b = b * m + add.  Sizes are bounded by construction (see above). */
static void big_muladd(big *b, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < BIG_LIMBS)
        b->d[b->n++] = (uint32_t)carry;
}

static void big_mul_pow10(big *b, int k)
{
    for (; k >= 9; k -= 9)
        big_muladd(b, 1000000000u, 0);
    static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (k > 0)
        big_muladd(b, p10[k], 0);
}

static void big_shl(big *b, int bits)
{
    if (b->n == 0 || bits <= 0)
        return;
    int limbs = bits / 32, sh = bits % 32;
    int n = b->n + limbs + 1;
    if (n > BIG_LIMBS)
        n = BIG_LIMBS;
    for (int i = n - 1; i >= 0; i--) {
        int src = i - limbs;
        uint32_t hi = src >= 0 && src < b->n ? b->d[src] : 0;
        uint32_t lo = src - 1 >= 0 && src - 1 < b->n ? b->d[src - 1] : 0;
        b->d[i] = sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
    }
    b->n = n;
    big_trim(b);
}

static void big_shr(big *b, int bits)
{
    int limbs = bits / 32, sh = bits % 32;
    if (limbs >= b->n) {
        b->n = 0;
        return;
    }
    int n = b->n - limbs;
    for (int i = 0; i < n; i++) {
        uint32_t lo = b->d[i + limbs];
        uint32_t hi = i + limbs + 1 < b->n ? b->d[i + limbs + 1] : 0;
        b->d[i] = sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
    }
    b->n = n;
    big_trim(b);
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static void big_sub(big *a, const big *b) /* a -= b; requires a >= b */
{
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = t < 0;
        a->d[i] = (uint32_t)(t + (borrow << 32));
    }
    big_trim(a);
}

static int big_bitlen(const big *b)
{
    if (b->n == 0)
        return 0;
    uint32_t top = b->d[b->n - 1];
    int bits = 0;
    while (top) {
        bits++;
        top >>= 1;
    }
    return (b->n - 1) * 32 + bits;
}

static uint32_t big_divmod_small(big *b, uint32_t div)
{
    uint64_t rem = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | b->d[i];
        b->d[i] = (uint32_t)(cur / div);
        rem = cur % div;
    }
    big_trim(b);
    return (uint32_t)rem;
}

/* ======================================================================
 * Decimal text -> float, correctly rounded, locale-independent.
 * ====================================================================== */

/* Enough significant digits to decide every rounding of a binary32: the
 * midpoints between floats have at most 112 significant decimal digits, so
 * keeping 125 and a "something nonzero followed" digit is exact. */
#define MAX_DIGITS 125

/* Exact slow path: the float nearest to D * 10^e10 (D > 0, from digits). */
static float dec_to_float_exact(const uint8_t *digits, int nd, int e10)
{
    big a, b;
    big_set(&a, 0);
    for (int i = 0; i < nd; i++)
        big_muladd(&a, 10, digits[i]);
    big_set(&b, 1);
    if (e10 >= 0)
        big_mul_pow10(&a, e10);
    else
        big_mul_pow10(&b, -e10);
    /* value = a / b.  q = floor(value / 2^s) gets 24 significant bits plus
     * one rounding bit; s never goes below -150 (the rounding bit of the
     * smallest subnormal, 2^-149). */
    int est = big_bitlen(&a) - big_bitlen(&b); /* value in [2^(est-1), 2^(est+1)) */
    int s = est - 25;
    if (s < -150)
        s = -150;
    if (s >= 0)
        big_shl(&b, s);
    else
        big_shl(&a, -s);
    big_shl(&b, 25);
    uint32_t q = 0;
    for (int i = 25; i >= 0; i--) {
        if (big_cmp(&a, &b) >= 0) {
            big_sub(&a, &b);
            q |= 1u << i;
        }
        big_shr(&b, 1);
    }
    bool sticky = a.n != 0;
    while (q >= (1u << 25)) {
        sticky |= q & 1u;
        q >>= 1;
        s++;
    }
    uint32_t sig = q >> 1;
    if ((q & 1u) && (sticky || (sig & 1u)))
        sig++;
    if (sig == (1u << 24)) {
        sig >>= 1;
        s++;
    }
    if (s + 1 > 104) /* above (2^24-1) * 2^104 = FLT_MAX */
        return INFINITY;
    return (float)ldexp((double)sig, s + 1);
}

static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The float nearest to D * 10^e10. */
static float dec_to_float(const uint8_t *digits, int nd, int e10)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    /* Fast path: D and 10^|e| are exact doubles, so one IEEE operation
     * gives the correctly rounded double.  Rounding that to float is exact
     * rounding unless the double landed exactly on a midpoint between two
     * floats (midpoints are doubles, rounding is monotone), which is
     * checked and sent to the exact path. */
    if (nd <= 15 && e10 >= -22 && e10 <= 22) {
        uint64_t m = 0;
        for (int i = 0; i < nd; i++)
            m = m * 10 + digits[i];
        double d = e10 < 0 ? (double)m / POW10[-e10] : (double)m * POW10[e10];
        if (d < (double)FLT_MAX) {
            float f = (float)d;
            if ((double)f == d)
                return f;
            float g = nextafterf(f, d > (double)f ? INFINITY : 0.0f);
            if (!isinf(g) && ((double)f + (double)g) * 0.5 != d)
                return f;
        }
    }
#endif
    return dec_to_float_exact(digits, nd, e10);
}

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* Parses one number at s[0..n): [+-] (digits [. digits] | . digits)
 * [(e|E) [+-] digits].  *used receives the bytes consumed.  The caller
 * checks what follows. */
static size_t match_word(const uint8_t *s, size_t n, const char *lower)
{
    size_t k = strlen(lower);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if ((s[i] | 0x20) != (uint8_t)lower[i])
            return 0;
    return k;
}

pki_num_status pki_num_scan_float(const uint8_t *s, size_t n, size_t *used, float *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    size_t w;
    if ((w = match_word(s + i, n - i, "nan")) != 0) {
        *used = i + w;
        *out = neg ? -NAN : NAN;
        return PKI_NUM_NONFINITE;
    }
    if ((w = match_word(s + i, n - i, "infinity")) != 0 ||
        (w = match_word(s + i, n - i, "inf")) != 0) {
        *used = i + w;
        *out = neg ? -INFINITY : INFINITY;
        return PKI_NUM_NONFINITE;
    }
    uint8_t digits[MAX_DIGITS + 1];
    int nd = 0, e10 = 0;
    bool sticky = false, any = false;
    for (; i < n && is_digit(s[i]); i++) {
        any = true;
        uint8_t v = (uint8_t)(s[i] - '0');
        if (nd == 0 && v == 0)
            continue;
        if (nd < MAX_DIGITS)
            digits[nd++] = v;
        else {
            sticky |= v != 0;
            if (e10 < 100000)
                e10++;
        }
    }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && is_digit(s[i]); i++) {
            any = true;
            uint8_t v = (uint8_t)(s[i] - '0');
            if (nd == 0 && v == 0) {
                if (e10 > -100000)
                    e10--;
                continue;
            }
            if (nd < MAX_DIGITS) {
                digits[nd++] = v;
                e10--;
            } else
                sticky |= v != 0;
        }
    }
    if (!any)
        return PKI_NUM_SYNTAX;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        bool eneg = false;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            eneg = s[j++] == '-';
        if (j >= n || !is_digit(s[j]))
            return PKI_NUM_SYNTAX;
        int ex = 0;
        for (; j < n && is_digit(s[j]); j++)
            if (ex < 100000)
                ex = ex * 10 + (s[j] - '0');
        e10 += eneg ? -ex : ex;
        i = j;
    }
    *used = i;
    if (sticky) { /* nonzero digits were dropped: make the value a bit larger */
        digits[nd++] = 1;
        e10--;
    }
    while (nd > 0 && digits[nd - 1] == 0) { /* trailing zeros: smaller numbers, faster path */
        nd--;
        e10++;
    }
    float v;
    if (nd == 0 || nd + e10 < -45) /* below 10^-46 < half the smallest subnormal */
        v = 0.0f;
    else if (nd + e10 > 39) /* at least 10^39 > FLT_MAX */
        return PKI_NUM_RANGE;
    else
        v = dec_to_float(digits, nd, e10);
    if (isinf(v))
        return PKI_NUM_RANGE;
    *out = neg ? -v : v;
    return PKI_NUM_OK;
}

/* ======================================================================
 * float -> "%.6f" text, exact, half to even (what glibc prints in "C").
 * ====================================================================== */

/* Writes the text into out (NUL-terminated) and returns its length.  x
 * must be finite. */
size_t pki_num_format_f6(float x, char out[PKI_NUM_F6_MAX])
{
    uint32_t u;
    memcpy(&u, &x, 4);
    uint32_t bexp = (u >> 23) & 0xffu, mant = u & 0x7fffffu;
    uint32_t sig = bexp ? mant | 0x800000u : mant;
    int e2 = bexp ? (int)bexp - 150 : -149;
    /* N = round_half_even(sig * 10^6 * 2^e2), in decimal digits */
    char rev[PKI_NUM_F6_MAX];
    size_t nr = 0;
    uint64_t a = (uint64_t)sig * 1000000u; /* < 2^44 */
    if (e2 <= 19) {                        /* fits in 64 bits */
        uint64_t nval;
        if (e2 >= 0)
            nval = a << e2;
        else if (e2 <= -64)
            nval = 0; /* a < 2^44 < half of 2^-e2 */
        else {
            int k = -e2;
            nval = a >> k;
            uint64_t rem = a & ((UINT64_C(1) << k) - 1), half = UINT64_C(1) << (k - 1);
            if (rem > half || (rem == half && (nval & 1u)))
                nval++;
        }
        do {
            rev[nr++] = (char)('0' + nval % 10);
            nval /= 10;
        } while (nval);
    } else {
        big b;
        big_set(&b, a);
        big_shl(&b, e2);
        do
            rev[nr++] = (char)('0' + big_divmod_small(&b, 10));
        while (b.n);
    }
    while (nr < 7)
        rev[nr++] = '0';
    size_t n = 0;
    if (u >> 31)
        out[n++] = '-';
    while (nr > 6)
        out[n++] = rev[--nr];
    out[n++] = '.';
    while (nr > 0)
        out[n++] = rev[--nr];
    out[n] = 0;
    return n;
}

/* ======================================================================
 * Whole-string readers.
 * ====================================================================== */

bool pki_num_double(const char *s, double *out)
{
    if (!s)
        return false;
    /* Syntax by hand; then the digits without the point, and the exponent
     * moved accordingly, go to strtod: "12.5e-3" becomes "125e-4", text
     * that reads the same in every locale. */
    size_t len = strlen(s);
    char *t = malloc(len + 24);
    if (!t)
        return false;
    const char *p = s;
    size_t o = 0;
    if (*p == '+' || *p == '-')
        t[o++] = *p++;
    long shift = 0;
    size_t digits = 0;
    for (; is_digit((uint8_t)*p); p++, digits++)
        t[o++] = *p;
    if (*p == '.') {
        for (p++; is_digit((uint8_t)*p); p++, digits++, shift--)
            t[o++] = *p;
    }
    long ex = 0;
    bool ok = digits > 0;
    if (ok && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = *p == '-';
        if (*p == '+' || *p == '-')
            p++;
        ok = is_digit((uint8_t)*p);
        for (; is_digit((uint8_t)*p); p++)
            if (ex < 100000)
                ex = ex * 10 + (*p - '0');
        if (eneg)
            ex = -ex;
    }
    ok = ok && *p == '\0';
    double v = 0.0;
    if (ok) {
        snprintf(t + o, 24, "e%ld", ex + shift);
        errno = 0;
        char *end;
        v = strtod(t, &end);
        /* ERANGE below the smallest double reads as 0, as the float path */
        ok = *end == '\0' && isfinite(v) && !(errno == ERANGE && fabs(v) > 1.0);
    }
    free(t);
    if (ok)
        *out = v;
    return ok;
}

bool pki_num_u32(const char *s, uint32_t *out)
{
    if (!s || !*s)
        return false;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (!is_digit((uint8_t)*p))
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

bool pki_num_i64(const char *s, int64_t *out)
{
    if (!s)
        return false;
    bool neg = *s == '-';
    uint32_t v;
    if (!pki_num_u32(s + (*s == '-' || *s == '+'), &v))
        return false;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

bool pki_num_bool(const char *s, bool *out)
{
    if (s && (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0)) {
        *out = true;
        return true;
    }
    if (s && (strcmp(s, "false") == 0 || strcmp(s, "no") == 0)) {
        *out = false;
        return true;
    }
    return false;
}

bool pki_num_range(const char *s, uint32_t *a, uint32_t *b)
{
    if (!s)
        return false;
    const char *dash = strchr(s, '-');
    if (!dash)
        return pki_num_u32(s, a) && (*b = *a, true);
    size_t n = (size_t)(dash - s);
    char first[16];
    if (n == 0 || n >= sizeof first)
        return false;
    memcpy(first, s, n);
    first[n] = '\0';
    uint32_t x, y;
    if (!pki_num_u32(first, &x) || !pki_num_u32(dash + 1, &y) || x > y)
        return false;
    *a = x;
    *b = y;
    return true;
}
