/* test_morph_weights.c — rename's weighted morph rules ({to, factor,
 * clamp}): fan-out with a factor, sums of sources keyed at different
 * frames (checked against the clamped sum sampled at every integer frame),
 * clamps and their report, scaling in place, a kept target joining the
 * sum, poses, and plain renames giving the same bytes as without weighted
 * rules. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mname(const pk_motion *m, size_t i)
{
    return pk_names_utf8(m->names, m->morphs[i].name);
}

static pk_name_id find(const pk_names *t, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    pk_name_id id = pk_names_find(t, raw, len);
    free(raw);
    return id;
}

/* The weight of morph `name` at `frame` as a player samples it. */
static double play(const pk_motion *m, const char *name, double frame)
{
    pk_log log;
    pk_log_init(&log);
    pk_tracks *t = pk_tracks_build(m, &log);
    assert_non_null(t);
    pk_name_id id = find(m->names, name);
    const pk_track *tr = id == PK_NO_NAME ? NULL : pk_tracks_morph(t, id);
    assert_non_null(tr);
    double w = pk_sample_morph(m, tr, frame);
    pk_tracks_free(t);
    pk_log_free(&log);
    return w;
}

static bool has_morph(const pk_motion *m, const char *name)
{
    pk_name_id id = find(m->names, name);
    for (size_t i = 0; i < m->nmorphs; i++)
        if (m->morphs[i].name == id)
            return true;
    return false;
}

static int run(pk_motion *m, const char *yaml, pk_edit_stats *st)
{
    pk_rules *r = tu_rules(yaml, "w.yaml");
    pk_log log;
    pk_log_init(&log);
    memset(st, 0, sizeof *st);
    int rc = pk_motion_rename(m, r, false, st, &log);
    pk_log_free(&log);
    pk_rules_free(r);
    return rc;
}

/* One source, two targets, factor 0.8: each target is 0.8 × the source at
 * the source's frames; the source is gone; other morphs keep their place. */
static void test_fan_out(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    tu_morph_key(m, "まばたき", 0, 0.25f);
    tu_morph_key(m, "あ", 0, 0.5f);
    tu_morph_key(m, "あ", 10, 1.0f);
    tu_morph_key(m, "い", 3, 0.75f);
    pk_edit_stats st;
    assert_int_equal(run(m, "morphs:\n  あ: {to: [笑い, にこり], factor: 0.8}\n", &st), 0);
    assert_int_equal(m->nmorphs, 6);
    assert_string_equal(mname(m, 0), "まばたき");
    assert_string_equal(mname(m, 1), "笑い");
    assert_string_equal(mname(m, 2), "笑い");
    assert_string_equal(mname(m, 3), "にこり");
    assert_string_equal(mname(m, 4), "にこり");
    assert_string_equal(mname(m, 5), "い");
    assert_false(has_morph(m, "あ"));
    for (int f = 0; f <= 12; f++) {
        double want = 0.8 * (f >= 10 ? 1.0 : 0.5 + 0.05 * f);
        assert_true(fabs(play(m, "笑い", f) - want) < 1e-6);
        assert_true(fabs(play(m, "にこり", f) - want) < 1e-6);
    }
    assert_int_equal(m->morphs[2].frame, 10);
    assert_int_equal(st.morphs_mapped, 1);
    assert_int_equal(st.morph_targets, 2);
    assert_int_equal(st.morph_keys, 4);
    assert_int_equal(st.morph_clamped, 0);
    assert_int_equal(st.morphs, 3);
    pk_edit_stats_free(&st);
    pk_motion_free(m);
}

/* Two sources keyed at different frames summed into one target: keyed at
 * the union of their frames (and at the frame after the sum crosses 1),
 * clamped to 0..1, equal to the clamped sum at every integer frame. */
static void test_sum_clamp(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    tu_morph_key(m, "A", 0, 0.0f);
    tu_morph_key(m, "A", 10, 1.0f);
    tu_morph_key(m, "B", 5, 0.4f);
    tu_morph_key(m, "B", 20, 0.8f);
    pk_motion *src = pk_motion_clone(m);
    assert_non_null(src);
    pk_edit_stats st;
    assert_int_equal(run(m, "morphs:\n  A: {to: T}\n  B: {to: T}\n", &st), 0);
    assert_false(has_morph(m, "A"));
    assert_false(has_morph(m, "B"));
    uint32_t want_frames[] = {0, 5, 6, 10, 20};
    assert_int_equal(m->nmorphs, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(mname(m, i), "T");
        assert_int_equal(m->morphs[i].frame, want_frames[i]);
        assert_true(m->morphs[i].weight >= 0.0f && m->morphs[i].weight <= 1.0f);
    }
    for (int f = 0; f <= 25; f++) {
        double sum = play(src, "A", f) + play(src, "B", f);
        double want = sum > 1.0 ? 1.0 : sum;
        assert_true(fabs(play(m, "T", f) - want) < 1e-6);
    }
    /* frames 6, 10 and 20 clamped; the worst at 20: 1 + 0.8 */
    assert_int_equal(st.morph_clamped, 3);
    assert_string_equal(st.clamp_name, "T");
    assert_int_equal(st.clamp_frame, 20);
    assert_true(fabs(st.clamp_from - 1.8) < 1e-6);
    assert_true(st.clamp_to == 1.0);
    assert_int_equal(st.morphs_mapped, 2);
    assert_int_equal(st.morph_targets, 1);
    assert_int_equal(st.morph_keys, 5);
    pk_edit_stats_free(&st);
    pk_motion_free(src);
    pk_motion_free(m);
}

/* A morph the motion keys itself under a target's name joins the sum; a
 * clamp below 0 is counted too; a NaN is not a clamp. */
static void test_join_and_negative(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    tu_morph_key(m, "笑い", 0, 0.5f);
    tu_morph_key(m, "え", 0, 0.25f);
    tu_morph_key(m, "お", 0, 0.5f);
    pk_edit_stats st;
    assert_int_equal(run(m, "morphs:\n  え: {to: 笑い}\n  お: {to: 口, factor: -1}\n", &st), 0);
    assert_int_equal(m->nmorphs, 2);
    assert_string_equal(mname(m, 0), "笑い");
    assert_true(m->morphs[0].weight == 0.75f);
    assert_string_equal(mname(m, 1), "口");
    assert_true(m->morphs[1].weight == 0.0f);
    assert_int_equal(st.morph_clamped, 1);
    assert_true(fabs(st.clamp_from + 0.5) < 1e-9);
    pk_edit_stats_free(&st);
    pk_motion_free(m);

    /* a NaN weight stays NaN and is no clamp */
    m = pk_motion_new();
    tu_morph_key(m, "え", 0, NAN);
    assert_int_equal(run(m, "morphs:\n  え: {to: 口}\n", &st), 0);
    assert_int_equal(m->nmorphs, 1);
    assert_true(isnan(m->morphs[0].weight));
    assert_int_equal(st.morph_clamped, 0);
    assert_null(st.clamp_name);
    pk_edit_stats_free(&st);
    pk_motion_free(m);
}

/* Scale in place (no `to`), clamp to a narrower range, and a glob scaling
 * every morph. */
static void test_scale_and_clamp(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    tu_morph_key(m, "まばたき", 0, 1.0f);
    tu_morph_key(m, "まばたき", 5, 0.2f);
    tu_morph_key(m, "にやり", 0, 0.9f);
    tu_morph_key(m, "にやり", 4, 0.3f);
    pk_edit_stats st;
    assert_int_equal(
        run(m, "morphs:\n  まばたき: {factor: 0.5}\n  にやり: {clamp: [0, 0.6]}\n", &st), 0);
    assert_int_equal(m->nmorphs, 5);
    assert_string_equal(mname(m, 0), "まばたき");
    assert_true(m->morphs[0].weight == 0.5f);
    assert_true(fabs(m->morphs[1].weight - 0.1) < 1e-7);
    /* にやり: 0.9 -> 0.6, and a key at frame 2, where 0.9..0.3 passes 0.6 */
    assert_string_equal(mname(m, 2), "にやり");
    assert_int_equal(m->morphs[2].frame, 0);
    assert_true(fabs(m->morphs[2].weight - 0.6) < 1e-7);
    assert_int_equal(m->morphs[3].frame, 2);
    assert_true(fabs(m->morphs[3].weight - 0.6) < 1e-7);
    assert_int_equal(m->morphs[4].frame, 4);
    assert_true(fabs(m->morphs[4].weight - 0.3) < 1e-7);
    assert_int_equal(st.morph_clamped, 1);
    assert_int_equal(st.morphs_renamed, 0);
    pk_edit_stats_free(&st);

    assert_int_equal(run(m, "morphs:\n  \"*\": {factor: 2, clamp: [0, 10]}\n", &st), 0);
    assert_int_equal(m->nmorphs, 5);
    assert_true(m->morphs[0].weight == 1.0f);
    assert_true(fabs(m->morphs[4].weight - 0.6) < 1e-6);
    assert_int_equal(st.morphs_mapped, 2);
    assert_int_equal(st.morph_clamped, 0);
    pk_edit_stats_free(&st);
    pk_motion_free(m);
}

/* Plain renames give the same bytes with and without weighted rules for
 * other morphs; a rename that is a weighted rule of factor 1 in range gives
 * the same weights and frames. */
static void test_plain_unchanged(void **state)
{
    (void)state;
    const char *path = tu_corpus_path("vmd_wavefile_v2.vmd");
    if (!path)
        skip();
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    pk_log log;
    pk_log_init(&log);
    pk_motion *a = pk_vmd_read(data, len, &log), *b = pk_vmd_read(data, len, &log);
    assert_non_null(a);
    assert_non_null(b);
    pk_edit_stats st;
    assert_int_equal(run(a, "morphs:\n  まばたき: blink\n  あ: a\n", &st), 0);
    pk_edit_stats_free(&st);
    assert_int_equal(run(b, "morphs:\n  まばたき: blink\n  あ: a\n  ゑ: {to: x, factor: 2}\n", &st),
                     0);
    assert_int_equal(st.morphs_mapped, 0);
    pk_edit_stats_free(&st);
    pk_buf ba, bb;
    pk_buf_init(&ba);
    pk_buf_init(&bb);
    assert_int_equal(pk_vmd_write(a, &ba, &log), 0);
    assert_int_equal(pk_vmd_write(b, &bb, &log), 0);
    assert_int_equal(ba.len, bb.len);
    assert_memory_equal(ba.data, bb.data, ba.len);
    pk_buf_free(&bb);
    pk_motion_free(b);

    /* あ -> a as a weighted rule: the same keys (a weighted rule rewrites its
     * target, which then stands where the source's first key stood). */
    b = pk_vmd_read(data, len, &log);
    assert_int_equal(run(b, "morphs:\n  まばたき: blink\n  あ: {to: a}\n", &st), 0);
    assert_int_equal(st.morph_clamped, 0);
    pk_edit_stats_free(&st);
    pk_name_id ia = find(a->names, "a"), ib = find(b->names, "a");
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < a->nmorphs; i++)
        if (a->morphs[i].name == ia)
            na++;
    for (size_t i = 0; i < b->nmorphs; i++)
        if (b->morphs[i].name == ib)
            nb++;
    assert_int_equal(na, nb);
    for (int f = 0; f <= 2809; f += 7)
        assert_true(play(a, "a", f) == play(b, "a", f));
    pk_buf_free(&ba);
    pk_motion_free(a);
    pk_motion_free(b);
    free(data);
    pk_log_free(&log);
}

/* A pose: the same sums, one value per morph. */
static void test_pose(void **state)
{
    (void)state;
    pk_pose *p = pk_pose_new();
    const char *names[] = {"あ", "ウィンク", "い"};
    float w[] = {0.75f, 0.5f, 0.5f};
    for (int i = 0; i < 3; i++) {
        pk_pose_morph *e = pk_pose_push_morph(p);
        e->name = tu_intern(p->names, names[i]);
        e->weight = w[i];
    }
    pk_rules *r = tu_rules("morphs:\n  あ: {to: {口: 1, 笑い: 0.5}}\n  い: {to: 口}\n", "w.yaml");
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st = {0};
    assert_int_equal(pk_pose_rename(p, r, false, &st, &log), 0);
    assert_int_equal(p->nmorphs, 3);
    assert_string_equal(pk_names_utf8(p->names, p->morphs[0].name), "口");
    assert_true(p->morphs[0].weight == 1.0f); /* 0.75 + 0.5, clamped */
    assert_string_equal(pk_names_utf8(p->names, p->morphs[1].name), "笑い");
    assert_true(p->morphs[1].weight == 0.375f);
    assert_string_equal(pk_names_utf8(p->names, p->morphs[2].name), "ウィンク");
    assert_int_equal(st.morph_clamped, 1);
    assert_true(fabs(st.clamp_from - 1.25) < 1e-9);
    pk_edit_stats_free(&st);
    pk_log_free(&log);
    pk_rules_free(r);
    pk_pose_free(p);
}

/* Errors before any change: a target too wide for the field (at the
 * target), clamp ranges of one target that do not overlap, and --reverse
 * (weights cannot be undone). */
static void test_errors(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    tu_morph_key(m, "あ", 0, 0.5f);
    tu_morph_key(m, "い", 0, 0.5f);
    pk_rules *r = tu_rules("morphs:\n  あ: {to: [笑い, あいうえおかきくけ]}\n", "w.yaml");
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "w.yaml:2:16: ");
    tu_assert_log_has(&log, "morph 'あ' would map to 'あいうえおかきくけ', 18 bytes in CP932; the "
                            "VMD field holds 15");
    assert_string_equal(mname(m, 0), "あ");
    assert_int_equal(m->nmorphs, 2);
    pk_rules_free(r);
    pk_log_free(&log);

    r = tu_rules("morphs:\n  あ: {to: 口, clamp: [0, 0.2]}\n  い: {to: 口, clamp: [0.5, 1]}\n",
                 "w.yaml");
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "w.yaml:3:3: the clamp ranges of 'あ' and 'い', which both map to "
                            "'口', do not overlap");
    pk_log_free(&log);

    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, true, NULL, &log), -1);
    tu_assert_log_has(&log, "w.yaml:2:3: rule 'あ' maps morph weights and cannot be reversed");
    assert_int_equal(m->nmorphs, 2);
    assert_string_equal(mname(m, 1), "い");
    pk_log_free(&log);
    pk_rules_free(r);
    pk_motion_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fan_out),
        cmocka_unit_test(test_sum_clamp),
        cmocka_unit_test(test_join_and_negative),
        cmocka_unit_test(test_scale_and_clamp),
        cmocka_unit_test(test_plain_unchanged),
        cmocka_unit_test(test_pose),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
