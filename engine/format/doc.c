/* doc.c — format detection and "load whatever this file is" (motions and
 * poses as pk_doc, models by their PMX or PMD signature). */
#include "posekit.h"
#include "format/read_internal.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

static const char VMD_SIG[] = "Vocaloid Motion Data";
static const char VPD_SIG[] = "Vocaloid Pose Data file";

/* ASCII-only case-insensitive equality (file extensions; no locale). */
static bool ascii_iequal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

pk_format pk_format_from_path(const char *path)
{
    if (!path)
        return PK_FMT_UNKNOWN;
    const char *dot = strrchr(pk_os_base_name(path), '.');
    if (!dot)
        return PK_FMT_UNKNOWN;
    if (ascii_iequal(dot, ".vmd"))
        return PK_FMT_VMD;
    if (ascii_iequal(dot, ".vpd"))
        return PK_FMT_VPD;
    return PK_FMT_UNKNOWN;
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
    return pk_format_from_path(path);
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
    default:
        return "unknown";
    }
}

/* pk_doc_parse; a VMD reader reports its progress to consumed (or not). */
static int parse(const void *data, size_t len, const char *path, pk_doc *doc, pk_log *log,
                 void (*consumed)(void *ctx, size_t upto), void *ctx)
{
    memset(doc, 0, sizeof *doc);
    pk_log_set_path(log, path);
    pk_format f = pk_format_detect(data, len, path);
    if (f == PK_FMT_VMD) {
        doc->motion = pk_vmd_read_front(data, len, log, consumed, ctx);
        if (!doc->motion)
            return -1;
    } else if (f == PK_FMT_VPD) {
        doc->pose = pk_vpd_read(data, len, log);
        if (!doc->pose)
            return -1;
    } else if (f == PK_FMT_PMX || f == PK_FMT_PMD) {
        pk_log_add(log, PK_ERROR, -1, 0, 0,
                   "a %s model, not a motion or pose (models go with --model)",
                   f == PK_FMT_PMX ? "PMX" : "PMD");
        return -1;
    } else {
        pk_log_add(log, PK_ERROR, 0, 0, 0,
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

int pk_doc_parse(const void *data, size_t len, const char *path, pk_doc *doc, pk_log *log)
{
    return parse(data, len, path, doc, log, NULL, NULL);
}

static void drop_input(void *ctx, size_t upto)
{
    pk_bytes_drop_prefix(ctx, upto);
}

int pk_doc_load(const char *path, pk_doc *doc, pk_log *log)
{
    pk_bytes bytes;
    memset(doc, 0, sizeof *doc);
    if (pk_file_read(path, &bytes, log) != 0)
        return -1;
    /* A VMD is read front to back: its pages go back to the kernel as the
     * records are decoded (read_internal.h). */
    int rc = parse(bytes.data, bytes.len, path, doc, log, drop_input, &bytes);
    pk_bytes_free(&bytes);
    return rc;
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
    pk_log_add(log, PK_ERROR, 0, 0, 0, "not a PMX or PMD model (no \"PMX \" or \"Pmd\" signature)");
    return NULL;
}

/* A file with neither signature named .pmx or .pmd is read by that
 * reader, whose error says what is wrong with it as that format ("not a
 * PMX file", "the file ends inside its signature"); other names get
 * pk_model_read's "not a PMX or PMD model". */
static pk_model *read_named(const pk_bytes *b, const char *path, pk_log *log)
{
    pk_format f = pk_format_detect(b->data, b->len, NULL);
    const char *dot = strrchr(pk_os_base_name(path), '.');
    if (f != PK_FMT_PMX && f != PK_FMT_PMD && dot && ascii_iequal(dot, ".pmx"))
        return pk_pmx_read(b->data, b->len, log);
    if (f != PK_FMT_PMX && f != PK_FMT_PMD && dot && ascii_iequal(dot, ".pmd"))
        return pk_pmd_read(b->data, b->len, log);
    return pk_model_read(b->data, b->len, log);
}

pk_model *pk_model_load(const char *path, pk_log *log)
{
    pk_bytes b;
    pk_log_set_path(log, path);
    if (pk_file_read(path, &b, log) != 0)
        return NULL;
    pk_log_set_path(log, path);
    pk_model *m = read_named(&b, path, log);
    pk_bytes_free(&b);
    return m;
}
