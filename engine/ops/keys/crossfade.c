/* crossfade.c — the end of one motion into the start of another
 * (posekit.h, pk_motion_crossfade).
 *
 * With D = start + shift_b (where b's frame 0 lands) and E = start + frames
 * (the fade's end):
 *   L = a trimmed to [0, start] (time.c: curve-exact edge, a key at start)
 *   R = b trimmed to [E - D, end], shifted by D (a key at E)
 *   fade: a key at every frame start+1 .. E-1 of every bone and morph
 *         either motion keys, the blend of a(f) and b(f - D) by the ease
 *         of (f - start) / frames; a track L or R lacks gets a key at
 *         start or E holding its value there (rest when the motion has
 *         no such track)
 * then the fade's keys are reduced (pk_motion_reduce over [start, E]),
 * which keeps L's and R's keys outside the fade as they are.
 */
#include "math/curve.h"
#include "model/names.h"
#include "posekit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t FADE_CP[4] = PK_FADE_CURVE;

/* The record's pad id of `from` as an id of to's pads (0: zeros). */
static uint32_t pad_in(const pk_motion *from, pk_motion *to, uint32_t pad, bool *oom)
{
    if (pad == 0)
        return 0;
    size_t len;
    const uint8_t *raw = pk_names_raw(from->pads, pad - 1, &len);
    pk_name_id id = pk_names_intern(to->pads, raw, len);
    if (id == PK_NO_NAME) {
        *oom = true;
        return 0;
    }
    return id + 1;
}

static pk_name_id name_in(const pk_names *from, pk_name_id id, pk_names *to, bool *oom)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(from, id, &len);
    pk_name_id r = pk_names_intern(to, raw, len);
    if (r == PK_NO_NAME)
        *oom = true;
    return r;
}

/* Every record of r appended to out (names and pads re-interned). */
static bool append_all(pk_motion *out, const pk_motion *r)
{
    bool oom = false;
    for (size_t i = 0; i < r->nbones && !oom; i++) {
        pk_bone_key *k = pk_motion_push_bone(out);
        if (!k)
            return false;
        *k = r->bones[i];
        k->name = name_in(r->names, r->bones[i].name, out->names, &oom);
        k->pad = pad_in(r, out, r->bones[i].pad, &oom);
    }
    for (size_t i = 0; i < r->nmorphs && !oom; i++) {
        pk_morph_key *k = pk_motion_push_morph(out);
        if (!k)
            return false;
        *k = r->morphs[i];
        k->name = name_in(r->names, r->morphs[i].name, out->names, &oom);
        k->pad = pad_in(r, out, r->morphs[i].pad, &oom);
    }
    for (size_t i = 0; i < r->ncameras && !oom; i++) {
        pk_camera_key *k = pk_motion_push_camera(out);
        if (!k)
            return false;
        *k = r->cameras[i];
    }
    for (size_t i = 0; i < r->nlights && !oom; i++) {
        pk_light_key *k = pk_motion_push_light(out);
        if (!k)
            return false;
        *k = r->lights[i];
    }
    for (size_t i = 0; i < r->nshadows && !oom; i++) {
        pk_shadow_key *k = pk_motion_push_shadow(out);
        if (!k)
            return false;
        *k = r->shadows[i];
    }
    for (size_t i = 0; i < r->niks && !oom; i++) {
        const pk_ik_key *src = &r->iks[i];
        pk_ik_key *k = pk_motion_push_ik(out, src->count);
        if (!k)
            return false;
        k->frame = src->frame;
        k->show = src->show;
        for (uint32_t j = 0; j < src->count && !oom; j++) {
            k->ik[j] = src->ik[j];
            k->ik[j].name = name_in(r->names, src->ik[j].name, out->names, &oom);
            k->ik[j].pad = pad_in(r, out, src->ik[j].pad, &oom);
        }
    }
    return !oom;
}

/* The track of motion m (tracks t) with the raw name of `names`' id, or
 * NULL. */
static const pk_track *track_of(const pk_motion *m, const pk_tracks *t, const pk_names *names,
                                pk_name_id id, bool morph)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(names, id, &len);
    pk_name_id mid = pk_names_find(m->names, raw, len);
    if (mid == PK_NO_NAME)
        return NULL;
    return morph ? pk_tracks_morph(t, mid) : pk_tracks_bone(t, mid);
}

static bool has_key_at(const pk_motion *m, const pk_track *t, bool morph, uint32_t f)
{
    for (size_t i = 0; t && i < t->count; i++)
        if ((morph ? m->morphs[t->keys[i]].frame : m->bones[t->keys[i]].frame) == f)
            return true;
    return false;
}

typedef struct fade_env {
    const pk_motion *a, *b, *l, *r;
    const pk_tracks *ta, *tb, *tl, *tr;
    uint32_t start, end;
    int64_t d; /* where b's frame 0 lands */
    pk_motion *out;
} fade_env;

/* Does the track stay where it is through the fade, in both motions (every
 * value within 1e-6 of a's at the start, component by component)?  Then
 * the fade needs no key: the kept keys on both sides hold that value. */
static bool still(const fade_env *e, const pk_track *ka, const pk_track *kb, bool morph)
{
    float p0[3], r0[4], w0 = 0.0f;
    if (morph)
        w0 = ka ? pk_sample_morph(e->a, ka, e->start) : 0.0f;
    else
        pk_sample_bone(e->a, ka, e->start, p0, r0);
    for (uint32_t f = e->start; f <= e->end; f++) {
        double fb = (double)((int64_t)f - e->d);
        if (fb < 0)
            fb = 0;
        for (int side = 0; side < 2; side++) {
            const pk_motion *m = side ? e->b : e->a;
            const pk_track *k = side ? kb : ka;
            double at = side ? fb : (double)f;
            if (morph) {
                if (fabsf((k ? pk_sample_morph(m, k, at) : 0.0f) - w0) > 1e-6f)
                    return false;
                continue;
            }
            float p[3], r[4];
            pk_sample_bone(m, k, at, p, r);
            for (int x = 0; x < 4; x++)
                if (fabsf(r[x] - r0[x]) > 1e-6f || (x < 3 && fabsf(p[x] - p0[x]) > 1e-6f))
                    return false;
        }
    }
    return true;
}

/* Adds the fade keys of one track named `id` in out->names. */
static bool fade_track(const fade_env *e, pk_name_id id, bool morph)
{
    const pk_names *nm = e->out->names;
    const pk_track *ka = track_of(e->a, e->ta, nm, id, morph);
    const pk_track *kb = track_of(e->b, e->tb, nm, id, morph);
    const pk_track *kl = track_of(e->l, e->tl, nm, id, morph);
    const pk_track *kr = track_of(e->r, e->tr, nm, id, morph);
    if (still(e, ka, kb, morph))
        return true;
    for (uint32_t f = e->start; f <= e->end; f++) {
        if ((f == e->start && has_key_at(e->l, kl, morph, f)) ||
            (f == e->end && has_key_at(e->r, kr, morph, f)))
            continue;
        double fb = (double)((int64_t)f - e->d);
        if (fb < 0)
            fb = 0;
        double s = (double)(f - e->start) / (double)(e->end - e->start);
        float w = (float)pki_curve_progress(FADE_CP, s);
        if (morph) {
            float wa = ka ? pk_sample_morph(e->a, ka, f) : 0.0f;
            float wb = kb ? pk_sample_morph(e->b, kb, fb) : 0.0f;
            pk_morph_key *k = pk_motion_push_morph(e->out);
            if (!k)
                return false;
            k->name = id;
            k->frame = f;
            k->weight = f == e->start ? wa : f == e->end ? wb : wa + (wb - wa) * w;
            continue;
        }
        float pa[3], ra[4], pb[3], rb[4];
        pk_sample_bone(e->a, ka, f, pa, ra);
        pk_sample_bone(e->b, kb, fb, pb, rb);
        pk_bone_key *k = pk_motion_push_bone(e->out);
        if (!k)
            return false;
        k->name = id;
        k->frame = f;
        pk_interp_linear(k->interp);
        if (f == e->start || f == e->end) {
            memcpy(k->pos, f == e->start ? pa : pb, sizeof k->pos);
            memcpy(k->rot, f == e->start ? ra : rb, sizeof k->rot);
            continue;
        }
        for (int x = 0; x < 3; x++)
            k->pos[x] = pa[x] + (pb[x] - pa[x]) * w;
        pk_quat_slerp(ra, rb, w, k->rot);
    }
    return true;
}

pk_motion *pk_motion_crossfade(const pk_motion *a, const pk_motion *b, uint32_t start,
                               uint32_t frames, int64_t shift_b, pk_crossfade_stats *stats,
                               pk_log *log)
{
    pk_crossfade_stats local;
    pk_crossfade_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    if (frames == 0) {
        pk_error(log, PK_E_USAGE, "a crossfade needs a fade of 1 frame or more");
        return NULL;
    }
    uint64_t end = (uint64_t)start + frames;
    int64_t d = (int64_t)start + shift_b;
    if (end > UINT32_MAX || d > (int64_t)UINT32_MAX) {
        pk_error(log, PK_E_USAGE, "the crossfade runs past the last frame number (4294967295)");
        return NULL;
    }
    if (shift_b > (int64_t)frames) {
        pk_error(log, PK_E_USAGE,
                 "the second motion would start %lld frames after the fade ends: its frame 0 "
                 "must land at or before frame %llu",
                 (long long)(shift_b - (int64_t)frames), (unsigned long long)end);
        return NULL;
    }
    pk_time_options ol, orr;
    pk_time_options_init(&ol);
    ol.last = start;
    pk_time_options_init(&orr);
    orr.first = (uint32_t)((int64_t)end - d);
    orr.shift = d;
    pk_motion *l = pk_motion_time(a, &ol, NULL, log);
    pk_motion *r = l ? pk_motion_time(b, &orr, NULL, log) : NULL;
    pk_log quiet;
    pk_log_init(&quiet);
    pk_tracks *ta = pk_tracks_build(a, &quiet), *tb = pk_tracks_build(b, &quiet);
    pk_tracks *tl = l ? pk_tracks_build(l, &quiet) : NULL;
    pk_tracks *tr = r ? pk_tracks_build(r, &quiet) : NULL;
    pk_log_free(&quiet);
    pk_motion *out = NULL, *reduced = NULL;
    if (!l || !r)
        goto done;
    st->keys_a = l->nbones + l->nmorphs;
    st->keys_b = r->nbones + r->nmorphs;
    out = pk_motion_clone(l);
    if (!ta || !tb || !tl || !tr || !out || !append_all(out, r))
        goto oom;
    /* the fade keys of every track either motion has */
    fade_env e = {a, b, l, r, ta, tb, tl, tr, start, (uint32_t)end, d, out};
    size_t nn = pk_names_count(out->names);
    bool *bone = calloc(nn ? nn : 1, sizeof *bone), *morph = calloc(nn ? nn : 1, sizeof *morph);
    if (!bone || !morph) {
        free(bone);
        free(morph);
        goto oom;
    }
    for (size_t i = 0; i < out->nbones; i++)
        bone[out->bones[i].name] = true;
    for (size_t i = 0; i < out->nmorphs; i++)
        morph[out->morphs[i].name] = true;
    bool ok = true;
    for (size_t id = 0; id < nn && ok; id++) {
        if (bone[id]) {
            st->bones++;
            ok = fade_track(&e, (pk_name_id)id, false);
        }
        if (morph[id] && ok) {
            st->morphs++;
            ok = fade_track(&e, (pk_name_id)id, true);
        }
    }
    free(bone);
    free(morph);
    if (!ok)
        goto oom;
    pk_reduce_options ro;
    pk_reduce_options_init(&ro);
    ro.all_frames = false;
    ro.first = start;
    ro.last = (uint32_t)end;
    pk_reduce_stats rs;
    reduced = pk_motion_reduce(out, &ro, &rs, log);
    if (!reduced)
        goto done;
    st->worst_deg = rs.worst_deg;
    st->worst_pos = rs.worst_pos;
    st->worst_morph = rs.worst_morph;
    for (size_t i = 0; i < reduced->nbones; i++)
        st->fade_keys += reduced->bones[i].frame > start && reduced->bones[i].frame < end;
    for (size_t i = 0; i < reduced->nmorphs; i++)
        st->fade_keys += reduced->morphs[i].frame > start && reduced->morphs[i].frame < end;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    pk_motion_free(out);
    pk_motion_free(l);
    pk_motion_free(r);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    pk_tracks_free(tl);
    pk_tracks_free(tr);
    return reduced;
}
