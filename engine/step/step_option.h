/*
 * step_option.h — private: a step's option rows found by name
 * (step_option.c).  The descriptors (step_NAME.c) and the registry
 * (step.c) both use it; it uses neither.
 */
#ifndef PKI_STEP_STEP_OPTION_H
#define PKI_STEP_STEP_OPTION_H

#include "step/step.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether options of this kind are a list (repeated, or a comma list). */
bool pki_option_is_list(pki_opt_kind k);
/* Whether options of this kind hold a string the step owns. */
bool pki_option_is_text(pki_opt_kind k);
/* Whether the option may be given more than once. */
bool pki_option_repeats(const pki_option *o);
/* The row named key, the operation's rows first, then the common ones
 * (*row: its index in pk_step.given, may be NULL), or NULL. */
const pki_option *pki_step_find_option(const pk_step *s, const char *key, size_t *row);
/* The option name a slip away from key (util/text.h, pki_nearest_word),
 * as the table spells it, or NULL. */
const char *pki_step_near_option(const pk_step *s, const char *key);
/* For an option the step lacks that its def has a hint for: the hint
 * in buf, options spelled as the caller spells them; else NULL. */
const char *pki_step_option_hint(const pk_step *s, const char *key, char *buf, size_t size);
/* Where the value of row `row` lives: the operation's options or the step. */
char *pki_step_field(const pk_step *s, size_t row);
/* Whether option `name` was given (a flag: given true; false is as absent). */
bool pki_step_given(const pk_step *s, const char *name);
/* The option's name as the caller spells it ("--pos-threshold"). */
const char *pki_step_spell(const pk_step *s, const char *name, char buf[64]);
/* Where a user sees the names `model_name` lacks for `input`: the command
 * line's `posekit check INPUT --model MODEL`, or in a job "a check step";
 * into buf (512 bytes), returned. */
const char *pki_step_check_how(const pk_step *s, const char *input, const char *model_name,
                               char buf[512]);
/* What to add to "wants a whole number of frames, not 'VALUE'" when VALUE
 * is one, only too large: the range (signed: a shift or an offset, either
 * way), else "". */
const char *pki_frames_hint(const char *value, bool sign);
/* A usage error with no position; returns -1. */
int pki_step_fail(pk_log *log, const char *fmt, ...) PK_PRINTF(2, 3);

#endif
