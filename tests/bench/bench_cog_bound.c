/*
 * bench_cog_bound.c — whether any place of センター brings B's centre of
 * gravity within the goal of A's at a frame: a branch and bound over
 * boxes of the hips' translation d (what the centre step moves), for the
 * frames the centre step leaves over its goal (doc/commands.md, "Sizing:
 * the body").  A check, not a timing.
 *
 * The centre step holds B's ground offset of the centre of gravity from
 * its ankles (pki_torso_cog_offset) to A's times B's leg over A's.  With
 * Winter's fractions (pki_torso_cog) everything but the legs moves with
 * the hips, and the ankles' mean moves with them too, so d changes the
 * offset only through the legs' shape: each leg adds cu u + cv v + ct t
 * (u hip->knee, v knee->ankle, t ankle->toe, XZ), the constants below.
 * Each leg under d: hip->ankle is lam along q = 足ＩＫ - hip, lam = |q|
 * where the leg reaches, else between rho_min and 1 of B's leg (a leg
 * that cannot reach points at its 足ＩＫ stretched); the knee anywhere on
 * its circle (its place across q is the slack |cu - cv| w); the toe
 * points at its つま先ＩＫ from the ankle.  A box is ruled out when the
 * least error any d in it can give, bounded from its middle by how far q
 * can turn and lam change within it, is over the goal.  A box with
 * places of the hips nearer a 足ＩＫ than its leg folded shut reaches
 * (|thigh - shin|: its ankle is where MMD's solve leaves it) is not
 * bounded: such boxes are split down to 1e-4 legs, counted and left
 * unproven, with how far they lie from the 足ＩＫ.
 *
 * usage: bench_cog_bound MODEL_A DANCE_A MODEL_B DANCE_B FRAME...
 *                        [--radius R] [--ylo Y] [--yhi Y] [--rho-min P] [--goal G]
 * DANCE_B: the dance as retargeted for B (posekit retarget DANCE_A --from
 * MODEL_A --to MODEL_B -o DANCE_B).  The boxes: |d_x|, |d_z| <= R legs
 * (default 1), d_y in [ylo, yhi] legs (default -1, 1); rho_min 0.9998;
 * goal 0.02 of B's leg.  Prints per frame the error B has there, then
 * "out" (every box ruled out: no place of センター within the boxes
 * brings the frame within the goal) with the boxes and the least bound,
 * or "open" with the unproven boxes.
 */
#include "ops/retarget/sizing_body.h"
#include "ops/skeleton/play.h"
#include "bench_util.h"
#include "posekit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Winter's fractions as pki_torso_cog weighs the legs: thigh 0.100, shin
 * 0.0465, foot 0.0145, each at its middle; the ankles' mean takes half
 * of u + v per leg */
#define CU (-(0.5 - (0.05 + 0.0465 + 0.0145)))
#define CV (-(0.5 - (0.02325 + 0.0145)))
#define CT 0.00725
#define DCU (CU - CV)
#define MAX_BOXES 20000000L

typedef struct leg {
    double q0[3];  /* 足ＩＫ - hip at d = 0 */
    double hip[3]; /* the hip at d = 0 */
    double toe_ik[3];
    double lt, ls, lf; /* thigh, shin, foot at rest */
} leg;

typedef struct frame_bound {
    double L, efix[2], rho_min, goal;
    leg legs[2];
    long boxes, unproven,
        folded; /* folded: boxes wholly nearer a 足ＩＫ than the leg folded shut */
    double least,
        far; /* the least bound of a box ruled out; the farthest unproven box from a 足ＩＫ */
} frame_bound;

static double dist3(const double a[3], const double b[3])
{
    return hypot(hypot(a[0] - b[0], a[1] - b[1]), a[2] - b[2]);
}

/* the knee's place along hip->ankle for a hip->ankle of lam */
static double along(const leg *g, double lam)
{
    return (g->lt * g->lt - g->ls * g->ls + lam * lam) / (2 * lam);
}

/* the largest distance of the knee from the hip->ankle line over lam in
 * [lo, hi]: where |along| is least (it has one turning point) */
static double across_max(const leg *g, double lo, double hi)
{
    double a = fmin(fabs(along(g, lo)), fabs(along(g, hi)));
    double d = g->lt * g->lt - g->ls * g->ls;
    double turn = sqrt(fabs(d)); /* along = 0 (d < 0) or its least (d > 0) */
    if (turn > lo && turn < hi)
        a = fmin(a, d < 0 ? 0.0 : turn);
    return sqrt(fmax(0.0, g->lt * g->lt - a * a));
}

/* A lower bound of B's error over the box of middle c and half sides h;
 * -1 when some of its places are nearer a 足ＩＫ than the leg folded
 * shut, -2 when all are. */
static double lower(const frame_bound *fb, const double c[3], const double h[3])
{
    double rad = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    double E[2] = {fb->efix[0], fb->efix[1]}, slack = 0;
    for (int s = 0; s < 2; s++) {
        const leg *g = &fb->legs[s];
        double q[3] = {g->q0[0] - c[0], g->q0[1] - c[1], g->q0[2] - c[2]};
        double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        double rmax = g->lt + g->ls, rmin = fb->rho_min * fb->L;
        double qlo = nq - rad, qhi = nq + rad;
        /* a 足ＩＫ nearer the hip than the leg folded shut: where MMD's
         * solve leaves the ankle is not bounded here */
        if (nq + rad <= fabs(g->lt - g->ls))
            return -2;
        if (qlo <= fabs(g->lt - g->ls) || nq <= rad * 1.01)
            return -1;
        /* lam = |q| where it reaches, else stretched: within [lo, hi] */
        double lo = fmin(qlo, rmin), hi = fmax(fmin(qhi, rmax), fmin(qhi, rmin));
        /* cv lam + dcu along(lam) falls as lam grows (its slope is cv
         * plus at most dcu / 2 and a term of along's): its ends bound it */
        double g1 = CV * lo + DCU * along(g, lo), g2 = CV * hi + DCU * along(g, hi);
        double gm = (g1 + g2) / 2, gr = fabs(g1 - g2) / 2;
        double n[3] = {q[0] / nq, q[1] / nq, q[2] / nq};
        E[0] += gm * n[0];
        E[1] += gm * n[2];
        /* a unit vector turns by at most 2 rad / nq within the box */
        slack += fabs(gm) * 2 * rad / nq + gr + fabs(DCU) * across_max(g, lo, hi);
        /* the toe points at its つま先ＩＫ from the ankle */
        double lm = (lo + hi) / 2, ac[3], tv[3];
        for (int k = 0; k < 3; k++) {
            ac[k] = g->hip[k] + c[k] + lm * n[k];
            tv[k] = g->toe_ik[k] - ac[k];
        }
        double nt = sqrt(tv[0] * tv[0] + tv[1] * tv[1] + tv[2] * tv[2]);
        double da = rad + hi * 2 * rad / nq + (hi - lo) / 2; /* how far the ankle may be */
        if (da >= nt) {
            slack += CT * g->lf;
        } else {
            E[0] += CT * g->lf * tv[0] / nt;
            E[1] += CT * g->lf * tv[2] / nt;
            slack += CT * g->lf * fmin(2.0, 2 * da / nt);
        }
    }
    return hypot(E[0], E[1]) - slack;
}

typedef bench_box box;

/* Depth first over the boxes; 0, or -1 past MAX_BOXES. */
static int bound(frame_bound *fb, double R, double ylo, double yhi)
{
    size_t cap = 4096, n = 0;
    box *st = malloc(cap * sizeof *st);
    if (!st)
        return -1;
    double L = fb->L, small = 1e-4 * L;
    st[n++] = (box){{0, (ylo + yhi) / 2 * L, 0}, {R * L, (yhi - ylo) / 2 * L, R * L}};
    fb->boxes = fb->unproven = fb->folded = 0;
    fb->least = HUGE_VAL;
    fb->far = 0;
    while (n) {
        box b = st[--n];
        if (++fb->boxes > MAX_BOXES) {
            free(st);
            return -1;
        }
        double lb = lower(fb, b.c, b.h);
        if (lb == -2) {
            fb->folded++;
            continue;
        }
        if (lb > fb->goal * L) {
            fb->least = fmin(fb->least, lb);
            continue;
        }
        if (fmax(b.h[0], fmax(b.h[1], b.h[2])) < small) {
            /* how far its hips are from sitting on a 足ＩＫ (d = q0) */
            fb->unproven++;
            fb->far = fmax(fb->far, fmin(dist3(fb->legs[0].q0, b.c), dist3(fb->legs[1].q0, b.c)));
            continue;
        }
        int k = b.h[0] >= b.h[1] && b.h[0] >= b.h[2] ? 0 : b.h[1] >= b.h[2] ? 1 : 2;
        if (bench_box_halves(&st, &n, &cap, &b, k) != 0)
            return -1;
    }
    free(st);
    return 0;
}

static const double *pos(const pki_play *p, int32_t b)
{
    return pki_play_at(p, 0, b)->pos;
}

/* The frame's terms from A's and B's plays at it: the error less what
 * the legs add now (the part d does not move), and each leg of B. */
static bool frame_terms(const pki_torso *ta, const pki_play *pa, const pki_torso *tb,
                        const pki_play *pb, frame_bound *fb, double *err)
{
    double oa[2], ob[2];
    if (!pki_torso_cog_offset(ta, pa, 0, oa) || !pki_torso_cog_offset(tb, pb, 0, ob))
        return false;
    double k = tb->leg_len / ta->leg_len;
    fb->L = tb->leg_len;
    fb->efix[0] = ob[0] - k * oa[0];
    fb->efix[1] = ob[1] - k * oa[1];
    *err = hypot(fb->efix[0], fb->efix[1]) / fb->L;
    for (int s = 0; s < 2; s++) {
        const double *hp = pos(pb, tb->hip[s]), *kn = pos(pb, tb->knee[s]);
        const double *an = pos(pb, tb->ankle[s]), *to = pos(pb, tb->toe[s]);
        leg *g = &fb->legs[s];
        for (int c = 0; c < 3; c += 2) {
            double t = CU * (kn[c] - hp[c]) + CV * (an[c] - kn[c]) + CT * (to[c] - an[c]);
            fb->efix[c / 2] -= t;
        }
        const double *ik = pos(pb, tb->leg_ik[s]);
        for (int c = 0; c < 3; c++) {
            g->q0[c] = ik[c] - hp[c];
            g->hip[c] = hp[c];
            g->toe_ik[c] = pos(pb, tb->toe_ik[s])[c];
        }
        const pk_bone_world *r = tb->rest;
        g->lt = dist3(r[tb->hip[s]].pos, r[tb->knee[s]].pos);
        g->ls = dist3(r[tb->knee[s]].pos, r[tb->ankle[s]].pos);
        g->lf = dist3(r[tb->ankle[s]].pos, r[tb->toe[s]].pos);
    }
    return true;
}

static bool has_legs(const pki_torso *t)
{
    for (int s = 0; s < 2; s++)
        if (t->hip[s] < 0 || t->knee[s] < 0 || t->ankle[s] < 0 || t->toe[s] < 0 ||
            t->leg_ik[s] < 0 || t->toe_ik[s] < 0)
            return false;
    return t->rest && t->leg_len > 0;
}

int main(int argc, char **argv)
{
    double R = 1, ylo = -1, yhi = 1, rho_min = 0.9998, goal = 0.02;
    const char *p[4];
    int np = 0, nf = 0;
    long frames[64];
    for (int i = 1; i < argc; i++) {
        double *opt = !strcmp(argv[i], "--radius")    ? &R
                      : !strcmp(argv[i], "--ylo")     ? &ylo
                      : !strcmp(argv[i], "--yhi")     ? &yhi
                      : !strcmp(argv[i], "--rho-min") ? &rho_min
                      : !strcmp(argv[i], "--goal")    ? &goal
                                                      : NULL;
        if (opt && i + 1 < argc)
            *opt = strtod(argv[++i], NULL);
        else if (np < 4)
            p[np++] = argv[i];
        else if (nf < 64)
            frames[nf++] = strtol(argv[i], NULL, 10);
    }
    if (np != 4 || nf == 0) {
        fprintf(stderr, "usage: bench_cog_bound MODEL_A DANCE_A MODEL_B DANCE_B FRAME... "
                        "[--radius R] [--ylo Y] [--yhi Y] [--rho-min P] [--goal G]\n");
        return 2;
    }
    pk_log log;
    pk_log_init(&log);
    bench_bound_in in;
    bool loaded = bench_bound_load("bench_cog_bound", p, &in, &log);
    pk_model *ma = in.ma, *mb = in.mb;
    pk_motion *da = in.da, *db = in.db;
    int rc = 2;
    pki_torso ta, tb;
    memset(&ta, 0, sizeof ta);
    memset(&tb, 0, sizeof tb);
    bool *wa = NULL, *wb = NULL;
    if (!loaded)
        goto done;
    pki_torso_init(&ta, ma);
    pki_torso_init(&tb, mb);
    if (!has_legs(&ta) || !has_legs(&tb)) {
        fprintf(stderr, "bench_cog_bound: a model lacks the legs the centre step reads\n");
        goto done;
    }
    wa = calloc(ma->nbones, 1);
    wb = calloc(mb->nbones, 1);
    if (!wa || !wb)
        goto done;
    pki_torso_watch(&ta, wa);
    pki_torso_watch(&tb, wb);
    rc = 0;
    for (int i = 0; i < nf; i++) {
        pki_play pa, pb;
        memset(&pa, 0, sizeof pa);
        memset(&pb, 0, sizeof pb);
        frame_bound fb = {.rho_min = rho_min, .goal = goal};
        double err = 0;
        if (frames[i] < 0 || pki_play_motion(&pa, ma, da, (uint32_t)frames[i], 1, wa, &log) != 0 ||
            pki_play_motion(&pb, mb, db, (uint32_t)frames[i], 1, wb, &log) != 0 ||
            !frame_terms(&ta, &pa, &tb, &pb, &fb, &err)) {
            fprintf(stderr, "bench_cog_bound: frame %ld: cannot play or measure it\n", frames[i]);
            rc = 2;
        } else if (bound(&fb, R, ylo, yhi) != 0) {
            printf("frame %ld: error %.2f%% of the leg; more than %ld boxes: gave up\n", frames[i],
                   100 * err, MAX_BOXES);
            rc = 1;
        } else {
            double fold =
                fmax(fabs(fb.legs[0].lt - fb.legs[0].ls), fabs(fb.legs[1].lt - fb.legs[1].ls)) /
                fb.L;
            printf(
                "frame %ld: error %.2f%% of the leg; %s: %ld boxes of places ruled out "
                "(|d_xz| <= %.2f, d_y %.2f to %.2f legs, rho_min %.4f), each at least %.2f%% off",
                frames[i], 100 * err, fb.unproven ? "open" : "out",
                fb.boxes - fb.folded - fb.unproven, R, ylo, yhi, rho_min, 100 * fb.least / fb.L);
            if (fb.folded || fb.unproven)
                printf("; not bounded: the hips nearer a 足ＩＫ than the leg folded shut (%.4f "
                       "legs: %ld boxes), and %ld boxes unproven at its edge (within %.4f legs)",
                       fold, fb.folded, fb.unproven, fb.far / fb.L);
            printf("\n");
            rc |= fb.unproven ? 1 : 0;
        }
        pki_play_free(&pa);
        pki_play_free(&pb);
    }
done:
    for (size_t i = 0; i < log.count; i++)
        fprintf(stderr, "bench_cog_bound: %s\n", log.items[i].msg);
    free(wa);
    free(wb);
    pki_torso_free(&ta);
    pki_torso_free(&tb);
    bench_bound_free(&in);
    pk_log_free(&log);
    return rc;
}
