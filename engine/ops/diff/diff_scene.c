/* diff_scene.c — the camera, light, self-shadow and IK switches of two
 * motions compared channel by channel (pk_diff_add_scene; channels and
 * units in posekit.h).
 *
 * A section keyed on one side only is compared with what MMD shows when a
 * motion has no keys for it (its defaults), like a bone on one side only
 * is compared with the rest pose. */
#include "ops/diff/diff.h"
#include "posekit.h"
#include "util/fmath.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define RAD2DEG (180.0 / 3.14159265358979323846)

enum { CAM_CHANNELS = 5, LIGHT_CHANNELS = 2, SHADOW_CHANNELS = 2, IK_CHANNELS = 2 };

/* Which threshold of the options a channel uses. */
enum { TH_POS, TH_DEG, TH_MORPH, TH_SWITCH };

typedef struct channel {
    const char *name, *unit;
    int threshold;
} channel;

static const channel cam_channels[CAM_CHANNELS] = {
    {"camera position", "units", TH_POS},  {"camera distance", "units", TH_POS},
    {"camera rotation", "deg", TH_DEG},    {"camera fov", "deg", TH_DEG},
    {"camera perspective", "", TH_SWITCH},
};
static const channel light_channels[LIGHT_CHANNELS] = {
    {"light colour", "", TH_MORPH},
    {"light direction", "deg", TH_DEG},
};
static const channel shadow_channels[SHADOW_CHANNELS] = {
    {"shadow mode", "", TH_SWITCH},
    {"shadow distance", "", TH_POS},
};

static const channel ik_channels[IK_CHANNELS] = {
    {"ik switches", "", TH_SWITCH},
    {"model display", "", TH_SWITCH},
};

static pk_camera_key default_camera(void)
{
    pk_camera_key k;
    memset(&k, 0, sizeof k);
    k.distance = -45.0f;
    k.pos[1] = 10.0f;
    k.fov = 30;
    return k;
}

static pk_light_key default_light(void)
{
    pk_light_key k = {0, {154.0f / 255, 154.0f / 255, 154.0f / 255}, {-0.5f, -1.0f, 0.5f}};
    return k;
}

static pk_shadow_key default_shadow(void)
{
    pk_shadow_key k = {0, 1, (10000.0f - 8875.0f) / 100000.0f};
    return k;
}

/* The last of n keys (idx into records of `size` bytes at base, frame at
 * `off`) with frame <= f, or the first when all come later. */
static size_t held_key(const uint32_t *idx, size_t n, const void *base, size_t size, size_t off,
                       uint32_t f)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t fm;
        memcpy(&fm, (const uint8_t *)base + (size_t)idx[mid] * size + off, sizeof fm);
        if (fm <= f)
            lo = mid;
        else
            hi = mid;
    }
    return idx[lo];
}

/* Self-shadow keys hold until the next key (no curve); before the first
 * key the first one holds. */
static pk_shadow_key sample_shadow(const pk_motion *m, const pk_tracks *t, uint32_t f)
{
    if (!t->nshadows)
        return default_shadow();
    return m->shadows[held_key(t->shadows, t->nshadows, m->shadows, sizeof *m->shadows,
                               offsetof(pk_shadow_key, frame), f)];
}

/* IK and display keys hold until the next key, like self-shadow ones;
 * NULL when the motion has none (every IK on, the model shown). */
static const pk_ik_key *ik_at(const pk_motion *m, const pk_tracks *t, uint32_t f)
{
    if (!t->niks)
        return NULL;
    return &m->iks[held_key(t->iks, t->niks, m->iks, sizeof *m->iks, offsetof(pk_ik_key, frame),
                            f)];
}

/* IK `name` (raw bytes) in key k of m, or NULL when the key does not list
 * it (or there is no key). */
static const pk_ik_state *ik_listed(const pk_motion *m, const pk_ik_key *k, const uint8_t *name,
                                    size_t len)
{
    for (uint32_t i = 0; k && i < k->count; i++) {
        size_t l;
        const uint8_t *r = pk_names_raw(m->names, k->ik[i].name, &l);
        if (l == len && memcmp(r, name, len) == 0)
            return &k->ik[i];
    }
    return NULL;
}

/* How many IK bones are on in one motion and off in the other, listed by
 * either key; a bone a key does not list keeps MMD's default, on. */
static size_t ik_switches(const pk_motion *ma, const pk_ik_key *ka, const pk_motion *mb,
                          const pk_ik_key *kb)
{
    size_t n = 0;
    for (uint32_t i = 0; ka && i < ka->count; i++) {
        size_t l;
        const uint8_t *r = pk_names_raw(ma->names, ka->ik[i].name, &l);
        const pk_ik_state *b = ik_listed(mb, kb, r, l);
        n += (ka->ik[i].enabled != 0) != (b ? b->enabled != 0 : true);
    }
    for (uint32_t i = 0; kb && i < kb->count; i++) { /* those A does not list: on in A */
        size_t l;
        const uint8_t *r = pk_names_raw(mb->names, kb->ik[i].name, &l);
        n += !ik_listed(ma, ka, r, l) && !kb->ik[i].enabled;
    }
    return n;
}

/* The largest |a[i] - b[i]|; NaN when any is (a NaN is no match).
 * turn > 0: the values are angles of that period, and a difference is
 * taken the short way round (179 and -179 degrees are 2 apart). */
static double max_abs3(const float a[3], const float b[3], double turn)
{
    double m = 0.0;
    for (int i = 0; i < 3; i++) {
        double d = pki_diff_sub(b[i], a[i]);
        double v = fabs(turn > 0.0 && isfinite(d) ? remainder(d, turn) : d);
        if (isnan(v))
            return v;
        m = v > m ? v : m;
    }
    return m;
}

/* Angle between two directions in degrees (0 when either is zero),
 * through the chord as for quaternions: acos loses small angles. */
static double angle3(const float a[3], const float b[3])
{
    static const float zero[3] = {0, 0, 0};
    double la = pki_diff_distance(a, zero), lb = pki_diff_distance(b, zero), ch = 0.0;
    if (la == 0.0 || lb == 0.0)
        return 0.0;
    for (int i = 0; i < 3; i++) {
        double u = a[i] / la - b[i] / lb;
        ch += u * u;
    }
    double h = sqrt(ch) / 2.0;
    return 2.0 * pki_asin(h > 1.0 ? 1.0 : h) * RAD2DEG;
}

typedef struct scene_walk {
    const pk_motion *ma, *mb;
    const pk_tracks *ta, *tb;
} scene_walk;

static pk_camera_key camera_at(const pk_motion *m, const pk_tracks *t, uint32_t f)
{
    pk_camera_key k;
    if (!pk_sample_camera(m, t, (double)f, &k))
        k = default_camera();
    return k;
}

static pk_light_key light_at(const pk_motion *m, const pk_tracks *t, uint32_t f)
{
    pk_light_key k;
    if (!pk_sample_light(m, t, (double)f, &k))
        k = default_light();
    return k;
}

static void camera_sample(void *ctx, uint32_t f, double *v)
{
    const scene_walk *w = ctx;
    pk_camera_key a = camera_at(w->ma, w->ta, f), b = camera_at(w->mb, w->tb, f);
    v[0] = pki_diff_distance(a.pos, b.pos);
    v[1] = fabs(pki_diff_sub(b.distance, a.distance));
    v[2] = max_abs3(a.rot, b.rot, 2.0 * 3.14159265358979323846) * RAD2DEG;
    v[3] = fabs(pki_diff_sub(b.fov, a.fov));
    v[4] = (a.perspective != 0) != (b.perspective != 0) ? 1.0 : 0.0;
}

static void light_sample(void *ctx, uint32_t f, double *v)
{
    const scene_walk *w = ctx;
    pk_light_key a = light_at(w->ma, w->ta, f), b = light_at(w->mb, w->tb, f);
    v[0] = max_abs3(a.color, b.color, 0.0);
    v[1] = angle3(a.direction, b.direction);
}

static void shadow_sample(void *ctx, uint32_t f, double *v)
{
    const scene_walk *w = ctx;
    pk_shadow_key a = sample_shadow(w->ma, w->ta, f), b = sample_shadow(w->mb, w->tb, f);
    v[0] = a.mode != b.mode ? 1.0 : 0.0;
    v[1] = fabs(pki_diff_sub(b.distance, a.distance)) * 100000.0; /* slider units */
}

static void ik_sample(void *ctx, uint32_t f, double *v)
{
    const scene_walk *w = ctx;
    const pk_ik_key *a = ik_at(w->ma, w->ta, f), *b = ik_at(w->mb, w->tb, f);
    v[0] = (double)ik_switches(w->ma, a, w->mb, b);
    v[1] = (a ? a->show != 0 : true) != (b ? b->show != 0 : true) ? 1.0 : 0.0;
}

/* The frame of a section's last key (0 when it has none). */
#define LAST_FRAME(m, t, what, n) ((t)->n ? (m)->what[(t)->what[(t)->n - 1]].frame : 0u)

static uint32_t max_u32(uint32_t x, uint32_t y)
{
    return x > y ? x : y;
}

static double threshold(const pk_diff_options *o, int which)
{
    switch (which) {
    case TH_POS:
        return o->pos_threshold;
    case TH_DEG:
        return o->threshold_deg;
    case TH_MORPH:
        return o->morph_threshold;
    default:
        return 0.5;
    }
}

/* Appends one section's channels to d->scene (already large enough). */
static bool add_section(pk_diff *d, const channel *chs, size_t k, size_t na, size_t nb,
                        uint32_t tail, pki_diff_sample_fn fn, scene_walk *w, uint32_t first,
                        uint32_t last, const pk_diff_options *o)
{
    if (!na && !nb)
        return true;
    pki_diff_chan acc[CAM_CHANNELS];
    pk_diff_scene *rows = &d->scene[d->nscene];
    for (size_t i = 0; i < k; i++) {
        pk_diff_scene *r = &rows[i];
        memset(r, 0, sizeof *r);
        r->name = chs[i].name;
        r->unit = chs[i].unit;
        r->only_in = !na ? PK_DIFF_ONLY_B : !nb ? PK_DIFF_ONLY_A : PK_DIFF_BOTH;
        if (d->nbins) {
            r->bins = calloc(d->nbins, sizeof *r->bins);
            if (!r->bins) {
                d->nscene += i;
                return false;
            }
        }
        acc[i] = (pki_diff_chan){.max = -1.0, .bins = r->bins};
    }
    d->nscene += k;
    pki_diff_walk(first, last, tail, d->nbins, fn, w, acc, k);
    double n = (double)last - first + 1.0;
    for (size_t i = 0; i < k; i++) {
        rows[i].delta = acc[i].max;
        rows[i].frame = acc[i].frame;
        rows[i].mean = acc[i].sum / n;
        rows[i].differs = pki_diff_over(rows[i].delta, threshold(o, chs[i].threshold));
        d->scene_differ += rows[i].differs;
    }
    return true;
}

bool pk_diff_add_scene(pk_diff *d, const pk_motion *a, const pk_motion *b, uint32_t first,
                       uint32_t last, const pk_diff_options *o, pk_log *log)
{
    pk_diff_options defaults;
    if (!o) {
        pk_diff_options_init(&defaults);
        o = &defaults;
    }
    for (size_t i = 0; i < d->nscene; i++)
        free(d->scene[i].bins);
    free(d->scene);
    d->scene = NULL;
    d->nscene = d->scene_differ = 0;
    if (!a->ncameras && !b->ncameras && !a->nlights && !b->nlights && !a->nshadows &&
        !b->nshadows && !a->niks && !b->niks)
        return true;
    if (first > last)
        return true;
    pk_tracks *ta = pk_tracks_build(a, NULL), *tb = ta ? pk_tracks_build(b, NULL) : NULL;
    d->scene = calloc(CAM_CHANNELS + LIGHT_CHANNELS + SHADOW_CHANNELS + IK_CHANNELS,
                      sizeof *d->scene);
    bool ok = ta && tb && d->scene;
    if (ok) {
        scene_walk w = {a, b, ta, tb};
        uint32_t tc =
            max_u32(LAST_FRAME(a, ta, cameras, ncameras), LAST_FRAME(b, tb, cameras, ncameras));
        uint32_t tl =
            max_u32(LAST_FRAME(a, ta, lights, nlights), LAST_FRAME(b, tb, lights, nlights));
        uint32_t ts =
            max_u32(LAST_FRAME(a, ta, shadows, nshadows), LAST_FRAME(b, tb, shadows, nshadows));
        uint32_t ti = max_u32(LAST_FRAME(a, ta, iks, niks), LAST_FRAME(b, tb, iks, niks));
        ok = add_section(d, cam_channels, CAM_CHANNELS, ta->ncameras, tb->ncameras, tc,
                         camera_sample, &w, first, last, o) &&
             add_section(d, light_channels, LIGHT_CHANNELS, ta->nlights, tb->nlights, tl,
                         light_sample, &w, first, last, o) &&
             add_section(d, shadow_channels, SHADOW_CHANNELS, ta->nshadows, tb->nshadows, ts,
                         shadow_sample, &w, first, last, o) &&
             add_section(d, ik_channels, IK_CHANNELS, ta->niks, tb->niks, ti, ik_sample, &w,
                         first, last, o);
    }
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    if (!ok)
        pk_error(log, PK_E_NO_MEMORY, "out of memory comparing cameras, lights and IK switches");
    return ok;
}
