/* test_merge.c — merge policies, offsets, poses as inputs, and the law
 * "a motion merged with an empty one comes back byte-identical" over the
 * whole corpus. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pk_name_id name(pk_motion *m, const char *utf8)
{
    pk_log log;
    pk_log_init(&log);
    pk_name_id id = pk_names_intern_utf8(m->names, utf8, 15, "bone", &log);
    pk_log_free(&log);
    assert_int_not_equal(id, PK_NO_NAME);
    return id;
}

static void bone(pk_motion *m, const char *n, uint32_t frame, float x)
{
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = name(m, n);
    k->frame = frame;
    k->pos[0] = x;
    k->rot[3] = 1.0f;
    pk_interp_linear(k->interp);
}

static void morph(pk_motion *m, const char *n, uint32_t frame, float w)
{
    pk_morph_key *k = pk_motion_push_morph(m);
    assert_non_null(k);
    k->name = name(m, n);
    k->frame = frame;
    k->weight = w;
}

static void write_vmd(const pk_motion *m, pk_buf *b)
{
    pk_log log;
    pk_log_init(&log);
    pk_buf_init(b);
    assert_int_equal(pk_vmd_write(m, b, &log), 0);
    pk_log_free(&log);
}

static void test_empty_is_identity_corpus(void **state)
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
        size_t len;
        uint8_t *data = tu_read_file(paths[i], &len);
        pk_motion *m = pk_vmd_read(data, len, &log);
        free(data);
        if (!m) {
            pk_log_free(&log);
            continue;
        }
        pk_motion *empty = pk_motion_new();
        pk_buf want;
        write_vmd(m, &want);
        bool has = m->nbones || m->nmorphs || m->ncameras || m->nlights || m->nshadows || m->niks;
        for (int order = 0; order < (has ? 2 : 1); order++) {
            pk_merge_input in[2] = {{order ? empty : m, NULL, 0, 0, false, NULL},
                                    {order ? m : empty, NULL, 0, 0, false, NULL}};
            pk_merge_report rep;
            pk_motion *out = pk_merge(in, 2, PK_MERGE_ERROR, &rep, &log);
            assert_non_null(out);
            assert_int_equal(rep.count, 0);
            pk_buf got;
            write_vmd(out, &got);
            if (got.len != want.len || memcmp(got.data, want.data, got.len) != 0) {
                print_error("%s merged with an empty motion (order %d) is not byte-identical\n",
                            paths[i], order);
                fail();
            }
            pk_buf_free(&got);
            pk_merge_report_free(&rep);
            pk_motion_free(out);
        }
        pk_buf_free(&want);
        pk_motion_free(empty);
        pk_motion_free(m);
        pk_log_free(&log);
        checked++;
    }
    tu_free_list(paths, n);
    assert_true(checked >= 10);
}

/* Same bone, same frame, different value: last / first / error. */
static void test_policies(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    bone(a, "センター", 0, 1.0f);
    bone(a, "センター", 10, 2.0f);
    morph(a, "まばたき", 10, 0.5f);
    bone(b, "センター", 10, 3.0f);  /* conflict */
    morph(b, "まばたき", 10, 0.5f); /* same value: not a conflict */
    bone(b, "頭", 10, 4.0f);
    pk_merge_input in[2] = {{a, NULL, 0, 0, false, NULL}, {b, NULL, 0, 0, false, NULL}};
    pk_log log;
    pk_log_init(&log);
    pk_merge_report rep;

    pk_motion *last = pk_merge(in, 2, PK_MERGE_LAST, &rep, &log);
    assert_non_null(last);
    assert_int_equal(rep.count, 1);
    assert_int_equal(rep.identical, 1);
    assert_int_equal(rep.items[0].section, PK_SEC_BONE);
    assert_string_equal(rep.items[0].name, "センター");
    assert_int_equal(rep.items[0].frame, 10);
    assert_int_equal(rep.items[0].kept, 1);
    assert_int_equal(rep.items[0].dropped, 0);
    /* a's frame-0 key, then b's two bone keys; one blink key */
    assert_int_equal(last->nbones, 3);
    assert_true(last->bones[0].pos[0] == 1.0f);
    assert_true(last->bones[1].pos[0] == 3.0f);
    assert_int_equal(last->nmorphs, 1);
    pk_merge_report_free(&rep);
    pk_motion_free(last);

    pk_motion *first = pk_merge(in, 2, PK_MERGE_FIRST, &rep, &log);
    assert_non_null(first);
    assert_int_equal(rep.count, 1);
    assert_int_equal(rep.items[0].kept, 0);
    assert_int_equal(first->nbones, 3);
    assert_true(first->bones[1].pos[0] == 2.0f);
    assert_true(first->bones[2].pos[0] == 4.0f);
    pk_merge_report_free(&rep);
    pk_motion_free(first);
    assert_int_equal(log.errors, 0);

    pk_motion *err = pk_merge(in, 2, PK_MERGE_ERROR, &rep, &log);
    assert_null(err);
    assert_true(log.errors >= 1);
    tu_assert_log_has(&log, "センター");
    pk_merge_report_free(&rep);
    pk_log_free(&log);
    pk_motion_free(a);
    pk_motion_free(b);
}

/* Offsets shift every section; keys below 0 are dropped with a warning. */
static void test_offsets(void **state)
{
    (void)state;
    pk_motion *a = pk_motion_new();
    bone(a, "センター", 0, 1.0f);
    bone(a, "センター", 30, 2.0f);
    pk_camera_key *c = pk_motion_push_camera(a);
    c->frame = 20;
    c->fov = 30;
    pk_merge_input in[2] = {{a, NULL, 0, 0, false, NULL}, {a, NULL, 100, 0, false, NULL}};
    pk_log log;
    pk_log_init(&log);
    pk_merge_report rep;
    pk_motion *m = pk_merge(in, 2, PK_MERGE_ERROR, &rep, &log);
    assert_non_null(m);
    assert_int_equal(m->nbones, 4);
    assert_int_equal(m->bones[2].frame, 100);
    assert_int_equal(m->bones[3].frame, 130);
    assert_int_equal(m->ncameras, 2);
    assert_int_equal(m->cameras[1].frame, 120);
    pk_merge_report_free(&rep);
    pk_motion_free(m);

    pk_merge_input neg[1] = {{a, NULL, -25, 0, false, NULL}};
    m = pk_merge(neg, 1, PK_MERGE_LAST, &rep, &log);
    assert_non_null(m);
    assert_int_equal(rep.below_zero, 2); /* bone at 0 and camera at 20 */
    assert_int_equal(log.warnings, 1);
    tu_assert_log_has(&log, "input 1: offset -25 cuts it at its frame 25");
    /* The pose at the cut is kept: the bone's key at 30 (now 5) stays, a
     * key at 0 holds its value at 25 (1 + 25/30 on the linear segment);
     * the camera's value at 25 (held after its last key) is a key at 0. */
    assert_int_equal(rep.cut_keys, 2);
    assert_int_equal(m->nbones, 2);
    assert_int_equal(m->bones[0].frame, 5);
    assert_true(m->bones[0].pos[0] == 2.0f);
    assert_int_equal(m->bones[1].frame, 0);
    assert_true(fabsf(m->bones[1].pos[0] - (1.0f + 25.0f / 30.0f)) < 1e-6f);
    assert_int_equal(m->ncameras, 1);
    assert_int_equal(m->cameras[0].frame, 0);
    assert_int_equal(m->cameras[0].fov, 30);
    pk_merge_report_free(&rep);
    pk_motion_free(m);
    pk_log_free(&log);
    pk_motion_free(a);
}

/* A pose counts as a one-frame motion at its offset; camera keys at the
 * same frame conflict under the same policy. */
static void test_pose_input_and_camera(void **state)
{
    (void)state;
    pk_pose *p = pk_pose_new();
    pk_pose_bone *pb = pk_pose_push_bone(p);
    pk_log log;
    pk_log_init(&log);
    pb->name = pk_names_intern_utf8(p->names, "右手首", 19, "bone", &log);
    pb->rot[3] = 1.0f;
    pk_motion *a = pk_motion_new(), *b = pk_motion_new();
    bone(a, "センター", 0, 1.0f);
    pk_camera_key *c1 = pk_motion_push_camera(a);
    c1->frame = 5;
    c1->fov = 30;
    pk_camera_key *c2 = pk_motion_push_camera(b);
    c2->frame = 5;
    c2->fov = 40;
    pk_merge_input in[3] = {
        {a, NULL, 0, 0, false, NULL}, {NULL, p, 45, 0, false, NULL}, {b, NULL, 0, 0, false, NULL}};
    pk_merge_report rep;
    pk_motion *m = pk_merge(in, 3, PK_MERGE_LAST, &rep, &log);
    assert_non_null(m);
    assert_int_equal(m->nbones, 2);
    assert_int_equal(m->bones[1].frame, 45);
    assert_int_equal(m->ncameras, 1);
    assert_int_equal(m->cameras[0].fov, 40);
    assert_int_equal(rep.count, 1);
    assert_int_equal(rep.items[0].section, PK_SEC_CAMERA);
    assert_null(rep.items[0].name);
    pk_merge_report_free(&rep);
    pk_motion_free(m);
    pk_motion_free(a);
    pk_motion_free(b);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* ---- sampling comparisons ---- */

static pk_motion *load(const char *path, pk_log *log)
{
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    pk_motion *m = pk_vmd_read(data, len, log);
    free(data);
    return m;
}

/* Worst difference between track `ta` of a at frame fa and track `tb` of b
 * at fb, in degrees / units / weight (bones or morphs by `morph`). */
static double track_diff(const pk_motion *a, const pk_track *ta, double fa, const pk_motion *b,
                         const pk_track *tb, double fb, bool morph)
{
    if (morph)
        return fabs((double)pk_sample_morph(a, ta, fa) - pk_sample_morph(b, tb, fb));
    float pa[3], ra[4], pb[3], rb[4];
    pk_sample_bone(a, ta, fa, pa, ra);
    pk_sample_bone(b, tb, fb, pb, rb);
    double w = pk_quat_angle_deg(ra, rb) / PK_OVERLAY_TOL_DEG * 1e-5; /* scaled to units */
    for (int i = 0; i < 3; i++)
        w = fmax(w, fabs((double)pa[i] - pb[i]));
    return w;
}

static const pk_track *same_track(const pk_motion *from, const pk_track *t, const pk_motion *m,
                                  const pk_tracks *ts, bool morph)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(from->names, t->name, &len);
    pk_name_id id = pk_names_find(m->names, raw, len);
    if (id == PK_NO_NAME)
        return NULL;
    return morph ? pk_tracks_morph(ts, id) : pk_tracks_bone(ts, id);
}

/* A negative offset cuts a motion and keeps its pose at the cut: over the
 * whole corpus, every bone and morph track of the result samples at frame
 * f as the motion at f + cut (1e-4 deg, 1e-5 units and weight). */
static void test_negative_offset_keeps_pose_corpus(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t checked = 0, frames = 0;
    for (size_t i = 0; i < n; i++) {
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = load(paths[i], &log);
        uint32_t first, last;
        if (!m || !pk_motion_frame_range(m, &first, &last) || last < 6) {
            pk_motion_free(m);
            pk_log_free(&log);
            continue;
        }
        uint32_t cut = last / 3 + 1;
        pk_merge_input in = {m, NULL, -(int64_t)cut, 0, false, NULL};
        pk_merge_report rep;
        pk_motion *out = pk_merge(&in, 1, PK_MERGE_LAST, &rep, &log);
        if (!out) {
            for (size_t k = 0; k < log.count; k++)
                print_error("%s: %s\n", paths[i], log.items[k].msg);
            fail();
        }
        pk_tracks *tm = pk_tracks_build(m, &log), *to = pk_tracks_build(out, &log);
        for (int morph = 0; morph < 2; morph++) {
            size_t nt = morph ? tm->nmorphs : tm->nbones;
            for (size_t k = 0; k < nt; k++) {
                const pk_track *t = morph ? &tm->morphs[k] : &tm->bones[k];
                const pk_track *o = same_track(m, t, out, to, morph);
                assert_non_null(o);
                for (uint32_t f = 0; f + cut <= last + 2; f++) {
                    frames++;
                    double d = track_diff(out, o, f, m, t, f + cut, morph);
                    if (d > 1e-5) {
                        print_error("%s: %s '%s' cut at %u: frame %u differs by %g\n", paths[i],
                                    morph ? "morph" : "bone", pk_names_utf8(m->names, t->name), cut,
                                    f, d);
                        fail();
                    }
                }
            }
        }
        pk_tracks_free(tm);
        pk_tracks_free(to);
        pk_merge_report_free(&rep);
        pk_motion_free(out);
        pk_motion_free(m);
        pk_log_free(&log);
        checked++;
    }
    tu_free_list(paths, n);
    assert_true(checked >= 5);
    printf("negative offsets: %zu corpus motions cut, %zu track frames checked\n", checked, frames);
}

/* Tracks both inputs key over overlapping ranges are reported (merge
 * re-interpolates them); one motion after the other is not an overlap, nor
 * are keys both inputs hold with the same value. */
static void test_overlaps(void **state)
{
    (void)state;
    pk_motion *dance = pk_motion_new(), *fist = pk_motion_new(), *after = pk_motion_new();
    bone(dance, "右手首", 0, 0.0f);
    bone(dance, "右手首", 100, 1.0f);
    bone(dance, "頭", 0, 0.0f);
    morph(dance, "まばたき", 10, 0.5f);
    morph(dance, "まばたき", 20, 0.0f);
    bone(fist, "右手首", 60, 5.0f);    /* inside the dance's 0-100 */
    bone(fist, "頭", 0, 0.0f);         /* the same key: kept once, no overlap */
    morph(fist, "まばたき", 20, 0.7f); /* a conflict at the dance's last key only */
    bone(after, "右手首", 100, 1.0f);
    bone(after, "右手首", 150, 2.0f); /* starts where the dance ends */
    pk_log log;
    pk_log_init(&log);
    pk_merge_report rep;
    pk_merge_input in[2] = {{dance, NULL, 0, 0, false, NULL}, {fist, NULL, 0, 0, false, NULL}};
    pk_motion *m = pk_merge(in, 2, PK_MERGE_LAST, &rep, &log);
    assert_non_null(m);
    assert_int_equal(rep.noverlaps, 1);
    assert_int_equal(rep.overlaps[0].section, PK_SEC_BONE);
    assert_string_equal(rep.overlaps[0].name, "右手首");
    assert_int_equal(rep.overlaps[0].a, 0);
    assert_int_equal(rep.overlaps[0].b, 1);
    assert_int_equal(rep.overlaps[0].a_first, 0);
    assert_int_equal(rep.overlaps[0].a_last, 100);
    assert_int_equal(rep.overlaps[0].b_first, 60);
    assert_int_equal(rep.overlaps[0].b_last, 60);
    assert_int_equal(rep.count, 1); /* まばたき at 20 */
    pk_merge_report_free(&rep);
    pk_motion_free(m);
    /* --prefer error refuses overlaps too. */
    assert_null(pk_merge(in, 2, PK_MERGE_ERROR, &rep, &log));
    tu_assert_log_has(&log, "overlap: bone '右手首' keyed by input 1 (frames 0-100) and input 2");
    pk_merge_report_free(&rep);
    in[1].motion = after;
    m = pk_merge(in, 2, PK_MERGE_ERROR, &rep, &log);
    assert_non_null(m);
    assert_int_equal(rep.noverlaps, 0);
    pk_merge_report_free(&rep);
    pk_motion_free(m);
    pk_motion_free(dance);
    pk_motion_free(fist);
    pk_motion_free(after);
    pk_log_free(&log);
}

/* --sections: an input gives only the sections it is asked for. */
static void test_sections(void **state)
{
    (void)state;
    pk_motion *dance = pk_motion_new(), *face = pk_motion_new();
    bone(dance, "頭", 0, 0.0f);
    bone(face, "頭", 0, 9.0f);
    morph(face, "まばたき", 5, 1.0f);
    pk_camera_key *c = pk_motion_push_camera(face);
    c->frame = 3;
    pk_log log;
    pk_log_init(&log);
    pk_merge_report rep;
    pk_merge_input in[2] = {{dance, NULL, 0, 0, false, NULL}, {face, NULL, 0, 1u << PK_SEC_MORPH, false, NULL}};
    pk_motion *m = pk_merge(in, 2, PK_MERGE_ERROR, &rep, &log);
    assert_non_null(m);
    assert_int_equal(rep.count, 0);
    assert_int_equal(m->nbones, 1);
    assert_true(m->bones[0].pos[0] == 0.0f);
    assert_int_equal(m->nmorphs, 1);
    assert_int_equal(m->ncameras, 0);
    pk_merge_report_free(&rep);
    pk_motion_free(m);
    pk_motion_free(dance);
    pk_motion_free(face);
    pk_log_free(&log);
}

/* `within`: the input replaces the others only inside its own frame range
 * [A, B]; outside, every track samples exactly as the merge of the others
 * (checked at every frame, over the corpus: three busy bones and a morph
 * get two eased keys each, at a third and two thirds of the motion, plus a
 * bone and a morph the motion lacks). */
static void test_within_corpus(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t checked = 0, frames = 0, baked = 0;
    for (size_t i = 0; i < n; i++) {
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = load(paths[i], &log);
        uint32_t first, last;
        if (!m || !m->nbones || !pk_motion_frame_range(m, &first, &last) || last < 12) {
            pk_motion_free(m);
            pk_log_free(&log);
            continue;
        }
        pk_tracks *tm = pk_tracks_build(m, &log);
        uint32_t a = last / 3, b = 2 * last / 3;
        pk_motion *src = pk_motion_new();
        static const uint8_t EASE[4][4] = {
            {20, 20, 107, 107}, {90, 10, 30, 120}, {20, 20, 107, 107}, {64, 0, 64, 127}};
        for (size_t k = 0; k < tm->nbones && k < 3; k++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, tm->bones[k].name, &len);
            for (int e = 0; e < 2; e++) {
                pk_bone_key *bk = pk_motion_push_bone(src);
                bk->name = pk_names_intern(src->names, raw, len);
                bk->frame = e ? b : a + 1;
                bk->pos[1] = e ? 2.0f : -1.0f;
                bk->rot[0] = e ? 0.3f : 0.0f;
                bk->rot[3] = 1.0f;
                pk_interp_set(bk->interp, EASE, false);
            }
        }
        bone(src, "存在しない骨", a, 3.0f);
        morph(src, "存在しない顔", b, 0.5f);
        if (tm->nmorphs) {
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, tm->morphs[0].name, &len);
            pk_morph_key *mk = pk_motion_push_morph(src);
            mk->name = pk_names_intern(src->names, raw, len);
            mk->frame = (a + b) / 2;
            mk->weight = 0.9f;
        }
        pk_merge_input in[2] = {{m, NULL, 0, 0, false, NULL}, {src, NULL, 0, 0, true, NULL}};
        pk_merge_report rep;
        pk_motion *out = pk_merge(in, 2, PK_MERGE_LAST, &rep, &log);
        assert_non_null(out);
        assert_int_equal(rep.noverlaps, 0);
        baked += rep.within_baked;
        pk_tracks *to = pk_tracks_build(out, &log), *ts = pk_tracks_build(src, &log);
        for (int morph_ = 0; morph_ < 2; morph_++) {
            size_t nt = morph_ ? to->nmorphs : to->nbones;
            for (size_t k = 0; k < nt; k++) {
                const pk_track *o = morph_ ? &to->morphs[k] : &to->bones[k];
                const pk_track *base = same_track(out, o, m, tm, morph_);
                const pk_track *laid = same_track(out, o, src, ts, morph_);
                for (uint32_t f = 0; f <= last + 3; f++) {
                    bool inside = laid && f >= a && f <= b;
                    bool outside = !laid || f + 1 <= a || f >= b + 1;
                    double d;
                    if (inside)
                        d = track_diff(out, o, f, src, laid, f, morph_);
                    else if (outside)
                        d = track_diff(out, o, f, m, base, f, morph_);
                    else
                        continue;
                    frames++;
                    if (d > 1e-5) {
                        print_error("%s: %s '%s' within %u-%u: frame %u (%s) differs by %g\n",
                                    paths[i], morph_ ? "morph" : "bone",
                                    pk_names_utf8(out->names, o->name), a, b, f,
                                    inside ? "inside" : "outside", d);
                        fail();
                    }
                }
            }
        }
        pk_tracks_free(to);
        pk_tracks_free(ts);
        pk_tracks_free(tm);
        pk_merge_report_free(&rep);
        pk_motion_free(out);
        pk_motion_free(src);
        pk_motion_free(m);
        pk_log_free(&log);
        checked++;
    }
    tu_free_list(paths, n);
    assert_true(checked >= 5);
    printf("within: %zu corpus motions, %zu track frames checked, %zu crossed pieces baked\n",
           checked, frames, baked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policies),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_pose_input_and_camera),
        cmocka_unit_test(test_empty_is_identity_corpus),
        cmocka_unit_test(test_overlaps),
        cmocka_unit_test(test_sections),
        cmocka_unit_test(test_negative_offset_keeps_pose_corpus),
        cmocka_unit_test(test_within_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
