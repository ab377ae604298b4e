/*
 * morph_weights.c — rename's weighted morph rules (ops/names/morph_weights.h).
 *
 * A target's track is the sum of its contributions, each a morph track
 * (a source's keys times its share, or a joined track's keys as they are),
 * clamped to the target's range.  Morph keys interpolate linearly
 * (doc/formats.md §3.5) and hold their first and last values outside
 * their keys, so the sum is linear between the union of the
 * contributions' frames: the target is keyed at that union, each
 * contribution sampled there.  Where the sum crosses an end of the range
 * between two keys, the integer frames on either side of the crossing are
 * keyed too, so that at every integer frame the target plays exactly the
 * clamped sum.  A pose is the same with every entry at frame 0.
 */
#include "common/sort.h"
#include "common/diag.h"
#include "common/grow.h"
#include "ops/names/morph_weights.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pki_weights_init(pki_weights *w, size_t nnames)
{
    memset(w, 0, sizeof *w);
    w->n = nnames;
    size_t n = nnames ? nnames : 1;
    w->source = calloc(n, sizeof *w->source);
    w->first = calloc(n, sizeof *w->first);
    w->nshares = calloc(n, sizeof *w->nshares);
    if (!w->source || !w->first || !w->nshares) {
        pki_weights_free(w);
        return -1;
    }
    return 0;
}

void pki_weights_free(pki_weights *w)
{
    free(w->source);
    free(w->first);
    free(w->nshares);
    free(w->t);
    free(w->s);
    memset(w, 0, sizeof *w);
}

static long find_target(const pki_weights *w, const uint8_t *raw, size_t len)
{
    for (size_t i = 0; i < w->nt; i++)
        if (w->t[i].len == len && memcmp(w->t[i].raw, raw, len) == 0)
            return (long)i;
    return -1;
}

int pki_weights_add(pki_weights *w, pk_name_id id, const pki_map_rule *r, const uint8_t *raw,
                    size_t len, size_t off, size_t cap)
{
    (void)len;
    w->source[id] = true;
    w->nsources++;
    w->first[id] = w->ns;
    w->nshares[id] = r->ntargets;
    for (size_t k = 0; k < r->ntargets; k++) {
        uint8_t out[3 * PKI_PATTERN_MAX];
        size_t n = pki_pattern_expand(&r->targets[k].to, &r->from, raw, off, cap, out);
        long t = find_target(w, out, n);
        if (t < 0) {
            if (pki_grow_to(&w->t, w->nt + 1, sizeof *w->t) != 0)
                return -1;
            pki_weight_target *nt = &w->t[w->nt];
            memset(nt, 0, sizeof *nt);
            memcpy(nt->raw, out, n);
            nt->len = n;
            nt->lo = r->lo;
            nt->hi = r->hi;
            nt->rule = r;
            nt->index = k;
            t = (long)w->nt++;
        } else {
            pki_weight_target *ot = &w->t[t];
            ot->lo = fmax(ot->lo, r->lo);
            ot->hi = fmin(ot->hi, r->hi);
            if (ot->lo > ot->hi && !ot->clash)
                ot->clash = r;
        }
        if (pki_grow_to(&w->s, w->ns + 1, sizeof *w->s) != 0)
            return -1;
        w->s[w->ns++] = (pki_weight_share){id, (size_t)t, r->targets[k].factor};
    }
    return 0;
}

int pki_weights_check(const pki_weights *w, const pki_bone_set *s, pk_log *log)
{
    int rc = 0;
    for (size_t i = 0; i < w->nt; i++) {
        const pki_weight_target *t = &w->t[i];
        const pki_where *at = &t->rule->targets[t->index].at;
        char *name = pk_cp932_to_utf8(t->raw, t->len, NULL);
        if (t->len > s->name_bytes) {
            pk_log_add_at(log, PK_ERROR, PK_E_UNSUPPORTED, at->file, -1, at->line, at->col,
                          "morph '%s' would map to '%s', %zu bytes in CP932; the %s field holds "
                          "%zu",
                          t->rule->from_utf8, name ? name : "?", t->len, s->format, s->name_bytes);
            rc = -1;
        }
        if (t->clash) {
            pk_log_add_at(log, PK_ERROR, PK_E_CONFLICT, t->clash->at.file, -1, t->clash->at.line,
                          t->clash->at.col,
                          "the clamp ranges of '%s' and '%s', which both map to '%s', do not "
                          "overlap",
                          t->rule->from_utf8, t->clash->from_utf8, name ? name : "?");
            rc = -1;
        }
        free(name);
    }
    return rc;
}

bool *pki_weights_mark(const pki_weights *w, const pki_bone_set *s)
{
    size_t n = pki_bone_set_morphs(s);
    bool *marks = calloc(n ? n : 1, sizeof *marks);
    if (!marks)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        pk_name_id id = *pki_bone_set_morph_name(s, i);
        marks[i] = id < w->n && w->source[id];
    }
    return marks;
}

/* ---- records of a motion or a pose, seen alike ---- */

static uint32_t rec_frame(const pki_bone_set *s, size_t i)
{
    return s->m ? s->m->morphs[i].frame : 0;
}

static float rec_weight(const pki_bone_set *s, size_t i)
{
    return s->m ? s->m->morphs[i].weight : s->p->morphs[i].weight;
}

/* ---- tracks ---- */

typedef struct key {
    uint32_t frame;
    double w;
} key;

typedef struct track {
    key *v;
    size_t n;
} track;

typedef struct sort_ctx {
    const pki_bone_set *s;
    const bool *marks;
} sort_ctx;

/* Records ordered by (source mark, name, frame, record index). */
static int cmp_rec(const void *ctx, size_t a, size_t b)
{
    const sort_ctx *c = ctx;
    bool ma = c->marks[a], mb = c->marks[b];
    if (ma != mb)
        return ma < mb ? -1 : 1;
    pk_name_id na = *pki_bone_set_morph_name(c->s, a), nb = *pki_bone_set_morph_name(c->s, b);
    if (na != nb)
        return na < nb ? -1 : 1;
    uint32_t fa = rec_frame(c->s, a), fb = rec_frame(c->s, b);
    if (fa != fb)
        return fa < fb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* The track of the records with this mark and name (ord sorted by
 * cmp_rec), times factor; of two records at one frame the later counts
 * (as MMD plays it).  An empty track when there are none; -1 on OOM. */
static int get_track(const pki_bone_set *s, const bool *marks, const size_t *ord, size_t n,
                     bool mark, pk_name_id name, double factor, track *out)
{
    out->v = NULL;
    out->n = 0;
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first record with (mark, name) >= the wanted one */
        size_t mid = (lo + hi) / 2, r = ord[mid];
        pk_name_id nm = *pki_bone_set_morph_name(s, r);
        bool before = marks[r] != mark ? marks[r] < mark : nm < name;
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < n && marks[ord[end]] == mark && *pki_bone_set_morph_name(s, ord[end]) == name)
        end++;
    if (end == lo)
        return 0;
    out->v = malloc((end - lo) * sizeof *out->v);
    if (!out->v)
        return -1;
    for (size_t i = lo; i < end; i++) {
        uint32_t f = rec_frame(s, ord[i]);
        if (i + 1 < end && rec_frame(s, ord[i + 1]) == f)
            continue;
        out->v[out->n++] = (key){f, factor * (double)rec_weight(s, ord[i])};
    }
    return 0;
}

/* A track's value at frame f; *at is a cursor (frames asked in order). */
static double sample(const track *t, size_t *at, uint32_t f)
{
    while (*at + 1 < t->n && t->v[*at + 1].frame <= f)
        (*at)++;
    const key *a = &t->v[*at];
    if (f <= a->frame || *at + 1 == t->n)
        return a->w;
    const key *b = a + 1;
    return a->w + (b->w - a->w) * ((double)(f - a->frame) / (double)(b->frame - a->frame));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- one target ---- */

typedef struct result {
    key *v; /* the keys written, clamped */
    size_t n;
} result;

static void clamp_note(pk_edit_stats *st, const pk_names *names, pk_name_id id, uint32_t frame,
                       double from, double to)
{
    st->morph_clamped++;
    if (st->clamp_name && fabs(from - to) <= fabs(st->clamp_from - st->clamp_to))
        return;
    char *name = strdup(pk_names_utf8(names, id));
    if (!name)
        return;
    free(st->clamp_name);
    st->clamp_name = name;
    st->clamp_frame = frame;
    st->clamp_from = from;
    st->clamp_to = to;
}

/* Appends (f, v) to the unclamped keys; -1 on OOM. */
static int push(key **v, size_t *n, size_t *cap, uint32_t f, double w)
{
    if (pki_grow_reserve(v, cap, *n + 1, sizeof **v) != 0)
        return -1;
    (*v)[(*n)++] = (key){f, w};
    return 0;
}

/* The target's keys from its contributions: the union of their frames
 * with each sampled there, the integer frames around any crossing of the
 * range's ends, then clamped. */
static int target_keys(const pki_weight_target *t, track *parts, size_t nparts,
                       const pk_names *names, pk_edit_stats *st, result *out)
{
    size_t nf = 0;
    for (size_t i = 0; i < nparts; i++)
        nf += parts[i].n;
    uint32_t *frames = malloc((nf ? nf : 1) * sizeof *frames);
    size_t *at = calloc(nparts ? nparts : 1, sizeof *at);
    key *sum = NULL;
    size_t nsum = 0, cap = 0;
    int rc = -1;
    if (!frames || !at)
        goto done;
    nf = 0;
    for (size_t i = 0; i < nparts; i++)
        for (size_t k = 0; k < parts[i].n; k++)
            frames[nf++] = parts[i].v[k].frame;
    qsort(frames, nf, sizeof *frames, cmp_u32);
    for (size_t i = 0; i < nf; i++) {
        if (i && frames[i] == frames[i - 1])
            continue;
        double v = 0.0;
        for (size_t p = 0; p < nparts; p++)
            if (parts[p].n)
                v += sample(&parts[p], &at[p], frames[i]);
        if (nsum) {
            /* a crossing of lo or hi strictly between the last key and this one */
            const key a = sum[nsum - 1];
            const double ends[2] = {t->lo, t->hi};
            uint32_t extra[4];
            size_t ne = 0;
            for (int e = 0; e < 2; e++) {
                double b = ends[e];
                if (!((a.w - b) * (v - b) < 0))
                    continue;
                double x = a.frame + (b - a.w) / (v - a.w) * (double)(frames[i] - a.frame);
                /* a crossing at a whole frame (to rounding) needs one key */
                if (fabs(x - round(x)) < 1e-6)
                    x = round(x);
                uint32_t f0 = (uint32_t)floor(x), f1 = (uint32_t)ceil(x);
                if (f0 > a.frame && f0 < frames[i])
                    extra[ne++] = f0;
                if (f1 != f0 && f1 > a.frame && f1 < frames[i])
                    extra[ne++] = f1;
            }
            qsort(extra, ne, sizeof *extra, cmp_u32);
            for (size_t k = 0; k < ne; k++) {
                if (k && extra[k] == extra[k - 1])
                    continue;
                double s = (double)(extra[k] - a.frame) / (double)(frames[i] - a.frame);
                if (push(&sum, &nsum, &cap, extra[k], a.w + (v - a.w) * s) != 0)
                    goto done;
            }
        }
        if (push(&sum, &nsum, &cap, frames[i], v) != 0)
            goto done;
    }
    for (size_t i = 0; i < nsum; i++) {
        double v = sum[i].w, c = v < t->lo ? t->lo : v > t->hi ? t->hi : v;
        /* counted when it changes the float written (a NaN stays NaN) */
        if (!isnan(v) && (float)c != (float)v)
            clamp_note(st, names, t->id, sum[i].frame, v, c);
        sum[i].w = c;
    }
    out->v = sum;
    out->n = nsum;
    sum = NULL;
    rc = 0;
done:
    free(sum);
    free(frames);
    free(at);
    return rc;
}

/* ---- writing ---- */

/* Target t's keys appended to the new records nv at *k, once. */
static void emit(const pki_weights *w, const pki_bone_set *s, size_t t, const result *res,
                 bool *done, void *nv, size_t *k, pk_edit_stats *st)
{
    if (done[t])
        return;
    done[t] = true;
    for (size_t j = 0; j < res[t].n; j++) {
        float v = (float)res[t].v[j].w;
        if (s->m)
            ((pk_morph_key *)nv)[(*k)++] = (pk_morph_key){w->t[t].id, 0, res[t].v[j].frame, v};
        else
            ((pk_pose_morph *)nv)[(*k)++] = (pk_pose_morph){w->t[t].id, v};
    }
    st->morph_keys += res[t].n;
}

/* The new morph records: the old ones in order, each target's keys where
 * the first record feeding it stood. */
static int rebuild(pki_weights *w, pki_bone_set *s, const bool *marks, const long *tid,
                   const result *res, pk_edit_stats *st)
{
    size_t n = pki_bone_set_morphs(s), total = n;
    for (size_t t = 0; t < w->nt; t++)
        total += res[t].n;
    bool *done = calloc(w->nt ? w->nt : 1, sizeof *done);
    void *nv = s->m ? malloc((total ? total : 1) * sizeof(pk_morph_key))
                    : malloc((total ? total : 1) * sizeof(pk_pose_morph));
    if (!done || !nv) {
        free(done);
        free(nv);
        return -1;
    }
    pk_morph_key *mk = nv;
    pk_pose_morph *pm = nv;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        pk_name_id id = *pki_bone_set_morph_name(s, i);
        bool fed = marks[i] || tid[id] >= 0;
        if (!fed) {
            if (s->m)
                mk[k++] = s->m->morphs[i];
            else
                pm[k++] = s->p->morphs[i];
            continue;
        }
        if (!marks[i]) {
            emit(w, s, (size_t)tid[id], res, done, nv, &k, st);
            continue;
        }
        for (size_t sh = w->first[id]; sh < w->first[id] + w->nshares[id]; sh++)
            emit(w, s, w->s[sh].target, res, done, nv, &k, st);
    }
    if (s->m) {
        free(s->m->morphs);
        s->m->morphs = mk;
        s->m->nmorphs = k;
        s->m->cap_morphs = total ? total : 1;
    } else {
        free(s->p->morphs);
        s->p->morphs = pm;
        s->p->nmorphs = k;
        s->p->cap_morphs = total ? total : 1;
    }
    free(done);
    return 0;
}

int pki_weights_apply(pki_weights *w, pki_bone_set *s, const bool *marks, pk_edit_stats *st,
                      pk_log *log)
{
    for (size_t t = 0; t < w->nt; t++) {
        w->t[t].id = pk_names_intern(s->names, w->t[t].raw, w->t[t].len);
        if (w->t[t].id == PK_NO_NAME) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            return -1;
        }
    }
    size_t nn = pk_names_count(s->names), n = pki_bone_set_morphs(s);
    long *tid = malloc((nn ? nn : 1) * sizeof *tid);
    size_t *ord = malloc((n ? n : 1) * sizeof *ord), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    result *res = calloc(w->nt ? w->nt : 1, sizeof *res);
    track *parts = calloc(w->ns + 1, sizeof *parts);
    int rc = -1;
    if (!tid || !ord || !tmp || !res || !parts)
        goto done;
    for (size_t i = 0; i < nn; i++)
        tid[i] = -1;
    for (size_t t = 0; t < w->nt; t++)
        tid[w->t[t].id] = (long)t;
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    sort_ctx c = {s, marks};
    pki_sort_indices(ord, tmp, n, cmp_rec, &c);
    for (size_t t = 0; t < w->nt; t++) {
        size_t np = 0;
        int trc = 0;
        for (size_t sh = 0; sh < w->ns && !trc; sh++)
            if (w->s[sh].target == t)
                trc = get_track(s, marks, ord, n, true, w->s[sh].source, w->s[sh].factor,
                                &parts[np++]);
        /* a morph keeping (or renamed to) the target's name joins the sum */
        if (!trc)
            trc = get_track(s, marks, ord, n, false, w->t[t].id, 1.0, &parts[np++]);
        if (!trc)
            trc = target_keys(&w->t[t], parts, np, s->names, st, &res[t]);
        for (size_t p = 0; p < np; p++)
            free(parts[p].v);
        if (trc)
            goto done;
    }
    if (rebuild(w, s, marks, tid, res, st) != 0)
        goto done;
    st->morphs_mapped += w->nsources;
    st->morph_targets += w->nt;
    rc = 0;
done:
    if (rc)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    if (res)
        for (size_t t = 0; t < w->nt; t++)
            free(res[t].v);
    free(res);
    free(parts);
    free(tid);
    free(ord);
    free(tmp);
    return rc;
}
