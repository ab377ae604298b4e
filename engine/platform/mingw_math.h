/*
 * mingw_math.h — forced include for the Windows (mingw-w64) build only
 * (meson.build adds `-include` for it when the host is Windows).
 *
 * mingw-w64's <math.h> defines isfinite, isnan, isinf, isnormal, signbit
 * and fpclassify through __builtin_choose_expr over the float, double and
 * long double helpers; GCC checks the branch not taken too and warns
 * "conversion from 'double' to 'float' may change value"
 * (-Wfloat-conversion) for every isfinite(double), which -Dwerror=true
 * turns into errors.  GCC's own type-generic builtins give the same
 * answers with no conversion, so they replace the macros here, after
 * <math.h> has defined them (its include guard keeps it from redefining
 * them later).  Nothing else changes: no source file needs an #ifdef.
 */
#ifndef PKI_PLATFORM_MINGW_MATH_H
#define PKI_PLATFORM_MINGW_MATH_H

#include <math.h>

#undef isfinite
#undef isnan
#undef isinf
#undef isnormal
#undef signbit
#undef fpclassify
#define isfinite(x) __builtin_isfinite(x)
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf_sign(x)
#define isnormal(x) __builtin_isnormal(x)
#define signbit(x) __builtin_signbit(x)
#define fpclassify(x) \
    __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)

#endif
