/*
 * retarget_tally.c — what a retarget did to the keys, counted one way
 * (pk_edit_stats: keys_in, keys_out, keys_changed, keys_added,
 * keys_removed).
 *
 * A key is a record of a section; bone keys are told apart by (name,
 * frame) in a motion and by name in a pose.  A bone key of the output
 * whose (name, frame) the input also holds is "changed" when its
 * translation, rotation or curve bytes differ (else it is kept as it
 * was), one the input lacks is "added", and an input key the output
 * lacks is "removed" (a folded bone's, a key of a bone the source model
 * lacks, the earlier of two records of one (name, frame), as MMD reads
 * them).  So out = in − removed + added, whatever the steps did in
 * between: a rewritten track's keys at the frames it had count as
 * changed, not as removed and added again.  Records of the other
 * sections (morphs, camera, light, shadow, IK) count in `in` and `out`;
 * retarget changes none of them, and drops only their duplicates
 * (counted as removed).
 */
#include "ops/retarget/retarget.h"

#include <stdlib.h>
#include <string.h>

static size_t other_keys(const pki_bone_set *s)
{
    if (!s->m)
        return s->p->nmorphs;
    size_t n = 0;
    for (int i = 0; i < PK_SEC_COUNT; i++)
        if (i != PK_SEC_BONE)
            n += pk_motion_count(s->m, (pk_section)i);
    return n;
}

int pki_retarget_tally_begin(pki_retarget_tally *t, const pki_bone_set *s)
{
    memset(t, 0, sizeof *t);
    size_t n = pki_bone_set_count(s);
    t->n = n;
    t->other = other_keys(s);
    if (s->m) {
        t->bones = malloc((n + 1) * sizeof *t->bones);
        if (!t->bones)
            return -1;
        if (n)
            memcpy(t->bones, s->m->bones, n * sizeof *t->bones);
    } else {
        t->pose = malloc((n + 1) * sizeof *t->pose);
        if (!t->pose)
            return -1;
        if (n)
            memcpy(t->pose, s->p->bones, n * sizeof *t->pose);
    }
    return 0;
}

int pki_retarget_drop_duplicates(pki_bone_set *s, pk_edit_stats *st, pk_log *log)
{
    size_t n = 0;
    int rc =
        s->m ? pk_motion_drop_duplicates(s->m, &n, log) : pk_pose_drop_duplicates(s->p, &n, log);
    if (st)
        st->duplicates += n;
    return rc;
}

void pki_retarget_tally_free(pki_retarget_tally *t)
{
    free(t->bones);
    free(t->pose);
    memset(t, 0, sizeof *t);
}

static bool same_key(const pk_bone_key *a, const pk_bone_key *b)
{
    return memcmp(a->pos, b->pos, sizeof a->pos) == 0 &&
           memcmp(a->rot, b->rot, sizeof a->rot) == 0 &&
           memcmp(a->interp, b->interp, sizeof a->interp) == 0;
}

/* Matched (name, frame) pairs of two motions' bone tracks, and how many
 * of them differ.  false on OOM. */
static bool match_motion(const pk_motion *in, const pk_motion *out, size_t *matched,
                         size_t *changed)
{
    pk_tracks *ti = pk_tracks_build(in, NULL), *to = pk_tracks_build(out, NULL);
    if (!ti || !to) {
        pk_tracks_free(ti);
        pk_tracks_free(to);
        return false;
    }
    for (size_t k = 0; k < to->nbones; k++) {
        const pk_track *y = &to->bones[k], *x = pk_tracks_bone(ti, y->name);
        for (size_t i = 0, j = 0; x && i < x->count && j < y->count;) {
            const pk_bone_key *a = &in->bones[x->keys[i]], *b = &out->bones[y->keys[j]];
            if (a->frame < b->frame) {
                i++;
            } else if (a->frame > b->frame) {
                j++;
            } else {
                ++*matched;
                *changed += !same_key(a, b);
                i++;
                j++;
            }
        }
    }
    pk_tracks_free(ti);
    pk_tracks_free(to);
    return true;
}

/* The same for poses: by name, the last record of a name (as lookups
 * find it). */
static bool match_pose(const pk_pose_bone *in, size_t nin, const pk_pose *out, size_t *matched,
                       size_t *changed)
{
    size_t nn = pk_names_count(out->names);
    long *last = malloc((nn + 1) * sizeof *last);
    uint8_t *seen = calloc(nn + 1, 1);
    if (!last || !seen) {
        free(last);
        free(seen);
        return false;
    }
    for (size_t i = 0; i < nin; i++)
        if ((size_t)in[i].name < nn)
            last[in[i].name] = (long)i, seen[in[i].name] = 1;
    for (size_t j = out->nbones; j-- > 0;) {
        const pk_pose_bone *b = &out->bones[j];
        if ((size_t)b->name >= nn || seen[b->name] != 1)
            continue;
        seen[b->name] = 2; /* the last record of the name only */
        const pk_pose_bone *a = &in[last[b->name]];
        ++*matched;
        *changed += memcmp(a->pos, b->pos, sizeof a->pos) != 0 ||
                    memcmp(a->rot, b->rot, sizeof a->rot) != 0;
    }
    free(last);
    free(seen);
    return true;
}

int pki_retarget_tally_end(const pki_retarget_tally *t, const pki_bone_set *s, pk_edit_stats *st)
{
    size_t matched = 0, changed = 0, n = pki_bone_set_count(s);
    bool ok;
    if (s->m) {
        pk_motion view = *s->m; /* the input's bone keys, the output's names */
        view.bones = t->bones;
        view.nbones = t->n;
        ok = match_motion(&view, s->m, &matched, &changed);
    } else {
        ok = match_pose(t->pose, t->n, s->p, &matched, &changed);
    }
    if (!ok)
        return -1;
    if (st) {
        /* the other sections change only by duplicates dropped */
        size_t other = other_keys(s);
        st->keys_in += t->n + t->other;
        st->keys_out += n + other;
        st->keys_changed += changed;
        st->keys_added += n - matched + (other > t->other ? other - t->other : 0);
        st->keys_removed += t->n - matched + (t->other > other ? t->other - other : 0);
    }
    return 0;
}

/* The rename step's weighted morph rules replace records (the tally
 * begins after it): those replaced count as removed, the keys written as
 * added, and `in` is the input's count, so out = in − removed + added
 * still holds.  `before`: morph records before the rename, `written`:
 * st->morph_keys before it. */
void pki_retarget_tally_weights(pk_edit_stats *st, size_t before, size_t after, size_t written)
{
    if (!st || st->morph_keys == written)
        return;
    size_t added = st->morph_keys - written, removed = before + added - after;
    st->keys_removed += removed;
    st->keys_added += added;
    st->keys_in += removed;
    st->keys_in -= added; /* the tally adds the records after the rename */
}
