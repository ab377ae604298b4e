/* quat.c — quaternion helpers in the files' x, y, z, w order.
 *
 * The math is done in double and stored in float: the inputs come from
 * files as float, and doing the trigonometry in double keeps slerp and the
 * geodesic angle accurate to well below float resolution. */
#include "posekit.h"
#include "math/quat.h"
#include "util/fmath.h"

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
        double th = pki_acos(d), s = pki_sin(th);
        wa = pki_sin((1.0 - t) * th) / s;
        wb = pki_sin(t * th) / s;
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
    double n =
        (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
    if (!(n > 1e-60) || !isfinite(n)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = q[i];
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
    return pki_qd_angle_deg(p, q);
}

/* ---- double helpers (math/quat.h) ---- */

void pki_qd_pow(const double q[4], double t, double out[4])
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
    double half = pki_atan2(s, a[3]) * t, sh, ch;
    pki_sincos(half, &sh, &ch); /* pki_sin's and pki_cos's bits */
    double k = sh / s;
    out[0] = a[0] * k;
    out[1] = a[1] * k;
    out[2] = a[2] * k;
    out[3] = ch;
}

void pki_qd_twist(const double q[4], const double axis[3], double out[4])
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

/* True when q is all zero or not finite: "no rotation". */
static bool quat_degenerate(const float q[4])
{
    double n = 0.0;
    for (int i = 0; i < 4; i++)
        n += (double)q[i] * q[i];
    return !(n > 1e-60) || !isfinite(n);
}

void pki_qd_from_key(const float rot[4], double out[4])
{
    if (quat_degenerate(rot)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    for (int i = 0; i < 4; i++)
        out[i] = rot[i];
}

/* q from Euler angles in degrees: rotate about X first, then Y, then Z
 * (q = qz·qy·qx).  A single-axis rotation, the usual case, is the same in
 * every order. */
void pki_euler_deg_to_quat(const double deg[3], float q[4])
{
    double h[3];
    for (int i = 0; i < 3; i++)
        h[i] = deg[i] * (3.14159265358979323846 / 180.0) * 0.5;
    double cx, sx, cy, sy, cz, sz; /* pki_sincos: pki_sin's and pki_cos's bits */
    pki_sincos(h[0], &sx, &cx);
    pki_sincos(h[1], &sy, &cy);
    pki_sincos(h[2], &sz, &cz);
    /* qz·qy·qx expanded. */
    q[0] = (float)(sx * cy * cz - cx * sy * sz);
    q[1] = (float)(cx * sy * cz + sx * cy * sz);
    q[2] = (float)(cx * cy * sz - sx * sy * cz);
    q[3] = (float)(cx * cy * cz + sx * sy * sz);
}
