/* step_diff.c — diff: two poses or motions compared bone by bone
 * (engine/ops/diff/), and what it reports: the table and summary, JSON,
 * CSV, and the picture (step_diff_svg.c; with a model, the two poses drawn
 * under it). */
#include "step/step.h"
#include "step/step_option.h"

#include "ops/names/select_check.h"
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct diff_opts {
    char *rules_name, *bones, *model_name, *vs_model_name;
    const pk_rules *rules;
    const pk_model *model, *vs_model;
    uint32_t frame;
    pki_frames frames;
    double threshold, pos_threshold;
    bool no_morphs, all, groups;
} diff_opts;

#define T diff_opts
static const pki_option OPTIONS[] = {
    PKI_ROW_INPUT("a", 0),
    PKI_ROW_INPUT("b", 1),
    PKI_ROW_RULES(T),
    PKI_ROW_BONES(T),
    PKI_ROW_MODEL(T, "model", model_name, model),
    PKI_ROW_MODEL(T, "vs_model", vs_model_name, vs_model),
    {"frame", PKI_OPT_U32, offsetof(T, frame), 0, 0, NULL, "a frame number (0 or more)"},
    PKI_ROW_FRAMES(T),
    PKI_ROW_BOOL(T, "no_morphs", no_morphs),
    {"threshold", PKI_OPT_DOUBLE, offsetof(T, threshold), 0, 0, NULL, "a number of 0 or more"},
    {"pos_threshold", PKI_OPT_DOUBLE, offsetof(T, pos_threshold), 0, 0, NULL,
     "a number of 0 or more"},
    PKI_ROW_BOOL(T, "all", all),
    PKI_ROW_BOOL(T, "groups", groups),
};
#undef T

static void init(void *p)
{
    diff_opts *o = p;
    o->threshold = 0.01;
    o->pos_threshold = 0.0001;
}

/* What a diff made: the rows, the options they were made with, the
 * groups, and the inputs as read (the caller's) for the picture. */
typedef struct diff_result {
    pk_diff *diff;
    pk_diff_options opts; /* the thresholds (the filter dropped) */
    pk_diff_group *groups;
    size_t ngroups;
    pk_rules *own_rules; /* the default rules groups point into */
    bool motion_in;      /* an input was a motion */
    pk_doc docs[2];      /* the inputs (not owned) */
} diff_result;

static void free_result(void *p)
{
    diff_result *r = p;
    if (!r)
        return;
    pk_diff_free(r->diff);
    free(r->groups);
    pk_rules_free(r->own_rules);
    free(r);
}

static int check(const pk_step *s, pk_log *log)
{
    char n1[64], n2[64];
    if (s->ninputs < 2 || !s->inputs[0] || !s->inputs[1])
        return pki_step_fail(log, "two files to compare are needed");
    if (pki_step_given(s, "frame") && pki_step_given(s, "frames"))
        return pki_step_fail(log, "%s and %s exclude each other", pki_step_spell(s, "frame", n1),
                             pki_step_spell(s, "frames", n2));
    const diff_opts *o = s->o;
    if (o->vs_model_name && !o->model_name)
        return pki_step_fail(log, "%s needs %s: A is played on MODEL, B on the other",
                             pki_step_spell(s, "vs_model", n1), pki_step_spell(s, "model", n2));
    if (o->vs_model_name && o->bones)
        return pki_step_fail(log, "%s compares every bone both models draw; %s does not apply",
                             pki_step_spell(s, "vs_model", n1), pki_step_spell(s, "bones", n2));
    return 0;
}

static void want(pk_step *s, pk_report_format f)
{
    if (f == PK_REPORT_SVG)
        s->bins = PKI_DIFF_SVG_COLUMNS;
}

/* A pose as a motion that holds it: one key per name at frame 0, linear
 * curves; a name listed twice counts once (the last time, as for poses).
 * Names keep their full length (no VMD field is written). */
static pk_motion *hold_pose(const pk_pose *p, pk_log *log)
{
    pk_motion *m = pk_motion_new();
    bool ok = m != NULL;
    for (size_t i = 0; ok && i < p->nbones; i++) {
        if (pk_pose_find_bone(p, p->bones[i].name) != (long)i)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(p->names, p->bones[i].name, &len);
        pk_bone_key *k = pk_motion_push_bone(m);
        ok = k != NULL;
        if (ok) {
            k->name = pk_names_intern(m->names, raw, len);
            memcpy(k->pos, p->bones[i].pos, sizeof k->pos);
            memcpy(k->rot, p->bones[i].rot, sizeof k->rot);
            pk_interp_linear(k->interp);
            ok = k->name != PK_NO_NAME;
        }
    }
    for (size_t i = 0; ok && i < p->nmorphs; i++) {
        if (pk_pose_find_morph(p, p->morphs[i].name) != (long)i)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(p->names, p->morphs[i].name, &len);
        pk_morph_key *k = pk_motion_push_morph(m);
        ok = k != NULL;
        if (ok) {
            k->name = pk_names_intern(m->names, raw, len);
            k->weight = p->morphs[i].weight;
            ok = k->name != PK_NO_NAME;
        }
    }
    if (!ok) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        pk_motion_free(m);
        return NULL;
    }
    return m;
}

/* Frame by frame over the range (a pose holds at every frame). */
static pk_diff *over_range(const pk_step *s, const pk_doc *in, pk_diff_options *opts, pk_log *log)
{
    const diff_opts *o = s->o;
    pk_motion *m[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++)
        m[i] = in[i].motion ? in[i].motion : (own[i] = hold_pose(in[i].pose, log));
    uint32_t first = o->frames.first, last = o->frames.last;
    if (o->frames.all) /* every frame of either motion */
        pki_frame_span(in, 2, &first, &last);
    opts->bins = s->bins;
    opts->no_scene = !in[0].motion || !in[1].motion; /* a pose has no camera */
    pk_diff *d = m[0] && m[1] ? pk_diff_motions(m[0], m[1], first, last, opts, log) : NULL;
    pk_motion_free(own[0]);
    pk_motion_free(own[1]);
    return d;
}

/* Two poses (a motion sampled at the frame). */
static pk_diff *at_frame(const pk_step *s, const pk_doc *in, pk_diff_options *opts, pk_log *log)
{
    const diff_opts *o = s->o;
    pk_pose *p[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++)
        p[i] = in[i].pose ? in[i].pose
                          : (own[i] = pk_motion_sample(in[i].motion, NULL, o->frame, log));
    pk_diff *d = p[0] && p[1] ? pk_diff_poses(p[0], p[1], opts, log) : NULL;
    /* two motions at a frame: their camera, light and shadow too */
    if (d && in[0].motion && in[1].motion && !opts->bone_filter &&
        !pk_diff_add_scene(d, in[0].motion, in[1].motion, o->frame, o->frame, opts, log)) {
        pk_diff_free(d);
        d = NULL;
    }
    pk_pose_free(own[0]);
    pk_pose_free(own[1]);
    return d;
}

/* In the world an input keying none of its model's bones compares that
 * model's rest pose, which the table does not tell apart from the input
 * (a camera given for the dance it frames, a dance with English names):
 * said, naming the input, as draw says it. */
static void warn_world_unfit(const pk_step *s, const pk_doc *d, const char *path, const pk_model *m,
                             const char *model_name, pk_log *log)
{
    size_t from = pki_mark(log);
    char how[512];
    if (d->motion && d->motion->nbones == 0 && d->motion->ncameras > 0)
        pk_warning(log, PK_E_NO_EFFECT,
                   "a camera motion (%zu camera key%s, no bone key): %s is compared at rest "
                   "(compare the dance the camera frames)",
                   d->motion->ncameras, pki_plural(d->motion->ncameras), model_name);
    else if (pki_model_holds_none(m, d))
        pk_warning(log, PK_E_NO_EFFECT,
                   "%s holds none of the bones it %s: compared at rest (%s lists the names it "
                   "lacks)",
                   model_name, d->motion ? "keys" : "poses",
                   pki_step_check_how(s, path, model_name, how));
    pk_log_place(log, from, path);
}

static int run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    (void)n;
    const diff_opts *o = s->o;
    diff_result *dr = pki_result_new(res, sizeof *dr, log);
    if (!dr)
        return -1;
    dr->motion_in = in[0].motion || in[1].motion;
    dr->docs[0] = in[0];
    dr->docs[1] = in[1];
    bool range = pki_step_given(s, "frames");
    if (!dr->motion_in && (range || pki_step_given(s, "frame"))) {
        pk_error(log, PK_E_USAGE, "%s%s applies to VMD inputs; both files are poses", s->prefix,
                 range ? "frames" : "frame");
        return -1;
    }
    pk_diff_options opts;
    pk_diff_options_init(&opts);
    opts.threshold_deg = o->threshold;
    opts.pos_threshold = o->pos_threshold;
    opts.no_morphs = o->no_morphs;
    pk_selection *sel = NULL;
    if (o->bones) {
        sel = pk_selection_parse_model(o->rules, o->model, o->bones, log);
        if (!sel)
            return -1;
        if (pki_selection_check(sel, o->bones, in, 2, !o->no_morphs, "either input", "compare",
                                s->inputs[0], log) != 0) {
            pk_selection_free(sel);
            return -1;
        }
        opts.bone_filter = pki_selection_filter;
        opts.filter_ctx = sel;
        opts.filter_spec = o->bones;
    }
    /* a frame past a motion's last key (step.h), told once per file */
    for (int i = 0; i < (strcmp(s->inputs[0], s->inputs[1]) == 0 ? 1 : 2); i++)
        if (range)
            pki_warn_range_past_end(s, &in[i], s->inputs[i], "frames", &o->frames, log);
        else
            pki_warn_past_end(s, &in[i], s->inputs[i], "frame", o->frame, log);
    pk_diff *d;
    if (o->vs_model)
        for (int i = 0; i < 2; i++)
            warn_world_unfit(s, &in[i], s->inputs[i], i ? o->vs_model : o->model,
                             i ? o->vs_model_name : o->model_name, log);
    if (o->vs_model) {
        /* in the world, each on its own model */
        uint32_t first = o->frame, last = o->frame;
        if (range) {
            first = o->frames.first;
            last = o->frames.last;
            if (o->frames.all)
                pki_frame_span(in, 2, &first, &last);
        }
        d = pk_diff_world(o->model, &in[0], o->vs_model, &in[1], first, last, &opts, log);
    } else {
        d = range ? over_range(s, in, &opts, log) : at_frame(s, in, &opts, log);
    }
    pk_selection_free(sel);
    if (!d)
        return -1;
    pk_diff_sort(d);
    dr->diff = d;
    dr->opts = opts;
    /* "0 of 0 bones differ" is no finding: two empty poses, or morphs
     * alone with --no-morphs, compared nothing */
    if (d->nbones == 0 && d->nmorphs == 0 && d->nscene == 0) {
        char n1[64];
        size_t from = pki_mark(log);
        if (o->vs_model)
            /* in the world a bone is compared where both models draw it:
             * the inputs' keys are not what is missing */
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing compared: %s and %s have no bone in common that both draw "
                       "(in the world a bone is compared where both models have it)",
                       o->model_name, o->vs_model_name);
        else if (o->no_morphs)
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing compared: neither input holds a bone (%s leaves morphs out)",
                       pki_step_spell(s, "no_morphs", n1));
        else
            pk_warning(log, PK_E_NO_EFFECT,
                       "nothing compared: neither input holds a bone or morph");
        pk_log_place(log, from, s->inputs[0]);
    }
    dr->opts.bone_filter = NULL; /* sel is freed */
    dr->opts.filter_ctx = NULL;
    dr->opts.filter_spec = NULL;
    res->found = pk_diff_any(d);
    if (o->groups) {
        const pk_rules *r = o->rules;
        if (!r && !(r = dr->own_rules = pk_rules_default(log)))
            return -1;
        dr->groups = pk_diff_groups(d, r, &dr->ngroups, log);
        if (!dr->groups)
            return -1;
    }
    return 0;
}

/* ---- the table and its summary line ---- */

static const char *only_text(int only_in)
{
    return only_in == PK_DIFF_ONLY_A ? "a" : only_in == PK_DIFF_ONLY_B ? "b" : "";
}

static double group_deg(const pk_diff_group *g)
{
    return g->top ? g->top->angle_deg : 0.0;
}

/* hidden: rows in one file only left out of the table (0 outside it);
 * they are counted right after the "only in" counts they belong to. */
static void diff_summary(const pk_step *s, const pk_diff *d, bool motion_in, size_t hidden,
                         pk_buf *f)
{
    const diff_opts *o = s->o;
    const pk_diff_bone *top = NULL, *far = NULL;
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *b = &d->bones[i];
        if (!b->differs)
            continue;
        if (!top)
            top = b;
        if (!far || b->pos_delta > far->pos_delta)
            far = b;
    }
    if (d->range)
        pk_buf_printf(f, "frames %u-%u: ", d->first, d->last);
    else if (pki_step_given(s, "frame") || motion_in) /* a motion is compared at a frame */
        pk_buf_printf(f, "frame %u: ", o->frame);
    pk_buf_printf(f, "%zu of %zu bones differ", d->bones_differ, d->nbones);
    if (o->vs_model)
        pk_buf_puts(f, " in the world");
    if (top && top->angle_deg > o->threshold) {
        pk_buf_printf(f, " (largest %.3f deg: %s", top->angle_deg, top->name);
        if (d->range)
            pk_buf_printf(f, " at frame %u", top->angle_frame);
        pk_buf_putc(f, ')');
    } else if (far) {
        /* no rotation differs: the largest translation says what does */
        pk_buf_printf(f, " (largest %.4f units: %s", far->pos_delta, far->name);
        if (d->range)
            pk_buf_printf(f, " at frame %u", far->pos_frame);
        pk_buf_putc(f, ')');
    }
    if (o->vs_model && !o->no_morphs)
        pk_buf_puts(f, ", morphs not compared (in the world only bones are: without --vs-model "
                       "the keys' weights are)");
    else if (!o->no_morphs)
        pk_buf_printf(f, ", %zu of %zu morphs differ", d->morphs_differ, d->nmorphs);
    if (d->nscene)
        pk_buf_printf(f, ", %zu of %zu camera/light/shadow/IK channels differ", d->scene_differ,
                      d->nscene);
    if (d->only_a || d->only_b)
        pk_buf_printf(f, "; only in A: %zu, only in B: %zu", d->only_a, d->only_b);
    if (hidden)
        pk_buf_printf(f,
                      " (%zu of them not differing from rest, not listed: the all option lists "
                      "them)",
                      hidden);
    if (motion_in && !d->range && !pki_step_given(s, "frame")) /* the same words in a job */
        pk_buf_printf(f, " (a motion at frame 0 only: frames all compares every frame)");
}

static void summary(const pk_step *s, const pk_step_result *res, pk_buf *out)
{
    const diff_result *dr = res->own;
    if (dr && dr->diff)
        diff_summary(s, dr->diff, dr->motion_in, 0, out);
}

static void groups_table(const pk_step *s, const diff_result *dr, pk_buf *f)
{
    const diff_opts *o = s->o;
    const pk_diff *d = dr->diff;
    bool head = false;
    for (size_t i = 0; i < dr->ngroups; i++) {
        const pk_diff_group *g = &dr->groups[i];
        if (!o->all && !g->bones_differ)
            continue;
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %10s %13s  %s\n", "max_deg", "frame", "max_pos",
                              "bones_differ", "group (largest)");
            else
                pk_buf_printf(f, "%9s %10s %13s  %s\n", "max_deg", "max_pos", "bones_differ",
                              "group (largest)");
            head = true;
        }
        char count[48];
        snprintf(count, sizeof count, "%zu/%zu", g->bones_differ, g->bones);
        if (d->range)
            pk_buf_printf(f, "%9.3f %6u %10.4f %13s  @%s", group_deg(g),
                          g->top ? g->top->angle_frame : 0, g->max_pos, count, g->name);
        else
            pk_buf_printf(f, "%9.3f %10.4f %13s  @%s", group_deg(g), g->max_pos, count, g->name);
        if (g->top)
            pk_buf_printf(f, " (%s)", g->top->name);
        pk_buf_putc(f, '\n');
    }
}

static void only_mark(pk_buf *f, int only_in)
{
    if (only_in)
        pk_buf_printf(f, "  (only in %s)", only_in == PK_DIFF_ONLY_A ? "A" : "B");
    pk_buf_putc(f, '\n');
}

static void table(const pk_step *s, const diff_result *dr, pk_buf *f)
{
    const diff_opts *o = s->o;
    const pk_diff *d = dr->diff;
    bool head = false;
    size_t hidden = 0; /* rows of one file only that do not differ from rest */
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        if (!o->all && !r->differs) {
            hidden += r->only_in != 0;
            continue;
        }
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %9s %10s %6s %10s  %s\n", "max_deg", "frame", "mean_deg",
                              "max_pos", "frame", "mean_pos", "bone");
            else
                pk_buf_printf(f, "%9s %10s  %s\n", "angle_deg", "pos_delta", "bone");
            head = true;
        }
        if (d->range)
            pk_buf_printf(f, "%9.3f %6u %9.3f %10.4f %6u %10.4f  %s", r->angle_deg, r->angle_frame,
                          r->angle_mean, r->pos_delta, r->pos_frame, r->pos_mean, r->name);
        else
            pk_buf_printf(f, "%9.3f %10.4f  %s", r->angle_deg, r->pos_delta, r->name);
        only_mark(f, r->only_in);
    }
    head = false;
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        if (!o->all && !r->differs) {
            hidden += r->only_in != 0;
            continue;
        }
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %9s %17s  %s\n", "delta", "frame", "mean", "A -> B",
                              "morph");
            else
                pk_buf_printf(f, "%9s %17s  %s\n", "delta", "A -> B", "morph");
            head = true;
        }
        if (d->range)
            pk_buf_printf(f, "%+9.4f %6u %9.4f %7.4f -> %6.4f  %s", r->delta, r->frame, r->mean,
                          r->weight_a, r->weight_b, r->name);
        else
            pk_buf_printf(f, "%+9.4f %7.4f -> %6.4f  %s", r->delta, r->weight_a, r->weight_b,
                          r->name);
        only_mark(f, r->only_in);
    }
    head = false;
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        if (!o->all && !r->differs) {
            hidden += r->only_in != 0;
            continue;
        }
        if (!head) {
            if (d->range)
                pk_buf_printf(f, "%9s %6s %9s  %s\n", "max", "frame", "mean",
                              "camera, light, shadow, IK");
            else
                pk_buf_printf(f, "%9s  %s\n", "delta", "camera, light, shadow, IK");
            head = true;
        }
        if (d->range)
            pk_buf_printf(f, "%9.4f %6u %9.4f  %s", r->delta, r->frame, r->mean, r->name);
        else
            pk_buf_printf(f, "%9.4f  %s", r->delta, r->name);
        if (*r->unit)
            pk_buf_printf(f, " (%s)", r->unit);
        only_mark(f, r->only_in);
    }
    groups_table(s, dr, f);
    diff_summary(s, d, dr->motion_in, hidden, f);
    pk_buf_putc(f, '\n');
}

/* ---- CSV: one line per row, bones, morphs, camera/light/shadow
 * channels, then groups.  Morph rows carry their frame and mean in their
 * own columns; scene rows in angle_frame and angle_mean. ---- */

static void csv(const pk_step *s, const diff_result *dr, pk_buf *f)
{
    const pk_diff *d = dr->diff;
    bool groups = ((const diff_opts *)s->o)->groups;
    pk_buf_puts(f, "kind,name,angle_deg,pos_delta,angle_frame,angle_mean,pos_frame,pos_mean,"
                   "weight_a,weight_b,delta,morph_frame,morph_mean,only_in,differs");
    pk_buf_puts(f, groups ? ",group_bones,group_differ,group_max_bone\n" : "\n");
    const char *tail = groups ? ",,," : ""; /* the group columns of other rows */
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        pk_buf_puts(f, "bone,");
        pki_csv_field(f, r->name);
        if (d->range)
            pk_buf_printf(f, ",%.6f,%.6f,%u,%.6f,%u,%.6f,,,,,,%s,%d%s\n", r->angle_deg,
                          r->pos_delta, r->angle_frame, r->angle_mean, r->pos_frame, r->pos_mean,
                          only_text(r->only_in), r->differs, tail);
        else
            pk_buf_printf(f, ",%.6f,%.6f,,,,,,,,,,%s,%d%s\n", r->angle_deg, r->pos_delta,
                          only_text(r->only_in), r->differs, tail);
    }
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        pk_buf_puts(f, "morph,");
        pki_csv_field(f, r->name);
        if (d->range)
            pk_buf_printf(f, ",,,,,,,%.6f,%.6f,%.6f,%u,%.6f,%s,%d%s\n", r->weight_a, r->weight_b,
                          r->delta, r->frame, r->mean, only_text(r->only_in), r->differs, tail);
        else
            pk_buf_printf(f, ",,,,,,,%.6f,%.6f,%.6f,,,%s,%d%s\n", r->weight_a, r->weight_b,
                          r->delta, only_text(r->only_in), r->differs, tail);
    }
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        pk_buf_puts(f, "scene,");
        pki_csv_field(f, r->name);
        if (d->range)
            pk_buf_printf(f, ",,,%u,%.6f,,,,,%.6f,,,%s,%d%s\n", r->frame, r->mean, r->delta,
                          only_text(r->only_in), r->differs, tail);
        else
            pk_buf_printf(f, ",,,,,,,,,%.6f,,,%s,%d%s\n", r->delta, only_text(r->only_in),
                          r->differs, tail);
    }
    for (size_t i = 0; groups && i < dr->ngroups; i++) {
        const pk_diff_group *g = &dr->groups[i];
        pk_buf_puts(f, "group,@");
        pki_csv_field(f, g->name);
        if (d->range)
            pk_buf_printf(f, ",%.6f,%.6f,%u,,,,,,,,,,%d,%zu,%zu,", group_deg(g), g->max_pos,
                          g->top ? g->top->angle_frame : 0, g->bones_differ > 0, g->bones,
                          g->bones_differ);
        else
            pk_buf_printf(f, ",%.6f,%.6f,,,,,,,,,,,%d,%zu,%zu,", group_deg(g), g->max_pos,
                          g->bones_differ > 0, g->bones, g->bones_differ);
        if (g->top) /* the bone the table shows in brackets, JSON's max_bone */
            pki_csv_field(f, g->top->name);
        pk_buf_putc(f, '\n');
    }
}

/* ---- JSON (one line) ---- */

/* The end of a row (bone, morph, scene channel): where it is found when
 * on one side only, whether it differs, and the closing brace. */
static void j_row_end(pki_json *j, int only_in, bool differs)
{
    if (only_in)
        pki_json_kstr(j, "only_in", only_text(only_in));
    pki_json_kbool(j, "differs", differs);
    pki_json_close(j, '}');
}

/* A member holding a number rounded to 6 decimals. */
static void j_num6(pki_json *j, const char *k, double v)
{
    pki_json_knum(j, k, pki_round6(v));
}

/* The start of a row: a new item, its brace and its name. */
static void j_row_begin(pki_json *j, const char *name)
{
    pki_json_item(j);
    pki_json_open(j, '{');
    pki_json_kstr(j, "name", name);
}

/* A morph's or scene channel's worst frame and mean over a range. */
static void j_range(pki_json *j, const pk_diff *d, uint32_t frame, double mean)
{
    if (!d->range)
        return;
    pki_json_kint(j, "frame", frame);
    j_num6(j, "mean", mean);
}

static void json_groups(const diff_result *dr, pki_json *j)
{
    const pk_diff *d = dr->diff;
    pki_json_open(j, '[');
    for (size_t i = 0; i < dr->ngroups; i++) {
        const pk_diff_group *g = &dr->groups[i];
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_key(j, "name");
        pk_buf_puts(j->b, "\"@");
        pki_json_body(j->b, g->name);
        pk_buf_putc(j->b, '"');
        pki_json_kint(j, "bones", (long long)g->bones);
        pki_json_kint(j, "bones_differ", (long long)g->bones_differ);
        j_num6(j, "max_angle_deg", group_deg(g));
        pki_json_kstr(j, "max_bone", g->top ? g->top->name : NULL);
        if (d->range) {
            pki_json_key(j, "max_frame");
            if (g->top)
                pk_buf_printf(j->b, "%u", g->top->angle_frame);
            else
                pk_buf_puts(j->b, "null");
        }
        j_num6(j, "max_pos_delta", g->max_pos);
        pki_json_kbool(j, "differs", g->bones_differ > 0);
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
}

static void json_rows(const pk_diff *d, pki_json *j)
{
    pki_json_key(j, "bones");
    pki_json_open(j, '[');
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        j_row_begin(j, r->name);
        j_num6(j, "angle_deg", r->angle_deg);
        j_num6(j, "pos_delta", r->pos_delta);
        if (d->range) {
            pki_json_kint(j, "angle_frame", r->angle_frame);
            j_num6(j, "angle_mean", r->angle_mean);
            pki_json_kint(j, "pos_frame", r->pos_frame);
            j_num6(j, "pos_mean", r->pos_mean);
        }
        j_row_end(j, r->only_in, r->differs);
    }
    pki_json_close(j, ']');
    pki_json_key(j, "morphs");
    pki_json_open(j, '[');
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        j_row_begin(j, r->name);
        j_num6(j, "weight_a", r->weight_a);
        j_num6(j, "weight_b", r->weight_b);
        j_num6(j, "delta", r->delta);
        j_range(j, d, r->frame, r->mean);
        j_row_end(j, r->only_in, r->differs);
    }
    pki_json_close(j, ']');
    if (!d->nscene) /* only when A or B keys a camera, light or shadow */
        return;
    pki_json_key(j, "scene");
    pki_json_open(j, '[');
    for (size_t i = 0; i < d->nscene; i++) {
        const pk_diff_scene *r = &d->scene[i];
        j_row_begin(j, r->name);
        pki_json_kstr(j, "unit", r->unit);
        j_num6(j, "delta", r->delta);
        j_range(j, d, r->frame, r->mean);
        j_row_end(j, r->only_in, r->differs);
    }
    pki_json_close(j, ']');
}

static void json(const pk_step *s, const diff_result *dr, pk_buf *f)
{
    const diff_opts *o = s->o;
    const pk_diff *d = dr->diff;
    pki_json j = pki_json_begin(f, false);
    pki_json_open(&j, '{');
    pki_json_kstr(&j, "a", s->inputs[0]);
    pki_json_kstr(&j, "b", s->inputs[1]);
    if (o->vs_model) {
        /* in the world: the models A and B were played on, without which
         * the angles and distances below mean nothing */
        pki_json_key(&j, "models");
        pki_json_open(&j, '{');
        pki_json_kstr(&j, "a", o->model_name);
        pki_json_kstr(&j, "b", o->vs_model_name);
        pki_json_close(&j, '}');
    }
    if (d->range) {
        pki_json_key(&j, "frames");
        pk_buf_printf(f, "[%u,%u]", d->first, d->last);
    } else {
        pki_json_kint(&j, "frame", o->frame);
    }
    pki_json_key(&j, "thresholds");
    pki_json_open(&j, '{');
    pki_json_knum(&j, "deg", o->threshold);
    pki_json_knum(&j, "pos", o->pos_threshold);
    pki_json_knum(&j, "morph", 0.0001);
    pki_json_close(&j, '}');
    json_rows(d, &j);
    if (o->groups) {
        pki_json_key(&j, "groups");
        json_groups(dr, &j);
    }
    double max = 0.0;
    for (size_t i = 0; i < d->nbones; i++)
        if (d->bones[i].angle_deg > max)
            max = d->bones[i].angle_deg;
    pki_json_key(&j, "summary");
    pki_json_open(&j, '{');
    pki_json_kint(&j, "bones", (long long)d->nbones);
    pki_json_kint(&j, "bones_differ", (long long)d->bones_differ);
    pki_json_kint(&j, "morphs", (long long)d->nmorphs);
    pki_json_kint(&j, "morphs_differ", (long long)d->morphs_differ);
    pki_json_kint(&j, "only_in_a", (long long)d->only_a);
    pki_json_kint(&j, "only_in_b", (long long)d->only_b);
    if (d->nscene) {
        pki_json_kint(&j, "scene", (long long)d->nscene);
        pki_json_kint(&j, "scene_differ", (long long)d->scene_differ);
    }
    j_num6(&j, "max_angle_deg", max);
    pki_json_kbool(&j, "differ", pk_diff_any(d));
    pki_json_close(&j, '}');
    pki_json_close(&j, '}');
    pk_buf_putc(f, '\n');
}

/* ---- the picture ---- */

/* With a model: A's figure with B's underneath, shaded by each bone's
 * rotation difference (engine/ops/skeleton/draw.c), at the diff's frame,
 * or a strip of about 8 figures over its range. */
static int figures(const pk_step *s, const diff_result *dr, pk_buf *out, pk_log *log)
{
    const diff_opts *opt = s->o;
    const pk_diff *d = dr->diff;
    pk_draw_options o;
    memset(&o, 0, sizeof o);
    o.a.model = opt->model;
    o.b.model = opt->vs_model ? opt->vs_model : opt->model;
    o.a.doc = &dr->docs[0];
    o.b.doc = &dr->docs[1];
    o.a.name = s->inputs[0];
    o.b.name = s->inputs[1];
    o.a.model_name = opt->model_name;
    o.b.model_name = opt->vs_model ? opt->vs_model_name : opt->model_name;
    o.frame = opt->frame;
    if (d->range) {
        o.range = true;
        o.first = d->first;
        o.last = d->last;
        o.every = 0; /* about 8 figures */
    }
    o.view = PK_VIEW_FRONT;
    pk_log quiet; /* what the drawing says is said only when it fails */
    pk_log_init(&quiet);
    pk_rules *own;
    o.body = pki_body(NULL, &own);
    pk_drawing *dr_ = pk_draw(&o, &quiet);
    int rc = dr_ ? pk_draw_svg(dr_, out) : -1;
    for (size_t i = 0; !dr_ && i < quiet.count; i++) {
        const pk_diag *g = &quiet.items[i];
        pk_log_add_at(log, g->severity, g->code, g->path, g->offset, g->line, g->col, "%s", g->msg);
    }
    pk_drawing_free(dr_);
    pk_selection_free((pk_selection *)o.body);
    pk_rules_free(own);
    pk_log_free(&quiet);
    return rc;
}

static int svg(const pk_step *s, const diff_result *dr, pk_buf *out, pk_log *log)
{
    const diff_opts *o = s->o;
    const pk_diff *d = dr->diff;
    const char *a = s->inputs[0], *b = s->inputs[1];
    pk_buf pic;
    pk_buf_init(&pic);
    /* in the world the rows are the angles between the bones' lines, as
     * the summary line says, not between the keys' rotations */
    const char *world = o->vs_model ? " in the world" : "";
    size_t tl = strlen(a) + strlen(b) + 80;
    char *title = malloc(tl);
    if (title) {
        if (d->range)
            snprintf(title, tl, "%s vs %s%s, frames %u-%u", a, b, world, d->first, d->last);
        else if (dr->motion_in)
            snprintf(title, tl, "%s vs %s%s, frame %u", a, b, world, o->frame);
        else
            snprintf(title, tl, "%s vs %s%s", a, b, world);
    }
    bool ok = title && pki_diff_svg(d, &dr->opts, title, o->all, &pic) == 0;
    if (ok && o->model) {
        /* the two poses drawn over each other under the table */
        pk_buf fig;
        pk_buf_init(&fig);
        ok = figures(s, dr, &fig, log) == 0 && pki_svg_stack(&pic, &fig, out) == 0;
        pk_buf_free(&fig);
    } else if (ok) {
        pk_buf_append(out, pic.data, pic.len);
    }
    if (!ok)
        pk_error(log, PK_E_NO_MEMORY, "cannot draw the picture");
    free(title);
    pk_buf_free(&pic);
    return ok ? 0 : -1;
}

static int report(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log)
{
    const diff_result *dr = res->own;
    if (!dr || !dr->diff)
        return 1;
    switch (f) {
    case PK_REPORT_JSON:
        json(s, dr, out);
        return 0;
    case PK_REPORT_CSV:
        csv(s, dr, out);
        return 0;
    case PK_REPORT_SVG:
        return svg(s, dr, out, log);
    default:
        table(s, dr, out);
        return 0;
    }
}

static const char HELP[] =
    "usage: posekit diff A B [--frame N | --frames A-B | --frames all]\n"
    "                    [--bones LIST|@GROUP] [--rules R] [--model MODEL]\n"
    "                    [--vs-model MODEL_B]\n"
    "                    [--threshold DEG] [--pos-threshold U] [--json | --csv]\n"
    "                    [--svg FILE] [--all] [--groups] [--no-morphs] [--strict]\n"
    "\n"
    "Compares A and B (each a VPD or a VMD) bone by bone: the rotation\n"
    "difference in degrees (the geodesic angle 2*acos|q1.q2|; q and -q are the\n"
    "same rotation), the translation distance, and each morph's weight\n"
    "difference (B - A).  A bone or morph in one file only is marked as such and\n"
    "measured against the rest pose, which is what the model shows for it (the\n"
    "table lists it when it differs from rest; the summary counts the others).\n"
    "Two motions also compare their camera, light and self-shadow.\n"
    "\n"
    "  --frame N          sample each VMD at frame N (default 0) and compare poses\n"
    "  --frames A-B|all   compare frame by frame over A..B (all: every frame of\n"
    "                     either motion); per bone the maximum, the frame where\n"
    "                     it occurs, and the mean.  A VPD counts as a motion that\n"
    "                     holds its pose\n"
    "  --bones SPEC       only these bones and morphs: comma-separated names, globs\n"
    "                     with one '*', @group (standard groups, or from --rules);\n"
    "                     matching nothing is an error, a name matching nothing\n"
    "                     a warning (both say the nearest name)\n"
    "  --rules R          rule file whose groups --bones may name\n"
    "  --model MODEL      PMX/PMD model whose display frames --bones may name\n"
    "                     as @frame:NAME\n"
    "  --vs-model MODEL_B compare in the world: A played on MODEL, B on MODEL_B\n"
    "                     (a retarget's input and output): per bone both draw,\n"
    "                     the angle between its lines' world directions; hands\n"
    "                     and feet (手首, 中指先, 足首, つま先) also their world\n"
    "                     positions, A's scaled by the legs as retarget scales\n"
    "                     (the distance in B's units); no morphs, no camera\n"
    "  --threshold DEG    a rotation differs above DEG degrees (default 0.01)\n"
    "  --pos-threshold U  a translation differs above U units (default 0.0001);\n"
    "                     morph weights differ above 0.0001\n"
    "  --json, --csv      machine-readable output (every row) instead of the table\n"
    "  --svg FILE         also draw a picture: bars per bone and morph (poses) or\n"
    "                     heatmaps of rows x frames (--frames)\n"
    "  --all              the table lists every bone, not only those that differ\n"
    "  --groups           also sum up per bone group (standard groups and those of\n"
    "                     --rules): how many of its bones differ, and which most\n"
    "  --no-morphs        compare bones only\n"
    "  --strict           treat warnings (duplicate keys, ...) as errors\n"
    "  -h, --help         this text\n"
    "\n"
    "The table is sorted by difference, largest first, and ends with a one-line\n"
    "summary.  Exit status, as diff(1): 0 nothing differs beyond the thresholds,\n"
    "1 something does, 2 error.\n";

const pki_step_def pki_step_diff = {
    .name = "diff",
    .about = "compare two poses or motions bone by bone, in degrees",
    .help = HELP,
    .options = PKI_ROWS(OPTIONS),
    .opts_size = sizeof(diff_opts),
    .init = init,
    .operands = "a,b",
    .too_many = "two files",
    .check = check,
    .run = run,
    .summary = summary,
    .reports = PKI_REPORT(PK_REPORT_TEXT) | PKI_REPORT(PK_REPORT_JSON) | PKI_REPORT(PK_REPORT_CSV) |
               PKI_REPORT(PK_REPORT_SVG),
    .report = report,
    .want = want,
    .makes = pki_makes_report,
    .free_result = free_result,
    .report_exts = ".txt, .json, .csv or .svg (the picture)",
    .cli = {.output = PK_CLI_OUT_NONE,
            .side_option = "svg",
            .side_format = PK_REPORT_SVG,
            .side_what = "an SVG picture",
            .side_exts = ".svg"},
};
