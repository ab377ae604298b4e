/* test_mirror.c — left/right mirroring: name swaps at the start and end,
 * exact sign flips of bones, camera and light, refusal of asymmetric or
 * colliding rules, and mirror∘mirror = identity over the corpus (bytes). */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pk_bone_key *add_bone(pk_motion *m, const char *name)
{
    pk_name_id id = tu_intern(m->names, name);
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = id;
    k->pos[0] = 1.5f;
    k->pos[1] = -2.0f;
    k->pos[2] = 3.0f;
    k->rot[0] = 0.1f;
    k->rot[1] = 0.2f;
    k->rot[2] = -0.3f;
    k->rot[3] = 0.9f;
    return k;
}

static const char *bname(const pk_motion *m, size_t i)
{
    return pk_names_utf8(m->names, m->bones[i].name);
}

static void test_names_and_values(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    add_bone(m, "左腕");
    add_bone(m, "右ひじ");
    add_bone(m, "腰キャンセル左");
    add_bone(m, "センター");
    add_bone(m, "左右"); /* the prefix wins: 右右, and back */
    pk_morph_key *mk = pk_motion_push_morph(m);
    mk->name = tu_intern(m->names, "ウィンク右");
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_mirror(m, NULL, &st, &log), 0);
    assert_string_equal(bname(m, 0), "右腕");
    assert_string_equal(bname(m, 1), "左ひじ");
    assert_string_equal(bname(m, 2), "腰キャンセル右");
    assert_string_equal(bname(m, 3), "センター"); /* unpaired: in place */
    assert_string_equal(bname(m, 4), "右右");
    /* Morphs swap too: MMD's wink pair by its whole names (built-in
     * morph_mirror), checked in test_morphs. */
    assert_string_equal(pk_names_utf8(m->names, m->morphs[0].name), "ウィンク");
    for (size_t i = 0; i < m->nbones; i++) {
        /* (x,y,z) -> (-x,y,z); (x,y,z,w) -> (x,-y,-z,w) */
        assert_true(m->bones[i].pos[0] == -1.5f);
        assert_true(m->bones[i].pos[1] == -2.0f);
        assert_true(m->bones[i].pos[2] == 3.0f);
        assert_true(m->bones[i].rot[0] == 0.1f);
        assert_true(m->bones[i].rot[1] == -0.2f);
        assert_true(m->bones[i].rot[2] == 0.3f);
        assert_true(m->bones[i].rot[3] == 0.9f);
    }
    assert_int_equal(st.bones, 5);
    assert_int_equal(st.bones_renamed, 4);
    assert_int_equal(st.nunmatched, 1); /* センター */
    assert_string_equal(st.unmatched[0], "センター");
    pk_edit_stats_free(&st);
    assert_int_equal(pk_motion_mirror(m, NULL, NULL, &log), 0);
    assert_string_equal(bname(m, 0), "左腕");
    assert_string_equal(bname(m, 4), "左右");
    assert_true(m->bones[0].rot[1] == 0.2f);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    pk_motion_free(m);
}

static const char *mname(const pk_motion *m, size_t i)
{
    return pk_names_utf8(m->names, m->morphs[i].name);
}

/* Morphs swap left and right.  Whole-name pairs first
 * (MMD's wink morphs name one side only), then the bone fragments (困り左,
 * 左手グー); an unpaired morph stays; twice gives the same names and keys;
 * a file's morph_mirror replaces the built-in pairs. */
static void test_morphs(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    const char *names[] = {"ウィンク", "ウィンク右", "ウィンク２", "ｳｨﾝｸ２右",
                           "困り左",   "右手グー",   "あ"};
    for (uint32_t i = 0; i < 7; i++) {
        pk_morph_key *k = pk_motion_push_morph(m);
        k->name = tu_intern(m->names, names[i]);
        k->frame = i;
        k->weight = 0.1f * (float)i;
    }
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_mirror(m, NULL, &st, &log), 0);
    const char *want[] = {"ウィンク右", "ウィンク", "ｳｨﾝｸ２右", "ウィンク２",
                          "困り右",     "左手グー", "あ"};
    for (size_t i = 0; i < 7; i++) {
        assert_string_equal(mname(m, i), want[i]);
        assert_true(m->morphs[i].weight == 0.1f * (float)i); /* weights and order kept */
    }
    assert_int_equal(st.morphs, 7);
    assert_int_equal(st.morphs_renamed, 6);
    pk_edit_stats_free(&st);
    assert_int_equal(pk_motion_mirror(m, NULL, NULL, &log), 0);
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(mname(m, i), names[i]);

    /* a pose: the same transform */
    pk_pose *p = pk_pose_new();
    pk_pose_morph *pm = pk_pose_push_morph(p);
    pm->name = tu_intern(p->names, "ウィンク");
    assert_int_equal(pk_pose_mirror(p, NULL, NULL, &log), 0);
    assert_string_equal(pk_names_utf8(p->names, p->morphs[0].name), "ウィンク右");
    pk_pose_free(p);

    /* a file's own morph_mirror: only its pairs (and the fragments) */
    const char *yaml = "morph_mirror:\n  - [eye_close_L, wink_R]\n";
    pk_rules *r = pk_rules_parse(yaml, strlen(yaml), "m.yaml", &log);
    assert_non_null(r);
    pk_motion *m2 = pk_motion_new();
    const char *n2[] = {"eye_close_L", "ウィンク"};
    for (uint32_t i = 0; i < 2; i++) {
        pk_morph_key *k = pk_motion_push_morph(m2);
        k->name = tu_intern(m2->names, n2[i]);
    }
    assert_int_equal(pk_motion_mirror(m2, r, NULL, &log), 0);
    assert_string_equal(mname(m2, 0), "wink_R");
    assert_string_equal(mname(m2, 1), "ウィンク");
    /* an unsymmetric pair is refused before anything changes */
    const char *bad = "morph_mirror:\n  - [ウィンク, ウィンク右]\n  - [ウィンク右, あ]\n";
    pk_rules *rb = pk_rules_parse(bad, strlen(bad), "b.yaml", &log);
    assert_non_null(rb);
    pk_log_free(&log);
    pk_log_init(&log);
    pk_morph_key *k = pk_motion_push_morph(m2);
    k->name = tu_intern(m2->names, "あ"); /* あ -> ウィンク右 -> ウィンク */
    assert_int_equal(pk_motion_mirror(m2, rb, NULL, &log), -1);
    tu_assert_log_has(&log, "mirror pairs are not symmetric for morph 'あ'");
    assert_string_equal(mname(m2, 1), "ウィンク"); /* nothing changed */
    pk_rules_free(r);
    pk_rules_free(rb);
    pk_motion_free(m2);
    pk_log_free(&log);
    pk_motion_free(m);
}

/* A mirrored rotation shows the mirrored pose: rotating the mirrored vector
 * by the mirrored quaternion equals mirroring the rotated vector. */
static void rotate(const float q[4], const double v[3], double out[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]),
           tz = 2 * (x * v[1] - y * v[0]);
    out[0] = v[0] + w * tx + (y * tz - z * ty);
    out[1] = v[1] + w * ty + (z * tx - x * tz);
    out[2] = v[2] + w * tz + (x * ty - y * tx);
}

static void test_rotation_is_reflection(void **state)
{
    (void)state;
    pk_pose *p = pk_pose_new();
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = tu_intern(p->names, "左腕");
    /* A unit quaternion: about (1,2,3)/|.| by 50 degrees. */
    double s = 0.42261826174069944 / 3.7416573867739413; /* sin 25° / |(1,2,3)| */
    float q[4] = {(float)s, (float)(2 * s), (float)(3 * s), 0.90630778703665f};
    memcpy(b->rot, q, sizeof q);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_pose_mirror(p, NULL, NULL, &log), 0);
    assert_string_equal(pk_names_utf8(p->names, p->bones[0].name), "右腕");
    double v[3] = {0.3, -0.7, 0.2}, mv[3] = {-0.3, -0.7, 0.2}, a[3], c[3];
    rotate(q, v, a);
    rotate(p->bones[0].rot, mv, c);
    assert_true(fabs(c[0] + a[0]) < 1e-6);
    assert_true(fabs(c[1] - a[1]) < 1e-6);
    assert_true(fabs(c[2] - a[2]) < 1e-6);
    pk_log_free(&log);
    pk_pose_free(p);
}

static void test_camera_light(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_camera_key *c = pk_motion_push_camera(m);
    c->distance = -45.0f;
    c->pos[0] = 1.0f;
    c->pos[1] = 10.0f;
    c->pos[2] = -2.0f;
    c->rot[0] = 0.1f;
    c->rot[1] = 0.5f;
    c->rot[2] = -0.25f;
    c->fov = 30;
    pk_light_key *l = pk_motion_push_light(m);
    l->direction[0] = -0.5f;
    l->direction[1] = -1.0f;
    l->direction[2] = 0.5f;
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_mirror(m, NULL, NULL, &log), 0);
    c = &m->cameras[0];
    assert_true(c->pos[0] == -1.0f && c->pos[1] == 10.0f && c->pos[2] == -2.0f);
    assert_true(c->rot[0] == 0.1f && c->rot[1] == -0.5f && c->rot[2] == 0.25f);
    assert_true(c->distance == -45.0f);
    l = &m->lights[0];
    assert_true(l->direction[0] == 0.5f && l->direction[1] == -1.0f && l->direction[2] == 0.5f);
    pk_log_free(&log);
    pk_motion_free(m);
}

/* Rules' pairs replace the default; asymmetric pairs are refused before
 * anything changes; collisions name both bones. */
static void test_rules_pairs(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("mirror:\n  - [_L, _R]\n", "m.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "arm_L");
    add_bone(m, "左腕"); /* 左/右 is not in these rules */
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_mirror(m, r, NULL, &log), 0);
    assert_string_equal(bname(m, 0), "arm_R");
    assert_string_equal(bname(m, 1), "左腕");
    pk_rules_free(r);
    pk_motion_free(m);

    /* L and 左 both become 右: 左X -> 右X but 右X -> 左X, so LX would not
     * come back. */
    r = tu_rules("mirror:\n  - [左, 右]\n  - [L, 右]\n", "m.yaml");
    m = pk_motion_new();
    add_bone(m, "LX");
    add_bone(m, "左X");
    assert_int_equal(pk_motion_mirror(m, r, NULL, &log), -1);
    tu_assert_log_has(&log, "not symmetric for bone 'LX'");
    assert_string_equal(bname(m, 0), "LX");
    assert_true(m->bones[0].pos[0] == 1.5f); /* values untouched too */
    pk_rules_free(r);
    pk_motion_free(m);
    pk_log_free(&log);

    /* A swap that makes a name too long for VMD is an error naming it. */
    r = tu_rules("mirror:\n  - [左, 右側の長い名前]\n", "m.yaml");
    m = pk_motion_new();
    add_bone(m, "左腕捩れの骨");
    pk_log_init(&log);
    assert_int_equal(pk_motion_mirror(m, r, NULL, &log), -1);
    tu_assert_log_has(&log, "bone '左腕捩れの骨' would become '右側の長い名前腕捩れの骨'");
    pk_rules_free(r);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* ---- corpus: mirror twice gives the same bytes ---- */

static void test_corpus_twice(void **state)
{
    (void)state;
    char **vmds, **vpds;
    size_t nvmd = tu_corpus_list(".vmd", &vmds), nvpd = tu_corpus_list(".vpd", &vpds);
    if (!nvmd && !nvpd)
        skip();
    size_t checked = 0, swapped = 0;
    for (size_t i = 0; i < nvmd; i++) {
        size_t len;
        uint8_t *data = tu_read_file(vmds[i], &len);
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = pk_vmd_read(data, len, &log);
        free(data);
        assert_non_null(m);
        pk_buf a, mid, b;
        pk_buf_init(&a);
        pk_buf_init(&mid);
        pk_buf_init(&b);
        assert_int_equal(pk_vmd_write(m, &a, &log), 0);
        pk_edit_stats st;
        memset(&st, 0, sizeof st);
        assert_int_equal(pk_motion_mirror(m, NULL, &st, &log), 0);
        swapped += st.bones_renamed;
        assert_int_equal(pk_vmd_write(m, &mid, &log), 0);
        /* Something changed whenever there was anything to mirror. */
        if (m->nbones || m->ncameras || m->nlights)
            assert_true(mid.len != a.len || memcmp(mid.data, a.data, a.len) != 0);
        pk_motion *m2 = pk_vmd_read(mid.data, mid.len, &log);
        assert_non_null(m2);
        assert_int_equal(pk_motion_mirror(m2, NULL, NULL, &log), 0);
        assert_int_equal(pk_vmd_write(m2, &b, &log), 0);
        if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
            fail_msg("%s: mirror twice changed the bytes", vmds[i]);
        checked++;
        pk_edit_stats_free(&st);
        pk_buf_free(&a);
        pk_buf_free(&mid);
        pk_buf_free(&b);
        pk_motion_free(m);
        pk_motion_free(m2);
        pk_log_free(&log);
    }
    for (size_t i = 0; i < nvpd; i++) {
        size_t len;
        uint8_t *data = tu_read_file(vpds[i], &len);
        pk_log log;
        pk_log_init(&log);
        pk_pose *p = pk_vpd_read(data, len, &log);
        free(data);
        assert_non_null(p);
        pk_buf a, mid, b;
        pk_buf_init(&a);
        pk_buf_init(&mid);
        pk_buf_init(&b);
        if (pk_vpd_write(p, NULL, &a, &log) == 0) { /* the damaged VPD cannot be written */
            assert_int_equal(pk_pose_mirror(p, NULL, NULL, &log), 0);
            assert_int_equal(pk_vpd_write(p, NULL, &mid, &log), 0);
            pk_pose *p2 = pk_vpd_read(mid.data, mid.len, &log);
            assert_non_null(p2);
            assert_int_equal(pk_pose_mirror(p2, NULL, NULL, &log), 0);
            assert_int_equal(pk_vpd_write(p2, NULL, &b, &log), 0);
            if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                fail_msg("%s: mirror twice changed the bytes", vpds[i]);
            checked++;
            pk_pose_free(p2);
        }
        pk_buf_free(&a);
        pk_buf_free(&mid);
        pk_buf_free(&b);
        pk_pose_free(p);
        pk_log_free(&log);
    }
    print_message("mirror twice: %zu of %zu corpus files identical (%zu bone tracks swapped)\n",
                  checked, nvmd + nvpd, swapped);
    assert_true(checked + 1 >= nvmd + nvpd);
    assert_true(swapped > 0);
    tu_free_list(vmds, nvmd);
    tu_free_list(vpds, nvpd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_values), cmocka_unit_test(test_rotation_is_reflection),
        cmocka_unit_test(test_camera_light),     cmocka_unit_test(test_rules_pairs),
        cmocka_unit_test(test_corpus_twice),     cmocka_unit_test(test_morphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
