/*
 * sizing_body.c — the body steps of a sizing (sizing_body.h), run on B
 * after stance and scale and before the arm steps (sizing.c), with both
 * models played by the engine's evaluator (MMD's IK, appends) at every
 * frame.  A is the model the motion was made for, B the one it is sized
 * for; s_xz and s_y the retarget's scale (B's leg over A's).
 *
 * Centre of gravity.  A model's centre of gravity is the mass-weighted
 * mean of its segments' centres, with the mass fractions of Winter's
 * table (Dempster's cadavers): head and neck 8.1% at 頭 plus one rest
 * 首->頭 length along 頭's frame (the skull's middle), thorax and abdomen
 * 35.5% halfway 上半身->首, pelvis 14.2% halfway between 下半身 and the
 * hips (足), and per side upper arm 2.8% (腕->ひじ), forearm 1.6%
 * (ひじ->手首), hand 0.6% (手首), thigh 10% (足->ひざ), shank 4.65%
 * (ひざ->足首), foot 1.45% (足首->つま先), each halfway along; a segment
 * the model lacks is left out and the rest renormalised.  The models'
 * rigid bodies are not used: their masses are set for the physics
 * engine's stability, not for the body.  The feet's point F is the mean
 * of the ankles (足首).  The ground offset of the centre of gravity G
 * from F, less its offset at rest turned by the body's heading (the yaw
 * of 下半身's world X axis), is on B that of A times B's leg over A's
 * (s_xz but where dancers share one XZ scale): the centre step
 * moves センター across the floor by the difference over the share of a
 * move the centre of gravity follows (0.8 at first: all but the legs,
 * about half the thighs; then per frame what the last round showed,
 * 0.5 to 1.2; a move that made it worse is half taken back), at most 10%
 * of B's leg a round and smoothed (the first round over 2 frames either
 * side, the later ones over one), up to 10 rounds, each played again,
 * until every frame is within 0.5% of B's leg; a frame the rounds left
 * more than 2% of B's leg off and four times worse than the best they
 * met (a leg's IK turned over) gets センター's place of that best back.
 * After the rounds, where a planted foot pulls the hips back across the
 * floor (out of its leg's reach), センター also moves across that pull by
 * the error's part across it, and hips below that foot come up to its
 * height (its leg reaches furthest across the floor there).
 * Where A is off its 足ＩＫ
 * (a leg, its IK on, ends more than 5% of A's leg from it: a dance keyed
 * for longer legs) its moves are not smoothed onto the frames where A
 * stands.  Where the motion turns both of B's 足ＩＫ off, the feet go
 * with the hips and センター stays (moving it would not move the centre
 * of gravity over them).  Dancers sized
 * together (one XZ scale for their translations, so that their spacing
 * holds) keep センター where the scale puts it: their centre of gravity
 * is measured, not moved.
 *
 * Feet on the floor (the same step).  Heights at rest are where MMD shows
 * the model with no key (IK solved).  Where A's ankle is low (less than
 * 3% of A's leg above its rest height; eased out to 10%), B's ankle goes
 * where A's is, scaled: up, B's rest height plus A's lift times s_y;
 * across the floor, B's 足ＩＫ as the motion has it plus the offset of A's
 * ankle from A's 足ＩＫ times s_xz (a leg of A that does not reach its
 * 足ＩＫ stands where it stands, and B's with it, whichever leg reaches
 * further), and from the first low frame on, held: while A's ankle is
 * still (it moved less than 1% of A's leg since the frame before) B's
 * moves as A's times s_xz, whatever B's 足ＩＫ does (a parent turning it
 * about another point, --feet-apart turning with the hips), and strays
 * from it at most 5% of B's leg; while A's moves, it goes back (70% of
 * the way kept a frame).  The 足ＩＫ goes there.  Where B's leg then does
 * not reach it, or reaches it only straighter than at rest (a knee that
 * opens past it, at the edge of what the IK solver reaches), the hips go
 * down until it is within the reach the solver gives that leg (hip to
 * ankle, at most the rest 足->足首), less 0.2% of B's leg or twice the
 * translation tolerance, the more (room for the IK solver and the hips'
 * fit; グルーブ's Y where B has グルーブ, else センター's; eased in and out
 * over 6 frames either side); where it is further across the floor than
 * that reach, センター goes across towards it, that frame, as far as the
 * foot needs times how low A's ankle is (the rest of the goal is where
 * B's ankle was: a foot barely down does not hold the body back; not
 * where dancers share one XZ scale).  A foot within 0.01%
 * of B's leg of its goal is left as it is, and so is a foot on frames
 * where the motion's IK section turns its 足ＩＫ off.  Two last rounds do
 * the feet alone, and one more on the fitted keys (fitted again).  A
 * planted foot's slide from one frame to the next is then its 足ＩＫ's
 * fit error there less the frame before's: 足ＩＫ is fitted within a
 * fifth of the translation tolerance or 0.01% of B's leg, the finer.
 *
 * Upper body.  The neck root's direction from the hips (上半身->首) on B
 * is A's: 上半身 turns by the shortest arc from B's to A's, in the world,
 * and 首 and 腕 turn back so that the head's and the arms' world rotations
 * stay as they were (the stance step made the arms point as A's).
 *
 * Shoulders.  The direction 肩->腕 on B is A's: 肩 turns by the shortest
 * arc, and 腕 turns back (its world rotation kept: the arm's stance stays
 * exact).
 *
 * Feet apart (an option, for legs thicker than A's that would overlap):
 * each 足ＩＫ moves outward by the option's units along the hips' X (下半身's
 * world X across the floor), before the other steps.
 *
 * Toes.  Where A's toe (つま先, or the toe IK's target) is low (within 3%
 * of A's leg of its rest height, eased out to 10%), B's toe height is A's
 * change from rest times s_y added to B's rest; anywhere, B's toe stays
 * at or above the floor (min(0, rest)) unless A's scaled is below it.  The
 * toe IK target is turned about the ankle, its heading kept, until the
 * toe has that height.  A model without つま先ＩＫ: the step says so.
 *
 * Writing.  A track changed anywhere by more than 90% of the tolerance is
 * written from its values at every frame: the keys it had (the motion's,
 * or its last fit) stay, with the new values at their frames, on every
 * stretch they still give within 90% of the tolerances; each run of the
 * other stretches is fitted by the keyframe reducer's fitter
 * (retarget_fit.c, pki_fit_track_keep) within max_deg / max_pos (足ＩＫ
 * finer, above), at the frames any bone key of the motion is at (the
 * motion changes there); a pose takes the values.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "math/curve.h"
#include "math/quat.h"
#include "model/names.h"
#include "model/skeleton.h"
#include "ops/names/bone_set.h"
#include "ops/retarget/retarget.h"
#include "ops/retarget/sizing_body.h"
#include "math/vec.h"
#include "ops/sample/cursor.h"
#include "ops/sample/sample.h"
#include "util/fmath.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (180.0 / 3.14159265358979323846)
#define COG_GAIN 0.8    /* how much of the centre of gravity follows センター */
#define COG_TOL 0.005   /* of B's leg: the centre step's goal on every frame */
#define FLOOR_TOL 0.001 /* of B's leg */
#define TOE_TOL 0.001   /* of B's leg */
#define LOW 0.03        /* of A's leg: a foot or toe this low is on the floor */
#define LOW_END 0.10    /* ... eased out to this */
#define BELOW 0.005     /* of B's leg: a toe this far below the floor is below it */
#define ROUNDS 10
#define SETTLE 4 /* a row's error over its best by this (and the goal): センター back there */
#define LEAP 3   /* a round's move that made a row's error this many times worse: once more */
#define FEET_ROUNDS 2
#define MAX_MOVE 0.10       /* of B's leg: the centre step's move in one round */
#define EASE 6              /* frames the hips take to go down or come back up */
#define PIN_TOL 0.0001      /* of B's leg: a foot this close to its goal is there */
#define PIN_SLACK 0.002     /* of the leg's reach: left to the IK solver */
#define FEET_FIT 0.2        /* of the translation tolerance: 足ＩＫ's fit ... */
#define FEET_FIT_LEG 0.0001 /* ... or this of B's leg, the smaller */
#define STILL 0.01          /* of A's leg: an ankle that moved less in a frame is still */
#define RELAX 0.7           /* what a held foot keeps of its offset a frame A's moves */
#define MAX_HELD 0.05       /* of B's leg: the most a held foot strays from its own */

/* ---- the torso ---- */

static int32_t bone(const pk_model *m, const char *name)
{
    return (int32_t)pki_model_find_bone_utf8(m, name);
}

static int32_t side_bone(const pk_model *m, int s, const char *name)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%s", s ? "右" : "左", name);
    return bone(m, buf);
}

static void rest_pos(const pk_model *m, int32_t b, double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = m->bones[b].pos[k];
}

/* The model as MMD shows it with no key: IK solved (a leg whose ankle
 * rests off its 足ＩＫ stands where the IK puts it).  NULL on OOM. */
static pk_bone_world *shown_at_rest(const pk_model *m)
{
    pk_rig *rig = pk_rig_new(m, NULL);
    pk_bone_world *w = malloc((m->nbones + 1) * sizeof *w);
    if (!rig || !w) {
        pk_rig_free(rig);
        free(w);
        return NULL;
    }
    pk_rig_eval(rig, NULL, NULL, 0, w);
    pk_rig_free(rig);
    return w;
}

void pki_torso_free(pki_torso *t)
{
    free(t->rest);
    t->rest = NULL;
}

void pki_torso_init(pki_torso *t, const pk_model *m)
{
    memset(t, 0, sizeof *t);
    t->m = m;
    t->rest = shown_at_rest(m);
    t->centre = bone(m, "センター");
    t->groove = bone(m, "グルーブ");
    t->upper = bone(m, "上半身");
    t->neck = bone(m, "首");
    t->head = bone(m, "頭");
    t->lower = bone(m, "下半身");
    int legs = 0;
    for (int s = 0; s < 2; s++) {
        t->shoulder[s] = side_bone(m, s, "肩");
        t->arm[s] = side_bone(m, s, "腕");
        t->elbow[s] = side_bone(m, s, "ひじ");
        t->wrist[s] = side_bone(m, s, "手首");
        t->hip[s] = side_bone(m, s, "足");
        t->knee[s] = side_bone(m, s, "ひざ");
        t->ankle[s] = side_bone(m, s, "足首");
        t->leg_ik[s] = side_bone(m, s, "足ＩＫ");
        t->toe_ik[s] = side_bone(m, s, "つま先ＩＫ");
        t->toe[s] = side_bone(m, s, "つま先");
        if (t->toe[s] < 0 && t->toe_ik[s] >= 0)
            t->toe[s] = m->bones[t->toe_ik[s]].ik_target;
        if (t->ankle[s] >= 0)
            t->ankle_rest_y[s] =
                t->rest ? t->rest[t->ankle[s]].pos[1] : m->bones[t->ankle[s]].pos[1];
        if (t->toe[s] >= 0)
            t->toe_rest_y[s] = t->rest ? t->rest[t->toe[s]].pos[1] : m->bones[t->toe[s]].pos[1];
        if (t->hip[s] >= 0 && t->ankle[s] >= 0) {
            double a[3], b[3], d[3];
            rest_pos(m, t->hip[s], a);
            rest_pos(m, t->ankle[s], b);
            pki_v3_sub(a, b, d);
            t->leg_len += pki_v3_len(d);
            legs++;
        }
    }
    if (legs)
        t->leg_len /= legs;
    if (t->head >= 0 && t->neck >= 0) {
        double a[3], b[3];
        rest_pos(m, t->head, a);
        rest_pos(m, t->neck, b);
        pki_v3_sub(a, b, t->head_up);
    }
    /* the rest offset of the centre of gravity from the feet */
    if (t->ankle[0] >= 0 && t->ankle[1] >= 0) {
        double g[3], a0[3], a1[3];
        pki_torso_cog(t, NULL, 0, g);
        rest_pos(m, t->ankle[0], a0);
        rest_pos(m, t->ankle[1], a1);
        t->cog_rest[0] = g[0] - (a0[0] + a1[0]) / 2;
        t->cog_rest[1] = g[1];
        t->cog_rest[2] = g[2] - (a0[2] + a1[2]) / 2;
    }
}

static void mark(const pk_model *m, bool *watch, int32_t b, bool parent)
{
    if (b < 0 || (size_t)b >= m->nbones)
        return;
    watch[b] = true;
    if (parent && m->bones[b].parent >= 0)
        watch[m->bones[b].parent] = true;
}

void pki_torso_watch(const pki_torso *t, bool *watch)
{
    const pk_model *m = t->m;
    int32_t one[] = {t->centre, t->groove, t->upper, t->neck, t->head, t->lower};
    for (size_t i = 0; i < sizeof one / sizeof *one; i++)
        mark(m, watch, one[i], true);
    for (int s = 0; s < 2; s++) {
        int32_t two[] = {t->shoulder[s], t->arm[s],   t->elbow[s], t->wrist[s],  t->hip[s],
                         t->knee[s],     t->ankle[s], t->toe[s],   t->leg_ik[s], t->toe_ik[s]};
        for (size_t i = 0; i < sizeof two / sizeof *two; i++)
            mark(m, watch, two[i], true);
    }
}

void pki_torso_watch_upper(const pki_torso *t, bool *watch)
{
    mark(t->m, watch, t->upper, true);
    mark(t->m, watch, t->neck, true);
    for (int s = 0; s < 2; s++) {
        mark(t->m, watch, t->shoulder[s], true);
        mark(t->m, watch, t->arm[s], true);
    }
}

/* A bone's world position at row r of p (p NULL: its rest position). */
static void at(const pki_torso *t, const pki_play *p, uint32_t r, int32_t b, double out[3])
{
    if (p)
        memcpy(out, pki_play_at(p, r, b)->pos, 3 * sizeof *out);
    else if (t->rest)
        memcpy(out, t->rest[b].pos, 3 * sizeof *out);
    else
        rest_pos(t->m, b, out);
}

static void rot_at(const pki_torso *t, const pki_play *p, uint32_t r, int32_t b, double out[4])
{
    if (p && b >= 0) {
        memcpy(out, pki_play_at(p, r, b)->rot, 4 * sizeof *out);
    } else if (!p && b >= 0 && t->rest) {
        memcpy(out, t->rest[b].rot, 4 * sizeof *out);
    } else {
        out[0] = out[1] = out[2] = 0;
        out[3] = 1;
    }
}

typedef struct cog_acc {
    double sum[3], w;
} cog_acc;

/* Segment a->b (b -1: the point a) of mass fraction w, its centre halfway. */
static void seg(cog_acc *c, const pki_torso *t, const pki_play *p, uint32_t r, int32_t a, int32_t b,
                double w)
{
    if (a < 0)
        return;
    double pa[3], pb[3];
    at(t, p, r, a, pa);
    if (b >= 0)
        at(t, p, r, b, pb);
    else
        memcpy(pb, pa, sizeof pb);
    for (int k = 0; k < 3; k++)
        c->sum[k] += w * (pa[k] + pb[k]) / 2;
    c->w += w;
}

void pki_torso_cog(const pki_torso *t, const pki_play *p, uint32_t r, double g[3])
{
    cog_acc c = {{0, 0, 0}, 0};
    if (t->head >= 0) {
        double h[3], q[4], v[3];
        at(t, p, r, t->head, h);
        rot_at(t, p, r, t->head, q);
        pki_qd_rotate(q, t->head_up, v);
        for (int k = 0; k < 3; k++)
            c.sum[k] += 0.081 * (h[k] + v[k]);
        c.w += 0.081;
    }
    seg(&c, t, p, r, t->upper, t->neck, 0.355);
    if (t->hip[0] >= 0 && t->hip[1] >= 0) {
        double h0[3], h1[3], l[3];
        at(t, p, r, t->hip[0], h0);
        at(t, p, r, t->hip[1], h1);
        int32_t lo = t->lower >= 0 ? t->lower : t->upper;
        if (lo >= 0)
            at(t, p, r, lo, l);
        else
            for (int k = 0; k < 3; k++)
                l[k] = (h0[k] + h1[k]) / 2;
        for (int k = 0; k < 3; k++)
            c.sum[k] += 0.142 * (l[k] + (h0[k] + h1[k]) / 2) / 2;
        c.w += 0.142;
    }
    for (int s = 0; s < 2; s++) {
        seg(&c, t, p, r, t->arm[s], t->elbow[s], 0.028);
        seg(&c, t, p, r, t->elbow[s], t->wrist[s], 0.016);
        seg(&c, t, p, r, t->wrist[s], -1, 0.006);
        seg(&c, t, p, r, t->hip[s], t->knee[s], 0.100);
        seg(&c, t, p, r, t->knee[s], t->ankle[s], 0.0465);
        seg(&c, t, p, r, t->ankle[s], t->toe[s], 0.0145);
    }
    for (int k = 0; k < 3; k++)
        g[k] = c.w > 0 ? c.sum[k] / c.w : 0;
}

/* The heading of the body: the yaw of 下半身's (else 上半身's) world X. */
static double heading(const pki_torso *t, const pki_play *p, uint32_t r)
{
    int32_t b = t->lower >= 0 ? t->lower : t->upper;
    double q[4], x[3] = {1, 0, 0}, v[3];
    rot_at(t, p, r, b, q);
    pki_qd_rotate(q, x, v);
    if (fabs(v[0]) + fabs(v[2]) < 1e-9)
        return 0;
    return pki_atan2(-v[2], v[0]);
}

bool pki_torso_cog_offset(const pki_torso *t, const pki_play *p, uint32_t r, double o[2])
{
    if (t->ankle[0] < 0 || t->ankle[1] < 0)
        return false;
    double g[3], a0[3], a1[3];
    pki_torso_cog(t, p, r, g);
    at(t, p, r, t->ankle[0], a0);
    at(t, p, r, t->ankle[1], a1);
    double h = heading(t, p, r), c, s;
    pki_sincos(h, &s, &c); /* pki_sin's and pki_cos's bits */
    /* the rest offset turned by h about Y (x' = c x + s z, z' = -s x + c z) */
    double rx = c * t->cog_rest[0] + s * t->cog_rest[2];
    double rz = -s * t->cog_rest[0] + c * t->cog_rest[2];
    o[0] = g[0] - (a0[0] + a1[0]) / 2 - rx;
    o[1] = g[2] - (a0[2] + a1[2]) / 2 - rz;
    return true;
}

/* B's centre-of-gravity error at row r, world XZ (units). */
static bool cog_error(const pki_sizing *z, const pki_play *pb, uint32_t r, double e[2])
{
    double oa[2], ob[2];
    if (z->cog_a_known && r < z->pa.n) { /* A's, kept: A is played once */
        if (!z->cog_a_known[r])
            z->cog_a_known[r] = pki_torso_cog_offset(z->ta, &z->pa, r, z->cog_a[r]) ? 1 : 2;
        if (z->cog_a_known[r] != 1)
            return false;
        memcpy(oa, z->cog_a[r], sizeof oa);
    } else if (!pki_torso_cog_offset(z->ta, &z->pa, r, oa)) {
        return false;
    }
    if (!pki_torso_cog_offset(z->tb, pb, r, ob))
        return false;
    /* B's leg over A's (the body's own proportion, also where dancers
     * share one scale for their translations) */
    double k = z->ta->leg_len > 0 ? z->tb->leg_len / z->ta->leg_len : 1.0;
    e[0] = ob[0] - k * oa[0];
    e[1] = ob[1] - k * oa[1];
    return true;
}

static double dir_deg(const double a0[3], const double a1[3], const double b0[3],
                      const double b1[3])
{
    double u[3], v[3];
    pki_v3_sub(a1, a0, u);
    pki_v3_sub(b1, b0, v);
    double lu = pki_v3_len(u), lv = pki_v3_len(v);
    if (lu <= 0 || lv <= 0)
        return 0;
    double c = pki_v3_dot(u, v) / (lu * lv);
    return pki_acos(c > 1 ? 1 : c < -1 ? -1 : c) * DEG;
}

/* The angle between A's and B's directions a->b at row r. */
static double seg_deg(const pki_sizing *z, const pki_play *pb, uint32_t r, int32_t aa, int32_t ab,
                      int32_t ba, int32_t bb)
{
    double p0[3], p1[3], q0[3], q1[3];
    at(z->ta, &z->pa, r, aa, p0);
    at(z->ta, &z->pa, r, ab, p1);
    at(z->tb, pb, r, ba, q0);
    at(z->tb, pb, r, bb, q1);
    return dir_deg(p0, p1, q0, q1);
}

/* Whether B's toe of side s is below the floor where A's (scaled) is not. */
static bool toe_below(const pki_sizing *z, const pki_play *pb, uint32_t r, int s)
{
    const pki_torso *ta = z->ta, *tb = z->tb;
    if (ta->toe[s] < 0 || tb->toe[s] < 0 || !(tb->leg_len > 0))
        return false;
    double pa[3], pb3[3];
    at(ta, &z->pa, r, ta->toe[s], pa);
    at(tb, pb, r, tb->toe[s], pb3);
    double floor_b = fmin(0.0, tb->toe_rest_y[s]);
    double tol = BELOW * tb->leg_len;
    double a_scaled = floor_b + z->scale_y * (pa[1] - fmin(0.0, ta->toe_rest_y[s]));
    return pb3[1] < floor_b - tol && pb3[1] < a_scaled - tol;
}

typedef struct ik_record {
    uint32_t frame;
    size_t order;
    bool on;
} ik_record;

static int cmp_record(const void *a, const void *b)
{
    const ik_record *x = a, *y = b;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Per row of A's play (rows f0 ..), whether the motion's IK section has
 * A's bone b on (its last record at or before the frame; on where none
 * names it, or b is -1) into on[n].  false on OOM. */
static bool ik_rows(const pki_sizing *z, int32_t b, bool *on)
{
    const pk_motion *m = z->input;
    uint32_t n = z->pa.n, f0 = z->pa.f0;
    for (uint32_t r = 0; r < n; r++)
        on[r] = true;
    if (!m || !m->niks || b < 0)
        return true;
    pk_name_id id = pki_model_bone_vmd_name(m->names, z->ta->m, (size_t)b, false);
    if (id == PK_NO_NAME)
        return true;
    size_t cnt = 0, k = 0;
    for (size_t i = 0; i < m->niks; i++)
        for (uint32_t j = 0; j < m->iks[i].count; j++)
            cnt += m->iks[i].ik[j].name == id;
    ik_record *v = malloc((cnt + 1) * sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < m->niks; i++)
        for (uint32_t j = 0; j < m->iks[i].count; j++)
            if (m->iks[i].ik[j].name == id) {
                v[k] = (ik_record){m->iks[i].frame, k, m->iks[i].ik[j].enabled != 0};
                k++;
            }
    qsort(v, cnt, sizeof *v, cmp_record);
    bool state = true;
    for (uint32_t r = 0, i = 0; r < n; r++) {
        while (i < cnt && v[i].frame <= f0 + r)
            state = v[i++].on;
        on[r] = state;
    }
    free(v);
    return true;
}

/* Whether A, at row r, does not stand where the motion puts its feet: a
 * leg whose IK is on (on[s][r]) ends further than OFF_IK of A's leg from
 * its 足ＩＫ (the dance was keyed for longer legs).  There A's centre of
 * gravity over its feet is no measure for B's. */
#define OFF_IK 0.05
static bool a_off_ik(const pki_sizing *z, bool *const on[2], uint32_t r)
{
    const pki_torso *ta = z->ta;
    const pki_play *p = &z->pa;
    for (int s = 0; s < 2; s++) {
        int32_t ik = ta->leg_ik[s];
        if (ik < 0 || ta->ankle[s] < 0 || !(ta->leg_len > 0) || !on[s][r])
            continue;
        double a[3], g[3], d[3];
        at(ta, p, r, ta->ankle[s], a);
        at(ta, p, r, ik, g);
        pki_v3_sub(a, g, d);
        if (pki_v3_len(d) > OFF_IK * ta->leg_len)
            return true;
    }
    return false;
}

/* z->a_off: per row of A's play, whether A is off its 足ＩＫ there
 * (a_off_ik; false on B's rows beyond A's); made once, for the measures
 * before and after and the centre step, with the room for A's
 * centre-of-gravity offsets (cog_error).  false on OOM. */
static bool a_off_rows(pki_sizing *z)
{
    const pki_torso *ta = z->ta;
    size_t sz = (z->pa.n + 1) * sizeof(bool);
    bool *on[2] = {malloc(sz), malloc(sz)};
    z->a_off = calloc((z->pa.n > z->pb.n ? z->pa.n : z->pb.n) + 1, sizeof *z->a_off);
    z->cog_a = malloc((z->pa.n + 1) * sizeof *z->cog_a);
    z->cog_a_known = calloc(z->pa.n + 1, sizeof *z->cog_a_known);
    bool ok = z->a_off && z->cog_a && z->cog_a_known && on[0] && on[1] &&
              ik_rows(z, ta->leg_ik[0], on[0]) && ik_rows(z, ta->leg_ik[1], on[1]);
    for (uint32_t r = 0; ok && r < z->pa.n; r++)
        z->a_off[r] = a_off_ik(z, on, r);
    free(on[0]);
    free(on[1]);
    return ok;
}

typedef struct body_stats {
    double head_max, head_mean, shoulder_max, cog_max, cog_mean;
    double on_max, on_mean; /* the centre of gravity where A stands on its 足ＩＫ */
    size_t off_ik;          /* rows where it does not (a_off_ik) */
    size_t toes;
    bool ok;
} body_stats;

static body_stats stats_of(const pki_sizing *z, const pki_play *pb)
{
    body_stats st;
    memset(&st, 0, sizeof st);
    const pki_torso *ta = z->ta, *tb = z->tb;
    uint32_t n = pb->n < z->pa.n ? pb->n : z->pa.n;
    bool head = ta->upper >= 0 && ta->neck >= 0 && tb->upper >= 0 && tb->neck >= 0;
    bool cog = ta->ankle[0] >= 0 && ta->ankle[1] >= 0 && tb->ankle[0] >= 0 && tb->ankle[1] >= 0 &&
               tb->leg_len > 0;
    st.ok = head || cog;
    for (uint32_t r = 0; r < n; r++) {
        if (head) {
            double d = seg_deg(z, pb, r, ta->upper, ta->neck, tb->upper, tb->neck);
            st.head_max = fmax(st.head_max, d);
            st.head_mean += d;
        }
        for (int s = 0; s < 2; s++) {
            if (ta->shoulder[s] >= 0 && ta->arm[s] >= 0 && tb->shoulder[s] >= 0 && tb->arm[s] >= 0)
                st.shoulder_max =
                    fmax(st.shoulder_max, seg_deg(z, pb, r, ta->shoulder[s], ta->arm[s],
                                                  tb->shoulder[s], tb->arm[s]));
        }
        double e[2];
        if (cog && cog_error(z, pb, r, e)) {
            double d = sqrt(e[0] * e[0] + e[1] * e[1]) / tb->leg_len;
            st.cog_max = fmax(st.cog_max, d);
            st.cog_mean += d;
            if (z->a_off[r]) {
                st.off_ik++;
            } else {
                st.on_max = fmax(st.on_max, d);
                st.on_mean += d;
            }
        }
        if (toe_below(z, pb, r, 0) || toe_below(z, pb, r, 1))
            st.toes++;
    }
    if (n) {
        st.head_mean /= n;
        st.cog_mean /= n;
    }
    if (n > st.off_ik)
        st.on_mean /= (double)(n - st.off_ik);
    return st;
}

void pki_body_measure(const pki_sizing *z, const pki_play *after, pk_body_measure *m)
{
    if (!z->ta || !z->tb)
        return;
    *m = z->body_before;
    body_stats st = stats_of(z, after);
    m->done = st.ok;
    m->head_max = st.head_max;
    m->head_mean = st.head_mean;
    m->shoulder_max = st.shoulder_max;
    m->cog_max = st.cog_max;
    m->cog_mean = st.cog_mean;
    m->cog_on_ik_max = st.on_max;
    m->cog_on_ik_mean = st.on_mean;
    m->cog_off_ik = st.off_ik;
    m->toe_below = st.toes;
}

/* ---- writing tracks ---- */

typedef struct writer {
    pki_bone_set *s;
    const pk_model *m; /* B */
    uint32_t f0, n;
    uint32_t *cand; /* the frames a bone key of the motion is at, f0 and the last */
    size_t ncand;
    float (*pos)[3];
    float (*rot)[4];
    pki_curve_cache *cache;
    double tol_deg, tol_pos;
    int32_t feet[2]; /* B's 足ＩＫ: fitted within feet_tol */
    double feet_tol;
    size_t keys;
    /* the tracks written so far, a key at every frame until writer_fit */
    int32_t touched[16];
    int ntouched;
    bool *dirty;   /* per row: a written track changed there since the last play */
    size_t played; /* rows of B evaluated again (replay) */
    /* the keys each track had before write_keys first gave it a key at
     * every frame (the motion's, or its last fit), until it is fitted */
    pk_bone_key *was; /* a track that had none: one record at frame NO_FRAME */
    size_t nwas, capwas;
    /* vals_of's last sampling of a track through a cursor, per bone (up
     * to VALS_KEPT): its key records and the values they gave */
    struct vals_kept *kept;
    int nkept;
} writer;

#define VALS_KEPT 8

#define NO_FRAME UINT32_MAX

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool writer_init(writer *w, pki_bone_set *s, const pki_sizing *z,
                        const pk_retarget_options *o)
{
    memset(w, 0, sizeof *w);
    w->s = s;
    w->m = z->b.m;
    w->f0 = z->pb.f0;
    w->n = z->pb.n;
    w->tol_deg = o->max_deg > 0 ? o->max_deg : PK_REDUCE_DEG;
    w->tol_pos = o->max_pos > 0 ? o->max_pos : PK_REDUCE_POS;
    w->feet[0] = z->tb->leg_ik[0];
    w->feet[1] = z->tb->leg_ik[1];
    w->feet_tol = fmin(w->tol_pos * FEET_FIT, FEET_FIT_LEG * z->tb->leg_len);
    if (!(w->feet_tol > 0))
        w->feet_tol = w->tol_pos * FEET_FIT;
    w->pos = malloc((w->n + 1) * sizeof *w->pos);
    w->rot = malloc((w->n + 1) * sizeof *w->rot);
    w->dirty = calloc(w->n + 1, sizeof *w->dirty);
    if (!w->pos || !w->rot || !w->dirty)
        return false;
    if (!s->m)
        return true;
    w->cache = pki_curve_cache_new();
    w->cand = malloc((s->m->nbones + 2) * sizeof *w->cand);
    if (!w->cache || !w->cand)
        return false;
    size_t k = 0;
    w->cand[k++] = w->f0;
    w->cand[k++] = w->f0 + w->n - 1;
    for (size_t i = 0; i < s->m->nbones; i++)
        w->cand[k++] = s->m->bones[i].frame;
    /* sorted, each frame once: marked over their span where it is not
     * much longer than the list (a motion's frames are dense), else
     * sorted */
    uint32_t lo = w->cand[0], hi = w->cand[0];
    for (size_t i = 1; i < k; i++) {
        lo = w->cand[i] < lo ? w->cand[i] : lo;
        hi = w->cand[i] > hi ? w->cand[i] : hi;
    }
    /* in 64 bits: frames 0 and 4294967295 span 2^32, which a 32-bit
     * size_t (the browser's) would wrap to 0 */
    uint64_t span = (uint64_t)(hi - lo) + 1;
    size_t u = 0;
    bool *seen = span <= 4 * (uint64_t)k + 4096 ? calloc((size_t)span, sizeof *seen) : NULL;
    if (seen) {
        for (size_t i = 0; i < k; i++)
            seen[w->cand[i] - lo] = true;
        for (uint64_t f = 0; f < span; f++)
            if (seen[f])
                w->cand[u++] = lo + (uint32_t)f;
        free(seen);
    } else {
        qsort(w->cand, k, sizeof *w->cand, cmp_u32);
        for (size_t i = 0; i < k; i++)
            if (!u || w->cand[u - 1] != w->cand[i])
                w->cand[u++] = w->cand[i];
    }
    w->ncand = u;
    return true;
}

/* One track's records and the values a cursor gave from them at every
 * row (vals_of). */
struct vals_kept {
    int32_t bone;
    pk_bone_key *keys;
    size_t nkeys;
    double (*pos)[3];
    double (*rot)[4];
};

static void writer_free(writer *w)
{
    for (int i = 0; i < w->nkept; i++) {
        free(w->kept[i].keys);
        free(w->kept[i].pos);
        free(w->kept[i].rot);
    }
    free(w->kept);
    free(w->pos);
    free(w->rot);
    free(w->dirty);
    free(w->cand);
    free(w->was);
    pki_curve_cache_free(w->cache);
}

/* A track's values (the keys' translation and rotation) at every row. */
typedef struct track_vals {
    double (*pos)[3];
    double (*rot)[4];
} track_vals;

static void vals_free(track_vals *v)
{
    free(v->pos);
    free(v->rot);
    v->pos = NULL;
    v->rot = NULL;
}

static pk_name_id name_of(const writer *w, int32_t b, bool make)
{
    size_t len;
    const uint8_t *raw = pki_model_bone_raw(w->m, (size_t)b, &len);
    if (!raw)
        return PK_NO_NAME;
    if (len > w->s->name_bytes)
        len = pk_cp932_boundary(raw, w->s->name_bytes);
    pk_name_id id = pk_names_find(w->s->names, raw, len);
    if (id == PK_NO_NAME && make)
        id = pk_names_intern(w->s->names, raw, len);
    return id;
}

/* The values bone b's keys give at every row (rest where it has none). */
/* The values a cursor gave from track t's records (bone b's) when
 * vals_of last sampled them, or NULL. */
static const struct vals_kept *kept_vals(const writer *w, int32_t b, const pk_track *t)
{
    const pk_bone_key *keys = w->s->m->bones;
    for (int i = 0; i < w->nkept; i++) {
        const struct vals_kept *k = &w->kept[i];
        if (k->bone != b || k->nkeys != t->count)
            continue;
        size_t j = 0;
        while (j < t->count && memcmp(&k->keys[j], &keys[t->keys[j]], sizeof *keys) == 0)
            j++;
        return j == t->count ? k : NULL;
    }
    return NULL;
}

/* Keeps the values v bone b's track t gave (a copy, in the bone's entry
 * or a new one while there is room); nothing on OOM. */
static void keep_vals(writer *w, int32_t b, const pk_track *t, const track_vals *v)
{
    int i = 0;
    while (i < w->nkept && w->kept[i].bone != b)
        i++;
    if (i == w->nkept) {
        if (w->nkept == VALS_KEPT)
            return;
        if (!w->kept && !(w->kept = calloc(VALS_KEPT, sizeof *w->kept)))
            return;
        w->kept[w->nkept++].bone = b;
    }
    struct vals_kept *k = &w->kept[i];
    bool grown = pki_grow_to(&k->keys, t->count + 1, sizeof *k->keys) == 0;
    pk_bone_key *keys = grown ? k->keys : NULL;
    if (!k->pos)
        k->pos = malloc((w->n + 1) * sizeof *k->pos);
    if (!k->rot)
        k->rot = malloc((w->n + 1) * sizeof *k->rot);
    if (!keys || !k->pos || !k->rot) {
        k->nkeys = SIZE_MAX; /* matches no track */
        return;
    }
    for (size_t j = 0; j < t->count; j++)
        keys[j] = w->s->m->bones[t->keys[j]];
    k->nkeys = t->count;
    memcpy(k->pos, v->pos, w->n * sizeof *k->pos);
    memcpy(k->rot, v->rot, w->n * sizeof *k->rot);
}

static bool vals_of(writer *w, int32_t b, track_vals *v)
{
    v->pos = malloc((w->n + 1) * sizeof *v->pos);
    v->rot = malloc((w->n + 1) * sizeof *v->rot);
    if (!v->pos || !v->rot)
        return false;
    for (uint32_t r = 0; r < w->n; r++) {
        v->pos[r][0] = v->pos[r][1] = v->pos[r][2] = 0;
        v->rot[r][0] = v->rot[r][1] = v->rot[r][2] = 0;
        v->rot[r][3] = 1;
    }
    pk_name_id id = name_of(w, b, false);
    if (id == PK_NO_NAME)
        return true;
    if (w->s->p) {
        long k = pk_pose_find_bone(w->s->p, id);
        if (k >= 0) {
            const pk_pose_bone *pb = &w->s->p->bones[k];
            for (int c = 0; c < 3; c++)
                v->pos[0][c] = pb->pos[c];
            pki_qd_from_key(pb->rot, v->rot[0]);
        }
        return true;
    }
    pk_track one;
    if (!pki_track_named(w->s->m, id, &one))
        return false;
    const pk_track *t = one.count ? &one : NULL;
    bool every = t && t->count == w->n;
    for (uint32_t r = 0; every && r < w->n; r++)
        every = w->s->m->bones[t->keys[r]].frame == w->f0 + r;
    if (every) {
        /* a key at every row (a track a step wrote): each row its key's
         * value, as the cursor gives it there */
        for (uint32_t r = 0; r < w->n; r++) {
            float p[3], q[4];
            pki_cursor_key_value(&w->s->m->bones[t->keys[r]], p, q);
            for (int k = 0; k < 3; k++)
                v->pos[r][k] = p[k];
            pki_qd_from_key(q, v->rot[r]);
        }
    } else if (t) {
        /* the records it last sampled give the same values */
        const struct vals_kept *kept = kept_vals(w, b, t);
        if (kept) {
            memcpy(v->pos, kept->pos, w->n * sizeof *v->pos);
            memcpy(v->rot, kept->rot, w->n * sizeof *v->rot);
        } else {
            pk_cursor c;
            pk_cursor_init(&c, w->s->m, t);
            for (uint32_t r = 0; r < w->n; r++) {
                float p[3], q[4];
                pk_cursor_bone(&c, w->f0 + r, p, q);
                for (int k = 0; k < 3; k++)
                    v->pos[r][k] = p[k];
                pki_qd_from_key(q, v->rot[r]);
            }
            keep_vals(w, b, t, v);
        }
    }
    free(one.keys);
    return true;
}

/* Track id's keys replaced by the values v at every row: fitted, or a key
 * at every frame (linear).  0, or -1 on OOM. */
/* The translation tolerance of bone b's track: a 足ＩＫ carries a planted
 * foot, whose slide from one frame to the next is the fit's error there
 * less the frame before's. */
static double tol_pos_of(const writer *w, int32_t b)
{
    return b >= 0 && (b == w->feet[0] || b == w->feet[1]) ? w->feet_tol : w->tol_pos;
}

static int cmp_frame(const void *a, const void *b)
{
    uint32_t x = ((const pk_bone_key *)a)->frame, y = ((const pk_bone_key *)b)->frame;
    return x < y ? -1 : x > y;
}

/* One more record in w->was: NULL on OOM. */
static pk_bone_key *was_push(writer *w)
{
    return pki_grow_push(&w->was, &w->nwas, &w->capwas, sizeof *w->was);
}

/* Track id's records out of the motion, kept (frame order) in w->was
 * unless it holds id's already.  false on OOM. */
static bool take_track(writer *w, pk_name_id id)
{
    pk_motion *m = w->s->m;
    bool have = false;
    for (size_t i = 0; i < w->nwas && !have; i++)
        have = w->was[i].name == id;
    size_t o = 0, start = w->nwas;
    for (size_t i = 0; i < m->nbones; i++) {
        if (m->bones[i].name == id) {
            if (have)
                continue;
            pk_bone_key *k = was_push(w);
            if (!k)
                return false;
            *k = m->bones[i];
            continue;
        }
        if (o != i)
            m->bones[o] = m->bones[i];
        o++;
    }
    m->nbones = o;
    if (!have && w->nwas == start) {
        pk_bone_key *k = was_push(w);
        if (!k)
            return false;
        memset(k, 0, sizeof *k);
        k->name = id;
        k->frame = NO_FRAME;
    }
    qsort(&w->was[start], w->nwas - start, sizeof *w->was, cmp_frame);
    return true;
}

/* Where track id has a key at every row (linear, as write_keys writes
 * it), the index of its first: its keys are the n records from there, in
 * frame order; -1 where it has not. */
static long every_row_at(const writer *w, pk_name_id id)
{
    const pk_motion *m = w->s->m;
    size_t i = 0;
    while (i < m->nbones && m->bones[i].name != id)
        i++;
    if (m->nbones - i < w->n)
        return -1;
    for (uint32_t r = 0; r < w->n; r++)
        if (m->bones[i + r].name != id || m->bones[i + r].frame != w->f0 + r)
            return -1;
    for (size_t j = i + w->n; j < m->nbones; j++)
        if (m->bones[j].name == id)
            return -1;
    return (long)i;
}

static int write_keys(writer *w, pk_name_id id, const track_vals *v, bool fit, double tol_pos)
{
    pk_motion *m = w->s->m;
    /* a track written with a key at every row before (its keys taken
     * into w->was then) is written again in place */
    bool have = false;
    for (size_t i = 0; i < w->nwas && !have; i++)
        have = w->was[i].name == id;
    long in_place = have && !fit ? every_row_at(w, id) : -1;
    if (in_place < 0 && !take_track(w, id))
        return -1;
    for (uint32_t r = 0; r < w->n; r++) {
        double q[4];
        memcpy(q, v->rot[r], sizeof q);
        /* one hemisphere along the track */
        if (r && q[0] * w->rot[r - 1][0] + q[1] * w->rot[r - 1][1] + q[2] * w->rot[r - 1][2] +
                         q[3] * w->rot[r - 1][3] <
                     0)
            for (int c = 0; c < 4; c++)
                q[c] = -q[c];
        for (int c = 0; c < 4; c++)
            w->rot[r][c] = (float)q[c];
        for (int c = 0; c < 3; c++)
            w->pos[r][c] = (float)v->pos[r][c];
    }
    if (!fit && in_place >= 0) {
        for (uint32_t r = 0; r < w->n; r++) {
            pk_bone_key *k = &m->bones[(size_t)in_place + r];
            memcpy(k->pos, w->pos[r], sizeof k->pos);
            memcpy(k->rot, w->rot[r], sizeof k->rot);
        }
        return 0;
    }
    if (!fit) {
        uint8_t linear[64];
        pk_interp_linear(linear);
        for (uint32_t r = 0; r < w->n; r++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                return -1;
            k->name = id;
            k->frame = w->f0 + r;
            memcpy(k->pos, w->pos[r], sizeof k->pos);
            memcpy(k->rot, w->rot[r], sizeof k->rot);
            memcpy(k->interp, linear, sizeof k->interp);
        }
        return 0;
    }
    /* the track's keys before it was written: where the values are still
     * theirs, they stay */
    size_t a = 0;
    while (a < w->nwas && w->was[a].name != id)
        a++;
    size_t b = a;
    while (b < w->nwas && w->was[b].name == id)
        b++;
    size_t nref = b > a && w->was[a].frame == NO_FRAME ? 0 : b - a;
    size_t before = m->nbones;
    pki_fit_out fo;
    int rc = pki_fit_track_keep((const float(*)[3])w->pos, (const float(*)[4])w->rot, w->f0,
                                w->cand, w->ncand, nref ? &w->was[a] : NULL, nref, id, w->tol_deg,
                                tol_pos, w->cache, m, &fo);
    memmove(&w->was[a], &w->was[b], (w->nwas - b) * sizeof *w->was);
    w->nwas -= b - a;
    if (rc != 0)
        return -1;
    w->keys += m->nbones - before;
    return 0;
}

/* Bone b's keys replaced by the values v (at every row) where they differ
 * from `was` by more than 90% of the tolerances anywhere: 1 rewritten, 0
 * left, -1 OOM. */
static bool row_same(const track_vals *v, const track_vals *was, uint32_t r)
{
    return memcmp(v->pos[r], was->pos[r], sizeof v->pos[r]) == 0 &&
           memcmp(v->rot[r], was->rot[r], sizeof v->rot[r]) == 0;
}

static int put_track(writer *w, int32_t b, const track_vals *v, const track_vals *was)
{
    /* (a row the same bit for bit differs by nothing: no angle to take) */
    bool any = false;
    for (uint32_t r = 0; r < w->n && !any; r++) {
        if (row_same(v, was, r))
            continue;
        double d[3];
        pki_v3_sub(v->pos[r], was->pos[r], d);
        any = pki_qd_angle_deg(v->rot[r], was->rot[r]) > 0.9 * w->tol_deg ||
              pki_v3_len(d) > 0.9 * tol_pos_of(w, b);
    }
    if (!any)
        return 0;
    for (uint32_t r = 0; r < w->n; r++) {
        if (row_same(v, was, r))
            continue;
        double d[3];
        pki_v3_sub(v->pos[r], was->pos[r], d);
        w->dirty[r] |= pki_qd_angle_deg(v->rot[r], was->rot[r]) > 1e-9 || pki_v3_len(d) > 1e-9;
    }
    pk_name_id id = name_of(w, b, true);
    if (id == PK_NO_NAME)
        return -1;
    if (w->s->p) {
        long k = pk_pose_find_bone(w->s->p, id);
        pk_pose_bone *pb = k >= 0 ? &w->s->p->bones[k] : pk_pose_push_bone(w->s->p);
        if (!pb)
            return -1;
        pb->name = id;
        for (int c = 0; c < 3; c++)
            pb->pos[c] = (float)v->pos[0][c];
        for (int c = 0; c < 4; c++)
            pb->rot[c] = (float)v->rot[0][c];
        w->keys++;
        return 1;
    }
    bool kept = false;
    for (int i = 0; i < w->ntouched; i++)
        kept |= w->touched[i] == b;
    if (!kept && w->ntouched < (int)(sizeof w->touched / sizeof *w->touched)) {
        w->touched[w->ntouched++] = b;
        kept = true;
    }
    return write_keys(w, id, v, !kept, tol_pos_of(w, b)) < 0 ? -1 : 1;
}

/* put_track for each of the n bones (those < 0 skipped), *changed set
 * when one was rewritten: 0, or -1 OOM (the rest left). */
static int put_tracks(writer *w, const int32_t *bones, const track_vals *now, const track_vals *was,
                      int n, bool *changed)
{
    for (int i = 0; i < n; i++) {
        if (bones[i] < 0)
            continue;
        int k = put_track(w, bones[i], &now[i], &was[i]);
        if (k < 0)
            return -1;
        if (k)
            *changed = true;
    }
    return 0;
}

/* Every track written so far fitted by the reducer's fitter (a key at
 * every frame until then: the rounds play the exact values).  0, -1 OOM. */
static int writer_fit(writer *w)
{
    for (int i = 0; i < w->ntouched; i++) {
        track_vals v;
        memset(&v, 0, sizeof v);
        pk_name_id id = name_of(w, w->touched[i], false);
        int rc = id == PK_NO_NAME || !vals_of(w, w->touched[i], &v) ? -1 : 0;
        if (!rc)
            rc = write_keys(w, id, &v, true, tol_pos_of(w, w->touched[i]));
        vals_free(&v);
        if (rc)
            return -1;
    }
    w->ntouched = 0;
    return 0;
}
/* ---- the steps ---- */

/* A copy of the values v into out: false on OOM. */
static bool vals_copy(const writer *w, const track_vals *v, track_vals *out)
{
    out->pos = malloc((w->n + 1) * sizeof *out->pos);
    out->rot = malloc((w->n + 1) * sizeof *out->rot);
    if (!out->pos || !out->rot)
        return false;
    memcpy(out->pos, v->pos, w->n * sizeof *out->pos);
    memcpy(out->rot, v->rot, w->n * sizeof *out->rot);
    return true;
}

/* Bone b's values at every row into was and a copy into now (the step
 * edits now): false on OOM. */
static bool vals_pair(writer *w, int32_t b, track_vals *was, track_vals *now)
{
    return vals_of(w, b, was) && vals_copy(w, was, now);
}

/* q = a^-1 b */
static void rel(const double a[4], const double b[4], double out[4])
{
    double inv[4];
    pki_qd_conj(a, inv);
    pki_qd_mul(inv, b, out);
    pki_q_norm(out);
}

static void parent_rot(const pki_torso *t, const pki_play *p, uint32_t r, int32_t b, double q[4])
{
    rot_at(t, p, r, b >= 0 ? t->m->bones[b].parent : -1, q);
}

/* Upper body and shoulders: 上半身, 首, 肩, 腕 rewritten. */
static int upper_step(pki_sizing *z, writer *w, bool upper, bool shoulders, pk_body_report *rep,
                      bool *changed)
{
    const pki_torso *ta = z->ta, *tb = z->tb;
    const pki_play *pb = &z->pb;
    upper = upper && ta->upper >= 0 && ta->neck >= 0 && tb->upper >= 0 && tb->neck >= 0;
    bool sh[2];
    for (int s = 0; s < 2; s++)
        sh[s] = shoulders && ta->shoulder[s] >= 0 && ta->arm[s] >= 0 && tb->shoulder[s] >= 0 &&
                tb->arm[s] >= 0;
    if (!upper && !sh[0] && !sh[1])
        return 0;
    rep->upper_done |= upper;
    rep->shoulders_done |= sh[0] || sh[1];
    /* the tracks: 上半身, 首, 肩 x2, 腕 x2 */
    int32_t bones[6] = {tb->upper,       tb->neck,   tb->shoulder[0],
                        tb->shoulder[1], tb->arm[0], tb->arm[1]};
    track_vals now[6], was[6];
    memset(now, 0, sizeof now);
    memset(was, 0, sizeof was);
    int rc = -1;
    for (int i = 0; i < 6; i++)
        if (bones[i] >= 0 && !vals_pair(w, bones[i], &was[i], &now[i]))
            goto done;
    for (uint32_t r = 0; r < w->n; r++) {
        double delta[4] = {0, 0, 0, 1};
        if (upper) {
            double ua[3], ub[3], p0[3], p1[3];
            at(ta, &z->pa, r, ta->upper, p0);
            at(ta, &z->pa, r, ta->neck, p1);
            pki_v3_sub(p1, p0, ua);
            at(tb, pb, r, tb->upper, p0);
            at(tb, pb, r, tb->neck, p1);
            pki_v3_sub(p1, p0, ub);
            pki_q_arc(ub, ua, delta);
            double id[4] = {0, 0, 0, 1}, deg = pki_qd_angle_deg(delta, id);
            if (deg > 0.9 * w->tol_deg) {
                rep->upper_frames++;
                rep->upper_deg = fmax(rep->upper_deg, deg);
            }
            /* 上半身: P^-1 delta W */
            double P[4], W[4], dW[4];
            parent_rot(tb, pb, r, tb->upper, P);
            rot_at(tb, pb, r, tb->upper, W);
            pki_qd_mul(delta, W, dW);
            rel(P, dW, now[0].rot[r]);
            /* 首 keeps its world rotation: (delta P)^-1 W */
            parent_rot(tb, pb, r, tb->neck, P);
            rot_at(tb, pb, r, tb->neck, W);
            double dP[4];
            pki_qd_mul(delta, P, dP);
            rel(dP, W, now[1].rot[r]);
        }
        for (int s = 0; s < 2; s++) {
            if (tb->arm[s] < 0)
                continue;
            double eps[4] = {0, 0, 0, 1};
            double P[4], W[4], dP[4], eW[4];
            if (sh[s]) {
                double va[3], vb[3], p0[3], p1[3], dv[3];
                at(ta, &z->pa, r, ta->shoulder[s], p0);
                at(ta, &z->pa, r, ta->arm[s], p1);
                pki_v3_sub(p1, p0, va);
                at(tb, pb, r, tb->shoulder[s], p0);
                at(tb, pb, r, tb->arm[s], p1);
                pki_v3_sub(p1, p0, vb);
                pki_qd_rotate(delta, vb, dv);
                pki_q_arc(dv, va, eps);
                double id[4] = {0, 0, 0, 1}, deg = pki_qd_angle_deg(eps, id);
                if (deg > 0.9 * w->tol_deg) {
                    rep->shoulder_frames++;
                    rep->shoulder_deg = fmax(rep->shoulder_deg, deg);
                }
                /* 肩: (delta P)^-1 eps delta W */
                parent_rot(tb, pb, r, tb->shoulder[s], P);
                rot_at(tb, pb, r, tb->shoulder[s], W);
                pki_qd_mul(delta, P, dP);
                double dW[4];
                pki_qd_mul(delta, W, dW);
                pki_qd_mul(eps, dW, eW);
                rel(dP, eW, now[2 + s].rot[r]);
            }
            /* 腕 keeps its world rotation: (eps delta P)^-1 W */
            parent_rot(tb, pb, r, tb->arm[s], P);
            rot_at(tb, pb, r, tb->arm[s], W);
            double ed[4];
            pki_qd_mul(eps, delta, ed);
            pki_qd_mul(ed, P, dP);
            rel(dP, W, now[4 + s].rot[r]);
        }
    }
    rc = put_tracks(w, bones, now, was, 6, changed);
done:
    for (int i = 0; i < 6; i++) {
        vals_free(&now[i]);
        vals_free(&was[i]);
    }
    return rc;
}

/* How low A's point is: 1 on the floor (below LOW of A's leg above its
 * rest height), easing to 0 at LOW_END. */
static double low_weight(double lift, double leg)
{
    double x = lift / leg;
    if (x <= LOW)
        return 1;
    if (x >= LOW_END)
        return 0;
    double t = (x - LOW) / (LOW_END - LOW);
    return 1 - t * t * (3 - 2 * t);
}

/* Adds the world move d of bone b (its parent's frame) to the values v. */
static void move_by(const pki_torso *t, const pki_play *p, uint32_t r, int32_t b, const double d[3],
                    track_vals *v)
{
    double P[4], inv[4], l[3];
    parent_rot(t, p, r, b, P);
    pki_qd_conj(P, inv);
    pki_qd_rotate(inv, d, l);
    for (int k = 0; k < 3; k++)
        v->pos[r][k] += l[k];
}

/* Whether the motion's IK section has bone b's IK on at frame f (its
 * last record at or before f; on where none names it). */
static bool ik_on(const writer *w, int32_t b, uint32_t f)
{
    const pk_motion *m = w->s->m;
    if (!m || b < 0 || !m->niks)
        return true;
    pk_name_id id = name_of(w, b, false);
    if (id == PK_NO_NAME)
        return true;
    bool on = true;
    uint32_t at_frame = 0;
    bool found = false;
    for (size_t i = 0; i < m->niks; i++) {
        const pk_ik_key *k = &m->iks[i];
        if (k->frame > f || (found && k->frame < at_frame))
            continue;
        for (uint32_t j = 0; j < k->count; j++)
            if (k->ik[j].name == id) {
                on = k->ik[j].enabled != 0;
                at_frame = k->frame;
                found = true;
            }
    }
    return on;
}

/* One round of the centre step: センター across the floor for the centre of
 * gravity, the hips down or a 足ＩＫ up for the feet. */
/* Per row, what the last round of the centre step did: its move of センター
 * (XZ) and the error it met, to learn how much of a move the centre of
 * gravity follows there. */
typedef struct cog_memo {
    double d[2], e[2];
    double foot[2][3]; /* where each ankle goes (the first round's rule) */
    double own[2][2];  /* ... across the floor, by B's 足ＩＫ as the motion has it */
    double held[2][2]; /* ... and the offset from there that holds it */
    bool pinned[2];    /* ... where A's is low */
    double wgt[2];     /* ... how low (low_weight) */
    bool ik_off[2];    /* the motion turns B's 足ＩＫ off there */
    double move[2];    /* the round's move of センター (XZ), smoothed */
    /* the smallest error a round met (norm) and センター's X, Z then */
    double best, best_at[2];
    bool best_known;
    bool leapt; /* a round stepped over a band where the move made it worse */
    /* cog_error on the play as it is (known: its row unchanged since) */
    double cog_e[2];
    bool cog_ok, cog_known;
} cog_memo;

/* cog_error at row r, from memo m where B's row did not change since. */
static bool cog_error_at(const pki_sizing *z, uint32_t r, cog_memo *m, double e[2])
{
    if (!m->cog_known) {
        m->cog_ok = cog_error(z, &z->pb, r, m->cog_e);
        m->cog_known = true;
    }
    if (m->cog_ok)
        memcpy(e, m->cog_e, sizeof m->cog_e);
    return m->cog_ok;
}

/* The reach of B's leg of side s: 足->ひざ->足首 at rest, or the mean
 * 足->足首 if shorter (a knee that does not straighten past its rest
 * bend). */
static double reach_of(const pki_torso *t, int s)
{
    if (t->hip[s] < 0 || t->knee[s] < 0 || t->ankle[s] < 0)
        return 0;
    double a[3], b[3], c[3], d[3];
    rest_pos(t->m, t->hip[s], a);
    rest_pos(t->m, t->knee[s], b);
    rest_pos(t->m, t->ankle[s], c);
    pki_v3_sub(a, b, d);
    double l = pki_v3_len(d);
    pki_v3_sub(b, c, d);
    l += pki_v3_len(d);
    return l < t->leg_len ? l : t->leg_len;
}

/* One foot of B at row r in a round of the centre step: where A's ankle
 * is low, B's goes where A's is, scaled: its 足ＩＫ moved there (into v),
 * how far the hips must go down for the leg to reach it (returned) and,
 * where going down cannot bring it in reach, how far センター must go
 * across (added to pull; NULL: it may not).  The goal is set in the first
 * round (memo; prev, the row before) from B's 足ＩＫ as the motion has it:
 * across the floor A's ankle's offset from A's 足ＩＫ times the XZ scale (a
 * leg of A that does not reach its 足ＩＫ stands where it stands), held
 * from the row before while A's ankle is still, up B's rest height plus
 * A's lift times the Y scale; eased by how low A's ankle is.  slack: the
 * reach left to the IK solver and the fit of the hips.  raise (NULL: the
 * hips only go down): where the hips must come across and are below the
 * goal, how far up they go to its height (the leg reaches furthest across
 * the floor there). */
static double foot_at(pki_sizing *z, uint32_t r, int s, bool first, cog_memo *memo,
                      const cog_memo *prev, track_vals *v, double slack, double *off_y,
                      double pull[2], double *raise, bool *more)
{
    const pki_torso *ta = z->ta, *tb = z->tb;
    const pki_play *pb = &z->pb;
    if (ta->ankle[s] < 0 || tb->ankle[s] < 0 || tb->leg_ik[s] < 0)
        return 0;
    double legb = tb->leg_len;
    double pbk[3], ik[3], hip[3];
    at(tb, pb, r, tb->ankle[s], pbk);
    at(tb, pb, r, tb->leg_ik[s], ik);
    if (first) {
        double pa[3], ika[3];
        at(ta, &z->pa, r, ta->ankle[s], pa);
        double lift_a = pa[1] - ta->ankle_rest_y[s];
        double wgt = low_weight(lift_a, ta->leg_len);
        memo->pinned[s] = wgt > 0;
        memo->wgt[s] = wgt;
        if (wgt <= 0)
            return 0;
        double goal[3] = {ik[0], tb->ankle_rest_y[s] + z->scale_y * lift_a, ik[2]};
        if (ta->leg_ik[s] >= 0) {
            at(ta, &z->pa, r, ta->leg_ik[s], ika);
            goal[0] += z->scale_xz * (pa[0] - ika[0]);
            goal[2] += z->scale_xz * (pa[2] - ika[2]);
        }
        memo->own[s][0] = goal[0];
        memo->own[s][1] = goal[2];
        memo->held[s][0] = memo->held[s][1] = 0;
        if (prev && prev->pinned[s]) {
            /* on from the frame before: B's ankle moves as A's, scaled,
             * while A's is still; else it goes back towards its own */
            double pa0[3];
            at(ta, &z->pa, r - 1, ta->ankle[s], pa0);
            bool still = pki_hypot(pki_hypot(pa[0] - pa0[0], pa[1] - pa0[1]), pa[2] - pa0[2]) <
                         STILL * ta->leg_len;
            double *h = memo->held[s];
            for (int k = 0; k < 2; k++) {
                int c = k ? 2 : 0;
                h[k] = still ? prev->held[s][k] + z->scale_xz * (pa[c] - pa0[c]) -
                                   (memo->own[s][k] - prev->own[s][k])
                             : prev->held[s][k] * RELAX;
            }
            double hl = pki_hypot(h[0], h[1]);
            if (hl > MAX_HELD * legb) {
                h[0] *= MAX_HELD * legb / hl;
                h[1] *= MAX_HELD * legb / hl;
            }
            goal[0] += h[0];
            goal[2] += h[1];
        }
        for (int k = 0; k < 3; k++)
            memo->foot[s][k] = pbk[k] + wgt * (goal[k] - pbk[k]);
        *off_y = fmax(*off_y, fabs(pbk[1] - memo->foot[s][1]));
    }
    if (!memo->pinned[s])
        return 0;
    const double *T = memo->foot[s];
    double d[3], off[3] = {0, 0, 0}, gap[3], a2h[3];
    /* a leg straighter than at rest is at the edge of what the solver
     * reaches: a fit's error there can lose the foot */
    double Rrest = reach_of(tb, s);
    bool over = false;
    if (tb->hip[s] >= 0) {
        at(tb, pb, r, tb->hip[s], hip);
        pki_v3_sub(hip, T, off);
        over = pki_v3_len(off) > Rrest * (1 + PIN_SLACK / 8);
    }
    pki_v3_sub(T, pbk, d);
    if (pki_v3_len(d) <= PIN_TOL * legb && !over)
        return 0; /* there (whether the leg reaches its 足ＩＫ or not) */
    pki_v3_sub(T, ik, d);
    if (pki_v3_len(d) > PIN_TOL * legb) {
        /* the 足ＩＫ to the goal */
        move_by(tb, pb, r, tb->leg_ik[s], d, v);
        *more = true;
    }
    /* where the leg does not reach its 足ＩＫ (or is straighter than at
     * rest), the hips down until the goal is within the reach the solver
     * gives it (hip to ankle now, at most the rest 足->足首), less the
     * slack; where it is further across the floor than that, the hips
     * across towards it, until it is in reach from where they are up */
    pki_v3_sub(pbk, ik, gap);
    bool reaches = pki_v3_len(gap) <= PIN_TOL * legb;
    if (tb->hip[s] < 0 || (reaches && !over))
        return 0;
    pki_v3_sub(hip, pbk, a2h);
    double R = (reaches ? Rrest : fmin(pki_v3_len(a2h), Rrest)) - slack;
    double h = pki_hypot(off[0], off[2]);
    if (pki_v3_len(off) <= R)
        return 0;
    if (!(R > h + slack)) {
        if (!pull)
            return 0; /* センター stays across the floor */
        double up = fabs(off[1]) < R ? fabs(off[1]) : 0;
        if (raise && off[1] < 0) {
            /* the hips below the goal: up to its height, where the leg
             * reaches furthest across the floor */
            *raise = fmax(*raise, -off[1]);
            up = 0;
        }
        double k = memo->wgt[s] * (h - sqrt(R * R - up * up)) / h;
        pull[0] -= k * off[0];
        pull[1] -= k * off[2];
        *more = true;
        return 0;
    }
    double drop = off[1] - sqrt(R * R - h * h);
    if (drop > PIN_TOL * legb)
        *more = true;
    return drop > 0 ? drop : 0;
}

/* The round's moves of センター (memo[r].d, each row's own) smoothed into
 * memo[r].move.  A row where A stands on its 足ＩＫ is smoothed among
 * such rows only; a row where A is off it (off[r]: its feet are not
 * where its IK puts them, a dance keyed for longer legs, so its aim means
 * less) among all, so that such a stretch neither pulls its neighbours
 * off their goal nor jumps at its edges.  The first round, whose moves
 * are large, is smoothed over 2 rows either side (weights 1 2 3 2 1: a
 * frame's move alone does not jerk the body); the later rounds, which
 * move only the rows still off by what is left, over one (1 4 1: each
 * row keeps at least a third of any change from frame to frame, so that
 * every row still off gets there, where 1 2 3 2 1 would cancel a change
 * every third frame). */
static void centre_moves(cog_memo *memo, const bool *off, uint32_t n, bool first)
{
    static const double wide[5] = {1, 2, 3, 2, 1}, narrow[5] = {0, 1, 4, 1, 0};
    const double *wt = first ? wide : narrow;
    for (uint32_t r = 0; r < n; r++) {
        double d[2] = {0, 0}, wsum = 0;
        uint32_t lo = r > 2 ? r - 2 : 0, hi = r + 2 < n ? r + 2 : n - 1;
        for (uint32_t j = lo; j <= hi; j++) {
            double k = off[r] || !off[j] ? wt[j + 2 - r] : 0;
            d[0] += k * memo[j].d[0];
            d[1] += k * memo[j].d[1];
            wsum += k;
        }
        memo[r].move[0] = d[0] / wsum;
        memo[r].move[1] = d[1] / wsum;
    }
}

/* kept (or NULL): the values of the round's four tracks as the motion has
 * them, from the round before where it did not rewrite them (pos NULL:
 * not known); taken, and given back for the next round. */
static int centre_round(pki_sizing *z, writer *w, pk_body_report *rep, bool first, bool cog,
                        bool settle, bool across, cog_memo *memo, track_vals kept[4], bool *changed,
                        bool *more)
{
    const pki_torso *ta = z->ta, *tb = z->tb;
    const pki_play *pb = &z->pb;
    *more = false;
    if (tb->centre < 0 || !(tb->leg_len > 0) || !(ta->leg_len > 0))
        return 0;
    int32_t ybone = tb->groove >= 0 ? tb->groove : tb->centre;
    int32_t bones[4] = {tb->centre, ybone, tb->leg_ik[0], tb->leg_ik[1]};
    track_vals now[4], was[4];
    memset(now, 0, sizeof now);
    memset(was, 0, sizeof was);
    int rc = -1;
    double *drops = malloc((w->n + 1) * sizeof *drops);
    double *eased = malloc((w->n + 1) * sizeof *eased);
    double(*pulls)[2] = calloc(w->n + 1, sizeof *pulls);
    double *raises = calloc(w->n + 1, sizeof *raises);
    if (!drops || !eased || !pulls || !raises)
        goto done;
    for (int i = 0; i < 4; i++) {
        if (bones[i] < 0)
            continue;
        if (kept && kept[i].pos) {
            was[i] = kept[i];
            memset(&kept[i], 0, sizeof kept[i]);
            if (!vals_copy(w, &was[i], &now[i]))
                goto done;
        } else if (!vals_pair(w, bones[i], &was[i], &now[i])) {
            goto done;
        }
    }
    double legb = tb->leg_len;
    /* the reach a planted foot's leg leaves to the IK solver and to the
     * fit of the hips (their error may not lose the foot) */
    double slack = fmax(PIN_SLACK * legb, 2 * w->tol_pos);
    for (uint32_t r = 0; r < w->n; r++) {
        double e[2] = {0, 0}, d[3] = {0, 0, 0};
        cog_memo *m = &memo[r];
        for (int s = 0; first && s < 2; s++)
            m->ik_off[s] = !ik_on(w, tb->leg_ik[s], w->f0 + r);
        /* with both legs' IK off the feet go with the hips: moving
         * センター does not move the centre of gravity over them */
        bool free = m->ik_off[0] && m->ik_off[1];
        bool known = (cog || settle) && cog_error_at(z, r, m, e);
        double el = known ? sqrt(e[0] * e[0] + e[1] * e[1]) : 0;
        if (known) {
            if (cog && (!m->best_known || el < m->best)) {
                m->best = el;
                m->best_at[0] = was[0].pos[r][0];
                m->best_at[1] = was[0].pos[r][2];
                m->best_known = true;
            } else if (settle && m->best_known && el > SETTLE * COG_TOL * legb &&
                       el > SETTLE * m->best) {
                /* the last rounds left it worse than it was (a leg's IK
                 * turning over): センター back where it was best */
                now[0].pos[r][0] = m->best_at[0];
                now[0].pos[r][2] = m->best_at[1];
            }
        }
        if (cog && !free && known && el > COG_TOL * legb) {
            /* the share of the last move the error followed (secant),
             * else COG_GAIN */
            double g = COG_GAIN, *md = memo[r].d, *me = memo[r].e;
            double dd = md[0] * md[0] + md[1] * md[1];
            if (!first && dd > 1e-12) {
                double got = ((e[0] - me[0]) * md[0] + (e[1] - me[1]) * md[1]) / dd;
                g = got < 0.5 ? 0.5 : got > 1.2 ? 1.2 : got;
            }
            d[0] = -e[0] / g;
            d[2] = -e[1] / g;
            /* a round moves センター at most MAX_MOVE of B's leg */
            double dl = pki_hypot(d[0], d[2]);
            if (dl > MAX_MOVE * legb) {
                d[0] *= MAX_MOVE * legb / dl;
                d[2] *= MAX_MOVE * legb / dl;
            }
            /* a move that made it worse is half taken back; one that
             * made it LEAP times worse (a leg's IK turning over in a band
             * of センター's places) is taken once more instead, to step
             * over the band */
            double worse = e[0] * e[0] + e[1] * e[1], was_e = me[0] * me[0] + me[1] * me[1];
            if (!first && dd > 1e-12 && worse > 1.44 * was_e) {
                bool leap = !m->leapt && worse > LEAP * LEAP * was_e;
                double k = leap ? 1.0 : -0.5;
                d[0] = k * md[0];
                d[2] = k * md[1];
                m->leapt |= leap;
            }
            rep->centre_max = fmax(rep->centre_max, sqrt(d[0] * d[0] + d[2] * d[2]) / legb);
            *more = true;
        }
        /* the feet (each foot's pull apart: see below) */
        double drop = 0;
        double off = 0;
        double pull[2][2] = {{0, 0}, {0, 0}}, raise[2] = {0, 0};
        for (int s = 0; s < 2; s++) {
            if (first && m->ik_off[s]) {
                memo[r].pinned[s] = false; /* the motion turns that 足ＩＫ off */
                continue;
            }
            drop = fmax(drop, foot_at(z, r, s, first, &memo[r], r ? &memo[r - 1] : NULL,
                                      &now[2 + s], slack, &off, across ? pull[s] : NULL,
                                      across && !cog ? &raise[s] : NULL, more));
        }
        pulls[r][0] = pull[0][0] + pull[1][0];
        pulls[r][1] = pull[0][1] + pull[1][1];
        /* after the centre rounds (cog false), a foot out of its leg's
         * reach across the floor pulls the hips back towards it, which
         * undoes the rounds' moves along the pull: where one foot pulls
         * (two would hold the hips both ways), センター also moves across
         * the pull, along the edge of the reach (which the pull does not
         * undo), by the part of the error that lies across it, and the
         * hips below that foot come up to its height (raises) */
        int one = (pull[0][0] != 0 || pull[0][1] != 0) + 2 * (pull[1][0] != 0 || pull[1][1] != 0);
        if (!cog && across && !free && (one == 1 || one == 2)) {
            const double *p1 = pull[one - 1];
            double pl = pki_hypot(p1[0], p1[1]);
            raises[r] = raise[one - 1];
            if (cog_error_at(z, r, m, e) && pki_hypot(e[0], e[1]) > COG_TOL * legb) {
                double u[2] = {-p1[1] / pl, p1[0] / pl};
                double t = -(e[0] * u[0] + e[1] * u[1]) / COG_GAIN;
                pulls[r][0] += t * u[0];
                pulls[r][1] += t * u[1];
                rep->centre_max = fmax(rep->centre_max, fabs(t) / legb);
            }
        }
        drops[r] = drop;
        if (drop > 0 || off > FLOOR_TOL * legb) {
            rep->floor_max = fmax(rep->floor_max, fmax(drop, off) / legb);
            rep->floor_frames += first;
        }
        memcpy(memo[r].e, e, sizeof e);
        memo[r].d[0] = d[0];
        memo[r].d[1] = d[2];
        rep->centre_frames += first && (d[0] != 0 || d[2] != 0);
    }
    /* センター's moves, smoothed (centre_moves), and the hips across for
     * a foot out of reach, as they are */
    if (cog)
        centre_moves(memo, z->a_off, w->n, first);
    for (uint32_t r = 0; r < w->n; r++) {
        double d[3] = {pulls[r][0], 0, pulls[r][1]};
        if (cog) {
            d[0] += memo[r].move[0];
            d[2] += memo[r].move[1];
        }
        if (d[0] != 0 || d[2] != 0)
            move_by(tb, pb, r, tb->centre, d, &now[0]);
    }
    /* the hips go down and come back up over EASE frames either side (they
     * do not pop where a leg starts or stops reaching): each row the most
     * of the drops around it, eased by their distance (spread from the
     * rows that drop: most rows have none) */
    for (uint32_t r = 0; r < w->n; r++)
        eased[r] = 0;
    for (uint32_t j = 0; j < w->n; j++) {
        if (!(drops[j] > 0))
            continue;
        uint32_t lo = j > EASE ? j - EASE : 0, hi = j + EASE < w->n ? j + EASE : w->n - 1;
        for (uint32_t r = lo; r <= hi; r++) {
            double t = 1.0 - (double)(j > r ? j - r : r - j) / (EASE + 1);
            eased[r] = fmax(eased[r], drops[j] * t * t * (3 - 2 * t));
        }
    }
    for (uint32_t r = 0; r < w->n; r++) {
        double rz = drops[r] > 0 ? 0 : raises[r];
        if (eased[r] > 0 || rz > 0) {
            double dn[3] = {0, rz - eased[r], 0};
            move_by(tb, pb, r, ybone, dn, &now[1]);
        }
    }
    /* the centre and the groove may be one bone: the first carries both */
    if (ybone == tb->centre) {
        for (uint32_t r = 0; r < w->n; r++)
            for (int k = 0; k < 3; k++)
                now[0].pos[r][k] += now[1].pos[r][k] - was[1].pos[r][k];
        bones[1] = -1;
    }
    bool rewritten[4] = {false, false, false, false};
    rc = 0;
    for (int i = 0; i < 4 && !rc; i++) {
        int k = bones[i] < 0 ? 0 : put_track(w, bones[i], &now[i], &was[i]);
        rc = k < 0 ? -1 : 0;
        rewritten[i] = k > 0;
        *changed |= k > 0;
    }
    if (ybone == tb->centre)
        rewritten[1] = rewritten[0];
    for (int i = 0; kept && !rc && i < 4; i++)
        if (!rewritten[i] && was[i].pos) {
            kept[i] = was[i];
            memset(&was[i], 0, sizeof was[i]);
        }
done:
    free(drops);
    free(eased);
    free(pulls);
    free(raises);
    for (int i = 0; i < 4; i++) {
        vals_free(&now[i]);
        vals_free(&was[i]);
    }
    return rc;
}

/* The toes: つま先ＩＫ moved so B's toe has its height. */
static int toe_step(pki_sizing *z, writer *w, pk_body_report *rep, bool *changed)
{
    const pki_torso *ta = z->ta, *tb = z->tb;
    const pki_play *pb = &z->pb;
    if (!(tb->leg_len > 0) || !(ta->leg_len > 0))
        return 0;
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++) {
        if (ta->toe[s] < 0 || tb->toe[s] < 0 || tb->ankle[s] < 0)
            continue;
        /* without つま先ＩＫ the ankle turns by its own key (MMD plays it:
         * the leg's IK moves only 足 and ひざ) */
        bool ik = tb->toe_ik[s] >= 0;
        int32_t bone = ik ? tb->toe_ik[s] : tb->ankle[s];
        rep->no_toe_ik |= !ik;
        rep->toes_done = true;
        track_vals now, was;
        memset(&now, 0, sizeof now);
        memset(&was, 0, sizeof was);
        if (!vals_pair(w, bone, &was, &now)) {
            vals_free(&now);
            vals_free(&was);
            return -1;
        }
        double legb = tb->leg_len;
        double floor_b = fmin(0.0, tb->toe_rest_y[s]), floor_a = fmin(0.0, ta->toe_rest_y[s]);
        for (uint32_t r = 0; r < w->n; r++) {
            double pa[3], t[3], a[3], T[3];
            at(ta, &z->pa, r, ta->toe[s], pa);
            at(tb, pb, r, tb->toe[s], t);
            at(tb, pb, r, tb->ankle[s], a);
            at(tb, pb, r, ik ? tb->toe_ik[s] : tb->toe[s], T);
            double lift_a = pa[1] - ta->toe_rest_y[s];
            double wgt = low_weight(lift_a, ta->leg_len);
            double want = t[1];
            if (wgt > 0) {
                double h = tb->toe_rest_y[s] + z->scale_y * lift_a;
                want = t[1] + (h - t[1]) * wgt;
            }
            double a_scaled = floor_b + z->scale_y * (pa[1] - floor_a);
            double lowest = fmin(floor_b, a_scaled);
            if (want < lowest)
                want = lowest;
            if (fabs(want - t[1]) <= TOE_TOL * legb)
                continue;
            /* the toe turned about the ankle, its heading kept */
            double v[3], vt[3];
            pki_v3_sub(t, a, v);
            pki_v3_sub(T, a, vt);
            double L = pki_v3_len(v), LT = pki_v3_len(vt);
            double hx = v[0], hz = v[2], hl = sqrt(hx * hx + hz * hz);
            if (!(L > 0) || !(LT > 0) || hl < 1e-9 * L)
                continue;
            double dy = (want - a[1]) / L;
            dy = dy > 1 ? 1 : dy < -1 ? -1 : dy;
            double hm = sqrt(1 - dy * dy);
            double dir[3] = {hx / hl * hm, dy, hz / hl * hm};
            if (ik) {
                double Tn[3] = {a[0] + LT * dir[0], a[1] + LT * dir[1], a[2] + LT * dir[2]};
                double d[3];
                pki_v3_sub(Tn, T, d);
                move_by(tb, pb, r, tb->toe_ik[s], d, &now);
            } else {
                /* 足首: P^-1 e W, e turning the foot onto dir */
                double e[4], P[4], W[4], eW[4];
                pki_q_arc(v, dir, e);
                parent_rot(tb, pb, r, tb->ankle[s], P);
                rot_at(tb, pb, r, tb->ankle[s], W);
                pki_qd_mul(e, W, eW);
                rel(P, eW, now.rot[r]);
            }
            rep->toe_frames++;
            rep->toe_max = fmax(rep->toe_max, fabs(want - t[1]) / legb);
        }
        int k = put_track(w, bone, &now, &was);
        if (k < 0)
            rc = -1;
        else if (k)
            *changed = true;
        vals_free(&now);
        vals_free(&was);
    }
    return rc;
}

/* The feet apart: each 足ＩＫ moved outward (along the hips' X, across
 * the floor) by u. */
static int apart_step(pki_sizing *z, writer *w, double u, pk_body_report *rep, bool *changed)
{
    const pki_torso *tb = z->tb;
    const pki_play *pb = &z->pb;
    for (int s = 0; s < 2; s++) {
        if (tb->leg_ik[s] < 0)
            continue;
        track_vals now, was;
        memset(&now, 0, sizeof now);
        memset(&was, 0, sizeof was);
        int rc = vals_pair(w, tb->leg_ik[s], &was, &now) ? 0 : -1;
        for (uint32_t r = 0; !rc && r < w->n; r++) {
            double h = heading(tb, pb, r), side = s ? -u : u;
            double d[3] = {side * pki_cos(h), 0, -side * pki_sin(h)};
            move_by(tb, pb, r, tb->leg_ik[s], d, &now);
        }
        int k = rc ? -1 : put_track(w, tb->leg_ik[s], &now, &was);
        vals_free(&now);
        vals_free(&was);
        if (k < 0)
            return -1;
        *changed |= k > 0;
        rep->apart = u;
    }
    return 0;
}

/* ---- the run ---- */

/* B played again (the rows nothing changed in taken from the last play,
 * which after the first is updated in place); memo (or NULL) forgets what
 * it knew of the rows that changed. */
/* The bones B's plays watch (the figure's and the torso's): a new array
 * the caller frees, or NULL (logged). */
static bool *b_watch(const pki_sizing *z, pk_log *log)
{
    bool *watch = calloc(z->b.m->nbones + 1, sizeof *watch);
    if (!watch) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    pki_figure_watch(&z->b, watch);
    pki_torso_watch(z->tb, watch);
    return watch;
}

static int replay(pki_sizing *z, pki_bone_set *s, writer *w, cog_memo *memo, const bool *only,
                  pk_log *log)
{
    bool *watch = b_watch(z, log);
    if (!watch)
        return -1;
    int rc;
    if (s->m && (z->pb0.n || z->pb_steps)) { /* B's during the steps: updated */
        rc = pki_play_motion_update_rows(&z->pb, s->m, watch, only, log);
    } else {
        pki_play p;
        rc = s->m ? pki_play_motion_again(&p, &z->pb, z->b.m, s->m, z->pb.f0, z->pb.n, watch, log)
                  : pki_play_pose(&p, z->b.m, s->p, watch, log);
        if (!rc) {
            if (z->pb0.n)
                pki_play_free(&z->pb);
            else
                z->pb0 = z->pb;
            pki_play_lean(&z->pb0); /* B before the steps: no play follows it */
            z->pb = p;
        }
    }
    free(watch);
    if (rc)
        return -1;
    w->played += s->m ? z->pb.evaluated : 1;
    for (uint32_t r = 0; memo && r < z->pb.n; r++)
        memo[r].cog_known &= !z->pb.fresh[r];
    return 0;
}

/* B played in full from nothing (z->pb watched only what the upper step
 * reads): 0, or -1 (logged). */
static int play_full(pki_sizing *z, pki_bone_set *s, pk_log *log)
{
    bool *watch = b_watch(z, log);
    if (!watch)
        return -1;
    pki_play p;
    int rc = pki_play_motion(&p, z->b.m, s->m, z->pb.f0, z->pb.n, watch, log);
    free(watch);
    if (rc)
        return -1;
    pki_play_free(&z->pb);
    z->pb = p;
    z->pb_upper = false;
    return 0;
}

/* The rows a written track changed played again (replay: the other rows
 * are taken from the last play). */
static int replay_dirty(pki_sizing *z, pki_bone_set *s, writer *w, cog_memo *memo, pk_log *log)
{
    bool any = false;
    for (uint32_t r = 0; r < w->n && !any; r++)
        any = w->dirty[r];
    if (!any)
        return 0;
    memset(w->dirty, 0, w->n * sizeof *w->dirty);
    return replay(z, s, w, memo, NULL, log);
}

/* The rows of B's play the fitted keys are played again at (into only):
 * those a round changed since the last play (w->dirty, cleared), and
 * those where a pinned foot's leg may leave its reach.  Elsewhere the
 * fit moved the hips by at most hips[r] (what it moved センター and
 * グルーブ, and their turns over the way to the legs) and a 足ＩＫ by
 * foot[r][s]: where a pinned foot's leg keeps more than that of its reach
 * to spare (the solver's slack kept), the leg still reaches and the
 * foot stays with its 足ＩＫ, which the fit keeps within the 足ＩＫ's
 * tolerance (at most PIN_TOL of the leg: a planted foot's own allowance),
 * so the feet round is not played for it there; the row as the exact
 * values played it is within the fit's tolerances of the fitted keys'
 * (what the steps after read).
 * The feet round reads a row's bones where a foot is pinned, and only
 * the turn of グルーブ's parent (within the fit's tolerance) where it
 * eases the hips down around them; what it moves is played after it
 * (w->dirty). */
static void fit_rows(const pki_sizing *z, writer *w, const cog_memo *memo, const double *hips,
                     const double (*foot)[2], bool *only)
{
    const pki_torso *tb = z->tb;
    const pki_play *pb = &z->pb;
    uint32_t n = w->n;
    for (uint32_t r = 0; r < n; r++) {
        bool risk = false;
        for (int s = 0; s < 2 && !risk; s++) {
            if (!memo[r].pinned[s] || tb->ankle[s] < 0 || tb->leg_ik[s] < 0)
                continue;
            if (tb->hip[s] < 0) {
                risk = true;
                continue;
            }
            const double *T = memo[r].foot[s];
            double pbk[3], hip[3], ik[3], d[3];
            at(tb, pb, r, tb->ankle[s], pbk);
            at(tb, pb, r, tb->hip[s], hip);
            at(tb, pb, r, tb->leg_ik[s], ik);
            pki_v3_sub(T, ik, d);
            double off = pki_v3_len(d);
            pki_v3_sub(T, pbk, d);
            off = fmax(off, pki_v3_len(d));
            pki_v3_sub(hip, T, d);
            risk = pki_v3_len(d) + hips[r] + off + foot[r][s] > reach_of(tb, s) * (1 - PIN_SLACK);
        }
        only[r] = risk;
    }
    for (uint32_t r = 0; r < n; r++)
        only[r] |= w->dirty[r];
    memset(w->dirty, 0, n * sizeof *w->dirty);
}

/* What the fit moves the hips and the feet by at each row (fit_rows),
 * from the values of センター, グルーブ and both 足ＩＫ before it (was)
 * and after (added into hips and foot, zeroed before the fit: false on
 * OOM). */
static bool fit_moves(const pki_sizing *z, writer *w, track_vals was[4], bool after,
                      double *hips, double (*foot)[2])
{
    const pki_torso *tb = z->tb;
    int32_t bones[4] = {tb->centre, tb->groove, tb->leg_ik[0], tb->leg_ik[1]};
    double lever = 0;
    for (int i = 0; i < 2; i++) {
        if (bones[i] < 0)
            continue;
        double c[3], hp[3], d[3];
        rest_pos(tb->m, bones[i], c);
        for (int s = 0; s < 2; s++)
            if (tb->hip[s] >= 0) {
                rest_pos(tb->m, tb->hip[s], hp);
                pki_v3_sub(hp, c, d);
                lever = fmax(lever, pki_v3_len(d));
            }
    }
    bool ok = true;
    for (int i = 0; i < 4 && ok; i++) {
        if (bones[i] < 0)
            continue;
        if (!after) {
            ok = vals_of(w, bones[i], &was[i]);
            continue;
        }
        track_vals now;
        memset(&now, 0, sizeof now);
        ok = vals_of(w, bones[i], &now);
        for (uint32_t r = 0; ok && r < w->n; r++) {
            double d[3];
            pki_v3_sub(now.pos[r], was[i].pos[r], d);
            double m = pki_v3_len(d);
            bool turned = memcmp(now.rot[r], was[i].rot[r], sizeof now.rot[r]) != 0;
            double a = turned ? pki_qd_angle_deg(now.rot[r], was[i].rot[r]) / DEG : 0;
            if (i < 2)
                hips[r] += m + a * lever;
            else
                foot[r][i - 2] = m;
        }
        vals_free(&now);
    }
    return ok;
}

/* The centre step's rounds, each played again, the last ones for the feet
 * alone: 0, -1 (logged), 1 on OOM. */
static int centre_rounds(pki_sizing *z, pki_bone_set *s, writer *w, pk_body_report *rep,
                         bool across, cog_memo *memo, pk_log *log)
{
    track_vals kept[4];
    memset(kept, 0, sizeof kept);
    int rc = 0;
    for (int i = 0; i < ROUNDS + FEET_ROUNDS && !rc; i++) {
        bool more = false, ch = false, cog = i < ROUNDS && across;
        rep->centre_rounds++;
        if (centre_round(z, w, rep, i == 0, cog, i == ROUNDS && across, across, memo, kept, &ch,
                         &more) != 0)
            rc = 1;
        else if (ch && replay_dirty(z, s, w, memo, log) != 0)
            rc = -1;
        else if (!ch || !more)
            break;
    }
    for (int i = 0; i < 4; i++)
        vals_free(&kept[i]);
    return rc;
}

int pki_body_run(pki_sizing *z, pki_bone_set *s, const pk_retarget_options *o, pk_body_report *rep,
                 pk_log *log)
{
    if ((o->measure || !o->no_centre) && !a_off_rows(z)) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    if (o->measure) {
        body_stats st = stats_of(z, &z->pb);
        pk_body_measure *m = &z->body_before;
        m->done = st.ok;
        m->head_max_before = st.head_max;
        m->head_mean_before = st.head_mean;
        m->shoulder_max_before = st.shoulder_max;
        m->cog_max_before = st.cog_max;
        m->cog_mean_before = st.cog_mean;
        m->cog_on_ik_max_before = st.on_max;
        m->cog_on_ik_mean_before = st.on_mean;
        m->toe_below_before = st.toes;
    }
    if (o->no_centre && o->no_upper && o->no_shoulders && o->no_toes && !(o->feet_apart > 0))
        return 0;
    writer w;
    cog_memo *memo = NULL;
    bool *only = NULL;                      /* the rows the fitted keys are played again at */
    double *hips = NULL, (*feet)[2] = NULL; /* what a fit moves (fit_moves) */
    int rc = -1;
    if (!writer_init(&w, s, z, o)) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    bool changed = false;
    if (o->feet_apart > 0 && apart_step(z, &w, o->feet_apart, rep, &changed) != 0)
        goto oom;
    if ((!o->no_upper || !o->no_shoulders) &&
        upper_step(z, &w, !o->no_upper, !o->no_shoulders, rep, &changed) != 0)
        goto oom;
    /* the upper body's keys fitted before B is played again: the rounds
     * and the steps after read its fitted turns (the rows the fits of
     * the hips and feet leave unplayed differ from their fitted keys'
     * only by where the hips are, not by how the body turns) */
    if (changed && w.ntouched && writer_fit(&w) != 0)
        goto oom;
    if (z->pb_upper) {
        /* B played in full once, after the upper step: its rows are
         * those a play again after it gives (nothing of B before the
         * steps is kept: no measures) */
        if (play_full(z, s, log) != 0)
            goto done;
        memset(w.dirty, 0, w.n * sizeof *w.dirty);
        if (changed) {
            z->pb_steps = true;
            w.played += z->pb.evaluated;
        }
    } else if (changed && replay_dirty(z, s, &w, NULL, log) != 0) {
        goto done;
    }
    changed = false;
    bool across = !(o->scale_xz > 0);
    if (!o->no_centre) {
        rep->centre_done = z->tb->centre >= 0 && z->tb->leg_len > 0;
        memo = calloc(w.n + 1, sizeof *memo);
        if (!memo)
            goto oom;
        /* the last rounds for the feet alone (センター stays across the
         * floor: what the rounds before it left is what they measured) */
        int k = centre_rounds(z, s, &w, rep, across, memo, log);
        if (k > 0)
            goto oom;
        if (k < 0)
            goto done;
    }
    /* the rounds played the exact values; the fitted keys are played
     * once more: a round for the feet alone on them (a fit's error can
     * lose a foot whose leg is at the edge of its reach), fitted again,
     * then the toes (on the legs as written), and the arm steps after */
    if (memo) {
        only = malloc((w.n + 1) * sizeof *only);
        hips = malloc((w.n + 1) * sizeof *hips);
        feet = malloc((w.n + 1) * sizeof *feet);
        if (!only || !hips || !feet)
            goto oom;
    }
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1 && memo) {
            bool more = false, ch = false;
            if (centre_round(z, &w, rep, false, false, false, across, memo, NULL, &ch, &more) != 0)
                goto oom;
        }
        if (pass == 2 && !o->no_toes && toe_step(z, &w, rep, &changed) != 0)
            goto oom;
        if (!w.ntouched)
            continue;
        track_vals was[4];
        memset(was, 0, sizeof was);
        bool moves = only && pass < 2;
        if (moves) {
            memset(hips, 0, w.n * sizeof *hips);
            memset(feet, 0, w.n * sizeof *feet);
        }
        bool fitted = (!moves || fit_moves(z, &w, was, false, hips, feet)) && writer_fit(&w) == 0 &&
                      (!moves || fit_moves(z, &w, was, true, hips, feet));
        for (int i = 0; i < 4; i++)
            vals_free(&was[i]);
        if (!fitted)
            goto oom;
        if (moves) /* from the play before the fit */
            fit_rows(z, &w, memo, hips, (const double(*)[2])feet, only);
        /* the toes are not played again here: no step after them reads
         * B's ankles' turns or toes (the arm steps read the arms and the
         * body's parts, which the toes do not move), and the measures'
         * play takes from this one the rows whose inputs are the same */
        if (pass < 2 && replay(z, s, &w, memo, only, log) != 0)
            goto done;
    }
    rep->keys = w.keys;
    rep->rows_played = w.played;
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    free(only);
    free(hips);
    free(feet);
    free(memo);
    writer_free(&w);
    return rc;
}
