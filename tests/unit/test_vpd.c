/* test_vpd.c — the VPD codec on hand-made inputs: tolerant text reading,
 * MMD's exact writer layout, the hybrid layout, numbers and locales. */
#include "testutil.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------- */

static pk_pose *rd(const char *text, size_t len, pk_log *log)
{
    pk_log_init(log);
    pk_pose *p = pk_vpd_read(text, len, log);
    pk_log_place(log, 0, "t.vpd");
    return p;
}

#define RD(lit, log) rd(lit, sizeof(lit) - 1, log)

/* True when the log holds a diagnostic of this severity at line:col
 * (line 0: any position) whose message contains needle. */
static bool has_diag(const pk_log *log, pk_severity sev, int line, int col, const char *needle)
{
    for (size_t i = 0; i < log->count; i++) {
        const pk_diag *d = &log->items[i];
        if (d->severity == sev && (line == 0 || (d->line == line && d->col == col)) &&
            strstr(d->msg, needle))
            return true;
    }
    return false;
}

static void dump_log(const pk_log *log)
{
    char line[1024];
    for (size_t i = 0; i < log->count; i++) {
        pk_diag_format(&log->items[i], line, sizeof line);
        print_message("  log: %s\n", line);
    }
}

static void expect_diag(const pk_log *log, pk_severity sev, int line, int col, const char *needle)
{
    if (!has_diag(log, sev, line, col, needle)) {
        dump_log(log);
        fail_msg("no %s at %d:%d containing \"%s\"", sev == PK_ERROR ? "error" : "warning", line,
                 col, needle);
    }
}

static void name_is(const pk_pose *p, pk_name_id id, const char *raw, size_t len)
{
    size_t n;
    const uint8_t *r = pk_names_raw(p->names, id, &n);
    assert_int_equal(n, len);
    assert_memory_equal(r, raw, len);
}

/* True when the bytes `needle` occur in buf[0..len). */
static bool contains(const uint8_t *buf, size_t len, const char *needle, size_t n)
{
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(buf + i, needle, n) == 0)
            return true;
    return false;
}

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* ---- a small document in several line-ending styles ------------------ */

/* Written with "\n"; crlf/cr variants are made by substitution. */
static const char DOC_LF[] = "Vocaloid Pose Data file\n"
                             "\n"
                             "model.osm;\t\t// comment\n"
                             "2;\t\t\t\t// count\n"
                             "\n"
                             "Bone0{center\n"
                             "  1.000000,-2.500000,0.125000;\t\t\t\t// trans x,y,z\n"
                             "  0.000000,0.707107,0.000000,0.707107;\t\t// Quaternion x,y,z,w\n"
                             "}\n"
                             "\n"
                             "Bone1{arm\n"
                             "  0.000000,0.000000,0.000000;\n"
                             "  0.100000,0.200000,0.300000,0.927362;\n"
                             "}\n"
                             "\n";

static char *with_eol(const char *src, const char *eol, size_t *len)
{
    size_t el = strlen(eol), n = 0;
    char *out = malloc(strlen(src) * el + 1);
    assert_non_null(out);
    for (const char *s = src; *s; s++) {
        if (*s == '\n') {
            memcpy(out + n, eol, el);
            n += el;
        } else
            out[n++] = *s;
    }
    out[n] = 0;
    *len = n;
    return out;
}

static void check_doc(const pk_pose *p)
{
    assert_non_null(p);
    assert_int_equal(p->layout, PK_VPD_TEXT);
    assert_int_equal(p->model_len, 5);
    assert_memory_equal(p->model, "model", 5);
    assert_int_equal(p->nbones, 2);
    assert_int_equal(p->nmorphs, 0);
    name_is(p, p->bones[0].name, "center", 6);
    name_is(p, p->bones[1].name, "arm", 3);
    assert_true(p->bones[0].pos[0] == 1.0f);
    assert_true(p->bones[0].pos[1] == -2.5f);
    assert_true(p->bones[0].pos[2] == 0.125f);
    assert_true(p->bones[0].rot[1] == 0.707107f);
    assert_true(p->bones[0].rot[3] == 0.707107f);
    assert_true(p->bones[1].rot[0] == 0.1f);
    assert_true(p->bones[1].rot[3] == 0.927362f);
}

static void test_eol_styles(void **state)
{
    (void)state;
    static const struct {
        const char *eol;
        pk_eol want;
    } cases[] = {{"\r\n", PK_EOL_CRLF}, {"\n", PK_EOL_LF}, {"\r", PK_EOL_CR}};
    for (size_t i = 0; i < 3; i++) {
        size_t n;
        char *doc = with_eol(DOC_LF, cases[i].eol, &n);
        pk_log log;
        pk_pose *p = rd(doc, n, &log);
        if (!p)
            dump_log(&log);
        check_doc(p);
        assert_int_equal(p->eol, cases[i].want);
        assert_int_equal(log.errors, 0);
        assert_int_equal(log.warnings, 0);
        pk_pose_free(p);
        pk_log_free(&log);
        free(doc);
    }
    /* mixed: mostly CRLF with some LF and a lone CR */
    static const char mixed[] = "Vocaloid Pose Data file\r\n\r\nmodel.osm;\n2;\r\n\r"
                                "Bone0{center\r\n  1,-2.5,0.125;\n  0,0.707107,0,0.707107;\r\n}\r\n"
                                "Bone1{arm\r  0,0,0;\r\n  0.1,0.2,0.3,0.927362;\r\n}\n";
    pk_log log;
    pk_pose *p = RD(mixed, &log);
    check_doc(p);
    assert_int_equal(p->eol, PK_EOL_CRLF);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_bom_comments_whitespace(void **state)
{
    (void)state;
    static const char doc[] = "\xEF\xBB\xBFVocaloid Pose Data file  // signature comment\n"
                              "// a comment line before the model\n"
                              "   \t \n"
                              "  model.osm ;  // spaces before ';' stay in the name? no: trimmed\n"
                              "\t2 ;\n"
                              "// between header and blocks\n"
                              "\t Bone0 {center\t \n"
                              "// inside a block\n"
                              "\n"
                              "\t1.0 ,\t-2.5 , 0.125 ;  // trans\n"
                              "   \t\n"
                              "0 , 0.707107,0,\n"
                              "   0.707107 ; // continued after a ','\n"
                              "  }  // end\n"
                              "Bone1{arm\n"
                              "  0,0,0; 0.1,0.2,0.3,0.927362;\n"
                              "}\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    if (!p)
        dump_log(&log);
    assert_non_null(p);
    /* "model.osm ;": blanks before ';' are part of the line, so the name is
     * "model.osm " and ".osm" is not a suffix: kept as read */
    assert_int_equal(p->model_len, 10);
    assert_memory_equal(p->model, "model.osm ", 10);
    assert_int_equal(p->nbones, 2);
    name_is(p, p->bones[0].name, "center", 6);
    assert_true(p->bones[0].pos[1] == -2.5f);
    assert_true(p->bones[0].rot[3] == 0.707107f);
    assert_true(p->bones[1].rot[2] == 0.3f);
    assert_int_equal(p->eol, PK_EOL_LF);
    assert_int_equal(log.errors, 0);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_numbers(void **state)
{
    (void)state;
    static const char doc[] =
        "Vocaloid Pose Data file\n"
        "m.osm;\n"
        "3;\n"
        "Bone0{a\n  1,.5,+1.0;\n  1e-3,-0.000000,1E+2,-.25;\n}\n"
        "Bone1{b\n  5.,0.1e1,-7;\n  0.000001,123456.789,-3.4e38,1e-45;\n}\n"
        "Bone2{c\n  00012.50000,+.0,-0;\n"
        "  0.1000000000000000000000000000000000000000000001,2.5e-1,1e0,0e5;\n}\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    if (!p)
        dump_log(&log);
    assert_non_null(p);
    const float *a = p->bones[0].pos, *ar = p->bones[0].rot;
    assert_true(a[0] == 1.0f && a[1] == 0.5f && a[2] == 1.0f);
    assert_true(ar[0] == 0.001f);
    assert_true(ar[1] == 0.0f && signbit(ar[1]));
    assert_true(ar[2] == 100.0f && ar[3] == -0.25f);
    const float *b = p->bones[1].pos, *br = p->bones[1].rot;
    assert_true(b[0] == 5.0f && b[1] == 1.0f && b[2] == -7.0f);
    assert_true(br[0] == 0.000001f && br[1] == 123456.789f);
    assert_true(br[2] == -3.4e38f);
    assert_true(br[3] == 1e-45f && br[3] > 0.0f); /* smallest subnormal */
    const float *c = p->bones[2].pos, *cr = p->bones[2].rot;
    assert_true(c[0] == 12.5f && c[1] == 0.0f && !signbit(c[1]) && signbit(c[2]));
    assert_true(cr[0] == 0.1f && cr[1] == 0.25f && cr[2] == 1.0f && cr[3] == 0.0f);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_morphs_and_count_warning(void **state)
{
    (void)state;
    static const char doc[] = "Vocaloid Pose Data file\n"
                              "\n"
                              "m.osm;\n"
                              "3;\t\t// says three\n"
                              "\n"
                              "Bone0{a\n  0,0,0;\n  0,0,0,1;\n}\n"
                              "Morph0{smile\n  0.190476;\t\t\t\t// weight\n}\n"
                              "\n"
                              "Morph1{blink\n  1;\n}\n"
                              "Bone1{b\n  0,0,0;\n  0,0,0,1;\n}\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    assert_non_null(p);
    assert_int_equal(p->nbones, 2);
    assert_int_equal(p->nmorphs, 2);
    name_is(p, p->morphs[0].name, "smile", 5);
    name_is(p, p->morphs[1].name, "blink", 5);
    assert_true(p->morphs[0].weight == 0.190476f);
    assert_true(p->morphs[1].weight == 1.0f);
    name_is(p, p->bones[1].name, "b", 1);
    assert_int_equal(log.errors, 0);
    expect_diag(&log, PK_WARNING, 4, 1, "says 3 but the file has 2 Bone blocks");
    char line[512];
    bool found = false;
    for (size_t i = 0; i < log.count; i++) {
        pk_diag_format(&log.items[i], line, sizeof line);
        found |= strncmp(line, "t.vpd:4:1: warning: ", 20) == 0;
    }
    assert_true(found);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* ボーン = 83 7B 81 5B 83 93 holds '{'; マント = 83 7D 83 93 83 67 holds
 * '}'; ポ = 83 7C holds '|'; ソ = 83 5C holds '\'. */
#define BOON "\x83\x7B\x81\x5B\x83\x93"
#define MANTO "\x83\x7D\x83\x93\x83\x67"
#define PO "\x83\x7C"
#define SO "\x83\x5C"
/* アホ毛-+アホ毛-+ア then a lone lead byte: 19 bytes, as MMD cuts names */
#define CUT19 "\x83\x41\x83\x7A\x96\xD1-+\x83\x41\x83\x7A\x96\xD1-+\x83\x41\x83"

static void test_trail_byte_names(void **state)
{
    (void)state;
    static const char doc[] = "Vocaloid Pose Data file\r\n\r\n" MANTO ".osm;\t\t// c\r\n"
                              "4;\r\n\r\n"
                              "Bone0{" BOON "\r\n  0,0,0;\r\n  0,0,0,1;\r\n}\r\n\r\n"
                              "Bone1{" MANTO "\r\n  1,0,0;\r\n  0,0,0,1;\r\n}\r\n\r\n"
                              "Bone2{" PO SO "//x{\r\n  2,0,0;\r\n  0,0,0,1;\r\n}\r\n\r\n"
                              "Bone3{" CUT19 "\r\n  3,0,0;\r\n  0,0,0,1;\r\n}\r\n\r\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    if (!p)
        dump_log(&log);
    assert_non_null(p);
    assert_int_equal(p->model_len, 6);
    assert_memory_equal(p->model, MANTO, 6);
    assert_int_equal(p->nbones, 4);
    name_is(p, p->bones[0].name, BOON, 6);
    name_is(p, p->bones[1].name, MANTO, 6);
    /* everything after the first '{' is the name, '//' and '{' included */
    name_is(p, p->bones[2].name, PO SO "//x{", 8);
    name_is(p, p->bones[3].name, CUT19, 19);
    assert_false(pk_names_clean(p->names, p->bones[3].name));
    assert_true(pk_names_clean(p->names, p->bones[0].name));
    assert_string_equal(pk_names_utf8(p->names, p->bones[0].name), "ボーン");
    assert_true(p->bones[3].pos[0] == 3.0f);
    assert_int_equal(log.errors, 0);
    assert_int_equal(log.warnings, 0);
    /* the writer gives the names back byte for byte */
    pk_buf out;
    pk_buf_init(&out);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), 0);
    pk_log nlog;
    pk_pose *q = rd((const char *)out.data, out.len, &nlog);
    assert_non_null(q);
    assert_int_equal(q->nbones, 4);
    for (size_t i = 0; i < 4; i++) {
        size_t n;
        const uint8_t *r = pk_names_raw(p->names, p->bones[i].name, &n);
        name_is(q, q->bones[i].name, (const char *)r, n);
    }
    static const char cut_line[] = "Bone3{" CUT19 "\r\n";
    bool seen = false;
    for (size_t i = 0; i + sizeof cut_line - 1 <= out.len; i++)
        seen |= memcmp(out.data + i, cut_line, sizeof cut_line - 1) == 0;
    assert_true(seen);
    pk_pose_free(q);
    pk_log_free(&nlog);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_duplicates_and_long_names(void **state)
{
    (void)state;
    static const char doc[] = "Vocaloid Pose Data file\n\nm.osm;\n3;\n\n"
                              "Bone0{a\n  1,0,0;\n  0,0,0,1;\n}\n\n"
                              "Bone1{b\n  2,0,0;\n  0,0,0,1;\n}\n\n"
                              "Bone2{a\n  3,0,0;\n  0,0,0,1;\n}\n\n"
                              "Morph0{abcdefghijklmnopqrstuvwxyz\n  0.5;\n}\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    assert_non_null(p);
    assert_int_equal(p->nbones, 3);
    assert_int_equal(p->bones[0].name, p->bones[2].name);
    long last = pk_pose_find_bone(p, p->bones[0].name);
    assert_int_equal(last, 2);
    assert_true(p->bones[last].pos[0] == 3.0f);
    expect_diag(&log, PK_WARNING, 16, 7, "duplicate bone name 'a'");
    expect_diag(&log, PK_WARNING, 21, 8, "26 bytes; MMD cuts VPD names at 19");
    assert_int_equal(log.errors, 0);
    /* a text VPD has no name field: the 26-byte name is written whole,
     * with a warning naming the morph (MMD would read 19 bytes of it) */
    pk_buf out;
    pk_buf_init(&out);
    pk_buf_append(&out, "keep", 4);
    pk_log wlog;
    pk_log_init(&wlog);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &wlog), 0);
    expect_diag(
        &wlog, PK_WARNING, 0, 0,
        "morph 'abcdefghijklmnopqrstuvwxyz' has a 26-byte name; MMD reads only the first 19");
    assert_true(contains(out.data, out.len, "Morph0{abcdefghijklmnopqrstuvwxyz\r\n", 35));
    out.len = 4;
    /* without morphs the same pose writes without a warning */
    pk_vpd_options o = {PK_VPD_TEXT, true};
    pk_log_free(&wlog);
    pk_log_init(&wlog);
    assert_int_equal(pk_vpd_write(p, &o, &out, &wlog), 0);
    assert_int_equal(wlog.errors, 0);
    pk_log_free(&wlog);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* Python/.NET writers may print nan/inf: read with a warning at the value,
 * refused by the writer (non-finite input is a warning). */
static void test_non_finite_read(void **state)
{
    (void)state;
    static const char doc[] = "Vocaloid Pose Data file\n\nm.osm;\n1;\n\n"
                              "Bone0{a\n  nan,-inf,Infinity;\n  0,0,0,1;\n}\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    assert_non_null(p);
    assert_int_equal(log.errors, 0);
    assert_int_equal(log.warnings, 3);
    expect_diag(&log, PK_WARNING, 7, 3, "non-finite value 'nan' in the translation of Bone0");
    expect_diag(&log, PK_WARNING, 7, 7, "non-finite value '-inf'");
    expect_diag(&log, PK_WARNING, 7, 12, "non-finite value 'Infinity'");
    assert_true(isnan(p->bones[0].pos[0]));
    assert_true(isinf(p->bones[0].pos[1]) && p->bones[0].pos[1] < 0);
    assert_true(isinf(p->bones[0].pos[2]) && p->bones[0].pos[2] > 0);
    pk_buf out;
    pk_buf_init(&out);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), -1);
    expect_diag(&log, PK_ERROR, 0, 0, "bone 'a' has a non-finite value");
    assert_int_equal(out.len, 0);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* Block numbers are not trusted: blocks keep file order, one warning. */
static void test_out_of_sequence(void **state)
{
    (void)state;
    static const char doc[] = "Vocaloid Pose Data file\n\nm.osm;\n2;\n\n"
                              "Bone1{a\n  1,0,0;\n  0,0,0,1;\n}\n"
                              "  Bone7{b\n  2,0,0;\n  0,0,0,1;\n}\n";
    pk_log log;
    pk_pose *p = RD(doc, &log);
    assert_non_null(p);
    assert_int_equal(log.warnings, 1);
    expect_diag(&log, PK_WARNING, 6, 1, "Bone1 is out of sequence (expected Bone0)");
    name_is(p, p->bones[0].name, "a", 1);
    name_is(p, p->bones[1].name, "b", 1);
    assert_true(p->bones[1].pos[0] == 2.0f);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* ---- writer: MMD's exact layout, written by hand from doc/formats.md §1.1 -- */

#define MIKU "\x8f\x89\x89\xb9\x83\x7e\x83\x4e"                /* 初音ミク */
#define CENTER "\x83\x5a\x83\x93\x83\x5e\x81\x5b"              /* センター */
#define OYA "\x90\x65\x83\x74\x83\x40\x83\x43\x83\x8b\x96\xbc" /* 親ファイル名 */
#define SOU                                                                                        \
    "\x91\x8d\x83\x7c\x81\x5b\x83\x59\x83\x7b\x81\x5b\x83\x93\x90\x94" /* 総ポーズボーン数 */

static const char EXPECT_HEAD[] =
    "Vocaloid Pose Data file\r\n"
    "\r\n" MIKU ".osm;\t\t// " OYA "\r\n"
    "2;\t\t\t\t// " SOU "\r\n"
    "\r\n"
    "Bone0{" CENTER "\r\n"
    "  1.500000,-0.250000,0.000000;\t\t\t\t// trans x,y,z\r\n"
    "  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n"
    "}\r\n"
    "\r\n"
    "Bone1{" BOON "\r\n"
    "  -0.000000,2.000000,10.125000;\t\t\t\t// trans x,y,z\r\n"
    "  0.500000,-0.500000,0.000001,-1.000000;\t\t// Quaternion x,y,z,w\r\n"
    "}\r\n"
    "\r\n";
static const char EXPECT_MORPH[] = "Morph0{\x82\xa0\r\n" /* あ */
                                   "  0.750000;\t\t\t\t// weight\r\n"
                                   "}\r\n"
                                   "\r\n";

static pk_pose *small_pose(void)
{
    pk_pose *p = pk_pose_new();
    assert_non_null(p);
    assert_int_equal(pk_pose_set_model(p, MIKU, 8, NULL), 0);
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, CENTER, 8);
    b->pos[0] = 1.5f;
    b->pos[1] = -0.25f;
    b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, BOON, 6);
    b->pos[0] = -0.0f;
    b->pos[1] = 2.0f;
    b->pos[2] = 10.125f;
    b->rot[0] = 0.5f;
    b->rot[1] = -0.5f;
    b->rot[2] = 0.0000006f; /* not a unit quaternion: written as stored */
    b->rot[3] = -1.0f;
    pk_pose_morph *m = pk_pose_push_morph(p);
    m->name = pk_names_intern(p->names, "\x82\xa0", 2);
    m->weight = 0.75f;
    return p;
}

static void test_writer_exact(void **state)
{
    (void)state;
    pk_pose *p = small_pose();
    pk_buf out;
    pk_buf_init(&out);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), 0);
    size_t hl = sizeof EXPECT_HEAD - 1, ml = sizeof EXPECT_MORPH - 1;
    assert_int_equal(out.len, hl + ml);
    assert_memory_equal(out.data, EXPECT_HEAD, hl);
    assert_memory_equal(out.data + hl, EXPECT_MORPH, ml);
    /* --no-morphs: the same bytes without the Morph block */
    pk_vpd_options o = {PK_VPD_TEXT, true};
    pk_buf o2;
    pk_buf_init(&o2);
    assert_int_equal(pk_vpd_write(p, &o, &o2, &log), 0);
    assert_int_equal(o2.len, hl);
    assert_memory_equal(o2.data, EXPECT_HEAD, hl);
    /* deterministic */
    pk_buf o3;
    pk_buf_init(&o3);
    assert_int_equal(pk_vpd_write(p, NULL, &o3, &log), 0);
    assert_int_equal(o3.len, out.len);
    assert_memory_equal(o3.data, out.data, out.len);
    /* and it reads back to the same pose */
    pk_log rlog;
    pk_pose *q = rd((const char *)out.data, out.len, &rlog);
    assert_non_null(q);
    assert_int_equal(rlog.warnings + rlog.errors, 0);
    assert_int_equal(q->nbones, 2);
    assert_int_equal(q->nmorphs, 1);
    assert_true(same_bits(q->bones[1].pos[0], -0.0f));
    assert_true(q->bones[1].rot[2] == 0.000001f);
    assert_true(q->morphs[0].weight == 0.75f);
    assert_int_equal(q->eol, PK_EOL_CRLF);
    pk_pose_free(q);
    pk_log_free(&rlog);
    pk_buf_free(&o3);
    pk_buf_free(&o2);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_writer_refuses(void **state)
{
    (void)state;
    pk_pose *p = small_pose();
    pk_buf out;
    pk_buf_init(&out);
    pk_log log;
    pk_log_init(&log);
    p->bones[1].rot[3] = NAN;
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), -1);
    expect_diag(&log, PK_ERROR, 0, 0, "bone 'ボーン' has a non-finite value");
    assert_int_equal(out.len, 0);
    p->bones[1].rot[3] = 1.0f;
    p->morphs[0].weight = INFINITY;
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), -1);
    expect_diag(&log, PK_ERROR, 0, 0, "morph 'あ' has a non-finite weight");
    pk_vpd_options o = {PK_VPD_TEXT, true};
    assert_int_equal(pk_vpd_write(p, &o, &out, &log), 0); /* the morph is left out */
    pk_buf_free(&out);
    pk_buf_init(&out);
    p->morphs[0].weight = 0.0f;
    /* a 20-byte name: written whole, with a warning */
    p->bones[0].name = pk_names_intern(p->names, "abcdefghijklmnopqrst", 20);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), 0);
    expect_diag(&log, PK_WARNING, 0, 0, "bone 'abcdefghijklmnopqrst' has a 20-byte name");
    assert_true(contains(out.data, out.len, "{abcdefghijklmnopqrst\r\n", 23));
    /* the hybrid layout has a 15-byte field: refused, nothing written */
    pk_buf_free(&out);
    pk_buf_init(&out);
    pk_vpd_options hy = {PK_VPD_HYBRID, false};
    assert_int_equal(pk_vpd_write(p, &hy, &out, &log), -1);
    assert_int_equal(out.len, 0);
    /* 19 bytes fit */
    p->bones[0].name = pk_names_intern(p->names, "abcdefghijklmnopqrs", 19);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), 0);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* ---- hybrid layout ---------------------------------------------------- */

static void test_hybrid_round_trip(void **state)
{
    (void)state;
    pk_pose *p = small_pose();
    pk_buf out;
    pk_buf_init(&out);
    pk_log log;
    pk_log_init(&log);
    pk_vpd_options o = {PK_VPD_HYBRID, false};
    assert_int_equal(pk_vpd_write(p, &o, &out, &log), 0);
    expect_diag(&log, PK_WARNING, 0, 0, "no morphs: 1 morph left out");
    /* layout: 30-byte magic, 20-byte model, u32 count, 15-byte names */
    static const char rec0[] = CENTER "\0\0\0\0\0\0\0"
                                      "0;1.500000,-0.250000,0.000000;0.000000,0.000000,0.000000,"
                                      "1.000000;\r\n";
    assert_true(out.len > 54 + sizeof rec0 - 1);
    assert_memory_equal(out.data, "Vocaloid Pose Data file\0\0\0\0\0\0\0", 30);
    assert_memory_equal(out.data + 30, MIKU "\0\0\0\0\0\0\0\0\0\0\0\0", 20);
    assert_memory_equal(out.data + 50, "\x02\0\0\0", 4);
    assert_memory_equal(out.data + 54, rec0, sizeof rec0 - 1);
    pk_log rlog;
    pk_pose *q = rd((const char *)out.data, out.len, &rlog);
    if (!q)
        dump_log(&rlog);
    assert_non_null(q);
    assert_int_equal(rlog.errors + rlog.warnings, 0);
    assert_int_equal(q->layout, PK_VPD_HYBRID);
    assert_int_equal(q->eol, PK_EOL_CRLF);
    assert_int_equal(q->model_len, 8);
    assert_memory_equal(q->model, MIKU, 8);
    assert_int_equal(q->nbones, 2);
    for (size_t i = 0; i < 2; i++) {
        size_t n;
        const uint8_t *r = pk_names_raw(p->names, p->bones[i].name, &n);
        name_is(q, q->bones[i].name, (const char *)r, n);
        assert_memory_equal(q->bones[i].pos, p->bones[i].pos, sizeof q->bones[i].pos);
    }
    assert_true(same_bits(q->bones[1].pos[0], -0.0f));
    assert_true(q->bones[1].rot[1] == -0.5f && q->bones[1].rot[2] == 0.000001f);
    /* reading and writing the hybrid file again gives the same bytes */
    pk_buf again;
    pk_buf_init(&again);
    assert_int_equal(pk_vpd_write(q, &o, &again, &rlog), 0);
    assert_int_equal(again.len, out.len);
    assert_memory_equal(again.data, out.data, out.len);
    pk_buf_free(&again);
    pk_pose_free(q);
    pk_log_free(&rlog);

    /* a name over 15 bytes is refused, naming the bone */
    pk_buf_free(&out);
    pk_buf_init(&out);
    p->bones[0].name = pk_names_intern(p->names, "sixteen-bytes-xx", 16);
    assert_int_equal(pk_vpd_write(p, &o, &out, &log), -1);
    expect_diag(&log, PK_ERROR, 0, 0, "bone 'sixteen-bytes-xx' has a 16-byte name");
    assert_int_equal(out.len, 0);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

static void test_hybrid_hand_made(void **state)
{
    (void)state;
    /* LF line ends, a 15-byte name without NUL, padding garbage after a
     * NUL, exponents and blanks in the text lines */
    static const char h[] = "Vocaloid Pose Data file\0\0\0\0\0\0\0"
                            "model\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                            "\x02\0\0\0"
                            "abcdefghijklmno"
                            "0;1,2,3;0,0,0,1;\n"
                            "b\0\xFD\xFD\xFD\xFD\xFD\xFD\xFD\xFD\xFD\xFD\xFD\xFD\xFD"
                            "1; 1e1 , -.5,0 ;0.5,0.5,0.5,0.5 ;\n";
    pk_log log;
    pk_pose *p = rd(h, sizeof h - 1, &log);
    if (!p)
        dump_log(&log);
    assert_non_null(p);
    assert_int_equal(p->layout, PK_VPD_HYBRID);
    assert_int_equal(p->eol, PK_EOL_LF);
    assert_int_equal(p->model_len, 5);
    assert_int_equal(p->nbones, 2);
    name_is(p, p->bones[0].name, "abcdefghijklmno", 15);
    name_is(p, p->bones[1].name, "b", 1);
    assert_true(p->bones[0].pos[2] == 3.0f && p->bones[0].rot[3] == 1.0f);
    assert_true(p->bones[1].pos[0] == 10.0f && p->bones[1].pos[1] == -0.5f);
    assert_true(p->bones[1].rot[0] == 0.5f);
    /* written back with LF, zero padding */
    pk_buf out;
    pk_buf_init(&out);
    pk_vpd_options o = {PK_VPD_HYBRID, false};
    assert_int_equal(pk_vpd_write(p, &o, &out, &log), 0);
    static const char rec1[] =
        "b\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
        "1;10.000000,-0.500000,0.000000;0.500000,0.500000,0.500000,0.500000;\n";
    assert_memory_equal(out.data + out.len - (sizeof rec1 - 1), rec1, sizeof rec1 - 1);
    /* hybrid -> text works too */
    pk_buf_free(&out);
    pk_buf_init(&out);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), 0);
    static const char head[] = "Vocaloid Pose Data file\r\n\r\nmodel.osm;\t\t// ";
    assert_memory_equal(out.data, head, sizeof head - 1);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* ---- numbers: print and parse --------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static float random_float(void)
{
    for (;;) {
        uint32_t u = rnd();
        int kind = (int)(rnd() % 4);
        if (kind == 0) /* values as poses hold them: |x| < 16 */
            u = (u & 0x80000000u) | (u % 0x41800000u);
        else if (kind == 1) /* subnormals and tiny numbers */
            u = (u & 0x80000000u) | (u % 0x01000000u);
        float f;
        memcpy(&f, &u, 4);
        if (isfinite(f))
            return f;
    }
}

/* Finds the n-th "%f" number of the bone lines in a written VPD. */
static size_t collect_numbers(const pk_buf *b, char (*nums)[64], size_t max)
{
    size_t n = 0;
    const char *s = (const char *)b->data, *end = s + b->len;
    while (s < end && n < max) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        if (!eol)
            break;
        if (s[0] == ' ' && s[1] == ' ') {
            const char *p = s + 2;
            for (;;) {
                size_t k = strcspn(p, ",;");
                assert_true(k < 64);
                memcpy(nums[n], p, k);
                nums[n][k] = 0;
                n++;
                if (p[k] == ';')
                    break;
                p += k + 1;
            }
        }
        s = eol + 1;
    }
    return n;
}

#define NBONES 4000

/* Writes NBONES random bones, compares every printed number with C's "%f"
 * (this program runs in the "C" locale), reads the text back, compares
 * each float with strtof of the same text (glibc rounds correctly), and
 * writes again: the same bytes. */
static void float_round_trip(float (*gen)(void))
{
    pk_pose *p = pk_pose_new();
    char name[32];
    static float vals[NBONES * 7];
    for (size_t i = 0; i < NBONES; i++) {
        pk_pose_bone *b = pk_pose_push_bone(p);
        snprintf(name, sizeof name, "b%zu", i);
        b->name = pk_names_intern(p->names, name, strlen(name));
        for (int k = 0; k < 7; k++) {
            float f = gen();
            vals[i * 7 + (size_t)k] = f;
            if (k < 3)
                b->pos[k] = f;
            else
                b->rot[k - 3] = f;
        }
    }
    pk_buf out;
    pk_buf_init(&out);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_vpd_write(p, NULL, &out, &log), 0);
    static char nums[NBONES * 7][64];
    assert_int_equal(collect_numbers(&out, nums, NBONES * 7), NBONES * 7);
    char ref[64];
    for (size_t i = 0; i < NBONES * 7; i++) {
        snprintf(ref, sizeof ref, "%f", (double)vals[i]);
        if (strcmp(ref, nums[i]) != 0)
            fail_msg("%a printed as %s, C prints %s", (double)vals[i], nums[i], ref);
    }
    pk_log rlog;
    pk_pose *q = rd((const char *)out.data, out.len, &rlog);
    assert_non_null(q);
    assert_int_equal(q->nbones, NBONES);
    for (size_t i = 0; i < NBONES * 7; i++) {
        const pk_pose_bone *b = &q->bones[i / 7];
        float got = i % 7 < 3 ? b->pos[i % 7] : b->rot[i % 7 - 3];
        float want = strtof(nums[i], NULL);
        if (!same_bits(got, want))
            fail_msg("'%s' read as %a, strtof gives %a", nums[i], (double)got, (double)want);
    }
    pk_buf again;
    pk_buf_init(&again);
    assert_int_equal(pk_vpd_write(q, NULL, &again, &rlog), 0);
    assert_int_equal(again.len, out.len);
    assert_memory_equal(again.data, out.data, out.len);
    pk_buf_free(&again);
    pk_pose_free(q);
    pk_log_free(&rlog);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
}

/* Floats that came from 6-decimal text, as every MMD file holds them:
 * parse(print(f)) must be f itself, bit for bit (checked by the second
 * write in float_round_trip giving the same text, and here directly). */
static float six_decimal_float(void)
{
    long v = (long)(rnd() % 40000001u) - 20000000; /* -20.000000 .. 20.000000 */
    char s[32];
    snprintf(s, sizeof s, "%s%ld.%06ld", v < 0 ? "-" : "", labs(v) / 1000000, labs(v) % 1000000);
    return strtof(s, NULL);
}

static void test_float_print_parse(void **state)
{
    (void)state;
    float_round_trip(random_float);
    float_round_trip(six_decimal_float);
    /* ties at the 7th decimal are rounded half to even, like glibc */
    static const struct {
        float f;
        const char *s;
    } ties[] = {{0.0078125f, "0.007812"},
                {0.0234375f, "0.023438"},
                {-0.0078125f, "-0.007812"},
                {1e-7f, "0.000000"},
                {-1e-7f, "-0.000000"},
                {16777216.0f, "16777216.000000"},
                {3.4028235e38f, "340282346638528859811704183484516925440.000000"}};
    for (size_t i = 0; i < sizeof ties / sizeof *ties; i++) {
        pk_pose *p = pk_pose_new();
        pk_pose_morph *m = pk_pose_push_morph(p);
        m->name = pk_names_intern(p->names, "m", 1);
        m->weight = ties[i].f;
        pk_buf out;
        pk_buf_init(&out);
        assert_int_equal(pk_vpd_write(p, NULL, &out, NULL), 0);
        char want[128];
        snprintf(want, sizeof want, "Morph0{m\r\n  %s;\t", ties[i].s);
        assert_non_null(out.data);
        bool seen = false;
        for (size_t k = 0; k + strlen(want) <= out.len; k++)
            seen |= memcmp(out.data + k, want, strlen(want)) == 0;
        if (!seen)
            fail_msg("%a not printed as %s", (double)ties[i].f, ties[i].s);
        pk_buf_free(&out);
        pk_pose_free(p);
    }
}

/* Random decimal texts of every shape (long digit strings, exponents,
 * subnormals, near-midpoint values) read exactly as strtof reads them. */
static void test_parse_matches_strtof(void **state)
{
    (void)state;
    enum { N = 3000 };
    static char texts[N][200];
    size_t cap = 64 + N * 260, len = 0;
    char *doc = malloc(cap);
    assert_non_null(doc);
    len += (size_t)snprintf(doc, cap, "Vocaloid Pose Data file\n\nm.osm;\n%d;\n", N);
    for (int i = 0; i < N; i++) {
        char *t = texts[i];
        int kind = i % 5;
        if (kind == 0) { /* long mantissa */
            int nd = 1 + (int)(rnd() % 150);
            /* a point within the first 38 digits keeps it inside float range;
             * dot == nd (only possible for short strings) means no point */
            int lim = nd < 38 ? nd : 38;
            int dot = (int)(rnd() % (unsigned)(lim + 1));
            int o = 0;
            if (rnd() & 1)
                t[o++] = '-';
            for (int k = 0; k < nd; k++) {
                if (k == dot)
                    t[o++] = '.';
                t[o++] = (char)('0' + rnd() % 10);
            }
            t[o] = 0;
        } else if (kind == 1) /* exponent forms */
            snprintf(t, 200, "%u.%ue%d", rnd() % 100000, rnd() % 1000,
                     (int)(rnd() % 80) - 50); /* stays below FLT_MAX */
        else if (kind == 2)                   /* exact midpoints between floats, printed in full */
        {
            float f = random_float();
            float g = nextafterf(f, INFINITY);
            if (!isfinite(g))
                g = f;
            snprintf(t, 200, "%.120g", ((double)f + (double)g) / 2);
        } else if (kind == 3) /* %.9g round-trip forms */
            snprintf(t, 200, "%.9g", (double)random_float());
        else
            snprintf(t, 200, "%.6f", (double)six_decimal_float() * 1000.0);
        len += (size_t)snprintf(doc + len, cap - len, "Bone%d{b%d\n  %s,0,0;\n  0,0,0,1;\n}\n", i,
                                i, t);
    }
    pk_log log;
    pk_pose *p = rd(doc, len, &log);
    if (!p)
        dump_log(&log);
    assert_non_null(p);
    assert_int_equal(p->nbones, N);
    for (int i = 0; i < N; i++) {
        float want = strtof(texts[i], NULL);
        if (!same_bits(p->bones[i].pos[0], want))
            fail_msg("'%s' read as %a, strtof gives %a", texts[i], (double)p->bones[i].pos[0],
                     (double)want);
    }
    pk_pose_free(p);
    pk_log_free(&log);
    free(doc);
}

/* ---- comma-decimal locale ------------------------------------------- */

static bool comma_locale(void)
{
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8",  "fr_FR.UTF-8", "fr_FR.utf8",
                                  "de_DE",       "fr_FR",       "nl_NL.UTF-8", "it_IT.UTF-8",
                                  "es_ES.UTF-8", "ru_RU.UTF-8", "pt_BR.UTF-8"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (setlocale(LC_ALL, names[i]) && strcmp(localeconv()->decimal_point, ",") == 0)
            return true;
    /* Not installed: compile one into a private folder when localedef and
     * the locale sources exist (CI installs the `locales` package). */
    const char *dir = tu_tmpdir();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1", dir);
    if (system(cmd) != 0)
        return false;
    setenv("LOCPATH", dir, 1);
    return setlocale(LC_ALL, "de_DE.UTF-8") && strcmp(localeconv()->decimal_point, ",") == 0;
}

static void test_comma_locale(void **state)
{
    (void)state;
    size_t n;
    char *doc = with_eol(DOC_LF, "\r\n", &n);
    pk_log log;
    pk_pose *p = rd(doc, n, &log);
    pk_buf ref;
    pk_buf_init(&ref);
    assert_int_equal(pk_vpd_write(p, NULL, &ref, &log), 0);
    pk_pose *small = small_pose();
    pk_buf ref2;
    pk_buf_init(&ref2);
    assert_int_equal(pk_vpd_write(small, NULL, &ref2, &log), 0);

    if (!comma_locale()) {
        setlocale(LC_ALL, "C");
        pk_buf_free(&ref);
        pk_buf_free(&ref2);
        pk_pose_free(p);
        pk_pose_free(small);
        pk_log_free(&log);
        free(doc);
        skip(); /* no comma-decimal locale on this machine */
    }
    char probe[32];
    snprintf(probe, sizeof probe, "%f", 0.5);
    assert_string_equal(probe, "0,500000"); /* the locale really is active */

    pk_log l2;
    pk_pose *q = rd(doc, n, &l2);
    check_doc(q);
    for (size_t i = 0; i < 2; i++) {
        assert_memory_equal(q->bones[i].pos, p->bones[i].pos, sizeof q->bones[i].pos);
        assert_memory_equal(q->bones[i].rot, p->bones[i].rot, sizeof q->bones[i].rot);
    }
    pk_buf out;
    pk_buf_init(&out);
    assert_int_equal(pk_vpd_write(q, NULL, &out, &l2), 0);
    assert_int_equal(out.len, ref.len);
    assert_memory_equal(out.data, ref.data, ref.len);
    pk_buf out2;
    pk_buf_init(&out2);
    assert_int_equal(pk_vpd_write(small, NULL, &out2, &l2), 0);
    assert_int_equal(out2.len, ref2.len);
    assert_memory_equal(out2.data, ref2.data, ref2.len);
    assert_memory_equal(out2.data, EXPECT_HEAD, sizeof EXPECT_HEAD - 1);
    setlocale(LC_ALL, "C");

    pk_buf_free(&out2);
    pk_buf_free(&out);
    pk_pose_free(q);
    pk_log_free(&l2);
    pk_buf_free(&ref);
    pk_buf_free(&ref2);
    pk_pose_free(p);
    pk_pose_free(small);
    pk_log_free(&log);
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eol_styles),        cmocka_unit_test(test_bom_comments_whitespace),
        cmocka_unit_test(test_numbers),           cmocka_unit_test(test_non_finite_read),
        cmocka_unit_test(test_out_of_sequence),   cmocka_unit_test(test_morphs_and_count_warning),
        cmocka_unit_test(test_trail_byte_names),  cmocka_unit_test(test_duplicates_and_long_names),
        cmocka_unit_test(test_writer_exact),      cmocka_unit_test(test_writer_refuses),
        cmocka_unit_test(test_hybrid_round_trip), cmocka_unit_test(test_hybrid_hand_made),
        cmocka_unit_test(test_float_print_parse), cmocka_unit_test(test_parse_matches_strtof),
        cmocka_unit_test(test_comma_locale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
