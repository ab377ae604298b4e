/* vmdgen.h — builds synthetic VMD byte images for the VMD tests.
 *
 * Written straight from the layout in doc/formats.md §3 (not from vmd.c), so
 * the tests compare the codec against an independent writer.  Header-only
 * (static inline) because tests/meson.build links only testutil.c into the
 * suites. */
#ifndef PK_VMDGEN_H
#define PK_VMDGEN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct vg {
    uint8_t *d;
    size_t len, cap;
} vg;

static inline void vg_init(vg *g)
{
    memset(g, 0, sizeof *g);
}

static inline void vg_free(vg *g)
{
    free(g->d);
    memset(g, 0, sizeof *g);
}

static inline void vg_bytes(vg *g, const void *p, size_t n)
{
    if (g->len + n > g->cap) {
        size_t cap = g->cap ? g->cap : 256;
        while (cap < g->len + n)
            cap *= 2;
        uint8_t *d = realloc(g->d, cap);
        if (!d)
            abort();
        g->d = d;
        g->cap = cap;
    }
    if (n)
        memcpy(g->d + g->len, p, n);
    g->len += n;
}

static inline void vg_u8(vg *g, uint8_t v)
{
    vg_bytes(g, &v, 1);
}

static inline void vg_u32(vg *g, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    vg_bytes(g, b, 4);
}

static inline void vg_f32(vg *g, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    vg_u32(g, u);
}

/* Overwrites a little-endian uint32 at offset `at`. */
static inline void vg_patch_u32(vg *g, size_t at, uint32_t v)
{
    g->d[at] = (uint8_t)v;
    g->d[at + 1] = (uint8_t)(v >> 8);
    g->d[at + 2] = (uint8_t)(v >> 16);
    g->d[at + 3] = (uint8_t)(v >> 24);
}

/* A name field of `width` bytes: the name, then (if room) a NUL, then
 * `fill` bytes (0x00 or 0xFD as MMD writes). */
static inline void vg_name(vg *g, const char *name, size_t width, uint8_t fill)
{
    size_t n = strlen(name);
    uint8_t f[32];
    memset(f, fill, sizeof f);
    memcpy(f, name, n < width ? n : width);
    if (n < width)
        f[n] = 0;
    vg_bytes(g, f, width);
}

/* 30-byte signature field: the 25-character signature, a NUL and 4 filler
 * bytes (`filler` NULL = zeros). */
static inline void vg_signature(vg *g, const char *sig25, const char *filler4)
{
    uint8_t h[30] = {0};
    memcpy(h, sig25, strlen(sig25));
    if (filler4)
        memcpy(h + 26, filler4, 4);
    vg_bytes(g, h, 30);
}

static inline void vg_header_v2(vg *g, const char *model)
{
    vg_signature(g, "Vocaloid Motion Data 0002", NULL);
    vg_name(g, model, 20, 0);
}

static inline void vg_header_v1(vg *g, const char *model)
{
    vg_signature(g, "Vocaloid Motion Data file", NULL);
    vg_name(g, model, 10, 0);
}

/* The linear interpolation block in MMD's modern layout (§3.4). */
static inline void vg_interp_linear(uint8_t ip[64])
{
    uint8_t b[19] = {20,  20,  20,  20,  20,  20,  20, 20, 107, 107,
                     107, 107, 107, 107, 107, 107, 0,  0,  0};
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 16; k++)
            ip[16 * r + k] = b[k + r];
    ip[2] = ip[3] = 0;
}

/* A bone record body after its name field: frame, pos, rot, interp. */
static inline void vg_bone_body(vg *g, uint32_t frame, const float pos[3], const float rot[4],
                                const uint8_t ip[64])
{
    vg_u32(g, frame);
    for (int i = 0; i < 3; i++)
        vg_f32(g, pos[i]);
    for (int i = 0; i < 4; i++)
        vg_f32(g, rot[i]);
    vg_bytes(g, ip, 64);
}

static inline void vg_bone(vg *g, const char *name, uint8_t fill, uint32_t frame, float x, float y,
                           float z, float qx, float qy, float qz, float qw)
{
    uint8_t ip[64];
    vg_interp_linear(ip);
    float pos[3] = {x, y, z}, rot[4] = {qx, qy, qz, qw};
    vg_name(g, name, 15, fill);
    vg_bone_body(g, frame, pos, rot, ip);
}

static inline void vg_morph(vg *g, const char *name, uint8_t fill, uint32_t frame, float w)
{
    vg_name(g, name, 15, fill);
    vg_u32(g, frame);
    vg_f32(g, w);
}

static inline void vg_camera(vg *g, uint32_t frame, float dist, float px, float py, float pz,
                             float rx, float ry, float rz, uint32_t fov, uint8_t persp)
{
    vg_u32(g, frame);
    vg_f32(g, dist);
    vg_f32(g, px);
    vg_f32(g, py);
    vg_f32(g, pz);
    vg_f32(g, rx);
    vg_f32(g, ry);
    vg_f32(g, rz);
    for (int i = 0; i < 6; i++) {
        uint8_t c[4] = {20, 107, 20, 107};
        vg_bytes(g, c, 4);
    }
    vg_u32(g, fov);
    vg_u8(g, persp);
}

static inline void vg_light(vg *g, uint32_t frame, float r, float gr, float b, float dx, float dy,
                            float dz)
{
    vg_u32(g, frame);
    vg_f32(g, r);
    vg_f32(g, gr);
    vg_f32(g, b);
    vg_f32(g, dx);
    vg_f32(g, dy);
    vg_f32(g, dz);
}

static inline void vg_shadow(vg *g, uint32_t frame, uint8_t mode, float dist)
{
    vg_u32(g, frame);
    vg_u8(g, mode);
    vg_f32(g, dist);
}

/* Show/IK record head; follow with `count` calls to vg_ik_state. */
static inline void vg_ik_head(vg *g, uint32_t frame, uint8_t show, uint32_t count)
{
    vg_u32(g, frame);
    vg_u8(g, show);
    vg_u32(g, count);
}

static inline void vg_ik_state(vg *g, const char *name, uint8_t fill, uint8_t enabled)
{
    vg_name(g, name, 20, fill);
    vg_u8(g, enabled);
}

#endif
