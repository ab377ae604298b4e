/* cursor.c — stepping one track through frames (pk_cursor, doc/formats.md §5).
 *
 * The values are MMD's, exactly as sample.c computes them one frame at a
 * time (its header lists the rules); what this file adds is speed: a
 * cursor remembers the segment it is in and what that segment's curves
 * need, so consecutive frames cost O(1) each and no search.
 */
#include "posekit.h"
#include "math/bezier.h"
#include "math/quat.h"
#include "ops/sample/cursor.h"
#include "ops/sample/sample.h"

#include <math.h>
#include <string.h>

/* ---- cursor ----
 *
 * cache_ok: 0 = nothing cached; 1 = segment seg (keys seg-1, seg) covering
 * [lo_f, hi_f); 2 = a held value valid for [lo_f, hi_f] (before the first
 * or after the last key, or a one-key track).
 *
 * A frame inside a segment should cost as little as possible: stepping
 * through consecutive frames is what exports, diffs over a range and
 * players do.  So bone_enter works out once per segment what the frames
 * need, and a frame reads only the cursor (not the key records):
 *
 *  - which channels change at all: a translation axis whose two ends are
 *    equal, or a rotation whose two unit ends are the same quaternion,
 *    gives the start value whatever the curve says (most bones of a real
 *    dance never translate), so its curve is never solved;
 *  - which x curves are distinct: y depends on the curve's y bytes, but t
 *    (the root of x(t) = s) only on x1 and x2, and MMD users often give
 *    several channels the same curve, so t is solved once per distinct
 *    (x1, x2) pair ("slot") and shared; a linear curve (x1 == y1, x2 ==
 *    y2) needs no solve at all (y = s);
 *  - the slerp as q(u) = cos(u th) q0 + sin(u th) qp, with qp the unit
 *    quaternion orthogonal to q0 in the plane of q0 and q1: one sin/cos
 *    pair per frame, by a polynomial, no normalisation (q0 and qp are
 *    orthonormal in double).  An unchanged rotation has th = 0 and gives
 *    q0 exactly.
 *
 * Each slot keeps, from its last solve, Halley's t and 1 / x' at that
 * solve's starting point: the next frame's t is predicted from them to
 * second order (t + g ds - x'' g^3 ds^2 / 2, g = 1 / x'), refined by one
 * Halley step (cubic convergence: ~1e-3 -> ~1e-9), then by one Newton
 * step whose error is known without evaluating x again.  Only the
 * prediction and the Halley step lie on the chain from one frame to the
 * next; the Newton step and its check (error bound <= 5e-11 x') run
 * beside the next frame.  About one solve in 15 of a dance with random
 * curves fails the check and goes to the slow path (more Halley steps,
 * then the guarded solver of bezier.c).  A prediction that would move t
 * by more than 0.25, a first frame, or a jump starts from a bracket
 * instead (a tighter limit measured slower: brackets cost more than slow
 * paths).  The polynomials are written in Estrin's form (two halves
 * evaluated side by side) because a frame is one long chain of dependent
 * operations: its latency, not the count of operations, is the cost.
 *
 * Segment cache (c->cache, doubles), in the order a dance's frame reads
 * it (a bone that only rotates reads the first 25):
 *   C_INVLEN   1 / (hi_f - lo_f)
 *   C_SPREV    s of the last frame solved in this segment (-1: none)
 *   C_SL0      slot 0: ax, bx, cx of x(t), last t, 1 / x' near it (0: none)
 *   C_YR       ay, by, cy of the rotation's y(t) (0, 0, 1: linear, y = t
 *              = s; all 0: the rotation does not change)
 *   C_TH       slerp angle th (0 when the rotation does not change)
 *   C_Q0 (4)   unit start rotation
 *   C_QP (4)   qp as above (q1 = cos th q0 + sin th qp)
 *   C_P0 (3)   start translation
 *   C_DP (3)   end minus start translation (0 on a constant axis)
 *   C_YX (9)   ay, by, cy of X, Y, Z (as C_YR)
 *   C_SLN      slots 1-3 (as slot 0)
 *   C_B1, C_P1 the later key's unit rotation (not flipped) and translation,
 *              C_KSEG its index in t->keys + 1 (0: none): the next
 *              segment's start, so a forward step reads one record, not two
 * plan[]: P_NSLOT slots, P_POS (a translation axis changes), P_MAP + ch:
 * the slot of channel ch (X, Y, Z, R; SLOT_S: t = s), P_X + 2 j: the x1,
 * x2 bytes of slot j (for the fallback solver).  A hold keeps its value in
 * C_P0 and C_Q0.
 */
enum {
    S_SIZE = 5,
    C_INVLEN = 0,
    C_SPREV = 1,
    C_SL0 = 2,
    C_YR = C_SL0 + S_SIZE,
    C_TH = C_YR + 3,
    C_Q0 = C_TH + 1,
    C_QP = C_Q0 + 4,
    C_P0 = C_QP + 4,
    C_DP = C_P0 + 3,
    C_YX = C_DP + 3,
    C_SLN = C_YX + 9,
    C_B1 = C_SLN + 3 * S_SIZE,
    C_P1 = C_B1 + 4,
    C_KSEG = C_P1 + 3,
    C_END = C_KSEG + 1
};
enum { P_NSLOT = 0, P_POS = 1, P_MAP = 2, P_X = 6, P_END = 14 };
enum { SLOT_S = 4 };

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif
/* The cursor's state, kept in the caller's pk_cursor (opaque storage of
 * PK_CURSOR_BYTES bytes, aligned for a double or a pointer): only this
 * file reads or writes it, always through this type. */
typedef struct cursor {
    double lo_f, hi_f;
    int cache_ok;
    uint8_t plan[P_END]; /* which curves a frame solves */
    double cache[C_END]; /* per-segment solved curve data */
    const pk_motion *m;
    const pk_track *t;
    size_t seg; /* index in t->keys of the segment's later key */
} cursor;
_Static_assert(sizeof(cursor) <= sizeof(pk_cursor), "PK_CURSOR_BYTES too small for the cursor");
_Static_assert(_Alignof(cursor) <= _Alignof(pk_cursor), "pk_cursor under-aligned");

static cursor *state(pk_cursor *pc)
{
    return (cursor *)(void *)pc;
}

static size_t slot_at(int j)
{
    return j == 0 ? C_SL0 : C_SLN + (size_t)S_SIZE * (size_t)(j - 1);
}

void pk_cursor_init(pk_cursor *pc, const pk_motion *m, const pk_track *t)
{
    memset(pc, 0, sizeof *pc);
    cursor *c = state(pc);
    c->m = m;
    c->t = t;
}

/* Points the cursor at the right segment or hold for frame f. */
static void cursor_seek(cursor *c, double f, const void *base, size_t size, size_t off,
                        void (*enter)(cursor *), void (*hold)(cursor *, size_t))
{
    const pk_track *t = c->t;
    size_t n = t->count, i;
#define FRAME_AT(i)                                                                                \
    ((double)*(const uint32_t *)(const void *)((const uint8_t *)base +                             \
                                               (size_t)t->keys[(i)] * size + off))
    if (n > 1 && c->cache_ok == 1 && f >= c->hi_f && c->seg < n) {
        /* Forward step: walk (usually zero or one key), without touching
         * the first and last keys' records. */
        i = c->seg + 1;
        while (i < n && FRAME_AT(i) <= f)
            i++;
        if (i == n) {
            hold(c, n - 1);
            c->lo_f = FRAME_AT(n - 1);
            c->hi_f = INFINITY;
            return;
        }
    } else {
        double first = FRAME_AT(0), last = FRAME_AT(n - 1);
        if (n == 1 || !(f > first)) {
            hold(c, 0);
            c->lo_f = -INFINITY;
            c->hi_f = n == 1 ? INFINITY : first;
            return;
        }
        if (f >= last) {
            hold(c, n - 1);
            c->lo_f = last;
            c->hi_f = INFINITY;
            return;
        }
        if (c->cache_ok == 2 && c->seg == 0) {
            i = 1;
            while (FRAME_AT(i) <= f)
                i++;
        } else {
            i = pki_seg_search(t->keys, n, f, base, size, off);
        }
    }
    c->seg = i;
    c->lo_f = FRAME_AT(i - 1);
    c->hi_f = FRAME_AT(i);
    c->cache_ok = 1;
    enter(c);
#undef FRAME_AT
}

/* q / |q| in double; an all-zero or broken quaternion is the identity, as
 * in pk_quat_normalize (whose float result is exactly (float) of this). */
static void quat_unit(const float q[4], double out[4])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (!(n > 1e-30) || !isfinite(n)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    double in = 1.0 / n; /* one division, not four (segment entry) */
    out[0] = x * in;
    out[1] = y * in;
    out[2] = z * in;
    out[3] = w * in;
}

/* b / 127.0 for every byte 0..127, folded by the compiler (the same
 * correctly rounded quotients bezier.c divides out). */
#define BY127_1(i) (i) / 127.0
#define BY127_4(i) BY127_1(i), BY127_1(i + 1), BY127_1(i + 2), BY127_1(i + 3)
#define BY127_16(i) BY127_4(i), BY127_4(i + 4), BY127_4(i + 8), BY127_4(i + 12)
#define BY127_64(i) BY127_16(i), BY127_16(i + 16), BY127_16(i + 32), BY127_16(i + 48)
static const double by127[128] = {BY127_64(0), BY127_64(64)};

/* The coefficients of y(t) = ((ay t + by) t + cy) t for a curve's y bytes,
 * clamped to 127 as in bezier.c. */
static void y_poly(uint8_t y1, uint8_t y2, double out[3])
{
    double py1 = by127[y1 > 127 ? 127 : y1], py2 = by127[y2 > 127 ? 127 : y2];
    out[0] = 1.0 + 3.0 * (py1 - py2);
    out[1] = 3.0 * (py2 - 2.0 * py1);
    out[2] = 3.0 * py1;
}

static void bone_enter(cursor *c)
{
    const pk_bone_key *k0 = &c->m->bones[c->t->keys[c->seg - 1]];
    const pk_bone_key *k1 = &c->m->bones[c->t->keys[c->seg]];
    double *ca = c->cache;
    uint8_t *plan = c->plan;
    _Static_assert(C_END <= sizeof c->cache / sizeof(double), "cursor cache too small");
#if defined(__GNUC__) || defined(__clang__)
    /* Records of one track are scattered through a large motion; fetch the
     * next segment's key now (both cache lines a record may straddle),
     * while this segment's frames are computed. */
    if (c->seg + 2 < c->t->count) {
        const char *next = (const char *)&c->m->bones[c->t->keys[c->seg + 2]];
        __builtin_prefetch(next);
        __builtin_prefetch(next + sizeof *k1 - 1);
    }
#endif
    ca[C_INVLEN] = 1.0 / (c->hi_f - c->lo_f);
    ca[C_SPREV] = -1.0;

    /* The start key: kept from the last segment when stepping forward. */
    double a[4], b[4], dot = 0.0;
    if (ca[C_KSEG] == (double)c->seg) {
        for (int i = 0; i < 4; i++)
            a[i] = ca[C_B1 + i];
        for (int i = 0; i < 3; i++)
            ca[C_P0 + i] = ca[C_P1 + i];
    } else {
        quat_unit(k0->rot, a);
        for (int i = 0; i < 3; i++)
            ca[C_P0 + i] = k0->pos[i];
    }
    quat_unit(k1->rot, b);
    for (int i = 0; i < 4; i++)
        ca[C_B1 + i] = b[i];
    for (int i = 0; i < 3; i++)
        ca[C_P1 + i] = k1->pos[i];
    ca[C_KSEG] = (double)(c->seg + 1);

    /* Which channels change. */
    bool changes[4];
    for (int i = 0; i < 3; i++) {
        ca[C_DP + i] = ca[C_P1 + i] - ca[C_P0 + i];
        changes[i] = ca[C_DP + i] != 0.0; /* NaN and inf - inf change */
    }
    plan[P_POS] = changes[0] || changes[1] || changes[2];
    for (int i = 0; i < 4; i++)
        dot += a[i] * b[i];
    if (dot < 0.0) /* q and -q are one rotation: the short way */
        for (int i = 0; i < 4; i++)
            b[i] = -b[i];
    /* From the chord |b - a| = 2 sin(th/2) and |b + a| = 2 cos(th/2):
     * th = 2 atan(|b - a| / |b + a|) (accurate for tiny angles too, where
     * acos(dot) loses half the digits), sin th and cos th by the double
     * angle formulas, no trigonometric call.  Segment entry is one chain
     * of dependent operations from the key's bytes to th: two square
     * roots side by side, then pki_atan2_quadrant's one division and its
     * Estrin polynomial. */
    double dm = 0.0, dpl = 0.0;
    for (int i = 0; i < 4; i++) {
        dm += (b[i] - a[i]) * (b[i] - a[i]);
        dpl += (b[i] + a[i]) * (b[i] + a[i]);
    }
    changes[3] = dm > 0.0;
    double chm = sqrt(dm), chp = sqrt(dpl); /* |b - a|, |b + a| (>= |b - a|: dot >= 0) */
    double sn = 0.5 * chm * chp, cs = 0.25 * (dpl - dm);
    double th = changes[3] ? 2.0 * pki_atan2_quadrant(chm, chp) : 0.0;
    double isn = changes[3] ? 1.0 / sn : 0.0;
    for (int i = 0; i < 4; i++) {
        ca[C_Q0 + i] = a[i];
        ca[C_QP + i] = (b[i] - cs * a[i]) * isn;
    }
    ca[C_TH] = th;

    /* One slot per distinct non-linear x curve of a changing channel. */
    int nslot = 0;
    uint8_t sx1[4], sx2[4];
    /* X, Y and Z are not read at all when no axis moves (P_POS). */
    for (int ch = plan[P_POS] ? 0 : 3; ch < 4; ch++) {
        double *yp = ch == 3 ? ca + C_YR : ca + C_YX + 3 * ch;
        const uint8_t *row = k1->interp + 16 * ch;
        uint8_t x1 = row[0], y1 = row[4], x2 = row[8], y2 = row[12];
        int slot = SLOT_S;
        if (!changes[ch]) { /* y = 0: the start value, whatever the curve */
            yp[0] = yp[1] = yp[2] = 0.0;
        } else if (x1 == y1 && x2 == y2) { /* linear: y = s, exactly as pk_bezier */
            yp[0] = yp[1] = 0.0;
            yp[2] = 1.0;
        } else {
            for (slot = 0; slot < nslot; slot++)
                if (sx1[slot] == x1 && sx2[slot] == x2)
                    break;
            if (slot == nslot) {
                sx1[nslot] = x1;
                sx2[nslot] = x2;
                nslot++;
            }
            y_poly(y1, y2, yp);
        }
        plan[P_MAP + ch] = (uint8_t)slot;
    }
    for (int j = 0; j < nslot; j++) {
        double *v = ca + slot_at(j), px[3];
        y_poly(sx1[j], sx2[j], px); /* the same polynomial, in x */
        v[0] = px[0];
        v[1] = px[1];
        v[2] = px[2];
        v[3] = 0.0;
        v[4] = 0.0; /* no previous solve */
        plan[P_X + 2 * j] = sx1[j];
        plan[P_X + 2 * j + 1] = sx2[j];
    }
    plan[P_NSLOT] = (uint8_t)nslot;
}

static void bone_hold(cursor *c, size_t i)
{
    const pk_bone_key *k = &c->m->bones[c->t->keys[i]];
    for (int j = 0; j < 3; j++)
        c->cache[C_P0 + j] = k->pos[j];
    quat_unit(k->rot, c->cache + C_Q0);
    c->seg = i;
    c->cache_ok = 2;
}

/* A start within ~1e-3 of the root of x(t) = s, from scratch: four
 * branch-free bisection steps bracket the root in an interval of 1/16,
 * then the secant across it. */
static NOINLINE double bracket_start(double ax, double bx, double cx, double s)
{
    double lo = 0.0, h = 0.5;
    for (int q = 0; q < 4; q++) {
        double tm = lo + h, xm = ((ax * tm + bx) * tm + cx) * tm;
        lo = xm < s ? tm : lo;
        h *= 0.5;
    }
    double hi = lo + 0.0625;
    double xl = ((ax * lo + bx) * lo + cx) * lo, xh = ((ax * hi + bx) * hi + cx) * hi;
    return xh > xl ? lo + (hi - lo) * (s - xl) / (xh - xl) : lo;
}

static inline double clamp01(double t)
{
    t = t > 0.0 ? t : 0.0; /* maxsd, minsd: no branches */
    return t < 1.0 ? t : 1.0;
}

/* One Halley step towards x(t) = s for slot v. */
static inline double halley(const double *v, double s, double t)
{
    double ax = v[0], bx = v[1], cx = v[2], t2 = t * t;
    double f = (ax * t + bx) * t2 + (cx * t - s);
    double d = 3.0 * ax * t2 + (2.0 * bx * t + cx);
    double d2 = 6.0 * ax * t + 2.0 * bx;
    double den = 2.0 * d * d - f * d2;
    den = den > 1e-12 ? den : 1e-12;
    return clamp01(t - 2.0 * f * d / den);
}

/* x(t) - s and x'(t) for slot v. */
static inline double residual(const double *v, double s, double t, double *d)
{
    double ax = v[0], bx = v[1], cx = v[2], t2 = t * t;
    *d = 3.0 * ax * t2 + (2.0 * bx * t + cx);
    return (ax * t + bx) * t2 + (cx * t - s);
}

/* The slow path of slot_solve: up to three more Halley steps with a
 * residual check, then (a flat spot of x(t): x1 = 0 near t = 0, x2 = 127
 * near 1, the x1 = 127, x2 = 0 curve at s = 1/2) the guarded solver.  *d
 * receives x'(t). */
static NOINLINE double slot_finish(const double *v, double s, double t, uint8_t x1, uint8_t x2,
                                   double *d)
{
    for (int it = 0; it < 3; it++) {
        if (fabs(residual(v, s, t, d)) <= 1e-10 * *d)
            return t;
        t = halley(v, s, t);
    }
    if (fabs(residual(v, s, t, d)) <= 1e-10 * *d)
        return t;
    t = pki_bezier_param(x1, x2, s, t);
    residual(v, s, t, d);
    return t;
}

/* t with x(t) = s for slot v (see above); sp is the s of the last solve
 * in this segment, or -1.  Updates the slot's last t and 1 / x'(t). */
static inline double slot_solve(double *v, double s, double sp, uint8_t x1, uint8_t x2)
{
    if (x1 >= 127 && x2 == 0) {
        /* x'(1/2) = 0: there x(t) - s rounds to 0 for t up to 2e-6 off,
         * so no residual test can tell; the closed form of bezier.c. */
        double t = pki_bezier_param(x1, x2, s, -1.0), d;
        residual(v, s, t, &d);
        v[3] = t;
        v[4] = d > 0.0 ? 1.0 / d : 0.0;
        return t;
    }
    double ax = v[0], bx = v[1], cx = v[2], g = v[4], ds = s - sp, t;
    if (g > 0.0 && fabs(ds) * g <= 0.25) {
        /* Second-order prediction from the last solve: t(s) has t' = 1 /
         * x' and t'' = -x'' / x'^3. */
        double tp = v[3], x2p = 6.0 * ax * tp + 2.0 * bx, gd = g * ds;
        t = clamp01(tp + gd - 0.5 * x2p * g * gd * gd);
    } else {
        t = bracket_start(ax, bx, cx, s);
    }
    /* The next frame is predicted from Halley's t below and from 1 / x'
     * here, at this prediction (both far closer than the ~1e-3 by which a
     * prediction misses), not from the Newton step: that step and its
     * check then run beside the next frame's solve, not before it (a
     * frame's solve is one chain of dependent operations; shortening it
     * made stepping 14% faster). */
    double xd0 = 3.0 * ax * t * t + (2.0 * bx * t + cx);
    double gnext = xd0 > 0.0 ? 1.0 / xd0 : 0.0;
    t = halley(v, s, t);
    /* Then one Newton step, whose error is known without evaluating x
     * again: x is a cubic, so after t -= e (e = f / x') the residual is
     * exactly x'' e^2 / 2 - ax e^3. */
    double t2 = t * t, f = (ax * t + bx) * t2 + (cx * t - s);
    double d = 3.0 * ax * t2 + (2.0 * bx * t + cx), d2 = 6.0 * ax * t + 2.0 * bx;
    double r = d > 0.0 ? 1.0 / d : 0.0, e = f * r;
    double tn = clamp01(t - e);
    if (d > 0.0 && (0.5 * fabs(d2) + fabs(ax * e)) * e * e <= 5e-11 * d) {
        v[3] = t;
        v[4] = gnext;
        return tn;
    }
    t = slot_finish(v, s, tn, x1, x2, &d);
    v[3] = t;
    v[4] = d > 0.0 ? 1.0 / d : 0.0;
    return t;
}

/* y(t) for the coefficients yp (C_YR or C_YX + 3 ch). */
static inline double y_at(const double *yp, double t)
{
    return (yp[0] * t + yp[1]) * (t * t) + yp[2] * t;
}

/* sin x and cos x for x in [0, pi/2] (the slerp angle after the
 * hemisphere flip, times u in [0, 1]) as x (1 + z R(z)) and 1 + z Q(z),
 * z = x^2, R and Q least-squares fits of degree 4 on Chebyshev nodes
 * (fitted with mpmath.chebyfit): errors below 1.1e-10 and 9e-10, far under
 * the float the result is stored in, and exactly 0 and 1 at x = 0. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_VECTOR)
/* The two polynomials side by side in one SSE2 register (GCC/clang
 * vector extension; -DPK_NO_VECTOR selects the plain version below). */
typedef double v2d __attribute__((vector_size(16)));

static inline void sincos_small(double x, double *s, double *c)
{
    double z = x * x;
    v2d vz = {z, z}, vz2 = vz * vz;
    const v2d c0 = {-1.6666666663881236e-1, -4.9999999963953023e-1},
              c1 = {8.3333327687535786e-3, 4.1666659360024927e-2},
              c2 = {-1.9841086561478802e-4, -1.3888651647261391e-3},
              c3 = {2.75364635625748e-6, 2.4774579745194932e-5},
              c4 = {-2.4080190432969637e-8, -2.6297517416492885e-7};
    v2d p = (c0 + c1 * vz) + vz2 * ((c2 + c3 * vz) + vz2 * c4);
    *s = x + x * (z * p[0]);
    *c = 1.0 + z * p[1];
}
#else
static inline void sincos_small(double x, double *s, double *c)
{
    double z = x * x, z2 = z * z;
    double r =
        (-1.6666666663881236e-1 + 8.3333327687535786e-3 * z) +
        z2 * ((-1.9841086561478802e-4 + 2.75364635625748e-6 * z) + z2 * -2.4080190432969637e-8);
    double q =
        (-4.9999999963953023e-1 + 4.1666659360024927e-2 * z) +
        z2 * ((-1.3888651647261391e-3 + 2.4774579745194932e-5 * z) + z2 * -2.6297517416492885e-7);
    *s = x + x * (z * r);
    *c = 1.0 + z * q;
}
#endif

/* The segment's first frame (every segment's, stepping through integer
 * frames): the start value; t = 0 seeds the next solve. */
static void bone_start(cursor *c, float pos[3], float rot[4])
{
    double *ca = c->cache;
    for (int j = 0; j < c->plan[P_NSLOT]; j++) {
        double *v = ca + slot_at(j);
        v[3] = 0.0;
        v[4] = v[2] > 0.0 ? 1.0 / v[2] : 0.0; /* x'(0) = cx */
    }
    ca[C_SPREV] = 0.0;
    for (int j = 0; j < 3; j++)
        pos[j] = (float)ca[C_P0 + j];
    for (int j = 0; j < 4; j++)
        rot[j] = (float)ca[C_Q0 + j];
}

/* Everything but a frame strictly inside the current segment: an empty
 * track, moving to another segment or hold, a hold, a segment's first
 * frame.  Kept out of line so that the frame path stays small. */
static void cursor_bone(cursor *c, double frame, float pos[3], float rot[4]);

static NOINLINE void bone_other(cursor *c, double frame, float pos[3], float rot[4])
{
    const double *ca = c->cache;
    if (!c->t || c->t->count == 0) {
        pki_rest_pose(pos, rot);
        return;
    }
    /* A segment covers [lo_f, hi_f); a hold before the first key is valid
     * up to and including that key's frame, one after the last from its
     * frame on, so holds use a closed interval. */
    bool inside = c->cache_ok == 1   ? (frame >= c->lo_f && frame < c->hi_f)
                  : c->cache_ok == 2 ? (frame >= c->lo_f && frame <= c->hi_f)
                                     : false;
    if (!inside)
        cursor_seek(c, frame, c->m->bones, sizeof *c->m->bones, offsetof(pk_bone_key, frame),
                    bone_enter, bone_hold);
    if (c->cache_ok == 1 && frame == c->lo_f) {
        bone_start(c, pos, rot);
        return;
    }
    if (c->cache_ok == 2) {
        for (int j = 0; j < 3; j++)
            pos[j] = (float)ca[C_P0 + j];
        for (int j = 0; j < 4; j++)
            rot[j] = (float)ca[C_Q0 + j];
        return;
    }
    cursor_bone(c, frame, pos, rot); /* now strictly inside a segment */
}

/* Slots 1-3 (channels with curves of their own), out of line: most bones
 * of a dance have one slot or none. */
static NOINLINE void solve_more(cursor *c, double s, double sp, double tt[])
{
    const uint8_t *plan = c->plan;
    for (int j = 1; j < plan[P_NSLOT]; j++)
        tt[j] = slot_solve(c->cache + slot_at(j), s, sp, plan[P_X + 2 * j], plan[P_X + 2 * j + 1]);
}

static void cursor_bone(cursor *c, double frame, float pos[3], float rot[4])
{
    double *ca = c->cache;
    if (!(c->cache_ok == 1 && frame > c->lo_f && frame < c->hi_f)) {
        if (c->cache_ok == 2 && frame >= c->lo_f && frame <= c->hi_f) { /* a hold */
            for (int j = 0; j < 3; j++)
                pos[j] = (float)ca[C_P0 + j];
            for (int j = 0; j < 4; j++)
                rot[j] = (float)ca[C_Q0 + j];
            return;
        }
        bone_other(c, frame, pos, rot);
        return;
    }
    const uint8_t *plan = c->plan;
    double s = (frame - c->lo_f) * ca[C_INVLEN], sp = ca[C_SPREV];
    double tt[SLOT_S + 1];
    tt[SLOT_S] = s;
    int nslot = plan[P_NSLOT];
    double t0 = s;
    if (nslot > 0)
        t0 = slot_solve(ca + C_SL0, s, sp, plan[P_X], plan[P_X + 1]);
    tt[0] = t0;
    if (nslot > 1)
        solve_more(c, s, sp, tt);
    ca[C_SPREV] = s;
    if (plan[P_POS]) {
        for (int j = 0; j < 3; j++)
            pos[j] =
                (float)(ca[C_P0 + j] + ca[C_DP + j] * y_at(ca + C_YX + 3 * j, tt[plan[P_MAP + j]]));
    } else {
        for (int j = 0; j < 3; j++)
            pos[j] = (float)ca[C_P0 + j];
    }
    /* The rotation's parameter from the register when it is slot 0's t
     * (most bones): reading it back from tt[] would put a store-to-load
     * forwarding on the critical path. */
    int mr = plan[P_MAP + 3];
    double ur = mr == 0 ? t0 : tt[mr];
    double sn, cs;
    sincos_small(y_at(ca + C_YR, ur) * ca[C_TH], &sn, &cs);
    for (int i = 0; i < 4; i++)
        rot[i] = (float)(cs * ca[C_Q0 + i] + sn * ca[C_QP + i]);
}

static void morph_enter(cursor *c)
{
    c->cache[0] = c->m->morphs[c->t->keys[c->seg - 1]].weight;
    c->cache[1] = c->m->morphs[c->t->keys[c->seg]].weight;
}

static void morph_hold(cursor *c, size_t i)
{
    c->cache[0] = c->m->morphs[c->t->keys[i]].weight;
    c->seg = i;
    c->cache_ok = 2;
}

float pk_cursor_morph(pk_cursor *pc, double frame)
{
    cursor *c = state(pc);
    if (!c->t || c->t->count == 0)
        return 0.0f;
    bool inside = c->cache_ok == 1   ? (frame >= c->lo_f && frame < c->hi_f)
                  : c->cache_ok == 2 ? (frame >= c->lo_f && frame <= c->hi_f)
                                     : false;
    if (!inside)
        cursor_seek(c, frame, c->m->morphs, sizeof *c->m->morphs, offsetof(pk_morph_key, frame),
                    morph_enter, morph_hold);
    if (c->cache_ok == 2)
        return (float)c->cache[0];
    double s = (frame - c->lo_f) / (c->hi_f - c->lo_f);
    return (float)pki_lerp(c->cache[0], c->cache[1], s);
}

void pk_cursor_bone(pk_cursor *pc, double frame, float pos[3], float rot[4])
{
    cursor_bone(state(pc), frame, pos, rot);
}

void pki_cursor_key_value(const pk_bone_key *k, float pos[3], float rot[4])
{
    /* bone_hold's and bone_enter's start key (bone_start reads them) */
    double q[4];
    quat_unit(k->rot, q);
    for (int j = 0; j < 3; j++)
        pos[j] = (float)(double)k->pos[j];
    for (int j = 0; j < 4; j++)
        rot[j] = (float)q[j];
}

void pki_cursor_bone_run(pk_cursor *pc, uint32_t first, size_t n, float (*pos)[3], float (*rot)[4])
{
    /* cursor_bone inlined in one loop: no call per frame (a loop that kept
     * the solve's state in registers across a segment measured slower). */
    cursor *c = state(pc);
    for (size_t j = 0; j < n; j++)
        cursor_bone(c, (double)first + (double)j, pos[j], rot[j]);
}
