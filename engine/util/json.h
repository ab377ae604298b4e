/*
 * json.h — internal (util/, linked into the library and the posekit
 * program): the one JSON writer of posekit.  Every JSON posekit prints
 * (step reports, draw's world transforms, info, dump, merge) is written
 * with it, byte for byte what jansson prints with 9 digits of precision:
 *
 *  - strings: '"' and '\' escaped, \b \f \n \r \t, other control bytes as
 *    \u00XX (upper case), UTF-8 as it is; a byte that is not part of
 *    well-formed UTF-8 becomes the text \xNN (JSON "\\xNN"), so the
 *    output is always valid JSON;
 *  - numbers: %.9g (a double) or the fewest digits that read back to the
 *    same binary32 (a float), '.' whatever the locale, ".0" after an
 *    integral value, the exponent without '+' or leading zeros; NaN and
 *    infinities, which JSON cannot hold, as null;
 *  - containers compact (',' and ':') or indented as JSON_INDENT(2)
 *    (", " nowhere, ": " after keys, empty containers as {} and []).
 */
#ifndef PKI_UTIL_JSON_H
#define PKI_UTIL_JSON_H

#include "posekit.h"

/* A string, quoted; its body alone (between quotes the caller writes). */
void pki_json_str(pk_buf *b, const char *utf8);
void pki_json_body(pk_buf *b, const char *utf8);
/* A number: a double at 9 significant digits; a float at the fewest
 * digits that read back to it. */
void pki_json_num(pk_buf *b, double v);
void pki_json_float(pk_buf *b, float v);
/* The float's text into out (at least PKI_JSON_NUM_MAX bytes); returns
 * its length. */
#define PKI_JSON_NUM_MAX 40
size_t pki_json_float_text(float v, char *out);

/* Containers, compact or indented. */
typedef struct pki_json {
    pk_buf *b;
    bool indent; /* JSON_INDENT(2); else compact */
    int depth;
    size_t count[16]; /* items written at each depth */
} pki_json;
/* A writer appending to b. */
pki_json pki_json_begin(pk_buf *b, bool indent);
void pki_json_open(pki_json *j, char c); /* '{' or '[' */
void pki_json_close(pki_json *j, char c);
void pki_json_item(pki_json *j);               /* before an array's item */
void pki_json_key(pki_json *j, const char *k); /* a member's key and ':' */
/* Members: a string (NULL: null), a whole number, a double, a boolean. */
void pki_json_kstr(pki_json *j, const char *k, const char *v);
void pki_json_kint(pki_json *j, const char *k, long long v);
void pki_json_knum(pki_json *j, const char *k, double v);
void pki_json_kbool(pki_json *j, const char *k, bool v);

#endif
