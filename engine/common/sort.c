/* sort.c — a stable merge sort of indices with a context (sort.h). */
#include "common/sort.h"

#include <string.h>

void pki_sort_indices(size_t *v, size_t *tmp, size_t n, pki_index_cmp cmp, const void *ctx)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    pki_sort_indices(v, tmp, h, cmp, ctx);
    pki_sort_indices(v + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) /* the right one only when strictly before: stable */
        tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}
