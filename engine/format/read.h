/* read.h — what doc.c needs from io.c and vmd.c to read a large
 * file with less than twice its size in memory (not public API).
 *
 * pk_doc_load maps the file and the VMD reader reports, every megabyte
 * or so, how far it has got; the pages behind that point are handed
 * back to the kernel (the model holds copies of everything it keeps), so
 * the mapped input and the decoded model are not both whole at the end of
 * the parse.
 */
#ifndef PKI_FORMAT_READ_H
#define PKI_FORMAT_READ_H

#include "posekit.h"

/* The first upto bytes of b will not be read again: for a mapped file
 * their whole pages leave the process (reading them anyway still works:
 * the kernel reads them back).  Does nothing for bytes read into memory. */
void pki_bytes_drop_prefix(pk_bytes *b, size_t upto);

/* pk_vmd_read, calling consumed(ctx, upto) now and then with the offset
 * below which it will not look at data again (consumed may be NULL). */
pk_motion *pki_vmd_read_front(const void *data, size_t len, pk_log *log,
                              void (*consumed)(void *ctx, size_t upto), void *ctx);

#endif
