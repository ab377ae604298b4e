/* curve.h — MMD's interpolation curves as geometry (internal): evaluation in
 * double, subdivision (de Casteljau), and fitting curves to MMD's 0..127
 * control-point grid.  The one root solver is pki_bezier_param (bezier.c).
 *
 * A grid curve is four bytes cp = {x1, y1, x2, y2} (0..127, divided by
 * 127), the cubic Bezier (0,0), (x1,y1), (x2,y2), (1,1); its "progress" at a
 * normalised time s in [0, 1] is y(t) with x(t) = s.  Progress never leaves
 * [0, 1] and never decreases (all control values lie in [0, 1]), so data
 * that overshoots its end values or turns back has no exact curve.
 *
 * Users: overlay.c (cutting a crossed segment at an edge and re-fitting
 * each piece), and the fitters below for keyframe reduction and
 * retarget's fold (a channel sampled at every integer frame between two
 * keys, fitted by one curve or refused). */
#ifndef PKI_MATH_CURVE_H
#define PKI_MATH_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MMD's default linear curve as stored by MMD (20, 20, 107, 107). */
extern const uint8_t pki_curve_linear[4];

/* True when cp is a straight line (x1 == y1 and x2 == y2): progress = s. */
bool pki_curve_is_linear(const uint8_t cp[4]);

/* Progress of grid curve cp at normalised time s (clamped to [0, 1]), in
 * double (the exact value the sampler rounds to float). */
double pki_curve_progress(const uint8_t cp[4], double s);

/* The piece of grid curve cp between normalised times s0 < s1, rescaled
 * to the unit square (its own start (0,0) and end (1,1)): n = {x1, y1, x2,
 * y2} as real numbers (y may leave [0, 1] for a piece that is not
 * monotonic in a real sense; that never happens for grid curves).  False
 * when the piece is degenerate: no extent in time or in progress. */
bool pki_curve_sub(const uint8_t cp[4], double s0, double s1, double n[4]);

/* Worst |progress(q, s_i) - want[i]| * span over the nf samples at s_i =
 * (i+1)/(nf+1): the error in value units of curve q for a channel that
 * moves `span` units over the piece. */
double pki_curve_error(const uint8_t q[4], const double *want, size_t nf, double span);

/* Rounds the real curve n (as from pki_curve_sub) to the grid and searches
 * the rounded point's neighbours (up to 2 steps in each byte) for the grid
 * curve with the smallest pki_curve_error; stops at the first radius whose
 * best is within tol.  Fills q with the best found; returns whether it is
 * within tol. */
bool pki_curve_round(const double n[4], const double *want, size_t nf, double span, double tol,
                     uint8_t q[4]);

/* ---- fitting sampled channels (keyframe reduction, retarget's fold) ----
 *
 * A channel is sampled at every integer frame of a segment: v[0] is the
 * value of the key that starts it, v[n] of the key that ends it (n >= 1),
 * v[1..n-1] the frames between.  A fit finds the grid curve the ending
 * key must store so that MMD's sampler reproduces every v[i] within tol,
 * or says that no curve can.  Returns 1 with cp filled (and *worst, when
 * not NULL, the largest error met), 0 when no grid curve is within tol
 * (*worst then holds the best curve's error), -1 on bad input (n == 0,
 * a non-finite value, out of memory).  A channel that does not move fits
 * the linear curve when every sample is within tol of the end values. */

/* Translation (one axis) or any other scalar that MMD interpolates as
 * a + (b - a) * progress. tol in the value's units. */
int pki_curve_fit_scalar(const float *v, size_t n, double tol, uint8_t cp[4], double *worst);

/* Rotation: q[i] are quaternions (x, y, z, w; any scale, any sign); the
 * sampler slerps from q[0] to q[n] by the curve's progress, so the
 * progress of sample i is its angle along that arc.  tol in degrees of
 * rotation (pk_quat_angle_deg's measure); samples off the arc count with
 * their distance from it. */
int pki_curve_fit_rot(const float (*q)[4], size_t n, double tol_deg, uint8_t cp[4], double *worst);
/* Whether a rotation sample between q[0] and q[n] lies farther than
 * tol_deg from the great circle through them: then no curve fits (MMD's
 * rotation between two keys stays on that circle) and pki_curve_fit_rot,
 * which measures the distance with an arcsine after an arctangent per
 * sample, refuses it.  Asked with products alone, before any fit: the
 * bulk of the probes of a keyed dance, whose keys mostly stay, end here. */
bool pki_curve_off_arc(const float (*q)[4], size_t n, double tol_deg);

/* The same fits with a choice of effort (keyframe reduction, engine/ops/
 * reduce.c, probes thousands of segments, most of which cannot fit):
 * PKI_FIT_FULL is what the functions above do; PKI_FIT_FAST refuses data
 * that is not within tol of a monotonic run first, scans the x bytes in
 * steps of 16 before descending, refuses a candidate whose least-squares
 * curve is far outside tol, takes the first grid curve within tol and
 * skips the final ring search.  FAST may refuse a segment FULL would fit
 * (never the other way round: a curve it returns is checked against every
 * sample the same way). */
typedef enum pki_fit_effort {
    PKI_FIT_FULL = 0,
    PKI_FIT_FAST = 1,
    PKI_FIT_QUICK = 2, /* FAST, and a segment whose coarse scan's best is
                         beyond 4 tolerances (FAST: 16) is refused without
                         descending, and a grid curve's check stops at its
                         first sample past tol (when none fits, *worst and
                         cp are the linear curve's): reduction's search,
                         one failing probe per key it keeps */
    PKI_FIT_DIRECT = 3 /* FAST's steering samples, but no descent: three
                          fixed x-byte pairs and the coarse scan's best
                          four, each with every grid y whose curve is
                          within tol of the steering samples (a polygon
                          walked row by row), each checked as FAST checks
                          it; refused when none is.  Cheaper than FAST on
                          short pieces, and it may fit pieces FAST refuses
                          and refuse pieces FAST fits (retarget's key
                          search, retarget_fit.c); FAST without a cache */
} pki_fit_effort;
/* A cache of x(t) = s solutions per x-byte pair (a table of t at 257
 * values of s, built on first use, about 1 KB a pair) that steers the
 * search instead of solving each time, and of the least-squares bases
 * the search scores cells with, by segment length (up to 7 MB, on first
 * use; the same scores as without them), and DIRECT's 84 cells with exact
 * t, by segment length (20 KB a length, on first use); the final check of
 * every curve still solves exactly.  NULL: no cache.  One cache per thread; free with
 * pki_curve_cache_free. */
typedef struct pki_curve_cache pki_curve_cache;
pki_curve_cache *pki_curve_cache_new(void);
void pki_curve_cache_free(pki_curve_cache *c);
/* The core of every fit: progress values p[i] wanted at s_i = i/n (p[0]
 * = 0, p[n] = 1 implied; p[1..n-1] given as p[0..n-2]), errors scaled by
 * span into value units, plus extra[i] >= 0 (an error no curve can
 * remove, e.g. off the slerp arc; NULL for none) added to each sample's
 * error. */
int pki_curve_fit_progress_ex(const double *p, size_t n, double span, const double *extra,
                              double tol, pki_fit_effort effort, pki_curve_cache *cache,
                              uint8_t cp[4], double *worst);
int pki_curve_fit_scalar_ex(const float *v, size_t n, double tol, pki_fit_effort effort,
                            pki_curve_cache *cache, uint8_t cp[4], double *worst);
/* pki_curve_fit_scalar_ex with extra[i - 1] >= 0 (value units) added to the
 * error of sample i = 1..n-1, as in pki_curve_fit_progress_ex: sample i must
 * come within tol - extra[i - 1] (NULL: within tol).  Reduction fits the
 * axes of a translation one after another, each within what the earlier
 * ones left of a distance. */
int pki_curve_fit_scalar_extra_ex(const float *v, size_t n, const double *extra, double tol,
                                  pki_fit_effort effort, pki_curve_cache *cache, uint8_t cp[4],
                                  double *worst);
int pki_curve_fit_rot_ex(const float (*q)[4], size_t n, double tol_deg, pki_fit_effort effort,
                         pki_curve_cache *cache, uint8_t cp[4], double *worst);

#endif
