/* sample.h — small pieces shared by sample.c (stateless sampling) and
 * cursor.c (stepping through frames); not part of the public API. */
#ifndef PKI_OPS_SAMPLE_SAMPLE_H
#define PKI_OPS_SAMPLE_SAMPLE_H

#include "posekit.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Index i >= 1 of the first key whose frame is > f, for f strictly inside
 * the track's range (first <= f < last). */
static inline size_t pki_seg_search(const uint32_t *keys, size_t n, double f, const void *base,
                                    size_t size, size_t off)
{
    size_t lo = 1, hi = n - 1; /* answer in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t fm;
        memcpy(&fm, (const uint8_t *)base + (size_t)keys[mid] * size + off, sizeof fm);
        if ((double)fm > f)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The track of bone `name` alone, as pk_tracks_build gives it (keys by
 * frame, stable, the last record of a duplicated frame kept) without
 * building every other track: t->keys is allocated (free it).  A name
 * with no keys gives count 0.  False on OOM (sample.c). */
bool pki_track_named(const pk_motion *m, pk_name_id name, pk_track *t);
/* The same for each of the n names (PK_NO_NAME: count 0), in one pass
 * over the motion's keys: out[i].keys allocated (free each).  False on
 * OOM (nothing left allocated). */
bool pki_tracks_named(const pk_motion *m, const pk_name_id *names, size_t n, pk_track *out);

/* The rest pose: no translation, the identity rotation. */
static inline void pki_rest_pose(float pos[3], float rot[4])
{
    pos[0] = pos[1] = pos[2] = 0.0f;
    rot[0] = rot[1] = rot[2] = 0.0f;
    rot[3] = 1.0f;
}

static inline double pki_lerp(double a, double b, double u)
{
    return a + (b - a) * u;
}

#endif
