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

/* The three products every chain of rotations uses, inline: forward
 * kinematics (ops/eval.c) calls them for every bone of every evaluation. */

/* out = a·b (out may alias a or b). */
static inline void pk_qd_mul(const double a[4], const double b[4], double out[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* out = q⁻¹ for a unit q (the conjugate). */
static inline void pk_qd_conj(const double q[4], double out[4])
{
    out[0] = -q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = q[3];
}

/* out = q·v·q⁻¹ for a unit q: v turned by q (out may alias v), as
 * t = 2 q.xyz × v, out = v + w t + q.xyz × t. */
static inline void pk_qd_rotate(const double q[4], const double v[3], double out[3])
{
    double tx = 2.0 * (q[1] * v[2] - q[2] * v[1]);
    double ty = 2.0 * (q[2] * v[0] - q[0] * v[2]);
    double tz = 2.0 * (q[0] * v[1] - q[1] * v[0]);
    double x = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
    double y = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
    double z = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* out = q^t for a unit q: the rotation q scaled to t times its angle, the
 * short way round (t may be negative or above 1: MMD's append ratios). */
void pk_qd_pow(const double q[4], double t, double out[4]);
/* out = the twist of q about the unit axis: the part of the rotation
 * about that axis (what a fixed-axis bone shows), normalised; the identity
 * when nothing is left (out may alias q). */
void pk_qd_twist(const double q[4], const double axis[3], double out[4]);
/* A stored rotation in double: as stored, except that an all-zero or
 * non-finite one is the identity, as every operation reads it. */
void pk_qd_from_key(const float rot[4], double out[4]);
/* True when q is all zero or not finite: "no rotation". */
bool pk_quat_degenerate(const float q[4]);

#endif
