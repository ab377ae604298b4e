/* step_reduce.c — reduce and bake, the two operations that rewrite a
 * motion's keys (engine/ops/keys/reduce.c holds both): the fewest keys
 * within tolerances, or a key at every frame; bake's --ik-to-fk and
 * --fk-to-ik (engine/ops/skeleton/legs.c) rewrite the legs on a model;
 * their summary and JSON. */
#include "step/step.h"
#include "step/step_option.h"

#include "ops/names/select_check.h"

#include <stdlib.h>
#include <string.h>

extern const pki_step_def pki_step_reduce;

typedef struct keys_opts {
    char *rules_name, *bones;
    const pk_rules *rules;
    pki_frames frames;
    double max_deg, max_pos, max_morph; /* reduce: tolerances */
    uint32_t step;                      /* bake: a key every step frames */
    bool no_morphs, camera;
    bool ik_to_fk, fk_to_ik; /* bake: the legs on `model` */
    bool keep_ik_keys;       /* bake --ik-to-fk: the IKs' own keys kept */
    double max_move;         /* bake: the largest ankle move */
    char *model_name;
    const pk_model *model;
} keys_opts;

/* What a run keeps for its report: reduce's or bake's counts, or the legs'. */
typedef struct keys_result {
    pk_reduce_stats st; /* first: summary and report read it as the result */
    pk_legs_stats legs;
    bool is_legs;
    pk_legs_way way;
    double goal;
    double max_pos, max_deg; /* the legs' toes and feet's usual bounds */
} keys_result;

#define T keys_opts
static const pki_option REDUCE_OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_FRAMES(T),
    PKI_ROW_BOOL(T, "no_morphs", no_morphs),
    {"max_deg", PKI_OPT_POSITIVE, offsetof(T, max_deg), 0, 0, NULL, "a positive number of degrees"},
    {"max_pos", PKI_OPT_POSITIVE, offsetof(T, max_pos), 0, 0, NULL, "a positive number of units"},
    {"max_morph", PKI_OPT_POSITIVE, offsetof(T, max_morph), 0, 0, NULL, "a positive morph weight"},
    PKI_ROW_BOOL(T, "camera", camera),
};
static const pki_option BAKE_OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_FRAMES(T),
    PKI_ROW_BOOL(T, "no_morphs", no_morphs),
    {"step", PKI_OPT_COUNT, offsetof(T, step), 0, 0, NULL, "a number of frames (1 or more)"},
    PKI_ROW_BOOL(T, "camera", camera),
    PKI_ROW_BOOL(T, "ik_to_fk", ik_to_fk),
    PKI_ROW_BOOL(T, "fk_to_ik", fk_to_ik),
    PKI_ROW_BOOL(T, "keep_ik_keys", keep_ik_keys),
    PKI_ROW_MODEL(T, "model", model_name, model),
    {"max_move", PKI_OPT_POSITIVE, offsetof(T, max_move), 0, 0, NULL, "a positive number of units"},
};
#undef T

static void init(void *p)
{
    keys_opts *o = p;
    o->max_deg = PK_REDUCE_DEG;
    o->max_pos = PK_REDUCE_POS;
    o->max_morph = PK_REDUCE_MORPH;
    o->step = 1;
    o->max_move = PK_LEGS_GOAL;
}

static bool is_reduce(const pk_step *s)
{
    return s->def == &pki_step_reduce;
}

/* bake --ik-to-fk / --fk-to-ik: the rules no document decides. */
static int check_bake(const pk_step *s, pk_log *log)
{
    const keys_opts *o = s->o;
    char n1[64], n2[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (o->keep_ik_keys && !o->ik_to_fk)
        return pki_step_fail(log, "%s applies to %s only", pki_step_spell(s, "keep_ik_keys", n1),
                             pki_step_spell(s, "ik_to_fk", n2));
    if (!o->ik_to_fk && !o->fk_to_ik) {
        const char *legs_only = o->model_name                   ? "model"
                                : pki_step_given(s, "max_move") ? "max_move"
                                                                : NULL;
        if (legs_only)
            return pki_step_fail(log, "%s applies to %s or %s", pki_step_spell(s, legs_only, n1),
                                 pki_step_spell(s, "ik_to_fk", n2),
                                 pki_step_spell(s, "fk_to_ik", (char[64]){0}));
        return 0;
    }
    if (o->ik_to_fk && o->fk_to_ik)
        return pki_step_fail(log, "%s and %s exclude each other", pki_step_spell(s, "ik_to_fk", n1),
                             pki_step_spell(s, "fk_to_ik", n2));
    const char *way = o->ik_to_fk ? "ik_to_fk" : "fk_to_ik";
    if (!o->model_name)
        return pki_step_fail(log, "%s needs the model the legs are on (%s MODEL)",
                             pki_step_spell(s, way, n1), pki_step_spell(s, "model", n2));
    /* each with why: the legs are rewritten at every frame, on the model's
     * leg bones, and nothing else of the motion changes */
    static const char *const plain[][2] = {
        {"bones", "the legs are the model's leg IK chains, not chosen by name"},
        {"rules", "the legs are the model's leg IK chains, not chosen by name"},
        {"frames", "the legs are every frame"},
        {"step", "the legs are every frame"},
        {"camera", "only the legs are rewritten: every other record stays as it is"},
        {"no_morphs", "only the legs are rewritten: every other record stays as it is"}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (pki_step_given(s, plain[i][0]))
            return pki_step_fail(log, "%s and %s exclude each other (%s)",
                                 pki_step_spell(s, way, n1), pki_step_spell(s, plain[i][0], n2),
                                 plain[i][1]);
    return 0;
}

/* The legs from IK to FK or back: a pose is one frame (written as a VMD:
 * a VPD cannot switch IK off). */
static int run_legs(const pk_step *s, pk_doc *in, keys_result *kr, pk_step_result *res, pk_log *log)
{
    const keys_opts *o = s->o;
    size_t from = pki_mark(log);
    pk_motion *one = NULL;
    const pk_motion *m = in->motion;
    if (!m)
        m = one = pk_pose_to_motion(in->pose, 0, log);
    pk_legs_options lo;
    pk_legs_options_init(&lo);
    lo.way = o->ik_to_fk ? PK_LEGS_IK_TO_FK : PK_LEGS_FK_TO_IK;
    lo.goal = o->max_move;
    lo.keep_ik = o->keep_ik_keys;
    kr->is_legs = true;
    kr->way = lo.way;
    kr->goal = lo.goal;
    kr->max_pos = lo.max_pos;
    kr->max_deg = lo.max_deg;
    res->out.format = PK_FMT_VMD;
    size_t engine = pki_mark(log);
    res->out.motion = m ? pk_motion_legs(m, o->model, &lo, &kr->legs, log) : NULL;
    /* a model without a leg IK (the engine's one "not found") is about the
     * model's file, not the motion's */
    for (size_t i = engine; !res->out.motion && log && i < log->count; i++)
        if (log->items[i].code == PK_E_NOT_FOUND && !log->items[i].placed) {
            pk_log_place(log, i, o->model_name);
            break;
        }
    /* the output of an edit holds no duplicate keys, as bake's */
    if (res->out.motion && pki_drop_duplicates(&res->out, res, log) != 0) {
        pk_motion_free(one);
        pk_log_place(log, from, s->inputs[0]);
        return -1;
    }
    if (res->out.motion)
        for (int i = 0; i < PK_SEC_COUNT; i++) {
            kr->st.keys_before[i] = pk_motion_count(m, (pk_section)i);
            kr->st.keys_after[i] = pk_motion_count(res->out.motion, (pk_section)i);
        }
    pk_motion_free(one);
    pk_log_place(log, from, s->inputs[0]);
    return res->out.motion ? 0 : -1;
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const keys_opts *o = s->o;
    const char *cmd = s->def->name;
    if (o->ik_to_fk || o->fk_to_ik) {
        keys_result *kr = pki_result_new(res, sizeof *kr, log);
        return kr ? run_legs(s, in, kr, res, log) : -1;
    }
    if (!in->motion) {
        pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s->inputs[0], -1, 0, 0,
                      "%s works on a VMD motion (a pose has no keys to %s)", cmd, cmd);
        return -1;
    }
    keys_result *kr = pki_result_new(res, sizeof *kr, log);
    pk_reduce_stats *st = kr ? &kr->st : NULL;
    if (!st)
        return -1;
    pk_reduce_options opt;
    pk_reduce_options_init(&opt);
    opt.max_deg = o->max_deg;
    opt.max_pos = o->max_pos;
    opt.max_morph = o->max_morph;
    opt.all_frames = o->frames.all;
    opt.first = o->frames.first;
    opt.last = o->frames.last;
    opt.morphs = !o->no_morphs;
    opt.camera = o->camera;
    opt.step = o->step;
    pk_selection *sel = NULL;
    if (o->bones && !(sel = pk_selection_parse(o->rules, o->bones, log)))
        return -1;
    if (sel && pki_selection_check(sel, o->bones, in, 1, !o->no_morphs, "the motion", cmd,
                                   s->inputs[0], log) != 0) {
        pk_selection_free(sel);
        return -1;
    }
    opt.bones = sel;
    /* what it says about the motion's keys names the input */
    size_t from = pki_mark(log);
    res->out.format = PK_FMT_VMD;
    res->out.motion = is_reduce(s) ? pk_motion_reduce(in->motion, &opt, st, log)
                                   : pk_motion_bake(in->motion, &opt, st, log);
    /* a run that changed nothing says so, as rename and mirror do (a
     * warning: strict fails it); a motion whose camera alone could
     * change is told where the camera went */
    if (res->out.motion && pki_drop_duplicates(&res->out, res, log) != 0) {
        pk_log_place(log, from, s->inputs[0]);
        pk_selection_free(sel);
        return -1;
    }
    /* the run itself absorbs the duplicates inside the tracks it rewrites
     * (the later record wins), the drop above the rest: every one of the
     * input's is gone, and the summary counts them all */
    if (res->out.motion)
        res->duplicates = pki_motion_duplicates(in->motion);
    for (int i = 0; res->out.motion && i < PK_SEC_COUNT; i++) /* the records written */
        st->keys_after[i] = pk_motion_count(res->out.motion, (pk_section)i);
    if (res->out.motion && st->bone_tracks + st->morph_tracks + st->camera_tracks == 0 &&
        !res->duplicates) {
        if (!st->camera && in->motion->ncameras > 1)
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing to %s: no key changed, the output is the input unchanged; its %zu "
                       "camera keys are left alone without %scamera%s",
                       cmd, in->motion->ncameras, s->prefix, *s->prefix ? "" : ": true");
        else
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing to %s: no key changed, the output is the input unchanged", cmd);
    }
    pk_log_place(log, from, s->inputs[0]);
    pk_selection_free(sel);
    return res->out.motion ? 0 : -1;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const keys_opts *o = s->o;
    const pk_reduce_stats *st = res->own;
    if (!st)
        return;
    const keys_result *kr = res->own;
    if (kr->is_legs) {
        const pk_legs_stats *l = &kr->legs;
        pk_buf_printf(f,
                      "%s, %zu leg%s over %zu frame%s: leg keys %zu -> %zu; ankles within %.3g "
                      "units of the input's",
                      kr->way == PK_LEGS_IK_TO_FK ? "IK to FK" : "FK to IK", l->legs,
                      pki_plural(l->legs), l->frames, pki_plural(l->frames), l->keys_before,
                      l->keys_after, l->worst);
        if (l->baked)
            pk_buf_puts(f, " (a key per frame: no fit met the goal)");
        else if (kr->way == PK_LEGS_IK_TO_FK && l->tol_knee != l->tol[0])
            pk_buf_printf(f,
                          " (fitted to hold ankles within %.3g units and knees within %.3g, the "
                          "hip-to-ankle reach %.3g)",
                          l->tol[0], l->tol_knee, l->tol[1]);
        else if (kr->way == PK_LEGS_IK_TO_FK &&
                 (l->tol_toe != kr->max_pos || l->tol_roll != kr->max_deg))
            pk_buf_printf(f,
                          " (fitted to hold ankles and knees within %.3g units, the hip-to-ankle "
                          "reach %.3g, toes within %.3g units and the feet's roll within %.3g deg)",
                          l->tol[0], l->tol[1], l->tol_toe, l->tol_roll);
        else if (kr->way == PK_LEGS_FK_TO_IK && l->tol_knee > kr->goal)
            pk_buf_printf(
                f,
                " (leg IKs fitted within %.3g units, toe IKs %.3g units; the chain's keys "
                "dropped where the knees stay within %.3g of the FK legs')",
                l->tol[0], l->tol[1], l->tol_knee);
        else
            pk_buf_printf(f,
                          kr->way == PK_LEGS_IK_TO_FK
                              ? " (fitted to hold ankles and knees within %.3g units, the "
                                "hip-to-ankle reach %.3g)"
                              : " (leg IKs fitted within %.3g units, toe IKs %.3g units)",
                          l->tol[0], l->tol[1]);
        pki_duplicates_summary(res, f);
        return;
    }
    pk_buf_printf(f,
                  "bone keys %zu -> %zu, morph keys %zu -> %zu (%zu bone and %zu morph tracks "
                  "rewritten)",
                  st->keys_before[PK_SEC_BONE], st->keys_after[PK_SEC_BONE],
                  st->keys_before[PK_SEC_MORPH], st->keys_after[PK_SEC_MORPH], st->bone_tracks,
                  st->morph_tracks);
    if (st->camera)
        pk_buf_printf(f, ", camera keys %zu -> %zu%s", st->keys_before[PK_SEC_CAMERA],
                      st->keys_after[PK_SEC_CAMERA],
                      o->camera ? "" : " (a motion with camera keys alone)");
    if (is_reduce(s)) {
        pk_buf_printf(f, "; worst error %.4g deg, %.4g units, %.4g weight", st->worst_deg,
                      st->worst_pos, st->worst_morph);
        if (st->camera)
            pk_buf_printf(f, ", camera %.4g deg, %.4g units", st->worst_cam_deg, st->worst_cam_pos);
        pk_buf_printf(f, "; %zu jump%s kept", st->discontinuities, pki_plural(st->discontinuities));
    }
    pki_duplicates_summary(res, f);
}

/* One line: keys before and after per section, tracks, and (reduce) the
 * worst error met. */
static int report(const pk_step *s, const pk_step_result *res, pk_report_format fmt, pk_buf *f,
                  pk_log *log)
{
    (void)log;
    pk_reduce_stats none;
    memset(&none, 0, sizeof none);
    const pk_reduce_stats *st = res->own ? res->own : &none;
    if (fmt != PK_REPORT_JSON)
        return 1;
    pk_buf_printf(f, "{\"command\": \"%s\", ", s->def->name);
    const keys_result *kr = res->own;
    if (kr && kr->is_legs) {
        const pk_legs_stats *l = &kr->legs;
        pk_buf_printf(f,
                      "\"legs\": {\"way\": \"%s\", \"legs\": %zu, \"frames\": %zu, "
                      "\"keys_before\": %zu, \"keys_after\": %zu, \"worst\": %.6g, \"goal\": "
                      "%.6g, \"worst_frame\": %u, \"tolerances\": [%.6g, %.6g], "
                      "\"knee_tolerance\": %.6g, \"toe_tolerance\": %.6g, \"roll_tolerance\": "
                      "%.6g, \"baked\": %s}, ",
                      kr->way == PK_LEGS_IK_TO_FK ? "ik-to-fk" : "fk-to-ik", l->legs, l->frames,
                      l->keys_before, l->keys_after, l->worst, kr->goal, l->worst_frame, l->tol[0],
                      l->tol[1], l->tol_knee, l->tol_toe, l->tol_roll, l->baked ? "true" : "false");
    }
    pk_buf_puts(f, "\"sections\": {");
    for (int i = 0; i < PK_SEC_COUNT; i++)
        pk_buf_printf(f, "%s\"%s\": {\"before\": %zu, \"after\": %zu}", i ? ", " : "",
                      pk_section_word((pk_section)i), st->keys_before[i], st->keys_after[i]);
    pk_buf_printf(f, "}, \"bone_tracks\": %zu, \"morph_tracks\": %zu", st->bone_tracks,
                  st->morph_tracks);
    if (st->camera)
        pk_buf_printf(f, ", \"camera_tracks\": %zu", st->camera_tracks);
    if (is_reduce(s)) {
        pk_buf_printf(f,
                      ", \"discontinuities\": %zu, \"refitted\": %zu, \"worst\": {\"deg\": %.6g, "
                      "\"pos\": %.6g, \"morph\": %.6g",
                      st->discontinuities, st->refitted, st->worst_deg, st->worst_pos,
                      st->worst_morph);
        if (st->camera)
            pk_buf_printf(f, ", \"camera_deg\": %.6g, \"camera_pos\": %.6g", st->worst_cam_deg,
                          st->worst_cam_pos);
        pk_buf_puts(f, "}");
    }
    pk_buf_printf(f, ", \"duplicates_dropped\": %zu}\n", res->duplicates);
    return 0;
}

static const char HELP_REDUCE[] =
    "usage: posekit reduce IN -o OUT [--max-deg D] [--max-pos U] [--max-morph W]\n"
    "                      [--bones SEL] [--rules R] [--frames A-B|N] [--no-morphs]\n"
    "                      [--camera] [--json] [--quiet] [--strict]\n"
    "\n"
    "Removes keys from a VMD motion: per bone track the fewest keys (each\n"
    "with the MMD curves fitted to what it replaces) such that every integer\n"
    "frame stays within the tolerances of IN, checked by sampling the result\n"
    "with MMD's interpolation; per morph track the fewest linear keys.  The\n"
    "first and last key of every track are kept, and both keys of every\n"
    "jump (keys on adjacent frames with a step much larger than around it).\n"
    "A track that never leaves its first key's value becomes that one key.\n"
    "No track gets more keys than it had.  A track spanning 4,194,304\n"
    "frames or more (a key far from the others) is reduced in pieces cut at\n"
    "its keys.  Other tracks, keys outside --frames, the camera (without\n"
    "--camera, unless the motion holds camera keys alone), light, shadow and\n"
    "IK records stay byte-identical.\n"
    "\n"
    "  --max-deg D      rotation tolerance in degrees (default 0.1)\n"
    "  --max-pos U      translation tolerance in MMD units, a distance (as\n"
    "                   diff measures it), not per axis (default 0.005)\n"
    "  --max-morph W    morph weight tolerance (default 0.002)\n"
    "  --bones SEL      bone and morph names, globs and @groups (default:\n"
    "                   every bone and morph); matching nothing is an error\n"
    "  --rules R        rule file for @groups\n"
    "  --frames A-B|N   only the keys inside A..B (their first key is kept)\n"
    "  --no-morphs      leave morph tracks alone\n"
    "  --camera         the camera too, with its six curves: centre (a\n"
    "                   distance) and distance within --max-pos, angles\n"
    "                   within --max-deg, fov and the perspective switch\n"
    "                   exact (a motion with camera keys alone: without it)\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  --quiet          no progress line (shown on a terminal once the work\n"
    "                   has taken a second)\n"
    "  -o, --output OUT output (.vmd); written atomically; never an input\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary goes to stderr: keys before and after per section and the\n"
    "largest error met at any frame.\n";

const pki_step_def pki_step_reduce = {
    .name = "reduce",
    .about = "the fewest keys within tolerances (MMD curves fitted)",
    .help = HELP_REDUCE,
    .options = PKI_ROWS(REDUCE_OPTIONS),
    .opts_size = sizeof(keys_opts),
    .init = init,
    .operands = "in",
    .too_many = "one input file",
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC, .progress = true},
};

static const char HELP_BAKE[] =
    "usage: posekit bake IN -o OUT [--bones SEL] [--rules R] [--frames A-B|N]\n"
    "                    [--step N] [--no-morphs] [--camera] [--json] [--quiet]\n"
    "                    [--strict]\n"
    "       posekit bake IN --ik-to-fk|--fk-to-ik --model M -o OUT [--max-move U]\n"
    "                    [--keep-ik-keys] [--json] [--quiet] [--strict]\n"
    "\n"
    "Writes a key at every frame (or every N frames, and at the last) of\n"
    "the selected bone and morph tracks, each with linear curves holding\n"
    "MMD's interpolated value: dense data for tools that want it, and the\n"
    "input of `reduce`'s tests.  With --frames the baked span grows to the\n"
    "keys around A..B so that frames outside keep their values.  A track\n"
    "that would span 4,194,304 frames or more is an error naming it.  Other\n"
    "tracks, the camera (without --camera, unless the motion holds camera\n"
    "keys alone), light, shadow and IK records stay byte-identical.\n"
    "\n"
    "  --bones SEL      bone and morph names, globs and @groups (default:\n"
    "                   every bone and morph); matching nothing is an error\n"
    "  --rules R        rule file for @groups\n"
    "  --frames A-B|N   the range (all, the default: the whole motion)\n"
    "  --step N         a key every N frames (default 1)\n"
    "  --no-morphs      leave morph tracks alone\n"
    "  --camera         the camera too (a key per frame: MMD takes keys one\n"
    "                   frame apart as a cut, so every frame keeps its value)\n"
    "  --ik-to-fk       the legs as MMD's IK turns them on model M: 足, ひざ,\n"
    "                   足首 keyed, the leg and toe IKs off from frame 0 and\n"
    "                   their keys dropped (off, they move nothing)\n"
    "  --fk-to-ik       the reverse: 足ＩＫ and つま先ＩＫ keyed where the\n"
    "                   legs put the ankle and toe, the IKs on\n"
    "  --model M        the PMX or PMD model the legs are on\n"
    "  --max-move U     the largest ankle move allowed (default 0.001 units)\n"
    "  --keep-ik-keys   --ik-to-fk: keep the leg and toe IKs' own keys, so\n"
    "                   that switching the IKs back on gives the input\n"
    "                   (kept anyway when another bone follows an IK)\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  --quiet          no progress line (shown on a terminal once the work\n"
    "                   has taken a second)\n"
    "  -o, --output OUT output (.vmd); written atomically; never an input\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "--ik-to-fk and --fk-to-ik evaluate every frame (a pose: one frame,\n"
    "written as a VMD).  IK to FK fits each leg against the places it must\n"
    "hold: the knee the hip-to-ankle reach, the hip the ankle and the knee\n"
    "(shares of U), the ankle the toe within 0.005 units and the foot's roll\n"
    "within 0.1 deg.  FK to IK fits with reduce's fitter: leg IK\n"
    "translations within U, IK rotations within 0.1 deg, toe IKs within\n"
    "0.005 units.  Every frame is then evaluated again and the U-bound\n"
    "tolerances halved until every ankle is within U of the input's (after\n"
    "eight halvings, a key per frame).  The summary gives the leg keys\n"
    "before and after, the worst ankle move and the tolerances.\n";

/* draw's name for the same thing: a user who drew every 30 frames bakes
 * every 30 frames */
static const pki_option_hint BAKE_HINTS[] = {
    {"every", "a key every N frames is %s N", {"step"}},
    {NULL, NULL, {NULL}},
};

const pki_step_def pki_step_bake = {
    .name = "bake",
    .about = "a key at every frame (or every N) with linear curves",
    .help = HELP_BAKE,
    .options = PKI_ROWS(BAKE_OPTIONS),
    .hints = BAKE_HINTS,
    .opts_size = sizeof(keys_opts),
    .init = init,
    .operands = "in",
    .too_many = "one input file",
    .check = check_bake,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC, .progress = true},
};
