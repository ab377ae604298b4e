/*
 * job.h — private: a loaded job (engine/job/), shared by the
 * loader (job_load.c: YAML -> steps) and the runner (job_run.c: steps ->
 * outputs in memory -> files).
 */
#ifndef PKI_JOB_JOB_H
#define PKI_JOB_JOB_H

#include "posekit_tool.h"

typedef struct pki_job_at {
    int line, col;
} pki_job_at;

typedef enum pki_job_kind {
    PKI_JOB_NONE,
    PKI_JOB_MOTION,
    PKI_JOB_POSE,
    PKI_JOB_REPORT,
    PKI_JOB_MODEL
} pki_job_kind;

/* A named thing: an input (a motion, pose or model), a rule set or a
 * step's result. */
typedef struct pki_job_item {
    char *name;
    char *path;    /* inputs and rules: resolved path */
    char *written; /* rules: the path as the job file writes it (a bare name may be shipped) */
    pki_job_at at;
    pki_job_at path_at; /* inputs and rules: the path's place in the job file */
    bool is_rules;
    bool is_model;  /* an input whose path ends in .pmx or .pmd */
    pk_step *by;    /* a step's result: the step that makes it */
    bool is_report; /* ... and it makes a report (diff, check, draw) */
    pki_job_kind kind;
    size_t warnings; /* inputs: warnings met reading it (a strict step fails on them) */
    pk_motion *motion;
    pk_pose *pose;
    pk_rules *rules;
    pk_model *model;
    pk_vpd_options vpd;     /* how a pose is written unless its output says */
    pk_step_result *report; /* a report step's result, written as .txt/.json/.csv/.yaml/.svg */
} pki_job_item;

/* One step of the job: the engine's step (every option, checked) and the
 * name of its result. */
typedef struct pki_job_step {
    pk_step *step;
    char *out;
    pki_job_at at;
    /* the first member of a group (a step's `dancers:` list, run together:
     * pk_step_run_group): how many steps from this one are its members;
     * 0 for a step alone and for the group's other members */
    size_t group;
    bool member; /* one of a group's members */
} pki_job_step;

typedef struct pki_job_out {
    pki_job_at at;
    pki_job_at path_at; /* the path's place in the job file */
    uint32_t frame;
    pk_vpd_options vpd;
    bool frame_set, layout_set, no_morphs_set;
    pki_job_at frame_at, vpd_at; /* the frame key's place; layout's or no_morphs' */
    char *key; /* pki_job_at the write lands (owned), to compare outputs with each other */
    pk_report_format report; /* a report: the format its extension names */
    pk_format fmt;           /* PK_FMT_UNKNOWN = a report */
    /* a device or pipe (/dev/null): no name to tell a format by, so it
     * takes what is written to it, as the commands' -o does (a motion as
     * .vmd, a pose as .vpd, a report as its text) */
    bool device;
} pki_job_out;

struct pk_job {
    char *path, *dir;
    pki_job_item *items;
    size_t nitems, cap_items;
    pki_job_step *steps;
    size_t nsteps, cap_steps;
    pk_job_output *outs;
    pki_job_out *ospec;
    size_t nouts;
    pk_buf report;
    bool ran;
    pk_bodies *bodies; /* the built-in bodies, read when a step first needs them */
    char *each;        /* a run of many files: this run's file (the input "{each}"), or NULL */
    char *stem;        /* ... its name without the extension ("{stem}" in output paths) */
    bool each_used;    /* an input is "{each}" */
};

/* A run of many files (job_each.c): the input whose path is PKI_JOB_EACH
 * takes each file in turn; PKI_JOB_STEM in an output's path is that
 * file's stem. */
#define PKI_JOB_EACH "{each}"
#define PKI_JOB_STEM "{stem}"
/* pk_job_load for one file of a run of many (each: the file; NULL: a
 * plain job, where "{each}" and "{stem}" are errors). */
pk_job *pki_job_load_each(const char *path, const char *each, pk_log *log);
/* A file's stem: its name without folders and without its last extension
 * ("dances/a.b.vmd" -> "a.b"; a name that is all extension, ".vmd", is
 * kept whole).  malloc'd; NULL on OOM. */
char *pki_job_stem(const char *file);
/* path with every PKI_JOB_STEM replaced by stem, malloc'd; NULL on OOM. */
char *pki_job_name_output(const char *path, const char *stem);

/* job_load.c holds the job (load, find, free); job_run.c runs it and
 * calls these, never the other way. */
pki_job_item *pki_job_find(const pk_job *j, const char *name);
/* Frees what an pki_job_item holds (its document, rules, model or report). */
void pki_job_item_clear(pki_job_item *it);

#endif
