/*
 * utf8.h — private: UTF-8 one code point at a time, for the few places
 * that walk UTF-8 text themselves (PMX names: model/skeleton.c; name
 * folding: ops/skeleton/check.c; JSON strings: step/step_report.c).  CP932 <->
 * UTF-8 conversion is model/names.c's (through the platform edge).
 */
#ifndef PKI_UTIL_UTF8_H
#define PKI_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length (1..4) of the well-formed UTF-8 sequence at s, or 0 when it is
 * not one (a stray continuation byte, an overlong form, a surrogate, a
 * code point past U+10FFFF, or a sequence cut short by s's NUL). */
static inline size_t pki_utf8_seq(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    uint32_t min, cp;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* Whether the len bytes at s are well-formed UTF-8, each sequence whole
 * within them (a name typed as CP932 bytes is not). */
static inline bool pki_utf8_valid(const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t k = pki_utf8_seq((const unsigned char *)s + i);
        if (k == 0 || k > len - i)
            return false;
        i += k;
    }
    return true;
}

/* The code point at s into *c and its length; a byte that does not start
 * a well-formed sequence is taken as itself, length 1. */
static inline size_t pki_utf8_next(const char *s, uint32_t *c)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = pki_utf8_seq(p);
    if (n <= 1) {
        *c = p[0];
        return 1;
    }
    uint32_t cp = p[0] & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (size_t i = 1; i < n; i++)
        cp = (cp << 6) | (p[i] & 0x3F);
    *c = cp;
    return n;
}

/* Writes code point c (at most U+10FFFF) as UTF-8 at d (room for 4
 * bytes); returns how many bytes. */
static inline size_t pki_utf8_put(char *d, uint32_t c)
{
    if (c < 0x80) {
        d[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        d[0] = (char)(0xC0 | c >> 6);
        d[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        d[0] = (char)(0xE0 | c >> 12);
        d[1] = (char)(0x80 | (c >> 6 & 0x3F));
        d[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | c >> 18);
    d[1] = (char)(0x80 | (c >> 12 & 0x3F));
    d[2] = (char)(0x80 | (c >> 6 & 0x3F));
    d[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

#endif
