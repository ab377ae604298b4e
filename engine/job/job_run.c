/* job_run.c — a loaded job run (job_load.c reads it): every input and rule
 * file read and checked, every step run through the engine's step layer
 * (engine/step/, the code the command line runs), every output encoded in
 * memory; then pk_job_write puts them all in place or none.
 *
 *   pk_job_run    read every input and rule file, run every step, encode
 *                 every output into memory;
 *   pk_job_write  create missing output folders, write every output to
 *                 its temporary file, then rename them all into place as a
 *                 group (pk_file_commit_all: all or none).
 */
#include "job/job.h"
#include "platform/platform.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- progress ----
 * When the caller's log has a progress callback, pk_job_run puts its own
 * in front for the run's length: the work is told part by part (each
 * input read, each step, each output encoded), "step 2 of 3, smooth:
 * smoothing" with the share of that part done; what the operations of a
 * part report goes through it (the steps' and readers' own logs are given
 * the same callback). */
typedef struct job_progress {
    pk_progress_fn fn; /* the caller's */
    void *ctx;
    char part[160];   /* the part being done */
    char what[240];   /* part: what its operation says */
    const char *said; /* ... the last thing it said (what is rebuilt on a change) */
} job_progress;

static void job_progress_fn(void *ctx, double done, const char *what)
{
    job_progress *p = ctx;
    if (what != p->said) {
        p->said = what;
        snprintf(p->what, sizeof p->what, "%s%s%s", p->part, what && *what ? ": " : "",
                 what ? what : "");
    }
    p->fn(p->ctx, done, p->what);
}

/* A new part of the run begins (nothing when the log shows no progress);
 * doing: what its first frame says the part does ("reading"; "" none), so
 * that frame reads as the ones its operation draws after it. */
static void part(pk_log *log, const char *doing, const char *fmt, ...) PK_PRINTF(3, 4);
static void part(pk_log *log, const char *doing, const char *fmt, ...)
{
    if (log->progress != job_progress_fn)
        return;
    job_progress *p = log->progress_ctx;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->part, sizeof p->part, fmt, ap);
    va_end(ap);
    p->said = NULL;
    job_progress_fn(p, 0.0, doing);
}

/* "OP IN, IN -> OUT: summary" on the job's report (nothing for a step
 * with nothing to say, as the command prints nothing). */
static void report_line(pk_job *j, const pki_job_step *js, const pk_step_result *res)
{
    pk_buf sum;
    pk_buf_init(&sum);
    pk_step_summary(js->step, res, &sum);
    if (sum.len) {
        const char *const *names;
        size_t n = pk_step_inputs(js->step, &names);
        pk_buf_printf(&j->report, "%s ", pk_step_name(js->step));
        for (size_t i = 0; i < n; i++)
            pk_buf_printf(&j->report, "%s%s", i ? ", " : "", names[i]);
        if (js->out)
            pk_buf_printf(&j->report, " -> %s: ", js->out);
        else
            pk_buf_puts(&j->report, ": ");
        pk_buf_append(&j->report, sum.data, sum.len);
        pk_buf_putc(&j->report, '\n');
    }
    pk_buf_free(&sum);
}

/* The documents of a step's inputs (a step that edits its input edits a
 * copy: the pki_job_item stays); *warned += the warnings met reading them.  -1
 * (logged) when one is a report. */
static int gather_docs(const pk_job *j, const pki_job_step *js, pk_doc *docs, size_t *warned,
                       pk_log *log)
{
    const char *const *names;
    size_t n = pk_step_inputs(js->step, &names);
    for (size_t i = 0; i < n; i++) {
        pki_job_item *it = pki_job_find(j, names[i]);
        if (it)
            *warned += it->warnings;
        if (!it || (it->kind != PKI_JOB_MOTION && it->kind != PKI_JOB_POSE)) {
            pk_log_add_at(log, PK_ERROR, PK_E_USAGE, j->path, -1, js->at.line, js->at.col,
                          "%s: '%s' is a report, not a motion or pose", pk_step_name(js->step),
                          names[i]);
            return -1;
        }
        docs[i].format = it->kind == PKI_JOB_MOTION ? PK_FMT_VMD : PK_FMT_VPD;
        bool copy = i == 0 && pk_step_takes_input(js->step);
        docs[i].motion = it->motion && copy ? pk_motion_clone(it->motion) : it->motion;
        docs[i].pose = it->pose && copy ? pk_pose_clone(it->pose) : it->pose;
        if (!docs[i].motion && !docs[i].pose) {
            pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Hands the step the rule sets and models it names (inputs the loader
 * checked); *warned += the warnings met reading them.  -1 (logged) when
 * a model is not one. */
static int give_things(pk_job *j, const pki_job_step *js, const pk_step_need *need, size_t nneed,
                       size_t *warned, pk_log *log)
{
    for (size_t i = 0; i < nneed; i++) {
        if (need[i].kind == PK_NEED_DOC)
            continue;
        if (need[i].kind == PK_NEED_BODIES) {
            /* the built-in bodies, read once for the job */
            pk_log tmp;
            pk_log_init(&tmp);
            if (!j->bodies)
                j->bodies = pk_bodies_load(&tmp);
            for (size_t k = 0; k < tmp.count; k++) {
                const pk_diag *d = &tmp.items[k];
                bool placed = d->placed && d->path;
                pk_log_add_at(log, d->severity, d->code, placed ? d->path : j->path, d->offset,
                              placed ? d->line : js->at.line, placed ? d->col : js->at.col, "%s",
                              d->msg);
            }
            *warned += tmp.warnings;
            pk_log_free(&tmp);
            if (!j->bodies)
                return -1;
            pk_step_give(js->step, i, j->bodies);
            continue;
        }
        pki_job_item *it = pki_job_find(j, need[i].name);
        const void *thing = !it                             ? NULL
                            : need[i].kind == PK_NEED_RULES ? (const void *)it->rules
                                                            : (const void *)it->model;
        if (need[i].kind == PK_NEED_MODEL && !thing) {
            pk_log_add_at(log, PK_ERROR, PK_E_USAGE, j->path, -1, js->at.line, js->at.col,
                          "'%s' is not a model", need[i].name);
            return -1;
        }
        if (it)
            *warned += it->warnings;
        pk_step_give(js->step, i, thing);
    }
    return 0;
}

/* What the step said, moved to the job's log: messages without a place
 * of their own get the step's JOB:LINE:COL; one about an input or model
 * by its job name is at the step, naming it. */
static void relog_step(const pk_job *j, const pki_job_step *js, const pk_step_need *need,
                       size_t nneed, pk_log *tmp, pk_log *log)
{
    for (size_t i = 0; i < tmp->count; i++) {
        const pk_diag *d = &tmp->items[i];
        bool about_input = false;
        for (size_t k = 0; d->path && d->offset < 0 && d->line <= 0 && k < nneed; k++)
            about_input = about_input ||
                          (need[k].kind != PK_NEED_RULES && strcmp(d->path, need[k].name) == 0);
        if (about_input) {
            pk_log_add_at(log, d->severity, d->code, j->path, -1, js->at.line, js->at.col, "%s: %s",
                          d->path, d->msg);
            continue;
        }
        bool placed = d->path || d->offset >= 0 || d->line > 0;
        pk_log_add_at(log, d->severity, d->code, placed ? d->path : j->path, d->offset,
                      placed ? d->line : js->at.line, placed ? d->col : js->at.col, "%s", d->msg);
    }
    if (tmp->errors + tmp->warnings > tmp->count && tmp->errors > 0)
        pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
}

/* The step's result into its pki_job_item: a report kept whole, a document
 * taken out of it. */
static void keep_result(pki_job_item *res_item, pk_step_result **res)
{
    if (res_item->is_report) {
        res_item->kind = PKI_JOB_REPORT;
        res_item->report = *res;
        *res = NULL;
        return;
    }
    res_item->kind = (*res)->out.motion ? PKI_JOB_MOTION : PKI_JOB_POSE;
    res_item->vpd = (*res)->vpd;
    res_item->motion = (*res)->out.motion;
    res_item->pose = (*res)->out.pose;
    (*res)->out.motion = NULL;
    (*res)->out.pose = NULL;
}

/* The kind of the last diagnostic of severity sev in log, or none. */
static pk_diag_code last_code(const pk_log *log, pk_severity sev, pk_diag_code none)
{
    for (size_t i = log->count; i-- > 0;)
        if (log->items[i].severity == sev)
            return log->items[i].code;
    return none;
}

static int run_step(pk_job *j, const pki_job_step *js, pk_log *log)
{
    pki_job_item *res_item = js->out ? pki_job_find(j, js->out) : NULL;
    const char *const *names;
    size_t n = pk_step_inputs(js->step, &names);
    size_t nneed = pk_step_needs(js->step, NULL, 0);
    pk_doc *docs = calloc(n ? n : 1, sizeof *docs);
    pk_step_need *need = calloc(nneed ? nneed : 1, sizeof *need);
    pk_step_result *res = calloc(1, sizeof *res);
    int rc = -1;
    size_t warned = 0; /* warnings met reading the step's inputs, rules and models */
    if (!docs || !need || !res || (js->out && !res_item)) {
        pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
        goto done;
    }
    pk_step_needs(js->step, need, nneed);
    if (gather_docs(j, js, docs, &warned, log) != 0 ||
        give_things(j, js, need, nneed, &warned, log) != 0)
        goto done;
    pk_log tmp;
    pk_log_init(&tmp);
    pk_log_set_progress(&tmp, log->progress, log->progress_ctx);
    int ran = pk_step_run(js->step, docs, n, res, &tmp);
    /* strict: a warning reading its inputs or model, or running it, fails
     * the step (the command's --strict), said after the step's warnings
     * as the command says it */
    size_t nwarn = warned + tmp.warnings;
    bool strict_fails = ran == 0 && pk_step_strict(js->step) && nwarn;
    /* of the kind of the step's last warning (its inputs' are about what
     * was read in them) */
    pk_diag_code strict_code = last_code(&tmp, PK_WARNING, PK_E_DAMAGED);
    relog_step(j, js, need, nneed, &tmp, log);
    pk_log_free(&tmp);
    if (strict_fails) {
        pk_log_add_at(log, PK_ERROR, strict_code, j->path, -1, js->at.line, js->at.col,
                      "%s: strict: %zu warning%s (reading its inputs or running it) %s",
                      pk_step_name(js->step), nwarn, nwarn == 1 ? "" : "s",
                      nwarn == 1 ? "is an error" : "are errors");
        ran = -1;
    }
    if (ran != 0)
        goto done;
    report_line(j, js, res);
    if (res_item) /* a report without out: its line on the run's report is all */
        keep_result(res_item, &res);
    rc = 0;
done:
    if (docs && n && pk_step_takes_input(js->step))
        pk_doc_free(&docs[0]); /* a copy (or zeroed when the step took it) */
    free(docs);
    free(need);
    pk_step_result_free(res);
    free(res);
    if (rc != 0) {
        pk_log_add_at(log, PK_ERROR, last_code(log, PK_ERROR, PK_E_USAGE), j->path, -1, js->at.line,
                      js->at.col, "step %s -> %s failed", pk_step_name(js->step),
                      js->out ? js->out : "(no out)");
        if (res_item)
            pki_job_item_clear(res_item);
    }
    return rc;
}

/* A group's messages moved to the job's log as relog_step does, each
 * about a member's input or model placed at that member's step. */
static void relog_group(const pk_job *j, const pki_job_step *js, size_t n, pk_step_need **need,
                        const size_t *nneed, pk_log *tmp, pk_log *log)
{
    for (size_t i = 0; i < tmp->count; i++) {
        const pk_diag *d = &tmp->items[i];
        size_t at = 0;
        for (size_t m = 0; d->path && d->offset < 0 && d->line <= 0 && m < n && !at; m++)
            for (size_t k = 0; k < nneed[m] && !at; k++)
                if (need[m][k].kind != PK_NEED_RULES && strcmp(d->path, need[m][k].name) == 0)
                    at = m + 1;
        pk_log one;
        pk_log_init(&one);
        pk_log_add_at(&one, d->severity, d->code, d->path, d->offset, d->line, d->col, "%s",
                      d->msg);
        if (one.count)
            one.items[0].placed = d->placed;
        relog_step(j, &js[at ? at - 1 : 0], at ? need[at - 1] : NULL, at ? nneed[at - 1] : 0, &one,
                   log);
        pk_log_free(&one);
    }
    if (tmp->errors + tmp->warnings > tmp->count && tmp->errors > 0)
        pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
}

/* "retarget dancers -> a, b: LINE" for each of the group's own lines. */
static void group_lines(pk_job *j, const pki_job_step *js, size_t n, pk_step *const *steps,
                        const pk_step_result *res)
{
    pk_buf sum;
    pk_buf_init(&sum);
    pk_step_group_summary(steps, n, res, &sum);
    pk_buf_putc(&sum, 0);
    const char *p = sum.oom ? NULL : (const char *)sum.data;
    while (p && *p) {
        size_t len = strcspn(p, "\n");
        pk_buf_printf(&j->report, "%s %s ->", pk_step_name(steps[0]),
                      pk_step_group_name(steps[0], false));
        for (size_t k = 0; k < n; k++)
            pk_buf_printf(&j->report, "%s %s", k ? "," : "", js[k].out);
        pk_buf_printf(&j->report, ": %.*s\n", (int)len, p);
        p += len + (p[len] == '\n');
    }
    pk_buf_free(&sum);
}

/* A group's members (js[0..n), the first with group n) run together. */
static int run_group(pk_job *j, const pki_job_step *js, size_t n, pk_log *log)
{
    pk_step **steps = calloc(n, sizeof *steps);
    pk_doc **docs = calloc(n, sizeof *docs);
    pk_step_need **need = calloc(n, sizeof *need);
    size_t *nneed = calloc(n, sizeof *nneed);
    pk_step_result *res = calloc(n, sizeof *res);
    int rc = -1;
    size_t warned = 0;
    bool strict = false;
    if (!steps || !docs || !need || !nneed || !res) {
        pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        const char *const *names;
        steps[k] = js[k].step;
        strict |= pk_step_strict(steps[k]);
        size_t ni = pk_step_inputs(steps[k], &names);
        nneed[k] = pk_step_needs(steps[k], NULL, 0);
        docs[k] = calloc(ni ? ni : 1, sizeof *docs[k]);
        need[k] = calloc(nneed[k] ? nneed[k] : 1, sizeof *need[k]);
        if (!docs[k] || !need[k]) {
            pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
            goto done;
        }
        pk_step_needs(steps[k], need[k], nneed[k]);
        if (gather_docs(j, &js[k], docs[k], &warned, log) != 0 ||
            give_things(j, &js[k], need[k], nneed[k], &warned, log) != 0)
            goto done;
    }
    pk_log tmp;
    pk_log_init(&tmp);
    int ran = pk_step_run_group(steps, n, docs, res, &tmp);
    if (ran == 0 && strict && (warned || tmp.warnings)) {
        pk_diag_code strict_code = last_code(&tmp, PK_WARNING, PK_E_DAMAGED);
        pk_log_add_at(log, PK_ERROR, strict_code, j->path, -1, js->at.line, js->at.col,
                      "%s %s: strict: %zu warning%s (reading their inputs or running them) %s",
                      pk_step_name(steps[0]), pk_step_group_name(steps[0], false),
                      warned + tmp.warnings, warned + tmp.warnings == 1 ? "" : "s",
                      warned + tmp.warnings == 1 ? "is an error" : "are errors");
        ran = -1;
    }
    relog_group(j, js, n, need, nneed, &tmp, log);
    pk_log_free(&tmp);
    if (ran != 0)
        goto done;
    for (size_t k = 0; k < n; k++)
        report_line(j, &js[k], &res[k]);
    group_lines(j, js, n, steps, res);
    for (size_t k = 0; k < n; k++) {
        pki_job_item *it = pki_job_find(j, js[k].out);
        pk_step_result *r = &res[k];
        if (it)
            keep_result(it, &r);
    }
    rc = 0;
done:
    for (size_t k = 0; k < n; k++) {
        if (res)
            pk_step_result_free(&res[k]);
        if (docs && docs[k] && pk_step_takes_input(js[k].step))
            pk_doc_free(&docs[k][0]);
        if (docs)
            free(docs[k]);
        if (need)
            free(need[k]);
    }
    if (rc != 0)
        pk_log_add_at(log, PK_ERROR, last_code(log, PK_ERROR, PK_E_USAGE), j->path, -1, js->at.line,
                      js->at.col, "step %s (%s) failed", pk_step_name(js[0].step),
                      pk_step_group_name(js[0].step, false));
    free(steps);
    free(docs);
    free(need);
    free(nneed);
    free(res);
    return rc;
}

/* The format output i is written in when it holds a `kind`: its name's,
 * or a device's (what it is given). */
static pk_format output_format(const pki_job_out *os, pki_job_kind kind)
{
    if (!os->device)
        return os->fmt;
    return kind == PKI_JOB_MOTION ? PK_FMT_VMD : kind == PKI_JOB_POSE ? PK_FMT_VPD : PK_FMT_UNKNOWN;
}

/* Can output i hold a `kind` (a report made by step `by`)?  An error at
 * the output's path in the job file when not.  Checked before any step
 * runs (with the kinds the steps will make) and again when encoding. */
static bool output_fits(const pk_job *j, size_t i, pki_job_kind kind, const pk_step *by,
                        pk_log *log)
{
    const pk_job_output *o = &j->outs[i];
    const pki_job_out *os = &j->ospec[i];
    char why[512];
    const char *what = NULL;
    if (kind == PKI_JOB_MOTION && os->frame_set && os->fmt == PK_FMT_VMD) {
        snprintf(why, sizeof why,
                 "%s: '%s' is a motion: frame applies to a pose written as .vmd (a motion keeps "
                 "its keys' frames)",
                 o->path, o->name);
        what = why;
    } else if (kind == PKI_JOB_MOTION || kind == PKI_JOB_POSE || kind == PKI_JOB_REPORT) {
        pk_format holds = kind == PKI_JOB_MOTION ? PK_FMT_VMD
                          : kind == PKI_JOB_POSE ? PK_FMT_VPD
                                                 : PK_FMT_UNKNOWN;
        pk_format fmt = output_format(os, kind);
        int report = fmt == PK_FMT_UNKNOWN ? (int)os->report : -1;
        what = pk_output_refusal(holds, by, fmt, report, o->path, o->name, why, sizeof why);
    }
    if (!what)
        return true;
    pk_log_add_at(log, PK_ERROR, PK_E_USAGE, j->path, -1, os->path_at.line, os->path_at.col, "%s",
                  what);
    return false;
}

/* Every output against what its name will hold, before any step runs:
 * inputs as read, step results as pk_step_makes says, in step order. */
static int check_outputs(const pk_job *j, pk_log *log)
{
    pki_job_kind *kind = calloc(j->nitems + 1, sizeof *kind);
    if (!kind) {
        pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < j->nitems; i++)
        kind[i] = j->items[i].kind;
    for (size_t s = 0; s < j->nsteps; s++) {
        const pki_job_step *js = &j->steps[s];
        pki_job_item *res = js->out ? pki_job_find(j, js->out) : NULL;
        if (!res)
            continue;
        const char *const *names;
        size_t n = pk_step_inputs(js->step, &names);
        pki_job_item *first = n ? pki_job_find(j, names[0]) : NULL;
        pki_job_kind in = first ? kind[first - j->items] : PKI_JOB_NONE;
        size_t r = (size_t)(res - j->items);
        if (in != PKI_JOB_MOTION && in != PKI_JOB_POSE) {
            kind[r] = PKI_JOB_NONE; /* a step on a report fails when it runs, saying so */
            continue;
        }
        pk_format makes = pk_step_makes(js->step, in == PKI_JOB_POSE ? PK_FMT_VPD : PK_FMT_VMD);
        kind[r] = makes == PK_FMT_VMD   ? PKI_JOB_MOTION
                  : makes == PK_FMT_VPD ? PKI_JOB_POSE
                                        : PKI_JOB_REPORT;
    }
    int rc = 0;
    for (size_t i = 0; i < j->nouts; i++) {
        pki_job_item *it = pki_job_find(j, j->outs[i].name);
        if (it && !output_fits(j, i, kind[it - j->items], it->by, log))
            rc = -1;
    }
    free(kind);
    return rc;
}

static int encode(pk_job *j, size_t i, pk_log *log)
{
    pk_job_output *o = &j->outs[i];
    const pki_job_out *os = &j->ospec[i];
    pki_job_item *it = pki_job_find(j, o->name);
    int rc = -1;
    if (it && !output_fits(j, i, it->kind, it->by, log))
        return -1;
    size_t from = log->count; /* what encoding says is about the output */
    if (!it) {
        pk_error(log, PK_E_NOT_FOUND, "'%s' is not defined", o->name);
    } else if (it->kind == PKI_JOB_REPORT) {
        rc = pk_step_report(it->by, it->report, os->report, &o->data, log);
        /* what the command says beside such a file (check's rules without
         * a rule) is a line of the run's report */
        pk_buf note;
        pk_buf_init(&note);
        if (rc == 0 && pk_step_report_note(it->by, it->report, os->report, &note) == 0 && note.len)
            pk_buf_printf(&j->report, "%s: %.*s\n", o->path, (int)note.len,
                          (const char *)note.data);
        j->report.oom |= note.oom;
        pk_buf_free(&note);
    } else {
        /* the step's layout (a VPD input's own, convert's layout:) unless
         * the output names one */
        pk_encode_options eo = {os->frame, it->vpd};
        if (os->layout_set)
            eo.vpd.layout = os->vpd.layout;
        if (os->no_morphs_set)
            eo.vpd.no_morphs = os->vpd.no_morphs;
        pk_doc d = {it->kind == PKI_JOB_MOTION ? PK_FMT_VMD : PK_FMT_VPD, it->motion, it->pose};
        rc = pk_doc_encode(&d, output_format(os, it->kind), &eo, pk_buf_sink, &o->data, log);
    }
    if (rc == 0 && o->data.oom) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    pk_log_place(log, from, o->path);
    return rc;
}

/* Reads one input or rule file.  What is said about the file has its
 * place in it (byte offset, line); what has none ("cannot open", "is a
 * directory") is about the entry that names it, so it gets the entry's
 * JOB:LINE:COL, naming the input and its path. */
static int load_item(pk_job *j, pki_job_item *it, pk_log *log)
{
    pk_log tmp;
    pk_log_init(&tmp);
    pk_log_set_progress(&tmp, log->progress, log->progress_ctx);
    int rc = 0;
    if (it->is_rules) {
        it->rules = pk_rules_load_in(j->dir, it->written, &tmp);
        rc = it->rules ? 0 : -1;
    } else if (it->is_model) {
        it->model = pk_model_load(it->path, &tmp);
        rc = it->model ? 0 : -1;
        if (it->model)
            it->kind = PKI_JOB_MODEL;
    } else {
        pk_doc doc;
        rc = pk_doc_load(it->path, &doc, &tmp);
        if (rc == 0) {
            it->kind = doc.motion ? PKI_JOB_MOTION : PKI_JOB_POSE;
            if (doc.pose)
                it->vpd.layout = doc.pose->layout;
            it->motion = doc.motion;
            it->pose = doc.pose;
        }
    }
    it->warnings = tmp.warnings;
    for (size_t i = 0; i < tmp.count; i++) {
        const pk_diag *d = &tmp.items[i];
        if (d->severity == PK_ERROR && d->offset < 0 && d->line <= 0) {
            pk_log_add_at(log, d->severity, d->code, j->path, -1, it->path_at.line, it->path_at.col,
                          "%s '%s' (%s): %s", it->is_rules ? "rules" : "input", it->name,
                          d->path ? d->path : it->path, d->msg);
            continue;
        }
        pk_log_add_at(log, d->severity, d->code, d->path, d->offset, d->line, d->col, "%s", d->msg);
    }
    if (tmp.errors + tmp.warnings > tmp.count && tmp.errors > 0)
        pk_log_add_at(log, PK_ERROR, PK_E_NO_MEMORY, j->path, -1, 0, 0, "out of memory");
    pk_log_free(&tmp);
    return rc;
}

/* pk_job_run's work, told part by part. */
static int run_all(pk_job *j, pk_log *log)
{
    /* Phase 1: every input and rule file, read and checked. */
    int rc = 0;
    for (size_t i = 0; i < j->nitems; i++) {
        if (!j->items[i].path)
            continue;
        part(log, "reading", "%s '%s'", j->items[i].is_rules ? "rules" : "input", j->items[i].name);
        if (load_item(j, &j->items[i], log) != 0)
            rc = -1;
    }
    if (rc != 0)
        return -1;
    /* Every output against what it will hold, before any step runs (the
     * command refuses -o OUT.vpd for a motion before it reads a key). */
    if (check_outputs(j, log) != 0)
        return -1;
    /* Phase 2: the steps, in order. */
    for (size_t s = 0; s < j->nsteps; s++) {
        size_t g = j->steps[s].group;
        const char *group = g ? pk_step_group_name(j->steps[s].step, false) : NULL;
        part(log, "", "step %zu of %zu, %s%s%s%s", s + 1, j->nsteps, pk_step_name(j->steps[s].step),
             group ? " (" : "", group ? group : "", group ? ")" : "");
        if (g ? run_group(j, &j->steps[s], g, log) != 0 : run_step(j, &j->steps[s], log) != 0)
            return -1;
        s += g ? g - 1 : 0;
    }
    /* Phase 3: every output encoded in memory. */
    for (size_t i = 0; i < j->nouts; i++) {
        part(log, "writing", "output '%s'", j->outs[i].name);
        if (encode(j, i, log) != 0)
            return -1;
    }
    return 0;
}

int pk_job_run(pk_job *j, pk_log *log)
{
    job_progress jp;
    memset(&jp, 0, sizeof jp);
    jp.fn = log->progress;
    jp.ctx = log->progress_ctx;
    if (jp.fn)
        pk_log_set_progress(log, job_progress_fn, &jp);
    int rc = run_all(j, log);
    pk_log_set_progress(log, jp.fn, jp.ctx);
    if (rc != 0)
        return -1;
    pk_buf_putc(&j->report, 0);
    if (j->report.oom) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    j->ran = true;
    return 0;
}

const pk_job_output *pk_job_outputs(const pk_job *j, size_t *n)
{
    *n = j->nouts;
    return j->outs;
}

const char *pk_job_report(const pk_job *j)
{
    return j->ran && j->report.data ? (const char *)j->report.data : "";
}

/* mkdir -p of the folder holding path. */
/* Makes the folders above path that are missing; *made: the highest one
 * made (malloc'd) or NULL, to take them away again if the job fails. */
static int make_parents(const char *path, char **made, pk_log *log)
{
    *made = NULL;
    size_t n = pki_os_dir_len(path);
    if (n == 0)
        return 0;
    char *dir = pki_os_dir_of(path);
    if (!dir) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc = pki_os_make_dirs(dir, made, log);
    free(dir);
    return rc;
}

/* Takes away the folders make_parents made for every output, deepest
 * first (each only when empty: nothing was written in them). */
static void unmake_parents(const pk_job *j, char **made)
{
    for (size_t i = j->nouts; i-- > 0;) {
        char *dir = made[i] ? pki_os_dir_of(j->outs[i].path) : NULL;
        if (dir)
            pki_os_unmake_dirs(dir, made[i]);
        free(dir);
        free(made[i]);
    }
}

int pk_job_check_write(const pk_job *j, pk_log *log)
{
    int rc = 0;
    for (size_t i = 0; i < j->nouts; i++) {
        int err = pki_os_folder_writable(j->outs[i].path);
        if (err) {
            const pki_job_out *os = &j->ospec[i];
            pk_log_add_at(log, PK_ERROR, PK_E_IO, j->path, -1, os->path_at.line, os->path_at.col,
                          "%s: cannot write in its folder: %s", j->outs[i].path,
                          pki_os_error_text(err));
            rc = -1;
        }
    }
    return rc;
}

int pk_job_write(const pk_job *j, pk_log *log)
{
    if (!j->ran) {
        pk_error(log, PK_E_USAGE, "the job has not run (or failed): nothing to write");
        return -1;
    }
    pk_staged **st = calloc(j->nouts ? j->nouts : 1, sizeof *st);
    char **made = calloc(j->nouts ? j->nouts : 1, sizeof *made);
    if (!st || !made) {
        free(st);
        free(made);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < j->nouts && rc == 0; i++)
        rc = make_parents(j->outs[i].path, &made[i], log);
    /* Every output goes to its temporary file first; only when all of them
     * are written and fsync'd are they renamed into place, as a group: a
     * full disk, an unwritable target or a failed rename leaves every
     * target as it was, and the folders made for them are taken away. */
    size_t i = 0;
    for (; i < j->nouts && rc == 0; i++)
        if (!(st[i] =
                  pk_file_stage(j->outs[i].path, j->outs[i].data.data, j->outs[i].data.len, log)))
            rc = -1;
    if (rc == 0) {
        rc = pk_file_commit_all(st, j->nouts, log);
    } else {
        while (i-- > 0)
            pk_file_discard(st[i]);
    }
    if (rc != 0)
        unmake_parents(j, made);
    else
        for (i = 0; i < j->nouts; i++)
            free(made[i]);
    free(made);
    free(st);
    return rc;
}
