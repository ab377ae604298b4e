/* diff.h — the range walk shared by diff.c and diff_scene.c. */
#ifndef PKI_OPS_DIFF_DIFF_H
#define PKI_OPS_DIFF_DIFF_H

#include "posekit.h"

#include <math.h>

/* One difference measured over a range: its largest value, the first
 * frame of that maximum, the sum (for the mean), and optionally the
 * maximum per bin and the value per frame. */
typedef struct pki_diff_chan {
    double max; /* -1 before the first frame */
    uint32_t frame;
    double sum;
    float *bins;   /* NULL, or nbins values (caller-owned, zeroed) */
    float *frames; /* NULL, or one value per frame (caller-owned) */
} pki_diff_chan;

/* Fills v[0..k-1] with the differences at a frame.  Called with frames
 * in increasing order. */
typedef void (*pki_diff_sample_fn)(void *ctx, uint32_t frame, double *v);

/* Fills v[j k + i] with difference i at frame first + j, for j < n <=
 * PKI_DIFF_BLOCK (k differences per frame, as pki_diff_walk_blocks was
 * told).  Called with blocks in increasing order.  A block of frames at
 * once lets a sampler step each input through it in a tight loop and
 * then compare them in another, with no call per frame. */
enum { PKI_DIFF_BLOCK = 128 };
typedef void (*pki_diff_block_fn)(void *ctx, uint32_t first, size_t n, double *v);

/* Walks first..last, folding the k differences fn gives into ch[0..k-1]
 * (each starts with max = -1, sum = 0).  From frame `tail` on the values
 * no longer change (every key lies at or before it): they are sampled
 * once and folded in for the rest of the range at once, so a range far
 * past both motions' last key costs one sample. */
void pki_diff_walk(uint32_t first, uint32_t last, uint32_t tail, size_t nbins,
                   pki_diff_sample_fn fn, void *ctx, pki_diff_chan *ch, size_t k);
/* The same walk with a sampler of blocks (k <= 8). */
void pki_diff_walk_blocks(uint32_t first, uint32_t last, uint32_t tail, size_t nbins,
                          pki_diff_block_fn fn, void *ctx, pki_diff_chan *ch, size_t k);

/* b - a as a difference: 0 for two equal values, also two infinities of
 * one sign or two NaNs (a file compared with itself is the same, whatever
 * it holds); a NaN against a number is NaN (a positive one, printed
 * "nan"). */
static inline double pki_diff_sub(double b, double a)
{
    if (a == b || (isnan(a) && isnan(b)))
        return 0.0;
    double d = b - a;
    return isnan(d) ? (double)NAN : d;
}

/* |b - a| of two translations (pki_diff_sub per axis: NaN against a
 * number is NaN, the same values 0). */
static inline double pki_diff_distance(const float a[3], const float b[3])
{
    double dx = pki_diff_sub(b[0], a[0]), dy = pki_diff_sub(b[1], a[1]),
           dz = pki_diff_sub(b[2], a[2]);
    double d = sqrt(dx * dx + dy * dy + dz * dz);
    return isnan(d) ? (double)NAN : d;
}

/* Does a difference v exceed threshold t?  NaN does (a NaN value against
 * anything is not "the same"), as infinity does. */
static inline bool pki_diff_over(double v, double t)
{
    return !(v <= t);
}

/* Folds v, which holds over the whole range first..last, into c: what
 * the walk would give for a difference that never changes. */
void pki_diff_fold_const(pki_diff_chan *c, double v, uint32_t first, uint32_t last, size_t nbins);

#endif
