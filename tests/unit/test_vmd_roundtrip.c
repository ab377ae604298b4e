/* test_vmd_roundtrip.c — every VMD in the shared corpus reads and writes
 * back byte-identical, and known facts about the corpus files (from
 * doc/formats.md and corpus/PROVENANCE.tsv, not from this code's output) hold. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "format/vmd.h"

typedef struct loaded {
    uint8_t *data;
    size_t len;
    pk_motion *m;
    pk_log log;
} loaded;

/* Reads a corpus file; skips the test when there is no corpus. */
static void load(const char *name, loaded *l)
{
    const char *path = tu_corpus_path(name);
    if (!path)
        skip();
    l->data = tu_read_file(path, &l->len);
    pk_log_init(&l->log);
    l->m = pk_vmd_read(l->data, l->len, &l->log);
    if (!l->m) {
        char buf[512] = "";
        if (l->log.count)
            pk_diag_format(&l->log.items[0], buf, sizeof buf);
        fail_msg("%s: %s", name, buf);
    }
}

static void unload(loaded *l)
{
    pk_motion_free(l->m);
    pk_log_free(&l->log);
    free(l->data);
}

static pk_name_id find_utf8(const pk_motion *m, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(utf8, &raw, &len), 0);
    pk_name_id id = pk_names_find(m->names, raw, len);
    free(raw);
    return id;
}

/* A sink that gathers the pieces (and counts them); fails on call fail_at
 * when that is non-zero. */
typedef struct gather {
    pk_buf buf;
    size_t calls, fail_at;
} gather;

static int gather_sink(void *ctx, const void *data, size_t len)
{
    gather *g = ctx;
    if (++g->calls == g->fail_at) {
        errno = ENOSPC;
        return -1;
    }
    assert_true(len > 0 && len <= 256 * 1024);
    pk_buf_append(&g->buf, data, len);
    return 0;
}

/* pk_vmd_write_sink gives the bytes of pk_vmd_write; returns its calls. */
static size_t assert_sink_same(const pk_motion *m, const pk_buf *want)
{
    gather g = {.fail_at = 0};
    pk_buf_init(&g.buf);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_vmd_write_sink(m, gather_sink, &g, &log), 0);
    assert_int_equal(log.errors, 0);
    assert_int_equal(g.buf.len, want->len);
    assert_memory_equal(g.buf.data, want->data, want->len);
    pk_buf_free(&g.buf);
    pk_log_free(&log);
    return g.calls;
}

static void test_corpus_roundtrip(void **state)
{
    (void)state;
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    if (n == 0)
        skip();
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *data = tu_read_file(paths[i], &len);
        pk_log log;
        pk_log_init(&log);
        pk_motion *m = pk_vmd_read(data, len, &log);
        if (!m)
            fail_msg("%s: read failed", paths[i]);
        pk_buf out;
        pk_buf_init(&out);
        assert_int_equal(pk_vmd_write(m, &out, &log), 0);
        size_t common = out.len < len ? out.len : len;
        for (size_t k = 0; k < common; k++)
            if (out.data[k] != data[k])
                fail_msg("%s: first difference at offset %zu (wrote %02X, file has %02X)", paths[i],
                         k, out.data[k], data[k]);
        if (out.len != len)
            fail_msg("%s: wrote %zu bytes, file has %zu", paths[i], out.len, len);
        /* Deterministic: a second write gives the same bytes again. */
        pk_buf again;
        pk_buf_init(&again);
        assert_int_equal(pk_vmd_write(m, &again, &log), 0);
        assert_int_equal(again.len, out.len);
        assert_memory_equal(again.data, out.data, out.len);
        /* Streamed in pieces, the same bytes again. */
        size_t calls = assert_sink_same(m, &out);
        /* pieces nearly full: at most one record short of 256 KB */
        assert_true(calls >= (len + 256 * 1024 - 1) / (256 * 1024));
        assert_true(calls <= len / (256 * 1024 - 111) + 1);
        /* No corpus file has trailing bytes (doc/formats.md §8). */
        assert_int_equal(m->ntrailing, 0);
        pk_buf_free(&again);
        pk_buf_free(&out);
        pk_motion_free(m);
        pk_log_free(&log);
        free(data);
    }
    tu_free_list(paths, n);
}

/* Streaming a motion of several pieces with every section, IK names and
 * trailing bytes: the bytes of pk_vmd_write, whatever falls on a piece's
 * edge; a sink failing half-way stops the write with an error. */
static void test_streamed_write(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    pk_log log;
    pk_log_init(&log);
    char name[32];
    for (int i = 0; i < 9000; i++) { /* 999,000 bytes of bones: 4 pieces */
        pk_bone_key *k = pk_motion_push_bone(m);
        snprintf(name, sizeof name, "bone%d", i % 97);
        k->name = pk_names_intern(m->names, name, strlen(name));
        k->frame = (uint32_t)i;
        k->pos[0] = (float)i * 0.5f;
        k->rot[3] = 1.0f;
        for (int b = 0; b < 64; b++)
            k->interp[b] = (uint8_t)(b + i);
    }
    for (int i = 0; i < 3000; i++) {
        pk_morph_key *k = pk_motion_push_morph(m);
        k->name = pk_names_intern(m->names, "mouth", 5);
        k->frame = (uint32_t)i;
        k->weight = (float)i / 3000.0f;
    }
    for (int i = 0; i < 700; i++) {
        pk_camera_key *c = pk_motion_push_camera(m);
        c->frame = (uint32_t)i;
        c->distance = -45.0f;
        c->fov = 30;
        pk_light_key *l = pk_motion_push_light(m);
        l->frame = (uint32_t)i;
        pk_shadow_key *sh = pk_motion_push_shadow(m);
        sh->frame = (uint32_t)i;
        pk_ik_key *ik = pk_motion_push_ik(m, 7);
        assert_non_null(ik);
        ik->frame = (uint32_t)i;
        ik->show = 1;
        for (uint32_t j = 0; j < 7; j++) {
            snprintf(name, sizeof name, "ik%u", j);
            ik->ik[j].name = pk_names_intern(m->names, name, strlen(name));
            ik->ik[j].enabled = (uint8_t)(j & 1);
        }
    }
    m->trailing = malloc(5);
    assert_non_null(m->trailing);
    memcpy(m->trailing, "tail!", 5);
    m->ntrailing = 5;
    pk_buf want;
    pk_buf_init(&want);
    assert_int_equal(pk_vmd_write(m, &want, &log), 0);
    assert_true(want.len > 4 * 256 * 1024);
    size_t calls = assert_sink_same(m, &want);
    assert_true(calls >= 5); /* the pieces, then the trailing bytes */
    /* The written bytes read back as the same motion. */
    pk_motion *back = pk_vmd_read(want.data, want.len, &log);
    assert_non_null(back);
    assert_int_equal(back->niks, 700);
    assert_int_equal(back->ntrailing, 5);
    pk_motion_free(back);
    /* A sink that fails on its second piece: -1 and a message. */
    gather g = {.fail_at = 2};
    pk_buf_init(&g.buf);
    pk_log fl;
    pk_log_init(&fl);
    assert_int_equal(pk_vmd_write_sink(m, gather_sink, &g, &fl), -1);
    assert_int_equal(g.calls, 2);
    tu_assert_log_has(&fl, "write failed");
    pk_log_free(&fl);
    pk_buf_free(&g.buf);
    /* A name too long for its field: -1 before anything looks finished. */
    m->bones[8999].name = pk_names_intern(m->names, "a_name_of_16_byte", 16);
    g = (gather){.fail_at = 0};
    pk_buf_init(&g.buf);
    pk_log_init(&fl);
    assert_int_equal(pk_vmd_write_sink(m, gather_sink, &g, &fl), -1);
    tu_assert_log_has(&fl, "is 16 bytes");
    assert_true(g.buf.len < want.len);
    pk_log_free(&fl);
    pk_buf_free(&g.buf);
    pk_buf_free(&want);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* pk_vmd_read tells the log's progress callback how far it has read:
 * "reading", the share of the file, never decreasing, within 0 .. 1, and
 * more than once on a file of 2 MB. */
typedef struct reading {
    size_t n;
    double last;
} reading;

static void note_reading(void *ctx, double done, const char *what)
{
    reading *r = ctx;
    assert_string_equal(what, "reading");
    assert_true(done >= r->last && done <= 1.0);
    r->last = done;
    r->n++;
}

static void test_read_progress(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    for (int i = 0; i < 20000; i++) { /* 2.2 MB of bone records */
        pk_bone_key *k = pk_motion_push_bone(m);
        k->name = pk_names_intern(m->names, "b", 1);
        k->frame = (uint32_t)i;
        k->rot[3] = 1.0f;
    }
    pk_log log;
    pk_log_init(&log);
    pk_buf bytes;
    pk_buf_init(&bytes);
    assert_int_equal(pk_vmd_write(m, &bytes, &log), 0);
    reading r = {0, 0.0};
    pk_log_set_progress(&log, note_reading, &r);
    pk_motion *back = pk_vmd_read(bytes.data, bytes.len, &log);
    assert_non_null(back);
    assert_true(r.n >= 4);
    assert_true(r.last > 0.9);
    pk_motion_free(back);
    pk_motion_free(m);
    pk_buf_free(&bytes);
    pk_log_free(&log);
}

/* pki_vmd_read_front reports its progress in increasing offsets at least
 * 1 MB apart, never past the end; pk_doc_load, which drops the pages
 * behind that point, reads a 20 MB file to the same model (its bytes
 * written back are the file's). */
typedef struct marks {
    size_t n, last, len;
} marks;

static void mark(void *ctx, size_t upto)
{
    marks *k = ctx;
    assert_true(upto <= k->len);
    assert_true(upto >= k->last + (1u << 20));
    k->last = upto;
    k->n++;
}

static void test_read_front_progress(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    char name[16];
    for (int i = 0; i < 190000; i++) { /* 21 MB of bone records */
        pk_bone_key *k = pk_motion_push_bone(m);
        snprintf(name, sizeof name, "b%d", i % 300);
        k->name = pk_names_intern(m->names, name, strlen(name));
        k->frame = (uint32_t)(i / 300);
        k->rot[3] = 1.0f;
        k->pos[1] = (float)i;
    }
    pk_log log;
    pk_log_init(&log);
    pk_buf bytes;
    pk_buf_init(&bytes);
    assert_int_equal(pk_vmd_write(m, &bytes, &log), 0);
    marks k = {0, 0, bytes.len};
    pk_motion *back = pki_vmd_read_front(bytes.data, bytes.len, &log, mark, &k);
    assert_non_null(back);
    assert_true(k.n >= 10);
    assert_int_equal(back->nbones, 190000);
    pk_motion_free(back);
    char path[4096];
    snprintf(path, sizeof path, "%s/big.vmd", tu_tmpdir());
    tu_write_file(path, bytes.data, bytes.len);
    pk_doc doc;
    assert_int_equal(pk_doc_load(path, &doc, &log), 0);
    assert_int_equal(doc.format, PK_FMT_VMD);
    pk_buf again;
    pk_buf_init(&again);
    assert_int_equal(pk_vmd_write(doc.motion, &again, &log), 0);
    assert_int_equal(again.len, bytes.len);
    assert_memory_equal(again.data, bytes.data, bytes.len);
    pk_buf_free(&again);
    pk_doc_free(&doc);
    remove(path);
    pk_buf_free(&bytes);
    pk_motion_free(m);
    pk_log_free(&log);
}

/* PROVENANCE.tsv: "14160 bone keys, 1279 morph keys, ends after
 * self-shadow count"; doc/formats.md §8: NUL+0xFD padding, 01 00 00 filler. */
static void test_wavefile_v2(void **state)
{
    (void)state;
    loaded l;
    load("vmd_wavefile_v2.vmd", &l);
    assert_int_equal(l.m->nbones, 14160);
    assert_int_equal(l.m->nmorphs, 1279);
    assert_int_equal(l.m->sections, 5);
    assert_int_equal(l.m->version, 2);
    pk_name_id center = find_utf8(l.m, "センター");
    assert_int_not_equal(center, PK_NO_NAME);
    size_t fd_padded = 0;
    for (size_t i = 0; i < l.m->nbones; i++) {
        const pk_bone_key *b = &l.m->bones[i];
        if (b->name != center)
            continue;
        /* 83 5a 83 93 83 5e 81 5b 00 fd fd fd fd fd fd (doc/formats.md §4) */
        size_t plen;
        const uint8_t *p = pk_names_raw(l.m->pads, b->pad - 1, &plen);
        assert_true(b->pad != 0 && plen == 6 && memcmp(p, "\xFD\xFD\xFD\xFD\xFD\xFD", 6) == 0);
        /* filler B[16..18] = 01 00 00 at offsets 31; 46,47; 61,62,63 */
        assert_int_equal(b->interp[31], 1);
        assert_int_equal(b->interp[46], 1);
        assert_int_equal(b->interp[61], 1);
        fd_padded++;
    }
    assert_true(fd_padded > 0);
    unload(&l);
}

/* PROVENANCE.tsv: camera-only, 70 keys, ends after the light count;
 * doc/formats.md §3.10: 4336 = 62 + 70·61 + 4; §3.2: \0JKLM filler and the
 * "カメラ・照明\0on Data" model field. */
static void test_wavefile_camera(void **state)
{
    (void)state;
    loaded l;
    load("vmd_wavefile_camera.vmd", &l);
    assert_int_equal(l.len, 4336);
    assert_int_equal(l.m->ncameras, 70);
    assert_int_equal(l.m->sections, 4);
    assert_int_equal(l.m->nbones + l.m->nmorphs + l.m->nlights, 0);
    assert_memory_equal(l.m->header + 25, "\0JKLM", 5);
    static const uint8_t model[20] = {0x83, 0x4A, 0x83, 0x81, 0x83, 0x89, 0x81, 0x45, 0x8F, 0xC6,
                                      0x96, 0xBE, 0x00, 0x6F, 0x6E, 0x20, 0x44, 0x61, 0x74, 0x61};
    assert_memory_equal(l.m->model, model, 20);
    char *u = pk_motion_model_utf8(l.m);
    assert_string_equal(u, "カメラ・照明");
    free(u);
    for (size_t i = 0; i < l.m->ncameras; i++)
        assert_int_equal(l.m->cameras[i].perspective, 0); /* §3.6: every MMD key */
    unload(&l);
}

/* PROVENANCE.tsv / doc/formats.md §3.5: 107 duplicate "base" morph keys at
 * frame 0. */
static void test_ik_test_base_morphs(void **state)
{
    (void)state;
    loaded l;
    load("vmd_mmd4unity_IK_Test.vmd", &l);
    pk_name_id base = find_utf8(l.m, "base");
    assert_int_not_equal(base, PK_NO_NAME);
    size_t n = 0;
    for (size_t i = 0; i < l.m->nmorphs; i++)
        if (l.m->morphs[i].name == base && l.m->morphs[i].frame == 0)
            n++;
    assert_int_equal(n, 107);
    assert_int_equal(l.m->sections, 5); /* MMD 7.x: ends after self-shadow count */
    unload(&l);
}

/* doc/formats.md §3.9: one show/IK key at frame 0 with 6 entries, one of them
 * the 17-byte 前クローク2_1xcIK stored intact while its bone keys are cut to
 * 15 bytes 前クローク2_1xc. */
static void test_stand_ik_names(void **state)
{
    (void)state;
    loaded l;
    load("vmd_mmdagent_stand.vmd", &l);
    assert_int_equal(l.m->sections, 6);
    assert_int_equal(l.m->niks, 1);
    assert_int_equal(l.m->iks[0].frame, 0);
    assert_int_equal(l.m->iks[0].count, 6);
    pk_name_id ik = find_utf8(l.m, "前クローク2_1xcIK");
    assert_int_not_equal(ik, PK_NO_NAME);
    size_t len;
    pk_names_raw(l.m->names, ik, &len);
    assert_int_equal(len, 17);
    bool found = false;
    for (uint32_t j = 0; j < l.m->iks[0].count; j++)
        found = found || l.m->iks[0].ik[j].name == ik;
    assert_true(found);
    pk_name_id cut = find_utf8(l.m, "前クローク2_1xc");
    assert_int_not_equal(cut, PK_NO_NAME);
    size_t keys = 0;
    for (size_t i = 0; i < l.m->nbones; i++)
        keys += l.m->bones[i].name == cut;
    assert_true(keys > 0);
    unload(&l);
}

/* doc/formats.md §3.3/§3.4: bone "D4"; key 1 at frame 20 with rotation
 * 2c d2 16 3f 0 0 e0 da 4e 3f; the key at frame 21 has the physics-off flag
 * 63 0F in bytes 2-3 and Z = (90, 0, 127, 52) in row 2. */
static void test_babylon_physics_flag(void **state)
{
    (void)state;
    loaded l;
    load("vmd_babylon_physics_toggle_v2_yyb10th.vmd", &l);
    assert_int_equal(l.m->nbones, 3);
    pk_name_id d4 = pk_names_find(l.m->names, "D4", 2);
    assert_int_not_equal(d4, PK_NO_NAME);
    const pk_bone_key *k20 = NULL, *k21 = NULL;
    for (size_t i = 0; i < l.m->nbones; i++) {
        assert_int_equal(l.m->bones[i].name, d4);
        if (l.m->bones[i].frame == 20)
            k20 = &l.m->bones[i];
        if (l.m->bones[i].frame == 21)
            k21 = &l.m->bones[i];
    }
    if (!k20 || !k21) {
        fail_msg("no D4 keys at frames 20 and 21");
        return;
    }
    uint32_t qx, qw;
    memcpy(&qx, &k20->rot[0], 4);
    memcpy(&qw, &k20->rot[3], 4);
    assert_int_equal(qx, 0x3f16d22cu);
    assert_int_equal(qw, 0x3f4edae0u);
    assert_true(k20->pos[0] == 0 && k20->rot[1] == 0);
    assert_int_equal(k21->interp[2], 0x63);
    assert_int_equal(k21->interp[3], 0x0F);
    assert_int_equal(k21->interp[32], 90);
    assert_int_equal(k21->interp[36], 0);
    assert_int_equal(k21->interp[40], 127);
    assert_int_equal(k21->interp[44], 52);
    /* model name: 20 bytes with no NUL (doc/formats.md §3.2) */
    const uint8_t *model;
    assert_int_equal(pk_motion_model_raw(l.m, &model), 20);
    unload(&l);
}

/* PROVENANCE.tsv facts for the small Vmd2XML fixtures and others. */
static void test_small_fixtures(void **state)
{
    (void)state;
    loaded l;
    load("vmd_vmd2xml_camera.vmd", &l);
    assert_int_equal(l.m->ncameras, 3);
    bool ortho = false, fov1 = false, fov45 = false, fov125 = false, positive = false;
    for (size_t i = 0; i < 3; i++) {
        const pk_camera_key *c = &l.m->cameras[i];
        ortho = ortho || c->perspective == 1;
        fov1 = fov1 || c->fov == 1;
        fov45 = fov45 || c->fov == 45;
        fov125 = fov125 || c->fov == 125;
        positive = positive || c->distance > 0;
    }
    assert_true(ortho && fov1 && fov45 && fov125 && positive);
    unload(&l);

    load("vmd_vmd2xml_allShadow.vmd", &l);
    assert_int_equal(l.m->nshadows, 3);
    bool mode[3] = {false, false, false};
    for (size_t i = 0; i < 3; i++) {
        const pk_shadow_key *s = &l.m->shadows[i];
        assert_true(s->mode <= 2);
        mode[s->mode] = true;
        assert_true(s->distance == 0.1f || s->distance == 0.01125f || s->distance == 1e-5f);
    }
    assert_true(mode[0] && mode[1] && mode[2]);
    unload(&l);

    load("vmd_vmd2xml_luminous.vmd", &l);
    assert_int_equal(l.m->nlights, 4);
    unload(&l);

    load("vmd_vmd2xml_flag.vmd", &l);
    assert_int_equal(l.m->niks, 2);
    assert_true(l.m->iks[0].show != l.m->iks[1].show);
    unload(&l);

    load("vmd_imas_face16.vmd", &l);
    assert_int_equal(l.m->nbones, 3);
    assert_int_equal(l.m->nmorphs, 36);
    unload(&l);

    load("vmd_mmdtools_test.vmd", &l);
    assert_int_equal(l.m->nbones, 1316);
    assert_int_equal(l.m->sections, 6);
    unload(&l);

    load("vmd_hashi4_projectile_camera.vmd", &l);
    assert_int_equal(l.m->ncameras, 30);
    assert_int_equal(l.m->sections, 6);
    unload(&l);

    /* morph-only; model name cut mid-character at byte 20 */
    load("vmd_mmdagent_00_normal.vmd", &l);
    assert_int_equal(l.m->nbones, 0);
    assert_true(l.m->nmorphs > 0);
    const uint8_t *model;
    assert_int_equal(pk_motion_model_raw(l.m, &model), 20);
    assert_int_equal(model[19], 0x83);
    unload(&l);
}

/* Not written by MMD: "Vocaloid Motion Data" + NULs; read with a warning. */
static void test_yohawing_signature(void **state)
{
    (void)state;
    loaded l;
    load("vmd_yohawing_joint_orient_test.vmd", &l);
    assert_int_equal(l.m->version, 2);
    assert_true(l.log.warnings >= 1);
    assert_int_equal(l.log.items[0].offset, 0);
    assert_true(l.m->nbones > 0);
    for (size_t i = 0; i < l.m->nbones; i++)
        for (int k = 0; k < 64; k++)
            assert_int_equal(l.m->bones[i].interp[k], 0x14);
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_roundtrip), cmocka_unit_test(test_wavefile_v2),
        cmocka_unit_test(test_wavefile_camera),  cmocka_unit_test(test_ik_test_base_morphs),
        cmocka_unit_test(test_stand_ik_names),   cmocka_unit_test(test_babylon_physics_flag),
        cmocka_unit_test(test_small_fixtures),   cmocka_unit_test(test_yohawing_signature),
        cmocka_unit_test(test_streamed_write),   cmocka_unit_test(test_read_front_progress),
        cmocka_unit_test(test_read_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
