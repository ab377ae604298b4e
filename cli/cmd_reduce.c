/* cmd_reduce.c — `posekit reduce IN -o OUT`: the fewest keys within
 * tolerances (engine/ops/reduce.c). */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_reduce[] =
    "usage: posekit reduce IN -o OUT [--max-deg D] [--max-pos U] [--max-morph W]\n"
    "                      [--bones SEL] [--frames A-B|N] [--no-morphs] [--json]\n"
    "                      [--strict]\n"
    "\n"
    "Removes keys from a VMD motion: per bone track the fewest keys (each\n"
    "with the MMD curves fitted to what it replaces) such that every integer\n"
    "frame stays within the tolerances of IN, checked by sampling the result\n"
    "with MMD's interpolation; per morph track the fewest linear keys.  The\n"
    "first and last key of every track are kept, and both keys of every\n"
    "jump (keys on adjacent frames with a step much larger than around it).\n"
    "A track that never leaves its first key's value becomes that one key.\n"
    "No track gets more keys than it had.  Other tracks, keys outside\n"
    "--frames, camera, light, shadow and IK records stay byte-identical.\n"
    "\n"
    "  --max-deg D      rotation tolerance in degrees (default 0.1)\n"
    "  --max-pos U      translation tolerance in MMD units (default 0.005)\n"
    "  --max-morph W    morph weight tolerance (default 0.002)\n"
    "  --bones SEL      bone names, globs and @groups (default: every bone)\n"
    "  --rules R        rule file for @groups\n"
    "  --frames A-B|N   only the keys inside A..B (their first key is kept)\n"
    "  --no-morphs      leave morph tracks alone\n"
    "  --json           the summary as JSON on stdout\n"
    "  -o, --output OUT output (.vmd); written atomically; may name IN\n"
    "  --strict         warnings are errors\n"
    "  -h, --help       this text\n"
    "\n"
    "A summary goes to stderr: keys before and after per section and the\n"
    "largest error met at any frame.\n";

enum {
    OPT_MAX_DEG = 256,
    OPT_MAX_POS,
    OPT_MAX_MORPH,
    OPT_BONES,
    OPT_RULES,
    OPT_FRAMES,
    OPT_NO_MORPHS,
    OPT_CAMERA,
    OPT_JSON,
    OPT_STEP,
    OPT_STRICT
};

static const char *const sec_names[PK_SEC_COUNT] = {"bones", "morphs", "camera",
                                                    "light", "shadow", "ik"};

/* The summary: text on stderr, or JSON on stdout. */
static void print_summary(const char *cmd, const pk_reduce_stats *st, bool json, bool reduce)
{
    if (json) {
        printf("{\"command\": \"%s\", \"sections\": {", cmd);
        for (int s = 0; s < PK_SEC_COUNT; s++)
            printf("%s\"%s\": {\"before\": %zu, \"after\": %zu}", s ? ", " : "", sec_names[s],
                   st->keys_before[s], st->keys_after[s]);
        printf("}, \"bone_tracks\": %zu, \"morph_tracks\": %zu", st->bone_tracks, st->morph_tracks);
        if (reduce)
            printf(", \"discontinuities\": %zu, \"refitted\": %zu, \"worst\": {\"deg\": %.6g, "
                   "\"pos\": %.6g, \"morph\": %.6g}",
                   st->discontinuities, st->refitted, st->worst_deg, st->worst_pos,
                   st->worst_morph);
        printf("}\n");
        return;
    }
    fprintf(stderr,
            "posekit: %s: bone keys %zu -> %zu, morph keys %zu -> %zu (%zu bone and %zu "
            "morph tracks rewritten)",
            cmd, st->keys_before[PK_SEC_BONE], st->keys_after[PK_SEC_BONE],
            st->keys_before[PK_SEC_MORPH], st->keys_after[PK_SEC_MORPH], st->bone_tracks,
            st->morph_tracks);
    if (reduce)
        fprintf(stderr, "; worst error %.4g deg, %.4g units, %.4g weight; %zu jump%s kept",
                st->worst_deg, st->worst_pos, st->worst_morph, st->discontinuities,
                st->discontinuities == 1 ? "" : "s");
    fprintf(stderr, "\n");
}

/* Shared by reduce and bake. */
int cli_reduce_or_bake(bool reduce, int argc, char **argv)
{
    const char *cmd = reduce ? "reduce" : "bake";
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"max-deg", required_argument, NULL, OPT_MAX_DEG},
        {"max-pos", required_argument, NULL, OPT_MAX_POS},
        {"max-morph", required_argument, NULL, OPT_MAX_MORPH},
        {"bones", required_argument, NULL, OPT_BONES},
        {"rules", required_argument, NULL, OPT_RULES},
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"no-morphs", no_argument, NULL, OPT_NO_MORPHS},
        {"camera", no_argument, NULL, OPT_CAMERA},
        {"json", no_argument, NULL, OPT_JSON},
        {"step", required_argument, NULL, OPT_STEP},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *bones = NULL, *rules_path = NULL;
    bool json = false;
    pk_reduce_options opt;
    pk_reduce_options_init(&opt);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        double *tol = NULL;
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case OPT_MAX_DEG:
            tol = &opt.max_deg;
            break;
        case OPT_MAX_POS:
            tol = &opt.max_pos;
            break;
        case OPT_MAX_MORPH:
            tol = &opt.max_morph;
            break;
        case OPT_BONES:
            bones = optarg;
            break;
        case OPT_RULES:
            rules_path = optarg;
            break;
        case OPT_FRAMES:
            if (!pk_num_range(optarg, &opt.first, &opt.last))
                return cli_usage(cmd, "--frames wants A-B (A <= B) or N, not '%s'", optarg);
            opt.all_frames = false;
            break;
        case OPT_NO_MORPHS:
            opt.morphs = false;
            break;
        case OPT_CAMERA:
            return cli_usage(cmd, "--camera is not supported yet (camera keys are kept as "
                                  "they are)");
        case OPT_JSON:
            json = true;
            break;
        case OPT_STEP:
            if (!pk_num_u32(optarg, &opt.step) || opt.step == 0)
                return cli_usage(cmd, "--step wants a number of frames >= 1, not '%s'", optarg);
            break;
        case OPT_STRICT:
            cli_strict = true;
            break;
        case 'h':
            return cli_help(reduce ? help_reduce : help_bake);
        default:
            return cli_bad_option(cmd, argv);
        }
        if (tol && !reduce)
            return cli_usage(cmd, "--max-deg, --max-pos and --max-morph are options of reduce");
        if (tol && (!pk_num_double(optarg, tol) || !(*tol > 0.0)))
            return cli_usage(cmd, "a tolerance wants a positive number, not '%s'", optarg);
        if (!reduce && c == OPT_JSON)
            return cli_usage(cmd, "--json is an option of reduce");
        if (reduce && c == OPT_STEP)
            return cli_usage(cmd, "--step is an option of bake");
    }
    const char *in;
    if (cli_one_operand(cmd, "input file", argc, argv, optind, &in) != EXIT_OK)
        return EXIT_ERROR;
    if (!out)
        return cli_usage(cmd, "no output given (-o OUT)");
    pk_doc doc;
    if (cli_load(in, &doc, cli_strict) != EXIT_OK)
        return EXIT_ERROR;
    int rc = EXIT_ERROR;
    pk_log log;
    pk_log_init(&log);
    pk_rules *rules = NULL;
    pk_selection *sel = NULL;
    pk_doc result;
    memset(&result, 0, sizeof result);
    pk_reduce_stats st;
    memset(&st, 0, sizeof st);
    if (!doc.motion) {
        pk_error(&log, "%s: %s works on a VMD motion (a pose has no keys to %s)", in, cmd, cmd);
        goto done;
    }
    if (rules_path && !(rules = pk_rules_load(rules_path, &log)))
        goto done;
    if (bones && !(sel = pk_selection_parse(rules, bones, &log)))
        goto done;
    opt.bones = sel;
    pk_log_set_path(&log, in);
    result.format = PK_FMT_VMD;
    result.motion = reduce ? pk_motion_reduce(doc.motion, &opt, &st, &log)
                           : pk_motion_bake(doc.motion, &opt, &st, &log);
    pk_log_set_path(&log, NULL);
    if (!result.motion)
        goto done;
    if (cli_flush_log(&log, cli_strict) != EXIT_OK)
        goto done;
    print_summary(cmd, &st, json, reduce);
    {
        cli_save_options so;
        memset(&so, 0, sizeof so);
        rc = cli_save(out, &result, &so);
    }
done:
    if (log.count)
        cli_print_log(&log);
    pk_log_free(&log);
    pk_doc_free(&result);
    pk_doc_free(&doc);
    pk_selection_free(sel);
    pk_rules_free(rules);
    return rc;
}

int cmd_reduce(int argc, char **argv)
{
    return cli_reduce_or_bake(true, argc, argv);
}
