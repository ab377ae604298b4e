/*
 * fmath.h — internal (util/, linked into the library and the posekit
 * program): posekit's own elementary functions, the only ones the engine
 * calls.  The C library's sin, cos, atan2, pow, ... differ in the last bit
 * from one C library to another (glibc, musl under WebAssembly, mingw-w64)
 * and glibc's even from one x86-64 to another (its FMA variants), so a
 * result computed through them is not the same bytes everywhere.  These
 * are written with the IEEE-754 basic operations only (+ - * /, sqrt,
 * which every platform rounds correctly), integer bit operations and
 * exactly representable constants (tests/fmath/constants.py derives them),
 * and compiled without contraction into FMA (-ffp-contract=off, the top
 * meson.build): the same bits on every platform.
 *
 * Accuracy: one rounding of a result good to a few hundredths of an ulp,
 * so under 1 ulp (hypot's subnormal results may be rounded twice: still
 * under 1 ulp); 0.56 ulp at most in the measured table
 * (doc/architecture.md, tests/fmath/accuracy.py); special values (signed zeros, infinities, NaN, domain edges) as C99
 * Annex F says.  The functions fabs, sqrt, floor, ceil, round, lround,
 * fmin, fmax, remainder and ldexp are exact in every C library and stay
 * the C library's.
 */
#ifndef PKI_UTIL_FMATH_H
#define PKI_UTIL_FMATH_H

double pki_sin(double x);
double pki_cos(double x);
/* *s = pki_sin(x) and *c = pki_cos(x), the same bits, with one argument
 * reduction and the two kernels side by side. */
void pki_sincos(double x, double *s, double *c);
double pki_tan(double x);
double pki_asin(double x);
double pki_acos(double x);
double pki_atan(double x);
double pki_atan2(double y, double x);
double pki_exp(double x);
double pki_log(double x);
double pki_log10(double x);
double pki_pow(double x, double y);
double pki_cbrt(double x);
double pki_hypot(double x, double y);

#endif
