/* test_camera.c — the camera moved for another model
 * (engine/ops/retarget/retarget_camera.c): MMD's camera model on points whose
 * place on the screen is known; B equal to A scaled (every distance and
 * centre scaled exactly, curves kept, nothing left off); a static camera
 * whose frame-by-frame correction moves (fitted again, and close); a
 * leaning B the camera turns for; the best camera per frame as a bound;
 * the least change of a camera; the certified bound; the errors. */
#include "testutil.h"
#include "ops/retarget/retarget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static pk_camera_key cam_key(uint32_t frame, float dist, float cx, float cy, float cz, float rx,
                             float ry, float rz, uint32_t fov)
{
    pk_camera_key k;
    memset(&k, 0, sizeof k);
    k.frame = frame;
    k.distance = dist;
    k.pos[0] = cx;
    k.pos[1] = cy;
    k.pos[2] = cz;
    k.rot[0] = rx;
    k.rot[1] = ry;
    k.rot[2] = rz;
    k.fov = fov;
    pk_camera_interp_linear(k.interp);
    return k;
}

/* MMD's default camera looks at (0, 10, 0) from 45 units in front of the
 * model (the model faces −Z); its left (+X) is on the screen's right. */
static void camera_model(void **state)
{
    (void)state;
    pk_camera_key k = cam_key(0, -45, 0, 10, 0, 0, 0, 0, 30);
    double s[2], t = 2 * tan(15 * PI / 180);
    assert_true(pki_camera_screen(&k, (double[3]){0, 10, 0}, s));
    assert_true(fabs(s[0]) < 1e-12 && fabs(s[1]) < 1e-12);
    assert_true(pki_camera_screen(&k, (double[3]){1, 10, 0}, s));
    assert_true(fabs(s[0] - 1 / (45 * t)) < 1e-9 && fabs(s[1]) < 1e-12);
    assert_true(pki_camera_screen(&k, (double[3]){0, 11, -5}, s)); /* up, and nearer */
    assert_true(fabs(s[1] - 1 / (40 * t)) < 1e-9);
    assert_false(pki_camera_screen(&k, (double[3]){0, 10, -50}, s)); /* behind the eye */
    /* Y turned a quarter: the eye on the model's left (+X), looking to −X;
     * the model's front (−Z) on the left of the screen */
    k.rot[1] = (float)(PI / 2);
    assert_true(pki_camera_screen(&k, (double[3]){0, 10, -1}, s));
    assert_true(s[0] < 0 && fabs(s[0] + 1 / (45 * t)) < 1e-6);
    assert_true(pki_camera_screen(&k, (double[3]){40, 10, 0}, s)); /* 5 units in front */
    assert_false(pki_camera_screen(&k, (double[3]){46, 10, 0}, s));
    /* X turned by a positive angle: the eye below, looking up */
    k.rot[1] = 0;
    k.rot[0] = (float)(PI / 6);
    assert_true(pki_camera_screen(&k, (double[3]){0, 10, 0}, s));
    assert_true(pki_camera_screen(&k, (double[3]){0, 10 - 45 * sin(PI / 6), -45 * cos(PI / 6)},
                                  s) == false);
    /* two angles: roll, then pitch, then yaw (R = Ry(−ry)·Rx(−rx)·Rz(−rz)):
     * pitched straight down and turned a quarter, the screen's up is −X
     * (pitch and yaw the other way round would make it +Z) */
    k = cam_key(0, -10, 0, 0, 0, (float)(-PI / 2), (float)(PI / 2), 0, 30);
    assert_true(pki_camera_screen(&k, (double[3]){-1, 0, 0}, s));
    assert_true(fabs(s[0]) < 1e-6 && fabs(s[1] - 1 / (10 * t)) < 1e-6);
    assert_true(pki_camera_screen(&k, (double[3]){0, 0, -1}, s));
    assert_true(fabs(s[1]) < 1e-6 && fabs(fabs(s[0]) - 1 / (10 * t)) < 1e-6);
    /* roll turns the picture about the view axis */
    k = cam_key(0, -45, 0, 10, 0, 0, 0, (float)(PI / 2), 30);
    assert_true(pki_camera_screen(&k, (double[3]){0, 11, 0}, s));
    assert_true(fabs(s[1]) < 1e-6 && fabs(fabs(s[0]) - 1 / (45 * t)) < 1e-6);
    /* the view angle: half of it puts a point at the screen's top edge */
    k = cam_key(0, -45, 0, 10, 0, 0, 0, 0, 40);
    assert_true(pki_camera_screen(&k, (double[3]){0, 10 + 45 * tan(20 * PI / 180), 0}, s));
    assert_true(fabs(s[1] - 0.5) < 1e-6);
}

/* A small body: a root that moves, a head, wrists and ankles, scaled by
 * k about the origin. */
static pk_model *body(double k)
{
    char text[2048];
    snprintf(text, sizeof text,
             "posekit_body: 1\n"
             "bones:\n"
             "  - {name: センター, pos: [0, %.17g, 0], flags: [rotate, move]}\n"
             "  - {name: 頭, parent: センター, pos: [0, %.17g, 0]}\n"
             "  - {name: 左手首, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 右手首, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 左足首, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 右足首, parent: センター, pos: [%.17g, %.17g, 0]}\n",
             8 * k, 17 * k, 5 * k, 12 * k, -5 * k, 12 * k, 1 * k, 1.3 * k, -1 * k, 1.3 * k);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_body_read(text, strlen(text), &log);
    assert_non_null(m);
    pk_log_free(&log);
    return m;
}

/* body(1) with the bones at q (x, y; z 0), in body()'s order. */
static pk_model *body_at(const double q[6][2])
{
    char text[2048];
    snprintf(text, sizeof text,
             "posekit_body: 1\n"
             "bones:\n"
             "  - {name: センター, pos: [%.17g, %.17g, 0], flags: [rotate, move]}\n"
             "  - {name: 頭, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 左手首, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 右手首, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 左足首, parent: センター, pos: [%.17g, %.17g, 0]}\n"
             "  - {name: 右足首, parent: センター, pos: [%.17g, %.17g, 0]}\n",
             q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1], q[3][0], q[3][1], q[4][0],
             q[4][1], q[5][0], q[5][1]);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_body_read(text, strlen(text), &log);
    assert_non_null(m);
    pk_log_free(&log);
    return m;
}

/* body(1) leaning: every bone turned by deg about the Z axis through the
 * origin (the screen's plane for a camera with no angles). */
static pk_model *leaning(double deg)
{
    const double P[6][2] = {{0, 8}, {0, 17}, {5, 12}, {-5, 12}, {1, 1.3}, {-1, 1.3}};
    double c = cos(deg * PI / 180), s = sin(deg * PI / 180), q[6][2];
    for (int i = 0; i < 6; i++) {
        q[i][0] = c * P[i][0] - s * P[i][1];
        q[i][1] = s * P[i][0] + c * P[i][1];
    }
    return body_at((const double(*)[2])q);
}

/* センター moving: x = amp·sin, z = amp·cos over frames 0..last, a key a
 * frame; turning about Y by a quarter over the span. */
static pk_motion *dance(double amp, uint32_t last)
{
    pk_motion *m = pk_motion_new();
    pk_name_id c = tu_intern(m->names, "センター");
    for (uint32_t f = 0; f <= last; f++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = c;
        k->frame = f;
        double u = (double)f / last;
        k->pos[0] = (float)(amp * sin(2 * PI * u));
        k->pos[2] = (float)(amp * (cos(2 * PI * u) - 1));
        k->rot[1] = (float)sin(PI / 8 * u);
        k->rot[3] = (float)cos(PI / 8 * u);
        pk_interp_linear(k->interp);
    }
    return m;
}

static pk_motion *camera(void)
{
    pk_motion *m = pk_motion_new();
    const pk_camera_key keys[] = {
        cam_key(0, -45, 0, 10, 0, 0, 0, 0, 30),
        cam_key(30, -30, 1, 14, -2, -0.2f, 0.5f, 0.05f, 25),
        cam_key(31, -60, -2, 9, 1, 0.1f, -0.3f, 0, 40), /* a cut */
        cam_key(90, -25, 0, 12, 3, -0.1f, 2.8f, 0, 20),
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        *pk_motion_push_camera(m) = keys[i];
    /* a curve that is not linear on the last key's centre X and distance */
    uint8_t ease[4] = {64, 64, 0, 127};
    memcpy(m->cameras[3].interp, ease, 4);
    memcpy(m->cameras[3].interp + 16, ease, 4);
    return m;
}

/* B is A scaled by 1.25 and dances the dance scaled: every key's centre
 * and distance scale by 1.25, curves and angles kept, nothing fitted
 * again, B's points exactly where A's were. */
static void scaled_model(void **state)
{
    (void)state;
    const double k = 1.25;
    pk_model *a = body(1), *b = body(k);
    pk_motion *da = dance(3, 120), *db = dance(3 * k, 120), *cam = camera(), *orig = camera();
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    pk_camera_report rep;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_camera(cam, &o, &rep, &log), 0);
    assert_int_equal(rep.points, 5);
    assert_int_equal(rep.frames, 121);
    assert_true(rep.frames_on_screen > 60);
    assert_true(rep.before_worst > 0.02);
    assert_true(rep.after_worst < 1e-5);
    assert_int_equal(rep.pieces, 0);
    assert_int_equal(rep.keys_out, 4);
    assert_int_equal(cam->ncameras, 4);
    for (size_t i = 0; i < 4; i++) {
        const pk_camera_key *x = &orig->cameras[i], *y = &cam->cameras[i];
        assert_int_equal(x->frame, y->frame);
        assert_true(fabs(y->distance - k * x->distance) < 1e-4 * fabs(x->distance));
        for (int c = 0; c < 3; c++) {
            assert_true(fabs(y->pos[c] - k * x->pos[c]) < 1e-4);
            assert_true(y->rot[c] == x->rot[c]);
        }
        assert_int_equal(x->fov, y->fov);
        assert_memory_equal(x->interp, y->interp, 24);
    }
    pk_camera_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_motion_free(cam);
    pk_motion_free(orig);
    pk_model_free(a);
    pk_model_free(b);
}

/* A still camera over a dance that B plays with A's steps (not scaled):
 * the frame-by-frame correction moves, two keys cannot follow it, the
 * stretch is fitted again and lands B close to where A was. */
static void still_camera_refit(void **state)
{
    (void)state;
    pk_model *a = body(1), *b = body(1.3);
    pk_motion *da = dance(6, 120), *db = dance(6, 120);
    pk_motion *cam = pk_motion_new();
    *pk_motion_push_camera(cam) = cam_key(0, -40, 0, 10, 0, 0, 0, 0, 30);
    *pk_motion_push_camera(cam) = cam_key(120, -40, 0, 10, 0, 0, 0, 0, 30);
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    pk_camera_report rep;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_camera(cam, &o, &rep, &log), 0);
    assert_true(rep.pieces >= 1);
    assert_true(rep.keys_out > 2);
    assert_true(rep.before_worst > 0.05);
    assert_true(rep.after_worst < 0.3 * rep.before_worst);
    assert_true(rep.after_mean < rep.before_mean / 4);
    /* no worse than the frame-by-frame correction by more than the margin */
    assert_true(rep.after_worst < rep.best_worst + PK_CAMERA_SMOOTH + 0.003);
    pk_camera_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_motion_free(cam);
    pk_model_free(a);
    pk_model_free(b);
}

/* B leans 8° in the screen's plane, standing still before a still camera
 * that looks at it square on: no move of the eye lands B's points on A's,
 * a roll of the camera does.  The camera turns (most of the 8°: its angles
 * are pulled towards the camera's); the best camera per frame lands them
 * exactly. */
static void leaning_model(void **state)
{
    (void)state;
    pk_model *a = body(1), *b = leaning(8);
    pk_motion *da = dance(0, 60), *db = dance(0, 60);
    pk_motion *cam = pk_motion_new();
    *pk_motion_push_camera(cam) = cam_key(0, -30, 0, 10, 0, 0, 0, 0, 30);
    *pk_motion_push_camera(cam) = cam_key(60, -30, 0, 10, 0, 0, 0, 0, 30);
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    pk_camera_report rep;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_camera(cam, &o, &rep, &log), 0);
    assert_true(rep.before_worst > 0.05);
    assert_true(rep.bound_worst < 1e-4);
    assert_int_equal(rep.bound_goal, rep.frames_on_screen);
    assert_true(rep.bound_worst <= rep.best_worst + 1e-12);
    assert_true(rep.turn_deg > 5 && rep.turn_deg < 8.5);
    assert_true(fabs(cam->cameras[0].rot[2]) > 5 * PI / 180);
    /* what the pull leaves: a fraction of the lean */
    assert_true(rep.after_worst < rep.before_worst / 5);
    assert_true(rep.after_goal > rep.frames_on_screen / 2);
    assert_int_equal(rep.before_goal, 0);
    assert_int_equal(rep.keys_out, 2); /* a still camera turned stays two keys */
    pk_camera_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_motion_free(cam);
    pk_model_free(a);
    pk_model_free(b);
}

/* B leans 14° in the screen's plane, standing still (no dance) before
 * a still camera square on: a roll of 14° lands every point exactly (the
 * bound); the pull on the angles alone leaves the head and feet more
 * than 2% of the screen off on every frame.  So the camera turns further:
 * every frame within the goal, the roll most of the lean and no more,
 * and as still as the original (a still camera turned stays two keys and
 * does not move from one frame to the next). */
static void lean_turned_for_goal(void **state)
{
    (void)state;
    pk_model *a = body(1), *b = leaning(14);
    pk_motion *da = pk_motion_new(), *db = pk_motion_new();
    pk_motion *cam = pk_motion_new();
    *pk_motion_push_camera(cam) = cam_key(0, -30, 0, 10, 0, 0, 0, 0, 30);
    *pk_motion_push_camera(cam) = cam_key(60, -30, 0, 10, 0, 0, 0, 0, 30);
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    pk_camera_report rep;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_camera(cam, &o, &rep, &log), 0);
    assert_int_equal(rep.frames_on_screen, 61);
    assert_true(rep.bound_worst < 1e-4);
    assert_int_equal(rep.before_goal, 0);
    assert_int_equal(rep.after_goal, rep.frames_on_screen);
    assert_true(rep.after_worst <= PK_CAMERA_GOAL);
    assert_true(rep.turn_deg > 10 && rep.turn_deg <= 14.01);
    assert_true(fabs(cam->cameras[0].rot[2]) > 10 * PI / 180);
    assert_int_equal(rep.keys_out, 2);
    assert_true(rep.step_deg_orig < 1e-9 && rep.step_eye_orig < 1e-9);
    assert_true(rep.step_deg < 1e-3 && rep.step_eye < 1e-4);
    pk_camera_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_motion_free(cam);
    pk_model_free(a);
    pk_model_free(b);
}

/* B's head far above its hands and feet (a long neck): no camera lands
 * all five points; the best camera per frame is measured and no worse
 * than the correction, which is no worse than the camera unchanged. */
static void bound_below(void **state)
{
    (void)state;
    const double neck[6][2] = {{0, 8}, {0, 26}, {5, 12}, {-5, 12}, {1, 1.3}, {-1, 1.3}};
    pk_model *a = body(1), *b = body_at(neck);
    pk_motion *da = dance(4, 90), *db = dance(4, 90), *cam = camera();
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    pk_camera_report rep;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_camera(cam, &o, &rep, &log), 0);
    assert_true(rep.bound_worst > 0.01);
    assert_true(rep.bound_worst <= rep.best_worst + 1e-12);
    assert_true(rep.bound_goal >= rep.after_goal);
    assert_true(rep.after_mean < rep.before_mean);
    /* the frames out of reach, runs of frames: as many as the bound misses */
    size_t unmet = 0;
    for (size_t i = 0; i < rep.nunmet; i++) {
        assert_true(rep.unmet[i][0] <= rep.unmet[i][1] && rep.unmet[i][1] < rep.frames);
        assert_true(i == 0 || rep.unmet[i][0] > rep.unmet[i - 1][1] + 1);
        unmet += rep.unmet[i][1] - rep.unmet[i][0] + 1;
    }
    assert_true(unmet > 0);
    assert_int_equal(unmet, rep.frames_on_screen - rep.bound_goal);
    pk_camera_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_motion_free(cam);
    pk_model_free(a);
    pk_model_free(b);
}

/* B is A, its points out of a plane, a third the size, turned half a
 * turn about the vertical and then 170° about the side axis (upside
 * down, facing away), standing still: the original camera orbited and
 * rolled to match lands every point exactly, far from the correction (it
 * meets 2% on no frame) and beyond a search from it (which ends 29% of
 * the screen off).  The bound's closed-form start (a weak-perspective fit
 * of B's points to A's screen points) and its extra starts find it:
 * every frame reachable. */
static void bound_global(void **state)
{
    (void)state;
    const double P[6][3] = {{0, 8, 0},   {0, 17, 0},  {5, 12, -4},
                            {-5, 12, 3}, {1, 1.3, 2}, {-1, 1.3, -2}};
    const double K = 0.3, c = cos(PI), s = sin(PI), cx = cos(170 * PI / 180),
                 sx = sin(170 * PI / 180);
    char text[2048];
    int n = snprintf(text, sizeof text, "posekit_body: 1\nbones:\n");
    const char *names[6] = {"センター", "頭", "左手首", "右手首", "左足首", "右足首"};
    for (int i = 0; i < 6; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "  - {name: %s%s, pos: [%.17g, %.17g, %.17g]%s}\n", names[i],
                      i ? ", parent: センター" : "", K * (c * P[i][0] + s * P[i][2]),
                      K * (cx * P[i][1] - sx * (c * P[i][2] - s * P[i][0])),
                      K * (sx * P[i][1] + cx * (c * P[i][2] - s * P[i][0])),
                      i ? "" : ", flags: [rotate, move]");
    pk_log log;
    pk_log_init(&log);
    pk_model *a = body(1), *b = pk_body_read(text, strlen(text), &log);
    assert_non_null(b);
    pk_motion *da = pk_motion_new(), *db = pk_motion_new(), *cam = pk_motion_new();
    *pk_motion_push_camera(cam) = cam_key(0, -30, 0, 10, 0, 0.1f, 0.2f, 0, 30);
    *pk_motion_push_camera(cam) = cam_key(20, -30, 0, 10, 0, 0.1f, 0.2f, 0, 30);
    pk_camera_options o = {.from = a, .to = b, .dance_from = da, .dance_to = db};
    pk_camera_report rep;
    assert_int_equal(pk_motion_retarget_camera(cam, &o, &rep, &log), 0);
    assert_int_equal(rep.frames_on_screen, 21);
    assert_int_equal(rep.best_goal, 0);
    assert_int_equal(rep.bound_goal, 21);
    assert_true(rep.bound_worst < 1e-3);
    assert_int_equal(rep.nunmet, 0);
    pk_camera_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(da);
    pk_motion_free(db);
    pk_motion_free(cam);
    pk_model_free(a);
    pk_model_free(b);
}

/* The eye of an MMD camera key: centre + distance·forward, forward =
 * Ry(−ry)·Rx(−rx)·(0, 0, 1). */
static void key_eye(const pk_camera_key *k, double e[3])
{
    double rx = k->rot[0], ry = k->rot[1];
    double fwd[3] = {-sin(ry) * cos(rx), sin(rx), cos(ry) * cos(rx)};
    for (int a = 0; a < 3; a++)
        e[a] = k->pos[a] + (double)k->distance * fwd[a];
}

/* The least change, on a point whose answer is known: the head alone, 3%
 * of the screen height right of A's (the screen's centre) at 30 units.
 * The smallest change (eye over depth·2·tan(fov/2), angles over
 * 2·tan(fov/2): screen heights) that brings it within 1.75% moves it
 * 1.25% straight back along that line, half by moving the eye sideways
 * and half by turning (each shifts the point one screen height per unit),
 * so it lands at (1.75%, 0) for a change of 1.25%/√2 ≈ 0.88%; moving the
 * eye alone or turning alone would cost 1.25%. */
static void least_change_known(void **state)
{
    (void)state;
    const double t = 2 * tan(15 * PI / 180), x = 0.03 * 30 * t;
    pk_camera_key k = cam_key(0, -30, 0, 10, 0, 0, 0, 0, 30), out;
    pki_cert_frame fr = {.n = 1, .sa = {{0, 0}}, .pb = {{x, 10, 0}}};
    double s[2], e0[3], e1[3];
    assert_true(pki_camera_screen(&k, fr.pb[0], s));
    assert_true(fabs(s[0] - 0.03) < 1e-9 && fabs(s[1]) < 1e-9);
    assert_true(pki_camera_least_change(&fr, &k, &out));
    assert_true(pki_camera_screen(&out, fr.pb[0], s));
    assert_true(fabs(s[0] - 0.0175) < 2e-4); /* on the boundary: no further */
    assert_true(fabs(s[1]) < 1e-4);          /* along the line */
    key_eye(&k, e0);
    key_eye(&out, e1);
    double eye = sqrt((e1[0] - e0[0]) * (e1[0] - e0[0]) + (e1[1] - e0[1]) * (e1[1] - e0[1]) +
                      (e1[2] - e0[2]) * (e1[2] - e0[2])) /
                 (30 * t);
    double turn = 0;
    for (int a = 0; a < 3; a++)
        turn += ((double)out.rot[a] - k.rot[a]) * ((double)out.rot[a] - k.rot[a]);
    turn = sqrt(turn) / t;
    double change = sqrt(eye * eye + turn * turn);
    assert_true(fabs(change - 0.0125 / sqrt(2.0)) < 0.0006);
    assert_true(fabs(eye - turn) < 0.0015); /* each takes half */
    assert_true(out.fov == k.fov && out.distance == k.distance);
    /* already within: no change needed, the camera as it was */
    pki_cert_frame in = {.n = 1, .sa = {{0.025, 0}}, .pb = {{x, 10, 0}}};
    assert_true(pki_camera_least_change(&in, &k, &out));
    assert_true(memcmp(out.rot, k.rot, sizeof k.rot) == 0);
}

/* The certified bound.  Out of reach: B's head and hands on one line (the
 * hands 3 units either side of the head), A's hands level on the screen
 * and its head 10% above them.  A perspective camera keeps the head's
 * image on the segment between the hands' (all in front), so no camera
 * puts the hands within 2% of A's and the head within 2% of A's: proved.
 * Reachable: A's points B's own seen through a camera, each moved 1%: a
 * camera is found, within 2% on the disc, checked here by projecting. */
static void certify_out_and_reach(void **state)
{
    (void)state;
    pki_cert_frame out = {.n = 5,
                          .sa = {{0, 0.1}, {-0.2, 0}, {0.2, 0}, {-0.05, -0.3}, {0.05, -0.3}},
                          .pb = {{0, 10, 0}, {-3, 10, 0}, {3, 10, 0}, {-1, 0, 0.5}, {1, 0, -0.5}}};
    pki_cert_result r;
    assert_int_equal(pki_camera_certify(&out, PK_CAMERA_GOAL, 1, 125, 200000, &r), 0);
    assert_int_equal(r.verdict, PKI_CERT_OUT);
    assert_true(r.cells > 1);
    /* the same points as a camera shows them, the head 1.5% off: met */
    pk_camera_key k0 = cam_key(0, -40, 0, 8, 0, 0.05f, -0.2f, 0, 30);
    for (int i = 0; i < 5; i++)
        assert_true(pki_camera_screen(&k0, out.pb[i], out.sa[i]));
    out.sa[0][1] += 0.015;
    assert_int_equal(pki_camera_certify(&out, PK_CAMERA_GOAL, 1, 125, 200000, &r), 0);
    assert_int_equal(r.verdict, PKI_CERT_REACH);

    pk_camera_key k = cam_key(0, -35, 0, 6, 0, 0.1f, 0.3f, 0.05f, 40);
    pki_cert_frame in = {.n = 5,
                         .pb = {{0, 16, 0}, {-6, 12, 1}, {6, 11, -1}, {-1.5, 1, 0.5}, {1.5, 1, 0}}};
    for (int i = 0; i < 5; i++) {
        assert_true(pki_camera_screen(&k, in.pb[i], in.sa[i]));
        in.sa[i][0] += i & 1 ? 0.01 : -0.01;
        in.sa[i][1] += i & 2 ? 0.01 : 0;
    }
    assert_int_equal(pki_camera_certify(&in, PK_CAMERA_GOAL, 1, 125, 200000, &r), 0);
    assert_int_equal(r.verdict, PKI_CERT_REACH);
    assert_true(r.worst <= PK_CAMERA_GOAL);
    assert_true(r.fov >= 1 && r.fov <= 125 && fabs(r.fov - round(r.fov)) < 1e-9);
    double f = 1 / (2 * tan(r.fov * PI / 360)), worst = 0;
    for (int i = 0; i < 5; i++) {
        double q[3];
        for (int a = 0; a < 3; a++)
            q[a] = r.Q[a][0] * (in.pb[i][0] - r.eye[0]) + r.Q[a][1] * (in.pb[i][1] - r.eye[1]) +
                   r.Q[a][2] * (in.pb[i][2] - r.eye[2]);
        assert_true(q[2] > 0.05);
        worst = fmax(worst, hypot(f * q[0] / q[2] - in.sa[i][0], f * q[1] / q[2] - in.sa[i][1]));
    }
    assert_true(worst <= PK_CAMERA_GOAL && fabs(worst - r.worst) < 1e-9);
}

/* The points of fr seen through the camera k: into fr->sa. */
static void seen_by(const pk_camera_key *k, pki_cert_frame *fr)
{
    for (int i = 0; i < fr->n; i++)
        assert_true(pki_camera_screen(k, fr->pb[i], fr->sa[i]));
}

/* The camera r reprojected: the largest distance of fr's points from A's
 * (every point more than 0.05 in front). */
static double reprojected(const pki_cert_result *r, const pki_cert_frame *fr)
{
    double f = 1 / (2 * tan(r->fov * PI / 360)), worst = 0;
    for (int i = 0; i < fr->n; i++) {
        double q[3];
        for (int a = 0; a < 3; a++)
            q[a] = r->Q[a][0] * (fr->pb[i][0] - r->eye[0]) +
                   r->Q[a][1] * (fr->pb[i][1] - r->eye[1]) +
                   r->Q[a][2] * (fr->pb[i][2] - r->eye[2]);
        assert_true(q[2] > 0.05);
        worst = fmax(worst, hypot(f * q[0] / q[2] - fr->sa[i][0], f * q[1] / q[2] - fr->sa[i][1]));
    }
    return worst;
}

/* A's points for the disc's test: B's (head midway between the hands,
 * feet) seen through a camera rolled 11.25° (the hands' line half way
 * between two of the squares' turns), A's head then moved off the hands'
 * line by h. */
static void off_line(pki_cert_frame *fr, double h)
{
    *fr = (pki_cert_frame){
        .n = 5, .pb = {{0, 10, 0}, {-3, 10, 0}, {3, 10, 0}, {-1, 0, 0.5}, {1, 0, -0.5}}};
    pk_camera_key k = cam_key(0, -40, 0, 8, 0, 0.05f, -0.2f, (float)(11.25 * PI / 180), 30);
    seen_by(&k, fr);
    double t[2] = {fr->sa[2][0] - fr->sa[1][0], fr->sa[2][1] - fr->sa[1][1]};
    double l = hypot(t[0], t[1]);
    fr->sa[0][0] -= h * t[1] / l, fr->sa[0][1] += h * t[0] / l;
}

/* The disc where the squares cannot.  B's head is midway between its
 * hands, so any camera shows it on the segment between the hands' images:
 * with the hands within 2% of A's, the head is within 2% of A's line
 * through the hands, and A's head 2.3 · 2% off that line is out of reach
 * (1.3 · 2% at least).  A square lets a point move up to
 * (cos 11.25° + sin 11.25°) · 2% = 1.18 · 2% across that line (towards
 * its corner), so the squares are slow to rule it out: they leave it open
 * within 55,000 cubes (they need some 64,000), the disc's cones prove it
 * within them (some 48,000).  At 1.95 · 2% off the line a camera is
 * within reach (the one above moved sideways shifts every image by
 * 0.975 · 2% across the line): found and reprojected. */
static void certify_disc_not_squares(void **state)
{
    (void)state;
    const double r = PK_CAMERA_GOAL;
    pki_cert_frame fr;
    off_line(&fr, 2.3 * r);
    pki_cert_result q, d;
    assert_int_equal(pki_camera_certify_shape(&fr, r, 1, 125, 55000, false, &q), 0);
    assert_int_equal(q.verdict, PKI_CERT_OPEN);
    assert_int_equal(pki_camera_certify_shape(&fr, r, 1, 125, 55000, true, &d), 0);
    assert_int_equal(d.verdict, PKI_CERT_OUT);
    assert_true(d.disc_cells > 0);
    off_line(&fr, 1.95 * r);
    assert_int_equal(pki_camera_certify_shape(&fr, r, 1, 125, 200000, true, &d), 0);
    assert_int_equal(d.verdict, PKI_CERT_REACH);
    double w = reprojected(&d, &fr);
    assert_true(w <= r && fabs(w - d.worst) < 1e-9);
}

/* Never out of reach where a camera is known within the goal: points seen
 * through a camera, each of A's moved by up to 1.9% (so that camera leaves
 * 1.9% at most); whatever is found is reprojected.  Within 3,000 cubes a
 * camera is found for nearly all (11 of the 12; the squares' witnesses
 * alone find 2: their cameras must fit the square of half side
 * 2%/√2 or land within the disc from the square's middle). */
static void certify_sound(void **state)
{
    (void)state;
    uint32_t seed = 28;
    int reached = 0;
    for (int c = 0; c < 12; c++) {
        double u[16];
        for (int k = 0; k < 16; k++) {
            seed = seed * 1664525u + 1013904223u;
            u[k] = (seed >> 8) / 16777216.0;
        }
        pk_camera_key k = cam_key(0, (float)(-20 - 30 * u[0]), 0, (float)(4 + 8 * u[1]), 0,
                                  (float)(0.4 * u[2] - 0.2), (float)(PI * (2 * u[3] - 1)), 0,
                                  (uint32_t)(20 + 60 * u[4]));
        pki_cert_frame fr = {.n = 5,
                             .pb = {{0, 16, 0}, {-6, 12, 1}, {6, 11, -1}, {-1.5, 1, 0.5}, {1.5, 1, 0}}};
        seen_by(&k, &fr);
        for (int i = 0; i < 5; i++) {
            double a = 2 * PI * u[5 + 2 * i], m = 0.019 * u[6 + 2 * i];
            fr.sa[i][0] += m * cos(a), fr.sa[i][1] += m * sin(a);
        }
        pki_cert_result r;
        assert_int_equal(pki_camera_certify(&fr, PK_CAMERA_GOAL, 1, 125, 3000, &r), 0);
        assert_true(r.verdict != PKI_CERT_OUT);
        if (r.verdict == PKI_CERT_REACH)
            assert_true(reprojected(&r, &fr) <= PK_CAMERA_GOAL);
        reached += r.verdict == PKI_CERT_REACH;
    }
    assert_true(reached >= 10);
}

/* The search's polish on a frame only a wide lens reaches: the points of
 * frame 45 of the corpus camera (vmd_wavefile_camera.vmd) from the
 * classic skeleton to SD Mei (A's screen points, B's points playing the
 * sized dance), the report's per-frame search from MMD's default camera.
 * No camera with a view angle of 90° or less meets the goal (proved
 * here, some 15,000 cubes); one at 125° does (bench_camera_bound finds it at 2.00%).  The
 * search's 8 rounds of Lawson's reweighting stop at 2.02% with the view
 * angle at 125°; polished (40 more rounds), a camera within the goal,
 * reprojected here. */
static void search_wide_lens(void **state)
{
    (void)state;
    pki_cert_frame fr = {
        .n = 5,
        .sa = {{0.19933038914013509, 0.11717399178851101},
               {0.25340698483089147, 4.5135927644946082e-05},
               {0.14927835233320921, -0.0038103325246040924},
               {0.19523830388537586, -0.19559811625046691},
               {0.18067929197687352, -0.18417025795248923}},
        .pb = {{-0.013523576240092212, 8.2110335951062261, 0.11703899123356168},
               {1.8243414280367189, 4.1704088945107305, 0.45450130816007517},
               {-1.887152008372357, 4.0836303548914206, -0.34973901308003846},
               {0.6466461569070816, 0.61881330335745632, -0.3596405237913114},
               {-0.69816200435161546, 0.61880697516608074, 0.052486404776574014}}};
    pk_camera_key start = cam_key(0, -45, 0, 10, 0, 0, 0, 0, 30);
    pki_cert_result r;
    assert_int_equal(pki_camera_certify(&fr, PK_CAMERA_GOAL, 1, 90, 100000, &r), 0);
    assert_int_equal(r.verdict, PKI_CERT_OUT);
    assert_int_equal(pki_camera_search(&fr, &start, &r), 0);
    assert_int_equal(r.verdict, PKI_CERT_REACH);
    assert_true(r.fov > 90 && r.fov <= 125 && r.fov == round(r.fov));
    double w = reprojected(&r, &fr);
    assert_true(w <= PK_CAMERA_GOAL && fabs(w - r.worst) < 1e-9);
}

static void errors(void **state)
{
    (void)state;
    pk_model *a = body(1), *b = body(1.1);
    pk_motion *d = dance(1, 10), *cam = pk_motion_new();
    pk_camera_options o = {.from = a, .to = b, .dance_from = d, .dance_to = d};
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget_camera(cam, &o, NULL, &log), -1);
    tu_assert_log_has(&log, "no camera key");
    *pk_motion_push_camera(cam) = cam_key(0, -45, 0, 10, 0, 0, 0, 0, 30);
    const char none[] = "posekit_body: 1\nbones: [{name: x, pos: [0, 1, 0]}]\n";
    pk_model *x = pk_body_read(none, strlen(none), &log);
    o.to = x;
    assert_int_equal(pk_motion_retarget_camera(cam, &o, NULL, &log), -1);
    tu_assert_log_has(&log, "share none of 頭");
    assert_true(cam->cameras[0].distance == -45.0f); /* untouched */
    pk_log_free(&log);
    pk_model_free(x);
    pk_motion_free(d);
    pk_motion_free(cam);
    pk_model_free(a);
    pk_model_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(camera_model),          cmocka_unit_test(scaled_model),
        cmocka_unit_test(still_camera_refit),    cmocka_unit_test(leaning_model),
        cmocka_unit_test(lean_turned_for_goal),  cmocka_unit_test(bound_below),
        cmocka_unit_test(bound_global),          cmocka_unit_test(least_change_known),
        cmocka_unit_test(search_wide_lens),
        cmocka_unit_test(certify_out_and_reach), cmocka_unit_test(certify_disc_not_squares),
        cmocka_unit_test(certify_sound),         cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
