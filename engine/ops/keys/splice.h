/* splice_internal.h — merge's track surgery (splice.c; not part of the
 * public API).
 *
 * Both functions keep a base motion exactly (overlay's boundary law: within
 * PK_OVERLAY_TOL_DEG / PK_OVERLAY_TOL_POS for bones, exactly for morph
 * weights, at every integer frame) outside a window, splitting or baking
 * the base's bone segments that the window's edges cross (rebuild.c), and
 * leave every record they do not change byte-identical and in place; new
 * keys are appended after their section's other records.
 */
#ifndef PKI_OPS_KEYS_SPLICE_H
#define PKI_OPS_KEYS_SPLICE_H

#include "posekit.h"

/* Every bone and morph track of `src` replaces the same track of `base`
 * (matched by raw name, a name only in src gets a new track) inside
 * [a, b]: at every frame in [a, b] the result samples as src, at every
 * frame <= a-1 (when a > 0) and >= b+1 as base.  src's keys must all lie
 * in [a, b].  Other sections of base are kept, src's are ignored.  stats
 * (may be NULL, zeroed first) counts tracks (bones, morphs), keys removed
 * and added and the crossed pieces split or baked.  Returns a new motion
 * (pk_motion_free) or NULL (logged). */
pk_motion *pki_splice_motion(const pk_motion *base, const pk_motion *src, uint32_t a, uint32_t b,
                             pk_overlay_stats *stats, pk_log *log);

/* The motion from frame `cut` on, every frame before it dropped: each
 * track that has keys before the cut keeps its value at the cut (a key at
 * `cut`: bones sampled and the following segment split or baked, morphs
 * and lights sampled (linear: exact), shadow and IK records held, cameras
 * sampled with the next key's curve kept).  Keys before the cut are
 * removed; *dropped counts them, *added the keys added at the cut.  Returns a new motion
 * (pk_motion_free) or NULL (logged). */
pk_motion *pki_motion_cut_before(const pk_motion *m, uint32_t cut, size_t *dropped, size_t *added,
                                 pk_log *log);

#endif
