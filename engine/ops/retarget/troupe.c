/*
 * troupe.c — several dancers sized together (posekit.h,
 * pk_motions_retarget_together): each dance retargeted from its model A_i
 * to its B_i with every step (retarget_model.c, sizing.c), one shared
 * scale for the translations, then the contacts between dancers.
 *
 * Shared scale.  Each dancer's translations (センター, 足ＩＫ, ...) scale
 * in X and Z by one factor s for all (pk_retarget_options.scale_xz), so
 * that the distances between dancers, which live in those translations,
 * scale by s too: a formation keeps its shape.  s is the options' scale,
 * else the mean over the dancers of B's leg over A's (pk_leg_scale.xz);
 * Y stays each dancer's own (a jump or a crouch is the body's).  With
 * `own`, each dancer keeps its own factor (as sized alone); the spacing is
 * then measured against the mean.
 *
 * Contacts between dancers.  Every dancer plays on A and on B (after its
 * own sizing) over the frames of every dance (the union of their keys'
 * spans; MMD holds a motion's last pose after its last key), each in its
 * own motion's world, as MMD places every model at the origin.  For each
 * ordered pair (i, j), the contacts of A_i's hands with A_j's hands and
 * body parts are found (contacts.c, pki_contacts_between; a pair of hands
 * once, by the lower dancer).  On B, per frame of a contact, for the point
 * of each hand that touches on A:
 *   - two hands meet around their midpoint, apart as on A times k (the
 *     mean of the two dancers' B arm over A arm), in A's direction; a
 *     dancer whose contacts step is off stays and the other moves the
 *     whole way;
 *   - a hand on a partner's part: A_j's nearest surface point is carried
 *     to B_j's part (figure.c, pki_part_carry), and the point lands off it
 *     along B_j's normal by A's gap times k_i.
 * A hand in several such contacts takes the mean of their offsets; the
 * offsets are eased in and out around the contact's frames (sizing_hands.c,
 * pki_hands_blend), each frame solved by sizing_arm.c (the elbow in its
 * plane, the hand's world rotation kept; an elbow that would bend past
 * its rest plane is refused) and the arms written back as sizing.c writes
 * them.  These offsets win over the dancer's own contacts on the frames
 * where a hand has both.
 *
 * Measures.  Spacing: per pair of dancers and frame, the distance between
 * their センター projected on the floor (X, Z) on B against A's times s,
 * as a fraction of the mean of the B's leg lengths (足->足首).  Gaps: per
 * contact frame, |gap_B - k gap_A| as a fraction of the hand's B arm,
 * before this step (each dancer sized alone, shared scale) and after.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "model/skeleton.h"
#include "ops/retarget/sizing.h"
#include "math/vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One contact between dancers: contact c of dancer i's hand with
 * partner j. */
typedef struct cross {
    size_t i, j;
    pki_contact c;
} cross;

typedef struct troupe {
    pk_dancer *d;
    size_t n;
    pk_motion **in;  /* the dances as given (A plays them) */
    pk_motion **out; /* sized, each alone then together */
    pki_sizing *z;   /* per dancer: A and B playing over the union span */
    uint32_t f0, rows;
    cross *v;
    size_t nv, cap;
    double *far; /* per dancer, hand and row (far_at): how far out of its arm's
                    reach (beyond it, 肩 turned, or nearer the shoulder than the
                    folded arm) a contact there sets its wrist, of its B arm
                    (targets_at, far_by; 0: within reach) */
} troupe;

static double *far_at(const troupe *t, size_t i, int s, uint32_t r)
{
    return &t->far[((size_t)i * 2 + (size_t)s) * t->rows + r];
}

static void dancer_error(pk_log *log, pk_diag_code code, size_t i, const char *msg)
{
    pk_error(log, code, "dancer %zu: %s", i + 1, msg);
}

/* ---- the shared scale ---- */

static int shared_scale(troupe *t, const pk_troupe_options *to, pk_troupe_report *rep, pk_log *log)
{
    double sum = 0;
    rep->ratio_min = INFINITY;
    rep->ratio_max = -INFINITY;
    for (size_t i = 0; i < t->n; i++) {
        pk_leg_scale ls;
        pk_log quiet;
        pk_log_init(&quiet);
        int rc = pk_retarget_scale(t->d[i].o.from, t->d[i].o.to, &ls, &quiet);
        bool source = rc != 0 && pk_retarget_scale(t->d[i].o.from, t->d[i].o.from, &ls, &quiet);
        pk_log_free(&quiet);
        if (rc != 0) {
            const char *name = source ? t->d[i].o.from_name : t->d[i].o.to_name;
            pk_error(log, PK_E_UNSUPPORTED,
                     "dancer %zu: the %s model%s%s%s has no leg (足 above 足首): the shared "
                     "scale needs every dancer's legs",
                     i + 1, source ? "source" : "target", name ? " (" : "", name ? name : "",
                     name ? ")" : "");
            return -1;
        }
        sum += ls.xz;
        rep->ratio_min = fmin(rep->ratio_min, ls.xz);
        rep->ratio_max = fmax(rep->ratio_max, ls.xz);
    }
    rep->own = to && to->own;
    rep->scale_given = to && to->scale > 0 && !rep->own;
    rep->scale = rep->scale_given ? to->scale : sum / (double)t->n;
    return 0;
}

/* ---- the span and the plays ---- */

static bool key_span(const pk_motion *m, uint32_t *f0, uint32_t *f1)
{
    for (size_t k = 0; k < m->nbones; k++) {
        *f0 = m->bones[k].frame < *f0 ? m->bones[k].frame : *f0;
        *f1 = m->bones[k].frame > *f1 ? m->bones[k].frame : *f1;
    }
    return m->nbones > 0;
}

static int open_all(troupe *t, pk_log *log)
{
    uint32_t f0 = UINT32_MAX, f1 = 0;
    bool any = false;
    for (size_t i = 0; i < t->n; i++)
        any |= key_span(t->in[i], &f0, &f1);
    if (!any)
        f0 = f1 = 0;
    if (f1 - f0 >= (1u << 22)) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "the dances' keys span frames %u-%u: too long to size together (a mistyped "
                 "frame?)",
                 f0, f1);
        return -1;
    }
    t->f0 = f0;
    t->rows = f1 - f0 + 1;
    for (size_t i = 0; i < t->n; i++)
        if (pki_sizing_open(&t->z[i], t->d[i].o.from, t->d[i].o.to, t->in[i], t->out[i], t->f0,
                            t->rows, log) != 0)
            return -1;
    return 0;
}

/* ---- contacts between dancers ---- */

/* Rows where dancers i and j stand in one place on the A's: their hips
 * (下半身) closer on the floor than a tenth of their legs' mean. */
static uint32_t one_place(const troupe *t, size_t i, size_t j)
{
    const pki_sizing *a = &t->z[i], *b = &t->z[j];
    int32_t ha = a->a.part[PKI_PART_HIPS].bone, hb = b->a.part[PKI_PART_HIPS].bone;
    double near = 0.1 * (a->a.leg_len + b->a.leg_len) / 2.0;
    uint32_t n = 0;
    for (uint32_t r = 0; ha >= 0 && hb >= 0 && r < t->rows; r++) {
        const double *p = pki_play_at(&a->pa, r, ha)->pos, *q = pki_play_at(&b->pa, r, hb)->pos;
        double dx = p[0] - q[0], dz = p[2] - q[2];
        n += sqrt(dx * dx + dz * dz) < near;
    }
    return n;
}

/* The contacts between every two dancers; none between two that stand in
 * one place on most frames (one dance twice, not placed apart: their
 * hands would "touch" throughout), said once. */
static int find_all(troupe *t, pk_troupe_report *rep, pk_log *log)
{
    for (size_t i = 0; i < t->n; i++)
        for (size_t j = 0; j < t->n; j++) {
            if (i == j)
                continue;
            uint32_t same = one_place(t, i < j ? i : j, i < j ? j : i);
            if (2 * same > t->rows) {
                rep->one_place += i < j;
                if (i < j)
                    pk_warning(log, PK_E_CONFLICT,
                               "dancers %zu and %zu stand in one place on %u of %u frames (their "
                               "hips closer than a tenth of a leg): no contact between them is "
                               "looked for (place them apart: 全ての親 or センター)",
                               i + 1, j + 1, same, t->rows);
                continue;
            }
            pki_contacts c;
            if (pki_contacts_between(&t->z[i].a, &t->z[i].pa, &t->z[j].a, &t->z[j].pa, i < j, &c) !=
                0)
                return -1;
            for (size_t k = 0; k < c.n; k++) {
                cross *x = pki_grow_push(&t->v, &t->nv, &t->cap, sizeof *t->v);
                if (!x) {
                    pki_contacts_free(&c);
                    return -1;
                }
                x->i = i;
                x->j = j;
                x->c = c.v[k];
            }
            pki_contacts_free(&c);
        }
    return 0;
}

/* Point at fraction f along a hand (wrist w, end e). */
static void along(const double w[3], const double e[3], double f, double p[3])
{
    for (int k = 0; k < 3; k++)
        p[k] = w[k] + f * (e[k] - w[k]);
}

/* k for a contact: the hand's dancer's B arm over A arm, the mean of both
 * dancers' for two hands. */
static double k_of(const troupe *t, const cross *x)
{
    double k = t->z[x->i].k;
    return x->c.with == PKI_WITH_HAND ? (k + t->z[x->j].k) / 2.0 : k;
}

/* The gap of contact x at row r on the A's (b false) or on the B's as the
 * plays pb[] show them (b true). */
static double gap_at(const troupe *t, const cross *x, uint32_t r, bool b, pki_play *const *pb,
                     pki_touch *out)
{
    const pki_sizing *zi = &t->z[x->i], *zj = &t->z[x->j];
    const pki_figure *fi = b ? &zi->b : &zi->a, *fj = b ? &zj->b : &zj->a;
    const pki_play *pi = b ? pb[x->i] : &zi->pa, *pj = b ? pb[x->j] : &zj->pa;
    int s = x->c.side;
    if (!fi->arm[s].ok)
        return INFINITY;
    double w[3], e[3];
    pki_hand_at(fi, pi, r, s, w, e);
    if (x->c.with != PKI_WITH_HAND)
        return pki_touch_part(fj, pj, r, x->c.with, w, e, out);
    if (!fj->arm[x->c.other].ok)
        return INFINITY;
    double w2[3], e2[3];
    pki_hand_at(fj, pj, r, x->c.other, w2, e2);
    return pki_touch_hands(w, e, w2, e2, out);
}

/* The offsets per dancer, hand and row: d[i][s][r] (sum over cnt). */
typedef struct offsets {
    double (*d[2])[3];
    int *cnt[2];
    bool *refused[2]; /* rows whose solve was refused (the hand stayed) */
} offsets;

static void add_offset(offsets *o, int s, uint32_t r, const double v[3])
{
    for (int k = 0; k < 3; k++)
        o->d[s][r][k] += v[k];
    o->cnt[s][r]++;
}

/* Whether dancer i's hand s may move (its contacts step on, its arm sized). */
static bool movable(const troupe *t, size_t i, int s)
{
    return !t->d[i].o.no_contacts && t->z[i].arm[s].n > 0;
}

/* How far an arm's wrist reaches from its shoulder (腕), a hair short of
 * straight. */
static double reach(const pki_figure *f, int s)
{
    return (f->arm[s].upper + f->arm[s].fore) * 0.999;
}

/* p moved into the ball (c, r) by the shortest way. */
static void into_ball(double p[3], const double c[3], double r)
{
    double d[3];
    pki_v3_sub(p, c, d);
    double len = pki_v3_len(d);
    if (len <= r || !(len > 0))
        return;
    for (int k = 0; k < 3; k++)
        p[k] = c[k] + d[k] * r / len;
}

/* Where two hands meet: m (their midpoint) moved into both arms' reach
 * (balls a and b) by alternating projections; when the balls do not meet,
 * halfway between their nearest points (both arms stretched). */
static void meeting(double m[3], const double a[3], double ra, const double b[3], double rb)
{
    for (int it = 0; it < 32; it++) {
        into_ball(m, a, ra);
        into_ball(m, b, rb);
    }
    double p[3] = {m[0], m[1], m[2]};
    into_ball(p, a, ra);
    for (int k = 0; k < 3; k++)
        m[k] = (m[k] + p[k]) / 2.0;
}

/* Wrist target w of dancer i's hand s at row r: how far out of the arm's
 * reach (beyond it, 肩 turned towards it, or within the folded arm's) it
 * lies, kept where larger than before. */
static void far_by(const troupe *t, size_t i, int s, uint32_t r, const double w[3])
{
    double top[3], *f = far_at(t, i, s, r);
    *f = fmax(*f, pki_arm_short(&t->z[i], s, r, w, 0, top, NULL) / t->z[i].b.arm_len);
}

/* The offsets contact x asks for at row r. */
static void targets_at(const troupe *t, const cross *x, uint32_t r, offsets *o)
{
    pki_touch ta;
    if (!isfinite(gap_at(t, x, r, false, NULL, &ta)))
        return;
    const pki_sizing *zi = &t->z[x->i], *zj = &t->z[x->j];
    int s = x->c.side;
    if (!zi->b.arm[s].ok)
        return;
    double wb[3], eb[3], q[3], k = k_of(t, x);
    pki_hand_at(&zi->b, &zi->pb, r, s, wb, eb);
    along(wb, eb, ta.at[0], q);
    if (x->c.with == PKI_WITH_HAND) {
        int so = x->c.other;
        if (!zj->b.arm[so].ok)
            return;
        double wa[3], ea[3], wa2[3], ea2[3], pa[3], pa2[3], wb2[3], eb2[3], q2[3];
        pki_hand_at(&zi->a, &zi->pa, r, s, wa, ea);
        pki_hand_at(&zj->a, &zj->pa, r, so, wa2, ea2);
        along(wa, ea, ta.at[0], pa);
        along(wa2, ea2, ta.at[1], pa2);
        pki_hand_at(&zj->b, &zj->pb, r, so, wb2, eb2);
        along(wb2, eb2, ta.at[1], q2);
        bool mi = movable(t, x->i, s), mj = movable(t, x->j, so);
        double di[3], dj[3], v[3], m[3], ci[3], cj[3];
        for (int c = 0; c < 3; c++) {
            v[c] = (pa[c] - pa2[c]) * k / 2.0;
            m[c] = (q[c] + q2[c]) / 2.0;
            /* where the touching point can go: its arm's reach about the
             * shoulder, carried by the hand (its rotation is kept) */
            ci[c] = pki_play_at(&zi->pb, r, zi->b.arm[s].bone[0])->pos[c] + q[c] - wb[c] - v[c];
            cj[c] = pki_play_at(&zj->pb, r, zj->b.arm[so].bone[0])->pos[c] + q2[c] - wb2[c] + v[c];
        }
        if (mi && mj) {
            meeting(m, ci, reach(&zi->b, s), cj, reach(&zj->b, so));
            /* each arm's reach with its 肩 turned towards where its wrist
             * goes, and the meeting point again within both */
            double gi[3], gj[3], si[3], sj[3];
            for (int c = 0; c < 3; c++) {
                gi[c] = m[c] + v[c] - (q[c] - wb[c]);
                gj[c] = m[c] - v[c] - (q2[c] - wb2[c]);
            }
            pki_arm_short(zi, s, r, gi, 1e-3, si, NULL);
            pki_arm_short(zj, so, r, gj, 1e-3, sj, NULL);
            for (int c = 0; c < 3; c++) {
                ci[c] = si[c] + q[c] - wb[c] - v[c];
                cj[c] = sj[c] + q2[c] - wb2[c] + v[c];
            }
            meeting(m, ci, reach(&zi->b, s), cj, reach(&zj->b, so));
            /* how far each wrist's target lies beyond its arm */
            for (int c = 0; c < 3; c++) {
                gi[c] = m[c] + v[c] - (q[c] - wb[c]);
                gj[c] = m[c] - v[c] - (q2[c] - wb2[c]);
            }
            far_by(t, x->i, s, r, gi);
            far_by(t, x->j, so, r, gj);
        }
        for (int c = 0; c < 3; c++) {
            if (mi && mj) {
                di[c] = m[c] + v[c] - q[c];
                dj[c] = m[c] - v[c] - q2[c];
            } else {
                di[c] = q2[c] + 2.0 * v[c] - q[c];
                dj[c] = q[c] - 2.0 * v[c] - q2[c];
            }
        }
        if (mi)
            add_offset(&o[x->i], s, r, di);
        if (mj)
            add_offset(&o[x->j], so, r, dj);
        return;
    }
    if (!movable(t, x->i, s) || zj->b.part[x->c.with].bone < 0)
        return;
    pki_placed pa, pb;
    pki_part_place(&zj->a, &zj->pa, r, x->c.with, &pa);
    pki_part_place(&zj->b, &zj->pb, r, x->c.with, &pb);
    double carried[3], surf[3], nrm[3], d[3];
    pki_part_carry(&pa, &pb, ta.surf, carried);
    pki_part_distance(&pb, carried, surf, nrm);
    double goal[3];
    for (int c = 0; c < 3; c++) {
        d[c] = surf[c] + nrm[c] * ta.gap * zi->k - q[c];
        goal[c] = wb[c] + d[c];
    }
    far_by(t, x->i, s, r, goal);
    add_offset(&o[x->i], s, r, d);
}

static void offsets_free(offsets *o, size_t n)
{
    for (size_t i = 0; o && i < n; i++)
        for (int s = 0; s < 2; s++) {
            free(o[i].d[s]);
            free(o[i].cnt[s]);
            free(o[i].refused[s]);
        }
    free(o);
}

/* Eases one hand's offsets and solves its arm on the moved rows. */
static int solve_hand(troupe *t, size_t i, int s, offsets *o, pk_troupe_report *rep)
{
    uint32_t n = t->rows;
    bool *has = calloc(n + 1, 1), *moved = calloc(n + 1, 1);
    if (!has || !moved) {
        free(has);
        free(moved);
        return -1;
    }
    bool any = false;
    for (uint32_t r = 0; r < n; r++) {
        has[r] = o->cnt[s][r] > 0;
        for (int k = 0; k < 3 && has[r]; k++)
            o->d[s][r][k] /= o->cnt[s][r];
        any |= has[r];
    }
    if (any)
        pki_hands_blend(n, o->d[s], has, moved);
    pki_sizing *z = &t->z[i];
    for (uint32_t r = 0; any && r < n; r++) {
        if (!moved[r] || !(pki_v3_len(o->d[s][r]) > 1e-9 * z->b.arm_len))
            continue;
        double rot[PKI_CHAIN_MAX][4], pos[PKI_CHAIN_MAX][3], goal[3];
        pki_arm_fk(&z->arm[s], r, false, rot, pos);
        for (int k = 0; k < 3; k++)
            goal[k] = pos[z->arm[s].nb - 1][k] + o->d[s][r][k];
        int got = pki_arm_reach_far(z, s, r, goal);
        if (got < 0) {
            o->refused[s][r] = true;
            rep->refused++;
            continue;
        }
        rep->moved_frames++;
        rep->out_of_reach += got == 1;
        rep->folded += got == 2;
    }
    free(has);
    free(moved);
    return 0;
}

/* B's hand s of dancer z at row r as its arm state has it now. */
static void hand_now(const pki_sizing *z, int s, uint32_t r, double w[3], double e[3])
{
    const pki_arm_state *st = &z->arm[s];
    if (!st->n) {
        pki_hand_at(&z->b, &z->pb, r, s, w, e);
        return;
    }
    double rot[PKI_CHAIN_MAX][4], pos[PKI_CHAIN_MAX][3], v[3];
    pki_arm_fk(st, r, false, rot, pos);
    memcpy(w, pos[st->nb - 1], 3 * sizeof *w);
    pki_qd_rotate(rot[st->nb - 1], st->tip[r], v);
    for (int k = 0; k < 3; k++)
        e[k] = w[k] + v[k];
}

/* Contact x's gap error at row r on the B's as their arm states have it
 * now (of the hand's B arm); NAN where A has no such gap. */
static double error_now(const troupe *t, const cross *x, uint32_t r)
{
    double ga = gap_at(t, x, r, false, NULL, NULL);
    const pki_sizing *zi = &t->z[x->i], *zj = &t->z[x->j];
    if (!isfinite(ga) || !zi->b.arm[x->c.side].ok ||
        (x->c.with == PKI_WITH_HAND && !zj->b.arm[x->c.other].ok))
        return NAN;
    double w[3], e[3], g;
    hand_now(zi, x->c.side, r, w, e);
    if (x->c.with == PKI_WITH_HAND) {
        double w2[3], e2[3];
        hand_now(zj, x->c.other, r, w2, e2);
        g = pki_touch_hands(w, e, w2, e2, NULL);
    } else {
        g = pki_touch_part(&zj->b, &zj->pb, r, x->c.with, w, e, NULL);
    }
    return isfinite(g) ? fabs(g - k_of(t, x) * ga) / zi->b.arm_len : 1.0;
}

/* Where one of two holding hands was refused (its elbow would have bent
 * backwards), the other moves the whole way to it instead of halfway. */
static void settle(troupe *t, offsets *o, pk_troupe_report *rep)
{
    for (size_t k = 0; k < t->nv; k++) {
        const cross *x = &t->v[k];
        if (x->c.with != PKI_WITH_HAND)
            continue;
        for (uint32_t r = x->c.first; r <= x->c.last && r < t->rows; r++) {
            bool ri = o[x->i].refused[x->c.side][r], rj = o[x->j].refused[x->c.other][r];
            if (ri == rj)
                continue;
            size_t a = ri ? x->i : x->j, b = ri ? x->j : x->i; /* a stayed, b moves */
            int sa = ri ? x->c.side : x->c.other, sb = ri ? x->c.other : x->c.side;
            pki_touch ta;
            if (!movable(t, b, sb) || !isfinite(gap_at(t, x, r, false, NULL, &ta)))
                continue;
            /* the touching points, as on A, a's stays */
            double fa = ri ? ta.at[0] : ta.at[1], fb = ri ? ta.at[1] : ta.at[0];
            double wa[3], ea[3], wb[3], eb[3], pa[3], pb[3], qa[3], qb[3], goal[3];
            hand_now(&t->z[a], sa, r, wa, ea);
            hand_now(&t->z[b], sb, r, wb, eb);
            along(wa, ea, fa, qa);
            along(wb, eb, fb, qb);
            double aw[3], ae[3], bw[3], be[3];
            pki_hand_at(&t->z[a].a, &t->z[a].pa, r, sa, aw, ae);
            pki_hand_at(&t->z[b].a, &t->z[b].pa, r, sb, bw, be);
            along(aw, ae, fa, pa);
            along(bw, be, fb, pb);
            double k2 = k_of(t, x);
            for (int c = 0; c < 3; c++)
                goal[c] = wb[c] + (qa[c] + (pb[c] - pa[c]) * k2) - qb[c];
            if (pki_arm_reach(&t->z[b], sb, r, goal) >= 0)
                rep->settled++;
        }
    }
}

/* No contact row ends worse than each dancer sized alone: where the gap
 * error grew, the hands it involves go back to where they were. */
static void guard(troupe *t, pk_troupe_report *rep)
{
    for (size_t k = 0; k < t->nv; k++) {
        const cross *x = &t->v[k];
        for (uint32_t r = x->c.first; r <= x->c.last && r < t->rows; r++) {
            double now = error_now(t, x, r);
            if (!isfinite(now))
                continue;
            pki_arm_state *si = &t->z[x->i].arm[x->c.side];
            pki_arm_state *sj = x->c.with == PKI_WITH_HAND ? &t->z[x->j].arm[x->c.other] : NULL;
            pki_arm_row keep_i, keep_j;
            if (si->n)
                pki_arm_save(si, r, &keep_i);
            if (sj && sj->n)
                pki_arm_save(sj, r, &keep_j);
            if (si->n)
                pki_arm_reset(si, r);
            if (sj && sj->n)
                pki_arm_reset(sj, r);
            double before = error_now(t, x, r);
            if (now <= before + 1e-9) {
                if (si->n)
                    pki_arm_load(si, r, &keep_i);
                if (sj && sj->n)
                    pki_arm_load(sj, r, &keep_j);
            } else {
                rep->kept++;
            }
        }
    }
}

static int hold_all(troupe *t, pk_troupe_report *rep, pk_log *log)
{
    uint32_t n = t->rows;
    offsets *o = calloc(t->n, sizeof *o);
    int rc = -1;
    if (!o)
        goto done;
    for (size_t i = 0; i < t->n; i++)
        for (int s = 0; s < 2; s++) {
            o[i].d[s] = calloc(n + 1, sizeof *o[i].d[s]);
            o[i].cnt[s] = calloc(n + 1, sizeof *o[i].cnt[s]);
            o[i].refused[s] = calloc(n + 1, sizeof *o[i].refused[s]);
            if (!o[i].d[s] || !o[i].cnt[s] || !o[i].refused[s])
                goto done;
        }
    for (size_t k = 0; k < t->nv; k++)
        for (uint32_t r = t->v[k].c.first; r <= t->v[k].c.last && r < n; r++)
            targets_at(t, &t->v[k], r, o);
    bool *moved = calloc(t->n + 1, sizeof *moved);
    if (!moved)
        goto done;
    for (size_t i = 0; i < t->n; i++)
        for (int s = 0; s < 2; s++) {
            size_t before = rep->moved_frames;
            if (solve_hand(t, i, s, &o[i], rep) != 0) {
                free(moved);
                goto done;
            }
            moved[i] |= rep->moved_frames > before;
        }
    settle(t, o, rep);
    guard(t, rep);
    for (size_t i = 0; i < t->n; i++) {
        if (!moved[i])
            continue;
        pk_sizing_report sr;
        memset(&sr, 0, sizeof sr);
        if (pki_sizing_write(&t->z[i], t->out[i], &t->d[i].o, &sr, log) != 0) {
            free(moved);
            offsets_free(o, t->n);
            return -1; /* said */
        }
        rep->keys += sr.keys;
    }
    free(moved);
    rc = 0;
done:
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    offsets_free(o, t->n);
    return rc;
}

/* ---- measures ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double p95(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t k = (size_t)ceil(0.95 * (double)n);
    return v[k ? k - 1 : 0];
}

/* A contact frame counts as beyond reach where a wrist's target of it lies
 * further than this (of its B arm) beyond the arm (sizing_hands.c's rule). */
#define FAR 1e-3

/* Each contact's gaps before (the B plays of t->z) and after (after[]);
 * apart, those of the frames within reach. */
static int measure_gaps(const troupe *t, pki_play *const *after, pk_troupe_report *rep)
{
    size_t total = 0;
    for (size_t k = 0; k < t->nv; k++)
        total += t->v[k].c.last - t->v[k].c.first + 1;
    /* e[0], e[1]: every frame's error before, after; e[2], e[3]: the same
     * on the frames the arms reach */
    double *e[4];
    for (int q = 0; q < 4; q++)
        e[q] = malloc((total + 1) * sizeof *e[q]);
    rep->contacts = calloc(t->nv + 1, sizeof *rep->contacts);
    pki_play **before = malloc((t->n + 1) * sizeof *before);
    if (!e[0] || !e[1] || !e[2] || !e[3] || !rep->contacts || !before) {
        for (int q = 0; q < 4; q++)
            free(e[q]);
        free(before);
        return -1;
    }
    for (size_t i = 0; i < t->n; i++)
        before[i] = &t->z[i].pb;
    size_t m = 0, mr = 0;
    double sb = 0, sa = 0, srb = 0, sra = 0;
    for (size_t k = 0; k < t->nv; k++) {
        const cross *x = &t->v[k];
        pk_troupe_contact *c = &rep->contacts[rep->ncontacts++];
        c->dancer = x->i;
        c->partner = x->j;
        c->side = x->c.side;
        if (x->c.with == PKI_WITH_HAND)
            snprintf(c->with, sizeof c->with, "%s hand", x->c.other ? "right" : "left");
        else
            snprintf(c->with, sizeof c->with, "%s", pki_with_name(x->c.with));
        c->first = t->f0 + x->c.first;
        c->last = t->f0 + x->c.last;
        c->gap_a = x->c.min_gap / t->z[x->i].a.arm_len;
        double arm = t->z[x->i].b.arm_len, k2 = k_of(t, x);
        size_t cn = 0;
        for (uint32_t r = x->c.first; r <= x->c.last; r++) {
            double ga = gap_at(t, x, r, false, NULL, NULL);
            if (!isfinite(ga))
                continue;
            double g0 = gap_at(t, x, r, true, before, NULL);
            double g1 = gap_at(t, x, r, true, after, NULL);
            double e0 = isfinite(g0) ? fabs(g0 - k2 * ga) / arm : 1.0;
            double e1 = isfinite(g1) ? fabs(g1 - k2 * ga) / arm : 1.0;
            c->before_mean += e0;
            c->after_mean += e1;
            c->before_max = fmax(c->before_max, e0);
            c->after_max = fmax(c->after_max, e1);
            e[0][m] = e0;
            e[1][m] = e1;
            sb += e0;
            sa += e1;
            m++;
            cn++;
            double far = *far_at(t, x->i, x->c.side, r);
            if (x->c.with == PKI_WITH_HAND)
                far = fmax(far, *far_at(t, x->j, x->c.other, r));
            if (far > FAR) {
                rep->reach_short_max = fmax(rep->reach_short_max, far);
                continue;
            }
            e[2][mr] = e0;
            e[3][mr] = e1;
            srb += e0;
            sra += e1;
            mr++;
        }
        if (cn) {
            c->before_mean /= (double)cn;
            c->after_mean /= (double)cn;
        }
    }
    free(before);
    rep->contact_frames = m;
    if (m) {
        rep->gap_before_mean = sb / (double)m;
        rep->gap_after_mean = sa / (double)m;
        rep->gap_before_p95 = p95(e[0], m);
        rep->gap_after_p95 = p95(e[1], m);
    }
    rep->reach_frames = mr;
    if (mr) {
        rep->reach_before_mean = srb / (double)mr;
        rep->reach_after_mean = sra / (double)mr;
        rep->reach_before_p95 = p95(e[2], mr);
        rep->reach_after_p95 = p95(e[3], mr);
    }
    for (int q = 0; q < 4; q++)
        free(e[q]);
    return 0;
}

/* The centre's world position of every dancer on A and on B (after), per
 * row: played with the centre bone alone. */
static int play_centre(const pk_model *m, const pk_motion *mo, uint32_t f0, uint32_t n,
                       int32_t bone, pki_play *out, pk_log *log)
{
    bool *watch = calloc(m->nbones + 1, sizeof *watch);
    if (!watch) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    watch[bone] = true;
    int rc = pki_play_motion(out, m, mo, f0, n, watch, log);
    free(watch);
    return rc;
}

static double ground_dist(const pk_bone_world *a, const pk_bone_world *b)
{
    double dx = a->pos[0] - b->pos[0], dz = a->pos[2] - b->pos[2];
    return sqrt(dx * dx + dz * dz);
}

static int measure_spacing(const troupe *t, pk_troupe_report *rep, pk_log *log)
{
    size_t n = t->n;
    int32_t *ca = malloc((n + 1) * sizeof *ca), *cb = malloc((n + 1) * sizeof *cb);
    pki_play *pa = calloc(n + 1, sizeof *pa), *pb = calloc(n + 1, sizeof *pb);
    int rc = -1;
    if (!ca || !cb || !pa || !pb) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    bool all = true;
    double leg = 0;
    for (size_t i = 0; i < n; i++) {
        ca[i] = (int32_t)pki_model_find_bone_utf8(t->d[i].o.from, "センター");
        cb[i] = (int32_t)pki_model_find_bone_utf8(t->d[i].o.to, "センター");
        all = all && ca[i] >= 0 && cb[i] >= 0;
        leg += t->z[i].b.leg_len;
    }
    rep->leg = leg / (double)n;
    rep->first = t->f0;
    rep->last = t->f0 + t->rows - 1;
    if (!all || n < 2 || !(rep->leg > 0)) {
        rc = 0; /* no pair to measure: said by pairs 0 */
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (play_centre(t->d[i].o.from, t->in[i], t->f0, t->rows, ca[i], &pa[i], log) != 0 ||
            play_centre(t->d[i].o.to, t->out[i], t->f0, t->rows, cb[i], &pb[i], log) != 0)
            goto done;
    double sum = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            rep->pairs++;
            for (uint32_t r = 0; r < t->rows; r++) {
                double da =
                    ground_dist(pki_play_at(&pa[i], r, ca[i]), pki_play_at(&pa[j], r, ca[j]));
                double db =
                    ground_dist(pki_play_at(&pb[i], r, cb[i]), pki_play_at(&pb[j], r, cb[j]));
                double e = fabs(db - rep->scale * da) / rep->leg;
                sum += e;
                cnt++;
                if (e > rep->spacing_max || cnt == 1) {
                    rep->spacing_max = e;
                    rep->spacing_worst_frame = t->f0 + r;
                    rep->spacing_worst[0] = i;
                    rep->spacing_worst[1] = j;
                    rep->spacing_worst_a = da;
                    rep->spacing_worst_b = db;
                }
            }
        }
    rep->spacing_mean = cnt ? sum / (double)cnt : 0;
    rc = 0;
done:
    for (size_t i = 0; pa && pb && i < n; i++) {
        pki_play_free(&pa[i]);
        pki_play_free(&pb[i]);
    }
    free(ca);
    free(cb);
    free(pa);
    free(pb);
    return rc;
}

static int measure(troupe *t, pk_troupe_report *rep, pk_log *log)
{
    /* B as written: the dancers whose arms moved play again */
    pki_play *replayed = calloc(t->n + 1, sizeof *replayed);
    pki_play **after = calloc(t->n + 1, sizeof *after);
    int rc = -1;
    if (!replayed || !after) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < t->n; i++) {
        after[i] = &t->z[i].pb;
        bool moved = false;
        for (size_t k = 0; k < t->nv && !moved; k++)
            moved = t->v[k].i == i || (t->v[k].j == i && t->v[k].c.with == PKI_WITH_HAND);
        if (!moved)
            continue;
        bool *watch = calloc(t->d[i].o.to->nbones + 1, sizeof *watch);
        if (!watch) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            goto done;
        }
        pki_figure_watch(&t->z[i].b, watch);
        int prc =
            pki_play_motion(&replayed[i], t->d[i].o.to, t->out[i], t->f0, t->rows, watch, log);
        free(watch);
        if (prc != 0)
            goto done;
        after[i] = &replayed[i];
    }
    if (measure_gaps(t, after, rep) != 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    rc = measure_spacing(t, rep, log);
done:
    for (size_t i = 0; replayed && i < t->n; i++)
        pki_play_free(&replayed[i]);
    free(replayed);
    free(after);
    return rc;
}

/* ---- the run ---- */

static void troupe_free(troupe *t)
{
    for (size_t i = 0; i < t->n; i++) {
        if (t->in)
            pk_motion_free(t->in[i]);
        if (t->out)
            pk_motion_free(t->out[i]);
        if (t->z)
            pki_sizing_close(&t->z[i]);
    }
    free(t->in);
    free(t->out);
    free(t->z);
    free(t->v);
    free(t->far);
}

/* Each dancer retargeted alone with the shared scale (on copies). */
static int each_alone(troupe *t, const pk_troupe_report *rep, pk_log *log)
{
    for (size_t i = 0; i < t->n; i++) {
        pk_dancer *d = &t->d[i];
        pk_retarget_options o = d->o;
        o.scale_xz = rep->own ? 0 : rep->scale;
        d->o.scale_xz = o.scale_xz;
        /* its centre at rest where its source's stands, scaled */
        long ca = pki_model_find_bone_utf8(o.from, "センター");
        long cb = pki_model_find_bone_utf8(o.to, "センター");
        if (t->n > 1 && !rep->own && ca >= 0 && cb >= 0) {
            const float *pa = o.from->bones[ca].pos, *pb = o.to->bones[cb].pos;
            o.place[0] = rep->scale * pa[0] - pb[0];
            o.place[1] = rep->scale * pa[2] - pb[2];
            if (fabs(o.place[0]) < 1e-6 && fabs(o.place[1]) < 1e-6)
                o.place[0] = o.place[1] = 0;
        }
        size_t from = log->count;
        int rc = pk_motion_retarget_models(t->out[i], d->rules, &o, d->stats, d->rep, log);
        if (d->name)
            pk_log_place(log, from, d->name);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int check_dancers(const pk_dancer *d, size_t n, pk_log *log)
{
    if (!d || n == 0) {
        pk_error(log, PK_E_USAGE, "no dancer to size");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!d[i].motion) {
            dancer_error(log, PK_E_USAGE, i, "no motion (dancers are sized as motions)");
            return -1;
        }
        if (!d[i].o.from || !d[i].o.to) {
            dancer_error(log, PK_E_USAGE, i,
                         "both models are needed (the one its dance was made for, and the one "
                         "it is for)");
            return -1;
        }
        if (d[i].o.no_scale) {
            dancer_error(log, PK_E_USAGE, i,
                         "the scale step is off: dancers sized together share one scale");
            return -1;
        }
    }
    return 0;
}

int pk_motions_retarget_together(pk_dancer *d, size_t n, const pk_troupe_options *to,
                                 pk_troupe_report *rep, pk_log *log)
{
    pk_troupe_report own;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    if (check_dancers(d, n, log) != 0)
        return -1;
    troupe t;
    memset(&t, 0, sizeof t);
    t.d = d;
    t.n = n;
    int rc = -1;
    t.in = calloc(n, sizeof *t.in);
    t.out = calloc(n, sizeof *t.out);
    t.z = calloc(n, sizeof *t.z);
    if (!t.in || !t.out || !t.z)
        goto oom;
    for (size_t i = 0; i < n; i++)
        if (!(t.in[i] = pk_motion_clone(d[i].motion)) || !(t.out[i] = pk_motion_clone(d[i].motion)))
            goto oom;
    if (shared_scale(&t, to, rep, log) != 0 || each_alone(&t, rep, log) != 0 ||
        open_all(&t, log) != 0)
        goto done;
    if (!(t.far = calloc(n * 2 * (size_t)t.rows + 1, sizeof *t.far)) || find_all(&t, rep, log) != 0)
        goto oom;
    if (hold_all(&t, rep, log) != 0 || measure(&t, rep, log) != 0)
        goto done;
    /* every dancer done: the motions change together */
    for (size_t i = 0; i < n; i++) {
        pk_motion tmp = *d[i].motion;
        *d[i].motion = *t.out[i];
        *t.out[i] = tmp;
    }
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    troupe_free(&t);
    if (rep == &own)
        pk_troupe_report_free(&own);
    return rc;
}

void pk_troupe_report_free(pk_troupe_report *r)
{
    if (!r)
        return;
    free(r->contacts);
    r->contacts = NULL;
    r->ncontacts = 0;
}
