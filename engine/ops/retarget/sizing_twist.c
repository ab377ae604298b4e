/*
 * sizing_twist.c — twist distribution (捩り分散) and its inverse (sizing.h,
 * pki_twist_step).
 *
 * Distribution.  Where B's arm has twist bones (腕捩 between 腕 and ひじ,
 * 手捩 between ひじ and 手首), the turn of the arm about its own length
 * goes into them, as the model's author rigged the skin to take it:
 *   - 腕 = s·t with t its twist about 腕捩's axis x_a: 腕 keeps s, 腕捩
 *     takes t (both twists about x_a, so 腕·腕捩 is unchanged);
 *   - ひじ = t_a(α)·b·t_w(β), a twist about x_a, a bend b about the hinge
 *     h, a twist about 手捩's axis x_w (α the smaller of the two that
 *     solve it): ひじ keeps b, 腕捩 takes t_a(α) after its own, 手捩
 *     t_w(β) before its own;
 *   - 手首 = t·s with t its twist about x_w: 手首 keeps s, 手捩 takes t.
 * Each product down the arm is the same, so every bone below keeps its
 * world rotation (the hands within PKI_HAND_DEG once written, sizing.c).
 * A twist bone's axis is its fixed axis, else its direction to the next
 * bone of the arm.  A move is made only where it keeps every position:
 * when the offset of the bone below the joint it crosses lies along the
 * twist's axis (within half a degree; Mei's 腕捩 turns about an axis that
 * misses its ひじ by 10 degrees, so ひじ's twist about the upper arm
 * stays in ひじ there).  Only the part of a twist beyond 2 degrees moves
 * (all of it from 4, eased between): a smaller one shows nowhere on the
 * skin, and leaving it keeps those frames' keys.  The hinge h is square to both axes when they
 * differ by more than 5 degrees, else square to the arm and to the side the elbow bends to at rest
 * (sizing_measure.c).
 *
 * Inverse.  Where B lacks a twist bone A has and the motion turns it, the
 * fold (retarget_fold.c) carries its twist into the bones below; here each
 * hand of B is then set to A's hand's world rotation times the stance's
 * constant (the segments' r, retarget_model.c), so the fold's fitting
 * error does not reach it.
 */
#include "model/skeleton.h"
#include "ops/retarget/retarget.h"
#include "ops/retarget/sizing.h"
#include "ops/retarget/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG (180.0 / 3.14159265358979323846)

/* The unit axis of twist bone chain[i] of arm a (pointing down the arm). */
static void twist_axis(const pk_model *m, const pki_arm *a, int i, double ax[3])
{
    const pk_model_bone *b = &m->bones[a->bone[i]];
    double down[3];
    for (int k = 0; k < 3; k++)
        down[k] = (double)m->bones[a->bone[i + 1]].pos[k] - b->pos[k];
    bool fixed = false;
    if (b->flags & PK_BONE_FIXED_AXIS) {
        for (int k = 0; k < 3; k++)
            ax[k] = b->fixed_axis[k];
        fixed = pki_v3_unit(ax, 1e-9);
    }
    if (!fixed) {
        memcpy(ax, down, 3 * sizeof *ax);
        if (!pki_v3_unit(ax, 1e-12)) {
            ax[0] = 1;
            ax[1] = ax[2] = 0;
        }
    }
    if (pki_v3_dot(ax, down) < 0)
        for (int k = 0; k < 3; k++)
            ax[k] = -ax[k];
}

/* q = swing · twist (the twist about ax applied first): the twist. */
static void twist_of(const double q[4], const double ax[3], double tw[4])
{
    pki_qd_twist(q, ax, tw);
    pki_q_norm(tw);
}

static double angle_deg(const double q[4])
{
    double v = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    return 2.0 * atan2(v, fabs(q[3])) * DEG;
}

/* ひじ's q = t(xa, α)·rest with rest·xw lying where a turn about h can
 * take xw, bending towards the front f (the side the elbow bends to at
 * rest): two α solve it, a half turn apart; the one that bends the
 * forearm forwards, when that is within a quarter turn (else none: the
 * elbow bends backwards on the source, and its twist stays), eased in as
 * the bend grows from 5 to 10 degrees (a straight elbow has no plane). */
static double pre_twist(const double q[4], const double xa[3], const double xw[3],
                        const double h[3], const double f[3])
{
    double u[3], up[3], c[3];
    pki_qd_rotate(q, xw, u);
    double t = pki_v3_dot(u, xa);
    for (int k = 0; k < 3; k++)
        up[k] = u[k] - t * xa[k];
    pki_v3_cross(xa, up, c);
    double A = pki_v3_dot(up, h), B = -pki_v3_dot(c, h),
           C = pki_v3_dot(xw, h) - t * pki_v3_dot(xa, h);
    double R = sqrt(A * A + B * B);
    if (!(R > 1e-12))
        return 0;
    double k = fmax(-1.0, fmin(1.0, C / R)), phi = atan2(B, A), d = acos(k);
    double bend = acos(fmax(-1.0, fmin(1.0, pki_v3_dot(u, xw)))) * DEG;
    double ease = (bend - 5.0) / 5.0;
    ease = fmax(0.0, fmin(1.0, ease));
    ease = ease * ease * (3.0 - 2.0 * ease);
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        double al = remainder(phi + sgn * d, 2.0 * 3.14159265358979323846);
        double tq[4], v[3];
        pki_q_axis(xa, -al, tq);
        pki_qd_rotate(tq, u, v);
        if (pki_v3_dot(v, f) <= 0)
            continue;
        return fabs(al) <= 0.5 * 3.14159265358979323846 ? al * ease : 0;
    }
    return 0;
}

/* What one arm's twist moves may use: the axes, the hinge, and which
 * moves keep every bone's position (the offset the moved twist turns lies
 * along its axis, within ALONG). */
typedef struct axes {
    double xa[3], xw[3], h[3], f[3];
    bool arm, elbow_up, elbow_down, wrist;
} axes;

#define ALONG (0.5 / DEG)

/* How much of a twist of `deg` degrees moves: none below FROM, all from
 * FROM + 2, eased between (a twist that small shows nowhere on the skin). */
#define FROM 2.0
static double share(double deg)
{
    double x = (fabs(deg) - FROM) / 2.0;
    x = fmax(0.0, fmin(1.0, x));
    return x * x * (3.0 - 2.0 * x);
}

/* t^w: the rotation t scaled to w of its angle. */
static void part(const double t[4], double w, double out[4])
{
    pki_qd_pow(t, w, out);
    pki_q_norm(out);
}

/* One row of one arm: the twists moved; the largest, degrees. */
static double distribute(pki_arm_state *st, const pki_arm *a, uint32_t r, const axes *x)
{
    double(*q)[4] = st->q[r];
    int up = a->twist_up, low = a->twist_low, e = a->elbow, hand = a->n - 1;
    double moved = 0, t[4], s[4], inv[4], y[4];
    if (x->arm) {
        /* 腕's twist into 腕捩 */
        twist_of(q[0], x->xa, t);
        part(t, share(angle_deg(t)), t);
        pki_qd_conj(t, inv);
        pki_qd_mul(q[0], inv, s);
        memcpy(q[0], s, sizeof s);
        pki_qd_mul(t, q[up], y);
        memcpy(q[up], y, sizeof y);
        moved = fmax(moved, angle_deg(t));
    }
    if (x->elbow_up) {
        /* ひじ's twist about the upper arm into 腕捩 */
        double al = pre_twist(q[e], x->xa, x->xw, x->h, x->f);
        al *= share(al * DEG);
        pki_q_axis(x->xa, al, t);
        pki_qd_conj(t, inv);
        pki_qd_mul(inv, q[e], s);
        memcpy(q[e], s, sizeof s);
        pki_qd_mul(q[up], t, y);
        memcpy(q[up], y, sizeof y);
        moved = fmax(moved, fabs(al) * DEG);
    }
    if (x->elbow_down) {
        /* ひじ = b·tw: tw, its twist about the forearm, into 手捩 */
        double b[4], v[3], tw[4];
        pki_qd_rotate(q[e], x->xw, v);
        pki_q_arc(x->xw, v, b);
        pki_qd_conj(b, inv);
        pki_qd_mul(inv, q[e], y);
        twist_of(y, x->xw, tw);
        part(tw, share(angle_deg(tw)), tw);
        pki_qd_conj(tw, inv);
        pki_qd_mul(q[e], inv, s);
        memcpy(q[e], s, sizeof s);
        pki_qd_mul(tw, q[low], y);
        memcpy(q[low], y, sizeof y);
        moved = fmax(moved, angle_deg(tw));
    }
    if (x->wrist) {
        /* 手首 = t·s: t into 手捩 (from 手首^-1 = s'·t', t = t'^-1) */
        double hi[4], tinv[4];
        pki_qd_conj(q[hand], hi);
        twist_of(hi, x->xw, t);
        part(t, share(angle_deg(t)), t);
        pki_qd_conj(t, tinv);
        pki_qd_mul(q[low], tinv, y);
        memcpy(q[low], y, sizeof y);
        pki_qd_mul(t, q[hand], y);
        memcpy(q[hand], y, sizeof y);
        moved = fmax(moved, angle_deg(t));
    }
    for (int i = 0; i < a->n; i++)
        pki_q_norm(q[i]);
    return moved;
}

/* Whether the offset of chain bone j from the one above lies along ax. */
static bool along(const pk_model *m, const pki_arm *a, int j, const double ax[3])
{
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = (double)m->bones[a->bone[j]].pos[k] - m->bones[a->bone[j - 1]].pos[k];
    double n = pki_v3_len(d);
    if (!(n > 1e-9))
        return true;
    double c[3];
    pki_v3_cross(d, ax, c);
    return pki_v3_len(c) / n < sin(ALONG);
}

/* The axes of side s of B and the moves its rig allows. */
static bool axes_of(const pki_sizing *z, int s, axes *x)
{
    const pk_model *m = z->b.m;
    const pki_arm *a = &z->b.arm[s];
    int up = a->twist_up, low = a->twist_low, e = a->elbow, hand = a->n - 1;
    memset(x, 0, sizeof *x);
    if (up >= 0)
        twist_axis(m, a, up, x->xa);
    if (low >= 0)
        twist_axis(m, a, low, x->xw);
    if (up < 0)
        memcpy(x->xa, x->xw, sizeof x->xa);
    if (low < 0)
        memcpy(x->xw, x->xa, sizeof x->xw);
    double cr[3], mid[3];
    pki_v3_cross(x->xa, x->xw, cr);
    if (pki_v3_len(cr) > sin(5.0 / DEG)) {
        memcpy(x->h, cr, sizeof x->h);
    } else {
        for (int k = 0; k < 3; k++)
            mid[k] = x->xa[k] + x->xw[k];
        pki_v3_cross(mid, z->elbow[s].f, x->h);
    }
    pki_v3_unit(x->h, 0);
    memcpy(x->f, z->elbow[s].f, sizeof x->f);
    x->arm = up == 1 && along(m, a, up, x->xa);
    x->elbow_up = up >= 0 && e == up + 1 && low == e + 1 && along(m, a, e, x->xa);
    x->elbow_down = low >= 0 && low == e + 1 && along(m, a, low, x->xw);
    x->wrist = low >= 0 && hand == low + 1 && along(m, a, hand, x->xw);
    return x->arm || x->elbow_up || x->elbow_down || x->wrist;
}

/* Whether a key turns its bone (a zero or non-finite rotation is no
 * turn, as the evaluator reads it). */
static bool off_rest(const float rot[4])
{
    double q[4];
    pki_qd_from_key(rot, q);
    return fabs(q[3]) < 1.0;
}

/* Does A key a twist bone B lacks on side s (the fold carried it)? */
static bool folded_twist(const pki_sizing *z, int s, const pk_motion *in)
{
    static const char *const TWIST[2][2] = {{"左腕捩", "左手捩"}, {"右腕捩", "右手捩"}};
    for (int i = 0; i < 2; i++) {
        long ba = pki_model_find_bone_utf8(z->a.m, TWIST[s][i]);
        long bb = pki_model_find_bone_utf8(z->b.m, TWIST[s][i]);
        if (ba < 0 || bb >= 0)
            continue;
        if (!in)
            return true;
        uint8_t *raw;
        size_t len;
        if (pk_utf8_to_cp932(TWIST[s][i], &raw, &len) != 0)
            continue;
        pk_name_id id = pk_names_find(in->names, raw, len);
        free(raw);
        for (size_t k = 0; id != PK_NO_NAME && k < in->nbones; k++)
            if (in->bones[k].name == id && off_rest(in->bones[k].rot))
                return true;
    }
    return false;
}

/* The hand of side s at row r set to A's world rotation times c. */
static void hand_from_a(pki_sizing *z, int s, uint32_t r, const double c[4])
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s], *aa = &z->a.arm[s];
    double w[PKI_CHAIN_MAX][4], p[PKI_CHAIN_MAX][3], want[4], inv[4];
    pki_arm_fk(st, r, false, w, p);
    pki_qd_mul(pki_play_at(&z->pa, r, aa->bone[aa->n - 1])->rot, c, want);
    pki_qd_conj(w[a->n - 2], inv);
    pki_qd_mul(inv, want, st->q[r][a->n - 1]);
    pki_q_norm(st->q[r][a->n - 1]);
}

int pki_twist_step(pki_sizing *z, pk_sizing_report *rep, pk_log *log)
{
    (void)log;
    for (int s = 0; s < 2; s++) {
        pki_arm_state *st = &z->arm[s];
        const pki_arm *a = &z->b.arm[s];
        if (!st->n)
            continue;
        if (folded_twist(z, s, z->input)) {
            rep->twist_done = true;
            double c[4];
            memcpy(c, z->stance_hand[s], sizeof c);
            for (uint32_t r = 0; r < st->n; r++)
                hand_from_a(z, s, r, c);
            continue;
        }
        axes ax;
        if (!axes_of(z, s, &ax))
            continue;
        rep->twist_done = true;
        for (uint32_t r = 0; r < st->n; r++) {
            double keep[PKI_CHAIN_MAX][4], past = pki_elbow_past(z, s, r);
            memcpy(keep, st->q[r], sizeof keep);
            double m = distribute(st, a, r, &ax);
            if (pki_elbow_worse(z, s, r, past)) {
                /* the elbow would look bent backwards in its twist bone */
                memcpy(st->q[r], keep, sizeof keep);
                rep->refused++;
                continue;
            }
            if (m > 0.01) {
                rep->twist_frames++;
                st->twisted[r] = true;
            }
            rep->twist_deg = fmax(rep->twist_deg, m);
        }
    }
    return 0;
}
