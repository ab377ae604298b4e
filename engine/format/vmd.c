/*
 * vmd.c — Vocaloid Motion Data (binary) reader and writer.
 *
 * Layout (doc/formats.md §3; little-endian, packed, no alignment):
 *
 *   off  size  field
 *   0    30    signature field: "Vocaloid Motion Data 0002" + NUL + 4 filler
 *              (v2), "Vocaloid Motion Data file" + NUL + 4 (v1), or
 *              "Vocaloid Motion Data" + 10 NULs (a non-MMD generator; read
 *              with the v2 layout and a warning).  Kept raw, filler included.
 *   30   20    model name, CP932 (v1: 10 bytes).  Kept raw.
 *   then six sections, each a uint32 count followed by its records:
 *
 *   section      record  layout of one record
 *   bone         111     name[15] frame:u32 pos:f32[3] rot:f32[4] interp[64]
 *   morph         23     name[15] frame:u32 weight:f32
 *   camera        61     frame:u32 distance:f32 pos:f32[3] rot:f32[3]
 *                        interp[24] fov:u32 perspective:u8
 *   light         28     frame:u32 color:f32[3] direction:f32[3]
 *   self-shadow    9     frame:u32 mode:u8 distance:f32
 *   show/IK    9+21k     frame:u32 show:u8 k:u32, k x { name[20] enabled:u8 }
 *
 * Where files end: a file may stop after any count field (old MMD stops
 * after the light or self-shadow count, §3.10); pk_motion.sections records
 * how many count fields were present so the writer stops at the same
 * place.  0 bytes left before a count is a normal end; 1-3 bytes left are
 * kept as trailing bytes with a warning; bytes after the sixth section are
 * kept the same way.
 *
 * Name fields (§4): the name is the bytes before the first NUL, or the whole
 * field when there is none.  What follows the NUL (zeros, 0xFD debug fill,
 * leftover text) is interned in motion->pads so that an unedited motion
 * writes back the same bytes; a record whose name changed length gets zero
 * padding.
 *
 * v1: no v1 file was ever found (doc/formats.md §3.2).  We follow Nuthouse01:
 * only the model name shrinks to 10 bytes, every record keeps the v2
 * layout.  Keystone documents a different v1 camera record (4 interpolation
 * bytes, no fov/perspective); that is unverified and not implemented.
 *
 * Bytes are never cast to structs: a bounds-checked pki_rd reads each
 * field, floats are copied bit-exactly (NaN payloads survive), and every
 * count is checked against the bytes left before anything is allocated.
 */
#include "posekit.h"
#include "common/bytes.h"
#include "common/diag.h"
#include "format/vmd.h"
#include "platform/platform.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    HEADER_BYTES = 30,
    BONE_BYTES = 111,
    MORPH_BYTES = 23,
    CAMERA_BYTES = 61,
    LIGHT_BYTES = 28,
    SHADOW_BYTES = 9,
    IK_HEAD_BYTES = 9, /* frame, show, count */
    IK_STATE_BYTES = 21,
    V1_MODEL_BYTES = 10,
};

static const char SIG_V2[] = "Vocaloid Motion Data 0002";
static const char SIG_V1[] = "Vocaloid Motion Data file";
static const char SIG_BARE[] = "Vocaloid Motion Data";

static const char *const SECTION_NAME[PK_SEC_COUNT] = {
    "bone", "morph", "camera", "light", "self-shadow", "show/IK",
};

/* Fixed record size per section; show/IK is variable (its minimum here). */
static const size_t RECORD_BYTES[PK_SEC_COUNT] = {
    BONE_BYTES, MORPH_BYTES, CAMERA_BYTES, LIGHT_BYTES, SHADOW_BYTES, IK_HEAD_BYTES,
};

/* Little-endian access (pki_get_u32, pki_put_f32s ...) and the bounds-checked
 * cursor (pki_rd) are common/bytes.h's.  The reader checks whole records
 * against the bytes left once, then decodes fields without further checks. */

/* ---------------------------------------------------------------------
 * Reader
 * --------------------------------------------------------------------- */

/* Name fields repeat: a motion has ~10^5 keys but ~10^2 distinct fields.
 * A small direct-mapped cache keyed by the raw field bytes (name and
 * padding together) answers most keys with two 8-byte compares and skips
 * both the NUL search and the intern table's hash. */
enum { FIELD_CACHE_SLOTS = 256 };

typedef struct field_slot {
    uint8_t field[PK_VMD_IK_BYTES];
    uint8_t width; /* 0 = empty */
    pk_name_id name;
    uint32_t pad;
} field_slot;

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v); /* only compared and hashed: byte order irrelevant */
    return v;
}

/* Equality of two name fields of width w (8 < w <= 24). */
static inline bool field_eq(const uint8_t *x, const uint8_t *y, size_t w)
{
    bool eq = load64(x) == load64(y) && load64(x + w - 8) == load64(y + w - 8);
    if (w > 16)
        eq = eq && load64(x + 8) == load64(y + 8);
    return eq;
}

static inline size_t field_hash(const uint8_t *f, size_t w)
{
    uint64_t h = load64(f) * 0x9E3779B97F4A7C15u ^ load64(f + w - 8) * 0xC2B2AE3D27D4EB4Fu ^ w;
    return (size_t)(h >> 56) & (FIELD_CACHE_SLOTS - 1);
}

typedef struct reader {
    pki_rd c;
    pk_motion *m;
    pk_log *log;
    size_t sec_at[PK_SEC_COUNT];              /* offset of each section's first record */
    size_t count_at[PK_SEC_COUNT];            /* offset of each section's count field */
    uint32_t count[PK_SEC_COUNT];             /* each section's count as read */
    void (*consumed)(void *ctx, size_t upto); /* pki_vmd_read_front */
    void *consumed_ctx;
    size_t reported; /* the last offset given to consumed */
    field_slot cache[FIELD_CACHE_SLOTS];
} reader;

enum { PROGRESS_BYTES = 1 << 20, PROGRESS_RECORDS = 4096 };

/* Everything before upto has been decoded into the model: told to the
 * log's progress callback ("reading", the share of the file) and to
 * consumed. */
static void progress(reader *r, size_t upto)
{
    pk_progress(r->log, (double)upto / (double)(r->c.len ? r->c.len : 1), "reading");
    if (r->consumed && upto >= r->reported + PROGRESS_BYTES) {
        r->consumed(r->consumed_ctx, upto);
        r->reported = upto;
    }
}

/* Splits a name field into name and padding and interns both (slow path
 * of read_name).  Returns false on OOM (after logging). */
static bool intern_field(reader *r, const uint8_t *field, size_t width, size_t offset,
                         const char *what, pk_name_id *name, uint32_t *pad)
{
    const uint8_t *nul = memchr(field, 0, width);
    size_t len = nul ? (size_t)(nul - field) : width;
    size_t before = pk_names_count(r->m->names);
    pk_name_id id = pk_names_intern(r->m->names, field, len);
    if (id == PK_NO_NAME) {
        pk_log_add(r->log, PK_ERROR, PK_E_NO_MEMORY, (int64_t)offset, 0, 0, "out of memory");
        return false;
    }
    /* Warn once per distinct name: only when this intern added it. */
    if (pk_names_count(r->m->names) > before && !pk_names_clean(r->m->names, id))
        pk_log_add(r->log, PK_WARNING, PK_E_DAMAGED, (int64_t)offset, 0, 0,
                   "%s name \"%s\" does not decode as CP932 (probably cut mid-character); "
                   "kept byte-exact",
                   what, pk_names_utf8(r->m->names, id));
    uint32_t p = 0;
    if (nul) {
        const uint8_t *rest = nul + 1;
        size_t nrest = width - len - 1;
        size_t i = 0;
        while (i < nrest && rest[i] == 0)
            i++;
        if (i < nrest) {
            pk_name_id pid = pk_names_intern(r->m->pads, rest, nrest);
            if (pid == PK_NO_NAME) {
                pk_log_add(r->log, PK_ERROR, PK_E_NO_MEMORY, (int64_t)offset, 0, 0,
                           "out of memory");
                return false;
            }
            p = pid + 1;
        }
    }
    *name = id;
    *pad = p;
    return true;
}

static inline bool read_name(reader *r, const uint8_t *field, size_t width, size_t offset,
                             const char *what, pk_name_id *name, uint32_t *pad)
{
    field_slot *slot = &r->cache[field_hash(field, width)];
    if (slot->width == width && field_eq(slot->field, field, width)) {
        *name = slot->name;
        *pad = slot->pad;
        return true;
    }
    if (!intern_field(r, field, width, offset, what, name, pad))
        return false;
    memcpy(slot->field, field, width);
    slot->width = (uint8_t)width;
    slot->name = *name;
    slot->pad = *pad;
    return true;
}

/* Allocates exactly n records for a section.  The model's arrays are plain
 * malloc/realloc memory (motion.c grows and frees them that way), so
 * reserving here and pushing later stays compatible. */
static bool reserve(void **arr, size_t *cap, size_t n, size_t size, pk_log *log, size_t offset)
{
    if (n == 0)
        return true;
    void *p = malloc(n * size);
    if (!p) {
        pk_log_add(log, PK_ERROR, PK_E_NO_MEMORY, (int64_t)offset, 0, 0,
                   "out of memory (%zu records)", n);
        return false;
    }
    pki_os_advise_huge(p, n * size); /* few page faults while the records are filled */
    *arr = p;
    *cap = n;
    return true;
}

static bool read_bones(reader *r, const uint8_t *base, uint32_t n, size_t at)
{
    pk_motion *m = r->m;
    if (!reserve((void **)&m->bones, &m->cap_bones, n, sizeof *m->bones, r->log, at))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = base + (size_t)i * BONE_BYTES;
        size_t off = at + (size_t)i * BONE_BYTES;
        pk_bone_key *k = &m->bones[m->nbones];
        if (!read_name(r, p, PK_VMD_NAME_BYTES, off, "bone", &k->name, &k->pad))
            return false;
        k->frame = pki_get_u32(p + 15);
        pki_get_f32s(p + 19, k->pos, 3);
        pki_get_f32s(p + 31, k->rot, 4);
        memcpy(k->interp, p + 47, 64);
        m->nbones++;
        if ((i + 1) % PROGRESS_RECORDS == 0)
            progress(r, off + BONE_BYTES);
    }
    return true;
}

static bool read_morphs(reader *r, const uint8_t *base, uint32_t n, size_t at)
{
    pk_motion *m = r->m;
    if (!reserve((void **)&m->morphs, &m->cap_morphs, n, sizeof *m->morphs, r->log, at))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = base + (size_t)i * MORPH_BYTES;
        size_t off = at + (size_t)i * MORPH_BYTES;
        pk_morph_key *k = &m->morphs[m->nmorphs];
        if (!read_name(r, p, PK_VMD_NAME_BYTES, off, "morph", &k->name, &k->pad))
            return false;
        k->frame = pki_get_u32(p + 15);
        k->weight = pki_get_f32(p + 19);
        m->nmorphs++;
    }
    return true;
}

static bool read_cameras(reader *r, const uint8_t *base, uint32_t n, size_t at)
{
    pk_motion *m = r->m;
    if (!reserve((void **)&m->cameras, &m->cap_cameras, n, sizeof *m->cameras, r->log, at))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = base + (size_t)i * CAMERA_BYTES;
        pk_camera_key *k = &m->cameras[m->ncameras++];
        memset(k, 0, sizeof *k); /* struct padding: keep copies deterministic */
        k->frame = pki_get_u32(p);
        k->distance = pki_get_f32(p + 4);
        pki_get_f32s(p + 8, k->pos, 3);
        pki_get_f32s(p + 20, k->rot, 3);
        memcpy(k->interp, p + 32, 24);
        k->fov = pki_get_u32(p + 56);
        k->perspective = p[60];
    }
    return true;
}

static bool read_lights(reader *r, const uint8_t *base, uint32_t n, size_t at)
{
    pk_motion *m = r->m;
    if (!reserve((void **)&m->lights, &m->cap_lights, n, sizeof *m->lights, r->log, at))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = base + (size_t)i * LIGHT_BYTES;
        pk_light_key *k = &m->lights[m->nlights++];
        k->frame = pki_get_u32(p);
        pki_get_f32s(p + 4, k->color, 3);
        pki_get_f32s(p + 16, k->direction, 3);
    }
    return true;
}

static bool read_shadows(reader *r, const uint8_t *base, uint32_t n, size_t at)
{
    pk_motion *m = r->m;
    if (!reserve((void **)&m->shadows, &m->cap_shadows, n, sizeof *m->shadows, r->log, at))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = base + (size_t)i * SHADOW_BYTES;
        pk_shadow_key *k = &m->shadows[m->nshadows++];
        memset(k, 0, sizeof *k);
        k->frame = pki_get_u32(p);
        k->mode = p[4];
        k->distance = pki_get_f32(p + 5);
    }
    return true;
}

/* ---------------------------------------------------------------------
 * Damage: where it most likely is
 *
 * A count that does not fit the bytes left is an error.  Most often the
 * file was cut short, or that count was damaged; but a count one too low
 * in an earlier section makes the reader take that section's last record
 * for the next count, and the error then names the wrong section.  So
 * the error tries the counts read so far (the failing one included), each
 * changed by 1 to MAX_COUNT_SLIP: a change with which every section reads
 * to the exact end of the file, past the failing count and through at
 * least the light section (where the oldest MMD files end), is where the
 * damage most likely is.  Only one such change at the smallest distance
 * is named; two equally good ones name none.
 * --------------------------------------------------------------------- */

enum { MAX_COUNT_SLIP = 4, MIN_COUNTS_AT_END = 4 };

/* Walks the section structure from the first count (offset `from`), with
 * section `fix`'s count taken as `fixed`: true when the counts and records
 * end exactly at the end of the data after at least `min_counts` counts. */
static bool walk_fits(const uint8_t *d, size_t len, size_t from, int fix, uint32_t fixed,
                      int min_counts)
{
    pki_rd c = pki_rd_init(d, len);
    if (!pki_rd_skip(&c, from))
        return false;
    int s = 0;
    for (; s < PK_SEC_COUNT && pki_rd_left(&c) > 0; s++) {
        uint32_t n;
        if (!pki_rd_u32(&c, &n))
            return false;
        if (s == fix)
            n = fixed;
        if (s < PK_SEC_IK) {
            if (!pki_rd_fits(&c, n, RECORD_BYTES[s]) ||
                !pki_rd_skip(&c, (size_t)n * RECORD_BYTES[s]))
                return false;
            continue;
        }
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *p = pki_rd_take(&c, IK_HEAD_BYTES);
            if (!p)
                return false;
            uint32_t k = pki_get_u32(p + 5);
            if (!pki_rd_fits(&c, k, IK_STATE_BYTES) || !pki_rd_skip(&c, (size_t)k * IK_STATE_BYTES))
                return false;
        }
    }
    return pki_rd_left(&c) == 0 && s >= min_counts;
}

/* The one count change (section *sec, count *fixed) within MAX_COUNT_SLIP
 * that makes the file read to its end, when the read failed in section
 * `failed`; false when none or several equally near. */
static bool likely_count(const reader *r, int failed, int *sec, uint32_t *fixed)
{
    int need = failed + 2 > MIN_COUNTS_AT_END ? failed + 2 : MIN_COUNTS_AT_END;
    if (need > PK_SEC_COUNT)
        need = PK_SEC_COUNT;
    for (uint32_t slip = 1; slip <= MAX_COUNT_SLIP; slip++) {
        int found = 0;
        for (int s = failed; s >= 0; s--) {
            uint32_t n = r->count[s];
            uint32_t tries[2] = {n + slip, n - slip};
            bool ok[2] = {n <= UINT32_MAX - slip, n >= slip};
            for (int t = 0; t < 2; t++) {
                if (ok[t] && walk_fits(r->c.data, r->c.len, r->count_at[0], s, tries[t], need)) {
                    if (found++ == 0) {
                        *sec = s;
                        *fixed = tries[t];
                    }
                }
            }
        }
        if (found)
            return found == 1;
    }
    return false;
}

/* The error for damage met in section `failed` at `offset`; `what` gives
 * the exact figures (the count, the bytes it needs, the bytes left). */
static void report_damage(const reader *r, int failed, size_t offset, const char *what)
{
    int s = 0;
    uint32_t fixed = 0;
    if (!likely_count(r, failed, &s, &fixed)) {
        pk_log_add(r->log, PK_ERROR, PK_E_DAMAGED, (int64_t)offset, 0, 0,
                   "the file is damaged or cut short in its %s section (%s)", SECTION_NAME[failed],
                   what);
        return;
    }
    uint32_t n = r->count[s];
    uint32_t slip = fixed > n ? fixed - n : n - fixed;
    pk_log_add(r->log, PK_ERROR, PK_E_DAMAGED, (int64_t)r->count_at[s], 0, 0,
               "the file is damaged in its %s section: its count, %" PRIu32
               ", is most likely %" PRIu32 " too %s: with %" PRIu32
               " the rest of the file reads to its end (as it is, at offset %zu: %s)",
               SECTION_NAME[s], n, slip, fixed > n ? "low" : "high", fixed, offset, what);
}

/* Show/IK records vary in size: the count was checked against the minimum
 * record size; each record's IK count is checked again before its states
 * are allocated. */
static bool read_iks(reader *r, uint32_t n, size_t at)
{
    pk_motion *m = r->m;
    if (!reserve((void **)&m->iks, &m->cap_iks, n, sizeof *m->iks, r->log, at))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        size_t off = r->c.pos;
        const uint8_t *p = pki_rd_take(&r->c, IK_HEAD_BYTES);
        if (!p) {
            char what[128];
            snprintf(what, sizeof what,
                     "show/IK key %" PRIu32 " of %" PRIu32 " needs %d bytes, %zu left", i + 1, n,
                     IK_HEAD_BYTES, pki_rd_left(&r->c));
            report_damage(r, PK_SEC_IK, off, what);
            return false;
        }
        uint32_t k = pki_get_u32(p + 5);
        uint64_t need = (uint64_t)k * IK_STATE_BYTES;
        if (need > pki_rd_left(&r->c)) {
            char what[160];
            snprintf(what, sizeof what,
                     "show/IK key %" PRIu32 ": IK count %" PRIu32 " needs %" PRIu64
                     " bytes, %zu left",
                     i + 1, k, need, pki_rd_left(&r->c));
            report_damage(r, PK_SEC_IK, off + 5, what);
            return false;
        }
        pk_ik_key *key = pk_motion_push_ik(m, k);
        if (!key) {
            pk_log_add(r->log, PK_ERROR, PK_E_NO_MEMORY, (int64_t)off, 0, 0, "out of memory");
            return false;
        }
        key->frame = pki_get_u32(p);
        key->show = p[4];
        for (uint32_t j = 0; j < k; j++) {
            size_t soff = r->c.pos;
            const uint8_t *s = pki_rd_take(&r->c, IK_STATE_BYTES); /* fits: checked above */
            if (!s)
                return false;
            pk_ik_state *st = &key->ik[j];
            if (!read_name(r, s, PK_VMD_IK_BYTES, soff, "IK", &st->name, &st->pad))
                return false;
            st->enabled = s[20];
        }
    }
    return true;
}

/* Readers of the fixed-size sections: n records starting at base, which
 * lies at file offset `at` and was checked to hold them all. */
typedef bool (*section_reader)(reader *r, const uint8_t *base, uint32_t n, size_t at);

static const section_reader SECTION_READER[PK_SEC_IK] = {
    read_bones, read_morphs, read_cameras, read_lights, read_shadows,
};

/* Recognises the signature; returns the version or 0 (unknown). */
static int read_signature(const uint8_t *h, bool *bare)
{
    *bare = false;
    if (memcmp(h, SIG_V2, sizeof SIG_V2 - 1) == 0)
        return 2;
    if (memcmp(h, SIG_V1, sizeof SIG_V1 - 1) == 0)
        return 1;
    if (memcmp(h, SIG_BARE, sizeof SIG_BARE - 1) == 0) {
        for (size_t i = sizeof SIG_BARE - 1; i < HEADER_BYTES; i++)
            if (h[i] != 0)
                return 0;
        *bare = true;
        return 2;
    }
    return 0;
}

static bool read_header(reader *r)
{
    pk_motion *m = r->m;
    const uint8_t *h = pki_rd_take(&r->c, HEADER_BYTES);
    if (!h) {
        pk_log_add(r->log, PK_ERROR, PK_E_DAMAGED, 0, 0, 0,
                   "not a VMD file: %zu byte%s, shorter than the %d-byte signature", r->c.len,
                   r->c.len == 1 ? "" : "s", HEADER_BYTES);
        return false;
    }
    bool bare;
    int version = read_signature(h, &bare);
    if (!version) {
        pk_log_add(r->log, PK_ERROR, PK_E_DAMAGED, 0, 0, 0,
                   "not a VMD file: signature is not \"%s\" or \"%s\"", SIG_V2, SIG_V1);
        return false;
    }
    if (bare)
        pk_log_add(r->log, PK_WARNING, PK_E_DAMAGED, 0, 0, 0,
                   "signature \"%s\" without a version (not written by MMD); read as \"%s\"",
                   SIG_BARE, SIG_V2);
    m->version = version;
    memcpy(m->header, h, HEADER_BYTES);
    size_t mw = version == 1 ? V1_MODEL_BYTES : PK_VMD_MODEL_BYTES;
    const uint8_t *model = pki_rd_take(&r->c, mw);
    if (!model) {
        pk_log_add(r->log, PK_ERROR, PK_E_DAMAGED, HEADER_BYTES, 0, 0,
                   "the file is cut short in its header: it ends inside the %zu-byte model "
                   "name (%zu byte%s left)",
                   mw, pki_rd_left(&r->c), pki_rd_left(&r->c) == 1 ? "" : "s");
        return false;
    }
    memset(m->model, 0, sizeof m->model);
    memcpy(m->model, model, mw);
    return true;
}

static bool keep_trailing(reader *r, const char *where)
{
    size_t n = pki_rd_left(&r->c);
    size_t off = r->c.pos;
    r->m->trailing = malloc(n);
    if (!r->m->trailing) {
        pk_log_add(r->log, PK_ERROR, PK_E_NO_MEMORY, (int64_t)off, 0, 0, "out of memory");
        return false;
    }
    memcpy(r->m->trailing, r->c.data + off, n);
    r->m->ntrailing = n;
    r->c.pos = r->c.len;
    pk_log_add(r->log, PK_WARNING, PK_E_DAMAGED, (int64_t)off, 0, 0,
               "%zu trailing byte%s %s (kept)", n, n == 1 ? "" : "s", where);
    return true;
}

/* NaN and infinity are valid bytes but no valid pose: the model keeps them
 * (the round trip stays exact) and the reader warns once per section,
 * pointing at the first such record, so --strict can refuse the file. */
static bool any_nonfinite(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return true;
    return false;
}

static void report_nonfinite(reader *r, int s, size_t first, size_t count, size_t record)
{
    pk_log_add(r->log, PK_WARNING, PK_E_DAMAGED, (int64_t)(r->sec_at[s] + first * record), 0, 0,
               "%zu %s key%s with NaN or infinite values (first: key %zu)", count, SECTION_NAME[s],
               count == 1 ? "" : "s", first);
}

static bool bone_bad(const void *p)
{
    const pk_bone_key *k = p;
    return any_nonfinite(k->pos, 3) || any_nonfinite(k->rot, 4);
}
static bool morph_bad(const void *p)
{
    return !isfinite(((const pk_morph_key *)p)->weight);
}
static bool camera_bad(const void *p)
{
    const pk_camera_key *k = p;
    return !isfinite(k->distance) || any_nonfinite(k->pos, 3) || any_nonfinite(k->rot, 3);
}
static bool light_bad(const void *p)
{
    const pk_light_key *k = p;
    return any_nonfinite(k->color, 3) || any_nonfinite(k->direction, 3);
}
static bool shadow_bad(const void *p)
{
    return !isfinite(((const pk_shadow_key *)p)->distance);
}

static void scan_nonfinite(reader *r, int s, const void *arr, size_t n, size_t stride,
                           size_t record, bool (*bad)(const void *))
{
    size_t count = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (bad((const uint8_t *)arr + i * stride) && !count++)
            first = i;
    }
    if (count)
        report_nonfinite(r, s, first, count, record);
}

/* An all-zero rotation is finite but no rotation at all: every operation
 * reads it (and a NaN one) as no rotation, the identity (pk_quat_normalize,
 * doc/formats.md §3.3); the reader says so once per file. */
static void warn_zero_rotations(reader *r)
{
    const pk_motion *m = r->m;
    size_t count = 0, first = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        const float *q = m->bones[i].rot;
        if (q[0] == 0.0f && q[1] == 0.0f && q[2] == 0.0f && q[3] == 0.0f && !count++)
            first = i;
    }
    if (count)
        pk_log_add(r->log, PK_WARNING, PK_E_DAMAGED,
                   (int64_t)(r->sec_at[PK_SEC_BONE] + first * BONE_BYTES), 0, 0,
                   "%zu bone key%s with an all-zero rotation, read as no rotation (first: key %zu)",
                   count, count == 1 ? "" : "s", first);
}

static void warn_nonfinite(reader *r)
{
    const pk_motion *m = r->m;
    warn_zero_rotations(r);
    scan_nonfinite(r, PK_SEC_BONE, m->bones, m->nbones, sizeof *m->bones, BONE_BYTES, bone_bad);
    scan_nonfinite(r, PK_SEC_MORPH, m->morphs, m->nmorphs, sizeof *m->morphs, MORPH_BYTES,
                   morph_bad);
    scan_nonfinite(r, PK_SEC_CAMERA, m->cameras, m->ncameras, sizeof *m->cameras, CAMERA_BYTES,
                   camera_bad);
    scan_nonfinite(r, PK_SEC_LIGHT, m->lights, m->nlights, sizeof *m->lights, LIGHT_BYTES,
                   light_bad);
    scan_nonfinite(r, PK_SEC_SHADOW, m->shadows, m->nshadows, sizeof *m->shadows, SHADOW_BYTES,
                   shadow_bad);
}

/* ---------------------------------------------------------------------
 * Frames far beyond the rest
 *
 * A frame is a uint32 and any value reads, but a key more than FAR_GAP
 * frames (30 minutes at MMD's 30 frames a second) after every other key
 * of the motion is no motion anyone plays: real dances run 2 to 10
 * minutes (3,600 to 18,000 frames; the corpus's longest ends at frame
 * 2,816) and key every track over that span.  Such a key is a flipped
 * high bit of its frame (bit 16 and up add 65,536 or more) or a mistyped
 * frame number, and every command would otherwise work on hours or days
 * of nothing (bake, reduce and diff sample every frame).  The reader
 * warns, naming each track and its first far frame: the keys after the
 * first gap of more than FAR_GAP frames between the motion's key frames,
 * when they are fewer than the keys before it (a mistake is the few).
 * --strict refuses the file.
 * --------------------------------------------------------------------- */

enum { FAR_GAP = 54000 };

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every record's frame, any section, into *out (malloc'd); the count. */
static size_t all_frames(const pk_motion *m, uint32_t **out)
{
    size_t n = m->nbones + m->nmorphs + m->ncameras + m->nlights + m->nshadows + m->niks, k = 0;
    uint32_t *f = malloc((n ? n : 1) * sizeof *f);
    *out = f;
    if (!f)
        return 0;
    for (size_t i = 0; i < m->nbones; i++)
        f[k++] = m->bones[i].frame;
    for (size_t i = 0; i < m->nmorphs; i++)
        f[k++] = m->morphs[i].frame;
    for (size_t i = 0; i < m->ncameras; i++)
        f[k++] = m->cameras[i].frame;
    for (size_t i = 0; i < m->nlights; i++)
        f[k++] = m->lights[i].frame;
    for (size_t i = 0; i < m->nshadows; i++)
        f[k++] = m->shadows[i].frame;
    for (size_t i = 0; i < m->niks; i++)
        f[k++] = m->iks[i].frame;
    return n;
}

/* The last frame before the far keys (*near) when there are far keys. */
static bool far_threshold(const pk_motion *m, uint32_t *near, bool *oom)
{
    uint32_t top = 0;
    for (size_t i = 0; i < m->nbones; i++)
        top = m->bones[i].frame > top ? m->bones[i].frame : top;
    for (size_t i = 0; i < m->nmorphs; i++)
        top = m->morphs[i].frame > top ? m->morphs[i].frame : top;
    for (size_t i = 0; i < m->ncameras; i++)
        top = m->cameras[i].frame > top ? m->cameras[i].frame : top;
    for (size_t i = 0; i < m->nlights; i++)
        top = m->lights[i].frame > top ? m->lights[i].frame : top;
    for (size_t i = 0; i < m->nshadows; i++)
        top = m->shadows[i].frame > top ? m->shadows[i].frame : top;
    for (size_t i = 0; i < m->niks; i++)
        top = m->iks[i].frame > top ? m->iks[i].frame : top;
    if (top <= FAR_GAP) /* nearly every file: nothing can be far */
        return false;
    uint32_t *f;
    size_t n = all_frames(m, &f);
    if (!f) {
        *oom = true;
        return false;
    }
    qsort(f, n, sizeof *f, cmp_u32);
    bool found = false;
    for (size_t i = 1; i < n && !found; i++)
        if (f[i] - f[i - 1] > FAR_GAP && n - i < i) {
            *near = f[i - 1];
            found = true;
        }
    free(f);
    return found;
}

/* One warning item per track with far keys: its first far key's offset. */
static void far_track(pki_log_sum *sum, int64_t at, const char *what, const char *name,
                      uint32_t frame, size_t count, uint32_t near)
{
    char track[128], item[160], more[64];
    if (name)
        snprintf(track, sizeof track, "%s '%s'", what, name);
    else
        snprintf(track, sizeof track, "the %s track", what);
    snprintf(item, sizeof item, "%s at frame %" PRIu32, track, frame);
    if (count > 1)
        snprintf(more, sizeof more, " (and %zu more keys after it)", count - 1);
    else
        more[0] = '\0';
    pki_log_sum_add(sum, at, 0, 0, item,
                    "%s has a key at frame %" PRIu32 "%s, more than %d frames (30 minutes) after "
                    "every other key of the motion (they end at frame %" PRIu32
                    "): a damaged or mistyped frame?",
                    track, frame, more, FAR_GAP, near);
}

/* Bones and morphs: the far keys per name, in file order of their first. */
static bool far_named(reader *r, pki_log_sum *sum, bool morph, uint32_t near)
{
    const pk_motion *m = r->m;
    size_t nn = pk_names_count(m->names), n = morph ? m->nmorphs : m->nbones;
    size_t *count = calloc(nn ? nn : 1, sizeof *count);
    if (!count)
        return false;
    for (size_t i = 0; i < n; i++) {
        pk_name_id id = morph ? m->morphs[i].name : m->bones[i].name;
        uint32_t f = morph ? m->morphs[i].frame : m->bones[i].frame;
        count[id] += f > near;
    }
    for (size_t i = 0; i < n; i++) {
        pk_name_id id = morph ? m->morphs[i].name : m->bones[i].name;
        uint32_t f = morph ? m->morphs[i].frame : m->bones[i].frame;
        if (f <= near || count[id] == 0)
            continue;
        size_t at =
            r->sec_at[morph ? PK_SEC_MORPH : PK_SEC_BONE] + i * (morph ? MORPH_BYTES : BONE_BYTES);
        far_track(sum, (int64_t)at, morph ? "morph" : "bone", pk_names_utf8(m->names, id), f,
                  count[id], near);
        count[id] = 0; /* said */
    }
    free(count);
    return true;
}

/* The camera, light, self-shadow and show/IK tracks: one each. */
static void far_section(reader *r, pki_log_sum *sum, int s, const void *arr, size_t n,
                        size_t stride, size_t frame_off, size_t record, uint32_t near)
{
    size_t count = 0, first = 0;
    uint32_t frame = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t f;
        memcpy(&f, (const uint8_t *)arr + i * stride + frame_off, sizeof f);
        if (f > near && !count++) {
            first = i;
            frame = f;
        }
    }
    if (count)
        far_track(sum, (int64_t)(record ? r->sec_at[s] + first * record : r->count_at[s]),
                  SECTION_NAME[s], NULL, frame, count, near);
}

/* Warns about keys far beyond every other key of the motion; false on OOM. */
static bool warn_far_frames(reader *r)
{
    const pk_motion *m = r->m;
    uint32_t near = 0;
    bool oom = false;
    if (!far_threshold(m, &near, &oom)) {
        if (oom)
            pk_log_add(r->log, PK_ERROR, PK_E_NO_MEMORY, -1, 0, 0, "out of memory");
        return !oom;
    }
    pki_log_sum sum;
    pki_log_sum_init(&sum);
    bool ok = far_named(r, &sum, false, near) && far_named(r, &sum, true, near);
    far_section(r, &sum, PK_SEC_CAMERA, m->cameras, m->ncameras, sizeof *m->cameras,
                offsetof(pk_camera_key, frame), CAMERA_BYTES, near);
    far_section(r, &sum, PK_SEC_LIGHT, m->lights, m->nlights, sizeof *m->lights,
                offsetof(pk_light_key, frame), LIGHT_BYTES, near);
    far_section(r, &sum, PK_SEC_SHADOW, m->shadows, m->nshadows, sizeof *m->shadows,
                offsetof(pk_shadow_key, frame), SHADOW_BYTES, near);
    far_section(r, &sum, PK_SEC_IK, m->iks, m->niks, sizeof *m->iks, offsetof(pk_ik_key, frame), 0,
                near);
    char tail[128];
    snprintf(tail, sizeof tail,
             " (more than %d frames, 30 minutes, after every other key, which end at frame "
             "%" PRIu32 "): damaged or mistyped frames?",
             FAR_GAP, near);
    pki_log_sum_end(&sum, r->log, PK_WARNING, PK_E_DAMAGED, tail,
                    "%zu tracks have keys far beyond the rest", sum.count);
    if (!ok)
        pk_log_add(r->log, PK_ERROR, PK_E_NO_MEMORY, -1, 0, 0, "out of memory");
    return ok;
}

pk_motion *pk_vmd_read(const void *data, size_t len, pk_log *log)
{
    return pki_vmd_read_front(data, len, log, NULL, NULL);
}

pk_motion *pki_vmd_read_front(const void *data, size_t len, pk_log *log,
                              void (*consumed)(void *ctx, size_t upto), void *ctx)
{
    pk_motion *m = pk_motion_new();
    if (!m) {
        pk_log_add(log, PK_ERROR, PK_E_NO_MEMORY, -1, 0, 0, "out of memory");
        return NULL;
    }
    reader r;
    memset(&r, 0, sizeof r);
    r.c.data = data;
    r.c.len = data ? len : 0;
    r.m = m;
    r.log = log;
    r.consumed = consumed;
    r.consumed_ctx = ctx;

    if (!read_header(&r))
        goto fail;
    m->sections = 0;
    for (int s = 0; s < PK_SEC_COUNT; s++) {
        size_t left = pki_rd_left(&r.c);
        if (left == 0)
            break; /* the file ends after the previous count: normal */
        if (left < 4) {
            if (!keep_trailing(&r, "where a section count could start"))
                goto fail;
            break;
        }
        size_t at = r.c.pos;
        const uint8_t *cp = pki_rd_take(&r.c, 4); /* cannot fail: left >= 4 */
        if (!cp)
            goto fail;
        uint32_t n = pki_get_u32(cp);
        m->sections = s + 1;
        r.count_at[s] = at;
        r.count[s] = n;
        uint64_t need = (uint64_t)n * RECORD_BYTES[s];
        if (need > pki_rd_left(&r.c)) {
            char what[128];
            snprintf(what, sizeof what, "%s count %" PRIu32 " needs %s%" PRIu64 " bytes, %zu left",
                     SECTION_NAME[s], n, s == PK_SEC_IK ? "at least " : "", need,
                     pki_rd_left(&r.c));
            report_damage(&r, s, at, what);
            goto fail;
        }
        if (s == PK_SEC_IK) {
            if (!read_iks(&r, n, at))
                goto fail;
            continue;
        }
        size_t first = r.c.pos;
        r.sec_at[s] = first;
        const uint8_t *base = pki_rd_take(&r.c, (size_t)need);
        if (!base || !SECTION_READER[s](&r, base, n, first))
            goto fail;
        progress(&r, r.c.pos);
    }
    if (pki_rd_left(&r.c) > 0 && !keep_trailing(&r, "after the last section"))
        goto fail;
    warn_nonfinite(&r);
    if (!warn_far_frames(&r))
        goto fail;
    return m;
fail:
    pk_motion_free(m);
    return NULL;
}

/* ---------------------------------------------------------------------
 * Writer
 * --------------------------------------------------------------------- */

/* The writer caches the field bytes per (name, padding) pair, mirroring
 * the reader's cache, so most keys cost one 15-byte copy. */
typedef struct out_slot {
    pk_name_id name;
    uint32_t pad;
    uint8_t width; /* 0 = empty */
    uint8_t field[PK_VMD_IK_BYTES];
} out_slot;

typedef struct writer {
    const pk_motion *m;
    pk_log *log;
    uint8_t *w;
    /* Streaming (pk_vmd_write_sink): records go to [base, end) and the
     * buffer is handed to sink whenever the next record might not fit.
     * Without a sink, w runs through a buffer reserved to the exact size. */
    uint8_t *base, *end;
    pk_sink sink;
    void *sink_ctx;
    size_t total, sent; /* streaming: the file's size, the bytes handed to sink (progress) */
    out_slot cache[FIELD_CACHE_SLOTS];
} writer;

enum { STREAM_CHUNK = 256 * 1024 }; /* bytes per sink call; >= any record */

/* Hands n bytes to the sink. */
static bool sink_out(writer *wr, const void *p, size_t n)
{
    if (n && wr->sink(wr->sink_ctx, p, n) != 0) {
        pk_log_add(wr->log, PK_ERROR, PK_E_IO, -1, 0, 0, "write failed: %s", strerror(errno));
        return false;
    }
    return true;
}

static bool flush(writer *wr)
{
    size_t n = (size_t)(wr->w - wr->base);
    wr->w = wr->base;
    wr->sent += n;
    pk_progress(wr->log, (double)wr->sent / (double)wr->total, "writing");
    return sink_out(wr, wr->base, n);
}

/* Makes room for `need` more bytes (streaming only). */
static inline bool room(writer *wr, size_t need)
{
    return !wr->sink || (size_t)(wr->end - wr->w) >= need || flush(wr);
}

/* Writes one name field: name bytes, then (when shorter than the field)
 * a NUL and the stored padding if it has exactly the length left, else
 * zeros.  Fails when the name does not fit. */
static bool encode_name(writer *wr, pk_name_id id, uint32_t pad, size_t width, const char *what,
                        size_t index, uint32_t frame)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(wr->m->names, id, &len);
    if (len > width) {
        pk_log_add(wr->log, PK_ERROR, PK_E_UNSUPPORTED, -1, 0, 0,
                   "%s name \"%s\" (key %zu, frame %" PRIu32 ") is %zu bytes; "
                   "a VMD %s name holds at most %zu",
                   what, pk_names_utf8(wr->m->names, id), index + 1, frame, len, what, width);
        return false;
    }
    uint8_t *w = wr->w;
    memcpy(w, raw, len);
    if (len < width) {
        size_t rest = width - len - 1;
        w[len] = 0;
        size_t plen = 0;
        const uint8_t *praw = pad ? pk_names_raw(wr->m->pads, pad - 1, &plen) : NULL;
        if (praw && plen == rest)
            memcpy(w + len + 1, praw, rest);
        else
            memset(w + len + 1, 0, rest);
    }
    wr->w = w + width;
    return true;
}

static inline bool write_name(writer *wr, pk_name_id id, uint32_t pad, size_t width,
                              const char *what, size_t index, uint32_t frame)
{
    out_slot *slot = &wr->cache[(uint32_t)(id * 2654435761u ^ pad * 0x85EBCA6Bu) >> 24];
    if (slot->width == width && slot->name == id && slot->pad == pad) {
        memcpy(wr->w, slot->field, width);
        wr->w += width;
        return true;
    }
    uint8_t *start = wr->w;
    if (!encode_name(wr, id, pad, width, what, index, frame))
        return false;
    memcpy(slot->field, start, width);
    slot->width = (uint8_t)width;
    slot->name = id;
    slot->pad = pad;
    return true;
}

static bool write_bones(writer *wr)
{
    const pk_motion *m = wr->m;
    for (size_t i = 0; i < m->nbones; i++) {
        const pk_bone_key *k = &m->bones[i];
        if (!room(wr, BONE_BYTES) ||
            !write_name(wr, k->name, k->pad, PK_VMD_NAME_BYTES, "bone", i, k->frame))
            return false;
        uint8_t *w = pki_put_u32(wr->w, k->frame);
        w = pki_put_f32s(w, k->pos, 3);
        w = pki_put_f32s(w, k->rot, 4);
        memcpy(w, k->interp, 64);
        wr->w = w + 64;
    }
    return true;
}

static bool write_morphs(writer *wr)
{
    const pk_motion *m = wr->m;
    for (size_t i = 0; i < m->nmorphs; i++) {
        const pk_morph_key *k = &m->morphs[i];
        if (!room(wr, MORPH_BYTES) ||
            !write_name(wr, k->name, k->pad, PK_VMD_NAME_BYTES, "morph", i, k->frame))
            return false;
        uint8_t *w = pki_put_u32(wr->w, k->frame);
        wr->w = pki_put_f32s(w, &k->weight, 1);
    }
    return true;
}

static bool write_cameras(writer *wr)
{
    const pk_motion *m = wr->m;
    for (size_t i = 0; i < m->ncameras; i++) {
        const pk_camera_key *k = &m->cameras[i];
        if (!room(wr, CAMERA_BYTES))
            return false;
        uint8_t *w = pki_put_u32(wr->w, k->frame);
        w = pki_put_f32s(w, &k->distance, 1);
        w = pki_put_f32s(w, k->pos, 3);
        w = pki_put_f32s(w, k->rot, 3);
        memcpy(w, k->interp, 24);
        w = pki_put_u32(w + 24, k->fov);
        *w++ = k->perspective;
        wr->w = w;
    }
    return true;
}

static bool write_lights(writer *wr)
{
    const pk_motion *m = wr->m;
    for (size_t i = 0; i < m->nlights; i++) {
        const pk_light_key *k = &m->lights[i];
        if (!room(wr, LIGHT_BYTES))
            return false;
        uint8_t *w = pki_put_u32(wr->w, k->frame);
        w = pki_put_f32s(w, k->color, 3);
        wr->w = pki_put_f32s(w, k->direction, 3);
    }
    return true;
}

static bool write_shadows(writer *wr)
{
    const pk_motion *m = wr->m;
    for (size_t i = 0; i < m->nshadows; i++) {
        const pk_shadow_key *k = &m->shadows[i];
        if (!room(wr, SHADOW_BYTES))
            return false;
        uint8_t *w = pki_put_u32(wr->w, k->frame);
        *w++ = k->mode;
        wr->w = pki_put_f32s(w, &k->distance, 1);
    }
    return true;
}

static bool write_iks(writer *wr)
{
    const pk_motion *m = wr->m;
    for (size_t i = 0; i < m->niks; i++) {
        const pk_ik_key *k = &m->iks[i];
        if (!room(wr, IK_HEAD_BYTES))
            return false;
        uint8_t *w = pki_put_u32(wr->w, k->frame);
        *w++ = k->show;
        wr->w = pki_put_u32(w, k->count);
        for (uint32_t j = 0; j < k->count; j++) {
            const pk_ik_state *st = &k->ik[j];
            if (!room(wr, IK_STATE_BYTES) ||
                !write_name(wr, st->name, st->pad, PK_VMD_IK_BYTES, "IK", i, k->frame))
                return false;
            *wr->w++ = st->enabled;
        }
    }
    return true;
}

typedef bool (*section_writer)(writer *wr);

static const section_writer SECTION_WRITER[PK_SEC_COUNT] = {
    write_bones, write_morphs, write_cameras, write_lights, write_shadows, write_iks,
};

/* How many sections to write: as many as were read, and at least enough
 * to hold every non-empty section. */
static int sections_to_write(const pk_motion *m)
{
    int n = m->sections < 0 ? 0 : m->sections > PK_SEC_COUNT ? PK_SEC_COUNT : m->sections;
    for (int s = PK_SEC_COUNT - 1; s >= n; s--)
        if (pk_motion_count(m, s)) {
            n = s + 1;
            break;
        }
    return n;
}

/* Exact output size, or 0 when it would overflow (or a count does not fit
 * its uint32 field). */
static size_t output_size(const pk_motion *m, int nsec)
{
    uint64_t size = HEADER_BYTES + (m->version == 1 ? V1_MODEL_BYTES : PK_VMD_MODEL_BYTES);
    for (int s = 0; s < nsec; s++) {
        size_t n = pk_motion_count(m, s);
        if (n > UINT32_MAX)
            return 0;
        size += 4 + (uint64_t)n * RECORD_BYTES[s];
    }
    if (nsec > PK_SEC_IK)
        for (size_t i = 0; i < m->niks; i++)
            size += (uint64_t)m->iks[i].count * IK_STATE_BYTES;
    size += m->ntrailing;
    if (size > SIZE_MAX)
        return 0;
    return (size_t)size;
}

/* Header, model name, every section and the trailing bytes, through wr
 * (its w, and for streaming its sink, set up by the caller). */
static bool write_all_sections(writer *wr, int nsec)
{
    const pk_motion *m = wr->m;
    if (!room(wr, HEADER_BYTES + PK_VMD_MODEL_BYTES))
        return false;
    memcpy(wr->w, m->header, HEADER_BYTES);
    wr->w += HEADER_BYTES;
    size_t mw = m->version == 1 ? V1_MODEL_BYTES : PK_VMD_MODEL_BYTES;
    memcpy(wr->w, m->model, mw);
    wr->w += mw;
    for (int s = 0; s < nsec; s++) {
        if (!room(wr, 4))
            return false;
        wr->w = pki_put_u32(wr->w, (uint32_t)pk_motion_count(m, s));
        if (!SECTION_WRITER[s](wr))
            return false;
    }
    if (!m->ntrailing)
        return true;
    if (!wr->sink) {
        memcpy(wr->w, m->trailing, m->ntrailing);
        wr->w += m->ntrailing;
        return true;
    }
    return flush(wr) && sink_out(wr, m->trailing, m->ntrailing);
}

static void writer_init(writer *wr, const pk_motion *m, pk_log *log)
{
    memset(wr, 0, sizeof *wr);
    wr->m = m;
    wr->log = log;
}

int pk_vmd_write(const pk_motion *m, pk_buf *out, pk_log *log)
{
    int nsec = sections_to_write(m);
    size_t size = output_size(m, nsec);
    if (size == 0) {
        pk_log_add(log, PK_ERROR, PK_E_UNSUPPORTED, -1, 0, 0, "motion too large for a VMD file");
        return -1;
    }
    size_t start = out->len;
    if (!pk_buf_reserve(out, size)) {
        pk_log_add(log, PK_ERROR, PK_E_NO_MEMORY, -1, 0, 0, "out of memory (%zu bytes)", size);
        return -1;
    }
    /* the whole file is about to be written into fresh pages: few faults */
    pki_os_advise_huge(out->data + start, size);
    writer wr;
    writer_init(&wr, m, log);
    wr.w = out->data + start;
    if (!write_all_sections(&wr, nsec)) {
        out->len = start; /* nothing half-written stays in out */
        return -1;
    }
    out->len = start + size;
    return 0;
}

size_t pk_vmd_size(const pk_motion *m)
{
    return output_size(m, sections_to_write(m));
}

int pk_vmd_write_sink(const pk_motion *m, pk_sink sink, void *ctx, pk_log *log)
{
    int nsec = sections_to_write(m);
    size_t size = output_size(m, nsec);
    if (size == 0) {
        pk_log_add(log, PK_ERROR, PK_E_UNSUPPORTED, -1, 0, 0, "motion too large for a VMD file");
        return -1;
    }
    writer wr;
    writer_init(&wr, m, log);
    wr.total = size;
    wr.sink = sink;
    wr.sink_ctx = ctx;
    wr.base = malloc(STREAM_CHUNK);
    if (!wr.base) {
        pk_log_add(log, PK_ERROR, PK_E_NO_MEMORY, -1, 0, 0, "out of memory");
        return -1;
    }
    wr.w = wr.base;
    wr.end = wr.base + STREAM_CHUNK;
    bool ok = write_all_sections(&wr, nsec) && flush(&wr);
    free(wr.base);
    return ok ? 0 : -1;
}
