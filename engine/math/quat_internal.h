/* quat_internal.h — quaternion helpers in double (internal), x, y, z, w.
 *
 * The public pk_quat_* take and give float (the files' precision) and
 * compute in double; these keep double throughout, for operations that
 * chain several products (retarget's stance, forward kinematics for model
 * retargeting) and must not round to float between steps.
 *
 * No SIMD library (README, "Library"): cglm was a dependency until it was
 * measured: its float slerp is off by up to 0.6 degrees on long segments
 * and takes the long way for nearly equal rotations of opposite sign,
 * where posekit checks 1e-4 degrees; a few quaternion products per bone
 * and frame are not where time goes.  Model arrays and file bytes are
 * never cast to any vector type. */
#ifndef PK_QUAT_INTERNAL_H
#define PK_QUAT_INTERNAL_H

#include <stdbool.h>

/* out = a·b (out may alias a or b). */
void pk_qd_mul(const double a[4], const double b[4], double out[4]);
/* out = q⁻¹ for a unit q (the conjugate). */
void pk_qd_conj(const double q[4], double out[4]);
/* out = q·v·q⁻¹ for a unit q: v turned by q (out may alias v). */
void pk_qd_rotate(const double q[4], const double v[3], double out[3]);
/* A stored rotation in double: as stored, except that an all-zero or
 * non-finite one is the identity, as every operation reads it. */
void pk_qd_from_key(const float rot[4], double out[4]);
/* True when q is all zero or not finite: "no rotation". */
bool pk_quat_degenerate(const float q[4]);

#endif
