/* cmd_run.c — `posekit run JOB.yaml [--dry-run]`: a pipeline from a file. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char help_run[] =
    "usage: posekit run JOB.yaml [--dry-run] [--strict]\n"
    "\n"
    "Runs a job file: named inputs (VMD, VPD; PMX and PMD models), rule\n"
    "files, steps (convert, diff, rename, mirror, retarget, overlay, merge,\n"
    "reduce, bake, check, draw; each takes the options of the command of its\n"
    "name) that each make a named result, and outputs that write results to\n"
    "files (motions, poses; diff, check and draw reports).  Paths are relative to\n"
    "the job file.  Every input is read and checked, every step run and every\n"
    "output encoded before the first file is written; outputs are then\n"
    "written atomically (missing folders are created).  Any error writes\n"
    "nothing.  Errors in the job file read JOB:LINE:COL.\n"
    "\n"
    "  --dry-run   do everything except writing; print what would be written\n"
    "  --strict    warnings are errors\n"
    "  -h, --help  this text\n"
    "\n"
    "What the steps report (each step's summary line) goes to\n"
    "stdout, followed by one line per output: 'wrote PATH (N bytes)' or\n"
    "'would write PATH (N bytes)', all after the outputs are written.\n"
    "Schema and a full example: doc/jobs.md.\n";

/* Runs the one job file given. */
static int run_job(const char *const *files, size_t nfiles, bool dry, bool strict)
{
    const char *path;
    if (cli_one_operand("run", "job file", files, nfiles, &path) != EXIT_OK)
        return EXIT_ERROR;
    pk_log log;
    pk_log_init(&log);
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
    fputs(pk_job_report(job), stdout);
    for (size_t i = 0; i < n; i++)
        printf("%s %s (%zu bytes)\n", dry ? "would write" : "wrote", outs[i].path,
               outs[i].data.len);
    rc = EXIT_OK; /* main checks that the report reached standard output */
done:
    pk_log_free(&log);
    pk_job_free(job);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    bool dry = false, strict = false, help = false;
    const cli_switch sw[] = {{"dry-run", &dry}, {"strict", &strict}, {"help", &help}, {NULL, NULL}};
    const char **files;
    size_t n;
    int status = cli_walk_switches("run", argc, argv, sw, &files, &n);
    if (status == EXIT_OK)
        status = help ? cli_help(help_run) : run_job(files, n, dry, strict);
    free(files);
    return status;
}
