/* bezier.c — MMD's interpolation curves (doc/formats.md §3.4, §5).
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
#include "math/bezier.h"
#include "util/fmath.h"

#include <math.h>
#include <string.h>

double pki_bezier_param(uint8_t x1, uint8_t x2, double s, double hint)
{
    if (!(s > 0.0)) /* also catches NaN */
        return 0.0;
    if (s >= 1.0)
        return 1.0;
    /* Bytes above 127 never occur in curve positions of real files; clamp
     * them so that x stays monotonic. */
    double px1 = (x1 > 127 ? 127 : x1) / 127.0, px2 = (x2 > 127 ? 127 : x2) / 127.0;
    /* Polynomial form: x(t) = ((ax t + bx) t + cx) t. */
    double cx = 3.0 * px1, bx = 3.0 * (px2 - 2.0 * px1), ax = 1.0 + 3.0 * (px1 - px2);
    if (x1 >= 127 && x2 == 0) {
        /* The one curve whose x'(t) vanishes inside (0,1): x(t) - 1/2 =
         * 4 (t - 1/2)^3.  Numerically t is hopeless there (a rounding error
         * of 1e-16 in x moves t by 3e-6), but the closed form is exact. */
        return 0.5 + pki_cbrt((s - 0.5) / 4.0);
    }
    /* Newton kept inside a shrinking bracket [lo, hi] around the root
     * (x is increasing): a step that leaves the bracket, or a flat
     * derivative (x1 = 0 at t = 0, x2 = 1 at t = 1), bisects instead.
     * Converges in 2-4 evaluations from a nearby start. */
    double lo = 0.0, hi = 1.0;
    double t = hint > 0.0 && hint < 1.0 ? hint : s;
    for (int i = 0; i < 100; i++) {
        double f = ((ax * t + bx) * t + cx) * t - s;
        if (f < 0.0)
            lo = t;
        else if (f > 0.0)
            hi = t;
        else
            break;
        double dx = (3.0 * ax * t + 2.0 * bx) * t + cx;
        double nt = dx > 0.0 ? t - f / dx : -1.0;
        /* inclusive: a converged step may land exactly on the bound */
        bool newton = nt >= lo && nt <= hi;
        if (!newton)
            nt = 0.5 * (lo + hi);
        double step = nt - t;
        t = nt;
        if (newton ? fabs(step) < 1e-9 : hi - lo < 1e-13)
            break;
    }
    return t;
}

double pki_bezier_solve(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, double s, double *hint)
{
    if (!(s > 0.0)) /* also catches NaN */
        return 0.0;
    if (s >= 1.0)
        return 1.0;
    if (x1 == y1 && x2 == y2) /* the identity curve (MMDAgent's shortcut) */
        return s;
    double t = pki_bezier_param(x1, x2, s, hint ? *hint : -1.0);
    if (hint)
        *hint = t;
    double py1 = (y1 > 127 ? 127 : y1) / 127.0, py2 = (y2 > 127 ? 127 : y2) / 127.0;
    double cy = 3.0 * py1, by = 3.0 * (py2 - 2.0 * py1), ay = 1.0 + 3.0 * (py1 - py2);
    return ((ay * t + by) * t + cy) * t;
}

float pk_bezier(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, float s)
{
    return (float)pki_bezier_solve(x1, y1, x2, y2, s, NULL);
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
