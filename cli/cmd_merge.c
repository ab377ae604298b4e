/* cmd_merge.c — `posekit merge IN... -o OUT`: motions combined. */
#include "cli.h"
#include "json.h"

#include <string.h>

const char help_merge[] =
    "usage: posekit merge IN... -o OUT [--offset N]... [--sections LIST]...\n"
    "                     [--within K]... [--prefer first|last|error] [--json]\n"
    "                     [--cut-names] [--strict]\n"
    "\n"
    "Combines the tracks of every input (VMDs; a VPD counts as a one-frame\n"
    "motion) into one motion.  Records keep their file order, input after\n"
    "input; the header and model name come from the first input that has\n"
    "records, so merging a motion with an empty one gives it back\n"
    "byte-identical.\n"
    "\n"
    "  -o, --output OUT   output (.vmd: a merge is a motion); atomic\n"
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
    "                     stderr (not with -o -)\n"
    "  --cut-names        cut a VPD input's names longer than a VMD field\n"
    "                     (15 bytes) as MMD does, a warning per name (else\n"
    "                     each is an error)\n"
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

static const char *const SEC[PK_SEC_COUNT] = {"bone", "morph", "camera", "light", "shadow", "ik"};

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

void merge_print_text(const pk_step *s, const pk_step_result *res, const char *const *inputs)
{
    const pk_merge_report *r = &res->merge;
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
    pk_buf b;
    pk_buf_init(&b);
    pk_step_summary(s, res, &b);
    fprintf(stderr, "posekit: merge: %.*s\n", (int)b.len, b.data ? (const char *)b.data : "");
    pk_buf_free(&b);
}

int merge_print_json(const pk_step *s, const pk_step_result *res, const char *const *inputs,
                     size_t n)
{
    (void)s;
    const pk_merge_report *r = &res->merge;
    const pk_merge_input *in = res->merge_in;
    pk_merge_policy policy = res->prefer;
    const pk_motion *out = res->out.motion;
    json_t *root = json_object();
    json_t *ins = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "path", cj_string(inputs[i]));
        json_object_set_new(o, "offset", json_integer((json_int_t)in[i].offset));
        json_t *secs = json_array();
        for (int k = 0; k < PK_SEC_COUNT; k++)
            if (!in[i].sections || (in[i].sections & (1u << k)))
                json_array_append_new(secs, json_string(pk_section_word((pk_section)k)));
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
    json_object_set_new(root, "past_end", json_integer((json_int_t)r->past_end));
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
    int rc = cj_print(stdout, root, 2);
    json_decref(root);
    return rc != 0 || fflush(stdout) != 0 ? -1 : 0;
}

int cmd_merge(int argc, char **argv)
{
    return cli_step_main("merge", argc, argv, help_merge);
}
