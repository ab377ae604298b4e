/*
 * posekit_tool.h — the layer the posekit program is made of, above the
 * library's API (posekit.h): every operation as a step (options by name,
 * checks, run, reports), job files, and the decisions the command line and
 * job files share.
 *
 * NO STABILITY PROMISE.  libposekit exports these functions so that the
 * posekit program (cli/) can use them, but they follow the program: any
 * release may change or remove them, their types and their behaviour.
 * This header is not installed.  Programs that use libposekit use
 * posekit.h, whose API is the library's promise.
 */
#ifndef POSEKIT_TOOL_H
#define POSEKIT_TOOL_H

#include "posekit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Paths and files as the command line and job files decide about them
 * (engine/format/io.c, engine/format/doc.c)
 * ====================================================================== */

/* What a path names, symbolic links followed: nothing, a regular file, a
 * folder, or something else (a device, a pipe, a terminal; "-" too). */
typedef enum pk_path_kind {
    PK_PATH_MISSING = 0,
    PK_PATH_FILE,
    PK_PATH_FOLDER,
    PK_PATH_OTHER
} pk_path_kind;
PK_API pk_path_kind pk_path_kind_of(const char *path);
/* True when an output path names a folder: it ends in a separator of the
 * system ('/', and on Windows '\\' too: "out/", "out\\", there or not),
 * or it names an existing folder. */
PK_API bool pk_path_names_folder(const char *path);
/* True when both paths name one existing file (through links or other
 * names included); false when either is "-" or missing. */
PK_API bool pk_path_same_file(const char *a, const char *b);
/* The one rule of what a file is, for the inputs of the command line and
 * of job files: by its content (the signatures of pk_format_detect) when
 * it is a regular file that has one, else by its name
 * (pk_format_from_path: a junk or cut .pmx is a model, for the model
 * reader to refuse); PK_FMT_UNKNOWN for "-", pipes and devices, which
 * would be consumed. */
PK_API pk_format pk_file_format(const char *path);
/* What an output's name says it holds: PK_FMT_VMD (.vmd), PK_FMT_VPD
 * (.vpd), else PK_FMT_UNKNOWN (posekit writes no models); and in *report
 * (may be NULL) the report its extension names (.txt PK_REPORT_TEXT,
 * .json, .csv, .yaml or .yml PK_REPORT_RULES, .svg), or -1. */
PK_API pk_format pk_output_format(const char *path, int *report);
/* Where a write to path lands: links and the existing folders resolved,
 * "." and ".." taken out of the part that does not exist yet (malloc'd;
 * NULL on OOM).  Two writes with one key write one file. */
PK_API char *pk_path_target_key(const char *path);
/* The one test of whether two paths name one file: the same text, one
 * existing file (another spelling, a link), or one target key (files
 * that do not exist yet).  An output never names a file read beside it
 * (the command line's -o and side files, a job's outputs). */
PK_API bool pk_path_same_target(const char *a, const char *b);
/* True when path names the standard output: "-", or a name the system
 * gives it (/dev/stdout, /dev/fd/1, /proc/self/fd/1; the same names are
 * taken on Windows, which has none of its own). */
PK_API bool pk_path_is_stdout(const char *path);
/* True when the standard error is a terminal (posekit's progress line is
 * shown there only). */
PK_API bool pk_stderr_is_terminal(void);
/* True when the standard output is a terminal (posekit writes no binary
 * VMD there). */
PK_API bool pk_stdout_is_terminal(void);

/* ======================================================================
 * Steps (engine/step/): one entry point per operation
 * ====================================================================== */

/* Every operation (convert, diff, rename, mirror, retarget, overlay,
 * merge, reduce, bake, check, draw) is a step: one set of options, filled
 * by name through one setter (the command line's `--name VALUE` and a job
 * file's `name: VALUE` alike, '-' and '_' being the same), checked in one
 * place, run on documents the caller loaded, and reported by the
 * operation's writers, so the command line and job files accept the same
 * options and print the same bytes.  Each operation is one file,
 * engine/step/step_NAME.c, and one row of the registry in step.c.
 *
 *   pk_step *s = pk_step_new("diff", "--", log);
 *   pk_step_operand(s, "a.vmd", log); pk_step_operand(s, "b.vmd", log);
 *   pk_step_set(s, "frames", "all", log);
 *   pk_step_check(s, log);            // every rule about the options
 *   ... load what pk_step_needs lists, hand rules and models over with
 *       pk_step_give ...
 *   pk_step_run(s, docs, n, &res, log);
 *   pk_step_report(s, &res, PK_REPORT_TEXT, &buf, log);
 */
typedef struct pk_step pk_step;

/* The operations in the registry's order, i = 0, 1, ... (NULL past the
 * end): the name, one line about it, and the command's help text. */
PK_API const char *pk_step_op_name(size_t i);
PK_API const char *pk_step_op_about(size_t i);
PK_API const char *pk_step_op_help(size_t i);

/* A new step for the operation named `op`; NULL (logged) when no operation
 * has that name.  opt_prefix spells option names in messages: "--" gives
 * "--pos-threshold" (the command line), "" gives "pos_threshold" (job
 * files).  Free with pk_step_free. */
PK_API pk_step *pk_step_new(const char *op, const char *opt_prefix, pk_log *log);
PK_API void pk_step_free(pk_step *s);
PK_API const char *pk_step_name(const pk_step *s); /* "diff" */
/* Whether the step has an option `key`: 1 it takes a value, 0 it is a
 * switch (a value, if given, is true/false/yes/no), -1 no such option. */
PK_API int pk_step_option(const pk_step *s, const char *key);
/* For an option the step lacks but a user reaches for because a line of
 * its summary names it (retarget's "floor"): which options to give
 * instead, in buf (spelled as the step's options are), or NULL. */
PK_API const char *pk_step_option_hint(const pk_step *s, const char *key, char *buf,
                                       size_t size);
/* Whether option `key` may be given more than once (an input list,
 * merge's offset, sections, within): a job may give it a list. */
PK_API bool pk_step_option_repeats(const pk_step *s, const char *key);
/* Sets option `key` from text (value NULL: a switch turned on).  An input
 * option (in, a, b, base, pose, vs) takes the name the caller will load (a
 * path, a job's name), rules the name of a rule set, a model option (model,
 * vs_model, retarget's from and to) a model's.  Errors (logged, -1):
 * unknown option, bad value, a single-value option given twice (a switch
 * given again takes the last value). */
PK_API int pk_step_set(pk_step *s, const char *key, const char *value, pk_log *log);
/* A positional operand: the next input in the operation's order (diff: a
 * then b; overlay: base; merge: every input). */
PK_API int pk_step_operand(pk_step *s, const char *value, pk_log *log);
/* Every rule that needs no document: required inputs and options, options
 * that exclude each other or would do nothing.  0 or -1 (logged). */
PK_API int pk_step_check(const pk_step *s, pk_log *log);
/* The inputs the step reads, as given, in run order (the array lives as
 * long as s). */
PK_API size_t pk_step_inputs(const pk_step *s, const char *const **names);
/* The strict option (every step; the command line's --strict): warnings
 * met reading the step's inputs, rules and models, or running it, are
 * errors.  The caller, which reads them, applies it. */
PK_API bool pk_step_strict(const pk_step *s);

/* What a step reads: its documents (in run order, as pk_step_inputs), then
 * the rule set and the models its options name (in the operation's order
 * of options), each by the name given and the option that names it, then
 * the built-in bodies when the step picks a model itself (retarget's
 * `from: "@auto"`, check without a model): a pk_bodies * (pk_bodies_load),
 * named "@auto", with option NULL. */
typedef enum pk_need_kind {
    PK_NEED_DOC,
    PK_NEED_RULES,
    PK_NEED_MODEL,
    PK_NEED_BODIES
} pk_need_kind;
typedef struct pk_step_need {
    pk_need_kind kind;
    const char *name;   /* as given (owned by the step) */
    const char *option; /* "rules", "model", "vs_model", "from", "to"; NULL for a document */
} pk_step_need;
/* Fills out[0..cap) and returns how many there are (call with cap 0 to
 * count). */
PK_API size_t pk_step_needs(const pk_step *s, pk_step_need *out, size_t cap);
/* Hands over need i, a rule set, a model or the bodies (a pk_rules *, a
 * pk_model * or a pk_bodies *, the caller's: it must outlive the run and
 * the reports); documents are pk_step_run's.  0, or -1 when need i is not
 * one of them. */
PK_API int pk_step_give(pk_step *s, size_t i, const void *thing);
/* What option `key` names: a pk_need_kind, or -1 for an option that names
 * no file (or no option). */
PK_API int pk_step_option_need(const pk_step *s, const char *key);

typedef struct pk_step_result {
    pk_doc out;         /* the document made (a report: none) */
    pk_vpd_options vpd; /* how to write out.pose */
    bool found;         /* diff: something differs; check: a name is missing (exit 1) */
    void *own;          /* private: the operation's own result */
    void (*free_own)(void *own);
    /* records an editing step dropped as duplicates of a later record (the
     * later wins, as MMD reads it): its output has none */
    size_t duplicates;
} pk_step_result;

/* Runs the step on the documents named by pk_step_inputs (in that order),
 * with the rules and models given.  A step that edits or converts
 * (pk_step_takes_input: convert, rename, mirror, retarget) takes in[0]
 * over and zeroes it; the others only read, and a report may keep
 * pointers to the documents and models: they must outlive res.  res is
 * zeroed first; free it with pk_step_result_free.  0, or -1 (logged). */
PK_API int pk_step_run(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log);
PK_API void pk_step_result_free(pk_step_result *r);
PK_API bool pk_step_takes_input(const pk_step *s);
/* What a checked step makes when its first input is `in` (PK_FMT_VMD, a
 * motion; PK_FMT_VPD, a pose): a motion, a pose, or PK_FMT_UNKNOWN for a
 * report (diff, check, draw). */
PK_API pk_format pk_step_makes(const pk_step *s, pk_format in);

/* What a step did in one line, without a newline and without a prefix
 * ("3 of 5 bones swapped left/right, ..."; diff: the table's last line;
 * retarget with models: then a line for each step that changed a key,
 * fold, stance and scale, joined by newlines, the last without one).
 * Nothing when it has nothing to say. */
PK_API int pk_step_summary(const pk_step *s, const pk_step_result *r, pk_buf *out);

/* The reports: TEXT (diff's table; check's report; merge's overlaps and
 * conflicts then its summary; the others' summary line), JSON (diff: one
 * line; check, merge: indented; reduce, bake, overlay: one line; draw:
 * world transforms), CSV (diff), RULES (check: a rules file renaming each
 * missing name to its near miss), SVG (diff's and draw's pictures). */
typedef enum pk_report_format {
    PK_REPORT_TEXT,
    PK_REPORT_JSON,
    PK_REPORT_CSV,
    PK_REPORT_RULES,
    PK_REPORT_SVG
} pk_report_format;
/* Whether the step writes its report in that format. */
PK_API bool pk_step_reports(const pk_step *s, pk_report_format f);
/* Before the run: the caller will ask for format f (diff: an SVG keeps
 * each row's largest differences in bins for its heatmaps). */
PK_API void pk_step_want(pk_step *s, pk_report_format f);
/* Appends the report to out; 0, or -1 (logged: a format the step does not
 * write, a picture that cannot be drawn, out of memory). */
PK_API int pk_step_report(const pk_step *s, const pk_step_result *r, pk_report_format f,
                          pk_buf *out, pk_log *log);
/* What to tell the user beside the report written in f, in one line
 * without a newline or a prefix (check's rules file without a rule: "no
 * rule to suggest: every bone and morph IN moves is on the model (...)"),
 * not a warning: the report is right.  Nothing when there is nothing to
 * tell.  0, or -1 (out of memory). */
PK_API int pk_step_report_note(const pk_step *s, const pk_step_result *r, pk_report_format f,
                               pk_buf *out);
/* The extensions a job may write the step's report as, for messages
 * (".txt, .json or .csv"); NULL for a step that makes a document. */
PK_API const char *pk_step_report_exts(const pk_step *s);

/* Several steps of one operation run together as a group: retarget's
 * dancers (doc/commands.md "Several dancers"), which the command line
 * joins with --and and a job lists under the step's `dancers:` key.
 * pk_step_group_name: the group's name ("dancers"; member: "dancer"), or
 * NULL for an operation without groups.  pk_step_check_group checks each
 * step (its messages begin "dancer N: ") and then the rules across them;
 * pk_step_run_group runs them: in[i] holds step i's documents (as
 * pk_step_run's; each step takes its in[i][0] over), res[i] gets its
 * result, each summarised and reported as one step's; the group's own
 * lines and reports (res[0] keeps them) come from
 * pk_step_group_summary (lines joined by newlines, the last without one)
 * and pk_step_group_report (JSON: every member's report and the
 * group's).  0, or -1 (logged; every res[i] to free either way). */
PK_API const char *pk_step_group_name(const pk_step *s, bool member);
/* Marks s as a member of a group, before it is checked: an option that is
 * the whole group's (retarget's scale) is then checked with the group, in
 * words about no one member, wherever it was given. */
PK_API void pk_step_set_member(pk_step *s);
PK_API int pk_step_check_group(pk_step *const *s, size_t n, pk_log *log);
PK_API int pk_step_run_group(pk_step *const *s, size_t n, pk_doc *const *in, pk_step_result *res,
                             pk_log *log);
PK_API int pk_step_group_summary(pk_step *const *s, size_t n, const pk_step_result *res,
                                 pk_buf *out);
PK_API int pk_step_group_report(pk_step *const *s, size_t n, const pk_step_result *res,
                                pk_report_format f, pk_buf *out, pk_log *log);

/* The one check of whether an output can hold what it is given: a motion
 * (holds PK_FMT_VMD) goes to .vmd; a pose (PK_FMT_VPD) to .vpd or .vmd
 * (one key per bone); the report of step `by` (holds PK_FMT_UNKNOWN) to an
 * extension naming a format the step writes.  fmt and report are what the
 * output's name says (pk_output_format; the command line's "-" and
 * devices hold what they are given: fmt = holds).  NULL when it can;
 * else the reason, written into why[size] and returned, worded for the
 * command line (name NULL: about the file path) or for a job (about its
 * output `name`, written to path). */
PK_API const char *pk_output_refusal(pk_format holds, const pk_step *by, pk_format fmt, int report,
                                     const char *path, const char *name, char *why, size_t size);

/* What the command line shows of a step. */
typedef enum pk_cli_output {
    PK_CLI_OUT_DOC,    /* -o OUT (required): the document made */
    PK_CLI_OUT_NONE,   /* no -o: the report on standard output */
    PK_CLI_OUT_REPORT, /* -o OUT: the SVG report, or the JSON one with --json (which may go
                          to standard output) */
} pk_cli_output;
typedef struct pk_step_cli {
    pk_cli_output output;
    const char *side_option;      /* a file written beside the report: "svg" (diff),
                                     "suggest-rules" (check); NULL: none */
    pk_report_format side_format; /* ... the report it holds */
    const char *side_what;        /* "an SVG picture" */
    const char *side_exts;        /* ".svg", ".yaml|.yml": the names it may have */
    const char *format_option;    /* the option the output's format sets (convert: "to") */
    bool progress;                /* long work: a progress line on a terminal (--quiet: none) */
} pk_step_cli;
PK_API const pk_step_cli *pk_step_cli_of(const pk_step *s);

/* ======================================================================
 * Job files (engine/job/)
 * ====================================================================== */

/* A YAML job (schema in doc/jobs.md) names inputs, rule files, steps
 * and outputs.  pk_job_run reads and validates every input, runs every step
 * and encodes every output in memory; nothing touches the disk until
 * pk_job_write, which writes every output to its temporary file first and
 * renames them into place only when all are written, as a group
 * (pk_file_commit_all: old files put back if a rename fails), so the
 * outputs appear together or not at all.  Errors in the job file
 * carry JOB:LINE:COL. */
typedef struct pk_job pk_job;

typedef struct pk_job_output {
    char *name;  /* the result it writes */
    char *path;  /* resolved against the job file's folder */
    pk_buf data; /* encoded bytes, filled by pk_job_run */
} pk_job_output;

PK_API pk_job *pk_job_load(const char *path,
                           pk_log *log); /* parse + check; free with pk_job_free */
PK_API int pk_job_run(pk_job *job, pk_log *log);
/* The outputs in job-file order (valid until pk_job_free). */
PK_API const pk_job_output *pk_job_outputs(const pk_job *job, size_t *n);
/* What the steps had to say (overlay statistics, diff summaries), one
 * line each; NUL-terminated, owned by the job. */
PK_API const char *pk_job_report(const pk_job *job);
PK_API int pk_job_write(const pk_job *job, pk_log *log);
/* What pk_job_write would meet that is known without writing (run
 * --dry-run): an output whose folder cannot be written in (no permission,
 * a read-only file system).  0, or -1 with an error at each such output's
 * JOB:LINE:COL. */
PK_API int pk_job_check_write(const pk_job *job, pk_log *log);
PK_API void pk_job_free(pk_job *job);

/* One job over many files (doc/jobs.md "Many files at once"): the job's
 * input whose path is "{each}" takes each file a pattern names in turn,
 * and "{stem}" in its outputs' paths is that file's name without its
 * extension.  pk_job_batch_load loads the job once per file and refuses
 * (NULL, logged) a pattern that names no file, and two files whose
 * outputs would be one file or one file's input, before anything runs.
 * pk_job_batch_run runs and writes each file's job on its own (all its
 * outputs or none, as pk_job_write), on several threads: one that fails
 * stops no other. */
typedef struct pk_job_batch pk_job_batch;

/* What one file's run did, for pk_job_batch_run's callback (valid during
 * the call). */
typedef struct pk_job_batch_file {
    size_t index; /* in the order of pk_job_batch_input */
    const char *input;
    bool ok;                   /* run and written (or, dry, would be) */
    pk_log *log;               /* what the run said (the callback may print it) */
    const char *report;        /* the steps' lines (pk_job_report); "" when it failed */
    const pk_job_output *outs; /* what it wrote: names and paths (their data is */
    const size_t *bytes;       /* released once written; bytes[i] its size) */
    size_t nouts;
} pk_job_batch_file;

typedef struct pk_job_batch_options {
    unsigned threads; /* at most this many files at once; 0: one per processor */
    bool dry_run;     /* everything but the writing (pk_job_check_write) */
    bool strict;      /* a warning fails its file */
    /* the files finished so far, told after each (done: their share;
     * what: "N of M files"), never two at a time, after done(ctx, file)
     * for the files it releases; NULL: not told */
    pk_progress_fn progress;
    void *progress_ctx;
} pk_job_batch_options;

typedef void (*pk_job_batch_fn)(void *ctx, const pk_job_batch_file *file);

PK_API pk_job_batch *pk_job_batch_load(const char *job_path, const char *pattern, pk_log *log);
PK_API size_t pk_job_batch_count(const pk_job_batch *b);
PK_API const char *pk_job_batch_input(const pk_job_batch *b, size_t i);
/* Runs every file, the largest first (so the threads end together);
 * each file's documents are released as soon as it is written.
 * done(ctx, file) is called once per file in input order (a file's call
 * waits for those before it), never two at a time, so it may print.
 * Returns how many files failed. */
PK_API size_t pk_job_batch_run(pk_job_batch *b, const pk_job_batch_options *opts,
                               pk_job_batch_fn done, void *ctx);
PK_API void pk_job_batch_free(pk_job_batch *b);

#ifdef __cplusplus
}
#endif

#endif /* POSEKIT_TOOL_H */
