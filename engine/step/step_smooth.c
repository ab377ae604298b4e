/* step_smooth.c — smooth, the filter for noisy (traced or captured)
 * motion (engine/ops/keys/smooth.c): its options, summary and JSON. */
#include "step/step.h"
#include "step/step_option.h"

#include "ops/names/select_check.h"

#include <stdlib.h>
#include <string.h>

typedef struct smooth_opts {
    char *rules_name, *bones;
    const pk_rules *rules;
    uint32_t strength;
    double noise_deg, noise_pos, noise_morph; /* 0: estimated per track */
    bool no_morphs, no_contacts;
} smooth_opts;

#define T smooth_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_BOOL(T, "no_morphs", no_morphs),
    {"strength", PKI_OPT_COUNT, offsetof(T, strength), 0, 0, NULL, "a number of frames (2 to 120)"},
    {"noise_deg", PKI_OPT_DOUBLE, offsetof(T, noise_deg), 0, 0, NULL,
     "a number of degrees (0: estimated)"},
    {"noise_pos", PKI_OPT_DOUBLE, offsetof(T, noise_pos), 0, 0, NULL,
     "a number of units (0: estimated)"},
    {"noise_morph", PKI_OPT_DOUBLE, offsetof(T, noise_morph), 0, 0, NULL,
     "a morph weight (0: estimated)"},
    PKI_ROW_BOOL(T, "no_contacts", no_contacts),
};
#undef T

static void init(void *p)
{
    smooth_opts *o = p;
    o->strength = PK_SMOOTH_STRENGTH;
}

static int check(const pk_step *s, pk_log *log)
{
    const smooth_opts *o = s->o;
    char n1[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (o->strength < 2 || o->strength > PK_SMOOTH_STRENGTH_MAX)
        return pki_step_fail(log, "%s must be 2 to %u frames, not %u",
                             pki_step_spell(s, "strength", n1), PK_SMOOTH_STRENGTH_MAX,
                             o->strength);
    return 0;
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const smooth_opts *o = s->o;
    if (pki_need_motion(s, in, "a pose has no keys to smooth", log) != 0)
        return -1;
    pk_smooth_stats *st = pki_result_new(res, sizeof *st, log);
    if (!st)
        return -1;
    pk_smooth_options opt;
    pk_smooth_options_init(&opt);
    opt.strength = o->strength;
    opt.noise_deg = o->noise_deg;
    opt.noise_pos = o->noise_pos;
    opt.noise_morph = o->noise_morph;
    opt.morphs = !o->no_morphs;
    opt.contacts = !o->no_contacts;
    pk_selection *sel = NULL;
    if (o->bones && !(sel = pk_selection_parse(o->rules, o->bones, log)))
        return -1;
    if (sel && pki_selection_check(sel, o->bones, in, 1, !o->no_morphs, "the motion", "smooth",
                                   s->inputs[0], log) != 0) {
        pk_selection_free(sel);
        return -1;
    }
    opt.bones = sel;
    size_t from = pki_mark(log);
    res->out.format = PK_FMT_VMD;
    res->out.motion = pk_motion_smooth(in->motion, &opt, st, log);
    if (res->out.motion && pki_drop_duplicates(&res->out, res, log) != 0) {
        pk_log_place(log, from, s->inputs[0]);
        pk_selection_free(sel);
        return -1;
    }
    for (int i = 0; res->out.motion && i < PK_SEC_COUNT; i++)
        st->keys_after[i] = pk_motion_count(res->out.motion, (pk_section)i);
    bool keyed = st->keys_before[PK_SEC_BONE] || (!o->no_morphs && st->keys_before[PK_SEC_MORPH]);
    if (res->out.motion && !keyed && !res->duplicates) /* a camera motion: nothing to look at */
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to smooth: the motion keys no bone%s, the tracks smooth filters "
                   "(camera, light, shadow and IK records stay as they are), the output is the "
                   "input unchanged",
                   o->no_morphs ? "" : " or morph");
    else if (res->out.motion && st->bone_tracks + st->morph_tracks == 0 && !res->duplicates)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to smooth: no track holds noise (%zu left as they were), the output "
                   "is the input unchanged",
                   st->clean_tracks);
    pk_log_place(log, from, s->inputs[0]);
    pk_selection_free(sel);
    return res->out.motion ? 0 : -1;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    (void)s;
    const pk_smooth_stats *st = res->own;
    if (!st)
        return;
    pk_buf_printf(f,
                  "bone keys %zu -> %zu, morph keys %zu -> %zu (%zu bone and %zu morph tracks "
                  "smoothed, %zu without noise left alone)",
                  st->keys_before[PK_SEC_BONE], st->keys_after[PK_SEC_BONE],
                  st->keys_before[PK_SEC_MORPH], st->keys_after[PK_SEC_MORPH], st->bone_tracks,
                  st->morph_tracks, st->clean_tracks);
    if (st->bone_tracks + st->morph_tracks) {
        pk_buf_printf(f, "; noise up to %.3g deg, %.3g units, %.3g weight", st->noise_deg,
                      st->noise_pos, st->noise_morph);
        pk_buf_printf(f, "; moved up to %.3g deg, %.3g units, %.3g weight", st->moved_deg,
                      st->moved_pos, st->moved_morph);
        pk_buf_printf(f, "; %zu planted foot run%s held (%zu frames)", st->contacts,
                      pki_plural(st->contacts), st->contact_frames);
        pk_buf_printf(f, "; %zu peak%s, largest loss %.3g deg", st->peaks, pki_plural(st->peaks),
                      st->peak_loss_deg);
    }
    pki_duplicates_summary(res, f);
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format fmt, pk_buf *f,
                  pk_log *log)
{
    (void)s;
    (void)log;
    pk_smooth_stats none;
    memset(&none, 0, sizeof none);
    const pk_smooth_stats *st = res->own ? res->own : &none;
    if (fmt != PK_REPORT_JSON)
        return 1;
    pk_buf_puts(f, "{\"command\": \"smooth\", \"sections\": {");
    for (int i = 0; i < PK_SEC_COUNT; i++)
        pk_buf_printf(f, "%s\"%s\": {\"before\": %zu, \"after\": %zu}", i ? ", " : "",
                      pk_section_word((pk_section)i), st->keys_before[i], st->keys_after[i]);
    pk_buf_printf(f,
                  "}, \"bone_tracks\": %zu, \"morph_tracks\": %zu, \"clean_tracks\": %zu, "
                  "\"noise\": {\"deg\": %.6g, \"pos\": %.6g, \"morph\": %.6g}, "
                  "\"moved\": {\"deg\": %.6g, \"pos\": %.6g, \"morph\": %.6g, \"mean_deg\": %.6g, "
                  "\"mean_pos\": %.6g}, \"contacts\": %zu, \"contact_frames\": %zu, "
                  "\"jumps\": %zu, \"peaks\": %zu, \"peak_loss_deg\": %.6g",
                  st->bone_tracks, st->morph_tracks, st->clean_tracks, st->noise_deg, st->noise_pos,
                  st->noise_morph, st->moved_deg, st->moved_pos, st->moved_morph, st->mean_deg,
                  st->mean_pos, st->contacts, st->contact_frames, st->jumps, st->peaks,
                  st->peak_loss_deg);
    if (st->peak_bone != PK_NO_NAME && res->out.motion)
        pk_buf_printf(f, ", \"peak_loss_at\": {\"bone\": \"%s\", \"frame\": %u}",
                      pk_names_utf8(res->out.motion->names, st->peak_bone), st->peak_frame);
    pk_buf_printf(f, ", \"duplicates_dropped\": %zu}\n", res->duplicates);
    return 0;
}

static const char HELP[] =
    "usage: posekit smooth IN -o OUT [--strength N] [--bones SEL] [--rules R]\n"
    "                      [--noise-deg D] [--noise-pos U] [--noise-morph W]\n"
    "                      [--no-morphs] [--no-contacts] [--json] [--quiet]\n"
    "                      [--strict]\n"
    "\n"
    "Filters noisy motion (traced from video or captured: a key at every\n"
    "frame, jitter of a degree or more).  Each selected track is sampled at\n"
    "every frame and filtered by local regression whose window grows at\n"
    "each frame until the motion bends away from a line (so a slow stretch\n"
    "is averaged over up to 2N+1 frames while a snap on the beat keeps its\n"
    "peak): rotations on the rotation group (all three axes together, not\n"
    "per Euler angle or quaternion component), translations and morph\n"
    "weights per channel.  The noise of each track is estimated from its\n"
    "own frames unless given; a track without noise, or keyed by hand\n"
    "(keys on fewer than one frame in three: its curves are not noise), is\n"
    "left as it is.  A jump (a step far larger than the noise and the steps\n"
    "around it) is not smoothed across.  On 左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ\n"
    "and 右つま先ＩＫ a run of still frames is a planted foot: it holds one\n"
    "position.  Smoothed tracks are written a key a frame with linear\n"
    "curves (`reduce` makes them small again); every other record stays\n"
    "byte-identical.\n"
    "\n"
    "  --strength N     the widest window, frames on each side (2 to 120;\n"
    "                   default 60, two seconds at 30 fps)\n"
    "  --bones SEL      bone and morph names, globs and @groups (default:\n"
    "                   every bone and morph); matching nothing is an error\n"
    "  --rules R        rule file for @groups\n"
    "  --noise-deg D    the rotation noise's deviation per axis in degrees\n"
    "                   (default: estimated per track)\n"
    "  --noise-pos U    the translation noise's deviation per axis in units\n"
    "  --noise-morph W  the morph weight noise's deviation\n"
    "  --no-morphs      leave morph tracks alone\n"
    "  --no-contacts    do not hold planted feet\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  --quiet          no progress line (shown on a terminal once the work\n"
    "                   has taken a second)\n"
    "  -o, --output OUT output (.vmd); written atomically; never an input\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary goes to stderr: keys before and after, tracks smoothed, the\n"
    "largest noise found and change made, planted-foot runs held, and the\n"
    "largest loss of peak angle at the input's fast swings.\n";

const pki_step_def pki_step_smooth = {
    .name = "smooth",
    .about = "filter noisy (traced or captured) motion, feet and peaks kept",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(smooth_opts),
    .init = init,
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC, .progress = true},
};
