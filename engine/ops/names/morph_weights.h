/* morph_weights.h — rename's weighted morph rules (internal; rename.c).
 *
 * A `morphs` rule in the mapping form ({to, factor, clamp},
 * rules/README.md) replaces its source's keys by shares in its targets.
 * Each target's track is the sum of everything that lands on it (the
 * shares of the weighted rules, and the keys of a morph that keeps or is
 * renamed to the target's name, at factor 1), clamped to its range.  The
 * plan is made while rename plans the names, then:
 *   pki_weights_add    a name a weighted rule matched (while planning)
 *   pki_weights_check  target widths and clamp ranges, all reported
 *   pki_weights_mark   which morph records are sources (before renaming)
 *   pki_weights_apply  the targets' keys written in place of the marked
 *                      and joined records (after renaming)
 * Nothing changes when a check fails. */
#ifndef PKI_OPS_NAMES_MORPH_WEIGHTS_H
#define PKI_OPS_NAMES_MORPH_WEIGHTS_H

#include "ops/names/bone_set.h"
#include "posekit.h"
#include "rules/rules.h"

/* A target name and its range (the narrowest of the rules feeding it). */
typedef struct pki_weight_target {
    uint8_t raw[3 * PKI_PATTERN_MAX];
    size_t len;
    double lo, hi;
    const pki_map_rule *rule;  /* the first rule naming it, for messages */
    size_t index;              /* which of rule->targets */
    const pki_map_rule *clash; /* a rule whose range does not overlap (an error) */
    pk_name_id id;             /* interned when applied */
} pki_weight_target;

/* The source's weight times factor is added to target `target`. */
typedef struct pki_weight_share {
    pk_name_id source;
    size_t target;
    double factor;
} pki_weight_share;

typedef struct pki_weights {
    size_t n;      /* names in the table when planned */
    bool *source;  /* per name id: matched by a weighted rule */
    size_t *first; /* per source id: its shares are s[first[id] .. + nshares[id]) */
    size_t *nshares;
    size_t nsources;
    pki_weight_target *t;
    size_t nt;
    pki_weight_share *s;
    size_t ns;
} pki_weights;

int pki_weights_init(pki_weights *w, size_t nnames); /* -1 on OOM */
/* Name id (raw[0..len), its glob capture at off, cap) matched weighted
 * rule r; -1 on OOM. */
int pki_weights_add(pki_weights *w, pk_name_id id, const pki_map_rule *r, const uint8_t *raw,
                    size_t len, size_t off, size_t cap);
/* Every target fits the set's name field; ranges of one target overlap. */
int pki_weights_check(const pki_weights *w, const pki_bone_set *s, pk_log *log);
/* Per morph record (motion) or entry (pose): a weighted rule's source;
 * malloc'd (the caller frees), NULL on OOM. */
bool *pki_weights_mark(const pki_weights *w, const pki_bone_set *s);
/* Replaces the marked records, and the unmarked ones named as a target, by
 * the targets' keys (each written where the first record feeding it was);
 * fills st's morph_* and clamp_* counts.  -1 on OOM (s unchanged). */
int pki_weights_apply(pki_weights *w, pki_bone_set *s, const bool *marks, pk_edit_stats *st,
                      pk_log *log);
void pki_weights_free(pki_weights *w);

#endif
