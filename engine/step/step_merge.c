/* step_merge.c — merge: motions (a pose as a one-frame motion) shifted,
 * cut and combined into one (engine/ops/keys/merge.c); its report: the
 * overlaps and conflicts, one line each (the first SHOWN of each kind
 * without --verbose), then the summary; and its JSON (every one). */
#include "step/step.h"
#include "step/step_option.h"

#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_opts {
    pki_list offsets;  /* int64_t, per input in order */
    pki_list sections; /* unsigned section bits, per input in order */
    pki_list within;   /* uint32_t input numbers (1-based) */
    int prefer;        /* pk_merge_policy */
    bool cut_names, verbose;
} merge_opts;

#define T merge_opts
static const pki_option OPTIONS[] = {
    {"in", PKI_OPT_INPUTS, 0, 0, 0, NULL, "a file"},
    {"offset", PKI_OPT_OFFSET, offsetof(T, offsets), 0, 0, NULL, "a whole number of frames"},
    {"offsets", PKI_OPT_OFFSET, offsetof(T, offsets), 0, 0, NULL, "a whole number of frames"},
    {"prefer", PKI_OPT_ENUM, offsetof(T, prefer), 0, 0, "last|first|error", NULL},
    {"sections", PKI_OPT_SECTIONS, offsetof(T, sections), 0, 0, NULL,
     "bones, morphs, camera, light, shadow, ik or all (comma-separated)"},
    {"within", PKI_OPT_WITHIN, offsetof(T, within), 0, 0, NULL,
     "an input number (1 for the first)"},
    PKI_ROW_BOOL(T, "cut_names", cut_names),
    PKI_ROW_BOOL(T, "verbose", verbose),
};
#undef T

typedef struct merge_result {
    pk_merge_report report;
    pk_merge_input *in; /* each input as merged: offset, sections, within */
    size_t n;
} merge_result;

static void free_result(void *p)
{
    merge_result *r = p;
    if (!r)
        return;
    pk_merge_report_free(&r->report);
    free(r->in);
    free(r);
}

static int check(const pk_step *s, pk_log *log)
{
    const merge_opts *o = s->o;
    char n1[64], n2[64], n3[64];
    size_t n = s->ninputs;
    if (n == 0)
        return pki_step_fail(log, "no input files given");
    /* one input is for shifting, cutting or picking sections of it */
    if (n == 1 && !o->offsets.n && !o->sections.n && !o->within.n)
        return pki_step_fail(log,
                             "one input and no %s, %s or %s: merge would only copy it (give "
                             "two or more inputs)",
                             pki_step_spell(s, "offset", n1), pki_step_spell(s, "sections", n2),
                             pki_step_spell(s, "within", n3));
    if (o->offsets.n > n)
        return pki_step_fail(log, "%zu %s options for %zu input%s", o->offsets.n,
                             pki_step_spell(s, "offset", n1), n, pki_plural(n));
    if (o->sections.n > n)
        return pki_step_fail(log, "%zu %s options for %zu input%s", o->sections.n,
                             pki_step_spell(s, "sections", n1), n, pki_plural(n));
    const uint32_t *w = o->within.v;
    for (size_t k = 0; k < o->within.n; k++) {
        if (w[k] > n)
            return pki_step_fail(log, "%s %u: there %s only %zu input%s",
                                 pki_step_spell(s, "within", n1), w[k], n == 1 ? "is" : "are", n,
                                 pki_plural(n));
        for (size_t j = 0; j < k; j++)
            if (w[j] == w[k])
                return pki_step_fail(log, "%s %u is given twice", pki_step_spell(s, "within", n1),
                                     w[k]);
    }
    return 0;
}

/* An option given once per input but fewer times than inputs: which
 * inputs it applies to, and which it does not ("--offset given 1 time for
 * 2 inputs: it shifts input 1 (a.vmd); input 2 (b.vmd) is not shifted"). */
static void warn_short(const pk_step *s, pk_log *log, const char *opt, const char *verb,
                       size_t given, const char *rest_one, const char *rest_many)
{
    size_t n = s->ninputs;
    char *const *inputs = s->inputs;
    if (given == 0 || given >= n)
        return;
    char who[256], rest[256];
    if (given == 1)
        snprintf(who, sizeof who, "it %ss input 1 (%s)", verb, inputs[0]);
    else
        snprintf(who, sizeof who, "they %s inputs 1-%zu, the k-th %s%s the k-th input", verb, given,
                 s->prefix, opt);
    if (given + 1 == n)
        snprintf(rest, sizeof rest, "input %zu (%s) %s", n, inputs[n - 1], rest_one);
    else
        snprintf(rest, sizeof rest, "inputs %zu-%zu %s", given + 1, n, rest_many);
    pk_warning(log, PK_E_USAGE, "%s%s given %zu time%s for %zu inputs: %s; %s", s->prefix, opt,
               given, pki_plural(given), n, who, rest);
}

/* Puts back the inputs' own poses where copies with cut names stood. */
static void uncut(pk_merge_input *mi, const pk_doc *in, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (mi[k].pose != in[k].pose) {
            pk_pose_free((pk_pose *)mi[k].pose);
            mi[k].pose = in[k].pose;
        }
}

/* A merge whose output is one of its motion inputs byte for byte (that
 * input merged with empty motions, with itself, or winning every conflict)
 * changed nothing: said, as every command says it (--strict: an error). */
static void warn_unchanged(const pk_step *s, const pk_doc *in, size_t n, const pk_motion *m,
                           pk_log *log)
{
    for (size_t i = 0; i < n; i++)
        if (in[i].motion && pki_motion_same_bytes(in[i].motion, m)) {
            size_t from = pki_mark(log);
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing merged: the output is this input (input %zu) unchanged, the "
                       "other input%s add%s nothing to it",
                       i + 1, n > 2 ? "s" : "", n > 2 ? "" : "s");
            pk_log_place(log, from, s->inputs[i]);
            return;
        }
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    const merge_opts *o = s->o;
    merge_result *mr = res->own = calloc(1, sizeof *mr);
    pk_merge_input *mi = mr ? (mr->in = calloc(n ? n : 1, sizeof *mi)) : NULL;
    if (!mi) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    mr->n = n;
    warn_short(s, log, "offset", "shift", o->offsets.n, "is not shifted", "are not shifted");
    warn_short(s, log, "sections", "limit", o->sections.n, "gives every section",
               "give every section");
    const int64_t *off = o->offsets.v;
    const unsigned *sec = o->sections.v;
    for (size_t i = 0; i < n; i++) {
        mi[i].motion = in[i].motion;
        mi[i].pose = in[i].pose;
        if (in[i].pose && o->cut_names) { /* the pose's names as a VMD holds them */
            size_t from = pki_mark(log);
            pk_pose *c = pk_pose_clone(in[i].pose);
            long cut = c ? pk_pose_cut_names(c, log) : -1;
            pk_log_place(log, from, s->inputs[i]);
            if (cut < 0) {
                if (!c)
                    pk_error(log, PK_E_NO_MEMORY, "out of memory");
                pk_pose_free(c);
                uncut(mi, in, i);
                return -1;
            }
            mi[i].pose = c; /* freed below, after the merge */
        }
        mi[i].offset = i < o->offsets.n ? off[i] : 0;
        mi[i].sections = i < o->sections.n ? sec[i] : 0;
        mi[i].name = s->inputs[i];
    }
    const uint32_t *w = o->within.v;
    for (size_t k = 0; k < o->within.n; k++)
        mi[w[k] - 1].within = true;
    res->out.format = PK_FMT_VMD;
    res->out.motion = pk_merge(mi, n, (pk_merge_policy)o->prefer, &mr->report, log);
    uncut(mi, in, n);
    if (res->out.motion && pki_drop_duplicates(&res->out, res, log) != 0)
        return -1;
    const pk_motion *m = res->out.motion;
    size_t records = 0;
    for (pk_section sc = 0; m && sc < PK_SEC_COUNT; sc++)
        records += pk_motion_count(m, sc);
    if (m && records == 0)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to merge: %s no record, the output is an empty motion",
                   o->sections.n ? "the sections taken from the inputs hold" : "the inputs hold");
    else if (m && n > 1)
        warn_unchanged(s, in, n, m, log);
    return m ? 0 : -1;
}

static const char *policy_name(int p)
{
    return p == PK_MERGE_FIRST ? "first" : p == PK_MERGE_ERROR ? "error" : "last";
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    const merge_result *mr = res->own;
    if (!mr)
        return;
    const pk_merge_report *m = &mr->report;
    pk_buf_printf(out,
                  "%zu conflict%s (%sprefer %s), %zu identical key%s kept once, %zu key%s "
                  "below frame 0 dropped",
                  m->count, pki_plural(m->count), s->prefix,
                  policy_name(((const merge_opts *)s->o)->prefer), m->identical,
                  pki_plural(m->identical), m->below_zero, pki_plural(m->below_zero));
    if (m->past_end)
        pk_buf_printf(out, ", %zu past frame 4294967295", m->past_end);
    pk_buf_printf(out, "; %zu overlapping track%s", m->noverlaps, pki_plural(m->noverlaps));
    if (m->cut_keys)
        pk_buf_printf(out, ", %zu key%s kept at a cut", m->cut_keys, pki_plural(m->cut_keys));
    if (m->within_tracks)
        pk_buf_printf(out, ", %zu track%s laid within (%zu crossed piece%s baked)",
                      m->within_tracks, pki_plural(m->within_tracks), m->within_baked,
                      pki_plural(m->within_baked));
    pki_duplicates_summary(res, out);
}

static const char *const SEC[PK_SEC_COUNT] = {"bone", "morph", "camera", "light", "shadow", "ik"};

static void range_text(char *buf, size_t cap, uint32_t a, uint32_t b)
{
    if (a == b)
        snprintf(buf, cap, "frame %u", a);
    else
        snprintf(buf, cap, "frames %u-%u", a, b);
}

/* The track a conflict or overlap is about: "bone 'NAME'", "camera". */
static void track(pk_buf *out, pk_section sec, const char *name)
{
    pk_buf_puts(out, SEC[sec]);
    if (name)
        pk_buf_printf(out, " '%s'", name);
}

/* Overlaps and conflicts listed without --verbose: two whole dances
 * merged overlap on every track (199 of wavefile's with itself shifted by
 * 5 frames) and may conflict at thousands of frames. */
#define SHOWN 10

/* "... and N more KIND (--verbose lists them all)" when some were left out */
static void more(const pk_step *s, size_t n, size_t shown, const char *kind, pk_buf *out)
{
    char nv[64];
    if (n > shown)
        pk_buf_printf(out, "... and %zu more %s (%s lists them all)\n", n - shown, kind,
                      pki_step_spell(s, "verbose", nv));
}

/* Every overlap and conflict, one line each (the first SHOWN of each
 * without --verbose), then the summary. */
static void text(const pk_step *s, const merge_result *mr, const pk_step_result *res, pk_buf *out)
{
    const pk_merge_report *r = &mr->report;
    char *const *inputs = s->inputs;
    char n1[64], n2[64];
    bool all = ((const merge_opts *)s->o)->verbose;
    size_t no = all || r->noverlaps < SHOWN ? r->noverlaps : SHOWN;
    size_t nc = all || r->count < SHOWN ? r->count : SHOWN;
    for (size_t i = 0; i < no; i++) {
        const pk_merge_overlap *o = &r->overlaps[i];
        char ra[48], rb[48];
        range_text(ra, sizeof ra, o->a_first, o->a_last);
        range_text(rb, sizeof rb, o->b_first, o->b_last);
        pk_buf_puts(out, "overlap: ");
        track(out, o->section, o->name);
        pk_buf_printf(out,
                      " keyed by input %zu (%s, %s) and input %zu (%s, %s): the merged track runs "
                      "through both inputs' keys\n",
                      o->a + 1, inputs[o->a], ra, o->b + 1, inputs[o->b], rb);
    }
    more(s, r->noverlaps, no, "overlapping tracks", out);
    if (r->noverlaps)
        pk_buf_printf(out,
                      "to lay an input over the others only inside its own frames, use %s K; to "
                      "take only some of its sections, %s\n",
                      pki_step_spell(s, "within", n1), pki_step_spell(s, "sections", n2));
    for (size_t i = 0; i < nc; i++) {
        const pk_merge_conflict *c = &r->items[i];
        pk_buf_puts(out, "conflict: ");
        track(out, c->section, c->name);
        pk_buf_printf(out, " at frame %u: kept input %zu (%s), dropped input %zu (%s)\n", c->frame,
                      c->kept + 1, inputs[c->kept], c->dropped + 1, inputs[c->dropped]);
    }
    more(s, r->count, nc, "conflicts", out);
    summary(s, res, out);
    pk_buf_putc(out, '\n');
}

/* The name of a conflict or overlap: a string, or null (camera, ...). */
static void name_or_null(pki_json *j, const char *name)
{
    pki_json_key(j, "name");
    if (name)
        pki_json_str(j->b, name);
    else
        pk_buf_puts(j->b, "null");
}

static void json_inputs(const pk_step *s, const merge_result *mr, pki_json *j)
{
    pki_json_key(j, "inputs");
    pki_json_open(j, '[');
    for (size_t i = 0; i < mr->n; i++) {
        const pk_merge_input *in = &mr->in[i];
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_kstr(j, "path", s->inputs[i]);
        pki_json_kint(j, "offset", in->offset);
        pki_json_key(j, "sections");
        pki_json_open(j, '[');
        for (int k = 0; k < PK_SEC_COUNT; k++)
            if (!in->sections || (in->sections & (1u << k))) {
                pki_json_item(j);
                pki_json_str(j->b, pk_section_word((pk_section)k));
            }
        pki_json_close(j, ']');
        pki_json_key(j, "within");
        pk_buf_puts(j->b, in->within ? "true" : "false");
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
}

static void json_overlaps(const pk_step *s, const pk_merge_report *r, pki_json *j)
{
    pki_json_key(j, "overlaps");
    pki_json_open(j, '[');
    for (size_t i = 0; i < r->noverlaps; i++) {
        const pk_merge_overlap *c = &r->overlaps[i];
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_kstr(j, "section", SEC[c->section]);
        name_or_null(j, c->name);
        pki_json_key(j, "inputs");
        pki_json_open(j, '[');
        for (int k = 0; k < 2; k++) {
            size_t idx = k ? c->b : c->a;
            pki_json_item(j);
            pki_json_open(j, '{');
            pki_json_kint(j, "input", (long long)idx + 1);
            pki_json_kstr(j, "path", s->inputs[idx]);
            pki_json_kint(j, "first", k ? c->b_first : c->a_first);
            pki_json_kint(j, "last", k ? c->b_last : c->a_last);
            pki_json_close(j, '}');
        }
        pki_json_close(j, ']');
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
}

/* Indented: the inputs as merged, the policy, every conflict and
 * overlap, the counts, and the records of the result per section. */
static void json(const pk_step *s, const merge_result *mr, const pk_step_result *res, pk_buf *out)
{
    const pk_merge_report *r = &mr->report;
    pki_json j = pki_json_begin(out, true);
    pki_json_open(&j, '{');
    json_inputs(s, mr, &j);
    pki_json_kstr(&j, "prefer", policy_name(((const merge_opts *)s->o)->prefer));
    pki_json_key(&j, "conflicts");
    pki_json_open(&j, '[');
    for (size_t i = 0; i < r->count; i++) {
        const pk_merge_conflict *c = &r->items[i];
        pki_json_item(&j);
        pki_json_open(&j, '{');
        pki_json_kstr(&j, "section", SEC[c->section]);
        name_or_null(&j, c->name);
        pki_json_kint(&j, "frame", c->frame);
        pki_json_kint(&j, "kept", (long long)c->kept + 1);
        pki_json_kint(&j, "dropped", (long long)c->dropped + 1);
        pki_json_close(&j, '}');
    }
    pki_json_close(&j, ']');
    json_overlaps(s, r, &j);
    pki_json_kint(&j, "cut_keys", (long long)r->cut_keys);
    pki_json_kint(&j, "within_tracks", (long long)r->within_tracks);
    pki_json_kint(&j, "within_baked", (long long)r->within_baked);
    pki_json_kint(&j, "identical", (long long)r->identical);
    pki_json_kint(&j, "below_zero", (long long)r->below_zero);
    pki_json_kint(&j, "past_end", (long long)r->past_end);
    const pk_motion *m = res->out.motion;
    pki_json_key(&j, "records");
    if (m) {
        pki_json_open(&j, '{');
        pki_json_kint(&j, "bones", (long long)m->nbones);
        pki_json_kint(&j, "morphs", (long long)m->nmorphs);
        pki_json_kint(&j, "cameras", (long long)m->ncameras);
        pki_json_kint(&j, "lights", (long long)m->nlights);
        pki_json_kint(&j, "shadows", (long long)m->nshadows);
        pki_json_kint(&j, "ik", (long long)m->niks);
        pki_json_close(&j, '}');
    } else {
        pk_buf_puts(out, "null");
    }
    pki_json_close(&j, '}');
    pk_buf_putc(out, '\n');
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log)
{
    (void)log;
    const merge_result *mr = res->own;
    if (!mr)
        return 1;
    if (f == PK_REPORT_JSON)
        json(s, mr, res, out);
    else
        text(s, mr, res, out);
    return 0;
}

static const char HELP[] =
    "usage: posekit merge IN... -o OUT [--offset N]... [--sections LIST]...\n"
    "                     [--within K]... [--prefer first|last|error] [--json]\n"
    "                     [--cut-names] [--strict] [--verbose]\n"
    "\n"
    "Combines the tracks of every input (VMDs; a VPD counts as a one-frame\n"
    "motion) into one motion.  Records keep their file order, input after\n"
    "input; the header and model name come from the first input that has\n"
    "records, so merging a motion with an empty one gives it back\n"
    "byte-identical.\n"
    "\n"
    "  -o, --output OUT   output (.vmd: a merge is a motion); atomic;\n"
    "                     never an input\n"
    "  --offset N         shift the input at the same position by N frames\n"
    "                     (give it once per input, in order).  A negative\n"
    "                     offset cuts the input at frame -N: keys before the\n"
    "                     cut are dropped and the pose at the cut is kept as\n"
    "                     keys at frame 0 (a warning says so)\n"
    "  --sections LIST    take only these sections from the input at the same\n"
    "                     position (once per input, in order, like --offset):\n"
    "                     comma-separated bones, morphs, camera, light, shadow,\n"
    "                     ik, or all (the default)\n"
    "  --within K         input K (1-based; repeatable) replaces the other\n"
    "                     inputs' bones and morphs only inside its own frame\n"
    "                     range A-B (its first to last bone or morph key):\n"
    "                     every track it keys samples as input K from A to B\n"
    "                     and exactly as the merge of the others up to A-1\n"
    "                     and from B+1 on (crossed curve segments split or\n"
    "                     baked, as overlay does).  Laid after the others are\n"
    "                     merged, in order\n"
    "  --prefer P         the same bone or morph (or camera, light, shadow,\n"
    "                     IK record) at the same frame in several inputs:\n"
    "                     last (default; like loading motions one after\n"
    "                     another in MMD), first, or error (exit 2)\n"
    "  --json             the report as JSON on stdout instead of text on\n"
    "                     stderr (not with -o -)\n"
    "  --cut-names        cut a VPD input's names longer than a VMD field\n"
    "                     (15 bytes) as MMD does, a warning per name (else\n"
    "                     each is an error)\n"
    "  --strict           warnings are errors\n"
    "  -v, --verbose      list every overlap and conflict (else the first 10\n"
    "                     of each and how many more; --json has them all)\n"
    "  -h, --help         this text\n"
    "\n"
    "Keys with the same value in several inputs are kept once and are not\n"
    "conflicts.  Every conflict is listed: section, name, frame, the input\n"
    "kept and the input dropped (1-based).  Every overlap is listed too: a\n"
    "track two inputs key over overlapping frames (one's key strictly inside\n"
    "the other's first..last), which the merge re-interpolates through both\n"
    "inputs' keys; --within or --sections avoid it, --prefer error refuses\n"
    "it.\n";

const pki_step_def pki_step_merge = {
    .name = "merge",
    .about = "combine motions, conflicts resolved by policy",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(merge_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion, /* a pose merges as a one-frame motion */
    .free_result = free_result,
    .cli = {.output = PK_CLI_OUT_DOC},
};
