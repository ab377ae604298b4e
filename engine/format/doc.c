/* doc.c — format detection and "load whatever this file is" (motions and
 * poses as pk_doc, models by their PMX or PMD signature). */
#include "posekit_tool.h"
#include "format/io.h"
#include "format/vmd.h"
#include "platform/platform.h"
#include "util/text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char VMD_SIG[] = "Vocaloid Motion Data";
static const char VPD_SIG[] = "Vocaloid Pose Data file";

pk_format pk_format_from_path(const char *path)
{
    static const char *const EXT[] = {NULL, ".vmd", ".vpd", ".pmx", ".pmd"};
    for (int f = PK_FMT_VMD; path && f <= PK_FMT_PMD; f++)
        if (pki_path_has_ext(pki_os_base_name(path), EXT[f]))
            return (pk_format)f;
    return PK_FMT_UNKNOWN;
}

/* What a motion or pose file holds by its name: .vmd, .vpd (a model's
 * name says nothing of a document). */
static pk_format doc_from_path(const char *path)
{
    pk_format f = pk_format_from_path(path);
    return f == PK_FMT_VMD || f == PK_FMT_VPD ? f : PK_FMT_UNKNOWN;
}

pk_format pk_output_format(const char *path, int *report)
{
    static const struct {
        const char *ext;
        pk_report_format f;
    } REPORTS[] = {{".txt", PK_REPORT_TEXT},   {".json", PK_REPORT_JSON}, {".csv", PK_REPORT_CSV},
                   {".yaml", PK_REPORT_RULES}, {".yml", PK_REPORT_RULES}, {".svg", PK_REPORT_SVG}};
    if (report) {
        *report = -1;
        for (size_t i = 0; i < sizeof REPORTS / sizeof REPORTS[0]; i++)
            if (pki_path_has_ext(path, REPORTS[i].ext))
                *report = (int)REPORTS[i].f;
    }
    return doc_from_path(path);
}

pk_format pk_file_format(const char *path)
{
    pk_path_kind kind = pki_os_kind(path, NULL);
    if (kind == PK_PATH_MISSING && path[0] == '@')
        return PK_FMT_BODY; /* a built-in body's name (pk_model_load) */
    if (kind == PK_PATH_MISSING)
        return pk_format_from_path(path);
    if (kind != PK_PATH_FILE) /* "-", a pipe or a device would be consumed */
        return PK_FMT_UNKNOWN;
    /* reading maps the file: only the first page is touched */
    pk_log quiet;
    pk_log_init(&quiet);
    pk_bytes b;
    pk_format f = PK_FMT_UNKNOWN;
    if (pk_file_read(path, &b, &quiet) == 0) {
        f = pk_format_detect(b.data, b.len, NULL);
        pk_bytes_free(&b);
    }
    pk_log_free(&quiet);
    return f != PK_FMT_UNKNOWN ? f : pk_format_from_path(path);
}

/* A body's first key: after comments and blank lines (and a "---" or a
 * JSON '{'), the key posekit_body, plain or quoted. */
static bool body_key_first(const uint8_t *p, size_t len)
{
    static const char KEY[] = "posekit_body";
    size_t i = 0;
    for (;;) {
        while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
            i++;
        if (i < len && p[i] == '#') {
            while (i < len && p[i] != '\n')
                i++;
            continue;
        }
        if (len - i >= 3 && memcmp(p + i, "---", 3) == 0) {
            i += 3;
            continue;
        }
        break;
    }
    if (i < len && p[i] == '{') {
        i++;
        while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
            i++;
    }
    if (i < len && (p[i] == '"' || p[i] == '\''))
        i++;
    return len - i >= sizeof KEY - 1 && memcmp(p + i, KEY, sizeof KEY - 1) == 0;
}

pk_format pk_format_detect(const void *data, size_t len, const char *path)
{
    const uint8_t *p = data;
    if (len >= sizeof VMD_SIG - 1 && memcmp(p, VMD_SIG, sizeof VMD_SIG - 1) == 0)
        return PK_FMT_VMD;
    if (len >= 4 && memcmp(p, "PMX", 3) == 0 && (p[3] == ' ' || p[3] == 0xA0))
        return PK_FMT_PMX;
    if (len >= 3 && memcmp(p, "Pmd", 3) == 0)
        return PK_FMT_PMD;
    if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        p += 3;
        len -= 3;
    }
    if (len >= sizeof VPD_SIG - 1 && memcmp(p, VPD_SIG, sizeof VPD_SIG - 1) == 0)
        return PK_FMT_VPD;
    if (body_key_first(p, len < 65536 ? len : 65536))
        return PK_FMT_BODY;
    return doc_from_path(path);
}

const char *pk_format_name(pk_format f)
{
    switch (f) {
    case PK_FMT_VMD:
        return "vmd";
    case PK_FMT_VPD:
        return "vpd";
    case PK_FMT_PMX:
        return "pmx";
    case PK_FMT_PMD:
        return "pmd";
    case PK_FMT_BODY:
        return "body";
    default:
        return "unknown";
    }
}

/* pk_doc_parse, its diagnostics not placed yet; a VMD reader reports its
 * progress to consumed (or not). */
static int parse_here(const void *data, size_t len, const char *path, pk_doc *doc, pk_log *log,
                      void (*consumed)(void *ctx, size_t upto), void *ctx)
{
    memset(doc, 0, sizeof *doc);
    pk_format f = pk_format_detect(data, len, path);
    if (f == PK_FMT_VMD) {
        doc->motion = pki_vmd_read_front(data, len, log, consumed, ctx);
        if (!doc->motion)
            return -1;
    } else if (f == PK_FMT_VPD) {
        doc->pose = pk_vpd_read(data, len, log);
        if (!doc->pose)
            return -1;
    } else if (f == PK_FMT_PMX || f == PK_FMT_PMD || f == PK_FMT_BODY) {
        pk_log_add(log, PK_ERROR, PK_E_USAGE, -1, 0, 0,
                   "a %s, not a motion or pose (models go with --model, and retarget's with "
                   "--from and --to)",
                   f == PK_FMT_PMX   ? "PMX model"
                   : f == PK_FMT_PMD ? "PMD model"
                                     : "body (a model described as text)");
        return -1;
    } else if (path && (pki_path_has_ext(pki_os_base_name(path), ".yaml") ||
                        pki_path_has_ext(pki_os_base_name(path), ".yml"))) {
        /* rules or a job given where a motion goes */
        pk_log_add(log, PK_ERROR, PK_E_USAGE, -1, 0, 0,
                   "a YAML file, not a motion or pose (rules go with --rules; a job file runs "
                   "with posekit run)");
        return -1;
    } else {
        pk_log_add(log, PK_ERROR, PK_E_DAMAGED, 0, 0, 0,
                   "not a VMD or VPD file (no signature and no .vmd/.vpd extension)");
        return -1;
    }
    doc->format = f;
    if (doc->motion) {
        /* Duplicate keys are told once, here, with the file's name; the
         * operations that build tracks later only count them. */
        pk_tracks *t = pk_tracks_build(doc->motion, log);
        if (!t) {
            pk_doc_free(doc);
            return -1;
        }
        pk_tracks_free(t);
        doc->motion->duplicates_told = true;
    }
    return 0;
}

/* parse_here, its diagnostics placed at path. */
static int parse(const void *data, size_t len, const char *path, pk_doc *doc, pk_log *log,
                 void (*consumed)(void *ctx, size_t upto), void *ctx)
{
    size_t from = log ? log->count : 0;
    int rc = parse_here(data, len, path, doc, log, consumed, ctx);
    pk_log_place(log, from, path);
    return rc;
}

int pk_doc_parse(const void *data, size_t len, const char *path, pk_doc *doc, pk_log *log)
{
    return parse(data, len, path, doc, log, NULL, NULL);
}

static void drop_input(void *ctx, size_t upto)
{
    pki_bytes_drop_prefix(ctx, upto);
}

int pk_doc_load(const char *path, pk_doc *doc, pk_log *log)
{
    pk_bytes bytes;
    memset(doc, 0, sizeof *doc);
    if (pk_file_read(path, &bytes, log) != 0)
        return -1;
    /* A VMD is read front to back: its pages go back to the kernel as the
     * records are decoded (io.h). */
    int rc = parse(bytes.data, bytes.len, path, doc, log, drop_input, &bytes);
    pk_bytes_free(&bytes);
    return rc;
}

/* A pose written as a whole into a buffer, then handed to the sink. */
static int encode_pose(const pk_pose *p, pk_format format, const pk_encode_options *opts,
                       pk_sink sink, void *ctx, pk_log *log)
{
    pk_buf buf;
    pk_buf_init(&buf);
    int rc = -1;
    if (format == PK_FMT_VMD) {
        pk_motion *m = pk_pose_to_motion(p, opts ? opts->frame : 0, log);
        rc = m ? pk_vmd_write(m, &buf, log) : -1;
        pk_motion_free(m);
    } else {
        rc = pk_vpd_write(p, opts ? &opts->vpd : NULL, &buf, log);
    }
    if (rc == 0 && buf.oom) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        rc = -1;
    }
    if (rc == 0 && sink(ctx, buf.data, buf.len) != 0) {
        pk_error(log, PK_E_IO, "write failed: %s", pki_os_error_text(errno));
        rc = -1;
    }
    pk_buf_free(&buf);
    return rc;
}

int pk_doc_encode(const pk_doc *doc, pk_format format, const pk_encode_options *opts, pk_sink sink,
                  void *ctx, pk_log *log)
{
    if (format != PK_FMT_VMD && format != PK_FMT_VPD) {
        pk_error(log, PK_E_USAGE, "cannot tell the output format: name the file .vmd or .vpd");
        return -1;
    }
    if (doc->motion && format == PK_FMT_VMD)
        return pk_vmd_write_sink(doc->motion, sink, ctx, log);
    if (doc->pose)
        return encode_pose(doc->pose, format, opts, sink, ctx, log);
    /* the steps take a pose out of a motion (convert's frame) */
    pk_error(log, PK_E_USAGE,
             doc->motion ? "a .vpd holds one pose, not a motion" : "nothing to write");
    return -1;
}

void pk_doc_free(pk_doc *doc)
{
    if (!doc)
        return;
    pk_motion_free(doc->motion);
    pk_pose_free(doc->pose);
    memset(doc, 0, sizeof *doc);
}

pk_model *pk_model_read(const void *data, size_t len, pk_log *log)
{
    const uint8_t *p = data;
    if (len >= 4 && memcmp(p, "PMX", 3) == 0)
        return pk_pmx_read(data, len, log);
    if (len >= 3 && memcmp(p, "Pmd", 3) == 0)
        return pk_pmd_read(data, len, log);
    pk_format f = pk_format_detect(data, len, NULL);
    if (f == PK_FMT_BODY)
        return pk_body_read(data, len, log);
    if (f == PK_FMT_VMD || f == PK_FMT_VPD) { /* where a model goes, what it is instead */
        pk_log_add(log, PK_ERROR, PK_E_USAGE, -1, 0, 0,
                   "a %s, not a model (a PMX, PMD or body file)",
                   f == PK_FMT_VMD ? "VMD motion" : "VPD pose");
        return NULL;
    }
    pk_log_add(log, PK_ERROR, PK_E_DAMAGED, 0, 0, 0,
               "not a PMX, PMD or body file (no \"PMX \" or \"Pmd\" signature, no "
               "posekit_body key)");
    return NULL;
}

/* A file with neither signature named .pmx or .pmd is read by that
 * reader, whose error says what is wrong with it as that format ("not a
 * PMX file", "the file ends inside its signature"); other names get
 * pk_model_read's "not a PMX, PMD or body file". */
static pk_model *read_named(const pk_bytes *b, const char *path, pk_log *log)
{
    pk_format f = pk_format_detect(b->data, b->len, NULL);
    pk_format named = pk_format_from_path(path);
    const char *base = pki_os_base_name(path);
    bool text = pki_path_has_ext(base, ".yaml") || pki_path_has_ext(base, ".yml") ||
                pki_path_has_ext(base, ".json");
    if (f == PK_FMT_BODY || (text && f != PK_FMT_PMX && f != PK_FMT_PMD))
        return pk_body_read(b->data, b->len, log);
    if (f != PK_FMT_PMX && f != PK_FMT_PMD && named == PK_FMT_PMX)
        return pk_pmx_read(b->data, b->len, log);
    if (f != PK_FMT_PMX && f != PK_FMT_PMD && named == PK_FMT_PMD)
        return pk_pmd_read(b->data, b->len, log);
    return pk_model_read(b->data, b->len, log);
}

pk_model *pk_model_load(const char *path, pk_log *log)
{
    pk_bytes b;
    if (path[0] == '@' && pki_os_kind(path, NULL) == PK_PATH_MISSING) {
        /* a built-in body: its messages name the file it is read from */
        char *file = pk_body_find(path, log);
        pk_model *m = file ? pk_model_load(file, log) : NULL;
        free(file);
        return m;
    }
    if (pk_file_read(path, &b, log) != 0)
        return NULL;
    size_t from = log ? log->count : 0;
    pk_model *m = read_named(&b, path, log);
    pk_log_place(log, from, path);
    pk_bytes_free(&b);
    return m;
}

/* Every built-in body, each read as "@NAME". */
pk_bodies *pk_bodies_load(pk_log *log)
{
    pk_bodies *b = calloc(1, sizeof *b);
    size_t n;
    const char *const *names = pk_body_builtin_names(&n);
    if (b)
        b->models = calloc(n, sizeof *b->models);
    if (!b || !b->models) {
        free(b);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    b->names = names;
    b->n = n;
    for (size_t i = 0; i < n; i++) {
        char at[64];
        snprintf(at, sizeof at, "@%s", names[i]);
        b->models[i] = pk_model_load(at, log);
        if (!b->models[i]) {
            pk_bodies_free(b);
            return NULL;
        }
    }
    return b;
}

void pk_bodies_free(pk_bodies *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        pk_model_free(b->models[i]);
    free(b->models);
    free(b);
}
