/* reduce.c — keyframe reduction and baking of bone and morph tracks and
 * (with the `camera` option) the camera.
 *
 * Reduction, per selected track, over the keys inside the frame range
 * (the whole track by default):
 *
 *  1. The input is sampled at every integer frame from the range's first
 *     key to its last (pk_cursor: MMD's own values).
 *  2. Forced keys: the first and the last; both frames of every
 *     discontinuity (the input keys two adjacent frames and the step
 *     between them is more than ten tolerances and four times the steps
 *     on either side).
 *  3. Between forced keys, greedy: from each kept key the farthest end
 *     frame whose segment fits (all four channels of a bone at once: X, Y,
 *     Z each by pki_curve_fit_scalar but within max_pos as a distance
 *     together, rotation by pki_curve_fit_rot; a morph linearly), found by
 *     exponential then binary search over candidate end frames, then
 *     (fits are not monotonic in the end frame) every farther end before
 *     a forced key at most 64 frames on (the camera: any distance).  The
 *     candidate ends are the input's own key frames (every frame of a
 *     baked track): a segment between two adjacent input keys fits with
 *     its input curve, so the result never has more keys than the input.
 *     (Every integer frame as candidates too gave 0.05 % fewer keys on a
 *     keyed dance for four times the work.)  Bones and morphs probe with
 *     the fitter's QUICK effort, the camera with FAST.
 *  4. Verification: the result is sampled with the real sampler at every
 *     integer frame and compared with the input samples; a segment that
 *     misses (the fitter's float margins are estimates) is replaced by one
 *     key per frame, which reproduces the samples exactly.
 *  5. A track whose samples all stay within tolerance of its first key
 *     (whole-track reduction only) becomes that one key.
 *
 * The camera is one track of eight channels (centre X, Y, Z, three Euler
 * angles, distance, fov) under six curves: the angles share the rotation
 * curve (the one that moves most is fitted, the others must follow it),
 * the centre (as a distance) and the distance stay within max_pos, the
 * angles within max_deg, fov (whole degrees, rounded by the sampler) and
 * the perspective byte exactly; a key starts every perspective switch (a segment holds its
 * first key's perspective).
 *
 * Records: keys of unselected tracks, keys outside the range and every
 * other section stay byte-identical and in file order.  The first key of
 * the range keeps its record (its curve shapes the segment before the
 * range); a kept input key whose segment is unchanged also keeps it.  New
 * keys are appended after the other records of their section, track by
 * track, in frame order.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "posekit.h"
#include "math/bezier.h"
#include "math/curve.h"
#include "ops/sample/sample.h"
#include "util/fmath.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAD2DEG (180.0 / 3.14159265358979323846)

void pk_reduce_options_init(pk_reduce_options *o)
{
    memset(o, 0, sizeof *o);
    o->max_deg = PK_REDUCE_DEG;
    o->max_pos = PK_REDUCE_POS;
    o->max_morph = PK_REDUCE_MORPH;
    o->all_frames = true;
    o->morphs = true;
    o->step = 1;
}

/* Tracks whose sampled span exceeds this many frames are left alone. */
#define SPAN_MAX (1u << 22)

/* ---- plans: the new keys of one track ---- */

typedef struct rkey {
    uint32_t frame;
    bool orig;        /* keep the input record at this frame */
    float pos[3];     /* bones, camera centre */
    float rot[4];     /* bones; camera: rot[0..2] Euler angles */
    float w;          /* morphs; camera: distance */
    uint32_t fov;     /* camera */
    uint8_t persp;    /* camera */
    uint8_t cp[6][4]; /* curves of the segment ending here (bones: X, Y, Z, R;
                         camera: X, Y, Z, rotation, distance, fov), {x1, y1, x2, y2} */
    bool physics_off;
} rkey;

typedef struct rlist {
    rkey *v;
    size_t n, cap;
} rlist;

typedef struct plan {
    pk_name_id name;
    uint32_t lo, hi; /* the frames rewritten: records outside stay */
    rlist keys;
    bool changed; /* set by apply_*: a record of the track dropped or added */
    /* A baked bone or morph track (keys stays empty: a key a frame would
     * hold the output twice over): its keys are the frames lo, lo + step,
     * ... and hi; those in orig (sorted) keep their input records, the
     * others are sampled from `track` as they are appended. */
    const pk_track *track;
    uint32_t step;
    uint32_t *orig;
    size_t norig, cap_orig;
} plan;

typedef struct plans {
    plan *v;
    size_t n, cap;
} plans;

static rkey *rpush(rlist *l, uint32_t frame)
{
    rkey *k = pki_grow_push(&l->v, &l->n, &l->cap, sizeof *l->v);
    if (!k)
        return NULL;
    k->frame = frame;
    for (int a = 0; a < 6; a++)
        memcpy(k->cp[a], pki_curve_linear, 4);
    return k;
}

static plan *ppush(plans *p)
{
    return pki_grow_push(&p->v, &p->n, &p->cap, sizeof *p->v);
}

static void plan_free(plan *p)
{
    free(p->keys.v);
    free(p->orig);
}

static void plans_free(plans *p)
{
    for (size_t i = 0; i < p->n; i++)
        plan_free(&p->v[i]);
    free(p->v);
    memset(p, 0, sizeof *p);
}

/* Is frame f in the sorted list? */
static bool has_frame(const uint32_t *v, size_t n, uint32_t f)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == f;
}

static bool is_orig(const plan *p, uint32_t f)
{
    const rlist *l = &p->keys;
    if (f < p->lo || f > p->hi)
        return true;
    if (p->track)
        return has_frame(p->orig, p->norig, f);
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (l->v[mid].frame < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->v[lo].frame == f && l->v[lo].orig;
}

/* Replaces the records of the planned tracks: originals stay in place, the
 * rest of those tracks is dropped, new keys are appended. */
/* Keeps, in order, the n records (size bytes each, name and frame at the
 * given offsets) that are not planned keys to drop: a record of a planned
 * track stays only where the plan keeps an original.  Returns how many
 * are kept; SIZE_MAX on OOM. */
static size_t keep_unplanned(const pk_motion *out, uint8_t *base, size_t n, size_t size,
                             size_t name_off, size_t frame_off, plans *p, size_t *removed)
{
    size_t nn = pk_names_count(out->names);
    long *slot = malloc((nn ? nn : 1) * sizeof *slot);
    if (!slot)
        return SIZE_MAX;
    for (size_t i = 0; i < nn; i++)
        slot[i] = -1;
    for (size_t i = 0; i < p->n; i++)
        slot[p->v[i].name] = (long)i;
    size_t w = 0;
    for (size_t r = 0; r < n; r++) {
        uint8_t *rec = base + r * size;
        pk_name_id name;
        uint32_t frame;
        memcpy(&name, rec + name_off, sizeof name);
        memcpy(&frame, rec + frame_off, sizeof frame);
        long s = name < nn ? slot[name] : -1;
        if (s >= 0 && !is_orig(&p->v[s], frame)) {
            (*removed)++;
            p->v[s].changed = true;
            continue;
        }
        if (w != r)
            memcpy(base + w * size, rec, size);
        w++;
    }
    free(slot);
    return w;
}

/* Appends the new keys of a baked track: every frame of the plan whose
 * record it does not keep, sampled from the input m. */
static int append_baked(pk_motion *out, const pk_motion *m, plan *p, bool morphs, size_t *added)
{
    uint8_t linear[64];
    const uint8_t cp[4][4] = {
        {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}, {20, 20, 107, 107}};
    pk_interp_set(linear, cp, false);
    pk_cursor c;
    pk_cursor_init(&c, m, p->track);
    size_t o = 0;
    for (uint32_t f = p->lo;; f = p->hi - f > p->step ? f + p->step : p->hi) {
        while (o < p->norig && p->orig[o] < f)
            o++;
        if (o < p->norig && p->orig[o] == f) {
            if (f == p->hi)
                break;
            continue;
        }
        if (morphs) {
            pk_morph_key *k = pk_motion_push_morph(out);
            if (!k)
                return -1;
            k->name = p->name;
            k->frame = f;
            k->weight = pk_cursor_morph(&c, (double)f);
        } else {
            pk_bone_key *k = pk_motion_push_bone(out);
            if (!k)
                return -1;
            k->name = p->name;
            k->frame = f;
            pk_cursor_bone(&c, (double)f, k->pos, k->rot);
            memcpy(k->interp, linear, sizeof linear);
        }
        (*added)++;
        p->changed = true;
        if (f == p->hi)
            break;
    }
    return 0;
}

/* The planned tracks of bones (morphs: of morphs) into out: their
 * records that the plan does not keep dropped, its new keys appended
 * (a baked track's sampled from m). */
static int apply_plans(pk_motion *out, const pk_motion *m, plans *p, bool morphs, size_t *removed,
                       size_t *added)
{
    size_t w = morphs ? keep_unplanned(out, (uint8_t *)out->morphs, out->nmorphs,
                                       sizeof *out->morphs, offsetof(pk_morph_key, name),
                                       offsetof(pk_morph_key, frame), p, removed)
                      : keep_unplanned(out, (uint8_t *)out->bones, out->nbones, sizeof *out->bones,
                                       offsetof(pk_bone_key, name), offsetof(pk_bone_key, frame), p,
                                       removed);
    if (w == SIZE_MAX)
        return -1;
    if (morphs)
        out->nmorphs = w;
    else
        out->nbones = w;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].track && append_baked(out, m, &p->v[i], morphs, added) != 0)
            return -1;
        for (size_t j = 0; j < p->v[i].keys.n; j++) {
            const rkey *nk = &p->v[i].keys.v[j];
            if (nk->orig)
                continue;
            if (morphs) {
                pk_morph_key *k = pk_motion_push_morph(out);
                if (!k)
                    return -1;
                k->name = p->v[i].name;
                k->frame = nk->frame;
                k->weight = nk->w;
            } else {
                pk_bone_key *k = pk_motion_push_bone(out);
                if (!k)
                    return -1;
                k->name = p->v[i].name;
                k->frame = nk->frame;
                memcpy(k->pos, nk->pos, sizeof k->pos);
                memcpy(k->rot, nk->rot, sizeof k->rot);
                pk_interp_set(k->interp, (const uint8_t(*)[4])nk->cp, nk->physics_off);
            }
            (*added)++;
            p->v[i].changed = true;
        }
    }
    return 0;
}

/* Camera curves {x1, y1, x2, y2} into the record's (x1, x2, y1, y2) groups. */
static void cam_interp_set(uint8_t ip[24], const uint8_t cp[6][4])
{
    for (int g = 0; g < 6; g++) {
        ip[4 * g + 0] = cp[g][0];
        ip[4 * g + 1] = cp[g][2];
        ip[4 * g + 2] = cp[g][1];
        ip[4 * g + 3] = cp[g][3];
    }
}

/* A new camera record from a key the search made (all of it written:
 * the record starts zeroed). */
static void camera_key_of(const rkey *nk, pk_camera_key *k)
{
    memset(k, 0, sizeof *k);
    k->frame = nk->frame;
    memcpy(k->pos, nk->pos, sizeof k->pos);
    memcpy(k->rot, nk->rot, sizeof k->rot);
    k->distance = nk->w;
    k->fov = nk->fov;
    k->perspective = nk->persp;
    cam_interp_set(k->interp, (const uint8_t(*)[4])nk->cp);
}

static int apply_camera(pk_motion *out, plan *p, size_t *removed, size_t *added)
{
    size_t w = 0;
    for (size_t r = 0; r < out->ncameras; r++) {
        const pk_camera_key *k = &out->cameras[r];
        if (!is_orig(p, k->frame)) {
            (*removed)++;
            p->changed = true;
            continue;
        }
        out->cameras[w++] = *k;
    }
    out->ncameras = w;
    for (size_t j = 0; j < p->keys.n; j++) {
        const rkey *nk = &p->keys.v[j];
        if (nk->orig)
            continue;
        pk_camera_key *k = pk_motion_push_camera(out);
        if (!k)
            return -1;
        camera_key_of(nk, k);
        (*added)++;
        p->changed = true;
    }
    return 0;
}

/* ---- one track's working set ---- */

/* Camera channels in work.ch: centre X, Y, Z, Euler X, Y, Z (radians),
 * distance, fov (whole degrees, as float). */
enum { CAM_ROT = 3, CAM_DIST = 6, CAM_FOV = 7, CAM_NCH = 8 };

typedef struct work {
    const pk_motion *m;
    const pk_track *t;
    const pk_tracks *tr; /* camera: the motion's tracks (the sampler's view) */
    bool morph;
    bool cam;
    size_t k0, k1;      /* the range's first and last key (indices in t->keys) */
    uint32_t f0;        /* frame of sample 0 (= key k0's frame) */
    size_t n;           /* samples: frames f0 .. f0 + n - 1 */
    float *ch[CAM_NCH]; /* bones: X, Y, Z samples; morphs: ch[0] = weight; camera: CAM_* */
    float (*rot)[4];
    uint8_t *persp;      /* camera: the perspective byte */
    bool moves[CAM_NCH]; /* channel changes anywhere in the range (bones: 3 = rotation) */
    uint8_t *iskey;      /* sample i is an input key frame */
    double tol[3];       /* bones: rotation (deg), translation; morphs: weight; camera: [2]
                            Euler angles (radians, from the degrees) */
    double tol_fit[3];
    pki_curve_cache *cache;
    /* bones and morphs QUICK (a search over thousands of segments, one
     * failing probe per key kept), the camera FAST (one track, whose long
     * moves need the full descent) */
    pki_fit_effort effort;
    double *pos_sq, *pos_extra; /* bones, camera: pos_fits's scratch, a double a sample */
} work;

static void work_free(work *w)
{
    for (int a = 0; a < CAM_NCH; a++)
        free(w->ch[a]);
    free(w->persp);
    free(w->rot);
    free(w->iskey);
    free(w->pos_sq);
    free(w->pos_extra);
}

static const pk_bone_key *bkey(const work *w, size_t i)
{
    return &w->m->bones[w->t->keys[i]];
}

static uint32_t key_frame(const work *w, size_t i)
{
    if (w->cam)
        return w->m->cameras[w->t->keys[i]].frame;
    return w->morph ? w->m->morphs[w->t->keys[i]].frame : bkey(w, i)->frame;
}

/* Samples the camera at every frame of the range. */
static bool cam_sample(work *w)
{
    for (int a = 0; a < CAM_NCH; a++)
        if (!(w->ch[a] = malloc(w->n * sizeof(float))))
            return false;
    if (!(w->persp = malloc(w->n)) || !(w->iskey = calloc(w->n, 1)) ||
        !(w->pos_sq = malloc(w->n * sizeof(double))) ||
        !(w->pos_extra = malloc(w->n * sizeof(double))))
        return false;
    for (size_t i = w->k0; i <= w->k1; i++)
        w->iskey[key_frame(w, i) - w->f0] = 1;
    for (size_t i = 0; i < w->n; i++) {
        pk_camera_key c;
        pk_sample_camera(w->m, w->tr, (double)w->f0 + (double)i, &c);
        for (int a = 0; a < 3; a++) {
            w->ch[a][i] = c.pos[a];
            w->ch[CAM_ROT + a][i] = c.rot[a];
        }
        w->ch[CAM_DIST][i] = c.distance;
        w->ch[CAM_FOV][i] = (float)c.fov;
        w->persp[i] = c.perspective;
    }
    for (int a = 0; a < CAM_NCH; a++)
        for (size_t i = 1; i < w->n && !w->moves[a]; i++)
            if (w->ch[a][i] != w->ch[a][0])
                w->moves[a] = true;
    return true;
}

/* Samples the input; false on OOM. */
static bool work_sample(work *w)
{
    if (w->cam)
        return cam_sample(w);
    int nch = w->morph ? 1 : 3;
    for (int a = 0; a < nch; a++)
        if (!(w->ch[a] = malloc(w->n * sizeof(float))))
            return false;
    if (!w->morph && (!(w->rot = malloc(w->n * sizeof *w->rot)) ||
                      !(w->pos_sq = malloc(w->n * sizeof(double))) ||
                      !(w->pos_extra = malloc(w->n * sizeof(double)))))
        return false;
    if (!(w->iskey = calloc(w->n, 1)))
        return false;
    for (size_t i = w->k0; i <= w->k1; i++)
        w->iskey[key_frame(w, i) - w->f0] = 1;
    pk_cursor c;
    pk_cursor_init(&c, w->m, w->t);
    for (size_t i = 0; i < w->n; i++) {
        double f = (double)w->f0 + (double)i;
        if (w->morph) {
            w->ch[0][i] = pk_cursor_morph(&c, f);
        } else {
            float pos[3];
            pk_cursor_bone(&c, f, pos, w->rot[i]);
            for (int a = 0; a < 3; a++)
                w->ch[a][i] = pos[a];
        }
    }
    for (int a = 0; a < nch; a++)
        for (size_t i = 1; i < w->n && !w->moves[a]; i++)
            if (w->ch[a][i] != w->ch[a][0])
                w->moves[a] = true;
    if (!w->morph)
        for (size_t i = 1; i < w->n && !w->moves[3]; i++)
            if (memcmp(w->rot[i], w->rot[0], sizeof w->rot[0]) != 0)
                w->moves[3] = true;
    return true;
}

/* Necessary for any grid curve: values within tol of a monotonic run
 * between the ends (v[j] - v[i] may go against the direction by at most
 * 2 tol for i < j). */
static bool monotone(const float *v, size_t n, double tol)
{
    double dir = v[n] >= v[0] ? 1.0 : -1.0, lo = fmin(v[0], v[n]) - tol,
           hi = fmax(v[0], v[n]) + tol, run = dir * v[0];
    for (size_t i = 1; i < n; i++) {
        double x = v[i];
        if (x < lo || x > hi)
            return false;
        double d = dir * x;
        if (d < run - 2.0 * tol)
            return false;
        if (d > run)
            run = d;
    }
    return true;
}

/* Does the channel change over samples 0..n? */
static bool varies(const float *v, size_t n)
{
    for (size_t i = 1; i <= n; i++)
        if (v[i] != v[0])
            return true;
    return false;
}

/* A translation (a bone's, the camera's centre) over samples a..a+n of
 * ch[0..2]: each axis has a curve of its own, but max_pos bounds the
 * distance (what diff measures), not each axis.  The axes that vary are
 * fitted one after another, each within its share of what the earlier
 * ones left at every frame: with k of them the first within tol /
 * sqrt(k), the next within sqrt((tol^2 - e1^2) / (k - 1)) where the first
 * missed by e1, the last within all that is left.  The smallest move goes
 * first: its curve usually misses by little and leaves the larger moves
 * more room (the baked WAVEFILE dance: 12,439 bone keys, 12,458 in axis
 * order, 12,436 when each axis had the whole tolerance). */
static bool pos_fits(const work *w, float *const ch[3], size_t a, size_t n, uint8_t cp[][4])
{
    int ax[3], k = 0;
    double move[3];
    for (int c = 0; c < 3; c++) {
        if (!varies(ch[c] + a, n))
            continue;
        move[k] = fabs((double)ch[c][a + n] - ch[c][a]);
        ax[k++] = c;
        for (int j = k - 1; j > 0 && move[j] < move[j - 1]; j--) {
            double tm = move[j];
            int tc = ax[j];
            move[j] = move[j - 1];
            ax[j] = ax[j - 1];
            move[j - 1] = tm;
            ax[j - 1] = tc;
        }
    }
    double tol = w->tol_fit[1], *sq = w->pos_sq, *extra = w->pos_extra;
    for (size_t i = 1; i < n; i++)
        sq[i - 1] = 0.0;
    for (int j = 0; j < k; j++) {
        const float *v = ch[ax[j]] + a;
        /* this axis's room at each frame, as an extra against the largest */
        double top = 0.0;
        for (size_t i = 1; i < n; i++) {
            extra[i - 1] = sqrt(fmax(tol * tol - sq[i - 1], 0.0) / (double)(k - j));
            top = fmax(top, extra[i - 1]);
        }
        for (size_t i = 1; i < n; i++)
            extra[i - 1] = top - extra[i - 1];
        if (pki_curve_fit_scalar_extra_ex(v, n, extra, top, w->effort, w->cache, cp[ax[j]], NULL) !=
            1)
            return false;
        if (j + 1 == k)
            break;
        /* what this curve misses by, with the sampler's float rounding */
        const uint8_t *q = cp[ax[j]];
        double margin = 2.0 * FLT_EPSILON * fmax(fabs((double)v[0]), fabs((double)v[n]));
        for (size_t i = 1; i < n; i++) {
            double u = pki_bezier_solve(q[0], q[1], q[2], q[3], (double)i / (double)n, NULL);
            double e = fabs(pki_lerp(v[0], v[n], u) - v[i]) + margin;
            sq[i - 1] += e * e;
        }
    }
    return true;
}

/* Camera rotation: three Euler angles share one curve.  The channel that
 * moves most is fitted; the others must follow the same progress. */
static bool cam_rot_fits(const work *w, size_t a, size_t n, uint8_t cp[4])
{
    int prim = -1;
    double big = 0.0;
    for (int c = CAM_ROT; c < CAM_ROT + 3; c++) {
        double d = fabs((double)w->ch[c][a + n] - w->ch[c][a]);
        if (w->moves[c] && (prim < 0 || d > big)) {
            prim = c;
            big = d;
        }
    }
    if (prim < 0)
        return true;
    double tol = w->tol_fit[2];
    for (int c = CAM_ROT; c < CAM_ROT + 3; c++)
        if (w->moves[c] && !monotone(w->ch[c] + a, n, tol))
            return false;
    if (pki_curve_fit_scalar_ex(w->ch[prim] + a, n, tol, w->effort, w->cache, cp, NULL) != 1)
        return false;
    for (int c = CAM_ROT; c < CAM_ROT + 3; c++) {
        if (c == prim || !w->moves[c])
            continue;
        const float *v = w->ch[c] + a;
        for (size_t i = 1; i < n; i++) {
            double p = pki_curve_progress(cp, (double)i / (double)n);
            if (fabs((double)v[0] + ((double)v[n] - v[0]) * p - v[i]) > tol)
                return false;
        }
    }
    return true;
}

/* Camera: six curves (X, Y, Z, rotation, distance, fov) and one
 * perspective over the segment. */
static bool cam_fits(const work *w, size_t a, size_t n, uint8_t cp[6][4])
{
    for (size_t i = a + 1; i < a + n; i++)
        if (w->persp[i] != w->persp[a])
            return false;
    static const int chan[5] = {0, 1, 2, CAM_DIST, CAM_FOV};
    static const int curve[5] = {0, 1, 2, 4, 5};
    /* fov is whole degrees: the curve must round to every sample (within
     * half a degree, then checked the sampler's way below) */
    const double fov_tol = 0.5001;
    for (int k = 0; k < 5; k++) {
        int c = chan[k];
        double tol = c == CAM_FOV ? fov_tol : w->tol_fit[1];
        if (w->moves[c] && !monotone(w->ch[c] + a, n, tol))
            return false;
    }
    /* the distance and fov on their own, the centre as one distance */
    for (int k = 3; k < 5; k++) {
        int c = chan[k];
        if (!w->moves[c])
            continue;
        double tol = c == CAM_FOV ? fov_tol : w->tol_fit[1];
        if (pki_curve_fit_scalar_ex(w->ch[c] + a, n, tol, w->effort, w->cache, cp[curve[k]],
                                    NULL) != 1) {
            return false;
        }
    }
    if (!pos_fits(w, w->ch, a, n, cp))
        return false;
    if (w->moves[CAM_FOV]) {
        const float *v = w->ch[CAM_FOV] + a;
        const uint8_t *q = cp[5];
        for (size_t i = 1; i < n; i++) {
            double u = pki_bezier_solve(q[0], q[1], q[2], q[3], (double)i / (double)n, NULL);
            double fov = pki_lerp(v[0], v[n], u);
            if ((fov <= 0.0 ? 0.0 : floor(fov + 0.5)) != (double)v[i])
                return false;
        }
    }
    return cam_rot_fits(w, a, n, cp[3]);
}

/* Are samples a < b two adjacent input keys? */
static bool adjacent_keys(const work *w, size_t a, size_t b)
{
    if (!w->iskey[a] || !w->iskey[b])
        return false;
    for (size_t i = a + 1; i < b; i++)
        if (w->iskey[i])
            return false;
    return true;
}

/* Does the segment of samples a < b fit one key?  cp gets the curves (an
 * input segment fits with its own curves, which build_plan keeps: cp is
 * then left linear). */
static bool fits(const work *w, size_t a, size_t b, uint8_t cp[6][4])
{
    size_t n = b - a;
    for (int c = 0; c < 6; c++)
        memcpy(cp[c], pki_curve_linear, 4);
    if (n < 2 || adjacent_keys(w, a, b))
        return true;
    if (w->cam)
        return cam_fits(w, a, n, cp);
    if (w->morph) {
        const float *v = w->ch[0] + a;
        double tol = w->tol_fit[0];
        for (size_t i = 1; i < n; i++) {
            double s = (double)i / (double)n;
            double want = (double)v[0] + ((double)v[n] - v[0]) * s;
            if (fabs(want - v[i]) > tol)
                return false;
        }
        return true;
    }
    /* the cheap refusals first */
    if (w->moves[3] && pki_curve_off_arc((const float(*)[4])(w->rot + a), n, w->tol_fit[0]))
        return false;
    for (int c = 0; c < 3; c++) {
        if (!w->moves[c])
            continue;
        const float *v = w->ch[c] + a;
        if (!monotone(v, n, w->tol_fit[1]))
            return false;
    }
    if (!pos_fits(w, w->ch, a, n, cp))
        return false;
    if (w->moves[3] && pki_curve_fit_rot_ex((const float(*)[4])(w->rot + a), n, w->tol_fit[0],
                                            w->effort, w->cache, cp[3], NULL) != 1)
        return false;
    return true;
}

/* An input segment (keys at samples a and b adjacent in the input): its own
 * curves, exactly. */
static bool input_segment(const work *w, size_t a, size_t b, size_t *key)
{
    if (!adjacent_keys(w, a, b))
        return false;
    /* find the key index of sample b */
    uint32_t f = w->f0 + (uint32_t)b;
    size_t lo = w->k0, hi = w->k1 + 1;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (key_frame(w, mid) < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    *key = lo;
    return true;
}

/* Step size of sample i -> i+1 in tolerances (the larger channel). */
static double step_tols(const work *w, size_t i)
{
    if (w->cam) {
        double d = 0.0;
        for (int a = 0; a < CAM_NCH; a++) {
            double tol = a == CAM_FOV ? 0.5 : a >= CAM_ROT && a < CAM_DIST ? w->tol[2] : w->tol[1];
            d = fmax(d, fabs((double)w->ch[a][i + 1] - w->ch[a][i]) / tol);
        }
        return d;
    }
    if (w->morph)
        return fabs((double)w->ch[0][i + 1] - w->ch[0][i]) / w->tol[0];
    double d = pk_quat_angle_deg(w->rot[i], w->rot[i + 1]) / w->tol[0];
    for (int a = 0; a < 3; a++) {
        double e = fabs((double)w->ch[a][i + 1] - w->ch[a][i]) / w->tol[1];
        if (e > d)
            d = e;
    }
    return d;
}

/* Forced keys: first, last, both sides of every discontinuity. */
static size_t forced_keys(const work *w, size_t *out, size_t *jumps)
{
    size_t n = 0;
    out[n++] = 0;
    for (size_t i = 0; i + 1 < w->n; i++) {
        if (w->cam && w->persp[i] != w->persp[i + 1]) {
            /* a perspective switch: a segment holds its first key's
             * perspective, so a key where the new one starts */
            out[n++] = i + 1;
            (*jumps)++;
            continue;
        }
        if (!w->iskey[i] || !w->iskey[i + 1])
            continue;
        double d = step_tols(w, i);
        double l = i > 0 ? step_tols(w, i - 1) : 0.0;
        double r = i + 2 < w->n ? step_tols(w, i + 1) : 0.0;
        if (d > 10.0 && d > 4.0 * fmax(l, r)) {
            if (out[n - 1] != i)
                out[n++] = i;
            out[n++] = i + 1;
            (*jumps)++;
        }
    }
    if (out[n - 1] != w->n - 1)
        out[n++] = w->n - 1;
    return n;
}

/* Greedy from each kept key over candidate samples cand[0..nc-1] (sorted,
 * forced keys among them); the kept samples go to keep[] (count returned). */
static size_t greedy(const work *w, const size_t *cand, size_t nc, const uint8_t *forced,
                     size_t *keep)
{
    size_t nk = 0, i = 0;
    uint8_t cp[6][4];
    keep[nk++] = cand[0];
    size_t guess = 1, lim = 0;
    while (i + 1 < nc) {
        /* the next forced candidate bounds the search */
        if (lim <= i) {
            lim = i + 1;
            while (lim + 1 < nc && !forced[cand[lim]])
                lim++;
        }
        size_t good = i + 1, bad = lim + 1;
        /* Fits are not monotonic in the end frame: a baked curve's pieces
         * may miss the grid where the whole segment is exact (and a
         * camera's fov is rounded to whole degrees at every frame).  A
         * short run to the next forced key (the camera: any) is tried
         * whole first. */
        if (lim > i + 1 && (w->cam || cand[lim] - cand[i] <= 64) &&
            fits(w, cand[i], cand[lim], cp)) {
            keep[nk++] = cand[lim];
            guess = lim - i;
            i = lim;
            continue;
        }
        /* exponential from the last segment's length */
        size_t step = guess;
        while (good < lim) {
            size_t j = i + step < lim ? i + step : lim;
            if (j <= good)
                j = good + 1;
            if (fits(w, cand[i], cand[j], cp)) {
                good = j;
                step *= 2;
            } else {
                bad = j;
                break;
            }
        }
        while (bad - good > 1) {
            size_t mid = good + (bad - good) / 2;
            if (fits(w, cand[i], cand[mid], cp))
                good = mid;
            else
                bad = mid;
        }
        /* Fits are not monotonic in the end frame (a grid curve may fit the
         * whole of a baked segment but not a piece of it; and a camera's
         * fov is whole degrees): before the next forced key at most 64
         * frames on (the camera: one track, any distance), every farther
         * end is tried, the farthest first. */
        bool near = w->cam || cand[lim] - cand[i] <= 64;
        for (size_t j = lim - 1; near && j > good + 1; j--)
            if (fits(w, cand[i], cand[j], cp)) {
                good = j;
                break;
            }
        guess = good - i;
        keep[nk++] = cand[good];
        i = good;
    }
    return nk;
}

/* fits() into a local array, then the key: GCC's -Wstringop-overflow
 * (with -fsanitize=address) loses the size of k->cp through grow.h. */
static void fit_into(const work *w, size_t a, size_t b, rkey *k)
{
    uint8_t cp[6][4];
    fits(w, a, b, cp);
    memcpy(k->cp, cp, sizeof cp);
}

/* Builds the plan for keep[0..nk-1]: values from the samples, curves from
 * the fit (or the input's own curve for an unchanged input segment). */
static bool build_plan(const work *w, const size_t *keep, size_t nk, rlist *out)
{
    out->n = 0;
    for (size_t j = 0; j < nk; j++) {
        size_t b = keep[j];
        rkey *k = rpush(out, w->f0 + (uint32_t)b);
        if (!k)
            return false;
        if (j == 0) {
            k->orig = true;
            continue;
        }
        size_t a = keep[j - 1], key;
        if (input_segment(w, a, b, &key)) {
            k->orig = true;
            continue;
        }
        if (w->morph) {
            k->w = w->ch[0][b];
            continue;
        }
        if (w->cam) {
            for (int c = 0; c < 3; c++) {
                k->pos[c] = w->ch[c][b];
                k->rot[c] = w->ch[CAM_ROT + c][b];
            }
            k->w = w->ch[CAM_DIST][b];
            k->fov = (uint32_t)w->ch[CAM_FOV][b];
            k->persp = w->persp[b];
            fit_into(w, a, b, k);
            continue;
        }
        for (int c = 0; c < 3; c++)
            k->pos[c] = w->ch[c][b];
        memcpy(k->rot, w->rot[b], sizeof k->rot);
        fit_into(w, a, b, k);
        /* the physics flag of the input segment the key falls in */
        uint32_t f = k->frame;
        size_t lo = w->k0, hi = w->k1;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (key_frame(w, mid) < f)
                lo = mid + 1;
            else
                hi = mid;
        }
        const uint8_t *ip = bkey(w, lo)->interp;
        k->physics_off = ip[2] == 0x63 && ip[3] == 0x0F;
    }
    return true;
}

/* A scratch motion holding the plan's keys (originals copied) as one track. */
typedef struct scratch {
    pk_motion *m;
    pk_track t;
    uint32_t *idx;
} scratch;

static bool scratch_fill(scratch *s, const work *w, const rlist *l)
{
    s->m->nbones = 0;
    s->m->nmorphs = 0;
    s->m->ncameras = 0;
    free(s->idx);
    s->idx = malloc((l->n ? l->n : 1) * sizeof *s->idx);
    if (!s->idx)
        return false;
    size_t ki = w->k0;
    for (size_t j = 0; j < l->n; j++) {
        const rkey *nk = &l->v[j];
        while (ki <= w->k1 && key_frame(w, ki) < nk->frame)
            ki++;
        if (w->cam) {
            pk_camera_key *k = pk_motion_push_camera(s->m);
            if (!k)
                return false;
            if (nk->orig)
                *k = w->m->cameras[w->t->keys[ki]];
            else
                camera_key_of(nk, k);
        } else if (w->morph) {
            pk_morph_key *k = pk_motion_push_morph(s->m);
            if (!k)
                return false;
            if (nk->orig) {
                *k = w->m->morphs[w->t->keys[ki]];
            } else {
                k->frame = nk->frame;
                k->weight = nk->w;
            }
        } else {
            pk_bone_key *k = pk_motion_push_bone(s->m);
            if (!k)
                return false;
            if (nk->orig) {
                *k = *bkey(w, ki);
            } else {
                k->frame = nk->frame;
                memcpy(k->pos, nk->pos, sizeof k->pos);
                memcpy(k->rot, nk->rot, sizeof k->rot);
                pk_interp_set(k->interp, (const uint8_t(*)[4])nk->cp, nk->physics_off);
            }
        }
        s->idx[j] = (uint32_t)j;
    }
    s->t.name = 0;
    s->t.keys = s->idx;
    s->t.count = l->n;
    return true;
}

/* The distance between two translations (max_pos bounds it, as diff
 * measures it). */
static double pos_dist(const float a[3], const float b[3])
{
    double d = 0.0;
    for (int k = 0; k < 3; k++)
        d += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
    return sqrt(d);
}

/* Samples the plan at every frame; the worst errors in err[0] (deg or
 * weight) and err[1] (units); bad[j] set for each plan segment j (ending
 * at key j) with a frame out of tolerance.  Returns whether all hold. */
static bool verify(const work *w, scratch *s, const rlist *l, double err[2], uint8_t *bad)
{
    pk_cursor c;
    pk_cursor_init(&c, s->m, &s->t);
    bool ok = true;
    size_t seg = 0;
    err[0] = err[1] = 0.0;
    for (size_t i = 0; i < w->n; i++) {
        uint32_t f = w->f0 + (uint32_t)i;
        while (seg < l->n && l->v[seg].frame < f)
            seg++;
        /* an input segment between two input records samples as the
         * input does: its frames are exact */
        if (!w->cam && seg > 0 && seg < l->n && l->v[seg].orig && l->v[seg - 1].orig) {
            i = l->v[seg].frame - w->f0;
            continue;
        }
        double e0 = 0.0, e1 = 0.0;
        if (w->cam) {
            pk_tracks view;
            memset(&view, 0, sizeof view);
            view.cameras = s->t.keys;
            view.ncameras = s->t.count;
            pk_camera_key got;
            pk_sample_camera(s->m, &view, f, &got);
            float want[3] = {w->ch[0][i], w->ch[1][i], w->ch[2][i]};
            e1 = pos_dist(got.pos, want);
            for (int a = 0; a < 3; a++)
                e0 = fmax(e0, fabs((double)got.rot[a] - w->ch[CAM_ROT + a][i]) * RAD2DEG);
            e1 = fmax(e1, fabs((double)got.distance - w->ch[CAM_DIST][i]));
            /* fov (whole degrees) and the perspective switch must be exact */
            if ((double)got.fov != (double)w->ch[CAM_FOV][i] || got.perspective != w->persp[i])
                e0 = INFINITY;
        } else if (w->morph) {
            e0 = fabs((double)pk_cursor_morph(&c, f) - w->ch[0][i]);
        } else {
            float pos[3], rot[4];
            pk_cursor_bone(&c, f, pos, rot);
            float want[3] = {w->ch[0][i], w->ch[1][i], w->ch[2][i]};
            if (memcmp(rot, w->rot[i], sizeof rot) != 0)
                e0 = pk_quat_angle_deg(rot, w->rot[i]);
            if (memcmp(pos, want, sizeof pos) != 0)
                e1 = pos_dist(pos, want);
        }
        err[0] = fmax(err[0], e0);
        err[1] = fmax(err[1], e1);
        if (e0 > w->tol[0] || (!w->morph && e1 > w->tol[1])) {
            ok = false;
            if (bad && seg < l->n)
                bad[seg] = 1;
        }
    }
    return ok;
}

/* Replaces each bad segment of keep[] by every sample in between. */
static size_t densify(const work *w, const size_t *keep, size_t nk, const uint8_t *bad, size_t *out)
{
    (void)w;
    size_t n = 0;
    for (size_t j = 0; j < nk; j++) {
        if (j > 0 && bad[j])
            for (size_t i = keep[j - 1] + 1; i < keep[j]; i++)
                out[n++] = i;
        out[n++] = keep[j];
    }
    return n;
}

/* The distance between the translations (a camera's centre) of samples
 * i and j. */
static double centre_dist(const work *w, size_t i, size_t j)
{
    float a[3] = {w->ch[0][i], w->ch[1][i], w->ch[2][i]};
    float b[3] = {w->ch[0][j], w->ch[1][j], w->ch[2][j]};
    return pos_dist(a, b);
}

/* Constant within tolerance of the first sample? */
static bool constant(const work *w)
{
    if (w->cam) {
        for (int a = CAM_ROT; a < CAM_NCH; a++)
            for (size_t i = 1; i < w->n; i++) {
                double tol = a == CAM_FOV ? 0.0 : a < CAM_DIST ? w->tol[2] : w->tol[1];
                if (fabs((double)w->ch[a][i] - w->ch[a][0]) > tol)
                    return false;
            }
        for (size_t i = 1; i < w->n; i++)
            if (centre_dist(w, i, 0) > w->tol[1])
                return false;
        for (size_t i = 1; i < w->n; i++)
            if (w->persp[i] != w->persp[0])
                return false;
        return true;
    }
    for (size_t i = 1; i < w->n; i++) {
        if (w->morph) {
            if (fabs((double)w->ch[0][i] - w->ch[0][0]) > w->tol[0])
                return false;
            continue;
        }
        if (memcmp(w->rot[i], w->rot[0], sizeof w->rot[0]) != 0 &&
            pk_quat_angle_deg(w->rot[i], w->rot[0]) > w->tol[0])
            return false;
        if ((w->ch[0][i] != w->ch[0][0] || w->ch[1][i] != w->ch[1][0] ||
             w->ch[2][i] != w->ch[2][0]) &&
            centre_dist(w, i, 0) > w->tol[1])
            return false;
    }
    return true;
}

/* The range's keys [k0, k1] of a track (false: fewer than two). */
static bool key_range(const work *w, bool all, uint32_t a, uint32_t b, size_t *k0, size_t *k1)
{
    const pk_track *t = w->t;
    size_t i = 0, j = t->count;
    if (!all) {
        while (i < t->count && key_frame(w, i) < a)
            i++;
        while (j > i && key_frame(w, j - 1) > b)
            j--;
    }
    if (j < i + 2)
        return false;
    *k0 = i;
    *k1 = j - 1;
    return true;
}

typedef struct run {
    const pk_reduce_options *o;
    pk_reduce_stats *st;
    pki_curve_cache *cache;
    scratch s;
    bool oom;
    pki_log_sum too_long; /* bake: tracks spanning SPAN_MAX frames or more */
} run;

/* Reduces the keys k0..k1 of a track (spanning fewer than SPAN_MAX
 * frames) into out (left empty: nothing gained, keep them).  `whole`: the
 * whole track, which may become one key when it never leaves its first
 * key's value.  The camera is the track t over tr->cameras (tr: the
 * sampler's view). */
static void reduce_piece(run *r, const pk_motion *m, const pk_track *t, bool morph,
                         const pk_tracks *tr, size_t k0, size_t k1, bool whole, rlist *out)
{
    const pk_reduce_options *o = r->o;
    work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.t = t;
    w.morph = morph;
    w.cam = tr != NULL;
    w.tr = tr;
    w.cache = r->cache;
    w.effort = w.cam ? PKI_FIT_FAST : PKI_FIT_QUICK;
    w.k0 = k0;
    w.k1 = k1;
    w.f0 = key_frame(&w, w.k0);
    w.n = (size_t)(key_frame(&w, w.k1) - w.f0) + 1;
    if (morph) {
        w.tol[0] = o->max_morph;
        w.tol_fit[0] = o->max_morph * 0.999 - 2.0 * FLT_EPSILON;
    } else {
        w.tol[0] = o->max_deg;
        w.tol[1] = o->max_pos;
        w.tol_fit[0] = o->max_deg * 0.999;
        w.tol_fit[1] = o->max_pos * 0.999;
        w.tol[2] = o->max_deg / RAD2DEG;
        w.tol_fit[2] = w.tol[2] * 0.999;
    }
    size_t nin = w.k1 - w.k0 + 1;
    size_t *forced = NULL, *cand = NULL, *keep = NULL, *dense = NULL;
    uint8_t *isforced = NULL, *bad = NULL;
    if (!work_sample(&w))
        goto oom;
    double err[2];
    if (whole && constant(&w)) {
        rkey *k = rpush(out, w.f0);
        if (!k)
            goto oom;
        k->orig = true;
        /* its error counts like any other plan's: measured, not assumed 0 */
        if (!scratch_fill(&r->s, &w, out))
            goto oom;
        verify(&w, &r->s, out, err, NULL);
        goto worst;
    }
    forced = malloc(w.n * sizeof *forced);
    cand = calloc(w.n, sizeof *cand);
    keep = malloc(w.n * sizeof *keep);
    isforced = calloc(w.n, 1);
    if (!forced || !cand || !keep || !isforced)
        goto oom;
    size_t nf = forced_keys(&w, forced, &r->st->discontinuities);
    for (size_t i = 0; i < nf; i++)
        isforced[forced[i]] = 1;
    /* the input's key frames (forced keys are input keys) */
    size_t nc = 0;
    for (size_t i = 0; i < w.n; i++)
        if (w.iskey[i])
            cand[nc++] = i;
    size_t nk = greedy(&w, cand, nc, isforced, keep);
    if (!build_plan(&w, keep, nk, out) || !scratch_fill(&r->s, &w, out))
        goto oom;
    bad = calloc(nk, 1);
    if (!bad)
        goto oom;
    if (!verify(&w, &r->s, out, err, bad)) {
        dense = malloc(w.n * sizeof *dense);
        if (!dense)
            goto oom;
        for (size_t j = 0; j < nk; j++)
            r->st->refitted += bad[j];
        nk = densify(&w, keep, nk, bad, dense);
        if (!build_plan(&w, dense, nk, out) || !scratch_fill(&r->s, &w, out))
            goto oom;
        verify(&w, &r->s, out, err, NULL);
    }
    if (nk >= nin) { /* nothing gained (never more keys than the input): keep it */
        out->n = 0;
        goto done;
    }
worst:
    if (w.cam) {
        r->st->worst_cam_deg = fmax(r->st->worst_cam_deg, err[0]);
        r->st->worst_cam_pos = fmax(r->st->worst_cam_pos, err[1]);
    } else if (morph) {
        r->st->worst_morph = fmax(r->st->worst_morph, err[0]);
    } else {
        r->st->worst_deg = fmax(r->st->worst_deg, err[0]);
        r->st->worst_pos = fmax(r->st->worst_pos, err[1]);
    }
    goto done;
oom:
    r->oom = true;
done:
    free(forced);
    free(cand);
    free(keep);
    free(isforced);
    free(bad);
    free(dense);
    work_free(&w);
}

/* Reduces one track into plan p (p->keys empty: leave the track alone).
 * The keys of the range are reduced in pieces of fewer than SPAN_MAX
 * frames (a sample a frame costs memory), cut at input keys: a piece's
 * first and last key stay, and a single input segment of SPAN_MAX frames
 * or more (a key far from the others) stays as it is. */
static void reduce_track(run *r, const pk_motion *m, const pk_track *t, bool morph,
                         const pk_tracks *tr, plan *p)
{
    const pk_reduce_options *o = r->o;
    work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.t = t;
    w.morph = morph;
    w.cam = tr != NULL;
    size_t k0, k1;
    if (!key_range(&w, o->all_frames, o->first, o->last, &k0, &k1))
        return;
    p->lo = key_frame(&w, k0);
    p->hi = key_frame(&w, k1);
    if (p->hi - p->lo < SPAN_MAX) {
        reduce_piece(r, m, t, morph, tr, k0, k1, o->all_frames, &p->keys);
        return;
    }
    for (size_t i = k0; i < k1 && !r->oom;) {
        size_t j = i + 1;
        while (j < k1 && key_frame(&w, j + 1) - key_frame(&w, i) < SPAN_MAX)
            j++;
        rlist piece;
        memset(&piece, 0, sizeof piece);
        if (key_frame(&w, j) - key_frame(&w, i) < SPAN_MAX)
            reduce_piece(r, m, t, morph, tr, i, j, false, &piece);
        /* the piece as it was: nothing gained, or one long input segment */
        for (size_t k = p->keys.n ? i + 1 : i; piece.n == 0 && k <= j && !r->oom; k++) {
            rkey *nk = rpush(&p->keys, key_frame(&w, k));
            if (!nk)
                r->oom = true;
            else
                nk->orig = true;
        }
        /* a piece's first key is the previous piece's last */
        for (size_t k = p->keys.n ? 1 : 0; k < piece.n && !r->oom; k++) {
            rkey *nk = rpush(&p->keys, piece.v[k].frame);
            if (!nk)
                r->oom = true;
            else
                *nk = piece.v[k];
        }
        free(piece.v);
        i = j;
    }
    if (p->keys.n >= k1 - k0 + 1) /* nothing gained */
        p->keys.n = 0;
}

/* ---- bake ---- */

/* Baking writes a key a frame: a track spanning SPAN_MAX frames or more
 * (millions of keys; in practice a key far from the others, a damaged or
 * mistyped frame) is refused, every such track named in one error. */
static void too_long(run *r, const pk_motion *m, const pk_track *t, bool cam, bool morph,
                     uint32_t f0, uint32_t f1)
{
    char item[160];
    if (cam)
        snprintf(item, sizeof item, "the camera (frames %u-%u)", f0, f1);
    else
        snprintf(item, sizeof item, "%s '%s' (frames %u-%u)", morph ? "morph" : "bone",
                 pk_names_utf8(m->names, t->name), f0, f1);
    pki_log_sum_add(&r->too_long, -1, 0, 0, item,
                    "%s spans %u frames: baking writes a key at every one, and a track may span "
                    "at most %u; nothing baked (a key that far from the others is most likely a "
                    "damaged or mistyped frame: fix it first)",
                    item, f1 - f0 + 1, SPAN_MAX - 1);
}

/* A baked bone or morph track's plan (p->lo, p->hi set; w over the keys
 * w->k0..w->k1): its first key, and each key whose segment from the key
 * before runs between two adjacent input keys, keep their records. */
static void bake_orig(run *r, const work *w, uint32_t step, plan *p)
{
    p->track = w->t;
    p->step = step;
    size_t ki = w->k0; /* the last input key at or before f */
    bool key_before = true;
    for (uint32_t f = p->lo;; f = p->hi - f > step ? f + step : p->hi) {
        bool adjacent = f == p->lo || (key_before && ki < w->k1 && key_frame(w, ki + 1) == f);
        while (ki < w->k1 && key_frame(w, ki + 1) <= f)
            ki++;
        key_before = key_frame(w, ki) == f;
        if (adjacent) {
            uint32_t *slot = pki_grow_push(&p->orig, &p->norig, &p->cap_orig, sizeof *p->orig);
            if (!slot) {
                r->oom = true;
                return;
            }
            *slot = f;
        }
        if (f == p->hi)
            break;
    }
}

static void bake_track(run *r, const pk_motion *m, const pk_track *t, bool morph,
                       const pk_tracks *tr, plan *p)
{
    const pk_reduce_options *o = r->o;
    work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.t = t;
    w.morph = morph;
    w.cam = tr != NULL;
    w.tr = tr;
    /* The range grows to the input keys around it so that frames outside
     * keep their values. */
    size_t k0 = 0, k1 = t->count - 1;
    if (t->count < 2)
        return;
    if (!o->all_frames) {
        while (k0 + 1 < t->count && key_frame(&w, k0 + 1) <= o->first)
            k0++;
        while (k1 > 0 && key_frame(&w, k1 - 1) >= o->last)
            k1--;
        if (k1 <= k0)
            return;
    }
    w.k0 = k0;
    w.k1 = k1;
    w.f0 = key_frame(&w, k0);
    uint32_t span = key_frame(&w, k1) - w.f0;
    if (span >= SPAN_MAX) {
        too_long(r, m, t, tr != NULL, morph, w.f0, w.f0 + span);
        return;
    }
    w.n = (size_t)span + 1;
    p->lo = w.f0;
    p->hi = w.f0 + span;
    uint32_t step = o->step ? o->step : 1;
    if (!w.cam) {
        bake_orig(r, &w, step, p);
        return;
    }
    if (!work_sample(&w)) {
        r->oom = true;
        work_free(&w);
        return;
    }
    for (size_t i = 0; i < w.n; i++) {
        uint32_t f = w.f0 + (uint32_t)i;
        if (i % step != 0 && i + 1 != w.n)
            continue;
        rkey *k = rpush(&p->keys, f);
        if (!k) {
            r->oom = true;
            break;
        }
        if (i == 0) {
            k->orig = true;
            continue;
        }
        if (w.cam) {
            for (int c = 0; c < 3; c++) {
                k->pos[c] = w.ch[c][i];
                k->rot[c] = w.ch[CAM_ROT + c][i];
            }
            k->w = w.ch[CAM_DIST][i];
            k->fov = (uint32_t)w.ch[CAM_FOV][i];
            k->persp = w.persp[i];
        } else if (morph) {
            k->w = w.ch[0][i];
        } else {
            for (int c = 0; c < 3; c++)
                k->pos[c] = w.ch[c][i];
            memcpy(k->rot, w.rot[i], sizeof k->rot);
        }
    }
    /* Keys after the range keep their records when their segment starts
     * at an input key. */
    for (size_t j = 1; j < p->keys.n; j++) {
        rkey *k = &p->keys.v[j];
        size_t ia = p->keys.v[j - 1].frame - w.f0, ib = k->frame - w.f0, key;
        if (input_segment(&w, ia, ib, &key))
            k->orig = true;
    }
    work_free(&w);
}

/* ---- driver ---- */

static bool selected(const pk_motion *m, const pk_selection *sel, pk_name_id name)
{
    if (!sel)
        return true;
    size_t len;
    const uint8_t *raw = pk_names_raw(m->names, name, &len);
    return pk_selection_has(sel, raw, len);
}

/* One track of the selection (a bone's, or a morph's with `morph`) baked or
 * reduced into a plan pushed on `p`; a track left alone (nothing to write,
 * no key taken away) leaves no plan.  `nselected` counts the tracks the
 * selection holds.  False when out of memory. */
static bool plan_selected(run *r, const pk_motion *m, const pk_track *t, bool morph, bool bake,
                          plans *p, size_t *nselected)
{
    if (!selected(m, r->o->bones, t->name))
        return true;
    (*nselected)++;
    plan *pl = ppush(p);
    if (!pl)
        return false;
    pl->name = t->name;
    if (bake)
        bake_track(r, m, t, morph, NULL, pl);
    else
        reduce_track(r, m, t, morph, NULL, pl);
    if (pl->keys.n == 0 && pl->norig == 0) { /* left alone */
        plan_free(pl);
        p->n--;
    }
    return true;
}

static pk_motion *process(const pk_motion *m, const pk_reduce_options *o, pk_reduce_stats *st,
                          bool bake, pk_log *log)
{
    pk_reduce_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    if (!o->all_frames && o->first > o->last) {
        pk_error(log, PK_E_USAGE, "frame range %u-%u is empty", o->first, o->last);
        return NULL;
    }
    if (!bake && (!(o->max_deg > 0.0) || !(o->max_pos > 0.0) || !(o->max_morph > 0.0) ||
                  !isfinite(o->max_deg) || !isfinite(o->max_pos) || !isfinite(o->max_morph))) {
        pk_error(log, PK_E_USAGE, "tolerances must be positive numbers");
        return NULL;
    }
    /* A range outside every key would do nothing: say so rather than
     * report success. */
    uint32_t lo, hi;
    bool any = pk_motion_frame_range(m, &lo, &hi);
    if (!o->all_frames && any && (o->last < lo || o->first > hi)) {
        pk_error(log, PK_E_NO_EFFECT,
                 "frames %u-%u hold no key of the motion (its keys are at frames %u-%u): "
                 "nothing to %s",
                 o->first, o->last, lo, hi, bake ? "bake" : "reduce");
        return NULL;
    }
    /* a motion with no key holds none in any range either: the same error,
     * as a selection that matches nothing on it is */
    if (!o->all_frames && !any) {
        pk_error(log, PK_E_NO_EFFECT,
                 "frames %u-%u hold no key of the motion (it has no keys): nothing to %s", o->first,
                 o->last, bake ? "bake" : "reduce");
        return NULL;
    }
    for (int s = 0; s < PK_SEC_COUNT; s++)
        st->keys_before[s] = pk_motion_count(m, (pk_section)s);
    pk_tracks *tr = pk_tracks_build(m, log);
    pk_motion *out = pk_motion_clone(m);
    run r;
    memset(&r, 0, sizeof r);
    pki_log_sum_init(&r.too_long);
    r.o = o;
    r.st = st;
    r.s.m = pk_motion_new();
    r.cache = bake ? NULL : pki_curve_cache_new();
    plans pb = {0}, pm = {0};
    if (!tr || !out || !r.s.m || (!bake && !r.cache))
        goto oom;
    size_t nselected = 0;
    const char *doing = bake ? "baking" : "reducing";
    double ntracks = (double)(tr->nbones + tr->nmorphs) + 1.0; /* the camera last */
    for (size_t i = 0; i < tr->nbones && !r.oom; i++) {
        pk_progress(log, (double)i / ntracks, doing);
        if (!plan_selected(&r, m, &tr->bones[i], false, bake, &pb, &nselected))
            goto oom;
    }
    for (size_t i = 0; o->morphs && i < tr->nmorphs && !r.oom; i++) {
        pk_progress(log, (double)(tr->nbones + i) / ntracks, doing);
        if (!plan_selected(&r, m, &tr->morphs[i], true, bake, &pm, &nselected))
            goto oom;
    }
    if (o->bones && nselected == 0 && !r.oom) {
        pk_error(log, PK_E_NOT_FOUND,
                 "the selection matches no bone%s the motion keys: nothing to %s",
                 o->morphs ? " or morph" : "", bake ? "bake" : "reduce");
        goto fail;
    }
    /* the camera: one track over the sorted camera keys; a motion that
     * holds nothing else has nothing else to mean */
    st->camera = o->camera || (!o->bones && m->nbones == 0 && m->nmorphs == 0 && tr->ncameras);
    plan pc;
    memset(&pc, 0, sizeof pc);
    if (st->camera && tr->ncameras && !r.oom) {
        pk_track ct = {0, tr->cameras, tr->ncameras};
        if (bake)
            bake_track(&r, m, &ct, false, tr, &pc);
        else
            reduce_track(&r, m, &ct, false, tr, &pc);
    }
    if (r.oom) {
        free(pc.keys.v);
        goto oom;
    }
    if (r.too_long.count) {
        free(pc.keys.v);
        char tail[200];
        snprintf(tail, sizeof tail,
                 ": baking writes a key at every frame of a track, at most %u a track; nothing "
                 "baked (a key that far from the others is most likely a damaged or mistyped "
                 "frame: fix it first)",
                 SPAN_MAX - 1);
        pki_log_sum_end(&r.too_long, log, PK_ERROR, PK_E_UNSUPPORTED, tail,
                        "%zu tracks span too many frames to bake", r.too_long.count);
        goto fail;
    }
    size_t removed = 0, added = 0;
    int rc = apply_plans(out, m, &pb, false, &removed, &added) != 0 ||
             apply_plans(out, m, &pm, true, &removed, &added) != 0 ||
             (pc.keys.n && apply_camera(out, &pc, &removed, &added) != 0);
    free(pc.keys.v);
    if (rc)
        goto oom;
    /* rewritten: a track whose records changed (a plan may keep every
     * record, as baking a baked track does) */
    for (size_t i = 0; i < pb.n; i++)
        st->bone_tracks += pb.v[i].changed;
    for (size_t i = 0; i < pm.n; i++)
        st->morph_tracks += pm.v[i].changed;
    st->camera_tracks = pc.changed;
    for (int s = 0; s < PK_SEC_COUNT; s++)
        st->keys_after[s] = pk_motion_count(out, (pk_section)s);
    plans_free(&pb);
    plans_free(&pm);
    pk_motion_free(r.s.m);
    pki_curve_cache_free(r.cache);
    free(r.s.idx);
    pk_tracks_free(tr);
    return out;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
fail:
    pki_log_sum_end(&r.too_long, log, PK_ERROR, PK_E_UNSUPPORTED, NULL,
                    "%zu tracks span too many frames to bake",
                    r.too_long.count); /* said above, unless out of memory: frees it */
    plans_free(&pb);
    plans_free(&pm);
    pk_motion_free(r.s.m);
    pki_curve_cache_free(r.cache);
    free(r.s.idx);
    pk_tracks_free(tr);
    pk_motion_free(out);
    return NULL;
}

pk_motion *pk_motion_reduce(const pk_motion *m, const pk_reduce_options *o, pk_reduce_stats *st,
                            pk_log *log)
{
    return process(m, o, st, false, log);
}

pk_motion *pk_motion_bake(const pk_motion *m, const pk_reduce_options *o, pk_reduce_stats *st,
                          pk_log *log)
{
    return process(m, o, st, true, log);
}
