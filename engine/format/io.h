/* io.h — what io.c offers doc.c beyond the public file calls (not public
 * API): reading a large file with less than twice its size in memory.
 *
 * pk_doc_load maps the file and the VMD reader reports, every megabyte
 * or so, how far it has got (pki_vmd_read_front, format/vmd.h); the pages
 * behind that point are handed back to the kernel (the model holds copies
 * of everything it keeps), so the mapped input and the decoded model are
 * not both whole at the end of the parse.
 */
#ifndef PKI_FORMAT_IO_H
#define PKI_FORMAT_IO_H

#include "posekit.h"

/* The first upto bytes of b will not be read again: for a mapped file
 * their whole pages leave the process (reading them anyway still works:
 * the kernel reads them back).  Does nothing for bytes read into memory. */
void pki_bytes_drop_prefix(pk_bytes *b, size_t upto);

#endif
