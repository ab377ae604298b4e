/*
 * rules.h — the compiled form of rule files (rules.c), read by select.c,
 * rename.c, mirror.c and retarget.c.  Not installed; the public
 * view is the rules section of posekit.h.
 *
 * Every name in a rule is kept as CP932 bytes (what files hold) plus the
 * UTF-8 text it was written as (for messages); names and globs are the
 * patterns of rules/pattern.h.
 */
#ifndef PKI_RULES_RULES_H
#define PKI_RULES_RULES_H

#include "posekit.h"
#include "rules/pattern.h"

/* Where a rule came from, for messages: file (owned by pk_rules.files),
 * 1-based line and column of the YAML node. */
typedef struct pki_where {
    const char *file;
    int line, col;
} pki_where;

/* One target of a weighted morph rule: it receives factor × the source's
 * weight (the rule's factor times the target's own). */
typedef struct pki_map_target {
    pki_pattern to; /* a '*' takes the source's capture */
    char *utf8;     /* owned */
    double factor;
    pki_where at;
} pki_map_target;

typedef struct pki_map_rule {
    pki_pattern from, to;
    char *from_utf8, *to_utf8; /* owned */
    pki_where at;              /* the source key */
    pki_where to_at;           /* the target value */
    unsigned layer;            /* 0 = built-in, higher = loaded later */
    /* The mapping form of a `morphs` rule ({to, factor, clamp}): the
     * source's keys are replaced by their shares in targets[0..ntargets)
     * (ntargets 0: the source itself, scaled or clamped in place), every
     * target the clamped sum of what lands on it (ops/names/morph_weights.c).
     * to/to_utf8/to_at then describe the first target (or the source). */
    bool weighted;
    pki_map_target *targets; /* owned */
    size_t ntargets;
    double lo, hi; /* clamp range of the targets (default 0..1) */
} pki_map_rule;

typedef struct pki_map {
    pki_map_rule *v;
    size_t n, cap;
} pki_map;

/* One item of a group: a name, a glob or a reference to another group. */
typedef struct pki_group_item {
    char *text; /* UTF-8 as written (for @refs: the group name without '@') */
    bool ref;
    pki_pattern pat; /* when !ref */
    pki_where at;
} pki_group_item;

typedef struct pki_group {
    char *name; /* owned UTF-8 */
    pki_group_item *v;
    size_t n, cap;
    pki_where at;
} pki_group;

typedef struct pki_group_set {
    pki_group *v;
    size_t n, cap;
} pki_group_set;

typedef struct pki_mirror_pair {
    pki_pattern a, b; /* exact fragments */
    char *a_utf8, *b_utf8;
    pki_where at;
} pki_mirror_pair;

typedef struct pki_stance_rule {
    pki_pattern bone;
    char *bone_utf8;
    double rotate_deg[3]; /* as written: X, Y, Z in degrees */
    float r[4];           /* the rotation r as a unit quaternion x,y,z,w */
    pki_group chain;      /* anonymous group: the bones below `bone` */
    pki_where at;
} pki_stance_rule;

typedef struct pki_scale_rule {
    pki_pattern bone;
    char *bone_utf8;
    double factor;
    pki_where at;
    unsigned layer;
} pki_scale_rule;

struct pk_rules {
    char **files; /* every file loaded (positions point here); owned */
    size_t nfiles;
    pki_map rename, morphs;
    pki_group_set groups, morph_groups;
    pki_mirror_pair *mirror;
    size_t nmirror;
    bool mirror_from_file;        /* a loaded file had a `mirror` key */
    pki_mirror_pair *morph_mirror; /* whole morph names swapped by mirror */
    size_t nmorph_mirror;
    bool morph_mirror_from_file;
    pki_stance_rule *stance;
    size_t nstance;
    double scale_default;
    bool scale_set;
    pki_scale_rule *scale;
    size_t nscale;
};

/* ---- groups (rules.c) ---- */
const pki_group *pki_rules_find_group(const pk_rules *r, const char *name, bool morph);

#endif
