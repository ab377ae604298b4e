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
 * SWIVEL_MAX; the least swing that clears every point, measured,
 * swing_clear, else step by step) brings the arm out; what that
 * cannot (a straight arm, a
 * short arm across a large body) comes out as any arm does, the hand
 * leaving its contact: a forearm through the body shows more than a
 * gap.
 *
 * Over time each frame's turns (the shoulder's and the elbow's, as world
 * rotations) are eased in and out: a frame within BLEND frames of a
 * corrected one takes the largest of its neighbours' turns scaled by
 * smoothstep of the distance, its own when that is larger (a placed
 * hand not corrected itself takes only the part of the shoulder's turn
 * that keeps its wrist, a swing of its elbow, and none of the elbow's);
 * a corrected frame is tested again afterwards and pushed out the rest
 * of the way.
 */
#include "ops/retarget/sizing.h"
#include "math/vec.h"
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
#define SWING_STEP (5.0 * 3.14159265358979323846 / 180.0) /* swing_clear's steps ... */
#define SWING_FINE (0.05 * 3.14159265358979323846 / 180.0) /* ... and its finest */
#define ELBOW_MAX (60.0 * 3.14159265358979323846 / 180.0)
#define STEP_MAX (10.0 * 3.14159265358979323846 / 180.0) /* a round's turn: the rates hold */
#define MARGIN 0.02    /* of B's arm: points this near a part must not go in */
#define ELBOW_COST 4.0 /* the elbow's turn weighed against the shoulder's */

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

/* The points of B's arm s at row r (as its state has it) near or inside
 * B's parts made of rigid bodies, part by part (only parts that come near
 * at all), each point 0..8 in turn, leaving out those A's same point is
 * as deep in A's same part: near_begin, then near_next until it says
 * false. */
typedef struct near_it {
    const pki_sizing *z;
    int s;
    uint32_t r;
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], e[3], wr[3], t[3];
    int k, i;
    bool all; /* every point, also those A's is as deep (find_any) */
    pki_placed pl;
    /* the placed part's bounding sphere (its box's centre, the box's
     * half diagonal): every body of the part lies inside it */
    double c[3], rad;
} near_it;

static void near_begin(near_it *it, const pki_sizing *z, int s, uint32_t r)
{
    const pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    it->z = z;
    it->s = s;
    it->r = r;
    pki_arm_fk(st, r, false, it->w, it->p);
    point(st, a, r, it->w, it->p, 0, it->e);
    point(st, a, r, it->w, it->p, 4, it->wr);
    point(st, a, r, it->w, it->p, 8, it->t);
    it->k = -1;
    it->i = 9;
    it->all = false;
}

/* The next point (its number *i, place q, depth d inside the part,
 * negative outside, the part's outward normal there) more than `floor`
 * inside; false when none is left. */
static bool near_next(near_it *it, double floor, int *i, double q[3], double *d, double nrm[3])
{
    const pki_sizing *z = it->z;
    const pki_arm_state *st = &z->arm[it->s];
    const pki_arm *a = &z->b.arm[it->s];
    for (;;) {
        if (it->i >= 9) {
            do {
                if (++it->k >= PKI_PART_COUNT)
                    return false;
            } while (z->b.part[it->k].bone < 0 || !z->b.part[it->k].from_rigids);
            pki_part_place(&z->b, &z->pb, it->r, it->k, &it->pl);
            it->i = pki_part_far(&it->pl, it->e, it->wr, it->t) ? 9 : 0;
            if (!it->i) {
                const pki_part *pa = it->pl.part;
                double v[3];
                pki_qd_rotate(it->pl.rot, pa->centre, v);
                for (int k = 0; k < 3; k++)
                    it->c[k] = it->pl.pos[k] + v[k];
                it->rad = sqrt(pa->half[0] * pa->half[0] + pa->half[1] * pa->half[1] +
                               pa->half[2] * pa->half[2]);
            }
            continue;
        }
        int j = it->i++;
        point(st, a, it->r, it->w, it->p, j, q);
        /* Every body lies in the part's bounding sphere, so a body's
         * signed distance is at least the sphere's (out of it, or less the
         * way in to its surface inside): a point surely farther out of it
         * than -floor, or not as deep in it as floor, is neither for any
         * body, as the distance would say (its rounding, about 1e-15 of
         * the lengths, far inside the margin). */
        double u[3] = {q[0] - it->c[0], q[1] - it->c[1], q[2] - it->c[2]};
        double out = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (out - it->rad + floor > 1e-9 * (out + it->rad + fabs(floor)) + 1e-12)
            continue;
        *d = -pki_part_distance(&it->pl, q, NULL, nrm);
        if (!(*d > floor) ||
            (!it->all && pki_depth_a(z, it->s, it->r, j, it->k) > FLAG * z->a.arm_len))
            continue;
        *i = j;
        return true;
    }
}

typedef struct deepest {
    double depth, q[3], normal[3];
} deepest;

/* The deepest point of B's arm (state) more than flag (of B's arm) inside
 * at row r that must come out; false when none. */
static bool find(const pki_sizing *z, int s, uint32_t r, double flag, deepest *out)
{
    near_it it;
    near_begin(&it, z, s, r);
    out->depth = 0;
    bool any = false;
    int i;
    double q[3], n[3], d;
    while (near_next(&it, fmax(flag * z->b.arm_len, out->depth), &i, q, &d, n)) {
        out->depth = d;
        memcpy(out->q, q, sizeof out->q);
        memcpy(out->normal, n, sizeof out->normal);
        any = true;
    }
    return any;
}

/* Whether any point of B's arm s at row r is more than flag (of B's arm)
 * inside B's body, those A's is as deep in A's included. */
static bool find_any(const pki_sizing *z, int s, uint32_t r, double flag)
{
    near_it it;
    near_begin(&it, z, s, r);
    it.all = true;
    int i;
    double q[3], n[3], d;
    return near_next(&it, flag * z->b.arm_len, &i, q, &d, n);
}

/* One point of the arm near or inside a part: how fast it moves along
 * the part's normal per radian of turn about the shoulder (g[0..2], a
 * world axis) and about the elbow (g[3..5]), and how far it must move
 * out (b; negative: how far it may move in). */
typedef struct pull {
    double g[6], b;
} pull;

#define MAX_PULLS (9 * PKI_PART_COUNT)

/* The pulls on B's arm s at row r: every point of it inside one of B's
 * parts made of rigid bodies, or within MARGIN of one, where A's same
 * point is not as deep in A's same part.  Their number; the deepest
 * depth into *deep (0 when none is inside). */
static int pulls(const pki_sizing *z, int s, uint32_t r, pull *out, double *deep)
{
    near_it it;
    near_begin(&it, z, s, r);
    double lb = z->b.arm_len;
    const double *S = it.p[0], *E = it.p[z->b.arm[s].elbow];
    int n = 0, i;
    double q[3], nrm[3], l[3], d;
    *deep = 0;
    while (n < MAX_PULLS && near_next(&it, -MARGIN * lb, &i, q, &d, nrm)) {
        pull *u = &out[n++];
        pki_v3_sub(q, S, l);
        pki_v3_cross(l, nrm, u->g);
        pki_v3_sub(q, E, l);
        if (i)
            pki_v3_cross(l, nrm, u->g + 3);
        else
            u->g[3] = u->g[4] = u->g[5] = 0;
        u->b = d - 0.5 * CLEAR * lb;
        *deep = fmax(*deep, d);
    }
    return n;
}

/* Solves the m x m system M x = v in place (Gaussian elimination with
 * partial pivoting): false when it is singular. */
static bool solve_sym(int m, double M[6][6], double v[6], double x[6])
{
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int i = c + 1; i < m; i++)
            if (fabs(M[i][c]) > fabs(M[piv][c]))
                piv = i;
        if (!(fabs(M[piv][c]) > 1e-300))
            return false;
        for (int j = 0; j < m; j++) {
            double tmp = M[c][j];
            M[c][j] = M[piv][j];
            M[piv][j] = tmp;
        }
        double tv = v[c];
        v[c] = v[piv];
        v[piv] = tv;
        for (int i = c + 1; i < m; i++) {
            double f = M[i][c] / M[c][c];
            for (int j = c; j < m; j++)
                M[i][j] -= f * M[c][j];
            v[i] -= f * v[c];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        double acc = v[i];
        for (int j = i + 1; j < m; j++)
            acc -= M[i][j] * x[j];
        x[i] = acc / M[i][i];
    }
    return true;
}

/* The least turn x (its m unknowns: the pulls' rates mapped by map, an
 * m x 6 matrix) that moves every pull out by its b, in the least-squares
 * sense over the pulls that must move (b > 0) and those the turn would
 * push in further than they may go; cost[] weighs the unknowns where
 * the pulls leave freedom.  False when no turn moves them. */
static bool least_turn(const pull *pl, int n, int m, double map[6][6], const double cost[6],
                       double x[6])
{
    bool on[MAX_PULLS];
    double g[MAX_PULLS][6];
    for (int i = 0; i < n; i++) {
        on[i] = pl[i].b > 0;
        for (int j = 0; j < m; j++) {
            g[i][j] = 0;
            for (int k = 0; k < 6; k++)
                g[i][j] += map[j][k] * pl[i].g[k];
        }
    }
    for (int it = 0; it < 6; it++) {
        double M[6][6] = {{0}}, v[6] = {0}, tr = 0;
        for (int i = 0; i < n; i++) {
            if (!on[i])
                continue;
            for (int a = 0; a < m; a++) {
                for (int b = 0; b < m; b++)
                    M[a][b] += g[i][a] * g[i][b];
                v[a] += g[i][a] * pl[i].b;
            }
        }
        for (int a = 0; a < m; a++)
            tr += M[a][a];
        if (!(tr > 1e-18))
            return false;
        for (int a = 0; a < m; a++)
            M[a][a] += 1e-4 * tr / m * cost[a];
        if (!solve_sym(m, M, v, x))
            return false;
        bool more = false;
        for (int i = 0; i < n; i++) {
            double got = 0;
            for (int a = 0; a < m; a++)
                got += g[i][a] * x[a];
            if (!on[i] && got < pl[i].b) {
                on[i] = true;
                more = true;
            }
        }
        if (!more)
            break;
    }
    return true;
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

/* The part of the world turn c about the shoulder that keeps the wrist
 * where it is: c, then the least turn bringing the wrist back, together
 * a swing of the elbow about the shoulder-wrist line; the hand's world
 * rotation kept.  For a hand the contact step placed, when the turns of
 * the frames around it are eased onto it. */
static void turn_keeping_wrist(pki_arm_state *st, const pki_arm *a, uint32_t r, const double c[4])
{
    double w0[PKI_CHAIN_MAX][4], p0[PKI_CHAIN_MAX][3], w1[PKI_CHAIN_MAX][4], p1[PKI_CHAIN_MAX][3];
    double u[3], v[3], back[4];
    int h = a->n - 1;
    pki_arm_fk(st, r, false, w0, p0);
    turn_upper(st, r, c);
    pki_arm_fk(st, r, false, w1, p1);
    pki_v3_sub(p0[h], p0[0], u);
    pki_v3_sub(p1[h], p1[0], v);
    pki_q_arc(v, u, back);
    turn_upper(st, r, back);
    keep_hand(st, a, r, w0[h]);
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

/* Turns arm s's elbow in row r by the world turn c unless that breaks the
 * elbow law (pki_elbow_worse): false, the row as it was, when refused. */
static bool elbow_turn(pki_sizing *z, int s, uint32_t r, const double c[4])
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    double q[4], before = pki_elbow_past(z, s, r);
    memcpy(q, st->q[r][a->elbow], sizeof q);
    turn_elbow(st, a, r, c);
    if (!pki_elbow_worse(z, s, r, before))
        return true;
    memcpy(st->q[r][a->elbow], q, sizeof q);
    return false;
}

/* The turn about the shoulder-wrist line (the elbow swings round it, the
 * wrist stays) bringing point q out along n by `by`; *angle its
 * signed angle. */
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
    *angle = fmax(-limit, fmin(limit, by / rate));
    pki_q_axis(ax, *angle, out);
    return true;
}

/* The unit shoulder-wrist line of row r (false: none). */
static bool swivel_axis(const pki_arm_state *st, const pki_arm *a, uint32_t r, double ax[3])
{
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3];
    pki_arm_fk(st, r, false, w, p);
    pki_v3_sub(p[a->n - 1], p[0], ax);
    return pki_v3_unit(ax, 1e-9);
}

/* The elbow of row r swung by th about the shoulder-wrist line (the
 * wrist and the hand's world rotation stay). */
static void swing(pki_arm_state *st, const pki_arm *a, uint32_t r, double th)
{
    double ax[3], c[4], w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3];
    if (!swivel_axis(st, a, r, ax))
        return;
    pki_arm_fk(st, r, false, w, p);
    pki_q_axis(ax, th, c);
    turn_upper(st, r, c);
    keep_hand(st, a, r, w[a->n - 1]);
}

/* A rotation vector (axis times angle) as a turn; its angle. */
static double turn_of(const double v[3], double q[4])
{
    double ax[3] = {v[0], v[1], v[2]}, th = pki_v3_len(v);
    if (!pki_v3_unit(ax, 1e-12)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return 0;
    }
    pki_q_axis(ax, th, q);
    return th;
}

/* The greedy rounds of push_out (the deepest point first): a held hand's
 * elbow swung, then the arm turned about the shoulder, then about the
 * elbow.  What push_out says, and the budgets used. */
typedef struct budget {
    double swivel, used, bent;
    bool elbow;
} budget;

/* A held hand's elbow swung by the least angle (SWING_STEP at a time
 * each way, then halved down to SWING_FINE) that leaves no point of the
 * arm more than CLEAR inside B's body (not even where A's is as deep:
 * a swing must not rest on A's being inside too), within what is left
 * of SWIVEL_MAX and the elbow law: the angle into *ang, true; false (the
 * arm as it was, the rounds below then) where no swing does it.  A point
 * near the wrist moves little per radian of swing and a linear step
 * overshoots it; this measures each swing. */
static bool swing_clear(pki_sizing *z, int s, uint32_t r, double limit, double *ang)
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    pki_arm_row keep;
    pki_arm_save(st, r, &keep);
    double before = pki_elbow_past(z, s, r), lo = 0, hi = 0;
    for (double th = SWING_STEP; th <= limit + 1e-12 && hi == 0; th += SWING_STEP)
        for (int sg = -1; sg <= 1 && hi == 0; sg += 2) {
            swing(st, a, r, sg * th);
            if (!find_any(z, s, r, CLEAR) && !pki_elbow_worse(z, s, r, before)) {
                hi = sg * th;
                lo = sg * (th - SWING_STEP);
            }
            pki_arm_load(st, r, &keep);
        }
    if (hi == 0)
        return false;
    while (fabs(hi - lo) > SWING_FINE) {
        double m = (lo + hi) / 2.0;
        swing(st, a, r, m);
        if (!find_any(z, s, r, CLEAR) && !pki_elbow_worse(z, s, r, before))
            hi = m;
        else
            lo = m;
        pki_arm_load(st, r, &keep);
    }
    swing(st, a, r, hi);
    *ang = hi;
    return true;
}

static bool greedy(pki_sizing *z, int s, uint32_t r, budget *bu, double *sw, double up[4],
                   double el[4], bool *refused, double *deep)
{
    bool held = z->held[s] && z->held[s][r];
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    double lb = z->b.arm_len;
    bool moved = false;
    deepest d0;
    double th;
    if (held && bu->swivel < SWIVEL_MAX && find(z, s, r, FLAG, &d0) &&
        swing_clear(z, s, r, SWIVEL_MAX - bu->swivel, &th)) {
        *deep = d0.depth;
        *sw += th;
        bu->swivel += fabs(th);
        return true;
    }
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
            if (bu->swivel < SWIVEL_MAX && swivel_for(p[0], p[a->n - 1], d.q, d.normal, by,
                                                      SWIVEL_MAX - bu->swivel, c, &ang)) {
                turn_upper(st, r, c);
                keep_hand(st, a, r, w[a->n - 1]);
                *sw += ang;
                bu->swivel += fabs(ang);
                moved = true;
                if (bu->swivel < SWIVEL_MAX)
                    continue;
            }
            held = false;
            continue;
        }
        if (bu->used < UPPER_MAX &&
            turn_for(p[0], d.q, d.normal, by, UPPER_MAX - bu->used, c, &ang)) {
            turn_upper(st, r, c);
            pki_qd_mul(c, up, t);
            memcpy(up, t, sizeof t);
            bu->used += ang;
            moved = true;
            continue;
        }
        if (!bu->elbow || bu->bent >= ELBOW_MAX ||
            !turn_for(p[a->elbow], d.q, d.normal, by, ELBOW_MAX - bu->bent, c, &ang))
            break;
        bu->bent += ang;
        if (!elbow_turn(z, s, r, c)) {
            *refused = true;
            bu->elbow = false;
            break;
        }
        pki_qd_mul(c, el, t);
        memcpy(el, t, sizeof t);
        moved = true;
    }
    return moved;
}

/* The unit normal of row r's elbow plane (upper arm x forearm); false
 * for a straight arm. */
static bool elbow_hinge(const pki_arm_state *st, const pki_arm *a, uint32_t r, double h[3])
{
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], u[3], f[3];
    pki_arm_fk(st, r, false, w, p);
    pki_v3_sub(p[a->elbow], p[0], u);
    pki_v3_sub(p[a->n - 1], p[a->elbow], f);
    pki_v3_cross(u, f, h);
    return pki_v3_unit(h, 1e-6 * pki_v3_len(u) * pki_v3_len(f));
}

/* The rounds that take every point near or in the body at once (pulls,
 * least_turn): the turn about the shoulder and about the elbow that
 * moves them all out, the elbow's dearer, each round within STEP_MAX,
 * the shoulder within a budget of its own (UPPER_MAX), the elbow within
 * what is left of ELBOW_MAX.  Whether it moved. */
static bool together(pki_sizing *z, int s, uint32_t r, budget *bu, double up[4], double el[4],
                     bool *refused)
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    double lb = z->b.arm_len, used = 0, best = HUGE_VAL;
    double keep[PKI_CHAIN_MAX][4], kup[4], kel[4];
    bool moved = false;
    for (int round = 0; round < ROUNDS; round++) {
        pull pl[MAX_PULLS];
        double d0;
        int np = pulls(z, s, r, pl, &d0);
        /* the rounds may trade one point for another: the least deep
         * arm they reach is kept */
        if (d0 < best) {
            best = d0;
            memcpy(keep, st->q[r], sizeof keep);
            memcpy(kup, up, sizeof kup);
            memcpy(kel, el, sizeof kel);
        }
        if (!(d0 > CLEAR * lb))
            break;
        bool fs = used < UPPER_MAX - 1e-9, fe = bu->elbow && bu->bent < ELBOW_MAX - 1e-9;
        if (!fs && !fe)
            break;
        double map[6][6] = {{0}}, cost[6], y[6] = {0}, x[6] = {0}, hinge[3];
        int m = 0;
        for (int k = 0; k < 3 && fs; k++) {
            map[m][k] = 1;
            cost[m++] = 1.0;
        }
        /* the elbow bends or opens in its plane (a turn off it would bend
         * it backwards) */
        if (fe && elbow_hinge(st, a, r, hinge)) {
            memcpy(map[m] + 3, hinge, sizeof hinge);
            cost[m++] = ELBOW_COST;
        }
        if (!m)
            break;
        if (!least_turn(pl, np, m, map, cost, y))
            break;
        for (int j = 0; j < m; j++)
            for (int k = 0; k < 6; k++)
                x[k] += map[j][k] * y[j];
        double cs[4], ce[4], t[4];
        double as = turn_of(x, cs), ae = turn_of(x + 3, ce), f = 1.0;
        double ls = fmin(STEP_MAX, UPPER_MAX - used), le = fmin(STEP_MAX, ELBOW_MAX - bu->bent);
        if (as > ls)
            f = fmin(f, ls / as);
        if (ae > le)
            f = fmin(f, le / ae);
        for (int k = 0; k < 6; k++)
            x[k] *= f;
        as = turn_of(x, cs);
        ae = turn_of(x + 3, ce);
        if (!(as > 1e-9) && !(ae > 1e-9))
            break;
        if (as > 0) {
            turn_upper(st, r, cs);
            pki_qd_mul(cs, up, t);
            memcpy(up, t, sizeof t);
            used += as;
            moved = true;
        }
        if (ae > 0) {
            if (!elbow_turn(z, s, r, ce)) {
                *refused = true;
                bu->elbow = false;
                continue;
            }
            pki_qd_mul(ce, el, t);
            memcpy(el, t, sizeof t);
            bu->bent += ae;
            moved = true;
        }
    }
    if (moved) {
        double d0;
        pull pl[MAX_PULLS];
        pulls(z, s, r, pl, &d0);
        if (d0 > best) {
            memcpy(st->q[r], keep, sizeof keep);
            memcpy(up, kup, sizeof kup);
            memcpy(el, kel, sizeof kel);
        }
    }
    return moved;
}

/* Pushes row r's arm out; the turns it took into *sw (a held hand's
 * elbow swung about the shoulder-wrist line, radians, signed), up[] and
 * el[] (world, composed onto what they held).  `swivel` is how far a
 * held hand's elbow has swung already: SWIVEL_MAX bounds the whole.
 * First the deepest point at a time (greedy); a point still in, as
 * where pushing one point out pushes another in (an arm between a large
 * head and chest), all of them together.  Returns whether it moved;
 * *refused when an elbow turn was refused; *deep the depth it started
 * at. */
static bool push_out(pki_sizing *z, int s, uint32_t r, double swivel, double *sw, double up[4],
                     double el[4], bool *refused, double *deep)
{
    budget bu = {swivel, 0, 0, true};
    deepest d;
    *deep = 0;
    bool moved = greedy(z, s, r, &bu, sw, up, el, refused, deep);
    if (moved && find(z, s, r, CLEAR, &d)) {
        moved |= together(z, s, r, &bu, up, el, refused);
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

/* The eased turn of each row from the rows' own turns c[] (own[r]). */
static void ease(uint32_t n, double (*c)[4], const bool *own, double (*out)[4])
{
    static const double I[4] = {0, 0, 0, 1};
    for (uint32_t r = 0; r < n; r++) {
        memcpy(out[r], own[r] ? c[r] : I, sizeof out[r]);
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
            }
        }
    }
}

/* The same for the swings (signed angles about each row's own
 * shoulder-wrist line). */
static void ease_swing(uint32_t n, const double *c, const bool *own, double *out)
{
    for (uint32_t r = 0; r < n; r++) {
        out[r] = own[r] ? c[r] : 0;
        uint32_t lo = r > BLEND ? r - BLEND : 0, hi = r + BLEND < n ? r + BLEND : n - 1;
        for (uint32_t g = lo; g <= hi; g++) {
            if (!own[g] || g == r)
                continue;
            double v = c[g] * smooth(1.0 - fabs((double)g - (double)r) / (BLEND + 1));
            if (fabs(v) > fabs(out[r]))
                out[r] = v;
        }
    }
}

/* The rows of each contact where a hand the contact step placed left
 * it (its wrist moved more than FLAG of B's arm: the arm came out of
 * the body as any arm does), marked on the contact. */
static void mark_blocked(pki_sizing *z, bool *const left[2])
{
    for (size_t i = 0; i < z->contacts.n; i++) {
        pki_contact *c = &z->contacts.v[i];
        if (!c->beyond)
            continue;
        for (uint32_t r = c->first; r <= c->last; r++) {
            bool gone = false;
            for (int s = 0; s < 2; s++)
                gone |= (s == c->side || c->with == PKI_WITH_HAND) && left[s] && left[s][r];
            if (gone && !c->beyond[r - c->first]) {
                c->beyond[r - c->first] |= PKI_BEYOND_BODY;
                c->blocked++;
            }
        }
    }
}

/* The turn the upper arm took in the world and the change of the
 * elbow's bend from w0 to the arm of row r now, into the report. */
static void tell(pk_sizing_report *rep, const pki_arm_state *st, const pki_arm *a, uint32_t r,
                 double w0[][4])
{
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
    rep->avoid_elbow_deg = fmax(rep->avoid_elbow_deg, angle_of(d) * 180.0 / 3.14159265358979323846);
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
    double *sw = malloc((n + 1) * sizeof *sw), *es = malloc((n + 1) * sizeof *es);
    double(*keep)[PKI_CHAIN_MAX][4] = malloc((n + 1) * sizeof *keep);
    bool *own = malloc(n + 1), *left[2] = {calloc(n + 1, 1), calloc(n + 1, 1)};
    int rc = -1;
    if (!up || !el || !eu || !ee || !sw || !es || !keep || !own || !left[0] || !left[1])
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
            sw[r] = 0;
            bool refused = false;
            double deep;
            own[r] = push_out(z, s, r, 0, &sw[r], up[r], el[r], &refused, &deep);
            if (own[r]) {
                moved++;
                rep->avoid_deepest = fmax(rep->avoid_deepest, deep);
            }
        }
        if (!moved)
            continue;
        /* eased over time (a swing about each frame's own shoulder-wrist
         * line, so the wrist stays), applied to the arm as it was, then
         * any frame still inside pushed the rest of the way */
        memcpy(st->q, keep, n * sizeof *keep);
        ease_swing(n, sw, own, es);
        ease(n, up, own, eu);
        ease(n, el, own, ee);
        for (uint32_t r = 0; r < n; r++) {
            if (fabs(es[r]) < 1e-12 && angle_of(eu[r]) < 1e-12 && angle_of(ee[r]) < 1e-12)
                continue;
            double w0[PKI_CHAIN_MAX][4], p0[PKI_CHAIN_MAX][3];
            pki_arm_fk(st, r, false, w0, p0);
            /* a hand the contact step placed takes of its neighbours'
             * turns only what keeps its wrist (it keeps its own) */
            bool hold = z->held[s] && z->held[s][r] && !own[r];
            if (fabs(es[r]) >= 1e-12)
                swing(st, a, r, es[r]);
            if (hold)
                turn_keeping_wrist(st, a, r, eu[r]);
            else
                turn_upper(st, r, eu[r]);
            if (!hold && angle_of(ee[r]) >= 1e-12 && !elbow_turn(z, s, r, ee[r]))
                rep->refused++;
            rep->avoid_frames++;
            double u[4] = {0, 0, 0, 1}, e2[4] = {0, 0, 0, 1}, deep, more = 0;
            bool refused = false;
            push_out(z, s, r, fabs(es[r]), &more, u, e2, &refused, &deep);
            rep->refused += refused;
            tell(rep, st, a, r, w0);
            if (z->held[s] && z->held[s][r]) {
                double w1[PKI_CHAIN_MAX][4], p1[PKI_CHAIN_MAX][3], v[3];
                pki_arm_fk(st, r, false, w1, p1);
                pki_v3_sub(p1[a->n - 1], p0[a->n - 1], v);
                left[s][r] = pki_v3_len(v) > FLAG * z->b.arm_len;
            }
        }
    }
    mark_blocked(z, left);
    rc = 0;
done:
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    free(up);
    free(el);
    free(eu);
    free(ee);
    free(sw);
    free(es);
    free(keep);
    free(own);
    free(left[0]);
    free(left[1]);
    return rc;
}
