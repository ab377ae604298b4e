/*
 * cp932_table.c — prints posekit's whole CP932 table, both ways, through
 * the platform edge (pki_os_cp932_decode / pki_os_cp932_encode).
 *
 * Built twice by tests/windows/wine.sh: for Linux (engine/platform/posix.c:
 * glibc iconv "CP932") and for Windows (engine/platform/win32.c: code page
 * 932 through MultiByteToWideChar / WideCharToMultiByte, run under Wine).
 * The two outputs must be the same text (doc/windows.md "Japanese paths
 * and text").
 *
 * Output, one line per success (a failure prints nothing):
 *   d XXXX U+YYYY   CP932 bytes XX or XXXX decode to code point YYYY
 *   e U+YYYY XXXX   code point YYYY encodes to CP932 bytes
 * Decoded: every single byte and every two-byte sequence with a lead byte
 * 0x80-0xFF.  Encoded: every Unicode scalar value U+0000-U+10FFFF.
 * Last line: "total d N e N".
 */
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>

static int utf8_encode(unsigned cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The one code point of a UTF-8 string of length n, or -1 when it holds
 * more than one (or is not UTF-8). */
static long utf8_single(const unsigned char *s, int n)
{
    int want = s[0] < 0x80 ? 1 : s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (want == 0 || want != n)
        return -1;
    long cp = want == 1 ? s[0] : s[0] & (0x3F >> (want - 1));
    for (int i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3F);
    return cp;
}

static void print_decoded(const uint8_t *in, size_t n, const char *u, int nu, unsigned long *count)
{
    long cp = utf8_single((const unsigned char *)u, nu);
    if (n == 1)
        printf("d %02X ", in[0]);
    else
        printf("d %02X%02X ", in[0], in[1]);
    if (cp >= 0)
        printf("U+%04lX\n", (unsigned long)cp);
    else { /* more than one code point: print them all as UTF-8 bytes */
        for (int i = 0; i < nu; i++)
            printf("%s%02X", i ? "." : "utf8:", (unsigned char)u[i]);
        printf("\n");
    }
    (*count)++;
}

int main(void)
{
    pki_os_cp932 *c = pki_os_cp932_open();
    if (!c) {
        fprintf(stderr, "cp932_table: no CP932 converter\n");
        return 2;
    }
    unsigned long nd = 0, ne = 0;
    char u[8];
    for (unsigned b = 0; b < 0x100; b++) {
        uint8_t in[2] = {(uint8_t)b, 0};
        int nu = pki_os_cp932_decode(c, in, 1, u);
        if (nu > 0)
            print_decoded(in, 1, u, nu, &nd);
    }
    for (unsigned lead = 0x80; lead < 0x100; lead++)
        for (unsigned trail = 0; trail < 0x100; trail++) {
            uint8_t in[2] = {(uint8_t)lead, (uint8_t)trail};
            int nu = pki_os_cp932_decode(c, in, 2, u);
            if (nu > 0)
                print_decoded(in, 2, u, nu, &nd);
        }
    for (unsigned cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        char s[4];
        int ns = utf8_encode(cp, s);
        uint8_t out[4];
        int nb = pki_os_cp932_encode(c, s, (size_t)ns, out);
        if (nb == 1)
            printf("e U+%04X %02X\n", cp, out[0]);
        else if (nb == 2)
            printf("e U+%04X %02X%02X\n", cp, out[0], out[1]);
        else if (nb > 2)
            printf("e U+%04X bad-length-%d\n", cp, nb);
        if (nb > 0)
            ne++;
    }
    printf("total d %lu e %lu\n", nd, ne);
    pki_os_cp932_close(c);
    return fflush(stdout) == 0 ? 0 : 2;
}
