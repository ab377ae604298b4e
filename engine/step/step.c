/* step.c — the options of every operation, in one table: the setter the
 * CLI's argv parser and the job loader share, and every check that needs
 * no document (posekit.h, "steps"). */
#include "common/grow.h"
#include "step/step_internal.h"

#include "common/number.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const OP_NAMES[PK_STEP_COUNT] = {
    "convert", "diff", "rename", "mirror", "retarget", "overlay", "merge", "reduce", "bake", "check", "draw"};

typedef enum kind {
    K_INPUT,  /* a document's name; slot = its place in run order */
    K_INPUTS, /* merge: every input, repeated */
    K_STRING,
    K_BOOL,
    K_U32,
    K_DOUBLE, /* a number of 0 or more */
    K_POSITIVE, /* a number above 0 */
    K_COUNT,    /* a whole number of 1 or more */
    K_FRAMES, /* A-B, N or all */
    K_ENUM,
    K_OFFSET,   /* merge: repeated whole numbers */
    K_SECTIONS, /* merge: repeated lists of sections */
    K_WITHIN,   /* merge: repeated input numbers */
} kind;

#define M(op) (1u << (op))
#define ALL_EDITS (M(PK_STEP_RENAME) | M(PK_STEP_MIRROR) | M(PK_STEP_RETARGET))
#define KEYS (M(PK_STEP_REDUCE) | M(PK_STEP_BAKE))
#define ALL_OPS ((1u << PK_STEP_COUNT) - 1)

typedef struct option {
    const char *name; /* with '_' (the CLI spells it with '-') */
    kind kind;
    unsigned ops; /* mask of the operations that have it */
    size_t offset;
    int slot;            /* K_INPUT: place in run order */
    const char *choices; /* K_ENUM: "a|b|c", the value is the index */
    const char *wants;   /* what a value must be, for messages */
} option;

#define OFF(f) offsetof(pk_step_opts, f)

static const option TABLE[] = {
    {"in", K_INPUT, M(PK_STEP_CONVERT) | ALL_EDITS | KEYS | M(PK_STEP_CHECK) | M(PK_STEP_DRAW), 0,
     0, NULL, "a file"},
    {"vs", K_INPUT, M(PK_STEP_DRAW), 0, 1, NULL, "a file"},
    {"in", K_INPUTS, M(PK_STEP_MERGE), 0, 0, NULL, "a file"},
    {"a", K_INPUT, M(PK_STEP_DIFF), 0, 0, NULL, "a file"},
    {"b", K_INPUT, M(PK_STEP_DIFF), 0, 1, NULL, "a file"},
    {"base", K_INPUT, M(PK_STEP_OVERLAY), 0, 0, NULL, "a file"},
    {"pose", K_INPUT, M(PK_STEP_OVERLAY), 0, 1, NULL, "a file"},
    {"rules", K_STRING, M(PK_STEP_DIFF) | ALL_EDITS | M(PK_STEP_OVERLAY) | KEYS | M(PK_STEP_DRAW), OFF(rules), 0,
     NULL, "a rules file"},
    {"bones", K_STRING, M(PK_STEP_DIFF) | M(PK_STEP_OVERLAY) | KEYS | M(PK_STEP_DRAW), OFF(bones), 0, NULL,
     "names, globs or @groups"},
    {"model", K_STRING, M(PK_STEP_DIFF) | M(PK_STEP_OVERLAY) | M(PK_STEP_CHECK) | M(PK_STEP_DRAW), OFF(model), 0,
     NULL, "a PMX or PMD model"},
    {"to", K_ENUM, M(PK_STEP_CONVERT), OFF(to), 0, "|vmd|vpd", NULL},
    {"frame", K_U32, M(PK_STEP_CONVERT) | M(PK_STEP_DIFF) | M(PK_STEP_DRAW), OFF(frame), 0, NULL,
     "a frame number (0 or more)"},
    {"frames", K_FRAMES, M(PK_STEP_DIFF) | M(PK_STEP_OVERLAY) | KEYS | M(PK_STEP_DRAW), 0, 0, NULL,
     "A-B (A <= B), N or 'all'"},
    {"layout", K_ENUM, M(PK_STEP_CONVERT), OFF(layout), 0, "text|hybrid", NULL},
    {"no_morphs", K_BOOL, M(PK_STEP_CONVERT) | M(PK_STEP_DIFF) | KEYS, OFF(no_morphs), 0, NULL,
     NULL},
    {"threshold", K_DOUBLE, M(PK_STEP_DIFF), OFF(threshold), 0, NULL, "a number of 0 or more"},
    {"pos_threshold", K_DOUBLE, M(PK_STEP_DIFF), OFF(pos_threshold), 0, NULL,
     "a number of 0 or more"},
    {"all", K_BOOL, M(PK_STEP_DIFF), OFF(all), 0, NULL, NULL},
    {"groups", K_BOOL, M(PK_STEP_DIFF), OFF(groups), 0, NULL, NULL},
    {"reverse", K_BOOL, M(PK_STEP_RENAME), OFF(reverse), 0, NULL, NULL},
    {"pose_frame", K_U32, M(PK_STEP_OVERLAY), OFF(pose_frame), 0, NULL, "a frame number"},
    {"mode", K_ENUM, M(PK_STEP_OVERLAY), OFF(mode), 0, "replace|add", NULL},
    {"fade", K_U32, M(PK_STEP_OVERLAY), OFF(fade), 0, NULL, "a number of frames"},
    {"offset", K_OFFSET, M(PK_STEP_MERGE), 0, 0, NULL, "a whole number of frames"},
    {"offsets", K_OFFSET, M(PK_STEP_MERGE), 0, 0, NULL, "a whole number of frames"},
    {"prefer", K_ENUM, M(PK_STEP_MERGE), OFF(prefer), 0, "last|first|error", NULL},
    {"sections", K_SECTIONS, M(PK_STEP_MERGE), 0, 0, NULL,
     "bones, morphs, camera, light, shadow, ik or all (comma-separated)"},
    {"within", K_WITHIN, M(PK_STEP_MERGE), 0, 0, NULL, "an input number (1 for the first)"},
    {"from", K_STRING, M(PK_STEP_RETARGET), OFF(from), 0, NULL, "a PMX or PMD model"},
    {"to", K_STRING, M(PK_STEP_RETARGET), OFF(to_model), 0, NULL, "a PMX or PMD model"},
    {"no_stance", K_BOOL, M(PK_STEP_RETARGET), OFF(no_stance), 0, NULL, NULL},
    {"no_scale", K_BOOL, M(PK_STEP_RETARGET), OFF(no_scale), 0, NULL, NULL},
    {"no_fold", K_BOOL, M(PK_STEP_RETARGET), OFF(no_fold), 0, NULL, NULL},
    {"fingers", K_BOOL, M(PK_STEP_RETARGET), OFF(fingers), 0, NULL, NULL},
    {"verbose", K_BOOL, M(PK_STEP_RENAME) | M(PK_STEP_MIRROR) | M(PK_STEP_RETARGET), OFF(verbose),
     0, NULL, NULL},
    {"max_deg", K_POSITIVE, M(PK_STEP_REDUCE), OFF(max_deg), 0, NULL,
     "a positive number of degrees"},
    {"max_pos", K_POSITIVE, M(PK_STEP_REDUCE), OFF(max_pos), 0, NULL,
     "a positive number of units"},
    {"max_morph", K_POSITIVE, M(PK_STEP_REDUCE), OFF(max_morph), 0, NULL,
     "a positive morph weight"},
    {"step", K_COUNT, M(PK_STEP_BAKE), OFF(step), 0, NULL, "a number of frames (1 or more)"},
    {"camera", K_BOOL, KEYS, OFF(camera), 0, NULL, NULL},
    {"strict", K_BOOL, ALL_OPS, OFF(strict), 0, NULL, NULL},
    {"vs_model", K_STRING, M(PK_STEP_DRAW), OFF(vs_model), 0, NULL, "a PMX or PMD model"},
    {"every", K_COUNT, M(PK_STEP_DRAW), OFF(every), 0, NULL, "a number of frames (1 or more)"},
    {"view", K_ENUM, M(PK_STEP_DRAW), OFF(view), 0, "front|side|top|all", NULL},
    {"cut_names", K_BOOL, M(PK_STEP_CONVERT) | M(PK_STEP_OVERLAY) | M(PK_STEP_MERGE),
     OFF(cut_names), 0, NULL, NULL},
};
#define NOPTIONS (sizeof TABLE / sizeof TABLE[0])
_Static_assert(NOPTIONS <= PK_STEP_MAX_OPTIONS, "pk_step.given is too small");

const char *pk_step_op_name(pk_step_op op)
{
    return (unsigned)op < PK_STEP_COUNT ? OP_NAMES[op] : NULL;
}

pk_step_op pk_step_kind(const pk_step *s)
{
    return s->op;
}

pk_format pk_step_makes(const pk_step *s, pk_format in)
{
    switch (s->op) {
    case PK_STEP_DIFF:
    case PK_STEP_CHECK:
    case PK_STEP_DRAW:
        return PK_FMT_UNKNOWN;
    case PK_STEP_CONVERT:
        return (pk_format)s->o.to;
    case PK_STEP_MERGE: /* a pose merges as a one-frame motion */
    case PK_STEP_REDUCE:
    case PK_STEP_BAKE:
        return PK_FMT_VMD;
    default: /* rename, mirror, retarget, overlay: what the input (base) is */
        return in;
    }
}

/* "convert, diff, ..." */
static void op_list(char *out, size_t size)
{
    size_t o = 0;
    if (size)
        out[0] = '\0';
    for (int i = 0; i < PK_STEP_COUNT && o < size; i++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", i ? ", " : "", OP_NAMES[i]);
}

pk_step *pk_step_new(const char *op, const char *opt_prefix, pk_log *log)
{
    int found = -1;
    for (int i = 0; op && i < PK_STEP_COUNT; i++)
        if (strcmp(op, OP_NAMES[i]) == 0)
            found = i;
    if (found < 0) {
        char list[160];
        op_list(list, sizeof list);
        pk_error(log, "unknown operation '%s' (%s)", op ? op : "?", list);
        return NULL;
    }
    pk_step *s = calloc(1, sizeof *s);
    if (s)
        s->prefix = strdup(opt_prefix ? opt_prefix : "");
    if (!s || !s->prefix) {
        free(s);
        pk_error(log, "out of memory");
        return NULL;
    }
    s->op = (pk_step_op)found;
    s->o.threshold = 0.01;
    s->o.pos_threshold = 0.0001;
    s->o.frames_all = true;
    s->o.max_deg = PK_REDUCE_DEG;
    s->o.max_pos = PK_REDUCE_POS;
    s->o.max_morph = PK_REDUCE_MORPH;
    s->o.step = 1;
    return s;
}

void pk_step_free(pk_step *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ninputs; i++)
        free(s->inputs[i]);
    free(s->inputs);
    free(s->o.rules);
    free(s->o.bones);
    free(s->o.model);
    free(s->o.from);
    free(s->o.to_model);
    free(s->o.vs_model);
    free(s->o.offsets);
    free(s->o.sections);
    free(s->o.within);
    free(s->prefix);
    free(s);
}

/* "pos-threshold" and "pos_threshold" are one name. */
static bool same_name(const char *table, const char *key)
{
    for (; *table && *key; table++, key++)
        if (*table != *key && !(*table == '_' && *key == '-'))
            return false;
    return *table == *key;
}

static const option *find(const pk_step *s, const char *key, size_t *row)
{
    for (size_t i = 0; key && i < NOPTIONS; i++)
        if ((TABLE[i].ops & M(s->op)) && same_name(TABLE[i].name, key)) {
            if (row)
                *row = i;
            return &TABLE[i];
        }
    return NULL;
}

bool pk_step_given(const pk_step *s, const char *name)
{
    size_t row;
    const option *o = find(s, name, &row);
    if (!o || !s->given[row])
        return false;
    /* a flag said false (--no-morphs=false, no_stance: false) is the same
     * as a flag left out: it never "does nothing" */
    return o->kind != K_BOOL || *(const bool *)((const char *)&s->o + o->offset);
}

int pk_step_option(const pk_step *s, const char *key)
{
    const option *o = find(s, key, NULL);
    return !o ? -1 : o->kind == K_BOOL ? 0 : 1;
}

static bool repeatable(const option *o)
{
    return o->kind == K_INPUTS || o->kind == K_OFFSET || o->kind == K_SECTIONS ||
           o->kind == K_WITHIN;
}

bool pk_step_option_repeats(const pk_step *s, const char *key)
{
    const option *o = find(s, key, NULL);
    return o && repeatable(o);
}

/* The option's name as the caller spells it ("--pos-threshold"). */
static const char *spell(const pk_step *s, const char *name, char buf[64])
{
    size_t n = strlen(s->prefix);
    snprintf(buf, 64, "%s%s", s->prefix, name);
    if (n)
        for (char *p = buf + n; *p; p++)
            if (*p == '_')
                *p = '-';
    return buf;
}

static bool slot_set(pk_step *s, size_t slot, const char *value)
{
    if (slot >= s->ninputs) {
        if (pk_grow_to(&s->inputs, slot + 1, sizeof *s->inputs) != 0)
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
    return pk_num_bool(v, out);
}

int pk_step_set(pk_step *s, const char *key, const char *value, pk_log *log)
{
    size_t row;
    const option *o = find(s, key, &row);
    char name[64];
    if (!o) {
        pk_error(log, "unknown option '%s' for %s", spell(s, key ? key : "?", name),
                 OP_NAMES[s->op]);
        return -1;
    }
    spell(s, o->name, name);
    if (s->given[row] && !repeatable(o)) {
        pk_error(log, "%s is given twice", name);
        return -1;
    }
    if (o->kind != K_BOOL && (!value || !*value)) {
        pk_error(log, "%s wants %s", name, o->wants ? o->wants : "a value");
        return -1;
    }
    char *field = (char *)&s->o + o->offset;
    bool ok = true;
    switch (o->kind) {
    case K_INPUT:
        ok = slot_set(s, (size_t)o->slot, value);
        break;
    case K_INPUTS:
        ok = slot_set(s, s->ninputs, value);
        break;
    case K_STRING: {
        char *copy = strdup(value);
        ok = copy != NULL;
        if (ok)
            *(char **)field = copy;
        break;
    }
    case K_BOOL:
        if (!parse_bool(value, (bool *)field)) {
            pk_error(log, "%s is true or false, not '%s'", name, value);
            return -1;
        }
        break;
    case K_U32:
        if (!pk_num_u32(value, (uint32_t *)field)) {
            pk_error(log, "%s wants %s, not '%s'%s", name, o->wants, value,
                     value[0] >= '0' && value[0] <= '9' &&
                             strspn(value, "0123456789") == strlen(value)
                         ? " (the largest is 4294967295)"
                         : "");
            return -1;
        }
        break;
    case K_DOUBLE: {
        double v;
        if (!pk_num_double(value, &v) || !(v >= 0.0) || !isfinite(v)) {
            pk_error(log, "%s wants %s, not '%s'", name, o->wants, value);
            return -1;
        }
        *(double *)field = v;
        break;
    }
    case K_POSITIVE: {
        double v;
        if (!pk_num_double(value, &v) || !(v > 0.0) || !isfinite(v)) {
            pk_error(log, "%s wants %s, not '%s'", name, o->wants, value);
            return -1;
        }
        *(double *)field = v;
        break;
    }
    case K_COUNT: {
        uint32_t v;
        if (!pk_num_u32(value, &v) || v == 0) {
            pk_error(log, "%s wants %s, not '%s'", name, o->wants, value);
            return -1;
        }
        *(uint32_t *)field = v;
        break;
    }
    case K_FRAMES:
        if (strcmp(value, "all") == 0) {
            s->o.frames_all = true;
        } else if (pk_num_range(value, &s->o.first, &s->o.last)) {
            s->o.frames_all = false;
        } else {
            pk_error(log, "%s wants %s, not '%s'", name, o->wants, value);
            return -1;
        }
        break;
    case K_ENUM: {
        int idx = enum_index(o->choices, value);
        if (idx < 0) {
            char list[128];
            enum_list(o->choices, list, sizeof list);
            pk_error(log, "%s is %s, not '%s'", name, list, value);
            return -1;
        }
        *(int *)field = idx;
        break;
    }
    case K_OFFSET: {
        int64_t v;
        if (!pk_num_i64(value, &v)) {
            pk_error(log, "%s wants %s, not '%s'", name, o->wants, value);
            return -1;
        }
        ok = pk_grow_to(&s->o.offsets, s->o.noffsets + 1, sizeof *s->o.offsets) == 0;
        if (ok)
            s->o.offsets[s->o.noffsets++] = v;
        break;
    }
    case K_SECTIONS: {
        unsigned bits;
        const char *bad = NULL;
        if (!parse_sections(value, &bits, &bad)) {
            pk_error(log, "%s takes %s, not '%s'", name, o->wants, bad);
            return -1;
        }
        ok = pk_grow_to(&s->o.sections, s->o.nsections + 1, sizeof *s->o.sections) == 0;
        if (ok)
            s->o.sections[s->o.nsections++] = bits;
        break;
    }
    case K_WITHIN: {
        uint32_t k;
        if (!pk_num_u32(value, &k) || k == 0) {
            pk_error(log, "%s wants %s, not '%s'", name, o->wants, value);
            return -1;
        }
        ok = pk_grow_to(&s->o.within, s->o.nwithin + 1, sizeof *s->o.within) == 0;
        if (ok)
            s->o.within[s->o.nwithin++] = k;
        break;
    }
    }
    if (!ok) {
        pk_error(log, "out of memory");
        return -1;
    }
    s->given[row] = true;
    return 0;
}

int pk_step_operand(pk_step *s, const char *value, pk_log *log)
{
    /* The positional inputs: every one for merge, else the first free
     * K_INPUT slot that the command line names by position (overlay's
     * pose is --pose). */
    const char *key = NULL;
    switch (s->op) {
    case PK_STEP_MERGE:
        key = "in";
        break;
    case PK_STEP_DIFF:
        key = !pk_step_given(s, "a") ? "a" : !pk_step_given(s, "b") ? "b" : NULL;
        break;
    case PK_STEP_OVERLAY:
        key = !pk_step_given(s, "base") ? "base" : NULL;
        break;
    default:
        key = !pk_step_given(s, "in") ? "in" : NULL;
        break;
    }
    if (!key) {
        pk_error(log, "%s at a time ('%s' is extra)",
                 s->op == PK_STEP_DIFF      ? "two files"
                 : s->op == PK_STEP_OVERLAY ? "one base file"
                                            : "one input file",
                 value);
        return -1;
    }
    return pk_step_set(s, key, value, log);
}

size_t pk_step_inputs(const pk_step *s, const char *const **names)
{
    *names = (const char *const *)s->inputs;
    return s->ninputs;
}

const char *pk_step_rules(const pk_step *s)
{
    return s->o.rules;
}

const char *pk_step_model(const pk_step *s)
{
    return s->o.model;
}

bool pk_step_strict(const pk_step *s)
{
    return s->o.strict;
}

void pk_step_use_model(pk_step *s, const struct pk_model *m)
{
    s->model = m;
}

const char *pk_step_model_from(const pk_step *s)
{
    return s->o.from;
}

const char *pk_step_model_to(const pk_step *s)
{
    return s->o.to_model;
}

void pk_step_use_models(pk_step *s, const struct pk_model *from, const struct pk_model *to)
{
    s->from = from;
    s->to = to;
}

const char *pk_step_vs_model(const pk_step *s)
{
    return s->o.vs_model;
}

void pk_step_use_vs_model(pk_step *s, const struct pk_model *m)
{
    s->vs_model = m;
}

static int fail(pk_log *log, const char *fmt, ...) PK_PRINTF(2, 3);
static int fail(pk_log *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(log, PK_ERROR, -1, 0, 0, fmt, ap);
    va_end(ap);
    return -1;
}

int pk_step_check(const pk_step *s, pk_log *log)
{
    char n1[64], n2[64], n3[64];
    const pk_step_opts *o = &s->o;
    /* Required inputs. */
    switch (s->op) {
    case PK_STEP_DIFF:
        if (s->ninputs < 2 || !s->inputs[0] || !s->inputs[1])
            return fail(log, "two files to compare are needed");
        break;
    case PK_STEP_OVERLAY:
        if (s->ninputs < 1 || !s->inputs[0])
            return fail(log, "no base file given");
        if (s->ninputs < 2 || !s->inputs[1])
            return fail(log, "no pose given (%s P)", spell(s, "pose", n1));
        if (!o->bones)
            return fail(log, "no bones given (%s LIST|@GROUP)", spell(s, "bones", n1));
        break;
    case PK_STEP_MERGE:
        if (s->ninputs == 0)
            return fail(log, "no input files given");
        /* one input is for shifting, cutting or picking sections of it */
        if (s->ninputs == 1 && !o->noffsets && !o->nsections && !o->nwithin)
            return fail(log, "one input and no %s, %s or %s: merge would only copy it (give "
                             "two or more inputs)",
                        spell(s, "offset", n1), spell(s, "sections", n2), spell(s, "within", n3));
        break;
    default:
        if (s->ninputs < 1 || !s->inputs[0])
            return fail(log, "no input file given");
        break;
    }
    if (s->op == PK_STEP_RENAME && !o->rules)
        return fail(log, "no rules given (%s R.yaml)", spell(s, "rules", n1));
    if (s->op == PK_STEP_RETARGET) {
        if (!o->rules && !o->from && !o->to_model)
            return fail(log, "no rules given (%s R.yaml) and no models (%s A.pmx %s B.pmx)",
                        spell(s, "rules", n1), spell(s, "from", n2), spell(s, "to", n3));
        if (!o->from != !o->to_model)
            return fail(log, "%s and %s go together (the model the input was made for, and the "
                        "one it is for)", spell(s, "from", n1), spell(s, "to", n2));
        static const char *const MODEL_ONLY[] = {"no_stance", "no_scale", "no_fold", "fingers"};
        for (size_t i = 0; i < 4; i++)
            if (!o->from && pk_step_given(s, MODEL_ONLY[i]))
                return fail(log, "%s applies with %s and %s", spell(s, MODEL_ONLY[i], n1),
                            spell(s, "from", n2), spell(s, "to", n3));
        if (o->from && o->no_stance && o->no_scale && o->no_fold && !o->rules)
            return fail(log, "%s, %s and %s together leave nothing to do",
                        spell(s, "no_stance", n1), spell(s, "no_scale", n2),
                        spell(s, "no_fold", n3));
        if (o->fingers && o->no_stance)
            return fail(log, "%s is part of the stance step, which %s turns off",
                        spell(s, "fingers", n1), spell(s, "no_stance", n2));
    }
    if ((s->op == PK_STEP_CHECK || s->op == PK_STEP_DRAW) && !o->model)
        return fail(log, "no model given (%s MODEL)", spell(s, "model", n1));
    if (s->op == PK_STEP_DRAW && o->vs_model && (s->ninputs < 2 || !s->inputs[1]))
        return fail(log, "%s needs %s OTHER (the pose it is the model of)",
                    spell(s, "vs_model", n1), spell(s, "vs", n2));
    if (s->op == PK_STEP_DRAW && pk_step_given(s, "every") && !pk_step_given(s, "frames"))
        return fail(log, "%s needs %s A-B (a strip of frames)", spell(s, "every", n1),
                    spell(s, "frames", n2));
    if (s->op == PK_STEP_CONVERT && o->to == PK_FMT_UNKNOWN)
        return fail(log, "no output format given (%s vmd|vpd)", spell(s, "to", n1));
    /* Options that exclude each other or would do nothing. */
    if (s->op == PK_STEP_CONVERT && o->to == PK_FMT_VMD &&
        (pk_step_given(s, "layout") || pk_step_given(s, "no_morphs")))
        return fail(log, "%s and %s apply to VPD output only", spell(s, "layout", n1),
                    spell(s, "no_morphs", n2));
    if (s->op == PK_STEP_CONVERT && o->to == PK_FMT_VPD && pk_step_given(s, "cut_names"))
        return fail(log, "%s applies to VMD output only (a VPD name holds what it is given)",
                    spell(s, "cut_names", n1));
    if ((s->op == PK_STEP_DIFF || s->op == PK_STEP_DRAW) && pk_step_given(s, "frame") &&
        pk_step_given(s, "frames"))
        return fail(log, "%s and %s exclude each other", spell(s, "frame", n1),
                    spell(s, "frames", n2));
    if (s->op == PK_STEP_OVERLAY && pk_step_given(s, "fade") && o->frames_all && o->fade)
        return fail(log,
                    "%s needs %s A-B (the whole motion has no edges to fade; a VPD base takes "
                    "neither)",
                    spell(s, "fade", n1), spell(s, "frames", n2));
    if (s->op == PK_STEP_MERGE && o->noffsets > s->ninputs)
        return fail(log, "%zu %s options for %zu input%s", o->noffsets, spell(s, "offset", n1),
                    s->ninputs, s->ninputs == 1 ? "" : "s");
    if (s->op == PK_STEP_MERGE && o->nsections > s->ninputs)
        return fail(log, "%zu %s options for %zu input%s", o->nsections,
                    spell(s, "sections", n1), s->ninputs, s->ninputs == 1 ? "" : "s");
    for (size_t k = 0; s->op == PK_STEP_MERGE && k < o->nwithin; k++) {
        if (o->within[k] > s->ninputs)
            return fail(log, "%s %u: there %s only %zu input%s", spell(s, "within", n1),
                        o->within[k], s->ninputs == 1 ? "is" : "are", s->ninputs,
                        s->ninputs == 1 ? "" : "s");
        for (size_t j = 0; j < k; j++)
            if (o->within[j] == o->within[k])
                return fail(log, "%s %u is given twice", spell(s, "within", n1), o->within[k]);
    }
    return 0;
}
