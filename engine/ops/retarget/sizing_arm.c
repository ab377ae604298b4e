/*
 * sizing_arm.c — B's arm moved so its wrist lands on a point (sizing.h,
 * pki_arm_reach), as a two-bone chain: the shoulder S (腕), the elbow E
 * (ひじ), the wrist W (手首).
 *
 *  1. The arm turns about S by the shortest arc taking W - S towards the
 *     target T - S; the elbow turns with it, so its plane keeps its place
 *     about the shoulder-wrist line.
 *  2. In that plane the elbow opens or closes (law of cosines) until the
 *     wrist is |T - S| from the shoulder, bending the way it bent (the
 *     plane's normal kept): an elbow never turns over to its other side.
 *     A target beyond reach stretches the arm towards it.
 *  3. The upper arm's bones (腕, 腕捩) turn by that arc, then by the
 *     turn within the plane taking the upper arm to its new place; the
 *     forearm's (ひじ, 手捩) likewise: every turn after the first is about
 *     the plane's normal, so the arm does not roll from frame to frame
 *     however straight it is.  手首 takes what keeps the hand's world
 *     rotation; twist bones keep their own rotation.
 * A straight arm has no plane: its elbow bends towards the side it bends
 * to at rest (carried by the bone it hangs from).  A result that breaks
 * the elbow law (pki_elbow_worse) is refused.
 */
#include "ops/retarget/sizing.h"
#include "math/vec.h"
#include "util/fmath.h"

#include <math.h>
#include <string.h>

void pki_arm_fk(const pki_arm_state *st, uint32_t r, bool before, double w[][4], double p[][3])
{
    double(*q)[4] = before ? st->q0[r] : st->q[r];
    pki_qd_mul(st->par[r], q[0], w[0]);
    memcpy(p[0], st->top[r], sizeof p[0]);
    for (int i = 1; i < st->nb; i++) {
        pki_qd_mul(w[i - 1], q[i], w[i]);
        double v[3];
        pki_qd_rotate(w[i - 1], st->d[r][i], v);
        for (int k = 0; k < 3; k++)
            p[i][k] = p[i - 1][k] + v[k];
    }
}

/* Locals from world rotations: q_0 = par^-1 w_0, q_i = w_{i-1}^-1 w_i. */
static void locals(pki_arm_state *st, uint32_t r, double w[][4])
{
    double inv[4];
    pki_qd_conj(st->par[r], inv);
    pki_qd_mul(inv, w[0], st->q[r][0]);
    pki_q_norm(st->q[r][0]);
    for (int i = 1; i < st->nb; i++) {
        pki_qd_conj(w[i - 1], inv);
        pki_qd_mul(inv, w[i], st->q[r][i]);
        pki_q_norm(st->q[r][i]);
    }
}

double pki_elbow_past(const pki_sizing *z, int s, uint32_t r)
{
    const pki_arm *a = &z->b.arm[s];
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3];
    pki_arm_fk(&z->arm[s], r, false, w, p);
    return pki_bend_at(w[a->elbow - 1], p[a->elbow], p[a->n - 1], &z->elbow[s]);
}

bool pki_elbow_worse(const pki_sizing *z, int s, uint32_t r, double before)
{
    const pki_arm *a = &z->a.arm[s];
    double now = pki_elbow_past(z, s, r);
    if (!(now > PKI_PAST_DEG) || !(now > before + PKI_PAST_STEP))
        return false;
    double pa = pki_bend_at(pki_play_at(&z->pa, r, a->bone[a->elbow - 1])->rot,
                            pki_play_at(&z->pa, r, a->bone[a->elbow])->pos,
                            pki_play_at(&z->pa, r, a->bone[a->n - 1])->pos, &z->elbow_a[s]);
    return now > pa + PKI_PAST_DEG;
}

int pki_arm_reach(pki_sizing *z, int s, uint32_t r, const double target[3])
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    int e = a->elbow, n = a->n;
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3];
    pki_arm_fk(st, r, false, w, p);
    double bend0 = pki_elbow_past(z, s, r);
    const double *S = p[0], *E = p[e], *W = p[n - 1];
    double se[3], ew[3], sw[3], st_[3];
    pki_v3_sub(E, S, se);
    pki_v3_sub(W, E, ew);
    pki_v3_sub(W, S, sw);
    pki_v3_sub(target, S, st_);
    double l1 = pki_v3_len(se), l2 = pki_v3_len(ew), d = pki_v3_len(st_);
    if (!(l1 > 1e-9) || !(l2 > 1e-9) || !(d > 1e-9))
        return -1;
    int rc = 0;
    double lo = fabs(l1 - l2) * (1.0 + 1e-9) + 1e-9, hi = (l1 + l2) * (1.0 - 1e-9);
    if (d > hi) {
        d = hi;
        rc = 1;
    } else if (d < lo) {
        d = lo;
        rc = 2;
    }
    double u[3] = {st_[0], st_[1], st_[2]};
    pki_v3_unit(u, 0);
    /* the plane's normal, and where the elbow points across S->W */
    double nrm[3], pole[3], r1[4];
    pki_v3_cross(se, ew, nrm);
    bool plane = pki_v3_unit(nrm, 1e-6 * l1 * l2);
    (void)nrm;
    pki_q_arc(sw, st_, r1);
    double sei[3];
    pki_qd_rotate(r1, se, sei);
    double t = pki_v3_dot(sei, u);
    for (int k = 0; k < 3; k++)
        pole[k] = sei[k] - t * u[k];
    if (!plane || !pki_v3_unit(pole, 1e-6 * l1)) {
        /* a straight arm bends the way it bends at rest: its forearm
         * towards that side, so the elbow away from it */
        double f[3];
        pki_qd_rotate(w[e - 1], z->elbow[s].f, f);
        pki_qd_rotate(r1, f, f);
        t = pki_v3_dot(f, u);
        for (int k = 0; k < 3; k++)
            pole[k] = t * u[k] - f[k];
        if (!pki_v3_unit(pole, 1e-9))
            return -1;
    }
    double ca = (l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d);
    ca = fmax(-1.0, fmin(1.0, ca));
    double sa = sqrt(1.0 - ca * ca), E2[3], T2[3];
    for (int k = 0; k < 3; k++) {
        E2[k] = S[k] + l1 * (ca * u[k] + sa * pole[k]);
        T2[k] = S[k] + d * u[k];
    }
    /* after r1 the arm lies in the plane of u and the pole: the upper arm
     * and the forearm each turn within it (about its normal), so the
     * elbow's plane keeps its place and nothing rolls */
    double se1[3], ew1[3], se2[3], ew2[3], a1[4], a2[4], dup[4], dfo[4];
    pki_qd_rotate(r1, se, se1);
    pki_qd_rotate(r1, ew, ew1);
    pki_v3_sub(E2, S, se2);
    pki_v3_sub(T2, E2, ew2);
    pki_q_arc(se1, se2, a1);
    pki_q_arc(ew1, ew2, a2);
    pki_qd_mul(a1, r1, dup);
    pki_qd_mul(a2, r1, dfo);
    double nw[PKI_CHAIN_MAX][4];
    for (int i = 0; i < n - 1; i++)
        pki_qd_mul(i < e ? dup : dfo, w[i], nw[i]);
    memcpy(nw[n - 1], w[n - 1], sizeof nw[n - 1]);
    double keep[PKI_CHAIN_MAX][4];
    memcpy(keep, st->q[r], sizeof keep);
    locals(st, r, nw);
    if (pki_elbow_worse(z, s, r, bend0)) {
        memcpy(st->q[r], keep, sizeof keep);
        return -1;
    }
    return rc;
}

/* ---- 肩 ---- */

#define SHOULDER_MAX (PKI_SHOULDER_DEG * 3.14159265358979323846 / 180.0)

/* The turn of 肩 (about its position P, towards the target T) that
 * brings the top of the arm S within reach R of T, at most SHOULDER_MAX
 * (the most where that is not enough): its axis and angle; false when
 * none helps. */
static bool shoulder_turn(const double P[3], const double S[3], const double T[3], double R,
                          double axis[3], double *angle)
{
    double v[3], u[3];
    pki_v3_sub(S, P, v);
    pki_v3_sub(T, P, u);
    double rho = pki_v3_len(v), lu = pki_v3_len(u);
    pki_v3_cross(v, u, axis);
    double phi = pki_atan2(pki_v3_len(axis), pki_v3_dot(v, u));
    if (!(rho > 1e-9) || !(lu > 1e-9) || !pki_v3_unit(axis, 1e-9 * rho * lu))
        return false;
    double lim = fmin(phi, SHOULDER_MAX), lo = 0, hi = lim;
    /* |T - S(th)|^2 = lu^2 + rho^2 - 2 lu rho cos(phi - th), falling in th */
    if (lu * lu + rho * rho - 2.0 * lu * rho * pki_cos(phi - lim) > R * R) {
        *angle = lim;
        return lim > 1e-12;
    }
    for (int it = 0; it < 50; it++) {
        double m = (lo + hi) / 2.0;
        if (lu * lu + rho * rho - 2.0 * lu * rho * pki_cos(phi - m) > R * R)
            lo = m;
        else
            hi = m;
    }
    *angle = hi;
    return hi > 1e-12;
}

double pki_arm_short(const pki_sizing *z, int s, uint32_t r, const double w[3], double spare,
                     double S[3], double *to)
{
    const pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    /* the wrist reaches from its shoulder between the folded arm's
     * |upper - fore| and the stretched arm's upper + fore, each kept
     * spare of the whole arm inside */
    double R = (a->upper + a->fore) * (1.0 - spare), v[3];
    double in = fabs(a->upper - a->fore) + (a->upper + a->fore) * spare;
    memcpy(S, st->top[r], 3 * sizeof *S);
    pki_v3_sub(w, S, v);
    double d = pki_v3_len(v);
    if (to)
        *to = fmin(fmax(d, in), R);
    if (d < in)
        return in - d; /* 肩 turning towards it would not help */
    if (d <= R)
        return 0.0; /* within reach as it stands: 肩 would not turn */
    double ax[3], th;
    if (st->shoulder >= 0 && shoulder_turn(st->sh[r], S, w, R, ax, &th)) {
        double q[4], dd[3];
        pki_q_axis(ax, th, q);
        pki_v3_sub(S, st->sh[r], dd);
        pki_qd_rotate(q, dd, v);
        for (int k = 0; k < 3; k++)
            S[k] = st->sh[r][k] + v[k];
    }
    pki_v3_sub(w, S, v);
    d = pki_v3_len(v);
    if (to)
        *to = fmin(fmax(d, in), R);
    return fmax(0.0, d - R);
}

int pki_arm_reach_far(pki_sizing *z, int s, uint32_t r, const double target[3])
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], se[3], ew[3], st_[3];
    pki_arm_fk(st, r, false, w, p);
    pki_v3_sub(p[a->elbow], p[0], se);
    pki_v3_sub(p[a->n - 1], p[a->elbow], ew);
    pki_v3_sub(target, p[0], st_);
    double R = (pki_v3_len(se) + pki_v3_len(ew)) * (1.0 - 1e-9), ax[3], th;
    if (st->shoulder < 0 || !(pki_v3_len(st_) > R) ||
        !shoulder_turn(st->sh[r], p[0], target, R, ax, &th))
        return pki_arm_reach(z, s, r, target);
    /* 肩 turned by c in the world: the chain's parent and top with it,
     * the hand kept in its world rotation, then the arm solved */
    double keep[PKI_CHAIN_MAX][4], par[4], top[3], dsh[4];
    memcpy(keep, st->q[r], sizeof keep);
    memcpy(par, st->par[r], sizeof par);
    memcpy(top, st->top[r], sizeof top);
    memcpy(dsh, st->dsh[r], sizeof dsh);
    double c[4], v[3], d[3], inv[4], t[4], loc[4];
    pki_q_axis(ax, th, c);
    pki_v3_sub(top, st->sh[r], d);
    pki_qd_rotate(c, d, v);
    for (int k = 0; k < 3; k++)
        st->top[r][k] = st->sh[r][k] + v[k];
    pki_qd_mul(c, par, st->par[r]);
    pki_q_norm(st->par[r]);
    /* in 肩's frame: par^-1 c par */
    pki_qd_conj(par, inv);
    pki_qd_mul(inv, c, t);
    pki_qd_mul(t, par, loc);
    pki_qd_mul(dsh, loc, st->dsh[r]);
    pki_q_norm(st->dsh[r]);
    double w2[PKI_CHAIN_MAX][4], p2[PKI_CHAIN_MAX][3];
    pki_arm_fk(st, r, false, w2, p2);
    int h = a->n - 1;
    pki_qd_conj(w2[h - 1], inv);
    pki_qd_mul(inv, w[h], st->q[r][h]);
    pki_q_norm(st->q[r][h]);
    int rc = pki_arm_reach(z, s, r, target);
    if (rc >= 0)
        return rc;
    memcpy(st->q[r], keep, sizeof keep);
    memcpy(st->par[r], par, sizeof par);
    memcpy(st->top[r], top, sizeof top);
    memcpy(st->dsh[r], dsh, sizeof dsh);
    return pki_arm_reach(z, s, r, target);
}

void pki_arm_save(const pki_arm_state *st, uint32_t r, pki_arm_row *out)
{
    memcpy(out->q, st->q[r], sizeof out->q);
    memcpy(out->par, st->par[r], sizeof out->par);
    memcpy(out->top, st->top[r], sizeof out->top);
    memcpy(out->dsh, st->dsh[r], sizeof out->dsh);
}

void pki_arm_load(pki_arm_state *st, uint32_t r, const pki_arm_row *row)
{
    memcpy(st->q[r], row->q, sizeof row->q);
    memcpy(st->par[r], row->par, sizeof row->par);
    memcpy(st->top[r], row->top, sizeof row->top);
    memcpy(st->dsh[r], row->dsh, sizeof row->dsh);
}

void pki_arm_reset(pki_arm_state *st, uint32_t r)
{
    memcpy(st->q[r], st->q0[r], sizeof st->q[r]);
    if (st->shoulder < 0 || !(fabs(st->dsh[r][3]) < 1.0 - 1e-15))
        return;
    /* 肩's world rotation par is W0 dsh (W0 before the steps): par back
     * to W0 and the top turned back about 肩 by W0 par^-1 */
    double inv[4], w0[4], c[4], d[3], v[3];
    pki_qd_conj(st->dsh[r], inv);
    pki_qd_mul(st->par[r], inv, w0);
    pki_qd_conj(st->par[r], inv);
    pki_qd_mul(w0, inv, c);
    pki_v3_sub(st->top[r], st->sh[r], d);
    pki_qd_rotate(c, d, v);
    for (int k = 0; k < 3; k++)
        st->top[r][k] = st->sh[r][k] + v[k];
    memcpy(st->par[r], w0, sizeof w0);
    pki_q_norm(st->par[r]);
    st->dsh[r][0] = st->dsh[r][1] = st->dsh[r][2] = 0;
    st->dsh[r][3] = 1;
}
