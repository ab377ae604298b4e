/*
 * number.h — internal (util/, linked into the library and the posekit
 * program): the one reader of decimal text numbers (VPD values, rules
 * files, job files, step options given on the command line) and the
 * exact %.6f writer VPD needs.
 *
 * Locale-free by construction: no strtod on the caller's text.  The
 * grammar is [+-] (digits [. digits] | . digits) [(e|E) [+-] digits], '.'
 * only, whatever LC_NUMERIC says.  Binary32 results are correctly rounded
 * by exact big-integer arithmetic; binary64 results by strtod of a
 * rebuilt text with no decimal point (digits and an exponent read the same
 * in every locale).
 */
#ifndef PKI_UTIL_NUMBER_H
#define PKI_UTIL_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PKI_NUM_NONFINITE: "nan", "inf" or "infinity" (any case), which Python-
 * and .NET-based VPD writers can produce; *out is set to the value. */
typedef enum pki_num_status {
    PKI_NUM_OK = 0,
    PKI_NUM_SYNTAX,
    PKI_NUM_RANGE,
    PKI_NUM_NONFINITE
} pki_num_status;

/* One number at the start of s[0..n); *used receives the bytes consumed
 * (the caller checks what follows).  Values beyond the float range are
 * PKI_NUM_RANGE; those below half the smallest subnormal read as 0. */
pki_num_status pki_num_scan_float(const uint8_t *s, size_t n, size_t *used, float *out);

/* Whole-string readers (NUL-terminated; no blanks, nothing after the
 * number).  They return false on any other text and leave *out alone. */
bool pki_num_double(const char *s, double *out);             /* finite; nan/inf refused */
bool pki_num_u32(const char *s, uint32_t *out);              /* digits only, 0..4294967295 */
bool pki_num_i64(const char *s, int64_t *out);               /* [+-]digits within +-4294967295 */
bool pki_num_range(const char *s, uint32_t *a, uint32_t *b); /* "A-B" (A <= B) or "N" */
bool pki_num_bool(const char *s, bool *out); /* "true"/"yes" or "false"/"no" (options, jobs) */

/* x (finite) as "%.6f" text, exact, rounded half to even: what glibc
 * prints in the "C" locale, without printf.  Writes a NUL-terminated text
 * into out and returns its length. */
#define PKI_NUM_F6_MAX 64 /* 39 integer digits + '.' + 6 + sign + NUL */
size_t pki_num_format_f6(float x, char out[PKI_NUM_F6_MAX]);

#endif
