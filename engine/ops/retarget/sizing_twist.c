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
 * Keys.  Each move is chosen at the keys of the bone it leaves (all of
 * the twist that shows there) and blended between two keys by that
 * bone's own curve, so the bone keeps its key frames and curves: between
 * two keys its rotation with the blended move taken out must stay within
 * PKI_TWIST_KEYED_DEG of the slerp of its two new keys (a twist that
 * changes while the arm swings cannot be split exactly by one pair of
 * keys); where the whole change would stray further, the most of it that
 * does not (bisected) moves, and the rest moves at later keys.  Every
 * row still gets the same exact split (the product down the arm is kept
 * row by row), so the writer finds the source bone's own keys and curves
 * good and the twist bone takes its sources' frames and curves
 * (sizing.c).  A twist bone the motion already turns off rest keeps the
 * motion's twist: its author distributed it.
 *
 * Inverse.  Where B lacks a twist bone A has and the motion turns it, the
 * fold (retarget_fold.c) carries its twist into the bones below; here each
 * hand of B is then set to A's hand's world rotation times the stance's
 * constant (the segments' r, retarget_model.c), so the fold's fitting
 * error does not reach it.
 */
#include "math/curve.h"
#include "model/names.h"
#include "model/skeleton.h"
#include "ops/retarget/retarget.h"
#include "ops/retarget/sizing.h"
#include "math/vec.h"
#include "util/fmath.h"

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
    double k = fmax(-1.0, fmin(1.0, C / R)), phi = pki_atan2(B, A), d = pki_acos(k);
    double bend = pki_acos(fmax(-1.0, fmin(1.0, pki_v3_dot(u, xw)))) * DEG;
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

/* The four moves, in the order they are made (each reads the arm as the
 * ones before it left it): 腕's twist into 腕捩, ひじ's twist about the
 * upper arm into 腕捩, ひじ's twist about the forearm into 手捩, 手首's
 * into 手捩. */
enum { MV_ARM, MV_UP, MV_DOWN, MV_WRIST, MV_COUNT };

/* The signed angle (radians, in (-pi, pi]) of a twist about unit ax. */
static double twist_angle(const double t[4], const double ax[3])
{
    double v = t[0] * ax[0] + t[1] * ax[1] + t[2] * ax[2];
    return remainder(2.0 * pki_atan2(v, t[3]), 2.0 * 3.14159265358979323846);
}

/* The chain index of the bone move k takes its twist from. */
static int move_source(const pki_arm *a, int k)
{
    return k == MV_ARM ? 0 : k == MV_WRIST ? a->n - 1 : a->elbow;
}

static bool move_on(const axes *x, int k)
{
    return k == MV_ARM    ? x->arm
           : k == MV_UP   ? x->elbow_up
           : k == MV_DOWN ? x->elbow_down
                          : x->wrist;
}

/* The twist move k would take at a row (radians), the part that shows
 * (share) of all there is. */
static double full_angle(double (*q)[4], const pki_arm *a, const axes *x, int k)
{
    int e = a->elbow, hand = a->n - 1;
    double t[4], inv[4], y[4], v[3], b[4], th;
    switch (k) {
    case MV_ARM:
        twist_of(q[0], x->xa, t);
        th = twist_angle(t, x->xa);
        break;
    case MV_UP:
        th = pre_twist(q[e], x->xa, x->xw, x->h, x->f);
        break;
    case MV_DOWN:
        pki_qd_rotate(q[e], x->xw, v);
        pki_q_arc(x->xw, v, b);
        pki_qd_conj(b, inv);
        pki_qd_mul(inv, q[e], y);
        twist_of(y, x->xw, t);
        th = twist_angle(t, x->xw);
        break;
    default:
        pki_qd_conj(q[hand], inv);
        twist_of(inv, x->xw, t);
        th = -twist_angle(t, x->xw);
        break;
    }
    return th * share(th * DEG);
}

/* Move k of angle th at a row: the source bone gives it up, the twist
 * bone takes it, their product (and so every bone's place) unchanged. */
static void apply_move(double (*q)[4], const pki_arm *a, const axes *x, int k, double th)
{
    int up = a->twist_up, low = a->twist_low, e = a->elbow, hand = a->n - 1;
    double t[4], inv[4], y[4];
    switch (k) {
    case MV_ARM: /* 腕 = s·t: 腕 keeps s, 腕捩 takes t */
        pki_q_axis(x->xa, th, t);
        pki_qd_conj(t, inv);
        pki_qd_mul(q[0], inv, y);
        memcpy(q[0], y, sizeof y);
        pki_qd_mul(t, q[up], y);
        memcpy(q[up], y, sizeof y);
        break;
    case MV_UP: /* ひじ = t_a·b·t_w: t_a after 腕捩's own */
        pki_q_axis(x->xa, th, t);
        pki_qd_conj(t, inv);
        pki_qd_mul(inv, q[e], y);
        memcpy(q[e], y, sizeof y);
        pki_qd_mul(q[up], t, y);
        memcpy(q[up], y, sizeof y);
        break;
    case MV_DOWN: /* t_w before 手捩's own */
        pki_q_axis(x->xw, th, t);
        pki_qd_conj(t, inv);
        pki_qd_mul(q[e], inv, y);
        memcpy(q[e], y, sizeof y);
        pki_qd_mul(t, q[low], y);
        memcpy(q[low], y, sizeof y);
        break;
    default: /* 手首 = t·s: t into 手捩 */
        pki_q_axis(x->xw, th, t);
        pki_qd_conj(t, inv);
        pki_qd_mul(q[low], t, y);
        memcpy(q[low], y, sizeof y);
        pki_qd_mul(inv, q[hand], y);
        memcpy(q[hand], y, sizeof y);
        break;
    }
    pki_q_norm(q[move_source(a, k)]);
    pki_q_norm(q[k <= MV_UP ? up : low]);
}

/* The source bone's local at a row after move k of angle th (as
 * apply_move leaves it). */
static void moved_source(const double (*q)[4], const pki_arm *a, const axes *x, int k, double th,
                         double out[4])
{
    double t[4];
    pki_q_axis(k <= MV_UP ? x->xa : x->xw, -th, t);
    const double *src = q[move_source(a, k)];
    if (k == MV_ARM || k == MV_DOWN)
        pki_qd_mul(src, t, out);
    else
        pki_qd_mul(t, src, out);
    pki_q_norm(out);
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
    return pki_v3_len(c) / n < pki_sin(ALONG);
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
    if (pki_v3_len(cr) > pki_sin(5.0 / DEG)) {
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

/* ---- keyed moves ---- */

/* The hand's world rotation (and every other bone's) stays within EPS
 * of the steps' own between the source bone's keys (degrees). */
#define EPS (PKI_TWIST_KEYED_DEG)

/* The rows of the keys of a bone of B in the motion (frame order, one per
 * frame) and the rotation curve of each (the segment ending there). */
typedef struct key_rows {
    uint32_t *row;
    uint8_t (*cp)[4];
    size_t n;
} key_rows;

static const pk_track *track_of(const pki_sizing *z, const pk_tracks *tr, int32_t bone)
{
    if (!z->output || !tr)
        return NULL;
    pk_name_id id = pki_model_bone_vmd_name(z->output->names, z->b.m, (size_t)bone, false);
    return id == PK_NO_NAME ? NULL : pk_tracks_bone(tr, id);
}

/* A bone's key rows (row 0 alone when it has none in the play). */
static bool rows_of(const pki_sizing *z, const pk_track *t, key_rows *k)
{
    size_t cap = (t ? t->count : 0) + 1;
    k->row = malloc(cap * sizeof *k->row);
    k->cp = malloc(cap * sizeof *k->cp);
    k->n = 0;
    if (!k->row || !k->cp)
        return false;
    for (size_t i = 0; t && i < t->count; i++) {
        const pk_bone_key *b = &z->output->bones[t->keys[i]];
        if (b->frame < z->pb.f0 || b->frame - z->pb.f0 >= z->pb.n)
            continue;
        uint32_t r = b->frame - z->pb.f0;
        if (k->n && k->row[k->n - 1] == r)
            k->n--;
        k->row[k->n] = r;
        pk_interp_curve(b->interp, 3, k->cp[k->n]);
        k->n++;
    }
    if (!k->n) {
        k->row[0] = 0;
        memcpy(k->cp[0], pki_curve_linear, 4);
        k->n = 1;
    }
    return true;
}

/* MMD's progress at row r of the segment ending at key i. */
static double weight(const key_rows *k, size_t i, uint32_t r)
{
    double s = (double)(r - k->row[i - 1]) / (double)(k->row[i] - k->row[i - 1]);
    const uint8_t *c = k->cp[i];
    return pk_bezier(c[0], c[1], c[2], c[3], (float)s);
}

/* Every row's progress in its segment into w[] (0 outside them). */
static void weights(const key_rows *k, uint32_t n, double *w)
{
    memset(w, 0, n * sizeof *w);
    for (size_t i = 1; i < k->n; i++)
        for (uint32_t r = k->row[i - 1] + 1; r < k->row[i] && r < n; r++)
            w[r] = weight(k, i, r);
}

/* One arm's keyed moves: the sizing, the side, its axes and each row's
 * elbow past its rest plane before the step. */
typedef struct twist_ctx {
    pki_sizing *z;
    int s;
    const axes *x;
    const double *past;
    double *w; /* per row: the progress in its segment of the source's track */
} twist_ctx;

/* Whether move k of angle th at row r would turn the elbow past its rest
 * plane (pki_elbow_worse). */
static bool breaks_elbow(const twist_ctx *c, int k, uint32_t r, double th)
{
    pki_arm_state *st = &c->z->arm[c->s];
    double keep[PKI_CHAIN_MAX][4];
    memcpy(keep, st->q[r], sizeof keep);
    apply_move(st->q[r], &c->z->b.arm[c->s], c->x, k, th);
    bool bad = pki_elbow_worse(c->z, c->s, r, c->past[r]);
    memcpy(st->q[r], keep, sizeof keep);
    return bad;
}

/* How far (degrees) the source bone of move k, moved by m0 at key i-1 and
 * m1 at key i (and by their blend between), strays from what its two
 * keys give between them; INFINITY when a row between would break the
 * elbow law.  With a finite bound (the caller only asks whether the
 * error is within it), INFINITY as soon as a row is surely beyond it:
 * its cosine under the bound's by a relative 1e-12, far more than the
 * arccosine's and cosine's rounding. */
typedef struct piece_memo {
    bool has_qa, has_least;
    double m0, qa[4];    /* the source at the first key, moved by m0 */
    double bound, least; /* a finite bound and its cosine */
} piece_memo;

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* pm: what the calls for one piece share, the source moved at its first
 * key and the least cosine of the bound, kept from the call before where
 * m0 or the bound is the same (the same bits). */
static double piece_error(const twist_ctx *c, int k, const key_rows *kr, size_t i, double m0,
                          double m1, double bound, piece_memo *pm)
{
    if (isfinite(bound) && !(pm->has_least && same_double(pm->bound, bound))) {
        pm->least = pki_cos(bound / DEG / 2.0) * (1.0 - 1e-12);
        pm->bound = bound;
        pm->has_least = true;
    }
    double least = isfinite(bound) ? pm->least : -1.0;
    const pki_arm_state *st = &c->z->arm[c->s];
    const pki_arm *a = &c->z->b.arm[c->s];
    double qa[4], qb[4], lowest = 1.0;
    if (!(pm->has_qa && same_double(pm->m0, m0))) {
        moved_source((const double(*)[4])st->q[kr->row[i - 1]], a, c->x, k, m0, pm->qa);
        pm->m0 = m0;
        pm->has_qa = true;
    }
    memcpy(qa, pm->qa, sizeof qa);
    moved_source((const double(*)[4])st->q[kr->row[i]], a, c->x, k, m1, qb);
    /* the slerp's angle once for the piece (the short way, as MMD) */
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    if (d < 0) {
        for (int j = 0; j < 4; j++)
            qb[j] = -qb[j];
        d = -d;
    }
    double ang = pki_acos(fmin(1.0, d)), sn = pki_sin(ang);
    for (uint32_t r = kr->row[i - 1] + 1; r < kr->row[i]; r++) {
        double w = c->w[r], q[4], sl[4], th = m0 + w * (m1 - m0);
        moved_source((const double(*)[4])st->q[r], a, c->x, k, th, q);
        double wa = 1.0 - w, wb = w, n = 0, dot = 0;
        if (sn > 1e-9) {
            wa = pki_sin((1.0 - w) * ang) / sn;
            wb = pki_sin(w * ang) / sn;
        }
        for (int j = 0; j < 4; j++) {
            sl[j] = wa * qa[j] + wb * qb[j];
            n += sl[j] * sl[j];
        }
        for (int j = 0; j < 4; j++)
            dot += q[j] * sl[j];
        lowest = fmin(lowest, fabs(dot) / sqrt(n));
        if (lowest < least)
            return INFINITY;
    }
    double worst = 2.0 * pki_acos(fmin(1.0, lowest)) * DEG;
    /* only the move into 腕捩 turns the frame the elbow's bend is seen in */
    if (k != MV_UP || worst > bound)
        return worst;
    if (breaks_elbow(c, k, kr->row[i], m1))
        return INFINITY;
    for (uint32_t r = kr->row[i - 1] + 1; r < kr->row[i]; r++)
        if (breaks_elbow(c, k, r, m0 + c->w[r] * (m1 - m0)))
            return INFINITY;
    return worst;
}

/* Move k over every row of one arm: the twist is chosen at the source
 * bone's keys (all of it that shows, as far as the piece before allows)
 * and blended between them by the source's own curve; out[r] gets the
 * largest angle moved at each row (degrees). */
static bool move_keyed(const twist_ctx *c, int k, const key_rows *kr, double *moved)
{
    pki_arm_state *st = &c->z->arm[c->s];
    const pki_arm *a = &c->z->b.arm[c->s];
    const axes *x = c->x;
    double *m = malloc((kr->n + 1) * sizeof *m);
    if (!m)
        return false;
    for (size_t i = 0; i < kr->n; i++) {
        double phi = full_angle(st->q[kr->row[i]], a, x, k);
        if (!i) {
            m[0] = k == MV_UP && breaks_elbow(c, k, kr->row[0], phi) ? 0 : phi;
            continue;
        }
        double d = remainder(phi - m[i - 1], 2.0 * 3.14159265358979323846);
        piece_memo pm;
        pm.has_qa = pm.has_least = false;
        double full = piece_error(c, k, kr, i, m[i - 1], m[i - 1] + d, INFINITY, &pm);
        if (full <= EPS) {
            m[i] = m[i - 1] + d;
            continue;
        }
        /* the piece may already stray (an earlier move, a contact): what
         * it strays by with the twist held is allowed too */
        double e0 = piece_error(c, k, kr, i, m[i - 1], m[i - 1], INFINITY, &pm);
        double allowed = isfinite(e0) ? fmax(EPS, e0 * 1.001 + 1e-9) : INFINITY;
        if (full <= allowed) {
            m[i] = m[i - 1] + d;
            continue;
        }
        /* the most of the change the piece allows */
        double lo = 0, hi = 1;
        for (int it = 0; it < 8; it++) {
            double mid = (lo + hi) / 2;
            if (piece_error(c, k, kr, i, m[i - 1], m[i - 1] + mid * d, allowed, &pm) <= allowed)
                lo = mid;
            else
                hi = mid;
        }
        m[i] = m[i - 1] + lo * d;
    }
    size_t i = 0;
    for (uint32_t r = 0; r < st->n; r++) {
        while (i < kr->n && kr->row[i] < r)
            i++;
        double th;
        if (i == 0 || i == kr->n)
            th = m[i == 0 ? 0 : kr->n - 1];
        else if (kr->row[i] == r)
            th = m[i];
        else
            th = m[i - 1] + c->w[r] * (m[i] - m[i - 1]);
        apply_move(st->q[r], a, x, k, th);
        moved[r] = fmax(moved[r], fabs(th) * DEG);
    }
    free(m);
    return true;
}

/* Whether the motion turns twist bone b of B (its author distributed the
 * twist there: left as it is). */
static bool keyed_off_rest(const pki_sizing *z, const pk_track *t)
{
    for (size_t i = 0; t && i < t->count; i++)
        if (off_rest(z->output->bones[t->keys[i]].rot))
            return true;
    return false;
}

static int twist_arm(pki_sizing *z, int s, const pk_tracks *tr, pk_sizing_report *rep)
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    axes ax;
    if (!axes_of(z, s, &ax))
        return 0;
    /* a twist bone the motion already turns keeps the author's twist */
    if (a->twist_up >= 0 && keyed_off_rest(z, track_of(z, tr, a->bone[a->twist_up])))
        ax.arm = ax.elbow_up = false;
    if (a->twist_low >= 0 && keyed_off_rest(z, track_of(z, tr, a->bone[a->twist_low])))
        ax.elbow_down = ax.wrist = false;
    if (!ax.arm && !ax.elbow_up && !ax.elbow_down && !ax.wrist)
        return 0;
    rep->twist_done = true;
    uint32_t n = st->n;
    double *past = malloc((n + 1) * sizeof *past), *moved = calloc(n + 1, sizeof *moved);
    double *w = malloc((n + 1) * sizeof *w);
    double(*keep)[PKI_CHAIN_MAX][4] = malloc((n + 1) * sizeof *keep);
    int rc = -1;
    if (!past || !moved || !keep || !w)
        goto done;
    memcpy(keep, st->q, n * sizeof *keep);
    for (uint32_t r = 0; r < n; r++)
        past[r] = pki_elbow_past(z, s, r);
    twist_ctx c = {z, s, &ax, past, w};
    for (int k = 0; k < MV_COUNT; k++) {
        if (!move_on(&ax, k))
            continue;
        key_rows kr;
        bool ok = rows_of(z, track_of(z, tr, a->bone[move_source(a, k)]), &kr);
        if (ok) {
            weights(&kr, n, c.w);
            ok = move_keyed(&c, k, &kr, moved);
        }
        free(kr.row);
        free(kr.cp);
        if (!ok)
            goto done;
    }
    for (uint32_t r = 0; r < n; r++) {
        if (pki_elbow_worse(z, s, r, past[r])) {
            /* the elbow would look bent backwards in its twist bone */
            memcpy(st->q[r], keep[r], sizeof keep[r]);
            rep->refused++;
            continue;
        }
        if (moved[r] > 0.01) {
            rep->twist_frames++;
            st->twisted[r] = true;
        }
        rep->twist_deg = fmax(rep->twist_deg, moved[r]);
    }
    rc = 0;
done:
    free(past);
    free(moved);
    free(keep);
    free(w);
    return rc;
}

int pki_twist_step(pki_sizing *z, pk_sizing_report *rep, pk_tracks **keep, pk_log *log)
{
    pk_tracks *tr = z->output ? pk_tracks_build(z->output, NULL) : NULL;
    if (z->output && !tr) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++) {
        pki_arm_state *st = &z->arm[s];
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
        rc = twist_arm(z, s, tr, rep);
    }
    if (keep && !rc) {
        *keep = tr;
        tr = NULL;
    }
    pk_tracks_free(tr);
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return rc;
}
