/*
 * legs_fit.c — one leg's FK tracks fitted against the joints' world
 * positions (legs_fit.h).
 */
#include "ops/skeleton/legs_fit.h"

#include "common/grow.h"
#include "math/curve.h"
#include "math/quat.h"
#include "math/vec.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { HIP = 0, KNEE = 1, ANKLE = 2 };
/* Segments tried past the first that does not fit before a key is set. */
enum { LOOK_AHEAD = 4 };
/* Frames from a key past which the greedy search probes ahead by
 * doubling steps (fit_track). */
enum { GALLOP = 64 };
/* Bisection steps for the ends of a frame's progress interval. */
enum { EDGE_STEPS = 18 };
/* A shifted key end: bisection steps, and the share of its frame's bound
 * it may take. */
enum { SHIFT_STEPS = 10 };
#define SHIFT_SHARE 0.95
/* Planes scanned for a circled key, and again around the best. */
enum { CIRCLE_SCAN = 24 };
/* Progress samples for a place-mode frame's nearest progress. */
enum { PLACE_SCAN = 32 };
/* Frames in a row past a layer's reach that the full curve search may
 * miss before it stops. */
enum { FULL_MISSES = 1 };
/* Full curve searches at most per leg (about 10 ms each). */
enum { FULL_BUDGET = 256 };

/* Joint passes over the three tracks at most. */
enum { PRUNE_PASSES = 4 };

/* What one track's fit measures, frame by frame. */
typedef struct track_fit {
    const pki_leg_frame *fr;
    const pki_leg_tols *t;
    size_t n;
    int bone;
    double (*target)[4]; /* the local rotation wanted at each frame */
    double (*a)[3];      /* hip: d1 + knee d2 with the fitted knee */
    double (*u)[3];      /* hip: the ankle less the hip, parent's frame */
    double (*k)[3];      /* hip: the knee less the hip, parent's frame */
    double *p, *extra;   /* scratch: n each */
    double (*tn)[2][3];  /* the input's toe less the ankle toe_lag of a
                            frame before and after each frame, in that
                            frame's foot frame (NULL: toe_lag 0) */
    pki_curve_cache *cache;
    double (*val[3])[4];   /* the joint check: each track's fitted value at
                              every frame (NULL: the bone's own check) */
    bool optimal;          /* fit_track_optimal instead of the greedy search */
    bool stretch;          /* the greedy search: a knee key's value also
                              moved along its arc within its bound */
    bool full;             /* fit_track_optimal: past the farthest frame a
                              layer reaches, curves searched in full */
    bool curve_full;       /* segment_fits: PKI_FIT_FULL where FAST fails */
    size_t full_left;      /* ... this many times more at most */
    const double (*hv)[4]; /* place mode, the knee: the fitted hip */
    bool place;            /* hip and knee: only where the bone's far end is
                              (hip: the knee at k; knee: the ankle, the shin
                              wanted in the hip's frame at a) */
} track_fit;

static void normalize4(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 1e-300)) {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

/* q as a VMD stores it: float, then normalised in double. */
static void as_key(const double q[4], float f[4], double out[4])
{
    for (int i = 0; i < 4; i++) {
        f[i] = (float)q[i];
        out[i] = f[i];
    }
    normalize4(out);
}

/* The arc MMD slerps along from a to b (b on a's side). */
typedef struct arc {
    double a[4], b[4], th, inv_sin;
} arc;

static void arc_set(arc *s, const double a[4], const double b[4])
{
    memcpy(s->a, a, sizeof s->a);
    memcpy(s->b, b, sizeof s->b);
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (d < 0.0) {
        d = -d;
        for (int i = 0; i < 4; i++)
            s->b[i] = -s->b[i];
    }
    s->th = d > 0.9999995 ? 0.0 : pki_acos(d);
    s->inv_sin = s->th > 0.0 ? 1.0 / pki_sin(s->th) : 0.0;
}

static void arc_at(const arc *s, double u, double o[4])
{
    double wa = 1.0 - u, wb = u;
    if (s->th > 0.0) {
        wa = pki_sin((1.0 - u) * s->th) * s->inv_sin;
        wb = pki_sin(u * s->th) * s->inv_sin;
    }
    for (int i = 0; i < 4; i++)
        o[i] = wa * s->a[i] + wb * s->b[i];
    normalize4(o);
}

/* The progress along the arc nearest q (clamped to [0, 1]). */
static double arc_nearest(const arc *s, const double q[4])
{
    if (s->th <= 0.0) {
        /* MMD lerps such close ends: the nearest point of the chord */
        double num = 0.0, den = 0.0, sg = 0.0;
        for (int i = 0; i < 4; i++)
            sg += q[i] * s->a[i];
        sg = sg < 0.0 ? -1.0 : 1.0;
        for (int i = 0; i < 4; i++) {
            double e = s->b[i] - s->a[i];
            num += (sg * q[i] - s->a[i]) * e;
            den += e * e;
        }
        double u = den > 0.0 ? num / den : 0.0;
        return u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    }
    /* q in the arc's plane: angle from a toward b */
    double x = 0.0, y = 0.0, e[4], en = 0.0;
    double d = 0.0;
    for (int i = 0; i < 4; i++)
        d += s->a[i] * s->b[i];
    for (int i = 0; i < 4; i++) {
        e[i] = s->b[i] - d * s->a[i];
        en += e[i] * e[i];
    }
    en = sqrt(en);
    for (int i = 0; i < 4; i++) {
        x += q[i] * s->a[i];
        y += q[i] * e[i] / en;
    }
    if (x < 0.0) {
        x = -x;
        y = -y;
    }
    double u = pki_atan2(y, x) / s->th;
    return u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
}

/* The twist of unit q about axis v, in degrees (0 .. 180). */
static double twist_deg(const double q[4], const double v[3])
{
    double n = pki_v3_len(v);
    if (!(n > 1e-12))
        return 0.0;
    double p = (q[0] * v[0] + q[1] * v[1] + q[2] * v[2]) / n;
    return 2.0 * pki_atan2(fabs(p), fabs(q[3])) * (180.0 / 3.14159265358979323846);
}

static double angle_deg(const double p[4], const double q[4])
{
    double d = fabs(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]);
    return 2.0 * pki_acos(d > 1.0 ? 1.0 : d) * (180.0 / 3.14159265358979323846);
}

/* How far the thigh (bones 1) or the thigh and the shin (2) under hip
 * and knee rotations q[0], q[1] are turned about their own lengths from
 * the input's, in units of t->twist_deg. */
static double twisted(const pki_leg_frame *fr, const pki_leg_tols *t, const double *const q[3],
                      int bones)
{
    double qi[4], e[4], w[4], wi[4];
    pki_qd_conj(fr->q[HIP], qi);
    pki_qd_mul(qi, q[HIP], e);
    double d = twist_deg(e, fr->d1);
    if (bones > 1) {
        pki_qd_mul(fr->q[HIP], fr->q[KNEE], w);
        pki_qd_conj(w, wi);
        pki_qd_mul(q[HIP], q[KNEE], w);
        pki_qd_mul(wi, w, e);
        d = fmax(d, twist_deg(e, fr->d2));
    }
    return d / t->twist_deg;
}

/* The distance from toe offset y (in the input foot's frame) to the path
 * the input's, d3, runs along from tn[0..2] to tn[3..5]. */
static double toe_off(const double y[3], const double d3[3], const double *tn)
{
    double best = INFINITY;
    for (int s = 0; s < 2; s++) {
        double e[3], w[3], ee = 0.0, ew = 0.0;
        for (int i = 0; i < 3; i++) {
            e[i] = tn[3 * s + i] - d3[i];
            w[i] = y[i] - d3[i];
            ee += e[i] * e[i];
            ew += e[i] * w[i];
        }
        double u = ee > 0.0 ? ew / ee : 0.0;
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
        double d = 0.0;
        for (int i = 0; i < 3; i++)
            d += (w[i] - u * e[i]) * (w[i] - u * e[i]);
        best = fmin(best, d);
    }
    return sqrt(best);
}

/* Frame f's error with hip, knee and ankle local rotations q[0..2]
 * together, in units of its bound: the ankle and the knee where the
 * input's are (within `ankle` and `knee`), the toe where the input's is
 * from the ankle (within `toe`) and the foot's roll about it (within
 * `roll_deg`; no toe: the foot's turn).  The three fits one by one hold
 * the same at every frame. */
static double joint_err(const pki_leg_frame *fr, const pki_leg_tols *t, const double *const q[3],
                        const double *tn)
{
    double v[3], x[3], a[3], k[3], w[4];
    pki_qd_rotate(q[KNEE], fr->d2, x);
    for (int i = 0; i < 3; i++)
        v[i] = fr->d1[i] + x[i];
    pki_qd_mul(fr->parent, q[HIP], w);
    pki_qd_rotate(w, v, a);
    pki_qd_rotate(w, fr->d1, k);
    double ea = 0.0, ek = 0.0;
    for (int i = 0; i < 3; i++) {
        a[i] += fr->hip[i];
        k[i] += fr->hip[i];
        ea += (a[i] - fr->ankle[i]) * (a[i] - fr->ankle[i]);
        ek += (k[i] - fr->knee[i]) * (k[i] - fr->knee[i]);
    }
    double e = fmax(sqrt(ea) / t->ankle, sqrt(ek) / t->knee);
    if (e <= 1.0) /* past 1 the frame fails whatever the twist */
        e = fmax(e, twisted(fr, t, q, 2));
    pki_qd_mul(w, q[KNEE], w);
    pki_qd_mul(w, q[ANKLE], w);
    if (!t->has_toe)
        return fmax(e, angle_deg(fr->foot, w) / t->roll_deg);
    double fi[4], d[4], y[3], z[3], et;
    pki_qd_conj(fr->foot, fi);
    pki_qd_mul(fi, w, d);
    if (tn) {
        pki_qd_rotate(d, fr->d3, y);
        et = toe_off(y, fr->d3, tn);
    } else {
        pki_qd_rotate(w, fr->d3, y);
        pki_qd_rotate(fr->foot, fr->d3, z);
        et = pki_v3_dist(y, z);
    }
    return fmax(e, fmax(et / t->toe, twist_deg(d, fr->d3) / t->roll_deg));
}

/* Frame f's error with local rotation r, in units of its bound (<= 1:
 * within). */
static double err_at(const track_fit *c, size_t f, const double r[4])
{
    const pki_leg_frame *fr = &c->fr[f];
    const pki_leg_tols *t = c->t;
    const double *q = c->target[f];
    double x[3], y[3];
    if (c->val[0]) {
        const double *r3[3] = {c->val[HIP][f], c->val[KNEE][f], c->val[ANKLE][f]};
        r3[c->bone] = r;
        return joint_err(fr, t, r3, c->tn ? c->tn[f][0] : NULL);
    }
    if (c->place && c->bone != ANKLE) {
        pki_qd_rotate(r, c->bone == HIP ? fr->d1 : fr->d2, x);
        double e = c->bone == HIP ? pki_v3_dist(x, c->k[f]) / t->knee : pki_v3_dist(x, c->a[f]) / t->ankle;
        const double *q3[3] = {c->bone == HIP ? r : c->hv[f], r, NULL};
        return fmax(e, twisted(fr, t, q3, c->bone + 1));
    }
    if (c->bone == HIP) {
        pki_qd_rotate(r, c->a[f], x);
        pki_qd_rotate(r, fr->d1, y);
        return fmax(pki_v3_dist(x, c->u[f]) / t->ankle, pki_v3_dist(y, c->k[f]) / t->knee);
    }
    if (c->bone == KNEE) {
        double v[3], w[3];
        pki_qd_rotate(r, fr->d2, x);
        pki_qd_rotate(q, fr->d2, y);
        for (int i = 0; i < 3; i++) {
            v[i] = fr->d1[i] + x[i];
            w[i] = fr->d1[i] + y[i];
        }
        double reach = pki_v3_len(w);
        double bend = reach > 1e-9 ? pki_v3_dist(x, y) * pki_v3_len(fr->d1) / reach : 0.0;
        return fmax(fabs(pki_v3_len(v) - reach) / t->reach, bend / t->bend);
    }
    double qi[4], e[4];
    pki_qd_conj(q, qi);
    pki_qd_mul(qi, r, e);
    if (!t->has_toe)
        return angle_deg(q, r) / t->roll_deg;
    double et;
    if (c->tn) { /* in the input foot's frame */
        pki_qd_rotate(e, fr->d3, x);
        et = toe_off(x, fr->d3, c->tn[f][0]);
    } else {
        pki_qd_rotate(r, fr->d3, x);
        pki_qd_rotate(q, fr->d3, y);
        et = pki_v3_dist(x, y);
    }
    return fmax(et / t->toe, twist_deg(e, fr->d3) / t->roll_deg);
}

static double err_on(const track_fit *c, size_t f, const arc *s, double u)
{
    double r[4];
    arc_at(s, u, r);
    return err_at(c, f, r);
}

/* The edge between progress `in` (frame f within) and `out` (not), by
 * EDGE_STEPS halvings: the last progress found within. */
static double edge(const track_fit *c, size_t f, const arc *s, double in, double out)
{
    for (int i = 0; i < EDGE_STEPS; i++) {
        double m = 0.5 * (in + out);
        if (err_on(c, f, s, m) <= 1.0)
            in = m;
        else
            out = m;
    }
    return in;
}

/* The progress interval around `at` (within) where frame f stays within. */
static void interval(const track_fit *c, size_t f, const arc *s, double at, double *lo, double *hi)
{
    *lo = err_on(c, f, s, 0.0) > 1.0 ? edge(c, f, s, at, 0.0) : 0.0;
    *hi = err_on(c, f, s, 1.0) > 1.0 ? edge(c, f, s, at, 1.0) : 1.0;
}

/* Place mode: a progress along s where frame f is within (the least
 * error of PLACE_SCAN samples, refined): the wanted place says where,
 * not the target's rotation.  False when none is found. */
static bool nearest_place(const track_fit *c, size_t f, const arc *s, double *at)
{
    double best = INFINITY, bu = 0.0, step = 1.0 / PLACE_SCAN;
    for (int k = 0; k <= PLACE_SCAN; k++) {
        double e = err_on(c, f, s, k * step);
        if (e < best)
            best = e, bu = k * step;
    }
    double lo = fmax(0.0, bu - step), hi = fmin(1.0, bu + step);
    for (int i = 0; i < EDGE_STEPS && best > 1.0; i++) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        double e1 = err_on(c, f, s, m1), e2 = err_on(c, f, s, m2);
        if (e1 < e2)
            hi = m2;
        else
            lo = m1;
        if (fmin(e1, e2) < best)
            best = fmin(e1, e2), bu = e1 < e2 ? m1 : m2;
    }
    *at = bu;
    return best <= 1.0;
}

/* Does one key at b (after the key at a, values ka and kb) hold frames
 * a..b?  cp gets its curve. */
static bool segment_fits(track_fit *c, size_t a, size_t b, const double ka[4], const double kb[4],
                         uint8_t cp[4])
{
    memcpy(cp, pki_curve_linear, 4);
    size_t n = b - a;
    if (n < 2)
        return true;
    if (c->t->checked)
        *c->t->checked += n - 1;
    arc s;
    arc_set(&s, ka, kb);
    bool same = memcmp(ka, kb, 4 * sizeof *ka) == 0;
    double tol = 0.0;
    /* every frame's place on the arc first (where most segments fail),
     * then their intervals */
    for (size_t i = 1; i < n; i++) {
        size_t f = a + i;
        if (same) {
            if (err_at(c, f, ka) > 1.0)
                return false;
            continue;
        }
        double at = arc_nearest(&s, c->target[f]);
        if (err_on(c, f, &s, at) > 1.0) {
            /* the nearest rotation is not the nearest place: try the
             * uniform progress too */
            at = (double)i / (double)n;
            if (err_on(c, f, &s, at) > 1.0 && !(c->place && nearest_place(c, f, &s, &at)))
                return false;
        }
        c->p[i - 1] = at;
    }
    for (size_t i = 1; i < n && !same; i++) {
        size_t f = a + i;
        double lo, hi, at = c->p[i - 1];
        interval(c, f, &s, at, &lo, &hi);
        c->p[i - 1] = 0.5 * (lo + hi);
        c->extra[i - 1] = 0.49 * (hi - lo); /* the half width, a margin kept */
        tol = fmax(tol, c->extra[i - 1]);
    }
    if (same)
        return true;
    if (!(tol > 0.0))
        tol = 1e-12;
    for (size_t i = 1; i < n; i++)
        c->extra[i - 1] = tol - c->extra[i - 1];
    if (pki_curve_fit_progress_ex(c->p, n, 1.0, c->extra, tol, PKI_FIT_FAST, c->cache, cp, NULL) ==
        1)
        return true;
    if (!c->curve_full || c->full_left == 0)
        return false;
    c->full_left--;
    return pki_curve_fit_progress_ex(c->p, n, 1.0, c->extra, tol, PKI_FIT_FULL, c->cache, cp,
                                     NULL) == 1;
}

static bool push(pki_leg_track *t, uint32_t f, const float rot[4], const uint8_t cp[4])
{
    pki_leg_key *k = pki_grow_push(&t->keys, &t->n, &t->cap, sizeof *k);
    if (!k)
        return false;
    k->frame = f;
    memcpy(k->rot, rot, sizeof k->rot);
    memcpy(k->cp, cp, 4);
    return true;
}

/* kb turned toward the frame of a..b furthest from the arc ka..kb, so
 * that the arc passes nearer it, as far as frame b's own error stays
 * within SHIFT_SHARE of its bound; false when that gives nothing. */
static bool shifted(const track_fit *c, size_t a, size_t b, const double ka[4], const double kb[4],
                    float kf[4], double out[4])
{
    arc s;
    arc_set(&s, ka, kb);
    double far = 0.0, ax[3] = {0.0, 0.0, 0.0}, uf = 0.5;
    for (size_t f = a + 1; f < b; f++) {
        double u = arc_nearest(&s, c->target[f]), q[4], qi[4], d[4];
        arc_at(&s, u, q);
        pki_qd_conj(q, qi);
        pki_qd_mul(c->target[f], qi, d);
        double sg = d[3] < 0.0 ? -1.0 : 1.0, n = pki_v3_len(d);
        if (n > far) {
            far = n;
            uf = u;
            for (int i = 0; i < 3; i++)
                ax[i] = sg * d[i] / n;
        }
    }
    if (!(far > 1e-12))
        return false;
    /* the arc's point at progress u moves about u times the end's turn */
    double top = 2.0 * pki_asin(far > 1.0 ? 1.0 : far) / fmax(uf, 0.25), lo = 0.0, hi = top;
    for (int i = 0; i < SHIFT_STEPS; i++) {
        double th = i == 0 ? top : 0.5 * (lo + hi), r[4], q[4];
        double sn = pki_sin(0.5 * th);
        r[0] = ax[0] * sn, r[1] = ax[1] * sn, r[2] = ax[2] * sn, r[3] = pki_cos(0.5 * th);
        pki_qd_mul(r, kb, q);
        normalize4(q);
        if (err_at(c, b, q) <= SHIFT_SHARE) {
            lo = th;
            if (i == 0)
                break;
        } else {
            hi = th;
        }
    }
    if (!(lo > 0.0))
        return false;
    double r[4], q[4], sn = pki_sin(0.5 * lo);
    r[0] = ax[0] * sn, r[1] = ax[1] * sn, r[2] = ax[2] * sn, r[3] = pki_cos(0.5 * lo);
    pki_qd_mul(r, kb, q);
    normalize4(q);
    as_key(q, kf, out);
    return err_at(c, b, out) <= 1.0;
}

/* kb moved along the arc from ka past it (s > 0) or short of it (s < 0)
 * as far as frame b's own error stays within SHIFT_SHARE of its bound:
 * the segment's end anywhere within b's bound, not only at the target;
 * false when that gives nothing. */
static bool stretched(const track_fit *c, size_t b, const double ka[4], const double kb[4],
                      double sgn, float kf[4], double out[4])
{
    arc s;
    arc_set(&s, ka, kb);
    if (!(s.th > 1e-9))
        return false;
    double lo = 0.0, hi = 0.5, q[4];
    arc_at(&s, 1.0 + sgn * hi, q);
    if (err_at(c, b, q) <= SHIFT_SHARE)
        lo = hi;
    for (int i = 0; i < SHIFT_STEPS && lo < hi; i++) {
        double m = 0.5 * (lo + hi);
        arc_at(&s, 1.0 + sgn * m, q);
        if (err_at(c, b, q) <= SHIFT_SHARE)
            lo = m;
        else
            hi = m;
    }
    if (!(lo > 0.0))
        return false;
    arc_at(&s, 1.0 + sgn * lo, q);
    as_key(q, kf, out);
    return err_at(c, b, out) <= 1.0;
}

/* Where frame f wants the far end of bone c->bone (place mode), as a
 * unit vector, and the bone's vector d. */
static void place_want(const track_fit *c, size_t f, double y[3], const double **d)
{
    const double *v = c->bone == HIP ? c->k[f] : c->a[f];
    double n = pki_v3_len(v);
    for (int i = 0; i < 3; i++)
        y[i] = n > 1e-12 ? v[i] / n : 0.0;
    *d = c->bone == HIP ? c->fr[f].d1 : c->fr[f].d2;
}

/* Place mode: kb such that the arc from ka carries the bone's far end
 * along the circle through ka's place and frame b's wanted place that
 * passes nearest the wanted places between (the plane through the two
 * ends with the least largest distance to them): the bone turned about
 * its own length where its place allows it, which the bones below
 * undo.  False when that gives nothing. */
static bool circled(const track_fit *c, size_t a, size_t b, const double ka[4], float kf[4],
                    double out[4])
{
    if (!c->place || c->bone == ANKLE || b < a + 2)
        return false;
    const double *d;
    double ua[3], ub[3], w[3], y[3];
    place_want(c, b, ub, &d);
    place_want(c, a, y, &d);
    pki_qd_rotate(ka, d, ua);
    double na = pki_v3_len(ua);
    if (!(na > 1e-12))
        return false;
    for (int i = 0; i < 3; i++) {
        ua[i] /= na;
        w[i] = ub[i] - ua[i];
    }
    double nw = pki_v3_len(w);
    if (!(nw > 1e-9))
        return false;
    /* e1, e2: orthonormal, both across the chord w */
    double e1[3], e2[3], h[3] = {1.0, 0.0, 0.0};
    for (int i = 0; i < 3; i++)
        w[i] /= nw;
    if (fabs(w[0]) > 0.9)
        h[0] = 0.0, h[1] = 1.0;
    double hw = h[0] * w[0] + h[1] * w[1] + h[2] * w[2];
    for (int i = 0; i < 3; i++)
        e1[i] = h[i] - hw * w[i];
    double n1 = pki_v3_len(e1);
    for (int i = 0; i < 3; i++)
        e1[i] /= n1;
    e2[0] = w[1] * e1[2] - w[2] * e1[1];
    e2[1] = w[2] * e1[0] - w[0] * e1[2];
    e2[2] = w[0] * e1[1] - w[1] * e1[0];
    /* the plane's normal cos(p) e1 + sin(p) e2: scanned, then refined */
    double best = INFINITY, bp = 0.0, step = 3.14159265358979323846 / CIRCLE_SCAN;
    for (int round = 0; round < 3; round++) {
        double from = round == 0 ? 0.0 : bp - step, to = round == 0 ? CIRCLE_SCAN : 2 * CIRCLE_SCAN;
        double st = round == 0 ? step : step / CIRCLE_SCAN;
        for (int k = 0; k < (int)to; k++) {
            double p = from + k * st, cp = pki_cos(p), sp = pki_sin(p), worst = 0.0;
            for (size_t f = a + 1; f < b && worst < best; f++) {
                place_want(c, f, y, &d);
                double r = 0.0;
                for (int i = 0; i < 3; i++)
                    r += (cp * e1[i] + sp * e2[i]) * (y[i] - ua[i]);
                worst = fmax(worst, fabs(r));
            }
            if (worst < best) {
                best = worst;
                bp = p;
            }
        }
        step = st;
    }
    double nv[3];
    for (int i = 0; i < 3; i++)
        nv[i] = pki_cos(bp) * e1[i] + pki_sin(bp) * e2[i];
    /* the turn about nv carrying ua onto ub */
    double pa[3], pb[3], ca = 0.0, cb = 0.0;
    for (int i = 0; i < 3; i++) {
        ca += nv[i] * ua[i];
        cb += nv[i] * ub[i];
    }
    for (int i = 0; i < 3; i++) {
        pa[i] = ua[i] - ca * nv[i];
        pb[i] = ub[i] - cb * nv[i];
    }
    double x[3] = {pa[1] * pb[2] - pa[2] * pb[1], pa[2] * pb[0] - pa[0] * pb[2],
                   pa[0] * pb[1] - pa[1] * pb[0]};
    double th = pki_atan2(nv[0] * x[0] + nv[1] * x[1] + nv[2] * x[2],
                          pa[0] * pb[0] + pa[1] * pb[1] + pa[2] * pb[2]);
    double sn = pki_sin(0.5 * th), r[4] = {nv[0] * sn, nv[1] * sn, nv[2] * sn, pki_cos(0.5 * th)};
    double q[4];
    pki_qd_mul(r, ka, q);
    normalize4(q);
    as_key(q, kf, out);
    return err_at(c, b, out) <= 1.0;
}

static bool fit_track_optimal(track_fit *c, pki_leg_track *out);

/* One segment of the fewest-keys search: from the key at a (value ka)
 * to frame b, its end value the target, or circled, or shifted; true
 * with kf, kb and cp set when one holds every frame between. */
static bool optimal_step(track_fit *c, size_t a, size_t b, const double ka[4], float kf[4],
                         double kb[4], uint8_t cp[4])
{
    float sf[4];
    double t[4], sd[4];
    uint8_t scp[4];
    as_key(c->target[b], sf, t);
    bool fits = segment_fits(c, a, b, ka, t, scp);
    if (!fits && circled(c, a, b, ka, sf, sd)) {
        memcpy(t, sd, sizeof t);
        fits = segment_fits(c, a, b, ka, t, scp);
        if (!fits)
            as_key(c->target[b], sf, t);
    }
    if (!fits && shifted(c, a, b, ka, t, sf, sd)) {
        memcpy(t, sd, sizeof t);
        fits = segment_fits(c, a, b, ka, t, scp);
    }
    if (fits) {
        memcpy(kf, sf, sizeof sf);
        memcpy(kb, t, sizeof t);
        memcpy(cp, scp, 4);
    }
    return fits;
}

/* One probe of the greedy search: does a key at b after the key at a
 * (value ka) hold frames a..b, its value the target or, where that does
 * not hold, the target shifted toward the frames between (the knee with
 * c->stretch: also past the target or short of it)?  kf, kb and cp get
 * the key when true. */
static bool greedy_step(track_fit *c, size_t a, size_t b, const double ka[4], float kf[4],
                        double kb[4], uint8_t cp[4])
{
    double ks[4];
    as_key(c->target[b], kf, kb);
    bool fits = segment_fits(c, a, b, ka, kb, cp);
    if (!fits && shifted(c, a, b, ka, kb, kf, ks)) {
        memcpy(kb, ks, sizeof ks);
        fits = segment_fits(c, a, b, ka, kb, cp);
    }
    /* the knee: its end past the target or short of it */
    for (int k = 0; k < 2 && c->stretch && c->bone == KNEE && !fits; k++) {
        double t0[4];
        as_key(c->target[b], kf, t0);
        if (stretched(c, b, ka, t0, k ? -1.0 : 1.0, kf, ks)) {
            memcpy(kb, ks, sizeof ks);
            fits = segment_fits(c, a, b, ka, kb, cp);
        }
    }
    return fits;
}

/* The farthest key end a greedy search has found that holds. */
typedef struct greedy_end {
    size_t b;
    uint8_t cp[4];
    float kf[4];
    double kb[4];
} greedy_end;

/* greedy_step, *best set when the end at b holds. */
static bool greedy_try(track_fit *c, size_t a, size_t b, const double ka[4], greedy_end *best)
{
    greedy_end e = {.b = b};
    if (!greedy_step(c, a, b, ka, e.kf, e.kb, e.cp))
        return false;
    *best = e;
    return true;
}

/* The greedy search: from each key, the farthest end (LOOK_AHEAD misses
 * allowed) one curve holds, the end's value the target or, where that
 * does not hold, the target shifted toward the frames between.  Past
 * GALLOP frames from the key, while the ends hold, the end is probed
 * ahead by doubling steps and the first miss met halved back to the
 * last end that holds, from which the search goes on frame by frame:
 * a segment of L frames costs O(L log L) frame checks instead of O(L^2)
 * (the same ends unless a run of more than LOOK_AHEAD misses lies
 * between two probes that hold). */
static bool fit_track(track_fit *c, pki_leg_track *out)
{
    if (c->optimal)
        return fit_track_optimal(c, out);
    float kf[4];
    double ka[4];
    as_key(c->target[0], kf, ka);
    if (!push(out, 0, kf, pki_curve_linear))
        return false;
    size_t a = 0, n = c->n;
    while (a + 1 < n) {
        greedy_end best = {.b = a + 1};
        memcpy(best.cp, pki_curve_linear, 4);
        as_key(c->target[best.b], best.kf, best.kb);
        for (size_t b = a + 2, miss = 0; b < n && miss <= LOOK_AHEAD;) {
            if (!greedy_try(c, a, b, ka, &best)) {
                miss++;
                b++;
                continue;
            }
            miss = 0;
            if (b - a < GALLOP || b + 1 >= n) {
                b++;
                continue;
            }
            /* a long run: ahead by doubling steps, then back by halves */
            size_t lo = b, hi = n;
            for (size_t step = 2; hi == n && lo + 1 < n; step *= 2) {
                size_t p = lo + step < n - 1 ? lo + step : n - 1;
                if (greedy_try(c, a, p, ka, &best))
                    lo = p;
                else
                    hi = p;
            }
            while (hi < n && hi - lo > 1) {
                size_t m = lo + (hi - lo) / 2;
                if (greedy_try(c, a, m, ka, &best))
                    lo = m;
                else
                    hi = m;
            }
            /* on frame by frame past the first miss (hi) */
            b = lo + 2;
            miss = 1;
        }
        memcpy(ka, best.kb, sizeof ka);
        if (!push(out, (uint32_t)best.b, best.kf, best.cp))
            return false;
        a = best.b;
    }
    /* a track one value holds throughout: one key */
    if (out->n == 2) {
        bool still = true;
        as_key(c->target[0], kf, ka);
        for (size_t f = 0; f < c->n && still; f++)
            still = err_at(c, f, ka) <= 1.0;
        if (still)
            out->n = 1;
    }
    return true;
}

/* The fewest keys whose every segment holds the frames it spans: a
 * shortest path over the key frames, O(n^2) segments (small n only).  A
 * key's value is its frame's target or, where the segment from the best
 * path's last key does not hold it, the target turned as fit_track's. */
static bool fit_track_optimal(track_fit *c, pki_leg_track *out)
{
    size_t n = c->n;
    size_t *cost = calloc(n, sizeof *cost), *from = calloc(n, sizeof *from);
    uint8_t(*cps)[4] = calloc(n, sizeof *cps);
    float(*kf)[4] = calloc(n, sizeof *kf);
    double(*kd)[4] = calloc(n, sizeof *kd);
    bool ok = cost && from && cps && kf && kd;
    for (size_t f = 0; ok && f < n; f++) {
        as_key(c->target[f], kf[f], kd[f]);
        cost[f] = f == 0 ? 1 : SIZE_MAX;
    }
    /* layer by layer: the frames one key more reaches, from each frame
     * the layer reached (the first such frame kept: the same path as a
     * relaxation in frame order); then, with a full curve search, past
     * the farthest of them while a frame is reached */
    for (size_t k = 1; ok && cost[n - 1] == SIZE_MAX; k++) {
        bool any = false;
        size_t reach = 0;
        for (size_t a = 0; a + 1 < n; a++) {
            if (cost[a] != k)
                continue;
            any = true;
            for (size_t b = a + 1; b < n; b++)
                if (cost[b] > k + 1 && optimal_step(c, a, b, kd[a], kf[b], kd[b], cps[b])) {
                    cost[b] = k + 1;
                    from[b] = a;
                }
        }
        if (!any)
            break;
        for (size_t b = 0; b < n; b++)
            if (cost[b] == k + 1)
                reach = b;
        if (!c->full)
            continue;
        c->curve_full = true;
        for (size_t b = reach + 1, miss = 0; b < n && miss <= FULL_MISSES; b++) {
            bool found = false;
            for (size_t a = b; a-- > 0 && !found;)
                if (cost[a] == k && optimal_step(c, a, b, kd[a], kf[b], kd[b], cps[b])) {
                    cost[b] = k + 1;
                    from[b] = a;
                    found = true;
                }
            miss = found ? 0 : miss + 1;
        }
        c->curve_full = false;
    }
    ok = ok && cost[n - 1] != SIZE_MAX;
    if (ok) {
        size_t nk = cost[n - 1], f = n - 1;
        out->keys = calloc(nk, sizeof *out->keys);
        ok = out->keys != NULL;
        out->n = out->cap = ok ? nk : 0;
        for (size_t i = nk; ok && i-- > 0; f = from[f]) {
            out->keys[i].frame = (uint32_t)f;
            memcpy(out->keys[i].rot, kf[f], sizeof kf[f]);
            memcpy(out->keys[i].cp, f ? cps[f] : pki_curve_linear, 4);
        }
    }
    free(cost);
    free(from);
    free(cps);
    free(kf);
    free(kd);
    return ok;
}

/* The fitted track's value at frames f0..f1 - 1 (as MMD samples it). */
static void sample_span(const pki_leg_track *t, size_t f0, size_t f1, double (*o)[4])
{
    size_t k = 0, hi = t->n;
    while (k + 1 < hi) { /* the last key at or before f0 */
        size_t m = (k + hi) / 2;
        if (t->keys[m].frame <= f0)
            k = m;
        else
            hi = m;
    }
    for (size_t f = f0; f < f1; f++) {
        while (k + 1 < t->n && t->keys[k + 1].frame <= f)
            k++;
        double a[4];
        for (int i = 0; i < 4; i++)
            a[i] = t->keys[k].rot[i];
        normalize4(a);
        if (k + 1 >= t->n || t->keys[k].frame >= f) {
            memcpy(o[f], a, sizeof a);
            continue;
        }
        const pki_leg_key *k1 = &t->keys[k + 1];
        double b[4];
        for (int i = 0; i < 4; i++)
            b[i] = k1->rot[i];
        normalize4(b);
        arc s;
        arc_set(&s, a, b);
        double u = pki_curve_progress(k1->cp, (double)(f - t->keys[k].frame) /
                                                  (double)(k1->frame - t->keys[k].frame));
        arc_at(&s, u, o[f]);
    }
}

/* The fitted track's value at every frame. */
static void sample_track(const pki_leg_track *t, size_t n, double (*o)[4])
{
    sample_span(t, 0, n, o);
}

static void key_value(const pki_leg_key *k, double q[4])
{
    for (int i = 0; i < 4; i++)
        q[i] = k->rot[i];
    normalize4(q);
}

/* Key i (>= 1) of track c->bone removed when every frame it spans still
 * passes the joint check: the segment from key i - 1 to key i + 1 fitted
 * again (a last key: key i - 1 held to the end).  c->target is the
 * track's current value, kept up to date. */
static bool try_remove(track_fit *c, pki_leg_track *tr, size_t i)
{
    pki_leg_key *k = tr->keys;
    double ka[4], kb[4];
    key_value(&k[i - 1], ka);
    size_t a = k[i - 1].frame, b = i + 1 < tr->n ? k[i + 1].frame : c->n;
    uint8_t cp[4];
    if (i + 1 == tr->n) {
        for (size_t f = a + 1; f < c->n; f++)
            if (err_at(c, f, ka) > 1.0)
                return false;
    } else {
        key_value(&k[i + 1], kb);
        if (!segment_fits(c, a, b, ka, kb, cp))
            return false;
        memcpy(k[i + 1].cp, cp, 4);
    }
    memmove(&k[i], &k[i + 1], (tr->n - i - 1) * sizeof *k);
    tr->n--;
    sample_span(tr, a, b, c->target);
    return true;
}

/* Key 0 of track c->bone removed when key 1's value, held from frame 0,
 * passes the joint check up to key 1; a track's one key made the rest
 * rotation when that passes it at every frame (legs.c writes no key
 * then). */
static bool try_remove_first(track_fit *c, pki_leg_track *tr)
{
    double q[4];
    if (tr->n == 1) {
        static const float rest[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        if (memcmp(tr->keys[0].rot, rest, sizeof rest) == 0)
            return false;
        for (size_t f = 0; f < c->n; f++)
            if (err_at(c, f, (const double[4]){0.0, 0.0, 0.0, 1.0}) > 1.0)
                return false;
        memcpy(tr->keys[0].rot, rest, sizeof rest);
        sample_span(tr, 0, c->n, c->target);
        return true;
    }
    if (tr->n < 2)
        return false;
    key_value(&tr->keys[1], q);
    for (size_t f = 0; f < tr->keys[1].frame; f++)
        if (err_at(c, f, q) > 1.0)
            return false;
    memmove(&tr->keys[0], &tr->keys[1], (tr->n - 1) * sizeof *tr->keys);
    tr->n--;
    sample_span(tr, 0, tr->keys[0].frame, c->target);
    return true;
}

/* The joint pass: each track's keys (knees, hips, ankles), left to right,
 * removed where the three tracks together still hold every frame; again
 * while one goes. */
static void prune(track_fit *c, pki_leg_track out[3], double (*val[3])[4])
{
    for (int i = 0; i < 3; i++)
        c->val[i] = val[i];
    bool again = true;
    for (int pass = 0; again && pass < PRUNE_PASSES; pass++) {
        again = false;
        static const int order[3] = {KNEE, HIP, ANKLE};
        for (int j = 0; j < 3; j++) {
            c->bone = order[j];
            c->target = val[c->bone];
            if (try_remove_first(c, &out[c->bone]))
                again = true;
            for (size_t i = 1; i < out[c->bone].n;)
                if (try_remove(c, &out[c->bone], i))
                    again = true;
                else
                    i++;
        }
    }
    for (int i = 0; i < 3; i++)
        c->val[i] = NULL;
}

/* The rotation turning unit-length direction of v onto that of w, times q. */
static void aim(const double v[3], const double w[3], const double q[4], double o[4])
{
    double nv = pki_v3_len(v), nw = pki_v3_len(w);
    double r[4] = {0.0, 0.0, 0.0, 1.0};
    if (nv > 1e-12 && nw > 1e-12) {
        double x[3] = {v[0] / nv, v[1] / nv, v[2] / nv}, y[3] = {w[0] / nw, w[1] / nw, w[2] / nw};
        double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        if (d > -0.999999) {
            r[0] = x[1] * y[2] - x[2] * y[1];
            r[1] = x[2] * y[0] - x[0] * y[2];
            r[2] = x[0] * y[1] - x[1] * y[0];
            r[3] = 1.0 + d;
            normalize4(r);
        }
    }
    pki_qd_mul(r, q, o);
    normalize4(o);
}

/* Sign-continuous targets (each on the previous one's side). */
static void continuous(double (*q)[4], size_t n)
{
    for (size_t f = 1; f < n; f++) {
        double d = 0.0;
        for (int i = 0; i < 4; i++)
            d += q[f - 1][i] * q[f][i];
        if (d < 0.0)
            for (int i = 0; i < 4; i++)
                q[f][i] = -q[f][i];
    }
}

/* The hip's target at frame f with knee value kq: the input's hip turned
 * so that kq's ankle lands on the input's (c->a[f] set for err_at). */
static void hip_target(track_fit *c, size_t f, const double kq[4], double o[4])
{
    const pki_leg_frame *fr = &c->fr[f];
    double x[3];
    pki_qd_rotate(kq, fr->d2, x);
    for (int i = 0; i < 3; i++)
        c->a[f][i] = fr->d1[i] + x[i];
    pki_qd_rotate(fr->q[HIP], c->a[f], x);
    aim(x, c->u[f], fr->q[HIP], o);
}

/* The ankle's target at frame f under hip and knee values hq, kq: the
 * input's foot. */
static void ankle_target(const pki_leg_frame *fr, const double hq[4], const double kq[4],
                         double o[4])
{
    double w[4], wi[4];
    pki_qd_mul(fr->parent, hq, w);
    pki_qd_mul(w, kq, w);
    pki_qd_conj(w, wi);
    pki_qd_mul(wi, fr->foot, o);
    normalize4(o);
}

/* The segment from ka at frame a to kb at frame b with curve cp, sampled
 * at frames a..b. */
static void sample_segment(const double ka[4], const double kb[4], const uint8_t cp[4], size_t a,
                           size_t b, double (*o)[4])
{
    arc s;
    arc_set(&s, ka, kb);
    for (size_t f = a; f <= b; f++)
        arc_at(&s, f == a ? 0.0 : pki_curve_progress(cp, (double)(f - a) / (double)(b - a)), o[f]);
}

/* The ankle under the fitted hip and knee (val), turned as the input's
 * foot: fitted, and its values into val[ANKLE]. */
static bool fit_ankle(track_fit *c, pki_leg_track out[3], double (*val[3])[4])
{
    const pki_leg_frame *fr = c->fr;
    size_t n = c->n;
    c->bone = ANKLE;
    for (size_t f = 0; f < n; f++)
        ankle_target(&fr[f], val[HIP][f], val[KNEE][f], c->target[f]);
    continuous(c->target, n);
    if (!fit_track(c, &out[ANKLE]))
        return false;
    sample_track(&out[ANKLE], n, val[ANKLE]);
    return true;
}

/* Fits one track per leg bone over frames 0..n-1, one after another: the
 * knee alone, the hip with that knee, the ankle under both (each within
 * its own share of the bounds); val gets their values. */
static bool fit_one_by_one(track_fit *c, pki_leg_track out[3], double (*val[3])[4])
{
    const pki_leg_frame *fr = c->fr;
    size_t n = c->n;
    /* the knee, alone */
    c->bone = KNEE;
    for (size_t f = 0; f < n; f++)
        memcpy(c->target[f], fr[f].q[KNEE], sizeof c->target[f]);
    continuous(c->target, n);
    bool stretch = c->stretch;
    c->stretch = false;
    if (!fit_track(c, &out[KNEE]))
        return false;
    if (stretch) { /* the knee's keys moved along their arcs too: the fewer */
        pki_leg_track one = {0};
        c->stretch = true;
        bool ok = fit_track(c, &one);
        c->stretch = false;
        if (ok && one.n < out[KNEE].n) {
            free(out[KNEE].keys);
            out[KNEE] = one;
        } else {
            free(one.keys);
        }
        if (!ok)
            return false;
    }
    /* the hip with that knee, aimed so its ankle lands on the input's */
    sample_track(&out[KNEE], n, val[KNEE]);
    c->bone = HIP;
    for (size_t f = 0; f < n; f++)
        hip_target(c, f, val[KNEE][f], c->target[f]);
    continuous(c->target, n);
    if (!fit_track(c, &out[HIP]))
        return false;
    /* the ankle under the fitted hip and knee, turned as the input's foot */
    sample_track(&out[HIP], n, val[HIP]);
    return fit_ankle(c, out, val);
}

static void knee_target(const pki_leg_frame *fr, const double hq[4], double o[4]);

/* Fits the three tracks one after another from the hip down, each
 * holding only where its far end is: the hip the knee, the knee (under
 * the fitted hip) the ankle, then the ankle under both; a bone may turn
 * about its own length (circled keys) where the one below undoes it. */
static bool fit_hip_first(track_fit *c, pki_leg_track out[3], double (*val[3])[4])
{
    const pki_leg_frame *fr = c->fr;
    size_t n = c->n;
    bool ok = true;
    c->place = true;
    c->bone = HIP;
    for (size_t f = 0; f < n; f++)
        memcpy(c->target[f], fr[f].q[HIP], sizeof c->target[f]);
    continuous(c->target, n);
    ok = fit_track(c, &out[HIP]);
    if (ok) {
        sample_track(&out[HIP], n, val[HIP]);
        c->bone = KNEE;
        c->hv = (const double(*)[4])val[HIP];
        for (size_t f = 0; f < n; f++) {
            double w[4], wi[4], dd[3];
            pki_qd_mul(fr[f].parent, val[HIP][f], w);
            pki_qd_conj(w, wi);
            for (int i = 0; i < 3; i++)
                dd[i] = fr[f].ankle[i] - fr[f].hip[i];
            pki_qd_rotate(wi, dd, c->a[f]);
            for (int i = 0; i < 3; i++)
                c->a[f][i] -= fr[f].d1[i];
            knee_target(&fr[f], val[HIP][f], c->target[f]);
        }
        continuous(c->target, n);
        ok = fit_track(c, &out[KNEE]);
    }
    c->place = false;
    if (!ok)
        return false;
    sample_track(&out[KNEE], n, val[KNEE]);
    return fit_ankle(c, out, val);
}

/* Do the three tracks' segments from keys key[] at frame a to the input's
 * rotations at frame b hold frames a..b (the knee the reach within the
 * ankle's bound, then the hip and the ankle as fit_one_by_one's)?  cp
 * gets their curves, val their values at a..b. */
static bool together_fits(track_fit *c, size_t a, size_t b, double key[3][4], double (*val[3])[4],
                          double (*tgt[3])[4], uint8_t cp[3][4])
{
    const pki_leg_frame *fr = c->fr;
    double kb[3][4];
    float kf[4];
    for (int j = 0; j < 3; j++)
        as_key(fr[b].q[j], kf, kb[j]);
    c->bone = KNEE;
    c->target = tgt[KNEE];
    if (!segment_fits(c, a, b, key[KNEE], kb[KNEE], cp[KNEE]))
        return false;
    sample_segment(key[KNEE], kb[KNEE], cp[KNEE], a, b, val[KNEE]);
    for (size_t f = a; f <= b; f++)
        hip_target(c, f, val[KNEE][f], tgt[HIP][f]);
    c->bone = HIP;
    c->target = tgt[HIP];
    if (!segment_fits(c, a, b, key[HIP], kb[HIP], cp[HIP]))
        return false;
    sample_segment(key[HIP], kb[HIP], cp[HIP], a, b, val[HIP]);
    for (size_t f = a; f <= b; f++)
        ankle_target(&fr[f], val[HIP][f], val[KNEE][f], tgt[ANKLE][f]);
    c->bone = ANKLE;
    c->target = tgt[ANKLE];
    if (!segment_fits(c, a, b, key[ANKLE], kb[ANKLE], cp[ANKLE]))
        return false;
    sample_segment(key[ANKLE], kb[ANKLE], cp[ANKLE], a, b, val[ANKLE]);
    return true;
}

/* Fits the three tracks with keys on the same frames (the input's
 * rotations there): from each key frame the farthest (LOOK_AHEAD misses
 * allowed) all three segments hold; val gets their values. */
static bool fit_together(track_fit *c, pki_leg_track out[3], double (*val[3])[4],
                         double (*tgt[3])[4])
{
    const pki_leg_frame *fr = c->fr;
    size_t n = c->n;
    double key[3][4];
    float kf[4];
    for (size_t f = 0; f < n; f++)
        memcpy(tgt[KNEE][f], fr[f].q[KNEE], sizeof tgt[KNEE][f]);
    for (int j = 0; j < 3; j++) {
        as_key(fr[0].q[j], kf, key[j]);
        memcpy(val[j][0], key[j], sizeof key[j]);
        if (!push(&out[j], 0, kf, pki_curve_linear))
            return false;
    }
    size_t a = 0;
    while (a + 1 < n) {
        size_t best = a + 1;
        uint8_t cp[3][4];
        for (size_t b = a + 2, miss = 0; b < n && miss <= LOOK_AHEAD; b++) {
            if (together_fits(c, a, b, key, val, tgt, cp)) {
                best = b;
                miss = 0;
            } else {
                miss++;
            }
        }
        if (!together_fits(c, a, best, key, val, tgt, cp))
            return false; /* cannot be: it held before */
        for (int j = 0; j < 3; j++) {
            double kb[4], d = 0.0;
            as_key(fr[best].q[j], kf, kb);
            for (int i = 0; i < 4; i++)
                d += kb[i] * key[j][i];
            for (int i = 0; i < 4 && d < 0.0; i++) {
                kf[i] = -kf[i];
                kb[i] = -kb[i];
            }
            memcpy(key[j], kb, sizeof kb);
            if (!push(&out[j], (uint32_t)best, kf, cp[j]))
                return false;
        }
        a = best;
    }
    return true;
}

/* The knee's target at frame f under hip value hq: the input's knee
 * turned so that the shin points from the fitted hip's knee to the
 * input's ankle. */
static void knee_target(const pki_leg_frame *fr, const double hq[4], double o[4])
{
    double w[4], wi[4], d[3], x[3], y[3];
    pki_qd_mul(fr->parent, hq, w);
    pki_qd_conj(w, wi);
    for (int i = 0; i < 3; i++)
        d[i] = fr->ankle[i] - fr->hip[i];
    pki_qd_rotate(wi, d, x);
    for (int i = 0; i < 3; i++)
        x[i] -= fr->d1[i];
    pki_qd_rotate(fr->q[KNEE], fr->d2, y);
    aim(y, x, fr->q[KNEE], o);
}

/* One track's target at every frame under the other two tracks' values
 * (val): what would hold the joints with them exactly. */
static void joint_targets(track_fit *c, int bone, double (*val[3])[4], double (*o)[4])
{
    for (size_t f = 0; f < c->n; f++)
        if (bone == HIP)
            hip_target(c, f, val[KNEE][f], o[f]);
        else if (bone == KNEE)
            knee_target(&c->fr[f], val[HIP][f], o[f]);
        else
            ankle_target(&c->fr[f], val[HIP][f], val[KNEE][f], o[f]);
    continuous(o, c->n);
}

/* Whether every frame passes the joint check with the tracks' values v. */
static bool joint_holds(const track_fit *c, double (*const v[3])[4])
{
    for (size_t f = 0; f < c->n; f++) {
        const double *q3[3] = {v[HIP][f], v[KNEE][f], v[ANKLE][f]};
        if (joint_err(&c->fr[f], c->t, q3, c->tn ? c->tn[f][0] : NULL) > 1.0)
            return false;
    }
    return true;
}

/* Track `bone` fitted with the fewest keys whose segments hold the joint
 * check with the other two tracks' values v (the targets they leave it),
 * into *one and its values into o; false on out of memory. */
static bool joint_fit(track_fit *c, int bone, double (*v[3])[4], double (*tgt)[4],
                      pki_leg_track *one, double (*o)[4])
{
    joint_targets(c, bone, v, tgt);
    for (int i = 0; i < 3; i++)
        c->val[i] = v[i];
    c->bone = bone;
    c->target = tgt;
    bool ok = fit_track_optimal(c, one);
    for (int i = 0; i < 3; i++)
        c->val[i] = NULL;
    if (ok)
        sample_track(one, c->n, o);
    return ok;
}

/* The joint search: each track fitted again with the fewest keys whose
 * segments hold the joint check with the other two tracks as fitted (the
 * targets those two leave it), kept where it has fewer keys and every
 * frame holds; round after round while one gains.  The segments hold the
 * frames between their keys, but a hip's or knee's keys at their own
 * frames (the targets, aimed for the ankle) may turn the foot: then the
 * ankle is fitted again under it and the two kept where together they
 * have fewer keys and every frame holds.  out's values are val; tmp: two
 * n-frame scratch arrays. */
static bool refit_joint(track_fit *c, pki_leg_track out[3], double (*val[3])[4], double (*tgt)[4],
                        double (*tmp[2])[4])
{
    bool gained = true;
    for (int j = 0; j < 3; j++)
        sample_track(&out[j], c->n, val[j]);
    for (int round = 0; gained && round < PRUNE_PASSES; round++) {
        gained = false;
        static const int order[3] = {KNEE, HIP, ANKLE};
        for (int j = 0; j < 3; j++) {
            int bone = order[j];
            pki_leg_track one = {0}, foot = {0};
            double(*v[3])[4] = {val[HIP], val[KNEE], val[ANKLE]};
            if (!joint_fit(c, bone, val, tgt, &one, tmp[0]))
                return false;
            v[bone] = tmp[0];
            bool fewer = one.n < out[bone].n, holds = fewer && joint_holds(c, v);
            if (fewer && !holds && bone != ANKLE) {
                if (!joint_fit(c, ANKLE, v, tgt, &foot, tmp[1])) {
                    free(one.keys);
                    return false;
                }
                v[ANKLE] = tmp[1];
                holds = one.n + foot.n < out[bone].n + out[ANKLE].n && joint_holds(c, v);
            }
            if (!holds) {
                free(one.keys);
                free(foot.keys);
                continue;
            }
            free(out[bone].keys);
            out[bone] = one;
            memcpy(val[bone], tmp[0], c->n * sizeof *tmp[0]);
            if (foot.keys) {
                free(out[ANKLE].keys);
                out[ANKLE] = foot;
                memcpy(val[ANKLE], tmp[1], c->n * sizeof *tmp[1]);
            }
            gained = true;
        }
    }
    return true;
}

static void tracks_free(pki_leg_track t[3])
{
    for (int i = 0; i < 3; i++) {
        free(t[i].keys);
        t[i].keys = NULL;
        t[i].n = t[i].cap = 0;
    }
}

static size_t tracks_keys(const pki_leg_track t[3])
{
    return t[0].n + t[1].n + t[2].n;
}

/* out becomes two where take and two has fewer keys; two is emptied. */
static void keep_fewer(pki_leg_track out[3], pki_leg_track two[3], bool take)
{
    if (take && tracks_keys(two) < tracks_keys(out)) {
        tracks_free(out);
        memcpy(out, two, 3 * sizeof *two);
        memset(two, 0, 3 * sizeof *two);
    }
    tracks_free(two);
}

bool pki_leg_fit(const pki_leg_frame *fr, size_t n, const pki_leg_tols *t, pki_leg_track out[3])
{
    memset(out, 0, 3 * sizeof *out);
    pki_leg_track two[3];
    memset(two, 0, sizeof two);
    /* fitted together, the knee holds the reach within the ankle's bound
     * and the knee's place is the hip's to hold */
    pki_leg_tols tt = *t;
    tt.reach = t->ankle;
    tt.bend = INFINITY;
    track_fit c;
    memset(&c, 0, sizeof c);
    c.fr = fr;
    c.t = t;
    c.n = n;
    c.target = calloc(n, sizeof *c.target);
    double(*val[2][3])[4], (*tgt[3])[4];
    bool ok = c.target != NULL;
    for (int j = 0; j < 3; j++) {
        val[0][j] = calloc(n, sizeof *val[0][j]);
        val[1][j] = calloc(n, sizeof *val[1][j]);
        tgt[j] = calloc(n, sizeof *tgt[j]);
        ok = ok && val[0][j] && val[1][j] && tgt[j];
    }
    c.a = calloc(n, sizeof *c.a);
    c.u = calloc(n, sizeof *c.u);
    c.k = calloc(n, sizeof *c.k);
    c.p = calloc(n + 1, sizeof *c.p);
    c.extra = calloc(n + 1, sizeof *c.extra);
    c.cache = pki_curve_cache_new();
    ok = ok && c.a && c.u && c.k && c.p && c.extra && c.cache;
    if (ok && t->has_toe && t->toe_lag > 0.0 && n > PKI_LEG_OPTIMAL_MAX) {
        c.tn = calloc(n, sizeof *c.tn);
        ok = c.tn != NULL;
    }
    /* the toe offsets toe_lag of a frame either side, in each frame's
     * foot frame (the chord between the frames' offsets) */
    for (size_t f = 0; ok && c.tn && f < n; f++)
        for (int s = 0; s < 2; s++) {
            size_t g = s == 0 ? (f > 0 ? f - 1 : f) : (f + 1 < n ? f + 1 : f);
            double fi[4], d[4], z[3];
            pki_qd_conj(fr[f].foot, fi);
            pki_qd_mul(fi, fr[g].foot, d);
            pki_qd_rotate(d, fr[g].d3, z);
            for (int i = 0; i < 3; i++)
                c.tn[f][s][i] = fr[f].d3[i] + t->toe_lag * (z[i] - fr[f].d3[i]);
        }
    /* the ankle and the knee less the hip, in the hip's parent's frame */
    for (size_t f = 0; ok && f < n; f++) {
        double pi[4], d[3];
        pki_qd_conj(fr[f].parent, pi);
        for (int i = 0; i < 3; i++)
            d[i] = fr[f].ankle[i] - fr[f].hip[i];
        pki_qd_rotate(pi, d, c.u[f]);
        for (int i = 0; i < 3; i++)
            d[i] = fr[f].knee[i] - fr[f].hip[i];
        pki_qd_rotate(pi, d, c.k[f]);
    }
    /* one by one, then the keys the three together do not need dropped */
    double(*target)[4] = c.target;
    c.stretch = n > PKI_LEG_OPTIMAL_MAX;
    if (ok && (ok = fit_one_by_one(&c, out, val[0])))
        prune(&c, out, val[0]);
    c.stretch = false;
    /* on shared key frames, likewise */
    c.t = &tt;
    /* (past PKI_LEG_OPTIMAL_MAX frames, one by one again with the knee's
     * keys moved along their arcs instead: on every corpus motion that
     * long, the shared frames wrote 5-30 % more keys than one by one) */
    bool tog = n <= PKI_LEG_OPTIMAL_MAX;
    if (ok && tog && (ok = fit_together(&c, two, val[1], tgt)))
        prune(&c, two, val[1]);
    keep_fewer(out, two, ok && tog);
    /* a short motion: one by one again, each track's keys the fewest */
    c.t = t;
    c.target = target;
    c.optimal = n <= PKI_LEG_OPTIMAL_MAX;
    c.full = c.optimal && t->full;
    c.full_left = FULL_BUDGET;
    if (ok && c.optimal && (ok = fit_one_by_one(&c, two, val[1])))
        prune(&c, two, val[1]);
    c.target = target;
    keep_fewer(out, two, ok && c.optimal);
    /* a short motion: from the hip down, bones turned about their length */
    c.target = target;
    if (ok && c.optimal && (ok = fit_hip_first(&c, two, val[1])))
        prune(&c, two, val[1]);
    c.target = target;
    keep_fewer(out, two, ok && c.optimal);
    /* a short motion: the three tracks searched together */
    if (ok && c.optimal &&
        (ok = refit_joint(&c, out, val[0], tgt[0], (double(*[2])[4]){val[1][0], val[1][1]})))
        prune(&c, out, val[0]);
    /* a leg the first frame's pose holds throughout: one key a bone (the
     * joint pass drops one key at a time, so it cannot find this when
     * each track alone has to move with the other two) */
    if (ok && tracks_keys(out) > 3) {
        double q0[3][4];
        float f0[3][4];
        for (int j = 0; j < 3; j++)
            as_key(fr[0].q[j], f0[j], q0[j]);
        const double *q3[3] = {q0[HIP], q0[KNEE], q0[ANKLE]};
        bool still = true;
        for (size_t f = 0; f < n && still; f++)
            still = joint_err(&fr[f], t, q3, c.tn ? c.tn[f][0] : NULL) <= 1.0;
        for (int j = 0; j < 3 && still; j++) {
            out[j].n = 1;
            out[j].keys[0].frame = 0;
            memcpy(out[j].keys[0].rot, f0[j], sizeof f0[j]);
            memcpy(out[j].keys[0].cp, pki_curve_linear, 4);
        }
    }
    c.target = target;
    free(c.target);
    for (int j = 0; j < 3; j++) {
        free(val[0][j]);
        free(val[1][j]);
        free(tgt[j]);
    }
    free(c.a);
    free(c.u);
    free(c.k);
    free(c.p);
    free(c.extra);
    free(c.tn);
    pki_curve_cache_free(c.cache);
    if (!ok)
        tracks_free(out);
    return ok;
}

/* Samples of the arc for a frame's least error (pki_leg_key_why). */
enum { WHY_SCAN = 1024 };

/* Frame f's least error on arc s (sampled, then thirds), *at its place. */
static double least_on(const track_fit *c, size_t f, const arc *s, double *at)
{
    double best = INFINITY, bu = 0.0;
    for (int q = 0; q <= WHY_SCAN; q++) {
        double e = err_on(c, f, s, q / (double)WHY_SCAN);
        if (e < best)
            best = e, bu = q / (double)WHY_SCAN;
    }
    double lo = fmax(0.0, bu - 1.0 / WHY_SCAN), hi = fmin(1.0, bu + 1.0 / WHY_SCAN);
    for (int it = 0; it < 40; it++) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (err_on(c, f, s, m1) < err_on(c, f, s, m2))
            hi = m2;
        else
            lo = m1;
    }
    double e = err_on(c, f, s, 0.5 * (lo + hi));
    if (e < best)
        best = e, bu = 0.5 * (lo + hi);
    *at = bu;
    return best;
}

/* Key i of tr removed under c's bounds (the joint check): 0 it goes, 1 a
 * frame off (*ff, *off), 2 no curve. */
static int why_removed(track_fit *c, const pki_leg_track *tr, size_t i, size_t *ff, double *off)
{
    const pki_leg_key *k = tr->keys;
    double ka[4], kb[4];
    *ff = 0;
    *off = 0.0;
    if (i == 0 || i + 1 == tr->n) { /* its neighbour's value held */
        size_t lo = i == 0 ? 0 : k[i - 1].frame;
        size_t hi = i == 0 && tr->n > 1 ? k[1].frame : c->n;
        if (tr->n == 1)
            ka[0] = ka[1] = ka[2] = 0.0, ka[3] = 1.0;
        else
            key_value(&k[i == 0 ? 1 : i - 1], ka);
        for (size_t f = lo; f < hi; f++) {
            double e = err_at(c, f, ka);
            if (e > 1.0 && e > *off)
                *off = e, *ff = f;
        }
        return *off > 1.0;
    }
    key_value(&k[i - 1], ka);
    key_value(&k[i + 1], kb);
    size_t a = k[i - 1].frame, n = k[i + 1].frame - a;
    arc s;
    arc_set(&s, ka, kb);
    double tol = 0.0;
    for (size_t j = 1; j < n; j++) {
        double at, e = least_on(c, a + j, &s, &at);
        if (e > 1.0 && e > *off)
            *off = e, *ff = a + j;
        if (e <= 1.0) {
            double lo, hi;
            interval(c, a + j, &s, at, &lo, &hi);
            c->p[j - 1] = 0.5 * (lo + hi);
            c->extra[j - 1] = 0.49 * (hi - lo);
            tol = fmax(tol, c->extra[j - 1]);
        }
    }
    if (*off > 1.0)
        return 1;
    if (n < 2)
        return 0;
    if (!(tol > 0.0))
        tol = 1e-12;
    for (size_t j = 1; j < n; j++)
        c->extra[j - 1] = tol - c->extra[j - 1];
    uint8_t cp[4];
    return pki_curve_fit_progress_ex(c->p, n, 1.0, c->extra, tol, PKI_FIT_FULL, c->cache, cp,
                                     NULL) == 1
               ? 0
               : 2;
}

bool pki_leg_key_why(const pki_leg_frame *fr, size_t n, const pki_leg_tols *t, double law,
                     const pki_leg_track tr[3], int bone, size_t i, pki_leg_why *out)
{
    memset(out, 0, sizeof *out);
    if (bone < HIP || bone > ANKLE || i >= tr[bone].n)
        return false;
    track_fit c;
    memset(&c, 0, sizeof c);
    c.fr = fr;
    c.n = n;
    c.bone = bone;
    double(*val[3])[4];
    bool ok = true;
    for (int j = 0; j < 3; j++) {
        val[j] = calloc(n, sizeof *val[j]);
        ok = ok && val[j];
    }
    c.target = calloc(n, sizeof *c.target);
    c.p = calloc(n + 1, sizeof *c.p);
    c.extra = calloc(n + 1, sizeof *c.extra);
    c.cache = pki_curve_cache_new();
    ok = ok && c.target && c.p && c.extra && c.cache;
    for (int j = 0; ok && j < 3; j++) {
        sample_track(&tr[j], n, val[j]);
        c.val[j] = val[j];
    }
    for (int lift = -1; ok && lift < 5; lift++) {
        pki_leg_tols u = *t;
        u.checked = NULL;
        if (lift == 0 || lift == 4)
            u.knee = INFINITY;
        if (lift == 1 || lift == 4)
            u.twist_deg = INFINITY;
        if (lift == 2 || lift == 4)
            u.toe = INFINITY;
        if (lift == 3 || lift == 4)
            u.roll_deg = INFINITY;
        if (lift == 4)
            u.ankle = law;
        c.t = &u;
        size_t ff;
        double off;
        int how = why_removed(&c, &tr[bone], i, &ff, &off);
        if (lift < 0) {
            out->how = how;
            out->frame = (uint32_t)ff;
            out->off = off;
        } else if (how == 0) {
            out->goes |= 1u << lift;
        }
    }
    for (int j = 0; j < 3; j++)
        free(val[j]);
    free(c.target);
    free(c.p);
    free(c.extra);
    pki_curve_cache_free(c.cache);
    return ok;
}

/* The least distance from k to d1 carried along the shortest arc of
 * rotations from a to b (unit): exact, the knee runs on a circle.  In a's
 * frame the arc turns d1 about one axis n through angle th: d1's part
 * along n stays, the rest r turns, p + cos(x) r + sin(x) (n x r) for x
 * in [0, th]; the nearest point is where cos(x) (r . k) + sin(x)
 * ((n x r) . k) is largest (a sinusoid: its peak, or an end). */
static double knee_arc_dist(const double a[4], const double b[4], const double d1[3],
                            const double k[3])
{
    double ai[4], e[4], kp[3];
    pki_qd_conj(a, ai);
    pki_qd_mul(ai, b, e);
    if (e[3] < 0.0)
        for (int i = 0; i < 4; i++)
            e[i] = -e[i];
    pki_qd_rotate(ai, k, kp);
    double sn = pki_v3_len(e);
    if (!(sn > 1e-15))
        return pki_v3_dist(d1, kp);
    double nv[3] = {e[0] / sn, e[1] / sn, e[2] / sn}, th = 2.0 * pki_atan2(sn, e[3]);
    double dn = nv[0] * d1[0] + nv[1] * d1[1] + nv[2] * d1[2], p[3], r[3], m[3];
    for (int i = 0; i < 3; i++) {
        p[i] = dn * nv[i];
        r[i] = d1[i] - p[i];
    }
    m[0] = nv[1] * r[2] - nv[2] * r[1];
    m[1] = nv[2] * r[0] - nv[0] * r[2];
    m[2] = nv[0] * r[1] - nv[1] * r[0];
    double X = r[0] * kp[0] + r[1] * kp[1] + r[2] * kp[2];
    double Y = m[0] * kp[0] + m[1] * kp[1] + m[2] * kp[2];
    double x = pki_atan2(Y, X);
    if (!(x >= 0.0 && x <= th))
        x = X >= X * pki_cos(th) + Y * pki_sin(th) ? 0.0 : th;
    double cx = pki_cos(x), sx = pki_sin(x), w[3];
    for (int i = 0; i < 3; i++)
        w[i] = p[i] + cx * r[i] + sx * m[i];
    return pki_v3_dist(w, kp);
}

/* The hip's rotation at frame g turned by phi radians about the thigh. */
static void hip_twisted(const pki_leg_frame *g, double phi, double o[4])
{
    double n = pki_v3_len(g->d1), sn = pki_sin(0.5 * phi);
    double t[4] = {g->d1[0] / n * sn, g->d1[1] / n * sn, g->d1[2] / n * sn, pki_cos(0.5 * phi)};
    pki_qd_mul(g->q[HIP], t, o);
}

/* Boxes of twists a frame's search may look at before it gives up (the
 * frame then counts as not forced). */
enum { FORCED_BOXES = 4096 };

size_t pki_leg_hip_forced(const pki_leg_frame *fr, size_t n, double tol, double twist_deg,
                          size_t *undecided, bool *at)
{
    if (at)
        memset(at, 0, n * sizeof *at);
    size_t forced = 0, open = 0;
    double tw = twist_deg * (3.14159265358979323846 / 180.0);
    typedef struct box {
        double p0, p1, r;
    } box;
    box *st = NULL;
    size_t nst = 0, cst = 0;
    for (size_t f = 1; f + 1 < n; f++) {
        const pki_leg_frame *g[2] = {&fr[f - 1], &fr[f + 1]};
        double len = pki_v3_len(fr[f].d1), alpha = 0.0, k[3], pi[4], d[3];
        if (!(len > 1e-9))
            continue;
        /* the ends: a fit's hip at f -/+ 1 is the input's turned by a
         * twist (within tw) and a swing whose knee moves within tol,
         * a turn of at most alpha */
        for (int e = 0; e < 2; e++) {
            double x[3], w[3], gi[4];
            pki_qd_rotate(g[e]->q[HIP], g[e]->d1, x);
            pki_qd_conj(g[e]->parent, gi);
            for (int i = 0; i < 3; i++)
                d[i] = g[e]->knee[i] - g[e]->hip[i];
            pki_qd_rotate(gi, d, w);
            double s = (tol + pki_v3_dist(x, w)) / (2.0 * len);
            alpha = fmax(alpha, 2.0 * pki_asin(s > 1.0 ? 1.0 : s));
        }
        pki_qd_conj(fr[f].parent, pi);
        for (int i = 0; i < 3; i++)
            d[i] = fr[f].knee[i] - fr[f].hip[i];
        pki_qd_rotate(pi, d, k);
        /* the arc's points move, each end turned by up to psi, at most
         * 2 len c / cos(L / 2) (c the ends' chord on the unit
         * quaternions, L the largest angle between the ends) */
        double dq = 0.0;
        for (int i = 0; i < 4; i++)
            dq += g[0]->q[HIP][i] * g[1]->q[HIP][i];
        double L = pki_acos(fmin(1.0, fabs(dq))) + tw + alpha;
        double c = 2.0 * pki_sin(0.25 * alpha), cl = pki_cos(0.5 * L);
        if (!(L < 1.0 && pki_cos(L) > 4.0 * (c + 2.0 * pki_sin(0.5 * tw))) ||
            memcmp(g[0]->d1, fr[f].d1, sizeof fr[f].d1) != 0 ||
            memcmp(g[1]->d1, fr[f].d1, sizeof fr[f].d1) != 0) {
            open++;
            continue;
        }
        double thr = tol + 2.0 * len * c / cl + 1e-12;
        /* the twists: turning both ends by one twist turns the whole arc
         * on the right (q t for every q of it), which moves no knee: only
         * the difference dt counts, the first end turned by dt in
         * [-2 tw, 2 tw].  Intervals of it, each proven (its centre's arc
         * farther than thr by more than the interval can move it: the
         * chord law again, one end moving) or split */
        nst = 0;
        box *b0 = pki_grow_push(&st, &nst, &cst, sizeof *st);
        if (!b0) {
            open++;
            continue;
        }
        *b0 = (box){0.0, 0.0, 2.0 * tw};
        size_t looked = 0;
        bool proven = true;
        while (nst > 0 && proven) {
            box b = st[--nst];
            double qa[4];
            hip_twisted(g[0], b.p0, qa);
            double dist = knee_arc_dist(qa, g[1]->q[HIP], fr[f].d1, k);
            double move = 2.0 * len * 2.0 * pki_sin(0.25 * b.r) / cl;
            if (dist - move > thr)
                continue;
            if (dist <= thr || ++looked > FORCED_BOXES) {
                proven = false;
                break;
            }
            for (int i = 0; i < 2 && proven; i++) {
                box *ch = pki_grow_push(&st, &nst, &cst, sizeof *st);
                if (!ch)
                    proven = false;
                else
                    *ch = (box){b.p0 + (i ? 0.5 : -0.5) * b.r, 0.0, 0.5 * b.r};
            }
        }
        if (proven) {
            forced++;
            if (at)
                at[f] = true;
        } else if (looked > FORCED_BOXES)
            open++;
    }
    free(st);
    if (undecided)
        *undecided = open;
    return forced;
}
