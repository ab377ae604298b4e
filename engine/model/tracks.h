/*
 * tracks.h — internal (model/): the frame sort pk_tracks_build uses,
 * shared with the sampler's per-bone track builder (ops/sample/sample.c).
 */
#ifndef PKI_MODEL_TRACKS_H
#define PKI_MODEL_TRACKS_H

#include <stddef.h>
#include <stdint.h>

/* Sorts src[0..n) of (frame << 32 | index) pairs by frame, stably: a
 * least-significant-digit radix sort, 8 bits a pass, the passes above
 * top's digits (top: every frame or-ed together) skipped.  dst has room
 * for n; returns the one of src and dst that holds the result. */
uint64_t *pki_sort_by_frame(uint64_t *src, uint64_t *dst, size_t n, uint32_t top);

#endif
