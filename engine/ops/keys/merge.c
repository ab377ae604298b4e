/* merge.c — several motions (and poses) combined into one.
 *
 * Every input's records are shifted by the input's offset and re-interned
 * into the output's name table.  A "key" is (section, name, frame) for bone
 * and morph records and (section, frame) for camera, light, shadow and IK
 * records.  When several inputs hold the same key the policy picks one
 * input (last: the highest index, as when MMD loads motions one after
 * another; first: the lowest) and the records of the other inputs for that
 * key are dropped; if their value differed it is a conflict and reported.
 * Duplicate keys inside ONE input are not conflicts: they are the input's
 * own business (doc/formats.md §3.11) and stay as they are.
 *
 * The output keeps file order input after input, so a motion merged with
 * an empty one writes back byte-identical: the header, model name, the
 * point where the file ended and trailing bytes come from the first input
 * that has records, and name paddings travel with their records.
 */
#include "common/grow.h"
#include "ops/keys/splice.h"
#include "posekit.h"
#include "common/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- records as entries ---- */

typedef struct entry {
    uint32_t sec;   /* pk_section */
    uint32_t name;  /* id in the output's names (0 for unnamed sections) */
    uint32_t frame; /* after the offset */
    uint32_t input;
    uint32_t rec; /* index in the input's section array */
    bool drop;
} entry;

static int cmp_entry(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->sec != b->sec)
        return a->sec < b->sec ? -1 : 1;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->frame != b->frame)
        return a->frame < b->frame ? -1 : 1;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    return (a->rec > b->rec) - (a->rec < b->rec);
}

typedef struct merger {
    const pk_motion **src;
    size_t n;
    const pk_merge_input *in;
    pk_motion *out;
    uint32_t **name_map; /* per input: its name id -> output id (PK_NO_NAME = not yet) */
    uint32_t **pad_map;
    entry *e;
    size_t ne, cap;
    size_t below_zero, past_end, cut_keys;
    bool *own;       /* src[i] is the merger's (a pose's motion, a cut motion) */
    uint32_t *first; /* per input, scratch for the overlap check */
    uint32_t *last;
    pk_log *log;
} merger;

/* Whether input i's records of section sec go through the key-by-key
 * merge: the sections it takes, minus the bones and morphs of a `within`
 * input (spliced in afterwards). */
static bool takes(const merger *g, size_t i, pk_section sec)
{
    unsigned mask = g->in[i].sections ? g->in[i].sections : ~0u;
    if (!(mask & (1u << sec)))
        return false;
    return !(g->in[i].within && (sec == PK_SEC_BONE || sec == PK_SEC_MORPH));
}

static pk_name_id map_name(merger *g, size_t i, pk_name_id id)
{
    uint32_t *slot = &g->name_map[i][id];
    if (*slot == PK_NO_NAME) {
        size_t len;
        const uint8_t *raw = pk_names_raw(g->src[i]->names, id, &len);
        *slot = pk_names_intern(g->out->names, raw, len);
    }
    return *slot;
}

/* Pads are stored as id + 1 (0 = all zeros). */
static uint32_t map_pad(merger *g, size_t i, uint32_t pad)
{
    if (pad == 0)
        return 0;
    uint32_t *slot = &g->pad_map[i][pad - 1];
    if (*slot == PK_NO_NAME) {
        size_t len;
        const uint8_t *raw = pk_names_raw(g->src[i]->pads, pad - 1, &len);
        *slot = pk_names_intern(g->out->pads, raw, len);
    }
    return *slot == PK_NO_NAME ? 0 : *slot + 1;
}

/* Input i's frame shifted by its offset; false (counted in *below or
 * *past) when it falls before frame 0 or after the last frame a VMD can
 * hold. */
static bool shift(const merger *g, size_t i, uint32_t frame, uint32_t *out, size_t *below,
                  size_t *past)
{
    int64_t f = (int64_t)frame + g->in[i].offset;
    if (f < 0) {
        (*below)++;
        return false;
    }
    if (f > (int64_t)UINT32_MAX) {
        (*past)++;
        return false;
    }
    *out = (uint32_t)f;
    return true;
}

/* Input i as messages name it: "input K (FILE)", or "input K" without a
 * name (pk_merge_input.name).  The text lives in buf. */
static const char *input_name(const merger *g, size_t i, char *buf, size_t size)
{
    if (g->in[i].name)
        snprintf(buf, size, "input %zu (%s)", i + 1, g->in[i].name);
    else
        snprintf(buf, size, "input %zu", i + 1);
    return buf;
}

/* A warning about input i, under its file's name (pk_log_add_at). */
static void warn_input(const merger *g, size_t i, pk_diag_code code, const char *fmt, ...)
    PK_PRINTF(4, 5);
static void warn_input(const merger *g, size_t i, pk_diag_code code, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    if (g->in[i].name) {
        pk_log_vadd_at(g->log, PK_WARNING, code, g->in[i].name, -1, 0, 0, fmt, ap);
    } else {
        char msg[512];
        vsnprintf(msg, sizeof msg, fmt, ap);
        pk_log_add_at(g->log, PK_WARNING, code, NULL, -1, 0, 0, "%s: %s",
                      input_name(g, i, buf, sizeof buf), msg);
    }
    va_end(ap);
}

static int add_entry(merger *g, pk_section sec, pk_name_id name, uint32_t frame, size_t input,
                     size_t rec)
{
    entry *e = pki_grow_push(&g->e, &g->ne, &g->cap, sizeof *g->e);
    if (!e)
        return -1;
    *e = (entry){(uint32_t)sec, name, frame, (uint32_t)input, (uint32_t)rec, false};
    return 0;
}

/* Frame of record `rec` of section `sec` of motion m. */
static uint32_t rec_frame(const pk_motion *m, pk_section sec, size_t rec)
{
    switch (sec) {
    case PK_SEC_BONE:
        return m->bones[rec].frame;
    case PK_SEC_MORPH:
        return m->morphs[rec].frame;
    case PK_SEC_CAMERA:
        return m->cameras[rec].frame;
    case PK_SEC_LIGHT:
        return m->lights[rec].frame;
    case PK_SEC_SHADOW:
        return m->shadows[rec].frame;
    default:
        return m->iks[rec].frame;
    }
}

static int collect(merger *g)
{
    for (size_t i = 0; i < g->n; i++) {
        const pk_motion *m = g->src[i];
        size_t below = 0, past = 0;
        for (int s = 0; s < PK_SEC_COUNT; s++) {
            pk_section sec = (pk_section)s;
            if (!takes(g, i, sec))
                continue;
            size_t cnt = pk_motion_count(m, sec);
            for (size_t r = 0; r < cnt; r++) {
                uint32_t f;
                if (!shift(g, i, rec_frame(m, sec, r), &f, &below, &past))
                    continue;
                pk_name_id name = 0;
                if (sec == PK_SEC_BONE || sec == PK_SEC_MORPH) {
                    name =
                        map_name(g, i, sec == PK_SEC_BONE ? m->bones[r].name : m->morphs[r].name);
                    if (name == PK_NO_NAME)
                        return -1;
                }
                if (add_entry(g, sec, name, f, i, r) != 0)
                    return -1;
            }
        }
        g->below_zero += below;
        g->past_end += past;
        if (below)
            warn_input(g, i, PK_E_LOSS, "offset %lld: %zu key%s shifted below frame 0 dropped",
                       (long long)g->in[i].offset, below, below == 1 ? "" : "s");
        if (past)
            warn_input(g, i, PK_E_LOSS,
                       "offset %lld: %zu key%s shifted past frame 4294967295 (the last frame a "
                       "VMD holds) dropped",
                       (long long)g->in[i].offset, past, past == 1 ? "" : "s");
    }
    return 0;
}

/* ---- value equality ---- */

static bool feq(float a, float b)
{
    return a == b || memcmp(&a, &b, sizeof a) == 0; /* NaN equal to its own bits */
}

static bool feqv(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!feq(a[i], b[i]))
            return false;
    return true;
}

/* Bone curves compare by their 16 canonical parameters plus the physics
 * bytes; filler bytes are not part of the value (doc/formats.md §3.4). */
static bool interp_eq(const uint8_t a[64], const uint8_t b[64])
{
    if (a[2] != b[2] || a[3] != b[3])
        return false;
    for (int axis = 0; axis < 4; axis++) {
        uint8_t ca[4], cb[4];
        pk_interp_curve(a, axis, ca);
        pk_interp_curve(b, axis, cb);
        if (memcmp(ca, cb, 4) != 0)
            return false;
    }
    return true;
}

static bool ik_eq(const pk_motion *ma, const pk_ik_key *a, const pk_motion *mb, const pk_ik_key *b)
{
    if (a->show != b->show || a->count != b->count)
        return false;
    for (uint32_t i = 0; i < a->count; i++) {
        size_t la, lb;
        const uint8_t *ra = pk_names_raw(ma->names, a->ik[i].name, &la);
        const uint8_t *rb = pk_names_raw(mb->names, b->ik[i].name, &lb);
        if (la != lb || memcmp(ra, rb, la) != 0 || a->ik[i].enabled != b->ik[i].enabled)
            return false;
    }
    return true;
}

static bool same_value(const merger *g, const entry *x, const entry *y)
{
    const pk_motion *a = g->src[x->input], *b = g->src[y->input];
    switch ((pk_section)x->sec) {
    case PK_SEC_BONE: {
        const pk_bone_key *p = &a->bones[x->rec], *q = &b->bones[y->rec];
        return feqv(p->pos, q->pos, 3) && feqv(p->rot, q->rot, 4) &&
               interp_eq(p->interp, q->interp);
    }
    case PK_SEC_MORPH:
        return feq(a->morphs[x->rec].weight, b->morphs[y->rec].weight);
    case PK_SEC_CAMERA: {
        const pk_camera_key *p = &a->cameras[x->rec], *q = &b->cameras[y->rec];
        return feq(p->distance, q->distance) && feqv(p->pos, q->pos, 3) &&
               feqv(p->rot, q->rot, 3) && memcmp(p->interp, q->interp, 24) == 0 &&
               p->fov == q->fov && p->perspective == q->perspective;
    }
    case PK_SEC_LIGHT: {
        const pk_light_key *p = &a->lights[x->rec], *q = &b->lights[y->rec];
        return feqv(p->color, q->color, 3) && feqv(p->direction, q->direction, 3);
    }
    case PK_SEC_SHADOW: {
        const pk_shadow_key *p = &a->shadows[x->rec], *q = &b->shadows[y->rec];
        return p->mode == q->mode && feq(p->distance, q->distance);
    }
    default:
        return ik_eq(a, &a->iks[x->rec], b, &b->iks[y->rec]);
    }
}

static const char *const SEC_NAMES[PK_SEC_COUNT] = {"bone",  "morph",  "camera",
                                                    "light", "shadow", "IK"};

static int add_conflict(merger *g, pk_merge_report *rep, const entry *kept, const entry *lost)
{
    if (pki_grow_reserve(&rep->items, &rep->cap, rep->count + 1, sizeof *rep->items) != 0)
        return -1;
    pk_merge_conflict *c = &rep->items[rep->count];
    memset(c, 0, sizeof *c);
    c->section = (pk_section)kept->sec;
    if (kept->sec == PK_SEC_BONE || kept->sec == PK_SEC_MORPH) {
        const char *u = pk_names_utf8(g->out->names, kept->name);
        c->name = strdup(u ? u : "");
        if (!c->name)
            return -1;
    }
    c->frame = kept->frame;
    c->kept = kept->input;
    c->dropped = lost->input;
    rep->count++;
    return 0;
}

/* Resolves the group e[lo, hi) of entries sharing one key. */
static int resolve(merger *g, size_t lo, size_t hi, pk_merge_policy policy, pk_merge_report *rep)
{
    uint32_t first = g->e[lo].input, last = g->e[hi - 1].input;
    if (first == last)
        return 0; /* one input only: its own duplicates stay */
    uint32_t win = policy == PK_MERGE_FIRST ? first : last;
    /* The effective record of an input is its last one for the key. */
    const entry *we = NULL;
    for (size_t k = lo; k < hi; k++)
        if (g->e[k].input == win)
            we = &g->e[k];
    for (size_t k = lo; k < hi; k++) {
        entry *x = &g->e[k];
        if (x->input == win)
            continue;
        x->drop = true;
        bool effective = k + 1 == hi || g->e[k + 1].input != x->input;
        if (!effective)
            continue;
        if (same_value(g, x, we)) {
            rep->identical++;
            continue;
        }
        if (add_conflict(g, rep, we, x) != 0)
            return -1;
        if (policy == PK_MERGE_ERROR) {
            const pk_merge_conflict *c = &rep->items[rep->count - 1];
            char b1[512], b2[512];
            pk_error(g->log, PK_E_CONFLICT, "conflict: %s %s%s%sframe %u differs between %s and %s",
                     SEC_NAMES[c->section], c->name ? "'" : "", c->name ? c->name : "",
                     c->name ? "' at " : "at ", c->frame, input_name(g, c->dropped, b1, sizeof b1),
                     input_name(g, c->kept, b2, sizeof b2));
        }
    }
    return 0;
}

/* ---- overlaps ---- */

/* Two inputs' frame ranges of one track overlap when one input has a key
 * strictly inside the other's first..last: then the merged track runs
 * through both inputs' keys.  Ranges that share only an end frame (one
 * motion after the other) do not. */
static bool ranges_overlap(uint32_t fa, uint32_t la, uint32_t fb, uint32_t lb)
{
    uint32_t lo = fa > fb ? fa : fb, hi = la < lb ? la : lb;
    if (lo < hi)
        return true;
    return lo == hi && ((fa < lo && lo < la) || (fb < lo && lo < lb));
}

static int add_overlap(merger *g, pk_merge_report *rep, const entry *e, size_t a, size_t b)
{
    if (pki_grow_reserve(&rep->overlaps, &rep->cap_overlaps, rep->noverlaps + 1,
                         sizeof *rep->overlaps) != 0)
        return -1;
    pk_merge_overlap *o = &rep->overlaps[rep->noverlaps];
    memset(o, 0, sizeof *o);
    o->section = (pk_section)e->sec;
    if (e->sec == PK_SEC_BONE || e->sec == PK_SEC_MORPH) {
        const char *u = pk_names_utf8(g->out->names, e->name);
        o->name = strdup(u ? u : "");
        if (!o->name)
            return -1;
    }
    o->a = a;
    o->b = b;
    o->a_first = g->first[a];
    o->a_last = g->last[a];
    o->b_first = g->first[b];
    o->b_last = g->last[b];
    rep->noverlaps++;
    return 0;
}

/* The track e[lo, hi) (one section and name, sorted by frame): every pair
 * of inputs whose kept keys overlap.  Keys dropped as identical or as a
 * conflict's loser do not count. */
static int track_overlaps(merger *g, size_t lo, size_t hi, pk_merge_policy policy,
                          pk_merge_report *rep)
{
    bool any = false;
    for (size_t i = 0; i < g->n; i++) {
        g->first[i] = UINT32_MAX;
        g->last[i] = 0;
    }
    for (size_t k = lo; k < hi; k++) {
        const entry *x = &g->e[k];
        if (x->drop)
            continue;
        if (g->first[x->input] == UINT32_MAX || x->frame < g->first[x->input])
            g->first[x->input] = x->frame;
        if (x->frame > g->last[x->input])
            g->last[x->input] = x->frame;
        any = any || x->input != g->e[lo].input;
    }
    if (!any)
        return 0;
    for (size_t a = 0; a < g->n; a++) {
        if (g->first[a] == UINT32_MAX)
            continue;
        for (size_t b = a + 1; b < g->n; b++) {
            if (g->first[b] == UINT32_MAX ||
                !ranges_overlap(g->first[a], g->last[a], g->first[b], g->last[b]))
                continue;
            if (add_overlap(g, rep, &g->e[lo], a, b) != 0)
                return -1;
            if (policy == PK_MERGE_ERROR) {
                const pk_merge_overlap *o = &rep->overlaps[rep->noverlaps - 1];
                const char *na = g->in[a].name, *nb = g->in[b].name;
                pk_error(g->log, PK_E_CONFLICT,
                         "overlap: %s%s%s%s keyed by input %zu (%s%sframes %u-%u) and input %zu "
                         "(%s%sframes %u-%u) over overlapping frames",
                         SEC_NAMES[o->section], o->name ? " '" : "", o->name ? o->name : "",
                         o->name ? "'" : "", a + 1, na ? na : "", na ? ", " : "", o->a_first,
                         o->a_last, b + 1, nb ? nb : "", nb ? ", " : "", o->b_first, o->b_last);
            }
        }
    }
    return 0;
}

static int find_overlaps(merger *g, pk_merge_policy policy, pk_merge_report *rep)
{
    for (size_t lo = 0; lo < g->ne;) {
        size_t hi = lo + 1;
        while (hi < g->ne && g->e[hi].sec == g->e[lo].sec && g->e[hi].name == g->e[lo].name)
            hi++;
        if (track_overlaps(g, lo, hi, policy, rep) != 0)
            return -1;
        lo = hi;
    }
    return 0;
}

/* ---- output ---- */

static int emit(merger *g, const entry *x)
{
    const pk_motion *m = g->src[x->input];
    pk_motion *o = g->out;
    switch ((pk_section)x->sec) {
    case PK_SEC_BONE: {
        pk_bone_key *k = pk_motion_push_bone(o);
        if (!k)
            return -1;
        *k = m->bones[x->rec];
        k->name = x->name;
        k->pad = map_pad(g, x->input, k->pad);
        k->frame = x->frame;
        return 0;
    }
    case PK_SEC_MORPH: {
        pk_morph_key *k = pk_motion_push_morph(o);
        if (!k)
            return -1;
        *k = m->morphs[x->rec];
        k->name = x->name;
        k->pad = map_pad(g, x->input, k->pad);
        k->frame = x->frame;
        return 0;
    }
    case PK_SEC_CAMERA: {
        pk_camera_key *k = pk_motion_push_camera(o);
        if (!k)
            return -1;
        *k = m->cameras[x->rec];
        k->frame = x->frame;
        return 0;
    }
    case PK_SEC_LIGHT: {
        pk_light_key *k = pk_motion_push_light(o);
        if (!k)
            return -1;
        *k = m->lights[x->rec];
        k->frame = x->frame;
        return 0;
    }
    case PK_SEC_SHADOW: {
        pk_shadow_key *k = pk_motion_push_shadow(o);
        if (!k)
            return -1;
        *k = m->shadows[x->rec];
        k->frame = x->frame;
        return 0;
    }
    default: {
        const pk_ik_key *src = &m->iks[x->rec];
        pk_ik_key *k = pk_motion_push_ik(o, src->count);
        if (!k)
            return -1;
        k->frame = x->frame;
        k->show = src->show;
        for (uint32_t j = 0; j < src->count; j++) {
            pk_name_id id = map_name(g, x->input, src->ik[j].name);
            if (id == PK_NO_NAME)
                return -1;
            k->ik[j].name = id;
            k->ik[j].pad = map_pad(g, x->input, src->ik[j].pad);
            k->ik[j].enabled = src->ik[j].enabled;
        }
        return 0;
    }
    }
}

static int cmp_order(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    if (a->sec != b->sec)
        return a->sec < b->sec ? -1 : 1;
    return (a->rec > b->rec) - (a->rec < b->rec);
}

static bool has_records(const pk_motion *m)
{
    return m->nbones || m->nmorphs || m->ncameras || m->nlights || m->nshadows || m->niks;
}

static int start_output(merger *g)
{
    size_t h = 0;
    for (int pass = 0; pass < 2; pass++) { /* inputs laid `within` come last */
        size_t i = 0;
        while (i < g->n && !(has_records(g->src[i]) && (pass || !g->in[i].within)))
            i++;
        if (i < g->n) {
            h = i;
            break;
        }
    }
    const pk_motion *src = g->src[h];
    pk_motion *o = g->out;
    o->version = src->version;
    memcpy(o->header, src->header, sizeof o->header);
    memcpy(o->model, src->model, sizeof o->model);
    o->sections = src->sections;
    if (src->ntrailing) {
        o->trailing = malloc(src->ntrailing);
        if (!o->trailing)
            return -1;
        memcpy(o->trailing, src->trailing, src->ntrailing);
        o->ntrailing = src->ntrailing;
    }
    return 0;
}

/* A file that ended early cannot hold records of the sections it lacks. */
static void fix_sections(pk_motion *o)
{
    int need = o->niks       ? 6
               : o->nshadows ? 5
               : o->nlights  ? 4
               : o->ncameras ? 3
               : o->nmorphs  ? 2
               : o->nbones   ? 1
                             : 0;
    if (o->sections < need)
        o->sections = need;
}

static void merger_free(merger *g)
{
    for (size_t i = 0; i < g->n; i++) {
        if (g->own && g->own[i] && g->src && g->src[i])
            pk_motion_free((pk_motion *)g->src[i]);
        if (g->name_map)
            free(g->name_map[i]);
        if (g->pad_map)
            free(g->pad_map[i]);
    }
    free(g->src);
    free(g->own);
    free(g->first);
    free(g->last);
    free(g->name_map);
    free(g->pad_map);
    free(g->e);
}

static uint32_t *new_map(size_t n)
{
    uint32_t *m = malloc((n ? n : 1) * sizeof *m);
    if (m)
        for (size_t i = 0; i < n; i++)
            m[i] = PK_NO_NAME;
    return m;
}

/* A negative offset cuts input i at frame -offset (the pose there kept). */
static int cut_input(merger *g, size_t i)
{
    int64_t off = g->in[i].offset;
    if (off >= 0)
        return 0;
    uint32_t cut = -off > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)-off;
    uint32_t first = 0, last = 0;
    if (!pk_motion_frame_range(g->src[i], &first, &last) || first >= cut)
        return 0;
    size_t dropped, added;
    pk_motion *c = pki_motion_cut_before(g->src[i], cut, &dropped, &added, g->log);
    if (!c)
        return -1;
    if (g->own[i])
        pk_motion_free((pk_motion *)g->src[i]);
    g->src[i] = c;
    g->own[i] = true;
    g->below_zero += dropped;
    g->cut_keys += added;
    warn_input(g, i, PK_E_LOSS,
               "offset %lld cuts it at its frame %u: %zu key%s before the cut dropped, "
               "the pose at the cut kept as %zu key%s at frame 0",
               (long long)off, cut, dropped, dropped == 1 ? "" : "s", added, added == 1 ? "" : "s");
    return 0;
}

/* Frame range of a motion's bone and morph keys; false when it has none. */
static bool bone_morph_range(const pk_motion *m, uint32_t *a, uint32_t *b)
{
    bool any = false;
    for (size_t r = 0; r < m->nbones + m->nmorphs; r++) {
        uint32_t f = r < m->nbones ? m->bones[r].frame : m->morphs[r - m->nbones].frame;
        if (!any || f < *a)
            *a = f;
        if (!any || f > *b)
            *b = f;
        any = true;
    }
    return any;
}

/* Lays the bones and morphs of `within` input i over the merged output. */
static int lay_within(merger *g, size_t i, pk_merge_report *rep)
{
    unsigned bm = (1u << PK_SEC_BONE) | (1u << PK_SEC_MORPH);
    pk_merge_input one = {g->src[i], NULL, g->in[i].offset,
                          (g->in[i].sections ? g->in[i].sections : ~0u) & bm, false,
                          g->in[i].name};
    if (!one.sections)
        return 0;
    size_t others = 0;
    for (int s = PK_SEC_CAMERA; s < PK_SEC_COUNT; s++)
        if (takes(g, i, (pk_section)s))
            others += pk_motion_count(g->src[i], (pk_section)s);
    if (others)
        warn_input(g, i, PK_E_USAGE,
                   "only bones and morphs are laid within its frame range; its %zu "
                   "camera, light, shadow and IK record%s merge key by key",
                   others, others == 1 ? "" : "s");
    pk_motion *shifted = pk_merge(&one, 1, PK_MERGE_LAST, NULL, g->log);
    if (!shifted)
        return -1;
    uint32_t a = 0, b = 0;
    int rc = 0;
    if (bone_morph_range(shifted, &a, &b)) {
        pk_overlay_stats st;
        pk_motion *o = pki_splice_motion(g->out, shifted, a, b, &st, g->log);
        if (o) {
            pk_motion_free(g->out);
            g->out = o;
            rep->within_tracks += st.bones + st.morphs;
            rep->within_baked += st.baked;
        } else {
            rc = -1;
        }
    }
    pk_motion_free(shifted);
    return rc;
}

pk_motion *pk_merge(const pk_merge_input *in, size_t n, pk_merge_policy policy,
                    pk_merge_report *report, pk_log *log)
{
    pk_merge_report local;
    pk_merge_report *rep = report ? report : &local;
    memset(rep, 0, sizeof *rep);
    if (n == 0) {
        pk_error(log, PK_E_USAGE, "merge needs at least one input");
        return NULL;
    }
    merger g;
    memset(&g, 0, sizeof g);
    g.in = in;
    g.n = n;
    g.log = log;
    g.src = calloc(n, sizeof *g.src);
    g.name_map = calloc(n, sizeof *g.name_map);
    g.pad_map = calloc(n, sizeof *g.pad_map);
    g.own = calloc(n, sizeof *g.own);
    g.first = calloc(n, sizeof *g.first);
    g.last = calloc(n, sizeof *g.last);
    g.out = pk_motion_new();
    bool failed = !g.src || !g.name_map || !g.pad_map || !g.own || !g.first || !g.last || !g.out;
    for (size_t i = 0; i < n && !failed; i++) {
        if (!in[i].motion == !in[i].pose) {
            pk_error(log, PK_E_USAGE, "merge input %zu: exactly one of motion and pose must be set",
                     i + 1);
            failed = true;
            break;
        }
        if (in[i].motion) {
            g.src[i] = in[i].motion;
        } else { /* what the pose cannot be as a motion names its file */
            size_t from = log ? log->count : 0;
            g.src[i] = pk_pose_to_motion(in[i].pose, 0, log);
            pk_log_place(log, from, in[i].name);
        }
        g.own[i] = in[i].pose != NULL;
        if (!g.src[i] || cut_input(&g, i) != 0) {
            failed = true;
            break;
        }
        g.name_map[i] = new_map(pk_names_count(g.src[i]->names));
        g.pad_map[i] = new_map(pk_names_count(g.src[i]->pads));
        if (!g.name_map[i] || !g.pad_map[i])
            failed = true;
    }
    if (failed || start_output(&g) != 0 || collect(&g) != 0)
        goto fail;
    rep->below_zero = g.below_zero;
    rep->past_end = g.past_end;
    rep->cut_keys = g.cut_keys;
    if (g.ne) /* qsort's pointer must not be null, even for 0 entries */
        qsort(g.e, g.ne, sizeof *g.e, cmp_entry);
    for (size_t lo = 0; lo < g.ne;) {
        size_t hi = lo + 1;
        while (hi < g.ne && g.e[hi].sec == g.e[lo].sec && g.e[hi].name == g.e[lo].name &&
               g.e[hi].frame == g.e[lo].frame)
            hi++;
        if (resolve(&g, lo, hi, policy, rep) != 0)
            goto fail;
        lo = hi;
    }
    if (find_overlaps(&g, policy, rep) != 0)
        goto fail;
    if (policy == PK_MERGE_ERROR && (rep->count || rep->noverlaps)) {
        pk_error(log, PK_E_CONFLICT, "%zu conflict%s, %zu overlapping track%s (--prefer error)",
                 rep->count, rep->count == 1 ? "" : "s", rep->noverlaps,
                 rep->noverlaps == 1 ? "" : "s");
        goto fail_quiet;
    }
    if (g.ne)
        qsort(g.e, g.ne, sizeof *g.e, cmp_order);
    for (size_t k = 0; k < g.ne; k++)
        if (!g.e[k].drop && emit(&g, &g.e[k]) != 0)
            goto fail;
    for (size_t i = 0; i < n; i++)
        if (in[i].within && lay_within(&g, i, rep) != 0)
            goto fail;
    fix_sections(g.out);
    merger_free(&g);
    if (!report)
        pk_merge_report_free(&local);
    return g.out;
fail:
    if (log->errors == 0)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
fail_quiet:
    merger_free(&g);
    pk_motion_free(g.out);
    if (!report)
        pk_merge_report_free(&local);
    return NULL;
}

void pk_merge_report_free(pk_merge_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->count; i++)
        free(r->items[i].name);
    free(r->items);
    for (size_t i = 0; i < r->noverlaps; i++)
        free(r->overlaps[i].name);
    free(r->overlaps);
    memset(r, 0, sizeof *r);
}
