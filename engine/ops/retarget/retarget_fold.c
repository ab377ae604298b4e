/*
 * retarget_fold.c — bones model A has and model B lacks, carried into the
 * bones B has (posekit.h, pk_motion_fold / pk_pose_fold).
 *
 * Gaps.  For every bone C that both models have, its "gap" is the run of
 * A's bones between C and its nearest ancestor P (in A's tree) that B also
 * has: g_1 (top) .. g_k.  On A, C's world rotation is W_P·q_1···q_k·q_C; on
 * B, where C hangs from P directly, it is W_P·q_C'.  So
 *     q_C' = Q·q_C,   Q = q_1···q_k,
 * keeps C's world rotation exactly.  Positions: the gap's last head sits,
 * in P's axes, at Σ Q_{<i}·(o_i + t_i) (o_i the rest offset of g_i from the
 * one above, t_i its translation), D = that − Σ o_i away from rest; C's head
 * then at D + Q·(o_C + t_C).  On B it is at o_C + t_C', so a movable C takes
 *     t_C' = D + Q·(o_C + t_C) − o_C.
 * When every bone B hangs from P has the same gap (グルーブ between センター
 * and 上半身/下半身) and P is movable, D goes into P instead, as MMD users
 * fold a groove into the centre: t_P' = t_P + q_P·D, and each C then takes
 * only Q·(o_C + t_C) − o_C.  A bone that cannot move on B keeps its own
 * translation (its position then follows B's skeleton; rotations are exact).
 *
 * Append (付与).  A's bones turn as MMD turns them: a gap bone with an
 * append parent takes `ratio` of that parent's rotation (its append
 * rotation when it has one and the append is not local) after its own, and
 * of its translation, as ops/skeleton/eval.c evaluates it.  So mmt-style 肩P/肩C
 * pairs fold exactly: 肩P's turn goes into 肩 and 肩C's cancelling turn
 * (append 肩P x -1) into 腕, and the arm keeps its world rotation.  A gap
 * moved only through an append counts as keyed, and the append sources'
 * tracks are read with the gap's.
 *
 * Fixed axes.  A bone with a fixed axis on A turns only about that axis,
 * whatever its keys say (MMD keeps the key's twist about the axis).  Gap
 * bones and append sources are read that way; a keyed bone B has whose
 * axis is fixed on A but not (or otherwise) on B is rewritten to the
 * twist A shows (a job of its own when it has no gap).
 *
 * Keys.  The exact composition of a rewritten track is computed at every
 * integer frame (cursors, one pass) and given the fewest keys a greedy
 * search finds whose curves, fitted by the keyframe reducer's fitter
 * (engine/math/curve.h), stay within the tolerances (max_deg, and max_pos
 * as a distance; reduce's defaults): from each key, the farthest frame of
 * the union of the frames its inputs key whose piece one curve per
 * channel fits, else the farthest frame before the next union frame.  The
 * sampler then checks every frame, and a piece out of tolerance gets a key
 * at every frame.  Within the reducer's tolerances rather than a tighter
 * fit: a tighter one cuts pieces until the track is nearly baked (a
 * 2,810-frame dance's 上半身2 folded into 首 and the shoulders: 4,740 keys
 * at 0.002 degrees, 1,816 at 0.1), and errors of that size are what
 * `reduce` already accepts; the errors of rewritten tracks along a chain
 * add up in the world (0.34 degrees at mmt's hands, four tracks deep).
 * Records of other bones, morphs, camera, light, shadow and IK stay
 * byte-identical and in order; the folded bones' and rewritten tracks'
 * records are dropped and the new keys appended.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "math/curve.h"
#include "math/quat.h"
#include "model/names.h"
#include "ops/retarget/retarget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAP_MAX 16

typedef struct gap {
    long bone[GAP_MAX]; /* A indices, top down */
    int n;
    long p; /* the nearest ancestor B has (A index), -1: none */
    bool keyed;
} gap;

typedef struct job {
    long ca;      /* A index of the bone rewritten (B has it) */
    long cb;      /* its B index */
    int up;       /* its own gap (folded into it), -1 none */
    bool up_d;    /* the up gap's D goes into this bone */
    int down;     /* a gap whose D this bone takes as P, -1 none */
    bool movable; /* on B */
    bool project; /* keep only the twist about A's fixed axis (B's differs) */
} job;

typedef struct fold {
    const pk_model *a, *b;
    long *a2b;              /* per A bone: B index or -1 */
    const pk_track **track; /* per A bone: the motion's track or NULL */
    pk_name_id *name;       /* per A bone: the motion's name id or PK_NO_NAME */
    gap *gaps;
    size_t ngaps;
    job *jobs;
    size_t njobs;
    double (*val)[7];  /* per A bone: t[3], q[4] at the current frame */
    double (*axis)[3]; /* per A bone: its unit fixed axis ... */
    bool *has_axis;    /* ... when it has one (worked out once) */
} fold;

static void rest_off(const pk_model *m, long from, long to, double o[3])
{
    for (int k = 0; k < 3; k++)
        o[k] = (double)m->bones[to].pos[k] - (from >= 0 ? (double)m->bones[from].pos[k] : 0.0);
}

/* A's fixed axis of bone i as a unit vector, or false. */
static bool fixed_axis(const pk_model *m, long i, double ax[3])
{
    const pk_model_bone *b = &m->bones[i];
    if (!(b->flags & PK_BONE_FIXED_AXIS))
        return false;
    double n = 0.0;
    for (int k = 0; k < 3; k++) {
        ax[k] = b->fixed_axis[k];
        n += ax[k] * ax[k];
    }
    n = sqrt(n);
    if (!(n > 1e-12) || !isfinite(n))
        return false;
    for (int k = 0; k < 3; k++)
        ax[k] /= n;
    return true;
}

/* The rotation A bone i shows for the keyed rotation q: q itself, or its
 * twist about A's fixed axis (as ops/skeleton/eval.c projects it). */
static void shown(const fold *f, long i, const double q[4], double out[4])
{
    if (f->has_axis[i])
        pki_qd_twist(q, f->axis[i], out);
    else
        memcpy(out, q, 4 * sizeof *out);
}

/* Does the keyed rotation q turn A bone i off its fixed axis (by more
 * than rounding)? */
static bool turns_off_axis(const fold *f, long i, const float rot[4])
{
    double q[4], t[4];
    pki_qd_from_key(rot, q);
    shown(f, i, q, t);
    double d = fabs(q[0] * t[0] + q[1] * t[1] + q[2] * t[2] + q[3] * t[3]);
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return n > 0.0 && d / n < 1.0 - 1e-12;
}

/* Must bone ca's keys be cut to A's twist for B: A fixes its axis and
 * B's bone cb does not fix the same one?  (A bone free on A and fixed on
 * B cannot be helped: B shows less than the keys say, whatever they are.) */
static bool needs_twist(const pk_model *a, long ca, const pk_model *b, long cb)
{
    double x[3], y[3];
    if (!fixed_axis(a, ca, x))
        return false;
    return !fixed_axis(b, cb, y) || x[0] * y[0] + x[1] * y[1] + x[2] * y[2] < 1.0 - 1e-9;
}

/* Does A bone i inherit (append) from a valid other bone? */
static long append_parent(const pk_model *a, long i)
{
    const pk_model_bone *b = &a->bones[i];
    long ap = b->append_parent;
    if (!(b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)) || ap < 0 ||
        (size_t)ap >= a->nbones || ap == i)
        return -1;
    return ap;
}

/* A bone i's append rotation and translation at the current values, as
 * ops/skeleton/eval.c has them (IK aside): ratio x the append parent's append
 * value when the append is not local and the parent's is not nothing,
 * else ratio x the parent's own keyed value.  depth bounds a cycle. */
static void append_value(const fold *f, long i, double q[4], double t[3], int depth)
{
    q[0] = q[1] = q[2] = 0.0;
    q[3] = 1.0;
    t[0] = t[1] = t[2] = 0.0;
    long ap = append_parent(f->a, i);
    if (ap < 0 || depth > GAP_MAX)
        return;
    const pk_model_bone *b = &f->a->bones[i];
    bool local = (b->flags & PK_BONE_LOCAL_APPEND) != 0;
    double pq[4], pt[3];
    append_value(f, ap, pq, pt, depth + 1);
    bool prot = pq[0] != 0.0 || pq[1] != 0.0 || pq[2] != 0.0;
    bool ppos = pt[0] != 0.0 || pt[1] != 0.0 || pt[2] != 0.0;
    double aq[4];
    shown(f, ap, &f->val[ap][3], aq);
    const double *sq = !local && prot ? pq : aq;
    const double *st = !local && ppos ? pt : f->val[ap];
    double ratio = (double)b->append_ratio;
    if (b->flags & PK_BONE_APPEND_ROTATE)
        pki_qd_pow(sq, ratio, q);
    if (b->flags & PK_BONE_APPEND_MOVE)
        for (int k = 0; k < 3; k++)
            t[k] = st[k] * ratio;
}

/* Q and D of gap g from the current values. */
static void gap_eval(const fold *f, const gap *g, double Q[4], double D[3])
{
    double pos[3] = {0, 0, 0}, rest[3] = {0, 0, 0};
    Q[0] = Q[1] = Q[2] = 0;
    Q[3] = 1;
    long prev = g->p;
    for (int i = 0; i < g->n; i++) {
        long bi = g->bone[i];
        double o[3], v[3], w[3], aq[4], at[3], lq[4];
        rest_off(f->a, prev, bi, o);
        append_value(f, bi, aq, at, 0);
        for (int k = 0; k < 3; k++) {
            v[k] = o[k] + f->val[bi][k] + at[k];
            rest[k] += o[k];
        }
        pki_qd_rotate(Q, v, w);
        for (int k = 0; k < 3; k++)
            pos[k] += w[k];
        double t[4];
        double own[4];
        shown(f, bi, &f->val[bi][3], own);
        pki_qd_mul(own, aq, lq); /* its own turn, then the appended one */
        pki_qd_mul(Q, lq, t);
        memcpy(Q, t, sizeof t);
        prev = bi;
    }
    for (int k = 0; k < 3; k++)
        D[k] = pos[k] - rest[k];
}

/* The rewritten value of job j from the current values. */
static void job_eval(const fold *f, const job *j, double t[3], double q[4])
{
    memcpy(t, f->val[j->ca], 3 * sizeof *t);
    memcpy(q, &f->val[j->ca][3], 4 * sizeof *q);
    if (j->project)
        shown(f, j->ca, &f->val[j->ca][3], q);
    if (j->down >= 0) {
        double Q[4], D[3], w[3];
        gap_eval(f, &f->gaps[j->down], Q, D);
        pki_qd_rotate(q, D, w);
        for (int k = 0; k < 3; k++)
            t[k] += w[k];
    }
    if (j->up >= 0) {
        const gap *g = &f->gaps[j->up];
        double Q[4], D[3], o[3], v[3], w[3], nq[4];
        gap_eval(f, g, Q, D);
        pki_qd_mul(Q, q, nq);
        memcpy(q, nq, sizeof nq);
        if (j->movable) {
            rest_off(f->a, g->bone[g->n - 1], j->ca, o);
            for (int k = 0; k < 3; k++)
                v[k] = o[k] + t[k];
            pki_qd_rotate(Q, v, w);
            for (int k = 0; k < 3; k++)
                t[k] = w[k] - o[k] + (j->up_d ? D[k] : 0.0);
        }
    }
}

static bool same_gap(const gap *x, const gap *y)
{
    if (x->n != y->n || x->p != y->p)
        return false;
    for (int i = 0; i < x->n; i++)
        if (x->bone[i] != y->bone[i])
            return false;
    return true;
}

void pk_fold_report_free(pk_fold_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nfolded; i++)
        free(r->folded[i]);
    for (size_t i = 0; i < r->nkept; i++)
        free(r->kept[i]);
    for (size_t i = 0; i < r->ntwisted; i++)
        free(r->twisted[i]);
    free(r->folded);
    free(r->kept);
    free(r->twisted);
    r->folded = r->kept = r->twisted = NULL;
    r->nfolded = r->nkept = r->ntwisted = 0;
}

static bool push_str(char ***v, size_t *n, const char *s)
{
    char *c = strdup(s);
    if (!c || pki_grow_to(v, *n + 1, sizeof **v) != 0) {
        free(c);
        return false;
    }
    (*v)[(*n)++] = c;
    return true;
}

static void fold_free(fold *f)
{
    free(f->a2b);
    free(f->track);
    free(f->name);
    free(f->gaps);
    free(f->jobs);
    free(f->val);
    free(f->axis);
    free(f->has_axis);
}

/* Does A bone i turn or move through an append from a keyed bone (along
 * its chain of append parents)? */
static bool append_keyed(const pk_model *a, const bool *keyed, long i)
{
    for (int d = 0; d <= GAP_MAX; d++) {
        long ap = append_parent(a, i);
        if (ap < 0)
            return false;
        if (keyed[ap])
            return true;
        i = ap;
    }
    return false;
}

/* Is gap bone g bone x, or does it inherit from x through appends? */
static bool feeds(const pk_model *a, long g, long x)
{
    for (int d = 0; d <= GAP_MAX + 1 && g >= 0; d++) {
        if (g == x)
            return true;
        g = append_parent(a, g);
    }
    return false;
}

/* Gaps and jobs, from the models, which A bones are keyed (keyed[ai]) and
 * which have a key that turns off their fixed axis on A (off_axis[ai]).
 * Fills the report's folded and kept lists.  false on OOM. */
static bool plan(fold *f, const bool *keyed, const bool *off_axis, pk_fold_report *rep)
{
    const pk_model *a = f->a, *b = f->b;
    size_t na = a->nbones;
    f->gaps = calloc(na + 1, sizeof *f->gaps);
    f->jobs = calloc(na + 1, sizeof *f->jobs);
    int *up = malloc((na + 1) * sizeof *up);
    bool *used = calloc(na + 1, sizeof *used); /* keyed A-only bones folded somewhere */
    if (!f->gaps || !f->jobs || !up || !used) {
        free(up);
        free(used);
        return false;
    }
    /* Each bone both have: its gap (only those with a keyed bone count). */
    for (size_t c = 0; c < na; c++) {
        up[c] = -1;
        if (f->a2b[c] < 0)
            continue;
        gap g = {.n = 0, .p = -1, .keyed = false};
        long j = a->bones[c].parent;
        long chain[GAP_MAX];
        int n = 0;
        while (j >= 0 && f->a2b[j] < 0 && n < GAP_MAX) {
            chain[n++] = j;
            j = a->bones[j].parent;
        }
        if (j >= 0 && f->a2b[j] < 0)
            continue; /* deeper than GAP_MAX: left alone */
        g.p = j;
        for (int i = 0; i < n; i++) {
            g.bone[i] = chain[n - 1 - i];
            g.keyed |= keyed[g.bone[i]] || append_keyed(a, keyed, g.bone[i]);
        }
        g.n = n;
        if (!n || !g.keyed)
            continue;
        int gi = -1;
        for (size_t k = 0; k < f->ngaps; k++)
            if (same_gap(&f->gaps[k], &g))
                gi = (int)k;
        if (gi < 0) {
            gi = (int)f->ngaps;
            f->gaps[f->ngaps++] = g;
        }
        up[c] = gi;
        for (int i = 0; i < n; i++) {
            used[g.bone[i]] |= keyed[g.bone[i]];
            /* and the keyed bones it inherits from */
            long x = g.bone[i];
            for (int d = 0; d <= GAP_MAX && (x = append_parent(a, x)) >= 0; d++)
                used[x] |= keyed[x];
        }
    }
    /* Jobs: every bone with a gap; D into P where every bone hanging from
     * P has that same gap and P can move on B. */
    long *job_of = malloc((na + 1) * sizeof *job_of);
    if (!job_of) {
        free(up);
        free(used);
        return false;
    }
    for (size_t c = 0; c < na; c++)
        job_of[c] = -1;
    for (size_t c = 0; c < na; c++) {
        if (up[c] < 0)
            continue;
        job *jb = &f->jobs[f->njobs];
        jb->ca = (long)c;
        jb->cb = f->a2b[c];
        jb->up = up[c];
        jb->up_d = true;
        jb->down = -1;
        jb->movable = (b->bones[jb->cb].flags & PK_BONE_MOVE) != 0;
        jb->project = off_axis[jb->ca] && needs_twist(a, jb->ca, b, jb->cb);
        job_of[c] = (long)f->njobs++;
    }
    for (size_t gi = 0; gi < f->ngaps; gi++) {
        long p = f->gaps[gi].p;
        if (p < 0 || !(b->bones[f->a2b[p]].flags & PK_BONE_MOVE))
            continue;
        bool all = true;
        for (size_t c = 0; c < na && all; c++) {
            if (f->a2b[c] < 0 || (long)c == p)
                continue;
            long j = a->bones[c].parent;
            while (j >= 0 && f->a2b[j] < 0)
                j = a->bones[j].parent;
            if (j != p)
                continue;
            /* c hangs from p on B: it must have exactly this gap */
            all = up[c] == (int)gi;
        }
        if (!all)
            continue;
        for (size_t c = 0; c < na; c++)
            if (up[c] == (int)gi)
                f->jobs[job_of[c]].up_d = false;
        if (job_of[p] < 0) {
            job *jb = &f->jobs[f->njobs];
            jb->ca = p;
            jb->cb = f->a2b[p];
            jb->up = -1;
            jb->up_d = false;
            jb->movable = true;
            jb->project = off_axis[jb->ca] && needs_twist(a, jb->ca, b, jb->cb);
            job_of[p] = (long)f->njobs++;
        }
        f->jobs[job_of[p]].down = (int)gi;
    }
    /* Keyed bones without a gap whose axis is fixed on A, not on B: the
     * twist A shows, as a job of their own. */
    for (size_t c = 0; c < na; c++) {
        if (job_of[c] >= 0 || f->a2b[c] < 0 || !off_axis[c] ||
            !needs_twist(a, (long)c, b, f->a2b[c]))
            continue;
        job *jb = &f->jobs[f->njobs];
        memset(jb, 0, sizeof *jb);
        jb->ca = (long)c;
        jb->cb = f->a2b[c];
        jb->up = jb->down = -1;
        jb->movable = (b->bones[jb->cb].flags & PK_BONE_MOVE) != 0;
        jb->project = true;
        job_of[c] = (long)f->njobs++;
    }
    /* The report: bones cut to A's twist; each folded bone and where it
     * went; the rest kept. */
    bool ok = true;
    for (size_t j = 0; j < f->njobs && ok; j++) {
        const job *jb = &f->jobs[j];
        if (!jb->project || !keyed[jb->ca])
            continue;
        ok = push_str(&rep->twisted, &rep->ntwisted, a->bones[jb->ca].name);
    }
    for (size_t x = 0; x < na && ok; x++) {
        if (!keyed[x] || f->a2b[x] >= 0)
            continue;
        char line[1024];
        size_t o = (size_t)snprintf(line, sizeof line, "%s", a->bones[x].name);
        if (!used[x]) {
            ok = push_str(&rep->kept, &rep->nkept, line);
            continue;
        }
        int k = 0;
        for (size_t j = 0; j < f->njobs && o < sizeof line - 64; j++) {
            const job *jb = &f->jobs[j];
            bool into = false;
            for (int s = 0; jb->up >= 0 && s < f->gaps[jb->up].n; s++)
                into |= feeds(a, f->gaps[jb->up].bone[s], (long)x);
            for (int s = 0; jb->down >= 0 && s < f->gaps[jb->down].n; s++)
                into |= feeds(a, f->gaps[jb->down].bone[s], (long)x);
            if (into)
                o += (size_t)snprintf(line + o, sizeof line - o, "%s%s", k++ ? ", " : " -> ",
                                      a->bones[jb->ca].name);
        }
        ok = push_str(&rep->folded, &rep->nfolded, line);
    }
    free(up);
    free(used);
    free(job_of);
    return ok;
}

/* Model bone lookups and the A bones the motion (or pose) keys. */
static bool setup(fold *f, const pk_model *a, const pk_model *b, const pk_names *names)
{
    memset(f, 0, sizeof *f);
    f->a = a;
    f->b = b;
    size_t na = a->nbones;
    f->a2b = malloc((na + 1) * sizeof *f->a2b);
    f->track = calloc(na + 1, sizeof *f->track);
    f->name = malloc((na + 1) * sizeof *f->name);
    f->val = calloc(na + 1, sizeof *f->val);
    f->axis = calloc(na + 1, sizeof *f->axis);
    f->has_axis = calloc(na + 1, sizeof *f->has_axis);
    if (!f->a2b || !f->track || !f->name || !f->val || !f->axis || !f->has_axis)
        return false;
    for (size_t i = 0; i < na; i++) {
        f->has_axis[i] = fixed_axis(a, (long)i, f->axis[i]);
        f->a2b[i] = -1;
        f->name[i] = PK_NO_NAME;
        f->val[i][6] = 1.0;
        size_t len;
        const uint8_t *raw = pki_model_bone_raw(a, i, &len);
        if (!raw)
            continue;
        f->a2b[i] = pk_model_find_bone(b, raw, len);
        f->name[i] = pk_names_find(names, raw, len);
    }
    return true;
}

/* ---- motion ---- */

enum { IN_MAX = 4 * GAP_MAX + 1 };

/* A job's composition at every integer frame is kept (then reduced) only
 * for spans below this many frames: a longer one is a mistyped frame. */
#define SPAN_MAX (1u << 22)

static void add_input(long *in, size_t *n, long x)
{
    for (size_t i = 0; i < *n; i++)
        if (in[i] == x)
            return;
    if (*n < IN_MAX)
        in[(*n)++] = x;
}

/* The A bones job j reads: its own, both gaps' keyed bones and the keyed
 * bones they inherit from (appends).  Bones without a track stay at rest
 * and need no reading. */
static size_t job_inputs(const fold *f, const job *j, long *in)
{
    size_t n = 0;
    in[n++] = j->ca;
    int gs[2] = {j->up, j->down};
    for (int s = 0; s < 2; s++)
        for (int i = 0; gs[s] >= 0 && i < f->gaps[gs[s]].n; i++) {
            long x = f->gaps[gs[s]].bone[i];
            if (f->track[x])
                add_input(in, &n, x);
            for (int d = 0; d <= GAP_MAX && (x = append_parent(f->a, x)) >= 0; d++)
                if (f->track[x])
                    add_input(in, &n, x);
        }
    return n;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Job j: its exact composition at every integer frame from its inputs'
 * first key to their last, fitted (plan_keys) and checked (check_keys),
 * its keys appended to out under `name`.  A span of SPAN_MAX frames or
 * more is an error naming the bone. */
static int fold_job(fold *f, const pk_motion *m, const job *j, pk_name_id name, double tol_deg,
                    double tol_pos, pki_curve_cache *cache, pk_motion *out, pk_fold_report *rep,
                    pk_log *log)
{
    long in[IN_MAX];
    size_t nin = job_inputs(f, j, in);
    size_t total = 0;
    for (size_t i = 0; i < nin; i++)
        total += f->track[in[i]] ? f->track[in[i]]->count : 0;
    uint32_t *fr = malloc((total + 1) * sizeof *fr);
    if (!fr) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    size_t nf = 0;
    for (size_t i = 0; i < nin; i++) {
        const pk_track *t = f->track[in[i]];
        for (size_t k = 0; t && k < t->count; k++)
            fr[nf++] = m->bones[t->keys[k]].frame;
    }
    if (!nf) { /* nothing keyed: cannot happen for a planned job */
        free(fr);
        return 0;
    }
    qsort(fr, nf, sizeof *fr, cmp_u32);
    size_t u = 0;
    for (size_t i = 0; i < nf; i++)
        if (!u || fr[i] != fr[u - 1])
            fr[u++] = fr[i];
    nf = u;
    uint32_t f0 = fr[0], f1 = fr[nf - 1];
    if (f1 - f0 >= SPAN_MAX) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "folding into %s: its keys and those folded into it span frames %u-%u, more "
                 "than %u frames (a mistyped frame?); fix the frame or leave the fold out "
                 "(--no-fold)",
                 f->a->bones[j->ca].name, f0, f1, SPAN_MAX);
        free(fr);
        return -1;
    }
    size_t span = (size_t)(f1 - f0) + 1;
    float(*pos)[3] = malloc(span * sizeof *pos);
    float(*rot)[4] = malloc(span * sizeof *rot);
    pk_cursor *cur = malloc(nin * sizeof *cur);
    int rc = -1;
    if (!pos || !rot || !cur) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < nin; i++)
        pk_cursor_init(&cur[i], m, f->track[in[i]]);
    for (uint32_t fi = f0;; fi++) {
        for (size_t i = 0; i < nin; i++) {
            float p[3], r[4];
            pk_cursor_bone(&cur[i], fi, p, r);
            for (int k = 0; k < 3; k++)
                f->val[in[i]][k] = p[k];
            for (int k = 0; k < 4; k++)
                f->val[in[i]][3 + k] = r[k];
        }
        double t[3], q[4];
        job_eval(f, j, t, q);
        for (int k = 0; k < 3; k++)
            pos[fi - f0][k] = (float)t[k];
        for (int k = 0; k < 4; k++)
            rot[fi - f0][k] = (float)q[k];
        if (fi == f1)
            break;
    }
    for (size_t i = 0; i < nin; i++) { /* back to rest for the next job */
        memset(f->val[in[i]], 0, sizeof f->val[in[i]]);
        f->val[in[i]][6] = 1.0;
    }
    pki_fit_out fo;
    if (pki_fit_track((const float(*)[3])pos, (const float(*)[4])rot, f0, fr, nf, name, tol_deg,
                      tol_pos, cache, out, &fo) != 0)
        goto oom;
    rep->refitted += fo.refitted;
    rep->worst_deg = fmax(rep->worst_deg, fo.worst_deg);
    rep->worst_pos = fmax(rep->worst_pos, fo.worst_pos);
    rep->union_keys += nf;
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    free(fr);
    free(pos);
    free(rot);
    free(cur);
    return rc;
}

static pk_name_id intern_model_name(pk_names *names, const pk_model *a, long ai)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(a->names, a->bones[ai].cp932, &len);
    return raw ? pk_names_intern(names, raw, len) : PK_NO_NAME;
}

int pki_retarget_fold_motion(pk_motion *m, const pk_model *a, const pk_model *b, double max_deg,
                             double max_pos, pk_fold_report *rep, pk_log *log)
{
    pk_fold_report own;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    fold f;
    pk_tracks *tr = NULL;
    bool *keyed = NULL, *off_axis = NULL;
    pk_motion *out = NULL;
    pki_curve_cache *cache = NULL;
    bool *drop = NULL;
    int rc = -1;
    if (!setup(&f, a, b, m->names))
        goto oom;
    tr = pk_tracks_build(m, NULL);
    keyed = calloc(a->nbones + 1, sizeof *keyed);
    if (!tr || !keyed)
        goto oom;
    off_axis = calloc(a->nbones + 1, sizeof *off_axis);
    if (!off_axis)
        goto oom;
    for (size_t i = 0; i < a->nbones; i++) {
        f.track[i] = f.name[i] == PK_NO_NAME ? NULL : pk_tracks_bone(tr, f.name[i]);
        if (f.track[i] && !f.track[i]->count)
            f.track[i] = NULL;
        keyed[i] = f.track[i] != NULL;
        for (size_t k = 0; f.track[i] && k < f.track[i]->count && !off_axis[i]; k++)
            off_axis[i] = turns_off_axis(&f, (long)i, m->bones[f.track[i]->keys[k]].rot);
    }
    if (!plan(&f, keyed, off_axis, rep))
        goto oom;
    for (size_t j = 0; j < f.njobs; j++) {
        job *jb = &f.jobs[j];
        if (f.name[jb->ca] == PK_NO_NAME) {
            f.name[jb->ca] = intern_model_name(m->names, a, jb->ca);
            if (f.name[jb->ca] == PK_NO_NAME)
                goto oom;
        }
    }
    out = pk_motion_new();
    cache = pki_curve_cache_new();
    if (!out || (!cache && f.njobs))
        goto oom;
    for (size_t j = 0; j < f.njobs; j++)
        if (fold_job(&f, m, &f.jobs[j], f.name[f.jobs[j].ca], max_deg > 0 ? max_deg : PK_REDUCE_DEG,
                     max_pos > 0 ? max_pos : PK_REDUCE_POS, cache, out, rep, log) != 0)
            goto done;
    rep->tracks = f.njobs;
    rep->keys_added = out->nbones;
    /* Drop the folded bones' records and the rewritten tracks' old ones. */
    size_t nn = pk_names_count(m->names);
    drop = calloc(nn + 1, sizeof *drop);
    if (!drop)
        goto oom;
    for (size_t j = 0; j < f.njobs; j++)
        drop[f.name[f.jobs[j].ca]] = true;
    for (size_t g = 0; g < f.ngaps; g++)
        for (int i = 0; i < f.gaps[g].n; i++)
            if (f.name[f.gaps[g].bone[i]] != PK_NO_NAME)
                drop[f.name[f.gaps[g].bone[i]]] = true;
    pk_tracks_free(tr);
    tr = NULL;
    if (f.njobs) {
        size_t w = 0;
        for (size_t i = 0; i < m->nbones; i++) {
            if ((size_t)m->bones[i].name <= nn && drop[m->bones[i].name]) {
                rep->keys_removed++;
                continue;
            }
            if (w != i)
                m->bones[w] = m->bones[i];
            w++;
        }
        m->nbones = w;
        for (size_t i = 0; i < out->nbones; i++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            if (!k)
                goto oom;
            *k = out->bones[i];
        }
    }
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    pk_motion_free(out);
    pki_curve_cache_free(cache);
    pk_tracks_free(tr);
    free(keyed);
    free(off_axis);
    free(drop);
    fold_free(&f);
    if (rep == &own || rc != 0)
        pk_fold_report_free(rep);
    return rc;
}

int pk_motion_fold(pk_motion *m, const pk_model *a, const pk_model *b, pk_fold_report *rep,
                   pk_log *log)
{
    return pki_retarget_fold_motion(m, a, b, 0, 0, rep, log);
}

/* ---- pose ---- */

int pk_pose_fold(pk_pose *p, const pk_model *a, const pk_model *b, pk_fold_report *rep, pk_log *log)
{
    pk_fold_report own;
    if (!rep)
        rep = &own;
    memset(rep, 0, sizeof *rep);
    fold f;
    bool *keyed = NULL, *off_axis = NULL;
    int rc = -1;
    if (!setup(&f, a, b, p->names))
        goto oom;
    keyed = calloc(a->nbones + 1, sizeof *keyed);
    off_axis = calloc(a->nbones + 1, sizeof *off_axis);
    if (!keyed || !off_axis)
        goto oom;
    for (size_t i = 0; i < a->nbones; i++) {
        long k = f.name[i] == PK_NO_NAME ? -1 : pk_pose_find_bone(p, f.name[i]);
        keyed[i] = k >= 0;
        if (k < 0)
            continue;
        off_axis[i] = turns_off_axis(&f, (long)i, p->bones[k].rot);
        double q[4];
        pki_qd_from_key(p->bones[k].rot, q);
        double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int c = 0; c < 3; c++)
            f.val[i][c] = p->bones[k].pos[c];
        for (int c = 0; c < 4; c++)
            f.val[i][3 + c] = q[c] / n;
    }
    if (!plan(&f, keyed, off_axis, rep))
        goto oom;
    /* Every job's value from the pose as read, then written. */
    double(*res)[7] = malloc((f.njobs + 1) * sizeof *res);
    if (!res)
        goto oom;
    for (size_t j = 0; j < f.njobs; j++)
        job_eval(&f, &f.jobs[j], res[j], res[j] + 3);
    bool ok = true;
    for (size_t j = 0; j < f.njobs && ok; j++) {
        long ca = f.jobs[j].ca;
        if (f.name[ca] == PK_NO_NAME)
            f.name[ca] = intern_model_name(p->names, a, ca);
        long k = f.name[ca] == PK_NO_NAME ? -1 : pk_pose_find_bone(p, f.name[ca]);
        pk_pose_bone *bn = k >= 0 ? &p->bones[k] : pk_pose_push_bone(p);
        ok = bn != NULL && f.name[ca] != PK_NO_NAME;
        if (!ok)
            break;
        if (k < 0)
            rep->keys_added++;
        bn->name = f.name[ca];
        for (int c = 0; c < 3; c++)
            bn->pos[c] = (float)res[j][c];
        for (int c = 0; c < 4; c++)
            bn->rot[c] = (float)res[j][3 + c];
    }
    free(res);
    if (!ok)
        goto oom;
    rep->tracks = f.njobs;
    /* drop the folded bones */
    size_t w = 0;
    for (size_t i = 0; i < p->nbones; i++) {
        bool gone = false;
        for (size_t g = 0; g < f.ngaps && !gone; g++)
            for (int s = 0; s < f.gaps[g].n && !gone; s++)
                gone = f.name[f.gaps[g].bone[s]] == p->bones[i].name;
        if (gone) {
            rep->keys_removed++;
            continue;
        }
        p->bones[w++] = p->bones[i];
    }
    p->nbones = w;
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    free(keyed);
    free(off_axis);
    fold_free(&f);
    if (rep == &own || rc != 0)
        pk_fold_report_free(rep);
    return rc;
}
