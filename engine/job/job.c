/* job.c — a whole pipeline from one YAML file (README "Job files").
 *
 *   inputs:  {NAME: PATH, ...}                 VMD or VPD files
 *   rules:   {NAME: PATH, ...}                 rule files
 *   steps:   [ {OP: {PARAM: VALUE, ...}}, ... ] run in order; each makes
 *                                              a new named result (out:)
 *   outputs: {NAME: PATH | {path: PATH, frame: N, layout: text|hybrid,
 *                           no_morphs: BOOL}, ...}
 *
 * Paths are relative to the job file's folder.  Three phases, so that an
 * error anywhere leaves the disk untouched:
 *   pk_job_load   parse and check the whole file (keys, types, names
 *                 defined before use, output formats) — JOB:LINE:COL;
 *   pk_job_run    read every input and rule file, run every step, encode
 *                 every output into memory;
 *   pk_job_write  create missing output folders, write every output to
 *                 its temporary file, then rename them all into place.
 */
#include "posekit.h"
#include "platform/platform.h"
#include "rules/yaml_extra.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* ---- the parsed job ---- */

typedef enum op {
    OP_OVERLAY,
    OP_RENAME,
    OP_RETARGET,
    OP_MIRROR,
    OP_MERGE,
    OP_CONVERT,
    OP_DIFF,
    OP_COUNT
} op;

static const char *const OP_NAMES[OP_COUNT] = {"overlay", "rename",  "retarget", "mirror",
                                               "merge",   "convert", "diff"};

typedef struct where {
    int line, col;
} where;

typedef enum vkind { V_NONE, V_MOTION, V_POSE, V_REPORT } vkind;

/* A named thing: an input, a rule set or a step's result. */
typedef struct item {
    char *name;
    char *path; /* inputs and rules: resolved path */
    where at;
    bool is_rules;
    vkind kind;
    pk_motion *motion;
    pk_pose *pose;
    pk_rules *rules;
    char *text; /* a report (diff) */
} item;

typedef struct step {
    op op;
    where at;
    char *in, *pose, *b; /* names: in/base, overlay pose, diff b */
    char **ins;          /* merge inputs */
    int64_t *offsets;
    size_t nins;
    char *out;
    char *rules; /* name of a rule set */
    char *bones;
    bool reverse;
    bool groups; /* diff: the per-group summary lines */
    pk_overlay_options ov;
    uint32_t pose_frame;
    pk_merge_policy prefer;
    pk_format to;
    uint32_t frame;
    bool all_frames;
    uint32_t a, z;
    double threshold;
} step;

typedef struct outspec {
    where at;
    uint32_t frame;
    pk_vpd_options vpd;
    bool json;
    pk_format fmt; /* PK_FMT_UNKNOWN = a text report */
} outspec;

struct pk_job {
    char *path, *dir;
    item *items;
    size_t nitems, cap_items;
    step *steps;
    size_t nsteps;
    pk_job_output *outs;
    outspec *ospec;
    size_t nouts;
    pk_buf report;
    char *report_text;
    bool ran;
};

/* ---- small helpers ---- */

static void err_at(pk_log *log, where at, const char *fmt, ...) PK_PRINTF(3, 4);
static void err_at(pk_log *log, where at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, PK_ERROR, -1, at.line, at.col, fmt, ap);
    va_end(ap);
}

static where mark(const yaml_node_t *n)
{
    if (!n)
        return (where){0, 0};
    return (where){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

static char *resolve(const char *dir, const char *path)
{
    return pk_os_join(dir, path);
}

static item *find_item(const pk_job *j, const char *name)
{
    for (size_t i = 0; i < j->nitems; i++)
        if (strcmp(j->items[i].name, name) == 0)
            return &j->items[i];
    return NULL;
}

static item *add_item(pk_job *j, const char *name, where at, pk_log *log)
{
    item *old = find_item(j, name);
    if (old) {
        err_at(log, at, "the name '%s' is already used (line %d)", name, old->at.line);
        return NULL;
    }
    if (j->nitems == j->cap_items) {
        size_t ncap = j->cap_items ? j->cap_items * 2 : 16;
        item *p = realloc(j->items, ncap * sizeof *p);
        if (!p) {
            pk_error(log, "out of memory");
            return NULL;
        }
        j->items = p;
        j->cap_items = ncap;
    }
    item *it = &j->items[j->nitems];
    memset(it, 0, sizeof *it);
    it->name = strdup(name);
    it->at = at;
    if (!it->name) {
        pk_error(log, "out of memory");
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
    const char *s = scalar(n);
    char *end;
    errno = 0;
    unsigned long long v = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (!s || !(*s >= '0' && *s <= '9') || errno || *end || v > UINT32_MAX) {
        err_at(y->log, mark(n), "%s must be a whole number of frames (0 or more)", what);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static bool want_i64(const yctx *y, const yaml_node_t *n, const char *what, int64_t *out)
{
    const char *s = scalar(n);
    char *end;
    errno = 0;
    long long v = s && *s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || errno || *end || v > (long long)UINT32_MAX || v < -(long long)UINT32_MAX) {
        err_at(y->log, mark(n), "%s must be a whole number of frames", what);
        return false;
    }
    *out = v;
    return true;
}

/* Locale-independent decimal: digits, one '.', optional sign. */
static bool want_double(const yctx *y, const yaml_node_t *n, const char *what, double *out)
{
    const char *s = scalar(n);
    bool ok = s && *s;
    double v = 0.0, scale = 0.0;
    const char *p = s;
    if (ok && (*p == '+' || *p == '-'))
        p++;
    bool digits = false;
    for (; ok && *p; p++) {
        if (*p >= '0' && *p <= '9') {
            digits = true;
            if (scale == 0.0)
                v = v * 10.0 + (*p - '0');
            else {
                v += (*p - '0') * scale;
                scale /= 10.0;
            }
        } else if (*p == '.' && scale == 0.0) {
            scale = 0.1;
        } else {
            ok = false;
        }
    }
    if (!ok || !digits) {
        err_at(y->log, mark(n), "%s must be a number", what);
        return false;
    }
    *out = s[0] == '-' ? -v : v;
    return true;
}

static bool want_bool(const yctx *y, const yaml_node_t *n, const char *what, bool *out)
{
    const char *s = scalar(n);
    if (s && (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0)) {
        *out = true;
        return true;
    }
    if (s && (strcmp(s, "false") == 0 || strcmp(s, "no") == 0)) {
        *out = false;
        return true;
    }
    err_at(y->log, mark(n), "%s must be true or false", what);
    return false;
}

/* "A-B" or "N" (or a plain YAML integer). */
static bool want_range(const yctx *y, const yaml_node_t *n, const char *what, uint32_t *a,
                       uint32_t *b)
{
    const char *s = scalar(n);
    unsigned long x = 0, z = 0;
    char *end = NULL;
    bool ok = s && *s >= '0' && *s <= '9';
    if (ok) {
        errno = 0;
        x = strtoul(s, &end, 10);
        z = x;
        if (*end == '-' && end[1] >= '0' && end[1] <= '9') {
            z = strtoul(end + 1, &end, 10);
        }
        ok = !errno && !*end && x <= UINT32_MAX && z <= UINT32_MAX && x <= z;
    }
    if (!ok) {
        err_at(y->log, mark(n), "%s must be A-B (A <= B) or a frame number", what);
        return false;
    }
    *a = (uint32_t)x;
    *b = (uint32_t)z;
    return true;
}

/* ---- loading ---- */

/* A name that must already exist (input, rules or an earlier result). */
static bool ref(pk_job *j, const yctx *y, const yaml_node_t *n, const char *what, bool rules,
                char **out)
{
    const char *s = want_scalar(y, n, what);
    if (!s)
        return false;
    item *it = find_item(j, s);
    if (!it) {
        err_at(y->log, mark(n),
               "%s '%s' is not defined above (inputs, rules or an earlier step's "
               "out)",
               what, s);
        return false;
    }
    if (it->is_rules != rules) {
        err_at(y->log, mark(n), "%s '%s' names %s", what, s,
               it->is_rules ? "a rule set, not a motion or pose" : "a motion or pose, not rules");
        return false;
    }
    *out = strdup(s);
    return *out != NULL;
}

static const char *const STEP_KEYS[OP_COUNT] = {
    "base pose pose_frame bones rules frames mode fade out",
    "in rules reverse out",
    "in rules out",
    "in rules out",
    "in offsets prefer out",
    "in to frame out",
    "a b frames bones rules threshold groups out",
};

static bool key_allowed(op o, const char *key)
{
    const char *list = STEP_KEYS[o];
    size_t n = strlen(key);
    for (const char *p = list; *p;) {
        const char *sp = strchr(p, ' ');
        size_t len = sp ? (size_t)(sp - p) : strlen(p);
        if (len == n && strncmp(p, key, n) == 0)
            return true;
        if (!sp)
            break;
        p = sp + 1;
    }
    return false;
}

static bool parse_step_param(pk_job *j, const yctx *y, step *s, const char *key,
                             const yaml_node_t *v)
{
    pk_log *log = y->log;
    if (strcmp(key, "out") == 0) {
        const char *o = want_scalar(y, v, "out");
        return o && (s->out = strdup(o)) != NULL;
    }
    if (strcmp(key, "rules") == 0)
        return ref(j, y, v, "rules", true, &s->rules);
    switch (s->op) {
    case OP_OVERLAY:
        if (strcmp(key, "base") == 0)
            return ref(j, y, v, "base", false, &s->in);
        if (strcmp(key, "pose") == 0)
            return ref(j, y, v, "pose", false, &s->pose);
        if (strcmp(key, "pose_frame") == 0)
            return want_u32(y, v, "pose_frame", &s->pose_frame);
        if (strcmp(key, "frames") == 0) {
            s->ov.all_frames = false;
            return want_range(y, v, "frames", &s->ov.first, &s->ov.last);
        }
        if (strcmp(key, "fade") == 0)
            return want_u32(y, v, "fade", &s->ov.fade);
        if (strcmp(key, "mode") == 0) {
            const char *m = scalar(v);
            if (m && strcmp(m, "replace") == 0)
                s->ov.mode = PK_OVERLAY_REPLACE;
            else if (m && strcmp(m, "add") == 0)
                s->ov.mode = PK_OVERLAY_ADD;
            else {
                err_at(log, mark(v), "mode is replace or add");
                return false;
            }
            return true;
        }
        break;
    case OP_RENAME:
        if (strcmp(key, "reverse") == 0)
            return want_bool(y, v, "reverse", &s->reverse);
        break;
    case OP_MERGE:
        if (strcmp(key, "prefer") == 0) {
            const char *m = scalar(v);
            if (m && strcmp(m, "last") == 0)
                s->prefer = PK_MERGE_LAST;
            else if (m && strcmp(m, "first") == 0)
                s->prefer = PK_MERGE_FIRST;
            else if (m && strcmp(m, "error") == 0)
                s->prefer = PK_MERGE_ERROR;
            else {
                err_at(log, mark(v), "prefer is first, last or error");
                return false;
            }
            return true;
        }
        if (strcmp(key, "in") == 0) {
            if (v->type != YAML_SEQUENCE_NODE ||
                v->data.sequence.items.top == v->data.sequence.items.start) {
                err_at(log, mark(v), "merge's in must be a list of names");
                return false;
            }
            size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
            s->ins = calloc(n, sizeof *s->ins);
            if (!s->ins)
                return false;
            s->nins = n;
            for (size_t i = 0; i < n; i++)
                if (!ref(j, y, node(y, v->data.sequence.items.start[i]), "merge input", false,
                         &s->ins[i]))
                    return false;
            return true;
        }
        if (strcmp(key, "offsets") == 0) {
            if (v->type != YAML_SEQUENCE_NODE) {
                err_at(log, mark(v), "offsets must be a list of frame numbers");
                return false;
            }
            size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
            s->offsets = calloc(n + 1, sizeof *s->offsets);
            if (!s->offsets)
                return false;
            for (size_t i = 0; i < n; i++)
                if (!want_i64(y, node(y, v->data.sequence.items.start[i]), "offset",
                              &s->offsets[i]))
                    return false;
            if (s->ins && n > s->nins) {
                err_at(log, mark(v), "%zu offsets for %zu inputs", n, s->nins);
                return false;
            }
            return true;
        }
        break;
    case OP_CONVERT:
        if (strcmp(key, "to") == 0) {
            const char *m = scalar(v);
            if (m && strcmp(m, "vmd") == 0)
                s->to = PK_FMT_VMD;
            else if (m && strcmp(m, "vpd") == 0)
                s->to = PK_FMT_VPD;
            else {
                err_at(log, mark(v), "to is vmd or vpd");
                return false;
            }
            return true;
        }
        if (strcmp(key, "frame") == 0)
            return want_u32(y, v, "frame", &s->frame);
        break;
    case OP_DIFF:
        if (strcmp(key, "a") == 0)
            return ref(j, y, v, "a", false, &s->in);
        if (strcmp(key, "b") == 0)
            return ref(j, y, v, "b", false, &s->b);
        if (strcmp(key, "frames") == 0) {
            const char *m = scalar(v);
            if (m && strcmp(m, "all") == 0)
                return true;
            s->all_frames = false;
            return want_range(y, v, "frames", &s->a, &s->z);
        }
        if (strcmp(key, "threshold") == 0)
            return want_double(y, v, "threshold", &s->threshold);
        if (strcmp(key, "groups") == 0)
            return want_bool(y, v, "groups", &s->groups);
        break;
    default:
        break;
    }
    if (strcmp(key, "in") == 0)
        return ref(j, y, v, "in", false, &s->in);
    if (strcmp(key, "bones") == 0) {
        const char *b = want_scalar(y, v, "bones");
        return b && (s->bones = strdup(b)) != NULL;
    }
    err_at(log, mark(v), "unknown parameter '%s' for %s", key, OP_NAMES[s->op]);
    return false;
}

static bool parse_step(pk_job *j, const yctx *y, const yaml_node_t *n, step *s)
{
    pk_log *log = y->log;
    memset(s, 0, sizeof *s);
    s->at = mark(n);
    s->ov.all_frames = true;
    s->all_frames = true;
    s->threshold = 0.01;
    if (n->type != YAML_MAPPING_NODE ||
        n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1) {
        err_at(log, mark(n),
               "a step is one operation: {overlay|rename|retarget|mirror|merge|"
               "convert|diff: {...}}");
        return false;
    }
    yaml_node_pair_t *pair = n->data.mapping.pairs.start;
    const yaml_node_t *kn = node(y, pair->key), *vn = node(y, pair->value);
    const char *opname = scalar(kn);
    int o = -1;
    for (int i = 0; opname && i < OP_COUNT; i++)
        if (strcmp(opname, OP_NAMES[i]) == 0)
            o = i;
    if (o < 0) {
        err_at(log, mark(kn),
               "unknown step '%s' (overlay, rename, retarget, mirror, merge, "
               "convert, diff)",
               opname ? opname : "?");
        return false;
    }
    s->op = (op)o;
    if (vn->type != YAML_MAPPING_NODE) {
        err_at(log, mark(vn), "the parameters of %s must be a mapping", OP_NAMES[o]);
        return false;
    }
    for (yaml_node_pair_t *p = vn->data.mapping.pairs.start; p < vn->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = node(y, p->key), *v = node(y, p->value);
        const char *key = scalar(k);
        if (!key || !key_allowed(s->op, key)) {
            err_at(log, mark(k), "unknown parameter '%s' for %s (allowed: %s)", key ? key : "?",
                   OP_NAMES[o], STEP_KEYS[o]);
            return false;
        }
        const yaml_node_t *first = pk_yaml_earlier_key(y->doc, vn, p);
        if (first) {
            err_at(log, mark(k), "parameter '%s' is given twice (first on line %d)", key,
                   mark(first).line);
            return false;
        }
        if (!parse_step_param(j, y, s, key, v))
            return false;
    }
    /* Required parameters. */
    const char *missing = NULL;
    if (!s->out)
        missing = "out";
    else if (s->op == OP_OVERLAY && !s->in)
        missing = "base";
    else if (s->op == OP_OVERLAY && !s->pose)
        missing = "pose";
    else if (s->op == OP_OVERLAY && !s->bones)
        missing = "bones";
    else if ((s->op == OP_RENAME || s->op == OP_RETARGET) && !s->rules)
        missing = "rules";
    else if (s->op == OP_MERGE && !s->ins)
        missing = "in";
    else if (s->op == OP_CONVERT && s->to == PK_FMT_UNKNOWN)
        missing = "to";
    else if (s->op == OP_DIFF && (!s->in || !s->b))
        missing = !s->in ? "a" : "b";
    else if (s->op != OP_OVERLAY && s->op != OP_MERGE && s->op != OP_DIFF && !s->in)
        missing = "in";
    if (missing) {
        err_at(log, s->at, "%s needs '%s'", OP_NAMES[o], missing);
        return false;
    }
    if (s->op == OP_OVERLAY && s->ov.all_frames && s->ov.fade) {
        err_at(log, s->at, "overlay: fade needs frames (the whole motion has no edges)");
        return false;
    }
    item *res = add_item(j, s->out, s->at, log);
    return res != NULL;
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
        item *it = add_item(j, name, mark(k), y->log);
        if (!it)
            return false;
        it->is_rules = rules;
        it->path = resolve(j->dir, path);
        if (!it->path)
            return false;
    }
    return true;
}

static bool parse_output(pk_job *j, const yctx *y, const yaml_node_t *k, const yaml_node_t *v,
                         size_t idx)
{
    pk_job_output *o = &j->outs[idx];
    outspec *os = &j->ospec[idx];
    memset(os, 0, sizeof *os);
    os->at = mark(k);
    const char *name = want_scalar(y, k, "an output name");
    if (!name)
        return false;
    item *it = find_item(j, name);
    if (!it || it->is_rules) {
        err_at(y->log, mark(k), "output '%s' names no input or step result", name);
        return false;
    }
    o->name = strdup(name);
    const char *path = NULL;
    if (v->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top;
             p++) {
            const yaml_node_t *kk = node(y, p->key), *vv = node(y, p->value);
            const char *key = scalar(kk);
            bool ok;
            if (key && strcmp(key, "path") == 0)
                ok = (path = want_scalar(y, vv, "path")) != NULL;
            else if (key && strcmp(key, "frame") == 0)
                ok = want_u32(y, vv, "frame", &os->frame);
            else if (key && strcmp(key, "no_morphs") == 0)
                ok = want_bool(y, vv, "no_morphs", &os->vpd.no_morphs);
            else if (key && strcmp(key, "layout") == 0) {
                const char *l = scalar(vv);
                ok = l && (strcmp(l, "text") == 0 || strcmp(l, "hybrid") == 0);
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
    o->path = resolve(j->dir, path);
    if (!o->name || !o->path)
        return false;
    size_t n = strlen(path);
    os->fmt = pk_format_from_path(path);
    os->json = n >= 5 && strcmp(path + n - 5, ".json") == 0;
    bool text = n >= 4 && strcmp(path + n - 4, ".txt") == 0;
    if (os->fmt == PK_FMT_UNKNOWN && !os->json && !text) {
        err_at(y->log, mark(v),
               "cannot tell the format of '%s': use .vmd, .vpd (motions and "
               "poses) or .txt, .json (diff reports)",
               path);
        return false;
    }
    for (size_t i = 0; i < idx; i++)
        if (strcmp(j->outs[i].path, o->path) == 0) {
            err_at(y->log, mark(v), "'%s' is written twice (line %d)", path, j->ospec[i].at.line);
            return false;
        }
    return true;
}

static bool parse_root(pk_job *j, const yctx *y)
{
    yaml_node_t *root = yaml_document_get_root_node(y->doc);
    if (!root) {
        err_at(y->log, (where){1, 1}, "the job file is empty");
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
        if (found < 0) {
            err_at(y->log, mark(k), "unknown key '%s' (inputs, rules, steps, outputs)",
                   key ? key : "?");
            return false;
        }
        const yaml_node_t *first = pk_yaml_earlier_key(y->doc, root, p);
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
    if (sec[1] && !(sec[1]->type == YAML_SCALAR_NODE && !*scalar(sec[1])) &&
        !parse_named_paths(j, y, sec[1], true))
        return false;
    if (sec[2] && sec[2]->type == YAML_SEQUENCE_NODE) {
        size_t n = (size_t)(sec[2]->data.sequence.items.top - sec[2]->data.sequence.items.start);
        j->steps = calloc(n ? n : 1, sizeof *j->steps);
        if (!j->steps)
            return false;
        for (size_t i = 0; i < n; i++) {
            j->nsteps = i + 1;
            if (!parse_step(j, y, node(y, sec[2]->data.sequence.items.start[i]), &j->steps[i]))
                return false;
        }
    } else if (sec[2] && !(sec[2]->type == YAML_SCALAR_NODE && !*scalar(sec[2]))) {
        err_at(y->log, mark(sec[2]), "steps must be a list");
        return false;
    }
    const yaml_node_t *outs = sec[3];
    if (outs->type != YAML_MAPPING_NODE ||
        outs->data.mapping.pairs.top == outs->data.mapping.pairs.start) {
        err_at(y->log, mark(outs), "outputs must be a mapping of NAME: PATH");
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
        if (!parse_output(j, y, node(y, p->key), node(y, p->value), i))
            return false;
    }
    return true;
}

pk_job *pk_job_load(const char *path, pk_log *log)
{
    pk_job *j = calloc(1, sizeof *j);
    if (!j) {
        pk_error(log, "out of memory");
        return NULL;
    }
    pk_buf_init(&j->report);
    j->path = strdup(path);
    j->dir = strndup(path, pk_os_dir_len(path)); /* "/x.yaml" keeps "/" */
    if (!j->path || !j->dir) {
        pk_error(log, "out of memory");
        pk_job_free(j);
        return NULL;
    }
    pk_bytes bytes;
    pk_log_set_path(log, path);
    if (pk_file_read(path, &bytes, log) != 0) {
        pk_job_free(j);
        return NULL;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    bool ok = false, have_doc = false;
    if (yaml_parser_initialize(&parser)) {
        yaml_parser_set_input_string(&parser, bytes.data, bytes.len);
        if (!yaml_parser_load(&parser, &doc)) {
            pk_log_add(log, PK_ERROR, -1, (int)parser.problem_mark.line + 1,
                       (int)parser.problem_mark.column + 1, "YAML: %s%s%s",
                       parser.problem ? parser.problem : "syntax error", parser.context ? " " : "",
                       parser.context ? parser.context : "");
        } else {
            have_doc = true;
            int dl, dc;
            if (pk_yaml_has_second_document(&parser, &dl, &dc)) {
                pk_log_add(log, PK_ERROR, -1, dl, dc,
                           "a job file holds one YAML document; a second one starts here");
            } else {
                yctx y = {&doc, log};
                ok = parse_root(j, &y);
            }
            if (!ok && log->errors == 0)
                pk_error(log, "out of memory");
        }
        yaml_parser_delete(&parser);
    } else {
        pk_error(log, "out of memory");
    }
    if (have_doc)
        yaml_document_delete(&doc);
    pk_bytes_free(&bytes);
    pk_log_set_path(log, NULL);
    if (!ok) {
        pk_job_free(j);
        return NULL;
    }
    return j;
}

/* ---- running ---- */

static void item_clear(item *it)
{
    pk_motion_free(it->motion);
    pk_pose_free(it->pose);
    pk_rules_free(it->rules);
    free(it->text);
    it->motion = NULL;
    it->pose = NULL;
    it->rules = NULL;
    it->text = NULL;
    it->kind = V_NONE;
}

static pk_rules *rules_of(pk_job *j, const char *name)
{
    item *it = name ? find_item(j, name) : NULL;
    return it ? it->rules : NULL;
}

/* diff's groups: true: a line per bone group where something differs
 * (pk_diff_groups, the standard groups and the step's rules). */
static int report_groups(pk_job *j, const step *s, const pk_diff *d, pk_buf *out, pk_log *log)
{
    pk_rules *own = NULL, *r = rules_of(j, s->rules);
    if (!r && !(r = own = pk_rules_default(log)))
        return -1;
    size_t n;
    pk_diff_group *g = pk_diff_groups(d, r, &n, log);
    if (!g) {
        pk_rules_free(own);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!g[i].bones_differ)
            continue;
        pk_buf_printf(out, "  group @%s: %zu of %zu bones differ", g[i].name, g[i].bones_differ,
                      g[i].bones);
        if (g[i].top) {
            pk_buf_printf(out, ", %s%.2f deg (%s", d->range ? "max " : "", g[i].top->angle_deg,
                          g[i].top->name);
            if (d->range)
                pk_buf_printf(out, " at frame %u", g[i].top->angle_frame);
            pk_buf_putc(out, ')');
        }
        pk_buf_putc(out, '\n');
    }
    free(g);
    pk_rules_free(own);
    return 0;
}

/* A pose from a value: a VPD as is (copied), a VMD sampled at `frame`. */
static pk_pose *pose_from(const item *it, uint32_t frame, pk_log *log)
{
    if (it->kind == V_POSE)
        return pk_pose_clone(it->pose);
    pk_tracks *t = pk_tracks_build(it->motion, log);
    if (!t)
        return NULL;
    pk_pose *p = pk_motion_sample(it->motion, t, frame, log);
    pk_tracks_free(t);
    return p;
}

static bool need_value(const step *s, const item *it, pk_log *log)
{
    if (it && (it->kind == V_MOTION || it->kind == V_POSE))
        return true;
    pk_log_add(log, PK_ERROR, -1, s->at.line, s->at.col,
               "%s: '%s' is a report, not a motion or "
               "pose",
               OP_NAMES[s->op], it ? it->name : "?");
    return false;
}

static void report(pk_job *j, const char *fmt, ...) PK_PRINTF(2, 3);
static void report(pk_job *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pk_buf_puts(&j->report, line);
}

static int step_overlay(pk_job *j, const step *s, item *res, pk_log *log)
{
    item *base = find_item(j, s->in), *pv = find_item(j, s->pose);
    if (!need_value(s, base, log) || !need_value(s, pv, log))
        return -1;
    pk_pose *pose = pose_from(pv, s->pose_frame, log);
    pk_selection *sel = pose ? pk_selection_parse(rules_of(j, s->rules), s->bones, log) : NULL;
    int rc = -1;
    pk_overlay_stats st;
    if (sel && base->kind == V_MOTION) {
        res->motion = pk_overlay_motion(base->motion, pose, sel, &s->ov, &st, log);
        res->kind = V_MOTION;
        if (res->motion) {
            rc = 0;
            report(j,
                   "overlay %s on %s -> %s: %zu bones, %zu keys removed, %zu added; crossed "
                   "segments %zu split (%zu linear or still), %zu baked into %zu keys\n",
                   s->pose, s->in, s->out, st.bones, st.keys_removed, st.keys_added, st.split,
                   st.split_exact, st.baked, st.baked_keys);
        }
    } else if (sel) {
        res->pose = pk_overlay_pose(base->pose, pose, sel, s->ov.mode, &st, log);
        res->kind = V_POSE;
        if (res->pose) {
            rc = 0;
            report(j, "overlay %s on %s -> %s: %zu bones\n", s->pose, s->in, s->out, st.bones);
        }
    }
    pk_selection_free(sel);
    pk_pose_free(pose);
    return rc;
}

/* rename / retarget / mirror: on a copy of the input. */
static int step_edit(pk_job *j, const step *s, item *res, pk_log *log)
{
    item *in = find_item(j, s->in);
    if (!need_value(s, in, log))
        return -1;
    pk_rules *r = rules_of(j, s->rules);
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    int rc = -1;
    if (in->kind == V_MOTION) {
        res->kind = V_MOTION;
        res->motion = pk_motion_clone(in->motion);
        if (!res->motion)
            return -1;
        rc = s->op == OP_RENAME     ? pk_motion_rename(res->motion, r, s->reverse, &st, log)
             : s->op == OP_RETARGET ? pk_motion_retarget(res->motion, r, &st, log)
                                    : pk_motion_mirror(res->motion, r, &st, log);
    } else {
        res->kind = V_POSE;
        res->pose = pk_pose_clone(in->pose);
        if (!res->pose)
            return -1;
        rc = s->op == OP_RENAME     ? pk_pose_rename(res->pose, r, s->reverse, &st, log)
             : s->op == OP_RETARGET ? pk_pose_retarget(res->pose, r, &st, log)
                                    : pk_pose_mirror(res->pose, r, &st, log);
    }
    if (rc == 0)
        report(j, "%s %s -> %s: %zu of %zu bones renamed, %zu of %zu morphs renamed\n",
               OP_NAMES[s->op], s->in, s->out, st.bones_renamed, st.bones, st.morphs_renamed,
               st.morphs);
    pk_edit_stats_free(&st);
    return rc;
}

static int step_merge(pk_job *j, const step *s, item *res, pk_log *log)
{
    pk_merge_input *in = calloc(s->nins, sizeof *in);
    if (!in)
        return -1;
    for (size_t i = 0; i < s->nins; i++) {
        item *it = find_item(j, s->ins[i]);
        if (!need_value(s, it, log)) {
            free(in);
            return -1;
        }
        in[i].motion = it->motion;
        in[i].pose = it->pose;
        in[i].offset = s->offsets ? s->offsets[i] : 0;
    }
    pk_merge_report rep;
    res->kind = V_MOTION;
    res->motion = pk_merge(in, s->nins, s->prefer, &rep, log);
    free(in);
    if (res->motion)
        report(j, "merge -> %s: %zu inputs, %zu conflicts, %zu identical keys, %zu below frame 0\n",
               s->out, s->nins, rep.count, rep.identical, rep.below_zero);
    pk_merge_report_free(&rep);
    return res->motion ? 0 : -1;
}

static int step_convert(pk_job *j, const step *s, item *res, pk_log *log)
{
    item *in = find_item(j, s->in);
    if (!need_value(s, in, log))
        return -1;
    if (s->to == PK_FMT_VMD) {
        res->kind = V_MOTION;
        res->motion = in->kind == V_MOTION ? pk_motion_clone(in->motion)
                                           : pk_pose_to_motion(in->pose, s->frame, log);
        return res->motion ? 0 : -1;
    }
    res->kind = V_POSE;
    res->pose = pose_from(in, s->frame, log);
    (void)j;
    return res->pose ? 0 : -1;
}

/* ---- diff (engine/ops/diff.c): per bone the largest angle and distance, the
 * frame of the largest angle, and the runs of frames beyond the
 * threshold; morphs by their largest weight change. ---- */

static bool sel_filter(void *ctx, const uint8_t *raw, size_t len)
{
    return pk_selection_has(ctx, raw, len);
}

/* "frames 25-65, 85-125" from the per-frame angles of a range diff. */
static void print_runs(pk_buf *out, const pk_diff *d, const pk_diff_bone *b, double threshold)
{
    if (!b->frames)
        return;
    pk_buf_puts(out, "; frames");
    size_t runs = 0;
    bool in = false;
    uint32_t start = 0;
    for (uint32_t f = d->first;; f++) {
        bool above = f <= d->last && b->frames[f - d->first] > threshold;
        if (above && !in) {
            start = f;
            in = true;
        } else if (!above && in) {
            if (runs == 4) {
                pk_buf_puts(out, ", ...");
                break;
            }
            pk_buf_printf(out, "%s %u-%u", runs ? "," : "", start, f - 1);
            runs++;
            in = false;
        }
        if (f >= d->last && !in)
            break;
    }
}

static int step_diff(pk_job *j, const step *s, item *res, pk_log *log)
{
    item *ia = find_item(j, s->in), *ib = find_item(j, s->b);
    if (!need_value(s, ia, log) || !need_value(s, ib, log))
        return -1;
    pk_selection *sel = s->bones ? pk_selection_parse(rules_of(j, s->rules), s->bones, log) : NULL;
    if (s->bones && !sel)
        return -1;
    pk_diff_options o;
    pk_diff_options_init(&o);
    o.threshold_deg = s->threshold;
    o.keep_frames = true;
    if (sel) {
        o.bone_filter = sel_filter;
        o.filter_ctx = sel;
    }
    pk_diff *d = NULL;
    pk_motion *ma = NULL, *mb = NULL;
    if (ia->kind == V_POSE && ib->kind == V_POSE) {
        d = pk_diff_poses(ia->pose, ib->pose, &o, log);
    } else {
        ma = ia->kind == V_MOTION ? ia->motion : pk_pose_to_motion(ia->pose, 0, log);
        mb = ib->kind == V_MOTION ? ib->motion : pk_pose_to_motion(ib->pose, 0, log);
        uint32_t f0 = 0, f1 = 0, g0 = 0, g1 = 0;
        bool ha = ma && pk_motion_frame_range(ma, &f0, &f1);
        bool hb = mb && pk_motion_frame_range(mb, &g0, &g1);
        uint32_t lo = s->all_frames ? 0 : s->a;
        uint32_t hi = s->all_frames ? (ha && hb ? (f1 > g1 ? f1 : g1) : ha ? f1 : g1) : s->z;
        if (ma && mb)
            d = pk_diff_motions(ma, mb, lo, hi, &o, log);
    }
    int rc = -1;
    pk_buf out;
    pk_buf_init(&out);
    if (!d)
        goto done;
    pk_diff_sort(d);
    if (d->range)
        pk_buf_printf(&out, "diff %s -> %s, frames %u-%u", s->in, s->b, d->first, d->last);
    else
        pk_buf_printf(&out, "diff %s -> %s", s->in, s->b);
    pk_buf_printf(&out, ", threshold %g deg: %zu bone%s and %zu morph%s differ\n", s->threshold,
                  d->bones_differ, d->bones_differ == 1 ? "" : "s", d->morphs_differ,
                  d->morphs_differ == 1 ? "" : "s");
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *b = &d->bones[i];
        if (!b->differs)
            continue;
        pk_buf_printf(&out, "  %s: %s%.2f deg", b->name, d->range ? "max " : "", b->angle_deg);
        if (d->range)
            pk_buf_printf(&out, " at frame %u", b->angle_frame);
        pk_buf_printf(&out, ", %.4f units", b->pos_delta);
        if (b->only_in)
            pk_buf_printf(&out, " (only in %s)", b->only_in == PK_DIFF_ONLY_A ? s->in : s->b);
        if (d->range)
            print_runs(&out, d, b, s->threshold);
        pk_buf_putc(&out, '\n');
    }
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *m = &d->morphs[i];
        if (!m->differs)
            continue;
        pk_buf_printf(&out, "  morph %s: %+.4f", m->name, m->delta);
        if (d->range)
            pk_buf_printf(&out, " at frame %u", m->frame);
        pk_buf_putc(&out, '\n');
    }
    if (s->groups && report_groups(j, s, d, &out, log) != 0)
        goto done;
    pk_buf_putc(&out, 0);
    if (out.oom)
        goto done;
    res->kind = V_REPORT;
    res->text = (char *)out.data;
    out.data = NULL;
    pk_buf_puts(&j->report, res->text);
    rc = 0;
done:
    pk_buf_free(&out);
    pk_diff_free(d);
    pk_selection_free(sel);
    if (ma && ia->kind != V_MOTION)
        pk_motion_free(ma);
    if (mb && ib->kind != V_MOTION)
        pk_motion_free(mb);
    return rc;
}

static int run_step(pk_job *j, const step *s, pk_log *log)
{
    item *res = find_item(j, s->out);
    int rc;
    if (!res)
        return -1;
    switch (s->op) {
    case OP_OVERLAY:
        rc = step_overlay(j, s, res, log);
        break;
    case OP_MERGE:
        rc = step_merge(j, s, res, log);
        break;
    case OP_CONVERT:
        rc = step_convert(j, s, res, log);
        break;
    case OP_DIFF:
        rc = step_diff(j, s, res, log);
        break;
    default:
        rc = step_edit(j, s, res, log);
        break;
    }
    if (rc != 0) {
        pk_log_add(log, PK_ERROR, -1, s->at.line, s->at.col, "step %s -> %s failed",
                   OP_NAMES[s->op], s->out);
        item_clear(res);
    }
    return rc;
}

static void json_text(pk_buf *b, const char *s)
{
    pk_buf_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            pk_buf_printf(b, "\\%c", c);
        else if (c == '\n')
            pk_buf_puts(b, "\\n");
        else if (c < 0x20)
            pk_buf_printf(b, "\\u%04x", c);
        else
            pk_buf_putc(b, c);
    }
    pk_buf_putc(b, '"');
}

static int encode(pk_job *j, size_t i, pk_log *log)
{
    pk_job_output *o = &j->outs[i];
    const outspec *os = &j->ospec[i];
    item *it = find_item(j, o->name);
    pk_log_set_path(log, o->path);
    int rc = -1;
    if (!it) {
        pk_error(log, "'%s' is not defined", o->name);
    } else if (it->kind == V_REPORT) {
        if (os->fmt != PK_FMT_UNKNOWN) {
            pk_log_add(log, PK_ERROR, -1, 0, 0, "'%s' is a diff report: write it as .txt or .json",
                       o->name);
        } else if (os->json) {
            pk_buf_puts(&o->data, "{\"report\":");
            json_text(&o->data, it->text);
            pk_buf_puts(&o->data, "}\n");
            rc = 0;
        } else {
            pk_buf_puts(&o->data, it->text);
            rc = 0;
        }
    } else if (os->fmt == PK_FMT_UNKNOWN) {
        pk_error(log, "'%s' is a %s: write it as .vmd or .vpd", o->name,
                 it->kind == V_MOTION ? "motion" : "pose");
    } else if (os->fmt == PK_FMT_VMD) {
        pk_motion *tmp = it->kind == V_POSE ? pk_pose_to_motion(it->pose, os->frame, log) : NULL;
        const pk_motion *m = it->kind == V_MOTION ? it->motion : tmp;
        rc = m ? pk_vmd_write(m, &o->data, log) : -1;
        pk_motion_free(tmp);
    } else {
        pk_pose *tmp = it->kind == V_MOTION ? pose_from(it, os->frame, log) : NULL;
        const pk_pose *p = it->kind == V_POSE ? it->pose : tmp;
        rc = p ? pk_vpd_write(p, &os->vpd, &o->data, log) : -1;
        pk_pose_free(tmp);
    }
    if (rc == 0 && o->data.oom) {
        pk_error(log, "out of memory");
        rc = -1;
    }
    pk_log_set_path(log, NULL);
    return rc;
}

int pk_job_run(pk_job *j, pk_log *log)
{
    /* Phase 1: every input and rule file, read and checked. */
    int rc = 0;
    for (size_t i = 0; i < j->nitems; i++) {
        item *it = &j->items[i];
        if (!it->path)
            continue;
        if (it->is_rules) {
            it->rules = pk_rules_load(it->path, log);
            if (!it->rules)
                rc = -1;
            continue;
        }
        pk_doc doc;
        if (pk_doc_load(it->path, &doc, log) != 0) {
            rc = -1;
            continue;
        }
        it->kind = doc.motion ? V_MOTION : V_POSE;
        it->motion = doc.motion;
        it->pose = doc.pose;
    }
    pk_log_set_path(log, j->path);
    if (rc != 0)
        return -1;
    /* Phase 2: the steps, in order. */
    for (size_t s = 0; s < j->nsteps; s++) {
        pk_log_set_path(log, j->path);
        if (run_step(j, &j->steps[s], log) != 0)
            return -1;
    }
    pk_log_set_path(log, NULL);
    /* Phase 3: every output encoded in memory. */
    for (size_t i = 0; i < j->nouts; i++)
        if (encode(j, i, log) != 0)
            return -1;
    pk_buf_putc(&j->report, 0);
    if (j->report.oom) {
        pk_error(log, "out of memory");
        return -1;
    }
    j->ran = true;
    return 0;
}

const pk_job_output *pk_job_outputs(const pk_job *j, size_t *n)
{
    *n = j->nouts;
    return j->outs;
}

const char *pk_job_report(const pk_job *j)
{
    return j->ran && j->report.data ? (const char *)j->report.data : "";
}

/* mkdir -p of the folder holding path. */
static int make_parents(const char *path, pk_log *log)
{
    size_t n = pk_os_dir_len(path);
    if (n == 0)
        return 0;
    char *dir = strndup(path, n);
    if (!dir) {
        pk_error(log, "out of memory");
        return -1;
    }
    int rc = pk_os_make_dirs(dir, log);
    free(dir);
    return rc;
}

int pk_job_write(const pk_job *j, pk_log *log)
{
    if (!j->ran) {
        pk_error(log, "the job has not run (or failed): nothing to write");
        return -1;
    }
    for (size_t i = 0; i < j->nouts; i++)
        if (make_parents(j->outs[i].path, log) != 0)
            return -1;
    /* Every output goes to its temporary file first; only when all of them
     * are written and fsync'd are they renamed into place, so a full disk
     * or an unwritable target on the last output leaves none written. */
    pk_staged **st = calloc(j->nouts ? j->nouts : 1, sizeof *st);
    if (!st) {
        pk_error(log, "out of memory");
        return -1;
    }
    int rc = 0;
    size_t i = 0;
    for (; i < j->nouts && rc == 0; i++)
        if (!(st[i] =
                  pk_file_stage(j->outs[i].path, j->outs[i].data.data, j->outs[i].data.len, log)))
            rc = -1;
    if (rc != 0) {
        while (i-- > 0)
            pk_file_discard(st[i]);
        free(st);
        return -1;
    }
    for (i = 0; i < j->nouts; i++) {
        if (rc == 0)
            rc = pk_file_commit(st[i], log);
        else
            pk_file_discard(st[i]); /* a rename failed: keep the rest out */
    }
    free(st);
    return rc;
}

void pk_job_free(pk_job *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->nitems; i++) {
        item_clear(&j->items[i]);
        free(j->items[i].name);
        free(j->items[i].path);
    }
    free(j->items);
    for (size_t i = 0; i < j->nsteps; i++) {
        step *s = &j->steps[i];
        free(s->in);
        free(s->pose);
        free(s->b);
        free(s->out);
        free(s->rules);
        free(s->bones);
        for (size_t k = 0; k < s->nins; k++)
            free(s->ins[k]);
        free(s->ins);
        free(s->offsets);
    }
    free(j->steps);
    for (size_t i = 0; i < j->nouts; i++) {
        free(j->outs[i].name);
        free(j->outs[i].path);
        pk_buf_free(&j->outs[i].data);
    }
    free(j->outs);
    free(j->ospec);
    pk_buf_free(&j->report);
    free(j->path);
    free(j->dir);
    free(j);
}
