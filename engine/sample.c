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

/* Solves one curve for a double s (pk_bezier takes a float, and where a
 * curve is steep the float rounding of s alone moves y by 1e-6 or more).
 * *tp is the previous frame's Bezier parameter (or -1): forward stepping
 * makes it an excellent Newton start, so most frames need one or two
 * iterations.  Where x'(t) is nearly flat (x1 = 0 at the start, x2 = 1 at
 * the end, the S-curve's middle) Newton is unreliable and t is badly
 * conditioned: bisection in long double there, as in pk_bezier. */
static double solve(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2, double s, float *tp)
{
    if (!(s > 0.0))
        return 0.0;
    if (s >= 1.0)
        return 1.0;
    if (x1 == y1 && x2 == y2)
        return s;
    if (x1 > 127 || x2 > 127 || y1 > 127 || y2 > 127)
        return pk_bezier(x1, y1, x2, y2, (float)s); /* never in real files; clamps */
    double px1 = x1 / 127.0, px2 = x2 / 127.0;
    double cx = 3.0 * px1, bx = 3.0 * (px2 - 2.0 * px1), ax = 1.0 + 3.0 * (px1 - px2);
    double t = *tp >= 0.0f ? (double)*tp : s;
    bool ok = false;
    for (int i = 0; i < 8; i++) {
        double dx = (3.0 * ax * t + 2.0 * bx) * t + cx;
        if (dx < 1e-3)
            break;
        double step = (((ax * t + bx) * t + cx) * t - s) / dx;
        t -= step;
        if (t < 0.0 || t > 1.0)
            break;
        if (fabs(step) < 1e-10) {
            ok = true;
            break;
        }
    }
    if (!ok) {
        long double lo = 0.0L, hi = 1.0L, ls = s;
        for (int i = 0; i < 70 && hi - lo > 1e-18L; i++) {
            long double mid = 0.5L * (lo + hi);
            if (((ax * mid + bx) * mid + cx) * mid < ls)
                lo = mid;
            else
                hi = mid;
        }
        t = (double)(0.5L * (lo + hi));
    }
    *tp = (float)t;
    double py1 = y1 / 127.0, py2 = y2 / 127.0;
    double cy = 3.0 * py1, by = 3.0 * (py2 - 2.0 * py1), ay = 1.0 + 3.0 * (py1 - py2);
    return ((ay * t + by) * t + cy) * t;
}

/* Curve of axis a of a key: bytes 0, 4, 8, 12 of row a (x1, y1, x2, y2). */
static double curve(const uint8_t *ip, int a, double s)
{
    const uint8_t *row = ip + 16 * a;
    float none = -1.0f;
    return solve(row[0], row[4], row[8], row[12], s, &none);
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
    double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] +
               (double)a[3] * b[3];
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

void pk_sample_bone(const pk_motion *m, const pk_track *t, double frame, float pos[3],
                    float rot[4])
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
    size_t i = seg_search(t->keys, n, frame, m->bones, sizeof *m->bones,
                          offsetof(pk_bone_key, frame));
    double f0 = key_frame(m, t, i - 1), f1 = key_frame(m, t, i);
    segment_value(&m->bones[t->keys[i - 1]], &m->bones[t->keys[i]], (frame - f0) / (f1 - f0),
                  pos, rot);
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
    size_t i = seg_search(t->keys, n, frame, m->morphs, sizeof *m->morphs,
                          offsetof(pk_morph_key, frame));
    double f0 = morph_frame(m, t, i - 1), f1 = morph_frame(m, t, i);
    double w0 = m->morphs[t->keys[i - 1]].weight, w1 = m->morphs[t->keys[i]].weight;
    return (float)(w0 + (w1 - w0) * ((frame - f0) / (f1 - f0)));
}

/* Camera curve group g: (x1, x2, y1, y2) — note the order differs from
 * bones (FORMATS.md §3.6). */
static double cam_curve(const uint8_t ip[24], int g, double s)
{
    const uint8_t *c = ip + 4 * g;
    float none = -1.0f;
    return solve(c[0], c[2], c[1], c[3], s, &none);
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
    size_t i = seg_search(keys, n, frame, m->cameras, sizeof *m->cameras,
                          offsetof(pk_camera_key, frame));
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
    out->perspective = k0->perspective;                         /* a switch, not a value */
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
    size_t i = seg_search(keys, n, frame, m->lights, sizeof *m->lights,
                          offsetof(pk_light_key, frame));
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
 * Segment cache: [0..3] start rotation (unit), [4..7] end rotation (unit,
 * same hemisphere), [8] slerp angle, [9] 1/sin(angle) (0 = lerp),
 * [10..13] last Bezier parameter t of the X, Y, Z, R curves (-1 = none).
 * Hold cache: [0..2] translation, [3..6] unit rotation.
 */

void pk_cursor_init(pk_cursor *c, const pk_motion *m, const pk_track *t)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->t = t;
}

static double curve_warm(const uint8_t *row, double s, float *tp)
{
    return solve(row[0], row[4], row[8], row[12], s, tp);
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
    double th, inv_sin;
    slerp_setup(k0->rot, k1->rot, c->cache, c->cache + 4, &th, &inv_sin);
    c->cache[8] = (float)th;
    c->cache[9] = (float)inv_sin;
    for (int a = 0; a < 4; a++)
        c->cache[10 + a] = -1.0f;
}

static void bone_hold(pk_cursor *c, size_t i)
{
    const pk_bone_key *k = &c->m->bones[c->t->keys[i]];
    key_value(k, c->cache, c->cache + 3);
    c->seg = i;
    c->cache_ok = 2;
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
    if (c->cache_ok == 2) {
        memcpy(pos, c->cache, 3 * sizeof *pos);
        memcpy(rot, c->cache + 3, 4 * sizeof *rot);
        return;
    }
    const pk_bone_key *k0 = &c->m->bones[c->t->keys[c->seg - 1]];
    const pk_bone_key *k1 = &c->m->bones[c->t->keys[c->seg]];
    double s = (frame - c->lo_f) / (c->hi_f - c->lo_f);
    for (int a = 0; a < 3; a++) {
        double y = curve_warm(k1->interp + 16 * a, s, &c->cache[10 + a]);
        pos[a] = (float)(k0->pos[a] + ((double)k1->pos[a] - k0->pos[a]) * y);
    }
    double u = curve_warm(k1->interp + 48, s, &c->cache[13]);
    slerp_pre(c->cache, c->cache + 4, c->cache[8], c->cache[9], u, rot);
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
        return c->cache[0];
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
