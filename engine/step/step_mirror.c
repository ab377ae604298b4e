/* step_mirror.c — mirror: left and right swapped, names and transforms
 * (engine/ops/names/mirror.c). */
#include "step/step.h"

typedef struct mirror_opts {
    char *rules_name;
    const pk_rules *rules;
    bool verbose;
} mirror_opts;

#define T mirror_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_RULES(T),
    PKI_ROW_BOOL(T, "verbose", verbose),
};
#undef T

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const mirror_opts *o = s->o;
    pk_edit_stats *st = pki_edit_start(in, res, log);
    if (!st)
        return -1;
    pk_doc *d = &res->out;
    size_t from = pki_mark(log);
    int rc = d->motion ? pk_motion_mirror(d->motion, o->rules, st, log)
                       : pk_pose_mirror(d->pose, o->rules, st, log);
    /* a run that changed nothing says so (a warning: strict fails it) */
    if (rc == 0 && pki_edit_renamed(st) == 0 && st->keys_changed == 0 && !res->duplicates)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to mirror: no key changed, the output is the input unchanged");
    pk_log_place(log, from, s->inputs[0]);
    return rc;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    const pk_edit_stats *e = res->own;
    if (!e)
        return;
    pk_buf_printf(out, "%zu of %zu bones swapped left/right", e->bones_renamed, e->bones);
    if (e->ik_renamed)
        pk_buf_printf(out, ", %zu IK names swapped", e->ik_renamed);
    if (e->morphs_renamed)
        pk_buf_printf(out, ", %zu of %zu morphs swapped", e->morphs_renamed, e->morphs);
    pk_buf_printf(out, ", %zu keys mirrored", e->keys_changed);
    pki_duplicates_summary(res, out);
    if (((const mirror_opts *)s->o)->verbose)
        for (size_t i = 0; i < e->nunmatched; i++)
            pk_buf_printf(out, "\nno partner for '%s' (mirrored in place)", e->unmatched[i]);
}

static const char HELP[] =
    "usage: posekit mirror IN [--rules R.yaml] -o OUT [--strict] [--verbose]\n"
    "\n"
    "Swaps left and right in a VMD motion or VPD pose:\n"
    "\n"
    "  names       each mirror pair of the rules (default: 左/右) is swapped at\n"
    "              the start of a bone name (左腕 <-> 右腕) or at its end\n"
    "              (腰キャンセル左 <-> 腰キャンセル右); IK names too; morphs\n"
    "              keep their names\n"
    "  bones       translation (x,y,z) -> (-x,y,z), rotation (x,y,z,w) ->\n"
    "              (x,-y,-z,w); bones without a partner mirror in place\n"
    "  camera      centre x -> -x, rotation y and z negated (yaw and roll)\n"
    "  light       direction x -> -x\n"
    "\n"
    "Only signs change, so mirroring twice gives back the same bytes.  A\n"
    "swap that would give two bones one name, or a name that would not fit\n"
    "its field, is an error and nothing is written.\n"
    "\n"
    "  --rules R.yaml   rules whose `mirror` pairs replace the default\n"
    "                   (rules/mirror.yaml adds _L/_R)\n"
    "  -o, --output OUT output file (.vmd or .vpd; a motion written as .vpd is\n"
    "                   an error: convert --frame takes one pose); never an input\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the bones that have no partner\n"
    "  -h, --help       this text\n";

const pki_step_def pki_step_mirror = {
    .name = "mirror",
    .about = "swap left and right: names and transforms",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(mirror_opts),
    .operands = "in",
    .too_many = "one input file",
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT),
    .makes = pki_makes_input,
    .takes_input = true,
    .free_result = pki_edit_free,
    .cli = {.output = PK_CLI_OUT_DOC},
};
