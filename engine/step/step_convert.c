/* step_convert.c — convert: a pose as a motion (one key per bone and
 * morph at a frame), a motion as its pose at a frame, or a rewrite. */
#include "step/step.h"
#include "step/step_option.h"

#include <stdio.h>

typedef struct convert_opts {
    int to;     /* pk_format */
    int layout; /* pk_vpd_layout */
    uint32_t frame;
    bool no_morphs, cut_names;
} convert_opts;

#define T convert_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    {"to", PKI_OPT_ENUM, offsetof(T, to), 0, 0, "|vmd|vpd", NULL},
    {"frame", PKI_OPT_U32, offsetof(T, frame), 0, 0, NULL, "a frame number (0 or more)"},
    {"layout", PKI_OPT_ENUM, offsetof(T, layout), 0, 0, "text|hybrid", NULL},
    PKI_ROW_BOOL(T, "no_morphs", no_morphs),
    PKI_ROW_BOOL(T, "cut_names", cut_names),
};
#undef T

static int check(const pk_step *s, pk_log *log)
{
    const convert_opts *o = s->o;
    char n1[64], n2[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (o->to == PK_FMT_UNKNOWN)
        return pki_step_fail(log, "no output format given (%s vmd|vpd)",
                             pki_step_spell(s, "to", n1));
    if (o->to == PK_FMT_VMD && (pki_step_given(s, "layout") || pki_step_given(s, "no_morphs")))
        return pki_step_fail(log, "%s and %s apply to VPD output only",
                             pki_step_spell(s, "layout", n1), pki_step_spell(s, "no_morphs", n2));
    if (o->to == PK_FMT_VPD && pki_step_given(s, "cut_names"))
        return pki_step_fail(log,
                             "%s applies to VMD output only (a VPD name holds what it is given)",
                             pki_step_spell(s, "cut_names", n1));
    return 0;
}

static pk_motion *pose_to_vmd(const convert_opts *o, const pk_pose *p, pk_log *log)
{
    pk_pose *own;
    const pk_pose *use = pki_cut_pose(o->cut_names, p, &own, log);
    pk_motion *m = use ? pk_pose_to_motion(use, o->frame, log) : NULL;
    pk_pose_free(own);
    return m;
}

/* A pose holds bones and morphs: what of the motion it cannot hold is
 * said (a camera-only motion would give an empty pose silently). */
static void warn_lost(const pk_motion *m, pk_log *log)
{
    char list[160];
    size_t len = 0, parts = 0, keys = 0;
    list[0] = 0;
    for (pk_section sec = PK_SEC_CAMERA; sec <= PK_SEC_SHADOW; sec++) {
        size_t k = pk_motion_count(m, sec);
        keys += k;
        if (k && len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%zu %s key%s",
                                    parts++ ? ", " : "", k, pk_section_word(sec), pki_plural(k));
    }
    if (parts)
        pk_warning(log, PK_E_LOSS,
                   "a VPD holds bones and morphs only: the motion's %s %s not in the pose%s", list,
                   keys == 1 ? "is" : "are", m->nbones || m->nmorphs ? "" : ", which is empty");
    else if (!m->nbones && !m->nmorphs) /* an empty pose is no silent success */
        pk_warning(log, PK_E_NO_EFFECT, "the motion has no keys: the pose is empty");
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const convert_opts *o = s->o;
    pk_format to = (pk_format)o->to;
    res->vpd.no_morphs = o->no_morphs;
    res->vpd.layout = in->pose ? in->pose->layout : PK_VPD_TEXT;
    if (pki_step_given(s, "layout"))
        res->vpd.layout = (pk_vpd_layout)o->layout;
    if (in->format == to) {
        if (pki_step_given(s, "frame")) {
            pk_error(log, PK_E_USAGE, "%sframe applies only between VPD and VMD", s->prefix);
            return -1;
        }
        pki_take(&res->out, in);
        return 0;
    }
    res->out.format = to;
    size_t from = pki_mark(log);
    if (to == PK_FMT_VPD) {
        pki_warn_past_end(s, in, s->inputs[0], "frame", o->frame, log);
        warn_lost(in->motion, log);
        res->out.pose = pk_motion_sample(in->motion, NULL, (double)o->frame, log);
    } else { /* one key per bone and morph at the frame, linear curves */
        if (!in->pose->nbones && !in->pose->nmorphs) /* as an empty pose above */
            pk_warning(log, PK_E_NO_EFFECT, "the pose has no bones or morphs: the motion is empty");
        res->out.motion = pose_to_vmd(o, in->pose, log);
    }
    pk_log_place(log, from, s->inputs[0]);
    return res->out.pose || res->out.motion ? 0 : -1;
}

static pk_format makes(const pk_step *s, pk_format in)
{
    (void)in;
    return (pk_format)((const convert_opts *)s->o)->to;
}

static const char HELP[] =
    "usage: posekit convert IN -o OUT [--frame N] [--layout text|hybrid]\n"
    "                       [--no-morphs] [--cut-names] [--strict]\n"
    "\n"
    "Writes IN (VMD or VPD) to OUT in the format OUT's extension names\n"
    "(.vmd or .vpd; '-' writes standard output in IN's format):\n"
    "\n"
    "  VMD -> VMD  rewrite; an unedited motion comes back byte-identical\n"
    "  VPD -> VPD  rewrite in MMD's layout (CP932, CRLF, %f numbers)\n"
    "  VPD -> VMD  one key per bone and per morph at frame N (default 0),\n"
    "              linear curves, the pose's model name; names longer than\n"
    "              the 15-byte VMD field are errors naming every one\n"
    "              (--cut-names cuts them instead)\n"
    "  VMD -> VPD  the motion's pose sampled at frame N with MMD's curves\n"
    "\n"
    "  -o, --output OUT   output file, never an input (the write is atomic)\n"
    "  --frame N          frame for VPD<->VMD (default 0)\n"
    "  --layout L         VPD layout: text (default; a VPD input keeps its own)\n"
    "                     or hybrid (the original specification's binary header)\n"
    "  --no-morphs        leave Morph blocks out of a VPD (three.js's parser\n"
    "                     rejects them)\n"
    "  --cut-names        cut names longer than a VMD field (15 bytes) as MMD\n"
    "                     does, on a character boundary, with a warning per\n"
    "                     name (VMD output only)\n"
    "  --strict           treat warnings as errors\n"
    "  -h, --help         this text\n"
    "\n"
    "The output is written to a temporary file beside OUT and renamed over\n"
    "it; on any error nothing is written.  IN '-' reads standard input.\n";

const pki_step_def pki_step_convert = {
    .name = "convert",
    .about = "VPD<->VMD, rewrite, or a motion's pose at a frame",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(convert_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .reports = PKI_REPORT(PK_REPORT_TEXT),
    .makes = makes,
    .takes_input = true,
    .cli = {.output = PK_CLI_OUT_DOC, .format_option = "to"},
};
