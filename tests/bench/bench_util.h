/*
 * bench_util.h — timing, peak memory and table rows for the benchmarks
 * (tests/bench/bench_io.c, bench_ops.c).
 *
 * Every case runs in a child process (fork) so that its peak resident set
 * (getrusage ru_maxrss, reported by the child) is its own: the parent
 * never holds the benchmark data.  Inside the child the case runs a few
 * times; the fastest run is reported (the others absorb cache warm-up and
 * scheduling noise on a shared machine).
 */
#ifndef PK_BENCH_UTIL_H
#define PK_BENCH_UTIL_H

#include "posekit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One case: setup (untimed, may be NULL), body (timed, repeated), teardown
 * (untimed, may be NULL).  ctx is the case's own data.  body returns 0 on
 * success; a failing body aborts the case with "FAILED" in the table. */
typedef struct bench_case {
    const char *name;
    int (*setup)(void *ctx);
    int (*body)(void *ctx);
    void (*teardown)(void *ctx);
    void *ctx;
    double bytes;     /* bytes processed per run, for MB/s (0: none) */
    double items;     /* items per run, for items/s (0: none) */
    const char *unit; /* items' unit, e.g. "bone-frames" */
    double file_size; /* for the peak-memory ratio (0: none) */
    long base_kib;    /* RSS subtracted in the ratio (0: the child baseline) */
    int cpu;          /* 1: time is the process's CPU time (pure computation on a
                         shared machine); 0: wall-clock time (I/O, fsync) */
} bench_case;

typedef struct bench_result {
    int ok;
    double seconds;  /* fastest run */
    long peak_kib;   /* child's ru_maxrss */
    long minflt;     /* minor page faults of the fastest run (getrusage ru_minflt) */
} bench_result;

/* Runs the case `reps` times in a child and prints one table row:
 * | case | time | throughput | peak RSS | peak / file | minor faults |. */
bench_result bench_run(const bench_case *c, int reps);
/* The command line of a benchmark that takes only [--reps N]: N (at least
 * 1; dflt when not given), or -1 after printing usage on stderr. */
int bench_reps(int argc, char **argv, int dflt, const char *usage);
/* The header rows of the table, and the child's baseline RSS (a case that
 * does nothing), printed once so the ratios can be judged. */
void bench_table_header(void);
long bench_baseline_kib(void);

double bench_now(void); /* monotonic seconds */
double bench_cpu_now(void); /* this process's CPU seconds */

/* Builds a synthetic motion with the public API: `nbones` bone tracks of
 * `keys` keys each (CP932 names, curved interpolation, moving values), and
 * `nmorphs` morph tracks of `keys / 2` keys.  Keys are in MMD's order:
 * frame-0 keys first, then track by track.  Caller frees with
 * pk_motion_free; aborts on failure. */
pk_motion *bench_motion(size_t nbones, size_t keys, size_t nmorphs, uint32_t seed);
/* The generated motions of bench_sample.c (its top comment says what
 * each kind holds): nbones tracks over `frames` frames, a key every 1-15
 * frames, records shuffled as in MMD's files; *rng is the xorshift32
 * state (the same state, the same motion).  Aborts on failure. */
typedef enum { BENCH_DANCE, BENCH_WORST, BENCH_PRESET } bench_dance_kind;
pk_motion *bench_dance(size_t nbones, uint32_t frames, bench_dance_kind kind, uint32_t *rng);
/* Writes a motion to path (via pk_vmd_write + pk_file_write_atomic);
 * returns the file size; aborts on failure. */
size_t bench_write_vmd(const pk_motion *m, const char *path);
/* A temporary folder for the run (created once, static buffer). */
const char *bench_tmpdir(void);

/* ---- two corpus models and a dance retargeted between them
 * (bench_retarget.c, bench_sizing.c) ---- */

/* The bound benches' inputs, MODEL_A DANCE_A MODEL_B DANCE_B (p[0..3]):
 * each loaded, or NULL with the reason in log. */
typedef struct bench_bound_in {
    pk_model *ma, *mb;
    pk_motion *da, *db;
} bench_bound_in;
/* true when all four loaded; bench_bound_free frees what did. */
bool bench_bound_load(const char *prog, const char *p[4], bench_bound_in *bp, pk_log *log);
void bench_bound_free(bench_bound_in *bp);

/* The branch-and-bound benches' boxes (bench_cog_bound, bench_hands_bound):
 * a middle c and half sides h over up to 6 coordinates (the unused ones
 * 0), on a stack that grows by doubling. */
typedef struct bench_box {
    double c[6], h[6];
} bench_box;
/* Pushes b's two halves across coordinate k onto the stack st (*n of them
 * in *cap); -1 when it cannot grow (the stack is freed and *st NULL). */
int bench_box_halves(bench_box **st, size_t *n, size_t *cap, const bench_box *b, int k);

/* The corpus folder (PK_CORPUS), or NULL after telling on stderr that
 * `prog` is skipped without one. */
const char *bench_corpus(const char *prog);
/* PK_CORPUS/name into path (size bytes). */
void bench_corpus_path(const char *name, char *path, size_t size);
/* A corpus model (PK_CORPUS/name), NULL when it cannot be read. */
pk_model *bench_corpus_model(const char *name);
/* The motion in the file at path; NULL, logged or told on stderr behind
 * prog's name, when it cannot be read or holds no motion.  The caller
 * frees it (pk_motion_free). */
pk_motion *bench_load_motion(const char *prog, const char *path, pk_log *log);

typedef struct bench_pair {
    pk_model *a, *b;         /* the source and target models */
    pk_motion *dance, *work; /* the dance (the caller's), the copy a run sizes */
} bench_pair;

/* Loads both models; 0, or -1 when one cannot be read. */
int bench_pair_load(bench_pair *p, const char *from, const char *to);
/* Frees the models and motions. */
void bench_pair_free(bench_pair *p);
/* One timed run: the dance copied, then pk_motion_retarget_models from a to
 * b with the options o (from and to set here); its status. */
int bench_pair_retarget(bench_pair *p, pk_retarget_options o);

#endif
