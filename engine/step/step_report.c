/* step_report.c — what the operations' reports share: JSON (compact, and
 * indented as jansson's JSON_INDENT(2) prints it), CSV fields and YAML
 * strings (step_internal.h). */
#include "common/number.h"
#include "common/utf8.h"
#include "step/step_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void pki_json_body(pk_buf *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned char c = *p;
        size_t n = pk_utf8_seq(p);
        if (n == 0) {
            pk_buf_printf(f, "\\\\x%02X", c);
            p++;
            continue;
        }
        if (c == '"' || c == '\\')
            pk_buf_printf(f, "\\%c", c);
        else if (c == '\b')
            pk_buf_puts(f, "\\b");
        else if (c == '\f')
            pk_buf_puts(f, "\\f");
        else if (c == '\n')
            pk_buf_puts(f, "\\n");
        else if (c == '\r')
            pk_buf_puts(f, "\\r");
        else if (c == '\t')
            pk_buf_puts(f, "\\t");
        else if (c < 0x20)
            pk_buf_printf(f, "\\u%04X", c);
        else
            pk_buf_append(f, p, n);
        p += n;
    }
}

void pki_json_str(pk_buf *f, const char *s)
{
    pk_buf_putc(f, '"');
    pki_json_body(f, s);
    pk_buf_putc(f, '"');
}

void pki_json_key(pk_buf *f, bool *first, const char *k)
{
    if (!*first)
        pk_buf_putc(f, ',');
    *first = false;
    pki_json_str(f, k);
    pk_buf_putc(f, ':');
}

double pki_round6(double x)
{
    return round(x * 1e6) / 1e6;
}

void pki_json_num6(pk_buf *f, bool *first, const char *k, double v)
{
    pki_json_key(f, first, k);
    pk_num_json(f, pki_round6(v));
}

void pki_json_frame(pk_buf *f, bool *first, const char *k, uint32_t frame)
{
    pki_json_key(f, first, k);
    pk_buf_printf(f, "%u", frame);
}

void pki_jo_item(pki_jout *j)
{
    if (j->depth == 0)
        return;
    if (j->count[j->depth]++)
        pk_buf_putc(j->f, ',');
    pk_buf_putc(j->f, '\n');
    for (int i = 0; i < j->depth * 2; i++)
        pk_buf_putc(j->f, ' ');
}

void pki_jo_open(pki_jout *j, char c)
{
    pk_buf_putc(j->f, (uint8_t)c);
    j->depth++;
    j->count[j->depth] = 0;
}

void pki_jo_close(pki_jout *j, char c)
{
    bool any = j->count[j->depth] > 0;
    j->depth--;
    if (any) {
        pk_buf_putc(j->f, '\n');
        for (int i = 0; i < j->depth * 2; i++)
            pk_buf_putc(j->f, ' ');
    }
    pk_buf_putc(j->f, (uint8_t)c);
}

void pki_jo_key(pki_jout *j, const char *k)
{
    pki_jo_item(j);
    pki_json_str(j->f, k);
    pk_buf_puts(j->f, ": ");
}

void pki_jo_str(pki_jout *j, const char *k, const char *v)
{
    pki_jo_key(j, k);
    pki_json_str(j->f, v);
}

void pki_jo_int(pki_jout *j, const char *k, long long v)
{
    pki_jo_key(j, k);
    pk_buf_printf(j->f, "%lld", v);
}

void pki_csv_field(pk_buf *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        pk_buf_puts(f, s);
        return;
    }
    pk_buf_putc(f, '"');
    for (; *s; s++) {
        if (*s == '"')
            pk_buf_putc(f, '"');
        pk_buf_putc(f, (uint8_t)*s);
    }
    pk_buf_putc(f, '"');
}

void pki_yaml_quoted(pk_buf *b, const char *s)
{
    pk_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            pk_buf_putc(b, '\\');
        pk_buf_putc(b, (uint8_t)*s);
    }
    pk_buf_putc(b, '"');
}
