/*
 * pmd.c — PMD 1.0 models, read only (doc/formats.md §11.2).
 *
 * Fixed-size records, CP932 names in NUL-terminated fields.  Bone kinds
 * become the PMX flags posekit works with (doc/commands.md "Models (PMX, PMD)": kind 1 and 2
 * are movable, 5 and 9 inherit a rotation, 8 has a fixed axis); the IK
 * list is attached to its IK bones (angle limit = stored value x 4, as MMD
 * uses it).  Morph 0, the base, is not a morph a motion can key and is
 * not kept.  Display frames: "Root" (the first bone), "表情" (the morph
 * list), then the named bone frames.  The optional English, toon and
 * physics extensions are read when present; rigid bodies are kept, their
 * positions in model space as PMX has them.
 */
#include "posekit.h"
#include "common/bytes.h"
#include "model/skeleton.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts in messages: "1 byte left", "2 bytes left"; "1 record does not
 * fit", "2 records do not". */
#define PLURAL_S(n) ((n) == 1 ? "" : "s")
#define DOES(n) ((n) == 1 ? "does" : "do")

typedef struct pd {
    pki_rd r;
    pk_log *log;
    pk_model *m;
    pk_names *text; /* CP932 -> UTF-8 for texts that are not bone or morph names */
} pd;

static bool fail(pd *d, size_t at, const char *fmt, ...) PK_PRINTF(3, 4);
static bool fail(pd *d, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pk_log_vadd(d->log, PK_ERROR, PK_E_DAMAGED, (int64_t)at, 0, 0, fmt, ap);
    va_end(ap);
    return false;
}

static bool ends(pd *d, const char *what)
{
    size_t left = pki_rd_left(&d->r);
    return fail(d, d->r.pos, "%s: the file ends here (%zu byte%s left)", what, left,
                PLURAL_S(left));
}

static size_t field_len(const uint8_t *p, size_t n)
{
    const uint8_t *z = memchr(p, 0, n);
    return z ? (size_t)(z - p) : n;
}

/* A NUL-terminated CP932 field as UTF-8 in the arena (trailing CR/LF, which
 * PMD frame names carry, dropped). */
static const char *field_utf8(pd *d, const uint8_t *p, size_t n)
{
    size_t l = field_len(p, n);
    while (l && (p[l - 1] == '\n' || p[l - 1] == '\r'))
        l--;
    pk_name_id id = pk_names_intern(d->text, p, l);
    if (id == PK_NO_NAME)
        return NULL;
    const char *u = pk_names_utf8(d->text, id);
    return pki_model_str(d->m, u, strlen(u));
}

/* A bone or morph name: interned as CP932 in the model's names. */
static bool name_field(pd *d, const uint8_t *p, const char **utf8, pk_name_id *id)
{
    size_t l = field_len(p, 20);
    *id = pk_names_intern(d->m->names, p, l);
    if (*id == PK_NO_NAME)
        return false;
    const char *u = pk_names_utf8(d->m->names, *id);
    *utf8 = pki_model_str(d->m, u, strlen(u));
    return *utf8 != NULL;
}

/* count records of size bytes: checked against what is left. */
static bool section(pd *d, size_t at, uint64_t n, size_t size, const char *what)
{
    if (pki_rd_fits(&d->r, n, size))
        return true;
    size_t left = pki_rd_left(&d->r);
    return fail(d, at, "%s: %llu record%s of %zu bytes %s not fit in the %zu byte%s left", what,
                (unsigned long long)n, PLURAL_S(n), size, DOES(n), left, PLURAL_S(left));
}

static bool oom(pd *d)
{
    pk_error(d->log, PK_E_NO_MEMORY, "out of memory");
    return false;
}

static void flags_from_kind(pk_model_bone *b, uint8_t kind, int16_t tail, int16_t ik)
{
    uint16_t f = PK_BONE_ROTATE | PK_BONE_TAIL_IS_BONE;
    /* A chain's end has tail 0xFFFF in the format's description, but
     * PMD writers (PMDEditor, PMX-to-PMD converters: every bone of the
     * corpus's pmd_gene whose PMX tail is an offset) write 0.  Bone 0 is
     * the root, never another bone's tail: 0 means none too. */
    b->tail_bone = tail == 0 ? -1 : tail;
    b->append_parent = -1;
    b->ik_target = -1;
    switch (kind) {
    case 0: /* rotate */
    case 4: /* under IK */
        f |= PK_BONE_VISIBLE | PK_BONE_OPERABLE;
        break;
    case 1: /* rotate + move */
    case 2: /* IK */
        f |= PK_BONE_MOVE | PK_BONE_VISIBLE | PK_BONE_OPERABLE;
        break;
    case 5: /* rotation influenced: the influencing bone in the IK field */
        f |= PK_BONE_APPEND_ROTATE;
        b->append_parent = ik;
        b->append_ratio = 1.0f;
        break;
    case 8: /* twist: the axis towards the tail bone, set by the caller */
        f |= PK_BONE_VISIBLE | PK_BONE_OPERABLE | PK_BONE_FIXED_AXIS;
        break;
    case 9: /* rotation follow: the bone in the tail field, ratio = IK field / 100 */
        f |= PK_BONE_APPEND_ROTATE;
        b->append_parent = tail;
        b->append_ratio = (float)ik / 100.0f;
        b->tail_bone = -1;
        break;
    default: /* 3 unknown, 6 IK target, 7 hidden */
        break;
    }
    b->flags = f;
}

static bool bones(pd *d, int64_t **offsets)
{
    size_t at = d->r.pos;
    uint16_t n;
    if (!pki_rd_u16(&d->r, &n))
        return ends(d, "bone count");
    if (!section(d, at, n, 39, "bones"))
        return false;
    pk_model *m = d->m;
    m->counts[PK_MSEC_BONES] = n;
    m->bones = calloc(n ? n : 1, sizeof *m->bones);
    *offsets = malloc((n ? n : 1) * sizeof **offsets);
    if (!m->bones || !*offsets)
        return oom(d);
    m->nbones = n;
    for (size_t i = 0; i < n; i++) {
        (*offsets)[i] = (int64_t)d->r.pos;
        const uint8_t *p = pki_rd_take(&d->r, 39); /* fits: checked above */
        pk_model_bone *b = &m->bones[i];
        if (!name_field(d, p, &b->name, &b->cp932))
            return oom(d);
        b->name_en = "";
        int16_t parent = (int16_t)pki_get_u16(p + 20), tail = (int16_t)pki_get_u16(p + 22);
        int16_t ik = (int16_t)pki_get_u16(p + 25);
        b->parent = parent;
        b->pmd_kind = p[24];
        pki_get_f32s(p + 27, b->pos, 3);
        flags_from_kind(b, p[24], tail, ik);
    }
    /* Twist axes: the direction to the tail bone, once every position is known. */
    for (size_t i = 0; i < n; i++) {
        pk_model_bone *b = &m->bones[i];
        if (!(b->flags & PK_BONE_FIXED_AXIS) || b->tail_bone < 0 || b->tail_bone >= (int32_t)n)
            continue;
        float v[3], l = 0;
        for (int k = 0; k < 3; k++) {
            v[k] = m->bones[b->tail_bone].pos[k] - b->pos[k];
            l += v[k] * v[k];
        }
        l = sqrtf(l);
        for (int k = 0; k < 3; k++)
            b->fixed_axis[k] = l > 0 ? v[k] / l : 0;
    }
    return true;
}

static bool iks(pd *d)
{
    size_t at = d->r.pos;
    uint16_t n;
    if (!pki_rd_u16(&d->r, &n))
        return ends(d, "IK count");
    if (!section(d, at, n, 11, "IK chains"))
        return false;
    for (size_t i = 0; i < n; i++) {
        size_t rec = d->r.pos;
        const uint8_t *p = pki_rd_take(&d->r, 11);
        if (!p)
            return ends(d, "IK chain");
        int16_t bone = (int16_t)pki_get_u16(p), target = (int16_t)pki_get_u16(p + 2);
        uint8_t nl = p[4];
        const uint8_t *links = pki_rd_take(&d->r, 2 * (size_t)nl);
        if (!links)
            return ends(d, "IK links");
        if (bone < 0 || (size_t)bone >= d->m->nbones)
            return fail(d, rec, "IK chain %zu: its bone %d is outside the model (%zu bones)", i,
                        bone, d->m->nbones);
        pk_model_bone *b = &d->m->bones[bone];
        if (b->flags & PK_BONE_IK) {
            pk_log_add(d->log, PK_WARNING, PK_E_DAMAGED, (int64_t)rec, 0, 0,
                       "IK chain %zu: bone %d \"%s\" already has an IK chain; this one is ignored",
                       i, bone, b->name);
            continue;
        }
        b->flags |= PK_BONE_IK;
        b->ik_target = target;
        b->ik_loops = pki_get_u16(p + 5);
        b->ik_limit = 4.0f * pki_get_f32(p + 7);
        b->ik_links = pki_model_mem(d->m, (size_t)nl * sizeof *b->ik_links);
        if (!b->ik_links && nl)
            return oom(d);
        b->nik_links = nl;
        for (size_t k = 0; k < nl; k++) {
            memset(&b->ik_links[k], 0, sizeof b->ik_links[k]);
            b->ik_links[k].bone = (int16_t)pki_get_u16(links + 2 * k);
        }
    }
    return true;
}

static bool morphs(pd *d, size_t *nraw)
{
    size_t at = d->r.pos;
    uint16_t n;
    if (!pki_rd_u16(&d->r, &n))
        return ends(d, "morph count");
    if (!section(d, at, n, 25, "morphs"))
        return false;
    *nraw = n;
    pk_model *m = d->m;
    m->morphs = calloc(n ? n : 1, sizeof *m->morphs);
    if (!m->morphs)
        return oom(d);
    for (size_t i = 0; i < n; i++) {
        size_t rec = d->r.pos;
        const uint8_t *p = pki_rd_take(&d->r, 25);
        if (!p)
            return ends(d, "morph");
        uint32_t k = pki_get_u32(p + 20);
        if (!pki_rd_fits(&d->r, k, 16))
            return fail(d, rec + 20,
                        "morph %zu: %u vert%s of 16 bytes %s not fit in the %zu byte%s left", i, k,
                        k == 1 ? "ex" : "ices", DOES(k), pki_rd_left(&d->r),
                        PLURAL_S(pki_rd_left(&d->r)));
        pki_rd_skip(&d->r, (size_t)k * 16);
        if (p[24] == 0 && i == 0)
            continue; /* the base morph */
        pk_model_morph *mo = &m->morphs[m->nmorphs++];
        if (!name_field(d, p, &mo->name, &mo->cp932))
            return oom(d);
        mo->name_en = "";
        mo->panel = p[24];
        mo->kind = 1; /* vertex */
    }
    m->counts[PK_MSEC_MORPHS] = m->nmorphs;
    return true;
}

/* The rigid bodies (83-byte records): a CP932 name, int16 bone (-1
 * none), group, mask, shape, size, position relative to the bone's rest
 * position (bone 0's when it names none, as MMD places it), rotation, five
 * physics floats, mode.  The position is kept in model space, as PMX
 * stores it; a bone outside the model adds nothing (pki_model_finish warns). */
static bool rigids(pd *d, int64_t **offsets)
{
    size_t at = d->r.pos;
    uint32_t n;
    if (!pki_rd_u32(&d->r, &n))
        return ends(d, "rigid body count");
    if (!section(d, at, n, 83, "rigid bodies"))
        return false;
    pk_model *m = d->m;
    m->counts[PK_MSEC_RIGIDS] = n;
    m->rigids = calloc(n ? n : 1, sizeof *m->rigids);
    *offsets = malloc((n ? n : 1) * sizeof **offsets);
    if (!m->rigids || !*offsets)
        return oom(d);
    for (size_t i = 0; i < n; i++) {
        (*offsets)[i] = (int64_t)d->r.pos;
        const uint8_t *p = pki_rd_take(&d->r, 83); /* fits: checked above */
        if (!p) /* never: section() measured it; tells the compiler p is set */
            return ends(d, "rigid body");
        pk_model_rigid *rb = &m->rigids[i];
        if (!(rb->name = field_utf8(d, p, 20)))
            return oom(d);
        rb->name_en = "";
        rb->bone = (int16_t)pki_get_u16(p + 20);
        rb->group = p[22];
        rb->mask = pki_get_u16(p + 23);
        rb->shape = p[25];
        pki_get_f32s(p + 26, rb->size, 3);
        pki_get_f32s(p + 38, rb->pos, 3);
        pki_get_f32s(p + 50, rb->rot, 3);
        rb->mass = pki_get_f32(p + 62);
        rb->linear_damping = pki_get_f32(p + 66);
        rb->angular_damping = pki_get_f32(p + 70);
        rb->restitution = pki_get_f32(p + 74);
        rb->friction = pki_get_f32(p + 78);
        rb->mode = p[82];
        int32_t base = rb->bone == -1 ? 0 : rb->bone;
        if (base >= 0 && (size_t)base < m->nbones)
            for (int k = 0; k < 3; k++)
                rb->pos[k] += m->bones[base].pos[k];
        m->nrigids = i + 1;
    }
    return true;
}

pk_model *pk_pmd_read(const void *data, size_t len, pk_log *log)
{
    pd d;
    memset(&d, 0, sizeof d);
    d.r = pki_rd_init(data, len);
    d.log = log;
    d.m = pki_model_alloc(PK_FMT_PMD);
    d.text = pk_names_new();
    int64_t *bone_off = NULL, *rigid_off = NULL;
    const uint8_t *frame_names = NULL, *bone_disp = NULL;
    bool ok = false;
    if (!d.m || !d.text) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        goto done;
    }
    pk_model *m = d.m;
    m->encoding = PK_TEXT_CP932;
    /* the signature first: a short file of other bytes is foreign, not
     * a cut PMD */
    size_t have = len < 3 ? len : 3;
    if (have && memcmp(data, "Pmd", have) != 0) {
        fail(&d, 0, "not a PMD file (no \"Pmd\" signature)");
        goto done;
    }
    const uint8_t *h = pki_rd_take(&d.r, 283);
    if (!h) {
        fail(&d, 0, "header: the file ends inside the 283-byte header (%zu byte%s)", len,
             PLURAL_S(len));
        goto done;
    }
    m->version = pki_get_f32(h + 3);
    if (m->version != 1.0f)
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, 3, 0, 0, "PMD version %g (1.0 expected)",
                   (double)m->version);
    if (!(m->name = field_utf8(&d, h + 7, 20)) || !(m->comment = field_utf8(&d, h + 27, 256)))
        goto oom;
    /* vertices, faces, materials: skipped whole */
    static const struct {
        const char *what;
        size_t size;
        pk_model_section sec;
    } skips[3] = {{"vertices", 38, PK_MSEC_VERTICES},
                  {"face indices", 2, PK_MSEC_FACES},
                  {"materials", 70, PK_MSEC_MATERIALS}};
    for (int s = 0; s < 3; s++) {
        size_t at = d.r.pos;
        uint32_t n;
        if (!pki_rd_u32(&d.r, &n)) {
            ends(&d, skips[s].what);
            goto done;
        }
        if (!section(&d, at, n, skips[s].size, skips[s].what))
            goto done;
        pki_rd_skip(&d.r, (size_t)n * skips[s].size);
        m->counts[skips[s].sec] = skips[s].sec == PK_MSEC_FACES ? n / 3 : n;
    }
    size_t nraw_morphs = 0;
    if (!bones(&d, &bone_off) || !iks(&d) || !morphs(&d, &nraw_morphs))
        goto done;
    /* display lists */
    size_t at = d.r.pos;
    uint8_t nmd, nfn;
    if (!pki_rd_u8(&d.r, &nmd)) {
        ends(&d, "morph display count");
        goto done;
    }
    const uint8_t *md = pki_rd_take(&d.r, 2 * (size_t)nmd);
    if (!md) {
        fail(&d, at, "morph display list: %u entr%s %s not fit in the %zu byte%s left", nmd,
             nmd == 1 ? "y" : "ies", DOES(nmd), pki_rd_left(&d.r), PLURAL_S(pki_rd_left(&d.r)));
        goto done;
    }
    at = d.r.pos;
    if (!pki_rd_u8(&d.r, &nfn)) {
        ends(&d, "bone frame count");
        goto done;
    }
    frame_names = pki_rd_take(&d.r, 50 * (size_t)nfn);
    if (!frame_names) {
        fail(&d, at, "bone frame names: %u name%s of 50 bytes %s not fit in the %zu byte%s left",
             nfn, PLURAL_S(nfn), DOES(nfn), pki_rd_left(&d.r), PLURAL_S(pki_rd_left(&d.r)));
        goto done;
    }
    at = d.r.pos;
    uint32_t nbd;
    if (!pki_rd_u32(&d.r, &nbd)) {
        ends(&d, "bone display count");
        goto done;
    }
    if (!section(&d, at, nbd, 3, "bone display list"))
        goto done;
    bone_disp = pki_rd_take(&d.r, 3 * (size_t)nbd);
    /* frames: Root, 表情, then the named ones */
    m->nframes = 2 + (size_t)nfn;
    m->counts[PK_MSEC_FRAMES] = m->nframes;
    m->frames = calloc(m->nframes, sizeof *m->frames);
    if (!m->frames)
        goto oom;
    m->frames[0].name = "Root";
    m->frames[0].name_en = "Root";
    m->frames[0].special = 1;
    m->frames[0].items = pki_model_mem(m, sizeof *m->frames[0].items);
    if (!m->frames[0].items)
        goto oom;
    if (m->nbones) {
        m->frames[0].items[0].kind = 0;
        m->frames[0].items[0].index = 0;
        m->frames[0].nitems = 1;
    }
    m->frames[1].name = "表情";
    m->frames[1].name_en = "Exp";
    m->frames[1].special = 1;
    m->frames[1].items = pki_model_mem(m, (nmd ? nmd : 1) * sizeof *m->frames[1].items);
    if (!m->frames[1].items)
        goto oom;
    for (size_t i = 0; i < nmd; i++) {
        /* PMD counts the base as morph 0; the model does not keep it. */
        m->frames[1].items[i].kind = 1;
        m->frames[1].items[i].index = (int32_t)pki_get_u16(md + 2 * i) - 1;
    }
    m->frames[1].nitems = nmd;
    size_t *fill = calloc((size_t)nfn + 1, sizeof *fill);
    if (!fill)
        goto oom;
    for (size_t i = 0; i < nbd; i++) {
        uint8_t fi = bone_disp[3 * i + 2];
        if (fi >= 1 && fi <= nfn)
            fill[fi]++;
    }
    for (size_t f = 0; f < nfn; f++) {
        pk_model_frame *fr = &m->frames[2 + f];
        fr->name = field_utf8(&d, frame_names + 50 * f, 50);
        fr->name_en = "";
        fr->items = pki_model_mem(m, (fill[f + 1] ? fill[f + 1] : 1) * sizeof *fr->items);
        if (!fr->name || !fr->items) {
            free(fill);
            goto oom;
        }
    }
    for (size_t i = 0; i < nbd; i++) {
        uint8_t fi = bone_disp[3 * i + 2];
        if (fi < 1 || fi > nfn) {
            pk_log_add(log, PK_WARNING, PK_E_DAMAGED, (int64_t)(d.r.pos - 3 * (nbd - i)), 0, 0,
                       "bone display entry %zu: frame %u does not exist (%u frames); ignored", i,
                       fi, nfn);
            continue;
        }
        pk_model_frame *fr = &m->frames[1 + fi];
        fr->items[fr->nitems].kind = 0;
        fr->items[fr->nitems].index = pki_get_u16(bone_disp + 3 * i);
        fr->nitems++;
    }
    free(fill);
    /* English extension */
    uint8_t has_en = 0;
    if (pki_rd_left(&d.r) > 0) {
        pki_rd_u8(&d.r, &has_en);
        if (has_en) {
            at = d.r.pos;
            size_t need =
                276 + 20 * m->nbones + 20 * (nraw_morphs ? nraw_morphs - 1 : 0) + 50 * (size_t)nfn;
            const uint8_t *e = pki_rd_take(&d.r, need);
            if (!e) {
                fail(&d, at, "English names: %zu bytes needed, %zu left", need, pki_rd_left(&d.r));
                goto done;
            }
            m->has_english = true;
            if (!(m->name_en = field_utf8(&d, e, 20)) ||
                !(m->comment_en = field_utf8(&d, e + 20, 256)))
                goto oom;
            e += 276;
            for (size_t i = 0; i < m->nbones; i++, e += 20)
                if (!(m->bones[i].name_en = field_utf8(&d, e, 20)))
                    goto oom;
            /* One English name per morph after morph 0 (the base). */
            bool base_dropped = nraw_morphs > m->nmorphs;
            for (size_t i = 0; i + 1 < nraw_morphs; i++, e += 20) {
                size_t k = base_dropped ? i : i + 1;
                if (k < m->nmorphs && !(m->morphs[k].name_en = field_utf8(&d, e, 20)))
                    goto oom;
            }
            for (size_t f = 0; f < nfn; f++, e += 50)
                if (!(m->frames[2 + f].name_en = field_utf8(&d, e, 50)))
                    goto oom;
        }
    }
    /* toon textures, then physics */
    if (pki_rd_left(&d.r) > 0 && !pki_rd_skip(&d.r, 1000)) {
        ends(&d, "toon texture names (10 x 100 bytes)");
        goto done;
    }
    if (pki_rd_left(&d.r) > 0 && !rigids(&d, &rigid_off))
        goto done;
    if (pki_rd_left(&d.r) > 0) {
        at = d.r.pos;
        uint32_t n;
        if (!pki_rd_u32(&d.r, &n)) {
            ends(&d, "joints");
            goto done;
        }
        if (!section(&d, at, n, 124, "joints"))
            goto done;
        pki_rd_skip(&d.r, (size_t)n * 124);
        m->counts[PK_MSEC_JOINTS] = n;
    }
    if (pki_rd_left(&d.r) > 0)
        pk_log_add(log, PK_WARNING, PK_E_DAMAGED, (int64_t)d.r.pos, 0, 0,
                   "%zu byte%s after the last section ignored", pki_rd_left(&d.r),
                   PLURAL_S(pki_rd_left(&d.r)));
    pki_model_offsets off = {bone_off, NULL, rigid_off};
    ok = pki_model_finish(m, &off, log) == 0;
    goto done;
oom:
    pk_error(log, PK_E_NO_MEMORY, "out of memory");
done:
    free(bone_off);
    free(rigid_off);
    pk_names_free(d.text);
    if (!ok) {
        pk_model_free(d.m);
        return NULL;
    }
    return d.m;
}
