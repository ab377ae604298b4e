/*
 * grow.h — private: the one way the engine's arrays grow
 * (doc/architecture.md §4).  Nothing else in engine/ or cli/ calls realloc
 * (tests/lib/one_grow.sh checks).
 *
 * An array is a typed pointer T *v with a count n and, for arrays that grow
 * often, a capacity cap.  Every function takes parr, the address of the
 * caller's pointer (a T **, passed as void *), and reads and writes that
 * pointer with memcpy, so no T * is ever accessed as a void *.  On failure
 * (out of memory, or a size that overflows) a function returns -1 or NULL
 * and leaves the array, its count and its capacity as they were.
 *
 *   pki_grow_reserve  room for `need` elements; capacity doubles from 16
 *   pki_grow_push     one more zeroed element at the end; returns it
 *   pki_grow_append   `count` elements copied to the end
 *   pki_grow_to       exactly `count` elements, for short lists kept without
 *                    a capacity (rule files, a step's inputs)
 */
#ifndef PKI_COMMON_GROW_H
#define PKI_COMMON_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline void *pki_grow_get_(const void *parr)
{
    void *p;
    memcpy(&p, parr, sizeof p);
    return p;
}

static inline void pki_grow_set_(void *parr, void *p)
{
    memcpy(parr, &p, sizeof p);
}

/* Makes room for at least `need` elements of `size` bytes in *parr, whose
 * capacity is *cap (doubled, from 16, until it holds need).  0, or -1. */
static inline int pki_grow_reserve(void *parr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (size && ncap > SIZE_MAX / size)
        return -1;
    void *p = realloc(pki_grow_get_(parr), ncap * size);
    if (!p)
        return -1;
    pki_grow_set_(parr, p);
    *cap = ncap;
    return 0;
}

/* Appends one zeroed element of `size` bytes to *parr (count *n, capacity
 * *cap) and returns it, or NULL. */
static inline void *pki_grow_push(void *parr, size_t *n, size_t *cap, size_t size)
{
    if (*n == SIZE_MAX || pki_grow_reserve(parr, cap, *n + 1, size) != 0)
        return NULL;
    uint8_t *slot = (uint8_t *)pki_grow_get_(parr) + (*n)++ * size;
    memset(slot, 0, size);
    return slot;
}

/* Appends count elements of `size` bytes copied from src.  0, or -1. */
static inline int pki_grow_append(void *parr, size_t *n, size_t *cap, size_t size, const void *src,
                                  size_t count)
{
    if (count > SIZE_MAX - *n || pki_grow_reserve(parr, cap, *n + count, size) != 0)
        return -1;
    if (count)
        memcpy((uint8_t *)pki_grow_get_(parr) + *n * size, src, count * size);
    *n += count;
    return 0;
}

/* Resizes *parr to exactly `count` elements of `size` bytes (count > 0);
 * the caller keeps the count.  0, or -1. */
static inline int pki_grow_to(void *parr, size_t count, size_t size)
{
    if (count == 0 || (size && count > SIZE_MAX / size))
        return -1;
    void *p = realloc(pki_grow_get_(parr), count * size);
    if (!p)
        return -1;
    pki_grow_set_(parr, p);
    return 0;
}

#endif
