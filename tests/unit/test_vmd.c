/* test_vmd.c — VMD codec on hand-built byte images (vmdgen.h): every field
 * parsed as the layout in doc/formats.md §3 says, and every image written back
 * byte-identical. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vmdgen.h"

/* CP932 bytes of a few names (doc/formats.md §4, §3.2). */
#define CENTER "\x83\x5a\x83\x93\x83\x5e\x81\x5b"                       /* センター */
#define CAMERA_LIGHT "\x83\x4a\x83\x81\x83\x89\x81\x45\x8f\xc6\x96\xbe" /* カメラ・照明 */

static pk_motion *read_ok(const vg *g, pk_log *log)
{
    pk_log_init(log);
    pk_motion *m = pk_vmd_read(g->d, g->len, log);
    if (!m) {
        char buf[512] = "";
        if (log->count)
            pk_diag_format(&log->items[0], buf, sizeof buf);
        fail_msg("read failed: %s", buf);
    }
    assert_int_equal(log->errors, 0);
    return m;
}

/* Writes m and asserts the bytes equal the image, naming the first
 * differing offset, and that pk_vmd_size said how many. */
static void assert_writes_back(const pk_motion *m, const uint8_t *want, size_t want_len)
{
    pk_buf out;
    pk_buf_init(&out);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_vmd_write(m, &out, &log), 0);
    assert_int_equal(log.errors, 0);
    size_t n = out.len < want_len ? out.len : want_len;
    for (size_t i = 0; i < n; i++)
        if (out.data[i] != want[i])
            fail_msg("first difference at offset %zu: wrote %02X, expected %02X", i, out.data[i],
                     want[i]);
    if (out.len != want_len)
        fail_msg("wrote %zu bytes, expected %zu", out.len, want_len);
    /* the size is known before writing (the CLI announces a large output) */
    assert_int_equal(pk_vmd_size(m), out.len);
    pk_buf_free(&out);
    pk_log_free(&log);
}

static void assert_name(const pk_motion *m, pk_name_id id, const char *raw)
{
    size_t len;
    const uint8_t *p = pk_names_raw(m->names, id, &len);
    assert_int_equal(len, strlen(raw));
    assert_memory_equal(p, raw, len);
}

static bool has_warning(const pk_log *log, const char *needle)
{
    for (size_t i = 0; i < log->count; i++) {
        char buf[512];
        pk_diag_format(&log->items[i], buf, sizeof buf);
        if (log->items[i].severity == PK_WARNING && strstr(buf, needle))
            return true;
    }
    return false;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ------------------------------------------------------------------ */

static void test_minimal_v2(void **state)
{
    (void)state;
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "Miku");
    for (int s = 0; s < 6; s++)
        vg_u32(&g, 0);
    assert_int_equal(g.len, 74); /* doc/formats.md §3.1: minimal modern file */
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->version, 2);
    assert_int_equal(m->sections, 6);
    assert_int_equal(m->nbones + m->nmorphs + m->ncameras + m->nlights + m->nshadows + m->niks, 0);
    assert_memory_equal(m->header, "Vocaloid Motion Data 0002\0\0\0\0\0", 30);
    const uint8_t *model;
    assert_int_equal(pk_motion_model_raw(m, &model), 4);
    assert_memory_equal(model, "Miku", 4);
    assert_int_equal(log.warnings, 0);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

static void test_v1_header(void **state)
{
    (void)state;
    vg g;
    vg_init(&g);
    vg_header_v1(&g, "0123456789"); /* 10 bytes: no NUL in a v1 model field */
    vg_u32(&g, 1);
    vg_bone(&g, CENTER, 0xFD, 7, 1, 2, 3, 0, 0, 0, 1);
    for (int s = 1; s < 6; s++)
        vg_u32(&g, 0);
    assert_int_equal(g.len, 40 + 4 + 111 + 20);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->version, 1);
    assert_int_equal(m->sections, 6);
    assert_int_equal(m->nbones, 1);
    assert_name(m, m->bones[0].name, CENTER);
    assert_int_equal(m->bones[0].frame, 7);
    assert_memory_equal(m->header, "Vocaloid Motion Data file", 25);
    const uint8_t *model;
    assert_int_equal(pk_motion_model_raw(m, &model), 10);
    assert_memory_equal(model, "0123456789", 10);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* Builds one image with keys in every section; returns the offsets of the
 * six count fields in counts[]. */
static void build_all_sections(vg *g, size_t counts[6])
{
    vg_init(g);
    vg_header_v2(g, "Model");
    counts[0] = g->len;
    vg_u32(g, 2);
    vg_bone(g, CENTER, 0x00, 30, 1.5f, -2.0f, 0.25f, 0.1f, 0.2f, 0.3f, 0.9f);
    vg_bone(g, "arm_L", 0xFD, 0, 0, 0, 0, 0, 0, 0, 1);
    counts[1] = g->len;
    vg_u32(g, 2);
    vg_morph(g, "blink", 0x00, 12, 0.75f);
    vg_morph(g, "a", 0xFD, 0, 1.0f);
    counts[2] = g->len;
    vg_u32(g, 1);
    vg_camera(g, 5, -45.0f, 0, 10, 0, 0.1f, 3.12f, -0.5f, 30, 1);
    counts[3] = g->len;
    vg_u32(g, 1);
    vg_light(g, 9, 0.602f, 0.602f, 0.602f, -0.5f, -1.0f, 0.5f);
    counts[4] = g->len;
    vg_u32(g, 1);
    vg_shadow(g, 3, 2, 0.01125f);
    counts[5] = g->len;
    vg_u32(g, 2);
    vg_ik_head(g, 0, 1, 0);
    vg_ik_head(g, 40, 0, 3);
    vg_ik_state(g, "leg IK_L", 0x00, 1);
    vg_ik_state(g, "01234567890123456789", 0x00, 0); /* 20 bytes, no NUL */
    vg_ik_state(g, "toe IK_R", 0xFD, 1);
}

static void test_every_section(void **state)
{
    (void)state;
    vg g;
    size_t counts[6];
    build_all_sections(&g, counts);
    assert_int_equal(g.len, 50 + 24 + 2 * 111 + 2 * 23 + 61 + 28 + 9 + 9 + 9 + 3 * 21);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(log.warnings, 0);
    assert_int_equal(m->sections, 6);

    assert_int_equal(m->nbones, 2);
    const pk_bone_key *b = &m->bones[0];
    assert_name(m, b->name, CENTER);
    assert_int_equal(b->pad, 0);
    assert_int_equal(b->frame, 30);
    assert_true(b->pos[0] == 1.5f && b->pos[1] == -2.0f && b->pos[2] == 0.25f);
    assert_true(b->rot[0] == 0.1f && b->rot[1] == 0.2f && b->rot[2] == 0.3f && b->rot[3] == 0.9f);
    uint8_t lin[64];
    vg_interp_linear(lin);
    assert_memory_equal(b->interp, lin, 64);
    assert_name(m, m->bones[1].name, "arm_L");
    assert_int_not_equal(m->bones[1].pad, 0); /* 0xFD fill kept */

    assert_int_equal(m->nmorphs, 2);
    assert_name(m, m->morphs[0].name, "blink");
    assert_int_equal(m->morphs[0].frame, 12);
    assert_true(m->morphs[0].weight == 0.75f);
    assert_name(m, m->morphs[1].name, "a");
    assert_true(m->morphs[1].weight == 1.0f);

    assert_int_equal(m->ncameras, 1);
    const pk_camera_key *c = &m->cameras[0];
    assert_int_equal(c->frame, 5);
    assert_true(c->distance == -45.0f);
    assert_true(c->pos[0] == 0 && c->pos[1] == 10 && c->pos[2] == 0);
    assert_true(c->rot[0] == 0.1f && c->rot[1] == 3.12f && c->rot[2] == -0.5f);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(c->interp[4 * i], 20);
        assert_int_equal(c->interp[4 * i + 1], 107);
    }
    assert_int_equal(c->fov, 30);
    assert_int_equal(c->perspective, 1);

    assert_int_equal(m->nlights, 1);
    assert_int_equal(m->lights[0].frame, 9);
    assert_true(m->lights[0].color[2] == 0.602f);
    assert_true(m->lights[0].direction[0] == -0.5f && m->lights[0].direction[1] == -1.0f &&
                m->lights[0].direction[2] == 0.5f);

    assert_int_equal(m->nshadows, 1);
    assert_int_equal(m->shadows[0].frame, 3);
    assert_int_equal(m->shadows[0].mode, 2);
    assert_true(m->shadows[0].distance == 0.01125f);

    assert_int_equal(m->niks, 2);
    assert_int_equal(m->iks[0].frame, 0);
    assert_int_equal(m->iks[0].show, 1);
    assert_int_equal(m->iks[0].count, 0);
    assert_int_equal(m->iks[1].frame, 40);
    assert_int_equal(m->iks[1].show, 0);
    assert_int_equal(m->iks[1].count, 3);
    assert_name(m, m->iks[1].ik[0].name, "leg IK_L");
    assert_int_equal(m->iks[1].ik[0].enabled, 1);
    assert_name(m, m->iks[1].ik[1].name, "01234567890123456789");
    assert_int_equal(m->iks[1].ik[1].pad, 0);
    assert_int_equal(m->iks[1].ik[1].enabled, 0);
    assert_name(m, m->iks[1].ik[2].name, "toe IK_R");
    assert_int_not_equal(m->iks[1].ik[2].pad, 0);

    assert_null(m->trailing);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* A file may end after any count field (doc/formats.md §3.10). */
static void test_end_positions(void **state)
{
    (void)state;
    vg full;
    size_t counts[6];
    build_all_sections(&full, counts);
    for (int k = 0; k <= 6; k++) {
        size_t len = k == 0 ? 50 : k == 6 ? full.len : counts[k];
        vg g = {full.d, len, len};
        pk_log log;
        pk_motion *m = read_ok(&g, &log);
        assert_int_equal(m->sections, k);
        assert_int_equal(log.warnings, 0);
        assert_int_equal(m->nbones, k >= 1 ? 2 : 0);
        assert_int_equal(m->nmorphs, k >= 2 ? 2 : 0);
        assert_int_equal(m->ncameras, k >= 3 ? 1 : 0);
        assert_int_equal(m->nlights, k >= 4 ? 1 : 0);
        assert_int_equal(m->nshadows, k >= 5 ? 1 : 0);
        assert_int_equal(m->niks, k >= 6 ? 2 : 0);
        assert_writes_back(m, g.d, g.len);
        pk_motion_free(m);
        pk_log_free(&log);
    }
    vg_free(&full);
}

static void test_padding_kinds(void **state)
{
    (void)state;
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "");
    vg_u32(&g, 4);
    vg_bone(&g, CENTER, 0x00, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_bone(&g, CENTER, 0xFD, 1, 0, 0, 0, 0, 0, 0, 1);
    /* leftover text after the NUL, as MMD leaves in name buffers */
    vg_bytes(&g, "abc\0on Data\0\0\0\0", 15);
    float z3[3] = {0}, q[4] = {0, 0, 0, 1};
    uint8_t ip[64];
    vg_interp_linear(ip);
    vg_bone_body(&g, 2, z3, q, ip);
    vg_bone(&g, CENTER, 0xFD, 3, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&g, 0);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->nbones, 4);
    assert_int_equal(m->sections, 2);
    assert_int_equal(m->bones[0].pad, 0);
    assert_int_not_equal(m->bones[1].pad, 0);
    size_t plen;
    const uint8_t *p = pk_names_raw(m->pads, m->bones[1].pad - 1, &plen);
    assert_int_equal(plen, 15 - 8 - 1);
    assert_memory_equal(p, "\xFD\xFD\xFD\xFD\xFD\xFD", 6);
    assert_name(m, m->bones[2].name, "abc");
    p = pk_names_raw(m->pads, m->bones[2].pad - 1, &plen);
    assert_int_equal(plen, 11);
    assert_memory_equal(p, "on Data\0\0\0\0", 11);
    /* the same name with the same padding shares the ids */
    assert_int_equal(m->bones[0].name, m->bones[1].name);
    assert_int_equal(m->bones[1].pad, m->bones[3].pad);
    assert_int_equal(pk_names_count(m->names), 2);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* The camera/light model name "カメラ・照明\0on Data" (doc/formats.md §3.2). */
static void test_camera_model_name(void **state)
{
    (void)state;
    static const uint8_t field[20] = {0x83, 0x4A, 0x83, 0x81, 0x83, 0x89, 0x81, 0x45, 0x8F, 0xC6,
                                      0x96, 0xBE, 0x00, 0x6F, 0x6E, 0x20, 0x44, 0x61, 0x74, 0x61};
    vg g;
    vg_init(&g);
    vg_signature(&g, "Vocaloid Motion Data 0002", "JKLM"); /* old filler \0JKLM */
    vg_bytes(&g, field, 20);
    vg_u32(&g, 0);
    vg_u32(&g, 0);
    vg_u32(&g, 1);
    vg_camera(&g, 0, -45, 0, 10, 0, 0, 0, 0, 30, 0);
    vg_u32(&g, 0); /* ends after the light count, like wavefile_camera */
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_memory_equal(m->model, field, 20);
    assert_memory_equal(m->header + 25, "\0JKLM", 5);
    const uint8_t *model;
    size_t len = pk_motion_model_raw(m, &model);
    assert_int_equal(len, 12);
    assert_memory_equal(model, CAMERA_LIGHT, 12);
    assert_int_equal(m->sections, 4);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* 15-byte names have no NUL; a name cut after a lead byte stays exact. */
static void test_full_and_cut_names(void **state)
{
    (void)state;
    /* 7 two-byte characters + a lone lead byte 0x83: cut mid-character */
    const char *cut = "\x83\x41\x83\x7a\x96\xd1\x2d\x2b\x83\x41\x83\x7a\x96\xd1\x83";
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "");
    vg_u32(&g, 2);
    vg_bone(&g, "abcdefghijklmno", 0, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_bone(&g, cut, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&g, 1);
    vg_morph(&g, cut, 0, 0, 0.5f);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_name(m, m->bones[0].name, "abcdefghijklmno");
    assert_int_equal(m->bones[0].pad, 0);
    assert_name(m, m->bones[1].name, cut);
    assert_false(pk_names_clean(m->names, m->bones[1].name));
    assert_non_null(strstr(pk_names_utf8(m->names, m->bones[1].name), "\\x83"));
    assert_int_equal(m->morphs[0].name, m->bones[1].name); /* one table, one id */
    /* warned once for the distinct undecodable name, not per key */
    assert_int_equal(log.warnings, 1);
    assert_true(has_warning(&log, "CP932"));
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* Key order and duplicate keys are kept; interpolation bytes verbatim,
 * including the physics flag (bytes 2-3) and garbage filler. */
static void test_order_duplicates_interp(void **state)
{
    (void)state;
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "");
    uint32_t frames[5] = {0, 60, 30, 60, 0};
    vg_u32(&g, 5);
    float z3[3] = {0}, q[4] = {0, 0, 0, 1};
    uint8_t ip[5][64];
    for (int i = 0; i < 5; i++) {
        vg_interp_linear(ip[i]);
        if (i == 1) {
            ip[i][2] = 0x63; /* physics off */
            ip[i][3] = 0x0F;
        }
        if (i == 2) { /* garbage filler, as in stand.vmd */
            ip[i][31] = 0x81;
            ip[i][46] = 0xB7;
            ip[i][47] = 0xFE;
            ip[i][61] = 0x9A;
            ip[i][62] = 0x99;
            ip[i][63] = 0xCD;
        }
        if (i == 3)
            for (int k = 0; k < 64; k++)
                ip[i][k] = (uint8_t)(k * 37 + 5); /* anything at all */
        vg_name(&g, i == 4 ? "other" : CENTER, 15, 0xFD);
        vg_bone_body(&g, frames[i], z3, q, ip[i]);
    }
    vg_u32(&g, 3);
    vg_morph(&g, "base", 0xFD, 0, 0);
    vg_morph(&g, "base", 0xFD, 0, 0);
    vg_morph(&g, "base", 0xFD, 0, 1);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->nbones, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(m->bones[i].frame, frames[i]);
        assert_memory_equal(m->bones[i].interp, ip[i], 64);
    }
    assert_int_equal(m->bones[1].name, m->bones[3].name);
    assert_int_equal(m->nmorphs, 3);
    assert_true(m->morphs[2].weight == 1.0f);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* Floats are copied bit for bit: NaN payloads, -0, denormals. */
static void test_nan_floats(void **state)
{
    (void)state;
    const uint32_t nan1 = 0x7FC01234u, nan2 = 0xFFA00001u /* signalling */, neg0 = 0x80000000u,
                   denorm = 0x00000001u;
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "");
    vg_u32(&g, 1);
    vg_bone(&g, "b", 0, 0, from_bits(nan1), from_bits(neg0), from_bits(denorm), 0, 0, 0, 1);
    /* the signalling NaN is written as raw bits: going through a float
     * argument could quieten it */
    vg_patch_u32(&g, g.len - 64 - 4, nan2);
    vg_u32(&g, 1);
    vg_morph(&g, "m", 0, 0, 0);
    vg_patch_u32(&g, g.len - 4, nan2);
    vg_u32(&g, 1);
    vg_camera(&g, 0, 0, 0, 0, 0, 0, 0, 0, 30, 0);
    vg_patch_u32(&g, g.len - 61 + 4, nan1);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(bits(m->bones[0].pos[0]), nan1);
    assert_int_equal(bits(m->bones[0].pos[1]), neg0);
    assert_int_equal(bits(m->bones[0].pos[2]), denorm);
    assert_int_equal(bits(m->bones[0].rot[3]), nan2);
    assert_int_equal(bits(m->morphs[0].weight), nan2);
    assert_int_equal(bits(m->cameras[0].distance), nan1);
    /* one warning per section, at the first bad record: header 50 bytes,
     * then a count before each section (bone 54, morph 169, camera 196) */
    assert_int_equal(log.warnings, 3);
    const int64_t want_at[3] = {54, 54 + 111 + 4, 54 + 111 + 4 + 23 + 4};
    const char *want_what[3] = {"1 bone key with NaN", "1 morph key with NaN",
                                "1 camera key with NaN"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(log.items[i].severity, PK_WARNING);
        assert_int_equal(log.items[i].offset, want_at[i]);
        assert_non_null(strstr(log.items[i].msg, want_what[i]));
    }
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

static void test_trailing_after_last_section(void **state)
{
    (void)state;
    vg g;
    size_t counts[6];
    build_all_sections(&g, counts);
    size_t end = g.len;
    vg_bytes(&g, "Nuthouse01", 10); /* Nuthouse01's signature trailer, §3.10 */
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->sections, 6);
    assert_int_equal(m->ntrailing, 10);
    assert_memory_equal(m->trailing, "Nuthouse01", 10);
    assert_int_equal(log.warnings, 1);
    assert_int_equal(log.items[0].offset, (int64_t)end);
    assert_true(has_warning(&log, "trailing"));
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* 1-3 bytes where a count could start: kept as trailing bytes. */
static void test_trailing_between_sections(void **state)
{
    (void)state;
    vg full;
    size_t counts[6];
    build_all_sections(&full, counts);
    for (size_t extra = 1; extra <= 3; extra++) {
        size_t len = counts[5] + extra; /* inside the show/IK count */
        vg g = {full.d, len, len};
        pk_log log;
        pk_motion *m = read_ok(&g, &log);
        assert_int_equal(m->sections, 5);
        assert_int_equal(m->ntrailing, extra);
        assert_memory_equal(m->trailing, full.d + counts[5], extra);
        assert_int_equal(log.warnings, 1);
        assert_int_equal(log.items[0].offset, (int64_t)counts[5]);
        assert_writes_back(m, g.d, g.len);
        pk_motion_free(m);
        pk_log_free(&log);
    }
    vg_free(&full);
}

/* "Vocaloid Motion Data" + NULs (yohawing's generator): v2 with a warning. */
static void test_bare_signature(void **state)
{
    (void)state;
    vg g;
    vg_init(&g);
    uint8_t h[30] = "Vocaloid Motion Data";
    vg_bytes(&g, h, 30);
    vg_name(&g, "JointOrientTest", 20, 0);
    vg_u32(&g, 1);
    vg_bone(&g, "Joint", 0, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&g, 0);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->version, 2);
    assert_int_equal(log.warnings, 1);
    assert_int_equal(log.items[0].offset, 0);
    assert_memory_equal(m->header, h, 30);
    assert_int_equal(m->nbones, 1);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

static void test_bad_signature(void **state)
{
    (void)state;
    static const char *const heads[] = {
        "Vocaloid Pose Data file",
        "Vocaloid Motion Data 0003",
        "Vocaloid Motion Data X", /* bare signature needs NULs after it */
        "",
    };
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
        vg g;
        vg_init(&g);
        uint8_t h[30] = {0};
        memcpy(h, heads[i], strlen(heads[i]));
        vg_bytes(&g, h, 30);
        vg_name(&g, "", 20, 0);
        vg_u32(&g, 0);
        pk_log log;
        pk_log_init(&log);
        assert_null(pk_vmd_read(g.d, g.len, &log));
        assert_true(log.errors > 0);
        assert_int_equal(log.items[0].offset, 0);
        tu_assert_log_has(&log, "not a VMD");
        pk_log_free(&log);
        vg_free(&g);
    }
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_vmd_read("", 0, &log));
    assert_null(pk_vmd_read(NULL, 0, &log));
    assert_int_equal(log.errors, 2);
    pk_log_free(&log);
}

/* A renamed key gets zero padding when the new name's padding length
 * differs; a same-length rename keeps the stored padding. */
static void test_renamed_key_padding(void **state)
{
    (void)state;
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "");
    vg_u32(&g, 2);
    vg_bone(&g, CENTER, 0xFD, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_bone(&g, CENTER, 0xFD, 1, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&g, 0);
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    m->bones[0].name = pk_names_intern(m->names, "arm", 3);
    m->bones[1].name = pk_names_intern(m->names, "abcdefgh", 8); /* same length as センター */

    vg want;
    vg_init(&want);
    vg_header_v2(&want, "");
    vg_u32(&want, 2);
    vg_bone(&want, "arm", 0x00, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_bone(&want, "abcdefgh", 0xFD, 1, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&want, 0);
    assert_writes_back(m, want.d, want.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
    vg_free(&want);
}

static void test_name_too_long(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    pk_bone_key *b = pk_motion_push_bone(m);
    assert_non_null(b);
    b->name = pk_names_intern(m->names, "abcdefghijklmnop", 16);
    b->frame = 12;
    pk_buf out;
    pk_buf_init(&out);
    pk_buf_append(&out, "keep", 4); /* the writer appends; on failure this stays */
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_vmd_write(m, &out, &log), -1);
    assert_int_equal(out.len, 4);
    tu_assert_log_has(&log, "abcdefghijklmnop");
    tu_assert_log_has(&log, "16 bytes");
    pk_log_free(&log);

    /* IK names may be 20 bytes, not 21; the message is UTF-8 */
    b->name = pk_names_intern(m->names, "abcdefghijklmno", 15);
    pk_ik_key *k = pk_motion_push_ik(m, 2);
    assert_non_null(k);
    k->ik[0].name = pk_names_intern(m->names, "01234567890123456789", 20);
    k->ik[1].name = pk_names_intern(m->names, CENTER "0123456789abc", 21);
    pk_log_init(&log);
    assert_int_equal(pk_vmd_write(m, &out, &log), -1);
    assert_int_equal(out.len, 4);
    tu_assert_log_has(&log, "センター0123456789abc");
    pk_log_free(&log);

    k->ik[1].name = k->ik[0].name;
    pk_log_init(&log);
    assert_int_equal(pk_vmd_write(m, &out, &log), 0);
    assert_int_equal(out.len, 4 + 50 + 6 * 4 + 111 + 9 + 2 * 21);
    pk_log_free(&log);
    pk_buf_free(&out);
    pk_motion_free(m);
}

/* A motion built through the API (no padding stored) writes what the
 * layout says, and an edited motion writes every non-empty section even
 * when it was read from a file that ended early. */
static void test_built_motion(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    m->sections = 2; /* as if read from a file ending after the morph count */
    pk_light_key *l = pk_motion_push_light(m);
    assert_non_null(l);
    l->frame = 4;
    l->color[0] = l->color[1] = l->color[2] = 0.5f;
    l->direction[1] = -1;
    pk_bone_key *b = pk_motion_push_bone(m);
    assert_non_null(b);
    b->name = pk_names_intern(m->names, CENTER, 8);
    b->rot[3] = 1;
    pk_interp_linear(b->interp);

    vg want;
    vg_init(&want);
    vg_header_v2(&want, "");
    vg_u32(&want, 1);
    vg_bone(&want, CENTER, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(&want, 0);
    vg_u32(&want, 0);
    vg_u32(&want, 1);
    vg_light(&want, 4, 0.5f, 0.5f, 0.5f, 0, -1, 0);
    assert_writes_back(m, want.d, want.len);
    pk_motion_free(m);
    vg_free(&want);
}

/* Many distinct names interleaved (more than any name cache holds), with
 * fields that differ only in the padding or only in the last byte: every
 * key still gets its own name and padding back. */
static void test_many_names(void **state)
{
    (void)state;
    enum { N = 1500 };
    vg g;
    vg_init(&g);
    vg_header_v2(&g, "");
    vg_u32(&g, 3 * N);
    char name[16];
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < N; i++) {
            snprintf(name, sizeof name, "bone%010d", i); /* 14 bytes + NUL */
            if (round == 2) {                            /* same first 14 bytes, 15-byte name */
                name[14] = 'x';
                name[15] = 0;
            }
            vg_name(&g, name, 15, 0);
            float z3[3] = {0}, q[4] = {0, 0, 0, 1};
            uint8_t ip[64];
            vg_interp_linear(ip);
            vg_bone_body(&g, (uint32_t)(round * N + i), z3, q, ip);
        }
    /* morph fields equal except for the padding byte after the NUL */
    vg_u32(&g, 2 * N);
    for (int i = 0; i < 2 * N; i++) {
        snprintf(name, sizeof name, "m%d", i / 2);
        vg_morph(&g, name, (i & 1) ? 0xFD : 0x00, (uint32_t)i, 0);
    }
    pk_log log;
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(m->nbones, 3 * N);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < N; i++) {
            snprintf(name, sizeof name, "bone%010d", i);
            if (round == 2) {
                name[14] = 'x';
                name[15] = 0;
            }
            const pk_bone_key *b = &m->bones[round * N + i];
            assert_name(m, b->name, name);
            assert_int_equal(b->frame, (uint32_t)(round * N + i));
        }
    for (int i = 0; i < 2 * N; i++) {
        snprintf(name, sizeof name, "m%d", i / 2);
        assert_name(m, m->morphs[i].name, name);
        assert_true((m->morphs[i].pad != 0) == ((i & 1) != 0));
    }
    assert_int_equal(pk_names_count(m->names), 2 * N + N);
    /* 0xFD runs of 12, 11, 10 and 9 bytes (names m0..m1499 of 2..5 bytes) */
    assert_int_equal(pk_names_count(m->pads), 4);
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);
}

/* A motion of `n` bone keys of "a" at frames 0, 10, ... and one bone key
 * of "far" at frame `far`, then a camera key at frame `cam`. */
static void far_motion(vg *g, size_t n, uint32_t far, uint32_t cam)
{
    vg_init(g);
    vg_header_v2(g, "m");
    vg_u32(g, (uint32_t)n + 1);
    for (size_t i = 0; i < n; i++)
        vg_bone(g, "a", 0, (uint32_t)(10 * i), 0, 0, 0, 0, 0, 0, 1);
    vg_bone(g, "far", 0, far, 0, 0, 0, 0, 0, 0, 1);
    vg_u32(g, 0);
    vg_u32(g, 1);
    vg_camera(g, cam, -45, 0, 10, 0, 0, 0, 0, 30, 0);
    vg_u32(g, 0);
    vg_u32(g, 0);
    vg_u32(g, 0);
}

/* A key more than 54000 frames after every other key of the motion is
 * warned about, naming its track, frame and record; the file still reads
 * and writes back the same bytes.  A gap of exactly 54000, or far keys that
 * are most of the motion, are not. */
static void test_far_frames(void **state)
{
    (void)state;
    vg g;
    pk_log log;
    far_motion(&g, 269, 67109615, 2688); /* a 2,688-frame dance, one flipped frame */
    pk_motion *m = read_ok(&g, &log);
    assert_int_equal(log.warnings, 1);
    assert_int_equal(log.items[0].offset, 54 + 269 * 111);
    tu_assert_log_has(&log, "bone 'far' has a key at frame 67109615, more than 54000 frames "
                            "(30 minutes) after every other key of the motion (they end at "
                            "frame 2688)");
    assert_writes_back(m, g.d, g.len);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);

    /* the camera far too: one line for both tracks */
    far_motion(&g, 269, 5000000, 5000000);
    m = read_ok(&g, &log);
    assert_int_equal(log.warnings, 1);
    tu_assert_log_has(&log, "2 tracks have keys far beyond the rest: bone 'far' at frame "
                            "5000000 and the camera track at frame 5000000");
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);

    far_motion(&g, 269, 2680 + 54000, 0); /* 54000 after the last (2680): not more */
    m = read_ok(&g, &log);
    assert_int_equal(log.warnings, 0);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);

    far_motion(&g, 1, 100000, 100000); /* a key at 0, the rest far: not a stray key */
    m = read_ok(&g, &log);
    assert_int_equal(log.warnings, 0);
    pk_motion_free(m);
    pk_log_free(&log);
    vg_free(&g);

    /* no corpus motion has one */
    char **paths;
    size_t n = tu_corpus_list(".vmd", &paths);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *d = tu_read_file(paths[i], &len);
        assert_non_null(d);
        pk_log_init(&log);
        m = pk_vmd_read(d, len, &log);
        assert_non_null(m);
        for (size_t k = 0; k < log.count; k++)
            if (strstr(log.items[k].msg, "30 minutes"))
                fail_msg("%s: %s", paths[i], log.items[k].msg);
        pk_motion_free(m);
        pk_log_free(&log);
        free(d);
    }
    tu_free_list(paths, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimal_v2),
        cmocka_unit_test(test_v1_header),
        cmocka_unit_test(test_every_section),
        cmocka_unit_test(test_end_positions),
        cmocka_unit_test(test_padding_kinds),
        cmocka_unit_test(test_camera_model_name),
        cmocka_unit_test(test_full_and_cut_names),
        cmocka_unit_test(test_order_duplicates_interp),
        cmocka_unit_test(test_nan_floats),
        cmocka_unit_test(test_trailing_after_last_section),
        cmocka_unit_test(test_trailing_between_sections),
        cmocka_unit_test(test_bare_signature),
        cmocka_unit_test(test_bad_signature),
        cmocka_unit_test(test_renamed_key_padding),
        cmocka_unit_test(test_name_too_long),
        cmocka_unit_test(test_built_motion),
        cmocka_unit_test(test_many_names),
        cmocka_unit_test(test_far_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
