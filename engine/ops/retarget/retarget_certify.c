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
 * screen?  Out of reach (PKI_CERT_OUT) is a proof for the square of side
 * 2·goal around each a_i, which contains the disc of radius goal: no
 * camera puts every point in its square, so none puts every point in its
 * disc.  Reachable (PKI_CERT_REACH) comes with a witness: a camera (its
 * view angle a whole degree, as MMD keys it) whose largest distance,
 * measured on the disc, is within goal.  Open (PKI_CERT_OPEN): neither
 * within the budget of cells.
 *
 * For a fixed rotation.  In camera space q_i = Q·(p_i − c) + τ (c: the
 * points' centroid, τ free) a point lands at f·(q_x, q_y)/q_z with
 * f = 1/(2·tan(fov/2)).  With the depth q_z > 0 the square
 * |f·q_x/q_z − a_x| ≤ goal is two inequalities linear in
 * (f, f·τ_x, f·τ_y, τ_z); with the depth ones and the view angle's range,
 * a linear program in four unknowns, decided exactly by Fourier-Motzkin
 * elimination (f·τ_x and f·τ_y each appear in one axis's rows, then τ_z,
 * then f: an interval).
 *
 * Over a cell of rotations.  The rotations are angle-axis vectors in the
 * cube [−π, π]³ (the ball of radius π holds them all), cut in eight
 * cubes at each level.  Every rotation of a cube of half side s about its
 * centre Q0 turns any vector by at most √3·s from Q0's image of it
 * (Hartley and Kahl, "Global optimization through rotation space search",
 * IJCV 2009: the angle between two rotations is at most the distance of
 * their angle-axis vectors), so m_i = Q·(p_i − c) lies within
 * e_i = 2·|p_i − c|·sin(min(√3·s, π)/2) of Q0·(p_i − c).  Each row then
 * holds if it holds for the point of that ball that suits it best, which
 * for a row f·v_x − b·v_z is the row at the centre less
 * e_i·√(f² + b²) ≥ e_i·(f + |b|): still linear, and looser (a superset of
 * every rotation's feasible set).  A cube whose relaxed program is empty
 * holds no camera.  Cubes are searched depth first to DEPTH levels (a
 * cube's half side π/2^DEPTH); each cube's centre is also tried exactly
 * (no relaxation), for a witness.
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

typedef struct ctx {
    const pki_cert_frame *fr;
    double goal, fmin, fmax;
    double d[PKI_CERT_POINTS][3], len[PKI_CERT_POINTS]; /* centred points, their lengths */
    double c[3];
    double cs[NSQUARES][2];          /* each square's turn: cos, sin */
    pki_cert_frame turned[NSQUARES]; /* A's points turned alike */
} ctx;

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
        e[i] = ang > 0 ? x->len[i] * ch : 0;
    }
    return rows_of(&x->turned[sq], (const double(*)[3])m, e, goal, x->fmin, x->fmax, out);
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
    double tau[3] = {0, 0, tz};
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
        tau[k] = 0.5 * (glo + ghi) / fb;
    }
    double w = disc_worst(x, Q, tau, fb);
    if (!(w <= x->goal))
        return false;
    res->worst = w;
    res->fov = 2.0 * pki_atan(1.0 / (2.0 * fb)) * 180.0 / PI;
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

typedef struct cell {
    double r[3], s; /* centre, half side */
    int level;
} cell;

int pki_camera_certify(const pki_cert_frame *fr, double goal, double fov_min, double fov_max,
                       long budget, pki_cert_result *res)
{
    memset(res, 0, sizeof *res);
    res->verdict = PKI_CERT_OPEN;
    if (fr->n < 1 || fr->n > PKI_CERT_POINTS)
        return -1;
    ctx x = {.fr = fr, .goal = goal};
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
    size_t cap = 8 * (DEPTH + 2) + 8, top = 0;
    cell *st = malloc(cap * sizeof *st);
    if (!st)
        return -1;
    st[top++] = (cell){{0, 0, 0}, PI, 0};
    bool open = false;
    row r[2 * PKI_CERT_POINTS * PKI_CERT_POINTS + PKI_CERT_POINTS + 2];
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
        double Q[3][3], flo, fhi;
        rot_aa(c.r, Q);
        /* no camera in this cube: some square holds none, or the squares
         * hold none at one view angle (f is the camera's, whatever the
         * square) */
        bool none = false;
        double lo = -INFINITY, hi = INFINITY;
        for (int sq = 0; sq < NSQUARES && !none; sq++) {
            size_t n = rows_at(&x, (const double(*)[3])Q, sqrt(3.0) * c.s, goal, sq, r);
            none = !f_range(r, n, &flo, &fhi);
            lo = fmax(lo, flo), hi = fmin(hi, fhi);
            none = none || !(lo <= hi + SLACK * (1 + fabs(hi)));
        }
        if (none)
            continue;
        if (witness(&x, (const double(*)[3])Q, goal, res) ||
            witness(&x, (const double(*)[3])Q, goal / sqrt(2.0), res)) {
            res->verdict = PKI_CERT_REACH;
            free(st);
            return 0;
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
