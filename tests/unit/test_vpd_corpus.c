/* test_vpd_corpus.c — every VPD of the shared corpus (PK_CORPUS): reads,
 * the facts doc/formats.md §8 and PROVENANCE.tsv document, byte-exact rewrite
 * (MMD's CRLF layout) and value-exact read-back, hybrid round trip. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char DAMAGED[] = "vpd_damaged_utf8_fffd_pose.vpd";

static bool is_damaged(const char *path)
{
    return strstr(path, DAMAGED) != NULL;
}

static pk_pose *load(const char *path, pk_log *log, uint8_t **data, size_t *len)
{
    *data = tu_read_file(path, len);
    pk_log_init(log);
    pk_pose *p = pk_vpd_read(*data, *len, log);
    pk_log_place(log, 0, path);
    return p;
}

static void print_log(const pk_log *log)
{
    char line[1024];
    for (size_t i = 0; i < log->count; i++) {
        pk_diag_format(&log->items[i], line, sizeof line);
        print_message("  %s\n", line);
    }
}

/* Git stored these files with LF; MMD wrote CRLF (doc/formats.md §8). */
static uint8_t *lf_to_crlf(const uint8_t *d, size_t n, size_t *out_len)
{
    uint8_t *o = malloc(2 * n + 1);
    assert_non_null(o);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == '\n' && (i == 0 || d[i - 1] != '\r'))
            o[m++] = '\r';
        o[m++] = d[i];
    }
    *out_len = m;
    return o;
}

/* Counts lines starting with `kw` directly in the bytes: an independent
 * count of the blocks. */
static size_t count_lines_starting(const uint8_t *d, size_t n, const char *kw)
{
    size_t k = strlen(kw), c = 0;
    for (size_t i = 0; i + k <= n; i++)
        if ((i == 0 || d[i - 1] == '\n') && memcmp(d + i, kw, k) == 0)
            c++;
    return c;
}

static void assert_same_pose(const pk_pose *a, const pk_pose *b)
{
    assert_int_equal(a->model_len, b->model_len);
    if (a->model_len)
        assert_memory_equal(a->model, b->model, a->model_len);
    assert_int_equal(a->nbones, b->nbones);
    assert_int_equal(a->nmorphs, b->nmorphs);
    for (size_t i = 0; i < a->nbones; i++) {
        size_t la, lb;
        const uint8_t *ra = pk_names_raw(a->names, a->bones[i].name, &la);
        const uint8_t *rb = pk_names_raw(b->names, b->bones[i].name, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(ra, rb, la);
        /* bit-exact floats */
        assert_memory_equal(a->bones[i].pos, b->bones[i].pos, sizeof a->bones[i].pos);
        assert_memory_equal(a->bones[i].rot, b->bones[i].rot, sizeof a->bones[i].rot);
    }
    for (size_t i = 0; i < a->nmorphs; i++) {
        size_t la, lb;
        const uint8_t *ra = pk_names_raw(a->names, a->morphs[i].name, &la);
        const uint8_t *rb = pk_names_raw(b->names, b->morphs[i].name, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(ra, rb, la);
        assert_memory_equal(&a->morphs[i].weight, &b->morphs[i].weight, sizeof(float));
    }
}

static void test_every_vpd_reads_and_round_trips(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vpd", &paths);
    if (n == 0)
        skip();
    assert_true(n >= 10); /* PROVENANCE.tsv lists 10 VPD files */
    for (size_t f = 0; f < n; f++) {
        pk_log log;
        uint8_t *data;
        size_t len;
        pk_pose *p = load(paths[f], &log, &data, &len);
        if (!p)
            print_log(&log);
        assert_non_null(p);
        assert_int_equal(log.errors, 0);
        /* blocks as counted straight from the bytes */
        assert_int_equal(p->nbones, count_lines_starting(data, len, "Bone"));
        assert_int_equal(p->nmorphs, count_lines_starting(data, len, "Morph"));

        pk_buf out;
        pk_buf_init(&out);
        pk_log wlog;
        pk_log_init(&wlog);
        if (is_damaged(paths[f])) {
            /* U+FFFD (3 bytes) replaced every 2-byte character: several
             * names grew past 19 bytes.  What was read is written back
             * whole (with a warning naming a bone) and reads back the
             * same.  (Not byte-identical: the damage also hit the fixed
             * comments, which the writer spells in CP932 as MMD does.) */
            assert_true(log.warnings > 0);
            assert_int_equal(pk_vpd_write(p, NULL, &out, &wlog), 0);
            tu_assert_log_has(&wlog, "-byte name; MMD reads only the first 19 bytes");
            tu_assert_log_has(&wlog, "bone '");
            pk_log rlog;
            pk_log_init(&rlog);
            pk_pose *q = pk_vpd_read(out.data, out.len, &rlog);
            assert_non_null(q);
            assert_same_pose(p, q);
            pk_pose_free(q);
            pk_log_free(&rlog);
        } else {
            if (log.warnings)
                print_log(&log);
            assert_int_equal(log.warnings, 0);
            assert_int_equal(p->eol, PK_EOL_LF); /* git normalised them */
            assert_int_equal(pk_vpd_write(p, NULL, &out, &wlog), 0);
            /* MMD's layout, byte for byte: the file with its CRs restored */
            size_t clen;
            uint8_t *crlf = lf_to_crlf(data, len, &clen);
            assert_int_equal(out.len, clen);
            assert_memory_equal(out.data, crlf, clen);
            free(crlf);
            /* and it reads back to the same names and the same float bits */
            pk_log rlog;
            pk_log_init(&rlog);
            pk_pose *q = pk_vpd_read(out.data, out.len, &rlog);
            assert_non_null(q);
            assert_int_equal(rlog.errors + rlog.warnings, 0);
            assert_int_equal(q->eol, PK_EOL_CRLF);
            assert_same_pose(p, q);
            pk_pose_free(q);
            pk_log_free(&rlog);

            /* hybrid: every corpus name fits 15 bytes; bones survive, morphs
             * are dropped with a warning */
            pk_buf h;
            pk_buf_init(&h);
            pk_vpd_options o = {PK_VPD_HYBRID, false};
            assert_int_equal(pk_vpd_write(p, &o, &h, &wlog), 0);
            pk_pose *hq = pk_vpd_read(h.data, h.len, &rlog);
            assert_non_null(hq);
            assert_int_equal(hq->layout, PK_VPD_HYBRID);
            assert_int_equal(hq->nbones, p->nbones);
            size_t keep = p->nmorphs;
            p->nmorphs = 0;
            assert_same_pose(p, hq);
            p->nmorphs = keep;
            pk_pose_free(hq);
            pk_log_free(&rlog);
            pk_buf_free(&h);
        }
        pk_log_free(&wlog);
        pk_buf_free(&out);
        pk_pose_free(p);
        pk_log_free(&log);
        free(data);
    }
    tu_free_list(paths, n);
}

/* Facts from doc/formats.md §1, §8 and PROVENANCE.tsv. */
static void check_file(const char *name, size_t bones, size_t morphs, const char *model_utf8,
                       const char *first_utf8)
{
    const char *path = tu_corpus_path(name);
    if (!path)
        skip();
    pk_log log;
    uint8_t *data;
    size_t len;
    pk_pose *p = load(path, &log, &data, &len);
    assert_non_null(p);
    assert_int_equal(p->layout, PK_VPD_TEXT);
    assert_int_equal(p->nbones, bones);
    assert_int_equal(p->nmorphs, morphs);
    char *model = pk_cp932_to_utf8(p->model, p->model_len, NULL);
    assert_string_equal(model, model_utf8);
    free(model);
    pk_name_id first = bones ? p->bones[0].name : p->morphs[0].name;
    assert_string_equal(pk_names_utf8(p->names, first), first_utf8);
    pk_pose_free(p);
    pk_log_free(&log);
    free(data);
}

static void test_keitel(void **state)
{
    (void)state;
    static const char *files[] = {"vpd_keitel_01.vpd", "vpd_keitel_03.vpd", "vpd_keitel_04.vpd",
                                  "vpd_keitel_09.vpd", "vpd_keitel_10.vpd", "vpd_keitel_11.vpd"};
    for (size_t i = 0; i < 6; i++)
        check_file(files[i], 93, 0, "初音ミク", "センター");
    /* the first values of 01.vpd, as shown in doc/formats.md §1.1 / the file */
    const char *path = tu_corpus_path("vpd_keitel_01.vpd");
    pk_log log;
    uint8_t *data;
    size_t len;
    pk_pose *p = load(path, &log, &data, &len);
    assert_non_null(p);
    assert_true(p->bones[0].pos[0] == -1.994186f);
    assert_true(p->bones[0].pos[1] == -0.241098f);
    assert_true(p->bones[0].pos[2] == 0.050083f);
    assert_true(p->bones[0].rot[0] == -0.008508f);
    assert_true(p->bones[0].rot[3] == 0.908765f);
    pk_pose_free(p);
    pk_log_free(&log);
    free(data);
}

static void test_other_files(void **state)
{
    (void)state;
    check_file("vpd_imas_makoto_basic.vpd", 55, 0, "真 SG衣装", "センター");
    check_file("vpd_mmdtools_test.vpd", 188, 0, "4.5A3_arm", "操作中心");
    check_file("vpd_mcmmd_smile_morphonly.vpd", 0, 6, "000_袖子", "ウィンク右");
}

static void test_morph_only_values(void **state)
{
    (void)state;
    const char *path = tu_corpus_path("vpd_mcmmd_smile_morphonly.vpd");
    if (!path)
        skip();
    pk_log log;
    uint8_t *data;
    size_t len;
    pk_pose *p = load(path, &log, &data, &len);
    assert_non_null(p);
    assert_true(p->morphs[0].weight == 0.190476f); /* doc/formats.md §8 */
    assert_true(p->morphs[1].weight == 1.0f);
    assert_true(p->morphs[5].weight == 0.201681f);
    /* --no-morphs leaves a valid empty pose */
    pk_vpd_options o = {PK_VPD_TEXT, true};
    pk_buf out;
    pk_buf_init(&out);
    assert_int_equal(pk_vpd_write(p, &o, &out, &log), 0);
    pk_pose *q = pk_vpd_read(out.data, out.len, &log);
    assert_non_null(q);
    assert_int_equal(q->nbones, 0);
    assert_int_equal(q->nmorphs, 0);
    assert_int_equal(q->model_len, p->model_len);
    pk_pose_free(q);
    pk_buf_free(&out);
    pk_pose_free(p);
    pk_log_free(&log);
    free(data);
}

static void test_damaged(void **state)
{
    (void)state;
    const char *path = tu_corpus_path(DAMAGED);
    if (!path)
        skip();
    pk_log log;
    uint8_t *data;
    size_t len;
    pk_pose *p = load(path, &log, &data, &len);
    assert_non_null(p);
    assert_int_equal(log.errors, 0);
    tu_assert_log_has(&log, "names look damaged");
    /* 7 duplicate names and 6 over-long ones: one line each, with the
     * count and the first names */
    tu_assert_log_has(&log, "7 names are listed more than once");
    tu_assert_log_has(&log, "6 names are longer than 19 bytes");
    assert_int_equal(log.warnings, 3);
    assert_int_equal(p->eol, PK_EOL_CRLF); /* the one file whose CRLF survived */
    assert_int_equal(p->nbones, 42);
    /* センター became EF BF BD 5A EF BF BD EF BF BD EF BF BD 5E EF BF BD 5B
     * (doc/formats.md §1.5): the name is kept exactly as read */
    static const char centre[] = "\xEF\xBF\xBD\x5A\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\x5E"
                                 "\xEF\xBF\xBD\x5B";
    size_t n;
    const uint8_t *raw = pk_names_raw(p->names, p->bones[0].name, &n);
    assert_int_equal(n, sizeof centre - 1);
    assert_memory_equal(raw, centre, n);
    assert_true(p->bones[0].pos[0] == 0.809898f);
    /* duplicates: every record kept, lookups find the last */
    size_t dup_pairs = 0;
    for (size_t i = 0; i < p->nbones; i++) {
        long last = pk_pose_find_bone(p, p->bones[i].name);
        assert_true(last >= (long)i);
        for (size_t j = i + 1; j < p->nbones; j++)
            if (p->bones[j].name == p->bones[i].name) {
                assert_true(last >= (long)j);
                dup_pairs++;
            }
    }
    assert_true(dup_pairs > 0);
    pk_pose_free(p);
    pk_log_free(&log);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_vpd_reads_and_round_trips),
        cmocka_unit_test(test_keitel),
        cmocka_unit_test(test_other_files),
        cmocka_unit_test(test_morph_only_values),
        cmocka_unit_test(test_damaged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
