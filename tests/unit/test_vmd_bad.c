/* test_vmd_bad.c — broken VMD input: truncation at every offset, huge
 * counts, random byte flips.  Each read either succeeds (and then writes
 * back the very bytes it read) or fails with an error whose offset lies
 * inside the input; nothing crashes (CI runs this under ASan+UBSan) and no
 * count is trusted before it is checked against the bytes left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vmdgen.h"

enum { HEADER_V2 = 50, HEADER_V1 = 40 };

/* Record sizes from doc/formats.md §3.1. */
static const size_t RECORD[5] = {111, 23, 61, 28, 9};

static const char *const SECTION[6] = {"bone",  "morph",       "camera",
                                       "light", "self-shadow", "show/IK"};

/* Offsets of the count fields of a well-formed file, computed from the
 * layout and the counts stored in the file; bounds[s] = where section s's
 * count starts, bounds[nsec] = end of the last section. */
static int section_bounds(const uint8_t *d, size_t len, size_t header, size_t bounds[7])
{
    size_t at = header;
    int s = 0;
    bounds[0] = at;
    while (s < 6 && at + 4 <= len) {
        uint32_t n = (uint32_t)d[at] | (uint32_t)d[at + 1] << 8 | (uint32_t)d[at + 2] << 16 |
                     (uint32_t)d[at + 3] << 24;
        at += 4;
        if (s < 5) {
            at += (size_t)n * RECORD[s];
        } else {
            for (uint32_t i = 0; i < n; i++) {
                uint32_t k = (uint32_t)d[at + 5] | (uint32_t)d[at + 6] << 8 |
                             (uint32_t)d[at + 7] << 16 | (uint32_t)d[at + 8] << 24;
                at += 9 + 21 * (size_t)k;
            }
        }
        bounds[++s] = at;
    }
    assert_true(at <= len);
    return s;
}

/* Expected outcome of reading the first L bytes: the read succeeds exactly
 * when the cut falls on a section end or 1-3 bytes after one (trailing
 * bytes where a count would start), or keeps the whole file. */
static bool cut_is_legal(size_t L, size_t len, const size_t bounds[7], int nsec)
{
    if (L == len)
        return true;
    for (int s = 0; s < nsec; s++)
        if (L >= bounds[s] && L <= bounds[s] + 3)
            return true;
    return L >= bounds[nsec] && L <= bounds[nsec] + 3 && nsec < 6;
}

static void check_read(const uint8_t *d, size_t len, const char *what)
{
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(d, len, &log);
    if (m) {
        assert_int_equal(log.errors, 0);
        pk_buf out;
        pk_buf_init(&out);
        if (pk_vmd_write(m, &out, &log) != 0)
            fail_msg("%s: read but cannot write", what);
        if (out.len != len || memcmp(out.data, d, len) != 0)
            fail_msg("%s (%zu bytes): read, but writes back %zu different bytes", what, len,
                     out.len);
        pk_buf_free(&out);
        pk_motion_free(m);
    } else {
        assert_true(log.errors > 0);
        bool any = false;
        for (size_t i = 0; i < log.count; i++) {
            if (log.items[i].severity != PK_ERROR)
                continue;
            any = true;
            int64_t off = log.items[i].offset;
            if (off < 0 || (uint64_t)off > len)
                fail_msg("%s: error offset %lld outside the %zu-byte input", what, (long long)off,
                         len);
        }
        assert_true(any);
    }
    pk_log_free(&log);
}

/* Reads every prefix of d and checks success/failure against the layout. */
static void truncate_everywhere(const uint8_t *d, size_t len, size_t header, const char *what)
{
    size_t bounds[7];
    int nsec = section_bounds(d, len, header, bounds);
    char label[600];
    for (size_t L = 0; L <= len; L++) {
        pk_log log;
        pk_log_init(&log);
        /* a fresh copy of exactly L bytes, so ASan sees any overread */
        uint8_t *copy = malloc(L ? L : 1);
        assert_non_null(copy);
        memcpy(copy, d, L);
        pk_motion *m = pk_vmd_read(copy, L, &log);
        bool legal = cut_is_legal(L, len, bounds, nsec);
        if (legal && !m)
            fail_msg("%s cut at %zu: should read (section boundary) but failed", what, L);
        if (!legal && m)
            fail_msg("%s cut at %zu: should fail but read", what, L);
        pk_motion_free(m);
        pk_log_free(&log);
        snprintf(label, sizeof label, "%s cut at %zu", what, L);
        check_read(copy, L, label);
        free(copy);
    }
}

/* A generated file with keys in every section; count offsets in counts[]. */
static void build(vg *g, size_t counts[6], size_t *ik_count_at)
{
    vg_init(g);
    vg_header_v2(g, "gen");
    counts[0] = g->len;
    vg_u32(g, 2);
    vg_bone(g, "\x83\x5a\x83\x93\x83\x5e\x81\x5b", 0xFD, 0, 1, 2, 3, 0, 0, 0, 1);
    vg_bone(g, "abcdefghijklmno", 0, 10, 0, 0, 0, 0, 0, 0, 1);
    counts[1] = g->len;
    vg_u32(g, 1);
    vg_morph(g, "blink", 0, 5, 0.5f);
    counts[2] = g->len;
    vg_u32(g, 1);
    vg_camera(g, 0, -45, 0, 10, 0, 0, 0, 0, 30, 0);
    counts[3] = g->len;
    vg_u32(g, 1);
    vg_light(g, 0, 0.6f, 0.6f, 0.6f, -0.5f, -1, 0.5f);
    counts[4] = g->len;
    vg_u32(g, 1);
    vg_shadow(g, 0, 1, 0.01125f);
    counts[5] = g->len;
    vg_u32(g, 2);
    vg_ik_head(g, 0, 1, 1);
    vg_ik_state(g, "leg IK", 0xFD, 1);
    *ik_count_at = g->len + 5;
    vg_ik_head(g, 9, 0, 2);
    vg_ik_state(g, "leg IK", 0xFD, 0);
    vg_ik_state(g, "01234567890123456789", 0, 1);
}

static void test_truncate_generated(void **state)
{
    (void)state;
    vg g;
    size_t counts[6], ikc;
    build(&g, counts, &ikc);
    truncate_everywhere(g.d, g.len, HEADER_V2, "generated v2");
    vg_free(&g);

    /* v1: 10-byte model name, ends after the self-shadow count */
    vg_init(&g);
    vg_header_v1(&g, "v1");
    vg_u32(&g, 1);
    vg_bone(&g, "b", 0, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&g, 1);
    vg_morph(&g, "m", 0, 0, 1);
    vg_u32(&g, 0);
    vg_u32(&g, 0);
    vg_u32(&g, 0);
    truncate_everywhere(g.d, g.len, HEADER_V1, "generated v1");
    vg_free(&g);
}

static void test_truncate_corpus(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    size_t done = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *d = tu_read_file(paths[i], &len);
        if (len <= 20000) { /* the small ones: every offset of each */
            truncate_everywhere(d, len, HEADER_V2, paths[i]);
            done++;
        }
        free(d);
    }
    assert_true(done >= 5);
    tu_free_list(paths, n);
}

/* 0xFFFFFFFF in each count: an error at the count's offset naming the
 * section, without allocating (an allocation of hundreds of GB would abort
 * under ASan). */
static void test_huge_counts(void **state)
{
    (void)state;
    vg g;
    size_t counts[6], ikc;
    build(&g, counts, &ikc);
    for (int s = 0; s < 6; s++) {
        uint8_t *d = malloc(g.len);
        assert_non_null(d);
        memcpy(d, g.d, g.len);
        vg bad = {d, g.len, g.len};
        vg_patch_u32(&bad, counts[s], 0xFFFFFFFFu);
        pk_log log;
        pk_log_init(&log);
        assert_null(pk_vmd_read(d, g.len, &log));
        assert_int_equal(log.errors, 1);
        const pk_diag *e = &log.items[log.count - 1];
        assert_int_equal(e->severity, PK_ERROR);
        assert_int_equal(e->offset, (int64_t)counts[s]);
        char want[64];
        snprintf(want, sizeof want, "%s count 4294967295", SECTION[s]);
        tu_assert_log_has(&log, want);
        pk_log_free(&log);
        free(d);
    }
    /* the exact figures: 4294967295 x 111 bytes needed */
    vg bad = {g.d, counts[1], counts[1]};
    vg_patch_u32(&bad, counts[0], 0xFFFFFFFFu);
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_vmd_read(g.d, counts[1], &log));
    char want[128];
    snprintf(want, sizeof want, "bone count 4294967295 needs 476741369745 bytes, %zu left",
             counts[1] - counts[0] - 4);
    tu_assert_log_has(&log, want);
    pk_log_free(&log);
    vg_patch_u32(&bad, counts[0], 2);

    /* one IK record claiming 4 billion states */
    vg_patch_u32(&g, ikc, 0xFFFFFFFFu);
    pk_log_init(&log);
    assert_null(pk_vmd_read(g.d, g.len, &log));
    assert_int_equal(log.items[log.count - 1].offset, (int64_t)ikc);
    tu_assert_log_has(&log, "IK count 4294967295");
    pk_log_free(&log);

    /* a count that would fit in memory but not in the file */
    vg_patch_u32(&g, ikc, 2);
    vg_patch_u32(&g, counts[2], 1000000);
    pk_log_init(&log);
    assert_null(pk_vmd_read(g.d, g.len, &log));
    assert_int_equal(log.items[log.count - 1].offset, (int64_t)counts[2]);
    tu_assert_log_has(&log, "camera count 1000000 needs 61000000 bytes");
    pk_log_free(&log);
    vg_free(&g);
}

/* A count one too low makes the reader take the section's last record for
 * the next count: the error names the section whose count is wrong, at
 * that count's offset, and the count that reads the file to its end.  A
 * file cut short names the section it ends in. */
static void test_count_slips(void **state)
{
    (void)state;
    vg g;
    size_t counts[6], ikc;
    build(&g, counts, &ikc);
    static const uint32_t good[6] = {2, 1, 1, 1, 1, 2};
    for (int s = 0; s < 6; s++) {
        for (int low = 0; low < 2; low++) {
            /* too high reads into the next section's bytes, which may well
             * hold what the reader takes for records; one too low in the
             * self-shadow section reads its record's frame 0 as an empty
             * show/IK section, in show/IK leaves trailing bytes (both are
             * read, with a warning) */
            if ((s != 0 && s != 5 && !low) || (s >= 4 && low))
                continue;
            uint32_t bad = low ? good[s] - 1 : good[s] + 1;
            vg_patch_u32(&g, counts[s], bad);
            pk_log log;
            pk_log_init(&log);
            assert_null(pk_vmd_read(g.d, g.len, &log));
            const pk_diag *e = &log.items[log.count - 1];
            assert_int_equal(e->severity, PK_ERROR);
            char want[160];
            snprintf(want, sizeof want, "the file is damaged in its %s section", SECTION[s]);
            assert_int_equal(e->offset, (int64_t)counts[s]);
            tu_assert_log_has(&log, want);
            snprintf(want, sizeof want, "its count, %u, is most likely 1 too %s: with %u", bad,
                     low ? "low" : "high", good[s]);
            tu_assert_log_has(&log, want);
            pk_log_free(&log);
            vg_patch_u32(&g, counts[s], good[s]);
        }
    }
    /* cut inside the morph records: nothing to blame but the cut */
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_vmd_read(g.d, counts[1] + 10, &log));
    assert_int_equal(log.items[log.count - 1].offset, (int64_t)counts[1]);
    tu_assert_log_has(&log, "the file is damaged or cut short in its morph section (morph count 1 "
                            "needs 23 bytes, 6 left)");
    pk_log_free(&log);
    vg_free(&g);
}

/* xorshift32: a fixed, portable sequence. */
static uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static void flip_many(const uint8_t *d, size_t len, int rounds, uint32_t seed, const char *what)
{
    uint8_t *copy = malloc(len);
    assert_non_null(copy);
    char label[600];
    size_t ok = 0;
    for (int r = 0; r < rounds; r++) {
        memcpy(copy, d, len);
        int flips = 1 + (int)(rnd(&seed) % 4);
        for (int f = 0; f < flips; f++) {
            size_t at = rnd(&seed) % len;
            /* half the time aim at the header and count fields, where
             * flips hurt most */
            if (rnd(&seed) & 1)
                at = rnd(&seed) % (len < 80 ? len : 80);
            copy[at] ^= (uint8_t)(1 + rnd(&seed) % 255);
        }
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = pk_vmd_read(copy, len, &log);
        ok += m != NULL;
        pk_motion_free(m);
        pk_log_free(&log);
        snprintf(label, sizeof label, "%s flip round %d", what, r);
        check_read(copy, len, label);
    }
    /* most flips land in names, floats and interpolation: still readable */
    assert_true(ok > 0);
    free(copy);
}

static void test_flips(void **state)
{
    (void)state;
    vg g;
    size_t counts[6], ikc;
    build(&g, counts, &ikc);
    flip_many(g.d, g.len, 3000, 12345u, "generated");
    vg_free(&g);
    static const char *const names[] = {
        "vmd_babylon_physics_toggle_v2_yyb10th.vmd",
        "vmd_vmd2xml_flag.vmd",
        "vmd_imas_face16.vmd",
        "vmd_wavefile_camera.vmd",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *path = tu_corpus_path(names[i]);
        if (!path)
            continue; /* the generated file above still ran */
        size_t len;
        uint8_t *d = tu_read_file(path, &len);
        flip_many(d, len, 1000, 777u + (uint32_t)i, names[i]);
        free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncate_generated),
        cmocka_unit_test(test_truncate_corpus),
        cmocka_unit_test(test_huge_counts),
        cmocka_unit_test(test_count_slips),
        cmocka_unit_test(test_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
