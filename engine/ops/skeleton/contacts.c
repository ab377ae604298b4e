/*
 * contacts.c — where the source model's hands touch something (contacts.h).
 *
 * A hand is the segment from its wrist (手首) to the end of its middle
 * finger (中指先, else the last finger or hand bone it has).  At every
 * frame of A's play, each hand's gap is measured to
 *   - the other hand: the distance between the two segments;
 *   - each body part (figure.c): the least signed distance from nine
 *     points along the segment to the part's surface;
 *   - the floor: the height of the segment's lowest point.
 * A hand touches when the gap is below a reach relative to A's arm
 * length L (腕->ひじ->手首): 10% of L to the other hand, 6% of L to a
 * part or the floor (the hand's bones lie inside its flesh, so a hand
 * resting on a cheek shows a gap of 2-4% of L).  A touch lasts until the
 * gap grows past 1.25 times the reach; two touches of the same pair
 * apart by two frames or less are one.  A touch that goes deeper inside
 * a part than the reach is a hand passing through it (a short model's
 * hands through its large head), not a contact.  Each (hand, what) pair is one
 * contact with its first and last frame.
 *
 * Between two figures (two dancers playing side by side, each in its own
 * motion's world), the same for each hand of the first against the
 * second's parts and hands, at the first's reach.
 */
#include "common/grow.h"
#include "math/quat.h"
#include "ops/skeleton/contacts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pki_with_name(int with)
{
    if (with == PKI_WITH_HAND)
        return "other hand";
    if (with == PKI_WITH_FLOOR)
        return "floor";
    return pki_part_name((pki_part_kind)with);
}

double pki_reach(const pki_figure *a, int with)
{
    return (with == PKI_WITH_HAND ? PKI_REACH_HANDS : PKI_REACH_BODY) * a->arm_len;
}

void pki_hand_at(const pki_figure *f, const pki_play *p, uint32_t row, int side, double w[3],
                 double t[3])
{
    const pki_arm *a = &f->arm[side];
    const pk_bone_world *x = pki_play_at(p, row, a->bone[a->n - 1]);
    memcpy(w, x->pos, 3 * sizeof *w);
    if (a->tip >= 0) {
        memcpy(t, pki_play_at(p, row, a->tip)->pos, 3 * sizeof *t);
        return;
    }
    double v[3];
    pki_qd_rotate(x->rot, a->tip_off, v);
    for (int k = 0; k < 3; k++)
        t[k] = w[k] + v[k];
}

/* Closest points of segments p0-p1 and q0-q1: parameters s, t. */
static double seg_seg(const double p0[3], const double p1[3], const double q0[3],
                      const double q1[3], double *s, double *t)
{
    double d1[3], d2[3], r[3];
    for (int k = 0; k < 3; k++) {
        d1[k] = p1[k] - p0[k];
        d2[k] = q1[k] - q0[k];
        r[k] = p0[k] - q0[k];
    }
    double a = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];
    double e = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];
    double f = d2[0] * r[0] + d2[1] * r[1] + d2[2] * r[2];
    double c = d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2];
    double b = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2];
    double sc = 0, tc = 0;
    if (a <= 1e-12 && e <= 1e-12) {
        sc = tc = 0;
    } else if (a <= 1e-12) {
        tc = fmin(1, fmax(0, f / e));
    } else if (e <= 1e-12) {
        sc = fmin(1, fmax(0, -c / a));
    } else {
        double den = a * e - b * b;
        sc = den > 1e-12 ? fmin(1, fmax(0, (b * f - c * e) / den)) : 0;
        tc = (b * sc + f) / e;
        if (tc < 0) {
            tc = 0;
            sc = fmin(1, fmax(0, -c / a));
        } else if (tc > 1) {
            tc = 1;
            sc = fmin(1, fmax(0, (b - c) / a));
        }
    }
    *s = sc;
    *t = tc;
    double dd = 0;
    for (int k = 0; k < 3; k++) {
        double x = (p0[k] + sc * d1[k]) - (q0[k] + tc * d2[k]);
        dd += x * x;
    }
    return sqrt(dd);
}

void pki_part_place(const pki_figure *f, const pki_play *p, uint32_t row, int part, pki_placed *out)
{
    const pk_bone_world *x = pki_play_at(p, row, f->part[part].bone);
    out->part = &f->part[part];
    memcpy(out->rot, x->rot, sizeof out->rot);
    memcpy(out->pos, x->pos, sizeof out->pos);
}

/* How near the segment w-t must come to a part's bounding sphere for its
 * gap to be measured: every point of every rigid body of the part lies
 * within the sphere, so the gap (at least the distance to the sphere,
 * inside a body too) is beyond 1.25 times the reach elsewhere, where
 * follow() takes it as no touch, as it takes INFINITY; the last 0.05 of
 * the reach covers the rounding of the sphere's place (below 1e-12 of
 * it). */
#define NEAR_REACH 1.3

/* Whether the segment w-t comes near the part's bounding sphere at all. */
static bool near_part(const pki_placed *pl, const double w[3], const double t[3], double margin)
{
    double c[3], v[3];
    pki_qd_rotate(pl->rot, pl->part->centre, v);
    for (int k = 0; k < 3; k++)
        c[k] = pl->pos[k] + v[k];
    double h = pl->part->half[0], r = sqrt(h * h + pl->part->half[1] * pl->part->half[1] +
                                           pl->part->half[2] * pl->part->half[2]);
    double s, u;
    double d = seg_seg(w, t, c, c, &s, &u);
    return d < r + margin;
}

enum { SAMPLES = 9 };

double pki_touch_hands(const double w0[3], const double t0[3], const double w1[3],
                       const double t1[3], pki_touch *out)
{
    pki_touch tmp;
    if (!out)
        out = &tmp;
    memset(out, 0, sizeof *out);
    out->gap = seg_seg(w0, t0, w1, t1, &out->at[0], &out->at[1]);
    return out->gap;
}

double pki_touch_part(const pki_figure *f, const pki_play *p, uint32_t row, int with,
                      const double w[3], const double t[3], pki_touch *out)
{
    pki_touch tmp;
    if (!out)
        out = &tmp;
    memset(out, 0, sizeof *out);
    out->gap = INFINITY;
    if (with == PKI_WITH_FLOOR) {
        out->at[0] = w[1] <= t[1] ? 0.0 : 1.0;
        out->gap = fmin(w[1], t[1]);
        const double *c = out->at[0] == 0.0 ? w : t;
        out->surf[0] = c[0];
        out->surf[2] = c[2];
        out->normal[1] = 1.0;
        return out->gap;
    }
    if (with < 0 || with >= PKI_PART_COUNT || f->part[with].bone < 0)
        return INFINITY;
    pki_placed pl;
    pki_part_place(f, p, row, with, &pl);
    for (int i = 0; i < SAMPLES; i++) {
        double s = (double)i / (SAMPLES - 1), q[3], surf[3], n[3];
        for (int k = 0; k < 3; k++)
            q[k] = w[k] + s * (t[k] - w[k]);
        double d = pki_part_distance(&pl, q, surf, n);
        if (d < out->gap) {
            out->gap = d;
            out->at[0] = s;
            memcpy(out->surf, surf, sizeof surf);
            memcpy(out->normal, n, sizeof n);
        }
    }
    return out->gap;
}

double pki_touch_with(const pki_figure *f, const pki_play *p, uint32_t row, int side, int with,
                      const double w[2][3], const double t[2][3], pki_touch *out)
{
    if (out) {
        memset(out, 0, sizeof *out);
        out->gap = INFINITY;
    }
    if (!f->arm[side].ok)
        return INFINITY;
    if (with == PKI_WITH_HAND)
        return f->arm[!side].ok ? pki_touch_hands(w[side], t[side], w[!side], t[!side], out)
                                : INFINITY;
    return pki_touch_part(f, p, row, with, w[side], t[side], out);
}

double pki_touch_at(const pki_figure *f, const pki_play *p, uint32_t row, int side, int with,
                    pki_touch *out)
{
    double w[2][3] = {{0}}, t[2][3] = {{0}};
    for (int s = 0; s < 2; s++)
        if (f->arm[s].ok)
            pki_hand_at(f, p, row, s, w[s], t[s]);
    return pki_touch_with(f, p, row, side, with, (const double(*)[3])w, (const double(*)[3])t, out);
}

void pki_contacts_free(pki_contacts *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].beyond);
    free(c->v);
    memset(c, 0, sizeof *c);
}

static bool push(pki_contacts *c, int side, int with, int other, uint32_t first, uint32_t last,
                 double gap)
{
    /* the same pair two frames on or less: one contact */
    for (size_t i = c->n; i-- > 0;) {
        pki_contact *x = &c->v[i];
        if (x->side == side && x->with == with && x->other == other) {
            if (first <= x->last + 3) {
                x->last = last;
                x->min_gap = fmin(x->min_gap, gap);
                return true;
            }
            break;
        }
    }
    pki_contact *x = pki_grow_push(&c->v, &c->n, &c->cap, sizeof *c->v);
    if (!x)
        return false;
    x->side = side;
    x->with = with;
    x->other = other;
    x->first = first;
    x->last = last;
    x->min_gap = gap;
    x->unreachable = 0;
    x->short_by = 0;
    x->blocked = 0;
    x->apart = 0;
    x->apart_least = 0;
    x->refused = 0;
    x->beyond = NULL;
    return true;
}

/* One pair (a hand and what it may touch) followed over the rows: a touch
 * begins below the reach and lasts until the gap grows past 1.25 times
 * it. */
typedef struct pair_state {
    bool in;
    uint32_t start;
    double low;
} pair_state;

/* Row r's gap g of the pair (side, with, other); a touch that ends is
 * pushed unless it went deeper inside than the reach (passing through:
 * a short model's hands through its head).  false on OOM. */
static bool follow(pair_state *k, pki_contacts *out, uint32_t r, double g, double reach, int side,
                   int with, int other)
{
    if (!k->in && g < reach) {
        k->in = true;
        k->start = r;
        k->low = g;
    } else if (k->in && !(g <= 1.25 * reach)) {
        k->in = false;
        if (k->low >= -reach && !push(out, side, with, other, k->start, r - 1, k->low))
            return false;
    } else if (k->in) {
        k->low = fmin(k->low, g);
    }
    return true;
}

/* Whether the hand comes near enough to a part to be worth measuring (the
 * hands and the floor always are). */
static bool near(const pki_figure *f, const pki_play *p, uint32_t r, int side, int with)
{
    if (with >= PKI_PART_COUNT)
        return true;
    if (f->part[with].bone < 0 || !f->arm[side].ok)
        return false;
    double w[3], t[3];
    pki_hand_at(f, p, r, side, w, t);
    pki_placed pl;
    pki_part_place(f, p, r, with, &pl);
    return near_part(&pl, w, t, NEAR_REACH * pki_reach(f, with));
}

static int cmp_contact(const void *x, const void *y)
{
    const pki_contact *a = x, *b = y;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    if (a->side != b->side)
        return a->side - b->side;
    if (a->with != b->with)
        return a->with - b->with;
    return a->other - b->other;
}

int pki_contacts_find(const pki_figure *a, const pki_play *p, pki_contacts *out)
{
    memset(out, 0, sizeof *out);
    enum { PAIRS = 2 * (PKI_PART_COUNT + 2) };
    pair_state st[PAIRS];
    memset(st, 0, sizeof st);
    for (uint32_t r = 0; r <= p->n; r++) {
        for (int side = 0; side < 2; side++) {
            for (int with = 0; with < PKI_PART_COUNT + 2; with++) {
                /* the hands' contact belongs to the left hand */
                if (with == PKI_WITH_HAND && side == 1)
                    continue;
                double g = r < p->n && near(a, p, r, side, with)
                               ? pki_touch_at(a, p, r, side, with, NULL)
                               : INFINITY;
                if (!follow(&st[side * (PKI_PART_COUNT + 2) + with], out, r, g, pki_reach(a, with),
                            side, with, with == PKI_WITH_HAND))
                    return -1;
            }
        }
    }
    if (out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, cmp_contact);
    return 0;
}

int pki_contacts_between(const pki_figure *a, const pki_play *pa, const pki_figure *b,
                         const pki_play *pb, bool hands, pki_contacts *out)
{
    memset(out, 0, sizeof *out);
    /* per hand of a: b's parts, then b's two hands */
    enum { WITH = PKI_PART_COUNT + 2 };
    pair_state st[2 * WITH];
    memset(st, 0, sizeof st);
    uint32_t n = pa->n < pb->n ? pa->n : pb->n;
    for (uint32_t r = 0; r <= n; r++) {
        double w[2][3], t[2][3], bw[2][3], bt[2][3];
        for (int s = 0; s < 2 && r < n; s++) {
            if (a->arm[s].ok)
                pki_hand_at(a, pa, r, s, w[s], t[s]);
            if (b->arm[s].ok)
                pki_hand_at(b, pb, r, s, bw[s], bt[s]);
        }
        for (int side = 0; side < 2; side++) {
            for (int i = 0; i < WITH; i++) {
                bool hand = i >= PKI_PART_COUNT;
                int with = hand ? PKI_WITH_HAND : i, other = hand ? i - PKI_PART_COUNT : 0;
                double g = INFINITY;
                double reach = pki_reach(a, with);
                if (r < n && a->arm[side].ok && hand && hands && b->arm[other].ok)
                    g = pki_touch_hands(w[side], t[side], bw[other], bt[other], NULL);
                else if (r < n && a->arm[side].ok && !hand && b->part[with].bone >= 0) {
                    pki_placed pl;
                    pki_part_place(b, pb, r, with, &pl);
                    if (near_part(&pl, w[side], t[side], NEAR_REACH * reach))
                        g = pki_touch_part(b, pb, r, with, w[side], t[side], NULL);
                }
                if (!follow(&st[side * WITH + i], out, r, g, reach, side, with, other))
                    return -1;
            }
        }
    }
    if (out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, cmp_contact);
    return 0;
}
