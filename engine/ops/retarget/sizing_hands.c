/*
 * sizing_hands.c — the contact step (sizing.h, pki_hands_step): where A's hands
 * touch something, B's touch the same thing at the same place, scaled.
 *
 * Targets, per frame of a contact (contacts.c), for the point of the hand
 * that touches on A (the same fraction of the way from wrist to hand's
 * end on B):
 *   - the other hand: the two points meet around their midpoint on B,
 *     apart as A's are times k (B's arm over A's), in A's direction;
 *   - a part: A's nearest surface point is carried to B's part (the same
 *     place in the part's bounding box at rest, then onto B's surface),
 *     and the point lands off it along B's normal by A's gap times k;
 *   - the floor: the point at A's height times k.
 * A part's gap goal is A's gap times k, or 0 where A's hand is inside
 * A's part (pki_gap_goal); the whole hand then moves along the part's
 * normal until its nearest point stands off by that goal.  A spot whose
 * wrist target lies beyond the shoulder's reach moves to the nearest
 * spot of the part that does not (within_reach); one nearer the shoulder
 * than the folded arm comes (a hand on a chibi's large head seen from a
 * tall figure's shoulder) stays where it is; what stays out of reach is
 * counted on the contact (unreachable, short_by).  A placed hand is kept
 * out of B's rigid bodies where A's is not as deep in A's (keep_out; two
 * touching hands together, forearms included).
 * A hand in several contacts at once (two hands touching each other
 * count as one group, their touch kept, moving together: hands folded on
 * the hips) takes the offset that holds its contacts best: the least sum
 * of their gap errors, the wrist within its arm's reach and the hand and
 * forearm out of B's body (group_choose: the mean of the contacts' own
 * offsets, each one's alone, none and the row before's tried, then a
 * simplex search from the best), so a hand whose contacts all hold
 * somewhere holds them, and one whose contacts conflict holds those it
 * can rather than none.  The hand moves as a whole (its world rotation
 * kept): the wrist's target is the point's target minus the point's
 * offset from the wrist.
 *
 * Blending: the offset (target - where B's wrist was) is eased in over
 * BLEND frames before a contact and out after it (smoothstep), and
 * between two contacts of one hand less than 2 BLEND frames apart it goes
 * linearly from one to the other; away from contacts nothing moves.
 * Each moved frame is solved (sizing_arm.c); a solve the elbow law
 * refuses leaves the arm as it was, counted on the contacts of that hand
 * at that frame (refused).
 */
#include "ops/retarget/sizing.h"
#include "math/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLEND 6
#define REACH_ROUNDS 8 /* pulls of a goal into reach and back onto the surface */
#define GAP_ROUNDS 3   /* moves of a hand along the normal to its gap */
#define OUT_ROUNDS 6   /* moves of two touching hands out of the body */
#define CLEAR 0.005    /* of B's arm: how deep a hand may lie inside B's body */
#define SWING_STEPS 6  /* turns each way of a swung elbow (elbow_swung) ... */
#define SWING_STEP (15.0 * 3.14159265358979323846 / 180.0) /* ... each this much more */

/* B's hands (wrists, ends) from the arm states at row r. */
static void hands_now(const pki_sizing *z, uint32_t r, double w[2][3], double t[2][3])
{
    for (int s = 0; s < 2; s++) {
        const pki_arm_state *st = &z->arm[s];
        if (!st->n) {
            if (z->b.arm[s].ok)
                pki_hand_at(&z->b, &z->pb, r, s, w[s], t[s]);
            continue;
        }
        double rot[PKI_CHAIN_MAX][4], pos[PKI_CHAIN_MAX][3], v[3];
        pki_arm_fk(st, r, false, rot, pos);
        memcpy(w[s], pos[st->nb - 1], sizeof w[s]);
        pki_qd_rotate(rot[st->nb - 1], st->tip[r], v);
        for (int k = 0; k < 3; k++)
            t[s][k] = w[s][k] + v[k];
    }
}

/* A goal on part pb (off its surface by gap along the normal) that the
 * wrist of hand s reaches at row r, the touching point being hv from the
 * wrist (the hand keeps its world rotation): the goal itself when it is
 * within reach, else the point of the part's surface nearest to it that
 * is (alternately pulled into the shoulder's reach and put back on the
 * surface); one nearer the shoulder than the folded arm comes is left
 * where it is (sliding it over the part to where the folded arm reaches
 * swung both elbows behind a classic figure's head where a chibi's were
 * in front, and moved its centre of gravity past the body step's goal);
 * *short_by the distance still out of reach (0: reached). */
static void within_reach(const pki_sizing *z, int s, uint32_t r, const pki_placed *pb,
                         const double hv[3], double gap, double goal[3], double *short_by)
{
    *short_by = 0;
    for (int it = 0; it < REACH_ROUNDS; it++) {
        double v[3], p[3], surf[3], nrm[3], wg[3], S[3], to;
        for (int k = 0; k < 3; k++)
            wg[k] = goal[k] - hv[k];
        *short_by = pki_arm_short(z, s, r, wg, 1e-3, S, &to);
        pki_v3_sub(wg, S, v);
        double L = pki_v3_len(v);
        if (!(*short_by > 0) || !(L > 0))
            return;
        if (to > L)
            return; /* nearer the shoulder than the folded arm: counted */
        for (int k = 0; k < 3; k++)
            p[k] = S[k] + v[k] * (L - *short_by) / L + hv[k];
        pki_part_distance(pb, p, surf, nrm);
        for (int k = 0; k < 3; k++)
            goal[k] = surf[k] + nrm[k] * gap;
    }
}

/* Where the touching point of hand s goes at row r for contact c (not
 * the hands' contact), from A's touch ta; hv is the point's offset from
 * the wrist. */
static bool goal_of(const pki_sizing *z, const pki_contact *c, uint32_t r, const pki_touch *ta,
                    const double q[3], const double hv[3], double goal[3], double *short_by)
{
    *short_by = 0;
    if (c->with == PKI_WITH_FLOOR) {
        memcpy(goal, q, 3 * sizeof *goal);
        goal[1] = pki_gap_goal(z, ta->gap);
        return true;
    }
    if (z->b.part[c->with].bone < 0)
        return false;
    pki_placed pa, pb;
    pki_part_place(&z->a, &z->pa, r, c->with, &pa);
    pki_part_place(&z->b, &z->pb, r, c->with, &pb);
    double carried[3], surf[3], nrm[3];
    pki_part_carry(&pa, &pb, ta->surf, carried);
    pki_part_distance(&pb, carried, surf, nrm);
    for (int k = 0; k < 3; k++)
        goal[k] = surf[k] + nrm[k] * pki_gap_goal(z, ta->gap);
    within_reach(z, c->side, r, &pb, hv, pki_gap_goal(z, ta->gap), goal, short_by);
    return true;
}

/* The offset of hand s at row r for contact c (not the hands'), with the
 * hand already moved by `moved`: the touching point to its goal, then
 * the whole hand along the part's normal until its nearest point (the
 * gap is the least over the hand, a finger may come nearer than the
 * point that touches on A) stands off the part by A's gap times k. */
static bool part_offset(const pki_sizing *z, const pki_contact *c, uint32_t r, const double w[2][3],
                        const double t[2][3], const double moved[3], double d[3], double *short_by)
{
    pki_touch ta;
    if (!isfinite(pki_touch_at(&z->a, &z->pa, r, c->side, c->with, &ta)))
        return false;
    int s = c->side;
    double q[3], goal[3], hv[3];
    for (int k = 0; k < 3; k++) {
        hv[k] = ta.at[0] * (t[s][k] - w[s][k]);
        q[k] = w[s][k] + hv[k] + moved[k];
    }
    if (!goal_of(z, c, r, &ta, q, hv, goal, short_by))
        return false;
    pki_v3_sub(goal, q, d);
    if (*short_by > 0)
        return true;
    double want = pki_gap_goal(z, ta.gap);
    for (int it = 0; it < GAP_ROUNDS; it++) {
        double w2[2][3], t2[2][3];
        memcpy(w2, w, sizeof w2);
        memcpy(t2, t, sizeof t2);
        for (int k = 0; k < 3; k++) {
            w2[s][k] += moved[k] + d[k];
            t2[s][k] += moved[k] + d[k];
        }
        pki_touch tb;
        double g = pki_touch_with(&z->b, &z->pb, r, s, c->with, (const double(*)[3])w2,
                                  (const double(*)[3])t2, &tb);
        if (!isfinite(g) || fabs(g - want) <= 1e-4 * z->b.arm_len)
            break;
        for (int k = 0; k < 3; k++)
            d[k] += tb.normal[k] * (want - g);
    }
    return true;
}

/* The offsets of both hands at row r for the hands' contact c: the
 * touching points meet around their midpoint on B, apart as on A times
 * k. */
static bool hands_offset(const pki_sizing *z, const pki_contact *c, uint32_t r,
                         const double w[2][3], const double t[2][3], double d[2][3])
{
    pki_touch ta;
    if (!isfinite(pki_touch_at(&z->a, &z->pa, r, c->side, c->with, &ta)))
        return false;
    double pa[2][3], qb[2][3];
    for (int h = 0; h < 2; h++) {
        double wa[3], ea[3];
        pki_hand_at(&z->a, &z->pa, r, h, wa, ea);
        double f = h == c->side ? ta.at[0] : ta.at[1];
        for (int k = 0; k < 3; k++) {
            pa[h][k] = wa[k] + f * (ea[k] - wa[k]);
            qb[h][k] = w[h][k] + f * (t[h][k] - w[h][k]);
        }
    }
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 3; k++) {
            double mid = (qb[0][k] + qb[1][k]) / 2.0, v = (pa[h][k] - pa[!h][k]) * z->k / 2.0;
            d[h][k] = mid + v - qb[h][k];
        }
    return true;
}

static double smooth(double x)
{
    return x * x * (3.0 - 2.0 * x);
}

/* How far out of the reach of B's arm s (beyond the stretched arm or
 * nearer the shoulder than the folded one) the wrist's target w + d lies
 * at row r (0: within it). */
static double beyond(const pki_sizing *z, int s, uint32_t r, const double w[3], const double d[3])
{
    double v[3], S[3];
    for (int k = 0; k < 3; k++)
        v[k] = w[k] + d[k];
    return pki_arm_short(z, s, r, v, 0, S, NULL);
}

/* Each contact active at row r: whether a hand of it is set a target
 * out of its arm's reach, counted on the contact. */
static void tally_reach(pki_sizing *z, uint32_t r, const double w[2][3], double (*d[2])[3],
                        bool *has[2])
{
    for (size_t i = 0; i < z->contacts.n; i++) {
        pki_contact *c = &z->contacts.v[i];
        if (r < c->first || r > c->last)
            continue;
        double worst = 0;
        for (int s = 0; s < 2; s++)
            if ((s == c->side || c->with == PKI_WITH_HAND) && z->arm[s].n && has[s][r])
                worst = fmax(worst, beyond(z, s, r, w[s], d[s][r]));
        if (worst > 1e-3 * z->b.arm_len) {
            c->unreachable++;
            c->short_by = fmax(c->short_by, worst);
            if (c->beyond)
                c->beyond[r - c->first] |= PKI_BEYOND_REACH;
        }
    }
}

/* How deep the forearm of hand h from elbow E to wrist W lies at row r
 * in B's parts made of rigid bodies (its four points as deepest_of takes
 * them, those A's same point is as deep in A's same part left out);
 * negative: that far out. */
static double forearm_depth(pki_sizing *z, uint32_t r, int h, const double E[3], const double W[3])
{
    double deep = -HUGE_VAL;
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (z->b.part[k].bone < 0 || !z->b.part[k].from_rigids)
            continue;
        pki_placed pl;
        pki_part_place(&z->b, &z->pb, r, k, &pl);
        if (pki_part_far(&pl, E, W, W))
            continue;
        for (int i = 0; i < 4; i++) {
            double q[3];
            for (int c = 0; c < 3; c++)
                q[c] = E[c] + (W[c] - E[c]) * i / 4.0;
            double x = -pki_part_distance(&pl, q, NULL, NULL);
            if (x > deep && pki_depth_a(z, h, r, i, k) <= 0.01 * z->a.arm_len)
                deep = x;
        }
    }
    return deep;
}

/* The elbow E of an arm from S to wrist W swung about the line S-W (the
 * wrist kept) by the least of SWING_STEPS turns each way that takes the
 * forearm no more than CLEAR of B's arm into B's body, else by the one
 * that leaves it least deep: as the avoid step swings the elbow of a hand
 * the contact step placed (sizing_avoid.c). */
static void elbow_swung(pki_sizing *z, uint32_t r, int h, const double S[3], const double W[3],
                        double E[3])
{
    double lim = CLEAR * z->b.arm_len, best = forearm_depth(z, r, h, E, W), ax[3], v[3], bE[3];
    if (!(best > lim))
        return;
    pki_v3_sub(W, S, ax);
    if (!pki_v3_unit(ax, 1e-9))
        return;
    pki_v3_sub(E, S, v);
    memcpy(bE, E, sizeof bE);
    for (int i = 1; i <= SWING_STEPS && best > lim; i++)
        for (int sg = -1; sg <= 1 && best > lim; sg += 2) {
            double q[4], u[3], E2[3];
            pki_q_axis(ax, sg * i * SWING_STEP, q);
            pki_qd_rotate(q, v, u);
            for (int c = 0; c < 3; c++)
                E2[c] = S[c] + u[c];
            double x = forearm_depth(z, r, h, E2, W);
            if (x < best) {
                best = x;
                memcpy(bE, E2, sizeof bE);
            }
        }
    memcpy(E, bE, 3 * sizeof *E);
}

/* The deepest point (more than `deep` inside) of hand h moved by off at
 * row r in B's parts made of rigid bodies: the hand (wrist to its end)
 * and, for two hands that move together (forearms), the forearm as the
 * arm solved to that place would hold it (swung: its elbow swung out of
 * the body about the shoulder-wrist line, elbow_swung, as the avoid step
 * will).  Into *deep and nrm. */
static void deepest_of(pki_sizing *z, uint32_t r, int h, const double w[3], const double t[3],
                       const double off[3], bool forearm, bool swung, double *deep,
                       double nrm[3])
{
    double q[9][3], e[3], ws[3];
    int nq = 0, at[9]; /* each point's number among A's nine (pki_depth_a) */
    for (int i = 0; i <= 4; i++, nq++) {
        for (int c = 0; c < 3; c++)
            q[nq][c] = w[c] + off[c] + (t[c] - w[c]) * i / 4.0;
        at[nq] = 4 + i;
    }
    if (forearm) {
        pki_arm_state *st = &z->arm[h];
        const pki_arm *a = &z->b.arm[h];
        double keep[PKI_CHAIN_MAX][4], goal[3], rw[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3];
        memcpy(keep, st->q[r], sizeof keep);
        for (int c = 0; c < 3; c++)
            goal[c] = w[c] + off[c];
        if (pki_arm_reach(z, h, r, goal) >= 0) {
            pki_arm_fk(st, r, false, rw, p);
            if (swung)
                elbow_swung(z, r, h, p[0], p[a->n - 1], p[a->elbow]);
            memcpy(e, p[a->elbow], sizeof e);
            memcpy(ws, p[a->n - 1], sizeof ws);
            for (int i = 0; i < 4; i++, nq++) {
                for (int c = 0; c < 3; c++)
                    q[nq][c] = p[a->elbow][c] + (p[a->n - 1][c] - p[a->elbow][c]) * i / 4.0;
                at[nq] = i;
            }
        }
        memcpy(st->q[r], keep, sizeof keep);
    }
    /* the hand's points, and the forearm's (elbow to wrist) if any */
    if (nq == 5) {
        memcpy(e, q[0], sizeof e);
        memcpy(ws, q[0], sizeof ws);
    }
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (z->b.part[k].bone < 0 || !z->b.part[k].from_rigids)
            continue;
        pki_placed pl;
        pki_part_place(&z->b, &z->pb, r, k, &pl);
        if (pki_part_far(&pl, e, ws, ws) && pki_part_far(&pl, q[0], q[0], q[4]))
            continue;
        for (int i = 0; i < nq; i++) {
            double n[3], x = -pki_part_distance(&pl, q[i], NULL, n);
            /* as deep inside as A's is in A's same part: no penetration */
            if (x > *deep && pki_depth_a(z, h, r, at[i], k) <= 0.01 * z->a.arm_len) {
                *deep = x;
                memcpy(nrm, n, 3 * sizeof *nrm);
            }
        }
    }
}

/* The hands that moved (offsets d at row r) kept out of B's body: while a
 * point of a hand (wrist to the hand's end) lies more than CLEAR of B's
 * arm inside a part made of B's rigid bodies (and A's same point is not
 * inside A's same part), the hand moves out along
 * that part's normal; two hands touching each other (both) move
 * together, so their touch is kept (where they meet on B is free), and
 * out of the way of their forearms too (swung: the forearms as the
 * avoid step will swing them, for a split group's place). */
static void keep_out(pki_sizing *z, uint32_t r, const double w[2][3], const double t[2][3],
                     double (*d[2])[3], bool *has[2], bool both, bool swung)
{
    if (!z->b.rigids)
        return;
    double lb = z->b.arm_len;
    for (int s = 0; s < 2; s++) {
        if (!has[s][r] || (both && s))
            continue;
        for (int round = 0; round < OUT_ROUNDS; round++) {
            double deep = CLEAR * lb, nrm[3] = {0, 0, 0};
            for (int h = 0; h < 2; h++)
                if (h == s || both)
                    deepest_of(z, r, h, w[h], t[h], d[h][r], both, swung, &deep, nrm);
            if (!(deep > CLEAR * lb))
                break;
            for (int h = 0; h < 2; h++)
                if (h == s || both)
                    for (int c = 0; c < 3; c++)
                        d[h][r][c] += nrm[c] * (deep - 0.5 * CLEAR * lb);
        }
    }
}

/* How much of the offset o two touching hands (each at w[s] moved by
 * hd[s]) can take together while both stay within their arms' reach:
 * the most, from 0 to 1; their touch comes before the other contacts
 * (hands folded on the hips of a figure whose arms are too short keep
 * touching, above the hips). */
static double shared_reach(const pki_sizing *z, uint32_t r, const double w[2][3],
                           const double hd[2][3], const double o[3])
{
    double lo = 0, hi = 1;
    for (int it = 0; it < 24; it++) {
        double f = it ? (lo + hi) / 2 : 1.0, worst = 0;
        for (int s = 0; s < 2; s++) {
            double v[3];
            for (int k = 0; k < 3; k++)
                v[k] = hd[s][k] + f * o[k];
            double b0 = beyond(z, s, r, w[s], hd[s]);
            worst = fmax(worst, beyond(z, s, r, w[s], v) - b0);
        }
        if (!(worst > 1e-4 * z->b.arm_len)) {
            if (!it)
                return 1.0;
            lo = f;
        } else {
            hi = f;
        }
    }
    return lo;
}

/* ---- several contacts of one hand at once ---- */

#define GROUP_MAX 16    /* contacts of one row a group weighs */
#define SOLVE_EVALS 160 /* trials of the simplex search */
#define MORE_EVALS 60   /* ... from each further start */
#define REACH_COST 1e3  /* cost of a wrist target per unit out of its arm's reach */
#define BODY_COST 10.0  /* per unit a hand or forearm lies inside B's body */
#define APART 0.05      /* of B's arm: a contact further off at its group's best is apart */
#define SPREAD 0.15     /* of B's arm: the further starts of a group's search */
#define SHARE 0.02      /* of B's arm: past it a contact's error weighs SHARE_COST more */
#define SHARE_COST 10.0 /* ... in the search that shares the error out (group_choose) */
#define SHARE_DEEP 0.0025 /* of B's arm: how much deeper into B's body that search may go */
#define SPLIT_STARTS 9    /* starts of the search with each hand its own offset */
#define SPLIT_EVALS 400   /* ... its trials from each */
#define SPLIT_BODY 500.0  /* its cost per unit inside B's body: out of it before the errors */
#define SPLIT_EDGE 0.045  /* of B's arm: past it an error weighs SPLIT_EDGE_COST more there */
#define SPLIT_EDGE_COST 100.0

/* The hands that move together at a row (one hand, or both touching each
 * other) by a common offset o on top of base[]: what their contacts ask. */
typedef struct group {
    pki_sizing *z;
    uint32_t r;
    const double (*w)[3], (*t)[3];
    double base[2][3];
    bool hand[2];
    int n;
    size_t c[GROUP_MAX]; /* its contacts (of z->contacts) */
    double goal[GROUP_MAX];
    bool share; /* an error past SHARE weighs SHARE_COST more (group_choose) */
    bool split; /* two hands, each its own offset: o[0..3) the left's, o[3..6) the right's */
    double body; /* the cost per unit inside B's body (of B's arm) */
    bool edge;   /* an error past SPLIT_EDGE weighs SPLIT_EDGE_COST more (split_choose) */
    bool had;    /* prev: each hand's offset the row before (split_choose's first start) */
    double prev[6];
} group;

/* The group's contacts at its row: the gap goal of each. */
static void group_init(group *g, pki_sizing *z, uint32_t r, const double w[2][3],
                       const double t[2][3], const bool hand[2], const double base[2][3])
{
    memset(g, 0, sizeof *g);
    g->z = z;
    g->r = r;
    g->w = w;
    g->t = t;
    memcpy(g->hand, hand, sizeof g->hand);
    memcpy(g->base, base, sizeof g->base);
    g->body = BODY_COST;
    for (size_t i = 0; i < z->contacts.n && g->n < GROUP_MAX; i++) {
        const pki_contact *c = &z->contacts.v[i];
        if (r < c->first || r > c->last || !hand[c->side] ||
            (c->with == PKI_WITH_HAND && !(hand[0] && hand[1])))
            continue;
        double ga = pki_touch_at(&z->a, &z->pa, r, c->side, c->with, NULL);
        if (!isfinite(ga))
            continue;
        g->c[g->n] = i;
        g->goal[g->n++] = pki_gap_goal(z, ga);
    }
}

/* Each contact's gap error (of B's arm) into e (may be NULL) with the
 * group's hands moved by base + o; returns their sum plus REACH_COST per
 * arm beyond reach and BODY_COST per hand or forearm inside B's body. */
static double group_eval(const group *g, const double *o, double e[GROUP_MAX])
{
    pki_sizing *z = g->z;
    double w2[2][3], t2[2][3], v[2][3], cost = 0, lb = z->b.arm_len;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++) {
            v[s][k] = g->hand[s] ? g->base[s][k] + o[g->split ? 3 * s + k : k] : 0.0;
            w2[s][k] = g->w[s][k] + v[s][k];
            t2[s][k] = g->t[s][k] + v[s][k];
        }
    for (int i = 0; i < g->n; i++) {
        const pki_contact *c = &z->contacts.v[g->c[i]];
        double gb = pki_touch_with(&z->b, &z->pb, g->r, c->side, c->with, (const double(*)[3])w2,
                                   (const double(*)[3])t2, NULL);
        double x = isfinite(gb) ? fabs(gb - g->goal[i]) / lb : 1.0;
        if (e)
            e[i] = x;
        cost += x + (g->share && x > SHARE ? SHARE_COST * (x - SHARE) : 0.0) +
                (g->edge && x > SPLIT_EDGE ? SPLIT_EDGE_COST * (x - SPLIT_EDGE) : 0.0);
    }
    for (int s = 0; s < 2; s++)
        if (g->hand[s] && z->arm[s].n)
            cost += REACH_COST * beyond(z, s, g->r, g->w[s], v[s]) / lb;
    if (z->b.rigids)
        for (int s = 0; s < 2; s++) {
            if (!g->hand[s] || !z->arm[s].n)
                continue;
            double deep = CLEAR * lb, nrm[3];
            deepest_of(z, g->r, s, g->w[s], g->t[s], v[s], true, g->split, &deep, nrm);
            cost += g->body * (deep - CLEAR * lb) / lb;
        }
    return cost;
}

static double group_cost(const group *g, const double *o)
{
    return group_eval(g, o, NULL);
}

/* The least cost offset near o (a simplex search, steps from a few
 * percent of B's arm down; 3 coordinates, 6 for a split group); *cost its
 * cost. */
static void group_solve(const group *g, int evals, double *o, double *cost)
{
    enum { DMAX = 6 };
    int dim = g->split ? 6 : 3, nv = dim + 1;
    double x[DMAX + 1][DMAX], f[DMAX + 1], h = 0.03 * g->z->b.arm_len;
    for (int i = 0; i < nv; i++) {
        memcpy(x[i], o, dim * sizeof *o);
        if (i)
            x[i][i - 1] += h;
        f[i] = group_cost(g, x[i]);
    }
    for (int ev = nv; ev < evals;) {
        /* order: x[0] best, x[dim] worst */
        for (int i = 1; i < nv; i++)
            for (int j = i; j > 0 && f[j] < f[j - 1]; j--) {
                double tf = f[j], tx[DMAX];
                f[j] = f[j - 1];
                f[j - 1] = tf;
                memcpy(tx, x[j], sizeof tx);
                memcpy(x[j], x[j - 1], sizeof tx);
                memcpy(x[j - 1], tx, sizeof tx);
            }
        double size = 0;
        for (int i = 1; i < nv; i++) {
            double dd = 0;
            for (int k = 0; k < dim; k++)
                dd += (x[i][k] - x[0][k]) * (x[i][k] - x[0][k]);
            size = fmax(size, sqrt(dd));
        }
        if (size < 1e-4 * g->z->b.arm_len || f[dim] - f[0] < 1e-7)
            break;
        double c[DMAX] = {0}, xr[DMAX], xe[DMAX], xc[DMAX];
        for (int i = 0; i < dim; i++)
            for (int k = 0; k < dim; k++)
                c[k] += x[i][k] / dim;
        for (int k = 0; k < dim; k++)
            xr[k] = c[k] + (c[k] - x[dim][k]);
        double fr = group_cost(g, xr);
        ev++;
        if (fr < f[0]) {
            for (int k = 0; k < dim; k++)
                xe[k] = c[k] + 2.0 * (c[k] - x[dim][k]);
            double fe = group_cost(g, xe);
            ev++;
            memcpy(x[dim], fe < fr ? xe : xr, sizeof xe);
            f[dim] = fmin(fe, fr);
        } else if (fr < f[dim - 1]) {
            memcpy(x[dim], xr, sizeof xr);
            f[dim] = fr;
        } else {
            bool out = fr < f[dim];
            for (int k = 0; k < dim; k++)
                xc[k] = c[k] + 0.5 * ((out ? xr[k] : x[dim][k]) - c[k]);
            double fc = group_cost(g, xc);
            ev++;
            if (fc < fmin(fr, f[dim])) {
                memcpy(x[dim], xc, sizeof xc);
                f[dim] = fc;
            } else {
                for (int i = 1; i < nv; i++) {
                    for (int k = 0; k < dim; k++)
                        x[i][k] = x[0][k] + 0.5 * (x[i][k] - x[0][k]);
                    f[i] = group_cost(g, x[i]);
                    ev++;
                }
            }
        }
    }
    int b = 0;
    for (int i = 1; i < nv; i++)
        if (f[i] < f[b])
            b = i;
    memcpy(o, x[b], dim * sizeof *o);
    *cost = f[b];
}

/* Whether any of the n errors e is more than APART. */
static bool any_apart(const double *e, int n)
{
    for (int i = 0; i < n; i++)
        if (e[i] > APART)
            return true;
    return false;
}

/* A split group's place o weighed plainly (no sharing, no edge, B's body
 * at BODY_COST): each contact's error into e, the worst into *worst;
 * returns what lies beyond reach or inside B's body (the cost less the
 * errors), to compare with the place it would replace. */
static double split_settle(const group *g, const double o[6], double e[GROUP_MAX], double *worst)
{
    group sp = *g;
    sp.split = true;
    sp.share = sp.edge = false;
    sp.body = BODY_COST;
    double pen = group_eval(&sp, o, e);
    *worst = 0;
    for (int i = 0; i < g->n; i++) {
        *worst = fmax(*worst, e[i]);
        pen -= e[i];
    }
    return pen;
}

/* Two touching hands whose contacts the common offset cannot hold
 * together: each hand its own offset (their touch one contact among the
 * others, the hands sliding along each other), searched from the row
 * before's (taken where it holds every contact within APART), else also
 * from both at o and from eight more starts (the hands SPREAD
 * of B's arm down, up, apart, together, forwards), the errors shared out
 * as in group_choose and each past SPLIT_EDGE weighing SPLIT_EDGE_COST
 * more, B's body SPLIT_BODY per unit inside (out of it first).  Taken
 * into o (6) and e where its worst error is less than o's and it lies no
 * further beyond reach or into B's body than o (SHARE_DEEP); a contact
 * still more than APART off stays apart.  Its forearms are weighed with
 * each elbow swung out of B's body (elbow_swung), as the avoid step
 * will swing the elbow of a hand placed so.  SD Mei's folded hands on
 * Mei: on Mei's thighs beside its large hips, the hands' touch slid,
 * the elbows swung out of the hips.  True where it took a place. */
static bool split_choose(const group *g, double o[6], double e[GROUP_MAX])
{
    group sp = *g;
    sp.split = true;
    double pen0 = group_eval(&sp, o, NULL);
    for (int i = 0; i < g->n; i++)
        pen0 -= e[i];
    sp.share = sp.edge = true;
    sp.body = SPLIT_BODY;
    double best[6], fb = HUGE_VAL, L = g->z->b.arm_len;
    double es[GROUP_MAX];
    if (g->had) {
        /* the row before's places, where they still hold every contact
         * no deeper, are taken without the other starts */
        double f;
        memcpy(best, g->prev, sizeof best);
        group_solve(&sp, SPLIT_EVALS, best, &f);
        fb = f;
        double worst, pen = split_settle(&sp, best, es, &worst);
        if (worst <= APART && pen <= pen0 + BODY_COST * SHARE_DEEP) {
            memcpy(o, best, sizeof best);
            memcpy(e, es, g->n * sizeof *e);
            return true;
        }
    }
    static const double step[SPLIT_STARTS][6] = {
        {0, 0, 0, 0, 0, 0},   {0, -1, 0, 0, -1, 0}, {0, 1, 0, 0, 1, 0},  {1, 0, 0, -1, 0, 0},
        {-1, 0, 0, 1, 0, 0},  {0, 0, 1, 0, 0, 1},   {0, -1, 1, 0, -1, 1}, {1, -1, 0, -1, -1, 0},
        {-1, -1, 0, 1, -1, 0}};
    for (int a = 0; a < SPLIT_STARTS; a++) {
        double x[6], f;
        for (int k = 0; k < 6; k++)
            x[k] = o[k] + step[a][k] * SPREAD * L;
        group_solve(&sp, SPLIT_EVALS, x, &f);
        if (f < fb) {
            fb = f;
            memcpy(best, x, sizeof best);
        }
    }
    double worst, worst0 = 0, pen = split_settle(&sp, best, es, &worst);
    for (int i = 0; i < g->n; i++)
        worst0 = fmax(worst0, e[i]);
    if (!(worst < worst0 && pen <= pen0 + BODY_COST * SHARE_DEEP))
        return false;
    memcpy(o, best, sizeof best);
    memcpy(e, es, g->n * sizeof *e);
    return true;
}

/* Rows of contacts: the offset of each hand at each (has[s][r]).  A hand
 * in several contacts at once: the mean of their offsets; hands touching
 * each other move together by the mean offset of the other contacts
 * either has. */
/* The offset of a group that holds its contacts best: of the candidates
 * cand[0..nc) (the mean of the contacts' own offsets first, each
 * contact's alone, none, the row before's), the least cost one, then
 * searched from there; where a contact is still more than APART off,
 * searched again from six more starts (SPREAD of B's arm away along each
 * axis), and then for a place that shares the error out (each error past
 * SHARE weighing SHARE_COST more), kept where it holds every contact
 * within APART: all held a little off rather than one let go.  A contact
 * more than APART off at the best found cannot hold together with the
 * others (none of its group's wrist places within reach, hand and
 * forearm out of B's body, holds it without letting the others go
 * further): marked PKI_BEYOND_APART, its error there the bound.  Where
 * the group has one contact, cand[0].  True where each hand took its
 * own place (split_choose). */
static bool group_choose(const group *g, const double (*cand)[3], int nc, double o[6])
{
    memcpy(o, cand[0], 3 * sizeof *o);
    memcpy(o + 3, cand[0], 3 * sizeof *o);
    if (g->n < 2)
        return false;
    double best = group_cost(g, o);
    for (int i = 1; i < nc; i++) {
        double f = group_cost(g, cand[i]);
        if (f < best) {
            best = f;
            memcpy(o, cand[i], 3 * sizeof *o);
        }
    }
    double x[3], f, e[GROUP_MAX], from[3];
    memcpy(x, o, sizeof x);
    group_solve(g, SOLVE_EVALS, x, &f);
    if (f < best) {
        best = f;
        memcpy(o, x, sizeof x);
    }
    memcpy(o + 3, o, 3 * sizeof *o);
    group_eval(g, o, e);
    if (!any_apart(e, g->n))
        return false;
    memcpy(from, o, sizeof from);
    for (int a = 0; a < 6; a++) {
        memcpy(x, from, sizeof x);
        x[a / 2] += (a % 2 ? -SPREAD : SPREAD) * g->z->b.arm_len;
        group_solve(g, MORE_EVALS, x, &f);
        if (f < best) {
            best = f;
            memcpy(o, x, sizeof x);
        }
    }
    double pen0 = group_eval(g, o, e);
    if (any_apart(e, g->n)) {
        group sh = *g;
        sh.share = true;
        double es[GROUP_MAX];
        memcpy(x, o, sizeof x);
        group_solve(&sh, SOLVE_EVALS, x, &f);
        /* every contact within APART, and no further beyond reach or
         * into the body than the best place found (a hand or forearm
         * SHARE_DEEP of B's arm deeper at most: the avoid step still
         * takes anything FLAG deep out) */
        double pen = group_eval(g, x, es);
        bool held = true;
        for (int i = 0; i < g->n; i++) {
            held &= es[i] <= APART;
            pen -= es[i];
            pen0 -= e[i];
        }
        held &= pen <= pen0 + BODY_COST * SHARE_DEEP;
        if (held) {
            memcpy(o, x, sizeof x);
            memcpy(e, es, sizeof es);
        }
    }
    memcpy(o + 3, o, 3 * sizeof *o);
    bool split = any_apart(e, g->n) && g->hand[0] && g->hand[1] && split_choose(g, o, e);
    for (int i = 0; i < g->n; i++) {
        pki_contact *c = &g->z->contacts.v[g->c[i]];
        if (!(e[i] > APART) || !c->beyond)
            continue;
        if (!(c->beyond[g->r - c->first] & PKI_BEYOND_APART))
            c->apart++;
        c->beyond[g->r - c->first] |= PKI_BEYOND_APART;
        c->apart_least = c->apart > 1 ? fmin(c->apart_least, e[i]) : e[i];
    }
    return split;
}

static void targets(pki_sizing *z, double (*d[2])[3], bool *has[2])
{
    uint32_t n = z->pb.n;
    double prev[2][3] = {{0}};
    bool had[2] = {false, false};
    for (uint32_t r = 0; r < n; r++) {
        double w[2][3] = {{0}}, t[2][3] = {{0}}, hd[2][3] = {{0}}, sum[2][3] = {{0}};
        double one[2][GROUP_MAX][3];
        int cnt[2] = {0, 0};
        bool hands = false, split = false;
        hands_now(z, r, w, t);
        for (size_t i = 0; i < z->contacts.n; i++) {
            const pki_contact *c = &z->contacts.v[i];
            if (r >= c->first && r <= c->last && c->with == PKI_WITH_HAND && z->arm[0].n &&
                z->arm[1].n)
                hands = hands_offset(z, c, r, (const double(*)[3])w, (const double(*)[3])t, hd);
        }
        for (size_t i = 0; i < z->contacts.n; i++) {
            const pki_contact *c = &z->contacts.v[i];
            if (r < c->first || r > c->last || c->with == PKI_WITH_HAND || !z->arm[c->side].n)
                continue;
            double o[3], short_by;
            if (!part_offset(z, c, r, (const double(*)[3])w, (const double(*)[3])t,
                             hands ? hd[c->side] : (const double[3]){0, 0, 0}, o, &short_by))
                continue;
            for (int k = 0; k < 3; k++)
                sum[c->side][k] += o[k];
            if (cnt[c->side] < GROUP_MAX)
                memcpy(one[c->side][cnt[c->side]], o, sizeof o);
            cnt[c->side]++;
        }
        double cand[2 * GROUP_MAX + 3][3];
        int nc = 0;
        if (hands) {
            int all = cnt[0] + cnt[1];
            double o[3] = {0, 0, 0};
            for (int k = 0; k < 3 && all; k++)
                o[k] = (sum[0][k] + sum[1][k]) / all;
            double f = shared_reach(z, r, (const double(*)[3])w, (const double(*)[3])hd, o);
            for (int k = 0; k < 3; k++)
                cand[nc][k] = f * o[k];
            nc++;
            for (int s = 0; s < 2; s++)
                for (int i = 0; i < cnt[s] && i < GROUP_MAX; i++)
                    memcpy(cand[nc++], one[s][i], sizeof cand[0]);
            memset(cand[nc++], 0, sizeof cand[0]);
            if (had[0] && had[1]) {
                for (int k = 0; k < 3; k++)
                    cand[nc][k] = prev[0][k] - hd[0][k];
                nc++;
            }
            group g;
            group_init(&g, z, r, (const double(*)[3])w, (const double(*)[3])t,
                       (const bool[2]){true, true}, (const double(*)[3])hd);
            g.had = had[0] && had[1];
            for (int k = 0; k < 6 && g.had; k++)
                g.prev[k] = prev[k / 3][k % 3] - hd[k / 3][k % 3];
            double o6[6];
            split = group_choose(&g, (const double(*)[3])cand, nc, o6);
            for (int s = 0; s < 2; s++) {
                for (int k = 0; k < 3; k++)
                    d[s][r][k] = hd[s][k] + o6[3 * s + k];
                has[s][r] = true;
            }
        } else {
            for (int s = 0; s < 2; s++) {
                has[s][r] = cnt[s] > 0;
                if (!cnt[s])
                    continue;
                nc = 0;
                for (int k = 0; k < 3; k++)
                    cand[nc][k] = sum[s][k] / cnt[s];
                nc++;
                for (int i = 0; i < cnt[s] && i < GROUP_MAX; i++)
                    memcpy(cand[nc++], one[s][i], sizeof cand[0]);
                memset(cand[nc++], 0, sizeof cand[0]);
                if (had[s])
                    memcpy(cand[nc++], prev[s], sizeof cand[0]);
                group g;
                bool hand[2] = {s == 0, s == 1};
                group_init(&g, z, r, (const double(*)[3])w, (const double(*)[3])t, hand,
                           (const double[2][3]){{0}});
                double o6[6];
                group_choose(&g, (const double(*)[3])cand, nc, o6);
                memcpy(d[s][r], o6, sizeof d[s][r]);
            }
        }
        keep_out(z, r, (const double(*)[3])w, (const double(*)[3])t, d, has, hands, split);
        for (int s = 0; s < 2; s++) {
            had[s] = has[s][r];
            if (had[s])
                memcpy(prev[s], d[s][r], sizeof prev[s]);
        }
        tally_reach(z, r, (const double(*)[3])w, d, has);
    }
}

/* Offsets of the rows between and around contact rows. */
void pki_hands_blend(uint32_t n, double (*d)[3], bool *has, bool *moved)
{
    long prev = -1;
    for (uint32_t r = 0; r < n; r++)
        moved[r] = has[r];
    for (uint32_t r = 0; r <= n; r++) {
        if (r < n && !has[r])
            continue;
        /* the rows (prev, r) */
        long gap = (long)r - prev - 1;
        if (gap > 0 && prev >= 0 && r < n && gap <= 2 * BLEND) {
            for (long j = prev + 1; j < (long)r; j++) {
                double t = (double)(j - prev) / (double)(r - prev);
                for (int k = 0; k < 3; k++)
                    d[j][k] = d[prev][k] + t * (d[r][k] - d[prev][k]);
                moved[j] = true;
            }
        } else if (gap > 0) {
            for (long j = prev + 1; j < (long)r; j++) {
                long from_prev = prev >= 0 ? j - prev : BLEND + 1;
                long to_next = r < n ? (long)r - j : BLEND + 1;
                double wp = from_prev <= BLEND ? smooth(1.0 - (double)from_prev / (BLEND + 1)) : 0;
                double wn = to_next <= BLEND ? smooth(1.0 - (double)to_next / (BLEND + 1)) : 0;
                if (wp <= 0 && wn <= 0)
                    continue;
                for (int k = 0; k < 3; k++)
                    d[j][k] = (wp > 0 ? wp * d[prev][k] : 0) + (wn > 0 ? wn * d[r][k] : 0);
                moved[j] = true;
            }
        }
        prev = r;
    }
}

static double gap_error(const pki_sizing *z, const pki_contact *c, uint32_t r)
{
    double ga = pki_touch_at(&z->a, &z->pa, r, c->side, c->with, NULL);
    double w[2][3] = {{0}}, t[2][3] = {{0}};
    hands_now(z, r, w, t);
    double gb = pki_touch_with(&z->b, &z->pb, r, c->side, c->with, (const double(*)[3])w,
                               (const double(*)[3])t, NULL);
    if (!isfinite(ga))
        return NAN;
    return isfinite(gb) ? fabs(gb - pki_gap_goal(z, ga)) / z->b.arm_len : 1.0;
}

/* The mean gap error over every contact frame (NAN rows left out). */
static double mean_error(const pki_sizing *z)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < z->contacts.n; i++) {
        const pki_contact *c = &z->contacts.v[i];
        if (!z->arm[c->side].n || (c->with == PKI_WITH_HAND && !z->arm[!c->side].n))
            continue;
        for (uint32_t r = c->first; r <= c->last; r++) {
            double e = gap_error(z, c, r);
            if (isfinite(e)) {
                sum += e;
                n++;
            }
        }
    }
    return n ? sum / (double)n : 0;
}

/* The gap errors of every contact at each row, summed into e[row]. */
static void errors(const pki_sizing *z, double *e)
{
    for (size_t i = 0; i < z->contacts.n; i++) {
        const pki_contact *c = &z->contacts.v[i];
        if (!z->arm[c->side].n || (c->with == PKI_WITH_HAND && !z->arm[!c->side].n))
            continue;
        for (uint32_t r = c->first; r <= c->last; r++) {
            double x = gap_error(z, c, r);
            if (isfinite(x))
                e[r] += x;
        }
    }
}

/* No run of moved rows (either hand's, touching) ends with its contacts'
 * gap errors, summed, larger than stance left them: such a run goes back
 * (both arms, 肩 too; the avoid step keeps its hands there as placed
 * ones), counted into rep->contact_kept and marked on its contacts.  0,
 * or -1 on OOM. */
static int guard(pki_sizing *z, bool *const moved[2], pk_sizing_report *rep)
{
    uint32_t n = z->pb.n;
    pki_arm_row *now[2] = {malloc((n + 1) * sizeof **now), malloc((n + 1) * sizeof **now)};
    double *ea = calloc(n + 1, sizeof *ea), *eb = calloc(n + 1, sizeof *eb);
    int rc = -1;
    if (!now[0] || !now[1] || !ea || !eb)
        goto done;
    errors(z, ea);
    for (int s = 0; s < 2; s++)
        for (uint32_t r = 0; r < n && z->arm[s].n; r++)
            if (moved[s][r]) {
                pki_arm_save(&z->arm[s], r, &now[s][r]);
                pki_arm_reset(&z->arm[s], r);
            }
    errors(z, eb);
    for (uint32_t r = 0; r < n;) {
        if (!moved[0][r] && !moved[1][r]) {
            r++;
            continue;
        }
        uint32_t a = r;
        double sa = 0, sb = 0;
        for (; r < n && (moved[0][r] || moved[1][r]); r++) {
            sa += ea[r];
            sb += eb[r];
        }
        bool back = sa > sb + 1e-9 * z->b.arm_len;
        for (uint32_t j = a; j < r; j++) {
            for (int s = 0; s < 2; s++)
                if (!back && moved[s][j] && z->arm[s].n)
                    pki_arm_load(&z->arm[s], j, &now[s][j]);
            rep->contact_kept += back;
        }
        for (size_t i = 0; i < z->contacts.n && back; i++) {
            pki_contact *c = &z->contacts.v[i];
            for (uint32_t j = a; j < r && c->beyond; j++)
                if (j >= c->first && j <= c->last)
                    c->beyond[j - c->first] |= PKI_CONTACT_KEPT;
        }
    }
    rc = 0;
done:
    free(now[0]);
    free(now[1]);
    free(ea);
    free(eb);
    return rc;
}

/* Each contact of hand s active at row r: its solve there was refused
 * by the elbow law, counted on the contact. */
static void tally_refused(pki_sizing *z, int s, uint32_t r)
{
    for (size_t i = 0; i < z->contacts.n; i++) {
        pki_contact *c = &z->contacts.v[i];
        if (r < c->first || r > c->last || (s != c->side && c->with != PKI_WITH_HAND) ||
            !c->beyond || (c->beyond[r - c->first] & PKI_BEYOND_REFUSED))
            continue;
        c->beyond[r - c->first] |= PKI_BEYOND_REFUSED;
        c->refused++;
    }
}

int pki_hands_step(pki_sizing *z, pk_sizing_report *rep, pk_log *log)
{
    rep->contacts = z->contacts.n;
    if (!z->contacts.n)
        return 0;
    rep->contacts_done = true;
    rep->gap_before = mean_error(z);
    uint32_t n = z->pb.n;
    double(*d[2])[3] = {malloc((n + 1) * sizeof **d), malloc((n + 1) * sizeof **d)};
    bool *has[2] = {malloc(n + 1), malloc(n + 1)}, *moved[2] = {malloc(n + 1), malloc(n + 1)};
    int rc = -1;
    for (int s = 0; s < 2; s++)
        if (!d[s] || !has[s] || !moved[s])
            goto done;
    for (size_t i = 0; i < z->contacts.n; i++) {
        pki_contact *c = &z->contacts.v[i];
        free(c->beyond);
        c->beyond = calloc(c->last - c->first + 1, sizeof *c->beyond);
        c->blocked = 0;
        c->apart = 0;
        c->apart_least = 0;
        c->refused = 0;
        if (!c->beyond)
            goto done;
    }
    /* every target from B as stance left it, then the solves */
    memset(has[0], 0, n + 1);
    memset(has[1], 0, n + 1);
    targets(z, d, has);
    for (int s = 0; s < 2; s++) {
        if (!z->arm[s].n)
            memset(has[s], 0, n + 1);
        pki_hands_blend(n, d[s], has[s], moved[s]);
    }
    /* the rows whose hand is placed: the avoid step keeps it there */
    for (int s = 0; s < 2; s++) {
        z->held[s] = has[s];
        has[s] = NULL;
    }
    for (int s = 0; s < 2; s++) {
        for (uint32_t r = 0; r < n; r++) {
            if (!moved[s][r] || !(pki_v3_len(d[s][r]) > 1e-9 * z->b.arm_len))
                continue;
            double rot[PKI_CHAIN_MAX][4], pos[PKI_CHAIN_MAX][3], goal[3];
            pki_arm_fk(&z->arm[s], r, false, rot, pos);
            for (int k = 0; k < 3; k++)
                goal[k] = pos[z->arm[s].nb - 1][k] + d[s][r][k];
            int got = pki_arm_reach_far(z, s, r, goal);
            if (got < 0) {
                rep->refused++;
                tally_refused(z, s, r);
                continue;
            }
            rep->contact_frames++;
            rep->out_of_reach += got == 1;
            rep->folded += got == 2;
        }
    }
    if (guard(z, moved, rep) != 0)
        goto done;
    for (int s = 0; s < 2; s++)
        for (uint32_t r = 0; r < n && z->arm[s].n && z->arm[s].shoulder >= 0; r++) {
            double a = pki_qd_angle_deg(z->arm[s].dsh[r], (const double[4]){0, 0, 0, 1});
            if (a > 1e-9) {
                rep->shoulder_frames++;
                rep->shoulder_deg = fmax(rep->shoulder_deg, a);
            }
        }
    rep->gap_after = mean_error(z);
    rc = 0;
done:
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    for (int s = 0; s < 2; s++) {
        free(d[s]);
        free(has[s]);
        free(moved[s]);
    }
    return rc;
}
