/* step_report.c — what the operations' reports share beyond JSON
 * (util/json.h): numbers rounded for reports, CSV fields and YAML strings
 * (step.h). */
#include "step/step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double pki_round6(double x)
{
    return round(x * 1e6) / 1e6;
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
