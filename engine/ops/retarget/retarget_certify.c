/*
 * retarget_certify.c — whether any camera can frame one frame's points
 * within the goal: a branch and bound over the rotations (retarget.h,
 * pki_camera_certify; a check for tests/bench/bench_camera_bound.c and
 * the unit tests, never run by the camera's correction itself).
 *
 * What it decides.  Given B's points p_i (world) and A's screen points
 * a_i (screen heights from the centre, x right, y up: what the camera's
 * measure compares), is there a camera of MMD's model (any rotation Q
 * from world to camera space, any eye, any vertical view angle from
 * fov_min to fov_max degrees, continuous) that puts every point at a depth
 * of at least NEAR in front of the eye and within goal of a_i on the
 * screen (the disc of radius goal)?  Out of reach (PKI_CERT_OUT) is a
 * proof of none: every cube of rotations was shown to hold no camera,
 * either by the squares of side 2·goal around each a_i (which hold the
 * disc) or by the disc itself.  Reachable (PKI_CERT_REACH) comes with a
 * witness: a camera (its view angle a whole degree, as MMD keys it) whose
 * largest distance, measured on the disc, is within goal.  Open
 * (PKI_CERT_OPEN): neither within the budget of cells.
 *
 * For a fixed rotation.  In camera space q_i = Q·(p_i − c) + τ (c: the
 * points' centroid, τ free) a point lands at f·(q_x, q_y)/q_z with
 * f = 1/(2·tan(fov/2)).  With the depth q_z > 0 the square
 * |f·q_x/q_z − a_x| ≤ goal is two inequalities linear in
 * (f, f·τ_x, f·τ_y, τ_z); with the depth ones and the view angle's range,
 * a linear program in four unknowns, decided exactly by Fourier-Motzkin
 * elimination (f·τ_x and f·τ_y each appear in one axis's rows, then τ_z,
 * then f: an interval).  The disc |f·(q_x, q_y) − q_z·a| ≤ goal·q_z is a
 * second-order cone in the same unknowns (disc_decide): a log-barrier
 * solve finds a camera in it or a dual, and the dual is checked in
 * floating point with its rounding bounded (the proof is the check, not
 * the solve).
 *
 * Over a cell of rotations.  The rotations are angle-axis vectors in the
 * cube [−π, π]³ (the ball of radius π holds them all), cut in eight
 * cubes at each level.  Every rotation of a cube of half side s about its
 * centre Q0 turns any vector by at most √3·s from Q0's image of it
 * (Hartley and Kahl, "Global optimization through rotation space search",
 * IJCV 2009: the angle between two rotations is at most the distance of
 * their angle-axis vectors), so m_i = Q·(p_i − c) lies within
 * e_i = 2·|p_i − c|·sin(min(√3·s, π)/2) of Q0·(p_i − c) (ball: widened
 * for rounding).  Each square's row then holds if it holds for the point
 * of that ball that suits it best, which for a row f·v_x − b·v_z is the
 * row at the centre less e_i·√(f² + b²) ≥ e_i·(f + |b|): still linear,
 * and looser (a superset of every rotation's feasible set).  The disc's
 * cone likewise: its left side moves by at most e_i·(f + |a_i|) and its
 * right by goal·e_i, so the cone with its right side grown by
 * e_i·(f + |a_i| + goal) holds every rotation of the cube's cameras
 * (disc_decide says more): still a cone.  A cube whose relaxed squares
 * or relaxed cones hold no camera holds none.  Cubes are searched depth
 * first to DEPTH levels (a cube's half side π/2^DEPTH); each cube's
 * centre is also tried exactly (no relaxation), for a witness.
 */
#include "ops/retarget/retarget.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define NEAR 0.05 /* the depth a point must have (the camera's measure: in front by more) */
#define DEPTH 12  /* levels of cubes at most */
#define SLACK 1e-9
#define NSQUARES 4 /* the squares tried, turned by 0°, 45°, 22.5° and 67.5° */
static const double SQUARES[NSQUARES] = {0, PI / 4, PI / 8, 3 * PI / 8};

/* A row: al·f + be·tz + ga ≤ 0. */
typedef struct row {
    double al, be, ga;
} row;

/* The row scaled to a largest coefficient of 1 (the same inequality). */
static row unit_row(row r)
{
    double m = fmax(fabs(r.al), fmax(fabs(r.be), fabs(r.ga)));
    if (m > 0)
        r.al /= m, r.be /= m, r.ga /= m;
    return r;
}

/* One axis's rows on g = f·τ_k: g ≤ up (upper) or g ≥ lo, each
 * u0·f + u1·tz + u2. */
typedef struct bound_g {
    double c[3];
} bound_g;

/* The square rows of the points at rotation m (centred points turned), each
 * point's ball e[i]; into rows (f, tz) after g eliminated.  n2: rows. */
static size_t rows_of(const pki_cert_frame *fr, const double (*m)[3], const double *e, double goal,
                      double fmin, double fmax, row *out)
{
    size_t n = 0;
    for (int k = 0; k < 2; k++) {
        bound_g up[PKI_CERT_POINTS], lo[PKI_CERT_POINTS];
        for (int i = 0; i < fr->n; i++) {
            double a = fr->sa[i][k], bu = a + goal, bl = a - goal;
            /* f·v_k + g − bu·(v_z + tz) ≤ 0, relaxed:
             * g ≤ −f·(m_k − e) + bu·m_z + bu·tz + e·|bu| */
            up[i].c[0] = -(m[i][k] - e[i]);
            up[i].c[1] = bu;
            up[i].c[2] = bu * m[i][2] + e[i] * fabs(bu);
            /* −f·v_k − g + bl·(v_z + tz) ≤ 0, relaxed:
             * g ≥ −f·(m_k + e) + bl·m_z + bl·tz − e·|bl| */
            lo[i].c[0] = -(m[i][k] + e[i]);
            lo[i].c[1] = bl;
            lo[i].c[2] = bl * m[i][2] - e[i] * fabs(bl);
        }
        for (int i = 0; i < fr->n; i++) /* lo_i ≤ up_j */
            for (int j = 0; j < fr->n; j++)
                out[n++] = unit_row((row){lo[i].c[0] - up[j].c[0], lo[i].c[1] - up[j].c[1],
                                          lo[i].c[2] - up[j].c[2]});
    }
    for (int i = 0; i < fr->n; i++) /* m_z + e + tz ≥ NEAR */
        out[n++] = (row){0, -1, NEAR - m[i][2] - e[i]};
    out[n++] = (row){-1, 0, fmin};
    out[n++] = (row){1, 0, -fmax};
    return n;
}

/* The interval of tz the rows leave at f: [*lo, *hi]; false when empty. */
static bool tz_range(const row *r, size_t n, double f, double *lo, double *hi)
{
    *lo = -INFINITY, *hi = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double c = r[i].al * f + r[i].ga;
        if (r[i].be > 0)
            *hi = fmin(*hi, -c / r[i].be);
        else if (r[i].be < 0)
            *lo = fmax(*lo, -c / r[i].be);
        else if (c > SLACK)
            return false;
    }
    return *lo <= *hi + SLACK;
}

/* The interval of f the rows leave (tz eliminated: each pair of an upper
 * and a lower bound on tz combined without division, then scaled):
 * [*lo, *hi], within the rows' own bounds on f (the view angle's range);
 * false when empty. */
static bool f_interval(row q, double *lo, double *hi)
{
    if (q.al > 0)
        *hi = fmin(*hi, -q.ga / q.al);
    else if (q.al < 0)
        *lo = fmax(*lo, -q.ga / q.al);
    else if (q.ga > SLACK)
        return false;
    return true;
}

static bool f_range(const row *r, size_t n, double *lo, double *hi)
{
    *lo = -INFINITY, *hi = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (r[i].be == 0 && !f_interval(r[i], lo, hi))
            return false;
    for (size_t a = 0; a < n; a++) {
        if (!(r[a].be > 0))
            continue;
        for (size_t b = 0; b < n; b++)
            if (r[b].be < 0 && !f_interval(unit_row((row){-r[b].be * r[a].al + r[a].be * r[b].al, 0,
                                                          -r[b].be * r[a].ga + r[a].be * r[b].ga}),
                                           lo, hi))
                return false;
    }
    return *lo <= *hi + SLACK * (1 + fabs(*hi));
}

/* The rotation of angle-axis vector r (Rodrigues). */
static void rot_aa(const double r[3], double Q[3][3])
{
    double th = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    double k[3] = {1, 0, 0};
    if (th > 1e-12)
        for (int a = 0; a < 3; a++)
            k[a] = r[a] / th;
    double cs = pki_cos(th), sn = pki_sin(th);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Q[i][j] = (i == j ? cs : 0) + (1 - cs) * k[i] * k[j];
    Q[0][1] -= sn * k[2], Q[1][0] += sn * k[2];
    Q[0][2] += sn * k[1], Q[2][0] -= sn * k[1];
    Q[1][2] -= sn * k[0], Q[2][1] += sn * k[0];
}

/* The disc at one rotation, or over a cube of them (e[i] > 0).
 *
 * The unknowns v = (f, g_x, g_y, tz, s): g = f·(τ_x, τ_y).  Point i at
 * depth z_i = m_iz + tz lands at (f·m_i + g)/z_i (x and y), so it is
 * within the disc of radius r around a_i when
 *   |W_i| ≤ r·z_i,  W_i = f·(m_ix, m_iy) + g − z_i·a_i,
 * a second-order cone in v's linear unknowns.  Over a cube, the turned
 * point is m_i + δ with |δ| ≤ e_i; W_i moves by f·δ_xy − a_i·δ_z, at most
 * e_i·√(f² + |a_i|²) ≤ e_i·(f + |a_i|), and r·z_i by at most r·e_i, so
 * every rotation of the cube with a camera in the disc meets
 *   |W_i| ≤ T_i,  T_i = r·z_i + e_i·(f + |a_i| + r)
 * at the centre's m_i (a superset again).  The box: f in [f_lo, f_hi]
 * (the view angles), tz in [t_lo, t_hi] (every point NEAR in front, and
 * t_hi below: a bound every camera within the goal keeps, disc_box).
 *
 * The proof of none.  For any t_i ≥ |y_i| (y_i in the plane) with
 * Σ y_i = 0: every camera meeting the cones has
 *   Φ = Σ t_i·T_i + y_i·W_i ≥ Σ t_i·(T_i − |W_i|) ≥ 0,
 * and g drops out of Φ (Σ y_i = 0), leaving Φ affine in (f, tz); so if Φ
 * is below 0 at the box's four corners, no camera meets the cones.  The
 * y_i are rounded to multiples of 2^-40 and the last one is minus the sum
 * of the others, so Σ y_i = 0 holds exactly; t_i is |y_i| rounded up; Φ at
 * each corner is checked below 0 by more than its rounding (1e-13 of the
 * sum of its terms' sizes: the sum of ~40 products is rounded by under
 * 1e-14 of that).  The t_i, y_i come from a log-barrier solve of
 * max s subject to |W_i| ≤ T_i − s (its dual at the central path:
 * t_i ∝ T_i/(T_i² − |W_i|²), y_i ∝ −W_i/(T_i² − |W_i|²)); any t_i, y_i
 * would do, only the check above proves.  Found: a point with s > 0, a
 * camera within every cone. */
enum { DISC_NONE, DISC_FOUND, DISC_UNSURE };
#define NV 5 /* f, g_x, g_y, tz, s */

typedef struct disc_prob {
    int n;
    double m[PKI_CERT_POINTS][3], e[PKI_CERT_POINTS], a[PKI_CERT_POINTS][2], r;
    double flo, fhi, tlo, thi;
    bool fix_f; /* f held at flo (= fhi) */
} disc_prob;

/* T_i and W_i at v, with their gradients (coefficients over v). */
static void disc_cone(const disc_prob *p, int i, const double v[NV], double *T, double W[2],
                      double dT[NV], double dW[2][NV])
{
    double ea = p->e[i] * (pki_hypot(p->a[i][0], p->a[i][1]) + p->r);
    double z = p->m[i][2] + v[3];
    *T = p->r * z + p->e[i] * v[0] + ea - v[4];
    double t[NV] = {p->e[i], 0, 0, p->r, -1};
    memcpy(dT, t, sizeof t);
    for (int k = 0; k < 2; k++) {
        W[k] = v[0] * p->m[i][k] + v[1 + k] - z * p->a[i][k];
        double w[NV] = {p->m[i][k], k == 0, k == 1, -p->a[i][k], 0};
        memcpy(dW[k], w, sizeof w);
    }
}

/* The barrier −τ·s − Σ log(T_i² − |W_i|²) − Σ log(box) at v, its
 * gradient and Hessian (when g, H); false outside its domain. */
static bool disc_barrier(const disc_prob *p, const double v[NV], double tau, double *val,
                         double g[NV], double H[NV][NV])
{
    double box[4][2] = {{v[0] - p->flo, 1}, {p->fhi - v[0], -1}, {v[3] - p->tlo, 1},
                        {p->thi - v[3], -1}};
    *val = -tau * v[4];
    if (g) {
        memset(g, 0, NV * sizeof *g);
        memset(H, 0, NV * NV * sizeof **H);
        g[4] = -tau;
    }
    for (int b = p->fix_f ? 2 : 0; b < 4; b++) {
        if (!(box[b][0] > 0))
            return false;
        *val -= pki_log(box[b][0]);
        if (g) {
            int k = b < 2 ? 0 : 3;
            g[k] -= box[b][1] / box[b][0];
            H[k][k] += 1 / (box[b][0] * box[b][0]);
        }
    }
    for (int i = 0; i < p->n; i++) {
        double T, W[2], dT[NV], dW[2][NV];
        disc_cone(p, i, v, &T, W, dT, dW);
        double D = T * T - W[0] * W[0] - W[1] * W[1];
        if (!(T > 0 && D > 0))
            return false;
        *val -= pki_log(D);
        if (!g)
            continue;
        double q[NV]; /* ∇D / 2 */
        for (int k = 0; k < NV; k++)
            q[k] = T * dT[k] - W[0] * dW[0][k] - W[1] * dW[1][k];
        for (int k = 0; k < NV; k++) {
            g[k] -= 2 * q[k] / D;
            for (int l = 0; l < NV; l++)
                H[k][l] += -2 * (dT[k] * dT[l] - dW[0][k] * dW[0][l] - dW[1][k] * dW[1][l]) / D +
                           4 * q[k] * q[l] / (D * D);
        }
    }
    if (p->fix_f && g) {
        g[0] = 0;
        for (int k = 0; k < NV; k++)
            H[0][k] = H[k][0] = k == 0;
    }
    return true;
}

/* Solves H·x = −g (Gaussian elimination, partial pivots); false when
 * singular. */
static bool solve5(double H[NV][NV], const double g[NV], double x[NV])
{
    double A[NV][NV + 1];
    for (int i = 0; i < NV; i++) {
        memcpy(A[i], H[i], NV * sizeof(double));
        A[i][NV] = -g[i];
    }
    for (int c = 0; c < NV; c++) {
        int piv = c;
        for (int i = c + 1; i < NV; i++)
            if (fabs(A[i][c]) > fabs(A[piv][c]))
                piv = i;
        if (!(fabs(A[piv][c]) > 0))
            return false;
        for (int k = 0; k <= NV; k++) {
            double t = A[c][k];
            A[c][k] = A[piv][k], A[piv][k] = t;
        }
        for (int i = c + 1; i < NV; i++) {
            double m = A[i][c] / A[c][c];
            for (int k = c; k <= NV; k++)
                A[i][k] -= m * A[c][k];
        }
    }
    for (int i = NV - 1; i >= 0; i--) {
        double s = A[i][NV];
        for (int k = i + 1; k < NV; k++)
            s -= A[i][k] * x[k];
        x[i] = s / A[i][i];
    }
    return true;
}

/* Φ of the check above at (f, tz): *sum and the sum of its terms' sizes. */
static void disc_phi(const disc_prob *p, const double t[], const double (*y)[2], double f,
                     double tz, double *sum, double *size)
{
    *sum = 0, *size = 0;
    for (int i = 0; i < p->n; i++) {
        double z = p->m[i][2] + tz, az = fabs(p->m[i][2]) + fabs(tz);
        double ea = pki_hypot(p->a[i][0], p->a[i][1]) + p->r;
        *sum += t[i] * (p->r * z + p->e[i] * (f + ea));
        *size += t[i] * (p->r * az + p->e[i] * (fabs(f) + ea));
        for (int k = 0; k < 2; k++) {
            *sum += y[i][k] * (f * p->m[i][k] - p->a[i][k] * z);
            *size += fabs(y[i][k]) * (fabs(f * p->m[i][k]) + fabs(p->a[i][k]) * az);
        }
    }
}

/* The check: the barrier's dual at v (τ) made exact and Φ below 0 at the
 * box's corners. */
static bool disc_certify(const disc_prob *p, const double v[NV], double tau)
{
    double t[PKI_CERT_POINTS], y[PKI_CERT_POINTS][2], big = 0;
    for (int i = 0; i < p->n; i++) {
        double T, W[2], dT[NV], dW[2][NV];
        disc_cone(p, i, v, &T, W, dT, dW);
        double D = T * T - W[0] * W[0] - W[1] * W[1];
        t[i] = 2 * T / (tau * D), y[i][0] = -2 * W[0] / (tau * D), y[i][1] = -2 * W[1] / (tau * D);
        big = fmax(big, t[i]);
    }
    if (!(big > 0) || !isfinite(big))
        return false;
    double sy[2] = {0, 0};
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < 2; k++) {
            if (i < p->n - 1) {
                /* scaled to t ≤ 1, on the grid of 2^-40 */
                y[i][k] = round(y[i][k] / big * 0x1p40) * 0x1p-40;
                sy[k] += y[i][k];
            } else {
                y[i][k] = -sy[k];
            }
        }
    for (int i = 0; i < p->n; i++)
        t[i] = fmax(t[i] / big, sqrt(y[i][0] * y[i][0] + y[i][1] * y[i][1]) * (1 + 1e-14));
    for (int c = 0; c < 4; c++) {
        double f = p->fix_f ? p->flo : c & 1 ? p->fhi : p->flo, tz = c & 2 ? p->thi : p->tlo;
        double sum, size;
        disc_phi(p, t, (const double(*)[2])y, f, tz, &sum, &size);
        if (!(sum + 1e-13 * size < 0))
            return false;
    }
    return true;
}

/* Decides p: DISC_NONE (proved by the check), DISC_FOUND (v: a point
 * with s > 0) or DISC_UNSURE. */
static int disc_decide(const disc_prob *p, double v[NV])
{
    if (!isfinite(p->thi) || !(p->tlo < p->thi) || !(p->flo <= p->fhi))
        return p->tlo < p->thi ? DISC_UNSURE : DISC_NONE;
    double span = 0;
    for (int i = 0; i < p->n; i++)
        span = fmax(span, sqrt(p->m[i][0] * p->m[i][0] + p->m[i][1] * p->m[i][1] +
                               p->m[i][2] * p->m[i][2]));
    v[0] = p->fix_f ? p->flo : sqrt(p->flo * p->fhi);
    v[1] = v[2] = 0;
    v[3] = fmin(p->tlo + 2 * span + 1, 0.5 * (p->tlo + p->thi));
    double smin = INFINITY;
    for (int i = 0; i < p->n; i++) {
        double T, W[2], dT[NV], dW[2][NV];
        v[4] = 0;
        disc_cone(p, i, v, &T, W, dT, dW);
        smin = fmin(smin, T - pki_hypot(W[0], W[1]));
    }
    double scale = fmax(p->r * (v[3] + span), 1e-9);
    v[4] = smin - scale;
    double m = 2 * p->n + (p->fix_f ? 2 : 4);
    for (double tau = 1 / scale; tau < 1e13 / scale; tau *= 30) {
        for (int it = 0; it < 60; it++) {
            double val, g[NV], H[NV][NV], dx[NV];
            if (!disc_barrier(p, v, tau, &val, g, H) || !solve5(H, g, dx))
                return DISC_UNSURE;
            double dec = 0; /* Newton decrement² */
            for (int k = 0; k < NV; k++)
                dec -= g[k] * dx[k];
            double step = 1, nv[NV], nval;
            for (;;) {
                for (int k = 0; k < NV; k++)
                    nv[k] = v[k] + step * dx[k];
                if (disc_barrier(p, nv, tau, &nval, NULL, NULL) &&
                    nval <= val - 0.25 * step * dec)
                    break;
                step *= 0.5;
                if (step < 1e-12)
                    break;
            }
            if (step < 1e-12)
                break;
            memcpy(v, nv, sizeof nv);
            if (v[4] > 0)
                return DISC_FOUND;
            if (dec < 1e-6)
                break;
        }
        /* s at the optimum is at most s + m/τ on the central path */
        if (v[4] + m / tau < 0 && disc_certify(p, v, tau))
            return DISC_NONE;
    }
    return DISC_UNSURE;
}
#undef NV

typedef struct ctx {
    const pki_cert_frame *fr;
    double goal, fmin, fmax, fov_min, fov_max;
    double d[PKI_CERT_POINTS][3], len[PKI_CERT_POINTS]; /* centred points, their lengths */
    double c[3];
    double far; /* |c| */
    double thi; /* no camera within the goal has tz above (disc_box) */
    double cs[NSQUARES][2];          /* each square's turn: cos, sin */
    pki_cert_frame turned[NSQUARES]; /* A's points turned alike */
} ctx;


/* The ball a point at distance len from the centre may turn within over a
 * cube whose rotations are within ang of its centre's (chord ch =
 * 2·sin(ang/2)), widened by 1e-12 of len, of the centre's distance from
 * the origin (far) and of itself: the rounding of the centred point, of
 * the centre's rotation (a few ulps of each entry), of the chord and of π
 * (the cube [−π, π]³ of doubles misses rotations by π's last 1e-16). */
static double ball(double len, double far, double ch)
{
    return len * ch * (1 + 1e-12) + 1e-12 * (len + far);
}

/* The rows at rotation Q with balls of angle ang (0: exact), the square
 * turned by SQUARES[sq] on the screen (A's points and the camera's x and y
 * turned alike: the same problem, a square of another orientation). */
static size_t rows_at(const ctx *x, const double Q[3][3], double ang, double goal, int sq, row *out)
{
    double m[PKI_CERT_POINTS][3], e[PKI_CERT_POINTS];
    double ch = 2 * pki_sin(fmin(ang, PI) / 2), cs = x->cs[sq][0], sn = x->cs[sq][1];
    for (int i = 0; i < x->fr->n; i++) {
        double q[3];
        for (int a = 0; a < 3; a++)
            q[a] = Q[a][0] * x->d[i][0] + Q[a][1] * x->d[i][1] + Q[a][2] * x->d[i][2];
        m[i][0] = cs * q[0] - sn * q[1];
        m[i][1] = sn * q[0] + cs * q[1];
        m[i][2] = q[2];
        e[i] = ang > 0 ? ball(x->len[i], x->far, ch) : 0;
    }
    return rows_of(&x->turned[sq], (const double(*)[3])m, e, goal, x->fmin, x->fmax, out);
}

/* Whether the squares prove no camera at rotation Q with balls of angle
 * ang: some square holds none, or the squares hold none at one view angle
 * (f is the camera's, whatever the square). */
static bool squares_empty(const ctx *x, const double Q[3][3], double ang)
{
    row r[2 * PKI_CERT_POINTS * PKI_CERT_POINTS + PKI_CERT_POINTS + 2];
    double lo = -INFINITY, hi = INFINITY, flo, fhi;
    for (int sq = 0; sq < NSQUARES; sq++) {
        size_t n = rows_at(x, Q, ang, x->goal, sq, r);
        if (!f_range(r, n, &flo, &fhi))
            return true;
        lo = fmax(lo, flo), hi = fmin(hi, fhi);
        if (!(lo <= hi + SLACK * (1 + fabs(hi))))
            return true;
    }
    return false;
}

/* The largest distance (on the disc) of the camera Q, τ, f from A's
 * points; INFINITY where a point is not NEAR in front. */
static double disc_worst(const ctx *x, const double Q[3][3], const double tau[3], double f)
{
    double w = 0;
    for (int i = 0; i < x->fr->n; i++) {
        double q[3];
        for (int a = 0; a < 3; a++)
            q[a] = Q[a][0] * x->d[i][0] + Q[a][1] * x->d[i][1] + Q[a][2] * x->d[i][2] + tau[a];
        if (!(q[2] > NEAR))
            return INFINITY;
        w = fmax(w,
                 pki_hypot(f * q[0] / q[2] - x->fr->sa[i][0], f * q[1] / q[2] - x->fr->sa[i][1]));
    }
    return w;
}

/* The disc's problem at rotation Q, each point's ball of angle ang (0: the
 * rotation itself). */
static void disc_at(const ctx *x, const double Q[3][3], double ang, disc_prob *p)
{
    double ch = 2 * pki_sin(fmin(ang, PI) / 2);
    p->n = x->fr->n, p->r = x->goal, p->fix_f = false;
    p->flo = x->fmin * (1 - 1e-12), p->fhi = x->fmax * (1 + 1e-12);
    p->tlo = -INFINITY, p->thi = x->thi;
    for (int i = 0; i < p->n; i++) {
        for (int a = 0; a < 3; a++)
            p->m[i][a] = Q[a][0] * x->d[i][0] + Q[a][1] * x->d[i][1] + Q[a][2] * x->d[i][2];
        p->e[i] = ang > 0 ? ball(x->len[i], x->far, ch) : 0;
        p->a[i][0] = x->fr->sa[i][0], p->a[i][1] = x->fr->sa[i][1];
        p->tlo = fmax(p->tlo, NEAR - p->m[i][2] - p->e[i]);
    }
    p->tlo -= 1e-12 * (1 + fabs(p->tlo));
}

/* The largest tz any camera within the goal can have.  For two points i, j
 * whose screen points are more than 2·goal apart, their images are at
 * least |a_i − a_j| − 2·goal apart, and z_i·(p_i − p_j) =
 * f·(m_i − m_j)_xy − (m_i − m_j)_z·p_j (p: the images, z_i = m_iz + tz), so
 * z_i ≤ |d_i − d_j|·(f + |a_j| + goal)/(|a_i − a_j| − 2·goal) whatever the
 * rotation (|m_i − m_j| = |d_i − d_j|), and tz ≤ z_i + |d_i|.  INFINITY
 * when no two are so far apart. */
static double disc_box(const ctx *x)
{
    double best = INFINITY;
    for (int i = 0; i < x->fr->n; i++)
        for (int j = 0; j < x->fr->n; j++) {
            const double *ai = x->fr->sa[i], *aj = x->fr->sa[j];
            double gap = pki_hypot(ai[0] - aj[0], ai[1] - aj[1]) - 2 * x->goal;
            if (i == j || !(gap > 1e-6))
                continue;
            double dd = sqrt((x->d[i][0] - x->d[j][0]) * (x->d[i][0] - x->d[j][0]) +
                             (x->d[i][1] - x->d[j][1]) * (x->d[i][1] - x->d[j][1]) +
                             (x->d[i][2] - x->d[j][2]) * (x->d[i][2] - x->d[j][2]));
            double z = dd * (x->fmax + pki_hypot(aj[0], aj[1]) + x->goal) / gap;
            best = fmin(best, z + x->len[i]);
        }
    return best * (1 + 1e-9) + 1e-9;
}

/* Into res the camera at rotation Q, tz = v[3], (τ_x, τ_y) = g/f, f = v[0]
 * when every point is within goal on the disc (measured by projecting). */
static bool camera_of(const ctx *x, const double Q[3][3], double f, double gx, double gy, double tz,
                      pki_cert_result *res)
{
    double tau[3] = {gx / f, gy / f, tz};
    double w = disc_worst(x, Q, tau, f);
    if (!(w <= x->goal))
        return false;
    res->worst = w;
    res->fov = 2.0 * pki_atan(1.0 / (2.0 * f)) * 180.0 / PI;
    /* the eye in world space: q = Q·(p − c) + τ = Q·(p − eye) */
    for (int a = 0; a < 3; a++) {
        res->eye[a] = x->c[a];
        for (int b = 0; b < 3; b++) {
            res->eye[a] -= Q[b][a] * tau[b];
            res->Q[a][b] = Q[a][b];
        }
    }
    return true;
}

/* A camera at rotation Q within the disc, its view angle a whole degree:
 * the disc's problem at Q, then at the whole degrees either side of the
 * view angle it found, each with f held. */
static bool disc_witness(const ctx *x, const double Q[3][3], pki_cert_result *res)
{
    disc_prob p;
    double v[5];
    if (squares_empty(x, Q, 0))
        return false; /* the disc lies within each square */
    disc_at(x, Q, 0, &p);
    if (disc_decide(&p, v) != DISC_FOUND)
        return false;
    double fov = 2.0 * pki_atan(1.0 / (2.0 * v[0])) * 180.0 / PI;
    for (int k = 0; k < 2; k++) {
        double deg = k ? ceil(fov) : floor(fov);
        if (k && deg == floor(fov))
            continue;
        if (deg < x->fov_min || deg > x->fov_max)
            continue;
        p.fix_f = true;
        p.flo = p.fhi = 1.0 / (2.0 * pki_tan(deg * PI / 360.0));
        if (disc_decide(&p, v) == DISC_FOUND && camera_of(x, Q, v[0], v[1], v[2], v[3], res))
            return true;
    }
    return false;
}

/* A camera at rotation Q within the square of half side goal (exact
 * rows), its view angle a whole degree: into res when its disc distance
 * is within x->goal.  true when found. */
static bool witness(const ctx *x, const double Q[3][3], double goal, pki_cert_result *res)
{
    row r[2 * PKI_CERT_POINTS * PKI_CERT_POINTS + PKI_CERT_POINTS + 2];
    size_t n = rows_at(x, Q, 0, goal, 0, r);
    double flo, fhi;
    if (!f_range(r, n, &flo, &fhi))
        return false;
    /* the whole degrees whose f lies within, nearest the middle first */
    double fm = 0.5 * (flo + fhi), best = INFINITY, fb = 0;
    for (int deg = 1; deg <= 179; deg++) {
        double f = 1.0 / (2.0 * pki_tan(deg * PI / 360.0));
        if (f < flo || f > fhi || f < x->fmin - 1e-12 || f > x->fmax + 1e-12)
            continue;
        if (fabs(f - fm) < best)
            best = fabs(f - fm), fb = f;
    }
    if (!(best < INFINITY))
        return false;
    double tlo, thi;
    if (!tz_range(r, n, fb, &tlo, &thi))
        return false;
    double tz = isfinite(thi) ? 0.5 * (tlo + thi) : tlo + fmax(1.0, fabs(tlo));
    double tg[2];
    for (int k = 0; k < 2; k++) { /* g = f·τ_k: the middle of its interval */
        double glo = -INFINITY, ghi = INFINITY;
        for (int i = 0; i < x->fr->n; i++) {
            double m[3];
            for (int a = 0; a < 3; a++)
                m[a] = Q[a][0] * x->d[i][0] + Q[a][1] * x->d[i][1] + Q[a][2] * x->d[i][2];
            double a = x->fr->sa[i][k], z = m[2] + tz;
            ghi = fmin(ghi, (a + goal) * z - fb * m[k]);
            glo = fmax(glo, (a - goal) * z - fb * m[k]);
        }
        tg[k] = 0.5 * (glo + ghi);
    }
    return camera_of(x, Q, fb, tg[0], tg[1], tz, res);
}

typedef struct cell {
    double r[3], s; /* centre, half side */
    int level;
} cell;

int pki_camera_certify(const pki_cert_frame *fr, double goal, double fov_min, double fov_max,
                       long budget, pki_cert_result *res)
{
    return pki_camera_certify_shape(fr, goal, fov_min, fov_max, budget, true, res);
}

int pki_camera_certify_shape(const pki_cert_frame *fr, double goal, double fov_min,
                             double fov_max, long budget, bool disc, pki_cert_result *res)
{
    memset(res, 0, sizeof *res);
    res->verdict = PKI_CERT_OPEN;
    if (fr->n < 1 || fr->n > PKI_CERT_POINTS)
        return -1;
    ctx x = {.fr = fr, .goal = goal, .fov_min = fov_min, .fov_max = fov_max};
    x.fmin = 1.0 / (2.0 * pki_tan(fov_max * PI / 360.0));
    x.fmax = 1.0 / (2.0 * pki_tan(fov_min * PI / 360.0));
    for (int i = 0; i < fr->n; i++)
        for (int a = 0; a < 3; a++)
            x.c[a] += fr->pb[i][a] / fr->n;
    for (int sq = 0; sq < NSQUARES; sq++) {
        x.cs[sq][0] = pki_cos(SQUARES[sq]), x.cs[sq][1] = pki_sin(SQUARES[sq]);
        x.turned[sq] = *fr;
        for (int i = 0; i < fr->n; i++) {
            const double *a = fr->sa[i];
            x.turned[sq].sa[i][0] = x.cs[sq][0] * a[0] - x.cs[sq][1] * a[1];
            x.turned[sq].sa[i][1] = x.cs[sq][1] * a[0] + x.cs[sq][0] * a[1];
        }
    }
    for (int i = 0; i < fr->n; i++) {
        for (int a = 0; a < 3; a++)
            x.d[i][a] = fr->pb[i][a] - x.c[a];
        x.len[i] = sqrt(x.d[i][0] * x.d[i][0] + x.d[i][1] * x.d[i][1] + x.d[i][2] * x.d[i][2]);
    }
    x.far = sqrt(x.c[0] * x.c[0] + x.c[1] * x.c[1] + x.c[2] * x.c[2]);
    x.thi = disc_box(&x);
    size_t cap = 8 * (DEPTH + 2) + 8, top = 0;
    cell *st = malloc(cap * sizeof *st);
    if (!st)
        return -1;
    st[top++] = (cell){{0, 0, 0}, PI, 0};
    bool open = false;
    while (top) {
        cell c = st[--top];
        double rn = sqrt(c.r[0] * c.r[0] + c.r[1] * c.r[1] + c.r[2] * c.r[2]);
        if (rn - sqrt(3.0) * c.s > PI)
            continue; /* wholly outside the ball of rotations */
        if (res->cells >= budget) {
            open = true;
            break;
        }
        res->cells++;
        double Q[3][3];
        rot_aa(c.r, Q);
        /* no camera in this cube: some square holds none, or the squares
         * hold none at one view angle */
        bool none = squares_empty(&x, (const double(*)[3])Q, sqrt(3.0) * c.s);
        if (none)
            continue;
        /* the disc itself: a cone per point, proved empty by a checked
         * dual (disc_decide) */
        disc_prob p;
        double v[5];
        if (disc) {
            disc_at(&x, (const double(*)[3])Q, sqrt(3.0) * c.s, &p);
            if (disc_decide(&p, v) == DISC_NONE) {
                res->disc_cells++;
                continue;
            }
        }
        if (witness(&x, (const double(*)[3])Q, goal, res) ||
            witness(&x, (const double(*)[3])Q, goal / sqrt(2.0), res) ||
            (disc && disc_witness(&x, (const double(*)[3])Q, res))) {
            res->verdict = PKI_CERT_REACH;
            free(st);
            return 0;
        }
        if (c.level > res->deep_level) /* the deepest cubes not ruled out */
            res->deep_level = c.level, res->ndeep = 0;
        if (c.level == res->deep_level) {
            memcpy(res->deep_Q[res->ndeep % PKI_CERT_DEEP], Q, sizeof *res->deep_Q);
            res->ndeep++;
        }
        if (c.level >= DEPTH) {
            open = true;
            res->open_cells++;
            continue;
        }
        double h = c.s / 2;
        for (int k = 0; k < 8; k++)
            st[top++] = (cell){
                {c.r[0] + (k & 1 ? h : -h), c.r[1] + (k & 2 ? h : -h), c.r[2] + (k & 4 ? h : -h)},
                h,
                c.level + 1};
    }
    free(st);
    res->verdict = open ? PKI_CERT_OPEN : PKI_CERT_OUT;
    return 0;
}
