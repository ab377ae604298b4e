/*
 * sizing_measure.c — how well a sizing keeps what the audience sees
 * (pk_sizing_measure, posekit.h): A playing the input against B playing
 * the output, at every frame.  k is B's arm length over A's.
 *
 * Hands.  On each frame of each contact found on A (contacts.c) the same
 * gap is measured on B (to B's other hand, B's part, the floor): the
 * error is |gap_B - k gap_A| over B's arm length.  Mean and 95th
 * percentile over every (contact, frame), before the sizing steps (B
 * playing the stance and scale alone) and after.
 *
 * Feet.  A foot is planted on A at a frame when its ankle (足首) is less
 * than 3% of A's leg above its rest height and moved less than 1% of A's
 * leg since the frame before (itself planted).  Its slide is how far the
 * ankle moved across the floor (X, Z) since that frame; B's slide is
 * compared with A's times the retarget's XZ scale, per frame.  Floor: the
 * ankle's lift above rest on B against A's times the Y scale.
 *
 * Arms far from contacts.  On frames more than 15 frames from any contact
 * of its hand and from any frame where the arm was inside B's body
 * before the sizing steps (see penetration), the world directions of B's upper arm (腕->ひじ) and
 * forearm (ひじ->手首) after against before: the largest angle.
 *
 * Penetration.  Nine points along B's forearm and hand (ひじ->手首->the
 * hand's end) against B's parts made of its rigid bodies: a frame counts
 * when one is deeper than 1% of B's arm inside and the same point of A's
 * arm is not as deep (1% of A's arm) in A's same part.
 *
 * Bends.  An elbow bends towards the side its forearm leans to at rest,
 * across the upper arm (the front, -Z, for a straight rest arm); a knee
 * towards the back (+Z).  Its rest bend plane holds the upper segment
 * and is square to that side.  A joint is past the plane by the angle its
 * lower segment (in the frame of the bone it hangs from) makes behind
 * it; B's counts when it is past by more than 1 degree and by more than 1
 * degree beyond A's at the same frame (PKI_PAST_DEG), and as made worse
 * by the sizing steps when it also is half a degree further past than
 * before them (the steps keep it within a quarter, sizing.h; the rest is
 * the fit's).
 */
#include "math/quat.h"
#include "ops/retarget/sizing.h"
#include "util/fmath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (180.0 / 3.14159265358979323846)
#define NEAR_FRAMES 15

void pk_sizing_measure_free(pk_sizing_measure *m)
{
    if (!m)
        return;
    free(m->contacts);
    free(m);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double p95(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t i = (size_t)ceil(0.95 * (double)n);
    return v[i ? i - 1 : 0];
}

static double dir_angle(const double a0[3], const double a1[3], const double b0[3],
                        const double b1[3])
{
    double u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = a1[k] - a0[k];
        v[k] = b1[k] - b0[k];
    }
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double s = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    double d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    return pki_atan2(s, d) * DEG;
}

/* ---- hands ---- */

static int hands(const pki_sizing *z, const pki_play *after, pk_sizing_measure *out)
{
    size_t total = 0;
    for (size_t i = 0; i < z->contacts.n; i++)
        total += z->contacts.v[i].last - z->contacts.v[i].first + 1;
    double *eb = malloc((total + 1) * sizeof *eb), *ea = malloc((total + 1) * sizeof *ea);
    double *rb = malloc((total + 1) * sizeof *rb), *ra = malloc((total + 1) * sizeof *ra);
    out->contacts = calloc(z->contacts.n + 1, sizeof *out->contacts);
    if (!eb || !ea || !rb || !ra || !out->contacts) {
        free(eb);
        free(ea);
        free(rb);
        free(ra);
        return -1;
    }
    size_t n = 0, nr = 0;
    double lb = z->b.arm_len;
    for (size_t i = 0; i < z->contacts.n; i++) {
        const pki_contact *c = &z->contacts.v[i];
        pk_sizing_contact *o = &out->contacts[out->ncontacts];
        o->side = c->side;
        snprintf(o->with, sizeof o->with, "%s",
                 c->with == PKI_WITH_HAND ? "hand" : pki_with_name(c->with));
        o->first = z->pa.f0 + c->first;
        o->last = z->pa.f0 + c->last;
        o->gap_a = c->min_gap / z->a.arm_len;
        o->unreachable = c->unreachable;
        o->blocked = c->blocked;
        o->apart = c->apart;
        o->apart_least = c->apart_least;
        o->refused = c->refused;
        o->short_by = c->short_by / lb;
        size_t m = 0;
        for (uint32_t r = c->first; r <= c->last; r++) {
            double ga = pki_touch_at(&z->a, &z->pa, r, c->side, c->with, NULL);
            double gb = pki_touch_at(&z->b, pki_before(z), r, c->side, c->with, NULL);
            double gc = pki_touch_at(&z->b, after, r, c->side, c->with, NULL);
            if (!isfinite(ga))
                continue;
            /* B has no such part or hand: nothing to measure */
            if (!isfinite(gb) || !isfinite(gc))
                continue;
            double g = pki_gap_goal(z, ga), wb = fabs(gb - g) / lb, wa = fabs(gc - g) / lb;
            eb[n] = wb;
            ea[n] = wa;
            if (!c->beyond || !(c->beyond[r - c->first] &
                                (PKI_BEYOND_REACH | PKI_BEYOND_BODY | PKI_BEYOND_APART |
                                 PKI_BEYOND_REFUSED))) {
                rb[nr] = wb;
                ra[nr++] = wa;
            }
            o->before_mean += wb;
            o->after_mean += wa;
            o->before_max = fmax(o->before_max, wb);
            o->after_max = fmax(o->after_max, wa);
            n++;
            m++;
        }
        if (!m)
            continue;
        o->before_mean /= (double)m;
        o->after_mean /= (double)m;
        out->ncontacts++;
    }
    out->contact_frames = n;
    for (size_t i = 0; i < n; i++) {
        out->hands_before_mean += eb[i] / (double)n;
        out->hands_after_mean += ea[i] / (double)n;
    }
    out->hands_before_p95 = p95(eb, n);
    out->hands_after_p95 = p95(ea, n);
    out->reach_frames = nr;
    for (size_t i = 0; i < nr; i++) {
        out->reach_before_mean += rb[i] / (double)nr;
        out->reach_after_mean += ra[i] / (double)nr;
    }
    out->reach_before_p95 = p95(rb, nr);
    out->reach_after_p95 = p95(ra, nr);
    free(eb);
    free(ea);
    free(rb);
    free(ra);
    return 0;
}

/* ---- feet ---- */

/* Slide and floor of B (played by pb) on A's planted frames: the mean
 * slides into *slide_a, *slide_b, the worst excess, the floor's p95. */
static int feet_of(const pki_sizing *z, const pki_play *pb, double *slide_a, double *slide_b,
                   double *excess, double *floor95, size_t *planted)
{
    const pki_figure *a = &z->a, *b = &z->b;
    *slide_a = *slide_b = *excess = *floor95 = 0;
    *planted = 0;
    if (!(a->leg_len > 0) || !(b->leg_len > 0))
        return 0;
    size_t cap = 2 * (size_t)z->pa.n + 1, n = 0;
    double *floor_err = malloc(cap * sizeof *floor_err);
    if (!floor_err)
        return -1;
    double sa = 0, sb = 0;
    for (int s = 0; s < 2; s++) {
        if (a->ankle[s] < 0 || b->ankle[s] < 0)
            continue;
        for (uint32_t r = 1; r < z->pa.n; r++) {
            const double *p0 = pki_play_at(&z->pa, r - 1, a->ankle[s])->pos;
            const double *p1 = pki_play_at(&z->pa, r, a->ankle[s])->pos;
            double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
            double moved = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double lift0 = p0[1] - a->ankle_rest_y[s], lift1 = p1[1] - a->ankle_rest_y[s];
            if (lift0 > 0.03 * a->leg_len || lift1 > 0.03 * a->leg_len || moved > 0.01 * a->leg_len)
                continue;
            const double *q0 = pki_play_at(pb, r - 1, b->ankle[s])->pos;
            const double *q1 = pki_play_at(pb, r, b->ankle[s])->pos;
            double da = sqrt(d[0] * d[0] + d[2] * d[2]) * z->scale_xz / b->leg_len;
            double db =
                sqrt((q1[0] - q0[0]) * (q1[0] - q0[0]) + (q1[2] - q0[2]) * (q1[2] - q0[2])) /
                b->leg_len;
            sa += da;
            sb += db;
            *excess = fmax(*excess, db - da);
            double lift_b = q1[1] - b->ankle_rest_y[s];
            floor_err[n++] = fabs(lift_b - lift1 * z->scale_y) / b->leg_len;
        }
    }
    *planted = n;
    if (n) {
        *slide_a = sa / (double)n;
        *slide_b = sb / (double)n;
    }
    *floor95 = p95(floor_err, n);
    free(floor_err);
    return 0;
}

static int feet(const pki_sizing *z, const pki_play *after, pk_sizing_measure *out)
{
    double a;
    size_t n;
    if (feet_of(z, pki_before(z), &a, &out->slide_b_before, &out->slide_excess_max_before,
                &out->floor_p95_before, &n) != 0)
        return -1;
    return feet_of(z, after, &out->slide_a, &out->slide_b, &out->slide_excess_max, &out->floor_p95,
                   &out->planted_frames);
}

/* ---- arms far from contacts ---- */

static int drift(const pki_sizing *z, const pki_play *after, pk_sizing_measure *out)
{
    uint32_t n = pki_before(z)->n;
    bool *near = calloc(2 * (size_t)n + 1, sizeof *near);
    if (!near)
        return -1;
    for (size_t i = 0; i < z->contacts.n; i++) {
        const pki_contact *c = &z->contacts.v[i];
        uint32_t lo = c->first > NEAR_FRAMES ? c->first - NEAR_FRAMES : 0;
        uint32_t hi = c->last + NEAR_FRAMES < n ? c->last + NEAR_FRAMES : n - 1;
        for (int s = 0; s < 2; s++) {
            if (s != c->side && c->with != PKI_WITH_HAND)
                continue;
            for (uint32_t r = lo; r <= hi; r++)
                near[(size_t)s * n + r] = true;
        }
    }
    /* and from frames where the arm was inside B's body (the avoid step's),
     * before the sizing steps or after the body steps (the arm steps'
     * start) */
    for (int s = 0; s < 2; s++) {
        if (!z->a.arm[s].ok || !z->b.arm[s].ok || !z->b.rigids)
            continue;
        for (uint32_t r = 0; r < n; r++) {
            if (!pki_penetrates(z, pki_before(z), r, s, NULL) &&
                !pki_penetrates(z, &z->pb, r, s, NULL))
                continue;
            uint32_t lo = r > NEAR_FRAMES ? r - NEAR_FRAMES : 0;
            uint32_t hi = r + NEAR_FRAMES < n ? r + NEAR_FRAMES : n - 1;
            for (uint32_t j = lo; j <= hi; j++)
                near[(size_t)s * n + j] = true;
        }
    }
    double sum = 0;
    for (int s = 0; s < 2; s++) {
        const pki_arm *arm = &z->b.arm[s];
        if (!arm->ok)
            continue;
        int32_t top = arm->bone[0], el = arm->bone[arm->elbow], wr = arm->bone[arm->n - 1];
        for (uint32_t r = 0; r < n; r++) {
            if (near[(size_t)s * n + r])
                continue;
            double u = dir_angle(pki_play_at(pki_before(z), r, top)->pos,
                                 pki_play_at(pki_before(z), r, el)->pos,
                                 pki_play_at(after, r, top)->pos, pki_play_at(after, r, el)->pos);
            double f = dir_angle(pki_play_at(pki_before(z), r, el)->pos,
                                 pki_play_at(pki_before(z), r, wr)->pos,
                                 pki_play_at(after, r, el)->pos, pki_play_at(after, r, wr)->pos);
            double w = fmax(u, f);
            out->drift_max_deg = fmax(out->drift_max_deg, w);
            sum += w;
            out->far_frames++;
        }
    }
    if (out->far_frames)
        out->drift_mean_deg = sum / (double)out->far_frames;
    free(near);
    return 0;
}

/* ---- penetration ---- */

static double seg_point(const double a[3], const double b[3], const double p[3])
{
    double d[3], v[3];
    for (int k = 0; k < 3; k++) {
        d[k] = b[k] - a[k];
        v[k] = p[k] - a[k];
    }
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double t = dd > 0 ? (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / dd : 0;
    t = fmax(0.0, fmin(1.0, t));
    double x = 0;
    for (int k = 0; k < 3; k++) {
        double e = v[k] - t * d[k];
        x += e * e;
    }
    return sqrt(x);
}

bool pki_part_far(const pki_placed *pl, const double e[3], const double w[3], const double t[3])
{
    const pki_part *p = pl->part;
    double c[3], v[3];
    pki_qd_rotate(pl->rot, p->centre, v);
    for (int k = 0; k < 3; k++)
        c[k] = pl->pos[k] + v[k];
    double r = sqrt(p->half[0] * p->half[0] + p->half[1] * p->half[1] + p->half[2] * p->half[2]);
    return seg_point(e, w, c) > r && seg_point(w, t, c) > r;
}

/* Point i of 9 along a figure's forearm and hand at a row. */
static void arm_point(const pki_figure *f, const pki_play *p, uint32_t r, int s, int i, double q[3])
{
    const pki_arm *a = &f->arm[s];
    double w[3], t[3];
    pki_hand_at(f, p, r, s, w, t);
    const double *e = pki_play_at(p, r, a->bone[a->elbow])->pos;
    for (int k = 0; k < 3; k++)
        q[k] = i < 4 ? e[k] + (w[k] - e[k]) * (double)i / 4.0
                     : w[k] + (t[k] - w[k]) * (double)(i - 4) / 4.0;
}

double pki_arm_depth(const pki_figure *b, const pki_play *p, uint32_t r, int s, bool rigid_only,
                     int *where, int *part)
{
    double deepest = 0;
    if (!b->arm[s].ok)
        return 0;
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (b->part[k].bone < 0 || (rigid_only && !b->part[k].from_rigids))
            continue;
        pki_placed pl;
        pki_part_place(b, p, r, k, &pl);
        for (int i = 0; i < 9; i++) {
            double q[3];
            arm_point(b, p, r, s, i, q);
            double d = -pki_part_distance(&pl, q, NULL, NULL);
            if (d > deepest) {
                deepest = d;
                if (where)
                    *where = i;
                if (part)
                    *part = k;
            }
        }
    }
    return deepest;
}

/* How deep point i of A's arm is inside A's part k. */
static double a_depth(const pki_figure *a, const pki_play *p, uint32_t r, int s, int i, int k)
{
    if (!a->arm[s].ok || a->part[k].bone < 0)
        return 0;
    pki_placed pl;
    pki_part_place(a, p, r, k, &pl);
    double q[3];
    arm_point(a, p, r, s, i, q);
    return -pki_part_distance(&pl, q, NULL, NULL);
}

double pki_depth_a(const pki_sizing *z, int s, uint32_t r, int i, int k)
{
    return a_depth(&z->a, &z->pa, r, s, i, k);
}

bool pki_penetrates(const pki_sizing *z, const pki_play *pb, uint32_t r, int s, double *depth)
{
    const pki_figure *b = &z->b;
    double deepest = 0;
    bool found = false;
    if (depth)
        *depth = 0;
    if (!b->arm[s].ok || !z->a.arm[s].ok)
        return false;
    double e[3], w[3], t[3];
    arm_point(b, pb, r, s, 0, e);
    arm_point(b, pb, r, s, 4, w);
    arm_point(b, pb, r, s, 8, t);
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (b->part[k].bone < 0 || !b->part[k].from_rigids)
            continue;
        pki_placed pl;
        pki_part_place(b, pb, r, k, &pl);
        if (pki_part_far(&pl, e, w, t))
            continue;
        for (int i = 0; i < 9; i++) {
            double q[3];
            arm_point(b, pb, r, s, i, q);
            double d = -pki_part_distance(&pl, q, NULL, NULL);
            if (!(d > 0.01 * b->arm_len) || d <= deepest)
                continue;
            if (a_depth(&z->a, &z->pa, r, s, i, k) > 0.01 * z->a.arm_len)
                continue;
            deepest = d;
            found = true;
        }
    }
    if (depth)
        *depth = deepest;
    return found;
}

static void penetration(const pki_sizing *z, const pki_play *after, pk_sizing_measure *out)
{
    out->bodies = z->b.rigids;
    if (!z->b.rigids)
        return;
    for (uint32_t r = 0; r < pki_before(z)->n; r++) {
        bool before = false, now = false;
        for (int s = 0; s < 2; s++) {
            if (!z->a.arm[s].ok || !z->b.arm[s].ok)
                continue;
            double d;
            if (pki_penetrates(z, pki_before(z), r, s, &d)) {
                before = true;
                out->pen_deepest_before = fmax(out->pen_deepest_before, d / z->b.arm_len);
            }
            if (pki_penetrates(z, after, r, s, &d)) {
                now = true;
                if (d / z->b.arm_len > out->pen_deepest_after) {
                    out->pen_deepest_after = d / z->b.arm_len;
                    out->pen_worst_frame = z->pa.f0 + r;
                }
            }
        }
        out->pen_before += before;
        out->pen_after += now;
    }
}

/* ---- bends ---- */

double pki_bend_at(const double parent_rot[4], const double joint[3], const double end[3],
                   const pki_bend_axes *ax)
{
    double d[3] = {end[0] - joint[0], end[1] - joint[1], end[2] - joint[2]}, inv[4], l[3];
    pki_qd_conj(parent_rot, inv);
    pki_qd_rotate(inv, d, l);
    double n = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    if (!(n > 0))
        return 0;
    double y = -(l[0] * ax->f[0] + l[1] * ax->f[1] + l[2] * ax->f[2]) / n;
    return pki_asin(fmax(-1.0, fmin(1.0, y))) * DEG;
}

void pki_bend_axes_init(pki_bend_axes *ax, const pk_model *m, int32_t top, int32_t joint,
                        int32_t end, double front_z)
{
    double u[3], e[3];
    for (int k = 0; k < 3; k++) {
        u[k] = (double)m->bones[joint].pos[k] - m->bones[top].pos[k];
        e[k] = (double)m->bones[end].pos[k] - m->bones[joint].pos[k];
    }
    double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; k++)
        ax->u[k] = n > 0 ? u[k] / n : 0;
    /* the side the lower segment bends to at rest, else the default */
    double ne = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    double f[3], t = (e[0] * ax->u[0] + e[1] * ax->u[1] + e[2] * ax->u[2]);
    for (int k = 0; k < 3; k++)
        f[k] = e[k] - t * ax->u[k];
    double nf = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    bool bent = ne > 0 && nf > ne * pki_sin(5.0 / DEG) && f[2] * front_z > 0;
    if (!bent) {
        f[0] = f[1] = 0;
        f[2] = front_z;
        t = f[2] * ax->u[2];
        for (int k = 0; k < 3; k++)
            f[k] -= t * ax->u[k];
        nf = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    }
    for (int k = 0; k < 3; k++)
        ax->f[k] = nf > 0 ? f[k] / nf : 0;
}

/* Frames of B (played by pb) whose elbows and knees are past their rest
 * plane beyond A's: counts and the worst into past[2], worst[2]. */
static void bends_of(const pki_sizing *z, const pki_play *pb, size_t checked[2], size_t past[2],
                     double worst[2], double *elbows, size_t *worse)
{
    const pki_figure *a = &z->a, *b = &z->b;
    for (int j = 0; j < 2; j++) {
        checked[j] = past[j] = 0;
        worst[j] = 0;
    }
    for (int s = 0; s < 2; s++) {
        if (a->arm[s].ok && b->arm[s].ok) {
            const pki_arm *aa = &a->arm[s], *ab = &b->arm[s];
            pki_bend_axes xa, xb;
            pki_bend_axes_init(&xa, a->m, aa->bone[0], aa->bone[aa->elbow], aa->bone[aa->n - 1],
                               -1.0);
            pki_bend_axes_init(&xb, b->m, ab->bone[0], ab->bone[ab->elbow], ab->bone[ab->n - 1],
                               -1.0);
            for (uint32_t r = 0; r < pb->n; r++) {
                double ba = pki_bend_at(pki_play_at(&z->pa, r, aa->bone[aa->elbow - 1])->rot,
                                        pki_play_at(&z->pa, r, aa->bone[aa->elbow])->pos,
                                        pki_play_at(&z->pa, r, aa->bone[aa->n - 1])->pos, &xa);
                double bb = pki_bend_at(pki_play_at(pb, r, ab->bone[ab->elbow - 1])->rot,
                                        pki_play_at(pb, r, ab->bone[ab->elbow])->pos,
                                        pki_play_at(pb, r, ab->bone[ab->n - 1])->pos, &xb);
                size_t row = (size_t)s * pb->n + r;
                if (worse && bb > PKI_PAST_DEG && bb > ba + PKI_PAST_DEG &&
                    bb > elbows[row] + 2.0 * PKI_PAST_STEP)
                    ++*worse;
                if (!worse)
                    elbows[row] = bb;
                checked[0]++;
                if (bb > PKI_PAST_DEG && bb > ba + PKI_PAST_DEG) {
                    past[0]++;
                    worst[0] = fmax(worst[0], bb);
                }
            }
        }
        int32_t ka = a->knee[s], kb = b->knee[s];
        if (a->hip[s] < 0 || ka < 0 || a->ankle[s] < 0 || b->hip[s] < 0 || kb < 0 ||
            b->ankle[s] < 0)
            continue;
        int32_t pa_ = a->m->bones[ka].parent, pb_ = b->m->bones[kb].parent;
        if (pa_ < 0 || pb_ < 0 || z->pa.slot[pa_] < 0 || pb->slot[pb_] < 0)
            continue;
        pki_bend_axes xa, xb;
        pki_bend_axes_init(&xa, a->m, a->hip[s], ka, a->ankle[s], 1.0);
        pki_bend_axes_init(&xb, b->m, b->hip[s], kb, b->ankle[s], 1.0);
        for (uint32_t r = 0; r < pb->n; r++) {
            double ba =
                pki_bend_at(pki_play_at(&z->pa, r, pa_)->rot, pki_play_at(&z->pa, r, ka)->pos,
                            pki_play_at(&z->pa, r, a->ankle[s])->pos, &xa);
            double bb = pki_bend_at(pki_play_at(pb, r, pb_)->rot, pki_play_at(pb, r, kb)->pos,
                                    pki_play_at(pb, r, b->ankle[s])->pos, &xb);
            checked[1]++;
            if (bb > PKI_PAST_DEG && bb > ba + PKI_PAST_DEG) {
                past[1]++;
                worst[1] = fmax(worst[1], bb);
            }
        }
    }
}

static int bends(const pki_sizing *z, const pki_play *after, pk_sizing_measure *out)
{
    size_t checked[2], past[2];
    double worst[2];
    double *elbows = calloc(2 * (size_t)after->n + 1, sizeof *elbows);
    if (!elbows)
        return -1;
    bends_of(z, pki_before(z), checked, past, worst, elbows, NULL);
    out->elbow_past_before = past[0];
    out->knee_past_before = past[1];
    bends_of(z, after, checked, past, worst, elbows, &out->elbow_worse);
    free(elbows);
    out->elbow_frames = checked[0];
    out->knee_frames = checked[1];
    out->elbow_past = past[0];
    out->knee_past = past[1];
    out->elbow_worst_deg = worst[0];
    out->knee_worst_deg = worst[1];
    return 0;
}

pk_sizing_measure *pki_measure(const pki_sizing *z, const pki_play *after, pk_log *log)
{
    pk_sizing_measure *out = calloc(1, sizeof *out);
    if (!out) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    out->first = z->pa.f0;
    out->last = z->pa.f0 + (z->pa.n ? z->pa.n - 1 : 0);
    out->arm_a = z->a.arm_len;
    out->arm_b = z->b.arm_len;
    out->leg_a = z->a.leg_len;
    out->leg_b = z->b.leg_len;
    if (hands(z, after, out) || feet(z, after, out) || drift(z, after, out) ||
        bends(z, after, out)) {
        pk_sizing_measure_free(out);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    penetration(z, after, out);
    return out;
}
