/* fuzz_common.c — see fuzz_common.h. */
#include "fuzz_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

_Noreturn void fz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz check failed: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void fz_check_log(const pk_log *log, int failed, const char *what)
{
    if (failed && log->errors == 0)
        fz_fail("%s failed without an error in the log", what);
    size_t errors = 0;
    for (size_t i = 0; i < log->count; i++) {
        char buf[512];
        const pk_diag *d = &log->items[i];
        if (d->severity != PK_ERROR && d->severity != PK_WARNING)
            fz_fail("%s: diagnostic %zu has severity %d", what, i, (int)d->severity);
        if (d->severity == PK_ERROR)
            errors++;
        if (pk_diag_format(d, buf, sizeof buf) < 0)
            fz_fail("%s: diagnostic %zu does not format", what, i);
    }
    if (errors > log->errors)
        fz_fail("%s: %zu error items but the counter says %zu", what, errors, log->errors);
}

static void name_equal(const pk_names *ta, pk_name_id a, const pk_names *tb, pk_name_id b,
                       const char *what, size_t i)
{
    if ((a == PK_NO_NAME) != (b == PK_NO_NAME))
        fz_fail("%s %zu: name present on one side only", what, i);
    if (a == PK_NO_NAME)
        return;
    size_t la = 0, lb = 0;
    const uint8_t *ra = pk_names_raw(ta, a, &la);
    const uint8_t *rb = pk_names_raw(tb, b, &lb);
    if (la != lb || (la && memcmp(ra, rb, la) != 0))
        fz_fail("%s %zu: names differ (%zu vs %zu bytes)", what, i, la, lb);
}

/* pad 0 = zeros; otherwise pad-1 is an id in pads. */
static void pad_equal(const pk_motion *a, uint32_t pa, const pk_motion *b, uint32_t pb,
                      const char *what, size_t i)
{
    if ((pa == 0) != (pb == 0))
        fz_fail("%s %zu: padding zero on one side only", what, i);
    if (pa == 0)
        return;
    name_equal(a->pads, pa - 1, b->pads, pb - 1, "padding of", i);
}

#define SAME(x, y, what, i)                                                                        \
    do {                                                                                           \
        if (sizeof(x) != sizeof(y) || memcmp(&(x), &(y), sizeof(x)) != 0)                          \
            fz_fail("%s %zu: field %s differs", what, (size_t)(i), #x);                            \
    } while (0)

void fz_motion_equal(const pk_motion *a, const pk_motion *b)
{
    SAME(a->version, b->version, "motion", 0);
    SAME(a->header, b->header, "motion", 0);
    SAME(a->model, b->model, "motion", 0);
    SAME(a->sections, b->sections, "motion", 0);
    if (a->nbones != b->nbones || a->nmorphs != b->nmorphs || a->ncameras != b->ncameras ||
        a->nlights != b->nlights || a->nshadows != b->nshadows || a->niks != b->niks)
        fz_fail("motion: record counts differ (bones %zu/%zu morphs %zu/%zu cameras %zu/%zu "
                "lights %zu/%zu shadows %zu/%zu ik %zu/%zu)",
                a->nbones, b->nbones, a->nmorphs, b->nmorphs, a->ncameras, b->ncameras, a->nlights,
                b->nlights, a->nshadows, b->nshadows, a->niks, b->niks);
    for (size_t i = 0; i < a->nbones; i++) {
        const pk_bone_key *x = &a->bones[i], *y = &b->bones[i];
        name_equal(a->names, x->name, b->names, y->name, "bone", i);
        pad_equal(a, x->pad, b, y->pad, "bone", i);
        SAME(x->frame, y->frame, "bone", i);
        SAME(x->pos, y->pos, "bone", i);
        SAME(x->rot, y->rot, "bone", i);
        SAME(x->interp, y->interp, "bone", i);
    }
    for (size_t i = 0; i < a->nmorphs; i++) {
        const pk_morph_key *x = &a->morphs[i], *y = &b->morphs[i];
        name_equal(a->names, x->name, b->names, y->name, "morph", i);
        pad_equal(a, x->pad, b, y->pad, "morph", i);
        SAME(x->frame, y->frame, "morph", i);
        SAME(x->weight, y->weight, "morph", i);
    }
    for (size_t i = 0; i < a->ncameras; i++) {
        const pk_camera_key *x = &a->cameras[i], *y = &b->cameras[i];
        SAME(x->frame, y->frame, "camera", i);
        SAME(x->distance, y->distance, "camera", i);
        SAME(x->pos, y->pos, "camera", i);
        SAME(x->rot, y->rot, "camera", i);
        SAME(x->interp, y->interp, "camera", i);
        SAME(x->fov, y->fov, "camera", i);
        SAME(x->perspective, y->perspective, "camera", i);
    }
    for (size_t i = 0; i < a->nlights; i++) {
        SAME(a->lights[i].frame, b->lights[i].frame, "light", i);
        SAME(a->lights[i].color, b->lights[i].color, "light", i);
        SAME(a->lights[i].direction, b->lights[i].direction, "light", i);
    }
    for (size_t i = 0; i < a->nshadows; i++) {
        SAME(a->shadows[i].frame, b->shadows[i].frame, "shadow", i);
        SAME(a->shadows[i].mode, b->shadows[i].mode, "shadow", i);
        SAME(a->shadows[i].distance, b->shadows[i].distance, "shadow", i);
    }
    for (size_t i = 0; i < a->niks; i++) {
        const pk_ik_key *x = &a->iks[i], *y = &b->iks[i];
        SAME(x->frame, y->frame, "ik", i);
        SAME(x->show, y->show, "ik", i);
        SAME(x->count, y->count, "ik", i);
        for (uint32_t k = 0; k < x->count; k++) {
            name_equal(a->names, x->ik[k].name, b->names, y->ik[k].name, "ik state", i);
            pad_equal(a, x->ik[k].pad, b, y->ik[k].pad, "ik state", i);
            SAME(x->ik[k].enabled, y->ik[k].enabled, "ik state", i);
        }
    }
    if (a->ntrailing != b->ntrailing ||
        (a->ntrailing && memcmp(a->trailing, b->trailing, a->ntrailing) != 0))
        fz_fail("motion: trailing bytes differ (%zu vs %zu)", a->ntrailing, b->ntrailing);
}

static void num_equal(float x, float y, double tol, const char *what, size_t i)
{
    if (tol == 0) {
        if (memcmp(&x, &y, sizeof x) != 0)
            fz_fail("%s %zu: %.9g vs %.9g", what, i, (double)x, (double)y);
        return;
    }
    if (isnan(x) || isnan(y)) {
        if (!(isnan(x) && isnan(y)))
            fz_fail("%s %zu: NaN on one side only", what, i);
        return;
    }
    if (isinf(x) || isinf(y)) {
        if (x != y)
            fz_fail("%s %zu: %g vs %g", what, i, (double)x, (double)y);
        return;
    }
    double d = fabs((double)x - (double)y);
    if (d > tol + tol * fabs((double)x))
        fz_fail("%s %zu: %.9g vs %.9g", what, i, (double)x, (double)y);
}

void fz_pose_equal(const pk_pose *a, const pk_pose *b, double tol)
{
    if (a->model_len != b->model_len ||
        (a->model_len && memcmp(a->model, b->model, a->model_len) != 0))
        fz_fail("pose: model names differ (%zu vs %zu bytes)", a->model_len, b->model_len);
    if (a->nbones != b->nbones || a->nmorphs != b->nmorphs)
        fz_fail("pose: counts differ (bones %zu/%zu morphs %zu/%zu)", a->nbones, b->nbones,
                a->nmorphs, b->nmorphs);
    for (size_t i = 0; i < a->nbones; i++) {
        const pk_pose_bone *x = &a->bones[i], *y = &b->bones[i];
        name_equal(a->names, x->name, b->names, y->name, "pose bone", i);
        for (int k = 0; k < 3; k++)
            num_equal(x->pos[k], y->pos[k], tol, "pose bone position", i);
        for (int k = 0; k < 4; k++)
            num_equal(x->rot[k], y->rot[k], tol, "pose bone rotation", i);
    }
    for (size_t i = 0; i < a->nmorphs; i++) {
        name_equal(a->names, a->morphs[i].name, b->names, b->morphs[i].name, "pose morph", i);
        num_equal(a->morphs[i].weight, b->morphs[i].weight, tol, "pose morph weight", i);
    }
}

static char tmp_dir[64];

static void remove_tmp_dir(void)
{
    /* The loaders only read, so the folder holds just the files written by
     * fz_temp_file: unlink each, then the folder. */
    if (!tmp_dir[0])
        return;
    DIR *d = opendir(tmp_dir);
    if (d) {
        struct dirent *e;
        char path[320];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", tmp_dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(tmp_dir);
}

const char *fz_temp_file(const char *name, const uint8_t *data, size_t len)
{
    static char path[256];
    if (!tmp_dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmp_dir, sizeof tmp_dir, "%s/pkfuzz.XXXXXX",
                 base && *base && strlen(base) < 40 ? base : "/tmp");
        if (!mkdtemp(tmp_dir))
            fz_fail("cannot create a temporary folder");
        atexit(remove_tmp_dir);
    }
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        fz_fail("cannot create %s", path);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w <= 0)
            fz_fail("cannot write %s", path);
        off += (size_t)w;
    }
    close(fd);
    return path;
}

void fz_check_model(const pk_model *m, size_t size)
{
    /* A PMX bone takes at least 8 + 12 + 1 + 4 + 2 + 1 bytes, a PMD bone
     * 39; a morph at least 14 (PMX) or 25 (PMD); a rigid body at least
     * 8 + 1 + 61 bytes (PMX) or 83 (PMD). */
    fz_model_limits lim = {size / 28, size / 14, size / 9 + 2, size / 70};
    fz_check_model_within(m, &lim, size);
}

void fz_check_model_within(const pk_model *m, const fz_model_limits *lim, size_t size)
{
    if (m->nbones > lim->bones || m->nmorphs > lim->morphs || m->nframes > lim->frames)
        fz_fail("%zu bones, %zu morphs, %zu frames from %zu bytes", m->nbones, m->nmorphs,
                m->nframes, size);
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_model_bone *b = &m->bones[i];
        if (b->parent < -1 || b->parent >= (int32_t)m->nbones)
            fz_fail("bone %zu: parent %d", i, (int)b->parent);
        if ((b->flags & PK_BONE_IK) && (b->ik_target < 0 || b->ik_target >= (int32_t)m->nbones))
            fz_fail("bone %zu: IK target %d", i, (int)b->ik_target);
        for (size_t k = 0; k < b->nik_links; k++)
            if (b->ik_links[k].bone < 0 || b->ik_links[k].bone >= (int32_t)m->nbones)
                fz_fail("bone %zu: IK link %d", i, (int)b->ik_links[k].bone);
        if (!b->name || !b->name_en)
            fz_fail("bone %zu: no name", i);
        size_t steps = 0;
        for (int32_t j = b->parent; j != -1; j = m->bones[j].parent)
            if (++steps > m->nbones)
                fz_fail("bone %zu: parent cycle", i);
        if (b->cp932 != PK_NO_NAME) {
            size_t len;
            const uint8_t *raw = pk_names_raw(m->names, b->cp932, &len);
            long f = pk_model_find_bone(m, raw, len);
            if (f < 0 || m->bones[f].cp932 != b->cp932)
                fz_fail("bone %zu: not found by its own name", i);
        }
    }
    for (size_t i = 0; i < m->nmorphs; i++)
        if (!m->morphs[i].name || !m->morphs[i].name_en)
            fz_fail("morph %zu: no name", i);
    for (size_t f = 0; f < m->nframes; f++)
        for (size_t k = 0; k < m->frames[f].nitems; k++) {
            const pk_model_frame_item *it = &m->frames[f].items[k];
            size_t limit = it->kind == 0 ? m->nbones : m->nmorphs;
            if (it->kind > 1 || it->index < 0 || (size_t)it->index >= limit)
                fz_fail("frame %zu member %zu: kind %u index %d", f, k, it->kind, (int)it->index);
        }
    if (m->nrigids > lim->rigids || m->nrigids != m->counts[PK_MSEC_RIGIDS])
        fz_fail("%zu rigid bodies (count %zu) from %zu bytes", m->nrigids,
                m->counts[PK_MSEC_RIGIDS], size);
    for (size_t i = 0; i < m->nrigids; i++) {
        const pk_model_rigid *rb = &m->rigids[i];
        if (rb->bone < -1 || rb->bone >= (int32_t)m->nbones)
            fz_fail("rigid body %zu: bone %d", i, (int)rb->bone);
        if (!rb->name || !rb->name_en)
            fz_fail("rigid body %zu: no name", i);
    }
    if (!m->name || !m->name_en || !m->comment || !m->comment_en)
        fz_fail("model texts missing");
}
