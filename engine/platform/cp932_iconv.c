/*
 * cp932_iconv.c — the CP932 <-> UTF-8 calls of platform.h through the C
 * library's iconv "CP932" (glibc's on Linux, which is the reference table:
 * win32.c and cp932_table.c convert every character as it does).
 */
#include "platform/platform.h"

#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>

struct pki_os_cp932 {
    iconv_t dec, enc; /* each opened when first needed */
};

pki_os_cp932 *pki_os_cp932_open(void)
{
    pki_os_cp932 *c = malloc(sizeof *c);
    if (c) {
        c->dec = (iconv_t)-1;
        c->enc = (iconv_t)-1;
    }
    return c;
}

void pki_os_cp932_close(pki_os_cp932 *c)
{
    if (!c)
        return;
    if (c->dec != (iconv_t)-1)
        iconv_close(c->dec);
    if (c->enc != (iconv_t)-1)
        iconv_close(c->enc);
    free(c);
}

static int convert(iconv_t *cd, const char *to, const char *from, const void *in, size_t n,
                   char *out, size_t cap)
{
    if (!cd)
        return -1;
    if (*cd == (iconv_t)-1 && (*cd = iconv_open(to, from)) == (iconv_t)-1)
        return -1;
    char *ip = (char *)(uintptr_t)in;
    size_t inleft = n;
    char *op = out;
    size_t oleft = cap;
    iconv(*cd, NULL, NULL, NULL, NULL);
    if (iconv(*cd, &ip, &inleft, &op, &oleft) == (size_t)-1 || inleft)
        return -1;
    return (int)(op - out);
}

int pki_os_cp932_decode(pki_os_cp932 *c, const uint8_t *in, size_t n, char out[8])
{
    return convert(c ? &c->dec : NULL, "UTF-8", "CP932", in, n, out, 8);
}

int pki_os_cp932_encode(pki_os_cp932 *c, const char *in, size_t n, uint8_t out[4])
{
    return convert(c ? &c->enc : NULL, "CP932", "UTF-8", in, n, (char *)out, 4);
}
