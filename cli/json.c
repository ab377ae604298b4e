/* json.c — dump's streaming JSON over the one writer (json.h). */
#include "json.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

void cj_put_float(FILE *f, float v)
{
    char buf[PKI_JSON_NUM_MAX];
    fwrite(buf, 1, pki_json_float_text(v, buf), f);
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
    pk_buf b;
    pk_buf_init(&b);
    pki_json_str(&b, utf8);
    if (b.oom)
        fputs("null", f); /* out of memory: the stream's error is the caller's */
    else
        fwrite(b.data, 1, b.len, f);
    pk_buf_free(&b);
}

void cj_put_cp932(FILE *f, const void *raw, size_t len)
{
    char *s = pk_cp932_to_utf8(raw ? raw : "", raw ? len : 0, NULL);
    cj_put_string(f, s ? s : "");
    free(s);
}
