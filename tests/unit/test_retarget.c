/* test_retarget.c — rename, then stance, then scale.
 *
 * The stance math (engine/ops/retarget/retarget.c): with r the rotation that turns the
 * source model's rest direction into the target's, the stance bone's
 * rotation q becomes q·r⁻¹ and every bone below it r·q·r⁻¹ (translations
 * r·t).  Checked three ways: a worked numeric example computed by hand, a
 * forward-kinematics check that a posed three-bone arm ends up in the same
 * world place, and a-to-t followed by t-to-a giving the input back.
 * pki_fit_track (retarget_fit.c): its refusals before the fitter refuse
 * nothing the fitter takes. */
#include "testutil.h"
#include "math/curve.h"
#include "ops/retarget/retarget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* ---- independent quaternion math (Hamilton, x,y,z,w; v' = q v q*) ---- */

static void qmul(const double a[4], const double b[4], double o[4])
{
    double r[4] = {
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    };
    memcpy(o, r, sizeof r);
}

static void qrot(const double q[4], const double v[3], double o[3])
{
    double p[4] = {v[0], v[1], v[2], 0}, c[4] = {-q[0], -q[1], -q[2], q[3]}, t[4];
    qmul(q, p, t);
    qmul(t, c, t);
    o[0] = t[0];
    o[1] = t[1];
    o[2] = t[2];
}

static void axis_angle(double x, double y, double z, double deg, double q[4])
{
    double n = sqrt(x * x + y * y + z * z), h = deg * PI / 360.0;
    q[0] = x / n * sin(h);
    q[1] = y / n * sin(h);
    q[2] = z / n * sin(h);
    q[3] = cos(h);
}

static pk_pose_bone *pose_bone(pk_pose *p, const char *name, const double q[4])
{
    pk_pose_bone *b = pk_pose_push_bone(p);
    assert_non_null(b);
    b->name = tu_intern(p->names, name);
    for (int i = 0; i < 4; i++)
        b->rot[i] = (float)q[i];
    return b;
}

static const pk_pose_bone *find(const pk_pose *p, const char *name)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(name, &raw, &len), 0);
    pk_name_id id = pk_names_find(p->names, raw, len);
    free(raw);
    long i = id == PK_NO_NAME ? -1 : pk_pose_find_bone(p, id);
    assert_true(i >= 0);
    return &p->bones[i];
}

static void get_q(const pk_pose_bone *b, double q[4])
{
    for (int i = 0; i < 4; i++)
        q[i] = b->rot[i];
}

static pk_rules *rules_file(const char *name)
{
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/rules/%s", src, name);
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_load(path, &log);
    assert_non_null(r);
    pk_log_free(&log);
    return r;
}

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6)

/* Worked example, r = 35° about Z = (0, 0, sin 17.5°, cos 17.5°)
 *                                 = (0, 0, 0.3007057995, 0.9537169507).
 *  - 左腕 at rest (q = identity) becomes r⁻¹ = (0, 0, -0.3007058, 0.9537170).
 *  - 左ひじ with q = 90° about X = (0.7071068, 0, 0, 0.7071068): conjugating
 *    by r turns the axis: r·X = (cos 35°, sin 35°, 0) = (0.8191520,
 *    0.5735764, 0), so r·q·r⁻¹ = (0.7071068·0.8191520, 0.7071068·0.5735764,
 *    0, 0.7071068) = (0.5792280, 0.4055798, 0, 0.7071068).
 *  - its translation (1, 0, 0) becomes r·(1,0,0) = (0.8191520, 0.5735764, 0). */
static void test_worked_example(void **state)
{
    (void)state;
    pk_rules *r =
        tu_rules("stance:\n  - {bone: 左腕, rotate: [0, 0, 35], chain: [左ひじ]}\n", "s.yaml");
    pk_pose *p = pk_pose_new();
    double id[4] = {0, 0, 0, 1}, qx[4] = {0.70710678118654752, 0, 0, 0.70710678118654752};
    pose_bone(p, "左腕", id);
    pk_pose_bone *e = pose_bone(p, "左ひじ", qx);
    e->pos[0] = 1.0f;
    pose_bone(p, "センター", qx); /* not in the chain: untouched */
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_pose_retarget(p, r, &st, &log), 0);
    const pk_pose_bone *a = find(p, "左腕");
    NEAR(a->rot[0], 0);
    NEAR(a->rot[1], 0);
    NEAR(a->rot[2], -0.3007057995);
    NEAR(a->rot[3], 0.9537169507);
    const pk_pose_bone *b = find(p, "左ひじ");
    NEAR(b->rot[0], 0.5792279653);
    NEAR(b->rot[1], 0.4055797876);
    NEAR(b->rot[2], 0);
    NEAR(b->rot[3], 0.7071067812);
    NEAR(b->pos[0], 0.8191520443);
    NEAR(b->pos[1], 0.5735764364);
    NEAR(b->pos[2], 0);
    const pk_pose_bone *c = find(p, "センター");
    assert_true(c->rot[0] == (float)qx[0] && c->rot[3] == (float)qx[3]);
    assert_int_equal(st.keys_changed, 2);
    assert_int_equal(st.keys_added, 0);
    pk_edit_stats_free(&st);
    pk_log_free(&log);
    pk_pose_free(p);
    pk_rules_free(r);
}

/* Forward kinematics of a posed three-bone arm (arm, elbow, wrist) under a
 * posed parent P.  The source model rests 35° below horizontal, the target
 * horizontal; after a-to-t-stance.yaml the elbow, wrist and hand tip must be
 * at the same world positions. */
static void fk(const double P[4], double q[3][4], const double dir[3], const double len[3],
               double out[3][3])
{
    double acc[4], pos[3] = {0, 0, 0};
    memcpy(acc, P, sizeof acc);
    for (int i = 0; i < 3; i++) {
        qmul(acc, q[i], acc);
        double seg[3] = {dir[0] * len[i], dir[1] * len[i], dir[2] * len[i]}, w[3];
        qrot(acc, seg, w);
        for (int k = 0; k < 3; k++)
            pos[k] += w[k];
        memcpy(out[i], pos, sizeof pos);
    }
}

static void test_world_direction_kept(void **state)
{
    (void)state;
    pk_rules *r = rules_file("a-to-t-stance.yaml");
    if (!r)
        skip();
    double P[4], q[3][4];
    axis_angle(0.2, 1, 0.1, 30, P); /* the upper body turned */
    axis_angle(0.3, -0.5, 1, 40, q[0]);
    axis_angle(0, 1, 0.2, -70, q[1]);
    axis_angle(1, 0.4, -0.3, 25, q[2]);
    double c35 = cos(35 * PI / 180), s35 = sin(35 * PI / 180);
    double src_dir[3] = {c35, -s35, 0}, dst_dir[3] = {1, 0, 0}, len[3] = {2.0, 1.8, 0.6};
    double before[3][3], after[3][3];
    fk(P, q, src_dir, len, before);

    pk_pose *p = pk_pose_new();
    pose_bone(p, "左腕", q[0]);
    pose_bone(p, "左ひじ", q[1]);
    pose_bone(p, "左手首", q[2]);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_pose_retarget(p, r, NULL, &log), 0);
    double t[3][4];
    get_q(find(p, "左腕"), t[0]);
    get_q(find(p, "左ひじ"), t[1]);
    get_q(find(p, "左手首"), t[2]);
    fk(P, t, dst_dir, len, after);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            assert_true(fabs(before[i][k] - after[i][k]) < 1e-5);
    /* And the arm really moved in local terms (the test could fail). */
    assert_true(fabs(t[0][2] - q[0][2]) > 0.1);
    /* The right arm had no entry and nothing of its chain has one: the rule
     * does not apply, a warning and no entry. */
    assert_int_equal(p->nbones, 3);
    assert_int_equal(log.warnings, 1);
    pk_log_free(&log);
    pk_pose_free(p);
    pk_rules_free(r);
}

/* a-to-t then t-to-a gives the rotations back (float rounding aside). */
static void test_inverse_files(void **state)
{
    (void)state;
    pk_rules *a = rules_file("a-to-t-stance.yaml"), *b = rules_file("t-to-a-stance.yaml");
    if (!a || !b)
        skip();
    pk_motion *m = pk_motion_new();
    const char *names[] = {"左腕", "左ひじ", "右腕", "右手首", "センター"};
    for (int i = 0; i < 5; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = tu_intern(m->names, names[i]);
        double q[4];
        axis_angle(i + 1.0, 2.0 - i, 0.5, 20.0 * (i + 1), q);
        for (int j = 0; j < 4; j++)
            k->rot[j] = (float)q[j];
        k->pos[0] = 0.25f * (float)i;
        pk_interp_linear(k->interp);
    }
    pk_motion *orig = pk_motion_clone(m);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget(m, a, NULL, &log), 0);
    assert_true(fabs(m->bones[0].rot[2] - orig->bones[0].rot[2]) > 0.01);
    assert_int_equal(pk_motion_retarget(m, b, NULL, &log), 0);
    assert_int_equal(m->nbones, orig->nbones);
    for (size_t i = 0; i < m->nbones; i++)
        for (int j = 0; j < 4; j++)
            assert_true(fabs(m->bones[i].rot[j] - orig->bones[i].rot[j]) < 1e-6);
    pk_log_free(&log);
    pk_motion_free(m);
    pk_motion_free(orig);
    pk_rules_free(a);
    pk_rules_free(b);
}

/* A motion moving its chain but not keying the stance bone gets a frame-0
 * key; a motion without bone keys is left alone. */
static void test_added_key(void **state)
{
    (void)state;
    pk_rules *r =
        tu_rules("stance:\n  - {bone: 左腕, rotate: [0, 0, 35], chain: [センター]}\n", "s.yaml");
    pk_motion *m = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(m);
    k->name = tu_intern(m->names, "センター");
    k->frame = 10;
    k->pos[1] = 1; /* off rest: the chain moves */
    k->rot[3] = 1;
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_retarget(m, r, &st, &log), 0);
    assert_int_equal(m->nbones, 2);
    assert_int_equal(st.keys_added, 1);
    assert_string_equal(pk_names_utf8(m->names, m->bones[1].name), "左腕");
    assert_int_equal(m->bones[1].frame, 0);
    NEAR(m->bones[1].rot[2], -sin(17.5 * PI / 180));
    uint8_t lin[64];
    pk_interp_linear(lin);
    assert_memory_equal(m->bones[1].interp, lin, 64);
    pk_edit_stats_free(&st);
    pk_motion_free(m);

    /* a stance bone that needs a new key but has no VMD form (16 bytes):
     * an error at the rule's line and column, nothing added */
    pk_rules *longr =
        tu_rules("scale: {default: 1}\nstance:\n"
                 "  - {bone: sixteen_bytes_ab, rotate: [0, 0, 35], chain: [センター]}\n",
                 "s.yaml");
    m = pk_motion_new();
    k = pk_motion_push_bone(m);
    k->name = tu_intern(m->names, "センター");
    k->pos[1] = 1;
    k->rot[3] = 1;
    assert_int_equal(pk_motion_retarget(m, longr, NULL, &log), -1);
    tu_assert_log_has(&log, "s.yaml:3:");
    tu_assert_log_has(&log, "stance bone 'sixteen_bytes_ab' needs a key but its name is 16 bytes; "
                            "a VMD bone name holds 15");
    assert_int_equal(m->nbones, 1);
    pk_motion_free(m);
    /* the same name fits a VPD (19 bytes): the pose gets an entry */
    pk_pose *p = pk_pose_new();
    const double turned[4] = {0, 0.6, 0, 0.8};
    pose_bone(p, "センター", turned);
    assert_int_equal(pk_pose_retarget(p, longr, NULL, &log), 0);
    assert_int_equal(p->nbones, 2);
    assert_string_equal(pk_names_utf8(p->names, p->bones[1].name), "sixteen_bytes_ab");
    NEAR(p->bones[1].rot[2], -sin(17.5 * PI / 180));
    pk_pose_free(p);
    pk_rules_free(longr);

    m = pk_motion_new();
    pk_morph_key *mk = pk_motion_push_morph(m);
    mk->name = tu_intern(m->names, "あ");
    assert_int_equal(pk_motion_retarget(m, r, NULL, &log), 0);
    assert_int_equal(m->nbones, 0);
    pk_motion_free(m);
    pk_log_free(&log);
    pk_rules_free(r);
}

/* A stance bone that is absent, with no bone of its chain
 * keyed, does not apply to this model: a warning, nothing added (a motion
 * renamed to English keeps arm_L, and must not get a 左腕 key). */
static void test_absent_stance_adds_nothing(void **state)
{
    (void)state;
    pk_rules *r =
        tu_rules("stance:\n  - {bone: 左腕, rotate: [0, 0, 35], chain: [左ひじ]}\n", "s.yaml");
    pk_motion *m = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(m);
    k->name = tu_intern(m->names, "arm_L");
    k->rot[3] = 1;
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_retarget(m, r, &st, &log), 0);
    assert_int_equal(m->nbones, 1);
    assert_int_equal(st.keys_added, 0);
    assert_int_equal(st.keys_changed, 0);
    assert_int_equal(log.warnings, 1);
    pk_pose *p = pk_pose_new();
    const double id[4] = {0, 0, 0, 1};
    pose_bone(p, "arm_L", id);
    assert_int_equal(pk_pose_retarget(p, r, &st, &log), 0);
    assert_int_equal(p->nbones, 1);
    assert_int_equal(log.warnings, 2);
    pk_pose_free(p);
    pk_edit_stats_free(&st);
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* A chain whose keys are all at rest is not "there": MMD shows a resting
 * key as it shows no key, and exporters key every bone at rest at frame 0.
 * The case of doc/commands.md "With rules": a motion renamed to English by
 * ja-en.yaml keeps the Japanese finger tips (左中指先 ...), resting, which
 * @arm_below_L's globs match; its arm is arm_L.  Adding 左腕 at -35° would
 * turn nothing the motion moves: a warning naming the resting chain, no
 * key.  One chain key off rest and the key is added again. */
static void test_resting_chain_adds_nothing(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("stance:\n  - {bone: 左腕, rotate: [0, 0, 35], chain: "
                           "[\"@arm_below_L\"]}\n",
                           "s.yaml");
    pk_motion *m = pk_motion_new();
    static const char *const names[] = {"arm_L", "elbow_L", "左中指先", "左小指先"};
    for (size_t i = 0; i < 4; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = tu_intern(m->names, names[i]);
        /* the English bones move; the Japanese tips rest, one of them
         * stored as all zeros (the identity too) */
        k->rot[2] = i < 2 ? 0.3f : 0.0f;
        k->rot[3] = i < 2 ? 0.9539392f : i == 3 ? 0.0f : 1.0f;
    }
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_retarget(m, r, &st, &log), 0);
    assert_int_equal(m->nbones, 4);
    assert_int_equal(st.keys_added, 0);
    assert_int_equal(log.warnings, 1);
    tu_assert_log_has(&log, "stance bone '左腕' is not in the motion and no bone of its chain "
                            "moves (2 keys of it, all at rest, the first '左中指先'); nothing "
                            "added for it");
    pk_edit_stats_free(&st);
    /* the same tip bent: the chain moves, 左腕 gets its key */
    m->bones[2].rot[0] = 0.2f;
    m->bones[2].rot[3] = 0.9797959f;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_retarget(m, r, &st, &log), 0);
    assert_int_equal(m->nbones, 5);
    assert_int_equal(st.keys_added, 1);
    assert_string_equal(pk_names_utf8(m->names, m->bones[4].name), "左腕");
    assert_int_equal(log.warnings, 1);
    pk_edit_stats_free(&st);
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* Keys changed are keys whose bytes changed, each once:
 * a key at the origin under a scale, an identity key conjugated, and a key
 * in two stance chains count as what they are. */
static void test_keys_changed_counts_bytes(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("stance:\n  - {bone: 左腕, rotate: [0, 0, 35], chain: [左ひじ]}\n"
                           "  - {bone: 右腕, rotate: [0, 0, -35], chain: [左ひじ]}\n"
                           "scale:\n  default: 2\n",
                           "s.yaml");
    pk_motion *m = pk_motion_new();
    const char *names[] = {"センター", "左ひじ", "左ひじ", "左腕", "右腕"};
    for (int i = 0; i < 5; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = tu_intern(m->names, names[i]);
        k->frame = (uint32_t)i;
        k->rot[3] = 1;
    }
    m->bones[2].rot[0] = 0.6f; /* a turned elbow: conjugation changes it */
    m->bones[2].rot[3] = 0.8f;
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_retarget(m, r, &st, &log), 0);
    /* センター at the origin: same bytes; the resting elbow: r·1·r⁻¹ = 1;
     * the turned elbow (in two chains) once; both arms */
    assert_int_equal(st.keys_changed, 3);
    pk_edit_stats_free(&st);
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* A zero or NaN rotation is no rotation for every
 * operation; retarget turns it as it turns the identity. */
static void test_degenerate_rotation_is_identity(void **state)
{
    (void)state;
    pk_rules *r =
        tu_rules("stance:\n  - {bone: 左腕, rotate: [0, 0, 35], chain: [左ひじ]}\n", "s.yaml");
    pk_motion *m = pk_motion_new();
    const char *names[] = {"左腕", "左腕", "左腕", "左ひじ", "左ひじ"};
    const float rots[5][4] = {
        {0, 0, 0, 1}, {0, 0, 0, 0}, {NAN, 0, 0, NAN}, {0, 0, 0, 1}, {0, 0, 0, 0}};
    for (int i = 0; i < 5; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = tu_intern(m->names, names[i]);
        k->frame = (uint32_t)(i % 3);
        memcpy(k->rot, rots[i], sizeof k->rot);
    }
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget(m, r, NULL, &log), 0);
    assert_memory_equal(m->bones[1].rot, m->bones[0].rot, sizeof m->bones[0].rot);
    assert_memory_equal(m->bones[2].rot, m->bones[0].rot, sizeof m->bones[0].rot);
    assert_memory_equal(m->bones[4].rot, m->bones[3].rot, sizeof m->bones[3].rot);
    NEAR(m->bones[1].rot[2], -sin(17.5 * PI / 180));
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* Rename first: stance and scale name bones as renamed; scale multiplies
 * translations by the bone's factor or the default. */
static void test_rename_scale(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("rename:\n  センター: center\n  左腕: arm_L\n"
                           "stance:\n  - {bone: arm_L, rotate: [0, 0, 35]}\n"
                           "scale:\n  default: 0.5\n  bones: {center: 0.9, \"*IK\": 2}\n",
                           "s.yaml");
    pk_pose *p = pk_pose_new();
    double id[4] = {0, 0, 0, 1};
    pk_pose_bone *b = pose_bone(p, "センター", id);
    b->pos[0] = 10;
    b->pos[1] = -20;
    b = pose_bone(p, "左腕", id);
    b = pose_bone(p, "leg_IK", id);
    b->pos[2] = 3;
    b = pose_bone(p, "グルーブ", id);
    b->pos[1] = 4;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_pose_retarget(p, r, NULL, &log), 0);
    const pk_pose_bone *c = find(p, "center");
    assert_true(c->pos[0] == (float)(10 * 0.9) && c->pos[1] == (float)(-20 * 0.9));
    NEAR(find(p, "arm_L")->rot[2], -sin(17.5 * PI / 180));
    assert_true(find(p, "leg_IK")->pos[2] == 6.0f);
    assert_true(find(p, "グルーブ")->pos[1] == 2.0f);
    pk_log_free(&log);
    pk_pose_free(p);
    pk_rules_free(r);
}

/* A failing step leaves the motion exactly as it was. */
static void test_failure_untouched(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("rename:\n  センター: sixteen_bytes_ab\n"
                           "scale:\n  default: 2\n",
                           "s.yaml");
    pk_motion *m = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(m);
    k->name = tu_intern(m->names, "センター");
    k->pos[0] = 1;
    k->rot[3] = 1;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_retarget(m, r, NULL, &log), -1);
    tu_assert_log_has(&log, "would become 'sixteen_bytes_ab'");
    assert_string_equal(pk_names_utf8(m->names, m->bones[0].name), "センター");
    assert_true(m->bones[0].pos[0] == 1.0f);
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* A track keyed every 10 frames with eased curves, sampled at every
 * frame, then bumped on frames 43..47 and moved 0.3 along X from frame 70
 * on: pki_fit_track_keep keeps the timing and curves of every key whose
 * stretch the new values still follow (the values now the samples'),
 * fits only 40..50 and 60..70, and stays within the tolerances at every
 * frame; with every stretch changed it gives what pki_fit_track gives. */
static void test_fit_keeps_clean_stretches(void **state)
{
    (void)state;
    enum { N = 100, STEP = 10, NK = N / STEP + 1 };
    const double tol_deg = 0.05, tol_pos = 0.005;
    pk_motion *src = pk_motion_new();
    assert_non_null(src);
    const uint8_t ease[4][4] = {
        {90, 10, 40, 120}, {20, 20, 107, 107}, {20, 20, 107, 107}, {100, 0, 27, 127}};
    for (int j = 0; j < NK; j++) {
        pk_bone_key *k = pk_motion_push_bone(src);
        assert_non_null(k);
        k->frame = (uint32_t)(j * STEP);
        k->pos[0] = (float)(j % 2 ? 1.5 : -0.5 + 0.1 * j);
        double a = 0.3 * (j % 3);
        k->rot[2] = (float)sin(a / 2);
        k->rot[3] = (float)cos(a / 2);
        pk_interp_set(k->interp, ease, false);
    }
    uint32_t idx[NK];
    for (int j = 0; j < NK; j++)
        idx[j] = (uint32_t)j;
    pk_track t = {0, idx, NK};
    pk_cursor c;
    pk_cursor_init(&c, src, &t);
    static float pos[N + 1][3], rot[N + 1][4];
    uint32_t fr[N + 1];
    for (uint32_t f = 0; f <= N; f++) {
        pk_cursor_bone(&c, f, pos[f], rot[f]);
        fr[f] = f;
        if (f >= 43 && f <= 47)
            pos[f][1] += 0.02f * (float)(f - 42);
        if (f >= 70)
            pos[f][0] += 0.3f;
    }
    pki_curve_cache *cache = pki_curve_cache_new();
    assert_non_null(cache);
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    pki_fit_out fo;
    assert_int_equal(pki_fit_track_keep((const float(*)[3])pos, (const float(*)[4])rot, 0, fr,
                                        N + 1, src->bones, NK, 0, tol_deg, tol_pos, cache, m, &fo),
                     0);
    assert_true(fo.worst_deg <= tol_deg && fo.worst_pos <= tol_pos);
    size_t kept = 0, fitted = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_bone_key *k = &m->bones[i];
        if (i)
            assert_true(k->frame > m->bones[i - 1].frame);
        if ((k->frame > 40 && k->frame <= 50) || (k->frame > 60 && k->frame <= 70)) {
            fitted++;
            continue;
        }
        assert_true(k->frame % STEP == 0);
        assert_memory_equal(k->interp, src->bones[k->frame / STEP].interp, sizeof k->interp);
        assert_memory_equal(k->pos, pos[k->frame], sizeof k->pos);
        assert_memory_equal(k->rot, rot[k->frame], sizeof k->rot);
        kept++;
    }
    assert_int_equal(kept, NK - 2);
    assert_true(fitted >= 2);
    /* every stretch changed: the plain fit, record for record */
    for (uint32_t f = 0; f <= N; f++)
        pos[f][2] = (float)(0.05 * sin(f * PI / 3.0));
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(pki_fit_track_keep((const float(*)[3])pos, (const float(*)[4])rot, 0, fr,
                                        N + 1, src->bones, NK, 0, tol_deg, tol_pos, cache, a, &fo),
                     0);
    assert_int_equal(pki_fit_track((const float(*)[3])pos, (const float(*)[4])rot, 0, fr, N + 1, 0,
                                   tol_deg, tol_pos, cache, b, &fo),
                     0);
    assert_int_equal(a->nbones, b->nbones);
    assert_memory_equal(a->bones, b->bones, a->nbones * sizeof *a->bones);
    pk_motion_free(a);
    pk_motion_free(b);
    pk_motion_free(m);
    pk_motion_free(src);
    pki_curve_cache_free(cache);
}

/* The keys pki_fit_track gives a track of n + 1 frames whose only
 * candidate frames are its ends. */
static size_t fit_ends(const float (*pos)[3], const float (*rot)[4], uint32_t n, double tol_deg,
                       double tol_pos)
{
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    pki_curve_cache *cache = pki_curve_cache_new();
    assert_non_null(cache);
    uint32_t fr[2] = {0, n};
    pki_fit_out fo;
    assert_int_equal(pki_fit_track(pos, rot, 0, fr, 2, 0, tol_deg, tol_pos, cache, m, &fo), 0);
    assert_true(fo.worst_deg <= tol_deg && fo.worst_pos <= tol_pos);
    size_t keys = m->nbones;
    pki_curve_cache_free(cache);
    pk_motion_free(m);
    return keys;
}

/* A rotation whose middle frames leave the arc by 0.9 of the tolerance
 * (tilted about X off a turn about Z), and a translation within 0.7 of
 * the tolerance of a straight move that turns back by 1.2 of it between
 * frames (under the twice the fitter allows): both within the tolerance
 * of the straight curve, one piece each.  A refusal by products with a
 * bound a fifth too tight, or a turn back of one tolerance, gives each a
 * key at every frame. */
static void test_fit_refuses_only_what_misses(void **state)
{
    (void)state;
    enum { N = 60 };
    static float pos[N + 1][3], rot[N + 1][4];
    const double tol_deg = 0.5, tol_pos = 0.1, tilt = 0.9 * tol_deg * PI / 180.0;
    for (int i = 0; i <= N; i++) {
        double z = (PI / 3.0) * i / N / 2.0, x = i > 0 && i < N ? tilt / 2.0 : 0.0;
        double qz[4] = {0, 0, sin(z), cos(z)}, qx[4] = {sin(x), 0, 0, cos(x)}, q[4];
        qmul(qz, qx, q);
        for (int k = 0; k < 4; k++)
            rot[i][k] = (float)q[k];
        pos[i][0] = pos[i][1] = pos[i][2] = 0;
    }
    assert_int_equal(fit_ends((const float(*)[3])pos, (const float(*)[4])rot, N, tol_deg, tol_pos),
                     2);
    for (int i = 0; i <= N; i++) {
        double bump = i > 0 && i < N ? (i % 2 ? 0.07 : -0.07) : 0.0;
        pos[i][0] = (float)((double)i / N + bump);
        rot[i][0] = rot[i][1] = rot[i][2] = 0;
        rot[i][3] = 1;
    }
    assert_int_equal(fit_ends((const float(*)[3])pos, (const float(*)[4])rot, N, tol_deg, tol_pos),
                     2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_world_direction_kept),
        cmocka_unit_test(test_inverse_files),
        cmocka_unit_test(test_added_key),
        cmocka_unit_test(test_resting_chain_adds_nothing),
        cmocka_unit_test(test_absent_stance_adds_nothing),
        cmocka_unit_test(test_keys_changed_counts_bytes),
        cmocka_unit_test(test_degenerate_rotation_is_identity),
        cmocka_unit_test(test_rename_scale),
        cmocka_unit_test(test_failure_untouched),
        cmocka_unit_test(test_fit_refuses_only_what_misses),
        cmocka_unit_test(test_fit_keeps_clean_stretches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
