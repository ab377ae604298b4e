/* cmd_dump.c — `posekit dump FILE`: every record as JSON, in file order.
 *
 * The schema is doc/formats.md §12; other tools and our own tests read
 * it, so keys, their order and the one-record-per-line layout are fixed.
 * Output is streamed (a long dance holds a million numbers).
 */
#include "cli.h"
#include "json.h"

#include <stdlib.h>
#include <string.h>

const char help_dump[] =
    "usage: posekit dump FILE [--strict]\n"
    "       posekit dump --body MODEL [--bones SEL] [--strict]\n"
    "\n"
    "Prints every record of a VMD motion or VPD pose as JSON, in file order,\n"
    "one record per line:\n"
    "\n"
    "  VMD: {\"format\":\"vmd\",\"version\":2,\"model\":\"...\",\n"
    "        \"bones\":[{\"name\",\"frame\",\"pos\":[x,y,z],\"rot\":[x,y,z,w],\"interp\":[64 "
    "bytes]}],\n"
    "        \"morphs\":[{\"name\",\"frame\",\"weight\"}],\n"
    "        "
    "\"cameras\":[{\"frame\",\"distance\",\"pos\",\"rot\",\"interp\":[24],\"fov\",\"perspective\"}]"
    ",\n"
    "        \"lights\":[{\"frame\",\"color\",\"direction\"}],\n"
    "        \"shadows\":[{\"frame\",\"mode\",\"distance\"}],\n"
    "        \"ik\":[{\"frame\",\"show\",\"ik\":[{\"name\",\"enabled\"}]}]}\n"
    "  VPD: {\"format\":\"vpd\",\"layout\":\"text\",\"model\":\"...\",\n"
    "        \"bones\":[{\"name\",\"pos\",\"rot\"}],\"morphs\":[{\"name\",\"weight\"}]}\n"
    "  PMX/PMD: {\"format\":\"pmx\",\"version\",\"encoding\",\"model\",\"model_en\",\n"
    "        "
    "\"bones\":[{\"name\",\"name_en\",\"parent\",\"position\",\"layer\",\"flags\",\"tail\",\n"
    "                 \"append\":null|{\"parent\",\"ratio\",\"rotate\",\"move\",\"local\"},\n"
    "                 \"fixed_axis\",\"local_axes\":null|{\"x\",\"z\"},\n"
    "                 "
    "\"ik\":null|{\"target\",\"loops\",\"limit\",\"links\":[{\"bone\",\"min\",\"max\"}]}}],\n"
    "        \"morphs\":[{\"name\",\"name_en\",\"panel\",\"kind\"}],\n"
    "        \"frames\":[{\"name\",\"bones\":[names],\"morphs\":[names]}]}\n"
    "\n"
    "Names are UTF-8 (bytes that are not CP932 appear as \\xNN).  Floats are\n"
    "printed with the fewest digits that read back to the same 32-bit float;\n"
    "NaN and infinities, which JSON cannot hold, are printed as null.\n"
    "Quaternions are printed as stored, not normalised; `perspective` is the\n"
    "raw byte (0 = perspective).  Sections a VMD does not contain (it ended\n"
    "early) are empty arrays.\n"
    "\n"
    "With --body, prints the model (PMX, PMD or a body) as a body: the YAML\n"
    "description of its skeleton that --from, --to and --model take wherever a\n"
    "model goes (rules/bodies/README.md): bones with their parents, rest positions,\n"
    "flags, tails, append, fixed and local axes and IK chains, morph names, and\n"
    "rigid bodies.  It evaluates exactly as the model does.\n"
    "\n"
    "  --body       print the model as a body\n"
    "  --bones SEL  with --body: only these bones (names, globs, @groups), and\n"
    "               the bones they need (parents, append parents, IK targets,\n"
    "               links and the IK bones turning them)\n"
    "  --strict     treat warnings as errors\n"
    "  -h, --help   this text\n";

static void put_key(FILE *f, const char *key)
{
    fprintf(f, "\"%s\":", key);
}

static void dump_motion(FILE *f, const pk_motion *m)
{
    const uint8_t *raw;
    size_t len = pk_motion_model_raw(m, &raw);
    fprintf(f, "{\"format\":\"vmd\",\"version\":%d,\"model\":", m->version);
    cj_put_cp932(f, raw, len);
    fputs(",\n\"bones\":[", f);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_bone_key *k = &m->bones[i];
        fputs(i ? ",\n{" : "\n{", f);
        put_key(f, "name");
        cj_put_string(f, pk_names_utf8(m->names, k->name));
        fprintf(f, ",\"frame\":%u,\"pos\":", k->frame);
        cj_put_floats(f, k->pos, 3);
        fputs(",\"rot\":", f);
        cj_put_floats(f, k->rot, 4);
        fputs(",\"interp\":", f);
        cj_put_u8s(f, k->interp, 64);
        putc('}', f);
    }
    fputs("],\n\"morphs\":[", f);
    for (size_t i = 0; i < m->nmorphs; i++) {
        const pk_morph_key *k = &m->morphs[i];
        fputs(i ? ",\n{" : "\n{", f);
        put_key(f, "name");
        cj_put_string(f, pk_names_utf8(m->names, k->name));
        fprintf(f, ",\"frame\":%u,\"weight\":", k->frame);
        cj_put_float(f, k->weight);
        putc('}', f);
    }
    fputs("],\n\"cameras\":[", f);
    for (size_t i = 0; i < m->ncameras; i++) {
        const pk_camera_key *k = &m->cameras[i];
        fprintf(f, "%s{\"frame\":%u,\"distance\":", i ? ",\n" : "\n", k->frame);
        cj_put_float(f, k->distance);
        fputs(",\"pos\":", f);
        cj_put_floats(f, k->pos, 3);
        fputs(",\"rot\":", f);
        cj_put_floats(f, k->rot, 3);
        fputs(",\"interp\":", f);
        cj_put_u8s(f, k->interp, 24);
        fprintf(f, ",\"fov\":%u,\"perspective\":%u}", k->fov, (unsigned)k->perspective);
    }
    fputs("],\n\"lights\":[", f);
    for (size_t i = 0; i < m->nlights; i++) {
        const pk_light_key *k = &m->lights[i];
        fprintf(f, "%s{\"frame\":%u,\"color\":", i ? ",\n" : "\n", k->frame);
        cj_put_floats(f, k->color, 3);
        fputs(",\"direction\":", f);
        cj_put_floats(f, k->direction, 3);
        putc('}', f);
    }
    fputs("],\n\"shadows\":[", f);
    for (size_t i = 0; i < m->nshadows; i++) {
        const pk_shadow_key *k = &m->shadows[i];
        fprintf(f, "%s{\"frame\":%u,\"mode\":%u,\"distance\":", i ? ",\n" : "\n", k->frame,
                (unsigned)k->mode);
        cj_put_float(f, k->distance);
        putc('}', f);
    }
    fputs("],\n\"ik\":[", f);
    for (size_t i = 0; i < m->niks; i++) {
        const pk_ik_key *k = &m->iks[i];
        fprintf(f, "%s{\"frame\":%u,\"show\":%u,\"ik\":[", i ? ",\n" : "\n", k->frame,
                (unsigned)k->show);
        for (uint32_t j = 0; j < k->count; j++) {
            fputs(j ? ",{" : "{", f);
            put_key(f, "name");
            cj_put_string(f, pk_names_utf8(m->names, k->ik[j].name));
            fprintf(f, ",\"enabled\":%u}", (unsigned)k->ik[j].enabled);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

static void dump_pose(FILE *f, const pk_pose *p)
{
    fprintf(f, "{\"format\":\"vpd\",\"layout\":\"%s\",\"model\":",
            p->layout == PK_VPD_HYBRID ? "hybrid" : "text");
    cj_put_cp932(f, p->model, p->model_len);
    fputs(",\n\"bones\":[", f);
    for (size_t i = 0; i < p->nbones; i++) {
        const pk_pose_bone *b = &p->bones[i];
        fputs(i ? ",\n{" : "\n{", f);
        put_key(f, "name");
        cj_put_string(f, pk_names_utf8(p->names, b->name));
        fputs(",\"pos\":", f);
        cj_put_floats(f, b->pos, 3);
        fputs(",\"rot\":", f);
        cj_put_floats(f, b->rot, 4);
        putc('}', f);
    }
    fputs("],\n\"morphs\":[", f);
    for (size_t i = 0; i < p->nmorphs; i++) {
        const pk_pose_morph *mo = &p->morphs[i];
        fputs(i ? ",\n{" : "\n{", f);
        put_key(f, "name");
        cj_put_string(f, pk_names_utf8(p->names, mo->name));
        fputs(",\"weight\":", f);
        cj_put_float(f, mo->weight);
        putc('}', f);
    }
    fputs("]}\n", f);
}

/* Dumps the one file given. */
static int dump_file(const char *const *files, size_t n, bool strict)
{
    const char *path;
    if (cli_one_operand("dump", "file", files, n, &path) != EXIT_OK)
        return EXIT_ERROR;
    cli_source src;
    if (cli_source_open(&src, path) != EXIT_OK) {
        cli_source_close(&src);
        return EXIT_ERROR;
    }
    if (src.model) {
        int rc = cli_model_dump(&src, strict);
        cli_source_close(&src);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "posekit dump: cannot write standard output\n");
            return EXIT_ERROR;
        }
        return rc;
    }
    pk_doc doc;
    pk_log log;
    pk_log_init(&log);
    int rc = cli_source_doc(&src, &doc, &log);
    cli_source_close(&src);
    if (cli_flush_log(&log, strict) != EXIT_OK || rc != 0) {
        pk_doc_free(&doc);
        return EXIT_ERROR;
    }
    if (doc.motion)
        dump_motion(stdout, doc.motion);
    else
        dump_pose(stdout, doc.pose);
    pk_doc_free(&doc);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "posekit dump: cannot write standard output\n");
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

/* dump's options: switches and --bones. */
typedef struct dump_opts {
    bool strict, help, body;
    const char *bones;
    const char **files;
    size_t n;
} dump_opts;

static int dump_option(void *ctx, const char *name, const char *inline_value, const char *next,
                       bool long_form)
{
    dump_opts *o = ctx;
    const char *full = long_form ? name : strcmp(name, "h") == 0 ? "help" : NULL;
    if (!full)
        return 0;
    if (strcmp(full, "bones") == 0) {
        const char *v = inline_value ? inline_value : next;
        if (!v)
            return cli_usage("dump", "--bones needs a selection (names, globs, @groups)"), -1;
        if (!inline_value && strncmp(v, "--", 2) == 0) /* "--bones --strict": left out */
            return cli_usage("dump", "--bones needs a selection, not the option '%s'", v), -1;
        if (o->bones) /* a single-value option, as in every command */
            return cli_usage("dump", "--bones is given twice"), -1;
        o->bones = v;
        return inline_value ? 1 : 2;
    }
    bool *flag = strcmp(full, "strict") == 0 ? &o->strict
                 : strcmp(full, "help") == 0 ? &o->help
                 : strcmp(full, "body") == 0 ? &o->body
                                             : NULL;
    if (!flag)
        return 0;
    return cli_flag("dump", full, inline_value, flag) == EXIT_OK ? 1 : -1;
}

static int dump_operand(void *ctx, const char *arg)
{
    dump_opts *o = ctx;
    o->files[o->n++] = arg;
    return EXIT_OK;
}

/* The model as a body on standard output. */
static int dump_body(const dump_opts *o)
{
    const char *path;
    if (cli_one_operand("dump", "model", o->files, o->n, &path) != EXIT_OK)
        return EXIT_ERROR;
    pk_model *m = cli_load_model(path, o->strict);
    if (!m)
        return EXIT_ERROR;
    pk_log log;
    pk_log_init(&log);
    bool *keep = NULL;
    pk_selection *sel = NULL;
    int rc = EXIT_OK;
    if (o->bones) {
        sel = pk_selection_parse_model(NULL, m, o->bones, &log);
        keep = calloc(m->nbones ? m->nbones : 1, sizeof *keep);
        if (!sel || !keep)
            rc = EXIT_ERROR;
        size_t kept = 0;
        for (size_t i = 0; sel && keep && i < m->nbones; i++) {
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, m->bones[i].cp932, &len);
            keep[i] = raw && pk_selection_has(sel, raw, len);
            kept += keep[i];
        }
        if (rc == EXIT_OK && kept == 0) {
            pk_log_add(&log, PK_ERROR, PK_E_NOT_FOUND, -1, 0, 0,
                       "--bones '%s' matches no bone of %s", o->bones, path);
            rc = EXIT_ERROR;
        }
    }
    pk_buf out;
    pk_buf_init(&out);
    if (rc == EXIT_OK && pk_body_write(m, keep, NULL, &out, &log) != 0)
        rc = EXIT_ERROR;
    if (cli_flush_log(&log, o->strict) != EXIT_OK)
        rc = EXIT_ERROR;
    if (rc == EXIT_OK && (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0 ||
                          ferror(stdout))) {
        fprintf(stderr, "posekit dump: cannot write standard output\n");
        rc = EXIT_ERROR;
    }
    pk_buf_free(&out);
    pk_selection_free(sel);
    free(keep);
    pk_model_free(m);
    pk_log_free(&log);
    return rc;
}

int cmd_dump(int argc, char **argv)
{
    dump_opts o = {.files = calloc((size_t)argc + 1, sizeof *o.files)};
    if (!o.files) {
        fprintf(stderr, "posekit dump: out of memory\n");
        return EXIT_ERROR;
    }
    int status = cli_walk("dump", argc, argv, dump_option, dump_operand, &o);
    if (status == EXIT_OK && o.help)
        status = cli_help(help_dump);
    else if (status == EXIT_OK && o.bones && !o.body)
        status = cli_usage("dump", "--bones goes with --body");
    else if (status == EXIT_OK)
        status = o.body ? dump_body(&o) : dump_file(o.files, o.n, o.strict);
    free(o.files);
    return status;
}
