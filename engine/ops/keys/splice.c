/* splice.c — merge's track surgery (splice_internal.h): another motion's
 * keys laid into a window of a base motion (merge --within), and a motion
 * cut at a frame (merge's negative offsets).  Each track is rebuilt by
 * rebuild.c, which keeps the base exactly outside the window.
 */
#include "ops/keys/rebuild.h"
#include "ops/keys/splice.h"
#include "model/names.h"
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

/* The track of `out` a src name lands on: base's own (the same bytes, or
 * the name as MMD stored it cut), or a new name. */
static pk_name_id land(const pk_motion *base, pk_motion *out, const pk_names *src_names,
                       pk_name_id id)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(src_names, id, &len);
    pk_name_id bid = pki_names_find_stored(base->names, raw, len);
    return bid != PK_NO_NAME ? bid : pk_names_intern(out->names, raw, len);
}

/* The plans of one run, bones and morphs. */
typedef struct plans {
    pki_rb_plan *v[2]; /* [0] bones, [1] morphs */
    size_t n[2];
} plans;

static bool plans_alloc(plans *p, size_t nbones, size_t nmorphs)
{
    memset(p, 0, sizeof *p);
    p->v[0] = calloc(nbones + 1, sizeof *p->v[0]);
    p->v[1] = calloc(nmorphs + 1, sizeof *p->v[1]);
    return p->v[0] && p->v[1];
}

static void plans_free(plans *p)
{
    for (int k = 0; k < 2; k++)
        pki_rb_plans_free(p->v[k], p->n[k]);
}

/* Takes the rebuilt track c as the plan of `name`; false on OOM. */
static bool take(plans *p, pki_rb *c, pk_name_id name)
{
    int k = c->morph;
    p->v[k][p->n[k]].name = name;
    p->v[k][p->n[k]++].keys = c->out;
    return !c->oom;
}

static int apply(pk_motion *out, const plans *p, pk_overlay_stats *st)
{
    return pki_rb_apply(out, p->v[0], p->n[0], false, st) != 0 ||
                   pki_rb_apply(out, p->v[1], p->n[1], true, st) != 0
               ? -1
               : 0;
}

pk_motion *pki_splice_motion(const pk_motion *base, const pk_motion *src, uint32_t a, uint32_t b,
                             pk_overlay_stats *stats, pk_log *log)
{
    pk_overlay_stats local;
    pk_overlay_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, a, b, 0, true};
    if (!pki_rb_window_ok(&o, log))
        return NULL;
    pk_log quiet;
    pk_log_init(&quiet);
    pk_tracks *tb = pk_tracks_build(base, &quiet), *ts = pk_tracks_build(src, &quiet);
    pk_log_free(&quiet);
    pk_motion *out = pk_motion_clone(base);
    pki_rb_env env = {base, &o, st, pki_rb_scratch_new(), NULL, false};
    plans p;
    memset(&p, 0, sizeof p);
    if (!tb || !ts || !out || !env.scratch || !plans_alloc(&p, ts->nbones, ts->nmorphs))
        goto oom;
    for (int morph = 0; morph < 2; morph++) {
        size_t n = morph ? ts->nmorphs : ts->nbones;
        for (size_t i = 0; i < n; i++) {
            const pk_track *s = morph ? &ts->morphs[i] : &ts->bones[i];
            pk_name_id bid = land(base, out, src->names, s->name);
            if (bid == PK_NO_NAME)
                goto oom;
            pki_rb c;
            pki_rb_init(&c, &env, morph ? pk_tracks_morph(tb, bid) : pk_tracks_bone(tb, bid),
                        morph);
            c.src = src;
            c.src_t = s;
            pki_rb_range(&c);
            if (morph)
                st->morphs++;
            else
                st->bones++;
            if (!take(&p, &c, bid))
                goto oom;
            if (c.too_long) {
                pk_error(log, PK_E_UNSUPPORTED,
                         "bone '%s': a segment crossed by the edges of frames %u-%u is longer than "
                         "%u frames; it cannot be checked frame by frame",
                         pk_names_utf8(src->names, s->name), a, b, PKI_RB_PIECE_MAX);
                goto fail;
            }
        }
    }
    if (apply(out, &p, st) != 0)
        goto oom;
    plans_free(&p);
    pk_motion_free(env.scratch);
    pk_tracks_free(tb);
    pk_tracks_free(ts);
    return out;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
fail:
    plans_free(&p);
    pk_motion_free(env.scratch);
    pk_motion_free(out);
    pk_tracks_free(tb);
    pk_tracks_free(ts);
    return NULL;
}

/* Removes the records before `cut` of one section (kept in order). */
#define DROP_BEFORE(arr, n, cut, dropped)                                                          \
    do {                                                                                           \
        size_t w_ = 0;                                                                             \
        for (size_t r_ = 0; r_ < (n); r_++) {                                                      \
            if ((arr)[r_].frame < (cut)) {                                                         \
                (*(dropped))++;                                                                    \
                continue;                                                                          \
            }                                                                                      \
            (arr)[w_++] = (arr)[r_];                                                               \
        }                                                                                          \
        (n) = w_;                                                                                  \
    } while (0)

/* Index into a sorted index list of the last record with frame <= cut and
 * whether one is at the cut; SIZE_MAX when every record is after it. */
#define LAST_LE(idx, n, arr, cut, at, out)                                                         \
    do {                                                                                           \
        (out) = SIZE_MAX;                                                                          \
        (at) = false;                                                                              \
        for (size_t i_ = 0; i_ < (n) && (arr)[(idx)[i_]].frame <= (cut); i_++) {                   \
            (out) = i_;                                                                            \
            (at) = (arr)[(idx)[i_]].frame == (cut);                                                \
        }                                                                                          \
    } while (0)

/* Camera, light, shadow and IK: a key at the cut holding the value there. */
static int cut_others(const pk_motion *m, const pk_tracks *t, pk_motion *out, uint32_t cut,
                      size_t *added)
{
    size_t j;
    bool at;
    LAST_LE(t->cameras, t->ncameras, m->cameras, cut, at, j);
    if (j != SIZE_MAX && !at) {
        pk_camera_key k;
        if (pk_sample_camera(m, t, cut, &k)) {
            pk_camera_key *n = pk_motion_push_camera(out);
            if (!n)
                return -1;
            *n = k;
            n->frame = cut;
            (*added)++;
        }
    }
    LAST_LE(t->lights, t->nlights, m->lights, cut, at, j);
    if (j != SIZE_MAX && !at) {
        pk_light_key k;
        if (pk_sample_light(m, t, cut, &k)) {
            pk_light_key *n = pk_motion_push_light(out);
            if (!n)
                return -1;
            *n = k;
            n->frame = cut;
            (*added)++;
        }
    }
    LAST_LE(t->shadows, t->nshadows, m->shadows, cut, at, j);
    if (j != SIZE_MAX && !at) {
        pk_shadow_key *n = pk_motion_push_shadow(out);
        if (!n)
            return -1;
        *n = m->shadows[t->shadows[j]];
        n->frame = cut;
        (*added)++;
    }
    LAST_LE(t->iks, t->niks, m->iks, cut, at, j);
    if (j != SIZE_MAX && !at) {
        const pk_ik_key *src = &m->iks[t->iks[j]];
        pk_ik_key *n = pk_motion_push_ik(out, src->count);
        if (!n)
            return -1;
        n->frame = cut;
        n->show = src->show;
        for (uint32_t i = 0; i < src->count; i++)
            n->ik[i] = src->ik[i];
        (*added)++;
    }
    return 0;
}

/* The records of camera, light, shadow and IK before the cut dropped
 * (counted in *dropped). */
static void drop_others(pk_motion *out, uint32_t cut, size_t *dropped)
{
    DROP_BEFORE(out->cameras, out->ncameras, cut, dropped);
    DROP_BEFORE(out->lights, out->nlights, cut, dropped);
    DROP_BEFORE(out->shadows, out->nshadows, cut, dropped);
    size_t w = 0;
    for (size_t r = 0; r < out->niks; r++) {
        if (out->iks[r].frame < cut) {
            free(out->iks[r].ik); /* each IK record owns its states */
            (*dropped)++;
            continue;
        }
        out->iks[w++] = out->iks[r];
    }
    out->niks = w;
}

pk_motion *pki_motion_cut_before(const pk_motion *m, uint32_t cut, size_t *dropped, size_t *added,
                                 pk_log *log)
{
    *dropped = 0;
    *added = 0;
    pk_overlay_stats st;
    memset(&st, 0, sizeof st);
    pk_overlay_options o = {PK_OVERLAY_REPLACE, false, cut, cut, 0, true};
    pk_log quiet;
    pk_log_init(&quiet);
    pk_tracks *t = pk_tracks_build(m, &quiet);
    pk_log_free(&quiet);
    pk_motion *out = pk_motion_clone(m);
    pki_rb_env env = {m, &o, &st, pki_rb_scratch_new(), NULL, false};
    plans p;
    memset(&p, 0, sizeof p);
    if (!t || !out || !env.scratch || !plans_alloc(&p, t->nbones, t->nmorphs))
        goto oom;
    for (int morph = 0; morph < 2; morph++) {
        size_t n = morph ? t->nmorphs : t->nbones;
        for (size_t i = 0; i < n; i++) {
            const pk_track *tr = morph ? &t->morphs[i] : &t->bones[i];
            uint32_t first = tr->count == 0 ? 0
                             : morph        ? m->morphs[tr->keys[0]].frame
                                            : m->bones[tr->keys[0]].frame;
            if (tr->count == 0 || first >= cut)
                continue; /* nothing before the cut */
            pki_rb c;
            pki_rb_init(&c, &env, tr, morph);
            pki_rb_cut(&c, cut);
            if (!take(&p, &c, tr->name))
                goto oom;
            if (c.too_long) {
                pk_error(log, PK_E_UNSUPPORTED,
                         "bone '%s': the segment the cut at frame %u crosses is longer than %u "
                         "frames; it cannot be checked frame by frame",
                         pk_names_utf8(m->names, tr->name), cut, PKI_RB_PIECE_MAX);
                goto fail;
            }
        }
    }
    if (apply(out, &p, &st) != 0)
        goto oom;
    /* The bone and morph keys before the cut are gone (apply); the other
     * sections' are dropped here, then their held values added. */
    size_t others = 0;
    drop_others(out, cut, &others);
    if (cut_others(m, t, out, cut, added) != 0)
        goto oom;
    /* Records before the cut, and the keys added at the cut (not the bone
     * keys re-curved or baked after it). */
    for (size_t r = 0; r < m->nbones; r++)
        others += m->bones[r].frame < cut;
    for (size_t r = 0; r < m->nmorphs; r++)
        others += m->morphs[r].frame < cut;
    *dropped = others;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < p.n[k]; i++)
            *added += p.v[k][i].keys.n && !p.v[k][i].keys.v[0].orig;
    plans_free(&p);
    pk_motion_free(env.scratch);
    pk_tracks_free(t);
    return out;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
fail:
    plans_free(&p);
    pk_motion_free(env.scratch);
    pk_motion_free(out);
    pk_tracks_free(t);
    return NULL;
}
