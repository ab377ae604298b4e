/* cmd_merge.c — `posekit merge IN... -o OUT`: motions combined. */
#include "cli.h"
#include "json.h"

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
    "  -o, --output OUT   output (.vmd: a merge is a motion); atomic\n"
    "  --offset N         shift the input at the same position by N frames\n"
    "                     (give it once per input, in order; may be\n"
    "                     negative: keys that land below frame 0 are dropped\n"
    "                     with a warning)\n"
    "  --prefer P         the same bone or morph (or camera, light, shadow,\n"
    "                     IK record) at the same frame in several inputs:\n"
    "                     last (default; like loading motions one after\n"
    "                     another in MMD), first, or error (exit 2)\n"
    "  --json             the report as JSON on stdout instead of text on\n"
    "                     stderr (not with -o -)\n"
    "  --strict           warnings are errors\n"
    "  -h, --help         this text\n"
    "\n"
    "Keys with the same value in several inputs are kept once and are not\n"
    "conflicts.  Every conflict is listed: section, name, frame, the input\n"
    "kept and the input dropped (1-based).\n";

static const char *const SEC[PK_SEC_COUNT] = {"bone", "morph", "camera", "light", "shadow", "ik"};

static const char *policy_name(pk_merge_policy p)
{
    return p == PK_MERGE_FIRST ? "first" : p == PK_MERGE_ERROR ? "error" : "last";
}

void merge_print_text(const pk_step *s, const pk_step_result *res, const char *const *inputs)
{
    const pk_merge_report *r = &res->merge;
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

void merge_print_json(const pk_step *s, const pk_step_result *res, const char *const *inputs,
                      size_t n)
{
    const pk_merge_report *r = &res->merge;
    const pk_motion *out = res->out.motion;
    pk_merge_policy policy = res->prefer;
    (void)s;
    json_t *root = json_object();
    json_t *ins = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "path", cj_string(inputs[i]));
        json_object_set_new(o, "offset", json_integer((json_int_t)res->offsets[i]));
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
    return cli_step_main("merge", argc, argv, help_merge);
}
