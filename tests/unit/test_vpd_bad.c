/* test_vpd_bad.c — broken VPD input: every error names a position inside
 * the file (LINE:COL for text, a byte offset for the hybrid layout) and
 * says what was expected; nothing crashes (run it under ASan+UBSan). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines as the reader splits them: CRLF, LF or a lone CR. */
static bool text_pos_inside(const uint8_t *d, size_t n, int line, int col)
{
    if (line < 1 || col < 1)
        return false;
    int ln = 1;
    size_t start = 0;
    for (size_t i = 0;; i++) {
        if (i == n || d[i] == '\n' || d[i] == '\r') {
            if (ln == line)
                return (size_t)col <= i - start + 1;
            if (i == n)
                return false;
            if (d[i] == '\r' && i + 1 < n && d[i + 1] == '\n')
                i++;
            if (i + 1 == n) /* the data ends with a line break: no further line */
                return false;
            ln++;
            start = i + 1;
        }
    }
}

/* Reads d[0..n) and checks the outcome: a pose and no error, or NULL and
 * errors that all carry a position inside the data.  Returns the pose
 * (freed by the caller) or NULL. */
static pk_pose *read_checked(const uint8_t *d, size_t n, pk_log *log)
{
    pk_log_init(log);
    pk_pose *p = pk_vpd_read(d, n, log);
    pk_log_place(log, 0, "bad.vpd");
    if (p) {
        assert_int_equal(log->errors, 0);
        return p;
    }
    assert_true(log->errors > 0);
    bool hybrid = n > 23 && memcmp(d, "Vocaloid Pose Data file", 23) == 0 && d[23] == 0;
    for (size_t i = 0; i < log->count; i++) {
        const pk_diag *g = &log->items[i];
        if (g->severity != PK_ERROR)
            continue;
        if (hybrid) {
            if (g->offset < 0 || (uint64_t)g->offset > n)
                fail_msg("offset %lld outside 0..%zu: %s", (long long)g->offset, n, g->msg);
        } else if (!text_pos_inside(d, n, g->line, g->col))
            fail_msg("position %d:%d outside the data (%zu bytes): %s", g->line, g->col, n, g->msg);
    }
    return NULL;
}

static void expect_error(const char *text, int line, int col, const char *needle)
{
    size_t n = strlen(text);
    pk_log log;
    pk_pose *p = read_checked((const uint8_t *)text, n, &log);
    assert_null(p);
    for (size_t i = 0; i < log.count; i++) {
        const pk_diag *g = &log.items[i];
        if (g->severity == PK_ERROR && g->line == line && g->col == col && strstr(g->msg, needle)) {
            pk_log_free(&log);
            return;
        }
    }
    char buf[1024];
    for (size_t i = 0; i < log.count; i++) {
        pk_diag_format(&log.items[i], buf, sizeof buf);
        print_message("  log: %s\n", buf);
    }
    fail_msg("no error at %d:%d containing \"%s\"", line, col, needle);
}

#define HEAD "Vocaloid Pose Data file\n\nm.osm;\n1;\n\n"
/* HEAD is 5 lines; the first block starts on line 6 */

static void test_broken_lines(void **state)
{
    (void)state;
    /* missing '}' */
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0,1;\nBone1{b\n  0,0,0;\n  0,0,0,1;\n}\n", 9, 1,
                 "expected '}' to end Bone0 ('a'), found 'Bone1{b'");
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0,1;\n", 8, 11,
                 "unexpected end of file: expected '}' to end Bone0");
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0,1;", 8, 11, "unexpected end of file");
    /* missing ';' */
    expect_error(HEAD "Bone0{a\n  0,0,0\n  0,0,0,1;\n}\n", 7, 8,
                 "expected ';' after the translation of Bone0 ('a')");
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0,1 // comment\n}\n", 8, 10,
                 "expected ';' after the rotation quaternion");
    /* wrong counts */
    expect_error(HEAD "Bone0{a\n  0,0;\n  0,0,0,1;\n}\n", 7, 3,
                 "expected 3 numbers for the translation of Bone0 ('a'), found 2");
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0;\n}\n", 8, 3,
                 "expected 4 numbers for the rotation quaternion of Bone0 ('a'), found 3");
    expect_error(HEAD "Bone0{a\n}\n", 7, 1,
                 "expected 3 numbers for the translation of Bone0 ('a'), found '}'");
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0,1;\n  1;\n}\n", 9, 3,
                 "expected '}' to end Bone0 ('a'), found '1;'");
    /* letters in numbers */
    expect_error(HEAD "Bone0{a\n  0,abc,0;\n  0,0,0,1;\n}\n", 7, 5,
                 "expected a number for the translation of Bone0 ('a'), found 'abc'");
    expect_error(HEAD "Bone0{a\n  0,1.5x,0;\n  0,0,0,1;\n}\n", 7, 5, "found '1.5x'");
    expect_error(HEAD "Bone0{a\n  0,0,1e;\n  0,0,0,1;\n}\n", 7, 7, "found '1e'");
    expect_error(HEAD "Bone0{a\n  --1,0,0;\n  0,0,0,1;\n}\n", 7, 3, "found '--1'");
    expect_error(HEAD "Bone0{a\n  .,0,0;\n  0,0,0,1;\n}\n", 7, 3, "found '.'");
    expect_error(HEAD "Bone0{a\n  nanx,0,0;\n  0,0,0,1;\n}\n", 7, 3, "found 'nanx'");
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,in,1;\n}\n", 8, 7, "found 'in'");
    expect_error(HEAD "Bone0{a\n  0,0,;\n  0,0,0,1;\n}\n", 7, 7, "found ';'");
    expect_error(HEAD "Bone0{a\n  1e39,0,0;\n  0,0,0,1;\n}\n", 7, 3,
                 "number '1e39' is out of range for a float");
    expect_error(HEAD "Bone0{a\n  0 0,0,0;\n  0,0,0,1;\n}\n", 7, 5,
                 "expected ',' or ';' after a number");
    /* comma as the decimal separator */
    expect_error(HEAD "Morph0{m\n  0,5;\n}\n", 7, 3,
                 "expected 1 number for the weight of Morph0 ('m'), found 2 (is ',' used as the "
                 "decimal separator?)");
    expect_error(HEAD "Bone0{a\n  0,5,0,0;\n  0,0,0,1;\n}\n", 7, 3,
                 "expected 3 numbers for the translation of Bone0 ('a'), found 4");
    /* structure */
    expect_error(HEAD "Bone0{a\n  0,0,0;\n  0,0,0,1;\n} x\n", 9, 3,
                 "unexpected text after the '}'");
    expect_error(HEAD "hello\n", 6, 1, "expected 'BoneN{' or 'MorphN{', found 'hello'");
    expect_error(HEAD "Bone{a\n", 6, 5, "expected a block number after 'Bone'");
    expect_error(HEAD "Bone0 a{b\n", 6, 7, "expected '{' after 'Bone0'");
    expect_error("Vocaloid Pose Data file\n\nm.osm\n", 3, 5, "expected the model name line");
    expect_error("Vocaloid Pose Data file\n\nBone0{a\n", 3, 1, "expected the model name line");
    expect_error("Vocaloid Pose Data file\n\nm.osm;\nabc;\n", 4, 1,
                 "expected the bone count line 'N;', found 'abc;'");
    expect_error("Vocaloid Pose Data file\n\nm.osm;\n3\n", 4, 1, "expected the bone count line");
    expect_error("Vocaloid Pose Data file\n", 1, 24,
                 "unexpected end of file: expected the model name line");
    expect_error("Vocaloid Pose Data file\n\nm.osm;\n", 3, 7,
                 "unexpected end of file: expected the bone count line");
    /* signature */
    expect_error("", 1, 1, "empty file");
    expect_error("Vocaloid Pose Data filex\n", 1, 1, "expected the signature");
    expect_error("vocaloid pose data file\n", 1, 1, "expected the signature");
    expect_error("\n\nVocaloid Pose Data file\n", 1, 1, "expected the signature");
    expect_error("Vocaloid Motion Data 0002\0\0\0\0", 1, 1, "this is a VMD motion");
    /* CR-only and CRLF files give the same positions */
    expect_error("Vocaloid Pose Data file\r\rm.osm;\r1;\r\rBone0{a\r  0,0;\r", 7, 3, "found 2");
    expect_error("Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{a\r\n  0,0;\r\n", 7, 3,
                 "found 2");
}

/* The count line is advisory: a wrong count is a warning that quotes the
 * number as written, however large (the parser stops counting at 2^32). */
static void expect_count_warning(const char *text, const char *needle)
{
    pk_log log;
    pk_pose *p = read_checked((const uint8_t *)text, strlen(text), &log);
    assert_non_null(p);
    bool found = false;
    for (size_t i = 0; i < log.count; i++)
        if (log.items[i].severity == PK_WARNING && strstr(log.items[i].msg, needle))
            found = true;
    if (!found)
        fail_msg("no warning containing \"%s\" (%zu messages)", needle, log.count);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_count_line(void **state)
{
    (void)state;
    expect_count_warning("Vocaloid Pose Data file\n\nm.osm;\n3;\n",
                         "the bone count line says 3 but the file has 0 Bone blocks");
    expect_count_warning("Vocaloid Pose Data file\n\nm.osm;\n99999999999;\n",
                         "says 99999999999 but");
    expect_count_warning("Vocaloid Pose Data file\n\nm.osm;\n"
                         "123456789012345678901234567890;\n",
                         "says 123456789012345678901234... but");
}

static void test_garbage(void **state)
{
    (void)state;
    uint8_t junk[4096];
    uint32_t s = 12345;
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)(round * 20 % 4096);
        for (size_t i = 0; i < n; i++) {
            s = s * 1103515245u + 12345u;
            junk[i] = (uint8_t)(s >> 16);
        }
        pk_log log;
        assert_null(read_checked(junk, n, &log));
        pk_log_free(&log);
        /* the same garbage after a valid signature line */
        uint8_t buf[4200];
        memcpy(buf, "Vocaloid Pose Data file\n", 24);
        memcpy(buf + 24, junk, n);
        pk_pose *p = read_checked(buf, n + 24, &log);
        pk_pose_free(p);
        pk_log_free(&log);
    }
}

/* Cuts d[0..n) at every length; also flips bytes at random. */
static void cut_everywhere(const uint8_t *d, size_t n, size_t *ok, size_t *failed)
{
    for (size_t cut = 0; cut <= n; cut++) {
        pk_log log;
        pk_pose *p = read_checked(d, cut, &log);
        if (p)
            (*ok)++;
        else
            (*failed)++;
        pk_pose_free(p);
        pk_log_free(&log);
    }
    uint8_t *m = malloc(n ? n : 1);
    assert_non_null(m);
    uint32_t s = 777;
    for (int round = 0; round < 1000 && n; round++) {
        memcpy(m, d, n);
        for (int k = 0; k < 4; k++) {
            s = s * 1103515245u + 12345u;
            size_t at = (s >> 8) % n;
            s = s * 1103515245u + 12345u;
            m[at] = (uint8_t)(s >> 16);
        }
        pk_log log;
        pk_pose *p = read_checked(m, n, &log);
        pk_pose_free(p);
        pk_log_free(&log);
    }
    free(m);
}

static void test_truncated_corpus(void **state)
{
    (void)state;
    static const char *files[] = {"vpd_keitel_01.vpd", "vpd_mcmmd_smile_morphonly.vpd",
                                  "vpd_damaged_utf8_fffd_pose.vpd"};
    if (!tu_corpus_path(files[0]))
        skip();
    for (size_t f = 0; f < 3; f++) {
        size_t n;
        uint8_t *d = tu_read_file(tu_corpus_path(files[f]), &n);
        size_t ok = 0, failed = 0;
        cut_everywhere(d, n, &ok, &failed);
        /* most cuts land inside a block and must fail */
        assert_true(failed > n / 2);
        assert_true(ok >= 1); /* at least the whole file */
        free(d);
    }
}

static pk_buf make_hybrid(void)
{
    pk_pose *p = pk_pose_new();
    assert_int_equal(pk_pose_set_model(p, "model", 5, NULL), 0);
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "bone%d", i);
        pk_pose_bone *b = pk_pose_push_bone(p);
        b->name = pk_names_intern(p->names, name, strlen(name));
        b->pos[0] = (float)i * 0.25f;
        b->rot[1] = -0.5f;
    }
    pk_buf out;
    pk_buf_init(&out);
    pk_vpd_options o = {PK_VPD_HYBRID, false};
    assert_int_equal(pk_vpd_write(p, &o, &out, NULL), 0);
    pk_pose_free(p);
    return out;
}

static void test_truncated_hybrid(void **state)
{
    (void)state;
    pk_buf h = make_hybrid();
    size_t ok = 0, failed = 0;
    cut_everywhere(h.data, h.len, &ok, &failed);
    /* only the complete file and the two cuts that drop the last line's
     * "\n" or "\r\n" read: every other cut loses a bone line or leaves a
     * last line that does not close with ';' */
    assert_int_equal(ok, 3);
    assert_int_equal(failed, h.len - 2);
    /* and those two give the whole pose, value for value */
    pk_log log;
    pk_pose *whole = read_checked(h.data, h.len, &log);
    pk_log_free(&log);
    assert_non_null(whole);
    for (size_t cut = 1; cut <= 2; cut++) {
        pk_pose *p = read_checked(h.data, h.len - cut, &log);
        assert_non_null(p);
        assert_int_equal(log.errors, 0);
        assert_int_equal(p->nbones, whole->nbones);
        assert_memory_equal(p->bones, whole->bones, whole->nbones * sizeof *p->bones);
        pk_pose_free(p);
        pk_log_free(&log);
    }
    pk_pose_free(whole);
    pk_buf_free(&h);
}

static void expect_hybrid_error(const uint8_t *d, size_t n, int64_t offset, const char *needle)
{
    pk_log log;
    assert_null(read_checked(d, n, &log));
    for (size_t i = 0; i < log.count; i++)
        if (log.items[i].offset == offset && strstr(log.items[i].msg, needle)) {
            pk_log_free(&log);
            return;
        }
    char buf[1024];
    for (size_t i = 0; i < log.count; i++) {
        pk_diag_format(&log.items[i], buf, sizeof buf);
        print_message("  log: %s\n", buf);
    }
    fail_msg("no error at offset %lld containing \"%s\"", (long long)offset, needle);
}

static void test_hybrid_errors(void **state)
{
    (void)state;
    pk_buf h = make_hybrid();
    uint8_t *d = malloc(h.len);
    assert_non_null(d);
    /* a count of 4 billion in a ~1 KB file: refused before any allocation */
    memcpy(d, h.data, h.len);
    memset(d + 50, 0xFF, 4);
    expect_hybrid_error(d, h.len, 50,
                        "the file is damaged or cut short in its bone section (bone count "
                        "4294967295 needs at least");
    /* header cut inside the model field */
    expect_hybrid_error(h.data, 40, 30,
                        "the file is cut short in its header (a hybrid VPD header needs");
    /* letters in the first bone's values: "0;0.000000,..." starts at 69 */
    memcpy(d, h.data, h.len);
    d[54 + 15 + 2] = 'x';
    expect_hybrid_error(d, h.len, 54 + 15 + 2, "expected a number for the translation of bone 0");
    /* index without ';' */
    memcpy(d, h.data, h.len);
    d[54 + 15 + 1] = ',';
    expect_hybrid_error(d, h.len, 54 + 15 + 1, "expected 'index;'");
    /* the first bone's line loses its LF: the record runs into the next */
    memcpy(d, h.data, h.len);
    uint8_t *lf = memchr(d + 54, '\n', h.len - 54);
    assert_non_null(lf);
    *lf = ' ';
    int64_t at = lf - d - 1; /* the '\r' before it is now mid-line */
    (void)at;
    pk_log log;
    assert_null(read_checked(d, h.len, &log));
    pk_log_free(&log);
    free(d);
    pk_buf_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broken_lines),     cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_truncated_corpus), cmocka_unit_test(test_truncated_hybrid),
        cmocka_unit_test(test_hybrid_errors),      cmocka_unit_test(test_count_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
