/* smooth.c — a filter for noisy bone and morph tracks: motion traced from
 * video or captured, a key at every frame with jitter of a degree or more
 * (pk_motion_smooth).
 *
 * Per selected track, over its first to last key:
 *
 *  1. Sampling.  The track is sampled at every integer frame (pk_cursor:
 *     MMD's values): rotations as unit quaternions, translations and morph
 *     weights as numbers.
 *  2. The noise.  Unless the caller gives it, each track's noise is
 *     estimated from its own samples: the median absolute third difference
 *     (of the frame-to-frame rotation vectors for a rotation, of each axis
 *     for a translation), which a dance's motion hardly moves and white
 *     noise of deviation s moves by sqrt(20) s (the median absolute
 *     deviation of a normal law is 0.6745 s).  A channel whose noise is
 *     below CLEAN_DEG, CLEAN_POS, CLEAN_MORPH is clean: left as it is.
 *     So is a hand-keyed track (keys on fewer than one frame in
 *     KEYED_GAP), whose eased curves the third difference reads as noise.
 *  3. Breaks.  A step between two frames much larger than the noise and
 *     than the steps around it (a cut, a jump the animator keyed) is a
 *     break no window reaches across.
 *  4. The filter: local linear regression with a window chosen at every
 *     frame by the intersection of confidence intervals (ICI).  Three
 *     windows grow from the frame, one on each side and one around it, by
 *     half-widths 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, ... up to the strength;
 *     each gives an estimate at the frame and its deviation (the noise
 *     times the regression's gain), and a window stops growing before the
 *     first whose interval (estimate +- GAMMA deviations) misses
 *     the intersection of the smaller ones', or whose line misses its
 *     own samples by more than the noise explains (the residual sum of
 *     squares above the chi-square law's one-in-forty bound, per
 *     component or over all three: a corner inside the window): a bend
 *     the line cannot follow has started.  The three estimates are averaged by the inverse of
 *     their variances, unless one line over the chosen windows on both
 *     sides fits its samples and gives an estimate within every side's interval (no bend at
 *     the frame): then that line's (a keyed motion's straight piece is
 *     averaged whole, wherever in it the frame lies).  So a slow stretch is averaged over up to
 * twice the strength plus one frames, while at a sharp turn (a snap on the beat, a foot landing)
 * the window on each side stops at the turn and the peak keeps its height. Rotations are filtered
 * on the rotation group: at frame i the rotations around it are taken into the tangent space at the
 * sample, v_j = log(q_i^-1 q_j) (rotation vectors: angle times axis), the three components of v are
 * regressed together (one window for all three), and the result is q_i exp(v).  Translations are
 * regressed as vectors the same way, each morph weight on its own.
 *  5. Contacts.  A planted foot must stay planted: on the leg IK bones
 *     (左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ) a run of at least
 *     CONTACT_FRAMES frames whose input positions all lie within 3.5
 *     noise deviations (and at least CONTACT_MIN units) of the mean of
 *     the others, and along which a fitted line travels no farther than
 *     noise alone would make it (run_still), less its first and last
 *     few frames when their mean lies off the rest's (a landing or a
 *     lift still going on: trim_edge), is a contact: the bone's
 *     translation holds
 *     that mean over the run, and the filter's windows on either side stop
 *     at the run, so no landing or lift is smeared into it and no jitter
 *     moves the foot while it stands.
 *
 * The smoothed tracks are written a key a frame with linear curves (bake's
 * form; `reduce` makes them small again): their records are dropped and the
 * new keys appended after the other records of their section, track by
 * track; everything else stays byte-identical and in order.
 *
 * Peaks: for every bone the rotation angle from its mean rotation is
 * followed through the input; a frame where it is highest within
 * PEAK_FRAMES on each side and stands at least PEAK_DEG
 * above the lowest point within that many frames on both sides is the
 * peak of a fast swing, and the output's highest angle within two frames
 * of it is compared with it.  The largest loss is reported with its bone
 * and frame.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "math/quat.h"
#include "posekit.h"
#include "util/fmath.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAD2DEG (180.0 / 3.14159265358979323846)

/* ICI: a window's interval is its estimate +- GAMMA deviations;
 * GAMMA_POS for translations, whose corners the lack-of-fit test finds
 * (measured on the corpus dances: 1.5 leaves 31.5 % of the noise on
 * translations, 2 leaves 30.5 %, rotations lose peaks past 1.5). */
#define GAMMA 1.5
#define GAMMA_POS 2.0
/* A window fits its samples while its residual sum of squares stays
 * below the chi-square law's one-in-forty bound (LACK_Z: the normal
 * law's quantile), per component and over the components together.  A
 * dance's keys are corners every few frames, each too small for a laxer
 * test, which bias a line's end.  Measured on WAVEFILE with 1 deg and
 * 0.02 units of noise against one in a thousand per component only:
 * frames over 1 deg 4,222 -> 2,708, worst 2.70 -> 2.31 deg, mean 26.9 ->
 * 26.0 % of the noise, translations 30.6 -> 29.6 %; a smooth swing's
 * errors unchanged.  One in twenty cuts more of a dance's corners but
 * stops windows short on smooth motion (test_smooth's slow swing). */
#define LACK_Z 1.96
/* Noise below these (deviation per axis) is none: the channel is clean. */
#define CLEAN_DEG 0.005
#define CLEAN_POS 0.00005
#define CLEAN_MORPH 0.0001
/* A track keyed on fewer than one frame in KEYED_GAP (on average) is
 * hand-keyed: its frames between keys are MMD's own curves, not
 * observations, so they carry no noise of their own, and an eased
 * curve's third differences (which the estimator reads as noise) would
 * only bend the animator's motion.  Its noise is estimated as none;
 * noise the caller gives still smooths it.  Captured or traced motion
 * has a key at every frame (or two, at half rate). */
#define KEYED_GAP 3
/* A contact: at least CONTACT_FRAMES still frames (run_still; a travel
 * of CONTACT_MIN units is still whatever the noise). */
#define CONTACT_FRAMES 6
#define CONTACT_MIN 0.002
/* A contact's edge frames tested for a landing or lift still going on. */
#define TRIM_FRAMES 4
/* A rotation track within this of its mean rotation is filtered in the
 * tangent space at the mean (cheaper than one at every frame). */
#define CHART_RAD (20.0 / RAD2DEG)
/* A fast swing's peak: the highest angle within PEAK_FRAMES frames on
 * each side, PEAK_DEG above the lowest on both. */
#define PEAK_FRAMES 6
/* The longest track smoothed, in frames (bake's limit). */
#define SPAN_MAX (1u << 22)
#define PEAK_DEG 5.0

void pk_smooth_options_init(pk_smooth_options *o)
{
    memset(o, 0, sizeof *o);
    o->strength = PK_SMOOTH_STRENGTH;
    o->morphs = true;
    o->contacts = true;
}

/* ---- rotation vectors ---- */

/* log of a unit quaternion taken the short way: angle times axis. */
static void qlog(const double q[4], double v[3])
{
    double s = q[3] < 0.0 ? -1.0 : 1.0;
    double x = s * q[0], y = s * q[1], z = s * q[2], w = s * q[3];
    double n = sqrt(x * x + y * y + z * z);
    if (n < 1e-300) {
        v[0] = v[1] = v[2] = 0.0;
        return;
    }
    double k = 2.0 * pki_atan2(n, w) / n;
    v[0] = x * k;
    v[1] = y * k;
    v[2] = z * k;
}

/* exp of a rotation vector: the unit quaternion turning by |v| about v. */
static void qexp(const double v[3], double q[4])
{
    double a = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double k = a > 1e-12 ? pki_sin(0.5 * a) / a : 0.5 - a * a / 48.0;
    q[0] = v[0] * k;
    q[1] = v[1] * k;
    q[2] = v[2] * k;
    q[3] = pki_cos(0.5 * a);
}

static double dot4(const double a[4], const double b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* v = log(a^-1 b). */
static void qdiff(const double a[4], const double b[4], double v[3])
{
    double c[4], d[4];
    pki_qd_conj(a, c);
    pki_qd_mul(c, b, d);
    qlog(d, v);
}

/* ---- one track's samples ---- */

/* The local sums kept per frame of reach: x^p y for p = 0, 1, 2 and y^2,
 * three components each. */
#define SUMS 12

typedef struct track_work {
    size_t n; /* frames f0 .. f0 + n - 1 */
    uint32_t f0;
    int dim;        /* values per frame in v: 3 (translation) or 1 (morph) */
    double (*q)[4]; /* bones: rotations, unit */
    double *v;      /* bones: translations (3 a frame); morphs: weights */
    double *out_v;  /* the filtered values */
    double (*out_q)[4];
    uint8_t *brk;    /* brk[i]: no window reaches across frames i-1 | i */
    double *scratch; /* the local sums (2 (H + 1) x SUMS doubles), then n x 3 */
    size_t cap_h;    /* the widest half-width the scratch holds */
} track_work;

static void track_free(track_work *t)
{
    free(t->q);
    free(t->v);
    free(t->out_v);
    free(t->out_q);
    free(t->brk);
    free(t->scratch);
}

/* Median of v[0..n-1] (reordered). */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The noise deviation per component: the median absolute difference of
 * order `order` (3 for values, 2 for frame-to-frame rotation vectors,
 * which are first differences already) of each component of the
 * d-component series x (n samples, stride d) over 0.6745 sqrt(20): white
 * noise's third difference has a deviation sqrt(20) times its own, and a
 * normal law's median absolute deviation is 0.6745 of it.  The largest of
 * the components' (noise on one axis alone, a hinge's, is found whole).
 * tmp holds n doubles.  0 when too short. */
static double noise_of(const double *x, size_t n, int d, int order, double *tmp)
{
    if (n < 8)
        return 0.0;
    size_t ud = (size_t)d;
    double worst = 0.0;
    for (size_t c = 0; c < ud; c++) {
        size_t m = 0;
        for (size_t i = 0; i + (size_t)order < n; i++) {
            const double *p = x + i * ud + c;
            double t = order == 3 ? p[3 * ud] - 3.0 * p[2 * ud] + 3.0 * p[ud] - p[0]
                                  : p[2 * ud] - 2.0 * p[ud] + p[0];
            tmp[m++] = fabs(t);
        }
        worst = fmax(worst, median(tmp, m) / (0.6745 * sqrt(20.0)));
    }
    return worst;
}

/* ---- the ICI filter ---- */

/* The half-widths the windows grow through (up to the strength). */
static const uint32_t WIDTHS[] = {1,  2,  3,  4,  5,  6,  8,  10, 12, 15,  18,
                                  22, 26, 30, 36, 42, 50, 60, 72, 86, 100, 120};
#define NWIDTHS (sizeof WIDTHS / sizeof *WIDTHS)

/* One window: frames x = a .. b (offsets from the frame filtered), a
 * polynomial of degree `order` fitted by least squares and evaluated at
 * x = 0: the coefficients are inv S with Sk the sum of x^k y over the
 * window (inv: the inverse normal matrix), the estimate the first, and
 * its deviation is gain times the noise's. */
typedef struct window {
    long a, b;
    double inv[3][3]; /* the inverse normal matrix (its first row gives the estimate) */
    double gain;
    double chi;  /* the residual sum of squares unit noise stays under (chi_bound) */
    double chi3; /* ... and over three components together (a rotation, a translation) */
} window;

/* The windows of one filter: for each side (0 before, 1 around, 2 after)
 * the widths up to the strength. */
typedef struct windows {
    window w[3][NWIDTHS];
    window u[NWIDTHS][NWIDTHS]; /* u[l][r]: the left window l and the right one r joined */
    size_t n;                   /* widths per side */
} windows;

/* The residual sum of squares that white noise of deviation 1 exceeds
 * with a chance of one in forty over `dof` degrees of freedom (the
 * chi-square law's quantile, by Wilson and Hilferty's cube). */
static double chi_bound(double dof)
{
    if (dof < 1.0)
        return INFINITY;
    double v = 2.0 / (9.0 * dof), z = LACK_Z;
    double c = 1.0 - v + z * sqrt(v);
    return dof * c * c * c;
}

/* Fills w's rows, gain and bound (false when the window is too short for
 * the order). */
static bool window_make(window *w, long a, long b, int order)
{
    double m[5] = {0, 0, 0, 0, 0};
    for (long x = a; x <= b; x++) {
        double p = 1.0;
        for (int k = 0; k < 5; k++, p *= (double)x)
            m[k] += p;
    }
    int n = order + 1;
    if (b - a + 1 < n)
        return false;
    double M[3][3], inv[3][3];
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            M[r][c] = m[r + c];
    /* Gauss-Jordan on the (at most 3 x 3) normal matrix */
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            inv[r][c] = r == c;
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(M[r][c]) > fabs(M[piv][c]))
                piv = r;
        if (fabs(M[piv][c]) < 1e-12)
            return false;
        for (int k = 0; k < n; k++) {
            double t = M[c][k];
            M[c][k] = M[piv][k];
            M[piv][k] = t;
            t = inv[c][k];
            inv[c][k] = inv[piv][k];
            inv[piv][k] = t;
        }
        double d = M[c][c];
        for (int k = 0; k < n; k++) {
            M[c][k] /= d;
            inv[c][k] /= d;
        }
        for (int r = 0; r < n; r++) {
            if (r == c)
                continue;
            double f = M[r][c];
            for (int k = 0; k < n; k++) {
                M[r][k] -= f * M[c][k];
                inv[r][k] -= f * inv[c][k];
            }
        }
    }
    w->a = a;
    w->b = b;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            w->inv[r][k] = r < n && k < n ? inv[r][k] : 0.0;
    w->gain = sqrt(inv[0][0]);
    w->chi = chi_bound((double)(b - a + 1 - n));
    w->chi3 = chi_bound(3.0 * (double)(b - a + 1 - n));
    return true;
}

/* The degree of the line fitted on each side and around. */
#define ORDER_SIDE 1
#define ORDER_MID 2

static void windows_make(windows *ws, uint32_t strength)
{
    ws->n = 0;
    while (ws->n < NWIDTHS && WIDTHS[ws->n] <= strength)
        ws->n++;
    int os = ORDER_SIDE, om = ORDER_MID;
    for (size_t k = 0; k < ws->n; k++) {
        long h = (long)WIDTHS[k];
        if (!window_make(&ws->w[0][k], -h, 0, os))
            window_make(&ws->w[0][k], -h, 0, 1);
        if (!window_make(&ws->w[1][k], -h, h, om))
            window_make(&ws->w[1][k], -h, h, 1);
        if (!window_make(&ws->w[2][k], 0, h, os))
            window_make(&ws->w[2][k], 0, h, 1);
    }
    for (size_t l = 0; l < ws->n; l++)
        for (size_t r = 0; r < ws->n; r++)
            window_make(&ws->u[l][r], -(long)WIDTHS[l], (long)WIDTHS[r], 1);
}

/* The frames around frame i, taken as far as the windows grow: y values
 * relative to frame i's (its own is 0), summed with the powers of their
 * offset x: cl[k] holds the sums of x^p y over x = -1 .. -k, cr[k] over x
 * = 1 .. k (p = 0, 1, 2; d components each), built on demand up to
 * left / right frames (the reach: the strength, the track, the breaks). */
typedef struct local {
    track_work *t;
    size_t i;
    int d;
    size_t left, right; /* the reach */
    size_t nl, nr;      /* built so far */
    double (*cl)[4][3]; /* [k][p][c]: p = 3 for y^2 */
    double (*cr)[4][3];
    const double (*chart)[3]; /* rotations in one chart for the whole track, or NULL */
    bool rot;                 /* y from t->q (at q_i, or in the chart) rather than t->v */
} local;

/* y of frame j relative to frame i. */
static void fetch(const local *L, size_t j, double y[3])
{
    const track_work *t = L->t;
    if (L->rot && !L->chart) {
        qdiff(t->q[L->i], t->q[j], y);
        return;
    }
    for (int c = 0; c < L->d; c++)
        y[c] = L->chart
                   ? L->chart[j][c] - L->chart[L->i][c]
                   : t->v[j * (size_t)L->d + (size_t)c] - t->v[L->i * (size_t)L->d + (size_t)c];
}

/* Builds the sums on side `side` (-1 left, 1 right) up to k frames. */
static void build(local *L, int side, size_t k)
{
    size_t *n = side < 0 ? &L->nl : &L->nr;
    double(*cs)[4][3] = side < 0 ? L->cl : L->cr;
    while (*n < k) {
        size_t m = *n + 1;
        double y[3], x = side < 0 ? -(double)m : (double)m, xp[3] = {1.0, x, x * x};
        fetch(L, side < 0 ? L->i - m : L->i + m, y);
        for (int p = 0; p < 3; p++)
            for (int c = 0; c < L->d; c++)
                cs[m][p][c] = cs[m - 1][p][c] + xp[p] * y[c];
        for (int c = 0; c < L->d; c++)
            cs[m][3][c] = cs[m - 1][3][c] + y[c] * y[c];
        *n = m;
    }
}

/* The estimate at x = 0 of window w, per component (relative to frame
 * i's value); false when the window's line misses its samples by more
 * than the noise explains (its residual sum of squares, per component,
 * above the window's bound). */
static bool estimate(local *L, const window *w, double sigma, double est[3])
{
    size_t ka = (size_t)-w->a, kb = (size_t)w->b;
    build(L, -1, ka);
    build(L, 1, kb);
    bool fits = true;
    double all = 0.0;
    for (int c = 0; c < L->d; c++) {
        double S[3], beta[3] = {0, 0, 0};
        for (int p = 0; p < 3; p++)
            S[p] = L->cl[ka][p][c] + L->cr[kb][p][c];
        for (int r = 0; r < 3; r++)
            for (int p = 0; p < 3; p++)
                beta[r] += w->inv[r][p] * S[p];
        est[c] = beta[0];
        double rss = L->cl[ka][3][c] + L->cr[kb][3][c];
        for (int p = 0; p < 3; p++)
            rss -= beta[p] * S[p];
        if (rss > w->chi * sigma * sigma)
            fits = false;
        all += rss;
    }
    if (L->d == 3 && all > w->chi3 * sigma * sigma)
        fits = false;
    return fits;
}

/* One side's windows grown by ICI: a window stops growing before the
 * first whose interval misses the intersection of the smaller ones'.
 * *gain gets the chosen window's gain, est its estimate.  False when no
 * window of that side fits (too near a break). */
static bool grow(local *L, const window *ws, size_t nw, double sigma, double gamma, double est[3],
                 double *gain, size_t *chosen)
{
    double lo[3], hi[3];
    bool any = false;
    for (size_t k = 0; k < nw; k++) {
        const window *w = &ws[k];
        if ((size_t)-w->a > L->left || (size_t)w->b > L->right)
            break;
        double e[3];
        bool meets = estimate(L, w, sigma, e) || k == 0;
        for (int c = 0; c < L->d; c++) {
            double l = e[c] - gamma * sigma * w->gain, u = e[c] + gamma * sigma * w->gain;
            if (any) {
                l = fmax(l, lo[c]);
                u = fmin(u, hi[c]);
            }
            if (l > u)
                meets = false;
            lo[c] = l;
            hi[c] = u;
        }
        if (!meets)
            break;
        memcpy(est, e, sizeof e);
        *gain = w->gain;
        *chosen = k;
        any = true;
    }
    return any;
}

/* The filtered value at frame i, relative to its sample: the three
 * sides' ICI estimates averaged by inverse variance, or the joined line's;
 * 0 (the sample) when none fits (an isolated frame between breaks). */
static void ici(local *L, const windows *ws, double sigma, double gamma, double out[3])
{
    double acc[3] = {0, 0, 0}, wsum = 0.0, e[3][3], g[3];
    size_t k[3];
    bool has[3];
    for (int side = 0; side < 3; side++) {
        g[side] = 1.0;
        has[side] = grow(L, ws->w[side], ws->n, sigma, gamma, e[side], &g[side], &k[side]);
        if (!has[side])
            continue;
        double w = 1.0 / (g[side] * g[side]);
        for (int c = 0; c < L->d; c++)
            acc[c] += w * e[side][c];
        wsum += w;
    }
    for (int c = 0; c < L->d; c++)
        out[c] = wsum > 0.0 ? acc[c] / wsum : 0.0;
    if (!has[0] || !has[2])
        return;
    /* the two sides joined: one line over both windows, when its
     * estimate lies within every side's interval */
    const window *u = &ws->u[k[0]][k[2]];
    double eu[3];
    if (!estimate(L, u, sigma, eu))
        return;
    for (int c = 0; c < L->d; c++)
        for (int side = 0; side < 3; side++)
            if (has[side] && fabs(eu[c] - e[side][c]) > gamma * sigma * g[side])
                return;
    memcpy(out, eu, sizeof eu);
}

/* How far the windows around frame i may reach: left and right frames,
 * bounded by the strength, the track and the breaks. */
static void reach(const track_work *t, size_t i, uint32_t strength, size_t *left, size_t *right)
{
    size_t l = 0, r = 0;
    while (l < strength && i - l > 0 && !t->brk[i - l])
        l++;
    while (r < strength && i + r + 1 < t->n && !t->brk[i + r + 1])
        r++;
    *left = l;
    *right = r;
}

/* A local view of frame i of t (sums in the track's scratch). */
static local local_at(track_work *t, size_t i, int d, bool rot, const double (*chart)[3])
{
    local L;
    memset(&L, 0, sizeof L);
    L.t = t;
    L.i = i;
    L.d = d;
    L.rot = rot;
    L.chart = chart;
    L.cl = (double(*)[4][3])t->scratch;
    L.cr = L.cl + t->cap_h + 1;
    memset(L.cl[0], 0, sizeof L.cl[0]);
    memset(L.cr[0], 0, sizeof L.cr[0]);
    reach(t, i, (uint32_t)t->cap_h, &L.left, &L.right);
    return L;
}

/* Filters every frame of t (rotations when rot, in the chart when one is
 * given): res[i] gets frame i's estimate relative to its sample. */
static void filter_track(track_work *t, const windows *ws, double sigma, double gamma, bool rot,
                         const double (*chart)[3], double (*res)[3])
{
    int d = rot ? 3 : t->dim;
    for (size_t i = 0; i < t->n; i++) {
        local L = local_at(t, i, d, rot, chart);
        res[i][1] = res[i][2] = 0.0;
        ici(&L, ws, sigma, gamma, res[i]);
    }
}

/* Filters the d-component series t->v into t->out_v. */
static bool filter_values(track_work *t, const windows *ws, double sigma, double gamma)
{
    size_t d = (size_t)t->dim;
    double(*res)[3] = malloc(t->n * sizeof *res);
    if (!res)
        return false;
    filter_track(t, ws, sigma, gamma, false, NULL, res);
    for (size_t i = 0; i < t->n; i++)
        for (size_t c = 0; c < d; c++)
            t->out_v[i * d + c] = t->v[i * d + c] + res[i][c];
    free(res);
    return true;
}

/* The largest rotation angle (radians) of t->q from their mean, and the
 * mean (unit) in c. */
static double spread_of(const track_work *t, double c[4])
{
    double m[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < t->n; i++)
        for (int k = 0; k < 4; k++)
            m[k] += t->q[i][k];
    double nn = sqrt(dot4(m, m));
    if (nn < 1e-9)
        return INFINITY;
    for (int k = 0; k < 4; k++)
        c[k] = m[k] / nn;
    double worst = 0.0;
    for (size_t i = 0; i < t->n; i++) {
        double v[3];
        qdiff(c, t->q[i], v);
        worst = fmax(worst, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    return worst;
}

/* Filters the rotations t->q into t->out_q, on the rotation group: in
 * the tangent space at each sample, or (a track that stays within
 * CHART_RAD of its mean rotation) in the one at the mean, where the
 * log map bends straight lines by less than the noise. */
static bool filter_rotations(track_work *t, const windows *ws, double sigma)
{
    double c[4];
    double(*chart)[3] = NULL;
    if (spread_of(t, c) <= CHART_RAD) {
        chart = malloc(t->n * sizeof *chart);
        if (!chart)
            return false;
        for (size_t i = 0; i < t->n; i++)
            qdiff(c, t->q[i], chart[i]);
    }
    double(*res)[3] = malloc(t->n * sizeof *res);
    if (!res) {
        free(chart);
        return false;
    }
    filter_track(t, ws, sigma, GAMMA, true, (const double(*)[3])chart, res);
    for (size_t i = 0; i < t->n; i++) {
        double *e = res[i], dq[4];
        if (chart) {
            double v[3] = {chart[i][0] + e[0], chart[i][1] + e[1], chart[i][2] + e[2]};
            qexp(v, dq);
            pki_qd_mul(c, dq, t->out_q[i]);
        } else {
            qexp(e, dq);
            pki_qd_mul(t->q[i], dq, t->out_q[i]);
        }
        double nn = sqrt(dot4(t->out_q[i], t->out_q[i]));
        for (int k = 0; k < 4; k++)
            t->out_q[i][k] /= nn;
    }
    free(res);
    free(chart);
    return true;
}

/* ---- breaks and contacts ---- */

/* Marks brk[i] where the step from frame i-1 to i is a jump: above
 * `floor` and ten noise deviations of its size, and four times the steps
 * on either side.  step[i] (i >= 1) holds the steps. */
static size_t mark_jumps(track_work *t, const double *step, double noise, double floor)
{
    size_t jumps = 0;
    for (size_t i = 1; i < t->n; i++) {
        double l = i > 1 ? step[i - 1] : 0.0, r = i + 1 < t->n ? step[i + 1] : 0.0;
        if (step[i] > fmax(floor, 10.0 * noise) && step[i] > 4.0 * fmax(l, r) && !t->brk[i]) {
            t->brk[i] = 1;
            jumps++;
        }
    }
    return jumps;
}

/* One contact: frames a .. b (offsets in the track) and the position held. */
typedef struct contact {
    size_t a, b;
    double p[3];
} contact;

typedef struct contacts {
    contact *v;
    size_t n, cap;
} contacts;

/* Sums over a run of positions: enough for its line fit. */
typedef struct run_sums {
    double n, st, stt, sp[3], stp[3], spp[3];
} run_sums;

static void run_add(run_sums *r, double t, const double p[3])
{
    r->n += 1.0;
    r->st += t;
    r->stt += t * t;
    for (int c = 0; c < 3; c++) {
        r->sp[c] += p[c];
        r->stp[c] += t * p[c];
        r->spp[c] += p[c] * p[c];
    }
}

/* Is the run still: a line fitted to it travels less than three times
 * the deviation such a fit has on noise alone (and at most `floor` when
 * that is larger), and the samples scatter about it no more than noise
 * of deviation sigma does (1.5 sigma per axis, root mean square)? */
static bool run_still(const run_sums *r, double sigma, double floor)
{
    double sxx = r->stt - r->st * r->st / r->n;
    if (sxx <= 0.0)
        return true;
    double travel2 = 0.0, rss = 0.0;
    for (int c = 0; c < 3; c++) {
        double b = (r->stp[c] - r->st * r->sp[c] / r->n) / sxx;
        travel2 += b * b * (r->n - 1.0) * (r->n - 1.0);
        rss += r->spp[c] - r->sp[c] * r->sp[c] / r->n - b * b * sxx;
    }
    double dev = sigma * (r->n - 1.0) * sqrt(1.0 / sxx); /* a fitted travel's, per axis */
    return sqrt(travel2) <= fmax(3.0 * sqrt(3.0) * dev, floor) &&
           sqrt(fmax(rss, 0.0) / (3.0 * r->n)) <= 1.5 * sigma;
}

/* Is p within 3.5 noise deviations of the mean of the run's other
 * frames (a distance: noise alone reaches it once in two hundred)?  in:
 * p is one of the run's frames. */
static bool near_run(const run_sums *r, const double p[3], double sigma, bool in)
{
    double d2 = 0.0, n = in ? r->n - 1.0 : r->n;
    for (int c = 0; c < 3; c++) {
        double d = p[c] - (r->sp[c] - (in ? p[c] : 0.0)) / n;
        d2 += d * d;
    }
    return sqrt(d2) <= fmax(3.5 * sigma, CONTACT_MIN);
}

/* A contact's first (last) frames that are still landing (lifting): of
 * the first m frames, 1 <= m <= TRIM_FRAMES, the count whose mean lies
 * farthest from the mean of the rest in noise deviations of such a mean
 * (sigma / sqrt(m) per axis), when it is over 3.5 of them and
 * CONTACT_MIN units: a foot that arrives over a few frames moves each
 * by less than the noise, and the run's test of one frame at a time
 * lets them in.  At least CONTACT_FRAMES frames stay. */
static void trim_edge(const track_work *t, double sigma, contact *k, bool start)
{
    size_t len = k->b - k->a + 1, best = 0;
    double best_z = 0.0;
    for (size_t m = 1; m <= TRIM_FRAMES && m + CONTACT_FRAMES <= len; m++) {
        double edge[3] = {0, 0, 0}, rest[3] = {0, 0, 0};
        for (size_t j = 0; j < len; j++) {
            size_t f = start ? k->a + j : k->b - j;
            for (int c = 0; c < 3; c++)
                (j < m ? edge : rest)[c] += t->v[3 * f + (size_t)c];
        }
        double d2 = 0.0;
        for (int c = 0; c < 3; c++) {
            double d = edge[c] / (double)m - rest[c] / (double)(len - m);
            d2 += d * d;
        }
        double d = sqrt(d2), z = d * sqrt((double)m) / sigma;
        if (d > CONTACT_MIN && z > 3.5 && z > best_z) {
            best_z = z;
            best = m;
        }
    }
    if (start)
        k->a += best;
    else
        k->b -= best;
}

/* The still runs of at least CONTACT_FRAMES frames, found from the left
 * and grown while they stay still (run_still). */
static bool find_contacts(const track_work *t, double sigma, contacts *out)
{
    size_t s = 0;
    while (s + CONTACT_FRAMES <= t->n) {
        run_sums r;
        memset(&r, 0, sizeof r);
        size_t e = s;
        bool brk = false;
        for (; e < s + CONTACT_FRAMES; e++) {
            brk = brk || (e > s && t->brk[e]);
            run_add(&r, (double)(e - s), t->v + 3 * e);
        }
        bool near = true;
        for (size_t j = s; j < e && near; j++)
            near = near_run(&r, t->v + 3 * j, sigma, true);
        if (brk || !near || !run_still(&r, sigma, CONTACT_MIN)) {
            s++;
            continue;
        }
        for (; e < t->n && !t->brk[e] && near_run(&r, t->v + 3 * e, sigma, false); e++) {
            run_sums grown = r;
            run_add(&grown, (double)(e - s), t->v + 3 * e);
            if (!run_still(&grown, sigma, CONTACT_MIN))
                break;
            r = grown;
        }
        contact *k = pki_grow_push(&out->v, &out->n, &out->cap, sizeof *out->v);
        if (!k)
            return false;
        k->a = s;
        k->b = e - 1;
        trim_edge(t, sigma, k, true);
        trim_edge(t, sigma, k, false);
        memset(&r, 0, sizeof r);
        for (size_t j = k->a; j <= k->b; j++)
            run_add(&r, (double)(j - k->a), t->v + 3 * j);
        for (int c = 0; c < 3; c++)
            k->p[c] = r.sp[c] / r.n;
        s = e;
    }
    return true;
}

/* ---- peaks ---- */

/* The rotation angle (degrees) of every q[i] from the mean of q. */
static void angles_from_mean(double (*q)[4], size_t n, const double mean[4], double *out)
{
    for (size_t i = 0; i < n; i++) {
        double v[3];
        qdiff(mean, q[i], v);
        out[i] = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * RAD2DEG;
    }
}

/* The largest loss of peak angle from a (input) to b (output) at the
 * peaks of fast swings of a; *at gets its frame offset, *count how many
 * peaks there are. */
static double peak_loss(const double *a, const double *b, size_t n, size_t *at, size_t *count)
{
    const size_t W = PEAK_FRAMES;
    double worst = 0.0;
    for (size_t i = W; i + W < n; i++) {
        double lo_l = a[i], lo_r = a[i];
        bool top = true;
        for (size_t j = i - W; j <= i + W && top; j++) {
            if (a[j] > a[i] || (a[j] == a[i] && j < i))
                top = false;
            if (j < i)
                lo_l = fmin(lo_l, a[j]);
            if (j > i)
                lo_r = fmin(lo_r, a[j]);
        }
        if (!top || a[i] - lo_l < PEAK_DEG || a[i] - lo_r < PEAK_DEG)
            continue;
        (*count)++;
        double got = 0.0;
        for (size_t j = i - 2; j <= i + 2; j++)
            got = fmax(got, b[j]);
        if (a[i] - got > worst) {
            worst = a[i] - got;
            *at = i;
        }
    }
    return worst;
}

/* ---- the driver ---- */

/* The leg IK bones whose contacts are held. */
static const char *const CONTACT_BONES[] = {"左足ＩＫ", "右足ＩＫ", "左つま先ＩＫ", "右つま先ＩＫ"};

typedef struct run {
    const pk_motion *m;
    const pk_smooth_options *o;
    pk_smooth_stats *st;
    pk_name_id contact_id[4];
    double sum_deg, sum_pos; /* changes, for the means */
    size_t n_deg, n_pos;
} run;

static bool is_contact_bone(const run *r, pk_name_id id)
{
    for (int k = 0; k < 4; k++)
        if (r->contact_id[k] == id && id != PK_NO_NAME)
            return true;
    return false;
}

/* What one track is to be: its noise per channel (0: clean, left as
 * sampled) and whether it changes at all. */
typedef struct verdict {
    double rot, pos, morph; /* the deviations used (radians, units, weight) */
    bool smooth;
} verdict;

/* Samples the track into t (every frame of its first .. last key). */
static bool sample_track(const pk_motion *m, const pk_track *tk, bool morph, track_work *t,
                         uint32_t strength)
{
    memset(t, 0, sizeof *t);
    const uint32_t *keys = tk->keys;
    t->f0 = morph ? m->morphs[keys[0]].frame : m->bones[keys[0]].frame;
    uint32_t f1 =
        morph ? m->morphs[keys[tk->count - 1]].frame : m->bones[keys[tk->count - 1]].frame;
    t->n = (size_t)(f1 - t->f0) + 1;
    t->dim = morph ? 1 : 3;
    size_t d = (size_t)t->dim;
    t->cap_h = strength;
    t->v = malloc(t->n * d * sizeof *t->v);
    t->out_v = malloc(t->n * d * sizeof *t->out_v);
    t->brk = calloc(t->n, 1);
    t->scratch = malloc((2 * ((size_t)strength + 1) * SUMS + t->n * 3) * sizeof *t->scratch);
    if (!morph) {
        t->q = malloc(t->n * sizeof *t->q);
        t->out_q = malloc(t->n * sizeof *t->out_q);
    }
    if (!t->v || !t->out_v || !t->brk || !t->scratch || (!morph && (!t->q || !t->out_q)))
        return false;
    pk_cursor c;
    pk_cursor_init(&c, m, tk);
    for (size_t i = 0; i < t->n; i++) {
        double f = (double)t->f0 + (double)i;
        if (morph) {
            t->v[i] = pk_cursor_morph(&c, f);
            continue;
        }
        float pos[3], rot[4];
        pk_cursor_bone(&c, f, pos, rot);
        for (int k = 0; k < 3; k++)
            t->v[3 * i + (size_t)k] = pos[k];
        double q[4] = {rot[0], rot[1], rot[2], rot[3]};
        double nn = sqrt(dot4(q, q));
        for (int k = 0; k < 4; k++)
            t->q[i][k] = nn > 0.0 ? q[k] / nn : (k == 3);
        if (i > 0 && dot4(t->q[i], t->q[i - 1]) < 0.0)
            for (int k = 0; k < 4; k++)
                t->q[i][k] = -t->q[i][k];
    }
    return true;
}

/* The noise of each channel of a sampled track (the options' when given)
 * and whether anything is to be smoothed. */
static verdict judge(const run *r, track_work *t, bool morph, size_t keys)
{
    verdict v = {0, 0, 0, false};
    double *tmp = t->scratch + 2 * (t->cap_h + 1) * SUMS;
    bool keyed = keys * KEYED_GAP <= t->n;
    if (morph) {
        v.morph = r->o->noise_morph > 0.0 ? r->o->noise_morph
                  : keyed                 ? 0.0
                                          : noise_of(t->v, t->n, 1, 3, tmp);
        if (v.morph < CLEAN_MORPH)
            v.morph = 0.0;
        v.smooth = v.morph > 0.0;
        return v;
    }
    bool moves = false;
    for (size_t i = 1; i < t->n && !moves; i++)
        for (int c = 0; c < 3; c++)
            if (t->v[3 * i + (size_t)c] != t->v[(size_t)c])
                moves = true;
    if (moves)
        v.pos = r->o->noise_pos > 0.0 ? r->o->noise_pos
                : keyed               ? 0.0
                                      : noise_of(t->v, t->n, 3, 3, tmp);
    if (v.pos < CLEAN_POS)
        v.pos = 0.0;
    if (r->o->noise_deg > 0.0) {
        v.rot = r->o->noise_deg / RAD2DEG;
    } else if (t->n >= 8 && !keyed) {
        /* frame-to-frame rotation vectors, kept after the scratch's tmp
         * part holds them; their second differences are third
         * differences of the angle */
        double *w = t->out_v; /* free until filtering */
        for (size_t i = 0; i + 1 < t->n; i++)
            qdiff(t->q[i], t->q[i + 1], w + 3 * i);
        v.rot = noise_of(w, t->n - 1, 3, 2, tmp);
    }
    if (v.rot * RAD2DEG < CLEAN_DEG)
        v.rot = 0.0;
    v.smooth = v.rot > 0.0 || v.pos > 0.0;
    return v;
}

/* Breaks at jumps; contacts on leg IK bones (held, and breaks around
 * them).  The contacts found are left in *cs. */
static bool breaks(run *r, track_work *t, const verdict *v, bool morph, bool contact_bone,
                   contacts *cs)
{
    double *step = t->scratch + 2 * (t->cap_h + 1) * SUMS;
    step[0] = 0.0;
    if (morph) {
        for (size_t i = 1; i < t->n; i++)
            step[i] = fabs(t->v[i] - t->v[i - 1]);
        r->st->jumps += mark_jumps(t, step, v->morph * sqrt(2.0), 0.3);
        return true;
    }
    if (v->rot > 0.0) {
        for (size_t i = 1; i < t->n; i++) {
            double w[3];
            qdiff(t->q[i - 1], t->q[i], w);
            step[i] = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        }
        r->st->jumps += mark_jumps(t, step, v->rot * sqrt(6.0), 10.0 / RAD2DEG);
    }
    if (v->pos > 0.0) {
        for (size_t i = 1; i < t->n; i++) {
            double d2 = 0.0;
            for (int c = 0; c < 3; c++) {
                double d = t->v[3 * i + (size_t)c] - t->v[3 * (i - 1) + (size_t)c];
                d2 += d * d;
            }
            step[i] = sqrt(d2);
        }
        r->st->jumps += mark_jumps(t, step, v->pos * sqrt(6.0), 0.5);
        if (contact_bone && r->o->contacts && !find_contacts(t, v->pos, cs))
            return false;
    }
    return true;
}

/* Appends frame i of the smoothed track as a key of out. */
static bool push_key(pk_motion *out, const track_work *t, pk_name_id name, bool morph, size_t i,
                     const uint8_t linear[64])
{
    uint32_t f = t->f0 + (uint32_t)i;
    if (morph) {
        pk_morph_key *k = pk_motion_push_morph(out);
        if (!k)
            return false;
        k->name = name;
        k->frame = f;
        k->weight = (float)t->out_v[i];
        return true;
    }
    pk_bone_key *k = pk_motion_push_bone(out);
    if (!k)
        return false;
    k->name = name;
    k->frame = f;
    for (int c = 0; c < 3; c++)
        k->pos[c] = (float)t->out_v[3 * i + (size_t)c];
    for (int c = 0; c < 4; c++)
        k->rot[c] = (float)t->out_q[i][c];
    memcpy(k->interp, linear, 64);
    return true;
}

/* Smooths a sampled track with its verdict: filtered channels into out_*,
 * clean ones copied; contacts held.  The change and peak figures go to the
 * stats. */
static bool smooth_track(run *r, track_work *t, const verdict *v, bool morph, pk_name_id name,
                         const contacts *cs)
{
    windows ws;
    windows_make(&ws, r->o->strength);
    size_t d = (size_t)t->dim;
    double chg_pos = 0.0;
    if (morph) {
        if (!filter_values(t, &ws, v->morph, GAMMA))
            return false;
        for (size_t i = 0; i < t->n; i++) {
            double e = fabs(t->out_v[i] - t->v[i]);
            r->st->moved_morph = fmax(r->st->moved_morph, e);
        }
        return true;
    }
    if (v->pos > 0.0) {
        for (size_t k = 0; k < cs->n; k++) {
            if (cs->v[k].a > 0)
                t->brk[cs->v[k].a] = 1;
            if (cs->v[k].b + 1 < t->n)
                t->brk[cs->v[k].b + 1] = 1;
        }
        if (!filter_values(t, &ws, v->pos, GAMMA_POS))
            return false;
        for (size_t k = 0; k < cs->n; k++) {
            for (size_t i = cs->v[k].a; i <= cs->v[k].b; i++)
                memcpy(t->out_v + 3 * i, cs->v[k].p, sizeof cs->v[k].p);
            r->st->contacts++;
            r->st->contact_frames += cs->v[k].b - cs->v[k].a + 1;
        }
        for (size_t i = 0; i < t->n; i++) {
            double d2 = 0.0;
            for (size_t c = 0; c < 3; c++) {
                double e = t->out_v[3 * i + c] - t->v[3 * i + c];
                d2 += e * e;
            }
            chg_pos = fmax(chg_pos, sqrt(d2));
            r->sum_pos += sqrt(d2);
            r->n_pos++;
        }
        r->st->moved_pos = fmax(r->st->moved_pos, chg_pos);
    } else {
        memcpy(t->out_v, t->v, t->n * d * sizeof *t->v);
    }
    if (v->rot > 0.0) {
        /* the breaks of both channels (jumps, the edges of contacts)
         * bound the rotation's windows too */
        if (!filter_rotations(t, &ws, v->rot))
            return false;
        for (size_t i = 0; i < t->n; i++) {
            double w[3];
            qdiff(t->q[i], t->out_q[i], w);
            double e = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * RAD2DEG;
            r->st->moved_deg = fmax(r->st->moved_deg, e);
            r->sum_deg += e;
            r->n_deg++;
        }
        /* peaks: the angle from the input's mean rotation */
        double mean[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < t->n; i++)
            for (int c = 0; c < 4; c++)
                mean[c] += t->q[i][c];
        double nn = sqrt(dot4(mean, mean));
        if (nn > 1e-9) {
            for (int c = 0; c < 4; c++)
                mean[c] /= nn;
            double *a = malloc(2 * t->n * sizeof *a);
            if (!a)
                return false;
            angles_from_mean(t->q, t->n, mean, a);
            angles_from_mean(t->out_q, t->n, mean, a + t->n);
            size_t at = 0;
            double loss = peak_loss(a, a + t->n, t->n, &at, &r->st->peaks);
            if (loss > r->st->peak_loss_deg) {
                r->st->peak_loss_deg = loss;
                r->st->peak_bone = name;
                r->st->peak_frame = t->f0 + (uint32_t)at;
            }
            free(a);
        }
    } else {
        memcpy(t->out_q, t->q, t->n * sizeof *t->q);
    }
    return true;
}

/* A track spanning SPAN_MAX frames or more (a key far from the others:
 * a damaged or mistyped frame) is refused, as bake refuses it: smoothing
 * samples and writes every frame.  True (logged) when tk is one. */
static bool too_long(const pk_motion *m, const pk_track *tk, bool morph, pk_log *log)
{
    uint32_t f0 = morph ? m->morphs[tk->keys[0]].frame : m->bones[tk->keys[0]].frame;
    uint32_t f1 =
        morph ? m->morphs[tk->keys[tk->count - 1]].frame : m->bones[tk->keys[tk->count - 1]].frame;
    if (f1 - f0 < SPAN_MAX)
        return false;
    pk_error(log, PK_E_UNSUPPORTED,
             "%s '%s' (frames %u-%u) spans %u frames: smoothing writes a key at every one, and a "
             "track may span at most %u; nothing smoothed (a key that far from the others is most "
             "likely a damaged or mistyped frame: fix it first)",
             morph ? "morph" : "bone", pk_names_utf8(m->names, tk->name), f0, f1, f1 - f0 + 1,
             SPAN_MAX - 1);
    return true;
}

static bool selected(const pk_motion *m, const pk_selection *sel, pk_name_id name)
{
    if (!sel)
        return true;
    size_t len;
    const uint8_t *raw = pk_names_raw(m->names, name, &len);
    return pk_selection_has(sel, raw, len);
}

/* One selected track: sampled and judged (pass 1: *v), or smoothed and
 * appended to out (pass 2). */
static bool do_track(run *r, const pk_track *tk, bool morph, verdict *v, pk_motion *out,
                     const uint8_t linear[64])
{
    track_work t;
    contacts cs = {NULL, 0, 0};
    bool ok = sample_track(r->m, tk, morph, &t, r->o->strength);
    if (ok && !out) {
        *v = judge(r, &t, morph, tk->count);
    } else if (ok) {
        ok = breaks(r, &t, v, morph, !morph && is_contact_bone(r, tk->name), &cs) &&
             smooth_track(r, &t, v, morph, tk->name, &cs);
        for (size_t i = 0; ok && i < t.n; i++)
            ok = push_key(out, &t, tk->name, morph, i, linear);
    }
    free(cs.v);
    track_free(&t);
    return ok;
}

/* Drops the records of the tracks marked in `drop` (by name id) from the
 * bones (morphs) of out; their count goes to *removed. */
static void drop_tracks(pk_motion *out, const uint8_t *drop, size_t nn, bool morphs)
{
    size_t w = 0, n = morphs ? out->nmorphs : out->nbones;
    for (size_t i = 0; i < n; i++) {
        pk_name_id id = morphs ? out->morphs[i].name : out->bones[i].name;
        if (id < nn && drop[id])
            continue;
        if (morphs)
            out->morphs[w++] = out->morphs[i];
        else
            out->bones[w++] = out->bones[i];
    }
    if (morphs)
        out->nmorphs = w;
    else
        out->nbones = w;
}

pk_motion *pk_motion_smooth(const pk_motion *m, const pk_smooth_options *o, pk_smooth_stats *st,
                            pk_log *log)
{
    pk_smooth_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    st->peak_bone = PK_NO_NAME;
    if (o->strength < 2 || o->strength > PK_SMOOTH_STRENGTH_MAX) {
        pk_error(log, PK_E_USAGE, "the strength must be 2 to %u frames", PK_SMOOTH_STRENGTH_MAX);
        return NULL;
    }
    if (!(o->noise_deg >= 0.0) || !(o->noise_pos >= 0.0) || !(o->noise_morph >= 0.0) ||
        !isfinite(o->noise_deg) || !isfinite(o->noise_pos) || !isfinite(o->noise_morph)) {
        pk_error(log, PK_E_USAGE, "noise sizes must be positive numbers (or 0: estimated)");
        return NULL;
    }
    for (int s = 0; s < PK_SEC_COUNT; s++)
        st->keys_before[s] = pk_motion_count(m, (pk_section)s);
    run r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.o = o;
    r.st = st;
    for (int k = 0; k < 4; k++) {
        uint8_t *raw;
        size_t len;
        r.contact_id[k] = PK_NO_NAME;
        if (pk_utf8_to_cp932(CONTACT_BONES[k], &raw, &len) == 0) {
            r.contact_id[k] = pk_names_find(m->names, raw, len);
            free(raw);
        }
    }
    pk_tracks *tr = pk_tracks_build(m, log);
    pk_motion *out = pk_motion_clone(m);
    size_t nn = pk_names_count(m->names);
    uint8_t *drop_b = calloc(nn + 1, 1), *drop_m = calloc(nn + 1, 1);
    size_t nb = tr ? tr->nbones : 0, nmo = tr ? tr->nmorphs : 0;
    verdict *vb = calloc(nb + 1, sizeof *vb), *vm = calloc(nmo + 1, sizeof *vm);
    if (!tr || !out || !drop_b || !drop_m || !vb || !vm)
        goto oom;
    uint8_t linear[64];
    const uint8_t cp[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pk_interp_set(linear, cp, false);
    size_t nselected = 0;
    double ntracks = 2.0 * (double)(nb + nmo) + 1.0; /* both passes */
    /* pass 1: which tracks are noisy */
    for (int morph = 0; morph < 2; morph++) {
        size_t n = morph ? nmo : nb;
        if (morph && !o->morphs)
            break;
        for (size_t i = 0; i < n; i++) {
            const pk_track *tk = morph ? &tr->morphs[i] : &tr->bones[i];
            verdict *v = morph ? &vm[i] : &vb[i];
            pk_progress(log, (double)(morph ? nb + i : i) / ntracks, "smoothing");
            if (!selected(m, o->bones, tk->name))
                continue;
            nselected++;
            if (tk->count < 2)
                continue;
            if (too_long(m, tk, morph, log))
                goto fail;
            if (!do_track(&r, tk, morph, v, NULL, linear))
                goto oom;
            if (v->smooth)
                (morph ? drop_m : drop_b)[tk->name] = 1;
            else
                st->clean_tracks++;
            if (v->smooth) {
                if (morph) {
                    st->morph_tracks++;
                    st->noise_morph = fmax(st->noise_morph, v->morph);
                } else {
                    st->bone_tracks++;
                    st->noise_deg = fmax(st->noise_deg, v->rot * RAD2DEG);
                    st->noise_pos = fmax(st->noise_pos, v->pos);
                }
            }
        }
    }
    if (o->bones && nselected == 0) {
        pk_error(log, PK_E_NOT_FOUND,
                 "the selection matches no bone%s the motion keys: nothing to smooth",
                 o->morphs ? " or morph" : "");
        goto fail;
    }
    /* pass 2: their records dropped, the smoothed keys appended */
    drop_tracks(out, drop_b, nn, false);
    drop_tracks(out, drop_m, nn, true);
    for (int morph = 0; morph < 2; morph++) {
        size_t n = morph ? nmo : nb;
        for (size_t i = 0; i < n; i++) {
            const pk_track *tk = morph ? &tr->morphs[i] : &tr->bones[i];
            verdict *v = morph ? &vm[i] : &vb[i];
            pk_progress(log, (double)(nb + nmo + (morph ? nb + i : i)) / ntracks, "smoothing");
            if (v->smooth && !do_track(&r, tk, morph, v, out, linear))
                goto oom;
        }
    }
    st->mean_deg = r.n_deg ? r.sum_deg / (double)r.n_deg : 0.0;
    st->mean_pos = r.n_pos ? r.sum_pos / (double)r.n_pos : 0.0;
    for (int s = 0; s < PK_SEC_COUNT; s++)
        st->keys_after[s] = pk_motion_count(out, (pk_section)s);
    free(drop_b);
    free(drop_m);
    free(vb);
    free(vm);
    pk_tracks_free(tr);
    return out;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
fail:
    free(drop_b);
    free(drop_m);
    free(vb);
    free(vm);
    pk_tracks_free(tr);
    pk_motion_free(out);
    return NULL;
}
