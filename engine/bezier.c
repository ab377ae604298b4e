/* bezier.c — MMD's interpolation curves (FORMATS.md §3.4, §5).
 *
 * A curve is the cubic Bezier P0=(0,0), P1=(x1,y1), P2=(x2,y2), P3=(1,1)
 * with control points stored as bytes 0..127 (divided by 127).  For a
 * normalised time s we solve x(t) = s for t, then return y(t).  x(t) is
 * monotonic on [0,1] because 0 <= x1, x2 <= 1, so the root is unique.
 *
 * Bone interpolation block (64 bytes): four 16-byte rows, row r being the
 * 16 canonical parameters B[] shifted left by r:
 *
 *     B[0..3]   X.x1 Y.x1 Z.x1 R.x1        ip[16*r + k] = B[k + r]
 *     B[4..7]   X.y1 Y.y1 Z.y1 R.y1        B[16..18] = filler
 *     B[8..11]  X.x2 Y.x2 Z.x2 R.x2
 *     B[12..15] X.y2 Y.y2 Z.y2 R.y2
 *
 * so bytes 0, 4, 8, 12 of row r are (x1, y1, x2, y2) of axis r.  Bytes 2-3
 * of row 0 (Z.x1, R.x1 in the old layout) are the physics flag in newer
 * MMD files and are never read as curve data.
 */
#include "posekit.h"

#include <math.h>
#include <string.h>

/* Polynomial form of one coordinate: c(t) = ((a t + b) t + c) t. */
static double poly(double a, double b, double c, double t)
{
    return ((a * t + b) * t + c) * t;
}

float pk_bezier(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float s)
{
    if (!(s > 0.0f)) /* also catches NaN */
        return 0.0f;
    if (s >= 1.0f)
        return 1.0f;
    if (x1 == y1 && x2 == y2) /* the identity curve (MMDAgent's shortcut) */
        return s;
    /* Stored bytes are 0..127; anything larger is treated as 127 so that
     * x stays monotonic (real files never carry such curves). */
    double px1 = (x1 > 127 ? 127 : x1) / 127.0, px2 = (x2 > 127 ? 127 : x2) / 127.0;
    double py1 = (y1 > 127 ? 127 : y1) / 127.0, py2 = (y2 > 127 ? 127 : y2) / 127.0;
    double cx = 3.0 * px1, bx = 3.0 * (px2 - 2.0 * px1), ax = 1.0 + 3.0 * (px1 - px2);
    double cy = 3.0 * py1, by = 3.0 * (py2 - 2.0 * py1), ay = 1.0 + 3.0 * (py1 - py2);
    double target = s;

    /* Newton from t = s; converges in a few steps except where x'(t)
     * vanishes (x1 = 0 at t = 0, x2 = 1 at t = 1, or x1 = 1, x2 = 0 in the
     * middle).  Any sign of trouble falls back to bisection. */
    double t = target;
    bool ok = false;
    for (int i = 0; i < 12; i++) {
        double dx = (3.0 * ax * t + 2.0 * bx) * t + cx;
        if (dx < 1e-6)
            break;
        double step = (poly(ax, bx, cx, t) - target) / dx;
        t -= step;
        if (t < 0.0 || t > 1.0)
            break;
        if (fabs(step) < 1e-12) {
            ok = true;
            break;
        }
    }
    if (!ok) {
        /* Where x'(t) vanishes t is badly conditioned: near the S-curve's
         * middle x(t) - s grows like (t - t*)^3, so a rounding error of
         * 1e-16 in x moves t by 1e-5.  long double (64-bit mantissa on
         * x86) brings that under 1e-6; this path is rare. */
        long double lax = ax, lbx = bx, lcx = cx, lt = target;
        long double lo = 0.0L, hi = 1.0L;
        for (int i = 0; i < 70 && hi - lo > 1e-18L; i++) {
            long double mid = 0.5L * (lo + hi);
            if (((lax * mid + lbx) * mid + lcx) * mid < lt)
                lo = mid;
            else
                hi = mid;
        }
        t = (double)(0.5L * (lo + hi));
    }
    return (float)poly(ay, by, cy, t);
}

void pk_interp_curve(const uint8_t interp[64], int axis, uint8_t cp[4])
{
    int r = axis < 0 ? 0 : axis > 3 ? 3 : axis;
    cp[0] = interp[16 * r + 0];
    cp[1] = interp[16 * r + 4];
    cp[2] = interp[16 * r + 8];
    cp[3] = interp[16 * r + 12];
}

void pk_interp_set(uint8_t interp[64], const uint8_t cp[4][4], bool physics_off)
{
    uint8_t b[19];
    memset(b, 0, sizeof b);
    for (int axis = 0; axis < 4; axis++)
        for (int j = 0; j < 4; j++)
            b[4 * j + axis] = cp[axis][j];
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 16; k++)
            interp[16 * r + k] = b[k + r];
    interp[2] = physics_off ? 0x63 : 0x00;
    interp[3] = physics_off ? 0x0F : 0x00;
}
