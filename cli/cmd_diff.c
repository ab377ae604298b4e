/* cmd_diff.c — `posekit diff A B`: bone-by-bone differences, in degrees. */
#include "cli.h"
#include "diff_scene.h"
#include "json.h"
#include "svg.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char help_diff[] =
    "usage: posekit diff A B [--frame N | --frames A-B | --frames all]\n"
    "                    [--bones LIST|@GROUP] [--rules R] [--threshold DEG]\n"
    "                    [--pos-threshold U] [--json | --csv] [--svg FILE] [--all]\n"
    "                    [--groups] [--no-morphs] [--strict]\n"
    "\n"
    "Compares A and B (each a VPD or a VMD) bone by bone: the rotation\n"
    "difference in degrees (the geodesic angle 2*acos|q1.q2|; q and -q are the\n"
    "same rotation), the translation distance, and each morph's weight\n"
    "difference (B - A).  A bone or morph in one file only is listed as such and\n"
    "measured against the rest pose, which is what the model shows for it.\n"
    "Two motions also compare their camera, light and self-shadow.\n"
    "\n"
    "  --frame N          sample each VMD at frame N (default 0) and compare poses\n"
    "  --frames A-B|all   compare frame by frame over A..B (all: every frame of\n"
    "                     either motion); per bone the maximum, the frame where\n"
    "                     it occurs, and the mean.  A VPD counts as a motion that\n"
    "                     holds its pose\n"
    "  --bones SPEC       only these bones and morphs: comma-separated names, globs\n"
    "                     with one '*', @group (standard groups, or from --rules);\n"
    "                     matching nothing is an error\n"
    "  --rules R          rule file whose groups --bones may name\n"
    "  --model MODEL      PMX/PMD model whose display frames --bones may name\n"
    "                     as @frame:NAME\n"
    "  --threshold DEG    a rotation differs above DEG degrees (default 0.01)\n"
    "  --pos-threshold U  a translation differs above U units (default 0.0001);\n"
    "                     morph weights differ above 0.0001\n"
    "  --json, --csv      machine-readable output (every row) instead of the table\n"
    "  --svg FILE         also draw a picture: bars per bone and morph (poses) or\n"
    "                     heatmaps of rows x frames (--frames)\n"
    "  --all              the table lists every bone, not only those that differ\n"
    "  --groups           also sum up per bone group (standard groups and those of\n"
    "                     --rules): how many of its bones differ, and which most\n"
    "  --no-morphs        compare bones only\n"
    "  --strict           treat warnings (duplicate keys, ...) as errors\n"
    "  -h, --help         this text\n"
    "\n"
    "The table is sorted by difference, largest first, and ends with a one-line\n"
    "summary.  Exit status, as diff(1): 0 nothing differs beyond the thresholds,\n"
    "1 something does, 2 error.\n";

enum {
    OPT_FRAME = 256,
    OPT_FRAMES,
    OPT_BONES,
    OPT_MODEL,
    OPT_RULES,
    OPT_THRESHOLD,
    OPT_POS_THRESHOLD,
    OPT_JSON,
    OPT_CSV,
    OPT_SVG,
    OPT_ALL,
    OPT_GROUPS,
    OPT_NO_MORPHS,
    OPT_STRICT,
};

typedef struct diff_args {
    const char *a, *b;
    bool frame_set, range, range_all, json, csv, all, groups;
    uint32_t frame, first, last;
    const char *bones, *rules, *svg, *model;
    pk_diff_options opts;
} diff_args;

static bool selection_filter(void *ctx, const uint8_t *raw, size_t len)
{
    return pk_selection_has(ctx, raw, len);
}

/* A VPD in a range diff: a motion that holds the pose (one key per name at
 * frame 0; a name listed twice counts once, the last time, as for poses). */
static pk_motion *hold_pose(const pk_pose *p, pk_log *log)
{
    pk_motion *m = pk_motion_new();
    bool ok = m != NULL;
    for (size_t i = 0; ok && i < p->nbones; i++) {
        if (pk_pose_find_bone(p, p->bones[i].name) != (long)i)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(p->names, p->bones[i].name, &len);
        pk_bone_key *k = pk_motion_push_bone(m);
        ok = k != NULL;
        if (ok) {
            k->name = pk_names_intern(m->names, raw, len);
            memcpy(k->pos, p->bones[i].pos, sizeof k->pos);
            memcpy(k->rot, p->bones[i].rot, sizeof k->rot);
            pk_interp_linear(k->interp);
            ok = k->name != PK_NO_NAME;
        }
    }
    for (size_t i = 0; ok && i < p->nmorphs; i++) {
        if (pk_pose_find_morph(p, p->morphs[i].name) != (long)i)
            continue;
        size_t len;
        const uint8_t *raw = pk_names_raw(p->names, p->morphs[i].name, &len);
        pk_morph_key *k = pk_motion_push_morph(m);
        ok = k != NULL;
        if (ok) {
            k->name = pk_names_intern(m->names, raw, len);
            k->weight = p->morphs[i].weight;
            ok = k->name != PK_NO_NAME;
        }
    }
    if (!ok) {
        pk_error(log, "out of memory");
        pk_motion_free(m);
        return NULL;
    }
    return m;
}

/* ---- output ---- */

static const char *only_text(int only_in)
{
    return only_in == PK_DIFF_ONLY_A ? "a" : only_in == PK_DIFF_ONLY_B ? "b" : "";
}

static double round6(double x)
{
    return round(x * 1e6) / 1e6;
}

static void print_summary(FILE *f, const diff_args *da, const pk_diff *d)
{
    const pk_diff_bone *top = NULL;
    for (size_t i = 0; i < d->nbones && !top; i++)
        if (d->bones[i].differs)
            top = &d->bones[i];
    if (d->range)
        fprintf(f, "frames %u-%u: ", d->first, d->last);
    else if (da->frame_set)
        fprintf(f, "frame %u: ", da->frame);
    fprintf(f, "%zu of %zu bones differ", d->bones_differ, d->nbones);
    if (top) {
        fprintf(f, " (largest %.3f deg: %s", top->angle_deg, top->name);
        if (d->range)
            fprintf(f, " at frame %u", top->angle_frame);
        fputc(')', f);
    }
    if (!da->opts.no_morphs)
        fprintf(f, ", %zu of %zu morphs differ", d->morphs_differ, d->nmorphs);
    if (d->nscene)
        fprintf(f, ", %zu of %zu camera/light/shadow channels differ", d->scene_differ, d->nscene);
    if (d->only_a || d->only_b)
        fprintf(f, "; only in A: %zu, only in B: %zu", d->only_a, d->only_b);
    fputc('\n', f);
}

/* A group's largest angle (0 when none of its bones differs). */
static double group_deg(const pk_diff_group *g)
{
    return g->top ? g->top->angle_deg : 0.0;
}

/* The per-group table: groups with a differing bone (--all: every group
 * with a compared bone), largest first. */
static void print_groups(FILE *f, const diff_args *da, const pk_diff *d, const pk_diff_group *g,
                         size_t ng)
{
    bool head = false;
    for (size_t i = 0; i < ng; i++) {
        if (!da->all && !g[i].bones_differ)
            continue;
        if (!head) {
            if (d->range)
                fprintf(f, "%9s %6s %10s %13s  %s\n", "max_deg", "frame", "max_pos", "bones_differ",
                        "group (largest)");
            else
                fprintf(f, "%9s %10s %13s  %s\n", "max_deg", "max_pos", "bones_differ",
                        "group (largest)");
            head = true;
        }
        char count[48];
        snprintf(count, sizeof count, "%zu/%zu", g[i].bones_differ, g[i].bones);
        double deg = group_deg(&g[i]);
        if (d->range)
            fprintf(f, "%9.3f %6u %10.4f %13s  @%s", deg, g[i].top ? g[i].top->angle_frame : 0,
                    g[i].max_pos, count, g[i].name);
        else
            fprintf(f, "%9.3f %10.4f %13s  @%s", deg, g[i].max_pos, count, g[i].name);
        if (g[i].top)
            fprintf(f, " (%s)", g[i].top->name);
        fputc('\n', f);
    }
}

static void print_table(FILE *f, const diff_args *da, const pk_diff *d, const pk_diff_group *g,
                        size_t ng)
{
    bool head = false;
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        if (!da->all && !r->differs && !r->only_in)
            continue;
        if (!head) {
            if (d->range)
                fprintf(f, "%9s %6s %9s %10s %6s %10s  %s\n", "max_deg", "frame", "mean_deg",
                        "max_pos", "frame", "mean_pos", "bone");
            else
                fprintf(f, "%9s %10s  %s\n", "angle_deg", "pos_delta", "bone");
            head = true;
        }
        if (d->range)
            fprintf(f, "%9.3f %6u %9.3f %10.4f %6u %10.4f  %s", r->angle_deg, r->angle_frame,
                    r->angle_mean, r->pos_delta, r->pos_frame, r->pos_mean, r->name);
        else
            fprintf(f, "%9.3f %10.4f  %s", r->angle_deg, r->pos_delta, r->name);
        if (r->only_in)
            fprintf(f, "  (only in %s)", r->only_in == PK_DIFF_ONLY_A ? "A" : "B");
        fputc('\n', f);
    }
    head = false;
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        if (!da->all && !r->differs && !r->only_in)
            continue;
        if (!head) {
            if (d->range)
                fprintf(f, "%9s %6s %9s %17s  %s\n", "delta", "frame", "mean", "A -> B", "morph");
            else
                fprintf(f, "%9s %17s  %s\n", "delta", "A -> B", "morph");
            head = true;
        }
        if (d->range)
            fprintf(f, "%+9.4f %6u %9.4f %7.4f -> %6.4f  %s", r->delta, r->frame, r->mean,
                    r->weight_a, r->weight_b, r->name);
        else
            fprintf(f, "%+9.4f %7.4f -> %6.4f  %s", r->delta, r->weight_a, r->weight_b, r->name);
        if (r->only_in)
            fprintf(f, "  (only in %s)", r->only_in == PK_DIFF_ONLY_A ? "A" : "B");
        fputc('\n', f);
    }
    diff_scene_table(f, d, da->all);
    print_groups(f, da, d, g, ng);
    print_summary(f, da, d);
}

/* CSV: one line per row, bones then morphs; names quoted when needed. */
static void csv_name(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void print_csv(FILE *f, const pk_diff *d, const pk_diff_group *g, size_t ng, bool groups)
{
    fputs("kind,name,angle_deg,pos_delta,angle_frame,angle_mean,pos_frame,pos_mean,weight_a,"
          "weight_b,delta,only_in,differs",
          f);
    fputs(groups ? ",group_bones,group_differ\n" : "\n", f);
    const char *tail = groups ? ",," : ""; /* the group columns of other rows */
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        fputs("bone,", f);
        csv_name(f, r->name);
        if (d->range)
            fprintf(f, ",%.6f,%.6f,%u,%.6f,%u,%.6f,,,,%s,%d%s\n", r->angle_deg, r->pos_delta,
                    r->angle_frame, r->angle_mean, r->pos_frame, r->pos_mean, only_text(r->only_in),
                    r->differs, tail);
        else
            fprintf(f, ",%.6f,%.6f,,,,,,,,%s,%d%s\n", r->angle_deg, r->pos_delta,
                    only_text(r->only_in), r->differs, tail);
    }
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        fputs("morph,", f);
        csv_name(f, r->name);
        if (d->range)
            fprintf(f, ",,,%u,,,,%.6f,%.6f,%.6f,%s,%d%s\n", r->frame, r->weight_a, r->weight_b,
                    r->delta, only_text(r->only_in), r->differs, tail);
        else
            fprintf(f, ",,,,,,,%.6f,%.6f,%.6f,%s,%d%s\n", r->weight_a, r->weight_b, r->delta,
                    only_text(r->only_in), r->differs, tail);
    }
    diff_scene_csv(f, d, tail);
    /* group rows: the largest angle (and its frame), the largest distance */
    for (size_t i = 0; groups && i < ng; i++) {
        fprintf(f, "group,@");
        csv_name(f, g[i].name);
        double deg = group_deg(&g[i]);
        if (d->range)
            fprintf(f, ",%.6f,%.6f,%u,,,,,,,,%d,%zu,%zu\n", deg, g[i].max_pos,
                    g[i].top ? g[i].top->angle_frame : 0, g[i].bones_differ > 0, g[i].bones,
                    g[i].bones_differ);
        else
            fprintf(f, ",%.6f,%.6f,,,,,,,,,%d,%zu,%zu\n", deg, g[i].max_pos, g[i].bones_differ > 0,
                    g[i].bones, g[i].bones_differ);
    }
}

static int set(json_t *o, const char *k, json_t *v)
{
    return json_object_set_new(o, k, v);
}

static json_t *json_groups(const pk_diff *d, const pk_diff_group *g, size_t ng)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < ng; i++) {
        json_t *o = json_object();
        set(o, "name", cj_string(g[i].name));
        set(o, "bones", json_integer((json_int_t)g[i].bones));
        set(o, "bones_differ", json_integer((json_int_t)g[i].bones_differ));
        set(o, "max_angle_deg", json_real(round6(group_deg(&g[i]))));
        set(o, "max_bone", g[i].top ? cj_string(g[i].top->name) : json_null());
        if (d->range)
            set(o, "max_frame", g[i].top ? json_integer(g[i].top->angle_frame) : json_null());
        set(o, "max_pos_delta", json_real(round6(g[i].max_pos)));
        set(o, "differs", json_boolean(g[i].bones_differ > 0));
        json_array_append_new(arr, o);
    }
    return arr;
}

static json_t *json_report(const diff_args *da, const pk_diff *d, const pk_diff_group *g, size_t ng)
{
    json_t *root = json_object(), *bones = json_array(), *morphs = json_array();
    json_t *sum = json_object();
    if (!root || !bones || !morphs || !sum) {
        json_decref(root);
        json_decref(bones);
        json_decref(morphs);
        json_decref(sum);
        return NULL;
    }
    set(root, "a", cj_string(da->a));
    set(root, "b", cj_string(da->b));
    if (d->range) {
        json_t *fr = json_array();
        json_array_append_new(fr, json_integer(d->first));
        json_array_append_new(fr, json_integer(d->last));
        set(root, "frames", fr);
    } else {
        set(root, "frame", json_integer(da->frame));
    }
    json_t *th = json_object();
    set(th, "deg", json_real(da->opts.threshold_deg));
    set(th, "pos", json_real(da->opts.pos_threshold));
    set(th, "morph", json_real(da->opts.morph_threshold));
    set(root, "thresholds", th);
    for (size_t i = 0; i < d->nbones; i++) {
        const pk_diff_bone *r = &d->bones[i];
        json_t *o = json_object();
        set(o, "name", cj_string(r->name));
        set(o, "angle_deg", json_real(round6(r->angle_deg)));
        set(o, "pos_delta", json_real(round6(r->pos_delta)));
        if (d->range) {
            set(o, "angle_frame", json_integer(r->angle_frame));
            set(o, "angle_mean", json_real(round6(r->angle_mean)));
            set(o, "pos_frame", json_integer(r->pos_frame));
            set(o, "pos_mean", json_real(round6(r->pos_mean)));
        }
        if (r->only_in)
            set(o, "only_in", json_string(only_text(r->only_in)));
        set(o, "differs", json_boolean(r->differs));
        json_array_append_new(bones, o);
    }
    for (size_t i = 0; i < d->nmorphs; i++) {
        const pk_diff_morph *r = &d->morphs[i];
        json_t *o = json_object();
        set(o, "name", cj_string(r->name));
        set(o, "weight_a", json_real(round6(r->weight_a)));
        set(o, "weight_b", json_real(round6(r->weight_b)));
        set(o, "delta", json_real(round6(r->delta)));
        if (d->range) {
            set(o, "frame", json_integer(r->frame));
            set(o, "mean", json_real(round6(r->mean)));
        }
        if (r->only_in)
            set(o, "only_in", json_string(only_text(r->only_in)));
        set(o, "differs", json_boolean(r->differs));
        json_array_append_new(morphs, o);
    }
    set(root, "bones", bones);
    set(root, "morphs", morphs);
    if (d->nscene) /* only when A or B keys a camera, light or shadow */
        set(root, "scene", diff_scene_json(d));
    if (da->groups)
        set(root, "groups", json_groups(d, g, ng));
    double max = 0.0;
    for (size_t i = 0; i < d->nbones; i++)
        if (d->bones[i].angle_deg > max)
            max = d->bones[i].angle_deg;
    set(sum, "bones", json_integer((json_int_t)d->nbones));
    set(sum, "bones_differ", json_integer((json_int_t)d->bones_differ));
    set(sum, "morphs", json_integer((json_int_t)d->nmorphs));
    set(sum, "morphs_differ", json_integer((json_int_t)d->morphs_differ));
    set(sum, "only_in_a", json_integer((json_int_t)d->only_a));
    set(sum, "only_in_b", json_integer((json_int_t)d->only_b));
    if (d->nscene) {
        set(sum, "scene", json_integer((json_int_t)d->nscene));
        set(sum, "scene_differ", json_integer((json_int_t)d->scene_differ));
    }
    set(sum, "max_angle_deg", json_real(round6(max)));
    set(sum, "differ", json_boolean(pk_diff_any(d)));
    set(root, "summary", sum);
    return root;
}

/* ---- the command ---- */

static int parse(int argc, char **argv, diff_args *da)
{
    static const struct option longopts[] = {
        {"frame", required_argument, NULL, OPT_FRAME},
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"bones", required_argument, NULL, OPT_BONES},
        {"model", required_argument, NULL, OPT_MODEL},
        {"rules", required_argument, NULL, OPT_RULES},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"pos-threshold", required_argument, NULL, OPT_POS_THRESHOLD},
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"svg", required_argument, NULL, OPT_SVG},
        {"all", no_argument, NULL, OPT_ALL},
        {"groups", no_argument, NULL, OPT_GROUPS},
        {"no-morphs", no_argument, NULL, OPT_NO_MORPHS},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    double v;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FRAME:
            if (!cli_parse_u32(optarg, &da->frame))
                return cli_usage("diff", "--frame wants a frame number (0 or more), not '%s'",
                                 optarg);
            da->frame_set = true;
            break;
        case OPT_FRAMES:
            da->range = true;
            if (strcmp(optarg, "all") == 0)
                da->range_all = true;
            else if (!cli_parse_range(optarg, &da->first, &da->last))
                return cli_usage("diff", "--frames wants A-B (A <= B) or 'all', not '%s'", optarg);
            break;
        case OPT_BONES:
            da->bones = optarg;
            break;
        case OPT_RULES:
            da->rules = optarg;
            break;
        case OPT_MODEL:
            da->model = optarg;
            break;
        case OPT_THRESHOLD:
        case OPT_POS_THRESHOLD:
            if (!cli_parse_double(optarg, &v) || !(v >= 0.0) || !isfinite(v))
                return cli_usage("diff", "%s wants a number of 0 or more, not '%s'",
                                 c == OPT_THRESHOLD ? "--threshold" : "--pos-threshold", optarg);
            if (c == OPT_THRESHOLD)
                da->opts.threshold_deg = v;
            else
                da->opts.pos_threshold = v;
            break;
        case OPT_JSON:
            da->json = true;
            break;
        case OPT_CSV:
            da->csv = true;
            break;
        case OPT_SVG:
            da->svg = optarg;
            break;
        case OPT_ALL:
            da->all = true;
            break;
        case OPT_GROUPS:
            da->groups = true;
            break;
        case OPT_NO_MORPHS:
            da->opts.no_morphs = true;
            break;
        case OPT_STRICT:
            cli_strict = true;
            break;
        case 'h':
            return cli_help(help_diff) == EXIT_OK ? -1 : EXIT_ERROR;
        default:
            return cli_bad_option("diff", argv);
        }
    }
    if (argc - optind < 2)
        return cli_usage("diff", "two files to compare are needed");
    if (argc - optind > 2)
        return cli_usage("diff", "two files at a time ('%s' is extra)", argv[optind + 2]);
    if (da->frame_set && da->range)
        return cli_usage("diff", "--frame and --frames exclude each other");
    if (da->json && da->csv)
        return cli_usage("diff", "--json and --csv exclude each other");
    da->a = argv[optind];
    da->b = argv[optind + 1];
    return EXIT_OK;
}

/* Loads both inputs; the doc pair is freed by the caller in every case. */
static int run(diff_args *da, pk_doc *docs, pk_log *log)
{
    if (cli_load(da->a, &docs[0], cli_strict) != EXIT_OK ||
        cli_load(da->b, &docs[1], cli_strict) != EXIT_OK)
        return EXIT_ERROR;
    bool any_vmd = docs[0].motion || docs[1].motion;
    if (!any_vmd && (da->frame_set || da->range))
        return cli_usage("diff", "%s applies to VMD inputs; both files are poses",
                         da->range ? "--frames" : "--frame");

    pk_rules *rules = NULL;
    pk_selection *sel = NULL;
    int rc = EXIT_OK;
    if (da->rules) {
        rules = pk_rules_load(da->rules, log);
        if (!rules)
            rc = EXIT_ERROR;
    }
    if (rc == EXIT_OK && da->bones) {
        pk_log_set_path(log, NULL);
        pk_model *model = da->model ? cli_load_model(da->model, cli_strict) : NULL;
        sel = da->model && !model ? NULL : pk_selection_parse_model(rules, model, da->bones, log);
        pk_model_free(model);
        if (!sel)
            rc = EXIT_ERROR;
        da->opts.bone_filter = selection_filter;
        da->opts.filter_ctx = sel;
        da->opts.filter_spec = da->bones;
    }
    if (rc == EXIT_OK && cli_flush_log(log, cli_strict) != EXIT_OK)
        rc = EXIT_ERROR;

    pk_diff *d = NULL;
    if (rc == EXIT_OK && da->range) {
        pk_motion *m[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++)
            m[i] = docs[i].motion ? docs[i].motion : (own[i] = hold_pose(docs[i].pose, log));
        if (da->range_all) {
            bool any = false;
            for (int i = 0; i < 2; i++) {
                uint32_t lo, hi;
                if (docs[i].motion && pk_motion_frame_range(docs[i].motion, &lo, &hi)) {
                    da->first = any && da->first < lo ? da->first : lo;
                    da->last = any && da->last > hi ? da->last : hi;
                    any = true;
                }
            }
            if (!any)
                da->first = da->last = 0;
        }
        da->opts.bins = da->svg ? SVG_COLUMNS : 0;
        da->opts.no_scene = !docs[0].motion || !docs[1].motion; /* a pose has no camera */
        if (m[0] && m[1]) {
            pk_log_set_path(log, NULL);
            d = pk_diff_motions(m[0], m[1], da->first, da->last, &da->opts, log);
        }
        pk_motion_free(own[0]);
        pk_motion_free(own[1]);
    } else if (rc == EXIT_OK) {
        pk_pose *p[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++) {
            pk_log_set_path(log, i == 0 ? da->a : da->b);
            p[i] = docs[i].pose ? docs[i].pose
                                : (own[i] = pk_motion_sample(docs[i].motion, NULL, da->frame, log));
        }
        if (p[0] && p[1]) {
            pk_log_set_path(log, NULL);
            d = pk_diff_poses(p[0], p[1], &da->opts, log);
        }
        if (d && docs[0].motion && docs[1].motion && !da->opts.bone_filter &&
            !pk_diff_add_scene(d, docs[0].motion, docs[1].motion, da->frame, da->frame, &da->opts,
                               log)) {
            pk_diff_free(d);
            d = NULL;
        }
        pk_pose_free(own[0]);
        pk_pose_free(own[1]);
    }
    if (rc == EXIT_OK && (cli_flush_log(log, cli_strict) != EXIT_OK || !d))
        rc = EXIT_ERROR;

    if (rc == EXIT_OK) {
        pk_diff_sort(d);
        if (da->svg) {
            pk_buf buf;
            pk_buf_init(&buf);
            size_t tl = strlen(da->a) + strlen(da->b) + 64;
            char *title = malloc(tl);
            if (title) {
                if (d->range)
                    snprintf(title, tl, "%s vs %s, frames %u-%u", da->a, da->b, d->first, d->last);
                else if (docs[0].motion || docs[1].motion)
                    snprintf(title, tl, "%s vs %s, frame %u", da->a, da->b, da->frame);
                else
                    snprintf(title, tl, "%s vs %s", da->a, da->b);
            }
            if (!title || svg_diff(d, &da->opts, title, da->all, &buf) != 0) {
                fprintf(stderr, "posekit: out of memory\n");
                rc = EXIT_ERROR;
            } else if (cli_write(da->svg, &buf) != EXIT_OK) {
                rc = EXIT_ERROR;
            }
            free(title);
            pk_buf_free(&buf);
        }
    }
    pk_diff_group *groups = NULL;
    size_t ngroups = 0;
    if (rc == EXIT_OK && da->groups) {
        if (!rules && !(rules = pk_rules_default(log)))
            rc = EXIT_ERROR;
        else if (!(groups = pk_diff_groups(d, rules, &ngroups, log)))
            rc = EXIT_ERROR;
        if (cli_flush_log(log, cli_strict) != EXIT_OK)
            rc = EXIT_ERROR;
    }
    if (rc == EXIT_OK) {
        if (da->json) {
            json_t *j = json_report(da, d, groups, ngroups);
            if (!j || cj_print(stdout, j, 0) != 0)
                rc = EXIT_ERROR;
            json_decref(j);
        } else if (da->csv) {
            print_csv(stdout, d, groups, ngroups, da->groups);
        } else {
            print_table(stdout, da, d, groups, ngroups);
        }
        if (rc == EXIT_OK && fflush(stdout) != 0) {
            fprintf(stderr, "posekit: cannot write standard output\n");
            rc = EXIT_ERROR;
        }
        if (rc == EXIT_OK)
            rc = pk_diff_any(d) ? EXIT_DIFF : EXIT_OK;
    }
    free(groups);
    pk_diff_free(d);
    pk_selection_free(sel);
    pk_rules_free(rules);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    diff_args da;
    memset(&da, 0, sizeof da);
    pk_diff_options_init(&da.opts);
    int rc = parse(argc, argv, &da);
    if (rc == -1)
        return EXIT_OK; /* --help */
    if (rc != EXIT_OK)
        return rc;
    pk_doc docs[2];
    memset(docs, 0, sizeof docs);
    pk_log log;
    pk_log_init(&log);
    rc = run(&da, docs, &log);
    cli_print_log(&log);
    pk_log_free(&log);
    pk_doc_free(&docs[0]);
    pk_doc_free(&docs[1]);
    return rc;
}
