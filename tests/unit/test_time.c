/* test_time.c — time (trim, shift, stretch), crossfade and curves checked
 * on built motions of known answers, at every integer frame, and on the
 * corpus:
 *   - a trimmed (and shifted) motion sampled at every frame of the range
 *     equals the input there (bones within PK_OVERLAY_FIT_*, linear tracks
 *     within float rounding, morphs and light exactly, camera within the
 *     trim's tolerances), and holds its value at B after it;
 *   - stretch by 2 then by 0.5 gives the same bytes; a stretch by 2
 *     samples at 2f as the input at f;
 *   - keys landing on one frame: the latest keeps it, a held value still
 *     ends right before a jump; a cut stays one frame apart;
 *   - crossfade: up to the fade's start the first motion, from its end the
 *     second (shifted), both at every frame;
 *   - curves: the chosen keys get the curve, every other byte stays. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_ 3.14159265358979323846

static void set_curve(pk_bone_key *k, const uint8_t c[4])
{
    uint8_t cp[4][4];
    for (int a = 0; a < 4; a++)
        memcpy(cp[a], c, 4);
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
}

static pk_bone_key *bone(pk_motion *m, const char *name, uint32_t f, float x, float y, float z,
                         float angle_deg, const uint8_t c[4])
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = tu_intern(m->names, name);
    k->frame = f;
    k->pos[0] = x;
    k->pos[1] = y;
    k->pos[2] = z;
    double h = angle_deg * PI_ / 360.0;
    k->rot[0] = (float)sin(h) * 0.6f;
    k->rot[1] = (float)sin(h) * 0.8f;
    k->rot[3] = (float)cos(h);
    set_curve(k, c);
    return k;
}

static const uint8_t LIN[4] = {20, 20, 107, 107};
static const uint8_t EASE[4] = {64, 0, 64, 127};
static const uint8_t SNAP[4] = {10, 90, 30, 120};

static void camera(pk_motion *m, uint32_t f, float x, float dist, float ry, uint32_t fov)
{
    pk_camera_key *k = pk_motion_push_camera(m);
    assert_non_null(k);
    k->frame = f;
    k->pos[0] = x;
    k->pos[1] = 10;
    k->distance = dist;
    k->rot[1] = ry;
    k->fov = fov;
    pk_camera_interp_linear(k->interp);
    for (int g = 0; g < 6; g++) { /* x1 x2 y1 y2: an ease on every channel */
        k->interp[4 * g + 0] = 64;
        k->interp[4 * g + 1] = 64;
        k->interp[4 * g + 2] = 0;
        k->interp[4 * g + 3] = 127;
    }
}

/* A motion with every section: curved and linear bones, morphs, a camera
 * with a cut, light, shadow and IK records. */
static pk_motion *built(void)
{
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    bone(m, "センター", 0, 0, 0, 0, 0, LIN);
    bone(m, "センター", 30, 2, 1, -1, 40, EASE);
    bone(m, "センター", 75, -1, 3, 2, -20, SNAP);
    bone(m, "センター", 120, 0, 0, 1, 90, EASE);
    bone(m, "左腕", 10, 0, 0, 0, 10, LIN);
    bone(m, "左腕", 100, 0, 0, 0, 80, LIN);
    bone(m, "頭", 5, 0, 0, 0, 0, LIN);
    bone(m, "頭", 6, 0, 0, 0, 60, LIN); /* a snap: a cut pair */
    bone(m, "頭", 90, 0, 0, 0, 30, SNAP);
    bone(m, "右足ＩＫ", 200, 1, 0, 0, 0, LIN); /* after every trim: held */
    tu_morph_key(m, "あ", 0, 0.0f);
    tu_morph_key(m, "あ", 40, 1.0f);
    tu_morph_key(m, "あ", 80, 0.25f);
    tu_morph_key(m, "まばたき", 3, 1.0f);
    camera(m, 0, 0, -45, 0, 30);
    camera(m, 50, 5, -30, 1.0f, 40);
    camera(m, 51, -5, -20, -1.0f, 20); /* a cut */
    camera(m, 110, 3, -50, 0.5f, 30);
    pk_light_key *l = pk_motion_push_light(m);
    l->frame = 20;
    l->color[0] = 0.2f;
    l->direction[1] = -1;
    l = pk_motion_push_light(m);
    l->frame = 70;
    l->color[0] = 0.8f;
    l->direction[1] = 1;
    pk_shadow_key *s = pk_motion_push_shadow(m);
    s->frame = 10;
    s->mode = 2;
    s->distance = 0.1f;
    pk_ik_key *ik = pk_motion_push_ik(m, 1);
    ik->frame = 15;
    ik->show = 1;
    ik->ik[0].name = tu_intern(m->names, "左足ＩＫ");
    ik->ik[0].enabled = 0;
    return m;
}

typedef struct worst {
    double deg, pos, morph, cam_pos, cam_deg, light, fov;
} worst;

/* out at frame g against in at frame f, every section. */
static void compare_at(const pk_motion *in, const pk_tracks *ti, const pk_motion *out,
                       const pk_tracks *to, double f, double g, worst *w)
{
    for (size_t i = 0; i < ti->nbones; i++) {
        const pk_track *a = &ti->bones[i];
        size_t len;
        const uint8_t *raw = pk_names_raw(in->names, a->name, &len);
        pk_name_id id = pk_names_find(out->names, raw, len);
        assert_int_not_equal(id, PK_NO_NAME);
        const pk_track *b = pk_tracks_bone(to, id);
        assert_non_null(b);
        float pa[3], ra[4], pb[3], rb[4];
        pk_sample_bone(in, a, f, pa, ra);
        pk_sample_bone(out, b, g, pb, rb);
        w->deg = fmax(w->deg, pk_quat_angle_deg(ra, rb));
        for (int x = 0; x < 3; x++)
            w->pos = fmax(w->pos, fabs((double)pa[x] - pb[x]));
    }
    for (size_t i = 0; i < ti->nmorphs; i++) {
        const pk_track *a = &ti->morphs[i];
        size_t len;
        const uint8_t *raw = pk_names_raw(in->names, a->name, &len);
        const pk_track *b = pk_tracks_morph(to, pk_names_find(out->names, raw, len));
        assert_non_null(b);
        w->morph =
            fmax(w->morph, fabs((double)pk_sample_morph(in, a, f) - pk_sample_morph(out, b, g)));
    }
    pk_camera_key ca, cb;
    if (pk_sample_camera(in, ti, f, &ca)) {
        assert_true(pk_sample_camera(out, to, g, &cb));
        for (int x = 0; x < 3; x++) {
            w->cam_pos = fmax(w->cam_pos, fabs((double)ca.pos[x] - cb.pos[x]));
            w->cam_deg = fmax(w->cam_deg, fabs((double)ca.rot[x] - cb.rot[x]) * 180 / PI_);
        }
        w->cam_pos = fmax(w->cam_pos, fabs((double)ca.distance - cb.distance));
        w->fov = fmax(w->fov, fabs((double)ca.fov - (double)cb.fov));
    }
    pk_light_key la, lb;
    if (pk_sample_light(in, ti, f, &la)) {
        assert_true(pk_sample_light(out, to, g, &lb));
        for (int x = 0; x < 3; x++)
            w->light = fmax(w->light, fabs((double)la.color[x] - lb.color[x]) +
                                          fabs((double)la.direction[x] - lb.direction[x]));
    }
}

/* The held record (shadow mode, IK switch) at frame f: the last at or
 * before it, or -1 when none. */
static int shadow_at(const pk_motion *m, uint32_t f)
{
    int v = -1;
    uint32_t best = 0;
    for (size_t i = 0; i < m->nshadows; i++)
        if (m->shadows[i].frame <= f && (v < 0 || m->shadows[i].frame >= best)) {
            v = m->shadows[i].mode;
            best = m->shadows[i].frame;
        }
    return v;
}

static int ik_at(const pk_motion *m, uint32_t f)
{
    int v = -1;
    uint32_t best = 0;
    for (size_t i = 0; i < m->niks; i++)
        if (m->iks[i].frame <= f && (v < 0 || m->iks[i].frame >= best)) {
            v = m->iks[i].ik[0].enabled;
            best = m->iks[i].frame;
        }
    return v;
}

static void check_trim(const pk_motion *m, uint32_t a, uint32_t b, int64_t shift)
{
    pk_log log;
    pk_log_init(&log);
    pk_time_options o;
    pk_time_options_init(&o);
    o.first = a;
    o.last = b;
    o.shift = shift;
    pk_time_stats st;
    pk_motion *out = pk_motion_time(m, &o, &st, &log);
    assert_non_null(out);
    assert_int_equal(log.errors, 0);
    pk_tracks *ti = pk_tracks_build(m, &log), *to = pk_tracks_build(out, &log);
    assert_int_equal(to->duplicates, 0);
    worst w;
    memset(&w, 0, sizeof w);
    uint32_t lo, hi;
    assert_true(pk_motion_frame_range(out, &lo, &hi));
    assert_true(lo >= (uint32_t)((int64_t)a + shift));
    if (b != UINT32_MAX)
        assert_true(hi <= (uint32_t)((int64_t)b + shift));
    uint32_t end = b == UINT32_MAX ? 220 : b;
    for (uint32_t f = a; f <= end; f++) {
        compare_at(m, ti, out, to, f, (double)((int64_t)f + shift), &w);
        assert_int_equal(shadow_at(m, f), shadow_at(out, (uint32_t)((int64_t)f + shift)));
        if (ik_at(m, f) >= 0)
            assert_int_equal(ik_at(m, f), ik_at(out, (uint32_t)((int64_t)f + shift)));
    }
    /* after B: the value at B held */
    worst after;
    memset(&after, 0, sizeof after);
    if (b != UINT32_MAX)
        for (uint32_t g = 1; g < 40; g++)
            compare_at(m, ti, out, to, b, (double)((int64_t)b + shift + g), &after);
    assert_true(w.deg <= PK_OVERLAY_FIT_DEG && after.deg <= PK_OVERLAY_FIT_DEG);
    assert_true(w.pos <= PK_OVERLAY_FIT_POS && after.pos <= PK_OVERLAY_FIT_POS);
    assert_true(w.morph <= 1e-6 && after.morph <= 1e-6);
    assert_true(w.cam_pos <= PK_OVERLAY_FIT_POS && w.cam_deg <= PK_OVERLAY_FIT_DEG);
    assert_true(w.fov <= 1.0); /* whole degrees: a cut key's rounded fov */
    assert_true(w.light <= 1e-6);
    pk_tracks_free(ti);
    pk_tracks_free(to);
    pk_motion_free(out);
    pk_log_free(&log);
}

static void test_trim_every_frame(void **state)
{
    (void)state;
    pk_motion *m = built();
    /* edges inside curved segments, on keys, before the first and after
     * the last key, inside one segment at both ends, a cut at the edge */
    static const uint32_t ranges[][2] = {{17, 93}, {30, 75},  {0, 150}, {51, 60},
                                         {40, 45}, {50, 51},  {12, 12}, {95, 300},
                                         {1, 2},   {60, 119}, {7, 110}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        check_trim(m, ranges[i][0], ranges[i][1], 0);
        check_trim(m, ranges[i][0], ranges[i][1], -(int64_t)ranges[i][0]);
        check_trim(m, ranges[i][0], ranges[i][1], 1000);
    }
    check_trim(m, 33, UINT32_MAX, -33); /* A- */
    pk_motion_free(m);
}

/* Linear tracks cut anywhere are exact to float rounding. */
static void test_trim_linear_exact(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    bone(m, "a", 0, 0, 0, 0, 0, LIN);
    bone(m, "a", 100, 10, -5, 2, 120, LIN);
    pk_log log;
    pk_log_init(&log);
    pk_time_options o;
    pk_time_options_init(&o);
    o.first = 33;
    o.last = 71;
    o.shift = -33;
    pk_motion *out = pk_motion_time(m, &o, NULL, &log);
    assert_non_null(out);
    pk_tracks *ti = pk_tracks_build(m, &log), *to = pk_tracks_build(out, &log);
    assert_int_equal(out->nbones, 2);
    for (uint32_t f = 33; f <= 71; f++) {
        float pa[3], ra[4], pb[3], rb[4];
        pk_sample_bone(m, &ti->bones[0], f, pa, ra);
        pk_sample_bone(out, &to->bones[0], f - 33, pb, rb);
        assert_true(pk_quat_angle_deg(ra, rb) < 1e-3); /* float acos near 1: ~1e-3 deg */
        for (int x = 0; x < 3; x++)
            assert_true(fabs((double)pa[x] - pb[x]) < 1e-5);
    }
    pk_tracks_free(ti);
    pk_tracks_free(to);
    pk_motion_free(out);
    pk_motion_free(m);
    pk_log_free(&log);
}

static void encode(const pk_motion *m, pk_buf *b)
{
    pk_log log;
    pk_log_init(&log);
    pk_buf_init(b);
    assert_int_equal(pk_vmd_write(m, b, &log), 0);
    pk_log_free(&log);
}

static pk_motion *timed(const pk_motion *m, int64_t shift, double scale, pk_time_stats *st)
{
    pk_log log;
    pk_log_init(&log);
    pk_time_options o;
    pk_time_options_init(&o);
    o.shift = shift;
    o.scale = scale;
    pk_motion *out = pk_motion_time(m, &o, st, &log);
    assert_non_null(out);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    return out;
}

static void test_stretch_round_trip(void **state)
{
    (void)state;
    pk_motion *m = built();
    pk_buf b0, b1, b2;
    encode(m, &b0);
    pk_time_stats st;
    pk_motion *s2 = timed(m, 0, 2.0, &st);
    assert_int_equal(st.rounded, 0);
    assert_int_equal(st.merged, 0);
    assert_int_equal(st.cuts_kept, 2); /* 頭 5-6 and the camera 50-51 */
    pk_motion *s1 = timed(s2, 0, 0.5, &st);
    assert_int_equal(st.merged, 0);
    encode(s1, &b1);
    assert_int_equal(b0.len, b1.len);
    assert_memory_equal(b0.data, b1.data, b0.len);
    /* stretched by 2: at 2f as the input at f, at 2f+1 as at f+0.5, once
     * the cuts (頭 at 5-6, the camera at 50-51) are taken out: a cut's
     * later key goes one frame after the earlier, not to 2f */
    pk_motion *nc = built();
    size_t w_ = 0;
    for (size_t i = 0; i < nc->nbones; i++)
        if (!(nc->bones[i].frame == 5 && nc->bones[i].name == tu_intern(nc->names, "頭")))
            nc->bones[w_++] = nc->bones[i];
    nc->nbones = w_;
    nc->cameras[2] = nc->cameras[3];
    nc->ncameras = 3;
    pk_motion *nc2 = timed(nc, 0, 2.0, &st);
    assert_int_equal(st.cuts_kept, 0);
    pk_log log;
    pk_log_init(&log);
    pk_tracks *ti = pk_tracks_build(nc, &log), *to = pk_tracks_build(nc2, &log);
    worst w;
    memset(&w, 0, sizeof w);
    for (uint32_t f = 0; f <= 460; f++)
        compare_at(nc, ti, nc2, to, 0.5 * f, f, &w);
    assert_true(w.deg < 1e-3 && w.pos < 1e-5 && w.morph < 1e-6 && w.cam_pos < 1e-4);
    pk_tracks_free(ti);
    pk_tracks_free(to);
    pk_motion_free(nc);
    pk_motion_free(nc2);
    /* nothing asked: the same bytes */
    pk_motion *same = timed(m, 0, 1.0, &st);
    encode(same, &b2);
    assert_int_equal(b0.len, b2.len);
    assert_memory_equal(b0.data, b2.data, b0.len);
    pk_buf_free(&b0);
    pk_buf_free(&b1);
    pk_buf_free(&b2);
    pk_motion_free(same);
    pk_motion_free(s1);
    pk_motion_free(s2);
    pk_motion_free(m);
    pk_log_free(&log);
}

static const pk_bone_key *key_at(const pk_motion *m, uint32_t f)
{
    for (size_t i = 0; i < m->nbones; i++)
        if (m->bones[i].frame == f)
            return &m->bones[i];
    return NULL;
}

/* The X translation of the key at f; NaN when there is none. */
static double x_at(const pk_motion *m, uint32_t f)
{
    const pk_bone_key *k = key_at(m, f);
    return k ? k->pos[0] : NAN;
}

static void test_compress_collisions(void **state)
{
    (void)state;
    /* every frame keyed (a bake), compressed by 2: the even frames stay */
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 20; f++)
        bone(m, "a", f, (float)f, 0, 0, (float)f * 3, LIN);
    pk_time_stats st;
    pk_motion *h = timed(m, 0, 0.5, &st);
    assert_int_equal(h->nbones, 11);
    assert_int_equal(st.merged, 10);
    for (uint32_t g = 0; g <= 10; g++) {
        assert_true(x_at(h, g) == 2.0 * g);
    }
    pk_motion_free(h);
    pk_motion_free(m);

    /* a hold, then a jump: 0 A, 11 A, 12 B, 40 B; x0.5: 11 and 12 land on
     * 6; 12 keeps it, 11 moves to 5, so A still holds until the jump */
    m = pk_motion_new();
    bone(m, "a", 0, 1, 0, 0, 0, LIN);
    bone(m, "a", 11, 1, 0, 0, 0, LIN);
    bone(m, "a", 12, 5, 0, 0, 0, LIN);
    bone(m, "a", 40, 5, 0, 0, 0, LIN);
    h = timed(m, 0, 0.5, &st);
    assert_int_equal(h->nbones, 4);
    assert_int_equal(st.merged, 0);
    assert_true(x_at(h, 5) == 1.0);
    assert_true(x_at(h, 6) == 5.0);
    assert_non_null(key_at(h, 20));
    pk_motion_free(h);
    /* x0.1: 11 and 12 land on 1 with 0's neighbour at 0: the hold key has
     * no free frame and goes */
    h = timed(m, 0, 0.1, &st);
    assert_int_equal(st.merged, 1);
    assert_true(key_at(h, 0) && key_at(h, 1) && key_at(h, 4) && h->nbones == 3);
    assert_true(x_at(h, 1) == 5.0);
    pk_motion_free(h);
    pk_motion_free(m);

    /* a cut stretched stays one frame apart; rounding counted */
    m = pk_motion_new();
    bone(m, "a", 0, 0, 0, 0, 0, LIN);
    bone(m, "a", 9, 1, 0, 0, 0, LIN);
    bone(m, "a", 10, 9, 0, 0, 0, LIN);
    bone(m, "a", 21, 9, 0, 0, 0, LIN);
    h = timed(m, 0, 1.5, &st);
    assert_non_null(key_at(h, 14)); /* 13.5 -> 14 */
    assert_non_null(key_at(h, 15)); /* 15: one after */
    assert_non_null(key_at(h, 32)); /* 31.5 -> 32 */
    assert_int_equal(st.rounded, 2);
    assert_true(fabs(st.max_round - 0.5) < 1e-9);
    pk_motion_free(h);
    pk_motion_free(m);
}

static void test_bad_options(void **state)
{
    (void)state;
    pk_motion *m = built();
    pk_log log;
    pk_log_init(&log);
    pk_time_options o;
    pk_time_options_init(&o);
    o.first = 50;
    o.last = 60;
    o.shift = -100; /* cuts every frame before 100: nothing left */
    assert_null(pk_motion_time(m, &o, NULL, &log));
    tu_assert_log_has(&log, "nothing is left");
    pk_time_options_init(&o);
    o.scale = 0;
    assert_null(pk_motion_time(m, &o, NULL, &log));
    pk_time_options_init(&o);
    o.shift = 4294967295;
    assert_null(pk_motion_time(m, &o, NULL, &log));
    tu_assert_log_has(&log, "past the last frame number");
    pk_log_free(&log);
    pk_motion_free(m);
}

/* The fade's weight at s: PK_FADE_CURVE = (53, 0, 74, 127) solved here by
 * bisection. */
static double ref_ease(double s)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 80; i++) {
        double t = 0.5 * (lo + hi), u = 1 - t;
        double x = 3 * u * u * t * (53 / 127.0) + 3 * u * t * t * (74 / 127.0) + t * t * t;
        if (x < s)
            lo = t;
        else
            hi = t;
    }
    double t = 0.5 * (lo + hi), u = 1 - t;
    return 3 * u * t * t + t * t * t;
}

/* Inside the fade: every bone and morph within reduce's tolerances of the
 * blend of a at f and b at f - d (slerp and lerp by the eased weight;
 * rest where a motion lacks the track). */
static void check_fade_inside(const pk_motion *a, const pk_motion *b, const pk_motion *out,
                              uint32_t start, uint32_t fade, int64_t d)
{
    pk_log log;
    pk_log_init(&log);
    pk_tracks *ta = pk_tracks_build(a, &log), *tb = pk_tracks_build(b, &log),
              *to = pk_tracks_build(out, &log);
    for (int morph = 0; morph < 2; morph++) {
        size_t n = morph ? to->nmorphs : to->nbones;
        for (size_t i = 0; i < n; i++) {
            const pk_track *t = morph ? &to->morphs[i] : &to->bones[i];
            size_t len;
            const uint8_t *raw = pk_names_raw(out->names, t->name, &len);
            pk_name_id ia = pk_names_find(a->names, raw, len),
                       ib = pk_names_find(b->names, raw, len);
            const pk_track *xa = ia == PK_NO_NAME ? NULL
                                 : morph          ? pk_tracks_morph(ta, ia)
                                                  : pk_tracks_bone(ta, ia);
            const pk_track *xb = ib == PK_NO_NAME ? NULL
                                 : morph          ? pk_tracks_morph(tb, ib)
                                                  : pk_tracks_bone(tb, ib);
            for (uint32_t f = start; f <= start + fade; f++) {
                double fb = (double)((int64_t)f - d) < 0 ? 0 : (double)((int64_t)f - d);
                double w = ref_ease((double)(f - start) / fade);
                if (morph) {
                    double wa = xa ? pk_sample_morph(a, xa, f) : 0,
                           wb = xb ? pk_sample_morph(b, xb, fb) : 0;
                    double want = wa + (wb - wa) * w;
                    assert_true(fabs(pk_sample_morph(out, t, f) - want) <= PK_REDUCE_MORPH + 1e-6);
                    continue;
                }
                float pa[3], ra[4], pb[3], rb[4], po[3], ro[4], rw[4];
                pk_sample_bone(a, xa, f, pa, ra);
                pk_sample_bone(b, xb, fb, pb, rb);
                pk_sample_bone(out, t, f, po, ro);
                pk_quat_slerp(ra, rb, (float)w, rw);
                assert_true(pk_quat_angle_deg(rw, ro) <= PK_REDUCE_DEG + 2e-3);
                double dist = 0;
                for (int x = 0; x < 3; x++) {
                    double want = pa[x] + (pb[x] - pa[x]) * w;
                    dist += (want - po[x]) * (want - po[x]);
                }
                assert_true(sqrt(dist) <= PK_REDUCE_POS + 1e-5);
            }
        }
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_tracks_free(to);
    pk_log_free(&log);
}

static void test_crossfade_ends(void **state)
{
    (void)state;
    pk_motion *a = built();
    pk_motion *b = pk_motion_new();
    bone(b, "センター", 0, 5, 5, 5, 170, EASE);
    bone(b, "センター", 25, -3, 2, 0, 10, SNAP);
    bone(b, "センター", 60, 0, 1, 0, -60, EASE);
    bone(b, "首", 0, 0, 0, 0, 20, LIN); /* only in b */
    bone(b, "首", 50, 0, 0, 0, -20, EASE);
    tu_morph_key(b, "あ", 10, 0.5f);
    tu_morph_key(b, "い", 0, 1.0f);          /* only in b */
    bone(b, "右足ＩＫ", 3, 1, 0, 0, 0, LIN); /* as a holds it: still through every fade */
    static const uint32_t cases[][3] = {{60, 20, 0}, {33, 1, 7}, {100, 30, 0}, {0, 5, 3}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t start = cases[c][0], fade = cases[c][1], skip = cases[c][2];
        pk_log log;
        pk_log_init(&log);
        pk_crossfade_stats st;
        pk_motion *out = pk_motion_crossfade(a, b, start, fade, -(int64_t)skip, &st, &log);
        assert_non_null(out);
        assert_int_equal(st.bones, 5); /* センター 左腕 頭 右足ＩＫ 首 */
        assert_int_equal(st.morphs, 3);
        pk_tracks *ta = pk_tracks_build(a, &log), *tb = pk_tracks_build(b, &log),
                  *to = pk_tracks_build(out, &log);
        assert_int_equal(to->duplicates, 0);
        worst wa, wb;
        memset(&wa, 0, sizeof wa);
        memset(&wb, 0, sizeof wb);
        for (uint32_t f = 0; f <= start; f++)
            compare_at(a, ta, out, to, f, f, &wa);
        for (uint32_t f = start + fade; f <= start + fade + 150; f++)
            compare_at(b, tb, out, to, f + skip - start, f, &wb);
        assert_true(wa.deg <= PK_OVERLAY_FIT_DEG && wa.pos <= PK_OVERLAY_FIT_POS);
        assert_true(wb.deg <= PK_OVERLAY_FIT_DEG && wb.pos <= PK_OVERLAY_FIT_POS);
        assert_true(wa.morph <= 1e-6 && wb.morph <= 1e-6);
        /* bones one motion lacks are at rest on its side: 首 before the
         * fade, 右足ＩＫ after it */
        pk_name_id neck = pk_names_find(out->names, "\x8e\xf1", 2);
        assert_int_not_equal(neck, PK_NO_NAME);
        float p[3], r[4];
        pk_sample_bone(out, pk_tracks_bone(to, neck), start, p, r);
        assert_true(fabs(r[3]) > 1 - 1e-6);
        /* a track still through the fade gets no key there, nor at its start */
        pk_name_id ik = pk_names_find(out->names, "\x89\x45\x91\xab\x82\x68\x82\x6a", 8);
        assert_int_not_equal(ik, PK_NO_NAME);
        for (size_t k = 0; k < out->nbones; k++)
            if (out->bones[k].name == ik)
                assert_false(out->bones[k].frame >= start && out->bones[k].frame < start + fade &&
                             start > 0); /* a's own key at 0 aside */
        /* inside the fade: between the two, within reduce's tolerance of
         * the blend at the middle frame's ends */
        assert_true(st.worst_deg <= PK_REDUCE_DEG && st.worst_pos <= PK_REDUCE_POS);
        check_fade_inside(a, b, out, start, fade, (int64_t)start - skip);
        pk_tracks_free(ta);
        pk_tracks_free(tb);
        pk_tracks_free(to);
        pk_motion_free(out);
        pk_log_free(&log);
    }
    pk_motion_free(a);
    pk_motion_free(b);
}

static void test_curves(void **state)
{
    (void)state;
    pk_motion *m = built();
    m->bones[1].interp[2] = 0x63; /* physics off on センター@30 */
    m->bones[1].interp[3] = 0x0F;
    pk_motion *orig = pk_motion_clone(m);
    pk_log log;
    pk_log_init(&log);
    pk_selection *sel = pk_selection_parse(NULL, "センター,頭", &log);
    assert_non_null(sel);
    uint8_t cp[4][4];
    for (int a = 0; a < 4; a++)
        memcpy(cp[a], (const uint8_t[4])PK_FADE_CURVE, 4);
    pk_curve_stats st;
    assert_int_equal(
        pk_motion_set_curves(m, sel, 6, 90, (const uint8_t(*)[4])cp, 1u << 3, &st, &log), 0);
    assert_int_equal(st.keys, 4); /* センター 30, 75; 頭 6, 90 */
    assert_int_equal(st.tracks, 2);
    assert_int_equal(st.changed, 4);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_bone_key *k = &m->bones[i], *o = &orig->bones[i];
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, k->name, &len);
        bool chosen = pk_selection_has(sel, raw, len) && k->frame >= 6 && k->frame <= 90;
        assert_memory_equal(k->pos, o->pos, sizeof k->pos);
        assert_memory_equal(k->rot, o->rot, sizeof k->rot);
        uint8_t c[4], was[4];
        for (int a = 0; a < 4; a++) {
            pk_interp_curve(k->interp, a, c);
            pk_interp_curve(o->interp, a, was);
            if (chosen && a == 3)
                assert_memory_equal(c, cp[3], 4);
            else
                assert_memory_equal(c, was, 4);
        }
        if (!chosen)
            assert_memory_equal(k->interp, o->interp, 64);
        assert_int_equal(k->interp[2], o->interp[2]); /* the physics switch kept */
        assert_int_equal(k->interp[3], o->interp[3]);
    }
    /* again: nothing changes */
    assert_int_equal(
        pk_motion_set_curves(m, sel, 6, 90, (const uint8_t(*)[4])cp, 1u << 3, &st, &log), 0);
    assert_int_equal(st.changed, 0);
    pk_selection_free(sel);
    pk_motion_free(orig);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Camera keys: the chosen channels of the keys in range get the curve,
 * stored x1, x2, y1, y2 (the camera's order); every other byte stays;
 * sampling goes through the new curve: the ease's start (0.2 of the way
 * in time, much less in value) on the centre's X, Y still linear. */
static void test_camera_curves(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 20; f += 10) {
        pk_camera_key *k = pk_motion_push_camera(m);
        assert_non_null(k);
        k->frame = f;
        k->distance = -45.0f + (float)f;
        k->pos[0] = k->pos[1] = (float)f;
        k->fov = 30;
        pk_camera_interp_linear(k->interp);
    }
    pk_motion *orig = pk_motion_clone(m);
    pk_tracks *t = pk_tracks_build(m, NULL);
    pk_camera_key before;
    assert_true(pk_sample_camera(m, t, 2.0, &before));
    pk_tracks_free(t);
    assert_true(fabs(before.pos[0] - 2.0f) < 1e-4 && fabs(before.pos[1] - 2.0f) < 1e-4);
    uint8_t cp[6][4];
    for (int c = 0; c < 6; c++)
        memcpy(cp[c], (const uint8_t[4]){53, 0, 127, 127}, 4); /* ease-in */
    pk_curve_stats st;
    memset(&st, 0, sizeof st);
    pk_motion_set_camera_curves(m, 5, 10, (const uint8_t(*)[4])cp, 1u << 0 | 1u << 4, &st);
    assert_int_equal(st.camera_keys, 1);
    assert_int_equal(st.camera_changed, 1);
    const uint8_t want[24] = {53, 127, 0,  127, 20, 107, 20, 107, 20, 107, 20, 107,
                              20, 107, 20, 107, 53, 127, 0,  127, 20, 107, 20, 107};
    assert_memory_equal(m->cameras[1].interp, want, 24);
    assert_memory_equal(m->cameras[0].interp, orig->cameras[0].interp, 24);
    assert_memory_equal(m->cameras[2].interp, orig->cameras[2].interp, 24);
    for (int i = 0; i < 3; i++) {
        pk_camera_key a = m->cameras[i], b = orig->cameras[i];
        memset(a.interp, 0, 24);
        memset(b.interp, 0, 24);
        assert_memory_equal(&a, &b, sizeof a);
    }
    t = pk_tracks_build(m, NULL);
    pk_camera_key after;
    assert_true(pk_sample_camera(m, t, 2.0, &after));
    pk_tracks_free(t);
    assert_true(after.pos[0] > 0.0f && after.pos[0] < 1.0f); /* the ease-in's slow start */
    assert_true(fabs(after.pos[1] - 2.0f) < 1e-4);           /* Y: still linear */
    assert_true(after.distance < -44.0f);                    /* distance: eased too */
    /* again: nothing changes */
    memset(&st, 0, sizeof st);
    pk_motion_set_camera_curves(m, 5, 10, (const uint8_t(*)[4])cp, 1u << 0 | 1u << 4, &st);
    assert_int_equal(st.camera_changed, 0);
    pk_motion_free(orig);
    pk_motion_free(m);
}

/* Every corpus motion trimmed to the middle half and shifted to 0: every
 * frame of the range within the trim's tolerances; the whole range and
 * stretch 2 then 0.5: the same bytes as the input deduplicated. */
static void test_corpus(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        pk_log log;
        pk_log_init(&log);
        pk_doc doc;
        if (pk_doc_load(paths[i], &doc, &log) != 0 || !doc.motion) {
            pk_log_free(&log);
            continue;
        }
        pk_motion *m = doc.motion;
        size_t dropped;
        assert_int_equal(pk_motion_drop_duplicates(m, &dropped, &log), 0);
        uint32_t lo, hi;
        if (!pk_motion_frame_range(m, &lo, &hi) || hi - lo < 8 || hi > 20000) {
            pk_doc_free(&doc);
            pk_log_free(&log);
            continue;
        }
        uint32_t a = lo + (hi - lo) / 4, b = hi - (hi - lo) / 4;
        check_trim(m, a, b, -(int64_t)a);
        pk_buf b0, b1;
        encode(m, &b0);
        pk_time_stats st;
        pk_motion *s2 = timed(m, 0, 2.0, &st), *s1 = timed(s2, 0, 0.5, &st);
        encode(s1, &b1);
        assert_int_equal(b0.len, b1.len);
        assert_memory_equal(b0.data, b1.data, b0.len);
        pk_buf_free(&b0);
        pk_buf_free(&b1);
        pk_motion_free(s1);
        pk_motion_free(s2);
        pk_doc_free(&doc);
        pk_log_free(&log);
        checked++;
    }
    tu_free_list(paths, n);
    assert_true(checked >= 5);
    printf("time: %zu corpus motions trimmed and stretched\n", checked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trim_every_frame),
        cmocka_unit_test(test_trim_linear_exact),
        cmocka_unit_test(test_stretch_round_trip),
        cmocka_unit_test(test_compress_collisions),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_crossfade_ends),
        cmocka_unit_test(test_curves),
        cmocka_unit_test(test_camera_curves),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
