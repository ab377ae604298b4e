/* check.h — check.c's matching of near-miss names, for the
 * operations that tell a user which name a mistyped one most likely
 * meant (not part of the public API). */
#ifndef PKI_OPS_SKELETON_CHECK_H
#define PKI_OPS_SKELETON_CHECK_H

#include <stddef.h>

/* The nearest of n UTF-8 names to `name` as `posekit check` finds near
 * misses of bones (the smallest difference first: full-width and
 * half-width forms, then spaces, underscores and letter case, then
 * spellings of the same bone): its index with *why (malloc'd, the caller
 * frees; NULL on OOM) naming each difference, or -1 when none is near. */
long pki_check_near_miss(const char *name, const char *const *names, size_t n, char **why);

#endif
