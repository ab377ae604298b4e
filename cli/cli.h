/*
 * cli.h — shared pieces of the posekit command-line tool.
 *
 * The CLI is thin: it parses options, loads documents through the API
 * (posekit.h, and the tool's layer, posekit_tool.h: steps and jobs), runs
 * one step or reads one file, and writes the result.
 * Every command is `int cmd_NAME(int argc, char **argv)` where argv[0] is
 * the command name; it returns the process exit status:
 *   0 success (diff: no difference), 1 diff found differences, 2 error.
 */
#ifndef POSEKIT_CLI_H
#define POSEKIT_CLI_H

#include "posekit_tool.h"

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

enum { EXIT_OK = 0, EXIT_DIFF = 1, EXIT_ERROR = 2 };

/* One row of the command table (main.c). */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line for `posekit help` */
    const char *help;    /* full text for `posekit help NAME` and NAME --help */
} cli_command;

/* The commands that are not steps (one file each: cli/cmd_NAME.c) and
 * their help texts; the steps' are the engine's (posekit_tool.h). */
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_run(int argc, char **argv);
extern const char help_info[], help_dump[], help_run[];

/* ---- model.c: models (PMX, PMD) ---- */
/* True when the file starts with a PMX or PMD signature, or is named
 * .pmx or .pmd (a junk or cut model is then reported by the model reader,
 * not as "not a VMD or VPD file"). */
bool cli_is_model(const char *path);
/* pk_model_load with its diagnostics printed; NULL on error (and on
 * warnings when strict). */
pk_model *cli_load_model(const char *path, bool strict);

/* One operand of info or dump.  A file is looked at by its content, then
 * its name, and read by the reader of what it holds.  A stream (standard
 * input '-', a pipe, a device) can be read only once: it is read here,
 * whole, and its content alone tells what it holds. */
typedef struct cli_source {
    const char *path;
    bool stream;   /* bytes holds what the stream gave */
    bool model;    /* a PMX or PMD model or a body (else a motion or pose) */
    pk_bytes bytes;
} cli_source;
/* Opens path: EXIT_OK, or EXIT_ERROR with the error printed (a stream
 * that cannot be read; a file or stream that is none of what info and
 * dump read).  Close it with cli_source_close either way. */
int cli_source_open(cli_source *s, const char *path);
void cli_source_close(cli_source *s);
/* pk_doc_load of a source that is no model (a stream: its bytes). */
int cli_source_doc(const cli_source *s, pk_doc *doc, pk_log *log);
/* info for a model: text (a blank line first unless first) or, when json
 * is given, a JSON object written to it; EXIT_OK or EXIT_ERROR (and on
 * warnings when strict). */
struct pki_json;
int cli_model_info(const cli_source *s, struct pki_json *json, bool first, bool strict);
/* dump for a model (doc/commands.md "dump", model schema). */
int cli_model_dump(const cli_source *s, bool strict);

/* ---- main.c ---- */

/* Runs posekit with UTF-8 arguments (argv[1] the command); returns the
 * exit status.  Called by the platform's entry point (main_posix.c,
 * main_win32.c, main_web.c). */
int cli_main(int argc, char **argv);

/* ---- exit_posix.c: the end of a POSIX process ---- */

/* cli_exit_begin before the work (again before each run of a process that
 * runs several), cli_exit(status) at its end: exit(status), except that a
 * build with AddressSanitizer skips the leak check of a process holding
 * what it held at cli_exit_begin, which can hold no leak. */
void cli_exit_begin(void);
_Noreturn void cli_exit(int status);

/* True when name is one of the commands. */
bool cli_is_command(const char *name);

/* ---- progress.c ---- */

/* The system's own receiver of long work's progress, called with the
 * command's name as ctx, or NULL: none, only a terminal's progress line
 * (progress_none.c; progress_web.c: the page's progress bar; meson picks
 * one). */
pk_progress_fn cli_progress_own(void);

/* The state of the progress line of one command (the caller's: it
 * outlives the work). */
typedef struct cli_progress {
    const char *cmd;
    time_t start, at; /* when the work began; when the line was last drawn */
    double delay;     /* seconds before the first line (POSEKIT_PROGRESS_DELAY) */
    int pct;          /* the percentage drawn (-1: none yet) */
    char what[160];   /* ... and the work it named (a copy: a job's changes in place) */
    size_t width;     /* the line's width on the terminal; 0: nothing shown */
} cli_progress;
/* Sets log's progress callback to draw the line when standard error is a
 * terminal (else leaves the log without one). */
void cli_progress_start(cli_progress *p, const char *cmd, pk_log *log);
/* Clears the line log's callback drew, if any (before anything else is
 * printed, and at the end). */
void cli_progress_clear(const pk_log *log);

/* ---- common.c ---- */

/* Prints every diagnostic of the log to stderr as
 * "posekit: PATH:OFFSET: message" / "posekit: PATH:LINE:COL: message" /
 * "posekit: PATH: warning: message", in the order they were added. */
void cli_print_log(const pk_log *log);
/* Prints the log, then returns EXIT_ERROR when it holds an error, or when
 * strict and it holds a warning ("posekit: warnings are errors (--strict)");
 * EXIT_OK otherwise.  Frees the log's items (the log can be reused). */
int cli_flush_log(pk_log *log, bool strict);

/* Loads a VPD or VMD (by content, then extension) and prints its
 * diagnostics; reading is reported to the progress callback of
 * `progress` (NULL: none).  Returns EXIT_OK or EXIT_ERROR (doc zeroed on
 * error, and on warnings when strict). */
int cli_load(const char *path, pk_doc *doc, bool strict, const pk_log *progress);

/* Encodes a document (pk_doc_encode) for an output path and writes it
 * atomically: .vmd gets VMD (a pose becomes one key per bone/morph at
 * opts->frame), .vpd gets VPD (a pose only: a motion is an error), "-"
 * keeps the document's own format.  Nothing is written unless encoding
 * succeeded (and, when strict, met no warning).  opts may be NULL.  The
 * writing is reported to the progress callback of `progress` (NULL: none).
 * side_path (NULL: none) gets side's bytes, put in place together with the
 * document or not at all (retarget --report). */
int cli_save(const char *out_path, const pk_doc *doc, const pk_encode_options *opts, bool strict,
             const pk_log *progress, const char *side_path, const pk_buf *side);
/* Writes an already encoded buffer atomically; prints errors. */
int cli_write(const char *out_path, const pk_buf *buf);

/* Text as a terminal can show it, to f: every byte that starts no
 * well-formed UTF-8 sequence (a file name in CP932 given on the command
 * line) and every control character but tab and newline (an escape
 * sequence in a name) as \xNN, as names that are not CP932 are shown;
 * UTF-8 text is written as it is.  Returns 0, or EOF when f failed. */
int cli_put_shown(FILE *f, const char *s, size_t n);
/* fprintf through cli_put_shown (the text formatted, then shown). */
void cli_printf_shown(FILE *f, const char *fmt, ...) PK_PRINTF(2, 3);

/* Usage error for command `cmd`: prints "posekit CMD: MESSAGE" and
 * "Try 'posekit help CMD'." to stderr and returns EXIT_ERROR. */
int cli_usage(const char *cmd, const char *fmt, ...) PK_PRINTF(2, 3);
/* Prints help text to stdout and returns EXIT_OK (for --help). */
int cli_help(const char *text);
/* Exactly one operand: sets *operand and returns EXIT_OK, or prints "no
 * WHAT given" / "one WHAT at a time ('X' is extra)" as a usage error and
 * returns EXIT_ERROR. */
int cli_one_operand(const char *cmd, const char *what, const char *const *operands, size_t n,
                    const char **operand);

/* The command being run (main.c sets it): a diagnostic about no file is
 * printed "posekit COMMAND: ...", one about a file "posekit: FILE...". */
extern const char *cli_cmd_name;
/* Its help text (main.c sets it; NULL before): an unknown option names
 * the option of it a slip away. */
extern const char *cli_cmd_help;

/* The one option grammar of every command: walks argv[1..], options
 * anywhere, "--" ends them.  --name, --name=VALUE and --name VALUE; -o
 * VALUE, -oVALUE, -j N, -v and -h (no other short option).  For each option it
 * calls opt(ctx, name, inline_value, next, long_form): inline_value is
 * the text after '=' (or after -o), NULL when none; next the argument
 * after it (NULL at the end).  opt returns 1 (taken), 2 (taken with
 * next), 0 (no such option: "unknown option 'ARG'") or -1 (an error
 * opt printed).  operand(ctx, arg) takes each operand and returns EXIT_OK
 * or an error it printed.  Returns EXIT_OK or EXIT_ERROR. */
typedef int (*cli_opt_fn)(void *ctx, const char *name, const char *inline_value, const char *next,
                          bool long_form);
typedef int (*cli_operand_fn)(void *ctx, const char *arg);
int cli_walk(const char *cmd, int argc, char **argv, cli_opt_fn opt, cli_operand_fn operand,
             void *ctx);
/* The options of a command that is not a step: switches, each
 * --NAME[=BOOL] setting its bool (-h is help).  *operands (free it)
 * receives the operands in order, *n how many.  EXIT_OK or EXIT_ERROR
 * (said). */
typedef struct cli_switch {
    const char *name; /* NULL ends the list */
    bool *on;
} cli_switch;
int cli_walk_switches(const char *cmd, int argc, char **argv, const cli_switch *sw,
                      const char ***operands, size_t *n);
/* A flag's optional value, as the step options take booleans: --json,
 * --json=true (or yes) set *on, --json=false (or no) clear it; anything
 * else is a usage error (EXIT_ERROR, said). */
int cli_flag(const char *cmd, const char *flag, const char *value, bool *on);

/* The format cli_save writes to out_path: by extension (.vmd/.vpd); "-" and
 * existing non-regular files (/dev/stdout, a pipe, /dev/full) get the
 * input's format; PK_FMT_UNKNOWN when it cannot tell. */
pk_format cli_output_format(const char *out_path, pk_format input);

/* ---- step_cmd.c: the commands that are steps ---- */

/* Parses argv (argv[0] is the command) into the step named cmd, loads its
 * inputs, rules and models, runs it, writes its output and prints its
 * report.  Returns the exit status. */
int cli_step_main(const char *cmd, int argc, char **argv);

/* Whether path names an existing folder, or is written as a folder
 * (ends in '/'). */
bool cli_is_folder(const char *path);

#endif
