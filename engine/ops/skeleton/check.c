/*
 * check.c — does a motion or pose fit a model?  (posekit.h "check")
 *
 * Names are compared as the CP932 bytes the files hold.  Near misses are
 * found by comparing folded forms of the UTF-8 names, in three steps so
 * the reason given is the smallest difference: width (full-width ASCII to
 * ASCII), then spaces and letter case, then common spellings of the same
 * bone.
 */
#include "util/utf8.h"
#include "model/names.h"
#include "ops/skeleton/check.h"
#include "posekit.h"

#include <stdlib.h>
#include <string.h>

/* Spellings of the same bone: the first (longer) form becomes the second
 * when folding, so a fold never grows the text. */
static const char *const SYNONYMS[][2] = {
    {"人差指", "人指"},
    {"ひじ", "肘"},
    {"ひざ", "膝"},
    {"つま先", "爪先"},
};

/* Folds s (malloc'd result, caller frees) at level 1: full-width ASCII
 * (U+FF01..FF5E) to ASCII; 2: also no spaces (ASCII, U+3000) and ASCII
 * lower case; 3: also the synonyms above. */
static char *fold(const char *s, int level)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c;
        i += pki_utf8_next(s + i, &c);
        if (c >= 0xFF01 && c <= 0xFF5E)
            c -= 0xFEE0;
        if (level >= 2) {
            if (c == ' ' || c == 0x3000 || c == '\t' || c == '_')
                continue;
            if (c >= 'A' && c <= 'Z')
                c += 32;
        }
        o += pki_utf8_put(d + o, c);
    }
    d[o] = '\0';
    if (level >= 3) {
        for (size_t k = 0; k < sizeof SYNONYMS / sizeof *SYNONYMS; k++) {
            char *from = fold(SYNONYMS[k][0], 2), *to = fold(SYNONYMS[k][1], 2);
            if (!from || !to) {
                free(from);
                free(to);
                continue;
            }
            size_t fl = strlen(from), tl = strlen(to);
            char *hit;
            while (fl && tl <= fl && (hit = strstr(d, from)) != NULL) {
                memcpy(hit, to, tl);
                memmove(hit + tl, hit + fl, strlen(hit + fl) + 1);
            }
            free(from);
            free(to);
        }
    }
    return d;
}

static const char *const WHY[3] = {
    "",
    "the same name in full-width/half-width forms (ＩＫ/IK, ０/0)",
    "the same name but for spaces or letter case",
};
static const char *const WHY_SYN[] = {"another spelling of the same bone (人指/人差指)",
                                      "another spelling of the same bone (ひじ/肘)",
                                      "another spelling of the same bone (ひざ/膝)",
                                      "another spelling of the same bone (つま先/爪先)"};

/* The synonym pair that a or b holds (the reason of a level-3 match). */
static const char *synonym_why(const char *a, const char *b)
{
    for (size_t k = 0; k < sizeof SYNONYMS / sizeof *SYNONYMS; k++)
        if ((strstr(a, SYNONYMS[k][1]) && strstr(b, SYNONYMS[k][0])) ||
            (strstr(a, SYNONYMS[k][0]) && strstr(b, SYNONYMS[k][1])))
            return WHY_SYN[k];
    return "another spelling of the same bone";
}
static const char WHY_EN[] = "the model's English name for this bone";

/* The first of the n names whose fold at `level` equals name's; -1 when
 * none does, -2 on OOM.  Empty names are passed over when skip_empty. */
static long find_folded(const char *name, const char *const *list, size_t n, int level,
                        bool skip_empty)
{
    char *a = fold(name, level);
    if (!a)
        return -2;
    long found = -1;
    for (size_t i = 0; i < n && found == -1; i++) {
        if (skip_empty && !list[i][0])
            continue;
        char *b = fold(list[i], level);
        if (b && strcmp(a, b) == 0)
            found = (long)i;
        free(b);
    }
    free(a);
    return found;
}

/* The best near miss of a missing name among n model names. */
static long near_miss(const char *name, const char *const *jp, const char *const *en, size_t n,
                      const char **why)
{
    for (int level = 1; level <= 3; level++) {
        long i = find_folded(name, jp, n, level, false);
        if (i == -2)
            return -1;
        if (i >= 0) {
            *why = level < 3 ? WHY[level] : synonym_why(name, jp[i]);
            return i;
        }
    }
    long i = en ? find_folded(name, en, n, 2, true) : -1;
    if (i >= 0)
        *why = WHY_EN;
    return i >= 0 ? i : -1;
}

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

typedef struct builder {
    pk_check_report *r;
    const pk_model *model;
    const pk_names *names;
    size_t *slot; /* per name id: item index + 1 (bones), and a second table for morphs */
    size_t *mslot;
    size_t cut;
    const char **jp, **en, **mjp, **men;
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
    it->name = strdup(pk_names_utf8(b->names, id));
    it->raw = malloc(len ? len : 1);
    if (it->raw)
        memcpy(it->raw, raw, len);
    it->raw_len = len;
    it->morph = morph;
    it->index = lookup(b->model, morph, raw, len, b->cut, &it->status);
    if (it->status == PK_CHECK_CUT)
        it->matches = cut_matches(b->model, morph, raw, len, b->cut, &it->nmatches);
    if (it->status == PK_CHECK_MISSING && it->name)
        it->index = morph ? near_miss(it->name, b->mjp, b->men, b->model->nmorphs, &it->why)
                          : near_miss(it->name, b->jp, b->en, b->model->nbones, &it->why);
    return it;
}

static void key(builder *b, pk_name_id id, bool morph, const float *pos, const float *rot)
{
    pk_check_item *it = item(b, id, morph);
    it->keys++;
    if (morph || it->status == PK_CHECK_MISSING)
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

static pk_check_report *run(const pk_model *model, const pk_names *names, size_t nrec,
                            const void *bones, size_t nbones, size_t bstride, size_t boff,
                            const void *morphs, size_t nmorphs, size_t mstride, size_t moff,
                            size_t cut, pk_log *log)
{
    builder b = {0};
    size_t nn = pk_names_count(names);
    b.r = calloc(1, sizeof *b.r);
    b.slot = calloc(nn + 1, sizeof *b.slot);
    b.mslot = calloc(nn + 1, sizeof *b.mslot);
    b.jp = malloc((model->nbones + 1) * sizeof *b.jp);
    b.en = malloc((model->nbones + 1) * sizeof *b.en);
    b.mjp = malloc((model->nmorphs + 1) * sizeof *b.mjp);
    b.men = malloc((model->nmorphs + 1) * sizeof *b.men);
    if (b.r) {
        b.r->items = calloc(nrec ? nrec : 1, sizeof *b.r->items);
        b.r->keyed = calloc(model->nbones ? model->nbones : 1, sizeof *b.r->keyed);
    }
    bool ok =
        b.r && b.slot && b.mslot && b.jp && b.en && b.mjp && b.men && b.r->items && b.r->keyed;
    if (ok) {
        b.model = model;
        b.names = names;
        b.cut = cut;
        for (size_t i = 0; i < model->nbones; i++) {
            b.jp[i] = model->bones[i].name;
            b.en[i] = model->bones[i].name_en;
        }
        for (size_t i = 0; i < model->nmorphs; i++) {
            b.mjp[i] = model->morphs[i].name;
            b.men[i] = model->morphs[i].name_en;
        }
        for (size_t i = 0; i < nbones; i++) {
            const uint8_t *rec = (const uint8_t *)bones + i * bstride;
            pk_name_id id;
            memcpy(&id, rec, sizeof id);
            const float *v = (const float *)(const void *)(rec + boff);
            key(&b, id, false, v, v + 3);
        }
        for (size_t i = 0; i < nmorphs; i++) {
            const uint8_t *rec = (const uint8_t *)morphs + i * mstride;
            pk_name_id id;
            memcpy(&id, rec, sizeof id);
            (void)moff;
            key(&b, id, true, NULL, NULL);
        }
        /* bones first, then morphs, each in order of first appearance */
        pk_check_item *sorted = malloc((b.r->nitems ? b.r->nitems : 1) * sizeof *sorted);
        ok = sorted != NULL;
        if (ok) {
            size_t o = 0;
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < b.r->nitems; i++)
                    if (b.r->items[i].morph == (pass == 1))
                        sorted[o++] = b.r->items[i];
            free(b.r->items);
            b.r->items = sorted;
        }
        for (size_t i = 0; ok && i < b.r->nitems; i++) {
            pk_check_item *it = &b.r->items[i];
            if (!it->name || !it->raw || (it->status == PK_CHECK_CUT && !it->matches))
                ok = false;
            else if (it->status == PK_CHECK_FOUND)
                b.r->found++;
            else if (it->status == PK_CHECK_CUT)
                b.r->cut++;
            else {
                b.r->missing++;
                b.r->near += it->index >= 0;
            }
            if (ok && (it->move_unusable || it->rotate_unusable))
                b.r->unusable++;
        }
    }
    free(b.slot);
    free(b.mslot);
    free(b.jp);
    free(b.en);
    free(b.mjp);
    free(b.men);
    if (!ok) {
        pk_check_free(b.r);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    return b.r;
}

pk_check_report *pk_check_motion(const pk_model *model, const pk_motion *m, pk_log *log)
{
    return run(model, m->names, m->nbones + m->nmorphs, m->bones, m->nbones, sizeof *m->bones,
               offsetof(pk_bone_key, pos), m->morphs, m->nmorphs, sizeof *m->morphs, 0,
               PK_VMD_NAME_BYTES, log);
}

pk_check_report *pk_check_pose(const pk_model *model, const pk_pose *p, pk_log *log)
{
    return run(model, p->names, p->nbones + p->nmorphs, p->bones, p->nbones, sizeof *p->bones,
               offsetof(pk_pose_bone, pos), p->morphs, p->nmorphs, sizeof *p->morphs, 0,
               PK_VPD_NAME_BYTES, log);
}

void pk_check_free(pk_check_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nitems; i++) {
        free(r->items[i].name);
        free(r->items[i].raw);
        free(r->items[i].matches);
    }
    free(r->items);
    free(r->keyed);
    free(r);
}

long pki_check_near_miss(const char *name, const char *const *names, size_t n, const char **why)
{
    return near_miss(name, names, NULL, n, why);
}
