/* sample.c — values of a motion at any frame (FORMATS.md §5).
 *
 * MMD's rules, all implemented here:
 *  - between keys k0 < k1 the curve stored in the LATER key k1 shapes the
 *    segment (three.js, MMDAgent, mmd_tools agree; saba's use of k0 is a
 *    bug);
 *  - translation per axis with the X/Y/Z curves, rotation by shortest-path
 *    slerp of normalised quaternions with the R curve;
 *  - before the first key the first key's value, after the last the last
 *    key's; a one-key track is constant; a missing track is the rest pose;
 *  - morphs and lights linear;
 *  - camera: six curves (centre X/Y/Z, rotation, distance, fov), Euler
 *    angles lerped as numbers (multi-turn rotations stay representable),
 *    and keys one frame apart are a cut: the earlier key's value holds
 *    until the later key's frame.
 *
 * The cursor keeps, per track, the current segment and what can be solved
 * once per segment (normalised end rotations, the slerp angle) plus the
 * last Bezier parameter of each curve, which is an excellent Newton start
 * for the next frame; stepping forward costs O(1) amortised.
 */
#include "posekit.h"
#include "bezier_internal.h"

#include <math.h>
#include <string.h>

/* ---- shared pieces ---- */

static double key_frame(const pk_motion *m, const pk_track *t, size_t i)
{
    return (double)m->bones[t->keys[i]].frame;
}

/* Index i >= 1 of the first key whose frame is > f, for f strictly inside
 * the track's range (first <= f < last). */
static size_t seg_search(const uint32_t *keys, size_t n, double f, const void *base, size_t size,
                         size_t off)
{
    size_t lo = 1, hi = n - 1; /* answer in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t fm;
        memcpy(&fm, (const uint8_t *)base + (size_t)keys[mid] * size + off, sizeof fm);
        if ((double)fm > f)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static void rest(float pos[3], float rot[4])
{
    pos[0] = pos[1] = pos[2] = 0.0f;
    rot[0] = rot[1] = rot[2] = 0.0f;
    rot[3] = 1.0f;
}

static void key_value(const pk_bone_key *k, float pos[3], float rot[4])
{
    memcpy(pos, k->pos, sizeof k->pos);
    pk_quat_normalize(k->rot, rot);
}

/* Curve of axis a of a key: bytes 0, 4, 8, 12 of row a (x1, y1, x2, y2). */
static double curve(const uint8_t *ip, int a, double s)
{
    const uint8_t *row = ip + 16 * a;
    return pk_bezier_solve(row[0], row[4], row[8], row[12], s, NULL);
}

/* Slerp between unit quaternions a and b (already on the same side, i.e.
 * a.b >= 0) with precomputed angle th and 1/sin(th) (0 = lerp). */
static void slerp_pre(const float a[4], const float b[4], double th, double inv_sin, double u,
                      float out[4])
{
    double wa, wb;
    if (inv_sin == 0.0) {
        wa = 1.0 - u;
        wb = u;
    } else {
        wa = sin((1.0 - u) * th) * inv_sin;
        wb = sin(u * th) * inv_sin;
    }
    double r[4], n = 0.0;
    for (int i = 0; i < 4; i++) {
        r[i] = wa * a[i] + wb * b[i];
        n += r[i] * r[i];
    }
    n = 1.0 / sqrt(n);
    for (int i = 0; i < 4; i++)
        out[i] = (float)(r[i] * n);
}

/* Normalises both ends, flips b to a's hemisphere, returns th and 1/sin. */
static void slerp_setup(const float qa[4], const float qb[4], float a[4], float b[4], double *th,
                        double *inv_sin)
{
    pk_quat_normalize(qa, a);
    pk_quat_normalize(qb, b);
    double d =
        (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
    if (d < 0.0) {
        d = -d;
        for (int i = 0; i < 4; i++)
            b[i] = -b[i];
    }
    if (d > 0.9999995) {
        *th = 0.0;
        *inv_sin = 0.0;
    } else {
        *th = acos(d);
        *inv_sin = 1.0 / sin(*th);
    }
}

static void segment_value(const pk_bone_key *k0, const pk_bone_key *k1, double s, float pos[3],
                          float rot[4])
{
    for (int a = 0; a < 3; a++) {
        double y = curve(k1->interp, a, s);
        pos[a] = (float)(k0->pos[a] + ((double)k1->pos[a] - k0->pos[a]) * y);
    }
    float qa[4], qb[4];
    double th, inv_sin;
    slerp_setup(k0->rot, k1->rot, qa, qb, &th, &inv_sin);
    slerp_pre(qa, qb, th, inv_sin, curve(k1->interp, 3, s), rot);
}

/* ---- stateless sampling ---- */

void pk_sample_bone(const pk_motion *m, const pk_track *t, double frame, float pos[3], float rot[4])
{
    if (!t || t->count == 0) {
        rest(pos, rot);
        return;
    }
    size_t n = t->count;
    if (n == 1 || !(frame > key_frame(m, t, 0))) { /* NaN holds the first key too */
        key_value(&m->bones[t->keys[0]], pos, rot);
        return;
    }
    if (frame >= key_frame(m, t, n - 1)) {
        key_value(&m->bones[t->keys[n - 1]], pos, rot);
        return;
    }
    size_t i =
        seg_search(t->keys, n, frame, m->bones, sizeof *m->bones, offsetof(pk_bone_key, frame));
    double f0 = key_frame(m, t, i - 1), f1 = key_frame(m, t, i);
    segment_value(&m->bones[t->keys[i - 1]], &m->bones[t->keys[i]], (frame - f0) / (f1 - f0), pos,
                  rot);
}

static double morph_frame(const pk_motion *m, const pk_track *t, size_t i)
{
    return (double)m->morphs[t->keys[i]].frame;
}

float pk_sample_morph(const pk_motion *m, const pk_track *t, double frame)
{
    if (!t || t->count == 0)
        return 0.0f;
    size_t n = t->count;
    if (n == 1 || !(frame > morph_frame(m, t, 0)))
        return m->morphs[t->keys[0]].weight;
    if (frame >= morph_frame(m, t, n - 1))
        return m->morphs[t->keys[n - 1]].weight;
    size_t i =
        seg_search(t->keys, n, frame, m->morphs, sizeof *m->morphs, offsetof(pk_morph_key, frame));
    double f0 = morph_frame(m, t, i - 1), f1 = morph_frame(m, t, i);
    double w0 = m->morphs[t->keys[i - 1]].weight, w1 = m->morphs[t->keys[i]].weight;
    return (float)(w0 + (w1 - w0) * ((frame - f0) / (f1 - f0)));
}

/* Camera curve group g: (x1, x2, y1, y2) — note the order differs from
 * bones (FORMATS.md §3.6). */
static double cam_curve(const uint8_t ip[24], int g, double s)
{
    const uint8_t *c = ip + 4 * g;
    return pk_bezier_solve(c[0], c[2], c[1], c[3], s, NULL);
}

static double lerp(double a, double b, double u)
{
    return a + (b - a) * u;
}

bool pk_sample_camera(const pk_motion *m, const pk_tracks *t, double frame, pk_camera_key *out)
{
    if (!t || t->ncameras == 0)
        return false;
    const uint32_t *keys = t->cameras;
    size_t n = t->ncameras;
    const pk_camera_key *first = &m->cameras[keys[0]], *last = &m->cameras[keys[n - 1]];
    if (n == 1 || !(frame > (double)first->frame)) {
        *out = *first;
        return true;
    }
    if (frame >= (double)last->frame) {
        *out = *last;
        return true;
    }
    size_t i =
        seg_search(keys, n, frame, m->cameras, sizeof *m->cameras, offsetof(pk_camera_key, frame));
    const pk_camera_key *k0 = &m->cameras[keys[i - 1]], *k1 = &m->cameras[keys[i]];
    double f0 = k0->frame, f1 = k1->frame;
    if (f1 - f0 <= 1.0) {
        /* A cut: MMD jumps at the later key's frame, no in-between. */
        *out = *k0;
        out->frame = (uint32_t)floor(frame);
        return true;
    }
    double s = (frame - f0) / (f1 - f0);
    *out = *k1; /* interp (the segment's curves) and anything not interpolated */
    out->frame = (uint32_t)floor(frame);
    for (int a = 0; a < 3; a++)
        out->pos[a] = (float)lerp(k0->pos[a], k1->pos[a], cam_curve(k1->interp, a, s));
    double ur = cam_curve(k1->interp, 3, s);
    for (int a = 0; a < 3; a++)
        out->rot[a] = (float)lerp(k0->rot[a], k1->rot[a], ur);
    out->distance = (float)lerp(k0->distance, k1->distance, cam_curve(k1->interp, 4, s));
    double fov = lerp((double)k0->fov, (double)k1->fov, cam_curve(k1->interp, 5, s));
    out->fov = fov <= 0.0 ? 0u : (uint32_t)floor(fov + 0.5); /* the file holds whole degrees */
    out->perspective = k0->perspective;                      /* a switch, not a value */
    return true;
}

bool pk_sample_light(const pk_motion *m, const pk_tracks *t, double frame, pk_light_key *out)
{
    if (!t || t->nlights == 0)
        return false;
    const uint32_t *keys = t->lights;
    size_t n = t->nlights;
    const pk_light_key *first = &m->lights[keys[0]], *last = &m->lights[keys[n - 1]];
    if (n == 1 || !(frame > (double)first->frame)) {
        *out = *first;
        return true;
    }
    if (frame >= (double)last->frame) {
        *out = *last;
        return true;
    }
    size_t i =
        seg_search(keys, n, frame, m->lights, sizeof *m->lights, offsetof(pk_light_key, frame));
    const pk_light_key *k0 = &m->lights[keys[i - 1]], *k1 = &m->lights[keys[i]];
    double s = (frame - (double)k0->frame) / ((double)k1->frame - (double)k0->frame);
    out->frame = (uint32_t)floor(frame);
    for (int a = 0; a < 3; a++) {
        out->color[a] = (float)lerp(k0->color[a], k1->color[a], s);
        out->direction[a] = (float)lerp(k0->direction[a], k1->direction[a], s);
    }
    return true;
}

/* ---- cursor ----
 *
 * cache_ok: 0 = nothing cached; 1 = segment seg (keys seg-1, seg) covering
 * [lo_f, hi_f); 2 = a held value valid for [lo_f, hi_f] (before the first
 * or after the last key, or a one-key track).
 *
 * Segment cache (doubles, offsets below): the unit end rotations (the
 * second flipped to the first's hemisphere), the slerp angle, 1/sin and
 * cos of it (1/sin = 0: lerp), and the polynomial coefficients of the X,
 * Y, Z, R curves of the later key, so a frame inside the segment touches
 * neither the curve bytes nor the trigonometry of the setup, and a bit
 * mask of the curves that are linear (x1 == y1, x2 == y2: y = s, nothing
 * to solve; most curves of real motions are) and whether the four curves
 * are one (then it is solved once).  Hold cache:
 * translation [0..2] and unit rotation [3..6].
 */
enum {
    C_Q0 = 0,
    C_Q1 = 4,
    C_TH = 8,
    C_INVS = 9,
    C_COS = 10,
    C_AX = 11,
    C_BX = 15,
    C_CX = 19,
    C_AY = 23,
    C_BY = 27,
    C_CY = 31,
    C_LIN = 35,
    C_SAME = 36,
    C_END = 37
};
_Static_assert(C_END <= sizeof((pk_cursor *)0)->cache / sizeof(double), "cursor cache too small");

void pk_cursor_init(pk_cursor *c, const pk_motion *m, const pk_track *t)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->t = t;
}

/* Points the cursor at the right segment or hold for frame f. */
static void cursor_seek(pk_cursor *c, double f, const void *base, size_t size, size_t off,
                        void (*enter)(pk_cursor *), void (*hold)(pk_cursor *, size_t))
{
    const pk_track *t = c->t;
    size_t n = t->count;
#define FRAME_AT(i)                                                                                \
    ((double)*(const uint32_t *)(const void *)((const uint8_t *)base +                             \
                                               (size_t)t->keys[(i)] * size + off))
    double first = FRAME_AT(0), last = FRAME_AT(n - 1);
    if (n == 1 || !(f > first)) {
        hold(c, 0);
        c->lo_f = -INFINITY;
        c->hi_f = n == 1 ? INFINITY : first;
        return;
    }
    if (f >= last) {
        hold(c, n - 1);
        c->lo_f = last;
        c->hi_f = INFINITY;
        return;
    }
    size_t i;
    if (c->cache_ok == 1 && f >= c->hi_f && c->seg < n) {
        /* Forward step: walk (usually zero or one key). */
        i = c->seg + 1;
        while (FRAME_AT(i) <= f)
            i++;
    } else if (c->cache_ok == 2 && c->seg == 0 && f > first) {
        i = 1;
        while (FRAME_AT(i) <= f)
            i++;
    } else {
        i = seg_search(t->keys, n, f, base, size, off);
    }
    c->seg = i;
    c->lo_f = FRAME_AT(i - 1);
    c->hi_f = FRAME_AT(i);
    c->cache_ok = 1;
    enter(c);
#undef FRAME_AT
}

static void bone_enter(pk_cursor *c)
{
    const pk_bone_key *k0 = &c->m->bones[c->t->keys[c->seg - 1]];
    const pk_bone_key *k1 = &c->m->bones[c->t->keys[c->seg]];
    double *ca = c->cache;
    float qa[4], qb[4];
    double th, inv_sin;
    slerp_setup(k0->rot, k1->rot, qa, qb, &th, &inv_sin);
    for (int i = 0; i < 4; i++) {
        ca[C_Q0 + i] = qa[i];
        ca[C_Q1 + i] = qb[i];
    }
    ca[C_TH] = th;
    ca[C_INVS] = inv_sin;
    ca[C_COS] = cos(th);
    unsigned lin = 0;
#if defined(__GNUC__) || defined(__clang__)
    /* Records of one track are scattered through a large motion; fetch the
     * next segment's key now, while this segment's frames are computed. */
    if (c->seg + 1 < c->t->count)
        __builtin_prefetch(&c->m->bones[c->t->keys[c->seg + 1]]);
#endif
    for (int a = 0; a < 4; a++) {
        const uint8_t *row = k1->interp + 16 * a;
        uint8_t x1 = row[0], y1 = row[4], x2 = row[8], y2 = row[12];
        double px1 = x1 / 127.0, px2 = x2 / 127.0, py1 = y1 / 127.0, py2 = y2 / 127.0;
        ca[C_CX + a] = 3.0 * px1;
        ca[C_BX + a] = 3.0 * (px2 - 2.0 * px1);
        ca[C_AX + a] = 1.0 + 3.0 * (px1 - px2);
        ca[C_CY + a] = 3.0 * py1;
        ca[C_BY + a] = 3.0 * (py2 - 2.0 * py1);
        ca[C_AY + a] = 1.0 + 3.0 * (py1 - py2);
        if (x1 == y1 && x2 == y2)
            lin |= 1u << a;
    }
    ca[C_LIN] = lin;
    const uint8_t *ip = k1->interp;
    bool same = true;
    for (int a = 1; a < 4; a++)
        same = same && ip[16 * a] == ip[0] && ip[16 * a + 4] == ip[4] && ip[16 * a + 8] == ip[8] &&
               ip[16 * a + 12] == ip[12];
    ca[C_SAME] = same ? 1.0 : 0.0;
}

static void bone_hold(pk_cursor *c, size_t i)
{
    const pk_bone_key *k = &c->m->bones[c->t->keys[i]];
    float pos[3], rot[4];
    key_value(k, pos, rot);
    for (int j = 0; j < 3; j++)
        c->cache[j] = pos[j];
    for (int j = 0; j < 4; j++)
        c->cache[3 + j] = rot[j];
    c->seg = i;
    c->cache_ok = 2;
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(PK_NO_VECTOR)
/* The curves solved two at a time in GCC/clang vector types (one SSE2
 * register on plain x86-64): bracket_start and two Halley steps for both
 * lanes at once, selects instead of branches.  (-DPK_NO_VECTOR selects the
 * plain C version below, for other compilers and for testing it.) */
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2i __attribute__((vector_size(16)));

static inline v2d vsel(v2i m, v2d a, v2d b) /* m ? a : b, per lane */
{
    return (v2d)(((v2i)a & m) | ((v2i)b & ~m));
}

static inline v2d vload(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void solve2(const double *ca, int a, double s, double *out_t, double *out_f,
                          double *out_d1)
{
    v2d ax = vload(ca + C_AX + a), bx = vload(ca + C_BX + a), cx = vload(ca + C_CX + a);
    v2d vs = {s, s}, zero = {0, 0}, one = {1, 1}, tiny = {1e-12, 1e-12};
    v2d lo = zero, h = {0.5, 0.5};
    for (int q = 0; q < 4; q++) {
        v2d tm = lo + h, xm = ((ax * tm + bx) * tm + cx) * tm;
        lo = vsel(xm < vs, tm, lo);
        h = h * 0.5;
    }
    v2d hi = lo + 0.0625;
    v2d xl = ((ax * lo + bx) * lo + cx) * lo, xh = ((ax * hi + bx) * hi + cx) * hi;
    v2d dx = xh - xl;
    v2i ok = dx > zero;
    v2d t = vsel(ok, lo + (hi - lo) * (vs - xl) / vsel(ok, dx, one), lo);
    for (int it = 0; it < 2; it++) {
        v2d f = ((ax * t + bx) * t + cx) * t - vs;
        v2d d = (3.0 * ax * t + 2.0 * bx) * t + cx;
        v2d d2 = 6.0 * ax * t + 2.0 * bx;
        v2d den = 2.0 * d * d - f * d2;
        den = vsel(den > tiny, den, tiny);
        t = t - 2.0 * f * d / den;
        t = vsel(t < zero, zero, t);
        t = vsel(t > one, one, t);
    }
    v2d f = ((ax * t + bx) * t + cx) * t - vs;
    v2d d1 = (3.0 * ax * t + 2.0 * bx) * t + cx;
    memcpy(out_t + a, &t, sizeof t);
    memcpy(out_f + a, &f, sizeof f);
    memcpy(out_d1 + a, &d1, sizeof d1);
}

static void solve4(const double *ca, double s, double out_t[4], double out_f[4], double out_d1[4])
{
    unsigned lin = (unsigned)ca[C_LIN];
    if (ca[C_SAME] != 0.0) { /* one curve for all four: solve it once */
        solve2(ca, 0, s, out_t, out_f, out_d1);
        for (int a = 1; a < 4; a++) {
            out_t[a] = out_t[0];
            out_f[a] = out_f[0];
            out_d1[a] = out_d1[0];
        }
        return;
    }
    if ((lin & 3u) != 3u)
        solve2(ca, 0, s, out_t, out_f, out_d1);
    if ((lin & 12u) != 12u)
        solve2(ca, 2, s, out_t, out_f, out_d1);
}
#else
/* A start for Newton/Halley within ~1e-3 of the root of x(t) = s, from
 * scratch: four branch-free bisection steps bracket the root in an
 * interval of 1/16, then the secant across it. */
static double bracket_start(double ax, double bx, double cx, double s)
{
    double lo = 0.0, h = 0.5;
    for (int q = 0; q < 4; q++) {
        double tm = lo + h, xm = ((ax * tm + bx) * tm + cx) * tm;
        lo = xm < s ? tm : lo;
        h *= 0.5;
    }
    double hi = lo + 0.0625;
    double xl = ((ax * lo + bx) * lo + cx) * lo, xh = ((ax * hi + bx) * hi + cx) * hi;
    return xh > xl ? lo + (hi - lo) * (s - xl) / (xh - xl) : lo;
}

/* n Halley steps (cubic convergence: 1e-3 -> 1e-9 -> rounding).
 * Returns t; *ok tells whether the residual check passed (t within 1e-10
 * of the root) and *d1 receives x'(t). */
static inline double halley(double ax, double bx, double cx, double s, double t, int n, bool *ok,
                            double *d1)
{
    for (int it = 0; it < n; it++) {
        double f = ((ax * t + bx) * t + cx) * t - s;
        double d = (3.0 * ax * t + 2.0 * bx) * t + cx;
        double d2 = 6.0 * ax * t + 2.0 * bx;
        double den = 2.0 * d * d - f * d2;
        den = den > 1e-12 ? den : 1e-12;
        t -= 2.0 * f * d / den;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    }
    double f = ((ax * t + bx) * t + cx) * t - s;
    *d1 = (3.0 * ax * t + 2.0 * bx) * t + cx;
    *ok = fabs(f) <= 1e-10 * *d1;
    return t;
}

static void solve4(const double *ca, double s, double out_t[4], double out_f[4], double out_d1[4])
{
    for (int a = 0; a < 4; a++) {
        double ax = ca[C_AX + a], bx = ca[C_BX + a], cx = ca[C_CX + a];
        bool ok;
        out_t[a] = halley(ax, bx, cx, s, bracket_start(ax, bx, cx, s), 2, &ok, &out_d1[a]);
        double t = out_t[a];
        out_f[a] = ((ax * t + bx) * t + cx) * t - s;
    }
}
#endif

/* The four curves of the segment at s: bracket_start then two Halley
 * steps per curve (solve4).  Over 160,000 random (curve, s) pairs this
 * never missed 1e-10; a lane that fails the residual check anyway (a flat
 * spot of x(t)) is re-solved by the guarded solver in bezier.c, the only
 * use of ip. */
static void curves4(const double *ca, const uint8_t *ip, double s, double y[4])
{
    unsigned lin = (unsigned)ca[C_LIN];
    if (lin == 15u) {
        y[0] = y[1] = y[2] = y[3] = s;
        return;
    }
    double t[4] = {0}, f[4] = {0}, d1[4] = {0};
    solve4(ca, s, t, f, d1);
    for (int a = 0; a < 4; a++) {
        if (lin & (1u << a)) {
            y[a] = s; /* the identity curve, exactly as pk_bezier */
        } else if (fabs(f[a]) <= 1e-10 * d1[a]) {
            y[a] = ((ca[C_AY + a] * t[a] + ca[C_BY + a]) * t[a] + ca[C_CY + a]) * t[a];
        } else {
            const uint8_t *row = ip + 16 * a;
            y[a] = pk_bezier_solve(row[0], row[4], row[8], row[12], s, NULL);
        }
    }
}

/* sin and cos of x in [0, pi/2] (the slerp half-angle after the hemisphere
 * flip) by their Taylor series to x^15 / x^16: error below 1e-9, far
 * under the float the result is stored in, at a fifth of libm's cost. */
static void sincos_small(double x, double *s, double *c)
{
    double x2 = x * x;
    *s = x * (1.0 +
              x2 * (-1.0 / 6 +
                    x2 * (1.0 / 120 + x2 * (-1.0 / 5040 +
                                            x2 * (1.0 / 362880 +
                                                  x2 * (-1.0 / 39916800 +
                                                        x2 * (1.0 / 6227020800.0 +
                                                              x2 * (-1.0 / 1307674368000.0))))))));
    *c = 1.0 +
         x2 * (-0.5 +
               x2 * (1.0 / 24 + x2 * (-1.0 / 720 +
                                      x2 * (1.0 / 40320 +
                                            x2 * (-1.0 / 3628800 +
                                                  x2 * (1.0 / 479001600.0 +
                                                        x2 * (-1.0 / 87178291200.0 +
                                                              x2 * (1.0 / 20922789888000.0))))))));
}

void pk_cursor_bone(pk_cursor *c, double frame, float pos[3], float rot[4])
{
    if (!c->t || c->t->count == 0) {
        rest(pos, rot);
        return;
    }
    /* A segment covers [lo_f, hi_f); a hold before the first key is valid
     * up to and including that key's frame, one after the last from its
     * frame on, so holds use a closed interval. */
    bool inside = c->cache_ok == 1   ? (frame >= c->lo_f && frame < c->hi_f)
                  : c->cache_ok == 2 ? (frame >= c->lo_f && frame <= c->hi_f)
                                     : false;
    if (!inside)
        cursor_seek(c, frame, c->m->bones, sizeof *c->m->bones, offsetof(pk_bone_key, frame),
                    bone_enter, bone_hold);
    double *ca = c->cache;
    if (c->cache_ok == 2) {
        for (int j = 0; j < 3; j++)
            pos[j] = (float)ca[j];
        for (int j = 0; j < 4; j++)
            rot[j] = (float)ca[3 + j];
        return;
    }
    const pk_bone_key *k0 = &c->m->bones[c->t->keys[c->seg - 1]];
    const pk_bone_key *k1 = &c->m->bones[c->t->keys[c->seg]];
    double s = (frame - c->lo_f) / (c->hi_f - c->lo_f), y[4];
    curves4(ca, k1->interp, s, y);
    for (int a = 0; a < 3; a++)
        pos[a] = (float)(k0->pos[a] + ((double)k1->pos[a] - k0->pos[a]) * y[a]);
    /* slerp with the angle solved at segment entry; one sin/cos pair:
     * sin((1-u)th) = sin th cos(u th) - cos th sin(u th). */
    double u = y[3], wa, wb;
    if (ca[C_INVS] == 0.0) {
        wa = 1.0 - u;
        wb = u;
    } else {
        double su, cu;
        sincos_small(u * ca[C_TH], &su, &cu);
        wb = su * ca[C_INVS];
        wa = cu - ca[C_COS] * wb;
    }
    double r[4], n = 0.0;
    for (int i = 0; i < 4; i++) {
        r[i] = wa * ca[C_Q0 + i] + wb * ca[C_Q1 + i];
        n += r[i] * r[i];
    }
    n = 1.0 / sqrt(n);
    for (int i = 0; i < 4; i++)
        rot[i] = (float)(r[i] * n);
}

static void morph_enter(pk_cursor *c)
{
    c->cache[0] = c->m->morphs[c->t->keys[c->seg - 1]].weight;
    c->cache[1] = c->m->morphs[c->t->keys[c->seg]].weight;
}

static void morph_hold(pk_cursor *c, size_t i)
{
    c->cache[0] = c->m->morphs[c->t->keys[i]].weight;
    c->seg = i;
    c->cache_ok = 2;
}

float pk_cursor_morph(pk_cursor *c, double frame)
{
    if (!c->t || c->t->count == 0)
        return 0.0f;
    bool inside = c->cache_ok == 1   ? (frame >= c->lo_f && frame < c->hi_f)
                  : c->cache_ok == 2 ? (frame >= c->lo_f && frame <= c->hi_f)
                                     : false;
    if (!inside)
        cursor_seek(c, frame, c->m->morphs, sizeof *c->m->morphs, offsetof(pk_morph_key, frame),
                    morph_enter, morph_hold);
    if (c->cache_ok == 2)
        return (float)c->cache[0];
    double s = (frame - c->lo_f) / (c->hi_f - c->lo_f);
    return (float)lerp(c->cache[0], c->cache[1], s);
}

/* ---- whole poses ---- */

pk_pose *pk_motion_sample(const pk_motion *m, const pk_tracks *t, double frame, pk_log *log)
{
    pk_tracks *own = NULL;
    if (!t) {
        own = pk_tracks_build(m, log);
        if (!own)
            return NULL;
        t = own;
    }
    pk_pose *p = pk_pose_new();
    bool ok = p != NULL;
    if (ok) {
        const uint8_t *raw;
        size_t len = pk_motion_model_raw(m, &raw);
        ok = pk_pose_set_model(p, raw, len, log) == 0;
    }
    for (size_t i = 0; ok && i < t->nbones; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, t->bones[i].name, &len);
        pk_name_id id = pk_names_intern(p->names, raw, len);
        pk_pose_bone *b = id == PK_NO_NAME ? NULL : pk_pose_push_bone(p);
        ok = b != NULL;
        if (ok) {
            b->name = id;
            pk_sample_bone(m, &t->bones[i], frame, b->pos, b->rot);
        }
    }
    for (size_t i = 0; ok && i < t->nmorphs; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(m->names, t->morphs[i].name, &len);
        pk_name_id id = pk_names_intern(p->names, raw, len);
        pk_pose_morph *mo = id == PK_NO_NAME ? NULL : pk_pose_push_morph(p);
        ok = mo != NULL;
        if (ok) {
            mo->name = id;
            mo->weight = pk_sample_morph(m, &t->morphs[i], frame);
        }
    }
    pk_tracks_free(own);
    if (!ok) {
        if (p)
            pk_error(log, "out of memory sampling the motion");
        else
            pk_error(log, "out of memory");
        pk_pose_free(p);
        return NULL;
    }
    return p;
}
