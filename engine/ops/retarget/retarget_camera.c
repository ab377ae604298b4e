/*
 * retarget_camera.c — the camera moved for another model (posekit.h, "the camera";
 * カメラ補正).
 *
 * MMD's camera (the key's fields as stored, MMD's left-handed space): the
 * eye is centre + R·(0, 0, distance) with R = Ry(−ry)·Rx(−rx)·Rz(−rz), the
 * camera looks along R·(0, 0, 1) with up R·(0, 1, 0) and right
 * R·(1, 0, 0), and fov is the vertical view angle in degrees (babylon-mmd's
 * MmdCamera; MMDAgent's view rotation Rz·Rx·Ry is its inverse).  In camera
 * space (x, y, z) = Rᵀ·(p − eye) a point lands at (x, y) / (z·2·tan(fov/2))
 * screen heights from the centre of the screen.
 *
 * Per frame (the frame-by-frame correction): the view angle and the
 * projection stay; the eye e moves and the camera turns.  The points of A
 * (head, wrists, ankles) are projected through the original camera, each
 * weighted 1 on the screen, fading to 0 a quarter of the screen height
 * beyond its edge (so a hand leaving the picture does not make the camera
 * jump).  From e_ref = c_B + k·(e − c_A) (c: the weighted centroid of the
 * points, k: B's head height over A's at rest), which keeps the centroid
 * where it was and the subject's size, Gauss-Newton moves the eye to
 * minimise the squared screen distances of B's points to A's plus
 * 1e-4·|e − e_ref|²/D² (D the viewing distance: decides what the points
 * cannot, such as the depth when only the head is in the picture).  Then
 * the eye and the three angles together (Levenberg-Marquardt, the angles
 * pulled to the camera's by TURN_REG per radian²: the camera turns where
 * B's points lie otherwise than A's, a lean, a head higher over the
 * hands, not to chase every point), least squares and then Lawson's
 * reweighting towards the smallest largest distance (the goal is every
 * point of a frame close), keeping the best of these.  The look-at point
 * then keeps its depth in the subject: distance' = distance·z_B/z_A (z:
 * the centroid's depth), centre' = e' − distance'·forward'.  B equal to A
 * scaled by k about any point makes e_ref exact: every centre and distance
 * scales by k, the angles stay.
 *
 * The bound: per frame, every parameter free (eye, angles and the view
 * angle, a whole degree from 1° to 125°), no pull, the same rounds
 * towards the smallest largest distance over the points measured, from
 * several starts (the correction, the neighbouring frames' best, a
 * weak-perspective closed form, more where the goal is missed; "the
 * bound" below): the least any camera MMD can play was found to leave,
 * never above the correction.  Where it misses the goal the models' own
 * layouts differ too much for any rigid camera (a chibi's head over its
 * short limbs): those frames are reported (unmet).
 *
 * The motion.  Played by MMD, the camera at a frame is one key's or a
 * blend of two neighbours' by their curves.  Each key is first turned as
 * the evened-out correction turns the camera at its frame; the eye is
 * then linear in the keys' centres and distances: all keys are moved at
 * once (least squares over every frame, curves kept; below, "the keys,
 * all at once").  A stretch between two keys (or after the last, while
 * the dance goes on) whose worst frame is still more than PK_CAMERA_SMOOTH
 * worse than the frame-by-frame correction evened out (Whittaker's
 * smoother on the eye, distance and angles: a camera that follows the
 * subject, not every hand movement) or, where that misses the goal on a
 * frame, than the track (a smooth path of eye and angles fitted to every
 * frame's points at once, the angles pulled a tenth as hard as the
 * correction's, so that it turns further where B's points need it, up to
 * TRACK_TURN or the correction's own turn; "the track" below), is baked
 * from that (a key a frame, easing in from a key a kept stretch shares)
 * and reduced (pk_motion_reduce over the stretch, the camera alone,
 * within FIT of the screen height); so is a stretch whose kept curves
 * land fewer of its frames within the goal than that evened-out
 * correction or track does.  A run of such stretches meeting at keys is
 * evened out as one, and checked: where it turns or moves its eye from
 * one frame to the next more than STEADY times the original's most, it
 * is fitted again from a track STIFFER times as smooth (and, fitted for
 * its frames alone and still that unsteady, left as it was).  Cuts (keys
 * a frame apart) stay cuts; keys come out sorted by frame, of two
 * records of one frame the later.
 *
 * Last, the frames the camera written still misses ("the least change"
 * below): a frame whose smallest change of the camera written (eye and
 * angles, scaled to screen heights) puts every point within LC_AIM is
 * reachable from the shot; around such frames (LC_PAD either side, within
 * the shot) the path of least change is solved for at once: the changes
 * from the camera written, smooth from frame to frame (LC_MU), every
 * frame's points within LC_AIM (the frames out of reach from the shot: no
 * worse than they were) by a penalty tightened in steps, the frames it
 * lets the least change reach added, LC_ROUNDS times.  The window is then
 * fitted again between the keys around it and kept where it lands more
 * of its frames within the goal, its worst frame no more than FIT worse
 * than before (or than the goal), turns and moves no more from frame to
 * frame than STEADY times the original (or than it did) and turns from
 * the original no more than TRACK_TURN (or than it did).  A window
 * whose path turned too far is solved again with the angles of its
 * frames turned too far pulled harder (LC_PULL_MORE, up to LC_PULLS
 * times); one otherwise refused, again smoother.  A second pass does the
 * same with windows of LC_PAD_FINE frames around the frames the first
 * left missed (a large window refused for one frame loses them all), and
 * a third after the new shots (below), over the frames the stretches
 * fitted again around them left missed.  Then two passes more (LC_PAD,
 * LC_PAD_FINE) over the frames the best camera for each frame meets
 * after the polish (the report's bound) and the camera written still
 * misses, the turn from the original free (a frame a steady camera
 * reaches only turned further is met: keeping the shot within TRACK_TURN
 * is ours, not the goal's) and the view angle chosen from DFOV_WIDE (up
 * to 25° either way): the same windows, paths, fit and checks, the steps
 * from frame to frame held to the same law.
 *
 * The view angle stays: a whole number of degrees in MMD, so changing it
 * on a key makes a step in the subject's size the distance must undo,
 * and the best camera for each frame meets the goal on only 1% to 7%
 * more of the corpus camera's frames with it free than with it kept.
 * The track weighs a frame up (TRACK_BOOST) where it misses the goal and
 * the bound meets it: the frames worth reaching are the reachable ones.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "math/bezier.h"
#include "model/skeleton.h"
#include "ops/retarget/retarget.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define NPOINTS 5
#define NEAR 0.05      /* units in front of the eye a point must be */
#define FADE 0.25      /* screen heights beyond the edge a point's weight fades over */
#define REG 1e-4       /* the pull towards e_ref, per (viewing distance)² */
#define BEHIND_ERR 1.0 /* a point B shows behind the eye: a screen height off */
#define DEPTH_REG                                                                                  \
    100.0             /* the distance's pull, times REG: the look-at point stays in the subject    \
                       */
#define FIT 0.002     /* a refit's tolerance, screen heights */
#define RAMP 15.0     /* frames a refit eases over from a key it shares */
#define STEADY 2.5    /* a run fitted again: its largest step, times the original's */
#define STIFFER 4.0   /* ... else fitted again from a track this much smoother */
#define SMOOTH_MU 1e3 /* the refit's smoothing: swings slower than 2π·mu^¼ ≈ 35 frames pass */

static const char *const POINTS[NPOINTS] = {"頭", "左手首", "右手首", "左足首", "右足首"};

typedef struct view {
    double R[3][3]; /* columns: right, up, forward */
    double eye[3];
    double t; /* 2·tan(fov/2) */
    bool ortho;
} view;

/* One frame's points, A's and B's (world positions). */
typedef struct frame_pts {
    double a[NPOINTS][3], b[NPOINTS][3];
} frame_pts;

typedef struct scene {
    const pk_camera_options *o;
    double aspect, k;
    bool have[NPOINTS];
    size_t npoints;
    uint32_t nframes; /* frames 0 .. nframes-1 */
    frame_pts *pts;
} scene;

/* ---- the view ---- */

static void mat_mul(const double a[3][3], const double b[3][3], double o[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            o[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
}

/* R = Ry(−ry)·Rx(−rx)·Rz(−rz) from c[a] = cos(−r[a]), s[a] = sin(−r[a]) */
static void rot_cs(const double c[3], const double s[3], double R[3][3])
{
    double cx = c[0], sx = s[0], cy = c[1], sy = s[1], cz = c[2], sz = s[2];
    const double X[3][3] = {{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}};
    const double Y[3][3] = {{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}};
    const double Z[3][3] = {{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}};
    double t[3][3];
    mat_mul(Y, X, t);
    mat_mul((const double(*)[3])t, Z, R);
}

/* rot_cs with angle k's cosine and sine those of -a instead (a step of one
 * angle in a finite difference). */
static void rot_cs_step(const double c[3], const double s[3], int k, double a, double R[3][3])
{
    double c1[3], s1[3];
    memcpy(c1, c, sizeof c1);
    memcpy(s1, s, sizeof s1);
    pki_sincos(-a, &s1[k], &c1[k]);
    rot_cs(c1, s1, R);
}

/* R = Ry(−ry)·Rx(−rx)·Rz(−rz) */
static void rot_of(const double r[3], double R[3][3])
{
    double c[3], s[3];
    for (int a = 0; a < 3; a++)
        pki_sincos(-r[a], &s[a], &c[a]);
    rot_cs(c, s, R);
}

static void view_of(const pk_camera_key *k, view *v)
{
    rot_of((double[3]){k->rot[0], k->rot[1], k->rot[2]}, v->R);
    for (int a = 0; a < 3; a++)
        v->eye[a] = (double)k->pos[a] + (double)k->distance * v->R[a][2];
    double fov = k->fov < 1 ? 1.0 : k->fov > 179 ? 179.0 : (double)k->fov;
    v->t = 2.0 * pki_tan(fov * PI / 360.0);
    v->ortho = k->perspective != 0;
}

static void cam_space(const view *v, const double eye[3], const double p[3], double q[3])
{
    double d[3] = {p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]};
    for (int j = 0; j < 3; j++)
        q[j] = v->R[0][j] * d[0] + v->R[1][j] * d[1] + v->R[2][j] * d[2];
}

/* Where p lands (screen heights); false when it is not in front. */
static bool screen(const view *v, const double eye[3], const double p[3], double s[2])
{
    double q[3];
    cam_space(v, eye, p, q);
    if (!(q[2] > NEAR))
        return false;
    s[0] = q[0] / (q[2] * v->t);
    s[1] = q[1] / (q[2] * v->t);
    return true;
}

bool pki_camera_screen(const pk_camera_key *cam, const double p[3], double s[2])
{
    view v;
    view_of(cam, &v);
    return screen(&v, v.eye, p, s);
}

static bool on_screen(const scene *sc, const double s[2])
{
    return fabs(s[1]) <= 0.5 && fabs(s[0]) <= 0.5 * sc->aspect;
}

/* 1 on the screen, fading to 0 at FADE beyond its edge. */
static double weight_of(const scene *sc, const double s[2])
{
    double ox = fabs(s[0]) - 0.5 * sc->aspect, oy = fabs(s[1]) - 0.5;
    double out = fmax(0.0, fmax(ox, oy));
    return out >= FADE ? 0.0 : 1.0 - out / FADE;
}

/* ---- the best camera for a frame ----
 *
 * Every parameter of the view at once, p = (eye x, y, z, angles x, y, z
 * in radians, view angle in degrees): Levenberg-Marquardt on the weighted
 * squared screen distances of B's points to A's plus lam_j·(p_j − p0_j)²
 * for each free parameter (the others stay). */

enum { P_EYE = 0, P_ROT = 3, P_FOV = 6, NPAR = 7 };
#define NRES (2 * NPOINTS + NPAR)
#define EYE_AND_ANGLES 0x3fu /* the parameters the correction moves (the view angle stays) */
#define TURN_REG 0.3   /* the pull of the angles to the camera's, per radian² (screen heights²) */
#define TURN_MIN 1e-5  /* radians: a key turned less keeps its angles */
#define LM_ITERS 15    /* Levenberg-Marquardt steps at most per fit (the bound: 40) */
#define BOUND_ROUNDS 8 /* ... and for the bound */
#define ROUNDS 8       /* least squares, then 7 rounds towards the smallest largest distance */
#define FOV_MIN 1.0    /* MMD's view angle: whole degrees, 1 to 125 */
#define FOV_MAX 125.0

static void view_par(const double p[NPAR], view *v)
{
    rot_of(p + P_ROT, v->R);
    memcpy(v->eye, p + P_EYE, sizeof v->eye);
    v->t = 2.0 * pki_tan(p[P_FOV] * PI / 360.0);
    v->ortho = false;
}

/* view_par, with the cosines and sines of p's angles it used */
static void view_cs(const double p[NPAR], double co[3], double si[3], view *v)
{
    for (int a = 0; a < 3; a++)
        pki_sincos(-p[P_ROT + a], &si[a], &co[a]);
    rot_cs(co, si, v->R);
    memcpy(v->eye, p + P_EYE, sizeof v->eye);
    v->t = 2.0 * pki_tan(p[P_FOV] * PI / 360.0);
    v->ortho = false;
}

static void par_of(const view *v, const pk_camera_key *k, double p[NPAR])
{
    memcpy(p + P_EYE, v->eye, sizeof v->eye);
    for (int a = 0; a < 3; a++)
        p[P_ROT + a] = k->rot[a];
    p[P_FOV] = k->fov < 1 ? 1.0 : k->fov > 179 ? 179.0 : (double)k->fov;
}

/* The points' residuals alone (residuals' first 2·NPOINTS) through v
 * from eye, sw[i] the square root of point i's weight w[i] (the same
 * bits as residuals'). */
static void point_res(const view *v, const double eye[3], const double (*pb)[3],
                      const double (*sa)[2], const double *w, const double *sw, double *r)
{
    for (int i = 0; i < NPOINTS; i++) {
        double s[2];
        r[2 * i] = r[2 * i + 1] = 0;
        if (!(w[i] > 0))
            continue;
        if (screen(v, eye, pb[i], s)) {
            r[2 * i] = sw[i] * (s[0] - sa[i][0]);
            r[2 * i + 1] = sw[i] * (s[1] - sa[i][1]);
        } else {
            r[2 * i] = sw[i] * BEHIND_ERR;
        }
    }
}

/* The residuals of p (NRES of them) and their sum of squares, through v
 * (p's angles and view angle; its eye is p's); sw[i] and sl[j] the
 * square roots of w[i] and of the pulls lam[j], taken once by the caller
 * (the same numbers as taken here). */
static double residuals(const double p[NPAR], const view *v, const double (*pb)[3],
                        const double (*sa)[2], const double *w, const double *sw,
                        const double p0[NPAR], const double *sl, double *r)
{
    point_res(v, p + P_EYE, pb, sa, w, sw, r);
    for (int j = 0; j < NPAR; j++)
        r[2 * NPOINTS + j] = sl[j] * (p[j] - p0[j]);
    double cost = 0;
    for (int k = 0; k < NRES; k++)
        cost += r[k] * r[k];
    return cost;
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_VECTOR)
#define PK_CAMERA_V2D 1
/* Two doubles at a time (GCC/clang vector extension; -DPK_NO_VECTOR: one
 * at a time): each lane does what the plain loop does to its element, in
 * its order, so the same bits. */
typedef double v2d __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) v2d load2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void store2(double *p, v2d v)
{
    memcpy(p, &v, sizeof v);
}
#else
#define PK_CAMERA_V2D 0
#endif

/* n×n system A·x = b (row-major, in place: b becomes x), Gaussian
 * elimination with partial pivoting; false when singular. */
static inline __attribute__((always_inline)) bool gauss(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int pv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[pv * n + c]))
                pv = r;
        if (!(fabs(A[pv * n + c]) > 1e-300))
            return false;
        if (pv != c) {
            for (int k = 0; k < n; k++) {
                double t = A[c * n + k];
                A[c * n + k] = A[pv * n + k];
                A[pv * n + k] = t;
            }
            double t = b[c];
            b[c] = b[pv];
            b[pv] = t;
        }
        for (int r = c + 1; r < n; r++) { /* (column c below the pivot: never read again) */
            double f = A[r * n + c] / A[c * n + c];
            int k = c + 1;
#if PK_CAMERA_V2D
            for (v2d fv = {f, f}; k + 1 < n; k += 2)
                store2(&A[r * n + k], load2(&A[r * n + k]) - fv * load2(&A[c * n + k]));
#endif
            for (; k < n; k++)
                A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        double v = b[c];
        for (int j = c + 1; j < n; j++)
            v -= A[c * n + j] * b[j];
        b[c] = v / A[c * n + c];
    }
    return true;
}

/* gauss, with the loops of the usual sizes (every parameter free: the
 * bound's fits; the eye and the angles: the correction's) laid out by the
 * compiler for them: the same operations in the same order */
static bool solve_n(int n, double *A, double *b)
{
    return n == NPAR ? gauss(NPAR, A, b) : n == NPAR - 1 ? gauss(NPAR - 1, A, b) : gauss(n, A, b);
}

/* The Gauss-Newton normal equations of the Jacobian J (m rows of stride
 * columns, the first n used) at the residuals r: H = JᵀJ (n by n) and
 * g = Jᵀr. */
static void normal_eq(const double *J, int m, int stride, int n, const double *r, double *H,
                      double *g)
{
    for (int a = 0; a < n; a++) {
        g[a] = 0;
        for (int k = 0; k < m; k++)
            g[a] += J[k * stride + a] * r[k];
        for (int b = a; b < n; b++) {
            double v = 0;
            for (int k = 0; k < m; k++)
                v += J[k * stride + a] * J[k * stride + b];
            H[a * n + b] = H[b * n + a] = v; /* J_ka·J_kb = J_kb·J_ka: the same bits */
        }
    }
}

/* normal_eq of fit_view's Jacobian without its rows that are 0: n
 * columns of m point rows (Jt, by column), the residuals rr of those
 * rows, then each column's pull (Jd, its residual rd) on the diagonal
 * last, as the rows come.  A row of zeros adds nothing (a sum from +0 is
 * never −0, and x ± 0 is x): the same bits as normal_eq over every row. */
static inline __attribute__((always_inline)) void
normal_cols_n(int n, int m, const double (*Jt)[2 * NPOINTS], const double *rr, const double *Jd,
              const double *rd, double *H, double *g)
{
    for (int a = 0; a < n; a++) {
        double ga = 0;
        for (int q = 0; q < m; q++)
            ga += Jt[a][q] * rr[q];
        g[a] = ga + Jd[a] * rd[a];
        for (int b = a; b < n; b++) {
            double v = 0;
            for (int q = 0; q < m; q++)
                v += Jt[a][q] * Jt[b][q];
            if (b == a)
                v += Jd[a] * Jd[a];
            H[a * n + b] = H[b * n + a] = v;
        }
    }
}

/* normal_cols_n laid out for the usual sizes (every point measured; every
 * parameter free, or the eye and the angles) */
static void normal_cols(int n, int m, const double (*Jt)[2 * NPOINTS], const double *rr,
                        const double *Jd, const double *rd, double *H, double *g)
{
    if (m == 2 * NPOINTS && n == NPAR)
        normal_cols_n(NPAR, 2 * NPOINTS, Jt, rr, Jd, rd, H, g);
    else if (m == 2 * NPOINTS && n == NPAR - 1)
        normal_cols_n(NPAR - 1, 2 * NPOINTS, Jt, rr, Jd, rd, H, g);
    else
        normal_cols_n(n, m, Jt, rr, Jd, rd, H, g);
}

/* Moves the free parameters of p (free: a bit per parameter) to a local
 * minimum of the cost; D: the viewing distance (the eye's scale).  hv,
 * hco and hsi: the view at p and its angles' cosines and sines (view_cs),
 * in and out: the caller's measure of p takes them from here. */
static void fit_view(const double (*pb)[3], const double (*sa)[2], const double *w,
                     const double p0[NPAR], const double lam[NPAR], unsigned free, double D,
                     int iters, double p[NPAR], view *hv, double hco[3], double hsi[3])
{
    int idx[NPAR], n = 0;
    for (int j = 0; j < NPAR; j++)
        if (free & 1u << j)
            idx[n++] = j;
    if (!n)
        return;
    /* the view at p with its angles' cosines and sines (view_cs: the
     * same bits as view_par), kept from the step that reached p: a step
     * of the Jacobian in one angle recomputes that angle's alone, one in
     * the eye or the view angle none */
    double r[NRES], rt[NRES], J[NRES * NPAR], Jt[NPAR][2 * NPOINTS], Jd[NPAR], pt[NPAR], co[3],
        si[3], tco[3], tsi[3], sw[NPOINTS], sl[NPAR];
    /* p0 the array p is (the polish): the pulls' residuals r were taken
     * from p0 as it was, so a step moves every pull's row */
    bool alias = p0 == p;
    int rows[2 * NPOINTS], m = 0; /* the point rows that can be other than 0 */
    for (int i = 0; i < NPOINTS; i++) {
        sw[i] = w[i] > 0 ? sqrt(w[i]) : 0;
        if (w[i] > 0)
            rows[m++] = 2 * i, rows[m++] = 2 * i + 1;
    }
    for (int j = 0; j < NPAR; j++)
        sl[j] = sqrt(lam[j]);
    view here = *hv, turned, tried;
    memcpy(co, hco, sizeof co);
    memcpy(si, hsi, sizeof si);
    double cost = residuals(p, &here, pb, sa, w, sw, p0, sl, r), mu = 1e-3;
    for (int it = 0; it < iters && mu < 1e10; it++) {
        /* the Jacobian by forward differences, as residuals gives them:
         * a step in parameter j moves the points' rows and its own pull's
         * row alone (every other pull's is the same number, its difference
         * 0); the rows of points of no weight are 0 */
        for (int c = 0; c < n; c++) {
            int j = idx[c];
            double h = j < P_ROT ? 1e-6 * D : j < P_FOV ? 1e-7 : 1e-5;
            memcpy(pt, p, sizeof pt);
            pt[j] += h;
            const view *vj = &here;
            if (j == P_FOV) {
                turned = here;
                turned.t = 2.0 * pki_tan(pt[P_FOV] * PI / 360.0);
                vj = &turned;
            } else if (j >= P_ROT) {
                turned = here;
                rot_cs_step(co, si, j - P_ROT, pt[j], turned.R);
                vj = &turned;
            }
            point_res(vj, pt + P_EYE, pb, sa, w, sw, rt);
            for (int q = 0; q < m; q++) {
                int k = rows[q];
                Jt[c][q] = (rt[k] - r[k]) / h;
                if (alias)
                    J[k * NPAR + c] = Jt[c][q];
            }
            Jd[c] = (sl[j] * (pt[j] - p0[j]) - r[2 * NPOINTS + j]) / h;
            if (alias) /* every pull's row, as residuals gives it */
                for (int k = 2 * NPOINTS; k < NRES; k++)
                    J[k * NPAR + c] =
                        (sl[k - 2 * NPOINTS] * (pt[k - 2 * NPOINTS] - p0[k - 2 * NPOINTS]) - r[k]) /
                        h;
        }
        double H[NPAR * NPAR], g[NPAR];
        if (alias) {
            for (int k = 0; k < 2 * NPOINTS; k++)
                if (!(w[k / 2] > 0))
                    for (int c = 0; c < n; c++)
                        J[k * NPAR + c] = 0;
            normal_eq(J, NRES, NPAR, n, r, H, g);
        }
        if (!alias) {
            double rr[2 * NPOINTS], rd[NPAR];
            for (int q = 0; q < m; q++)
                rr[q] = r[rows[q]];
            for (int a = 0; a < n; a++)
                rd[a] = r[2 * NPOINTS + idx[a]];
            normal_cols(n, m, (const double(*)[2 * NPOINTS])Jt, rr, Jd, rd, H, g);
        }
        bool better = false;
        double next = cost;
        while (!better && mu < 1e10) {
            double M[NPAR * NPAR], dx[NPAR];
            memcpy(M, H, sizeof M);
            for (int a = 0; a < n; a++) {
                M[a * n + a] += mu * H[a * n + a] + 1e-300;
                dx[a] = -g[a];
            }
            if (!solve_n(n, M, dx)) {
                mu *= 10;
                continue;
            }
            memcpy(pt, p, sizeof pt);
            for (int a = 0; a < n; a++)
                pt[idx[a]] += dx[a];
            pt[P_FOV] = fmin(FOV_MAX, fmax(FOV_MIN, pt[P_FOV]));
            if (pt[P_FOV] == p[P_FOV]) { /* the view angle kept: its tangent too */
                for (int a = 0; a < 3; a++)
                    pki_sincos(-pt[P_ROT + a], &tsi[a], &tco[a]);
                rot_cs(tco, tsi, tried.R);
                memcpy(tried.eye, pt + P_EYE, sizeof tried.eye);
                tried.t = here.t;
                tried.ortho = false;
            } else {
                view_cs(pt, tco, tsi, &tried);
            }
            next = residuals(pt, &tried, pb, sa, w, sw, p0, sl, rt);
            if (next < cost) {
                better = true;
                mu = fmax(mu / 3, 1e-9);
            } else {
                mu *= 4;
            }
        }
        if (!better)
            break;
        bool done_ = cost - next < 1e-14 + 1e-10 * cost;
        memcpy(p, pt, sizeof pt);
        memcpy(r, rt, sizeof r);
        memcpy(co, tco, sizeof co);
        memcpy(si, tsi, sizeof si);
        here = tried;
        cost = next;
        if (done_)
            break;
    }
    *hv = here;
    memcpy(hco, co, sizeof co);
    memcpy(hsi, si, sizeof si);
}

/* Least squares, then Lawson's reweighting (each point's weight times its
 * distance, rounds − 1 times) towards the smallest largest distance: p
 * becomes the one of p as given and the iterates whose largest weighted
 * distance is least, returned. */
static double fit_minimax(const double (*pb)[3], const double (*sa)[2], const double *w,
                          const double p0[NPAR], const double lam[NPAR], unsigned free, double D,
                          int rounds, int iters, double p[NPAR])
{
    double u[NPOINTS], best = INFINITY, bp[NPAR], wsum = 0;
    memcpy(u, w, sizeof u);
    memcpy(bp, p, sizeof bp);
    for (int i = 0; i < NPOINTS; i++)
        wsum += w[i];
    /* the view at p (view_cs: view_par's bits), kept by fit_view */
    view v;
    double co[3], si[3];
    view_cs(p, co, si, &v);
    for (int round = -1; round < rounds; round++) {
        if (round >= 0) /* round -1: p as it came */
            fit_view(pb, sa, u, p0, lam, free, D, iters, p, &v, co, si);
        double e[NPOINTS], worst = 0, sum = 0;
        for (int i = 0; i < NPOINTS; i++) {
            double s[2];
            e[i] = 0;
            if (!(w[i] > 0))
                continue;
            e[i] = screen(&v, v.eye, pb[i], s) ? pki_hypot(s[0] - sa[i][0], s[1] - sa[i][1])
                                               : BEHIND_ERR;
            worst = fmax(worst, w[i] * e[i]);
        }
        if (worst < best) {
            best = worst;
            memcpy(bp, p, sizeof bp);
        }
        if (round < 0 && !(worst > 1e-6))
            break; /* p as it came lands the points */
        if (round < 0)
            continue;
        for (int i = 0; i < NPOINTS; i++)
            u[i] *= fmax(e[i], 1e-9), sum += u[i];
        if (!(sum > 0) || !(worst > 1e-6))
            break;
        for (int i = 0; i < NPOINTS; i++)
            u[i] *= wsum / sum;
    }
    memcpy(p, bp, sizeof bp);
    return best;
}

/* ---- the frame-by-frame correction ---- */

static bool solve3(double H[3][3], const double g[3], double x[3])
{
    double det = H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
                 H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
                 H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]);
    if (!(fabs(det) > 1e-300) || !isfinite(det))
        return false;
    for (int c = 0; c < 3; c++) {
        double M[3][3];
        memcpy(M, H, sizeof M);
        for (int r = 0; r < 3; r++)
            M[r][c] = g[r];
        x[c] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
               det;
    }
    return true;
}

/* The eye e (from e_ref) that lands B's points where A's land (sa),
 * weights w. */
static void solve_eye(const view *v, const double (*pb)[3], const double (*sa)[2], const double *w,
                      const double eref[3], double D, double e[3])
{
    memcpy(e, eref, 3 * sizeof *e);
    double lam = REG / (D * D);
    for (int it = 0; it < 30; it++) {
        double H[3][3] = {{lam, 0, 0}, {0, lam, 0}, {0, 0, lam}};
        double g[3] = {lam * (e[0] - eref[0]), lam * (e[1] - eref[1]), lam * (e[2] - eref[2])};
        double zmin = INFINITY;
        for (int i = 0; i < NPOINTS; i++) {
            if (!(w[i] > 0))
                continue;
            double q[3];
            cam_space(v, e, pb[i], q);
            if (!(q[2] > NEAR))
                continue;
            zmin = fmin(zmin, q[2]);
            double iz = 1.0 / (q[2] * v->t);
            double r[2] = {q[0] * iz - sa[i][0], q[1] * iz - sa[i][1]};
            /* d(screen)/d(camera space), then d(camera space)/de = −Rᵀ */
            double jq[2][3] = {{iz, 0, -q[0] * iz / q[2]}, {0, iz, -q[1] * iz / q[2]}};
            double j[2][3];
            for (int s = 0; s < 2; s++)
                for (int a = 0; a < 3; a++)
                    j[s][a] =
                        -(jq[s][0] * v->R[a][0] + jq[s][1] * v->R[a][1] + jq[s][2] * v->R[a][2]);
            for (int s = 0; s < 2; s++)
                for (int a = 0; a < 3; a++) {
                    g[a] += w[i] * j[s][a] * r[s];
                    for (int b = 0; b < 3; b++)
                        H[a][b] += w[i] * j[s][a] * j[s][b];
                }
        }
        double step[3], ng[3] = {-g[0], -g[1], -g[2]};
        if (!solve3(H, ng, step))
            return;
        double len = sqrt(step[0] * step[0] + step[1] * step[1] + step[2] * step[2]);
        if (isfinite(zmin) && len > 0.5 * zmin)
            for (int a = 0; a < 3; a++)
                step[a] *= 0.5 * zmin / len;
        for (int a = 0; a < 3; a++)
            e[a] += step[a];
        if (len < 1e-9 * D)
            break;
    }
}

/* The camera c (as played at frame fi) moved for B: *out. */
static void correct(const scene *sc, uint32_t fi, const pk_camera_key *c, pk_camera_key *out)
{
    *out = *c;
    view v;
    view_of(c, &v);
    if (v.ortho)
        return;
    const frame_pts *p = &sc->pts[fi];
    double sa[NPOINTS][2], w[NPOINTS], ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0}, wsum = 0;
    for (int i = 0; i < NPOINTS; i++) {
        w[i] = 0;
        if (sc->have[i] && screen(&v, v.eye, p->a[i], sa[i]))
            w[i] = weight_of(sc, sa[i]);
        wsum += w[i];
    }
    /* the anchor: the points in the picture, else the head, else all */
    double aw[NPOINTS], n = 0;
    for (int i = 0; i < NPOINTS; i++) {
        aw[i] = wsum > 0 ? w[i] : sc->have[i] && (i == 0 || !sc->have[0]) ? 1.0 : 0.0;
        n += aw[i];
        for (int a = 0; a < 3; a++) {
            ca[a] += aw[i] * p->a[i][a];
            cb[a] += aw[i] * p->b[i][a];
        }
    }
    if (!(n > 0))
        return;
    for (int a = 0; a < 3; a++) {
        ca[a] /= n;
        cb[a] /= n;
    }
    double eref[3], e[3];
    for (int a = 0; a < 3; a++)
        eref[a] = cb[a] + sc->k * (v.eye[a] - ca[a]);
    double D =
        sqrt((v.eye[0] - ca[0]) * (v.eye[0] - ca[0]) + (v.eye[1] - ca[1]) * (v.eye[1] - ca[1]) +
             (v.eye[2] - ca[2]) * (v.eye[2] - ca[2])) *
        sc->k;
    if (!(D > 1e-6))
        D = 1.0;
    if (wsum > 0)
        solve_eye(&v, (const double(*)[3])p->b, (const double(*)[2])sa, w, eref, D, e);
    else
        memcpy(e, eref, sizeof e);
    view vn = v;
    if (wsum > 0) {
        double pp[NPAR], p0[NPAR], lam[NPAR];
        par_of(&v, c, p0);
        memcpy(p0 + P_EYE, eref, sizeof eref);
        memcpy(pp, p0, sizeof pp);
        memcpy(pp + P_EYE, e, sizeof e);
        for (int j = 0; j < NPAR; j++)
            lam[j] = j < P_ROT ? REG / (D * D) : TURN_REG;
        fit_minimax((const double(*)[3])p->b, (const double(*)[2])sa, w, p0, lam, EYE_AND_ANGLES, D,
                    ROUNDS, LM_ITERS, pp);
        view_par(pp, &vn);
        memcpy(e, pp + P_EYE, sizeof e);
        for (int a = 0; a < 3; a++)
            out->rot[a] = (float)pp[P_ROT + a];
    }
    double qa[3], qb[3];
    cam_space(&v, v.eye, ca, qa);
    cam_space(&vn, e, cb, qb);
    double ratio = qa[2] > NEAR && qb[2] > NEAR ? qb[2] / qa[2] : sc->k;
    double d = (double)c->distance * ratio;
    out->distance = (float)d;
    for (int a = 0; a < 3; a++)
        out->pos[a] = (float)(e[a] - d * vn.R[a][2]);
}

/* ---- measuring ---- */

/* The head's (else the first point's) index; -1 when the models share none. */
static int head_point(const scene *sc)
{
    for (int i = 0; i < NPOINTS; i++)
        if (sc->have[i])
            return i;
    return -1;
}

typedef struct tally {
    double worst, sum;
    size_t n;
    uint32_t worst_frame;
} tally;

/* Adds frame fi seen through cam (B) against the original (A); returns
 * the frame's largest distance, or -1 when A's head is not on the
 * screen (the frame is not measured). */
static double measure(const scene *sc, uint32_t fi, const pk_camera_key *orig,
                      const pk_camera_key *cam, tally *t)
{
    view va, vb;
    view_of(orig, &va);
    view_of(cam, &vb);
    const frame_pts *p = &sc->pts[fi];
    double sh[2];
    int head = sc->have[0] ? 0 : -1;
    for (int i = 0; head < 0 && i < NPOINTS; i++)
        if (sc->have[i])
            head = i;
    if (va.ortho || head < 0 || !screen(&va, va.eye, p->a[head], sh) || !on_screen(sc, sh))
        return -1;
    double worst = 0;
    for (int i = 0; i < NPOINTS; i++) {
        double sa[2], sb[2] = {0, 0};
        if (!sc->have[i] || !screen(&va, va.eye, p->a[i], sa) || !on_screen(sc, sa))
            continue;
        double e =
            screen(&vb, vb.eye, p->b[i], sb) ? pki_hypot(sb[0] - sa[0], sb[1] - sa[1]) : BEHIND_ERR;
        worst = fmax(worst, e);
        if (t) {
            t->sum += e;
            t->n++;
            if (e > t->worst) {
                t->worst = e;
                t->worst_frame = fi;
            }
        }
    }
    return worst;
}

/* ---- the bound: the best camera for each frame ----
 *
 * Every parameter free (the eye, the three angles and the view angle),
 * the cost of a frame the largest distance of B's points from A's over
 * the points A shows on the screen, each point's fit by fit_minimax
 * (least squares, then Lawson's reweighting towards the smallest largest
 * distance).  The problem is not convex, so from several starts:
 *   - the frame-by-frame correction;
 *   - the best camera found for the frame before (and, in a pass
 *     backwards over the frames still missing the goal, the frame after):
 *     within a shot the best camera moves little from frame to frame;
 *   - a closed form: B's points fitted to A's screen points by a
 *     weak-perspective camera (the centred points' affine map, least
 *     squares; its nearest scaled pair of orthonormal rows, by the polar
 *     decomposition, are the camera's right and up, the scale its depth),
 *     at the original's view angle;
 * and, on a frame these leave above PK_CAMERA_GOAL, BOUND_MORE more: the
 * closed form at other view angles, and the correction and the closed
 * form turned by BOUND_TURN about the camera's right and up axes through
 * the points' centroid.  The best found then has its view angle rounded
 * to a whole degree (MMD keys it so) and the other six parameters fitted
 * again: a camera MMD can play, never worse than the correction.  A frame
 * still above the goal is then polished (bound_polish: POLISH_ROUNDS of
 * the reweighting from that camera), for the report alone: the frames
 * the camera written aims at (the track's weight, the least change) are
 * those the search met before the polish, so that a frame only a far lens
 * or another shot reaches does not pull the shot.
 *
 * Not a proof.  A frame with at most three points measured is met
 * exactly by some camera (seven parameters, six coordinates), but with
 * four or five no closed-form bound holds: the residual of a similarity
 * or affine alignment of the 2D points is not one (a perspective camera
 * foreshortens; its image of B's points is no fixed 2D shape's).  The
 * certified bound is a global search over the rotations
 * (retarget_certify.c, run by tests/bench/bench_camera_bound.c on chosen
 * frames, too slow for every frame of every run).  What the starts give:
 * with twice BOUND_MORE's starts the frames met change by at most 4 of
 * 2801 on the corpus (doc/commands.md). */

#define BOUND_TURN 0.35 /* radians (20°): the extra starts' turns */
#define BOUND_MORE 1    /* rounds of extra starts where the goal is missed */
#define POLISH_ROUNDS 40 /* Lawson's rounds of the polish, where the goal is still missed */
static const double BOUND_FOVS[] = {10, 25, 50, 90};

/* The MMD angles of rotation R (R = Ry(−ry)·Rx(−rx)·Rz(−rz)), each
 * within half a turn of near's. */
static void angles_of(const double R[3][3], const double near[3], double r[3])
{
    r[0] = -pki_asin(fmax(-1.0, fmin(1.0, -R[1][2])));
    r[1] = -pki_atan2(R[0][2], R[2][2]);
    r[2] = -pki_atan2(R[1][0], R[1][1]);
    for (int a = 0; a < 3; a++) {
        while (r[a] - near[a] > PI)
            r[a] -= 2 * PI;
        while (r[a] - near[a] < -PI)
            r[a] += 2 * PI;
    }
}

/* The weighted centroid of B's points (u > 0) and of A's screen points. */
static double centroids(const double (*pb)[3], const double (*sa)[2], const double *u, double xb[3],
                        double sb[2])
{
    double n = 0;
    xb[0] = xb[1] = xb[2] = sb[0] = sb[1] = 0;
    for (int i = 0; i < NPOINTS; i++) {
        if (!(u[i] > 0))
            continue;
        n += 1;
        for (int a = 0; a < 3; a++)
            xb[a] += pb[i][a];
        sb[0] += sa[i][0];
        sb[1] += sa[i][1];
    }
    for (int a = 0; a < 3 && n > 0; a++)
        xb[a] /= n;
    if (n > 0)
        sb[0] /= n, sb[1] /= n;
    return n;
}

/* The weak-perspective start at view angle fov (degrees): false when the
 * points do not decide one (fewer than three, or all in one place). */
static bool weak_start(const double (*pb)[3], const double (*sa)[2], const double *u, double fov,
                       const double near[3], double p[NPAR])
{
    double xb[3], sb[2];
    if (centroids(pb, sa, u, xb, sb) < 3)
        return false;
    /* the affine map m (2×3) of the centred points: m = S·Xᵀ·(X·Xᵀ)⁻¹ */
    double XX[3][3] = {{0}}, SX[2][3] = {{0}}, tr = 0;
    for (int i = 0; i < NPOINTS; i++) {
        if (!(u[i] > 0))
            continue;
        double x[3] = {pb[i][0] - xb[0], pb[i][1] - xb[1], pb[i][2] - xb[2]};
        double s[2] = {sa[i][0] - sb[0], sa[i][1] - sb[1]};
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++)
                XX[a][b] += x[a] * x[b];
            SX[0][a] += s[0] * x[a];
            SX[1][a] += s[1] * x[a];
        }
    }
    for (int a = 0; a < 3; a++)
        tr += XX[a][a];
    if (!(tr > 1e-12))
        return false;
    for (int a = 0; a < 3; a++)
        XX[a][a] += 1e-6 * tr; /* three or four points in a plane: the least-norm map */
    double m[2][3];
    for (int r = 0; r < 2; r++) {
        double H[3][3];
        memcpy(H, XX, sizeof H);
        if (!solve3(H, SX[r], m[r])) /* XX symmetric: row r of m */
            return false;
    }
    /* the polar decomposition m = S·Q, S = (m·mᵀ)^½ (2×2: (G + √det·I)/√(tr + 2√det)) */
    double g00 = m[0][0] * m[0][0] + m[0][1] * m[0][1] + m[0][2] * m[0][2];
    double g11 = m[1][0] * m[1][0] + m[1][1] * m[1][1] + m[1][2] * m[1][2];
    double g01 = m[0][0] * m[1][0] + m[0][1] * m[1][1] + m[0][2] * m[1][2];
    double det = g00 * g11 - g01 * g01;
    if (!(det > 1e-300))
        return false;
    double sd = sqrt(det), sn = sqrt(g00 + g11 + 2 * sd);
    double s00 = (g00 + sd) / sn, s11 = (g11 + sd) / sn, s01 = g01 / sn;
    double sdet = s00 * s11 - s01 * s01;
    if (!(sdet > 1e-300))
        return false;
    double R[3][3], sigma = 0.5 * (s00 + s11);
    for (int a = 0; a < 3; a++) { /* Q = S⁻¹·m: right and up */
        R[a][0] = (s11 * m[0][a] - s01 * m[1][a]) / sdet;
        R[a][1] = (-s01 * m[0][a] + s00 * m[1][a]) / sdet;
    }
    R[0][2] = R[1][0] * R[2][1] - R[2][0] * R[1][1]; /* forward = right × up */
    R[1][2] = R[2][0] * R[0][1] - R[0][0] * R[2][1];
    R[2][2] = R[0][0] * R[1][1] - R[1][0] * R[0][1];
    double t = 2.0 * pki_tan(fov * PI / 360.0), z = 1.0 / (sigma * t);
    for (int a = 0; a < 3; a++)
        p[P_EYE + a] = xb[a] - z * R[a][2] - sb[0] * z * t * R[a][0] - sb[1] * z * t * R[a][1];
    angles_of((const double(*)[3])R, near, p + P_ROT);
    p[P_FOV] = fov;
    return true;
}

/* p turned by angle about the camera's right (axis 0) or up (1) through
 * the point c. */
static void turn_start(double p[NPAR], int axis, double angle, const double c[3])
{
    view v;
    view_par(p, &v);
    double k[3] = {v.R[0][axis], v.R[1][axis], v.R[2][axis]}, T[3][3], R[3][3];
    double cs, sn;
    pki_sincos(angle, &sn, &cs);
    for (int i = 0; i < 3; i++) /* Rodrigues: T = cos·I + sin·[k]× + (1 − cos)·k·kᵀ */
        for (int j = 0; j < 3; j++)
            T[i][j] = (i == j ? cs : 0) + (1 - cs) * k[i] * k[j];
    T[0][1] -= sn * k[2], T[1][0] += sn * k[2];
    T[0][2] += sn * k[1], T[2][0] -= sn * k[1];
    T[1][2] -= sn * k[0], T[2][1] += sn * k[0];
    mat_mul((const double(*)[3])T, (const double(*)[3])v.R, R);
    double d[3] = {v.eye[0] - c[0], v.eye[1] - c[1], v.eye[2] - c[2]};
    for (int i = 0; i < 3; i++)
        p[P_EYE + i] = c[i] + T[i][0] * d[0] + T[i][1] * d[1] + T[i][2] * d[2];
    double near[3] = {p[P_ROT], p[P_ROT + 1], p[P_ROT + 2]};
    angles_of((const double(*)[3])R, near, p + P_ROT);
}

/* One frame's bound: its measured points (u, A's screen points sa). */
typedef struct bound_frame_in {
    double sa[NPOINTS][2], u[NPOINTS], D;
    int n;
} bound_frame_in;

/* The frame's points measured; false when the frame is not. */
static bool bound_setup(const scene *sc, uint32_t fi, const pk_camera_key *orig,
                        const pk_camera_key *start, bound_frame_in *in)
{
    if (measure(sc, fi, orig, orig, NULL) < 0)
        return false;
    view va;
    view_of(orig, &va);
    const frame_pts *fp = &sc->pts[fi];
    in->n = 0;
    for (int i = 0; i < NPOINTS; i++) {
        in->u[i] = 0;
        if (sc->have[i] && screen(&va, va.eye, fp->a[i], in->sa[i]) && on_screen(sc, in->sa[i]))
            in->u[i] = 1, in->n++;
    }
    in->D = fmax(fabs(start->distance), 1.0);
    return true;
}

/* The largest distance at p (every parameter as given). */
static double bound_cost(const scene *sc, uint32_t fi, const bound_frame_in *in,
                         const double p[NPAR])
{
    view v;
    view_par(p, &v);
    double worst = 0;
    for (int i = 0; i < NPOINTS; i++) {
        double s[2];
        if (!(in->u[i] > 0))
            continue;
        worst = fmax(worst, screen(&v, v.eye, sc->pts[fi].b[i], s)
                                ? pki_hypot(s[0] - in->sa[i][0], s[1] - in->sa[i][1])
                                : BEHIND_ERR);
    }
    return worst;
}

/* Fits from start p (free: the parameters moved); *best and bp become p's
 * result where it is better.  Returns p's result. */
static double bound_try(const scene *sc, uint32_t fi, const bound_frame_in *in, unsigned free,
                        double p[NPAR], double *best, double bp[NPAR])
{
    double lam[NPAR], p0[NPAR];
    memcpy(p0, p, sizeof p0);
    for (int j = 0; j < NPAR; j++)
        lam[j] = j < P_ROT ? 1e-10 / (in->D * in->D) : 1e-10;
    fit_minimax((const double(*)[3])sc->pts[fi].b, (const double(*)[2])in->sa, in->u, p0, lam, free,
                in->D, BOUND_ROUNDS, 40, p);
    double e = bound_cost(sc, fi, in, p);
    if (e < *best) {
        *best = e;
        memcpy(bp, p, NPAR * sizeof *bp);
    }
    return e;
}

/* Frame fi's best camera (every parameter free, the view angle any):
 * p (in: the best so far, *best its cost, INFINITY for none) from the
 * correction, the neighbour's best (nb, may be NULL) and the closed form;
 * more starts when still above the goal (more: how many rounds of them). */
static void bound_search(const scene *sc, uint32_t fi, const bound_frame_in *in,
                         const pk_camera_key *start, const double *nb, int more, double *best,
                         double p[NPAR])
{
    const unsigned all = (1u << NPAR) - 1;
    double q[NPAR], c0[NPAR], w0[NPAR], xb[3], sb[2];
    view vs;
    view_of(start, &vs);
    par_of(&vs, start, c0);
    bool first = !isfinite(*best);
    if (first) {
        memcpy(q, c0, sizeof q);
        bound_try(sc, fi, in, all, q, best, p);
    }
    if (nb) {
        memcpy(q, nb, sizeof q);
        bound_try(sc, fi, in, all, q, best, p);
    }
    const double(*pb)[3] = (const double(*)[3])sc->pts[fi].b;
    const double(*csa)[2] = (const double(*)[2])in->sa;
    bool weak = weak_start(pb, csa, in->u, c0[P_FOV], c0 + P_ROT, w0);
    if (weak && first) {
        memcpy(q, w0, sizeof q);
        bound_try(sc, fi, in, all, q, best, p);
    }
    centroids(pb, csa, in->u, xb, sb);
    /* a start tried already is not tried again: the same start gives
     * the same fit, which is no better than itself (the closed form at
     * the original's view angle, tried above; without the closed form
     * the turns of the correction are the first four's) */
    for (int r = 0; r<more && * best> PK_CAMERA_GOAL; r++) {
        for (size_t f = 0; f < sizeof BOUND_FOVS / sizeof *BOUND_FOVS; f++) {
            double fov = BOUND_FOVS[f] * (r ? 0.7 : 1.0);
            if (weak && first && fov == c0[P_FOV])
                continue;
            if (weak_start(pb, csa, in->u, fov, c0 + P_ROT, q))
                bound_try(sc, fi, in, all, q, best, p);
        }
        for (int s = 0; s < (weak ? 8 : 4); s++) {
            memcpy(q, s < 4 || !weak ? c0 : w0, sizeof q);
            turn_start(q, s & 1, (s & 2 ? -1 : 1) * BOUND_TURN * (r + 1), xb);
            bound_try(sc, fi, in, all, q, best, p);
        }
    }
}

/* The best camera MMD can play from the search's p: its view angle a
 * whole degree, the rest fitted again; never worse than the correction.
 * Returns its largest distance. */
static double bound_round(const scene *sc, uint32_t fi, const bound_frame_in *in,
                          const pk_camera_key *start, double p[NPAR])
{
    double best = INFINITY, bp[NPAR], q[NPAR];
    view vs;
    view_of(start, &vs);
    par_of(&vs, start, q);
    double e0 = bound_cost(sc, fi, in, q);
    best = e0;
    memcpy(bp, q, sizeof bp);
    double xb[3], sb[2];
    centroids((const double(*)[3])sc->pts[fi].b, (const double(*)[2])in->sa, in->u, xb, sb);
    double fov0 = 0;
    for (int up = 0; up < 2; up++) { /* the whole degree below and above */
        memcpy(q, p, sizeof q);
        q[P_FOV] = fmin(FOV_MAX, fmax(FOV_MIN, floor(p[P_FOV]) + up));
        if (up && q[P_FOV] == fov0)
            break; /* at the widest: the degree above is the one tried (the same start, the
                      same fit, no better than itself) */
        fov0 = q[P_FOV];
        /* the subject's size kept: its depth scaled as 1/(2·tan(fov/2)) */
        view v;
        view_par(p, &v);
        double c[3], z1 = 0;
        cam_space(&v, v.eye, xb, c);
        z1 = c[2] * v.t / (2.0 * pki_tan(q[P_FOV] * PI / 360.0));
        for (int a = 0; a < 3; a++)
            q[P_EYE + a] += (c[2] - z1) * v.R[a][2];
        bound_try(sc, fi, in, EYE_AND_ANGLES, q, &best, bp);
    }
    memcpy(p, bp, sizeof bp);
    return best;
}

/* Adds frame fi's distances through the bound camera p to t. */
static void bound_tally(const scene *sc, uint32_t fi, const bound_frame_in *in,
                        const double p[NPAR], tally *t)
{
    view v;
    view_par(p, &v);
    for (int i = 0; i < NPOINTS; i++) {
        double s[2];
        if (!(in->u[i] > 0))
            continue;
        double e = screen(&v, v.eye, sc->pts[fi].b[i], s)
                       ? pki_hypot(s[0] - in->sa[i][0], s[1] - in->sa[i][1])
                       : BEHIND_ERR;
        t->sum += e;
        t->n++;
        if (e > t->worst) {
            t->worst = e;
            t->worst_frame = fi;
        }
    }
}

/* Frame fi's best camera p (its largest distance e, above the goal)
 * polished: fit_minimax from p with every parameter free for
 * POLISH_ROUNDS rounds of Lawson's reweighting (the search's 8 stop short
 * of the smallest largest distance where the points pull the view angle
 * to an end of its range, 1° or 125°, or several points are at their
 * largest at once), then its view angle a whole degree again
 * (bound_round).  Returns the better largest distance; p becomes its
 * camera. */
static double bound_polish(const scene *sc, uint32_t fi, const bound_frame_in *in,
                           const pk_camera_key *start, double e, double p[NPAR])
{
    double q[NPAR], lam[NPAR];
    memcpy(q, p, sizeof q);
    for (int j = 0; j < NPAR; j++)
        lam[j] = j < P_ROT ? 1e-10 / (in->D * in->D) : 1e-10;
    fit_minimax((const double(*)[3])sc->pts[fi].b, (const double(*)[2])in->sa, in->u, q, lam,
                (1u << NPAR) - 1, in->D, POLISH_ROUNDS, 40, q);
    double e2 = bound_round(sc, fi, in, start, q);
    if (!(e2 < e))
        return e;
    memcpy(p, q, sizeof q);
    return e2;
}

/* The bound over every frame: e[f] its largest distance as the search
 * found it (-1: not measured; what the camera written aims at), e_all[f]
 * with the frames above the goal polished (the report's: whether any
 * camera was found within the goal), the polished cameras' distances
 * into t, each frame's camera into bp (nf + 1 of them).  0, or -1 on
 * OOM. */
static int bound_all(const scene *sc, const pk_camera_key *orig, const pk_camera_key *best,
                     double *e, double *e_all, tally *t, double (*bp)[NPAR])
{
    uint32_t nf = sc->nframes;
    bound_frame_in *in = malloc((nf + 1) * sizeof *in);
    bool *on = calloc(nf + 1, sizeof *on);
    if (!in || !on) {
        free(in), free(on);
        return -1;
    }
    for (uint32_t f = 0; f < nf; f++) { /* forwards */
        e[f] = -1;
        if (!(on[f] = bound_setup(sc, f, &orig[f], &best[f], &in[f])))
            continue;
        e[f] = INFINITY;
        bound_search(sc, f, &in[f], &best[f], f && on[f - 1] ? bp[f - 1] : NULL, BOUND_MORE, &e[f],
                     bp[f]);
    }
    for (uint32_t f = nf; f-- > 1;) /* backwards, where the goal is missed */
        if (on[f - 1] && on[f] && e[f - 1] > PK_CAMERA_GOAL && e[f] < e[f - 1])
            bound_search(sc, f - 1, &in[f - 1], &best[f - 1], bp[f], 0, &e[f - 1], bp[f - 1]);
    for (uint32_t f = 0; f < nf; f++) {
        e_all[f] = -1;
        if (!on[f])
            continue;
        e_all[f] = e[f] = bound_round(sc, f, &in[f], &best[f], bp[f]);
        if (e[f] > PK_CAMERA_GOAL)
            e_all[f] = bound_polish(sc, f, &in[f], &best[f], e[f], bp[f]);
        bound_tally(sc, f, &in[f], bp[f], t);
    }
    free(in), free(on);
    return 0;
}

/* A one-frame scene of fr's points for the search: false when fr has
 * none or too many. */
static bool search_setup(const pki_cert_frame *fr, double D, frame_pts *pts, scene *sc,
                         bound_frame_in *in)
{
    if (fr->n < 1 || fr->n > NPOINTS)
        return false;
    memset(pts, 0, sizeof *pts);
    *sc = (scene){.nframes = 1, .pts = pts};
    *in = (bound_frame_in){.n = fr->n, .D = fmax(D, 1.0)};
    for (int i = 0; i < fr->n; i++) {
        memcpy(pts->b[i], fr->pb[i], sizeof pts->b[i]);
        in->sa[i][0] = fr->sa[i][0], in->sa[i][1] = fr->sa[i][1], in->u[i] = 1;
    }
    return true;
}

/* The camera p (its largest distance e) into res. */
static void search_result(const double p[NPAR], double e, pki_cert_result *res)
{
    view v;
    view_par(p, &v);
    for (int a = 0; a < 3; a++) {
        res->eye[a] = v.eye[a];
        for (int b = 0; b < 3; b++)
            res->Q[a][b] = v.R[b][a];
    }
    res->fov = p[P_FOV];
    res->worst = e;
    res->verdict = e <= PK_CAMERA_GOAL ? PKI_CERT_REACH : PKI_CERT_OPEN;
}

/* One frame's best camera as the bound searches for it (retarget.h). */
int pki_camera_search(const pki_cert_frame *fr, const pk_camera_key *start, pki_cert_result *res)
{
    memset(res, 0, sizeof *res);
    res->verdict = PKI_CERT_OPEN;
    frame_pts pts;
    scene sc;
    bound_frame_in in;
    if (!search_setup(fr, fabs(start->distance), &pts, &sc, &in))
        return -1;
    double p[NPAR], e = INFINITY;
    bound_search(&sc, 0, &in, start, NULL, BOUND_MORE, &e, p);
    e = bound_round(&sc, 0, &in, start, p);
    if (e > PK_CAMERA_GOAL)
        e = bound_polish(&sc, 0, &in, start, e, p);
    search_result(p, e, res);
    return 0;
}

/* The view angles the search from a rotation starts at (degrees). */
static const double AT_FOVS[] = {30, 60, 90, 125};

int pki_camera_search_at(const pki_cert_frame *fr, const double Q[3][3], pki_cert_result *res)
{
    memset(res, 0, sizeof *res);
    res->verdict = PKI_CERT_OPEN;
    frame_pts pts;
    scene sc;
    bound_frame_in in;
    if (!search_setup(fr, 1.0, &pts, &sc, &in))
        return -1;
    double R[3][3], xb[3], sb[2], zero[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            R[a][b] = Q[b][a];
    const double(*pb)[3] = (const double(*)[3])pts.b;
    centroids(pb, (const double(*)[2])in.sa, in.u, xb, sb);
    /* the scale: A's centred screen points over B's turned, least squares */
    double num = 0, den = 0, spread = 0;
    for (int i = 0; i < fr->n; i++) {
        double d[3] = {pb[i][0] - xb[0], pb[i][1] - xb[1], pb[i][2] - xb[2]};
        for (int k = 0; k < 2; k++) {
            double m = R[0][k] * d[0] + R[1][k] * d[1] + R[2][k] * d[2];
            num += (in.sa[i][k] - sb[k]) * m, den += m * m;
        }
        spread += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    double sigma = num > 0 && den > 0 ? num / den : 0.1 / fmax(sqrt(spread / fr->n), 1e-6);
    double p[NPAR], q[NPAR], e = INFINITY;
    for (size_t k = 0; k < sizeof AT_FOVS / sizeof *AT_FOVS; k++) {
        double t = 2.0 * pki_tan(AT_FOVS[k] * PI / 360.0), z = 1.0 / (sigma * t);
        for (int a = 0; a < 3; a++)
            q[P_EYE + a] = xb[a] - z * R[a][2] - sb[0] * z * t * R[a][0] - sb[1] * z * t * R[a][1];
        angles_of((const double(*)[3])R, zero, q + P_ROT);
        q[P_FOV] = AT_FOVS[k];
        in.D = fmax(z, 1.0);
        bound_try(&sc, 0, &in, (1u << NPAR) - 1, q, &e, p);
    }
    pk_camera_key start;
    memset(&start, 0, sizeof start);
    start.fov = (uint32_t)fmin(FOV_MAX, fmax(FOV_MIN, round(p[P_FOV])));
    start.distance = (float)in.D;
    e = bound_round(&sc, 0, &in, &start, p);
    if (e > PK_CAMERA_GOAL)
        e = bound_polish(&sc, 0, &in, &start, e, p);
    search_result(p, e, res);
    return 0;
}

/* ---- the points ---- */

static int eval_points(scene *sc, pk_log *log)
{
    const pk_camera_options *o = sc->o;
    const pk_model *m[2] = {o->from, o->to};
    const pk_motion *d[2] = {o->dance_from, o->dance_to};
    long bone[2][NPOINTS];
    for (int i = 0; i < NPOINTS; i++) {
        bone[0][i] = pki_model_find_bone_utf8(m[0], POINTS[i]);
        bone[1][i] = pki_model_find_bone_utf8(m[1], POINTS[i]);
        sc->have[i] = bone[0][i] >= 0 && bone[1][i] >= 0;
        sc->npoints += sc->have[i];
    }
    if (!sc->npoints) {
        pk_error(log, PK_E_NOT_FOUND,
                 "the camera: the two models share none of 頭, 左手首, 右手首, 左足首, "
                 "右足首, the points the camera frames");
        return -1;
    }
    /* the models' size: the head's (else the first point's) height at rest */
    int ref = sc->have[0] ? 0 : 1;
    while (!sc->have[ref])
        ref++;
    double ha = m[0]->bones[bone[0][ref]].pos[1], hb = m[1]->bones[bone[1][ref]].pos[1];
    sc->k = ha > 1e-6 && hb > 1e-6 ? hb / ha : 1.0;
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++) {
        pk_rig *rig = pk_rig_new(m[s], log);
        pk_tracks *t = rig ? pk_tracks_build(d[s], log) : NULL;
        pk_bone_local *loc = calloc(m[s]->nbones + 1, sizeof *loc);
        bool *on = calloc(m[s]->nbones + 1, sizeof *on);
        pk_bone_world *w = calloc(m[s]->nbones + 1, sizeof *w);
        if (!rig || !t || !loc || !on || !w) {
            if (rig && t)
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
        }
        for (uint32_t f = 0; !rc && f < sc->nframes; f++) {
            pk_rig_motion_local(rig, d[s], t, (double)f, loc, on);
            pk_rig_eval(rig, loc, on, 0, w);
            for (int i = 0; i < NPOINTS; i++)
                if (sc->have[i])
                    memcpy(s ? sc->pts[f].b[i] : sc->pts[f].a[i], w[bone[s][i]].pos,
                           3 * sizeof(double));
        }
        free(loc);
        free(on);
        free(w);
        pk_tracks_free(t);
        pk_rig_free(rig);
    }
    return rc;
}

/* ---- the keys, all at once ----
 *
 * Played by MMD, the camera at a frame is one key's, or between keys k0
 * and k1 each centre axis and the distance are (1 − u)·k0 + u·k1 with u
 * from k1's curve for that channel; the angles (and so R) are not
 * changed.  The eye c + d·forward is therefore linear in the keys' centres
 * and distances, x_k = (cx, cy, cz, d): the screen distances of B's points
 * to A's over every frame are a least-squares problem in the x_k, each
 * frame coupling at most two neighbouring keys (normal equations block
 * tridiagonal, 4×4 blocks), pulled towards each key's own frame-by-frame
 * correction (REG per (distance)²) where the frames say little. */

typedef struct coef {
    int32_t k[2];   /* keys (k[1] -1: one key) */
    double u[2][4]; /* per key: its weight for centre x, y, z and the distance */
    double fwd[3], R[3][3], t;
    bool ortho;
} coef;

static double cam_curve(const uint8_t ip[24], int g, double s)
{
    const uint8_t *c = ip + 4 * g;
    return pki_bezier_solve(c[0], c[2], c[1], c[3], s, NULL);
}

/* How the camera at frame f comes from the keys (sorted by frame). */
static void coef_of(const pk_camera_key *keys, size_t nk, uint32_t f, const pk_camera_key *played,
                    coef *c)
{
    size_t lo = 0, hi = nk; /* the last key at or before f */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].frame <= f)
            lo = mid;
        else
            hi = mid;
    }
    c->k[0] = (int32_t)lo;
    c->k[1] = -1;
    for (int a = 0; a < 4; a++)
        c->u[0][a] = 1.0;
    if (f > keys[lo].frame && lo + 1 < nk && keys[lo + 1].frame - keys[lo].frame > 1) {
        double s = (double)(f - keys[lo].frame) / (double)(keys[lo + 1].frame - keys[lo].frame);
        c->k[1] = (int32_t)(lo + 1);
        for (int a = 0; a < 4; a++) {
            double u = cam_curve(keys[lo + 1].interp, a < 3 ? a : 4, s);
            c->u[0][a] = 1.0 - u;
            c->u[1][a] = u;
        }
    }
    view v;
    view_of(played, &v);
    memcpy(c->R, v.R, sizeof c->R);
    for (int a = 0; a < 3; a++)
        c->fwd[a] = v.R[a][2];
    c->t = v.t;
    c->ortho = v.ortho;
}

static void eye_at(const coef *c, const double (*x)[4], double e[3])
{
    double d = 0;
    for (int a = 0; a < 3; a++)
        e[a] = 0;
    for (int j = 0; j < 2 && c->k[j] >= 0; j++) {
        const double *xk = x[c->k[j]];
        for (int a = 0; a < 3; a++)
            e[a] += c->u[j][a] * xk[a];
        d += c->u[j][3] * xk[3];
    }
    for (int a = 0; a < 3; a++)
        e[a] += d * c->fwd[a];
}

/* A 4×4 system with m right-hand sides (columns of b, 4×m row-major),
 * solved in place by Gaussian elimination with partial pivoting. */
static bool solve4(double A[4][4], double *b, int m)
{
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(A[r][c]) > fabs(A[p][c]))
                p = r;
        if (!(fabs(A[p][c]) > 1e-300))
            return false;
        if (p != c) {
            for (int k = 0; k < 4; k++) {
                double t = A[c][k];
                A[c][k] = A[p][k];
                A[p][k] = t;
            }
            for (int k = 0; k < m; k++) {
                double t = b[c * m + k];
                b[c * m + k] = b[p * m + k];
                b[p * m + k] = t;
            }
        }
        for (int r = c + 1; r < 4; r++) {
            double f = A[r][c] / A[c][c];
            for (int k = c; k < 4; k++)
                A[r][k] -= f * A[c][k];
            for (int k = 0; k < m; k++)
                b[r * m + k] -= f * b[c * m + k];
        }
    }
    for (int c = 3; c >= 0; c--)
        for (int k = 0; k < m; k++) {
            double v = b[c * m + k];
            for (int j = c + 1; j < 4; j++)
                v -= A[c][j] * b[j * m + k];
            b[c * m + k] = v / A[c][c];
        }
    return true;
}

typedef struct system {
    size_t n;
    double (*D)[4][4], (*B)[4][4], (*g)[4]; /* diagonal blocks, H[k][k+1], the gradient */
} blocks;

/* Solves H·dx = −g (block tridiagonal, symmetric); false when singular. */
static bool solve_blocks(blocks *sy, double (*dx)[4], double (*C)[4][4])
{
    double(*d)[4] = dx;
    for (size_t k = 0; k < sy->n; k++) {
        double M[4][4], rhs[4 * 5];
        memcpy(M, sy->D[k], sizeof M);
        for (int r = 0; r < 4; r++)
            rhs[r * 5 + 4] = -sy->g[k][r];
        if (k > 0) {
            /* M −= Bᵀ_{k−1}·C_{k−1}, rhs −= Bᵀ_{k−1}·d_{k−1} */
            for (int r = 0; r < 4; r++) {
                for (int c = 0; c < 4; c++) {
                    double v = 0;
                    for (int j = 0; j < 4; j++)
                        v += sy->B[k - 1][j][r] * C[k - 1][j][c];
                    M[r][c] -= v;
                }
                double v = 0;
                for (int j = 0; j < 4; j++)
                    v += sy->B[k - 1][j][r] * d[k - 1][j];
                rhs[r * 5 + 4] -= v;
            }
        }
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                rhs[r * 5 + c] = k + 1 < sy->n ? sy->B[k][r][c] : 0.0;
        if (!solve4(M, rhs, 5))
            return false;
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++)
                C[k][r][c] = rhs[r * 5 + c];
            d[k][r] = rhs[r * 5 + 4];
        }
    }
    for (size_t k = sy->n - 1; k-- > 0;)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                d[k][r] -= C[k][r][c] * d[k + 1][c];
    return true;
}

/* What the frames hold for the solve: A's points on the screen and their
 * weights. */
typedef struct target {
    double sa[NPOINTS][2], w[NPOINTS];
    bool any;
} target;

static void target_of(const scene *sc, uint32_t f, const pk_camera_key *orig, target *t)
{
    view v;
    view_of(orig, &v);
    t->any = false;
    for (int i = 0; i < NPOINTS; i++) {
        t->w[i] = 0;
        if (!v.ortho && sc->have[i] && screen(&v, v.eye, sc->pts[f].a[i], t->sa[i]))
            t->w[i] = weight_of(sc, t->sa[i]);
        t->any = t->any || t->w[i] > 0;
    }
}

/* The cost of x over every frame, and (g non-NULL) the normal equations. */
static double accumulate(const scene *sc, const coef *cf, const target *tg, const double (*x)[4],
                         const double (*xref)[4], const double *lam, blocks *sy)
{
    double cost = 0;
    if (sy)
        for (size_t k = 0; k < sy->n; k++) {
            memset(sy->D[k], 0, sizeof sy->D[k]);
            memset(sy->B[k], 0, sizeof sy->B[k]);
            memset(sy->g[k], 0, sizeof sy->g[k]);
        }
    for (uint32_t f = 0; f < sc->nframes; f++) {
        const coef *c = &cf[f];
        if (!tg[f].any || c->ortho)
            continue;
        double e[3];
        eye_at(c, x, e);
        for (int i = 0; i < NPOINTS; i++) {
            double w = tg[f].w[i];
            if (!(w > 0))
                continue;
            double d[3], q[3];
            for (int a = 0; a < 3; a++)
                d[a] = sc->pts[f].b[i][a] - e[a];
            for (int j = 0; j < 3; j++)
                q[j] = c->R[0][j] * d[0] + c->R[1][j] * d[1] + c->R[2][j] * d[2];
            if (!(q[2] > NEAR)) {
                cost += w * BEHIND_ERR * BEHIND_ERR;
                continue;
            }
            double iz = 1.0 / (q[2] * c->t);
            double r[2] = {q[0] * iz - tg[f].sa[i][0], q[1] * iz - tg[f].sa[i][1]};
            cost += w * (r[0] * r[0] + r[1] * r[1]);
            if (!sy)
                continue;
            double jq[2][3] = {{iz, 0, -q[0] * iz / q[2]}, {0, iz, -q[1] * iz / q[2]}};
            double je[2][3]; /* d(screen)/de */
            for (int s = 0; s < 2; s++)
                for (int a = 0; a < 3; a++)
                    je[s][a] =
                        -(jq[s][0] * c->R[a][0] + jq[s][1] * c->R[a][1] + jq[s][2] * c->R[a][2]);
            double jx[2][2][4]; /* per key of the frame: d(screen)/dx_k */
            int nk = c->k[1] >= 0 ? 2 : 1;
            for (int j = 0; j < nk; j++)
                for (int s = 0; s < 2; s++) {
                    for (int a = 0; a < 3; a++)
                        jx[j][s][a] = je[s][a] * c->u[j][a];
                    jx[j][s][3] = c->u[j][3] * (je[s][0] * c->fwd[0] + je[s][1] * c->fwd[1] +
                                                je[s][2] * c->fwd[2]);
                }
            for (int j = 0; j < nk; j++) {
                size_t kj = (size_t)c->k[j];
                for (int s = 0; s < 2; s++)
                    for (int a = 0; a < 4; a++) {
                        sy->g[kj][a] += w * jx[j][s][a] * r[s];
                        for (int b = 0; b < 4; b++)
                            sy->D[kj][a][b] += w * jx[j][s][a] * jx[j][s][b];
                    }
            }
            if (nk == 2) {
                size_t k0 = (size_t)c->k[0];
                for (int s = 0; s < 2; s++)
                    for (int a = 0; a < 4; a++)
                        for (int b = 0; b < 4; b++)
                            sy->B[k0][a][b] += w * jx[0][s][a] * jx[1][s][b];
            }
        }
    }
    size_t nkeys = sy ? sy->n : 0;
    for (size_t k = 0; sy && k < nkeys; k++)
        for (int a = 0; a < 4; a++) {
            sy->D[k][a][a] += lam[k] * (a == 3 ? DEPTH_REG : 1.0);
            sy->g[k][a] += lam[k] * (a == 3 ? DEPTH_REG : 1.0) * (x[k][a] - xref[k][a]);
        }
    return cost;
}

static double reg_cost(size_t n, const double (*x)[4], const double (*xref)[4], const double *lam)
{
    double c = 0;
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < 4; a++)
            c += lam[k] * (a == 3 ? DEPTH_REG : 1.0) * (x[k][a] - xref[k][a]) *
                 (x[k][a] - xref[k][a]);
    return c;
}

/* Moves the keys (sorted by frame, unique) so that the camera MMD plays
 * frames B as A was framed; played: the original camera at every frame.
 * 0, or -1 on OOM. */
static int solve_keys(const scene *sc, pk_camera_key *keys, size_t nk, const pk_camera_key *orig,
                      const pk_camera_key *look)
{
    uint32_t nf = sc->nframes;
    coef *cf = calloc(nf, sizeof *cf);
    target *tg = calloc(nf, sizeof *tg);
    double(*x)[4] = calloc(nk, sizeof *x), (*xref)[4] = calloc(nk, sizeof *xref);
    double(*dx)[4] = calloc(nk, sizeof *dx), (*xt)[4] = calloc(nk, sizeof *xt);
    double *lam = calloc(nk, sizeof *lam);
    blocks sy = {nk, calloc(nk, sizeof *sy.D), calloc(nk, sizeof *sy.B), calloc(nk, sizeof *sy.g)};
    double(*C)[4][4] = calloc(nk, sizeof *C);
    int rc = -1;
    if (!cf || !tg || !x || !xref || !dx || !xt || !lam || !sy.D || !sy.B || !sy.g || !C)
        goto done;
    for (size_t k = 0; k < nk; k++) {
        pk_camera_key c = keys[k];
        if (keys[k].frame < nf) {
            /* the correction's eye and distance, seen at the key's angles */
            view vc, vk;
            correct(sc, keys[k].frame, &orig[keys[k].frame], &c);
            view_of(&c, &vc);
            view_of(&keys[k], &vk);
            for (int a = 0; a < 3; a++)
                c.pos[a] = (float)(vc.eye[a] - (double)c.distance * vk.R[a][2]);
        }
        for (int a = 0; a < 3; a++)
            x[k][a] = xref[k][a] = c.pos[a];
        x[k][3] = xref[k][3] = c.distance;
        double D = fmax(fabs((double)c.distance), 1.0);
        lam[k] = REG / (D * D);
    }
    for (uint32_t f = 0; f < nf; f++) {
        coef_of(keys, nk, f, &look[f], &cf[f]);
        target_of(sc, f, &orig[f], &tg[f]);
    }
    const double(*cx)[4] = (const double(*)[4])x, (*cr)[4] = (const double(*)[4])xref;
    double cost = accumulate(sc, cf, tg, cx, cr, lam, NULL) + reg_cost(nk, cx, cr, lam);
    for (int it = 0; it < 12; it++) {
        accumulate(sc, cf, tg, cx, cr, lam, &sy);
        if (!solve_blocks(&sy, dx, C))
            break;
        double step = 1.0, next = cost;
        for (int half = 0; half < 8; half++, step *= 0.5) {
            for (size_t k = 0; k < nk; k++)
                for (int a = 0; a < 4; a++)
                    xt[k][a] = x[k][a] + step * dx[k][a];
            const double(*ct)[4] = (const double(*)[4])xt;
            next = accumulate(sc, cf, tg, ct, cr, lam, NULL) + reg_cost(nk, ct, cr, lam);
            if (next < cost)
                break;
        }
        if (!(next < cost))
            break;
        memcpy(x, xt, nk * sizeof *x);
        bool done_ = cost - next < 1e-12 * (1.0 + cost);
        cost = next;
        if (done_)
            break;
    }
    for (size_t k = 0; k < nk; k++) {
        if (keys[k].perspective != 0)
            continue;
        for (int a = 0; a < 3; a++)
            keys[k].pos[a] = (float)x[k][a];
        keys[k].distance = (float)x[k][3];
    }
    rc = 0;
done:
    free(cf);
    free(tg);
    free(x);
    free(xref);
    free(dx);
    free(xt);
    free(lam);
    free(sy.D);
    free(sy.B);
    free(sy.g);
    free(C);
    return rc;
}

/* ---- the motion ---- */

/* The last frame the camera or either dance keys. */
static uint32_t last_frame(const pk_motion *cam, const pk_camera_options *o)
{
    uint32_t hi = 0, lo, h;
    for (size_t i = 0; i < cam->ncameras; i++)
        hi = cam->cameras[i].frame > hi ? cam->cameras[i].frame : hi;
    const pk_motion *d[2] = {o->dance_from, o->dance_to};
    for (int s = 0; s < 2; s++)
        if (d[s]->nbones) {
            pk_motion_frame_range(d[s], &lo, &h);
            hi = h > hi ? h : hi;
        }
    return hi;
}

/* The camera keys of m alone (a motion holding nothing else), sorted by
 * frame, of two records of one frame the later (as MMD plays them); NULL
 * (logged) on error. */
static pk_motion *camera_only(const pk_motion *m, pk_log *log)
{
    pk_tracks *t = pk_tracks_build(m, log);
    pk_motion *c = t ? pk_motion_new() : NULL;
    for (size_t i = 0; c && i < t->ncameras; i++) {
        pk_camera_key *k = pk_motion_push_camera(c);
        if (!k) {
            pk_motion_free(c);
            c = NULL;
            break;
        }
        *k = m->cameras[t->cameras[i]];
    }
    if (t && !c)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    pk_tracks_free(t);
    return c;
}

/* Replaces the keys of cam strictly inside (fa, fb] (fb itself when
 * tail: no key there) with a key a frame from best[], then reduces the
 * camera over [fa, fb].  0 or -1 (logged). */
/* 0 at x = 0, 1 from x = n on, smooth between. */
static double ramp(double x, double n)
{
    if (x <= 0)
        return 0;
    if (x >= n)
        return 1;
    double u = x / n;
    return u * u * (3 - 2 * u);
}

static int refit(pk_motion **cam, uint32_t fa, uint32_t fb, bool tail, bool free_a, bool free_b,
                 const pk_camera_key *best, const pk_camera_key *orig, const pk_camera_options *o,
                 size_t *added, pk_log *log)
{
    pk_motion *m = *cam;
    size_t w = 0;
    double off[2][7] = {{0}}; /* a kept end key's centre, distance, angles − best's */
    for (size_t i = 0; i < m->ncameras; i++) {
        pk_camera_key *k = &m->cameras[i];
        if (k->frame > fa && (k->frame < fb || tail))
            continue;
        int end = k->frame == fa ? 0 : k->frame == fb ? 1 : -1;
        if (end >= 0 && (end ? free_b : free_a)) {
            /* an end only this stretch plays: it follows the correction */
            memcpy(k->pos, best[k->frame].pos, sizeof k->pos);
            memcpy(k->rot, best[k->frame].rot, sizeof k->rot);
            k->distance = best[k->frame].distance;
            k->fov = best[k->frame].fov; /* a path of least change may widen it */
        } else if (end >= 0) {
            /* an end a kept stretch shares stays; the stretch eases from
             * it into the correction */
            for (int a = 0; a < 3; a++)
                off[end][a] = (double)k->pos[a] - best[k->frame].pos[a];
            off[end][3] = (double)k->distance - best[k->frame].distance;
            for (int a = 0; a < 3; a++)
                off[end][4 + a] = (double)k->rot[a] - best[k->frame].rot[a];
        }
        m->cameras[w++] = *k;
    }
    m->ncameras = w;
    double span = tail ? 1e30 : (double)(fb - fa) / 2, ease = fmin(RAMP, span);
    for (uint32_t f = fa + 1; f < fb || (tail && f == fb); f++) {
        pk_camera_key *k = pk_motion_push_camera(m);
        if (!k) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
        *k = best[f];
        double ua = 1 - ramp(f - fa, ease), ub = tail ? 0 : 1 - ramp(fb - f, ease);
        for (int a = 0; a < 3; a++)
            k->pos[a] = (float)(k->pos[a] + ua * off[0][a] + ub * off[1][a]);
        k->distance = (float)(k->distance + ua * off[0][3] + ub * off[1][3]);
        for (int a = 0; a < 3; a++)
            k->rot[a] = (float)(k->rot[a] + ua * off[0][4 + a] + ub * off[1][4 + a]);
        k->frame = f;
        pk_camera_interp_linear(k->interp);
    }
    pk_reduce_options ro;
    pk_reduce_options_init(&ro);
    ro.camera = true;
    ro.morphs = false;
    ro.all_frames = false;
    ro.first = fa;
    ro.last = fb;
    /* the tolerances: FIT of the screen height at the nearest
     * distance and narrowest view of the stretch (the options', if less) */
    double dmin = INFINITY, tmin = INFINITY, fovmin = INFINITY;
    for (uint32_t f = fa; f <= fb; f++) {
        view v;
        view_of(&orig[f], &v);
        dmin = fmin(dmin, fabs((double)orig[f].distance));
        tmin = fmin(tmin, v.t);
        fovmin = fmin(fovmin, orig[f].fov < 1 ? 1.0 : (double)orig[f].fov);
    }
    ro.max_pos = fmax(FIT * fmax(dmin, 1.0) * tmin, 1e-4);
    ro.max_deg = fmax(FIT * fovmin, 1e-3);
    if (o->max_deg > 0 && o->max_deg < ro.max_deg)
        ro.max_deg = o->max_deg;
    if (o->max_pos > 0 && o->max_pos < ro.max_pos)
        ro.max_pos = o->max_pos;
    pk_motion *r = pk_motion_reduce(m, &ro, NULL, log);
    if (!r)
        return -1;
    for (size_t i = 0; i < r->ncameras; i++)
        *added += r->cameras[i].frame > fa && (r->cameras[i].frame < fb || tail);
    pk_motion_free(m);
    *cam = r;
    return 0;
}

/* Whether cam has a key at frame f. */
static bool key_at(const pk_motion *cam, uint32_t f)
{
    for (size_t i = 0; i < cam->ncameras; i++)
        if (cam->cameras[i].frame == f)
            return true;
    return false;
}

static int cmp_frame(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_key_frame(const void *a, const void *b)
{
    return cmp_frame(&((const pk_camera_key *)a)->frame, &((const pk_camera_key *)b)->frame);
}

/* The distinct frames of m's camera keys, sorted; *n of them. */
static uint32_t *key_frames(const pk_motion *m, size_t *n)
{
    uint32_t *f = malloc((m->ncameras + 1) * sizeof *f);
    *n = 0;
    if (!f)
        return NULL;
    for (size_t i = 0; i < m->ncameras; i++)
        f[i] = m->cameras[i].frame;
    qsort(f, m->ncameras, sizeof *f, cmp_frame);
    for (size_t i = 0; i < m->ncameras; i++)
        if (*n == 0 || f[*n - 1] != f[i])
            f[(*n)++] = f[i];
    return f;
}

/* The keys of the camera cam written around the frames [lo, hi): *fa the
 * last at or before lo (else the first), *fb the first from *fa on at or
 * after hi, or nf - 1 with *tail where there is none.  -1 when out of
 * memory. */
static int keys_around(const pk_motion *cam, uint32_t lo, uint32_t hi, uint32_t nf, uint32_t *fa,
                       uint32_t *fb, bool *tail, pk_log *log)
{
    size_t n, a = 0;
    uint32_t *k = key_frames(cam, &n);
    if (!k) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    while (a + 1 < n && k[a + 1] <= lo)
        a++;
    size_t b = a;
    while (b < n && k[b] < hi)
        b++;
    *tail = b >= n;
    *fa = k[a];
    *fb = *tail ? nf - 1 : k[b];
    free(k);
    return 0;
}

/* Samples m's camera at every frame into out[nframes]. */
static int sample_all(const pk_motion *m, uint32_t nframes, pk_camera_key *out, pk_log *log)
{
    pk_tracks *t = pk_tracks_build(m, log);
    if (!t)
        return -1;
    for (uint32_t f = 0; f < nframes; f++)
        pk_sample_camera(m, t, (double)f, &out[f]);
    pk_tracks_free(t);
    return 0;
}

/* cam's keys put in frame order, then sampled as sample_all. */
static int sort_and_sample(pk_motion *cam, uint32_t nframes, pk_camera_key *out, pk_log *log)
{
    qsort(cam->cameras, cam->ncameras, sizeof *cam->cameras, cmp_key_frame);
    return sample_all(cam, nframes, out, log);
}

/* The largest distance of a point from A's over frames [fa, fb) seen
 * through cams (indexed by frame), -1 when none is measured; *within: how
 * many measured frames meet the goal. */
static double worst_over(const scene *sc, uint32_t fa, uint32_t fb, const pk_camera_key *orig,
                         const pk_camera_key *cams, size_t *within)
{
    double w = -1;
    *within = 0;
    for (uint32_t f = fa; f < fb; f++) {
        double e = measure(sc, f, &orig[f], &cams[f], NULL);
        w = fmax(w, e);
        *within += e >= 0 && e <= PK_CAMERA_GOAL;
    }
    return w;
}

/* Whittaker's smoother: z minimising Σ w_i·(z_i − y_i)² + mu·|second
 * differences of z|², that is (W + mu·D2ᵀD2)·z = W·y, a symmetric pentadiagonal system
 * solved by LDLᵀ in place (y becomes z).  No lag and no bias at the ends;
 * swings slower than about 2π·mu^¼ frames pass, faster ones are damped.
 * scratch: 3n doubles.  Does nothing for n < 3. */
static void whittaker(double *y, const double *w, size_t n, double mu, double *scratch)
{
    if (n < 3)
        return;
    for (size_t i = 0; i < n; i++)
        y[i] *= w[i];
    double *d = scratch, *e = scratch + n, *f = scratch + 2 * n; /* diagonals 0, 1, 2 */
    for (size_t i = 0; i < n; i++) {
        /* D2ᵀD2: rows 1,-2,1 ... diagonal 1,5,6,...,6,5,1; next -2,-4,...,-4,-2; next 1 */
        double dd = i == 0 || i == n - 1 ? 1 : i == 1 || i == n - 2 ? 5 : 6;
        if (n == 3)
            dd = i == 1 ? 4 : 1;
        d[i] = w[i] + mu * dd;
        e[i] = i + 1 < n ? mu * (i == 0 || i + 2 == n ? -2 : -4) : 0;
        f[i] = i + 2 < n ? mu : 0;
    }
    /* LDLᵀ: l1[i] = L[i+1][i], l2[i] = L[i+2][i] (stored over e, f) */
    for (size_t i = 0; i < n; i++) {
        if (i >= 1)
            d[i] -= e[i - 1] * e[i - 1] * d[i - 1];
        if (i >= 2)
            d[i] -= f[i - 2] * f[i - 2] * d[i - 2];
        if (i + 1 < n) {
            double v = e[i];
            if (i >= 1)
                v -= e[i - 1] * f[i - 1] * d[i - 1];
            e[i] = v / d[i];
        }
        if (i + 2 < n)
            f[i] = f[i] / d[i];
    }
    for (size_t i = 0; i < n; i++) { /* L·u = y */
        if (i >= 1)
            y[i] -= e[i - 1] * y[i - 1];
        if (i >= 2)
            y[i] -= f[i - 2] * y[i - 2];
    }
    for (size_t i = 0; i < n; i++)
        y[i] /= d[i];
    for (size_t i = n; i-- > 0;) { /* Lᵀ·z = u */
        if (i + 1 < n)
            y[i] -= e[i] * y[i + 1];
        if (i + 2 < n)
            y[i] -= f[i] * y[i + 2];
    }
}

/* The frame-by-frame correction over [fa, fb) evened out: the eye,
 * distance and angles it adds to the camera, each smoothed (Whittaker,
 * frame weights wt: swings slower than about a second kept), so that a
 * stretch fitted again follows the subject, not every hand movement.
 * y: 7n doubles of scratch. */
static void smooth_pass(pk_camera_key *best, const pk_camera_key *orig, uint32_t fa, uint32_t fb,
                        const double *wt, double *y)
{
    size_t n = fb > fa ? fb - fa : 0;
    double *scratch = y + n, *eye = y + 4 * n; /* the eyes moved: 3n */
    for (size_t i = 0; i < n; i++) {
        view vb, vo;
        view_of(&best[fa + i], &vb);
        view_of(&orig[fa + i], &vo);
        for (int a = 0; a < 3; a++)
            eye[3 * i + a] = vb.eye[a] - vo.eye[a];
    }
    /* the eye (not the centre: the distance changes along the view), the
     * distance and the angles, each as a change from the original */
    for (int a = 0; a < 7; a++) {
        for (size_t i = 0; i < n; i++) {
            const pk_camera_key *b = &best[fa + i], *o = &orig[fa + i];
            y[i] = a < 3   ? eye[3 * i + a]
                   : a < 4 ? (double)b->distance - o->distance
                           : (double)b->rot[a - 4] - o->rot[a - 4];
        }
        whittaker(y, wt, n, SMOOTH_MU, scratch);
        for (size_t i = 0; i < n; i++) {
            pk_camera_key *b = &best[fa + i];
            const pk_camera_key *o = &orig[fa + i];
            if (a < 3)
                eye[3 * i + a] = y[i];
            else if (a < 4)
                b->distance = (float)(o->distance + y[i]);
            else
                b->rot[a - 4] = (float)(o->rot[a - 4] + y[i]);
        }
    }
    for (size_t i = 0; i < n; i++) { /* the centre: the eye less the distance */
        view vb, vo;
        view_of(&best[fa + i], &vb);
        view_of(&orig[fa + i], &vo);
        for (int a = 0; a < 3; a++)
            best[fa + i].pos[a] =
                (float)(vo.eye[a] + eye[3 * i + a] - (double)best[fa + i].distance * vb.R[a][2]);
    }
}

/* The angle between two cameras' orientations, degrees. */
static double turn_between(const pk_camera_key *a, const pk_camera_key *b)
{
    view va, vb;
    view_of(a, &va);
    view_of(b, &vb);
    double tr = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            tr += va.R[i][j] * vb.R[i][j];
    return pki_acos(fmax(-1.0, fmin(1.0, (tr - 1) / 2))) * 180.0 / PI;
}

/* ---- the track: a stretch's correction as one smooth path ----
 *
 * The unknowns: each frame's eye and angles, x_f (6 a frame; the view
 * angle and the distance stay).  The cost: every frame's squared screen
 * distances of B's points to A's (the points weighted as in the
 * correction, then reweighted each round, as Lawson does, towards the
 * frame's smallest largest distance), the angles pulled towards the
 * original's (TRACK_PULL per radian²), the eye weakly towards the start
 * (REG per (viewing distance)²), and TRACK_MU times the squared second
 * differences from frame to frame of what the track adds to the original
 * camera (the eye's offset over the viewing distance times 2·tan(fov/2),
 * the angles' offsets over 2·tan(fov/2): screen heights).  Between
 * rounds, a frame turned more than TRACK_TURN from the original (and
 * more than the start turns it) has its pull made TRACK_TIGHTEN times
 * stronger, and a frame that misses the goal by more than
 * PK_CAMERA_SMOOTH beyond the frame-by-frame correction has its points
 * weigh TRACK_BOOST times more (once: a quick move the camera must
 * follow, not a jump).
 * The normal equations are banded (a frame couples with two on either
 * side): Levenberg-Marquardt, Cholesky on the band. */

#define TB 6             /* unknowns a frame: eye x, y, z, angles x, y, z */
#define TBW (3 * TB - 1) /* the band's half width */
#define TRACK_MU 10.0    /* screen heights² per (second difference)² */
#define TRACK_PULL 0.03  /* per radian²: a tenth of TURN_REG */
#define TRACK_TURN 15.0  /* degrees */
#define TRACK_TIGHTEN 4.0
#define TRACK_BOOST 4.0 /* a frame's points, where the track misses by more than the correction */
#define TRACK_ROUNDS 8  /* least squares, then 7 reweighted */
#define TRACK_ITERS 10  /* Levenberg-Marquardt steps a round at most */

/* Key k's angles and centre from a frame's unknowns xi (the eye, then
 * the angles), its distance kept: the centre is the eye moved back along
 * the view by the distance, with the angles as k stores them (floats). */
static void key_from_track(const double xi[TB], pk_camera_key *k)
{
    for (int a = 0; a < 3; a++)
        k->rot[a] = (float)xi[3 + a];
    view v;
    view_of(k, &v);
    for (int a = 0; a < 3; a++)
        k->pos[a] = (float)(xi[a] - (double)k->distance * v.R[a][2]);
}

typedef struct track_frame {
    double sa[NPOINTS][2], w[NPOINTS], u[NPOINTS]; /* A's points, weights, reweighted */
    double o[TB], x0[TB], lam[TB], sc[TB];         /* the original, the pulls' targets and
                                                      weights, the smoothness scales */
    double turn;                                   /* degrees the start turns the frame */
    double e_raw, boost; /* the correction's largest distance (-1: not measured), the
                            points' weight beside u */
    bool reach;          /* the best camera for the frame meets the goal */
    double mu;           /* the smoothness weight (TRACK_MU, or stiffer) */
    double aim;          /* > 0: a point counts only beyond this distance (the least
                            change: boost is then the penalty's weight) */
    view v;              /* the original's view */
    bool any;            /* a point weighs */
} track_frame;

/* The frame's point residuals (2·NPOINTS) at x. */
static void track_res_of(const scene *sc, uint32_t f, const track_frame *tf, const double x[TB],
                         const double R[3][3], double r[2 * NPOINTS])
{
    view v = tf->v;
    memcpy(v.R, R, sizeof v.R);
    memcpy(v.eye, x, sizeof v.eye);
    for (int i = 0; i < NPOINTS; i++) {
        double s[2];
        r[2 * i] = r[2 * i + 1] = 0;
        if (!(tf->u[i] > 0))
            continue;
        double sw = sqrt(tf->u[i] * tf->boost);
        if (screen(&v, v.eye, sc->pts[f].b[i], s)) {
            r[2 * i] = sw * (s[0] - tf->sa[i][0]);
            r[2 * i + 1] = sw * (s[1] - tf->sa[i][1]);
        } else {
            r[2 * i] = sw * BEHIND_ERR;
        }
        if (tf->aim > 0) { /* only the distance beyond the aim */
            double e = pki_hypot(r[2 * i], r[2 * i + 1]), k = sw * tf->aim;
            double m = e > k ? (e - k) / e : 0;
            r[2 * i] *= m;
            r[2 * i + 1] *= m;
        }
    }
}

/* track_res_of with the rotation of x's angles */
static void track_res(const scene *sc, uint32_t f, const track_frame *tf, const double x[TB],
                      double r[2 * NPOINTS])
{
    double R[3][3];
    rot_of(x + 3, R);
    track_res_of(sc, f, tf, x, (const double(*)[3])R, r);
}

/* The second difference of unknown j's offset at frame i (0 < i < n − 1). */
static double track_d2(const track_frame *tf, const double *x, size_t i, int j)
{
    return (x[TB * (i - 1) + j] - tf[i - 1].o[j]) - 2 * (x[TB * i + j] - tf[i].o[j]) +
           (x[TB * (i + 1) + j] - tf[i + 1].o[j]);
}

/* A frame's rotation at x (its angles' cosines and sines, rot_of's bits)
 * and its point residuals there, as track_cost measured them: the normal
 * equations at an x the cost accepted start from them. */
typedef struct track_at {
    double co[3], si[3], R[3][3], r[2 * NPOINTS];
} track_at;

/* The track's cost at x; at (n of them, may be NULL) becomes each
 * frame's rotation and residuals at x. */
static double track_cost(const scene *sc, uint32_t fa, size_t n, const track_frame *tf,
                         const double *x, track_at *at)
{
    double c = 0, rr[2 * NPOINTS];
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + TB * i;
        if (tf[i].any) {
            double *r = at ? at[i].r : rr;
            if (at) { /* track_res, its rotation kept */
                for (int a = 0; a < 3; a++)
                    pki_sincos(-xi[3 + a], &at[i].si[a], &at[i].co[a]);
                rot_cs(at[i].co, at[i].si, at[i].R);
                track_res_of(sc, fa + (uint32_t)i, &tf[i], xi, (const double(*)[3])at[i].R, r);
            } else {
                track_res(sc, fa + (uint32_t)i, &tf[i], xi, r);
            }
            for (int k = 0; k < 2 * NPOINTS; k++)
                c += r[k] * r[k];
        }
        for (int j = 0; j < TB; j++) {
            c += tf[i].lam[j] * (xi[j] - tf[i].x0[j]) * (xi[j] - tf[i].x0[j]);
            if (i >= 1 && i + 1 < n) {
                double d = track_d2(tf, x, i, j);
                c += tf[i].mu * tf[i].sc[j] * tf[i].sc[j] * d * d;
            }
        }
    }
    return c;
}

/* A symmetric positive definite band system (A[i][k] = A(i, i + k), k up
 * to TBW) solved in place by Cholesky (b becomes x); false when not
 * positive definite. */
static bool band_solve(size_t N, double (*A)[TBW + 1], double *b)
{
    for (size_t i = 0; i < N; i++) { /* L(i, k) kept in A[k][i − k] */
        size_t k0 = i > TBW ? i - TBW : 0;
        for (size_t k = k0; k < i; k++)
            A[i][0] -= A[k][i - k] * A[k][i - k];
        if (!(A[i][0] > 0))
            return false;
        double d = sqrt(A[i][0]);
        A[i][0] = d;
        /* row i of L: each A(i, j) less L(k, i)·L(k, j) over the rows k
         * above whose band reaches j (k ≥ j − TBW), k rising.  Taken row
         * k by row k (each row's band read in order) rather than entry j
         * by entry j (down a diagonal): every entry's sum has the same
         * terms in the same order, so the same bits. */
        size_t jn = i + TBW < N ? i + TBW : N - 1; /* the last j */
        double v[TBW + 1];
        for (size_t j = i + 1; j <= jn; j++)
            v[j - i] = A[i][j - i];
        for (size_t k = k0; k < i; k++) {
            double lk = A[k][i - k];
            size_t je = k + TBW < jn ? k + TBW : jn;
            for (size_t j = i + 1; j <= je; j++)
                v[j - i] -= lk * A[k][j - k];
        }
        for (size_t j = i + 1; j <= jn; j++)
            A[i][j - i] = v[j - i] / d;
    }
    for (size_t i = 0; i < N; i++) {
        for (size_t k = i > TBW ? i - TBW : 0; k < i; k++)
            b[i] -= A[k][i - k] * b[k];
        b[i] /= A[i][0];
    }
    for (size_t i = N; i-- > 0;) {
        for (size_t j = i + 1; j <= i + TBW && j < N; j++)
            b[i] -= A[i][j - i] * b[j];
        b[i] /= A[i][0];
    }
    return true;
}

/* The frames of [fa, fb) set up from the start (best) and the original. */
static void track_setup(const scene *sc, const pk_camera_key *best, const pk_camera_key *orig,
                        uint32_t fa, size_t n, track_frame *tf, double *x, const double *e_raw,
                        const double *e_bound, double mu)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t f = fa + (uint32_t)i;
        track_frame *t = &tf[i];
        view vb;
        view_of(&orig[f], &t->v);
        view_of(&best[f], &vb);
        double D = fmax(fabs((double)best[f].distance), 1.0);
        for (int a = 0; a < 3; a++) {
            t->o[a] = t->v.eye[a];
            t->o[3 + a] = orig[f].rot[a];
            x[TB * i + a] = t->x0[a] = vb.eye[a];
            x[TB * i + 3 + a] = best[f].rot[a];
            t->x0[3 + a] = orig[f].rot[a];
            t->sc[a] = 1.0 / (D * t->v.t);
            t->sc[3 + a] = 1.0 / t->v.t;
            t->lam[a] = t->v.ortho ? 1e6 : REG / (D * D); /* orthographic: left alone */
            t->lam[3 + a] = t->v.ortho ? 1e6 : TRACK_PULL;
        }
        t->turn = turn_between(&orig[f], &best[f]);
        t->boost = 1;
        t->e_raw = e_raw ? e_raw[i] : -1;
        t->reach = e_bound && e_bound[f] >= 0 && e_bound[f] <= PK_CAMERA_GOAL;
        t->mu = mu;
        t->any = false;
        for (int k = 0; k < NPOINTS; k++) {
            t->w[k] = 0;
            if (!t->v.ortho && sc->have[k] && screen(&t->v, t->v.eye, sc->pts[f].a[k], t->sa[k]))
                t->w[k] = weight_of(sc, t->sa[k]);
            t->u[k] = t->w[k];
            t->any = t->any || t->w[k] > 0;
        }
    }
}

/* The normal equations at x (H: the band, upper half; g: the gradient,
 * both halved). */
static void track_normal(const scene *sc, uint32_t fa, size_t n, const track_frame *tf, double *x,
                         const track_at *at, double (*H)[TBW + 1], double *g)
{
    memset(H, 0, TB * n * sizeof *H);
    memset(g, 0, TB * n * sizeof *g);
    for (size_t i = 0; i < n; i++) {
        double *xi = x + TB * i, rt[2 * NPOINTS], J[2 * NPOINTS][TB];
        size_t b0 = TB * i;
        if (tf[i].any) {
            /* the angles' cosines and sines and the residuals at x, as the
             * cost took them: a step in the eye keeps the rotation, a step
             * in an angle recomputes that angle's alone (the same bits as
             * rot_of's) */
            const double *co = at[i].co, *si = at[i].si, *r = at[i].r;
            const double(*R)[3] = (const double(*)[3])at[i].R;
            double D = 1.0 / (tf[i].sc[0] * tf[i].v.t);
            for (int j = 0; j < TB; j++) {
                double h = j < 3 ? 1e-6 * D : 1e-7, keep = xi[j];
                xi[j] += h;
                double Rj[3][3];
                if (j >= 3)
                    rot_cs_step(co, si, j - 3, xi[j], Rj);
                track_res_of(sc, fa + (uint32_t)i, &tf[i], xi, j >= 3 ? (const double(*)[3])Rj : R,
                             rt);
                xi[j] = keep;
                for (int k = 0; k < 2 * NPOINTS; k++)
                    J[k][j] = (rt[k] - r[k]) / h;
            }
            for (int a = 0; a < TB; a++) {
                for (int k = 0; k < 2 * NPOINTS; k++)
                    g[b0 + a] += J[k][a] * r[k];
                for (int c = a; c < TB; c++) {
                    double v = 0;
                    for (int k = 0; k < 2 * NPOINTS; k++)
                        v += J[k][a] * J[k][c];
                    H[b0 + a][c - a] += v;
                }
            }
        }
        for (int j = 0; j < TB; j++) {
            H[b0 + j][0] += tf[i].lam[j];
            g[b0 + j] += tf[i].lam[j] * (xi[j] - tf[i].x0[j]);
            if (!(i >= 1 && i + 1 < n))
                continue;
            const double cf[3] = {1, -2, 1};
            double m = tf[i].mu * tf[i].sc[j] * tf[i].sc[j], d = track_d2(tf, x, i, j);
            for (int p = 0; p < 3; p++) {
                size_t rp = TB * (i - 1 + (size_t)p) + (size_t)j;
                g[rp] += m * cf[p] * d;
                for (int q = p; q < 3; q++)
                    H[rp][TB * (q - p)] += m * cf[p] * cf[q];
            }
        }
    }
}

/* Between rounds: each frame's points reweighted towards its smallest
 * largest distance; a frame turned too far pulled harder; a frame missing
 * by more than the correction weighed more (once). */
static void track_reweigh(const scene *sc, uint32_t fa, size_t n, track_frame *tf, const double *x)
{
    for (size_t i = 0; i < n; i++) {
        if (!tf[i].any)
            continue;
        double r[2 * NPOINTS], sum = 0, wsum = 0, worst = 0;
        track_res(sc, fa + (uint32_t)i, &tf[i], x + TB * i, r);
        for (int k = 0; k < NPOINTS; k++) {
            if (!(tf[i].u[k] > 0))
                continue;
            double e = pki_hypot(r[2 * k], r[2 * k + 1]) / sqrt(tf[i].u[k] * tf[i].boost);
            worst = fmax(worst, tf[i].w[k] * e);
            tf[i].u[k] *= fmax(e, 1e-9);
            sum += tf[i].u[k];
            wsum += tf[i].w[k];
        }
        for (int k = 0; k < NPOINTS && sum > 0; k++)
            tf[i].u[k] *= wsum / sum;
        if (tf[i].boost == 1 && tf[i].e_raw >= 0 && worst > PK_CAMERA_GOAL &&
            (worst > tf[i].e_raw + PK_CAMERA_SMOOTH || tf[i].reach))
            tf[i].boost = TRACK_BOOST;
        view v0, v1;
        rot_of(tf[i].o + 3, v0.R);
        rot_of(x + TB * i + 3, v1.R);
        double tr = 0;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                tr += v0.R[a][b] * v1.R[a][b];
        double deg = pki_acos(fmax(-1.0, fmin(1.0, (tr - 1) / 2))) * 180.0 / PI;
        if (deg > fmax(TRACK_TURN, tf[i].turn))
            for (int a = 3; a < TB; a++)
                tf[i].lam[a] *= TRACK_TIGHTEN;
    }
}

/* Levenberg-Marquardt on the track's cost from x (iters steps at most);
 * H, M: TB·n rows of the band, g, xt: TB·n doubles of scratch. */
static void track_solve(const scene *sc, uint32_t fa, size_t n, const track_frame *tf, double *x,
                        int iters, double (*H)[TBW + 1], double (*M)[TBW + 1], double *g,
                        double *xt, track_at *at, track_at *att)
{
    size_t N = TB * n;
    double cost = track_cost(sc, fa, n, tf, x, at), lm = 1e-3;
    for (int it = 0; it < iters; it++) {
        track_normal(sc, fa, n, tf, x, at, H, g);
        bool better = false, small = false;
        while (!better && lm < 1e8) {
            memcpy(M, H, N * sizeof *M);
            for (size_t k = 0; k < N; k++) {
                M[k][0] *= 1 + lm;
                xt[k] = -g[k];
            }
            if (!band_solve(N, M, xt)) {
                lm *= 10;
                continue;
            }
            for (size_t k = 0; k < N; k++)
                xt[k] += x[k];
            double next = track_cost(sc, fa, n, tf, xt, att);
            if (next < cost) {
                better = true;
                small = cost - next < 1e-10 * cost;
                memcpy(x, xt, N * sizeof *x);
                track_at *sw = at;
                at = att, att = sw;
                cost = next;
                lm = fmax(lm / 3, 1e-9);
            } else {
                lm *= 4;
            }
        }
        if (!better || small)
            break;
    }
}

/* The path solver's work for n frames: each frame's points and weights,
 * the unknowns and a trial of them, the gradient, the banded normal
 * matrix and its factor (track_solve's arguments). */
typedef struct track_work {
    track_frame *tf;
    double *x, *xt, *g;
    double (*H)[TBW + 1], (*M)[TBW + 1];
    track_at *at, *att; /* each frame's rotation and residuals at x, and at a trial */
} track_work;

/* false when out of memory; track_work_free frees what it allocated either
 * way */
static bool track_work_init(track_work *w, size_t n)
{
    size_t N = (size_t)TB * n;
    w->tf = calloc(n, sizeof *w->tf);
    w->x = malloc(N * sizeof *w->x);
    w->xt = malloc(N * sizeof *w->xt);
    w->g = malloc(N * sizeof *w->g);
    w->H = malloc(N * sizeof *w->H);
    w->M = malloc(N * sizeof *w->M);
    w->at = malloc(n * sizeof *w->at);
    w->att = malloc(n * sizeof *w->att);
    return w->tf && w->x && w->xt && w->g && w->H && w->M && w->at && w->att;
}

static void track_work_free(track_work *w)
{
    free(w->tf);
    free(w->x);
    free(w->xt);
    free(w->g);
    free(w->H);
    free(w->M);
    free(w->at);
    free(w->att);
}

/* best over [fa, fb) (evened out: the start) replaced by the track; its
 * distances stay.  Left as it is on OOM. */
static void track_fit(const scene *sc, pk_camera_key *best, const pk_camera_key *orig, uint32_t fa,
                      uint32_t fb, const double *e_raw, const double *e_bound, double mu)
{
    size_t n = fb > fa ? fb - fa : 0;
    if (n < 3)
        return;
    track_work tw;
    if (!track_work_init(&tw, n))
        goto done;
    track_setup(sc, best, orig, fa, n, tw.tf, tw.x, e_raw, e_bound, mu);
    for (int round = 0; round < TRACK_ROUNDS; round++) {
        if (round)
            track_reweigh(sc, fa, n, tw.tf, tw.x);
        track_solve(sc, fa, n, tw.tf, tw.x, TRACK_ITERS, tw.H, tw.M, tw.g, tw.xt, tw.at, tw.att);
    }
    for (size_t i = 0; i < n; i++) {
        pk_camera_key *k = &best[fa + i];
        if (tw.tf[i].v.ortho)
            continue;
        key_from_track(tw.x + TB * i, k);
    }
done:
    track_work_free(&tw);
}

/* The frame-by-frame correction over [fa, fb) evened out (smooth_pass);
 * where that misses the goal on a frame by more than PK_CAMERA_SMOOTH
 * beyond the correction itself (or where the correction meets it), the
 * stretch becomes the track from there (track_fit): a smooth path that
 * lands the points itself and turns further than the correction. */
static void smooth_best(const scene *sc, pk_camera_key *best, const pk_camera_key *orig,
                        uint32_t fa, uint32_t fb, double track, const double *e_bound)
{
    size_t n = fb > fa ? fb - fa : 0;
    double *y = calloc(9 * n + 1, sizeof *y);
    if (!y)
        return; /* the correction as it is */
    double *wt = y + 7 * n, *e_raw = y + 8 * n;
    for (size_t i = 0; i < n; i++) {
        wt[i] = 1;
        e_raw[i] = measure(sc, fa + (uint32_t)i, &orig[fa + i], &best[fa + i], NULL);
    }
    smooth_pass(best, orig, fa, fb, wt, y);
    bool misses = false;
    for (size_t i = 0; i < n && !misses; i++) {
        double e = measure(sc, fa + (uint32_t)i, &orig[fa + i], &best[fa + i], NULL);
        misses = e_raw[i] >= 0 && e > PK_CAMERA_GOAL;
    }
    if (track > 0 && misses)
        track_fit(sc, best, orig, fa, fb, e_raw, e_bound, TRACK_MU * track);
    free(y);
}

/* The keys' angles (keys sorted, their distinct frames kf[nk]) turned as
 * the frame-by-frame correction turns the camera, evened out over each
 * shot (the frames between two cuts): into turned[] (the keys as they
 * were, but for the angles).  0, or -1 on OOM. */
static int turn_keys(const scene *sc, const pk_camera_key *keys, size_t nkeys, const uint32_t *kf,
                     size_t nk, const pk_camera_key *best, const pk_camera_key *orig, uint32_t nf,
                     pk_camera_key *turned)
{
    pk_camera_key *sm = malloc((nf + 1) * sizeof *sm);
    if (!sm)
        return -1;
    memcpy(sm, best, nf * sizeof *sm);
    uint32_t start = 0;
    for (size_t s = 0; s <= nk; s++) {
        /* a shot ends at a key followed by one a frame later, or at the end */
        bool cut = s + 1 < nk && kf[s + 1] == kf[s] + 1;
        if (s < nk && !cut)
            continue;
        uint32_t end = s < nk ? kf[s] + 1 : nf;
        if (end > nf)
            end = nf;
        if (end > start)
            smooth_best(sc, sm, orig, start, end, 0, NULL);
        start = end;
    }
    memcpy(turned, keys, nkeys * sizeof *turned);
    for (size_t k = 0; k < nkeys; k++) {
        uint32_t f = keys[k].frame;
        if (f >= nf || keys[k].perspective != 0)
            continue;
        double d[3], most = 0;
        for (int a = 0; a < 3; a++) {
            d[a] = (double)sm[f].rot[a] - orig[f].rot[a];
            most = fmax(most, fabs(d[a]));
        }
        if (most < TURN_MIN)
            continue; /* not turned: the key's bytes */
        for (int a = 0; a < 3; a++)
            turned[k].rot[a] = (float)((double)keys[k].rot[a] + d[a]);
    }
    free(sm);
    return 0;
}

/* How far the eye's move from c0 to c1 moves the head (B's when b, else
 * A's, at frame fi) on c1's screen: the move over the head's depth times
 * 2·tan(fov/2), screen heights; -1 when the head is not in front. */
static double eye_step(const scene *sc, uint32_t fi, const pk_camera_key *c0,
                       const pk_camera_key *c1, bool b)
{
    view v0, v1;
    view_of(c0, &v0);
    view_of(c1, &v1);
    int h = head_point(sc);
    double q[3];
    if (h < 0)
        return -1;
    cam_space(&v1, v1.eye, b ? sc->pts[fi].b[h] : sc->pts[fi].a[h], q);
    if (!(q[2] > NEAR))
        return -1;
    double d =
        pki_hypot(pki_hypot(v1.eye[0] - v0.eye[0], v1.eye[1] - v0.eye[1]), v1.eye[2] - v0.eye[2]);
    return d / (q[2] * v1.t);
}

static bool has_frame(const uint32_t *kf, size_t nk, uint32_t f)
{
    return bsearch(&f, kf, nk, sizeof *kf, cmp_frame) != NULL;
}

/* The largest turn (*deg, degrees) and eye move (*eye, screen heights:
 * eye_step, B's head when b, else A's) of cams from frame f − 1 to each
 * measured frame f of [fa, fb), f ≥ 1, where the original does not cut
 * (keys at f − 1 and f). */
static void steps_over(const scene *sc, const pk_camera_key *orig, const pk_camera_key *cams,
                       const uint32_t *kf, size_t nk, uint32_t fa, uint32_t fb, bool b, double *deg,
                       double *eye)
{
    *deg = *eye = 0;
    for (uint32_t f = fa > 1 ? fa : 1; f < fb && f < sc->nframes; f++) {
        if ((has_frame(kf, nk, f) && has_frame(kf, nk, f - 1)) || orig[f].perspective ||
            orig[f - 1].perspective || measure(sc, f, &orig[f], &orig[f], NULL) < 0)
            continue;
        *deg = fmax(*deg, turn_between(&cams[f - 1], &cams[f]));
        *eye = fmax(*eye, eye_step(sc, f, &cams[f - 1], &cams[f], b));
    }
}

/* The steadiness measures of the camera played (step_deg, step_eye) and
 * of the original, over every frame. */
static void steadiness(const scene *sc, const pk_camera_key *orig, const pk_camera_key *played,
                       const uint32_t *kf, size_t nk, const uint32_t *kf0, size_t nk0,
                       pk_camera_report *rep)
{
    steps_over(sc, orig, played, kf, nk, 1, sc->nframes, true, &rep->step_deg, &rep->step_eye);
    steps_over(sc, orig, orig, kf0, nk0, 1, sc->nframes, false, &rep->step_deg_orig,
               &rep->step_eye_orig);
}

/* The runs of measured frames whose bound e misses the goal (frames
 * not measured between two such frames end a run).  0, or -1 on OOM. */
static int unmet_runs(const double *e, uint32_t nf, pk_camera_report *rep)
{
    size_t n = 0;
    for (uint32_t f = 0; f < nf; f++)
        n += e[f] > PK_CAMERA_GOAL && (f == 0 || !(e[f - 1] > PK_CAMERA_GOAL));
    if (!n)
        return 0;
    if (!(rep->unmet = malloc(n * sizeof *rep->unmet)))
        return -1;
    for (uint32_t f = 0; f < nf; f++) {
        if (!(e[f] > PK_CAMERA_GOAL))
            continue;
        if (f == 0 || !(e[f - 1] > PK_CAMERA_GOAL))
            rep->unmet[rep->nunmet++][0] = f;
        rep->unmet[rep->nunmet - 1][1] = f;
    }
    return 0;
}

void pk_camera_report_free(pk_camera_report *r)
{
    if (!r)
        return;
    free(r->unmet);
    r->unmet = NULL;
    r->nunmet = 0;
}

/* ---- the least change: a missed frame brought within the goal ----
 *
 * Where the camera written misses the goal on a frame, the smallest change
 * of it (the eye and the three angles; the view angle and the distance
 * stay) that brings every point measured within LC_AIM: minimise
 * Σ (scale_j·Δx_j)² (the eye's move over the subject's depth times
 * 2·tan(fov/2), the angles' over 2·tan(fov/2): both in screen heights)
 * plus rho·Σ max(0, d_i − LC_AIM)² (d_i a point's distance from A's),
 * Levenberg-Marquardt for rho = 1e2, 1e4, 1e6 in turn (a penalty that
 * tightens towards the constraint).  Local, from the camera written, not
 * from the best camera for the frame: the nearest feasible camera, not
 * the frame's optimum.  The changes are then evened out over the shot
 * (Whittaker: the frames brought within weigh LC_HOLD, the others hold
 * no change) and the frames still missed brought within again from the
 * evened-out camera, LC_ROUNDS times; the stretches changed are fitted
 * again with the reducer, each kept only where it lands more frames and
 * stays steady; a window that lands more frames but fails the rest
 * (unsteady, turned too far, a frame made worse) is solved again up to
 * LC_TRIES times, each LC_STIFF times smoother (after a path that turned
 * too far, first with its frames turned too far pulled back). */

#define LC_AIM 0.0175 /* screen heights: the goal less a margin for the evening out and the fit */
#define LC_PAD 45     /* frames: a window around missed frames */
#define LC_PAD_FINE 15 /* ... and in the second pass, over the frames the first left missed */
#define LC_ROUNDS 2   /* the path solved, then again with the frames newly reached */
#define LC_PULL 1.0   /* the change's weight per screen height² */
#define LC_MU 1e4     /* the smoothness (screen heights² per second difference²) */
#define LC_TRIES 3    /* a window's path solved up to this many times, */
#define LC_STIFF 4.0  /* each this many times smoother than the last */
#define LC_PULLS 4    /* a path turned too far: its frames turned too far pulled back this many times */
#define LC_PULL_MORE 16.0 /* ... each time this much harder */
#define LC_NEAR 8     /* frames either side of a step over the law made smoother */

/* A frame's points measured (pki_cert_frame): A's on the screen, B's; n of them. */
static int lc_points(const scene *sc, uint32_t f, const pk_camera_key *orig, pki_cert_frame *lf)
{
    view va;
    view_of(orig, &va);
    lf->n = 0;
    if (measure(sc, f, orig, orig, NULL) < 0)
        return 0;
    for (int i = 0; i < NPOINTS; i++) {
        double s[2];
        if (!sc->have[i] || !screen(&va, va.eye, sc->pts[f].a[i], s) || !on_screen(sc, s))
            continue;
        memcpy(lf->sa[lf->n], s, sizeof s);
        memcpy(lf->pb[lf->n], sc->pts[f].b[i], sizeof lf->pb[0]);
        lf->n++;
    }
    return lf->n;
}

/* The residuals at x (eye, angles; v: the view angle): 6 for the change,
 * 2 a point; their sum of squares.  worst: the largest distance. */
static double lc_res(const pki_cert_frame *lf, const view *v0, const double x0[TB],
                     const double scl[TB], double rho, const double x[TB], double *r, double *worst,
                     const double (*R)[3], track_at *rot)
{
    view v = *v0;
    if (R) { /* x's rotation, given */
        memcpy(v.R, R, sizeof v.R);
    } else { /* rot_of's, its cosines and sines kept in rot */
        for (int a = 0; a < 3; a++)
            pki_sincos(-x[3 + a], &rot->si[a], &rot->co[a]);
        rot_cs(rot->co, rot->si, v.R);
        memcpy(rot->R, v.R, sizeof v.R);
    }
    memcpy(v.eye, x, sizeof v.eye);
    double c = 0, sr = sqrt(rho);
    *worst = 0;
    for (int k = 2 * lf->n; k < 2 * NPOINTS; k++)
        r[TB + k] = 0;
    for (int j = 0; j < TB; j++) {
        r[j] = scl[j] * (x[j] - x0[j]);
        c += r[j] * r[j];
    }
    for (int i = 0; i < lf->n; i++) {
        double s[2], d[2] = {BEHIND_ERR, 0};
        if (screen(&v, v.eye, lf->pb[i], s))
            d[0] = s[0] - lf->sa[i][0], d[1] = s[1] - lf->sa[i][1];
        double e = pki_hypot(d[0], d[1]);
        *worst = fmax(*worst, e);
        double k = e > LC_AIM ? sr * (e - LC_AIM) / e : 0;
        r[TB + 2 * i] = k * d[0];
        r[TB + 2 * i + 1] = k * d[1];
        c += r[TB + 2 * i] * r[TB + 2 * i] + r[TB + 2 * i + 1] * r[TB + 2 * i + 1];
    }
    return c;
}

/* The least change of cam (frame lf) bringing its points within LC_AIM:
 * into *out; false when the local solve does not get there. */
bool pki_camera_least_change(const pki_cert_frame *lf, const pk_camera_key *cam, pk_camera_key *out)
{
    enum { NR = TB + 2 * NPOINTS };
    view v0;
    view_of(cam, &v0);
    if (v0.ortho || !lf->n)
        return false;
    double x0[TB], x[TB], scl[TB], xt[TB], depth = 0;
    for (int a = 0; a < 3; a++)
        x0[a] = v0.eye[a], x0[3 + a] = cam->rot[a];
    for (int i = 0; i < lf->n; i++) {
        double q[3];
        cam_space(&v0, v0.eye, lf->pb[i], q);
        depth += fmax(q[2], NEAR) / lf->n;
    }
    for (int a = 0; a < 3; a++)
        scl[a] = 1.0 / (depth * v0.t), scl[3 + a] = 1.0 / v0.t;
    memcpy(x, x0, sizeof x);
    double r[NR], rt[NR], J[NR * TB], Jd[TB], worst = 0;
    int np = 2 * lf->n; /* the point rows (TB on); the rest are 0 */
    /* x's rotation and a trial's (track_at's first three fields) */
    track_at rx, rxt;
    for (double rho = 1e2; rho < 1e9; rho *= 100) {
        double cost = lc_res(lf, &v0, x0, scl, rho, x, r, &worst, NULL, &rx), mu = 1e-3;
        for (int it = 0; it < 30 && worst > LC_AIM * 1.001; it++) {
            /* the Jacobian by forward differences, as lc_res gives it: x's
             * angles' cosines and sines as lc_res took them at x (rot_of's
             * bits), a step in an angle recomputing that angle's alone; a
             * step in unknown j moves the points' rows and its own change's
             * row alone */
            const double *co = rx.co, *si = rx.si;
            const double(*R)[3] = (const double(*)[3])rx.R;
            double R1[3][3];
            for (int j = 0; j < TB; j++) {
                double h = j < 3 ? 1e-6 * depth : 1e-7, w;
                memcpy(xt, x, sizeof xt);
                xt[j] += h;
                if (j >= 3)
                    rot_cs_step(co, si, j - 3, xt[j], R1);
                lc_res(lf, &v0, x0, scl, rho, xt, rt, &w, j >= 3 ? (const double(*)[3])R1 : R,
                       NULL);
                Jd[j] = (rt[j] - r[j]) / h;
                for (int k = TB; k < TB + np; k++)
                    J[k * TB + j] = (rt[k] - r[k]) / h;
            }
            /* normal_eq over every row: the change's diagonal first, then
             * the points' rows; the rows that are 0 add nothing (a sum
             * from +0 is never −0, and x ± 0 is x) */
            double H[TB * TB], g[TB];
            for (int a = 0; a < TB; a++) {
                g[a] = 0;
                g[a] += Jd[a] * r[a];
                for (int k = TB; k < TB + np; k++)
                    g[a] += J[k * TB + a] * r[k];
                for (int b = a; b < TB; b++) {
                    double v = 0;
                    if (b == a)
                        v += Jd[a] * Jd[a];
                    for (int k = TB; k < TB + np; k++)
                        v += J[k * TB + a] * J[k * TB + b];
                    H[a * TB + b] = H[b * TB + a] = v;
                }
            }
            bool better = false;
            while (!better && mu < 1e10) {
                double M[TB * TB], dx[TB], w;
                memcpy(M, H, sizeof M);
                for (int a = 0; a < TB; a++)
                    M[a * TB + a] += mu * H[a * TB + a] + 1e-300, dx[a] = -g[a];
                if (!solve_n(TB, M, dx)) {
                    mu *= 10;
                    continue;
                }
                for (int a = 0; a < TB; a++)
                    xt[a] = x[a] + dx[a];
                double next = lc_res(lf, &v0, x0, scl, rho, xt, rt, &w, NULL, &rxt);
                if (next < cost) {
                    better = true, mu = fmax(mu / 3, 1e-9);
                    memcpy(x, xt, sizeof x), memcpy(r, rt, sizeof r);
                    rx = rxt;
                    cost = next, worst = w;
                } else {
                    mu *= 4;
                }
            }
            if (!better)
                break;
        }
        if (worst <= LC_AIM * 1.001)
            break;
    }
    if (!(worst <= PK_CAMERA_GOAL - 0.75 * FIT))
        return false;
    *out = *cam;
    key_from_track(x, out);
    return true;
}

/* Whether c turns from the original o no more than TRACK_TURN, or than
 * the camera written w does. */
static bool within_turn(const pk_camera_key *o, const pk_camera_key *w, const pk_camera_key *c)
{
    return turn_between(o, c) <= fmax(TRACK_TURN, turn_between(o, w));
}

/* k with its view angle dfov whole degrees wider (within MMD's 1° to
 * 125°) and its eye moved along the view so that the points keep their
 * size on the screen (their mean depth times 2·tan(fov/2) kept): *out. */
static void dolly(const pki_cert_frame *lf, const pk_camera_key *k, int dfov, pk_camera_key *out)
{
    *out = *k;
    long fov = (long)k->fov + dfov;
    out->fov = (uint32_t)(fov < (long)FOV_MIN   ? (long)FOV_MIN
                          : fov > (long)FOV_MAX ? (long)FOV_MAX
                                                : fov);
    if (out->fov == k->fov || !lf->n)
        return;
    view v, w;
    view_of(k, &v);
    view_of(out, &w);
    double z = 0;
    for (int i = 0; i < lf->n; i++) {
        double q[3];
        cam_space(&v, v.eye, lf->pb[i], q);
        z += q[2] / lf->n;
    }
    double move = z - z * v.t / w.t; /* forwards */
    for (int a = 0; a < 3; a++)
        out->pos[a] = (float)((double)k->pos[a] + move * v.R[a][2]);
}

/* k with its look-at point moved along the view to its subject's mean
 * depth (lf's points; at least a unit in front of the eye): the same
 * view, written as a key whose look-at point is where the subject is.  A
 * lens changed by dolly keeps the key's distance, so a camera found
 * through a far narrow lens (a best camera at 1° looks from a thousand
 * units away) and brought to the original's lens would keep its look-at
 * point that far beyond the subject: every key fitted around it then
 * swings its eye by the key's distance times its angles' errors. */
/* The mean depth of lf's subject in front of v's eye, at least 1 unit
 * (1 for no subject). */
static double subject_depth(const view *v, const pki_cert_frame *lf)
{
    double z = 0;
    for (int i = 0; i < lf->n; i++) {
        double q[3];
        cam_space(v, v->eye, lf->pb[i], q);
        z += q[2] / lf->n;
    }
    return fmax(z, 1.0);
}

static void recentre(const pki_cert_frame *lf, pk_camera_key *k)
{
    if (!lf->n)
        return;
    view v;
    view_of(k, &v);
    double z = subject_depth(&v, lf);
    for (int a = 0; a < 3; a++)
        k->pos[a] = (float)(v.eye[a] + z * v.R[a][2]);
    k->distance = (float)-z;
}

static const int DFOV[] = {0, 2, -2, 5, -5};
#define NDFOV ((int)(sizeof DFOV / sizeof *DFOV))
/* the last pass's: any turn, and lenses further off */
static const int DFOV_WIDE[] = {0, 2, -2, 5, -5, 10, -10, 15, -15, 25, -25};
#define NDFOV_WIDE ((int)(sizeof DFOV_WIDE / sizeof *DFOV_WIDE))
#define DFOV_SPAN 25 /* the largest change of either list */

/* The smallest change of the view angle (DFOV, whole degrees) at which the
 * least change from w (the camera written at the frame) reaches the
 * frame within the turn allowed: its index in DFOV, or -1. */
static int reach_fov(const pki_cert_frame *lf, const pk_camera_key *o, const pk_camera_key *w,
                     bool wide)
{
    for (int d = 0; d < (wide ? NDFOV_WIDE : NDFOV); d++) {
        pk_camera_key s, c;
        dolly(lf, w, wide ? DFOV_WIDE[d] : DFOV[d], &s);
        if ((d == 0 || s.fov != w->fov) && pki_camera_least_change(lf, &s, &c) &&
            (wide || within_turn(o, w, &c)))
            return d;
    }
    return -1;
}

/* Whether cameras a and b are one view (what view_of, dolly and the
 * least change read of a key: its distance, centre, angles, view angle
 * and projection; compared as bits). */
static bool same_view(const pk_camera_key *a, const pk_camera_key *b)
{
    return a->fov == b->fov && a->perspective == b->perspective &&
           !memcmp(&a->distance, &b->distance, sizeof a->distance) &&
           !memcmp(a->pos, b->pos, sizeof a->pos) && !memcmp(a->rot, b->rot, sizeof a->rot);
}

/* reach_fov's answers, kept over lift_misses' passes: a frame's answer
 * depends on its points, the original and the camera written at it
 * alone, so it stands while the camera written there is the same view
 * (most frames: a pass changes the cameras of the windows it keeps). */
typedef struct reach_memo {
    pk_camera_key *at; /* the camera written each answer is for */
    signed char *d;    /* reach_fov's answer; REACH_UNKNOWN: none yet */
    bool wide;         /* the answers are reach_fov's wide ones */
} reach_memo;

#define REACH_UNKNOWN (-2)

/* reach_fov at frame f, from the memo where it holds the answer for w */
static int reach_fov_at(reach_memo *rm, uint32_t f, const pki_cert_frame *lf,
                        const pk_camera_key *o, const pk_camera_key *w)
{
    if (rm->d[f] != REACH_UNKNOWN && same_view(&rm->at[f], w))
        return rm->d[f];
    rm->at[f] = *w;
    return rm->d[f] = (signed char)reach_fov(lf, o, w, rm->wide);
}

/* The windows lift_misses tried and left as they were, kept over its
 * passes.  A window's attempt reads nothing but what its signature
 * holds: its frames and its pad; the frames missed in it and their view
 * angles' changes; its frames' shots; the camera written over it and the
 * stretch fitted again (the keys around, fa and fb, and a frame either
 * side: the steps measured), and the cuts there; the keys at fa and fb
 * and whether a key sits beside each (an end after or before a cut is
 * fitted free); and fix (what the stretch is fitted to) between them
 * outside the window (the original, the points and the bound are the run's).  So a
 * window met again with the same signature is left again, with the same
 * marks left behind (miss and dfov over it, fix as played): the third
 * pass, after the new shots, meets the second's windows that no shot
 * touched. */
typedef struct window_memo {
    pk_buf all; /* the records: signature length (size_t), signature, after */
    size_t *at; /* where each record starts in all */
    size_t n, cap;
    pk_buf sig; /* the window being tried */
} window_memo;

static void sig_views(pk_buf *b, const pk_camera_key *k, uint32_t from, uint32_t to)
{
    for (uint32_t f = from; f < to; f++) {
        pk_buf_append(b, &k[f].distance, sizeof k[f].distance);
        pk_buf_append(b, k[f].pos, sizeof k[f].pos);
        pk_buf_append(b, k[f].rot, sizeof k[f].rot);
        pk_buf_append(b, &k[f].fov, sizeof k[f].fov);
        pk_buf_append(b, &k[f].perspective, sizeof k[f].perspective);
    }
}

static void sig_key(pk_buf *b, const pk_motion *cam, uint32_t f)
{
    const pk_camera_key *k = NULL;
    for (size_t i = 0; i < cam->ncameras && !k; i++)
        if (cam->cameras[i].frame == f)
            k = &cam->cameras[i];
    pk_buf_putc(b, k != NULL);
    if (!k)
        return;
    sig_views(b, k, 0, 1);
    pk_buf_append(b, &k->frame, sizeof k->frame);
    pk_buf_append(b, k->interp, sizeof k->interp);
}

/* The record whose signature is wm->sig: its after part, or NULL. */
static const uint8_t *memo_find(const window_memo *wm)
{
    if (wm->sig.oom || wm->all.oom)
        return NULL;
    for (size_t i = 0; i < wm->n; i++) {
        size_t len;
        memcpy(&len, wm->all.data + wm->at[i], sizeof len);
        if (len == wm->sig.len &&
            !memcmp(wm->all.data + wm->at[i] + sizeof len, wm->sig.data, len))
            return wm->all.data + wm->at[i] + sizeof len + len;
    }
    return NULL;
}

/* wm->sig recorded, with miss and dfov over [wa, wb) as the window left
 * them (nothing on OOM: the memo is only a saving) */
static void memo_add(window_memo *wm, const char *miss, const int *dfov, uint32_t wa, uint32_t wb)
{
    if (wm->sig.oom || wm->all.oom)
        return;
    size_t *slot = pki_grow_push(&wm->at, &wm->n, &wm->cap, sizeof *wm->at);
    if (!slot)
        return;
    *slot = wm->all.len;
    pk_buf_append(&wm->all, &wm->sig.len, sizeof wm->sig.len);
    pk_buf_append(&wm->all, wm->sig.data, wm->sig.len);
    pk_buf_append(&wm->all, miss + wa, wb - wa);
    pk_buf_append(&wm->all, dfov + wa, (wb - wa) * sizeof *dfov);
    if (wm->all.oom)
        wm->n--;
}

/* The camera played (played[], written as cam) with its missed frames
 * brought within the goal where a small change does it (of the frames
 * the best camera for each frame reaches, e_bound): per window of
 * missed frames (pad frames either side, within the shot; frames skip[]
 * marks left as they are), the path of
 * least change that keeps every frame within its aim (LC_AIM where the
 * least change of the frame alone gets there, its view angle changed as
 * the window's frames need (reach_fov: their median, eased in and out in
 * whole degrees), else its distance now: no frame made worse), smooth
 * (LC_MU), then fitted again with the reducer between the keys around
 * it; kept as the head comment says.  *pieces, *keys: the stretches kept
 * and their keys.  0, or -1 (logged). */
static int lift_misses(const scene *sc, pk_motion **cam, const pk_camera_key *orig,
                       pk_camera_key *played, const double *e_bound, const uint32_t *kf, size_t nk,
                       double deg_o, double eye_o, const pk_camera_options *o, uint32_t pad,
                       const char *skip, reach_memo *rm, window_memo *wm, size_t *pieces,
                       size_t *keys, pk_log *log)
{
    uint32_t nf = sc->nframes;
    pk_camera_key *fix = malloc(nf * sizeof *fix), *was = malloc(nf * sizeof *was);
    pki_cert_frame *lf = malloc(nf * sizeof *lf);
    char *miss = calloc(nf, 1);
    int *dfov = calloc(nf, sizeof *dfov);       /* the view angle's change, whole degrees */
    uint32_t *shot = malloc(nf * sizeof *shot); /* the first frame of each frame's shot */
    double *stiff = malloc(nf * sizeof *stiff); /* a frame's smoothness, times the window's */
    track_work tw;
    bool tw_ok = track_work_init(&tw, nf);
    int rc = -1;
    if (!fix || !was || !lf || !miss || !dfov || !shot || !stiff || !tw_ok) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    memcpy(fix, played, nf * sizeof *fix);
    size_t nmiss = 0;
    for (uint32_t f = 0, first = 0; f < nf; f++) {
        /* a shot starts after a cut (keys at f − 1 and f) */
        if (f && has_frame(kf, nk, f) && has_frame(kf, nk, f - 1))
            first = f;
        shot[f] = first;
        dfov[f] = 0;
        miss[f] = lc_points(sc, f, &orig[f], &lf[f]) && !skip[f] && e_bound[f] >= 0 &&
                  e_bound[f] <= PK_CAMERA_GOAL &&
                  measure(sc, f, &orig[f], &played[f], NULL) > PK_CAMERA_GOAL &&
                  (dfov[f] = reach_fov_at(rm, f, &lf[f], &orig[f], &played[f])) >= 0;
        dfov[f] = miss[f] ? (rm->wide ? DFOV_WIDE : DFOV)[dfov[f]] : 0;
        nmiss += miss[f];
    }
    for (uint32_t f = 0; nmiss && f < nf;) {
        if (!miss[f]) {
            f++;
            continue;
        }
        /* the window: missed frames 2·pad apart or less, in one shot */
        uint32_t last = f;
        for (uint32_t h = f + 1; h < nf && h <= last + 2 * pad && shot[h] == shot[f]; h++)
            if (miss[h])
                last = h;
        uint32_t wa = f > shot[f] + pad ? f - pad : shot[f], wb = last + pad + 1;
        while (wb > nf || (wb > last + 1 && shot[wb - 1] != shot[f]))
            wb--;
        size_t n = wb - wa;
        int tries = 0;
        double mu = LC_MU;
        bool pull = false; /* a path turned too far: its frames' angles pulled harder */
        for (uint32_t h = wa; h < wb; h++)
            stiff[h] = 1;
        /* the window's signature (window_memo); met before: left again */
        bool memo = false;
        {
            uint32_t fa0, fb0;
            bool tail0;
            if (keys_around(*cam, wa, wb - 1, nf, &fa0, &fb0, &tail0, log) != 0)
                goto done;
            if (!(fa0 > wa || fb0 <= fa0 + 1)) {
                uint32_t to0 = tail0 ? nf : fb0 + 1, s1 = to0 + 1 < nf ? to0 + 1 : nf;
                uint32_t lo = (fa0 > 1 ? fa0 : 1) < wa ? (fa0 > 1 ? fa0 : 1) : wa;
                lo = lo ? lo - 1 : 0;
                uint32_t hi = wb > s1 ? wb : s1;
                uint32_t head[] = {pad, f, last, wa, wb, fa0, fb0, tail0, wa > shot[f]};
                pk_buf *b = &wm->sig;
                b->len = 0;
                pk_buf_append(b, head, sizeof head);
                pk_buf_append(b, miss + wa, n);
                for (uint32_t h = f; h <= last; h++) {
                    int d = miss[h] ? dfov[h] : 0;
                    pk_buf_append(b, &d, sizeof d);
                }
                for (uint32_t h = wa; h <= wb && h < nf; h++)
                    pk_buf_putc(b, shot[h] == shot[f]);
                for (uint32_t h = lo; h < hi; h++)
                    pk_buf_putc(b, has_frame(kf, nk, h));
                sig_views(b, played, lo, hi);
                sig_key(b, *cam, fa0);
                sig_key(b, *cam, fb0);
                /* the keys beside them: whether the ends are free */
                pk_buf_putc(b, fa0 == 0 || key_at(*cam, fa0 - 1));
                pk_buf_putc(b, key_at(*cam, fb0 + 1));
                sig_views(b, fix, fa0, wa);
                sig_views(b, fix, wb, fb0 + 1 < nf ? fb0 + 1 : nf);
                memo = true;
                const uint8_t *after = memo_find(wm);
                if (after) {
                    memcpy(miss + wa, after, n);
                    memcpy(dfov + wa, after + n, n * sizeof *dfov);
                    memcpy(fix, played, nf * sizeof *fix);
                    f = wb > fb0 ? wb : fb0;
                    continue;
                }
            }
        }
    again:;
        /* the window's view angle: its reached frames' median change, eased
         * in and out over pad frames in whole degrees */
        int hist[2 * DFOV_SPAN + 1] = {0}, cnt = 0, med = 0;
        for (uint32_t h = f; h <= last; h++)
            if (miss[h])
                hist[dfov[h] + DFOV_SPAN]++, cnt++;
        for (int d = 0, acc = 0; d < 2 * DFOV_SPAN + 1; d++)
            if ((acc += hist[d]) * 2 >= cnt) {
                med = d - DFOV_SPAN;
                break;
            }
        for (size_t i = 0; i < n; i++) {
            uint32_t fr = wa + (uint32_t)i;
            double out = fr < f ? (double)(f - fr) : fr > last ? (double)(fr - last) : 0;
            dfov[fr] = (int)lround(med * (1 - ramp(out, pad)));
            dolly(&lf[fr], &played[fr], dfov[fr], &fix[fr]);
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t fr = wa + (uint32_t)i;
            track_frame *t = &tw.tf[i];
            memset(t, 0, sizeof *t);
            view_of(&fix[fr], &t->v);
            double D = fmax(fabs((double)played[fr].distance), 1.0);
            bool pin = (i < 2 && wa > shot[f]) || (i + 2 >= n && wb < nf && shot[wb] == shot[f]);
            for (int a = 0; a < 3; a++) {
                t->o[a] = t->x0[a] = tw.x[TB * i + a] = t->v.eye[a];
                t->o[3 + a] = t->x0[3 + a] = tw.x[TB * i + 3 + a] = fix[fr].rot[a];
                t->sc[a] = 1.0 / (D * t->v.t);
                t->sc[3 + a] = 1.0 / t->v.t;
            }
            for (int j = 0; j < TB; j++)
                t->lam[j] = (t->v.ortho || pin ? 1e6 : LC_PULL) * t->sc[j] * t->sc[j];
            t->mu = mu * stiff[fr];
            double now = measure(sc, fr, &orig[fr], &played[fr], NULL);
            t->aim = miss[fr] || now <= PK_CAMERA_GOAL ? LC_AIM : now;
            for (int k = 0; k < NPOINTS; k++) {
                t->u[k] = 0;
                if (!t->v.ortho && sc->have[k]) {
                    view va;
                    view_of(&orig[fr], &va);
                    if (screen(&va, va.eye, sc->pts[fr].a[k], t->sa[k]) && on_screen(sc, t->sa[k]))
                        t->u[k] = 1;
                }
                t->any = t->any || t->u[k] > 0;
            }
        }
        for (int round = 0; round < LC_ROUNDS; round++) {
            if (round) { /* frames missed alone tried again from the path */
                bool more = false;
                for (size_t i = 0; i < n; i++) {
                    uint32_t fr = wa + (uint32_t)i;
                    pk_camera_key c0 = fix[fr], c;
                    if (miss[fr] || !lf[fr].n || !(tw.tf[i].aim > LC_AIM))
                        continue;
                    key_from_track(tw.x + TB * i, &c0);
                    if (pki_camera_least_change(&lf[fr], &c0, &c) &&
                        (rm->wide || within_turn(&orig[fr], &played[fr], &c)))
                        miss[fr] = 1, tw.tf[i].aim = LC_AIM, more = true;
                }
                if (!more)
                    break;
            }
            for (double rho = 1e2; rho < 1e7; rho *= 100) {
                for (size_t i = 0; i < n; i++)
                    tw.tf[i].boost = rho;
                track_solve(sc, wa, n, tw.tf, tw.x, 10, tw.H, tw.M, tw.g, tw.xt, tw.at, tw.att);
            }
        }
        /* after a path that turned too far: each frame turned beyond the
         * turn allowed has its angles pulled harder, and the path is
         * solved again, up to LC_PULLS times */
        for (int t = 0; pull && t < LC_PULLS; t++) {
            bool over = false;
            for (size_t i = 0; i < n; i++) {
                uint32_t fr = wa + (uint32_t)i;
                pk_camera_key c = fix[fr];
                if (tw.tf[i].v.ortho)
                    continue;
                key_from_track(tw.x + TB * i, &c);
                if (rm->wide || within_turn(&orig[fr], &played[fr], &c))
                    continue;
                for (int a = 3; a < TB; a++)
                    tw.tf[i].lam[a] *= LC_PULL_MORE;
                over = true;
            }
            if (!over)
                break;
            track_solve(sc, wa, n, tw.tf, tw.x, 10, tw.H, tw.M, tw.g, tw.xt, tw.at, tw.att);
        }
        for (size_t i = 0; i < n; i++) {
            pk_camera_key *k = &fix[wa + i];
            if (tw.tf[i].v.ortho)
                continue;
            key_from_track(tw.x + TB * i, k);
        }
        /* fitted again between the keys of the camera written around it */
        uint32_t fa, fb;
        bool tail;
        if (keys_around(*cam, wa, wb - 1, nf, &fa, &fb, &tail, log) != 0)
            goto done;
        uint32_t to = tail ? nf : fb + 1, next = wb > fb ? wb : fb;
        if (fa > wa || fb <= fa + 1) {
            f = next;
            continue;
        }
        size_t before = 0, after = 0, added = 0;
        double deg0, eye0, deg1, eye1;
        uint32_t s0 = fa > 0 ? fa : 1, s1 = to + 1 < nf ? to + 1 : nf;
        double w0 = worst_over(sc, fa, to, orig, played, &before);
        steps_over(sc, orig, played, kf, nk, s0, s1, true, &deg0, &eye0);
        pk_motion *keep = pk_motion_clone(*cam);
        if (!keep) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            goto done;
        }
        memcpy(was, played, nf * sizeof *was);
        size_t gone = 0; /* keys of earlier refits the stretch replaces */
        for (size_t i = 0; i < (*cam)->ncameras; i++) {
            uint32_t kfr = (*cam)->cameras[i].frame;
            gone += kfr > fa && (kfr < fb || tail) && !has_frame(kf, nk, kfr);
        }
        /* an end key after a cut (or at the motion's start), or before
         * one, is this stretch's alone: it follows the path, which moves
         * there (pinned only where the shot goes on) */
        bool free_a = fa == 0 || key_at(*cam, fa - 1), free_b = !tail && key_at(*cam, fb + 1);
        if (refit(cam, fa, fb, tail, free_a, free_b, fix, orig, o, &added, log) != 0) {
            pk_motion_free(keep);
            goto done;
        }
        if (sort_and_sample(*cam, nf, played, log) != 0) {
            pk_motion_free(keep);
            goto done;
        }
        double w1 = worst_over(sc, fa, to, orig, played, &after);
        steps_over(sc, orig, played, kf, nk, s0, s1, true, &deg1, &eye1);
        double turn0 = 0, turn1 = 0; /* the largest turn from the original */
        for (uint32_t h = fa; h < to; h++) {
            if (measure(sc, h, &orig[h], &orig[h], NULL) < 0)
                continue;
            turn0 = fmax(turn0, turn_between(&orig[h], &was[h]));
            turn1 = fmax(turn1, turn_between(&orig[h], &played[h]));
        }
        double lim_deg = fmax(STEADY * deg_o, deg0), lim_eye = fmax(STEADY * eye_o, eye0);
        bool worse = w1 > fmax(w0, PK_CAMERA_GOAL) + FIT;
        bool turned = !rm->wide && turn1 > fmax(TRACK_TURN, turn0);
        bool unsteady = deg1 > lim_deg || eye1 > lim_eye, local = false;
        double level = LC_STIFF * LC_STIFF; /* (LC_STIFF²)^(tries + 1) */
        for (int k = 0; k < tries; k++)
            level *= LC_STIFF * LC_STIFF;
        if (after > before && !worse && unsteady && tries + 1 < LC_TRIES)
            /* the frames around each step over the law: smoother there */
            for (uint32_t h = wa > 1 ? wa : 1; h < wb; h++) {
                if ((has_frame(kf, nk, h) && has_frame(kf, nk, h - 1)) || orig[h].perspective ||
                    orig[h - 1].perspective || measure(sc, h, &orig[h], &orig[h], NULL) < 0 ||
                    !(turn_between(&played[h - 1], &played[h]) > lim_deg ||
                      eye_step(sc, h, &played[h - 1], &played[h], true) > lim_eye))
                    continue;
                for (uint32_t g = h > wa + LC_NEAR ? h - LC_NEAR : wa; g < wb && g <= h + LC_NEAR; g++)
                    stiff[g] = fmax(stiff[g], level);
                local = true;
            }
        if (after > before && !worse && !unsteady && !turned) {
            pk_motion_free(keep);
            (*pieces)++;
            *keys += added - gone;
        } else {
            pk_motion_free(*cam);
            *cam = keep;
            memcpy(played, was, nf * sizeof *was);
            memcpy(fix, played, nf * sizeof *fix);
            /* a path that lands more frames but turns too far: again,
             * its frames turned too far held back; too unsteady or making
             * a frame worse: again, smoother */
            if (after > before && ++tries < LC_TRIES) {
                if ((!turned || pull) && !local)
                    mu *= LC_STIFF;
                pull = pull || turned;
                goto again;
            }
            if (memo)
                memo_add(wm, miss, dfov, wa, wb);
        }
        f = next;
    }
    rc = 0;
done:
    free(fix);
    free(was);
    free(lf);
    free(miss);
    free(dfov);
    free(shot);
    free(stiff);
    track_work_free(&tw);
    return rc;
}

/* lift_misses twice: windows padded LC_PAD, then LC_PAD_FINE (a run the
 * wide windows could not land, tried again in narrower ones). */
static int lift_misses_twice(const scene *sc, pk_motion **cam, const pk_camera_key *orig,
                             pk_camera_key *played, const double *e_bound, const uint32_t *kf,
                             size_t nk, double deg_o, double eye_o, const pk_camera_options *o,
                             const char *skip, reach_memo *rm, window_memo *wm, size_t *pieces,
                             size_t *keys, pk_log *log)
{
    for (int pass = 0; pass < 2; pass++)
        if (lift_misses(sc, cam, orig, played, e_bound, kf, nk, deg_o, eye_o, o,
                        pass ? LC_PAD_FINE : LC_PAD, skip, rm, wm, pieces, keys, log) != 0)
            return -1;
    return 0;
}

/* ---- a new shot: a run of missed frames cut to ----
 *
 * What the least change cannot reach is mostly another shot: the best
 * camera for such a frame looks from 20° to 60° elsewhere, or through
 * another lens.  A camera that cuts to another shot and back (keys a
 * frame apart, as the original's own cuts) is an ordinary MMD camera; one
 * that swings there between frames is not.  So a run of at least CUT_MIN
 * frames the camera written still misses where the best camera for each
 * frame meets the goal (gaps of up to CUT_GAP frames joined, within one
 * shot of the original) is cut to: the shot is the best camera of one of
 * its frames (of three tried, the one whose least change reaches most of
 * the run within TRACK_TURN), its view angle held; within it the path of
 * least change from that camera (smooth, LC_MU), fitted with the
 * reducer, entered and left by a cut (keys at r0 − 1 and r0, r1 and
 * r1 + 1; the stretches around fitted again to the camera as it was).
 * An end of the run within CUT_SNAP frames of a cut (the original's or a
 * new shot's) moves to that cut, so that no stub of a shot is left
 * between two cuts; such a run, sharing a cut, may be as
 * short as CUT_MIN_AT.  The frames at either end that the shot's camera
 * does not reach and that its path puts further off than the camera
 * written are left to that camera (the shot starts and ends where it
 * helps; back at the cut if that leaves a stub).
 * Kept where it lands at least CUT_GAIN more frames, leaves its own
 * worst frame and the frames around within FIT of their worst, and stays as steady within the shot
 * as the law above (STEADY times the original's largest step). */

#define CUT_MIN 20  /* frames: the shortest shot cut to (two thirds of a second) */
#define CUT_GAP 6   /* frames met inside a run that do not end it */
#define CUT_GAIN 10 /* frames a new shot must land more */
#define CUT_NEAR 0.01 /* the weight of a frame its least change does not reach */
#define CUT_LENS 2.0 /* its view angle at most this many times the original's, or a part */
#define CUT_SNAP 10   /* frames: a run's end this near a cut moves to it (a third of a second) */
#define CUT_MIN_AT 15 /* frames: the shortest shot cut to that shares a cut (half a second) */

/* Whether f starts a shot: keys at f and the frame before (kf: *nk). */
static bool cut_at(const uint32_t *kf, size_t nk, uint32_t f)
{
    return f >= 1 && has_frame(kf, nk, f) && has_frame(kf, nk, f - 1);
}

/* bp's camera as a key (its look-at point at its subject's mean depth) */
static void key_of_par(const double p[NPAR], const pki_cert_frame *lf, pk_camera_key *k)
{
    memset(k, 0, sizeof *k);
    view v;
    view_par(p, &v);
    k->distance = (float)-subject_depth(&v, lf);
    k->fov = (uint32_t)lround(fmin(FOV_MAX, fmax(FOV_MIN, p[P_FOV])));
    pk_camera_interp_linear(k->interp);
    double x[TB];
    for (int a = 0; a < 3; a++)
        x[a] = p[P_EYE + a], x[3 + a] = p[P_ROT + a];
    key_from_track(x, k);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Adds frame f to the sorted key frames *kf (*nk of them; room for it). */
static void add_frame(uint32_t *kf, size_t *nk, uint32_t f)
{
    if (has_frame(kf, *nk, f))
        return;
    kf[(*nk)++] = f;
    qsort(kf, *nk, sizeof *kf, cmp_u32);
}

/* Sets (or adds) cam's key at frame f to k (its frame f). */
static int set_key(pk_motion *cam, uint32_t f, const pk_camera_key *k, pk_log *log)
{
    pk_camera_key *d = NULL;
    for (size_t i = 0; i < cam->ncameras && !d; i++)
        if (cam->cameras[i].frame == f)
            d = &cam->cameras[i];
    if (!d && !(d = pk_motion_push_camera(cam))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    *d = *k;
    d->frame = f;
    return 0;
}

/* The new shots (head comment above) cut to in *cam (played[] as it
 * plays); *kf (*nk, room for 4 more every CUT_MIN frames) gains their cuts; newshot[f]
 * marks the frames in one.  *cuts, *keys: the shots kept and their keys
 * (net).  0, or -1 (logged). */
static int cut_in(const scene *sc, pk_motion **cam, const pk_camera_key *orig,
                  const pk_camera_key *raw, pk_camera_key *played, const double *e_bound, const double (*bp)[NPAR],
                  uint32_t *kf, size_t *nk, double deg_o, double eye_o,
                  const pk_camera_options *o, char *newshot, size_t *cuts, size_t *keys,
                  pk_log *log)
{
    uint32_t nf = sc->nframes;
    pk_camera_key *fix = malloc(nf * sizeof *fix), *was = malloc(nf * sizeof *was);
    pki_cert_frame *lf = malloc(nf * sizeof *lf);
    char *need = calloc(nf, 1), *reach = calloc(nf, 1), *cand = calloc(nf, 1);
    uint32_t *shot = malloc(nf * sizeof *shot), *ksave = malloc((*nk + 4 * (nf / CUT_MIN + 1)) * sizeof *ksave);
    track_work tw;
    bool tw_ok = track_work_init(&tw, nf);
    int rc = -1;
    if (!fix || !was || !lf || !need || !reach || !cand || !shot || !ksave || !tw_ok) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t f = 0; f < nf; f++)
        need[f] = lc_points(sc, f, &orig[f], &lf[f]) && e_bound[f] >= 0 &&
                  e_bound[f] <= PK_CAMERA_GOAL && !newshot[f] &&
                  measure(sc, f, &orig[f], &played[f], NULL) > PK_CAMERA_GOAL;
    for (uint32_t f = 0, first = 0; f < nf; f++) {
        if (f && has_frame(kf, *nk, f) && has_frame(kf, *nk, f - 1))
            first = f;
        shot[f] = first;
    }
    for (uint32_t f = 1; f < nf;) {
        if (!need[f]) {
            f++;
            continue;
        }
        uint32_t r0 = f, r1 = f;
        for (uint32_t h = f + 1; h < nf && h <= r1 + CUT_GAP && shot[h] == shot[f]; h++)
            if (need[h])
                r1 = h;
        /* an end this near a cut (the camera's own or a new shot's) moves
         * to it: no stub of a shot between two cuts */
        uint32_t c0 = 0, c1 = 0;
        for (uint32_t c = r0; c >= 1 && c + CUT_SNAP >= r0 && !c0; c--)
            if (cut_at(kf, *nk, c))
                c0 = c;
        for (uint32_t c = r1 + 1; c < nf && c <= r1 + 1 + CUT_SNAP && !c1; c++)
            if (cut_at(kf, *nk, c))
                c1 = c;
        if (c0)
            r0 = c0;
        if (c1)
            r1 = c1 - 1;
        f = r1 + 1;
        uint32_t n = r1 - r0 + 1;
        if (n < ((c0 || c1) ? CUT_MIN_AT : CUT_MIN))
            continue;
        bool tail = r1 + 1 >= nf;
        /* the shot: the best camera of the frame a quarter, half and three
         * quarters in whose least change reaches most of the run */
        pk_camera_key anchor = {0};
        size_t most = 0;
        for (int q = 1; q <= 3; q++) {
            uint32_t c = r0 + n * (uint32_t)q / 4;
            if (!need[c])
                continue;
            pk_camera_key a, w, lc;
            key_of_par(bp[c], &lf[c], &w);
            /* its lens within a factor CUT_LENS of the original's */
            double fo = orig[c].fov < 1 ? 1.0 : (double)orig[c].fov;
            long fw = (long)w.fov, lo = lround(fo / CUT_LENS), hi = lround(fo * CUT_LENS);
            dolly(&lf[c], &w, (int)(fw < lo ? lo - fw : fw > hi ? hi - fw : 0), &a);
            recentre(&lf[c], &a);
            size_t cnt = 0;
            for (uint32_t h = r0; h <= r1; h++)
                cnt += cand[h] = lf[h].n && pki_camera_least_change(&lf[h], &a, &lc) &&
                                 turn_between(&a, &lc) <= TRACK_TURN;
            if (cnt > most) { /* the frames its least change reaches: reach[] */
                most = cnt, anchor = a;
                memcpy(reach + r0, cand + r0, n);
            }
        }
        if (most < CUT_GAIN)
            continue;
        int tries = 0;
        double mu = LC_MU;
        const uint32_t run0 = r0, run1 = r1;
    again:;
        r0 = run0, r1 = run1, n = r1 - r0 + 1, tail = r1 + 1 >= nf;
        /* the path of least change from it over the run */
        view va;
        view_of(&anchor, &va);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t fr = r0 + i;
            track_frame *t = &tw.tf[i];
            memset(t, 0, sizeof *t);
            fix[fr] = anchor;
            t->v = va;
            double D = fmax(fabs((double)anchor.distance), 1.0);
            for (int a = 0; a < 3; a++) {
                t->o[a] = t->x0[a] = tw.x[TB * i + a] = va.eye[a];
                t->o[3 + a] = t->x0[3 + a] = tw.x[TB * i + 3 + a] = anchor.rot[a];
                t->sc[a] = 1.0 / (D * va.t);
                t->sc[3 + a] = 1.0 / va.t;
            }
            for (int j = 0; j < TB; j++)
                t->lam[j] = LC_PULL * t->sc[j] * t->sc[j];
            t->mu = mu;
            t->aim = LC_AIM;
            for (int k = 0; k < NPOINTS; k++) {
                t->u[k] = 0;
                if (sc->have[k]) {
                    double s[2];
                    view vo;
                    view_of(&orig[fr], &vo);
                    if (screen(&vo, vo.eye, sc->pts[fr].a[k], s) && on_screen(sc, s)) {
                        t->u[k] = 1;
                        memcpy(t->sa[k], s, sizeof s);
                    }
                }
                t->any = t->any || t->u[k] > 0;
            }
        }
        for (double rho = 1e2; rho < 1e7; rho *= 100) {
            for (uint32_t i = 0; i < n; i++) /* a frame out of its reach: as near as it goes */
                tw.tf[i].boost = reach[r0 + i] ? rho : CUT_NEAR * rho;
            track_solve(sc, r0, n, tw.tf, tw.x, 10, tw.H, tw.M, tw.g, tw.xt, tw.at, tw.att);
        }
        for (uint32_t i = 0; i < n; i++)
            key_from_track(tw.x + TB * i, &fix[r0 + i]);
        /* a frame at either end that its camera does not reach and that
         * the path puts further off than the camera written stays with
         * that camera: the shot is cut to where it helps (back at the cut
         * it was moved to if that would leave a stub) */
        while (r0 < r1 && !reach[r0] &&
               measure(sc, r0, &orig[r0], &fix[r0], NULL) >
                   measure(sc, r0, &orig[r0], &played[r0], NULL))
            r0++;
        while (r1 > r0 && !reach[r1] &&
               measure(sc, r1, &orig[r1], &fix[r1], NULL) >
                   measure(sc, r1, &orig[r1], &played[r1], NULL))
            r1--;
        if (c0 && r0 <= c0 + CUT_SNAP)
            r0 = c0;
        if (c1 && r1 + 1 + CUT_SNAP >= c1)
            r1 = c1 - 1;
        n = r1 - r0 + 1;
        tail = r1 + 1 >= nf;
        if (n < (((c0 && r0 == c0) || (c1 && r1 + 1 == c1)) ? CUT_MIN_AT : CUT_MIN))
            continue;
        /* the keys: the cuts in and out, the stretches around fitted again */
        uint32_t ka, kb;
        bool kb_tail;
        if (keys_around(*cam, r0 - 1, r1 + 2, nf, &ka, &kb, &kb_tail, log) != 0)
            goto done;
        if (ka > r0 - 1)
            continue;
        memcpy(was, played, nf * sizeof *was);
        size_t before = 0, after = 0, out0 = 0, out1 = 0, added = 0;
        uint32_t to = kb_tail ? nf : kb + 1;
        worst_over(sc, ka, to, orig, played, &before);
        double wr0 = worst_over(sc, r0, r1 + 1, orig, played, &out0);
        double wa0 = worst_over(sc, ka, r0, orig, played, &out0);
        double wb0 = tail ? -1 : worst_over(sc, r1 + 1, to, orig, played, &out1);
        pk_motion *keep = pk_motion_clone(*cam);
        size_t nkeys0 = (*cam)->ncameras;
        if (!keep || set_key(*cam, r0 - 1, &was[r0 - 1], log) != 0 ||
            set_key(*cam, r0, &fix[r0], log) != 0 || set_key(*cam, r1, &fix[r1], log) != 0 ||
            (!tail && set_key(*cam, r1 + 1, &was[r1 + 1], log) != 0)) {
            pk_motion_free(keep);
            goto done;
        }
        qsort((*cam)->cameras, (*cam)->ncameras, sizeof *(*cam)->cameras, cmp_key_frame);
        if ((ka < r0 - 1 &&
             refit(cam, ka, r0 - 1, false, false, false, was, orig, o, &added, log) != 0) ||
            (r1 > r0 + 1 && refit(cam, r0, r1, false, true, true, fix, orig, o, &added, log) != 0) ||
            (!tail && (kb_tail || kb > r1 + 1) &&
             refit(cam, r1 + 1, kb, kb_tail, false, false, was, orig, o, &added, log) != 0)) {
            pk_motion_free(keep);
            goto done;
        }
        if (sort_and_sample(*cam, nf, played, log) != 0) {
            pk_motion_free(keep);
            goto done;
        }
        size_t nk1 = *nk;
        memcpy(ksave, kf, nk1 * sizeof *kf);
        uint32_t kf1[4] = {r0 - 1, r0, r1, r1 + 1};
        for (int i = 0; i < (tail ? 3 : 4); i++)
            add_frame(kf, nk, kf1[i]);
        worst_over(sc, ka, to, orig, played, &after);
        double wr1 = worst_over(sc, r0, r1 + 1, orig, played, &out0);
        double wa1 = worst_over(sc, ka, r0, orig, played, &out0);
        double wb1 = tail ? -1 : worst_over(sc, r1 + 1, to, orig, played, &out1);
        double deg0, eye0, deg1, eye1;
        uint32_t s0 = ka > 0 ? ka : 1, s1 = to + 1 < nf ? to + 1 : nf;
        steps_over(sc, orig, was, kf, *nk, s0, s1, true, &deg0, &eye0);
        steps_over(sc, orig, played, kf, *nk, s0, s1, true, &deg1, &eye1);
        double wc = worst_over(sc, r0, r1 + 1, orig, raw, &out0);
        if (after >= before + CUT_GAIN && wr1 <= fmax(wr0 + FIT, wc + PK_CAMERA_SMOOTH) &&
            wa1 <= fmax(wa0, PK_CAMERA_GOAL) + FIT &&
            wb1 <= fmax(wb0, PK_CAMERA_GOAL) + FIT && deg1 <= fmax(STEADY * deg_o, deg0) &&
            eye1 <= fmax(STEADY * eye_o, eye0)) {
            pk_motion_free(keep);
            (*cuts)++;
            *keys += (*cam)->ncameras - nkeys0;
            for (uint32_t h = r0; h <= r1; h++)
                newshot[h] = 1;
        } else {
            pk_motion_free(*cam);
            *cam = keep;
            memcpy(played, was, nf * sizeof *was);
            memcpy(kf, ksave, nk1 * sizeof *kf); /* the cuts taken back */
            *nk = nk1;
            if (after >= before + CUT_GAIN && ++tries < LC_TRIES) { /* smoother */
                mu *= LC_STIFF;
                goto again;
            }
        }
    }
    rc = 0;
done:
    free(fix);
    free(was);
    free(lf);
    free(need);
    free(reach);
    free(cand);
    free(shot);
    free(ksave);
    track_work_free(&tw);
    return rc;
}

static int run(pk_motion *camera, scene *sc, pk_camera_report *rep, pk_log *log)
{
    const pk_camera_options *o = sc->o;
    uint32_t nf = sc->nframes;
    pk_camera_key *orig = calloc(nf, sizeof *orig), *best = calloc(nf, sizeof *best);
    pk_camera_key *played = calloc(nf, sizeof *played), *raw = calloc(nf, sizeof *raw);
    double *e_best = calloc(nf, sizeof *e_best), *e_bound = calloc(nf, sizeof *e_bound);
    double *e_all = calloc(nf, sizeof *e_all);
    double(*bp)[NPAR] = malloc((nf + 1) * sizeof *bp);
    char *newshot = calloc(nf + 1, 1);
    reach_memo rm = {malloc((nf + 1) * sizeof *rm.at), malloc(nf + 1), false};
    reach_memo rmw = {malloc((nf + 1) * sizeof *rmw.at), malloc(nf + 1), true};
    window_memo wm = {0}, wmw = {0};
    pk_buf_init(&wmw.all);
    pk_buf_init(&wmw.sig);
    pk_buf_init(&wm.all);
    pk_buf_init(&wm.sig);
    pk_motion *cam = camera_only(camera, log);
    uint32_t *kf = NULL;
    size_t nk = 0;
    int rc = -1;
    if (!cam)
        goto done;
    if (!orig || !best || !played || !e_best || !e_bound || !e_all || !raw || !bp || !newshot ||
        !rm.at || !rm.d || !rmw.at || !rmw.d) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    if (sample_all(cam, nf, orig, log) != 0)
        goto done;
    tally before = {0}, ideal = {0}, after = {0}, bound = {0};
    for (uint32_t f = 0; f < nf; f++) {
        correct(sc, f, &orig[f], &best[f]);
        measure(sc, f, &orig[f], &orig[f], &before);
        e_best[f] = measure(sc, f, &orig[f], &best[f], &ideal);
        rep->ortho += orig[f].perspective != 0;
        rep->frames_on_screen += e_best[f] >= 0;
        rep->best_goal += e_best[f] >= 0 && e_best[f] <= PK_CAMERA_GOAL;
    }
    if (bound_all(sc, orig, best, e_bound, e_all, &bound, bp) != 0)
        goto nomem;
    for (uint32_t f = 0; f < nf; f++)
        rep->bound_goal += e_all[f] >= 0 && e_all[f] <= PK_CAMERA_GOAL;
    if (unmet_runs(e_all, nf, rep) != 0)
        goto nomem;
    memcpy(raw, best, nf * sizeof *raw);
    /* every key turned as the correction turns the camera, then moved at
     * once, curves kept */
    if (!(kf = key_frames(cam, &nk)))
        goto nomem;
    pk_camera_key *turned = malloc((cam->ncameras + 1) * sizeof *turned);
    if (!turned ||
        turn_keys(sc, cam->cameras, cam->ncameras, kf, nk, best, orig, nf, turned) != 0) {
        free(turned);
        goto nomem;
    }
    memcpy(cam->cameras, turned, cam->ncameras * sizeof *turned);
    free(turned);
    int krc = sample_all(cam, nf, played, log);
    if (krc != 0)
        goto done;
    if (solve_keys(sc, cam->cameras, cam->ncameras, orig, played) != 0)
        goto nomem;
    if (sample_all(cam, nf, played, log) != 0)
        goto done;
    /* stretches the kept curves do not follow closely enough: at their
     * worst frame a point lands more than PK_CAMERA_SMOOTH further from
     * A's than through the evened-out frame-by-frame correction at its
     * worst there; each is fitted again from that correction (a run of
     * them meeting at a key, not at a cut, at once) */
    char *redo = calloc(nk + 1, sizeof *redo); /* 1: by the worst frame, 2: by the count */
    if (!redo) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    double deg_o, eye_o;
    steps_over(sc, orig, orig, kf, nk, 1, nf, false, &deg_o, &eye_o);
    /* each stretch's correction evened out from the correction as it came
     * (raw: no stretch before it shares its first frame, or none evened
     * out), kept: the stretch fitted again alone evens out the same frames
     * the same way (smooth_best reads [fa, to) of best alone); NULL: none
     * kept (then solved again) */
    pk_camera_key *sm1 = malloc((nf + nk + 1) * sizeof *sm1);
    size_t *sm_at = malloc((nk + 1) * sizeof *sm_at), sm_used = 0;
    if (!sm_at) {
        free(sm1);
        sm1 = NULL;
    }
    for (size_t s = 0; s < nk; s++) {
        uint32_t fa = kf[s], fb = s + 1 < nk ? kf[s + 1] : nf - 1;
        uint32_t end = s + 1 < nk ? fb : nf; /* the last key: on to the dance's end */
        if (sm1)
            sm_at[s] = SIZE_MAX;
        if (end <= fa + 1)
            continue;                           /* a cut, or nothing after the last key */
        uint32_t to = s + 1 < nk ? fb + 1 : nf; /* its end key too */
        bool as_came = sm1 != NULL;
        for (uint32_t h = fa; h < to && as_came; h++)
            as_came = same_view(&best[h], &raw[h]);
        smooth_best(sc, best, orig, fa, to, 1, e_bound);
        if (as_came) {
            sm_at[s] = sm_used;
            memcpy(sm1 + sm_used, best + fa, (to - fa) * sizeof *sm1);
            sm_used += to - fa;
        }
        size_t in_kept, in_best;
        double kept = worst_over(sc, fa, to, orig, played, &in_kept);
        double fits = worst_over(sc, fa, to, orig, best, &in_best);
        redo[s] = kept >= 0 && kept > fits + PK_CAMERA_SMOOTH;
        if (kept >= 0 && !redo[s] && in_best > in_kept)
            redo[s] = 2;
    }
    for (size_t s = 0; s < nk; s++) {
        if (!redo[s])
            continue;
        uint32_t fa = kf[s];
        size_t s0 = s;
        while (s + 1 < nk && redo[s + 1] && kf[s + 1] > kf[s] + 1)
            s++;
        bool tail = s + 1 == nk;
        uint32_t fb = tail ? nf - 1 : kf[s + 1];
        /* an end key is this stretch's alone after a cut, before one, or
         * at the motion's ends */
        size_t first = s0;
        bool by_count = false;
        for (size_t r = s0; r <= s; r++)
            by_count = by_count || redo[r] == 2;
        bool free_a = first == 0 || kf[first] <= kf[first - 1] + 1;
        bool free_b = tail || s + 2 >= nk || kf[s + 2] <= kf[s + 1] + 1;
        /* the run evened out as one (stretches evened out alone end
         * freely: two meeting at a key would disagree there) */
        uint32_t to = tail ? nf : fb + 1;
        /* fitted again, and checked for steadiness: a run turning or
         * moving its eye from one frame to the next more than STEADY
         * times the original's most is fitted again from a track
         * STIFFER times as smooth; if still, a run fitted again for its
         * frames within the goal alone is left as it was */
        size_t added = 0;
        bool done_ = false;
        for (int stiff = 0; stiff < 2 && !done_; stiff++) {
            if (!stiff && s0 == s && sm1 && sm_at[s] != SIZE_MAX) {
                memcpy(best + fa, sm1 + sm_at[s], (to - fa) * sizeof *best);
            } else {
                memcpy(best + fa, raw + fa, (to - fa) * sizeof *best);
                smooth_best(sc, best, orig, fa, to, stiff ? STIFFER : 1, e_bound);
            }
            pk_motion *keep = pk_motion_clone(cam);
            added = 0;
            if (!keep ||
                refit(&cam, fa, fb, tail, free_a, free_b, best, orig, o, &added, log) != 0 ||
                sample_all(cam, nf, played, log) != 0) {
                pk_motion_free(keep);
                free(redo), free(sm1), free(sm_at);
                goto nomem;
            }
            double deg, eye;
            steps_over(sc, orig, played, kf, nk, fa > 0 ? fa : 1, to + 1, true, &deg, &eye);
            done_ = deg <= STEADY * deg_o && eye <= STEADY * eye_o;
            if (done_ || (stiff && !by_count)) {
                done_ = true;
                pk_motion_free(keep);
            } else {
                pk_motion_free(cam);
                cam = keep;
            }
        }
        if (!done_)
            continue;
        rep->pieces++;
        rep->piece_keys += added;
    }
    free(redo), free(sm1), free(sm_at);
    /* a stretch fitted again adds its keys at the end: by frame again (one
     * key a frame: a stretch replaces the keys inside it) */
    qsort(cam->cameras, cam->ncameras, sizeof *cam->cameras, cmp_key_frame);
    if (sample_all(cam, nf, played, log) != 0)
        goto done;
    /* the frames still missed: the least change that lands them */
    memset(rm.d, REACH_UNKNOWN, nf + 1);
    if (lift_misses_twice(sc, &cam, orig, played, e_bound, kf, nk, deg_o, eye_o, o, newshot, &rm,
                          &wm, &rep->pieces, &rep->piece_keys, log) != 0)
        goto done;
    /* the runs it still misses: cut to another shot */
    uint32_t *kf2 = malloc((2 * nk + 4 * (nf / CUT_MIN + 1)) * sizeof *kf);
    if (!kf2)
        goto nomem;
    memcpy(kf2, kf, nk * sizeof *kf);
    free(kf);
    kf = kf2;
    size_t nk0 = nk; /* the original's key frames, after the room for the cuts */
    uint32_t *kf0 = kf + nk + 4 * (nf / CUT_MIN + 1);
    memcpy(kf0, kf, nk * sizeof *kf);
    if (cut_in(sc, &cam, orig, raw, played, e_bound, (const double(*)[NPAR])bp, kf, &nk, deg_o,
               eye_o, o, newshot, &rep->cuts, &rep->piece_keys, log) != 0)
        goto done;
    /* the frames the stretches fitted again around the new shots left
     * missed: the least change again (the new shots left as they are) */
    if (rep->cuts && lift_misses(sc, &cam, orig, played, e_bound, kf, nk, deg_o, eye_o, o,
                                 LC_PAD_FINE, newshot, &rm, &wm, &rep->pieces, &rep->piece_keys,
                                 log) != 0)
        goto done;
    /* the frames the best camera for each frame meets and the camera
     * written still misses: the least change again, any turn, a wider
     * choice of lens */
    rmw.wide = true;
    memset(rmw.d, REACH_UNKNOWN, nf + 1);
    if (lift_misses_twice(sc, &cam, orig, played, e_all, kf, nk, deg_o, eye_o, o, newshot, &rmw,
                          &wmw, &rep->pieces, &rep->piece_keys, log) != 0)
        goto done;
    for (uint32_t f = 0; f < nf; f++) {
        double b = measure(sc, f, &orig[f], &orig[f], NULL);
        double a = measure(sc, f, &orig[f], &played[f], &after);
        rep->before_goal += b >= 0 && b <= PK_CAMERA_GOAL;
        rep->after_goal += a >= 0 && a <= PK_CAMERA_GOAL;
        if (a >= 0 && !newshot[f]) /* a new shot turns as it does */
            rep->turn_deg = fmax(rep->turn_deg, turn_between(&orig[f], &played[f]));
    }
    steadiness(sc, orig, played, kf, nk, kf0, nk0, rep);
    rep->measured = before.n;
    rep->before_worst = before.worst;
    rep->before_mean = before.n ? before.sum / (double)before.n : 0;
    rep->before_worst_frame = before.worst_frame;
    rep->best_worst = ideal.worst;
    rep->best_mean = ideal.n ? ideal.sum / (double)ideal.n : 0;
    rep->bound_worst = bound.worst;
    rep->bound_mean = bound.n ? bound.sum / (double)bound.n : 0;
    rep->after_worst = after.worst;
    rep->after_mean = after.n ? after.sum / (double)after.n : 0;
    rep->after_worst_frame = after.worst_frame;
    rep->keys_in = camera->ncameras;
    rep->keys_out = cam->ncameras;
    rep->kept = cam->ncameras - rep->piece_keys;
    /* the camera section replaced; everything else as it was */
    pk_camera_key *keep = camera->cameras;
    camera->cameras = cam->cameras;
    camera->ncameras = cam->ncameras;
    camera->cap_cameras = cam->cap_cameras;
    cam->cameras = keep;
    cam->ncameras = 0;
    camera->duplicates_told = false;
    rc = 0;
    goto done;
nomem:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    free(orig);
    free(best);
    free(played);
    free(raw);
    free(e_best);
    free(e_bound);
    free(e_all);
    free(bp);
    free(newshot);
    free(rm.at);
    free(rm.d);
    free(rmw.at);
    free(rmw.d);
    pk_buf_free(&wm.all);
    pk_buf_free(&wm.sig);
    free(wm.at);
    pk_buf_free(&wmw.all);
    pk_buf_free(&wmw.sig);
    free(wmw.at);
    free(kf);
    pk_motion_free(cam);
    return rc;
}

int pk_motion_retarget_camera(pk_motion *camera, const pk_camera_options *o, pk_camera_report *rep,
                              pk_log *log)
{
    pk_camera_report own;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    if (!o || !o->from || !o->to || !o->dance_from || !o->dance_to) {
        pk_error(log, PK_E_USAGE, "the camera: needs both models and the dance for each");
        return -1;
    }
    if (!camera->ncameras) {
        pk_error(log, PK_E_USAGE, "the camera: the motion has no camera key to correct");
        return -1;
    }
    scene sc = {.o = o, .aspect = o->aspect > 0 ? o->aspect : PK_CAMERA_ASPECT};
    sc.nframes = last_frame(camera, o) + 1;
    sc.pts = calloc(sc.nframes, sizeof *sc.pts);
    if (!sc.pts) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc = eval_points(&sc, log);
    rep->points = sc.npoints;
    rep->frames = sc.nframes;
    if (!rc)
        rc = run(camera, &sc, rep, log);
    free(sc.pts);
    if (rc || rep == &own)
        pk_camera_report_free(rep);
    return rc;
}

int pki_camera_frames(const pk_motion *camera, const pk_camera_options *o, pki_cert_frame **out,
                      uint32_t *nframes, pk_log *log)
{
    *out = NULL;
    *nframes = 0;
    scene sc = {.o = o, .aspect = o->aspect > 0 ? o->aspect : PK_CAMERA_ASPECT};
    sc.nframes = last_frame(camera, o) + 1;
    sc.pts = calloc(sc.nframes, sizeof *sc.pts);
    pk_camera_key *orig = calloc(sc.nframes, sizeof *orig);
    pki_cert_frame *fr = calloc(sc.nframes, sizeof *fr);
    pk_motion *cam = NULL;
    int rc = -1;
    if (!sc.pts || !orig || !fr) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    if (eval_points(&sc, log) != 0 || !(cam = camera_only(camera, log)) ||
        sample_all(cam, sc.nframes, orig, log) != 0)
        goto done;
    for (uint32_t f = 0; f < sc.nframes; f++) {
        lc_points(&sc, f, &orig[f], &fr[f]);
    }
    *out = fr;
    *nframes = sc.nframes;
    fr = NULL;
    rc = 0;
done:
    free(sc.pts);
    free(orig);
    free(fr);
    pk_motion_free(cam);
    return rc;
}
