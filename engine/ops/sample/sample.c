/* sample.c — values of a motion at any frame (doc/formats.md §5).
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
 * This file answers one frame at a time from the key records (a binary
 * search per call); cursor.c steps through many frames fast and gives the
 * same values.
 */
#include "posekit.h"
#include "math/bezier.h"
#include "model/tracks.h"
#include "ops/sample/sample.h"
#include "util/fmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- one track ---- */

/* Track t's keys (t->count of them, in file order; sorted: in frame
 * order already) sorted by frame, stable, the last record of a
 * duplicated frame kept.  False on OOM (t->keys freed). */
static bool track_finish(const pk_motion *m, pk_track *t, bool sorted)
{
    size_t n = t->count;
    if (!sorted) {
        /* (frame, index) pairs sorted by frame, 8 bits a pass from the
         * lowest (each pass stable: equal frames stay in file order),
         * the passes above the largest frame's digits skipped */
        uint64_t *src = malloc((2 * n + 1) * sizeof *src);
        if (!src) {
            free(t->keys);
            t->keys = NULL;
            t->count = 0;
            return false;
        }
        uint64_t *dst = src + n, *mem = src;
        uint32_t top = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t f = m->bones[t->keys[i]].frame;
            src[i] = (uint64_t)f << 32 | t->keys[i];
            top |= f;
        }
        src = pki_sort_by_frame(src, dst, n, top);
        for (size_t i = 0; i < n; i++)
            t->keys[i] = (uint32_t)src[i];
        free(mem);
    }
    size_t out = 0;
    for (size_t i = 0; i < n; i++)
        if (i + 1 == n || m->bones[t->keys[i]].frame != m->bones[t->keys[i + 1]].frame)
            t->keys[out++] = t->keys[i];
    t->count = out;
    return true;
}

/* One track: two passes over the keys, no table. */
static bool track_one(const pk_motion *m, pk_name_id name, pk_track *t)
{
    t->name = name;
    t->count = 0;
    size_t n = 0;
    bool sorted = true;
    for (size_t i = 0; i < m->nbones; i++)
        n += m->bones[i].name == name;
    t->keys = malloc((n + 1) * sizeof *t->keys);
    if (!t->keys)
        return false;
    for (size_t i = 0; i < m->nbones; i++) {
        if (m->bones[i].name != name)
            continue;
        if (t->count && m->bones[t->keys[t->count - 1]].frame > m->bones[i].frame)
            sorted = false;
        t->keys[t->count++] = (uint32_t)i;
    }
    return track_finish(m, t, sorted);
}

bool pki_track_named(const pk_motion *m, pk_name_id name, pk_track *t)
{
    return track_one(m, name, t);
}

bool pki_tracks_named(const pk_motion *m, const pk_name_id *names, size_t n, pk_track *out)
{
    if (n == 1)
        return track_one(m, names[0], out);
    /* the names asked for that the motion's table holds (a key's name is
     * one of them) */
    size_t nnames = m->names ? pk_names_count(m->names) : 0;
    pk_name_id top = 0;
    for (size_t i = 0; i < n; i++) {
        out[i].name = names[i];
        out[i].count = 0;
        out[i].keys = NULL;
        if (names[i] != PK_NO_NAME && names[i] < nnames && names[i] > top)
            top = names[i];
    }
    /* name -> its first place in names + 1 (0: not asked for) */
    uint32_t *place = calloc((size_t)top + 2, sizeof *place);
    size_t *count = calloc(n + 1, sizeof *count);
    bool *sorted = malloc((n + 1) * sizeof *sorted);
    bool ok = place && count && sorted;
    for (size_t i = 0; ok && i < n; i++) {
        sorted[i] = true;
        if (names[i] != PK_NO_NAME && names[i] <= top && !place[names[i]])
            place[names[i]] = (uint32_t)i + 1;
    }
    for (size_t k = 0; ok && k < m->nbones; k++) {
        pk_name_id id = m->bones[k].name;
        if (id != PK_NO_NAME && id <= top && place[id])
            count[place[id] - 1]++;
    }
    for (size_t i = 0; ok && i < n; i++) {
        /* a name asked for again gets its first place's count */
        bool keyed = names[i] != PK_NO_NAME && names[i] <= top;
        size_t c = keyed ? count[place[names[i]] - 1] : 0;
        out[i].keys = malloc((c + 1) * sizeof *out[i].keys);
        ok = out[i].keys != NULL;
    }
    for (size_t k = 0; ok && k < m->nbones; k++) {
        pk_name_id id = m->bones[k].name;
        if (id == PK_NO_NAME || id > top || !place[id])
            continue;
        pk_track *t = &out[place[id] - 1];
        if (t->count && m->bones[t->keys[t->count - 1]].frame > m->bones[k].frame)
            sorted[place[id] - 1] = false;
        t->keys[t->count++] = (uint32_t)k;
    }
    for (size_t i = 0; ok && i < n; i++) {
        if (names[i] == PK_NO_NAME || names[i] > top)
            continue;
        size_t first = place[names[i]] - 1;
        if (first == i) {
            ok = track_finish(m, &out[i], sorted[i]);
        } else {
            /* a name asked for twice: the first place's track */
            memcpy(out[i].keys, out[first].keys, out[first].count * sizeof *out[i].keys);
            out[i].count = out[first].count;
        }
    }
    free(place);
    free(count);
    free(sorted);
    if (!ok)
        for (size_t i = 0; i < n; i++) {
            free(out[i].keys);
            out[i].keys = NULL;
            out[i].count = 0;
        }
    return ok;
}

/* ---- shared pieces ---- */

static double key_frame(const pk_motion *m, const pk_track *t, size_t i)
{
    return (double)m->bones[t->keys[i]].frame;
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
    return pki_bezier_solve(row[0], row[4], row[8], row[12], s, NULL);
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
        wa = pki_sin((1.0 - u) * th) * inv_sin;
        wb = pki_sin(u * th) * inv_sin;
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
        *th = pki_acos(d);
        *inv_sin = 1.0 / pki_sin(*th);
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
        pki_rest_pose(pos, rot);
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
        pki_seg_search(t->keys, n, frame, m->bones, sizeof *m->bones, offsetof(pk_bone_key, frame));
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
    size_t i = pki_seg_search(t->keys, n, frame, m->morphs, sizeof *m->morphs,
                              offsetof(pk_morph_key, frame));
    double f0 = morph_frame(m, t, i - 1), f1 = morph_frame(m, t, i);
    double w0 = m->morphs[t->keys[i - 1]].weight, w1 = m->morphs[t->keys[i]].weight;
    return (float)(w0 + (w1 - w0) * ((frame - f0) / (f1 - f0)));
}

/* Camera curve group g: (x1, x2, y1, y2) — note the order differs from
 * bones (doc/formats.md §3.6). */
static double cam_curve(const uint8_t ip[24], int g, double s)
{
    const uint8_t *c = ip + 4 * g;
    return pki_bezier_solve(c[0], c[2], c[1], c[3], s, NULL);
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
    size_t i = pki_seg_search(keys, n, frame, m->cameras, sizeof *m->cameras,
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
        out->pos[a] = (float)pki_lerp(k0->pos[a], k1->pos[a], cam_curve(k1->interp, a, s));
    double ur = cam_curve(k1->interp, 3, s);
    for (int a = 0; a < 3; a++)
        out->rot[a] = (float)pki_lerp(k0->rot[a], k1->rot[a], ur);
    out->distance = (float)pki_lerp(k0->distance, k1->distance, cam_curve(k1->interp, 4, s));
    double fov = pki_lerp((double)k0->fov, (double)k1->fov, cam_curve(k1->interp, 5, s));
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
        pki_seg_search(keys, n, frame, m->lights, sizeof *m->lights, offsetof(pk_light_key, frame));
    const pk_light_key *k0 = &m->lights[keys[i - 1]], *k1 = &m->lights[keys[i]];
    double s = (frame - (double)k0->frame) / ((double)k1->frame - (double)k0->frame);
    out->frame = (uint32_t)floor(frame);
    for (int a = 0; a < 3; a++) {
        out->color[a] = (float)pki_lerp(k0->color[a], k1->color[a], s);
        out->direction[a] = (float)pki_lerp(k0->direction[a], k1->direction[a], s);
    }
    return true;
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
            pk_error(log, PK_E_NO_MEMORY, "out of memory sampling the motion");
        else
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
        pk_pose_free(p);
        return NULL;
    }
    return p;
}
