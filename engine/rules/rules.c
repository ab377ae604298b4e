/*
 * rules.c — loads YAML rule files (libyaml) into the compiled pk_rules.
 *
 * Schema (rules/README.md has an example per key):
 *
 *   include: FILE | [FILE...]     other rule files, relative to this one
 *   rename:  {FROM: TO, ...}      bone names; exact, or one '*' captured
 *   morphs:  {FROM: TO, ...}      morph names, same forms
 *   groups:  {NAME: [ITEM...]}    bone sets; ITEM = name, glob, @group
 *   morph_groups: {NAME: [ITEM...]}  morph sets, same forms
 *   mirror:  [[A, B], ...]        name fragments swapped by mirror
 *   morph_mirror: [[A, B], ...]   whole morph names swapped by mirror
 *   stance:  [{bone: B, rotate: [X, Y, Z], chain: ITEM | [ITEM...]}, ...]
 *   scale:   {default: F, bones: {NAME: F, ...}}
 *
 * Layers.  The built-in standard.yaml (rules_builtin.c) is layer 0; every
 * file loaded later is a higher layer, includes before the file including
 * them, so a file overrides what it includes: a rename source, a group
 * name, a scale bone or a stance bone defined again replaces the earlier
 * definition.  Within one file a repeated key is an error.  `mirror` pairs
 * accumulate over files, but the built-in pairs are dropped as soon as a
 * loaded file has its own `mirror` key (the built-in 左/右 is the default
 * "when no rules are given").
 *
 * Errors carry FILE:LINE:COL from libyaml's marks (made 1-based); loading
 * goes on after a validation error so one run reports them all, and the
 * result is NULL when any error was logged.
 */
#include "common/grow.h"
#include "common/diag.h"
#include "math/quat.h"
#include "util/number.h"
#include "util/text.h"
#include "platform/platform.h"
#include "rules/rules.h"
#include "common/yaml_extra.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Generated from rules/standard.yaml at build time (rules_embed.py). */
extern const unsigned char pki_rules_builtin_yaml[];
extern const size_t pki_rules_builtin_len;

#define BUILTIN_NAME "standard.yaml (built-in)"
#define MAX_INCLUDE_DEPTH 32

typedef struct loader {
    pk_rules *r;
    pk_log *log;
    const char *stack[MAX_INCLUDE_DEPTH]; /* canonical paths being loaded */
    size_t depth;
    unsigned layer;
    bool in_base; /* loading the built-in layer under everything */
    size_t errors;
} loader;

typedef struct yfile {
    yaml_document_t doc;
    const char *path; /* owned by r->files */
} yfile;

/* ---- small helpers ---- */

static void errorf(loader *L, pk_diag_code code, const char *file, int line, int col,
                   const char *fmt, ...) PK_PRINTF(6, 7);
static void errorf(loader *L, pk_diag_code code, const char *file, int line, int col,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd_at(L->log, PK_ERROR, code, file, -1, line, col, fmt, ap);
    va_end(ap);
    L->errors++;
}

static pki_where where_of(const yfile *f, const yaml_node_t *n)
{
    pki_where w = {f->path, (int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
    return w;
}

/* An error at node n of rules file f: what the file says does not follow
 * rules/README.md (NODE_ERR_AS: of another kind). */
#define NODE_ERR_AS(L, code, f, n, ...)                                                            \
    errorf((L), (code), (f)->path, (int)(n)->start_mark.line + 1, (int)(n)->start_mark.column + 1, \
           __VA_ARGS__)
#define NODE_ERR(L, f, n, ...) NODE_ERR_AS(L, PK_E_DAMAGED, f, n, __VA_ARGS__)

static const char *node_type_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE:
        return "a scalar";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_MAPPING_NODE:
        return "a mapping";
    default:
        return "nothing";
    }
}

/* A scalar's text (NUL-terminated by libyaml). */
static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

/* A key given with no value (yaml_extra.h). */
static bool is_null(const yaml_node_t *n)
{
    return pki_yaml_is_null(n);
}

static bool want_string(loader *L, const yfile *f, const yaml_node_t *n, const char *what)
{
    if (n->type == YAML_SCALAR_NODE && !is_null(n))
        return true;
    NODE_ERR(L, f, n, "%s must be a string, not %s", what,
             n->type == YAML_SCALAR_NODE ? "empty" : node_type_name(n));
    return false;
}

/* A number (util/number.h: locale-free, so a German LC_NUMERIC does not
 * turn 0.9 into 0). */
static bool want_number(loader *L, const yfile *f, const yaml_node_t *n, const char *what,
                        double *out)
{
    if (n->type != YAML_SCALAR_NODE || is_null(n)) {
        NODE_ERR(L, f, n, "%s must be a number, not %s", what,
                 n->type == YAML_SCALAR_NODE ? "empty" : node_type_name(n));
        return false;
    }
    const char *s = scalar(n);
    double v;
    if (!pki_num_double(s, &v)) {
        NODE_ERR(L, f, n, "%s must be a number, not '%s'", what, s);
        return false;
    }
    *out = v;
    return true;
}

static yaml_node_t *node(const yfile *f, int i)
{
    return yaml_document_get_node((yaml_document_t *)&f->doc, i);
}

/* Calls fn for each value of a sequence node, or for a single scalar. */
typedef void (*item_fn)(loader *L, const yfile *f, yaml_node_t *item, void *ctx);
static void each_item(loader *L, const yfile *f, yaml_node_t *n, bool scalar_ok, const char *what,
                      item_fn fn, void *ctx)
{
    if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
             it++)
            fn(L, f, node(f, *it), ctx);
    } else if (scalar_ok && n->type == YAML_SCALAR_NODE && !is_null(n)) {
        fn(L, f, n, ctx);
    } else if (!is_null(n)) {
        NODE_ERR(L, f, n, "%s must be a list, not %s", what, node_type_name(n));
    }
}

/* Checks a mapping node; errors on other types (a null node is empty). */
static bool want_mapping(loader *L, const yfile *f, yaml_node_t *n, const char *what)
{
    if (n->type == YAML_MAPPING_NODE)
        return true;
    if (!is_null(n))
        NODE_ERR(L, f, n, "%s must be a mapping, not %s", what, node_type_name(n));
    return false;
}

/* Duplicate keys inside one mapping: libyaml keeps both, YAML forbids it. */
static bool dup_key(loader *L, const yfile *f, yaml_node_t *map, yaml_node_pair_t *upto,
                    yaml_node_t *key)
{
    if (key->type != YAML_SCALAR_NODE)
        return false;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < upto; p++) {
        yaml_node_t *k = node(f, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp(scalar(k), scalar(key)) == 0) {
            NODE_ERR(L, f, key, "duplicate key '%s' (first at line %d)", scalar(key),
                     (int)k->start_mark.line + 1);
            return true;
        }
    }
    return false;
}

static bool compile(loader *L, const yfile *f, const yaml_node_t *n, const char *text, bool glob,
                    pki_pattern *p, const char *what)
{
    const char *why;
    if (pki_pattern_compile(text, glob, p, &why) == 0)
        return true;
    NODE_ERR(L, f, n, "%s '%s' %s", what, text, why);
    return false;
}

/* ---- rename / morphs ---- */

static bool same_pattern(const pki_pattern *a, const pki_pattern *b)
{
    return a->star == b->star && a->len == b->len && memcmp(a->raw, b->raw, a->len) == 0;
}

static void free_rule(pki_map_rule *m)
{
    free(m->from_utf8);
    free(m->to_utf8);
    for (size_t i = 0; i < m->ntargets; i++)
        free(m->targets[i].utf8);
    free(m->targets);
}

/* A target name (of a plain or a weighted rule): compiled, a '*' only with
 * a glob source, no wider than any name field. */
static bool compile_target(loader *L, const yfile *f, const yaml_node_t *n, const char *source,
                           const pki_pattern *from, pki_pattern *to)
{
    if (!compile(L, f, n, scalar(n), true, to, "target"))
        return false;
    if (to->star >= 0 && from->star < 0) {
        NODE_ERR(L, f, n, "target '%s' has a '*' but its source '%s' has none", scalar(n), source);
        return false;
    }
    /* No name field is wider than a VPD name; the exact width of the
     * output format (15 bytes in VMD) is checked when renaming. */
    if (to->len > PK_VPD_NAME_BYTES) {
        NODE_ERR_AS(L, PK_E_UNSUPPORTED, f, n,
                    "target '%s' is %zu bytes in CP932; names hold at most %d", scalar(n), to->len,
                    PK_VPD_NAME_BYTES);
        return false;
    }
    return true;
}

/* One target of a weighted rule: NAME (share 1) or NAME: FACTOR. */
static void add_target(loader *L, const yfile *f, yaml_node_t *name, yaml_node_t *share,
                       pki_map_rule *rule, const char *source)
{
    if (!want_string(L, f, name, "a target"))
        return;
    pki_map_target t = {.factor = 1.0};
    if (!compile_target(L, f, name, source, &rule->from, &t.to))
        return;
    if (share && !want_number(L, f, share, "a target's factor", &t.factor))
        return;
    for (size_t i = 0; i < rule->ntargets; i++)
        if (same_pattern(&rule->targets[i].to, &t.to)) {
            NODE_ERR(L, f, name, "target '%s' named twice (first at line %d)", scalar(name),
                     rule->targets[i].at.line);
            return;
        }
    t.utf8 = strdup(scalar(name));
    t.at = where_of(f, name);
    if (!t.utf8 || pki_grow_to(&rule->targets, rule->ntargets + 1, sizeof *rule->targets) != 0) {
        free(t.utf8);
        errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
        return;
    }
    rule->targets[rule->ntargets++] = t;
}

/* `clamp: [LO, HI]`, two numbers with LO <= HI. */
static bool load_clamp(loader *L, const yfile *f, yaml_node_t *n, pki_map_rule *rule)
{
    if (n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top - n->data.sequence.items.start != 2) {
        NODE_ERR(L, f, n, "clamp must be a list of two numbers [LO, HI]");
        return false;
    }
    yaml_node_item_t *it = n->data.sequence.items.start;
    if (!want_number(L, f, node(f, it[0]), "clamp's low end", &rule->lo) ||
        !want_number(L, f, node(f, it[1]), "clamp's high end", &rule->hi))
        return false;
    if (rule->lo > rule->hi) {
        NODE_ERR(L, f, n, "clamp [%g, %g] is empty: the low end is above the high end", rule->lo,
                 rule->hi);
        return false;
    }
    return true;
}

/* The mapping form of a morph rule: {to: NAME | [NAME...] | {NAME: F...},
 * factor: F, clamp: [LO, HI]}, every key optional but one. */
static bool load_weighted(loader *L, const yfile *f, yaml_node_t *k, yaml_node_t *v,
                          pki_map_rule *rule)
{
    rule->weighted = true;
    double factor = 1.0;
    rule->lo = 0.0;
    rule->hi = 1.0;
    size_t errors = L->errors;
    yaml_node_t *to = NULL;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        yaml_node_t *pk = node(f, p->key), *pv = node(f, p->value);
        if (!want_string(L, f, pk, "a key") || dup_key(L, f, v, p, pk))
            continue;
        const char *key = scalar(pk);
        if (strcmp(key, "to") == 0)
            to = pv;
        else if (strcmp(key, "factor") == 0)
            want_number(L, f, pv, "factor", &factor);
        else if (strcmp(key, "clamp") == 0)
            load_clamp(L, f, pv, rule);
        else
            NODE_ERR(L, f, pk, "unknown key '%s' in the rule for '%s' (expected to, factor, clamp)",
                     key, scalar(k));
    }
    if (v->data.mapping.pairs.top == v->data.mapping.pairs.start)
        NODE_ERR(L, f, v, "the rule for '%s' is empty (expected to, factor, clamp)", scalar(k));
    if (to && to->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = to->data.mapping.pairs.start; p < to->data.mapping.pairs.top;
             p++)
            if (!dup_key(L, f, to, p, node(f, p->key)))
                add_target(L, f, node(f, p->key), node(f, p->value), rule, scalar(k));
    } else if (to && to->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = to->data.sequence.items.start; it < to->data.sequence.items.top;
             it++)
            add_target(L, f, node(f, *it), NULL, rule, scalar(k));
        if (to->data.sequence.items.top == to->data.sequence.items.start)
            NODE_ERR(L, f, to, "to names no target");
    } else if (to) {
        add_target(L, f, to, NULL, rule, scalar(k));
    }
    if (L->errors != errors)
        return false;
    for (size_t i = 0; i < rule->ntargets; i++)
        rule->targets[i].factor *= factor;
    if (!rule->ntargets) {
        /* in place: one share of the source itself */
        pki_map_target self = {.to = rule->from, .factor = factor, .at = where_of(f, k)};
        self.utf8 = strdup(scalar(k));
        if (!self.utf8 || pki_grow_to(&rule->targets, 1, sizeof *rule->targets) != 0) {
            free(self.utf8);
            errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
            return false;
        }
        rule->targets[rule->ntargets++] = self;
    }
    /* to/to_at: the first target (the source itself when scaled in place) */
    rule->to = rule->targets[0].to;
    rule->to_utf8 = strdup(rule->targets[0].utf8);
    rule->to_at = rule->targets[0].at;
    return rule->to_utf8 != NULL;
}

static void load_map(loader *L, const yfile *f, yaml_node_t *n, pki_map *map, const char *key)
{
    bool morphs = strcmp(key, "morphs") == 0;
    if (!want_mapping(L, f, n, key))
        return;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(f, p->key), *v = node(f, p->value);
        if (!want_string(L, f, k, "a name") || dup_key(L, f, n, p, k))
            continue;
        bool weighted = morphs && v->type == YAML_MAPPING_NODE;
        if (!weighted && !want_string(L, f, v,
                                      morphs ? "a morph rule (a name or {to, factor, clamp})"
                                             : "a rename target"))
            continue;
        pki_map_rule rule = {0};
        if (!compile(L, f, k, scalar(k), true, &rule.from, "name"))
            continue;
        if (weighted ? !load_weighted(L, f, k, v, &rule)
                     : !compile_target(L, f, v, scalar(k), &rule.from, &rule.to)) {
            free_rule(&rule);
            continue;
        }
        rule.from_utf8 = strdup(scalar(k));
        if (!weighted) {
            rule.to_utf8 = strdup(scalar(v));
            rule.to_at = where_of(f, v);
        }
        rule.at = where_of(f, k);
        rule.layer = L->layer;
        if (!rule.from_utf8 || !rule.to_utf8) {
            free_rule(&rule);
            errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
            continue;
        }
        /* A later file's rule for the same source replaces the earlier one. */
        size_t i;
        for (i = 0; i < map->n; i++)
            if (same_pattern(&map->v[i].from, &rule.from))
                break;
        if (i < map->n) {
            free_rule(&map->v[i]);
            map->v[i] = rule;
            continue;
        }
        if (pki_grow_reserve(&map->v, &map->cap, map->n + 1, sizeof *map->v) != 0) {
            free_rule(&rule);
            errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
            return;
        }
        map->v[map->n++] = rule;
    }
}

/* One-to-one: two plain rules may not share a target (checked on the
 * merged map so that overrides across files are taken into account);
 * weighted morph rules sum what lands on a target. */
static void check_one_to_one(loader *L, const pki_map *map, const char *what)
{
    for (size_t i = 0; i < map->n; i++)
        for (size_t j = 0; j < i; j++)
            if (!map->v[i].weighted && !map->v[j].weighted &&
                same_pattern(&map->v[i].to, &map->v[j].to)) {
                const pki_map_rule *a = &map->v[j], *b = &map->v[i];
                const pki_map_rule *late = a->layer > b->layer ? a : b;
                const pki_map_rule *early = late == a ? b : a;
                errorf(L, PK_E_CONFLICT, late->to_at.file, late->to_at.line, late->to_at.col,
                       "%s '%s' and '%s' both map to '%s' (rules must be one-to-one%s)", what,
                       early->from_utf8, late->from_utf8, late->to_utf8,
                       map == &L->r->morphs ? "; {to: NAME} sums morphs into one" : "");
            }
}

/* ---- groups ---- */

static void free_group(pki_group *g)
{
    for (size_t i = 0; i < g->n; i++)
        free(g->v[i].text);
    free(g->v);
    free(g->name);
    memset(g, 0, sizeof *g);
}

static void group_item(loader *L, const yfile *f, yaml_node_t *n, void *ctx)
{
    pki_group *g = ctx;
    if (!want_string(L, f, n, "a group item"))
        return;
    const char *s = scalar(n);
    pki_group_item it = {0};
    it.at = where_of(f, n);
    if (s[0] == '@') {
        if (!s[1]) {
            NODE_ERR(L, f, n, "group reference '@' names no group");
            return;
        }
        it.ref = true;
        it.text = strdup(s + 1);
    } else {
        if (!compile(L, f, n, s, true, &it.pat, "name"))
            return;
        it.text = strdup(s);
    }
    if (!it.text) {
        errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
        return;
    }
    if (pki_grow_reserve(&g->v, &g->cap, g->n + 1, sizeof *g->v) != 0) {
        free(it.text);
        errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
        return;
    }
    g->v[g->n++] = it;
}

static void load_groups(loader *L, const yfile *f, yaml_node_t *n, pki_group_set *set,
                        const char *key)
{
    if (!want_mapping(L, f, n, key))
        return;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(f, p->key), *v = node(f, p->value);
        if (!want_string(L, f, k, "a group name") || dup_key(L, f, n, p, k))
            continue;
        const char *name = scalar(k);
        if (name[0] == '@' || strchr(name, ',') || strchr(name, '*')) {
            NODE_ERR(L, f, k, "group name '%s' may not start with '@' or contain ',' or '*'", name);
            continue;
        }
        if (v->type != YAML_SEQUENCE_NODE) {
            NODE_ERR(L, f, v, "group '%s' must be a list, not %s", name, node_type_name(v));
            continue;
        }
        pki_group g = {0};
        g.at = where_of(f, k);
        g.name = strdup(name);
        each_item(L, f, v, false, "a group", group_item, &g);
        size_t i;
        for (i = 0; i < set->n; i++)
            if (strcmp(set->v[i].name, name) == 0)
                break;
        if (i < set->n) {
            free_group(&set->v[i]);
            set->v[i] = g;
            continue;
        }
        if (pki_grow_reserve(&set->v, &set->cap, set->n + 1, sizeof *set->v) != 0) {
            free_group(&g);
            errorf(L, PK_E_NO_MEMORY, f->path, 0, 0, "out of memory");
            return;
        }
        set->v[set->n++] = g;
    }
}

const pki_group *pki_rules_find_group(const pk_rules *r, const char *name, bool morph)
{
    const pki_group_set *set = morph ? &r->morph_groups : &r->groups;
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->v[i].name, name) == 0)
            return &set->v[i];
    return NULL;
}

/* Every @ref must name a group (bone or morph set); no group may reach
 * itself through references. */
static void check_refs(loader *L, const pki_group *g, const char *label)
{
    for (size_t i = 0; i < g->n; i++) {
        const pki_group_item *it = &g->v[i];
        if (it->ref && !pki_rules_find_group(L->r, it->text, false) &&
            !pki_rules_find_group(L->r, it->text, true))
            errorf(L, PK_E_NOT_FOUND, it->at.file, it->at.line, it->at.col,
                   "%s references unknown group @%s", label, it->text);
    }
}

static bool reaches(const pk_rules *r, const pki_group *from, const pki_group *target, int depth)
{
    if (depth > 64)
        return true;
    for (size_t i = 0; i < from->n; i++) {
        if (!from->v[i].ref)
            continue;
        for (int m = 0; m < 2; m++) {
            const pki_group *g = pki_rules_find_group(r, from->v[i].text, m == 1);
            if (g && (g == target || reaches(r, g, target, depth + 1)))
                return true;
        }
    }
    return false;
}

static void check_groups(loader *L)
{
    for (int m = 0; m < 2; m++) {
        const pki_group_set *set = m ? &L->r->morph_groups : &L->r->groups;
        for (size_t i = 0; i < set->n; i++) {
            char label[160];
            snprintf(label, sizeof label, "group '%s'", set->v[i].name);
            check_refs(L, &set->v[i], label);
            if (reaches(L->r, &set->v[i], &set->v[i], 0))
                errorf(L, PK_E_DAMAGED, set->v[i].at.file, set->v[i].at.line, set->v[i].at.col,
                       "group '%s' refers back to itself (a cycle of @references)", set->v[i].name);
        }
    }
    for (size_t i = 0; i < L->r->nstance; i++)
        check_refs(L, &L->r->stance[i].chain, "stance chain");
}

/* ---- mirror ---- */

/* ctx: NULL for `mirror` (fragments), non-NULL for `morph_mirror` (whole
 * morph names, in r->morph_mirror); both are exact names. */
static void mirror_item(loader *L, const yfile *f, yaml_node_t *n, void *ctx)
{
    pk_rules *r = L->r;
    bool morph = ctx != NULL;
    if (n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top - n->data.sequence.items.start != 2) {
        NODE_ERR(L, f, n, "a %s pair must be a list of two names, like %s",
                 morph ? "morph_mirror" : "mirror", morph ? "[ウィンク, ウィンク右]" : "[左, 右]");
        return;
    }
    yaml_node_t *a = node(f, n->data.sequence.items.start[0]);
    yaml_node_t *b = node(f, n->data.sequence.items.start[1]);
    if (!want_string(L, f, a, "a mirror fragment") || !want_string(L, f, b, "a mirror fragment"))
        return;
    pki_mirror_pair pair = {0};
    if (!compile(L, f, a, scalar(a), false, &pair.a, "mirror fragment") ||
        !compile(L, f, b, scalar(b), false, &pair.b, "mirror fragment"))
        return;
    if (same_pattern(&pair.a, &pair.b)) {
        NODE_ERR(L, f, n, "mirror pair swaps '%s' with itself", scalar(a));
        return;
    }
    pki_mirror_pair **list = morph ? &r->morph_mirror : &r->mirror;
    size_t *count = morph ? &r->nmorph_mirror : &r->nmirror;
    if (pki_grow_to(list, *count + 1, sizeof **list) != 0)
        return;
    pair.a_utf8 = strdup(scalar(a));
    pair.b_utf8 = strdup(scalar(b));
    pair.at = where_of(f, n);
    (*list)[(*count)++] = pair;
}

static void clear_mirror(pk_rules *r)
{
    for (size_t i = 0; i < r->nmirror; i++) {
        free(r->mirror[i].a_utf8);
        free(r->mirror[i].b_utf8);
    }
    r->nmirror = 0;
    for (size_t i = 0; i < r->nmorph_mirror; i++) {
        free(r->morph_mirror[i].a_utf8);
        free(r->morph_mirror[i].b_utf8);
    }
    r->nmorph_mirror = 0;
}

static void load_mirror(loader *L, const yfile *f, yaml_node_t *n)
{
    if (!L->in_base && !L->r->mirror_from_file) {
        clear_mirror(L->r);
        L->r->mirror_from_file = true;
    }
    if (n->type != YAML_SEQUENCE_NODE) {
        if (!is_null(n))
            NODE_ERR(L, f, n, "mirror must be a list of pairs, not %s", node_type_name(n));
        return;
    }
    each_item(L, f, n, false, "mirror", mirror_item, NULL);
}

/* `morph_mirror` pairs accumulate over files like `mirror`; the built-in
 * pairs (standard.yaml) are dropped when a loaded file has the key. */
static void load_morph_mirror(loader *L, const yfile *f, yaml_node_t *n)
{
    if (!L->in_base && !L->r->morph_mirror_from_file) {
        for (size_t i = 0; i < L->r->nmorph_mirror; i++) {
            free(L->r->morph_mirror[i].a_utf8);
            free(L->r->morph_mirror[i].b_utf8);
        }
        L->r->nmorph_mirror = 0;
        L->r->morph_mirror_from_file = true;
    }
    if (n->type != YAML_SEQUENCE_NODE) {
        if (!is_null(n))
            NODE_ERR(L, f, n, "morph_mirror must be a list of pairs, not %s", node_type_name(n));
        return;
    }
    each_item(L, f, n, false, "morph_mirror", mirror_item, L->r);
}

/* ---- stance ---- */

static void stance_item(loader *L, const yfile *f, yaml_node_t *n, void *ctx)
{
    (void)ctx;
    if (n->type != YAML_MAPPING_NODE) {
        NODE_ERR(L, f, n, "a stance entry must be a mapping {bone, rotate, chain}, not %s",
                 node_type_name(n));
        return;
    }
    pki_stance_rule st = {0};
    st.at = where_of(f, n);
    bool have_bone = false, have_rot = false, ok = true;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(f, p->key), *v = node(f, p->value);
        if (!want_string(L, f, k, "a key") || dup_key(L, f, n, p, k)) {
            ok = false;
            continue;
        }
        const char *key = scalar(k);
        if (strcmp(key, "bone") == 0) {
            if (!want_string(L, f, v, "stance bone") ||
                !compile(L, f, v, scalar(v), false, &st.bone, "stance bone")) {
                ok = false;
                continue;
            }
            free(st.bone_utf8);
            st.bone_utf8 = strdup(scalar(v));
            have_bone = true;
        } else if (strcmp(key, "rotate") == 0) {
            if (v->type != YAML_SEQUENCE_NODE ||
                v->data.sequence.items.top - v->data.sequence.items.start != 3) {
                NODE_ERR(L, f, v, "rotate must be a list of three angles in degrees [X, Y, Z]");
                ok = false;
                continue;
            }
            for (int i = 0; i < 3; i++)
                if (!want_number(L, f, node(f, v->data.sequence.items.start[i]), "an angle",
                                 &st.rotate_deg[i]))
                    ok = false;
            have_rot = true;
        } else if (strcmp(key, "chain") == 0) {
            each_item(L, f, v, true, "chain", group_item, &st.chain);
        } else {
            NODE_ERR(L, f, k, "unknown key '%s' in a stance entry (expected bone, rotate, chain)",
                     key);
            ok = false;
        }
    }
    if (ok && !have_bone) {
        NODE_ERR(L, f, n, "stance entry has no 'bone'");
        ok = false;
    }
    if (ok && !have_rot) {
        NODE_ERR(L, f, n, "stance entry has no 'rotate'");
        ok = false;
    }
    pk_rules *r = L->r;
    if (!ok || pki_grow_to(&r->stance, r->nstance + 1, sizeof *r->stance) != 0) {
        free(st.bone_utf8);
        free_group(&st.chain);
        return;
    }
    pki_euler_deg_to_quat(st.rotate_deg, st.r);
    /* A later file's entry for the same bone replaces the earlier one. */
    for (size_t i = 0; i < r->nstance; i++)
        if (same_pattern(&r->stance[i].bone, &st.bone)) {
            free(r->stance[i].bone_utf8);
            free_group(&r->stance[i].chain);
            r->stance[i] = st;
            return;
        }
    r->stance[r->nstance++] = st;
}

static void load_stance(loader *L, const yfile *f, yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE) {
        if (!is_null(n))
            NODE_ERR(L, f, n, "stance must be a list of entries, not %s", node_type_name(n));
        return;
    }
    each_item(L, f, n, false, "stance", stance_item, NULL);
}

/* ---- scale ---- */

static void load_scale(loader *L, const yfile *f, yaml_node_t *n)
{
    if (!want_mapping(L, f, n, "scale"))
        return;
    pk_rules *r = L->r;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(f, p->key), *v = node(f, p->value);
        if (!want_string(L, f, k, "a key") || dup_key(L, f, n, p, k))
            continue;
        const char *key = scalar(k);
        if (strcmp(key, "default") == 0) {
            double d;
            if (want_number(L, f, v, "scale default", &d)) {
                r->scale_default = d;
                r->scale_set = true;
            }
            continue;
        }
        if (strcmp(key, "bones") != 0) {
            NODE_ERR(L, f, k, "unknown key '%s' in scale (expected default, bones)", key);
            continue;
        }
        if (!want_mapping(L, f, v, "scale bones"))
            continue;
        for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top;
             q++) {
            yaml_node_t *bk = node(f, q->key), *bv = node(f, q->value);
            if (!want_string(L, f, bk, "a bone name") || dup_key(L, f, v, q, bk))
                continue;
            pki_scale_rule s = {0};
            if (!compile(L, f, bk, scalar(bk), true, &s.bone, "bone") ||
                !want_number(L, f, bv, "a scale factor", &s.factor))
                continue;
            s.at = where_of(f, bk);
            s.layer = L->layer;
            size_t i;
            for (i = 0; i < r->nscale; i++)
                if (same_pattern(&r->scale[i].bone, &s.bone))
                    break;
            if (i < r->nscale) {
                free(r->scale[i].bone_utf8);
            } else {
                if (pki_grow_to(&r->scale, r->nscale + 1, sizeof *r->scale) != 0)
                    continue;
                r->nscale++;
            }
            s.bone_utf8 = strdup(scalar(bk));
            r->scale[i] = s;
        }
    }
}

/* ---- files and includes ---- */

static const char *keep_path(loader *L, const char *path)
{
    if (pki_grow_to(&L->r->files, L->r->nfiles + 1, sizeof *L->r->files) != 0)
        return NULL;
    char *d = strdup(path);
    if (!d)
        return NULL;
    L->r->files[L->r->nfiles++] = d;
    return d;
}

static int load_buffer(loader *L, const char *data, size_t len, const char *path,
                       const char *canon);

static bool file_exists(const char *path)
{
    return pki_os_kind(path, NULL) != PK_PATH_MISSING;
}

/* Rule files are small; anything bigger is a mistake (or a device). */
#define RULES_MAX_BYTES (16 * 1024 * 1024)

static int load_path(loader *L, const char *path, const char *inc_file, int line, int col)
{
    char *canon = pki_os_canonical(path);
    if (!canon) {
        if (inc_file)
            errorf(L, errno == ENOENT ? PK_E_NOT_FOUND : PK_E_IO, inc_file, line, col,
                   "cannot open included file '%s': %s", path, pki_os_error_text(errno));
        else
            errorf(L, errno == ENOENT ? PK_E_NOT_FOUND : PK_E_IO, path, 0, 0,
                   "cannot open rules: %s", pki_os_error_text(errno));
        return -1;
    }
    /* Only regular files: a device such as /dev/zero would never end. */
    uint64_t size;
    pk_path_kind kind = pki_os_kind(canon, &size);
    if (kind != PK_PATH_FILE || size > RULES_MAX_BYTES) {
        const char *why = kind == PK_PATH_MISSING ? "no such file"
                          : kind != PK_PATH_FILE  ? "not a regular file"
                                                  : "larger than 16 MiB";
        errorf(L, kind == PK_PATH_MISSING ? PK_E_NOT_FOUND : PK_E_UNSUPPORTED,
               inc_file ? inc_file : path, line, col, "cannot read rules file '%s': %s", path, why);
        free(canon);
        return -1;
    }
    pk_bytes bytes;
    pk_log quiet;
    pk_log_init(&quiet);
    int rc = pk_file_read(canon, &bytes, &quiet);
    if (rc != 0) {
        errorf(L, quiet.count ? quiet.items[0].code : PK_E_IO, inc_file ? inc_file : path, line,
               col, "cannot read rules file '%s': %s", path,
               quiet.count ? quiet.items[0].msg : "read failed");
        pk_log_free(&quiet);
        free(canon);
        return -1;
    }
    pk_log_free(&quiet);
    rc = load_buffer(L, (const char *)bytes.data, bytes.len, path, canon);
    pk_bytes_free(&bytes);
    free(canon);
    return rc;
}

/* "FIRST, DIR1/NAME, DIR2/NAME": every place a rules name is looked for
 * (first: the current folder's or the including file's; NULL: none);
 * malloc'd, NULL on OOM. */
static char *looked_in(const char *first, const char *name)
{
    size_t n;
    char **dirs = pki_os_data_dirs("rules", &n);
    pk_buf b;
    pk_buf_init(&b);
    if (first)
        pk_buf_puts(&b, first);
    for (size_t i = 0; i < n; i++) {
        char *p = pki_os_join(dirs[i], name);
        pk_buf_printf(&b, "%s%s", first || i ? ", " : "", p ? p : "?");
        free(p);
    }
    pki_os_free_list(dirs, n);
    pk_buf_putc(&b, 0);
    if (b.oom) {
        pk_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

/* The first data folder (pki_os_data_dirs) holding `name`, joined: malloc'd,
 * NULL when none does. */
static char *find_in_data_dirs(const char *name)
{
    size_t n;
    char **dirs = pki_os_data_dirs("rules", &n);
    char *found = NULL;
    for (size_t i = 0; i < n && !found; i++) {
        char *p = pki_os_join(dirs[i], name);
        if (p && file_exists(p))
            found = p;
        else
            free(p);
    }
    pki_os_free_list(dirs, n);
    return found;
}

/* The shipped rule file nearest to a name not found ("ja-en" and
 * "ja-eng" find "ja-en.yaml"), by its name without ".yaml" or ".yml"
 * (pki_nearest_word), as "NAME.yaml": malloc'd, NULL when none is near. */
static char *nearest_shipped(const char *name)
{
    char stem[64];
    size_t len = strlen(name);
    if (len >= 5 && strcmp(name + len - 5, ".yaml") == 0)
        len -= 5;
    else if (len >= 4 && strcmp(name + len - 4, ".yml") == 0)
        len -= 4;
    if (len == 0 || len >= sizeof stem)
        return NULL;
    memcpy(stem, name, len);
    stem[len] = '\0';
    size_t ndirs;
    char **dirs = pki_os_data_dirs("rules", &ndirs);
    char **files[8] = {0};
    size_t nfiles[8] = {0}, total = 0;
    pk_log quiet; /* a folder that cannot be read has no suggestion */
    pk_log_init(&quiet);
    for (size_t i = 0; i < ndirs && i < 8; i++)
        if (pki_os_list_dir(dirs[i], &files[i], &nfiles[i], &quiet) == 0)
            total += nfiles[i];
    pk_log_free(&quiet);
    const char **words = calloc(total ? total : 1, sizeof *words);
    size_t n = 0;
    for (size_t i = 0; words && i < ndirs && i < 8; i++)
        for (size_t k = 0; k < nfiles[i]; k++) {
            char *f = files[i][k];
            size_t fl = strlen(f);
            if (fl > 5 && strcmp(f + fl - 5, ".yaml") == 0) {
                f[fl - 5] = '\0'; /* the stem: ".yaml" put back on the one chosen */
                words[n++] = f;
            }
        }
    long near = words ? pki_nearest_word(stem, words, n) : -1;
    char *found = NULL;
    if (near >= 0) {
        size_t fl = strlen(words[near]) + 6;
        if ((found = malloc(fl)) != NULL)
            snprintf(found, fl, "%s.yaml", words[near]);
    }
    free(words);
    for (size_t i = 0; i < ndirs && i < 8; i++)
        pki_os_free_list(files[i], nfiles[i]);
    pki_os_free_list(dirs, ndirs);
    return found;
}

static int load_builtin(loader *L)
{
    return load_buffer(L, (const char *)pki_rules_builtin_yaml, pki_rules_builtin_len, BUILTIN_NAME,
                       BUILTIN_NAME);
}

/* include resolution: beside the including file, then the installed rules
 * folder, then (for standard.yaml) the built-in copy. */
static void include_item(loader *L, const yfile *f, yaml_node_t *n, void *ctx)
{
    (void)ctx;
    if (!want_string(L, f, n, "an include"))
        return;
    const char *name = scalar(n);
    int line = (int)n->start_mark.line + 1, col = (int)n->start_mark.column + 1;
    char *found = NULL, *beside = NULL;
    bool builtin = strcmp(f->path, BUILTIN_NAME) == 0;
    if (pki_os_is_absolute(name)) {
        found = strdup(name);
    } else {
        if (!builtin) {
            char *dir = pki_os_dir_of(f->path);
            beside = dir ? pki_os_join(dir, name) : NULL;
            free(dir);
            if (beside && file_exists(beside))
                found = strdup(beside);
        }
        if (!found)
            found = find_in_data_dirs(name);
    }
    if (!found) {
        if (strcmp(name, "standard.yaml") == 0) {
            for (size_t i = 0; i < L->depth; i++)
                if (strcmp(L->stack[i], BUILTIN_NAME) == 0) {
                    errorf(L, PK_E_DAMAGED, f->path, line, col,
                           "include cycle: '%s' includes itself", name);
                    free(beside);
                    return;
                }
            load_builtin(L);
            free(beside);
            return;
        }
        char *where = looked_in(beside, name);
        errorf(L, PK_E_NOT_FOUND, f->path, line, col,
               "cannot find included file '%s' (looked in %s)", name, where ? where : "?");
        free(where);
        free(beside);
        return;
    }
    free(beside);
    char *canon = pki_os_canonical(found);
    if (canon) {
        for (size_t i = 0; i < L->depth; i++)
            if (strcmp(L->stack[i], canon) == 0) {
                errorf(L, PK_E_DAMAGED, f->path, line, col,
                       "include cycle: '%s' is already being loaded", name);
                free(canon);
                free(found);
                return;
            }
        free(canon);
    }
    load_path(L, found, f->path, line, col);
    free(found);
}

/* A top-level key of no rule: a slip of one names it (as the command
 * line's options do), else every key is listed. */
static void unknown_key(loader *L, const yfile *f, const yaml_node_t *k, const char *key)
{
    static const char *const KEYS[] = {"include",      "rename",       "morphs",
                                       "groups",       "morph_groups", "mirror",
                                       "morph_mirror", "stance",       "scale"};
    size_t n = sizeof KEYS / sizeof *KEYS;
    long near = pki_nearest_word(key, KEYS, n);
    char all[128];
    if (near >= 0)
        NODE_ERR(L, f, k, "unknown key '%s' (did you mean '%s'?)", key, KEYS[near]);
    else
        NODE_ERR(L, f, k, "unknown key '%s' (expected %s)", key,
                 pki_word_list(all, sizeof all, KEYS, n));
}
static void load_doc(loader *L, const yfile *f)
{
    yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)&f->doc);
    if (!root || is_null(root) ||
        (root->type == YAML_MAPPING_NODE &&
         root->data.mapping.pairs.top == root->data.mapping.pairs.start)) {
        /* an empty rule set: most likely the wrong file, or one not saved
         * yet; the command's own "no rule matched" would not say why */
        pk_log_add_at(L->log, PK_WARNING, PK_E_NO_EFFECT, f->path, -1, 0, 0,
                      "the rules file holds no rule: only the built-in groups and mirror "
                      "pairs apply");
        return;
    }
    if (root->type != YAML_MAPPING_NODE) {
        NODE_ERR(L, f, root, "a rules file must be a mapping of keys, not %s",
                 node_type_name(root));
        return;
    }
    /* a body where rules go (--rules body.yaml): one error that says so,
     * not one per key a rules file lacks */
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = node(f, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp(scalar(k), "posekit_body") == 0) {
            NODE_ERR(L, f, k,
                     "a body (a model's skeleton), not a rules file: a body goes where a model "
                     "goes (--from, --to, --model)");
            return;
        }
    }
    /* Includes first, whatever their place in the file: the including
     * file's own rules are a later layer and override them. */
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = node(f, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp(scalar(k), "include") == 0)
            each_item(L, f, node(f, p->value), true, "include", include_item, NULL);
    }
    L->layer++;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = node(f, p->key), *v = node(f, p->value);
        if (!want_string(L, f, k, "a key") || dup_key(L, f, root, p, k))
            continue;
        const char *key = scalar(k);
        if (strcmp(key, "include") == 0)
            continue;
        else if (strcmp(key, "rename") == 0)
            load_map(L, f, v, &L->r->rename, "rename");
        else if (strcmp(key, "morphs") == 0)
            load_map(L, f, v, &L->r->morphs, "morphs");
        else if (strcmp(key, "groups") == 0)
            load_groups(L, f, v, &L->r->groups, "groups");
        else if (strcmp(key, "morph_groups") == 0)
            load_groups(L, f, v, &L->r->morph_groups, "morph_groups");
        else if (strcmp(key, "mirror") == 0)
            load_mirror(L, f, v);
        else if (strcmp(key, "morph_mirror") == 0)
            load_morph_mirror(L, f, v);
        else if (strcmp(key, "stance") == 0)
            load_stance(L, f, v);
        else if (strcmp(key, "scale") == 0)
            load_scale(L, f, v);
        else
            unknown_key(L, f, k, key);
    }
}

static int load_buffer(loader *L, const char *data, size_t len, const char *path, const char *canon)
{
    if (L->depth == MAX_INCLUDE_DEPTH) {
        errorf(L, PK_E_UNSUPPORTED, path, 0, 0, "includes nest deeper than %d files",
               MAX_INCLUDE_DEPTH);
        return -1;
    }
    yfile f;
    f.path = keep_path(L, path);
    const char *canon_kept = keep_path(L, canon);
    if (!f.path || !canon_kept) {
        errorf(L, PK_E_NO_MEMORY, path, 0, 0, "out of memory");
        return -1;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        errorf(L, PK_E_NO_MEMORY, path, 0, 0, "out of memory");
        return -1;
    }
    int rc = 0;
    const char *mmd = pki_yaml_mmd_file(data, len);
    if (mmd) {
        errorf(L, PK_E_USAGE, path, 0, 0, "%s, not rules (a rules file is YAML: rules/README.md)",
               mmd);
        yaml_parser_delete(&parser);
        return -1;
    }
    if (!pki_yaml_load(&parser, (const unsigned char *)data, len, &f.doc)) {
        char why[512];
        int line, col;
        pki_yaml_problem_at(&parser, (const unsigned char *)data, len, &line, &col);
        errorf(L, PK_E_DAMAGED, path, line, col, "%s",
               pki_yaml_syntax_error(&parser, why, sizeof why));
        yaml_parser_delete(&parser);
        return -1;
    }
    int dl, dc;
    if (pki_yaml_has_second_document(&parser, &dl, &dc)) {
        errorf(L, PK_E_DAMAGED, path, dl, dc,
               "a rules file holds one YAML document; a second one starts here");
        yaml_document_delete(&f.doc);
        yaml_parser_delete(&parser);
        return -1;
    }
    L->stack[L->depth++] = canon_kept;
    load_doc(L, &f);
    L->depth--;
    yaml_document_delete(&f.doc);
    yaml_parser_delete(&parser);
    return rc;
}

/* ---- public ---- */

void pk_rules_free(pk_rules *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i]);
    free(r->files);
    for (int m = 0; m < 2; m++) {
        pki_map *map = m ? &r->morphs : &r->rename;
        for (size_t i = 0; i < map->n; i++)
            free_rule(&map->v[i]);
        free(map->v);
        pki_group_set *set = m ? &r->morph_groups : &r->groups;
        for (size_t i = 0; i < set->n; i++)
            free_group(&set->v[i]);
        free(set->v);
    }
    clear_mirror(r);
    free(r->mirror);
    free(r->morph_mirror);
    for (size_t i = 0; i < r->nstance; i++) {
        free(r->stance[i].bone_utf8);
        free_group(&r->stance[i].chain);
    }
    free(r->stance);
    for (size_t i = 0; i < r->nscale; i++)
        free(r->scale[i].bone_utf8);
    free(r->scale);
    free(r);
}

static pk_rules *finish(loader *L)
{
    if (!L->errors) {
        check_groups(L);
        check_one_to_one(L, &L->r->rename, "bones");
        check_one_to_one(L, &L->r->morphs, "morphs");
    }
    if (L->errors) {
        pk_rules_free(L->r);
        return NULL;
    }
    return L->r;
}

static bool start(loader *L, pk_log *log)
{
    memset(L, 0, sizeof *L);
    L->log = log;
    L->r = calloc(1, sizeof *L->r);
    if (!L->r) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    L->r->scale_default = 1.0;
    /* The lowest layer: the built-in standard groups and mirror pairs. */
    L->in_base = true;
    load_builtin(L);
    L->in_base = false;
    if (L->errors) {
        pk_rules_free(L->r);
        return false;
    }
    return true;
}

pk_rules *pk_rules_default(pk_log *log)
{
    loader L;
    if (!start(&L, log))
        return NULL;
    return finish(&L);
}

pk_rules *pk_rules_load_in(const char *dir, const char *path, pk_log *log)
{
    loader L;
    if (!start(&L, log))
        return NULL;
    char *full = pki_os_join(dir, path);
    if (!full) {
        errorf(&L, PK_E_NO_MEMORY, path, 0, 0, "out of memory");
        return finish(&L);
    }
    /* A bare file name that is not in the folder names a shipped rule
     * file: `--rules ja-en.yaml` works from anywhere (the rules folders,
     * pki_os_data_dirs). */
    bool bare = pki_os_base_name(path) == path;
    if (bare && !file_exists(full)) {
        char *shipped = find_in_data_dirs(path);
        if (!shipped) {
            char *where = looked_in(full, path);
            char *near = nearest_shipped(path);
            errorf(&L, PK_E_NOT_FOUND, full, 0, 0, "cannot find rules: looked in %s%s%s%s",
                   where ? where : "?", near ? " (did you mean '" : "", near ? near : "",
                   near ? "'?)" : "");
            free(near);
            free(where);
        } else {
            load_path(&L, shipped, NULL, 0, 0);
            free(shipped);
        }
        free(full);
        return finish(&L);
    }
    load_path(&L, full, NULL, 0, 0);
    free(full);
    return finish(&L);
}

pk_rules *pk_rules_load(const char *path, pk_log *log)
{
    return pk_rules_load_in(NULL, path, log);
}

pk_rules *pk_rules_parse(const char *yaml, size_t len, const char *path, pk_log *log)
{
    loader L;
    if (!start(&L, log))
        return NULL;
    const char *p = path ? path : "<rules>";
    char *canon = path ? pki_os_canonical(path) : NULL;
    load_buffer(&L, yaml, len, p, canon ? canon : p);
    free(canon);
    return finish(&L);
}

size_t pk_rules_group_count(const pk_rules *r)
{
    return r ? r->groups.n : 0;
}

const char *pk_rules_group_name(const pk_rules *r, size_t i)
{
    return r && i < r->groups.n ? r->groups.v[i].name : NULL;
}

bool pk_rules_has_group(const pk_rules *r, const char *name)
{
    return r && (pki_rules_find_group(r, name, false) || pki_rules_find_group(r, name, true));
}
