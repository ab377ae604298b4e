/*
 * json.h — the JSON conventions every posekit command shares.
 *
 * Two ways to emit JSON, one set of rules:
 *  - jansson trees (cj_* builders, printed with cj_print) for small
 *    reports such as `info --json` or `diff --json`;
 *  - a streaming writer (cj_put_*) for `dump`, whose output can hold
 *    millions of numbers and is printed one record per line.
 *
 * Rules (README "dump"):
 *  - floats are printed with the fewest significant digits (at most 9)
 *    that read back to the same 32-bit float; integral values get ".0" so
 *    they still read as floats; -0.0 stays -0.0;
 *  - NaN and infinities are not JSON: they are written as null;
 *  - names are UTF-8 (undecodable CP932 bytes already appear as \xNN in
 *    the names table); a byte sequence that is not valid UTF-8 is written
 *    as \xNN text rather than producing invalid JSON.
 */
#ifndef POSEKIT_CLI_JSON_H
#define POSEKIT_CLI_JSON_H

#include "posekit.h"

#include <jansson.h>
#include <stdio.h>

/* Shortest decimal text (at most 9 significant digits, C-locale '.') that
 * reads back to f; "null" for NaN/Inf.  buf needs CJ_FLOAT_BUF bytes.
 * Returns buf. */
#define CJ_FLOAT_BUF 32
const char *cj_format_float(float f, char buf[CJ_FLOAT_BUF]);

/* ---- jansson builders; each returns a new reference (NULL on OOM) ---- */

/* A float as a JSON real that prints as cj_format_float does (with
 * cj_print), or json_null() for NaN/Inf. */
json_t *cj_float(float f);
json_t *cj_float_array(const float *v, size_t n);
json_t *cj_u8_array(const uint8_t *v, size_t n);
/* A UTF-8 string; invalid UTF-8 bytes become \xNN text. */
json_t *cj_string(const char *utf8);
/* The UTF-8 form of an interned name. */
json_t *cj_name(const pk_names *t, pk_name_id id);
/* Raw CP932 bytes (e.g. a model name) decoded to a JSON string. */
json_t *cj_cp932(const void *raw, size_t len);

/* Prints a tree to f (compact unless indent > 0) followed by a newline,
 * with the float precision the rules above need.  Returns 0 or -1. */
int cj_print(FILE *f, const json_t *v, int indent);

/* ---- streaming writer ---- */

void cj_put_float(FILE *f, float v);
void cj_put_floats(FILE *f, const float *v, size_t n); /* [a,b,c] */
void cj_put_u8s(FILE *f, const uint8_t *v, size_t n);  /* [1,2,3] */
void cj_put_string(FILE *f, const char *utf8);         /* quoted, escaped */
void cj_put_cp932(FILE *f, const void *raw, size_t len);

#endif
