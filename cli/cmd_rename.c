/* cmd_rename.c — `posekit rename IN --rules R [--reverse] -o OUT`, and the
 * run loop mirror and retarget share (rules_cmd.h). */
#include "rules_cmd.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_rename[] =
    "usage: posekit rename IN --rules R.yaml [--reverse] -o OUT [--strict]\n"
    "                      [--verbose]\n"
    "\n"
    "Renames the bones (and IK names) of a VMD motion or VPD pose by the\n"
    "rules' `rename` map and its morphs by `morphs`.  A rule is an exact name\n"
    "or a glob with one '*' whose match is put where the target's '*' is:\n"
    "\n"
    "  rename:\n"
    "    センター: center\n"
    "    \"右*\": \"*_R\"\n"
    "\n"
    "Names no rule matches are kept.  Names MMD cut at 15 bytes (VMD) or 19\n"
    "(VPD) still match the rule for the full name.  Key order, values and\n"
    "name padding are kept, so `rename` then `rename --reverse` gives back\n"
    "the original file byte for byte.  Errors, with nothing written: a new\n"
    "name that does not fit its field (15 bytes in VMD, 20 for IK names, 19\n"
    "in VPD), and two bones (or morphs) that would end up with one name.\n"
    "\n"
    "  --rules R.yaml   the rules (rules/README.md; ja-en.yaml is shipped)\n"
    "  --reverse        invert the maps: target -> source (a glob inverts when\n"
    "                   its target has a '*')\n"
    "  -o, --output OUT output file (.vmd or .vpd); may name IN\n"
    "  --strict         treat warnings as errors\n"
    "  -v, --verbose    list the names that no rule matched\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary (tracks renamed) goes to standard error.\n";

static const char *op_name(rules_op op)
{
    return op == OP_RENAME ? "rename" : op == OP_MIRROR ? "mirror" : "retarget";
}

enum { OPT_RULES = 256, OPT_REVERSE, OPT_STRICT };

static int edit(rules_op op, pk_doc *doc, const pk_rules *r, bool reverse, pk_edit_stats *st,
                pk_log *log)
{
    switch (op) {
    case OP_RENAME:
        return doc->motion ? pk_motion_rename(doc->motion, r, reverse, st, log)
                           : pk_pose_rename(doc->pose, r, reverse, st, log);
    case OP_MIRROR:
        return doc->motion ? pk_motion_mirror(doc->motion, r, st, log)
                           : pk_pose_mirror(doc->pose, r, st, log);
    case OP_RETARGET:
        return doc->motion ? pk_motion_retarget(doc->motion, r, st, log)
                           : pk_pose_retarget(doc->pose, r, st, log);
    }
    return -1;
}

static void summary(rules_op op, const pk_edit_stats *st)
{
    const char *cmd = op_name(op);
    if (op == OP_MIRROR) {
        fprintf(stderr, "posekit mirror: %zu of %zu bones swapped left/right", st->bones_renamed,
                st->bones);
        if (st->ik_renamed)
            fprintf(stderr, ", %zu IK names swapped", st->ik_renamed);
        if (st->morphs_renamed)
            fprintf(stderr, ", %zu of %zu morphs swapped", st->morphs_renamed, st->morphs);
        fprintf(stderr, ", %zu keys mirrored\n", st->keys_changed);
        if (cli_verbose)
            for (size_t i = 0; i < st->nunmatched; i++)
                fprintf(stderr, "posekit mirror: no partner for '%s' (mirrored in place)\n",
                        st->unmatched[i]);
        return;
    }
    fprintf(stderr, "posekit %s: %zu of %zu bones renamed, %zu of %zu morphs renamed", cmd,
            st->bones_renamed, st->bones, st->morphs_renamed, st->morphs);
    if (st->ik_renamed)
        fprintf(stderr, ", %zu IK names renamed", st->ik_renamed);
    if (op == OP_RETARGET)
        fprintf(stderr, "; %zu keys changed, %zu added", st->keys_changed, st->keys_added);
    fputc('\n', stderr);
    if (cli_verbose)
        for (size_t i = 0; i < st->nunmatched; i++)
            fprintf(stderr, "posekit %s: no rule for '%s'\n", cmd, st->unmatched[i]);
}

int rules_cmd_run(rules_op op, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"rules", required_argument, NULL, OPT_RULES},
        {"reverse", no_argument, NULL, OPT_REVERSE},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *cmd = op_name(op);
    const char *out = NULL, *rules_path = NULL;
    bool reverse = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:v", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case OPT_RULES:
            rules_path = optarg;
            break;
        case OPT_REVERSE:
            if (op != OP_RENAME)
                return cli_usage(cmd, "--reverse belongs to rename");
            reverse = true;
            break;
        case OPT_STRICT:
            cli_strict = true;
            break;
        case 'v':
            cli_verbose = true;
            break;
        case 'h':
            return cli_help(op == OP_RENAME   ? help_rename
                            : op == OP_MIRROR ? help_mirror
                                              : help_retarget);
        default:
            return cli_bad_option(cmd, argv);
        }
    }
    const char *in;
    if (cli_one_operand(cmd, "input file", argc, argv, optind, &in) != EXIT_OK)
        return EXIT_ERROR;
    if (!out)
        return cli_usage(cmd, "no output given (-o OUT)");
    if (!rules_path && op != OP_MIRROR)
        return cli_usage(cmd, "no rules given (--rules R.yaml)");
    if (cli_output_format(out, PK_FMT_VPD) == PK_FMT_UNKNOWN)
        return cli_usage(cmd, "cannot tell the output format of '%s': use .vmd or .vpd", out);

    /* Rules first: a bad rules file stops the run before the input is read. */
    pk_log log;
    pk_log_init(&log);
    pk_rules *rules = rules_path ? pk_rules_load(rules_path, &log) : NULL;
    if (cli_flush_log(&log, cli_strict) != EXIT_OK || (rules_path && !rules)) {
        pk_rules_free(rules);
        return EXIT_ERROR;
    }
    pk_doc doc;
    if (cli_load(in, &doc, cli_strict) != EXIT_OK) {
        pk_rules_free(rules);
        return EXIT_ERROR;
    }
    pk_edit_stats st;
    memset(&st, 0, sizeof st);
    int rc = edit(op, &doc, rules, reverse, &st, &log);
    int status = cli_flush_log(&log, cli_strict);
    if (rc == 0 && status == EXIT_OK) {
        cli_save_options opts;
        memset(&opts, 0, sizeof opts);
        opts.vpd.layout = doc.pose ? doc.pose->layout : PK_VPD_TEXT;
        status = cli_save(out, &doc, &opts);
        if (status == EXIT_OK)
            summary(op, &st);
    } else {
        status = EXIT_ERROR;
    }
    pk_edit_stats_free(&st);
    pk_doc_free(&doc);
    pk_rules_free(rules);
    return status;
}

int cmd_rename(int argc, char **argv)
{
    return rules_cmd_run(OP_RENAME, argc, argv);
}
