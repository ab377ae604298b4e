/*
 * sort.h — private: a stable sort of indices with a context (common/sort.c).
 * qsort cannot see the caller's data without a global and qsort_r is not
 * C11; these callers order indices into their own tables.
 */
#ifndef PKI_COMMON_SORT_H
#define PKI_COMMON_SORT_H

#include <stddef.h>

/* Negative when item a goes before item b, 0 when they tie, else positive. */
typedef int (*pki_index_cmp)(const void *ctx, size_t a, size_t b);

/* v[0..n) sorted by cmp, ties kept in their order (a merge sort); tmp holds
 * n indices of scratch. */
void pki_sort_indices(size_t *v, size_t *tmp, size_t n, pki_index_cmp cmp, const void *ctx);

#endif
