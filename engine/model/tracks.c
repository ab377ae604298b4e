/* tracks.c — per-track sorted views of a motion (doc/formats.md §3.11).
 *
 * VMD records are not sorted: MMD writes a frame-0 key per bone first and
 * then the rest in no useful order, and duplicate (name, frame) pairs occur
 * where long names were cut to the same 15 bytes.  Sampling needs each
 * track sorted by frame.  Players sort per track; we sort stably and keep
 * the LAST record of a duplicated (name, frame) pair, as babylon-mmd does,
 * and warn once per track.
 *
 * Cost: records are grouped by name id with a counting sort (O(n + ids)),
 * then each track is checked for order and radix-sorted only when needed, so a
 * 450k-key motion builds in a few milliseconds.
 */
#include "posekit.h"

#include "common/diag.h"
#include "model/tracks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_SLOT UINT32_MAX

/* The public struct is the first member, so a pk_tracks* from
 * pk_tracks_build converts back to the whole allocation. */
typedef struct tracks_impl {
    pk_tracks pub;
    uint32_t *bone_slot; /* name id -> index in pub.bones, or NO_SLOT */
    size_t nbone_slot;
    uint32_t *morph_slot;
    size_t nmorph_slot;
    uint32_t *bone_keys; /* storage behind every pub.bones[i].keys */
    uint32_t *morph_keys;
} tracks_impl;

/* Frame of record i of an array of records of `size` bytes whose uint32
 * frame field sits at `off`. */
typedef struct recs {
    const uint8_t *base;
    size_t size, off;
} recs;

static uint32_t rec_frame(const recs *r, uint32_t i)
{
    uint32_t f;
    memcpy(&f, r->base + (size_t)i * r->size + r->off, sizeof f);
    return f;
}

uint64_t *pki_sort_by_frame(uint64_t *src, uint64_t *dst, size_t n, uint32_t top)
{
    for (unsigned shift = 32; shift < 64 && (top >> (shift - 32)) != 0; shift += 8) {
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++)
            count[(src[i] >> shift) & 0xff]++;
        size_t at = 0;
        for (size_t d = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 0xff]++] = src[i];
        uint64_t *swap = src;
        src = dst;
        dst = swap;
    }
    return src;
}

/* Sorts keys[0..n) (record indices in file order) by frame, stably, and
 * drops every record followed by one with the same frame (the later record
 * in the file wins).  tmp has room for 2 n entries.  Returns the new count;
 * *dups and *dup_frame receive how many were dropped and the first frame
 * that had a duplicate.
 *
 * The sort is a least-significant-digit radix sort on the frame, 8 bits a
 * pass, of (frame << 32 | index) pairs: every pass is stable and the pairs
 * start in file order, so equal frames stay in file order.  Digits above
 * the largest frame's are skipped (two passes for frames below 65536): a
 * few nanoseconds a key where qsort took ~60. */
static size_t sort_track(const recs *r, uint32_t *keys, size_t n, uint64_t *tmp, size_t *dups,
                         uint32_t *dup_frame)
{
    bool sorted = true;
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t f = rec_frame(r, keys[i]);
        if (i && rec_frame(r, keys[i - 1]) > f)
            sorted = false;
        top |= f;
    }
    if (!sorted) {
        uint64_t *src = tmp, *dst = tmp + n;
        for (size_t i = 0; i < n; i++)
            src[i] = (uint64_t)rec_frame(r, keys[i]) << 32 | keys[i];
        src = pki_sort_by_frame(src, dst, n, top);
        for (size_t i = 0; i < n; i++)
            keys[i] = (uint32_t)src[i];
    }
    size_t out = 0;
    *dups = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && rec_frame(r, keys[i]) == rec_frame(r, keys[i + 1])) {
            if (!*dups)
                *dup_frame = rec_frame(r, keys[i]);
            ++*dups;
            continue;
        }
        keys[out++] = keys[i];
    }
    return out;
}

/* One duplicated track, into sums[0] (plain) or sums[1] (a name that
 * fills the whole VMD field: most likely two longer names that MMD cut to
 * the same 15 bytes, so two bones' keys collide). */
static void tell_duplicates(const pk_motion *m, pk_name_id id, const char *what, size_t dups,
                            uint32_t frame, pki_log_sum *sums)
{
    size_t len = 0;
    pk_names_raw(m->names, id, &len);
    const char *u = pk_names_utf8(m->names, id);
    char item[160];
    snprintf(item, sizeof item, "\"%s\" (%zu duplicate%s, first at frame %u)", u, dups,
             dups == 1 ? "" : "s", frame);
    if (len == PK_VMD_NAME_BYTES)
        pki_log_sum_add(&sums[1], -1, 0, 0, item,
                        "%s \"%s\": %zu duplicate key%s (first at frame %u): the name fills all "
                        "15 bytes, so these are likely two %ss whose names MMD cut to the same "
                        "name; the later record in the file wins",
                        what, u, dups, dups == 1 ? "" : "s", frame, what);
    else
        pki_log_sum_add(&sums[0], -1, 0, 0, item,
                        "%s \"%s\": %zu duplicate key%s (first at frame %u); the later record "
                        "in the file wins",
                        what, u, dups, dups == 1 ? "" : "s", frame);
}

/* Groups the name-keyed records (bones or morphs) into tracks. */
static bool build_named(const pk_motion *m, const recs *r, size_t n, size_t name_off,
                        const char *what, pk_track **tracks_out, size_t *ntracks_out,
                        uint32_t **slot_out, size_t *nslot_out, uint32_t **keys_out,
                        size_t *dups_total, pk_log *log)
{
    *tracks_out = NULL;
    *ntracks_out = 0;
    *slot_out = NULL;
    *nslot_out = 0;
    *keys_out = NULL;
    if (n == 0)
        return true;
    if (n > UINT32_MAX) {
        pk_error(log, PK_E_UNSUPPORTED, "too many %s keys (%zu)", what, n);
        return false;
    }
    uint32_t maxid = 0;
    for (size_t i = 0; i < n; i++) {
        pk_name_id id;
        memcpy(&id, r->base + i * r->size + name_off, sizeof id);
        if (id != PK_NO_NAME && id > maxid)
            maxid = id;
    }
    size_t nslot = (size_t)maxid + 1;
    uint32_t *slot = malloc(nslot * sizeof *slot);
    uint32_t *rec_slot = malloc(n * sizeof *rec_slot);
    size_t *start = NULL;
    pk_track *tracks = NULL;
    uint32_t *keys = malloc(n * sizeof *keys);
    uint64_t *tmp = NULL;
    bool ok = slot && rec_slot && keys;
    size_t ntracks = 0;
    if (ok) {
        memset(slot, 0xff, nslot * sizeof *slot);
        /* Track order = order of first appearance in the file. */
        for (size_t i = 0; i < n; i++) {
            pk_name_id id;
            memcpy(&id, r->base + i * r->size + name_off, sizeof id);
            if (id == PK_NO_NAME) {
                rec_slot[i] = NO_SLOT;
                continue;
            }
            if (slot[id] == NO_SLOT)
                slot[id] = (uint32_t)ntracks++;
            rec_slot[i] = slot[id];
        }
        start = calloc(ntracks + 1, sizeof *start);
        tracks = calloc(ntracks ? ntracks : 1, sizeof *tracks);
        ok = start && tracks;
    }
    if (ok) {
        /* Counting sort by track: indices stay in file order inside each. */
        for (size_t i = 0; i < n; i++)
            if (rec_slot[i] != NO_SLOT)
                start[rec_slot[i] + 1]++;
        size_t longest = 0;
        for (size_t k = 0; k < ntracks; k++) {
            if (start[k + 1] > longest)
                longest = start[k + 1];
            start[k + 1] += start[k];
        }
        for (size_t k = 0; k < ntracks; k++)
            tracks[k].count = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t s = rec_slot[i];
            if (s != NO_SLOT)
                keys[start[s] + tracks[s].count++] = (uint32_t)i;
        }
        tmp = malloc((longest ? 2 * longest : 1) * sizeof *tmp);
        ok = tmp != NULL;
    }
    if (ok) {
        pki_log_sum sums[2];
        pki_log_sum_init(&sums[0]);
        pki_log_sum_init(&sums[1]);
        for (size_t k = 0; k < ntracks; k++) {
            pk_track *t = &tracks[k];
            t->keys = keys + start[k];
            pk_name_id id;
            memcpy(&id, r->base + (size_t)t->keys[0] * r->size + name_off, sizeof id);
            t->name = id;
            size_t dups = 0;
            uint32_t dup_frame = 0;
            t->count = sort_track(r, t->keys, t->count, tmp, &dups, &dup_frame);
            if (dups) {
                *dups_total += dups;
                if (!m->duplicates_told)
                    tell_duplicates(m, id, what, dups, dup_frame, sums);
            }
        }
        /* One line per kind: plain duplicates, then names that fill the
         * whole field (two names MMD cut to the same bytes). */
        pki_log_sum_end(&sums[0], log, PK_WARNING, PK_E_DAMAGED,
                        "; the later record in the file wins",
                        "%zu %ss have duplicate keys (name, frame)", sums[0].count, what);
        pki_log_sum_end(&sums[1], log, PK_WARNING, PK_E_DAMAGED,
                        "; each is likely two or more names MMD cut to the same 15 bytes, "
                        "and the later record in the file wins",
                        "%zu %ss whose names fill all 15 bytes have duplicate keys", sums[1].count,
                        what);
    } else {
        pk_error(log, PK_E_NO_MEMORY, "out of memory sorting %s keys", what);
    }
    free(tmp);
    free(start);
    free(rec_slot);
    if (!ok) {
        free(slot);
        free(tracks);
        free(keys);
        return false;
    }
    *tracks_out = tracks;
    *ntracks_out = ntracks;
    *slot_out = slot;
    *nslot_out = nslot;
    *keys_out = keys;
    return true;
}

/* Sorted, de-duplicated indices of a section without names. */
static bool build_plain(const recs *r, size_t n, const char *what, uint32_t **out, size_t *nout,
                        size_t *dups_total, bool told, pk_log *log)
{
    *out = NULL;
    *nout = 0;
    if (n == 0)
        return true;
    if (n > UINT32_MAX) {
        pk_error(log, PK_E_UNSUPPORTED, "too many %s keys (%zu)", what, n);
        return false;
    }
    uint32_t *keys = malloc(n * sizeof *keys);
    uint64_t *tmp = malloc(2 * n * sizeof *tmp);
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        pk_error(log, PK_E_NO_MEMORY, "out of memory sorting %s keys", what);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = (uint32_t)i;
    size_t dups = 0;
    uint32_t dup_frame = 0;
    *nout = sort_track(r, keys, n, tmp, &dups, &dup_frame);
    free(tmp);
    if (dups) {
        *dups_total += dups;
        if (!told)
            pk_warning(log, PK_E_DAMAGED,
                       "%s: %zu duplicate key%s (first at frame %u); the later record in the file "
                       "wins",
                       what, dups, dups == 1 ? "" : "s", dup_frame);
    }
    *out = keys;
    return true;
}

pk_tracks *pk_tracks_build(const pk_motion *m, pk_log *log)
{
    tracks_impl *ti = calloc(1, sizeof *ti);
    if (!ti) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    pk_tracks *t = &ti->pub;
    recs rb = {(const uint8_t *)m->bones, sizeof *m->bones, offsetof(pk_bone_key, frame)};
    recs rm = {(const uint8_t *)m->morphs, sizeof *m->morphs, offsetof(pk_morph_key, frame)};
    recs rc = {(const uint8_t *)m->cameras, sizeof *m->cameras, offsetof(pk_camera_key, frame)};
    recs rl = {(const uint8_t *)m->lights, sizeof *m->lights, offsetof(pk_light_key, frame)};
    recs rs = {(const uint8_t *)m->shadows, sizeof *m->shadows, offsetof(pk_shadow_key, frame)};
    recs ri = {(const uint8_t *)m->iks, sizeof *m->iks, offsetof(pk_ik_key, frame)};
    bool ok =
        build_named(m, &rb, m->nbones, offsetof(pk_bone_key, name), "bone", &t->bones, &t->nbones,
                    &ti->bone_slot, &ti->nbone_slot, &ti->bone_keys, &t->duplicates, log) &&
        build_named(m, &rm, m->nmorphs, offsetof(pk_morph_key, name), "morph", &t->morphs,
                    &t->nmorphs, &ti->morph_slot, &ti->nmorph_slot, &ti->morph_keys, &t->duplicates,
                    log) &&
        build_plain(&rc, m->ncameras, "camera", &t->cameras, &t->ncameras, &t->duplicates,
                    m->duplicates_told, log) &&
        build_plain(&rl, m->nlights, "light", &t->lights, &t->nlights, &t->duplicates,
                    m->duplicates_told, log) &&
        build_plain(&rs, m->nshadows, "self-shadow", &t->shadows, &t->nshadows, &t->duplicates,
                    m->duplicates_told, log) &&
        build_plain(&ri, m->niks, "show/IK", &t->iks, &t->niks, &t->duplicates, m->duplicates_told,
                    log);
    if (!ok) {
        pk_tracks_free(t);
        return NULL;
    }
    return t;
}

void pk_tracks_free(pk_tracks *t)
{
    if (!t)
        return;
    tracks_impl *ti = (tracks_impl *)t;
    free(ti->bone_slot);
    free(ti->morph_slot);
    free(ti->bone_keys);
    free(ti->morph_keys);
    free(t->bones);
    free(t->morphs);
    free(t->cameras);
    free(t->lights);
    free(t->shadows);
    free(t->iks);
    free(ti);
}

const pk_track *pk_tracks_bone(const pk_tracks *t, pk_name_id name)
{
    const tracks_impl *ti = (const tracks_impl *)t;
    if (!t || name >= ti->nbone_slot || ti->bone_slot[name] == NO_SLOT)
        return NULL;
    return &t->bones[ti->bone_slot[name]];
}

const pk_track *pk_tracks_morph(const pk_tracks *t, pk_name_id name)
{
    const tracks_impl *ti = (const tracks_impl *)t;
    if (!t || name >= ti->nmorph_slot || ti->morph_slot[name] == NO_SLOT)
        return NULL;
    return &t->morphs[ti->morph_slot[name]];
}
