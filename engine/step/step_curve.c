/* step_curve.c — curve: the interpolation of chosen bone keys, and of
 * camera keys, set to linear, an ease, four numbers or another key's
 * curve (engine/ops/keys/curves.c), its summary and its JSON. */
#include "step/step.h"
#include "step/step_option.h"

#include "ops/names/select_check.h"
#include "util/number.h"
#include "util/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct curve_opts {
    char *rules_name, *bones, *model_name, *set, *like, *axes;
    const pk_rules *rules;
    const pk_model *model;
    pki_frames frames;
} curve_opts;

#define T curve_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("in", 0),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_MODEL(T, "model", model_name, model),
    PKI_ROW_FRAMES(T),
    {"set", PKI_OPT_STRING, offsetof(T, set), 0, 0, NULL,
     "linear, ease, ease-in, ease-out or X1,Y1,X2,Y2 (0..127)"},
    {"like", PKI_OPT_STRING, offsetof(T, like), 0, 0, NULL,
     "BONE@FRAME or camera@FRAME (a key of the motion)"},
    {"axes", PKI_OPT_STRING, offsetof(T, axes), 0, 0, NULL, "x, y, z, r, d, v (comma-separated)"},
};
#undef T

/* Named shapes on MMD's 0..127 grid: MMD's linear, and the CSS eases
 * (0.42,0,0.58,1), (0.42,0,1,1), (0,0,0.58,1) rounded to the grid. */
static const struct {
    const char *name;
    uint8_t cp[4];
} SHAPES[] = {
    {"linear", {20, 20, 107, 107}},
    {"ease", PK_FADE_CURVE},
    {"ease-in", {53, 0, 127, 127}},
    {"ease-out", {0, 0, 74, 127}},
};

static int parse_set(const pk_step *s, const char *v, uint8_t cp[4], pk_log *log)
{
    char name[64];
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
        if (strcmp(v, SHAPES[i].name) == 0) {
            memcpy(cp, SHAPES[i].cp, 4);
            return 0;
        }
    char buf[64];
    bool ok = strlen(v) < sizeof buf;
    if (ok) {
        strcpy(buf, v);
        char *p = buf;
        for (int k = 0; k < 4 && ok; k++) {
            char *comma = strchr(p, ',');
            if ((comma == NULL) != (k == 3)) {
                ok = false;
                break;
            }
            if (comma)
                *comma = '\0';
            uint32_t x;
            ok = pki_num_u32(p, &x) && x <= 127;
            cp[k] = (uint8_t)x;
            p = comma ? comma + 1 : p;
        }
    }
    if (!ok) {
        pk_error(log, PK_E_USAGE,
                 "%s wants linear, ease, ease-in, ease-out or X1,Y1,X2,Y2 (four numbers 0..127), "
                 "not '%s'",
                 pki_step_spell(s, "set", name), v);
        return -1;
    }
    return 0;
}

/* The channels: x, y, z (translation; a camera's centre), r (rotation),
 * d and v (a camera's distance and view angle): bits 1 << 0..5. */
static int parse_axes(const pk_step *s, const char *v, unsigned *axes, pk_log *log)
{
    char name[64];
    *axes = 0;
    for (const char *p = v;;) {
        size_t n = strcspn(p, ",");
        const char *words = "xyzrdv";
        const char *hit = n == 1 ? strchr(words, p[0]) : NULL;
        if (!hit || !p[0]) {
            pk_error(log, PK_E_USAGE,
                     "%s takes x, y, z, r (rotation), d and v (a camera's distance and view "
                     "angle), comma-separated, not '%s'",
                     pki_step_spell(s, "axes", name), v);
            return -1;
        }
        /* "x,x" is most likely a slip for another channel */
        if (*axes & 1u << (hit - words)) {
            pk_error(log, PK_E_USAGE, "%s %s names '%c' twice", pki_step_spell(s, "axes", name), v,
                     *hit);
            return -1;
        }
        *axes |= 1u << (hit - words);
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

/* BONE@FRAME, its name UTF-8 text; -1 (said) when it is not. */
static int check_like(const pk_step *s, const char *like, pk_log *log)
{
    char n1[64];
    uint32_t frame;
    const char *at = strrchr(like, '@');
    if (!at || at == like || !pki_num_u32(at + 1, &frame))
        return pki_step_fail(log,
                             "%s wants BONE@FRAME or camera@FRAME (a key of the motion), "
                             "not '%s'",
                             pki_step_spell(s, "like", n1), like);
    /* a name typed as CP932 bytes (a shell in a CP932 locale) would only
     * be "no key of bone" once the motion is read: said as --bones says it */
    if (!pki_utf8_valid(like, (size_t)(at - like)))
        return pki_step_fail(log, "%s: name '%.*s' is not UTF-8 text (names are given in UTF-8)",
                             pki_step_spell(s, "like", n1), (int)(at - like), like);
    return 0;
}

static int check_value(const pk_step *s, const char *key, pk_log *log)
{
    const curve_opts *o = s->o;
    uint8_t cp[4];
    unsigned axes;
    if (strcmp(key, "set") == 0)
        return parse_set(s, o->set, cp, log);
    if (strcmp(key, "axes") == 0)
        return parse_axes(s, o->axes, &axes, log);
    if (strcmp(key, "like") == 0)
        return check_like(s, o->like, log);
    return 0;
}

static int check(const pk_step *s, pk_log *log)
{
    const curve_opts *o = s->o;
    char n1[64], n2[64];
    if (s->ninputs < 1 || !s->inputs[0])
        return pki_step_fail(log, "no input file given");
    if (!o->set == !o->like)
        return pki_step_fail(log, "give one of %s SHAPE and %s BONE@FRAME",
                             pki_step_spell(s, "set", n1), pki_step_spell(s, "like", n2));
    uint8_t cp[4];
    unsigned axes;
    if (o->set && parse_set(s, o->set, cp, log) != 0)
        return -1;
    if (o->axes && parse_axes(s, o->axes, &axes, log) != 0)
        return -1;
    if (o->like && check_like(s, o->like, log) != 0)
        return -1;
    if (o->bones && o->axes && (axes & 0xF) == 0)
        return pki_step_fail(log, "%s %s names only camera channels (d, v), and %s chooses bones",
                             pki_step_spell(s, "axes", n1), o->axes,
                             pki_step_spell(s, "bones", n2));
    return 0;
}

/* The curves of the key BONE@FRAME (four: cp[0..3]) or, in a motion with
 * camera keys, camera@FRAME (six, *six set); -1 (said) when the motion
 * has none. */
static int like_key(const pk_step *s, const pk_motion *m, const char *like, uint8_t cp[6][4],
                    bool *six, pk_log *log)
{
    char name[64];
    const char *at = strrchr(like, '@');
    uint32_t frame;
    if (!pki_num_u32(at + 1, &frame)) {
        pk_error(log, PK_E_USAGE, "%s wants BONE@FRAME (a key of the motion), not '%s'",
                 pki_step_spell(s, "like", name), like);
        return -1;
    }
    if (at - like == 6 && memcmp(like, "camera", 6) == 0 && m->ncameras) {
        const pk_camera_key *cam = NULL; /* the last record of a key wins */
        for (size_t i = 0; i < m->ncameras; i++)
            if (m->cameras[i].frame == frame)
                cam = &m->cameras[i];
        if (!cam) {
            pk_error(log, PK_E_NOT_FOUND, "%s %s: the motion has no camera key at frame %u",
                     pki_step_spell(s, "like", name), like, frame);
            return -1;
        }
        for (int c = 0; c < 6; c++) {
            const uint8_t *b = cam->interp + 4 * c; /* x1, x2, y1, y2 */
            cp[c][0] = b[0];
            cp[c][1] = b[2];
            cp[c][2] = b[1];
            cp[c][3] = b[3];
        }
        *six = true;
        return 0;
    }
    size_t blen = (size_t)(at - like);
    char *bone = malloc(blen + 1); /* strndup: not in mingw's C library */
    if (bone) {
        memcpy(bone, like, blen);
        bone[blen] = '\0';
    }
    if (!bone) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    uint8_t *raw = NULL;
    size_t len = 0;
    const pk_bone_key *hit = NULL;
    if (pk_utf8_to_cp932(bone, &raw, &len) == 0)
        for (size_t i = 0; i < m->nbones; i++) { /* the last record of a key wins */
            size_t kl;
            const uint8_t *kr = pk_names_raw(m->names, m->bones[i].name, &kl);
            if (m->bones[i].frame == frame && kl == len && memcmp(kr, raw, len) == 0)
                hit = &m->bones[i];
        }
    free(raw);
    if (!hit && blen == 6 && memcmp(like, "camera", 6) == 0) /* the word, not a bone */
        pk_error(log, PK_E_NOT_FOUND,
                 "%s %s: the motion has no camera keys, and no key of bone 'camera' at frame %u",
                 pki_step_spell(s, "like", name), like, frame);
    else if (!hit)
        pk_error(log, PK_E_NOT_FOUND, "%s %s: the motion has no key of bone '%s' at frame %u",
                 pki_step_spell(s, "like", name), like, bone, frame);
    free(bone);
    if (!hit)
        return -1;
    for (int a = 0; a < 4; a++)
        pk_interp_curve(hit->interp, a, cp[a]);
    return 0;
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const curve_opts *o = s->o;
    if (pki_need_motion(s, in, "a pose has no curves", log) != 0)
        return -1;
    pk_curve_stats *st = pki_result_new(res, sizeof *st, log);
    if (!st)
        return -1;
    uint8_t cp[6][4];
    unsigned axes = 0;
    bool six = false;
    if (o->set) {
        parse_set(s, o->set, cp[0], log);
        for (int a = 1; a < 6; a++)
            memcpy(cp[a], cp[0], 4);
        six = true;
    } else if (like_key(s, in->motion, o->like, cp, &six, log) != 0) {
        pk_log_place(log, pki_mark(log) - 1, s->inputs[0]);
        return -1;
    }
    /* a range outside every key would do nothing: an error, as in reduce
     * and bake (a range holding keys that keep their curve is a warning,
     * below) */
    uint32_t lo, hi;
    bool any = pk_motion_frame_range(in->motion, &lo, &hi);
    if (!o->frames.all && any && (o->frames.last < lo || o->frames.first > hi)) {
        pk_log_add_at(log, PK_ERROR, PK_E_NO_EFFECT, s->inputs[0], -1, 0, 0,
                      "frames %u-%u hold no key of the motion (its keys are at frames %u-%u): "
                      "nothing to curve",
                      o->frames.first, o->frames.last, lo, hi);
        return -1;
    }
    if (!o->frames.all && !any) {
        pk_log_add_at(log, PK_ERROR, PK_E_NO_EFFECT, s->inputs[0], -1, 0, 0,
                      "frames %u-%u hold no key of the motion (it has no keys): nothing to curve",
                      o->frames.first, o->frames.last);
        return -1;
    }
    if (o->axes)
        parse_axes(s, o->axes, &axes, log);
    else
        axes = 0x3F;
    if (!six) /* a bone key's curves: the camera's distance and view angle keep theirs */
        axes &= 0xF;
    pk_selection *sel = NULL;
    if (o->bones && !(sel = pk_selection_parse_model(o->rules, o->model, o->bones, log)))
        return -1;
    if (sel && pki_selection_check(sel, o->bones, in, 1, false, "the motion", "curve", s->inputs[0],
                                   log) != 0) {
        pk_selection_free(sel);
        return -1;
    }
    size_t from = pki_mark(log);
    pki_take(&res->out, in);
    pk_motion *m = res->out.motion;
    uint32_t first = o->frames.all ? 0 : o->frames.first;
    uint32_t last = o->frames.all ? UINT32_MAX : o->frames.last;
    int rc = 0;
    if (axes & 0xF)
        rc =
            pk_motion_set_curves(m, sel, first, last, (const uint8_t(*)[4])cp, axes & 0xF, st, log);
    if (rc == 0 && !o->bones)
        pk_motion_set_camera_curves(m, first, last, (const uint8_t(*)[4])cp, axes, st);
    pk_selection_free(sel);
    if (rc == 0 && pki_drop_duplicates(&res->out, res, log) != 0)
        rc = -1;
    char n1[64];
    if (rc == 0 && st->keys + st->camera_keys == 0 && o->axes && !(axes & 0xF) && !six)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to change: %s %s names only a camera's distance and view angle, "
                   "which the bone key %s has no curves for; the output is the input unchanged",
                   pki_step_spell(s, "axes", n1), o->axes, o->like);
    else if (rc == 0 && st->keys + st->camera_keys == 0 && o->axes && !(axes & 0xF))
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to change: %s %s names only camera channels and the motion has no "
                   "camera keys%s; the output is the input unchanged",
                   pki_step_spell(s, "axes", n1), o->axes,
                   m->ncameras ? " in the frames given" : "");
    else if (rc == 0 && st->keys + st->camera_keys == 0)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to change: no key of the selected %s in the frames given; the "
                   "output is the input unchanged",
                   o->bones || m->ncameras == 0 ? "bones" : "bones or of the camera");
    else if (rc == 0 && st->changed + st->camera_changed == 0)
        pk_warning(log, PK_E_NO_EFFECT,
                   "nothing to change: every key chosen has that curve already; the output is "
                   "the input unchanged");
    pk_log_place(log, from, s->inputs[0]);
    return rc;
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *f)
{
    (void)s;
    const pk_curve_stats *st = res->own;
    if (!st)
        return;
    if (st->keys || !st->camera_keys)
        pk_buf_printf(f, "%zu of %zu key%s changed in %zu bone track%s", st->changed, st->keys,
                      pki_plural(st->keys), st->tracks, pki_plural(st->tracks));
    if (st->camera_keys)
        pk_buf_printf(f, "%s%zu of %zu camera key%s changed", st->keys ? ", " : "",
                      st->camera_changed, st->camera_keys, pki_plural(st->camera_keys));
    pki_duplicates_summary(res, f);
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format fmt, pk_buf *f,
                  pk_log *log)
{
    (void)s;
    (void)log;
    if (fmt != PK_REPORT_JSON)
        return 1;
    pk_curve_stats none;
    memset(&none, 0, sizeof none);
    const pk_curve_stats *st = res->own ? res->own : &none;
    pk_buf_printf(f,
                  "{\"command\": \"curve\", \"tracks\": %zu, \"keys\": %zu, \"changed\": %zu, "
                  "\"camera_keys\": %zu, \"camera_changed\": %zu, \"duplicates_dropped\": %zu}\n",
                  st->tracks, st->keys, st->changed, st->camera_keys, st->camera_changed,
                  res->duplicates);
    return 0;
}

static const char HELP[] =
    "usage: posekit curve IN -o OUT (--set SHAPE | --like BONE@FRAME|camera@FRAME)\n"
    "                     [--bones SEL] [--rules R] [--model MODEL]\n"
    "                     [--frames A-B|N] [--axes x,y,z,r,d,v] [--json] [--strict]\n"
    "\n"
    "Sets the interpolation curve of the selected bones' keys in frames A..B,\n"
    "and (without --bones) of the camera keys there.  A key's curve shapes\n"
    "the segment that ends at it (as MMD plays it), so --frames 100-200\n"
    "reshapes the segments ending in 100..200.\n"
    "\n"
    "  --set SHAPE      linear (MMD's 20,20,107,107), ease (53,0,74,127),\n"
    "                   ease-in (53,0,127,127), ease-out (0,0,74,127), or\n"
    "                   X1,Y1,X2,Y2 on MMD's 0..127 grid\n"
    "  --like B@F       the four curves of bone B's key at frame F (a camera's\n"
    "                   distance and view angle keep theirs); camera@F: the\n"
    "                   six curves of the camera key at frame F\n"
    "  --bones SEL      bone names, globs and @groups (default: every bone and\n"
    "                   the camera); matching nothing is an error\n"
    "  --rules R        rule file for @groups\n"
    "  --model MODEL    PMX/PMD model whose display frames --bones may name\n"
    "                   as @frame:NAME\n"
    "  --frames A-B|N   the keys' frames (default: all)\n"
    "  --axes LIST      only these channels: x, y, z (translation; the camera's\n"
    "                   centre), r (rotation), d, v (the camera's distance and\n"
    "                   view angle) (default: all)\n"
    "  --json           the summary as JSON on stdout (one line)\n"
    "  -o, --output OUT output (.vmd); written atomically; never an input\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "Every other byte of every record stays as it was (the physics switch\n"
    "too); morphs and lights have no curves (MMD blends them linearly).\n";

const pki_step_def pki_step_curve = {
    .name = "curve",
    .about = "set the interpolation curve of chosen bone keys or camera keys",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(curve_opts),
    .operands = "in",
    .too_many = "one input file",
    .check = check,
    .check_value = check_value,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON),
    .report = report,
    .makes = pki_makes_motion,
    .takes_input = true,
    .free_result = free,
    .cli = {.output = PK_CLI_OUT_DOC},
};
