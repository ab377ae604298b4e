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

/* Unit quaternion in double (identity for a zero or broken one). */
static void unit_d(const float q[4], double out[4])
{
    double n =
        sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    if (!(n > 1e-30) || !isfinite(n)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = q[i] / n;
}

double pk_quat_angle_deg(const float a[4], const float b[4])
{
    /* All in double: normalising into float would cost ~1e-5 degrees. */
    double na[4], nb[4];
    unit_d(a, na);
    unit_d(b, nb);
    double d = na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2] + na[3] * nb[3];
    /* The rotation angle is 2*acos|d|, but acos is badly conditioned near
     * 1 (a 0.001 degree difference would vanish in rounding).  Use the
     * chord instead: for unit quaternions at angle phi, |qa - qb| =
     * 2 sin(phi/2), so the rotation angle 2*phi = 4*asin(chord/2).  The
     * chord is taken to the nearer of +qb and -qb (q and -q are equal). */
    double sgn = d < 0.0 ? -1.0 : 1.0;
    double c2 = 0.0;
    for (int i = 0; i < 4; i++) {
        double e = na[i] - sgn * nb[i];
        c2 += e * e;
    }
    double half = sqrt(c2) / 2.0;
    if (half > 1.0)
        half = 1.0;
    return 4.0 * asin(half) * (180.0 / 3.14159265358979323846);
}

/* ---- double helpers (math/quat_internal.h) ---- */

void pk_qd_mul(const double a[4], const double b[4], double out[4])
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

void pk_qd_conj(const double q[4], double out[4])
{
    out[0] = -q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = q[3];
}

void pk_qd_rotate(const double q[4], const double v[3], double out[3])
{
    double p[4] = {v[0], v[1], v[2], 0}, qi[4], t[4], u[4];
    pk_qd_conj(q, qi);
    pk_qd_mul(q, p, t);
    pk_qd_mul(t, qi, u);
    out[0] = u[0];
    out[1] = u[1];
    out[2] = u[2];
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
