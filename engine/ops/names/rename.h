/* rename.h — rename.c's name plans, shared with mirror.c (internal).
 *
 * A renaming of a set's bone names (and a motion's IK names) and morph
 * names is planned by the caller (rename's map rules, mirror's pairs) into
 * `bones` and `morphs` with pki_name_plan_set, then checked and applied as
 * one:
 *   pki_set_plan_init    marks the names the set uses
 *   pki_set_plan_check   every width and collision problem, all reported
 *   pki_set_plan_apply   interns the new names, renames the records
 *   pki_set_plan_count   adds the bone, IK and morph counts to st
 * Nothing changes when a check fails. */
#ifndef PKI_OPS_NAMES_RENAME_H
#define PKI_OPS_NAMES_RENAME_H

#include "ops/names/bone_set.h"
#include "posekit.h"
#include "rules/rules.h"

/* A planned renaming of the ids of one names table: to[id] is the new
 * name's bytes (or unchanged). */
typedef struct pki_name_plan {
    size_t n;
    bool *used;    /* id occurs in the records being renamed */
    bool *changed; /* to[id] differs from the old name */
    uint8_t **to;  /* new raw bytes (owned) when changed */
    size_t *to_len;
    const pki_map_rule **rule; /* the rule that matched (NULL for mirror) */
} pki_name_plan;

/* Plans raw[0..len) as id's new name (copied); 0, or -1 on OOM. */
int pki_name_plan_set(pki_name_plan *pl, pk_name_id id, const uint8_t *raw, size_t len);

typedef struct pki_set_plan {
    pki_name_plan bones, morphs;
    bool *in_bones, *in_ik; /* per name id: a bone key's name, an IK state's name */
    size_t n;               /* names in the set's table when planned */
} pki_set_plan;

int pki_set_plan_init(pki_set_plan *p, const pki_bone_set *s, pk_log *log);
int pki_set_plan_check(const pki_set_plan *p, const pki_bone_set *s, pk_log *log);
int pki_set_plan_apply(const pki_set_plan *p, pki_bone_set *s, pk_log *log);
void pki_set_plan_count(const pki_set_plan *p, pk_edit_stats *st);
void pki_set_plan_free(pki_set_plan *p);

/* Appends a copy of a UTF-8 name to s->unmatched (s may be NULL). */
void pki_edit_stats_add_unmatched(pk_edit_stats *s, const char *utf8);

#endif
