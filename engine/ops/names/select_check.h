/* select_check.h — a bone and morph selection (--bones) checked against
 * the files it is applied to, one rule for every command that takes one
 * (select_check.c; not part of the public API). */
#ifndef PKI_OPS_NAMES_SELECT_CHECK_H
#define PKI_OPS_NAMES_SELECT_CHECK_H

#include "posekit.h"

/* The selection `sel`, written as `spec`, against the bone (and, with
 * `morphs`, morph) names of the n documents:
 *  - matching none of them is an error: the command would do nothing;
 *  - a plain name of spec (not a glob, not an @group) that matches none
 *    while others match is a warning (--strict: an error);
 * each naming the nearest name of the documents when there is one, as
 * `posekit check` finds near misses ("did you mean '右人指１'?").  `where`
 * names the documents in the messages ("the motion", "either input"),
 * `verb` what the command does ("nothing to reduce"); a warning names the
 * file `path` (the first document's) as every warning about a file does.
 * Returns 0, or -1 (the error logged). */
int pki_selection_check(const pk_selection *sel, const char *spec, const pk_doc *docs, size_t n,
                        bool morphs, const char *where, const char *verb, const char *path,
                        pk_log *log);

/* The same warning for a selection of the n models' bones (draw --bones),
 * naming the model file `path`; a selection that matches no bone at all
 * is left to the caller (draw's error tells hidden bones apart). */
int pki_selection_check_models(const pk_selection *sel, const char *spec,
                               const pk_model *const *models, size_t n, const char *where,
                               const char *path, pk_log *log);

#endif
