/* step_cmd.c — the one driver of the commands that are steps (convert,
 * diff, rename, mirror, retarget, overlay, merge, reduce, bake, check): argv goes into the
 * step's options through pk_step_set (the setter job files use), the
 * engine checks and runs it, and this file only loads, writes and prints
 * (cli.h). */
#include "cli.h"
#include "svg.h"

#include <stdlib.h>
#include <string.h>

typedef struct cli_run {
    const char *cmd;
    pk_step *step;
    const char *out, *svg, *rules_out;
    bool json, csv, help;
    bool json_given, csv_given; /* each may be given once, as step flags */
    const pk_doc *docs;     /* diff --svg --model: the two inputs, as read */
    const pk_model *model;  /* diff --svg --model: the model */
} cli_run;

/* The first error of a log as a usage error. */
static int usage_from(const char *cmd, pk_log *log)
{
    const char *msg = "invalid options";
    for (size_t i = 0; i < log->count; i++)
        if (log->items[i].severity == PK_ERROR) {
            msg = log->items[i].msg;
            break;
        }
    int rc = cli_usage(cmd, "%s", msg);
    pk_log_free(log);
    pk_log_init(log);
    return rc;
}

/* Options of the command line itself (not of the step). */
static int cli_option(cli_run *r, const char *name, const char *inline_value, const char *value,
                      bool *used_value)
{
    pk_step_op op = pk_step_kind(r->step);
    *used_value = false;
    /* the flags below take an optional =true/=false, as step booleans do */
    bool on = true;
    if ((strcmp(name, "strict") == 0 || strcmp(name, "verbose") == 0 || strcmp(name, "help") == 0 ||
         strcmp(name, "json") == 0 || strcmp(name, "csv") == 0) &&
        cli_flag(r->cmd, name, inline_value, &on) != EXIT_OK)
        return -1;
    if (strcmp(name, "strict") == 0) {
        if (!on)
            return 1;
        /* the CLI reads the inputs: it applies strictness; the step's
         * option says it too (a job's strict: true) */
        cli_strict = true;
        pk_log quiet;
        pk_log_init(&quiet);
        if (!pk_step_strict(r->step))
            pk_step_set(r->step, "strict", NULL, &quiet);
        pk_log_free(&quiet);
        return 1;
    }
    if ((strcmp(name, "verbose") == 0 || strcmp(name, "v") == 0) &&
        (op == PK_STEP_RENAME || op == PK_STEP_MIRROR || op == PK_STEP_RETARGET)) {
        if (!on)
            return 1;
        pk_log quiet; /* a second -v is no error */
        pk_log_init(&quiet);
        pk_step_set(r->step, "verbose", NULL, &quiet);
        pk_log_free(&quiet);
        return 1;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "h") == 0) {
        r->help = on;
        return 1;
    }
    if (strcmp(name, "json") == 0 && (op == PK_STEP_DIFF || op == PK_STEP_MERGE ||
                                      op == PK_STEP_REDUCE || op == PK_STEP_BAKE ||
                                      op == PK_STEP_OVERLAY ||
                                      op == PK_STEP_CHECK || op == PK_STEP_DRAW)) {
        if (r->json_given)
            return cli_usage(r->cmd, "--json is given twice"), -1;
        r->json_given = true;
        r->json = on;
        return 1;
    }
    if (strcmp(name, "csv") == 0 && op == PK_STEP_DIFF) {
        if (r->csv_given)
            return cli_usage(r->cmd, "--csv is given twice"), -1;
        r->csv_given = true;
        r->csv = on;
        return 1;
    }
    bool is_out = (strcmp(name, "output") == 0 || strcmp(name, "o") == 0) &&
                  op != PK_STEP_DIFF && op != PK_STEP_CHECK;
    bool is_svg = strcmp(name, "svg") == 0 && op == PK_STEP_DIFF;
    bool is_rules = strcmp(name, "suggest-rules") == 0 && op == PK_STEP_CHECK;
    if (is_out || is_svg || is_rules) {
        const char *flag = is_out ? (name[1] ? "--output" : "-o") : is_svg ? "--svg"
                                                                            : "--suggest-rules";
        if (!value || !*value)
            return cli_usage(r->cmd, "'%s' wants a file name (missing value)", flag), -1;
        const char **slot = is_out ? &r->out : is_svg ? &r->svg : &r->rules_out;
        if (*slot)
            return cli_usage(r->cmd, "%s is given twice", flag), -1;
        /* the standard output by its device names is "-": written in place
         * in the input's format, wherever the shell sent it (a file too) */
        bool stdout_alias = strcmp(value, "/dev/stdout") == 0 || strcmp(value, "/dev/fd/1") == 0 ||
                            strcmp(value, "/proc/self/fd/1") == 0;
        *slot = is_out && stdout_alias ? "-" : value;
        *used_value = true;
        return 1;
    }
    return 0;
}

/* argv[1..] into the step and r.  EXIT_OK or a usage error. */
static int parse(cli_run *r, int argc, char **argv, pk_log *log)
{
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options || arg[0] != '-' || arg[1] == '\0') {
            if (pk_step_operand(r->step, arg, log) != 0)
                return usage_from(r->cmd, log);
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options = false;
            continue;
        }
        /* --name, --name=value, --name value; -o value, -oVALUE, -v, -h */
        char name[64];
        const char *inline_value = NULL;
        if (arg[1] == '-') {
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
            if (arg[1] != 'o' && arg[1] != 'v' && arg[1] != 'h')
                return cli_usage(r->cmd, "unknown option '%s'", arg);
        }
        const char *next = inline_value ? inline_value : i + 1 < argc ? argv[i + 1] : NULL;
        bool used = false;
        int c = cli_option(r, name, inline_value, next, &used);
        if (c < 0)
            return EXIT_ERROR;
        if (c > 0) {
            if (used && !inline_value)
                i++;
            continue;
        }
        int arity = pk_step_option(r->step, name);
        if (arity < 0 || arg[1] != '-')
            return cli_usage(r->cmd, "unknown option '%s'", arg);
        const char *value = NULL;
        if (arity == 1) {
            if (!next)
                return cli_usage(r->cmd, "--%s wants a value", name);
            value = next;
            if (!inline_value)
                i++;
        } else {
            value = inline_value;
        }
        if (pk_step_set(r->step, name, value, log) != 0)
            return usage_from(r->cmd, log);
    }
    return EXIT_OK;
}

/* Does path name a file the command reads: an input, a model (--model,
 * --vs-model, --from, --to) or the rules file?  By name and, where both
 * exist, by identity (another spelling, a link). */
/* What path names among the files the command reads: "an input", "the
 * model", "the rules file", or NULL for none of them. */
static const char *source_named(const cli_run *r, const char *path, const char *const *inputs,
                                size_t n)
{
    const char *other[] = {pk_step_model(r->step), pk_step_vs_model(r->step),
                           pk_step_model_from(r->step), pk_step_model_to(r->step),
                           pk_step_rules(r->step)};
    size_t nother = sizeof other / sizeof *other;
    for (size_t i = 0; i < n + nother; i++) {
        const char *p = i < n ? inputs[i] : other[i - n];
        if (p && strcmp(p, "-") != 0 && (strcmp(path, p) == 0 || pk_path_same_file(path, p)))
            return i < n ? "an input" : i + 1 < n + nother ? "the model" : "the rules file";
    }
    return NULL;
}
/* draw: -o names the picture (.svg) or, with --json, the world transforms
 * (.json; none or '-': standard output); never an input or a model. */
static int check_draw_output(const cli_run *r, const char *const *inputs, size_t n)
{
    const char *ext = r->json ? ".json" : ".svg";
    if (!r->out && !r->json)
        return cli_usage(r->cmd, "no output given (-o OUT.svg)");
    if (!r->out || strcmp(r->out, "-") == 0) {
        if (!r->json)
            return cli_usage(r->cmd, "-o - would write the picture to standard output: name a "
                                     ".svg file (--json writes to standard output)");
        return EXIT_OK;
    }
    const char *src = source_named(r, r->out, inputs, n);
    if (src)
        return cli_usage(r->cmd, "-o '%s' is %s: it would be overwritten", r->out, src);
    if (cli_is_folder(r->out))
        return cli_usage(r->cmd, "-o names a folder ('%s'): name the file to write", r->out);
    if (!cli_has_ext(r->out, ext))
        return cli_usage(r->cmd, "%s writes %s: name the output %s, not '%s'", r->cmd,
                         r->json ? "JSON (--json)" : "an SVG picture", ext, r->out);
    return EXIT_OK;
}

/* The main output and the side outputs: never an input (side outputs) or a
 * file the command reads beside its inputs, and named for what they hold;
 * with the main output on standard output, no second stream there. */
static int check_outputs(const cli_run *r, const char *const *inputs, size_t n)
{
    pk_step_op op = pk_step_kind(r->step);
    if (op == PK_STEP_DRAW)
        return check_draw_output(r, inputs, n);
    if (op != PK_STEP_DIFF && op != PK_STEP_CHECK && !r->out)
        return cli_usage(r->cmd, "no output given (-o OUT)");
    if (r->out && cli_is_folder(r->out))
        return cli_usage(r->cmd, "-o names a folder ('%s'): name the file to write in it", r->out);
    /* -o may name the input (rewritten in place), never a model or the
     * rules file the command reads beside it (as in a job) */
    const char *read = r->out && strcmp(r->out, "-") != 0 ? source_named(r, r->out, NULL, 0) : NULL;
    if (read)
        return cli_usage(r->cmd, "-o '%s' is %s this command reads: it would be overwritten",
                         r->out, read);
    if (r->out && cli_output_format(r->out, PK_FMT_VPD) == PK_FMT_UNKNOWN)
        return cli_usage(r->cmd, "cannot tell the output format of '%s': use .vmd or .vpd", r->out);
    /* A .vpd output holding a motion (only convert --frame turns a motion
     * into one pose) is checked once the inputs are read: a pose may be
     * written as a .vpd. */
    if (r->json && r->csv)
        return cli_usage(r->cmd, "--json and --csv exclude each other");
    if (r->json && r->out && strcmp(r->out, "-") == 0)
        return cli_usage(r->cmd, "--json and -o - would both write standard output");
    size_t stdin_inputs = 0;
    for (size_t i = 0; i < n; i++)
        stdin_inputs += strcmp(inputs[i], "-") == 0;
    if (stdin_inputs > 1)
        return cli_usage(r->cmd, "standard input ('-') can be read once; %zu inputs name it",
                         stdin_inputs);
    if (r->rules_out) {
        if (strcmp(r->rules_out, "-") == 0)
            return cli_usage(r->cmd, "--suggest-rules - would mix the rules with the report on "
                                     "standard output: name a .yaml file");
        const char *src = source_named(r, r->rules_out, inputs, n);
        if (src)
            return cli_usage(r->cmd, "--suggest-rules '%s' is %s: it would be overwritten",
                             r->rules_out, src);
        if (cli_is_folder(r->rules_out))
            return cli_usage(r->cmd, "--suggest-rules names a folder ('%s')", r->rules_out);
        if (!cli_has_ext(r->rules_out, ".yaml") && !cli_has_ext(r->rules_out, ".yml"))
            return cli_usage(r->cmd, "--suggest-rules writes a rules file: name it .yaml, not '%s'",
                             r->rules_out);
    }
    if (r->svg) {
        if (strcmp(r->svg, "-") == 0)
            return cli_usage(r->cmd, "--svg - would mix the picture with the report on standard "
                                     "output: name a .svg file");
        const char *src = source_named(r, r->svg, inputs, n);
        if (src)
            return cli_usage(r->cmd, "--svg '%s' is %s: it would be overwritten", r->svg, src);
        if (cli_is_folder(r->svg))
            return cli_usage(r->cmd, "--svg names a folder ('%s'): name the file to write in it",
                             r->svg);
        if (!cli_has_ext(r->svg, ".svg"))
            return cli_usage(r->cmd, "--svg writes an SVG picture: name it NAME.svg, not '%s'",
                             r->svg);
    }
    return EXIT_OK;
}

/* diff --svg --model: A's figure with B's underneath, shaded by each
 * bone's rotation difference (engine/ops/skeleton/draw.c), at the diff's frame, or
 * a strip of about 8 figures over its range. */
static int figures(const cli_run *r, const pk_step_result *res, const char *const *in,
                   pk_buf *out)
{
    const pk_diff *d = res->diff;
    pk_draw_options o;
    memset(&o, 0, sizeof o);
    o.a.model = o.b.model = r->model;
    o.a.doc = &r->docs[0];
    o.b.doc = &r->docs[1];
    o.a.name = in[0];
    o.b.name = in[1];
    o.a.model_name = o.b.model_name = pk_step_model(r->step);
    o.frame = res->diff_frame;
    if (d->range) {
        o.range = true;
        o.first = d->first;
        o.last = d->last;
        o.every = 0; /* about 8 figures */
    }
    o.view = PK_VIEW_FRONT;
    pk_log log;
    pk_log_init(&log);
    pk_rules *rules = pk_rules_default(&log);
    pk_selection *body =
        rules ? pk_selection_parse(rules, "@root,@trunk,@head,@arms,@hands,@legs,@ik", &log) : NULL;
    o.body = body;
    pk_drawing *dr = pk_draw(&o, &log);
    int rc = dr ? pk_draw_svg(dr, out) : -1;
    if (!dr)
        cli_flush_log(&log, false);
    pk_drawing_free(dr);
    pk_selection_free(body);
    pk_rules_free(rules);
    pk_log_free(&log);
    return rc;
}

static int write_svg(const cli_run *r, const pk_step_result *res, const char *const *in,
                     bool motions)
{
    const pk_diff *d = res->diff;
    pk_buf buf;
    pk_buf_init(&buf);
    size_t tl = strlen(in[0]) + strlen(in[1]) + 64;
    char *title = malloc(tl);
    int rc = EXIT_ERROR;
    if (title) {
        if (d->range)
            snprintf(title, tl, "%s vs %s, frames %u-%u", in[0], in[1], d->first, d->last);
        else if (motions)
            snprintf(title, tl, "%s vs %s, frame %u", in[0], in[1], res->diff_frame);
        else
            snprintf(title, tl, "%s vs %s", in[0], in[1]);
    }
    bool ok = title && svg_diff(d, &res->diff_opts, title, res->diff_all, &buf) == 0;
    if (ok && r->model && r->docs) {
        /* --model: the two poses drawn over each other under the table */
        pk_buf fig, both;
        pk_buf_init(&fig);
        pk_buf_init(&both);
        ok = figures(r, res, in, &fig) == 0;
        if (ok) {
            ok = svg_stack(&buf, &fig, &both) == 0;
            pk_buf_free(&buf);
            buf = both;
        }
        pk_buf_free(&fig);
    }
    if (!ok)
        fprintf(stderr, "posekit %s: cannot draw the picture\n", r->cmd);
    else
        rc = cli_write(r->svg, &buf);
    free(title);
    pk_buf_free(&buf);
    return rc;
}

/* Prints buf to f, each line behind prefix. */
static void print_lines(FILE *f, const char *prefix, const pk_buf *b)
{
    const char *p = (const char *)b->data, *end = p + b->len;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        fprintf(f, "%s%.*s\n", prefix, (int)n, p);
        p += n + 1;
    }
}

static void print_summary(const cli_run *r, const pk_step_result *res)
{
    pk_step_op op = pk_step_kind(r->step);
    pk_buf b;
    pk_buf_init(&b);
    pk_step_summary(r->step, res, &b);
    char prefix[64];
    if (op == PK_STEP_OVERLAY || op == PK_STEP_MERGE || op == PK_STEP_REDUCE ||
        op == PK_STEP_BAKE)
        snprintf(prefix, sizeof prefix, "posekit: %s: ", r->cmd);
    else
        snprintf(prefix, sizeof prefix, "posekit %s: ", r->cmd);
    if (b.len)
        print_lines(stderr, prefix, &b);
    pk_buf_free(&b);
}

/* The step's report in fmt on standard output. */
static int print_report(const cli_run *r, const pk_step_result *res, pk_report_format fmt)
{
    pk_buf b;
    pk_buf_init(&b);
    int rc = pk_step_report(r->step, res, fmt, &b);
    if (rc == 0 && b.len && fwrite(b.data, 1, b.len, stdout) != b.len)
        rc = -1;
    pk_buf_free(&b);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "posekit %s: cannot write standard output\n", r->cmd);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

static int report(const cli_run *r, const pk_step_result *res, const char *const *in, size_t n,
                  bool motions)
{
    pk_step_op op = pk_step_kind(r->step);
    if (op == PK_STEP_CHECK) {
        /* the rules file first, as every saved file before its report */
        if (r->rules_out) {
            pk_buf b;
            pk_buf_init(&b);
            int rc = pk_step_report(r->step, res, PK_REPORT_RULES, &b) == 0
                         ? cli_write(r->rules_out, &b)
                         : (fprintf(stderr, "posekit %s: out of memory\n", r->cmd), EXIT_ERROR);
            pk_buf_free(&b);
            if (rc != EXIT_OK)
                return EXIT_ERROR;
        }
        if (print_report(r, res, r->json ? PK_REPORT_JSON : PK_REPORT_TEXT) != EXIT_OK)
            return EXIT_ERROR;
        return res->check->missing ? EXIT_DIFF : EXIT_OK;
    }
    if (op == PK_STEP_DIFF) {
        if (r->svg && write_svg(r, res, in, motions) != EXIT_OK)
            return EXIT_ERROR;
        pk_report_format fmt = r->json ? PK_REPORT_JSON : r->csv ? PK_REPORT_CSV : PK_REPORT_TEXT;
        if (print_report(r, res, fmt) != EXIT_OK)
            return EXIT_ERROR;
        return pk_diff_any(res->diff) ? EXIT_DIFF : EXIT_OK;
    }
    if (op == PK_STEP_DRAW) {
        pk_buf b;
        pk_buf_init(&b);
        if (pk_step_report(r->step, res, r->json ? PK_REPORT_JSON : PK_REPORT_SVG, &b) != 0) {
            pk_buf_free(&b);
            fprintf(stderr, "posekit %s: out of memory\n", r->cmd);
            return EXIT_ERROR;
        }
        int rc = EXIT_OK;
        if (!r->out || strcmp(r->out, "-") == 0) {
            if (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
                fprintf(stderr, "posekit %s: cannot write standard output\n", r->cmd);
                rc = EXIT_ERROR;
            }
        } else {
            rc = cli_write(r->out, &b);
            if (rc == EXIT_OK)
                print_summary(r, res);
        }
        pk_buf_free(&b);
        return rc;
    }
    if (op == PK_STEP_MERGE) {
        if (!r->json) {
            merge_print_text(r->step, res, in);
            return EXIT_OK;
        }
        if (merge_print_json(r->step, res, in, n) != 0) {
            fprintf(stderr, "posekit %s: cannot write standard output\n", r->cmd);
            return EXIT_ERROR;
        }
        return EXIT_OK;
    }
    if (r->json)
        return print_report(r, res, PK_REPORT_JSON);
    print_summary(r, res);
    return EXIT_OK;
}

int cli_step_main(const char *cmd, int argc, char **argv, const char *help)
{
    cli_run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    pk_log log;
    pk_log_init(&log);
    r.step = pk_step_new(cmd, "--", &log);
    if (!r.step) {
        cli_flush_log(&log, false);
        return EXIT_ERROR;
    }
    int rc = parse(&r, argc, argv, &log);
    pk_rules *rules = NULL;
    pk_model *model = NULL, *vs_model = NULL, *from = NULL, *to = NULL;
    pk_doc *docs = NULL;
    const char *const *in = NULL;
    size_t n = 0;
    pk_step_result res;
    memset(&res, 0, sizeof res);
    if (rc != EXIT_OK)
        goto done;
    if (r.help) {
        rc = cli_help(help);
        goto done;
    }
    pk_step_op op = pk_step_kind(r.step);
    if (op != PK_STEP_DIFF && op != PK_STEP_CHECK && !r.out && !(op == PK_STEP_DRAW && r.json)) {
        /* a missing input is said first, then a missing output */
        n = pk_step_inputs(r.step, &in);
        if (n == 0 && pk_step_check(r.step, &log) != 0)
            rc = usage_from(cmd, &log);
        else
            rc = cli_usage(cmd, "no output given (-o OUT)");
        goto done;
    }
    if (r.svg)
        pk_step_bins(r.step, SVG_COLUMNS);
    /* convert makes the format its output names ('-': the input's, set
     * once the input is read) */
    bool to_later = false;
    if (op == PK_STEP_CONVERT && r.out) {
        pk_format f = cli_output_format(r.out, PK_FMT_UNKNOWN);
        if (f != PK_FMT_UNKNOWN)
            pk_step_set(r.step, "to", pk_format_name(f), &log);
        else
            to_later = true;
    }
    if (!to_later && pk_step_check(r.step, &log) != 0) {
        rc = usage_from(cmd, &log);
        goto done;
    }
    n = pk_step_inputs(r.step, &in);
    if (to_later && n == 0) {
        rc = cli_usage(cmd, "no input file given");
        goto done;
    }
    if ((rc = check_outputs(&r, in, n)) != EXIT_OK)
        goto done;
    rc = EXIT_ERROR;
    /* Rules first: a bad rules file stops the run before the inputs are
     * read. */
    if (pk_step_rules(r.step)) {
        rules = pk_rules_load(pk_step_rules(r.step), &log);
        if (cli_flush_log(&log, cli_strict) != EXIT_OK || !rules)
            goto done;
    }
    docs = calloc(n ? n : 1, sizeof *docs);
    if (!docs) {
        fprintf(stderr, "posekit %s: out of memory\n", r.cmd);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (cli_load(in[i], &docs[i], cli_strict) != EXIT_OK)
            goto done;
    if (to_later) {
        pk_step_set(r.step, "to", pk_format_name(docs[0].format), &log);
        if (pk_step_check(r.step, &log) != 0) {
            rc = usage_from(cmd, &log);
            goto done;
        }
    }
    /* A .vpd holds one pose: only convert (--frame) takes one out of a
     * motion. */
    if (r.out && op != PK_STEP_CONVERT && op != PK_STEP_DIFF && op != PK_STEP_DRAW &&
        cli_output_format(r.out, PK_FMT_VMD) == PK_FMT_VPD) {
        bool motion = op == PK_STEP_MERGE || docs[0].motion;
        if (motion) {
            rc = cli_usage(cmd,
                           "'%s' would hold one frame of a motion: write a .vmd (posekit convert "
                           "--frame N takes one pose out of a motion)",
                           r.out);
            goto done;
        }
    }
    if (pk_step_model(r.step)) {
        model = cli_load_model(pk_step_model(r.step), cli_strict);
        if (!model)
            goto done;
        pk_step_use_model(r.step, model);
    }
    if (pk_step_model_from(r.step)) {
        from = cli_load_model(pk_step_model_from(r.step), cli_strict);
        to = from ? cli_load_model(pk_step_model_to(r.step), cli_strict) : NULL;
        if (!to)
            goto done;
        pk_step_use_models(r.step, from, to);
    }
    if (pk_step_vs_model(r.step)) {
        vs_model = cli_load_model(pk_step_vs_model(r.step), cli_strict);
        if (!vs_model)
            goto done;
        pk_step_use_vs_model(r.step, vs_model);
    }
    r.docs = docs;
    r.model = model;
    int run = pk_step_run(r.step, docs, n, rules, &res, &log);
    bool motions = n > 0 && (docs[0].motion || (n > 1 && docs[1].motion));
    if (cli_flush_log(&log, cli_strict) != EXIT_OK || run != 0) {
        rc = EXIT_ERROR;
        goto done;
    }
    /* diff, check and draw report what they found (draw writes its
     * picture there); every other command saves first and reports only
     * what was written: a failed save prints no summary. */
    if (op == PK_STEP_DIFF || op == PK_STEP_CHECK || op == PK_STEP_DRAW) {
        rc = report(&r, &res, in, n, motions);
        goto done;
    }
    cli_save_options so;
    memset(&so, 0, sizeof so);
    so.vpd = res.vpd;
    rc = cli_save(r.out, &res.out, &so);
    if (rc == EXIT_OK)
        rc = report(&r, &res, in, n, motions);
done:
    pk_step_result_free(&res);
    for (size_t i = 0; docs && i < n; i++)
        pk_doc_free(&docs[i]);
    free(docs);
    pk_rules_free(rules);
    pk_model_free(model);
    pk_model_free(from);
    pk_model_free(to);
    pk_model_free(vs_model);
    pk_step_free(r.step);
    pk_log_free(&log);
    return rc;
}
