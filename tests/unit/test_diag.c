/* test_diag.c — each kind of problem reaches the caller with its kind
 * (pk_diag.code) and its file as data (pk_log_place), so that nothing has
 * to read the words of a message to tell them apart. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one diagnostic of severity sev in log whose message holds needle. */
static const pk_diag *find(const pk_log *log, pk_severity sev, const char *needle)
{
    const pk_diag *hit = NULL;
    for (size_t i = 0; i < log->count; i++)
        if (log->items[i].severity == sev && strstr(log->items[i].msg, needle)) {
            assert_null(hit);
            hit = &log->items[i];
        }
    if (!hit)
        fail_msg("no diagnostic with '%s'", needle);
    return hit;
}

static void damaged_file(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    uint8_t junk[35] = "Vocaloid Motion Data 0002"; /* the 30-byte signature, 5 bytes more */
    assert_null(pk_vmd_read(junk, sizeof junk, &log));
    pk_log_place(&log, 0, "junk.vmd");
    const pk_diag *d = find(&log, PK_ERROR, "model name");
    assert_int_equal(d->code, PK_E_DAMAGED);
    assert_string_equal(d->path, "junk.vmd");
    assert_int_equal(d->offset, 30);
    pk_log_free(&log);
}

static void files_missing_and_folders(void **state)
{
    (void)state;
    char dir[1024], missing[1100];
    snprintf(dir, sizeof dir, "%s", tu_tmpdir());
    snprintf(missing, sizeof missing, "%s/no_such.vmd", dir);
    pk_log log;
    pk_log_init(&log);
    pk_bytes b;
    assert_int_not_equal(pk_file_read(missing, &b, &log), 0);
    const pk_diag *d = find(&log, PK_ERROR, "cannot open");
    assert_int_equal(d->code, PK_E_NOT_FOUND);
    assert_string_equal(d->path, missing); /* placed by pk_file_read */
    assert_int_not_equal(pk_file_read(dir, &b, &log), 0);
    d = find(&log, PK_ERROR, "is a directory");
    assert_int_equal(d->code, PK_E_IO);
    assert_string_equal(d->path, dir);
    pk_log_free(&log);
}

static void selections(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_default(&log);
    assert_non_null(r);
    assert_null(pk_selection_parse(r, "@no_such_group", &log));
    assert_int_equal(find(&log, PK_ERROR, "unknown group")->code, PK_E_NOT_FOUND);
    assert_null(pk_selection_parse(r, "a,,b", &log));
    assert_int_equal(find(&log, PK_ERROR, "empty name")->code, PK_E_USAGE);
    assert_false(log.items[0].placed); /* an operation's: the caller's to place */
    pk_rules_free(r);
    pk_log_free(&log);
}

static void rules_that_disagree(void **state)
{
    (void)state;
    static const char yaml[] = "rename:\n  a: c\n  b: c\n";
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_rules_parse(yaml, sizeof yaml - 1, "two.yaml", &log));
    const pk_diag *d = find(&log, PK_ERROR, "both map to");
    assert_int_equal(d->code, PK_E_CONFLICT);
    assert_string_equal(d->path, "two.yaml"); /* placed at the rule */
    assert_true(d->placed);
    assert_int_equal(d->line, 3);
    pk_log_free(&log);
}

static void what_a_format_cannot_hold(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_buf out;
    pk_buf_init(&out);
    /* a bone name longer than the VMD's 15-byte field */
    pk_motion *m = pk_motion_new();
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = pk_names_intern(m->names, "sixteen_bytes_ab", 16);
    k->rot[3] = 1.0f;
    assert_int_not_equal(pk_vmd_write(m, &out, &log), 0);
    assert_int_equal(find(&log, PK_ERROR, "holds at most")->code, PK_E_UNSUPPORTED);
    pk_motion_free(m);
    /* a morph written in the hybrid layout, which has none: left out */
    pk_pose *p = pk_pose_new();
    pk_pose_morph *mo = pk_pose_push_morph(p);
    assert_non_null(mo);
    mo->name = pk_names_intern(p->names, "smile", 5);
    pk_vpd_options o = {PK_VPD_HYBRID, false};
    pk_buf_free(&out);
    pk_buf_init(&out);
    assert_int_equal(pk_vpd_write(p, &o, &out, &log), 0);
    assert_int_equal(find(&log, PK_WARNING, "left out")->code, PK_E_LOSS);
    pk_pose_free(p);
    pk_buf_free(&out);
    pk_log_free(&log);
}

static void runs_that_change_nothing(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_default(&log);
    pk_selection *sel = pk_selection_parse(r, "@fingers_R", &log);
    assert_non_null(sel);
    pk_pose *base = pk_pose_new(), *pose = pk_pose_new();
    pk_pose_bone *b = pk_pose_push_bone(pose);
    assert_non_null(b);
    b->name = pk_names_intern(pose->names, "center", 6);
    b->rot[3] = 1.0f;
    pk_overlay_stats st;
    memset(&st, 0, sizeof st);
    pk_pose *out = pk_overlay_pose(base, pose, sel, PK_OVERLAY_REPLACE, &st, &log);
    assert_non_null(out);
    assert_int_equal(find(&log, PK_WARNING, "nothing overlaid")->code, PK_E_NO_EFFECT);
    pk_pose_free(out);
    pk_pose_free(base);
    pk_pose_free(pose);
    pk_selection_free(sel);
    pk_rules_free(r);
    pk_log_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(damaged_file),
        cmocka_unit_test(files_missing_and_folders),
        cmocka_unit_test(selections),
        cmocka_unit_test(rules_that_disagree),
        cmocka_unit_test(what_a_format_cannot_hold),
        cmocka_unit_test(runs_that_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
