/* cmd_run.c — `posekit run JOB.yaml [--dry-run]`: a pipeline from a file. */
#include "cli.h"
#include "util/number.h"

#include <stdlib.h>
#include <string.h>

const char help_run[] =
    "usage: posekit run JOB.yaml [--dry-run] [--strict] [--quiet] [--each PATTERN [-j|--jobs "
    "N]]\n"
    "\n"
    "Runs a job file: named inputs (VMD, VPD; PMX, PMD and body models), rule\n"
    "files, steps (convert, diff, rename, mirror, retarget, overlay, merge,\n"
    "reduce, bake, time, crossfade, curve, smooth, check, draw: every command\n"
    "but info, dump and run, each with the options of the command of its\n"
    "name) that each make a named result, and outputs that write results to\n"
    "files (motions, poses; diff, check and draw reports).  Paths are relative to\n"
    "the job file.  Every input is read and checked, every step run and every\n"
    "output encoded before the first file is written; outputs are then\n"
    "written atomically (missing folders are created).  Any error writes\n"
    "nothing.  Errors in the job file read JOB:LINE:COL.\n"
    "\n"
    "  --dry-run       do everything except writing; print what would be written\n"
    "  --strict        warnings are errors\n"
    "  --quiet         no progress line (on a terminal, once the run has taken a\n"
    "                  second: the part being done, 'step 2 of 3, smooth:\n"
    "                  smoothing 40%', or with --each the files done so far)\n"
    "  --each PATTERN  run the job once per file PATTERN names ('dances/*.vmd':\n"
    "                  '*' and '?' in the file name): the job's input \"{each}\"\n"
    "                  is the file, \"{stem}\" in its output paths the file's\n"
    "                  name without extension; each file's outputs are\n"
    "                  written together or not at all, and one file failing\n"
    "                  stops no other\n"
    "  -j, --jobs N    with --each: N files at once (default: one per processor)\n"
    "  -h, --help      this text\n"
    "\n"
    "What the steps report (each step's summary line) goes to\n"
    "stdout, followed by one line per output: 'wrote PATH (N bytes)' or\n"
    "'would write PATH (N bytes)', all after the outputs are written.\n"
    "With --each: one line per file, in the pattern's order ('FILE: wrote\n"
    "PATH (N bytes), ...' or 'FILE: failed: REASON', its messages on stderr\n"
    "before it), then 'N files: N written, N failed'; exit status 2 when\n"
    "any failed.\n"
    "Schema and a full example: doc/jobs.md.\n";

/* Runs the one job file given. */
static int run_job(const char *const *files, size_t nfiles, bool dry, bool strict, bool quiet)
{
    const char *path;
    if (cli_one_operand("run", "job file", files, nfiles, &path) != EXIT_OK)
        return EXIT_ERROR;
    pk_log log;
    pk_log_init(&log);
    cli_progress progress;
    if (!quiet)
        cli_progress_start(&progress, "run", &log);
    pk_job *job = pk_job_load(path, &log);
    int rc = EXIT_ERROR;
    if (!job || pk_job_run(job, &log) != 0) {
        cli_flush_log(&log, strict);
        goto done;
    }
    if (cli_flush_log(&log, strict) != EXIT_OK)
        goto done;
    size_t n;
    const pk_job_output *outs = pk_job_outputs(job, &n);
    if (dry ? pk_job_check_write(job, &log) != 0 : pk_job_write(job, &log) != 0) {
        cli_flush_log(&log, false);
        goto done;
    }
    /* the steps' lines after the write, as a command's report after its
     * save: a job that wrote nothing prints no success */
    cli_progress_clear(&log);
    const char *report = pk_job_report(job);
    cli_put_shown(stdout, report, strlen(report));
    for (size_t i = 0; i < n; i++)
        cli_printf_shown(stdout, "%s %s (%zu bytes)\n", dry ? "would write" : "wrote",
                         outs[i].path, outs[i].data.len);
    rc = EXIT_OK; /* main checks that the report reached standard output */
done:
    cli_progress_clear(&log);
    pk_log_free(&log);
    pk_job_free(job);
    return rc;
}

/* --each's per-file line (pk_job_batch_run's callback, one at a time). */
typedef struct each_tally {
    bool dry;
    const pk_log *progress; /* whose line to clear before the file's */
} each_tally;

static void each_line(void *ctx, const pk_job_batch_file *f)
{
    const each_tally *t = ctx;
    cli_progress_clear(t->progress);
    /* the file's messages whole, before its line */
    fflush(stdout);
    cli_print_log(f->log);
    fflush(stderr);
    if (!f->ok) {
        const char *why = "failed";
        for (size_t i = 0; i < f->log->count; i++)
            if (f->log->items[i].severity == PK_ERROR) {
                why = f->log->items[i].msg;
                size_t k = strlen(f->input); /* the file is named once */
                if (strncmp(why, f->input, k) == 0 && strncmp(why + k, ": ", 2) == 0)
                    why += k + 2;
                break;
            }
        cli_printf_shown(stdout, "%s: failed: %s\n", f->input, why);
    } else {
        cli_printf_shown(stdout, "%s: %s ", f->input, t->dry ? "would write" : "wrote");
        for (size_t i = 0; i < f->nouts; i++)
            cli_printf_shown(stdout, "%s%s (%zu bytes)", i ? ", " : "", f->outs[i].path,
                             f->bytes[i]);
        putchar('\n');
    }
    fflush(stdout);
}

/* The job once per file of pattern. */
static int run_each(const char *path, const char *pattern, unsigned threads, bool dry, bool strict,
                    bool quiet)
{
    pk_log log;
    pk_log_init(&log);
    pk_job_batch *b = pk_job_batch_load(path, pattern, &log);
    if (cli_flush_log(&log, strict) != EXIT_OK || !b) {
        pk_job_batch_free(b);
        return EXIT_ERROR;
    }
    /* the total on a terminal: the files done so far */
    pk_log shown;
    pk_log_init(&shown);
    cli_progress progress;
    if (!quiet)
        cli_progress_start(&progress, "run", &shown);
    each_tally t = {dry, &shown};
    pk_job_batch_options o = {threads, dry, strict, shown.progress, shown.progress_ctx};
    size_t failed = pk_job_batch_run(b, &o, each_line, &t);
    cli_progress_clear(&shown);
    pk_log_free(&shown);
    size_t n = pk_job_batch_count(b);
    printf("%zu file%s: %zu %s, %zu failed\n", n, n == 1 ? "" : "s", n - failed,
           dry ? "would be written" : "written", failed);
    pk_job_batch_free(b);
    return failed ? EXIT_ERROR : EXIT_OK;
}

/* run's options: switches, --each PATTERN, -j N. */
typedef struct run_opts {
    bool dry, strict, quiet, help;
    const char *each;
    uint32_t jobs; /* 0: not given */
    const char **files;
    size_t n;
} run_opts;

static int run_option(void *ctx, const char *name, const char *inline_value, const char *next,
                      bool long_form)
{
    run_opts *r = ctx;
    const char *value = inline_value ? inline_value : next;
    int took = inline_value ? 1 : 2;
    if (strcmp(name, "each") == 0 && long_form) {
        if (!value || !*value)
            return cli_usage("run", "--each needs a pattern ('dances/*.vmd')"), -1;
        if (!inline_value && strncmp(value, "--", 2) == 0) /* "--each --dry-run": left out */
            return cli_usage("run", "--each needs a pattern, not the option '%s'", value), -1;
        if (r->each) /* a single-value option, as in every command */
            return cli_usage("run", "--each is given twice"), -1;
        r->each = value;
        return took;
    }
    if ((strcmp(name, "j") == 0 && !long_form) || (strcmp(name, "jobs") == 0 && long_form)) {
        if (r->jobs)
            return cli_usage("run", "%s is given twice", long_form ? "--jobs" : "-j"), -1;
        if (!value || !pki_num_u32(value, &r->jobs) || r->jobs == 0)
            return cli_usage("run", "%s takes a number of files at once, 1 or more",
                             long_form ? "--jobs" : "-j"),
                   -1;
        return took;
    }
    bool *on = !long_form                     ? (strcmp(name, "h") == 0 ? &r->help : NULL)
               : strcmp(name, "dry-run") == 0 ? &r->dry
               : strcmp(name, "strict") == 0  ? &r->strict
               : strcmp(name, "quiet") == 0   ? &r->quiet
               : strcmp(name, "help") == 0    ? &r->help
                                              : NULL;
    if (!on)
        return 0;
    return cli_flag("run", long_form ? name : "help", inline_value, on) == EXIT_OK ? 1 : -1;
}

static int run_operand(void *ctx, const char *arg)
{
    run_opts *r = ctx;
    r->files[r->n++] = arg;
    return EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
    run_opts r = {.files = calloc((size_t)argc + 1, sizeof *r.files)};
    if (!r.files) {
        fprintf(stderr, "posekit run: out of memory\n");
        return EXIT_ERROR;
    }
    int status = cli_walk("run", argc, argv, run_option, run_operand, &r);
    const char *path;
    if (status != EXIT_OK) {
        /* said */
    } else if (r.help) {
        status = cli_help(help_run);
    } else if (!r.each) {
        status = r.jobs ? cli_usage("run", "-j applies to a run of many files (--each PATTERN)")
                        : run_job(r.files, r.n, r.dry, r.strict, r.quiet);
    } else if (cli_one_operand("run", "job file", r.files, r.n, &path) != EXIT_OK) {
        status = EXIT_ERROR;
    } else {
        status = run_each(path, r.each, r.jobs, r.dry, r.strict, r.quiet);
    }
    free(r.files);
    return status;
}
