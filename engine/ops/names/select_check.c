/* select_check.c — a --bones selection against the files it is applied
 * to (select_check.h): one rule for diff, overlay, reduce and bake.
 *
 * A selection that matches nothing would make a command do nothing and
 * say it succeeded, so it is an error; a plain name that matches nothing
 * beside others that do is most often a typo (右人指1 with an ASCII digit
 * for 右人指１), so it is a warning.  Both name the nearest name the files
 * hold, found by check.c's near-miss matching.  Globs and @groups are not
 * named one by one: a group lists the bones of many skeletons, most
 * models lack some of them.
 */
#include "common/diag.h"
#include "common/grow.h"
#include "ops/names/select_check.h"
#include "model/names.h"
#include "ops/skeleton/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names the documents hold, each once per document: raw bytes for
 * matching, UTF-8 (a parallel array) for the near misses. */
typedef struct entry {
    const uint8_t *raw;
    size_t len;
} entry;

typedef struct names {
    entry *v;
    size_t n, cap;
    const char **utf8;
    size_t nu, capu;
} names;

static bool add(names *l, const pk_names *t, pk_name_id id, bool *seen)
{
    if (seen[id])
        return true;
    seen[id] = true;
    entry e;
    e.raw = pk_names_raw(t, id, &e.len);
    const char *u = pk_names_utf8(t, id);
    return pki_grow_append(&l->v, &l->n, &l->cap, sizeof *l->v, &e, 1) == 0 &&
           pki_grow_append(&l->utf8, &l->nu, &l->capu, sizeof *l->utf8, &u, 1) == 0;
}

/* The bone (and morph) names of one document. */
static bool add_doc(names *l, const pk_doc *d, bool morphs)
{
    const pk_names *t = d->motion ? d->motion->names : d->pose->names;
    size_t nn = pk_names_count(t);
    bool *seen = calloc(nn ? nn : 1, sizeof *seen);
    bool ok = seen != NULL;
    if (d->motion) {
        for (size_t i = 0; ok && i < d->motion->nbones; i++)
            ok = add(l, t, d->motion->bones[i].name, seen);
        for (size_t i = 0; ok && morphs && i < d->motion->nmorphs; i++)
            ok = add(l, t, d->motion->morphs[i].name, seen);
    } else {
        for (size_t i = 0; ok && i < d->pose->nbones; i++)
            ok = add(l, t, d->pose->bones[i].name, seen);
        for (size_t i = 0; ok && morphs && i < d->pose->nmorphs; i++)
            ok = add(l, t, d->pose->morphs[i].name, seen);
    }
    free(seen);
    return ok;
}

static bool any_match(const names *l, const pk_selection *sel)
{
    for (size_t i = 0; i < l->n; i++)
        if (pk_selection_has(sel, l->v[i].raw, l->v[i].len))
            return true;
    return false;
}

/* Appends "did you mean 'X' (why)?" for `item` to buf when a name of l is
 * near it; `lead` goes before it. */
static void suggest(const names *l, const char *item, const char *lead, char *buf, size_t size)
{
    char *why = NULL;
    long i = pki_check_near_miss(item, l->utf8, l->n, &why);
    size_t o = strlen(buf);
    if (i >= 0 && o < size)
        snprintf(buf + o, size - o, "%sdid you mean '%s', %s?", lead, l->utf8[i],
                 why ? why : "a near name");
    free(why);
}

/* Calls fn for each plain name of spec (trimmed, not a glob, not an
 * @group); stops when fn returns false. */
static void each_plain(const char *spec, bool (*fn)(void *ctx, const char *item), void *ctx)
{
    for (const char *p = spec; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *next = comma ? comma + 1 : p + n;
        while (n && (*p == ' ' || *p == '\t'))
            p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        char *item = n && *p != '@' && !memchr(p, '*', n) ? malloc(n + 1) : NULL;
        if (item) {
            memcpy(item, p, n);
            item[n] = '\0';
            bool go = fn(ctx, item);
            free(item);
            if (!go)
                return;
        }
        p = next;
    }
}

typedef struct walk {
    const names *l;
    const char *kinds, *where;
    bool none;  /* the whole selection matches nothing: gather suggestions */
    bool alone; /* spec is one plain name */
    char *hints;
    size_t hints_size;
    const char *path; /* the file a warning names */
    pk_log *log;
} walk;

static bool plain_name(void *ctx, const char *item)
{
    walk *w = ctx;
    pk_log quiet;
    pk_log_init(&quiet);
    pk_selection *one = pk_selection_parse(NULL, item, &quiet);
    pk_log_free(&quiet);
    if (!one)
        return true; /* said when the whole selection was parsed */
    bool hit = any_match(w->l, one);
    pk_selection_free(one);
    if (hit)
        return true;
    if (w->none) {
        /* the item named unless it is the whole selection */
        char lead[160];
        snprintf(lead, sizeof lead, "%s%s%s%s", w->hints[0] ? "; " : "", w->alone ? "" : "'",
                 w->alone ? "" : item, w->alone ? "" : "': ");
        suggest(w->l, item, lead, w->hints, w->hints_size);
        return true;
    }
    char hint[320] = "";
    suggest(w->l, item, "; ", hint, sizeof hint);
    pk_log_add_at(w->log, PK_WARNING, PK_E_NOT_FOUND, w->path, -1, 0, 0,
                  "'%s' in the selection matches no %s of %s%s", item, w->kinds, w->where, hint);
    return true;
}

/* The rule on the names of l; with none_ok, a selection matching nothing
 * is left to the caller (no message). */
static int check_names(const names *l, const pk_selection *sel, const char *spec, bool morphs,
                       const char *where, const char *verb, const char *path, bool none_ok,
                       pk_log *log)
{
    char hints[1024] = "";
    walk w = {l,
              morphs ? "bone or morph" : "bone",
              where,
              !any_match(l, sel),
              false,
              hints,
              sizeof hints,
              path,
              log};
    if (w.none && none_ok)
        return 0;
    w.alone = !strchr(spec, ',') && !strchr(spec, '*') && spec[strspn(spec, " \t")] != '@';
    each_plain(spec, plain_name, &w);
    if (w.none) {
        pk_log_add_at(log, PK_ERROR, PK_E_NOT_FOUND, NULL, -1, 0, 0,
                      "the selection '%s' matches no %s of %s: nothing to %s%s%s", spec, w.kinds,
                      where, verb, hints[0] ? "; " : "", hints);
        return -1;
    }
    return 0;
}

int pki_selection_check(const pk_selection *sel, const char *spec, const pk_doc *docs, size_t n,
                        bool morphs, const char *where, const char *verb, const char *path,
                        pk_log *log)
{
    names l;
    memset(&l, 0, sizeof l);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++)
        ok = add_doc(&l, &docs[i], morphs);
    int rc = ok ? check_names(&l, sel, spec, morphs, where, verb, path, false, log) : -1;
    if (!ok)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    free(l.v);
    free(l.utf8);
    return rc;
}

int pki_selection_check_models(const pk_selection *sel, const char *spec,
                               const pk_model *const *models, size_t n, const char *where,
                               const char *path, pk_log *log)
{
    names l;
    memset(&l, 0, sizeof l);
    bool ok = true;
    for (size_t k = 0; ok && k < n; k++) {
        const pk_model *m = models[k];
        for (size_t i = 0; ok && i < m->nbones; i++) {
            entry e;
            e.raw = pki_model_bone_raw(m, i, &e.len);
            const char *u = m->bones[i].name;
            if (e.raw && u)
                ok = pki_grow_append(&l.v, &l.n, &l.cap, sizeof *l.v, &e, 1) == 0 &&
                     pki_grow_append(&l.utf8, &l.nu, &l.capu, sizeof *l.utf8, &u, 1) == 0;
        }
    }
    int rc = ok ? check_names(&l, sel, spec, false, where, "draw", path, true, log) : -1;
    if (!ok)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    free(l.v);
    free(l.utf8);
    return rc;
}
