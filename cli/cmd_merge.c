/* cmd_merge.c — `posekit merge IN... -o OUT`: motions combined. */
#include "cli.h"
#include "json.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_merge[] =
    "usage: posekit merge IN... -o OUT [--offset N]... [--sections LIST]...\n"
    "                     [--within K]... [--prefer first|last|error] [--json]\n"
    "                     [--strict]\n"
    "\n"
    "Combines the tracks of every input (VMDs; a VPD counts as a one-frame\n"
    "motion) into one motion.  Records keep their file order, input after\n"
    "input; the header and model name come from the first input that has\n"
    "records, so merging a motion with an empty one gives it back\n"
    "byte-identical.\n"
    "\n"
    "  -o, --output OUT   output (.vmd; .vpd samples frame 0); atomic\n"
    "  --offset N         shift the input at the same position by N frames\n"
    "                     (give it once per input, in order).  A negative\n"
    "                     offset cuts the input at frame -N: keys before the\n"
    "                     cut are dropped and the pose at the cut is kept as\n"
    "                     keys at frame 0 (a warning says so)\n"
    "  --sections LIST    take only these sections from the input at the same\n"
    "                     position (once per input, in order, like --offset):\n"
    "                     comma-separated bones, morphs, camera, light, shadow,\n"
    "                     ik, or all (the default)\n"
    "  --within K         input K (1-based; repeatable) replaces the other\n"
    "                     inputs' bones and morphs only inside its own frame\n"
    "                     range A-B (its first to last bone or morph key):\n"
    "                     every track it keys samples as input K from A to B\n"
    "                     and exactly as the merge of the others up to A-1\n"
    "                     and from B+1 on (crossed curve segments split or\n"
    "                     baked, as overlay does).  Laid after the others are\n"
    "                     merged, in order\n"
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
    "kept and the input dropped (1-based).  Every overlap is listed too: a\n"
    "track two inputs key over overlapping frames (one's key strictly inside\n"
    "the other's first..last), which the merge re-interpolates through both\n"
    "inputs' keys; --within or --sections avoid it, --prefer error refuses\n"
    "it.\n";

enum { OPT_OFFSET = 256, OPT_PREFER, OPT_JSON, OPT_STRICT, OPT_SECTIONS, OPT_WITHIN };

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

/* "bones,morphs,..." or "all" as section bits; false on an unknown word. */
static bool parse_sections(const char *arg, unsigned *out, const char **bad)
{
    static const char *const WORDS[PK_SEC_COUNT] = {"bones", "morphs", "camera",
                                                    "light", "shadow", "ik"};
    *out = 0;
    const char *p = arg;
    for (;;) {
        size_t len = strcspn(p, ",");
        bool ok = false;
        if (len == 3 && strncmp(p, "all", 3) == 0) {
            *out = ~0u & ((1u << PK_SEC_COUNT) - 1);
            ok = true;
        }
        for (int i = 0; i < PK_SEC_COUNT && !ok; i++)
            if (strlen(WORDS[i]) == len && strncmp(p, WORDS[i], len) == 0) {
                *out |= 1u << i;
                ok = true;
            }
        if (!ok) {
            *bad = p;
            return false;
        }
        if (!p[len])
            return true;
        p += len + 1;
    }
}

/* An option given once per input but fewer times than inputs: which
 * inputs it applies to, and which it does not ("--offset given 1 time for
 * 2 inputs: it shifts input 1 (a.vmd); input 2 (b.vmd) is not shifted"). */
static void warn_short(pk_log *log, const char *opt, const char *verb, size_t given, size_t n,
                       char **inputs, const char *rest_one, const char *rest_many)
{
    if (given == 0 || given >= n)
        return;
    char who[256], rest[256];
    if (given == 1)
        snprintf(who, sizeof who, "it %ss input 1 (%s)", verb, inputs[0]);
    else
        snprintf(who, sizeof who, "they %s inputs 1-%zu, the k-th %s the k-th input", verb, given,
                 opt);
    if (given + 1 == n)
        snprintf(rest, sizeof rest, "input %zu (%s) %s", n, inputs[n - 1], rest_one);
    else
        snprintf(rest, sizeof rest, "inputs %zu-%zu %s", given + 1, n, rest_many);
    pk_warning(log, "%s given %zu time%s for %zu inputs: %s; %s", opt, given, given == 1 ? "" : "s",
               n, who, rest);
}

static const char *policy_name(pk_merge_policy p)
{
    return p == PK_MERGE_FIRST ? "first" : p == PK_MERGE_ERROR ? "error" : "last";
}

static void range_text(char *buf, size_t cap, uint32_t a, uint32_t b)
{
    if (a == b)
        snprintf(buf, cap, "frame %u", a);
    else
        snprintf(buf, cap, "frames %u-%u", a, b);
}

static void report_text(const pk_merge_report *r, char **inputs, pk_merge_policy policy)
{
    for (size_t i = 0; i < r->noverlaps; i++) {
        const pk_merge_overlap *o = &r->overlaps[i];
        char ra[48], rb[48];
        range_text(ra, sizeof ra, o->a_first, o->a_last);
        range_text(rb, sizeof rb, o->b_first, o->b_last);
        fprintf(stderr,
                "posekit: merge: overlap: %s%s%s%s keyed by input %zu (%s, %s) and input %zu "
                "(%s, %s): the merged track runs through both inputs' keys\n",
                SEC[o->section], o->name ? " '" : "", o->name ? o->name : "", o->name ? "'" : "",
                o->a + 1, inputs[o->a], ra, o->b + 1, inputs[o->b], rb);
    }
    if (r->noverlaps)
        fprintf(stderr,
                "posekit: merge: to lay an input over the others only inside its own frames, "
                "use --within K; to take only some of its sections, --sections\n");
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
    fprintf(stderr, "posekit: merge: %zu overlapping track%s", r->noverlaps,
            r->noverlaps == 1 ? "" : "s");
    if (r->cut_keys)
        fprintf(stderr, ", %zu key%s kept at a cut", r->cut_keys, r->cut_keys == 1 ? "" : "s");
    if (r->within_tracks)
        fprintf(stderr, ", %zu track%s laid within (%zu crossed piece%s baked)", r->within_tracks,
                r->within_tracks == 1 ? "" : "s", r->within_baked, r->within_baked == 1 ? "" : "s");
    fputc('\n', stderr);
}

static void report_json(const pk_merge_report *r, char **inputs, const pk_merge_input *in, size_t n,
                        pk_merge_policy policy, const pk_motion *out)
{
    json_t *root = json_object();
    json_t *ins = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "path", cj_string(inputs[i]));
        json_object_set_new(o, "offset", json_integer((json_int_t)in[i].offset));
        json_t *secs = json_array();
        for (int k = 0; k < PK_SEC_COUNT; k++)
            if (!in[i].sections || (in[i].sections & (1u << k)))
                json_array_append_new(secs, json_string(SEC[k]));
        json_object_set_new(o, "sections", secs);
        json_object_set_new(o, "within", json_boolean(in[i].within));
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
    json_t *ov = json_array();
    for (size_t i = 0; i < r->noverlaps; i++) {
        const pk_merge_overlap *c = &r->overlaps[i];
        json_t *o = json_object();
        json_object_set_new(o, "section", json_string(SEC[c->section]));
        json_object_set_new(o, "name", c->name ? cj_string(c->name) : json_null());
        json_t *pair = json_array();
        for (int k = 0; k < 2; k++) {
            json_t *e = json_object();
            size_t idx = k ? c->b : c->a;
            json_object_set_new(e, "input", json_integer((json_int_t)idx + 1));
            json_object_set_new(e, "path", cj_string(inputs[idx]));
            json_object_set_new(e, "first", json_integer(k ? c->b_first : c->a_first));
            json_object_set_new(e, "last", json_integer(k ? c->b_last : c->a_last));
            json_array_append_new(pair, e);
        }
        json_object_set_new(o, "inputs", pair);
        json_array_append_new(ov, o);
    }
    json_object_set_new(root, "overlaps", ov);
    json_object_set_new(root, "cut_keys", json_integer((json_int_t)r->cut_keys));
    json_object_set_new(root, "within_tracks", json_integer((json_int_t)r->within_tracks));
    json_object_set_new(root, "within_baked", json_integer((json_int_t)r->within_baked));
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
        {"sections", required_argument, NULL, OPT_SECTIONS},
        {"within", required_argument, NULL, OPT_WITHIN},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    pk_merge_policy policy = PK_MERGE_LAST;
    bool json = false;
    int64_t *offsets = calloc((size_t)argc + 1, sizeof *offsets);
    unsigned *sections = calloc((size_t)argc + 1, sizeof *sections);
    uint32_t *within = calloc((size_t)argc + 1, sizeof *within);
    size_t noffsets = 0, nsections = 0, nwithin = 0;
    if (!offsets || !sections || !within) {
        free(offsets);
        free(sections);
        free(within);
        fprintf(stderr, "posekit: out of memory\n");
        return EXIT_ERROR;
    }
    const char *bad = NULL;
#define MERGE_USAGE(...)                                                                           \
    do {                                                                                           \
        free(offsets);                                                                             \
        free(sections);                                                                            \
        free(within);                                                                              \
        return cli_usage("merge", __VA_ARGS__);                                                    \
    } while (0)
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
        case OPT_SECTIONS:
            if (!parse_sections(optarg, &sections[nsections], &bad))
                MERGE_USAGE("--sections takes bones, morphs, camera, light, shadow, ik or all "
                            "(comma-separated), not '%s'",
                            bad);
            nsections++;
            break;
        case OPT_WITHIN:
            if (!cli_parse_u32(optarg, &within[nwithin]) || within[nwithin] == 0)
                MERGE_USAGE("--within wants an input number (1 for the first), not '%s'", optarg);
            nwithin++;
            break;
        case 'h':
            free(offsets);
            free(sections);
            free(within);
            return cli_help(help_merge);
        default:
            free(offsets);
            free(sections);
            free(within);
            return cli_bad_option("merge", argv);
        }
    }
    size_t n = argc > optind ? (size_t)(argc - optind) : 0;
    char **inputs = argv + optind;
    if (n == 0)
        MERGE_USAGE("no input files given");
    if (!out)
        MERGE_USAGE("no output given (-o OUT)");
    if (noffsets > n)
        MERGE_USAGE("%zu --offset options for %zu inputs", noffsets, n);
    if (nsections > n)
        MERGE_USAGE("%zu --sections options for %zu inputs", nsections, n);
    for (size_t k = 0; k < nwithin; k++) {
        uint32_t w = within[k]; /* MERGE_USAGE frees the array first */
        if (w > n)
            MERGE_USAGE("--within %u: there %s only %zu input%s", w, n == 1 ? "is" : "are", n,
                        n == 1 ? "" : "s");
    }
#undef MERGE_USAGE
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
    warn_short(&log, "--offset", "shift", noffsets, n, inputs, "is not shifted", "are not shifted");
    warn_short(&log, "--sections", "limit", nsections, n, inputs, "gives every section",
               "give every section");
    for (size_t i = 0; i < n; i++) {
        if (cli_load(inputs[i], &docs[i], cli_strict) != EXIT_OK)
            goto done;
        in[i].motion = docs[i].motion;
        in[i].pose = docs[i].pose;
        in[i].offset = offsets[i];
        in[i].sections = sections[i];
    }
    for (size_t k = 0; k < nwithin; k++)
        in[within[k] - 1].within = true;
    result.format = PK_FMT_VMD;
    result.motion = pk_merge(in, n, policy, &rep, &log);
    if (json)
        report_json(&rep, inputs, in, n, policy, result.motion);
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
    free(sections);
    free(within);
    return rc;
}
