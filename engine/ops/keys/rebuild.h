/* rebuild_internal.h — one bone or morph track of a motion rebuilt around
 * a frame window, the machinery overlay.c and splice.c share (not part of
 * the public API).
 *
 * A rebuilt track is a list of keys in frame order, each either ORIGINAL
 * (the base's record at that frame, kept byte-identical and in place) or
 * NEW (appended after the section's other records).  The base's records of
 * a rebuilt track that the list does not keep are dropped.
 *
 * Bones and morphs follow one law: outside the window every integer frame
 * samples as the base (bones within PK_OVERLAY_TOL_DEG / PK_OVERLAY_TOL_POS,
 * morphs exactly).  A base segment an edge of the window crosses is cut
 * there: a bone's by splitting its curve (or fitting or baking the piece,
 * rebuild.c), a morph's exactly (MMD blends morph weights linearly, so a
 * linear segment cut at a frame is two linear segments through the
 * sampled weight).  Inside the window the track takes the overlay (a pose
 * value, replaced or composed with the base) or another motion's keys
 * (splice).
 */
#ifndef PKI_OPS_KEYS_REBUILD_H
#define PKI_OPS_KEYS_REBUILD_H

#include "posekit.h"
#include "math/curve.h"

/* A value of either kind: bones use pos and rot, morphs w. */
typedef struct pki_rb_val {
    float pos[3];
    float rot[4];
    float w;
} pki_rb_val;

typedef struct pki_rb_key {
    uint32_t frame;
    bool orig; /* keep the base's record at this frame as it is */
    pki_rb_val v;
    uint8_t cp[4][4]; /* bones: curve of the segment ending here (when !orig) */
    bool physics_off;
} pki_rb_key;

typedef struct pki_rb_list {
    pki_rb_key *v;
    size_t n, cap;
} pki_rb_list;

/* What every track of one run shares. */
typedef struct pki_rb_env {
    const pk_motion *m;            /* the base */
    const pk_overlay_options *opt; /* mode, window, fade */
    pk_overlay_stats *st;          /* crossed pieces split, fitted, baked */
    pk_motion *scratch;            /* two bone keys: a piece checked with the sampler */
    pki_curve_cache *cache;        /* the fitter's x(t) tables (may be NULL) */
    bool fit;                      /* fit a bone piece that does not split exactly (else bake it) */
} pki_rb_env;

/* One track's rebuild. */
typedef struct pki_rb {
    const pki_rb_env *env;
    const pk_track *t; /* base track; NULL: the base has none (rest, weight 0) */
    bool morph;
    const pk_motion *src; /* splice: the keys laid in over the window (src's track src_t) */
    const pk_track *src_t;
    pki_rb_val pose;   /* the overlay's value; rot normalised */
    float pose_raw[4]; /* as stored in the pose (replace keeps it) */
    pk_track scratch_t;
    uint32_t scratch_keys[2];
    pki_rb_list out;
    bool oom;
    bool too_long; /* a crossed segment longer than PKI_RB_PIECE_MAX frames */
} pki_rb;

/* Crossed bone pieces are checked (and maybe baked) frame by frame; a
 * segment longer than this (about 9.7 hours at 30 fps) is refused rather
 * than turned into a million keys. */
#define PKI_RB_PIECE_MAX (1u << 20)

/* Whether the window of opt can be rebuilt: A <= B, and the first frame
 * after it (B + max(F, 1)) is a frame number; an error (logged) if not. */
bool pki_rb_window_ok(const pk_overlay_options *opt, pk_log *log);

/* A scratch motion with the two bone keys pki_rb_env.scratch needs (NULL
 * on OOM; pk_motion_free). */
pk_motion *pki_rb_scratch_new(void);

/* Starts the rebuild of base track t (NULL: none) of the given kind; the
 * pose value is the rest pose (identity, weight 0) until set. */
void pki_rb_init(pki_rb *c, const pki_rb_env *env, const pk_track *t, bool morph);
/* The pose value the overlay lays: a bone's translation and rotation as
 * stored, or a morph's weight. */
void pki_rb_set_bone_pose(pki_rb *c, const float pos[3], const float rot[4]);
void pki_rb_set_morph_pose(pki_rb *c, float w);

/* The track over the window env->opt->first..last with its fades (or, with
 * c->src_t, src's keys laid in over it). */
void pki_rb_range(pki_rb *c);
/* The whole track (opt->all_frames): replace holds the pose from frame 0;
 * add composes every base key. */
void pki_rb_all(pki_rb *c);
/* The track from frame `cut` on: a key at the cut holding the base's value
 * there, the keys after it kept (the first one re-curved when a bone
 * segment crosses the cut). */
void pki_rb_cut(pki_rb *c, uint32_t cut);

/* The track over [a, b] alone (a <= b): a key at a holding the base's
 * value, the keys inside kept (the first one re-curved when a bone
 * segment crosses a), a key at b ending the crossed segment's left piece;
 * nothing after b (the output holds its value at b from there). */
void pki_rb_trim(pki_rb *c, uint32_t a, uint32_t b);

/* Does the rebuilt track sample as the base at every integer frame
 * (bones within PK_OVERLAY_TOL_DEG / PK_OVERLAY_TOL_POS, morphs within
 * 1e-5)?  *ok is false on OOM. */
bool pki_rb_unchanged(const pki_rb *c, bool *ok);

/* A rebuilt track to apply: the name in the output motion, its keys. */
typedef struct pki_rb_plan {
    pk_name_id name;
    pki_rb_list keys;
} pki_rb_plan;

void pki_rb_plans_free(pki_rb_plan *p, size_t n);

/* Replaces the bone (morphs: morph) records of the planned tracks in out:
 * originals stay in place, the tracks' other records are dropped (counted
 * in st->keys_removed), new keys are appended track by track in frame
 * order (st->keys_added).  -1 on OOM. */
int pki_rb_apply(pk_motion *out, const pki_rb_plan *plans, size_t np, bool morphs,
                 pk_overlay_stats *st);

#endif
