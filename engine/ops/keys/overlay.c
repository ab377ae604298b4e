/* overlay.c — a pose laid over chosen bones and frames of a motion.
 *
 * For each selected bone the track is rebuilt as a list of keys, each key
 * either an ORIGINAL (the base's visible record at that frame, kept
 * byte-identical in place) or NEW (appended after the other records).
 * With E0 = A - max(F,1) and E1 = B + max(F,1) (the last untouched frame
 * before the range and the first after it):
 *
 *   keys < E0            original
 *   E0                   base value; if E0 falls inside a base segment the
 *                        segment is SPLIT there: the piece [prev, E0] gets
 *                        the left sub-curve (de Casteljau), or is BAKED
 *   (E0, A)              nothing: the fade-in is the one segment E0 -> A
 *   A .. B               replace: the pose at A and B (a constant segment)
 *                        add: base x pose at A and B, the base keys between
 *                        kept and multiplied (slerp commutes with a constant
 *                        right factor), crossed segments split as above
 *   (B, E1)              nothing: the fade-out is the one segment B -> E1
 *   E1                   base value
 *   first key > E1       re-curved with the right sub-curve, or the piece
 *                        [E1, key] baked
 *   later keys           original
 *
 * Splitting: the curve of the crossed segment is cut at the edge's Bezier
 * parameter; each piece is rescaled to the unit square and rounded to MMD's
 * 0..127 grid (a small neighbourhood of the rounded point is searched).  A
 * piece is accepted only when the real sampler (pk_sample_bone) reproduces
 * the base at every integer frame of the piece within PK_OVERLAY_TOL_DEG
 * and PK_OVERLAY_TOL_POS; otherwise the piece becomes one key per frame.
 *
 * Fades: the segment from the base value at E0 to the overlay value at A
 * (and from the overlay at B to the base at E1) carries PK_FADE_CURVE on all
 * four channels: translation moves along the ease curve, rotation slerps
 * with the eased weight.  The base's own motion inside the fade frames is
 * not followed; the fade is a smooth hand-over between two held values,
 * which is what an animator keys by hand in MMD (two keys, ease curve).
 */
#include "common/diag.h"
#include "common/grow.h"
#include "model/names.h"
#include "ops/keys/overlay.h"
#include "posekit.h"
#include "math/curve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t FADE_CP[4] = PK_FADE_CURVE;
static const uint8_t LINEAR_CP[4] = {20, 20, 107, 107};

/* ---- values ---- */

typedef struct val {
    float pos[3];
    float rot[4];
} val;

typedef struct nkey {
    uint32_t frame;
    bool orig; /* keep the base's records at this frame as they are */
    val v;
    uint8_t cp[4][4]; /* curve of the segment ending here (when !orig) */
    bool physics_off;
} nkey;

typedef struct klist {
    nkey *v;
    size_t n, cap;
} klist;

/* Everything one track rebuild needs. */
typedef struct ctx {
    const pk_motion *m;
    const pk_track *t; /* base track; NULL = bone absent (rest pose) */
    const pk_overlay_options *opt;
    const pk_motion *src; /* splice: the keys laid in over [A, B] (src's track src_t) */
    const pk_track *src_t;
    val pose;           /* rot normalised */
    float pose_raw[4];  /* as stored in the pose (replace keeps it) */
    pk_motion *scratch; /* two keys for checking a piece with the sampler */
    pk_track scratch_t;
    uint32_t scratch_keys[2];
    pk_overlay_stats *st;
    klist out;
    bool oom;
    bool too_long; /* a crossed segment longer than PIECE_MAX frames */
    bool fit;      /* fit pieces that do not split exactly (overlay), else bake */
    pki_curve_cache *cache; /* the fitter's x(t) tables, shared by every piece (may be NULL) */
} ctx;

/* Crossed pieces are checked (and maybe baked) frame by frame; a segment
 * longer than this (about 9.7 hours at 30 fps) is refused rather than
 * turned into a million keys. */
#define PIECE_MAX (1u << 20)

static void set_curves(uint8_t cp[4][4], const uint8_t c[4])
{
    for (int a = 0; a < 4; a++)
        memcpy(cp[a], c, 4);
}

static nkey *push(ctx *c, uint32_t frame)
{
    klist *l = &c->out;
    nkey *k = pki_grow_push(&l->v, &l->n, &l->cap, sizeof *l->v);
    if (!k) {
        c->oom = true;
        return NULL;
    }
    k->frame = frame;
    set_curves(k->cp, LINEAR_CP);
    return k;
}

static const pk_bone_key *bkey(const ctx *c, size_t i)
{
    return &c->m->bones[c->t->keys[i]];
}

static size_t nkeys(const ctx *c)
{
    return c->t ? c->t->count : 0;
}

static void key_val(const pk_bone_key *k, val *v)
{
    memcpy(v->pos, k->pos, sizeof v->pos);
    memcpy(v->rot, k->rot, sizeof v->rot);
}

/* Base value at a frame (sampler's result, rotation normalised). */
static void base_at(const ctx *c, double f, val *v)
{
    pk_sample_bone(c->m, c->t, f, v->pos, v->rot);
}

/* The overlay's value over a base value: replace = the pose, add =
 * base x pose and base + pose. */
static void compose(const ctx *c, const val *b, val *out)
{
    if (c->opt->mode == PK_OVERLAY_REPLACE) {
        memcpy(out->pos, c->pose.pos, sizeof out->pos);
        memcpy(out->rot, c->pose_raw, sizeof out->rot);
        return;
    }
    float nb[4];
    pk_quat_normalize(b->rot, nb);
    pk_quat_mul(nb, c->pose.rot, out->rot);
    for (int a = 0; a < 3; a++)
        out->pos[a] = b->pos[a] + c->pose.pos[a];
}

/* Target at a frame for a piece: the base (outside) or the overlay over the
 * base (inside, add mode). */
static void target_at(const ctx *c, double f, bool inside, val *v)
{
    val b;
    base_at(c, f, &b);
    if (inside)
        compose(c, &b, v);
    else
        *v = b;
}

/* ---- Bezier pieces (math/curve.h) ---- */

/* Fits the sub-curve of one channel for the piece [u, v] of the segment
 * (f0, f1] with curve cp.  span = how far the channel moves over the piece
 * (units or degrees), tol its tolerance.  Returns true with q filled when a
 * grid curve is within tol; *trivial tells whether no fitting was needed. */
static bool fit_channel(const uint8_t cp[4], double f0, double f1, double u, double v, double span,
                        double tol, uint8_t q[4], bool *trivial)
{
    if (pki_curve_is_linear(cp) || span <= tol * 0.5) {
        memcpy(q, LINEAR_CP, 4);
        return true;
    }
    *trivial = false;
    double su = (u - f0) / (f1 - f0), sv = (v - f0) / (f1 - f0);
    double n[4];
    if (!pki_curve_sub(cp, su, sv, n))
        return false;
    /* Wanted progress at each integer frame strictly inside the piece. */
    size_t nf = (size_t)(v - u) - 1;
    double *exact = malloc((nf ? nf : 1) * sizeof *exact);
    if (!exact)
        return false;
    double yu = pki_curve_progress(cp, su), yv = pki_curve_progress(cp, sv);
    for (size_t i = 0; i < nf; i++)
        exact[i] =
            (pki_curve_progress(cp, (u + (double)(i + 1) - f0) / (f1 - f0)) - yu) / (yv - yu);
    bool ok = pki_curve_round(n, exact, nf, span, tol * 0.5, q);
    free(exact);
    return ok;
}

/* Checks with the real sampler that the keys (u: start, end) reproduce the
 * target at every integer frame strictly between them, within tol_deg and
 * tol_pos. */
static bool piece_check_tol(ctx *c, uint32_t u, const val *start, const nkey *end, bool inside,
                            double tol_deg, double tol_pos)
{
    pk_bone_key *k0 = &c->scratch->bones[0], *k1 = &c->scratch->bones[1];
    k0->frame = u;
    memcpy(k0->pos, start->pos, sizeof k0->pos);
    memcpy(k0->rot, start->rot, sizeof k0->rot);
    k1->frame = end->frame;
    memcpy(k1->pos, end->v.pos, sizeof k1->pos);
    memcpy(k1->rot, end->v.rot, sizeof k1->rot);
    pk_interp_set(k1->interp, (const uint8_t(*)[4])end->cp, end->physics_off);
    for (uint32_t f = u + 1; f < end->frame; f++) {
        val got, want;
        pk_sample_bone(c->scratch, &c->scratch_t, f, got.pos, got.rot);
        target_at(c, f, inside, &want);
        if (pk_quat_angle_deg(got.rot, want.rot) > tol_deg)
            return false;
        for (int a = 0; a < 3; a++)
            if (fabs((double)got.pos[a] - want.pos[a]) > tol_pos)
                return false;
    }
    return true;
}

static bool piece_check(ctx *c, uint32_t u, const val *start, const nkey *end, bool inside)
{
    return piece_check_tol(c, u, start, end, inside, PK_OVERLAY_TOL_DEG, PK_OVERLAY_TOL_POS);
}

/* ---- fitting a piece that does not split exactly ----
 *
 * The piece's target is sampled at every integer frame u..v and described
 * by the fewest keys whose curves the shared fitter (math/curve.h, the one
 * keyframe reduction uses) finds within PK_OVERLAY_FIT_DEG and
 * PK_OVERLAY_FIT_POS: from each key the farthest end that fits, the whole
 * piece first (a cut curve's piece is one Bezier, usually one key).  Every
 * segment is checked with the real sampler against the target before it
 * is taken; a one-frame segment always holds (no frame in between).
 *
 * The fitter runs at reduce's fast effort with one x(t) cache for the
 * whole overlay: the full search spent ~20 ms on each segment that no
 * curve fits, and the binary search for the farthest end tries many of
 * those (the demo job took 2.4 s, now 0.05 s; it writes 326 bone keys
 * where the full search found 318). */

typedef struct fitbuf {
    val *v;                /* targets at u .. v */
    float *ch;             /* one channel of a segment */
    float (*q)[4];         /* rotations of a segment */
    pki_curve_cache *cache; /* x(t) tables shared by every piece (NULL: none) */
} fitbuf;

/* Curves for the segment of samples a < b (all four channels), or false. */
static bool seg_curves(const fitbuf *fb, size_t a, size_t b, uint8_t cp[4][4])
{
    size_t n = b - a;
    set_curves(cp, LINEAR_CP);
    if (n < 2)
        return true;
    for (int ax = 0; ax < 3; ax++) {
        for (size_t i = 0; i <= n; i++)
            fb->ch[i] = fb->v[a + i].pos[ax];
        if (pki_curve_fit_scalar_ex(fb->ch, n, PK_OVERLAY_FIT_POS * 0.9, PKI_FIT_FAST, fb->cache,
                                    cp[ax], NULL) != 1)
            return false;
    }
    for (size_t i = 0; i <= n; i++)
        memcpy(fb->q[i], fb->v[a + i].rot, sizeof fb->q[i]);
    return pki_curve_fit_rot_ex((const float(*)[4])fb->q, n, PK_OVERLAY_FIT_DEG * 0.9, PKI_FIT_FAST,
                                fb->cache, cp[3], NULL) == 1;
}

/* Does the segment a < b of the piece starting at frame u hold?  end gets
 * its key. */
static bool seg_holds(ctx *c, const fitbuf *fb, uint32_t u, size_t a, size_t b, bool inside,
                      bool physics_off, nkey *end)
{
    memset(end, 0, sizeof *end);
    end->frame = u + (uint32_t)b;
    end->v = fb->v[b];
    end->physics_off = physics_off;
    if (!seg_curves(fb, a, b, end->cp))
        return false;
    return b - a < 2 || piece_check_tol(c, u + (uint32_t)a, &fb->v[a], end, inside,
                                        PK_OVERLAY_FIT_DEG, PK_OVERLAY_FIT_POS);
}

/* Emits the fitted keys of the piece [u, v] (the key at v last); false
 * when it could not (out of memory): the caller bakes. */
static bool fit_piece(ctx *c, const pk_bone_key *k1, uint32_t u, const val *start, uint32_t v,
                      const val *end_val, bool end_orig, bool inside, bool physics_off)
{
    size_t n = v - u;
    fitbuf fb;
    fb.v = malloc((n + 1) * sizeof *fb.v);
    fb.ch = malloc((n + 1) * sizeof *fb.ch);
    fb.q = malloc((n + 1) * sizeof *fb.q);
    fb.cache = c->cache;
    bool ok = fb.v && fb.ch && fb.q;
    if (ok) {
        fb.v[0] = *start;
        for (size_t i = 1; i < n; i++)
            target_at(c, (double)u + (double)i, inside, &fb.v[i]);
        fb.v[n] = *end_val;
    }
    size_t a = 0, keys = 0;
    while (ok && a < n) {
        nkey end, best;
        size_t b = n;
        if (!seg_holds(c, &fb, u, a, n, inside, physics_off, &best)) {
            /* the farthest end that holds: a + 1 always does */
            size_t good = a + 1, bad = n;
            seg_holds(c, &fb, u, a, good, inside, physics_off, &best);
            while (bad - good > 1) {
                size_t mid = good + (bad - good) / 2;
                if (seg_holds(c, &fb, u, a, mid, inside, physics_off, &end)) {
                    good = mid;
                    best = end;
                } else {
                    bad = mid;
                }
            }
            b = good;
        }
        nkey *k = push(c, best.frame);
        if (!k) {
            ok = false;
            break;
        }
        *k = best;
        if (b == n && end_orig) { /* the base key with its own curves: original */
            uint8_t now[4][4];
            for (int ax = 0; ax < 4; ax++)
                pk_interp_curve(k1->interp, ax, now[ax]);
            if (memcmp(now, best.cp, sizeof now) == 0)
                k->orig = true;
        }
        keys++;
        a = b;
    }
    free(fb.v);
    free(fb.ch);
    free(fb.q);
    if (ok) {
        c->st->fitted++;
        c->st->fitted_keys += keys - 1;
    }
    return ok;
}

/* The piece [u, v] of base segment (keys i-1, i): emits the keys that make
 * frames u+1 .. v reproduce the target.  `start` is the value stored at u.
 * `end_orig`: v is the base key i itself (kept byte-identical when the
 * piece is baked).  Otherwise the key at v gets value `end_val`. */
static void piece(ctx *c, size_t i, uint32_t u, const val *start, uint32_t v, const val *end_val,
                  bool end_orig, bool inside)
{
    const pk_bone_key *k1 = bkey(c, i);
    double f0 = bkey(c, i - 1)->frame, f1 = k1->frame;
    if (v - u > PIECE_MAX) {
        c->too_long = true;
        return;
    }
    bool physics_off = k1->interp[2] == 0x63 && k1->interp[3] == 0x0F;
    nkey end;
    memset(&end, 0, sizeof end);
    end.frame = v;
    end.v = *end_val;
    end.physics_off = physics_off;
    /* Channel spans over the piece: how far each channel moves. */
    double span[4];
    for (int a = 0; a < 3; a++)
        span[a] = fabs((double)end_val->pos[a] - start->pos[a]);
    span[3] = pk_quat_angle_deg(start->rot, end_val->rot);
    bool trivial = true, fitted = true;
    for (int a = 0; a < 4 && fitted; a++) {
        uint8_t cp[4];
        pk_interp_curve(k1->interp, a, cp);
        double tol = a == 3 ? PK_OVERLAY_TOL_DEG : PK_OVERLAY_TOL_POS;
        fitted = fit_channel(cp, f0, f1, u, v, span[a], tol, end.cp[a], &trivial);
    }
    if (v - u < 2) {
        trivial = true; /* no frame in between: nothing to fit */
        fitted = true;
    }
    if (fitted && !piece_check(c, u, start, &end, inside))
        fitted = false;
    if (fitted) {
        c->st->split++;
        if (trivial)
            c->st->split_exact++;
        /* An original end key whose curve is unchanged stays original. */
        if (end_orig) {
            uint8_t now[4][4];
            for (int a = 0; a < 4; a++)
                pk_interp_curve(k1->interp, a, now[a]);
            if (memcmp(now, end.cp, sizeof now) == 0 || v - u < 2) {
                nkey *k = push(c, v);
                if (k)
                    k->orig = true;
                return;
            }
        }
        nkey *k = push(c, v);
        if (k)
            *k = end;
        return;
    }
    if (c->fit) {
        size_t mark = c->out.n;
        if (fit_piece(c, k1, u, start, v, end_val, end_orig, inside, physics_off))
            return;
        c->out.n = mark;
        if (c->oom)
            return;
    }
    /* Bake: one key per frame, each segment one frame long. */
    c->st->baked++;
    for (uint32_t f = u + 1; f < v; f++) {
        nkey *k = push(c, f);
        if (!k)
            return;
        target_at(c, f, inside, &k->v);
        k->physics_off = physics_off;
        c->st->baked_keys++;
    }
    nkey *k = push(c, v);
    if (!k)
        return;
    if (end_orig) {
        k->orig = true;
    } else {
        k->v = *end_val;
        k->physics_off = physics_off;
    }
}

/* ---- track rebuild ---- */

/* Index of the base key at frame f, or of the last key before it (*at
 * tells which); SIZE_MAX when every key is after f. */
static size_t find_le(const ctx *c, uint32_t f, bool *at)
{
    size_t lo = 0, hi = nkeys(c); /* first key with frame > f */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (bkey(c, mid)->frame <= f)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo > 0 && bkey(c, lo - 1)->frame == f;
    return lo == 0 ? SIZE_MAX : lo - 1;
}

/* Emits the key at an outer edge e (E0 or E1) carrying the base value.
 * For E0 the piece before it is split; at E1 the key ends the fade-out
 * (curve PK_FADE_CURVE when `fade`, else linear). */
static void edge_key(ctx *c, uint32_t e, bool left, bool fade)
{
    bool at;
    size_t j = find_le(c, e, &at);
    size_t n = nkeys(c);
    if (at) {
        if (left || !fade) {
            nkey *k = push(c, e);
            if (k)
                k->orig = true;
        } else { /* a base key at E1 keeps its value but ends the fade */
            nkey *k = push(c, e);
            if (k) {
                key_val(bkey(c, j), &k->v);
                set_curves(k->cp, FADE_CP);
            }
        }
        return;
    }
    val v;
    if (n == 0) {
        base_at(c, e, &v);
    } else if (j == SIZE_MAX) {
        key_val(bkey(c, 0), &v); /* held first value, exactly as stored */
    } else if (j + 1 == n) {
        key_val(bkey(c, n - 1), &v);
    } else {
        base_at(c, e, &v);
        if (left) {
            val start;
            key_val(bkey(c, j), &start);
            piece(c, j + 1, bkey(c, j)->frame, &start, e, &v, false, false);
            return;
        }
    }
    nkey *k = push(c, e);
    if (k) {
        k->v = v;
        set_curves(k->cp, !left && fade ? FADE_CP : LINEAR_CP);
    }
}

/* Keys of the base after E1: the first one re-curved (or the piece baked),
 * the rest original. */
static void after_edge(ctx *c, uint32_t e1, const val *at_e1)
{
    bool at;
    size_t j = find_le(c, e1, &at);
    size_t n = nkeys(c), first = j == SIZE_MAX ? 0 : j + 1;
    for (size_t i = first; i < n; i++) {
        if (i == first && !at && j != SIZE_MAX) {
            val end;
            key_val(bkey(c, i), &end);
            piece(c, i, e1, at_e1, bkey(c, i)->frame, &end, true, false);
            continue;
        }
        nkey *k = push(c, bkey(c, i)->frame);
        if (k)
            k->orig = true;
    }
}

/* Add mode: the keys from A to B (A's key already emitted). */
static void add_inside(ctx *c, uint32_t a, uint32_t b, const val *at_a)
{
    size_t n = nkeys(c);
    bool at;
    size_t j = find_le(c, a, &at);
    size_t i = j == SIZE_MAX ? 0 : j + 1; /* first key > A */
    uint32_t prev_f = a;
    val prev = *at_a;
    for (; i < n && bkey(c, i)->frame <= b; i++) {
        const pk_bone_key *k = bkey(c, i);
        val bv, ov;
        key_val(k, &bv);
        compose(c, &bv, &ov);
        if (prev_f == a && !at && i > 0) {
            /* The segment crossing A: its right piece, multiplied. */
            piece(c, i, a, &prev, k->frame, &ov, false, true);
        } else {
            nkey *nk = push(c, k->frame);
            if (!nk)
                return;
            nk->v = ov;
            for (int ax = 0; ax < 4; ax++)
                pk_interp_curve(k->interp, ax, nk->cp[ax]);
            nk->physics_off = k->interp[2] == 0x63 && k->interp[3] == 0x0F;
        }
        prev_f = k->frame;
        prev = ov;
    }
    if (prev_f == b)
        return;
    val bb, ob;
    base_at(c, b, &bb);
    compose(c, &bb, &ob);
    if (i < n && i > 0) { /* B inside segment (i-1, i): the piece [prev, B] */
        piece(c, i, prev_f, &prev, b, &ob, false, true);
        return;
    }
    nkey *k = push(c, b); /* before the first or after the last key: constant */
    if (k)
        k->v = ob;
}

/* Splice: src's keys over [A, B], held to A before its first key and to B
 * after its last (src samples as a held value there). */
static void splice_inside(ctx *c, uint32_t a, uint32_t b)
{
    const pk_track *t = c->src_t;
    const pk_motion *s = c->src;
    for (size_t i = 0; i < t->count; i++) {
        const pk_bone_key *sk = &s->bones[t->keys[i]];
        if (i == 0 && sk->frame > a) {
            nkey *k = push(c, a);
            if (!k)
                return;
            key_val(sk, &k->v);
        }
        nkey *k = push(c, sk->frame);
        if (!k)
            return;
        key_val(sk, &k->v);
        for (int ax = 0; ax < 4; ax++)
            pk_interp_curve(sk->interp, ax, k->cp[ax]);
        k->physics_off = sk->interp[2] == 0x63 && sk->interp[3] == 0x0F;
        if (i + 1 == t->count && sk->frame < b) {
            nkey *kb = push(c, b);
            if (!kb)
                return;
            key_val(sk, &kb->v);
        }
    }
}

static void rebuild_range(ctx *c)
{
    const pk_overlay_options *o = c->opt;
    uint32_t a = o->first, b = o->last, f = o->fade;
    uint32_t gap = f ? f : 1;
    bool has_left = a > 0;
    uint32_t e0 = a >= gap ? a - gap : 0;
    uint32_t e1 = b + gap;
    const uint8_t *fade_cp = f ? FADE_CP : LINEAR_CP;
    size_t n = nkeys(c);

    if (has_left) {
        for (size_t i = 0; i < n && bkey(c, i)->frame < e0; i++) {
            nkey *k = push(c, bkey(c, i)->frame);
            if (k)
                k->orig = true;
        }
        edge_key(c, e0, true, false);
    }
    val ba, oa;
    base_at(c, a, &ba);
    compose(c, &ba, &oa);
    nkey *ka = push(c, a);
    if (!ka)
        return;
    ka->v = oa;
    set_curves(ka->cp, has_left ? fade_cp : LINEAR_CP);
    if (c->src_t) {
        c->out.n--; /* the splice lays its own keys from A on */
        splice_inside(c, a, b);
    } else if (o->mode == PK_OVERLAY_REPLACE) {
        if (b > a) {
            nkey *kb = push(c, b);
            if (kb)
                kb->v = oa;
        }
    } else {
        add_inside(c, a, b, &oa);
    }
    edge_key(c, e1, false, f > 0);
    val at_e1;
    base_at(c, e1, &at_e1);
    if (c->out.n && !c->out.v[c->out.n - 1].orig)
        at_e1 = c->out.v[c->out.n - 1].v;
    after_edge(c, e1, &at_e1);
}

static void rebuild_all(ctx *c)
{
    size_t n = nkeys(c);
    if (c->opt->mode == PK_OVERLAY_REPLACE || n == 0) {
        val r, o;
        base_at(c, 0, &r);
        compose(c, &r, &o);
        nkey *k = push(c, 0);
        if (k)
            k->v = o;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const pk_bone_key *bk = bkey(c, i);
        nkey *k = push(c, bk->frame);
        if (!k)
            return;
        val bv;
        key_val(bk, &bv);
        compose(c, &bv, &k->v);
        for (int ax = 0; ax < 4; ax++)
            pk_interp_curve(bk->interp, ax, k->cp[ax]);
        k->physics_off = bk->interp[2] == 0x63 && bk->interp[3] == 0x0F;
    }
}

/* ---- the whole motion ---- */

typedef struct plan {
    pk_name_id name; /* in the output motion; first, for plan_slots */
    klist keys;
} plan;

static bool frame_is_orig(const klist *l, uint32_t f)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->v[mid].frame < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->v[lo].frame == f && l->v[lo].orig;
}

/* The base track a pose bone lands on: same bytes, or the pose name as MMD
 * stored it cut (names.c's one rule; doc/formats.md §4). */
static pk_name_id base_name_for(const pk_motion *m, const uint8_t *raw, size_t len)
{
    return pki_names_find_stored(m->names, raw, len);
}

/* True when every selected pose name (of bones, or of morphs) that the
 * base lacks fits the VMD field; otherwise each one that does not is an
 * error, all at once (a name the base has, cut as MMD stores it, lands on
 * that track and needs no room). */
static bool new_names_fit(const pk_pose *pose, const pk_motion *base, const pk_tracks *tracks,
                          const pk_selection *sel, bool morphs, pk_log *log)
{
    const char *word = morphs ? "morph" : "bone";
    size_t n = morphs ? pose->nmorphs : pose->nbones;
    bool fit = true;
    for (size_t i = 0; i < n; i++) {
        pk_name_id pid = morphs ? pose->morphs[i].name : pose->bones[i].name;
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        long first = morphs ? pk_pose_find_morph(pose, pid) : pk_pose_find_bone(pose, pid);
        if (len <= PK_VMD_NAME_BYTES || first != (long)i || !pk_selection_has(sel, raw, len))
            continue;
        pk_name_id bid = base_name_for(base, raw, len);
        bool has = false;
        if (bid != PK_NO_NAME)
            has =
                morphs ? pk_tracks_morph(tracks, bid) != NULL : pk_tracks_bone(tracks, bid) != NULL;
        if (!has) {
            pk_error(log,
                     "%s '%s' is %zu bytes; a VMD %s name holds at most %d (--cut-names cuts it "
                     "as MMD does)",
                     word, pk_names_utf8(pose->names, pid), len, word, PK_VMD_NAME_BYTES);
            fit = false;
        }
    }
    return fit;
}

static bool valid_opts(const pk_overlay_options *o, pk_log *log)
{
    if (o->all_frames)
        return true;
    if (o->first > o->last) {
        pk_error(log, "overlay range %u-%u is empty", o->first, o->last);
        return false;
    }
    uint64_t e1 = (uint64_t)o->last + (o->fade ? o->fade : 1);
    if (e1 > UINT32_MAX) {
        pk_error(log, "overlay range %u-%u with fade %u runs past the last frame number", o->first,
                 o->last, o->fade);
        return false;
    }
    return true;
}

static void free_plans(plan *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i].keys.v);
    free(p);
}

/* Which plan each name of the output motion has: slot[name] = plan index,
 * or -1.  plans is an array of np records of `size` bytes, each starting
 * with its pk_name_id (plan, mplan).  malloc'd (caller frees); NULL on OOM. */
static long *plan_slots(size_t nn, const void *plans, size_t np, size_t size)
{
    long *slot = malloc((nn ? nn : 1) * sizeof *slot);
    if (!slot)
        return NULL;
    for (size_t i = 0; i < nn; i++)
        slot[i] = -1;
    for (size_t p = 0; p < np; p++) {
        pk_name_id name;
        memcpy(&name, (const char *)plans + p * size, sizeof name);
        if (name < nn)
            slot[name] = (long)p;
    }
    return slot;
}

/* Replaces the bone records of the planned tracks in out: originals stay
 * in place, everything else of those tracks is dropped, new keys are
 * appended track by track in frame order. */
static int apply_plans(pk_motion *out, plan *plans, size_t np, pk_overlay_stats *st)
{
    size_t nn = pk_names_count(out->names);
    long *slot = plan_slots(nn, plans, np, sizeof *plans);
    if (!slot)
        return -1;
    size_t w = 0;
    for (size_t r = 0; r < out->nbones; r++) {
        const pk_bone_key *k = &out->bones[r];
        long p = k->name < nn ? slot[k->name] : -1;
        if (p >= 0 && !frame_is_orig(&plans[p].keys, k->frame)) {
            st->keys_removed++;
            continue;
        }
        out->bones[w++] = *k;
    }
    out->nbones = w;
    free(slot);
    for (size_t p = 0; p < np; p++) {
        for (size_t i = 0; i < plans[p].keys.n; i++) {
            const nkey *nk = &plans[p].keys.v[i];
            if (nk->orig)
                continue;
            pk_bone_key *k = pk_motion_push_bone(out);
            if (!k)
                return -1;
            k->name = plans[p].name;
            k->frame = nk->frame;
            memcpy(k->pos, nk->v.pos, sizeof k->pos);
            memcpy(k->rot, nk->v.rot, sizeof k->rot);
            pk_interp_set(k->interp, (const uint8_t(*)[4])nk->cp, nk->physics_off);
            st->keys_added++;
        }
    }
    return 0;
}

static int overlay_morphs(const pk_motion *base, const pk_tracks *tracks, pk_motion *out,
                          const pk_pose *pose, const pk_selection *sel,
                          const pk_overlay_options *opt, pk_overlay_stats *st, pk_log *log);

/* The fade-in needs frames before A; the range may start too early. */
static void warn_fade_cut(const pk_overlay_options *o, pk_log *log)
{
    if (o->all_frames || o->fade <= o->first)
        return;
    if (o->first == 0)
        pk_warning(log, "fade %u: the range starts at frame 0, so there is no fade-in", o->fade);
    else
        pk_warning(log,
                   "fade %u cut short at frame 0: the fade-in runs over %u frame%s (frames 0-%u)",
                   o->fade, o->first, o->first == 1 ? "" : "s", o->first);
}

/* Selected base bones the pose lacks: one warning, or one line for many
 * ("16 selected bones are not in the pose, left as they are: '右手首',
 * '右親指０', '右親指１' and 13 more"). */
static void absent_bone(pki_log_sum *sum, const char *name)
{
    char item[96];
    snprintf(item, sizeof item, "'%s'", name);
    pki_log_sum_add(sum, -1, 0, 0, item, "selected bone '%s' is not in the pose; left as it is",
                    name);
}

static void absent_end(pki_log_sum *sum, pk_log *log)
{
    pki_log_sum_end(sum, log, PK_WARNING, NULL,
                    "%zu selected bones are not in the pose, left as they are", sum->count);
}

static void warn_nothing(const pk_overlay_stats *st, pk_log *log)
{
    if (st->bones + st->morphs == 0)
        pk_warning(log, "nothing overlaid: the pose holds none of the selected bones or morphs, "
                        "the output is the base");
}

pk_motion *pk_overlay_motion(const pk_motion *base, const pk_pose *pose, const pk_selection *sel,
                             const pk_overlay_options *opt, pk_overlay_stats *stats, pk_log *log)
{
    pk_overlay_stats local;
    pk_overlay_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    if (!valid_opts(opt, log))
        return NULL;
    warn_fade_cut(opt, log);
    pk_log quiet; /* duplicate-key warnings belong to reading the base */
    pk_log_init(&quiet);
    pk_tracks *tracks = pk_tracks_build(base, &quiet);
    pk_log_free(&quiet);
    pk_motion *out = pk_motion_clone(base);
    pk_motion *scratch = pk_motion_new();
    /* NULL (no memory) only slows the fitter down */
    pki_curve_cache *cache = opt->exact ? NULL : pki_curve_cache_new();
    plan *plans = calloc(pose->nbones ? pose->nbones : 1, sizeof *plans);
    size_t np = 0;
    bool *done = calloc(tracks ? tracks->nbones + 1 : 1, sizeof *done);
    if (!tracks || !out || !scratch || !plans || !done || !pk_motion_push_bone(scratch) ||
        !pk_motion_push_bone(scratch))
        goto oom;
    if (!new_names_fit(pose, base, tracks, sel, false, log))
        goto fail;
    for (size_t i = 0; i < pose->nbones; i++) {
        pk_name_id pid = pose->bones[i].name;
        if (pk_pose_find_bone(pose, pid) != (long)i)
            continue; /* a duplicate: the last one wins */
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        if (!pk_selection_has(sel, raw, len))
            continue;
        pk_name_id bid = base_name_for(base, raw, len);
        const pk_track *t = bid == PK_NO_NAME ? NULL : pk_tracks_bone(tracks, bid);
        if (!t) {
            if (len > PK_VMD_NAME_BYTES) { /* said above */
                goto fail;
            }
            bid = pk_names_intern(out->names, raw, len);
            if (bid == PK_NO_NAME)
                goto oom;
        } else {
            done[t - tracks->bones] = true;
        }
        ctx c;
        memset(&c, 0, sizeof c);
        c.m = base;
        c.t = t;
        c.opt = opt;
        memcpy(c.pose.pos, pose->bones[i].pos, sizeof c.pose.pos);
        memcpy(c.pose_raw, pose->bones[i].rot, sizeof c.pose_raw);
        pk_quat_normalize(c.pose_raw, c.pose.rot);
        c.scratch = scratch;
        c.scratch_keys[0] = 0;
        c.scratch_keys[1] = 1;
        c.scratch_t.keys = c.scratch_keys;
        c.scratch_t.count = 2;
        c.st = st;
        c.fit = !opt->exact;
        c.cache = cache;
        if (opt->all_frames)
            rebuild_all(&c);
        else
            rebuild_range(&c);
        plans[np].name = bid;
        plans[np].keys = c.out;
        np++;
        st->bones++;
        if (c.oom)
            goto oom;
        if (c.too_long) {
            pk_error(log,
                     "bone '%s': a segment crossed by the overlay's edges is longer than %u "
                     "frames; it cannot be checked frame by frame",
                     pk_names_utf8(pose->names, pid), PIECE_MAX);
            goto fail;
        }
    }
    pki_log_sum absent;
    pki_log_sum_init(&absent);
    for (size_t ti = 0; ti < tracks->nbones; ti++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(base->names, tracks->bones[ti].name, &len);
        if (done[ti] || !pk_selection_has(sel, raw, len))
            continue;
        st->missing++;
        absent_bone(&absent, pk_names_utf8(base->names, tracks->bones[ti].name));
    }
    absent_end(&absent, log);
    if (apply_plans(out, plans, np, st) != 0)
        goto oom;
    if (overlay_morphs(base, tracks, out, pose, sel, opt, st, log) != 0)
        goto fail;
    warn_nothing(st, log);
    free_plans(plans, np);
    free(done);
    pk_motion_free(scratch);
    pki_curve_cache_free(cache);
    pk_tracks_free(tracks);
    return out;
oom:
    pk_error(log, "out of memory");
fail:
    free_plans(plans, np);
    free(done);
    pk_motion_free(scratch);
    pki_curve_cache_free(cache);
    pk_motion_free(out);
    pk_tracks_free(tracks);
    return NULL;
}

/* ---- morphs ----
 *
 * Morph weights interpolate linearly in MMD (a morph key has no curve), so
 * every law holds with plain keys: a linear segment cut at an integer frame
 * is two linear segments through the sampled weight (exact), and the fades
 * are linear ramps: one segment from the base weight at E0 to the overlay
 * weight at A, and from the overlay at B to the base at E1.  replace: the
 * pose's weight inside; add: base + pose (the base's keys inside kept,
 * shifted by the constant, which commutes with the linear blend). */

typedef struct mkey {
    uint32_t frame;
    bool orig; /* the base's record at this frame, kept as it is */
    float w;
} mkey;

typedef struct mlist {
    mkey *v;
    size_t n, cap;
} mlist;

typedef struct mctx {
    const pk_motion *m; /* base */
    const pk_track *t;  /* NULL: the base has no such morph (weight 0) */
    pk_overlay_mode mode;
    float pose_w;
    const pk_motion *src; /* splice: src's track src_t laid in over [A, B] */
    const pk_track *src_t;
    mlist out;
    bool oom;
} mctx;

static mkey *mpush(mctx *c, uint32_t frame, bool orig, float w)
{
    mlist *l = &c->out;
    mkey *k = pki_grow_push(&l->v, &l->n, &l->cap, sizeof *l->v);
    if (!k) {
        c->oom = true;
        return NULL;
    }
    k->frame = frame;
    k->orig = orig;
    k->w = w;
    return k;
}

static size_t mcount(const mctx *c)
{
    return c->t ? c->t->count : 0;
}

static const pk_morph_key *mbkey(const mctx *c, size_t i)
{
    return &c->m->morphs[c->t->keys[i]];
}

static float mbase(const mctx *c, uint32_t f)
{
    return pk_sample_morph(c->m, c->t, f);
}

static float mover(const mctx *c, float base)
{
    return c->mode == PK_OVERLAY_REPLACE ? c->pose_w : base + c->pose_w;
}

/* Base keys with frame < e (before) or > e (after), kept as they are. */
static void m_originals(mctx *c, uint32_t e, bool before)
{
    for (size_t i = 0; i < mcount(c); i++) {
        uint32_t f = mbkey(c, i)->frame;
        if (before ? f < e : f > e)
            mpush(c, f, true, 0.0f);
    }
}

/* The key at an edge: the base's own key there, or the sampled weight. */
static void m_edge(mctx *c, uint32_t e)
{
    for (size_t i = 0; i < mcount(c); i++)
        if (mbkey(c, i)->frame == e) {
            mpush(c, e, true, 0.0f);
            return;
        }
    mpush(c, e, false, mbase(c, e));
}

static void m_splice_inside(mctx *c, uint32_t a, uint32_t b)
{
    const pk_track *t = c->src_t;
    for (size_t i = 0; i < t->count; i++) {
        const pk_morph_key *sk = &c->src->morphs[t->keys[i]];
        if (i == 0 && sk->frame > a)
            mpush(c, a, false, sk->weight);
        mpush(c, sk->frame, false, sk->weight);
        if (i + 1 == t->count && sk->frame < b)
            mpush(c, b, false, sk->weight);
    }
}

static void m_rebuild_range(mctx *c, uint32_t a, uint32_t b, uint32_t fade)
{
    uint32_t gap = fade ? fade : 1;
    uint32_t e0 = a >= gap ? a - gap : 0, e1 = b + gap;
    if (a > 0) {
        m_originals(c, e0, true);
        m_edge(c, e0);
    }
    if (c->src_t) {
        m_splice_inside(c, a, b);
    } else {
        mpush(c, a, false, mover(c, mbase(c, a)));
        if (c->mode == PK_OVERLAY_REPLACE) {
            if (b > a)
                mpush(c, b, false, c->pose_w);
        } else {
            uint32_t last = a;
            for (size_t i = 0; i < mcount(c); i++) {
                const pk_morph_key *k = mbkey(c, i);
                if (k->frame > a && k->frame <= b) {
                    mpush(c, k->frame, false, mover(c, mbase(c, k->frame)));
                    last = k->frame;
                }
            }
            if (last != b)
                mpush(c, b, false, mover(c, mbase(c, b)));
        }
    }
    m_edge(c, e1);
    m_originals(c, e1, false);
}

static void m_rebuild_all(mctx *c)
{
    if (c->mode == PK_OVERLAY_REPLACE || mcount(c) == 0) {
        mpush(c, 0, false, mover(c, mbase(c, 0)));
        return;
    }
    for (size_t i = 0; i < mcount(c); i++) {
        uint32_t f = mbkey(c, i)->frame;
        mpush(c, f, false, mover(c, mbase(c, f)));
    }
}

typedef struct mplan {
    pk_name_id name; /* in the output motion; first, for plan_slots */
    mlist keys;
} mplan;

static void free_mplans(mplan *p, size_t n)
{
    if (!p)
        return;
    for (size_t i = 0; i < n; i++)
        free(p[i].keys.v);
    free(p);
}

static bool m_frame_is_orig(const mlist *l, uint32_t f)
{
    size_t lo = 0, hi = l->n; /* lists are in frame order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->v[mid].frame < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->v[lo].frame == f && l->v[lo].orig;
}

/* apply_plans for morph records. */
static int apply_mplans(pk_motion *out, const mplan *plans, size_t np, pk_overlay_stats *st)
{
    size_t nn = pk_names_count(out->names);
    long *slot = plan_slots(nn, plans, np, sizeof *plans);
    if (!slot)
        return -1;
    size_t w = 0;
    for (size_t r = 0; r < out->nmorphs; r++) {
        const pk_morph_key *k = &out->morphs[r];
        long p = k->name < nn ? slot[k->name] : -1;
        if (p >= 0 && !m_frame_is_orig(&plans[p].keys, k->frame)) {
            st->keys_removed++;
            continue;
        }
        out->morphs[w++] = *k;
    }
    out->nmorphs = w;
    free(slot);
    for (size_t p = 0; p < np; p++)
        for (size_t i = 0; i < plans[p].keys.n; i++) {
            const mkey *mk = &plans[p].keys.v[i];
            if (mk->orig)
                continue;
            pk_morph_key *k = pk_motion_push_morph(out);
            if (!k)
                return -1;
            k->name = plans[p].name;
            k->frame = mk->frame;
            k->weight = mk->w;
            st->keys_added++;
        }
    return 0;
}

static void warn_missing_morphs(size_t missing, char first[3][64], pk_log *log)
{
    if (!missing)
        return;
    pk_warning(log, "%zu selected morph%s not in the pose, left as %s: '%s'%s%s%s%s%s%s", missing,
               missing == 1 ? " is" : "s are", missing == 1 ? "it is" : "they are", first[0],
               missing > 1 ? ", '" : "", missing > 1 ? first[1] : "", missing > 1 ? "'" : "",
               missing > 2 ? ", '" : "", missing > 2 ? first[2] : "",
               missing > 3   ? "', ..."
               : missing > 2 ? "'"
                             : "");
}

/* The pose's selected morphs over the base's morph tracks (out is the
 * bone-overlaid clone of base; records of other morphs stay in place). */
static int overlay_morphs(const pk_motion *base, const pk_tracks *tracks, pk_motion *out,
                          const pk_pose *pose, const pk_selection *sel,
                          const pk_overlay_options *opt, pk_overlay_stats *st, pk_log *log)
{
    mplan *plans = calloc(pose->nmorphs ? pose->nmorphs : 1, sizeof *plans);
    bool *done = calloc(tracks->nmorphs + 1, sizeof *done);
    size_t np = 0;
    if (!plans || !done)
        goto oom;
    if (!new_names_fit(pose, base, tracks, sel, true, log)) {
        free(plans);
        free(done);
        return -1;
    }
    for (size_t i = 0; i < pose->nmorphs; i++) {
        pk_name_id pid = pose->morphs[i].name;
        if (pk_pose_find_morph(pose, pid) != (long)i)
            continue; /* a duplicate: the last one wins */
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        if (!pk_selection_has(sel, raw, len))
            continue;
        pk_name_id bid = base_name_for(base, raw, len);
        const pk_track *t = bid == PK_NO_NAME ? NULL : pk_tracks_morph(tracks, bid);
        if (!t) {
            if (len > PK_VMD_NAME_BYTES) {
                pk_error(log, "morph '%s' is %zu bytes; a VMD morph name holds at most %d",
                         pk_names_utf8(pose->names, pid), len, PK_VMD_NAME_BYTES);
                free_mplans(plans, np);
                free(done);
                return -1;
            }
            bid = pk_names_intern(out->names, raw, len);
            if (bid == PK_NO_NAME)
                goto oom;
        } else {
            done[t - tracks->morphs] = true;
        }
        mctx c;
        memset(&c, 0, sizeof c);
        c.m = base;
        c.t = t;
        c.mode = opt->mode;
        c.pose_w = pose->morphs[i].weight;
        if (opt->all_frames)
            m_rebuild_all(&c);
        else
            m_rebuild_range(&c, opt->first, opt->last, opt->fade);
        plans[np].name = bid;
        plans[np].keys = c.out;
        np++;
        st->morphs++;
        if (c.oom)
            goto oom;
    }
    size_t missing = 0;
    char first[3][64];
    for (size_t ti = 0; ti < tracks->nmorphs; ti++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(base->names, tracks->morphs[ti].name, &len);
        if (done[ti] || !pk_selection_has(sel, raw, len))
            continue;
        if (missing < 3)
            snprintf(first[missing], sizeof first[0], "%s",
                     pk_names_utf8(base->names, tracks->morphs[ti].name));
        missing++;
    }
    warn_missing_morphs(missing, first, log);
    st->morphs_missing += missing;
    if (apply_mplans(out, plans, np, st) != 0)
        goto oom;
    free_mplans(plans, np);
    free(done);
    return 0;
oom:
    pk_error(log, "out of memory");
    free_mplans(plans, np);
    free(done);
    return -1;
}

/* ---- a pose over a pose ---- */

/* Selected morphs of `pose` over the morphs of `out` (a clone of the base):
 * replace sets the weight, add adds it; a morph only in the pose is
 * appended; selected base morphs the pose lacks are warned about in one
 * line. */
static int overlay_pose_morphs(pk_pose *out, const pk_pose *pose, const pk_selection *sel,
                               pk_overlay_mode mode, pk_overlay_stats *st, pk_log *log)
{
    size_t nbase = out->nmorphs;
    bool *hit = calloc(nbase ? nbase : 1, sizeof *hit);
    if (!hit)
        return -1;
    for (size_t i = 0; i < pose->nmorphs; i++) {
        pk_name_id pid = pose->morphs[i].name;
        if (pk_pose_find_morph(pose, pid) != (long)i)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        if (!pk_selection_has(sel, raw, len))
            continue;
        pk_name_id bid = pk_names_find(out->names, raw, len);
        long bi = bid == PK_NO_NAME ? -1 : pk_pose_find_morph(out, bid);
        float w = pose->morphs[i].weight;
        st->morphs++;
        if (bi < 0) {
            bid = pk_names_intern(out->names, raw, len);
            pk_pose_morph *nm = bid == PK_NO_NAME ? NULL : pk_pose_push_morph(out);
            if (!nm) {
                free(hit);
                return -1;
            }
            nm->name = bid;
            nm->weight = w;
            st->keys_added++;
            continue;
        }
        if ((size_t)bi < nbase)
            hit[bi] = true;
        out->morphs[bi].weight = mode == PK_OVERLAY_REPLACE ? w : out->morphs[bi].weight + w;
    }
    size_t missing = 0;
    char first[3][64];
    for (size_t i = 0; i < nbase; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(out->names, out->morphs[i].name, &len);
        if (hit[i] || !pk_selection_has(sel, raw, len) ||
            pk_pose_find_morph(out, out->morphs[i].name) != (long)i)
            continue;
        if (missing < 3)
            snprintf(first[missing], sizeof first[0], "%s",
                     pk_names_utf8(out->names, out->morphs[i].name));
        missing++;
    }
    free(hit);
    warn_missing_morphs(missing, first, log);
    st->morphs_missing += missing;
    return 0;
}

pk_pose *pk_overlay_pose(const pk_pose *base, const pk_pose *pose, const pk_selection *sel,
                         pk_overlay_mode mode, pk_overlay_stats *stats, pk_log *log)
{
    pk_overlay_stats local;
    pk_overlay_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    pk_pose *out = pk_pose_clone(base);
    if (!out) {
        pk_error(log, "out of memory");
        return NULL;
    }
    size_t nbase = out->nbones;
    bool *hit = calloc(nbase ? nbase : 1, sizeof *hit);
    if (!hit)
        goto oom;
    for (size_t i = 0; i < pose->nbones; i++) {
        pk_name_id pid = pose->bones[i].name;
        if (pk_pose_find_bone(pose, pid) != (long)i)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(pose->names, pid, &len);
        if (!pk_selection_has(sel, raw, len))
            continue;
        pk_name_id bid = pk_names_find(out->names, raw, len);
        long bi = bid == PK_NO_NAME ? -1 : pk_pose_find_bone(out, bid);
        const pk_pose_bone *pb = &pose->bones[i];
        if (bi < 0) {
            bid = pk_names_intern(out->names, raw, len);
            pk_pose_bone *nb = bid == PK_NO_NAME ? NULL : pk_pose_push_bone(out);
            if (!nb)
                goto oom;
            nb->name = bid;
            memcpy(nb->pos, pb->pos, sizeof nb->pos);
            memcpy(nb->rot, pb->rot, sizeof nb->rot);
            if (mode == PK_OVERLAY_ADD) {
                pk_quat_normalize(pb->rot, nb->rot);
            }
            st->keys_added++;
            st->bones++;
            continue;
        }
        pk_pose_bone *bb = &out->bones[bi];
        if ((size_t)bi < nbase)
            hit[bi] = true;
        if (mode == PK_OVERLAY_REPLACE) {
            memcpy(bb->pos, pb->pos, sizeof bb->pos);
            memcpy(bb->rot, pb->rot, sizeof bb->rot);
        } else {
            float qa[4], qb[4];
            pk_quat_normalize(bb->rot, qa);
            pk_quat_normalize(pb->rot, qb);
            pk_quat_mul(qa, qb, bb->rot);
            for (int a = 0; a < 3; a++)
                bb->pos[a] += pb->pos[a];
        }
        st->bones++;
    }
    pki_log_sum absent;
    pki_log_sum_init(&absent);
    for (size_t i = 0; i < nbase; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(out->names, out->bones[i].name, &len);
        if (hit[i] || !pk_selection_has(sel, raw, len))
            continue;
        if (pk_pose_find_bone(out, out->bones[i].name) != (long)i)
            continue;
        st->missing++;
        absent_bone(&absent, pk_names_utf8(out->names, out->bones[i].name));
    }
    absent_end(&absent, log);
    free(hit);
    if (overlay_pose_morphs(out, pose, sel, mode, st, log) != 0)
        goto oom_out;
    warn_nothing(st, log);
    return out;
oom:
    free(hit);
oom_out:
    pk_pose_free(out);
    pk_error(log, "out of memory");
    return NULL;
}

/* ---- splice and cut (for merge; overlay.h) ---- */

/* A bone ctx over base track t with the scratch motion piece() checks on. */
static void bone_ctx(ctx *c, const pk_motion *m, const pk_track *t, const pk_overlay_options *o,
                     pk_motion *scratch, pk_overlay_stats *st)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->t = t;
    c->opt = o;
    c->pose.rot[3] = 1.0f;
    c->pose_raw[3] = 1.0f;
    c->scratch = scratch;
    c->scratch_keys[0] = 0;
    c->scratch_keys[1] = 1;
    c->scratch_t.keys = c->scratch_keys;
    c->scratch_t.count = 2;
    c->st = st;
}

static pk_motion *scratch_motion(void)
{
    pk_motion *s = pk_motion_new();
    if (s && (!pk_motion_push_bone(s) || !pk_motion_push_bone(s))) {
        pk_motion_free(s);
        return NULL;
    }
    return s;
}

/* The track of `out` a src name lands on: base's own, or a new name. */
static pk_name_id land(const pk_motion *base, pk_motion *out, const pk_names *src_names,
                       pk_name_id id)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(src_names, id, &len);
    pk_name_id bid = base_name_for(base, raw, len);
    return bid != PK_NO_NAME ? bid : pk_names_intern(out->names, raw, len);
}

pk_motion *pki_splice_motion(const pk_motion *base, const pk_motion *src, uint32_t a, uint32_t b,
                             pk_overlay_stats *stats, pk_log *log)
{
    pk_overlay_stats local;
    pk_overlay_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, a, b, 0, true};
    if (!valid_opts(&o, log))
        return NULL;
    pk_log quiet;
    pk_log_init(&quiet);
    pk_tracks *tb = pk_tracks_build(base, &quiet), *ts = pk_tracks_build(src, &quiet);
    pk_log_free(&quiet);
    pk_motion *out = pk_motion_clone(base), *scratch = scratch_motion();
    size_t np = 0, nm = 0;
    plan *plans = NULL;
    mplan *mplans = NULL;
    if (!tb || !ts || !out || !scratch)
        goto oom;
    plans = calloc(ts->nbones + 1, sizeof *plans);
    mplans = calloc(ts->nmorphs + 1, sizeof *mplans);
    if (!plans || !mplans)
        goto oom;
    for (size_t i = 0; i < ts->nbones; i++) {
        pk_name_id bid = land(base, out, src->names, ts->bones[i].name);
        if (bid == PK_NO_NAME)
            goto oom;
        ctx c;
        bone_ctx(&c, base, pk_tracks_bone(tb, bid), &o, scratch, st);
        c.src = src;
        c.src_t = &ts->bones[i];
        rebuild_range(&c);
        plans[np].name = bid;
        plans[np++].keys = c.out;
        st->bones++;
        if (c.oom)
            goto oom;
        if (c.too_long) {
            pk_error(log,
                     "bone '%s': a segment crossed by the edges of frames %u-%u is longer than "
                     "%u frames; it cannot be checked frame by frame",
                     pk_names_utf8(src->names, ts->bones[i].name), a, b, PIECE_MAX);
            goto fail;
        }
    }
    for (size_t i = 0; i < ts->nmorphs; i++) {
        pk_name_id bid = land(base, out, src->names, ts->morphs[i].name);
        if (bid == PK_NO_NAME)
            goto oom;
        mctx c;
        memset(&c, 0, sizeof c);
        c.m = base;
        c.t = pk_tracks_morph(tb, bid);
        c.src = src;
        c.src_t = &ts->morphs[i];
        m_rebuild_range(&c, a, b, 0);
        mplans[nm].name = bid;
        mplans[nm++].keys = c.out;
        st->morphs++;
        if (c.oom)
            goto oom;
    }
    if (apply_plans(out, plans, np, st) != 0 || apply_mplans(out, mplans, nm, st) != 0)
        goto oom;
    free_plans(plans, np);
    free_mplans(mplans, nm);
    pk_motion_free(scratch);
    pk_tracks_free(tb);
    pk_tracks_free(ts);
    return out;
oom:
    pk_error(log, "out of memory");
fail:
    if (plans)
        free_plans(plans, np);
    free_mplans(mplans, nm);
    pk_motion_free(scratch);
    pk_motion_free(out);
    pk_tracks_free(tb);
    pk_tracks_free(ts);
    return NULL;
}

/* Removes the records before `cut` of one section (kept in order). */
#define DROP_BEFORE(arr, n, cut, dropped)                                                          \
    do {                                                                                           \
        size_t w_ = 0;                                                                             \
        for (size_t r_ = 0; r_ < (n); r_++) {                                                      \
            if ((arr)[r_].frame < (cut)) {                                                         \
                (*(dropped))++;                                                                    \
                continue;                                                                          \
            }                                                                                      \
            (arr)[w_++] = (arr)[r_];                                                               \
        }                                                                                          \
        (n) = w_;                                                                                  \
    } while (0)

/* Index into a sorted index list of the last record with frame <= cut and
 * whether one is at the cut; SIZE_MAX when every record is after it. */
#define LAST_LE(idx, n, arr, cut, at, out)                                                         \
    do {                                                                                           \
        (out) = SIZE_MAX;                                                                          \
        (at) = false;                                                                              \
        for (size_t i_ = 0; i_ < (n) && (arr)[(idx)[i_]].frame <= (cut); i_++) {                   \
            (out) = i_;                                                                            \
            (at) = (arr)[(idx)[i_]].frame == (cut);                                                \
        }                                                                                          \
    } while (0)

/* Camera, light, shadow and IK: a key at the cut holding the value there. */
static int cut_others(const pk_motion *m, const pk_tracks *t, pk_motion *out, uint32_t cut,
                      size_t *added)
{
    size_t j;
    bool at;
    LAST_LE(t->cameras, t->ncameras, m->cameras, cut, at, j);
    if (j != SIZE_MAX && !at) {
        pk_camera_key k;
        if (pk_sample_camera(m, t, cut, &k)) {
            pk_camera_key *n = pk_motion_push_camera(out);
            if (!n)
                return -1;
            *n = k;
            n->frame = cut;
            (*added)++;
        }
    }
    LAST_LE(t->lights, t->nlights, m->lights, cut, at, j);
    if (j != SIZE_MAX && !at) {
        pk_light_key k;
        if (pk_sample_light(m, t, cut, &k)) {
            pk_light_key *n = pk_motion_push_light(out);
            if (!n)
                return -1;
            *n = k;
            n->frame = cut;
            (*added)++;
        }
    }
    LAST_LE(t->shadows, t->nshadows, m->shadows, cut, at, j);
    if (j != SIZE_MAX && !at) {
        pk_shadow_key *n = pk_motion_push_shadow(out);
        if (!n)
            return -1;
        *n = m->shadows[t->shadows[j]];
        n->frame = cut;
        (*added)++;
    }
    LAST_LE(t->iks, t->niks, m->iks, cut, at, j);
    if (j != SIZE_MAX && !at) {
        const pk_ik_key *src = &m->iks[t->iks[j]];
        pk_ik_key *n = pk_motion_push_ik(out, src->count);
        if (!n)
            return -1;
        n->frame = cut;
        n->show = src->show;
        for (uint32_t i = 0; i < src->count; i++)
            n->ik[i] = src->ik[i];
        (*added)++;
    }
    return 0;
}

pk_motion *pki_motion_cut_before(const pk_motion *m, uint32_t cut, size_t *dropped, size_t *added,
                                 pk_log *log)
{
    *dropped = 0;
    *added = 0;
    pk_overlay_stats st;
    memset(&st, 0, sizeof st);
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, cut, cut, 0, true};
    pk_log quiet;
    pk_log_init(&quiet);
    pk_tracks *t = pk_tracks_build(m, &quiet);
    pk_log_free(&quiet);
    pk_motion *out = pk_motion_clone(m), *scratch = scratch_motion();
    plan *plans = NULL;
    mplan *mplans = NULL;
    size_t np = 0, nm = 0;
    if (!t || !out || !scratch)
        goto oom;
    plans = calloc(t->nbones + 1, sizeof *plans);
    mplans = calloc(t->nmorphs + 1, sizeof *mplans);
    if (!plans || !mplans)
        goto oom;
    for (size_t i = 0; i < t->nbones; i++) {
        const pk_track *tr = &t->bones[i];
        if (tr->count == 0 || m->bones[tr->keys[0]].frame >= cut)
            continue; /* nothing before the cut */
        ctx c;
        bone_ctx(&c, m, tr, &o, scratch, &st);
        edge_key(&c, cut, false, false);
        val at;
        memset(&at, 0, sizeof at); /* unused when the cut is a key of the base */
        if (c.out.n && !c.out.v[0].orig)
            at = c.out.v[0].v;
        after_edge(&c, cut, &at);
        plans[np].name = tr->name;
        plans[np++].keys = c.out;
        if (c.oom)
            goto oom;
        if (c.too_long) {
            pk_error(log,
                     "bone '%s': the segment the cut at frame %u crosses is longer than %u "
                     "frames; it cannot be checked frame by frame",
                     pk_names_utf8(m->names, tr->name), cut, PIECE_MAX);
            goto fail;
        }
    }
    for (size_t i = 0; i < t->nmorphs; i++) {
        const pk_track *tr = &t->morphs[i];
        if (tr->count == 0 || m->morphs[tr->keys[0]].frame >= cut)
            continue;
        mctx c;
        memset(&c, 0, sizeof c);
        c.m = m;
        c.t = tr;
        m_edge(&c, cut);
        m_originals(&c, cut, false);
        mplans[nm].name = tr->name;
        mplans[nm++].keys = c.out;
        if (c.oom)
            goto oom;
    }
    if (apply_plans(out, plans, np, &st) != 0 || apply_mplans(out, mplans, nm, &st) != 0)
        goto oom;
    /* The bone and morph keys before the cut are gone (apply_plans); the
     * other sections' are dropped here, then their held values added. */
    size_t others = 0;
    DROP_BEFORE(out->cameras, out->ncameras, cut, &others);
    DROP_BEFORE(out->lights, out->nlights, cut, &others);
    DROP_BEFORE(out->shadows, out->nshadows, cut, &others);
    size_t w = 0;
    for (size_t r = 0; r < out->niks; r++) {
        if (out->iks[r].frame < cut) {
            free(out->iks[r].ik); /* each IK record owns its states */
            others++;
            continue;
        }
        out->iks[w++] = out->iks[r];
    }
    out->niks = w;
    if (cut_others(m, t, out, cut, added) != 0)
        goto oom;
    /* Records before the cut, and the keys added at the cut (not the bone
     * keys re-curved or baked after it). */
    for (size_t r = 0; r < m->nbones; r++)
        others += m->bones[r].frame < cut;
    for (size_t r = 0; r < m->nmorphs; r++)
        others += m->morphs[r].frame < cut;
    *dropped = others;
    for (size_t i = 0; i < np; i++)
        *added += plans[i].keys.n && !plans[i].keys.v[0].orig;
    for (size_t i = 0; i < nm; i++)
        *added += mplans[i].keys.n && !mplans[i].keys.v[0].orig;
    free_plans(plans, np);
    free_mplans(mplans, nm);
    pk_motion_free(scratch);
    pk_tracks_free(t);
    return out;
oom:
    pk_error(log, "out of memory");
fail:
    if (plans)
        free_plans(plans, np);
    free_mplans(mplans, nm);
    pk_motion_free(scratch);
    pk_motion_free(out);
    pk_tracks_free(t);
    return NULL;
}
