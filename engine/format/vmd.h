/* vmd.h — the VMD reader with progress, for doc.c (not public API): doc.c
 * hands the pages the reader is past back to the kernel
 * (pki_bytes_drop_prefix, format/io.h). */
#ifndef PKI_FORMAT_VMD_H
#define PKI_FORMAT_VMD_H

#include "posekit.h"

/* pk_vmd_read, calling consumed(ctx, upto) now and then with the offset
 * below which it will not look at data again (consumed may be NULL). */
pk_motion *pki_vmd_read_front(const void *data, size_t len, pk_log *log,
                              void (*consumed)(void *ctx, size_t upto), void *ctx);

#endif
