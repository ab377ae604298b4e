/* job_each.c — one job over many files (doc/jobs.md "Many files at once").
 *
 *   pk_job_batch_load  the files a pattern names (pki_os_glob), the job
 *                      loaded once per file (job_load.c: the input
 *                      "{each}" is the file, "{stem}" in output paths its
 *                      stem), then every output of every file checked
 *                      against every other's and against every file:
 *                      two files never write one output, and no output
 *                      lands on a file of the batch;
 *   pk_job_batch_run   each file's job run and written on its own
 *                      (job_run.c: all its outputs or none), the largest
 *                      file first, on up to N threads (pki_os_parallel);
 *                      its documents released once written; what each
 *                      said handed to the caller whole, in input order.
 */
#include "job/job.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One file of the batch: its job and what its run said. */
typedef struct each_file {
    pk_job *job;
    pk_log log;
    uint64_t size; /* the input's size: the largest run first */
    size_t *bytes; /* each output's size, once written */
    bool ok, finished;
} each_file;

struct pk_job_batch {
    char *job_path;
    char **inputs; /* the files, sorted (pki_os_glob) */
    size_t n;
    each_file *files;
    size_t *order; /* the files by size, largest first: the order they run in */
    bool ran;
    /* while running */
    pk_job_batch_options opts;
    pk_job_batch_fn done;
    void *ctx;
    size_t next_out; /* the first file not yet handed to done */
    size_t failed;
    size_t finished; /* files run so far */
    char what[64];   /* "N of M files" */
};

/* The diagnostics of from appended to to (only its errors when
 * errors_only); from is freed. */
static void move_diags(pk_log *from, pk_log *to, bool errors_only)
{
    for (size_t i = 0; i < from->count; i++) {
        const pk_diag *d = &from->items[i];
        if (!errors_only || d->severity == PK_ERROR)
            pk_log_add_at(to, d->severity, d->code, d->path, d->offset, d->line, d->col, "%s",
                          d->msg);
    }
    if (from->errors > 0 && from->count == 0)
        pk_error(to, PK_E_NO_MEMORY, "out of memory");
    pk_log_free(from);
}

/* Where something of the batch lands: an output of a file, or a file. */
typedef struct target {
    const char *key; /* pki_os_target_key */
    size_t file;
    size_t out; /* the output's index; SIZE_MAX: the file itself */
} target;

static int by_key(const void *pa, const void *pb)
{
    const target *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return a->file < b->file ? -1 : a->file > b->file ? 1 : (a->out > b->out) - (a->out < b->out);
}

/* Two targets of different files with one key: an error at the output's
 * place in the job file. */
static void clash(const pk_job_batch *b, const target *a, const target *c, pk_log *log)
{
    const target *o = c->out != SIZE_MAX ? c : a; /* an output (an input sorts first) */
    const target *other = o == c ? a : c;
    const pk_job *j = b->files[o->file].job;
    const pki_job_out *os = &j->ospec[o->out];
    const char *name = j->outs[o->out].name, *path = j->outs[o->out].path;
    if (other->out == SIZE_MAX)
        pk_log_add_at(log, PK_ERROR, PK_E_USAGE, b->job_path, -1, os->path_at.line, os->path_at.col,
                      "output '%s' of '%s' would be written over '%s', another file of --each "
                      "('%s')",
                      name, b->inputs[o->file], b->inputs[other->file], path);
    else
        pk_log_add_at(log, PK_ERROR, PK_E_USAGE, b->job_path, -1, os->path_at.line, os->path_at.col,
                      "output '%s' would be '%s' for both '%s' and '%s': name it from each file "
                      "(" PKI_JOB_STEM " in its path)",
                      name, path, b->inputs[other->file], b->inputs[o->file]);
}

/* Every output of every file against every other's and against the
 * files: 0, or -1 with the first clash logged. */
static int check_clashes(pk_job_batch *b, pk_log *log)
{
    size_t per = b->files[0].job->nouts, nt = b->n * (per + 1);
    target *t = calloc(nt, sizeof *t);
    char **ikeys = calloc(b->n, sizeof *ikeys);
    int rc = 0;
    if (!t || !ikeys) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++) {
        const pk_job *j = b->files[i].job;
        if (!(ikeys[i] = pki_os_target_key(b->inputs[i]))) {
            pk_error(log, PK_E_NO_MEMORY, "out of memory");
            rc = -1;
            goto done;
        }
        t[k++] = (target){ikeys[i], i, SIZE_MAX};
        for (size_t o = 0; o < j->nouts; o++)
            if (!j->ospec[o].device) /* every file's /dev/null overwrites nothing */
                t[k++] = (target){j->ospec[o].key, i, o};
    }
    qsort(t, k, sizeof *t, by_key);
    for (size_t i = 1; i < k && rc == 0; i++)
        if (strcmp(t[i - 1].key, t[i].key) == 0 && t[i - 1].file != t[i].file) {
            clash(b, &t[i - 1], &t[i], log);
            rc = -1;
        }
done:
    if (ikeys)
        for (size_t i = 0; i < b->n; i++)
            free(ikeys[i]);
    free(ikeys);
    free(t);
    return rc;
}

/* Does file a run before file b?  The larger first; of one size, the
 * first in input order. */
static bool runs_before(const each_file *files, size_t a, size_t b)
{
    if (files[a].size != files[b].size)
        return files[a].size > files[b].size;
    return a < b;
}

/* The order the files run in: the largest first, so that the last file
 * to start is a small one and the threads finish together. */
static int plan_order(pk_job_batch *b, pk_log *log)
{
    if (!(b->order = calloc(b->n, sizeof *b->order))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < b->n; i++) {
        pki_os_kind(b->inputs[i], &b->files[i].size);
        size_t k = i; /* insertion: qsort takes no context */
        while (k > 0 && runs_before(b->files, i, b->order[k - 1])) {
            b->order[k] = b->order[k - 1];
            k--;
        }
        b->order[k] = i;
    }
    return 0;
}

/* A message about the job file (a step's, at its JOB:LINE:COL) or about
 * no file is about this file's run: it names the file, as the messages
 * placed in the file do by their path. */
static void name_the_file(pk_log *log, const char *input)
{
    pk_log named;
    pk_log_init(&named);
    for (size_t i = 0; i < log->count; i++) {
        const pk_diag *d = &log->items[i];
        if (d->path && strcmp(d->path, input) == 0)
            pk_log_add_at(&named, d->severity, d->code, d->path, d->offset, d->line, d->col, "%s",
                          d->msg);
        else
            pk_log_add_at(&named, d->severity, d->code, d->path, d->offset, d->line, d->col,
                          "%s: %s", input, d->msg);
    }
    if (named.count < log->count) { /* out of memory: the messages as they were */
        pk_log_free(&named);
        return;
    }
    pk_log_free(log);
    *log = named;
}

pk_job_batch *pk_job_batch_load(const char *job_path, const char *pattern, pk_log *log)
{
    pk_job_batch *b = calloc(1, sizeof *b);
    if (!b || !(b->job_path = strdup(job_path))) {
        free(b);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    if (pki_os_glob(pattern, &b->inputs, &b->n, log) != 0)
        goto fail;
    if (b->n == 0) {
        pk_error(log, PK_E_NOT_FOUND, "--each '%s' names no file", pattern);
        goto fail;
    }
    if (!(b->files = calloc(b->n, sizeof *b->files))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto fail;
    }
    /* Every file's job is loaded, each into its own log.  The job file's
     * own warnings (an unused input) come once, from the first file whose
     * job loaded.  A job that loads for no file is the job's fault: the
     * first file's messages tell it.  One that fails for some files only
     * (a model among the dances: its input is a model where the steps
     * want a motion) fails for those files: each one's errors name it. */
    size_t loaded = 0;
    for (size_t i = 0; i < b->n; i++) {
        pk_log_init(&b->files[i].log);
        b->files[i].job = pki_job_load_each(job_path, b->inputs[i], &b->files[i].log);
        if (b->files[i].job)
            loaded++;
    }
    bool told = false;
    for (size_t i = 0; i < b->n; i++) {
        pk_log *fl = &b->files[i].log;
        if (b->files[i].job || loaded == 0) {
            if (told) /* the same job file: the same words */
                pk_log_free(fl);
            else
                move_diags(fl, log, false);
            told = true;
        } else {
            name_the_file(fl, b->inputs[i]);
            move_diags(fl, log, true);
        }
        pk_log_init(fl);
    }
    if (loaded < b->n)
        goto fail;
    if (check_clashes(b, log) != 0 || plan_order(b, log) != 0)
        goto fail;
    return b;
fail:
    pk_job_batch_free(b);
    return NULL;
}

size_t pk_job_batch_count(const pk_job_batch *b)
{
    return b->n;
}

const char *pk_job_batch_input(const pk_job_batch *b, size_t i)
{
    return i < b->n ? b->inputs[i] : NULL;
}

/* The kind of the last warning in log. */
static pk_diag_code last_warning(const pk_log *log)
{
    for (size_t i = log->count; i-- > 0;)
        if (log->items[i].severity == PK_WARNING)
            return log->items[i].code;
    return PK_E_DAMAGED;
}

/* What a written file's job holds that its line does not need: every
 * document (inputs, step results) and the outputs' bytes (their sizes
 * kept in f->bytes). */
static void release(each_file *f, pk_log *log)
{
    pk_job *j = f->job;
    if (!(f->bytes = calloc(j->nouts ? j->nouts : 1, sizeof *f->bytes))) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        f->ok = false;
        return;
    }
    for (size_t i = 0; i < j->nouts; i++) {
        f->bytes[i] = j->outs[i].data.len;
        pk_buf_free(&j->outs[i].data);
    }
    for (size_t i = 0; i < j->nitems; i++)
        pki_job_item_clear(&j->items[i]);
}

/* pki_os_parallel's work: the k-th file to run, its job run and written. */
static void run_one(void *ctx, size_t k)
{
    pk_job_batch *b = ctx;
    size_t i = b->order[k];
    each_file *f = &b->files[i];
    int rc = pk_job_run(f->job, &f->log);
    if (rc == 0 && b->opts.strict && f->log.warnings) {
        pk_log_add_at(&f->log, PK_ERROR, last_warning(&f->log), b->inputs[i], -1, 0, 0,
                      "strict: %zu warning%s %s", f->log.warnings, f->log.warnings == 1 ? "" : "s",
                      f->log.warnings == 1 ? "is an error" : "are errors");
        rc = -1;
    }
    if (rc == 0)
        rc = b->opts.dry_run ? pk_job_check_write(f->job, &f->log) : pk_job_write(f->job, &f->log);
    f->ok = rc == 0;
    if (f->ok)
        release(f, &f->log);
    name_the_file(&f->log, b->inputs[i]);
}

/* pki_os_parallel's done (one at a time): the files finished so far
 * handed to the caller in input order, and freed. */
static void hand_over(void *ctx, size_t nth)
{
    pk_job_batch *b = ctx;
    b->files[b->order[nth]].finished = true;
    b->finished++;
    while (b->next_out < b->n && b->files[b->next_out].finished) {
        size_t k = b->next_out++;
        each_file *f = &b->files[k];
        size_t nouts = 0;
        const pk_job_output *outs = pk_job_outputs(f->job, &nouts);
        pk_job_batch_file file = {
            k,        b->inputs[k],     f->ok, &f->log, f->ok ? pk_job_report(f->job) : "", outs,
            f->bytes, f->ok ? nouts : 0};
        if (!f->ok)
            b->failed++;
        if (b->done)
            b->done(b->ctx, &file);
        pk_job_free(f->job);
        f->job = NULL;
        free(f->bytes);
        f->bytes = NULL;
        pk_log_free(&f->log);
        pk_log_init(&f->log);
    }
    if (b->opts.progress) {
        snprintf(b->what, sizeof b->what, "%zu of %zu files", b->finished, b->n);
        b->opts.progress(b->opts.progress_ctx, (double)b->finished / (double)b->n, b->what);
    }
}

size_t pk_job_batch_run(pk_job_batch *b, const pk_job_batch_options *opts, pk_job_batch_fn done,
                        void *ctx)
{
    if (b->ran)
        return b->n;
    b->ran = true;
    b->opts = opts ? *opts : (pk_job_batch_options){0, false, false, NULL, NULL};
    b->done = done;
    b->ctx = ctx;
    unsigned threads = b->opts.threads ? b->opts.threads : pki_os_cpu_count();
    pki_os_parallel(b->n, threads, run_one, hand_over, b);
    return b->failed;
}

void pk_job_batch_free(pk_job_batch *b)
{
    if (!b)
        return;
    for (size_t i = 0; b->files && i < b->n; i++) {
        pk_job_free(b->files[i].job);
        pk_log_free(&b->files[i].log);
        free(b->files[i].bytes);
    }
    free(b->files);
    free(b->order);
    pki_os_free_list(b->inputs, b->n);
    free(b->job_path);
    free(b);
}
