/* vec.h — small vector and rotation helpers in double (internal,
 * header-only: the sizing steps, the legs' fit; quaternions x, y, z, w as
 * math/quat.h). */
#ifndef PKI_MATH_VEC_H
#define PKI_MATH_VEC_H

#include "math/quat.h"
#include "util/fmath.h"

#include <math.h>
#include <string.h>

static inline double pki_v3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double pki_v3_len(const double a[3])
{
    return sqrt(pki_v3_dot(a, a));
}

static inline void pki_v3_sub(const double a[3], const double b[3], double o[3])
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static inline double pki_v3_dist(const double a[3], const double b[3])
{
    double d[3];
    pki_v3_sub(a, b, d);
    return pki_v3_len(d);
}

static inline void pki_v3_cross(const double a[3], const double b[3], double o[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    o[0] = x;
    o[1] = y;
    o[2] = z;
}

/* v / |v|; false (v untouched) when |v| is below eps. */
static inline bool pki_v3_unit(double v[3], double eps)
{
    double n = pki_v3_len(v);
    if (!(n > eps))
        return false;
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
    return true;
}

/* The rotation of angle a (radians) about the unit axis. */
static inline void pki_q_axis(const double axis[3], double a, double q[4])
{
    double s, c; /* pki_sincos: pki_sin's and pki_cos's bits */
    pki_sincos(a / 2.0, &s, &c);
    q[0] = axis[0] * s;
    q[1] = axis[1] * s;
    q[2] = axis[2] * s;
    q[3] = c;
}

/* The shortest arc turning direction u into v (both nonzero); half a
 * turn about some axis across u when they are opposite. */
static inline void pki_q_arc(const double u0[3], const double v0[3], double q[4])
{
    double u[3] = {u0[0], u0[1], u0[2]}, v[3] = {v0[0], v0[1], v0[2]}, c[3];
    if (!pki_v3_unit(u, 1e-300) || !pki_v3_unit(v, 1e-300)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    double d = pki_v3_dot(u, v);
    if (d < -1.0 + 1e-12) {
        double ax[3] = {0, -u[2], u[1]};
        if (!pki_v3_unit(ax, 1e-6)) {
            ax[0] = u[2];
            ax[1] = 0;
            ax[2] = -u[0];
            pki_v3_unit(ax, 0);
        }
        q[0] = ax[0];
        q[1] = ax[1];
        q[2] = ax[2];
        q[3] = 0;
        return;
    }
    pki_v3_cross(u, v, c);
    q[0] = c[0];
    q[1] = c[1];
    q[2] = c[2];
    q[3] = 1.0 + d;
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

/* The rotation taking the frame (e1, e2) to (f1, f2): e1 onto f1, then
 * about f1 so that e2 lands on f2's side (e2 and f2 across e1 and f1). */
static inline void pki_q_frames(const double e1[3], const double e2[3], const double f1[3],
                                const double f2[3], double q[4])
{
    double a[4], e2r[3], u[3] = {f1[0], f1[1], f1[2]};
    pki_q_arc(e1, f1, a);
    pki_qd_rotate(a, e2, e2r);
    pki_v3_unit(u, 0);
    /* both across u: the angle from e2r to f2 about u */
    double p[3], r[3], t = pki_v3_dot(e2r, u), s = pki_v3_dot(f2, u);
    for (int k = 0; k < 3; k++) {
        p[k] = e2r[k] - t * u[k];
        r[k] = f2[k] - s * u[k];
    }
    double c[3];
    pki_v3_cross(p, r, c);
    double ang = pki_atan2(pki_v3_dot(c, u), pki_v3_dot(p, r)), b[4];
    pki_q_axis(u, ang, b);
    pki_qd_mul(b, a, q);
}

/* q normalised, and turned to w >= 0. */
static inline void pki_q_norm(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    if (q[3] < 0)
        n = -n;
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

/* out = slerp(a, b, t), the short way. */
static inline void pki_q_slerp(const double a[4], const double b[4], double t, double out[4])
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], bb[4];
    double sgn = d < 0 ? -1.0 : 1.0;
    d = fabs(d);
    for (int k = 0; k < 4; k++)
        bb[k] = sgn * b[k];
    double wa, wb;
    if (d > 1.0 - 1e-9) {
        wa = 1.0 - t;
        wb = t;
    } else {
        double th = pki_acos(d), s = pki_sin(th);
        wa = pki_sin((1.0 - t) * th) / s;
        wb = pki_sin(t * th) / s;
    }
    for (int k = 0; k < 4; k++)
        out[k] = wa * a[k] + wb * bb[k];
    double n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    for (int k = 0; k < 4; k++)
        out[k] /= n;
}

#endif
