/* json.c — the one JSON writer (util/json.h). */
#include "util/json.h"
#include "util/utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pki_json_body(pk_buf *b, const char *utf8)
{
    const unsigned char *p = (const unsigned char *)(utf8 ? utf8 : "");
    while (*p) {
        unsigned char c = *p;
        size_t n = pki_utf8_seq(p);
        if (n == 0) {
            pk_buf_printf(b, "\\\\x%02X", c);
            p++;
            continue;
        }
        if (c == '"' || c == '\\')
            pk_buf_printf(b, "\\%c", c);
        else if (c == '\b')
            pk_buf_puts(b, "\\b");
        else if (c == '\f')
            pk_buf_puts(b, "\\f");
        else if (c == '\n')
            pk_buf_puts(b, "\\n");
        else if (c == '\r')
            pk_buf_puts(b, "\\r");
        else if (c == '\t')
            pk_buf_puts(b, "\\t");
        else if (c < 0x20)
            pk_buf_printf(b, "\\u%04X", c);
        else
            pk_buf_append(b, p, n);
        p += n;
    }
}

void pki_json_str(pk_buf *b, const char *utf8)
{
    pk_buf_putc(b, '"');
    pki_json_body(b, utf8);
    pk_buf_putc(b, '"');
}

/* ---- numbers ---- */

/* A %g text (in the locale's notation) as JSON: '.' for the decimal
 * point, ".0" after an integral value, the exponent without '+' or
 * leading zeros.  out holds PKI_JSON_NUM_MAX bytes. */
static size_t json_number_text(const char *raw, char *out)
{
    size_t o = 0;
    bool point = false;
    for (const char *p = raw; *p && o < PKI_JSON_NUM_MAX - 3; p++) {
        bool plain = (*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == 'e';
        if (plain)
            out[o++] = *p;
        else if (!point || out[o - 1] != '.')
            out[o++] = '.', point = true; /* the locale's decimal point */
    }
    out[o] = '\0';
    char *e = strchr(out, 'e');
    if (!point && !e) {
        memcpy(out + o, ".0", 3);
        return o + 2;
    }
    if (e) {
        char *q = e + 1, *r = e + 1;
        if (*r == '+')
            r++;
        else if (*r == '-')
            q++, r++;
        while (*r == '0' && r[1])
            r++;
        memmove(q, r, strlen(r) + 1);
    }
    return strlen(out);
}

void pki_json_num(pk_buf *b, double v)
{
    if (!isfinite(v)) {
        pk_buf_puts(b, "null");
        return;
    }
    char raw[64], out[PKI_JSON_NUM_MAX];
    snprintf(raw, sizeof raw, "%.9g", v);
    json_number_text(raw, out);
    pk_buf_puts(b, out);
}

/* Whether f printed with prec significant digits reads back to f (in the
 * locale's notation both ways). */
static bool reads_back(float f, int prec, char *buf, size_t size)
{
    snprintf(buf, size, "%.*g", prec, (double)f);
    float back = strtof(buf, NULL);
    return memcmp(&back, &f, sizeof f) == 0;
}

size_t pki_json_float_text(float v, char *out)
{
    if (!isfinite(v)) {
        memcpy(out, "null", 5);
        return 4;
    }
    /* If p significant digits read back to v, so do p+1 (the text only
     * gets closer): the smallest p in 1..9 by bisection; 9 always works
     * for binary32. */
    char buf[48];
    int lo = 1, hi = 9;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (reads_back(v, mid, buf, sizeof buf))
            hi = mid;
        else
            lo = mid + 1;
    }
    reads_back(v, lo, buf, sizeof buf);
    /* %g picks "1e+01" for 10 at one digit; below 1e9 plain digits, as
     * %.9g prints them, read better and still read back */
    const char *e = strchr(buf, 'e');
    if (e) {
        int exp10 = atoi(e + 1);
        if (exp10 >= 0 && exp10 < 9)
            reads_back(v, exp10 + 1 > lo ? exp10 + 1 : lo, buf, sizeof buf);
    }
    return json_number_text(buf, out);
}

void pki_json_float(pk_buf *b, float v)
{
    char out[PKI_JSON_NUM_MAX];
    size_t n = pki_json_float_text(v, out);
    pk_buf_append(b, out, n);
}

/* ---- containers ---- */

pki_json pki_json_begin(pk_buf *b, bool indent)
{
    pki_json j;
    memset(&j, 0, sizeof j);
    j.b = b;
    j.indent = indent;
    return j;
}

static void newline(pki_json *j)
{
    pk_buf_putc(j->b, '\n');
    for (int i = 0; i < j->depth * 2; i++)
        pk_buf_putc(j->b, ' ');
}

void pki_json_item(pki_json *j)
{
    if (j->depth == 0)
        return;
    if (j->count[j->depth]++)
        pk_buf_putc(j->b, ',');
    if (j->indent)
        newline(j);
}

void pki_json_open(pki_json *j, char c)
{
    pk_buf_putc(j->b, (uint8_t)c);
    if (j->depth + 1 < (int)(sizeof j->count / sizeof j->count[0]))
        j->depth++;
    j->count[j->depth] = 0;
}

void pki_json_close(pki_json *j, char c)
{
    bool any = j->count[j->depth] > 0;
    j->depth--;
    if (any && j->indent)
        newline(j);
    pk_buf_putc(j->b, (uint8_t)c);
}

void pki_json_key(pki_json *j, const char *k)
{
    pki_json_item(j);
    pki_json_str(j->b, k);
    pk_buf_puts(j->b, j->indent ? ": " : ":");
}

void pki_json_kstr(pki_json *j, const char *k, const char *v)
{
    pki_json_key(j, k);
    if (v)
        pki_json_str(j->b, v);
    else
        pk_buf_puts(j->b, "null");
}

void pki_json_kint(pki_json *j, const char *k, long long v)
{
    pki_json_key(j, k);
    pk_buf_printf(j->b, "%lld", v);
}

void pki_json_knum(pki_json *j, const char *k, double v)
{
    pki_json_key(j, k);
    pki_json_num(j->b, v);
}

void pki_json_kbool(pki_json *j, const char *k, bool v)
{
    pki_json_key(j, k);
    pk_buf_puts(j->b, v ? "true" : "false");
}
