/*
 * step_internal.h — private: the options of a step (engine/step/), shared
 * by the option table (step.c), the runner (step_run.c) and the report
 * writers (step_report.c).
 */
#ifndef PK_STEP_INTERNAL_H
#define PK_STEP_INTERNAL_H

#include "posekit.h"

/* Every option of every operation, one field each.  Which operation has
 * which option is the table in step.c. */
typedef struct pk_step_opts {
    char *rules, *bones, *model;
    char *from, *to_model;           /* retarget: the models (--from, --to) */
    bool no_stance, no_scale, no_fold, fingers, verbose; /* retarget with models */
    uint32_t frame;                  /* convert, diff */
    bool frames_all;                 /* diff, overlay: --frames all */
    uint32_t first, last;            /* --frames A-B */
    uint32_t pose_frame, fade;       /* overlay */
    double threshold, pos_threshold; /* diff */
    int mode;                        /* overlay: pk_overlay_mode */
    int prefer;                      /* merge: pk_merge_policy */
    int to;                          /* convert: pk_format */
    int layout;                      /* convert: pk_vpd_layout */
    bool no_morphs, all, groups, reverse;
    bool cut_names; /* convert, overlay, merge: over-long names cut for the VMD field */
    double max_deg, max_pos, max_morph; /* reduce: tolerances */
    uint32_t step;                      /* bake: a key every step frames */
    bool camera;                        /* reduce, bake: the camera too */
    bool strict;                        /* check: warnings are errors */
    char *vs_model;                     /* draw: the vs pose's model */
    uint32_t every;                     /* draw: a figure every K frames */
    int view;                           /* draw: pk_draw_view */
    int64_t *offsets; /* merge: --offset, per input in order */
    size_t noffsets;
    unsigned *sections; /* merge: --sections, per input in order */
    size_t nsections;
    uint32_t *within; /* merge: --within K (1-based) */
    size_t nwithin;
} pk_step_opts;

enum { PK_STEP_MAX_OPTIONS = 64 };

struct pk_step {
    pk_step_op op;
    char *prefix;
    char **inputs; /* run order */
    size_t ninputs;
    pk_step_opts o;
    bool given[PK_STEP_MAX_OPTIONS]; /* by table row */
    size_t bins;                     /* diff: pk_diff_options.bins (pictures) */
    const struct pk_model *model;    /* the caller's, for the model option */
    const struct pk_model *from, *to; /* the caller's, for retarget's from and to */
    const struct pk_model *vs_model; /* the caller's, for draw's vs_model option */
};

/* Whether option `name` was given (a flag: given true; false is as absent). */
bool pk_step_given(const pk_step *s, const char *name);

#endif
