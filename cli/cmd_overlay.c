/* cmd_overlay.c — `posekit overlay BASE --pose P --bones SEL -o OUT`. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char help_overlay[] =
    "usage: posekit overlay BASE --pose P [--pose-frame N] --bones LIST|@GROUP\n"
    "                       [--rules R] [--frames A-B|N] [--mode replace|add]\n"
    "                       [--fade F] -o OUT [--strict]\n"
    "\n"
    "Lays the pose P over the selected bones and morphs of BASE and writes\n"
    "OUT.\n"
    "\n"
    "BASE a VMD: for frames A..B (without --frames: the whole motion)\n"
    "  replace  the selected bones take the pose's values\n"
    "  add      base rotation x pose rotation, base translation + pose's\n"
    "           (the base's own keys inside the range are kept, multiplied)\n"
    "  outside A-F..B+F every selected bone samples exactly as in BASE at\n"
    "  every frame (within 1e-4 degrees / 1e-5 units): keys are added at the\n"
    "  edges and a crossed curve segment is split (de Casteljau, re-fitted\n"
    "  to MMD's 0..127 curve grid) or, when no grid curve is exact enough,\n"
    "  baked into one key per frame.  The fades are one segment each with an\n"
    "  ease-in/ease-out curve (53,0,74,127) from the base value at A-F to the\n"
    "  overlay at A, and from the overlay at B to the base at B+F.  Morphs\n"
    "  follow the same laws with linear keys (MMD blends morph weights\n"
    "  linearly): the fades are linear ramps, add adds the weights.  Records\n"
    "  of other bones and morphs, camera, light, shadow and IK stay\n"
    "  byte-identical and in order.\n"
    "BASE a VPD: the selected bones take (replace) or compose with (add) the\n"
    "  pose's values; --frames and --fade do not apply.\n"
    "\n"
    "  --pose P           a VPD, or a VMD sampled at --pose-frame (default 0)\n"
    "  --bones SEL        comma-separated bone or morph names, globs (右*指*)\n"
    "                     and @groups (bone groups and morph_groups)\n"
    "  --rules R          rule file for @groups (standard groups always exist)\n"
    "  --model MODEL      PMX/PMD model whose display frames --bones may name\n"
    "                     as @frame:NAME\n"
    "  --frames A-B|N     the range (N = a single frame)\n"
    "  --mode M           replace (default) or add\n"
    "  --fade F           frames of fade on each side (default 0)\n"
    "  -o, --output OUT   output (.vmd or .vpd); written atomically\n"
    "  --strict           warnings are errors (e.g. a selected bone the pose\n"
    "                     lacks, an overlay that changes nothing)\n"
    "  -h, --help         this text\n"
    "\n"
    "A summary goes to stderr: bones and morphs changed, keys removed and\n"
    "added, and\n"
    "how many crossed segments were split or baked.  Overlays compose: run\n"
    "a second overlay on the first one's output.\n";

enum {
    OPT_POSE = 256,
    OPT_POSE_FRAME,
    OPT_BONES,
    OPT_MODEL,
    OPT_RULES,
    OPT_FRAMES,
    OPT_MODE,
    OPT_FADE,
    OPT_STRICT
};

/* Whether the base document holds a bone the selection `one` matches. */
static bool base_has(const pk_doc *base, const pk_selection *one)
{
    const pk_names *names = base->motion ? base->motion->names : base->pose->names;
    size_t n = base->motion ? base->motion->nbones : base->pose->nbones;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        pk_name_id id = base->motion ? base->motion->bones[i].name : base->pose->bones[i].name;
        const uint8_t *raw = pk_names_raw(names, id, &len);
        if (pk_selection_has(one, raw, len))
            return true;
    }
    n = base->motion ? base->motion->nmorphs : base->pose->nmorphs;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        pk_name_id id = base->motion ? base->motion->morphs[i].name : base->pose->morphs[i].name;
        const uint8_t *raw = pk_names_raw(names, id, &len);
        if (pk_selection_has(one, raw, len))
            return true;
    }
    return false;
}

/* Warns about plain names of the selection (not globs or @groups) that the
 * pose does not hold.  Names the base holds are left to the engine, which
 * warns about every selected base bone the pose lacks. */
static void warn_missing_names(const char *spec, const pk_doc *base, const pk_pose *pose,
                               const char *pose_path, pk_log *log)
{
    char *copy = strdup(spec);
    if (!copy)
        return;
    for (char *item = strtok(copy, ","); item; item = strtok(NULL, ",")) {
        while (*item == ' ' || *item == '\t')
            item++;
        size_t n = strlen(item);
        while (n && (item[n - 1] == ' ' || item[n - 1] == '\t'))
            item[--n] = '\0';
        if (!n || item[0] == '@' || strchr(item, '*'))
            continue;
        pk_log quiet;
        pk_log_init(&quiet);
        pk_selection *one = pk_selection_parse(NULL, item, &quiet);
        pk_log_free(&quiet);
        if (!one)
            continue;
        bool found = false;
        for (size_t i = 0; i < pose->nbones && !found; i++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(pose->names, pose->bones[i].name, &len);
            found = pk_selection_has(one, raw, len);
        }
        for (size_t i = 0; i < pose->nmorphs && !found; i++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(pose->names, pose->morphs[i].name, &len);
            found = pk_selection_has(one, raw, len);
        }
        if (!found)
            found = base_has(base, one);
        pk_selection_free(one);
        if (!found)
            pk_warning(log, "bone or morph '%s' is not in the pose %s", item, pose_path);
    }
    free(copy);
}

/* The pose to lay over: a VPD as it is, a VMD sampled at `frame`. */
static pk_pose *pose_of(pk_doc *doc, uint32_t frame, pk_log *log)
{
    if (doc->pose) {
        pk_pose *p = doc->pose;
        doc->pose = NULL;
        return p;
    }
    pk_tracks *t = pk_tracks_build(doc->motion, log);
    if (!t)
        return NULL;
    pk_pose *p = pk_motion_sample(doc->motion, t, frame, log);
    pk_tracks_free(t);
    return p;
}

static void print_stats(const pk_overlay_stats *st, bool motion)
{
    if (!motion) {
        fprintf(stderr, "posekit: overlay: %zu bone%s changed, %zu morph%s changed\n", st->bones,
                st->bones == 1 ? "" : "s", st->morphs, st->morphs == 1 ? "" : "s");
        return;
    }
    fprintf(stderr,
            "posekit: overlay: %zu bone%s changed, %zu morph%s changed, %zu key%s removed, %zu "
            "added; crossed segments: %zu split (%zu of them linear or still), %zu baked into %zu "
            "keys\n",
            st->bones, st->bones == 1 ? "" : "s", st->morphs, st->morphs == 1 ? "" : "s",
            st->keys_removed, st->keys_removed == 1 ? "" : "s", st->keys_added, st->split,
            st->split_exact, st->baked, st->baked_keys);
}

int cmd_overlay(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"pose", required_argument, NULL, OPT_POSE},
        {"pose-frame", required_argument, NULL, OPT_POSE_FRAME},
        {"bones", required_argument, NULL, OPT_BONES},
        {"model", required_argument, NULL, OPT_MODEL},
        {"rules", required_argument, NULL, OPT_RULES},
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"mode", required_argument, NULL, OPT_MODE},
        {"fade", required_argument, NULL, OPT_FADE},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *pose_path = NULL, *bones = NULL, *rules_path = NULL,
               *model_path = NULL;
    uint32_t pose_frame = 0;
    bool pose_frame_set = false, fade_set = false;
    pk_overlay_options opt;
    memset(&opt, 0, sizeof opt);
    opt.all_frames = true;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case OPT_POSE:
            pose_path = optarg;
            break;
        case OPT_POSE_FRAME:
            if (!cli_parse_u32(optarg, &pose_frame))
                return cli_usage("overlay", "--pose-frame wants a frame number, not '%s'", optarg);
            pose_frame_set = true;
            break;
        case OPT_BONES:
            bones = optarg;
            break;
        case OPT_RULES:
            rules_path = optarg;
            break;
        case OPT_MODEL:
            model_path = optarg;
            break;
        case OPT_FRAMES:
            if (!cli_parse_range(optarg, &opt.first, &opt.last))
                return cli_usage("overlay", "--frames wants A-B (A <= B) or N, not '%s'", optarg);
            opt.all_frames = false;
            break;
        case OPT_MODE:
            if (strcmp(optarg, "replace") == 0)
                opt.mode = PK_OVERLAY_REPLACE;
            else if (strcmp(optarg, "add") == 0)
                opt.mode = PK_OVERLAY_ADD;
            else
                return cli_usage("overlay", "--mode is 'replace' or 'add', not '%s'", optarg);
            break;
        case OPT_FADE:
            if (!cli_parse_u32(optarg, &opt.fade))
                return cli_usage("overlay", "--fade wants a number of frames, not '%s'", optarg);
            fade_set = true;
            break;
        case OPT_STRICT:
            cli_strict = true;
            break;
        case 'h':
            return cli_help(help_overlay);
        default:
            return cli_bad_option("overlay", argv);
        }
    }
    const char *base_path;
    if (cli_one_operand("overlay", "base file", argc, argv, optind, &base_path) != EXIT_OK)
        return EXIT_ERROR;
    if (!pose_path)
        return cli_usage("overlay", "no pose given (--pose P)");
    if (!bones)
        return cli_usage("overlay", "no bones given (--bones LIST|@GROUP)");
    if (!out)
        return cli_usage("overlay", "no output given (-o OUT)");
    if (fade_set && opt.all_frames && opt.fade)
        return cli_usage("overlay", "--fade needs --frames (the whole motion has no edges)");

    pk_doc base, pdoc;
    memset(&pdoc, 0, sizeof pdoc);
    if (cli_load(base_path, &base, cli_strict) != EXIT_OK)
        return EXIT_ERROR;
    if (cli_load(pose_path, &pdoc, cli_strict) != EXIT_OK) {
        pk_doc_free(&base);
        return EXIT_ERROR;
    }
    int rc = EXIT_ERROR;
    pk_log log;
    pk_log_init(&log);
    pk_rules *rules = NULL;
    pk_selection *sel = NULL;
    pk_pose *pose = NULL;
    pk_doc result;
    memset(&result, 0, sizeof result);
    pk_overlay_stats st;
    memset(&st, 0, sizeof st);

    if (pose_frame_set && pdoc.pose)
        pk_warning(&log, "--pose-frame applies to a VMD pose only; %s is a VPD", pose_path);
    pk_log_set_path(&log, pose_path);
    pose = pose_of(&pdoc, pose_frame, &log);
    pk_log_set_path(&log, NULL);
    if (!pose)
        goto done;
    if (rules_path) {
        rules = pk_rules_load(rules_path, &log);
        if (!rules)
            goto done;
    }
    if (model_path) {
        pk_model *model = cli_load_model(model_path, cli_strict);
        sel = model ? pk_selection_parse_model(rules, model, bones, &log) : NULL;
        pk_model_free(model);
    } else {
        sel = pk_selection_parse_model(rules, NULL, bones, &log);
    }
    if (!sel)
        goto done;
    warn_missing_names(bones, &base, pose, pose_path, &log);
    pk_log_set_path(&log, base_path);
    if (base.motion) {
        result.format = PK_FMT_VMD;
        result.motion = pk_overlay_motion(base.motion, pose, sel, &opt, &st, &log);
        if (!result.motion)
            goto done;
    } else {
        if (!opt.all_frames || opt.fade)
            pk_warning(&log, "--frames and --fade do not apply to a VPD base");
        result.format = PK_FMT_VPD;
        result.pose = pk_overlay_pose(base.pose, pose, sel, opt.mode, &st, &log);
        if (!result.pose)
            goto done;
    }
    pk_log_set_path(&log, NULL);
    if (cli_flush_log(&log, cli_strict) != EXIT_OK)
        goto done;
    print_stats(&st, base.motion != NULL);
    {
        cli_save_options so;
        memset(&so, 0, sizeof so);
        if (base.pose)
            so.vpd.layout = base.pose->layout;
        rc = cli_save(out, &result, &so);
    }
done:
    if (log.count)
        cli_print_log(&log);
    pk_log_free(&log);
    pk_doc_free(&result);
    pk_selection_free(sel);
    pk_rules_free(rules);
    pk_pose_free(pose);
    pk_doc_free(&pdoc);
    pk_doc_free(&base);
    return rc;
}
