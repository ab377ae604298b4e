/*
 * play.c — a motion or a pose played on a model (play.h): every frame
 * evaluated as MMD shows it (ops/skeleton/eval.c: appends, fixed axes,
 * IK with the IK section's states), the world transforms of the bones
 * asked for kept per frame.
 *
 * Each model bone's track is found once (by its CP932 name, or MMD's cut
 * of a longer one) and stepped with a cursor, so a frame costs one
 * evaluation and no lookups.  Only the bones the asked-for ones depend on
 * are evaluated (their parents, append parents, the IK chains that turn
 * them, and what those depend on), as a smaller model in the same order:
 * the sizing steps ask for the arms, the trunk and the legs, a third of
 * a rich model's bones.
 *
 * A play again (pki_play_motion_again) of a motion a step edited: each
 * play keeps, per row, the locals and IK states it evaluated and its
 * chains' solves (eval.h), and the key records of its tracks.  A track
 * whose records are the same as in the last play is not sampled again; a
 * row whose inputs are the same takes the last play's world transforms
 * (fresh[] tells the rows evaluated); in any other row, a chain whose
 * inputs are the same as in the last play's row or in this play's row
 * before (a leg held still) takes that solve.
 * An evaluation depends on nothing else, so the rows are the bits a play
 * from nothing gives.
 */
#include "model/names.h"
#include "ops/sample/sample.h"
#include "ops/skeleton/eval.h"
#include "ops/skeleton/play.h"

#include <stdlib.h>
#include <string.h>

void pki_play_free(pki_play *p)
{
    if (!p)
        return;
    pki_play_lean(p);
    free(p->slot);
    free(p->w);
    free(p->fresh);
    free(p->stale);
    memset(p, 0, sizeof *p);
}

void pki_play_lean(pki_play *p)
{
    free(p->in);
    free(p->on);
    free(p->keys);
    free(p->at);
    free(p->map);
    free(p->memo);
    p->memo = NULL;
    p->in = NULL;
    p->on = NULL;
    p->keys = NULL;
    p->at = NULL;
    p->map = NULL;
}

static bool slots(pki_play *p, const pk_model *m, const bool *watch, uint32_t n)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->n = n;
    p->slot = malloc((m->nbones + 1) * sizeof *p->slot);
    if (!p->slot)
        return false;
    for (size_t i = 0; i < m->nbones; i++)
        p->slot[i] = watch[i] ? (int32_t)p->nwatch++ : -1;
    p->w = malloc(((size_t)n * p->nwatch + 1) * sizeof *p->w);
    p->fresh = calloc(n + 1, sizeof *p->fresh);
    return p->w && p->fresh;
}

static void keep_row(pki_play *p, uint32_t row, const pk_bone_world *all)
{
    pk_bone_world *out = &p->w[(size_t)row * p->nwatch];
    for (size_t i = 0; i < p->m->nbones; i++)
        if (p->slot[i] >= 0)
            out[p->slot[i]] = all[i];
}

/* The bones i with keep[i], in order, into list; returns how many. */
static size_t list_of(const bool *keep, size_t n, int32_t *list)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i])
            list[k++] = (int32_t)i;
    return k;
}

static int play_motion(pki_play *p, const pk_model *m, const pk_motion *mo, uint32_t f0, uint32_t n,
                       const bool *watch, const pki_play *prev, pk_log *log);

/* The motion's name id of model bone i (or of MMD's cut of it). */
static pk_name_id name_in(const pk_model *m, size_t i, const pk_names *names)
{
    size_t len;
    const uint8_t *raw = pki_model_bone_raw(m, i, &len);
    if (!raw)
        return PK_NO_NAME;
    pk_name_id id = pk_names_find(names, raw, len);
    if (id == PK_NO_NAME && len > PK_VMD_NAME_BYTES)
        id = pk_names_find(names, raw, pk_cp932_boundary(raw, PK_VMD_NAME_BYTES));
    return id;
}

/* The bones of m the watched ones depend on, as a model of their own
 * (its bones in m's order; sub->bones[j] is m's bone map[j]).  Returns
 * false on OOM.  The sub-model shares m's names and strings. */
typedef struct trimmed {
    pk_model sub;
    int32_t *map;  /* sub bone -> m bone */
    int32_t *back; /* m bone -> sub bone or -1 */
    pk_model_ik_link *links;
} trimmed;

static void trimmed_free(trimmed *t)
{
    free(t->sub.bones);
    free(t->map);
    free(t->back);
    free(t->links);
}

static bool keep(const pk_model *m, bool *need, int32_t b)
{
    if (b < 0 || (size_t)b >= m->nbones || need[b])
        return false;
    need[b] = true;
    return true;
}

static bool trim(const pk_model *m, const bool *watch, trimmed *t)
{
    size_t nb = m->nbones;
    memset(t, 0, sizeof *t);
    bool *need = calloc(nb + 1, sizeof *need);
    t->back = malloc((nb + 1) * sizeof *t->back);
    t->map = malloc((nb + 1) * sizeof *t->map);
    if (!need || !t->back || !t->map) {
        free(need);
        return false;
    }
    for (size_t i = 0; i < nb; i++)
        need[i] = watch[i];
    /* to a fixed point: parents, append parents, the IK chains turning a
     * needed bone (the IK bone, its target and links) */
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < nb; i++) {
            const pk_model_bone *b = &m->bones[i];
            if (need[i]) {
                grew |= keep(m, need, b->parent);
                if (b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE))
                    grew |= keep(m, need, b->append_parent);
            }
            if (!(b->flags & PK_BONE_IK) || need[i])
                continue;
            bool turns = false;
            for (size_t k = 0; k < b->nik_links && !turns; k++) {
                int32_t l = b->ik_links[k].bone;
                turns = l >= 0 && (size_t)l < nb && need[l];
            }
            if (turns)
                grew |= keep(m, need, (int32_t)i);
        }
        for (size_t i = 0; i < nb; i++) {
            const pk_model_bone *b = &m->bones[i];
            if (!need[i] || !(b->flags & PK_BONE_IK))
                continue;
            grew |= keep(m, need, b->ik_target);
            for (size_t k = 0; k < b->nik_links; k++)
                grew |= keep(m, need, b->ik_links[k].bone);
        }
    }
    size_t n = 0, nlinks = 0;
    for (size_t i = 0; i < nb; i++) {
        t->back[i] = need[i] ? (int32_t)n : -1;
        if (need[i]) {
            t->map[n++] = (int32_t)i;
            nlinks += m->bones[i].nik_links;
        }
    }
    free(need);
    t->sub = *m;
    t->sub.bones = malloc((n + 1) * sizeof *t->sub.bones);
    t->links = malloc((nlinks + 1) * sizeof *t->links);
    if (!t->sub.bones || !t->links)
        return false;
    t->sub.nbones = n;
    size_t used = 0;
    for (size_t j = 0; j < n; j++) {
        pk_model_bone *b = &t->sub.bones[j];
        *b = m->bones[t->map[j]];
        int32_t *refs[3] = {&b->parent, &b->append_parent, &b->ik_target};
        for (int k = 0; k < 3; k++)
            if (*refs[k] >= 0 && (size_t)*refs[k] < nb)
                *refs[k] = t->back[*refs[k]];
        b->tail_bone = -1;
        pk_model_ik_link *l = &t->links[used];
        size_t kept = 0;
        for (size_t k = 0; k < b->nik_links; k++) {
            int32_t x = b->ik_links[k].bone;
            if (x < 0 || (size_t)x >= nb || t->back[x] < 0)
                continue;
            l[kept] = b->ik_links[k];
            l[kept++].bone = t->back[x];
        }
        b->ik_links = l;
        b->nik_links = kept;
        used += kept;
    }
    return true;
}

/* Whether prev was played on the same bones as a play of `full`
 * watching `watch` through the trim tm (its rows are comparable). */
static bool same_play(const pki_play *prev, const pk_model *full, const bool *watch,
                      const trimmed *tm)
{
    if (!prev || !prev->in || prev->m != full || prev->nin != tm->sub.nbones ||
        memcmp(prev->map, tm->map, prev->nin * sizeof *prev->map) != 0)
        return false;
    for (size_t i = 0; i < full->nbones; i++)
        if ((prev->slot[i] >= 0) != watch[i])
            return false;
    return true;
}

int pki_play_motion(pki_play *p, const pk_model *full, const pk_motion *mo, uint32_t f0, uint32_t n,
                    const bool *watch, pk_log *log)
{
    return pki_play_motion_again(p, NULL, full, mo, f0, n, watch, log);
}

int pki_play_motion_again(pki_play *p, const pki_play *prev, const pk_model *full,
                          const pk_motion *mo, uint32_t f0, uint32_t n, const bool *watch,
                          pk_log *log)
{
    trimmed tm;
    if (!trim(full, watch, &tm)) {
        trimmed_free(&tm);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    const pk_model *m = &tm.sub;
    bool *sub_watch = calloc(m->nbones + 1, sizeof *sub_watch);
    if (!sub_watch) {
        trimmed_free(&tm);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t j = 0; j < m->nbones; j++)
        sub_watch[j] = watch[tm.map[j]];
    if (!same_play(prev, full, watch, &tm))
        prev = NULL;
    int rc = play_motion(p, m, mo, f0, n, sub_watch, prev, log);
    free(sub_watch);
    /* the rows by the full model's bones */
    if (rc == 0) {
        int32_t *slot = malloc((full->nbones + 1) * sizeof *slot);
        if (!slot) {
            pki_play_free(p);
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
        } else {
            for (size_t i = 0; i < full->nbones; i++)
                slot[i] = tm.back[i] >= 0 ? p->slot[tm.back[i]] : -1;
            free(p->slot);
            p->slot = slot;
            p->m = full;
            p->map = tm.map;
            tm.map = NULL;
        }
    }
    trimmed_free(&tm);
    return rc;
}

/* The key records of each track into p->keys (p->at set); where prev
 * (the same bones and frames) had the very same records for a bone, its
 * track is not sampled again: has[] cleared, same[] set.  False on OOM. */
static bool keep_keys(pki_play *p, const pk_model *m, const pk_motion *mo, const pk_track *tracks,
                      const pki_play *prev, bool *has, bool *same)
{
    size_t nb = m->nbones;
    p->keys = malloc((p->at[nb] + 1) * sizeof *p->keys);
    if (!p->keys)
        return false;
    for (size_t i = 0; i < nb; i++) {
        same[i] = false;
        if (!has[i])
            continue;
        const pk_track *tr = &tracks[i];
        pk_bone_key *k = &p->keys[p->at[i]];
        for (size_t j = 0; j < tr->count; j++)
            k[j] = mo->bones[tr->keys[j]];
        size_t cnt = p->at[i + 1] - p->at[i];
        same[i] = prev && prev->at[i + 1] - prev->at[i] == cnt &&
                  memcmp(&prev->keys[prev->at[i]], k, cnt * sizeof *k) == 0;
        has[i] = !same[i];
        p->sampled += has[i];
    }
    return true;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* The IK section's records by frame, stable, the last record of a
 * duplicated frame kept (as pk_tracks_build orders them): NULL on OOM. */
static uint32_t *ik_order(const pk_motion *mo, size_t *n)
{
    uint64_t *pairs = malloc((mo->niks + 1) * sizeof *pairs);
    uint32_t *out = malloc((mo->niks + 1) * sizeof *out);
    *n = 0;
    if (!pairs || !out) {
        free(pairs);
        free(out);
        return NULL;
    }
    for (size_t i = 0; i < mo->niks; i++)
        pairs[i] = (uint64_t)mo->iks[i].frame << 32 | (uint32_t)i;
    qsort(pairs, mo->niks, sizeof *pairs, cmp_u64);
    for (size_t i = 0; i < mo->niks; i++)
        if (i + 1 == mo->niks || pairs[i] >> 32 != pairs[i + 1] >> 32)
            out[(*n)++] = (uint32_t)pairs[i];
    free(pairs);
    return out;
}

/* The IK section's records up to frame f (iks: their order, ik_order;
 * *next: the first not yet read) applied to on[], the model's IKs. */
static void ik_states(const pk_model *m, const pk_motion *mo, const uint32_t *iks, size_t niks,
                      size_t *next, uint32_t f, bool *on)
{
    while (*next < niks && mo->iks[iks[*next]].frame <= f) {
        const pk_ik_key *k = &mo->iks[iks[(*next)++]];
        for (uint32_t s = 0; s < k->count; s++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(mo->names, k->ik[s].name, &len);
            long b = raw ? pk_model_find_bone(m, raw, len) : -1;
            if (b >= 0)
                on[b] = k->ik[s].enabled != 0;
        }
    }
}

static int play_motion(pki_play *p, const pk_model *m, const pk_motion *mo, uint32_t f0, uint32_t n,
                       const bool *watch, const pki_play *prev, pk_log *log)
{
    size_t nb = m->nbones;
    pk_rig *rig = NULL;
    pk_track *tracks = calloc(nb + 1, sizeof *tracks);
    pk_name_id *ids = malloc((nb + 1) * sizeof *ids);
    uint32_t *iks = NULL;
    size_t niks = 0;
    bool built = false;
    pk_cursor *cur = malloc((nb + 1) * sizeof *cur);
    bool *has = calloc(nb + 1, sizeof *has), *on = malloc((nb + 1) * sizeof *on);
    bool *same = calloc(nb + 1, sizeof *same);
    pk_bone_local *loc = malloc((nb + 1) * sizeof *loc);
    pk_bone_world *all = malloc((nb + 1) * sizeof *all);
    /* the bones sampled, taken from prev and watched, by index */
    int32_t *sampled = malloc((nb + 1) * sizeof *sampled);
    int32_t *taken = malloc((nb + 1) * sizeof *taken);
    int32_t *watched = malloc((nb + 1) * sizeof *watched);
    int rc = -1;
    if (!cur || !has || !same || !on || !loc || !all || !tracks || !ids || !sampled || !taken ||
        !watched || !slots(p, m, watch, n))
        goto oom;
    p->nin = nb;
    p->in = malloc(((size_t)n * nb + 1) * sizeof *p->in);
    p->on = malloc(((size_t)n * nb + 1) * sizeof *p->on);
    if (!p->in || !p->on)
        goto oom;
    rig = pk_rig_new(m, log);
    if (!rig)
        goto done;
    p->nmemo = pki_rig_memo_size(rig);
    p->memo = malloc(((size_t)n * p->nmemo + 1) * sizeof *p->memo);
    if (!p->memo)
        goto oom;
    /* the evaluated bones' tracks, and the IK section's records by frame */
    for (size_t i = 0; i < nb; i++)
        ids[i] = name_in(m, i, mo->names);
    built = pki_tracks_named(mo, ids, nb, tracks);
    iks = built ? ik_order(mo, &niks) : NULL;
    if (!iks)
        goto oom;
    p->at = calloc(nb + 1, sizeof *p->at);
    if (!p->at)
        goto oom;
    for (size_t i = 0; i < nb; i++) {
        const pk_track *tr = &tracks[i];
        if (tr->count) {
            pk_cursor_init(&cur[i], mo, tr);
            has[i] = true;
        }
        p->at[i + 1] = p->at[i] + (has[i] ? tr->count : 0);
    }
    if (!keep_keys(p, m, mo, tracks, prev && prev->f0 == f0 && prev->n == n ? prev : NULL, has,
                   same))
        goto oom;
    size_t nsampled = list_of(has, nb, sampled), ntaken = list_of(same, nb, taken);
    size_t nwatched = list_of(watch, nb, watched);
    /* the IK section: states by frame, the last record at or before it */
    size_t next_ik = 0;
    for (size_t i = 0; i < nb; i++)
        on[i] = true;
    pk_rig_rest(rig, loc);
    for (uint32_t r = 0; r < n; r++) {
        uint32_t f = f0 + r;
        for (size_t k = 0; k < nsampled; k++) {
            int32_t i = sampled[k];
            pk_cursor_bone(&cur[i], (double)f, loc[i].pos, loc[i].rot);
        }
        for (size_t k = 0; k < ntaken; k++) /* the same keys: the same values */
            loc[taken[k]] = prev->in[(size_t)r * nb + taken[k]];
        ik_states(m, mo, iks, niks, &next_ik, f, on);
        pk_bone_local *in = &p->in[(size_t)r * nb];
        bool *in_on = &p->on[(size_t)r * nb];
        memcpy(in, loc, nb * sizeof *loc);
        memcpy(in_on, on, nb * sizeof *on);
        /* the row of the earlier play, where it evaluated the same; else
         * its IK solves, where a chain's inputs are the same */
        const double *pm = NULL;
        double *memo = &p->memo[(size_t)r * p->nmemo];
        if (prev && f >= prev->f0 && f - prev->f0 < prev->n) {
            size_t pr = f - prev->f0;
            pm = prev->memo && prev->nmemo == p->nmemo ? &prev->memo[pr * p->nmemo] : NULL;
            if (pm && !(prev->stale && prev->stale[pr]) &&
                memcmp(&prev->in[pr * nb], in, nb * sizeof *in) == 0 &&
                memcmp(&prev->on[pr * nb], in_on, nb * sizeof *in_on) == 0) {
                memcpy(&p->w[(size_t)r * p->nwatch], &prev->w[pr * prev->nwatch],
                       p->nwatch * sizeof *p->w);
                memcpy(memo, pm, p->nmemo * sizeof *memo);
                continue;
            }
        }
        const double *near = r ? &p->memo[(size_t)(r - 1) * p->nmemo] : NULL;
        p->solved += pki_rig_eval_memo(rig, loc, on, all, pm, near, memo);
        p->evaluated++;
        p->fresh[r] = true;
        pk_bone_world *row = &p->w[(size_t)r * p->nwatch];
        for (size_t k = 0; k < nwatched; k++)
            row[p->slot[watched[k]]] = all[watched[k]];
    }
    p->f0 = f0;
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    if (rc)
        pki_play_free(p);
    pk_rig_free(rig);
    for (size_t i = 0; built && i < nb; i++)
        free(tracks[i].keys);
    free(tracks);
    free(ids);
    free(iks);
    free(cur);
    free(has);
    free(same);
    free(on);
    free(loc);
    free(all);
    free(sampled);
    free(taken);
    free(watched);
    return rc;
}

/* ---- a play again in place ---- */

/* A run of rows [lo, hi) over which a changed track is sampled. */
typedef struct row_run {
    uint32_t lo, hi;
} row_run;

/* Rows of frames [lo, hi) (lo INT64_MIN and hi INT64_MAX: unbounded) as
 * a run appended to runs (merged with the last where they meet). */
static void push_run(row_run *runs, size_t *nruns, uint32_t f0, uint32_t n, int64_t lo, int64_t hi)
{
    int64_t a = lo - (int64_t)f0, b = hi == INT64_MAX ? (int64_t)n : hi - (int64_t)f0;
    if (lo == INT64_MIN || a < 0)
        a = 0;
    if (b > (int64_t)n)
        b = n;
    if (a >= b)
        return;
    if (*nruns && runs[*nruns - 1].hi >= (uint32_t)a) {
        if (runs[*nruns - 1].hi < (uint32_t)b)
            runs[*nruns - 1].hi = (uint32_t)b;
        return;
    }
    runs[*nruns].lo = (uint32_t)a;
    runs[(*nruns)++].hi = (uint32_t)b;
}

/* The rows where a track whose records were was[0..nw) (frames strictly
 * rising, as a track's) and are now[0..nn) may give another value: a
 * frame's value comes from the last key at or before it and the first
 * after it, so every key of either that the other lacks or holds
 * otherwise changes the frames from the key before it to the one after
 * it (of either).  Each run starts at the play's first row or at a key
 * the two share, a key of the track as it is now, so that sampling a run
 * enters its pieces as a play from the first row does.  runs has room
 * for nw + nn runs; returns how many. */
static size_t changed_runs(const pk_bone_key *was, size_t nw, const pk_bone_key *now, size_t nn,
                           uint32_t f0, uint32_t n, row_run *runs)
{
    size_t i = 0, j = 0, nruns = 0;
    int64_t before = INT64_MIN; /* the last frame of either's keys */
    bool pending = false;       /* a changed key since `start` */
    int64_t start = INT64_MIN;
    while (i < nw || j < nn) {
        uint32_t fw = i < nw ? was[i].frame : UINT32_MAX, fn = j < nn ? now[j].frame : UINT32_MAX;
        uint32_t f = fw < fn ? fw : fn;
        bool same = fw == fn && memcmp(&was[i], &now[j], sizeof *was) == 0;
        if (pending) { /* the changed keys' frames end at this key */
            push_run(runs, &nruns, f0, n, start, f);
            pending = false;
        }
        if (!same) {
            start = before;
            pending = true;
        }
        before = f;
        i += fw == f;
        j += fn == f;
    }
    if (pending)
        push_run(runs, &nruns, f0, n, start, INT64_MAX);
    return nruns;
}

/* What an update samples: per bone, its key records now (keys, at) and,
 * for a bone whose records changed, the runs of rows to sample it over
 * (every row where it lost its track: rest there). */
typedef struct update_plan {
    pk_track *tracks;
    bool built;
    pk_bone_key *keys;
    size_t *at;
    int32_t *changed; /* the bones whose records changed */
    size_t nchanged;
    row_run **runs; /* per changed bone */
    size_t *nruns;
    uint8_t *dirty; /* per row: some changed bone is sampled there */
} update_plan;

static void plan_free(update_plan *u, size_t nb)
{
    for (size_t i = 0; u->built && i < nb; i++)
        free(u->tracks[i].keys);
    for (size_t k = 0; u->runs && k < u->nchanged; k++)
        free(u->runs[k]);
    free(u->tracks);
    free(u->keys);
    free(u->at);
    free(u->changed);
    free(u->runs);
    free(u->nruns);
    free(u->dirty);
}

/* The plan of an update of p (sub-model m) to motion mo: false on OOM. */
static bool plan_update(update_plan *u, const pki_play *p, const pk_model *m, const pk_motion *mo)
{
    size_t nb = m->nbones;
    memset(u, 0, sizeof *u);
    pk_name_id *ids = malloc((nb + 1) * sizeof *ids);
    u->tracks = calloc(nb + 1, sizeof *u->tracks);
    u->at = calloc(nb + 1, sizeof *u->at);
    u->changed = malloc((nb + 1) * sizeof *u->changed);
    u->runs = calloc(nb + 1, sizeof *u->runs);
    u->nruns = calloc(nb + 1, sizeof *u->nruns);
    u->dirty = calloc(p->n + 1, sizeof *u->dirty);
    bool ok = ids && u->tracks && u->at && u->changed && u->runs && u->nruns && u->dirty;
    for (size_t i = 0; ok && i < nb; i++)
        ids[i] = name_in(m, i, mo->names);
    ok = ok && (u->built = pki_tracks_named(mo, ids, nb, u->tracks));
    free(ids);
    for (size_t i = 0; ok && i < nb; i++)
        u->at[i + 1] = u->at[i] + u->tracks[i].count;
    ok = ok && (u->keys = malloc((u->at[nb] + 1) * sizeof *u->keys)) != NULL;
    for (size_t i = 0; ok && i < nb; i++) {
        const pk_track *tr = &u->tracks[i];
        pk_bone_key *k = &u->keys[u->at[i]];
        for (size_t j = 0; j < tr->count; j++)
            k[j] = mo->bones[tr->keys[j]];
        const pk_bone_key *was = &p->keys[p->at[i]];
        size_t nw = p->at[i + 1] - p->at[i], nn = tr->count;
        if (nw == nn && memcmp(was, k, nn * sizeof *k) == 0)
            continue;
        size_t c = u->nchanged++;
        u->changed[c] = (int32_t)i;
        ok = (u->runs[c] = malloc((nw + nn + 1) * sizeof *u->runs[c])) != NULL;
        if (ok)
            u->nruns[c] = changed_runs(was, nw, k, nn, p->f0, p->n, u->runs[c]);
        for (size_t q = 0; ok && q < u->nruns[c]; q++)
            memset(&u->dirty[u->runs[c][q].lo], 1, u->runs[c][q].hi - u->runs[c][q].lo);
    }
    return ok;
}

/* pki_play_motion_update on the sub-model m p was played on. */
static int update_motion(pki_play *p, const pk_model *m, const pk_motion *mo, const bool *only,
                         pk_log *log)
{
    size_t nb = m->nbones, niks = 0;
    update_plan u;
    memset(&u, 0, sizeof u);
    pk_rig *rig = NULL;
    uint32_t *iks = NULL;
    pk_cursor *cur = malloc((nb + 1) * sizeof *cur);
    bool *on = malloc((nb + 1) * sizeof *on);
    pk_bone_local *loc = malloc((nb + 1) * sizeof *loc);
    pk_bone_world *all = malloc((nb + 1) * sizeof *all);
    double *pm = malloc((p->nmemo + 1) * sizeof *pm);
    size_t *next_run = calloc(nb + 1, sizeof *next_run);
    int32_t *watched = malloc((nb + 1) * sizeof *watched);
    bool *watch = malloc((nb + 1) * sizeof *watch);
    int rc = -1;
    bool planned =
        cur && on && loc && all && pm && next_run && watched && watch && plan_update(&u, p, m, mo);
    if (!planned)
        goto oom;
    if (only && !p->stale && !(p->stale = calloc(p->n + 1, sizeof *p->stale)))
        goto oom;
    rig = pk_rig_new(m, log);
    if (!rig)
        goto done;
    iks = ik_order(mo, &niks);
    if (!iks)
        goto oom;
    for (size_t i = 0; i < nb; i++)
        watch[i] = p->slot[p->map[i]] >= 0;
    size_t nwatched = list_of(watch, nb, watched);
    for (size_t k = 0; k < u.nchanged; k++)
        pk_cursor_init(&cur[k], mo, &u.tracks[u.changed[k]]);
    p->sampled = u.nchanged;
    p->evaluated = p->solved = 0;
    size_t next_ik = 0;
    for (size_t i = 0; i < nb; i++)
        on[i] = true;
    for (uint32_t r = 0; r < p->n; r++) {
        uint32_t f = p->f0 + r;
        ik_states(m, mo, iks, niks, &next_ik, f, on);
        pk_bone_local *in = &p->in[(size_t)r * nb];
        bool *in_on = &p->on[(size_t)r * nb];
        p->fresh[r] = false;
        bool stale = p->stale && p->stale[r];
        if (!u.dirty[r] && !stale && memcmp(in_on, on, nb * sizeof *on) == 0)
            continue; /* the same inputs: the same row */
        memcpy(loc, in, nb * sizeof *loc);
        for (size_t k = 0; k < u.nchanged; k++) {
            const row_run *run = u.runs[k];
            size_t *q = &next_run[k];
            while (*q < u.nruns[k] && run[*q].hi <= r)
                (*q)++;
            if (*q == u.nruns[k] || run[*q].lo > r)
                continue;
            int32_t i = u.changed[k];
            pk_cursor_bone(&cur[k], (double)f, loc[i].pos, loc[i].rot);
        }
        bool same =
            memcmp(in, loc, nb * sizeof *loc) == 0 && memcmp(in_on, on, nb * sizeof *on) == 0;
        if (same && (!stale || (only && !only[r])))
            continue;
        if (only && !only[r]) { /* kept: the caller reads it as it is */
            memcpy(in, loc, nb * sizeof *loc);
            memcpy(in_on, on, nb * sizeof *on);
            p->stale[r] = true;
            continue;
        }
        /* the last play's solves at this row, and this play's row before */
        double *memo = &p->memo[(size_t)r * p->nmemo];
        memcpy(pm, memo, p->nmemo * sizeof *pm);
        const double *near = r ? &p->memo[(size_t)(r - 1) * p->nmemo] : NULL;
        p->solved += pki_rig_eval_memo(rig, loc, on, all, pm, near, memo);
        p->evaluated++;
        p->fresh[r] = true;
        if (stale)
            p->stale[r] = false;
        memcpy(in, loc, nb * sizeof *loc);
        memcpy(in_on, on, nb * sizeof *on);
        pk_bone_world *row = &p->w[(size_t)r * p->nwatch];
        for (size_t k = 0; k < nwatched; k++)
            row[p->slot[p->map[watched[k]]]] = all[watched[k]];
    }
    /* the key records the rows now come from */
    free(p->keys);
    free(p->at);
    p->keys = u.keys;
    p->at = u.at;
    u.keys = NULL;
    u.at = NULL;
    rc = 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    plan_free(&u, nb);
    pk_rig_free(rig);
    free(iks);
    free(cur);
    free(on);
    free(loc);
    free(all);
    free(pm);
    free(next_run);
    free(watched);
    free(watch);
    return rc;
}

int pki_play_motion_update(pki_play *p, const pk_motion *mo, const bool *watch, pk_log *log)
{
    return pki_play_motion_update_rows(p, mo, watch, NULL, log);
}

int pki_play_motion_update_rows(pki_play *p, const pk_motion *mo, const bool *watch,
                                const bool *only, pk_log *log)
{
    const pk_model *full = p->m;
    trimmed tm;
    if (!trim(full, watch, &tm)) {
        trimmed_free(&tm);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc;
    if (same_play(p, full, watch, &tm) && p->keys && p->at && p->memo) {
        rc = update_motion(p, &tm.sub, mo, only, log);
    } else {
        /* not a play this can update: played afresh, taking its rows */
        pki_play again;
        rc = pki_play_motion_again(&again, p, full, mo, p->f0, p->n, watch, log);
        if (rc == 0) {
            pki_play_free(p);
            *p = again;
        }
    }
    trimmed_free(&tm);
    return rc;
}

int pki_play_pose(pki_play *p, const pk_model *m, const pk_pose *po, const bool *watch, pk_log *log)
{
    size_t nb = m->nbones;
    pk_rig *rig = NULL;
    pk_bone_local *loc = malloc((nb + 1) * sizeof *loc);
    pk_bone_world *all = malloc((nb + 1) * sizeof *all);
    int rc = -1;
    if (!loc || !all || !slots(p, m, watch, 1)) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    rig = pk_rig_new(m, log);
    if (!rig)
        goto done;
    pk_rig_pose_local(rig, po, loc);
    pk_rig_eval(rig, loc, NULL, 0, all);
    p->fresh[0] = true;
    keep_row(p, 0, all);
    rc = 0;
done:
    if (rc)
        pki_play_free(p);
    pk_rig_free(rig);
    free(loc);
    free(all);
    return rc;
}
