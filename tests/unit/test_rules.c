/* test_rules.c — the rules loader: schema, layers, includes, and every
 * validation error with its FILE:LINE:COL (columns counted by hand from the
 * YAML text in each test: 1-based, in characters). */
#include "common/yaml_extra.h"
#include "rules/rules.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses `yaml` as "r.yaml"; expects failure with a diagnostic containing
 * "r.yaml:LINE:COL: " followed (somewhere) by `needle`. */
static void expect_error(const char *yaml, int line, int col, const char *needle)
{
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_parse(yaml, strlen(yaml), "r.yaml", &log);
    assert_null(r);
    char want[64];
    snprintf(want, sizeof want, "r.yaml:%d:%d: ", line, col);
    char buf[1024];
    bool found = false;
    for (size_t i = 0; i < log.count && !found; i++) {
        pk_diag_format(&log.items[i], buf, sizeof buf);
        found = strstr(buf, want) && strstr(buf, needle);
    }
    if (!found) {
        for (size_t i = 0; i < log.count; i++) {
            pk_diag_format(&log.items[i], buf, sizeof buf);
            print_error("  log: %s\n", buf);
        }
        fail_msg("no error \"%s...%s\"", want, needle);
    }
    pk_log_free(&log);
}

static pk_rules *parse_ok(const char *yaml)
{
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_parse(yaml, strlen(yaml), "r.yaml", &log);
    for (size_t i = 0; i < log.count; i++) {
        char buf[1024];
        pk_diag_format(&log.items[i], buf, sizeof buf);
        print_error("  log: %s\n", buf);
    }
    assert_non_null(r);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    return r;
}

/* Whether selection `spec` (under rules r) holds the UTF-8 name. */
static bool sel_has(const pk_rules *r, const char *spec, const char *name)
{
    pk_log log;
    pk_log_init(&log);
    pk_selection *s = pk_selection_parse(r, spec, &log);
    assert_non_null(s);
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(name, &raw, &len), 0);
    bool has = pk_selection_has(s, raw, len);
    free(raw);
    pk_selection_free(s);
    pk_log_free(&log);
    return has;
}

/* ---- built-in groups and selections ---- */

static void test_default_groups(void **state)
{
    (void)state;
    /* NULL rules: the standard groups alone. */
    assert_true(sel_has(NULL, "@hand_R", "右手首"));
    assert_true(sel_has(NULL, "@hand_R", "右親指０"));
    assert_true(sel_has(NULL, "@hand_R", "右小指３"));
    assert_false(sel_has(NULL, "@hand_R", "左手首"));
    assert_false(sel_has(NULL, "@hand_R", "右ひじ"));
    assert_true(sel_has(NULL, "@arm_L", "左肩"));
    assert_true(sel_has(NULL, "@arm_L", "左手首"));
    assert_false(sel_has(NULL, "@arm_L", "左親指１"));
    assert_true(sel_has(NULL, "@index_L", "左人指２"));
    assert_false(sel_has(NULL, "@index_L", "左人差指先")); /* 人差指 is the tip bone */
    assert_true(sel_has(NULL, "@leg_R", "腰キャンセル右"));
    assert_true(sel_has(NULL, "@ik", "左足ＩＫ"));
    assert_true(sel_has(NULL, "@trunk", "センター"));
    assert_true(sel_has(NULL, "@root", "全ての親"));
    assert_true(sel_has(NULL, "@head", "頭"));
    assert_true(sel_has(NULL, "@eyes", "両目"));
    /* @eyes is also the eye morph group. */
    assert_true(sel_has(NULL, "@eyes", "まばたき"));
    assert_true(sel_has(NULL, "@mouth", "あ"));
    assert_true(sel_has(NULL, "@brows", "困る"));
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_default(&log);
    assert_non_null(r);
    static const char *required[] = {
        "hand_L",  "hand_R",   "fingers_L", "fingers_R", "thumb_L",     "thumb_R",    "index_L",
        "index_R", "middle_L", "middle_R",  "ring_L",    "ring_R",      "little_L",   "little_R",
        "arm_L",   "arm_R",    "leg_L",     "leg_R",     "ik",          "head",       "trunk",
        "root",    "eyes",     "mouth",     "brows",     "arm_below_L", "arm_below_R"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        assert_true(pk_rules_has_group(r, required[i]));
    assert_true(pk_rules_group_count(r) >= 20);
    pk_rules_free(r);
    pk_log_free(&log);
}

static void test_selection_lists(void **state)
{
    (void)state;
    assert_true(sel_has(NULL, "センター,グルーブ", "グルーブ"));
    assert_true(sel_has(NULL, " センター , グルーブ ", "センター"));
    assert_false(sel_has(NULL, "センター,グルーブ", "上半身"));
    assert_true(sel_has(NULL, "右*", "右ひじ"));
    assert_false(sel_has(NULL, "右*", "左ひじ"));
    assert_true(sel_has(NULL, "*ＩＫ", "左足ＩＫ"));
    assert_true(sel_has(NULL, "@hand_L,頭", "頭"));
    assert_true(sel_has(NULL, "@hand_L,頭", "左中指１"));

    pk_log log;
    pk_log_init(&log);
    assert_null(pk_selection_parse(NULL, "@no_such_group", &log));
    tu_assert_log_has(&log, "unknown group '@no_such_group'");
    pk_log_free(&log);
    pk_log_init(&log);
    assert_null(pk_selection_parse(NULL, "a,,b", &log));
    tu_assert_log_has(&log, "empty name");
    pk_log_free(&log);
    pk_log_init(&log);
    assert_null(pk_selection_parse(NULL, "*a*", &log));
    tu_assert_log_has(&log, "more than one '*'");
    pk_log_free(&log);
}

/* A suffix glob must match whole characters: "*左" (8D B6) must not match
 * a name whose bytes merely end in 8D B6 across a character boundary.
 * 燕 is 89 8D in CP932 and ｶ is the single byte B6, so "燕ｶ" ends in
 * 8D B6 without containing 左. */
static void test_glob_boundary(void **state)
{
    (void)state;
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932("燕ｶ", &raw, &len), 0);
    assert_int_equal(len, 3);
    assert_int_equal(raw[1], 0x8D);
    assert_int_equal(raw[2], 0xB6);
    free(raw);
    assert_false(sel_has(NULL, "*左", "燕ｶ"));
    assert_true(sel_has(NULL, "*左", "腰キャンセル左"));
}

/* Names MMD cut at 15 (VMD) or 19 (VPD) bytes still match the full name. */
static void test_truncated_match(void **state)
{
    (void)state;
    /* 左人差し指先端ボーンです: 12 double-byte characters = 24 bytes. */
    const char *full = "左人差し指先端ボーンです";
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(full, &raw, &len), 0);
    assert_int_equal(len, 24);
    pk_log log;
    pk_log_init(&log);
    pk_selection *s = pk_selection_parse(NULL, full, &log);
    assert_non_null(s);
    assert_true(pk_selection_has(s, raw, len));
    assert_true(pk_selection_has(s, raw, 15));  /* raw cut: lone lead byte at the end */
    assert_true(pk_selection_has(s, raw, 14));  /* cut at the character boundary */
    assert_true(pk_selection_has(s, raw, 19));  /* VPD raw cut */
    assert_true(pk_selection_has(s, raw, 18));  /* VPD boundary cut */
    assert_false(pk_selection_has(s, raw, 13)); /* no format cuts there */
    assert_false(pk_selection_has(s, raw, 16));
    pk_selection_free(s);
    pk_log_free(&log);
    free(raw);
}

/* ---- schema ---- */

static void test_full_schema(void **state)
{
    (void)state;
    const char *yaml = "rename:\n"
                       "  センター: center\n"
                       "  \"右*\": \"*_R\"\n"
                       "morphs:\n"
                       "  まばたき: blink\n"
                       "groups:\n"
                       "  mine: [センター, \"@hand_R\", \"左*\"]\n"
                       "morph_groups:\n"
                       "  blinks: [まばたき]\n"
                       "mirror:\n"
                       "  - [左, 右]\n"
                       "  - [L, R]\n"
                       "stance:\n"
                       "  - {bone: 左腕, rotate: [0, 0, 35], chain: \"@arm_below_L\"}\n"
                       "scale:\n"
                       "  default: 0.5\n"
                       "  bones: {センター: 0.9, グルーブ: 0.9}\n";
    pk_rules *r = parse_ok(yaml);
    assert_true(sel_has(r, "@mine", "センター"));
    assert_true(sel_has(r, "@mine", "右手首"));
    assert_true(sel_has(r, "@mine", "左足"));
    assert_false(sel_has(r, "@mine", "グルーブ"));
    assert_true(sel_has(r, "@blinks", "まばたき"));
    assert_true(sel_has(r, "@hand_L", "左手首")); /* built-in groups stay */
    pk_rules_free(r);
    /* An empty file is an empty rule set. */
    pk_rules_free(parse_ok(""));
    pk_rules_free(parse_ok("# nothing\n"));
}

/* A file's own definitions override the built-in layer. */
static void test_override(void **state)
{
    (void)state;
    pk_rules *r = parse_ok("groups:\n  hand_R: [右手首]\n");
    assert_true(sel_has(r, "@hand_R", "右手首"));
    assert_false(sel_has(r, "@hand_R", "右親指１"));
    pk_rules_free(r);
}

/* ---- every validation error, with its position ---- */

static void test_err_syntax(void **state)
{
    (void)state;
    /* The flow sequence opened on line 2 is never closed; libyaml notices
     * at the start of line 3, where a block key appears instead. */
    expect_error("groups:\n  g: [a, b\nrename: {}\n", 3, 7, "YAML syntax error");
    /* A tab cannot indent: libyaml points at the tab (line 2, column 1). */
    expect_error("rename:\n\ta: b\n", 2, 1, "YAML syntax error");
    /* a second document would be dropped without a word: an error at its start */
    expect_error("rename: {a: b}\n---\nrename: {c: d}\n", 2, 1, "one YAML document");
    expect_error("rename: {a: b}\n...\n]\n", 3, 1, "one YAML document");
    /* nesting past the limit: an error at the first collection too deep
     * (libyaml's scanner would take minutes over 100,000 levels) */
    static char deep[8 + 100000 + 1];
    memcpy(deep, "rename: ", 8);
    memset(deep + 8, '[', 100000);
    /* the root mapping is the first level: the 64th `[` the 65th */
    expect_error(deep, 1, 8 + PKI_YAML_MAX_DEPTH, "nested deeper than 64 levels");
    expect_error("rename: [[[[a]]]]\n", 1, 9, "must be a mapping");
}

static void test_err_unknown_key(void **state)
{
    (void)state;
    expect_error("renmae:\n  a: b\n", 1, 1, "unknown key 'renmae'");
    expect_error("rename: {}\nscale:\n  defualt: 1\n", 3, 3, "unknown key 'defualt' in scale");
    expect_error("stance:\n  - {bone: a, rotate: [0,0,1], chian: b}\n", 2, 32,
                 "unknown key 'chian'");
}

static void test_err_wrong_type(void **state)
{
    (void)state;
    expect_error("rename: [a, b]\n", 1, 9, "must be a mapping");
    expect_error("groups:\n  g: abc\n", 2, 6, "must be a list");
    expect_error("rename:\n  a: [x]\n", 2, 6, "must be a string");
    expect_error("scale:\n  default: big\n", 2, 12, "must be a number");
    expect_error("stance:\n  - {bone: a, rotate: [0, 0, x]}\n", 2, 30, "must be a number");
    expect_error("stance:\n  - {bone: a, rotate: [0, 0]}\n", 2, 23, "three angles");
    expect_error("mirror:\n  - [左]\n", 2, 5, "two names");
    expect_error("- a\n- b\n", 1, 1, "must be a mapping of keys");
    expect_error("stance:\n  - {rotate: [0, 0, 1]}\n", 2, 5, "has no 'bone'");
}

static void test_err_glob(void **state)
{
    (void)state;
    expect_error("rename:\n  \"右*指*\": \"*_R\"\n", 2, 3, "more than one '*'");
    expect_error("rename:\n  \"右*\": \"*_R*\"\n", 2, 9, "more than one '*'");
    expect_error("groups:\n  g: [\"*a*\"]\n", 2, 7, "more than one '*'");
    expect_error("rename:\n  a: \"*_R\"\n", 2, 6, "has a '*' but its source");
}

static void test_err_unknown_group(void **state)
{
    (void)state;
    expect_error("groups:\n  g: [a, \"@nope\"]\n", 2, 10, "unknown group @nope");
    expect_error("stance:\n  - {bone: a, rotate: [0, 0, 1], chain: \"@nope\"}\n", 2, 41,
                 "unknown group @nope");
    /* A cycle of references. */
    expect_error("groups:\n  a: [\"@b\"]\n  b: [\"@a\"]\n", 2, 3, "refers back to itself");
}

static void test_err_one_to_one(void **state)
{
    (void)state;
    expect_error("rename:\n  a: x\n  b: x\n", 3, 6, "'a' and 'b' both map to 'x'");
    expect_error("morphs:\n  a: x\n  b: x\n", 3, 6, "both map to 'x'");
    expect_error("rename:\n  \"右*\": \"*R\"\n  \"左*\": \"*R\"\n", 3, 9, "both map to '*R'");
    expect_error("rename:\n  a: x\n  a: y\n", 3, 3, "duplicate key 'a'");
}

static void test_err_target(void **state)
{
    (void)state;
    /* U+1F600 has no CP932 code. */
    expect_error("rename:\n  a: \"\xF0\x9F\x98\x80\"\n", 2, 6, "does not encode to CP932");
    /* 21 ASCII bytes: no name field holds that many. */
    expect_error("rename:\n  a: abcdefghijklmnopqrstu\n", 2, 6, "21 bytes");
    /* 10 double-byte characters = 20 bytes. */
    expect_error("rename:\n  a: あいうえおかきくけこ\n", 2, 6, "20 bytes");
}

/* The mapping form of a morph rule ({to, factor, clamp}): what loads, and
 * every error at its node. */
static void test_morph_weights(void **state)
{
    (void)state;
    pk_rules *r = parse_ok("morphs:\n  あ: {to: [笑い, にこり], factor: 0.8}\n"
                           "  い: {to: {笑い: 0.5, \"口\": 2}, clamp: [-1, 1.5]}\n"
                           "  \"*右\": {to: \"*_R\"}\n  まばたき: {factor: 0.5}\n  え: e\n");
    assert_int_equal(r->morphs.n, 5);
    const pki_map_rule *a = &r->morphs.v[0], *i = &r->morphs.v[1], *m = &r->morphs.v[3];
    assert_true(a->weighted && a->ntargets == 2);
    assert_string_equal(a->targets[1].utf8, "にこり");
    assert_true(fabs(a->targets[0].factor - 0.8) < 1e-12 && a->lo == 0.0 && a->hi == 1.0);
    assert_true(i->ntargets == 2 && i->targets[1].factor == 2.0 && i->lo == -1.0 && i->hi == 1.5);
    assert_true(m->ntargets == 1 && m->targets[0].factor == 0.5);
    assert_string_equal(m->targets[0].utf8, "まばたき"); /* in place */
    assert_false(r->morphs.v[4].weighted);
    pk_rules_free(r);
    /* weighted rules may share a target; plain ones may not, and are told so */
    r = parse_ok("morphs:\n  a: {to: x}\n  b: {to: x}\n  c: x\n");
    pk_rules_free(r);
    expect_error("morphs:\n  a: x\n  b: x\n", 3, 6, "{to: NAME} sums morphs into one");

    expect_error("rename:\n  a: {to: b}\n", 2, 6,
                 "a rename target must be a string, not a mapping");
    expect_error("morphs:\n  a: [b]\n", 2, 6, "a morph rule (a name or {to, factor, clamp})");
    expect_error("morphs:\n  a: {to: b, factor: lots}\n", 2, 22,
                 "factor must be a number, not 'lots'");
    expect_error("morphs:\n  a: {to: b, scale: 2}\n", 2, 14,
                 "unknown key 'scale' in the rule for 'a'");
    expect_error("morphs:\n  a: {}\n", 2, 6, "the rule for 'a' is empty");
    expect_error("morphs:\n  a: {to: []}\n", 2, 11, "to names no target");
    expect_error("morphs:\n  a: {to: [x, y, x]}\n", 2, 18, "target 'x' named twice");
    expect_error("morphs:\n  a: {to: {x: big}}\n", 2, 15, "a target's factor must be a number");
    expect_error("morphs:\n  a: {to: \"*x\"}\n", 2, 11,
                 "target '*x' has a '*' but its source 'a' has none");
    expect_error("morphs:\n  a: {to: あいうえおかきくけこ}\n", 2, 11, "20 bytes");
    expect_error("morphs:\n  a: {clamp: [1, 0]}\n", 2, 14, "clamp [1, 0] is empty");
    expect_error("morphs:\n  a: {clamp: 1}\n", 2, 14, "clamp must be a list of two numbers");
    expect_error("morphs:\n  a: {clamp: [0, x]}\n", 2, 18, "clamp's high end must be a number");
}

/* ---- files: includes, relative paths, cycles ---- */

static const char *data_path(const char *name)
{
    static char buf[4096];
    const char *dir = getenv("PK_TESTDATA");
    if (!dir || !*dir)
        return NULL;
    snprintf(buf, sizeof buf, "%s/rules/%s", dir, name);
    return buf;
}

static void test_include(void **state)
{
    (void)state;
    const char *p = data_path("include_top.yaml");
    if (!p)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_rules *r = pk_rules_load(p, &log);
    assert_non_null(r);
    /* sub/part.yaml defines group `part` and renames a -> b; the top file
     * overrides a -> c. */
    assert_true(sel_has(r, "@part", "パーツ"));
    assert_true(sel_has(r, "@top", "パーツ"));
    pk_rules_free(r);
    pk_log_free(&log);
}

static void test_include_cycle(void **state)
{
    (void)state;
    const char *p = data_path("cycle_a.yaml");
    if (!p)
        skip();
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_rules_load(p, &log));
    /* cycle_b.yaml line 2: "include: [cycle_a.yaml]", item at column 11. */
    tu_assert_log_has(&log, "cycle_b.yaml:2:11: include cycle");
    pk_log_free(&log);
}

static void test_include_missing(void **state)
{
    (void)state;
    expect_error("\ninclude: no_such_file.yaml\n", 2, 10, "cannot find included file");
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_rules_load("/nonexistent/rules.yaml", &log));
    tu_assert_log_has(&log, "/nonexistent/rules.yaml: cannot open rules");
    pk_log_free(&log);
}

/* include: standard.yaml resolves to the built-in copy when no file of
 * that name is beside the including one. */
static void test_include_builtin(void **state)
{
    (void)state;
    pk_rules *r = parse_ok("include: [standard.yaml]\ngroups:\n  x: [\"@hand_L\"]\n");
    assert_true(sel_has(r, "@x", "左親指２"));
    pk_rules_free(r);
}

/* The shipped rule files load cleanly. */
/* YAML's null (a plain empty value, ~, null, Null, NULL) is a key with no
 * value, in rule files as in job files; a quoted "" or "null" is a
 * string, which a map cannot be. */
static void test_yaml_null(void **state)
{
    (void)state;
    static const char *const NULLS[] = {"", "~", "null", "Null", "NULL"};
    for (size_t i = 0; i < sizeof NULLS / sizeof NULLS[0]; i++) {
        char yaml[64];
        snprintf(yaml, sizeof yaml, "rename: %s\nmirror: %s\n", NULLS[i], NULLS[i]);
        pk_rules_free(parse_ok(yaml));
    }
    expect_error("rename: \"\"\n", 1, 9, "must be a mapping");
    expect_error("rename: \"null\"\n", 1, 9, "must be a mapping");
    expect_error("rename: nul\n", 1, 9, "must be a mapping");
}

static void test_shipped(void **state)
{
    (void)state;
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        skip();
    static const char *files[] = {"standard.yaml", "ja-en.yaml", "mirror.yaml",
                                  "a-to-t-stance.yaml", "t-to-a-stance.yaml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rules/%s", src, files[i]);
        pk_log log;
        pk_log_init(&log);
        pk_rules *r = pk_rules_load(path, &log);
        if (!r) {
            char buf[1024];
            for (size_t j = 0; j < log.count; j++) {
                pk_diag_format(&log.items[j], buf, sizeof buf);
                print_error("  %s\n", buf);
            }
            fail_msg("%s does not load", files[i]);
        }
        pk_rules_free(r);
        pk_log_free(&log);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_groups),    cmocka_unit_test(test_selection_lists),
        cmocka_unit_test(test_glob_boundary),     cmocka_unit_test(test_truncated_match),
        cmocka_unit_test(test_full_schema),       cmocka_unit_test(test_override),
        cmocka_unit_test(test_err_syntax),        cmocka_unit_test(test_err_unknown_key),
        cmocka_unit_test(test_err_wrong_type),    cmocka_unit_test(test_err_glob),
        cmocka_unit_test(test_err_unknown_group), cmocka_unit_test(test_err_one_to_one),
        cmocka_unit_test(test_err_target),        cmocka_unit_test(test_include),
        cmocka_unit_test(test_include_cycle),     cmocka_unit_test(test_include_missing),
        cmocka_unit_test(test_include_builtin),   cmocka_unit_test(test_shipped),
        cmocka_unit_test(test_yaml_null),         cmocka_unit_test(test_morph_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
