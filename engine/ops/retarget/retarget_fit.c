/*
 * retarget_fit.c — a track given at every integer frame turned into the
 * fewest keys the keyframe reducer's fitter (engine/math/curve.h) finds
 * within tolerances (retarget.h, pki_fit_track).  Used by the fold
 * (retarget_fold.c) and by the sizing steps (sizing.c).  Each channel is
 * fitted at the DIRECT effort: no descent, every grid y of seven x-byte
 * pairs within the tolerance (short pieces, most of which fit: about a
 * third of FAST's instructions a fit).
 *
 * Greedy: from each key, the farthest candidate frame (the frames the
 * track's inputs key) whose piece one curve per channel fits; when not
 * even the next candidate fits, the farthest frame before it that does.
 * Then the sampler checks every frame; a piece it finds out of tolerance
 * (the fitter's float margins are estimates) gets a key at every frame.
 * A probe is first refused by products alone where the fitter would
 * refuse it (a sample off the rotation's arc, a translation axis that
 * turns back or leaves its range by more than the tolerance): most
 * refused probes end there, before any fit.
 */
#include "math/curve.h"
#include "ops/retarget/retarget.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fitter {
    const float (*pos)[3]; /* samples from frame f0 */
    const float (*rot)[4];
    uint32_t f0;
    float *scratch;   /* n+1 floats */
    double *progress; /* n doubles */
    pki_curve_cache *cache;
    double tol_deg, tol_pos; /* the fit's: a little inside the promise */
} fitter;

/* Whether translation axis `axis` of samples p[0..n] leaves the range of
 * its end values by more than tol or turns back by more than twice tol:
 * then no curve fits it (progress never leaves [0, 1] nor decreases), the
 * fitter refuses it, and no curve of another channel fits it either.
 * Slightly wider than the fitter's own test (the margins of its float
 * arithmetic), so that it never refuses what the fitter takes. */
static bool turns_back(const float (*p)[3], int axis, size_t n, double tol)
{
    double v0 = p[0][axis], vn = p[n][axis];
    tol = tol * (1.0 + 1e-6) + 1e-6 * fabs(vn - v0);
    double dir = vn >= v0 ? 1.0 : -1.0, lo = fmin(v0, vn) - tol, hi = fmax(v0, vn) + tol;
    double run = dir * v0;
    for (size_t i = 1; i < n; i++) {
        double x = p[i][axis];
        if (x < lo || x > hi)
            return true;
        double d = dir * x;
        if (d < run - 2.0 * tol)
            return true;
        if (d > run)
            run = d;
    }
    return false;
}

/* Whether curve cp (from another channel of the piece) already fits the
 * scalar samples v[0..n] within tol: progress (v_i - v_0) / (v_n - v_0)
 * at s = i/n, errors in value units.  Saves a fit: the channels of one
 * folded bone move together (a translation follows Q). */
static bool reuse_fits(const float *v, size_t n, const uint8_t cp[4], double tol, double *p)
{
    double span = (double)v[n] - v[0];
    if (span == 0.0)
        return false;
    for (size_t i = 1; i < n; i++)
        p[i - 1] = ((double)v[i] - v[0]) / span;
    return pki_curve_error(cp, p, n - 1, fabs(span)) <= 0.9 * tol;
}

/* The piece of frames [a, b]: one curve per channel within tolerance, or
 * false.  The rotation first; each translation axis then tries the curves
 * found so far before a fit of its own, each within its share of the
 * distance (tol_pos / sqrt(axes that move)). */
static bool fit_piece(const fitter *ft, uint32_t a, uint32_t b, uint8_t cp[4][4])
{
    size_t n = b - a;
    for (int c = 0; c < 4; c++)
        memcpy(cp[c], pki_curve_linear, 4);
    if (n < 2)
        return true;
    const float(*q)[4] = &ft->rot[a - ft->f0];
    const float(*pos)[3] = &ft->pos[a - ft->f0];
    bool flat = true;
    for (size_t i = 1; i <= n && flat; i++)
        flat = memcmp(q[i], q[0], sizeof q[0]) == 0;
    int moving = 0;
    bool moves[3];
    for (int axis = 0; axis < 3; axis++) {
        moves[axis] = false;
        for (size_t i = 1; i <= n && !moves[axis]; i++)
            moves[axis] = pos[i][axis] != pos[0][axis];
        moving += moves[axis];
    }
    double tol = moving ? ft->tol_pos / sqrt((double)moving) : ft->tol_pos;
    /* the refusals by products first, every channel before any fit */
    if (!flat && pki_curve_off_arc(q, n, ft->tol_deg))
        return false;
    for (int axis = 0; axis < 3; axis++)
        if (moves[axis] && turns_back(pos, axis, n, tol))
            return false;
    if (!flat &&
        pki_curve_fit_rot_ex(q, n, ft->tol_deg, PKI_FIT_DIRECT, ft->cache, cp[3], NULL) != 1)
        return false;
    float *v = ft->scratch;
    double *p = ft->progress;
    int ncand = flat ? 0 : 1;
    const uint8_t *cand[4] = {cp[3], NULL, NULL, NULL};
    for (int axis = 0; axis < 3; axis++) {
        if (!moves[axis])
            continue;
        for (size_t i = 0; i <= n; i++)
            v[i] = pos[i][axis];
        bool done = false;
        for (int c = 0; c < ncand && !done; c++)
            if (reuse_fits(v, n, cand[c], tol, p)) {
                memcpy(cp[axis], cand[c], 4);
                done = true;
            }
        if (!done &&
            pki_curve_fit_scalar_ex(v, n, tol, PKI_FIT_DIRECT, ft->cache, cp[axis], NULL) != 1)
            return false;
        cand[ncand++] = cp[axis];
    }
    return true;
}

/* Whether the piece [a, b] fits; its curves into best when it does. */
static bool fits_into(const fitter *ft, uint32_t a, uint32_t b, uint8_t best[4][4])
{
    uint8_t cp[4][4];
    if (!fit_piece(ft, a, b, cp))
        return false;
    memcpy(best, cp, sizeof cp);
    return true;
}

/* The farthest of cand[lo..hi] (frames, ascending) whose piece from frame
 * a fits, or -1; its curves into best.  Exponential then binary search
 * (fits are not monotonic in the end frame; a near miss only costs a
 * key). */
static long farthest(const fitter *ft, uint32_t a, const uint32_t *cand, long lo, long hi,
                     uint8_t best[4][4])
{
    long good = -1, bad = hi + 1, step = 1;
    while (lo + step - 1 <= hi) {
        long j = lo + step - 1;
        if (!fits_into(ft, a, cand[j], best)) {
            bad = j;
            break;
        }
        good = j;
        step *= 2;
    }
    if (good < 0 && bad == lo)
        return -1;
    if (bad > hi && good < hi) { /* ran past the end: try the last */
        if (fits_into(ft, a, cand[hi], best))
            return hi;
        bad = hi;
    }
    uint8_t cp[4][4];
    while (bad - good > 1) {
        long mid = good + (bad - good) / 2;
        if (fits_into(ft, a, cand[mid], cp)) {
            good = mid;
            memcpy(best, cp, sizeof cp);
        } else {
            bad = mid;
        }
    }
    return good;
}

/* The key frames of samples f0..f1 (union frames fr[0..nf), fr[0] = f0,
 * fr[nf-1] = f1) into out[] and the curves of the piece ending at each
 * into cps[] (count returned; both have room for f1-f0+1). */
static size_t plan_keys(const fitter *ft, const uint32_t *fr, size_t nf, uint32_t *out,
                        uint8_t (*cps)[4][4], uint32_t *every)
{
    size_t n = 0;
    for (int c = 0; c < 4; c++)
        memcpy(cps[n][c], pki_curve_linear, 4);
    out[n++] = fr[0];
    size_t u = 1; /* the next union frame after the current key */
    while (u < nf) {
        uint32_t a = out[n - 1];
        for (int c = 0; c < 4; c++) /* a one-frame piece needs no curve */
            memcpy(cps[n][c], pki_curve_linear, 4);
        long j = farthest(ft, a, fr, (long)u, (long)nf - 1, cps[n]);
        if (j >= 0) {
            out[n++] = fr[j];
            u = (size_t)j + 1;
            continue;
        }
        /* not even fr[u]: the farthest frame before it (a + 1 always fits) */
        uint32_t span = fr[u] - a - 1;
        for (uint32_t i = 0; i < span; i++)
            every[i] = a + 1 + i;
        long e = span ? farthest(ft, a, every, 0, (long)span - 1, cps[n]) : -1;
        out[n++] = e >= 0 ? every[e] : a + 1;
    }
    return n;
}

/* The keys of frames key[0..nk) into a motion's records, each with the
 * curves cps[j] of the piece ending at it; bad[] (or NULL) marks pieces
 * that get a key at every frame (linear curves) instead. */
static bool emit_keys(const fitter *ft, pk_name_id name, const uint32_t *key,
                      const uint8_t (*cps)[4][4], size_t nk, const uint8_t *bad, pk_motion *out)
{
    static const uint8_t LINEAR[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    for (size_t j = 0; j < nk; j++) {
        uint32_t a = j ? key[j - 1] : key[0], b = key[j];
        bool dense = j && bad && bad[j];
        for (uint32_t f = dense ? a + 1 : b; f <= b; f++) {
            const uint8_t(*cp)[4] = dense ? LINEAR : cps[j];
            pk_bone_key *k = pk_motion_push_bone(out);
            if (!k)
                return false;
            k->name = name;
            k->frame = f;
            memcpy(k->pos, ft->pos[f - ft->f0], sizeof k->pos);
            memcpy(k->rot, ft->rot[f - ft->f0], sizeof k->rot);
            pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
        }
    }
    return true;
}

/* The records out->bones[from..] (one track, frame order) sampled at every
 * frame against the samples: the worst angle and distance into w, bad[j]
 * set for each piece j (ending at key[j]) with a frame out of tolerance.
 * Whether all hold. */
static bool check_keys(const fitter *ft, const pk_motion *out, size_t from, const uint32_t *key,
                       size_t nk, double tol_deg, double tol_pos, double w[2], uint8_t *bad)
{
    size_t n = out->nbones - from;
    uint32_t *idx = malloc((n + 1) * sizeof *idx);
    if (!idx)
        return true; /* unchecked: the fit's own margins stand */
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)(from + i);
    pk_track t = {out->bones[from].name, idx, n};
    pk_cursor c;
    pk_cursor_init(&c, out, &t);
    bool ok = true;
    size_t seg = 0;
    for (uint32_t f = key[0]; f <= key[nk - 1]; f++) {
        while (seg < nk && key[seg] < f)
            seg++;
        float p[3], r[4];
        pk_cursor_bone(&c, f, p, r);
        const float *sp = ft->pos[f - ft->f0], *sr = ft->rot[f - ft->f0];
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += ((double)p[k] - sp[k]) * ((double)p[k] - sp[k]);
        d = sqrt(d);
        double e = pk_quat_angle_deg(r, sr);
        w[0] = fmax(w[0], e);
        w[1] = fmax(w[1], d);
        if (e > tol_deg || d > tol_pos) {
            ok = false;
            if (seg < nk)
                bad[seg] = 1;
        }
        if (f == key[nk - 1])
            break;
    }
    free(idx);
    return ok;
}

int pki_fit_track(const float (*pos)[3], const float (*rot)[4], uint32_t f0, const uint32_t *fr,
                  size_t nf, pk_name_id name, double tol_deg, double tol_pos,
                  pki_curve_cache *cache, pk_motion *out, pki_fit_out *res)
{
    memset(res, 0, sizeof *res);
    if (!nf)
        return 0;
    size_t span = (size_t)(fr[nf - 1] - f0) + 1;
    float *scratch = malloc((span + 1) * sizeof *scratch);
    double *progress = malloc((span + 1) * sizeof *progress);
    uint32_t *key = malloc((span + 1) * sizeof *key);
    uint8_t(*cps)[4][4] = malloc((span + 1) * sizeof *cps);
    uint32_t *every = malloc((span + 1) * sizeof *every);
    uint8_t *bad = calloc(span + 1, 1);
    int rc = -1;
    if (!scratch || !progress || !key || !cps || !every || !bad)
        goto done;
    fitter ft = {pos, rot, f0, scratch, progress, cache, tol_deg * 0.999, tol_pos * 0.999};
    size_t nk = plan_keys(&ft, fr, nf, key, cps, every);
    size_t from = out->nbones;
    double w[2] = {0, 0};
    if (!emit_keys(&ft, name, key, (const uint8_t(*)[4][4])cps, nk, NULL, out))
        goto done;
    if (!check_keys(&ft, out, from, key, nk, tol_deg, tol_pos, w, bad)) {
        /* again, with a key at every frame of each piece that missed */
        out->nbones = from;
        w[0] = w[1] = 0;
        if (!emit_keys(&ft, name, key, (const uint8_t(*)[4][4])cps, nk, bad, out))
            goto done;
        for (size_t i = 0; i < nk; i++)
            res->refitted += bad[i];
        check_keys(&ft, out, from, key, nk, tol_deg, tol_pos, w, bad);
    }
    res->worst_deg = w[0];
    res->worst_pos = w[1];
    rc = 0;
done:
    free(scratch);
    free(progress);
    free(key);
    free(cps);
    free(every);
    free(bad);
    return rc;
}

/* A stretch whose keys, given the new values, stay this far inside the
 * tolerances keeps them. */
#define KEEP_TOL 0.9

/* ref[0..nref) with the samples' values at their frames (their curves
 * kept) into mv, and clean[r] per row f0 .. last: whether mv gives the
 * sample there within the tolerances (the worst of those rows into w).
 * False when ref is not in strictly ascending frames within the rows (or
 * on OOM). */
static bool clean_rows(const float (*pos)[3], const float (*rot)[4], uint32_t f0, uint32_t last,
                       const pk_bone_key *ref, size_t nref, double tol_deg, double tol_pos,
                       pk_bone_key *mv, uint8_t *clean, double w[2])
{
    for (size_t i = 0; i < nref; i++) {
        if (ref[i].frame < f0 || ref[i].frame > last || (i && ref[i].frame <= ref[i - 1].frame))
            return false;
        mv[i] = ref[i];
        memcpy(mv[i].pos, pos[ref[i].frame - f0], sizeof mv[i].pos);
        memcpy(mv[i].rot, rot[ref[i].frame - f0], sizeof mv[i].rot);
    }
    uint32_t *idx = malloc(nref * sizeof *idx);
    if (!idx)
        return false;
    for (size_t i = 0; i < nref; i++)
        idx[i] = (uint32_t)i;
    pk_motion m;
    memset(&m, 0, sizeof m);
    m.bones = mv;
    m.nbones = nref;
    pk_track t = {ref[0].name, idx, nref};
    pk_cursor c;
    pk_cursor_init(&c, &m, &t);
    for (uint32_t f = f0; f <= last; f++) {
        float p[3], r[4];
        pk_cursor_bone(&c, f, p, r);
        const float *sp = pos[f - f0], *sr = rot[f - f0];
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += ((double)p[k] - sp[k]) * ((double)p[k] - sp[k]);
        double e = pk_quat_angle_deg(r, sr);
        clean[f - f0] = d <= tol_pos * tol_pos && e <= tol_deg;
        if (clean[f - f0]) {
            w[0] = fmax(w[0], e);
            w[1] = fmax(w[1], sqrt(d));
        }
    }
    free(idx);
    return true;
}

/* The window [a, b] of the rows fitted (candidates fr[] inside it, a and b
 * the ends) and appended to out; its first record left out when `drop`
 * (a kept key stands there).  0, or -1 on OOM. */
static int fit_window(const float (*pos)[3], const float (*rot)[4], uint32_t f0, const uint32_t *fr,
                      size_t nf, uint32_t a, uint32_t b, bool drop, pk_name_id name, double tol_deg,
                      double tol_pos, pki_curve_cache *cache, pk_motion *out, uint32_t *wfr,
                      pki_fit_out *res)
{
    size_t k = 0;
    wfr[k++] = a;
    for (size_t i = 0; i < nf; i++)
        if (fr[i] > a && fr[i] < b)
            wfr[k++] = fr[i];
    wfr[k++] = b;
    size_t before = out->nbones;
    pki_fit_out fo;
    if (pki_fit_track(pos + (a - f0), rot + (a - f0), a, wfr, k, name, tol_deg, tol_pos, cache, out,
                      &fo) != 0)
        return -1;
    if (drop && out->nbones > before) {
        memmove(&out->bones[before], &out->bones[before + 1],
                (out->nbones - before - 1) * sizeof *out->bones);
        out->nbones--;
    }
    res->worst_deg = fmax(res->worst_deg, fo.worst_deg);
    res->worst_pos = fmax(res->worst_pos, fo.worst_pos);
    res->refitted += fo.refitted;
    return 0;
}

int pki_fit_track_keep(const float (*pos)[3], const float (*rot)[4], uint32_t f0,
                       const uint32_t *fr, size_t nf, const pk_bone_key *ref, size_t nref,
                       pk_name_id name, double tol_deg, double tol_pos, pki_curve_cache *cache,
                       pk_motion *out, pki_fit_out *res)
{
    memset(res, 0, sizeof *res);
    if (!nf)
        return 0;
    uint32_t last = fr[nf - 1];
    size_t rows = (size_t)(last - f0) + 1;
    uint8_t *clean = nref && rows > 2 ? malloc(rows) : NULL;
    uint32_t *bnd = clean ? malloc((nref + 2) * sizeof *bnd) : NULL;
    uint32_t *wfr = bnd ? malloc((nf + 2) * sizeof *wfr) : NULL;
    pk_bone_key *mv = wfr ? malloc(nref * sizeof *mv) : NULL;
    double kw[2] = {0, 0};
    int rc = -1;
    if (!mv || !clean_rows(pos, rot, f0, last, ref, nref, KEEP_TOL * tol_deg, KEEP_TOL * tol_pos,
                           mv, clean, kw))
        goto whole;
    /* the boundaries: the rows' ends and ref's frames; a stretch between
     * two is clean when every row of it (ends included) is */
    size_t nb = 0, ki = 0;
    if (ref[0].frame > f0)
        bnd[nb++] = f0;
    for (size_t i = 0; i < nref; i++)
        bnd[nb++] = ref[i].frame;
    if (bnd[nb - 1] < last)
        bnd[nb++] = last;
    for (size_t j = 0; j < nb; j++) {
        /* a ref key stands at bnd[j] when the stretch before it is clean
         * (or, at the first row, the stretch after it) */
        bool is_key = ki < nref && ref[ki].frame == bnd[j];
        bool before = j > 0, after = j + 1 < nb;
        bool seg_before = false, seg_after = false;
        if (before) {
            seg_before = true;
            for (uint32_t f = bnd[j - 1]; f <= bnd[j] && seg_before; f++)
                seg_before = clean[f - f0];
        }
        if (after) {
            seg_after = true;
            for (uint32_t f = bnd[j]; f <= bnd[j + 1] && seg_after; f++)
                seg_after = clean[f - f0];
        }
        if (is_key && (before ? seg_before : !after || seg_after)) {
            pk_bone_key *k = pk_motion_push_bone(out);
            if (!k)
                goto done;
            *k = mv[ki];
            k->name = name;
        }
        if (is_key)
            ki++;
        if (after && !seg_after) { /* a window: to the next clean stretch's start */
            size_t e = j + 1;
            while (e + 1 < nb) {
                bool c = true;
                for (uint32_t f = bnd[e]; f <= bnd[e + 1] && c; f++)
                    c = clean[f - f0];
                if (c)
                    break;
                e++;
            }
            bool drop = is_key && before && seg_before;
            if (fit_window(pos, rot, f0, fr, nf, bnd[j], bnd[e], drop, name, tol_deg, tol_pos,
                           cache, out, wfr, res) != 0)
                goto done;
            for (size_t x = j + 1; x < e; x++)
                if (ki < nref && ref[ki].frame == bnd[x])
                    ki++;
            /* bnd[e]: the window's last key stands there */
            if (ki < nref && ref[ki].frame == bnd[e])
                ki++;
            j = e - 1; /* next: bnd[e], the stretch after it clean */
        }
    }
    /* the kept stretches give the samples within the tolerances (the
     * keys that bound them are the samples, the window's last too), the
     * windows' fits are checked by pki_fit_track */
    res->worst_deg = fmax(res->worst_deg, kw[0]);
    res->worst_pos = fmax(res->worst_pos, kw[1]);
    rc = 0;
    goto done;
whole:
    rc = pki_fit_track(pos, rot, f0, fr, nf, name, tol_deg, tol_pos, cache, out, res);
done:
    free(clean);
    free(bnd);
    free(wfr);
    free(mv);
    return rc;
}
