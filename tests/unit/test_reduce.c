/* test_reduce.c — keyframe reduction and baking (engine/ops/keys/reduce.c):
 * tolerance at every integer frame checked by sampling (never by trusting
 * the fitter) on every corpus VMD baked and as it is, jumps kept,
 * constant tracks one key, morph tracks, untouched records, bake. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The distance between two translations: --max-pos bounds it (diff
 * measures it), not each axis. */
static double dist3(const float a[3], const float b[3])
{
    double d = 0.0;
    for (int k = 0; k < 3; k++)
        d += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
    return sqrt(d);
}

/* Worst error of b against a at every integer frame of a's tracks. */
static void worst(const pk_motion *a, const pk_motion *b, double *deg, double *pos, double *w)
{
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    assert_non_null(ta);
    assert_non_null(tb);
    *deg = *pos = *w = 0.0;
    for (size_t i = 0; i < ta->nbones; i++) {
        const pk_track *x = &ta->bones[i], *y = pk_tracks_bone(tb, x->name);
        assert_non_null(y);
        uint32_t f0 = a->bones[x->keys[0]].frame, f1 = a->bones[x->keys[x->count - 1]].frame;
        pk_cursor ca, cb;
        pk_cursor_init(&ca, a, x);
        pk_cursor_init(&cb, b, y);
        for (uint32_t f = f0; f <= f1; f++) {
            float p0[3], r0[4], p1[3], r1[4];
            pk_cursor_bone(&ca, f, p0, r0);
            pk_cursor_bone(&cb, f, p1, r1);
            *deg = fmax(*deg, pk_quat_angle_deg(r0, r1));
            *pos = fmax(*pos, dist3(p0, p1));
        }
    }
    for (size_t i = 0; i < ta->nmorphs; i++) {
        const pk_track *x = &ta->morphs[i], *y = pk_tracks_morph(tb, x->name);
        assert_non_null(y);
        uint32_t f0 = a->morphs[x->keys[0]].frame, f1 = a->morphs[x->keys[x->count - 1]].frame;
        for (uint32_t f = f0; f <= f1; f++)
            *w = fmax(*w, fabs((double)pk_sample_morph(a, x, f) - pk_sample_morph(b, y, f)));
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
}

static pk_reduce_options tight(void)
{
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    o.max_deg = 0.05;
    o.max_pos = 0.001;
    o.max_morph = 0.001;
    return o;
}

static void every_corpus_motion_baked(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t done = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *data = tu_read_file(paths[i], &len);
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = pk_vmd_read(data, len, &log);
        free(data);
        if (!m) {
            pk_log_free(&log);
            continue;
        }
        pk_reduce_options o = tight();
        pk_reduce_stats st;
        pk_motion *baked = pk_motion_bake(m, &o, NULL, &log);
        assert_non_null(baked);
        pk_motion *red = pk_motion_reduce(baked, &o, &st, &log);
        assert_non_null(red);
        double d, p, w;
        worst(baked, red, &d, &p, &w);
        if (d > o.max_deg || p > o.max_pos || w > o.max_morph)
            fail_msg("%s baked: worst %g deg %g units %g weight", paths[i], d, p, w);
        assert_true(red->nbones <= baked->nbones);
        /* The recovery goal: at most 1.25 x the original's keys. */
        if ((double)(red->nbones + red->nmorphs) > 1.25 * (double)(m->nbones + m->nmorphs))
            fail_msg("%s: %zu keys baked and reduced, the original has %zu", paths[i],
                     red->nbones + red->nmorphs, m->nbones + m->nmorphs);
        /* The baked motion is the original at every frame. */
        worst(m, baked, &d, &p, &w);
        assert_true(d < 1e-3 && p < 1e-5 && w < 1e-6);
        /* As it is: never more keys, within tolerance. */
        pk_motion *again = pk_motion_reduce(m, &o, NULL, &log);
        assert_non_null(again);
        assert_true(again->nbones <= m->nbones);
        assert_true(again->nmorphs <= m->nmorphs);
        worst(m, again, &d, &p, &w);
        if (d > o.max_deg || p > o.max_pos || w > o.max_morph)
            fail_msg("%s: worst %g deg %g units %g weight", paths[i], d, p, w);
        /* Sections reduce does not touch stay byte-identical (a motion
         * with camera keys alone has its camera done: camera_corpus). */
        if (m->nbones + m->nmorphs) {
            assert_int_equal(red->ncameras, m->ncameras);
            if (m->ncameras)
                assert_memory_equal(red->cameras, m->cameras, m->ncameras * sizeof *m->cameras);
        }
        print_message("  %s: %zu keys, baked %zu, reduced %zu\n", strrchr(paths[i], '/') + 1,
                      m->nbones + m->nmorphs, baked->nbones + baked->nmorphs,
                      red->nbones + red->nmorphs);
        done++;
        pk_motion_free(again);
        pk_motion_free(red);
        pk_motion_free(baked);
        pk_motion_free(m);
        pk_log_free(&log);
    }
    tu_free_list(paths, n);
    assert_true(done >= 10);
}

static void set_rot_x(float rot[4], double deg)
{
    double h = deg * 3.14159265358979323846 / 360.0;
    rot[0] = (float)sin(h);
    rot[1] = rot[2] = 0.0f;
    rot[3] = (float)cos(h);
}

static pk_bone_key *bone(pk_motion *m, const char *name, uint32_t f, double deg, float y)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = pk_names_intern(m->names, name, strlen(name));
    k->frame = f;
    set_rot_x(k->rot, deg);
    k->pos[1] = y;
    pk_interp_linear(k->interp);
    return k;
}

static size_t keys_of(const pk_motion *m, const char *name, uint32_t *frames, size_t max)
{
    pk_name_id id = pk_names_find(m->names, name, strlen(name));
    size_t n = 0;
    for (size_t i = 0; i < m->nbones; i++)
        if (m->bones[i].name == id) {
            if (n < max)
                frames[n] = m->bones[i].frame;
            n++;
        }
    return n;
}

/* A ramp, a jump between frames 20 and 21, a ramp: the jump's two keys
 * stay, and every frame is within tolerance. */
static void jump_kept(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 40; f++)
        bone(m, "arm", f, f <= 20 ? f * 0.5 : 40.0 + f * 0.5, 0.0f);
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    uint32_t fr[64];
    size_t n = keys_of(r, "arm", fr, 64);
    bool k20 = false, k21 = false;
    for (size_t i = 0; i < n && i < 64; i++) {
        k20 |= fr[i] == 20;
        k21 |= fr[i] == 21;
    }
    assert_true(k20 && k21);
    assert_int_equal(n, 4); /* 0, 20, 21, 40 */
    assert_int_equal(st.discontinuities, 1);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(d <= o.max_deg);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Keys at 0, 10 and 20 turning about X by 0, 10 and 20 degrees, linear,
 * the middle one tilted about Y by `tilt` degrees: its frames leave the
 * great circle of the ends by up to the tilt, so at 0.1 degrees one key
 * over 0..20 fits when the tilt is 0.09 and not when it is 0.11 (the
 * reducer refuses such probes before the fitter: the same answer). */
static size_t keys_with_tilt(double tilt)
{
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 20; f += 10) {
        pk_bone_key *k = bone(m, "arm", f, (double)f, 0.0f);
        if (f == 10) {
            double h = tilt * 3.14159265358979323846 / 360.0;
            float y[4] = {0.0f, (float)sin(h), 0.0f, (float)cos(h)}, q[4];
            pk_quat_mul(k->rot, y, q);
            memcpy(k->rot, q, sizeof q);
        }
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    pk_motion *r = pk_motion_reduce(m, &o, NULL, &log);
    assert_non_null(r);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(d <= o.max_deg);
    uint32_t fr[8];
    size_t n = keys_of(r, "arm", fr, 8);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
    return n;
}

static void off_the_arc_by_the_tolerance(void **state)
{
    (void)state;
    assert_int_equal(keys_with_tilt(0.09), 2);
    assert_int_equal(keys_with_tilt(0.11), 3);
}

/* A track that never moves becomes its first key (that very record); a
 * constant morph track too; other tracks keep their records in order. */
static void constant_one_key(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 30; f += 3) {
        bone(m, "still", f, 10.0, 1.5f);
        bone(m, "other", f, f * 1.0, 0.0f);
        pk_morph_key *k = pk_motion_push_morph(m);
        k->name = pk_names_intern(m->names, "smile", 5);
        k->frame = f;
        k->weight = 0.25f;
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    pk_log_init(&log);
    pk_selection *sel = pk_selection_parse(NULL, "still,smile", &log);
    assert_non_null(sel);
    o.bones = sel;
    pk_motion *r = pk_motion_reduce(m, &o, NULL, &log);
    assert_non_null(r);
    uint32_t fr[64];
    assert_int_equal(keys_of(r, "still", fr, 64), 1);
    assert_int_equal(fr[0], 0);
    assert_int_equal(r->nmorphs, 1);
    assert_int_equal(r->morphs[0].frame, 0);
    /* "other" is not selected: its 11 records, byte-identical, in order */
    pk_name_id other = pk_names_find(m->names, "other", 5);
    size_t j = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        if (m->bones[i].name != other)
            continue;
        while (j < r->nbones && r->bones[j].name != other)
            j++;
        assert_true(j < r->nbones);
        assert_memory_equal(&r->bones[j], &m->bones[i], sizeof m->bones[i]);
        j++;
    }
    assert_int_equal(keys_of(r, "other", fr, 64), 11);
    /* the kept "still" key is the input's frame-0 record */
    assert_memory_equal(&r->bones[0], &m->bones[0], sizeof m->bones[0]);
    pk_selection_free(sel);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A track that moves within tolerance becomes one key, and its error
 * counts in the worst errors (not 0): a nod of 0.08 deg
 * and a sway of 0.004 units under the default tolerances (0.1 deg, 0.005)
 * report what the diff of input and output finds. */
static void collapsed_track_error_is_reported(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 40; f += 10) {
        bone(m, "head", f, (f / 10) % 2 ? 0.08 : 0.0, 0.0f);
        bone(m, "center", f, 0.0, (f / 10) % 2 ? 0.004f : 0.0f);
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    uint32_t fr[8];
    assert_int_equal(keys_of(r, "head", fr, 8), 1);
    assert_int_equal(keys_of(r, "center", fr, 8), 1);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(d > 0.07 && p > 0.0035); /* the collapse did cost that much */
    assert_true(fabs(st.worst_deg - d) <= 1e-4);
    assert_true(fabs(st.worst_pos - p) <= 1e-6);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Morphs: a triangle keyed at every frame is three linear keys. */
static void morph_triangle(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_name_id id = pk_names_intern(m->names, "blink", 5);
    for (uint32_t f = 0; f <= 60; f++) {
        pk_morph_key *k = pk_motion_push_morph(m);
        k->name = id;
        k->frame = f;
        k->weight = f <= 30 ? (float)f / 30.0f : (float)(60 - f) / 30.0f;
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    assert_int_equal(r->nmorphs, 3);
    assert_int_equal(st.keys_before[PK_SEC_MORPH], 61);
    assert_int_equal(st.keys_after[PK_SEC_MORPH], 3);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(w <= o.max_morph);
    /* --no-morphs leaves them alone */
    o.morphs = false;
    pk_motion *r2 = pk_motion_reduce(m, &o, NULL, &log);
    assert_int_equal(r2->nmorphs, 61);
    assert_memory_equal(r2->morphs, m->morphs, 61 * sizeof *m->morphs);
    pk_motion_free(r2);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A curved segment baked is one key again, with a curve; baked twice it
 * is the same (and bake says no track was rewritten). */
static void curve_recovered(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    bone(m, "arm", 0, 0.0, 0.0f);
    pk_bone_key *k = bone(m, "arm", 40, 60.0, 2.0f);
    uint8_t cp[4][4] = {{64, 0, 64, 127}, {30, 10, 90, 120}, {64, 0, 64, 127}, {40, 0, 90, 127}};
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    pk_motion *b = pk_motion_bake(m, &o, &st, &log);
    assert_int_equal(b->nbones, 41);
    assert_int_equal(st.bone_tracks, 1);
    /* baked again: every record stays, so no track counts as rewritten */
    pk_motion *bb = pk_motion_bake(b, &o, &st, &log);
    assert_int_equal(bb->nbones, b->nbones);
    assert_memory_equal(bb->bones, b->bones, b->nbones * sizeof *b->bones);
    assert_int_equal(st.bone_tracks, 0);
    assert_int_equal(st.morph_tracks, 0);
    pk_motion_free(bb);
    for (size_t i = 1; i < b->nbones; i++) { /* linear curves */
        uint8_t c[4];
        pk_interp_curve(b->bones[i].interp, 3, c);
        assert_true(c[0] == c[1] && c[2] == c[3]);
    }
    pk_motion *r = pk_motion_reduce(b, &o, NULL, &log);
    assert_int_equal(r->nbones, 2);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(d <= o.max_deg && p <= o.max_pos);
    /* bake --step 8: keys at 0, 8, ..., 40 */
    o.step = 8;
    pk_motion *b8 = pk_motion_bake(m, &o, NULL, &log);
    assert_int_equal(b8->nbones, 6);
    pk_motion_free(b8);
    pk_motion_free(r);
    pk_motion_free(b);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* --frames: keys outside the range keep their records; frames outside
 * the range sample as before. */
static void frames_range(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 60; f++)
        bone(m, "arm", f, 30.0 * sin(f * 0.1), 0.0f);
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    o.all_frames = false;
    o.first = 20;
    o.last = 40;
    pk_motion *r = pk_motion_reduce(m, &o, NULL, &log);
    assert_non_null(r);
    for (size_t i = 0; i < m->nbones; i++) {
        uint32_t f = m->bones[i].frame;
        if (f > 20 && f < 40)
            continue;
        bool found = false;
        for (size_t j = 0; j < r->nbones && !found; j++)
            found = memcmp(&r->bones[j], &m->bones[i], sizeof m->bones[i]) == 0;
        if (f != 40) /* the range's last key gets a new curve */
            assert_true(found);
    }
    assert_true(r->nbones < m->nbones);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(d <= o.max_deg);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A curve on the edge of the grid (x1 = 0, x2 = 127) followed by a hold
 * (babylon's physics-toggle file): the pieces 0..14 to 0..18 of the baked
 * segment fit no grid curve the fast search finds, the whole 0..20 does.
 * Reduced it is its three keys again. */
static void edge_curve_recovered(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    bone(m, "D4", 0, 0.0, 0.0f);
    pk_bone_key *k = bone(m, "D4", 20, 72.0, 0.0f);
    uint8_t cp[4][4] = {{0, 127, 127, 0}, {0, 93, 33, 127}, {0, 0, 127, 52}, {0, 17, 127, 117}};
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
    bone(m, "D4", 21, 72.0, 0.0f);
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_motion *b = pk_motion_bake(m, &o, NULL, &log);
    assert_int_equal(b->nbones, 22);
    pk_motion *r = pk_motion_reduce(b, &o, NULL, &log);
    assert_non_null(r);
    assert_int_equal(r->nbones, 3);
    double d, p, w;
    worst(b, r, &d, &p, &w);
    assert_true(d <= o.max_deg && p <= o.max_pos);
    pk_motion_free(r);
    pk_motion_free(b);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* --max-pos bounds the distance at every frame, as diff measures it: a
 * bone keyed at every frame along the diagonal, X, Y and Z by one ease no
 * grid curve holds.  Fitting each axis within 0.001 on its own left the
 * three errors together up to sqrt(3) times that; the reported worst is
 * the distance too. */
static void pos_tolerance_is_distance(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    for (uint32_t f = 0; f <= 240; f++) {
        double s = f / 240.0, ease = s * s * (3.0 - 2.0 * s) + 0.02 * sin(9.0 * s);
        pk_bone_key *k = bone(m, "center", f, 0.0, 0.0f);
        for (int a = 0; a < 3; a++)
            k->pos[a] = (float)(10.0 * ease);
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    assert_true(r->nbones < m->nbones / 4);
    double d, p, w, axis = 0.0;
    worst(m, r, &d, &p, &w);
    pk_tracks *ta = pk_tracks_build(m, NULL), *tb = pk_tracks_build(r, NULL);
    assert_non_null(ta);
    assert_non_null(tb);
    for (uint32_t f = 0; f <= 240; f++) {
        float p0[3], r0[4], p1[3], r1[4];
        pk_sample_bone(m, &ta->bones[0], f, p0, r0);
        pk_sample_bone(r, &tb->bones[0], f, p1, r1);
        for (int a = 0; a < 3; a++)
            axis = fmax(axis, fabs((double)p0[a] - p1[a]));
    }
    print_message("  %zu -> %zu keys, worst distance %g, worst axis %g, reported %g\n", m->nbones,
                  r->nbones, p, axis, st.worst_pos);
    if (p > o.max_pos)
        fail_msg("worst distance %g units > %g (worst axis %g)", p, o.max_pos, axis);
    assert_true(fabs(st.worst_pos - p) <= 1e-9);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

static double noise(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return ((double)(*s >> 8) / (double)(1u << 24)) * 2.0 - 1.0;
}

/* The dense-capture goal: a smooth motion plus 0.2 degrees of
 * noise, a key per frame, reduced with 1 degree / 0.05 units keeps at most
 * 10% of the keys, every frame within tolerance (sampled). */
static void dense_capture(void **state)
{
    (void)state;
    enum { BONES = 8, FRAMES = 1500 };
    pk_motion *m = pk_motion_new();
    uint32_t seed = 11;
    const double rad = 3.14159265358979323846 / 180.0;
    for (int bn = 0; bn < BONES; bn++) {
        char name[16];
        snprintf(name, sizeof name, "bone%02d", bn);
        pk_name_id id = pk_names_intern(m->names, name, strlen(name));
        for (int f = 0; f < FRAMES; f++) {
            pk_bone_key *k = pk_motion_push_bone(m);
            k->name = id;
            k->frame = (uint32_t)f;
            pk_interp_linear(k->interp);
            double ax =
                20.0 * sin(f * 0.031 + bn) + 6.0 * sin(f * 0.11 + 2 * bn) + 0.2 * noise(&seed);
            double ay = 15.0 * sin(f * 0.017 + 3 * bn) + 0.2 * noise(&seed);
            double az = 10.0 * sin(f * 0.023 + 5 * bn) + 0.2 * noise(&seed);
            double cx = cos(ax * rad / 2), sx = sin(ax * rad / 2), cy = cos(ay * rad / 2),
                   sy = sin(ay * rad / 2), cz = cos(az * rad / 2), sz = sin(az * rad / 2);
            k->rot[0] = (float)(sx * cy * cz - cx * sy * sz);
            k->rot[1] = (float)(cx * sy * cz + sx * cy * sz);
            k->rot[2] = (float)(cx * cy * sz - sx * sy * cz);
            k->rot[3] = (float)(cx * cy * cz + sx * sy * sz);
            if (bn == 0)
                for (int a = 0; a < 3; a++)
                    k->pos[a] = (float)(2.0 * sin(f * 0.02 + a) + 0.002 * noise(&seed));
        }
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    o.max_deg = 1.0;
    o.max_pos = 0.05;
    pk_motion *r = pk_motion_reduce(m, &o, NULL, &log);
    assert_non_null(r);
    double d, p, w;
    worst(m, r, &d, &p, &w);
    assert_true(d <= o.max_deg && p <= o.max_pos);
    print_message("  dense capture: %zu -> %zu keys (%.1f%%)\n", m->nbones, r->nbones,
                  100.0 * (double)r->nbones / (double)m->nbones);
    assert_true((double)r->nbones <= 0.10 * (double)m->nbones);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* The corpus's WAVEFILE dance three times over, 2,820 frames apart (8,450
 * frames, 140 bones, 46,317 keys: a real 4 MB dance); NULL without the
 * corpus. */
static pk_motion *long_dance(void)
{
    const char *path = tu_corpus_path("vmd_wavefile_v2.vmd");
    if (!path)
        return NULL;
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(data, len, &log);
    free(data);
    assert_non_null(m);
    size_t nb = m->nbones, nm = m->nmorphs;
    for (uint32_t copy = 1; copy < 3; copy++) {
        for (size_t i = 0; i < nb; i++) {
            pk_bone_key k = m->bones[i];
            k.frame += 2820 * copy;
            *pk_motion_push_bone(m) = k;
        }
        for (size_t i = 0; i < nm; i++) {
            pk_morph_key k = m->morphs[i];
            k.frame += 2820 * copy;
            *pk_motion_push_morph(m) = k;
        }
    }
    pk_log_free(&log);
    return m;
}

/* What the reducer gave before its search was cut down to the input's key
 * frames and its probes to the fitter's QUICK effort (main at 786dc55):
 * the long dance as it is at the default tolerances and at tight(), and
 * baked at the default ones, bone and morph keys together.  The goal: within 2 % of these,
 * every frame within tolerance. */
static const struct {
    bool baked, tight;
    size_t keys;
} long_dance_before[] = {
    {false, false, 40331},
    {false, true, 40598},
    {true, false, 40366},
};

static void long_dance_keys_as_before(void **state)
{
    (void)state;
    pk_motion *m = long_dance();
    if (!m)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o;
    pk_reduce_options_init(&o);
    pk_motion *baked = pk_motion_bake(m, &o, NULL, &log);
    assert_non_null(baked);
    for (size_t c = 0; c < sizeof long_dance_before / sizeof *long_dance_before; c++) {
        const pk_motion *in = long_dance_before[c].baked ? baked : m;
        pk_reduce_options_init(&o);
        if (long_dance_before[c].tight)
            o = tight();
        pk_motion *r = pk_motion_reduce(in, &o, NULL, &log);
        assert_non_null(r);
        double d, p, w;
        worst(in, r, &d, &p, &w);
        size_t keys = r->nbones + r->nmorphs, was = long_dance_before[c].keys;
        print_message("  long dance%s%s: %zu -> %zu keys (before: %zu), worst %.4g deg %.4g "
                      "units %.4g weight\n",
                      long_dance_before[c].baked ? " baked" : "",
                      long_dance_before[c].tight ? " tight" : "", in->nbones + in->nmorphs, keys,
                      was, d, p, w);
        if (d > o.max_deg || p > o.max_pos || w > o.max_morph)
            fail_msg("worst %g deg %g units %g weight", d, p, w);
        if ((double)keys > 1.02 * (double)was)
            fail_msg("%zu keys, more than 2 %% over the %zu of before", keys, was);
        pk_motion_free(r);
    }
    pk_motion_free(baked);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* Worst camera error of b against a at every integer frame of a's camera
 * (the sampler's values; Euler angles in degrees); fov and perspective
 * must be equal (*exact false otherwise). */
static void cam_worst(const pk_motion *a, const pk_motion *b, double *deg, double *pos, bool *exact)
{
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = pk_tracks_build(b, NULL);
    assert_non_null(ta);
    assert_non_null(tb);
    *deg = *pos = 0.0;
    *exact = true;
    if (ta->ncameras) {
        uint32_t f0 = a->cameras[ta->cameras[0]].frame;
        uint32_t f1 = a->cameras[ta->cameras[ta->ncameras - 1]].frame;
        for (uint32_t f = f0; f <= f1; f++) {
            pk_camera_key x, y;
            assert_true(pk_sample_camera(a, ta, f, &x));
            assert_true(pk_sample_camera(b, tb, f, &y));
            *pos = fmax(*pos, dist3(x.pos, y.pos));
            for (int k = 0; k < 3; k++)
                *deg =
                    fmax(*deg, fabs((double)x.rot[k] - y.rot[k]) * 180.0 / 3.14159265358979323846);
            *pos = fmax(*pos, fabs((double)x.distance - y.distance));
            if (x.fov != y.fov || x.perspective != y.perspective)
                *exact = false;
        }
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
}

/* The corpus cameras' key counts: as keyed, baked, and the baked camera
 * reduced at 0.05 deg / 0.001 units (doc/commands.md "reduce").  The
 * reduced count is an upper bound, so that a fitter refusing the segments
 * of a long camera move (hashi4: 64 keys instead of 27) fails here. */
static const struct {
    const char *file;
    size_t keys, baked, reduced;
} cam_counts[] = {
    {"vmd_wavefile_camera.vmd", 70, 2817, 82},
    {"vmd_hashi4_projectile_camera.vmd", 30, 1516, 27},
    {"vmd_vmd2xml_camera.vmd", 3, 11, 3},
};

/* --camera: every corpus camera baked (a key per frame) and reduced: every
 * integer frame within tolerance by sampling, fov and perspective exact,
 * bone and morph records untouched, the key counts above met; the original
 * reduced never gains keys. */
static void camera_corpus(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t done = 0, counted = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *data = tu_read_file(paths[i], &len);
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = pk_vmd_read(data, len, &log);
        free(data);
        if (!m || m->ncameras < 2) {
            pk_motion_free(m);
            pk_log_free(&log);
            continue;
        }
        pk_reduce_options o = tight();
        o.camera = true;
        pk_reduce_stats st;
        pk_motion *baked = pk_motion_bake(m, &o, &st, &log);
        assert_non_null(baked);
        assert_int_equal(st.camera_tracks, 1);
        double d, p;
        bool exact;
        cam_worst(m, baked, &d, &p, &exact);
        assert_true(d < 1e-4 && p < 1e-5 && exact);
        pk_motion *red = pk_motion_reduce(baked, &o, &st, &log);
        assert_non_null(red);
        cam_worst(baked, red, &d, &p, &exact);
        if (d > o.max_deg || p > o.max_pos || !exact)
            fail_msg("%s baked: camera worst %g deg %g units, fov/perspective %s", paths[i], d, p,
                     exact ? "exact" : "DIFFER");
        assert_true(st.worst_cam_deg <= o.max_deg && st.worst_cam_pos <= o.max_pos);
        assert_true(red->ncameras < baked->ncameras);
        assert_int_equal(red->nbones, baked->nbones);
        pk_motion *again = pk_motion_reduce(m, &o, NULL, &log);
        assert_non_null(again);
        assert_true(again->ncameras <= m->ncameras);
        cam_worst(m, again, &d, &p, &exact);
        assert_true(d <= o.max_deg && p <= o.max_pos && exact);
        /* without --camera the camera records stay as they are, unless
         * the motion holds nothing else: then they are done all the same */
        o.camera = false;
        pk_motion *left = pk_motion_reduce(baked, &o, NULL, &log);
        const pk_motion *want = baked->nbones + baked->nmorphs ? baked : red;
        assert_int_equal(left->ncameras, want->ncameras);
        assert_memory_equal(left->cameras, want->cameras, want->ncameras * sizeof *want->cameras);
        const char *file = strrchr(paths[i], '/') + 1;
        print_message("  %s: camera %zu keys, baked %zu, reduced %zu\n", file, m->ncameras,
                      baked->ncameras, red->ncameras);
        for (size_t c = 0; c < sizeof cam_counts / sizeof *cam_counts; c++) {
            if (strcmp(file, cam_counts[c].file) != 0)
                continue;
            if (m->ncameras != cam_counts[c].keys || baked->ncameras != cam_counts[c].baked ||
                red->ncameras > cam_counts[c].reduced)
                fail_msg("%s: camera %zu -> %zu -> %zu keys, want %zu -> %zu -> at most %zu", file,
                         m->ncameras, baked->ncameras, red->ncameras, cam_counts[c].keys,
                         cam_counts[c].baked, cam_counts[c].reduced);
            counted++;
        }
        done++;
        pk_motion_free(left);
        pk_motion_free(again);
        pk_motion_free(red);
        pk_motion_free(baked);
        pk_motion_free(m);
        pk_log_free(&log);
    }
    tu_free_list(paths, n);
    assert_true(done >= 2);
    assert_int_equal(counted, sizeof cam_counts / sizeof *cam_counts);
}

static pk_camera_key *cam(pk_motion *m, uint32_t f, float dist, float x, float rx, uint32_t fov)
{
    pk_camera_key *k = pk_motion_push_camera(m);
    assert_non_null(k);
    memset(k, 0, sizeof *k);
    k->frame = f;
    k->distance = dist;
    k->pos[0] = x;
    k->pos[1] = 10.0f;
    k->rot[0] = rx;
    k->rot[1] = rx * 0.5f;
    k->fov = fov;
    pk_camera_interp_linear(k->interp);
    return k;
}

/* A hand-made camera: eased moves, a cut (keys one frame apart), a
 * perspective switch.  Baked and reduced it is its own keys again (at most
 * one more), and every frame samples within tolerance. */
static void camera_recovered(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    cam(m, 0, -45.0f, 0.0f, 0.0f, 30);
    pk_camera_key *k = cam(m, 40, -30.0f, 5.0f, 0.6f, 30);
    /* (x1, x2, y1, y2) per group: X eased, rotation eased, distance linear */
    const uint8_t ease[4] = {64, 64, 0, 127};
    memcpy(k->interp + 0, ease, 4);
    memcpy(k->interp + 12, ease, 4);
    cam(m, 41, -60.0f, -3.0f, -0.2f, 40); /* a cut */
    k = cam(m, 90, -60.0f, 2.0f, 0.4f, 20);
    const uint8_t slow[4] = {90, 30, 10, 120};
    memcpy(k->interp + 12, slow, 4);
    k = cam(m, 120, -20.0f, 2.0f, 0.4f, 20);
    k->perspective = 1; /* orthographic from 120 on */
    cam(m, 150, -25.0f, 1.0f, 0.1f, 20)->perspective = 1;
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    o.camera = true;
    pk_motion *b = pk_motion_bake(m, &o, NULL, &log);
    assert_non_null(b);
    assert_int_equal(b->ncameras, 151);
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(b, &o, &st, &log);
    assert_non_null(r);
    double d, p;
    bool exact;
    cam_worst(m, r, &d, &p, &exact);
    assert_true(d <= o.max_deg && p <= o.max_pos && exact);
    assert_true(r->ncameras <= m->ncameras + 1);
    assert_int_equal(st.keys_before[PK_SEC_CAMERA], 151);
    assert_int_equal(st.keys_after[PK_SEC_CAMERA], r->ncameras);
    /* the cut's two frames and the switch are keys */
    bool k40 = false, k41 = false, k120 = false;
    for (size_t i = 0; i < r->ncameras; i++) {
        k40 |= r->cameras[i].frame == 40;
        k41 |= r->cameras[i].frame == 41;
        k120 |= r->cameras[i].frame == 120 && r->cameras[i].perspective == 1;
    }
    assert_true(k40 && k41 && k120);
    pk_motion_free(r);
    pk_motion_free(b);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A dance track with a key dropped millions of frames away (a pose merged
 * at a mistyped frame): reduce works in pieces (the dense runs on either
 * side reduced, the long segment between kept as it is, every frame
 * within tolerance); bake refuses with an error naming the track. */
static void far_key_in_pieces(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 300; f++)
        bone(m, "arm", f, f * 0.2, 0.0f);
    for (uint32_t f = 0; f <= 100; f++)
        bone(m, "arm", 5000000 + f, 30.0 + f * 0.3, 0.0f);
    bone(m, "still", 0, 5.0, 0.0f);
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    assert_int_equal(st.bone_tracks, 1);
    uint32_t fr[16];
    size_t n = keys_of(r, "arm", fr, 16);
    assert_int_equal(n, 4); /* 0, 300, 5000000, 5000100 */
    pk_tracks *ta = pk_tracks_build(m, NULL), *tb = pk_tracks_build(r, NULL);
    const pk_track *x = &ta->bones[0], *y = pk_tracks_bone(tb, x->name);
    for (uint32_t f = 0; f <= 5000200; f += f < 400 || f >= 4999900 ? 1 : 997) {
        float p0[3], r0[4], p1[3], r1[4];
        pk_sample_bone(m, x, f, p0, r0);
        pk_sample_bone(r, y, f, p1, r1);
        if (pk_quat_angle_deg(r0, r1) > o.max_deg)
            fail_msg("frame %u: %g degrees off", f, pk_quat_angle_deg(r0, r1));
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_motion_free(r);

    pk_motion *b = pk_motion_bake(m, &o, &st, &log);
    assert_null(b);
    tu_assert_log_has(&log, "bone 'arm' (frames 0-5000100) spans 5000101 frames: baking writes a "
                            "key at every one");
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A selection limits morphs as it limits bones (as diff and overlay
 * read it): a bone selection bakes no morph, a morph name bakes that
 * morph alone, a name the motion lacks is an error. */
static void selection_limits_morphs(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 20; f += 10) {
        bone(m, "arm", f, f * 1.0, 0.0f);
        for (int k = 0; k < 2; k++) {
            pk_morph_key *mk = pk_motion_push_morph(m);
            mk->name = pk_names_intern(m->names, k ? "smile" : "blink", 5);
            mk->frame = f;
            mk->weight = (float)f / 20.0f;
        }
    }
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    o.bones = pk_selection_parse(NULL, "arm", &log);
    pk_motion *b = pk_motion_bake(m, &o, &st, &log);
    assert_non_null(b);
    assert_int_equal(st.bone_tracks, 1);
    assert_int_equal(st.morph_tracks, 0);
    assert_int_equal(b->nmorphs, m->nmorphs);
    assert_memory_equal(b->morphs, m->morphs, m->nmorphs * sizeof *m->morphs);
    pk_motion_free(b);
    pk_selection_free((pk_selection *)o.bones);
    o.bones = pk_selection_parse(NULL, "smile", &log);
    b = pk_motion_bake(m, &o, &st, &log);
    assert_non_null(b);
    assert_int_equal(st.bone_tracks, 0);
    assert_int_equal(st.morph_tracks, 1);
    assert_int_equal(b->nmorphs, 3 + 21);
    pk_motion_free(b);
    pk_selection_free((pk_selection *)o.bones);
    o.bones = pk_selection_parse(NULL, "nothing", &log);
    assert_null(pk_motion_reduce(m, &o, &st, &log));
    tu_assert_log_has(&log, "the selection matches no bone or morph the motion keys");
    pk_selection_free((pk_selection *)o.bones);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* A motion with camera keys alone: its camera is what reduce and bake
 * mean, without the camera option; with a bone key too, the camera is
 * left alone. */
static void camera_alone(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (uint32_t f = 0; f <= 60; f++)
        cam(m, f, -45.0f + (float)f * 0.25f, (float)f * 0.1f, 0.0f, 30);
    pk_log log;
    pk_log_init(&log);
    pk_reduce_options o = tight();
    pk_reduce_stats st;
    pk_motion *r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    assert_true(st.camera);
    assert_int_equal(st.camera_tracks, 1);
    assert_int_equal(r->ncameras, 2);
    pk_motion_free(r);
    bone(m, "arm", 0, 0.0, 0.0f);
    r = pk_motion_reduce(m, &o, &st, &log);
    assert_non_null(r);
    assert_false(st.camera);
    assert_int_equal(r->ncameras, m->ncameras);
    pk_motion_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_corpus_motion_baked),
        cmocka_unit_test(jump_kept),
        cmocka_unit_test(off_the_arc_by_the_tolerance),
        cmocka_unit_test(constant_one_key),
        cmocka_unit_test(morph_triangle),
        cmocka_unit_test(collapsed_track_error_is_reported),
        cmocka_unit_test(curve_recovered),
        cmocka_unit_test(frames_range),
        cmocka_unit_test(camera_corpus),
        cmocka_unit_test(camera_recovered),
        cmocka_unit_test(edge_curve_recovered),
        cmocka_unit_test(dense_capture),
        cmocka_unit_test(long_dance_keys_as_before),
        cmocka_unit_test(pos_tolerance_is_distance),
        cmocka_unit_test(far_key_in_pieces),
        cmocka_unit_test(selection_limits_morphs),
        cmocka_unit_test(camera_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
