/* pmxgen.h — a small PMX / PMD writer for the model tests: builds files
 * field by field (header globals, texts in either encoding, indices of any
 * size) so each test states the bytes it feeds the reader. */
#ifndef PK_PMXGEN_H
#define PK_PMXGEN_H

#include "posekit.h"

#include <string.h>

enum { PG_VERTEX, PG_TEXTURE, PG_MATERIAL, PG_BONE, PG_MORPH, PG_RIGID };

typedef struct pg {
    pk_buf b;
    int enc;    /* 0 UTF-16LE, 1 UTF-8 */
    int isz[6]; /* index sizes */
} pg;

static inline void pg_u8(pg *g, unsigned v)
{
    pk_buf_putc(&g->b, (uint8_t)v);
}

static inline void pg_u16(pg *g, unsigned v)
{
    pg_u8(g, v & 0xFF);
    pg_u8(g, v >> 8 & 0xFF);
}

static inline void pg_i32(pg *g, int32_t v)
{
    pk_buf_u32le(&g->b, (uint32_t)v);
}

static inline void pg_f32(pg *g, float v)
{
    pk_buf_f32le(&g->b, v);
}

static inline void pg_f3(pg *g, float a, float b, float c)
{
    pg_f32(g, a);
    pg_f32(g, b);
    pg_f32(g, c);
}

static inline void pg_zeros(pg *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pg_u8(g, 0);
}

/* An index of kind k in its size (two's complement for -1). */
static inline void pg_idx(pg *g, int k, int32_t v)
{
    if (g->isz[k] == 1)
        pg_u8(g, (unsigned)v & 0xFF);
    else if (g->isz[k] == 2)
        pg_u16(g, (unsigned)v & 0xFFFF);
    else
        pg_i32(g, v);
}

/* UTF-8 text to the file's encoding (UTF-16LE: BMP and surrogate pairs). */
static inline void pg_text(pg *g, const char *s)
{
    size_t n = strlen(s);
    if (g->enc == 1) {
        pg_i32(g, (int32_t)n);
        pk_buf_append(&g->b, s, n);
        return;
    }
    uint16_t units[512];
    size_t u = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && u < 510) {
        uint32_t c;
        if (*p < 0x80)
            c = *p++;
        else if (*p < 0xE0) {
            c = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
            p += 2;
        } else if (*p < 0xF0) {
            c = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
            p += 3;
        } else {
            c = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
                (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
            p += 4;
        }
        if (c >= 0x10000) {
            c -= 0x10000;
            units[u++] = (uint16_t)(0xD800 + (c >> 10));
            units[u++] = (uint16_t)(0xDC00 + (c & 0x3FF));
        } else {
            units[u++] = (uint16_t)c;
        }
    }
    pg_i32(g, (int32_t)(2 * u));
    for (size_t i = 0; i < u; i++)
        pg_u16(g, units[i]);
}

/* Header: signature, version, globals, the four model texts. */
static inline void pg_header(pg *g, float version, int enc, int extra_uv, const int isz[6])
{
    pk_buf_init(&g->b);
    g->enc = enc;
    memcpy(g->isz, isz, sizeof g->isz);
    pk_buf_append(&g->b, "PMX ", 4);
    pg_f32(g, version);
    pg_u8(g, 8);
    pg_u8(g, (unsigned)enc);
    pg_u8(g, (unsigned)extra_uv);
    for (int i = 0; i < 6; i++)
        pg_u8(g, (unsigned)isz[i]);
    pg_text(g, "テスト");
    pg_text(g, "test");
    pg_text(g, "コメント");
    pg_text(g, "comment");
}

/* A plain bone record: name, English name, position, parent, layer 0,
 * flags (rotate|move|visible|operable unless given), tail offset. */
static inline void pg_bone_simple(pg *g, const char *name, const char *en, float y, int32_t parent)
{
    pg_text(g, name);
    pg_text(g, en);
    pg_f3(g, 0, y, 0);
    pg_idx(g, PG_BONE, parent);
    pg_i32(g, 0);
    pg_u16(g, 0x001E);
    pg_f3(g, 0, 1, 0);
}

/* A rigid body record: names, bone, group, mask, shape, size, position,
 * rotation, mass, the four other physics values (0.5, 0.6, 0.7, 0.8),
 * mode. */
typedef struct pg_rigid_def {
    const char *name, *en;
    int32_t bone;
    unsigned group, mask, shape;
    float size[3], pos[3], rot[3], mass;
    unsigned mode;
} pg_rigid_def;

static inline void pg_rigid(pg *g, const pg_rigid_def *r)
{
    pg_text(g, r->name);
    pg_text(g, r->en);
    pg_idx(g, PG_BONE, r->bone);
    pg_u8(g, r->group);
    pg_u16(g, r->mask);
    pg_u8(g, r->shape);
    pg_f3(g, r->size[0], r->size[1], r->size[2]);
    pg_f3(g, r->pos[0], r->pos[1], r->pos[2]);
    pg_f3(g, r->rot[0], r->rot[1], r->rot[2]);
    pg_f32(g, r->mass);
    pg_f32(g, 0.5f);
    pg_f32(g, 0.6f);
    pg_f32(g, 0.7f);
    pg_f32(g, 0.8f);
    pg_u8(g, r->mode);
}

/* Empty rigid, joint sections (the end of a 2.0 file). */
static inline void pg_no_physics(pg *g)
{
    pg_i32(g, 0);
    pg_i32(g, 0);
}

#endif
