/*
 * fuzz_vmd.c — the VMD reader on arbitrary bytes.
 *
 * Beyond "no crash, no leak": a failed read leaves an error in the log; a
 * successful read gives a motion whose counts are consistent with the
 * input (every record costs at least its fixed size, so no count can
 * exceed len / record size) and which writes without failing unless the
 * writer says why.  Its per-track views (pk_tracks_build: the counting
 * sort by name, the radix sort by frame) keep, for every named record,
 * exactly one key of its (name, frame): the last such record in the file,
 * each track in strictly increasing frame order.
 */
#include "fuzz_common.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records of one section as tracks.c reads them: `size` bytes each, the
 * name id and the frame at their offsets. */
typedef struct recs {
    const uint8_t *base;
    size_t n, size, name_off, frame_off;
} recs;

static uint32_t field(const recs *r, size_t i, size_t off)
{
    uint32_t v;
    memcpy(&v, r->base + i * r->size + off, sizeof v);
    return v;
}

static void check_section(const char *what, const recs *r, const pk_track *tr, size_t ntr,
                          const pk_tracks *all, bool bones)
{
    size_t kept = 0;
    for (size_t k = 0; k < ntr; k++) {
        const pk_track *t = &tr[k];
        kept += t->count;
        for (size_t i = 0; i < t->count; i++) {
            uint32_t at = t->keys[i];
            if (at >= r->n || field(r, at, r->name_off) != t->name)
                fz_fail("%s track %zu: key %zu is record %u of another name", what, k, i, at);
            if (i && field(r, t->keys[i - 1], r->frame_off) >= field(r, at, r->frame_off))
                fz_fail("%s track %zu: frames out of order at key %zu", what, k, i);
        }
    }
    /* every named record finds its (name, frame) kept, by a record at or
     * after it in the file */
    size_t named = 0;
    for (size_t j = 0; j < r->n; j++) {
        pk_name_id id = field(r, j, r->name_off);
        if (id == PK_NO_NAME)
            continue;
        named++;
        const pk_track *t = bones ? pk_tracks_bone(all, id) : pk_tracks_morph(all, id);
        if (!t)
            fz_fail("%s record %zu: no track for its name", what, j);
        uint32_t f = field(r, j, r->frame_off);
        size_t lo = 0, hi = t->count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (field(r, t->keys[mid], r->frame_off) < f)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == t->count || field(r, t->keys[lo], r->frame_off) != f || t->keys[lo] < j)
            fz_fail("%s record %zu (frame %u): not the kept record of its frame", what, j, f);
    }
    if (kept > named)
        fz_fail("%s: %zu keys kept of %zu named records", what, kept, named);
}

static void check_tracks(const pk_motion *m)
{
    pk_tracks *t = pk_tracks_build(m, NULL);
    if (!t)
        return; /* out of memory only (the fuzzer's malloc limit) */
    recs rb = {(const uint8_t *)m->bones, m->nbones, sizeof *m->bones,
               offsetof(pk_bone_key, name), offsetof(pk_bone_key, frame)};
    recs rm = {(const uint8_t *)m->morphs, m->nmorphs, sizeof *m->morphs,
               offsetof(pk_morph_key, name), offsetof(pk_morph_key, frame)};
    check_section("bone", &rb, t->bones, t->nbones, t, true);
    check_section("morph", &rm, t->morphs, t->nmorphs, t, false);
    size_t kept = t->ncameras + t->nlights + t->nshadows + t->niks;
    for (size_t k = 0; k < t->nbones; k++)
        kept += t->bones[k].count;
    for (size_t k = 0; k < t->nmorphs; k++)
        kept += t->morphs[k].count;
    size_t named = m->ncameras + m->nlights + m->nshadows + m->niks;
    for (size_t i = 0; i < m->nbones; i++)
        named += m->bones[i].name != PK_NO_NAME;
    for (size_t i = 0; i < m->nmorphs; i++)
        named += m->morphs[i].name != PK_NO_NAME;
    if (kept + t->duplicates != named)
        fz_fail("tracks: %zu kept + %zu duplicates != %zu records", kept, t->duplicates, named);
    pk_tracks_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pk_log log;
    pk_log_init(&log);
    pk_motion *m = pk_vmd_read(data, size, &log);
    pk_log_place(&log, 0, "fuzz.vmd");
    fz_check_log(&log, m == NULL, "pk_vmd_read");
    if (m) {
        /* Record sizes from doc/formats.md §3: bone 111, morph 23, camera 61,
         * light 28, shadow 9, IK key at least 9. */
        if (m->nbones > size / 111 || m->nmorphs > size / 23 || m->ncameras > size / 61 ||
            m->nlights > size / 28 || m->nshadows > size / 9 || m->niks > size / 9)
            fz_fail("more records than the %zu input bytes can hold", size);
        if (m->sections < 0 || m->sections > PK_SEC_COUNT)
            fz_fail("sections = %d", m->sections);
        pk_buf out;
        pk_buf_init(&out);
        pk_log_free(&log);
        pk_log_init(&log);
        int rc = pk_vmd_write(m, &out, &log);
        fz_check_log(&log, rc != 0, "pk_vmd_write");
        pk_buf_free(&out);
        uint32_t first, last;
        (void)pk_motion_frame_range(m, &first, &last);
        char *model = pk_motion_model_utf8(m);
        free(model);
        check_tracks(m);
    }
    pk_motion_free(m);
    pk_log_free(&log);
    return 0;
}
