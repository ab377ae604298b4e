/* dedupe.c — duplicate keys dropped from a motion or pose (posekit.h,
 * pk_motion_drop_duplicates, pk_pose_drop_duplicates).
 *
 * A duplicate is a record with the same key as a later one: (name, frame)
 * for bone and morph keys, the frame for camera, light, self-shadow and
 * show/IK keys, the name for a pose's bones and morphs.  MMD (and every
 * reader here: tracks.c, pk_pose_find_bone) plays the later record, so the
 * earlier ones are dropped; what remains keeps its file order and bytes.
 */
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

/* Keeps the records of a section whose keep[] is set, in order. */
static size_t compact(void *base, size_t n, size_t size, const uint8_t *keep)
{
    uint8_t *b = base;
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        if (w != i)
            memcpy(b + w * size, b + i * size, size);
        w++;
    }
    return w;
}

static void mark(uint8_t *keep, const uint32_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        keep[idx[i]] = 1;
}

int pk_motion_drop_duplicates(pk_motion *m, size_t *dropped, pk_log *log)
{
    *dropped = 0;
    pk_tracks *t = pk_tracks_build(m, NULL);
    if (!t) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    if (!t->duplicates) {
        pk_tracks_free(t);
        return 0;
    }
    size_t most = m->nbones;
    size_t counts[] = {m->nmorphs, m->ncameras, m->nlights, m->nshadows, m->niks};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        most = counts[i] > most ? counts[i] : most;
    uint8_t *keep = malloc(most + 1);
    if (!keep) {
        pk_tracks_free(t);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    size_t before = 0, after = 0;
    /* bones and morphs: every track's kept keys, and records without a name */
    memset(keep, 0, most + 1);
    for (size_t k = 0; k < t->nbones; k++)
        mark(keep, t->bones[k].keys, t->bones[k].count);
    for (size_t i = 0; i < m->nbones; i++)
        keep[i] |= m->bones[i].name == PK_NO_NAME;
    before += m->nbones;
    m->nbones = compact(m->bones, m->nbones, sizeof *m->bones, keep);
    after += m->nbones;
    memset(keep, 0, most + 1);
    for (size_t k = 0; k < t->nmorphs; k++)
        mark(keep, t->morphs[k].keys, t->morphs[k].count);
    for (size_t i = 0; i < m->nmorphs; i++)
        keep[i] |= m->morphs[i].name == PK_NO_NAME;
    before += m->nmorphs;
    m->nmorphs = compact(m->morphs, m->nmorphs, sizeof *m->morphs, keep);
    after += m->nmorphs;
    memset(keep, 0, most + 1);
    mark(keep, t->cameras, t->ncameras);
    before += m->ncameras;
    m->ncameras = compact(m->cameras, m->ncameras, sizeof *m->cameras, keep);
    after += m->ncameras;
    memset(keep, 0, most + 1);
    mark(keep, t->lights, t->nlights);
    before += m->nlights;
    m->nlights = compact(m->lights, m->nlights, sizeof *m->lights, keep);
    after += m->nlights;
    memset(keep, 0, most + 1);
    mark(keep, t->shadows, t->nshadows);
    before += m->nshadows;
    m->nshadows = compact(m->shadows, m->nshadows, sizeof *m->shadows, keep);
    after += m->nshadows;
    memset(keep, 0, most + 1);
    mark(keep, t->iks, t->niks);
    for (size_t i = 0; i < m->niks; i++)
        if (!keep[i]) /* its states are the motion's */
            free(m->iks[i].ik);
    before += m->niks;
    m->niks = compact(m->iks, m->niks, sizeof *m->iks, keep);
    after += m->niks;
    free(keep);
    pk_tracks_free(t);
    *dropped = before - after;
    return 0;
}

int pk_pose_drop_duplicates(pk_pose *p, size_t *dropped, pk_log *log)
{
    *dropped = 0;
    size_t nn = pk_names_count(p->names);
    size_t most = p->nbones > p->nmorphs ? p->nbones : p->nmorphs;
    uint8_t *seen = calloc(nn + 1, 1), *keep = malloc(most + 1);
    if (!seen || !keep) {
        free(seen);
        free(keep);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    /* from the end: the last record of each name is kept */
    for (size_t i = p->nbones; i-- > 0;) {
        pk_name_id id = p->bones[i].name;
        keep[i] = (size_t)id >= nn || !(seen[id] & 1);
        if ((size_t)id < nn)
            seen[id] |= 1;
    }
    size_t n = p->nbones;
    p->nbones = compact(p->bones, p->nbones, sizeof *p->bones, keep);
    *dropped += n - p->nbones;
    for (size_t i = p->nmorphs; i-- > 0;) {
        pk_name_id id = p->morphs[i].name;
        keep[i] = (size_t)id >= nn || !(seen[id] & 2);
        if ((size_t)id < nn)
            seen[id] |= 2;
    }
    n = p->nmorphs;
    p->nmorphs = compact(p->morphs, p->nmorphs, sizeof *p->morphs, keep);
    *dropped += n - p->nmorphs;
    free(seen);
    free(keep);
    return 0;
}
