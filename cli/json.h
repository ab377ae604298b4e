/*
 * json.h — dump's streaming JSON: the numbers and strings of
 * engine/util/json.h (the one JSON writer posekit has) written straight to
 * a FILE, one record per line, so that a dance of a million numbers is
 * never held whole (doc/formats.md §12).
 */
#ifndef POSEKIT_CLI_JSON_H
#define POSEKIT_CLI_JSON_H

#include "posekit.h"

#include <stdio.h>

void cj_put_float(FILE *f, float v);
void cj_put_floats(FILE *f, const float *v, size_t n); /* [a,b,c] */
void cj_put_u8s(FILE *f, const uint8_t *v, size_t n);  /* [1,2,3] */
void cj_put_string(FILE *f, const char *utf8);         /* quoted, escaped */
void cj_put_cp932(FILE *f, const void *raw, size_t len);

#endif
