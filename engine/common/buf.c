/* buf.c — a growable byte buffer; writers append, one OOM flag to check. */
#include "common/grow.h"
#include "posekit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pk_buf_init(pk_buf *b)
{
    memset(b, 0, sizeof *b);
}

void pk_buf_free(pk_buf *b)
{
    if (!b)
        return;
    free(b->data);
    memset(b, 0, sizeof *b);
}

bool pk_buf_reserve(pk_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (extra <= b->cap - b->len)
        return true;
    if (extra > SIZE_MAX / 2 - b->len ||
        pki_grow_reserve(&b->data, &b->cap, b->len + extra, 1) != 0) {
        b->oom = true;
        return false;
    }
    return true;
}

void pk_buf_append(pk_buf *b, const void *data, size_t len)
{
    if (len == 0 || !pk_buf_reserve(b, len))
        return;
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

void pk_buf_putc(pk_buf *b, uint8_t c)
{
    if (b->len < b->cap && !b->oom) {
        b->data[b->len++] = c;
        return;
    }
    pk_buf_append(b, &c, 1);
}

void pk_buf_puts(pk_buf *b, const char *s)
{
    pk_buf_append(b, s, strlen(s));
}

void pk_buf_printf(pk_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0 || !pk_buf_reserve(b, (size_t)n + 1)) {
        if (n < 0)
            b->oom = true;
        va_end(ap);
        return;
    }
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    va_end(ap);
}

void pk_buf_u32le(pk_buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    pk_buf_append(b, x, 4);
}

void pk_buf_f32le(pk_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    pk_buf_u32le(b, u);
}

int pk_buf_sink(void *buf, const void *data, size_t len)
{
    pk_buf *b = buf;
    pk_buf_append(b, data, len);
    if (b->oom) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}
