/* step_retarget.c — retarget: a motion or pose made for one model
 * adapted to another, by rules or from the two models
 * (engine/ops/retarget/), and its summary: the rename line (with rules),
 * the keys in, out, changed, added and removed, then a line for each
 * step that changed a key (fold, stance, scale) and the keys kept, one
 * per sizing step (contacts, avoid, twist, refused elbow corrections:
 * engine/ops/retarget/sizing.c), and one saying which of the two models
 * the input fits better (engine/ops/skeleton/check.c); --report and
 * --json give the sizing's measures (sizing_measure.c). */
#include "model/skeleton.h"
#include "step/step.h"
#include "step/step_option.h"
#include "util/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct retarget_opts {
    char *rules_name, *from_name, *to_name;
    const pk_rules *rules;
    const pk_model *from, *to;
    const pk_bodies *bodies; /* from "@auto": the built-in bodies to pick from */
    bool no_stance, no_scale, no_fold, fingers, verbose;
    bool feet_from_source, keep_absent;
    bool no_contacts, no_avoid, no_twist;
    bool no_centre, no_upper, no_shoulders, no_toes; /* the body steps */
    double feet_apart;                               /* units, 0: none */
    bool measure;            /* the JSON report is wanted: measure the sizing */
    double max_deg, max_pos; /* the fold's tolerances */
    char *scale;             /* the translations' XZ scale: a number, or "own" */
} retarget_opts;

#define T retarget_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_INPUT("motion", 1), /* IN is a camera: the dance it frames */
    PKI_ROW_RULES(T),
    PKI_ROW_MODEL(T, "from", from_name, from),
    PKI_ROW_MODEL(T, "to", to_name, to),
    PKI_ROW_BOOL(T, "no_stance", no_stance),
    PKI_ROW_BOOL(T, "no_scale", no_scale),
    PKI_ROW_BOOL(T, "no_fold", no_fold),
    PKI_ROW_BOOL(T, "no_contacts", no_contacts),
    PKI_ROW_BOOL(T, "no_avoid", no_avoid),
    PKI_ROW_BOOL(T, "no_twist", no_twist),
    PKI_ROW_BOOL(T, "no_centre", no_centre),
    PKI_ROW_BOOL(T, "no_upper", no_upper),
    PKI_ROW_BOOL(T, "no_shoulders", no_shoulders),
    PKI_ROW_BOOL(T, "no_toes", no_toes),
    {"feet_apart", PKI_OPT_DOUBLE, offsetof(T, feet_apart), 0, 0, NULL,
     "a number of units, 0 or more"},
    PKI_ROW_BOOL(T, "fingers", fingers),
    PKI_ROW_BOOL(T, "feet_from_source", feet_from_source),
    PKI_ROW_BOOL(T, "keep_absent", keep_absent),
    {"max_deg", PKI_OPT_POSITIVE, offsetof(T, max_deg), 0, 0, NULL, "a positive number of degrees"},
    {"max_pos", PKI_OPT_POSITIVE, offsetof(T, max_pos), 0, 0, NULL, "a positive number of units"},
    {"scale", PKI_OPT_STRING, offsetof(T, scale), 0, 0, NULL, "a positive number, or 'own'"},
    PKI_ROW_BOOL(T, "verbose", verbose),
};
#undef T

static void init(void *p)
{
    retarget_opts *o = p;
    o->max_deg = PK_REDUCE_DEG;
    o->max_pos = PK_REDUCE_POS;
}

typedef struct retarget_result {
    pk_edit_stats edit; /* first: pki_edit_start's */
    pk_retarget_report report;
    bool models;      /* the run between models */
    pk_check_fit fit; /* ... which model the input fits better */
    bool fit_done;
    /* from "@auto": the body picked and how each fits */
    long picked;
    pk_body_fit auto_fit[4];
    const pk_bodies *bodies;
    char picked_name[64]; /* "@classic" */
    /* with a motion: IN is its camera, corrected; edit and report are the
     * dance's retarget */
    bool camera;
    pk_camera_report cam;
    bool camera_kept; /* ... written unchanged: the dance plays alike on both */
    /* one of dancers sized together (the first keeps the group's report) */
    bool group;
    /* the target has the source's bones (the same model twice): the sizing
     * steps were left out, each goal being the input's own */
    bool same_bones;
    pk_troupe_report *troupe;
} retarget_result;

static void free_result(void *p)
{
    retarget_result *r = p;
    if (!r)
        return;
    pk_edit_stats_free(&r->edit);
    pk_retarget_report_free(&r->report);
    pk_camera_report_free(&r->cam);
    pk_troupe_report_free(r->troupe);
    free(r->troupe);
    free(r);
}

/* The scale option: *xz a number given (0: none), *own "own".  false
 * when it is neither. */
static bool scale_of(const retarget_opts *o, double *xz, bool *own)
{
    *xz = 0;
    *own = false;
    if (!o->scale)
        return true;
    if (strcmp(o->scale, "own") == 0) {
        *own = true;
        return true;
    }
    char *end;
    double v = strtod(o->scale, &end);
    if (end == o->scale || *end || !(v > 0) || !isfinite(v))
        return false;
    *xz = v;
    return true;
}

static int check(const pk_step *s, pk_log *log)
{
    const retarget_opts *o = s->o;
    char n1[64], n2[64], n3[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (!o->rules_name && !o->from_name && !o->to_name)
        return pki_step_fail(log, "no rules given (%s R.yaml) and no models (%s A.pmx %s B.pmx)",
                             pki_step_spell(s, "rules", n1), pki_step_spell(s, "from", n2),
                             pki_step_spell(s, "to", n3));
    if (o->to_name && strcmp(o->to_name, PKI_AUTO_BODY) == 0)
        return pki_step_fail(log,
                             "%s @auto picks the model the input was made for; %s names the one "
                             "it is for",
                             pki_step_spell(s, "from", n1), pki_step_spell(s, "to", n2));
    if (!o->from_name != !o->to_name)
        return pki_step_fail(log,
                             "%s and %s go together (the model the input was made for, and the "
                             "one it is for)",
                             pki_step_spell(s, "from", n1), pki_step_spell(s, "to", n2));
    static const char *const MODEL_ONLY[] = {
        "no_stance", "no_scale",         "no_fold",     "no_contacts", "no_avoid", "no_twist",
        "fingers",   "feet_from_source", "keep_absent", "max_deg",     "max_pos",  "no_centre",
        "no_upper",  "no_shoulders",     "no_toes",     "feet_apart",  "scale"};
    for (size_t i = 0; i < sizeof MODEL_ONLY / sizeof *MODEL_ONLY; i++)
        if (!o->from_name && pki_step_given(s, MODEL_ONLY[i]))
            return pki_step_fail(log, "%s applies with %s and %s",
                                 pki_step_spell(s, MODEL_ONLY[i], n1),
                                 pki_step_spell(s, "from", n2), pki_step_spell(s, "to", n3));
    /* the report is the sizing's measures: by rules alone there are none,
     * and it would be written holding the input's name only */
    if (!o->from_name && o->measure)
        return pki_step_fail(log,
                             "the measures of the sizing (--report, --json) need %s and %s: "
                             "retarget by rules alone measures nothing (its line says what "
                             "changed)",
                             pki_step_spell(s, "from", n1), pki_step_spell(s, "to", n2));
    if (o->from_name && o->no_stance && o->no_scale && o->no_fold && o->no_contacts &&
        o->no_avoid && o->no_twist && o->no_centre && o->no_upper && o->no_shoulders &&
        o->no_toes && !o->rules_name) {
        char n4[64], n5[64], n6[64], n7[64], n8[64], n9[64], n10[64];
        return pki_step_fail(
            log, "%s, %s, %s, %s, %s, %s, %s, %s, %s and %s together leave nothing to do",
            pki_step_spell(s, "no_stance", n1), pki_step_spell(s, "no_scale", n2),
            pki_step_spell(s, "no_fold", n3), pki_step_spell(s, "no_contacts", n4),
            pki_step_spell(s, "no_avoid", n5), pki_step_spell(s, "no_twist", n6),
            pki_step_spell(s, "no_centre", n7), pki_step_spell(s, "no_upper", n8),
            pki_step_spell(s, "no_shoulders", n9), pki_step_spell(s, "no_toes", n10));
    }
    if (o->fingers && o->no_stance)
        return pki_step_fail(log, "%s is part of the stance step, which %s turns off",
                             pki_step_spell(s, "fingers", n1), pki_step_spell(s, "no_stance", n2));
    if (s->ninputs > 1 && !o->from_name)
        return pki_step_fail(log,
                             "%s is the dance a camera frames: the camera moves from model %s "
                             "to %s",
                             pki_step_spell(s, "motion", n1), pki_step_spell(s, "from", n2),
                             pki_step_spell(s, "to", n3));
    /* a dancer's scale is the group's: said by check_group */
    double xz;
    bool own;
    if (!s->member && !scale_of(o, &xz, &own))
        return pki_step_fail(log, "%s wants a positive number, or 'own' (not '%s')",
                             pki_step_spell(s, "scale", n1), o->scale);
    if (o->scale && o->no_scale)
        return pki_step_fail(log, "%s is the scale step's, which %s turns off",
                             pki_step_spell(s, "scale", n1), pki_step_spell(s, "no_scale", n2));
    if (o->feet_from_source && o->no_scale)
        return pki_step_fail(log, "%s is part of the scale step, which %s turns off",
                             pki_step_spell(s, "feet_from_source", n1),
                             pki_step_spell(s, "no_scale", n2));
    for (int i = 0; i < 2; i++)
        if (o->no_fold && pki_step_given(s, i ? "max_pos" : "max_deg"))
            return pki_step_fail(log, "%s is the fold's tolerance, and %s turns the fold off",
                                 pki_step_spell(s, i ? "max_pos" : "max_deg", n1),
                                 pki_step_spell(s, "no_fold", n2));
    return 0;
}

/* A retarget between models that changed nothing says so and why, as a
 * rename or mirror that changes nothing does: a camera-only motion, a
 * target with none of the input's bones, two models that agree (the
 * same model twice), or models that differ where the steps left on found
 * nothing to change (the --no-X options given named: they, not the
 * models, are then why). */
static void unchanged_retarget(const pk_step *s, const pk_doc *d, const retarget_result *rr,
                               pk_log *log)
{
    const pk_retarget_report *t = &rr->report;
    const char *what = d->motion ? "motion" : "pose";
    char n1[64];
    if (!t->bones_keyed && d->motion && d->motion->ncameras)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to retarget: the motion has no bone keys, the output is the input "
                   "unchanged (a camera is sized with the dance it frames: %s DANCE.vmd)",
                   pki_step_spell(s, "motion", n1));
    else if (!t->bones_keyed)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to retarget: the %s has no bone keys, the output is the input "
                   "unchanged",
                   what);
    else if (!t->bones_on_target)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to retarget: the target model has none of the %zu bone%s the %s "
                   "keys, the output is the input unchanged",
                   t->bones_keyed, t->bones_keyed == 1 ? "" : "s", what);
    else if (rr->same_bones)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to retarget: no key changed (the models differ in nothing the "
                   "%s keys), the output is the input unchanged",
                   what);
    else {
        /* the models differ: the steps that would have changed keys were
         * left out, or found nothing of the input to change on them */
        const retarget_opts *o = s->o;
        const struct {
            const char *name;
            bool on;
        } no[] = {{"no_fold", o->no_fold},   {"no_stance", o->no_stance},
                  {"no_scale", o->no_scale}, {"no_centre", o->no_centre},
                  {"no_upper", o->no_upper}, {"no_shoulders", o->no_shoulders},
                  {"no_toes", o->no_toes},   {"no_contacts", o->no_contacts},
                  {"no_avoid", o->no_avoid}, {"no_twist", o->no_twist}};
        char off[512] = "";
        size_t len = 0, given = 0;
        for (size_t i = 0; i < sizeof no / sizeof *no; i++)
            if (no[i].on && len < sizeof off) {
                len += (size_t)snprintf(off + len, sizeof off - len, "%s%s", given ? ", " : "",
                                        pki_step_spell(s, no[i].name, n1));
                given++;
            }
        if (given)
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing to retarget: no key changed (%s left %zu step%s out, and no "
                       "step left on changed a key), the output is the input unchanged",
                       off, given, pki_plural(given));
        else
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing to retarget: no key changed (no step found a key of the %s to "
                       "change between the models), the output is the input unchanged",
                       what);
    }
}

/* The input's bone names another model's (a dance renamed to English):
 * no step sizes them, and the output keys the target's bones beside them.
 * Said, with the ways to rename them first (the rules' renames come
 * first: a rules file is the way to name them). */
static void warn_names_elsewhere(const pk_step *s, const pk_doc *d, pk_log *log)
{
    const retarget_opts *o = s->o;
    if (o->rules_name)
        return;
    char how[512], lists[540];
    snprintf(lists, sizeof lists, "%s lists them; ",
             pki_step_check_how(s, s->inputs[0], o->to_name, how));
    pki_warn_names_elsewhere(o->to, d, "the target model", "no step sizes them; ", lists, log);
}

/* Which model the input fits better (pk_check_compare), on the input as
 * given (before the rules' renames); a source that fits worse than the
 * target is warned about: the input was probably made for another model.
 * An input without bone or morph keys has nothing to compare. */
static int fit_models(const pk_step *s, const pk_model *from, const char *from_name,
                      const pk_doc *d, retarget_result *rr, pk_log *log)
{
    const retarget_opts *o = s->o;
    size_t names =
        d->motion ? d->motion->nbones + d->motion->nmorphs : d->pose->nbones + d->pose->nmorphs;
    if (!names) /* a camera motion: nothing to compare */
        return 0;
    const pk_check_fit *f = &rr->fit;
    if (pk_check_compare(from, o->to, d->motion, d->pose, &rr->fit, log) != 0)
        return -1;
    rr->fit_done = true;
    /* none of its bones on the source: every step measures the source's
     * rest pose, and the output is the input with keys added on rest (the
     * rules' renames come later: an input they name for the source is
     * theirs to fit) */
    if (!o->rules_name && !o->keep_absent && pki_model_holds_none(from, d)) {
        const char *what = d->motion ? "motion" : "pose";
        char how[512];
        pk_warning(log, PK_E_CONFLICT,
                   "%s holds none of the bones the %s %s: is it the model the %s was made for? "
                   "(%s lists the names it lacks)",
                   from_name, what, d->motion ? "keys" : "poses", what,
                   pki_step_check_how(s, s->inputs[0], from_name, how));
        return 0;
    }
    /* --keep-absent already says the source stands in for another model */
    if (f->better > 0 && !o->keep_absent)
        pk_warning(log, PK_E_CONFLICT,
                   "the %s fits the target model better than the source model (it moves %zu "
                   "bone%s and %zu morph%s the source lacks, %zu and %zu the target lacks): is "
                   "%s the model it was made for?",
                   d->motion ? "motion" : "pose", f->from_bones, pki_plural(f->from_bones),
                   f->from_morphs, pki_plural(f->from_morphs), f->to_bones, f->to_morphs,
                   from_name);
    else if (!o->keep_absent)
        warn_names_elsewhere(s, d, log);
    return 0;
}

/* A target without the leg IK the source has (its leg IK named otherwise,
 * in English): the dance's 足ＩＫ keys have no bone of that name on it, so
 * its legs do not step as the source's, though every line reads as a
 * sizing.
 * Said, with where to see the names (the rules' renames come first: a
 * rules file is the way to name them). */
static void warn_no_leg_ik(const pk_step *s, const pk_model *from, const pk_doc *d, pk_log *log)
{
    const retarget_opts *o = s->o;
    if (o->rules_name || !d->motion || !d->motion->nbones)
        return;
    const char *lacks[2];
    size_t n = 0;
    for (int side = 0; side < 2; side++) {
        /* a leg (足 to 足首) without its IK; a model without the leg is
         * another matter (the scale step's error, or none of the bones) */
        const char *ik = side ? "右足ＩＫ" : "左足ＩＫ";
        if (pki_model_find_bone_utf8(from, ik) >= 0 && pki_model_find_bone_utf8(o->to, ik) < 0 &&
            pki_model_find_bone_utf8(o->to, side ? "右足" : "左足") >= 0 &&
            pki_model_find_bone_utf8(o->to, side ? "右足首" : "左足首") >= 0)
            lacks[n++] = ik;
    }
    if (!n)
        return;
    char how[512];
    pki_step_check_how(s, s->inputs[0], o->to_name, how);
    pk_warning(log, PK_E_CONFLICT,
               "the target model %s has no %s%s%s (the source has): its legs cannot follow "
               "the motion's leg IK keys as the source's do (is its leg IK named otherwise? "
               "%s lists the names it lacks, %s renames them)",
               o->to_name, lacks[0], n > 1 ? " or " : "", n > 1 ? lacks[1] : "", how,
               s->prefix[0] ? "--rules" : "rules");
}

static bool picks_body(const pk_step *s)
{
    const char *f = ((const retarget_opts *)s->o)->from_name;
    return f && strcmp(f, PKI_AUTO_BODY) == 0;
}

/* from "@auto": the built-in body the document fits best
 * (pk_body_fit_doc), or NULL (logged). */
static const pk_model *pick_body(const retarget_opts *o, const pk_doc *d, retarget_result *rr,
                                 pk_log *log)
{
    const pk_bodies *b = o->bodies;
    if (!b || b->n > sizeof rr->auto_fit / sizeof *rr->auto_fit) {
        pk_error(log, PK_E_USAGE, "retarget: the built-in bodies were not loaded");
        return NULL;
    }
    rr->bodies = b;
    rr->picked = pk_body_fit_doc((const pk_model *const *)b->models, b->n, d, rr->auto_fit, log);
    if (rr->picked < 0)
        return NULL;
    if (!rr->auto_fit[rr->picked].has) {
        pk_error(log, PK_E_NOT_FOUND,
                 "--from @auto: no built-in body has any of the %zu bones the %s keys (check "
                 "--model @classic shows the near misses)",
                 rr->auto_fit[rr->picked].keyed, d->motion ? "motion" : "pose");
        return NULL;
    }
    return b->models[rr->picked];
}

/* Whether b holds a's skeleton bone for bone: names, parents, rest
 * places, flags, tails, appends, fixed axes and IK, what the steps read
 * of a model (its rigid bodies and morphs aside). */
static bool same_bones(const pk_model *a, const pk_model *b)
{
    if (a == b)
        return true;
    if (a->nbones != b->nbones)
        return false;
    for (size_t i = 0; i < a->nbones; i++) {
        const pk_model_bone *x = &a->bones[i], *y = &b->bones[i];
        if (strcmp(x->name, y->name) != 0 || x->parent != y->parent || x->layer != y->layer ||
            x->flags != y->flags || memcmp(x->pos, y->pos, sizeof x->pos) != 0 ||
            x->tail_bone != y->tail_bone || memcmp(x->tail, y->tail, sizeof x->tail) != 0 ||
            x->append_parent != y->append_parent || x->append_ratio != y->append_ratio ||
            memcmp(x->fixed_axis, y->fixed_axis, sizeof x->fixed_axis) != 0 ||
            x->ik_target != y->ik_target || x->ik_loops != y->ik_loops ||
            x->ik_limit != y->ik_limit || x->nik_links != y->nik_links)
            return false;
        for (size_t k = 0; k < x->nik_links; k++)
            if (x->ik_links[k].bone != y->ik_links[k].bone ||
                x->ik_links[k].limited != y->ik_links[k].limited ||
                memcmp(x->ik_links[k].min, y->ik_links[k].min, sizeof x->ik_links[k].min) != 0 ||
                memcmp(x->ik_links[k].max, y->ik_links[k].max, sizeof x->ik_links[k].max) != 0)
                return false;
    }
    return true;
}

/* Every sizing step left out, as its --no-X leaves it. */
static void sizing_off(retarget_opts *o)
{
    o->no_contacts = o->no_avoid = o->no_twist = true;
    o->no_centre = o->no_upper = o->no_shoulders = o->no_toes = true;
}

/* The options of a retarget between models for d (from "@auto": the body
 * picked), after the fit check.  0, or -1 (logged). */
static int model_options(const pk_step *s, pk_doc *d, retarget_result *rr, pk_retarget_options *out,
                         pk_log *log)
{
    const retarget_opts *o = s->o;
    const pk_model *from = picks_body(s) ? pick_body(o, d, rr, log) : o->from;
    if (picks_body(s) && !from)
        return -1;
    if (!from || !o->to) {
        pk_error(log, PK_E_USAGE, "retarget: the models were not loaded");
        return -1;
    }
    /* The same model twice (alone, at its own scale, the feet where they
     * were): each sizing step's goal, "as on the source", is the input
     * itself, so none runs; run, they would rework what the dance's
     * author keyed (an arm's twist moved into 手捩, toes lifted) on the
     * very model it was made for. */
    retarget_opts eff = *o;
    if (!rr->group && !pki_step_given(s, "scale") && o->feet_apart == 0.0 &&
        same_bones(from, o->to)) {
        rr->same_bones = true;
        sizing_off(&eff);
    }
    o = &eff;
    /* the models by the names the user gave them (files, or a job's
     * names, which the job places at the step); @auto by the body it
     * picked */
    const char *from_name = o->from_name;
    if (picks_body(s)) {
        snprintf(rr->picked_name, sizeof rr->picked_name, "@%s", rr->bodies->names[rr->picked]);
        from_name = rr->picked_name;
    }
    pk_retarget_options ro = {.from = from,
                              .to = o->to,
                              .no_stance = o->no_stance,
                              .no_scale = o->no_scale,
                              .no_fold = o->no_fold,
                              .fingers = o->fingers,
                              .from_name = from_name,
                              .to_name = o->to_name,
                              .feet_from_source = o->feet_from_source,
                              .keep_absent = o->keep_absent,
                              .max_deg = o->max_deg,
                              .max_pos = o->max_pos,
                              .no_contacts = o->no_contacts,
                              .no_avoid = o->no_avoid,
                              .no_twist = o->no_twist,
                              .no_centre = o->no_centre,
                              .no_upper = o->no_upper,
                              .no_shoulders = o->no_shoulders,
                              .no_toes = o->no_toes,
                              .feet_apart = o->feet_apart,
                              .measure = o->measure};
    bool own;
    scale_of(o, &ro.scale_xz, &own);
    rr->models = true;
    *out = ro;
    if (fit_models(s, from, from_name, d, rr, log) != 0)
        return -1;
    warn_no_leg_ik(s, from, d, log);
    return 0;
}

static int between_models(const pk_step *s, pk_doc *d, retarget_result *rr, pk_log *log)
{
    const retarget_opts *o = s->o;
    pk_retarget_options ro;
    if (model_options(s, d, rr, &ro, log) != 0)
        return -1;
    return d->motion
               ? pk_motion_retarget_models(d->motion, o->rules, &ro, &rr->edit, &rr->report, log)
               : pk_pose_retarget_models(d->pose, o->rules, &ro, &rr->edit, &rr->report, log);
}

/* IN is a camera and in[1] the dance it frames: the dance is retargeted
 * (every option as for a dance alone: the camera frames what B plays),
 * then the camera moved for B (engine/ops/retarget/retarget_camera.c). */
static int camera_run(const pk_step *s, pk_doc *in, pk_doc *d, retarget_result *rr, pk_log *log)
{
    const retarget_opts *o = s->o;
    if (d->motion && !d->motion->ncameras && d->motion->nbones && in[1].motion &&
        in[1].motion->ncameras && !in[1].motion->nbones)
        /* the two given the other way round: the dance as IN, its camera
         * as the dance */
        return pki_step_fail(log,
                             "no camera key: with %s the input is the camera that frames "
                             "the dance; %s is the camera and this the dance: swap them",
                             s->prefix[0] ? "--motion" : "motion", s->inputs[1]);
    if (!d->motion)
        return pki_step_fail(log,
                             "a pose: with %s the input is the camera (a VMD) that frames "
                             "the dance",
                             s->prefix[0] ? "--motion" : "motion");
    if (!d->motion->ncameras)
        return pki_step_fail(log,
                             "no camera key: with %s the input is the camera that frames "
                             "the dance",
                             s->prefix[0] ? "--motion" : "motion");
    if (d->motion->nbones)
        return pki_step_fail(log,
                             "the camera motion keys bones too: retarget its dance on its "
                             "own (the dance the camera frames goes with %s)",
                             s->prefix[0] ? "--motion" : "motion");
    if (!in[1].motion) {
        pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s->inputs[1], -1, 0, 0,
                      "a pose: the dance a camera frames is a motion (VMD)");
        return -1;
    }
    if (!in[1].motion->nbones) {
        pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s->inputs[1], -1, 0, 0,
                      "no bone keys: the dance a camera frames is the dancer's motion%s",
                      in[1].motion->ncameras ? " (this is a camera)" : "");
        return -1;
    }
    pk_doc dance = {PK_FMT_VMD, pk_motion_clone(in[1].motion), NULL};
    if (!dance.motion) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    rr->camera = true;
    size_t from_dance = pki_mark(log);
    int rc = between_models(s, &dance, rr, log);
    pk_log_place(log, from_dance, s->inputs[1]); /* what it says is about the dance */
    const pk_model *from = rr->bodies ? rr->bodies->models[rr->picked] : o->from;
    pk_camera_options co = {
        .from = from, .to = o->to, .dance_from = in[1].motion, .dance_to = dance.motion};
    /* The same bones twice and the dance unchanged: B plays what A did,
     * where A did, so the camera already frames it as it framed A;
     * moved, it would only be refitted to float noise. */
    const pk_edit_stats *st = &rr->edit;
    if (!rc && rr->same_bones && pki_edit_renamed(st) == 0 &&
        st->keys_changed + st->keys_added + st->keys_removed == 0) {
        rr->camera_kept = true;
        rr->cam.keys_in = rr->cam.keys_out = d->motion->ncameras;
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to retarget: the target model has the source model's bones and "
                   "the dance is unchanged on it, the output is the camera unchanged");
    } else if (!rc)
        rc = pk_motion_retarget_camera(d->motion, &co, &rr->cam, log);
    pk_doc_free(&dance);
    return rc;
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    if (n > 1) {
        retarget_result *rr = pki_result_new(res, sizeof *rr, log);
        if (!rr)
            return -1;
        pki_take(&res->out, in);
        size_t from = pki_mark(log);
        int rc = camera_run(s, in, &res->out, rr, log);
        pk_log_place(log, from, s->inputs[0]);
        return rc;
    }
    const retarget_opts *o = s->o;
    retarget_result *rr = pki_result_new(res, sizeof *rr, log);
    if (!rr)
        return -1;
    pki_take(&res->out, in);
    pk_doc *d = &res->out;
    if (d->pose)
        res->vpd.layout = d->pose->layout;
    pk_edit_stats *st = &rr->edit;
    size_t from = pki_mark(log);
    int rc;
    if (o->from_name)
        rc = between_models(s, d, rr, log);
    else
        rc = d->motion ? pk_motion_retarget(d->motion, o->rules, st, log)
                       : pk_pose_retarget(d->pose, o->rules, st, log);
    /* a run that changed nothing says so (a warning: strict fails it) */
    bool same =
        pki_edit_renamed(st) == 0 && st->keys_changed + st->keys_added + st->keys_removed == 0;
    if (rc == 0 && same && !o->from_name)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to retarget: no key changed, the output is the input unchanged");
    else if (rc == 0 && same)
        unchanged_retarget(s, d, rr, log);
    pk_log_place(log, from, s->inputs[0]);
    return rc;
}

/* "a, b, c and 3 more (--verbose lists them)" */
static void name_list(const pk_step *s, char *const *v, size_t n, pk_buf *out)
{
    bool verbose = ((const retarget_opts *)s->o)->verbose;
    size_t shown = verbose || n <= 8 ? n : 6;
    for (size_t i = 0; i < shown; i++)
        pk_buf_printf(out, "%s%s", i ? ", " : "", v[i]);
    if (shown < n)
        pk_buf_printf(out, " and %zu more (%sverbose lists them)", n - shown, s->prefix);
}

static void fold_summary(const pk_step *s, const pk_fold_report *f, pk_buf *out)
{
    const retarget_opts *o = s->o;
    if (f->nfolded || f->ntwisted) {
        pk_buf_printf(out, "\nfold: ");
        for (size_t i = 0; i < f->nfolded; i++)
            pk_buf_printf(out, "%s%s", i ? "; " : "", f->folded[i]);
        if (f->ntwisted)
            pk_buf_printf(out,
                          "%s%zu bone%s turned only about the fixed axis the source model gives "
                          "%s (the target has no such axis): ",
                          f->nfolded ? "; " : "", f->ntwisted, pki_plural(f->ntwisted),
                          f->ntwisted == 1 ? "it" : "them");
        for (size_t i = 0; i < f->ntwisted; i++)
            pk_buf_printf(out, "%s%s", i ? ", " : "", f->twisted[i]);
        pk_buf_printf(out,
                      " (%zu track%s rewritten: %zu key%s in, %zu out, within %g deg and %g units "
                      "of the exact fold at every frame, the worst %.4f deg, %.4f units",
                      f->tracks, pki_plural(f->tracks), f->keys_removed,
                      pki_plural(f->keys_removed), f->keys_added, o->max_deg, o->max_pos,
                      f->worst_deg, f->worst_pos);
        if (o->verbose)
            pk_buf_printf(out,
                          "; %zu frame%s keyed by the tracks folded in, %zu piece%s given a key "
                          "at every frame",
                          f->union_keys, pki_plural(f->union_keys), f->refitted,
                          pki_plural(f->refitted));
        pk_buf_printf(out, ")");
    }
    if (f->nkept) {
        /* hair and cloth bones of a rich model can be a hundred names:
         * the first few unless asked */
        pk_buf_printf(out,
                      "\nfold: %zu bone%s only the source model has left alone (nothing "
                      "below them on the target): ",
                      f->nkept, pki_plural(f->nkept));
        name_list(s, f->kept, f->nkept, out);
    }
}

/* Keys of bones the source model lacks, kept (keep_absent). */
static void kept_summary(const pk_step *s, const pk_retarget_report *t, pk_buf *out)
{
    pk_buf_printf(out,
                  "\nkept: %zu key%s of %zu bone%s the source model lacks and the target has "
                  "(%skeep-absent): ",
                  t->dropped_keys, pki_plural(t->dropped_keys), t->ndropped,
                  pki_plural(t->ndropped), s->prefix);
    name_list(s, t->dropped, t->ndropped, out);
}

/* What happened to the keys, one count (engine/ops/retarget/retarget_tally.c). */
static void keys_summary(const pk_edit_stats *e, pk_buf *out)
{
    pk_buf_printf(out, "%zu key%s in, %zu out: %zu changed, %zu added, %zu removed", e->keys_in,
                  pki_plural(e->keys_in), e->keys_out, e->keys_changed, e->keys_added,
                  e->keys_removed);
    if (e->duplicates)
        pk_buf_printf(out,
                      " (%zu of them duplicates: of two records of one key the later wins, as "
                      "MMD reads them)",
                      e->duplicates);
}

static void stance_summary(const pk_step *s, const pk_stance *st, pk_buf *out)
{
    bool verbose = ((const retarget_opts *)s->o)->verbose;
    pk_buf_printf(out, "\nstance:");
    size_t fingers = 0;
    double fmax = 0;
    for (size_t i = 0; i < st->n; i++) {
        const pk_stance_segment *g = &st->seg[i];
        bool arm = strstr(g->bone, "腕") || strstr(g->bone, "ひじ");
        if (!arm && !verbose) {
            fingers++;
            if (g->deg > fmax)
                fmax = g->deg;
            continue;
        }
        pk_buf_printf(out, "%s %s->%s %.2f deg%s", i ? "," : "", g->bone, g->child, g->deg,
                      g->by_rules ? " (rules win)" : "");
    }
    if (fingers)
        pk_buf_printf(out, ", hand and fingers: %zu segment%s, up to %.2f deg", fingers,
                      pki_plural(fingers), fmax);
}

static void scale_summary(const pk_step *s, const pk_leg_scale *c, bool group, pk_buf *out)
{
    double legs = c->len_a > 0 ? c->len_b / c->len_a : 0;
    if (fabs(c->xz - legs) > 1e-9)
        pk_buf_printf(out, "\nscale: XZ %.4f (%s; the legs %.3f -> %.3f give %.4f)", c->xz,
                      group ? "the dancers' shared scale" : "as given", c->len_a, c->len_b, legs);
    else
        pk_buf_printf(out, "\nscale: XZ %.4f (leg %.3f -> %.3f)", c->xz, c->len_a, c->len_b);
    pk_buf_printf(out, ", Y %.4f (height %.3f -> %.3f)", c->y, c->height_a, c->height_b);
    if (c->place[0] != 0 || c->place[1] != 0)
        pk_buf_printf(out,
                      "; the body moved by %.3f, %.3f (X, Z) so its centre stands where the "
                      "source's does, scaled",
                      fabs(c->place[0]) < 0.0005 ? 0.0 : c->place[0],
                      fabs(c->place[1]) < 0.0005 ? 0.0 : c->place[1]);
    double v[6]; /* no "-0.000" */
    for (int k = 0; k < 6; k++)
        v[k] = fabs(c->ik_shift[k / 3][k % 3]) < 0.0005 ? 0.0 : c->ik_shift[k / 3][k % 3];
    if (((const retarget_opts *)s->o)->feet_from_source)
        pk_buf_printf(out,
                      "; feet moved by (%.3f, %.3f, %.3f) left, (%.3f, %.3f, %.3f) right to "
                      "stand from the hips as on the source model",
                      v[0], v[1], v[2], v[3], v[4], v[5]);
}

/* One line: which model the input fits better. */
static void fit_summary(const pk_check_fit *f, bool keep_absent, pk_buf *out)
{
    pk_buf_printf(out,
                  "\nfit: the input moves %zu bone%s (%zu key%s off rest) and %zu morph%s (%zu "
                  "key%s) the source model lacks, %zu bone%s (%zu key%s) and %zu morph%s (%zu "
                  "key%s) the target lacks: %s",
                  f->from_bones, pki_plural(f->from_bones), f->from_bone_keys,
                  pki_plural(f->from_bone_keys), f->from_morphs, pki_plural(f->from_morphs),
                  f->from_morph_keys, pki_plural(f->from_morph_keys), f->to_bones,
                  pki_plural(f->to_bones), f->to_bone_keys, pki_plural(f->to_bone_keys),
                  f->to_morphs, pki_plural(f->to_morphs), f->to_morph_keys,
                  pki_plural(f->to_morph_keys),
                  f->better < 0   ? "it fits the source better"
                  : f->better > 0 ? (keep_absent ? "it fits the target better (the source "
                                                   "stands in for another model: "
                                                   "--keep-absent)"
                                                 : "it fits the target better (warned)")
                                  : "it fits both alike");
}

/* The camera's line: its keys, then where B's points land. */
static void camera_summary(const pk_camera_report *c, pk_buf *out)
{
    pk_buf_printf(out, "camera: %zu key%s in, %zu out (%zu moved with their curves", c->keys_in,
                  pki_plural(c->keys_in), c->keys_out, c->kept);
    if (c->pieces)
        pk_buf_printf(out, ", %zu stretch%s fitted again: %zu key%s", c->pieces,
                      c->pieces == 1 ? "" : "es", c->piece_keys, pki_plural(c->piece_keys));
    if (c->cuts)
        pk_buf_printf(out, "; cut to %zu new shot%s", c->cuts, pki_plural(c->cuts));
    pk_buf_printf(out,
                  "; turned up to %.1f deg; from one frame to the next at most %.2f deg and "
                  "%.2f%% of the screen, the original %.2f deg and %.2f%%",
                  c->turn_deg, c->step_deg, 100 * c->step_eye, c->step_deg_orig,
                  100 * c->step_eye_orig);
    pk_buf_printf(out,
                  "); on the %zu frame%s where A's head is on the screen, B's head, hands and "
                  "feet land within %.2f%% of the screen height of A's (mean %.2f%%; frame by "
                  "frame %.2f%%, mean %.2f%%; the best camera for each frame %.2f%%, mean "
                  "%.2f%%; the camera unchanged: %.2f%%, mean %.2f%%)",
                  c->frames_on_screen, pki_plural(c->frames_on_screen), 100 * c->after_worst,
                  100 * c->after_mean, 100 * c->best_worst, 100 * c->best_mean,
                  100 * c->bound_worst, 100 * c->bound_mean, 100 * c->before_worst,
                  100 * c->before_mean);
    pk_buf_printf(out,
                  "; every point within %g%% on %zu of the %zu frames (the best camera for each "
                  "frame: %zu; unchanged: %zu)",
                  100 * PK_CAMERA_GOAL, c->after_goal, c->frames_on_screen, c->bound_goal,
                  c->before_goal);
    if (c->ortho)
        pk_buf_printf(out, "; %zu orthographic frame%s left alone", c->ortho, pki_plural(c->ortho));
}

/* "up to 1.7 deg": an angle a line counts up to, with the digits that
 * show it (a turn under 0.05 deg read "up to 0.0 deg", as if nothing had
 * moved), or "unchanged" (what: the elbow) when nothing measurable
 * did. */
static void up_to_deg(pk_buf *out, const char *what, double deg)
{
    if (deg < 0.0005)
        pk_buf_printf(out, "%s%sunchanged", what, *what ? " " : "");
    else
        pk_buf_printf(out, "%s%sup to %.*f deg", what, *what ? " " : "", deg < 0.05 ? 3 : 1, deg);
}

/* One line per sizing step that did something (the avoid step also when
 * B has no bodies to keep out of). */
static void sizing_summary(const pk_step *s, const pk_sizing_report *z, pk_buf *out)
{
    const retarget_opts *o = s->o;
    if (z->contacts_done && z->contact_frames) {
        pk_buf_printf(out, "\ncontacts: %zu on the source model, the hands moved on %zu frame%s",
                      z->contacts, z->contact_frames, pki_plural(z->contact_frames));
        const char *sep = " (";
        if (z->shoulder_frames) {
            pk_buf_printf(out, "%s%zu with 肩 turned to reach, ", sep, z->shoulder_frames);
            up_to_deg(out, "", z->shoulder_deg);
            sep = "; ";
        }
        if (z->out_of_reach) {
            pk_buf_printf(out, "%s%zu beyond the target's reach: arm stretched", sep,
                          z->out_of_reach);
            sep = "; ";
        }
        if (z->folded) {
            pk_buf_printf(out, "%s%zu nearer the shoulder than the target's arm folds: arm folded",
                          sep, z->folded);
            sep = "; ";
        }
        if (z->contact_kept) {
            pk_buf_printf(out, "%s%zu left as they were: moving the hands made the gaps worse", sep,
                          z->contact_kept);
            sep = "; ";
        }
        if (sep[0] == ';')
            pk_buf_printf(out, ")");
        pk_buf_printf(out, "; contact gap error %.1f%% -> %.1f%% of the target's arm (mean)",
                      100.0 * z->gap_before, 100.0 * z->gap_after);
    }
    if (!o->no_avoid && z->avoid_no_bodies)
        pk_buf_printf(out, "\navoid: skipped, the target model has no rigid bodies that follow "
                           "its bones");
    else if (z->avoid_done && z->avoid_frames) {
        pk_buf_printf(out,
                      "\navoid: %zu frame%s of an arm turned out of the target's body (deepest "
                      "%.3f units inside; ",
                      z->avoid_frames, pki_plural(z->avoid_frames), z->avoid_deepest);
        up_to_deg(out, "upper arm turned", z->avoid_deg);
        pk_buf_puts(out, ", ");
        up_to_deg(out, "elbow", z->avoid_elbow_deg);
        pk_buf_putc(out, ')');
    }
    if (z->twist_done && z->twist_frames) {
        pk_buf_printf(out, "\ntwist: %zu frame%s of an arm's twist moved into the twist bones (",
                      z->twist_frames, pki_plural(z->twist_frames));
        up_to_deg(out, "", z->twist_deg);
        pk_buf_printf(out, "; the hands' world rotations within %.4f deg)", z->twist_hand_deg);
    }
    if (z->refused)
        pk_buf_printf(out,
                      "\nelbows: %zu correction%s refused (%s would have bent an elbow backwards "
                      "past its rest plane)",
                      z->refused, pki_plural(z->refused), z->refused == 1 ? "it" : "they");
}

/* One line per body step that did something. */
static void body_summary(const pk_body_report *b, pk_buf *out)
{
    if (b->apart > 0)
        pk_buf_printf(out, "\napart: each 足ＩＫ %g units outward (--feet-apart)", b->apart);
    if (b->centre_done && b->centre_frames)
        pk_buf_printf(out,
                      "\ncentre: %zu frame%s of センター moved so the centre of gravity stands "
                      "over the feet as on the source (up to %.1f%% of the target's leg)",
                      b->centre_frames, pki_plural(b->centre_frames), 100 * b->centre_max);
    if (b->centre_done && b->floor_frames)
        pk_buf_printf(out,
                      "\nfloor: %zu frame%s of the hips lowered or a 足ＩＫ moved so the feet "
                      "stand as on the source (up to %.1f%% of the target's leg)",
                      b->floor_frames, pki_plural(b->floor_frames), 100 * b->floor_max);
    if (b->upper_done && b->upper_frames) {
        pk_buf_printf(out,
                      "\nupper: %zu frame%s of 上半身 turned so the neck leans from the hips "
                      "as on the source (",
                      b->upper_frames, pki_plural(b->upper_frames));
        up_to_deg(out, "", b->upper_deg);
        pk_buf_puts(out, "; head and arms kept)");
    }
    if (b->shoulders_done && b->shoulder_frames) {
        pk_buf_printf(out, "\nshoulders: %zu frame%s of a 肩 turned to the source's slope (",
                      b->shoulder_frames, pki_plural(b->shoulder_frames));
        up_to_deg(out, "", b->shoulder_deg);
        pk_buf_puts(out, "; arms kept)");
    }
    if (b->toes_done && b->toe_frames)
        pk_buf_printf(out,
                      "\ntoes: %zu frame%s of a %s so the toes touch the floor as on the source "
                      "and never pass below it (up to %.1f%% of the target's leg)",
                      b->toe_frames, pki_plural(b->toe_frames),
                      b->no_toe_ik ? "foot turned by 足首 (the target has no つま先ＩＫ)"
                                   : "つま先ＩＫ moved",
                      100 * b->toe_max);
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    const retarget_result *rr = res->own;
    if (!rr)
        return;
    const pk_edit_stats *e = &rr->edit;
    const pk_retarget_report *t = &rr->report;
    /* the rename line only when rules rename */
    if (rr->camera_kept)
        pk_buf_printf(out,
                      "camera: %zu key%s in, %zu out, unchanged (the dance plays alike on "
                      "both models)\ndance: ",
                      rr->cam.keys_in, pki_plural(rr->cam.keys_in), rr->cam.keys_out);
    else if (rr->camera) {
        camera_summary(&rr->cam, out);
        pk_buf_puts(out, "\ndance: ");
    }
    if (((const retarget_opts *)s->o)->rules_name) {
        pki_rename_summary(e, out);
        pk_buf_puts(out, "; ");
    }
    keys_summary(e, out);
    if (rr->bodies) {
        const pk_body_fit *b = &rr->auto_fit[rr->picked];
        pk_buf_printf(out, "\nfrom: @auto is @%s (it has %zu of the %zu bones the input keys",
                      rr->bodies->names[rr->picked], b->has, b->keyed);
        for (size_t i = 0; i < rr->bodies->n; i++)
            if ((long)i != rr->picked)
                pk_buf_printf(out, "; @%s %zu", rr->bodies->names[i], rr->auto_fit[i].has);
        /* without one that has every bone, the pick is by overlap
         * (pk_body_fit_doc), which can pick the one with fewer of them */
        if (b->has < b->keyed) {
            pk_buf_printf(out,
                          "; none has them all: picked by overlap, the bones both have over "
                          "the bones either has, %.2f",
                          b->overlap);
            for (size_t i = 0; i < rr->bodies->n; i++)
                if ((long)i != rr->picked)
                    pk_buf_printf(out, "; @%s %.2f", rr->bodies->names[i], rr->auto_fit[i].overlap);
        }
        pk_buf_putc(out, ')');
    }
    if (rr->models && t->fold_done)
        fold_summary(s, &t->fold, out);
    if (rr->models && t->absent_kept)
        kept_summary(s, t, out);
    if (rr->models && t->stance_done && t->stance_keys)
        stance_summary(s, &t->stance, out);
    if (rr->models && t->scale_done && t->scale_keys)
        scale_summary(s, &t->scale, rr->group, out);
    if (rr->same_bones)
        pk_buf_puts(out, "\nsizing: none, the target model has the source model's bones at the "
                         "same places (the input is what each step would make)");
    if (rr->models)
        body_summary(&t->body, out);
    if (rr->models)
        sizing_summary(s, &t->sizing, out);
    if (rr->fit_done)
        fit_summary(&rr->fit, ((const retarget_opts *)s->o)->keep_absent, out);
    if (((const retarget_opts *)s->o)->verbose)
        pki_unmatched(e, out);
}

/* ---- the JSON report: the sizing's measures ---- */

static void jnum(pki_json *j, const char *k, double v)
{
    pki_json_knum(j, k, pki_round6(v));
}

static void jpair(pki_json *j, const char *k, const char *a, double va, const char *b, double vb)
{
    pki_json_key(j, k);
    pki_json_open(j, '{');
    jnum(j, a, va);
    jnum(j, b, vb);
    pki_json_close(j, '}');
}

/* The "reachable" object: the contact frames within B's arms' reach and
 * their gaps before and after; beyond_by where not NAN (dancers). */
static void json_reachable(pki_json *j, size_t frames, double beyond_by, double before_mean,
                           double before_p95, double after_mean, double after_p95)
{
    pki_json_key(j, "reachable");
    pki_json_open(j, '{');
    pki_json_kint(j, "frames", (long long)frames);
    if (!isnan(beyond_by))
        jnum(j, "beyond_by", beyond_by);
    jpair(j, "before", "mean", before_mean, "p95", before_p95);
    jpair(j, "after", "mean", after_mean, "p95", after_p95);
    pki_json_close(j, '}');
}

/* A contact's frames and its gap on A, and on B before and after: the
 * same fields for a dancer's own contacts and those between dancers. */
static void json_contact_gaps(pki_json *j, double first, double last, double gap_a,
                              double before_mean, double before_max, double after_mean,
                              double after_max)
{
    pki_json_key(j, "frames");
    pki_json_open(j, '[');
    pki_json_item(j);
    pki_json_num(j->b, first);
    pki_json_item(j);
    pki_json_num(j->b, last);
    pki_json_close(j, ']');
    jnum(j, "gap_from", gap_a);
    jpair(j, "before", "mean", before_mean, "max", before_max);
    jpair(j, "after", "mean", after_mean, "max", after_max);
}

/* A step's key in the report: null when the step was left out (returns
 * false), else an object opened for its fields (returns true). */
static bool step_open(pki_json *j, const char *key, bool off)
{
    pki_json_key(j, key);
    if (off) {
        pk_buf_puts(j->b, "null");
        return false;
    }
    pki_json_open(j, '{');
    return true;
}

static void json_steps(pki_json *j, const retarget_opts *o, const pk_sizing_report *z)
{
    pki_json_key(j, "steps");
    pki_json_open(j, '{');
    if (step_open(j, "contacts", o->no_contacts)) {
        pki_json_kint(j, "found", (long long)z->contacts);
        pki_json_kint(j, "frames", (long long)z->contact_frames);
        pki_json_kint(j, "out_of_reach", (long long)z->out_of_reach);
        if (z->folded)
            pki_json_kint(j, "folded", (long long)z->folded);
        pki_json_kint(j, "shoulder_frames", (long long)z->shoulder_frames);
        pki_json_kint(j, "kept", (long long)z->contact_kept);
        jnum(j, "shoulder_deg", z->shoulder_deg);
        jnum(j, "gap_before", z->gap_before);
        jnum(j, "gap_after", z->gap_after);
        pki_json_close(j, '}');
    }
    if (step_open(j, "avoid", o->no_avoid)) {
        pki_json_kbool(j, "skipped", z->avoid_no_bodies);
        pki_json_kint(j, "frames", (long long)z->avoid_frames);
        jnum(j, "deepest", z->avoid_deepest);
        jnum(j, "deg", z->avoid_deg);
        jnum(j, "elbow_deg", z->avoid_elbow_deg);
        pki_json_close(j, '}');
    }
    if (step_open(j, "twist", o->no_twist)) {
        pki_json_kint(j, "frames", (long long)z->twist_frames);
        jnum(j, "deg", z->twist_deg);
        jnum(j, "hand_deg", z->twist_hand_deg);
        pki_json_close(j, '}');
    }
    pki_json_kint(j, "refused", (long long)z->refused);
    pki_json_kint(j, "keys", (long long)z->keys);
    pki_json_close(j, '}');
}

static void json_body_steps(pki_json *j, const retarget_opts *o, const pk_body_report *b)
{
    pki_json_key(j, "body_steps");
    pki_json_open(j, '{');
    if (step_open(j, "centre", o->no_centre)) {
        pki_json_kint(j, "frames", (long long)b->centre_frames);
        jnum(j, "max", b->centre_max);
        pki_json_kint(j, "floor_frames", (long long)b->floor_frames);
        jnum(j, "floor_max", b->floor_max);
        pki_json_close(j, '}');
    }
    if (step_open(j, "upper", o->no_upper)) {
        pki_json_kint(j, "frames", (long long)b->upper_frames);
        jnum(j, "deg", b->upper_deg);
        pki_json_close(j, '}');
    }
    if (step_open(j, "shoulders", o->no_shoulders)) {
        pki_json_kint(j, "frames", (long long)b->shoulder_frames);
        jnum(j, "deg", b->shoulder_deg);
        pki_json_close(j, '}');
    }
    if (step_open(j, "toes", o->no_toes)) {
        pki_json_kbool(j, "by_ankle", b->no_toe_ik);
        pki_json_kint(j, "frames", (long long)b->toe_frames);
        jnum(j, "max", b->toe_max);
        pki_json_close(j, '}');
    }
    jnum(j, "feet_apart", b->apart);
    pki_json_kint(j, "keys", (long long)b->keys);
    pki_json_close(j, '}');
}

static void json_body(pki_json *j, const pk_body_measure *b)
{
    pki_json_key(j, "body");
    if (!b->done) {
        pk_buf_puts(j->b, "null");
        return;
    }
    pki_json_open(j, '{');
    pki_json_key(j, "head_from_hips_deg");
    pki_json_open(j, '{');
    jpair(j, "before", "max", b->head_max_before, "mean", b->head_mean_before);
    jpair(j, "after", "max", b->head_max, "mean", b->head_mean);
    pki_json_close(j, '}');
    jpair(j, "shoulders_deg", "before", b->shoulder_max_before, "after", b->shoulder_max);
    pki_json_key(j, "centre_of_gravity");
    pki_json_open(j, '{');
    jpair(j, "before", "max", b->cog_max_before, "mean", b->cog_mean_before);
    jpair(j, "after", "max", b->cog_max, "mean", b->cog_mean);
    pki_json_key(j, "a_on_its_ik");
    pki_json_open(j, '{');
    pki_json_kint(j, "frames_off", (long long)b->cog_off_ik);
    jpair(j, "before", "max", b->cog_on_ik_max_before, "mean", b->cog_on_ik_mean_before);
    jpair(j, "after", "max", b->cog_on_ik_max, "mean", b->cog_on_ik_mean);
    pki_json_close(j, '}');
    pki_json_close(j, '}');
    pki_json_key(j, "toes_below_floor");
    pki_json_open(j, '{');
    pki_json_kint(j, "before", (long long)b->toe_below_before);
    pki_json_kint(j, "after", (long long)b->toe_below);
    pki_json_close(j, '}');
    pki_json_close(j, '}');
}

static void json_measure(pki_json *j, const pk_sizing_measure *m)
{
    pki_json_key(j, "frames");
    pki_json_open(j, '[');
    pki_json_item(j);
    pki_json_num(j->b, m->first);
    pki_json_item(j);
    pki_json_num(j->b, m->last);
    pki_json_close(j, ']');
    jpair(j, "arm", "from", m->arm_a, "to", m->arm_b);
    jpair(j, "leg", "from", m->leg_a, "to", m->leg_b);
    pki_json_key(j, "contacts");
    pki_json_open(j, '[');
    for (size_t i = 0; i < m->ncontacts; i++) {
        const pk_sizing_contact *c = &m->contacts[i];
        pki_json_item(j);
        pki_json_open(j, '{');
        bool both = strcmp(c->with, "hand") == 0;
        pki_json_kstr(j, "hand", both ? "both" : c->side ? "right" : "left");
        pki_json_kstr(j, "with", both ? "each other" : c->with);
        json_contact_gaps(j, c->first, c->last, c->gap_a, c->before_mean, c->before_max,
                          c->after_mean, c->after_max);
        if (c->unreachable) {
            pki_json_key(j, "out_of_reach");
            pki_json_open(j, '{');
            pki_json_kint(j, "frames", (long long)c->unreachable);
            jnum(j, "short_by", c->short_by);
            pki_json_close(j, '}');
        }
        if (c->blocked)
            pki_json_kint(j, "blocked_by_body", (long long)c->blocked);
        if (c->apart) {
            pki_json_key(j, "apart");
            pki_json_open(j, '{');
            pki_json_kint(j, "frames", (long long)c->apart);
            jnum(j, "least", c->apart_least);
            pki_json_close(j, '}');
        }
        if (c->refused)
            pki_json_kint(j, "refused", (long long)c->refused);
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
    pki_json_key(j, "hands");
    pki_json_open(j, '{');
    pki_json_kint(j, "frames", (long long)m->contact_frames);
    jpair(j, "before", "mean", m->hands_before_mean, "p95", m->hands_before_p95);
    jpair(j, "after", "mean", m->hands_after_mean, "p95", m->hands_after_p95);
    json_reachable(j, m->reach_frames, NAN, m->reach_before_mean, m->reach_before_p95,
                   m->reach_after_mean, m->reach_after_p95);
    pki_json_close(j, '}');
    pki_json_key(j, "feet");
    pki_json_open(j, '{');
    pki_json_kint(j, "planted_frames", (long long)m->planted_frames);
    jnum(j, "slide_from", m->slide_a);
    jpair(j, "slide", "before", m->slide_b_before, "after", m->slide_b);
    jnum(j, "slide_excess_max", m->slide_excess_max);
    jnum(j, "slide_excess_max_before", m->slide_excess_max_before);
    jpair(j, "floor_p95", "before", m->floor_p95_before, "after", m->floor_p95);
    pki_json_close(j, '}');
    json_body(j, &m->body);
    pki_json_key(j, "arms_far_from_contacts");
    pki_json_open(j, '{');
    pki_json_kint(j, "frames", (long long)m->far_frames);
    jnum(j, "max_deg", m->drift_max_deg);
    jnum(j, "mean_deg", m->drift_mean_deg);
    pki_json_close(j, '}');
    pki_json_key(j, "penetration");
    pki_json_open(j, '{');
    pki_json_kbool(j, "bodies", m->bodies);
    pki_json_key(j, "before");
    pki_json_open(j, '{');
    pki_json_kint(j, "frames", (long long)m->pen_before);
    jnum(j, "deepest", m->pen_deepest_before);
    pki_json_close(j, '}');
    pki_json_key(j, "after");
    pki_json_open(j, '{');
    pki_json_kint(j, "frames", (long long)m->pen_after);
    jnum(j, "deepest", m->pen_deepest_after);
    if (m->pen_after)
        pki_json_kint(j, "worst_frame", (long long)m->pen_worst_frame);
    pki_json_close(j, '}');
    pki_json_close(j, '}');
    pki_json_key(j, "bends");
    pki_json_open(j, '{');
    const char *names[2] = {"elbows", "knees"};
    size_t checked[2] = {m->elbow_frames, m->knee_frames}, past[2] = {m->elbow_past, m->knee_past};
    size_t past0[2] = {m->elbow_past_before, m->knee_past_before};
    double worst[2] = {m->elbow_worst_deg, m->knee_worst_deg};
    for (int i = 0; i < 2; i++) {
        pki_json_key(j, names[i]);
        pki_json_open(j, '{');
        pki_json_kint(j, "checked", (long long)checked[i]);
        pki_json_kint(j, "past_rest_before", (long long)past0[i]);
        pki_json_kint(j, "past_rest", (long long)past[i]);
        if (!i)
            pki_json_kint(j, "worse", (long long)m->elbow_worse);
        jnum(j, "worst_deg", worst[i]);
        pki_json_close(j, '}');
    }
    pki_json_close(j, '}');
}

/* The camera's measures (screen heights) and keys. */
static void json_camera(pki_json *j, const pk_camera_report *c)
{
    pki_json_key(j, "camera");
    pki_json_open(j, '{');
    pki_json_kint(j, "keys_in", (long long)c->keys_in);
    pki_json_kint(j, "keys_out", (long long)c->keys_out);
    pki_json_kint(j, "kept", (long long)c->kept);
    pki_json_kint(j, "pieces", (long long)c->pieces);
    pki_json_kint(j, "cuts", (long long)c->cuts);
    pki_json_kint(j, "frames", (long long)c->frames_on_screen);
    jpair(j, "moved", "worst", c->after_worst, "mean", c->after_mean);
    jpair(j, "frame_by_frame", "worst", c->best_worst, "mean", c->best_mean);
    jpair(j, "unchanged", "worst", c->before_worst, "mean", c->before_mean);
    jpair(j, "bound", "worst", c->bound_worst, "mean", c->bound_mean);
    pki_json_kint(j, "within_goal_bound", (long long)c->bound_goal);
    jnum(j, "turn_deg", c->turn_deg);
    pki_json_kint(j, "within_goal_frame_by_frame", (long long)c->best_goal);
    jpair(j, "step_deg", "moved", c->step_deg, "unchanged", c->step_deg_orig);
    jpair(j, "step_eye", "moved", c->step_eye, "unchanged", c->step_eye_orig);
    pki_json_kint(j, "within_goal", (long long)c->after_goal);
    pki_json_kint(j, "within_goal_unchanged", (long long)c->before_goal);
    /* the frames no camera was found to meet the goal on, runs [first, last] */
    pki_json_key(j, "unmet_frames");
    pki_json_open(j, '[');
    for (size_t i = 0; i < c->nunmet; i++) {
        pki_json_item(j);
        pki_json_open(j, '[');
        for (int e = 0; e < 2; e++) {
            pki_json_item(j);
            pk_buf_printf(j->b, "%lu", (unsigned long)c->unmet[i][e]);
        }
        pki_json_close(j, ']');
    }
    pki_json_close(j, ']');
    pki_json_close(j, '}');
}

/* One retarget's report: its names, steps and measures. */
static void json_one(pki_json *j, const pk_step *s, const retarget_result *rr)
{
    const retarget_opts *o = s->o;
    pki_json_open(j, '{');
    pki_json_kstr(j, "input", s->ninputs ? s->inputs[0] : NULL);
    pki_json_kstr(j, "from", o->from_name);
    if (rr && rr->bodies) /* from "@auto": the built-in body it picked */
        pki_json_kstr(j, "picked", rr->picked_name);
    pki_json_kstr(j, "to", o->to_name);
    if (rr && rr->camera_kept) { /* written unchanged: nothing moved or measured */
        pki_json_key(j, "camera");
        pk_buf_puts(j->b, "null");
    } else if (rr && rr->camera)
        json_camera(j, &rr->cam);
    if (rr && rr->models) {
        /* the same bones twice: every sizing step left out, as its --no-X
         * leaves it (null), and why */
        retarget_opts off = *o;
        if (rr->same_bones) {
            pki_json_kbool(j, "same_bones", true);
            sizing_off(&off);
        }
        json_steps(j, &off, &rr->report.sizing);
        json_body_steps(j, &off, &rr->report.body);
        if (rr->report.measure)
            json_measure(j, rr->report.measure);
    }
    pki_json_close(j, '}');
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log)
{
    (void)log;
    if (f != PK_REPORT_JSON)
        return 1;
    pki_json j = pki_json_begin(out, true);
    json_one(&j, s, res->own);
    pk_buf_putc(out, '\n');
    return 0;
}

/* ---- dancers sized together (engine/ops/retarget/troupe.c) ---- */

/* "dancer 2: " before a message about one dancer; nothing when every
 * dancer has what it is about (a job's parameter beside the list, or the
 * option given to each): the message is the group's. */
static const char *dancer_words(size_t n, size_t i, size_t every, char *buf)
{
    if (every == n)
        return "";
    snprintf(buf, 32, "dancer %zu: ", i + 1);
    return buf;
}

static int check_group(pk_step *const *s, size_t n, pk_log *log)
{
    char n1[64], n2[64], who[32];
    size_t given = n;
    double xz0 = 0;
    bool own0 = false;
    size_t no_models = 0, no_scale = 0, cameras = 0;
    for (size_t i = 0; i < n; i++) {
        no_models += !((const retarget_opts *)s[i]->o)->from_name;
        cameras += s[i]->ninputs > 1;
        no_scale += ((const retarget_opts *)s[i]->o)->no_scale;
    }
    for (size_t i = 0; i < n; i++) {
        const retarget_opts *o = s[i]->o;
        if (!o->from_name)
            return pki_step_fail(log, "%s%s and %s: dancers are sized between models",
                                 dancer_words(n, i, no_models, who),
                                 pki_step_spell(s[i], "from", n1), pki_step_spell(s[i], "to", n2));
        if (s[i]->ninputs > 1)
            return pki_step_fail(log, "%s%s: a camera is retargeted on its own, not as a dancer",
                                 dancer_words(n, i, cameras, who),
                                 pki_step_spell(s[i], "motion", n1));
        if (o->no_scale)
            return pki_step_fail(log,
                                 "%s%s: dancers share one scale for their "
                                 "translations (%s 1 keeps them as they are)",
                                 dancer_words(n, i, no_scale, who),
                                 pki_step_spell(s[i], "no_scale", n1),
                                 pki_step_spell(s[i], "scale", n2));
        double xz;
        bool own;
        if (!scale_of(o, &xz, &own))
            return pki_step_fail(log, "%s wants a positive number, or 'own' (not '%s')",
                                 pki_step_spell(s[i], "scale", n1), o->scale);
        if (!o->scale)
            continue;
        if (given < n && (own != own0 || fabs(xz - xz0) > 1e-12))
            return pki_step_fail(log,
                                 "dancers %zu and %zu give different %s (%s, %s): the dancers "
                                 "share one (give it once)",
                                 given + 1, i + 1, pki_step_spell(s[i], "scale", n1),
                                 ((const retarget_opts *)s[given]->o)->scale, o->scale);
        if (given == n) {
            given = i;
            xz0 = xz;
            own0 = own;
        }
    }
    return 0;
}

static int run_group(pk_step *const *s, size_t n, pk_doc *const *in, pk_step_result *res,
                     pk_log *log)
{
    pk_dancer *d = calloc(n ? n : 1, sizeof *d);
    if (!d) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pk_troupe_options to = {0};
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        const retarget_opts *o = s[i]->o;
        retarget_result *rr = pki_result_new(&res[i], sizeof *rr, log);
        if (!rr)
            goto done;
        rr->group = true;
        pki_take(&res[i].out, &in[i][0]);
        if (!res[i].out.motion) {
            pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s[i]->inputs[0], -1, 0, 0,
                          "dancer %zu: a pose: dancers are sized as motions (VMD)", i + 1);
            goto done;
        }
        /* a motion without bone keys (a camera, a face motion) has no
         * body to place: sized as a dancer it would only get a 全ての親
         * key moving the model it is loaded on */
        const pk_motion *mo = res[i].out.motion;
        if (!mo->nbones) {
            if (mo->ncameras)
                pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s[i]->inputs[0], -1, 0, 0,
                              "dancer %zu: a camera (%zu camera key%s, no bone key): a camera is "
                              "sized with the dance it frames (%s), not as a dancer",
                              i + 1, mo->ncameras, pki_plural(mo->ncameras),
                              s[i]->prefix[0] ? "retarget CAMERA --from A --to B --motion DANCE"
                                              : "a retarget step of its own, with motion: "
                                                "the dance");
            else
                pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s[i]->inputs[0], -1, 0, 0,
                              "dancer %zu: the motion has no bone keys: nothing of a body to "
                              "size (a dancer is the motion that moves its bones)",
                              i + 1);
            goto done;
        }
        size_t from = pki_mark(log);
        pk_retarget_options ro;
        int got = model_options(s[i], &res[i].out, rr, &ro, log);
        pk_log_place(log, from, s[i]->inputs[0]);
        if (got != 0)
            goto done;
        d[i] =
            (pk_dancer){res[i].out.motion, o->rules, ro, &rr->edit, &rr->report, s[i]->inputs[0]};
        if (o->scale)
            scale_of(o, &to.scale, &to.own);
    }
    retarget_result *first = res[0].own;
    first->troupe = calloc(1, sizeof *first->troupe);
    if (!first->troupe) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    rc = pk_motions_retarget_together(d, n, &to, first->troupe, log);
done:
    free(d);
    return rc;
}

/* "dancer 1's right hand with dancer 2's left hand, frames 20-40" */
static void contact_words(const pk_troupe_contact *c, pk_buf *out)
{
    pk_buf_printf(out, "dancer %zu's %s hand with dancer %zu's %s, frames %u-%u", c->dancer + 1,
                  c->side ? "right" : "left", c->partner + 1, c->with, c->first, c->last);
}

static void group_summary(pk_step *const *s, size_t n, const pk_step_result *res, pk_buf *out)
{
    const retarget_result *rr = n ? res[0].own : NULL;
    const pk_troupe_report *t = rr ? rr->troupe : NULL;
    if (!t)
        return;
    (void)s;
    if (t->own)
        pk_buf_printf(out,
                      "dancers: %zu sized together, each with its own XZ scale (%.4f to %.4f; "
                      "the spacing held to their mean %.4f)",
                      n, t->ratio_min, t->ratio_max, t->scale);
    else if (t->scale_given)
        pk_buf_printf(out,
                      "dancers: %zu sized together, one XZ scale %.4f for their translations "
                      "(as given; their legs give %.4f to %.4f)",
                      n, t->scale, t->ratio_min, t->ratio_max);
    else
        pk_buf_printf(out,
                      "dancers: %zu sized together, one XZ scale %.4f for their translations "
                      "(the mean of their legs' %.4f to %.4f)",
                      n, t->scale, t->ratio_min, t->ratio_max);
    if (!t->pairs)
        pk_buf_printf(out, "\ndancers: spacing not measured (%s)",
                      n < 2 ? "one dancer" : "a model without センター");
    else
        pk_buf_printf(out,
                      "\ndancers: spacing off by at most %.2f%% of the mean leg (%.3f units), "
                      "mean %.2f%%, over frames %u-%u (%zu pair%s; worst: dancers %zu and %zu at "
                      "frame %u, %.3f units apart for %.3f)",
                      100 * t->spacing_max, t->leg, 100 * t->spacing_mean, t->first, t->last,
                      t->pairs, pki_plural(t->pairs), t->spacing_worst[0] + 1,
                      t->spacing_worst[1] + 1, t->spacing_worst_frame, t->spacing_worst_b,
                      t->scale * t->spacing_worst_a);
    if (!t->ncontacts) {
        pk_buf_puts(out, "\npartners: no hand touches another dancer on the source models");
        if (t->one_place)
            pk_buf_printf(out, " (%zu pair%s standing in one place not looked at)", t->one_place,
                          pki_plural(t->one_place));
        return;
    }
    pk_buf_printf(out, "\npartners: %zu contact%s between dancers (", t->ncontacts,
                  pki_plural(t->ncontacts));
    size_t shown = t->ncontacts <= 4 ? t->ncontacts : 3;
    for (size_t i = 0; i < shown; i++) {
        if (i)
            pk_buf_puts(out, "; ");
        contact_words(&t->contacts[i], out);
    }
    if (shown < t->ncontacts)
        pk_buf_printf(out, "; and %zu more", t->ncontacts - shown);
    pk_buf_printf(out, "), the hands moved on %zu frame%s", t->moved_frames,
                  pki_plural(t->moved_frames));
    if (t->out_of_reach)
        pk_buf_printf(out, " (%zu beyond the target's reach: arm stretched)", t->out_of_reach);
    if (t->folded)
        pk_buf_printf(out, " (%zu nearer the shoulder than the target's arm folds: arm folded)",
                      t->folded);
    if (t->refused)
        pk_buf_printf(out,
                      " (%zu refused: an elbow would have bent backwards; %zu of the partners' "
                      "hands went the whole way instead)",
                      t->refused, t->settled);
    if (t->kept)
        pk_buf_printf(out, " (%zu contact frame%s left as sized alone: holding made the gap worse)",
                      t->kept, pki_plural(t->kept));
    pk_buf_printf(out,
                  "; contact gap error %.1f%% -> %.1f%% of the target's arm (mean; p95 %.1f%% -> "
                  "%.1f%%)",
                  100 * t->gap_before_mean, 100 * t->gap_after_mean, 100 * t->gap_before_p95,
                  100 * t->gap_after_p95);
    if (t->reach_frames == t->contact_frames)
        return;
    size_t beyond = t->contact_frames - t->reach_frames;
    pk_buf_printf(
        out, "; %s%zu of them beyond the arms' reach (a wrist's target up to %.1f%% of its arm)",
        t->reach_frames ? "" : "all ", beyond, 100 * t->reach_short_max);
    if (t->reach_frames)
        pk_buf_printf(out, ", on the %zu within it %.1f%% -> %.1f%% (p95 %.1f%% -> %.1f%%)",
                      t->reach_frames, 100 * t->reach_before_mean, 100 * t->reach_after_mean,
                      100 * t->reach_before_p95, 100 * t->reach_after_p95);
}

static void json_troupe(pki_json *j, const pk_troupe_report *t)
{
    pki_json_key(j, "scale");
    pki_json_open(j, '{');
    jnum(j, "xz", t->scale);
    pki_json_kstr(j, "from", t->own ? "own" : t->scale_given ? "given" : "mean");
    jpair(j, "legs", "min", t->ratio_min, "max", t->ratio_max);
    pki_json_close(j, '}');
    pki_json_key(j, "spacing");
    pki_json_open(j, '{');
    pki_json_kint(j, "pairs", (long long)t->pairs);
    pki_json_key(j, "frames");
    pki_json_open(j, '[');
    pki_json_item(j);
    pki_json_num(j->b, t->first);
    pki_json_item(j);
    pki_json_num(j->b, t->last);
    pki_json_close(j, ']');
    jnum(j, "leg", t->leg);
    jnum(j, "mean", t->spacing_mean);
    jnum(j, "max", t->spacing_max);
    if (t->pairs) {
        pki_json_key(j, "worst");
        pki_json_open(j, '{');
        pki_json_kint(j, "frame", t->spacing_worst_frame);
        pki_json_key(j, "dancers");
        pki_json_open(j, '[');
        for (int k = 0; k < 2; k++) {
            pki_json_item(j);
            pki_json_num(j->b, (double)(t->spacing_worst[k] + 1));
        }
        pki_json_close(j, ']');
        jnum(j, "distance", t->spacing_worst_b);
        jnum(j, "wanted", t->scale * t->spacing_worst_a);
        pki_json_close(j, '}');
    }
    pki_json_close(j, '}');
    pki_json_key(j, "partners");
    pki_json_open(j, '{');
    pki_json_key(j, "contacts");
    pki_json_open(j, '[');
    for (size_t i = 0; i < t->ncontacts; i++) {
        const pk_troupe_contact *c = &t->contacts[i];
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_kint(j, "dancer", (long long)c->dancer + 1);
        pki_json_kstr(j, "hand", c->side ? "right" : "left");
        pki_json_kint(j, "partner", (long long)c->partner + 1);
        pki_json_kstr(j, "with", c->with);
        json_contact_gaps(j, c->first, c->last, c->gap_a, c->before_mean, c->before_max,
                          c->after_mean, c->after_max);
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
    pki_json_kint(j, "one_place", (long long)t->one_place);
    pki_json_kint(j, "frames", (long long)t->contact_frames);
    pki_json_kint(j, "moved", (long long)t->moved_frames);
    pki_json_kint(j, "out_of_reach", (long long)t->out_of_reach);
    if (t->folded)
        pki_json_kint(j, "folded", (long long)t->folded);
    pki_json_kint(j, "refused", (long long)t->refused);
    pki_json_kint(j, "settled", (long long)t->settled);
    pki_json_kint(j, "kept", (long long)t->kept);
    pki_json_kint(j, "keys", (long long)t->keys);
    jpair(j, "before", "mean", t->gap_before_mean, "p95", t->gap_before_p95);
    jpair(j, "after", "mean", t->gap_after_mean, "p95", t->gap_after_p95);
    json_reachable(j, t->reach_frames, t->reach_short_max, t->reach_before_mean,
                   t->reach_before_p95, t->reach_after_mean, t->reach_after_p95);
    pki_json_close(j, '}');
}

static int group_report(pk_step *const *s, size_t n, const pk_step_result *res, pk_report_format f,
                        pk_buf *out, pk_log *log)
{
    (void)log;
    if (f != PK_REPORT_JSON)
        return 0;
    const retarget_result *first = n ? res[0].own : NULL;
    pki_json j = pki_json_begin(out, true);
    pki_json_open(&j, '{');
    pki_json_key(&j, "dancers");
    pki_json_open(&j, '[');
    for (size_t i = 0; i < n; i++) {
        pki_json_item(&j);
        json_one(&j, s[i], res[i].own);
    }
    pki_json_close(&j, ']');
    if (first && first->troupe)
        json_troupe(&j, first->troupe);
    pki_json_close(&j, '}');
    pk_buf_putc(out, '\n');
    return 0;
}

static void want(pk_step *s, pk_report_format f)
{
    if (f == PK_REPORT_JSON)
        ((retarget_opts *)s->o)->measure = true;
}

static const char HELP[] =
    "usage: posekit retarget IN --from A.pmx --to B.pmx [--rules R.yaml] -o OUT\n"
    "                           [--no-stance] [--no-scale] [--no-fold] [--fingers]\n"
    "                           [--no-centre] [--no-upper] [--no-shoulders]\n"
    "                           [--no-toes] [--feet-apart U]\n"
    "                           [--no-contacts] [--no-avoid] [--no-twist]\n"
    "                           [--feet-from-source] [--keep-absent]\n"
    "                           [--max-deg D] [--max-pos P] [--report R.json]\n"
    "                           [--json] [--verbose] [--strict]\n"
    "       posekit retarget IN --rules R.yaml -o OUT [--verbose] [--strict]\n"
    "       posekit retarget CAMERA.vmd --from A --to B --motion DANCE.vmd -o OUT\n"
    "       posekit retarget IN1 --from A1 --to B1 -o OUT1 --and IN2 --from A2\n"
    "                        --to B2 -o OUT2 [--and ...] [--scale S|own]\n"
    "\n"
    "Adapts a VMD motion or VPD pose made for model A to model B.  With the\n"
    "two models (PMX or PMD) every step is computed from their bones:\n"
    "\n"
    "  1. rename   bones and morphs by the rules (with --rules)\n"
    "  2. fold     bones A has and B lacks (上半身2, 腕捩, ...) carried into\n"
    "              those below them (within --max-deg and --max-pos)\n"
    "  3. stance   the arms (--fingers: the hands too) turned from A's rest\n"
    "              direction to B's: the arm points where it did\n"
    "  4. scale    translations (センター, 足ＩＫ, ...) times B's leg over A's\n"
    "  5. body     centre of gravity over the feet, feet and toes on the\n"
    "              floor, 上半身 and 肩 to A's lean and slope\n"
    "  6. contacts B's hands touch where A's did (each other, head, body,\n"
    "              thighs, floor), scaled, eased in and out\n"
    "  7. avoid    B's forearms and hands kept out of B's rigid bodies\n"
    "  8. twist    the arms' twist moved into 腕捩 and 手捩 (hands kept)\n"
    "\n"
    "Keys of bones A lacks and B has are left out (--keep-absent keeps\n"
    "them).  No step 5-8 bends an elbow backwards past its rest plane\n"
    "(refused, counted).  One line per step that did something.  A rules\n"
    "file's stance and scale win; without models the rules do it all.\n"
    "\n"
    "  --from A         the model IN was made for (.pmx, .pmd, a body file,\n"
    "                   @classic, @standard, or @auto: the one check picks)\n"
    "  --to B           the model it is for\n"
    "  --rules R.yaml   rename first; stance and scale entries that win\n"
    "  --no-stance      leave the arms' rotations alone\n"
    "  --no-scale       leave translations alone\n"
    "  --no-fold        leave bones B lacks as they are (MMD ignores them)\n"
    "  --no-centre, --no-upper, --no-shoulders, --no-toes, --no-contacts,\n"
    "  --no-avoid, --no-twist  leave that sizing step out\n"
    "  --feet-apart U   each 足ＩＫ U units outward (thick legs)\n"
    "  --fingers        the stance of the hand and each finger joint too\n"
    "  --feet-from-source  each 足ＩＫ placed from the hip as on A (scaled),\n"
    "                   not at B's own rest\n"
    "  --keep-absent    keep the keys of bones A lacks and B has\n"
    "  --motion DANCE   IN is DANCE's camera: moved to frame B as A was\n"
    "  --and            the next dancer (doc/commands.md \"Several dancers\"):\n"
    "                   one XZ scale shared, contacts between dancers held\n"
    "  --scale S|own    translations' XZ scale (default B's leg over A's;\n"
    "                   dancers: their mean; own: each its own)\n"
    "  --max-deg D      the fold's rotation tolerance, degrees (default 0.1)\n"
    "  --max-pos P      the fold's translation tolerance, units (default 0.005)\n"
    "  -o, --output OUT output file (.vmd or .vpd), never an input\n"
    "  --report R.json  also write the measures of the sizing: each contact\n"
    "                   on A (frames, gap on B before and after), planted feet,\n"
    "                   arms far from contacts, penetration, bends, body\n"
    "  --json           the measures on standard output instead of the lines\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the names no rename rule matched, every segment,\n"
    "                   every bone left alone, and the fold's fit\n"
    "  -h, --help       this text\n";

/* Options a user reaches for from the summary's lines and the sizing's
 * words, and the ones that do what they would. */
static const pki_option_hint HINTS[] = {
    {"no_floor", "the floor line is the centre step's: %s leaves both out", {"no_centre"}},
    {"no_hands", "the contacts step moves the hands: %s leaves it out", {"no_contacts"}},
    {"no_elbows",
     "the elbows line counts corrections refused so that no elbow bends backwards; no step "
     "of its own (each of %s, %s, %s, %s, %s, %s and %s leaves a step out)",
     {"no_centre", "no_upper", "no_shoulders", "no_toes", "no_contacts", "no_avoid", "no_twist"}},
    {"no_body",
     "the body steps are left out one by one: %s, %s, %s, %s",
     {"no_centre", "no_upper", "no_shoulders", "no_toes"}},
    {"no_sizing",
     "the sizing steps are left out one by one: %s, %s, %s, %s, %s, %s, %s",
     {"no_centre", "no_upper", "no_shoulders", "no_toes", "no_contacts", "no_avoid", "no_twist"}},
    {NULL, NULL, {NULL}},
};

const pki_step_def pki_step_retarget = {
    .name = "retarget",
    .about = "to another model: fold, stance, scale and sizing from the models",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .hints = HINTS,
    .opts_size = sizeof(retarget_opts),
    .init = init,
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .want = want,
    .makes = pki_makes_input,
    .takes_input = true,
    .free_result = free_result,
    .wants_bodies = picks_body,
    .bodies = offsetof(retarget_opts, bodies),
    .group = "dancers",
    .member = "dancer",
    .check_group = check_group,
    .run_group = run_group,
    .group_summary = group_summary,
    .group_report = group_report,
    .cli = {.output = PK_CLI_OUT_DOC,
            .side_option = "report",
            .side_format = PK_REPORT_JSON,
            .side_what = "the measures of the sizing (JSON)",
            .side_exts = ".json"},
};
