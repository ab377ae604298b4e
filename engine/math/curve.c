/* curve.c — MMD's interpolation curves as geometry: evaluation in double,
 * de Casteljau subdivision, rounding to the 0..127 grid (math/curve.h).
 * The root solver x(t) = s is pki_bezier_param (bezier.c), the one the
 * sampler uses. */
#include "posekit.h"
#include "math/bezier.h"
#include "math/curve.h"
#include "util/fmath.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const uint8_t pki_curve_linear[4] = {20, 20, 107, 107};

typedef struct pt {
    double x, y;
} pt;

/* One coordinate of the Bezier (0, p1, p2, 1) at parameter t, Bernstein form. */
static double cubic(double p1, double p2, double t)
{
    double u = 1.0 - t;
    return 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t;
}

bool pki_curve_is_linear(const uint8_t cp[4])
{
    return cp[0] == cp[1] && cp[2] == cp[3];
}

double pki_curve_progress(const uint8_t cp[4], double s)
{
    if (pki_curve_is_linear(cp))
        return s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    double t = pki_bezier_param(cp[0], cp[2], s, -1.0);
    return cubic(cp[1] / 127.0, cp[3] / 127.0, t);
}

static pt lerp_pt(pt a, pt b, double t)
{
    return (pt){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

/* The part of the curve between parameters t0 < t1, as four points. */
static void sub_curve(const pt p[4], double t0, double t1, pt out[4])
{
    /* Split at t1, keep the left part. */
    pt a = lerp_pt(p[0], p[1], t1), b = lerp_pt(p[1], p[2], t1), cc = lerp_pt(p[2], p[3], t1);
    pt d = lerp_pt(a, b, t1), e = lerp_pt(b, cc, t1), f = lerp_pt(d, e, t1);
    pt l[4] = {p[0], a, d, f};
    /* Split the left part at t0 / t1, keep the right part. */
    double u = t1 > 0.0 ? t0 / t1 : 0.0;
    pt a2 = lerp_pt(l[0], l[1], u), b2 = lerp_pt(l[1], l[2], u), c2 = lerp_pt(l[2], l[3], u);
    pt d2 = lerp_pt(a2, b2, u), e2 = lerp_pt(b2, c2, u), f2 = lerp_pt(d2, e2, u);
    out[0] = f2;
    out[1] = e2;
    out[2] = c2;
    out[3] = l[3];
}

bool pki_curve_sub(const uint8_t cp[4], double s0, double s1, double n[4])
{
    double x1 = cp[0] / 127.0, y1 = cp[1] / 127.0, x2 = cp[2] / 127.0, y2 = cp[3] / 127.0;
    pt p[4] = {{0, 0}, {x1, y1}, {x2, y2}, {1, 1}}, s[4];
    double t0 = pki_bezier_param(cp[0], cp[2], s0, -1.0);
    double t1 = pki_bezier_param(cp[0], cp[2], s1, -1.0);
    sub_curve(p, t0, t1, s);
    double dx = s[3].x - s[0].x, dy = s[3].y - s[0].y;
    if (!(dx > 1e-12) || !(fabs(dy) > 1e-12))
        return false;
    n[0] = (s[1].x - s[0].x) / dx;
    n[1] = (s[1].y - s[0].y) / dy;
    n[2] = (s[2].x - s[0].x) / dx;
    n[3] = (s[2].y - s[0].y) / dy;
    return true;
}

double pki_curve_error(const uint8_t q[4], const double *want, size_t nf, double span)
{
    double worst = 0.0;
    for (size_t i = 0; i < nf; i++) {
        double s = (double)(i + 1) / (double)(nf + 1);
        double e = fabs((double)pk_bezier(q[0], q[1], q[2], q[3], (float)s) - want[i]) * span;
        if (e > worst)
            worst = e;
    }
    return worst;
}

bool pki_curve_round(const double n[4], const double *want, size_t nf, double span, double tol,
                     uint8_t q[4])
{
    int base[4];
    for (int j = 0; j < 4; j++)
        base[j] = (int)lround(n[j] * 127.0);
    double best = INFINITY;
    uint8_t cand[4];
    for (int r = 0; r <= 2 && best > tol; r++) {
        int lo = -r, hi = r;
        for (int a = lo; a <= hi; a++)
            for (int b = lo; b <= hi; b++)
                for (int cidx = lo; cidx <= hi; cidx++)
                    for (int d = lo; d <= hi; d++) {
                        int w[4] = {base[0] + a, base[1] + b, base[2] + cidx, base[3] + d};
                        bool ok = true;
                        for (int j = 0; j < 4; j++)
                            if (w[j] < 0 || w[j] > 127)
                                ok = false;
                        if (!ok)
                            continue;
                        for (int j = 0; j < 4; j++)
                            cand[j] = (uint8_t)w[j];
                        double e = pki_curve_error(cand, want, nf, span);
                        if (e < best) {
                            best = e;
                            memcpy(q, cand, 4);
                        }
                    }
    }
    return best <= tol;
}

/* ---- fitting sampled channels ---- */

/* Error of grid curve q against wanted progress p[0..n-2] (samples at
 * s = i/n, i = 1..n-1), in value units, plus the per-sample extra.  Stops
 * at the first sample whose error passes `bound` (the caller only asks
 * whether q beats it): the result is then some error above bound. */
static double fit_error_below(const uint8_t q[4], const double *p, size_t n, double span,
                              const double *extra, double bound)
{
    double worst = 0.0, hint = -1.0;
    for (size_t i = 1; i < n; i++) {
        double s = (double)i / (double)n;
        double y = pki_bezier_solve(q[0], q[1], q[2], q[3], s, &hint);
        double e = fabs(y - p[i - 1]) * span + (extra ? extra[i - 1] : 0.0);
        if (e > worst) {
            worst = e;
            if (worst > bound)
                break;
        }
    }
    return worst;
}

/* The t of x(t) = i / n of one pair of x bytes for a fit's samples, each
 * solved from the one before as fit_error_below solves them: the grid
 * curves a fit checks around one rounding share them. */
#define CHAIN_MAX 255
typedef struct t_chain {
    int x1, x2;  /* -1: none */
    size_t have; /* t[0..have) known */
    double t[CHAIN_MAX];
} t_chain;

/* fit_error_below with the t from the chain (the same values, the same
 * error): solved once for every curve with the same x bytes. */
static double fit_error_chain(const uint8_t q[4], const double *p, size_t n, double span,
                              const double *extra, double bound, t_chain *ch)
{
    if (n - 1 > CHAIN_MAX || pki_curve_is_linear(q))
        return fit_error_below(q, p, n, span, extra, bound);
    if (ch->x1 != q[0] || ch->x2 != q[2]) {
        ch->x1 = q[0];
        ch->x2 = q[2];
        ch->have = 0;
    }
    double py1 = q[1] / 127.0, py2 = q[3] / 127.0;
    double cy = 3.0 * py1, by = 3.0 * (py2 - 2.0 * py1), ay = 1.0 + 3.0 * (py1 - py2);
    double worst = 0.0;
    for (size_t i = 1; i < n; i++) {
        if (ch->have < i) {
            double hint = i > 1 ? ch->t[i - 2] : -1.0;
            ch->t[i - 1] = pki_bezier_param(q[0], q[2], (double)i / (double)n, hint);
            ch->have = i;
        }
        double t = ch->t[i - 1];
        double y = ((ay * t + by) * t + cy) * t;
        double e = fabs(y - p[i - 1]) * span + (extra ? extra[i - 1] : 0.0);
        if (e > worst) {
            worst = e;
            if (worst > bound)
                break;
        }
    }
    return worst;
}

static double fit_error(const uint8_t q[4], const double *p, size_t n, double span,
                        const double *extra)
{
    return fit_error_below(q, p, n, span, extra, INFINITY);
}

/* For the x bytes (x1, x2), the real y1, y2 that fit the chosen samples
 * best in least squares (progress is linear in y1, y2 once t is known),
 * clamped to [0, 1]; returns the worst residual over those samples. */
/* ---- the t(s) table of fast fits ---- */

#define TAB_N 256 /* intervals of s per x-byte pair */

/* The FAST coarse scan: x bytes 0, 16, .., 112, 127 each. */
#define COARSE_STEP 16
#define COARSE_SIDE 9
#define COARSE_PAIRS (COARSE_SIDE * COARSE_SIDE)
#define STEER_MAX 8 /* FAST's steering samples */
/* Segments of fewer frames than this keep their coarse basis. */
#define BASIS_NMAX 256
/* FULL's steering samples at most, and the segments of fewer frames than
 * EXACT_NMAX whose exact t the cache keeps (12 doubles a pair, 1.5 MB a
 * length at most: the legs' short motions, engine/ops/skeleton/legs_fit.c,
 * search segments of up to 64 frames in full). */
#define FULL_STEER 12
#define EXACT_NMAX 65

/* What fit_y computes from t alone, for one x-byte pair at one segment
 * length's steering samples: the Bernstein weights of y1 and y2, t^3, and
 * the normal matrix of the least squares. */
typedef struct basis {
    double b1[STEER_MAX], b2[STEER_MAX], t3[STEER_MAX];
    double a11, a12, a22;
    double det; /* a11 a22 - a12^2 */
    bool full;  /* det far enough from 0 to solve with */
} basis;

/* Sample i of a basis at curve parameter t: its weights, and their
 * products added to the normal matrix (a11 .. a22 start at 0; samples in
 * order, so every basis sums the same way). */
static void basis_put(basis *e, size_t i, double t)
{
    double u = 1.0 - t;
    e->b1[i] = 3.0 * u * u * t;
    e->b2[i] = 3.0 * u * t * t;
    e->t3[i] = t * t * t;
    e->a11 += e->b1[i] * e->b1[i];
    e->a12 += e->b1[i] * e->b2[i];
    e->a22 += e->b2[i] * e->b2[i];
}

/* det and full of a basis whose normal matrix is summed. */
static void basis_det(basis *e)
{
    e->det = e->a11 * e->a22 - e->a12 * e->a12;
    e->full = fabs(e->det) > 1e-18 * (e->a11 * e->a22 + 1e-300);
}

/* The descents' bases: any x-byte pair at one segment length's steering
 * samples, direct-mapped by (length, x1, x2); a pair that collides is
 * built again (the same values: built as fit_y computes them). */
#define DESC_BITS 15
typedef struct desc_slot {
    int16_t n; /* segment length; 0: empty */
    uint8_t x1, x2;
    basis b;
} desc_slot;

/* Every part of a cache is allocated on first use, in blocks of at most a
 * few kilobytes: a cache lives for one reduce (a sized camera runs
 * hundreds), and one block of the descents' 7.9 MB, or of the 128 KB of
 * table pointers, is a fresh mapping each time under a sanitizer's
 * allocator (a page fault for each page a lookup touches: 650,000 of the
 * 826,000 of a sized camera in build B), where small blocks are recycled. */
#define DESC_BLOCK_BITS 6 /* 64 slots, 15 KB */
#define DESC_BLOCKS ((size_t)1 << (DESC_BITS - DESC_BLOCK_BITS))

struct pki_curve_cache {
    float **tab[128];          /* by x1, by x2: t at s = k / TAB_N, each solved on first use */
    basis *coarse[BASIS_NMAX]; /* by segment length: the coarse pairs, on first use */
    basis *direct[BASIS_NMAX]; /* by segment length: DIRECT's pairs, exact t, on first use */
    desc_slot *desc[DESC_BLOCKS]; /* 1 << DESC_BITS slots by block, on first use */
    /* by segment length, by x1: FULL's steering t of every x-byte pair
     * solved exactly (the ring search's), FULL_STEER a pair, each row of
     * 12 KB on first use */
    double **exact[EXACT_NMAX];
    uint8_t *exact_have[EXACT_NMAX]; /* 128 x 128, on first use */
};

pki_curve_cache *pki_curve_cache_new(void)
{
    return calloc(1, sizeof(pki_curve_cache));
}

void pki_curve_cache_free(pki_curve_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < 128; i++) {
        if (c->tab[i])
            for (size_t j = 0; j < 128; j++)
                free(c->tab[i][j]);
        free(c->tab[i]);
    }
    for (size_t i = 0; i < BASIS_NMAX; i++)
        free(c->coarse[i]);
    for (size_t i = 0; i < BASIS_NMAX; i++)
        free(c->direct[i]);
    for (size_t i = 0; i < DESC_BLOCKS; i++)
        free(c->desc[i]);
    for (size_t i = 0; i < EXACT_NMAX; i++) {
        if (c->exact[i])
            for (size_t j = 0; j < 128; j++)
                free(c->exact[i][j]);
        free(c->exact[i]);
        free(c->exact_have[i]);
    }
    free(c);
}

/* Entry k of an x-byte pair's table, solved on first use (from the
 * entry before when it is known: Newton's start). */
#define TAB_UNSET -1.0f
static float tab_entry(float *tab, int x1, int x2, int k)
{
    if (tab[k] == TAB_UNSET) {
        double h = k > 0 && tab[k - 1] != TAB_UNSET ? tab[k - 1] : -1.0;
        tab[k] = (float)pki_bezier_param((uint8_t)x1, (uint8_t)x2, (double)k / TAB_N, h);
    }
    return tab[k];
}

/* The table of x bytes (x1, x2), made on first use;
 * NULL when out of memory. */
static float *tab_of(pki_curve_cache *c, int x1, int x2)
{
    float ***row = &c->tab[x1], **slot = NULL;
    if (*row || (*row = calloc(128, sizeof **row)) != NULL)
        slot = &(*row)[x2];
    if (slot && !*slot && (*slot = malloc((TAB_N + 1) * sizeof(float))) != NULL)
        for (int k = 0; k <= TAB_N; k++)
            (*slot)[k] = TAB_UNSET;
    return slot ? *slot : NULL;
}

/* t with x(t) = s for x bytes (x1, x2), as param gives it (below), and
 * into *w how far the exact t (pki_bezier_param's, from any start) may lie
 * from it: x(t) increases, so t(s) lies between the table's entries either
 * side of s, which hold pki_bezier_param's t there rounded to float, and
 * so does the interpolated value; 0 when solved exactly.  The width only;
 * the caller adds a margin for the roundings and Newton's last step. */
static double param_w(pki_curve_cache *c, int x1, int x2, double s, double hint, double *w)
{
    float *tab = c ? tab_of(c, x1, x2) : NULL;
    if (tab) {
        double u = s * TAB_N;
        int k = (int)u;
        *w = 1.0; /* outside the table: no bound */
        if (k >= TAB_N)
            return tab_entry(tab, x1, x2, TAB_N);
        if (k < 0)
            return tab_entry(tab, x1, x2, 0);
        double f = u - k, a = tab_entry(tab, x1, x2, k), b = tab_entry(tab, x1, x2, k + 1);
        *w = fabs(b - a);
        return a + (b - a) * f;
    }
    *w = 0.0;
    return pki_bezier_param((uint8_t)x1, (uint8_t)x2, s, hint);
}

/* t with x(t) = s for x bytes (x1, x2): from the table (linear between its
 * entries; used to steer the search only) or exactly when there is none. */
static double param(pki_curve_cache *c, int x1, int x2, double s, double hint)
{
    double w;
    return param_w(c, x1, x2, s, hint, &w);
}

/* param_w at the m samples s of one x-byte pair, each from the one before
 * (fit_y's order: the same table entries solved in the same order, the
 * same values), with s's table index k[i] and fraction f[i] given (s *
 * TAB_N split as param_w splits it, k[i] within the table). */
static void params_w(pki_curve_cache *c, int x1, int x2, const double *s, const int *k,
                     const double *f, size_t m, double *t, double *w)
{
    float *tab = tab_of(c, x1, x2);
    if (!tab) {
        double hint = -1.0;
        for (size_t i = 0; i < m; i++) {
            t[i] = param_w(c, x1, x2, s[i], hint, &w[i]);
            hint = t[i];
        }
        return;
    }
    for (size_t i = 0; i < m; i++) {
        double a = tab_entry(tab, x1, x2, k[i]), b = tab_entry(tab, x1, x2, k[i] + 1);
        w[i] = fabs(b - a);
        t[i] = a + (b - a) * f[i];
    }
}

/* fit_y, and with w the width of each t's bracket into w[i] (param_w). */
static inline __attribute__((always_inline)) double
fit_y_w(pki_curve_cache *cache, int x1, int x2, const double *s, const double *p, size_t m,
        double y[2], double *t, double *w, const double *given, double (*bb)[3])
{
    double a11 = 0, a12 = 0, a22 = 0, r1 = 0, r2 = 0, hint = -1.0, own[64][3];
    if (!bb)
        bb = own;
    for (size_t i = 0; i < m; i++) {
        t[i] = given ? given[i]
               : w   ? param_w(cache, x1, x2, s[i], hint, &w[i])
                     : param(cache, x1, x2, s[i], hint);
        hint = t[i];
        /* cubic's terms, each as cubic computes it */
        double u = 1.0 - t[i], b1 = 3.0 * u * u * t[i], b2 = 3.0 * u * t[i] * t[i];
        double t3 = t[i] * t[i] * t[i], r = p[i] - t3;
        bb[i][0] = b1;
        bb[i][1] = b2;
        bb[i][2] = t3;
        a11 += b1 * b1;
        a12 += b1 * b2;
        a22 += b2 * b2;
        r1 += b1 * r;
        r2 += b2 * r;
    }
    double det = a11 * a22 - a12 * a12;
    if (fabs(det) > 1e-18 * (a11 * a22 + 1e-300)) {
        y[0] = (r1 * a22 - r2 * a12) / det;
        y[1] = (a11 * r2 - a12 * r1) / det;
    } else { /* one sample (or all at one t): the symmetric choice */
        double v = (a11 + a22) > 0 ? (r1 + r2) / (a11 + 2 * a12 + a22) : 0.5;
        y[0] = y[1] = v;
    }
    for (int k = 0; k < 2; k++)
        y[k] = y[k] < 0.0 ? 0.0 : y[k] > 1.0 ? 1.0 : y[k];
    double worst = 0.0;
    for (size_t i = 0; i < m; i++) {
        double e = fabs(bb[i][0] * y[0] + bb[i][1] * y[1] + bb[i][2] - p[i]); /* cubic(y, t) */
        if (e > worst)
            worst = e;
    }
    return worst;
}

static double fit_y(pki_curve_cache *cache, int x1, int x2, const double *s, const double *p,
                    size_t m, double y[2], double *t)
{
    return fit_y_w(cache, x1, x2, s, p, m, y, t, NULL, NULL, NULL);
}

/* Whether some grid curve with these x bytes may come within r[i] of
 * every steering sample p[i] (progress units) when its t are solved
 * exactly, from t[i] within w[i] of them (param_w): false only when none
 * can, so the ring search that asks it (try_grid's question) skips the
 * pair with the same outcome.  A curve's progress y(t) = b1 y1 + b2 y2 +
 * t^3 with y1, y2 in [0, 1] climbs at most 3 per unit of t, so with the
 * table's t it is within R_i = r_i + 3 (w_i + 1e-6) of p_i (1e-6: the
 * float table and Newton's last step, far below it), and the least
 * squares over every real (y1, y2), a lower bound of the sum of squares
 * of any curve's, is at most sum R_i^2.  The residual is projected out
 * of b1 then b2 (modified Gram-Schmidt: stable); nearly dependent bases
 * are never refused. */
static bool may_fit(double (*bb)[3], const double *w, const double *p, const double *r,
                    size_t m)
{
    double b1[64], b2[64], v[64], n1 = 0.0, d12 = 0.0, n2 = 0.0, bound = 0.0, dd = 0.0;
    for (size_t i = 0; i < m; i++) {
        double R = r[i] + 3.0 * (w[i] + 1e-6) + 1e-12;
        b1[i] = bb[i][0];
        b2[i] = bb[i][1];
        v[i] = p[i] - bb[i][2];
        n1 += b1[i] * b1[i];
        n2 += b2[i] * b2[i];
        dd += v[i] * v[i];
        bound += R * R;
    }
    if (!(n1 > 1e-200) || !(n2 > 1e-200))
        return true;
    double c1 = 0.0;
    for (size_t i = 0; i < m; i++) {
        c1 += b1[i] * v[i];
        d12 += b1[i] * b2[i];
    }
    c1 /= n1;
    d12 /= n1;
    double m2 = 0.0, c2 = 0.0;
    for (size_t i = 0; i < m; i++) {
        v[i] -= c1 * b1[i];
        b2[i] -= d12 * b1[i];
        m2 += b2[i] * b2[i];
    }
    if (!(m2 > 1e-6 * n2))
        return true;
    for (size_t i = 0; i < m; i++)
        c2 += b2[i] * v[i];
    c2 /= m2;
    double rss = 0.0;
    for (size_t i = 0; i < m; i++) {
        double e = v[i] - c2 * b2[i];
        rss += e * e;
    }
    return !(rss > bound + 1e-9 * dd + 1e-15);
}

/* The x bytes of coarse cell k. */
static int coarse_x(int k)
{
    return k * COARSE_STEP > 127 ? 127 : k * COARSE_STEP;
}

/* The coarse pairs' bases at the m steering samples s (those of a segment
 * of n frames), built on first use; NULL when not kept (no cache, a long
 * segment, out of memory). */
static const basis *coarse_basis(pki_curve_cache *c, size_t n, const double *s, size_t m)
{
    if (!c || n >= BASIS_NMAX || m > STEER_MAX)
        return NULL;
    if (c->coarse[n])
        return c->coarse[n];
    basis *b = malloc(COARSE_PAIRS * sizeof *b);
    if (!b)
        return NULL;
    for (int k = 0; k < COARSE_PAIRS; k++) {
        int x1 = coarse_x(k / COARSE_SIDE), x2 = coarse_x(k % COARSE_SIDE);
        basis *e = &b[k];
        e->a11 = e->a12 = e->a22 = 0.0;
        for (size_t i = 0; i < m; i++) {
            double t = param(c, x1, x2, s[i], -1.0);
            basis_put(e, i, t);
        }
        basis_det(e);
    }
    return c->coarse[n] = b;
}

/* fit_y from a kept basis: the same arithmetic in the same order, so the
 * same y and the same residual; the residual stops at the first sample
 * past `bound` (the caller only asks whether the cell beats it). */
static inline __attribute__((always_inline)) double fit_y_basis(const basis *e, const double *p,
                                                                size_t m, double y[2], double bound)
{
    double a11 = e->a11, a12 = e->a12, a22 = e->a22, r1 = 0, r2 = 0, det = e->det;
    for (size_t i = 0; i < m; i++) {
        double r = p[i] - e->t3[i];
        r1 += e->b1[i] * r;
        r2 += e->b2[i] * r;
    }
    if (e->full) {
        y[0] = (r1 * a22 - r2 * a12) / det;
        y[1] = (a11 * r2 - a12 * r1) / det;
    } else {
        double v = (a11 + a22) > 0 ? (r1 + r2) / (a11 + 2 * a12 + a22) : 0.5;
        y[0] = y[1] = v;
    }
    for (int k = 0; k < 2; k++)
        y[k] = y[k] < 0.0 ? 0.0 : y[k] > 1.0 ? 1.0 : y[k];
    double worst = 0.0;
    for (size_t i = 0; i < m; i++) {
        double e1 = fabs(e->b1[i] * y[0] + e->b2[i] * y[1] + e->t3[i] - p[i]);
        if (e1 > worst) {
            worst = e1;
            if (worst > bound)
                break;
        }
    }
    return worst;
}

/* The t of x bytes (x1, x2) at FULL's m steering samples s of a segment
 * of n frames, solved as fit_y solves them without a cache (each from the
 * one before: the same values), kept in the cache for the next search of
 * that length; NULL when not kept (no cache, a long segment, out of
 * memory). */
static const double *exact_t(pki_curve_cache *c, size_t n, int x1, int x2, const double *s,
                             size_t m)
{
    if (!c || n >= EXACT_NMAX || m > FULL_STEER)
        return NULL;
    if (!c->exact[n] && !(c->exact[n] = calloc(128, sizeof *c->exact[n])))
        return NULL;
    if (!c->exact_have[n] && !(c->exact_have[n] = calloc((size_t)128 * 128, 1)))
        return NULL;
    double **row = &c->exact[n][x1];
    if (!*row && !(*row = malloc((size_t)128 * FULL_STEER * sizeof(double))))
        return NULL;
    size_t k = (size_t)x1 * 128 + (size_t)x2;
    double *t = &(*row)[(size_t)x2 * FULL_STEER];
    if (!c->exact_have[n][k]) {
        double hint = -1.0;
        for (size_t i = 0; i < m; i++) {
            t[i] = param(NULL, x1, x2, s[i], hint);
            hint = t[i];
        }
        c->exact_have[n][k] = 1;
    }
    return t;
}

/* The grid curves with x bytes (x1, x2) and the least-squares y rounded
 * to the grid (and its neighbours): the smallest error over the steering
 * samples (value units, extra included) with q filled, when some curve is
 * within tol; else some error above tol.  A curve stops at its first
 * sample past tol: the ring search that asks (nearly every pair of the
 * grid, mostly for none) wants only a curve within tol, and among those
 * the least error, which stopping at tol does not change. */
static double try_grid(int x1, int x2, const double *s, const double *p, const double *es, size_t m,
                       double span, const double *given, double tol, uint8_t q[4])
{
    double t[64], y[2], bb[64][3];
    fit_y_w(NULL, x1, x2, s, p, m, y, t, NULL, given, bb);
    int y1 = (int)lround(y[0] * 127.0), y2 = (int)lround(y[1] * 127.0);
    double best = INFINITY;
    for (int a = -1; a <= 1; a++)
        for (int b = -1; b <= 1; b++) {
            int g1 = y1 + a, g2 = y2 + b;
            if (g1 < 0 || g1 > 127 || g2 < 0 || g2 > 127)
                continue;
            double e = 0.0, c1 = g1 / 127.0, c2 = g2 / 127.0;
            for (size_t i = 0; i < m && e < best && e <= tol; i++) {
                /* cubic(c1, c2, t[i]) */
                double d = fabs(bb[i][0] * c1 + bb[i][1] * c2 + bb[i][2] - p[i]) * span + es[i];
                if (d > e)
                    e = d;
            }
            if (e < best) {
                best = e;
                q[0] = (uint8_t)x1;
                q[1] = (uint8_t)g1;
                q[2] = (uint8_t)x2;
                q[3] = (uint8_t)g2;
            }
        }
    return best;
}

/* The coarse scan's own error (progress units) on data that lie exactly
 * on a grid curve: its best cell on a 16-step grid of the x bytes is off
 * by 0.011 to 0.014 for nine in ten random grid curves, 0.02 to 0.03 for
 * 99 in 100.  FAST refuses on the coarse score only beyond this as well
 * as beyond 16 tolerances: a margin in tolerances alone refuses every
 * segment that moves thousands of them (span / tol of 1e4 to 1e5: a
 * camera flying 75 units at 0.001) however exactly a curve fits it.  0.02
 * keeps the corpus cameras' curves (the worst needs 0.017) for 2.5 % more
 * work on the baked WAVEFILE dance, whose bone keys stay the same. */
#define COARSE_RES 0.02

typedef struct cand {
    int x1, x2;
    double score, y[2];
} cand;

/* The descents' cells of one fit already scored (the same samples: the
 * same score and y), so that a cell two descents or two steps meet is
 * scored once: a direct-mapped table (a cell that collides is scored
 * again). */
#define MEMO_N 128
typedef struct memo {
    int16_t x1[MEMO_N], x2[MEMO_N];
    double score[MEMO_N], y[MEMO_N][2];
} memo;

/* The basis of x bytes (x1, x2) at the m steering samples s of a segment
 * of n frames, from the cache's descent table (built on a miss with t as
 * fit_y takes it: the same values), or NULL when not kept (no cache, a
 * long segment, many samples, out of memory). */
static const basis *desc_basis(pki_curve_cache *c, size_t n, int x1, int x2, const double *s,
                               size_t m)
{
    if (!c || n >= BASIS_NMAX || m > STEER_MAX)
        return NULL;
    size_t h = ((n * 0x9E3779B1u ^ (size_t)(x1 * 131 + x2) * 0x85EBCA77u) >> 7) &
               (((size_t)1 << DESC_BITS) - 1);
    desc_slot **blk = &c->desc[h >> DESC_BLOCK_BITS];
    if (!*blk && !(*blk = calloc((size_t)1 << DESC_BLOCK_BITS, sizeof **blk)))
        return NULL;
    desc_slot *d = &(*blk)[h & (((size_t)1 << DESC_BLOCK_BITS) - 1)];
    if (d->n == (int16_t)n && d->x1 == x1 && d->x2 == x2)
        return &d->b;
    basis *e = &d->b;
    double hint = -1.0;
    e->a11 = e->a12 = e->a22 = 0.0;
    for (size_t i = 0; i < m; i++) {
        double t = param(c, x1, x2, s[i], hint);
        hint = t;
        basis_put(e, i, t);
    }
    basis_det(e);
    d->n = (int16_t)n;
    d->x1 = (uint8_t)x1;
    d->x2 = (uint8_t)x2;
    return e;
}

static double fit_y_memo(memo *mm, pki_curve_cache *cache, size_t n, int x1, int x2,
                         const double *s, const double *p, size_t m, double y[2], double *t)
{
    size_t h = (size_t)(x1 * 37 + x2 * 11) & (MEMO_N - 1);
    if (mm->x1[h] == x1 && mm->x2[h] == x2) {
        y[0] = mm->y[h][0];
        y[1] = mm->y[h][1];
        return mm->score[h];
    }
    const basis *b = desc_basis(cache, n, x1, x2, s, m);
    double e = b ? fit_y_basis(b, p, m, y, INFINITY) : fit_y(cache, x1, x2, s, p, m, y, t);
    mm->x1[h] = (int16_t)x1;
    mm->x2[h] = (int16_t)x2;
    mm->score[h] = e;
    mm->y[h][0] = y[0];
    mm->y[h][1] = y[1];
    return e;
}

/* Within tol (value units) of some non-decreasing run? (v[j] - v[i] >=
 * -2 tol for every i < j): necessary for any grid curve. */
static bool progress_monotone(const double *p, size_t n, double slack)
{
    double run = 0.0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (p[i] < run - 2.0 * slack)
            return false;
        if (p[i] > run)
            run = p[i];
    }
    return 1.0 >= run - 2.0 * slack;
}

/* ---- DIRECT: x-byte pairs tried with every grid y inside the tolerance ----
 *
 * For x bytes (x1, x2) the progress at s_i is linear in the real y1, y2:
 * b1_i y1 + b2_i y2 + t_i^3 (t_i exact).  The grid points (g1, g2) / 127
 * within r_i = (tol - extra_i) / span of every steering sample lie in a
 * convex polygon, empty when even the least squares' sum of squares is
 * over sum r_i^2.  Its rows (g1) are walked outwards from the least
 * squares' y1, each row's g2 interval the intersection of the samples'
 * slabs, and each grid point in it checked against every sample as FAST
 * checks a curve: no descent, no rounding that misses the polygon. */

/* The x-byte pairs DIRECT tries before the coarse scan's best: x nearly
 * linear in t (progress a cubic in s with free end slopes: a smooth short
 * piece), and the two extremes (a piece that starts or ends at rest). */
static const uint8_t DIRECT_X[][2] = {{42, 85}, {0, 0}, {127, 127}};
#define DIRECT_ROWS 12  /* rows walked each way from the least squares' y1 */
#define DIRECT_CHECKS 8 /* grid points checked per pair at most */
#define DIRECT_K 4      /* the coarse scan's best cells tried */

#define DIRECT_SEEDS ((int)(sizeof DIRECT_X / sizeof DIRECT_X[0]))
#define DIRECT_CELLS (DIRECT_SEEDS + COARSE_PAIRS)

/* The x bytes of DIRECT's cell k: the seeds, then the coarse pairs. */
static void direct_x(int k, int *x1, int *x2)
{
    if (k < DIRECT_SEEDS) {
        *x1 = DIRECT_X[k][0];
        *x2 = DIRECT_X[k][1];
    } else {
        *x1 = coarse_x((k - DIRECT_SEEDS) / COARSE_SIDE);
        *x2 = coarse_x((k - DIRECT_SEEDS) % COARSE_SIDE);
    }
}

/* DIRECT's cells' bases at the m steering samples s of a segment of n
 * frames, with t solved exactly (pki_bezier_param, as a curve's check
 * solves it), built on first use; NULL when not kept (no cache, a long
 * segment, out of memory). */
static const basis *direct_basis(pki_curve_cache *c, size_t n, const double *s, size_t m)
{
    if (!c || n >= BASIS_NMAX || m > STEER_MAX)
        return NULL;
    if (c->direct[n])
        return c->direct[n];
    basis *b = malloc(DIRECT_CELLS * sizeof *b);
    if (!b)
        return NULL;
    for (int k = 0; k < DIRECT_CELLS; k++) {
        int x1, x2;
        direct_x(k, &x1, &x2);
        basis *e = &b[k];
        e->a11 = e->a12 = e->a22 = 0.0;
        double hint = -1.0;
        for (size_t i = 0; i < m; i++) {
            double t = pki_bezier_param((uint8_t)x1, (uint8_t)x2, s[i], hint);
            hint = t;
            basis_put(e, i, t);
        }
        basis_det(e);
    }
    return c->direct[n] = b;
}

/* Cell (x1, x2) of basis bs: a grid curve within tol of every sample into
 * cp (its error into *found), or false.  r[i]: the steering samples'
 * allowance in progress, rr the sum of their squares. */
static bool direct_pair(const basis *bs, int x1, int x2, const double *p, size_t n, double span,
                        const double *extra, double tol, const double *ps, const double *r,
                        double rr, size_t m, t_chain *ch, uint8_t cp[4], double *found)
{
    const double *b1 = bs->b1, *b2 = bs->b2, *c3 = bs->t3;
    double a11 = bs->a11, a12 = bs->a12, a22 = bs->a22, r1 = 0, r2 = 0, dd = 0;
    for (size_t i = 0; i < m; i++) {
        double d = ps[i] - c3[i];
        r1 += b1[i] * d;
        r2 += b2[i] * d;
        dd += d * d;
    }
    double y1;
    if (bs->full) {
        y1 = (r1 * a22 - r2 * a12) / bs->det;
        double y2 = (a11 * r2 - a12 * r1) / bs->det;
        /* every point within the slabs has a sum of squares of at most
         * sum r_i^2, and no point has less than the least squares' */
        if (dd - (r1 * y1 + r2 * y2) > rr * (1.0 + 1e-6) + 1e-15)
            return false;
    } else {
        y1 = (a11 + a22) > 0 ? (r1 + r2) / (a11 + 2 * a12 + a22) : 0.5;
    }
    int g0 = (int)lround((y1 < 0.0 ? 0.0 : y1 > 1.0 ? 1.0 : y1) * 127.0);
    int checks = 0;
    /* the rows of the polygon are a run of g1: from g0 outwards, one row
     * each way in turn, each way until it leaves the polygon; in a row,
     * from the middle of its interval outwards (the grid points farthest
     * inside the tolerance first) */
    bool seen[2] = {false, false}, ended[2] = {false, false};
    for (int k = 0; k <= 2 * DIRECT_ROWS && !(ended[0] && ended[1]); k++) {
        int way = k & 1, d = (k + 1) / 2;
        if (ended[way])
            continue;
        int g1 = way ? g0 - d : g0 + d;
        if (g1 < 0 || g1 > 127) {
            ended[way] = true;
            if (!k)
                ended[1] = true;
            continue;
        }
        double lo = 0.0, hi = 127.0, y = g1 / 127.0;
        for (size_t i = 0; i < m && lo <= hi; i++) {
            double want = ps[i] - c3[i] - b1[i] * y; /* b2_i y2 within r_i of it */
            if (b2[i] > 1e-12) {
                double a = (want - r[i]) / b2[i] * 127.0, b = (want + r[i]) / b2[i] * 127.0;
                lo = a > lo ? a : lo;
                hi = b < hi ? b : hi;
            } else if (fabs(want) > r[i]) {
                hi = -1.0;
            }
        }
        if (!(lo <= hi)) {
            if (seen[way])
                ended[way] = true;
            continue;
        }
        seen[way] = true;
        if (!k) /* row g0 is both ways' */
            seen[1] = true;
        int gl = (int)lo, gh = (int)hi; /* lo, hi >= 0: the casts floor */
        if (gl < lo)
            gl++;
        int gm = (int)(0.5 * (lo + hi) + 0.5);
        gm = gm < gl ? gl : gm > gh ? gh : gm;
        for (int j = 0; j <= 2 * (gh - gl); j++) {
            int g2 = j & 1 ? gm - (j + 1) / 2 : gm + j / 2;
            if (g2 < gl || g2 > gh)
                continue;
            uint8_t q[4] = {(uint8_t)x1, (uint8_t)g1, (uint8_t)x2, (uint8_t)g2};
            double e = fit_error_chain(q, p, n, span, extra, tol, ch);
            if (e <= tol) {
                memcpy(cp, q, 4);
                *found = e;
                return true;
            }
            if (++checks >= DIRECT_CHECKS)
                return false;
        }
    }
    return false;
}

int pki_curve_fit_progress_ex(const double *p, size_t n, double span, const double *extra,
                              double tol, pki_fit_effort effort, pki_curve_cache *cache,
                              uint8_t cp[4], double *worst)
{
    if (n == 0 || !(span >= 0.0) || !isfinite(span) || !(tol >= 0.0))
        return -1;
    for (size_t i = 0; i + 1 < n; i++)
        if (!isfinite(p[i]) || (extra && !(extra[i] >= 0.0 && isfinite(extra[i]))))
            return -1;
    bool fast = effort != PKI_FIT_FULL;
    /* the coarse scan's best beyond this many tolerances: no descent */
    double refuse = effort == PKI_FIT_QUICK ? 4.0 : 16.0;
    double w = fit_error(pki_curve_linear, p, n, span, extra);
    memcpy(cp, pki_curve_linear, 4);
    if (w <= tol || n < 2) { /* MMD's default first: it fits, or nothing else is asked */
        if (worst)
            *worst = w;
        return w <= tol;
    }
    /* An error no curve removes, or progress outside [0, 1]: refuse now. */
    double slack = span > 0.0 ? tol / span : INFINITY;
    for (size_t i = 0; i + 1 < n; i++)
        if ((extra && extra[i] > tol) || p[i] < -slack || p[i] > 1.0 + slack) {
            if (worst)
                *worst = w;
            return 0;
        }
    if (fast && !progress_monotone(p, n, slack)) {
        if (worst)
            *worst = w;
        return 0;
    }
    /* Up to 64 evenly spread samples steer the search; all are checked. */
    double s[64], ps[64], es[64], t[64];
    size_t mmax = fast ? STEER_MAX : FULL_STEER;
    size_t m = n - 1 < mmax ? n - 1 : mmax;
    for (size_t k = 0; k < m; k++) {
        size_t i = m == n - 1 ? k + 1 : 1 + (k * (n - 2)) / (m - 1);
        s[k] = (double)i / (double)n;
        ps[k] = p[i - 1];
        es[k] = extra ? extra[i - 1] : 0.0;
    }
    /* DIRECT: the seeds, then the coarse scan's best cells, each with every
     * grid y in its polygon; refused when none has one (FAST's search
     * when there is no cache of coarse bases) */
    const basis *db = effort == PKI_FIT_DIRECT ? direct_basis(cache, n, s, m) : NULL;
    if (db) {
        double r[STEER_MAX], rr = 0.0;
        for (size_t i = 0; i < m; i++) {
            r[i] = (tol - es[i]) / span;
            rr += r[i] * r[i];
            if (!(r[i] >= 0.0)) { /* an error no curve removes */
                if (worst)
                    *worst = w;
                return 0;
            }
        }
        t_chain dch;
        dch.x1 = dch.x2 = -1;
        dch.have = 0;
        double e;
        int x1, x2;
        for (int k = 0; k < DIRECT_SEEDS; k++) {
            direct_x(k, &x1, &x2);
            if (direct_pair(&db[k], x1, x2, p, n, span, extra, tol, ps, r, rr, m, &dch, cp, &e)) {
                if (worst)
                    *worst = e;
                return 1;
            }
        }
        enum { K = DIRECT_K };
        double sc[K];
        int at[K];
        for (int k = 0; k < K; k++) {
            sc[k] = INFINITY;
            at[k] = -1;
        }
        for (int c = DIRECT_SEEDS; c < DIRECT_CELLS; c++) {
            double y[2];
            double v = fit_y_basis(&db[c], ps, m, y, sc[K - 1]);
            for (int k = 0; k < K; k++)
                if (v < sc[k]) {
                    for (int j = K - 1; j > k; j--) {
                        sc[j] = sc[j - 1];
                        at[j] = at[j - 1];
                    }
                    sc[k] = v;
                    at[k] = c;
                    break;
                }
        }
        for (int k = 0; k < K && at[k] >= 0; k++) {
            direct_x(at[k], &x1, &x2);
            if (direct_pair(&db[at[k]], x1, x2, p, n, span, extra, tol, ps, r, rr, m, &dch, cp,
                            &e)) {
                if (worst)
                    *worst = e;
                return 1;
            }
        }
        memcpy(cp, pki_curve_linear, 4);
        if (worst)
            *worst = w;
        return 0;
    }
    /* Coarse scan of the x bytes, then the best few descend on the grid. */
    enum { KEEP = 6 };
    cand best[KEEP];
    for (int k = 0; k < KEEP; k++)
        best[k] = (cand){0, 0, INFINITY, {0, 0}};
    int scan = fast ? COARSE_STEP : 1;
    int ranked = fast ? 2 : KEEP; /* the best cells kept in order (FAST reads two) */
    const basis *kept = fast ? coarse_basis(cache, n, s, m) : NULL;
    /* FULL: which x-byte pairs the ring search below may find a grid
     * curve at (may_fit), from the scan's own t */
    bool ring_filter = !fast && span > 0.0 && isfinite(tol / span);
    uint8_t may[128][128];
    double rs[64], ws[64], tf[64];
    int tk[64];
    bool split = ring_filter && cache; /* params_w: every sample inside the table */
    for (size_t i = 0; ring_filter && i < m; i++) {
        rs[i] = (tol - es[i]) / span;
        double u = s[i] * TAB_N;
        tk[i] = (int)u;
        tf[i] = u - tk[i];
        split = split && tk[i] >= 0 && tk[i] < TAB_N;
    }
    for (int x1 = 0; x1 <= 128; x1 += scan)
        for (int x2 = 0; x2 <= 128; x2 += scan) {
            cand c = {x1 > 127 ? 127 : x1, x2 > 127 ? 127 : x2, 0, {0, 0}};
            /* FAST descends from the best two cells only: a cell that
             * cannot be one of them is not scored to the end */
            if (kept) {
                c.score = fit_y_basis(&kept[(x1 / scan) * COARSE_SIDE + x2 / scan], ps, m, c.y,
                                      best[1].score);
            } else if (ring_filter) {
                double tt[64];
                if (split)
                    params_w(cache, c.x1, c.x2, s, tk, tf, m, tt, ws);
                double bb[64][3];
                c.score =
                    fit_y_w(cache, c.x1, c.x2, s, ps, m, c.y, t, ws, split ? tt : NULL, bb);
                may[c.x1][c.x2] = may_fit(bb, ws, ps, rs, m);
            } else {
                c.score = fit_y(cache, c.x1, c.x2, s, ps, m, c.y, t);
            }
            for (int k = 0; k < ranked; k++)
                if (c.score < best[k].score) {
                    for (int j = ranked - 1; j > k; j--)
                        best[j] = best[j - 1];
                    best[k] = c;
                    break;
                }
        }
    double found = w;
    int keep = fast ? 2 : KEEP;
    memo seen;
    memset(seen.x1, 0xff, sizeof seen.x1); /* -1: no cell */
    t_chain chain;
    chain.x1 = chain.x2 = -1;
    chain.have = 0;
    for (int k = 0; k < keep; k++) {
        cand c = best[k];
        if (!isfinite(c.score))
            continue;
        /* FAST: even the coarse grid's best is far outside tol (a margin
         * of 16: the descent rarely gains more) and farther off than the
         * coarse grid leaves data that lie on a grid curve */
        if (fast && c.score * span > refuse * tol && c.score > COARSE_RES)
            continue;
        for (int step = scan > 2 ? scan / 2 : 2; step >= 1; step /= 2) {
            bool moved = true;
            while (moved) {
                moved = false;
                for (int dx1 = -step; dx1 <= step; dx1 += step)
                    for (int dx2 = -step; dx2 <= step; dx2 += step) {
                        cand d = {c.x1 + dx1, c.x2 + dx2, 0, {0, 0}};
                        if ((!dx1 && !dx2) || d.x1 < 0 || d.x1 > 127 || d.x2 < 0 || d.x2 > 127)
                            continue;
                        d.score = fit_y_memo(&seen, cache, n, d.x1, d.x2, s, ps, m, d.y, t);
                        if (d.score < c.score) {
                            c = d;
                            moved = true;
                        }
                    }
            }
        }
        /* FAST: the best real curve is far outside tol; no rounding of it
         * will do (a margin of 4: the score is least squares over at most
         * 8 samples, within sqrt(8) of the minimax).  The table's t moves
         * the score by 1e-5 to 1e-4 (progress) for most x bytes, which is
         * many tolerances on a long move (5.9 on a camera's 75-unit move
         * at 0.001, where a grid curve fits): the score is taken again
         * with exact t before refusing. */
        if (fast && c.score * span > 4.0 * tol)
            c.score = fit_y(NULL, c.x1, c.x2, s, ps, m, c.y, t);
        best[k] = c;
        if (fast && c.score * span > 4.0 * tol)
            continue;
        /* Round y to the grid; try the neighbours of the rounding. */
        int y1 = (int)lround(c.y[0] * 127.0), y2 = (int)lround(c.y[1] * 127.0);
        for (int a = -1; a <= 1; a++)
            for (int b = -1; b <= 1; b++) {
                if (y1 + a < 0 || y1 + a > 127 || y2 + b < 0 || y2 + b > 127)
                    continue;
                uint8_t q[4] = {(uint8_t)c.x1, (uint8_t)(y1 + a), (uint8_t)c.x2, (uint8_t)(y2 + b)};
                /* FAST takes the first curve within tol */
                if (fast && found <= tol)
                    continue;
                /* QUICK (reduction's probes, which only ask whether a
                 * curve fits) stops a curve at its first sample past tol */
                bool quick = effort == PKI_FIT_QUICK;
                double e = fit_error_chain(q, p, n, span, extra, quick && tol < found ? tol : found,
                                           &chain);
                if (e < found && (!quick || e <= tol)) {
                    found = e;
                    memcpy(cp, q, 4);
                }
            }
        if (found <= tol)
            break;
    }
    /* A real curve fits but its rounding does not: other x bytes may have
     * a least-squares y that lies nearer the grid.  Search outwards from
     * the best real fit, ring by ring, until a grid curve fits. */
    int top = 0;
    for (int k = 1; k < KEEP; k++)
        if (best[k].score < best[top].score)
            top = k;
    if (found > tol && best[top].score * span <= 4.0 * tol && !fast) {
        int cx = best[top].x1, cy = best[top].x2;
        for (int r = 1; r < 128 && found > tol; r++)
            for (int dx = -r; dx <= r && found > tol; dx++)
                for (int dy = -r; dy <= r && found > tol; dy += (dx == -r || dx == r) ? 1 : 2 * r) {
                    int x1 = cx + dx, x2 = cy + dy;
                    if (x1 < 0 || x1 > 127 || x2 < 0 || x2 > 127)
                        continue;
                    if (ring_filter && !may[x1][x2]) /* no grid curve comes within tol */
                        continue;
                    uint8_t q[4];
                    if (try_grid(x1, x2, s, ps, es, m, span, exact_t(cache, n, x1, x2, s, m), tol,
                                 q) > tol)
                        continue;
                    double e = fit_error_below(q, p, n, span, extra, found);
                    if (e < found) {
                        found = e;
                        memcpy(cp, q, 4);
                    }
                }
    }
    if (worst)
        *worst = found;
    return found <= tol;
}

int pki_curve_fit_scalar(const float *v, size_t n, double tol, uint8_t cp[4], double *worst)
{
    return pki_curve_fit_scalar_ex(v, n, tol, PKI_FIT_FULL, NULL, cp, worst);
}

int pki_curve_fit_scalar_ex(const float *v, size_t n, double tol, pki_fit_effort effort,
                            pki_curve_cache *cache, uint8_t cp[4], double *worst)
{
    return pki_curve_fit_scalar_extra_ex(v, n, NULL, tol, effort, cache, cp, worst);
}

int pki_curve_fit_scalar_extra_ex(const float *v, size_t n, const double *extra, double tol,
                                  pki_fit_effort effort, pki_curve_cache *cache, uint8_t cp[4],
                                  double *worst)
{
    if (n == 0)
        return -1;
    for (size_t i = 0; i <= n; i++)
        if (!isfinite(v[i]))
            return -1;
    double a = v[0], b = v[n], span = fabs(b - a);
    if (span == 0.0) { /* a still segment: every sample must be the value */
        double e = 0.0;
        for (size_t i = 1; i < n; i++)
            if (fabs(v[i] - a) + (extra ? extra[i - 1] : 0.0) > e)
                e = fabs(v[i] - a) + (extra ? extra[i - 1] : 0.0);
        memcpy(cp, pki_curve_linear, 4);
        if (worst)
            *worst = e;
        return e <= tol;
    }
    double *p = malloc((n > 1 ? n - 1 : 1) * sizeof *p);
    if (!p)
        return -1;
    for (size_t i = 1; i < n; i++)
        p[i - 1] = (v[i] - a) / (b - a);
    /* The sampler's result is a float: keep a margin of its rounding. */
    double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    double margin = 2.0 * FLT_EPSILON * big;
    int rc = pki_curve_fit_progress_ex(p, n, span, extra, margin < tol / 2 ? tol - margin : tol / 2,
                                       effort, cache, cp, worst);
    free(p);
    return rc;
}

static double dot4(const double a[4], const double b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

static bool unit4(const float q[4], double out[4])
{
    double n = 0.0;
    for (int k = 0; k < 4; k++) {
        out[k] = q[k];
        n += out[k] * out[k];
    }
    n = sqrt(n);
    if (!(n > 1e-30) || !isfinite(n))
        return false;
    for (int k = 0; k < 4; k++)
        out[k] /= n;
    return true;
}

#define DEG (180.0 / 3.14159265358979323846)

/* The distance d from the arc is over tol_deg exactly when sin^2(d / 2)
 * is over sin^2(tol_deg / 2): products alone, a relative margin of 1e-9
 * leaving the borderline to the fit. */
bool pki_curve_off_arc(const float (*q)[4], size_t n, double tol_deg)
{
    double q0[4], qn[4], n0 = 0.0, n1 = 0.0;
    for (int k = 0; k < 4; k++) {
        n0 += (double)q[0][k] * q[0][k];
        n1 += (double)q[n][k] * q[n][k];
    }
    n0 = sqrt(n0);
    n1 = sqrt(n1);
    if (!(n0 > 1e-30) || !(n1 > 1e-30))
        return false;
    double d = 0.0;
    for (int k = 0; k < 4; k++) {
        q0[k] = q[0][k] / n0;
        qn[k] = q[n][k] / n1;
        d += q0[k] * qn[k];
    }
    if (d < 0.0) {
        d = -d;
        for (int k = 0; k < 4; k++)
            qn[k] = -qn[k];
    }
    double e2[4], en2 = 0.0;
    for (int k = 0; k < 4; k++) {
        e2[k] = qn[k] - d * q0[k];
        en2 += e2[k] * e2[k];
    }
    double h = pki_sin(tol_deg / DEG / 2.0), bound = h * h * (1.0 + 1e-9) + 1e-15;
    for (size_t i = 1; i < n; i++) {
        double ni = 0.0, x = 0.0, y = 0.0;
        for (int k = 0; k < 4; k++) {
            ni += (double)q[i][k] * q[i][k];
            x += q[i][k] * q0[k];
            y += q[i][k] * e2[k];
        }
        if (!(ni > 1e-60))
            return false;
        /* the squared cosine and sine along the circle, over |q_i|^2 */
        double r = (x * x + (en2 > 1e-24 ? y * y / en2 : 0.0)) / ni;
        if (1.0 - r > bound)
            return true;
    }
    return false;
}

int pki_curve_fit_rot(const float (*q)[4], size_t n, double tol_deg, uint8_t cp[4], double *worst)
{
    return pki_curve_fit_rot_ex(q, n, tol_deg, PKI_FIT_FULL, NULL, cp, worst);
}

int pki_curve_fit_rot_ex(const float (*q)[4], size_t n, double tol_deg, pki_fit_effort effort,
                         pki_curve_cache *cache, uint8_t cp[4], double *worst)
{
    if (n == 0)
        return -1;
    double q0[4], qn[4];
    if (!unit4(q[0], q0) || !unit4(q[n], qn))
        return -1;
    double d = dot4(q0, qn);
    if (d < 0.0) { /* the sampler takes the short way */
        d = -d;
        for (int k = 0; k < 4; k++)
            qn[k] = -qn[k];
    }
    double th = pki_acos(d > 1.0 ? 1.0 : d);
    /* e2: the unit direction of the arc from q0, orthogonal to q0. */
    double e2[4], en = 0.0;
    for (int k = 0; k < 4; k++) {
        e2[k] = qn[k] - d * q0[k];
        en += e2[k] * e2[k];
    }
    en = sqrt(en);
    double *p = malloc((n > 1 ? n - 1 : 1) * 2 * sizeof *p);
    if (!p)
        return -1;
    double *extra = p + (n > 1 ? n - 1 : 1);
    int rc = 0;
    for (size_t i = 1; i < n; i++) {
        double qi[4];
        if (!unit4(q[i], qi)) {
            rc = -1;
            break;
        }
        if (dot4(qi, q0) + dot4(qi, qn) < 0.0)
            for (int k = 0; k < 4; k++)
                qi[k] = -qi[k];
        double a = dot4(qi, q0), b = en > 1e-12 ? dot4(qi, e2) / en : 0.0;
        double r = a * a + b * b;
        /* distance from the arc's great circle (a rotation angle, 2 x the
         * quaternions' angle) and the position along it */
        extra[i - 1] = 2.0 * pki_asin(sqrt(r < 1.0 ? 1.0 - r : 0.0)) * DEG;
        p[i - 1] = th > 1e-12 ? pki_atan2(b, a) / th : 0.0;
    }
    if (rc == 0) {
        if (th <= 1e-12) { /* a still rotation: the samples' distance is all */
            double e = 0.0;
            for (size_t i = 1; i < n; i++)
                if (extra[i - 1] > e)
                    e = extra[i - 1];
            memcpy(cp, pki_curve_linear, 4);
            if (worst)
                *worst = e;
            rc = e <= tol_deg;
        } else {
            /* The sampler slerps in float: keep a margin for its rounding. */
            double margin = tol_deg > 4e-5 ? 2e-5 : tol_deg / 2.0;
            rc = pki_curve_fit_progress_ex(p, n, 2.0 * th * DEG, extra, tol_deg - margin, effort,
                                           cache, cp, worst);
        }
    }
    free(p);
    return rc;
}
