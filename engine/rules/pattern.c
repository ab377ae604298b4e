/*
 * pattern.c — name patterns: an exact name or a glob with one '*'.
 *
 * Matching is on CP932 bytes, never on decoded text: the file's bytes are
 * the truth and decoding can fail on names MMD cut in the middle of a
 * character.  An exact pattern longer than a format's field also matches
 * the name as MMD would have stored it (names.c's pki_name_matches: cut at
 * 15 or 19 bytes, at the raw byte or the last character boundary;
 * doc/formats.md §4).
 *
 * This file depends on the name codec only, so the rules (rules.c) and
 * the selections (select.c) both build on it without needing each other
 * both ways.
 */
#include "rules/pattern.h"
#include "model/names.h"
#include "posekit.h"
#include "util/utf8.h"

#include <stdlib.h>
#include <string.h>

int pki_pattern_compile(const char *utf8, bool allow_glob, pki_pattern *p, const char **why)
{
    memset(p, 0, sizeof *p);
    p->star = -1;
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(utf8, &raw, &len) != 0) {
        /* a name typed as CP932 bytes (a shell in a CP932 locale) is no
         * UTF-8 at all: said so, not taken for a character CP932 lacks */
        *why = pki_utf8_valid(utf8, strlen(utf8)) ? "does not encode to CP932"
                                                  : "is not UTF-8 text (names are given in UTF-8)";
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
    } else if (len - stars > PKI_PATTERN_MAX) {
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

bool pki_pattern_match(const pki_pattern *p, const uint8_t *raw, size_t len, size_t *cap_off,
                       size_t *cap_len)
{
    if (p->star < 0)
        return pki_name_matches(p->raw, p->len, raw, len);
    size_t pre = (size_t)p->star, suf = p->len - pre;
    if (len < pre + suf)
        return false;
    if (memcmp(raw, p->raw, pre) != 0 || memcmp(raw + len - suf, p->raw + pre, suf) != 0)
        return false;
    /* The suffix must start a character: "*左" must not match a name whose
     * last double-byte character merely ends in the byte 0x8D. */
    if (suf && !pki_cp932_is_boundary(raw, len, len - suf))
        return false;
    if (cap_off)
        *cap_off = pre;
    if (cap_len)
        *cap_len = len - pre - suf;
    return true;
}

size_t pki_pattern_expand(const pki_pattern *to, const pki_pattern *from, const uint8_t *raw,
                          size_t off, size_t cap, uint8_t *out)
{
    if (to->star < 0) {
        memcpy(out, to->raw, to->len);
        return to->len;
    }
    /* Only a glob source captures (the loader refuses an exact source
     * with a glob target). */
    size_t pre = (size_t)to->star, suf = to->len - pre;
    if (from->star < 0)
        cap = 0;
    memcpy(out, to->raw, pre);
    memcpy(out + pre, raw + off, cap);
    memcpy(out + pre + cap, to->raw + pre, suf);
    return pre + cap + suf;
}
