/* cursor.h — cursor.c's runs of frames, for diff.c's blocks, and the
 * value a track gives at its own key's frame; not part of the public
 * API. */
#ifndef PKI_OPS_SAMPLE_CURSOR_H
#define PKI_OPS_SAMPLE_CURSOR_H

#include "posekit.h"

/* pk_cursor_bone at the n consecutive frames first, first + 1, ...:
 * pos[j] and rot[j] receive frame first + j, exactly as n calls would
 * give them. */
void pki_cursor_bone_run(pk_cursor *c, uint32_t first, size_t n, float (*pos)[3], float (*rot)[4]);

/* What pk_cursor_bone gives at the frame of key k of a track, whatever
 * the keys around it (a segment's first frame, or a hold): the key's
 * translation and its rotation made unit, bit for bit. */
void pki_cursor_key_value(const pk_bone_key *k, float pos[3], float rot[4]);

#endif
