/*
 * number.h — private: the one reader of decimal text numbers (VPD values,
 * rules files, job files, step options given on the command line), and
 * the writers of number text (%.6f without printf, JSON numbers).
 *
 * Locale-free by construction: no strtod on the caller's text.  The
 * grammar is [+-] (digits [. digits] | . digits) [(e|E) [+-] digits], '.'
 * only, whatever LC_NUMERIC says.  Binary32 results are correctly rounded
 * by exact big-integer arithmetic; binary64 results by strtod of a
 * rebuilt text with no decimal point (digits and an exponent read the same
 * in every locale).
 */
#ifndef PK_NUMBER_H
#define PK_NUMBER_H

#include "posekit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PK_NUM_NONFINITE: "nan", "inf" or "infinity" (any case), which Python-
 * and .NET-based VPD writers can produce; *out is set to the value. */
typedef enum pk_num_status {
    PK_NUM_OK = 0,
    PK_NUM_SYNTAX,
    PK_NUM_RANGE,
    PK_NUM_NONFINITE
} pk_num_status;

/* One number at the start of s[0..n); *used receives the bytes consumed
 * (the caller checks what follows).  Values beyond the float range are
 * PK_NUM_RANGE; those below half the smallest subnormal read as 0. */
pk_num_status pk_num_scan_float(const uint8_t *s, size_t n, size_t *used, float *out);

/* Whole-string readers: pk_num_double, pk_num_u32, pk_num_i64,
 * pk_num_range are public (posekit.h "Numbers"). */

/* x (finite) as "%.6f" text, exact, rounded half to even: what glibc
 * prints in the "C" locale, without printf.  Writes a NUL-terminated text
 * into out and returns its length. */
#define PK_NUM_F6_MAX 64 /* 39 integer digits + '.' + 6 + sign + NUL */
size_t pk_num_format_f6(float x, char out[PK_NUM_F6_MAX]);

/* v as a JSON number: %.9g with '.' whatever the locale, ".0" on integral
 * values, the exponent without '+' or leading zeros; null for NaN and
 * infinities, which JSON cannot hold (dump writes them so too).  Every
 * JSON the engine writes (step reports, draw) goes through it. */
void pk_num_json(pk_buf *f, double v);

#endif
