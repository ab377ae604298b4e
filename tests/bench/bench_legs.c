/*
 * bench_legs.c — how many keys IK to FK (pk_motion_legs) needs, against
 * what could be enough:
 *
 *  1. the legs' drivers: for each leg (an IK bone whose chain is hip,
 *     knee, ankle; its toe IK), every bone that moves its ankle or its
 *     IK goal: the chain and the IKs, their ancestors (全ての親, センター,
 *     グルーブ, 下半身, 腰 ...), and the bones they append from (with
 *     theirs); the input's keys of those bones (each key once) are the
 *     fair denominator, and the frames they are at, per leg, the union;
 *  2. pk_motion_legs as the CLI runs it: hip, knee and ankle keys
 *     written, the ratio to the leg keys (what bake reports) and to the
 *     drivers' keys;
 *  3. keys at the union's frames only, each segment with the best curve
 *     it could have: at every frame the hip and the knee each anywhere on
 *     the great arc between the segment's end keys (what a slerp with any
 *     timing curve can reach), the two parameters chosen together for the
 *     least ankle error (free per frame and from -1 to 2: more than any
 *     Bezier curve can do); the segments where even that misses the goal,
 *     their worst;
 *  4. the keys such ideal curves would need: segments split at their
 *     worst frame until every frame is within the goal (an estimate:
 *     where a split falls is not the best place);
 *  5. a lower bound on the keys of any fit with MMD's per-key curves
 *     (none for a track the rest rotation holds throughout)
 *     (below): hips by the knee's place (within the goal), knees by the
 *     hip-to-ankle length (within the goal), ankles by the toe's place
 *     (within --toe, default PK_REDUCE_POS), and with the IK keys the
 *     output keeps (none unless a shown bone follows an IK), against the
 *     leg keys bake reports;
 *     5b. the ankles' term again with the fit's own freedoms: the shin
 *     turned up to 1 degree about its length and the toe held to the
 *     path the input's sweeps within half a frame (the toe's offset
 *     along the shin and across it, each unimodal within its band);
 *  6. the hips' forced frames (pki_leg_hip_forced, a proof): the inner
 *     frames at which every fit holding the knee within the goal and the
 *     thigh's turn about its length within 1 degree keys the hip (no arc
 *     between hips within those bounds at the frames either side passes
 *     the knee within the goal), checked against pk_motion_legs' output
 *     (it keys every one); and the bound with them: per leg the more hips
 *     of the two bounds, the knees and the ankles of 5b;
 *  7. where the keys go, leg by leg: the frames pk_motion_legs keys the
 *     hip, the knee and the ankle at, and the frames at which the input's
 *     hip and knee turn back (one frame's step more than 90 degrees from
 *     the last's: a slerp's progress never goes back, so a key near each)
 *     and its hip-to-ankle length stops growing or shrinking;
 *  8. why each key stays (a motion of at most PKI_LEG_OPTIMAL_MAX frames:
 *     pki_leg_key_why): each leg fitted by pki_leg_fit with the usual
 *     bounds, each key removed with the other two tracks as fitted: a
 *     frame off the arc between its neighbours (and by how much) or no
 *     MMD curve through the frames, and the bounds each of which lifted
 *     alone lets it go ("law": all four lifted, the ankle's goal alone).
 *
 * usage: bench_legs [--goal U] [--toe U] [--no-chords] MOTION.vmd MODEL.pmx|pmd
 */
#include "bench_util.h"
#include "math/quat.h"
#include "math/vec.h"
#include "ops/skeleton/legs_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct leg {
    int32_t ik, toe_ik, hip, knee, ankle, toe;
} leg;

typedef struct ctx {
    const pk_model *m;
    pk_rig *rig;
    size_t nb, frames, nlegs;
    leg legs[8];
    pk_bone_local *loc;  /* frames x nb: the input's locals */
    bool *on;            /* frames x nb */
    double *ref;         /* frames x legs x 3: the input's ankles */
    double (*rot)[2][4]; /* frames x legs: hip and knee local rotations, as evaluated */
    double (*base)[7];   /* frames x legs: the hip's parent world rotation, the hip's origin */
    pk_bone_local *tmp;
    pk_bone_world *w;
    bool *tmp_on;
    double goal;
    double (*knee_at)[3]; /* frames x legs: the knee less the hip, in the hip's parent frame */
    double (*toe_at)[3];  /* frames x legs: the toe less the ankle, in the knee's frame */
    double *reach;        /* frames x legs: hip to ankle */
    double (*toe_w)[3];   /* frames x legs: the toe less the ankle, world */
    double (*kinv)[4];    /* frames x legs: the knee's world rotation, inverted */
    double (*hlo)[3];     /* frames x legs: the bands of the toe's offset */
    double (*hhi)[3];     /* along the shin and across it (section 5b) */
    bool chords;          /* the lower bound tests chords too */
    pki_leg_frame *lf;    /* frames x legs: as legs.c gives them to legs_fit.c */
} ctx;

static void find_legs(ctx *c)
{
    const pk_model *m = c->m;
    for (size_t i = 0; i < m->nbones && c->nlegs < 8; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_IK) || b->nik_links != 2 || b->ik_target < 0)
            continue;
        int32_t knee = b->ik_links[0].bone, hip = b->ik_links[1].bone;
        if (knee < 0 || hip < 0 || m->bones[b->ik_target].parent != knee ||
            m->bones[knee].parent != hip)
            continue;
        leg *l = &c->legs[c->nlegs++];
        *l = (leg){(int32_t)i, -1, hip, knee, b->ik_target, -1};
    }
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if ((b->flags & PK_BONE_IK) && b->nik_links == 1)
            for (size_t k = 0; k < c->nlegs; k++)
                if (b->ik_links[0].bone == c->legs[k].ankle && c->legs[k].toe_ik < 0) {
                    c->legs[k].toe_ik = (int32_t)i;
                    c->legs[k].toe = b->ik_target;
                }
    }
}

/* Marks b, its ancestors and what they append from. */
static void mark(const pk_model *m, int32_t b, uint8_t *set)
{
    while (b >= 0 && (size_t)b < m->nbones && !set[b]) {
        set[b] = 1;
        if (m->bones[b].append_parent >= 0)
            mark(m, m->bones[b].append_parent, set);
        b = m->bones[b].parent;
    }
}

/* The model bone of a motion name (-1: none). */
static int32_t model_bone(const pk_model *m, const pk_motion *mo, pk_name_id id)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(mo->names, id, &len);
    for (size_t b = 0; b < m->nbones; b++) {
        size_t bl;
        if (m->bones[b].cp932 == PK_NO_NAME)
            continue;
        const uint8_t *br = pk_names_raw(m->names, m->bones[b].cp932, &bl);
        if (bl == len && memcmp(br, raw, len) == 0)
            return (int32_t)b;
    }
    return -1;
}

static void local_rot(const pk_bone_world *w, int32_t parent, int32_t b, double q[4])
{
    if (parent < 0) {
        memcpy(q, w[b].rot, sizeof w[b].rot);
        return;
    }
    double inv[4];
    pki_qd_conj(w[parent].rot, inv);
    pki_qd_mul(inv, w[b].rot, q);
}

static void qlog(const double q[4], double v[3])
{
    double s = q[3] < 0.0 ? -1.0 : 1.0, n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    double k = n < 1e-300 ? 0.0 : 2.0 * atan2(n, s * q[3]) / n * s;
    for (int a = 0; a < 3; a++)
        v[a] = q[a] * k;
}

static void qexp(const double v[3], double q[4])
{
    double a = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double k = a > 1e-12 ? sin(0.5 * a) / a : 0.5;
    for (int i = 0; i < 3; i++)
        q[i] = v[i] * k;
    q[3] = cos(0.5 * a);
}

/* q projected on the great arc from a to b (in the chart at a: the
 * nearest point of the line through b's log), or slerped at u when u >= 0. */
static void on_arc(const double a[4], const double b[4], const double q[4], double u, double o[4])
{
    double ia[4], d[4], vb[3], vq[3], e[4];
    pki_qd_conj(a, ia);
    pki_qd_mul(ia, b, d);
    qlog(d, vb);
    pki_qd_mul(ia, q, d);
    qlog(d, vq);
    double bb = vb[0] * vb[0] + vb[1] * vb[1] + vb[2] * vb[2];
    double t = u >= 0.0     ? u
               : bb > 1e-20 ? (vq[0] * vb[0] + vq[1] * vb[1] + vq[2] * vb[2]) / bb
                            : 0.0;
    double v[3] = {vb[0] * t, vb[1] * t, vb[2] * t};
    qexp(v, e);
    pki_qd_mul(a, e, o);
}

/* The ankle error of leg k at frame f with hip and knee given, by
 * forward kinematics from the hip's parent (the chain plain: no append,
 * no translation keys on knee and ankle). */
static double ankle_fast(const ctx *c, size_t k, size_t f, const double hip[4],
                         const double knee[4])
{
    const leg *l = &c->legs[k];
    const pk_model_bone *b = c->m->bones;
    const double *P = c->base[f * c->nlegs + k], *H = P + 4;
    double ph[4], phk[4], d1[3], d2[3], o1[3], o2[3];
    pki_qd_mul(P, hip, ph);
    pki_qd_mul(ph, knee, phk);
    for (int a = 0; a < 3; a++) {
        d1[a] = (double)b[l->knee].pos[a] - b[l->hip].pos[a];
        d2[a] = (double)b[l->ankle].pos[a] - b[l->knee].pos[a];
    }
    pki_qd_rotate(ph, d1, o1);
    pki_qd_rotate(phk, d2, o2);
    const double *r = &c->ref[(f * c->nlegs + k) * 3];
    double e = 0.0;
    for (int a = 0; a < 3; a++)
        e += (H[a] + o1[a] + o2[a] - r[a]) * (H[a] + o1[a] + o2[a] - r[a]);
    return sqrt(e);
}

/* The least ankle error of leg k at frame f with the hip anywhere on the
 * arc from ha to hb and the knee anywhere on its arc from ka to kb (each
 * slerped at its own parameter, -1 .. 2: more than a Bezier curve's 0 ..
 * 1 allows): a grid, then a pattern search. */
static double best_on_arcs(const ctx *c, size_t k, size_t f, const double ha[4], const double hb[4],
                           const double ka[4], const double kb[4])
{
    double best = INFINITY, bu = 0.0, bv = 0.0, h[4], n[4];
    for (int i = 0; i <= 30; i++)
        for (int j = 0; j <= 30; j++) {
            double u = -1.0 + 0.1 * i, v = -1.0 + 0.1 * j;
            on_arc(ha, hb, ha, u, h);
            on_arc(ka, kb, ka, v, n);
            double e = ankle_fast(c, k, f, h, n);
            if (e < best) {
                best = e;
                bu = u;
                bv = v;
            }
        }
    for (double step = 0.05; step > 1e-7; step *= 0.5) {
        bool moved = true;
        while (moved) {
            moved = false;
            static const int dirs[8][2] = {{1, 0}, {-1, 0},  {0, 1},  {0, -1},
                                           {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
            for (int d = 0; d < 8; d++) {
                double u = bu + step * dirs[d][0], v = bv + step * dirs[d][1];
                on_arc(ha, hb, ha, u, h);
                on_arc(ka, kb, ka, v, n);
                double e = ankle_fast(c, k, f, h, n);
                if (e < best) {
                    best = e;
                    bu = u;
                    bv = v;
                    moved = true;
                }
            }
        }
    }
    return best;
}

/* The ankle error of leg k at frame f with hip and knee given. */
static double ankle_err(ctx *c, size_t k, size_t f, const double hip[4], const double knee[4])
{
    const leg *l = &c->legs[k];
    memcpy(c->tmp, c->loc + f * c->nb, c->nb * sizeof *c->tmp);
    memcpy(c->tmp_on, c->on + f * c->nb, c->nb * sizeof *c->tmp_on);
    for (size_t j = 0; j < c->nlegs; j++) {
        c->tmp_on[c->legs[j].ik] = false;
        if (c->legs[j].toe_ik >= 0)
            c->tmp_on[c->legs[j].toe_ik] = false;
        for (int a = 0; a < 4; a++) {
            c->tmp[c->legs[j].hip].rot[a] = (float)c->rot[f * c->nlegs + j][0][a];
            c->tmp[c->legs[j].knee].rot[a] = (float)c->rot[f * c->nlegs + j][1][a];
        }
    }
    for (int a = 0; a < 4; a++) {
        c->tmp[l->hip].rot[a] = (float)hip[a];
        c->tmp[l->knee].rot[a] = (float)knee[a];
    }
    pk_rig_eval(c->rig, c->tmp, c->tmp_on, 0, c->w);
    const double *p = c->w[l->ankle].pos, *r = &c->ref[(f * c->nlegs + k) * 3];
    return sqrt((p[0] - r[0]) * (p[0] - r[0]) + (p[1] - r[1]) * (p[1] - r[1]) +
                (p[2] - r[2]) * (p[2] - r[2]));
}

/* The worst ankle error over a .. b of leg k with hip and knee on their
 * arcs (the best parameters for the ankle at every frame, or slerped
 * linearly when linear), and where. */
static double seg_err(ctx *c, size_t k, size_t a, size_t b, bool linear, size_t *at)
{
    double worst = 0.0;
    *at = a;
    for (size_t f = a + 1; f < b; f++) {
        double(*ra)[4] = c->rot[a * c->nlegs + k], (*rb)[4] = c->rot[b * c->nlegs + k];
        double e;
        if (linear) {
            double h[4], n[4], u = (double)(f - a) / (double)(b - a);
            on_arc(ra[0], rb[0], ra[0], u, h);
            on_arc(ra[1], rb[1], ra[1], u, n);
            e = ankle_fast(c, k, f, h, n);
        } else {
            e = best_on_arcs(c, k, f, ra[0], rb[0], ra[1], rb[1]);
        }
        if (e > worst) {
            worst = e;
            *at = f;
        }
    }
    return worst;
}

/* Key frames the ideal curves need over a .. b (b excluded). */
static size_t split(ctx *c, size_t k, size_t a, size_t b)
{
    size_t at;
    if (b <= a + 1 || seg_err(c, k, a, b, false, &at) <= c->goal)
        return 1;
    return split(c, k, a, at) + split(c, k, at, b);
}

/* ---- 5. a lower bound on the keys of any fit ----
 *
 * MMD moves a bone between two keys along the shortest great arc from one
 * key's rotation to the next, R(s) = A exp(s w) with s rising from 0 to 1
 * (a grid curve's progress never decreases) and a turn of at most 180
 * degrees.  Two consequences hold for any curve:
 *  - for fixed vectors d (in the bone's frame) and n (in its parent's),
 *    n . R(s) d = c0 + c1 cos(s t) + c2 sin(s t) with t <= pi: over one
 *    segment it has at most one turning point (it rises then falls, or
 *    falls then rises, or is monotonic);
 *  - R(s) d runs along one circle (d turned about the arc's axis): every
 *    point lies in one plane;
 *  - along that circle it turns by s t, t <= pi, so the chord from the
 *    point at any progress s0 to the point at s grows as s moves away
 *    from s0 (2 r sin(|s - s0| t / 2)): from any frame of a segment, the
 *    distances to the later frames rise and to the earlier ones rise
 *    going back.
 * A frame's value is allowed a band (the tolerance); a run of frames that
 * no single segment can follow within its bands needs a key inside.  The
 * runs are tested by necessary conditions only (a unimodal sequence
 * within the bands; four points with a slab of width 2 tol holding them;
 * chords from the run's ends and up to 24 frames between that can rise
 * within 2 tol; --no-chords leaves the chords out),
 * so the greedy segmentation below (each segment as long as the tests
 * allow, the longest runs from the left) counts at most the keys a true
 * fit needs: it is a lower bound. */

static double rest_len(const pk_model *m, int32_t a, int32_t b)
{
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = (double)m->bones[a].pos[k] - m->bones[b].pos[k];
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Is there a sequence x[i] in [lo[i], hi[i]] that rises then falls
 * (peak) or, with the values negated, falls then rises? */
static bool peak_ok(const double *lo, const double *hi, size_t n, double sgn)
{
    /* L: the first i where the lows' running maximum passes hi; R: the last
     * i where the lows' maximum from i on passes hi; a peak fits at p with
     * R < p < L */
    size_t L = n;
    double m = -INFINITY;
    for (size_t i = 0; i < n && L == n; i++) {
        double l = sgn > 0 ? lo[i] : -hi[i], h = sgn > 0 ? hi[i] : -lo[i];
        m = fmax(m, l);
        if (m > h)
            L = i;
    }
    long R = -1;
    m = -INFINITY;
    for (size_t j = n; j-- > 0 && R < 0;) {
        double l = sgn > 0 ? lo[j] : -hi[j], h = sgn > 0 ? hi[j] : -lo[j];
        m = fmax(m, l);
        if (m > h)
            R = (long)j;
    }
    return R + 1 <= (long)L - 1;
}

static bool unimodal_ok(const double *lo, const double *hi, size_t n)
{
    return peak_ok(lo, hi, n, 1.0) || peak_ok(lo, hi, n, -1.0);
}

/* The width of the thinnest slab holding four points (a face and the
 * opposite vertex, or two opposite edges). */
static double width4(const double *p[4])
{
    static const int face[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    static const int edge[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
    double best = INFINITY, u[3], v[3], n[3], w[3];
    for (int f = 0; f < 4; f++) {
        pki_v3_sub(p[face[f][1]], p[face[f][0]], u);
        pki_v3_sub(p[face[f][2]], p[face[f][0]], v);
        pki_v3_cross(u, v, n);
        double nn = sqrt(pki_v3_dot(n, n));
        if (!(nn > 1e-14 * (pki_v3_dot(u, u) + pki_v3_dot(v, v))))
            return 0.0; /* three points on a line: a plane holds all four */
        pki_v3_sub(p[face[f][3]], p[face[f][0]], w);
        best = fmin(best, fabs(pki_v3_dot(n, w)) / nn);
    }
    for (int e = 0; e < 3; e++) {
        pki_v3_sub(p[edge[e][1]], p[edge[e][0]], u);
        pki_v3_sub(p[edge[e][3]], p[edge[e][2]], v);
        pki_v3_cross(u, v, n);
        double nn = sqrt(pki_v3_dot(n, n));
        if (!(nn > 1e-14 * (pki_v3_dot(u, u) + pki_v3_dot(v, v))))
            continue; /* parallel edges: the faces' heights bound it */
        pki_v3_sub(p[edge[e][2]], p[edge[e][0]], w);
        best = fmin(best, fabs(pki_v3_dot(n, w)) / nn);
    }
    return best;
}

/* Along one arc of at most 180 degrees the chord from any of its points
 * grows with the progress away from it: from frame j (a <= j <= b) the
 * distances to the frames after it (and, backwards, before it) must be
 * able to rise (fall), each within 2 tol of its measured value. */
/* The chord from frame j to the n frames after it (step 1) or before it
 * (step -1) can rise with each, each within 2 tol of its measured value. */
static bool chords_rise(double (*x)[3], size_t stride, size_t j, size_t n, int step, double tol)
{
    double hi = -INFINITY;
    for (size_t k = 1; k <= n; k++) {
        size_t i = step > 0 ? j + k : j - k;
        double d[3];
        pki_v3_sub(x[i * stride], x[j * stride], d);
        double c = sqrt(pki_v3_dot(d, d));
        if (hi > c + 2.0 * tol)
            return false;
        hi = fmax(hi, c - 2.0 * tol);
    }
    return true;
}

static bool chords_ok(double (*x)[3], size_t stride, size_t a, size_t b, size_t j, double tol)
{
    return chords_rise(x, stride, j, b - j, 1, tol) && chords_rise(x, stride, j, j - a, -1, tol);
}

/* Can one arc follow the points x[a..b] (each within tol): every
 * coordinate unimodal within +-tol, and the end points with any two
 * points between them (up to 24, spread) in a slab 2 tol wide. */
static bool arc_ok(double (*x)[3], size_t stride, size_t a, size_t b, double tol, bool chords,
                   double *lo, double *hi)
{
    size_t n = b - a + 1;
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < n; i++) {
            lo[i] = x[(a + i) * stride][k] - tol;
            hi[i] = x[(a + i) * stride][k] + tol;
        }
        if (!unimodal_ok(lo, hi, n))
            return false;
    }
    size_t pick[24], np = 0, inner = n > 2 ? n - 2 : 0;
    for (size_t i = 0; i < inner && np < 24; i++)
        pick[np++] = inner <= 24 ? a + 1 + i : a + 1 + i * inner / 24;
    if (chords && (!chords_ok(x, stride, a, b, a, tol) || !chords_ok(x, stride, a, b, b, tol)))
        return false;
    for (size_t i = 0; chords && i < np; i++)
        if (!chords_ok(x, stride, a, b, pick[i], tol))
            return false;
    for (size_t i = 0; i < np; i++)
        for (size_t j = i + 1; j < np; j++) {
            const double *p[4] = {x[a * stride], x[pick[i] * stride], x[pick[j] * stride],
                                  x[b * stride]};
            if (width4(p) > 2.0 * tol)
                return false;
        }
    return true;
}

/* The hip-to-ankle length of the knee's run a..b: unimodal within the
 * lengths that keep the ankle within goal (in d1 . R d2, which a knee key
 * pair moves as a sinusoid). */
static bool reach_ok(const ctx *c, size_t k, size_t a, size_t b, double *lo, double *hi)
{
    const leg *l = &c->legs[k];
    double l1 = rest_len(c->m, l->hip, l->knee), l2 = rest_len(c->m, l->knee, l->ankle);
    double base = l1 * l1 + l2 * l2;
    for (size_t i = 0; i <= b - a; i++) {
        double d = c->reach[(a + i) * c->nlegs + k], dl = fmax(d - c->goal, 0.0), dh = d + c->goal;
        lo[i] = (dl * dl - base) / 2.0;
        hi[i] = (dh * dh - base) / 2.0;
    }
    return unimodal_ok(lo, hi, b - a + 1);
}

/* The axes of leg l's knee frame: e[0] along the shin, e[1] and e[2]
 * across it. */
static void shin_axes(const ctx *c, const leg *l, double e[3][3])
{
    const pk_model_bone *mb = c->m->bones;
    for (int i = 0; i < 3; i++)
        e[0][i] = (double)mb[l->ankle].pos[i] - mb[l->knee].pos[i];
    double n = sqrt(pki_v3_dot(e[0], e[0])), h[3] = {1.0, 0.0, 0.0};
    for (int i = 0; i < 3; i++)
        e[0][i] /= n;
    if (fabs(e[0][0]) > 0.9)
        h[0] = 0.0, h[1] = 1.0;
    pki_v3_cross(e[0], h, e[1]);
    n = sqrt(pki_v3_dot(e[1], e[1]));
    for (int i = 0; i < 3; i++)
        e[1][i] /= n;
    pki_v3_cross(e[0], e[1], e[2]);
}

/* The 足首 run a..b: the toe's offset along and across the shin, each
 * unimodal within its frame's band (n . R(s) d3 along one arc is c0 +
 * c1 cos + c2 sin: one turn at most). */
static bool height_ok(const ctx *c, size_t k, size_t a, size_t b, double *lo, double *hi)
{
    for (int j = 0; j < 3; j++) {
        for (size_t i = 0; i <= b - a; i++) {
            lo[i] = c->hlo[(a + i) * c->nlegs + k][j];
            hi[i] = c->hhi[(a + i) * c->nlegs + k][j];
        }
        if (!unimodal_ok(lo, hi, b - a + 1))
            return false;
    }
    return true;
}

/* Each frame's bands of the toe's offset (in the input knee's frame)
 * along the shin and across it that any fit within the criteria keeps
 * the 足首 to, the shin's turn about its own length within twist_deg:
 * the toe's offset within tol of the path the input's sweeps within
 * `lag` of a frame (legs_fit.c's toe_lag), the shin's direction within
 * 2 goals over its length of the input's (the knee and the ankle each
 * within the goal) moving the offset by at most |d3| times that angle,
 * and the turn about the shin moving it across the shin only, by at
 * most |d3| times twist_deg. */
static void height_bands(ctx *c, double tol, double lag, double twist_deg)
{
    for (size_t k = 0; k < c->nlegs; k++) {
        const leg *l = &c->legs[k];
        if (l->toe < 0)
            continue;
        double e[3][3];
        shin_axes(c, l, e);
        double d3 = rest_len(c->m, l->ankle, l->toe), d2 = rest_len(c->m, l->knee, l->ankle);
        double turn = asin(fmin(1.0, 2.0 * c->goal / d2));
        double w[3] = {tol + d3 * turn,
                       tol + d3 * (turn + twist_deg * (3.14159265358979323846 / 180.0)), 0.0};
        w[2] = w[1];
        for (size_t f = 0; f < c->frames; f++) {
            size_t at = f * c->nlegs + k;
            double lo[3], hi[3];
            for (int j = 0; j < 3; j++)
                lo[j] = hi[j] = pki_v3_dot(e[j], c->toe_at[at]);
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                if ((sgn < 0 && f == 0) || (sgn > 0 && f + 1 >= c->frames))
                    continue;
                size_t g = (size_t)((ptrdiff_t)f + sgn) * c->nlegs + k;
                double v[3], x[3];
                for (int i = 0; i < 3; i++)
                    v[i] = c->toe_w[at][i] + lag * (c->toe_w[g][i] - c->toe_w[at][i]);
                pki_qd_rotate(c->kinv[at], v, x);
                for (int j = 0; j < 3; j++) {
                    lo[j] = fmin(lo[j], pki_v3_dot(e[j], x));
                    hi[j] = fmax(hi[j], pki_v3_dot(e[j], x));
                }
            }
            for (int j = 0; j < 3; j++) {
                c->hlo[at][j] = lo[j] - w[j];
                c->hhi[at][j] = hi[j] + w[j];
            }
        }
    }
}

/* Keys a track needs at least over frames 0..frames-1: greedy segments
 * (each as long as the test allows), one key more than segments. */
static size_t bound_keys(const ctx *c, size_t k, int what, double tol)
{
    /* no key at all: the rest rotation holds every frame */
    const leg *l = &c->legs[k];
    const pk_model_bone *mb = c->m->bones;
    bool rest = true;
    for (size_t f = 0; f < c->frames && rest; f++) {
        size_t at = f * c->nlegs + k;
        double d[3];
        if (what == 1) {
            rest = fabs(c->reach[at] - rest_len(c->m, l->hip, l->ankle)) <= c->goal;
            continue;
        }
        if (what == 3) {
            double e[3][3];
            shin_axes(c, l, e);
            for (int i = 0; i < 3; i++)
                d[i] = (double)mb[l->toe].pos[i] - mb[l->ankle].pos[i];
            for (int j = 0; j < 3 && rest; j++)
                rest = c->hlo[at][j] <= pki_v3_dot(e[j], d) && pki_v3_dot(e[j], d) <= c->hhi[at][j];
            continue;
        }
        int32_t from = what == 0 ? l->hip : l->ankle, to = what == 0 ? l->knee : l->toe;
        const double *x = what == 0 ? c->knee_at[at] : c->toe_at[at];
        for (int i = 0; i < 3; i++)
            d[i] = x[i] - ((double)mb[to].pos[i] - mb[from].pos[i]);
        rest = sqrt(pki_v3_dot(d, d)) <= tol;
    }
    if (rest)
        return 0;
    double *lo = calloc(c->frames + 1, sizeof *lo), *hi = calloc(c->frames + 1, sizeof *hi);
    size_t segs = 0, a = 0;
    while (a + 1 < c->frames) {
        size_t b = a + 1;
        while (b + 1 < c->frames) {
            bool ok = what == 0 ? arc_ok(c->knee_at + k, c->nlegs, a, b + 1, tol, c->chords, lo, hi)
                      : what == 1 ? reach_ok(c, k, a, b + 1, lo, hi)
                      : what == 3
                          ? height_ok(c, k, a, b + 1, lo, hi)
                          : arc_ok(c->toe_at + k, c->nlegs, a, b + 1, tol, c->chords, lo, hi);
            if (!ok)
                break;
            b++;
        }
        segs++;
        a = b;
    }
    free(lo);
    free(hi);
    /* K keys make K - 1 arcs and two holds (before the first key, after
     * the last) */
    return segs > 2 ? segs - 1 : 1;
}

/* ---- 6. the hips' forced frames (pki_leg_hip_forced, legs_fit.h) ----
 * Leg k's frames as legs_fit.c sees them, as far as the proof asks: the
 * hip's parent's rotation and the hip's origin, the thigh, the knee and
 * the hip's local rotation; *unkeyed gets the forced frames out (when
 * not NULL) does not key the hip at. */
static size_t hip_forced_frames(const ctx *c, size_t k, double twist_deg, size_t *open,
                                const pk_motion *out, size_t *unkeyed)
{
    const leg *l = &c->legs[k];
    pki_leg_frame *fr = calloc(c->frames, sizeof *fr);
    if (!fr)
        return 0;
    for (size_t f = 0; f < c->frames; f++) {
        size_t at = f * c->nlegs + k;
        const double *P = c->base[at];
        double x[3];
        memcpy(fr[f].parent, P, sizeof fr[f].parent);
        memcpy(fr[f].hip, P + 4, sizeof fr[f].hip);
        for (int a = 0; a < 3; a++)
            fr[f].d1[a] = (double)c->m->bones[l->knee].pos[a] - c->m->bones[l->hip].pos[a];
        pki_qd_rotate(P, c->knee_at[at], x);
        for (int a = 0; a < 3; a++)
            fr[f].knee[a] = P[4 + a] + x[a];
        memcpy(fr[f].q[0], c->rot[at][0], sizeof fr[f].q[0]);
    }
    bool *at = calloc(c->frames, sizeof *at), *keyed = calloc(c->frames, sizeof *keyed);
    size_t n = at && keyed ? pki_leg_hip_forced(fr, c->frames, c->goal, twist_deg, open, at) : 0;
    /* pk_motion_legs' output holds the same criteria (its knees within
     * 0.95 goals, its thighs' turn within 1 deg): a forced frame it does
     * not key would disprove the bound */
    for (size_t i = 0; out && at && keyed && i < out->nbones; i++)
        if (model_bone(c->m, out, out->bones[i].name) == l->hip && out->bones[i].frame < c->frames)
            keyed[out->bones[i].frame] = true;
    for (size_t f = 0; out && at && keyed && f < c->frames; f++)
        *unkeyed += at[f] && !keyed[f];
    free(at);
    free(keyed);
    free(fr);
    return n;
}

/* ---- 7. where the keys go ----
 * Whether frame f's step of local rotation r (bone j of leg k) turns
 * back: more than 90 degrees from the step before it (both steps'
 * turns compared as rotation vectors). */
static bool turns_back(const ctx *c, size_t k, int j, size_t f)
{
    double s[2][3];
    for (int i = 0; i < 2; i++) {
        const double *p = c->rot[(f - 1 + (size_t)i) * c->nlegs + k][j];
        const double *q = c->rot[(f + (size_t)i) * c->nlegs + k][j];
        double pi[4], d[4];
        pki_qd_conj(p, pi);
        pki_qd_mul(pi, q, d);
        qlog(d, s[i]);
    }
    return pki_v3_dot(s[0], s[1]) < 0.0;
}

/* Leg k: the frames out keys its hip, knee and ankle at, and the frames
 * the input's hip and knee turn back at and its reach turns at. */
static void keys_and_turns(const ctx *c, size_t k, const pk_motion *out)
{
    const leg *l = &c->legs[k];
    static const char *const what[3] = {"hip", "knee", "ankle"};
    const int32_t bone[3] = {l->hip, l->knee, l->ankle};
    printf("leg %zu:", k);
    for (int j = 0; j < 3; j++) {
        size_t nk = 0;
        printf("%s %s keys at", j ? ";" : "", what[j]);
        for (size_t i = 0; out && i < out->nbones; i++)
            if (model_bone(c->m, out, out->bones[i].name) == bone[j]) {
                printf(" %u", (unsigned)out->bones[i].frame);
                nk++;
            }
        printf("%s", nk ? "" : " none");
    }
    for (int j = 0; j < 2; j++) {
        size_t nt = 0;
        printf("; the input's %s turns back at", what[j]);
        for (size_t f = 1; f + 1 < c->frames; f++)
            if (turns_back(c, k, j, f)) {
                printf(" %zu", f);
                nt++;
            }
        printf("%s", nt ? "" : " none");
    }
    size_t nr = 0;
    printf("; its reach turns at");
    for (size_t f = 1; f + 1 < c->frames; f++) {
        double a = c->reach[(f - 1) * c->nlegs + k], b = c->reach[f * c->nlegs + k];
        double d = c->reach[(f + 1) * c->nlegs + k];
        if ((b - a) * (d - b) < 0.0 && fabs(d - a) > 1e-6) {
            printf(" %zu", f);
            nr++;
        }
    }
    printf("%s\n", nr ? "" : " none");
}

/* ---- 8. why each key stays ----
 * Leg k at the evaluated frame (c->w) as legs.c's leg_frames gives it to
 * legs_fit.c. */
static void leg_frame(const ctx *c, size_t k, pki_leg_frame *lf)
{
    const leg *l = &c->legs[k];
    const pk_bone_world *w = c->w;
    int32_t p = c->m->bones[l->hip].parent;
    static const double id[4] = {0.0, 0.0, 0.0, 1.0};
    memcpy(lf->parent, p >= 0 ? w[p].rot : id, sizeof lf->parent);
    memcpy(lf->hip, w[l->hip].pos, sizeof lf->hip);
    memcpy(lf->knee, w[l->knee].pos, sizeof lf->knee);
    memcpy(lf->ankle, w[l->ankle].pos, sizeof lf->ankle);
    memcpy(lf->foot, w[l->ankle].rot, sizeof lf->foot);
    const int32_t from[3] = {l->hip, l->knee, l->ankle}, to[3] = {l->knee, l->ankle, l->toe};
    double *d[3] = {lf->d1, lf->d2, lf->d3};
    for (int j = 0; j < 3; j++) {
        double inv[4], v[3];
        if (to[j] < 0)
            continue;
        pki_qd_conj(w[from[j]].rot, inv);
        pki_v3_sub(w[to[j]].pos, w[from[j]].pos, v);
        pki_qd_rotate(inv, v, d[j]);
    }
    local_rot(w, p, l->hip, lf->q[0]);
    local_rot(w, l->hip, l->knee, lf->q[1]);
    local_rot(w, l->knee, l->ankle, lf->q[2]);
}

/* Leg k fitted with legs.c's usual bounds, and why each of its keys
 * stays (pki_leg_key_why). */
static void keys_why(const ctx *c, size_t k, double toe_tol)
{
    pki_leg_frame *fr = calloc(c->frames, sizeof *fr);
    if (!fr)
        return;
    for (size_t f = 0; f < c->frames; f++)
        fr[f] = c->lf[f * c->nlegs + k];
    /* legs.c's: the ankle and the knee within 0.95 of the goal, the reach
     * 0.7, the bend 1, the thigh's and shin's turn 1 degree */
    pki_leg_tols t = {.ankle = 0.95 * c->goal,
                      .knee = 0.95 * c->goal,
                      .reach = 0.7 * c->goal,
                      .bend = c->goal,
                      .toe = toe_tol,
                      .roll_deg = PK_REDUCE_DEG,
                      .twist_deg = 1.0,
                      .toe_lag = 0.5,
                      .has_toe = c->legs[k].toe >= 0};
    pki_leg_track tr[3];
    if (!pki_leg_fit(fr, c->frames, &t, tr)) {
        free(fr);
        return;
    }
    static const char *bone[3] = {"hip", "knee", "ankle"};
    static const char *lift[5] = {"knee", "twist", "toe", "roll", "law"};
    printf("leg %zu, why each key stays (fitted with the usual bounds: %zu keys; removed, the "
           "others as fitted):\n",
           k, tr[0].n + tr[1].n + tr[2].n);
    for (int j = 0; j < 3; j++)
        for (size_t i = 0; i < tr[j].n; i++) {
            pki_leg_why y;
            if (!pki_leg_key_why(fr, c->frames, &t, c->goal, tr, j, i, &y))
                continue;
            printf("  %s %u: ", bone[j], tr[j].keys[i].frame);
            if (y.how == 0)
                printf("goes");
            else if (y.how == 1)
                printf("frame %u off, %.2f bounds", y.frame, y.off);
            else
                printf("no curve");
            printf("; goes with lifted:");
            for (int b = 0; b < 5; b++)
                if (y.goes & (1u << b))
                    printf(" %s", lift[b]);
            printf(y.goes ? "\n" : " none\n");
        }
    for (int j = 0; j < 3; j++)
        free(tr[j].keys);
    free(fr);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t count_below(const double *v, size_t n, double lim)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += v[i] <= lim;
    return k;
}

int main(int argc, char **argv)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.goal = PK_LEGS_GOAL;
    c.chords = true;
    double toe_tol = PK_REDUCE_POS;
    int i = 1;
    while (i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-') {
        if (strcmp(argv[i], "--goal") == 0)
            c.goal = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--no-chords") == 0) {
            c.chords = false;
            i--;
        } else if (strcmp(argv[i], "--toe") == 0)
            toe_tol = atof(argv[i + 1]);
        else
            break;
        i += 2;
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: bench_legs [--goal U] [--toe U] [--no-chords] MOTION.vmd MODEL\n");
        return 2;
    }
    pk_log log;
    pk_log_init(&log);
    pk_bytes by;
    if (pk_file_read(argv[i], &by, &log) != 0)
        return 2;
    pk_motion *mo = pk_vmd_read(by.data, by.len, &log);
    pk_bytes_free(&by);
    pk_model *m = pk_model_load(argv[i + 1], &log);
    if (!mo || !m) {
        fprintf(stderr, "bench_legs: cannot read the inputs\n");
        return 2;
    }
    c.m = m;
    c.nb = m->nbones;
    find_legs(&c);
    uint32_t last = 0;
    for (size_t k = 0; k < mo->nbones; k++)
        last = mo->bones[k].frame > last ? mo->bones[k].frame : last;
    for (size_t k = 0; k < mo->niks; k++)
        last = mo->iks[k].frame > last ? mo->iks[k].frame : last;
    c.frames = (size_t)last + 1;
    c.rig = pk_rig_new(m, &log);
    pk_tracks *t = pk_tracks_build(mo, &log);
    c.loc = calloc(c.frames * c.nb, sizeof *c.loc);
    c.on = calloc(c.frames * c.nb, sizeof *c.on);
    c.ref = calloc(c.frames * c.nlegs * 3, sizeof *c.ref);
    c.rot = calloc(c.frames * c.nlegs, sizeof *c.rot);
    c.base = calloc(c.frames * c.nlegs, sizeof *c.base);
    c.tmp = calloc(c.nb, sizeof *c.tmp);
    c.tmp_on = calloc(c.nb, sizeof *c.tmp_on);
    c.w = calloc(c.nb, sizeof *c.w);
    c.knee_at = calloc(c.frames * c.nlegs, sizeof *c.knee_at);
    c.toe_at = calloc(c.frames * c.nlegs, sizeof *c.toe_at);
    c.reach = calloc(c.frames * c.nlegs, sizeof *c.reach);
    c.toe_w = calloc(c.frames * c.nlegs, sizeof *c.toe_w);
    c.kinv = calloc(c.frames * c.nlegs, sizeof *c.kinv);
    c.hlo = calloc(c.frames * c.nlegs, sizeof *c.hlo);
    c.hhi = calloc(c.frames * c.nlegs, sizeof *c.hhi);
    if (c.frames <= PKI_LEG_OPTIMAL_MAX)
        c.lf = calloc(c.frames * c.nlegs, sizeof *c.lf);
    for (size_t f = 0; f < c.frames; f++) {
        pk_rig_motion_local(c.rig, mo, t, (double)f, c.loc + f * c.nb, c.on + f * c.nb);
        pk_rig_eval(c.rig, c.loc + f * c.nb, c.on + f * c.nb, 0, c.w);
        for (size_t k = 0; k < c.nlegs; k++) {
            const leg *l = &c.legs[k];
            memcpy(&c.ref[(f * c.nlegs + k) * 3], c.w[l->ankle].pos, 3 * sizeof(double));
            double(*r)[4] = c.rot[f * c.nlegs + k];
            local_rot(c.w, m->bones[l->hip].parent, l->hip, r[0]);
            double *P = c.base[f * c.nlegs + k];
            memcpy(P, c.w[m->bones[l->hip].parent].rot, 4 * sizeof(double));
            memcpy(P + 4, c.w[l->hip].pos, 3 * sizeof(double));
            local_rot(c.w, l->hip, l->knee, r[1]);
            {
                double inv[4], d[3];
                size_t at = f * c.nlegs + k;
                pki_qd_conj(P, inv);
                pki_v3_sub(c.w[l->knee].pos, c.w[l->hip].pos, d);
                pki_qd_rotate(inv, d, c.knee_at[at]);
                pki_v3_sub(c.w[l->ankle].pos, c.w[l->hip].pos, d);
                c.reach[at] = sqrt(pki_v3_dot(d, d));
                if (l->toe >= 0) {
                    pki_qd_conj(c.w[l->knee].rot, inv);
                    pki_v3_sub(c.w[l->toe].pos, c.w[l->ankle].pos, d);
                    pki_qd_rotate(inv, d, c.toe_at[at]);
                    memcpy(c.toe_w[at], d, sizeof c.toe_w[at]);
                    memcpy(c.kinv[at], inv, sizeof c.kinv[at]);
                }
            }
            if (c.lf)
                leg_frame(&c, k, &c.lf[f * c.nlegs + k]);
            for (int j = 0; j < 2 && f; j++) {
                const double *p = c.rot[(f - 1) * c.nlegs + k][j];
                if (p[0] * r[j][0] + p[1] * r[j][1] + p[2] * r[j][2] + p[3] * r[j][3] < 0)
                    for (int a = 0; a < 4; a++)
                        r[j][a] = -r[j][a];
            }
        }
    }
    /* the dense rotations with the IKs off give the input's ankles back */
    double self = 0.0;
    for (size_t f = 0; f < c.frames; f++)
        for (size_t k = 0; k < c.nlegs; k++)
            self = fmax(
                self,
                fmax(ankle_err(&c, k, f, c.rot[f * c.nlegs + k][0], c.rot[f * c.nlegs + k][1]),
                     ankle_fast(&c, k, f, c.rot[f * c.nlegs + k][0], c.rot[f * c.nlegs + k][1])));
    printf("the evaluated hips and knees with the IKs off: ankles within %.2g of the input's\n",
           self);
    /* 1. drivers */
    uint8_t *any = calloc(c.nb, 1), (*drv)[512] = calloc(c.nlegs, sizeof *drv);
    uint8_t *chain = calloc(c.nb, 1);
    for (size_t k = 0; k < c.nlegs; k++) {
        const leg *l = &c.legs[k];
        uint8_t *set = calloc(c.nb, 1);
        mark(m, l->ankle, set);
        mark(m, l->ik, set);
        if (l->toe_ik >= 0)
            mark(m, l->toe_ik, set);
        for (size_t b = 0; b < c.nb && b < 512; b++) {
            drv[k][b] = set[b];
            any[b] |= set[b];
        }
        free(set);
        chain[l->hip] = chain[l->knee] = chain[l->ankle] = chain[l->ik] = 1;
        if (l->toe_ik >= 0)
            chain[l->toe_ik] = 1;
    }
    uint8_t *keyed = calloc(c.frames * c.nlegs, 1);
    size_t drv_keys = 0, leg_keys = 0, per_bone[512] = {0};
    for (size_t k = 0; k < mo->nbones; k++) {
        int32_t b = model_bone(m, mo, mo->bones[k].name);
        if (b < 0 || b >= 512)
            continue;
        drv_keys += any[b];
        leg_keys += chain[b];
        per_bone[b] += any[b];
        for (size_t j = 0; j < c.nlegs; j++)
            if (drv[j][b])
                keyed[mo->bones[k].frame * c.nlegs + j] = 1;
    }
    printf("legs: %zu; frames 0-%u\n", c.nlegs, last);
    printf("drivers' keys in the input (each key once): %zu; of which the legs' own bones "
           "(hip, knee, ankle, leg and toe IK): %zu\n  by bone:",
           drv_keys, leg_keys);
    for (size_t b = 0; b < c.nb && b < 512; b++)
        if (per_bone[b])
            printf(" %s %zu;", m->bones[b].name, per_bone[b]);
    printf("\n");
    /* 2. pk_motion_legs */
    pk_legs_options o;
    pk_legs_options_init(&o);
    o.goal = c.goal;
    pk_legs_stats st;
    double t0 = bench_cpu_now();
    pk_motion *out = pk_motion_legs(mo, m, &o, &st, &log);
    double dt = bench_cpu_now() - t0;
    size_t hips = 0, knees = 0, ank = 0, ik_kept = 0;
    for (size_t k = 0; out && k < out->nbones; k++) {
        int32_t b = model_bone(m, out, out->bones[k].name);
        for (size_t j = 0; j < c.nlegs && b >= 0; j++) {
            hips += b == c.legs[j].hip;
            knees += b == c.legs[j].knee;
            ank += b == c.legs[j].ankle;
            ik_kept += b == c.legs[j].ik || b == c.legs[j].toe_ik;
        }
    }
    size_t hk = hips + knees;
    printf("pk_motion_legs (goal %g, %.2f s CPU): leg keys %zu -> %zu (%.2f x; %.2f x the "
           "drivers' keys): hips %zu, knees %zu, ankles %zu, the IKs' own keys kept %zu; worst "
           "ankle %.6f; fitted to hold ankles and knees within %.4g units, the hip-to-ankle "
           "reach %.4g; %zu fits\n",
           c.goal, dt, st.keys_before, st.keys_after,
           (double)st.keys_after / (double)(st.keys_before ? st.keys_before : 1),
           (double)st.keys_after / (double)(drv_keys ? drv_keys : 1), hips, knees, ank, ik_kept,
           st.worst, st.tol[0], st.tol[1], st.tries);
    /* 3, 4: the union's frames with ideal and linear curves */
    size_t union_frames = 0, ideal = 0, segs = 0, miss = 0, miss_lin = 0;
    double worst = 0.0, worst_lin = 0.0;
    size_t worst_at = 0, worst_len = 0;
    double *seg = calloc(c.frames * c.nlegs + 1, sizeof *seg);
    for (size_t k = 0; k < c.nlegs; k++) {
        size_t a = 0;
        keyed[k] = 1;
        keyed[(c.frames - 1) * c.nlegs + k] = 1;
        for (size_t f = 1; f < c.frames; f++) {
            if (!keyed[f * c.nlegs + k])
                continue;
            size_t at, at2;
            double e = seg_err(&c, k, a, f, false, &at), el = seg_err(&c, k, a, f, true, &at2);
            seg[segs++] = e;
            miss += e > c.goal;
            miss_lin += el > c.goal;
            worst_lin = fmax(worst_lin, el);
            if (e > worst) {
                worst = e;
                worst_at = at;
                worst_len = f - a;
            }
            ideal += split(&c, k, a, f);
            a = f;
        }
        for (size_t f = 0; f < c.frames; f++)
            union_frames += keyed[f * c.nlegs + k];
    }
    printf("union of the drivers' frames: %zu key frames over %zu legs (%zu segments); hip and "
           "knee keys there: %zu\n",
           union_frames, c.nlegs, segs, 2 * union_frames);
    printf("  linear slerp between them: %zu segments miss %g, worst %.4f\n", miss_lin, c.goal,
           worst_lin);
    printf("  ideal timing (each frame on the arc): %zu segments miss %g, worst %.4f (frame %zu, "
           "a %zu-frame segment)\n",
           miss, c.goal, worst, worst_at, worst_len);
    qsort(seg, segs, sizeof *seg, by_value);
    printf("  their worst frames: median %.4f, 90th percentile %.4f; segments within 0.01: %zu, "
           "within 0.05: %zu\n",
           segs ? seg[segs / 2] : 0.0, segs ? seg[segs * 9 / 10] : 0.0,
           count_below(seg, segs, 0.01), count_below(seg, segs, 0.05));
    free(seg);
    printf("  ideal curves, segments split until within %g: %zu key frames, hip and knee keys "
           "%zu (%.2f x the pk_motion_legs hips and knees %zu)\n",
           c.goal, ideal + c.nlegs, 2 * (ideal + c.nlegs),
           (double)(2 * (ideal + c.nlegs)) / (double)(hk ? hk : 1), hk);
    printf("  so hips, knees and ankles at those frames: %zu keys, %.2f x the leg keys %zu, %.2f x "
           "the drivers' keys %zu\n",
           3 * (ideal + c.nlegs), (double)(3 * (ideal + c.nlegs)) / (double)st.keys_before,
           st.keys_before, (double)(3 * (ideal + c.nlegs)) / (double)drv_keys, drv_keys);
    /* 5. the lower bound */
    size_t lb[3] = {0, 0, 0}, lbh[8] = {0};
    for (size_t k = 0; k < c.nlegs; k++) {
        lbh[k] = bound_keys(&c, k, 0, c.goal);
        lb[0] += lbh[k];
        lb[1] += bound_keys(&c, k, 1, c.goal);
        if (c.legs[k].toe >= 0)
            lb[2] += bound_keys(&c, k, 2, toe_tol);
    }
    size_t ik_keys = ik_kept;
    size_t lb_all = lb[0] + lb[1] + lb[2];
    printf("lower bound, any fit (keys MMD's arcs need): hips %zu (knees within %g), knees %zu "
           "(ankles within %g), ankles %zu (toes within %g): %zu; with the %zu leg and toe IK "
           "keys the output keeps: %zu = %.2f x the leg keys %zu (1.5 x = %.0f); pk_motion_legs "
           "wrote %zu\n",
           lb[0], c.goal, lb[1], c.goal, lb[2], toe_tol, lb_all, ik_keys, lb_all + ik_keys,
           (double)(lb_all + ik_keys) / (double)(st.keys_before ? st.keys_before : 1),
           st.keys_before, 1.5 * (double)st.keys_before, st.keys_after);
    /* 5b. the ankles' term with the criteria's own freedoms: the shin
     * turned about its length (1 degree) and the toe's half frame */
    height_bands(&c, toe_tol, 0.5, 1.0);
    size_t lb3 = 0;
    for (size_t k = 0; k < c.nlegs; k++)
        if (c.legs[k].toe >= 0)
            lb3 += bound_keys(&c, k, 3, toe_tol);
    printf("  ankles with the shin turned up to 1 deg about its length and the toe half a frame "
           "early or late (the toe's offset along the shin and across it, each unimodal within "
           "its band): %zu; with the hips and knees: %zu = %.2f x the leg keys %zu\n",
           lb3, lb[0] + lb[1] + lb3 + ik_keys,
           (double)(lb[0] + lb[1] + lb3 + ik_keys) / (double)(st.keys_before ? st.keys_before : 1),
           st.keys_before);
    /* 6. the hips' forced frames, and the bound with them: per leg the
     * more hips of the two bounds (each bounds the same track's keys) */
    size_t floor_h = 0, open_h = 0, hips_best = 0, unkeyed = 0;
    for (size_t k = 0; k < c.nlegs; k++) {
        size_t open = 0, fh = hip_forced_frames(&c, k, 1.0, &open, out, &unkeyed);
        floor_h += fh;
        open_h += open;
        hips_best += fh > lbh[k] ? fh : lbh[k];
    }
    size_t lb6 = hips_best + lb[1] + lb3 + ik_keys;
    printf("hips' forced frames (inner frames no hip arc between the frames either side reaches "
           "with every knee within %g and the thigh's turn within 1 deg: a key each in any such "
           "fit, proven): %zu (%zu undecided, not counted); pk_motion_legs wrote %zu hips, keying "
           "all but %zu of those frames (0: the bound stands against the fit)\n",
           c.goal, floor_h, open_h, hips, unkeyed);
    printf("  bound with them (per leg the more hips), the knees and the ankles of 5b: %zu = %.2f "
           "x the leg keys %zu (1.5 x = %.0f)\n",
           lb6, (double)lb6 / (double)(st.keys_before ? st.keys_before : 1), st.keys_before,
           1.5 * (double)st.keys_before);
    /* 7. where the keys go */
    for (size_t k = 0; k < c.nlegs; k++)
        keys_and_turns(&c, k, out);
    /* 8. why each key stays */
    for (size_t k = 0; c.lf && k < c.nlegs; k++)
        keys_why(&c, k, toe_tol);
    free(c.lf);
    free(c.knee_at);
    free(c.toe_at);
    free(c.reach);
    free(c.toe_w);
    free(c.kinv);
    free(c.hlo);
    free(c.hhi);
    free(any);
    free(drv);
    free(chain);
    free(keyed);
    pk_motion_free(out);
    pk_tracks_free(t);
    pk_rig_free(c.rig);
    free(c.loc);
    free(c.on);
    free(c.ref);
    free(c.rot);
    free(c.base);
    free(c.tmp);
    free(c.tmp_on);
    free(c.w);
    pk_model_free(m);
    pk_motion_free(mo);
    pk_log_free(&log);
    return 0;
}
