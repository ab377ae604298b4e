/* eval.h — the skeleton's evaluation with its IK solves remembered
 * (internal, ops/skeleton/eval.c; the evaluation itself is posekit.h's
 * pk_rig_eval). */
#ifndef PKI_OPS_SKELETON_EVAL_H
#define PKI_OPS_SKELETON_EVAL_H

#include "posekit.h"

#include <stdbool.h>
#include <stddef.h>

/* The doubles one evaluation's IK memo takes (each chain: whether it was
 * solved, what its solve read and what it left). */
size_t pki_rig_memo_size(const pk_rig *r);
/* pk_rig_eval (flags 0) that writes each chain's solve into memo (of
 * pki_rig_memo_size doubles) and, where prev or else near (earlier memos
 * of the same rig, or NULL) holds a solve of the chain from the very same
 * inputs, takes its result instead of solving: the same bits, as a solve
 * depends on nothing else.  Returns how many chains it solved. */
size_t pki_rig_eval_memo(pk_rig *r, const pk_bone_local *local, const bool *ik_on,
                         pk_bone_world *out, const double *prev, const double *near, double *memo);

#endif
