/* step_crossfade.c — crossfade: the end of one motion into the start of
 * another (engine/ops/keys/crossfade.c), its summary and its JSON. */
#include "step/step.h"
#include "step/step_option.h"

#include "util/number.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct crossfade_opts {
    uint32_t at, fade, skip;
} crossfade_opts;

#define T crossfade_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("first", 0),
    PKI_ROW_INPUT("second", 1),
    {"at", PKI_OPT_U32, offsetof(T, at), 0, 0, NULL, "a frame number"},
    {"fade", PKI_OPT_COUNT, offsetof(T, fade), 0, 0, NULL, "a number of frames (1 or more)"},
    {"skip", PKI_OPT_U32, offsetof(T, skip), 0, 0, NULL, "a number of frames"},
};
#undef T

static void init(void *p)
{
    crossfade_opts *o = p;
    o->fade = 10;
}

static int check(const pk_step *s, pk_log *log)
{
    char n1[64];
    if (s->ninputs < 2 || !s->inputs[0] || !s->inputs[1])
        return pki_step_fail(log, "crossfade takes two motions: the first and the second");
    if (!pki_step_given(s, "at"))
        return pki_step_fail(log, "no %s F: the frame of the first motion where the fade starts",
                             pki_step_spell(s, "at", n1));
    const crossfade_opts *o = s->o;
    if ((uint64_t)o->at + o->fade > UINT32_MAX)
        return pki_step_fail(log, "the fade runs past the last frame number (4294967295)");
    return 0;
}

/* The engine's counts, and the camera and light keys of the output: they
 * move across the fade too (two cameras faded one into the other). */
typedef struct crossfade_result {
    pk_crossfade_stats st;
    size_t cameras, lights;
} crossfade_result;

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const crossfade_opts *o = s->o;
    for (int i = 0; i < 2; i++)
        if (!in[i].motion) {
            pk_log_add_at(log, PK_ERROR, PK_E_USAGE, s->inputs[i], -1, 0, 0,
                          "crossfade works on VMD motions (a pose has no time)");
            return -1;
        }
    crossfade_result *cr = pki_result_new(res, sizeof *cr, log);
    if (!cr)
        return -1;
    pk_crossfade_stats *st = &cr->st;
    for (int i = 0; i < 2; i++) {
        const pk_motion *m = in[i].motion, *other = in[1 - i].motion;
        if (m->nbones || m->nmorphs || !m->ncameras || !(other->nbones + other->nmorphs))
            continue;
        /* a dance's camera given for the dance: the other's bones would
         * fade in from rest, or out to it, beside the camera */
        size_t from = pki_mark(log);
        pk_warning(log, PK_E_NO_EFFECT,
                   "a camera motion (%zu camera key%s, no bone or morph key) crossfaded with a "
                   "dance: the dance's bones and morphs fade %s rest (crossfade two dances, or "
                   "two cameras)",
                   m->ncameras, pki_plural(m->ncameras), i == 0 ? "in from" : "out to");
        pk_log_place(log, from, s->inputs[i]);
    }
    uint32_t lo, hi;
    if (o->skip > 0 && pk_motion_frame_range(in[1].motion, &lo, &hi) && o->skip > hi) {
        /* as time --trim past the last key: most likely a mistyped frame */
        size_t from = pki_mark(log);
        pk_warning(log, PK_E_NO_EFFECT,
                   "%s %u is after the motion's last key (frame %u): the fade leads into its "
                   "last pose, held",
                   pki_step_spell(s, "skip", (char[64]){0}), o->skip, hi);
        pk_log_place(log, from, s->inputs[1]);
    }
    pki_warn_past_end(s, &in[0], s->inputs[0], "at", o->at, log);
    res->out.format = PK_FMT_VMD;
    res->out.motion =
        pk_motion_crossfade(in[0].motion, in[1].motion, o->at, o->fade, -(int64_t)o->skip, st, log);
    /* the output holds no duplicate keys, and none of the inputs' is left
     * in it (the tracks were rebuilt, the later record winning): the
     * summary counts them all, as reduce's does */
    if (res->out.motion && pki_drop_duplicates(&res->out, res, log) != 0)
        return -1;
    if (res->out.motion) {
        res->duplicates = pki_motion_duplicates(in[0].motion) + pki_motion_duplicates(in[1].motion);
        cr->cameras = res->out.motion->ncameras;
        cr->lights = res->out.motion->nlights;
    }
    if (res->out.motion && st->bones + st->morphs == 0 && !cr->cameras && !cr->lights)
        pk_warning(log, PK_E_NO_EFFECT,
                   "neither motion has a bone, morph, camera or light key: nothing faded");
    return res->out.motion ? 0 : -1;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    const crossfade_opts *o = s->o;
    const crossfade_result *cr = res->own;
    if (!cr)
        return;
    const pk_crossfade_stats *st = &cr->st;
    pk_buf_printf(f,
                  "frames %u-%u faded over %zu bone%s and %zu morph%s: %zu key%s from the first, "
                  "%zu from the second, %zu inside the fade (within %.4g deg, %.4g units, %.4g "
                  "weight)",
                  o->at, o->at + o->fade, st->bones, pki_plural(st->bones), st->morphs,
                  pki_plural(st->morphs), st->keys_a, pki_plural(st->keys_a), st->keys_b,
                  st->fade_keys, st->worst_deg, st->worst_pos, st->worst_morph);
    if (cr->cameras || cr->lights)
        pk_buf_printf(f,
                      "; camera and light moved linearly across the fade: %zu camera key%s, "
                      "%zu light key%s",
                      cr->cameras, pki_plural(cr->cameras), cr->lights, pki_plural(cr->lights));
    pki_duplicates_summary(res, f);
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format fmt, pk_buf *f,
                  pk_log *log)
{
    (void)log;
    const crossfade_opts *o = s->o;
    if (fmt != PK_REPORT_JSON)
        return 1;
    crossfade_result none;
    memset(&none, 0, sizeof none);
    const crossfade_result *cr = res->own ? res->own : &none;
    const pk_crossfade_stats *st = &cr->st;
    pk_buf_printf(f,
                  "{\"command\": \"crossfade\", \"at\": %u, \"fade\": %u, \"skip\": %u, "
                  "\"bones\": %zu, \"morphs\": %zu, \"keys_first\": %zu, \"keys_second\": %zu, "
                  "\"fade_keys\": %zu, \"worst\": {\"deg\": %.6g, \"pos\": %.6g, \"morph\": "
                  "%.6g}, \"camera_keys\": %zu, \"light_keys\": %zu, "
                  "\"duplicates_dropped\": %zu}\n",
                  o->at, o->fade, o->skip, st->bones, st->morphs, st->keys_a, st->keys_b,
                  st->fade_keys, st->worst_deg, st->worst_pos, st->worst_morph, cr->cameras,
                  cr->lights, res->duplicates);
    return 0;
}

static const char HELP[] =
    "usage: posekit crossfade FIRST SECOND --at F [--fade N] [--skip K] -o OUT\n"
    "                         [--json] [--strict]\n"
    "\n"
    "Plays FIRST until frame F, then fades into SECOND over N frames\n"
    "(default 10): SECOND's frame K (default 0) lands on frame F, and from\n"
    "F+N on the output plays SECOND exactly (shifted by F-K).  Up to F it\n"
    "plays FIRST exactly.  Both edges are curve-exact, as trim cuts them.\n"
    "In between every bone and morph blends from FIRST (still playing) to\n"
    "SECOND by an ease-in/ease-out weight (53,0,74,127): rotations slerped,\n"
    "translations and weights mixed; a bone or morph one motion lacks is at\n"
    "rest there.  The fade's keys are fitted as reduce fits them (0.1\n"
    "degrees, 0.005 units, 0.002 weight).  Camera and light move linearly\n"
    "across the fade from FIRST's value to SECOND's; shadow and IK switch\n"
    "at its end.  The header and model name are FIRST's.\n"
    "\n"
    "  --at F           the frame of FIRST where the fade starts\n"
    "  --fade N         frames of fade (default 10)\n"
    "  --skip K         SECOND's frames before K are left out\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  -o, --output OUT output (.vmd); written atomically; never an input\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n";

const pki_step_def pki_step_crossfade = {
    .name = "crossfade",
    .about = "the end of one motion faded into the start of another",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(crossfade_opts),
    .init = init,
    .operands = "first,second",
    .too_many = "two motions",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC},
};
