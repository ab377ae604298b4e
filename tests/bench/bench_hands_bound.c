/*
 * bench_hands_bound.c — whether any arm of B holds a hand's contacts at a
 * frame with its forearm and hand out of B's body: a branch and bound over
 * boxes of the wrist W and the elbow E, with the engine's own measures
 * (the gap of pki_touch_part, the depth of pki_part_distance, A's depth
 * pki_depth_a), for the frames the contact step leaves apart
 * (doc/commands.md, "Sizing: contacts, avoid, twist").  A check, not a
 * timing.
 *
 * What it bounds, for hand s of B at a frame, with B's body as the
 * retargeted dance places it (the body steps' hips, thighs, upper body):
 *   - the top of the arm (腕) anywhere within rho of where the output
 *     puts it (rho = 2 sin(D/2) |肩->腕|: 肩 turned up to D degrees about
 *     its own place, --shoulder-deg, default 40: twice the contact step's
 *     20, so any turn of the output's 肩 within 20 of the stance's is in);
 *   - the elbow E anywhere at B's upper arm's length from it, the wrist W
 *     anywhere at B's forearm's length from E: every rotation of 腕 and
 *     ひじ, any bend, any side (the elbow law is not assumed);
 *   - the hand (手首 to the hand's end) turned as the output turns it at
 *     that frame (the contact step keeps A's hand rotation: 手首 is not
 *     free here; that is the one assumption).
 * Such an arm holds when each chosen contact's gap error, |gap on B -
 * B's goal| (the goal from A's gap, pki_gap_goal), is within --goal
 * (default 0.05 of B's arm), and none of the nine points of the
 * penetration measure (ひじ->手首 at 0, 1/4, 1/2, 3/4; 手首->the hand's
 * end at 0 .. 1 by quarters) is more than --deep (default 0.01) of B's
 * arm inside a part of B made of rigid bodies where A's same point is
 * not 0.01 of A's arm inside A's same part (pki_penetrates' rule).
 * The contacts: the hand's touches of a thigh on A (within 6% of A's
 * arm, the contact step's reach, times 1.25, the run's hold), or with
 * --parts every part it touches so.
 * A box is ruled out when, bounded from its middle (each measure is a
 * distance to a union of spheres, capsules and boxes: it moves by at most
 * as far as its point does), a length cannot be met (|E - S| for every S
 * of the ball, |W - E|), a contact's error is over the goal, or a point
 * is deeper than allowed.  Boxes are halved on their longest side down to
 * --small (default 0.002 of B's arm); smaller ones left are counted open.
 *
 * usage: bench_hands_bound MODEL_A DANCE_A MODEL_B DANCE_B FRAME...
 *          [--goal G] [--deep D] [--shoulder-deg DEG] [--small S] [--parts] [--both]
 * DANCE_B: the dance as retargeted for B.  Prints per frame and hand the
 * contacts bounded, their errors in the output, then "out" (no arm within
 * the bounds holds them) with the boxes and why they were ruled out, or
 * "open" with the boxes left.  Exit 0: every frame out; 1: some open.
 */
#include "common/grow.h"
#include "ops/retarget/sizing.h"
#include "math/vec.h"
#include "ops/skeleton/contacts.h"
#include "ops/skeleton/play.h"
#include "bench_util.h"
#include "posekit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BOXES 400000000L
#define MAX_TOUCH 8

typedef struct bound_in {
    double L, goal, deep, rho, small;
    double S0[3], lu, lf, hv[3]; /* the arm's top, lengths; wrist -> hand's end */
    int nt, with[MAX_TOUCH];
    double gap_goal[MAX_TOUCH];
    pki_placed part[PKI_PART_COUNT];
    bool rigid[PKI_PART_COUNT];
    bool exempt[PKI_PART_COUNT][9];
    const pki_figure *b;
    const pki_play *pb;
    /* what ruled the boxes out */
    long boxes, open, by_len, by_gap, by_deep;
    double least_gap, least_deep; /* the nearest a ruled-out box came (of B's arm) */
    bool found, keep; /* keep: every open box's wrist kept (leaf), no witness sought */
    double (*leaf)[5]; /* the open boxes' wrists: middle, radius, 1 where an arm holds at its middle */
    size_t nleaf, capleaf;
    double witness[6]; /* an arm that holds (W, E), the top of the arm unmoved */
} bound_in;

static double dist3(const double a[3], const double b[3])
{
    double v[3];
    pki_v3_sub(a, b, v);
    return pki_v3_len(v);
}

/* 0: the box may hold; 1 ruled out by a length, 2 by a gap, 3 by depth. */
static int rule_out(bound_in *bi, const double c[6], const double h[6])
{
    const double *W = c, *E = c + 3;
    double rW = pki_v3_len(h), rE = pki_v3_len(h + 3);
    double dE = dist3(E, bi->S0);
    if (bi->lu < dE - rE - bi->rho || bi->lu > dE + rE + bi->rho)
        return 1;
    double dWE = dist3(W, E);
    if (bi->lf < dWE - rW - rE || bi->lf > dWE + rW + rE)
        return 1;
    double t[3];
    for (int k = 0; k < 3; k++)
        t[k] = W[k] + bi->hv[k];
    for (int i = 0; i < bi->nt; i++) {
        double g = pki_touch_part(bi->b, bi->pb, 0, bi->with[i], W, t, NULL);
        double e = fmax(0.0, fmax(g - rW - bi->gap_goal[i], bi->gap_goal[i] - (g + rW)));
        if (e > bi->goal * bi->L) {
            bi->least_gap = fmin(bi->least_gap, e);
            return 2;
        }
    }
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        if (!bi->rigid[k])
            continue;
        for (int i = 0; i < 9; i++) {
            if (bi->exempt[k][i])
                continue;
            double p[3], r;
            for (int j = 0; j < 3; j++)
                p[j] = i < 4 ? E[j] + (W[j] - E[j]) * i / 4.0 : W[j] + bi->hv[j] * (i - 4) / 4.0;
            r = i < 4 ? (1 - i / 4.0) * rE + i / 4.0 * rW : rW;
            double d = -pki_part_distance(&bi->part[k], p, NULL, NULL) - r;
            if (d > bi->deep * bi->L) {
                bi->least_deep = fmin(bi->least_deep, d);
                return 3;
            }
        }
    }
    return 0;
}

/* An arm at the box's middle, if one holds: the top of the arm where the
 * output puts it, the wrist at the middle, the elbow the point of its
 * circle nearest the box's; true (into bi->witness) when it holds. */
static bool witness(bound_in *bi, const double c[6])
{
    const double *W = c, *Em = c + 3;
    double u[3], d = 0;
    for (int k = 0; k < 3; k++)
        u[k] = W[k] - bi->S0[k];
    d = pki_v3_len(u);
    if (!(d > 1e-9) || d > bi->lu + bi->lf || d < fabs(bi->lu - bi->lf))
        return false;
    for (int k = 0; k < 3; k++)
        u[k] /= d;
    double x = (bi->lu * bi->lu - bi->lf * bi->lf + d * d) / (2 * d);
    double rr = sqrt(fmax(0.0, bi->lu * bi->lu - x * x)), m[3], v[3];
    for (int k = 0; k < 3; k++)
        m[k] = bi->S0[k] + x * u[k];
    double dot = 0;
    for (int k = 0; k < 3; k++)
        dot += (Em[k] - m[k]) * u[k];
    for (int k = 0; k < 3; k++)
        v[k] = Em[k] - m[k] - dot * u[k];
    double lv = pki_v3_len(v);
    if (!(lv > 1e-12))
        return false;
    double x6[6], h0[6] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 3; k++) {
        x6[k] = W[k];
        x6[k + 3] = m[k] + rr * v[k] / lv;
    }
    double rho = bi->rho;
    bi->rho = 1e-9 * bi->L;
    double lg = bi->least_gap, ld = bi->least_deep;
    int why = rule_out(bi, x6, h0);
    bi->rho = rho;
    bi->least_gap = lg;
    bi->least_deep = ld;
    if (why)
        return false;
    memcpy(bi->witness, x6, sizeof x6);
    return true;
}

typedef bench_box box;

/* Depth first over the boxes; 0, or -1 past MAX_BOXES or on OOM. */
static int bound(bound_in *bi)
{
    size_t cap = 4096, n = 0;
    box *st = malloc(cap * sizeof *st);
    if (!st)
        return -1;
    box b0;
    double rw = bi->lu + bi->lf + bi->rho, re = bi->lu + bi->rho;
    for (int k = 0; k < 3; k++) {
        b0.c[k] = b0.c[k + 3] = bi->S0[k];
        b0.h[k] = rw;
        b0.h[k + 3] = re;
    }
    st[n++] = b0;
    bi->boxes = bi->open = bi->by_len = bi->by_gap = bi->by_deep = 0;
    bi->least_gap = bi->least_deep = HUGE_VAL;
    while (n) {
        box b = st[--n];
        if (++bi->boxes > MAX_BOXES) {
            free(st);
            return -1;
        }
        int why = rule_out(bi, b.c, b.h);
        if (why) {
            bi->by_len += why == 1;
            bi->by_gap += why == 2;
            bi->by_deep += why == 3;
            continue;
        }
        int k = 0;
        for (int j = 1; j < 6; j++)
            if (b.h[j] > b.h[k])
                k = j;
        if (b.h[k] < bi->small * bi->L) {
            bi->open++;
            if (bi->keep) {
                double *x = pki_grow_push(&bi->leaf, &bi->nleaf, &bi->capleaf, sizeof *bi->leaf);
                if (!x) {
                    free(st);
                    return -1;
                }
                memcpy(x, b.c, 3 * sizeof *x);
                x[3] = pki_v3_len(b.h);
                x[4] = witness(bi, b.c) ? 1.0 : 0.0;
                continue;
            }
            if (!bi->found && witness(bi, b.c)) {
                bi->found = true;
                break;
            }
            continue;
        }
        if (bench_box_halves(&st, &n, &cap, &b, k) != 0)
            return -1;
    }
    free(st);
    return 0;
}

static const char *part_name(int k)
{
    static const char *names[PKI_PART_COUNT] = {"head",        "chest",      "belly",
                                                "hips",        "left thigh", "right thigh",
                                                "left shin",   "right shin"};
    return k >= 0 && k < PKI_PART_COUNT ? names[k] : "?";
}

/* The bound of hand s at the sizing's one row; 0 out, 1 open, 2 nothing to bound, -1 gave up. */
static int hand_bound(const pki_sizing *z, int s, double goal, double deep,
                      double sh_deg, double small, bool parts, long frame, bound_in *out)
{
    const pki_figure *b = &z->b;
    const pki_arm *a = &b->arm[s];
    bound_in bi;
    memset(&bi, 0, sizeof bi);
    bi.keep = out->keep;
    if (!a->ok || !z->a.arm[s].ok)
        return 2;
    bi.L = b->arm_len;
    bi.goal = goal;
    bi.deep = deep;
    bi.small = small;
    bi.b = b;
    bi.pb = &z->pb;
    bi.lu = a->upper;
    bi.lf = a->fore;
    memcpy(bi.S0, pki_play_at(&z->pb, 0, a->bone[0])->pos, sizeof bi.S0);
    double sl = 0;
    if (a->shoulder >= 0)
        sl = dist3(pki_play_at(&z->pb, 0, a->shoulder)->pos, bi.S0);
    bi.rho = 2 * sin(sh_deg * 3.14159265358979323846 / 360.0) * sl;
    double w[3], t[3];
    pki_hand_at(b, &z->pb, 0, s, w, t);
    for (int k = 0; k < 3; k++)
        bi.hv[k] = t[k] - w[k];
    const double reach = 0.06 * 1.25 * z->a.arm_len;
    for (int k = 0; k < PKI_PART_COUNT && bi.nt < MAX_TOUCH; k++) {
        if (!parts && k != PKI_PART_THIGH_L && k != PKI_PART_THIGH_R)
            continue;
        double ga = pki_touch_at(&z->a, &z->pa, 0, s, k, NULL);
        if (!(ga <= reach) || b->part[k].bone < 0)
            continue;
        bi.with[bi.nt] = k;
        bi.gap_goal[bi.nt++] = pki_gap_goal(z, ga);
    }
    if (!bi.nt)
        return 2;
    for (int k = 0; k < PKI_PART_COUNT; k++) {
        bi.rigid[k] = b->part[k].bone >= 0 && b->part[k].from_rigids;
        if (!bi.rigid[k])
            continue;
        pki_part_place(b, &z->pb, 0, k, &bi.part[k]);
        for (int i = 0; i < 9; i++)
            bi.exempt[k][i] = pki_depth_a(z, s, 0, i, k) > 0.01 * z->a.arm_len;
    }
    printf("frame %ld, %s hand:", frame, s ? "right" : "left");
    for (int i = 0; i < bi.nt; i++) {
        double g = pki_touch_part(b, &z->pb, 0, bi.with[i], w, t, NULL);
        printf(" %s (goal gap %.2f%%, output's error %.2f%%)", part_name(bi.with[i]),
               100 * bi.gap_goal[i] / bi.L, 100 * fabs(g - bi.gap_goal[i]) / bi.L);
    }
    double od = 0;
    pki_penetrates(z, &z->pb, 0, s, &od);
    printf("; output's deepest point %.2f%%\n", 100 * od / bi.L);
    if (bound(&bi) != 0) {
        printf("  more than %ld boxes: gave up\n", MAX_BOXES);
        free(bi.leaf);
        return -1;
    }
    printf("  %s: %ld boxes (shoulder within %.2f%% of the arm, goal %.1f%%, depth %.1f%%): %ld "
           "by a length, %ld by a gap (the nearest %.2f%% past the goal), %ld by depth (the "
           "nearest %.2f%% past it), %ld open (smaller than %.2f%%)\n",
           bi.open ? "open" : "out", bi.boxes, 100 * bi.rho / bi.L, 100 * goal, 100 * deep,
           bi.by_len, bi.by_gap, 100 * (bi.least_gap - goal * bi.L) / bi.L, bi.by_deep,
           100 * (bi.least_deep - deep * bi.L) / bi.L, bi.open, 100 * small);
    if (bi.found) {
        const double *x = bi.witness;
        printf("  held by: wrist (%.4f, %.4f, %.4f), elbow (%.4f, %.4f, %.4f), arm top (%.4f, "
               "%.4f, %.4f) as the output has it\n",
               x[0], x[1], x[2], x[3], x[4], x[5], bi.S0[0], bi.S0[1], bi.S0[2]);
        for (int i = 0; i < bi.nt; i++) {
            double t2[3];
            for (int k = 0; k < 3; k++)
                t2[k] = x[k] + bi.hv[k];
            double g = pki_touch_part(b, &z->pb, 0, bi.with[i], x, t2, NULL);
            printf("    %s: error %.2f%%\n", part_name(bi.with[i]),
                   100 * fabs(g - bi.gap_goal[i]) / bi.L);
        }
    }
    *out = bi;
    return bi.open ? 1 : 0;
}


static int cmp_x(const void *x, const void *y)
{
    const double *a = x, *b = y;
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* The open boxes' wrists, each wrist box once (the largest radius kept),
 * sorted by x. */
static void unique_leaves(bound_in *bi)
{
    qsort(bi->leaf, bi->nleaf, sizeof *bi->leaf, cmp_x);
    size_t m = 0;
    for (size_t i = 0; i < bi->nleaf; i++) {
        if (m && !memcmp(bi->leaf[m - 1], bi->leaf[i], 3 * sizeof(double))) {
            bi->leaf[m - 1][3] = fmax(bi->leaf[m - 1][3], bi->leaf[i][3]);
            bi->leaf[m - 1][4] = fmax(bi->leaf[m - 1][4], bi->leaf[i][4]);
            continue;
        }
        memmove(bi->leaf[m++], bi->leaf[i], sizeof *bi->leaf);
    }
    bi->nleaf = m;
}

/* The two hands' open wrists paired: whether any pair of them can hold
 * the hands' touch (within the goal, each moving by its box's radius);
 * 0 every pair out, 1 some open, 2 no touch of the hands on A. */
static int pair_bound(const pki_sizing *z, bound_in bi[2], double goal)
{
    double ga = pki_touch_at(&z->a, &z->pa, 0, 0, PKI_WITH_HAND, NULL);
    if (!(ga <= 0.10 * 1.25 * z->a.arm_len))
        return 2;
    double gh = pki_gap_goal(z, ga), L = z->b.arm_len, rmax = 0;
    double lh[2] = {pki_v3_len(bi[0].hv), pki_v3_len(bi[1].hv)};
    unique_leaves(&bi[0]);
    unique_leaves(&bi[1]);
    for (size_t j = 0; j < bi[1].nleaf; j++)
        rmax = fmax(rmax, bi[1].leaf[j][3]);
    long pairs = 0, open = 0, held = 0;
    double least = HUGE_VAL, best_e = HUGE_VAL, best[2][3];
    for (size_t i = 0; i < bi[0].nleaf; i++) {
        const double *l = bi[0].leaf[i];
        double span = lh[0] + lh[1] + l[3] + rmax + gh + goal * L +
                      fabs(bi[0].hv[0]) + fabs(bi[1].hv[0]);
        size_t lo = 0, hi = bi[1].nleaf;
        while (lo < hi) {
            size_t m = (lo + hi) / 2;
            if (bi[1].leaf[m][0] < l[0] - span)
                lo = m + 1;
            else
                hi = m;
        }
        for (size_t j = lo; j < bi[1].nleaf && bi[1].leaf[j][0] <= l[0] + span; j++) {
            const double *r = bi[1].leaf[j];
            pairs++;
            double r2 = l[3] + r[3], t0[3], t1[3];
            double ml[3], mr[3];
            for (int k = 0; k < 3; k++) {
                ml[k] = l[k] + bi[0].hv[k] / 2;
                mr[k] = r[k] + bi[1].hv[k] / 2;
            }
            if (dist3(ml, mr) - (lh[0] + lh[1]) / 2 - r2 - gh > goal * L)
                continue;
            for (int k = 0; k < 3; k++) {
                t0[k] = l[k] + bi[0].hv[k];
                t1[k] = r[k] + bi[1].hv[k];
            }
            double g = pki_touch_hands(l, t0, r, t1, NULL);
            double e = fmax(0.0, fmax(g - r2 - gh, gh - (g + r2)));
            if (e > goal * L) {
                least = fmin(least, e);
                continue;
            }
            open++;
            if (l[4] > 0 && r[4] > 0 && fabs(g - gh) <= goal * L) {
                held++;
                if (fabs(g - gh) < best_e) {
                    best_e = fabs(g - gh);
                    memcpy(best[0], l, 3 * sizeof(double));
                    memcpy(best[1], r, 3 * sizeof(double));
                }
            }
        }
    }
    printf("  the hands' touch (goal gap %.2f%%): %zu x %zu open wrists, %ld pairs near enough "
           "to test, %ld open%s",
           100 * gh / L, bi[0].nleaf, bi[1].nleaf, pairs, open, open ? "" : ": out");
    if (isfinite(least))
        printf(" (the nearest ruled out %.2f%% past the goal)", 100 * (least - goal * L) / L);
    printf("\n");
    if (held)
        printf("  held: %ld pairs of arms at their boxes' middles hold all the contacts (the "
               "hands' touch at best %.2f%% off: left wrist (%.4f, %.4f, %.4f), right (%.4f, "
               "%.4f, %.4f))\n",
               held, 100 * best_e / L, best[0][0], best[0][1], best[0][2], best[1][0], best[1][1],
               best[1][2]);
    return open ? 1 : 0;
}

int main(int argc, char **argv)
{
    double goal = 0.05, deep = 0.01, sh_deg = 40, small = 0.002;
    bool parts = false, both = false;
    const char *p[4];
    int np = 0, nf = 0;
    long frames[256];
    for (int i = 1; i < argc; i++) {
        double *opt = !strcmp(argv[i], "--goal")           ? &goal
                      : !strcmp(argv[i], "--deep")         ? &deep
                      : !strcmp(argv[i], "--shoulder-deg") ? &sh_deg
                      : !strcmp(argv[i], "--small")        ? &small
                                                           : NULL;
        if (opt && i + 1 < argc)
            *opt = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--parts"))
            parts = true;
        else if (!strcmp(argv[i], "--both"))
            both = parts = true;
        else if (np < 4)
            p[np++] = argv[i];
        else if (nf < 256)
            frames[nf++] = strtol(argv[i], NULL, 10);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (np != 4 || nf == 0) {
        fprintf(stderr, "usage: bench_hands_bound MODEL_A DANCE_A MODEL_B DANCE_B FRAME... "
                        "[--goal G] [--deep D] [--shoulder-deg DEG] [--small S] [--parts] [--both]\n");
        return 2;
    }
    pk_log log;
    pk_log_init(&log);
    bench_bound_in in;
    bool loaded = bench_bound_load("bench_hands_bound", p, &in, &log);
    pk_model *ma = in.ma, *mb = in.mb;
    pk_motion *da = in.da, *db = in.db;
    int rc = 2;
    if (!loaded)
        goto done;
    rc = 0;
    for (int i = 0; i < nf; i++) {
        pki_sizing z;
        if (frames[i] < 0 || pki_sizing_open(&z, ma, mb, da, db, (uint32_t)frames[i], 1, &log)) {
            fprintf(stderr, "bench_hands_bound: frame %ld: cannot play it\n", frames[i]);
            rc = 2;
            continue;
        }
        bound_in bi[2];
        memset(bi, 0, sizeof bi);
        int got[2];
        for (int s = 0; s < 2; s++) {
            bi[s].keep = both;
            got[s] = hand_bound(&z, s, goal, deep, sh_deg, small, parts, frames[i], &bi[s]);
        }
        if (both && got[0] >= 0 && got[1] >= 0) {
            /* a hand whose contacts no arm holds alone decides the frame */
            if (got[0] == 1 && got[1] == 1 && pair_bound(&z, bi, goal) != 0)
                rc |= 1;
        } else {
            for (int s = 0; s < 2; s++)
                if (got[s] == 1 || got[s] < 0)
                    rc |= 1;
        }
        free(bi[0].leaf);
        free(bi[1].leaf);
        pki_sizing_close(&z);
    }
done:
    for (size_t i = 0; i < log.count; i++)
        fprintf(stderr, "bench_hands_bound: %s\n", log.items[i].msg);
    bench_bound_free(&in);
    pk_log_free(&log);
    return rc;
}
