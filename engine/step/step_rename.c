/* step_rename.c — rename: bones and morphs renamed by the rules' maps
 * (engine/ops/names/rename.c), and the summary line retarget shares. */
#include "step/step.h"
#include "step/step_option.h"

#include <stdlib.h>

typedef struct rename_opts {
    char *rules_name;
    const pk_rules *rules;
    bool reverse, verbose;
} rename_opts;

#define T rename_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_RULES(T),
    PKI_ROW_BOOL(T, "reverse", reverse),
    PKI_ROW_BOOL(T, "verbose", verbose),
};
#undef T

static int check(const pk_step *s, pk_log *log)
{
    const rename_opts *o = s->o;
    char n1[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (!o->rules_name)
        return pki_step_fail(log, "no rules given (%s R.yaml)", pki_step_spell(s, "rules", n1));
    return 0;
}

pk_edit_stats *pki_edit_start(pk_doc *in, pk_step_result *res, pk_log *log)
{
    pk_edit_stats *st = res->own = calloc(1, sizeof *st);
    if (!st) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    pki_take(&res->out, in);
    if (res->out.pose)
        res->vpd.layout = res->out.pose->layout;
    return pki_drop_duplicates(&res->out, res, log) == 0 ? st : NULL;
}

void pki_edit_free(void *p)
{
    pk_edit_stats_free(p);
    free(p);
}

size_t pki_edit_renamed(const pk_edit_stats *st)
{
    return st->bones_renamed + st->morphs_renamed + st->ik_renamed + st->morphs_mapped;
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const rename_opts *o = s->o;
    pk_edit_stats *st = pki_edit_start(in, res, log);
    if (!st)
        return -1;
    pk_doc *d = &res->out;
    size_t from = pki_mark(log);
    int rc = d->motion ? pk_motion_rename(d->motion, o->rules, o->reverse, st, log)
                       : pk_pose_rename(d->pose, o->rules, o->reverse, st, log);
    /* a run that renamed nothing says so (a warning: strict fails it),
     * also when dropping duplicate keys changed the bytes */
    if (rc == 0 && pki_edit_renamed(st) == 0 && !res->duplicates)
        pk_warning(log, PK_E_NO_EFFECT,
                   "no rename rule matched a bone or morph of the input: the output is "
                   "the input unchanged");
    else if (rc == 0 && pki_edit_renamed(st) == 0)
        pk_warning(log, PK_E_NO_EFFECT,
                   "no rename rule matched a bone or morph of the input: the output is the "
                   "input with its %zu duplicate key%s dropped",
                   res->duplicates, pki_plural(res->duplicates));
    pk_log_place(log, from, s->inputs[0]);
    return rc;
}

void pki_rename_summary(const pk_edit_stats *e, pk_buf *out)
{
    pk_buf_printf(out, "%zu of %zu bones renamed, %zu of %zu morphs renamed", e->bones_renamed,
                  e->bones, e->morphs_renamed, e->morphs);
    if (e->ik_renamed)
        pk_buf_printf(out, ", %zu IK names renamed", e->ik_renamed);
    if (!e->morphs_mapped)
        return;
    pk_buf_printf(out, "; %zu morph%s mapped by weight onto %zu: %zu key%s written, %zu clamped",
                  e->morphs_mapped, pki_plural(e->morphs_mapped), e->morph_targets, e->morph_keys,
                  pki_plural(e->morph_keys), e->morph_clamped);
    if (e->clamp_name)
        pk_buf_printf(out, " (worst: %s at frame %u, %.6g written as %.6g)", e->clamp_name,
                      (unsigned)e->clamp_frame, e->clamp_from, e->clamp_to);
}

void pki_unmatched(const pk_edit_stats *e, pk_buf *out)
{
    for (size_t i = 0; i < e->nunmatched; i++)
        pk_buf_printf(out, "\nno rule for '%s'", e->unmatched[i]);
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    const pk_edit_stats *e = res->own;
    if (!e)
        return;
    pki_rename_summary(e, out);
    pki_duplicates_summary(res, out);
    if (((const rename_opts *)s->o)->verbose)
        pki_unmatched(e, out);
}

static const char HELP[] =
    "usage: posekit rename IN --rules R.yaml [--reverse] -o OUT [--strict]\n"
    "                      [--verbose]\n"
    "\n"
    "Renames the bones (and IK names) of a VMD motion or VPD pose by the\n"
    "rules' `rename` map and its morphs by `morphs`.  A rule is an exact name\n"
    "or a glob with one '*' whose match is put where the target's '*' is:\n"
    "\n"
    "  rename:\n"
    "    センター: center\n"
    "    \"右*\": \"*_R\"\n"
    "\n"
    "A morph rule may map weights: `あ: {to: [笑い, にこり], factor: 0.8}`\n"
    "(fan-out), several rules naming one target sum into it (clamped to\n"
    "0..1, or the rule's `clamp: [LO, HI]`), `まばたき: {factor: 0.5}` scales\n"
    "in place; such rules cannot be reversed.\n"
    "\n"
    "Names no rule matches are kept.  Names MMD cut at 15 bytes (VMD) or 19\n"
    "(VPD) still match the rule for the full name.  Key order, values and\n"
    "name padding are kept, so `rename` then `rename --reverse` gives back\n"
    "the original file byte for byte, but for duplicate keys: of two\n"
    "records of one key the earlier is dropped (MMD plays the later).\n"
    "Errors, with nothing written: a new\n"
    "name that does not fit its field (15 bytes in VMD, 20 for IK names, 19\n"
    "in VPD), and two bones (or morphs) that would end up with one name.\n"
    "\n"
    "  --rules R.yaml   the rules (rules/README.md; ja-en.yaml is shipped)\n"
    "  --reverse        invert the maps: target -> source (a glob inverts when\n"
    "                   its target has a '*')\n"
    "  -o, --output OUT output file (.vmd or .vpd; a motion written as .vpd is\n"
    "                   an error: convert --frame takes one pose); never an input\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the names that no rule matched\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary (tracks renamed; morphs mapped by weight, keys written and\n"
    "clamped, the worst clamp) goes to standard error.\n";

const pki_step_def pki_step_rename = {
    .name = "rename",
    .about = "rename bones and morphs by YAML rules",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(rename_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT),
    .makes = pki_makes_input,
    .takes_input = true,
    .free_result = pki_edit_free,
    .cli = {.output = PK_CLI_OUT_DOC},
};
