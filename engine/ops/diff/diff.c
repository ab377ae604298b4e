/* diff.c — bone-by-bone differences between poses and between motions.
 *
 * Matching is on raw CP932 name bytes (names are interned per document, so
 * ids of the two sides are unrelated).  MMD cuts VMD bone and morph names
 * at 15 bytes, VPD names at 19, so a long name also matches the name as
 * MMD stored it on the other side: cut at the raw byte or at the last whole
 * character (names.c's one rule, pki_names_find_stored; doc/formats.md §4).
 *
 * A bone or morph on one side only is compared with the rest pose: that is
 * what the model shows for it, so a VPD that lists every bone at identity
 * does not differ from a motion that simply has no keys for them.
 */
#include "common/grow.h"
#include "math/quat.h"
#include "model/names.h"
#include "ops/diff/diff.h"
#include "ops/sample/cursor.h"
#include "posekit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void bone_free(pk_diff_bone *b)
{
    free(b->name);
    free(b->raw);
    free(b->frames);
    free(b->bin_deg);
    free(b->bin_pos);
}

void pk_diff_free(pk_diff *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nbones; i++)
        bone_free(&d->bones[i]);
    for (size_t i = 0; i < d->nmorphs; i++) {
        free(d->morphs[i].name);
        free(d->morphs[i].raw);
        free(d->morphs[i].bins);
    }
    for (size_t i = 0; i < d->nscene; i++)
        free(d->scene[i].bins);
    free(d->bones);
    free(d->morphs);
    free(d->scene);
    free(d);
}

/* ---- name matching ---- */

/* One item (bone or morph) of the union of both sides: the name ids on
 * each side (PK_NO_NAME when absent) and which table names it. */
typedef struct pair {
    pk_name_id a, b;
} pair;

typedef struct pairs {
    pair *v;
    size_t n, cap;
} pairs;

static bool pairs_push(pairs *p, pk_name_id a, pk_name_id b)
{
    pair *v = pki_grow_push(&p->v, &p->n, &p->cap, sizeof *p->v);
    if (!v)
        return false;
    *v = (pair){a, b};
    return true;
}

/* Builds the union of the names listed (ids_a[i] in table ta, ids_b[j] in
 * tb, each list already free of duplicates): A's order, then B-only
 * names.  A B name claimed by a longer A name (MMD's cut) is not listed
 * again; nor is a longer B name whose cut form A has. */
static bool union_names(const pk_names *ta, const pk_name_id *ids_a, size_t na, const pk_names *tb,
                        const pk_name_id *ids_b, size_t nb, const pk_diff_options *o, bool filter,
                        pairs *out)
{
    size_t nbt = pk_names_count(tb);
    bool *claimed = calloc(nbt ? nbt : 1, sizeof *claimed);
    if (!claimed)
        return false;
    bool *listed_b = calloc(nbt ? nbt : 1, sizeof *listed_b);
    if (!listed_b) {
        free(claimed);
        return false;
    }
    for (size_t j = 0; j < nb; j++)
        listed_b[ids_b[j]] = true;
    bool ok = true;
    for (size_t i = 0; ok && i < na; i++) {
        size_t len;
        const uint8_t *raw = pk_names_raw(ta, ids_a[i], &len);
        if (filter && o->bone_filter && !o->bone_filter(o->filter_ctx, raw, len))
            continue;
        pk_name_id b = pki_names_find_stored(tb, raw, len);
        if (b != PK_NO_NAME && (!listed_b[b] || claimed[b]))
            b = PK_NO_NAME; /* a name in B's table that B does not use here */
        if (b != PK_NO_NAME)
            claimed[b] = true;
        ok = pairs_push(out, ids_a[i], b);
    }
    for (size_t j = 0; ok && j < nb; j++) {
        pk_name_id b = ids_b[j];
        if (claimed[b])
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(tb, b, &len);
        if (filter && o->bone_filter && !o->bone_filter(o->filter_ctx, raw, len))
            continue;
        /* B's long name whose cut A lists (A-only so far): pair them. */
        size_t cuts[4], ncuts = pki_name_cuts(raw, len, cuts);
        bool paired = false;
        for (size_t c = 0; c < ncuts && !paired; c++) {
            pk_name_id a = pk_names_find(ta, raw, cuts[c]);
            for (size_t k = 0; a != PK_NO_NAME && k < out->n && !paired; k++)
                if (out->v[k].a == a && out->v[k].b == PK_NO_NAME) {
                    out->v[k].b = b;
                    paired = true;
                }
        }
        if (!paired)
            ok = pairs_push(out, PK_NO_NAME, b);
    }
    free(claimed);
    free(listed_b);
    return ok;
}

/* Display and raw name of a pair, from whichever side has it. */
static bool set_names(const pk_names *ta, const pk_names *tb, pair p, char **name, uint8_t **raw,
                      size_t *raw_len, int *only_in)
{
    const pk_names *t = p.a != PK_NO_NAME ? ta : tb;
    pk_name_id id = p.a != PK_NO_NAME ? p.a : p.b;
    *only_in = p.a == PK_NO_NAME   ? PK_DIFF_ONLY_B
               : p.b == PK_NO_NAME ? PK_DIFF_ONLY_A
                                   : PK_DIFF_BOTH;
    size_t len;
    const uint8_t *r = pk_names_raw(t, id, &len);
    const char *u = pk_names_utf8(t, id);
    *name = malloc(strlen(u) + 1);
    *raw = malloc(len ? len : 1);
    if (!*name || !*raw)
        return false;
    memcpy(*name, u, strlen(u) + 1);
    if (len)
        memcpy(*raw, r, len);
    *raw_len = len;
    return true;
}

static void count_rows(pk_diff *d)
{
    d->bones_differ = d->morphs_differ = d->only_a = d->only_b = 0;
    for (size_t i = 0; i < d->nbones; i++) {
        d->bones_differ += d->bones[i].differs;
        d->only_a += d->bones[i].only_in == PK_DIFF_ONLY_A;
        d->only_b += d->bones[i].only_in == PK_DIFF_ONLY_B;
    }
    for (size_t i = 0; i < d->nmorphs; i++) {
        d->morphs_differ += d->morphs[i].differs;
        d->only_a += d->morphs[i].only_in == PK_DIFF_ONLY_A;
        d->only_b += d->morphs[i].only_in == PK_DIFF_ONLY_B;
    }
}

/* Allocates the row arrays of a new diff. */
static pk_diff *diff_new(size_t nbones, size_t nmorphs)
{
    pk_diff *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->bones = calloc(nbones ? nbones : 1, sizeof *d->bones);
    d->morphs = calloc(nmorphs ? nmorphs : 1, sizeof *d->morphs);
    if (!d->bones || !d->morphs) {
        pk_diff_free(d);
        return NULL;
    }
    return d;
}

/* A filter that kept nothing compared nothing: an error, not "identical". */
static bool selection_matched(const pk_diff *d, const pk_diff_options *o, pk_log *log)
{
    if (!o->bone_filter || d->nbones + d->nmorphs > 0)
        return true;
    pk_error(log, PK_E_NOT_FOUND, "the selection '%s' matches no bone%s of either input",
             o->filter_spec ? o->filter_spec : "", o->no_morphs ? "" : " or morph");
    return false;
}

/* ---- poses ---- */

/* Ids of the bones (or morphs) of a pose, each name once (the last record
 * of a repeated name is the one that counts, as pk_pose_find_* say). */
static pk_name_id *pose_ids(const pk_pose *p, bool morphs, size_t *n)
{
    size_t count = morphs ? p->nmorphs : p->nbones;
    pk_name_id *ids = malloc((count ? count : 1) * sizeof *ids);
    if (!ids)
        return NULL;
    *n = 0;
    for (size_t i = 0; i < count; i++) {
        pk_name_id id = morphs ? p->morphs[i].name : p->bones[i].name;
        long last = morphs ? pk_pose_find_morph(p, id) : pk_pose_find_bone(p, id);
        if (last == (long)i)
            ids[(*n)++] = id;
    }
    return ids;
}

pk_diff *pk_diff_poses(const pk_pose *a, const pk_pose *b, const pk_diff_options *o, pk_log *log)
{
    pk_diff_options defaults;
    if (!o) {
        pk_diff_options_init(&defaults);
        o = &defaults;
    }
    size_t nba, nbb, nma = 0, nmb = 0;
    pk_name_id *ba = pose_ids(a, false, &nba), *bb = pose_ids(b, false, &nbb);
    pk_name_id *ma = pose_ids(a, true, &nma), *mb = pose_ids(b, true, &nmb);
    pairs pb = {0}, pm = {0};
    bool ok = ba && bb && ma && mb &&
              union_names(a->names, ba, nba, b->names, bb, nbb, o, true, &pb) &&
              (o->no_morphs || union_names(a->names, ma, nma, b->names, mb, nmb, o, true, &pm));
    pk_diff *d = ok ? diff_new(pb.n, pm.n) : NULL;
    ok = d != NULL;
    static const float rest_pos[3] = {0, 0, 0}, rest_rot[4] = {0, 0, 0, 1};
    for (size_t i = 0; ok && i < pb.n; i++) {
        pk_diff_bone *r = &d->bones[d->nbones++];
        ok = set_names(a->names, b->names, pb.v[i], &r->name, &r->raw, &r->raw_len, &r->only_in);
        const pk_pose_bone *x =
            pb.v[i].a == PK_NO_NAME ? NULL : &a->bones[pk_pose_find_bone(a, pb.v[i].a)];
        const pk_pose_bone *y =
            pb.v[i].b == PK_NO_NAME ? NULL : &b->bones[pk_pose_find_bone(b, pb.v[i].b)];
        r->angle_deg = pk_quat_angle_deg(x ? x->rot : rest_rot, y ? y->rot : rest_rot);
        r->pos_delta = pki_diff_distance(x ? x->pos : rest_pos, y ? y->pos : rest_pos);
        r->angle_mean = r->angle_deg;
        r->pos_mean = r->pos_delta;
        r->differs = pki_diff_over(r->angle_deg, o->threshold_deg) ||
                     pki_diff_over(r->pos_delta, o->pos_threshold);
    }
    for (size_t i = 0; ok && i < pm.n; i++) {
        pk_diff_morph *r = &d->morphs[d->nmorphs++];
        ok = set_names(a->names, b->names, pm.v[i], &r->name, &r->raw, &r->raw_len, &r->only_in);
        r->weight_a =
            pm.v[i].a == PK_NO_NAME ? 0.0 : a->morphs[pk_pose_find_morph(a, pm.v[i].a)].weight;
        r->weight_b =
            pm.v[i].b == PK_NO_NAME ? 0.0 : b->morphs[pk_pose_find_morph(b, pm.v[i].b)].weight;
        r->delta = pki_diff_sub(r->weight_b, r->weight_a);
        r->mean = fabs(r->delta);
        r->differs = pki_diff_over(fabs(r->delta), o->morph_threshold);
    }
    free(ba);
    free(bb);
    free(ma);
    free(mb);
    free(pb.v);
    free(pm.v);
    if (!ok) {
        pk_diff_free(d);
        pk_error(log, PK_E_NO_MEMORY, "out of memory comparing poses");
        return NULL;
    }
    if (!selection_matched(d, o, log)) {
        pk_diff_free(d);
        return NULL;
    }
    count_rows(d);
    return d;
}

/* ---- motions ---- */

static pk_name_id *track_ids(const pk_track *t, size_t n)
{
    pk_name_id *ids = malloc((n ? n : 1) * sizeof *ids);
    if (ids)
        for (size_t i = 0; i < n; i++)
            ids[i] = t[i].name;
    return ids;
}

static bool finite_n(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

/* The frame from which a track no longer changes: the first key of its
 * trailing run of keys with the same finite values (bytes), or its last
 * key (0 for a missing or empty track, which holds the rest pose
 * throughout).  From that key on every segment starts and ends on the
 * same value, which the cursor gives exactly, and the last key's value
 * holds after it.  A bone a dance keys again without moving it, or only
 * at the start and the end, is walked no further than that. */
static uint32_t bone_tail(const pk_motion *m, const pk_track *t)
{
    if (!t || !t->count)
        return 0;
    size_t i = t->count - 1;
    const pk_bone_key *end = &m->bones[t->keys[i]];
    if (finite_n(end->pos, 3) && finite_n(end->rot, 4))
        while (i > 0) {
            const pk_bone_key *k = &m->bones[t->keys[i - 1]];
            if (memcmp(k->pos, end->pos, sizeof k->pos) != 0 ||
                memcmp(k->rot, end->rot, sizeof k->rot) != 0)
                break;
            i--;
        }
    return m->bones[t->keys[i]].frame;
}

static uint32_t morph_tail(const pk_motion *m, const pk_track *t)
{
    if (!t || !t->count)
        return 0;
    size_t i = t->count - 1;
    const pk_morph_key *end = &m->morphs[t->keys[i]];
    if (isfinite(end->weight))
        while (i > 0 &&
               memcmp(&m->morphs[t->keys[i - 1]].weight, &end->weight, sizeof end->weight) == 0)
            i--;
    return m->morphs[t->keys[i]].frame;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

typedef struct bone_walk {
    pk_cursor ca, cb;
    bool angle_only; /* the distance never changes: one value per frame */
} bone_walk;

static void bone_block(void *ctx, uint32_t first, size_t n, double *v)
{
    bone_walk *w = ctx;
    float pa[PKI_DIFF_BLOCK][3], qa[PKI_DIFF_BLOCK][4], pb[PKI_DIFF_BLOCK][3],
        qb[PKI_DIFF_BLOCK][4];
    pki_cursor_bone_run(&w->ca, first, n, pa, qa);
    pki_cursor_bone_run(&w->cb, first, n, pb, qb);
    /* the cursor's rotations are unit and finite: no checks needed */
    for (size_t j = 0; j < n; j++) {
        double da[4] = {qa[j][0], qa[j][1], qa[j][2], qa[j][3]};
        double db[4] = {qb[j][0], qb[j][1], qb[j][2], qb[j][3]};
        v[j] = pki_qd_angle_deg(da, db);
    }
    if (w->angle_only)
        return;
    for (size_t j = n; j-- > 0;) { /* spread to angle, distance pairs */
        v[2 * j] = v[j];
        v[2 * j + 1] = pki_diff_distance(pa[j], pb[j]);
    }
}

/* True when every frame of track t (NULL or empty: the rest pose) has
 * the translation *pos: all its keys hold the same finite bytes, so the
 * cursor gives exactly that (a translation that does not change is never
 * computed).  Most bones of a dance never move. */
static bool still_pos(const pk_motion *m, const pk_track *t, float pos[3])
{
    static const float rest[3] = {0.0f, 0.0f, 0.0f};
    const float *p = t && t->count ? m->bones[t->keys[0]].pos : rest;
    if (!finite_n(p, 3))
        return false;
    for (size_t i = 1; t && i < t->count; i++)
        if (memcmp(m->bones[t->keys[i]].pos, p, 3 * sizeof *p) != 0)
            return false;
    memcpy(pos, p, 3 * sizeof *p);
    return true;
}

/* Two tracks whose keys are the same bytes (frame, values, curves), all
 * finite, sample alike at every frame: their difference is 0 throughout,
 * exactly what the walk would find one frame at a time.  A diff of a
 * motion with an edited copy of itself is mostly such tracks. */
static bool same_bone_track(const pk_motion *ma, const pk_track *ta, const pk_motion *mb,
                            const pk_track *tb)
{
    if (!ta || !tb || ta->count == 0 || ta->count != tb->count)
        return false;
    for (size_t i = 0; i < ta->count; i++) {
        const pk_bone_key *ka = &ma->bones[ta->keys[i]], *kb = &mb->bones[tb->keys[i]];
        if (ka->frame != kb->frame || memcmp(ka->pos, kb->pos, sizeof ka->pos) != 0 ||
            memcmp(ka->rot, kb->rot, sizeof ka->rot) != 0 ||
            memcmp(ka->interp, kb->interp, sizeof ka->interp) != 0 || !finite_n(ka->pos, 3) ||
            !finite_n(ka->rot, 4))
            return false;
    }
    return true;
}

static bool same_morph_track(const pk_motion *ma, const pk_track *ta, const pk_motion *mb,
                             const pk_track *tb)
{
    if (!ta || !tb || ta->count == 0 || ta->count != tb->count)
        return false;
    for (size_t i = 0; i < ta->count; i++) {
        const pk_morph_key *ka = &ma->morphs[ta->keys[i]], *kb = &mb->morphs[tb->keys[i]];
        if (ka->frame != kb->frame || memcmp(&ka->weight, &kb->weight, sizeof ka->weight) != 0 ||
            !isfinite(ka->weight))
            return false;
    }
    return true;
}

static void bone_over_range(const pk_motion *ma, const pk_track *ta, const pk_motion *mb,
                            const pk_track *tb, uint32_t first, uint32_t last, size_t nbins,
                            const pk_diff_options *o, pk_diff_bone *r)
{
    if (same_bone_track(ma, ta, mb, tb)) {
        /* what the walk gives: 0 everywhere, the maxima at the first frame
         * (the bins are already zeroed) */
        r->angle_deg = r->pos_delta = r->angle_mean = r->pos_mean = 0.0;
        r->angle_frame = r->pos_frame = first;
        if (r->frames)
            memset(r->frames, 0, ((size_t)last - first + 1) * sizeof *r->frames);
        r->differs = false;
        return;
    }
    bone_walk w;
    pk_cursor_init(&w.ca, ma, ta);
    pk_cursor_init(&w.cb, mb, tb);
    pki_diff_chan ch[2] = {{.max = -1.0, .bins = r->bin_deg, .frames = r->frames},
                           {.max = -1.0, .bins = r->bin_pos}};
    float pa[3], pb[3];
    w.angle_only = still_pos(ma, ta, pa) && still_pos(mb, tb, pb);
    if (w.angle_only)
        pki_diff_fold_const(&ch[1], pki_diff_distance(pa, pb), first, last, nbins);
    pki_diff_walk_blocks(first, last, max_u32(bone_tail(ma, ta), bone_tail(mb, tb)), nbins,
                         bone_block, &w, ch, w.angle_only ? 1 : 2);
    double n = (double)last - first + 1.0;
    r->angle_deg = ch[0].max;
    r->angle_frame = ch[0].frame;
    r->angle_mean = ch[0].sum / n;
    r->pos_delta = ch[1].max;
    r->pos_frame = ch[1].frame;
    r->pos_mean = ch[1].sum / n;
    r->differs = pki_diff_over(r->angle_deg, o->threshold_deg) ||
                 pki_diff_over(r->pos_delta, o->pos_threshold);
}

typedef struct morph_walk {
    pk_cursor ca, cb;
} morph_walk;

static void morph_sample(void *ctx, uint32_t f, double *v)
{
    morph_walk *w = ctx;
    v[0] =
        fabs(pki_diff_sub(pk_cursor_morph(&w->cb, (double)f), pk_cursor_morph(&w->ca, (double)f)));
}

static void morph_over_range(const pk_motion *ma, const pk_track *ta, const pk_motion *mb,
                             const pk_track *tb, uint32_t first, uint32_t last, size_t nbins,
                             const pk_diff_options *o, pk_diff_morph *r)
{
    if (same_morph_track(ma, ta, mb, tb)) { /* as for bones above */
        r->frame = first;
        r->weight_a = r->weight_b = pk_sample_morph(ma, ta, (double)first);
        r->delta = r->mean = 0.0;
        r->differs = false;
        return;
    }
    morph_walk w;
    pk_cursor_init(&w.ca, ma, ta);
    pk_cursor_init(&w.cb, mb, tb);
    pki_diff_chan ch = {.max = -1.0, .bins = r->bins};
    pki_diff_walk(first, last, max_u32(morph_tail(ma, ta), morph_tail(mb, tb)), nbins, morph_sample,
                  &w, &ch, 1);
    /* the weights (and the sign) at the first frame of the maximum */
    r->frame = ch.frame;
    r->weight_a = pk_sample_morph(ma, ta, (double)r->frame);
    r->weight_b = pk_sample_morph(mb, tb, (double)r->frame);
    r->delta = pki_diff_sub(r->weight_b, r->weight_a);
    r->mean = ch.sum / ((double)last - first + 1.0);
    r->differs = pki_diff_over(fabs(r->delta), o->morph_threshold);
}

pk_diff *pk_diff_motions(const pk_motion *a, const pk_motion *b, uint32_t first, uint32_t last,
                         const pk_diff_options *o, pk_log *log)
{
    pk_diff_options defaults;
    if (!o) {
        pk_diff_options_init(&defaults);
        o = &defaults;
    }
    if (first > last) {
        pk_error(log, PK_E_USAGE, "empty frame range %u-%u", first, last);
        return NULL;
    }
    if (last - first >= PK_DIFF_MAX_FRAMES) {
        pk_error(log, PK_E_UNSUPPORTED,
                 "frame range %u-%u is %llu frames; at most %u can be compared (choose a "
                 "shorter range with --frames A-B)",
                 first, last, (unsigned long long)last - first + 1, PK_DIFF_MAX_FRAMES);
        return NULL;
    }
    pk_tracks *ta = pk_tracks_build(a, log), *tb = ta ? pk_tracks_build(b, log) : NULL;
    if (!ta || !tb) {
        pk_tracks_free(ta);
        return NULL;
    }
    pk_name_id *ba = track_ids(ta->bones, ta->nbones), *bb = track_ids(tb->bones, tb->nbones);
    pk_name_id *ma = track_ids(ta->morphs, ta->nmorphs), *mb = track_ids(tb->morphs, tb->nmorphs);
    pairs pb = {0}, pm = {0};
    bool ok = ba && bb && ma && mb &&
              union_names(a->names, ba, ta->nbones, b->names, bb, tb->nbones, o, true, &pb) &&
              (o->no_morphs ||
               union_names(a->names, ma, ta->nmorphs, b->names, mb, tb->nmorphs, o, true, &pm));
    pk_diff *d = ok ? diff_new(pb.n, pm.n) : NULL;
    ok = d != NULL;
    size_t nframes = (size_t)last - first + 1;
    size_t nbins = o->bins < nframes ? o->bins : nframes;
    if (ok) {
        d->range = true;
        d->first = first;
        d->last = last;
        d->nbins = nbins;
    }
    for (size_t i = 0; ok && i < pb.n; i++) {
        pk_diff_bone *r = &d->bones[d->nbones++];
        ok = set_names(a->names, b->names, pb.v[i], &r->name, &r->raw, &r->raw_len, &r->only_in);
        if (ok && o->keep_frames) {
            r->frames = malloc(nframes * sizeof *r->frames);
            ok = r->frames != NULL;
        }
        if (ok && nbins) {
            r->bin_deg = calloc(nbins, sizeof *r->bin_deg);
            r->bin_pos = calloc(nbins, sizeof *r->bin_pos);
            ok = r->bin_deg && r->bin_pos;
        }
        if (ok)
            bone_over_range(a, pb.v[i].a == PK_NO_NAME ? NULL : pk_tracks_bone(ta, pb.v[i].a), b,
                            pb.v[i].b == PK_NO_NAME ? NULL : pk_tracks_bone(tb, pb.v[i].b), first,
                            last, nbins, o, r);
    }
    for (size_t i = 0; ok && i < pm.n; i++) {
        pk_diff_morph *r = &d->morphs[d->nmorphs++];
        ok = set_names(a->names, b->names, pm.v[i], &r->name, &r->raw, &r->raw_len, &r->only_in);
        if (ok && nbins) {
            r->bins = calloc(nbins, sizeof *r->bins);
            ok = r->bins != NULL;
        }
        if (ok)
            morph_over_range(a, pm.v[i].a == PK_NO_NAME ? NULL : pk_tracks_morph(ta, pm.v[i].a), b,
                             pm.v[i].b == PK_NO_NAME ? NULL : pk_tracks_morph(tb, pm.v[i].b), first,
                             last, nbins, o, r);
    }
    free(ba);
    free(bb);
    free(ma);
    free(mb);
    free(pb.v);
    free(pm.v);
    pk_tracks_free(ta);
    pk_tracks_free(tb);
    if (!ok) {
        pk_diff_free(d);
        pk_error(log, PK_E_NO_MEMORY, "out of memory comparing motions");
        return NULL;
    }
    if (!selection_matched(d, o, log) ||
        (!o->bone_filter && !o->no_scene && !pk_diff_add_scene(d, a, b, first, last, o, log))) {
        pk_diff_free(d);
        return NULL;
    }
    count_rows(d);
    return d;
}

/* ---- order ---- */

static int cmp_bone(const void *x, const void *y)
{
    const pk_diff_bone *a = x, *b = y;
    if (a->angle_deg != b->angle_deg)
        return a->angle_deg > b->angle_deg ? -1 : 1;
    if (a->pos_delta != b->pos_delta)
        return a->pos_delta > b->pos_delta ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int cmp_morph(const void *x, const void *y)
{
    const pk_diff_morph *a = x, *b = y;
    double da = fabs(a->delta), db = fabs(b->delta);
    if (da != db)
        return da > db ? -1 : 1;
    return strcmp(a->name, b->name);
}

void pk_diff_sort(pk_diff *d)
{
    /* Ties on every key are only possible between equal names (a pose
     * with a name repeated is de-duplicated first), so qsort's
     * instability cannot show.  qsort takes no NULL array, even an empty
     * one (a world comparison has no morphs). */
    if (d->nbones > 1)
        qsort(d->bones, d->nbones, sizeof *d->bones, cmp_bone);
    if (d->nmorphs > 1)
        qsort(d->morphs, d->nmorphs, sizeof *d->morphs, cmp_morph);
}

bool pk_diff_any(const pk_diff *d)
{
    return d->bones_differ + d->morphs_differ + d->scene_differ > 0;
}
