/*
 * check.c — does a motion or pose fit a model?  (posekit.h "check")
 *
 * Names are compared as the CP932 bytes the files hold.  Near misses are
 * found by comparing folded forms of the UTF-8 names, in steps so the
 * smallest difference wins: width (full-width ASCII to ASCII), then also
 * spaces, underscores and letter case, then common spellings of the same
 * bone, then the model's English names; for a morph, last, a model morph
 * whose name contains the missing one (発音「え」 for え).  The reason
 * given names every difference that is really there (each one is needed:
 * without it the folded names would differ).
 *
 * A key is at rest when it neither moves nor turns its bone (or, for a
 * morph, has weight 0): MMD shows nothing for a missing name whose keys
 * are all at rest, so only names with keys off rest ("moving") count as
 * a miss that matters.
 */
#include "common/sort.h"
#include "util/utf8.h"
#include "model/names.h"
#include "ops/skeleton/check.h"
#include "posekit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- folds */

enum {
    F_WIDTH = 1, /* full-width ASCII (U+FF01..FF5E) to ASCII */
    F_SEP = 2,   /* no spaces (ASCII, U+3000), tabs or underscores */
    F_CASE = 4,  /* ASCII lower case */
    F_SYN = 8,   /* the synonyms below to their short form */
};

/* Spellings of the same bone: the first (longer) form becomes the second
 * when folding, so a fold never grows the text. */
static const char *const SYNONYMS[][2] = {
    {"人差指", "人指"},
    {"ひじ", "肘"},
    {"ひざ", "膝"},
    {"つま先", "爪先"},
};
#define NSYN (sizeof SYNONYMS / sizeof *SYNONYMS)
static const char *const SYN_SHOWN[NSYN] = {"人指/人差指", "ひじ/肘", "ひざ/膝", "つま先/爪先"};

static bool is_sep(uint32_t c)
{
    return c == ' ' || c == 0x3000 || c == '\t' || c == '_';
}

static bool is_wide(uint32_t c)
{
    return c >= 0xFF01 && c <= 0xFF5E;
}

/* s folded by the F_* flags (malloc'd, caller frees; NULL on OOM). */
static char *fold(const char *s, unsigned flags)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c;
        i += pki_utf8_next(s + i, &c);
        if ((flags & F_WIDTH) && is_wide(c))
            c -= 0xFEE0;
        if ((flags & F_SEP) && is_sep(c))
            continue;
        if ((flags & F_CASE) && c >= 'A' && c <= 'Z')
            c += 32;
        o += pki_utf8_put(d + o, c);
    }
    d[o] = '\0';
    for (size_t k = 0; (flags & F_SYN) && k < NSYN; k++) {
        char *from = fold(SYNONYMS[k][0], flags & ~(unsigned)F_SYN);
        char *to = fold(SYNONYMS[k][1], flags & ~(unsigned)F_SYN);
        size_t fl = from ? strlen(from) : 0, tl = to ? strlen(to) : 0;
        char *hit;
        while (from && to && fl && tl <= fl && (hit = strstr(d, from)) != NULL) {
            memcpy(hit, to, tl);
            memmove(hit + tl, hit + fl, strlen(hit + fl) + 1);
        }
        free(from);
        free(to);
    }
    return d;
}

/* Whether a and b fold to the same text under flags (-1 on OOM). */
static int same_folded(const char *a, const char *b, unsigned flags)
{
    char *x = fold(a, flags), *y = fold(b, flags);
    int r = x && y ? strcmp(x, y) == 0 : -1;
    free(x);
    free(y);
    return r;
}

/* ------------------------------------------------------------- reasons */

/* Full-width characters of x that y does not hold as they are, each
 * once, appended to b; how many. */
static size_t wide_only(pk_buf *b, const char *x, const char *y)
{
    pk_buf seen; /* the characters appended so far, NUL-terminated */
    pk_buf_init(&seen);
    pk_buf_putc(&seen, 0);
    size_t n = 0;
    for (size_t i = 0; x[i] && !seen.oom;) {
        uint32_t c;
        size_t l = pki_utf8_next(x + i, &c);
        char one[5] = {0};
        memcpy(one, x + i, l);
        i += l;
        if (!is_wide(c) || strstr(y, one) || strstr((const char *)seen.data, one))
            continue;
        seen.len--;
        pk_buf_puts(&seen, one);
        pk_buf_putc(&seen, 0);
        pk_buf_puts(b, one);
        n++;
    }
    b->oom |= seen.oom;
    pk_buf_free(&seen);
    return n;
}

static size_t count_cp(const char *s, uint32_t want)
{
    size_t n = 0;
    for (size_t i = 0; s[i];) {
        uint32_t c;
        i += pki_utf8_next(s + i, &c);
        if (c == want || (want == '_' && c == 0xFF3F))
            n++;
    }
    return n;
}

/* The two names' owners as the reasons name them: the motion's and the
 * model's (check), or the one given and the file's (a selection). */
typedef struct owners {
    const char *a, *m;
} owners;
static const owners CHECK_OWNERS = {"the motion's", "the model's"};

/* The separators one name has more of than the other ("an extra _ in the
 * motion's name"), or that sit elsewhere. */
static void sep_pieces(pk_buf *b, const char *a, const char *m, const char *and_, const owners *w)
{
    static const struct {
        uint32_t c;
        const char *one, *many;
    } SEPS[4] = {{'_', "_", "_"},
                 {' ', "space", "spaces"},
                 {0x3000, "full-width space", "full-width spaces"},
                 {'\t', "tab", "tabs"}};
    bool any = false;
    for (int k = 0; k < 4; k++) {
        size_t x = count_cp(a, SEPS[k].c), y = count_cp(m, SEPS[k].c);
        if (x == y)
            continue;
        size_t d = x > y ? x - y : y - x;
        if (any)
            pk_buf_puts(b, and_);
        any = true;
        if (d == 1)
            pk_buf_printf(b, "an extra %s", SEPS[k].one);
        else
            pk_buf_printf(b, "%zu extra %s", d, SEPS[k].many);
        pk_buf_printf(b, " in %s name", x > y ? w->a : w->m);
    }
    if (!any)
        pk_buf_puts(b, "spaces or _ in other places");
}

/* Why motion name a is taken for model name m (which it is not): every
 * difference that is needed for them to match, joined by "and". */
static char *describe(const char *a, const char *m, const owners *w)
{
    const unsigned ALL = F_WIDTH | F_SEP | F_CASE | F_SYN;
    int need[4];
    static const unsigned EACH[4] = {F_SYN, F_WIDTH, F_SEP, F_CASE};
    for (int k = 0; k < 4; k++)
        if ((need[k] = same_folded(a, m, ALL & ~EACH[k])) < 0)
            return NULL;
    pk_buf b;
    pk_buf_init(&b);
    pk_buf_puts(&b, "the same name but for ");
    bool any = false;
    const char *and_ = " and ";
    if (!need[0]) {
        for (size_t k = 0; k < NSYN; k++)
            if ((strstr(a, SYNONYMS[k][1]) && strstr(m, SYNONYMS[k][0])) ||
                (strstr(a, SYNONYMS[k][0]) && strstr(m, SYNONYMS[k][1]))) {
                pk_buf_printf(&b, "%sanother spelling of the same bone (%s)", any ? and_ : "",
                              SYN_SHOWN[k]);
                any = true;
            }
    }
    if (!need[1]) {
        for (int side = 0; side < 2; side++) {
            size_t mark = b.len;
            pk_buf_printf(&b, "%sfull-width ", any ? and_ : "");
            if (wide_only(&b, side ? a : m, side ? m : a)) {
                pk_buf_printf(&b, " in %s name", side ? w->a : w->m);
                any = true;
            } else {
                b.len = mark;
            }
        }
        if (!any) { /* the same full-width characters, elsewhere */
            pk_buf_puts(&b, "full-width/half-width forms");
            any = true;
        }
    }
    if (!need[2]) {
        if (any)
            pk_buf_puts(&b, and_);
        sep_pieces(&b, a, m, and_, w);
        any = true;
    }
    if (!need[3]) {
        pk_buf_printf(&b, "%sletter case", any ? and_ : "");
        any = true;
    }
    if (!any)
        pk_buf_puts(&b, "its form");
    pk_buf_putc(&b, 0);
    if (b.oom) {
        pk_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ----------------------------------------------------------- near miss */

/* The first of the n names whose fold under flags equals name's; -1 when
 * none does, -2 on OOM.  Empty names are passed over when skip_empty. */
static long find_folded(const char *name, const char *const *list, size_t n, unsigned flags,
                        bool skip_empty)
{
    char *a = fold(name, flags);
    if (!a)
        return -2;
    long found = -1;
    for (size_t i = 0; i < n && found == -1; i++) {
        if (skip_empty && !list[i][0])
            continue;
        char *b = fold(list[i], flags);
        if (!b)
            found = -2;
        else if (strcmp(a, b) == 0)
            found = (long)i;
        free(b);
    }
    free(a);
    return found;
}

/* The shortest of the n names whose fold (width, separators, case)
 * contains name's, *count how many do; -1 when none, -2 on OOM. */
static long find_containing(const char *name, const char *const *list, size_t n, size_t *count)
{
    const unsigned fl = F_WIDTH | F_SEP | F_CASE;
    char *a = fold(name, fl);
    if (!a)
        return -2;
    long found = -1;
    size_t best = 0;
    *count = 0;
    for (size_t i = 0; a[0] && i < n && found != -2; i++) {
        char *b = fold(list[i], fl);
        if (!b) {
            found = -2;
        } else if (strstr(b, a)) {
            (*count)++;
            if (found < 0 || strlen(b) < best) {
                found = (long)i;
                best = strlen(b);
            }
        }
        free(b);
    }
    free(a);
    return found;
}

/* The best near miss of a missing name among n model names, and why (a
 * malloc'd text); -1 when none, -2 on OOM. */
static long near_miss(const char *name, const char *const *jp, const char *const *en, size_t n,
                      bool morph, const owners *w, char **why)
{
    static const unsigned LEVELS[3] = {F_WIDTH, F_WIDTH | F_SEP | F_CASE,
                                       F_WIDTH | F_SEP | F_CASE | F_SYN};
    for (int level = 0; level < 3; level++) {
        long i = find_folded(name, jp, n, LEVELS[level], false);
        if (i == -2)
            return -2;
        if (i >= 0) {
            *why = describe(name, jp[i], w);
            return *why ? i : -2;
        }
    }
    long i = en ? find_folded(name, en, n, F_WIDTH | F_SEP | F_CASE, true) : -1;
    if (i == -2)
        return -2;
    if (i >= 0) {
        *why = dup_text(morph ? "the model's English name for this morph"
                              : "the model's English name for this bone");
        return *why ? i : -2;
    }
    if (!morph)
        return -1;
    size_t count;
    i = find_containing(name, jp, n, &count);
    if (i < 0)
        return i;
    pk_buf b;
    pk_buf_init(&b);
    pk_buf_printf(&b, "the model's morph whose name contains %s", name);
    if (count > 1)
        pk_buf_printf(&b, " (the shortest of %zu that do)", count);
    pk_buf_putc(&b, 0);
    if (b.oom) {
        pk_buf_free(&b);
        return -2;
    }
    *why = (char *)b.data;
    return i;
}

/* --------------------------------------------------------------- folds */

/* Bones of the standard skeleton that sit between two bones a model
 * without them has: `retarget --from A --to B` folds their turn into the
 * bones below (engine/ops/retarget/retarget_fold.c). */
static const struct {
    const char *bone;
    const char *into[3];
} FOLDS[] = {
    {"上半身2", {"首", "左肩", "右肩"}},      {"腰", {"上半身", "下半身", NULL}},
    {"グルーブ", {"上半身", "下半身", NULL}}, {"左肩P", {"左肩", NULL, NULL}},
    {"右肩P", {"右肩", NULL, NULL}},          {"左親指０", {"左親指１", NULL, NULL}},
    {"右親指０", {"右親指１", NULL, NULL}},   {"左腕捩", {"左ひじ", NULL, NULL}},
    {"右腕捩", {"右ひじ", NULL, NULL}},       {"左手捩", {"左手首", NULL, NULL}},
    {"右手捩", {"右手首", NULL, NULL}},
};

static long bone_by_utf8(const pk_model *m, const char *name)
{
    for (size_t i = 0; i < m->nbones; i++)
        if (strcmp(m->bones[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* The model bones a missing bone's turn folds into (malloc'd, *n of them;
 * NULL with *n 0 when it is not such a bone).  false on OOM. */
static bool fold_into(const pk_model *m, const char *name, long **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    for (size_t k = 0; k < sizeof FOLDS / sizeof *FOLDS; k++) {
        if (strcmp(name, FOLDS[k].bone) != 0)
            continue;
        long found[3];
        size_t c = 0;
        for (int j = 0; j < 3 && FOLDS[k].into[j]; j++)
            if ((found[c] = bone_by_utf8(m, FOLDS[k].into[j])) >= 0)
                c++;
        if (!c)
            return true;
        *out = malloc(c * sizeof **out);
        if (!*out)
            return false;
        memcpy(*out, found, c * sizeof **out);
        *n = c;
        return true;
    }
    return true;
}

/* -------------------------------------------------------------- lookup */

/* The model's bone or morph with exactly these bytes, or whose name MMD
 * cut to them (cut = field width). */
static long lookup(const pk_model *model, bool morph, const uint8_t *raw, size_t len, size_t cut,
                   pk_check_status *st)
{
    long i = morph ? pk_model_find_morph(model, raw, len) : pk_model_find_bone(model, raw, len);
    if (i >= 0) {
        *st = PK_CHECK_FOUND;
        return i;
    }
    size_t n = morph ? model->nmorphs : model->nbones;
    for (size_t k = 0; k < n; k++) {
        pk_name_id id = morph ? model->morphs[k].cp932 : model->bones[k].cp932;
        if (id == PK_NO_NAME)
            continue;
        size_t ml;
        const uint8_t *mr = pk_names_raw(model->names, id, &ml);
        if (ml > cut && pki_name_stored_as(mr, ml, raw, len, cut)) {
            *st = PK_CHECK_CUT;
            return (long)k;
        }
    }
    *st = PK_CHECK_MISSING;
    return -1;
}

/* Every model bone or morph whose name MMD cuts to raw (in model order;
 * malloc'd, *n of them).  Several long names can share their first 15
 * bytes (Gene's 前クローク2_1xca, 前クローク2_1xc+ and 前クローク2_1xcIK):
 * the file cannot say which one was meant, and posekit's evaluation,
 * which looks each model bone up by its cut name, gives the keys to all
 * of them. */
static long *cut_matches(const pk_model *model, bool morph, const uint8_t *raw, size_t len,
                         size_t cut, size_t *n)
{
    size_t count = morph ? model->nmorphs : model->nbones;
    long *all = malloc((count ? count : 1) * sizeof *all);
    *n = 0;
    for (size_t k = 0; all && k < count; k++) {
        pk_name_id id = morph ? model->morphs[k].cp932 : model->bones[k].cp932;
        if (id == PK_NO_NAME)
            continue;
        size_t ml;
        const uint8_t *mr = pk_names_raw(model->names, id, &ml);
        if (ml > cut && pki_name_stored_as(mr, ml, raw, len, cut))
            all[(*n)++] = (long)k;
    }
    return all;
}

/* -------------------------------------------------------------- report */

#define REST_EPS 1e-5f

/* A bone key at rest: no translation, no turn (the quaternion's vector
 * part zero); a NaN is not at rest. */
static bool bone_at_rest(const float *pos, const float *rot)
{
    for (int k = 0; k < 3; k++)
        if (!(fabsf(pos[k]) <= REST_EPS) || !(fabsf(rot[k]) <= REST_EPS))
            return false;
    return true;
}

typedef struct builder {
    pk_check_report *r;
    const pk_model *model;
    const pk_names *names;
    size_t *slot; /* per name id: item index + 1 (bones), and a second table for morphs */
    size_t *mslot;
    size_t cut;
    bool near; /* look for near misses */
    bool oom;
} builder;

static pk_check_item *item(builder *b, pk_name_id id, bool morph)
{
    size_t *slot = morph ? b->mslot : b->slot;
    if (slot[id])
        return &b->r->items[slot[id] - 1];
    pk_check_item *it = &b->r->items[b->r->nitems];
    slot[id] = ++b->r->nitems;
    size_t len;
    const uint8_t *raw = pk_names_raw(b->names, id, &len);
    it->name = dup_text(pk_names_utf8(b->names, id));
    it->raw = malloc(len ? len : 1);
    if (it->raw)
        memcpy(it->raw, raw, len);
    it->raw_len = len;
    it->morph = morph;
    it->index = lookup(b->model, morph, raw, len, b->cut, &it->status);
    if (it->status == PK_CHECK_CUT) {
        it->matches = cut_matches(b->model, morph, raw, len, b->cut, &it->nmatches);
        b->oom |= it->matches == NULL;
    }
    b->oom |= !it->name || !it->raw;
    return it;
}

static void key(builder *b, pk_name_id id, bool morph, const float *pos, const float *rot,
                float weight)
{
    pk_check_item *it = item(b, id, morph);
    it->keys++;
    if (morph) {
        it->moving += !(fabsf(weight) <= REST_EPS);
        return;
    }
    it->moving += !bone_at_rest(pos, rot);
    if (it->status == PK_CHECK_MISSING)
        return;
    /* a cut name keys every bone it matches: each is keyed, and a key is
     * unusable when one of them cannot use it */
    size_t n = it->matches ? it->nmatches : 1;
    bool move = pos[0] != 0 || pos[1] != 0 || pos[2] != 0;
    bool turn = rot[0] != 0 || rot[1] != 0 || rot[2] != 0;
    bool cannot_move = false, cannot_turn = false;
    for (size_t k = 0; k < n; k++) {
        long i = it->matches ? it->matches[k] : it->index;
        const pk_model_bone *mb = &b->model->bones[i];
        b->r->keyed[i] = true;
        cannot_move = cannot_move || !(mb->flags & PK_BONE_MOVE);
        cannot_turn = cannot_turn || !(mb->flags & PK_BONE_ROTATE);
    }
    if (move && cannot_move)
        it->move_unusable++;
    if (turn && cannot_turn)
        it->rotate_unusable++;
}

/* Near misses and folds of the missing names; physics of the found ones. */
static void finish_item(builder *b, pk_check_item *it, const char **jp, const char **en,
                        const char **mjp, const char **men)
{
    const pk_model *m = b->model;
    if (it->status != PK_CHECK_MISSING) {
        size_t n = it->matches ? it->nmatches : 1;
        for (size_t k = 0; !it->morph && k < n; k++)
            it->physics |= b->r->driven[it->matches ? it->matches[k] : it->index];
        return;
    }
    if (b->near) {
        it->index = it->morph
                        ? near_miss(it->name, mjp, men, m->nmorphs, true, &CHECK_OWNERS, &it->why)
                        : near_miss(it->name, jp, en, m->nbones, false, &CHECK_OWNERS, &it->why);
        if (it->index == -2) {
            it->index = -1;
            b->oom = true;
        }
    }
    if (!it->morph && it->moving && !fold_into(m, it->name, &it->fold_into, &it->nfold_into))
        b->oom = true;
}

/* Whether item i goes before item j in reports: keys off rest, then
 * keys, most first; then first appearance. */
static bool before(const pk_check_item *items, size_t i, size_t j)
{
    const pk_check_item *a = &items[i], *b = &items[j];
    if (a->moving != b->moving)
        return a->moving > b->moving;
    if (a->keys != b->keys)
        return a->keys > b->keys;
    return i < j;
}

static int cmp_items(const void *items, size_t i, size_t j)
{
    return before(items, i, j) ? -1 : before(items, j, i) ? 1 : 0;
}

/* order = 0..n-1 sorted by `before`; false on OOM. */
static bool sort_order(const pk_check_item *items, size_t *order, size_t n)
{
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return false;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    pki_sort_indices(order, tmp, n, cmp_items, items);
    free(tmp);
    return true;
}

typedef struct source {
    const pk_names *names;
    size_t nrec;
    const void *bones;
    size_t nbones, bstride, bpos, brot;
    const void *morphs;
    size_t nmorphs, mstride, mweight;
    size_t cut;
    bool pose;
} source;

static bool tables(const pk_model *model, const char ***jp, const char ***en, const char ***mjp,
                   const char ***men)
{
    *jp = malloc((model->nbones + 1) * sizeof **jp);
    *en = malloc((model->nbones + 1) * sizeof **en);
    *mjp = malloc((model->nmorphs + 1) * sizeof **mjp);
    *men = malloc((model->nmorphs + 1) * sizeof **men);
    if (!*jp || !*en || !*mjp || !*men)
        return false;
    for (size_t i = 0; i < model->nbones; i++) {
        (*jp)[i] = model->bones[i].name;
        (*en)[i] = model->bones[i].name_en;
    }
    for (size_t i = 0; i < model->nmorphs; i++) {
        (*mjp)[i] = model->morphs[i].name;
        (*men)[i] = model->morphs[i].name_en;
    }
    return true;
}

static pk_check_report *run(const pk_model *model, const source *src, bool near, pk_log *log)
{
    builder b = {0};
    size_t nn = pk_names_count(src->names);
    const char **jp = NULL, **en = NULL, **mjp = NULL, **men = NULL;
    b.r = calloc(1, sizeof *b.r);
    b.slot = calloc(nn + 1, sizeof *b.slot);
    b.mslot = calloc(nn + 1, sizeof *b.mslot);
    if (b.r) {
        b.r->items = calloc(src->nrec ? src->nrec : 1, sizeof *b.r->items);
        b.r->keyed = calloc(model->nbones ? model->nbones : 1, sizeof *b.r->keyed);
        b.r->driven = calloc(model->nbones ? model->nbones : 1, sizeof *b.r->driven);
        b.r->pose = src->pose;
    }
    bool ok = b.r && b.slot && b.mslot && b.r->items && b.r->keyed && b.r->driven &&
              tables(model, &jp, &en, &mjp, &men);
    if (ok) {
        b.model = model;
        b.names = src->names;
        b.cut = src->cut;
        b.near = near;
        pk_model_physics_bones(model, b.r->driven);
        for (size_t i = 0; i < src->nbones; i++) {
            const uint8_t *rec = (const uint8_t *)src->bones + i * src->bstride;
            pk_name_id id;
            memcpy(&id, rec, sizeof id);
            float pos[3], rot[4];
            memcpy(pos, rec + src->bpos, sizeof pos);
            memcpy(rot, rec + src->brot, sizeof rot);
            key(&b, id, false, pos, rot, 0);
        }
        for (size_t i = 0; i < src->nmorphs; i++) {
            const uint8_t *rec = (const uint8_t *)src->morphs + i * src->mstride;
            pk_name_id id;
            float w;
            memcpy(&id, rec, sizeof id);
            memcpy(&w, rec + src->mweight, sizeof w);
            key(&b, id, true, NULL, NULL, w);
        }
        /* bones first, then morphs, each in order of first appearance */
        pk_check_item *sorted = malloc((b.r->nitems ? b.r->nitems : 1) * sizeof *sorted);
        b.r->order = malloc((b.r->nitems ? b.r->nitems : 1) * sizeof *b.r->order);
        ok = sorted && b.r->order && !b.oom;
        if (sorted) {
            size_t o = 0;
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < b.r->nitems; i++)
                    if (b.r->items[i].morph == (pass == 1))
                        sorted[o++] = b.r->items[i];
            free(b.r->items);
            b.r->items = sorted;
        }
    }
    for (size_t i = 0; ok && i < b.r->nitems; i++) {
        pk_check_item *it = &b.r->items[i];
        finish_item(&b, it, jp, en, mjp, men);
        if (b.oom)
            ok = false;
        else if (it->status == PK_CHECK_FOUND)
            b.r->found++;
        else if (it->status == PK_CHECK_CUT)
            b.r->cut++;
        else {
            b.r->missing++;
            b.r->near += it->index >= 0;
            b.r->missing_moving += it->moving > 0;
        }
        if (ok && (it->move_unusable || it->rotate_unusable))
            b.r->unusable++;
        if (ok && it->physics)
            b.r->physics++;
    }
    if (ok && !sort_order(b.r->items, b.r->order, b.r->nitems))
        ok = false;
    free(b.slot);
    free(b.mslot);
    free(jp);
    free(en);
    free(mjp);
    free(men);
    if (!ok) {
        pk_check_free(b.r);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    return b.r;
}

static source motion_source(const pk_motion *m)
{
    source s = {m->names,
                m->nbones + m->nmorphs,
                m->bones,
                m->nbones,
                sizeof *m->bones,
                offsetof(pk_bone_key, pos),
                offsetof(pk_bone_key, rot),
                m->morphs,
                m->nmorphs,
                sizeof *m->morphs,
                offsetof(pk_morph_key, weight),
                PK_VMD_NAME_BYTES,
                false};
    return s;
}

static source pose_source(const pk_pose *p)
{
    source s = {p->names,
                p->nbones + p->nmorphs,
                p->bones,
                p->nbones,
                sizeof *p->bones,
                offsetof(pk_pose_bone, pos),
                offsetof(pk_pose_bone, rot),
                p->morphs,
                p->nmorphs,
                sizeof *p->morphs,
                offsetof(pk_pose_morph, weight),
                PK_VPD_NAME_BYTES,
                true};
    return s;
}

pk_check_report *pk_check_motion(const pk_model *model, const pk_motion *m, pk_log *log)
{
    source s = motion_source(m);
    return run(model, &s, true, log);
}

pk_check_report *pk_check_pose(const pk_model *model, const pk_pose *p, pk_log *log)
{
    source s = pose_source(p);
    return run(model, &s, true, log);
}

void pk_check_free(pk_check_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nitems; i++) {
        free(r->items[i].name);
        free(r->items[i].raw);
        free(r->items[i].matches);
        free(r->items[i].why);
        free(r->items[i].fold_into);
    }
    free(r->items);
    free(r->keyed);
    free(r->driven);
    free(r->order);
    free(r);
}

/* --------------------------------------------------------- model fit */

/* The moving names r's model lacks (bones or morphs) and their keys off
 * rest. */
static void lacks(const pk_check_report *r, bool morphs, size_t *names, size_t *keys)
{
    *names = *keys = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        const pk_check_item *it = &r->items[i];
        if (it->morph == morphs && it->status == PK_CHECK_MISSING && it->moving) {
            (*names)++;
            *keys += it->moving;
        }
    }
}

/* -1 when x < y, 1 when x > y, else 0. */
static int order(size_t x, size_t y)
{
    return x < y ? -1 : x > y;
}

int pk_check_compare(const pk_model *from, const pk_model *to, const pk_motion *m, const pk_pose *p,
                     pk_check_fit *out, pk_log *log)
{
    memset(out, 0, sizeof *out);
    source s = m ? motion_source(m) : pose_source(p);
    pk_check_report *a = run(from, &s, false, log);
    pk_check_report *b = a ? run(to, &s, false, log) : NULL;
    if (!b) {
        pk_check_free(a);
        return -1;
    }
    lacks(a, false, &out->from_bones, &out->from_bone_keys);
    lacks(a, true, &out->from_morphs, &out->from_morph_keys);
    lacks(b, false, &out->to_bones, &out->to_bone_keys);
    lacks(b, true, &out->to_morphs, &out->to_morph_keys);
    /* a model without morphs (a bare skeleton) says nothing about them */
    bool morphs = from->nmorphs && to->nmorphs;
    int d = order(out->from_bone_keys, out->to_bone_keys);
    if (!d)
        d = order(out->from_bones, out->to_bones);
    if (!d && morphs)
        d = order(out->from_morph_keys, out->to_morph_keys);
    if (!d && morphs)
        d = order(out->from_morphs, out->to_morphs);
    out->better = d;
    pk_check_free(a);
    pk_check_free(b);
    return 0;
}

long pki_check_near_miss(const char *name, const char *const *names, size_t n, char **why)
{
    static const owners GIVEN = {"the given", "the file's"};
    *why = NULL;
    long i = near_miss(name, names, NULL, n, false, &GIVEN, why);
    return i < 0 ? -1 : i;
}
