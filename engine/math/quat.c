/* quat.c — quaternion helpers in the files' x, y, z, w order.
 *
 * The math is done in double and stored in float: the inputs come from
 * files as float, and doing the trigonometry in double keeps slerp and the
 * geodesic angle accurate to well below float resolution. */
#include "posekit.h"
#include "math/quat_internal.h"

#include <math.h>

void pk_quat_normalize(const float q[4], float out[4])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (!(n > 1e-30) || !isfinite(n)) {
        /* An all-zero (or broken) quaternion means "no rotation", as
         * mmd_tools reads it (doc/formats.md §3.3). */
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    out[0] = (float)(x / n);
    out[1] = (float)(y / n);
    out[2] = (float)(z / n);
    out[3] = (float)(w / n);
}

void pk_quat_mul(const float a[4], const float b[4], float out[4])
{
    double ax = a[0], ay = a[1], az = a[2], aw = a[3];
    double bx = b[0], by = b[1], bz = b[2], bw = b[3];
    double x = aw * bx + ax * bw + ay * bz - az * by;
    double y = aw * by - ax * bz + ay * bw + az * bx;
    double z = aw * bz + ax * by - ay * bx + az * bw;
    double w = aw * bw - ax * bx - ay * by - az * bz;
    out[0] = (float)x;
    out[1] = (float)y;
    out[2] = (float)z;
    out[3] = (float)w;
}

void pk_quat_slerp(const float a[4], const float b[4], float t, float out[4])
{
    float na[4], nb[4];
    pk_quat_normalize(a, na);
    pk_quat_normalize(b, nb);
    double d = (double)na[0] * nb[0] + (double)na[1] * nb[1] + (double)na[2] * nb[2] +
               (double)na[3] * nb[3];
    double sign = 1.0;
    if (d < 0.0) { /* q and -q are the same rotation: take the short way */
        d = -d;
        sign = -1.0;
    }
    double wa, wb;
    if (d > 0.9999995) {
        /* Nearly equal: sin(theta) underflows the division; lerp is exact
         * to float precision here. */
        wa = 1.0 - t;
        wb = t;
    } else {
        double th = acos(d), s = sin(th);
        wa = sin((1.0 - t) * th) / s;
        wb = sin(t * th) / s;
    }
    wb *= sign;
    double r[4], n = 0.0;
    for (int i = 0; i < 4; i++) {
        r[i] = wa * na[i] + wb * nb[i];
        n += r[i] * r[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++)
        out[i] = (float)(r[i] / n);
}

/* The quaternion as doubles; a zero or broken one is the identity (as
 * pk_quat_normalize has it). */
static void usable_d(const float q[4], double out[4])
{
    double n = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
    if (!(n > 1e-60) || !isfinite(n)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = q[i];
}

/* atan r / r as a polynomial in z = r^2 for |r| <= tan(pi/8): a
 * least-squares fit of degree 10 on Chebyshev nodes (mpmath.chebyfit),
 * error below 4e-17, under the rounding of a double.  Estrin's form: the
 * angle is a chain of dependent operations in a diff's frame loop. */
static double atan_small(double r)
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
static double atan2_quadrant(double y, double x)
{
    const double t8 = 0.41421356237309504880; /* tan(pi/8) */
    if (y <= t8 * x)
        return atan_small(y / x);
    if (x <= t8 * y)
        return 1.57079632679489661923 - atan_small(x / y);
    return 0.78539816339744830962 + atan_small((y - x) / (y + x));
}

double pk_quat_angle_deg(const float a[4], const float b[4])
{
    /* All in double: normalising into float would cost ~1e-5 degrees.
     * The rotation angle is 2 phi, with phi the angle between a and b as
     * 4-vectors (taken to the nearer of +b and -b: q and -q are equal).
     * acos(a.b) alone is badly conditioned near 1 (a 0.001 degree
     * difference would vanish in rounding), so sin phi comes from the
     * wedge a ^ b, whose norm is that of its six 2x2 minors (Lagrange's
     * identity |a|^2 |b|^2 - (a.b)^2 = sum of the squared minors): they
     * are small and accurate for close rotations.  phi = atan2(|a ^ b|,
     * |a.b|), well conditioned at every angle and blind to the lengths of
     * a and b (both sides scale by |a| |b|): one square root, one
     * division and a polynomial, no library call (a diff calls this for
     * every bone at every frame). */
    double p[4], q[4];
    usable_d(a, p);
    usable_d(b, q);
    double d = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    double m01 = p[0] * q[1] - p[1] * q[0], m02 = p[0] * q[2] - p[2] * q[0],
           m03 = p[0] * q[3] - p[3] * q[0], m12 = p[1] * q[2] - p[2] * q[1],
           m13 = p[1] * q[3] - p[3] * q[1], m23 = p[2] * q[3] - p[3] * q[2];
    double w = m01 * m01 + m02 * m02 + m03 * m03 + m12 * m12 + m13 * m13 + m23 * m23;
    double phi = atan2_quadrant(sqrt(w), fabs(d));
    return 2.0 * phi * (180.0 / 3.14159265358979323846);
}

/* ---- double helpers (math/quat_internal.h) ---- */

void pk_qd_pow(const double q[4], double t, double out[4])
{
    double a[4] = {q[0], q[1], q[2], q[3]};
    if (a[3] < 0.0)
        for (int i = 0; i < 4; i++)
            a[i] = -a[i];
    double s = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (s < 1e-300) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    double half = atan2(s, a[3]) * t;
    double k = sin(half) / s;
    out[0] = a[0] * k;
    out[1] = a[1] * k;
    out[2] = a[2] * k;
    out[3] = cos(half);
}

void pk_qd_twist(const double q[4], const double axis[3], double out[4])
{
    double d = q[0] * axis[0] + q[1] * axis[1] + q[2] * axis[2];
    double r[4] = {axis[0] * d, axis[1] * d, axis[2] * d, q[3]};
    double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (!(n > 1e-30) || !isfinite(n)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = r[i] / n;
}

bool pk_quat_degenerate(const float q[4])
{
    double n = 0.0;
    for (int i = 0; i < 4; i++)
        n += (double)q[i] * q[i];
    return !(n > 1e-60) || !isfinite(n);
}

void pk_qd_from_key(const float rot[4], double out[4])
{
    if (pk_quat_degenerate(rot)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = rot[i];
}
