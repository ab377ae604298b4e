/* names_internal.h — name conversions the codecs need beyond posekit.h. */
#ifndef PK_NAMES_INTERNAL_H
#define PK_NAMES_INTERNAL_H

#include "posekit.h"

/* UTF-8 utf8[0..n) (need not be NUL-terminated) to CP932, byte for byte
 * what the text says: no \xNN escapes are decoded.  *out is malloc'd
 * (caller frees); -1 when a character has no CP932 form, or on OOM. */
int pk_utf8_to_cp932_exact(const char *utf8, size_t n, uint8_t **out, size_t *out_len);
/* True when every non-ASCII character of raw[0..len) decodes as CP932. */
bool pk_cp932_valid(const void *raw, size_t len);

#endif
