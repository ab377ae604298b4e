/* select.h — select.c's selections built from compiled groups, for
 * retarget's stance chains (internal). */
#ifndef PKI_RULES_SELECT_H
#define PKI_RULES_SELECT_H

#include "posekit.h"
#include "rules/rules.h"

/* A new empty selection; free with pk_selection_free. */
pk_selection *pki_selection_new_empty(void);
/* Adds the items of group g to a selection (recursively through @refs). */
int pki_selection_add_group(pk_selection *s, const pk_rules *r, const pki_group *g, pk_log *log,
                            int depth);

#endif
