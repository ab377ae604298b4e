/* play.h — a motion or pose played on a model (internal,
 * ops/skeleton/play.c): the world transforms of chosen bones at every
 * frame. */
#ifndef PKI_OPS_SKELETON_PLAY_H
#define PKI_OPS_SKELETON_PLAY_H

#include "posekit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- a motion or pose played on a model (play.c) ---- */

typedef struct pki_play {
    const pk_model *m;
    uint32_t f0, n; /* frames f0 .. f0 + n - 1 */
    size_t nwatch;
    int32_t *slot;    /* per model bone: its place in a frame's row, or -1 */
    pk_bone_world *w; /* n rows of nwatch */
    /* What each row was evaluated from (a motion's play; NULL for a
     * pose): the evaluated bones (the model's bones map[0..nin)), their
     * locals and IK states, nin per row. */
    size_t nin, evaluated; /* evaluated: rows not taken from an earlier play */
    bool *fresh;           /* per row: evaluated here, not taken (n; any play) */
    /* per row (NULL: none): kept by pki_play_motion_update_rows from an
     * evaluation of other inputs than in[] (the row a full play gives
     * within what the caller bounded, not bit for bit); a later play or
     * update evaluates it again */
    bool *stale;
    int32_t *map;
    pk_bone_local *in;
    bool *on;
    /* the key records each evaluated bone's track had, in frame order:
     * keys[at[j] .. at[j + 1]) for bone map[j] */
    pk_bone_key *keys;
    size_t *at;
    size_t sampled; /* bone tracks sampled, not taken from an earlier play */
    /* each row's IK solves (eval.h, nmemo doubles a row); solved: the
     * chains solved, not taken from an earlier play */
    double *memo;
    size_t nmemo, solved;
} pki_play;

/* Plays a motion on m at every frame f0 .. f0 + n - 1 (MMD's evaluation:
 * appends, IK, the IK section's states), keeping the world transforms of
 * the bones watch marks.  0, or -1 (logged, OOM). */
int pki_play_motion(pki_play *p, const pk_model *m, const pk_motion *mo, uint32_t f0, uint32_t n,
                    const bool *watch, pk_log *log);
/* The same, taking the rows of `prev` (a play of the same model and
 * watched bones, any frames) whose frame was evaluated there from the
 * same locals and IK states: an evaluation depends on nothing else, so
 * the rows are those a full play gives, bit for bit, for the cost of
 * sampling the keys where the motion did not change.  prev may be NULL. */
int pki_play_motion_again(pki_play *p, const pki_play *prev, const pk_model *m, const pk_motion *mo,
                          uint32_t f0, uint32_t n, const bool *watch, pk_log *log);
/* p (a motion's play, not leaned) played again in place on motion mo,
 * watching the same bones: the rows a full play gives, bit for bit, for
 * the cost of the rows whose inputs changed.  A track whose key records
 * changed is sampled only over the rows where its value may change (from
 * the key before a changed key to the one after it), so a round that
 * rewrote a few frames costs a few rows; fresh[] tells the rows
 * evaluated.  A play that is not such a one is played afresh (taking its
 * rows where the inputs are the same).  0, or -1 (logged, OOM: p left
 * as it was). */
int pki_play_motion_update(pki_play *p, const pk_motion *mo, const bool *watch, pk_log *log);
/* The same, evaluating only the rows only[] marks (NULL: all) among those
 * whose inputs changed: any other such row keeps what it had, its new
 * inputs in in[] and stale[] set.  The caller vouches that what it reads
 * of those rows is close enough. */
int pki_play_motion_update_rows(pki_play *p, const pk_motion *mo, const bool *watch,
                                const bool *only, pk_log *log);
/* The same for a pose (one frame, f0 = 0). */
int pki_play_pose(pki_play *p, const pk_model *m, const pk_pose *po, const bool *watch,
                  pk_log *log);
void pki_play_free(pki_play *p);
/* Frees what a later play would take rows from (the inputs and keys), for
 * a play no other will follow; its rows stay. */
void pki_play_lean(pki_play *p);
/* Bone b's world transform at row i (b must be watched). */
static inline const pk_bone_world *pki_play_at(const pki_play *p, uint32_t i, int32_t b)
{
    return &p->w[(size_t)i * p->nwatch + (size_t)p->slot[b]];
}

#endif
