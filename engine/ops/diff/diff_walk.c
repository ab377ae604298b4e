/* diff_walk.c — one pass over a frame range for a diff row: maxima, means,
 * per-bin maxima, and a tail past the last key folded in at once. */
#include "ops/diff/diff.h"

#include <math.h>

enum { MAX_CHANNELS = 8 };

/* The bin of offset o (0-based from first) in a range of n frames split
 * into nbins runs (the layout pk_diff_options.bins describes). */
static size_t diff_bin_of(uint64_t o, uint64_t n, size_t nbins)
{
    /* bin c starts at floor(c*n/nbins): the last c with c*n <= o*nbins
     * (floor(c*n/nbins) <= o  <=>  c*n < (o+1)*nbins). */
    return (size_t)(((o + 1) * nbins - 1) / n);
}

/* Folds value v, which holds for `count` frames from offset o, into c. */
static void fold(pki_diff_chan *c, double v, uint32_t first, uint64_t o, uint64_t count, uint64_t n,
                 size_t nbins)
{
    /* NaN is the largest difference, and stays (a NaN value is never
     * "the same"); the maximum starts at -1, below every distance */
    if (isnan(v) ? !isnan(c->max) : v > c->max) {
        c->max = v;
        c->frame = (uint32_t)(first + o);
    }
    c->sum += v * (double)count;
    if (c->bins) {
        size_t b0 = diff_bin_of(o, n, nbins), b1 = diff_bin_of(o + count - 1, n, nbins);
        for (size_t b = b0; b <= b1; b++)
            if (isnan(v) || (float)v > c->bins[b]) /* NaN stays, as in the maximum */
                c->bins[b] = (float)v;
    }
    if (c->frames)
        for (uint64_t i = 0; i < count; i++)
            c->frames[o + i] = (float)v;
}

void pki_diff_walk_blocks(uint32_t first, uint32_t last, uint32_t tail, size_t nbins,
                          pki_diff_block_fn fn, void *ctx, pki_diff_chan *ch, size_t k)
{
    uint64_t n = (uint64_t)last - first + 1;
    if (nbins > n)
        nbins = (size_t)n;
    double v[PKI_DIFF_BLOCK * MAX_CHANNELS];
    if (k > MAX_CHANNELS)
        k = MAX_CHANNELS;
    uint64_t stop = tail <= first ? 0 : (uint64_t)tail - first; /* offsets sampled one by one */
    if (stop > n)
        stop = n;
    for (uint64_t o = 0; o < stop; o += PKI_DIFF_BLOCK) {
        size_t nb = stop - o < PKI_DIFF_BLOCK ? (size_t)(stop - o) : PKI_DIFF_BLOCK;
        fn(ctx, (uint32_t)(first + o), nb, v);
        for (size_t j = 0; j < nb; j++)
            for (size_t i = 0; i < k; i++)
                fold(&ch[i], v[j * k + i], first, o + j, 1, n, nbins);
    }
    if (stop < n) {
        fn(ctx, (uint32_t)(first + stop), 1, v);
        for (size_t i = 0; i < k; i++)
            fold(&ch[i], v[i], first, stop, n - stop, n, nbins);
    }
}

void pki_diff_fold_const(pki_diff_chan *c, double v, uint32_t first, uint32_t last, size_t nbins)
{
    uint64_t n = (uint64_t)last - first + 1;
    fold(c, v, first, 0, n, n, nbins > n ? (size_t)n : nbins);
}

/* pki_diff_walk's frame sampler as a block sampler. */
typedef struct per_frame {
    pki_diff_sample_fn fn;
    void *ctx;
    size_t k;
} per_frame;

static void frames_as_block(void *ctx, uint32_t first, size_t n, double *v)
{
    const per_frame *p = ctx;
    for (size_t j = 0; j < n; j++)
        p->fn(p->ctx, first + (uint32_t)j, v + j * p->k);
}

void pki_diff_walk(uint32_t first, uint32_t last, uint32_t tail, size_t nbins,
                   pki_diff_sample_fn fn, void *ctx, pki_diff_chan *ch, size_t k)
{
    per_frame p = {fn, ctx, k > MAX_CHANNELS ? MAX_CHANNELS : k};
    pki_diff_walk_blocks(first, last, tail, nbins, frames_as_block, &p, ch, k);
}
