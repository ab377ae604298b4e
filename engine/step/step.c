/* step.c — the registry of operations (one row each) and what works the
 * same for all of them: the option setter the command line and job files
 * share, operands, what a step reads, and the dispatch of run, summary and
 * reports to the operation's descriptor (posekit_tool.h, "steps"). */
#include "common/grow.h"
#include "step/step.h"
#include "step/step_option.h"

#include "util/number.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Every operation, in the order help and messages list them: one row
 * each (its descriptor is step_NAME.c's pki_step_NAME). */
/* clang-format off */
#define PKI_STEPS(X) \
    X(convert) \
    X(diff) \
    X(rename) \
    X(mirror) \
    X(retarget) \
    X(overlay) \
    X(merge) \
    X(reduce) \
    X(bake) \
    X(time) \
    X(crossfade) \
    X(curve) \
    X(smooth) \
    X(check) \
    X(draw)
/* clang-format on */

#define DECLARE(n) extern const pki_step_def pki_step_##n;
PKI_STEPS(DECLARE)
#undef DECLARE
#define ROW(n) &pki_step_##n,
static const pki_step_def *const REGISTRY[] = {PKI_STEPS(ROW)};
#undef ROW
#define NOPS (sizeof REGISTRY / sizeof REGISTRY[0])

const char *pk_step_op_name(size_t i)
{
    return i < NOPS ? REGISTRY[i]->name : NULL;
}

const char *pk_step_op_about(size_t i)
{
    return i < NOPS ? REGISTRY[i]->about : NULL;
}

const char *pk_step_op_help(size_t i)
{
    return i < NOPS ? REGISTRY[i]->help : NULL;
}

const char *pk_step_name(const pk_step *s)
{
    return s->def->name;
}

const pk_step_cli *pk_step_cli_of(const pk_step *s)
{
    return &s->def->cli;
}

pk_format pk_step_makes(const pk_step *s, pk_format in)
{
    return s->def->makes(s, in);
}

bool pk_step_takes_input(const pk_step *s)
{
    return s->def->takes_input;
}

/* "convert, diff, ..." */
static void op_list(char *out, size_t size)
{
    size_t o = 0;
    if (size)
        out[0] = '\0';
    for (size_t i = 0; i < NOPS && o < size; i++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", i ? ", " : "", REGISTRY[i]->name);
}

pk_step *pk_step_new(const char *op, const char *opt_prefix, pk_log *log)
{
    const pki_step_def *def = NULL;
    for (size_t i = 0; op && i < NOPS; i++)
        if (strcmp(op, REGISTRY[i]->name) == 0)
            def = REGISTRY[i];
    if (!def) {
        char list[160];
        op_list(list, sizeof list);
        pk_error(log, PK_E_USAGE, "unknown operation '%s' (%s)", op ? op : "?", list);
        return NULL;
    }
    pk_step *s = calloc(1, sizeof *s);
    if (s) {
        s->prefix = strdup(opt_prefix ? opt_prefix : "");
        s->o = calloc(1, def->opts_size ? def->opts_size : 1);
    }
    if (!s || !s->prefix || !s->o) {
        if (s) {
            free(s->prefix);
            free(s->o);
        }
        free(s);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    s->def = def;
    for (size_t i = 0; i < def->noptions; i++)
        if (def->options[i].kind == PKI_OPT_FRAMES)
            ((pki_frames *)((char *)s->o + def->options[i].offset))->all = true;
    if (def->init)
        def->init(s->o);
    return s;
}

void pk_step_free(pk_step *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ninputs; i++)
        free(s->inputs[i]);
    free(s->inputs);
    for (size_t i = 0; i < s->def->noptions; i++) {
        const pki_option *o = &s->def->options[i];
        char *field = (char *)s->o + o->offset;
        bool shared = false; /* two names of one option (merge's offset, offsets) */
        for (size_t j = 0; j < i; j++) {
            const pki_option *e = &s->def->options[j];
            shared = shared || ((pki_option_is_text(e->kind) || pki_option_is_list(e->kind)) &&
                                e->offset == o->offset);
        }
        if (shared || !(pki_option_is_text(o->kind) || pki_option_is_list(o->kind)))
            continue;
        if (pki_option_is_text(o->kind))
            free(*(char **)field);
        else if (pki_option_is_list(o->kind))
            free(((pki_list *)field)->v);
    }
    free(s->o);
    free(s->prefix);
    free(s);
}

static bool slot_set(pk_step *s, size_t slot, const char *value)
{
    if (slot >= s->ninputs) {
        if (pki_grow_to(&s->inputs, slot + 1, sizeof *s->inputs) != 0)
            return false;
        for (size_t i = s->ninputs; i <= slot; i++)
            s->inputs[i] = NULL;
        s->ninputs = slot + 1;
    }
    free(s->inputs[slot]);
    s->inputs[slot] = strdup(value);
    return s->inputs[slot] != NULL;
}

static int enum_index(const char *choices, const char *v)
{
    int idx = 0;
    size_t n = strlen(v);
    for (const char *p = choices;; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (n && len == n && strncmp(p, v, n) == 0)
            return idx;
        if (!bar)
            return -1;
        p = bar + 1;
    }
}

/* "'text' or 'hybrid'" from "text|hybrid" (empty choices skipped). */
static void enum_list(const char *choices, char *out, size_t size)
{
    size_t o = 0;
    out[0] = '\0';
    int k = 0, total = 0;
    for (const char *p = choices; *p; p++)
        total += *p == '|';
    total += 1;
    if (choices[0] == '|')
        total--;
    for (const char *p = choices; o + 1 < size;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len) {
            k++;
            o += (size_t)snprintf(out + o, size - o, "%s'%.*s'",
                                  k == 1       ? ""
                                  : k == total ? " or "
                                               : ", ",
                                  (int)len, p);
        }
        if (!bar || o >= size)
            break;
        p = bar + 1;
    }
}

/* "bones,morphs,..." or "all" as section bits; false (and *bad at the
 * word) on an unknown word. */
static bool parse_sections(const char *arg, unsigned *out, const char **bad)
{
    *out = 0;
    const char *p = arg;
    for (;;) {
        size_t len = strcspn(p, ",");
        bool ok = false;
        if (len == 3 && strncmp(p, "all", 3) == 0) {
            *out = (1u << PK_SEC_COUNT) - 1;
            ok = true;
        }
        for (int i = 0; i < PK_SEC_COUNT && !ok; i++) {
            const char *w = pk_section_word((pk_section)i);
            if (strlen(w) == len && strncmp(p, w, len) == 0) {
                *out |= 1u << i;
                ok = true;
            }
        }
        if (!ok) {
            *bad = p;
            return false;
        }
        if (!p[len])
            return true;
        p += len + 1;
    }
}

/* A flag's value: none (a bare --flag) is true. */
static bool parse_bool(const char *v, bool *out)
{
    if (!v) {
        *out = true;
        return true;
    }
    return pki_num_bool(v, out);
}

/* Appends one value of size `size` to a repeated option's list. */
static bool list_push(pki_list *l, const void *v, size_t size)
{
    if (pki_grow_to(&l->v, l->n + 1, size) != 0)
        return false;
    memcpy((char *)l->v + l->n * size, v, size);
    l->n++;
    return true;
}

/* Whether a comma list has an item that is empty or blanks only (the
 * selection parser's own trimming, pk_selection_parse). */
static bool has_empty_item(const char *list)
{
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        if (strspn(p, " \t") >= n)
            return true;
        if (!p[n])
            return false;
        p += n + 1;
    }
}

/* A value that is not what the option wants: -1, said. */
static int refuse(pk_log *log, const char *name, const pki_option *o, const char *value)
{
    pk_error(log, PK_E_USAGE, "%s wants %s, not '%s'", name, o->wants, value);
    return -1;
}

/* Reads value into the option's field; -1 (said) when it is not one. */
static int set_value(pk_step *s, const pki_option *o, char *field, const char *name,
                     const char *value, pk_log *log)
{
    switch (o->kind) {
    case PKI_OPT_INPUT:
        return slot_set(s, (size_t)o->slot, value) ? 0 : 1;
    case PKI_OPT_INPUTS:
        return slot_set(s, s->ninputs, value) ? 0 : 1;
    case PKI_OPT_SELECT:
    case PKI_OPT_RULES:
    case PKI_OPT_STRING:
    case PKI_OPT_MODEL: {
        /* an empty item of a selection is a slip of the command line
         * ("a,,b", ","): said now, as every value that is not what the
         * option wants */
        if (o->kind == PKI_OPT_SELECT && has_empty_item(value)) {
            pk_error(log, PK_E_USAGE, "%s wants %s, not '%s' (a name is empty)", name, o->wants,
                     value);
            return -1;
        }
        /* rules are found by name (the shipped ones too) and may include
         * others beside them: none comes from standard input */
        if (o->kind == PKI_OPT_RULES && strcmp(value, "-") == 0) {
            pk_error(log, PK_E_USAGE, "%s wants a rules file by its name, not '-' (standard input)",
                     name);
            return -1;
        }
        char *copy = strdup(value);
        if (!copy)
            return 1;
        *(char **)field = copy;
        return 0;
    }
    case PKI_OPT_BOOL:
        if (!parse_bool(value, (bool *)field)) {
            pk_error(log, PK_E_USAGE, "%s is true or false, not '%s'", name, value);
            return -1;
        }
        return 0;
    case PKI_OPT_U32:
        if (!pki_num_u32(value, (uint32_t *)field)) {
            pk_error(log, PK_E_USAGE, "%s wants %s, not '%s'%s", name, o->wants, value,
                     pki_frames_hint(value, false));
            return -1;
        }
        return 0;
    case PKI_OPT_DOUBLE:
    case PKI_OPT_POSITIVE: {
        double v;
        bool positive = o->kind == PKI_OPT_POSITIVE;
        if (!pki_num_double(value, &v) || !(positive ? v > 0.0 : v >= 0.0) || !isfinite(v))
            return refuse(log, name, o, value);
        *(double *)field = v;
        return 0;
    }
    case PKI_OPT_COUNT: {
        uint32_t v;
        if (!pki_num_u32(value, &v) || v == 0)
            return refuse(log, name, o, value);
        *(uint32_t *)field = v;
        return 0;
    }
    case PKI_OPT_FRAMES: {
        pki_frames *f = (pki_frames *)field;
        if (strcmp(value, "all") == 0)
            f->all = true;
        else if (pki_num_range(value, &f->first, &f->last))
            f->all = false;
        else
            return refuse(log, name, o, value);
        return 0;
    }
    case PKI_OPT_ENUM: {
        int idx = enum_index(o->choices, value);
        if (idx < 0) {
            char list[128];
            enum_list(o->choices, list, sizeof list);
            pk_error(log, PK_E_USAGE, "%s is %s, not '%s'", name, list, value);
            return -1;
        }
        *(int *)field = idx;
        return 0;
    }
    case PKI_OPT_OFFSET: {
        int64_t v;
        if (!pki_num_i64(value, &v)) {
            pk_error(log, PK_E_USAGE, "%s wants %s, not '%s'%s", name, o->wants, value,
                     pki_frames_hint(value, true));
            return -1;
        }
        return list_push((pki_list *)field, &v, sizeof v) ? 0 : 1;
    }
    case PKI_OPT_SECTIONS: {
        unsigned bits;
        const char *bad = NULL;
        if (!parse_sections(value, &bits, &bad)) {
            pk_error(log, PK_E_USAGE, "%s takes %s, not '%s'", name, o->wants, bad);
            return -1;
        }
        return list_push((pki_list *)field, &bits, sizeof bits) ? 0 : 1;
    }
    case PKI_OPT_WITHIN: {
        uint32_t k;
        if (!pki_num_u32(value, &k) || k == 0)
            return refuse(log, name, o, value);
        return list_push((pki_list *)field, &k, sizeof k) ? 0 : 1;
    }
    }
    return 1;
}

const char *pk_step_option_hint(const pk_step *s, const char *key, char *buf, size_t size)
{
    return pki_step_option_hint(s, key, buf, size);
}

int pk_step_set(pk_step *s, const char *key, const char *value, pk_log *log)
{
    size_t row;
    const pki_option *o = pki_step_find_option(s, key, &row);
    char name[64];
    if (!o) {
        const char *near = key ? pki_step_near_option(s, key) : NULL;
        char near_name[64], hint[512];
        if (pki_step_option_hint(s, key, hint, sizeof hint))
            pk_error(log, PK_E_USAGE, "unknown option '%s' for %s: %s",
                     pki_step_spell(s, key, name), s->def->name, hint);
        else if (near)
            pk_error(log, PK_E_USAGE, "unknown option '%s' for %s (did you mean '%s'?)",
                     pki_step_spell(s, key, name), s->def->name,
                     pki_step_spell(s, near, near_name));
        else
            pk_error(log, PK_E_USAGE, "unknown option '%s' for %s",
                     pki_step_spell(s, key ? key : "?", name), s->def->name);
        return -1;
    }
    pki_step_spell(s, o->name, name);
    /* a switch given again takes the last value (--strict --strict=false
     * is not strict), as in GNU tools; any other single value is given
     * once */
    if (s->given[row] && !pki_option_repeats(o) && o->kind != PKI_OPT_BOOL) {
        pk_error(log, PK_E_USAGE, "%s is given twice", name);
        return -1;
    }
    if (o->kind != PKI_OPT_BOOL && (!value || !*value)) {
        pk_error(log, PK_E_USAGE, "%s wants %s", name, o->wants ? o->wants : "a value");
        return -1;
    }
    int rc = set_value(s, o, pki_step_field(s, row), name, value, log);
    if (rc > 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    if (rc < 0)
        return -1;
    /* a value refused by its step's own rule leaves the option unset */
    if (s->def->check_value && s->def->check_value(s, o->name, log) != 0) {
        if (pki_option_is_text(o->kind)) {
            char **field = (char **)pki_step_field(s, row);
            free(*field);
            *field = NULL;
        }
        return -1;
    }
    s->given[row] = true;
    return 0;
}

int pk_step_operand(pk_step *s, const char *value, pk_log *log)
{
    /* the first operand option not given yet; the last repeats when its
     * option does (merge: every input) */
    const char *p = s->def->operands;
    char key[32];
    bool found = false;
    while (*p && !found) {
        size_t n = strcspn(p, ",");
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        p += n + (p[n] == ',');
        found = !pki_step_given(s, key) || (!*p && pk_step_option_repeats(s, key));
    }
    if (!found) {
        pk_error(log, PK_E_USAGE, "%s at a time ('%s' is extra)", s->def->too_many, value);
        return -1;
    }
    return pk_step_set(s, key, value, log);
}

int pk_step_check(const pk_step *s, pk_log *log)
{
    if (s->def->check)
        return s->def->check(s, log);
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    return 0;
}

size_t pk_step_inputs(const pk_step *s, const char *const **names)
{
    *names = (const char *const *)s->inputs;
    return s->ninputs;
}

bool pk_step_strict(const pk_step *s)
{
    return s->strict;
}

/* The rows of rules and models given, in table order: need i is
 * s->ninputs + k for the k-th of them. */
static bool wants_bodies(const pk_step *s)
{
    return s->def->wants_bodies && s->def->wants_bodies(s);
}

/* A model option given as "@auto" to a step that picks a body itself:
 * no file to load (the bodies are a need of their own). */
static bool auto_row(const pk_step *s, const pki_option *o)
{
    const char *v = *(char *const *)((const char *)s->o + o->offset);
    return o->kind == PKI_OPT_MODEL && v && strcmp(v, PKI_AUTO_BODY) == 0 && wants_bodies(s);
}

static const pki_option *thing_row(const pk_step *s, size_t k)
{
    for (size_t i = 0; i < s->def->noptions; i++) {
        const pki_option *o = &s->def->options[i];
        if ((o->kind == PKI_OPT_RULES || o->kind == PKI_OPT_MODEL) && s->given[i] &&
            !auto_row(s, o) && k-- == 0)
            return o;
    }
    return NULL;
}

size_t pk_step_needs(const pk_step *s, pk_step_need *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ninputs; i++, n++)
        if (n < cap) {
            out[n].kind = PK_NEED_DOC;
            out[n].name = s->inputs[i];
            out[n].option = NULL;
        }
    const pki_option *o;
    for (size_t k = 0; (o = thing_row(s, k)) != NULL; k++, n++)
        if (n < cap) {
            out[n].kind = o->kind == PKI_OPT_RULES ? PK_NEED_RULES : PK_NEED_MODEL;
            out[n].name = *(char *const *)((const char *)s->o + o->offset);
            out[n].option = o->name;
        }
    if (wants_bodies(s)) {
        if (n < cap) {
            out[n].kind = PK_NEED_BODIES;
            out[n].name = PKI_AUTO_BODY;
            out[n].option = NULL;
        }
        n++;
    }
    return n;
}

int pk_step_give(pk_step *s, size_t i, const void *thing)
{
    size_t things = 0;
    while (thing_row(s, things))
        things++;
    if (i == s->ninputs + things && wants_bodies(s)) {
        *(const void **)((char *)s->o + s->def->bodies) = thing;
        return 0;
    }
    const pki_option *o = i >= s->ninputs ? thing_row(s, i - s->ninputs) : NULL;
    if (!o)
        return -1;
    *(const void **)((char *)s->o + o->thing) = thing;
    return 0;
}

bool pk_step_reports(const pk_step *s, pk_report_format f)
{
    return (unsigned)f < 32 && (s->def->reports & PKI_REPORT(f));
}

void pk_step_want(pk_step *s, pk_report_format f)
{
    if (s->def->want && pk_step_reports(s, f))
        s->def->want(s, f);
}

const char *pk_step_report_exts(const pk_step *s)
{
    return s->def->report_exts;
}

int pk_step_run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    memset(res, 0, sizeof *res);
    if (pk_step_check(s, log) != 0)
        return -1;
    if (n != s->ninputs) {
        pk_error(log, PK_E_USAGE, "%s: %zu documents for %zu inputs", s->def->name, n, s->ninputs);
        return -1;
    }
    res->free_own = s->def->free_result;
    return s->def->run(s, in, n, res, log);
}

/* ---- groups ---- */

const char *pk_step_group_name(const pk_step *s, bool member)
{
    return member ? s->def->member : s->def->group;
}

void pk_step_set_member(pk_step *s)
{
    if (s && s->def->group)
        s->member = true;
}

/* "dancer 2: " before a message about the group's second member (as is
 * on OOM). */
static void diag_prefix(pk_diag *d, const char *member, size_t i)
{
    size_t n = strlen(d->msg) + strlen(member) + 32;
    char *m = malloc(n);
    if (!m)
        return;
    snprintf(m, n, "%s %zu: %s", member, i, d->msg);
    free(d->msg);
    d->msg = m;
}

/* Whether s[0..n) are steps of one operation that groups. */
static bool one_group(pk_step *const *s, size_t n, pk_log *log)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || s[i]->def != s[0]->def || !s[0]->def->group) {
            pk_error(log, PK_E_USAGE, "steps run as a group are of one operation that groups");
            return false;
        }
    return n > 0;
}

int pk_step_check_group(pk_step *const *s, size_t n, pk_log *log)
{
    if (!one_group(s, n, log))
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t from = pki_mark(log);
        int rc = pk_step_check(s[i], log);
        for (size_t k = from; rc != 0 && k < log->count; k++)
            diag_prefix(&log->items[k], s[0]->def->member, i + 1);
        if (rc != 0)
            return -1;
    }
    return s[0]->def->check_group ? s[0]->def->check_group(s, n, log) : 0;
}

int pk_step_run_group(pk_step *const *s, size_t n, pk_doc *const *in, pk_step_result *res,
                      pk_log *log)
{
    for (size_t i = 0; i < n; i++)
        memset(&res[i], 0, sizeof res[i]);
    if (pk_step_check_group(s, n, log) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        res[i].free_own = s[0]->def->free_result;
    return s[0]->def->run_group(s, n, in, res, log);
}

int pk_step_group_summary(pk_step *const *s, size_t n, const pk_step_result *res, pk_buf *out)
{
    if (n && s[0]->def->group_summary)
        s[0]->def->group_summary(s, n, res, out);
    return out->oom ? -1 : 0;
}

int pk_step_group_report(pk_step *const *s, size_t n, const pk_step_result *res,
                         pk_report_format fmt, pk_buf *out, pk_log *log)
{
    if (!n || !s[0]->def->group_report || !pk_step_reports(s[0], fmt)) {
        pk_error(log, PK_E_USAGE, "%s writes no such report of a group", n ? s[0]->def->name : "?");
        return -1;
    }
    size_t errors = log->errors;
    int rc = s[0]->def->group_report(s, n, res, fmt, out, log);
    if (rc == 0 && !out->oom)
        return 0;
    if (log->errors == errors)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return -1;
}

void pk_step_result_free(pk_step_result *r)
{
    if (!r)
        return;
    pk_doc_free(&r->out);
    if (r->free_own)
        r->free_own(r->own);
    memset(r, 0, sizeof *r);
}

int pk_step_summary(const pk_step *s, const pk_step_result *r, pk_buf *out)
{
    if (s->def->summary)
        s->def->summary(s, r, out);
    return out->oom ? -1 : 0;
}

int pk_step_report_note(const pk_step *s, const pk_step_result *r, pk_report_format fmt,
                        pk_buf *out)
{
    if (s->def->report_note && pk_step_reports(s, fmt))
        s->def->report_note(s, r, fmt, out);
    return out->oom ? -1 : 0;
}

int pk_step_report(const pk_step *s, const pk_step_result *r, pk_report_format fmt, pk_buf *out,
                   pk_log *log)
{
    if (!pk_step_reports(s, fmt)) {
        pk_error(log, PK_E_USAGE, "%s writes no such report", s->def->name);
        return -1;
    }
    size_t errors = log->errors;
    int rc = s->def->report ? s->def->report(s, r, fmt, out, log) : 1;
    if (rc > 0) { /* the summary line */
        size_t before = out->len;
        pk_step_summary(s, r, out);
        if (out->len > before)
            pk_buf_putc(out, '\n');
        rc = 0;
    }
    if (rc == 0 && !out->oom)
        return 0;
    if (log->errors == errors)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return -1;
}

const char *pk_output_refusal(pk_format holds, const pk_step *by, pk_format fmt, int report,
                              const char *path, const char *name, char *why, size_t size)
{
    bool job = name != NULL;
    if (holds != PK_FMT_VMD && holds != PK_FMT_VPD) { /* a report */
        if (fmt == PK_FMT_UNKNOWN && report >= 0 && pk_step_reports(by, (pk_report_format)report))
            return NULL;
        if (job)
            snprintf(why, size, "%s: '%s' is a %s report: write it as %s", path, name,
                     by->def->name, by->def->report_exts);
        else
            snprintf(why, size, "'%s' cannot hold a %s report: name it %s", path, by->def->name,
                     by->def->report_exts);
        return why;
    }
    if (fmt == PK_FMT_VMD || (fmt == PK_FMT_VPD && holds == PK_FMT_VPD))
        return NULL;
    if (fmt == PK_FMT_VPD) /* a motion: only convert takes one pose out of it */
        snprintf(why, size,
                 job ? "%s: '%s' is a motion: a .vpd holds one pose (take one with a step convert: "
                       "{in: %s, to: vpd, frame: N, out: ...})"
                     : "'%s' would hold one frame of a motion: write a .vmd (posekit convert "
                       "--frame N takes one pose out of a motion)",
                 path, name, name);
    else if (!job &&
             (pk_format_from_path(path) == PK_FMT_PMX || pk_format_from_path(path) == PK_FMT_PMD))
        /* the format is told, and it is one posekit reads only */
        snprintf(why, size, "'%s' is named as a model (.pmx, .pmd), which posekit never writes: %s",
                 path, holds == PK_FMT_VMD ? "write the motion as .vmd" : "use .vmd or .vpd");
    else if (!job && holds == PK_FMT_VMD) /* .vpd would be refused next */
        snprintf(why, size, "cannot tell the output format of '%s': use .vmd (%s%s a motion)", path,
                 by ? by->def->name : "it is", by ? " writes" : "");
    else if (!job)
        snprintf(why, size, "cannot tell the output format of '%s': use .vmd or .vpd", path);
    else if (holds == PK_FMT_VMD)
        snprintf(why, size,
                 "%s: '%s' is a motion: write it as .vmd (or take a pose with a step convert: "
                 "{..., to: vpd, frame: N} and write that as .vpd)",
                 path, name);
    else
        snprintf(why, size, "%s: '%s' is a pose: write it as .vpd or .vmd", path, name);
    return why;
}
