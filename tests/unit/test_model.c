/* test_model.c — the PMX and PMD readers (engine/format/pmx.c, pmd.c) and
 * the skeleton they fill (engine/model/skeleton.c): every record kind,
 * index sizes 1/2/4, UTF-16LE and UTF-8 text, the graph checks, and
 * truncation of generated models at every offset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmxgen.h"
#include "testutil.h"

#define FLAGS_ALL 0x3FBF /* every flag but 0x0040 (unused) */

/* A PMX holding one of every record the reader walks. */
static void build_full(pg *g, float version, int enc, int extra_uv, int isz)
{
    const int sizes[6] = {isz, isz, isz, isz, isz, isz};
    pg_header(g, version, enc, extra_uv, sizes);
    bool v21 = version > 2.05f;
    /* vertices: BDEF1, BDEF2, BDEF4, SDEF (and QDEF in 2.1) */
    int nv = v21 ? 5 : 4;
    pg_i32(g, nv);
    for (int t = 0; t < nv; t++) {
        pg_f3(g, (float)t, 0, 0);
        pg_f3(g, 0, 1, 0);
        pg_f32(g, 0);
        pg_f32(g, 0);
        for (int e = 0; e < extra_uv; e++) {
            pg_f3(g, 1, 2, 3);
            pg_f32(g, 4);
        }
        pg_u8(g, (unsigned)t);
        int nb = t == 0 ? 1 : t == 1 || t == 3 ? 2 : 4;
        for (int k = 0; k < nb; k++)
            pg_idx(g, PG_BONE, 0);
        if (t == 1 || t == 3)
            pg_f32(g, 0.5f);
        if (t == 2 || t == 4)
            for (int k = 0; k < 4; k++)
                pg_f32(g, 0.25f);
        if (t == 3)
            for (int k = 0; k < 9; k++)
                pg_f32(g, 0.125f);
        pg_f32(g, 1); /* edge scale */
    }
    /* faces */
    pg_i32(g, 3);
    for (int k = 0; k < 3; k++)
        pg_idx(g, PG_VERTEX, k);
    /* textures */
    pg_i32(g, 1);
    pg_text(g, "tex.png");
    /* materials: shared toon, then texture toon */
    pg_i32(g, 2);
    for (int k = 0; k < 2; k++) {
        pg_text(g, "mat");
        pg_text(g, "mat");
        pg_zeros(g, 16 + 12 + 4 + 12 + 1 + 16 + 4);
        pg_idx(g, PG_TEXTURE, 0);
        pg_idx(g, PG_TEXTURE, -1);
        pg_u8(g, 0);
        pg_u8(g, k == 0 ? 1 : 0);
        if (k == 0)
            pg_u8(g, 3);
        else
            pg_idx(g, PG_TEXTURE, 0);
        pg_text(g, "memo");
        pg_i32(g, 3);
    }
    /* bones: 0 root; 1 every flag; 2 whose parent (3) comes after it; 3 */
    pg_i32(g, 4);
    pg_bone_simple(g, "センター", "center", 8, -1);
    pg_text(g, "全部");
    pg_text(g, "all");
    pg_f3(g, 1, 2, 3);
    pg_idx(g, PG_BONE, 0);
    pg_i32(g, 2);
    pg_u16(g, FLAGS_ALL);
    pg_idx(g, PG_BONE, 2); /* tail bone */
    pg_idx(g, PG_BONE, 0); /* append parent */
    pg_f32(g, 0.5f);       /* ratio */
    pg_f3(g, 1, 0, 0);     /* fixed axis */
    pg_f3(g, 1, 0, 0);     /* local X */
    pg_f3(g, 0, 0, 1);     /* local Z */
    pg_i32(g, 7);          /* external parent key */
    pg_idx(g, PG_BONE, 2); /* IK target */
    pg_i32(g, 40);
    pg_f32(g, 0.5f);
    pg_i32(g, 2);
    pg_idx(g, PG_BONE, 2);
    pg_u8(g, 0);
    pg_idx(g, PG_BONE, 3);
    pg_u8(g, 1);
    pg_f3(g, -3.0f, 0, 0);
    pg_f3(g, -0.01f, 0, 0);
    pg_bone_simple(g, "右ひざ", "knee_R", 4, 3);
    pg_bone_simple(g, "右足", "leg_R", 6, 0);
    /* morphs: every kind once */
    int nk = v21 ? 11 : 9;
    pg_i32(g, nk);
    for (int k = 0; k < nk; k++) {
        char name[32];
        snprintf(name, sizeof name, "モーフ%d", k);
        pg_text(g, name);
        pg_text(g, "morph");
        pg_u8(g, (unsigned)(k % 5));
        pg_u8(g, (unsigned)k);
        pg_i32(g, 1);
        switch (k) {
        case 0:
        case 9:
            pg_idx(g, PG_MORPH, 0);
            pg_f32(g, 1);
            break;
        case 1:
            pg_idx(g, PG_VERTEX, 0);
            pg_f3(g, 0, 0, 0);
            break;
        case 2:
            pg_idx(g, PG_BONE, 0);
            pg_zeros(g, 28);
            break;
        case 8:
            pg_idx(g, PG_MATERIAL, 0);
            pg_u8(g, 0);
            pg_zeros(g, 112);
            break;
        case 10:
            pg_idx(g, PG_RIGID, 0);
            pg_u8(g, 0);
            pg_zeros(g, 24);
            break;
        default: /* UV and extra UV */
            pg_idx(g, PG_VERTEX, 0);
            pg_zeros(g, 16);
            break;
        }
    }
    /* display frames */
    pg_i32(g, 3);
    pg_text(g, "Root");
    pg_text(g, "Root");
    pg_u8(g, 1);
    pg_i32(g, 1);
    pg_u8(g, 0);
    pg_idx(g, PG_BONE, 0);
    pg_text(g, "表情");
    pg_text(g, "Exp");
    pg_u8(g, 1);
    pg_i32(g, 1);
    pg_u8(g, 1);
    pg_idx(g, PG_MORPH, 1);
    pg_text(g, "足");
    pg_text(g, "legs");
    pg_u8(g, 0);
    pg_i32(g, 3);
    pg_u8(g, 0);
    pg_idx(g, PG_BONE, 3);
    pg_u8(g, 0);
    pg_idx(g, PG_BONE, 2);
    pg_u8(g, 1);
    pg_idx(g, PG_MORPH, 0);
    /* a rigid body and a joint */
    pg_i32(g, 1);
    pg_text(g, "rigid");
    pg_text(g, "rigid");
    pg_idx(g, PG_BONE, 0);
    pg_zeros(g, 61);
    pg_i32(g, 1);
    pg_text(g, "joint");
    pg_text(g, "joint");
    pg_u8(g, 0);
    pg_idx(g, PG_RIGID, 0);
    pg_idx(g, PG_RIGID, -1);
    pg_zeros(g, 96);
    if (v21) { /* a soft body with one anchor and one pin */
        pg_i32(g, 1);
        pg_text(g, "soft");
        pg_text(g, "soft");
        pg_u8(g, 0);
        pg_idx(g, PG_MATERIAL, 0);
        pg_zeros(g, 1 + 2 + 1 + 4 + 4 + 4 + 4 + 4 + 72 + 16 + 12);
        pg_i32(g, 1);
        pg_idx(g, PG_RIGID, 0);
        pg_idx(g, PG_VERTEX, 0);
        pg_u8(g, 1);
        pg_i32(g, 1);
        pg_idx(g, PG_VERTEX, 1);
    }
}

static pk_model *read_ok(const pg *g, pk_log *log)
{
    pk_log_init(log);
    pk_model *m = pk_model_read(g->b.data, g->b.len, log);
    for (size_t i = 0; i < log->count; i++) {
        char buf[512];
        pk_diag_format(&log->items[i], buf, sizeof buf);
        print_message("%s\n", buf);
    }
    assert_non_null(m);
    return m;
}

static void check_full(const pk_model *m, bool v21, int isz, int enc)
{
    assert_int_equal(m->format, PK_FMT_PMX);
    assert_true(m->version == (v21 ? 2.1f : 2.0f));
    assert_int_equal(m->encoding, enc == 0 ? PK_TEXT_UTF16LE : PK_TEXT_UTF8);
    for (int i = 0; i < 6; i++)
        assert_int_equal(m->index_size[i], isz);
    assert_string_equal(m->name, "テスト");
    assert_string_equal(m->name_en, "test");
    assert_string_equal(m->comment, "コメント");
    assert_string_equal(m->comment_en, "comment");
    assert_int_equal(m->counts[PK_MSEC_VERTICES], v21 ? 5 : 4);
    assert_int_equal(m->counts[PK_MSEC_FACES], 1);
    assert_int_equal(m->counts[PK_MSEC_TEXTURES], 1);
    assert_int_equal(m->counts[PK_MSEC_MATERIALS], 2);
    assert_int_equal(m->counts[PK_MSEC_RIGIDS], 1);
    assert_int_equal(m->counts[PK_MSEC_JOINTS], 1);
    assert_int_equal(m->counts[PK_MSEC_SOFTBODIES], v21 ? 1 : 0);
    assert_int_equal(m->nbones, 4);
    const pk_model_bone *b = &m->bones[1];
    assert_string_equal(b->name, "全部");
    assert_string_equal(b->name_en, "all");
    assert_int_equal(b->parent, 0);
    assert_true(b->pos[0] == 1 && b->pos[1] == 2 && b->pos[2] == 3);
    assert_int_equal(b->layer, 2);
    assert_int_equal(b->flags, FLAGS_ALL);
    assert_int_equal(b->tail_bone, 2);
    assert_int_equal(b->append_parent, 0);
    assert_true(b->append_ratio == 0.5f);
    assert_true(b->fixed_axis[0] == 1);
    assert_true(b->local_x[0] == 1 && b->local_z[2] == 1);
    assert_int_equal(b->external_key, 7);
    assert_int_equal(b->ik_target, 2);
    assert_int_equal(b->ik_loops, 40);
    assert_true(b->ik_limit == 0.5f);
    assert_int_equal(b->nik_links, 2);
    assert_int_equal(b->ik_links[0].bone, 2);
    assert_false(b->ik_links[0].limited);
    assert_int_equal(b->ik_links[1].bone, 3);
    assert_true(b->ik_links[1].limited);
    assert_true(b->ik_links[1].min[0] == -3.0f && b->ik_links[1].max[0] == -0.01f);
    assert_int_equal(m->bones[0].parent, -1);
    assert_int_equal(m->bones[0].ik_target, -1);
    assert_int_equal(m->bones[2].parent, 3); /* listed after its child: fine */
    assert_true(m->bones[0].pos[1] == 8);
    /* CP932 names: the bytes of "センター" */
    size_t len;
    const uint8_t *raw = pk_names_raw(m->names, m->bones[0].cp932, &len);
    assert_int_equal(len, 8);
    assert_memory_equal(raw, "\x83\x5A\x83\x93\x83\x5E\x81\x5B", 8);
    assert_int_equal(pk_model_find_bone(m, "\x83\x5A\x83\x93\x83\x5E\x81\x5B", 8), 0);
    assert_int_equal(pk_model_find_bone(m, "x", 1), -1);
    size_t nk = v21 ? 11 : 9;
    assert_int_equal(m->nmorphs, nk);
    for (size_t k = 0; k < nk; k++) {
        assert_int_equal(m->morphs[k].kind, k);
        assert_int_equal(m->morphs[k].panel, k % 5);
        assert_string_equal(m->morphs[k].name_en, "morph");
    }
    assert_string_equal(m->morphs[3].name, "モーフ3");
    assert_int_equal(m->nframes, 3);
    assert_string_equal(m->frames[2].name, "足");
    assert_string_equal(m->frames[2].name_en, "legs");
    assert_int_equal(m->frames[0].special, 1);
    assert_int_equal(m->frames[2].nitems, 3);
    assert_int_equal(m->frames[2].items[1].kind, 0);
    assert_int_equal(m->frames[2].items[1].index, 2);
    assert_int_equal(m->frames[2].items[2].kind, 1);
    assert_int_equal(m->frames[1].items[0].index, 1);
    assert_int_equal(m->unencodable, 0);
}

/* Every record kind, for each index size, text encoding and version. */
static void test_pmx_every_record(void **state)
{
    (void)state;
    static const int sizes[3] = {1, 2, 4};
    for (int v = 0; v < 2; v++)
        for (int enc = 0; enc < 2; enc++)
            for (int s = 0; s < 3; s++)
                for (int uv = 0; uv <= 4; uv += 4) {
                    pg g;
                    build_full(&g, v ? 2.1f : 2.0f, enc, uv, sizes[s]);
                    pk_log log;
                    pk_model *m = read_ok(&g, &log);
                    check_full(m, v == 1, sizes[s], enc);
                    assert_int_equal(log.errors, 0);
                    assert_int_equal(log.warnings, 0);
                    assert_int_equal(m->extra_uv, uv);
                    pk_model_free(m);
                    pk_log_free(&log);
                    pk_buf_free(&g.b);
                }
}

/* Vertex indices are unsigned: 255 in one byte is vertex 255, not -1; a
 * bone index of 0xFF in one byte is -1 (none). */
static void test_pmx_index_signedness(void **state)
{
    (void)state;
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 1, 0, sizes);
    pg_i32(&g, 0); /* vertices */
    pg_i32(&g, 3); /* faces: 255 255 255 must be accepted as vertex indices */
    pg_idx(&g, PG_VERTEX, 255);
    pg_idx(&g, PG_VERTEX, 255);
    pg_idx(&g, PG_VERTEX, 255);
    pg_i32(&g, 0);
    pg_i32(&g, 0);
    pg_i32(&g, 1);
    pg_bone_simple(&g, "a", "", 0, -1);
    pg_i32(&g, 0);
    pg_i32(&g, 0);
    pg_no_physics(&g);
    pk_log log;
    pk_model *m = read_ok(&g, &log);
    assert_int_equal(m->bones[0].parent, -1);
    pk_model_free(m);
    pk_log_free(&log);
    pk_buf_free(&g.b);
}

/* A model with n bones whose parents are given (everything else empty). */
static void build_bones(pg *g, const int32_t *parents, int n, int32_t ik_link)
{
    const int sizes[6] = {2, 1, 1, 2, 2, 1};
    pg_header(g, 2.0f, 0, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(g, 0);
    pg_i32(g, n + (ik_link != -2));
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        pg_bone_simple(g, name, "", (float)i, parents[i]);
    }
    if (ik_link != -2) {
        pg_text(g, "足ＩＫ");
        pg_text(g, "");
        pg_f3(g, 0, 0, 0);
        pg_idx(g, PG_BONE, -1);
        pg_i32(g, 0);
        pg_u16(g, 0x003E);
        pg_f3(g, 0, 0, 0);
        pg_idx(g, PG_BONE, 0);
        pg_i32(g, 40);
        pg_f32(g, 1);
        pg_i32(g, 1);
        pg_idx(g, PG_BONE, ik_link);
        pg_u8(g, 0);
    }
    pg_i32(g, 0);
    pg_i32(g, 0);
    pg_no_physics(g);
}

static void expect_error(const pg *g, const char *needle, int64_t offset)
{
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_read(g->b.data, g->b.len, &log);
    pk_log_place(&log, 0, "m.pmx");
    assert_null(m);
    tu_assert_log_has(&log, needle);
    if (offset >= 0) {
        bool found = false;
        for (size_t i = 0; i < log.count; i++)
            found |= log.items[i].severity == PK_ERROR && log.items[i].offset == offset;
        assert_true(found);
    }
    pk_log_free(&log);
}

static void test_pmx_graph_errors(void **state)
{
    (void)state;
    pg g;
    /* the header of build_bones: 4+4+1+8, four UTF-16 texts of
     * "テスト" (6), "test" (8), "コメント" (8), "comment" (14) + 4 each,
     * four empty section counts, the bone count; bone 0 starts there */
    size_t bone0 = 17 + 10 + 12 + 12 + 18 + 16 + 4;
    int32_t out_of_range[2] = {-1, 5};
    build_bones(&g, out_of_range, 2, -2);
    size_t bone1 = bone0 + (4 + 4) + 4 + 12 + 2 + 4 + 2 + 12; /* "b0", "", ... */
    expect_error(&g, "bone 1 \"b1\": parent 5 is outside the model", (int64_t)bone1);
    pk_buf_free(&g.b);
    int32_t cycle[3] = {-1, 2, 1};
    build_bones(&g, cycle, 3, -2);
    expect_error(&g, "parent cycle", -1);
    pk_buf_free(&g.b);
    int32_t self[1] = {0};
    build_bones(&g, self, 1, -2);
    expect_error(&g, "parent cycle", (int64_t)bone0);
    pk_buf_free(&g.b);
    int32_t ok[2] = {-1, 0};
    build_bones(&g, ok, 2, 9);
    expect_error(&g, "IK link 0 names bone 9, outside the model", -1);
    pk_buf_free(&g.b);
    /* the same with a link inside: reads */
    build_bones(&g, ok, 2, 1);
    pk_log log;
    pk_model *m = read_ok(&g, &log);
    assert_int_equal(m->bones[2].ik_target, 0);
    assert_int_equal(m->bones[2].ik_links[0].bone, 1);
    pk_model_free(m);
    pk_log_free(&log);
    pk_buf_free(&g.b);
}

/* A tail bone or display-frame member outside the model: a warning, the
 * index dropped (MMD loads such models). */
static void test_pmx_warnings(void **state)
{
    (void)state;
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    pg g;
    pg_header(&g, 2.0f, 1, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(&g, 0);
    pg_i32(&g, 1);
    pg_text(&g, "a");
    pg_text(&g, "");
    pg_f3(&g, 0, 0, 0);
    pg_idx(&g, PG_BONE, -1);
    pg_i32(&g, 0);
    pg_u16(&g, 0x001F);
    pg_idx(&g, PG_BONE, 40); /* tail outside */
    pg_i32(&g, 0);           /* morphs */
    pg_i32(&g, 1);
    pg_text(&g, "f");
    pg_text(&g, "");
    pg_u8(&g, 0);
    pg_i32(&g, 2);
    pg_u8(&g, 0);
    pg_idx(&g, PG_BONE, 0);
    pg_u8(&g, 1);
    pg_idx(&g, PG_MORPH, 3); /* no morph 3 */
    pg_no_physics(&g);
    pk_log log;
    pk_model *m = read_ok(&g, &log);
    assert_int_equal(log.warnings, 2);
    assert_int_equal(m->bones[0].tail_bone, -1);
    assert_int_equal(m->frames[0].nitems, 1);
    pk_model_free(m);
    pk_log_free(&log);
    pk_buf_free(&g.b);
}

/* A NaN or infinite rest position: kept as read, one warning naming the
 * first such bone at its record's offset (--strict then refuses the
 * model). */
static void test_pmx_nonfinite_position(void **state)
{
    (void)state;
    int32_t parents[4] = {-1, 0, 1, 0};
    pg g;
    build_bones(&g, parents, 4, -2);
    /* a record of build_bones: name "bN" and "" (8 + 4), position (0, N,
     * 0), parent, layer, flags, tail offset; bone 0 starts as in
     * test_pmx_graph_errors.  Bone 2's x becomes NaN, bone 3's y infinite. */
    size_t rec = 4 + 4 + 4 + 12 + 2 + 4 + 2 + 12;
    size_t bone0 = 17 + 10 + 12 + 12 + 18 + 16 + 4, bone2 = bone0 + 2 * rec;
    float nan = NAN, inf = INFINITY;
    memcpy(g.b.data + bone2 + 12, &nan, 4);
    memcpy(g.b.data + bone2 + rec + 12 + 4, &inf, 4);
    pk_log log;
    pk_model *m = read_ok(&g, &log);
    assert_int_equal(log.errors, 0);
    assert_int_equal(log.warnings, 1);
    tu_assert_log_has(&log, "2 bones with a NaN or infinite position (first: bone 2 \"b2\")");
    assert_int_equal(log.items[0].offset, (int64_t)bone2);
    assert_true(isnan(m->bones[2].pos[0]));
    assert_true(isinf(m->bones[3].pos[1]));
    pk_model_free(m);
    pk_log_free(&log);
    pk_buf_free(&g.b);
}

/* A name CP932 cannot hold is kept (UTF-8) and reported. */
static void test_pmx_unencodable(void **state)
{
    (void)state;
    for (int enc = 0; enc < 2; enc++) {
        const int sizes[6] = {1, 1, 1, 1, 1, 1};
        pg g;
        pg_header(&g, 2.0f, enc, 0, sizes);
        for (int k = 0; k < 4; k++)
            pg_i32(&g, 0);
        pg_i32(&g, 2);
        pg_bone_simple(&g, "😀bone", "", 0, -1);
        pg_bone_simple(&g, "ok", "", 0, 0);
        pg_i32(&g, 0);
        pg_i32(&g, 0);
        pg_no_physics(&g);
        pk_log log;
        pk_model *m = read_ok(&g, &log);
        assert_int_equal(m->unencodable, 1);
        assert_int_equal(m->bones[0].cp932, PK_NO_NAME);
        assert_string_equal(m->bones[0].name, "😀bone");
        assert_int_not_equal(m->bones[1].cp932, PK_NO_NAME);
        assert_int_equal(log.warnings, 1);
        pk_model_free(m);
        pk_log_free(&log);
        pk_buf_free(&g.b);
    }
}

/* Every prefix of a generated model fails with an error inside it. */
static void truncate_all(const uint8_t *d, size_t len, size_t step, size_t dense, bool pmd)
{
    for (size_t cut = 0; cut < len; cut += cut < dense ? 1 : step) {
        pk_log log;
        pk_log_init(&log);
        pk_model *m = pk_model_read(d, cut, &log);
        if (m) {
            /* PMD ends legally after the display lists and after each
             * optional extension. */
            assert_true(pmd);
        } else {
            assert_true(log.errors > 0);
            bool inside = false;
            for (size_t i = 0; i < log.count; i++)
                inside |= log.items[i].severity == PK_ERROR && log.items[i].offset >= 0 &&
                          (size_t)log.items[i].offset <= cut;
            if (!inside)
                fail_msg("cut at %zu: no error offset within the input", cut);
        }
        pk_model_free(m);
        pk_log_free(&log);
    }
}

static void test_pmx_truncate_generated(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++)
        for (int enc = 0; enc < 2; enc++) {
            pg g;
            build_full(&g, v ? 2.1f : 2.0f, enc, 1, 2);
            /* 2.1: the soft-body section is optional (absent when no bytes
             * remain), so the cut just before it reads */
            size_t n = g.b.len;
            for (size_t cut = 0; cut < n; cut++) {
                pk_log log;
                pk_log_init(&log);
                pk_model *m = pk_model_read(g.b.data, cut, &log);
                if (m)
                    assert_true(v == 1);
                else
                    assert_true(log.errors > 0 && log.items[log.count - 1].offset <= (int64_t)cut);
                pk_model_free(m);
                pk_log_free(&log);
            }
            pk_buf_free(&g.b);
        }
}

/* ---- rigid bodies ---- */

/* name, English, bone, group, mask, shape (0 sphere, 1 box, 2 capsule),
 * size, position, rotation, mass, mode (0 follow bone, 1 physics, 2 physics
 * with bone position) */
static const pg_rigid_def RIGIDS[4] = {
    {"頭", "head", 1, 2, 0xFFFB, 1, {1, 2, 3}, {4, 5, 6}, {0.1f, 0.2f, 0.3f}, 2, 0},
    {"髪", "hair", 2, 3, 0xFFF7, 2, {0.5f, 1, 0}, {0, 9, -1}, {0, 0, 0}, 1, 1},
    {"髪2", "", 2, 3, 0xFFFF, 0, {0.25f, 0, 0}, {0, 8, -1}, {0, 0, 0}, 1, 2},
    {"none", "", -1, 0, 0, 0, {1, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1},
};

/* Three bones (b0 root, b1 and b2 under it), then the rigid bodies given,
 * one joint.  Where each body's record starts: at[i]. */
static void build_rigids(pg *g, int enc, int isz, const pg_rigid_def *r, int n, size_t *at)
{
    const int sizes[6] = {isz, isz, isz, isz, isz, isz};
    pg_header(g, 2.0f, enc, 0, sizes);
    for (int k = 0; k < 4; k++)
        pg_i32(g, 0);
    pg_i32(g, 3);
    pg_bone_simple(g, "b0", "", 0, -1);
    pg_bone_simple(g, "b1", "", 10, 0);
    pg_bone_simple(g, "b2", "", 9, 1);
    pg_i32(g, 0);
    pg_i32(g, 0);
    pg_i32(g, n);
    for (int i = 0; i < n; i++) {
        at[i] = g->b.len;
        pg_rigid(g, &r[i]);
    }
    pg_i32(g, 1);
    pg_text(g, "joint");
    pg_text(g, "");
    pg_u8(g, 0);
    pg_idx(g, PG_RIGID, 0);
    pg_idx(g, PG_RIGID, 1);
    pg_zeros(g, 96);
}

static void assert_f3(const float *got, const float *want)
{
    for (int k = 0; k < 3; k++)
        assert_true(got[k] == want[k]);
}

/* Every field of every body, in both encodings and every index size; the
 * bones physics drives (b2, by two bodies, counts once; a body on no bone
 * drives none). */
static void test_pmx_rigids(void **state)
{
    (void)state;
    static const int sizes[3] = {1, 2, 4};
    for (int enc = 0; enc < 2; enc++)
        for (int s = 0; s < 3; s++) {
            pg g;
            size_t at[4];
            build_rigids(&g, enc, sizes[s], RIGIDS, 4, at);
            pk_log log;
            pk_model *m = read_ok(&g, &log);
            assert_int_equal(log.errors + log.warnings, 0);
            assert_int_equal(m->nrigids, 4);
            assert_int_equal(m->counts[PK_MSEC_RIGIDS], 4);
            for (int i = 0; i < 4; i++) {
                const pk_model_rigid *rb = &m->rigids[i];
                const pg_rigid_def *w = &RIGIDS[i];
                assert_string_equal(rb->name, w->name);
                assert_string_equal(rb->name_en, w->en);
                assert_int_equal(rb->bone, w->bone);
                assert_int_equal(rb->group, w->group);
                assert_int_equal(rb->mask, w->mask);
                assert_int_equal(rb->shape, w->shape);
                assert_f3(rb->size, w->size);
                assert_f3(rb->pos, w->pos);
                assert_f3(rb->rot, w->rot);
                assert_true(rb->mass == w->mass);
                assert_true(rb->linear_damping == 0.5f && rb->angular_damping == 0.6f);
                assert_true(rb->restitution == 0.7f && rb->friction == 0.8f);
                assert_int_equal(rb->mode, w->mode);
            }
            bool driven[3];
            assert_int_equal(pk_model_physics_bones(m, driven), 1);
            assert_false(driven[0]);
            assert_false(driven[1]);
            assert_true(driven[2]);
            assert_int_equal(pk_model_physics_bones(m, NULL), 1);
            pk_model_free(m);
            pk_log_free(&log);
            pk_buf_free(&g.b);
        }
}

/* A body's bone outside the model: warned at its record, dropped (-1); an
 * unknown shape or mode: warned, kept.  The model reads. */
static void test_pmx_rigid_warnings(void **state)
{
    (void)state;
    pg_rigid_def bad[2] = {RIGIDS[0], RIGIDS[1]};
    bad[1].bone = 9;
    bad[1].shape = 3;
    bad[1].mode = 4;
    pg g;
    size_t at[2];
    build_rigids(&g, 0, 2, bad, 2, at);
    pk_log log;
    pk_model *m = read_ok(&g, &log);
    assert_int_equal(log.errors, 0);
    assert_int_equal(log.warnings, 3);
    tu_assert_log_has(&log, "rigid body 1 \"髪\": bone 9 is outside the model (3 bones); ignored");
    tu_assert_log_has(&log, "rigid body 1 \"髪\": shape 3 is not 0-2");
    tu_assert_log_has(&log, "rigid body 1 \"髪\": physics mode 4 is not 0-2");
    for (size_t i = 0; i < log.count; i++)
        assert_int_equal(log.items[i].offset, (int64_t)at[1]);
    assert_int_equal(m->rigids[1].bone, -1);
    assert_int_equal(m->rigids[1].shape, 3);
    assert_int_equal(m->rigids[1].mode, 4);
    assert_int_equal(pk_model_physics_bones(m, NULL), 0);
    pk_model_free(m);
    pk_log_free(&log);
    pk_buf_free(&g.b);
}

/* A damaged rigid body section: a count the bytes cannot hold, a record
 * cut short; each an error at the field, naming the section or body. */
static void test_pmx_rigid_damaged(void **state)
{
    (void)state;
    pg g;
    size_t at[2];
    build_rigids(&g, 1, 2, RIGIDS, 2, at);
    size_t count_at = at[0] - 4;
    uint32_t huge = 0x01000000;
    memcpy(g.b.data + count_at, &huge, 4);
    expect_error(&g, "rigid bodies count: 16777216 rigid bodies need at least", (int64_t)count_at);
    pk_buf_free(&g.b);
    build_rigids(&g, 1, 2, RIGIDS, 2, at);
    g.b.len = at[1] + 70; /* inside body 1's shape and physics (past what the count needs) */
    expect_error(&g, "rigid body 1 \"髪\": the file ends inside its shape and physics", -1);
    pk_buf_free(&g.b);
}

/* IK values the solver cannot use as stored are warned at load, naming
 * the bone: a loop count below 1, a NaN or non-positive per-step limit, a
 * link limit that is not finite. */
static void test_pmx_ik_warnings(void **state)
{
    (void)state;
    const int sizes[6] = {1, 1, 1, 1, 1, 1};
    for (int c = 0; c < 4; c++) {
        pg g;
        pg_header(&g, 2.0f, 1, 0, sizes);
        for (int k = 0; k < 4; k++)
            pg_i32(&g, 0);
        pg_i32(&g, 3);
        pg_bone_simple(&g, "足", "", 5, -1);
        pg_bone_simple(&g, "足首", "", 1, 0);
        size_t ik_at = g.b.len;
        pg_text(&g, "足ＩＫ");
        pg_text(&g, "");
        pg_f3(&g, 0, 1, 0);
        pg_idx(&g, PG_BONE, -1);
        pg_i32(&g, 0);
        pg_u16(&g, 0x003E);
        pg_f3(&g, 0, 0, 0);
        pg_idx(&g, PG_BONE, 1);
        pg_i32(&g, c == 1 ? -5 : 40);
        pg_f32(&g, c == 2 ? NAN : 1.0f);
        pg_i32(&g, 1);
        pg_idx(&g, PG_BONE, 0);
        pg_u8(&g, 1);
        pg_f3(&g, c == 3 ? NAN : -1.0f, 0, 0);
        pg_f3(&g, 0, 0, 0);
        pg_i32(&g, 0);
        pg_i32(&g, 0);
        pg_no_physics(&g);
        pk_log log;
        pk_model *m = read_ok(&g, &log);
        assert_int_equal(log.errors, 0);
        assert_int_equal(log.warnings, c == 0 ? 0 : 1);
        if (c == 1)
            tu_assert_log_has(&log, "bone 2 \"足ＩＫ\": IK loop count -5 is below 1");
        if (c == 2)
            tu_assert_log_has(&log, "bone 2 \"足ＩＫ\": IK angle limit nan is not a positive");
        if (c == 3)
            tu_assert_log_has(&log, "bone 2 \"足ＩＫ\": IK link 0 (\"足\") has a limit that is "
                                    "not a finite angle");
        if (c)
            assert_int_equal(log.items[0].offset, (int64_t)ik_at);
        pk_model_free(m);
        pk_log_free(&log);
        pk_buf_free(&g.b);
    }
}

/* ---- PMD ---- */

static void pd_name(pk_buf *b, const char *cp932, size_t field)
{
    size_t n = strlen(cp932);
    pk_buf_append(b, cp932, n);
    for (size_t i = n; i < field; i++)
        pk_buf_putc(b, 0);
}

static void pd_u16(pk_buf *b, unsigned v)
{
    pk_buf_putc(b, (uint8_t)(v & 0xFF));
    pk_buf_putc(b, (uint8_t)(v >> 8));
}

/* センター (rotate+move), 右足 (IK-influenced), 右ひざ, 右足ＩＫ (IK),
 * 左目 (rotation follow 右足, 50%), with the base morph, two morphs, a
 * bone frame and the English extension. */
static void build_pmd(pk_buf *b, bool english)
{
    pk_buf_init(b);
    pk_buf_append(b, "Pmd", 3);
    pk_buf_f32le(b, 1.0f);
    pd_name(b, "model", 20);
    pd_name(b, "comment", 256);
    pk_buf_u32le(b, 1); /* one vertex */
    for (int i = 0; i < 38; i++)
        pk_buf_putc(b, 0);
    pk_buf_u32le(b, 0); /* faces */
    pk_buf_u32le(b, 0); /* materials */
    pd_u16(b, 5);
    static const struct {
        const char *name;
        int parent, tail, kind, ik;
        float y;
    } bones[5] = {{"\x83\x5A\x83\x93\x83\x5E\x81\x5B", -1, 1, 1, 0, 8},
                  {"\x89\x45\x91\xAB", 0, 2, 4, 0, 6},
                  {"\x89\x45\x82\xD0\x82\xB4", 1, -1, 4, 0, 4},
                  {"\x89\x45\x91\xAB\x82\x68\x82\x6A", 0, 0, 2, 0, 1}, /* tail 0: none */
                  {"\x8D\xB6\x96\xDA", 0, 1, 9, 50, 10}};
    for (int i = 0; i < 5; i++) {
        pd_name(b, bones[i].name, 20);
        pd_u16(b, (unsigned)bones[i].parent & 0xFFFF);
        pd_u16(b, (unsigned)bones[i].tail & 0xFFFF);
        pk_buf_putc(b, (uint8_t)bones[i].kind);
        pd_u16(b, (unsigned)bones[i].ik);
        pk_buf_f32le(b, 0);
        pk_buf_f32le(b, bones[i].y);
        pk_buf_f32le(b, 0);
    }
    pd_u16(b, 1); /* IK: 右足ＩＫ -> target 右ひざ, links 右ひざ? no: 右足 */
    pd_u16(b, 3);
    pd_u16(b, 2);
    pk_buf_putc(b, 1);
    pd_u16(b, 40);
    pk_buf_f32le(b, 0.5f);
    pd_u16(b, 1);
    pd_u16(b, 3); /* morphs: base (1 vertex), two with none */
    static const char *const morphs[3] = {"base", "\x82\xDC\x82\xCE\x82\xBD\x82\xAB", "a"};
    for (int i = 0; i < 3; i++) {
        pd_name(b, morphs[i], 20);
        pk_buf_u32le(b, i == 0 ? 1 : 0);
        pk_buf_putc(b, (uint8_t)(i == 0 ? 0 : i == 1 ? 2 : 3));
        if (i == 0)
            for (int k = 0; k < 16; k++)
                pk_buf_putc(b, 0);
    }
    pk_buf_putc(b, 2); /* morph display: 1, 2 */
    pd_u16(b, 1);
    pd_u16(b, 2);
    pk_buf_putc(b, 1); /* one bone frame */
    pd_name(b, "\x91\xAB\n", 50);
    pk_buf_u32le(b, 2);
    pd_u16(b, 1);
    pk_buf_putc(b, 1);
    pd_u16(b, 3);
    pk_buf_putc(b, 1);
    if (!english)
        return;
    pk_buf_putc(b, 1);
    pd_name(b, "model_en", 20);
    pd_name(b, "comment_en", 256);
    static const char *const en[5] = {"center", "leg_R", "knee_R", "leg IK_R", "eye_L"};
    for (int i = 0; i < 5; i++)
        pd_name(b, en[i], 20);
    pd_name(b, "blink", 20);
    pd_name(b, "a_en", 20);
    pd_name(b, "Legs", 50);
    for (int i = 0; i < 1000; i++)
        pk_buf_putc(b, 0);
    /* rigid bodies, positions relative to their bone: 膝 on 右ひざ (y 4),
     * a physics body on no bone (0xFFFF: relative to bone 0, y 8) */
    pk_buf_u32le(b, 2);
    static const struct {
        const char *name;
        unsigned bone, group, mask, shape, mode;
        float size[3], pos[3], rot[3];
    } rb[2] = {{"\x95\x47", 2, 1, 0xFFFD, 2, 0, {0.5f, 2, 0}, {0.25f, 1, 0}, {0, 0, 1.5f}},
               {"\x94\xaf", 0xFFFF, 4, 0xFFEF, 1, 2, {1, 1, 1}, {0, 2, -1}, {0, 0, 0}}};
    for (int i = 0; i < 2; i++) {
        pd_name(b, rb[i].name, 20);
        pd_u16(b, rb[i].bone);
        pk_buf_putc(b, (uint8_t)rb[i].group);
        pd_u16(b, rb[i].mask);
        pk_buf_putc(b, (uint8_t)rb[i].shape);
        for (int k = 0; k < 3; k++)
            pk_buf_f32le(b, rb[i].size[k]);
        for (int k = 0; k < 3; k++)
            pk_buf_f32le(b, rb[i].pos[k]);
        for (int k = 0; k < 3; k++)
            pk_buf_f32le(b, rb[i].rot[k]);
        pk_buf_f32le(b, 3);
        pk_buf_f32le(b, 0.5f);
        pk_buf_f32le(b, 0.6f);
        pk_buf_f32le(b, 0.7f);
        pk_buf_f32le(b, 0.8f);
        pk_buf_putc(b, (uint8_t)rb[i].mode);
    }
    pk_buf_u32le(b, 0);
}

static void test_pmd_records(void **state)
{
    (void)state;
    for (int en = 0; en < 2; en++) {
        pk_buf b;
        build_pmd(&b, en);
        pk_log log;
        pk_log_init(&log);
        pk_model *m = pk_model_read(b.data, b.len, &log);
        assert_non_null(m);
        assert_int_equal(log.errors + log.warnings, 0);
        assert_int_equal(m->format, PK_FMT_PMD);
        assert_int_equal(m->encoding, PK_TEXT_CP932);
        assert_string_equal(m->name, "model");
        assert_string_equal(m->name_en, en ? "model_en" : "");
        assert_int_equal(m->nbones, 5);
        assert_string_equal(m->bones[0].name, "センター");
        assert_string_equal(m->bones[0].name_en, en ? "center" : "");
        assert_true(m->bones[0].flags & PK_BONE_MOVE);
        assert_false(m->bones[1].flags & PK_BONE_MOVE);
        assert_int_equal(m->bones[1].pmd_kind, 4);
        assert_int_equal(m->bones[0].tail_bone, 1);
        assert_int_equal(m->bones[2].tail_bone, -1); /* 0xFFFF */
        assert_int_equal(m->bones[3].tail_bone, -1); /* 0, as PMD writers write "none" */
        const pk_model_bone *ik = &m->bones[3];
        assert_true(ik->flags & PK_BONE_IK);
        assert_int_equal(ik->ik_target, 2);
        assert_int_equal(ik->ik_loops, 40);
        assert_true(fabsf(ik->ik_limit - 2.0f) < 1e-6f);
        assert_int_equal(ik->nik_links, 1);
        assert_int_equal(ik->ik_links[0].bone, 1);
        const pk_model_bone *eye = &m->bones[4];
        assert_true(eye->flags & PK_BONE_APPEND_ROTATE);
        assert_int_equal(eye->append_parent, 1);
        assert_true(eye->append_ratio == 0.5f);
        assert_int_equal(pk_model_find_bone(m, "\x89\x45\x82\xD0\x82\xB4", 6), 2);
        /* the base morph is not kept */
        assert_int_equal(m->nmorphs, 2);
        assert_string_equal(m->morphs[0].name, "まばたき");
        assert_int_equal(m->morphs[0].panel, 2);
        assert_string_equal(m->morphs[1].name_en, en ? "a_en" : "");
        assert_int_equal(pk_model_find_morph(m, "a", 1), 1);
        assert_int_equal(m->nframes, 3);
        assert_string_equal(m->frames[1].name, "表情");
        assert_int_equal(m->frames[1].nitems, 2);
        assert_int_equal(m->frames[1].items[0].index, 0);
        assert_string_equal(m->frames[2].name, "足");
        assert_string_equal(m->frames[2].name_en, en ? "Legs" : "");
        assert_int_equal(m->frames[2].nitems, 2);
        assert_int_equal(m->frames[2].items[1].index, 3);
        assert_int_equal(m->counts[PK_MSEC_RIGIDS], en ? 2 : 0);
        assert_int_equal(m->nrigids, en ? 2 : 0);
        if (en) {
            const pk_model_rigid *knee = &m->rigids[0], *hair = &m->rigids[1];
            assert_string_equal(knee->name, "膝");
            assert_string_equal(knee->name_en, "");
            assert_int_equal(knee->bone, 2);
            assert_int_equal(knee->group, 1);
            assert_int_equal(knee->mask, 0xFFFD);
            assert_int_equal(knee->shape, PK_RIGID_CAPSULE);
            assert_true(knee->size[0] == 0.5f && knee->size[1] == 2);
            /* model space: 右ひざ's rest position (0, 4, 0) added */
            assert_true(knee->pos[0] == 0.25f && knee->pos[1] == 5 && knee->pos[2] == 0);
            assert_true(knee->rot[2] == 1.5f);
            assert_true(knee->mass == 3 && knee->linear_damping == 0.5f &&
                        knee->angular_damping == 0.6f && knee->restitution == 0.7f &&
                        knee->friction == 0.8f);
            assert_int_equal(knee->mode, PK_RIGID_FOLLOW_BONE);
            assert_string_equal(hair->name, "髪");
            assert_int_equal(hair->bone, -1);
            assert_true(hair->pos[0] == 0 && hair->pos[1] == 10 && hair->pos[2] == -1);
            assert_int_equal(hair->mode, PK_RIGID_PHYSICS_BONE);
            assert_int_equal(hair->shape, PK_RIGID_BOX);
            assert_int_equal(pk_model_physics_bones(m, NULL), 0); /* on no bone */
        }
        pk_model_free(m);
        pk_log_free(&log);
        truncate_all(b.data, b.len, 1, b.len, true);
        pk_buf_free(&b);
    }
}

/* A PMD whose rigid body count the bytes cannot hold: an error at the
 * count naming the section. */
static void test_pmd_rigid_damaged(void **state)
{
    (void)state;
    pk_buf b;
    build_pmd(&b, true);
    size_t count_at = b.len - 4 - 2 * 83 - 4;
    b.data[count_at + 2] = 1; /* 2 + 65536 bodies */
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_model_read(b.data, b.len, &log));
    tu_assert_log_has(&log, "rigid bodies: 65538 records of 83 bytes do not fit");
    assert_int_equal(log.items[log.count - 1].offset, (int64_t)count_at);
    pk_log_free(&log);
    pk_buf_free(&b);
}

/* ---- corpus ---- */

static void truncate_corpus(const char *name, bool pmd)
{
    const char *path = tu_corpus_path(name);
    if (!path)
        skip();
    size_t len;
    uint8_t *d = tu_read_file(path, &len);
    /* every offset of small files; for the large ones the header and first
     * records densely, then a stride */
    size_t dense = len < 400000 ? len : 20000;
    truncate_all(d, len, 997, dense, pmd);
    free(d);
}

static void test_corpus_truncate(void **state)
{
    (void)state;
    truncate_corpus("pmx_babylon_bone_flag_test.pmx", false);
    truncate_corpus("pmx_babylon_bone_hierarchy_test.pmx", false);
    truncate_corpus("pmx_nanoem_miku_bones.pmx", false);
    truncate_corpus("pmx_mmt_test_model.pmx", false);
    truncate_corpus("pmx_gene.pmx", false);
    truncate_corpus("pmd_gene.pmd", true);
}

static pk_model *load_corpus(const char *name)
{
    const char *path = tu_corpus_path(name);
    if (!path)
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_model *m = pk_model_load(path, &log);
    assert_non_null(m);
    assert_int_equal(log.errors, 0);
    pk_log_free(&log);
    return m;
}

static void test_corpus_facts(void **state)
{
    (void)state;
    pk_model *m = load_corpus("pmx_nanoem_miku_bones.pmx");
    assert_int_equal(m->nbones, 140);
    assert_int_equal(m->counts[PK_MSEC_VERTICES], 0);
    size_t roots = 0;
    for (size_t i = 0; i < m->nbones; i++)
        roots += m->bones[i].parent == -1;
    assert_int_equal(roots, 3);
    pk_model_free(m);
    m = load_corpus("pmx_mmt_test_model.pmx");
    assert_int_equal(m->nbones, 114);
    assert_int_equal(m->extra_uv, 1);
    assert_int_equal(m->index_size[3], 1);
    pk_model_free(m);
    m = load_corpus("pmx_gene.pmx");
    assert_int_equal(m->nbones, 224);
    assert_int_equal(m->nmorphs, 184);
    size_t iks = 0;
    for (size_t i = 0; i < m->nbones; i++)
        iks += (m->bones[i].flags & PK_BONE_IK) != 0;
    assert_int_equal(iks, 6);
    pk_model_free(m);
}

/* Rigid bodies of the corpus models (counts by mode and the bones driven,
 * read independently of posekit: tests/cli/cases/model_rigids.sh), and
 * pmx_gene.pmx and pmd_gene.pmd agreeing body for body once the PMD's
 * bone-relative positions are in model space. */
static void test_corpus_rigids(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t n, mode[3], driven;
    } facts[] = {
        {"pmx_gene.pmx", 87, {25, 9, 53}, 62},         {"pmd_gene.pmd", 87, {25, 9, 53}, 62},
        {"pmd_mei.pmd", 31, {11, 0, 20}, 20},          {"pmd_sd_mei.pmd", 41, {11, 0, 30}, 30},
        {"pmx_mmt_test_model.pmx", 19, {19, 0, 0}, 0},
    };
    for (size_t f = 0; f < sizeof facts / sizeof *facts; f++) {
        pk_model *m = load_corpus(facts[f].file);
        assert_int_equal(m->nrigids, facts[f].n);
        size_t mode[3] = {0, 0, 0};
        for (size_t i = 0; i < m->nrigids; i++) {
            assert_true(m->rigids[i].mode <= 2);
            mode[m->rigids[i].mode]++;
        }
        for (int k = 0; k < 3; k++)
            assert_int_equal(mode[k], facts[f].mode[k]);
        assert_int_equal(pk_model_physics_bones(m, NULL), facts[f].driven);
        pk_model_free(m);
    }
    pk_model *x = load_corpus("pmx_gene.pmx"), *d = load_corpus("pmd_gene.pmd");
    for (size_t i = 0; i < x->nrigids; i++) {
        const pk_model_rigid *a = &x->rigids[i], *b = &d->rigids[i];
        assert_string_equal(a->name, b->name);
        assert_int_equal(a->bone, b->bone);
        assert_int_equal(a->shape, b->shape);
        assert_int_equal(a->mode, b->mode);
        for (int k = 0; k < 3; k++)
            if (fabsf(a->pos[k] - b->pos[k]) > 1e-4f)
                fail_msg("rigid body %zu \"%s\": position %d %g (PMX) vs %g (PMD)", i, a->name, k,
                         (double)a->pos[k], (double)b->pos[k]);
    }
    pk_model_free(x);
    pk_model_free(d);
}

/* pmx_gene.pmx and pmd_gene.pmd: the same skeleton, bone for bone. */
static void test_corpus_gene_agree(void **state)
{
    (void)state;
    pk_model *x = load_corpus("pmx_gene.pmx");
    pk_model *d = load_corpus("pmd_gene.pmd");
    assert_int_equal(x->nbones, d->nbones);
    for (size_t i = 0; i < x->nbones; i++) {
        const pk_model_bone *a = &x->bones[i], *b = &d->bones[i];
        size_t la, lb;
        const uint8_t *ra = pk_names_raw(x->names, a->cp932, &la);
        const uint8_t *rb = pk_names_raw(d->names, b->cp932, &lb);
        if (la != lb || memcmp(ra, rb, la) != 0)
            fail_msg("bone %zu: \"%s\" vs \"%s\"", i, a->name, b->name);
        assert_int_equal(a->parent, b->parent);
        for (int k = 0; k < 3; k++)
            assert_true(fabsf(a->pos[k] - b->pos[k]) < 1e-4f);
        assert_int_equal(a->flags & PK_BONE_IK, b->flags & PK_BONE_IK);
        assert_int_equal(a->ik_target, b->ik_target);
        assert_int_equal(a->nik_links, b->nik_links);
        for (size_t k = 0; k < a->nik_links; k++)
            assert_int_equal(a->ik_links[k].bone, b->ik_links[k].bone);
    }
    pk_model_free(x);
    pk_model_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pmx_every_record),       cmocka_unit_test(test_pmx_index_signedness),
        cmocka_unit_test(test_pmx_graph_errors),       cmocka_unit_test(test_pmx_warnings),
        cmocka_unit_test(test_pmx_nonfinite_position), cmocka_unit_test(test_pmx_unencodable),
        cmocka_unit_test(test_pmx_truncate_generated), cmocka_unit_test(test_pmx_rigids),
        cmocka_unit_test(test_pmx_rigid_warnings),     cmocka_unit_test(test_pmx_rigid_damaged),
        cmocka_unit_test(test_pmx_ik_warnings),        cmocka_unit_test(test_pmd_records),
        cmocka_unit_test(test_pmd_rigid_damaged),      cmocka_unit_test(test_corpus_truncate),
        cmocka_unit_test(test_corpus_rigids),          cmocka_unit_test(test_corpus_facts),
        cmocka_unit_test(test_corpus_gene_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
