/*
 * skeleton.c — the model a motion plays on (read only): allocation, the
 * string arena, lookups, and the checks every model reader ends with.
 *
 * Strings (UTF-8 names, comments) and the small per-bone arrays (IK links,
 * display-frame members) live in one chunked arena owned by the model, so
 * a model is freed in a handful of calls however many bones it has.
 */
#include "util/utf8.h"
#include "posekit.h"
#include "common/bytes.h"
#include "model/skeleton.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pk_model_arena {
    struct pk_model_arena *next;
    size_t used, size;
    max_align_t data[]; /* aligned for any type */
} chunk;

#define CHUNK_BYTES 32768

pk_model *pki_model_alloc(int format)
{
    pk_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->names = pk_names_new();
    if (!m->names) {
        free(m);
        return NULL;
    }
    m->format = format;
    m->name = m->name_en = m->comment = m->comment_en = "";
    return m;
}

void *pki_model_mem(pk_model *m, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (n == 0)
        n = sizeof(max_align_t);
    chunk *c = m->arena_;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->size = size;
        c->used = 0;
        c->next = m->arena_;
        m->arena_ = c;
    }
    void *p = (uint8_t *)c->data + c->used;
    c->used += n;
    return p;
}

const char *pki_model_str(pk_model *m, const void *s, size_t n)
{
    if (n == 0)
        return "";
    char *d = pki_model_mem(m, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

const char *pki_model_utf16(pk_model *m, const uint8_t *s, size_t n)
{
    size_t units = n / 2;
    if (units == 0)
        return "";
    /* A unit gives at most 3 UTF-8 bytes (a pair: 4 bytes for 2 units). */
    char *d = pki_model_mem(m, 3 * units + 1);
    if (!d)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t c = pki_get_u16(s + 2 * i);
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units) {
            uint32_t lo = pki_get_u16(s + 2 * i + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            } else {
                c = 0xFFFD;
            }
        } else if (c >= 0xD800 && c <= 0xDFFF) {
            c = 0xFFFD;
        }
        if (c == 0) /* a NUL ends the text (as it does every C string) */
            break;
        o += pki_utf8_put(d + o, c);
    }
    d[o] = '\0';
    return d;
}

void pk_model_free(pk_model *m)
{
    if (!m)
        return;
    for (chunk *c = m->arena_; c;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    pk_names_free(m->names);
    free(m->bones);
    free(m->morphs);
    free(m->frames);
    free(m->rigids);
    free(m);
}

long pk_model_find_bone(const pk_model *m, const void *raw, size_t len)
{
    if (!m)
        return -1;
    pk_name_id id = pk_names_find(m->names, raw, len);
    if (id == PK_NO_NAME)
        return -1;
    for (size_t i = 0; i < m->nbones; i++)
        if (m->bones[i].cp932 == id)
            return (long)i;
    return -1;
}

long pki_model_find_bone_utf8(const pk_model *m, const char *utf8)
{
    uint8_t *raw;
    size_t len;
    if (!m || pk_utf8_to_cp932(utf8, &raw, &len) != 0)
        return -1;
    long i = pk_model_find_bone(m, raw, len);
    free(raw);
    return i;
}

long pk_model_find_morph(const pk_model *m, const void *raw, size_t len)
{
    if (!m)
        return -1;
    pk_name_id id = pk_names_find(m->names, raw, len);
    if (id == PK_NO_NAME)
        return -1;
    for (size_t i = 0; i < m->nmorphs; i++)
        if (m->morphs[i].cp932 == id)
            return (long)i;
    return -1;
}

const char *pk_model_section_name(pk_model_section s)
{
    static const char *const names[PK_MSEC_COUNT] = {
        "vertices", "faces",  "textures",     "materials", "bones",
        "morphs",   "frames", "rigid_bodies", "joints",    "soft_bodies"};
    return (unsigned)s < PK_MSEC_COUNT ? names[s] : "unknown";
}

static bool drives(const pk_model *m, const pk_model_rigid *rb)
{
    return rb->bone >= 0 && (size_t)rb->bone < m->nbones &&
           (rb->mode == PK_RIGID_PHYSICS || rb->mode == PK_RIGID_PHYSICS_BONE);
}

size_t pk_model_physics_bones(const pk_model *m, bool *driven)
{
    if (driven)
        memset(driven, 0, m->nbones * sizeof *driven);
    size_t n = 0;
    for (size_t i = 0; i < m->nrigids; i++) {
        const pk_model_rigid *rb = &m->rigids[i];
        if (!drives(m, rb))
            continue;
        /* a bone several bodies drive counts once */
        bool seen = false;
        if (driven)
            seen = driven[rb->bone];
        for (size_t k = 0; !driven && k < i && !seen; k++)
            seen = drives(m, &m->rigids[k]) && m->rigids[k].bone == rb->bone;
        if (driven)
            driven[rb->bone] = true;
        n += !seen;
    }
    return n;
}

/* ---- names to CP932 ---- */

/* One name; PK_NO_NAME (warned) when CP932 cannot hold it. */
static pk_name_id intern_one(pk_model *m, const char *utf8, const char *what, pk_log *log)
{
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(utf8, &raw, &len) != 0) {
        pk_log_add(log, PK_WARNING, PK_E_UNSUPPORTED, -1, 0, 0,
                   "%s name \"%s\" cannot be written in CP932: no VMD or VPD can key it", what,
                   utf8);
        m->unencodable++;
        return PK_NO_NAME;
    }
    pk_name_id id = pk_names_intern(m->names, raw, len);
    free(raw);
    return id;
}

/* Every bone and morph name converted in one call where possible (opening
 * a converter costs ~17 us, a few hundred names would cost milliseconds):
 * the names joined by '\n'.  A name holding '\n' or '\\' (which the
 * converter reads as the start of a \xNN escape) is converted alone, and
 * so is every name when the joined text does not convert. */
static int intern_names(pk_model *m, pk_log *log)
{
    size_t n = m->nbones + m->nmorphs, total = 1;
    for (size_t i = 0; i < n; i++) {
        const char *s = i < m->nbones ? m->bones[i].name : m->morphs[i - m->nbones].name;
        total += strlen(s) + 1;
    }
    char *joined = malloc(total);
    bool *alone = calloc(n ? n : 1, sizeof *alone);
    if (!joined || !alone) {
        free(joined);
        free(alone);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        const char *s = i < m->nbones ? m->bones[i].name : m->morphs[i - m->nbones].name;
        alone[i] = strpbrk(s, "\n\\") != NULL;
        if (alone[i])
            continue;
        size_t l = strlen(s);
        memcpy(joined + o, s, l);
        o += l;
        joined[o++] = '\n';
    }
    joined[o] = '\0';
    uint8_t *raw = NULL;
    size_t rlen = 0;
    bool batch = pk_utf8_to_cp932(joined, &raw, &rlen) == 0;
    free(joined);
    size_t p = 0;
    for (size_t i = 0; i < n; i++) {
        bool bone = i < m->nbones;
        const char *s = bone ? m->bones[i].name : m->morphs[i - m->nbones].name;
        pk_name_id id;
        if (batch && !alone[i]) {
            /* '\n' is one byte in CP932 and never a trail byte (< 0x40). */
            size_t e = p;
            while (e < rlen && raw[e] != '\n')
                e++;
            id = pk_names_intern(m->names, raw + p, e - p);
            p = e + 1;
        } else {
            id = intern_one(m, s, bone ? "bone" : "morph", log);
        }
        if (bone)
            m->bones[i].cp932 = id;
        else
            m->morphs[i - m->nbones].cp932 = id;
    }
    free(raw);
    free(alone);
    return 0;
}

/* ---- graph checks ---- */

static bool in_range(const pk_model *m, int32_t i)
{
    return i >= 0 && (size_t)i < m->nbones;
}

/* A NaN or infinite rest position is valid bytes but no place: the model
 * keeps it (nothing is normalised on read) and the reader warns once,
 * naming the first such bone, as the VMD reader does for keys, so --strict
 * can refuse the model.  Evaluated, such a bone and everything under it
 * has no position (draw leaves them out, its JSON writes null). */
static void warn_nonfinite(const pk_model *m, const pki_model_offsets *off, pk_log *log)
{
    size_t count = 0, first = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        const float *p = m->bones[i].pos;
        if ((!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) && !count++)
            first = i;
    }
    if (!count)
        return;
    pk_log_add(log, PK_WARNING, PK_E_DAMAGED, off && off->bones ? off->bones[first] : -1, 0, 0,
               "%zu bone%s with a NaN or infinite position (first: bone %zu \"%s\"): such a "
               "bone and the bones under it cannot be placed",
               count, count == 1 ? "" : "s", first, m->bones[first].name);
}

/* IK values the solver cannot use as stored: warned, naming the bone, so
 * that a damaged or hand-edited chain is not a silent no-op. */
static void warn_ik(const pk_model *m, size_t i, int64_t at, pk_log *log)
{
    const pk_model_bone *b = &m->bones[i];
    if (b->ik_loops < 1)
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                   "bone %zu \"%s\": IK loop count %d is below 1: its IK does nothing", i, b->name,
                   (int)b->ik_loops);
    if (!isfinite(b->ik_limit) || b->ik_limit <= 0)
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                   "bone %zu \"%s\": IK angle limit %g is not a positive number: each step "
                   "turns without a limit",
                   i, b->name, (double)b->ik_limit);
    for (size_t k = 0; k < b->nik_links; k++) {
        const pk_model_ik_link *l = &b->ik_links[k];
        bool finite = true;
        for (int a = 0; a < 3 && l->limited; a++)
            finite = finite && isfinite(l->min[a]) && isfinite(l->max[a]);
        if (!finite)
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                       "bone %zu \"%s\": IK link %zu (\"%s\") has a limit that is not a "
                       "finite angle",
                       i, b->name, k, m->bones[b->ik_links[k].bone].name);
    }
}

/* A rigid body's bone outside the model: warned and dropped (the body
 * follows nothing); an unknown shape or mode: warned, kept. */
static void check_rigids(pk_model *m, const pki_model_offsets *off, pk_log *log)
{
    for (size_t i = 0; i < m->nrigids; i++) {
        pk_model_rigid *rb = &m->rigids[i];
        int64_t at = off && off->rigids ? off->rigids[i] : -1;
        if (rb->bone != -1 && !in_range(m, rb->bone)) {
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                       "rigid body %zu \"%s\": bone %d is outside the model (%zu bones); "
                       "ignored",
                       i, rb->name, (int)rb->bone, m->nbones);
            rb->bone = -1;
        }
        if (rb->shape > PK_RIGID_CAPSULE)
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                       "rigid body %zu \"%s\": shape %u is not 0-2 (sphere, box, capsule)", i,
                       rb->name, rb->shape);
        if (rb->mode > PK_RIGID_PHYSICS_BONE)
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                       "rigid body %zu \"%s\": physics mode %u is not 0-2 (follow bone, "
                       "physics, physics with bone position)",
                       i, rb->name, rb->mode);
    }
}

int pki_model_finish(pk_model *m, const pki_model_offsets *off, pk_log *log)
{
    if (m->format != PK_FMT_PMD && intern_names(m, log) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < m->nbones; i++) {
        pk_model_bone *b = &m->bones[i];
        int64_t at = off && off->bones ? off->bones[i] : -1;
        if (b->parent != -1 && !in_range(m, b->parent)) {
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, at, 0, 0,
                       "bone %zu \"%s\": parent %d is outside the model (%zu bones)", i, b->name,
                       (int)b->parent, m->nbones);
            rc = -1;
        }
        if (b->ik_target != -1 || (b->flags & PK_BONE_IK)) {
            if (!in_range(m, b->ik_target)) {
                pk_log_add(log, PK_ERROR, PK_E_DAMAGED, at, 0, 0,
                           "bone %zu \"%s\": IK target %d is outside the model (%zu bones)", i,
                           b->name, (int)b->ik_target, m->nbones);
                rc = -1;
            }
            for (size_t k = 0; k < b->nik_links; k++) {
                if (!in_range(m, b->ik_links[k].bone)) {
                    pk_log_add(
                        log, PK_ERROR, PK_E_DAMAGED, at, 0, 0,
                        "bone %zu \"%s\": IK link %zu names bone %d, outside the model (%zu bones)",
                        i, b->name, k, (int)b->ik_links[k].bone, m->nbones);
                    rc = -1;
                }
            }
        }
        if ((b->flags & PK_BONE_TAIL_IS_BONE) && b->tail_bone != -1 && !in_range(m, b->tail_bone)) {
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                       "bone %zu \"%s\": tail bone %d is outside the model; ignored", i, b->name,
                       (int)b->tail_bone);
            b->tail_bone = -1;
        }
        if ((b->flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)) && b->append_parent != -1 &&
            !in_range(m, b->append_parent)) {
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, at, 0, 0,
                       "bone %zu \"%s\": append parent %d is outside the model; ignored", i,
                       b->name, (int)b->append_parent);
            b->append_parent = -1;
        }
    }
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < m->nbones; i++)
        if (m->bones[i].flags & PK_BONE_IK)
            warn_ik(m, i, off && off->bones ? off->bones[i] : -1, log);
    check_rigids(m, off, log);
    warn_nonfinite(m, off, log);
    /* Cycles: walk each bone's parent chain; more than nbones steps means a
     * loop.  Marks (0 new, 1 on the current walk, 2 known to reach a root)
     * keep it linear. */
    uint8_t *mark = calloc(m->nbones ? m->nbones : 1, 1);
    if (!mark) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->nbones && rc == 0; i++) {
        int32_t j = (int32_t)i;
        while (j != -1 && mark[j] == 0) {
            mark[j] = 1;
            j = m->bones[j].parent;
        }
        if (j != -1 && mark[j] == 1) {
            pk_log_add(log, PK_ERROR, PK_E_DAMAGED, off && off->bones ? off->bones[j] : -1, 0, 0,
                       "bone %d \"%s\": its parent chain comes back to it (a parent cycle)", (int)j,
                       m->bones[j].name);
            rc = -1;
        }
        for (j = (int32_t)i; j != -1 && mark[j] == 1; j = m->bones[j].parent)
            mark[j] = 2;
    }
    free(mark);
    for (size_t f = 0; f < m->nframes && rc == 0; f++) {
        pk_model_frame *fr = &m->frames[f];
        size_t kept = 0;
        for (size_t k = 0; k < fr->nitems; k++) {
            pk_model_frame_item it = fr->items[k];
            size_t limit = it.kind == 0 ? m->nbones : m->nmorphs;
            if (it.kind > 1 || it.index < 0 || (size_t)it.index >= limit) {
                pk_log_add(
                    log, PK_WARNING, PK_E_DAMAGED, off && off->frames ? off->frames[f] : -1, 0, 0,
                    "display frame %zu \"%s\": member %zu (%s %d) is outside the model; ignored", f,
                    fr->name, k,
                    it.kind == 0   ? "bone"
                    : it.kind == 1 ? "morph"
                                   : "kind",
                    (int)it.index);
                continue;
            }
            fr->items[kept++] = it;
        }
        fr->nitems = kept;
    }
    return rc;
}
