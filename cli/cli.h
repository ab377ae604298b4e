/*
 * cli.h — shared pieces of the posekit command-line tool.
 *
 * The CLI is thin: it parses options, loads documents through the public
 * API (posekit.h only), calls one engine operation and writes the result.
 * Every command is `int cmd_NAME(int argc, char **argv)` where argv[0] is
 * the command name; it returns the process exit status:
 *   0 success (diff: no difference), 1 diff found differences, 2 error.
 */
#ifndef POSEKIT_CLI_H
#define POSEKIT_CLI_H

#include "posekit.h"

#include <stdbool.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_DIFF = 1, EXIT_ERROR = 2 };

/* One row of the command table (main.c). */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line for `posekit help` */
    const char *help;    /* full text for `posekit help NAME` and NAME --help */
} cli_command;

/* Commands (one file each: cli/cmd_NAME.c) and their help texts. */
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_rename(int argc, char **argv);
int cmd_mirror(int argc, char **argv);
int cmd_retarget(int argc, char **argv);
int cmd_overlay(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_bake(int argc, char **argv);
extern const char help_reduce[], help_bake[];
extern const char help_info[], help_dump[], help_convert[], help_diff[], help_rename[],
    help_mirror[], help_retarget[], help_overlay[], help_merge[], help_run[], help_check[],
    help_draw[];

/* ---- model.c: models (PMX, PMD) ---- */
/* True when the file starts with a PMX or PMD signature, or is named
 * .pmx or .pmd (a junk or cut model is then reported by the model reader,
 * not as "not a VMD or VPD file"). */
bool cli_is_model(const char *path);
/* pk_model_load with its diagnostics printed; NULL on error (and on
 * warnings when strict). */
pk_model *cli_load_model(const char *path, bool strict);
/* info for a model: text (a blank line first unless first) or a JSON
 * object appended to all (a json_t array); EXIT_OK or EXIT_ERROR. */
struct json_t;
int cli_model_info(const char *path, bool as_json, struct json_t *all, bool first);
/* dump for a model (README "dump", model schema). */
int cli_model_dump(const char *path);

/* ---- main.c ---- */

/* Runs posekit with UTF-8 arguments (argv[1] the command); returns the
 * exit status.  Called by the platform's entry point (main_posix.c,
 * main_win32.c). */
int cli_main(int argc, char **argv);
/* True when name is one of the commands. */
bool cli_is_command(const char *name);

/* ---- main.c ---- */

/* Runs posekit with UTF-8 arguments (argv[1] the command); returns the
 * exit status.  Called by the platform's entry point (main_posix.c,
 * main_win32.c). */
int cli_main(int argc, char **argv);
/* True when name is one of the commands. */
bool cli_is_command(const char *name);

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
 * diagnostics.  Returns EXIT_OK or EXIT_ERROR (doc zeroed on error, and on
 * warnings when strict). */
int cli_load(const char *path, pk_doc *doc, bool strict);

/* Encodes a document for an output path and writes it atomically:
 * .vmd gets VMD (a pose becomes one key per bone/morph at `frame`), .vpd
 * gets VPD (a pose only: a motion is an error), "-" keeps the document's own
 * format.  Nothing is written unless encoding succeeded. */
typedef struct cli_save_options {
    uint32_t frame;
    pk_vpd_options vpd;
} cli_save_options;
int cli_save(const char *out_path, const pk_doc *doc, const cli_save_options *opts);
/* Writes an already encoded buffer atomically; prints errors. */
int cli_write(const char *out_path, const pk_buf *buf);

/* Usage error for command `cmd`: prints "posekit CMD: MESSAGE" and
 * "Try 'posekit help CMD'." to stderr and returns EXIT_ERROR. */
int cli_usage(const char *cmd, const char *fmt, ...) PK_PRINTF(2, 3);
/* Prints help text to stdout and returns EXIT_OK (for --help). */
int cli_help(const char *text);
/* After getopt: exactly one operand.  Sets *operand and returns EXIT_OK, or
 * prints "no WHAT given" / "one WHAT at a time ('X' is extra)" as a usage
 * error and returns EXIT_ERROR. */
int cli_one_operand(const char *cmd, const char *what, int argc, char **argv, int first,
                    const char **operand);


/* Global flags valid on every command (parsed by each command's getopt). */
extern bool cli_strict;
/* The command being run (main.c sets it): a diagnostic about no file is
 * printed "posekit COMMAND: ...", one about a file "posekit: FILE...". */
extern const char *cli_cmd_name;

/* For getopt_long's '?' (set opterr = 0 first): a usage error naming the
 * offending argument (argv[optind - 1]); returns EXIT_ERROR. */
int cli_bad_option(const char *cmd, char **argv);
/* A flag's optional value, as the step options take booleans: --json,
 * --json=true (or yes) set *on, --json=false (or no) clear it; anything
 * else is a usage error (EXIT_ERROR, said). */
int cli_flag(const char *cmd, const char *flag, const char *value, bool *on);

/* Does path end in ext (".svg"), in any letter case? */
bool cli_has_ext(const char *path, const char *ext);

/* The format cli_save writes to out_path: by extension (.vmd/.vpd); "-" and
 * existing non-regular files (/dev/stdout, a pipe, /dev/full) get the
 * input's format; PK_FMT_UNKNOWN when it cannot tell. */
pk_format cli_output_format(const char *out_path, pk_format input);

/* ---- step_cmd.c: the commands that are steps ---- */

/* Parses argv (argv[0] is the command) into the step named cmd, loads its
 * inputs and rules, runs it, writes its output and prints its report.
 * Returns the exit status. */
int cli_step_main(const char *cmd, int argc, char **argv, const char *help);

/* Whether path names an existing folder. */
bool cli_is_folder(const char *path);

/* merge's reports (cmd_merge.c): conflicts and summary on stderr, or the
 * JSON report on stdout. */
void merge_print_text(const pk_step *s, const pk_step_result *res, const char *const *inputs);
int merge_print_json(const pk_step *s, const pk_step_result *res, const char *const *inputs,
                     size_t n);

#endif
