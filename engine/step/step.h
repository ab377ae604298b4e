/*
 * step.h — private: what an operation is to the step layer
 * (engine/step/).  Each operation is one file, step_NAME.c, holding one
 * descriptor (pki_step_def): its option rows, its checks, its run, its
 * summary and reports, what it makes, and what the command line shows of
 * it.  step.c holds the registry (one row per operation) and everything
 * that works the same for every operation: the option setter the command
 * line and job files share, operands, needs, run and report dispatch.
 * step_option.c (step_option.h) finds a step's option rows by name, below
 * both: descriptors read their options through it.
 * step_run.c holds the small pieces several operations' runs share.
 */
#ifndef PKI_STEP_STEP_H
#define PKI_STEP_STEP_H

#include "posekit_tool.h"

#include <stddef.h>

/* ---- option rows ---- */

typedef enum pki_opt_kind {
    PKI_OPT_INPUT,    /* a document's name; slot = its place in run order */
    PKI_OPT_INPUTS,   /* every input, repeated (merge) */
    PKI_OPT_RULES,    /* a rule set's name (char *); the rules given go to `thing` */
    PKI_OPT_MODEL,    /* a model's name (char *); the model given goes to `thing` */
    PKI_OPT_STRING,   /* char * */
    PKI_OPT_SELECT,   /* char *: a selection, names, globs or @groups, no item empty */
    PKI_OPT_BOOL,     /* bool */
    PKI_OPT_U32,      /* uint32_t */
    PKI_OPT_DOUBLE,   /* double, 0 or more */
    PKI_OPT_POSITIVE, /* double above 0 */
    PKI_OPT_COUNT,    /* uint32_t, 1 or more */
    PKI_OPT_FRAMES,   /* pki_frames: A-B, N or all */
    PKI_OPT_ENUM,     /* int: the index in choices */
    PKI_OPT_OFFSET,   /* pki_list of int64_t, repeated whole numbers */
    PKI_OPT_SECTIONS, /* pki_list of unsigned section bits, repeated */
    PKI_OPT_WITHIN,   /* pki_list of uint32_t input numbers (1-based), repeated */
} pki_opt_kind;

/* --frames: every frame, or first..last. */
typedef struct pki_frames {
    bool all;
    uint32_t first, last;
} pki_frames;

/* A repeated option's values, in the order given (owned by the step). */
typedef struct pki_list {
    void *v;
    size_t n;
} pki_list;

/* One option of an operation. */
typedef struct pki_option {
    const char *name; /* with '_' (the command line spells it with '-') */
    pki_opt_kind kind;
    size_t offset;       /* the value's field in the operation's options */
    size_t thing;        /* RULES, MODEL: the field receiving what the caller loaded */
    int slot;            /* INPUT: place in run order */
    const char *choices; /* ENUM: "a|b|c", the value is the index */
    const char *wants;   /* what a value must be, for messages */
} pki_option;

/* Rows most operations share; T is the operation's options type. */
#define PKI_ROW_INPUT(name, slot)                                                                  \
    {                                                                                              \
        name, PKI_OPT_INPUT, 0, 0, slot, NULL, "a file"                                            \
    }
#define PKI_ROW_RULES(T)                                                                           \
    {                                                                                              \
        "rules", PKI_OPT_RULES, offsetof(T, rules_name), offsetof(T, rules), 0, NULL,              \
            "a rules file"                                                                         \
    }
#define PKI_ROW_MODEL(T, name, field, thing)                                                       \
    {                                                                                              \
        name, PKI_OPT_MODEL, offsetof(T, field), offsetof(T, thing), 0, NULL,                      \
            "a PMX, PMD or body file"                                                              \
    }
#define PKI_ROW_BONES(T)                                                                           \
    {                                                                                              \
        "bones", PKI_OPT_SELECT, offsetof(T, bones), 0, 0, NULL, "names, globs or @groups"         \
    }
#define PKI_ROW_FRAMES(T)                                                                          \
    {                                                                                              \
        "frames", PKI_OPT_FRAMES, offsetof(T, frames), 0, 0, NULL, "A-B (A <= B), N or 'all'"      \
    }
#define PKI_ROW_BOOL(T, name, field)                                                               \
    {                                                                                              \
        name, PKI_OPT_BOOL, offsetof(T, field), 0, 0, NULL, NULL                                   \
    }
#define PKI_ROWS(rows) rows, sizeof rows / sizeof rows[0]

/* ---- the descriptor ---- */

/* What the command line shows of an operation (posekit_tool.h,
 * pk_step_cli). */
typedef pk_step_cli pki_step_cli;

/* An option the command does not have but a user reaches for, because a
 * line of its summary names it (retarget's "floor:" line is its centre
 * step's): the error says which options to give instead.  text holds a
 * %s for each of opts, spelled as the caller spells options. */
typedef struct pki_option_hint {
    const char *key; /* "no_floor" */
    const char *text;
    const char *opts[8];
} pki_option_hint;

typedef struct pki_step_def {
    const char *name;  /* "diff" */
    const char *about; /* one line for `posekit help` */
    const char *help;  /* the command's help text */
    const pki_option *options;
    size_t noptions;
    size_t opts_size;         /* the operation's options struct */
    void (*init)(void *opts); /* its defaults (NULL: zeros) */
    /* Positional operands: the input options they fill, in order,
     * comma-separated ("a,b"); the last one repeats when its option does
     * (merge's "in").  too_many: "two files" in "two files at a time". */
    const char *operands;
    const char *too_many;
    /* Every rule that needs no document, beyond the values' own (NULL:
     * one input is needed). */
    int (*check)(const pk_step *s, pk_log *log);
    /* The rules of one option's value alone, once it is set (NULL: its
     * kind's own): said when the value is given, so a job places the
     * error at the value, not at its step (text options only: one refused
     * is left unset).  check says them again. */
    int (*check_value)(const pk_step *s, const char *key, pk_log *log);
    /* The run: n documents in run order (checked: n == the inputs). */
    int (*run)(const pk_step *s, pk_doc *in, size_t n, pk_step_result *res, pk_log *log);
    /* What it did in one line (none: nothing to say). */
    void (*summary)(const pk_step *s, const pk_step_result *res, pk_buf *out);
    unsigned reports; /* PKI_REPORT(f) bits: the formats pk_step_report writes */
    /* A report in a format of `reports` (NULL, or returning 1: the
     * summary line, for TEXT). */
    int (*report)(const pk_step *s, const pk_step_result *res, pk_report_format f, pk_buf *out,
                  pk_log *log);
    /* What to tell the user beside a report written as f, in one line
     * (check's rules: that there was nothing to suggest); NULL or nothing
     * written: nothing to tell. */
    void (*report_note)(const pk_step *s, const pk_step_result *res, pk_report_format f,
                        pk_buf *out);
    /* The caller will ask for a report in f (diff: SVG keeps bins). */
    void (*want)(pk_step *s, pk_report_format f);
    /* What it makes from a first input of format `in`: PK_FMT_VMD,
     * PK_FMT_VPD, or PK_FMT_UNKNOWN for a report. */
    pk_format (*makes)(const pk_step *s, pk_format in);
    bool takes_input; /* takes in[0] over (and edits it) */
    /* The step picks a model from the built-in bodies (pk_step_needs adds
     * them, and leaves out a model option given as "@auto"): whether it
     * does with these options, and where the pk_bodies * goes in them. */
    bool (*wants_bodies)(const pk_step *s);
    size_t bodies;
    void (*free_result)(void *own); /* pk_step_result.own */
    const char *report_exts;        /* a job's report output: "write it as ..." */
    pki_step_cli cli;
    /* Options it lacks that a user reaches for (NULL-keyed end). */
    const pki_option_hint *hints;
    /* Steps of this operation run together as a group (posekit_tool.h,
     * pk_step_run_group); group is its members' name ("dancers", the job
     * key listing them; NULL: no group).  check_group: the rules across
     * the members (each checked alone first); run_group: in[i] holds step
     * i's documents, res[i] its result (res[0] also the group's); then
     * the group's lines and reports from those results. */
    const char *group, *member; /* "dancers", "dancer" */
    int (*check_group)(pk_step *const *s, size_t n, pk_log *log);
    int (*run_group)(pk_step *const *s, size_t n, pk_doc *const *in, pk_step_result *res,
                     pk_log *log);
    void (*group_summary)(pk_step *const *s, size_t n, const pk_step_result *res, pk_buf *out);
    int (*group_report)(pk_step *const *s, size_t n, const pk_step_result *res, pk_report_format f,
                        pk_buf *out, pk_log *log);
} pki_step_def;

#define PKI_REPORT(f) (1u << (f))

enum { PKI_STEP_MAX_OPTIONS = 48 };

struct pk_step {
    const pki_step_def *def;
    char *prefix;  /* option names in messages: "--" or "" */
    char **inputs; /* run order */
    size_t ninputs;
    void *o;                          /* the operation's options (def->opts_size bytes) */
    bool strict;                      /* the option every operation has */
    bool given[PKI_STEP_MAX_OPTIONS]; /* by row; the common rows after def's */
    size_t bins;                      /* diff: pk_diff_options.bins for its picture */
    bool member;                      /* one of a group (pk_step_set_member) */
};

/* The model option value that asks the step to pick a built-in body. */
#define PKI_AUTO_BODY "@auto"

/* ---- pieces the runs share (step_run.c) ---- */

/* A zeroed result of `size` bytes, kept in res->own (freed by the
 * descriptor's free_result); NULL, said, on OOM. */
void *pki_result_new(pk_step_result *res, size_t size, pk_log *log);
/* 0 when in holds a motion; else -1, said: "IN: NAME works on a VMD motion
 * (why)". */
int pki_need_motion(const pk_step *s, const pk_doc *in, const char *why, pk_log *log);

/* Messages of an operation about one document name its file: what it
 * logs from pki_mark(log) on is placed at the document's name afterwards
 * (pk_log_place; a NULL name leaves them to the caller).  A job re-places
 * them at its step. */
size_t pki_mark(const pk_log *log);
/* *to = *from, and from zeroed (a document taken over). */
void pki_take(pk_doc *to, pk_doc *from);
/* A copy of the pose with its over-long names cut for the VMD field when
 * cut is set (*own the copy to free), or the pose itself; NULL on error. */
const pk_pose *pki_cut_pose(bool cut, const pk_pose *p, pk_pose **own, pk_log *log);
/* "s" unless n is 1. */
const char *pki_plural(size_t n);
/* An editing step's document without duplicate keys (the later record
 * of a key wins, as MMD reads it), counted into res->duplicates: the
 * output of an edit does not carry them on to every later reader.  0, or
 * -1 (OOM, logged).  pki_duplicates_summary ends the step's summary line
 * with how many (nothing when none). */
int pki_drop_duplicates(pk_doc *d, pk_step_result *res, pk_log *log);
/* Whether a and b write the same VMD bytes (an edit that changed nothing);
 * false when either cannot be written. */
bool pki_motion_same_bytes(const pk_motion *a, const pk_motion *b);
void pki_duplicates_summary(const pk_step_result *res, pk_buf *out);
/* The records of m a later record of the same key hides: what a step
 * that rebuilds every track of its input absorbs (the later record wins)
 * and counts into res->duplicates itself. */
size_t pki_motion_duplicates(const pk_motion *m);
/* first..last over every frame of the motions among docs[0..n) (a pose
 * holds at any frame); 0..0 when none is a motion. */
void pki_frame_span(const pk_doc *docs, size_t n, uint32_t *first, uint32_t *last);
/* One policy for every frame a command samples at (convert --frame,
 * overlay --frames and --pose-frame, crossfade --at, diff's --frame and
 * --frames, draw's --frame; time --trim and crossfade --skip say it in
 * their own words): MMD holds a motion's last pose after its last key, so
 * sampling there is legal, but a frame (or a range's first frame) past the
 * last key is most likely a mistyped one: a warning naming the file `path`
 * (--strict: an error).  Steps that edit the keys inside a range (curve,
 * reduce, bake) say instead that it holds none.  `opt` is
 * the option's row name ("frame", "pose_frame"), spelled as the caller
 * does.  Nothing for a pose or a motion with no keys. */
void pki_warn_past_end(const pk_step *s, const pk_doc *d, const char *path, const char *opt,
                       uint32_t frame, pk_log *log);
/* The same for a range option (--frames A-B): A past the last key. */
void pki_warn_range_past_end(const pk_step *s, const pk_doc *d, const char *path, const char *opt,
                             const pki_frames *f, pk_log *log);
/* Whether the document keys (poses) bones of which the model holds none:
 * a motion with English names, or made for another skeleton (false for a
 * document keying no bone). */
bool pki_model_holds_none(const pk_model *m, const pk_doc *d);
/* Whether d's bone names look like another model's for m (a dance renamed
 * to English, or made for a model that names its bones its own way): none
 * of the standard skeleton's main bones that m has is among the bones it
 * moves, and most of those it moves (8 or more) are not on m; if so, warned
 * in one wording ("... are not on ON, and none of ... by those names: THEN
 * are its bone names another model's? (HOW English names ..."; THEN and
 * HOW end in "; " or are empty).  Whether it warned. */
bool pki_warn_names_elsewhere(const pk_model *m, const pk_doc *d, const char *on, const char *then,
                              const char *how, pk_log *log);
/* Whether a selection has the raw name (a pk_diff_options.bone_filter). */
bool pki_selection_filter(void *sel, const uint8_t *raw, size_t len);
/* The body in colour of a picture: the standard groups of the rules (or of
 * the built-in ones); NULL when none (every bone in colour).  *own: rules
 * to free after. */
pk_selection *pki_body(const pk_rules *rules, pk_rules **own);

/* ---- what reports share (step_report.c) ---- */

/* x rounded to 6 decimals (the JSON of diff's rows). */
double pki_round6(double x);
/* A CSV field, quoted when it holds a comma, a quote or a line break. */
void pki_csv_field(pk_buf *f, const char *s);
/* A YAML double-quoted string. */
void pki_yaml_quoted(pk_buf *b, const char *s);

/* ---- diff's picture (step_diff_svg.c) ---- */

/* Heatmap columns at most: a range diff drawn with pki_diff_svg is made
 * with pk_diff_options.bins = PKI_DIFF_SVG_COLUMNS, so its memory does not
 * grow with the range. */
#define PKI_DIFF_SVG_COLUMNS 600
/* Appends an SVG document for d (sorted with pk_diff_sort; o: the options
 * it was made with, whose thresholds pick the rows) to out, sized to its
 * text, fonts that cover Japanese first:
 *  - a pose diff (or a range diff made without bins): per bone a rotation
 *    bar (degrees) and a translation bar (units), per morph a bar of
 *    B - A around 0, the camera/light/shadow channels as numbers;
 *  - a range diff made with bins: one heatmap per kind (bone rotation,
 *    bone translation, morph weight, camera/light/shadow), one row per
 *    row that differs and one column per bin (the largest difference of
 *    its frames), each with a colour scale, the frame axis labelled every
 *    few frames, and the row's maximum on the right.
 * Rows: those that differ, largest first (all: every row), at most 200
 * per kind; `title` (UTF-8) heads the picture and should name the frame
 * or range.  Returns 0, or -1 on OOM. */
int pki_diff_svg(const pk_diff *d, const pk_diff_options *o, const char *title, bool all,
                 pk_buf *out);
/* One SVG document of two: `top`'s picture above `bottom`'s (each written
 * by pki_diff_svg or pk_draw_svg), the canvas as wide as the wider.
 * Returns 0, or -1 on OOM or when either is not such a document. */
int pki_svg_stack(const pk_buf *top, const pk_buf *bottom, pk_buf *out);

/* ---- rename's pieces retarget and mirror share (step_rename.c) ---- */

/* Takes in[0] over as res->out and gives res->own a pk_edit_stats (freed
 * by pki_edit_free); NULL (logged) on OOM. */
pk_edit_stats *pki_edit_start(pk_doc *in, pk_step_result *res, pk_log *log);
void pki_edit_free(void *stats);
/* Names renamed: bones, morphs and IK names. */
size_t pki_edit_renamed(const pk_edit_stats *st);
/* "N of M bones renamed, ..." and the names no rule matched. */
void pki_rename_summary(const pk_edit_stats *e, pk_buf *out);
void pki_unmatched(const pk_edit_stats *e, pk_buf *out);

/* What makes functions several operations share: the first input's
 * format, a motion, a report. */
pk_format pki_makes_input(const pk_step *s, pk_format in);
pk_format pki_makes_motion(const pk_step *s, pk_format in);
pk_format pki_makes_report(const pk_step *s, pk_format in);

#endif
