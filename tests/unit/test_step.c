/* test_step.c — the step layer (engine/step/): the registry's descriptors
 * hold together; every option of every operation is set from text, its
 * refused values are refused with their messages, and a value given twice
 * is an error unless the option repeats; operands and needs; a step built
 * the command line's way and one built a job's way run to the same bytes;
 * and the decisions the command line and job files share
 * (pk_output_refusal, pk_file_format, pk_output_format,
 * pk_path_same_target, pk_doc_encode). */
#include "pmxgen.h"
#include "testutil.h"
#include "posekit_tool.h"
#include "step/step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source(const char *name)
{
    static char buf[4][4096];
    static int k;
    const char *src = getenv("PK_SOURCE");
    if (!src || !*src)
        return NULL;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", src, name);
    return buf[k];
}

/* The row named name in step s (def rows only). */
static const pki_option *row(const pk_step *s, const char *name)
{
    for (size_t i = 0; i < s->def->noptions; i++)
        if (strcmp(s->def->options[i].name, name) == 0)
            return &s->def->options[i];
    return NULL;
}

/* name spelled as the prefix spells it: '_' becomes '-' after "--". */
static const char *spelled(const char *prefix, const char *name, char buf[64])
{
    snprintf(buf, 64, "%s%s", prefix, name);
    for (char *p = buf + strlen(prefix); *prefix && *p; p++)
        if (*p == '_')
            *p = '-';
    return buf;
}

/* ---- the registry ---- */

/* Every descriptor: a name, a line, help for `posekit NAME`; what it
 * makes agrees with what the command line does with -o; reports name
 * their formats; side files, the format option and operands name what the
 * operation has. */
static void test_registry(void **state)
{
    (void)state;
    size_t n = 0;
    for (size_t i = 0; pk_step_op_name(i); i++, n++) {
        const char *name = pk_step_op_name(i);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: posekit %s ", name);
        assert_non_null(pk_step_op_about(i));
        assert_true(strncmp(pk_step_op_help(i), usage, strlen(usage)) == 0);
        for (size_t k = 0; k < i; k++)
            assert_string_not_equal(pk_step_op_name(k), name);
        pk_log log;
        pk_log_init(&log);
        pk_step *s = pk_step_new(name, "--", &log);
        assert_non_null(s);
        assert_string_equal(pk_step_name(s), name);
        const pk_step_cli *cli = pk_step_cli_of(s);
        if (cli->format_option) /* what convert makes is its output's format */
            assert_int_equal(pk_step_set(s, cli->format_option, "vmd", &log), 0);
        bool report = s->def->makes(s, PK_FMT_VMD) == PK_FMT_UNKNOWN;
        assert_int_equal(report, cli->output != PK_CLI_OUT_DOC);
        assert_int_equal(report, pk_step_report_exts(s) != NULL);
        assert_true(pk_step_reports(s, PK_REPORT_TEXT));
        assert_false(report && pk_step_takes_input(s));
        if (cli->side_option) {
            assert_true(pk_step_reports(s, cli->side_format));
            assert_non_null(cli->side_what);
            assert_non_null(cli->side_exts);
        }
        if (cli->format_option)
            assert_int_equal(pk_step_option(s, cli->format_option), 1);
        for (const char *p = s->def->operands; *p;) {
            size_t len = strcspn(p, ",");
            char key[32];
            snprintf(key, sizeof key, "%.*s", (int)len, p);
            assert_int_equal(pk_step_option_need(s, key), PK_NEED_DOC);
            p += len + (p[len] == ',');
        }
        for (size_t r = 0; r < s->def->noptions; r++)
            for (size_t q = 0; q < r; q++)
                assert_string_not_equal(s->def->options[q].name, s->def->options[r].name);
        assert_true(s->def->noptions + 1 <= PKI_STEP_MAX_OPTIONS);
        assert_int_equal(pk_step_option(s, "strict"), 0);
        pk_step_free(s);
        pk_log_free(&log);
    }
    /* every operation of the command line and job files is registered */
    static const char *const KNOWN[] = {"convert",  "diff",    "rename", "mirror",
                                        "retarget", "overlay", "merge",  "reduce",
                                        "bake",     "check",   "draw"};
    for (size_t k = 0; k < sizeof KNOWN / sizeof KNOWN[0]; k++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found = found || strcmp(pk_step_op_name(i), KNOWN[k]) == 0;
        assert_true(found);
    }
    /* an unknown one is told with the list of every one */
    char want[512] = "unknown operation 'twirl' (";
    for (size_t i = 0; i < n; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? ", " : "",
                 pk_step_op_name(i));
    pk_log log;
    pk_log_init(&log);
    assert_null(pk_step_new("twirl", "", &log));
    tu_assert_log_has(&log, want);
    pk_log_free(&log);
}

/* ---- options ---- */

/* A value every option of its kind takes. */
/* A text option whose value its step reads (a time step's trim, a
 * curve's like): a value of its own form, else NULL. */
static const char *good_text(const char *name)
{
    static const char *const FORM[][2] = {
        {"trim", "2-9"}, {"shift", "-3"}, {"bpm", "120:150"},     {"fps", "30:60"},
        {"set", "ease"}, {"axes", "x,r"}, {"like", "センター@0"},
    };
    for (size_t i = 0; i < sizeof FORM / sizeof FORM[0]; i++)
        if (strcmp(FORM[i][0], name) == 0)
            return FORM[i][1];
    return NULL;
}

static const char *good_value(const pki_option *o, char buf[64])
{
    if (o->kind == PKI_OPT_STRING && good_text(o->name))
        return good_text(o->name);
    switch (o->kind) {
    case PKI_OPT_INPUT:
    case PKI_OPT_INPUTS:
        return "a.vmd";
    case PKI_OPT_RULES:
        return "r.yaml";
    case PKI_OPT_MODEL:
        return "m.pmx";
    case PKI_OPT_STRING:
    case PKI_OPT_SELECT:
        return "センター,@arms";
    case PKI_OPT_BOOL:
        return "true";
    case PKI_OPT_U32:
        return "7";
    case PKI_OPT_DOUBLE:
    case PKI_OPT_POSITIVE:
        return "0.25";
    case PKI_OPT_COUNT:
        return "3";
    case PKI_OPT_FRAMES:
        return "2-9";
    case PKI_OPT_ENUM: { /* the last choice */
        const char *bar = strrchr(o->choices, '|');
        snprintf(buf, 64, "%s", bar ? bar + 1 : o->choices);
        return buf;
    }
    case PKI_OPT_OFFSET:
        return "-3";
    case PKI_OPT_SECTIONS:
        return "bones,camera";
    case PKI_OPT_WITHIN:
        return "1";
    }
    return NULL;
}

/* Whether the field of row o holds good_value's value. */
static bool holds_good_value(const pk_step *s, const pki_option *o)
{
    const char *f = (const char *)s->o + o->offset;
    const pki_list *l = (const pki_list *)f;
    switch (o->kind) {
    case PKI_OPT_INPUT:
        return (size_t)o->slot < s->ninputs && strcmp(s->inputs[o->slot], "a.vmd") == 0;
    case PKI_OPT_INPUTS:
        return s->ninputs && strcmp(s->inputs[s->ninputs - 1], "a.vmd") == 0;
    case PKI_OPT_RULES:
        return strcmp(*(char *const *)f, "r.yaml") == 0;
    case PKI_OPT_MODEL:
        return strcmp(*(char *const *)f, "m.pmx") == 0;
    case PKI_OPT_STRING:
    case PKI_OPT_SELECT:
        return strcmp(*(char *const *)f, o->kind == PKI_OPT_STRING && good_text(o->name)
                                             ? good_text(o->name)
                                             : "センター,@arms") == 0;
    case PKI_OPT_BOOL:
        return *(const bool *)f;
    case PKI_OPT_U32:
        return *(const uint32_t *)f == 7;
    case PKI_OPT_DOUBLE:
    case PKI_OPT_POSITIVE:
        return *(const double *)f == 0.25;
    case PKI_OPT_COUNT:
        return *(const uint32_t *)f == 3;
    case PKI_OPT_FRAMES: {
        const pki_frames *fr = (const pki_frames *)f;
        return !fr->all && fr->first == 2 && fr->last == 9;
    }
    case PKI_OPT_ENUM: {
        int n = 0;
        for (const char *p = o->choices; *p; p++)
            n += *p == '|';
        return *(const int *)f == n;
    }
    case PKI_OPT_OFFSET:
        return l->n && ((const int64_t *)l->v)[l->n - 1] == -3;
    case PKI_OPT_SECTIONS:
        return l->n &&
               ((const unsigned *)l->v)[l->n - 1] == ((1u << PK_SEC_BONE) | (1u << PK_SEC_CAMERA));
    case PKI_OPT_WITHIN:
        return l->n && ((const uint32_t *)l->v)[l->n - 1] == 1;
    }
    return false;
}

/* Every option of every operation, both spellings: set from text, kept,
 * and a second time an error unless it repeats. */
static void test_every_option_set(void **state)
{
    (void)state;
    static const char *const PREFIX[2] = {"--", ""};
    for (size_t i = 0; pk_step_op_name(i); i++)
        for (int p = 0; p < 2; p++) {
            pk_log log;
            pk_log_init(&log);
            pk_step *s = pk_step_new(pk_step_op_name(i), PREFIX[p], &log);
            for (size_t r = 0; r < s->def->noptions; r++) {
                const pki_option *o = &s->def->options[r];
                char key[64], vbuf[64], want[160];
                spelled(PREFIX[p], o->name, key);
                const char *v = good_value(o, vbuf);
                if (pk_step_set(s, key + strlen(PREFIX[p]), v, &log) != 0) { /* as spelled */
                    print_error("%s %s %s: refused\n", pk_step_name(s), key, v);
                    fail();
                }
                assert_true(holds_good_value(s, o));
                assert_int_equal(pk_step_option(s, key + strlen(PREFIX[p])),
                                 o->kind == PKI_OPT_BOOL ? 0 : 1);
                int again = pk_step_set(s, o->name, v, &log);
                bool repeats = pk_step_option_repeats(s, o->name);
                /* a switch given again takes the last value (GNU tools) */
                bool last_wins = o->kind == PKI_OPT_BOOL;
                assert_int_equal(again, repeats || last_wins ? 0 : -1);
                if (!repeats && !last_wins) {
                    snprintf(want, sizeof want, "%s is given twice", key);
                    tu_assert_log_has(&log, want);
                }
            }
            assert_int_equal(pk_step_set(s, "strict", NULL, &log), 0);
            assert_true(pk_step_strict(s));
            assert_int_equal(pk_step_set(s, "strict", "false", &log), 0);
            assert_false(pk_step_strict(s));
            assert_int_equal(pk_step_set(s, "strict", "true", &log), 0);
            assert_true(pk_step_strict(s));
            pk_step_free(s);
            pk_log_free(&log);
        }
}

/* A value the option refuses, and the message for it (NULL: none of its
 * kind is refused but the empty one). */
static const char *bad_value(const pki_option *o, const char *name, char msg[256])
{
    switch (o->kind) {
    case PKI_OPT_BOOL:
        snprintf(msg, 256, "%s is true or false, not 'maybe'", name);
        return "maybe";
    case PKI_OPT_U32:
        snprintf(msg, 256, "%s wants %s, not '4294967296' (the largest is 4294967295)", name,
                 o->wants);
        return "4294967296";
    case PKI_OPT_DOUBLE:
        snprintf(msg, 256, "%s wants %s, not '-0.5'", name, o->wants);
        return "-0.5";
    case PKI_OPT_POSITIVE:
        snprintf(msg, 256, "%s wants %s, not '0'", name, o->wants);
        return "0";
    case PKI_OPT_COUNT:
        snprintf(msg, 256, "%s wants %s, not '0'", name, o->wants);
        return "0";
    case PKI_OPT_FRAMES:
        snprintf(msg, 256, "%s wants %s, not '9-2'", name, o->wants);
        return "9-2";
    case PKI_OPT_ENUM:
        snprintf(msg, 256, "%s is ", name);
        return "twirl";
    case PKI_OPT_OFFSET:
        snprintf(msg, 256, "%s wants %s, not '1.5'", name, o->wants);
        return "1.5";
    case PKI_OPT_SECTIONS:
        snprintf(msg, 256, "%s takes %s, not 'tails'", name, o->wants);
        return "bones,tails";
    case PKI_OPT_WITHIN:
        snprintf(msg, 256, "%s wants %s, not '0'", name, o->wants);
        return "0";
    default:
        return NULL;
    }
}

/* Every option's refused values: an error naming the option as the
 * caller spells it, and the option left unset (given once later). */
static void test_refused_values(void **state)
{
    (void)state;
    static const char *const PREFIX[2] = {"--", ""};
    for (size_t i = 0; pk_step_op_name(i); i++)
        for (int p = 0; p < 2; p++) {
            pk_log log;
            pk_log_init(&log);
            pk_step *s = pk_step_new(pk_step_op_name(i), PREFIX[p], &log);
            for (size_t r = 0; r < s->def->noptions; r++) {
                const pki_option *o = &s->def->options[r];
                char name[64], msg[256], vbuf[64];
                spelled(PREFIX[p], o->name, name);
                const char *bad = bad_value(o, name, msg);
                if (bad) {
                    assert_int_equal(pk_step_set(s, o->name, bad, &log), -1);
                    tu_assert_log_has(&log, msg);
                }
                if (o->kind != PKI_OPT_BOOL) { /* no value */
                    assert_int_equal(pk_step_set(s, o->name, "", &log), -1);
                    snprintf(msg, sizeof msg, "%s wants ", name);
                    tu_assert_log_has(&log, msg);
                    assert_int_equal(pk_step_set(s, o->name, NULL, &log), -1);
                }
                /* refused values leave the option free */
                assert_int_equal(pk_step_set(s, o->name, good_value(o, vbuf), &log), 0);
            }
            char msg[160], name[64];
            assert_int_equal(pk_step_set(s, "twirl", "1", &log), -1);
            snprintf(msg, sizeof msg, "unknown option '%s' for %s",
                     spelled(PREFIX[p], "twirl", name), pk_step_name(s));
            tu_assert_log_has(&log, msg);
            pk_step_free(s);
            pk_log_free(&log);
        }
    /* a few messages as users read them */
    pk_log log;
    pk_log_init(&log);
    pk_step *s = pk_step_new("convert", "--", &log);
    pk_step_set(s, "layout", "binary", &log);
    tu_assert_log_has(&log, "--layout is 'text' or 'hybrid', not 'binary'");
    pk_step_set(s, "frame", "-3", &log);
    tu_assert_log_has(&log, "--frame wants a frame number (0 or more), not '-3'");
    pk_step_set(s, "to", "vpx", &log);
    tu_assert_log_has(&log, "--to is 'vmd' or 'vpd', not 'vpx'");
    pk_step_free(s);
    s = pk_step_new("diff", "", &log);
    pk_step_set(s, "pos-threshold", "-1", &log);
    tu_assert_log_has(&log, "pos_threshold wants a number of 0 or more, not '-1'");
    pk_step_free(s);
    s = pk_step_new("merge", "--", &log);
    pk_step_set(s, "sections", "bones,tails", &log);
    tu_assert_log_has(&log, "--sections takes bones, morphs, camera, light, shadow, ik or all "
                            "(comma-separated), not 'tails'");
    pk_step_set(s, "prefer", "best", &log);
    tu_assert_log_has(&log, "--prefer is 'last', 'first' or 'error', not 'best'");
    pk_step_free(s);
    pk_log_free(&log);
}

/* Operands fill the operation's inputs in order; one too many is said. */
static void test_operands(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_step *s = pk_step_new("diff", "--", &log);
    assert_int_equal(pk_step_operand(s, "x.vmd", &log), 0);
    assert_int_equal(pk_step_operand(s, "y.vmd", &log), 0);
    assert_int_equal(pk_step_operand(s, "z.vmd", &log), -1);
    tu_assert_log_has(&log, "two files at a time ('z.vmd' is extra)");
    const char *const *in;
    assert_int_equal(pk_step_inputs(s, &in), 2);
    assert_string_equal(in[0], "x.vmd");
    assert_string_equal(in[1], "y.vmd");
    pk_step_free(s);
    s = pk_step_new("merge", "--", &log);
    for (int k = 0; k < 5; k++)
        assert_int_equal(pk_step_operand(s, "m.vmd", &log), 0);
    assert_int_equal(pk_step_inputs(s, &in), 5);
    pk_step_free(s);
    s = pk_step_new("overlay", "--", &log);
    assert_int_equal(pk_step_set(s, "pose", "p.vpd", &log), 0);
    assert_int_equal(pk_step_operand(s, "b.vmd", &log), 0);
    assert_int_equal(pk_step_operand(s, "c.vmd", &log), -1);
    tu_assert_log_has(&log, "one base file at a time ('c.vmd' is extra)");
    assert_int_equal(pk_step_inputs(s, &in), 2);
    assert_string_equal(in[0], "b.vmd");
    assert_string_equal(in[1], "p.vpd");
    pk_step_check(s, &log);
    tu_assert_log_has(&log, "no bones given (--bones LIST|@GROUP)");
    pk_step_free(s);
    pk_log_free(&log);
}

/* What a step reads: its documents, then its rules and models in the
 * operation's order; rules and models are handed over by index. */
static void test_needs(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_step *s = pk_step_new("retarget", "", &log);
    assert_int_equal(pk_step_operand(s, "in.vmd", &log), 0);
    assert_int_equal(pk_step_set(s, "to", "b.pmx", &log), 0);
    assert_int_equal(pk_step_set(s, "from", "a.pmx", &log), 0);
    assert_int_equal(pk_step_set(s, "rules", "r.yaml", &log), 0);
    assert_int_equal(pk_step_needs(s, NULL, 0), 4);
    pk_step_need need[4];
    pk_step_needs(s, need, 4);
    static const pk_need_kind KIND[4] = {PK_NEED_DOC, PK_NEED_RULES, PK_NEED_MODEL, PK_NEED_MODEL};
    static const char *const NAME[4] = {"in.vmd", "r.yaml", "a.pmx", "b.pmx"};
    static const char *const OPT[4] = {NULL, "rules", "from", "to"};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(need[k].kind, KIND[k]);
        assert_string_equal(need[k].name, NAME[k]);
        if (OPT[k])
            assert_string_equal(need[k].option, OPT[k]);
        else
            assert_null(need[k].option);
    }
    assert_int_equal(pk_step_option_need(s, "from"), PK_NEED_MODEL);
    assert_int_equal(pk_step_option_need(s, "in"), PK_NEED_DOC);
    assert_int_equal(pk_step_option_need(s, "no_fold"), -1);
    int model = 7;
    assert_int_equal(pk_step_give(s, 0, &model), -1); /* a document is pk_step_run's */
    assert_int_equal(pk_step_give(s, 2, &model), 0);
    assert_int_equal(pk_step_give(s, 4, &model), -1);
    const char *o = s->o;
    const pki_option *from = row(s, "from"), *to = row(s, "to");
    assert_non_null(from);
    assert_non_null(to);
    if (from && to) {
        assert_ptr_equal(*(const void *const *)(o + from->thing), (const void *)&model);
        assert_null(*(const void *const *)(o + to->thing));
    }
    pk_step_free(s);
    /* convert's 'to' is a format, not a model */
    s = pk_step_new("convert", "", &log);
    assert_int_equal(pk_step_option_need(s, "to"), -1);
    pk_step_free(s);
    pk_log_free(&log);
}

/* ---- one path: the command line's step and a job's step ---- */

/* A loaded sample (PK_SOURCE/samples/name); skips without the source. */
static void load(const char *name, pk_doc *doc)
{
    char rel[256];
    snprintf(rel, sizeof rel, "samples/%s", name);
    const char *path = source(rel);
    if (!path)
        skip();
    pk_log log;
    pk_log_init(&log);
    assert_int_equal(pk_doc_load(path, doc, &log), 0);
    pk_log_free(&log);
}

/* Everything a step gives, as bytes: the document (encoded), the summary
 * and every report it writes. */
static void result_bytes(pk_step *s, pk_doc *docs, size_t n, const void *const *things, pk_buf *out)
{
    pk_log log;
    pk_log_init(&log);
    pk_step_need need[8];
    size_t nneed = pk_step_needs(s, need, 8);
    for (size_t i = 0; i < nneed; i++)
        if (need[i].kind != PK_NEED_DOC)
            assert_int_equal(pk_step_give(s, i, things[i - n]), 0);
    pk_step_result res;
    if (pk_step_run(s, docs, n, &res, &log) != 0) {
        for (size_t i = 0; i < log.count; i++)
            print_error("%s: %s\n", pk_step_name(s), log.items[i].msg);
        fail();
    }
    if (res.out.motion || res.out.pose) {
        pk_encode_options eo = {0, res.vpd};
        assert_int_equal(pk_doc_encode(&res.out, res.out.format, &eo, pk_buf_sink, out, &log), 0);
    }
    pk_step_summary(s, &res, out);
    for (int f = PK_REPORT_TEXT; f <= PK_REPORT_SVG; f++)
        if (pk_step_reports(s, (pk_report_format)f))
            assert_int_equal(pk_step_report(s, &res, (pk_report_format)f, out, &log), 0);
    pk_buf_printf(out, "found %d", res.found);
    pk_step_result_free(&res);
    pk_log_free(&log);
}

/* op and its options as name=value pairs ("frames=30-60"; a bare name is
 * a flag), the operands (samples); the things (rules, models) in need
 * order.  Filled as the command line fills a step (operands, '-'
 * spellings) and as a job does (input options by name, '_' spellings):
 * the two runs give the same bytes. */
static void same_both_ways(const char *op, const char *const *inputs, size_t n,
                           const char *const *opts, const void *const *things)
{
    pk_buf bytes[2];
    for (int way = 0; way < 2; way++) {
        pk_log log;
        pk_log_init(&log);
        /* messages spell options one way in both, as the command line
         * does: only how the step is filled differs */
        pk_step *s = pk_step_new(op, "--", &log);
        for (size_t i = 0; i < n; i++) {
            if (!way) { /* the command line: operands */
                assert_int_equal(pk_step_operand(s, inputs[i], &log), 0);
                continue;
            }
            /* a job: the input options by name (the operands' order) */
            const char *p = s->def->operands;
            char key[32];
            for (size_t k = 0;; k++) {
                size_t len = strcspn(p, ",");
                snprintf(key, sizeof key, "%.*s", (int)len, p);
                if (k >= i || !p[len])
                    break;
                p += len + 1;
            }
            assert_int_equal(pk_step_set(s, key, inputs[i], &log), 0);
        }
        for (const char *const *o = opts; *o; o++) {
            char key[64];
            const char *eq = strchr(*o, '=');
            snprintf(key, sizeof key, "%.*s", (int)(eq ? (size_t)(eq - *o) : strlen(*o)), *o);
            for (char *p = key; *p; p++) /* the command line's dashes */
                if (*p == '_' && !way)
                    *p = '-';
            assert_int_equal(pk_step_set(s, key, eq ? eq + 1 : NULL, &log), 0);
        }
        assert_int_equal(pk_step_check(s, &log), 0);
        const char *const *names;
        size_t nin = pk_step_inputs(s, &names);
        pk_doc docs[4];
        assert_true(nin <= 4);
        for (size_t i = 0; i < nin; i++)
            load(names[i], &docs[i]);
        pk_buf_init(&bytes[way]);
        result_bytes(s, docs, nin, things, &bytes[way]);
        for (size_t i = 0; i < nin; i++)
            pk_doc_free(&docs[i]);
        pk_step_free(s);
        pk_log_free(&log);
    }
    assert_true(bytes[0].len > 0);
    if (bytes[0].len != bytes[1].len || memcmp(bytes[0].data, bytes[1].data, bytes[0].len) != 0) {
        print_error("%s: the command line's bytes and the job's differ\n", op);
        fail();
    }
    pk_buf_free(&bytes[0]);
    pk_buf_free(&bytes[1]);
}

static void test_cli_and_job_alike(void **state)
{
    (void)state;
    if (!source("samples"))
        skip();
    pk_log log;
    pk_log_init(&log);
    pk_rules *en = pk_rules_load(source("rules/ja-en.yaml"), &log);
    assert_non_null(en);
    const char *dir = tu_tmpdir();
    char model_path[4096];
    snprintf(model_path, sizeof model_path, "%s/m.pmx", dir);
    {
        const int sizes[6] = {1, 1, 1, 1, 1, 1};
        pg g;
        pg_header(&g, 2.0f, 0, 0, sizes);
        for (int k = 0; k < 4; k++)
            pg_i32(&g, 0);
        pg_i32(&g, 3);
        pg_bone_simple(&g, "センター", "center", 0, -1);
        pg_bone_simple(&g, "右腕", "arm_R", 10, 0);
        pg_bone_simple(&g, "右ひじ", "elbow_R", 12, 1);
        pg_i32(&g, 0);
        pg_i32(&g, 0);
        pg_no_physics(&g);
        tu_write_file(model_path, g.b.data, g.b.len);
        pk_buf_free(&g.b);
    }
    pk_model *m = pk_model_load(model_path, &log);
    assert_non_null(m);
    const void *rules_only[1] = {en}, *model_only[1] = {m}, *none[1] = {NULL};
    const char *dance[1] = {"dance.vmd"}, *fist[1] = {"hands/right_fist.vpd"};
    const char *two_dances[2] = {"dance.vmd", "dance.vmd"};
    const char *poses[2] = {"hands/right_fist.vpd", "hands/right_peace.vpd"};
    const char *overlay[1] = {"dance.vmd"};
    same_both_ways("convert", dance, 1, (const char *[]){"to=vpd", "frame=40", NULL}, none);
    same_both_ways("convert", fist, 1, (const char *[]){"to=vmd", "frame=7", NULL}, none);
    same_both_ways("convert", fist, 1,
                   (const char *[]){"to=vpd", "layout=hybrid", "no_morphs", NULL}, none);
    same_both_ways("diff", poses, 2, (const char *[]){"all", "groups", NULL}, none);
    same_both_ways("diff", two_dances, 2,
                   (const char *[]){"frames=0-60", "pos_threshold=0.5", NULL}, none);
    same_both_ways("rename", dance, 1, (const char *[]){"rules=en", "verbose", NULL}, rules_only);
    same_both_ways("mirror", fist, 1, (const char *[]){"verbose", NULL}, none);
    same_both_ways("overlay", overlay, 1,
                   (const char *[]){"pose=hands/right_fist.vpd", "bones=@fingers_R", "frames=30-60",
                                    "fade=6", NULL},
                   none);
    same_both_ways("merge", two_dances, 2,
                   (const char *[]){"offset=0", "offset=10", "prefer=first", NULL}, none);
    same_both_ways("reduce", dance, 1, (const char *[]){"max_deg=0.5", "camera", NULL}, none);
    same_both_ways("bake", dance, 1, (const char *[]){"step=5", "frames=10-40", NULL}, none);
    same_both_ways("check", dance, 1, (const char *[]){"model=m", NULL}, model_only);
    same_both_ways("draw", fist, 1, (const char *[]){"model=m", "view=all", NULL}, model_only);
    pk_model_free(m);
    pk_rules_free(en);
    pk_log_free(&log);
}

/* ---- the decisions both share ---- */

static void refusal(pk_format holds, const pk_step *by, const char *path, const char *name,
                    const char *want)
{
    int report;
    pk_format fmt = pk_output_format(path, &report);
    char why[512];
    const char *r = pk_output_refusal(holds, by, fmt, report, path, name, why, sizeof why);
    if (!want) {
        if (r)
            print_error("%s refused: %s\n", path, r);
        assert_null(r);
        return;
    }
    assert_non_null(r);
    if (!strstr(r, want)) {
        print_error("'%s' lacks '%s'\n", r, want);
        fail();
    }
}

static void test_output_refusal(void **state)
{
    (void)state;
    pk_log log;
    pk_log_init(&log);
    pk_step *diff = pk_step_new("diff", "", &log), *check = pk_step_new("check", "", &log);
    /* a motion: .vmd only */
    refusal(PK_FMT_VMD, NULL, "o.vmd", NULL, NULL);
    refusal(PK_FMT_VMD, NULL, "O.VMD", "r", NULL);
    refusal(PK_FMT_VMD, NULL, "o.vpd", NULL,
            "'o.vpd' would hold one frame of a motion: write a .vmd (posekit convert --frame N");
    refusal(PK_FMT_VMD, NULL, "o.vpd", "r",
            "o.vpd: 'r' is a motion: a .vpd holds one pose (take one with a step convert: {in: "
            "r, to: vpd, frame: N, out: ...})");
    refusal(PK_FMT_VMD, NULL, "o.txt", "r", "o.txt: 'r' is a motion: write it as .vmd");
    refusal(PK_FMT_VMD, NULL, "o.bin", NULL,
            "cannot tell the output format of 'o.bin': use .vmd (it is a motion)");
    pk_step *bake = pk_step_new("bake", "--", &log);
    refusal(PK_FMT_VMD, bake, "o.bin", NULL,
            "cannot tell the output format of 'o.bin': use .vmd (bake writes a motion)");
    refusal(PK_FMT_VPD, bake, "o.bin", NULL,
            "cannot tell the output format of 'o.bin': use .vmd or .vpd");
    pk_step_free(bake);
    /* a model's name: the format is told, and posekit writes no model */
    refusal(PK_FMT_VMD, NULL, "o.pmx", NULL,
            "'o.pmx' is named as a model (.pmx, .pmd), which posekit never writes: write the "
            "motion as .vmd");
    refusal(PK_FMT_VPD, NULL, "O.PMD", NULL,
            "'O.PMD' is named as a model (.pmx, .pmd), which posekit never writes: use .vmd or "
            ".vpd");
    /* a pose: .vpd or .vmd */
    refusal(PK_FMT_VPD, NULL, "o.vpd", "r", NULL);
    refusal(PK_FMT_VPD, NULL, "o.vmd", NULL, NULL);
    refusal(PK_FMT_VPD, NULL, "o.json", "r", "o.json: 'r' is a pose: write it as .vpd or .vmd");
    /* a report: the formats its step writes */
    refusal(PK_FMT_UNKNOWN, diff, "d.csv", "r", NULL);
    refusal(PK_FMT_UNKNOWN, diff, "d.SVG", "r", NULL);
    refusal(PK_FMT_UNKNOWN, diff, "d.yaml", "r",
            "d.yaml: 'r' is a diff report: write it as .txt, .json, .csv or .svg (the picture)");
    refusal(PK_FMT_UNKNOWN, check, "c.yml", "r", NULL);
    refusal(PK_FMT_UNKNOWN, check, "c.vmd", "r",
            "c.vmd: 'r' is a check report: write it as .txt, .json or .yaml");
    pk_step_free(diff);
    pk_step_free(check);
    pk_log_free(&log);
}

/* The one rule of what a file is: its content, else its name. */
static void test_file_format(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir();
    char path[4096];
    static const uint8_t PMX_HEAD[] = {'P', 'M', 'X', ' ', 0, 0, 0, 0x40};
    snprintf(path, sizeof path, "%s/model.bin", dir);
    tu_write_file(path, PMX_HEAD, sizeof PMX_HEAD);
    assert_int_equal(pk_file_format(path), PK_FMT_PMX); /* by content */
    snprintf(path, sizeof path, "%s/motion.pmx", dir);
    tu_write_file(path, "Vocaloid Motion Data 0002", 25);
    assert_int_equal(pk_file_format(path), PK_FMT_VMD); /* content wins */
    snprintf(path, sizeof path, "%s/junk.PMD", dir);
    tu_write_file(path, "junk", 4);
    assert_int_equal(pk_file_format(path), PK_FMT_PMD); /* no signature: the name */
    snprintf(path, sizeof path, "%s/missing.pmx", dir);
    assert_int_equal(pk_file_format(path), PK_FMT_PMX);
    assert_int_equal(pk_file_format("-"), PK_FMT_UNKNOWN);
    assert_int_equal(pk_format_from_path("a/B.VMD"), PK_FMT_VMD);
    assert_int_equal(pk_format_from_path("b.Vpd"), PK_FMT_VPD);
    assert_int_equal(pk_format_from_path("m.pmx"), PK_FMT_PMX);
    assert_int_equal(pk_format_from_path("a.vmd.txt"), PK_FMT_UNKNOWN);
    assert_int_equal(pk_format_from_path("dir.vmd/x"), PK_FMT_UNKNOWN);
    int report;
    assert_int_equal(pk_output_format("m.pmx", &report), PK_FMT_UNKNOWN);
    assert_int_equal(report, -1);
    assert_int_equal(pk_output_format("r.YML", &report), PK_FMT_UNKNOWN);
    assert_int_equal(report, PK_REPORT_RULES);
    assert_int_equal(pk_output_format("a.vpd", &report), PK_FMT_VPD);
    assert_int_equal(report, -1);
    /* a pose read from a file named .pmx is refused as a model */
    pk_log log;
    pk_log_init(&log);
    pk_doc d;
    snprintf(path, sizeof path, "%s/model.bin", dir);
    assert_int_equal(pk_doc_load(path, &d, &log), -1);
    tu_assert_log_has(&log, "a PMX model, not a motion or pose");
    pk_log_free(&log);
}

/* The one test of two paths naming one file. */
static void test_same_target(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir();
    char a[4096], b[4096], link[4096];
    snprintf(a, sizeof a, "%s/x.vmd", dir);
    snprintf(b, sizeof b, "%s/./sub/../x.vmd", dir);
    assert_true(pk_path_same_target(a, b)); /* neither exists */
    tu_write_file(a, "x", 1);
    assert_true(pk_path_same_target(a, b));
    snprintf(link, sizeof link, "%s/l.vmd", dir);
    assert_int_equal(symlink(a, link), 0);
    assert_true(pk_path_same_target(link, a));
    snprintf(b, sizeof b, "%s/y.vmd", dir);
    assert_false(pk_path_same_target(a, b));
    tu_write_file(b, "x", 1);
    assert_false(pk_path_same_target(a, b));
}

/* The one encoder: a pose as VMD is pk_pose_to_motion's motion; a motion
 * as VPD is refused. */
static void test_doc_encode(void **state)
{
    (void)state;
    pk_doc fist, dance;
    load("hands/right_fist.vpd", &fist);
    load("dance.vmd", &dance);
    pk_log log;
    pk_log_init(&log);
    pk_buf a, b;
    pk_buf_init(&a);
    pk_buf_init(&b);
    pk_encode_options eo = {12, {PK_VPD_TEXT, false}};
    assert_int_equal(pk_doc_encode(&fist, PK_FMT_VMD, &eo, pk_buf_sink, &a, &log), 0);
    pk_motion *m = pk_pose_to_motion(fist.pose, 12, &log);
    assert_int_equal(pk_vmd_write(m, &b, &log), 0);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    pk_motion_free(m);
    a.len = b.len = 0;
    assert_int_equal(pk_doc_encode(&fist, PK_FMT_VPD, NULL, pk_buf_sink, &a, &log), 0);
    assert_int_equal(pk_vpd_write(fist.pose, NULL, &b, &log), 0);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    a.len = b.len = 0;
    assert_int_equal(pk_doc_encode(&dance, PK_FMT_VMD, NULL, pk_buf_sink, &a, &log), 0);
    assert_int_equal(pk_vmd_write(dance.motion, &b, &log), 0);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    assert_int_equal(log.errors, 0);
    assert_int_equal(pk_doc_encode(&dance, PK_FMT_VPD, NULL, pk_buf_sink, &a, &log), -1);
    tu_assert_log_has(&log, "a .vpd holds one pose, not a motion");
    assert_int_equal(pk_doc_encode(&dance, PK_FMT_PMX, NULL, pk_buf_sink, &a, &log), -1);
    tu_assert_log_has(&log, "cannot tell the output format");
    pk_buf_free(&a);
    pk_buf_free(&b);
    pk_doc_free(&fist);
    pk_doc_free(&dance);
    pk_log_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),       cmocka_unit_test(test_every_option_set),
        cmocka_unit_test(test_refused_values), cmocka_unit_test(test_operands),
        cmocka_unit_test(test_needs),          cmocka_unit_test(test_cli_and_job_alike),
        cmocka_unit_test(test_output_refusal), cmocka_unit_test(test_file_format),
        cmocka_unit_test(test_same_target),    cmocka_unit_test(test_doc_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
