/*
 * sizing_avoid.c — keeping B's forearms and hands out of B's body (sizing.h,
 * pki_avoid_step).
 *
 * B's body is its parts made of rigid bodies that follow bones
 * (figure.c); a model without them is skipped (the report says so).  At
 * every frame, nine points along each forearm and hand (ひじ -> 手首 ->
 * the hand's end) are tested against them: a point more than
 * FLAG (1% of B's arm) inside a part, where the same point of A's arm is
 * not as deep in A's same part, must come out.  The deepest such point
 * is pushed out along the part's normal to CLEAR (0.5% of B's arm)
 * inside, by the smallest turn of the whole arm about the shoulder (the
 * axis square to the point's lever and the normal), up to UPPER_MAX;
 * what is left, by turning the forearm and hand about the elbow, up to
 * ELBOW_MAX (refused when that breaks the elbow law, pki_elbow_worse); a
 * few rounds, as the next deepest point may be another.
 *
 * A hand the contact step placed (sizing_hands.c) stays where it is
 * while its elbow swinging about the shoulder-wrist line (up to
 * SWIVEL_MAX) brings the arm out; what that cannot (a straight arm, a
 * short arm across a large body) comes out as any arm does, the hand
 * leaving its contact: a forearm through the body shows more than a
 * gap.
 *
 * Over time each frame's turns (the shoulder's and the elbow's, as world
 * rotations) are eased in and out: a frame within BLEND frames of a
 * corrected one takes the largest of its neighbours' turns scaled by
 * smoothstep of the distance, its own when that is larger; a corrected
 * frame is tested again afterwards and pushed out the rest of the way.
 */
#include "ops/retarget/sizing.h"
#include "ops/retarget/vec.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLEND 6
#define FLAG 0.01
#define CLEAR 0.005
#define UPPER_MAX (30.0 * 3.14159265358979323846 / 180.0)
#define ROUNDS 12
#define SWIVEL_MAX (90.0 * 3.14159265358979323846 / 180.0)
#define ELBOW_MAX (60.0 * 3.14159265358979323846 / 180.0)

/* Point i (0..8) of the state's forearm and hand at row r. */
static void point(const pki_arm_state *st, const pki_arm *a, uint32_t r, double w[][4],
                  double p[][3], int i, double q[3])
{
    const double *e = p[a->elbow], *wr = p[a->n - 1];
    double t[3], v[3];
    pki_qd_rotate(w[a->n - 1], st->tip[r], v);
    for (int k = 0; k < 3; k++)
        t[k] = wr[k] + v[k];
    for (int k = 0; k < 3; k++)
        q[k] = i < 4 ? e[k] + (wr[k] - e[k]) * i / 4.0 : wr[k] + (t[k] - wr[k]) * (i - 4) / 4.0;
}

typedef struct deepest {
    double depth, q[3], normal[3];
} deepest;

/* The deepest point of B's arm (state) more than flag (of B's arm) inside
 * at row r that must come out; false when none. */
static bool find(const pki_sizing *z, int s, uint32_t r, double flag, deepest *out)
{
    const pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3];
    pki_arm_fk(st, r, false, w, p);
    double lb = z->b.arm_len, la = z->a.arm_len;
    out->depth = 0;
    bool any = false;
    double e[3], wr[3], t[3];
    point(st, a, r, w, p, 0, e);
    point(st, a, r, w, p, 4, wr);
    point(st, a, r, w, p, 8, t);
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (z->b.part[k].bone < 0 || !z->b.part[k].from_rigids)
            continue;
        pki_placed pl;
        pki_part_place(&z->b, &z->pb, r, k, &pl);
        if (pki_part_far(&pl, e, wr, t))
            continue;
        for (int i = 0; i < 9; i++) {
            double q[3], surf[3], n[3];
            point(st, a, r, w, p, i, q);
            double d = -pki_part_distance(&pl, q, surf, n);
            if (!(d > flag * lb) || d <= out->depth)
                continue;
            if (pki_depth_a(z, s, r, i, k) > FLAG * la)
                continue;
            out->depth = d;
            memcpy(out->q, q, sizeof out->q);
            memcpy(out->normal, n, sizeof out->normal);
            any = true;
        }
    }
    return any;
}

/* The turn about `pivot` bringing point q out along n by `by`: false when
 * the lever cannot move it that way. */
static bool turn_for(const double pivot[3], const double q[3], const double n[3], double by,
                     double limit, double out[4], double *angle)
{
    double lever[3], ax[3], v[3];
    pki_v3_sub(q, pivot, lever);
    pki_v3_cross(lever, n, ax);
    if (!pki_v3_unit(ax, 1e-9 * pki_v3_len(lever)))
        return false;
    pki_v3_cross(ax, lever, v);
    double rate = pki_v3_dot(v, n);
    if (!(rate > 1e-6 * pki_v3_len(lever)))
        return false;
    double th = fmin(by / rate, limit);
    pki_q_axis(ax, th, out);
    *angle = th;
    return true;
}

/* Applies the world turn c about the shoulder (all the arm) to row r. */
static void turn_upper(pki_arm_state *st, uint32_t r, const double c[4])
{
    double wq[4], t[4], inv[4];
    pki_qd_mul(st->par[r], st->q[r][0], wq);
    pki_qd_mul(c, wq, t);
    pki_qd_conj(st->par[r], inv);
    pki_qd_mul(inv, t, st->q[r][0]);
    pki_q_norm(st->q[r][0]);
}

/* The hand of row r back to world rotation `hand` (its chain above moved). */
static void keep_hand(pki_arm_state *st, const pki_arm *a, uint32_t r, const double hand[4])
{
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], inv[4];
    pki_arm_fk(st, r, false, w, p);
    int h = a->n - 1;
    pki_qd_conj(w[h - 1], inv);
    pki_qd_mul(inv, hand, st->q[r][h]);
    pki_q_norm(st->q[r][h]);
}

/* The turn about the shoulder-wrist line (the elbow swings round it, the
 * wrist stays) bringing point q out along n by `by`. */
static bool swivel_for(const double S[3], const double W[3], const double q[3], const double n[3],
                       double by, double limit, double out[4], double *angle)
{
    double ax[3], lever[3], v[3];
    pki_v3_sub(W, S, ax);
    if (!pki_v3_unit(ax, 1e-9))
        return false;
    pki_v3_sub(q, S, lever);
    pki_v3_cross(ax, lever, v);
    double rate = pki_v3_dot(v, n);
    if (!(fabs(rate) > 1e-6 * pki_v3_len(lever)))
        return false;
    double th = fmax(-limit, fmin(limit, by / rate));
    pki_q_axis(ax, th, out);
    *angle = fabs(th);
    return true;
}

/* Applies the world turn c about the elbow (forearm and hand) to row r. */
static void turn_elbow(pki_arm_state *st, const pki_arm *a, uint32_t r, const double c[4])
{
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], t[4], inv[4];
    pki_arm_fk(st, r, false, w, p);
    int e = a->elbow;
    pki_qd_mul(c, w[e], t);
    pki_qd_conj(w[e - 1], inv);
    pki_qd_mul(inv, t, st->q[r][e]);
    pki_q_norm(st->q[r][e]);
}

/* Pushes row r's arm out; the turns it took into up[] and el[] (world,
 * composed onto what they held).  `swivel` is how far a held hand's
 * elbow has swung already (the eased turn): SWIVEL_MAX bounds the whole.
 * Returns whether it moved; *refused when an elbow turn was refused;
 * *deep the depth it started at. */
static bool push_out(pki_sizing *z, int s, uint32_t r, double swivel, double up[4], double el[4],
                     bool *refused, double *deep)
{
    bool held = z->held[s] && z->held[s][r];
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    double lb = z->b.arm_len, used = 0, bent = 0;
    bool moved = false;
    *deep = 0;
    for (int round = 0; round < ROUNDS; round++) {
        deepest d;
        /* a frame is corrected when a point is FLAG deep, then until every
         * point is within CLEAR */
        if (!find(z, s, r, round ? CLEAR : FLAG, &d))
            break;
        if (!round)
            *deep = d.depth;
        double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], c[4], ang, t[4];
        pki_arm_fk(st, r, false, w, p);
        double by = d.depth - 0.5 * CLEAR * lb;
        if (held) {
            /* a hand the contact step placed stays: first only the elbow
             * swings (a quarter turn at most); what that cannot bring out
             * comes out as any arm does, the hand leaving its contact (a
             * forearm through the body shows more than a gap) */
            if (swivel < SWIVEL_MAX &&
                swivel_for(p[0], p[a->n - 1], d.q, d.normal, by, SWIVEL_MAX - swivel, c, &ang)) {
                turn_upper(st, r, c);
                keep_hand(st, a, r, w[a->n - 1]);
                pki_qd_mul(c, up, t);
                memcpy(up, t, sizeof t);
                swivel += ang;
                moved = true;
                if (swivel < SWIVEL_MAX)
                    continue;
            }
            held = false;
            continue;
        }
        if (used < UPPER_MAX && turn_for(p[0], d.q, d.normal, by, UPPER_MAX - used, c, &ang)) {
            turn_upper(st, r, c);
            pki_qd_mul(c, up, t);
            memcpy(up, t, sizeof t);
            used += ang;
            moved = true;
            continue;
        }
        if (bent >= ELBOW_MAX ||
            !turn_for(p[a->elbow], d.q, d.normal, by, ELBOW_MAX - bent, c, &ang))
            break;
        bent += ang;
        double keep[4], b0 = pki_elbow_past(z, s, r);
        memcpy(keep, st->q[r][a->elbow], sizeof keep);
        turn_elbow(st, a, r, c);
        if (pki_elbow_worse(z, s, r, b0)) {
            memcpy(st->q[r][a->elbow], keep, sizeof keep);
            *refused = true;
            break;
        }
        pki_qd_mul(c, el, t);
        memcpy(el, t, sizeof t);
        moved = true;
    }
    return moved;
}

static double smooth(double x)
{
    return x * x * (3.0 - 2.0 * x);
}

static double angle_of(const double q[4])
{
    double v = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    return 2.0 * pki_atan2(v, fabs(q[3]));
}

/* The eased turn of each row from the rows' own turns c[] (own[r]);
 * hold (may be NULL) marks the rows whose turn keeps the hand, and gets
 * the mark of the row each eased turn comes from. */
static void ease(uint32_t n, double (*c)[4], const bool *own, const bool *hold, double (*out)[4],
                 bool *out_hold)
{
    static const double I[4] = {0, 0, 0, 1};
    for (uint32_t r = 0; r < n; r++) {
        memcpy(out[r], own[r] ? c[r] : I, sizeof out[r]);
        if (out_hold)
            out_hold[r] = hold && own[r] && hold[r];
        double best = own[r] ? angle_of(c[r]) : 0;
        uint32_t lo = r > BLEND ? r - BLEND : 0, hi = r + BLEND < n ? r + BLEND : n - 1;
        for (uint32_t g = lo; g <= hi; g++) {
            if (!own[g] || g == r)
                continue;
            double wgt = smooth(1.0 - fabs((double)g - (double)r) / (BLEND + 1));
            double q[4];
            pki_q_slerp(I, c[g], wgt, q);
            double a = angle_of(q);
            if (a > best) {
                best = a;
                memcpy(out[r], q, sizeof q);
                if (out_hold)
                    out_hold[r] = hold && hold[g];
            }
        }
    }
}

int pki_avoid_step(pki_sizing *z, pk_sizing_report *rep, pk_log *log)
{
    if (!z->b.rigids) {
        rep->avoid_no_bodies = true;
        return 0;
    }
    rep->avoid_done = true;
    uint32_t n = z->pb.n;
    double(*up)[4] = malloc((n + 1) * sizeof *up), (*el)[4] = malloc((n + 1) * sizeof *el);
    double(*eu)[4] = malloc((n + 1) * sizeof *eu), (*ee)[4] = malloc((n + 1) * sizeof *ee);
    double(*keep)[PKI_CHAIN_MAX][4] = malloc((n + 1) * sizeof *keep);
    bool *own = malloc(n + 1), *hold = malloc(n + 1);
    int rc = -1;
    if (!up || !el || !eu || !ee || !keep || !own || !hold)
        goto done;
    for (int s = 0; s < 2; s++) {
        pki_arm_state *st = &z->arm[s];
        if (!st->n)
            continue;
        const pki_arm *a = &z->b.arm[s];
        size_t moved = 0;
        memcpy(keep, st->q, n * sizeof *keep);
        /* each frame's own turns, found on the arm as the earlier steps
         * left it */
        for (uint32_t r = 0; r < n; r++) {
            static const double I[4] = {0, 0, 0, 1};
            memcpy(up[r], I, sizeof I);
            memcpy(el[r], I, sizeof I);
            bool refused = false;
            double deep;
            own[r] = push_out(z, s, r, 0, up[r], el[r], &refused, &deep);
            if (own[r]) {
                moved++;
                rep->avoid_deepest = fmax(rep->avoid_deepest, deep);
            }
        }
        if (!moved)
            continue;
        /* eased over time, applied to the arm as it was, then any frame
         * still inside pushed the rest of the way */
        memcpy(st->q, keep, n * sizeof *keep);
        ease(n, up, own, z->held[s], eu, hold);
        ease(n, el, own, NULL, ee, NULL);
        for (uint32_t r = 0; r < n; r++) {
            if (angle_of(eu[r]) < 1e-12 && angle_of(ee[r]) < 1e-12)
                continue;
            double w0[PKI_CHAIN_MAX][4], p0[PKI_CHAIN_MAX][3];
            pki_arm_fk(st, r, false, w0, p0);
            turn_upper(st, r, eu[r]);
            if (hold[r])
                keep_hand(st, a, r, w0[a->n - 1]);
            if (angle_of(ee[r]) >= 1e-12) {
                double q[4], b0 = pki_elbow_past(z, s, r);
                memcpy(q, st->q[r][a->elbow], sizeof q);
                turn_elbow(st, a, r, ee[r]);
                if (pki_elbow_worse(z, s, r, b0)) {
                    memcpy(st->q[r][a->elbow], q, sizeof q);
                    rep->refused++;
                }
            }
            rep->avoid_frames++;
            double u[4], e2[4], deep;
            static const double I[4] = {0, 0, 0, 1};
            memcpy(u, I, sizeof u);
            memcpy(e2, I, sizeof e2);
            bool refused = false;
            push_out(z, s, r, hold[r] ? angle_of(eu[r]) : 0, u, e2, &refused, &deep);
            rep->refused += refused;
            /* the turn the upper arm took in the world and the change of
             * the elbow's bend, all told */
            double w1[PKI_CHAIN_MAX][4], p1[PKI_CHAIN_MAX][3], d[4], inv[4], l0[4], l1[4];
            pki_arm_fk(st, r, false, w1, p1);
            pki_qd_conj(w0[0], inv);
            pki_qd_mul(w1[0], inv, d);
            rep->avoid_deg = fmax(rep->avoid_deg, angle_of(d) * 180.0 / 3.14159265358979323846);
            int e = a->elbow;
            pki_qd_conj(w0[e - 1], inv);
            pki_qd_mul(inv, w0[e], l0);
            pki_qd_conj(w1[e - 1], inv);
            pki_qd_mul(inv, w1[e], l1);
            pki_qd_conj(l0, inv);
            pki_qd_mul(l1, inv, d);
            rep->avoid_elbow_deg =
                fmax(rep->avoid_elbow_deg, angle_of(d) * 180.0 / 3.14159265358979323846);
        }
    }
    rc = 0;
done:
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    free(up);
    free(el);
    free(eu);
    free(ee);
    free(keep);
    free(own);
    free(hold);
    return rc;
}
