/*
 * fuzz_common.h — checks shared by the fuzz targets (tests/fuzz/).
 *
 * A fuzz target finds bugs two ways: the sanitizers stop it (overflow,
 * use-after-free, undefined behaviour, leak), or one of these checks
 * calls fz_fail, which prints the reason and aborts so that libFuzzer
 * saves the input as a crash and the replay test fails.
 */
#ifndef PK_FUZZ_COMMON_H
#define PK_FUZZ_COMMON_H

#include "posekit.h"

#include <stddef.h>
#include <stdint.h>

/* Prints "fuzz check failed: ..." to stderr and aborts. */
_Noreturn void fz_fail(const char *fmt, ...) PK_PRINTF(1, 2);

/* The contract of every fallible call: a failure leaves at least one error
 * in the log, and every diagnostic formats (this also runs the formatter
 * over whatever the parser put in the messages). */
void fz_check_log(const pk_log *log, int failed, const char *what);

/* Field-by-field equality; names and paddings compared as raw bytes,
 * floats bit for bit (NaN payloads included).  Aborts with the first
 * difference. */
void fz_motion_equal(const pk_motion *a, const pk_motion *b);
/* Pose equality; tol = 0 means bit for bit, otherwise numbers may differ
 * by tol + tol * |value| (VPD text stores six decimals). */
void fz_pose_equal(const pk_pose *a, const pk_pose *b, double tol);

/* Writes data to a file in a private temporary folder (created once,
 * removed at exit) and returns its path (static buffer).  For loaders
 * that take a path (rules, jobs).  `name` is the file name to use. */
const char *fz_temp_file(const char *name, const uint8_t *data, size_t len);

/* The invariants of a model that read without error (fuzz_pmx, fuzz_pmd):
 * counts within what size bytes can hold, indices inside the model, no
 * parent cycle, every named bone found by its CP932 name. */
void fz_check_model(const pk_model *m, size_t size);
/* The same with the counts' limits given (a body, fuzz_body: text whose
 * YAML aliases make a morph or a rigid body a few bytes); size is only
 * printed. */
typedef struct fz_model_limits {
    size_t bones, morphs, frames, rigids;
} fz_model_limits;
void fz_check_model_within(const pk_model *m, const fz_model_limits *lim, size_t size);

#endif
