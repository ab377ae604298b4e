/*
 * legs_fit.c — one leg's FK tracks fitted against the joints' world
 * positions (legs_fit.h).
 */
#include "ops/skeleton/legs_fit.h"

#include "common/grow.h"
#include "math/curve.h"
#include "math/quat.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { HIP = 0, KNEE = 1, ANKLE = 2 };
/* Segments tried past the first that does not fit before a key is set. */
enum { LOOK_AHEAD = 4 };
/* Bisection steps for the ends of a frame's progress interval. */
enum { EDGE_STEPS = 18 };

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
    pki_curve_cache *cache;
} track_fit;

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static double dist3(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return norm3(d);
}

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
    double n = norm3(v);
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

/* Frame f's error with local rotation r, in units of its bound (<= 1:
 * within). */
static double err_at(const track_fit *c, size_t f, const double r[4])
{
    const pki_leg_frame *fr = &c->fr[f];
    const pki_leg_tols *t = c->t;
    const double *q = c->target[f];
    double x[3], y[3];
    if (c->bone == HIP) {
        pki_qd_rotate(r, c->a[f], x);
        pki_qd_rotate(r, fr->d1, y);
        return fmax(dist3(x, c->u[f]) / t->ankle, dist3(y, c->k[f]) / t->knee);
    }
    if (c->bone == KNEE) {
        double v[3], w[3];
        pki_qd_rotate(r, fr->d2, x);
        pki_qd_rotate(q, fr->d2, y);
        for (int i = 0; i < 3; i++) {
            v[i] = fr->d1[i] + x[i];
            w[i] = fr->d1[i] + y[i];
        }
        double reach = norm3(w);
        double bend = reach > 1e-9 ? dist3(x, y) * norm3(fr->d1) / reach : 0.0;
        return fmax(fabs(norm3(v) - reach) / t->reach, bend / t->bend);
    }
    double qi[4], e[4];
    pki_qd_conj(q, qi);
    pki_qd_mul(qi, r, e);
    if (!t->has_toe)
        return angle_deg(q, r) / t->roll_deg;
    pki_qd_rotate(r, fr->d3, x);
    pki_qd_rotate(q, fr->d3, y);
    return fmax(dist3(x, y) / t->toe, twist_deg(e, fr->d3) / t->roll_deg);
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

/* Does one key at b (after the key at a, values ka and kb) hold frames
 * a..b?  cp gets its curve. */
static bool segment_fits(track_fit *c, size_t a, size_t b, const double ka[4], const double kb[4],
                         uint8_t cp[4])
{
    memcpy(cp, pki_curve_linear, 4);
    size_t n = b - a;
    if (n < 2)
        return true;
    arc s;
    arc_set(&s, ka, kb);
    bool same = memcmp(ka, kb, 4 * sizeof *ka) == 0;
    double tol = 0.0;
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
            if (err_on(c, f, &s, at) > 1.0)
                return false;
        }
        double lo, hi;
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
    return pki_curve_fit_progress_ex(c->p, n, 1.0, c->extra, tol, PKI_FIT_FAST, c->cache, cp,
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

/* The greedy search: from each key, the farthest end (LOOK_AHEAD misses
 * allowed) one curve holds. */
static bool fit_track(track_fit *c, pki_leg_track *out)
{
    float kf[4];
    double ka[4], kb[4];
    as_key(c->target[0], kf, ka);
    if (!push(out, 0, kf, pki_curve_linear))
        return false;
    size_t a = 0;
    while (a + 1 < c->n) {
        size_t best = a + 1;
        uint8_t cp[4], best_cp[4];
        memcpy(best_cp, pki_curve_linear, 4);
        for (size_t b = a + 2, miss = 0; b < c->n && miss <= LOOK_AHEAD; b++) {
            as_key(c->target[b], kf, kb);
            if (segment_fits(c, a, b, ka, kb, cp)) {
                best = b;
                memcpy(best_cp, cp, 4);
                miss = 0;
            } else {
                miss++;
            }
        }
        as_key(c->target[best], kf, ka);
        if (!push(out, (uint32_t)best, kf, best_cp))
            return false;
        a = best;
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

/* The fitted track's value at every frame (as MMD samples it). */
static void sample_track(const pki_leg_track *t, size_t n, double (*o)[4])
{
    size_t k = 0;
    for (size_t f = 0; f < n; f++) {
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

/* The rotation turning unit-length direction of v onto that of w, times q. */
static void aim(const double v[3], const double w[3], const double q[4], double o[4])
{
    double nv = norm3(v), nw = norm3(w);
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

bool pki_leg_fit(const pki_leg_frame *fr, size_t n, const pki_leg_tols *t, pki_leg_track out[3])
{
    memset(out, 0, 3 * sizeof *out);
    track_fit c;
    memset(&c, 0, sizeof c);
    c.fr = fr;
    c.t = t;
    c.n = n;
    c.target = calloc(n, sizeof *c.target);
    double(*knee)[4] = calloc(n, sizeof *knee), (*hip)[4] = calloc(n, sizeof *hip);
    c.a = calloc(n, sizeof *c.a);
    c.u = calloc(n, sizeof *c.u);
    c.k = calloc(n, sizeof *c.k);
    c.p = calloc(n + 1, sizeof *c.p);
    c.extra = calloc(n + 1, sizeof *c.extra);
    c.cache = pki_curve_cache_new();
    bool ok = c.target && knee && hip && c.a && c.u && c.k && c.p && c.extra && c.cache;
    /* the knee, alone */
    if (ok) {
        c.bone = KNEE;
        for (size_t f = 0; f < n; f++)
            memcpy(c.target[f], fr[f].q[KNEE], sizeof c.target[f]);
        continuous(c.target, n);
        ok = fit_track(&c, &out[KNEE]);
    }
    /* the hip with that knee, aimed so its ankle lands on the input's */
    if (ok) {
        sample_track(&out[KNEE], n, knee);
        c.bone = HIP;
        for (size_t f = 0; f < n; f++) {
            double pi[4], d[3], x[3];
            pki_qd_conj(fr[f].parent, pi);
            for (int i = 0; i < 3; i++)
                d[i] = fr[f].ankle[i] - fr[f].hip[i];
            pki_qd_rotate(pi, d, c.u[f]);
            for (int i = 0; i < 3; i++)
                d[i] = fr[f].knee[i] - fr[f].hip[i];
            pki_qd_rotate(pi, d, c.k[f]);
            pki_qd_rotate(knee[f], fr[f].d2, x);
            for (int i = 0; i < 3; i++)
                c.a[f][i] = fr[f].d1[i] + x[i];
            pki_qd_rotate(fr[f].q[HIP], c.a[f], x);
            aim(x, c.u[f], fr[f].q[HIP], c.target[f]);
        }
        continuous(c.target, n);
        ok = fit_track(&c, &out[HIP]);
    }
    /* the ankle under the fitted hip and knee, turned as the input's foot */
    if (ok) {
        sample_track(&out[HIP], n, hip);
        c.bone = ANKLE;
        for (size_t f = 0; f < n; f++) {
            double w[4], wi[4];
            pki_qd_mul(fr[f].parent, hip[f], w);
            pki_qd_mul(w, knee[f], w);
            pki_qd_conj(w, wi);
            pki_qd_mul(wi, fr[f].foot, c.target[f]);
            normalize4(c.target[f]);
        }
        continuous(c.target, n);
        ok = fit_track(&c, &out[ANKLE]);
    }
    free(c.target);
    free(knee);
    free(hip);
    free(c.a);
    free(c.u);
    free(c.k);
    free(c.p);
    free(c.extra);
    pki_curve_cache_free(c.cache);
    if (!ok)
        for (int i = 0; i < 3; i++) {
            free(out[i].keys);
            out[i].keys = NULL;
            out[i].n = out[i].cap = 0;
        }
    return ok;
}
