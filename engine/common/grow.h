/*
 * grow.h — private: the one growth rule for the model's arrays
 * (engine/model/motion.c, engine/model/pose.c).
 */
#ifndef PK_GROW_H
#define PK_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Appends one zeroed element of `size` bytes to *arr (count *n, capacity
 * *cap; capacity doubles from 16) and returns it, or NULL on OOM or size
 * overflow, leaving the array as it was. */
static inline void *pk_grow_push(void **arr, size_t *n, size_t *cap, size_t size)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        if (ncap > SIZE_MAX / size)
            return NULL;
        void *p = realloc(*arr, ncap * size);
        if (!p)
            return NULL;
        *arr = p;
        *cap = ncap;
    }
    uint8_t *slot = (uint8_t *)*arr + (*n)++ * size;
    memset(slot, 0, size);
    return slot;
}

#endif
