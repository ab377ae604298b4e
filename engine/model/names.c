/*
 * names.c — interned CP932 names and the CP932 <-> UTF-8 edge.
 *
 * A motion has tens of thousands of keys but only a few hundred distinct
 * names, so every key holds a pk_name_id and each distinct byte string is
 * stored and decoded exactly once.  Storage is a chunked arena (pointers
 * handed out stay valid) plus an open-addressing hash index.
 *
 * Decoding uses CP932 (Windows-31J: glibc iconv "CP932", Windows code page
 * 932, through the platform edge), never "SHIFT_JIS", which maps 0x5C to
 * YEN SIGN and rejects NEC/IBM extension characters (doc/formats.md §4.1).  Bytes that do not
 * decode — typically a lead byte left alone when MMD cut a name at 15 or 19 bytes — are shown as
 * the text \xNN so the UTF-8 form is always valid and the raw bytes are never lost.
 */
#include "common/grow.h"
#include "posekit.h"
#include "model/names.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    const uint8_t *raw;
    const char *utf8;
    uint32_t len;
    uint32_t hash;
    bool clean;
} entry;

typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    uint8_t data[];
} chunk;

struct pk_names {
    entry *v;
    size_t n, cap;
    uint32_t *index;  /* id + 1, 0 = empty slot */
    size_t index_cap; /* power of two */
    chunk *arena;
    pki_os_cp932 *conv; /* opened with the first name */
};

#define CHUNK_SIZE 16384

static uint32_t hash_bytes(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static void *arena_alloc(pk_names *t, size_t n)
{
    chunk *c = t->arena;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
        c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->size = size;
        c->used = 0;
        c->next = t->arena;
        t->arena = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

pk_names *pk_names_new(void)
{
    pk_names *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    return t;
}

void pk_names_free(pk_names *t)
{
    if (!t)
        return;
    for (chunk *c = t->arena; c;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    pki_os_cp932_close(t->conv);
    free(t->v);
    free(t->index);
    free(t);
}

size_t pk_names_count(const pk_names *t)
{
    return t ? t->n : 0;
}

static long lookup(const pk_names *t, const uint8_t *raw, size_t len, uint32_t h)
{
    if (!t->index_cap)
        return -1;
    size_t mask = t->index_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t slot = t->index[i];
        if (!slot)
            return -1;
        const entry *e = &t->v[slot - 1];
        if (e->hash == h && e->len == len && memcmp(e->raw, raw, len) == 0)
            return (long)(slot - 1);
    }
}

static bool grow_index(pk_names *t)
{
    size_t cap = t->index_cap ? t->index_cap * 2 : 64;
    uint32_t *idx = calloc(cap, sizeof *idx);
    if (!idx)
        return false;
    for (size_t id = 0; id < t->n; id++) {
        size_t i = t->v[id].hash & (cap - 1);
        while (idx[i])
            i = (i + 1) & (cap - 1);
        idx[i] = (uint32_t)id + 1;
    }
    free(t->index);
    t->index = idx;
    t->index_cap = cap;
    return true;
}

/* Decodes raw CP932 into dst (UTF-8), escaping undecodable bytes.  dst
 * must hold 4*len+1 bytes (a CP932 byte never becomes more than 3 UTF-8
 * bytes per byte, and an escape is 4 bytes per byte).  Returns the length. */
static int utf8_to_cp932(const char *utf8, size_t n, bool escapes, uint8_t **out, size_t *out_len);

static size_t decode_into(pki_os_cp932 *cd, const uint8_t *raw, size_t len, char *dst, bool *clean)
{
    size_t out = 0;
    bool ok = true;
    size_t i = 0;
    while (i < len) {
        if (raw[i] < 0x80 && raw[i] != 0) { /* ASCII is identical in CP932 */
            dst[out++] = (char)raw[i++];
            continue;
        }
        /* One character: a lead byte plus, when it has one, a trail byte. */
        size_t clen = 1;
        uint8_t b = raw[i];
        if (((b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC)) && i + 1 < len)
            clen = 2;
        char tmp[8];
        int r = b != 0 ? pki_os_cp932_decode(cd, raw + i, clen, tmp) : -1;
        if (r > 0) {
            memcpy(dst + out, tmp, (size_t)r);
            out += (size_t)r;
            i += clen;
        } else {
            /* Escape one byte and resynchronise on the next. */
            out += (size_t)sprintf(dst + out, "\\x%02X", b);
            i++;
            ok = false;
        }
    }
    dst[out] = '\0';
    if (clean)
        *clean = ok;
    return out;
}

pk_name_id pk_names_find(const pk_names *t, const void *raw, size_t len)
{
    if (!t)
        return PK_NO_NAME;
    long id = lookup(t, raw, len, hash_bytes(raw, len));
    return id < 0 ? PK_NO_NAME : (pk_name_id)id;
}

pk_name_id pk_names_intern(pk_names *t, const void *raw, size_t len)
{
    if (!t || len > UINT32_MAX / 8)
        return PK_NO_NAME;
    uint32_t h = hash_bytes(raw, len);
    long found = lookup(t, raw, len, h);
    if (found >= 0)
        return (pk_name_id)found;
    if (t->n >= UINT32_MAX - 1)
        return PK_NO_NAME;
    if ((t->n + 1) * 2 > t->index_cap && !grow_index(t))
        return PK_NO_NAME;
    if (pki_grow_reserve(&t->v, &t->cap, t->n + 1, sizeof *t->v) != 0)
        return PK_NO_NAME;
    if (!t->conv)
        t->conv = pki_os_cp932_open();
    uint8_t *copy = arena_alloc(t, len + 1);
    char *utf8 = arena_alloc(t, 4 * len + 1);
    if (!copy || !utf8)
        return PK_NO_NAME;
    if (len)
        memcpy(copy, raw, len);
    copy[len] = 0;
    entry *e = &t->v[t->n];
    e->raw = copy;
    e->len = (uint32_t)len;
    e->hash = h;
    decode_into(t->conv, copy, len, utf8, &e->clean);
    e->utf8 = utf8;
    pk_name_id id = (pk_name_id)t->n++;
    size_t mask = t->index_cap - 1;
    size_t i = h & mask;
    while (t->index[i])
        i = (i + 1) & mask;
    t->index[i] = id + 1;
    return id;
}

const uint8_t *pk_names_raw(const pk_names *t, pk_name_id id, size_t *len)
{
    if (!t || id >= t->n) {
        if (len)
            *len = 0;
        return (const uint8_t *)"";
    }
    if (len)
        *len = t->v[id].len;
    return t->v[id].raw;
}

const char *pk_names_utf8(const pk_names *t, pk_name_id id)
{
    if (!t || id >= t->n)
        return "";
    return t->v[id].utf8;
}

bool pk_names_clean(const pk_names *t, pk_name_id id)
{
    return t && id < t->n && t->v[id].clean;
}

char *pk_cp932_to_utf8(const void *raw, size_t len, bool *clean)
{
    if (len > SIZE_MAX / 4 - 1)
        return NULL;
    char *dst = malloc(4 * len + 1);
    if (!dst)
        return NULL;
    pki_os_cp932 *cd = pki_os_cp932_open();
    decode_into(cd, raw, len, dst, clean);
    pki_os_cp932_close(cd);
    return dst;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int pk_utf8_to_cp932(const char *utf8, uint8_t **out, size_t *out_len)
{
    return utf8_to_cp932(utf8, strlen(utf8), true, out, out_len);
}

int pki_utf8_to_cp932_exact(const char *utf8, size_t n, uint8_t **out, size_t *out_len)
{
    return utf8_to_cp932(utf8, n, false, out, out_len);
}

bool pki_cp932_valid(const void *raw, size_t len)
{
    const uint8_t *p = raw;
    pki_os_cp932 *cd = NULL;
    bool ok = true;
    for (size_t i = 0; i < len && ok;) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        if (!cd && !(cd = pki_os_cp932_open()))
            return false;
        uint8_t b = p[i];
        size_t clen = ((b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC)) && i + 1 < len ? 2 : 1;
        char tmp[8];
        ok = pki_os_cp932_decode(cd, p + i, clen, tmp) > 0;
        i += clen;
    }
    pki_os_cp932_close(cd);
    return ok;
}

/* UTF-8 utf8[0..n) to CP932; escapes: decode \xNN back to its byte. */
static int utf8_to_cp932(const char *utf8, size_t n, bool escapes, uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    uint8_t *dst = malloc(n + 1); /* CP932 is never longer than UTF-8 */
    if (!dst)
        return -1;
    pki_os_cp932 *cd = pki_os_cp932_open();
    if (!cd) {
        free(dst);
        return -1;
    }
    size_t o = 0, i = 0;
    int rc = 0;
    while (i < n) {
        /* \xNN: a byte that did not decode, given back verbatim. */
        if (escapes && utf8[i] == '\\' && i + 4 <= n && utf8[i + 1] == 'x' &&
            hexval(utf8[i + 2]) >= 0 && hexval(utf8[i + 3]) >= 0) {
            dst[o++] = (uint8_t)(hexval(utf8[i + 2]) * 16 + hexval(utf8[i + 3]));
            i += 4;
            continue;
        }
        if ((unsigned char)utf8[i] < 0x80) {
            dst[o++] = (uint8_t)utf8[i++];
            continue;
        }
        /* One UTF-8 sequence at a time so escapes can interleave. */
        size_t seq = 1;
        unsigned char c = (unsigned char)utf8[i];
        if (c >= 0xF0)
            seq = 4;
        else if (c >= 0xE0)
            seq = 3;
        else if (c >= 0xC0)
            seq = 2;
        if (i + seq > n) {
            rc = -1;
            break;
        }
        uint8_t enc[4];
        int r = pki_os_cp932_encode(cd, utf8 + i, seq, enc);
        if (r <= 0 || o + (size_t)r > n) {
            rc = -1;
            break;
        }
        memcpy(dst + o, enc, (size_t)r);
        o += (size_t)r;
        i += seq;
    }
    pki_os_cp932_close(cd);
    if (rc) {
        free(dst);
        return -1;
    }
    *out = dst;
    *out_len = o;
    return 0;
}

size_t pk_cp932_boundary(const void *raw, size_t len)
{
    const uint8_t *p = raw;
    size_t i = 0;
    while (i < len) {
        uint8_t b = p[i];
        bool lead = (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC);
        if (lead) {
            if (i + 1 >= len)
                return i; /* a lone lead byte at the end */
            i += 2;
        } else {
            i++;
        }
    }
    return len;
}

bool pki_cp932_is_boundary(const uint8_t *raw, size_t len, size_t pos)
{
    size_t i = 0;
    while (i < pos && i < len)
        i += (raw[i] >= 0x81 && raw[i] <= 0x9F) || (raw[i] >= 0xE0 && raw[i] <= 0xFC) ? 2 : 1;
    return i == pos;
}

/* ---- MMD's cut names ---- */

static const size_t name_fields[2] = {PK_VMD_NAME_BYTES, PK_VPD_NAME_BYTES};

size_t pki_name_cuts(const uint8_t *full, size_t len, size_t cuts[4])
{
    size_t n = 0;
    for (size_t f = 0; f < 2; f++) {
        size_t field = name_fields[f];
        if (len <= field)
            continue;
        size_t two[2] = {field, pk_cp932_boundary(full, field)};
        for (size_t k = 0; k < 2; k++) {
            bool seen = false;
            for (size_t i = 0; i < n; i++)
                seen |= cuts[i] == two[k];
            if (!seen && two[k] > 0)
                cuts[n++] = two[k];
        }
    }
    return n;
}

bool pki_name_stored_as(const uint8_t *full, size_t flen, const uint8_t *stored, size_t slen,
                        size_t field)
{
    if (flen <= field)
        return slen == flen && memcmp(full, stored, flen) == 0;
    if (slen != field && slen != pk_cp932_boundary(full, field))
        return false;
    return memcmp(full, stored, slen) == 0;
}

bool pki_name_matches(const uint8_t *full, size_t flen, const uint8_t *stored, size_t slen)
{
    if (slen == flen)
        return memcmp(full, stored, flen) == 0;
    size_t cuts[4];
    size_t n = pki_name_cuts(full, flen, cuts);
    for (size_t i = 0; i < n; i++)
        if (slen == cuts[i] && memcmp(full, stored, slen) == 0)
            return true;
    return false;
}

pk_name_id pki_names_find_stored(const pk_names *t, const uint8_t *full, size_t len)
{
    pk_name_id id = pk_names_find(t, full, len);
    size_t cuts[4];
    size_t n = id == PK_NO_NAME ? pki_name_cuts(full, len, cuts) : 0;
    for (size_t i = 0; i < n && id == PK_NO_NAME; i++)
        id = pk_names_find(t, full, cuts[i]);
    return id;
}

pk_name_id pk_names_intern_utf8(pk_names *t, const char *utf8, size_t max_bytes, const char *what,
                                pk_log *log)
{
    uint8_t *raw;
    size_t len;
    if (pk_utf8_to_cp932(utf8, &raw, &len) != 0) {
        pk_error(log, PK_E_UNSUPPORTED, "%s name \"%s\" cannot be encoded in CP932", what, utf8);
        return PK_NO_NAME;
    }
    if (len > max_bytes) {
        pk_error(log, PK_E_UNSUPPORTED, "%s name \"%s\" is %zu bytes in CP932; the field holds %zu",
                 what, utf8, len, max_bytes);
        free(raw);
        return PK_NO_NAME;
    }
    pk_name_id id = pk_names_intern(t, raw, len);
    free(raw);
    if (id == PK_NO_NAME)
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
    return id;
}

pk_names *pk_names_clone(const pk_names *t)
{
    pk_names *c = pk_names_new();
    if (!c || !t)
        return c;
    for (size_t i = 0; i < t->n; i++) {
        if (pk_names_intern(c, t->v[i].raw, t->v[i].len) != (pk_name_id)i) {
            pk_names_free(c);
            return NULL;
        }
    }
    return c;
}

/* ------------------------------------------------------ cutting names */

/* The id of name id cut to at most width bytes on a CP932 character
 * boundary (interned in t); id itself when it fits; PK_NO_NAME on OOM. */
static pk_name_id names_cut(pk_names *t, pk_name_id id, size_t width)
{
    size_t len;
    const uint8_t *raw = pk_names_raw(t, id, &len);
    if (!raw || len <= width)
        return id;
    return pk_names_intern(t, raw, pk_cp932_boundary(raw, width));
}

/* One name of a pose cut for the VMD field, with its warning; the id of
 * the name to use, PK_NO_NAME on OOM. */
static pk_name_id cut_one(pk_pose *p, pk_name_id id, const char *what, pk_log *log)
{
    size_t len;
    pk_names_raw(p->names, id, &len);
    pk_name_id cut = names_cut(p->names, id, PK_VMD_NAME_BYTES);
    if (cut == PK_NO_NAME) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return PK_NO_NAME;
    }
    if (cut != id) {
        size_t clen;
        pk_names_raw(p->names, cut, &clen);
        pk_warning(log, PK_E_LOSS,
                   "%s '%s' (%zu bytes) cut to '%s' (%zu bytes) for the VMD field, as MMD "
                   "cuts it (--cut-names)",
                   what, pk_names_utf8(p->names, id), len, pk_names_utf8(p->names, cut), clen);
    }
    return cut;
}

long pk_pose_cut_names(pk_pose *p, pk_log *log)
{
    size_t n = pk_names_count(p->names);
    /* each distinct name is cut (and warned about) once */
    pk_name_id *map = malloc((n ? n : 1) * sizeof *map);
    if (!map) {
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        map[i] = PK_NO_NAME;
    long cut = 0;
    for (size_t k = 0; k < p->nbones + p->nmorphs; k++) {
        bool bone = k < p->nbones;
        pk_name_id *name = bone ? &p->bones[k].name : &p->morphs[k - p->nbones].name;
        if (*name >= n)
            continue;
        if (map[*name] == PK_NO_NAME) {
            map[*name] = cut_one(p, *name, bone ? "bone" : "morph", log);
            if (map[*name] == PK_NO_NAME) {
                free(map);
                return -1;
            }
            cut += map[*name] != *name;
        }
        *name = map[*name];
    }
    free(map);
    return cut;
}

pk_name_id pki_model_bone_vmd_name(pk_names *t, const pk_model *m, size_t i, bool make)
{
    size_t len;
    const uint8_t *raw = pki_model_bone_raw(m, i, &len);
    if (!raw)
        return PK_NO_NAME;
    if (len > PK_VMD_NAME_BYTES)
        len = pk_cp932_boundary(raw, PK_VMD_NAME_BYTES);
    pk_name_id id = pk_names_find(t, raw, len);
    if (id == PK_NO_NAME && make)
        id = pk_names_intern(t, raw, len);
    return id;
}
