/* bytes.h — little-endian byte access and a bounds-checked read cursor
 * (internal; shared by every binary reader: VMD, hybrid VPD, PMX, PMD).
 *
 * Two levels, as the readers use them:
 *  - pki_get_u32 / pki_get_f32 / pki_put_u32 ... decode or encode at a raw
 *    pointer with no check: for records whose whole size the caller has
 *    already checked against the bytes left (one check per record, not
 *    per field).
 *  - pki_rd (the cursor): every take is checked; `pos` never passes `len`,
 *    and a failed take leaves the cursor where it was, so the caller can
 *    report the exact offset of the field that did not fit.
 * File bytes are never cast to structs or to vector types (alignment):
 * values are assembled byte by byte or copied with memcpy.
 */
#ifndef PKI_COMMON_BYTES_H
#define PKI_COMMON_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PKI_HOST_LE 1 /* the files' byte order: float arrays copy as they are */
#else
#define PKI_HOST_LE 0
#endif

static inline uint16_t pki_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pki_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline int32_t pki_get_i32(const uint8_t *p)
{
    uint32_t u = pki_get_u32(p);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static inline float pki_get_f32(const uint8_t *p)
{
    uint32_t u = pki_get_u32(p);
    float f;
    memcpy(&f, &u, sizeof f); /* bit-exact: NaN payloads survive */
    return f;
}

static inline void pki_get_f32s(const uint8_t *p, float *dst, int n)
{
    if (PKI_HOST_LE) {
        memcpy(dst, p, 4 * (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++)
        dst[i] = pki_get_f32(p + 4 * i);
}

static inline uint8_t *pki_put_u32(uint8_t *w, uint32_t v)
{
    w[0] = (uint8_t)v;
    w[1] = (uint8_t)(v >> 8);
    w[2] = (uint8_t)(v >> 16);
    w[3] = (uint8_t)(v >> 24);
    return w + 4;
}

static inline uint8_t *pki_put_f32s(uint8_t *w, const float *src, int n)
{
    if (PKI_HOST_LE) {
        memcpy(w, src, 4 * (size_t)n);
        return w + 4 * n;
    }
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &src[i], sizeof u);
        w = pki_put_u32(w, u);
    }
    return w;
}

/* The bounds-checked cursor over data[0..len). */
typedef struct pki_rd {
    const uint8_t *data;
    size_t len, pos;
} pki_rd;

static inline pki_rd pki_rd_init(const void *data, size_t len)
{
    pki_rd r = {(const uint8_t *)data, len, 0};
    return r;
}

static inline size_t pki_rd_left(const pki_rd *r)
{
    return r->len - r->pos;
}

/* The next n bytes, advancing past them; NULL (cursor unchanged) when
 * fewer than n are left. */
static inline const uint8_t *pki_rd_take(pki_rd *r, size_t n)
{
    if (n > pki_rd_left(r))
        return NULL;
    const uint8_t *p = r->data + r->pos;
    r->pos += n;
    return p;
}

/* Typed takes: false (cursor unchanged, *out untouched) when short. */
static inline bool pki_rd_u8(pki_rd *r, uint8_t *out)
{
    const uint8_t *p = pki_rd_take(r, 1);
    if (!p)
        return false;
    *out = p[0];
    return true;
}

static inline bool pki_rd_u16(pki_rd *r, uint16_t *out)
{
    const uint8_t *p = pki_rd_take(r, 2);
    if (!p)
        return false;
    *out = pki_get_u16(p);
    return true;
}

static inline bool pki_rd_u32(pki_rd *r, uint32_t *out)
{
    const uint8_t *p = pki_rd_take(r, 4);
    if (!p)
        return false;
    *out = pki_get_u32(p);
    return true;
}

static inline bool pki_rd_i32(pki_rd *r, int32_t *out)
{
    const uint8_t *p = pki_rd_take(r, 4);
    if (!p)
        return false;
    *out = pki_get_i32(p);
    return true;
}

static inline bool pki_rd_f32(pki_rd *r, float *out)
{
    const uint8_t *p = pki_rd_take(r, 4);
    if (!p)
        return false;
    *out = pki_get_f32(p);
    return true;
}

static inline bool pki_rd_f32s(pki_rd *r, float *out, int n)
{
    const uint8_t *p = pki_rd_take(r, 4 * (size_t)n);
    if (!p)
        return false;
    pki_get_f32s(p, out, n);
    return true;
}

/* Skips n bytes; false (cursor unchanged) when fewer are left. */
static inline bool pki_rd_skip(pki_rd *r, size_t n)
{
    return pki_rd_take(r, n) != NULL;
}

/* True when count records of `size` bytes each fit in what is left:
 * the check to make before allocating for a count read from the file
 * (no overflow: count * size is never computed when it would wrap). */
static inline bool pki_rd_fits(const pki_rd *r, uint64_t count, size_t size)
{
    return size == 0 || count <= pki_rd_left(r) / size;
}

#endif
