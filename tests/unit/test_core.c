/* test_core.c — the shared core: name interning, CP932 decoding (not
 * Shift_JIS) and escapes, the log, the buffer, the motion and pose models. */
#include "testutil.h"
#include "util/utf8.h"
#include "model/names.h"
#include "util/number.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t CENTER[] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B}; /* センター */

static void intern_gives_one_id_per_distinct_name(void **state)
{
    (void)state;
    pk_names *t = pk_names_new();
    assert_non_null(t);
    pk_name_id a = pk_names_intern(t, CENTER, sizeof CENTER);
    pk_name_id b = pk_names_intern(t, "D4", 2);
    pk_name_id c = pk_names_intern(t, CENTER, sizeof CENTER);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_int_equal(c, a);
    assert_int_equal(pk_names_count(t), 2);
    assert_int_equal(pk_names_find(t, "D4", 2), b);
    assert_int_equal(pk_names_find(t, "D5", 2), PK_NO_NAME);
    /* a prefix is a different name */
    assert_int_equal(pk_names_find(t, CENTER, 6), PK_NO_NAME);
    size_t len;
    const uint8_t *raw = pk_names_raw(t, a, &len);
    assert_int_equal(len, sizeof CENTER);
    assert_memory_equal(raw, CENTER, sizeof CENTER);
    assert_string_equal(pk_names_utf8(t, a), "センター");
    assert_true(pk_names_clean(t, a));
    /* the empty name is a name */
    pk_name_id e = pk_names_intern(t, "", 0);
    assert_string_equal(pk_names_utf8(t, e), "");
    pk_names_free(t);
}

static void many_names_survive_rehashing(void **state)
{
    (void)state;
    pk_names *t = pk_names_new();
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "bone%d", i);
        assert_int_equal(pk_names_intern(t, buf, (size_t)n), (pk_name_id)i);
    }
    const uint8_t *first = pk_names_raw(t, 0, NULL);
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "bone%d", i);
        assert_int_equal(pk_names_find(t, buf, (size_t)n), (pk_name_id)i);
        assert_string_equal(pk_names_utf8(t, (pk_name_id)i), buf);
    }
    /* pointers handed out earlier stay valid */
    assert_memory_equal(first, "bone0", 5);
    pk_names *c = pk_names_clone(t);
    assert_int_equal(pk_names_count(c), 5000);
    assert_int_equal(pk_names_find(c, "bone4321", 8), 4321);
    pk_names_free(c);
    pk_names_free(t);
}

/* doc/formats.md §4.1: CP932, not glibc's SHIFT_JIS. */
static void decodes_as_cp932(void **state)
{
    (void)state;
    bool clean;
    char *s = pk_cp932_to_utf8("a\\b~", 4, &clean);
    assert_string_equal(s, "a\\b~"); /* SHIFT_JIS would give YEN SIGN and OVERLINE */
    assert_true(clean);
    free(s);
    const uint8_t nec[] = {0x87, 0x40, 0x87, 0x54, 0xFA, 0x40}; /* ① Ⅰ ⅰ */
    s = pk_cp932_to_utf8(nec, sizeof nec, &clean);
    assert_string_equal(s, "①Ⅰⅰ");
    assert_true(clean);
    free(s);
    const uint8_t wave[] = {0x81, 0x60}; /* ～ FULLWIDTH TILDE in CP932 */
    s = pk_cp932_to_utf8(wave, 2, NULL);
    assert_string_equal(s, "\xEF\xBD\x9E");
    free(s);
    const uint8_t kana[] = {0xBE, 0xDD, 0xC0, 0xB0}; /* half-width ｾﾝﾀｰ */
    s = pk_cp932_to_utf8(kana, sizeof kana, &clean);
    assert_string_equal(s, "ｾﾝﾀｰ");
    free(s);
}

/* A name MMD cut in the middle of a character keeps its bytes. */
static void undecodable_bytes_are_escaped_and_kept(void **state)
{
    (void)state;
    const uint8_t cut[] = {0x83, 0x5A, 0x83, 0x93, 0x83}; /* セン + lone lead byte */
    bool clean = true;
    char *s = pk_cp932_to_utf8(cut, sizeof cut, &clean);
    assert_string_equal(s, "セン\\x83");
    assert_false(clean);
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932(s, &raw, &len), 0);
    assert_int_equal(len, sizeof cut);
    assert_memory_equal(raw, cut, sizeof cut);
    free(raw);
    free(s);
    /* a lone lead byte in the middle resynchronises on the next byte */
    const uint8_t mid[] = {'A', 0x80, 'B', 0xFF};
    s = pk_cp932_to_utf8(mid, sizeof mid, &clean);
    assert_string_equal(s, "A\\x80B\\xFF");
    free(s);

    pk_names *t = pk_names_new();
    pk_name_id id = pk_names_intern(t, cut, sizeof cut);
    assert_false(pk_names_clean(t, id));
    assert_string_equal(pk_names_utf8(t, id), "セン\\x83");
    pk_names_free(t);
}

static void encodes_utf8_to_cp932_with_limits(void **state)
{
    (void)state;
    uint8_t *raw;
    size_t len;
    assert_int_equal(pk_utf8_to_cp932("センター", &raw, &len), 0);
    assert_int_equal(len, sizeof CENTER);
    assert_memory_equal(raw, CENTER, len);
    free(raw);
    /* an emoji has no CP932 form */
    assert_int_equal(pk_utf8_to_cp932("手\xF0\x9F\x98\x80", &raw, &len), -1);
    assert_null(raw);

    pk_names *t = pk_names_new();
    pk_log log;
    pk_log_init(&log);
    /* 8 characters x 2 bytes = 16 bytes: one more than a VMD bone field */
    pk_name_id id =
        pk_names_intern_utf8(t, "左人指先左人指先", PK_VMD_NAME_BYTES, "VMD bone", &log);
    assert_int_equal(id, PK_NO_NAME);
    tu_assert_log_has(&log, "左人指先左人指先");
    tu_assert_log_has(&log, "16 bytes");
    pk_log_free(&log);
    pk_log_init(&log);
    id = pk_names_intern_utf8(t, "\xF0\x9F\x98\x80", 15, "VMD bone", &log);
    assert_int_equal(id, PK_NO_NAME);
    tu_assert_log_has(&log, "cannot be encoded in CP932");
    pk_log_free(&log);
    pk_log_init(&log);
    id = pk_names_intern_utf8(t, "右手首", 15, "VMD bone", &log);
    assert_int_not_equal(id, PK_NO_NAME);
    assert_int_equal(log.errors, 0);
    assert_string_equal(pk_names_utf8(t, id), "右手首");
    pk_log_free(&log);
    pk_names_free(t);
}

static void character_boundary(void **state)
{
    (void)state;
    const uint8_t s[] = {0x83, 0x5A, 'A', 0x83, 0x93, 0x83};
    assert_int_equal(pk_cp932_boundary(s, 6), 5);
    assert_int_equal(pk_cp932_boundary(s, 5), 5);
    assert_int_equal(pk_cp932_boundary(s, 4), 3); /* cuts ン in half */
    assert_int_equal(pk_cp932_boundary(s, 1), 0);
    /* half-width katakana are single bytes */
    const uint8_t k[] = {0xBE, 0xDD};
    assert_int_equal(pk_cp932_boundary(k, 2), 2);
}

/* The one rule for MMD's cut names (names.c): a name longer than a field
 * is stored cut to the field's bytes, at the raw byte or at the last whole
 * character; VMD fields hold 15 bytes, VPD fields 19. */
static void name_cut_rule(void **state)
{
    (void)state;
    /* 'a' + 10 two-byte characters (21 bytes): the 15- and 19-byte raw cuts
     * fall on whole characters, so each field has one cut */
    uint8_t odd[21] = {'a'};
    for (size_t i = 1; i < sizeof odd; i += 2)
        odd[i] = 0x83, odd[i + 1] = 0x5A; /* セ */
    size_t cuts[4];
    assert_int_equal(pki_name_cuts(odd, sizeof odd, cuts), 2);
    assert_int_equal(cuts[0], 15);
    assert_int_equal(cuts[1], 19);
    /* 10 two-byte characters (20 bytes): the raw cut leaves a lone lead
     * byte, the character cut one byte less */
    const uint8_t *even = odd + 1;
    size_t n = pki_name_cuts(even, 20, cuts);
    assert_int_equal(n, 4);
    assert_int_equal(cuts[0], 15);
    assert_int_equal(cuts[1], 14);
    assert_int_equal(cuts[2], 19);
    assert_int_equal(cuts[3], 18);
    /* a name that fits every field has no cut */
    assert_int_equal(pki_name_cuts(even, 14, cuts), 0);
    assert_int_equal(pki_name_cuts((const uint8_t *)"abcdefghijklmnop", 16, cuts), 1);

    assert_true(pki_name_matches(even, 20, even, 20));
    assert_true(pki_name_matches(even, 20, even, 15));
    assert_true(pki_name_matches(even, 20, even, 14));
    assert_true(pki_name_matches(even, 20, even, 19));
    assert_true(pki_name_matches(even, 20, even, 18));
    assert_false(pki_name_matches(even, 20, even, 16)); /* no field is 16 bytes */
    assert_false(pki_name_matches(even, 20, even, 12)); /* a prefix is not a cut */
    assert_false(pki_name_matches(even, 14, even, 12));
    assert_false(pki_name_matches(even, 20, odd, 15)); /* other bytes */
    /* the cut is of the full name: a short name never matches a long one */
    assert_false(pki_name_matches(even, 15, even, 20));

    /* one field at a time (check: a VMD holds only 15-byte cuts) */
    assert_true(pki_name_stored_as(even, 20, even, 14, PK_VMD_NAME_BYTES));
    assert_false(pki_name_stored_as(even, 20, even, 18, PK_VMD_NAME_BYTES));
    assert_true(pki_name_stored_as(even, 20, even, 18, PK_VPD_NAME_BYTES));
    assert_true(pki_name_stored_as(even, 10, even, 10, PK_VMD_NAME_BYTES));

    /* looking a full name up in a table that holds a cut form */
    pk_names *t = pk_names_new();
    assert_non_null(t);
    pk_name_id c14 = pk_names_intern(t, even, 14);
    assert_int_equal(pki_names_find_stored(t, even, 20), c14);
    pk_name_id c15 = pk_names_intern(t, even, 15);
    assert_int_equal(pki_names_find_stored(t, even, 20), c15); /* raw cut first */
    pk_name_id full = pk_names_intern(t, even, 20);
    assert_int_equal(pki_names_find_stored(t, even, 20), full); /* the name itself first */
    assert_int_equal(pki_names_find_stored(t, odd, 21), PK_NO_NAME);
    pk_names_free(t);
}

/* util/utf8.h: one code point at a time. */
static void utf8_code_points(void **state)
{
    (void)state;
    char buf[4];
    static const uint32_t cps[] = {0x41, 0xE9, 0x30BB, 0x1F600};
    for (size_t i = 0; i < 4; i++) {
        size_t n = pki_utf8_put(buf, cps[i]);
        assert_int_equal(n, i + 1);
        char z[5] = {0};
        memcpy(z, buf, n);
        assert_int_equal(pki_utf8_seq((const unsigned char *)z), n);
        uint32_t c;
        assert_int_equal(pki_utf8_next(z, &c), n);
        assert_int_equal(c, cps[i]);
    }
    /* not well-formed: overlong, surrogate, stray continuation, cut short */
    assert_int_equal(pki_utf8_seq((const unsigned char *)"\xC0\x80"), 0);
    assert_int_equal(pki_utf8_seq((const unsigned char *)"\xED\xA0\x80"), 0);
    assert_int_equal(pki_utf8_seq((const unsigned char *)"\x80"), 0);
    assert_int_equal(pki_utf8_seq((const unsigned char *)"\xE3\x82"), 0);
    uint32_t c;
    assert_int_equal(pki_utf8_next("\x83Z", &c), 1); /* a CP932 lead byte: itself */
    assert_int_equal(c, 0x83);
}

static void log_formats_positions(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    char line[256];
    /* a codec's message has a position only; its caller names the file */
    pk_log_add(&log, PK_ERROR, PK_E_DAMAGED, 1234, 0, 0, "bone count %u too large", 7u);
    assert_false(log.items[0].placed);
    pk_diag_format(&log.items[0], line, sizeof line);
    assert_string_equal(line, "bone count 7 too large");
    pk_log_place(&log, 0, "a.vmd");
    assert_true(log.items[0].placed);
    /* a message about another file, or about none, is placed when added:
     * a later pk_log_place leaves it alone */
    pk_log_add_at(&log, PK_WARNING, PK_E_DAMAGED, "b.vpd", -1, 12, 3, "count says %d", 93);
    pk_log_add_at(&log, PK_ERROR, PK_E_USAGE, NULL, -1, 0, 0, "about no file");
    pk_error(&log, PK_E_NO_MEMORY, "plain");
    pk_log_place(&log, 0, "c.vmd"); /* names the last one only */
    pk_log_place(&log, 0, "d.vmd"); /* nothing left to place */
    pk_log_place(NULL, 0, "e.vmd"); /* no log: nothing */
    pk_log_add(&log, PK_WARNING, PK_E_LOSS, -1, 0, 0, "later");
    pk_log_place(&log, log.count, "f.vmd"); /* from past it: nothing */
    assert_int_equal(log.errors, 3);
    assert_int_equal(log.warnings, 2);
    pk_diag_format(&log.items[0], line, sizeof line);
    assert_string_equal(line, "a.vmd:1234: bone count 7 too large");
    pk_diag_format(&log.items[1], line, sizeof line);
    assert_string_equal(line, "b.vpd:12:3: warning: count says 93");
    pk_diag_format(&log.items[2], line, sizeof line);
    assert_string_equal(line, "about no file");
    assert_true(log.items[2].placed);
    pk_diag_format(&log.items[3], line, sizeof line);
    assert_string_equal(line, "c.vmd: plain");
    pk_diag_format(&log.items[4], line, sizeof line);
    assert_string_equal(line, "warning: later");
    assert_false(log.items[4].placed);
    /* each keeps its kind, named for callers that print or count them */
    const pk_diag_code want[] = {PK_E_DAMAGED, PK_E_DAMAGED, PK_E_USAGE, PK_E_NO_MEMORY, PK_E_LOSS};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(log.items[i].code, want[i]);
    assert_string_equal(pk_diag_code_name(PK_E_DAMAGED), "damaged");
    assert_string_equal(pk_diag_code_name(PK_E_NOT_FOUND), "not-found");
    assert_string_equal(pk_diag_code_name(PK_E_LOSS), "loss");
    assert_string_equal(pk_diag_code_name((pk_diag_code)0), "?");
    pk_log_free(&log);
}

static void buffer_appends_little_endian(void **state)
{
    (void)state;
    pk_buf b;
    pk_buf_init(&b);
    pk_buf_u32le(&b, 0x04030201u);
    pk_buf_f32le(&b, 1.0f);
    pk_buf_puts(&b, "ab");
    pk_buf_printf(&b, "%d;", 93);
    const uint8_t want[] = {1, 2, 3, 4, 0x00, 0x00, 0x80, 0x3F, 'a', 'b', '9', '3', ';'};
    assert_int_equal(b.len, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);
    assert_false(b.oom);
    for (int i = 0; i < 100000; i++)
        pk_buf_putc(&b, (uint8_t)i);
    assert_int_equal(b.len, sizeof want + 100000);
    assert_int_equal(b.data[sizeof want + 99999], (uint8_t)99999);
    pk_buf_free(&b);
}

static void motion_model_basics(void **state)
{
    (void)state;
    pk_motion *m = pk_motion_new();
    assert_non_null(m);
    assert_int_equal(m->version, 2);
    assert_memory_equal(m->header, "Vocaloid Motion Data 0002\0\0\0\0\0", 30);
    assert_int_equal(m->sections, 6);
    uint32_t lo, hi;
    assert_false(pk_motion_frame_range(m, &lo, &hi));
    for (uint32_t i = 0; i < 100; i++) {
        pk_bone_key *k = pk_motion_push_bone(m);
        assert_non_null(k);
        k->frame = 100 - i;
        k->rot[3] = 1;
    }
    pk_ik_key *ik = pk_motion_push_ik(m, 3);
    ik->frame = 500;
    ik->ik[2].enabled = 1;
    assert_true(pk_motion_frame_range(m, &lo, &hi));
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 500);
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_motion_set_model(m, CENTER, sizeof CENTER, &log), 0);
    char *u = pk_motion_model_utf8(m);
    assert_string_equal(u, "センター");
    free(u);
    assert_int_equal(pk_motion_set_model(m, "123456789012345678901", 21, &log), -1);
    tu_assert_log_has(&log, "21 bytes");
    pk_log_free(&log);

    pk_motion *c = pk_motion_clone(m);
    assert_non_null(c);
    assert_int_equal(c->nbones, 100);
    assert_int_equal(c->niks, 1);
    assert_ptr_not_equal(c->iks[0].ik, m->iks[0].ik);
    assert_int_equal(c->iks[0].ik[2].enabled, 1);
    pk_motion_free(m);
    assert_int_equal(c->bones[99].frame, 1); /* the copy owns its memory */
    pk_motion_free(c);
    pk_motion_free(NULL);
}

static void linear_interp_layout(void **state)
{
    (void)state;
    /* doc/formats.md §3.4: a default key in a modern file */
    const uint8_t row0[16] = {0x14, 0x14, 0,    0,    0x14, 0x14, 0x14, 0x14,
                              0x6B, 0x6B, 0x6B, 0x6B, 0x6B, 0x6B, 0x6B, 0x6B};
    const uint8_t row1[16] = {0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x6B,
                              0x6B, 0x6B, 0x6B, 0x6B, 0x6B, 0x6B, 0x6B, 0x00};
    uint8_t ip[64];
    pk_interp_linear(ip);
    assert_memory_equal(ip, row0, 16);
    assert_memory_equal(ip + 16, row1, 16);
    assert_int_equal(ip[63], 0);
    assert_int_equal(ip[48], 0x14); /* R.x1 */
    uint8_t cam[24];
    pk_camera_interp_linear(cam);
    assert_int_equal(cam[0], 0x14);
    assert_int_equal(cam[1], 0x6B);
    assert_int_equal(cam[22], 0x14);
}

static void pose_model_basics(void **state)
{
    (void)state;
    pk_pose *p = pk_pose_new();
    pk_pose_bone *b = pk_pose_push_bone(p);
    assert_float_equal(b->rot[3], 1.0f, 0);
    b->name = pk_names_intern(p->names, "a", 1);
    b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, "a", 1);
    b->pos[0] = 2;
    assert_int_equal(pk_pose_find_bone(p, 0), 1); /* the last one wins */
    assert_int_equal(pk_pose_find_bone(p, 7), -1);
    pk_pose *c = pk_pose_clone(p);
    assert_int_equal(c->nbones, 2);
    assert_float_equal(c->bones[1].pos[0], 2.0f, 0);
    pk_pose_free(p);
    pk_pose_free(c);
}

static void pose_becomes_one_key_per_bone_and_morph(void **state)
{
    (void)state;
    pk_pose *p = pk_pose_new();
    assert_int_equal(pk_pose_set_model(p, "Miku", 4, NULL), 0);
    pk_pose_bone *b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, CENTER, sizeof CENTER);
    b->pos[1] = 1.5f;
    b->rot[0] = 0.5f;
    pk_pose_morph *mo = pk_pose_push_morph(p);
    mo->name = pk_names_intern(p->names, "a", 1);
    mo->weight = 0.25f;
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_pose_to_motion(p, 42, &log);
    assert_non_null(m);
    assert_int_equal(m->nbones, 1);
    assert_int_equal(m->nmorphs, 1);
    assert_int_equal(m->bones[0].frame, 42);
    assert_float_equal(m->bones[0].pos[1], 1.5f, 0);
    assert_float_equal(m->bones[0].rot[0], 0.5f, 0);
    assert_float_equal(m->bones[0].rot[3], 1.0f, 0);
    assert_string_equal(pk_names_utf8(m->names, m->bones[0].name), "センター");
    assert_float_equal(m->morphs[0].weight, 0.25f, 0);
    uint8_t lin[64];
    pk_interp_linear(lin);
    assert_memory_equal(m->bones[0].interp, lin, 64);
    const uint8_t *raw;
    assert_int_equal(pk_motion_model_raw(m, &raw), 4);
    assert_memory_equal(raw, "Miku", 4);
    pk_motion_free(m);
    /* a model name longer than the 20-byte field is cut on a character
     * boundary (11 x 2-byte characters = 22 bytes -> 20), with a warning */
    const uint8_t long_model[22] = {0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B,
                                    0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B,
                                    0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E};
    assert_int_equal(pk_pose_set_model(p, long_model, sizeof long_model, NULL), 0);
    m = pk_pose_to_motion(p, 0, &log);
    assert_non_null(m);
    assert_int_equal(pk_motion_model_raw(m, &raw), 20);
    assert_memory_equal(raw, long_model, 20);
    tu_assert_log_has(&log, "model name cut to 20 bytes");
    pk_motion_free(m);
    const uint8_t odd_model[21] = {'x',  0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B, 0x83, 0x5A,
                                   0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B, 0x83, 0x5A, 0x83, 0x93};
    assert_int_equal(pk_pose_set_model(p, odd_model, sizeof odd_model, NULL), 0);
    m = pk_pose_to_motion(p, 0, &log);
    assert_int_equal(pk_motion_model_raw(m, &raw), 19); /* never half a character */
    pk_motion_free(m);
    /* a 16-byte bone name has no VMD form: an error naming it */
    b = pk_pose_push_bone(p);
    b->name = pk_names_intern(p->names, "sixteen_bytes_xx", 16);
    assert_null(pk_pose_to_motion(p, 0, &log));
    tu_assert_log_has(&log, "sixteen_bytes_xx");
    pk_log_free(&log);
    pk_pose_free(p);
}

/* The one reader of option and job booleans: four words, nothing else;
 * anything else leaves *out alone. */
static void bool_words(void **state)
{
    (void)state;
    bool v = false;
    assert_true(pki_num_bool("true", &v) && v);
    assert_true(pki_num_bool("no", &v) && !v);
    assert_true(pki_num_bool("yes", &v) && v);
    assert_true(pki_num_bool("false", &v) && !v);
    v = true;
    assert_false(pki_num_bool("False", &v));
    assert_false(pki_num_bool("1", &v));
    assert_false(pki_num_bool("", &v));
    assert_false(pki_num_bool(" true", &v));
    assert_false(pki_num_bool(NULL, &v));
    assert_true(v);
}

/* The list an unknown key's message gives: every word, or as many whole
 * words as fit, never half of one. */
static void word_list_joins_whole_words(void **state)
{
    (void)state;
    static const char *const W[] = {"inputs", "rules", "steps", "outputs"};
    char b[64];
    assert_string_equal(pki_word_list(b, sizeof b, W, 4), "inputs, rules, steps, outputs");
    assert_string_equal(pki_word_list(b, 20, W, 4), "inputs, rules");
    assert_string_equal(pki_word_list(b, 6, W, 4), "");
    assert_string_equal(pki_word_list(b, sizeof b, W, 0), "");
    /* a slip names the word; the list is what it was checked against */
    assert_int_equal(pki_nearest_word("step", W, 4), 2);
    assert_int_equal(pki_nearest_word("xyzzy", W, 4), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bool_words),
        cmocka_unit_test(intern_gives_one_id_per_distinct_name),
        cmocka_unit_test(many_names_survive_rehashing),
        cmocka_unit_test(decodes_as_cp932),
        cmocka_unit_test(undecodable_bytes_are_escaped_and_kept),
        cmocka_unit_test(encodes_utf8_to_cp932_with_limits),
        cmocka_unit_test(character_boundary),
        cmocka_unit_test(name_cut_rule),
        cmocka_unit_test(utf8_code_points),
        cmocka_unit_test(log_formats_positions),
        cmocka_unit_test(buffer_appends_little_endian),
        cmocka_unit_test(motion_model_basics),
        cmocka_unit_test(linear_interp_layout),
        cmocka_unit_test(pose_model_basics),
        cmocka_unit_test(pose_becomes_one_key_per_bone_and_morph),
        cmocka_unit_test(word_list_joins_whole_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
