/*
 * pmx.c — PMX 2.0 / 2.1 models, read only (doc/formats.md §11.1, §11.4).
 *
 * Every section is walked so the byte position is always known (vertex
 * records are variable length: each deform type is read), but only the
 * skeleton is kept: names, bones, morph names and kinds, display frames,
 * rigid bodies.
 * Counts are checked against the bytes left (times the smallest record of
 * the section) before anything is allocated; every error carries the
 * offset of the field that failed and names the record.
 */
#include "posekit.h"
#include "common/bytes.h"
#include "model/skeleton.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts in messages: "1 byte left", "2 bytes left"; "1 record does not
 * fit", "2 records do not". */
#define PLURAL_S(n) ((n) == 1 ? "" : "s")
#define DOES(n) ((n) == 1 ? "does" : "do")

enum { IX_VERTEX, IX_TEXTURE, IX_MATERIAL, IX_BONE, IX_MORPH, IX_RIGID };

typedef struct px {
    pki_rd r;
    pk_log *log;
    pk_model *m;
    int enc;    /* 0 UTF-16LE, 1 UTF-8 */
    int isz[6]; /* index sizes */
    bool v21;
    char what[96]; /* the record being read, for messages */
    bool qdef_warned;
} px;

static bool fail_at(px *x, size_t at, const char *fmt, ...) PK_PRINTF(3, 4);
static bool fail_at(px *x, size_t at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pk_log_add(x->log, PK_ERROR, PK_E_DAMAGED, (int64_t)at, 0, 0, "%s: %s", x->what, msg);
    return false;
}

/* "the file ends inside <what>" at the current position. */
static bool short_read(px *x, const char *field)
{
    size_t left = pki_rd_left(&x->r);
    return fail_at(x, x->r.pos, "the file ends inside its %s (%zu byte%s left)", field, left,
                   PLURAL_S(left));
}

static void set_what(px *x, const char *fmt, ...) PK_PRINTF(2, 3);
static void set_what(px *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->what, sizeof x->what, fmt, ap);
    va_end(ap);
}

/* A text field: int32 byte length, then the bytes.  With out NULL the
 * text is only skipped (no decoding). */
static bool text(px *x, const char **out, const char *field)
{
    size_t at = x->r.pos;
    int32_t n;
    if (!pki_rd_i32(&x->r, &n))
        return short_read(x, field);
    if (n < 0 || (size_t)n > pki_rd_left(&x->r)) {
        x->r.pos = at;
        size_t left = pki_rd_left(&x->r) - 4;
        return fail_at(x, at, "%s length %d does not fit in the %zu byte%s left", field, (int)n,
                       left, PLURAL_S(left));
    }
    const uint8_t *p = pki_rd_take(&x->r, (size_t)n);
    if (!out)
        return true;
    *out = x->enc == 0 ? pki_model_utf16(x->m, p, (size_t)n) : pki_model_str(x->m, p, (size_t)n);
    if (!*out) {
        pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    if (x->enc == 1 && memchr(p, 0, (size_t)n)) /* keep C strings whole */
        *out = pki_model_str(x->m, p, strnlen((const char *)p, (size_t)n));
    return *out != NULL;
}

/* An index of kind k: vertex indices are unsigned (u8, u16, i32), every
 * other index signed (i8, i16, i32; -1 = none). */
static bool idx(px *x, int k, int32_t *out, const char *field)
{
    const uint8_t *p = pki_rd_take(&x->r, (size_t)x->isz[k]);
    if (!p)
        return short_read(x, field);
    switch (x->isz[k]) {
    case 1:
        *out = k == IX_VERTEX ? (int32_t)p[0] : (int32_t)(int8_t)p[0];
        break;
    case 2:
        *out = k == IX_VERTEX ? (int32_t)pki_get_u16(p) : (int32_t)(int16_t)pki_get_u16(p);
        break;
    default:
        *out = pki_get_i32(p);
        break;
    }
    return true;
}

static bool skip(px *x, size_t n, const char *field)
{
    return pki_rd_skip(&x->r, n) || short_read(x, field);
}

/* A section count: int32, not negative, and count x min_size must fit in
 * what is left.  `one` names a single record of the section (vertex). */
static bool count(px *x, const char *section, const char *one, size_t min_size, size_t *out)
{
    size_t at = x->r.pos;
    int32_t n;
    set_what(x, "%s count", section);
    if (!pki_rd_i32(&x->r, &n))
        return fail_at(x, at, "the file ends before the %s section (%zu byte%s left)", section,
                       pki_rd_left(&x->r), PLURAL_S(pki_rd_left(&x->r)));
    if (n < 0)
        return fail_at(x, at, "negative %s count %d", section, (int)n);
    size_t left = pki_rd_left(&x->r);
    if (!pki_rd_fits(&x->r, (uint64_t)n, min_size))
        return fail_at(x, at, "%d %s need%s at least %zu byte%s%s; %zu byte%s %s left", (int)n,
                       n == 1 ? one : section, n == 1 ? "s" : "", min_size, PLURAL_S(min_size),
                       n == 1 ? "" : " each", left, PLURAL_S(left), left == 1 ? "is" : "are");
    *out = (size_t)n;
    return true;
}

static size_t min_text(void)
{
    return 4;
}

static bool header(px *x)
{
    pki_rd *r = &x->r;
    set_what(x, "header");
    /* a file cut inside the signature is said to be cut, not foreign */
    size_t have = pki_rd_left(r) < 4 ? pki_rd_left(r) : 4;
    if (have < 4 && (have == 0 || memcmp(r->data, "PMX ", have) == 0))
        return short_read(x, "signature");
    const uint8_t *sig = pki_rd_take(r, 4);
    if (!sig || memcmp(sig, "PMX", 3) != 0 || (sig[3] != ' ' && sig[3] != 0xA0))
        return fail_at(x, 0, "not a PMX file (no \"PMX \" signature)");
    float ver;
    if (!pki_rd_f32(r, &ver))
        return short_read(x, "version");
    if (!(ver == 2.0f || ver == 2.1f))
        return fail_at(x, 4, "PMX version %g is not 2.0 or 2.1", (double)ver);
    x->m->version = ver;
    x->v21 = ver == 2.1f;
    uint8_t n;
    if (!pki_rd_u8(r, &n))
        return short_read(x, "globals count");
    if (n < 8)
        return fail_at(x, 8, "%u globals; PMX needs 8", n);
    const uint8_t *g = pki_rd_take(r, n);
    if (!g)
        return short_read(x, "globals");
    if (g[0] > 1)
        return fail_at(x, 9, "text encoding %u is neither 0 (UTF-16LE) nor 1 (UTF-8)", g[0]);
    x->enc = g[0];
    x->m->encoding = g[0] == 0 ? PK_TEXT_UTF16LE : PK_TEXT_UTF8;
    if (g[1] > 4)
        return fail_at(x, 10, "%u extra UVs; PMX allows 0 to 4", g[1]);
    x->m->extra_uv = g[1];
    static const char *const kinds[6] = {"vertex", "texture", "material",
                                         "bone",   "morph",   "rigid body"};
    for (int i = 0; i < 6; i++) {
        uint8_t s = g[2 + i];
        if (s != 1 && s != 2 && s != 4)
            return fail_at(x, (size_t)(11 + i), "%s index size %u is not 1, 2 or 4", kinds[i], s);
        x->isz[i] = s;
        x->m->index_size[i] = s;
    }
    if (n > 8)
        pk_log_add(x->log, PK_WARNING, PK_E_DAMAGED, 8, 0, 0,
                   "header: %u globals; the %u after the 8 known are ignored", n, n - 8);
    set_what(x, "model info");
    return text(x, &x->m->name, "model name") && text(x, &x->m->name_en, "English model name") &&
           text(x, &x->m->comment, "comment") && text(x, &x->m->comment_en, "English comment");
}

static bool vertices(px *x)
{
    size_t n;
    size_t fixed = 32 + 16 * (size_t)x->m->extra_uv; /* position, normal, uv, extra */
    size_t b = (size_t)x->isz[IX_BONE];
    if (!count(x, "vertices", "vertex", fixed + 1 + b + 4, &n))
        return false;
    x->m->counts[PK_MSEC_VERTICES] = n;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = pki_rd_take(&x->r, fixed + 1);
        if (!p) {
            set_what(x, "vertex %zu", i);
            return short_read(x, "position, normal and UVs");
        }
        uint8_t type = p[fixed];
        size_t w;
        switch (type) {
        case 0: /* BDEF1 */
            w = b;
            break;
        case 1: /* BDEF2 */
            w = 2 * b + 4;
            break;
        case 2: /* BDEF4 */
            w = 4 * b + 16;
            break;
        case 3: /* SDEF: BDEF2 + C, R0, R1 */
            w = 2 * b + 4 + 36;
            break;
        case 4: /* QDEF (2.1): as BDEF4 */
            if (!x->v21 && !x->qdef_warned) {
                pk_log_add(x->log, PK_WARNING, PK_E_DAMAGED, (int64_t)(x->r.pos - 1), 0, 0,
                           "vertex %zu: QDEF deform in a PMX 2.0 file (a 2.1 feature); read as 2.1",
                           i);
                x->qdef_warned = true;
            }
            w = 4 * b + 16;
            break;
        default:
            set_what(x, "vertex %zu", i);
            return fail_at(x, x->r.pos - 1,
                           "deform type %u is not 0-4 (BDEF1, BDEF2, BDEF4, SDEF, QDEF)", type);
        }
        if (!pki_rd_skip(&x->r, w + 4)) {
            set_what(x, "vertex %zu", i);
            return short_read(x, "weights and edge scale");
        }
    }
    return true;
}

static bool faces(px *x)
{
    size_t n;
    if (!count(x, "face indices", "face index", (size_t)x->isz[IX_VERTEX], &n))
        return false;
    if (n % 3 != 0)
        pk_log_add(x->log, PK_WARNING, PK_E_DAMAGED, (int64_t)(x->r.pos - 4), 0, 0,
                   "%zu face indices is not a multiple of 3", n);
    x->m->counts[PK_MSEC_FACES] = n / 3;
    pki_rd_skip(&x->r, n * (size_t)x->isz[IX_VERTEX]); /* fits: checked by count */
    return true;
}

static bool textures(px *x)
{
    size_t n;
    if (!count(x, "textures", "texture", min_text(), &n))
        return false;
    x->m->counts[PK_MSEC_TEXTURES] = n;
    for (size_t i = 0; i < n; i++) {
        set_what(x, "texture %zu", i);
        if (!text(x, NULL, "path"))
            return false;
    }
    return true;
}

static bool materials(px *x)
{
    size_t n, t = (size_t)x->isz[IX_TEXTURE];
    size_t fixed = 16 + 12 + 4 + 12 + 1 + 16 + 4; /* colours, flags, edge */
    if (!count(x, "materials", "material", 2 * min_text() + fixed + 2 * t + 3 + min_text() + 4, &n))
        return false;
    x->m->counts[PK_MSEC_MATERIALS] = n;
    for (size_t i = 0; i < n; i++) {
        set_what(x, "material %zu", i);
        if (!text(x, NULL, "name") || !text(x, NULL, "English name") ||
            !skip(x, fixed + 2 * t + 1, "colours and textures"))
            return false;
        uint8_t shared;
        if (!pki_rd_u8(&x->r, &shared))
            return short_read(x, "toon flag");
        if (!skip(x, shared ? 1 : t, "toon") || !text(x, NULL, "memo") ||
            !skip(x, 4, "index count"))
            return false;
    }
    return true;
}

static bool bone(px *x, size_t i, pk_model_bone *bn)
{
    pki_rd *r = &x->r;
    set_what(x, "bone %zu", i);
    if (!text(x, &bn->name, "name") || !text(x, &bn->name_en, "English name"))
        return false;
    set_what(x, "bone %zu \"%s\"", i, bn->name);
    uint16_t flags;
    if (!pki_rd_f32s(r, bn->pos, 3))
        return short_read(x, "position");
    if (!idx(x, IX_BONE, &bn->parent, "parent index"))
        return false;
    if (!pki_rd_i32(r, &bn->layer))
        return short_read(x, "deform layer");
    if (!pki_rd_u16(r, &flags))
        return short_read(x, "flags");
    bn->flags = flags;
    bn->tail_bone = -1;
    bn->append_parent = -1;
    bn->ik_target = -1;
    bn->pmd_kind = -1;
    if (flags & PK_BONE_TAIL_IS_BONE) {
        if (!idx(x, IX_BONE, &bn->tail_bone, "tail bone"))
            return false;
    } else if (!pki_rd_f32s(r, bn->tail, 3)) {
        return short_read(x, "tail offset");
    }
    if (flags & (PK_BONE_APPEND_ROTATE | PK_BONE_APPEND_MOVE)) {
        if (!idx(x, IX_BONE, &bn->append_parent, "append parent") ||
            !(pki_rd_f32(r, &bn->append_ratio) || short_read(x, "append ratio")))
            return false;
    }
    if ((flags & PK_BONE_FIXED_AXIS) && !pki_rd_f32s(r, bn->fixed_axis, 3))
        return short_read(x, "fixed axis");
    if ((flags & PK_BONE_LOCAL_AXES) &&
        (!pki_rd_f32s(r, bn->local_x, 3) || !pki_rd_f32s(r, bn->local_z, 3)))
        return short_read(x, "local axes");
    if ((flags & PK_BONE_EXTERNAL_PARENT) && !pki_rd_i32(r, &bn->external_key))
        return short_read(x, "external parent key");
    if (flags & PK_BONE_IK) {
        int32_t nl;
        if (!idx(x, IX_BONE, &bn->ik_target, "IK target"))
            return false;
        if (!pki_rd_i32(r, &bn->ik_loops) || !pki_rd_f32(r, &bn->ik_limit))
            return short_read(x, "IK loop count and angle limit");
        size_t at = r->pos;
        if (!pki_rd_i32(r, &nl))
            return short_read(x, "IK link count");
        size_t min_link = (size_t)x->isz[IX_BONE] + 1;
        if (nl < 0 || !pki_rd_fits(r, (uint64_t)nl, min_link))
            return fail_at(x, at, "IK link count %d does not fit in the %zu byte%s left", (int)nl,
                           pki_rd_left(r), PLURAL_S(pki_rd_left(r)));
        bn->ik_links = pki_model_mem(x->m, (size_t)nl * sizeof *bn->ik_links);
        if (!bn->ik_links) {
            pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
            return false;
        }
        bn->nik_links = (size_t)nl;
        for (size_t k = 0; k < (size_t)nl; k++) {
            pk_model_ik_link *l = &bn->ik_links[k];
            uint8_t lim;
            memset(l, 0, sizeof *l);
            if (!idx(x, IX_BONE, &l->bone, "IK link"))
                return false;
            if (!pki_rd_u8(r, &lim))
                return short_read(x, "IK link limit flag");
            l->limited = lim != 0;
            if (lim && (!pki_rd_f32s(r, l->min, 3) || !pki_rd_f32s(r, l->max, 3)))
                return short_read(x, "IK link limits");
        }
    }
    return true;
}

static bool bones(px *x, int64_t **offsets)
{
    size_t n, b = (size_t)x->isz[IX_BONE];
    if (!count(x, "bones", "bone", 2 * min_text() + 12 + b + 4 + 2 + b, &n))
        return false;
    x->m->counts[PK_MSEC_BONES] = n;
    x->m->bones = calloc(n ? n : 1, sizeof *x->m->bones);
    *offsets = malloc((n ? n : 1) * sizeof **offsets);
    if (!x->m->bones || !*offsets) {
        pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        (*offsets)[i] = (int64_t)x->r.pos;
        x->m->nbones = i + 1;
        if (!bone(x, i, &x->m->bones[i]))
            return false;
    }
    return true;
}

/* Bytes per offset record of each PMX morph kind; 0 = unknown kind. */
static size_t morph_offset_size(const px *x, uint8_t kind)
{
    switch (kind) {
    case 0: /* group */
    case 9: /* flip (2.1) */
        return (size_t)x->isz[IX_MORPH] + 4;
    case 1: /* vertex */
        return (size_t)x->isz[IX_VERTEX] + 12;
    case 2: /* bone */
        return (size_t)x->isz[IX_BONE] + 28;
    case 3:
    case 4:
    case 5:
    case 6:
    case 7: /* UV, extra UV 1-4 */
        return (size_t)x->isz[IX_VERTEX] + 16;
    case 8: /* material */
        return (size_t)x->isz[IX_MATERIAL] + 1 + 28 * 4;
    case 10: /* impulse (2.1) */
        return (size_t)x->isz[IX_RIGID] + 1 + 24;
    default:
        return 0;
    }
}

static bool morphs(px *x)
{
    size_t n;
    if (!count(x, "morphs", "morph", 2 * min_text() + 2 + 4, &n))
        return false;
    x->m->counts[PK_MSEC_MORPHS] = n;
    x->m->morphs = calloc(n ? n : 1, sizeof *x->m->morphs);
    if (!x->m->morphs) {
        pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        pk_model_morph *mo = &x->m->morphs[i];
        x->m->nmorphs = i + 1;
        set_what(x, "morph %zu", i);
        if (!text(x, &mo->name, "name") || !text(x, &mo->name_en, "English name"))
            return false;
        set_what(x, "morph %zu \"%s\"", i, mo->name);
        const uint8_t *p = pki_rd_take(&x->r, 2);
        if (!p)
            return short_read(x, "panel and kind");
        mo->panel = p[0];
        mo->kind = p[1];
        if (mo->panel > 4)
            pk_log_add(x->log, PK_WARNING, PK_E_DAMAGED, (int64_t)(x->r.pos - 2), 0, 0,
                       "%s: panel %u is not 0-4", x->what, mo->panel);
        size_t size = morph_offset_size(x, mo->kind);
        if (!size)
            return fail_at(x, x->r.pos - 1, "morph kind %u is not 0-10", mo->kind);
        if (mo->kind >= 9 && !x->v21)
            pk_log_add(x->log, PK_WARNING, PK_E_DAMAGED, (int64_t)(x->r.pos - 1), 0, 0,
                       "%s: kind %u (%s) is a PMX 2.1 kind in a 2.0 file", x->what, mo->kind,
                       mo->kind == 9 ? "flip" : "impulse");
        size_t at = x->r.pos;
        int32_t k;
        if (!pki_rd_i32(&x->r, &k))
            return short_read(x, "offset count");
        if (k < 0 || !pki_rd_fits(&x->r, (uint64_t)k, size))
            return fail_at(x, at, "%d offset%s of %zu bytes %s not fit in the %zu byte%s left",
                           (int)k, PLURAL_S(k), size, DOES(k), pki_rd_left(&x->r),
                           PLURAL_S(pki_rd_left(&x->r)));
        pki_rd_skip(&x->r, (size_t)k * size);
    }
    return true;
}

static bool frames(px *x, int64_t **offsets)
{
    size_t n;
    if (!count(x, "display frames", "display frame", 2 * min_text() + 1 + 4, &n))
        return false;
    x->m->counts[PK_MSEC_FRAMES] = n;
    x->m->frames = calloc(n ? n : 1, sizeof *x->m->frames);
    *offsets = malloc((n ? n : 1) * sizeof **offsets);
    if (!x->m->frames || !*offsets) {
        pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    size_t min_item =
        1 + (size_t)(x->isz[IX_BONE] < x->isz[IX_MORPH] ? x->isz[IX_BONE] : x->isz[IX_MORPH]);
    for (size_t i = 0; i < n; i++) {
        pk_model_frame *f = &x->m->frames[i];
        (*offsets)[i] = (int64_t)x->r.pos;
        x->m->nframes = i + 1;
        set_what(x, "display frame %zu", i);
        if (!text(x, &f->name, "name") || !text(x, &f->name_en, "English name"))
            return false;
        set_what(x, "display frame %zu \"%s\"", i, f->name);
        if (!pki_rd_u8(&x->r, &f->special))
            return short_read(x, "special flag");
        size_t at = x->r.pos;
        int32_t k;
        if (!pki_rd_i32(&x->r, &k))
            return short_read(x, "member count");
        if (k < 0 || !pki_rd_fits(&x->r, (uint64_t)k, min_item))
            return fail_at(x, at, "%d member%s %s not fit in the %zu byte%s left", (int)k,
                           PLURAL_S(k), DOES(k), pki_rd_left(&x->r), PLURAL_S(pki_rd_left(&x->r)));
        f->items = pki_model_mem(x->m, (size_t)k * sizeof *f->items);
        if (!f->items) {
            pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
            return false;
        }
        for (size_t j = 0; j < (size_t)k; j++) {
            uint8_t kind;
            if (!pki_rd_u8(&x->r, &kind))
                return short_read(x, "member kind");
            if (kind > 1)
                return fail_at(x, x->r.pos - 1,
                               "member %zu: kind %u is neither 0 (bone) nor 1 (morph)", j, kind);
            f->items[j].kind = kind;
            if (!idx(x, kind ? IX_MORPH : IX_BONE, &f->items[j].index, "member index"))
                return false;
            f->nitems = j + 1;
        }
    }
    return true;
}

/* The rigid bodies: name, bone, collision group and mask, shape and size,
 * position, rotation, mass and the other physics values, mode. */
static bool rigids(px *x, int64_t **offsets)
{
    size_t n, fixed = 1 + 2 + 1 + 12 + 12 + 12 + 20 + 1;
    if (!count(x, "rigid bodies", "rigid body", 2 * min_text() + (size_t)x->isz[IX_BONE] + fixed,
               &n))
        return false;
    x->m->counts[PK_MSEC_RIGIDS] = n;
    x->m->rigids = calloc(n ? n : 1, sizeof *x->m->rigids);
    *offsets = malloc((n ? n : 1) * sizeof **offsets);
    if (!x->m->rigids || !*offsets) {
        pk_error(x->log, PK_E_NO_MEMORY, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        pk_model_rigid *rb = &x->m->rigids[i];
        (*offsets)[i] = (int64_t)x->r.pos;
        set_what(x, "rigid body %zu", i);
        if (!text(x, &rb->name, "name") || !text(x, &rb->name_en, "English name"))
            return false;
        set_what(x, "rigid body %zu \"%s\"", i, rb->name);
        if (!idx(x, IX_BONE, &rb->bone, "bone index"))
            return false;
        const uint8_t *p = pki_rd_take(&x->r, fixed);
        if (!p)
            return short_read(x, "shape and physics");
        rb->group = p[0];
        rb->mask = pki_get_u16(p + 1);
        rb->shape = p[3];
        pki_get_f32s(p + 4, rb->size, 3);
        pki_get_f32s(p + 16, rb->pos, 3);
        pki_get_f32s(p + 28, rb->rot, 3);
        rb->mass = pki_get_f32(p + 40);
        rb->linear_damping = pki_get_f32(p + 44);
        rb->angular_damping = pki_get_f32(p + 48);
        rb->restitution = pki_get_f32(p + 52);
        rb->friction = pki_get_f32(p + 56);
        rb->mode = p[60];
        x->m->nrigids = i + 1;
    }
    return true;
}

static bool joints(px *x)
{
    size_t n, fixed = 1 + 2 * (size_t)x->isz[IX_RIGID] + 96;
    if (!count(x, "joints", "joint", 2 * min_text() + fixed, &n))
        return false;
    x->m->counts[PK_MSEC_JOINTS] = n;
    for (size_t i = 0; i < n; i++) {
        set_what(x, "joint %zu", i);
        if (!text(x, NULL, "name") || !text(x, NULL, "English name") ||
            !skip(x, fixed, "kind, bodies and limits"))
            return false;
    }
    return true;
}

static bool soft_bodies(px *x)
{
    size_t n;
    /* shape, material, group, mask, flags, link distance, clusters, mass,
     * margin, aero model, 12 + 6 config floats, 4 iterations, 3 floats */
    size_t fixed = 1 + (size_t)x->isz[IX_MATERIAL] + 1 + 2 + 1 + 4 + 4 + 4 + 4 + 4 + 72 + 16 + 12;
    if (!count(x, "soft bodies", "soft body", 2 * min_text() + fixed + 8, &n))
        return false;
    x->m->counts[PK_MSEC_SOFTBODIES] = n;
    size_t anchor = (size_t)x->isz[IX_RIGID] + (size_t)x->isz[IX_VERTEX] + 1;
    for (size_t i = 0; i < n; i++) {
        set_what(x, "soft body %zu", i);
        if (!text(x, NULL, "name") || !text(x, NULL, "English name") ||
            !skip(x, fixed, "shape and physics"))
            return false;
        for (int part = 0; part < 2; part++) {
            size_t size = part == 0 ? anchor : (size_t)x->isz[IX_VERTEX];
            size_t at = x->r.pos;
            int32_t k;
            if (!pki_rd_i32(&x->r, &k))
                return short_read(x, part == 0 ? "anchor count" : "pin count");
            if (k < 0 || !pki_rd_fits(&x->r, (uint64_t)k, size))
                return fail_at(x, at, "%d %s%s %s not fit in the %zu byte%s left", (int)k,
                               part == 0 ? "anchor" : "pin", PLURAL_S(k), DOES(k),
                               pki_rd_left(&x->r), PLURAL_S(pki_rd_left(&x->r)));
            pki_rd_skip(&x->r, (size_t)k * size);
        }
    }
    return true;
}

pk_model *pk_pmx_read(const void *data, size_t len, pk_log *log)
{
    px x;
    memset(&x, 0, sizeof x);
    x.r = pki_rd_init(data, len);
    x.log = log;
    x.m = pki_model_alloc(PK_FMT_PMX);
    if (!x.m) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return NULL;
    }
    int64_t *bone_off = NULL, *frame_off = NULL, *rigid_off = NULL;
    bool ok = header(&x) && vertices(&x) && faces(&x) && textures(&x) && materials(&x) &&
              bones(&x, &bone_off) && morphs(&x) && frames(&x, &frame_off) &&
              rigids(&x, &rigid_off) && joints(&x);
    if (ok && x.v21 && pki_rd_left(&x.r) > 0)
        ok = soft_bodies(&x);
    if (ok && pki_rd_left(&x.r) > 0)
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, (int64_t)x.r.pos, 0, 0,
                   "%zu byte%s after the last section ignored", pki_rd_left(&x.r),
                   PLURAL_S(pki_rd_left(&x.r)));
    if (ok) {
        pki_model_offsets off = {bone_off, frame_off, rigid_off};
        ok = pki_model_finish(x.m, &off, log) == 0;
    }
    free(bone_off);
    free(frame_off);
    free(rigid_off);
    if (!ok) {
        pk_model_free(x.m);
        return NULL;
    }
    return x.m;
}
