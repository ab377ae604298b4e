/*
 * job_internal.h — private: a loaded job (engine/job/), shared by the
 * loader (job_load.c: YAML -> steps) and the runner (job_run.c: steps ->
 * outputs in memory -> files).
 */
#ifndef PK_JOB_INTERNAL_H
#define PK_JOB_INTERNAL_H

#include "posekit_tool.h"

typedef struct where {
    int line, col;
} where;

typedef enum vkind { V_NONE, V_MOTION, V_POSE, V_REPORT, V_MODEL } vkind;

/* A named thing: an input (a motion, pose or model), a rule set or a
 * step's result. */
typedef struct item {
    char *name;
    char *path;    /* inputs and rules: resolved path */
    char *written; /* rules: the path as the job file writes it (a bare name may be shipped) */
    where at;
    where path_at; /* inputs and rules: the path's place in the job file */
    bool is_rules;
    bool is_model;  /* an input whose path ends in .pmx or .pmd */
    pk_step *by;    /* a step's result: the step that makes it */
    bool is_report; /* ... and it makes a report (diff, check, draw) */
    vkind kind;
    size_t warnings; /* inputs: warnings met reading it (a strict step fails on them) */
    pk_motion *motion;
    pk_pose *pose;
    pk_rules *rules;
    pk_model *model;
    pk_vpd_options vpd;     /* how a pose is written unless its output says */
    pk_step_result *report; /* a report step's result, written as .txt/.json/.csv/.yaml/.svg */
} item;

/* One step of the job: the engine's step (every option, checked) and the
 * name of its result. */
typedef struct job_step {
    pk_step *step;
    char *out;
    where at;
} job_step;

typedef struct outspec {
    where at;
    where path_at; /* the path's place in the job file */
    uint32_t frame;
    pk_vpd_options vpd;
    bool frame_set, layout_set, no_morphs_set;
    where frame_at, vpd_at;  /* the frame key's place; layout's or no_morphs' */
    char *key;               /* where the write lands (owned), to compare outputs with each other */
    pk_report_format report; /* a report: the format its extension names */
    pk_format fmt;           /* PK_FMT_UNKNOWN = a report */
} outspec;

struct pk_job {
    char *path, *dir;
    item *items;
    size_t nitems, cap_items;
    job_step *steps;
    size_t nsteps;
    pk_job_output *outs;
    outspec *ospec;
    size_t nouts;
    pk_buf report;
    bool ran;
};

/* job_load.c holds the job (load, find, free); job_run.c runs it and
 * calls these, never the other way. */
item *job_find(const pk_job *j, const char *name);
/* Frees what an item holds (its document, rules, model or report). */
void job_item_clear(item *it);

#endif
