/*
 * sizing.c — the sizing steps of a retarget between two models, run
 * after stance and scale (posekit.h, pk_sizing_report): A plays the input
 * and B the output so far, at every frame (play.c); the contacts are
 * found on A (contacts.c); the steps change B's arms frame by frame
 * (sizing_hands.c, sizing_avoid.c, sizing_twist.c, all through pki_arm_state); then the arms'
 * tracks are written back.
 *
 * Writing back.  Down each arm (腕, 腕捩, ひじ, 手捩, 手首), each bone
 * takes the local rotation the steps gave it, within the fold's
 * tolerances (max_deg, max_pos); where the twist step moved a twist, the
 * last bone, 手首, takes instead what turns its parent's world rotation
 * as written (the fits above it included) into the hand's, within
 * PKI_HAND_DEG: the hand must not turn for a twist.  A twist bone (fixed
 * axis) keeps only its twist, within PKI_HAND_DEG too where a twist
 * moved, and may take a key at the frames (and with the curves) of the
 * bones its twist comes from, each left out where the piece over it fits
 * without it.  A track is rewritten only over the frames where that
 * rotation differs from what the track gives by more than 90% of its
 * tolerance (half of PKI_HAND_DEG), from the key before such a run to
 * the key after it: the
 * keys there keep their curves where those still hold, else are replaced
 * by the fewest the keyframe reducer's fitter finds (retarget_fit.c)
 * within the tolerances (max_deg, max_pos); the first and last of them
 * keep the records they replace where those frames did not change, and
 * every other key stays as it was.  A pose takes the values.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "math/curve.h"
#include "model/names.h"
#include "model/skeleton.h"
#include "ops/retarget/retarget.h"
#include "ops/retarget/sizing.h"
#include "ops/retarget/sizing_body.h"
#include "math/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PKI_HAND_DEG 0.009 /* the hand's world rotation kept within this, degrees */

static void state_free(pki_arm_state *st)
{
    free(st->q);
    free(st->q0);
    free(st->d);
    free(st->par);
    free(st->top);
    free(st->tip);
    free(st->twisted);
    free(st->sh);
    free(st->dsh);
    memset(st, 0, sizeof *st);
}

static void sizing_free(pki_sizing *z)
{
    pki_play_free(&z->pa);
    pki_play_free(&z->pb);
    if (z->pb0.n)
        pki_play_free(&z->pb0);
    pki_contacts_free(&z->contacts);
    free(z->a_off);
    free(z->cog_a);
    free(z->cog_a_known);
    for (int s = 0; s < 2; s++) {
        state_free(&z->arm[s]);
        free(z->held[s]);
    }
}

/* B's arm of side s at every row, from B's play. */
static bool state_init(pki_sizing *z, int s)
{
    pki_arm_state *st = &z->arm[s];
    const pki_arm *a = &z->b.arm[s];
    uint32_t n = z->pb.n;
    st->n = n;
    st->nb = a->n;
    st->q = malloc((n + 1) * sizeof *st->q);
    st->q0 = malloc((n + 1) * sizeof *st->q0);
    st->d = malloc((n + 1) * sizeof *st->d);
    st->par = malloc((n + 1) * sizeof *st->par);
    st->top = malloc((n + 1) * sizeof *st->top);
    st->tip = malloc((n + 1) * sizeof *st->tip);
    st->twisted = calloc(n + 1, sizeof *st->twisted);
    st->sh = malloc((n + 1) * sizeof *st->sh);
    st->dsh = malloc((n + 1) * sizeof *st->dsh);
    if (!st->q || !st->q0 || !st->d || !st->par || !st->top || !st->tip || !st->twisted ||
        !st->sh || !st->dsh)
        return false;
    int32_t parent = z->b.m->bones[a->bone[0]].parent;
    st->shoulder =
        parent >= 0 && parent == a->shoulder &&
                !(z->b.m->bones[parent].flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE))
            ? parent
            : -1;
    for (uint32_t r = 0; r < n; r++) {
        const pk_bone_world *w0 = pki_play_at(&z->pb, r, a->bone[0]);
        double inv[4];
        if (parent >= 0)
            memcpy(st->par[r], pki_play_at(&z->pb, r, parent)->rot, sizeof st->par[r]);
        else {
            st->par[r][0] = st->par[r][1] = st->par[r][2] = 0;
            st->par[r][3] = 1;
        }
        memcpy(st->top[r], w0->pos, sizeof st->top[r]);
        st->dsh[r][0] = st->dsh[r][1] = st->dsh[r][2] = 0;
        st->dsh[r][3] = 1;
        if (st->shoulder >= 0)
            memcpy(st->sh[r], pki_play_at(&z->pb, r, st->shoulder)->pos, sizeof st->sh[r]);
        pki_qd_conj(st->par[r], inv);
        pki_qd_mul(inv, w0->rot, st->q[r][0]);
        memset(st->d[r][0], 0, sizeof st->d[r][0]);
        for (int i = 1; i < a->n; i++) {
            const pk_bone_world *up = pki_play_at(&z->pb, r, a->bone[i - 1]);
            const pk_bone_world *x = pki_play_at(&z->pb, r, a->bone[i]);
            double v[3];
            pki_qd_conj(up->rot, inv);
            pki_qd_mul(inv, x->rot, st->q[r][i]);
            pki_v3_sub(x->pos, up->pos, v);
            pki_qd_rotate(inv, v, st->d[r][i]);
        }
        const pk_bone_world *wr = pki_play_at(&z->pb, r, a->bone[a->n - 1]);
        double w[3], t[3], v[3];
        pki_hand_at(&z->b, &z->pb, r, s, w, t);
        pki_v3_sub(t, w, v);
        pki_qd_conj(wr->rot, inv);
        pki_qd_rotate(inv, v, st->tip[r]);
    }
    memcpy(st->q0, st->q, (n + 1) * sizeof *st->q);
    return true;
}

/* ---- writing back: motions ---- */

/* The rotation bone b shows for a local q: its twist when its axis is
 * fixed (as the evaluator reads keys). */
static void shown(const pk_model *m, int32_t b, const double q[4], double out[4])
{
    const pk_model_bone *x = &m->bones[b];
    double ax[3] = {x->fixed_axis[0], x->fixed_axis[1], x->fixed_axis[2]};
    if ((x->flags & PK_BONE_FIXED_AXIS) && pki_v3_unit(ax, 1e-12))
        pki_qd_twist(q, ax, out);
    else
        memcpy(out, q, 4 * sizeof *out);
    pki_q_norm(out);
}

typedef struct drop_range {
    pk_name_id name;
    uint32_t lo, hi;
} drop_range;

typedef struct writer {
    pk_motion *m;
    pk_tracks *tr;
    pk_motion *add;   /* the new keys */
    drop_range *drop; /* old records to drop, by name and frames */
    size_t ndrop, capdrop;
    pki_curve_cache *cache;
    double tol_deg, tol_pos;
    float (*pos)[3], (*rot)[4];
    uint32_t *fr, *tmp;
    bool *changed;
    double (*cur)[4]; /* the track's shown rotation per row */
    float (*curpos)[3];
    double (*fit)[4];  /* the parent's world rotation as written, per row */
    double (*want)[4]; /* the bone's local wanted per row */
    double worst;      /* the worst fit at the hand */
} writer;

static bool push_drop(writer *wr, pk_name_id name, uint32_t lo, uint32_t hi)
{
    drop_range *d = pki_grow_push(&wr->drop, &wr->ndrop, &wr->capdrop, sizeof *wr->drop);
    if (!d)
        return false;
    d->name = name;
    d->lo = lo;
    d->hi = hi;
    return true;
}

/* The records of the track at frame f (the last of them), or -1.  The
 * track's keys are in frame order: the last key at or before f. */
static long key_at(const pk_motion *m, const pk_track *t, uint32_t f)
{
    size_t l = 0, h = t ? t->count : 0;
    while (l < h) {
        size_t mid = l + (h - l) / 2;
        if (m->bones[t->keys[mid]].frame <= f)
            l = mid + 1;
        else
            h = mid;
    }
    return l > 0 && m->bones[t->keys[l - 1]].frame == f ? (long)t->keys[l - 1] : -1;
}

/* The frames a rewrite of rows [a, b] spans: from the track's last key
 * before a (else the frame before a) to its first key after b (else the
 * frame after b), within the play.  at[0], at[1]: the track's first key
 * at or after a's frame and first after b's, from the last call on the
 * same track (0, 0 at first), stepped from there: the calls of a bone
 * walk its rows mostly forward, a key or two at a time. */
static void bounds(const pki_sizing *z, const pk_motion *m, const pk_track *t, uint32_t a,
                   uint32_t b, uint32_t *lo, uint32_t *hi, size_t at[2])
{
    uint32_t f0 = z->pb.f0, last = f0 + z->pb.n - 1, fa = f0 + a, fb = f0 + b;
    *lo = fa > f0 ? fa - 1 : fa;
    *hi = fb < last ? fb + 1 : fb;
    if (!t || !t->count)
        return;
#define FRAME(i) (m->bones[t->keys[(i)]].frame)
    /* the track's keys are in frame order: the first at or after fa */
    size_t l = at[0], e = at[1], n = t->count;
    while (l > 0 && FRAME(l - 1) >= fa)
        l--;
    while (l < n && FRAME(l) < fa)
        l++;
    if (l > 0 && FRAME(l - 1) >= f0)
        *lo = FRAME(l - 1);
    /* the first key after fb (at or after l) */
    if (e < l)
        e = l;
    while (e > l && FRAME(e - 1) > fb)
        e--;
    while (e < n && FRAME(e) <= fb)
        e++;
    if (e < n && FRAME(e) <= last)
        *hi = FRAME(e);
    at[0] = l;
    at[1] = e;
#undef FRAME
}

/* Whether the piece ending at the last record of wr->add (from the one
 * before it) gives rows a..b within the tolerances. */
static bool piece_fits(const writer *wr, const pki_sizing *z, uint32_t a, uint32_t b,
                       double tol_deg)
{
    size_t n = wr->add->nbones;
    uint32_t idx[2] = {(uint32_t)(n - 2), (uint32_t)(n - 1)};
    pk_track t2 = {wr->add->bones[n - 1].name, idx, 2};
    pk_cursor c;
    pk_cursor_init(&c, wr->add, &t2);
    for (uint32_t f = a + 1; f <= b; f++) {
        float p[3], q[4];
        pk_cursor_bone(&c, f, p, q);
        double qd[4];
        pki_qd_from_key(q, qd);
        uint32_t r = f - z->pb.f0;
        if (pki_qd_angle_deg(qd, wr->want[r]) > tol_deg * 0.999)
            return false;
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += ((double)p[k] - wr->curpos[r][k]) * ((double)p[k] - wr->curpos[r][k]);
        if (sqrt(d) > wr->tol_pos * 0.999)
            return false;
    }
    return true;
}

/* A new record at frame f with the wanted values and curves cp. */
static pk_bone_key *push_key(writer *wr, const pki_sizing *z, pk_name_id name, uint32_t f,
                             const uint8_t interp[64])
{
    pk_bone_key *k = pk_motion_push_bone(wr->add);
    if (!k)
        return NULL;
    uint32_t r = f - z->pb.f0;
    k->name = name;
    k->frame = f;
    for (int c = 0; c < 4; c++)
        k->rot[c] = (float)wr->want[r][c];
    memcpy(k->pos, wr->curpos[r], sizeof k->pos);
    if (interp) {
        memcpy(k->interp, interp, sizeof k->interp);
    } else {
        const uint8_t lin[4][4] = {
            {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
        pk_interp_set(k->interp, lin, false);
    }
    return k;
}

/* Rewrites frames [lo, hi] of one bone's track: piece by piece between
 * its keys there, each key with its own curves where they still give the
 * wanted rows within the tolerances, else the piece fitted
 * (pki_fit_track); the new records into wr->add, and wr->cur's rows there
 * then hold what they give. */
/* The frames of track t strictly inside (lo, hi) merged into the
 * ascending frames fr[0..*nf) (no duplicates). */
static void merge_frames(const pk_motion *m, const pk_track *t, uint32_t lo, uint32_t hi,
                         uint32_t *fr, size_t *nf, uint32_t *tmp)
{
    size_t i = 0, j = 0, n = 0;
    while (i < *nf || (t && j < t->count)) {
        uint32_t f = t && j < t->count ? m->bones[t->keys[j]].frame : UINT32_MAX;
        if (t && j < t->count && (f <= lo || f >= hi)) {
            j++;
            continue;
        }
        uint32_t g = i < *nf ? fr[i] : UINT32_MAX;
        uint32_t x = g < f ? g : f;
        if (g == x)
            i++;
        if (f == x)
            j++;
        tmp[n++] = x;
    }
    memcpy(fr, tmp, n * sizeof *fr);
    *nf = n;
}

/* The curves of a key at frame f of the first of tracks t[0..nt) that has
 * one (NULL: none). */
static const uint8_t *curves_at(const pk_motion *m, const pk_track *const *t, int nt, uint32_t f)
{
    for (int i = 0; i < nt; i++) {
        long k = key_at(m, t[i], f);
        if (k >= 0)
            return m->bones[k].interp;
    }
    return NULL;
}

/* Rewrites frames [lo, hi] of one bone's track (hint: the tracks whose
 * key frames and curves it may take too, a twist bone's sources) ... */
static int rewrite(writer *wr, const pki_sizing *z, int32_t bone, pk_name_id name,
                   const pk_track *t, const pk_track *const hint[2], uint32_t lo, uint32_t hi,
                   double tol_deg)
{
    const pk_motion *m = wr->m;
    uint32_t f0 = z->pb.f0;
    size_t nf = 0;
    wr->fr[nf++] = lo;
    if (hi > lo)
        wr->fr[nf++] = hi;
    merge_frames(m, t, lo, hi, wr->fr, &nf, wr->tmp);
    for (int h = 0; h < 2; h++)
        if (hint[h])
            merge_frames(m, hint[h], lo, hi, wr->fr, &nf, wr->tmp);
    size_t from = wr->add->nbones;
    long k0 = key_at(m, t, lo);
    if (!push_key(wr, z, name, lo, NULL))
        return -1;
    /* the first key keeps the record it replaces where nothing changed */
    if (k0 >= 0 && !wr->changed[lo - f0])
        wr->add->bones[from] = m->bones[k0];
    const pk_track *own[3] = {t, hint[0], hint[1]};
    for (size_t j = 1, a = wr->fr[0]; j < nf; j++) {
        uint32_t b = wr->fr[j];
        /* a frame only a hint keys is left out where the piece over it
         * fits without it */
        if (j + 1 < nf && key_at(m, t, b) < 0) {
            uint32_t c = wr->fr[j + 1];
            if (!push_key(wr, z, name, c, curves_at(m, own, 3, c)))
                return -1;
            bool skip = piece_fits(wr, z, (uint32_t)a, c, tol_deg);
            wr->add->nbones--;
            if (skip)
                continue;
        }
        if (!push_key(wr, z, name, b, curves_at(m, own, 3, b)))
            return -1;
        if (piece_fits(wr, z, (uint32_t)a, b, tol_deg)) {
            a = b;
            continue;
        }
        /* fitted: keys a..b, the one at a already there */
        wr->add->nbones--;
        for (uint32_t f = (uint32_t)a; f <= b; f++) {
            uint32_t r = f - f0;
            for (int k = 0; k < 4; k++)
                wr->rot[f - a][k] = (float)wr->want[r][k];
            memcpy(wr->pos[f - a], wr->curpos[r], sizeof wr->pos[0]);
        }
        uint32_t ends[2] = {(uint32_t)a, b};
        size_t at = wr->add->nbones;
        pki_fit_out fo;
        if (pki_fit_track((const float(*)[3])wr->pos, (const float(*)[4])wr->rot, (uint32_t)a, ends,
                          2, name, tol_deg, wr->tol_pos, wr->cache, wr->add, &fo) != 0)
            return -1;
        memmove(&wr->add->bones[at], &wr->add->bones[at + 1],
                (wr->add->nbones - at - 1) * sizeof *wr->add->bones);
        wr->add->nbones--;
        wr->worst = fmax(wr->worst, fo.worst_deg);
        a = b;
    }
    /* the last keeps the values it replaces where nothing changed (a key
     * the track had there, or the value the track holds after its last
     * key, which the frames after it keep showing) */
    long k1 = key_at(m, t, hi);
    if (!wr->changed[hi - f0] && wr->add->nbones > from + 1) {
        pk_bone_key *nk = &wr->add->bones[wr->add->nbones - 1];
        if (k1 >= 0) {
            memcpy(nk->pos, m->bones[k1].pos, sizeof nk->pos);
            memcpy(nk->rot, m->bones[k1].rot, sizeof nk->rot);
        } else {
            for (int c = 0; c < 4; c++)
                nk->rot[c] = (float)wr->cur[hi - f0][c];
            memcpy(nk->pos, wr->curpos[hi - f0], sizeof nk->pos);
        }
    }
    if (k0 < 0 && !wr->changed[lo - f0]) {
        pk_bone_key *fk = &wr->add->bones[from];
        for (int c = 0; c < 4; c++)
            fk->rot[c] = (float)wr->cur[lo - f0][c];
        memcpy(fk->pos, wr->curpos[lo - f0], sizeof fk->pos);
    }
    if (!push_drop(wr, name, lo, hi))
        return -1;
    /* what the new keys give, row by row */
    size_t cnt = wr->add->nbones - from;
    uint32_t *idx = malloc((cnt + 1) * sizeof *idx);
    if (!idx)
        return -1;
    for (size_t i = 0; i < cnt; i++)
        idx[i] = (uint32_t)(from + i);
    pk_track nt = {name, idx, cnt};
    pk_cursor c;
    pk_cursor_init(&c, wr->add, &nt);
    for (uint32_t f = lo; f <= hi; f++) {
        float p[3], q[4];
        pk_cursor_bone(&c, f, p, q);
        double qd[4];
        pki_qd_from_key(q, qd);
        shown(z->b.m, bone, qd, wr->cur[f - f0]);
    }
    free(idx);
    return 0;
}

/* One arm's tracks, top down. */
static int write_arm(writer *wr, pki_sizing *z, int s, pk_sizing_report *rep)
{
    const pki_arm *a = &z->b.arm[s];
    pki_arm_state *st = &z->arm[s];
    uint32_t n = st->n;
    double(*tw)[PKI_CHAIN_MAX][4] = malloc((n + 1) * sizeof *tw);
    if (!tw)
        return -1;
    for (uint32_t r = 0; r < n; r++) {
        double p[PKI_CHAIN_MAX][3];
        pki_arm_fk(st, r, false, tw[r], p);
        memcpy(wr->fit[r], st->par[r], sizeof wr->fit[r]);
    }
    int rc = 0;
    /* 肩 first (i -1) where the steps turned it */
    bool sh = false;
    for (uint32_t r = 0; r < n && st->shoulder >= 0 && !sh; r++)
        sh = fabs(st->dsh[r][3]) < 1.0 - 1e-15;
    for (int i = sh ? -1 : 0; i < a->n && !rc; i++) {
        int32_t bone = i < 0 ? st->shoulder : a->bone[i];
        bool hand = i == a->n - 1;
        double tol = wr->tol_deg;
        pk_name_id name = pki_model_bone_vmd_name(wr->m->names, z->b.m, (size_t)bone, false);
        const pk_track *t = name == PK_NO_NAME ? NULL : pk_tracks_bone(wr->tr, name);
        /* a twist bone takes the key frames and curves of the bones it
         * takes its twist from too */
        const pk_track *hint[2] = {NULL, NULL};
        if (i >= 0 && (i == a->twist_up || i == a->twist_low)) {
            int from[2] = {i == a->twist_up ? 0 : a->elbow, i == a->twist_up ? a->elbow : a->n - 1};
            for (int h = 0; h < 2; h++) {
                pk_name_id hn =
                    pki_model_bone_vmd_name(wr->m->names, z->b.m, (size_t)a->bone[from[h]], false);
                hint[h] = hn == PK_NO_NAME ? NULL : pk_tracks_bone(wr->tr, hn);
            }
        }
        pk_cursor c;
        if (t)
            pk_cursor_init(&c, wr->m, t);
        bool any = false;
        for (uint32_t r = 0; r < n; r++) {
            float p[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1};
            if (t)
                pk_cursor_bone(&c, z->pb.f0 + r, p, q);
            double qd[4], inv[4], want[4];
            pki_qd_from_key(q, qd);
            shown(z->b.m, bone, qd, wr->cur[r]);
            memcpy(wr->curpos[r], p, sizeof p);
            /* the hand where the twist moved takes up what the fits above
             * it left; every other bone is written as the steps made it */
            bool absorb = hand && st->twisted[r];
            if (i < 0) {
                pki_qd_mul(wr->cur[r], st->dsh[r], want);
            } else if (absorb) {
                pki_qd_conj(wr->fit[r], inv);
                pki_qd_mul(inv, tw[r][i], want);
            } else {
                memcpy(want, st->q[r][i], sizeof want);
            }
            shown(z->b.m, bone, want, wr->want[r]);
            double thr = absorb ? PKI_HAND_DEG / 2.0 : tol * 0.9;
            wr->changed[r] = pki_qd_angle_deg(wr->want[r], wr->cur[r]) > thr;
            any |= wr->changed[r];
        }
        if (any && name == PK_NO_NAME) {
            name = pki_model_bone_vmd_name(wr->m->names, z->b.m, (size_t)bone, true);
            if (name == PK_NO_NAME) {
                rc = -1;
                break;
            }
        }
        size_t walk[2] = {0, 0};
        for (uint32_t r = 0; r < n && any && !rc;) {
            if (!wr->changed[r]) {
                r++;
                continue;
            }
            /* one run: the next changed row joins it when their spans
             * would meet (they would share a key) */
            uint32_t b = r, lo, hi, lo2, hi2;
            bounds(z, wr->m, t, r, b, &lo, &hi, walk);
            for (uint32_t j = b + 1; j < n; j++) {
                if (!wr->changed[j])
                    continue;
                bounds(z, wr->m, t, j, j, &lo2, &hi2, walk);
                if (lo2 > hi)
                    break;
                b = j;
                hi = hi2; /* the span of rows r..j: r's start, j's end */
            }
            wr->worst = 0;
            bool tight = false;
            bool twist_bone = i >= 0 && (i == a->twist_up || i == a->twist_low);
            for (uint32_t j = lo - z->pb.f0; (hand || twist_bone) && j <= hi - z->pb.f0 && !tight;
                 j++)
                tight = st->twisted[j];
            rc = rewrite(wr, z, bone, name, t, hint, lo, hi, tight ? PKI_HAND_DEG : tol);
            if (tight && hand)
                rep->twist_hand_deg = fmax(rep->twist_hand_deg, wr->worst);
            r = hi - z->pb.f0 + 1;
        }
        /* this bone's world rotation as written, for its child (肩's
         * is the chain's parent already) */
        for (uint32_t r = 0; r < n && i >= 0; r++) {
            double nq[4];
            pki_qd_mul(wr->fit[r], wr->cur[r], nq);
            memcpy(wr->fit[r], nq, sizeof nq);
        }
    }
    free(tw);
    return rc;
}

static int cmp_drop(const void *x, const void *y)
{
    const drop_range *a = x, *b = y;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The ranges in (name, lo) order, each hi raised to the largest hi of its
 * name's ranges up to it: a frame is in one of a name's ranges exactly
 * when it is at most the raised hi of the last range starting at or
 * before it. */
static void drops_sort(writer *wr)
{
    qsort(wr->drop, wr->ndrop, sizeof *wr->drop, cmp_drop);
    for (size_t i = 1; i < wr->ndrop; i++)
        if (wr->drop[i].name == wr->drop[i - 1].name && wr->drop[i].hi < wr->drop[i - 1].hi)
            wr->drop[i].hi = wr->drop[i - 1].hi;
}

/* Whether record k lies in a dropped range (drops_sort first). */
static bool dropped(const writer *wr, const pk_bone_key *k)
{
    size_t l = 0, h = wr->ndrop;
    while (l < h) { /* the first range after (k's name, k's frame) */
        size_t mid = l + (h - l) / 2;
        const drop_range *d = &wr->drop[mid];
        if (d->name < k->name || (d->name == k->name && d->lo <= k->frame))
            l = mid + 1;
        else
            h = mid;
    }
    return l > 0 && wr->drop[l - 1].name == k->name && k->frame <= wr->drop[l - 1].hi;
}

static int write_motion(pki_sizing *z, pk_motion *m, pk_tracks *tr, const pk_retarget_options *o,
                        pk_sizing_report *rep, pk_log *log)
{
    writer wr;
    memset(&wr, 0, sizeof wr);
    wr.m = m;
    wr.tol_deg = o->max_deg > 0 ? o->max_deg : PK_REDUCE_DEG;
    wr.tol_pos = o->max_pos > 0 ? o->max_pos : PK_REDUCE_POS;
    uint32_t n = z->pb.n;
    wr.tr = tr ? tr : pk_tracks_build(m, NULL);
    wr.add = pk_motion_new();
    wr.cache = pki_curve_cache_new();
    wr.pos = malloc((n + 2) * sizeof *wr.pos);
    wr.rot = malloc((n + 2) * sizeof *wr.rot);
    wr.fr = malloc((n + 2) * sizeof *wr.fr);
    wr.tmp = malloc((n + 2) * sizeof *wr.tmp);
    wr.changed = calloc(n + 2, sizeof *wr.changed);
    wr.cur = malloc((n + 2) * sizeof *wr.cur);
    wr.curpos = malloc((n + 2) * sizeof *wr.curpos);
    wr.fit = malloc((n + 2) * sizeof *wr.fit);
    wr.want = malloc((n + 2) * sizeof *wr.want);
    int rc = -1;
    if (!wr.tr || !wr.add || !wr.cache || !wr.pos || !wr.rot || !wr.fr || !wr.tmp || !wr.changed ||
        !wr.cur || !wr.curpos || !wr.fit || !wr.want)
        goto done;
    for (int s = 0; s < 2; s++)
        if (z->arm[s].n && write_arm(&wr, z, s, rep) != 0)
            goto done;
    rep->keys = wr.add->nbones;
    if (wr.ndrop) {
        drops_sort(&wr);
        size_t w = 0;
        for (size_t i = 0; i < m->nbones; i++) {
            if (dropped(&wr, &m->bones[i]))
                continue;
            if (w != i)
                m->bones[w] = m->bones[i];
            w++;
        }
        m->nbones = w;
        for (size_t i = 0; i < wr.add->nbones; i++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                goto done;
            *k = wr.add->bones[i];
        }
    }
    rc = 0;
done:
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    pk_tracks_free(wr.tr);
    pk_motion_free(wr.add);
    pki_curve_cache_free(wr.cache);
    free(wr.drop);
    free(wr.pos);
    free(wr.rot);
    free(wr.fr);
    free(wr.tmp);
    free(wr.changed);
    free(wr.cur);
    free(wr.curpos);
    free(wr.fit);
    free(wr.want);
    return rc;
}

/* ---- writing back: poses ---- */

static int write_pose(pki_sizing *z, pk_pose *p, pk_log *log)
{
    for (int s = 0; s < 2; s++) {
        pki_arm_state *st = &z->arm[s];
        const pki_arm *a = &z->b.arm[s];
        if (!st->n)
            continue;
        /* 肩 first (i -1) where the steps turned it */
        bool sh = st->shoulder >= 0 && fabs(st->dsh[0][3]) < 1.0 - 1e-15;
        for (int i = sh ? -1 : 0; i < a->n; i++) {
            if (i >= 0 && pki_qd_angle_deg(st->q[0][i], st->q0[0][i]) <= 1e-9)
                continue;
            int32_t bone = i < 0 ? st->shoulder : a->bone[i];
            size_t len;
            const uint8_t *raw = pki_model_bone_raw(z->b.m, (size_t)bone, &len);
            if (!raw)
                continue;
            if (len > PK_VPD_NAME_BYTES)
                len = pk_cp932_boundary(raw, PK_VPD_NAME_BYTES);
            pk_name_id id = pk_names_intern(p->names, raw, len);
            long k = id == PK_NO_NAME ? -1 : pk_pose_find_bone(p, id);
            pk_pose_bone *b = k >= 0 ? &p->bones[k] : pk_pose_push_bone(p);
            if (id == PK_NO_NAME || !b) {
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                return -1;
            }
            if (k < 0) {
                b->name = id;
                memset(b->pos, 0, sizeof b->pos);
                b->rot[0] = b->rot[1] = b->rot[2] = 0;
                b->rot[3] = 1;
            }
            double q[4], was[4];
            if (i < 0) {
                pki_qd_from_key(b->rot, was);
                pki_qd_mul(was, st->dsh[0], q);
                pki_q_norm(q);
            } else {
                shown(z->b.m, bone, st->q[0][i], q);
            }
            for (int c = 0; c < 4; c++)
                b->rot[c] = (float)q[c];
        }
    }
    return 0;
}

/* ---- the run ---- */

/* Per side, what the stance turns a hand's world rotation by: the
 * product of r^-1 over the segments it applied whose bone is above the
 * hand or the hand (retarget_model.c: B's hand = A's hand r1^-1 r2^-1 ...). */
static void stance_hands(pki_sizing *z, const pk_retarget_report *rep)
{
    for (int s = 0; s < 2; s++) {
        double *c = z->stance_hand[s];
        c[0] = c[1] = c[2] = 0;
        c[3] = 1;
        if (!rep->stance_done || !z->b.arm[s].ok)
            continue;
        const pki_arm *a = &z->b.arm[s];
        int32_t hand = a->bone[a->n - 1];
        for (size_t i = 0; i < rep->stance.n; i++) {
            const pk_stance_segment *g = &rep->stance.seg[i];
            if (g->by_rules || g->deg < 1e-9)
                continue;
            long b = pki_model_find_bone_utf8(z->b.m, g->bone);
            bool above = false;
            for (long j = hand; j >= 0 && !above; j = z->b.m->bones[j].parent)
                above = j == b;
            if (!above)
                continue;
            double inv[4] = {-g->r[0], -g->r[1], -g->r[2], g->r[3]}, t[4];
            pki_qd_mul(c, inv, t);
            memcpy(c, t, sizeof t);
        }
    }
}

/* The frames of a motion's bone keys. */
static bool span(const pk_motion *m, uint32_t *f0, uint32_t *f1)
{
    if (!m->nbones)
        return false;
    *f0 = UINT32_MAX;
    *f1 = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        *f0 = m->bones[i].frame < *f0 ? m->bones[i].frame : *f0;
        *f1 = m->bones[i].frame > *f1 ? m->bones[i].frame : *f1;
    }
    return true;
}

/* A play of the figure's and torso's bones (upper: only what the upper
 * step reads, of t); a motion's takes the rows of prev (NULL: none) where
 * nothing they depend on changed. */
static int play_of(const pk_model *mdl, const pki_figure *f, const pki_torso *t, bool upper,
                   const pk_motion *m, const pk_pose *p, uint32_t f0, uint32_t n,
                   const pki_play *prev, pki_play *out, pk_log *log)
{
    bool *watch = calloc(mdl->nbones + 1, sizeof *watch);
    if (!watch) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    if (upper) {
        pki_torso_watch_upper(t, watch);
    } else {
        pki_figure_watch(f, watch);
        if (t)
            pki_torso_watch(t, watch);
    }
    int rc = m ? pki_play_motion_again(out, prev, mdl, m, f0, n, watch, log)
               : pki_play_pose(out, mdl, p, watch, log);
    free(watch);
    return rc;
}

static int play(const pk_model *mdl, const pki_figure *f, const pki_torso *t, const pk_motion *m,
                const pk_pose *p, uint32_t f0, uint32_t n, const pki_play *prev, pki_play *out,
                pk_log *log)
{
    return play_of(mdl, f, t, false, m, p, f0, n, prev, out, log);
}

/* The elbows' axes on both models and B's arm states, for each side both
 * have: 1, 0 when neither has an arm, -1 on OOM (logged). */
static int arms_init(pki_sizing *z, pk_log *log)
{
    int arms = 0;
    for (int side = 0; side < 2; side++) {
        if (!z->a.arm[side].ok || !z->b.arm[side].ok)
            continue;
        const pki_arm *a = &z->b.arm[side];
        const pki_arm *aa = &z->a.arm[side];
        pki_bend_axes_init(&z->elbow[side], z->b.m, a->bone[0], a->bone[a->elbow],
                           a->bone[a->n - 1], -1.0);
        pki_bend_axes_init(&z->elbow_a[side], z->a.m, aa->bone[0], aa->bone[aa->elbow],
                           aa->bone[aa->n - 1], -1.0);
        if (!state_init(z, side)) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
        arms = 1;
    }
    return arms;
}

int pki_sizing_run(pki_bone_set *s, const pk_motion *in_m, const pk_pose *in_p,
                   const pk_retarget_options *o, pk_retarget_report *rep, pk_log *log)
{
    pki_sizing z;
    memset(&z, 0, sizeof z);
    pk_tracks *otr = NULL; /* the output's tracks the twist step built, for the write */
    pki_figure_init(&z.a, o->from);
    pki_figure_init(&z.b, o->to);
    uint32_t f0 = 0, f1 = 0;
    if (in_m && !span(in_m, &f0, &f1))
        return 0;
    if (f1 - f0 >= (1u << 22)) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "the motion's keys span frames %u-%u: too long to size (a mistyped frame?)", f0,
                 f1);
        return -1;
    }
    uint32_t n = f1 - f0 + 1;
    const pk_motion *out_m = s->m;
    int rc = -1;
    pki_torso ta, tb;
    pki_torso_init(&ta, o->from);
    pki_torso_init(&tb, o->to);
    z.ta = &ta;
    z.tb = &tb;
    /* the feet measured from where MMD shows them with no key (IK solved) */
    for (int side = 0; side < 2; side++) {
        if (z.a.ankle[side] >= 0 && z.a.ankle[side] == ta.ankle[side])
            z.a.ankle_rest_y[side] = ta.ankle_rest_y[side];
        if (z.b.ankle[side] >= 0 && z.b.ankle[side] == tb.ankle[side])
            z.b.ankle_rest_y[side] = tb.ankle_rest_y[side];
    }
    /* B's first play read by the upper step alone, which plays B in full
     * after it (the same rows as a play again after it), where no
     * measures want B before the steps and no step before it reads B */
    bool upper_first = in_m && out_m && !o->measure && !(o->feet_apart > 0) &&
                       (!o->no_upper || !o->no_shoulders);
    pk_progress(log, 0.0, "sizing: playing both models");
    if (play(o->from, &z.a, &ta, in_m, in_p, f0, n, NULL, &z.pa, log) ||
        play_of(o->to, &z.b, &tb, upper_first, out_m, s->p, f0, n, NULL, &z.pb, log))
        goto done;
    z.pb_upper = upper_first;
    pki_play_lean(&z.pa); /* A is played once */
    if (pki_contacts_find(&z.a, &z.pa, &z.contacts) != 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    z.k = z.a.arm_len > 0 ? z.b.arm_len / z.a.arm_len : 1.0;
    z.input = in_m;
    z.output = s->m;
    stance_hands(&z, rep);
    z.scale_xz = rep->scale_done ? rep->scale.xz : 1.0;
    z.scale_y = rep->scale_done ? rep->scale.y : 1.0;
    pk_progress(log, 0.3, "sizing: the body");
    if (pki_body_run(&z, s, o, &rep->body, log) != 0)
        goto done;
    if (z.pb_upper) { /* (the body steps played B in full) */
        pki_play full;
        if (play(o->to, &z.b, &tb, s->m, s->p, f0, n, NULL, &full, log))
            goto done;
        pki_play_free(&z.pb);
        z.pb = full;
        z.pb_upper = false;
    }
    int armed = arms_init(&z, log);
    if (armed < 0)
        goto done;
    bool arms = armed > 0;
    pk_sizing_report *sr = &rep->sizing;
    pk_progress(log, 0.5, "sizing: contacts");
    if (arms && !o->no_contacts && pki_hands_step(&z, sr, log) != 0)
        goto done;
    pk_progress(log, 0.6, "sizing: keeping out of the body");
    if (arms && !o->no_avoid && pki_avoid_step(&z, sr, log) != 0)
        goto done;
    pk_progress(log, 0.7, "sizing: twist");
    if (arms && !o->no_twist && pki_twist_step(&z, sr, s->m ? &otr : NULL, log) != 0)
        goto done;
    pk_progress(log, 0.8, "sizing: fitting keys");
    /* nothing between the twist step and the write edits the output:
     * its tracks are the same (write_motion takes them) */
    pk_tracks *wtr = otr;
    otr = NULL;
    if (arms && (s->m ? write_motion(&z, s->m, wtr, o, sr, log) : write_pose(&z, s->p, log)) != 0)
        goto done;
    if (o->measure) {
        pk_progress(log, 0.9, "sizing: measuring");
        pki_play after;
        /* the rows the arm steps left as they were: B's last play's */
        if (play(o->to, &z.b, &tb, s->m, s->p, f0, n, &z.pb, &after, log))
            goto done;
        rep->measure = pki_measure(&z, &after, log);
        if (rep->measure)
            pki_body_measure(&z, &after, &rep->measure->body);
        pki_play_free(&after);
        if (!rep->measure)
            goto done;
    }
    rc = 0;
done:
    pk_tracks_free(otr);
    sizing_free(&z);
    pki_torso_free(&ta);
    pki_torso_free(&tb);
    return rc;
}

/* ---- a sizing opened from outside (the group's contacts) ---- */

int pki_sizing_open(pki_sizing *z, const pk_model *from, const pk_model *to, const pk_motion *in,
                    const pk_motion *out, uint32_t f0, uint32_t n, pk_log *log)
{
    memset(z, 0, sizeof *z);
    pki_figure_init(&z->a, from);
    pki_figure_init(&z->b, to);
    if (play(from, &z->a, NULL, in, NULL, f0, n, NULL, &z->pa, log) ||
        play(to, &z->b, NULL, out, NULL, f0, n, NULL, &z->pb, log) || arms_init(z, log) < 0) {
        sizing_free(z);
        memset(z, 0, sizeof *z);
        return -1;
    }
    z->k = z->a.arm_len > 0 ? z->b.arm_len / z->a.arm_len : 1.0;
    z->input = in;
    z->scale_xz = z->scale_y = 1.0;
    for (int s = 0; s < 2; s++)
        z->stance_hand[s][3] = 1.0;
    return 0;
}

int pki_sizing_write(pki_sizing *z, pk_motion *m, const pk_retarget_options *o,
                     pk_sizing_report *rep, pk_log *log)
{
    if (!z->arm[0].n && !z->arm[1].n)
        return 0;
    return write_motion(z, m, NULL, o, rep, log);
}

void pki_sizing_close(pki_sizing *z)
{
    sizing_free(z);
    memset(z, 0, sizeof *z);
}
