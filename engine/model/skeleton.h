/* skeleton.h — what the PMX and PMD readers share with
 * skeleton.c (not public API): the model's string arena, the UTF-16LE
 * decoder, and the final pass that interns CP932 names and checks the
 * bone graph.
 */
#ifndef PKI_MODEL_SKELETON_H
#define PKI_MODEL_SKELETON_H

#include "posekit.h"

/* A new zeroed model with its arena; NULL on OOM. */
pk_model *pki_model_alloc(int format);
/* n bytes from the model's arena (freed with the model); NULL on OOM. */
void *pki_model_mem(pk_model *m, size_t n);
/* A NUL-terminated copy of s[0..n) in the arena; NULL on OOM. */
const char *pki_model_str(pk_model *m, const void *s, size_t n);
/* UTF-16LE bytes as UTF-8 in the arena (an unpaired surrogate becomes
 * U+FFFD, an odd last byte is dropped, a NUL ends the text); NULL on OOM. */
const char *pki_model_utf16(pk_model *m, const uint8_t *s, size_t n);

/* Where each record started, for the messages of pki_model_finish. */
typedef struct pki_model_offsets {
    const int64_t *bones;  /* nbones entries */
    const int64_t *frames; /* nframes entries */
    const int64_t *rigids; /* nrigids entries (NULL: none known) */
} pki_model_offsets;

/* The last step of every reader: bone and morph names to CP932 (interned
 * in m->names; unencodable ones warned and counted), then the graph
 * checks (doc/commands.md "Models (PMX, PMD)"): parent out of range or
 * a parent cycle, an IK target or link outside the model are errors; a tail, append parent,
 * display-frame member or rigid body's bone outside the model is a
 * warning and is dropped; IK values evaluation cannot use as stored (a
 * loop count below 1, a per-step limit or link limit that is not a finite
 * number) and a rigid body's unknown shape or mode are warnings, kept.
 * Returns 0 or -1 (logged). */
int pki_model_finish(pk_model *m, const pki_model_offsets *off, pk_log *log);

/* pk_model_find_bone by a UTF-8 name ("左足"): the index, or -1 when the
 * model (may be NULL) has no such bone or the name has no CP932 form. */
long pki_model_find_bone_utf8(const pk_model *m, const char *utf8);

#endif
