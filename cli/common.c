/* common.c — what every command shares: diagnostics, loading, saving,
 * usage errors and option parsing (declared in cli.h). */
#include "cli.h"
#include "util/number.h"
#include "util/text.h"
#include "util/utf8.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *cli_cmd_name = NULL;
const char *cli_cmd_help = NULL;

/* ------------------------------------------------------------ diagnostics */

int cli_put_shown(FILE *f, const char *s, size_t n)
{
    const char *end = s + n, *run = s; /* run: bytes written as they are */
    while (s < end) {
        unsigned char c = (unsigned char)*s;
        size_t k = 1;
        bool shown;
        if (c >= 0x80) {
            /* a sequence cut by the end of the text is no sequence:
             * its bytes are looked at within the text only */
            unsigned char seq[5] = {0};
            memcpy(seq, s, (size_t)(end - s) < 4 ? (size_t)(end - s) : 4);
            k = pki_utf8_seq(seq);
            shown = k > 0;
        } else {
            shown = c >= 0x20 ? c != 0x7F : c == '\t' || c == '\n';
        }
        if (shown) {
            s += k;
            continue;
        }
        if (s > run && fwrite(run, 1, (size_t)(s - run), f) != (size_t)(s - run))
            return EOF;
        if (fprintf(f, "\\x%02X", c) < 0)
            return EOF;
        run = ++s;
    }
    if (s > run && fwrite(run, 1, (size_t)(s - run), f) != (size_t)(s - run))
        return EOF;
    return 0;
}

static void vprintf_shown(FILE *f, const char *fmt, va_list ap) PK_PRINTF(2, 0);
static void vprintf_shown(FILE *f, const char *fmt, va_list ap)
{
    char small[1024];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *text = small;
    if (n >= 0 && (size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (text)
            vsnprintf(text, (size_t)n + 1, fmt, again);
        else
            text = small, n = (int)sizeof small - 1; /* out of memory: cut */
    }
    va_end(again);
    if (n >= 0)
        cli_put_shown(f, text, (size_t)n);
    if (text != small)
        free(text);
}

void cli_printf_shown(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf_shown(f, fmt, ap);
    va_end(ap);
}

/* "posekit: " before a diagnostic about a file (it starts with the
 * file's name), "posekit COMMAND: " before one about none. */
static void print_diag(const pk_diag *d, const char *text, const char *more)
{
    if (!d->path && cli_cmd_name && d->msg) {
        const char *m = d->msg;
        size_t n = strlen(cli_cmd_name);
        if (strncmp(m, cli_cmd_name, n) == 0 && m[n] == ':' && m[n + 1] == ' ')
            m += n + 2; /* the message named the command itself */
        cli_printf_shown(stderr, "posekit %s: %s%s%s\n", cli_cmd_name,
                         d->severity == PK_WARNING ? "warning: " : "", m, more);
    } else {
        cli_printf_shown(stderr, "posekit: %s%s\n", text, more);
    }
}

void cli_print_log(const pk_log *log)
{
    char small[512];
    for (size_t i = 0; i < log->count; i++) {
        const pk_diag *d = &log->items[i];
        int n = pk_diag_format(d, small, sizeof small);
        if (n < 0)
            continue;
        if ((size_t)n < sizeof small) {
            print_diag(d, small, "");
            continue;
        }
        char *big = malloc((size_t)n + 1);
        if (!big) {
            print_diag(d, small, "...");
            continue;
        }
        pk_diag_format(d, big, (size_t)n + 1);
        print_diag(d, big, "");
        free(big);
    }
    /* The log drops a message it had no memory for but still counts it. */
    if (log->errors + log->warnings > log->count)
        fprintf(stderr, "posekit: (%zu messages lost: out of memory)\n",
                log->errors + log->warnings - log->count);
}

int cli_flush_log(pk_log *log, bool strict)
{
    if (log->count || (strict && log->warnings))
        cli_progress_clear(log);
    cli_print_log(log);
    int rc = EXIT_OK;
    if (log->errors) {
        rc = EXIT_ERROR;
    } else if (strict && log->warnings) {
        fprintf(stderr, "posekit%s%s: warnings are errors (--strict)\n", cli_cmd_name ? " " : "",
                cli_cmd_name ? cli_cmd_name : "");
        rc = EXIT_ERROR;
    }
    pk_progress_fn progress = log->progress; /* the log goes on reporting */
    void *progress_ctx = log->progress_ctx;
    pk_log_free(log);
    pk_log_init(log);
    pk_log_set_progress(log, progress, progress_ctx);
    return rc;
}

/* --------------------------------------------------------- loading/saving */

int cli_load(const char *path, pk_doc *doc, bool strict, const pk_log *progress)
{
    pk_log log;
    pk_log_init(&log);
    if (progress)
        pk_log_set_progress(&log, progress->progress, progress->progress_ctx);
    int rc = pk_doc_load(path, doc, &log);
    int status = cli_flush_log(&log, strict);
    if (rc != 0 || status != EXIT_OK) {
        pk_doc_free(doc);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

bool cli_is_folder(const char *path)
{
    /* "out/" (on Windows "out\\" too) is a folder by its spelling, there
     * or not (not a file named "out/" in an unknown format) */
    return strcmp(path, "-") != 0 && pk_path_names_folder(path);
}

pk_format cli_output_format(const char *out_path, pk_format input)
{
    if (strcmp(out_path, "-") == 0)
        return input;
    pk_format f = pk_output_format(out_path, NULL);
    if (f == PK_FMT_UNKNOWN && pk_path_kind_of(out_path) == PK_PATH_OTHER)
        return input;
    return f;
}

/* An output over this many bytes is announced before it is written. */
#define CLI_LARGE_OUTPUT 500000000u

/* pk_file_stage_from's producer: the document encoded straight into the
 * temporary file. */
typedef struct encoding {
    const pk_doc *doc;
    pk_format format;
    pk_encode_options opts;
} encoding;

static int produce(void *ctx, pk_sink sink, void *sink_ctx, pk_log *log)
{
    const encoding *e = ctx;
    return pk_doc_encode(e->doc, e->format, &e->opts, sink, sink_ctx, log);
}

/* Puts a staged output in place, and a staged side file (or NULL) with
 * it, together; "-" first flushes what the command may already have
 * printed, so standard output stays in order. */
static int commit(pk_staged *st, const char *out_path, pk_staged *side, pk_log *log)
{
    if (strcmp(out_path, "-") == 0)
        fflush(stdout);
    if (side) {
        pk_staged *both[2] = {st, side};
        pk_file_commit_all(both, 2, log);
    } else {
        pk_file_commit(st, log);
    }
    return cli_flush_log(log, false);
}

int cli_save(const char *out_path, const pk_doc *doc, const pk_encode_options *opts, bool strict,
             const pk_log *progress, const char *side_path, const pk_buf *side)
{
    pk_log log;
    pk_log_init(&log); /* what encoding and writing say is about the output */
    if (progress)
        pk_log_set_progress(&log, progress->progress, progress->progress_ctx);
    pk_buf buf;
    pk_buf_init(&buf);
    /* A motion written as a VMD is encoded straight into the temporary
     * file (no buffer the size of the output); anything else is encoded
     * into buf first, so that an error in it comes before any file. */
    encoding e = {doc, cli_output_format(out_path, doc->format), {0, {PK_VPD_TEXT, false}}};
    if (opts)
        e.opts = *opts;
    pk_staged *st = NULL;
    if (e.format == PK_FMT_VMD && strcmp(out_path, "-") == 0 && pk_stdout_is_terminal()) {
        /* bytes a terminal would show as garbage, or obey: a slip of
         * "-o -" with no redirection (gzip refuses alike) */
        cli_progress_clear(&log);
        pk_log_free(&log);
        return cli_usage(cli_cmd_name ? cli_cmd_name : "convert",
                         "-o - would write a binary VMD to the terminal: redirect standard "
                         "output (> FILE.vmd) or name the file");
    }
    if (doc->motion && e.format == PK_FMT_VMD) {
        size_t size = pk_vmd_size(doc->motion);
        if (size > CLI_LARGE_OUTPUT) { /* said before the minutes it takes */
            cli_progress_clear(&log);
            cli_printf_shown(stderr, "posekit: %s: writing %.0f MB\n", out_path, (double)size / 1e6);
        }
        st = pk_file_stage_from(out_path, produce, &e, &log);
    } else if (pk_doc_encode(doc, e.format, &e.opts, pk_buf_sink, &buf, &log) == 0)
        st = pk_file_stage(out_path, buf.data, buf.len, &log);
    /* Encoding problems (and, with --strict, warnings such as duplicate
     * keys met while sampling) stop the run before anything is put in
     * place. */
    pk_log_place(&log, 0, out_path);
    int status = cli_flush_log(&log, strict);
    /* the side file staged too: a side file that cannot be written (a
     * missing folder) leaves the document unwritten as well */
    pk_staged *side_st = NULL;
    if (st && status == EXIT_OK && side_path) {
        if (side->oom)
            pk_log_add_at(&log, PK_ERROR, PK_E_NO_MEMORY, side_path, -1, 0, 0, "out of memory");
        else
            side_st = pk_file_stage(side_path, side->data, side->len, &log);
        if (!side_st) {
            cli_flush_log(&log, false);
            status = EXIT_ERROR;
        }
    }
    if (st && status == EXIT_OK) {
        status = commit(st, out_path, side_st, &log);
    } else {
        pk_file_discard(st);
        status = EXIT_ERROR;
    }
    pk_buf_free(&buf);
    pk_log_free(&log);
    return status;
}

int cli_write(const char *out_path, const pk_buf *buf)
{
    pk_log log;
    pk_log_init(&log);
    pk_staged *st = NULL;
    if (buf->oom) {
        pk_log_add_at(&log, PK_ERROR, PK_E_NO_MEMORY, out_path, -1, 0, 0, "out of memory");
    } else {
        st = pk_file_stage(out_path, buf->data, buf->len, &log);
    }
    int status = st ? commit(st, out_path, NULL, &log) : cli_flush_log(&log, false);
    pk_log_free(&log);
    return status;
}

/* --------------------------------------------------------------- usage */

int cli_usage(const char *cmd, const char *fmt, ...)
{
    cli_printf_shown(stderr, "posekit %s: ", cmd);
    va_list ap;
    va_start(ap, fmt);
    vprintf_shown(stderr, fmt, ap);
    va_end(ap);
    cli_printf_shown(stderr, "\nTry 'posekit help %s'.\n", cmd);
    return EXIT_ERROR;
}

int cli_help(const char *text)
{
    fputs(text, stdout);
    return EXIT_OK;
}

int cli_one_operand(const char *cmd, const char *what, const char *const *operands, size_t n,
                    const char **operand)
{
    if (n == 0)
        return cli_usage(cmd, "no %s given", what);
    if (n > 1)
        return cli_usage(cmd, "one %s at a time ('%s' is extra)", what, operands[1]);
    *operand = operands[0];
    return EXIT_OK;
}

int cli_flag(const char *cmd, const char *flag, const char *value, bool *on)
{
    if (!value) { /* a bare --flag */
        *on = true;
        return EXIT_OK;
    }
    if (pki_num_bool(value, on))
        return EXIT_OK;
    return cli_usage(cmd, "--%s is true or false, not '%s'", flag, value);
}

/* The long options a command's help shows ("--name"), without the dashes,
 * each once. */
typedef struct help_options {
    char names[96][32];
    const char *words[96];
    size_t n;
} help_options;

static void help_options_of(const char *cmd, help_options *h)
{
    /* the command being run is the one walked (a group's members too) */
    const char *help = cli_cmd_name && strcmp(cli_cmd_name, cmd) == 0 ? cli_cmd_help : NULL;
    h->n = 0;
    for (const char *p = help ? strstr(help, "--") : NULL; p && h->n < 96; p = strstr(p, "--")) {
        p += 2;
        size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (len == 0 || len >= sizeof h->names[0] ||
            (p - 3 >= help && isalnum((unsigned char)p[-3])))
            continue;
        snprintf(h->names[h->n], sizeof h->names[0], "%.*s", (int)len, p);
        bool seen = false;
        for (size_t i = 0; i < h->n && !seen; i++)
            seen = strcmp(h->words[i], h->names[h->n]) == 0;
        if (!seen) {
            h->words[h->n] = h->names[h->n];
            h->n++;
        }
    }
}

/* The option name arg gives ("treshold" of "--treshold=1", "output" of
 * "-output"). */
static void given_name(const char *arg, char given[64])
{
    const char *g = arg + 1 + (arg[1] == '-');
    snprintf(given, 64, "%.*s", (int)strcspn(g, "="), g);
}

/* Whether arg is a long option of cmd written with one dash ("-output",
 * "-verbose"), which would read as -o "utput" or -v. */
static bool one_dash_long(const char *cmd, const char *arg)
{
    if (arg[1] == '-' || !arg[2])
        return false;
    char given[64];
    given_name(arg, given);
    help_options h;
    help_options_of(cmd, &h);
    for (size_t i = 0; i < h.n; i++)
        if (strcmp(h.words[i], given) == 0)
            return true;
    return false;
}

/* "unknown option": with the option of the command's help a slip away
 * from arg, if any ('-frames' and '--frame' find '--frames'). */
static int unknown_option(const char *cmd, const char *arg)
{
    char given[64];
    given_name(arg, given);
    help_options h;
    help_options_of(cmd, &h);
    long near =
        arg[1] == '-' || strlen(given) > 1 ? pki_nearest_word(given, h.words, h.n) : -1;
    /* -o to a command that writes no file: where its output goes */
    bool out = (arg[1] == 'o' && !one_dash_long(cmd, arg)) || strcmp(given, "output") == 0;
    for (size_t i = 0; out && i < h.n; i++)
        out = strcmp(h.words[i], "output") != 0; /* the command has -o: a slip of another kind */
    if (out && strcmp(cmd, "run") == 0)
        return cli_usage(cmd, "unknown option '%s': a job names its files (outputs: in the job)",
                         arg);
    if (out)
        return cli_usage(cmd,
                         "unknown option '%s': %s prints to standard output (redirect it: "
                         "> FILE)",
                         arg, cmd);
    if (near >= 0)
        return cli_usage(cmd, "unknown option '%s' (did you mean '--%s'?)", arg, h.words[near]);
    return cli_usage(cmd, "unknown option '%s'", arg);
}

int cli_walk(const char *cmd, int argc, char **argv, cli_opt_fn opt, cli_operand_fn operand,
             void *ctx)
{
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options || arg[0] != '-' || arg[1] == '\0') {
            /* every command's operands are files: an empty one is a
             * slip of the shell ("$UNSET"), said as such, not as a file
             * that is not there or as the option the operand stands for */
            if (!*arg)
                return cli_usage(cmd, "a file name is empty ('')");
            if (operand(ctx, arg) != EXIT_OK)
                return EXIT_ERROR;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options = false;
            continue;
        }
        /* --name, --name=value, --name value; -o value, -oVALUE, -j N, -v, -h */
        char name[64];
        const char *inline_value = NULL;
        bool long_form = arg[1] == '-';
        if (long_form) {
            const char *eq = strchr(arg + 2, '=');
            size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
            if (n >= sizeof name)
                n = sizeof name - 1;
            memcpy(name, arg + 2, n);
            name[n] = '\0';
            inline_value = eq ? eq + 1 : NULL;
        } else {
            name[0] = arg[1];
            name[1] = '\0';
            inline_value = arg[2] ? arg + 2 : NULL;
            /* -oVALUE and -jN take their value glued on; -v and -h none;
             * a long option with one dash ("-output") is a slip, not -o
             * "utput" */
            if ((arg[1] != 'o' && arg[1] != 'v' && arg[1] != 'h' && arg[1] != 'j') ||
                (inline_value && (arg[1] == 'v' || arg[1] == 'h')) || one_dash_long(cmd, arg))
                return unknown_option(cmd, arg);
            /* "-o=out.vmd" would write a file named "=out.vmd": a slip
             * for --output=out.vmd or -o out.vmd, never a name one means */
            if (inline_value && inline_value[0] == '=' && (arg[1] == 'o' || arg[1] == 'j'))
                return cli_usage(cmd, "'%s': write -%c %s (a value glued to -%c with '=' "
                                      "would begin with '=')",
                                 arg, arg[1], inline_value + 1, arg[1]);
        }
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int c = opt(ctx, name, inline_value, next, long_form);
        if (c < 0)
            return EXIT_ERROR;
        if (c == 0)
            return unknown_option(cmd, arg);
        if (c == 2)
            i++;
    }
    return EXIT_OK;
}

/* cli_walk_switches's state. */
typedef struct switches {
    const char *cmd;
    const cli_switch *sw;
    const char **operands;
    size_t n;
} switches;

static int switch_option(void *ctx, const char *name, const char *inline_value, const char *next,
                         bool long_form)
{
    (void)next;
    switches *w = ctx;
    const char *full = long_form ? name : strcmp(name, "h") == 0 ? "help" : NULL;
    for (const cli_switch *s = w->sw; full && s->name; s++)
        if (strcmp(s->name, full) == 0)
            return cli_flag(w->cmd, full, inline_value, s->on) == EXIT_OK ? 1 : -1;
    return 0;
}

static int switch_operand(void *ctx, const char *arg)
{
    switches *w = ctx;
    w->operands[w->n++] = arg;
    return EXIT_OK;
}

int cli_walk_switches(const char *cmd, int argc, char **argv, const cli_switch *sw,
                      const char ***operands, size_t *n)
{
    switches w = {cmd, sw, calloc((size_t)argc + 1, sizeof *w.operands), 0};
    *operands = w.operands;
    *n = 0;
    if (!w.operands) {
        fprintf(stderr, "posekit %s: out of memory\n", cmd);
        return EXIT_ERROR;
    }
    int rc = cli_walk(cmd, argc, argv, switch_option, switch_operand, &w);
    *n = w.n;
    return rc;
}
