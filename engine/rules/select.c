/*
 * select.c — bone/morph selections ("NAME,@group,glob*"): lists of the
 * patterns of rules/pattern.c, with @group references expanded from the
 * rules (rules.c).
 */
#include "common/grow.h"
#include "rules/rules.h"
#include "rules/select.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

struct pk_selection {
    pki_pattern *v;
    size_t n, cap;
};

/* ---- selections ---- */

static int sel_push(pk_selection *s, const pki_pattern *p)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].star == p->star && s->v[i].len == p->len &&
            memcmp(s->v[i].raw, p->raw, p->len) == 0)
            return 0;
    return pki_grow_append(&s->v, &s->n, &s->cap, sizeof *s->v, p, 1);
}

int pki_selection_add_group(pk_selection *s, const pk_rules *r, const pki_group *g, pk_log *log,
                            int depth)
{
    if (depth > 64) {
        pk_error(log, PK_E_DAMAGED, "group @%s: references nest too deep (a cycle?)",
                 g->name ? g->name : "");
        return -1;
    }
    for (size_t i = 0; i < g->n; i++) {
        const pki_group_item *it = &g->v[i];
        if (!it->ref) {
            if (sel_push(s, &it->pat) != 0) {
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
                return -1;
            }
            continue;
        }
        const pki_group *b = pki_rules_find_group(r, it->text, false);
        const pki_group *m = pki_rules_find_group(r, it->text, true);
        if (!b && !m) {
            pk_error(log, PK_E_NOT_FOUND, "unknown group @%s", it->text);
            return -1;
        }
        if (b && pki_selection_add_group(s, r, b, log, depth + 1) != 0)
            return -1;
        if (m && pki_selection_add_group(s, r, m, log, depth + 1) != 0)
            return -1;
    }
    return 0;
}

/* "unknown group": with the group of r a slip away from name, if any
 * ("@finger_R": did you mean '@fingers_R'?). */
static void unknown_group(const pk_rules *r, const char *item, pk_log *log)
{
    size_t n = r->groups.n + r->morph_groups.n;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    long near = -1;
    if (names) {
        for (size_t i = 0; i < n; i++)
            names[i] = i < r->groups.n ? r->groups.v[i].name
                                       : r->morph_groups.v[i - r->groups.n].name;
        near = pki_nearest_word(item + 1, names, n);
    }
    if (near >= 0)
        pk_error(log, PK_E_NOT_FOUND, "unknown group '%s' (did you mean '@%s'?)", item,
                 names[near]);
    else
        pk_error(log, PK_E_NOT_FOUND, "unknown group '%s'", item);
    free(names);
}

static int add_item(pk_selection *s, const pk_rules *r, const char *item, pk_log *log)
{
    if (item[0] == '@') {
        const pki_group *b = pki_rules_find_group(r, item + 1, false);
        const pki_group *m = pki_rules_find_group(r, item + 1, true);
        if (!b && !m) {
            unknown_group(r, item, log);
            return -1;
        }
        if (b && pki_selection_add_group(s, r, b, log, 0) != 0)
            return -1;
        if (m && pki_selection_add_group(s, r, m, log, 0) != 0)
            return -1;
        return 0;
    }
    pki_pattern p;
    const char *why;
    if (pki_pattern_compile(item, true, &p, &why) != 0) {
        pk_error(log, PK_E_USAGE, "name '%s' in selection %s", item, why);
        return -1;
    }
    if (sel_push(s, &p) != 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    return 0;
}

static pk_selection *parse_with(const pk_rules *r, const char *spec, pk_log *log)
{
    pk_selection *s = calloc(1, sizeof *s);
    char *copy = malloc(strlen(spec) + 1);
    if (!s || !copy) {
        free(s);
        free(copy);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    strcpy(copy, spec);
    int rc = 0;
    char *p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        /* Trim ASCII blanks around an item; inner blanks belong to the name. */
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strlen(p);
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            p[--n] = '\0';
        if (n == 0) {
            pk_error(log, PK_E_USAGE, "empty name in selection '%s'", spec);
            rc = -1;
        } else if (add_item(s, r, p, log) != 0) {
            rc = -1;
        }
        if (!comma || rc)
            break;
        p = comma + 1;
    }
    free(copy);
    if (rc) {
        pk_selection_free(s);
        return NULL;
    }
    return s;
}

pk_selection *pk_selection_parse(const pk_rules *r, const char *spec, pk_log *log)
{
    if (!spec) {
        pk_error(log, PK_E_USAGE, "no selection given");
        return NULL;
    }
    if (r)
        return parse_with(r, spec, log);
    pk_rules *std = pk_rules_default(log);
    if (!std)
        return NULL;
    pk_selection *s = parse_with(std, spec, log);
    pk_rules_free(std);
    return s;
}

pk_selection *pki_selection_new_empty(void)
{
    return calloc(1, sizeof(pk_selection));
}

void pk_selection_free(pk_selection *s)
{
    if (!s)
        return;
    free(s->v);
    free(s);
}

bool pk_selection_has(const pk_selection *s, const void *raw, size_t len)
{
    if (!s)
        return false;
    for (size_t i = 0; i < s->n; i++)
        if (pki_pattern_match(&s->v[i], raw, len, NULL, NULL))
            return true;
    return false;
}

size_t pk_selection_count(const pk_selection *s)
{
    return s ? s->n : 0;
}
