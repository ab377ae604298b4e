/* step_time.c — time: a motion trimmed, shifted, stretched or resampled
 * (engine/ops/keys/time.c), its summary and its JSON. */
#include "step/step.h"
#include "step/step_option.h"

#include "util/number.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct time_opts {
    char *trim, *shift, *bpm, *fps;
    double stretch;
} time_opts;

#define T time_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    {"trim", PKI_OPT_STRING, offsetof(T, trim), 0, 0, NULL, "A-B, A- or -B (frames)"},
    {"shift", PKI_OPT_STRING, offsetof(T, shift), 0, 0, NULL, "a whole number of frames"},
    {"stretch", PKI_OPT_POSITIVE, offsetof(T, stretch), 0, 0, NULL, "a positive factor"},
    {"bpm", PKI_OPT_STRING, offsetof(T, bpm), 0, 0, NULL, "FROM:TO (beats per minute)"},
    {"fps", PKI_OPT_STRING, offsetof(T, fps), 0, 0, NULL, "FROM:TO (frames per second)"},
};
#undef T

/* The options read into the engine's; -1 (said) on a bad value. */
static int parse_trim(const pk_step *s, const char *v, pk_time_options *t, pk_log *log)
{
    char name[64];
    const char *dash = strchr(v, '-');
    bool ok = dash != NULL;
    uint32_t a = 0, b = UINT32_MAX;
    if (ok && dash > v) {
        char head[32];
        size_t n = (size_t)(dash - v);
        ok = n < sizeof head;
        if (ok) {
            memcpy(head, v, n);
            head[n] = '\0';
            ok = pki_num_u32(head, &a);
        }
    }
    if (ok && dash[1])
        ok = pki_num_u32(dash + 1, &b);
    if (ok && dash == v && !dash[1])
        ok = false; /* "-" alone */
    if (!ok) {
        pk_error(log, PK_E_USAGE,
                 "%s wants A-B, A- (to the end) or -B (from frame 0), frame numbers, not '%s'",
                 pki_step_spell(s, "trim", name), v);
        return -1;
    }
    if (a > b) {
        pk_error(log, PK_E_USAGE, "%s %s is empty: its first frame %u is after its last %u",
                 pki_step_spell(s, "trim", name), v, a, b);
        return -1;
    }
    t->first = a;
    t->last = b;
    return 0;
}

/* "FROM:TO" as two positive numbers. */
static int parse_ratio(const pk_step *s, const char *opt, const char *v, double *from, double *to,
                       pk_log *log)
{
    char name[64], head[64];
    const char *colon = strchr(v, ':');
    bool ok = colon && (size_t)(colon - v) < sizeof head;
    if (ok) {
        memcpy(head, v, (size_t)(colon - v));
        head[colon - v] = '\0';
        ok = pki_num_double(head, from) && pki_num_double(colon + 1, to) && *from > 0 && *to > 0;
    }
    if (!ok) {
        pk_error(log, PK_E_USAGE, "%s wants FROM:TO, two positive numbers (%s), not '%s'",
                 pki_step_spell(s, opt, name), strcmp(opt, "bpm") == 0 ? "120:150" : "30:60", v);
        return -1;
    }
    return 0;
}

static int parse_shift(const pk_step *s, const char *v, int64_t *shift, pk_log *log)
{
    char name[64];
    if (!pki_num_i64(v, shift)) {
        pk_error(log, PK_E_USAGE, "%s wants a whole number of frames, not '%s'%s",
                 pki_step_spell(s, "shift", name), v, pki_frames_hint(v, true));
        return -1;
    }
    return 0;
}

static int check_value(const pk_step *s, const char *key, pk_log *log)
{
    const time_opts *o = s->o;
    pk_time_options t;
    double from, to;
    pk_time_options_init(&t);
    if (strcmp(key, "trim") == 0)
        return parse_trim(s, o->trim, &t, log);
    if (strcmp(key, "shift") == 0)
        return parse_shift(s, o->shift, &t.shift, log);
    if (strcmp(key, "bpm") == 0 || strcmp(key, "fps") == 0)
        return parse_ratio(s, key, key[0] == 'b' ? o->bpm : o->fps, &from, &to, log);
    return 0;
}

static int options(const pk_step *s, pk_time_options *t, pk_log *log)
{
    const time_opts *o = s->o;
    pk_time_options_init(t);
    if (o->trim && parse_trim(s, o->trim, t, log) != 0)
        return -1;
    if (o->shift && parse_shift(s, o->shift, &t->shift, log) != 0)
        return -1;
    double from, to;
    t->scale = o->stretch > 0 ? o->stretch : 1.0;
    if (o->bpm) {
        if (parse_ratio(s, "bpm", o->bpm, &from, &to, log) != 0)
            return -1;
        t->scale *= from / to; /* faster music: the motion plays in fewer frames */
    }
    if (o->fps) {
        if (parse_ratio(s, "fps", o->fps, &from, &to, log) != 0)
            return -1;
        t->scale *= to / from;
    }
    if (!(t->scale > 1e-6 && t->scale < 1e6)) {
        pk_error(log, PK_E_USAGE, "a time factor of %g is out of reach (1e-6 to 1e6)", t->scale);
        return -1;
    }
    return 0;
}

static int check(const pk_step *s, pk_log *log)
{
    char n1[64], n2[64], n3[64], n4[64], n5[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (!pki_step_given(s, "trim") && !pki_step_given(s, "shift") &&
        !pki_step_given(s, "stretch") && !pki_step_given(s, "bpm") && !pki_step_given(s, "fps"))
        return pki_step_fail(log, "nothing to do: give %s, %s, %s, %s or %s",
                             pki_step_spell(s, "trim", n1), pki_step_spell(s, "shift", n2),
                             pki_step_spell(s, "stretch", n3), pki_step_spell(s, "bpm", n4),
                             pki_step_spell(s, "fps", n5));
    pk_time_options t;
    return options(s, &t, log);
}

typedef struct time_result {
    pk_time_stats st;
    pk_time_options opt;
} time_result;

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    if (pki_need_motion(s, in, "a pose has no time", log) != 0)
        return -1;
    time_result *r = pki_result_new(res, sizeof *r, log);
    if (!r)
        return -1;
    if (options(s, &r->opt, log) != 0)
        return -1;
    size_t from = pki_mark(log);
    uint32_t lo, hi;
    /* A negative shift cuts the frames before -shift away as --trim does:
     * a cut past the last key is the same mistake, told the same way. */
    uint64_t cut = r->opt.shift < 0 ? (uint64_t)-r->opt.shift : 0;
    bool by_shift = cut > r->opt.first;
    if (!by_shift)
        cut = r->opt.first;
    if (cut > 0 && pk_motion_frame_range(in->motion, &lo, &hi) && cut > hi) {
        if (by_shift)
            pk_warning(log, PK_E_NO_EFFECT,
                       "%s %lld cuts away every frame before %llu, after the motion's last key "
                       "(frame %u): the output holds the motion's last pose at frame 0",
                       pki_step_spell(s, "shift", (char[64]){0}), (long long)r->opt.shift,
                       (unsigned long long)cut, hi);
        else
            pk_warning(log, PK_E_NO_EFFECT,
                       "%s starts at frame %u, after the motion's last key (frame %u): the "
                       "output holds the motion's last pose there",
                       pki_step_spell(s, "trim", (char[64]){0}), r->opt.first, hi);
    }
    res->out.format = PK_FMT_VMD;
    res->out.motion = pk_motion_time(in->motion, &r->opt, &r->st, log);
    if (res->out.motion) {
        res->duplicates = r->st.duplicates;
        const pk_time_stats *st = &r->st;
        if (!st->trimmed && r->opt.shift == 0 && r->opt.scale == 1.0 && !st->duplicates)
            /* the range only when one was given (--shift 0 alone has none) */
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing to do: the motion %sis neither shifted nor stretched; the "
                       "output is the input unchanged",
                       pki_step_given(s, "trim") ? "lies inside the range and " : "");
        else if (!pk_motion_frame_range(in->motion, &lo, &hi))
            pk_warning(log, PK_E_NO_EFFECT, "the motion has no keys: nothing to do");
        else if (r->opt.scale != 1.0 && !st->duplicates &&
                 pki_motion_same_bytes(in->motion, res->out.motion))
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing to do: every key stays on its frame (time x%.9g rounds each "
                       "back), the output is the input unchanged",
                       r->opt.scale);
    }
    pk_log_place(log, from, s->inputs[0]);
    return res->out.motion ? 0 : -1;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    (void)s;
    const time_result *r = res->own;
    if (!r)
        return;
    const pk_time_stats *st = &r->st;
    size_t before = 0, after = 0;
    for (int i = 0; i < PK_SEC_COUNT; i++) {
        before += st->keys_before[i];
        after += st->keys_after[i];
    }
    pk_buf_printf(f, "keys %zu -> %zu (bones %zu -> %zu, morphs %zu -> %zu", before, after,
                  st->keys_before[PK_SEC_BONE], st->keys_after[PK_SEC_BONE],
                  st->keys_before[PK_SEC_MORPH], st->keys_after[PK_SEC_MORPH]);
    /* the other sections when they hold keys: a camera motion's keys are
     * not all "bones and morphs" */
    static const char *const other[PK_SEC_COUNT] = {
        [PK_SEC_CAMERA] = "camera", [PK_SEC_LIGHT] = "light", [PK_SEC_SHADOW] = "shadow",
        [PK_SEC_IK] = "IK"};
    for (int i = PK_SEC_CAMERA; i < PK_SEC_COUNT; i++)
        if (st->keys_before[i] || st->keys_after[i])
            pk_buf_printf(f, ", %s %zu -> %zu", other[i], st->keys_before[i], st->keys_after[i]);
    pk_buf_putc(f, ')');
    if (st->trimmed) {
        if (st->last == UINT32_MAX)
            pk_buf_printf(f, "; trimmed to frames %u on", st->first);
        else
            pk_buf_printf(f, "; trimmed to %u-%u", st->first, st->last);
        pk_buf_printf(f, ": crossed segments %zu split, %zu fitted, %zu baked", st->split,
                      st->fitted, st->baked);
    }
    if (r->opt.shift)
        pk_buf_printf(f, "; shifted by %lld", (long long)r->opt.shift);
    if (r->opt.scale != 1.0) {
        pk_buf_printf(f, "; time x%.6g: %zu key%s rounded to a whole frame (by %.3g at most)",
                      r->opt.scale, st->rounded, pki_plural(st->rounded), st->max_round);
        pk_buf_printf(f, ", %zu cut%s kept one frame apart, %zu key%s dropped on a shared frame",
                      st->cuts_kept, pki_plural(st->cuts_kept), st->merged, pki_plural(st->merged));
    }
    pki_duplicates_summary(res, f);
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format fmt, pk_buf *f,
                  pk_log *log)
{
    (void)s;
    (void)log;
    if (fmt != PK_REPORT_JSON)
        return 1;
    time_result none;
    memset(&none, 0, sizeof none);
    pk_time_options_init(&none.opt);
    const time_result *r = res->own ? res->own : &none;
    const pk_time_stats *st = &r->st;
    pk_buf_puts(f, "{\"command\": \"time\", \"sections\": {");
    for (int i = 0; i < PK_SEC_COUNT; i++)
        pk_buf_printf(f, "%s\"%s\": {\"before\": %zu, \"after\": %zu}", i ? ", " : "",
                      pk_section_word((pk_section)i), st->keys_before[i], st->keys_after[i]);
    pk_buf_printf(f,
                  "}, \"trimmed\": %s, \"first\": %u, \"last\": %u, \"shift\": %lld, "
                  "\"scale\": %.9g, \"crossed\": {\"split\": %zu, \"fitted\": %zu, \"baked\": "
                  "%zu}, \"rounded\": %zu, \"max_round\": %.6g, \"cuts_kept\": %zu, "
                  "\"dropped_on_shared_frame\": %zu, \"duplicates_dropped\": %zu}\n",
                  st->trimmed ? "true" : "false", st->trimmed ? st->first : r->opt.first,
                  st->trimmed ? st->last : r->opt.last, (long long)r->opt.shift, r->opt.scale,
                  st->split, st->fitted, st->baked, st->rounded, st->max_round, st->cuts_kept,
                  st->merged, res->duplicates);
    return 0;
}

static const char HELP[] =
    "usage: posekit time IN -o OUT [--trim A-B|A-|-B] [--shift N] [--stretch F]\n"
    "                    [--bpm FROM:TO] [--fps FROM:TO] [--json] [--strict]\n"
    "\n"
    "Edits a VMD motion's time, in this order: trim, shift, stretch.\n"
    "\n"
    "  --trim A-B       keep frames A..B (A- to the end, -B from 0): every\n"
    "                   track that has keys plays as in IN at every frame of\n"
    "                   the range and holds its value at B after it.  A\n"
    "                   segment an edge crosses is cut there: bone and camera\n"
    "                   curves split onto MMD's 0..127 grid (checked at every\n"
    "                   frame; else fitted within 0.01 degrees / 0.0001 units,\n"
    "                   or baked), morphs and light exactly; shadow and IK\n"
    "                   records hold their value from before A\n"
    "  --shift N        add N frames to every key (negative: the frames\n"
    "                   before -N are cut away, as by --trim)\n"
    "  --stretch F      time x F about frame 0: a key at f goes to the whole\n"
    "                   frame nearest f x F, its curves kept (2 plays half as\n"
    "                   fast)\n"
    "  --bpm FROM:TO    a dance made for FROM beats per minute set to TO: time\n"
    "                   x FROM/TO\n"
    "  --fps FROM:TO    frames per second: 30:60 doubles every frame number\n"
    "                   (a 60 fps motion from a 30 fps one), 60:30 halves it\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  -o, --output OUT output (.vmd); written atomically; never an input\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "Stretching keeps two keys one frame apart with no key one frame before\n"
    "or after them (a camera cut, a snap) one frame apart.  Keys landing on\n"
    "one frame: the latest keeps it, the one before moves a frame back when\n"
    "that frame is free (a held value still ends right before a jump), any\n"
    "other is dropped; the summary counts both, and the keys whose frame was\n"
    "rounded.  Bones, morphs, camera, light, shadow and IK records all move;\n"
    "records keep their bytes and order but for the frame.\n";

const pki_step_def pki_step_time = {
    .name = "time",
    .about = "trim, shift, stretch or resample a motion's time",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(time_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .check_value = check_value,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC},
};
