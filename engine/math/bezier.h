/* bezier.h — the curve solver shared by bezier.c, sample.c and cursor.c
 * (not part of the public API). */
#ifndef PKI_MATH_BEZIER_H
#define PKI_MATH_BEZIER_H

#include <stdint.h>

/* pk_bezier for a double s.  *hint is a Bezier parameter t to start
 * Newton from (the previous frame's, when stepping through a segment) or
 * any negative value for "none"; it receives the solved t.  Accurate to
 * ~1e-9 in y for every curve with control bytes 0..127. */
double pki_bezier_solve(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, double s, double *hint);

/* The Bezier parameter t in [0, 1] with x(t) = s for the x control bytes
 * x1, x2 (the robust solver behind pki_bezier_solve: guarded Newton, and
 * the closed form for x1 = 127, x2 = 0).  hint as above (a start, or any
 * value outside (0, 1) for none).  s <= 0 or NaN gives 0, s >= 1 gives 1. */
double pki_bezier_param(uint8_t x1, uint8_t x2, double s, double hint);

#endif
