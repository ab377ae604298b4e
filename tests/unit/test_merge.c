/* test_merge.c — merge policies, offsets, poses as inputs, and the law
 * "a motion merged with an empty one comes back byte-identical" over the
 * whole corpus. */
#include "testutil.h"

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
            pk_merge_input in[2] = {{order ? empty : m, NULL, 0}, {order ? m : empty, NULL, 0}};
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
    pk_merge_input in[2] = {{a, NULL, 0}, {b, NULL, 0}};
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
    pk_merge_input in[2] = {{a, NULL, 0}, {a, NULL, 100}};
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

    pk_merge_input neg[1] = {{a, NULL, -25}};
    m = pk_merge(neg, 1, PK_MERGE_LAST, &rep, &log);
    assert_non_null(m);
    assert_int_equal(rep.below_zero, 2); /* bone at 0 and camera at 20 */
    assert_int_equal(log.warnings, 1);
    assert_int_equal(m->nbones, 1);
    assert_int_equal(m->bones[0].frame, 5);
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
    pk_merge_input in[3] = {{a, NULL, 0}, {NULL, p, 45}, {b, NULL, 0}};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policies),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_pose_input_and_camera),
        cmocka_unit_test(test_empty_is_identity_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
