/* quat.h — quaternion helpers in double (internal), x, y, z, w.
 *
 * The public pk_quat_* take and give float (the files' precision) and
 * compute in double; these keep double throughout, for operations that
 * chain several products (retarget's stance, forward kinematics for model
 * retargeting) and must not round to float between steps.
 *
 * No SIMD library (doc/architecture.md "Quaternions in double"): a float
 * SIMD slerp is off by up to 0.6 degrees on long segments and takes the
 * long way for nearly equal rotations of opposite sign, where posekit
 * checks 1e-4 degrees; a few quaternion products per bone and frame are
 * not where time goes.  Model arrays and file bytes are never cast to any
 * vector type. */
#ifndef PKI_MATH_QUAT_H
#define PKI_MATH_QUAT_H

#include <math.h>
#include <stdbool.h>

/* The three products every chain of rotations uses, inline: forward
 * kinematics (ops/skeleton/eval.c) calls them for every bone of every evaluation. */

/* out = a·b (out may alias a or b). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_VECTOR)
/* Two lanes at a time (GCC/clang vector extension; -DPK_NO_VECTOR selects
 * the plain version below): each lane's operations are the plain
 * version's, in its order (p - q is p + (-q), and x (-y) is -(x y), bit
 * for bit), so the same bits. */
#define PKI_V2D_SIZE __attribute__((vector_size(16)))
typedef double PKI_V2D_SIZE pki_v2d;

static inline void pki_qd_mul(const double a[4], const double b[4], double out[4])
{
    pki_v2d a0 = {a[0], a[0]}, a1 = {a[1], a[1]}, a2 = {a[2], a[2]}, a3 = {a[3], a[3]};
    pki_v2d b01 = {b[0], b[1]}, b23 = {b[2], b[3]};
    pki_v2d b10 = {b01[1], b01[0]}, b32 = {b23[1], b23[0]};
    const pki_v2d pm = {1.0, -1.0}, mp = {-1.0, 1.0}; /* x 1 and x -1: exact */
    pki_v2d b3n2 = b32 * pm, bn10 = b10 * mp, b1n0 = b10 * pm;
    pki_v2d xy = a3 * b01 + a0 * b3n2 + a1 * b23 + a2 * bn10;
    pki_v2d zw = a3 * b23 + a0 * b1n0 + a1 * -b01 + a2 * b3n2;
    out[0] = xy[0];
    out[1] = xy[1];
    out[2] = zw[0];
    out[3] = zw[1];
}
#else
static inline void pki_qd_mul(const double a[4], const double b[4], double out[4])
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
#endif

/* out = q⁻¹ for a unit q (the conjugate). */
static inline void pki_qd_conj(const double q[4], double out[4])
{
    out[0] = -q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = q[3];
}

/* out = q·v·q⁻¹ for a unit q: v turned by q (out may alias v), as
 * t = 2 q.xyz × v, out = v + w t + q.xyz × t. */
static inline void pki_qd_rotate(const double q[4], const double v[3], double out[3])
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

/* v scaled to unit length (v / |v|, |v| = sqrt(v.v) summed x, y, z):
 * false (v unchanged) where it is no longer than 1e-12. */
static inline bool pki_qd_unit3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(n > 1e-12))
        return false;
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
    return true;
}

/* The sine and cosine of half the angle whose cosine is d (clamped to
 * -1 .. 1), from the cosine alone: sqrt((1 - d) / 2), sqrt((1 + d) / 2).
 * They equal sin and cos of acos(d) / 2 but for rounding (test_quat:
 * within 4e-16 absolute, and the turn's angle within 2e-8 rad where d is
 * so near 1 that its own rounding is what is left of the angle). */
static inline void pki_half_from_cos(double d, double *s, double *c)
{
    d = d > 1.0 ? 1.0 : d < -1.0 ? -1.0 : d;
    *s = sqrt((1.0 - d) / 2.0);
    *c = sqrt((1.0 + d) / 2.0);
}

/* The sine and cosine of half of (p + t) from those of half of p (ps,
 * pc) and of half of t (ts, tc): the angle sum, which equals sin and cos
 * of (p + t) / 2 but for rounding (test_quat: half_from_cos). */
static inline void pki_half_add(double ps, double pc, double ts, double tc, double *s, double *c)
{
    *s = ps * tc + pc * ts;
    *c = pc * tc - ps * ts;
}

/* u and v turned by q (pki_qd_rotate's bits) and scaled to unit length
 * (v / |v|, |v| = sqrt(v.v) summed x, y, z) into ou and ov: false (ou and
 * ov unspecified) where either is no longer than 1e-12.  Two lanes, one
 * a vector, where the vector extension is. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_VECTOR)
static inline bool pki_qd_rotate2_unit(const double q[4], const double u[3], const double v[3],
                                       double ou[3], double ov[3])
{
    pki_v2d q0 = {q[0], q[0]}, q1 = {q[1], q[1]}, q2 = {q[2], q[2]}, q3 = {q[3], q[3]};
    pki_v2d x = {u[0], v[0]}, y = {u[1], v[1]}, z = {u[2], v[2]};
    pki_v2d tx = 2.0 * (q1 * z - q2 * y);
    pki_v2d ty = 2.0 * (q2 * x - q0 * z);
    pki_v2d tz = 2.0 * (q0 * y - q1 * x);
    pki_v2d rx = x + q3 * tx + (q1 * tz - q2 * ty);
    pki_v2d ry = y + q3 * ty + (q2 * tx - q0 * tz);
    pki_v2d rz = z + q3 * tz + (q0 * ty - q1 * tx);
    pki_v2d ss = rx * rx + ry * ry + rz * rz;
    double nu = sqrt(ss[0]), nv = sqrt(ss[1]);
    if (!(nu > 1e-12) || !(nv > 1e-12))
        return false;
    pki_v2d n = {nu, nv};
    rx /= n;
    ry /= n;
    rz /= n;
    ou[0] = rx[0];
    ou[1] = ry[0];
    ou[2] = rz[0];
    ov[0] = rx[1];
    ov[1] = ry[1];
    ov[2] = rz[1];
    return true;
}
#else
static inline bool pki_qd_rotate2_unit(const double q[4], const double u[3], const double v[3],
                                       double ou[3], double ov[3])
{
    pki_qd_rotate(q, u, ou);
    pki_qd_rotate(q, v, ov);
    return pki_qd_unit3(ou) && pki_qd_unit3(ov);
}
#endif

/* atan r / r as a polynomial in z = r^2 for |r| <= tan(pi/8): a
 * least-squares fit of degree 10 on Chebyshev nodes (mpmath.chebyfit),
 * error below 4e-17, under the rounding of a double.  Estrin's form: the
 * angle is a chain of dependent operations in a diff's frame loop. */
static inline double pki_atan_small(double r)
{
    double z = r * r, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    double p01 = 0.99999999999999996532 - 0.33333333333328438572 * z;
    double p23 = 0.19999999998855110134 - 0.1428571418097646683 * z;
    double p45 = 0.1111110618045594522 - 0.090907730748084137897 * z;
    double p67 = 0.076899534963068577563 - 0.066402339304294085887 * z;
    double p89 = 0.056883492268090104794 - 0.043480522157164624777 * z;
    double p03 = p01 + z2 * p23, p47 = p45 + z2 * p67, p8a = p89 + z2 * 0.021135373157693245206;
    return r * ((p03 + z4 * p47) + z8 * p8a);
}

/* atan2(y, x) for y, x >= 0, not both 0, in [0, pi/2]: one division into
 * |r| <= tan(pi/8) (atan y/x, pi/4 + atan((y - x) / (y + x)) or pi/2 -
 * atan x/y), then the polynomial.  The angle it gives agrees with long
 * double atan2l to 6e-16 of itself (tests/unit/test_quat.c holds it to
 * 1e-14); the asin/acos pair it replaced was no closer, and 1.5 to 3 times
 * slower in a diff. */
static inline double pki_atan2_quadrant(double y, double x)
{
    const double t8 = 0.41421356237309504880; /* tan(pi/8) */
    if (y <= t8 * x)
        return pki_atan_small(y / x);
    if (x <= t8 * y)
        return 1.57079632679489661923 - pki_atan_small(x / y);
    return 0.78539816339744830962 + pki_atan_small((y - x) / (y + x));
}

/* The rotation angle in degrees between q and p, both nonzero and finite
 * (any lengths): pk_quat_angle_deg after its checks, inline for a diff's
 * frame loop, whose cursor gives unit quaternions. */
static inline double pki_qd_angle_deg(const double p[4], const double q[4])
{
    double d = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    double m01 = p[0] * q[1] - p[1] * q[0], m02 = p[0] * q[2] - p[2] * q[0],
           m03 = p[0] * q[3] - p[3] * q[0], m12 = p[1] * q[2] - p[2] * q[1],
           m13 = p[1] * q[3] - p[3] * q[1], m23 = p[2] * q[3] - p[3] * q[2];
    double w = m01 * m01 + m02 * m02 + m03 * m03 + m12 * m12 + m13 * m13 + m23 * m23;
    return 2.0 * pki_atan2_quadrant(sqrt(w), fabs(d)) * (180.0 / 3.14159265358979323846);
}

/* out = q^t for a unit q: the rotation q scaled to t times its angle, the
 * short way round (t may be negative or above 1: MMD's append ratios). */
void pki_qd_pow(const double q[4], double t, double out[4]);
/* out = the twist of q about the unit axis: the part of the rotation
 * about that axis (what a fixed-axis bone shows), normalised; the identity
 * when nothing is left (out may alias q). */
void pki_qd_twist(const double q[4], const double axis[3], double out[4]);
/* A stored rotation in double: as stored, except that an all-zero or
 * non-finite one is the identity, as every operation reads it. */
void pki_qd_from_key(const float rot[4], double out[4]);
/* q from Euler angles in degrees, X first, then Y, then Z (q = qz·qy·qx:
 * a rules file's `rotate`). */
void pki_euler_deg_to_quat(const double deg[3], float q[4]);

#endif
