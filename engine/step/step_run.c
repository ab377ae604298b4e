/* step_run.c — running a checked step on loaded documents (posekit.h,
 * "steps"): the one place where each operation meets its options. */
#include "step/step_internal.h"

#include "common/diag_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool selection_filter(void *ctx, const uint8_t *raw, size_t len)
{
    return pk_selection_has(ctx, raw, len);
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
        pk_error(log, "out of memory");
        pk_motion_free(m);
        return NULL;
    }
    return m;
}

/* Messages of an operation about one document name its file: the log's
 * path is that document's while the operation runs (what_about), then
 * the caller's again (restore).  A job re-places them at its step. */
static char *what_about(pk_log *log, const char *name)
{
    char *old = log && log->path ? strdup(log->path) : NULL;
    if (log && name)
        pk_log_set_path(log, name);
    return old;
}

static void restore(pk_log *log, char *old)
{
    if (log)
        pk_log_set_path(log, old);
    free(old);
}

static void take(pk_doc *to, pk_doc *from)
{
    *to = *from;
    memset(from, 0, sizeof *from);
}

/* A copy of the pose whose over-long names are cut for the VMD field
 * (cut_names), or the pose itself; *own is the copy to free. */
static const pk_pose *cut_pose(const pk_step *s, const pk_pose *p, pk_pose **own, pk_log *log)
{
    *own = NULL;
    if (!s->o.cut_names || !p)
        return p;
    *own = pk_pose_clone(p);
    if (!*own) {
        pk_error(log, "out of memory");
        return NULL;
    }
    if (pk_pose_cut_names(*own, log) < 0) {
        pk_pose_free(*own);
        *own = NULL;
        return NULL;
    }
    return *own;
}

static pk_motion *pose_to_vmd(const pk_step *s, const pk_pose *p, uint32_t frame, pk_log *log)
{
    pk_pose *own;
    const pk_pose *use = cut_pose(s, p, &own, log);
    pk_motion *m = use ? pk_pose_to_motion(use, frame, log) : NULL;
    pk_pose_free(own);
    return m;
}

static int run_convert(const pk_step *s, pk_doc *in, pk_step_result *res, pk_log *log)
{
    const pk_step_opts *o = &s->o;
    pk_format to = (pk_format)o->to;
    res->vpd.no_morphs = o->no_morphs;
    res->vpd.layout = in->pose ? in->pose->layout : PK_VPD_TEXT;
    if (pk_step_given(s, "layout"))
        res->vpd.layout = (pk_vpd_layout)o->layout;
    if (in->format == to) {
        if (pk_step_given(s, "frame")) {
            pk_error(log, "%sframe applies only between VPD and VMD", s->prefix);
            return -1;
        }
        take(&res->out, in);
        return 0;
    }
    res->out.format = to;
    char *old = what_about(log, s->inputs[0]);
    if (to == PK_FMT_VPD) {
        /* A pose holds bones and morphs: say what of the motion it cannot
         * hold (a camera-only motion would give an empty pose silently). */
        const pk_motion *m = in->motion;
        char list[160];
        size_t len = 0, parts = 0, keys = 0;
        list[0] = 0;
        for (pk_section sec = PK_SEC_CAMERA; sec <= PK_SEC_SHADOW; sec++) {
            size_t k = pk_motion_count(m, sec);
            keys += k;
            if (k && len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%zu %s key%s",
                                        parts++ ? ", " : "", k, pk_section_word(sec),
                                        k == 1 ? "" : "s");
        }
        if (parts)
            pk_warning(log, "a VPD holds bones and morphs only: the motion's %s %s not in the pose%s",
                       list, keys == 1 ? "is" : "are",
                       m->nbones || m->nmorphs ? "" : ", which is empty");
        res->out.pose = pk_motion_sample(m, NULL, (double)o->frame, log);
    } else /* one key per bone and morph at the frame, linear curves */
        res->out.motion = pose_to_vmd(s, in->pose, o->frame, log);
    restore(log, old);
    return res->out.pose || res->out.motion ? 0 : -1;
}

/* Did a retarget between models change a record (beyond the stance and
 * scale keys its caller counts): a folded track, a key left out? */
static bool retarget_moved(const pk_retarget_report *t)
{
    return t->fold.tracks || t->fold.keys_removed || t->fold.keys_added || t->ndropped;
}

/* A retarget between models that changed nothing says so and why, as a
 * rename or mirror that changes nothing does: a camera-only motion, a
 * target with none of the input's bones, or two models that agree (the
 * same model twice). */
static void unchanged_retarget(const pk_retarget_report *t, const char *what, pk_log *log)
{
    if (!t->bones_keyed)
        pk_warning(log, "nothing to retarget: the %s has no bone keys, the output is the input "
                        "unchanged",
                   what);
    else if (!t->bones_on_target)
        pk_warning(log, "nothing to retarget: the target model has none of the %zu bone%s the %s "
                        "keys, the output is the input unchanged",
                   t->bones_keyed, t->bones_keyed == 1 ? "" : "s", what);
    else
        pk_warning(log, "nothing to retarget: no key changed (the models differ in nothing the "
                        "%s keys), the output is the input unchanged",
                   what);
}

static int run_edit(const pk_step *s, pk_doc *in, const pk_rules *r, pk_step_result *res,
                    pk_log *log)
{
    take(&res->out, in);
    pk_doc *d = &res->out;
    if (d->pose)
        res->vpd.layout = d->pose->layout;
    pk_edit_stats *st = &res->edit;
    char *old = what_about(log, s->inputs[0]);
    int rc;
    switch (s->op) {
    case PK_STEP_RENAME:
        rc = d->motion ? pk_motion_rename(d->motion, r, s->o.reverse, st, log)
                       : pk_pose_rename(d->pose, r, s->o.reverse, st, log);
        break;
    case PK_STEP_MIRROR:
        rc = d->motion ? pk_motion_mirror(d->motion, r, st, log)
                       : pk_pose_mirror(d->pose, r, st, log);
        break;
    default:
        if (!s->o.from) {
            rc = d->motion ? pk_motion_retarget(d->motion, r, st, log)
                           : pk_pose_retarget(d->pose, r, st, log);
            break;
        }
        if (!s->from || !s->to) {
            pk_error(log, "retarget: the models were not loaded");
            rc = -1;
            break;
        }
        /* the models by the names the user gave them (files, or a job's
         * names, which the job places at the step) */
        pk_retarget_options ro = {s->from,      s->to,        s->o.no_stance, s->o.no_scale,
                                  s->o.no_fold, s->o.fingers, s->o.from,      s->o.to_model};
        res->retarget_models = true;
        rc = d->motion ? pk_motion_retarget_models(d->motion, r, &ro, st, &res->retarget, log)
                       : pk_pose_retarget_models(d->pose, r, &ro, st, &res->retarget, log);
        break;
    }
    /* a run that changed nothing says so (a warning: --strict fails it) */
    size_t renamed = st->bones_renamed + st->morphs_renamed + st->ik_renamed;
    if (rc == 0 && s->op == PK_STEP_RENAME && renamed == 0)
        pk_warning(log, "no rename rule matched a bone or morph of the input: the output is "
                        "the input unchanged");
    else if (rc == 0 && (s->op == PK_STEP_MIRROR || (s->op == PK_STEP_RETARGET && !s->o.from)) &&
             renamed == 0 && st->keys_changed == 0 && st->keys_added == 0)
        pk_warning(log, "nothing to %s: no key changed, the output is the input unchanged",
                   pk_step_op_name(s->op));
    else if (rc == 0 && s->op == PK_STEP_RETARGET && renamed == 0 && st->keys_changed == 0 &&
             st->keys_added == 0 && !retarget_moved(&res->retarget))
        unchanged_retarget(&res->retarget, d->motion ? "motion" : "pose", log);
    restore(log, old);
    return rc;
}

static int run_diff(const pk_step *s, const pk_doc *in, const pk_rules *rules, pk_step_result *res,
                    pk_log *log)
{
    res->motion_in = in[0].motion || in[1].motion;
    const pk_step_opts *o = &s->o;
    bool range = pk_step_given(s, "frames");
    bool any_vmd = in[0].motion || in[1].motion;
    if (!any_vmd && (range || pk_step_given(s, "frame"))) {
        pk_error(log, "%s%s applies to VMD inputs; both files are poses", s->prefix,
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
        sel = pk_selection_parse_model(rules, s->model, o->bones, log);
        if (!sel)
            return -1;
        opts.bone_filter = selection_filter;
        opts.filter_ctx = sel;
        opts.filter_spec = o->bones;
    }
    pk_diff *d = NULL;
    if (range) {
        pk_motion *m[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++)
            m[i] = in[i].motion ? in[i].motion : (own[i] = hold_pose(in[i].pose, log));
        uint32_t first = o->first, last = o->last;
        if (o->frames_all) {
            /* every frame of either motion (a pose holds at any frame) */
            bool any = false;
            for (int i = 0; i < 2; i++) {
                uint32_t lo, hi;
                if (in[i].motion && pk_motion_frame_range(in[i].motion, &lo, &hi)) {
                    first = any && first < lo ? first : lo;
                    last = any && last > hi ? last : hi;
                    any = true;
                }
            }
            if (!any)
                first = last = 0;
        }
        opts.bins = s->bins;
        opts.no_scene = !in[0].motion || !in[1].motion; /* a pose has no camera */
        if (m[0] && m[1])
            d = pk_diff_motions(m[0], m[1], first, last, &opts, log);
        pk_motion_free(own[0]);
        pk_motion_free(own[1]);
    } else {
        pk_pose *p[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++)
            p[i] = in[i].pose ? in[i].pose
                              : (own[i] = pk_motion_sample(in[i].motion, NULL, o->frame, log));
        if (p[0] && p[1])
            d = pk_diff_poses(p[0], p[1], &opts, log);
        /* two motions at a frame: their camera, light and shadow too */
        if (d && in[0].motion && in[1].motion && !opts.bone_filter &&
            !pk_diff_add_scene(d, in[0].motion, in[1].motion, o->frame, o->frame, &opts, log)) {
            pk_diff_free(d);
            d = NULL;
        }
        pk_pose_free(own[0]);
        pk_pose_free(own[1]);
    }
    pk_selection_free(sel);
    if (!d)
        return -1;
    pk_diff_sort(d);
    res->diff = d;
    res->diff_opts = opts;
    res->diff_all = o->all;
    res->diff_frame = o->frame;
    res->diff_opts.bone_filter = NULL; /* sel is freed */
    res->diff_opts.filter_ctx = NULL;
    res->diff_opts.filter_spec = NULL;
    if (o->groups) {
        const pk_rules *r = rules;
        if (!r && !(r = res->own_rules = pk_rules_default(log)))
            return -1;
        res->groups = pk_diff_groups(d, r, &res->ngroups, log);
        if (!res->groups)
            return -1;
    }
    return 0;
}

/* Warns about plain names of the selection (not globs or @groups) that
 * neither the pose nor the base holds.  Names the base holds are left to
 * the engine, which warns about every selected base bone the pose lacks. */
static bool has_raw(const pk_names *names, pk_name_id id, const pk_selection *one)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(names, id, &len);
    return pk_selection_has(one, raw, len);
}

/* Whether a bone or morph of d matches. */
static bool doc_holds(const pk_doc *d, const pk_selection *one)
{
    if (d->motion) {
        for (size_t i = 0; i < d->motion->nbones; i++)
            if (has_raw(d->motion->names, d->motion->bones[i].name, one))
                return true;
        for (size_t i = 0; i < d->motion->nmorphs; i++)
            if (has_raw(d->motion->names, d->motion->morphs[i].name, one))
                return true;
        return false;
    }
    for (size_t i = 0; i < d->pose->nbones; i++)
        if (has_raw(d->pose->names, d->pose->bones[i].name, one))
            return true;
    for (size_t i = 0; i < d->pose->nmorphs; i++)
        if (has_raw(d->pose->names, d->pose->morphs[i].name, one))
            return true;
    return false;
}

static void warn_missing_names(const pk_step *s, const pk_doc *base, const pk_pose *pose,
                               pk_log *log)
{
    const char *spec = s->o.bones;
    for (const char *p = spec; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *next = comma ? comma + 1 : p + n;
        while (n && (*p == ' ' || *p == '\t'))
            p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        char *item = n && *p != '@' && !memchr(p, '*', n) ? malloc(n + 1) : NULL;
        if (item) {
            memcpy(item, p, n);
            item[n] = '\0';
            pk_log quiet;
            pk_log_init(&quiet);
            pk_selection *one = pk_selection_parse(NULL, item, &quiet);
            pk_log_free(&quiet);
            if (one) {
                pk_doc pd = {PK_FMT_VPD, NULL, (pk_pose *)pose};
                bool found = doc_holds(&pd, one) || doc_holds(base, one);
                if (!found)
                    pk_log_add_at(log, PK_WARNING, s->inputs[1], -1, 0, 0,
                                  "bone or morph '%s' is not in the pose (nor in the base)",
                                  item);
                pk_selection_free(one);
            }
            free(item);
        }
        p = next;
    }
}

static int run_overlay(const pk_step *s, const pk_doc *in, const pk_rules *rules,
                       pk_step_result *res, pk_log *log)
{
    const pk_step_opts *o = &s->o;
    const pk_doc *base = &in[0], *pd = &in[1];
    char n1[64];
    snprintf(n1, sizeof n1, "%spose%sframe", s->prefix, *s->prefix ? "-" : "_");
    if (pd->pose && pk_step_given(s, "pose_frame")) {
        pk_error(log, "%s applies to a VMD pose only; %s is a VPD", n1, s->inputs[1]);
        return -1;
    }
    if (base->pose && (pk_step_given(s, "frames") || pk_step_given(s, "fade"))) {
        pk_error(log, "%sframes and %sfade do not apply to a VPD base (%s)", s->prefix, s->prefix,
                 s->inputs[0]);
        return -1;
    }
    if (base->pose && pk_step_given(s, "cut_names")) {
        pk_error(log, "%scut%snames applies to a VMD output; the base %s is a VPD", s->prefix,
                 *s->prefix ? "-" : "_", s->inputs[0]);
        return -1;
    }
    pk_pose *own = NULL, *cut = NULL;
    const pk_pose *pose = pd->pose;
    if (!pose)
        pose = own = pk_motion_sample(pd->motion, NULL, (double)o->pose_frame, log);
    if (pose && o->cut_names) { /* the pose's names as a VMD holds them */
        char *old = what_about(log, s->inputs[1]);
        pose = cut_pose(s, pose, &cut, log);
        restore(log, old);
    }
    pk_selection *sel = pose ? pk_selection_parse_model(rules, s->model, o->bones, log) : NULL;
    int rc = -1;
    if (sel) {
        warn_missing_names(s, base, pose, log);
        pk_overlay_options opt;
        memset(&opt, 0, sizeof opt);
        opt.mode = (pk_overlay_mode)o->mode;
        opt.all_frames = o->frames_all;
        opt.first = o->first;
        opt.last = o->last;
        opt.fade = o->fade;
        res->motion_in = base->motion != NULL;
        /* what the engine says is about the pose: what it lacks, what it
         * overlaid */
        char *old = what_about(log, s->inputs[1]);
        if (base->motion) {
            res->out.format = PK_FMT_VMD;
            res->out.motion = pk_overlay_motion(base->motion, pose, sel, &opt, &res->overlay, log);
            rc = res->out.motion ? 0 : -1;
        } else {
            res->out.format = PK_FMT_VPD;
            res->vpd.layout = base->pose->layout;
            res->out.pose = pk_overlay_pose(base->pose, pose, sel, opt.mode, &res->overlay, log);
            rc = res->out.pose ? 0 : -1;
        }
        restore(log, old);
    }
    pk_selection_free(sel);
    pk_pose_free(own);
    pk_pose_free(cut);
    return rc;
}

/* An option given once per input but fewer times than inputs: which
 * inputs it applies to, and which it does not ("--offset given 1 time for
 * 2 inputs: it shifts input 1 (a.vmd); input 2 (b.vmd) is not shifted"). */
static void warn_short(const pk_step *s, pk_log *log, const char *opt, const char *verb,
                       size_t given, const char *rest_one, const char *rest_many)
{
    size_t n = s->ninputs;
    char *const *inputs = s->inputs;
    if (given == 0 || given >= n)
        return;
    char who[256], rest[256];
    if (given == 1)
        snprintf(who, sizeof who, "it %ss input 1 (%s)", verb, inputs[0]);
    else
        snprintf(who, sizeof who, "they %s inputs 1-%zu, the k-th %s%s the k-th input", verb, given,
                 s->prefix, opt);
    if (given + 1 == n)
        snprintf(rest, sizeof rest, "input %zu (%s) %s", n, inputs[n - 1], rest_one);
    else
        snprintf(rest, sizeof rest, "inputs %zu-%zu %s", given + 1, n, rest_many);
    pk_warning(log, "%s%s given %zu time%s for %zu inputs: %s; %s", s->prefix, opt, given,
               given == 1 ? "" : "s", n, who, rest);
}

static int run_merge(const pk_step *s, const pk_doc *in, size_t n, pk_step_result *res, pk_log *log)
{
    const pk_step_opts *o = &s->o;
    pk_merge_input *mi = res->merge_in = calloc(n ? n : 1, sizeof *mi);
    res->prefer = (pk_merge_policy)o->prefer;
    if (!mi) {
        pk_error(log, "out of memory");
        return -1;
    }
    warn_short(s, log, "offset", "shift", o->noffsets, "is not shifted", "are not shifted");
    warn_short(s, log, "sections", "limit", o->nsections, "gives every section",
               "give every section");
    for (size_t i = 0; i < n; i++) {
        mi[i].motion = in[i].motion;
        mi[i].pose = in[i].pose;
        if (in[i].pose && o->cut_names) { /* the pose's names as a VMD holds them */
            char *old = what_about(log, s->inputs[i]);
            pk_pose *c = pk_pose_clone(in[i].pose);
            long cut = c ? pk_pose_cut_names(c, log) : -1;
            restore(log, old);
            if (cut < 0) {
                if (!c)
                    pk_error(log, "out of memory");
                pk_pose_free(c);
                for (size_t k = 0; k < i; k++)
                    if (mi[k].pose != in[k].pose) {
                        pk_pose_free((pk_pose *)mi[k].pose);
                        mi[k].pose = in[k].pose;
                    }
                return -1;
            }
            mi[i].pose = c; /* freed below, after the merge */
        }
        mi[i].offset = i < o->noffsets ? o->offsets[i] : 0;
        mi[i].sections = i < o->nsections ? o->sections[i] : 0;
        mi[i].name = s->inputs[i];
    }
    for (size_t k = 0; k < o->nwithin; k++)
        mi[o->within[k] - 1].within = true;
    res->out.format = PK_FMT_VMD;
    res->out.motion = pk_merge(mi, n, res->prefer, &res->merge, log);
    for (size_t i = 0; i < n; i++)
        if (mi[i].pose != in[i].pose) { /* a copy with its names cut */
            pk_pose_free((pk_pose *)mi[i].pose);
            mi[i].pose = in[i].pose;
        }
    const pk_motion *m = res->out.motion;
    size_t records = 0;
    for (pk_section sec = 0; m && sec < PK_SEC_COUNT; sec++)
        records += pk_motion_count(m, sec);
    if (m && records == 0)
        pk_warning(log, "nothing to merge: %s no record, the output is an empty motion",
                   o->nsections ? "the sections taken from the inputs hold" : "the inputs hold");
    return m ? 0 : -1;
}

/* reduce and bake: a motion in, a motion out. */
static int run_keys(const pk_step *s, const pk_doc *in, const pk_rules *rules, pk_step_result *res,
                    pk_log *log)
{
    const pk_step_opts *o = &s->o;
    const char *cmd = pk_step_op_name(s->op);
    if (!in->motion) {
        pk_error(log, "%s: %s works on a VMD motion (a pose has no keys to %s)", s->inputs[0], cmd,
                 cmd);
        return -1;
    }
    pk_reduce_options opt;
    pk_reduce_options_init(&opt);
    opt.max_deg = o->max_deg;
    opt.max_pos = o->max_pos;
    opt.max_morph = o->max_morph;
    opt.all_frames = o->frames_all;
    opt.first = o->first;
    opt.last = o->last;
    opt.morphs = !o->no_morphs;
    opt.camera = o->camera;
    opt.step = o->step;
    pk_selection *sel = NULL;
    if (o->bones && !(sel = pk_selection_parse(rules, o->bones, log)))
        return -1;
    opt.bones = sel;
    /* what it says about the motion's keys names the input (the caller's
     * path comes back after) */
    char *caller = log->path ? strdup(log->path) : NULL;
    pk_log_set_path(log, s->inputs[0]);
    res->out.format = PK_FMT_VMD;
    res->out.motion = s->op == PK_STEP_REDUCE ? pk_motion_reduce(in->motion, &opt, &res->reduce, log)
                                              : pk_motion_bake(in->motion, &opt, &res->reduce, log);
    /* a run that changed nothing says so, as rename and mirror do (a
     * warning: --strict fails it); a motion whose camera alone could
     * change is told where the camera went */
    const pk_reduce_stats *st = &res->reduce;
    if (res->out.motion && st->bone_tracks + st->morph_tracks + st->camera_tracks == 0) {
        if (!o->camera && in->motion->ncameras > 1)
            pk_warning(log,
                       "nothing to %s: no key changed, the output is the input unchanged; its %zu "
                       "camera keys are left alone without %scamera%s",
                       cmd, in->motion->ncameras, s->prefix, *s->prefix ? "" : ": true");
        else
            pk_warning(log, "nothing to %s: no key changed, the output is the input unchanged",
                       cmd);
    }
    pk_log_set_path(log, caller);
    free(caller);
    pk_selection_free(sel);
    return res->out.motion ? 0 : -1;
}

/* draw: the pose (and the vs pose) on the models the caller loaded, as
 * figures; written later by pk_step_report (SVG or JSON). */
static int run_draw(const pk_step *s, const pk_doc *in, size_t n, const pk_rules *rules,
                    pk_step_result *res, pk_log *log)
{
    const pk_step_opts *o = &s->o;
    bool vs = n > 1 && s->inputs[1];
    const pk_model *mb = s->vs_model ? s->vs_model : s->model;
    if (!s->model || (vs && s->o.vs_model && !s->vs_model)) {
        pk_error(log, "the model '%s' is not loaded",
                 !s->model ? o->model : o->vs_model);
        return -1;
    }
    bool range = pk_step_given(s, "frames");
    bool any_motion = in[0].motion || (vs && in[1].motion);
    if (!any_motion && (range || pk_step_given(s, "frame"))) {
        if (vs)
            pk_error(log, "%s%s applies to a motion (VMD); %s and %s are poses", s->prefix,
                     range ? "frames" : "frame", s->inputs[0], s->inputs[1]);
        else
            pk_error(log, "%s%s applies to a motion (VMD); %s is a pose", s->prefix,
                     range ? "frames" : "frame", s->inputs[0]);
        return -1;
    }
    pk_draw_options d;
    memset(&d, 0, sizeof d);
    d.a.model = s->model;
    d.a.doc = &in[0];
    d.a.name = s->inputs[0];
    d.a.model_name = o->model;
    if (vs) {
        d.b.model = mb;
        d.b.doc = &in[1];
        d.b.name = s->inputs[1];
        d.b.model_name = o->vs_model ? o->vs_model : o->model;
    }
    d.range = range;
    d.frame = o->frame;
    d.first = o->first;
    d.last = o->last;
    d.every = pk_step_given(s, "every") ? o->every : 0; /* 0: about 8 figures */
    if (range && o->frames_all) {
        /* every frame of the motion(s), a figure every K */
        bool any = false;
        for (size_t i = 0; i < (vs ? 2u : 1u); i++) {
            uint32_t lo, hi;
            if (in[i].motion && pk_motion_frame_range(in[i].motion, &lo, &hi)) {
                d.first = any && d.first < lo ? d.first : lo;
                d.last = any && d.last > hi ? d.last : hi;
                any = true;
            }
        }
        if (!any)
            d.first = d.last = 0;
    }
    d.view = (pk_draw_view)o->view;
    pk_selection *sel[2] = {NULL, NULL};
    int rc = -1;
    if (o->bones) {
        sel[0] = pk_selection_parse_model(rules, s->model, o->bones, log);
        if (!sel[0])
            return -1;
        if (vs && !(sel[1] = pk_selection_parse_model(rules, mb, o->bones, log))) {
            pk_selection_free(sel[0]);
            return -1;
        }
    }
    d.bones = sel[0];
    d.bones_spec = o->bones;
    d.vs_bones = sel[1];
    /* the body in colour: the standard groups of the rules (or of the
     * built-in rules) */
    pk_log quiet;
    pk_log_init(&quiet);
    pk_rules *own = rules ? NULL : pk_rules_default(&quiet);
    pk_selection *body = pk_selection_parse(rules ? rules : own,
                                            "@root,@trunk,@head,@arms,@hands,@legs,@ik", &quiet);
    pk_log_free(&quiet);
    d.body = body;
    res->drawing = pk_draw(&d, log);
    rc = res->drawing ? 0 : -1;
    pk_selection_free(body);
    pk_rules_free(own);
    pk_selection_free(sel[0]);
    pk_selection_free(sel[1]);
    return rc;
}

/* check: the input against the model the caller loaded. */
static int run_check(const pk_step *s, const pk_doc *in, pk_step_result *res, pk_log *log)
{
    if (!s->model) {
        pk_error(log, "check: the model '%s' is not loaded", s->o.model);
        return -1;
    }
    res->check = in->motion ? pk_check_motion(s->model, in->motion, log)
                            : pk_check_pose(s->model, in->pose, log);
    if (!res->check)
        return -1;
    res->check_model = s->model;
    res->check_field = in->motion ? PK_VMD_NAME_BYTES : PK_VPD_NAME_BYTES;
    return 0;
}

int pk_step_run(const pk_step *s, pk_doc *in, size_t n, const pk_rules *rules, pk_step_result *res,
                pk_log *log)
{
    memset(res, 0, sizeof *res);
    if (pk_step_check(s, log) != 0)
        return -1;
    if (n != s->ninputs) {
        pk_error(log, "%s: %zu documents for %zu inputs", pk_step_op_name(s->op), n, s->ninputs);
        return -1;
    }
    switch (s->op) {
    case PK_STEP_CONVERT:
        return run_convert(s, in, res, log);
    case PK_STEP_DIFF:
        return run_diff(s, in, rules, res, log);
    case PK_STEP_OVERLAY:
        return run_overlay(s, in, rules, res, log);
    case PK_STEP_MERGE:
        return run_merge(s, in, n, res, log);
    case PK_STEP_REDUCE:
    case PK_STEP_BAKE:
        return run_keys(s, in, rules, res, log);
    case PK_STEP_CHECK:
        return run_check(s, in, res, log);
    case PK_STEP_DRAW:
        return run_draw(s, in, n, rules, res, log);
    default:
        return run_edit(s, in, rules, res, log);
    }
}

void pk_step_result_free(pk_step_result *r)
{
    if (!r)
        return;
    pk_doc_free(&r->out);
    pk_diff_free(r->diff);
    free(r->groups);
    pk_rules_free(r->own_rules);
    pk_retarget_report_free(&r->retarget);
    pk_edit_stats_free(&r->edit);
    pk_merge_report_free(&r->merge);
    free(r->merge_in);
    pk_check_free(r->check);
    pk_drawing_free(r->drawing);
    memset(r, 0, sizeof *r);
}

void pk_step_bins(pk_step *s, size_t bins)
{
    s->bins = bins;
}
