/* step_overlay.c — overlay: a pose laid over chosen bones and frames of a
 * motion or pose (engine/ops/keys/overlay.c), its summary and its JSON. */
#include "step/step.h"
#include "step/step_option.h"

#include "common/diag.h"
#include "ops/keys/overlay.h"
#include "ops/names/select_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct overlay_opts {
    char *rules_name, *bones, *model_name;
    const pk_rules *rules;
    const pk_model *model;
    pki_frames frames;
    uint32_t pose_frame, fade;
    int mode; /* pk_overlay_mode */
    bool cut_names;
} overlay_opts;

#define T overlay_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("base", 0),
    PKI_ROW_INPUT("pose", 1),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_MODEL(T, "model", model_name, model),
    PKI_ROW_FRAMES(T),
    {"pose_frame", PKI_OPT_U32, offsetof(T, pose_frame), 0, 0, NULL, "a frame number"},
    {"mode", PKI_OPT_ENUM, offsetof(T, mode), 0, 0, "replace|add", NULL},
    {"fade", PKI_OPT_U32, offsetof(T, fade), 0, 0, NULL, "a number of frames"},
    PKI_ROW_BOOL(T, "cut_names", cut_names),
};
#undef T

typedef struct overlay_result {
    pk_overlay_stats stats;
    bool motion_in; /* the base was a motion */
} overlay_result;

static int check(const pk_step *s, pk_log *log)
{
    const overlay_opts *o = s->o;
    char n1[64], n2[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no base file given");
    if (s->ninputs < 2 || !s->inputs[1])
        return pki_step_fail(log, "no pose given (%s P)", pki_step_spell(s, "pose", n1));
    if (!o->bones)
        return pki_step_fail(log, "no bones given (%s LIST|@GROUP)",
                             pki_step_spell(s, "bones", n1));
    if (pki_step_given(s, "fade") && o->frames.all && o->fade)
        return pki_step_fail(log,
                             "%s needs %s A-B (the whole motion has no edges to fade; a VPD base "
                             "takes neither)",
                             pki_step_spell(s, "fade", n1), pki_step_spell(s, "frames", n2));
    return 0;
}

/* Options that do not apply to the inputs as read: an error. */
static int check_docs(const pk_step *s, const pk_doc *base, const pk_doc *pd, pk_log *log)
{
    char n1[64];
    snprintf(n1, sizeof n1, "%spose%sframe", s->prefix, *s->prefix ? "-" : "_");
    if (pd->pose && pki_step_given(s, "pose_frame")) {
        pk_error(log, PK_E_USAGE, "%s applies to a VMD pose only; %s is a VPD", n1, s->inputs[1]);
        return -1;
    }
    if (base->pose && (pki_step_given(s, "frames") || pki_step_given(s, "fade"))) {
        pk_error(log, PK_E_USAGE, "%sframes and %sfade do not apply to a VPD base (%s)", s->prefix,
                 s->prefix, s->inputs[0]);
        return -1;
    }
    if (base->pose && pki_step_given(s, "cut_names")) {
        pk_error(log, PK_E_USAGE, "%scut%snames applies to a VMD output; the base %s is a VPD",
                 s->prefix, *s->prefix ? "-" : "_", s->inputs[0]);
        return -1;
    }
    return 0;
}

static int lay(const pk_step *s, const pk_doc *base, const pk_pose *pose, const pk_selection *sel,
               pk_step_result *res, overlay_result * or, pk_log *log)
{
    const overlay_opts *o = s->o;
    pk_overlay_options opt;
    memset(&opt, 0, sizeof opt);
    opt.mode = (pk_overlay_mode)o->mode;
    opt.all_frames = o->frames.all;
    opt.first = o->frames.first;
    opt.last = o->frames.last;
    opt.fade = o->fade;
    or->motion_in = base->motion != NULL;
    /* what is said of the range and its fades is about the base's frames;
     * the rest of what the engine says is about the pose: what it lacks,
     * what it overlaid */
    size_t from = pki_mark(log);
    if (base->motion) {
        bool window = pki_overlay_window(&opt, log);
        pk_log_place(log, from, s->inputs[0]);
        if (!window)
            return -1;
        from = pki_mark(log);
        res->out.format = PK_FMT_VMD;
        res->out.motion = pki_overlay_motion_in(base->motion, pose, sel, &opt, & or->stats, log);
    } else {
        res->out.format = PK_FMT_VPD;
        res->vpd.layout = base->pose->layout;
        res->out.pose = pk_overlay_pose(base->pose, pose, sel, opt.mode, & or->stats, log);
    }
    pk_log_place(log, from, s->inputs[1]);
    if (!res->out.motion && !res->out.pose)
        return -1;
    return pki_drop_duplicates(&res->out, res, log);
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const overlay_opts *o = s->o;
    const pk_doc *base = &in[0], *pd = &in[1];
    if (check_docs(s, base, pd, log) != 0)
        return -1;
    overlay_result * or = res->own = calloc(1, sizeof * or);
    if (! or) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    pk_pose *own = NULL, *cut = NULL;
    const pk_pose *pose = pd->pose;
    const pk_motion *bm = base->motion;
    if (bm && !bm->nbones && !bm->nmorphs && bm->ncameras) {
        /* a camera motion given for the dance it frames: the pose's keys
         * would land in the camera's file, which MMD loads on no model */
        size_t from = pki_mark(log);
        pk_warning(log, PK_E_NO_EFFECT,
                   "a camera motion (%zu camera key%s, no bone or morph key): the pose is "
                   "keyed into the camera's file (overlay the dance the camera frames)",
                   bm->ncameras, pki_plural(bm->ncameras));
        pk_log_place(log, from, s->inputs[0]);
    }
    /* a frame past a motion's last key (step.h) */
    pki_warn_range_past_end(s, base, s->inputs[0], "frames", &o->frames, log);
    if (!pose) {
        pki_warn_past_end(s, pd, s->inputs[1], "pose_frame", o->pose_frame, log);
        pose = own = pk_motion_sample(pd->motion, NULL, (double)o->pose_frame, log);
    }
    if (pose && o->cut_names) { /* the pose's names as a VMD holds them */
        size_t from = pki_mark(log);
        pose = pki_cut_pose(true, pose, &cut, log);
        pk_log_place(log, from, s->inputs[1]);
    }
    pk_selection *sel = pose ? pk_selection_parse_model(o->rules, o->model, o->bones, log) : NULL;
    int rc = -1;
    pk_doc both[2] = {*base, {PK_FMT_VPD, NULL, (pk_pose *)pose}};
    if (sel && pki_selection_check(sel, o->bones, both, 2, true, "the base or the pose", "overlay",
                                   s->inputs[0], log) == 0)
        rc = lay(s, base, pose, sel, res, or, log);
    pk_selection_free(sel);
    pk_pose_free(own);
    pk_pose_free(cut);
    return rc;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    (void)s;
    const overlay_result *r = res->own;
    if (!r)
        return;
    const pk_overlay_stats *o = &r->stats;
    pk_buf_printf(out, "%zu bone%s changed, %zu morph%s changed", o->bones, pki_plural(o->bones),
                  o->morphs, pki_plural(o->morphs));
    if (o->bones_same + o->morphs_same)
        pk_buf_printf(out,
                      " (%zu bone%s and %zu morph%s already as the pose has them, left as "
                      "they were)",
                      o->bones_same, pki_plural(o->bones_same), o->morphs_same,
                      pki_plural(o->morphs_same));
    if (r->motion_in)
        pk_buf_printf(out,
                      ", %zu key%s removed, %zu added; crossed segments: %zu split (%zu of "
                      "them linear or still), %zu fitted (%zu inner key%s), %zu baked into "
                      "%zu keys",
                      o->keys_removed, pki_plural(o->keys_removed), o->keys_added, o->split,
                      o->split_exact, o->fitted, o->fitted_keys, pki_plural(o->fitted_keys),
                      o->baked, o->baked_keys);
    pki_duplicates_summary(res, out);
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log)
{
    (void)s;
    (void)log;
    const overlay_result *r = res->own;
    if (f != PK_REPORT_JSON)
        return 1;
    pk_overlay_stats none;
    memset(&none, 0, sizeof none);
    const pk_overlay_stats *o = r ? &r->stats : &none;
    pk_buf_printf(out,
                  "{\"command\": \"overlay\", \"bones\": %zu, \"morphs\": %zu, \"missing\": %zu, "
                  "\"morphs_missing\": %zu, \"bones_same\": %zu, \"morphs_same\": %zu, "
                  "\"keys_removed\": %zu, \"keys_added\": %zu, "
                  "\"crossed\": {\"split\": %zu, \"split_exact\": %zu, \"fitted\": %zu, "
                  "\"fitted_keys\": %zu, \"baked\": %zu, \"baked_keys\": %zu}, "
                  "\"duplicates_dropped\": %zu}\n",
                  o->bones, o->morphs, o->missing, o->morphs_missing, o->bones_same, o->morphs_same,
                  o->keys_removed, o->keys_added, o->split, o->split_exact, o->fitted,
                  o->fitted_keys, o->baked, o->baked_keys, res->duplicates);
    return 0;
}

static const char HELP[] =
    "usage: posekit overlay BASE --pose P [--pose-frame N] --bones LIST|@GROUP\n"
    "                       [--rules R] [--model MODEL] [--frames A-B|N|all]\n"
    "                       [--mode replace|add] [--fade F] -o OUT [--json]\n"
    "                       [--cut-names] [--strict]\n"
    "\n"
    "Lays the pose P over the selected bones and morphs of BASE and writes\n"
    "OUT.\n"
    "\n"
    "BASE a VMD: for frames A..B (without --frames: the whole motion)\n"
    "  replace  the selected bones take the pose's values\n"
    "  add      base rotation x pose rotation, base translation + pose's\n"
    "           (the base's own keys inside the range are kept, multiplied)\n"
    "  outside A-F..B+F every selected bone samples as in BASE at every\n"
    "  frame: keys are added at the edges and a crossed curve segment is\n"
    "  split (de Casteljau, re-fitted to MMD's 0..127 curve grid, within\n"
    "  1e-4 degrees / 1e-5 units) or, when no grid curve is that exact,\n"
    "  fitted with the fewest keys within 0.01 degrees / 0.0001 units.\n"
    "  The fades are one segment each with an\n"
    "  ease-in/ease-out curve (53,0,74,127) from the base value at A-F to the\n"
    "  overlay at A, and from the overlay at B to the base at B+F.  Morphs\n"
    "  follow the same laws with linear keys (MMD blends morph weights\n"
    "  linearly): the fades are linear ramps, add adds the weights.  Records\n"
    "  of other bones and morphs, camera, light, shadow and IK stay\n"
    "  byte-identical and in order.\n"
    "BASE a VPD: the selected bones take (replace) or compose with (add) the\n"
    "  pose's values; --frames and --fade do not apply (an error).\n"
    "\n"
    "  --pose P           a VPD, or a VMD sampled at --pose-frame (default 0;\n"
    "                     an error with a VPD pose)\n"
    "  --bones SEL        comma-separated bone or morph names, globs (右*指*)\n"
    "                     and @groups (bone groups and morph_groups); matching\n"
    "                     nothing in either file is an error, a name matching\n"
    "                     nothing a warning (both say the nearest name)\n"
    "  --rules R          rule file for @groups (standard groups always exist)\n"
    "  --model MODEL      PMX/PMD model whose display frames --bones may name\n"
    "                     as @frame:NAME\n"
    "  --frames A-B|N|all the range (N = a single frame; all, the default: the\n"
    "                     whole motion)\n"
    "  --mode M           replace (default) or add\n"
    "  --fade F           frames of fade on each side (default 0)\n"
    "  -o, --output OUT   output (.vmd, or .vpd for a VPD base); atomic;\n"
    "                     never an input\n"
    "  --cut-names        cut the pose's names longer than a VMD field (15\n"
    "                     bytes) as MMD does, a warning per name (else each\n"
    "                     is an error; VMD base only)\n"
    "  --json             the summary as JSON on stdout (one line): bones,\n"
    "                     morphs, keys removed and added, crossed pieces\n"
    "                     split, fitted and baked\n"
    "  --strict           warnings are errors (e.g. a selected bone the pose\n"
    "                     lacks, an overlay that changes nothing)\n"
    "  -h, --help         this text\n"
    "\n"
    "A summary goes to stderr: bones and morphs changed (a selected track\n"
    "that already holds the pose's values is left as it was and counted\n"
    "apart), keys removed and added, and how many crossed segments were\n"
    "split, fitted or baked.  Overlays compose: run a second overlay on the\n"
    "first one's output.\n";

const pki_step_def pki_step_overlay = {
    .name = "overlay",
    .about = "lay a pose over chosen bones and frames of a motion",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(overlay_opts),
    .operands = "base",
    .too_many = "one base file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_input,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC},
};
