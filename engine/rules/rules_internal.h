/*
 * rules_internal.h — the compiled form of rule files, shared by rules.c,
 * select.c, rename.c, mirror.c and retarget.c.  Not installed; the public
 * view is the rules section of posekit.h.
 *
 * Every name in a rule is kept as CP932 bytes (what files hold) plus the
 * UTF-8 text it was written as (for messages); names and globs are the
 * patterns of rules/pattern.h.
 */
#ifndef PK_RULES_INTERNAL_H
#define PK_RULES_INTERNAL_H

#include "posekit.h"
#include "rules/pattern.h"

/* Where a rule came from, for messages: file (owned by pk_rules.files),
 * 1-based line and column of the YAML node. */
typedef struct pk_where {
    const char *file;
    int line, col;
} pk_where;

typedef struct pk_map_rule {
    pk_pattern from, to;
    char *from_utf8, *to_utf8; /* owned */
    pk_where at;               /* the source key */
    pk_where to_at;            /* the target value */
    unsigned layer;            /* 0 = built-in, higher = loaded later */
} pk_map_rule;

typedef struct pk_map {
    pk_map_rule *v;
    size_t n, cap;
} pk_map;

/* One item of a group: a name, a glob or a reference to another group. */
typedef struct pk_group_item {
    char *text; /* UTF-8 as written (for @refs: the group name without '@') */
    bool ref;
    pk_pattern pat; /* when !ref */
    pk_where at;
} pk_group_item;

typedef struct pk_group {
    char *name; /* owned UTF-8 */
    pk_group_item *v;
    size_t n, cap;
    pk_where at;
} pk_group;

typedef struct pk_group_set {
    pk_group *v;
    size_t n, cap;
} pk_group_set;

typedef struct pk_mirror_pair {
    pk_pattern a, b; /* exact fragments */
    char *a_utf8, *b_utf8;
    pk_where at;
} pk_mirror_pair;

typedef struct pk_stance_rule {
    pk_pattern bone;
    char *bone_utf8;
    double rotate_deg[3]; /* as written: X, Y, Z in degrees */
    float r[4];           /* the rotation r as a unit quaternion x,y,z,w */
    pk_group chain;       /* anonymous group: the bones below `bone` */
    pk_where at;
} pk_stance_rule;

typedef struct pk_scale_rule {
    pk_pattern bone;
    char *bone_utf8;
    double factor;
    pk_where at;
    unsigned layer;
} pk_scale_rule;

struct pk_rules {
    char **files; /* every file loaded (positions point here); owned */
    size_t nfiles;
    pk_map rename, morphs;
    pk_group_set groups, morph_groups;
    pk_mirror_pair *mirror;
    size_t nmirror;
    bool mirror_from_file;        /* a loaded file had a `mirror` key */
    pk_mirror_pair *morph_mirror; /* whole morph names swapped by mirror */
    size_t nmorph_mirror;
    bool morph_mirror_from_file;
    pk_stance_rule *stance;
    size_t nstance;
    double scale_default;
    bool scale_set;
    pk_scale_rule *scale;
    size_t nscale;
};

/* ---- groups (rules.c) ---- */
const pk_group *pk_rules_find_group(const pk_rules *r, const char *name, bool morph);

/* A new empty selection (select.c); free with pk_selection_free. */
pk_selection *pk_selection_new_empty(void);
/* Adds the items of group g to a selection (recursively through @refs). */
int pk_selection_add_group(pk_selection *s, const pk_rules *r, const pk_group *g, pk_log *log,
                           int depth);

/* ---- rename maps (rename.c) ---- */

/* The best rule of map m for a name (exact rules first, then the glob
 * with the longest literal part, then the rule loaded last), in the given
 * direction.  On a match writes the new name into out (PK_PATTERN_MAX*2
 * bytes) and returns the rule; NULL when nothing matches. */
const pk_map_rule *pk_map_lookup(const pk_map *m, bool reverse, const uint8_t *raw, size_t len,
                                 uint8_t *out, size_t *out_len);

/* A planned renaming of the ids of one names table: to[id] is the new
 * name's bytes (or unchanged).  Built, checked for collisions and field
 * widths, then applied, so nothing changes when any check fails. */
typedef struct pk_name_plan {
    size_t n;
    bool *used;    /* id occurs in the records being renamed */
    bool *changed; /* to[id] differs from the old name */
    uint8_t **to;  /* new raw bytes (owned) when changed */
    size_t *to_len;
    const pk_map_rule **rule; /* the rule that matched (NULL for mirror) */
} pk_name_plan;

int pk_name_plan_init(pk_name_plan *pl, size_t n);
void pk_name_plan_free(pk_name_plan *pl);
int pk_name_plan_set(pk_name_plan *pl, pk_name_id id, const uint8_t *raw, size_t len);
/* Errors (naming both) when two distinct used ids would end with the same
 * bytes.  `what` is "bone" or "morph". */
int pk_name_plan_check_collisions(const pk_name_plan *pl, const pk_names *names, const char *what,
                                  pk_log *log);
/* Errors (naming the bone) when a changed name is longer than max bytes. */
int pk_name_plan_check_width(const pk_name_plan *pl, const pk_names *names, const bool *subset,
                             size_t max, const char *what, pk_log *log);
/* Interns the new names; *map receives old id -> new id (malloc'd). */
int pk_name_plan_commit(const pk_name_plan *pl, pk_names *names, pk_name_id **map, pk_log *log);

/* The padding id for a record renamed from `old` (with padding old_pad)
 * to new_id in a field of `width` bytes (see rename.c); UINT32_MAX on OOM. */
uint32_t pk_pad_transfer(pk_motion *m, pk_name_id old, uint32_t old_pad, pk_name_id new_id,
                         size_t width);
/* Renames bone keys and IK states by bmap and morph keys by mmap (may be
 * NULL), old id -> new id, carrying padding over; -1 on OOM. */
int pk_motion_apply_names(pk_motion *m, const pk_name_id *bmap, const pk_name_id *mmap);

/* Appends a copy of a UTF-8 name to s->unmatched (s may be NULL). */
void pk_edit_stats_add_unmatched(pk_edit_stats *s, const char *utf8);

/* r from Euler angles in degrees (rules.c). */
void pk_euler_deg_to_quat(const double deg[3], float q[4]);

#endif
