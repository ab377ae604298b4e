/* step_draw.c — draw: a pose (and a second one under it) on a model as a
 * stick figure (engine/ops/skeleton/draw.c): the picture (SVG) or every
 * bone's world transform (JSON). */
#include "step/step.h"
#include "step/step_option.h"
#include "ops/names/select_check.h"

#include <stdio.h>
#include <string.h>

typedef struct draw_opts {
    char *rules_name, *bones, *model_name, *vs_model_name;
    const pk_rules *rules;
    const pk_model *model, *vs_model;
    uint32_t frame, every;
    pki_frames frames;
    int view; /* pk_draw_view */
} draw_opts;

#define T draw_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_INPUT("vs", 1),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_MODEL(T, "model", model_name, model),
    {"frame", PKI_OPT_U32, offsetof(T, frame), 0, 0, NULL, "a frame number (0 or more)"},
    PKI_ROW_FRAMES(T),
    PKI_ROW_MODEL(T, "vs_model", vs_model_name, vs_model),
    {"every", PKI_OPT_COUNT, offsetof(T, every), 0, 0, NULL, "a number of frames (1 or more)"},
    {"view", PKI_OPT_ENUM, offsetof(T, view), 0, 0, "front|side|top|all", NULL},
};
#undef T

static void free_result(void *p)
{
    pk_drawing_free(p);
}

static int check(const pk_step *s, pk_log *log)
{
    const draw_opts *o = s->o;
    char n1[64], n2[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (!o->model_name)
        return pki_step_fail(log, "no model given (%s MODEL)", pki_step_spell(s, "model", n1));
    if (o->vs_model_name && (s->ninputs < 2 || !s->inputs[1]))
        return pki_step_fail(log, "%s needs %s OTHER (the pose it is the model of)",
                             pki_step_spell(s, "vs_model", n1), pki_step_spell(s, "vs", n2));
    if (pki_step_given(s, "every") && !pki_step_given(s, "frames"))
        return pki_step_fail(log, "%s needs %s A-B (a strip of frames)",
                             pki_step_spell(s, "every", n1), pki_step_spell(s, "frames", n2));
    if (pki_step_given(s, "frame") && pki_step_given(s, "frames"))
        return pki_step_fail(log, "%s and %s exclude each other", pki_step_spell(s, "frame", n1),
                             pki_step_spell(s, "frames", n2));
    return 0;
}

/* frame or frames on poses only: an error. */
static int check_docs(const pk_step *s, const pk_doc *in, bool vs, pk_log *log)
{
    bool range = pki_step_given(s, "frames");
    bool any_motion = in[0].motion || (vs && in[1].motion);
    if (any_motion || !(range || pki_step_given(s, "frame")))
        return 0;
    if (vs)
        pk_error(log, PK_E_USAGE, "%s%s applies to a motion (VMD); %s and %s are poses", s->prefix,
                 range ? "frames" : "frame", s->inputs[0], s->inputs[1]);
    else
        pk_error(log, PK_E_USAGE, "%s%s applies to a motion (VMD); %s is a pose", s->prefix,
                 range ? "frames" : "frame", s->inputs[0]);
    return -1;
}

/* A motion or pose keying bones of which the model holds none draws the
 * model at rest, which no picture tells apart from a drawing of the
 * input: said, naming the input (a motion with English names, or made for
 * another skeleton).  A document keying no bone draws its own rest pose,
 * but for a camera motion, said too. */
static void warn_unfit(const pk_step *s, const pk_doc *d, const char *path, const pk_model *m,
                       const char *model_name, pk_log *log)
{
    if (d->motion && d->motion->nbones == 0 && d->motion->ncameras > 0) {
        /* a camera motion given for the dance it frames: the picture
         * would be the model at rest, as if the dance stood still */
        size_t from = pki_mark(log);
        pk_warning(log, PK_E_NO_EFFECT,
                   "a camera motion (%zu camera key%s, no bone key): %s is drawn at rest (draw "
                   "the dance the camera frames)",
                   d->motion->ncameras, pki_plural(d->motion->ncameras), model_name);
        pk_log_place(log, from, path);
        return;
    }
    if (!pki_model_holds_none(m, d))
        return;
    char how[512];
    size_t from = pki_mark(log);
    pk_warning(log, PK_E_NO_EFFECT,
               "%s holds none of the bones it %s: drawn at rest (%s lists the names it lacks)",
               model_name, d->motion ? "keys" : "poses",
               pki_step_check_how(s, path, model_name, how));
    pk_log_place(log, from, path);
}

/* The pose (and the vs pose) on the models the caller loaded, as
 * figures; written later by the report (SVG or JSON). */
static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    const draw_opts *o = s->o;
    bool vs = n > 1 && s->inputs[1];
    const pk_model *mb = o->vs_model ? o->vs_model : o->model;
    if (!o->model || (vs && o->vs_model_name && !o->vs_model)) {
        pk_error(log, PK_E_USAGE, "the model '%s' is not loaded",
                 !o->model ? o->model_name : o->vs_model_name);
        return -1;
    }
    if (check_docs(s, in, vs, log) != 0)
        return -1;
    warn_unfit(s, &in[0], s->inputs[0], o->model, o->model_name, log);
    if (vs)
        warn_unfit(s, &in[1], s->inputs[1], mb,
                   o->vs_model_name ? o->vs_model_name : o->model_name, log);
    pk_draw_options d;
    memset(&d, 0, sizeof d);
    d.a.model = o->model;
    d.a.doc = &in[0];
    d.a.name = s->inputs[0];
    d.a.model_name = o->model_name;
    if (vs) {
        d.b.model = mb;
        d.b.doc = &in[1];
        d.b.name = s->inputs[1];
        d.b.model_name = o->vs_model_name ? o->vs_model_name : o->model_name;
    }
    d.range = pki_step_given(s, "frames");
    /* a frame past a motion's last key (step.h); a range is fitted by
     * pk_draw (it stops at the last key) */
    for (int i = 0; !d.range && i < (vs ? 2 : 1); i++)
        pki_warn_past_end(s, &in[i], s->inputs[i], "frame", o->frame, log);
    d.frame = o->frame;
    d.first = o->frames.first;
    d.last = o->frames.last;
    d.every = pki_step_given(s, "every") ? o->every : 0; /* 0: about 8 figures */
    if (d.range && o->frames.all) /* every frame of the motion(s), a figure every K */
        pki_frame_span(in, vs ? 2 : 1, &d.first, &d.last);
    d.view = (pk_draw_view)o->view;
    pk_selection *sel[2] = {NULL, NULL};
    if (o->bones) {
        sel[0] = pk_selection_parse_model(o->rules, o->model, o->bones, log);
        if (!sel[0])
            return -1;
        if (vs && !(sel[1] = pk_selection_parse_model(o->rules, mb, o->bones, log))) {
            pk_selection_free(sel[0]);
            return -1;
        }
    }
    /* a name of the selection no model holds: a warning naming the model,
     * as every command's selection (a selection matching no bone at all
     * is pk_draw's error) */
    const pk_model *models[2] = {o->model, mb};
    bool two = vs && mb != o->model;
    char where[512];
    if (two)
        snprintf(where, sizeof where, "the model or %s", o->vs_model_name);
    else
        snprintf(where, sizeof where, "the model");
    if (sel[0] && pki_selection_check_models(sel[0], o->bones, models, two ? 2 : 1, where,
                                             o->model_name, log) != 0) {
        pk_selection_free(sel[0]);
        pk_selection_free(sel[1]);
        return -1;
    }
    d.bones = sel[0];
    d.bones_spec = o->bones;
    d.vs_bones = sel[1];
    /* the body in colour: the standard groups of the rules (or of the
     * built-in rules) */
    pk_rules *own;
    pk_selection *body = pki_body(o->rules, &own);
    d.body = body;
    pk_drawing *drawing = pk_draw(&d, log);
    res->own = drawing;
    pk_selection_free(body);
    pk_rules_free(own);
    pk_selection_free(sel[0]);
    pk_selection_free(sel[1]);
    return drawing ? 0 : -1;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    if (!res->own)
        return;
    size_t n = pk_drawing_figures(res->own);
    pk_buf_printf(out, "%zu figure%s drawn", n, pki_plural(n));
    if (pki_step_given(s, "vs")) /* the JSON lists both of each pair */
        pk_buf_printf(out, ", the two poses overlaid in each");
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log)
{
    (void)s;
    (void)log;
    if (!res->own || f == PK_REPORT_TEXT)
        return 1;
    return f == PK_REPORT_SVG ? pk_draw_svg(res->own, out) : pk_draw_json(res->own, out);
}

static const char HELP[] =
    "usage: posekit draw POSE|MOTION --model MODEL [--frame N | --frames A-B [--every K]]\n"
    "                    [--vs OTHER [--vs-model MODEL2]] [--view front|side|top|all]\n"
    "                    [--bones SPEC [--rules R.yaml]] -o OUT.svg [--strict]\n"
    "       posekit draw ... --json [-o OUT.json]\n"
    "\n"
    "Evaluates the pose (a VPD, or a VMD motion at a frame) on a PMX or PMD\n"
    "model as MMD does (deform order, append/inherit, fixed axes, IK with\n"
    "MMD's CCD solver and the VMD's IK on/off section; no physics) and draws\n"
    "it as a stick figure: a line per visible bone to its tail, a thin line\n"
    "where a bone's parent's line does not reach it, joints as dots, left\n"
    "(左) and right (右) bones in two colours, control bones (センター,\n"
    "全ての親, IK parents) as small squares at their place, leg IK goals as\n"
    "green diamonds (hollow where the motion turns that IK off), hair and\n"
    "clothes IK goals small and grey, the ground, a scale bar; every panel\n"
    "at one scale.  Bone names show on hover.\n"
    "\n"
    "  --model MODEL        the PMX or PMD model (required)\n"
    "  --frame N            a motion's frame (default 0)\n"
    "  --frames A-B|all     a strip of small figures, one every K frames; a\n"
    "                       range past the motion's last key stops there\n"
    "                       (warned: after it the last pose holds)\n"
    "  --every K            with --frames: a figure every K frames (default:\n"
    "                       about 8 figures; at most 60)\n"
    "  --vs OTHER           a second pose drawn underneath in its sides' colours,\n"
    "                       each bone darker the more differently the two poses\n"
    "                       draw it (the angle between its lines, IK included)\n"
    "  --vs-model MODEL2    the second pose's model (default: MODEL)\n"
    "  --view V             front (default), side, top, or all three\n"
    "  --bones SPEC         only these bones: names, globs, @groups, @frame:NAME\n"
    "                       (a selection that leaves no bone to draw is an error,\n"
    "                       a name that matches no bone a warning)\n"
    "  --rules R.yaml       groups for --bones, and which bones are the body\n"
    "                       (drawn in colour; the others light grey)\n"
    "  --json               every bone's world position and rotation as JSON\n"
    "                       (with --bones, the bones it names) instead of a\n"
    "                       picture (standard output without -o)\n"
    "  -o, --output OUT     the picture (.svg) or, with --json, the .json file\n"
    "  --strict             treat warnings as errors\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 drawn, 2 error.\n";

/* bake's name for the same thing */
static const pki_option_hint HINTS[] = {
    {"step", "a figure every N frames is %s N (with %s)", {"every", "frames"}},
    {NULL, NULL, {NULL}},
};

const pki_step_def pki_step_draw = {
    .name = "draw",
    .about = "a pose on a model as a stick-figure picture (SVG), or world positions",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .hints = HINTS,
    .opts_size = sizeof(draw_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON) | PKI_REPORT(PK_REPORT_SVG),
    .report = report,
    .makes = pki_makes_report,
    .free_result = free_result,
    .report_exts = ".svg (the picture), .json (world transforms) or .txt",
    .cli = {.output = PK_CLI_OUT_REPORT},
};
