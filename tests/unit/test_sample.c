/* test_sample.c — sampling motions at frames, hand-computed (doc/formats.md §5).
 *
 * Curve values come from the Bezier polynomial at t = 0.25 / 0.5 (see
 * test_bezier.c): ease-in (127,0,127,127): s = 7/8 -> 1/2;
 * ease-out (0,127,0,127): s = 1/8 -> 7/8; S-curve (127,0,0,127):
 * s = 7/16 -> 5/32. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (3.14159265358979323846 / 180.0)

static void axis_angle(int axis, double deg, float q[4])
{
    q[0] = q[1] = q[2] = 0.0f;
    q[axis] = (float)sin(deg * DEG / 2.0);
    q[3] = (float)cos(deg * DEG / 2.0);
}

static pk_bone_key *key(pk_motion *m, const char *name, uint32_t frame, float x, float y, float z,
                        const float rot[4])
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = pk_names_intern(m->names, name, strlen(name));
    k->frame = frame;
    k->pos[0] = x;
    k->pos[1] = y;
    k->pos[2] = z;
    memcpy(k->rot, rot, sizeof k->rot);
    pk_interp_linear(k->interp);
    return k;
}

static void set_curve(pk_bone_key *k, int axis, uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2)
{
    uint8_t cp[4][4];
    for (int a = 0; a < 4; a++)
        pk_interp_curve(k->interp, a, cp[a]);
    cp[axis][0] = x1;
    cp[axis][1] = y1;
    cp[axis][2] = x2;
    cp[axis][3] = y2;
    pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
}

typedef struct fixture {
    pk_motion *m;
    pk_tracks *t;
} fixture;

static const pk_track *track(fixture *f, const char *name)
{
    if (!f->t) {
        f->t = pk_tracks_build(f->m, NULL);
        assert_non_null(f->t);
    }
    return pk_tracks_bone(f->t, pk_names_find(f->m->names, name, strlen(name)));
}

/* Samples with pk_sample_bone and with a fresh cursor; both must agree. */
static void sample(fixture *f, const char *name, double frame, float pos[3], float rot[4])
{
    const pk_track *t = track(f, name);
    pk_sample_bone(f->m, t, frame, pos, rot);
    pk_cursor c;
    pk_cursor_init(&c, f->m, t);
    float p2[3], r2[4];
    pk_cursor_bone(&c, frame, p2, r2);
    for (int i = 0; i < 3; i++)
        assert_float_equal(pos[i], p2[i], 1e-6);
    for (int i = 0; i < 4; i++)
        assert_float_equal(rot[i], r2[i], 1e-6);
}

static void assert_rot(const float got[4], const float want[4])
{
    /* same rotation: q and -q both accepted */
    double d = 0;
    for (int i = 0; i < 4; i++)
        d += (double)got[i] * want[i];
    if (fabs(fabs(d) - 1.0) > 1e-6)
        fail_msg("rotation (%g %g %g %g), want (%g %g %g %g)", got[0], got[1], got[2], got[3],
                 want[0], want[1], want[2], want[3]);
}

static void fixture_free(fixture *f)
{
    pk_tracks_free(f->t);
    pk_motion_free(f->m);
}

static void linear(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float id[4] = {0, 0, 0, 1}, y90[4], y45[4], pos[3], rot[4];
    axis_angle(1, 90, y90);
    axis_angle(1, 45, y45);
    key(f.m, "b", 0, 0, 0, 0, id);
    key(f.m, "b", 10, 10, 20, -30, y90);
    sample(&f, "b", 5, pos, rot);
    assert_float_equal(pos[0], 5, 1e-6);
    assert_float_equal(pos[1], 10, 1e-6);
    assert_float_equal(pos[2], -15, 1e-6);
    assert_rot(rot, y45);
    sample(&f, "b", 2.5, pos, rot); /* fractional frames */
    assert_float_equal(pos[0], 2.5, 1e-6);
    float y22[4];
    axis_angle(1, 22.5, y22);
    assert_rot(rot, y22);
    fixture_free(&f);
}

static void curves_per_axis_from_the_later_key(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float id[4] = {0, 0, 0, 1}, x90[4], pos[3], rot[4];
    axis_angle(0, 90, x90);
    pk_bone_key *k0 = key(f.m, "b", 0, 0, 0, 0, id);
    set_curve(k0, 0, 0, 127, 0, 127); /* the earlier key's curve is not used */
    pk_bone_key *k1 = key(f.m, "b", 8, 8, 8, 8, x90);
    set_curve(k1, 0, 127, 0, 127, 127); /* X ease-in */
    set_curve(k1, 2, 0, 127, 0, 127);   /* Z ease-out */
    set_curve(k1, 3, 0, 127, 0, 127);   /* R ease-out */
    sample(&f, "b", 7, pos, rot);       /* s = 7/8 */
    assert_float_equal(pos[0], 8 * 0.5, 1e-5);
    assert_float_equal(pos[1], 7, 1e-5); /* Y linear */
    sample(&f, "b", 1, pos, rot);        /* s = 1/8 */
    assert_float_equal(pos[2], 8 * 0.875, 1e-5);
    float want[4];
    axis_angle(0, 90 * 0.875, want);
    assert_rot(rot, want);
    fixture_free(&f);
}

static void s_curve(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float id[4] = {0, 0, 0, 1}, pos[3], rot[4];
    key(f.m, "b", 0, 0, 0, 0, id);
    pk_bone_key *k1 = key(f.m, "b", 16, 32, 0, 0, id);
    set_curve(k1, 0, 127, 0, 0, 127);
    sample(&f, "b", 7, pos, rot); /* s = 7/16 -> y = 5/32 */
    assert_float_equal(pos[0], 32 * 0.15625, 1e-5);
    sample(&f, "b", 8, pos, rot); /* the flat middle: s = 1/2 -> 1/2 */
    assert_float_equal(pos[0], 16, 1e-4);
    fixture_free(&f);
}

static void physics_flag_bytes_are_not_curve_data(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float id[4] = {0, 0, 0, 1}, z90[4], z45[4], pos[3], rot[4];
    axis_angle(2, 90, z90);
    axis_angle(2, 45, z45);
    key(f.m, "b", 0, 0, 0, 0, id);
    pk_bone_key *k1 = key(f.m, "b", 10, 0, 0, 10, z90);
    k1->interp[2] = 0x63; /* "physics off"; a row-0 reader sees Z.x1 = 99 */
    k1->interp[3] = 0x0F; /* and R.x1 = 15 */
    sample(&f, "b", 5, pos, rot);
    assert_float_equal(pos[2], 5, 1e-6); /* Z and R stay linear */
    assert_rot(rot, z45);
    fixture_free(&f);
}

static void negative_dot_takes_the_short_way(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float id[4] = {0, 0, 0, 1}, z90[4], z45[4], pos[3], rot[4];
    axis_angle(2, 90, z90);
    axis_angle(2, 45, z45);
    float neg[4] = {-z90[0], -z90[1], -z90[2], -z90[3]}; /* same rotation, w < 0 */
    key(f.m, "b", 0, 0, 0, 0, id);
    key(f.m, "b", 10, 0, 0, 0, neg);
    sample(&f, "b", 5, pos, rot);
    assert_rot(rot, z45); /* the long way would give 135 degrees */
    assert_float_equal(pk_quat_angle_deg(rot, id), 45.0, 1e-4);
    fixture_free(&f);
}

static void hold_before_first_and_after_last(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float x30[4], x60[4], pos[3], rot[4];
    axis_angle(0, 30, x30);
    axis_angle(0, 60, x60);
    key(f.m, "b", 10, 1, 2, 3, x30);
    key(f.m, "b", 20, 4, 5, 6, x60);
    sample(&f, "b", 0, pos, rot);
    assert_float_equal(pos[0], 1, 0);
    assert_rot(rot, x30);
    sample(&f, "b", 10, pos, rot);
    assert_float_equal(pos[1], 2, 0);
    sample(&f, "b", 20, pos, rot);
    assert_float_equal(pos[2], 6, 0);
    assert_rot(rot, x60);
    sample(&f, "b", 1e6, pos, rot);
    assert_float_equal(pos[0], 4, 0);
    assert_rot(rot, x60);
    /* absent track: rest pose */
    pk_sample_bone(f.m, NULL, 5, pos, rot);
    assert_float_equal(pos[0], 0, 0);
    assert_rot(rot, (float[]){0, 0, 0, 1});
    fixture_free(&f);
}

static void one_key_tracks_are_constant_and_normalised(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float pos[3], rot[4];
    key(f.m, "b", 30, 1, 2, 3, (float[]){0, 0, 0, 2});
    for (double fr = 0; fr < 100; fr += 7.5) {
        sample(&f, "b", fr, pos, rot);
        assert_float_equal(pos[0], 1, 0);
        assert_float_equal(rot[3], 1, 0); /* stored (0,0,0,2), used normalised */
    }
    fixture_free(&f);
}

static void duplicate_keys_later_record_wins(void **state)
{
    (void)state;
    fixture f = {pk_motion_new(), NULL};
    float id[4] = {0, 0, 0, 1}, pos[3], rot[4];
    key(f.m, "b", 0, 0, 0, 0, id);
    key(f.m, "b", 10, 100, 0, 0, id);
    key(f.m, "b", 10, 10, 0, 0, id); /* same frame, later in the file */
    pk_log log;
    pk_log_init(&log);
    f.t = pk_tracks_build(f.m, &log);
    assert_int_equal(log.warnings, 1);
    sample(&f, "b", 10, pos, rot);
    assert_float_equal(pos[0], 10, 0);
    sample(&f, "b", 5, pos, rot);
    assert_float_equal(pos[0], 5, 1e-6);
    pk_log_free(&log);
    fixture_free(&f);
}

static void morphs_are_linear(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    const uint32_t frames[] = {4, 0, 8};
    const float w[] = {1.0f, 0.0f, 0.5f};
    for (int i = 0; i < 3; i++) {
        tu_morph_key(m, "smile", frames[i], w[i]);
    }
    pk_tracks *t = pk_tracks_build(m, NULL);
    const pk_track *tr = pk_tracks_morph(t, pk_names_find(m->names, "smile", 5));
    assert_float_equal(pk_sample_morph(m, tr, 1), 0.25, 1e-6);
    assert_float_equal(pk_sample_morph(m, tr, 6), 0.75, 1e-6);
    assert_float_equal(pk_sample_morph(m, tr, 100), 0.5, 0);
    assert_float_equal(pk_sample_morph(m, NULL, 3), 0, 0);
    pk_cursor c;
    pk_cursor_init(&c, m, tr);
    for (int fr = 0; fr <= 10; fr++)
        assert_float_equal(pk_cursor_morph(&c, fr), pk_sample_morph(m, tr, fr), 1e-7);
    pk_tracks_free(t);
    pk_motion_free(m);
}

static pk_camera_key *cam(pk_motion *m, uint32_t frame, float v)
{
    pk_camera_key *k = pk_motion_push_camera(m);
    k->frame = frame;
    k->distance = -v;
    for (int i = 0; i < 3; i++) {
        k->pos[i] = v;
        k->rot[i] = v / 10.0f;
    }
    k->fov = (uint32_t)(30 + v);
    pk_camera_interp_linear(k->interp);
    return k;
}

static void camera_curves_and_cuts(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_log log;
    pk_log_init(&log);
    cam(m, 0, 0);
    pk_camera_key *k = cam(m, 8, 8);
    /* X channel ease-in, stored (x1, x2, y1, y2) = (127, 127, 0, 127) */
    k->interp[0] = 127;
    k->interp[1] = 127;
    k->interp[2] = 0;
    k->interp[3] = 127;
    cam(m, 20, 20);
    cam(m, 21, 40); /* one frame later: a cut */
    pk_camera_key out;
    assert_false(pk_sample_camera(m, NULL, 0, &out));
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_true(pk_sample_camera(m, t, 7, &out)); /* s = 7/8 */
    assert_float_equal(out.pos[0], 4, 1e-5);      /* ease-in: 1/2 */
    assert_float_equal(out.pos[1], 7, 1e-5);      /* linear */
    assert_float_equal(out.rot[2], 0.7, 1e-5);    /* Euler angles lerped */
    assert_float_equal(out.distance, -7, 1e-5);
    assert_int_equal(out.fov, 37);
    assert_true(pk_sample_camera(m, t, 14, &out)); /* linear segment 8..20 */
    assert_float_equal(out.pos[0], 14, 1e-5);
    assert_true(pk_sample_camera(m, t, 20.5, &out)); /* inside the cut */
    assert_float_equal(out.pos[0], 20, 0);
    assert_true(pk_sample_camera(m, t, 21, &out));
    assert_float_equal(out.pos[0], 40, 0);
    assert_true(pk_sample_camera(m, t, 99, &out));
    assert_float_equal(out.pos[0], 40, 0);
    pk_tracks_free(t);
    pk_log_free(&log);
    pk_motion_free(m);
}

static void lights_are_linear(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_light_key *l = pk_motion_push_light(m);
    l->frame = 10;
    l->color[0] = 1.0f;
    l->direction[1] = -1.0f;
    l = pk_motion_push_light(m);
    l->frame = 0;
    pk_tracks *t = pk_tracks_build(m, NULL);
    pk_light_key out;
    assert_true(pk_sample_light(m, t, 4, &out));
    assert_float_equal(out.color[0], 0.4, 1e-6);
    assert_float_equal(out.direction[1], -0.4, 1e-6);
    pk_tracks_free(t);
    pk_motion_free(m);
}

/* The cursor, stepped forward, backward and by fractions, gives exactly
 * what the stateless sampler gives, across many segments. */
static void cursor_matches_stateless_sampling(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    srand(99);
    uint32_t frame = 0;
    for (int i = 0; i < 200; i++) {
        float q[4] = {
            (float)((double)rand() / RAND_MAX - 0.5), (float)((double)rand() / RAND_MAX - 0.5),
            (float)((double)rand() / RAND_MAX - 0.5), (float)((double)rand() / RAND_MAX - 0.5)};
        pk_bone_key *k = key(m, "b", frame, (float)(rand() % 100), 0, 0, q);
        uint8_t cp[4][4];
        for (int a = 0; a < 4; a++)
            for (int j = 0; j < 4; j++)
                cp[a][j] = (uint8_t)(rand() % 128);
        pk_interp_set(k->interp, (const uint8_t(*)[4])cp, false);
        frame += 1 + (uint32_t)(rand() % 12);
    }
    pk_tracks *t = pk_tracks_build(m, NULL);
    const pk_track *tr = &t->bones[0];
    pk_cursor c;
    pk_cursor_init(&c, m, tr);
    float p1[3], r1[4], p2[3], r2[4];
    double frames[3000];
    int n = 0;
    for (double f = -5; f < frame + 5; f += 1.0)
        frames[n++] = f;
    for (double f = frame + 5; f > -5 && n < 2900; f -= 3.7) /* backwards */
        frames[n++] = f;
    for (int i = 0; i < n; i++) {
        pk_sample_bone(m, tr, frames[i], p1, r1);
        pk_cursor_bone(&c, frames[i], p2, r2);
        for (int j = 0; j < 3; j++)
            assert_float_equal(p1[j], p2[j], 1e-4);
        for (int j = 0; j < 4; j++)
            assert_float_equal(r1[j], r2[j], 1e-6);
    }
    pk_tracks_free(t);
    pk_motion_free(m);
}

static void motion_sample_gives_a_pose(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_motion_set_model(m, "Miku", 4, NULL);
    float id[4] = {0, 0, 0, 1}, x90[4];
    axis_angle(0, 90, x90);
    key(m, "arm", 0, 0, 0, 0, id);
    key(m, "center", 0, 0, 0, 0, id);
    key(m, "arm", 10, 0, 0, 0, x90);
    tu_morph_key(m, "blink", 0, 0.75f);
    pk_log log;
    pk_log_init(&log);
    pk_pose *p = pk_motion_sample(m, NULL, 5, &log);
    assert_non_null(p);
    assert_int_equal(log.count, 0);
    assert_int_equal(p->model_len, 4);
    assert_memory_equal(p->model, "Miku", 4);
    assert_int_equal(p->nbones, 2);
    size_t len;
    const uint8_t *raw = pk_names_raw(p->names, p->bones[0].name, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(raw, "arm", 3);
    float x45[4];
    axis_angle(0, 45, x45);
    assert_rot(p->bones[0].rot, x45);
    raw = pk_names_raw(p->names, p->bones[1].name, &len);
    assert_memory_equal(raw, "center", 6);
    assert_int_equal(p->nmorphs, 1);
    assert_float_equal(p->morphs[0].weight, 0.75, 0);
    pk_pose_free(p);
    pk_log_free(&log);
    pk_motion_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(linear),
        cmocka_unit_test(curves_per_axis_from_the_later_key),
        cmocka_unit_test(s_curve),
        cmocka_unit_test(physics_flag_bytes_are_not_curve_data),
        cmocka_unit_test(negative_dot_takes_the_short_way),
        cmocka_unit_test(hold_before_first_and_after_last),
        cmocka_unit_test(one_key_tracks_are_constant_and_normalised),
        cmocka_unit_test(duplicate_keys_later_record_wins),
        cmocka_unit_test(morphs_are_linear),
        cmocka_unit_test(camera_curves_and_cuts),
        cmocka_unit_test(lights_are_linear),
        cmocka_unit_test(cursor_matches_stateless_sampling),
        cmocka_unit_test(motion_sample_gives_a_pose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
