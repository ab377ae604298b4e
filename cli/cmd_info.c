/* cmd_info.c — `posekit info FILE... [--json]`: what a file holds. */
#include "cli.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

const char help_info[] =
    "usage: posekit info FILE... [--json] [--strict]\n"
    "\n"
    "Describes VMD motions and VPD poses: format and version (VMD) or layout\n"
    "(VPD), model name, record counts per section, frame range, where a VMD\n"
    "ended (files may stop after the light or self-shadow section), trailing\n"
    "bytes, every bone and morph with its number of keys, and warnings.\n"
    "Bones and morphs are listed in order of first appearance; a count is the\n"
    "number of records, duplicates included.\n"
    "\n"
    "PMX and PMD models, and bodies (a model described as text, .yaml):\n"
    "format and version, text encoding, index sizes, counts per section,\n"
    "model names, every bone (parent, flags in words, append parent), IK\n"
    "chains (* marks a link with angle limits), morphs per panel and display\n"
    "frames.\n"
    "\n"
    "  --json      one JSON object per file (an array when several files)\n"
    "  --strict    treat warnings as errors\n"
    "  -h, --help  this text\n"
    "\n"
    "Warnings also go to standard error.  A file that cannot be read is\n"
    "reported and the others are still described; the exit status is then 2.\n";

/* Records per name in order of first appearance (one section). */
typedef struct name_counts {
    pk_name_id *order; /* distinct ids, first appearance first */
    size_t *count;     /* indexed by name id */
    size_t n;
} name_counts;

static int counts_add(name_counts *c, pk_name_id id)
{
    if (c->count[id]++ == 0)
        c->order[c->n++] = id;
    return 0;
}

static int counts_init(name_counts *c, size_t nnames)
{
    c->n = 0;
    c->order = calloc(nnames ? nnames : 1, sizeof *c->order);
    c->count = calloc(nnames ? nnames : 1, sizeof *c->count);
    return c->order && c->count ? 0 : -1;
}

static void counts_free(name_counts *c)
{
    free(c->order);
    free(c->count);
}

static const char *const section_names[PK_SEC_COUNT] = {"bones",  "morphs",  "cameras",
                                                        "lights", "shadows", "ik"};

/* Everything info reports about one file. */
typedef struct info {
    const char *path;
    pk_doc doc;
    name_counts bones, morphs;
    size_t duplicates;
    pk_log warnings; /* copies of the warnings, for the report */
} info;

static int gather(info *in)
{
    const pk_names *names = in->doc.motion ? in->doc.motion->names : in->doc.pose->names;
    size_t nn = pk_names_count(names);
    if (counts_init(&in->bones, nn) != 0 || counts_init(&in->morphs, nn) != 0)
        return -1;
    if (in->doc.motion) {
        const pk_motion *m = in->doc.motion;
        for (size_t i = 0; i < m->nbones; i++)
            counts_add(&in->bones, m->bones[i].name);
        for (size_t i = 0; i < m->nmorphs; i++)
            counts_add(&in->morphs, m->morphs[i].name);
    } else {
        const pk_pose *p = in->doc.pose;
        for (size_t i = 0; i < p->nbones; i++)
            counts_add(&in->bones, p->bones[i].name);
        for (size_t i = 0; i < p->nmorphs; i++)
            counts_add(&in->morphs, p->morphs[i].name);
    }
    return 0;
}

static void copy_warnings(pk_log *dst, const pk_log *src)
{
    for (size_t i = 0; i < src->count; i++) {
        const pk_diag *d = &src->items[i];
        if (d->severity != PK_WARNING)
            continue;
        pk_log_add_at(dst, PK_WARNING, d->code, d->path, d->offset, d->line, d->col, "%s",
                      d->msg ? d->msg : "");
    }
}

/* Loads a motion or pose; returns EXIT_OK or EXIT_ERROR (diagnostics
 * printed). */
static int load(info *in, const cli_source *src, bool strict)
{
    pk_log log;
    pk_log_init(&log);
    pk_log_init(&in->warnings);
    int rc = cli_source_doc(src, &in->doc, &log);
    if (rc == 0 && in->doc.motion) {
        /* The sorted view finds duplicate (name, frame) keys and warns. */
        pk_tracks *t = pk_tracks_build(in->doc.motion, &log);
        if (t)
            in->duplicates = t->duplicates;
        else
            rc = -1;
        pk_tracks_free(t);
    }
    pk_log_place(&log, 0, in->path); /* what the sorted view says is about the file too */
    copy_warnings(&in->warnings, &log);
    int status = cli_flush_log(&log, strict);
    if (rc != 0 || status != EXIT_OK)
        return EXIT_ERROR;
    if (gather(in) != 0) {
        cli_printf_shown(stderr, "posekit: %s: out of memory\n", in->path);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

static void info_free(info *in)
{
    pk_doc_free(&in->doc);
    counts_free(&in->bones);
    counts_free(&in->morphs);
    pk_log_free(&in->warnings);
}

static const char *eol_name(pk_eol e)
{
    return e == PK_EOL_LF ? "LF" : e == PK_EOL_CR ? "CR" : "CRLF";
}

static const char *ended_text(int sections)
{
    static const char *const t[] = {
        "before the bone count", "after the bones",   "after the morphs", "after the cameras",
        "after the lights",      "after the shadows", "complete",
    };
    return sections >= 0 && sections <= PK_SEC_COUNT ? t[sections] : "?";
}

static char *model_utf8(const pk_doc *doc)
{
    if (doc->motion)
        return pk_motion_model_utf8(doc->motion);
    return pk_cp932_to_utf8(doc->pose->model ? (const void *)doc->pose->model : "",
                            doc->pose->model_len, NULL);
}

/* ------------------------------------------------------------------ text */

static void print_names(const char *title, const name_counts *c, const pk_names *names)
{
    printf("  %s:\n", title);
    for (size_t i = 0; i < c->n; i++)
        printf("    %6zu  %s\n", c->count[c->order[i]], pk_names_utf8(names, c->order[i]));
}

static void print_text(const info *in)
{
    char *model = model_utf8(&in->doc);
    cli_printf_shown(stdout, "%s\n", in->path);
    if (in->doc.motion) {
        const pk_motion *m = in->doc.motion;
        printf("  format: VMD version %d\n", m->version);
        printf("  model: %s\n", model ? model : "");
        printf("  ended: %s (%d of 6 sections)\n", ended_text(m->sections), m->sections);
        printf("  trailing bytes: %zu\n", m->ntrailing);
        uint32_t first, last;
        if (pk_motion_frame_range(m, &first, &last))
            printf("  frames: %u-%u\n", first, last);
        else
            printf("  frames: none\n");
        printf("  bone keys: %zu (%zu bones)\n", m->nbones, in->bones.n);
        printf("  morph keys: %zu (%zu morphs)\n", m->nmorphs, in->morphs.n);
        printf("  camera keys: %zu\n", m->ncameras);
        printf("  light keys: %zu\n", m->nlights);
        printf("  shadow keys: %zu\n", m->nshadows);
        printf("  ik keys: %zu\n", m->niks);
        printf("  duplicate keys: %zu\n", in->duplicates);
    } else {
        const pk_pose *p = in->doc.pose;
        printf("  format: VPD %s layout, %s line endings\n",
               p->layout == PK_VPD_HYBRID ? "hybrid" : "text", eol_name(p->eol));
        printf("  encoding: %s\n", p->encoding == PK_TEXT_UTF8
                                       ? "UTF-8 (names converted to CP932; written as CP932)"
                                       : "CP932");
        printf("  model: %s\n", model ? model : "");
        printf("  bones: %zu (%zu names)\n", p->nbones, in->bones.n);
        printf("  morphs: %zu (%zu names)\n", p->nmorphs, in->morphs.n);
    }
    printf("  warnings: %zu\n", in->warnings.count);
    const pk_names *names = in->doc.motion ? in->doc.motion->names : in->doc.pose->names;
    if (in->bones.n)
        print_names(in->doc.motion ? "bones (keys)" : "bones (entries)", &in->bones, names);
    if (in->morphs.n)
        print_names(in->doc.motion ? "morphs (keys)" : "morphs (entries)", &in->morphs, names);
    free(model);
}

/* ------------------------------------------------------------------ json */

static void names_json(pki_json *j, const char *key, const name_counts *c, const pk_names *names)
{
    pki_json_key(j, key);
    pki_json_open(j, '[');
    for (size_t i = 0; i < c->n; i++) {
        pki_json_item(j);
        pki_json_open(j, '{');
        pki_json_kstr(j, "name", pk_names_utf8(names, c->order[i]));
        pki_json_kint(j, "keys", (long long)c->count[c->order[i]]);
        pki_json_close(j, '}');
    }
    pki_json_close(j, ']');
}

static void motion_json(pki_json *j, const info *in, const char *model)
{
    const pk_motion *m = in->doc.motion;
    pki_json_kint(j, "version", m->version);
    pki_json_kstr(j, "model", model);
    pki_json_key(j, "sections");
    pki_json_open(j, '[');
    for (int s = 0; s < m->sections && s < PK_SEC_COUNT; s++) {
        pki_json_item(j);
        pki_json_str(j->b, section_names[s]);
    }
    pki_json_close(j, ']');
    pki_json_kbool(j, "complete", m->sections == PK_SEC_COUNT);
    pki_json_kint(j, "trailing_bytes", (long long)m->ntrailing);
    pki_json_key(j, "counts");
    pki_json_open(j, '{');
    pki_json_kint(j, "bones", (long long)m->nbones);
    pki_json_kint(j, "morphs", (long long)m->nmorphs);
    pki_json_kint(j, "cameras", (long long)m->ncameras);
    pki_json_kint(j, "lights", (long long)m->nlights);
    pki_json_kint(j, "shadows", (long long)m->nshadows);
    pki_json_kint(j, "ik", (long long)m->niks);
    pki_json_close(j, '}');
    uint32_t first, last;
    pki_json_key(j, "frames");
    if (pk_motion_frame_range(m, &first, &last)) {
        pki_json_open(j, '[');
        pki_json_item(j);
        pk_buf_printf(j->b, "%u", first);
        pki_json_item(j);
        pk_buf_printf(j->b, "%u", last);
        pki_json_close(j, ']');
    } else {
        pk_buf_puts(j->b, "null");
    }
    pki_json_kint(j, "duplicate_keys", (long long)in->duplicates);
}

static void pose_json(pki_json *j, const info *in, const char *model)
{
    const pk_pose *p = in->doc.pose;
    pki_json_kstr(j, "layout", p->layout == PK_VPD_HYBRID ? "hybrid" : "text");
    pki_json_kstr(j, "eol", eol_name(p->eol));
    pki_json_kstr(j, "encoding", p->encoding == PK_TEXT_UTF8 ? "utf-8" : "cp932");
    pki_json_kstr(j, "model", model);
    pki_json_key(j, "counts");
    pki_json_open(j, '{');
    pki_json_kint(j, "bones", (long long)p->nbones);
    pki_json_kint(j, "morphs", (long long)p->nmorphs);
    pki_json_close(j, '}');
}

static void info_json(pki_json *j, const info *in)
{
    char *model = model_utf8(&in->doc);
    pki_json_item(j);
    pki_json_open(j, '{');
    pki_json_kstr(j, "path", in->path);
    pki_json_kstr(j, "format", pk_format_name(in->doc.format));
    if (in->doc.motion)
        motion_json(j, in, model ? model : "");
    else
        pose_json(j, in, model ? model : "");
    const pk_names *names = in->doc.motion ? in->doc.motion->names : in->doc.pose->names;
    names_json(j, "bones", &in->bones, names);
    names_json(j, "morphs", &in->morphs, names);
    pki_json_key(j, "warnings");
    pki_json_open(j, '[');
    char buf[1024];
    for (size_t i = 0; i < in->warnings.count; i++) {
        pk_diag_format(&in->warnings.items[i], buf, sizeof buf);
        pki_json_item(j);
        pki_json_str(j->b, buf);
    }
    pki_json_close(j, ']');
    pki_json_close(j, '}');
    free(model);
}

/* Describes each file (cli_walk gave them). */
static int info_files(const char *const *files, size_t nfiles, bool as_json, bool strict)
{
    if (nfiles == 0)
        return cli_usage("info", "no file given");
    size_t stdin_files = 0;
    for (size_t i = 0; i < nfiles; i++)
        stdin_files += strcmp(files[i], "-") == 0;
    if (stdin_files > 1) /* as every command says it */
        return cli_usage("info", "standard input ('-') can be read once; %zu files name it",
                         stdin_files);
    int status = EXIT_OK;
    /* JSON: one object for one file, an array of them for several */
    pk_buf out;
    pk_buf_init(&out);
    pki_json json = pki_json_begin(&out, true);
    pki_json *j = as_json ? &json : NULL;
    if (j && nfiles > 1)
        pki_json_open(j, '[');
    bool first = true;
    for (size_t i = 0; i < nfiles; i++) {
        info in;
        memset(&in, 0, sizeof in);
        in.path = files[i];
        cli_source src;
        if (cli_source_open(&src, files[i]) != EXIT_OK) {
            status = EXIT_ERROR;
            cli_source_close(&src);
            continue;
        }
        if (src.model) {
            if (cli_model_info(&src, j, first, strict) != EXIT_OK)
                status = EXIT_ERROR;
            first = false;
            cli_source_close(&src);
            continue;
        }
        int loaded = load(&in, &src, strict);
        cli_source_close(&src);
        if (loaded != EXIT_OK) {
            status = EXIT_ERROR;
            info_free(&in);
            continue;
        }
        if (j) {
            info_json(j, &in);
        } else {
            if (!first)
                putchar('\n');
            print_text(&in);
            first = false;
        }
        info_free(&in);
    }
    if (j && nfiles > 1)
        pki_json_close(j, ']');
    if (j && out.len) {
        pk_buf_putc(&out, '\n');
        fwrite(out.data, 1, out.len, stdout);
    }
    pk_buf_free(&out);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "posekit info: cannot write standard output\n");
        return EXIT_ERROR;
    }
    return status;
}

int cmd_info(int argc, char **argv)
{
    bool json = false, strict = false, help = false;
    const cli_switch sw[] = {{"json", &json}, {"strict", &strict}, {"help", &help}, {NULL, NULL}};
    const char **files;
    size_t n;
    int status = cli_walk_switches("info", argc, argv, sw, &files, &n);
    if (status == EXIT_OK)
        status = help ? cli_help(help_info) : info_files(files, n, json, strict);
    free(files);
    return status;
}
