/* cursor.h — cursor.c's runs of frames, for diff.c's blocks; not part of
 * the public API. */
#ifndef PKI_OPS_SAMPLE_CURSOR_H
#define PKI_OPS_SAMPLE_CURSOR_H

#include "posekit.h"

/* pk_cursor_bone at the n consecutive frames first, first + 1, ...:
 * pos[j] and rot[j] receive frame first + j, exactly as n calls would
 * give them. */
void pki_cursor_bone_run(pk_cursor *c, uint32_t first, size_t n, float (*pos)[3], float (*rot)[4]);

#endif
