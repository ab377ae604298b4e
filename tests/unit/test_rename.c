/* test_rename.c — renaming by rules: exact and glob maps, inversion,
 * precedence, truncated names, collisions and widths (checked before any
 * change), IK names, padding, and rename∘reverse = identity over every
 * corpus VMD and VPD (through bytes, as the CLI does through files). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_bone(pk_motion *m, const char *name, uint32_t frame)
{
    pk_name_id id = tu_intern(m->names, name);
    pk_bone_key *k = pk_motion_push_bone(m);
    assert_non_null(k);
    k->name = id;
    k->frame = frame;
    k->rot[3] = 1.0f;
    k->pos[0] = (float)frame;
    pk_interp_linear(k->interp);
}

static void add_morph(pk_motion *m, const char *name)
{
    pk_name_id id = tu_intern(m->names, name);
    pk_morph_key *k = pk_motion_push_morph(m);
    assert_non_null(k);
    k->name = id;
    k->weight = 0.5f;
}

static const char *bone_name(const pk_motion *m, size_t i)
{
    return pk_names_utf8(m->names, m->bones[i].name);
}

static void test_exact_and_glob(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("rename:\n  センター: center\n  \"右*\": \"*_R\"\n  右腕: arm_R\n"
                           "  \"右腕*\": \"arm*_R\"\nmorphs:\n  まばたき: blink\n",
                           "t.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "センター", 0);
    add_bone(m, "右ひじ", 0);
    add_bone(m, "右腕", 0);
    add_bone(m, "右腕捩", 0);
    add_bone(m, "左腕", 0);
    add_bone(m, "センター", 5);
    add_morph(m, "まばたき");
    add_morph(m, "あ");
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_rename(m, r, false, &st, &log), 0);
    assert_string_equal(bone_name(m, 0), "center");
    assert_string_equal(bone_name(m, 1), "ひじ_R");  /* glob: capture substituted */
    assert_string_equal(bone_name(m, 2), "arm_R");   /* exact beats any glob */
    assert_string_equal(bone_name(m, 3), "arm捩_R"); /* longer literal "右腕*" beats "右*" */
    assert_string_equal(bone_name(m, 4), "左腕");    /* unmatched: kept */
    assert_string_equal(bone_name(m, 5), "center");
    assert_string_equal(pk_names_utf8(m->names, m->morphs[0].name), "blink");
    assert_string_equal(pk_names_utf8(m->names, m->morphs[1].name), "あ");
    assert_int_equal(st.bones, 5);
    assert_int_equal(st.bones_renamed, 4);
    assert_int_equal(st.morphs, 2);
    assert_int_equal(st.morphs_renamed, 1);
    assert_int_equal(st.nunmatched, 2); /* 左腕 and あ */
    /* Values and order are untouched. */
    assert_true(m->bones[5].pos[0] == 5.0f);
    pk_edit_stats_free(&st);

    /* And back. */
    assert_int_equal(pk_motion_rename(m, r, true, NULL, &log), 0);
    assert_string_equal(bone_name(m, 0), "センター");
    assert_string_equal(bone_name(m, 1), "右ひじ");
    assert_string_equal(bone_name(m, 2), "右腕");
    assert_string_equal(bone_name(m, 3), "右腕捩");
    assert_string_equal(bone_name(m, 4), "左腕");
    assert_string_equal(pk_names_utf8(m->names, m->morphs[0].name), "まばたき");
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* A glob whose target has no '*' cannot be inverted. */
static void test_reverse_needs_star(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("rename:\n  \"右*\": right\n", "t.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "right", 0);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, true, NULL, &log), -1);
    tu_assert_log_has(&log, "t.yaml:2:9: rule '右*': 'right' cannot be reversed");
    assert_string_equal(bone_name(m, 0), "right");
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* Two tracks ending with one name: an error naming both; nothing changes. */
static void test_collision(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("rename:\n  センター: center\n  グルーブ: groove\n", "t.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "グルーブ", 0);
    add_bone(m, "センター", 0);
    add_bone(m, "center", 0);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "bone 'センター' and bone 'center' would both be named 'center'");
    assert_string_equal(bone_name(m, 0), "グルーブ"); /* untouched */
    assert_string_equal(bone_name(m, 1), "センター");
    pk_log_free(&log);
    pk_motion_free(m);
    /* Same in a pose. */
    pk_pose *p = pk_pose_new();
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = tu_intern(p->names, "センター");
    b = pk_pose_push_bone(p);
    b->name = tu_intern(p->names, "center");
    pk_log_init(&log);
    assert_int_equal(pk_pose_rename(p, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "would both be named 'center'");
    pk_log_free(&log);
    pk_pose_free(p);
    pk_rules_free(r);
}

/* Targets must fit the output's field: 15 bytes for VMD bones, 19 in VPD;
 * the error names the bone and points at the rule. */
static void test_width(void **state)
{
    (void)state;
    /* "sixteen_bytes_ab" is 16 bytes: fine for a VPD, too long for a VMD. */
    pk_rules *r = tu_rules("rename:\n  センター: sixteen_bytes_ab\n", "t.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "センター", 0);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "t.yaml:2:9: bone 'センター' would become 'sixteen_bytes_ab', 16 "
                            "bytes in CP932; the field holds 15");
    assert_string_equal(bone_name(m, 0), "センター");
    pk_log_free(&log);
    pk_motion_free(m);

    pk_pose *p = pk_pose_new();
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = tu_intern(p->names, "センター");
    pk_log_init(&log);
    assert_int_equal(pk_pose_rename(p, r, false, NULL, &log), 0);
    assert_string_equal(pk_names_utf8(p->names, p->bones[0].name), "sixteen_bytes_ab");
    pk_log_free(&log);
    pk_pose_free(p);
    pk_rules_free(r);

    /* A glob's result is checked too: 右 + 13 bytes of capture + _R = 15 OK,
     * one more byte is 16. */
    r = tu_rules("rename:\n  \"右*\": \"*_RR\"\n", "t.yaml");
    m = pk_motion_new();
    add_bone(m, "右abcdefghijkl", 0);  /* capture 12 bytes -> 15 */
    add_bone(m, "右abcdefghijklm", 0); /* capture 13 bytes -> 16: too long */
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "bone '右abcdefghijklm' would become 'abcdefghijklm_RR', 16 bytes");
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* An operation reports a rule's line with the rule file's path (placed
 * when added); its other messages are left for the caller to place at
 * the motion's file, which leaves the rule's alone. */
static void test_log_path_kept(void **state)
{
    (void)state;
    pk_rules *r = tu_rules("rename:\n  センター: sixteen_bytes_ab\n  \"右*\": right\n"
                           "  グルーブ: center\n",
                           "t.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "センター", 0);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1); /* width: at the rule */
    assert_int_equal(pk_motion_rename(m, r, true, NULL, &log), -1);  /* reverse: at the rule */
    pk_log_place(&log, 0, "dance.vmd");
    tu_assert_log_has(&log, "t.yaml:2:9: bone 'センター' would become");
    for (size_t i = 0; i < log.count; i++) {
        assert_non_null(log.items[i].path);
        assert_string_equal(log.items[i].path, "t.yaml");
    }
    pk_motion_free(m);
    m = pk_motion_new();
    add_bone(m, "グルーブ", 0);
    add_bone(m, "center", 0);
    size_t before = log.count;
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1); /* a collision */
    assert_true(log.count > before);
    assert_null(log.items[log.count - 1].path);
    assert_false(log.items[log.count - 1].placed);
    pk_log_place(&log, before, "dance.vmd");
    assert_non_null(log.items[log.count - 1].path);
    assert_string_equal(log.items[log.count - 1].path, "dance.vmd");
    pk_motion_free(m);
    pk_rules_free(r);
    /* A rules file's own errors are placed at it, whatever the caller
     * places after. */
    before = log.count;
    r = pk_rules_parse("rename: [", 10, "bad.yaml", &log);
    assert_null(r);
    pk_log_place(&log, before, "dance.vmd");
    assert_true(log.count > before);
    for (size_t i = before; i < log.count; i++)
        assert_string_equal(log.items[i].path, "bad.yaml");
    pk_log_free(&log);
}

/* IK names in show/IK records are renamed with the bone map (20-byte field). */
static void test_ik_names(void **state)
{
    (void)state;
    pk_rules *r =
        tu_rules("rename:\n  左足ＩＫ: leg_IK_L\n  右足ＩＫ: seventeen_bytes_R\n", "t.yaml");
    pk_motion *m = pk_motion_new();
    add_bone(m, "左足ＩＫ", 0);
    pk_ik_key *k = pk_motion_push_ik(m, 2);
    assert_non_null(k);
    k->show = 1;
    k->ik[0].name = tu_intern(m->names, "左足ＩＫ");
    k->ik[0].enabled = 1;
    k->ik[1].name = tu_intern(m->names, "右足ＩＫ"); /* IK only: 20 bytes allowed */
    pk_log log;
    pk_log_init(&log);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(pk_motion_rename(m, r, false, &st, &log), 0);
    assert_string_equal(bone_name(m, 0), "leg_IK_L");
    assert_string_equal(pk_names_utf8(m->names, m->iks[0].ik[0].name), "leg_IK_L");
    assert_string_equal(pk_names_utf8(m->names, m->iks[0].ik[1].name), "seventeen_bytes_R");
    assert_int_equal(st.ik_renamed, 2);
    pk_edit_stats_free(&st);
    pk_motion_free(m);
    /* The same 17-byte name as a bone track does not fit. */
    m = pk_motion_new();
    add_bone(m, "右足ＩＫ", 3);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "bone '右足ＩＫ' would become 'seventeen_bytes_R', 17 bytes");
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* A name MMD cut at 15 bytes matches the rule for the full name. */
static void test_truncated(void **state)
{
    (void)state;
    /* 左人差し指先端ボーンです is 24 bytes; MMD stored its first 15 (the last
     * one a lone lead byte) or 14 (cut at a character). */
    pk_rules *r = tu_rules("rename:\n  左人差し指先端ボーンです: index_tip_L\n", "t.yaml");
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932("左人差し指先端ボーンです", &raw, &len), 0);
    pk_motion *m = pk_motion_new();
    for (size_t cut = 14; cut <= 15; cut++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = pk_names_intern(m->names, raw, cut);
        k->rot[3] = 1;
    }
    free(raw);
    pk_log log;
    pk_log_init(&log);
    /* Both cuts match, so both become index_tip_L: two tracks, one name. */
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), -1);
    tu_assert_log_has(&log, "would both be named 'index_tip_L'");
    pk_log_free(&log);
    m->nbones = 1; /* keep the 14-byte cut only */
    pk_log_init(&log);
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), 0);
    assert_string_equal(bone_name(m, 0), "index_tip_L");
    pk_log_free(&log);
    pk_motion_free(m);
    pk_rules_free(r);
}

/* ---- padding: a hand-made VMD whose name field has the 0xFD fill ---- */

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void test_padding_round_trip(void **state)
{
    (void)state;
    /* Header (30 + 20), one bone key (111), morph count 0: 169 bytes. */
    uint8_t f[30 + 20 + 4 + 111 + 4];
    memset(f, 0, sizeof f);
    memcpy(f, "Vocaloid Motion Data 0002", 25);
    put_u32(f + 50, 1);
    uint8_t *rec = f + 54;
    /* センター = 83 5A 83 93 83 5E 81 5B, NUL, then FD x 6 (MMD 7.39 era). */
    static const uint8_t name[15] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B,
                                     0x00, 0xFD, 0xFD, 0xFD, 0xFD, 0xFD, 0xFD};
    memcpy(rec, name, 15);
    rec[15 + 4 + 24 + 2] = 0x80; /* rot w = 1.0f: 00 00 80 3F */
    rec[15 + 4 + 24 + 3] = 0x3F;
    put_u32(f + 54 + 111, 0);
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(f, sizeof f, &log);
    assert_non_null(m);
    pk_rules *r = tu_rules("rename:\n  センター: center\n", "t.yaml");
    assert_int_equal(pk_motion_rename(m, r, false, NULL, &log), 0);
    pk_buf b;
    pk_buf_init(&b);
    assert_int_equal(pk_vmd_write(m, &b, &log), 0);
    /* The fill continues after the shorter name: center, NUL, FD x 8. */
    static const uint8_t want[15] = {'c',  'e',  'n',  't',  'e',  'r',  0x00, 0xFD,
                                     0xFD, 0xFD, 0xFD, 0xFD, 0xFD, 0xFD, 0xFD};
    assert_memory_equal(b.data + 54, want, 15);
    /* Through bytes and back: the original file. */
    pk_motion *m2 = pk_vmd_read(b.data, b.len, &log);
    assert_non_null(m2);
    assert_int_equal(pk_motion_rename(m2, r, true, NULL, &log), 0);
    pk_buf b2;
    pk_buf_init(&b2);
    assert_int_equal(pk_vmd_write(m2, &b2, &log), 0);
    assert_int_equal(b2.len, sizeof f);
    assert_memory_equal(b2.data, f, sizeof f);
    assert_int_equal(log.errors, 0);
    pk_buf_free(&b);
    pk_buf_free(&b2);
    pk_motion_free(m);
    pk_motion_free(m2);
    pk_rules_free(r);
    pk_log_free(&log);
}

/* ---- corpus property: rename then rename --reverse = the same bytes ---- */

static pk_rules *shipped(const char *name)
{
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/rules/%s", src, name);
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_load(path, &log);
    pk_log_free(&log);
    return r;
}

/* Returns 1 when the property held, 0 when the file is not usable (cannot
 * be read or written back unedited, or the forward rename is refused). */
static int vmd_round_trip(const char *path, const pk_rules *r, size_t *renamed)
{
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(data, len, &log);
    free(data);
    int ok = 0;
    pk_buf orig, mid, back;
    pk_buf_init(&orig);
    pk_buf_init(&mid);
    pk_buf_init(&back);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    if (m && pk_vmd_write(m, &orig, &log) == 0 && pk_motion_rename(m, r, false, &st, &log) == 0 &&
        pk_vmd_write(m, &mid, &log) == 0) {
        pk_motion *m2 = pk_vmd_read(mid.data, mid.len, &log);
        assert_non_null(m2);
        assert_int_equal(pk_motion_rename(m2, r, true, NULL, &log), 0);
        assert_int_equal(pk_vmd_write(m2, &back, &log), 0);
        if (back.len != orig.len || memcmp(back.data, orig.data, orig.len) != 0)
            fail_msg("%s: rename + reverse changed the bytes", path);
        *renamed += st.bones_renamed + st.morphs_renamed;
        pk_motion_free(m2);
        ok = 1;
    }
    pk_edit_stats_free(&st);
    pk_buf_free(&orig);
    pk_buf_free(&mid);
    pk_buf_free(&back);
    pk_motion_free(m);
    pk_log_free(&log);
    return ok;
}

static int vpd_round_trip(const char *path, const pk_rules *r, size_t *renamed)
{
    size_t len;
    uint8_t *data = tu_read_file(path, &len);
    pk_log log;
    pk_log_init(&log);
    pk_pose *p = pk_vpd_read(data, len, &log);
    free(data);
    int ok = 0;
    pk_buf orig, mid, back;
    pk_buf_init(&orig);
    pk_buf_init(&mid);
    pk_buf_init(&back);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    if (p && pk_vpd_write(p, NULL, &orig, &log) == 0 &&
        pk_pose_rename(p, r, false, &st, &log) == 0 && pk_vpd_write(p, NULL, &mid, &log) == 0) {
        pk_pose *p2 = pk_vpd_read(mid.data, mid.len, &log);
        assert_non_null(p2);
        assert_int_equal(pk_pose_rename(p2, r, true, NULL, &log), 0);
        assert_int_equal(pk_vpd_write(p2, NULL, &back, &log), 0);
        if (back.len != orig.len || memcmp(back.data, orig.data, orig.len) != 0)
            fail_msg("%s: rename + reverse changed the bytes", path);
        *renamed += st.bones_renamed + st.morphs_renamed;
        pk_pose_free(p2);
        ok = 1;
    }
    pk_edit_stats_free(&st);
    pk_buf_free(&orig);
    pk_buf_free(&mid);
    pk_buf_free(&back);
    pk_pose_free(p);
    pk_log_free(&log);
    return ok;
}

static void corpus_property(const char *rules_yaml, const char *shipped_name)
{
    char **vmds, **vpds;
    size_t nvmd = tu_corpus_list(".vmd", &vmds), nvpd = tu_corpus_list(".vpd", &vpds);
    if (!nvmd && !nvpd)
        skip();
    pk_rules *r = shipped_name ? shipped(shipped_name) : tu_rules(rules_yaml, "t.yaml");
    if (!r) {
        tu_free_list(vmds, nvmd);
        tu_free_list(vpds, nvpd);
        skip();
    }
    size_t checked = 0, renamed = 0;
    for (size_t i = 0; i < nvmd; i++)
        checked += (size_t)vmd_round_trip(vmds[i], r, &renamed);
    for (size_t i = 0; i < nvpd; i++)
        checked += (size_t)vpd_round_trip(vpds[i], r, &renamed);
    print_message("rename+reverse: %zu of %zu corpus files identical, %zu tracks renamed\n",
                  checked, nvmd + nvpd, renamed);
    /* Every VMD must take part; only the damaged VPD may be unwritable. */
    assert_true(checked + 1 >= nvmd + nvpd);
    assert_true(renamed > 0);
    pk_rules_free(r);
    tu_free_list(vmds, nvmd);
    tu_free_list(vpds, nvpd);
}

static void test_corpus_ja_en(void **state)
{
    (void)state;
    corpus_property(NULL, "ja-en.yaml");
}

static void test_corpus_globs(void **state)
{
    (void)state;
    corpus_property("rename:\n  \"左*\": \"*_L\"\n  \"右*\": \"*_R\"\n  センター: center\n"
                    "morphs:\n  \"*右\": \"*ミギ\"\n",
                    NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_and_glob), cmocka_unit_test(test_reverse_needs_star),
        cmocka_unit_test(test_collision),      cmocka_unit_test(test_width),
        cmocka_unit_test(test_log_path_kept),  cmocka_unit_test(test_ik_names),
        cmocka_unit_test(test_truncated),      cmocka_unit_test(test_padding_round_trip),
        cmocka_unit_test(test_corpus_ja_en),   cmocka_unit_test(test_corpus_globs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
