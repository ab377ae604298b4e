/* rebuild.c — one bone or morph track rebuilt around a frame window
 * (rebuild_internal.h), for overlay.c and splice.c.
 *
 * With E0 = A - max(F,1) and E1 = B + max(F,1) (the last untouched frame
 * before the window [A, B] and the first after it):
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
 *                        splice: the source's keys, held to A and to B
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
 * and PK_OVERLAY_TOL_POS; otherwise it is fitted with the fewest keys
 * (env->fit) or becomes one key per frame.
 *
 * Morphs take the same steps with nothing to split: a morph key has no
 * curve (weights blend linearly), so a crossed segment cut at a frame is
 * the key there with the sampled weight, and a base key after E1 stays as
 * it is.  add adds the weights (commutes with the linear blend).
 *
 * Fades: the segment from the base value at E0 to the overlay value at A
 * (and from the overlay at B to the base at E1) carries PK_FADE_CURVE on all
 * four channels: translation moves along the ease curve, rotation slerps
 * with the eased weight (morphs: linear ramps).  The base's own motion
 * inside the fade frames is not followed; the fade is a smooth hand-over
 * between two held values, which is what an animator keys by hand in MMD
 * (two keys, ease curve).
 */
#include "common/grow.h"
#include "ops/keys/rebuild.h"
#include "posekit.h"
#include "math/curve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t FADE_CP[4] = PK_FADE_CURVE;
static const uint8_t LINEAR_CP[4] = {20, 20, 107, 107};

/* Morph weights the same within this (pki_rb_unchanged). */
#define MORPH_SAME 1e-5

static void set_curves(uint8_t cp[4][4], const uint8_t c[4])
{
    for (int a = 0; a < 4; a++)
        memcpy(cp[a], c, 4);
}

static bool physics_off_of(const uint8_t interp[64])
{
    return interp[2] == 0x63 && interp[3] == 0x0F;
}

bool pki_rb_window_ok(const pk_overlay_options *o, pk_log *log)
{
    if (o->all_frames)
        return true;
    if (o->first > o->last) {
        pk_error(log, PK_E_USAGE, "overlay range %u-%u is empty", o->first, o->last);
        return false;
    }
    uint64_t e1 = (uint64_t)o->last + (o->fade ? o->fade : 1);
    if (e1 > UINT32_MAX) {
        pk_error(log, PK_E_USAGE,
                 "overlay range %u-%u with fade %u runs past the last frame number", o->first,
                 o->last, o->fade);
        return false;
    }
    return true;
}

pk_motion *pki_rb_scratch_new(void)
{
    pk_motion *s = pk_motion_new();
    if (s && (!pk_motion_push_bone(s) || !pk_motion_push_bone(s))) {
        pk_motion_free(s);
        return NULL;
    }
    return s;
}

void pki_rb_init(pki_rb *c, const pki_rb_env *env, const pk_track *t, bool morph)
{
    memset(c, 0, sizeof *c);
    c->env = env;
    c->t = t;
    c->morph = morph;
    c->pose.rot[3] = 1.0f;
    c->pose_raw[3] = 1.0f;
    c->scratch_keys[0] = 0;
    c->scratch_keys[1] = 1;
    c->scratch_t.keys = c->scratch_keys;
    c->scratch_t.count = 2;
}

void pki_rb_set_bone_pose(pki_rb *c, const float pos[3], const float rot[4])
{
    memcpy(c->pose.pos, pos, sizeof c->pose.pos);
    memcpy(c->pose_raw, rot, sizeof c->pose_raw);
    pk_quat_normalize(c->pose_raw, c->pose.rot);
}

void pki_rb_set_morph_pose(pki_rb *c, float w)
{
    c->pose.w = w;
}

static pki_rb_key *push(pki_rb *c, uint32_t frame)
{
    pki_rb_list *l = &c->out;
    pki_rb_key *k = pki_grow_push(&l->v, &l->n, &l->cap, sizeof *l->v);
    if (!k) {
        c->oom = true;
        return NULL;
    }
    memset(k, 0, sizeof *k);
    k->frame = frame;
    set_curves(k->cp, LINEAR_CP);
    return k;
}

/* An original key: the base's record at frame f stays. */
static void push_orig(pki_rb *c, uint32_t f)
{
    pki_rb_key *k = push(c, f);
    if (k)
        k->orig = true;
}

static size_t nkeys(const pki_rb *c)
{
    return c->t ? c->t->count : 0;
}

static const pk_bone_key *bkey(const pki_rb *c, size_t i)
{
    return &c->env->m->bones[c->t->keys[i]];
}

static uint32_t key_frame(const pki_rb *c, size_t i)
{
    return c->morph ? c->env->m->morphs[c->t->keys[i]].frame : bkey(c, i)->frame;
}

/* The value stored in base key i. */
static void key_val(const pki_rb *c, size_t i, pki_rb_val *v)
{
    memset(v, 0, sizeof *v);
    if (c->morph) {
        v->w = c->env->m->morphs[c->t->keys[i]].weight;
        return;
    }
    const pk_bone_key *k = bkey(c, i);
    memcpy(v->pos, k->pos, sizeof v->pos);
    memcpy(v->rot, k->rot, sizeof v->rot);
}

/* Base value at a frame (the sampler's result; a rotation normalised). */
static void base_at(const pki_rb *c, double f, pki_rb_val *v)
{
    memset(v, 0, sizeof *v);
    if (c->morph)
        v->w = pk_sample_morph(c->env->m, c->t, f);
    else
        pk_sample_bone(c->env->m, c->t, f, v->pos, v->rot);
}

/* The overlay's value over a base value: replace = the pose, add =
 * base x pose and base + pose (morphs: base + pose). */
static void compose(const pki_rb *c, const pki_rb_val *b, pki_rb_val *out)
{
    memset(out, 0, sizeof *out);
    if (c->morph) {
        out->w = c->env->opt->mode == PK_OVERLAY_REPLACE ? c->pose.w : b->w + c->pose.w;
        return;
    }
    if (c->env->opt->mode == PK_OVERLAY_REPLACE) {
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
static void target_at(const pki_rb *c, double f, bool inside, pki_rb_val *v)
{
    pki_rb_val b;
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
static bool piece_check_tol(pki_rb *c, uint32_t u, const pki_rb_val *start, const pki_rb_key *end,
                            bool inside, double tol_deg, double tol_pos)
{
    pk_motion *s = c->env->scratch;
    pk_bone_key *k0 = &s->bones[0], *k1 = &s->bones[1];
    k0->frame = u;
    memcpy(k0->pos, start->pos, sizeof k0->pos);
    memcpy(k0->rot, start->rot, sizeof k0->rot);
    k1->frame = end->frame;
    memcpy(k1->pos, end->v.pos, sizeof k1->pos);
    memcpy(k1->rot, end->v.rot, sizeof k1->rot);
    pk_interp_set(k1->interp, (const uint8_t(*)[4])end->cp, end->physics_off);
    for (uint32_t f = u + 1; f < end->frame; f++) {
        pki_rb_val got, want;
        pk_sample_bone(s, &c->scratch_t, f, got.pos, got.rot);
        target_at(c, f, inside, &want);
        if (pk_quat_angle_deg(got.rot, want.rot) > tol_deg)
            return false;
        for (int a = 0; a < 3; a++)
            if (fabs((double)got.pos[a] - want.pos[a]) > tol_pos)
                return false;
    }
    return true;
}

static bool piece_check(pki_rb *c, uint32_t u, const pki_rb_val *start, const pki_rb_key *end,
                        bool inside)
{
    return piece_check_tol(c, u, start, end, inside, PK_OVERLAY_TOL_DEG, PK_OVERLAY_TOL_POS);
}

/* ---- fitting a bone piece that does not split exactly ----
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
 * whole run: the full search spends ~20 ms on each segment that no curve
 * fits, and the binary search for the farthest end tries many of those
 * (the demo job: 2.4 s with the full search, 0.05 s with the fast one, 326
 * bone keys where the full search finds 318). */

typedef struct fitbuf {
    pki_rb_val *v;          /* targets at u .. v */
    float *ch;              /* one channel of a segment */
    float (*q)[4];          /* rotations of a segment */
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
static bool seg_holds(pki_rb *c, const fitbuf *fb, uint32_t u, size_t a, size_t b, bool inside,
                      bool physics_off, pki_rb_key *end)
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
static bool fit_piece(pki_rb *c, const pk_bone_key *k1, uint32_t u, const pki_rb_val *start,
                      uint32_t v, const pki_rb_val *end_val, bool end_orig, bool inside,
                      bool physics_off)
{
    size_t n = v - u;
    fitbuf fb;
    fb.v = malloc((n + 1) * sizeof *fb.v);
    fb.ch = malloc((n + 1) * sizeof *fb.ch);
    fb.q = malloc((n + 1) * sizeof *fb.q);
    fb.cache = c->env->cache;
    bool ok = fb.v && fb.ch && fb.q;
    if (ok) {
        fb.v[0] = *start;
        for (size_t i = 1; i < n; i++)
            target_at(c, (double)u + (double)i, inside, &fb.v[i]);
        fb.v[n] = *end_val;
    }
    size_t a = 0, keys = 0;
    while (ok && a < n) {
        pki_rb_key end, best;
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
        pki_rb_key *k = push(c, best.frame);
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
        c->env->st->fitted++;
        c->env->st->fitted_keys += keys - 1;
    }
    return ok;
}

/* The piece [u, v] of base segment (keys i-1, i): emits the keys that make
 * frames u+1 .. v reproduce the target.  `start` is the value stored at u.
 * `end_orig`: v is the base key i itself (kept byte-identical when the
 * piece is baked).  Otherwise the key at v gets value `end_val`.  A morph
 * segment is linear: the key at v alone reproduces it. */
static void piece(pki_rb *c, size_t i, uint32_t u, const pki_rb_val *start, uint32_t v,
                  const pki_rb_val *end_val, bool end_orig, bool inside)
{
    if (c->morph) {
        pki_rb_key *k = push(c, v);
        if (k && end_orig)
            k->orig = true;
        else if (k)
            k->v = *end_val;
        return;
    }
    const pk_bone_key *k1 = bkey(c, i);
    double f0 = bkey(c, i - 1)->frame, f1 = k1->frame;
    if (v - u > PKI_RB_PIECE_MAX) {
        c->too_long = true;
        return;
    }
    pk_overlay_stats *st = c->env->st;
    bool physics_off = physics_off_of(k1->interp);
    pki_rb_key end;
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
        st->split++;
        if (trivial)
            st->split_exact++;
        /* An original end key whose curve is unchanged stays original. */
        if (end_orig) {
            uint8_t now[4][4];
            for (int a = 0; a < 4; a++)
                pk_interp_curve(k1->interp, a, now[a]);
            if (memcmp(now, end.cp, sizeof now) == 0 || v - u < 2) {
                push_orig(c, v);
                return;
            }
        }
        pki_rb_key *k = push(c, v);
        if (k)
            *k = end;
        return;
    }
    if (c->env->fit) {
        size_t mark = c->out.n;
        if (fit_piece(c, k1, u, start, v, end_val, end_orig, inside, physics_off))
            return;
        c->out.n = mark;
        if (c->oom)
            return;
    }
    /* Bake: one key per frame, each segment one frame long. */
    st->baked++;
    for (uint32_t f = u + 1; f < v; f++) {
        pki_rb_key *k = push(c, f);
        if (!k)
            return;
        target_at(c, f, inside, &k->v);
        k->physics_off = physics_off;
        st->baked_keys++;
    }
    pki_rb_key *k = push(c, v);
    if (!k)
        return;
    if (end_orig) {
        k->orig = true;
    } else {
        k->v = *end_val;
        k->physics_off = physics_off;
    }
}

/* ---- the track ---- */

/* Index of the base key at frame f, or of the last key before it (*at
 * tells which); SIZE_MAX when every key is after f. */
static size_t find_le(const pki_rb *c, uint32_t f, bool *at)
{
    size_t lo = 0, hi = nkeys(c); /* first key with frame > f */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_frame(c, mid) <= f)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo > 0 && key_frame(c, lo - 1) == f;
    return lo == 0 ? SIZE_MAX : lo - 1;
}

/* A new key at frame f carrying base key i's value and curves: what the
 * base key becomes inside an add window, or in a splice's source. */
static void push_like(pki_rb *c, const pk_motion *m, const pk_track *t, size_t i, uint32_t frame,
                      const pki_rb_val *v)
{
    pki_rb_key *k = push(c, frame);
    if (!k)
        return;
    k->v = *v;
    if (c->morph)
        return;
    const pk_bone_key *bk = &m->bones[t->keys[i]];
    for (int ax = 0; ax < 4; ax++)
        pk_interp_curve(bk->interp, ax, k->cp[ax]);
    k->physics_off = physics_off_of(bk->interp);
}

/* Emits the key at an outer edge e (E0 or E1) carrying the base value.
 * For E0 the piece before it is split; at E1 the key ends the fade-out
 * (curve PK_FADE_CURVE when `fade`, else linear). */
static void edge_key(pki_rb *c, uint32_t e, bool left, bool fade)
{
    bool at;
    size_t j = find_le(c, e, &at);
    size_t n = nkeys(c);
    if (at) {
        if (left || !fade || c->morph) {
            push_orig(c, e);
        } else { /* a base key at E1 keeps its value but ends the fade */
            pki_rb_key *k = push(c, e);
            if (k) {
                key_val(c, j, &k->v);
                set_curves(k->cp, FADE_CP);
            }
        }
        return;
    }
    pki_rb_val v;
    if (n == 0) {
        base_at(c, e, &v);
    } else if (j == SIZE_MAX) {
        key_val(c, 0, &v); /* held first value, exactly as stored */
    } else if (j + 1 == n) {
        key_val(c, n - 1, &v);
    } else {
        base_at(c, e, &v);
        if (left) {
            pki_rb_val start;
            key_val(c, j, &start);
            piece(c, j + 1, key_frame(c, j), &start, e, &v, false, false);
            return;
        }
    }
    pki_rb_key *k = push(c, e);
    if (k) {
        k->v = v;
        set_curves(k->cp, !left && fade ? FADE_CP : LINEAR_CP);
    }
}

/* Keys of the base after E1: the first one re-curved (or the piece baked),
 * the rest original. */
static void after_edge(pki_rb *c, uint32_t e1, const pki_rb_val *at_e1)
{
    bool at;
    size_t j = find_le(c, e1, &at);
    size_t n = nkeys(c), first = j == SIZE_MAX ? 0 : j + 1;
    for (size_t i = first; i < n; i++) {
        if (i == first && !at && j != SIZE_MAX) {
            pki_rb_val end;
            key_val(c, i, &end);
            piece(c, i, e1, at_e1, key_frame(c, i), &end, true, false);
            continue;
        }
        push_orig(c, key_frame(c, i));
    }
}

/* Add mode: the keys from A to B (A's key already emitted). */
static void add_inside(pki_rb *c, uint32_t a, uint32_t b, const pki_rb_val *at_a)
{
    size_t n = nkeys(c);
    bool at;
    size_t j = find_le(c, a, &at);
    size_t i = j == SIZE_MAX ? 0 : j + 1; /* first key > A */
    uint32_t prev_f = a;
    pki_rb_val prev = *at_a;
    for (; i < n && key_frame(c, i) <= b; i++) {
        uint32_t f = key_frame(c, i);
        pki_rb_val bv, ov;
        if (c->morph)
            base_at(c, f, &bv);
        else
            key_val(c, i, &bv);
        compose(c, &bv, &ov);
        if (prev_f == a && !at && i > 0)
            /* The segment crossing A: its right piece, composed. */
            piece(c, i, a, &prev, f, &ov, false, true);
        else
            push_like(c, c->env->m, c->t, i, f, &ov);
        if (c->oom)
            return;
        prev_f = f;
        prev = ov;
    }
    if (prev_f == b)
        return;
    pki_rb_val bb, ob;
    base_at(c, b, &bb);
    compose(c, &bb, &ob);
    if (i < n && i > 0) { /* B inside segment (i-1, i): the piece [prev, B] */
        piece(c, i, prev_f, &prev, b, &ob, false, true);
        return;
    }
    pki_rb_key *k = push(c, b); /* before the first or after the last key: constant */
    if (k)
        k->v = ob;
}

/* The value stored in key i of the splice source's track. */
static void src_val(const pki_rb *c, size_t i, pki_rb_val *v)
{
    memset(v, 0, sizeof *v);
    uint32_t r = c->src_t->keys[i];
    if (c->morph) {
        v->w = c->src->morphs[r].weight;
        return;
    }
    memcpy(v->pos, c->src->bones[r].pos, sizeof v->pos);
    memcpy(v->rot, c->src->bones[r].rot, sizeof v->rot);
}

/* Splice: src's keys over [A, B], held to A before its first key and to B
 * after its last (src samples as a held value there). */
static void splice_inside(pki_rb *c, uint32_t a, uint32_t b)
{
    const pk_track *t = c->src_t;
    for (size_t i = 0; i < t->count; i++) {
        uint32_t f = c->morph ? c->src->morphs[t->keys[i]].frame : c->src->bones[t->keys[i]].frame;
        pki_rb_val v;
        src_val(c, i, &v);
        if (i == 0 && f > a) {
            pki_rb_key *k = push(c, a);
            if (!k)
                return;
            k->v = v;
        }
        push_like(c, c->src, t, i, f, &v);
        if (i + 1 == t->count && f < b) {
            pki_rb_key *kb = push(c, b);
            if (!kb)
                return;
            kb->v = v;
        }
        if (c->oom)
            return;
    }
}

void pki_rb_range(pki_rb *c)
{
    const pk_overlay_options *o = c->env->opt;
    uint32_t a = o->first, b = o->last, f = o->fade;
    uint32_t gap = f ? f : 1;
    bool has_left = a > 0;
    uint32_t e0 = a >= gap ? a - gap : 0;
    uint32_t e1 = b + gap;
    const uint8_t *fade_cp = f ? FADE_CP : LINEAR_CP;
    size_t n = nkeys(c);

    if (has_left) {
        for (size_t i = 0; i < n && key_frame(c, i) < e0; i++)
            push_orig(c, key_frame(c, i));
        edge_key(c, e0, true, false);
    }
    if (c->src_t) {
        splice_inside(c, a, b);
    } else {
        pki_rb_val ba, oa;
        base_at(c, a, &ba);
        compose(c, &ba, &oa);
        pki_rb_key *ka = push(c, a);
        if (!ka)
            return;
        ka->v = oa;
        set_curves(ka->cp, has_left ? fade_cp : LINEAR_CP);
        if (o->mode == PK_OVERLAY_REPLACE) {
            if (b > a) {
                pki_rb_key *kb = push(c, b);
                if (kb)
                    kb->v = oa;
            }
        } else {
            add_inside(c, a, b, &oa);
        }
    }
    edge_key(c, e1, false, f > 0);
    pki_rb_val at_e1;
    base_at(c, e1, &at_e1);
    if (c->out.n && !c->out.v[c->out.n - 1].orig)
        at_e1 = c->out.v[c->out.n - 1].v;
    after_edge(c, e1, &at_e1);
}

void pki_rb_all(pki_rb *c)
{
    size_t n = nkeys(c);
    if (c->env->opt->mode == PK_OVERLAY_REPLACE || n == 0) {
        pki_rb_val r, o;
        base_at(c, 0, &r);
        compose(c, &r, &o);
        pki_rb_key *k = push(c, 0);
        if (k)
            k->v = o;
        return;
    }
    for (size_t i = 0; i < n && !c->oom; i++) {
        uint32_t f = key_frame(c, i);
        pki_rb_val bv, ov;
        if (c->morph)
            base_at(c, f, &bv);
        else
            key_val(c, i, &bv);
        compose(c, &bv, &ov);
        push_like(c, c->env->m, c->t, i, f, &ov);
    }
}

void pki_rb_cut(pki_rb *c, uint32_t cut)
{
    edge_key(c, cut, false, false);
    pki_rb_val at;
    memset(&at, 0, sizeof at); /* unused when the cut is a key of the base */
    if (c->out.n && !c->out.v[0].orig)
        at = c->out.v[0].v;
    after_edge(c, cut, &at);
}

void pki_rb_trim(pki_rb *c, uint32_t a, uint32_t b)
{
    edge_key(c, a, false, false);
    if (c->oom || c->out.n == 0)
        return;
    bool at;
    size_t j = find_le(c, a, &at);
    size_t n = nkeys(c), first = j == SIZE_MAX ? 0 : j + 1;
    uint32_t prev_f = a;
    pki_rb_val prev = c->out.v[0].v;
    if (c->out.v[0].orig)
        key_val(c, j, &prev);
    size_t i = first;
    for (; i < n && key_frame(c, i) <= b && !c->oom; i++) {
        uint32_t f = key_frame(c, i);
        pki_rb_val v;
        key_val(c, i, &v);
        if (i == first && !at && j != SIZE_MAX)
            piece(c, i, a, &prev, f, &v, true, false);
        else
            push_orig(c, f);
        prev_f = f;
        prev = v;
    }
    if (prev_f == b || i >= n || i == 0 || c->oom)
        return; /* b is a key, or the track holds its last (first) value there */
    pki_rb_val vb;
    base_at(c, b, &vb);
    piece(c, i, prev_f, &prev, b, &vb, false, false);
}

/* ---- did anything change? ---- */

/* A motion holding the rebuilt track's keys (originals copied from the
 * base) as track *t (idx: its key indices, owned by the caller). */
static pk_motion *rebuilt_motion(const pki_rb *c, pk_track *t, uint32_t **idx)
{
    const pki_rb_list *l = &c->out;
    pk_motion *m = pk_motion_new();
    *idx = malloc((l->n ? l->n : 1) * sizeof **idx);
    if (!m || !*idx) {
        pk_motion_free(m);
        free(*idx);
        *idx = NULL;
        return NULL;
    }
    size_t ki = 0;
    for (size_t j = 0; j < l->n; j++) {
        const pki_rb_key *nk = &l->v[j];
        while (ki < nkeys(c) && key_frame(c, ki) < nk->frame)
            ki++;
        bool ok;
        if (c->morph) {
            pk_morph_key *k = pk_motion_push_morph(m);
            if ((ok = k != NULL)) {
                if (nk->orig) {
                    *k = c->env->m->morphs[c->t->keys[ki]];
                } else {
                    k->frame = nk->frame;
                    k->weight = nk->v.w;
                }
            }
        } else {
            pk_bone_key *k = pk_motion_push_bone(m);
            if ((ok = k != NULL)) {
                if (nk->orig) {
                    *k = *bkey(c, ki);
                } else {
                    k->frame = nk->frame;
                    memcpy(k->pos, nk->v.pos, sizeof k->pos);
                    memcpy(k->rot, nk->v.rot, sizeof k->rot);
                    pk_interp_set(k->interp, (const uint8_t(*)[4])nk->cp, nk->physics_off);
                }
            }
        }
        if (!ok) {
            pk_motion_free(m);
            free(*idx);
            *idx = NULL;
            return NULL;
        }
        (*idx)[j] = (uint32_t)j;
    }
    t->name = 0;
    t->keys = *idx;
    t->count = l->n;
    return m;
}

/* Is frame f a frame where the lists differ: a new key, or a base key the
 * list does not keep? */
static bool differs_at(const pki_rb *c, uint32_t f, size_t *li, size_t *bi)
{
    const pki_rb_list *l = &c->out;
    while (*li < l->n && l->v[*li].frame < f)
        (*li)++;
    while (*bi < nkeys(c) && key_frame(c, *bi) < f)
        (*bi)++;
    bool in_list = *li < l->n && l->v[*li].frame == f;
    bool in_base = *bi < nkeys(c) && key_frame(c, *bi) == f;
    if (in_list)
        return !l->v[*li].orig;
    return in_base;
}

/* The frames [lo, hi] outside which the two tracks have the same keys
 * and segments; false when they have the same keys everywhere. */
static bool changed_window(const pki_rb *c, uint32_t *lo, uint32_t *hi)
{
    const pki_rb_list *l = &c->out;
    size_t n = nkeys(c);
    /* every frame that is a key of either, in order */
    size_t li = 0, bi = 0, dl = 0, db = 0;
    bool any = false;
    uint32_t first = 0, last = 0;
    while (li < l->n || bi < n) {
        uint32_t fl = li < l->n ? l->v[li].frame : UINT32_MAX;
        uint32_t fb = bi < n ? key_frame(c, bi) : UINT32_MAX;
        uint32_t f = fl < fb ? fl : fb;
        if (differs_at(c, f, &dl, &db)) {
            if (!any)
                first = f;
            last = f;
            any = true;
        }
        while (li < l->n && l->v[li].frame == f)
            li++;
        while (bi < n && key_frame(c, bi) == f)
            bi++;
    }
    if (!any)
        return false;
    /* from the last common key before the first difference (frame 0 when
     * none: the holds before the first keys may differ) to the first
     * common key after the last one (the last difference when none: both
     * hold their last keys after it) */
    *lo = 0;
    for (size_t i = 0; i < l->n && l->v[i].frame < first; i++)
        if (l->v[i].orig)
            *lo = l->v[i].frame;
    *hi = last;
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].orig && l->v[i].frame > last) {
            *hi = l->v[i].frame;
            break;
        }
    return true;
}

bool pki_rb_unchanged(const pki_rb *c, bool *ok)
{
    *ok = true;
    uint32_t lo, hi;
    if (!changed_window(c, &lo, &hi))
        return true;
    pk_track t;
    uint32_t *idx;
    pk_motion *m = rebuilt_motion(c, &t, &idx);
    if (!m) {
        *ok = false;
        return false;
    }
    pk_cursor a, b;
    pk_cursor_init(&a, c->env->m, c->t);
    pk_cursor_init(&b, m, &t);
    bool same = true;
    for (uint64_t f = lo; f <= hi && same; f++) {
        if (c->morph) {
            same = fabs((double)pk_cursor_morph(&a, (double)f) - pk_cursor_morph(&b, (double)f)) <=
                   MORPH_SAME;
            continue;
        }
        float pa[3], ra[4], pb[3], rb[4];
        pk_cursor_bone(&a, (double)f, pa, ra);
        pk_cursor_bone(&b, (double)f, pb, rb);
        same = pk_quat_angle_deg(ra, rb) <= PK_OVERLAY_TOL_DEG;
        for (int x = 0; x < 3 && same; x++)
            same = fabs((double)pa[x] - pb[x]) <= PK_OVERLAY_TOL_POS;
    }
    pk_motion_free(m);
    free(idx);
    return same;
}

/* ---- applying the plans ---- */

void pki_rb_plans_free(pki_rb_plan *p, size_t n)
{
    if (!p)
        return;
    for (size_t i = 0; i < n; i++)
        free(p[i].keys.v);
    free(p);
}

static bool frame_is_orig(const pki_rb_list *l, uint32_t f)
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

/* Which plan each name of the output motion has: slot[name] = plan index,
 * or -1.  malloc'd (caller frees); NULL on OOM. */
static long *plan_slots(size_t nn, const pki_rb_plan *plans, size_t np)
{
    long *slot = malloc((nn ? nn : 1) * sizeof *slot);
    if (!slot)
        return NULL;
    for (size_t i = 0; i < nn; i++)
        slot[i] = -1;
    for (size_t p = 0; p < np; p++)
        if (plans[p].name < nn)
            slot[plans[p].name] = (long)p;
    return slot;
}

/* Keeps, in order, the records of one section that are not planned keys to
 * drop (name and frame at the given offsets in records of `size` bytes);
 * returns how many are kept. */
static size_t keep_unplanned(uint8_t *base, size_t n, size_t size, size_t name_off,
                             size_t frame_off, const long *slot, size_t nn,
                             const pki_rb_plan *plans, size_t *removed)
{
    size_t w = 0;
    for (size_t r = 0; r < n; r++) {
        uint8_t *rec = base + r * size;
        pk_name_id name;
        uint32_t frame;
        memcpy(&name, rec + name_off, sizeof name);
        memcpy(&frame, rec + frame_off, sizeof frame);
        long p = name < nn ? slot[name] : -1;
        if (p >= 0 && !frame_is_orig(&plans[p].keys, frame)) {
            (*removed)++;
            continue;
        }
        if (w != r)
            memcpy(base + w * size, rec, size);
        w++;
    }
    return w;
}

int pki_rb_apply(pk_motion *out, const pki_rb_plan *plans, size_t np, bool morphs,
                 pk_overlay_stats *st)
{
    size_t nn = pk_names_count(out->names);
    long *slot = plan_slots(nn, plans, np);
    if (!slot)
        return -1;
    if (morphs)
        out->nmorphs = keep_unplanned((uint8_t *)out->morphs, out->nmorphs, sizeof *out->morphs,
                                      offsetof(pk_morph_key, name), offsetof(pk_morph_key, frame),
                                      slot, nn, plans, &st->keys_removed);
    else
        out->nbones = keep_unplanned((uint8_t *)out->bones, out->nbones, sizeof *out->bones,
                                     offsetof(pk_bone_key, name), offsetof(pk_bone_key, frame),
                                     slot, nn, plans, &st->keys_removed);
    free(slot);
    for (size_t p = 0; p < np; p++) {
        for (size_t i = 0; i < plans[p].keys.n; i++) {
            const pki_rb_key *nk = &plans[p].keys.v[i];
            if (nk->orig)
                continue;
            if (morphs) {
                pk_morph_key *k = pk_motion_push_morph(out);
                if (!k)
                    return -1;
                k->name = plans[p].name;
                k->frame = nk->frame;
                k->weight = nk->v.w;
            } else {
                pk_bone_key *k = pk_motion_push_bone(out);
                if (!k)
                    return -1;
                k->name = plans[p].name;
                k->frame = nk->frame;
                memcpy(k->pos, nk->v.pos, sizeof k->pos);
                memcpy(k->rot, nk->v.rot, sizeof k->rot);
                pk_interp_set(k->interp, (const uint8_t(*)[4])nk->cp, nk->physics_off);
            }
            st->keys_added++;
        }
    }
    return 0;
}
