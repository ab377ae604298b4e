/* cmd_dump.c — `posekit dump FILE`: every record as JSON, in file order.
 *
 * The schema is doc/formats.md §12; other tools and our own tests read
 * it, so keys, their order and the one-record-per-line layout are fixed.
 * Output is streamed (a long dance holds a million numbers).
 */
#include "cli.h"
#include "json.h"

#include <stdlib.h>

const char help_dump[] =
    "usage: posekit dump FILE [--strict]\n"
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
    "  --strict    treat warnings as errors\n"
    "  -h, --help  this text\n";

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
    if (cli_is_model(path)) {
        int rc = cli_model_dump(path, strict);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "posekit dump: cannot write standard output\n");
            return EXIT_ERROR;
        }
        return rc;
    }
    pk_doc doc;
    if (cli_load(path, &doc, strict) != EXIT_OK)
        return EXIT_ERROR;
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

int cmd_dump(int argc, char **argv)
{
    bool strict = false, help = false;
    const cli_switch sw[] = {{"strict", &strict}, {"help", &help}, {NULL, NULL}};
    const char **files;
    size_t n;
    int status = cli_walk_switches("dump", argc, argv, sw, &files, &n);
    if (status == EXIT_OK)
        status = help ? cli_help(help_dump) : dump_file(files, n, strict);
    free(files);
    return status;
}
