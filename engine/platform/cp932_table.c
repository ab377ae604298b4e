/*
 * cp932_table.c — the CP932 <-> UTF-8 calls of platform.h from a table,
 * for systems whose C library has no CP932 converter (Emscripten's musl).
 * The table, cp932_data.h, is made while building by cp932_gen.c from the
 * build machine's glibc iconv "CP932", the reference: every character
 * converts exactly as in cp932_iconv.c (tests/web checks the whole table
 * against it).
 */
#include "platform/platform.h"

#include <stdint.h>
#include <stdlib.h>

#include "cp932_data.h"

/* Nothing to open: a handle that is not NULL. */
struct pki_os_cp932 {
    int unused;
};

pki_os_cp932 *pki_os_cp932_open(void)
{
    return malloc(sizeof(pki_os_cp932));
}

void pki_os_cp932_close(pki_os_cp932 *c)
{
    free(c);
}

static int put_utf8(uint32_t cp, char *o)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    o[0] = (char)(0xE0 | cp >> 12);
    o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

/* The code point of a two-byte code whose first byte is a lead byte, or
 * 0xFFFF when it has none. */
static uint32_t pair_lookup(unsigned code)
{
    size_t lo = 0, hi = sizeof cp932_pairs / sizeof cp932_pairs[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp932_pairs[mid][0] == code)
            return cp932_pairs[mid][1];
        if (cp932_pairs[mid][0] < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0xFFFF;
}

int pki_os_cp932_decode(pki_os_cp932 *c, const uint8_t *in, size_t n, char out[8])
{
    if (!c || n < 1 || n > 2)
        return -1;
    uint32_t first = cp932_single[in[0]];
    if (n == 1)
        return first == 0xFFFF ? -1 : put_utf8(first, out);
    if (first != 0xFFFF) { /* a character of its own, then the second byte's */
        uint32_t second = cp932_single[in[1]];
        if (second == 0xFFFF)
            return -1;
        int k = put_utf8(first, out);
        return k + put_utf8(second, out + k);
    }
    uint32_t cp = pair_lookup((unsigned)in[0] << 8 | in[1]);
    return cp == 0xFFFF ? -1 : put_utf8(cp, out);
}

/* The one code point of in[0..n), strictly (no overlong form, surrogate,
 * value past U+10FFFF or stray byte), or -1. */
static long utf8_scalar(const unsigned char *s, size_t n)
{
    static const unsigned char lens[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 4};
    static const long mins[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t len = lens[s[0] >> 4];
    if (len == 0 || len != n)
        return -1;
    long cp = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < mins[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    return cp;
}

int pki_os_cp932_encode(pki_os_cp932 *c, const char *in, size_t n, uint8_t out[4])
{
    if (!c || n < 1)
        return -1;
    long cp = utf8_scalar((const unsigned char *)in, n);
    if (cp < 0)
        return -1;
    size_t lo = 0, hi = sizeof cp932_enc / sizeof cp932_enc[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp932_enc[mid][0] == (uint32_t)cp) {
            uint32_t b = cp932_enc[mid][1];
            if (b > 0xFF) {
                out[0] = (uint8_t)(b >> 8);
                out[1] = (uint8_t)b;
                return 2;
            }
            out[0] = (uint8_t)b;
            return 1;
        }
        if (cp932_enc[mid][0] < (uint32_t)cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}
