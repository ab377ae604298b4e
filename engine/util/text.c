/* text.c — extensions, XML text, text widths (util/text.h). */
#include "util/text.h"

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
