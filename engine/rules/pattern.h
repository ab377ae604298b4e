/*
 * pattern.h — private: a bone or morph name, or a glob with one '*', as
 * CP932 bytes (rules/pattern.c).  Used by the rules (rules.c), selections
 * (select.c) and the name-changing operations (rename.c, morph_weights.c, mirror.c,
 * retarget.c).
 *
 * A glob keeps its star as a byte offset: 0x2A is never a CP932 trail
 * byte, so a '*' in the encoded bytes is always the glob character.
 */
#ifndef PKI_RULES_PATTERN_H
#define PKI_RULES_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest name any rule may produce or match (IK fields are 20 bytes;
 * longer names are rejected before they reach the patterns). */
#define PKI_PATTERN_MAX 64

/* A name or a glob with one '*': raw[0..star) is the prefix, raw[star..len)
 * the suffix (the '*' itself is not stored).  star < 0: exact name. */
typedef struct pki_pattern {
    uint8_t raw[PKI_PATTERN_MAX];
    size_t len;
    long star;
} pki_pattern;

/* Compiles a UTF-8 name or glob into p.  Returns 0, or -1 with *why set to
 * a static message ("does not encode to CP932", "has more than one '*'",
 * "is longer than ... bytes"). */
int pki_pattern_compile(const char *utf8, bool allow_glob, pki_pattern *p, const char **why);
/* Whether name raw[0..len) matches p.  Exact patterns also match the name
 * as MMD stores it cut (pki_name_matches, model/names.h).
 * For a glob, cap_off and cap_len (may be NULL) receive where the star
 * matched and how long. */
bool pki_pattern_match(const pki_pattern *p, const uint8_t *raw, size_t len, size_t *cap_off,
                       size_t *cap_len);
/* Writes `to` with the capture raw[off..off+cap) of a glob `from` at its
 * '*' (nothing when `from` is exact) into out, which has room for
 * 3 × PKI_PATTERN_MAX bytes; returns the length written. */
size_t pki_pattern_expand(const pki_pattern *to, const pki_pattern *from, const uint8_t *raw,
                          size_t off, size_t cap, uint8_t *out);
#endif
