/* test_smooth.c — the filter for noisy motion (engine/ops/keys/smooth.c)
 * on built motions whose clean values are known: noise removed (mean
 * error against the clean motion, not against the input), rotations
 * filtered on the rotation group, a peak kept, a planted foot held, a jump
 * not smeared, clean tracks and unselected tracks left byte-identical,
 * morphs per channel, noise on one axis, small corners every four
 * frames, progress reported, option errors. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* A fixed-seed generator: the same noise on every run. */
static uint32_t rng = 12345;
static double uni(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return (double)(rng >> 8) / 16777216.0;
}

static void random_dir(double v[3])
{
    double z = 2.0 * uni() - 1.0, a = 2.0 * PI * uni(), r = sqrt(1.0 - z * z);
    v[0] = r * cos(a);
    v[1] = r * sin(a);
    v[2] = z;
}

/* The rotation by deg degrees about the unit axis. */
static void axis_angle(const double axis[3], double deg, float q[4])
{
    double h = deg * PI / 360.0;
    for (int k = 0; k < 3; k++)
        q[k] = (float)(axis[k] * sin(h));
    q[3] = (float)cos(h);
}

/* A key of a bone (UTF-8 name), linear curves. */
static pk_bone_key *key(pk_motion *m, const char *name, uint32_t f, const float rot[4],
                        const double pos[3])
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, name);
    k->frame = f;
    memcpy(k->rot, rot, sizeof k->rot);
    for (int c = 0; c < 3; c++)
        k->pos[c] = pos ? (float)pos[c] : 0.0f;
    pk_interp_linear(k->interp);
    return k;
}

/* r turned by exactly deg degrees about a random axis. */
static void rot_noise(float r[4], double deg)
{
    double ax[3];
    random_dir(ax);
    float n[4], q[4];
    axis_angle(ax, deg, n);
    pk_quat_mul(r, n, q);
    memcpy(r, q, sizeof q);
}

/* The mean and worst angle (degrees) between a's and b's rotations of
 * bone `name` over the frames a keys within first..last. */
static void rot_err(const pk_motion *a, const pk_motion *b, const char *name, uint32_t first,
                    uint32_t last, double *mean, double *worst)
{
    size_t n = 0;
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    pk_name_id ia = tu_intern((pk_names *)a->names, name);
    pk_name_id ib = tu_intern((pk_names *)b->names, name);
    const pk_track *x = pk_tracks_bone(ta, ia), *y = pk_tracks_bone(tb, ib);
    assert_non_null(x);
    assert_non_null(y);
    *mean = *worst = 0.0;
    for (size_t i = 0; i < x->count; i++) {
        const pk_bone_key *k = &a->bones[x->keys[i]];
        float p[3], r[4];
        pk_sample_bone(b, y, k->frame, p, r);
        if (k->frame < first || k->frame > last)
            continue;
        double d = pk_quat_angle_deg(k->rot, r);
        *mean += d;
        *worst = fmax(*worst, d);
        n++;
    }
    *mean /= (double)(n ? n : 1);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
}

static pk_motion *smooth(const pk_motion *m, const pk_smooth_options *o, pk_smooth_stats *st)
{
    pk_log log;
    pk_log_init(&log);
    pk_motion *out = pk_motion_smooth(m, o, st, &log);
    if (!out)
        printf("%s\n", log.count ? log.items[0].msg : "(no message)");
    pk_log_free(&log);
    return out;
}

/* A slow swing about a tilted axis (a sine of 30 degrees over 300
 * frames) with 1 degree of noise at every frame: the smoothed rotations
 * are within 30 % of the noise of the clean ones on average, and no frame
 * but the first and last four (where only windows on one side fit, and a
 * line's end moves most with the noise) is off by more than the noise. */
static void noise_removed_on_a_slow_swing(void **state)
{
    (void)state;
    rng = 1;
    pk_motion *clean = pk_motion_new(), *noisy = pk_motion_new();
    const double ax[3] = {0.48, 0.6, 0.64};
    for (uint32_t f = 0; f <= 300; f++) {
        float q[4];
        axis_angle(ax, 30.0 * sin(2.0 * PI * f / 300.0), q);
        key(clean, "右腕", f, q, NULL);
        rot_noise(q, 1.0);
        key(noisy, "右腕", f, q, NULL);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(noisy, &o, &st);
    assert_non_null(out);
    assert_int_equal(st.bone_tracks, 1);
    assert_int_equal(out->nbones, 301);
    double mean, worst, mean_in, worst_in;
    rot_err(clean, out, "右腕", 0, 300, &mean, &worst);
    rot_err(clean, out, "右腕", 4, 296, &mean_in, &worst_in);
    printf("slow swing: mean %.3f deg, worst %.3f deg (%.3f within frames 4-296), noise "
           "estimated %.3f deg per axis\n",
           mean, worst, worst_in, st.noise_deg);
    assert_true(mean <= 0.3);
    assert_true(worst_in <= 1.0);
    assert_true(worst <= 1.5);
    /* the estimate is near the noise's deviation per axis, 1/sqrt(3) */
    assert_true(fabs(st.noise_deg - 1.0 / sqrt(3.0)) < 0.15);
    pk_motion_free(out);
    pk_motion_free(clean);
    pk_motion_free(noisy);
}

/* A rotation far from rest that crosses the quaternion double cover: 170
 * degrees about an axis, turning on to 190 (its quaternion's w changes
 * sign) with the keys' signs flipped at random, as a file may store them.
 * A filter per quaternion component averages q and -q towards zero; on the
 * rotation group the answer is near the clean rotation at every frame. */
static void rotations_on_the_group(void **state)
{
    (void)state;
    rng = 2;
    pk_motion *clean = pk_motion_new(), *noisy = pk_motion_new();
    const double ax[3] = {0.0, 0.6, 0.8};
    for (uint32_t f = 0; f <= 120; f++) {
        float q[4];
        axis_angle(ax, 170.0 + 20.0 * f / 120.0, q);
        key(clean, "頭", f, q, NULL);
        rot_noise(q, 1.0);
        if (uni() < 0.5)
            for (int c = 0; c < 4; c++)
                q[c] = -q[c];
        key(noisy, "頭", f, q, NULL);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_motion *out = smooth(noisy, &o, NULL);
    assert_non_null(out);
    double mean, worst;
    rot_err(clean, out, "頭", 0, 120, &mean, &worst);
    printf("across the double cover: mean %.3f deg, worst %.3f deg\n", mean, worst);
    assert_true(mean <= 0.3);
    assert_true(worst <= 1.0);
    for (size_t i = 0; i < out->nbones; i++) {
        const float *r = out->bones[i].rot;
        double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
        assert_true(fabs(n - 1.0) < 1e-5);
    }
    pk_motion_free(out);
    pk_motion_free(clean);
    pk_motion_free(noisy);
}

/* A snap of the head on the beat: 40 frames still, 45 degrees in 3
 * frames, back in 3, still for 104 frames, with 1 degree of noise.  The peak keeps
 * its height within 1.5 degrees (a window of fixed width over it would
 * cut it by half), and the stats report the peak and its loss. */
static void a_snap_keeps_its_peak(void **state)
{
    (void)state;
    rng = 3;
    pk_motion *clean = pk_motion_new(), *noisy = pk_motion_new();
    const double ax[3] = {1.0, 0.0, 0.0};
    for (uint32_t f = 0; f <= 150; f++) {
        double a = f <= 40   ? 0.0
                   : f <= 43 ? 15.0 * (f - 40)
                   : f <= 46 ? 45.0 - 15.0 * (f - 43)
                             : 0.0;
        float q[4];
        axis_angle(ax, a, q);
        key(clean, "頭", f, q, NULL);
        rot_noise(q, 1.0);
        key(noisy, "頭", f, q, NULL);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(noisy, &o, &st);
    assert_non_null(out);
    pk_tracks *t = pk_tracks_build(out, NULL);
    const pk_track *h = pk_tracks_bone(t, tu_intern(out->names, "頭"));
    float p[3], r[4], rest[4] = {0, 0, 0, 1};
    pk_sample_bone(out, h, 43, p, r);
    double peak = pk_quat_angle_deg(rest, r);
    printf("snap: peak %.2f deg of 45; reported %zu peaks, largest loss %.2f deg at %u\n", peak,
           st.peaks, st.peak_loss_deg, st.peak_frame);
    assert_true(peak >= 43.5 && peak <= 46.5);
    assert_true(st.peaks >= 1);
    assert_true(st.peak_loss_deg < 1.5);
    /* the still stretches are quiet: within 30 % of the noise on average
     * (the frames of the snap itself keep about the noise: a window
     * across the turn would cut the peak) */
    double mean, worst, mean2, worst2;
    rot_err(clean, out, "頭", 0, 37, &mean, &worst);
    rot_err(clean, out, "頭", 55, 146, &mean2, &worst2);
    printf("snap: still before %.3f (worst %.3f), after %.3f (worst %.3f)\n", mean, worst, mean2,
           worst2);
    assert_true(mean <= 0.3 && mean2 <= 0.3);
    assert_true(worst <= 1.0 && worst2 <= 1.0);
    pk_tracks_free(t);
    pk_motion_free(out);
    pk_motion_free(clean);
    pk_motion_free(noisy);
}

/* 左足ＩＫ planted for frames 0..39 at (1, 0, 2), then walking forward 0.1
 * a frame to 79, with 0.02 units of noise at every frame: the planted
 * frames all hold one position (exactly, so the foot does not slide),
 * within 0.01 of the clean one; the walk is followed. */
static void a_planted_foot_stays_planted(void **state)
{
    (void)state;
    rng = 4;
    pk_motion *noisy = pk_motion_new();
    const float rest[4] = {0, 0, 0, 1};
    for (uint32_t f = 0; f <= 79; f++) {
        double p[3] = {1.0, 0.0, f < 40 ? 2.0 : 2.0 + 0.1 * (f - 39)}, d[3];
        random_dir(d);
        for (int c = 0; c < 3; c++)
            p[c] += 0.02 * d[c];
        key(noisy, "左足ＩＫ", f, rest, p);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(noisy, &o, &st);
    assert_non_null(out);
    assert_true(st.contacts >= 1);
    const float *p0 = out->bones[0].pos;
    size_t held = 0;
    for (size_t i = 0; i < out->nbones; i++) {
        const pk_bone_key *k = &out->bones[i];
        if (k->frame <= 35) {
            assert_memory_equal(k->pos, p0, sizeof k->pos);
            held++;
        }
        double want = k->frame < 40 ? 2.0 : 2.0 + 0.1 * (k->frame - 39);
        double tol = k->frame < 37 || k->frame > 42 ? 0.012 : 0.05; /* the lift */
        assert_true(fabs(k->pos[2] - want) < tol);
    }
    assert_int_equal(held, 36);
    assert_true(fabs(p0[0] - 1.0) < 0.01 && fabs(p0[1]) < 0.01 && fabs(p0[2] - 2.0) < 0.01);
    /* without contacts the planted frames move (the noise is filtered, not held) */
    o.contacts = false;
    pk_motion *free_foot = smooth(noisy, &o, &st);
    assert_non_null(free_foot);
    assert_int_equal(st.contacts, 0);
    bool moved = false;
    for (size_t i = 1; i < free_foot->nbones && free_foot->bones[i].frame <= 35; i++)
        moved = moved || memcmp(free_foot->bones[i].pos, free_foot->bones[0].pos, 12) != 0;
    assert_true(moved);
    pk_motion_free(free_foot);
    pk_motion_free(out);
    pk_motion_free(noisy);
}

/* 右足ＩＫ stepping twelve times: 10 frames at 0.2 units a frame, a
 * landing of 4 frames at 0.035 a frame (a step under twice the 0.02
 * units of noise added at every frame), 26 frames planted: the contacts
 * hold the planted frames, and at most 3 of the 36 landing frames 0.07
 * to 0.14 units from the spot are held with them (1 with this seed; 6
 * when a contact's first frames whose mean lies off the rest's are not
 * trimmed). */
static void a_landing_is_not_held(void **state)
{
    (void)state;
    rng = 21;
    pk_motion *noisy = pk_motion_new();
    const float rest[4] = {0, 0, 0, 1};
    double z = 0.0;
    for (uint32_t f = 0; f < 480; f++) {
        uint32_t c = f % 40;
        double p[3] = {0.5, 0.0, z}, d[3];
        random_dir(d);
        for (int k = 0; k < 3; k++)
            p[k] += 0.02 * d[k];
        key(noisy, "右足ＩＫ", f, rest, p);
        z += c < 10 ? 0.2 : c < 14 ? 0.035 : 0.0;
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(noisy, &o, &st);
    assert_non_null(out);
    assert_true(st.contacts >= 12);
    size_t held = 0, planted = 0;
    for (uint32_t step = 0; step < 12; step++) {
        const float *spot = out->bones[step * 40 + 30].pos;
        for (uint32_t c = 10; c < 40; c++) {
            bool same = memcmp(out->bones[step * 40 + c].pos, spot, sizeof out->bones->pos) == 0;
            if (c < 13) /* the landing: frame 10 + k is (4 - k) x 0.025 off */
                held += same;
            else if (c >= 16)
                planted += same;
        }
    }
    printf("landings: %zu of 36 landing frames held, %zu of 288 planted frames held\n", held,
           planted);
    assert_true(held <= 3);
    assert_true(planted >= 280);
    pk_motion_free(out);
    pk_motion_free(noisy);
}

/* センター jumps 5 units between frames 30 and 31 (a cut): with noise
 * on both sides, the frames next to the jump keep their side's value
 * (no window reaches across it). */
static void a_jump_is_not_smeared(void **state)
{
    (void)state;
    rng = 5;
    pk_motion *noisy = pk_motion_new();
    const float rest[4] = {0, 0, 0, 1};
    for (uint32_t f = 0; f <= 60; f++) {
        double p[3] = {f <= 30 ? 0.0 : 5.0, 0.01 * f, 0.0}, d[3];
        random_dir(d);
        for (int c = 0; c < 3; c++)
            p[c] += 0.02 * d[c];
        key(noisy, "センター", f, rest, p);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(noisy, &o, &st);
    assert_non_null(out);
    assert_true(st.jumps >= 1);
    for (size_t i = 0; i < out->nbones; i++) {
        const pk_bone_key *k = &out->bones[i];
        double want = k->frame <= 30 ? 0.0 : 5.0;
        assert_true(fabs(k->pos[0] - want) < 0.03);
    }
    pk_motion_free(out);
    pk_motion_free(noisy);
}

/* The mean distance (units) between a's and b's translations of bone
 * `name` over the frames a keys. */
static double pos_err(const pk_motion *a, const pk_motion *b, const char *name)
{
    size_t n = 0;
    double sum = 0.0;
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    const pk_track *x = pk_tracks_bone(ta, tu_intern((pk_names *)a->names, name));
    const pk_track *y = pk_tracks_bone(tb, tu_intern((pk_names *)b->names, name));
    assert_non_null(x);
    assert_non_null(y);
    for (size_t i = 0; i < x->count; i++) {
        const pk_bone_key *k = &a->bones[x->keys[i]];
        float p[3], r[4];
        pk_sample_bone(b, y, k->frame, p, r);
        double d2 = 0.0;
        for (int c = 0; c < 3; c++)
            d2 += ((double)p[c] - k->pos[c]) * ((double)p[c] - k->pos[c]);
        sum += sqrt(d2);
        n++;
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    return sum / (double)(n ? n : 1);
}

/* センター stepping from key to key every 6 frames in a new direction at
 * 0.3 units a frame (a dance's bounces: a corner every 6 frames), 0.02
 * units of noise: the line windows stop at each corner, because a window
 * whose line misses its samples by more than the noise explains is not
 * taken, so the frames between corners are averaged without cutting the
 * corners: the mean error is at most 60 % of the noise (windows that
 * grow across the corners leave over 80 %; a line over each six-frame
 * piece, its corners known, would leave about 45 %). */
static void corners_every_six_frames(void **state)
{
    (void)state;
    rng = 9;
    pk_motion *clean = pk_motion_new(), *noisy = pk_motion_new();
    const float rest[4] = {0, 0, 0, 1};
    double p[3] = {0, 0, 0}, dir[3] = {1, 0, 0};
    for (uint32_t f = 0; f <= 600; f++) {
        if (f % 6 == 0)
            random_dir(dir);
        key(clean, "センター", f, rest, p);
        double d[3], q[3];
        random_dir(d);
        for (int c = 0; c < 3; c++)
            q[c] = p[c] + 0.02 * d[c];
        key(noisy, "センター", f, rest, q);
        for (int c = 0; c < 3; c++)
            p[c] += 0.3 * dir[c];
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_motion *out = smooth(noisy, &o, NULL);
    assert_non_null(out);
    double e = pos_err(clean, out, "センター"), e_in = pos_err(clean, noisy, "センター");
    printf("corners every 6 frames: mean error %.5f units (noisy %.5f): %.1f %%\n", e, e_in,
           100.0 * e / e_in);
    assert_true(e <= 0.6 * e_in);
    pk_motion_free(out);
    pk_motion_free(clean);
    pk_motion_free(noisy);
}

/* 右腕 turning from key to key every 4 frames, its turn per frame
 * changed at each key by 1 degree a frame in a new direction (a dance's
 * small corners, each too small to stand out of 1 degree of noise
 * alone), 1 degree of noise: a window whose line misses its samples by
 * more than the noise explains is not taken, tested per component and
 * over the three together at the one-in-forty bound, so that at most 43
 * frames end further from the clean motion than the noise (35 with
 * this seed; a test per component at one in a thousand leaves 51). */
static void small_corners_every_four_frames(void **state)
{
    (void)state;
    rng = 17;
    pk_motion *clean = pk_motion_new(), *noisy = pk_motion_new();
    double v[3] = {1.0, 0.0, 0.0}; /* degrees a frame, as a rotation vector */
    float q[4] = {0, 0, 0, 1};
    for (uint32_t f = 0; f <= 600; f++) {
        if (f % 4 == 0) {
            double d[3];
            random_dir(d);
            for (int c = 0; c < 3; c++)
                v[c] = 0.8 * v[c] + 1.0 * d[c];
        }
        key(clean, "右腕", f, q, NULL);
        float n[4];
        memcpy(n, q, sizeof n);
        rot_noise(n, 1.0);
        key(noisy, "右腕", f, n, NULL);
        double a = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), ax[3];
        for (int c = 0; c < 3; c++)
            ax[c] = v[c] / (a > 0 ? a : 1);
        float t[4], r[4];
        axis_angle(ax, a, t);
        pk_quat_mul(q, t, r);
        memcpy(q, r, sizeof q);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_motion *out = smooth(noisy, &o, NULL);
    assert_non_null(out);
    pk_tracks *ta = pk_tracks_build(clean, NULL), *tb = pk_tracks_build(out, NULL);
    const pk_track *x = pk_tracks_bone(ta, tu_intern(clean->names, "右腕"));
    const pk_track *y = pk_tracks_bone(tb, tu_intern(out->names, "右腕"));
    size_t over = 0;
    double mean = 0.0;
    for (uint32_t f = 0; f <= 600; f++) {
        float p[3], a[4], b[4];
        pk_sample_bone(clean, x, f, p, a);
        pk_sample_bone(out, y, f, p, b);
        double d = pk_quat_angle_deg(a, b);
        over += d > 1.0;
        mean += d / 601.0;
    }
    printf("small corners every 4 frames: mean error %.3f deg, %zu of 601 frames over 1 deg\n",
           mean, over);
    assert_true(over <= 43);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_motion_free(out);
    pk_motion_free(clean);
    pk_motion_free(noisy);
}

/* Clean tracks (a keyed swing, no noise) are left as they are: the
 * output is the input's records, byte for byte, and nothing is counted
 * smoothed.  With a noisy track beside, only the noisy one is rewritten,
 * and --bones selecting the clean one leaves the noisy one alone too. */
static void clean_and_unselected_tracks_unchanged(void **state)
{
    (void)state;
    rng = 6;
    pk_motion *m = pk_motion_new();
    const double ax[3] = {0.0, 0.0, 1.0};
    for (uint32_t f = 0; f <= 60; f += 10) {
        float q[4];
        axis_angle(ax, (double)f, q);
        key(m, "左腕", f, q, NULL);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(m, &o, &st);
    assert_non_null(out);
    assert_int_equal(st.bone_tracks, 0);
    assert_int_equal(st.clean_tracks, 1);
    assert_int_equal(out->nbones, m->nbones);
    assert_memory_equal(out->bones, m->bones, m->nbones * sizeof *m->bones);
    pk_motion_free(out);
    /* a noisy track beside it */
    for (uint32_t f = 0; f <= 60; f++) {
        float q[4] = {0, 0, 0, 1};
        rot_noise(q, 1.0);
        key(m, "右腕", f, q, NULL);
    }
    out = smooth(m, &o, &st);
    assert_non_null(out);
    assert_int_equal(st.bone_tracks, 1);
    assert_memory_equal(out->bones, m->bones, 7 * sizeof *m->bones); /* 左腕 first, as it was */
    pk_log log;
    pk_log_init(&log);
    pk_selection *sel = pk_selection_parse(NULL, "左腕", &log);
    assert_non_null(sel);
    o.bones = sel;
    pk_motion *out2 = smooth(m, &o, &st);
    assert_non_null(out2);
    assert_int_equal(st.bone_tracks, 0);
    assert_memory_equal(out2->bones, m->bones, m->nbones * sizeof *m->bones);
    pk_selection_free(sel);
    /* a selection naming nothing keyed is an error */
    sel = pk_selection_parse(NULL, "足", &log);
    o.bones = sel;
    assert_null(pk_motion_smooth(m, &o, &st, &log));
    tu_assert_log_has(&log, "nothing to smooth");
    pk_selection_free(sel);
    pk_log_free(&log);
    pk_motion_free(out2);
    pk_motion_free(out);
    pk_motion_free(m);
}

/* A morph ramping 0 -> 1 over 100 frames with 0.05 of noise: filtered
 * on its own, closer to the ramp than the input; with morphs off it stays. */
static void morph_weights_filtered(void **state)
{
    (void)state;
    rng = 7;
    pk_motion *m = pk_motion_new();
    double in_err = 0.0;
    for (uint32_t f = 0; f <= 100; f++) {
        double n = 0.05 * (2.0 * uni() - 1.0) * sqrt(3.0);
        in_err += fabs(n);
        tu_morph_key(m, "あ", f, (float)(f / 100.0 + n));
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(m, &o, &st);
    assert_non_null(out);
    assert_int_equal(st.morph_tracks, 1);
    double err = 0.0;
    for (size_t i = 0; i < out->nmorphs; i++)
        err += fabs(out->morphs[i].weight - out->morphs[i].frame / 100.0);
    printf("morph: mean error %.4f, input %.4f\n", err / 101.0, in_err / 101.0);
    assert_true(err <= 0.3 * in_err);
    pk_motion_free(out);
    o.morphs = false;
    out = smooth(m, &o, &st);
    assert_non_null(out);
    assert_int_equal(st.morph_tracks, 0);
    assert_memory_equal(out->morphs, m->morphs, m->nmorphs * sizeof *m->morphs);
    pk_motion_free(out);
    pk_motion_free(m);
}

/* Noise on one axis alone (a hinge keyed about X, normal jitter of 1
 * degree about X only): the noise is found (a median over all three axes
 * would be 0, the other two being exact) and mostly removed. */
static void noise_on_one_axis(void **state)
{
    (void)state;
    rng = 8;
    pk_motion *clean = pk_motion_new(), *noisy = pk_motion_new();
    const double x[3] = {1.0, 0.0, 0.0};
    for (uint32_t f = 0; f <= 300; f++) {
        double a = 40.0 + 20.0 * sin(2.0 * PI * f / 300.0);
        float q[4];
        axis_angle(x, a, q);
        key(clean, "左ひじ", f, q, NULL);
        double g = sqrt(-2.0 * log(1.0 - uni())) * cos(2.0 * PI * uni()); /* normal, 1 degree */
        axis_angle(x, a + g, q);
        key(noisy, "左ひじ", f, q, NULL);
    }
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_smooth_stats st;
    pk_motion *out = smooth(noisy, &o, &st);
    assert_non_null(out);
    assert_int_equal(st.bone_tracks, 1);
    double mean, worst, mean_in, worst_in;
    rot_err(clean, noisy, "左ひじ", 0, 300, &mean_in, &worst_in);
    rot_err(clean, out, "左ひじ", 0, 300, &mean, &worst);
    printf("one axis: mean %.3f deg (input %.3f), noise estimated %.3f\n", mean, mean_in,
           st.noise_deg);
    assert_true(mean <= 0.4 * mean_in);
    assert_true(fabs(st.noise_deg - 1.0) < 0.2);
    pk_motion_free(out);
    pk_motion_free(clean);
    pk_motion_free(noisy);
}

/* Progress: smooth, reduce, bake and the streamed VMD writer call the
 * log's callback with what they do and a share that never goes down,
 * within 0..1; a log without one is fine (every other test). */
typedef struct seen {
    size_t calls;
    double last;
    const char *what;
    bool ordered;
} seen;

static void note(void *ctx, double done, const char *what)
{
    seen *s = ctx;
    if (s->what && strcmp(s->what, what) == 0 && done < s->last)
        s->ordered = false;
    if (done < 0.0 || done > 1.0)
        s->ordered = false;
    s->calls++;
    s->last = done;
    s->what = what;
}

static int discard(void *ctx, const void *data, size_t len)
{
    (void)ctx;
    (void)data;
    (void)len;
    return 0;
}

static void progress_reported(void **state)
{
    (void)state;
    rng = 9;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 60; f++) {
        float q[4] = {0, 0, 0, 1};
        rot_noise(q, 1.0);
        key(m, "右腕", f, q, NULL);
        rot_noise(q, 1.0);
        key(m, "左腕", f, q, NULL);
    }
    pk_log log;
    pk_log_init(&log);
    seen s = {0, 0.0, NULL, true};
    pk_log_set_progress(&log, note, &s);
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_motion *out = pk_motion_smooth(m, &o, NULL, &log);
    assert_non_null(out);
    assert_true(s.calls >= 4);
    assert_string_equal(s.what, "smoothing");
    assert_true(s.ordered && s.last > 0.5);
    pk_reduce_options ro;
    pk_reduce_options_init(&ro);
    memset(&s, 0, sizeof s);
    s.ordered = true;
    pk_motion *r = pk_motion_reduce(out, &ro, NULL, &log);
    assert_non_null(r);
    assert_true(s.calls >= 2 && s.ordered);
    assert_string_equal(s.what, "reducing");
    memset(&s, 0, sizeof s);
    s.ordered = true;
    pk_motion *b = pk_motion_bake(r, &ro, NULL, &log);
    assert_non_null(b);
    assert_true(s.calls >= 2 && s.ordered);
    assert_string_equal(s.what, "baking");
    memset(&s, 0, sizeof s);
    s.ordered = true;
    assert_int_equal(pk_vmd_write_sink(b, discard, NULL, &log), 0);
    assert_true(s.calls >= 1 && s.ordered);
    assert_string_equal(s.what, "writing");
    assert_true(s.last == 1.0);
    pk_motion_free(b);
    pk_motion_free(r);
    pk_motion_free(out);
    pk_log_free(&log);
    assert_null(log.progress); /* pk_log_free clears it */
    pk_motion_free(m);
}

static void option_errors(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_smooth_options o;
    pk_smooth_options_init(&o);
    pk_log log;
    pk_log_init(&log);
    o.strength = 1;
    assert_null(pk_motion_smooth(m, &o, NULL, &log));
    tu_assert_log_has(&log, "strength");
    o.strength = PK_SMOOTH_STRENGTH_MAX + 1;
    assert_null(pk_motion_smooth(m, &o, NULL, &log));
    o.strength = PK_SMOOTH_STRENGTH;
    o.noise_deg = -1.0;
    assert_null(pk_motion_smooth(m, &o, NULL, &log));
    o.noise_deg = NAN;
    assert_null(pk_motion_smooth(m, &o, NULL, &log));
    tu_assert_log_has(&log, "noise");
    /* a track spanning 4,194,304 frames or more (a far key) is refused,
     * named, before anything is sampled */
    o.noise_deg = 0.0;
    const float rest[4] = {0, 0, 0, 1};
    key(m, "頭", 0, rest, NULL);
    key(m, "頭", 10, rest, NULL);
    key(m, "頭", 5000000, rest, NULL);
    assert_null(pk_motion_smooth(m, &o, NULL, &log));
    tu_assert_log_has(&log, "spans 5000001 frames");
    pk_log_free(&log);
    pk_motion_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(noise_removed_on_a_slow_swing),
        cmocka_unit_test(rotations_on_the_group),
        cmocka_unit_test(a_snap_keeps_its_peak),
        cmocka_unit_test(a_planted_foot_stays_planted),
        cmocka_unit_test(a_landing_is_not_held),
        cmocka_unit_test(a_jump_is_not_smeared),
        cmocka_unit_test(corners_every_six_frames),
        cmocka_unit_test(small_corners_every_four_frames),
        cmocka_unit_test(clean_and_unselected_tracks_unchanged),
        cmocka_unit_test(morph_weights_filtered),
        cmocka_unit_test(noise_on_one_axis),
        cmocka_unit_test(progress_reported),
        cmocka_unit_test(option_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
