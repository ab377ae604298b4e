/* step_check.c — check: a motion or pose against a model
 * (engine/ops/skeleton/check.c); its report as text, as JSON, and the
 * rules file renaming each missing name to its near miss. */
#include "step/step.h"
#include "step/step_option.h"

#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct check_opts {
    char *model_name;
    const pk_model *model;
    const pk_bodies *bodies; /* no model (or "@auto"): the built-in bodies to fit */
    bool rules_wanted;       /* the suggested rules file was asked for */
} check_opts;

#define T check_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_MODEL(T, "model", model_name, model),
};
#undef T

typedef struct check_result {
    pk_check_report *report;
    const pk_model *model; /* the caller's: it must outlive the result */
    size_t field;          /* the input's name field, 15 (VMD) or 19 (VPD) */
    /* no model: how well each built-in body fits (the caller's bodies) */
    const pk_bodies *bodies;
    pk_body_fit *fit;
    long best;
    /* the suggested rules, written once by the run when they are wanted
     * (check_rules): the file and the note on it (rules_note) read them */
    bool rules_made;
    pk_buf rules;
    size_t nrules;
} check_result;

static void free_result(void *p)
{
    check_result *r = p;
    if (r) {
        pk_check_free(r->report);
        free(r->fit);
        pk_buf_free(&r->rules);
    }
    free(r);
}

/* No model, or "@auto": which built-in body fits. */
static bool fits_bodies(const pk_step *s)
{
    const check_opts *o = s->o;
    return !o->model_name || strcmp(o->model_name, PKI_AUTO_BODY) == 0;
}

static void want(pk_step *s, pk_report_format f)
{
    if (f == PK_REPORT_RULES)
        ((check_opts *)s->o)->rules_wanted = true;
}

static int check(const pk_step *s, pk_log *log)
{
    char n1[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    const check_opts *o = s->o;
    if (fits_bodies(s) && o->rules_wanted)
        /* @auto picks a built-in body, whose names are the standard ones:
         * no model's own names to rename to */
        return pki_step_fail(log, "the suggested rules rename to a model's names: give %s MODEL%s",
                             pki_step_spell(s, "model", n1),
                             o->model_name ? " (a file; @auto only tells which built-in body fits)"
                                           : "");
    return 0;
}

/* Which built-in body the input fits best. */
static int run_fit(const check_opts *o, const pk_doc *in, check_result *cr, pk_log *log)
{
    if (!o->bodies) {
        pk_error(log, PK_E_USAGE, "check: the built-in bodies are not loaded");
        return -1;
    }
    cr->bodies = o->bodies;
    cr->fit = calloc(o->bodies->n + 1, sizeof *cr->fit);
    if (!cr->fit) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    cr->best =
        pk_body_fit_doc((const pk_model *const *)o->bodies->models, o->bodies->n, in, cr->fit, log);
    return cr->best < 0 ? -1 : 0;
}

static size_t check_rules(const pk_step *s, const check_result *cr, pk_buf *b);

/* The suggested rules, once.  0, or -1 (OOM, logged). */
static int make_rules(const pk_step *s, check_result *cr, pk_log *log)
{
    pk_buf_init(&cr->rules);
    cr->nrules = check_rules(s, cr, &cr->rules);
    if (cr->rules.oom) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    cr->rules_made = true;
    return 0;
}

/* The input against the model the caller loaded. */
static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const check_opts *o = s->o;
    if (fits_bodies(s)) {
        check_result *cr = pki_result_new(res, sizeof *cr, log);
        if (!cr)
            return -1;
        size_t from = pki_mark(log);
        int rc = run_fit(o, in, cr, log);
        /* a dance whose names are another model's (renamed to English)
         * fits no body by its names: said as retarget says it (one that
         * keys no body's bone at all reads "best: none" already) */
        if (rc == 0 && cr->fit[cr->best].has) {
            char on[96];
            snprintf(on, sizeof on, "@%s, the built-in body it fits best",
                     o->bodies->names[cr->best]);
            pki_warn_names_elsewhere(o->bodies->models[cr->best], in, on, "", "", log);
        }
        pk_log_place(log, from, s->inputs[0]);
        res->found = rc == 0 && !cr->fit[cr->best].has; /* nothing fits: exit 1 */
        return rc;
    }
    if (!o->model) {
        pk_error(log, PK_E_USAGE, "check: the model '%s' is not loaded", o->model_name);
        return -1;
    }
    check_result *cr = pki_result_new(res, sizeof *cr, log);
    if (!cr)
        return -1;
    if (in->motion && !in->motion->nbones && !in->motion->nmorphs && in->motion->ncameras) {
        /* a camera plays on no model: "0 missing" would read as a fit */
        size_t from = pki_mark(log);
        pk_warning(log, PK_E_NO_EFFECT,
                   "a camera motion (%zu camera key%s, no bone or morph key): nothing of it "
                   "plays on %s (check the dance the camera frames)",
                   in->motion->ncameras, pki_plural(in->motion->ncameras), o->model_name);
        pk_log_place(log, from, s->inputs[0]);
    }
    cr->report = in->motion ? pk_check_motion(o->model, in->motion, log)
                            : pk_check_pose(o->model, in->pose, log);
    if (!cr->report)
        return -1;
    cr->model = o->model;
    cr->field = in->motion ? PK_VMD_NAME_BYTES : PK_VPD_NAME_BYTES;
    res->found = cr->report->missing_moving > 0; /* misses at rest show nothing */
    return o->rules_wanted ? make_rules(s, cr, log) : 0;
}

static const char *status_word(pk_check_status st)
{
    return st == PK_CHECK_FOUND ? "found" : st == PK_CHECK_CUT ? "cut" : "missing";
}

/* The model's name for an item: found or cut, the match; missing, the
 * near miss; NULL when none. */
static const char *model_name(const pk_model *m, const pk_check_item *it)
{
    if (it->index < 0)
        return NULL;
    return it->morph ? m->morphs[it->index].name : m->bones[it->index].name;
}

/* The k-th model name a cut name matches (pk_check_item.matches). */
static const char *match_name(const pk_model *m, const pk_check_item *it, size_t k)
{
    long i = it->matches[k];
    return it->morph ? m->morphs[i].name : m->bones[i].name;
}

/* Whether the model's bone is one the motion could key but never does
 * (bones physics drives are not: MMD moves them). */
static bool unkeyed(const pk_model *m, const pk_check_report *r, const pk_model_frame_item *x)
{
    return x->kind == 0 && !r->keyed[x->index] && !r->driven[x->index] &&
           (m->bones[x->index].flags & PK_BONE_OPERABLE);
}

static void check_counts(const pk_check_report *r, size_t *nb, size_t *nm, size_t *mb, size_t *mm,
                         size_t *vb, size_t *vm)
{
    *nb = *nm = *mb = *mm = *vb = *vm = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        const pk_check_item *it = &r->items[i];
        *(it->morph ? nm : nb) += 1;
        if (it->status == PK_CHECK_MISSING) {
            *(it->morph ? mm : mb) += 1;
            *(it->morph ? vm : vb) += it->moving > 0;
        }
    }
}

static void check_summary(const check_result *cr, pk_buf *f)
{
    const pk_check_report *r = cr->report;
    size_t nb, nm, mb, mm, vb, vm;
    check_counts(r, &nb, &nm, &mb, &mm, &vb, &vm);
    pk_buf_printf(f,
                  "bones keyed: %zu, missing on the model: %zu (%zu moving); morphs keyed: %zu, "
                  "missing on the model: %zu (%zu moving)",
                  nb, mb, vb, nm, mm, vm);
    if (r->near)
        pk_buf_printf(f, "; %zu near miss%s", r->near, r->near == 1 ? "" : "es");
    if (r->cut)
        pk_buf_printf(f, "; %zu found through MMD's %zu-byte cut", r->cut, cr->field);
    if (r->unusable)
        pk_buf_printf(f, "; %zu with keys the model cannot use", r->unusable);
    if (r->physics)
        pk_buf_printf(f, "; %zu driven by physics", r->physics);
}

/* "(12 keys, 3 off rest)" for a motion; nothing for a pose, which holds
 * one entry per name (at_rest: whether to say a pose's entry is). */
static void key_counts(pk_buf *f, const pk_check_report *r, const pk_check_item *it)
{
    if (r->pose) {
        if (it->keys > 1)
            pk_buf_printf(f, " (%zu entries)", it->keys);
        return;
    }
    pk_buf_printf(f, " (%zu key%s", it->keys, pki_plural(it->keys));
    if (it->moving)
        pk_buf_printf(f, ", %zu off rest", it->moving);
    pk_buf_putc(f, ')');
}

/* The missing names that move, most keys off rest first: each with its
 * near miss, or the bones the retarget fold carries it into. */
static void check_missing_moving(const check_result *cr, pk_buf *f)
{
    const pk_check_report *r = cr->report;
    const pk_model *m = cr->model;
    pk_buf_printf(f, "missing and moving (MMD ignores these keys: the model shows none of "
                     "them):\n");
    for (size_t o = 0; o < r->nitems; o++) {
        const pk_check_item *it = &r->items[r->order[o]];
        if (it->status != PK_CHECK_MISSING || !it->moving)
            continue;
        pk_buf_printf(f, "  %-5s %s", it->morph ? "morph" : "bone", it->name);
        key_counts(f, r, it);
        if (it->index >= 0)
            pk_buf_printf(f, "  near miss: %s (%s)", model_name(m, it), it->why);
        if (it->nfold_into) {
            pk_buf_puts(f, "  retarget from its source model to this one folds its turn into");
            for (size_t k = 0; k < it->nfold_into; k++)
                pk_buf_printf(f, "%s %s", k ? "," : "", m->bones[it->fold_into[k]].name);
        }
        pk_buf_putc(f, '\n');
    }
}

/* The missing names whose keys are all at rest, most keys first, one line
 * per kind; a dance made for a rich model can have hundreds (hair, skirt,
 * helper bones): the first REST_SHOWN, the JSON report has every one. */
#define REST_SHOWN 24
static void check_missing_rest(const pk_check_report *r, size_t bones, size_t morphs, pk_buf *f)
{
    pk_buf_printf(f, "missing, every key at rest (MMD shows nothing either way): ");
    if (bones)
        pk_buf_printf(f, "%zu bone%s%s", bones, pki_plural(bones), morphs ? ", " : "");
    if (morphs)
        pk_buf_printf(f, "%zu morph%s", morphs, pki_plural(morphs));
    pk_buf_putc(f, '\n');
    for (int kind = 0; kind < 2; kind++) {
        if (!(kind ? morphs : bones))
            continue;
        pk_buf_printf(f, "  %s:", kind ? "morphs" : "bones");
        size_t n = 0;
        for (size_t o = 0; o < r->nitems; o++) {
            const pk_check_item *it = &r->items[r->order[o]];
            if (it->status != PK_CHECK_MISSING || it->moving || it->morph != (kind == 1))
                continue;
            if (n++ == REST_SHOWN)
                break;
            pk_buf_printf(f, "%s %s", n > 1 ? "," : "", it->name);
            if (it->keys > 1)
                key_counts(f, r, it);
        }
        size_t all = kind ? morphs : bones;
        if (all > REST_SHOWN)
            pk_buf_printf(f, " and %zu more (the JSON report lists every one)", all - REST_SHOWN);
        pk_buf_putc(f, '\n');
    }
}

static void check_text(const pk_step *s, const check_result *cr, pk_buf *f)
{
    const check_opts *o = s->o;
    const pk_check_report *r = cr->report;
    const pk_model *m = cr->model;
    size_t nb, nm, mb, mm, vb, vm;
    check_counts(r, &nb, &nm, &mb, &mm, &vb, &vm);
    /* a model without a name (bare test models) gets no empty brackets */
    if (m->name && m->name[0])
        pk_buf_printf(f, "%s on %s (%s)\n", s->inputs[0], o->model_name, m->name);
    else
        pk_buf_printf(f, "%s on %s\n", s->inputs[0], o->model_name);
    pk_buf_printf(f, "  bones keyed: %zu, missing on the model: %zu (%zu moving)\n", nb, mb, vb);
    pk_buf_printf(f, "  morphs keyed: %zu, missing on the model: %zu (%zu moving)\n", nm, mm, vm);
    if (r->missing_moving)
        check_missing_moving(cr, f);
    if (r->missing > r->missing_moving)
        check_missing_rest(r, mb - vb, mm - vm, f);
    if (r->cut) {
        pk_buf_printf(f, "found through MMD's %zu-byte cut of the model's name:\n", cr->field);
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->status != PK_CHECK_CUT)
                continue;
            pk_buf_printf(f, "  %-5s %s", it->morph ? "morph" : "bone", it->name);
            key_counts(f, r, it);
            pk_buf_printf(f, " = %s", model_name(m, it));
            /* several model names cut to the same bytes: the file cannot
             * say which was meant (posekit's evaluation gives the keys to
             * all of them, doc/commands.md "check") */
            for (size_t k = 1; k < it->nmatches; k++)
                pk_buf_printf(f, ", %s", match_name(m, it, k));
            if (it->nmatches > 1)
                pk_buf_printf(f,
                              " (ambiguous: %zu model %s cut to this name; the file "
                              "cannot say which it keys)",
                              it->nmatches, it->morph ? "morphs" : "bones");
            pk_buf_putc(f, '\n');
        }
    }
    if (r->unusable) {
        pk_buf_puts(f, "keys the model cannot use:\n");
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->move_unusable)
                pk_buf_printf(f,
                              "  bone  %s: %zu keys translate it; the model does not let it "
                              "move\n",
                              it->name, it->move_unusable);
            if (it->rotate_unusable)
                pk_buf_printf(f,
                              "  bone  %s: %zu keys rotate it; the model does not let it "
                              "rotate\n",
                              it->name, it->rotate_unusable);
        }
    }
    if (r->physics) {
        pk_buf_printf(f,
                      "driven by physics (MMD overwrites these keys while physics is on): "
                      "%zu bone%s\n ",
                      r->physics, pki_plural(r->physics));
        size_t n = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[r->order[i]];
            if (!it->physics)
                continue;
            pk_buf_printf(f, "%s %s", n++ ? "," : "", it->name);
            key_counts(f, r, it);
        }
        pk_buf_putc(f, '\n');
    }
    /* informative: operable bones never keyed, by display frame */
    bool header = false;
    for (size_t fr = 0; fr < m->nframes; fr++) {
        const pk_model_frame *d = &m->frames[fr];
        bool any = false;
        for (size_t k = 0; k < d->nitems; k++) {
            if (!unkeyed(m, r, &d->items[k]))
                continue;
            if (!header)
                pk_buf_puts(f, "model bones the motion never keys (by display frame; bones "
                               "physics drives left out):\n");
            header = true;
            if (!any)
                pk_buf_printf(f, "  %s:", d->name);
            any = true;
            pk_buf_printf(f, " %s", m->bones[d->items[k].index].name);
        }
        if (any)
            pk_buf_putc(f, '\n');
    }
}

static void check_json(const pk_step *s, const check_result *cr, pk_buf *f)
{
    const check_opts *o = s->o;
    const pk_check_report *r = cr->report;
    const pk_model *m = cr->model;
    pki_json j = pki_json_begin(f, true);
    pki_json_open(&j, '{');
    /* "path" as info says; "file" and "model_file" kept for older readers */
    pki_json_kstr(&j, "path", s->inputs[0]);
    pki_json_kstr(&j, "model_path", o->model_name);
    pki_json_kstr(&j, "file", s->inputs[0]);
    pki_json_kstr(&j, "model_file", o->model_name);
    pki_json_kstr(&j, "model", m->name);
    pki_json_kint(&j, "missing", r->missing);
    pki_json_kint(&j, "missing_moving", r->missing_moving);
    pki_json_kint(&j, "missing_at_rest", r->missing - r->missing_moving);
    pki_json_kint(&j, "cut", r->cut);
    pki_json_kint(&j, "physics", r->physics);
    for (int morphs = 0; morphs < 2; morphs++) {
        pki_json_key(&j, morphs ? "morphs" : "bones");
        pki_json_open(&j, '[');
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->morph != (morphs == 1))
                continue;
            pki_json_item(&j);
            pki_json_open(&j, '{');
            pki_json_kstr(&j, "name", it->name);
            pki_json_kint(&j, "keys", it->keys);
            pki_json_kint(&j, "moving", it->moving);
            pki_json_kstr(&j, "status", status_word(it->status));
            const char *mn = model_name(m, it);
            if (it->status != PK_CHECK_MISSING) {
                pki_json_kstr(&j, "model_name", mn);
                if (it->status == PK_CHECK_CUT) { /* every name cut to it, model_name first */
                    pki_json_key(&j, "model_names");
                    pki_json_open(&j, '[');
                    for (size_t k = 0; k < it->nmatches; k++) {
                        pki_json_item(&j);
                        pki_json_str(j.b, match_name(m, it, k));
                    }
                    pki_json_close(&j, ']');
                }
            } else if (mn) {
                pki_json_key(&j, "near_miss");
                pki_json_open(&j, '{');
                pki_json_kstr(&j, "name", mn);
                pki_json_kstr(&j, "why", it->why);
                pki_json_close(&j, '}');
            } else {
                pki_json_key(&j, "near_miss");
                pk_buf_puts(f, "null");
            }
            if (!it->morph) {
                pki_json_kint(&j, "move_unusable", it->move_unusable);
                pki_json_kint(&j, "rotate_unusable", it->rotate_unusable);
                pki_json_kbool(&j, "physics", it->physics);
            }
            if (!it->morph && it->status == PK_CHECK_MISSING) {
                pki_json_key(&j, "fold_into");
                pki_json_open(&j, '[');
                for (size_t k = 0; k < it->nfold_into; k++) {
                    pki_json_item(&j);
                    pki_json_str(j.b, m->bones[it->fold_into[k]].name);
                }
                pki_json_close(&j, ']');
            }
            pki_json_close(&j, '}');
        }
        pki_json_close(&j, ']');
    }
    pki_json_key(&j, "unkeyed");
    pki_json_open(&j, '[');
    for (size_t fr = 0; fr < m->nframes; fr++) {
        const pk_model_frame *d = &m->frames[fr];
        size_t n = 0;
        for (size_t k = 0; k < d->nitems; k++)
            n += unkeyed(m, r, &d->items[k]);
        if (!n)
            continue;
        pki_json_item(&j);
        pki_json_open(&j, '{');
        pki_json_kstr(&j, "frame", d->name);
        pki_json_key(&j, "bones");
        pki_json_open(&j, '[');
        for (size_t k = 0; k < d->nitems; k++)
            if (unkeyed(m, r, &d->items[k])) {
                pki_json_item(&j);
                pki_json_str(j.b, m->bones[d->items[k].index].name);
            }
        pki_json_close(&j, ']');
        pki_json_close(&j, '}');
    }
    pki_json_close(&j, ']');
    pki_json_close(&j, '}');
    pk_buf_putc(f, '\n');
}

/* The model's morph named exactly utf8 (and CP932 can hold it), or -1. */
static long morph_named(const pk_model *m, const char *utf8)
{
    for (size_t i = 0; i < m->nmorphs; i++)
        if (m->morphs[i].cp932 != PK_NO_NAME && strcmp(m->morphs[i].name, utf8) == 0)
            return (long)i;
    return -1;
}

/* A missing morph the model has only in halves, NAME左 and NAME右 (or
 * NAME_L and NAME_R), both within the name field: their indices in
 * side[2], true.  Such a morph is best fanned out to both. */
static bool split_in_sides(const pk_model *m, const char *name, size_t field, long side[2])
{
    static const char *const SUFFIX[][2] = {{"左", "右"}, {"_L", "_R"}};
    for (size_t k = 0; k < sizeof SUFFIX / sizeof *SUFFIX; k++) {
        char buf[2][256];
        for (int j = 0; j < 2; j++) {
            snprintf(buf[j], sizeof buf[j], "%s%s", name, SUFFIX[k][j]);
            side[j] = morph_named(m, buf[j]);
        }
        if (side[0] < 0 || side[1] < 0)
            continue;
        /* names the field cuts are left to the near miss, whose cut MMD
         * may match to both halves */
        size_t la, lb;
        (void)pk_names_raw(m->names, m->morphs[side[0]].cp932, &la);
        (void)pk_names_raw(m->names, m->morphs[side[1]].cp932, &lb);
        if (la <= field && lb <= field)
            return true;
    }
    return false;
}

/* The rules file (rules/README.md): for each missing name with a near
 * miss, a rename to the model's name (cut to the field on a character
 * boundary when the model's name is longer, which MMD then matches by its
 * cut), one comment per rule saying why.  A morph whose near miss the
 * motion already keys (or an earlier rule maps to) gets a weighted rule
 * {to: NAME}, which sums the two; a bone there gets a comment only.  A
 * morph the model has only in halves (NAME左 and NAME右) is fanned out to
 * both: {to: [NAME左, NAME右]}.  Returns the number of rules written. */
static size_t check_rules(const pk_step *s, const check_result *cr, pk_buf *b)
{
    size_t rules = 0;
    const check_opts *o = s->o;
    const pk_check_report *r = cr->report;
    const pk_model *m = cr->model;
    const char *path = s->inputs[0];
    pk_buf_printf(b,
                  "# Suggested by `posekit check %s --model %s`:\n"
                  "# each missing name renamed to the model's closest name.\n"
                  "# Apply with: posekit rename %s --rules THIS_FILE -o OUT\n",
                  path, o->model_name, path);
    if (r->missing > r->missing_moving)
        pk_buf_printf(b,
                      "# %zu missing name%s whose keys are all at rest left out (MMD shows "
                      "nothing for them either way).\n",
                      r->missing - r->missing_moving, pki_plural(r->missing - r->missing_moving));
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (size_t i = 0; i < r->nitems; i++) {
            const pk_check_item *it = &r->items[i];
            if (it->morph != (pass == 1) || it->status != PK_CHECK_MISSING || !it->moving)
                continue;
            if (!any)
                pk_buf_puts(b, pass ? "morphs:\n" : "rename:\n");
            any = true;
            long side[2];
            if (it->morph && split_in_sides(m, it->name, cr->field, side)) {
                const char *l = m->morphs[side[0]].name, *rt = m->morphs[side[1]].name;
                pk_buf_printf(b, "  # %s", it->name);
                key_counts(b, r, it);
                pk_buf_printf(b, " -> %s, %s: the model has it in halves; each gets its weights\n",
                              l, rt);
                pk_buf_puts(b, "  ");
                pki_yaml_quoted(b, it->name);
                pk_buf_puts(b, ": {to: [");
                pki_yaml_quoted(b, l);
                pk_buf_puts(b, ", ");
                pki_yaml_quoted(b, rt);
                pk_buf_puts(b, "]}\n");
                rules++;
                continue;
            }
            if (it->index < 0) {
                pk_buf_printf(b, "  # %s", it->name);
                key_counts(b, r, it);
                pk_buf_puts(b, ": no near miss on the model; left as is\n");
                continue;
            }
            pk_name_id id = it->morph ? m->morphs[it->index].cp932 : m->bones[it->index].cp932;
            const char *target = model_name(m, it);
            /* a target another keyed name already has, or a second source
             * for one target, would make the rename fail */
            bool clash = false;
            for (size_t k = 0; k < r->nitems; k++) {
                const pk_check_item *other = &r->items[k];
                if (k == i || other->morph != it->morph || other->index != it->index)
                    continue;
                if (other->status != PK_CHECK_MISSING || (k < i && other->moving))
                    clash = true;
            }
            /* a morph sums into that name instead (a weighted rule) */
            bool sum = clash && it->morph;
            if ((clash && !sum) || id == PK_NO_NAME) {
                pk_buf_printf(b, "  # %s -> %s not suggested: %s\n", it->name, target,
                              clash ? "the motion already keys that name (or an earlier rule "
                                      "maps to it)"
                                    : "CP932 cannot hold the model's name");
                continue;
            }
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, id, &len);
            char *cut = NULL;
            if (len > cr->field) {
                cut = pk_cp932_to_utf8(raw, pk_cp932_boundary(raw, cr->field), NULL);
                if (!cut) {
                    b->oom = true;
                    return rules;
                }
            }
            pk_buf_printf(b, "  # %s", it->name);
            key_counts(b, r, it);
            pk_buf_printf(b, " -> %s: %s%s%s%s\n", target, it->why,
                          cut ? "; cut to the field, which MMD matches" : "",
                          sum ? "; summed with the keys the motion (or an earlier rule) already "
                                "gives it, clamped to 0..1"
                              : "",
                          !it->morph && r->driven[it->index]
                              ? "; physics drives it on the model (MMD overwrites its keys "
                                "while physics is on)"
                              : "");
            pk_buf_puts(b, "  ");
            pki_yaml_quoted(b, it->name);
            pk_buf_puts(b, sum ? ": {to: " : ": ");
            pki_yaml_quoted(b, cut ? cut : target);
            pk_buf_puts(b, sum ? "}\n" : "\n");
            free(cut);
            rules++;
        }
    }
    return rules;
}

/* A rules file without a rule is still written (a later rename --rules
 * reads it, and no earlier run's rules stay behind under its name), but
 * the user is told so: its comments alone look like a file cut short. */
static void rules_note(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out)
{
    const check_result *cr = res->own;
    /* (the rules are made by a run told they are wanted: pk_step_want) */
    if (f != PK_REPORT_RULES || !cr || !cr->report || !cr->model || !cr->rules_made || cr->nrules)
        return;
    size_t moving = cr->report->missing_moving;
    if (!cr->report->nitems)
        pk_buf_printf(out,
                      "no rule to suggest: %s keys no bone or morph (the file holds comments "
                      "only)",
                      s->inputs[0]);
    else if (!moving)
        pk_buf_printf(out,
                      "no rule to suggest: every bone and morph %s moves is on the model (the "
                      "file holds comments only)",
                      s->inputs[0]);
    else if (moving == 1)
        pk_buf_puts(out, "no rule to suggest for the one missing name that moves (the file's "
                         "comment says why)");
    else
        pk_buf_printf(out,
                      "no rule to suggest for the %zu missing names that move (the file's "
                      "comments say why for each)",
                      moving);
}

/* ---- no model: the built-in bodies ---- */

static void fit_summary(const check_result *cr, pk_buf *f)
{
    const pk_body_fit *b = &cr->fit[cr->best];
    if (!b->has) {
        pk_buf_printf(f, "no built-in body has any of the %zu bones it keys", b->keyed);
        return;
    }
    pk_buf_printf(f, "fits @%s best: %zu of the %zu bones it keys", cr->bodies->names[cr->best],
                  b->has, b->keyed);
    for (size_t i = 0; i < cr->bodies->n; i++)
        if ((long)i != cr->best)
            pk_buf_printf(f, "; @%s: %zu", cr->bodies->names[i], cr->fit[i].has);
}

static void fit_text(const pk_step *s, const check_result *cr, pk_buf *f)
{
    if (((const check_opts *)s->o)->model_name) /* @auto: a model was given */
        pk_buf_printf(f, "%s on %s: the built-in bodies it fits:\n", s->inputs[0],
                      PKI_AUTO_BODY);
    else
        pk_buf_printf(f, "%s: no model given; the built-in bodies it fits:\n", s->inputs[0]);
    for (size_t i = 0; i < cr->bodies->n; i++) {
        const pk_model *m = cr->bodies->models[i];
        pk_buf_printf(f, "  @%-9s has %zu of the %zu bones it keys (%s, %zu bones; overlap %.2f)\n",
                      cr->bodies->names[i], cr->fit[i].has, cr->fit[i].keyed, m->name, m->nbones,
                      cr->fit[i].overlap);
    }
    if (!cr->fit[cr->best].has)
        pk_buf_puts(f, "best: none (the motion keys none of their bones: its names may need "
                       "renaming, see check --model @classic)\n");
    else
        pk_buf_printf(f,
                      "best: @%s (retarget --from @auto takes it; check --model @%s lists "
                      "the bones it lacks)\n",
                      cr->bodies->names[cr->best], cr->bodies->names[cr->best]);
}

static void fit_json(const pk_step *s, const check_result *cr, pk_buf *f)
{
    pki_json j = pki_json_begin(f, true);
    pki_json_open(&j, '{');
    pki_json_kstr(&j, "file", s->inputs[0]);
    char best[64];
    snprintf(best, sizeof best, "@%s", cr->bodies->names[cr->best]);
    if (cr->fit[cr->best].has) {
        pki_json_kstr(&j, "best", best);
    } else {
        pki_json_key(&j, "best");
        pk_buf_puts(f, "null");
    }
    pki_json_key(&j, "bodies");
    pki_json_open(&j, '[');
    for (size_t i = 0; i < cr->bodies->n; i++) {
        char name[64];
        snprintf(name, sizeof name, "@%s", cr->bodies->names[i]);
        pki_json_item(&j);
        pki_json_open(&j, '{');
        pki_json_kstr(&j, "name", name);
        pki_json_kstr(&j, "model", cr->bodies->models[i]->name);
        pki_json_kint(&j, "bones", (long long)cr->fit[i].bones);
        pki_json_kint(&j, "bones_keyed", (long long)cr->fit[i].keyed);
        pki_json_kint(&j, "bones_it_has", (long long)cr->fit[i].has);
        pki_json_knum(&j, "overlap", pki_round6(cr->fit[i].overlap));
        pki_json_close(&j, '}');
    }
    pki_json_close(&j, ']');
    pki_json_close(&j, '}');
    pk_buf_putc(f, '\n');
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    (void)s;
    const check_result *cr = res->own;
    if (cr && cr->report)
        check_summary(cr, out);
    else if (cr && cr->fit && cr->best >= 0)
        fit_summary(cr, out);
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log)
{
    (void)log;
    const check_result *cr = res->own;
    if (cr && cr->fit && cr->best >= 0 && f != PK_REPORT_RULES) {
        if (f == PK_REPORT_JSON)
            fit_json(s, cr, out);
        else
            fit_text(s, cr, out);
        return 0;
    }
    if (!cr || !cr->report || !cr->model)
        return 1;
    if (f == PK_REPORT_JSON)
        check_json(s, cr, out);
    else if (f == PK_REPORT_RULES && cr->rules_made)
        pk_buf_append(out, cr->rules.data, cr->rules.len);
    else if (f == PK_REPORT_RULES)
        check_rules(s, cr, out);
    else
        check_text(s, cr, out);
    return 0;
}

static const char HELP[] =
    "usage: posekit check MOTION|POSE --model MODEL [--json] [--suggest-rules OUT.yaml]\n"
    "                     [--strict]\n"
    "       posekit check MOTION|POSE [--json]\n"
    "\n"
    "Checks every bone and morph a VMD motion or VPD pose keys against a PMX\n"
    "or PMD model: found, found only through MMD's cut of a longer model name\n"
    "(15 bytes in VMD, 19 in VPD), or missing (MMD ignores those keys).\n"
    "Missing names with keys off rest (moving or turning a bone, a morph\n"
    "weight) come first, most such keys first; names whose keys are all at\n"
    "rest (exporters key every bone at frame 0) are listed apart: MMD shows\n"
    "nothing for them on any model.  For a missing name the closest model\n"
    "name is proposed when they differ only by full-width/half-width forms\n"
    "(ＩＫ/IK, ０/0), spaces, underscores or case, by a common spelling\n"
    "(人指/人差指, ひじ/肘, ひざ/膝, つま先/爪先), when the motion uses the\n"
    "model's English name, or (a morph) when a model morph's name contains it\n"
    "(発音「え」 for え); the reason names each difference.  A moving bone the\n"
    "model lacks between bones it has (上半身2, 腰, グルーブ, 肩P, 親指０,\n"
    "腕捩, 手捩) is one `retarget --from SOURCE --to MODEL` folds.  Also lists\n"
    "keys the model cannot use (translating a bone that is not movable,\n"
    "rotating one that is not rotatable), keyed bones physics drives (MMD\n"
    "overwrites their keys while physics is on) and, for information, the\n"
    "model's operable bones the motion never keys (physics bones left out),\n"
    "by display frame.\n"
    "\n"
    "Without a model (or with --model @auto) it tells which built-in body\n"
    "(@classic, the classic Miku skeleton; @standard, a full semi-standard\n"
    "skeleton) the motion was made for, which `retarget --from @auto` takes:\n"
    "the first that has every bone the motion keys (MMD saves a key for every\n"
    "bone of the model a dance is made on), else the one whose bones overlap\n"
    "the motion's most (the bones both have over the bones either has).\n"
    "Bone names that look another model's (renamed to English) are warned\n"
    "about.\n"
    "\n"
    "  --model MODEL           the PMX or PMD model, or a body (@classic,\n"
    "                          @standard, a body file)\n"
    "  --json                  the report as JSON\n"
    "  --suggest-rules OUT     write a rules file renaming each missing name\n"
    "                          that moves and has a near miss to the model's\n"
    "                          name, one comment per rule saying why (a\n"
    "                          morph whose near miss the motion keys already\n"
    "                          is summed into it, one the model has in halves\n"
    "                          goes to both: {to: [NAME左, NAME右]})\n"
    "  --strict                treat warnings as errors\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 every name the motion moves exists on the model (without\n"
    "a model: a body fits), 1 some are missing (names whose keys are all at\n"
    "rest do not count), 2 error.\n";

const pki_step_def pki_step_check = {
    .name = "check",
    .about = "does a motion or pose fit a model (PMX/PMD)? missing names, near misses",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(check_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports =
        PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON) | PKI_REPORT(PK_REPORT_RULES),
    .report = report,
    .report_note = rules_note,
    .want = want,
    .makes = pki_makes_report,
    .free_result = free_result,
    .wants_bodies = fits_bodies,
    .bodies = offsetof(check_opts, bodies),
    .report_exts = ".txt, .json or .yaml (the suggested rules)",
    .cli = {.output = PK_CLI_OUT_NONE,
            .side_option = "suggest-rules",
            .side_format = PK_REPORT_RULES,
            .side_what = "a rules file",
            .side_exts = ".yaml|.yml"},
};
