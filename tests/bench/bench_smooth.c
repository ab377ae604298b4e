/*
 * bench_smooth.c — the goals of smoothing (pk_motion_smooth) measured on
 * corpus dances made noisy on purpose:
 *
 *  1. each corpus dance ($PK_CORPUS, or the files named: at least 40
 *     bones keyed over 100 frames or more) is baked (the clean motion, a
 *     key a frame);
 *  2. noise of known size is added with a fixed seed: every bone rotation
 *     at every frame turned by exactly --deg degrees (default 1) about a
 *     random axis, every translation of a bone that translates moved by
 *     exactly --pos units (default 0.02) in a random direction;
 *  3. the noisy motion is smoothed with the defaults (or --strength N);
 *  4. against the clean motion, at every frame of every bone: the mean and
 *     the worst rotation error (degrees) and translation error (units), of
 *     the noisy input and of the smoothed output; goals: mean at most 30 %
 *     of the noise, worst frame at most 1 degree;
 *  5. peaks: at every fast swing of the clean motion (a bone's angle from
 *     its mean rotation highest within 6 frames on each side and 5 degrees
 *     above the lowest on both), the clean peak against the smoothed
 *     motion's highest angle within 2 frames: the largest loss;
 *  6. planted feet: on 左足ＩＫ/右足ＩＫ, the frames where the clean foot
 *     stands still (the same position as the frame before and after): the
 *     largest distance the smoothed foot moves from one such frame to the
 *     next;
 *  7. keys: the smoothed motion reduced against the clean bake reduced,
 *     at the same tolerances (default 0.1 deg / 0.005 units, and the
 *     tolerances for traced motion, --max-deg 1 --max-pos 0.05); goal: at
 *     most 1.5 x.
 *
 * usage: bench_smooth [--deg D] [--pos U] [--strength N] [--seed S] [--no-keys] [--per-bone]
 *                     [--known-noise] [--trace BONE A-B] [--worst N] [--oracle]
 *                     [FILE.vmd ...]
 * (--no-keys: no reductions, item 7; --per-bone: the mean rotation error
 * of every bone, noisy then smoothed; --known-noise: the filter told the
 * noise's size; --trace: one bone frame by frame; --worst: the N worst
 * frames and what the clean motion does there; --oracle: the noise
 * fitted in the original keys' space, a bound for any filter)
 * Exit status 1 when a goal is missed.  The numbers are deterministic (a
 * fixed seed, no timing but the CPU seconds printed).
 */
#include "bench_util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double RAD = 3.14159265358979323846 / 180.0;

static uint32_t rng;
static double uni(void) /* [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return (double)(rng >> 8) / 16777216.0;
}

/* A uniformly random unit vector. */
static void random_dir(double v[3])
{
    double z = 2.0 * uni() - 1.0, a = 2.0 * 3.14159265358979323846 * uni();
    double r = sqrt(1.0 - z * z);
    v[0] = r * cos(a);
    v[1] = r * sin(a);
    v[2] = z;
}

/* Noise added to every bone key of a baked motion (a key a frame). */
static void add_noise(pk_motion *m, double deg, double pos)
{
    /* which bones translate at all */
    size_t nn = pk_names_count(m->names);
    unsigned char *moves = calloc(nn + 1, 1);
    for (size_t i = 0; i < m->nbones; i++)
        if (m->bones[i].pos[0] != 0.0f || m->bones[i].pos[1] != 0.0f || m->bones[i].pos[2] != 0.0f)
            moves[m->bones[i].name] = 1;
    for (size_t i = 0; i < m->nbones; i++) {
        pk_bone_key *k = &m->bones[i];
        double ax[3];
        random_dir(ax);
        double h = 0.5 * deg * RAD, s = sin(h);
        float n[4] = {(float)(ax[0] * s), (float)(ax[1] * s), (float)(ax[2] * s), (float)cos(h)};
        float q[4];
        pk_quat_mul(k->rot, n, q);
        memcpy(k->rot, q, sizeof q);
        if (moves[k->name]) {
            double d[3];
            random_dir(d);
            for (int c = 0; c < 3; c++)
                k->pos[c] = (float)(k->pos[c] + pos * d[c]);
        }
    }
    free(moves);
}

static int opt_per_bone;      /* --per-bone: each bone's mean rotation error */
static const char *opt_trace; /* --trace BONE: that bone frame by frame */
static uint32_t opt_trace_a, opt_trace_b;

/* --trace: per frame of the bone named, the clean motion's turn from the
 * frame before, and the noisy and smoothed motions' errors (degrees;
 * units for the translation). */
static void trace(const pk_motion *clean, const pk_motion *noisy, const pk_motion *sm)
{
    uint8_t *raw;
    size_t len;
    if (!opt_trace || pk_utf8_to_cp932(opt_trace, &raw, &len) != 0)
        return;
    pk_name_id id = pk_names_find(clean->names, raw, len);
    free(raw);
    pk_tracks *ta = pk_tracks_build(clean, NULL), *tn = pk_tracks_build(noisy, NULL),
              *ts = pk_tracks_build(sm, NULL);
    const pk_track *x = id == PK_NO_NAME ? NULL : pk_tracks_bone(ta, id);
    if (x) {
        const pk_track *y = pk_tracks_bone(tn, id), *z = pk_tracks_bone(ts, id);
        printf("frame | clean turn | noisy err | smoothed err | clean pos step | noisy perr | "
               "smoothed perr\n");
        for (uint32_t f = opt_trace_a; f <= opt_trace_b; f++) {
            float p0[3], r0[4], pp[3], rp[4], p1[3], r1[4], p2[3], r2[4];
            pk_sample_bone(clean, x, f, p0, r0);
            pk_sample_bone(clean, x, f ? f - 1 : 0, pp, rp);
            pk_sample_bone(noisy, y, f, p1, r1);
            pk_sample_bone(sm, z, f, p2, r2);
            double s = 0, e1 = 0, e2 = 0;
            for (int c = 0; c < 3; c++) {
                s += (p0[c] - pp[c]) * (p0[c] - pp[c]);
                e1 += (p0[c] - p1[c]) * (p0[c] - p1[c]);
                e2 += (p0[c] - p2[c]) * (p0[c] - p2[c]);
            }
            printf("%5u | %6.3f | %6.3f | %6.3f | %7.4f | %7.4f | %7.4f\n", f,
                   pk_quat_angle_deg(r0, rp), pk_quat_angle_deg(r0, r1), pk_quat_angle_deg(r0, r2),
                   sqrt(s), sqrt(e1), sqrt(e2));
        }
    }
    pk_tracks_free(ta);
    pk_tracks_free(tn);
    pk_tracks_free(ts);
}

/* --worst N: the N worst rotation frames of the smoothed motion (the
 * worst of each bone within 10 frames of another kept out), each with
 * what the clean motion does there: its largest change of velocity
 * (degrees per frame) within 2 frames (a corner: a key where the motion
 * bends or stops), and whether its angle from the bone's mean rotation
 * is highest within 6 frames there (a peak); a frame that is neither is
 * a noise excursion.  Also how many frames are over 0.5, 1 and 2 deg. */
static size_t opt_worst;

typedef struct bad {
    double err;
    pk_name_id name;
    uint32_t frame;
} bad;

static int by_err(const void *a, const void *b)
{
    double x = ((const bad *)a)->err, y = ((const bad *)b)->err;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The clean rotation's velocity (rotation vector per frame, degrees)
 * from frame f-1 to f. */
static void velocity(const pk_motion *a, const pk_track *x, uint32_t f, double v[3])
{
    float p[3], r0[4], r1[4];
    pk_sample_bone(a, x, f ? f - 1 : 0, p, r0);
    pk_sample_bone(a, x, f, p, r1);
    float c[4] = {-r0[0], -r0[1], -r0[2], r0[3]}, d[4];
    pk_quat_mul(c, r1, d);
    double s = d[3] < 0 ? -1.0 : 1.0, n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double k = n > 1e-12 ? 2.0 * atan2(n, s * d[3]) / n * s / RAD : 0.0;
    for (int c2 = 0; c2 < 3; c2++)
        v[c2] = d[c2] * k;
}

static void worst_frames(const pk_motion *a, const pk_motion *b)
{
    if (!opt_worst)
        return;
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    bad *all = NULL;
    size_t n = 0, cap = 0, over[3] = {0, 0, 0};
    for (size_t i = 0; i < ta->nbones; i++) {
        const pk_track *x = &ta->bones[i], *y = pk_tracks_bone(tb, x->name);
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        bad best = {0.0, x->name, 0};
        for (uint32_t f = f0; f <= f1 + 1; f++) {
            double d = 0.0;
            if (f <= f1) {
                float p[3], r0[4], r1[4];
                pk_sample_bone(a, x, f, p, r0);
                pk_sample_bone(b, y, f, p, r1);
                d = pk_quat_angle_deg(r0, r1);
                over[0] += d > 0.5;
                over[1] += d > 1.0 + 1e-4;
                over[2] += d > 2.0;
            }
            if (f <= f1 && f < best.frame + 10 && best.err > 0.0) {
                if (d > best.err) {
                    best.err = d;
                    best.frame = f;
                }
                continue;
            }
            if (best.err > 1.0 + 1e-4 || (best.err > 0.0 && n < opt_worst)) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 256;
                    all = realloc(all, cap * sizeof *all);
                }
                all[n++] = best;
            }
            best.err = d;
            best.frame = f;
        }
    }
    qsort(all, n, sizeof *all, by_err);
    printf("frames over 0.5 deg: %zu, over 1 deg: %zu, over 2 deg: %zu\n", over[0], over[1],
           over[2]);
    printf("| bone | frame | error deg | clean velocity change deg/frame (within 2) | clean speed "
           "deg/frame | kind |\n|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < n && k < opt_worst; k++) {
        const pk_track *x = pk_tracks_bone(ta, all[k].name);
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        uint32_t f = all[k].frame;
        double dv = 0.0, v[3], w[3];
        for (uint32_t g = f > f0 + 2 ? f - 2 : f0 + 1; g + 1 <= f1 && g <= f + 2; g++) {
            velocity(a, x, g, v);
            velocity(a, x, g + 1, w);
            dv = fmax(dv, sqrt((v[0] - w[0]) * (v[0] - w[0]) + (v[1] - w[1]) * (v[1] - w[1]) +
                               (v[2] - w[2]) * (v[2] - w[2])));
        }
        velocity(a, x, f, v);
        double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        const char *kind = dv > 1.0 ? "corner" : "noise";
        if (f == f0 || f == f1)
            kind = "track end";
        printf("| %s | %u | %.3f | %.3f | %.3f | %s |\n", pk_names_utf8(a->names, all[k].name), f,
               all[k].err, dv, speed, kind);
    }
    free(all);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
}

/* --oracle: the best any filter that knows the dance is MMD keys could
 * do.  Per bone track of the original motion, the noise (the noisy
 * bake against the clean one: rotation vectors, translation offsets) is
 * fitted by least squares in the space the clean motion lives in, the
 * original keys' frames with their own curves (each frame between keys a
 * and b is (1 - u) x_a + u x_b, u from b's curve: a tridiagonal system
 * per component); what the fit keeps of the noise is that oracle's
 * error, with no bias (its model is the truth, to first order in the
 * noise).  Its worst frame bounds from below what a filter blind to the
 * keys can reach on this dance. */
static int opt_oracle;

/* out[f] = the fit of y (n frames from f0) in the keys' space, keys
 * at frames kf[0..nk-1] (kf[0] = f0), u[f] each frame's share of the
 * later key (0 at keys). */
static void key_fit(const double *y, size_t n, const uint32_t *kf, size_t nk, const double *u,
                    uint32_t f0, double *out)
{
    if (nk < 2) {
        double m = 0;
        for (size_t f = 0; f < n; f++)
            m += y[f];
        for (size_t f = 0; f < n; f++)
            out[f] = n ? m / (double)n : 0;
        return;
    }
    double *d = calloc(nk, sizeof *d), *e = calloc(nk, sizeof *e), *b = calloc(nk, sizeof *b);
    for (size_t k = 0; k + 1 < nk; k++) {
        for (uint32_t f = kf[k]; f < kf[k + 1]; f++) {
            size_t i = f - f0;
            double w0 = 1.0 - u[i], w1 = u[i];
            d[k] += w0 * w0;
            d[k + 1] += w1 * w1;
            e[k] += w0 * w1;
            b[k] += w0 * y[i];
            b[k + 1] += w1 * y[i];
        }
    }
    size_t last = kf[nk - 1] - f0;
    d[nk - 1] += 1.0;
    b[nk - 1] += y[last];
    /* Thomas: d diagonal, e[k] between k and k + 1 */
    for (size_t k = 1; k < nk; k++) {
        double m = e[k - 1] / d[k - 1];
        d[k] -= m * e[k - 1];
        b[k] -= m * b[k - 1];
    }
    b[nk - 1] /= d[nk - 1];
    for (size_t k = nk - 1; k-- > 0;)
        b[k] = (b[k] - e[k] * b[k + 1]) / d[k];
    for (size_t k = 0; k + 1 < nk; k++)
        for (uint32_t f = kf[k]; f < kf[k + 1]; f++)
            out[f - f0] = (1.0 - u[f - f0]) * b[k] + u[f - f0] * b[k + 1];
    out[last] = b[nk - 1];
    free(d);
    free(e);
    free(b);
}

static void oracle(const pk_motion *m, const pk_motion *clean, const pk_motion *noisy)
{
    if (!opt_oracle)
        return;
    pk_tracks *tm = pk_tracks_build(m, NULL), *tc = pk_tracks_build(clean, NULL),
              *tn = pk_tracks_build(noisy, NULL);
    double sum = 0, worst = 0, sum_p = 0, worst_p = 0;
    size_t cnt = 0, cnt_p = 0, over = 0;
    char where[128] = "-";
    for (size_t t = 0; t < tm->nbones; t++) {
        const pk_track *x = &tm->bones[t];
        const pk_track *c = pk_tracks_bone(tc, x->name), *z = pk_tracks_bone(tn, x->name);
        if (!c || !z || x->count < 1)
            continue;
        uint32_t f0 = m->bones[x->keys[0]].frame, f1 = m->bones[x->keys[x->count - 1]].frame;
        size_t n = (size_t)(f1 - f0) + 1, nk = 0;
        uint32_t *kf = malloc(x->count * sizeof *kf);
        double *u = calloc(n, sizeof *u), *y = malloc(n * sizeof *y), *o = malloc(n * sizeof *o);
        double(*res)[3] = calloc(n, sizeof *res), (*nv)[3] = malloc(n * sizeof *nv);
        bool moves = false;
        for (size_t k = 0; k < x->count; k++)
            for (int a = 0; a < 3; a++)
                moves = moves || m->bones[x->keys[k]].pos[a] != 0.0f;
        for (int ch = 0; ch < 4; ch++) {
            /* ch 0..2: translation axes; 3: rotation (three components) */
            if (ch < 3 && !moves)
                continue;
            nk = 0;
            for (size_t k = 0; k < x->count; k++) {
                const pk_bone_key *bk = &m->bones[x->keys[k]];
                if (nk && bk->frame == kf[nk - 1])
                    continue;
                if (nk) {
                    uint8_t cp[4];
                    pk_interp_curve(bk->interp, ch, cp);
                    uint32_t fa = kf[nk - 1];
                    for (uint32_t f = fa; f < bk->frame; f++)
                        u[f - f0] = pk_bezier(cp[0], cp[1], cp[2], cp[3],
                                              (float)(f - fa) / (float)(bk->frame - fa));
                }
                kf[nk++] = bk->frame;
            }
            for (size_t i = 0; i < n; i++) {
                float pc[3], rc[4], pz[3], rz[4];
                pk_sample_bone(clean, c, f0 + (double)i, pc, rc);
                pk_sample_bone(noisy, z, f0 + (double)i, pz, rz);
                if (ch < 3) {
                    nv[i][0] = (double)pz[ch] - pc[ch];
                    continue;
                }
                float ci[4] = {-rc[0], -rc[1], -rc[2], rc[3]}, dq[4];
                pk_quat_mul(ci, rz, dq);
                double sg = dq[3] < 0 ? -1.0 : 1.0;
                double nn = sqrt(dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2]);
                double kk = nn > 1e-12 ? 2.0 * atan2(nn, sg * dq[3]) / nn * sg / RAD : 0.0;
                for (int a = 0; a < 3; a++)
                    nv[i][a] = dq[a] * kk;
            }
            for (int a = 0; a < (ch < 3 ? 1 : 3); a++) {
                for (size_t i = 0; i < n; i++)
                    y[i] = nv[i][a];
                key_fit(y, n, kf, nk, u, f0, o);
                for (size_t i = 0; i < n; i++)
                    res[i][ch < 3 ? ch : a] = o[i];
            }
            for (size_t i = 0; i < n && ch == 3; i++) {
                double e =
                    sqrt(res[i][0] * res[i][0] + res[i][1] * res[i][1] + res[i][2] * res[i][2]);
                sum += e;
                cnt++;
                over += e > 1.0 + 1e-4;
                if (e > worst) {
                    worst = e;
                    snprintf(where, sizeof where, "%s @%zu", pk_names_utf8(m->names, x->name),
                             f0 + i);
                }
            }
            if (ch == 2)
                for (size_t i = 0; i < n; i++) {
                    double e =
                        sqrt(res[i][0] * res[i][0] + res[i][1] * res[i][1] + res[i][2] * res[i][2]);
                    sum_p += e;
                    cnt_p++;
                    worst_p = fmax(worst_p, e);
                }
        }
        free(kf);
        free(u);
        free(y);
        free(o);
        free(res);
        free(nv);
    }
    printf("oracle (the noise fitted in the original keys' space): rotation mean %.4f deg, worst "
           "%.3f deg (%s), %zu frames over 1 deg; translation mean %.5f, worst %.5f units\n",
           sum / (double)(cnt ? cnt : 1), worst, where, over, sum_p / (double)(cnt_p ? cnt_p : 1),
           worst_p);
    pk_tracks_free(tm);
    pk_tracks_free(tc);
    pk_tracks_free(tn);
}

typedef struct errs {
    double mean_deg, worst_deg, mean_pos, worst_pos;
    size_t n_deg, n_pos;
    size_t n_single;   /* tracks of one frame */
    double mean_multi; /* the mean rotation error over the other tracks' frames */
    size_t n_multi;
    char where[128];     /* the worst rotation's bone and frame */
    char where_pos[128]; /* the worst translation's */
} errs;

/* b against a at every frame of a's bone tracks (translations only where
 * a's track translates). */
static errs errors(const pk_motion *a, const pk_motion *b)
{
    errs e;
    memset(&e, 0, sizeof e);
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    for (size_t i = 0; i < ta->nbones; i++) {
        const pk_track *x = &ta->bones[i], *y = pk_tracks_bone(tb, x->name);
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        bool moves = false;
        for (size_t k = 0; k < x->count && !moves; k++)
            for (int c = 0; c < 3; c++)
                moves = moves || a->bones[x->keys[k]].pos[c] != 0.0f;
        pk_cursor ca, cb;
        pk_cursor_init(&ca, a, x);
        pk_cursor_init(&cb, b, y);
        double bone_sum = 0.0, bone_pos = 0.0;
        for (uint32_t f = f0; f <= f1; f++) {
            float p0[3], r0[4], p1[3], r1[4];
            pk_cursor_bone(&ca, f, p0, r0);
            pk_cursor_bone(&cb, f, p1, r1);
            double d = pk_quat_angle_deg(r0, r1);
            bone_sum += d;
            e.mean_deg += d;
            if (f1 > f0) {
                e.mean_multi += d;
                e.n_multi++;
            }
            if (d > e.worst_deg)
                snprintf(e.where, sizeof e.where, "%s @%u", pk_names_utf8(a->names, x->name), f);
            e.worst_deg = fmax(e.worst_deg, d);
            e.n_deg++;
            if (moves) {
                double dd = 0;
                for (int c = 0; c < 3; c++)
                    dd += ((double)p0[c] - p1[c]) * ((double)p0[c] - p1[c]);
                e.mean_pos += sqrt(dd);
                bone_pos += sqrt(dd);
                if (sqrt(dd) > e.worst_pos)
                    snprintf(e.where_pos, sizeof e.where_pos, "%s @%u",
                             pk_names_utf8(a->names, x->name), f);
                e.worst_pos = fmax(e.worst_pos, sqrt(dd));
                e.n_pos++;
            }
        }
        e.n_single += f1 == f0;
        if (opt_per_bone && b != a && f1 > f0)
            printf("  %-12s %5u frames, mean %.3f deg, %.5f units\n",
                   pk_names_utf8(a->names, x->name), f1 - f0 + 1, bone_sum / (f1 - f0 + 1),
                   bone_pos / (f1 - f0 + 1));
    }
    e.mean_deg /= (double)(e.n_deg ? e.n_deg : 1);
    e.mean_multi /= (double)(e.n_multi ? e.n_multi : 1);
    e.mean_pos /= (double)(e.n_pos ? e.n_pos : 1);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    return e;
}

/* The angle (degrees) of r from a unit mean rotation. */
static double angle_from(const double mean[4], const float r[4])
{
    float m[4] = {(float)mean[0], (float)mean[1], (float)mean[2], (float)mean[3]};
    return pk_quat_angle_deg(m, r);
}

/* The largest loss of peak angle of b against a at a's fast swings. */
static double peak_loss(const pk_motion *a, const pk_motion *b, size_t *peaks, char *where,
                        size_t wlen)
{
    double worst = 0.0;
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    for (size_t i = 0; i < ta->nbones; i++) {
        const pk_track *x = &ta->bones[i], *y = pk_tracks_bone(tb, x->name);
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        size_t n = (size_t)(f1 - f0) + 1;
        if (n < 20)
            continue;
        double *ga = malloc(n * sizeof *ga), *gb = malloc(n * sizeof *gb);
        float(*ra)[4] = malloc(n * sizeof *ra), (*rb)[4] = malloc(n * sizeof *rb);
        double mean[4] = {0, 0, 0, 0};
        pk_cursor ca, cb;
        pk_cursor_init(&ca, a, x);
        pk_cursor_init(&cb, b, y);
        for (size_t k = 0; k < n; k++) {
            float p[3];
            pk_cursor_bone(&ca, f0 + (double)k, p, ra[k]);
            pk_cursor_bone(&cb, f0 + (double)k, p, rb[k]);
            double s = k && (ra[k][0] * ra[0][0] + ra[k][1] * ra[0][1] + ra[k][2] * ra[0][2] +
                             ra[k][3] * ra[0][3]) < 0
                           ? -1.0
                           : 1.0;
            for (int c = 0; c < 4; c++)
                mean[c] += s * ra[k][c];
        }
        double nn =
            sqrt(mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2] + mean[3] * mean[3]);
        for (int c = 0; c < 4; c++)
            mean[c] /= nn > 0 ? nn : 1;
        for (size_t k = 0; k < n; k++) {
            ga[k] = angle_from(mean, ra[k]);
            gb[k] = angle_from(mean, rb[k]);
        }
        const size_t W = 6;
        for (size_t k = W; k + W < n; k++) {
            double lo_l = ga[k], lo_r = ga[k];
            bool top = true;
            for (size_t j = k - W; j <= k + W && top; j++) {
                if (ga[j] > ga[k] || (ga[j] == ga[k] && j < k))
                    top = false;
                if (j < k)
                    lo_l = fmin(lo_l, ga[j]);
                if (j > k)
                    lo_r = fmin(lo_r, ga[j]);
            }
            if (!top || ga[k] - lo_l < 5.0 || ga[k] - lo_r < 5.0)
                continue;
            (*peaks)++;
            double got = 0.0;
            for (size_t j = k - 2; j <= k + 2; j++)
                got = fmax(got, gb[j]);
            if (ga[k] - got > worst) {
                worst = ga[k] - got;
                snprintf(where, wlen, "%s @%zu (%.1f deg)", pk_names_utf8(a->names, x->name),
                         f0 + k, ga[k]);
            }
        }
        free(ga);
        free(gb);
        free(ra);
        free(rb);
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    return worst;
}

/* Planted feet: the largest step of b's 左足ＩＫ/右足ＩＫ between two
 * frames where a's foot stands still (the same position as the frames
 * before and after); *slid counts the steps over 0.005 units. */
static double foot_slide(const pk_motion *a, const pk_motion *b, size_t *frames, size_t *slid)
{
    static const char *const feet[] = {"左足ＩＫ", "右足ＩＫ"};
    double worst = 0.0;
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    for (int s = 0; s < 2; s++) {
        uint8_t *raw;
        size_t len;
        if (pk_utf8_to_cp932(feet[s], &raw, &len) != 0)
            continue;
        pk_name_id id = pk_names_find(a->names, raw, len);
        free(raw);
        const pk_track *x = id == PK_NO_NAME ? NULL : pk_tracks_bone(ta, id);
        const pk_track *y = id == PK_NO_NAME ? NULL : pk_tracks_bone(tb, id);
        if (!x || !y)
            continue;
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        float pa[3][3], pb[2][3], r[4];
        for (uint32_t f = f0 + 1; f + 1 <= f1; f++) {
            pk_sample_bone(a, x, f - 1, pa[0], r);
            pk_sample_bone(a, x, f, pa[1], r);
            pk_sample_bone(a, x, f + 1, pa[2], r);
            if (memcmp(pa[0], pa[1], sizeof pa[0]) || memcmp(pa[1], pa[2], sizeof pa[0]))
                continue;
            (*frames)++;
            pk_sample_bone(b, y, f, pb[0], r);
            pk_sample_bone(b, y, f + 1, pb[1], r);
            double dd = 0;
            for (int c = 0; c < 3; c++)
                dd += ((double)pb[0][c] - pb[1][c]) * ((double)pb[0][c] - pb[1][c]);
            if (sqrt(dd) > 0.005)
                (*slid)++;
            worst = fmax(worst, sqrt(dd));
        }
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    return worst;
}

static size_t reduced_keys(const pk_motion *m, double deg, double pos)
{
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    o.max_deg = deg;
    o.max_pos = pos;
    o.morphs = false;
    pk_motion *r = pk_motion_reduce(m, &o, NULL, &log);
    size_t n = r ? r->nbones : 0;
    pk_motion_free(r);
    pk_log_free(&log);
    return n;
}

static double opt_deg = 1.0, opt_pos = 0.02;
static uint32_t opt_strength = PK_SMOOTH_STRENGTH, opt_seed = 2024;
static int failures, opt_keys = 1, opt_known = 0;

static void one(const char *path)
{
    pk_log log;
    pk_log_init(&log);
    pk_bytes by;
    if (pk_file_read(path, &by, &log) != 0)
        return;
    pk_motion *m = pk_vmd_read(by.data, by.len, &log);
    pk_bytes_free(&by);
    uint32_t last = 0;
    for (size_t i = 0; m && i < m->nbones; i++)
        last = m->bones[i].frame > last ? m->bones[i].frame : last;
    if (!m || m->nbones < 40 || last < 100) { /* a dance: no test file of a second */
        pk_motion_free(m);
        pk_log_free(&log);
        return;
    }
    pk_reduce_options bo;
    pk_reduce_options_init(&bo);
    bo.morphs = false;
    pk_motion *clean = pk_motion_bake(m, &bo, NULL, &log);
    pk_motion *noisy = pk_motion_clone(clean);
    rng = opt_seed;
    add_noise(noisy, opt_deg, opt_pos);
    pk_smooth_options so;
    pk_smooth_options_init(&so);
    so.strength = opt_strength;
    so.morphs = false;
    if (opt_known) { /* the noise's deviation per axis, told */
        so.noise_deg = opt_deg / sqrt(3.0);
        so.noise_pos = opt_pos / sqrt(3.0);
    }
    pk_smooth_stats st;
    double t0 = bench_cpu_now();
    pk_motion *sm = pk_motion_smooth(noisy, &so, &st, &log);
    double dt = bench_cpu_now() - t0;
    if (!sm) {
        printf("%s: smooth failed\n", path);
        failures++;
        return;
    }
    trace(clean, noisy, sm);
    errs en = errors(clean, noisy), es = errors(clean, sm);
    size_t peaks = 0, still = 0;
    char where[256] = "-";
    double loss = peak_loss(clean, sm, &peaks, where, sizeof where);
    size_t still_in = 0, slid = 0, slid_in = 0;
    double slide = foot_slide(clean, sm, &still, &slid);
    double slide_in = foot_slide(clean, noisy, &still_in, &slid_in);
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf(
        "\n### %s (%zu bone keys baked; noise %.3g deg, %.3g units; strength %u; %.2f s CPU)\n\n",
        name, clean->nbones, opt_deg, opt_pos, opt_strength, dt);
    printf("| | mean deg | worst deg | mean units | worst units |\n|---|---|---|---|---|\n");
    printf("| noisy | %.4f | %.4f | %.5f | %.5f |\n", en.mean_deg, en.worst_deg, en.mean_pos,
           en.worst_pos);
    printf("| smoothed | %.4f | %.4f | %.5f | %.5f |\n", es.mean_deg, es.worst_deg, es.mean_pos,
           es.worst_pos);
    double rr = es.mean_deg / en.mean_deg, rp = en.n_pos ? es.mean_pos / en.mean_pos : 0;
    /* the goals whatever the noise: the worst frame within 1
     * degree (a frame left as its sample at 1 degree of noise is off by
     * exactly that, up to the rounding of a float quaternion) */
    bool ok = rr <= 0.3 && es.worst_deg <= 1.0 + 1e-4 && rp <= 0.3;
    printf("| smoothed / noisy | %.1f %% | | %.1f %% | |\n\n", 100 * rr, 100 * rp);
    printf("worst rotation: %s; worst translation: %s\n", es.where, es.where_pos);
    printf("estimated noise (largest track): %.3f deg, %.4f units; %zu bone tracks smoothed, "
           "%zu clean; %zu contacts (%zu frames); %zu jumps\n",
           st.noise_deg, st.noise_pos, st.bone_tracks, st.clean_tracks, st.contacts,
           st.contact_frames, st.jumps);
    printf("peaks of fast swings: %zu; largest loss of peak angle %.3f deg (%s)\n", peaks, loss,
           where);
    printf("planted feet: %zu still frames; largest step of the smoothed foot %.5f units (noisy "
           "%.5f); steps over 0.005 units: %zu (noisy %zu)\n",
           still, slide, slide_in, slid, slid_in);
    if (en.n_single)
        printf("tracks of one key (one frame: nothing to filter): %zu; over the other tracks the "
               "mean rotation error is %.1f %% of the noise\n",
               en.n_single, 100.0 * es.mean_multi / en.mean_multi);
    worst_frames(clean, sm);
    oracle(m, clean, noisy);
    static const double tols[][2] = {{0.1, 0.005}, {0.5, 0.02}, {1.0, 0.05}};
    printf("\n| reduce tolerances | clean bake reduced | smoothed reduced | ratio | noisy "
           "reduced |\n|---|---|---|---|---|\n");
    for (size_t t = 0; opt_keys && t < sizeof tols / sizeof *tols; t++) {
        size_t kc = reduced_keys(clean, tols[t][0], tols[t][1]);
        size_t ks = reduced_keys(sm, tols[t][0], tols[t][1]);
        size_t kn = reduced_keys(noisy, tols[t][0], tols[t][1]);
        double ratio = (double)ks / (double)(kc ? kc : 1);
        printf("| %.3g deg, %.3g units | %zu | %zu | %.2f | %zu |\n", tols[t][0], tols[t][1], kc,
               ks, ratio, kn);
        if (t == 2)
            ok = ok && ratio <= 1.5;
    }
    printf("\ngoals (mean <= 30 %%, worst <= 1 deg, keys at 1 deg / 0.05 <= 1.5 x): %s\n",
           ok ? "met" : "MISSED");
    failures += !ok;
    fflush(stdout);
    pk_motion_free(sm);
    pk_motion_free(noisy);
    pk_motion_free(clean);
    pk_motion_free(m);
    pk_log_free(&log);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int first = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--deg") == 0 && i + 1 < argc)
            opt_deg = atof(argv[++i]);
        else if (strcmp(argv[i], "--pos") == 0 && i + 1 < argc)
            opt_pos = atof(argv[++i]);
        else if (strcmp(argv[i], "--strength") == 0 && i + 1 < argc)
            opt_strength = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--known-noise") == 0)
            opt_known = 1;
        else if (strcmp(argv[i], "--worst") == 0 && i + 1 < argc)
            opt_worst = (size_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--oracle") == 0)
            opt_oracle = 1;
        else if (strcmp(argv[i], "--per-bone") == 0)
            opt_per_bone = 1;
        else if (strcmp(argv[i], "--trace") == 0 && i + 2 < argc) {
            opt_trace = argv[++i];
            if (sscanf(argv[++i], "%u-%u", &opt_trace_a, &opt_trace_b) != 2)
                return 2;
        } else if (strcmp(argv[i], "--no-keys") == 0)
            opt_keys = 0;
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            opt_seed = (uint32_t)atoi(argv[++i]);
        else {
            first = i;
            break;
        }
    }
    if (first < argc) {
        for (int i = first; i < argc; i++)
            one(argv[i]);
        return failures ? 1 : 0;
    }
    const char *dir = getenv("PK_CORPUS");
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        fprintf(stderr, "bench_smooth: set PK_CORPUS or name VMD files\n");
        return 2;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".vmd") == 0) {
            names[n] = malloc(strlen(dir) + l + 2);
            sprintf(names[n], "%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        one(names[i]);
        free(names[i]);
    }
    return failures ? 1 : 0;
}
