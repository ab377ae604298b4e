/*
 * pattern.c — name patterns: an exact name or a glob with one '*'.
 *
 * Matching is on CP932 bytes, never on decoded text: the file's bytes are
 * the truth and decoding can fail on names MMD cut in the middle of a
 * character.  An exact pattern longer than a format's field also matches
 * the name as MMD would have stored it: cut at 15 bytes (VMD) or 19 bytes
 * (VPD), either at the raw byte (which may leave a lone lead byte) or at the
 * last character boundary (doc/formats.md §4).
 *
 * This file depends on the name codec only, so the rules (rules.c) and
 * the selections (select.c) both build on it without needing each other
 * both ways.
 */
#include "rules/pattern.h"
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

static bool is_lead(uint8_t b)
{
    return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC);
}

bool pk_cp932_is_boundary(const uint8_t *raw, size_t len, size_t pos)
{
    size_t i = 0;
    while (i < pos && i < len)
        i += is_lead(raw[i]) ? 2 : 1;
    return i == pos;
}

int pk_pattern_compile(const char *utf8, bool allow_glob, pk_pattern *p, const char **why)
{
    memset(p, 0, sizeof *p);
    p->star = -1;
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(utf8, &raw, &len) != 0) {
        *why = "does not encode to CP932";
        return -1;
    }
    int rc = 0;
    size_t stars = 0;
    for (size_t i = 0; i < len; i++)
        stars += raw[i] == '*';
    if (len == 0) {
        *why = "is empty";
        rc = -1;
    } else if (stars > 1) {
        *why = "has more than one '*'";
        rc = -1;
    } else if (stars == 1 && !allow_glob) {
        *why = "may not contain '*' here";
        rc = -1;
    } else if (len - stars > PK_PATTERN_MAX) {
        *why = "is too long";
        rc = -1;
    } else {
        size_t o = 0;
        for (size_t i = 0; i < len; i++) {
            if (raw[i] == '*')
                p->star = (long)i;
            else
                p->raw[o++] = raw[i];
        }
        p->len = o;
    }
    free(raw);
    return rc;
}

static bool match_cut(const pk_pattern *p, const uint8_t *raw, size_t len, size_t field)
{
    if (p->len <= field || len > field)
        return false;
    if (len == field && memcmp(raw, p->raw, field) == 0)
        return true;
    size_t b = pk_cp932_boundary(p->raw, field);
    return len == b && memcmp(raw, p->raw, b) == 0;
}

bool pk_pattern_match(const pk_pattern *p, const uint8_t *raw, size_t len, size_t *cap_off,
                      size_t *cap_len)
{
    if (p->star < 0) {
        if (len == p->len && memcmp(raw, p->raw, len) == 0)
            return true;
        return match_cut(p, raw, len, PK_VMD_NAME_BYTES) ||
               match_cut(p, raw, len, PK_VPD_NAME_BYTES);
    }
    size_t pre = (size_t)p->star, suf = p->len - pre;
    if (len < pre + suf)
        return false;
    if (memcmp(raw, p->raw, pre) != 0 || memcmp(raw + len - suf, p->raw + pre, suf) != 0)
        return false;
    /* The suffix must start a character: "*左" must not match a name whose
     * last double-byte character merely ends in the byte 0x8D. */
    if (suf && !pk_cp932_is_boundary(raw, len, len - suf))
        return false;
    if (cap_off)
        *cap_off = pre;
    if (cap_len)
        *cap_len = len - pre - suf;
    return true;
}
