/*
 * rename.c — renaming bones, IK names and morphs by the rules' maps.
 *
 * A rename is planned on the distinct names (ids of the names table), not
 * on keys: each used id gets its new bytes, then every check runs (field
 * widths, collisions), and only then are the new names interned and the
 * ids in the records swapped.  A failed rename leaves the model untouched.
 *
 * Round trip.  Records keep their order and values.  Their padding (the
 * bytes after the name's NUL: zeros, 0xFD fill or leftover text) must
 * survive a rename *through a file*, so a renamed record's padding is
 * derived from its old field (pad_transfer):
 *   - same length: the padding is kept as it is;
 *   - a uniform fill (all 00 or all FD) stays that fill at the new length;
 *   - anything else (leftover text): the old field's bytes after the new
 *     name's NUL are kept, as if the new name had been written over the old
 *     field, so renaming back to the longer old name finds its old padding
 *     still there.
 * Then rename and rename --reverse give the same bytes, in memory and
 * through files, except where a longer new name overwrote leftover text or
 * left no room for any padding (a 14- or 15-byte name in a 15-byte field).
 *
 * Rule choice for a name, in order: an exact rule matching the whole name;
 * an exact rule matching the name as MMD cut it (15/19 bytes); the glob
 * with the longest literal part; ties go to the rule loaded last (a file
 * overrides its includes), then to the first in the file.
 */
#include "common/sort.h"
#include "common/grow.h"
#include "common/diag.h"
#include "ops/names/bone_set.h"
#include "ops/names/morph_weights.h"
#include "ops/names/rename.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rule_score(const pki_pattern *from, size_t len)
{
    if (from->star < 0)
        return from->len == len ? 3 : 2;
    return 1;
}

/* The rule for a name (the order in the header comment) and the name it
 * gives (a weighted rule: its first target); cap_off/cap_len (may be NULL)
 * receive where a glob's star matched.  Backwards, weighted rules never
 * match: they are not reversible. */
static const pki_map_rule *map_lookup(const pki_map *m, bool reverse, const uint8_t *raw,
                                      size_t len, uint8_t *out, size_t *out_len, size_t *cap_off,
                                      size_t *cap_len)
{
    const pki_map_rule *best = NULL;
    int best_score = 0;
    size_t best_lit = 0, best_off = 0, best_cap = 0;
    for (size_t i = 0; i < m->n; i++) {
        const pki_map_rule *rule = &m->v[i];
        if (reverse && rule->weighted)
            continue;
        const pki_pattern *from = reverse ? &rule->to : &rule->from;
        size_t off = 0, cap = 0;
        if (!pki_pattern_match(from, raw, len, &off, &cap))
            continue;
        int score = rule_score(from, len);
        size_t lit = from->len;
        if (best && (score < best_score || (score == best_score && lit < best_lit) ||
                     (score == best_score && lit == best_lit && rule->layer <= best->layer)))
            continue;
        best = rule;
        best_score = score;
        best_lit = lit;
        best_off = off;
        best_cap = cap;
    }
    if (!best)
        return NULL;
    const pki_pattern *to = reverse ? &best->from : &best->to;
    const pki_pattern *from = reverse ? &best->to : &best->from;
    *out_len = pki_pattern_expand(to, from, raw, best_off, best_cap, out);
    if (cap_off)
        *cap_off = best_off;
    if (cap_len)
        *cap_len = best_cap;
    return best;
}

/* ---- plans ---- */

static void name_plan_free(pki_name_plan *pl)
{
    if (pl->to)
        for (size_t i = 0; i < pl->n; i++)
            free(pl->to[i]);
    free(pl->used);
    free(pl->changed);
    free(pl->to);
    free(pl->to_len);
    free(pl->rule);
    memset(pl, 0, sizeof *pl);
}

static int name_plan_init(pki_name_plan *pl, size_t n)
{
    memset(pl, 0, sizeof *pl);
    pl->n = n;
    size_t k = n ? n : 1;
    pl->used = calloc(k, sizeof *pl->used);
    pl->changed = calloc(k, sizeof *pl->changed);
    pl->to = calloc(k, sizeof *pl->to);
    pl->to_len = calloc(k, sizeof *pl->to_len);
    pl->rule = calloc(k, sizeof *pl->rule);
    if (!pl->used || !pl->changed || !pl->to || !pl->to_len || !pl->rule) {
        name_plan_free(pl);
        return -1;
    }
    return 0;
}

int pki_name_plan_set(pki_name_plan *pl, pk_name_id id, const uint8_t *raw, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return -1;
    memcpy(copy, raw, len);
    free(pl->to[id]);
    pl->to[id] = copy;
    pl->to_len[id] = len;
    pl->changed[id] = true;
    return 0;
}

static const uint8_t *final_name(const pki_name_plan *pl, const pk_names *names, size_t id,
                                 size_t *len)
{
    if (pl->changed[id]) {
        *len = pl->to_len[id];
        return pl->to[id];
    }
    return pk_names_raw(names, (pk_name_id)id, len);
}

typedef struct sort_ctx {
    const pki_name_plan *pl;
    const pk_names *names;
} sort_ctx;

static int cmp_ids(const void *ctx, size_t ia, size_t ib)
{
    const sort_ctx *c = ctx;
    size_t la, lb;
    const uint8_t *ra = final_name(c->pl, c->names, ia, &la);
    const uint8_t *rb = final_name(c->pl, c->names, ib, &lb);
    size_t n = la < lb ? la : lb;
    int d = n ? memcmp(ra, rb, n) : 0;
    if (d)
        return d;
    return la < lb ? -1 : la > lb;
}

static int name_plan_check_collisions(const pki_name_plan *pl, const pk_names *names,
                                      const char *what, pk_log *log)
{
    size_t k = 0;
    for (size_t i = 0; i < pl->n; i++)
        k += pl->used[i];
    if (k < 2)
        return 0;
    size_t *ids = malloc(k * sizeof *ids), *tmp = malloc(k * sizeof *tmp);
    if (!ids || !tmp) {
        free(ids);
        free(tmp);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    k = 0;
    for (size_t i = 0; i < pl->n; i++)
        if (pl->used[i])
            ids[k++] = i;
    sort_ctx c = {pl, names};
    /* stable: the first of two colliding names is the one with the lower id */
    pki_sort_indices(ids, tmp, k, cmp_ids, &c);
    int rc = 0;
    for (size_t i = 1; i < k; i++) {
        if (cmp_ids(&c, ids[i - 1], ids[i]) != 0)
            continue;
        size_t a = ids[i - 1], b = ids[i], len;
        const uint8_t *raw = final_name(pl, names, a, &len);
        char *to = pk_cp932_to_utf8(raw, len, NULL);
        pk_error(log, PK_E_CONFLICT,
                 "%s '%s' and %s '%s' would both be named '%s'; nothing was renamed", what,
                 pk_names_utf8(names, (pk_name_id)a), what, pk_names_utf8(names, (pk_name_id)b),
                 to ? to : "?");
        free(to);
        rc = -1;
    }
    free(ids);
    free(tmp);
    return rc;
}

static int name_plan_check_width(const pki_name_plan *pl, const pk_names *names, const bool *subset,
                                 size_t max, const char *what, pk_log *log)
{
    int rc = 0;
    for (size_t i = 0; i < pl->n; i++) {
        if (!pl->changed[i] || !pl->used[i] || (subset && !subset[i]) || pl->to_len[i] <= max)
            continue;
        char *to = pk_cp932_to_utf8(pl->to[i], pl->to_len[i], NULL);
        const pki_map_rule *r = pl->rule[i];
        if (r) {
            pk_log_add_at(
                log, PK_ERROR, PK_E_UNSUPPORTED, r->to_at.file, -1, r->to_at.line, r->to_at.col,
                "%s '%s' would become '%s', %zu bytes in CP932; the field holds %zu", what,
                pk_names_utf8(names, (pk_name_id)i), to ? to : "?", pl->to_len[i], max);
        } else {
            pk_error(log, PK_E_UNSUPPORTED,
                     "%s '%s' would become '%s', %zu bytes in CP932; the field holds %zu", what,
                     pk_names_utf8(names, (pk_name_id)i), to ? to : "?", pl->to_len[i], max);
        }
        free(to);
        rc = -1;
    }
    return rc;
}

static int name_plan_commit(const pki_name_plan *pl, pk_names *names, pk_name_id **map, pk_log *log)
{
    pk_name_id *m = malloc((pl->n ? pl->n : 1) * sizeof *m);
    if (!m) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < pl->n; i++) {
        m[i] = (pk_name_id)i;
        if (pl->changed[i] && pl->used[i]) {
            m[i] = pk_names_intern(names, pl->to[i], pl->to_len[i]);
            if (m[i] == PK_NO_NAME) {
                free(m);
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                return -1;
            }
        }
    }
    *map = m;
    return 0;
}

/* ---- padding ---- */

static uint32_t pad_transfer(pk_motion *m, pk_name_id old, uint32_t old_pad, pk_name_id new_id,
                             size_t width)
{
    size_t olen, nlen, plen = 0;
    const uint8_t *oraw = pk_names_raw(m->names, old, &olen);
    (void)pk_names_raw(m->names, new_id, &nlen);
    if (nlen == olen)
        return old_pad;
    if (nlen + 1 >= width || olen + 1 >= width)
        return 0; /* no room for padding on one side: zeros */
    /* The old field as the writer would write it. */
    uint8_t field[64] = {0};
    if (width > sizeof field)
        return 0;
    memcpy(field, oraw, olen);
    size_t orest = width - olen - 1;
    const uint8_t *praw = old_pad ? pk_names_raw(m->pads, old_pad - 1, &plen) : NULL;
    if (praw && plen == orest)
        memcpy(field + olen + 1, praw, orest);
    bool uniform = true;
    for (size_t i = olen + 2; i < width; i++)
        uniform = uniform && field[i] == field[olen + 1];
    size_t nrest = width - nlen - 1;
    uint8_t pad[64];
    if (uniform) {
        if (field[olen + 1] == 0)
            return 0;
        memset(pad, field[olen + 1], nrest);
    } else {
        memcpy(pad, field + nlen + 1, nrest);
    }
    pk_name_id id = pk_names_intern(m->pads, pad, nrest);
    return id == PK_NO_NAME ? UINT32_MAX : id + 1;
}

/* Renames the records of m by the old -> new id maps, carrying padding
 * over (pad_transfer); -1 on out-of-memory (records may then be
 * partly renamed: callers run it on a copy or accept that on OOM). */
static int motion_apply_names(pk_motion *m, const pk_name_id *bmap, const pk_name_id *mmap)
{
    pk_name_id last_old = PK_NO_NAME;
    uint32_t last_pad = 0, last_new_pad = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        pk_bone_key *k = &m->bones[i];
        pk_name_id nid = bmap[k->name];
        if (nid == k->name)
            continue;
        if (k->name != last_old || k->pad != last_pad) {
            last_old = k->name;
            last_pad = k->pad;
            last_new_pad = pad_transfer(m, k->name, k->pad, nid, PK_VMD_NAME_BYTES);
            if (last_new_pad == UINT32_MAX)
                return -1;
        }
        k->name = nid;
        k->pad = last_new_pad;
    }
    if (mmap)
        for (size_t i = 0; i < m->nmorphs; i++) {
            pk_morph_key *k = &m->morphs[i];
            pk_name_id nid = mmap[k->name];
            if (nid == k->name)
                continue;
            uint32_t np = pad_transfer(m, k->name, k->pad, nid, PK_VMD_NAME_BYTES);
            if (np == UINT32_MAX)
                return -1;
            k->name = nid;
            k->pad = np;
        }
    for (size_t i = 0; i < m->niks; i++)
        for (uint32_t j = 0; j < m->iks[i].count; j++) {
            pk_ik_state *st = &m->iks[i].ik[j];
            pk_name_id nid = bmap[st->name];
            if (nid == st->name)
                continue;
            uint32_t np = pad_transfer(m, st->name, st->pad, nid, PK_VMD_IK_BYTES);
            if (np == UINT32_MAX)
                return -1;
            st->name = nid;
            st->pad = np;
        }
    return 0;
}

/* ---- stats ---- */

void pk_edit_stats_free(pk_edit_stats *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nunmatched; i++)
        free(s->unmatched[i]);
    free(s->unmatched);
    s->unmatched = NULL;
    s->nunmatched = 0;
    free(s->clamp_name);
    s->clamp_name = NULL;
}

void pki_edit_stats_add_unmatched(pk_edit_stats *s, const char *utf8)
{
    if (!s)
        return;
    if (pki_grow_to(&s->unmatched, s->nunmatched + 1, sizeof *s->unmatched) != 0)
        return;
    size_t n = strlen(utf8) + 1;
    char *d = malloc(n);
    if (!d)
        return;
    memcpy(d, utf8, n);
    s->unmatched[s->nunmatched++] = d;
}

/* ---- planning one map over one set of used ids ---- */

/* --reverse needs every glob's target to hold the '*' that gives back the
 * capture. */
static int reverse_check(const pki_map *m, pk_log *log)
{
    int rc = 0;
    for (size_t i = 0; i < m->n; i++) {
        const pki_map_rule *r = &m->v[i];
        if (r->weighted) {
            pk_log_add_at(log, PK_ERROR, PK_E_USAGE, r->at.file, -1, r->at.line, r->at.col,
                          "rule '%s' maps morph weights and cannot be reversed", r->from_utf8);
            rc = -1;
        } else if (r->from.star >= 0 && r->to.star < 0) {
            pk_log_add_at(log, PK_ERROR, PK_E_USAGE, r->to_at.file, -1, r->to_at.line, r->to_at.col,
                          "rule '%s': '%s' cannot be reversed (the target has no '*')",
                          r->from_utf8, r->to_utf8);
            rc = -1;
        }
    }
    return rc;
}

/* Plans each used name's rule; a name a weighted rule matches goes to w
 * (morphs only; NULL for bones) and leaves the name plan (used = false:
 * its keys are replaced, not renamed). */
static int plan_map(pki_name_plan *pl, const pk_names *names, const pki_map *m, bool reverse,
                    pki_weights *w, pk_edit_stats *st, size_t *renamed, pk_log *log)
{
    for (size_t i = 0; i < pl->n; i++) {
        if (!pl->used[i])
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(names, (pk_name_id)i, &len);
        uint8_t *out = malloc(len + 2 * PKI_PATTERN_MAX);
        if (!out) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
        size_t out_len;
        size_t off = 0, cap = 0;
        const pki_map_rule *r = map_lookup(m, reverse, raw, len, out, &out_len, &off, &cap);
        if (r && r->weighted && w) {
            pl->used[i] = false;
            if (pki_weights_add(w, (pk_name_id)i, r, raw, len, off, cap) != 0) {
                free(out);
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                return -1;
            }
        } else if (!r) {
            pki_edit_stats_add_unmatched(st, pk_names_utf8(names, (pk_name_id)i));
        } else if (out_len != len || memcmp(out, raw, len) != 0) {
            if (pki_name_plan_set(pl, (pk_name_id)i, out, out_len) != 0) {
                free(out);
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                return -1;
            }
            pl->rule[i] = r;
            if (renamed)
                (*renamed)++;
        }
        free(out);
    }
    return 0;
}

/* A name left alone that --reverse (or a forward run, after --reverse)
 * would rename is worth a warning: the round trip would not hold for it.
 * Gathered into sum (what: "bone" or "morph"); ambiguous_end says them,
 * many (a Japanese motion renamed with --reverse) as one line. */
static void ambiguous(const pki_name_plan *pl, const pk_names *names, const pki_map *m,
                      bool reverse, const char *what, pki_log_sum *sum)
{
    for (size_t i = 0; i < pl->n; i++) {
        if (!pl->used[i] || pl->changed[i])
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(names, (pk_name_id)i, &len);
        uint8_t out[3 * PKI_PATTERN_MAX];
        size_t out_len;
        if (len > PKI_PATTERN_MAX)
            continue;
        const pki_map_rule *r = map_lookup(m, !reverse, raw, len, out, &out_len, NULL, NULL);
        if (!r || (out_len == len && memcmp(out, raw, len) == 0))
            continue;
        char *to = pk_cp932_to_utf8(out, out_len, NULL);
        const char *from = pk_names_utf8(names, (pk_name_id)i);
        char item[128];
        snprintf(item, sizeof item, "'%s' (-> '%s')", from, to ? to : "?");
        pki_log_sum_add(sum, -1, 0, 0, item,
                        "%s '%s' is kept but is itself a rename target; renaming back would "
                        "turn it into '%s'",
                        what, from, to ? to : "?");
        free(to);
    }
}

/* Says sum into log (NULL: drops it). */
static void ambiguous_end(pki_log_sum *sum, const char *what, pk_log *log)
{
    pk_log quiet;
    pk_log_init(&quiet);
    pki_log_sum_end(sum, log ? log : &quiet, PK_WARNING, PK_E_CONFLICT, NULL,
                    "%zu %ss are kept but are themselves rename targets; renaming back would "
                    "turn them into other names",
                    sum->count, what);
    pk_log_free(&quiet);
}

/* ---- a motion or a pose ---- */

int pki_set_plan_init(pki_set_plan *p, const pki_bone_set *s, pk_log *log)
{
    memset(p, 0, sizeof *p);
    size_t n = pk_names_count(s->names);
    p->n = n;
    p->in_bones = calloc(n ? n : 1, 1);
    p->in_ik = calloc(n ? n : 1, 1);
    bool ok_b = p->in_bones && p->in_ik && name_plan_init(&p->bones, n) == 0;
    bool ok_m = ok_b && name_plan_init(&p->morphs, n) == 0;
    if (!ok_m) {
        if (ok_b)
            name_plan_free(&p->bones);
        free(p->in_bones);
        free(p->in_ik);
        memset(p, 0, sizeof *p);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    const pk_motion *m = s->m;
    size_t nb = pki_bone_set_count(s), nm = pki_bone_set_morphs(s);
    for (size_t i = 0; i < nb; i++) {
        pk_name_id id = *pki_bone_set_at(s, i).name;
        p->in_bones[id] = p->bones.used[id] = true;
    }
    for (size_t i = 0; m && i < m->niks; i++)
        for (uint32_t j = 0; j < m->iks[i].count; j++)
            p->in_ik[m->iks[i].ik[j].name] = p->bones.used[m->iks[i].ik[j].name] = true;
    for (size_t i = 0; i < nm; i++)
        p->morphs.used[*pki_bone_set_morph_name(s, i)] = true;
    return 0;
}

int pki_set_plan_check(const pki_set_plan *p, const pki_bone_set *s, pk_log *log)
{
    /* Every check before any change; all problems reported at once. */
    int rc = 0;
    if (name_plan_check_width(&p->bones, s->names, p->in_bones, s->name_bytes, "bone", log))
        rc = -1;
    if (s->m &&
        name_plan_check_width(&p->bones, s->names, p->in_ik, PK_VMD_IK_BYTES, "IK name", log))
        rc = -1;
    if (name_plan_check_width(&p->morphs, s->names, NULL, s->name_bytes, "morph", log))
        rc = -1;
    if (name_plan_check_collisions(&p->bones, s->names, "bone", log))
        rc = -1;
    if (name_plan_check_collisions(&p->morphs, s->names, "morph", log))
        rc = -1;
    return rc;
}

int pki_set_plan_apply(const pki_set_plan *p, pki_bone_set *s, pk_log *log)
{
    pk_name_id *bmap = NULL, *mmap = NULL;
    int rc = 0;
    if (name_plan_commit(&p->bones, s->names, &bmap, log) != 0 ||
        name_plan_commit(&p->morphs, s->names, &mmap, log) != 0) {
        rc = -1;
    } else if (s->m) {
        if (motion_apply_names(s->m, bmap, mmap) != 0) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
        }
    } else {
        size_t nb = pki_bone_set_count(s), nm = pki_bone_set_morphs(s);
        for (size_t i = 0; i < nb; i++) {
            pk_name_id *id = pki_bone_set_at(s, i).name;
            *id = bmap[*id];
        }
        for (size_t i = 0; i < nm; i++) {
            pk_name_id *id = pki_bone_set_morph_name(s, i);
            *id = mmap[*id];
        }
    }
    free(bmap);
    free(mmap);
    return rc;
}

void pki_set_plan_count(const pki_set_plan *p, pk_edit_stats *st)
{
    for (size_t i = 0; i < p->n; i++) {
        st->bones += p->in_bones[i];
        st->bones_renamed += p->in_bones[i] && p->bones.changed[i];
        st->ik_renamed += p->in_ik[i] && p->bones.changed[i];
        st->morphs += p->morphs.used[i];
    }
}

void pki_set_plan_free(pki_set_plan *p)
{
    name_plan_free(&p->bones);
    name_plan_free(&p->morphs);
    free(p->in_bones);
    free(p->in_ik);
    memset(p, 0, sizeof *p);
}

/* Renames the bone keys (and a motion's IK names) and morphs of s; the
 * weighted morph rules' targets are written after the renames, from the
 * records marked as theirs before them. */
static int rename_set(pki_bone_set *s, const pk_rules *r, bool reverse, pk_edit_stats *st,
                      pk_log *log)
{
    if (reverse && (reverse_check(&r->rename, log) || reverse_check(&r->morphs, log)))
        return -1;
    pki_set_plan p;
    if (pki_set_plan_init(&p, s, log) != 0)
        return -1;
    pki_weights w;
    if (pki_weights_init(&w, p.n) != 0) {
        pki_set_plan_free(&p);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pk_edit_stats local = {0};
    if (!st)
        st = &local;
    size_t bone_renamed = 0, morph_renamed = 0;
    bool *marks = NULL;
    int rc = 0;
    if (plan_map(&p.bones, s->names, &r->rename, reverse, NULL, st, &bone_renamed, log) != 0 ||
        plan_map(&p.morphs, s->names, &r->morphs, reverse, &w, st, &morph_renamed, log) != 0)
        rc = -1;
    if (!rc) {
        int c1 = pki_set_plan_check(&p, s, log), c2 = pki_weights_check(&w, s, log);
        rc = c1 || c2 ? -1 : 0;
    }
    if (!rc && w.nsources && !(marks = pki_weights_mark(&w, s))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    if (!rc)
        rc = pki_set_plan_apply(&p, s, log);
    if (!rc && w.nsources)
        rc = pki_weights_apply(&w, s, marks, st, log);
    if (!rc) {
        /* nothing renamed, and most of its names those the rules rename
         * to: the input was renamed already (or --reverse given the other
         * way): one line says so, not one per kind of name's round trip */
        size_t names = 0;
        for (size_t i = 0; i < p.n; i++) /* both plans are over the set's names */
            names += p.bones.used[i] + p.morphs.used[i];
        pki_log_sum sb, sm;
        pki_log_sum_init(&sb);
        pki_log_sum_init(&sm);
        ambiguous(&p.bones, s->names, &r->rename, reverse, "bone", &sb);
        ambiguous(&p.morphs, s->names, &r->morphs, reverse, "morph", &sm);
        size_t nb = sb.count, nm = sm.count;
        bool already = bone_renamed + morph_renamed == 0 && !w.nsources && 2 * (nb + nm) > names;
        ambiguous_end(&sb, "bone", already ? NULL : log);
        ambiguous_end(&sm, "morph", already ? NULL : log);
        if (already)
            pk_warning(log, PK_E_CONFLICT,
                       "%zu bone%s and %zu morph%s of the input have the names %s to: %s "
                       "(%s)",
                       nb, nb == 1 ? "" : "s", nm, nm == 1 ? "" : "s",
                       reverse ? "--reverse renames" : "the rules rename",
                       reverse ? "it has them already" : "it looks renamed already",
                       reverse ? "without --reverse the rules rename them"
                               : "--reverse names them back");
        pki_set_plan_count(&p, st);
        st->morphs += w.nsources;
        st->morphs_renamed += morph_renamed;
    }
    free(marks);
    pki_weights_free(&w);
    pki_set_plan_free(&p);
    pk_edit_stats_free(&local);
    return rc;
}

int pk_motion_rename(pk_motion *m, const pk_rules *r, bool reverse, pk_edit_stats *st, pk_log *log)
{
    pki_bone_set s;
    pki_bone_set_of_motion(&s, m);
    return rename_set(&s, r, reverse, st, log);
}

int pk_pose_rename(pk_pose *p, const pk_rules *r, bool reverse, pk_edit_stats *st, pk_log *log)
{
    pki_bone_set s;
    pki_bone_set_of_pose(&s, p);
    return rename_set(&s, r, reverse, st, log);
}
