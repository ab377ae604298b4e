/*
 * rules.h — the compiled form of rule files, shared by rules.c,
 * select.c, rename.c, mirror.c and retarget.c.  Not installed; the public
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

typedef struct pki_map_rule {
    pki_pattern from, to;
    char *from_utf8, *to_utf8; /* owned */
    pki_where at;              /* the source key */
    pki_where to_at;           /* the target value */
    unsigned layer;            /* 0 = built-in, higher = loaded later */
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

/* A new empty selection (select.c); free with pk_selection_free. */
pk_selection *pki_selection_new_empty(void);
/* Adds the items of group g to a selection (recursively through @refs). */
int pki_selection_add_group(pk_selection *s, const pk_rules *r, const pki_group *g, pk_log *log,
                            int depth);

/* ---- rename maps (rename.c) ---- */

/* The best rule of map m for a name (exact rules first, then the glob
 * with the longest literal part, then the rule loaded last), in the given
 * direction.  On a match writes the new name into out (PKI_PATTERN_MAX*2
 * bytes) and returns the rule; NULL when nothing matches. */
const pki_map_rule *pki_map_lookup(const pki_map *m, bool reverse, const uint8_t *raw, size_t len,
                                   uint8_t *out, size_t *out_len);

/* A planned renaming of the ids of one names table: to[id] is the new
 * name's bytes (or unchanged).  Built, checked for collisions and field
 * widths, then applied, so nothing changes when any check fails. */
typedef struct pki_name_plan {
    size_t n;
    bool *used;    /* id occurs in the records being renamed */
    bool *changed; /* to[id] differs from the old name */
    uint8_t **to;  /* new raw bytes (owned) when changed */
    size_t *to_len;
    const pki_map_rule **rule; /* the rule that matched (NULL for mirror) */
} pki_name_plan;

int pki_name_plan_init(pki_name_plan *pl, size_t n);
void pki_name_plan_free(pki_name_plan *pl);
int pki_name_plan_set(pki_name_plan *pl, pk_name_id id, const uint8_t *raw, size_t len);
/* Errors (naming both) when two distinct used ids would end with the same
 * bytes.  `what` is "bone" or "morph". */
int pki_name_plan_check_collisions(const pki_name_plan *pl, const pk_names *names, const char *what,
                                   pk_log *log);
/* Errors (naming the bone) when a changed name is longer than max bytes. */
int pki_name_plan_check_width(const pki_name_plan *pl, const pk_names *names, const bool *subset,
                              size_t max, const char *what, pk_log *log);
/* Interns the new names; *map receives old id -> new id (malloc'd). */
int pki_name_plan_commit(const pki_name_plan *pl, pk_names *names, pk_name_id **map, pk_log *log);

/* The padding id for a record renamed from `old` (with padding old_pad)
 * to new_id in a field of `width` bytes (see rename.c); UINT32_MAX on OOM. */
uint32_t pki_pad_transfer(pk_motion *m, pk_name_id old, uint32_t old_pad, pk_name_id new_id,
                          size_t width);
/* Renames bone keys and IK states by bmap and morph keys by mmap (may be
 * NULL), old id -> new id, carrying padding over; -1 on OOM. */
int pki_motion_apply_names(pk_motion *m, const pk_name_id *bmap, const pk_name_id *mmap);

/* Appends a copy of a UTF-8 name to s->unmatched (s may be NULL). */
void pki_edit_stats_add_unmatched(pk_edit_stats *s, const char *utf8);

/* r from Euler angles in degrees (rules.c). */
void pki_euler_deg_to_quat(const double deg[3], float q[4]);

#endif
