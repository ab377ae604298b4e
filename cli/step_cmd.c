/* step_cmd.c — the one driver of the commands that are steps (every
 * operation of the engine's registry, posekit_tool.h): argv goes into the
 * step's options through pk_step_set (the setter job files use), the
 * engine checks, runs and reports it, and this file only loads, writes and
 * prints, by what the step says of itself (pk_step_cli_of), never by its
 * name (cli.h). */
#include "cli.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cli_run {
    const char *cmd;
    pk_step *step;
    const pk_step_cli *cli;
    const char *out;  /* -o */
    const char *side; /* the side file (diff --svg, check --suggest-rules) */
    bool json, csv, help, quiet;
    bool json_given, csv_given; /* said at all (the last value wins) */
    pk_log *log;
    char who[32]; /* a member of a group: "dancer 2: " (else "") */
} cli_run;

/* A usage error of the command (of one member of a group: "dancer 2: "
 * first). */
static int run_usage(const cli_run *r, const char *fmt, ...) PK_PRINTF(2, 3);
static int run_usage(const cli_run *r, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_usage(r->cmd, "%s%s", r->who, msg);
}

/* The first error of a log as a usage error. */
static int usage_from(cli_run *r)
{
    pk_log *log = r->log;
    const char *msg = "invalid options";
    for (size_t i = 0; i < log->count; i++)
        if (log->items[i].severity == PK_ERROR) {
            msg = log->items[i].msg;
            break;
        }
    int rc = run_usage(r, "%s", msg);
    pk_log_free(log);
    pk_log_init(log);
    return rc;
}

/* A switch of the step (--strict, -v) said on or off: given again, the
 * last value wins (pk_step_set). */
static void set_switch(pk_step *s, const char *name, bool on)
{
    pk_log quiet;
    pk_log_init(&quiet);
    pk_step_set(s, name, on ? "true" : "false", &quiet);
    pk_log_free(&quiet);
}

/* --json and --csv: given again, the last value wins. */
static int format_flag(bool on, bool *given, bool *value)
{
    *given = true;
    *value = on;
    return 1;
}

/* -o and the side file: a file name, once; the standard output by its
 * device names is "-" for -o (written in place in the input's format,
 * wherever the shell sent it, a file too). */
static int file_option(cli_run *r, const char *flag, const char **slot, bool is_out,
                       const char *value, bool inline_value)
{
    if (!value || !*value)
        return run_usage(r, "%s wants a file name", flag), -1;
    /* the next argument an option ("--report --json"): the name was left
     * out, not a file called "--json" meant ("./--json" names one) */
    if (!inline_value && value[0] == '-' && value[1])
        return run_usage(r, "%s wants a file name, not the option '%s' (a file of that name: ./%s)",
                         flag, value, value),
               -1;
    if (*slot)
        return run_usage(r, "%s is given twice", flag), -1;
    *slot = is_out && pk_path_is_stdout(value) ? "-" : value;
    return inline_value ? 1 : 2;
}

/* Options of the command line itself (not of the step), then the step's. */
static int option(void *ctx, const char *name, const char *inline_value, const char *next,
                  bool long_form)
{
    cli_run *r = ctx;
    /* the flags below take an optional =true/=false, as step booleans do */
    bool on = true;
    bool quiet = strcmp(name, "quiet") == 0 && r->cli->progress && long_form;
    if ((strcmp(name, "strict") == 0 || strcmp(name, "verbose") == 0 || strcmp(name, "help") == 0 ||
         strcmp(name, "json") == 0 || strcmp(name, "csv") == 0 || quiet) &&
        cli_flag(r->cmd, name, inline_value, &on) != EXIT_OK)
        return -1;
    if (quiet) { /* no progress line */
        r->quiet = on;
        return 1;
    }
    if (strcmp(name, "strict") == 0) {
        set_switch(r->step, "strict", on);
        return 1;
    }
    if ((strcmp(name, "verbose") == 0 || strcmp(name, "v") == 0) &&
        pk_step_option(r->step, "verbose") == 0) {
        set_switch(r->step, "verbose", on);
        return 1;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "h") == 0) {
        r->help = on;
        return 1;
    }
    if (strcmp(name, "json") == 0 && pk_step_reports(r->step, PK_REPORT_JSON))
        return format_flag(on, &r->json_given, &r->json);
    if (strcmp(name, "csv") == 0 && pk_step_reports(r->step, PK_REPORT_CSV))
        return format_flag(on, &r->csv_given, &r->csv);
    const char *value = inline_value ? inline_value : next;
    if ((strcmp(name, "output") == 0 || strcmp(name, "o") == 0) &&
        r->cli->output != PK_CLI_OUT_NONE)
        return file_option(r, long_form ? "--output" : "-o", &r->out, true, value,
                           inline_value != NULL);
    if (r->cli->side_option && long_form && strcmp(name, r->cli->side_option) == 0) {
        char flag[64];
        snprintf(flag, sizeof flag, "--%s", name);
        return file_option(r, flag, &r->side, false, value, inline_value != NULL);
    }
    int arity = pk_step_option(r->step, name);
    char hint[512];
    if (arity < 0 && long_form && pk_step_option_hint(r->step, name, hint, sizeof hint))
        return run_usage(r, "unknown option '--%s': %s", name, hint), -1;
    if (arity < 0 || !long_form)
        return 0;
    if (arity == 1 && !value)
        return run_usage(r, "--%s wants a value", name), -1;
    /* "--model --json": the value was left out (no value starts with
     * "--"; one dash may start a number: --shift -30) */
    if (arity == 1 && !inline_value && strncmp(value, "--", 2) == 0)
        return run_usage(r, "--%s wants a value, not the option '%s'", name, value), -1;
    if (pk_step_set(r->step, name, arity == 1 ? value : inline_value, r->log) != 0)
        return usage_from(r), -1;
    return arity == 1 && !inline_value ? 2 : 1;
}

static int operand(void *ctx, const char *arg)
{
    cli_run *r = ctx;
    if (pk_step_operand(r->step, arg, r->log) != 0)
        return usage_from(r);
    return EXIT_OK;
}

/* What the step reads beside its documents (pk_step_needs), in a new
 * array of *n (caller frees); NULL when out of memory. */
static pk_step_need *needs_of(const pk_step *s, size_t *n)
{
    *n = pk_step_needs(s, NULL, 0);
    pk_step_need *need = calloc(*n ? *n : 1, sizeof *need);
    if (need)
        pk_step_needs(s, need, *n);
    return need;
}

/* A model option as a message names it: "--OPTION" (the step's spelling,
 * '_' as '-') after prefix, or "--model" for the one model. */
static void model_option_words(char buf[64], const char *prefix, const pk_step_need *need)
{
    int at = snprintf(buf, 64, "%s--", prefix);
    snprintf(buf + at, (size_t)(64 - at), "%s", need->option ? need->option : "model");
    for (char *c = buf + at; *c; c++)
        if (*c == '_')
            *c = '-';
}

/* What path names among the files the command reads, as a message says
 * it: "an input", "the model", "the --to model" (a step reading several),
 * "the rules file"; NULL for none of them (pk_path_same_target).  buf
 * holds the words when they name an option. */
static const char *source_named(const cli_run *r, const char *path, char buf[64])
{
    size_t n;
    pk_step_need *need = needs_of(r->step, &n);
    if (!need)
        return NULL;
    const char *what = NULL;
    for (size_t i = 0; i < n && !what; i++) {
        const char *p = need[i].name;
        if (need[i].kind == PK_NEED_BODIES)
            continue;
        if (!p || strcmp(p, "-") == 0 || !pk_path_same_target(path, p))
            continue;
        if (need[i].kind == PK_NEED_DOC) {
            what = "an input";
        } else if (need[i].kind == PK_NEED_RULES) {
            what = "the rules file";
        } else if (!need[i].option || strcmp(need[i].option, "model") == 0) {
            what = "the model";
        } else {
            model_option_words(buf, "the ", &need[i]);
            strncat(buf, " model", 63 - strlen(buf));
            what = buf;
        }
    }
    free(need);
    return what;
}

/* A file to write that is one the command reads (what: source_named's
 * words; who: "this command", or the group member reading it): refused
 * in one wording for -o and every side file. */
static int refuse_source(const cli_run *r, const char *flag, const char *path, const char *what,
                         const char *who)
{
    return run_usage(r, "%s '%s' is %s %s reads: it would be overwritten", flag, path, what, who);
}

/* Whether path's name is one of exts ("a|b"). */
static bool named(const char *path, const char *exts)
{
    for (const char *p = exts; *p;) {
        size_t n = strcspn(p, "|");
        char ext[16];
        snprintf(ext, sizeof ext, "%.*s", (int)n, p);
        if (pki_path_has_ext(path, ext))
            return true;
        p += n + (p[n] == '|');
    }
    return false;
}

/* A file a report is written to (-o of draw, the side file): never a file
 * the command reads, nor a folder, and named for what it holds. */
static int check_report_file(const cli_run *r, const char *flag, const char *path, const char *what,
                             const char *exts)
{
    char buf[64];
    const char *src = source_named(r, path, buf);
    if (src)
        return refuse_source(r, flag, path, src, "this command");
    if (cli_is_folder(path))
        return run_usage(r, "%s names a folder ('%s'): name the file to write in it", flag, path);
    /* a device or pipe (/dev/null) has no name to choose: it takes what
     * is written, as -o /dev/null takes a motion */
    if (!named(path, exts) && pk_path_kind_of(path) != PK_PATH_OTHER) {
        size_t n = strcspn(exts, "|");
        return run_usage(r, "%s writes %s: name it NAME%.*s, not '%s'", flag, what, (int)n, exts,
                         path);
    }
    return EXIT_OK;
}

/* -o of a step whose output is its report (draw): the picture, or with
 * --json the world transforms (none or '-': standard output). */
static int check_report_output(const cli_run *r)
{
    if (!r->out || strcmp(r->out, "-") == 0) {
        if (!r->json)
            return run_usage(r, "-o - would write the picture to standard output: name a "
                                ".svg file (--json writes to standard output)");
        return EXIT_OK;
    }
    return check_report_file(r, "-o", r->out, r->json ? "JSON (--json)" : "an SVG picture",
                             r->json ? ".json" : ".svg");
}

/* The side file: not standard output, which holds the report. */
static int check_side(const cli_run *r)
{
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", r->cli->side_option);
    if (pk_path_is_stdout(r->side)) { /* "-", /dev/stdout: the report's place */
        size_t n = strcspn(r->cli->side_exts, "|");
        if (r->cli->output == PK_CLI_OUT_DOC && r->out && strcmp(r->out, "-") == 0)
            return cli_usage(r->cmd, "%s - and -o - would both write standard output", flag);
        /* a step writing a document to a file leaves standard output to
         * --json, which writes the same JSON there */
        if (r->cli->output == PK_CLI_OUT_DOC && r->cli->side_format == PK_REPORT_JSON &&
            pk_step_reports(r->step, PK_REPORT_JSON) && (!r->out || strcmp(r->out, "-") != 0))
            return cli_usage(r->cmd,
                             "%s - : --json writes %s to standard output; %s names a %.*s file",
                             flag, r->cli->side_what, flag, (int)n, r->cli->side_exts);
        return cli_usage(r->cmd,
                         "%s - would mix %s with the report on standard output: name a %.*s file",
                         flag, r->cli->side_what, (int)n, r->cli->side_exts);
    }
    return check_report_file(r, flag, r->side, r->cli->side_what, r->cli->side_exts);
}

/* Standard input read once at most: by one input or one model ("the
 * input and --model name it", "--from and --to name it"). */
static int check_stdin(const cli_run *r, const char *const *inputs, size_t n)
{
    size_t stdin_inputs = 0;
    for (size_t i = 0; i < n; i++)
        stdin_inputs += strcmp(inputs[i], "-") == 0;
    if (stdin_inputs > 1)
        return run_usage(r, "standard input ('-') can be read once; %zu inputs name it",
                         stdin_inputs);
    size_t nn;
    pk_step_need *need = needs_of(r->step, &nn);
    if (!need)
        return EXIT_OK;
    char words[4][64];
    size_t k = 0;
    if (stdin_inputs)
        snprintf(words[k++], sizeof words[0], "the input");
    for (size_t i = 0; i < nn && k < 4; i++) {
        if (need[i].kind != PK_NEED_MODEL || !need[i].name || strcmp(need[i].name, "-") != 0)
            continue;
        model_option_words(words[k++], "", &need[i]);
    }
    free(need);
    if (k < 2)
        return EXIT_OK;
    char list[300];
    size_t len = 0;
    for (size_t i = 0; i < k; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0 ? "" : i + 1 == k ? " and " : ", ", words[i]);
    return run_usage(r, "standard input ('-') can be read once; %s name it", list);
}

/* The main output and the side file: never a file the command reads
 * beside its inputs, and named for what they hold; with the main output
 * on standard output, no second stream there. */
static int check_outputs(const cli_run *r, const char *const *inputs, size_t n)
{
    if (r->cli->output == PK_CLI_OUT_REPORT)
        return check_stdin(r, inputs, n) != EXIT_OK ? EXIT_ERROR : check_report_output(r);
    if (r->out && cli_is_folder(r->out))
        return run_usage(r, "-o names a folder ('%s'): name the file to write in it", r->out);
    /* -o never names a file the command reads: an input (the motion a
     * camera is sized for too), a model or the rules file (as in a job):
     * an input is never changed */
    char buf[64];
    const char *read = r->out && strcmp(r->out, "-") != 0 ? source_named(r, r->out, buf) : NULL;
    if (read)
        return refuse_source(r, "-o", r->out, read, "this command");
    char why[512];
    /* what it will hold is known once the inputs are read: what it makes
     * of a pose for now (which .vmd and .vpd both hold; a command that
     * makes a motion of anything holds a motion already) */
    pk_format holds = pk_step_makes(r->step, PK_FMT_VPD);
    if (holds != PK_FMT_VMD)
        holds = PK_FMT_VPD;
    if (r->out && pk_output_refusal(holds, r->step, cli_output_format(r->out, holds), -1, r->out,
                                    NULL, why, sizeof why))
        return run_usage(r, "%s", why);
    /* A .vpd output holding a motion is checked once the inputs are read:
     * a pose may be written as a .vpd. */
    if (r->json && r->csv)
        return run_usage(r, "--json and --csv exclude each other");
    if (r->json && r->out && strcmp(r->out, "-") == 0)
        return run_usage(r, "--json and -o - would both write standard output");
    if (check_stdin(r, inputs, n) != EXIT_OK)
        return EXIT_ERROR;
    return r->side ? check_side(r) : EXIT_OK;
}

/* Prints buf to f, each line behind prefix. */
static void print_lines(FILE *f, const char *prefix, const pk_buf *b)
{
    const char *p = (const char *)b->data, *end = p + b->len;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        fputs(prefix, f);
        cli_put_shown(f, p, n);
        putc('\n', f);
        p += n + 1;
    }
}

/* The step's report in fmt into b; EXIT_OK, or EXIT_ERROR (said). */
static int make_report(const cli_run *r, const pk_step_result *res, pk_report_format fmt, pk_buf *b)
{
    pk_log log;
    pk_log_init(&log);
    int rc = pk_step_report(r->step, res, fmt, b, &log) == 0 ? EXIT_OK : EXIT_ERROR;
    cli_flush_log(&log, false);
    pk_log_free(&log);
    return rc;
}

/* The text report on stderr, each line behind the command's name. */
static int print_notes(const cli_run *r, const pk_step_result *res)
{
    pk_buf b;
    pk_buf_init(&b);
    int rc = make_report(r, res, PK_REPORT_TEXT, &b);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "posekit %s: ", r->cmd);
    if (rc == EXIT_OK)
        print_lines(stderr, prefix, &b);
    pk_buf_free(&b);
    return rc;
}

/* The step's report in fmt on standard output. */
static int print_report(const cli_run *r, const pk_step_result *res, pk_report_format fmt)
{
    pk_buf b;
    pk_buf_init(&b);
    int rc = make_report(r, res, fmt, &b);
    if (rc == EXIT_OK && b.len &&
        (cli_put_shown(stdout, (const char *)b.data, b.len) != 0 || fflush(stdout))) {
        fprintf(stderr, "posekit %s: cannot write standard output\n", r->cmd);
        rc = EXIT_ERROR;
    }
    pk_buf_free(&b);
    return rc;
}

/* The step's report in fmt written to path. */
static int write_report(const cli_run *r, const pk_step_result *res, pk_report_format fmt,
                        const char *path)
{
    pk_buf b;
    pk_buf_init(&b);
    int rc = make_report(r, res, fmt, &b);
    if (rc == EXIT_OK)
        rc = cli_write(path, &b);
    pk_buf_free(&b);
    return rc;
}

/* What the step tells beside the side file it wrote (check: a rules file
 * without a rule), on standard error: a note, not a warning (--strict
 * does not fail on it). */
static int side_note(const cli_run *r, const pk_step_result *res)
{
    pk_buf b;
    pk_buf_init(&b);
    int rc = pk_step_report_note(r->step, res, r->cli->side_format, &b) == 0 ? EXIT_OK : EXIT_ERROR;
    if (rc != EXIT_OK)
        fprintf(stderr, "posekit %s: out of memory\n", r->cmd);
    else if (b.len)
        cli_printf_shown(stderr, "posekit %s: %s: %.*s\n", r->cmd, r->side, (int)b.len,
                         (const char *)b.data);
    pk_buf_free(&b);
    return rc;
}

static int report(const cli_run *r, const pk_step_result *res)
{
    switch (r->cli->output) {
    case PK_CLI_OUT_NONE: {
        /* the side file first, as every saved file before its report */
        if (r->side && (write_report(r, res, r->cli->side_format, r->side) != EXIT_OK ||
                        side_note(r, res) != EXIT_OK))
            return EXIT_ERROR;
        pk_report_format fmt = r->json ? PK_REPORT_JSON : r->csv ? PK_REPORT_CSV : PK_REPORT_TEXT;
        if (print_report(r, res, fmt) != EXIT_OK)
            return EXIT_ERROR;
        return res->found ? EXIT_DIFF : EXIT_OK;
    }
    case PK_CLI_OUT_REPORT: {
        pk_report_format fmt = r->json ? PK_REPORT_JSON : PK_REPORT_SVG;
        if (!r->out || strcmp(r->out, "-") == 0)
            return print_report(r, res, fmt);
        if (write_report(r, res, fmt, r->out) != EXIT_OK)
            return EXIT_ERROR;
        return print_notes(r, res);
    }
    default: /* the side file was saved with the document (run) */
        if (r->json)
            return print_report(r, res, PK_REPORT_JSON);
        return print_notes(r, res);
    }
}

/* Loads what the step reads beside its documents, of one kind (rules
 * first: a bad rules file stops the run before the inputs are read; then
 * the models), and hands them over.  EXIT_OK or EXIT_ERROR (said). */
static int load_things(cli_run *r, pk_need_kind kind, void **things, bool strict)
{
    size_t n;
    pk_step_need *need = needs_of(r->step, &n);
    if (!need) {
        fprintf(stderr, "posekit %s: out of memory\n", r->cmd);
        return EXIT_ERROR;
    }
    int rc = EXIT_OK;
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
        if (need[i].kind != kind)
            continue;
        if (kind == PK_NEED_RULES || kind == PK_NEED_BODIES) {
            things[i] = kind == PK_NEED_RULES ? (void *)pk_rules_load(need[i].name, r->log)
                                              : (void *)pk_bodies_load(r->log);
            if (cli_flush_log(r->log, strict) != EXIT_OK || !things[i])
                rc = EXIT_ERROR;
        } else {
            things[i] = cli_load_model(need[i].name, strict);
            rc = things[i] ? EXIT_OK : EXIT_ERROR;
        }
        if (rc == EXIT_OK)
            pk_step_give(r->step, i, things[i]);
    }
    free(need);
    return rc;
}

static void free_things(const pk_step *s, void **things)
{
    size_t n;
    pk_step_need *need = needs_of(s, &n);
    for (size_t i = 0; need && things && i < n; i++) {
        if (need[i].kind == PK_NEED_RULES)
            pk_rules_free(things[i]);
        else if (need[i].kind == PK_NEED_MODEL)
            pk_model_free(things[i]);
        else if (need[i].kind == PK_NEED_BODIES)
            pk_bodies_free(things[i]);
    }
    free(need);
}

/* The option the output's format sets (convert's to): from -o's name
 * now, or from the input's format once read (*later: '-' and devices). */
static void set_format(cli_run *r, bool *later)
{
    *later = false;
    const char *opt = r->cli->format_option;
    if (!opt || !r->out)
        return;
    pk_format f = cli_output_format(r->out, PK_FMT_UNKNOWN);
    if (f != PK_FMT_UNKNOWN)
        pk_step_set(r->step, opt, pk_format_name(f), r->log);
    else
        *later = true;
}

/* -o against what the step makes of the inputs read (a .vpd holds one
 * pose: a step that makes a motion cannot write one). */
static int check_pose_output(const cli_run *r, const pk_doc *first)
{
    if (!r->out || r->cli->output != PK_CLI_OUT_DOC)
        return EXIT_OK;
    char why[512];
    pk_format holds = pk_step_makes(r->step, first->format);
    if (pk_output_refusal(holds, r->step, cli_output_format(r->out, holds), -1, r->out, NULL, why,
                          sizeof why))
        return run_usage(r, "%s", why);
    return EXIT_OK;
}

/* After the options: help, the output given, every check that needs no
 * document.  EXIT_OK to go on; *done set when help was printed. */
static int prepare(cli_run *r, bool *later, bool *done)
{
    *done = false;
    if (r->help) {
        *done = true;
        for (size_t i = 0; pk_step_op_name(i); i++)
            if (strcmp(pk_step_op_name(i), r->cmd) == 0)
                return cli_help(pk_step_op_help(i));
    }
    const char *const *in;
    size_t n = pk_step_inputs(r->step, &in);
    if (r->cli->output != PK_CLI_OUT_NONE && !r->out &&
        !(r->cli->output == PK_CLI_OUT_REPORT && r->json)) {
        /* a missing input is said first, then a missing output */
        if (n == 0 && pk_step_check(r->step, r->log) != 0)
            return usage_from(r);
        return run_usage(r, "no output given (-o OUT)");
    }
    if (r->side)
        pk_step_want(r->step, r->cli->side_format);
    if (r->json)
        pk_step_want(r->step, PK_REPORT_JSON);
    set_format(r, later);
    if (!*later && pk_step_check(r->step, r->log) != 0)
        return usage_from(r);
    n = pk_step_inputs(r->step, &in);
    if (*later && n == 0)
        return run_usage(r, "no input file given");
    return check_outputs(r, in, n);
}

/* Reads the inputs (rules first), then what the output's format waited
 * for, then the models and the built-in bodies.  EXIT_OK or EXIT_ERROR
 * (said). */
static int load_all(cli_run *r, pk_doc *docs, void **things, bool later)
{
    bool strict = pk_step_strict(r->step);
    if (load_things(r, PK_NEED_RULES, things, strict) != EXIT_OK)
        return EXIT_ERROR;
    const char *const *in;
    size_t n = pk_step_inputs(r->step, &in);
    for (size_t i = 0; i < n; i++)
        if (cli_load(in[i], &docs[i], strict, r->log) != EXIT_OK)
            return EXIT_ERROR;
    if (later) {
        pk_step_set(r->step, r->cli->format_option, pk_format_name(docs[0].format), r->log);
        if (pk_step_check(r->step, r->log) != 0)
            return usage_from(r);
    }
    if (n && check_pose_output(r, &docs[0]) != EXIT_OK)
        return EXIT_ERROR;
    if (load_things(r, PK_NEED_MODEL, things, strict) != EXIT_OK)
        return EXIT_ERROR;
    return load_things(r, PK_NEED_BODIES, things, strict);
}

/* Whether a failed run's log holds a usage error about no file: an
 * option found to do nothing once the inputs were read (convert --frame
 * between two VMDs), said with the "Try" line of every usage error. */
static bool run_usage_error(const pk_log *log)
{
    for (size_t i = 0; i < log->count; i++)
        if (log->items[i].severity == PK_ERROR && log->items[i].code == PK_E_USAGE &&
            !log->items[i].path)
            return true;
    return false;
}

/* The log of a run flushed; EXIT_OK, or EXIT_ERROR (said, a usage error
 * with its "Try" line). */
static int flush_run(const char *cmd, pk_log *log, int ran, bool strict)
{
    bool usage = ran != 0 && run_usage_error(log);
    if (cli_flush_log(log, strict) == EXIT_OK && ran == 0)
        return EXIT_OK;
    if (usage)
        fprintf(stderr, "Try 'posekit help %s'.\n", cmd);
    return EXIT_ERROR;
}

/* Runs the step; a step that makes a document saves it first and reports
 * only what was written (a failed save prints no summary). */
static int run(cli_run *r, pk_doc *docs, size_t n, pk_step_result *res)
{
    int ran = pk_step_run(r->step, docs, n, res, r->log);
    if (flush_run(r->cmd, r->log, ran, pk_step_strict(r->step)) != EXIT_OK)
        return EXIT_ERROR;
    if (r->cli->output == PK_CLI_OUT_DOC) {
        pk_encode_options so;
        memset(&so, 0, sizeof so);
        so.vpd = res->vpd;
        /* the side file is made first and put in place with the document:
         * both or neither */
        pk_buf side;
        pk_buf_init(&side);
        int rc = r->side ? make_report(r, res, r->cli->side_format, &side) : EXIT_OK;
        if (rc == EXIT_OK)
            rc = cli_save(r->out, &res->out, &so, pk_step_strict(r->step), r->log, r->side, &side);
        pk_buf_free(&side);
        if (rc != EXIT_OK)
            return EXIT_ERROR;
    }
    cli_progress_clear(r->log);
    return report(r, res);
}

/* ---- a group: members joined by --and (retarget's dancers) ---- */

/* Where argv's members begin and end: --and between them. */
static size_t split_members(int argc, char **argv, int *start, int *end)
{
    size_t n = 0;
    start[0] = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--and") == 0) {
            end[n++] = i;
            start[n] = i + 1;
        }
    }
    end[n++] = argc;
    return n;
}

/* The group's own flags (--json, the side file) may be given in any one
 * member's part, once: every member then wants its report. */
static int group_flags(cli_run *r, size_t n, bool *json, const char **side)
{
    *json = false;
    *side = NULL;
    size_t json_at = n, side_at = n;
    for (size_t k = 0; k < n; k++) {
        if (r[k].json_given && json_at < n)
            return cli_usage(r[k].cmd,
                             "--json is given for %ss %zu and %zu: it is the group's, "
                             "give it once",
                             pk_step_group_name(r[k].step, true), json_at + 1, k + 1);
        if (r[k].side && side_at < n)
            return cli_usage(r[k].cmd,
                             "--%s is given for %ss %zu and %zu: it is the group's, give "
                             "it once",
                             r[k].cli->side_option, pk_step_group_name(r[k].step, true),
                             side_at + 1, k + 1);
        if (r[k].json_given) {
            json_at = k;
            *json = r[k].json;
        }
        if (r[k].side) {
            side_at = k;
            *side = r[k].side;
        }
    }
    for (size_t k = 0; k < n; k++) {
        if (*json)
            pk_step_want(r[k].step, PK_REPORT_JSON);
        if (*side)
            pk_step_want(r[k].step, r[k].cli->side_format);
    }
    return EXIT_OK;
}

/* Whether the step reads standard input: an input or a model named '-'. */
static bool reads_stdin(const cli_run *r)
{
    size_t n;
    pk_step_need *need = needs_of(r->step, &n);
    bool reads = false;
    for (size_t i = 0; need && i < n && !reads; i++)
        reads = need[i].kind != PK_NEED_BODIES && need[i].name && strcmp(need[i].name, "-") == 0;
    free(need);
    return reads;
}

/* Outputs across members: files, one each, none another's input, model or
 * output, nor the group's report; standard input read by one member at
 * most. */
static int group_outputs(cli_run *r, size_t n, const char *side)
{
    const char *member = pk_step_group_name(r[0].step, true);
    for (size_t k = 0, first = n; k < n; k++) {
        if (!reads_stdin(&r[k]))
            continue;
        if (first < n)
            return cli_usage(r[k].cmd,
                             "standard input ('-') can be read once; %ss %zu and %zu name it",
                             member, first + 1, k + 1);
        first = k;
    }
    for (size_t k = 0; k < n; k++) {
        if (strcmp(r[k].out, "-") == 0)
            return run_usage(&r[k], "-o -: %s write files, one each",
                             pk_step_group_name(r[k].step, false));
        if (side && pk_path_same_target(side, r[k].out))
            return run_usage(&r[k], "-o '%s' is the group's --%s file too", r[k].out,
                             r[k].cli->side_option);
        for (size_t m = 0; m < n; m++) {
            if (m == k)
                continue;
            if (m > k && pk_path_same_target(r[k].out, r[m].out))
                return cli_usage(r[k].cmd,
                                 "%ss %zu and %zu both write '%s' (-o): each writes its own",
                                 member, k + 1, m + 1, r[m].out);
            char buf[64], who[64];
            const char *what = source_named(&r[m], r[k].out, buf);
            snprintf(who, sizeof who, "%s %zu", member, m + 1);
            if (what)
                return refuse_source(&r[k], "-o", r[k].out, what, who);
        }
        char buf[64], flag[64], who[64];
        const char *read = side ? source_named(&r[k], side, buf) : NULL;
        snprintf(flag, sizeof flag, "--%s", r[k].cli->side_option);
        snprintf(who, sizeof who, "%s %zu", member, k + 1);
        if (read) /* the group's file: no member's "dancer N: " first */
            return refuse_source(&(cli_run){.cmd = r[k].cmd, .who = ""}, flag, side, read, who);
    }
    return EXIT_OK;
}

/* Every member's document encoded and staged, and the group's side file
 * (its JSON report), then put in place together: all or none. */
static int group_save(cli_run *r, size_t n, pk_step **steps, const pk_step_result *res,
                      bool strict, const char *side)
{
    pk_staged **st = calloc(n + 1, sizeof *st);
    pk_buf *buf = calloc(n + 1, sizeof *buf);
    int rc = EXIT_ERROR;
    if (!st || !buf) {
        fprintf(stderr, "posekit %s: out of memory\n", r[0].cmd);
        goto done;
    }
    size_t k = 0;
    for (; k < n; k++) {
        pk_log log;
        pk_log_init(&log);
        pk_buf_init(&buf[k]);
        pk_encode_options eo;
        memset(&eo, 0, sizeof eo);
        eo.vpd = res[k].vpd;
        pk_format f = cli_output_format(r[k].out, res[k].out.format);
        if (pk_doc_encode(&res[k].out, f, &eo, pk_buf_sink, &buf[k], &log) == 0)
            st[k] = pk_file_stage(r[k].out, buf[k].data, buf[k].len, &log);
        pk_log_place(&log, 0, r[k].out);
        int flushed = cli_flush_log(&log, strict);
        pk_log_free(&log);
        if (!st[k] || flushed != EXIT_OK) {
            pk_file_discard(st[k]);
            st[k] = NULL;
            break;
        }
    }
    if (k == n && side) {
        pk_log log;
        pk_log_init(&log);
        pk_buf_init(&buf[n]);
        if (pk_step_group_report(steps, n, res, PK_REPORT_JSON, &buf[n], &log) == 0)
            st[n] = buf[n].oom ? NULL : pk_file_stage(side, buf[n].data, buf[n].len, &log);
        if (buf[n].oom)
            pk_log_add_at(&log, PK_ERROR, PK_E_NO_MEMORY, side, -1, 0, 0, "out of memory");
        int flushed = cli_flush_log(&log, false);
        pk_log_free(&log);
        if (!st[n] || flushed != EXIT_OK) {
            pk_file_discard(st[n]);
            st[n] = NULL; /* every member's staged file is discarded below */
        }
    }
    if (k < n || (side && !st[n])) {
        for (size_t i = 0; i < n; i++)
            pk_file_discard(st[i]);
        goto done;
    }
    pk_log log;
    pk_log_init(&log);
    pk_file_commit_all(st, n + (side != NULL), &log);
    rc = cli_flush_log(&log, false);
    pk_log_free(&log);
done:
    for (size_t i = 0; buf && i <= n; i++)
        pk_buf_free(&buf[i]);
    free(buf);
    free(st);
    return rc;
}

/* Each member's lines behind "posekit CMD: MEMBER N: ", then the
 * group's; or the group's JSON on standard output (the side file was
 * saved with the documents, group_save). */
static int group_report(cli_run *r, size_t n, pk_step **steps, const pk_step_result *res, bool json)
{
    pk_log log;
    pk_log_init(&log);
    pk_buf b;
    pk_buf_init(&b);
    int rc = EXIT_OK;
    if (json) {
        if (pk_step_group_report(steps, n, res, PK_REPORT_JSON, &b, &log) != 0)
            rc = EXIT_ERROR;
        if (rc == EXIT_OK && b.len &&
            (cli_put_shown(stdout, (const char *)b.data, b.len) != 0 || fflush(stdout))) {
            fprintf(stderr, "posekit %s: cannot write standard output\n", r[0].cmd);
            rc = EXIT_ERROR;
        }
        cli_flush_log(&log, false);
        pk_buf_free(&b);
        pk_buf_init(&b);
    }
    if (rc == EXIT_OK && !json) {
        for (size_t k = 0; k < n; k++) {
            pk_buf line;
            pk_buf_init(&line);
            pk_step_summary(steps[k], &res[k], &line);
            char prefix[96];
            snprintf(prefix, sizeof prefix, "posekit %s: %s", r[k].cmd, r[k].who);
            print_lines(stderr, prefix, &line);
            pk_buf_free(&line);
        }
        pk_step_group_summary(steps, n, res, &b);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "posekit %s: ", r[0].cmd);
        print_lines(stderr, prefix, &b);
    }
    pk_buf_free(&b);
    pk_log_free(&log);
    return rc;
}

static void group_free(cli_run *r, size_t n, pk_doc **docs, void ***things, pk_step_result *res)
{
    for (size_t k = 0; r && k < n; k++) {
        if (res)
            pk_step_result_free(&res[k]);
        const char *const *in;
        size_t ni = r[k].step ? pk_step_inputs(r[k].step, &in) : 0;
        for (size_t i = 0; docs && docs[k] && i < ni; i++)
            pk_doc_free(&docs[k][i]);
        if (docs)
            free(docs[k]);
        if (things && r[k].step)
            free_things(r[k].step, things[k]);
        if (things)
            free(things[k]);
        pk_step_free(r[k].step);
    }
    free(res);
    free(docs);
    free(things);
    free(r);
}

static int group_main(const char *cmd, int argc, char **argv)
{
    int *start = calloc((size_t)argc + 1, sizeof *start);
    int *end = calloc((size_t)argc + 1, sizeof *end);
    pk_log log;
    pk_log_init(&log);
    size_t n = start && end ? split_members(argc, argv, start, end) : 0;
    cli_run *r = calloc(n ? n : 1, sizeof *r);
    pk_step **steps = calloc(n ? n : 1, sizeof *steps);
    pk_doc **docs = calloc(n ? n : 1, sizeof *docs);
    void ***things = calloc(n ? n : 1, sizeof *things);
    pk_step_result *res = calloc(n ? n : 1, sizeof *res);
    int rc = EXIT_ERROR;
    if (!n || !r || !steps || !docs || !things || !res) {
        fprintf(stderr, "posekit %s: out of memory\n", cmd);
        goto out;
    }
    bool later = false, strict = false, help = false;
    for (size_t k = 0; k < n; k++) {
        r[k].cmd = cmd;
        r[k].log = &log;
        r[k].step = steps[k] = pk_step_new(cmd, "--", &log);
        if (!r[k].step) {
            cli_flush_log(&log, false);
            goto out;
        }
        pk_step_set_member(r[k].step);
        r[k].cli = pk_step_cli_of(r[k].step);
        snprintf(r[k].who, sizeof r[k].who, "%s %zu: ", pk_step_group_name(r[k].step, true), k + 1);
        if (end[k] == start[k]) {
            rc = run_usage(&r[k], "nothing %s --and (IN --from A --to B -o OUT)",
                           k ? "after" : "before");
            goto out;
        }
        /* argv[start - 1] is the command or --and: the walk begins after it */
        rc = cli_walk(cmd, end[k] - start[k] + 1, argv + start[k] - 1, option, operand, &r[k]);
        if (rc != EXIT_OK)
            goto out;
        help |= r[k].help;
    }
    for (size_t k = 0; k < n && help; k++)
        if (r[k].help) {
            bool done;
            rc = prepare(&r[k], &later, &done);
            goto out;
        }
    bool json;
    const char *side;
    rc = group_flags(r, n, &json, &side);
    for (size_t k = 0; k < n && rc == EXIT_OK; k++) {
        bool done;
        const char *own_side = r[k].side;
        r[k].side = NULL; /* the group's, checked below */
        rc = prepare(&r[k], &later, &done);
        r[k].side = own_side;
        strict |= pk_step_strict(r[k].step);
    }
    /* the group's file is no member's: said without "dancer N: ", and
     * after group_outputs, which names the member whose file it would
     * overwrite */
    if (rc == EXIT_OK)
        rc = group_outputs(r, n, side);
    if (rc == EXIT_OK && side) {
        cli_run sr = r[0];
        sr.side = side;
        sr.who[0] = '\0';
        rc = check_side(&sr);
    }
    if (rc == EXIT_OK && pk_step_check_group(steps, n, &log) != 0)
        rc = usage_from(&(cli_run){.cmd = cmd, .log = &log});
    for (size_t k = 0; k < n && rc == EXIT_OK; k++) {
        const char *const *in;
        size_t ni = pk_step_inputs(r[k].step, &in);
        docs[k] = calloc(ni ? ni : 1, sizeof *docs[k]);
        things[k] = calloc(pk_step_needs(r[k].step, NULL, 0) + 1, sizeof *things[k]);
        if (!docs[k] || !things[k]) {
            fprintf(stderr, "posekit %s: out of memory\n", cmd);
            rc = EXIT_ERROR;
            break;
        }
        rc = load_all(&r[k], docs[k], things[k], false);
    }
    if (rc != EXIT_OK)
        goto out;
    int ran = pk_step_run_group(steps, n, docs, res, &log);
    if (flush_run(cmd, &log, ran, strict) != EXIT_OK) {
        rc = EXIT_ERROR;
        goto out;
    }
    rc = group_save(r, n, steps, res, strict, side);
    if (rc == EXIT_OK)
        rc = group_report(r, n, steps, res, json);
out:
    pk_log_free(&log);
    group_free(r, n, docs, things, res);
    free(steps);
    free(start);
    free(end);
    return rc;
}

/* Whether argv joins members of a group with --and (before any "--"). */
static bool joined(const char *cmd, int argc, char **argv)
{
    bool and = false;
    for (int i = 1; i < argc && !and; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        and = strcmp(argv[i], "--and") == 0;
    }
    if (!and)
        return false;
    pk_log quiet;
    pk_log_init(&quiet);
    pk_step *s = pk_step_new(cmd, "--", &quiet);
    bool groups = s && pk_step_group_name(s, false);
    pk_step_free(s);
    pk_log_free(&quiet);
    return groups;
}

int cli_step_main(const char *cmd, int argc, char **argv)
{
    if (joined(cmd, argc, argv))
        return group_main(cmd, argc, argv);
    cli_run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    pk_log log;
    pk_log_init(&log);
    r.log = &log;
    r.step = pk_step_new(cmd, "--", &log);
    if (!r.step) {
        cli_flush_log(&log, false);
        return EXIT_ERROR;
    }
    r.cli = pk_step_cli_of(r.step);
    pk_doc *docs = NULL;
    void **things = NULL;
    size_t n = 0;
    pk_step_result res;
    memset(&res, 0, sizeof res);
    bool later = false, done = false;
    int rc = cli_walk(cmd, argc, argv, option, operand, &r);
    if (rc == EXIT_OK)
        rc = prepare(&r, &later, &done);
    if (rc != EXIT_OK || done)
        goto out;
    const char *const *in;
    n = pk_step_inputs(r.step, &in);
    docs = calloc(n ? n : 1, sizeof *docs);
    things = calloc(pk_step_needs(r.step, NULL, 0) + 1, sizeof *things);
    if (!docs || !things) {
        fprintf(stderr, "posekit %s: out of memory\n", cmd);
        rc = EXIT_ERROR;
        goto out;
    }
    cli_progress progress;
    /* a terminal's line for the commands that offer one; the page's bar
     * (cli_progress_own) for every command, sizing the longest */
    if ((r.cli->progress || cli_progress_own()) && !r.quiet)
        cli_progress_start(&progress, cmd, &log);
    rc = load_all(&r, docs, things, later);
    if (rc == EXIT_OK)
        rc = run(&r, docs, n, &res);
    cli_progress_clear(&log);
out:
    pk_step_result_free(&res);
    for (size_t i = 0; docs && i < n; i++)
        pk_doc_free(&docs[i]);
    free(docs);
    free_things(r.step, things);
    free(things);
    pk_step_free(r.step);
    pk_log_free(&log);
    return rc;
}
