/* system.h — what the system's file (posix.c or win32.c) and
 * the portable part of the edge (common.c) share; nothing outside
 * engine/platform/ includes it.  common.c calls the system's file, never
 * the other way round. */
#ifndef PKI_PLATFORM_SYSTEM_H
#define PKI_PLATFORM_SYSTEM_H

#include "platform/platform.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What holds a file's bytes: a heap copy (PKI_OWN_MALLOC) or the system's
 * mapping of the file (PKI_OWN_MAP: mmap, a Windows file view). */
enum { PKI_OWN_MALLOC = 1, PKI_OWN_MAP = 2 };

struct pk_region {
    void *base;
    size_t len;
    int own;
};

/* A new region over base[0..len); NULL on OOM. */
static inline pk_region *pki_os_region_new(void *base, size_t len, int own)
{
    pk_region *r = malloc(sizeof *r);
    if (r) {
        r->base = base;
        r->len = len;
        r->own = own;
    }
    return r;
}

/* Where a write to path lands, before "." and ".." are taken out of it
 * (the system's file): links at its end followed, the deepest existing
 * folder above that made canonical, the missing rest as written
 * (Windows: the full path, letters folded).  malloc'd; NULL on OOM. */
char *pki_os_target_resolved(const char *path);

/* The value of the environment variable name as UTF-8 (the system's
 * file), malloc'd; NULL when it is not set, empty, or on OOM. */
char *pki_os_env(const char *name);

/* How many bytes a stream (standard input, a pipe, a device) is read to
 * at most: it is read whole, since only its content tells what it holds,
 * and /dev/zero or a runaway producer never ends.  PKI_STREAM_LIMIT_ENV,
 * a whole number of MB from 1, sets it; unset or anything else, 4000 MB
 * (more than any motion, pose or model: a 53 MB dance baked is 1.5 GB),
 * or less where the address space is smaller. */
#define PKI_STREAM_LIMIT_ENV "POSEKIT_STREAM_LIMIT"
/* (Here, not in common.c: the system's files read streams, and common.c
 * calls them, never the other way round.) */
static inline size_t pki_os_stream_limit(void)
{
    uint64_t mb = 4000;
    char *v = pki_os_env(PKI_STREAM_LIMIT_ENV);
    if (v && v[0] >= '1' && v[0] <= '9' && strspn(v, "0123456789") == strlen(v) &&
        strlen(v) <= 9)
        mb = strtoull(v, NULL, 10);
    free(v);
    uint64_t bytes = mb * 1000000u;
    return bytes < SIZE_MAX / 2 ? (size_t)bytes : SIZE_MAX / 2;
}
/* The error of a stream stopped at pki_os_stream_limit (at offset limit). */
static inline void pki_os_stream_too_long(pk_log *log, size_t limit)
{
    pk_log_add(log, PK_ERROR, PK_E_UNSUPPORTED, (int64_t)limit, 0, 0,
               "a stream of more than %.0f MB, more than any motion, pose or model: "
               "not read (%s=MB reads more)",
               (double)limit / 1e6, PKI_STREAM_LIMIT_ENV);
}

/* The end of a read to a heap copy (buf, len bytes of it read, at most
 * one past limit): buf given to a region (*data, *len_out, *region), or
 * freed with the error of a read past limit (a stream's, or a file's
 * too large to hold) or out of memory.  0 or -1. */
static inline int pki_os_read_ended(uint8_t *buf, size_t len, size_t limit, bool stream,
                                    const uint8_t **data, size_t *len_out, pk_region **region,
                                    pk_log *log)
{
    if (len > limit) {
        free(buf);
        if (stream)
            pki_os_stream_too_long(log, limit);
        else
            pk_error(log, PK_E_UNSUPPORTED, "input too large");
        return -1;
    }
    if (!(*region = pki_os_region_new(buf, len, PKI_OWN_MALLOC))) {
        free(buf);
        pk_error(log, PK_E_NO_MEMORY, "out of memory");
        return -1;
    }
    *data = buf;
    *len_out = len;
    return 0;
}

/* The folder the shipped data of one kind (sub: "rules", "bodies") is
 * installed in (the system's file: PREFIX/share/posekit/SUB; Windows:
 * SUB\ beside the executable), malloc'd; NULL on failure. */
char *pki_os_installed_data(const char *sub);

/* The registry of what an interrupt must undo (pending.c): a slot holds
 * a path in the system's own form (char: POSIX; wchar_t: Windows) and,
 * for a replaced target of a group, the path to put back over it.
 * pki_os_pending_add returns the slot (-1 when all are taken: that file
 * is then left by an interrupt); pki_os_pending_drop frees it (-1 is
 * fine) and must come before the paths are freed.  The system's file
 * does, for each, in pki_os_interrupted: path removed, or (to set) path
 * renamed over to and then removed (a second link to the same file
 * survives a rename over it); async-signal-safe calls only.
 * pki_os_interrupted walks slots 0 to pki_os_pending_top() - 1 with
 * pki_os_pending_get: the slot's path (NULL: an empty slot) and *to. */
int pki_os_pending_add(const void *path, const void *to);
void pki_os_pending_drop(int slot);
int pki_os_pending_top(void);
const void *pki_os_pending_get(int slot, const void **to);
/* pki_os_undo_add's part both systems share (pending.c): an undo of the
 * copies the system's file made of target and kept (malloc'd, in its own
 * form, owned from here on; NULL where a copy failed, kept_given whether
 * there was a kept file to copy), registered; NULL on any failure. */
pki_os_undo *pki_os_undo_of(void *target, void *kept, bool kept_given);

#endif
