/*
 * pending.c — the registry of what an interrupt must undo (system.h):
 * every temporary file open now and every target of a group being put in
 * place, each in a slot of a fixed table.  The system's file fills it
 * (pki_os_temp_create, pki_os_undo_add) and walks it in its
 * pki_os_interrupted, from a signal handler.  The engine's one writable
 * static data (tests/lib/no_globals.sh): a handler can be handed no
 * argument, and the files on the disk are the process's anyway.
 */
#include "platform/system.h"

#include <stdatomic.h>
#include <stdlib.h>

/* Fixed slots, no allocation: the signal handler walks them as they are.
 * A slot is claimed (used), filled (to, then path, published last) and
 * emptied in the reverse order, so the handler never sees half a slot;
 * lock-free atomics, as the writers may be worker threads and the handler
 * may interrupt any of them.  4096 covers a job's outputs many times. */
#define PENDING_MAX 4096
static struct {
    atomic_int used;
    _Atomic(const void *) path;
    _Atomic(const void *) to;
} pending[PENDING_MAX];
static atomic_int pending_top; /* slots at or above it were never used */

int pki_os_pending_add(const void *path, const void *to)
{
    for (int i = 0; i < PENDING_MAX; i++) {
        int free_slot = 0;
        if (!atomic_compare_exchange_strong(&pending[i].used, &free_slot, 1))
            continue;
        atomic_store(&pending[i].to, to);
        atomic_store(&pending[i].path, path);
        int top = atomic_load(&pending_top);
        while (top <= i && !atomic_compare_exchange_weak(&pending_top, &top, i + 1))
            ;
        return i;
    }
    return -1;
}

void pki_os_pending_drop(int slot)
{
    if (slot < 0 || slot >= PENDING_MAX)
        return;
    atomic_store(&pending[slot].path, NULL);
    atomic_store(&pending[slot].to, NULL);
    atomic_store(&pending[slot].used, 0);
}

int pki_os_pending_top(void)
{
    return atomic_load(&pending_top);
}

const void *pki_os_pending_get(int slot, const void **to)
{
    const void *path = atomic_load(&pending[slot].path);
    *to = atomic_load(&pending[slot].to);
    return path;
}

struct pki_os_undo {
    void *target, *kept; /* the system's own form */
    int slot;
};

pki_os_undo *pki_os_undo_of(void *target, void *kept, bool kept_given)
{
    pki_os_undo *u = target && (kept || !kept_given) ? calloc(1, sizeof *u) : NULL;
    if (!u || (u->slot = kept ? pki_os_pending_add(kept, target)
                              : pki_os_pending_add(target, NULL)) < 0) {
        free(target);
        free(kept);
        free(u);
        return NULL;
    }
    u->target = target;
    u->kept = kept;
    return u;
}

void pki_os_undo_drop(pki_os_undo *u)
{
    if (!u)
        return;
    pki_os_pending_drop(u->slot);
    free(u->target);
    free(u->kept);
    free(u);
}
