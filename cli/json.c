/* json.c — shared JSON helpers: round-trip floats, safe strings (json.h). */
#include "json.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- floats */

static bool float_text_ok(float f, int prec, char *buf, size_t size)
{
    /* At most 9 digits of a binary32 fit easily in CJ_FLOAT_BUF; the big
     * scratch buffer only keeps gcc's truncation analysis quiet. */
    char tmp[400];
    snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
    snprintf(buf, size, "%.31s", tmp);
    /* strtof reads what snprintf wrote in the same locale, so the check
     * holds whatever LC_NUMERIC is; the '.' is fixed up afterwards. */
    float back = strtof(buf, NULL);
    return memcmp(&back, &f, sizeof f) == 0;
}

/* Writes the shortest round-tripping text of a finite f into buf, in the
 * current locale's notation. */
static void shortest_text(float f, char buf[CJ_FLOAT_BUF])
{
    /* If p significant digits read back to f, so do p+1 (the text only gets
     * closer), so binary-search the smallest p in 1..9; 9 always works for
     * binary32. */
    int lo = 1, hi = 9;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (float_text_ok(f, mid, buf, CJ_FLOAT_BUF))
            hi = mid;
        else
            lo = mid + 1;
    }
    float_text_ok(f, lo, buf, CJ_FLOAT_BUF);
    /* %g picks "1e+01" for 10 at one digit; below 1e9 plain digits read
     * better and still round-trip (more digits never hurt). */
    const char *e = strchr(buf, 'e');
    if (e) {
        int exp10 = atoi(e + 1);
        if (exp10 >= 0 && exp10 < 9)
            float_text_ok(f, exp10 + 1 > lo ? exp10 + 1 : lo, buf, CJ_FLOAT_BUF);
    }
}

const char *cj_format_float(float f, char buf[CJ_FLOAT_BUF])
{
    if (!isfinite(f)) {
        strcpy(buf, "null");
        return buf;
    }
    shortest_text(f, buf);
    /* Locale-independent output: whatever the decimal point is, write '.'. */
    const char *dp = localeconv()->decimal_point;
    if (dp && strcmp(dp, ".") != 0 && *dp) {
        char *at = strstr(buf, dp);
        if (at) {
            size_t dl = strlen(dp);
            *at = '.';
            memmove(at + 1, at + dl, strlen(at + dl) + 1);
        }
    }
    if (!strpbrk(buf, ".e"))
        strcat(buf, ".0");
    return buf;
}

/* -------------------------------------------------------------- strings */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned min;
    unsigned cp;
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

/* Copy of s with every byte that is not part of valid UTF-8 replaced by
 * the text \xNN.  Caller frees; NULL on OOM. */
static char *utf8_sanitize(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(len * 4 + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_seq(p);
        if (n == 0) {
            o += (size_t)sprintf(out + o, "\\x%02X", *p);
            p++;
        } else {
            memcpy(out + o, p, n);
            o += n;
            p += n;
        }
    }
    out[o] = '\0';
    return out;
}

json_t *cj_string(const char *utf8)
{
    if (!utf8)
        return json_string("");
    json_t *v = json_string(utf8);
    if (v)
        return v;
    char *clean = utf8_sanitize(utf8);
    if (!clean)
        return NULL;
    v = json_string(clean);
    free(clean);
    return v;
}

json_t *cj_name(const pk_names *t, pk_name_id id)
{
    return cj_string(pk_names_utf8(t, id));
}

json_t *cj_cp932(const void *raw, size_t len)
{
    char *s = pk_cp932_to_utf8(raw ? raw : "", raw ? len : 0, NULL);
    if (!s)
        return NULL;
    json_t *v = cj_string(s);
    free(s);
    return v;
}

/* --------------------------------------------------------- jansson trees */

json_t *cj_float(float f)
{
    if (!isfinite(f))
        return json_null();
    char buf[CJ_FLOAT_BUF];
    shortest_text(f, buf);
    /* The shortest text, read as a double, prints back as that same text
     * at 9 significant digits (cj_print's precision; jansson itself writes
     * '.' whatever the locale). */
    return json_real(strtod(buf, NULL));
}

json_t *cj_float_array(const float *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, cj_float(v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *cj_u8_array(const uint8_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_integer(v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

int cj_print(FILE *f, const json_t *v, int indent)
{
    size_t flags = JSON_REAL_PRECISION(9) | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER;
    flags |= indent > 0 ? JSON_INDENT(indent) : JSON_COMPACT;
    if (json_dumpf(v, f, flags) != 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

/* ------------------------------------------------------------- streaming */

void cj_put_float(FILE *f, float v)
{
    char buf[CJ_FLOAT_BUF];
    fputs(cj_format_float(v, buf), f);
}

void cj_put_floats(FILE *f, const float *v, size_t n)
{
    putc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            putc(',', f);
        cj_put_float(f, v[i]);
    }
    putc(']', f);
}

void cj_put_u8s(FILE *f, const uint8_t *v, size_t n)
{
    /* Hot path of `dump` (64 per bone key): no printf. */
    char buf[4 * 64 + 2];
    size_t o = 0;
    putc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (o > sizeof buf - 5) {
            fwrite(buf, 1, o, f);
            o = 0;
        }
        if (i)
            buf[o++] = ',';
        unsigned x = v[i];
        if (x >= 100)
            buf[o++] = (char)('0' + x / 100);
        if (x >= 10)
            buf[o++] = (char)('0' + x / 10 % 10);
        buf[o++] = (char)('0' + x % 10);
    }
    fwrite(buf, 1, o, f);
    putc(']', f);
}

void cj_put_string(FILE *f, const char *utf8)
{
    putc('"', f);
    const unsigned char *p = (const unsigned char *)(utf8 ? utf8 : "");
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            putc('\\', f);
            putc(c, f);
            p++;
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
            p++;
        } else {
            size_t n = utf8_seq(p);
            if (n == 0) {
                /* Not UTF-8: show the byte as the text \xNN (JSON: "\\xNN"). */
                fprintf(f, "\\\\x%02X", c);
                p++;
            } else {
                fwrite(p, 1, n, f);
                p += n;
            }
        }
    }
    putc('"', f);
}

void cj_put_cp932(FILE *f, const void *raw, size_t len)
{
    char *s = pk_cp932_to_utf8(raw ? raw : "", raw ? len : 0, NULL);
    cj_put_string(f, s ? s : "");
    free(s);
}
