/*
 * test_bad_inputs.c — the bad-input suite at library level, for the text
 * parsers and the documents around them (the VMD reader's own truncation
 * and flip tests live in test_vmd_bad.c).
 *
 * Inputs: VPD files generated here from doc/formats.md §1 (MMD's layout, LF,
 * Morph blocks, the hybrid layout), every .vpd of the shared corpus
 * (PK_CORPUS), every .vpd in samples/ (PK_SOURCE), and the shipped rule
 * files.  Each is cut at many offsets and mutated with random byte flips
 * (fixed seed, so a failure reproduces).  Every parse either succeeds or
 * fails with an error that carries a position; it never crashes (CI runs
 * this under ASan+UBSan) and never writes to its input.
 *
 * Where a VPD text cut is legal is precise: the file is a header then
 * blocks "BoneN{...}" / "MorphN{...}"; a cut strictly inside a block (after
 * the first byte of its keyword, up to and including the byte before its
 * closing brace) must fail, a cut between blocks must succeed and keep
 * exactly the blocks before it (MMD's count line is advisory: a mismatch is
 * only a warning).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* A failed call must leave an error, and every error must say where. */
static void assert_failure_positioned(const pk_log *log, const char *what, size_t cut)
{
    if (log->errors == 0)
        fail_msg("%s (cut/case %zu): failed without an error", what, cut);
    for (size_t i = 0; i < log->count; i++) {
        const pk_diag *d = &log->items[i];
        if (d->severity != PK_ERROR)
            continue;
        if (d->offset < 0 && d->line <= 0)
            fail_msg("%s (cut/case %zu): error without a position: %s", what, cut, d->msg);
        if (!d->path || !*d->path)
            fail_msg("%s (cut/case %zu): error without a file name: %s", what, cut, d->msg);
    }
}

/* Reads len bytes from an exact-size private copy (so ASan sees any read
 * past the end) and checks the reader left the bytes alone. */
static pk_pose *read_vpd_exact(const uint8_t *d, size_t len, pk_log *log)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, d, len);
    size_t from = log->count;
    pk_pose *p = pk_vpd_read(copy, len, log);
    pk_log_place(log, from, "cut.vpd");
    assert_memory_equal(copy, d, len);
    free(copy);
    return p;
}

typedef struct vpd_block {
    size_t start; /* offset of the B of "Bone" / M of "Morph" */
    size_t brace; /* offset of the closing '}' */
    bool morph;
} vpd_block;

/* Finds the blocks of a VPD text by its lines: a block starts at a line
 * whose first non-blank text is Bone<digits> or Morph<digits> and ends at
 * the next line whose first non-blank byte is '}'.  ('{' and '}' also occur
 * as CP932 trail bytes inside names, never at the start of a line.) */
static size_t find_blocks(const uint8_t *d, size_t len, vpd_block *out, size_t max)
{
    size_t n = 0, i = 0;
    bool open = false;
    while (i < len) {
        size_t s = i;
        while (s < len && (d[s] == ' ' || d[s] == '\t'))
            s++;
        size_t e = s;
        while (e < len && d[e] != '\n' && d[e] != '\r')
            e++;
        if (!open && e - s > 5 &&
            (memcmp(d + s, "Bone", 4) == 0 || memcmp(d + s, "Morph", 5) == 0)) {
            size_t k = s + (d[s] == 'B' ? 4 : 5);
            if (k < e && isdigit(d[k]) && n < max) {
                out[n].start = s;
                out[n].morph = d[s] == 'M';
                open = true;
            }
        } else if (open && s < len && d[s] == '}') {
            out[n++].brace = s;
            open = false;
        }
        i = e;
        while (i < len && (d[i] == '\n' || d[i] == '\r'))
            i++;
    }
    return n;
}

/* 0: cut between blocks (must succeed with `*keep` blocks); 1: inside a
 * block (must fail); -1: inside the header (either, with a position). */
static int classify_cut(size_t L, const vpd_block *b, size_t n, size_t *keep)
{
    if (n == 0 || L <= b[0].start)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (L > b[i].start && L <= b[i].brace)
            return 1;
        if (L > b[i].brace && (i + 1 == n || L <= b[i + 1].start)) {
            *keep = i + 1;
            return 0;
        }
    }
    return -1;
}

static void check_vpd_cut(const uint8_t *d, size_t L, const vpd_block *b, size_t n,
                          const char *what)
{
    pk_log log;
    pk_log_init(&log);
    pk_pose *p = read_vpd_exact(d, L, &log);
    size_t keep = 0;
    int cls = classify_cut(L, b, n, &keep);
    if (!p) {
        assert_failure_positioned(&log, what, L);
        if (cls == 0)
            fail_msg("%s: the cut at %zu falls between blocks but the read failed: %s", what, L,
                     log.count ? log.items[0].msg : "");
    } else {
        if (cls == 1)
            fail_msg("%s: the cut at %zu falls inside a block but the read succeeded", what, L);
        if (cls == 0 && p->nbones + p->nmorphs != keep)
            fail_msg("%s: cut at %zu keeps %zu blocks, read %zu bones + %zu morphs", what, L, keep,
                     p->nbones, p->nmorphs);
        assert_int_equal(log.errors, 0);
    }
    pk_pose_free(p);
    pk_log_free(&log);
}

/* Every offset in the first 256 bytes, every offset within 2 of a block's
 * start or brace, and about 300 more spread over the file. */
static void truncate_vpd(const uint8_t *d, size_t len, const char *what)
{
    vpd_block blocks[4096];
    size_t n = find_blocks(d, len, blocks, sizeof blocks / sizeof *blocks);
    size_t step = len / 300 + 1;
    for (size_t L = 0; L <= len; L++) {
        bool near = L < 256 || L % step == 0 || L == len;
        for (size_t i = 0; !near && i < n; i++)
            near = (L + 2 >= blocks[i].start && L <= blocks[i].start + 2) ||
                   (L + 2 >= blocks[i].brace && L <= blocks[i].brace + 2);
        if (near)
            check_vpd_cut(d, L, blocks, n, what);
    }
}

/* Random flips: 1-4 bytes replaced by random or structural bytes.  A read
 * that succeeds must write back; what it writes must read again. */
static void flip_vpd(const uint8_t *d, size_t len, int rounds, const char *what)
{
    static const uint8_t special[] = {'{', '}', ';', ',', '.',  '\n', '\r', '\0',
                                      ' ', '-', 'e', '/', 0x81, 0x83, 0xFF, '9'};
    uint8_t *m = malloc(len ? len : 1);
    assert_non_null(m);
    for (int r = 0; r < rounds && len > 0; r++) {
        memcpy(m, d, len);
        int flips = 1 + (int)(rnd() % 4);
        for (int f = 0; f < flips; f++) {
            size_t at = rnd() % len;
            m[at] = rnd() % 2 ? (uint8_t)rnd() : special[rnd() % sizeof special];
        }
        pk_log log;
        pk_log_init(&log);
        pk_pose *p = read_vpd_exact(m, len, &log);
        if (!p) {
            assert_failure_positioned(&log, what, (size_t)r);
        } else {
            pk_buf out;
            pk_buf_init(&out);
            pk_vpd_options opts = {p->layout, false};
            pk_log_free(&log);
            pk_log_init(&log);
            if (pk_vpd_write(p, &opts, &out, &log) == 0) {
                pk_pose *again = read_vpd_exact(out.data, out.len, &log);
                if (!again)
                    fail_msg("%s (flip %d): written pose does not read back", what, r);
                assert_int_equal(again->nbones, p->nbones);
                assert_int_equal(again->nmorphs, p->nmorphs);
                pk_pose_free(again);
            } else if (log.errors == 0) {
                fail_msg("%s (flip %d): write failed without an error", what, r);
            }
            pk_buf_free(&out);
        }
        pk_pose_free(p);
        pk_log_free(&log);
    }
    free(m);
}

/* ---------------------------------------------------------- generated VPDs */

/* MMD's layout (doc/formats.md §1.1) with bones and morphs, in CP932. */
static size_t make_vpd(uint8_t *buf, size_t cap, const char *eol, bool morphs)
{
    /* センター, 右手首, マント (its CP932 bytes end in the trail byte '}'),
     * and a morph まばたき */
    static const char center[] = "\x83\x5a\x83\x93\x83\x5e\x81\x5b";
    static const char wrist[] = "\x89\x45\x8e\xe8\x8e\xf1";
    static const char mant[] = "\x83\x7d\x83\x93\x83\x67";
    static const char blink[] = "\x82\xdc\x82\xce\x82\xbd\x82\xab";
    const char *names[] = {center, wrist, mant};
    size_t n = 0;
    n += (size_t)snprintf((char *)buf + n, cap - n,
                          "Vocaloid Pose Data file%s%smodel.osm;\t\t// x%s3;\t\t\t\t// y%s%s", eol,
                          eol, eol, eol, eol);
    for (int i = 0; i < 3; i++)
        n += (size_t)snprintf((char *)buf + n, cap - n,
                              "Bone%d{%s%s  %d.500000,-0.000000,1.250000;\t\t\t\t// trans x,y,z%s"
                              "  0.000000,0.382683,0.000000,0.923880;\t\t// Quaternion x,y,z,w%s"
                              "}%s%s",
                              i, names[i], eol, i, eol, eol, eol, eol);
    if (morphs)
        n += (size_t)snprintf((char *)buf + n, cap - n,
                              "Morph0{%s%s  0.250000;\t\t\t\t// weight%s}%s%s", blink, eol, eol,
                              eol, eol);
    assert_true(n < cap);
    return n;
}

static void test_vpd_generated_truncations(void **state)
{
    (void)state;
    uint8_t buf[4096];
    const char *eols[] = {"\r\n", "\n", "\r"};
    for (int e = 0; e < 3; e++)
        for (int m = 0; m < 2; m++) {
            size_t len = make_vpd(buf, sizeof buf, eols[e], m);
            char what[64];
            snprintf(what, sizeof what, "generated VPD (eol %d, morphs %d)", e, m);
            /* Sanity of the classifier on the whole file. */
            vpd_block b[8];
            assert_int_equal(find_blocks(buf, len, b, 8), 3 + (size_t)m);
            truncate_vpd(buf, len, what);
        }
}

static void test_vpd_generated_flips(void **state)
{
    (void)state;
    uint8_t buf[4096];
    size_t len = make_vpd(buf, sizeof buf, "\r\n", true);
    rng = 777;
    flip_vpd(buf, len, 3000, "generated VPD");
}

/* ------------------------------------------------------- corpus and samples */

static size_t list_samples(const char *ext, char ***paths)
{
    /* samples/ of the source tree: every file ending in ext. */
    *paths = NULL;
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        return 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls '%s'/samples/*%s '%s'/samples/*/*%s 2>/dev/null", src, ext, src,
             ext);
    FILE *f = popen(cmd, "r");
    if (!f)
        return 0;
    size_t n = 0, cap = 0;
    char **v = NULL, line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        v[n] = strdup(line);
        assert_non_null(v[n]);
        n++;
    }
    pclose(f);
    *paths = v;
    return n;
}

static void run_vpd_files(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        uint8_t *d = tu_read_file(paths[i], &len);
        truncate_vpd(d, len, paths[i]);
        rng = 1000 + (uint32_t)i;
        flip_vpd(d, len, 300, paths[i]);
        free(d);
    }
}

static void test_vpd_corpus(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vpd", &paths);
    if (n == 0)
        skip(); /* PK_CORPUS unset */
    run_vpd_files(paths, n);
    tu_free_list(paths, n);
}

static void test_vpd_samples(void **state)
{
    (void)state;
    char **paths;
    size_t n = list_samples(".vpd", &paths);
    if (n == 0)
        skip(); /* no samples/ yet */
    run_vpd_files(paths, n);
    tu_free_list(paths, n);
}

/* ------------------------------------------------------------ hybrid layout */

/* 30-byte signature field, 20-byte model, uint32 count, per bone a 15-byte
 * name and a text line (doc/formats.md §2). */
static size_t make_hybrid(uint8_t *buf, size_t cap)
{
    memset(buf, 0, cap);
    memcpy(buf, "Vocaloid Pose Data file", 23);
    memcpy(buf + 30, "model", 5);
    buf[50] = 2;
    size_t n = 54;
    for (int i = 0; i < 2; i++) {
        memcpy(buf + n, i ? "b" : "a", 1);
        n += 15;
        n += (size_t)snprintf(
            (char *)buf + n, cap - n,
            "%d;0.500000,1.000000,-2.000000;0.000000,0.000000,0.000000,1.000000;\r\n", i);
    }
    return n;
}

static void test_hybrid_truncations_and_flips(void **state)
{
    (void)state;
    uint8_t buf[1024];
    size_t len = make_hybrid(buf, sizeof buf);
    pk_log log;
    pk_log_init(&log);
    pk_pose *full = read_vpd_exact(buf, len, &log);
    assert_non_null(full);
    assert_int_equal(full->layout, PK_VPD_HYBRID);
    assert_int_equal(full->nbones, 2);
    pk_pose_free(full);
    pk_log_free(&log);
    /* Each bone's text line ends at its '\n' (the next bone's binary name
     * follows it, so the line end is the delimiter the reader looks for);
     * the last line may also end at the end of the file, after its closing
     * ';'.  Every other shorter cut loses data or a delimiter and must
     * fail. */
    size_t last_semi = len;
    while (last_semi > 0 && buf[last_semi - 1] != ';')
        last_semi--;
    assert_true(last_semi + 2 == len); /* "...;\r\n" */
    for (size_t L = 0; L <= len; L++) {
        pk_log_init(&log);
        pk_pose *p = read_vpd_exact(buf, L, &log);
        if (!p)
            assert_failure_positioned(&log, "hybrid VPD", L);
        if (L < last_semi && p)
            fail_msg("hybrid VPD cut at %zu of %zu was accepted", L, len);
        if (L >= last_semi && (!p || p->nbones != 2))
            fail_msg("hybrid VPD cut after its last ';' (%zu of %zu) was rejected", L, len);
        if (L == len && !p)
            fail_msg("the whole hybrid VPD was rejected");
        pk_pose_free(p);
        pk_log_free(&log);
    }
    rng = 4242;
    flip_vpd(buf, len, 3000, "hybrid VPD");
}

/* ------------------------------------------------------------------ YAML */

static void truncate_rules_file(const char *path)
{
    size_t len = 0;
    uint8_t *d = tu_read_file(path, &len);
    const char *dir = tu_tmpdir();
    char cut_path[4200];
    /* Keep the file name: includes resolve beside it, then in the installed
     * rules folder. */
    const char *base = strrchr(path, '/');
    snprintf(cut_path, sizeof cut_path, "%s/%s", dir, base ? base + 1 : path);
    size_t step = len / 150 + 1;
    for (size_t L = 0; L <= len; L += (L < 64 ? 1 : step)) {
        tu_write_file(cut_path, d, L);
        pk_log log;
        pk_log_init(&log);
        pk_rules *r = pk_rules_load(cut_path, &log);
        if (!r) {
            if (log.errors == 0)
                fail_msg("%s cut at %zu: failed without an error", path, L);
            for (size_t i = 0; i < log.count; i++)
                if (log.items[i].severity == PK_ERROR && log.items[i].line <= 0)
                    fail_msg("%s cut at %zu: YAML error without line:col: %s", path, L,
                             log.items[i].msg);
        }
        pk_rules_free(r);
        pk_log_free(&log);
    }
    remove(cut_path);
    free(d);
}

static void test_rules_truncations(void **state)
{
    (void)state;
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        skip();
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls '%s'/rules/*.yaml 2>/dev/null", src);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char line[4096];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        truncate_rules_file(line);
        n++;
    }
    pclose(f);
    if (n == 0)
        skip();
}

/* ------------------------------------------------------------- documents */

/* Empty input: no format can be guessed from nothing but the extension;
 * either way the error names the file. */
static void test_empty_documents(void **state)
{
    (void)state;
    const char *paths[] = {"empty.vmd", "empty.vpd", "empty.bin"};
    for (size_t i = 0; i < 3; i++) {
        pk_log log;
        pk_log_init(&log);
        pk_doc doc;
        int rc = pk_doc_parse("", 0, paths[i], &doc, &log);
        assert_int_equal(rc, -1);
        assert_null(doc.motion);
        assert_null(doc.pose);
        assert_failure_positioned(&log, paths[i], i);
        tu_assert_log_has(&log, paths[i]);
        pk_log_free(&log);
    }
}

/* NaN and infinities read from a file are reported as warnings (the CLI's
 * --strict makes them errors), never silently accepted. */
static void test_nan_inf_warned(void **state)
{
    (void)state;
    uint8_t v[50 + 4 + 111 + 5 * 4];
    memset(v, 0, sizeof v);
    memcpy(v, "Vocaloid Motion Data 0002", 25);
    v[50] = 1;
    uint8_t *k = v + 54;
    k[0] = 'a';
    const float vals[7] = {NAN, INFINITY, -INFINITY, 0, 0, 0, 1};
    memcpy(k + 19, vals, sizeof vals); /* little-endian host, as the file */
    for (int i = 0; i < 64; i++)
        k[47 + i] = 20;
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(v, sizeof v, &log);
    pk_log_place(&log, 0, "nan.vmd");
    assert_non_null(m);
    if (log.warnings == 0)
        fail_msg("a VMD bone key with NaN and infinite values was read without a warning "
                 "(NaN/Inf in an input is a warning, an error with --strict)");
    pk_motion_free(m);
    pk_log_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vpd_generated_truncations),
        cmocka_unit_test(test_vpd_generated_flips),
        cmocka_unit_test(test_vpd_corpus),
        cmocka_unit_test(test_vpd_samples),
        cmocka_unit_test(test_hybrid_truncations_and_flips),
        cmocka_unit_test(test_rules_truncations),
        cmocka_unit_test(test_empty_documents),
        cmocka_unit_test(test_nan_inf_warned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
