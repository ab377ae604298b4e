/* text.c — extensions, XML text, text widths (util/text.h). */
#include "util/text.h"

#include <stdio.h>
#include <string.h>

bool pki_path_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n <= e)
        return false;
    for (size_t i = 0; i < e; i++) {
        char a = path[n - e + i], b = ext[i];
        a = a >= 'A' && a <= 'Z' ? (char)(a - 'A' + 'a') : a;
        b = b >= 'A' && b <= 'Z' ? (char)(b - 'A' + 'a') : b;
        if (a != b)
            return false;
    }
    return true;
}

void pki_buf_puts_xml(pk_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            pk_buf_puts(b, "&amp;");
            break;
        case '<':
            pk_buf_puts(b, "&lt;");
            break;
        case '>':
            pk_buf_puts(b, "&gt;");
            break;
        case '"':
            pk_buf_puts(b, "&quot;");
            break;
        default:
            pk_buf_putc(b, c < 0x20 && c != '\t' ? '?' : c);
        }
    }
}

double pki_text_width(const char *utf8, double size, bool bold)
{
    double w = 0.0;
    for (const unsigned char *p = (const unsigned char *)utf8; *p; p++) {
        if (*p >= 0x80)
            w += *p >= 0xE0 ? 1.0 : *p >= 0xC0 ? 0.65 : 0.0;
        else if (strchr(" ijl',.:;|!Ift()[]-/", *p))
            w += 0.36;
        else if (strchr("mwMW@%", *p))
            w += 0.95;
        else
            w += *p >= 'A' && *p <= 'Z' ? 0.72 : 0.62;
    }
    return w * size * (bold ? 1.08 : 1.0);
}

/* A letter as the slip test compares it: ASCII lower case, '_' as '-'. */
static int fold(char c)
{
    return c == '_' ? '-' : c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : (unsigned char)c;
}

/* The optimal string alignment distance between a[0..na) and b[0..nb)
 * (insertions, deletions, substitutions and swaps of two neighbours each
 * cost 1), letters folded; nb <= 63. */
static size_t osa_distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t d[3][64]; /* rows i-2, i-1 and i, row i at i modulo 3 */
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t *r = d[i % 3], *p = d[(i - 1) % 3], *pp = d[(i + 1) % 3];
        r[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            int ca = fold(a[i - 1]), cb = fold(b[j - 1]);
            size_t v = p[j - 1] + (ca != cb);
            if (p[j] + 1 < v)
                v = p[j] + 1;
            if (r[j - 1] + 1 < v)
                v = r[j - 1] + 1;
            if (i > 1 && j > 1 && ca == fold(b[j - 2]) && cb == fold(a[i - 2]) && pp[j - 2] + 1 < v)
                v = pp[j - 2] + 1;
            r[j] = v;
        }
    }
    return d[na % 3][nb];
}

long pki_nearest_word(const char *given, const char *const *words, size_t n)
{
    size_t len = strlen(given);
    if (len == 0 || len > 63)
        return -1;
    size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    long best = -1, prefix = -1;
    size_t best_d = limit + 1, prefixes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t wl = strlen(words[i]);
        if (wl > 63)
            continue;
        if (len >= 3 && len < wl && osa_distance(given, len, words[i], len) == 0) {
            prefix = (long)i;
            prefixes++;
        }
        size_t d = osa_distance(given, len, words[i], wl);
        if (d < best_d) {
            best_d = d;
            best = (long)i;
        }
    }
    if (best >= 0)
        return best;
    return prefixes == 1 ? prefix : -1;
}

const char *pki_word_list(char *buf, size_t size, const char *const *words, size_t n)
{
    size_t o = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t need = strlen(words[i]) + (i ? 2 : 0);
        if (o + need >= size)
            break;
        o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", words[i]);
    }
    return buf;
}
