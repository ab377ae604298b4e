/* cmd_merge.c — `posekit merge IN... -o OUT`: motions combined. */
#include "cli.h"
#include "json.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_merge[] =
    "usage: posekit merge IN... -o OUT [--offset N]... [--prefer first|last|error]\n"
    "                     [--json] [--strict]\n"
    "\n"
    "Combines the tracks of every input (VMDs; a VPD counts as a one-frame\n"
    "motion) into one motion.  Records keep their file order, input after\n"
    "input; the header and model name come from the first input that has\n"
    "records, so merging a motion with an empty one gives it back\n"
    "byte-identical.\n"
    "\n"
    "  -o, --output OUT   output (.vmd; .vpd samples frame 0); atomic\n"
    "  --offset N         shift the input at the same position by N frames\n"
    "                     (give it once per input, in order; may be\n"
    "                     negative: keys that land below frame 0 are dropped\n"
    "                     with a warning)\n"
    "  --prefer P         the same bone or morph (or camera, light, shadow,\n"
    "                     IK record) at the same frame in several inputs:\n"
    "                     last (default; like loading motions one after\n"
    "                     another in MMD), first, or error (exit 2)\n"
    "  --json             the report as JSON on stdout instead of text on\n"
    "                     stderr\n"
    "  --strict           warnings are errors\n"
    "  -h, --help         this text\n"
    "\n"
    "Keys with the same value in several inputs are kept once and are not\n"
    "conflicts.  Every conflict is listed: section, name, frame, the input\n"
    "kept and the input dropped (1-based).\n";

enum { OPT_OFFSET = 256, OPT_PREFER, OPT_JSON, OPT_STRICT };

static const char *const SEC[PK_SEC_COUNT] = {"bone", "morph", "camera", "light", "shadow", "ik"};

static bool parse_i64(const char *s, int64_t *out)
{
    if (!s || !*s)
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < -(long long)UINT32_MAX || v > (long long)UINT32_MAX)
        return false;
    *out = v;
    return true;
}

static const char *policy_name(pk_merge_policy p)
{
    return p == PK_MERGE_FIRST ? "first" : p == PK_MERGE_ERROR ? "error" : "last";
}

static void report_text(const pk_merge_report *r, char **inputs, pk_merge_policy policy)
{
    for (size_t i = 0; i < r->count; i++) {
        const pk_merge_conflict *c = &r->items[i];
        fprintf(stderr,
                "posekit: merge: conflict: %s%s%s%s at frame %u: kept input %zu (%s), "
                "dropped input %zu (%s)\n",
                SEC[c->section], c->name ? " '" : "", c->name ? c->name : "", c->name ? "'" : "",
                c->frame, c->kept + 1, inputs[c->kept], c->dropped + 1, inputs[c->dropped]);
    }
    fprintf(stderr,
            "posekit: merge: %zu conflict%s (--prefer %s), %zu identical key%s kept once, "
            "%zu key%s below frame 0 dropped\n",
            r->count, r->count == 1 ? "" : "s", policy_name(policy), r->identical,
            r->identical == 1 ? "" : "s", r->below_zero, r->below_zero == 1 ? "" : "s");
}

static void report_json(const pk_merge_report *r, char **inputs, const int64_t *offsets, size_t n,
                        pk_merge_policy policy, const pk_motion *out)
{
    json_t *root = json_object();
    json_t *ins = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "path", cj_string(inputs[i]));
        json_object_set_new(o, "offset", json_integer((json_int_t)offsets[i]));
        json_array_append_new(ins, o);
    }
    json_object_set_new(root, "inputs", ins);
    json_object_set_new(root, "prefer", json_string(policy_name(policy)));
    json_t *cs = json_array();
    for (size_t i = 0; i < r->count; i++) {
        const pk_merge_conflict *c = &r->items[i];
        json_t *o = json_object();
        json_object_set_new(o, "section", json_string(SEC[c->section]));
        json_object_set_new(o, "name", c->name ? cj_string(c->name) : json_null());
        json_object_set_new(o, "frame", json_integer(c->frame));
        json_object_set_new(o, "kept", json_integer((json_int_t)c->kept + 1));
        json_object_set_new(o, "dropped", json_integer((json_int_t)c->dropped + 1));
        json_array_append_new(cs, o);
    }
    json_object_set_new(root, "conflicts", cs);
    json_object_set_new(root, "identical", json_integer((json_int_t)r->identical));
    json_object_set_new(root, "below_zero", json_integer((json_int_t)r->below_zero));
    if (out) {
        json_t *o = json_object();
        json_object_set_new(o, "bones", json_integer((json_int_t)out->nbones));
        json_object_set_new(o, "morphs", json_integer((json_int_t)out->nmorphs));
        json_object_set_new(o, "cameras", json_integer((json_int_t)out->ncameras));
        json_object_set_new(o, "lights", json_integer((json_int_t)out->nlights));
        json_object_set_new(o, "shadows", json_integer((json_int_t)out->nshadows));
        json_object_set_new(o, "ik", json_integer((json_int_t)out->niks));
        json_object_set_new(root, "records", o);
    } else {
        json_object_set_new(root, "records", json_null());
    }
    cj_print(stdout, root, 2);
    json_decref(root);
}

int cmd_merge(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"offset", required_argument, NULL, OPT_OFFSET},
        {"prefer", required_argument, NULL, OPT_PREFER},
        {"json", no_argument, NULL, OPT_JSON},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    pk_merge_policy policy = PK_MERGE_LAST;
    bool json = false;
    int64_t *offsets = calloc((size_t)argc + 1, sizeof *offsets);
    size_t noffsets = 0;
    if (!offsets) {
        fprintf(stderr, "posekit: out of memory\n");
        return EXIT_ERROR;
    }
    int c, rc = EXIT_ERROR;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case OPT_OFFSET:
            if (!parse_i64(optarg, &offsets[noffsets])) {
                free(offsets);
                return cli_usage("merge", "--offset wants a whole number of frames, not '%s'",
                                 optarg);
            }
            noffsets++;
            break;
        case OPT_PREFER:
            if (strcmp(optarg, "last") == 0)
                policy = PK_MERGE_LAST;
            else if (strcmp(optarg, "first") == 0)
                policy = PK_MERGE_FIRST;
            else if (strcmp(optarg, "error") == 0)
                policy = PK_MERGE_ERROR;
            else {
                free(offsets);
                return cli_usage("merge", "--prefer is first, last or error, not '%s'", optarg);
            }
            break;
        case OPT_JSON:
            json = true;
            break;
        case OPT_STRICT:
            cli_strict = true;
            break;
        case 'h':
            free(offsets);
            return cli_help(help_merge);
        default:
            free(offsets);
            return cli_bad_option("merge", argv);
        }
    }
    size_t n = argc > optind ? (size_t)(argc - optind) : 0;
    char **inputs = argv + optind;
    if (n == 0) {
        free(offsets);
        return cli_usage("merge", "no input files given");
    }
    if (!out) {
        free(offsets);
        return cli_usage("merge", "no output given (-o OUT)");
    }
    if (noffsets > n) {
        free(offsets);
        return cli_usage("merge", "%zu --offset options for %zu inputs", noffsets, n);
    }
    pk_doc *docs = calloc(n, sizeof *docs);
    pk_merge_input *in = calloc(n, sizeof *in);
    pk_merge_report rep;
    memset(&rep, 0, sizeof rep);
    pk_doc result;
    memset(&result, 0, sizeof result);
    pk_log log;
    pk_log_init(&log);
    if (!docs || !in) {
        fprintf(stderr, "posekit: out of memory\n");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (cli_load(inputs[i], &docs[i], cli_strict) != EXIT_OK)
            goto done;
        in[i].motion = docs[i].motion;
        in[i].pose = docs[i].pose;
        in[i].offset = offsets[i];
    }
    result.format = PK_FMT_VMD;
    result.motion = pk_merge(in, n, policy, &rep, &log);
    if (json)
        report_json(&rep, inputs, offsets, n, policy, result.motion);
    else if (policy != PK_MERGE_ERROR)
        report_text(&rep, inputs, policy);
    if (cli_flush_log(&log, cli_strict) != EXIT_OK || !result.motion)
        goto done;
    rc = cli_save(out, &result, NULL);
done:
    pk_log_free(&log);
    pk_merge_report_free(&rep);
    pk_doc_free(&result);
    if (docs)
        for (size_t i = 0; i < n; i++)
            pk_doc_free(&docs[i]);
    free(docs);
    free(in);
    free(offsets);
    return rc;
}
