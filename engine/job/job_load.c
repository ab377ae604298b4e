/* job_load.c — a job file read and checked (doc/jobs.md):
 *
 *   inputs:  {NAME: PATH, ...}                 VMD or VPD files, PMX or PMD
 *                                              models (pk_file_format)
 *   rules:   {NAME: PATH, ...}                 rule files
 *   steps:   [ {OP: {OPTION: VALUE, ..., out: NAME}}, ... ]
 *                                              run in order; each makes
 *                                              a new named result
 *   outputs: {NAME: PATH | {path: PATH, frame: N, layout: text|hybrid,
 *                           no_morphs: BOOL}, ...}
 *
 * A step's options are the engine's (engine/step/): the same names, values
 * and checks as the command line, set through pk_step_set, so a job and a
 * command accept the same things.  Errors read JOB:LINE:COL.  Paths are
 * relative to the job file's folder.  Running and writing: job_run.c.
 */
#include "job/job.h"
#include "common/grow.h"
#include "common/yaml_extra.h"

#include "util/number.h"
#include "platform/platform.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void err_at(pk_log *log, pki_job_at at, const char *fmt, ...) PK_PRINTF(3, 4);
static void err_at(pk_log *log, pki_job_at at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, PK_ERROR, PK_E_USAGE, -1, at.line, at.col, fmt, ap);
    va_end(ap);
}

static pki_job_at mark(const yaml_node_t *n)
{
    if (!n)
        return (pki_job_at){0, 0};
    return (pki_job_at){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

static char *resolve(const char *dir, const char *path)
{
    return pki_os_join(dir, path);
}

/* An input's path, relative to the job's folder; a built-in body's name
 * ("@classic") stays a name. */
static char *resolve_input(const char *dir, const char *path)
{
    return path[0] == '@' ? strdup(path) : resolve(dir, path);
}

pki_job_item *pki_job_find(const pk_job *j, const char *name)
{
    for (size_t i = 0; i < j->nitems; i++)
        if (strcmp(j->items[i].name, name) == 0)
            return &j->items[i];
    return NULL;
}

static pki_job_item *add_item(pk_job *j, const char *name, pki_job_at at, pk_log *log)
{
    pki_job_item *old = pki_job_find(j, name);
    if (old) {
        err_at(log, at, "the name '%s' is already used (line %d)", name, old->at.line);
        return NULL;
    }
    if (pki_grow_reserve(&j->items, &j->cap_items, j->nitems + 1, sizeof *j->items) != 0) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    pki_job_item *it = &j->items[j->nitems];
    memset(it, 0, sizeof *it);
    it->name = strdup(name);
    it->at = at;
    if (!it->name) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    j->nitems++;
    return it;
}

/* ---- YAML access ---- */

typedef struct yctx {
    yaml_document_t *doc;
    pk_log *log;
} yctx;

static yaml_node_t *node(const yctx *y, int id)
{
    return yaml_document_get_node(y->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *want_scalar(const yctx *y, const yaml_node_t *n, const char *what)
{
    const char *s = scalar(n);
    if (!s || !*s)
        err_at(y->log, mark(n), "%s must be a non-empty text", what);
    return s && *s ? s : NULL;
}

static bool want_u32(const yctx *y, const yaml_node_t *n, const char *what, uint32_t *out)
{
    if (!pki_num_u32(scalar(n), out)) {
        err_at(y->log, mark(n), "%s must be a whole number of frames (0 or more)", what);
        return false;
    }
    return true;
}

static bool want_bool(const yctx *y, const yaml_node_t *n, const char *what, bool *out)
{
    if (pki_num_bool(scalar(n), out))
        return true;
    err_at(y->log, mark(n), "%s must be true or false", what);
    return false;
}

/* ---- steps ---- */

/* The messages a step's setter or check logged, moved to the job's log at
 * `at` (the key or value they are about). */
static bool relog(pk_log *tmp, pk_log *log, pki_job_at at)
{
    bool ok = tmp->errors == 0;
    for (size_t i = 0; i < tmp->count; i++)
        pk_log_add(log, tmp->items[i].severity, tmp->items[i].code, -1, at.line, at.col, "%s",
                   tmp->items[i].msg);
    pk_log_free(tmp);
    pk_log_init(tmp);
    return ok;
}

/* What an option names: input options a motion or pose defined above,
 * rules a rule set, models a model input (pk_need_kind); other options
 * take values. */
typedef enum ref {
    REF_NONE = -1,
    REF_DOC = PK_NEED_DOC,
    REF_RULES = PK_NEED_RULES,
    REF_MODEL = PK_NEED_MODEL
} ref;

static const char *ref_what(const pki_job_item *it)
{
    return it->is_rules ? "a rule set" : it->is_model ? "a model" : "a motion, pose or report";
}

static bool check_ref(pk_job *j, const yctx *y, const yaml_node_t *n, const char *what, ref want)
{
    const char *s = scalar(n);
    pki_job_item *it = s ? pki_job_find(j, s) : NULL;
    if (!it) {
        err_at(y->log, mark(n),
               "%s '%s' is not defined above (inputs, rules or an earlier step's out)", what,
               s ? s : "?");
        return false;
    }
    ref has = it->is_rules ? REF_RULES : it->is_model ? REF_MODEL : REF_DOC;
    if (has == REF_DOC && want == REF_DOC && it->is_report) {
        /* known when the job is loaded: no step need run to find it */
        err_at(y->log, mark(n), "%s '%s' is a %s report, not a motion or pose", what, s,
               pk_step_name(it->by));
        return false;
    }
    if (has != want) {
        static const char *const WANT[] = {"a motion or pose", "rules",
                                           "a model (a PMX or PMD input)"};
        err_at(y->log, mark(n), "%s '%s' names %s, not %s", what, s, ref_what(it), WANT[want]);
        return false;
    }
    return true;
}

/* One `key: value` (a list sets the option once per pki_job_item). */
static bool set_param(pk_job *j, const yctx *y, pki_job_step *js, const char *key,
                      const yaml_node_t *k, const yaml_node_t *v)
{
    pk_log tmp;
    pk_log_init(&tmp);
    if (pk_step_option(js->step, key) < 0) {
        pk_step_set(js->step, key, "", &tmp); /* "OP has no option KEY" */
        return relog(&tmp, y->log, mark(k));
    }
    ref want = (ref)pk_step_option_need(js->step, key);
    if (v->type == YAML_SEQUENCE_NODE) {
        if (!pk_step_option_repeats(js->step, key)) {
            err_at(y->log, mark(v), "%s takes one value, not a list", key);
            return false;
        }
        size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
        if (n == 0) {
            err_at(y->log, mark(v), "%s is an empty list", key);
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            const yaml_node_t *e = node(y, v->data.sequence.items.start[i]);
            const char *s = want_scalar(y, e, key);
            if (!s || (want != REF_NONE && !check_ref(j, y, e, key, want)))
                return false;
            pk_step_set(js->step, key, s, &tmp);
            if (!relog(&tmp, y->log, mark(e)))
                return false;
        }
        return true;
    }
    const char *s = scalar(v);
    if (!s) {
        err_at(y->log, mark(v), "%s must be a value or a list of values", key);
        return false;
    }
    /* a model the step picks from the built-in bodies names no input */
    bool picked = want == REF_MODEL && strcmp(s, "@auto") == 0;
    if (want != REF_NONE && !picked && !check_ref(j, y, v, key, want))
        return false;
    pk_step_set(js->step, key, s, &tmp);
    return relog(&tmp, y->log, mark(v));
}

/* "convert, diff, ..., check": every step, into the caller's buffer (no
 * static storage: jobs may be loaded on several threads at once). */
typedef struct op_names {
    char s[256];
} op_names;

static const char *op_list(op_names *buf)
{
    size_t o = 0;
    buf->s[0] = '\0';
    for (size_t i = 0; pk_step_op_name(i) && o < sizeof buf->s; i++)
        o += (size_t)snprintf(buf->s + o, sizeof buf->s - o, "%s%s", i ? ", " : "",
                              pk_step_op_name(i));
    return buf->s;
}

/* The result a step names: a new item made by it. */
static bool step_result(pk_job *j, pki_job_step *js, pki_job_at out_at, pk_log *log)
{
    bool report = pk_step_makes(js->step, PK_FMT_VMD) == PK_FMT_UNKNOWN;
    pki_job_item *res = add_item(j, js->out, out_at, log);
    if (res) {
        res->at = js->at; /* a result is its step's */
        res->by = js->step;
        res->is_report = report;
    }
    return res != NULL;
}

/* A step's `dancers:` list (dl): one step per member, each taking the
 * step's other parameters (common, the mapping vn without dancers) and
 * its own, then its own out; the members checked alone and together. */
static bool parse_group(pk_job *j, const yctx *y, const char *opname, const yaml_node_t *vn,
                        const yaml_node_t *dl, pki_job_at at)
{
    pk_log *log = y->log;
    const char *group = NULL, *member = NULL;
    {
        pk_log quiet;
        pk_log_init(&quiet);
        pk_step *probe = pk_step_new(opname, "", &quiet);
        group = probe ? pk_step_group_name(probe, false) : NULL;
        member = probe ? pk_step_group_name(probe, true) : NULL;
        pk_step_free(probe);
        pk_log_free(&quiet);
    }
    size_t n = dl->type == YAML_SEQUENCE_NODE
                   ? (size_t)(dl->data.sequence.items.top - dl->data.sequence.items.start)
                   : 0;
    if (!n) {
        err_at(log, mark(dl), "%s is a list of %ss, each {in: NAME, ..., out: NAME}", group,
               member);
        return false;
    }
    size_t first = j->nsteps;
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *dn = node(y, dl->data.sequence.items.start[i]);
        if (dn->type != YAML_MAPPING_NODE) {
            err_at(log, mark(dn), "a %s is a mapping {in: NAME, ..., out: NAME}", member);
            return false;
        }
        pki_job_step *js = pki_grow_push(&j->steps, &j->nsteps, &j->cap_steps, sizeof *j->steps);
        if (!js)
            return false;
        js->at = mark(dn);
        js->member = true;
        pk_log tmp;
        pk_log_init(&tmp);
        js->step = pk_step_new(opname, "", &tmp);
        pk_log_free(&tmp);
        if (!js->step)
            return false;
        pk_step_set_member(js->step);
        pki_job_at out_at = js->at;
        /* the common parameters, then the member's own */
        for (int own = 0; own < 2; own++) {
            const yaml_node_t *map = own ? dn : vn;
            for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
                 p < map->data.mapping.pairs.top; p++) {
                const yaml_node_t *k = node(y, p->key), *v = node(y, p->value);
                const char *key = scalar(k);
                if (!key) {
                    err_at(log, mark(k), "a parameter name must be a text");
                    return false;
                }
                if (strcmp(key, group) == 0) {
                    if (own) {
                        err_at(log, mark(k), "a %s has no %s of its own", member, group);
                        return false;
                    }
                    continue;
                }
                if (!own && strcmp(key, "out") == 0) {
                    err_at(log, mark(k), "out is each %s's (in the %s list)", member, group);
                    return false;
                }
                const yaml_node_t *before = own ? pki_yaml_earlier_key(y->doc, dn, p) : NULL;
                for (yaml_node_pair_t *c = vn->data.mapping.pairs.start;
                     own && !before && c < vn->data.mapping.pairs.top; c++) {
                    const char *ck = scalar(node(y, c->key));
                    if (ck && strcmp(ck, key) == 0)
                        before = node(y, c->key);
                }
                if (before) {
                    err_at(log, mark(k), "parameter '%s' is given twice (first on line %d)", key,
                           mark(before).line);
                    return false;
                }
                if (own && strcmp(key, "out") == 0) {
                    const char *o = want_scalar(y, v, "out");
                    if (!o || !(j->steps[j->nsteps - 1].out = strdup(o)))
                        return false;
                    out_at = mark(v);
                    continue;
                }
                if (!set_param(j, y, &j->steps[j->nsteps - 1], key, k, v))
                    return false;
            }
        }
        js = &j->steps[j->nsteps - 1];
        pk_step_check(js->step, &tmp);
        if (!relog(&tmp, log, js->at))
            return false;
        if (!js->out) {
            err_at(log, js->at, "a %s needs 'out'", member);
            return false;
        }
        if (!step_result(j, js, out_at, log))
            return false;
    }
    j->steps[first].group = n;
    pk_step **steps = calloc(n, sizeof *steps);
    if (!steps)
        return false;
    for (size_t i = 0; i < n; i++)
        steps[i] = j->steps[first + i].step;
    pk_log tmp;
    pk_log_init(&tmp);
    pk_step_check_group(steps, n, &tmp);
    free(steps);
    return relog(&tmp, log, at);
}

static bool parse_step(pk_job *j, const yctx *y, const yaml_node_t *n)
{
    pk_log *log = y->log;
    pki_job_step *js = pki_grow_push(&j->steps, &j->nsteps, &j->cap_steps, sizeof *j->steps);
    if (!js)
        return false;
    js->at = mark(n);
    pki_job_at out_at = js->at; /* the out: value's place, once read */
    if (n->type != YAML_MAPPING_NODE ||
        n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1) {
        op_names ops;
        err_at(log, mark(n), "a step is one operation: {OP: {...}} (%s)", op_list(&ops));
        return false;
    }
    yaml_node_pair_t *pair = n->data.mapping.pairs.start;
    const yaml_node_t *kn = node(y, pair->key), *vn = node(y, pair->value);
    const char *opname = scalar(kn);
    pk_log tmp;
    pk_log_init(&tmp);
    js->step = pk_step_new(opname ? opname : "?", "", &tmp);
    if (!js->step) {
        pk_log_free(&tmp);
        op_names ops;
        const char *words[64];
        size_t nw = 0;
        while (nw < 64 && pk_step_op_name(nw)) {
            words[nw] = pk_step_op_name(nw);
            nw++;
        }
        long near = opname ? pki_nearest_word(opname, words, nw) : -1;
        if (near >= 0) /* as the command line's "no such command" */
            err_at(log, mark(kn), "unknown step '%s' (did you mean '%s'?)", opname, words[near]);
        else
            err_at(log, mark(kn), "unknown step '%s' (%s)", opname ? opname : "?", op_list(&ops));
        return false;
    }
    if (vn->type != YAML_MAPPING_NODE) {
        err_at(log, mark(vn), "the parameters of %s must be a mapping", opname);
        return false;
    }
    const char *group = pk_step_group_name(js->step, false);
    for (yaml_node_pair_t *p = vn->data.mapping.pairs.start;
         group && p < vn->data.mapping.pairs.top; p++) {
        const char *key = scalar(node(y, p->key));
        if (key && strcmp(key, group) == 0) {
            /* its members are the steps; this one was a name holder */
            pki_job_at at = js->at;
            pk_step_free(js->step);
            j->nsteps--;
            return parse_group(j, y, opname, vn, node(y, p->value), at);
        }
    }
    for (yaml_node_pair_t *p = vn->data.mapping.pairs.start; p < vn->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(y, p->key), *v = node(y, p->value);
        const char *key = scalar(k);
        const yaml_node_t *first = pki_yaml_earlier_key(y->doc, vn, p);
        if (key && first) {
            err_at(log, mark(k), "parameter '%s' is given twice (first on line %d)", key,
                   mark(first).line);
            return false;
        }
        if (key && strcmp(key, "out") == 0) {
            const char *o = want_scalar(y, v, "out");
            if (!o || !(js->out = strdup(o)))
                return false;
            out_at = mark(v);
            continue;
        }
        if (!key) {
            err_at(log, mark(k), "a parameter name must be a text");
            return false;
        }
        if (!set_param(j, y, js, key, k, v))
            return false;
    }
    pk_step_check(js->step, &tmp);
    if (!relog(&tmp, log, js->at))
        return false;
    /* every step that makes a motion or pose names its result; a report
     * alone may be wanted for its summary (the run's report line) */
    bool report = pk_step_makes(js->step, PK_FMT_VMD) == PK_FMT_UNKNOWN;
    if (!js->out && !report) {
        err_at(log, js->at, "%s needs 'out'", opname);
        return false;
    }
    return !js->out || step_result(j, js, out_at, log);
}

char *pki_job_stem(const char *file)
{
    const char *base = pki_os_base_name(file);
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    return s;
}

char *pki_job_name_output(const char *path, const char *stem)
{
    size_t k = strlen(PKI_JOB_STEM), ls = strlen(stem), n = 0;
    for (const char *p = strstr(path, PKI_JOB_STEM); p; p = strstr(p + k, PKI_JOB_STEM))
        n++;
    char *out = malloc(strlen(path) + n * ls + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = path; *p;) {
        if (strncmp(p, PKI_JOB_STEM, k) == 0) {
            memcpy(o, stem, ls);
            o += ls;
            p += k;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

/* The input "{each}": the file of this run of many (--each), taken as
 * given (relative to the current folder, as the pattern was). */
static bool each_input(pk_job *j, const yctx *y, pki_job_item *it)
{
    if (!j->each) {
        err_at(y->log, it->path_at,
               "input '%s' is " PKI_JOB_EACH ": the job runs once per file, with --each PATTERN",
               it->name);
        return false;
    }
    if (j->each_used) {
        err_at(y->log, it->path_at, "input '%s': only one input can be " PKI_JOB_EACH, it->name);
        return false;
    }
    j->each_used = true;
    it->path = strdup(j->each);
    return it->path != NULL;
}

static bool parse_named_paths(pk_job *j, const yctx *y, const yaml_node_t *n, bool rules)
{
    if (n->type != YAML_MAPPING_NODE) {
        err_at(y->log, mark(n), "%s must be a mapping of NAME: PATH", rules ? "rules" : "inputs");
        return false;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(y, p->key), *v = node(y, p->value);
        const char *name = want_scalar(y, k, "a name");
        const char *path = want_scalar(y, v, "a path");
        if (!name || !path)
            return false;
        pki_job_item *it = add_item(j, name, mark(k), y->log);
        if (!it)
            return false;
        it->is_rules = rules;
        it->path_at = mark(v);
        if (!rules && strcmp(path, PKI_JOB_EACH) == 0) {
            if (!each_input(j, y, it))
                return false;
        } else {
            it->path = resolve_input(j->dir, path);
        }
        pk_format f = it->path && !rules ? pk_file_format(it->path) : PK_FMT_UNKNOWN;
        it->is_model = f == PK_FMT_PMX || f == PK_FMT_PMD || f == PK_FMT_BODY;
        it->written = rules ? strdup(path) : NULL;
        if (!it->path || (rules && !it->written))
            return false;
    }
    return true;
}

/* A key of mapping map before pair p that is key spelled either way
 * (no_morphs, no-morphs), or NULL. */
static const yaml_node_t *earlier_spelling(const yctx *y, const yaml_node_t *map,
                                           const yaml_node_pair_t *p, const char *key)
{
    for (const yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
        const yaml_node_t *qk = node(y, q->key);
        const char *a = scalar(qk), *b = key;
        if (!a)
            continue;
        while (*a && *b && (*a == *b || ((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return qk;
    }
    return NULL;
}

static bool parse_output_path(pk_job *j, const yctx *y, const yaml_node_t *v, size_t idx,
                              const char *name, const char *path);

static bool parse_output(pk_job *j, const yctx *y, const yaml_node_t *k, const yaml_node_t *v,
                         size_t idx)
{
    pk_job_output *o = &j->outs[idx];
    pki_job_out *os = &j->ospec[idx];
    memset(os, 0, sizeof *os);
    os->at = mark(k);
    const char *name = want_scalar(y, k, "an output name");
    if (!name)
        return false;
    pki_job_item *it = pki_job_find(j, name);
    if (!it) {
        err_at(y->log, mark(k), "output '%s' names no input or step result", name);
        return false;
    }
    if (it->is_rules) {
        err_at(y->log, mark(k),
               "output '%s' is a rule set: posekit reads rule files, outputs write inputs and "
               "step results",
               name);
        return false;
    }
    if (it->is_model) {
        err_at(y->log, mark(k), "output '%s' is a model: posekit reads models, it writes none",
               name);
        return false;
    }
    o->name = strdup(name);
    const char *path = NULL;
    os->path_at = mark(v);
    if (v->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top;
             p++) {
            const yaml_node_t *kk = node(y, p->key), *vv = node(y, p->value);
            const char *key = scalar(kk);
            const yaml_node_t *first = key ? earlier_spelling(y, v, p, key) : NULL;
            if (first) {
                err_at(y->log, mark(kk), "'%s' is given twice (first on line %d)", key,
                       (int)first->start_mark.line + 1);
                return false;
            }
            bool ok;
            if (key && strcmp(key, "path") == 0) {
                ok = (path = want_scalar(y, vv, "path")) != NULL;
                os->path_at = mark(vv);
            } else if (key && strcmp(key, "frame") == 0) {
                ok = os->frame_set = want_u32(y, vv, "frame", &os->frame);
                os->frame_at = mark(kk);
            } else if (key && (strcmp(key, "no_morphs") == 0 || strcmp(key, "no-morphs") == 0)) {
                ok = os->no_morphs_set = want_bool(y, vv, "no_morphs", &os->vpd.no_morphs);
                if (os->vpd.no_morphs) /* no_morphs: false is the key left out */
                    os->vpd_at = mark(kk);
            } else if (key && strcmp(key, "layout") == 0) {
                os->vpd_at = mark(kk);
                const char *l = scalar(vv);
                ok = l && (strcmp(l, "text") == 0 || strcmp(l, "hybrid") == 0);
                os->layout_set = ok;
                if (ok)
                    os->vpd.layout = strcmp(l, "hybrid") == 0 ? PK_VPD_HYBRID : PK_VPD_TEXT;
                else
                    err_at(y->log, mark(vv), "layout is text or hybrid");
            } else {
                err_at(y->log, mark(kk), "unknown output key '%s' (path, frame, layout, no_morphs)",
                       key ? key : "?");
                ok = false;
            }
            if (!ok)
                return false;
        }
        if (!path) {
            err_at(y->log, mark(v), "output '%s' needs a path", name);
            return false;
        }
    } else {
        path = want_scalar(y, v, "an output path");
        if (!path)
            return false;
    }
    char *named = NULL; /* path with {stem} replaced */
    if (strstr(path, PKI_JOB_STEM)) {
        if (!j->each) {
            err_at(y->log, os->path_at,
                   "output '%s': " PKI_JOB_STEM " names the file of a run of many (--each PATTERN)",
                   name);
            return false;
        }
        if (!(named = pki_job_name_output(path, j->stem)))
            return false;
        path = named;
    }
    o->path = resolve(j->dir, path);
    bool ok = parse_output_path(j, y, v, idx, name, path);
    free(named);
    return ok;
}

/* The checks of output idx's path (as written, {stem} replaced). */
static bool parse_output_path(pk_job *j, const yctx *y, const yaml_node_t *v, size_t idx,
                              const char *name, const char *path)
{
    pk_job_output *o = &j->outs[idx];
    pki_job_out *os = &j->ospec[idx];
    pki_job_item *it = pki_job_find(j, name);
    if (!o->name || !o->path)
        return false;
    /* a folder is refused before anything runs, as the command's -o is */
    size_t n = strlen(path);
    if (pki_os_is_separator(path[n - 1]) || pk_path_kind_of(o->path) == PK_PATH_FOLDER) {
        err_at(y->log, os->path_at,
               "output '%s' names a folder ('%s'): name the file to write in it", name, path);
        return false;
    }
    /* Missing folders are made when writing; one that is a file cannot
     * be: refused now, before anything runs, not after the steps. */
    char *blocker = pki_os_file_above(o->path);
    if (blocker) {
        err_at(y->log, os->path_at,
               "output '%s' cannot be written: '%s' is a file, not a folder to write in", name,
               blocker);
        free(blocker);
        return false;
    }
    int report;
    os->fmt = pk_output_format(path, &report);
    /* output keys that would do nothing are errors, as the commands'
     * options that would do nothing */
    if ((os->layout_set || (os->no_morphs_set && os->vpd.no_morphs)) && os->fmt != PK_FMT_VPD) {
        err_at(y->log, os->vpd_at, "layout and no_morphs apply to a .vpd output; '%s' is not one",
               path);
        return false;
    }
    if (os->frame_set && os->fmt != PK_FMT_VMD) {
        err_at(y->log, os->frame_at,
               "frame applies to a pose written as .vmd (its keys' frame); '%s' is not a .vmd",
               path);
        return false;
    }
    os->report = report < 0 ? PK_REPORT_TEXT : (pk_report_format)report;
    os->device =
        os->fmt == PK_FMT_UNKNOWN && report < 0 && pk_path_kind_of(o->path) == PK_PATH_OTHER;
    if (os->fmt == PK_FMT_UNKNOWN && report < 0 && !os->device) {
        err_at(y->log, mark(v),
               "cannot tell the format of '%s': use .vmd, .vpd (motions and "
               "poses), .txt, .json, .csv (diff and check reports), .yaml (check's suggested "
               "rules) or .svg (diff's and draw's pictures)",
               path);
        return false;
    }
    if (it->is_report) /* diff: a picture keeps its heatmap's bins */
        pk_step_want(it->by, os->report);
    /* An output never replaces the job file itself, one of its inputs or
     * rule files. */
    if (j->path && pk_path_same_target(j->path, o->path)) {
        err_at(y->log, mark(v), "'%s' is the job file itself: it would be overwritten", path);
        return false;
    }
    for (size_t i = 0; i < j->nitems; i++)
        if (j->items[i].path && pk_path_same_target(j->items[i].path, o->path)) {
            err_at(y->log, mark(v), "'%s' is the job's %s '%s': it would be overwritten", path,
                   j->items[i].is_rules ? "rule file" : "input", j->items[i].name);
            return false;
        }
    /* each output's key is worked out once (it resolves links and
     * folders), then compared with every earlier one's */
    if (!(os->key = pk_path_target_key(o->path)))
        return false;
    for (size_t i = 0; i < idx; i++) {
        const char *other = j->ospec[i].key;
        if (os->device && j->ospec[i].device) /* /dev/null twice overwrites nothing */
            continue;
        if (strcmp(other, os->key) == 0 || pk_path_same_file(j->outs[i].path, o->path)) {
            err_at(y->log, mark(v), "'%s' is written twice (line %d)", path, j->ospec[i].at.line);
            return false;
        }
        bool in = pki_os_key_inside(other, os->key);
        if (in || pki_os_key_inside(os->key, other)) {
            err_at(y->log, mark(v),
                   "output '%s' would be written %s output '%s' (line %d): a file "
                   "cannot be a folder too",
                   name, in ? "inside" : "around", j->outs[i].name, j->ospec[i].at.line);
            return false;
        }
    }
    return true;
}

static bool parse_root(pk_job *j, const yctx *y)
{
    yaml_node_t *root = yaml_document_get_root_node(y->doc);
    if (!root) {
        err_at(y->log, (pki_job_at){1, 1}, "the job file is empty");
        return false;
    }
    if (root->type != YAML_MAPPING_NODE) {
        err_at(y->log, mark(root), "a job is a mapping with inputs, rules, steps and outputs");
        return false;
    }
    const yaml_node_t *sec[4] = {NULL, NULL, NULL, NULL};
    static const char *const SEC[4] = {"inputs", "rules", "steps", "outputs"};
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        const yaml_node_t *k = node(y, p->key);
        const char *key = scalar(k);
        int found = -1;
        for (int i = 0; key && i < 4; i++)
            if (strcmp(key, SEC[i]) == 0)
                found = i;
        long near = found < 0 && key ? pki_nearest_word(key, SEC, 4) : -1;
        if (near >= 0) {
            err_at(y->log, mark(k), "unknown key '%s' (did you mean '%s'?)", key, SEC[near]);
            return false;
        }
        if (found < 0) {
            char all[64];
            err_at(y->log, mark(k), "unknown key '%s' (%s)", key ? key : "?",
                   pki_word_list(all, sizeof all, SEC, 4));
            return false;
        }
        const yaml_node_t *first = pki_yaml_earlier_key(y->doc, root, p);
        if (first) {
            err_at(y->log, mark(k), "'%s' is given twice (first on line %d)", key,
                   mark(first).line);
            return false;
        }
        sec[found] = node(y, p->value);
    }
    if (!sec[0] || !sec[3]) {
        err_at(y->log, mark(root), "a job needs inputs and outputs");
        return false;
    }
    if (!parse_named_paths(j, y, sec[0], false))
        return false;
    if (j->each && !j->each_used) {
        err_at(y->log, mark(sec[0]),
               "no input is " PKI_JOB_EACH ": name the one that --each gives each file "
               "(dance: \"" PKI_JOB_EACH "\")");
        return false;
    }
    if (sec[1] && !pki_yaml_is_null(sec[1]) && !parse_named_paths(j, y, sec[1], true))
        return false;
    if (sec[2] && sec[2]->type == YAML_SEQUENCE_NODE) {
        size_t n = (size_t)(sec[2]->data.sequence.items.top - sec[2]->data.sequence.items.start);
        for (size_t i = 0; i < n; i++)
            if (!parse_step(j, y, node(y, sec[2]->data.sequence.items.start[i])))
                return false;
    } else if (sec[2] && !pki_yaml_is_null(sec[2])) {
        err_at(y->log, mark(sec[2]), "steps must be a list");
        return false;
    }
    const yaml_node_t *outs = sec[3];
    if (outs->type != YAML_MAPPING_NODE) {
        err_at(y->log, mark(outs), "outputs must be a mapping of NAME: PATH");
        return false;
    }
    if (outs->data.mapping.pairs.top == outs->data.mapping.pairs.start) {
        /* a job that writes nothing would run every step for nothing */
        err_at(y->log, mark(outs),
               "outputs is empty: name at least one result to write (NAME: PATH)");
        return false;
    }
    size_t n = (size_t)(outs->data.mapping.pairs.top - outs->data.mapping.pairs.start);
    j->outs = calloc(n, sizeof *j->outs);
    j->ospec = calloc(n, sizeof *j->ospec);
    if (!j->outs || !j->ospec)
        return false;
    for (size_t i = 0; i < n; i++) {
        yaml_node_pair_t *p = &outs->data.mapping.pairs.start[i];
        j->nouts = i + 1;
        pk_buf_init(&j->outs[i].data);
        const yaml_node_t *first = pki_yaml_earlier_key(y->doc, outs, p);
        if (first) {
            const yaml_node_t *kn = node(y, p->key);
            err_at(y->log, mark(kn), "output '%s' is given twice (first on line %d)", scalar(kn),
                   (int)first->start_mark.line + 1);
            return false;
        }
        if (!parse_output(j, y, node(y, p->key), node(y, p->value), i))
            return false;
    }
    return true;
}

static void mark_used(const pk_job *j, const char *name, bool *used)
{
    const pki_job_item *it = name ? pki_job_find(j, name) : NULL;
    if (it)
        used[it - j->items] = true;
}

/* An input, rule set or step result that no step and no output names is
 * a warning at its entry: likely a typo in `outputs` or in a step (the
 * step still runs, the file is still read). */
static bool warn_unused(const pk_job *j, pk_log *log)
{
    bool *used = calloc(j->nitems ? j->nitems : 1, sizeof *used);
    if (!used)
        return false;
    for (size_t k = 0; k < j->nsteps; k++) {
        const pk_step *st = j->steps[k].step;
        size_t n = pk_step_needs(st, NULL, 0);
        pk_step_need *need = calloc(n ? n : 1, sizeof *need);
        if (!need) {
            free(used);
            return false;
        }
        pk_step_needs(st, need, n);
        for (size_t i = 0; i < n; i++)
            mark_used(j, need[i].name, used);
        free(need);
    }
    for (size_t i = 0; i < j->nouts; i++)
        mark_used(j, j->outs[i].name, used);
    for (size_t i = 0; i < j->nitems; i++) {
        const pki_job_item *it = &j->items[i];
        if (used[i])
            continue;
        bool input = it->path != NULL;
        pk_log_add(log, PK_WARNING, PK_E_NO_EFFECT, -1, it->at.line, it->at.col,
                   "%s '%s' is never used: no step and no output names it",
                   it->is_rules ? "rule set"
                   : input      ? "input"
                                : "step result",
                   it->name);
    }
    free(used);
    return true;
}

pk_job *pk_job_load(const char *path, pk_log *log)
{
    return pki_job_load_each(path, NULL, log);
}

pk_job *pki_job_load_each(const char *path, const char *each, pk_log *log)
{
    pk_job *j = calloc(1, sizeof *j);
    if (!j) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    pk_buf_init(&j->report);
    j->path = strdup(path);
    j->dir = pki_os_dir_of(path); /* "/x.yaml" keeps "/" */
    if (each) {
        j->each = strdup(each);
        j->stem = pki_job_stem(each);
    }
    if (!j->path || !j->dir || (each && (!j->each || !j->stem))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        pk_job_free(j);
        return NULL;
    }
    pk_bytes bytes;
    size_t from = log->count; /* what is said from here on is about the job file */
    if (pk_file_read(path, &bytes, log) != 0) {
        pk_job_free(j);
        return NULL;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    bool ok = false, have_doc = false;
    const char *mmd = pki_yaml_mmd_file(bytes.data, bytes.len);
    if (mmd)
        pk_log_add(log, PK_ERROR, PK_E_USAGE, -1, 0, 0,
                   "%s, not a job file (a job is YAML: doc/jobs.md; the files it works on are "
                   "its inputs)",
                   mmd);
    else if (yaml_parser_initialize(&parser)) {
        if (!pki_yaml_load(&parser, bytes.data, bytes.len, &doc)) {
            char why[512];
            int line, col;
            pki_yaml_problem_at(&parser, bytes.data, bytes.len, &line, &col);
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, -1, line, col, "%s",
                       pki_yaml_syntax_error(&parser, why, sizeof why));
        } else {
            have_doc = true;
            int dl, dc;
            if (pki_yaml_has_second_document(&parser, &dl, &dc)) {
                pk_log_add(log, PK_ERROR, PK_E_DAMAGED, -1, dl, dc,
                           "a job file holds one YAML document; a second one starts here");
            } else {
                yctx y = {&doc, log};
                ok = parse_root(j, &y) && warn_unused(j, log);
            }
            if (!ok && log->errors == 0)
                pk_error(log, PK_E_NO_MEMORY, "out of memory");
        }
        yaml_parser_delete(&parser);
    } else {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    }
    if (have_doc)
        yaml_document_delete(&doc);
    pk_bytes_free(&bytes);
    pk_log_place(log, from, path);
    if (!ok) {
        pk_job_free(j);
        return NULL;
    }
    return j;
}

void pki_job_item_clear(pki_job_item *it)
{
    pk_motion_free(it->motion);
    pk_pose_free(it->pose);
    pk_rules_free(it->rules);
    pk_model_free(it->model);
    pk_step_result_free(it->report);
    free(it->report);
    it->motion = NULL;
    it->pose = NULL;
    it->rules = NULL;
    it->model = NULL;
    it->report = NULL;
    it->kind = PKI_JOB_NONE;
}

void pk_job_free(pk_job *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->nitems; i++) {
        pki_job_item_clear(&j->items[i]);
        free(j->items[i].name);
        free(j->items[i].path);
        free(j->items[i].written);
    }
    free(j->items);
    for (size_t i = 0; i < j->nsteps; i++) {
        pk_step_free(j->steps[i].step);
        free(j->steps[i].out);
    }
    free(j->steps);
    for (size_t i = 0; i < j->nouts; i++) {
        free(j->outs[i].name);
        free(j->outs[i].path);
        pk_buf_free(&j->outs[i].data);
        free(j->ospec[i].key);
    }
    free(j->outs);
    free(j->ospec);
    pk_buf_free(&j->report);
    pk_bodies_free(j->bodies);
    free(j->each);
    free(j->stem);
    free(j->path);
    free(j->dir);
    free(j);
}
