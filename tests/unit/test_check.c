/* test_check.c — pk_check_motion / pk_check_pose (engine/ops/skeleton/check.c):
 * found, found through MMD's cut (15 bytes VMD, 19 VPD; raw cut and cut on
 * a character boundary; a cut several model names share), missing with
 * each kind of near miss, keys the model cannot use, and which model bones
 * are keyed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmxgen.h"
#include "testutil.h"

/* Bones: 0 センター (rotate+move), 1 上半身 (rotate only), 2 a 22-byte
 * name, 3 左人指１, 4 左ひじ, 5 右足ＩＫ, 6 首 (English "neck"), 7 没
 * (neither rotatable nor movable); morphs: まばたき, あ. */
static const char *const BONES[8] = {"センター", "上半身", "左足ＩＫ親ダミー先端ボーン",
                                     "左人指１", "左ひじ", "右足ＩＫ",
                                     "首",       "没"};
static const uint16_t FLAGS[8] = {0x1E, 0x1A, 0x1A, 0x1A, 0x1A, 0x1E, 0x1A, 0x18};

static pk_model *model(void)
{
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 0, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(&g, 0);
    pg_i32(&g, 8);
    for (int i = 0; i < 8; i++) {
        pg_text(&g, BONES[i]);
        pg_text(&g, i == 6 ? "neck" : "");
        pg_f3(&g, 0, 0, 0);
        pg_idx(&g, PG_BONE, i ? 0 : -1);
        pg_i32(&g, 0);
        pg_u16(&g, FLAGS[i]);
        pg_f3(&g, 0, 1, 0);
    }
    pg_i32(&g, 2);
    const char *morphs[2] = {"まばたき", "あ"};
    for (int i = 0; i < 2; i++) {
        pg_text(&g, morphs[i]);
        pg_text(&g, "");
        pg_u8(&g, 2);
        pg_u8(&g, 1);
        pg_i32(&g, 0);
    }
    pg_i32(&g, 0);
    pg_no_physics(&g);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g.b.data, g.b.len, &log);
    assert_non_null(m);
    pk_log_free(&log);
    pk_buf_free(&g.b);
    return m;
}

static void add_bone(pk_motion *mo, const void *raw, size_t len, float y, float qx)
{
    pk_bone_key *k = pk_motion_push_bone(mo);
    k->name = pk_names_intern(mo->names, raw, len);
    k->pos[1] = y;
    k->rot[0] = qx;
    k->rot[3] = 1;
}

static void add_bone_utf8(pk_motion *mo, const char *utf8, float y, float qx)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    add_bone(mo, raw, len, y, qx);
    free(raw);
}

static const pk_check_item *find(const pk_check_report *r, const char *name)
{
    for (size_t i = 0; i < r->nitems; i++)
        if (strcmp(r->items[i].name, name) == 0)
            return &r->items[i];
    fail_msg("no item %s", name);
    return NULL;
}

static void test_check_motion(void **state)
{
    (void)state;
    pk_model *m = model();
    pk_motion *mo = pk_motion_new();
    add_bone_utf8(mo, "センター", 1, 0); /* found, moves: fine */
    add_bone_utf8(mo, "センター", 2, 0);
    add_bone_utf8(mo, "上半身", 1, 0.1f); /* found, moves: unusable */
    /* the 22-byte name cut at 15 bytes (in the middle of a character)... */
    size_t len;
    const uint8_t *raw = pk_names_raw(m->names, m->bones[2].cp932, &len);
    assert_true(len > 15);
    add_bone(mo, raw, 15, 0, 0);
    add_bone_utf8(mo, "左人差指１", 0, 0); /* spelling */
    add_bone_utf8(mo, "左肘", 0, 0);       /* spelling */
    add_bone_utf8(mo, "右足IK", 0, 0);     /* width */
    add_bone_utf8(mo, "neck", 0, 0);       /* English name */
    add_bone_utf8(mo, "ＮＥＣＫ", 0, 0);   /* English name, width and case */
    add_bone_utf8(mo, "没", 0, 0.5f);      /* not rotatable */
    add_bone_utf8(mo, "ない", 0, 0);       /* nothing near */
    pk_morph_key *mk = pk_motion_push_morph(mo);
    uint8_t *mraw;
    assert_int_equal(pk_utf8_to_cp932("まばたき", &mraw, &len), 0);
    mk->name = pk_names_intern(mo->names, mraw, len);
    free(mraw);
    mk = pk_motion_push_morph(mo);
    mk->name = pk_names_intern(mo->names, "x", 1);
    pk_log log;
    pk_log_init(&log);
    pk_check_report *r = pk_check_motion(m, mo, &log);
    assert_non_null(r);
    assert_int_equal(r->nitems, 12);
    const pk_check_item *c = find(r, "センター");
    assert_int_equal(c->status, PK_CHECK_FOUND);
    assert_int_equal(c->keys, 2);
    assert_int_equal(c->move_unusable, 0);
    c = find(r, "上半身");
    assert_int_equal(c->move_unusable, 1);
    assert_int_equal(c->rotate_unusable, 0);
    assert_int_equal(r->items[2].status, PK_CHECK_CUT);
    assert_int_equal(r->items[2].index, 2);
    c = find(r, "左人差指１");
    assert_int_equal(c->status, PK_CHECK_MISSING);
    assert_int_equal(c->index, 3);
    assert_non_null(strstr(c->why, "人指/人差指"));
    c = find(r, "左肘");
    assert_int_equal(c->index, 4);
    assert_non_null(strstr(c->why, "ひじ/肘"));
    c = find(r, "右足IK");
    assert_int_equal(c->index, 5);
    assert_non_null(strstr(c->why, "full-width"));
    c = find(r, "neck");
    assert_int_equal(c->index, 6);
    assert_non_null(strstr(c->why, "English"));
    assert_int_equal(find(r, "ＮＥＣＫ")->index, 6);
    c = find(r, "没");
    assert_int_equal(c->rotate_unusable, 1);
    c = find(r, "ない");
    assert_int_equal(c->index, -1);
    assert_null(c->why);
    assert_true(r->items[10].morph && r->items[10].status == PK_CHECK_FOUND);
    assert_int_equal(r->items[11].status, PK_CHECK_MISSING);
    assert_int_equal(r->found, 4);
    assert_int_equal(r->cut, 1);
    assert_int_equal(r->missing, 7);
    assert_int_equal(r->near, 5);
    assert_int_equal(r->unusable, 2);
    assert_true(r->keyed[0] && r->keyed[1] && r->keyed[2] && r->keyed[7]);
    assert_false(r->keyed[3] || r->keyed[6]);
    pk_check_free(r);
    /* the cut on a character boundary (14 bytes) is found too; a cut of
     * another length is not */
    pk_motion_free(mo);
    mo = pk_motion_new();
    add_bone(mo, raw, pk_cp932_boundary(raw, 15), 0, 0);
    add_bone(mo, raw, 12, 0, 0);
    r = pk_check_motion(m, mo, &log);
    assert_int_equal(r->items[0].status, PK_CHECK_CUT);
    assert_int_equal(r->items[1].status, PK_CHECK_MISSING);
    pk_check_free(r);
    pk_motion_free(mo);
    pk_log_free(&log);
    pk_model_free(m);
}

/* A VPD holds 19 bytes of a name: the cut is at 19, not 15. */
static void test_check_pose(void **state)
{
    (void)state;
    pk_model *m = model();
    size_t len;
    const uint8_t *raw = pk_names_raw(m->names, m->bones[2].cp932, &len);
    pk_pose *p = pk_pose_new();
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, raw, 19);
    b->rot[3] = 1;
    b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, raw, 15);
    b->rot[3] = 1;
    pk_log log;
    pk_log_init(&log);
    pk_check_report *r = pk_check_pose(m, p, &log);
    assert_non_null(r);
    assert_int_equal(r->items[0].status, PK_CHECK_CUT);
    assert_int_equal(r->items[1].status, PK_CHECK_MISSING);
    pk_check_free(r);
    pk_pose_free(p);
    pk_log_free(&log);
    pk_model_free(m);
}

/* Long names that share their first 15 bytes (Gene's cloak bones): the
 * cut name matches all of them, listed in model order, each keyed; a key
 * one of them cannot use counts as unusable. */
static void test_check_ambiguous_cut(void **state)
{
    (void)state;
    static const char *const names[4] = {"センター", "前クローク2_1xca", "前クローク2_1xc+",
                                         "前クローク2_1xcIK"};
    static const uint16_t flags[4] = {0x1E, 0x1E, 0x1E, 0x1A}; /* the last cannot move */
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 0, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(&g, 0);
    pg_i32(&g, 4);
    for (int i = 0; i < 4; i++) {
        pg_text(&g, names[i]);
        pg_text(&g, "");
        pg_f3(&g, 0, 0, 0);
        pg_idx(&g, PG_BONE, i ? 0 : -1);
        pg_i32(&g, 0);
        pg_u16(&g, flags[i]);
        pg_f3(&g, 0, 1, 0);
    }
    pg_i32(&g, 0);
    pg_i32(&g, 0);
    pg_no_physics(&g);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g.b.data, g.b.len, &log);
    assert_non_null(m);
    pk_buf_free(&g.b);
    pk_motion *mo = pk_motion_new();
    size_t len;
    const uint8_t *raw = pk_names_raw(m->names, m->bones[1].cp932, &len);
    assert_int_equal(len, 16);
    add_bone(mo, raw, 15, 1, 0); /* 前クローク2_1xc, moved */
    add_bone_utf8(mo, "センター", 0, 0);
    pk_check_report *r = pk_check_motion(m, mo, &log);
    assert_non_null(r);
    const pk_check_item *c = &r->items[0];
    assert_int_equal(c->status, PK_CHECK_CUT);
    assert_int_equal(c->index, 1);
    assert_int_equal(c->nmatches, 3);
    assert_int_equal(c->matches[0], 1);
    assert_int_equal(c->matches[1], 2);
    assert_int_equal(c->matches[2], 3);
    assert_true(r->keyed[1] && r->keyed[2] && r->keyed[3]);
    assert_int_equal(c->move_unusable, 1);
    /* a name found whole has no list */
    assert_int_equal(r->items[1].status, PK_CHECK_FOUND);
    assert_null(r->items[1].matches);
    pk_check_free(r);
    pk_motion_free(mo);
    pk_log_free(&log);
    pk_model_free(m);
}

/* A model for the misses that matter: bones 0 センター, 1 上半身, 2 首,
 * 3 左肩, 4 右肩, 5 スカート２＿２, 6 前髪１ (a physics rigid body drives
 * it), 7 後髪 (a body that follows it); morphs 0 あ, 1 発音「え」, 2
 * 発音「えー」, 3 真面目. */
static pk_model *model_with_physics(void)
{
    static const char *const bones[8] = {"センター", "上半身",         "首",     "左肩",
                                         "右肩",     "スカート２＿２", "前髪１", "後髪"};
    static const char *const morphs[4] = {"あ", "発音「え」", "発音「えー」", "真面目"};
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 0, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(&g, 0);
    pg_i32(&g, 8);
    for (int i = 0; i < 8; i++) {
        pg_text(&g, bones[i]);
        pg_text(&g, "");
        pg_f3(&g, 0, (float)i, 0);
        pg_idx(&g, PG_BONE, i ? (i == 3 || i == 4 ? 2 : 0) : -1);
        pg_i32(&g, 0);
        pg_u16(&g, 0x1E);
        pg_f3(&g, 0, 1, 0);
    }
    pg_i32(&g, 4);
    for (int i = 0; i < 4; i++) {
        pg_text(&g, morphs[i]);
        pg_text(&g, "");
        pg_u8(&g, 3);
        pg_u8(&g, 1);
        pg_i32(&g, 0);
    }
    pg_i32(&g, 1); /* one display frame holding every bone */
    pg_text(&g, "all");
    pg_text(&g, "");
    pg_u8(&g, 0);
    pg_i32(&g, 8);
    for (int i = 0; i < 8; i++) {
        pg_u8(&g, 0);
        pg_idx(&g, PG_BONE, i);
    }
    pg_i32(&g, 2);
    pg_rigid_def hair = {"髪", "", 6, 1, 0xFFFF, 0, {1, 0, 0}, {0, 6, 0}, {0, 0, 0}, 1, 1};
    pg_rigid_def back = {"後", "", 7, 1, 0xFFFF, 0, {1, 0, 0}, {0, 7, 0}, {0, 0, 0}, 1, 0};
    pg_rigid(&g, &hair);
    pg_rigid(&g, &back);
    pg_i32(&g, 0);
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g.b.data, g.b.len, &log);
    assert_non_null(m);
    assert_int_equal(log.warnings, 0);
    pk_log_free(&log);
    pk_buf_free(&g.b);
    return m;
}

static void add_morph_utf8(pk_motion *mo, const char *utf8, float w)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    pk_morph_key *k = pk_motion_push_morph(mo);
    k->name = pk_names_intern(mo->names, raw, len);
    k->weight = w;
    free(raw);
}

/* Near-miss reasons name the difference that is there: full-width digits
 * and underscore plus an extra underscore, not "spaces or letter case";
 * letter case alone; a morph whose model name contains the missing one
 * (the shortest of those that do). */
static void test_check_reasons(void **state)
{
    (void)state;
    pk_model *m = model_with_physics();
    pk_motion *mo = pk_motion_new();
    add_bone_utf8(mo, "スカート_2_2", 0, 0.1f);
    add_bone_utf8(mo, "前髪1", 0, 0.1f);
    add_bone_utf8(mo, "ｽｶｰﾄ", 0, 0.1f); /* nothing near: half-width kana are not ASCII */
    add_morph_utf8(mo, "え", 1);
    add_morph_utf8(mo, "まじめ", 1);
    pk_log log;
    pk_log_init(&log);
    pk_check_report *r = pk_check_motion(m, mo, &log);
    assert_non_null(r);
    const pk_check_item *c = find(r, "スカート_2_2");
    assert_int_equal(c->index, 5);
    assert_string_equal(c->why, "the same name but for full-width ２＿ in the model's name and an "
                                "extra _ in the motion's name");
    c = find(r, "前髪1");
    assert_int_equal(c->index, 6);
    assert_string_equal(c->why, "the same name but for full-width １ in the model's name");
    assert_int_equal(find(r, "ｽｶｰﾄ")->index, -1);
    c = find(r, "え");
    assert_int_equal(c->index, 1);
    assert_string_equal(c->why,
                        "the model's morph whose name contains え (the shortest of 2 that do)");
    assert_int_equal(find(r, "まじめ")->index, -1);
    pk_check_free(r);
    pk_motion_free(mo);
    pk_model_free(m);
    /* width and letter case together; spaces; each named */
    m = model();
    mo = pk_motion_new();
    add_bone_utf8(mo, "右足ik", 0, 0);
    add_bone_utf8(mo, "上 半身", 0, 0);
    r = pk_check_motion(m, mo, &log);
    assert_string_equal(
        find(r, "右足ik")->why,
        "the same name but for full-width ＩＫ in the model's name and letter case");
    assert_string_equal(find(r, "上 半身")->why,
                        "the same name but for an extra space in the motion's name");
    pk_check_free(r);
    pk_motion_free(mo);
    pk_log_free(&log);
    pk_model_free(m);
}

/* Moving misses apart from misses whose keys are all at rest; the order
 * (keys off rest, then keys); bones physics drives; the retarget fold's
 * bones for a moving 上半身2; which model a motion fits better. */
static void test_check_moving_physics_fold(void **state)
{
    (void)state;
    pk_model *m = model_with_physics();
    pk_motion *mo = pk_motion_new();
    add_bone_utf8(mo, "上半身2", 0, 0.1f); /* missing, moving: folds into 首, 左肩, 右肩 */
    add_bone_utf8(mo, "上半身2", 0, 0.2f);
    add_bone_utf8(mo, "上半身2", 0, 0);
    add_bone_utf8(mo, "腰", 0, 0); /* missing, at rest */
    add_bone_utf8(mo, "腰", 0, 0);
    add_bone_utf8(mo, "左袖", 0, 0.3f); /* missing, moving, one key */
    add_bone_utf8(mo, "前髪１", 0, 0);  /* found, physics */
    add_bone_utf8(mo, "後髪", 0, 0.1f); /* found, its body follows it */
    add_bone_utf8(mo, "センター", 2, 0);
    add_morph_utf8(mo, "真面目", 0.5f); /* found */
    add_morph_utf8(mo, "にやり", 0);    /* missing, at rest */
    add_morph_utf8(mo, "ウィンク", 0.25f);
    pk_log log;
    pk_log_init(&log);
    pk_check_report *r = pk_check_motion(m, mo, &log);
    assert_non_null(r);
    assert_false(r->pose);
    assert_int_equal(r->missing, 5);
    assert_int_equal(r->missing_moving, 3);
    const pk_check_item *c = find(r, "上半身2");
    assert_int_equal(c->keys, 3);
    assert_int_equal(c->moving, 2);
    assert_int_equal(c->nfold_into, 3);
    assert_int_equal(c->fold_into[0], 2);
    assert_int_equal(c->fold_into[1], 3);
    assert_int_equal(c->fold_into[2], 4);
    c = find(r, "腰");
    assert_int_equal(c->moving, 0);
    assert_int_equal(c->nfold_into, 0); /* at rest: nothing to fold */
    assert_int_equal(find(r, "左袖")->nfold_into, 0);
    assert_true(find(r, "前髪１")->physics);
    assert_false(find(r, "後髪")->physics);
    assert_false(find(r, "センター")->physics);
    assert_int_equal(r->physics, 1);
    assert_true(r->driven[6]);
    assert_false(r->driven[7]);
    assert_int_equal(find(r, "ウィンク")->moving, 1);
    assert_int_equal(find(r, "にやり")->moving, 0);
    /* order: 上半身2 (2 off rest), then one off rest each in the order
     * they came (後髪, センター, 左袖, 真面目, ウィンク: bones first), then
     * 腰 (2 keys), then the rest */
    static const char *const want[10] = {"上半身2",  "左袖", "後髪",   "センター", "真面目",
                                         "ウィンク", "腰",   "前髪１", "にやり",   NULL};
    for (size_t i = 0; want[i]; i++)
        assert_string_equal(r->items[r->order[i]].name, want[i]);
    pk_check_free(r);
    /* the same motion against itself and a model lacking センター: the
     * model with every moving bone fits better */
    pk_check_fit fit;
    assert_int_equal(pk_check_compare(m, m, mo, NULL, &fit, &log), 0);
    assert_int_equal(fit.better, 0);
    assert_int_equal(fit.from_bones, 2);
    assert_int_equal(fit.from_bone_keys, 3);
    assert_int_equal(fit.from_morphs, 1);
    assert_int_equal(fit.from_morph_keys, 1);
    pk_model *other = model();
    assert_int_equal(pk_check_compare(m, other, mo, NULL, &fit, &log), 0);
    assert_int_equal(fit.better, -1);
    assert_int_equal(fit.to_bones, 3); /* 上半身2, 左袖, 後髪 (センター is there) */
    assert_int_equal(pk_check_compare(other, m, mo, NULL, &fit, &log), 0);
    assert_int_equal(fit.better, 1);
    pk_model_free(other);
    pk_motion_free(mo);
    pk_log_free(&log);
    pk_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_motion),
        cmocka_unit_test(test_check_pose),
        cmocka_unit_test(test_check_ambiguous_cut),
        cmocka_unit_test(test_check_reasons),
        cmocka_unit_test(test_check_moving_physics_fold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
